"""Output storage types of operators on sparse inputs (MXNet 1.9.1's ``FInferStorageType``).

Kernels always compute on dense tensors; these rules say which outputs MXNet hands back as
``row_sparse`` / ``csr`` arrays, so the imperative path (``mx.nd.abs(rsp)``) and bound
executors agree. Each rule sees the operator name, its parsed attributes and the inputs'
storage types; operators without a rule give dense outputs (MXNet's storage fallback).
Some combinations MXNet refuses outright raise :class:`~mxnet.base.MXNetError`.

Examples
--------
>>> out_stypes("abs", {}, ["row_sparse"], 1)
['row_sparse']
>>> out_stypes("dot", {"transpose_a": True}, ["csr", "default"], 1)
['row_sparse']
"""

from __future__ import annotations

from ..base import MXNetError

__all__ = [
    "out_stypes",
    "grad_stypes",
    "sum_stype",
    "PRODUCERS",
    "DNS",
    "RSP",
    "CSR",
    "SPARSE_SEEN",
]

DNS, RSP, CSR = "default", "row_sparse", "csr"

# set once the process makes its first sparse array: until then the imperative path skips
# every storage-type check
SPARSE_SEEN = [False]

# operators that can create a sparse output from dense inputs
PRODUCERS = {"cast_storage", "_sparse_retain", "_square_sum", "dot", "_contrib_SparseEmbedding"}

# unary operators with f(0) == 0 that keep a row_sparse / csr input's storage type
ZERO_KEEPING = frozenset(
    "negative square sqrt abs sign floor ceil rint fix trunc round sin tan arcsin arctan "
    "degrees radians sinh tanh arcsinh arctanh log1p expm1 relu cbrt _copy BlockGrad "
    "make_loss zeros_like _scatter_plus_scalar _scatter_minus_scalar clip".split()
)
# scalar operators that keep the storage type whatever the scalar
SCALAR_KEEPING = frozenset({"_mul_scalar", "_div_scalar"})
# scalar operators that keep it when op(0, scalar) == 0
SCALAR_AT_ZERO = {
    "_plus_scalar": lambda s: 0.0 + s,
    "_minus_scalar": lambda s: 0.0 - s,
    "_equal_scalar": lambda s: float(0.0 == s),
    "_not_equal_scalar": lambda s: float(0.0 != s),
    "_greater_scalar": lambda s: float(0.0 > s),
    "_greater_equal_scalar": lambda s: float(0.0 >= s),
    "_lesser_scalar": lambda s: float(0.0 < s),
    "_lesser_equal_scalar": lambda s: float(0.0 <= s),
}
# binary element-wise operators: the same sparse type on both sides keeps it
BINARY_SAME = frozenset(
    {"elemwise_add", "elemwise_sub", "_maximum", "_minimum", "_hypot", "_grad_add"}
)
# broadcast operators whose csr lhs with a dense rhs stays csr
CSR_BROADCAST = frozenset({"broadcast_mul", "broadcast_div"})


def _not_implemented(name: str, ins: list[str], attrs: dict) -> MXNetError:
    shown = ", ".join(f'"{k}" : {v}' for k, v in attrs.items() if v is not None)
    return MXNetError(
        f"Operator not implemented: operator = {name}\ninput storage types = "
        f"[{', '.join(ins)}, ]\nparams = {{{shown}}}"
    )


def _dot(a: dict, ins: list[str]) -> list[str]:
    fwd = a.get("forward_stype")
    if fwd:
        return [fwd]
    lhs, rhs = ins[0], ins[1] if len(ins) > 1 else DNS
    if lhs == CSR and rhs in (DNS, RSP):
        return [RSP if a.get("transpose_a") else DNS]
    if lhs == DNS and rhs == CSR and not a.get("transpose_a"):
        return [CSR]
    return [DNS]


def _custom_out_stypes(prop, ins: list[str], nout: int) -> list[str]:
    """Output storage types a CustomOpProp's ``infer_storage_type`` gives (MXNet asks it;
    the default refuses sparse inputs)."""
    try:
        res = prop.infer_storage_type(list(ins))
    except Exception as e:  # MXNet reports the callback's failure as its own error
        raise MXNetError(
            f"Custom operator {type(prop).__name__}: infer_storage_type failed: {e}"
        ) from e
    outs = [str(t) for t in res[1]] if res and len(res) > 1 else []
    return (outs + [DNS] * nout)[:nout]


