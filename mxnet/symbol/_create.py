"""Creating symbols: variables, operator applications, groups (private)."""

from __future__ import annotations

from collections.abc import Callable

from .._dtype import NAME_TO_CODE, dtype_name
from .._op._gen import finish, route
from .._op._registry import OpDef, get_op
from ..attribute import _current_scope
from ..base import MXNetError, _Null
from ..name import _current_manager
from ._node import HIDDEN_KEYS, Entry, Node, hide_key
from .symbol import Symbol

__all__ = ["Variable", "var", "Group", "create_op_symbol", "make_sym_function"]

_STYPE_CODE = {"default": 0, "row_sparse": 1, "csr": 2}
# initializers MXNet attaches to input variables on composition (FSetInputVarAttrOnCompose)
_AUX_INIT = {"moving_mean": '["zero", {}]', "moving_var": '["one", {}]'}
_ARG_INIT = {("LeakyReLU", "gamma"): '["Constant", {"value": 0.25}]'}


def Variable(
    name: str,
    attr: dict | None = None,
    shape=None,
    lr_mult=None,
    wd_mult=None,
    dtype=None,
    init=None,
    stype=None,
    **kwargs,
) -> Symbol:
    """Create a symbolic variable (a free input of a graph).

    Parameters
    ----------
    name : str
        Variable name.
    attr : dict of str, optional
        Extra attributes.
    shape, lr_mult, wd_mult, dtype, init, stype : optional
        Stored as the hidden attributes ``__shape__``, ``__lr_mult__``, ``__wd_mult__``,
        ``__dtype__``, ``__init__`` and ``__storage_type__``.

    Examples
    --------
    >>> import mxnet as mx
    >>> w = mx.sym.Variable('w', shape=(3, 4), lr_mult=2)
    >>> w.attr('__shape__'), w.attr('lr_mult')
    ('(3, 4)', '2')
    """
    if not isinstance(name, str):
        raise TypeError("Expect a string for variable `name`")
    a = dict(_current_scope().get(attr))
    if shape is not None:
        a["__shape__"] = str(shape)
    if lr_mult is not None:
        a["__lr_mult__"] = str(lr_mult)
    if wd_mult is not None:
        a["__wd_mult__"] = str(wd_mult)
    if dtype is not None:
        a["__dtype__"] = str(NAME_TO_CODE[dtype_name(dtype)])
    if init is not None:
        if not isinstance(init, str):
            init = init.dumps()
        a["__init__"] = init
    if stype is not None:
        a["__storage_type__"] = str(_STYPE_CODE[stype])
    for k, v in kwargs.items():
        if k.startswith("__") and k.endswith("__"):
            a[k] = str(v)
        else:
            raise ValueError(
                f"Attribute name={k} is not supported. Additional attributes must "
                "start and end with double underscores, e.g, __yourattr__"
            )
    node = Node(None, name)
    for k, v in a.items():
        if not isinstance(v, str):
            raise ValueError("Set Attr only accepts string values")
        node.attrs[hide_key(k)] = v
    return Symbol._from_entries([(node, 0)])


var = Variable


def Group(symbols, create_fn=Symbol) -> Symbol:
    """A symbol whose outputs are the outputs of ``symbols`` in order (``create_fn`` is the
    symbol class to make: ``mx.sym.np._Symbol`` groups NumPy-interface symbols).

    Examples
    --------
    >>> import mxnet as mx
    >>> a, b = mx.sym.Variable('a'), mx.sym.Variable('b')
    >>> mx.sym.Group([a + b, a * b]).list_outputs()
    ['_plus0_output', '_mul0_output']
    """
    if not symbols or any(not isinstance(s, Symbol) for s in symbols):
        raise TypeError("Expected a list of symbols as input")
    entries: list[Entry] = []
    for s in symbols:
        entries += s._outputs
    return (create_fn if isinstance(create_fn, type) else Symbol)._from_entries(entries)


