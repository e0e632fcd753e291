"""mx.profiler aggregate statistics: CustomOp timing domain and pause across stop/run
(compared with MXNet 1.9.1)."""

import json

import mxnet as mx
from mxnet import profiler


class _AddOne(mx.operator.CustomOp):
    def forward(self, is_train, req, in_data, out_data, aux):
        self.assign(out_data[0], req[0], in_data[0] + 1)

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        self.assign(in_grad[0], req[0], out_grad[0] * 2)


@mx.operator.register("ProfAddOne")
class _AddOneProp(mx.operator.CustomOpProp):
    def __init__(self):
        super().__init__(need_top_grad=True)

    def create_operator(self, ctx, shapes, dtypes):
        return _AddOne()


def _time_stats():
    return json.loads(profiler.dumps(format="json"))["Time"]


def _start(tmp_path):
    profiler.set_config(
        profile_imperative=True, aggregate_stats=True, filename=str(tmp_path / "prof.json")
    )
    profiler.set_state("run")
    profiler.dumps(reset=True)


def test_custom_op_recorded_in_custom_operator_domain(tmp_path):
    _start(tmp_path)
    try:
        x = mx.nd.zeros((4,))
        x.attach_grad()
        with mx.autograd.record():
            y = mx.nd.Custom(x, op_type="ProfAddOne")
        y.backward()
        mx.nd.sqrt(x).wait_to_read()
        stats = _time_stats()
    finally:
        profiler.set_state("stop")
    custom = stats["Custom Operator"]
    assert custom["ProfAddOne::pure_python"]["Count"] == 1
    assert custom["_backward_ProfAddOne::pure_python"]["Count"] == 1
    assert custom["ProfAddOne::_plus_scalar"]["Count"] == 1
    assert custom["_backward_ProfAddOne::_mul_scalar"]["Count"] == 1
    assert "Custom" not in stats["operator"] and "_plus_scalar" not in stats["operator"]
    assert stats["operator"]["sqrt"]["Count"] == 1


def test_run_after_pause_and_stop_records_again(tmp_path):
    _start(tmp_path)
    try:
        profiler.pause()
        mx.nd.sqrt(mx.nd.ones((2,))).wait_to_read()
        assert "operator" not in _time_stats()
        profiler.set_state("stop")
        profiler.set_state("run")
        mx.nd.sqrt(mx.nd.ones((2,))).wait_to_read()
        assert _time_stats()["operator"]["sqrt"]["Count"] == 1
    finally:
        profiler.set_state("stop")


def test_aggregate_times_are_whole_microseconds(tmp_path):
    _start(tmp_path)
    try:
        mx.nd.sqrt(mx.nd.ones((50, 50))).wait_to_read()
        stat = _time_stats()["operator"]["sqrt"]
    finally:
        profiler.set_state("stop")
    for key in ("Total", "Min", "Max"):
        assert abs(stat[key] * 1000 - round(stat[key] * 1000)) < 1e-6


def test_counter_values_and_marker_in_trace_and_stats(tmp_path):
    _start(tmp_path)
    try:
        dom = profiler.Domain("D")
        c = profiler.Counter(dom, "cnt", 3)
        c += 2
        c -= 1
        profiler.Marker(dom, "mk").mark("process")
        stat = _time_stats()["D"]["cnt"]
        profiler.dump()
    finally:
        profiler.set_state("stop")
    # MXNet aggregates a counter's values: Total is the current one, Min/Max over all
    assert (stat["Count"], stat["Total"], stat["Min"], stat["Max"]) == (3, 0.004, 0.003, 0.005)
    with open(tmp_path / "prof.json") as f:
        events = json.load(f)["traceEvents"]
    counts = [e["args"]["cnt"] for e in events if e.get("ph") == "C" and e["name"] == "cnt"]
    assert counts == [3, 5, 4]
    marks = [e for e in events if e.get("name") == "mk"]
    assert marks[0]["ph"] == "n" and marks[0]["s"] == "p"