def out_stypes(name: str, a: dict, ins: list[str], nout: int) -> list[str]:
    """Storage types of the ``nout`` outputs of operator ``name`` (canonical name) with
    parsed attributes ``a`` on inputs of storage types ``ins``."""
    first = ins[0] if ins else DNS
    if name == "Custom" and "_prop" in a:
        return _custom_out_stypes(a["_prop"], ins, nout)
    if name == "cast_storage":
        to = a.get("stype") or DNS
        if first != DNS and to not in (DNS, first):
            raise _not_implemented(name, ins, {"stype": to})
        return [to]
    if name == "dot":
        return _dot(a, ins)
    if name == "slice":
        steps = tuple(a.get("step") or ())
        return [CSR if first == CSR and all(st in (None, 1) for st in steps) else DNS]
    if name == "take":
        return [CSR if first == CSR and a.get("axis", 0) == 0 else DNS]
    if name == "_sparse_retain":
        return [RSP]
    if name == "_contrib_quadratic":
        return [CSR if first == CSR and float(a.get("c", 0.0)) == 0.0 else DNS]
    if name == "_square_sum":
        keep = a.get("keepdims") and tuple(a.get("axis") or ()) in ((1,), (-1,))
        return [RSP if first == RSP and keep else DNS]
    if name == "clip" and first != DNS:
        lo, hi = a.get("a_min", 0.0), a.get("a_max", 0.0)
        if not lo <= 0.0 <= hi:
            raise _not_implemented(name, ins, {"a_max": hi, "a_min": lo})
        return [first]
    if name in ZERO_KEEPING and nout == 1:
        return [first if first in (RSP, CSR) else DNS]
    if name in SCALAR_KEEPING:
        return [first]
    if name in SCALAR_AT_ZERO:
        ok = SCALAR_AT_ZERO[name](float(a.get("scalar", 0.0))) == 0.0
        return [first if ok else DNS]
    if name in BINARY_SAME and len(ins) == 2:
        return [first if first == ins[1] and first != DNS else DNS]
    if name == "elemwise_mul" and len(ins) == 2:
        sparse = {s for s in ins if s != DNS}
        return [sparse.pop()] if len(sparse) == 1 else [DNS]
    if name in CSR_BROADCAST and len(ins) == 2:
        return [CSR if first == CSR and ins[1] == DNS else DNS]
    if name == "add_n":
        return [RSP if ins and all(s == RSP for s in ins) else DNS]
    if name == "Concat":
        dim = a.get("dim", 1)
        return [CSR if dim == 0 and ins and all(s == CSR for s in ins) else DNS]
    return [DNS] * nout


# operators whose input gradient has the output gradient's storage type
_GRAD_PASSES = frozenset({"elemwise_add", "elemwise_sub", "_grad_add", "add_n", "cast_storage"})


def grad_stypes(name: str, a: dict, ins: list[str], ograd: str | None) -> list[str | None]:
    """Storage types of the input gradients of operator ``name`` given its inputs' storage
    types and the storage type of its (first) output gradient (None: no gradient flows);
    MXNet's backward storage inference, as ``simple_bind`` allocates gradient arrays."""
    n = len(ins)
    if ograd is None:
        return [None] * n
    if name in _GRAD_PASSES:
        return [ograd] * n
    if name in ZERO_KEEPING or name in SCALAR_KEEPING:
        return [ograd if ograd != DNS and ograd == ins[0] else DNS] + [DNS] * (n - 1)
    if name == "dot" and n == 2:
        plain = not a.get("transpose_a") and not a.get("transpose_b")
        # dot(csr, dns|rsp) backward writes a row_sparse rhs gradient (MXNet's kFComputeEx)
        return [DNS, RSP if ins[0] == CSR and ins[1] in (DNS, RSP) and plain else DNS]
    if name == "_square_sum":
        return [RSP if ins[0] == RSP else DNS]
    if name == "_sparse_retain":
        return [RSP] + [DNS] * (n - 1)
    if name == "Embedding" and n == 2:
        return [DNS, RSP if a.get("sparse_grad") else DNS]
    if name == "_contrib_SparseEmbedding" and n == 2:
        return [DNS, RSP]
    return [DNS] * n


def sum_stype(stypes: list[str]) -> str:
    """Storage type of the sum of several gradients (MXNet's ElementWiseSum)."""
    if len(stypes) == 1:
        return stypes[0]
    return RSP if all(s == RSP for s in stypes) else DNS
