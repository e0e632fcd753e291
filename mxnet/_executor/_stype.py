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
from .._op._stype_rules import CSR, DNS, RSP, out_stypes
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
    """Gradient storage types ``simple_bind`` allocates: the argument's own, except that a
    csr ``dot`` operand gets a dense gradient and the dense right operand of ``dot(csr, w)``
    (or a ``SparseEmbedding`` / sparse-gradient ``Embedding`` weight) a row_sparse one, as
    MXNet infers them."""
    pos = {id(n): k for k, n in enumerate(arg_nodes)}
    out = list(arg_stypes)
    stype_of = {id(n): s for n, s in zip(arg_nodes, arg_stypes)}
    for n in order:
        if n.op is None:
            continue
        name = n.op.name
        srcs = [s for s, _ in n.inputs]
        if name == "dot" and len(srcs) == 2:
            lhs, rhs = srcs
            if stype_of.get(id(lhs)) == CSR:
                if id(lhs) in pos:
                    out[pos[id(lhs)]] = DNS
                if id(rhs) in pos:
                    out[pos[id(rhs)]] = RSP
        elif name == "cast_storage" and srcs and id(srcs[0]) in pos:
            out[pos[id(srcs[0])]] = n.parsed.get("stype") or DNS
        elif name in ("Embedding", "_contrib_SparseEmbedding") and len(srcs) > 1:
            # the weight gradient: row_sparse for SparseEmbedding and sparse_grad=True,
            # dense otherwise (whatever the weight's own storage type)
            if id(srcs[1]) in pos:
                sparse = name != "Embedding" or n.parsed.get("sparse_grad")
                out[pos[id(srcs[1])]] = RSP if sparse else DNS
    return out


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
