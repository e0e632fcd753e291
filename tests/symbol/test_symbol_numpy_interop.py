"""Symbols among NumPy values and the UpSampling(bilinear) argument names (MXNet 1.9.1)."""

import numpy as np
import pytest

import mxnet as mx


def test_numpy_scalar_times_symbol_is_a_symbol():
    s = mx.sym.var("x")
    for y in (np.float32(2) * s, np.float64(2) + s, np.int64(3) - s):
        assert isinstance(y, mx.sym.Symbol)
    out = (np.float32(2) * s).eval(x=mx.nd.array([1.0, 3.0]))[0]
    np.testing.assert_array_equal(out.asnumpy(), [2.0, 6.0])


def test_numpy_array_plus_symbol_raises_type_error():
    with pytest.raises(TypeError):
        np.ones(2) + mx.sym.var("x")


def test_list_of_symbols_in_numpy_object_arrays():
    # test_operator_gpu's check_consistency_NxM: np.repeat(sym_list, n)
    a = mx.sym.var("a")
    b = mx.sym.Convolution(num_filter=3, kernel=(3,), name="conv")
    r = np.repeat([a, b], 2)
    assert r.shape == (4,) and r.dtype == object
    assert [s.name for s in r] == ["a", "a", "conv", "conv"]


@pytest.mark.parametrize("num_args", [1, 2])
def test_bilinear_upsampling_arguments(num_args):
    s = mx.sym.UpSampling(
        scale=2, num_filter=2, name="up", sample_type="bilinear", num_args=num_args
    )
    assert s.list_arguments() == ["up_data", "up_weight"]
    args, outs, _ = s.infer_shape(up_data=(2, 2, 2, 10))
    assert args == [(2, 2, 2, 10), (2, 1, 4, 4)] and outs == [(2, 2, 4, 20)]
    d = mx.sym.UpSampling(
        mx.sym.var("d"), scale=2, num_filter=2, name="u2", sample_type="bilinear", num_args=1
    )
    assert mx.sym.load_json(d.tojson()).list_arguments() == ["d", "u2_weight"]


def test_nearest_upsampling_arguments_stay_variadic():
    s = mx.sym.UpSampling(scale=2, name="up", sample_type="nearest", num_args=2)
    assert s.list_arguments() == ["up_arg0", "up_arg1"]
