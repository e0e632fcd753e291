"""Shape and dtype inference over a Symbol graph (private).

Shapes flow through every operator's ``OpDef.infer_shape`` (which fills unknown input
shapes, e.g. weights from data, and computes outputs) repeatedly until nothing changes.
Unknown dimensions are written ``0`` as in MXNet 1.x; a shape with a 0 is partial.
"""

from __future__ import annotations

import warnings

import numpy as np
import torch

from .._dtype import CODE_TO_NAME, to_numpy_type, to_torch
from ..base import MXNetError
from ._node import Node, aux_node_ids, topo_order

Shape = tuple


def _fmt_provided(s) -> str:
    return "[" + ",".join(str(d) for d in s) + "]"


def _fmt_inferred(s) -> str:
    return "(" + ",".join(str(d) for d in s) + ")"


def _complete(s) -> bool:
    return s is not None and 0 not in s


def _merge(old, new):
    """Merge two partial shapes; return (merged, ok)."""
    if old is None:
        return new, True
    if new is None:
        return old, True
    if len(old) != len(new):
        return old, False
    out = []
    for a, b in zip(old, new):
        if a and b and a != b:
            return old, False
        out.append(a or b)
    return tuple(out), True


def _var_shape_attr(n: Node):
    s = n.attrs.get("__shape__")
    if not s:
        return None
    from .._op._params import _to_shape

    try:
        shp = tuple(0 if d is None or d < 0 else d for d in _to_shape(s, True))
    except Exception:
        raise MXNetError(f"Variable '{n.name}': invalid __shape__ attribute {s!r}") from None
    return shp if shp else None


class ShapeResult:
    """Per-entry shapes of a whole graph after inference."""

    def __init__(self, order, shapes):
        self.order = order
        self.shapes = shapes  # {(id(node), idx): shape or None}


def infer_graph_shapes(order: list[Node], known: dict[str, Shape]) -> dict:
    """Run shape inference to a fixpoint; return ``{(id(node), index): shape | None}``."""
    shapes: dict = {}
    for n in order:
        if n.op is None:
            s = known.get(n.name)
            if s is not None:
                s = tuple(int(d) for d in s)
                s = s if s else None
            a = _var_shape_attr(n)
            if a is not None:
                # MXNet: a shape given to infer_shape/simple_bind overrides __shape__; the
                # attribute fills in only what is not provided
                merged, ok = _merge(s, a)
                s = merged if ok else s
            shapes[(id(n), 0)] = s
    ops = [n for n in order if n.op is not None]
    verified: set = set()
    for _ in range(len(ops) + 2):
        changed = False
        for n in ops:
            changed |= _infer_node(n, shapes, verified)
        if not changed:
            break
    for n in ops:  # shapes filled from elsewhere (outputs by a consumer) must fit the op
        if id(n) not in verified:
            _infer_node(n, shapes, verified, check=True)
    return shapes


