"""``mxnet.contrib.amp`` against golden files written by MXNet 1.9.1
(``tests/compat/make_golden_amp.py``): op lists, converted graphs, graphs built after init."""

import json
import os

import pytest

import mxnet as mx
from mxnet.contrib import amp
from mxnet.contrib.amp import amp as amp_mod
from tests.compat import make_golden_amp as gold

HERE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat", "golden", "amp"
)


def _load(name):
    with open(os.path.join(HERE, name)) as f:
        return json.load(f)


@pytest.fixture
def amp_off():
    amp_mod._reset()
    yield
    amp_mod._reset()


def test_lists_match_mxnet():
    data = _load("lists.json")
    for mod in ("symbol_fp16", "symbol_bf16"):
        m = getattr(amp.lists, mod)
        ours = {k: getattr(m, k) for k in dir(m) if k.isupper()}
        ours = json.loads(json.dumps(ours))  # tuples -> lists, as stored
        assert ours == data[mod], mod


@pytest.mark.parametrize("case", [c[0] for c in gold.CONVERT])
def test_convert_symbol_json(case):
    want = _load("convert.json")[case]
    graph, kwargs = next((g, kw) for n, g, kw in gold.CONVERT if n == case)
    got = gold.convert_case(mx, amp, graph, kwargs)
    assert json.loads(got["json"]) == json.loads(want["json"])
    assert got["json"] == want["json"]
    assert got["arg_names"] == want["arg_names"]
    assert got["args"] == want["args"]
    assert got["aux"] == want["aux"]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_init_symbols_and_ndarrays(amp_off, dtype):
    want = _load(f"init_{dtype}.json")
    plain = {g: gold.build(mx, g).tojson() for g in gold.INIT_GRAPHS}
    amp.init(dtype)
    for g in gold.INIT_GRAPHS:
        sym = gold.build(mx, g)
        assert json.loads(sym.tojson(remove_amp_cast=False)) == json.loads(want["sym"][g]), g
        if g != "split":  # the saved form drops the casts again
            assert json.loads(sym.tojson()) == json.loads(plain[g]), g
    assert gold.nd_dtypes(mx, dtype) == want["nd"]
    assert json.loads(gold.gluon_graph(mx)) == json.loads(want["gluon"])
