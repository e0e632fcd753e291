"""CPU uniform/normal samples and the initializers built on them follow MXNet 1.9.1's own
stream: the expected numbers were printed by real MXNet 1.9.1 after the same seeds."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon


def close(a, b):
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), b, rtol=1e-7, atol=0)


def test_uniform_normal_sequences_after_seed():
    mx.random.seed(42)
    u = mx.nd.random.uniform(shape=(200,)).asnumpy()  # 4 workers of 50 outputs
    close(
        u[[0, 49, 50, 100, 199]],
        [
            0.8290936350822449,
            0.9263513684272766,
            0.12724360823631287,
            0.4119027853012085,
            0.5191718339920044,
        ],
    )
    close(
        mx.nd.random.normal(shape=(7,)).asnumpy(),
        [
            0.3858751058578491,
            0.858834445476532,
            1.4128191471099854,
            0.22292065620422363,
            -0.03739815205335617,
            -1.6758960485458374,
            -0.36744096875190735,
        ],
    )
    u64 = mx.nd.random.uniform(-2, 3, shape=(3,), dtype="float64").asnumpy()
    assert u64.dtype == np.float64
    close(u64, [2.3150402592719566, 1.811390664820506, 2.382900455667081])


def test_every_cpu_context_shares_one_stream():
    mx.random.seed(5, ctx=mx.cpu(1))
    close(
        mx.nd.random.uniform(shape=(2,), ctx=mx.cpu(0)).asnumpy(),
        [0.8607373237609863, 0.3226202428340912],
    )


def test_initializer_and_large_normal():
    mx.random.seed(1)
    net = gluon.nn.Dense(3, in_units=4)
    net.initialize(mx.init.Xavier())
    close(
        net.weight.data().asnumpy().ravel(),
        [
            0.04413074254989624,
            -0.8239545822143555,
            -0.851823091506958,
            0.17503976821899414,
            -0.5814792513847351,
            0.3524656295776367,
            0.5051101446151733,
            0.9033917188644409,
            0.09656095504760742,
            -0.8928554058074951,
            -0.766066312789917,
            -0.23232793807983398,
        ],
    )
    big = mx.nd.random.normal(shape=(70000,)).asnumpy()  # 1024 workers
    close(
        big[[0, 68, 69, 30000, 69999]],
        [
            -1.8047189712524414,
            -1.7814605236053467,
            0.6862986087799072,
            0.4791574776172638,
            0.05879191681742668,
        ],
    )


def test_numpy_interface_stream_is_separate_and_sequential():
    from mxnet import np as mnp
    from mxnet import npx

    with mx.util.np_array(True), mx.util.np_shape(True):
        mx.random.seed(3)
        u = mnp.random.uniform(size=(200,)).asnumpy()  # one engine, read in order
        close(
            u[[0, 49, 50, 199]],
            [0.5853022336959839, 0.4131808876991272, 0.696375846862793, 0.035191573202610016],
        )
        close(
            mnp.random.normal(0, 1, size=(7,)).asnumpy(),
            [
                0.6801980137825012,
                -0.853589653968811,
                0.28267553448677063,
                0.4686000347137451,
                -0.7083327174186707,
                0.9356980919837952,
                -1.875014305114746,
            ],
        )
        u64 = mnp.random.uniform(-1, 2, size=(3,), dtype="float64").asnumpy()
        close(u64, [0.3298884630203247, 1.8993256092071533, 1.1316933631896973])
        # the classic samplers' engines were not touched by the mx.np calls
        close(mx.nd.random.uniform(shape=(2,)).asnumpy(), [0.5853022336959839, 0.421657532453537])
    assert npx is not None


def test_numpy_mode_initializer_uses_numpy_stream():
    from mxnet import npx

    npx.set_np()
    try:
        mx.random.seed(0)
        net = gluon.nn.Dense(3, in_units=2)
        net.initialize(mx.init.Normal(sigma=0.01))
        close(
            net.weight.data().asnumpy().ravel(),
            [
                0.022122062742710114,
                0.011630786582827568,
                0.007740037981420755,
                0.0048380461521446705,
                0.010434403084218502,
                0.0029956346843391657,
            ],
        )
    finally:
        npx.reset_np()


def test_dropout_masks_follow_mxnet_stream():
    from mxnet import autograd

    mx.random.seed(0)
    with autograd.train_mode():
        y = mx.nd.Dropout(mx.nd.ones((12,)), p=0.5)
    np.testing.assert_array_equal(y.asnumpy(), [0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 2])
    # the mask used 12 draws of engine 0: the next sample continues after them
    close(mx.nd.random.uniform(shape=(3,)).asnumpy(), [0.4375872, 0.2975346, 0.891773])
    mx.random.seed(0)
    with autograd.record():
        z = mx.nd.Dropout(mx.nd.ones((2, 3, 4)), p=0.5, axes=(1,))  # mask (2, 1, 4): u < 0.5
    assert not z.asnumpy().any()  # its 8 draws (0.549, 0.593, ...) are all >= 0.5
    close(mx.nd.random.uniform(shape=(2,)).asnumpy(), [0.4236548, 0.6235637])


def test_zero_size_samples_draw_nothing():
    from mxnet import npx

    npx.set_np()
    try:
        mx.random.seed(0)
        assert mx.nd.random.uniform(shape=(0, 3)).shape == (0, 3)
        assert mx.nd.random.normal(shape=(2, 0)).shape == (2, 0)
        assert mx.np.random.normal(size=(0,)).shape == (0,)
        # nothing was consumed: engine 0 still starts with mt19937(0)'s first draw
        close(mx.nd.random.uniform(shape=(1,)).asnumpy(), [0.5488135218620300])
    finally:
        npx.reset_np()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_dropout_native_mask_matches_stream_reference(dtype, monkeypatch):
    # Dropout makes its mask in the native sampler (compare + scale in one pass, cached state
    # addresses); over repeated calls, axes masks, several workers and a reseed it must equal
    # the mask built from the NumPy engines' uniforms: u <= 1-p kept (u < 1-p with axes),
    # scaled by 1/(1-p) in float32
    from mxnet import _mxrng, autograd

    def run():
        out = []
        for s in (3, 5):
            mx.random.seed(s)
            with autograd.train_mode():
                for shape, axes in (((300,), ()), ((4, 5, 6), (1,)), ((7, 40), ())):
                    x = mx.nd.ones(shape, dtype=dtype)
                    out.append(mx.nd.Dropout(x, p=0.3, axes=axes).asnumpy())
        return out

    native = run()
    monkeypatch.setattr(_mxrng, "NATIVE", False)
    ref = []
    pkeep = np.float32(1) - np.float32(0.3)
    for s in (3, 5):
        mx.random.seed(s)
        for shape, axes in (((300,), ()), ((4, 5, 6), (1,)), ((7, 40), ())):
            mshape = [1 if i in axes else d for i, d in enumerate(shape)]
            u = _mxrng.uniform_raw(int(np.prod(mshape)), dtype).astype(np.float32)
            kept = (u < pkeep) if axes else (u <= pkeep)
            mask = (kept.astype(np.float32) * (np.float32(1) / pkeep)).reshape(mshape)
            ref.append(np.broadcast_to(mask, shape).astype(dtype))
    for a, b in zip(native, ref):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
