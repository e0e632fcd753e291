"""mx.profiler, mx.log, mx.libinfo, mx.contrib."""

import json

import pytest

import mxnet as mx


def test_profiler_writes_chrome_trace(tmp_path):
    fname = str(tmp_path / "profile.json")
    mx.profiler.set_config(filename=fname, profile_all=True)
    mx.profiler.set_state("run")
    with mx.profiler.scope("mine"):
        (mx.nd.ones((8, 8)) * 2).sum().wait_to_read()
    mx.profiler.set_state("stop")
    mx.profiler.dump()
    with open(fname) as f:
        trace = json.load(f)
    assert "traceEvents" in trace and trace["traceEvents"]
    assert "mine" in json.dumps(trace)
    assert isinstance(mx.profiler.dumps(), str)


def test_profiler_bad_input():
    with pytest.raises(mx.MXNetError):
        mx.profiler.set_config(no_such_option=1)
    with pytest.raises(mx.MXNetError):
        mx.profiler.set_state("walk")


def test_log_and_libinfo(tmp_path):
    path = tmp_path / "x.log"
    log = mx.log.get_logger("mxng_test", filename=str(path), level=mx.log.INFO)
    log.info("hello %d", 3)
    for h in log.handlers:
        h.flush()
    assert "hello 3" in path.read_text()
    assert mx.libinfo.__version__ == "1.9.1"
    with pytest.raises(mx.MXNetError):
        mx.libinfo.find_lib_path()


def test_contrib_aliases_and_onnx():
    assert mx.contrib.nd is mx.nd.contrib and mx.contrib.sym is mx.sym.contrib
    with pytest.raises(mx.MXNetError, match="ONNX"):
        mx.contrib.onnx.export_model(None, None)
