"""np.linalg edge cases and mx.np inputs of hybridized blocks outside NumPy mode (MXNet 1.9.1)."""

import numpy as onp

import mxnet as mx
from mxnet import np
from mxnet.gluon import HybridBlock


class _Inv(HybridBlock):  # no use_np: MXNet still traces np inputs as _Symbol
    def hybrid_forward(self, F, x):
        return F.np.linalg.inv(x)


def test_hybridized_block_with_np_input_outside_np_mode():
    assert not mx.util.is_np_array()
    net = _Inv()
    net.hybridize()
    out = net(np.array([[2.0, 0.0], [0.0, 4.0]]))
    assert isinstance(out, np.ndarray)
    onp.testing.assert_allclose(out.asnumpy(), [[0.5, 0.0], [0.0, 0.25]])


def test_svd_of_empty_matrices():
    ut, s, v = np.linalg.svd(np.ones((3, 3, 0, 0)))
    assert ut.shape == (3, 3, 0, 0) and s.shape == (3, 3, 0) and v.shape == (3, 3, 0, 0)


def test_tensorsolve_rank_rules():
    with mx.util.np_shape(True):
        assert np.linalg.tensorsolve(np.ones(()) * 2, np.ones((1, 1, 1))).shape == ()
        res = np.linalg.tensorsolve(np.ones((1, 1, 1)) * 2, np.ones(()))
        assert res.shape == (1, 1, 1) and float(res.asnumpy().ravel()[0]) == 0.5
    assert np.linalg.tensorsolve(np.ones((1, 1)), np.ones((1, 1, 1, 1, 1))).shape == ()
    a = onp.random.RandomState(0).rand(6, 2, 3) + onp.eye(6).reshape(6, 2, 3)
    b = onp.arange(6.0)
    onp.testing.assert_allclose(np.linalg.tensorsolve(np.array(a), np.array(b)).asnumpy(),
                                onp.linalg.tensorsolve(a, b), rtol=1e-4)


def test_eig_family_of_integer_and_empty_matrices():
    a = np.array([[2, 0], [0, 3]], dtype="int32")
    assert np.linalg.eigvals(a).dtype == onp.float64
    w, v = np.linalg.eig(a)
    assert w.dtype == onp.float64 and sorted(w.asnumpy().tolist()) == [2.0, 3.0]
    assert np.linalg.eigvalsh(a).asnumpy().tolist() == [2.0, 3.0]
    w, v = np.linalg.eigh(a)
    assert w.dtype == onp.float64 and v.dtype == onp.float64
    w, v = np.linalg.eigh(np.ones((0, 0)))
    assert w.shape == (0,) and v.shape == (0, 0)