def _infer_node(n: Node, shapes: dict, verified: set, check: bool = False) -> bool:
    if getattr(n.op, "dynamic_shape", False):
        # MXNet's dynamic-shape operators (boolean_mask, nonzero, unique): the output shape
        # depends on the input values, so it stays unknown until the graph runs
        return False
    ins = [shapes.get((id(s), i)) for s, i in n.inputs]
    nout = n.num_outputs()
    outs_known = [shapes.get((id(n), i)) for i in range(nout)]
    if all(_complete(s) for s in ins) and all(_complete(s) for s in outs_known) and not check:
        return False
    if check and not all(_complete(s) for s in ins):
        return False
    if getattr(n.op, "partial_shapes", False):  # the rule reads partially known shapes
        full = [tuple(s) if s is not None else None for s in ins]
    else:
        full = [s if _complete(s) else None for s in ins]
    if full and full[0] is None and n.op.name == "FullyConnected":
        full[0] = _fc_data_from_out(n.parsed, ins[0], outs_known[0])
    back = n.op.infer_back_fn
    # (ops with ``partial_shapes`` see partial inputs in ``full``: those are filled too)
    if back is not None and any(not _complete(s) for s in full) and outs_known \
            and all(_complete(s) for s in outs_known):
        cand = back(n.parsed, ins, outs_known)
        full = [f if _complete(f) or not _complete(c) else tuple(c) for f, c in zip(full, cand)]
    partial = any(s is not None and not _complete(s) for s in ins + outs_known)
    if any(s is None for s in full) and _same_shape_op(n):
        ref = next((s for s in full + outs_known[:1] if _complete(s)), None)
        if ref is None and partial:  # merge the known dims of all inputs and the output
            ref, ok = None, True
            for s in ins + outs_known[:1]:
                ref, ok = _merge(ref, s)
                if not ok:
                    break
            if ok and ref is not None and not _complete(ref):
                return _write_shapes(n, shapes, [ref] * len(ins), [ref])
        if ref is not None:
            full = [s if s is not None else ref for s in full]
    try:
        new_ins, new_outs = n.op.infer_shape(n.parsed, full)
    except Exception as e:
        probed = _probe_partial(n, ins, full, outs_known) if partial else None
        if probed is not None:
            return _write_shapes(n, shapes, *probed)
        names = n.arg_names() + n.aux_names()
        desc = ", ".join(f"{names[k] if k < len(names) else k}={s}" for k, s in enumerate(ins))
        raise MXNetError(f"Error in operator {n.name}: {e} (input shapes: {desc})") from None
    changed = _write_shapes(n, shapes, new_ins, new_outs)
    if all(_complete(s) for s in full):  # the rule saw every input: its outputs are checked
        verified.add(id(n))
    if partial:  # partial shapes the rule could not use: infer what their known dims give
        ins = [shapes.get((id(s), i)) for s, i in n.inputs]
        if any(s is not None and not _complete(s) for s in ins):
            outs_known = [shapes.get((id(n), i)) for i in range(nout)]
            full = [s if _complete(s) else None for s in ins]
            probed = _probe_partial(n, ins, full, outs_known)
            if probed is not None:
                changed |= _write_shapes(n, shapes, *probed)
    return changed


# stand-in sizes for unknown (0) dims, by position; two runs tell known dims from unknown
_PROBES = ((67, 71, 73, 79, 83, 89, 97, 101), (103, 107, 109, 113, 127, 131, 137, 139))


def _probe_partial(n: Node, ins, full, outs_known):
    """Infer with partial input shapes: run the rule twice with different stand-ins for
    the unknown dims; output dims equal in both runs are known. An unknown input dim that
    reappears as an output dim takes that output dim's known size (batch dims...)."""
    runs = []
    for probe in _PROBES:
        cand = [f if f is not None else (tuple(d or probe[i % 8] for i, d in enumerate(s))
                                         if s is not None else None)
                for f, s in zip(full, ins)]
        try:
            runs.append(n.op.infer_shape(n.parsed, cand))
        except Exception:
            return None
    (i1, o1), (i2, o2) = runs

    def agree(a, b):
        if a is None or b is None or len(a) != len(b):
            return None
        return tuple(int(x) if x == y else 0 for x, y in zip(a, b))

    outs = [agree(a, b) for a, b in zip(o1 or [], o2 or [])]
    keep = getattr(n.op, "partial_out", None)
    if keep is not None:  # the op's own rule for output dims of unknown input dims
        outs = keep(n.parsed, ins, outs)
    new_ins = [agree(a, b) for a, b in zip(i1 or [], i2 or [])]
    for k, s in enumerate(ins):
        if s is None or _complete(s) or k >= len(new_ins):
            continue
        dims = list(new_ins[k] or s)
        for d, v in enumerate(s):
            if v:
                continue
            for j, (a, b) in enumerate(zip(o1 or [], o2 or [])):
                known = outs_known[j] if j < len(outs_known) else None
                if known is None or a is None or b is None:
                    continue
                hit = next((known[m] for m in range(min(len(a), len(b), len(known)))
                            if a[m] == _PROBES[0][d % 8] and b[m] == _PROBES[1][d % 8]
                            and known[m]), 0)
                if hit:
                    dims[d] = hit
                    break
        new_ins[k] = tuple(dims)
    return new_ins, outs


