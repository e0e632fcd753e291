"""MXNet 1.9.1's np copy semantics (reshape/transpose write new arrays; reshape_view shares)
and float32 arange."""

from mxnet import np


def test_reshape_and_transpose_copy_reshape_view_shares():
    a = np.arange(6)
    b = a.reshape(2, 3)
    b[0, 0] = 5
    assert float(a[0]) == 0.0
    t = b.T
    t[0, 0] = 7
    assert float(b[0, 0]) == 5.0
    v = a.reshape_view(2, 3)
    v[0, 0] = 9
    assert float(a[0]) == 9.0


def test_arange_is_evaluated_in_float32():
    assert np.arange(0, 1, 0.3).tolist()[-1] == float(np.float32(0.3) * np.float32(3))
    assert np.arange(2, 7, 2, dtype="int32").tolist() == [2, 4, 6]


def test_set_printoptions_and_genfromtxt():
    import io

    import pytest

    import mxnet as mx
    from mxnet import npx

    np.set_printoptions(precision=2)
    try:
        assert repr(np.array([1.23456])) == "array([1.23])"
    finally:
        np.set_printoptions(precision=8)
    with pytest.raises(NotImplementedError):
        np.set_printoptions(linewidth=3)
    a = np.genfromtxt(io.StringIO("1,2\n3,4"), delimiter=",")
    assert isinstance(a, np.ndarray) and a.shape == (2, 2)
    with pytest.raises(ValueError, match="gpu context"):
        npx.get_cuda_compute_capability(mx.cpu())


def test_random_sampler_inside_hybridized_block_is_a_graph_node():
    import mxnet as mx
    from mxnet import gluon, npx

    class Noisy(gluon.HybridBlock):
        def hybrid_forward(self, F, x):
            return x + F.np.random.uniform(0, 1, size=(2,))

    prev = mx.util.is_np_array()
    npx.set_np()
    try:
        b = Noisy()
        b.hybridize()
        r1, r2 = b(np.zeros((2,))), b(np.zeros((2,)))
        assert bool((r1 != r2).any())  # drawn at every run, not baked into the graph
        assert bool(((r1 >= 0) & (r1 < 1)).all())
        assert isinstance(mx.sym.np.random.normal(0, 1, size=(3,)), mx.sym.np._Symbol)
    finally:
        if not prev:
            npx.reset_np()


def test_np_mode_block_outputs_must_be_np_arrays():
    import pytest

    from mxnet.gluon import HybridBlock
    from mxnet.util import use_np

    @use_np
    class Mixed(HybridBlock):
        def hybrid_forward(self, F, x):
            return x.as_nd_ndarray() + x.as_nd_ndarray(), F.np.multiply(x, x)

    net = Mixed()
    with pytest.raises(TypeError):
        net(np.ones((2, 3)))
    net.hybridize()
    with pytest.raises(TypeError):
        net(np.ones((2, 3)))


def test_multinomial_empty_and_zero_size():
    assert np.random.multinomial(10, []).size == 0
    assert np.random.multinomial(10, [0.5, 0.5], size=(0, 2)).shape == (0, 2, 2)


def test_integer_mod_gradient_is_zero_as_in_mxnet():
    from mxnet import autograd

    a = np.array([5, 7], dtype="int32")
    b = np.array([3, 4], dtype="int32")
    a.attach_grad()
    b.attach_grad()
    with autograd.record():
        y = np.mod(a, b)
    y.backward()
    assert a.grad.tolist() == [0, 0] and b.grad.tolist() == [0, 0]
    f = np.array([5.0, 7.0])
    f.attach_grad()
    with autograd.record():
        z = np.mod(f, 3.0)
    z.backward()
    assert f.grad.tolist() == [1.0, 1.0]


def test_arange_step_none():
    assert np.arange(0, 5, None).tolist() == [0, 1, 2, 3, 4]
    assert np.arange(0, -5, None).size == 0
