"""Imperative invocation: NDArrays in, registry kernel, NDArrays out."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import _deferred, _dtype, _freed, _int_grad
from .._deferred import PENDING, DeferredOpError
from .._freed import ANY as _FREED_ANY
from .._int_grad import ACTIVE as _INT_ACTIVE
from .._op._apply import apply
from .._op._gen import finish
from .._op._registry import OpDef
from .._op._sparse import SPARSE_INPUT_CHECKS
from .._op._state import state
from .._op._stype_rules import SPARSE_SEEN, out_stypes
from ..base import MXNetError, _Null
from ..context import Context

_CPU0 = Context("cpu", 0)

_NDArray = None  # set by ndarray.py (avoids an import cycle)


def _set_ndarray_class(cls) -> None:
    global _NDArray
    _NDArray = cls


_profile_hook = None  # set by mxnet.profiler while it records operators
_amp_hook = None  # set by mxnet.contrib.amp.init(): casts inputs of the listed operators


def invoke(op: OpDef, attrs: dict, inputs: list, out=None):
    """Run ``op`` on NDArray ``inputs``; return one NDArray or a list (visible outputs)."""
    if _amp_hook is not None:
        attrs, inputs = _amp_hook(op, attrs, inputs)
    if _profile_hook is not None:
        with _profile_hook(op.name):
            return _invoke(op, attrs, inputs, out)
    return _invoke(op, attrs, inputs, out)


def _invoke(op: OpDef, attrs: dict, inputs: list, out=None, _res=None):
    if PENDING[0] and _res is None:
        box = _deferred.first_box(inputs)
        if box is None and _deferred.uses_rng(op.name):
            box = _deferred.rng_box()  # a failed sampler left it on the random resource
        if box is not None:  # an input carries a run-time failure: so will the outputs
            return _carrying(op, attrs, inputs, out, box)
    if inputs:
        ctx = inputs[0]._ctx
        if ctx.device_typeid in (3, 5):  # MXNet: ops on cpu_pinned/cpu_shared write cpu(0)
            ctx = _CPU0
        if _FREED_ANY[0] and state.is_recording:
            _freed.detach_freed(inputs)  # arrays of a backpropagated graph are constants
    else:
        ctx = attrs.get("ctx") or Context.default_ctx
    if _res is None:
        chk = SPARSE_INPUT_CHECKS.get(op.name)
        if chk is not None:
            chk(attrs, [x.stype for x in inputs])
        try:
            res = apply(op, attrs, [x._t for x in inputs])
        except DeferredOpError as err:  # a run-time check failed: reported on read / waitall
            box = _deferred.defer(err)
            if _deferred.uses_rng(op.name):
                _deferred.RNG_BOX[0] = box
            return _mark(_invoke(op, attrs, inputs, out, err.outputs), box)
    else:
        res = _res
    nvis = op.num_visible_outputs(attrs) if op._num_visible is not None else len(res)
    wrap = _NDArray._wrap
    if out is not None:
        outs = out if isinstance(out, (list, tuple)) else [out]
        if not all(isinstance(o, _NDArray) for o in outs):
            # MXNet 1.9.1 fails with a TypeError, e.g. on x.tile(4, 2) (2 lands in `out`)
            raise TypeError(f"{op.name}: out must be an NDArray or a list of NDArrays, got "
                            f"{type(out).__name__}")
        if len(outs) != nvis:
            raise MXNetError(f"Operator {op.name} has {nvis} outputs but out= has {len(outs)}")
        combine = op.out_combine
        for o, r in zip(outs, res):
            _check_out_dtype(op, attrs, o, r)
            o._assign_tensor(r if combine is None else combine(attrs, o._t, r))
        return out
    if nvis == 1:
        if state.is_recording:
            if _INT_ACTIVE[0]:  # integer arrays marked for gradients: their shadows
                res = _int_grad.link(op, attrs, inputs, res)
            o = wrap(res[0], ctx)
            o._prov = (op, attrs, _prov_inputs(inputs), 0)  # remembered for get_symbol
            if SPARSE_SEEN[0] and inputs:
                st = _sparse_out_stypes(op, attrs, inputs, 1)
                if st is not None and st[0] != "default":
                    return _recorded_sparse(o, st[0], res[0])
            return o
        o = wrap(res[0], ctx)
        if SPARSE_SEEN[0] and inputs:
            st = _sparse_out_stypes(op, attrs, inputs, 1)
            if st is not None and st[0] != "default":
                return o.tostype(st[0])
        return o
    if state.is_recording and _INT_ACTIVE[0]:
        res = _int_grad.link(op, attrs, inputs, res)
    outs = [wrap(r, ctx) for r in res[:nvis]]
    if SPARSE_SEEN[0] and inputs and not state.is_recording:
        st = _sparse_out_stypes(op, attrs, inputs, nvis)
        if st is not None:
            outs = [o if s == "default" else o.tostype(s) for o, s in zip(outs, st)]
    if state.is_recording:
        if len(res) > 1:
            _freed.link_outputs(res)
        ins = _prov_inputs(inputs)
        for i, o in enumerate(outs):
            o._prov = (op, attrs, ins, i)
    return outs


def _check_out_dtype(op: OpDef, attrs: dict, o, r) -> None:
    """``out=`` must have the dtype the operator infers (MXNet 1.9.1 takes out's type as a
    constraint of its type inference: "Type inconsistent"). Operators whose ``dtype``
    argument is left unset (the samplers) take out's type instead."""
    want = o.dtype
    got = _dtype.to_numpy_type(r.dtype)
    if want == got:
        return
    if (attrs.get("dtype") in (None, "None") and any(p.name == "dtype" for p in op.params)
            and np.dtype(want).kind == np.dtype(got).kind):
        return  # e.g. float64 samples into a float64 out (not integers: MXNet refuses)
    raise MXNetError(
        f"Operator {op.name}: Type inconsistent, Provided = {_dtype.dtype_name(want)}, "
        f"inferred type = {_dtype.dtype_name(got)} (the dtype of out=)"
    )