def _write_shapes(n: Node, shapes: dict, new_ins, new_outs) -> bool:
    changed = False
    for k, ((src, i), s) in enumerate(zip(n.inputs, new_ins)):
        if s is None:
            continue
        s = tuple(int(d) for d in s)
        old = shapes.get((id(src), i))
        merged, ok = _merge(old, s)
        if not ok:
            names = n.arg_names() + n.aux_names()
            arg = names[k] if k < len(names) else str(k)
            raise MXNetError(f"Error in operator {n.name}: Shape inconsistent, Provided = "
                             f"{_fmt_provided(old)}, inferred shape={_fmt_inferred(s)} "
                             f"(argument '{arg}')")
        if merged != old:
            shapes[(id(src), i)] = merged
            changed = True
    for i, s in enumerate(new_outs or []):
        if s is None:
            continue
        s = tuple(int(d) for d in s)
        old = shapes.get((id(n), i))
        merged, ok = _merge(old, s)
        if not ok:
            raise MXNetError(f"Error in operator {n.name}: Shape inconsistent, Provided = "
                             f"{_fmt_provided(old)}, inferred shape={_fmt_inferred(s)} "
                             f"(output {i})")
        if merged != old:
            shapes[(id(n), i)] = merged
            changed = True
    return changed


def _fc_data_from_out(attrs: dict, data, out):
    """FullyConnected's backward rule: unknown batch dims of ``data`` from the output
    (MXNet fills them; legacy RNN begin states ``zeros(shape=(0, H))`` rely on it)."""
    if data is None or not _complete(out) or len(out) < 2:
        return None
    lead = 1 if attrs.get("flatten", True) else len(out) - 1
    if len(data) < lead + 1:
        return None
    cand = tuple(o if d == 0 else d for d, o in zip(data[:lead], out[:lead])) + tuple(data[lead:])
    return cand if _complete(cand) else None


_SAME_SHAPE: dict = {}


def _same_shape_op(n: Node) -> bool:
    """Whether the op maps inputs of one shape to an output of that shape (element-wise),
    probed on meta tensors; lets shapes flow backwards from outputs to inputs."""
    op = n.op
    fn = op.infer_shape_fn
    if op.creation or not n.inputs or op.aux_names(n.parsed) or (
            fn is not None and getattr(fn, "__name__", "") != "_same_shape"):
        return False
    key = (id(op), id(n.parsed), len(n.inputs))
    hit = _SAME_SHAPE.get(key)
    if hit is None:
        hit = True
        for probe in ((2, 3), (5,)):
            try:
                outs = op.infer_shape(n.parsed, [probe] * len(n.inputs))[1]
            except Exception:
                hit = False
                break
            if not outs or outs[0] is None or tuple(outs[0]) != probe:
                hit = False
                break
        if hit and len(n.inputs) > 1:  # broadcasting ops accept unequal shapes: not same-shape
            try:
                op.infer_shape(n.parsed, [(2, 3)] + [(1, 3)] * (len(n.inputs) - 1))
                hit = False
            except Exception:
                pass
        _SAME_SHAPE[key] = hit
    return hit


def _known_from_call(sym, args, kwargs, what: str) -> dict:
    if args and kwargs:
        raise ValueError(f"Can only specify known argument {what}s either by positional or "
                         "kwargs way.")
    if args:
        names = sym.list_arguments()
        return {n: a for n, a in zip(names, args) if a is not None}
    inputs = sym.list_inputs()
    for k in kwargs:
        if k not in inputs:
            cands = "".join(f"\n\t[{i}]{n}" for i, n in enumerate(sym.list_arguments()))
            raise MXNetError(f"Infer{what.capitalize()}Keyword argument "
                             f"name {k} not found.\nCandidate arguments:{cands}")
    return {k: v for k, v in kwargs.items() if v is not None}


# stands for a zero-size dim given under np_shape (a prime no real dim is a multiple of)
_ZERO_STANDIN = 1_000_003


