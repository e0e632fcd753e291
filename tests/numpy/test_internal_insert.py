"""``mx.nd.np._internal`` (``_npi_*`` operators by short name) and ``np.insert`` with one index."""

import numpy as onp

import mxnet as mx
from mxnet import np
from mxnet.gluon import HybridBlock


def test_internal_boolean_mask_assign_in_place():
    a = np.zeros((2, 3))
    mask = np.array([True, False])
    res = mx.nd.np._internal.boolean_mask_assign_scalar(a, mask, 5.0, start_axis=0, out=a)
    assert isinstance(res, np.ndarray)
    assert a.asnumpy().tolist() == [[5.0, 5.0, 5.0], [0.0, 0.0, 0.0]]
    b = np.zeros((2, 3))
    res = np._internal.boolean_mask_assign_tensor(b, np.array([False, True, True]),
                                                 np.array([[7.0], [8.0]]), start_axis=1)
    assert res.asnumpy().tolist() == [[0.0, 7.0, 7.0], [0.0, 8.0, 8.0]]


@mx.util.use_np
class _Assign(HybridBlock):
    def hybrid_forward(self, F, a, mask):
        return F.np._internal.boolean_mask_assign_scalar(a, mask, 1.0, start_axis=0)


def test_internal_in_hybridized_block():
    net = _Assign()
    net.hybridize()
    out = net(np.zeros((3,)), np.array([True, False, True]))
    assert out.asnumpy().tolist() == [1.0, 0.0, 1.0]


def test_insert_single_index_inserts_values_as_block():
    a = np.arange(6).reshape(3, 2)
    vals = np.array([[7.0], [8.0], [9.0]])
    expect = onp.insert(onp.arange(6.0).reshape(3, 2), [1], [[7], [8], [9]], axis=1)
    for obj in (np.array([1], dtype="int64"), slice(1, 2)):
        onp.testing.assert_array_equal(np.insert(a, obj, vals, axis=1).asnumpy(), expect)
    flat = np.insert(np.arange(6), np.array([1], dtype="int64"), np.array([7.0, 8.0]))
    assert flat.asnumpy().tolist() == [0, 7, 8, 1, 2, 3, 4, 5]


def test_delete_accepts_any_integer_index_dtype():
    a = np.arange(6.0).reshape(2, 3)
    for dt in ("int8", "uint8", "int32", "int64"):
        out = np.delete(a, np.array([0, 2], dtype=dt), axis=1)
        assert out.asnumpy().tolist() == [[1.0], [4.0]]
