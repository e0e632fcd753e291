"""``mx.nd.CachedOp``: a Symbol compiled once and called like a function on NDArrays."""

from __future__ import annotations

import torch

from .._op._state import state
from ..base import MXNetError
from .ndarray import NDArray

__all__ = ["CachedOp"]


class CachedOp:
    """Run a Symbol imperatively; inputs follow ``sym.list_inputs()`` order.

    Works inside ``autograd.record()`` (gradients flow to the inputs).

    Examples
    --------
    >>> x = mx.sym.var('x')
    >>> op = mx.nd.CachedOp(x * 2)
    >>> op(mx.nd.ones((2,))).asnumpy().tolist()
    [2.0, 2.0]
    """

    def __init__(self, sym, flags=()):
        from .._executor._program import compile_program

        self._sym = sym
        self._flags = dict(flags) if flags else {}
        self._prog = compile_program(sym)
        names = sym.list_inputs()
        self._num_inputs = len(names)
        pos = {n: i for i, n in enumerate(names)}
        self._arg_pos = [pos[n] for n in self._prog.arg_names]
        self._aux_pos = [pos[n] for n in self._prog.aux_names]

    def __call__(self, *args, out=None, default_ctx=None):
        if len(args) != self._num_inputs:
            raise MXNetError(
                f"CachedOp: expects {self._num_inputs} inputs "
                f"({self._sym.list_inputs()}), got {len(args)}"
            )
        for i, a in enumerate(args):
            if not isinstance(a, NDArray):
                raise TypeError(f"CachedOp: input {i} must be NDArray, got {type(a).__name__}")
        ins = [args[i]._t for i in self._arg_pos]
        aux = [args[i]._t for i in self._aux_pos]
        if state.is_recording:
            outs = self._prog.run(ins, aux, state.is_train)
        else:
            with torch.no_grad():
                outs = self._prog.run(ins, aux, state.is_train)
        ctx = args[0]._ctx if args else default_ctx
        if out is not None:
            targets = out if isinstance(out, (list, tuple)) else [out]
            if len(targets) != len(outs):
                raise MXNetError(
                    f"CachedOp: the graph has {len(outs)} outputs but out= has {len(targets)}"
                )
            for o, t in zip(targets, outs):
                o._assign_tensor(t)
            return out
        res = [NDArray._wrap(t, ctx) for t in outs]
        return res[0] if len(res) == 1 else res