def _carrying(op: OpDef, attrs: dict, inputs: list, out, box: list):
    """Run ``op`` on inputs that carry a failure; the outputs carry it too."""
    try:
        res = apply(op, attrs, [x._t for x in inputs])
    except DeferredOpError as err:  # MXNet would not run it at all: keep the first failure
        res = err.outputs
    return _mark(_invoke(op, attrs, inputs, out, res), box)


def _mark(result, box: list):
    for o in result if isinstance(result, (list, tuple)) else (result,):
        o._exc = box
    return result


def _recorded_sparse(o, stype: str, t):
    """A recorded output as the sparse array MXNet returns; autograd keeps following the
    dense tensor ``t`` (the array's tracked view, as for a marked sparse variable)."""
    s = o.tostype(stype)
    s._leaf = t
    s._prov = o._prov
    return s


def _sparse_out_stypes(op: OpDef, attrs: dict, inputs: list, nout: int):
    """MXNet's output storage types for sparse inputs (None when all inputs are dense)."""
    ins = [x.stype for x in inputs]
    if all(s == "default" for s in ins):
        return None
    return out_stypes(op.name, attrs, ins, nout)


class Leaf:
    """Marks an array used by a recorded operator without being made by one.

    ``name`` is what ``autograd.get_symbol`` calls it: ``var<N>`` for an array marked as a
    variable (numbered when marked), ``null<N>`` for any other (numbered when first shown),
    from one process-wide count, as in MXNet 1.9.1.
    """

    __slots__ = ("__weakref__", "name")

    def __init__(self, name: str | None = None):
        self.name = name


_LEAF_COUNT = [0]


def next_leaf_name(prefix: str) -> str:
    """``var<N>`` / ``null<N>`` with MXNet's process-wide variable count."""
    n = _LEAF_COUNT[0]
    _LEAF_COUNT[0] = n + 1
    return f"{prefix}{n}"


def _prov_inputs(inputs) -> tuple:
    """The provenance records of ``inputs`` (small objects: no tensors are kept alive)."""
    recs = []
    for x in inputs:
        p = getattr(x, "_prov", None)
        if p is None:
            p = x._prov = Leaf()
        recs.append(p)
    return tuple(recs)


def legacy_only_message(public: str) -> str:
    """MXNet 1.9.1's error for an ``mx.np`` array given to a classic ``mx.nd`` operator."""
    return (f"Operator `{public}` registered in backend is known as `{public}` in Python. "
            "This is a legacy operator which can only accept legacy ndarrays, while received "
            "an MXNet numpy ndarray. Please call `as_nd_ndarray()` upon the numpy ndarray to "
            "convert it to a legacy ndarray, and then feed the converted array to this "
            "operator.")


