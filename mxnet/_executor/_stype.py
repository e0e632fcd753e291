"""Storage types (``default`` / ``row_sparse`` / ``csr``) of a bound graph's outputs.

Executors compute on dense tensors; this module decides which outputs MXNet 1.9.1 would
hand back as sparse arrays (its ``FInferStorageType`` rules for the operators that have
sparse kernels) and converts them. Graphs whose inputs are all dense and that hold no
storage-changing operator never reach this code (:func:`graph_needs_stypes` is checked
once per bind), so dense executors pay nothing per step.

Examples
--------
>>> import mxnet as mx
>>> x = mx.sym.Variable('x')
>>> rsp = mx.nd.ones((2, 2)).tostype('row_sparse')
>>> ex = mx.sym.square(x).bind(mx.cpu(), {'x': rsp})
>>> ex.forward()[0].stype
'row_sparse'
"""

from __future__ import annotations

import torch

from .._op._sparse import SPARSE_INPUT_CHECKS
from .._op._stype_rules import CSR, DNS, RSP, grad_stypes, out_stypes, sum_stype
from .._op._stype_rules import PRODUCERS as _PRODUCERS
from ..base import MXNetError

__all__ = [
    "graph_needs_stypes",
    "infer_head_stypes",
    "infer_grad_stypes",
    "as_stype",
    "STYPE_NAMES",
    "bind_stypes",
    "zeros_stype",
]

STYPE_NAMES = {0: DNS, 1: RSP, 2: CSR, -1: DNS}


def graph_needs_stypes(nodes, input_stypes) -> bool:
    """Whether storage types matter: a sparse input or a storage-producing operator."""
    if any(s != DNS for s in input_stypes):
        return True
    return any(n.op is not None and n.op.name in _PRODUCERS for n in nodes)


def _node_stypes(n, ins: list[str]) -> list[str]:
    name = n.op.name
    a = n.parsed
    try:
        chk = SPARSE_INPUT_CHECKS.get(name)
        if chk is not None:
            chk(a, ins)
        return out_stypes(name, a, ins, n.num_outputs())
    except MXNetError as e:
        raise MXNetError(f"Error in operator {n.name}: {e}") from None


def infer_head_stypes(heads, order, input_stypes: dict[int, str]) -> list[str]:
    """Storage types of the graph heads ``[(node, index), ...]``.

    ``order`` is the topological node list; ``input_stypes`` maps ``id(variable node)`` to
    the storage type of the array bound to it.
    """
    out: dict[tuple[int, int], str] = {}
    for n in order:
        if n.op is None:
            out[(id(n), 0)] = input_stypes.get(id(n), DNS)
            continue
        ins = [out.get((id(s), i), DNS) for s, i in n.inputs]
        for k, s in enumerate(_node_stypes(n, ins)):
            out[(id(n), k)] = s
    return [out.get((id(n), i), DNS) for n, i in heads]


def infer_grad_stypes(order, arg_nodes, arg_stypes: list[str]) -> list[str]:
    """Gradient storage types ``simple_bind`` allocates, as MXNet infers them: the forward
    storage types of every node, then the head gradients (of the outputs' types) carried
    back through each operator's backward storage rule (``grad_stypes``); an argument used
    several times gets the type of the sum. Arguments no gradient reaches are dense."""
    fwd: dict[tuple[int, int], str] = {id(n): s for n, s in zip(arg_nodes, arg_stypes)}
    fwd = {(k, 0): s for k, s in fwd.items()}
    consumed: set[tuple[int, int]] = set()
    for n in order:
        if n.op is None:
            fwd.setdefault((id(n), 0), DNS)
            continue
        ins = [fwd.get((id(src), i), DNS) for src, i in n.inputs]
        consumed.update((id(src), i) for src, i in n.inputs)
        try:
            outs = out_stypes(n.op.name, n.parsed, ins, n.num_outputs())
        except MXNetError:
            outs = [DNS] * n.num_outputs()
        for k, st in enumerate(outs):
            fwd[(id(n), k)] = st
    grads: dict[tuple[int, int], list[str]] = {}
    for n in reversed(order):
        if n.op is None:
            continue
        key = (id(n), 0)
        if key in grads:
            og = sum_stype(grads[key])
        elif key not in consumed:  # a head: its gradient has the output's storage type
            og = fwd.get(key, DNS)
        else:
            og = None
        ins = [fwd.get((id(src), i), DNS) for src, i in n.inputs]
        for (src, i), g in zip(n.inputs, grad_stypes(n.op.name, n.parsed, ins, og)):
            if g is not None:
                grads.setdefault((id(src), i), []).append(g)
    return [sum_stype(grads[(id(n), 0)]) if (id(n), 0) in grads else DNS for n in arg_nodes]


def as_stype(t: torch.Tensor, stype: str, ctx):
    """An NDArray of storage type ``stype`` holding the dense tensor ``t``."""
    from ..ndarray._sparse_base import new_sparse
    from ..ndarray.ndarray import NDArray

    if stype == DNS:
        return NDArray._wrap(t, ctx)
    aux = (
        (torch.zeros(1, dtype=torch.int64), torch.zeros(0, dtype=torch.int64))
        if stype == CSR
        else (torch.zeros(0, dtype=torch.int64),)
    )
    arr = new_sparse(
        stype,
        t.new_zeros((0,) + tuple(t.shape[1:]) if stype == RSP else (0,)),
        aux,
        tuple(t.shape),
        ctx,
    )
    arr._set_from_dense(t)
    return arr


def zeros_stype(shape, dtype: torch.dtype, stype: str, ctx):
    """A zero array of ``shape`` with storage type ``stype``."""
    t = torch.zeros(tuple(shape), dtype=dtype, device=ctx.torch_device)
    if stype == CSR and len(shape) != 2:
        stype = DNS
    return as_stype(t, stype, ctx)


def bind_stypes(order, arg_nodes, stype_dict) -> tuple[list, list] | None:
    """(argument, gradient) storage types for ``simple_bind`` from ``stype_dict`` and the
    variables' ``stype``; None when all are dense and no operator makes sparse gradients."""
    sd = dict(stype_dict or {})
    arg = []
    for n in arg_nodes:
        st = sd.get(n.name)
        if st is None:
            code = n.attrs.get("__storage_type__")
            st = STYPE_NAMES.get(int(code), "default") if code is not None else "default"
        arg.append(st)
    if all(s == "default" for s in arg) and not any(
        n.op is not None
        and (
            n.op.name == "cast_storage"
            or (n.op.name == "Embedding" and n.parsed.get("sparse_grad"))
            or n.op.name == "_contrib_SparseEmbedding"
        )
        for n in order
    ):
        return None
    return arg, infer_grad_stypes(order, arg_nodes, arg)
