"""Shared harness for operator records.

A family test module defines ``RECORDS = [Record(...), ...]`` and calls
``run_record(rec)`` from a parametrized test. ``tests/_op/test_sweep.py`` checks that every
registered operator (canonical name) has at least one record somewhere.

Each record checks:
- the ``mx.nd`` call against a NumPy reference (``ref``),
- that the parameters survive the string round trip (``format_attrs`` -> ``parse_attrs``),
- the analytic gradient against central finite differences (float64), when ``grad`` is set.
Symbol checks (bound executor == imperative, JSON round trip) are added by
``check_symbolic`` when the symbol layer is present.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import mxnet as mx
from mxnet._op import get_op
from mxnet.ndarray._namespace import function_for


@dataclass
class Record:
    op: str
    inputs: list[Any] = field(default_factory=list)  # NumPy arrays (converted to NDArrays)
    params: dict = field(default_factory=dict)
    ref: Callable[..., Any] | None = None  # ref(*np_inputs, **params) -> array or list
    grad: bool = False  # numeric gradient check on float inputs
    grad_inputs: tuple[int, ...] | None = None  # which inputs to check (default: float ones)
    rtol: float = 1e-5
    atol: float = 1e-6
    name: str = ""
    symbolic: bool = True  # whether the symbol harness should bind it
    check: Callable[..., None] | None = None  # custom check(outputs_np, inputs_np)

    @property
    def id(self) -> str:
        return self.name or self.op


def _nd_inputs(rec: Record, dtype=None):
    out = []
    for x in rec.inputs:
        a = np.asarray(x)
        if dtype is not None and a.dtype.kind == "f":
            a = a.astype(dtype)
        out.append(mx.nd.array(a, dtype=a.dtype))
    return out


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def run_forward(rec: Record):
    fn = function_for(rec.op)
    res = fn(*_nd_inputs(rec), **rec.params)
    outs = [o.asnumpy() for o in _as_list(res)]
    if rec.ref is not None:
        expected = _as_list(rec.ref(*[np.asarray(x) for x in rec.inputs], **rec.params))
        assert len(outs) >= len(expected), f"{rec.id}: {len(outs)} outputs, expected {len(expected)}"
        for o, e in zip(outs, expected):
            e = np.asarray(e)
            assert o.shape == e.shape, f"{rec.id}: shape {o.shape} != reference {e.shape}"
            np.testing.assert_allclose(o.astype(np.float64) if o.dtype != bool else o,
                                       e.astype(np.float64) if e.dtype != bool else e,
                                       rtol=rec.rtol, atol=rec.atol, err_msg=rec.id)
    if rec.check is not None:
        rec.check(outs, [np.asarray(x) for x in rec.inputs])
    return outs


def check_param_roundtrip(rec: Record) -> None:
    op = get_op(rec.op)
    params = dict(rec.params)
    if op.variadic:
        params[op.variadic] = len(rec.inputs)
    parsed = op.parse_attrs(params)
    strings = op.format_attrs(params)
    assert all(isinstance(v, str) for v in strings.values())
    again = op.parse_attrs(strings)
    for k in parsed:
        a, b = parsed[k], again[k]
        if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b):
            continue
        assert str(a) == str(b), f"{rec.id}: param {k} {a!r} -> {strings.get(k)!r} -> {b!r}"


def check_numeric_grad(rec: Record, eps: float = 1e-6, rtol: float = 1e-4,
                       atol: float = 1e-5) -> None:
    fn = function_for(rec.op)
    xs = [np.asarray(x) for x in rec.inputs]
    which = rec.grad_inputs
    if which is None:
        which = tuple(i for i, x in enumerate(xs) if x.dtype.kind == "f")
    nds = [mx.nd.array(x, dtype=np.float64 if i in which else x.dtype) for i, x in enumerate(xs)]
    for i in which:
        nds[i].attach_grad()
    with mx.autograd.record():
        out = _as_list(fn(*nds, **rec.params))[0]
    rng = np.random.RandomState(0)
    head = rng.uniform(-1, 1, out.shape)
    out.backward(mx.nd.array(head, dtype=out.dtype))
    for i in which:
        analytic = nds[i].grad.asnumpy()
        numeric = np.zeros_like(xs[i], dtype=np.float64)
        base = xs[i].astype(np.float64)
        flat = base.reshape(-1)
        for j in range(flat.size):
            old = flat[j]
            vals = []
            for d in (eps, -eps):
                flat[j] = old + d
                args = [mx.nd.array(base if k == i else xs[k],
                                    dtype=np.float64 if k in which else xs[k].dtype)
                        for k in range(len(xs))]
                o = _as_list(fn(*args, **rec.params))[0].asnumpy()
                vals.append((o * head).sum())
            flat[j] = old
            numeric.reshape(-1)[j] = (vals[0] - vals[1]) / (2 * eps)
        np.testing.assert_allclose(analytic, numeric, rtol=rtol, atol=atol,
                                   err_msg=f"{rec.id}: gradient of input {i}")


def run_record(rec: Record) -> None:
    run_forward(rec)
    check_param_roundtrip(rec)
    if rec.grad:
        check_numeric_grad(rec)
    try:
        from tests._op.sym_harness import check_symbolic
    except ImportError:
        return
    if rec.symbolic:
        check_symbolic(rec)
