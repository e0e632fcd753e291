"""The Symbol: a graph of operators with MXNet's naming, listing and composition rules.

The class path ``mxnet.symbol.symbol.Symbol`` is MXNet's; keep it.
"""

from __future__ import annotations

from typing import Any

import numpy as _np

from .._op._arith import SYMBOL_TABLE, ArithMixin
from ..base import MXNetError, NotImplementedForSymbol, numeric_types  # noqa: F401
from ._node import HIDDEN_KEYS, Entry, Node, aux_node_ids, copy_graph, hide_key, topo_order

__all__ = ["Symbol", "NotImplementedForSymbol"]


def _expand_hidden(attrs: dict[str, str]) -> dict[str, str]:
    out = dict(attrs)
    for k, v in attrs.items():
        if k.startswith("__") and k.endswith("__") and k[2:-2] in HIDDEN_KEYS:
            out[k[2:-2]] = v
    return out


class Symbol(ArithMixin):
    """A symbolic graph with one or more outputs.

    Arithmetic does not broadcast (use ``mx.sym.broadcast_add``...), as in MXNet.

    Examples
    --------
    >>> import mxnet as mx
    >>> data = mx.sym.Variable('data')
    >>> net = mx.sym.FullyConnected(data, num_hidden=10, name='fc1')
    >>> net.list_arguments()
    ['data', 'fc1_weight', 'fc1_bias']
    >>> net.list_outputs()
    ['fc1_output']
    """

    __slots__ = ("_outputs", "__weakref__")
    _ARITH = SYMBOL_TABLE
    # NumPy operands defer to Symbol's operators (``np.float32(2) * sym`` is a Symbol)
    __array_priority__ = 1000.0

    def __array__(self, dtype=None, copy=None):
        # a Symbol is one object to NumPy (``np.repeat([sym1, sym2], 2)``), not a sequence
        # of its outputs (whose items are Symbols again: endless nesting under NumPy 2)
        out = _np.empty((), dtype=object)
        out[()] = self
        return out

    def __init__(self, handle: list[Entry] | None = None):
        self._outputs: list[Entry] = list(handle) if handle is not None else []

    @classmethod
    def _from_entries(cls, entries: list[Entry]) -> Symbol:
        obj = object.__new__(cls)
        obj._outputs = list(entries)
        return obj

    @property
    def handle(self) -> list[Entry]:
        """The output entries ``(node, index)`` (the graph itself)."""
        return self._outputs

    # -- arithmetic -------------------------------------------------------------------
    def _arith_call(self, opname: str, inputs: list, attrs: dict, out=None):
        from ._create import create_op_symbol

        for x in inputs:
            if not isinstance(x, Symbol):
                raise TypeError(f"type {type(x)} not supported")
        return create_op_symbol(opname, list(inputs), {}, dict(attrs))

    def _binary(self, kind, other, reflected=False, out=None):
        if not isinstance(other, (Symbol, *numeric_types)):
            raise TypeError(f"type {type(other)} not supported")
        return super()._binary(kind, other, reflected, out)

    def __neg__(self):
        return self._binary("mul", -1.0)

    def __abs__(self):
        return self._arith_call("abs", [self], {})

    def __iadd__(self, other):
        raise NotImplementedForSymbol(self.__iadd__, "+=", other, 1)

    def __isub__(self, other):
        raise NotImplementedForSymbol(self.__isub__, "-=", other, 1)

    def __imul__(self, other):
        raise NotImplementedForSymbol(self.__imul__, "*=", other)

    def __itruediv__(self, other):
        raise NotImplementedForSymbol(self.__itruediv__, "/=", other)

    __idiv__ = __itruediv__

    def __bool__(self):
        raise NotImplementedForSymbol(self.__bool__, "bool")

    __hash__ = object.__hash__

    # -- container protocol -----------------------------------------------------------
    def __len__(self) -> int:
        return len(self._outputs)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getitem__(self, index) -> Symbol:
        if isinstance(index, str):
            names = self.list_outputs()
            hits = [i for i, n in enumerate(names) if n == index]
            if len(hits) > 1:
                raise ValueError(f'There are multiple outputs with name "{index}"')
            if not hits:
                raise ValueError(f'Cannot find output that matches name "{index}"')
            index = hits[0]
        if isinstance(index, slice):
            from ._create import Group

            return Group([self[i] for i in range(*index.indices(len(self)))])
        if not isinstance(index, int):
            raise TypeError("Symbol only support integer index to fetch i-th output")
        if index < 0:
            index += len(self._outputs)
        if not 0 <= index < len(self._outputs):
            raise IndexError(f"index {index} out of range for a symbol with "
                             f"{len(self._outputs)} outputs")
        return Symbol._from_entries([self._outputs[index]])

    def __repr__(self) -> str:
        name = self.name
        if name is None:
            heads = []
            for n, _ in self._outputs:
                if n.name not in heads:
                    heads.append(n.name)
            name = ", ".join(heads)
            return f"<{type(self).__name__} group [{name}]>"
        return f"<{type(self).__name__} {name}>"

    # -- copying ----------------------------------------------------------------------
    def __copy__(self) -> Symbol:
        return Symbol._from_entries(copy_graph(self._outputs))

    def __deepcopy__(self, _memo) -> Symbol:
        return self.__copy__()

    def __getstate__(self):
        return {"handle": self.tojson() if self._outputs else None}

    def __setstate__(self, state):
        h = state["handle"]
        if h is None:
            self._outputs = []
        else:
            from ._json import load_json

            self._outputs = load_json(h)._outputs

    def __reduce__(self):
        return (Symbol, (), self.__getstate__())

    # -- composition ------------------------------------------------------------------
    def __call__(self, *args, **kwargs) -> Symbol:
        s = self.__copy__()
        s._compose(*args, **kwargs)
        return s

    def _compose(self, *args, **kwargs) -> None:
        name = kwargs.pop("name", None)
        if args and kwargs:
            raise TypeError("compose only accept input Symbols either as positional or "
                            "keyword arguments, not both")
        order = topo_order([n for n, _ in self._outputs])
        variables = [n for n in order if n.op is None]
        aux = aux_node_ids(order)
        repl: dict[int, Entry] = {}

        def entry_of(key, s):
            if not isinstance(s, Symbol):
                raise TypeError(f"Compose expect `Symbol` as arguments, got {type(s)} for {key}")
            if len(s._outputs) != 1:
                raise MXNetError(f"Symbol.Compose: argument {key} must have a single output, "
                                 f"got {len(s._outputs)}")
            return s._outputs[0]

        if args:
            free = [v for v in variables if id(v) not in aux]
            if len(args) > len(free):
                raise MXNetError(f"Symbol.Compose: too many positional arguments: {len(args)} "
                                 f"given, the symbol has {len(free)} arguments")
            for v, s in zip(free, args):
                repl[id(v)] = entry_of(v.name, s)
        else:
            by_name = {v.name: v for v in variables}
            for k, s in kwargs.items():
                v = by_name.get(k)
                if v is None:
                    cands = "".join(f"\n\t[{i}]{n.name}" for i, n in enumerate(
                        x for x in variables if id(x) not in aux))
                    raise MXNetError(f"Symbol.ComposeKeyword argument name {k} not found."
                                     f"\nCandidate arguments:{cands}")
                repl[id(v)] = entry_of(k, s)
        if repl:
            for n in order:
                if n.inputs and any(id(src) in repl for src, _ in n.inputs):
                    vers = [repl[id(src)][0].version if id(src) in repl else v
                            for (src, _), v in zip(n.inputs, n.in_versions)]
                    n.set_inputs([repl.get(id(src), (src, i)) if src.op is None else (src, i)
                                  for src, i in n.inputs], vers)
            self._outputs = [repl.get(id(n), (n, i)) if n.op is None else (n, i)
                             for n, i in self._outputs]
        if name is not None and len(self._outputs) == 1 and self._outputs[0][0].op is not None:
            self._outputs[0][0].name = name

    # -- naming and attributes --------------------------------------------------------
    @property
    def name(self) -> str | None:
        """Name of the head node (None for a group of several nodes)."""
        n = self._head_node()
        return None if n is None else n.name

    def _head_node(self) -> Node | None:
        """The node of every output (a multi-output node counts), else None."""
        outs = self._outputs
        if not outs or any(n is not outs[0][0] for n, _ in outs):
            return None
        return outs[0][0]

    def attr(self, key: str) -> str | None:
        """An attribute of the head node (hidden keys such as ``lr_mult`` included)."""
        n = self._head_node()
        if n is None:
            return None
        v = n.attrs.get(key)
        if v is None:
            v = n.attrs.get(hide_key(key))
        return v

    def list_attr(self, recursive: bool = False) -> dict[str, str]:
        """Attributes of the head node."""
        if recursive:
            raise DeprecationWarning("Symbol.list_attr with recursive=True has been deprecated. "
                                     "Please use attr_dict instead.")
        n = self._head_node()
        return _expand_hidden(n.attrs) if n is not None else {}

    def attr_dict(self) -> dict[str, dict[str, str]]:
        """``{node name: attributes}`` for every node of the graph that has attributes."""
        out: dict[str, dict[str, str]] = {}
        for n in topo_order([x for x, _ in self._outputs]):
            if n.attrs:
                out[n.name] = _expand_hidden(n.attrs)
        return out

    def _set_attr(self, **kwargs) -> None:
        """Set string attributes on the head node."""
        n = self._head_node()
        if n is None:
            raise MXNetError("Symbol._set_attr: only a symbol with one output can take "
                             "attributes")
        for k, v in kwargs.items():
            if not isinstance(v, str):
                raise ValueError("Set Attr only accepts string values")
            k = hide_key(k)
            if n.op is not None and k not in n.op.param_map and not (
                    k.startswith("__") and k.endswith("__")):
                raise MXNetError(n.op._unknown_arg_msg(k))
            n.attrs[k] = v
        if n.op is not None:
            n.invalidate()
            n.parsed  # noqa: B018  (validate now)

    # -- structure --------------------------------------------------------------------
    def _order(self) -> list[Node]:
        return topo_order([n for n, _ in self._outputs])

    def get_internals(self) -> Symbol:
        """A group of every node output of the graph (topological order)."""
        entries = []
        for n in self._order():
            entries += [(n, i) for i in range(n.num_visible())]
        return Symbol._from_entries(entries)

    def _gen_atomic_symbol(self) -> Symbol:
        """A new unnamed, uncomposed symbol of the head node's operator and attributes."""
        n = self._outputs[0][0] if self._outputs else None
        if n is None or n.op is None:
            raise MXNetError("Symbol._gen_atomic_symbol: the symbol's head must be an "
                             "operator, not a variable")
        atom = Node(n.op, "", dict(n.attrs))
        return Symbol._from_entries([(atom, i) for i in range(atom.num_visible())])

    def get_children(self) -> Symbol | None:
        """The inputs of the head node(s) as a group, or None for a variable."""
        entries, seen = [], set()
        for n, _ in self._outputs:  # each head node once (a multi-output node's outputs)
            if id(n) not in seen:
                seen.add(id(n))
                entries += n.inputs
        return Symbol._from_entries(entries) if entries else None

    def list_arguments(self) -> list[str]:
        """Names of the arguments (variables that are not auxiliary states), in order."""
        order = self._order()
        aux = aux_node_ids(order)
        return [n.name for n in order if n.op is None and id(n) not in aux]

    def list_auxiliary_states(self) -> list[str]:
        """Names of the auxiliary states (BatchNorm ``moving_mean``...), in order."""
        order = self._order()
        aux = aux_node_ids(order)
        return [n.name for n in order if n.op is None and id(n) in aux]

    def list_inputs(self) -> list[str]:
        """Every variable name (arguments and auxiliary states), in order."""
        return [n.name for n in self._order() if n.op is None]

    def list_outputs(self) -> list[str]:
        """Names of the outputs (``<node>_output`` for op outputs)."""
        return [n.output_names()[i] for n, i in self._outputs]

    # -- inference, serialisation, binding (implemented in sibling modules) -----------
    def infer_shape(self, *args, **kwargs):
        """Infer argument, output and auxiliary shapes from some known shapes.

        Returns ``(arg_shapes, out_shapes, aux_shapes)`` or ``(None, None, None)`` when
        some shapes stay unknown.
        """
        from ..util import is_np_shape
        from ._infer import infer_shape, report_infer_error

        try:
            return infer_shape(self, args, kwargs, partial=False, np_semantics=is_np_shape())
        except MXNetError:
            report_infer_error("shape", args, kwargs)
            raise

    def infer_shape_partial(self, *args, **kwargs):
        """Like :meth:`infer_shape`, unknown shapes reported as ``()`` (``None``, and
        unknown dims ``-1``, under ``mx.np_shape()``)."""
        from ..util import is_np_shape
        from ._infer import infer_shape

        return infer_shape(self, args, kwargs, partial=True, np_semantics=is_np_shape())

    def _infer_shape_raw(self, partial: bool, /, *args, **kwargs):
        """Shape inference for the library's own callers: unknown dims always ``0`` and
        unknown shapes ``()``, whatever ``mx.np_shape()`` says."""
        from ._infer import infer_shape

        return infer_shape(self, args, kwargs, partial=partial)

    def infer_type(self, *args, **kwargs):
        """Infer argument, output and auxiliary dtypes (NumPy types)."""
        from ._infer import infer_type, report_infer_error

        try:
            return infer_type(self, args, kwargs, partial=False)
        except MXNetError:
            report_infer_error("type", args, kwargs)
            raise

    def infer_type_partial(self, *args, **kwargs):
        from ._infer import infer_type

        return infer_type(self, args, kwargs, partial=True)

    def tojson(self, remove_amp_cast: bool = True) -> str:
        """The graph as MXNet's nnvm JSON string."""
        from ._json import to_json

        return to_json(self, remove_amp_cast)

    def save(self, fname: str, remove_amp_cast: bool = True) -> None:
        """Write :meth:`tojson` to ``fname``."""
        from ._json import save

        save(self, fname, remove_amp_cast)

    def debug_str(self) -> str:
        """MXNet's textual dump of the graph."""
        from ._json import debug_str

        return debug_str(self)

    def bind(self, ctx, args, args_grad=None, grad_req="write", aux_states=None,
             group2ctx=None, shared_exec=None, compile=None):
        """Bind arrays to the arguments; return an :class:`~mxnet.executor.Executor`.

        ``compile=True`` runs the graph through ``torch.compile`` (see
        :mod:`mxnet.executor`).
        """
        from ..executor import bind

        return bind(self, ctx, args, args_grad, grad_req, aux_states, group2ctx, shared_exec,
                    compile)

    def simple_bind(self, ctx, grad_req="write", type_dict=None, stype_dict=None,
                    group2ctx=None, shared_arg_names=None, shared_exec=None,
                    shared_buffer=None, **kwargs):
        """Allocate arrays from inferred shapes and bind them."""
        from ..executor import simple_bind

        return simple_bind(self, ctx, grad_req, type_dict, group2ctx, shared_arg_names,
                           shared_exec, shared_buffer, stype_dict=stype_dict, **kwargs)

    def eval(self, ctx=None, **kwargs):
        """Bind ``kwargs`` and run forward once; return the list of outputs."""
        from ..context import current_context

        ctx = ctx if ctx is not None else current_context()
        ex = self.bind(ctx, kwargs, grad_req="null")
        return ex.forward()

    def gradient(self, wrt):
        raise MXNetError("Symbol.gradient is deprecated in MXNet and not supported; "
                         "use bind(...).backward()")

    # -- NDArray-only methods -----------------------------------------------------------
    def asnumpy(self):
        raise NotImplementedForSymbol(self.asnumpy, None)

    def asscalar(self):
        raise NotImplementedForSymbol(self.asscalar, None)

    def wait_to_read(self):
        raise NotImplementedForSymbol(self.wait_to_read, None)

    def copy(self):
        raise NotImplementedForSymbol(self.copy, None)

    def as_in_context(self, context):
        raise NotImplementedForSymbol(self.as_in_context, None)

    def detach(self):
        raise NotImplementedForSymbol(self.detach, None)

    def backward(self, *args, **kwargs):
        raise NotImplementedForSymbol(self.backward, None)

    def as_nd_ndarray(self) -> Symbol:
        """This symbol as a classic Symbol (itself)."""
        return self

    def as_np_ndarray(self):
        """The same graph as a NumPy-interface symbol (``mx.sym.np._Symbol``)."""
        from .numpy import _Symbol

        return _Symbol._from_entries(self._outputs)

    def astype(self, *args: Any, **kwargs: Any) -> Symbol:
        from ._create import create_op_symbol_from_call

        return create_op_symbol_from_call("cast", (self, *args), kwargs)


# MXNet 1.9.1's ``mxnet.symbol.symbol`` module also holds the creation functions (code
# writes ``from mxnet.symbol.symbol import Variable, Group, load``); they live in sibling
# modules here and resolve lazily to avoid an import cycle.
_REEXPORTS = frozenset({
    "Variable", "var", "Group", "load", "load_json", "zeros", "ones", "full", "arange",
    "linspace", "eye", "pow", "power", "maximum", "minimum", "hypot", "histogram", "split_v2"})


def __getattr__(attr):
    if attr in _REEXPORTS:
        from .. import symbol as _pkg

        return getattr(_pkg, attr)
    if attr == "AttrScope":
        from ..attribute import AttrScope

        return AttrScope
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