# variadic operators whose count MXNet's generated functions do not fill in (no
# key_var_num_args): the caller gives it, as MXNet 1.9.1 requires
_EXPLICIT_COUNT = frozenset({"amp_multicast", "reset_arrays", "multi_sum_sq", "multi_all_finite",
                             "_contrib_quantized_concat"})


def make_nd_function(op: OpDef, public: str, module: str) -> Callable:
    """Build ``mx.nd.<public>`` for ``op``: positional inputs, then params in schema order."""
    slots = op.input_slots
    nslots = len(slots)
    pnames = [p.name for p in op.params if p.name != op.variadic]
    variadic = op.variadic
    parse = op.parse_attrs
    NDArray_ = _NDArray
    np_op = public.startswith("_np")  # NumPy-interface operators take mx.np arrays
    active = op.active_inputs
    explicit = op.name in _EXPLICIT_COUNT
    wants: dict = {}  # id(parsed attrs) -> (attrs, number of inputs they take)

    if variadic:
        def fn(*args, out=None, name=None, **kwargs):
            for a in args:  # MXNet 1.9.1: an assertion, and a list is not unpacked
                if not isinstance(a, NDArray_):
                    raise AssertionError(
                        f"Positional arguments must have NDArray type, but got {a}")
                if a.__class__ is not NDArray_ and not a._CLASSIC and not np_op:
                    raise TypeError(legacy_only_message(public))
            if kwargs:
                kwargs = {k: v for k, v in kwargs.items() if v is not _Null}
            if not explicit:
                kwargs[variadic] = len(args)
                return invoke(op, parse(kwargs), list(args), out)
            attrs = parse(kwargs)  # MXNet fills no count here: a required one is refused
            want = len(op.input_names(attrs))  # quantized_concat: 3 per counted array
            if want != len(args):
                raise MXNetError(f"Operator {op.name} expects {want} inputs, but "
                                 f"got {len(args)} instead.")
            return invoke(op, attrs, list(args), out)
    else:
        def fn(*args, out=None, name=None, **kwargs):
            if kwargs:
                ins = list(args[:nslots])
                for s in slots[len(ins):]:
                    ins.append(kwargs.pop(s, None))
                kwargs = {k: v for k, v in kwargs.items() if v is not _Null}
            else:
                ins = args[:nslots]
            if len(args) > nslots:
                for pname, v in zip(pnames, args[nslots:]):
                    if pname in kwargs:
                        raise TypeError(f"{public}() got multiple values for argument '{pname}'")
                    kwargs[pname] = v
                rest = args[nslots + len(pnames):]
                if rest:  # MXNet's signature: (inputs..., params..., out=None, name=None)
                    if len(rest) > 2:
                        raise TypeError(f"{public}() takes at most "
                                        f"{nslots + len(pnames) + 2} positional arguments")
                    if out is not None:
                        raise TypeError(f"{public}() got multiple values for argument 'out'")
                    out = rest[0]
            inputs = []
            for i, x in enumerate(ins):
                if x is None:
                    continue
                if not isinstance(x, NDArray_):
                    raise AssertionError(
                        f"Argument {slots[i]} must have NDArray type, but got {x}")
                if x.__class__ is not NDArray_ and not x._CLASSIC and not np_op:
                    raise TypeError(legacy_only_message(public))
                inputs.append(x)
            attrs = parse(kwargs)
            if active is not None:  # inputs depend on the attrs (no_bias, act_type...)
                hit = wants.get(id(attrs))  # (parsed attrs are cached: keep them alive)
                if hit is None or hit[0] is not attrs:
                    if len(wants) > 256:
                        wants.clear()
                    hit = wants[id(attrs)] = (
                        attrs, len(op.input_names(attrs)) + len(op.aux_names(attrs)))
                want = hit[1]
                if len(inputs) > want:  # e.g. gamma of a non-prelu LeakyReLU
                    raise MXNetError(f"Operator {op.name} expects {want} inputs, but got "
                                     f"{len(inputs)} instead.")
            return invoke(op, attrs, inputs, out)

    return finish(fn, op, public, module, "NDArray")
