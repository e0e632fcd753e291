"""topk/sort/argsort order equal values as MXNet 1.9.1's CPU kernels (libstdc++ std::sort /
std::partial_sort, not stable); expected orders were produced by MXNet 1.9.1."""

import numpy as np

import mxnet as mx
from mxnet import autograd
from mxnet._op._sort_ties import gnu_sort_order


def _x():
    return mx.nd.array(np.random.RandomState(0).randint(0, 3, (2, 40)))


def test_argsort_ties_follow_mxnet_order():
    got = mx.nd.argsort(_x(), is_ascend=False).asnumpy().astype(int).tolist()
    assert got[0][:12] == [39, 37, 5, 7, 31, 25, 14, 11, 27, 13, 19, 1]
    assert got[1][:12] == [39, 15, 14, 0, 21, 22, 23, 8, 25, 29, 32, 2]
    y = mx.nd.array([[3, 1, 2, 1, 3] * 5]).T
    got = mx.nd.argsort(y, axis=0).asnumpy().astype(int).ravel().tolist()
    assert got[:10] == [1, 23, 3, 21, 6, 18, 8, 16, 11, 13]


def test_topk_partial_sort_ties_follow_mxnet_order():
    # k * 8 <= n: MXNet's std::partial_sort (heap selection)
    assert mx.nd.topk(_x(), k=4).asnumpy().astype(int).tolist() == [[11, 7, 13, 5], [8, 0, 14, 2]]
    # k * 8 > n: full std::sort, then the first k
    y = mx.nd.array([[3, 1, 2, 1, 3] * 5])
    vals, idx = mx.nd.topk(y, k=7, ret_typ="both")
    assert idx.asnumpy().astype(int).tolist() == [[24, 20, 4, 5, 19, 15, 9]]
    assert vals.asnumpy().tolist() == [[3] * 7]


def test_short_rows_and_distinct_values_unchanged():
    # up to 16 elements std::sort is an insertion sort: stable
    x = mx.nd.array([[1, 1, 0.5, 1, 1, 0.2, 1, 1, 1, 1, 0.3, 1]])
    assert mx.nd.topk(x, k=5).asnumpy().tolist() == [[0, 1, 3, 4, 6]]
    z = mx.nd.array(np.random.RandomState(1).permutation(100).astype("float32"))
    assert (mx.nd.argsort(z).asnumpy() == np.argsort(z.asnumpy())).all()


def test_topk_value_gradient_with_ties():
    x = mx.nd.array([[2.0, 1, 2, 1] * 6])
    x.attach_grad()
    with autograd.record():
        v = mx.nd.topk(x, k=2, ret_typ="value")
    v.backward()
    assert mx.nd.topk(x, k=2).asnumpy().tolist() == [[2, 0]]
    want = np.zeros(24)
    want[[0, 2]] = 1
    assert (x.grad.asnumpy()[0] == want).all()
    assert mx.nd.topk(x, k=5).asnumpy().tolist() == [[0, 2, 22, 4, 6]]


def test_gnu_sort_order_is_a_sort():
    vals = list(np.random.RandomState(2).randint(0, 4, 300).astype(float))
    order = gnu_sort_order(vals, 300, True)
    assert sorted(order) == list(range(300))
    assert [vals[i] for i in order] == sorted(vals)
    part = gnu_sort_order(vals, 10, False)[:10]
    assert [vals[i] for i in part] == [3.0] * 10


def test_np_argsort_ties_follow_mxnet_order():
    # mx.np.argsort/sort run through the same CPU TopK sort in MXNet 1.9.1 (not NumPy's)
    x = mx.np.array(np.random.RandomState(0).randint(0, 3, 40).astype("float32"))
    got = mx.np.argsort(x).asnumpy().astype(int).tolist()
    assert got[:12] == [0, 22, 20, 23, 26, 28, 15, 32, 10, 9, 8, 6]
    assert mx.np.sort(x).asnumpy().tolist() == sorted(x.asnumpy().tolist())