def infer_shape(sym, args, kwargs, partial: bool, np_semantics: bool = False):
    """``Symbol.infer_shape(_partial)``: ``(arg_shapes, out_shapes, aux_shapes)``.

    Internally an unknown dim is ``0`` (MXNet 1.x legacy shapes). With ``np_semantics``
    (the public methods under ``mx.np_shape()``) an unknown dim is written ``-1`` and an
    unknown shape ``None``, as in MXNet 1.9.1; a ``0`` given by the caller is then a real
    zero-size dim: it goes through the graph as a large prime stand-in, and any result
    dim that is a multiple of it (the dim itself, or a product with it) is reported 0.
    """
    known = _known_from_call(sym, args, kwargs, "shape")
    order = topo_order([n for n, _ in sym._outputs])
    zero = 0
    if np_semantics:
        known = dict(known)
        for n in order:  # a variable's own shape: a 0 in it is a zero-size dim here too
            s = n.attrs.get("__shape__") if n.op is None and n.name not in known else None
            if s:
                from .._op._params import _to_shape

                shp = tuple(-1 if d is None else d for d in _to_shape(s, True))
                if 0 in shp:
                    known[n.name] = shp
        if any(0 in tuple(v) for v in known.values()):
            zero = _ZERO_STANDIN
        known = {k: tuple(zero if d == 0 else (0 if d is not None and d < 0 else d)
                          for d in v) for k, v in known.items()}
    shapes = infer_graph_shapes(order, known)
    aux = aux_node_ids(order)
    variables = [n for n in order if n.op is None]

    def get(key):
        s = shapes.get(key)
        if np_semantics:
            if s is None:
                return None
            return tuple(-1 if not d else (0 if zero and d % zero == 0 else d) for d in s)
        return () if s is None else tuple(s)

    arg_shapes = [get((id(n), 0)) for n in variables if id(n) not in aux]
    aux_shapes = [get((id(n), 0)) for n in variables if id(n) in aux]
    out_shapes = [get((id(n), i)) for n, i in sym._outputs]
    if not partial:
        unknown = [(n.name, get((id(n), 0))) for n in variables
                   if not _complete(shapes.get((id(n), 0)))]
        if unknown or not all(_complete(shapes.get((id(n), i))) for n, i in sym._outputs):
            msg = "\n".join(f"\t{name}: {s}" for name, s in unknown)
            warnings.warn("Cannot decide shape for the following arguments (0s in shape means "
                          "unknown dimensions). Consider providing them as input:\n" + msg,
                          stacklevel=3)
            return None, None, None
    return arg_shapes, out_shapes, aux_shapes


# -- dtypes -----------------------------------------------------------------------------
def _dtype_name(v) -> str:
    from .._dtype import dtype_name

    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return CODE_TO_NAME[int(v)]
    return dtype_name(v)


def infer_graph_types(order: list[Node], known: dict[str, str],
                      shapes: dict | None = None) -> dict:
    """Dtype names per entry ``{(id(node), index): name | None}``."""
    types: dict = {}
    for n in order:
        if n.op is None:
            t = known.get(n.name)
            a = n.attrs.get("__dtype__")
            if a is not None and t is None:
                # as in MXNet 1.9.1, a dtype given to infer_type/simple_bind overrides the
                # attribute, which fills in only an unprovided dtype
                t = CODE_TO_NAME[int(a)]
            types[(id(n), 0)] = t
    ops = [n for n in order if n.op is not None]
    for _ in range(len(ops) + 2):
        changed = False
        for n in ops:
            changed |= _type_node(n, types, shapes)
        if not changed:
            break
    return types


def _trace_types(n: Node, ins: list[str], shapes: dict | None):
    if shapes is None:
        return None
    in_shapes = [shapes.get((id(s), i)) for s, i in n.inputs]
    if not all(_complete(s) for s in in_shapes):
        return None
    from .._op._registry import _TRACE_CACHE, _freeze, _np_flags

    try:
        key = ("types", id(n.op), _freeze(n.parsed), tuple(tuple(s) for s in in_shapes),
               tuple(ins), _np_flags())
        hit = _TRACE_CACHE.get(key)
    except TypeError:  # an attribute that is not a plain value: no caching
        key = hit = None
    if hit is not None:
        return list(hit)
    metas = [torch.empty(s, dtype=to_torch(d), device="meta") for s, d in zip(in_shapes, ins)]
    try:
        with torch.no_grad():
            out = n.op.compute(n.parsed, *metas)
    except Exception:
        return None
    if isinstance(out, torch.Tensor):
        out = (out,)
    from .._dtype import TORCH_TO_NAME

    res = [TORCH_TO_NAME.get(o.dtype) for o in out]
    if key is not None:
        if len(_TRACE_CACHE) > 4096:
            _TRACE_CACHE.clear()
        _TRACE_CACHE[key] = tuple(res)
    return res


# operators whose inputs must all share one dtype (MXNet's ElemwiseType), besides the
# element-wise binary family, which carries ``uniform_dtype``
_UNIFORM_DTYPE = frozenset({"add_n", "dot", "batch_dot", "Concat", "stack", "_linalg_gemm",
                            "_linalg_gemm2", "FullyConnected", "Convolution", "Deconvolution"})


