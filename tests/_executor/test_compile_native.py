"""The compile switch runs the native operators (torch.ops.mxng.*: BatchNorm, the 1x1
convolution weight gradient) inside the compiled graph and gives the eager executor's
results, moving statistics included."""

import numpy as np
import pytest

import mxnet as mx
from mxnet import _kernels
from mxnet._op import _conv_native, _norm_ops

pytestmark = pytest.mark.skipif(not (_norm_ops.ready() and _conv_native.ready()),
                                reason="native kernels not built here")


def _net():
    s = mx.sym
    x = s.Variable("data")
    c1 = s.Convolution(x, num_filter=64, kernel=(3, 3), pad=(1, 1), no_bias=True, name="c1")
    b1 = s.Activation(s.BatchNorm(c1, fix_gamma=False, name="b1"), act_type="relu")
    c2 = s.Convolution(b1, num_filter=64, kernel=(1, 1), no_bias=True, name="c2")
    out = s.Activation(s.BatchNorm(c2, fix_gamma=False, name="b2") + b1, act_type="relu")
    return s.MakeLoss(s.sum(out * out))


def _run(compile_, monkeypatch, calls):
    library = _kernels.library
    monkeypatch.setattr(_kernels, "library", lambda name: calls.append(name) or library(name))
    ex = _net().simple_bind(mx.cpu(), compile=compile_, data=(2, 8, 96, 96))  # large enough for channels-last
    rng = np.random.RandomState(0)
    for name, arr in ex.arg_dict.items():
        arr[:] = rng.normal(0, 0.3, arr.shape) + (1.0 if name.endswith("gamma") else 0.0)
    for name, arr in ex.aux_dict.items():
        arr[:] = 1.0 if name.endswith("var") else 0.0
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward()
    return ex


def test_compiled_native_batchnorm_matches_eager(monkeypatch):
    eager_calls, comp_calls = [], []
    eager = _run(False, monkeypatch, eager_calls)
    comp = _run(True, monkeypatch, comp_calls)
    for calls in (eager_calls, comp_calls):  # both ran the native kernels
        assert "norm" in calls and "gemm" in calls
    np.testing.assert_allclose(comp.outputs[0].asnumpy(), eager.outputs[0].asnumpy(),
                               rtol=1e-4)
    for name in ("c1_weight", "c2_weight", "b1_gamma", "b2_beta", "data"):
        np.testing.assert_allclose(comp.grad_dict[name].asnumpy(),
                                   eager.grad_dict[name].asnumpy(), rtol=1e-3, atol=1e-3)
    for name in ("b1_moving_mean", "b1_moving_var", "b2_moving_mean", "b2_moving_var"):
        np.testing.assert_allclose(comp.aux_dict[name].asnumpy(),
                                   eager.aux_dict[name].asnumpy(), rtol=1e-5, atol=1e-6)
        assert not np.allclose(comp.aux_dict[name].asnumpy(), 1.0 if "var" in name else 0.0)


def test_compiled_graph_has_no_breaks_or_recompiles(monkeypatch):
    """The whole training graph is one compiled frame: memo writes (BatchNorm momentum
    weights, the channels-last choice) happen outside tracing, so nothing breaks the graph
    and later steps reuse it."""
    from torch._dynamo.utils import counters

    from mxnet._op import _norm

    monkeypatch.setattr(_norm, "_WEIGHTS", {})  # nothing memoised by an earlier test
    counters.clear()
    ex = _run(True, monkeypatch, [])
    assert not counters["graph_break"], dict(counters["graph_break"])
    assert counters["frames"]["total"] <= 1, dict(counters["frames"])  # 0: an earlier test's
    counters.clear()
    for _ in range(2):
        ex.forward(is_train=True)
        ex.backward()
    assert not counters["graph_break"] and not counters["frames"]["total"], dict(counters)


def test_compiled_graph_runs_the_winograd_kernels(monkeypatch):
    """A 3x3 convolution the Winograd route takes runs it inside the compiled graph too
    (forward, input and weight gradients), with the eager executor's results."""
    from mxnet._op import _conv_wino

    if not _conv_wino.enabled():
        pytest.skip("no vector-tiled native kernel here")
    monkeypatch.setattr(_conv_wino, "_ON", [])  # decided again before tracing
    s = mx.sym
    net = s.MakeLoss(s.sum(s.square(s.Convolution(s.Variable("data"), num_filter=64,
                                                  kernel=(3, 3), pad=(1, 1), name="c"))))
    results = []
    library = _kernels.library
    for compile_ in (False, True):
        used: set[str] = set()

        class Spy:
            def __init__(self, lib, used=used):
                self.lib, self.used = lib, used

            def __getattr__(self, name):
                if name in ("lib", "used"):  # not set yet (a copy): no recursion
                    raise AttributeError(name)
                self.used.add(name)
                return getattr(self.lib, name)

        monkeypatch.setattr(_kernels, "library",
                            lambda name: Spy(library(name)) if name == "wino" else library(name))
        ex = net.simple_bind(mx.cpu(), compile=compile_, data=(1, 64, 96, 96))
        ex.copy_params_from({"c_weight": mx.nd.array(np.random.RandomState(0).normal(
            0, 0.05, (64, 64, 3, 3))), "c_bias": mx.nd.ones((64,))})
        ex.arg_dict["data"][:] = np.random.RandomState(1).normal(0, 1, (1, 64, 96, 96))
        ex.forward(is_train=True)
        ex.backward()
        assert {"mxng_wino_conv", "mxng_wino_wgrad"} <= used, (compile_, used)
        results.append({k: v.asnumpy() for k, v in ex.grad_dict.items()})
    for k in results[0]:
        np.testing.assert_allclose(results[1][k], results[0][k], rtol=1e-5, atol=1e-5)
