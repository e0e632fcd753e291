"""mxnet.test_utils' private location helpers, as MXNet 1.9.1's docstrings use them."""
import numpy as np
import pytest

import mxnet as mx
from mxnet.test_utils import _parse_aux_states, _parse_location


def test_parse_location_list_dict_and_mismatch():
    a, b = mx.sym.Variable("b"), mx.sym.Variable("a")  # arguments ['b', 'a']
    la, lb = np.ones((2, 3), dtype=np.float64), np.zeros((3, 4))
    got = _parse_location(a * b, [la, lb], None)
    assert list(got) == ["a", "b"]  # sorted by name
    assert got["b"].shape == (2, 3) and got["b"].dtype == np.float32
    kept = _parse_location(a * b, {"a": lb, "b": la}, None, dtype="asnumpy")
    assert kept["b"].dtype == np.float64
    with pytest.raises(ValueError, match="keys of the given location do not match"):
        _parse_location(a * b, {"a": la}, None)


def test_parse_aux_states():
    bn = mx.sym.BatchNorm(mx.sym.Variable("x"), name="bn")
    m, v = np.ones(3), np.full(3, 2.0)
    got = _parse_aux_states(bn, [m, v], None)
    assert sorted(got) == ["bn_moving_mean", "bn_moving_var"]
    assert got["bn_moving_var"].asnumpy().tolist() == [2.0, 2.0, 2.0]
    assert _parse_aux_states(bn, None, None) is None
    with pytest.raises(ValueError, match="aux_states names and given aux_states do not match"):
        _parse_aux_states(bn, {"bn_moving_var": v}, None)
