"""Compare shape/indexing/linalg operators with outputs and gradients of real MXNet 1.9.1.

The golden files come from ``tests/compat/make_golden_shape.py`` (run once under the oracle).
"""

from __future__ import annotations

import json
import os

import numpy as np

import mxnet as mx
from mxnet._op import get_op
from mxnet.ndarray._namespace import function_for

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "compat",
                    "golden", "shape")

with open(os.path.join(HERE, "cases.json")) as _f:
    CASES: dict = json.load(_f)
with np.load(os.path.join(HERE, "arrays.npz")) as _z:
    ARRAYS: dict = dict(_z)


def cases_for(module: str) -> list[str]:
    """Names of the golden cases whose operator is registered by ``mxnet._op.<module>``."""
    return sorted(n for n, c in CASES.items()
                  if get_op(c["op"]).compute.__module__ == f"mxnet._op.{module}")


def _tol(x: np.ndarray) -> dict:
    if x.dtype == np.float64:
        return {"rtol": 1e-8, "atol": 1e-10}
    return {"rtol": 1e-5, "atol": 1e-6}


def check_golden(name: str) -> None:
    c = CASES[name]
    xs = [ARRAYS[f"{name}|in{i}"] for i in range(c["n_in"])]
    params = {k: (tuple(v) if isinstance(v, list) else v) for k, v in c["params"].items()
              if k != "num_args"}
    op = get_op(c["op"])
    _, shapes = op.infer_shape(op.parse_attrs(dict(params, **{
        k: v for k, v in c["params"].items() if k == "num_args"})), [x.shape for x in xs])
    want_shapes = [ARRAYS[f"{name}|out{k}"].shape for k in range(c["n_out"])]
    assert list(shapes) == want_shapes, f"{name}: inferred {shapes}, MXNet {want_shapes}"
    ins = [mx.nd.array(x, dtype=x.dtype) for x in xs]
    for i in c["grad"]:
        ins[i].attach_grad()
    with mx.autograd.record():
        out = function_for(c["op"])(*ins, **params)
    outs = out if isinstance(out, list) else [out]
    assert len(outs) == c["n_out"], f"{name}: {len(outs)} outputs, MXNet has {c['n_out']}"
    for k, o in enumerate(outs):
        want = ARRAYS[f"{name}|out{k}"]
        got = o.asnumpy()
        assert got.dtype == want.dtype, f"{name}: output {k} dtype {got.dtype} != {want.dtype}"
        assert got.shape == want.shape, f"{name}: output {k} shape {got.shape} != {want.shape}"
        np.testing.assert_allclose(got, want, err_msg=f"{name}: output {k}", **_tol(want))
    if c["grad"]:
        head = ARRAYS[f"{name}|head0"]
        outs[c["head_out"]].backward(mx.nd.array(head, dtype=head.dtype))
        for i in c["grad"]:
            want = ARRAYS[f"{name}|grad{i}"]
            np.testing.assert_allclose(ins[i].grad.asnumpy(), want, err_msg=f"{name}: grad {i}",
                                       **_tol(want))
