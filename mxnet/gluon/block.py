"""Gluon blocks: :class:`Block`, :class:`HybridBlock` and :class:`SymbolBlock`.

Naming follows MXNet 1.x: a block created outside any ``name_scope`` gets a global prefix
(``dense0_``); children created inside ``with parent.name_scope():`` get the parent's prefix
plus a per-scope counter (``hybridsequential0_conv0_``), and their parameters are named
``prefix + suffix`` (``hybridsequential0_conv0_weight``).

Examples
--------
>>> from mxnet.gluon import nn
>>> net = nn.HybridSequential()
>>> with net.name_scope():
...     net.add(nn.Dense(4))
>>> list(net.collect_params().keys())
['hybridsequential0_dense0_weight', 'hybridsequential0_dense0_bias']
"""

from __future__ import annotations

import re
import threading
import warnings
from collections import OrderedDict, defaultdict

from .. import name as _name
from .. import ndarray
from .. import util as _np_util
from ..base import MXNetError, abstract
from .parameter import DeferredInitializationError, Parameter, ParameterDict, _brief_print_list

__all__ = ["Block", "HybridBlock", "SymbolBlock"]


class _BlockScope:
    """Scope giving children of a block their names and parameter dicts."""

    _current = threading.local()

    def __init__(self, block):
        self._block = block
        self._counter = {}
        self._old_scope = None
        self._name_scope = None

    @staticmethod
    def create(prefix, params, hint):
        """Return ``(prefix, ParameterDict)`` for a new block created in the current scope."""
        current = getattr(_BlockScope._current, "value", None)
        if current is None:
            if prefix is None:
                prefix = _name._current_manager().get(None, hint) + "_"
            if params is None:
                params = ParameterDict(prefix)
            else:
                params = ParameterDict(params.prefix, params)
            return prefix, params
        if prefix is None:
            count = current._counter.get(hint, 0)
            prefix = f"{hint}{count}_"
            current._counter[hint] = count + 1
        if params is None:
            parent = current._block.params
            params = ParameterDict(parent.prefix + prefix, parent._shared)
        else:
            params = ParameterDict(params.prefix, params)
        return current._block.prefix + prefix, params

    def __enter__(self):
        if self._block._empty_prefix:
            return self
        self._old_scope = getattr(_BlockScope._current, "value", None)
        _BlockScope._current.value = self
        self._name_scope = _name.Prefix(self._block.prefix)
        self._name_scope.__enter__()
        return self

    def __exit__(self, ptype, value, trace):
        if self._block._empty_prefix:
            return
        self._name_scope.__exit__(ptype, value, trace)
        self._name_scope = None
        _BlockScope._current.value = self._old_scope


def _indent(s_, num_spaces):
    lines = s_.split("\n")
    if len(lines) == 1:
        return s_
    first = lines.pop(0)
    return "\n".join([first] + [(num_spaces * " ") + line for line in lines])


def _check_np_outputs(out) -> None:
    """MXNet's rule in NumPy mode: a block returns ``mx.np`` arrays only (a classic NDArray
    or Symbol among its outputs is a TypeError)."""
    if isinstance(out, (list, tuple)):
        for o in out:
            _check_np_outputs(o)
        return
    from ..numpy import ndarray as np_ndarray
    from ..symbol import Symbol
    from ..symbol.numpy import _Symbol

    if (isinstance(out, ndarray.NDArray) and not isinstance(out, np_ndarray)) or (
        isinstance(out, Symbol) and not isinstance(out, _Symbol)
    ):
        raise TypeError(
            f"Block's output must be of type mxnet.numpy.ndarray or "
            f"mxnet.symbol.numpy._Symbol in NumPy mode, got {type(out)}; call "
            "as_np_ndarray() on it"
        )