def _single_entry(op: OpDef, slot: str, s) -> Entry:
    if not isinstance(s, Symbol):  # MXNet 1.9.1's generated functions assert this
        raise AssertionError(f"Argument {slot} must be Symbol instances, but got {s}")
    if len(s._outputs) != 1:
        raise MXNetError(
            f"Operator {op.name}: input {slot} must be a single-output symbol, "
            f"got a group of {len(s._outputs)} outputs {s.list_outputs()}"
        )
    return s._outputs[0]


_amp_hook = None  # set by mxnet.contrib.amp.init(): casts inputs of the listed operators


def create_op_symbol(
    opname: str,
    args: list,
    sym_kwargs: dict,
    params: dict,
    name: str | None = None,
    attr: dict | None = None,
) -> Symbol:
    """Apply operator ``opname`` (name or alias; its lower-case form is the name hint).

    ``args`` are positional input symbols, ``sym_kwargs`` named input symbols, ``params``
    the operator parameters (Python values or strings).
    """
    if _amp_hook is not None:
        return _amp_hook(_create_op_symbol, opname, args, sym_kwargs, params, name, attr)
    return _create_op_symbol(opname, args, sym_kwargs, params, name, attr)


def _create_op_symbol(
    opname: str,
    args: list,
    sym_kwargs: dict,
    params: dict,
    name: str | None = None,
    attr: dict | None = None,
) -> Symbol:
    op = get_op(opname)
    params = {k: v for k, v in params.items() if v is not _Null}
    scope = _current_scope().get(attr)
    for k, v in scope.items():
        # MXNet 1.9.1 passes an operator's ``attr`` values through ``str()`` (GluonCV's
        # FeatureExpander gives ``attr={'__init__': Xavier(...)}``); only AttrScope itself
        # insists on strings
        params[hide_key(k)] = v if isinstance(v, str) else str(v)
    dynamic = getattr(op, "dynamic_inputs", False)
    if op.variadic is not None and not dynamic:
        if sym_kwargs:
            raise MXNetError(
                f"Operator {op.name} takes its inputs as positional arguments, "
                f"got keyword inputs {sorted(sym_kwargs)}"
            )
        params[op.variadic] = params.get(op.variadic, len(args))
    for k in [k for k in params if k in HIDDEN_KEYS and k not in op.param_map]:
        # MXNet stores these keyword arguments as hidden attributes (``__lr_mult__``...)
        params[hide_key(k)] = str(params.pop(k))
    for k in params:
        if (
            k not in op.param_map and not (k.startswith("__") and k.endswith("__")) and op.params
        ):  # operators without parameters keep any keyword as an attr
            raise MXNetError(op._unknown_arg_msg(k))
    attrs = op.format_attrs(params)
    node_name = _current_manager().get(name, route(opname)[1].lower())
    node = Node(op, node_name, attrs)
    parsed = node.parsed
    if op.variadic is not None and not dynamic:
        every = op.input_names(parsed)  # quantized_concat: the arrays, then min/max pairs
        if len(args) > int(parsed[op.variadic]) and len(args) != len(every):
            raise MXNetError(
                f"Operator {op.name}: {op.variadic}={parsed[op.variadic]} but "
                f"{len(args)} inputs were given"
            )
        # fewer inputs than ``num_args``: the missing ones become variables named
        # ``<node>_arg<i>``, as MXNet 1.9.1 composes a symbol with absent inputs
        entries = [_single_entry(op, f"arg{i}", s) for i, s in enumerate(args)]
        # the inputs not given (quantized_concat's min/max) become variables
        for slot in every[len(args) :]:
            entries.append((Node(None, f"{node_name}_{slot}", dict(attrs)), 0))
        node.set_inputs(entries)
        return Symbol._from_entries([(node, i) for i in range(node.num_visible())])
    arg_names = op.input_names(parsed)
    slots = arg_names + op.aux_names(parsed)
    given: dict[str, object] = {}
    if len(args) > len(slots):
        raise MXNetError(
            f"Operator {op.name} takes {len(slots)} inputs {slots}, "
            f"got {len(args)} positional inputs"
        )
    pos_slots = op.positional_slots(parsed) if hasattr(op, "positional_slots") else slots
    for slot, s in zip(pos_slots, args):
        given[slot] = s
    for k, s in sym_kwargs.items():
        if k not in slots:
            raise MXNetError(
                f"Operator {op.name} ({node_name}) has no input named '{k}'; inputs are {slots}"
            )
        if k in given:
            raise TypeError(f"{op.name}() got multiple values for input '{k}'")
        given[k] = s
    entries: list[Entry] = []
    for slot in slots:
        s = given.get(slot)
        if s is None:
            vattrs = dict(attrs)
            entries.append((Node(None, f"{node_name}_{slot}", vattrs), 0))
        else:
            entries.append(_single_entry(op, slot, s))
    for k, (src, _) in enumerate(entries):
        if src.op is not None or "__init__" in src.attrs:
            continue
        init = (
            _AUX_INIT.get(slots[k]) if k >= len(arg_names) else _ARG_INIT.get((op.name, slots[k]))
        )
        if init is not None:
            src.attrs["__init__"] = init
    node.set_inputs(entries)
    return Symbol._from_entries([(node, i) for i in range(node.num_visible())])


