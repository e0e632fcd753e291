"""NDArrayIter, ResizeIter, PrefetchingIter, DataDesc, DataBatch against MXNet 1.9.1 golden."""
import os

import numpy as np
import pytest

from mxnet import nd
from mxnet.base import MXNetError
from mxnet.io import DataBatch, DataDesc, NDArrayIter, PrefetchingIter, ResizeIter

GOLD = os.path.join(os.path.dirname(__file__), '..', 'compat', 'golden', 'data', 'nditer.npz')
CASES = [
    ('pad', dict(batch_size=4, last_batch_handle='pad'), 2),
    ('pad_big', dict(batch_size=23, last_batch_handle='pad'), 1),
    ('discard', dict(batch_size=4, last_batch_handle='discard'), 2),
    ('roll_over', dict(batch_size=4, last_batch_handle='roll_over'), 3),
    ('shuffle', dict(batch_size=3, shuffle=True, last_batch_handle='pad'), 2),
    ('shuffle_roll', dict(batch_size=4, shuffle=True, last_batch_handle='roll_over'), 3),
]


@pytest.fixture(scope='module')
def gold():
    return dict(np.load(GOLD))


@pytest.mark.parametrize('name,kw,epochs', CASES, ids=[c[0] for c in CASES])
def test_nditer_golden(gold, name, kw, epochs):
    data = np.arange(10 * 2 * 3, dtype=np.float32).reshape(10, 2, 3)
    label = np.arange(10, dtype=np.int32) * 10
    np.random.seed(7)
    for variant, args in (('single', dict(data=data, label=label)),
                          ('dict', dict(data={'b': data, 'a': data[:, 0]},
                                        label=[label, label + 1])),
                          ('nolabel', dict(data=[data]))):
        it = NDArrayIter(**args, **kw)
        key = '%s/%s' % (name, variant)
        assert repr((it.provide_data, it.provide_label)) == str(gold[key + '/provide'])
        seen = set()
        for ep in range(epochs):
            for bi, b in enumerate(it):
                for j, d in enumerate(b.data):
                    k = '%s/%d/%d/data%d' % (key, ep, bi, j)
                    np.testing.assert_array_equal(d.asnumpy(), gold[k], err_msg=k)
                    assert d.dtype == gold[k].dtype
                    seen.add(k)
                for j, d in enumerate(b.label):
                    k = '%s/%d/%d/label%d' % (key, ep, bi, j)
                    np.testing.assert_array_equal(d.asnumpy(), gold[k], err_msg=k)
                    seen.add(k)
                assert b.pad == int(gold['%s/%d/%d/pad' % (key, ep, bi)])
                seen.add('%s/%d/%d/pad' % (key, ep, bi))
            it.reset()
        expected = {k for k in gold if k.startswith(key + '/') and not k.endswith('provide')}
        assert seen == expected


def test_datadesc():
    d = DataDesc('data', (2, 3), layout='NTC')
    assert repr(d) == "DataDesc[data,(2, 3),<class 'numpy.float32'>,NTC]"
    assert DataDesc.get_batch_axis('TNC') == 1 and DataDesc.get_batch_axis(None) == 0
    lst = DataDesc.get_list([('a', (1,)), ('b', (2,))], [('a', np.int32), ('b', np.float16)])
    assert lst[1].dtype == np.float16 and lst[0].shape == (1,)
    assert d == ('data', (2, 3))


def test_databatch_str():
    b = DataBatch([nd.ones((2, 3))], [nd.zeros((2,))], pad=1)
    assert str(b) == 'DataBatch: data shapes: [(2, 3)] label shapes: [(2,)]'
    with pytest.raises(AssertionError):
        DataBatch(nd.ones((2,)))


def test_resize_iter():
    it = ResizeIter(NDArrayIter(np.arange(8).reshape(4, 2), batch_size=2), 5)
    firsts = [b.data[0].asnumpy()[0, 0] for b in it]
    assert firsts == [0, 4, 0, 4, 0]
    it.reset()
    assert len(list(it)) == 5
    assert it.provide_data[0].shape == (2, 2)


def test_prefetching_iter():
    a = NDArrayIter(np.arange(8).reshape(4, 2), np.arange(4), batch_size=2)
    b = NDArrayIter(np.arange(8).reshape(4, 2) + 100, np.arange(4), batch_size=2)
    it = PrefetchingIter([a, b], rename_data=[{'data': 'x'}, {'data': 'y'}])
    assert [d.name for d in it.provide_data] == ['x', 'y']
    for _ in range(2):
        batches = list(it)
        assert len(batches) == 2
        np.testing.assert_array_equal(batches[1].data[1].asnumpy(), [[104, 105], [106, 107]])
        it.reset()


def test_prefetching_error():
    class Bad(NDArrayIter):
        def next(self):
            raise ValueError('boom')
    it = PrefetchingIter(Bad(np.zeros((4, 2)), batch_size=2))
    with pytest.raises(ValueError, match='boom'):
        it.next()


def test_bad_input_type():
    with pytest.raises(TypeError):
        NDArrayIter({'a': object()})


def test_fewer_labels_than_data_fail_like_mxnet():
    # MXNet 1.9.1 slices every source up to the data's cursor: a short label array fails
    it = NDArrayIter(np.zeros((10, 2)), np.arange(3), 4)
    with pytest.raises(MXNetError, match='Invalid end for end=4 as axis_size is 3'):
        it.next()


def test_unknown_last_batch_handle_drops_the_last_batch_like_mxnet():
    it = NDArrayIter(np.zeros((10, 2)), np.arange(10), 4, last_batch_handle='foo')
    assert [(b.pad, b.data[0].shape) for b in it] == [(0, (4, 2)), (0, (4, 2))]


def test_io_utils_helpers():
    import mxnet as mx

    data = mx.io.utils._init_data(np.arange(6.0).reshape(3, 2), False, 'x')
    assert [k for k, _ in data] == ['x'] and isinstance(data[0][1], nd.NDArray)
    assert mx.io.utils._has_instance(data, nd.NDArray)
    assert not mx.io.utils._has_instance(data, nd.sparse.CSRNDArray)
    rows = mx.io.utils._getdata_by_idx(data, np.array([2, 0]))[0][1].asnumpy()
    assert rows.tolist() == [[4.0, 5.0], [0.0, 1.0]]
    part = mx.io.utils._slice_along_batch_axis(data[0][1], slice(1, 3), 0)
    assert part.asnumpy().tolist() == [[2.0, 3.0], [4.0, 5.0]]