class HookHandle:
    """Handle returned by ``register_forward_hook``; ``detach()`` removes the hook."""

    _next_id = 0

    def __init__(self):
        self._hooks_dict_ref = None
        self._id = None

    def attach(self, hooks_dict, hook):
        import weakref

        if self._hooks_dict_ref is not None:
            raise AssertionError("The same handle cannot be attached twice.")
        self._id = HookHandle._next_id
        HookHandle._next_id += 1
        hooks_dict[self._id] = hook
        self._hooks_dict_ref = weakref.ref(hooks_dict)

    def detach(self):
        hooks_dict = self._hooks_dict_ref() if self._hooks_dict_ref else None
        if hooks_dict is not None and self._id in hooks_dict:
            del hooks_dict[self._id]

    def __enter__(self):
        return self

    def __exit__(self, ptype, value, trace):
        self.detach()


class Block:
    """Base class of every layer and model.

    Parameters
    ----------
    prefix : str, optional
        Prefix of the names of this block's parameters and children.
    params : ParameterDict, optional
        Parameters to share (those with matching names are reused).

    Examples
    --------
    >>> class Model(mx.gluon.Block):
    ...     def __init__(self, **kwargs):
    ...         super().__init__(**kwargs)
    ...         with self.name_scope():
    ...             self.dense = mx.gluon.nn.Dense(2)
    ...     def forward(self, x):
    ...         return self.dense(x)
    """

    def __init__(self, prefix=None, params=None):
        self._empty_prefix = prefix == ""
        self._prefix, self._params = _BlockScope.create(prefix, params, self._alias())
        self._name = self._prefix[:-1] if self._prefix.endswith("_") else self._prefix
        self._scope = _BlockScope(self)
        self._children = OrderedDict()
        self._reg_params = {}
        self._forward_hooks = OrderedDict()
        self._forward_pre_hooks = OrderedDict()

    def __repr__(self):
        modstr = "\n".join(
            f"  ({key}): {_indent(repr(block), 2)}"
            for key, block in self.__dict__.items()
            if isinstance(block, Block)
        )
        return f"{self.__class__.__name__}(\n{modstr}\n)"

    def __setattr__(self, name, value):
        if hasattr(self, name):
            existing = getattr(self, name)
            if isinstance(existing, (Parameter, Block)) and not isinstance(value, type(existing)):
                raise TypeError(
                    f"Changing attribute type for {name} from {type(existing)} to "
                    f"{type(value)}is not allowed."
                )
        if isinstance(value, Block):
            self.register_child(value, name)
        elif isinstance(value, Parameter):
            if name in self._reg_params:
                raise AssertionError(
                    f"Overriding Parameter attribute {name} is not allowed. If you want to "
                    "share parameters between blocks, please set 'params' at Block "
                    "construction instead."
                )
            self._reg_params[name] = value
        super().__setattr__(name, value)

    def _check_container_with_block(self):
        children = set(id(c) for c in self._children.values())

        def find(data):
            if isinstance(data, (list, tuple)):
                return any(find(e) for e in data)
            if isinstance(data, dict):
                return any(find(v) for v in data.values())
            return isinstance(data, Block) and id(data) not in children

        for k, v in self.__dict__.items():
            if isinstance(v, (list, tuple, dict)) and not (k.startswith("__") or k == "_children"):
                if find(v):
                    warnings.warn(
                        f'"{self.__class__.__name__}.{k}" is an unregistered container with '
                        "Blocks. Note that Blocks inside the list, tuple or dict will not be "
                        "registered automatically. Make sure to register them using "
                        "register_child() or switching to nn.Sequential/nn.HybridSequential "
                        "instead. ",
                        stacklevel=3,
                    )

    def _alias(self):
        return self.__class__.__name__.lower()

    @property
    def prefix(self):
        """Prefix of this block's names (``dense0_``)."""
        return self._prefix

    @property
    def name(self):
        """Name of this block without the trailing ``_``."""
        return self._name

    def name_scope(self):
        """Scope in which children get this block's prefix."""
        return self._scope

    @property
    def params(self):
        """This block's own parameters (children's not included)."""
        return self._params

    def collect_params(self, select=None):
        """Parameters of this block and its children, optionally filtered by regex.

        Examples
        --------
        >>> net.collect_params('.*weight|.*bias')  # doctest: +SKIP
        """
        self._check_container_with_block()
        ret = ParameterDict(self._params.prefix)
        if not select:
            ret.update(self.params)
        else:
            pattern = re.compile(select)
            ret.update({n: v for n, v in self.params.items() if pattern.match(n)})
        for cld in self._children.values():
            ret.update(cld.collect_params(select=select))
        return ret

    def _collect_params_with_prefix(self, prefix=""):
        if prefix:
            prefix += "."
        ret = {prefix + key: val for key, val in self._reg_params.items()}
        for name, child in self._children.items():
            ret.update(child._collect_params_with_prefix(prefix + name))
        return ret

    # -- files --------------------------------------------------------------------------
    def save_parameters(self, filename, deduplicate=False):
        """Save parameters under structural names (``0.weight``, ``features.3.bias``)."""
        from .. import ndarray

        params = self._collect_params_with_prefix()
        if deduplicate:
            reverse = {v: k for k, v in params.items()}
            params = {v: k for k, v in reverse.items()}
        arg_dict = {key: val._reduce() for key, val in params.items()}
        ndarray.save(filename, arg_dict)

    def save_params(self, filename):
        """Deprecated: save with prefixed names; use :meth:`save_parameters`."""
        warnings.warn(
            "save_params is deprecated. Please use save_parameters. Note that if "
            "you want load from SymbolBlock later, please use export instead. For "
            "details, see https://mxnet.apache.org/tutorials/gluon/save_load_"
            "params.html",
            stacklevel=2,
        )
        try:
            self.collect_params().save(filename, strip_prefix=self.prefix)
        except ValueError as e:
            raise ValueError(
                f"{e}\nsave_params is deprecated. Using save_parameters may resolve this error."
            ) from None

    def load_parameters(
        self,
        filename,
        ctx=None,
        allow_missing=False,
        ignore_extra=False,
        cast_dtype=False,
        dtype_source="current",
    ):
        """Load parameters written by :meth:`save_parameters` (or legacy prefixed files).

        Nothing is changed when a name, shape or dtype check fails.
        """
        from .. import ndarray

        loaded = ndarray.load(filename)
        if isinstance(loaded, list) and not loaded:
            loaded = {}  # an empty dict is saved as an empty list
        if isinstance(loaded, list):
            raise MXNetError(
                f"load_parameters: '{filename}' holds an unnamed list of arrays, "
                "not a name->array dict"
            )
        params = self._collect_params_with_prefix()
        if not loaded and not params:
            return
        if not any("." in k for k in loaded.keys()):
            # legacy file (save_params / export): prefixed names, maybe arg:/aux:
            del loaded
            self.collect_params().load(
                filename,
                ctx,
                allow_missing,
                ignore_extra,
                self.prefix,
                cast_dtype=cast_dtype,
                dtype_source=dtype_source,
            )
            return
        self._load_structural(
            loaded, params, filename, ctx, allow_missing, ignore_extra, cast_dtype, dtype_source
        )

    def _load_structural(
        self, loaded, params, filename, ctx, allow_missing, ignore_extra, cast_dtype, dtype_source
    ):
        if not allow_missing:
            params_inv = defaultdict(list)
            for k, v in params.items():
                params_inv[v].append(k)
            for name, param in params.items():
                if not any(p in loaded for p in params_inv[param]):
                    raise AssertionError(
                        f"Parameter '{name}' is missing in file '{filename}', which contains "
                        f"parameters: {_brief_print_list(loaded.keys())}. Set "
                        "allow_missing=True to ignore missing parameters."
                    )
        todo = []
        for name, value in loaded.items():
            if name not in params:
                if not ignore_extra:
                    raise ValueError(
                        f"Parameter '{name}' loaded from file '{filename}' is not present in "
                        f"ParameterDict, which contains parameters "
                        # MXNet lists the block's own parameters here (none for containers)
                        f"{_brief_print_list(self.params.keys())}. Set ignore_extra=True to "
                        "ignore. "
                    )
                continue
            params[name]._check_load(value, cast_dtype, dtype_source)
            todo.append((name, value))
        for name, value in todo:
            params[name]._load_init(value, ctx, cast_dtype=cast_dtype, dtype_source=dtype_source)

    def save(self, prefix):
        """Save the block tree (names and traced graphs) to ``prefix-model.json`` and the
        parameters to ``prefix-model.params``; rebuild the same model and call :meth:`load`.
        """
        from ._block_io import save_block

        save_block(self, prefix)

    def load(self, prefix):
        """Load what :meth:`save` wrote into a freshly built, identical model."""
        from ._block_io import load_block

        load_block(self, prefix)

    def load_params(self, filename, ctx=None, allow_missing=False, ignore_extra=False):
        """Deprecated alias of :meth:`load_parameters`."""
        warnings.warn("load_params is deprecated. Please use load_parameters.", stacklevel=2)
        self.load_parameters(filename, ctx, allow_missing, ignore_extra)

    # -- structure ----------------------------------------------------------------------
    def register_child(self, block, name=None):
        """Register ``block`` as a child (``name`` defaults to its index)."""
        if name is None:
            name = str(len(self._children))
        self._children[name] = block

    def register_forward_pre_hook(self, hook):
        """Call ``hook(block, inputs)`` before each forward; returns a :class:`HookHandle`."""
        handle = HookHandle()
        handle.attach(self._forward_pre_hooks, hook)
        return handle

    def register_forward_hook(self, hook):
        """Call ``hook(block, inputs, outputs)`` after each forward."""
        handle = HookHandle()
        handle.attach(self._forward_hooks, hook)
        return handle

    def register_op_hook(self, callback, monitor_all=False):
        """Call ``callback(node_name, op_name, array)`` for the operator outputs (with
        ``monitor_all`` also the inputs) of every hybridized block inside this one (names are
        bytes, as MXNet's C callback passes them; eager blocks report nothing, as in MXNet).
        """
        for cld in self._children.values():
            cld.register_op_hook(callback, monitor_all)

    def apply(self, fn):
        """Call ``fn(block)`` on every child (recursively) and then on this block."""
        for cld in self._children.values():
            cld.apply(fn)
        fn(self)
        return self

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        """Initialize the parameters of this block and its children (default ``Uniform()``)."""
        from .. import initializer

        if init is None:
            init = initializer.Uniform()
        self.collect_params().initialize(init, ctx, verbose, force_reinit)

    def hybridize(self, active=True, **kwargs):
        """Turn hybridization of HybridBlock children on or off."""
        for cld in self._children.values():
            cld.hybridize(active, **kwargs)

    def cast(self, dtype):
        """Cast every parameter of this block and its children to ``dtype``."""
        for child in self._children.values():
            child.cast(dtype)
        for _, param in self.params.items():
            param.cast(dtype)

    def zero_grad(self):
        """Set every gradient buffer to 0."""
        self.collect_params().zero_grad()

    def reset_ctx(self, ctx):
        self.collect_params().reset_ctx(ctx)

    def __call__(self, *args):
        for hook in list(self._forward_pre_hooks.values()):
            hook(self, args)
        out = self.forward(*args)
        for hook in list(self._forward_hooks.values()):
            hook(self, args, out)
        if _np_util._state.array:  # NumPy mode: every output must be an mx.np array
            _check_np_outputs(out)
        return out

    def forward(self, *args):
        """Override to define the computation."""
        raise abstract(self, "forward")

    def summary(self, *inputs):
        """Print each layer's output shape and parameter count for ``inputs``."""
        from ._summary import summary

        summary(self, *inputs)


from ._hybrid import HybridBlock  # noqa: E402
from ._hybrid_util import _flatten, _regroup  # noqa: E402, F401  (third-party code imports these)
from ._symbol_block import SymbolBlock  # noqa: E402

__all__ += ["DeferredInitializationError"]
