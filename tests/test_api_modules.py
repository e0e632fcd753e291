"""Small public modules and names of MXNet 1.9.1: mx.error, mx.library, mx.rtc, mx.rnd,
callback.save_checkpoint, rnn.rnn_unroll, contrib.tensorboard, base helpers."""

import os
import warnings

import pytest

import mxnet as mx


def test_error_module():
    with pytest.raises(mx.MXNetError):
        raise mx.error.InternalError("x")
    assert mx.base.error_types["InternalError"] is mx.error.InternalError

    @mx.error.register
    class _MyErr(mx.MXNetError):
        pass

    assert mx.base.error_types["_MyErr"] is _MyErr


def test_library_and_rtc_raise_clearly(tmp_path):
    with pytest.raises(mx.MXNetError, match="does NOT exist"):
        mx.library.load(str(tmp_path / "missing.so"))
    lib = tmp_path / "lib.so"
    lib.write_bytes(b"\x7fELF")
    with pytest.raises(mx.MXNetError, match="CustomOp"):
        mx.library.load(os.fspath(lib))
    with pytest.raises(mx.MXNetError, match="not supported"):
        mx.rtc.CudaModule('extern "C" __global__ void k() {}')


def test_aliases():
    assert mx.rnd is mx.random
    assert mx.callback.save_checkpoint is mx.model.save_checkpoint
    assert mx.symbol.symbol.NotImplementedForSymbol is mx.base.NotImplementedForSymbol
    with pytest.raises(mx.base.NotImplementedForSymbol):
        s = mx.sym.var("x")
        s += 1


def test_rnn_unroll_deprecated_but_works():
    cell = mx.rnn.RNNCell(4, prefix="r_")
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        outs, states = mx.rnn.rnn_unroll(cell, 3, mx.sym.var("data"))
    assert len(outs) == 3 and len(states) == 1
    assert any("deprecated" in str(x.message) for x in w)


def test_tensorboard_callback_logs_metrics(monkeypatch):
    from mxnet.contrib import tensorboard

    logged = []

    class _Writer:
        def add_scalar(self, name, value, global_step=None):
            logged.append((name, value, global_step))

    monkeypatch.setattr(tensorboard, "_summary_writer", lambda d: _Writer())
    cb = tensorboard.LogMetricsCallback("logs", prefix="train")
    metric = mx.metric.Accuracy()
    metric.update([mx.nd.array([1, 0])], [mx.nd.array([[0.1, 0.9], [0.2, 0.8]])])
    cb(mx.model.BatchEndParam(epoch=0, nbatch=1, eval_metric=metric, locals=None))
    assert logged == [("train-accuracy", 0.5, 1)]


def test_classproperty_and_with_metaclass():
    class A:
        @mx.base.classproperty
        def name(cls):
            return cls.__name__

    assert A.name == "A"
    B = mx.base.with_metaclass(type)
    assert isinstance(B, type)


def test_power_keywords_and_group_create_fn():
    out = mx.nd.power(base=mx.nd.array([2.0]), exp=3)
    assert out.asnumpy()[0] == 8
    from mxnet.symbol.numpy import _Symbol

    a = mx.sym.var("a")
    g = mx.sym.Group([a, a * 2], create_fn=_Symbol)
    assert isinstance(g, _Symbol) and len(g.list_outputs()) == 2


def test_bucketing_module_states():
    def sym_gen(key):
        data, st = mx.sym.var("data"), mx.sym.var("state")
        out = mx.sym.FullyConnected(data, num_hidden=2, name="fc") + st
        return mx.sym.Group([out, mx.sym.BlockGrad(st)]), ("data",), None

    mod = mx.mod.BucketingModule(sym_gen, default_bucket_key=3, state_names=["state"])
    mod.bind(data_shapes=[("data", (1, 3))], for_training=False)
    mod.init_params()
    mod.set_states(value=2)
    assert mod.get_states(merge_multi_context=False)[0][0].asnumpy().tolist() == [[2.0, 2.0]]
    mod.set_states(states=[[mx.nd.ones((1, 2)) * 5]])
    assert mod.get_states(merge_multi_context=False)[0][0].asnumpy().tolist() == [[5.0, 5.0]]


