"""The operator registry: one :class:`OpDef` per MXNet operator.

Every front end (``mx.nd``, ``mx.sym``, fluent methods, the executor, hybridized blocks)
reads operators from here and runs them through :func:`OpDef.compute` on torch tensors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from ..base import MXNetError
from ._params import Param, format_attr

Shape = tuple[int, ...]
Names = Sequence[str] | Callable[[dict], Sequence[str]]

_REGISTRY: dict[str, OpDef] = {}
_CANONICAL: list[OpDef] = []


_NP_DTYPE_SPELLINGS = ("float", "int", "double", "half", "long")


def _np_dtype_name(value: Any) -> Any:
    """MXNet's symbol wrappers store ``np.dtype(dtype).name`` for a ``dtype`` argument, so
    ``float``/``'float'`` become 'float64' and ``int``/``'int'`` 'int64' in the graph."""
    if value in (float, int, bool) or (isinstance(value, str) and value in _NP_DTYPE_SPELLINGS):
        import numpy as np

        return np.dtype(value).name
    return value


class OpDef:
    """Declaration of one operator.

    Parameters
    ----------
    name : str
        MXNet's operator name (as in ``-symbol.json``).
    compute : callable
        ``compute(attrs, *tensors) -> Tensor | tuple[Tensor, ...]``; ``attrs`` is the dict of
        parsed parameters, tensors are the arguments followed by the auxiliary states.
    params : list of Param
        The parameter schema, in MXNet's order (this order is the positional order of the
        generated ``mx.nd`` function after the inputs).
    inputs : list of str
        Every argument name, in MXNet's order.
    active_inputs : callable, optional
        ``active_inputs(attrs) -> names`` when some arguments depend on the attrs
        (``no_bias`` drops ``bias``).
    aux : list of str or callable
        Auxiliary state names (BatchNorm ``moving_mean``, ``moving_var``).
    outputs : list of str or callable
        Output names (``output`` by default).
    num_visible : callable, optional
        Number of outputs returned to the user (BatchNorm hides mean/var).
    variadic : str, optional
        Name of the parameter holding the input count (``num_args``) for ops such as
        ``Concat`` and ``add_n``; inputs are then passed positionally.
    infer_shape : callable, optional
        ``infer_shape(attrs, in_shapes) -> in_shapes`` filling unknown (None) input shapes
        from known ones; output shapes come from tracing ``compute`` on meta tensors unless
        ``infer_out`` is given.
    infer_out : callable, optional
        ``infer_out(attrs, in_shapes) -> list of output shapes``.
    infer_back : callable, optional
        ``infer_back(attrs, in_shapes, out_shapes) -> in_shapes``: input shapes recovered
        from complete output shapes when inputs are partial (unknown dims are 0), as MXNet's
        Reshape and transpose do in symbolic shape inference.
    infer_type : callable, optional
        ``infer_type(attrs, in_dtypes) -> (in_dtypes, out_dtypes)`` with dtype names.
    aliases : list of str
        Other names of the operator (``elemwise_add`` for ``_plus``...).
    fluent : bool
        Whether ``NDArray``/``Symbol`` get a method of this name.
    doc : str
        Docstring body.
    """

    def __init__(self, name: str, compute: Callable[..., Any], params: Sequence[Param] = (),
                 inputs: Sequence[str] = ("data",), aux: Names = (), outputs: Names = ("output",),
                 num_visible: Callable[[dict], int] | None = None, variadic: str | None = None,
                 infer_shape: Callable | None = None, infer_out: Callable | None = None,
                 infer_type: Callable | None = None, aliases: Sequence[str] = (),
                 fluent: bool = False, doc: str = "", creation: bool = False,
                 mutates: Sequence[int] = (), active_inputs: Callable | None = None,
                 infer_back: Callable | None = None):
        self.name = name
        self.compute = compute
        self.params = tuple(params)
        self.param_map = {p.name: p for p in self.params}
        self._inputs = tuple(inputs)
        self.active_inputs = active_inputs
        self._aux = aux
        self._outputs = outputs
        self._num_visible = num_visible
        self.variadic = variadic
        self.infer_shape_fn = infer_shape
        self.infer_out_fn = infer_out
        self.infer_type_fn = infer_type
        self.infer_back_fn = infer_back
        self.aliases = tuple(aliases)
        self.fluent = fluent
        self.doc = doc
        self.creation = creation
        self.mutates = tuple(mutates)
        # out_combine(attrs, old_out, result) -> what an ``out=`` array receives, for the few
        # operators whose result depends on the output's previous content
        self.out_combine: Callable | None = None
        self._cache: dict = {}

    # -- names ------------------------------------------------------------------------
    @property
    def input_slots(self) -> tuple[str, ...]:
        """Every possible argument name in order (active or not), then aux names."""
        return tuple(self._inputs) + (() if callable(self._aux) else tuple(self._aux))

    def input_names(self, attrs: dict, num_inputs: int | None = None) -> list[str]:
        """Argument names in use for these attrs (``no_bias`` drops ``bias``)."""
        if self.variadic is not None:
            if self.active_inputs is not None:  # fixed names for some attrs (UpSampling)
                names = self.active_inputs(attrs)
                if names is not None:
                    return list(names)
            n = attrs.get(self.variadic) if num_inputs is None else num_inputs
            return [f"arg{i}" for i in range(n or 0)]
        if self.active_inputs is not None:
            return list(self.active_inputs(attrs))
        return list(self._inputs)

    def aux_names(self, attrs: dict) -> list[str]:
        a = self._aux
        return list(a(attrs) if callable(a) else a)

    def output_names(self, attrs: dict) -> list[str]:
        o = self._outputs
        return list(o(attrs) if callable(o) else o)

    def num_outputs(self, attrs: dict) -> int:
        return len(self.output_names(attrs))

    def num_visible_outputs(self, attrs: dict) -> int:
        if self._num_visible is None:
            return self.num_outputs(attrs)
        return self._num_visible(attrs)

    # -- params -----------------------------------------------------------------------
    def parse_attrs(self, kwargs: dict) -> dict:
        """Parse user kwargs or string attrs into a full attrs dict (defaults filled)."""
        key = None
        try:
            key = tuple(kwargs.items())
            hit = self._cache.get(key)
            if hit is not None:
                return hit
        except TypeError:
            key = None
        pmap = self.param_map
        attrs = {}
        for k, v in kwargs.items():
            p = pmap.get(k)
            if p is None:
                if k.startswith("__") and k.endswith("__"):
                    continue  # hidden attributes (__layout__, __lr_mult__...) are not params
                if not self.params:
                    continue  # MXNet ignores keywords given to operators without parameters
                raise MXNetError(self._unknown_arg_msg(k))
            attrs[k] = p.parse(v, self.name)
        for p in self.params:
            if p.name not in attrs:
                if p.required:
                    # MXNet names the operator with the attributes it was given
                    given = "".join(f', {k}="{format_attr(v)}"' for k, v in kwargs.items()
                                    if not (k.startswith("__") and k.endswith("__")))
                    raise MXNetError(f"Required parameter {p.name} of {p.type_doc()} is not "
                                     f'presented, in operator {self.name}(name=""{given})')
                attrs[p.name] = p.default
        if key is not None:
            if len(self._cache) > 4096:
                self._cache.clear()
            try:
                self._cache[key] = attrs
            except TypeError:
                pass
        return attrs

    def format_attrs(self, kwargs: dict) -> dict[str, str]:
        """String attributes for a symbol node, validated against the schema."""
        self.parse_attrs(kwargs)  # raise early on bad input
        return {k: format_attr(_np_dtype_name(v) if k == "dtype" else v)
                for k, v in kwargs.items()}

    def _unknown_arg_msg(self, k: str) -> str:
        lines = [f"Cannot find argument '{k}', Possible Arguments:", "----------------"]
        lines += [p.describe() for p in self.params]
        return "\n".join(lines) + f"\n, in operator {self.name}"

    # -- shapes -----------------------------------------------------------------------
    def infer_shape(self, attrs: dict, in_shapes: list[Shape | None]) -> tuple[list, list]:
        """Fill unknown input shapes and compute output shapes (None when unknown)."""
        if self.infer_shape_fn is not None:
            in_shapes = list(self.infer_shape_fn(attrs, list(in_shapes)))
        if any(s is None for s in in_shapes):
            return in_shapes, [None] * self.num_outputs(attrs)
        if self.infer_out_fn is not None:
            return in_shapes, [tuple(s) for s in self.infer_out_fn(attrs, in_shapes)]
        return in_shapes, self.trace_shapes(attrs, in_shapes)

    def trace_shapes(self, attrs: dict, in_shapes, in_dtypes=None) -> list[Shape]:
        """Output shapes from running ``compute`` on meta tensors (cached: meta kernels run
        torch's Python reference implementations, ~1 ms per operator)."""
        try:
            key = (id(self), _freeze(attrs), tuple(tuple(s) for s in in_shapes),
                   tuple(in_dtypes) if in_dtypes else None, _np_flags())
            hit = _TRACE_CACHE.get(key)
        except TypeError:  # an unhashable attribute: no caching
            key = hit = None
        if hit is not None:
            return list(hit)
        out = self._trace(attrs, in_shapes, in_dtypes)
        if key is not None:
            if len(_TRACE_CACHE) > 4096:
                _TRACE_CACHE.clear()
            _TRACE_CACHE[key] = tuple(out)
        return out

    def _trace(self, attrs: dict, in_shapes, in_dtypes=None) -> list[Shape]:
        from .._dtype import to_torch

        dts = in_dtypes or ["float32"] * len(in_shapes)
        metas = [torch.empty(s, dtype=to_torch(d), device="meta") for s, d in zip(in_shapes, dts)]
        try:
            with torch.no_grad():
                out = self.compute(attrs, *metas)
        except MXNetError:
            raise
        except Exception as e:  # kernel rejected the shapes
            raise MXNetError(f"Error in operator {self.name}: shape inference failed for "
                             f"inputs {list(in_shapes)}: {e}") from None
        if isinstance(out, torch.Tensor):
            out = (out,)
        return [tuple(o.shape) for o in out]

    def __repr__(self) -> str:
        return f"<OpDef {self.name}>"


_TRACE_CACHE: dict = {}


_PLAIN = (str, int, float, bool, type(None))


def _freeze(v):
    """A hashable form of a parsed attribute value; TypeError for anything but plain values
    (objects such as subgraphs are keyed by identity, which a collected one can reuse)."""
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, _PLAIN):
        return v
    raise TypeError(f"unhashable attribute {type(v).__name__}")


def _np_flags() -> tuple:
    from ..util import is_np_array, is_np_shape

    return is_np_shape(), is_np_array()


def register(op: OpDef) -> OpDef:
    """Add ``op`` (and its aliases) to the registry; a name may be registered once."""
    for n in (op.name, *op.aliases):
        if n in _REGISTRY:
            raise ValueError(f"operator {n} registered twice")
        _REGISTRY[n] = op
    _CANONICAL.append(op)
    return op


def get_op(name: str) -> OpDef:
    """Look an operator up by name or alias; unknown names raise :class:`MXNetError`."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise MXNetError(f"Cannot find operator '{name}' in the operator registry") from None


def has_op(name: str) -> bool:
    return name in _REGISTRY


def all_names() -> list[str]:
    """Every registered name, aliases included."""
    return list(_REGISTRY)


def all_ops() -> list[OpDef]:
    """Every operator once (canonical entries)."""
    return list(_CANONICAL)
