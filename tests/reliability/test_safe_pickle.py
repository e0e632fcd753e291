"""The restricted unpickler: real state files load, anything else is refused."""

from __future__ import annotations

import collections
import os
import pickle

import numpy as np
import pytest

import mxnet as mx
from mxnet import _safe_pickle, gluon
from mxnet.base import MXNetError

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compat", "golden")


class _Evil:
    def __reduce__(self):
        return (os.system, ("echo pwned",))


@pytest.mark.parametrize("name", ["optimizer/adam.states", "optimizer/adam_opt.states",
                                  "optimizer/sgd_mom.states", "optimizer/sgd_mom_opt.states",
                                  "gluon/trainer.states", "ndarray/pickle_f32.pkl",
                                  "ndarray/pickle_u8_cpu1.pkl"])
def test_golden_files_load(name):
    obj = _safe_pickle.load(os.path.join(GOLDEN, name))
    assert obj is not None


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_round_trip_every_protocol(protocol):
    value = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.float16(3),
             "c": collections.OrderedDict(x=1), "d": mx.nd.ones((2, 3)), "e": mx.cpu(1),
             "f": (1, [2.5, "x", b"by", None, True], {3}, frozenset([4]), slice(1, 2), 1j),
             "g": np.dtype("int64")}
    out = _safe_pickle.loads(pickle.dumps(value, protocol=protocol))
    assert (out["a"] == value["a"]).all() and out["b"] == 3 and out["e"] == mx.cpu(1)
    assert out["f"] == value["f"] and out["g"] == value["g"] and out["c"] == value["c"]
    assert out["d"].asnumpy().tolist() == [[1.0] * 3] * 2


@pytest.mark.parametrize("name", sorted(mx.optimizer.Optimizer.opt_registry))
def test_every_optimizer_state_round_trips(name):
    # SVRG's optimizer (registered once mxnet.contrib.svrg_optimization is imported) wraps
    # another one
    kwargs = {"default_optimizer": "sgd"} if name == "_svrgoptimizer" else {}
    opt = mx.optimizer.create(name, **kwargs)
    upd = mx.optimizer.get_updater(opt)
    w = mx.nd.ones((2, 3))  # 2-d: GroupAdaGrad wants row groups
    upd(0, mx.nd.ones((2, 3)), w)
    states, loaded = upd.get_states(dump_optimizer=True), mx.optimizer.get_updater(opt)
    loaded.set_states(states)
    assert type(loaded.optimizer) is type(opt)


@pytest.mark.parametrize("data,word", [
    (pickle.dumps(_Evil()), "posix.system"),
    (pickle.dumps(_Evil(), protocol=0), "posix.system"),
    (b"cbuiltins\neval\n(S'1'\ntR.", "builtins.eval"),
    (pickle.dumps(np.array([1, "a"], dtype=object)), "NumPy"),
    (b"\x80\x04cbuiltins\nbytearray\nJ\x00\x00\x00\x7f\x85R.", "bytearray"),
    (b"\x80\x04cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\n"
     b"\x8a\x06\x00\x00\x00\x00\x00\x01\x85C\x01b\x87R.", "refusing to allocate"),
    (pickle.dumps(_Evil())[:-5], "posix.system"),
    (b"\x80\x04", "corrupt or truncated"),
])
def test_refused(data, word):
    with pytest.raises(MXNetError, match=word.replace(".", r"\.")):
        _safe_pickle.loads(data, "x.states")


def test_loaders_refuse_foreign_code(tmp_path):
    path = str(tmp_path / "evil.states")
    with open(path, "wb") as f:
        f.write(pickle.dumps(_Evil()))
    net = gluon.nn.Dense(2, in_units=2)
    net.initialize()
    trainer = gluon.Trainer(net.collect_params(), "sgd")
    with pytest.raises(MXNetError, match="evil.states.*posix.system"):
        trainer.load_states(path)
    kv = mx.kv.create("local")
    kv.set_optimizer(mx.optimizer.SGD())
    with pytest.raises(MXNetError, match="evil.states.*posix.system"):
        kv.load_optimizer_states(path)