def _check_uniform(n: Node, ins: list) -> None:
    """MXNet 1.9.1 refuses mixed input dtypes for element-wise operators."""
    op = n.op
    if not (getattr(op, "uniform_dtype", False) or op.name in _UNIFORM_DTYPE):
        return
    first = next((t for t in ins if t is not None), None)
    for k, t in enumerate(ins):
        if t is not None and t != first:
            raise MXNetError(f"Error in operator {n.name}: Incompatible attr in node {n.name} "
                             f"at {k}-th input: expected {first}, got {t}")


def _type_node(n: Node, types: dict, shapes) -> bool:
    ins = [types.get((id(s), i)) for s, i in n.inputs]
    nout = n.num_outputs()
    outs = [types.get((id(n), i)) for i in range(nout)]
    _check_uniform(n, ins)
    if all(t is not None for t in ins) and all(t is not None for t in outs):
        return False
    op = n.op
    if op.infer_type_fn is not None:
        new_ins, new_outs = op.infer_type_fn(n.parsed, list(ins))
    else:
        first = next((t for t in ins if t is not None), None)
        if first is None and not n.inputs:
            dt = n.parsed.get("dtype")
            new_ins, new_outs = [], [dt if dt is not None else "float32"] * nout
        else:
            if first is None:
                first = next((t for t in outs if t is not None), None)
            new_ins = [t if t is not None else first for t in ins]
            new_outs = None
            if getattr(op, "uniform_dtype", False):
                # element-wise binary ops return their inputs' dtype: no meta tracing (a
                # traced torch.add imports torch's compiler stack, ~2.5 s at first bind)
                new_outs = [first] * nout
            elif all(t is not None for t in new_ins):
                new_outs = _trace_types(n, new_ins, shapes)
            if new_outs is None:
                new_outs = [first] * nout
    changed = False
    for k, ((src, i), t) in enumerate(zip(n.inputs, new_ins)):
        if t is None:
            continue
        old = types.get((id(src), i))
        if old is None:
            types[(id(src), i)] = t
            changed = True
        elif old != t and src.op is None:
            raise MXNetError(f"Error in operator {n.name}: Type inconsistent, Provided = {old}, "
                             f"inferred type = {t} (input {k})")
    for i, t in enumerate(new_outs or []):
        if t is not None and types.get((id(n), i)) is None:
            types[(id(n), i)] = t
            changed = True
    return changed


def infer_type(sym, args, kwargs, partial: bool):
    """``Symbol.infer_type(_partial)``: ``(arg_types, out_types, aux_types)``."""
    known = {k: _dtype_name(v) for k, v in _known_from_call(sym, args, kwargs, "type").items()}
    order = topo_order([n for n, _ in sym._outputs])
    try:
        shapes = infer_graph_shapes(order, {})
    except MXNetError:
        shapes = None
    types = infer_graph_types(order, known, shapes)
    aux = aux_node_ids(order)
    variables = [n for n in order if n.op is None]

    def get(key):
        t = types.get(key)
        return None if t is None else to_numpy_type(to_torch(t))

    arg_t = [get((id(n), 0)) for n in variables if id(n) not in aux]
    aux_t = [get((id(n), 0)) for n in variables if id(n) in aux]
    out_t = [get((id(n), i)) for n, i in sym._outputs]
    if not partial and (None in arg_t or None in aux_t or None in out_t):
        unknown = [n.name for n in variables if types.get((id(n), 0)) is None]
        warnings.warn("Cannot decide type for the following arguments. Consider providing them "
                      "as input:\n" + "\n".join(f"\t{u}: None" for u in unknown), stacklevel=3)
        return None, None, None
    return arg_t, out_t, aux_t


def report_infer_error(what: str, args: tuple, kwargs: dict) -> None:
    """Print the arguments of a failed ``Symbol.infer_shape``/``infer_type`` call.

    MXNet 1.9.1 prints them to stdout (``infer_shape error. Arguments:`` then one line per
    argument) and re-raises the original error unchanged.
    """
    print(f"infer_{what} error. Arguments:")
    for i, a in enumerate(args):
        print(f"  #{i}: {a}")
    for k, v in kwargs.items():
        print(f"  {k}: {v}")