def test_symbol_optimize_for_known_backends():
    x = mx.sym.var("x")
    s = mx.sym.Convolution(x, kernel=(3, 3), num_filter=4, name="c")
    o = s.optimize_for("MKLDNN")
    assert o.list_arguments() == s.list_arguments() and o.tojson() == s.tojson()
    assert s.get_backend_symbol("MKLDNN").list_outputs() == s.list_outputs()
    # MXNet 1.9.1: optimize_for logs an unknown backend and returns the graph unchanged;
    # get_backend_symbol raises; 'default' needs operator names from the C API
    assert s.optimize_for("foo").tojson() == s.tojson()
    with pytest.raises(mx.MXNetError, match="foo is not found"):
        s.get_backend_symbol("foo")
    with pytest.raises(mx.MXNetError, match="op_names"):
        s.optimize_for("default")


def test_contrib_quant_alias():
    from mxnet.contrib import quantization

    assert mx.contrib.quant is quantization
    assert callable(mx.contrib.quant.quantize_model)


def test_module_level_names_third_party_code_imports():
    # GluonTS imports these private/module-level names from MXNet 1.x modules
    from mxnet.gluon.block import _flatten, _regroup
    from mxnet.metric import _BinaryClassificationMetrics, ndarray

    assert ndarray is mx.nd
    assert _BinaryClassificationMetrics is mx.metric.F1().metrics.__class__
    a = mx.nd.ones((2,))
    flat, fmt = _flatten([a, [a, a], None], "input")
    assert fmt == [0, [0, 0], -1] and len(flat) == 4 and flat[3] is None
    grouped, rest = _regroup(flat, fmt)
    assert rest == [] and grouped[1][1] is a and grouped[2] is None
    with pytest.raises(ValueError, match="input"):
        _flatten(3, "input")


def test_rnn_cell_private_helpers_importable():
    # custom RNN cells of third-party packages import MXNet 1.9.1's private helpers
    from mxnet.gluon.contrib.rnn.rnn_cell import SequentialRNNCell as _Seq
    from mxnet.gluon.contrib.rnn.rnn_cell import _format_sequence as _fmt2
    from mxnet.gluon.rnn.rnn_cell import (
        _cells_begin_state,
        _cells_state_info,
        _format_sequence,
        _get_begin_state,
        _mask_sequence_variable_length,
        _reverse_sequences,
    )

    assert _Seq is mx.gluon.rnn.SequentialRNNCell and _fmt2 is _format_sequence
    x = mx.nd.arange(24).reshape((2, 3, 4))
    steps, axis, F, batch = _format_sequence(3, x, "NTC", False)
    assert len(steps) == 3 and axis == 1 and batch == 2 and steps[1].shape == (2, 4)
    merged, _, _, _ = _format_sequence(3, steps, "NTC", True)
    assert merged.shape == (2, 3, 4)
    cells = [mx.gluon.rnn.LSTMCell(5), mx.gluon.rnn.GRUCell(4)]
    assert [i["shape"] for i in _cells_state_info(cells, 2)] == [(2, 5), (2, 5), (2, 4)]
    assert len(_cells_begin_state(cells, batch_size=2)) == 3
    rev = _reverse_sequences(steps, 3)
    assert (rev[0].asnumpy() == steps[2].asnumpy()).all()
    assert callable(_get_begin_state) and callable(_mask_sequence_variable_length)


def test_conv_layers_infer_weight_shape_helper():
    from mxnet.gluon.nn.conv_layers import _infer_weight_shape

    shapes = _infer_weight_shape(
        "Convolution", (2, 3, 8, 8), {"kernel": (3, 3), "num_filter": 4, "no_bias": False}
    )
    assert shapes == [(2, 3, 8, 8), (4, 3, 3, 3), (4,)]


def test_ndarray_module_reexports_front_ends():
    # MXNet 1.9.1's mxnet.ndarray.ndarray defines add/maximum/... itself
    from mxnet.ndarray.ndarray import add, lesser_equal, maximum, split_v2

    a, b = mx.nd.array([1.0, 5.0]), mx.nd.array([3.0, 2.0])
    assert add(a, b).asnumpy().tolist() == [4.0, 7.0]
    assert maximum(a, 2).asnumpy().tolist() == [2.0, 5.0]
    assert lesser_equal(a, b).asnumpy().tolist() == [1.0, 0.0]
    assert len(split_v2(mx.nd.arange(6), 3)) == 3
    with pytest.raises(AttributeError):
        mx.nd.ndarray.not_a_function  # noqa: B018
