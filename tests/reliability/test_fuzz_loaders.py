"""Fuzz the file loaders with mutated golden and self-written files (seeded, time-bounded).

Every corrupted input must either load or raise a documented exception (MXNetError, plus
the few types MXNet itself raises), within a per-case time limit and bounded memory.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import struct

import numpy as np

import mxnet as mx
from mxnet import _safe_pickle
from mxnet.base import MXNetError
from tests.reliability._fuzz import fuzz, mutate

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "compat", "golden")


def _g(*parts: str) -> bytes:
    with open(os.path.join(GOLDEN, *parts), "rb") as f:
        return f.read()


def _huge_params(count: int = 1 << 40) -> bytes:
    """A list file whose single V2 record claims ``count`` float32 elements."""
    head = struct.pack("<QQQ", 0x112, 0, 1)
    rec = struct.pack("<Iii", 0xF993FAC9, 0, 1) + struct.pack("<q", count)
    rec += struct.pack("<iii", 1, 0, 0) + b"\0" * 64
    return head + rec + struct.pack("<Q", 0)


def _huge_count() -> bytes:
    return struct.pack("<QQQ", 0x112, 0, (1 << 62)) + b"\0" * 32


def _huge_sparse() -> bytes:
    """A row_sparse record whose dense shape is (2^40, 2^20) with no stored rows."""
    rec = struct.pack("<Iii", 0xF993FAC9, 1, 2) + struct.pack("<qq", 0, 1 << 20)
    rec += struct.pack("<iqq", 2, 1 << 40, 1 << 20) + struct.pack("<iii", 1, 0, 0)
    rec += struct.pack("<i", 6) + struct.pack("<iq", 1, 0)
    return struct.pack("<QQQ", 0x112, 0, 1) + rec + struct.pack("<Q", 0)


def test_fuzz_nd_load_frombuffer():
    seeds = [_g("ndarray", n) for n in ("dict.params", "list.params", "np_v3.params",
                                        "sparse.params", "dtype_float16.params",
                                        "empty.params")]
    extra = [("huge-elements", _huge_params()), ("huge-count", _huge_count()),
             ("huge-sparse", _huge_sparse()), ("empty", b"")]
    for name, data in extra:
        try:
            mx.nd.load_frombuffer(data)
            raise AssertionError(f"{name} was accepted")
        except MXNetError as err:
            assert "<buffer>" in str(err) or "NDArray" in str(err)
    fuzz("nd.load_frombuffer", seeds, _load_either_semantics, (MXNetError,), extra=extra,
         seed=1)


def _load_either_semantics(data: bytes):
    """``nd.load_frombuffer``; NumPy-shape (V3) buffers load inside ``np_shape(True)``, as
    MXNet requires."""
    try:
        return mx.nd.load_frombuffer(data)
    except MXNetError as err:
        if "np shape semantics" not in str(err):
            raise
    with mx.util.np_shape(True):
        return mx.nd.load_frombuffer(data)


def test_fuzz_nd_load_file(tmp_path):
    path = str(tmp_path / "f.params")

    def load(data: bytes):
        with open(path, "wb") as f:
            f.write(data)
        return mx.nd.load(path)

    try:
        load(_huge_params())
        raise AssertionError("huge header accepted")
    except MXNetError as err:
        assert path in str(err), "the error must name the file"
    fuzz("nd.load", [_g("ndarray", "dict.params"), _g("ndarray", "ctx.params")], load,
         (MXNetError,), budget_s=1.5, seed=2)


def _json_mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """Structural corruption of a symbol JSON (falls back to byte mutations)."""
    if rng.random() < 0.3:
        return mutate(data, rng)
    try:
        return _json_mutate_doc(json.loads(data), rng)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return mutate(data, rng)  # an earlier mutation broke the structure


def _json_mutate_doc(doc, rng: random.Random) -> tuple[str, bytes]:
    nodes = doc["nodes"]
    k = rng.randrange(len(nodes))
    choice = rng.randrange(9)
    bad = rng.choice([-1, len(nodes), len(nodes) + 7, 1 << 40, k, "x", None, 2.5])
    if choice == 0 and nodes[k]["inputs"]:
        nodes[k]["inputs"][0][0] = bad
        kind = "input-index"
    elif choice == 1:
        nodes[k]["inputs"] = [[rng.randrange(len(nodes)), rng.choice([0, 5, -1]), 0]]
        kind = "input-anywhere"
    elif choice == 2:
        doc["heads"] = [[bad, 0, 0]]
        kind = "heads"
    elif choice == 3:
        doc["arg_nodes"] = [bad]
        kind = "arg_nodes"
    elif choice == 4:
        attrs = nodes[k].setdefault("attrs", {})
        key = rng.choice(list(attrs) or ["kernel"])
        attrs[key] = rng.choice(["(", "(1,", "-5", "1e999", "(99999999999, 99999999999)",
                                 "None", "", "[[[", "True"])
        kind = "attr"
    elif choice == 5:
        nodes[k]["op"] = rng.choice(["NoSuchOp", "", 3, None, "null", "_foreach", "Custom"])
        kind = "op"
    elif choice == 6:
        del nodes[k][rng.choice(list(nodes[k]))]
        kind = "drop-key"
    elif choice == 7:
        nodes[k]["name"] = rng.choice([None, 5, "", nodes[0]["name"]])
        kind = "name"
    else:
        doc[rng.choice(["node_row_ptr", "attrs", "nodes"])] = rng.choice([None, 3, "x", []])
        kind = "top"
    return kind, json.dumps(doc).encode()


def _rewire(target) -> str:
    """lenet's JSON with the first operator node's data input pointing at ``target(n, k)``."""
    doc = json.loads(_g("gluon", "lenet-symbol.json"))
    nodes = doc["nodes"]
    k = next(i for i, n in enumerate(nodes) if n["inputs"])
    nodes[k]["inputs"][0] = [target(len(nodes), k), 0, 0]
    return json.dumps(doc)


def _cycle_json() -> str:
    return _rewire(lambda n, k: n - 1)  # reads the last node, which depends on it


def _dangling_json() -> str:
    return _rewire(lambda n, k: n + 3)


def _self_loop_json() -> str:
    return _rewire(lambda n, k: k)


def _sym_load(data: bytes):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None  # load_json takes str; sym.load's decoding is fuzzed on files
    s = mx.sym.load_json(text)
    s.list_arguments()
    s.list_outputs()
    s.tojson()
    return s


def test_sym_cycle_and_dangling_rejected():
    for name, text in (("cycle", _cycle_json()), ("dangling", _dangling_json()),
                       ("self-loop", _self_loop_json())):
        try:
            mx.sym.load_json(text)
        except MXNetError:
            continue
        raise AssertionError(f"a symbol JSON with a {name} was accepted")


def test_fuzz_sym_load_json():
    seeds = [_g("gluon", "lenet-symbol.json"), _g("gluon", "small-symbol.json")]
    extra = [(n, t.encode()) for n, t in (("cycle", _cycle_json()),
                                          ("dangling", _dangling_json()))]
    fuzz("sym.load_json", seeds, _sym_load, (MXNetError,), extra=extra, seed=3,
         mutator=_json_mutate)


def test_fuzz_sym_load_file(tmp_path):
    path = str(tmp_path / "s-symbol.json")

    def load(data: bytes):
        with open(path, "wb") as f:
            f.write(data)
        return mx.sym.load(path)

    fuzz("sym.load", [_g("gluon", "lenet-symbol.json")], load, (MXNetError,), budget_s=1.0,
         seed=4)


def _read_all(rec) -> int:
    n = 0
    while rec.read() is not None:
        n += 1
        assert n < 100000
    return n


def test_fuzz_recordio(tmp_path):
    path = str(tmp_path / "r.rec")

    def load(data: bytes):
        with open(path, "wb") as f:
            f.write(data)
        rec = mx.recordio.MXRecordIO(path, "r")
        try:
            return _read_all(rec)
        finally:
            rec.close()

    huge = struct.pack("<II", 0xCED7230A, (1 << 29) - 1) + b"x" * 16
    fuzz("recordio.MXRecordIO", [_g("data", "plain.rec")], load, (MXNetError,),
         extra=[("huge-length", huge)], seed=5)


def test_fuzz_indexed_recordio(tmp_path):
    rec_path, idx_path = str(tmp_path / "i.rec"), str(tmp_path / "i.idx")
    rec_bytes, idx_bytes = _g("data", "indexed.rec"), _g("data", "indexed.idx")

    def load(data: bytes):
        # the first byte picks which of the two files gets the corruption
        which, body = data[:1], data[1:]
        with open(rec_path, "wb") as f:
            f.write(body if which == b"r" else rec_bytes)
        with open(idx_path, "wb") as f:
            f.write(body if which == b"i" else idx_bytes)
        rec = mx.recordio.MXIndexedRecordIO(idx_path, rec_path, "r")
        try:
            for key in rec.keys:
                rec.read_idx(key)
            return len(rec.keys)
        finally:
            rec.close()

    def mutator(data: bytes, rng: random.Random) -> tuple[str, bytes]:
        kind, body = mutate(data[1:], rng)
        return f"{data[:1].decode()}:{kind}", data[:1] + body

    fuzz("recordio.MXIndexedRecordIO", [b"r" + rec_bytes, b"i" + idx_bytes], load,
         (MXNetError,), seed=6, mutator=mutator)


def test_fuzz_safe_unpickler():
    seeds = [_g("optimizer", n) for n in ("adam.states", "adam_opt.states", "sgd_mom.states",
                                          "sgd_mom_opt.states")]
    seeds += [_g("gluon", "trainer.states"), _g("ndarray", "pickle_f32.pkl"),
              pickle.dumps({"a": np.arange(4.0), "b": np.float32(2), "c": (1, [2], {3})},
                           protocol=2)]
    fuzz("safe_pickle.loads", seeds, _safe_pickle.loads, (MXNetError,), seed=7)


def test_fuzz_updater_set_states():
    upd = mx.optimizer.get_updater(mx.optimizer.Adam())
    seeds = [_g("optimizer", "adam.states"), _g("optimizer", "adam_opt.states")]
    fuzz("Updater.set_states", seeds, upd.set_states, (MXNetError,), budget_s=1.0, seed=8)