def create_op_symbol_from_call(opname: str, args: tuple, kwargs: dict) -> Symbol:
    """Call the generated ``mx.sym`` function of ``opname`` with Python arguments."""
    from ._namespace import function_for

    return function_for(opname)(*args, **kwargs)


def make_sym_function(op: OpDef, public: str, called: str, module: str) -> Callable:
    """Build ``mx.sym.<public>``: symbols positionally or by input name, then params."""
    slots = op.input_slots
    nslots = len(slots)
    pnames = [p.name for p in op.params if p.name != op.variadic]
    variadic = op.variadic
    dynamic = getattr(op, "dynamic_inputs", False)

    def fn(*args, name=None, attr=None, out=None, **kwargs):
        # ``out=`` is accepted and ignored, as MXNet 1.9.1's generated symbol functions do
        if dynamic:
            sym_args = list(args)
            sym_kwargs = {k: v for k, v in kwargs.items() if isinstance(v, Symbol)}
            params = {k: v for k, v in kwargs.items() if not isinstance(v, Symbol)}
        elif variadic is not None:
            for a in args:  # MXNet 1.9.1: an assertion, and a list is not unpacked
                if not isinstance(a, Symbol):
                    raise AssertionError(
                        f"Positional arguments must be Symbol instances, but got {a}"
                    )
            sym_args = list(args)
            sym_kwargs: dict = {}
            params = kwargs
        else:
            sym_args = []
            sym_kwargs = {}
            params = {}
            for i, a in enumerate(args):
                if i < nslots:
                    if a is not None:
                        sym_kwargs[slots[i]] = a
                elif i - nslots < len(pnames):
                    params[pnames[i - nslots]] = a
                elif i - nslots - len(pnames) < 3:  # MXNet's tail: name, attr, out
                    k = i - nslots - len(pnames)
                    if k == 0:
                        name = a
                    elif k == 1:
                        attr = a
                else:
                    raise TypeError(
                        f"{public}() takes at most {nslots + len(pnames) + 3} positional arguments"
                    )
            for k, v in kwargs.items():
                if k in slots and v is not None and not isinstance(v, Symbol):
                    raise AssertionError(f"Argument {k} must be Symbol instances, but got {v}")
                if isinstance(v, Symbol) or (k in slots and v is None):
                    if v is not None:
                        if k in sym_kwargs:
                            raise TypeError(f"{public}() got multiple values for argument '{k}'")
                        sym_kwargs[k] = v
                else:
                    if k in params:
                        raise TypeError(f"{public}() got multiple values for argument '{k}'")
                    params[k] = v
        return create_op_symbol(called, sym_args, sym_kwargs, params, name, attr)

    fn = finish(fn, op, public, module, "Symbol")
    return fn
