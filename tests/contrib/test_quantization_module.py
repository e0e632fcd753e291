"""mx.contrib.quantization: importable as in MXNet 1.9.1; its entry points are unsupported."""

import pytest

import mxnet as mx
from mxnet.base import MXNetError


def test_quantization_entry_points_raise_named_errors():
    from mxnet.contrib import quantization

    sym = mx.sym.FullyConnected(mx.sym.Variable("data"), num_hidden=2)
    for name in ("quantize_model", "quantize_net", "quantize_graph", "calib_graph"):
        with pytest.raises(MXNetError, match=f"quantization.{name}: INT8"):
            getattr(quantization, name)(sym, {}, {})


def test_quantization_reachable_as_attribute():
    assert mx.contrib.quantization.quantize_net.__name__ == "quantize_net"
