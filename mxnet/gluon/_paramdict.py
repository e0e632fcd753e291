"""ParameterDict: an ordered, prefixed dict of Parameters (re-exported by
:mod:`mxnet.gluon.parameter`)."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .parameter import _NAMING_URL, Constant, Parameter, _brief_print_list, _nd

__all__ = ["ParameterDict"]


class ParameterDict:
    """An ordered dict of :class:`Parameter` with a name prefix.

    Parameters
    ----------
    prefix : str
        Prefix prepended to names by :meth:`get`.
    shared : ParameterDict, optional
        Dict whose parameters are reused when a name exists there.

    Examples
    --------
    >>> pd = mx.gluon.ParameterDict('net_')
    >>> pd.get('w', shape=(2,))
    Parameter net_w (shape=(2,), dtype=<class 'numpy.float32'>)
    """

    def __init__(self, prefix="", shared=None):
        self._prefix = prefix
        self._params = OrderedDict()
        self._shared = shared

    def __repr__(self):
        name = self._prefix + " " if self._prefix else ""
        content = "\n".join(f"  {v}" for v in self.values())
        return f"{name}(\n{content}\n)"

    def __getitem__(self, key):
        return self._params[key]

    def __iter__(self):
        return iter(self._params)

    def __len__(self):
        return len(self._params)

    def __contains__(self, key):
        return key in self._params

    def items(self):
        return self._params.items()

    def keys(self):
        return self._params.keys()

    def values(self):
        return self._params.values()

    @property
    def prefix(self):
        return self._prefix

    def _get_impl(self, name):
        if name in self._params:
            return self._params[name]
        if self._shared is not None and name in self._shared._params:
            self._params[name] = self._shared._params[name]
            return self._shared._params[name]
        return None

    def get(self, name, **kwargs):
        """Get ``prefix + name``, creating it with ``kwargs`` when absent."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            param = Parameter(name, **kwargs)
            self._params[name] = param
            return param
        for k, v in kwargs.items():
            existing = getattr(param, k, None)
            if existing is None:
                setattr(param, k, v)
                continue
            if k == "shape" and v is not None:
                v = (v,) if isinstance(v, int) else tuple(v)
                if len(v) == len(existing):
                    inferred, matched = [], True
                    for d1, d2 in zip(v, existing):
                        if d1 != d2 and d1 > 0 and d2 > 0:
                            matched = False
                            break
                        inferred.append(d2 if d1 in (0, -1) else d1)
                    if matched:
                        param._shape = tuple(inferred)
                        continue
            elif k == "dtype" and v is not None and np.dtype(v) == np.dtype(existing):
                continue
            if v is not None and v != existing:
                raise AssertionError(
                    f"Cannot retrieve Parameter '{name}' because desired attribute does not "
                    f"match with stored for attribute '{k}': desired '{v}' vs stored "
                    f"'{existing}'.")
        return param

    def get_constant(self, name, value=None):
        """Get or create the :class:`Constant` ``prefix + name``."""
        name = self.prefix + name
        param = self._get_impl(name)
        if param is None:
            if value is None:
                raise KeyError(f"No constant named '{name}'. Please specify value if you "
                               "want to create a new constant.")
            param = Constant(name, value)
            self._params[name] = param
        elif value is not None:
            if not isinstance(param, Constant):
                raise AssertionError(f"Parameter '{name}' already exists but it is not a "
                                     "constant.")
            if isinstance(value, _nd().NDArray):
                value = value.asnumpy()
            value = np.asarray(value)
            if not (param.shape == value.shape and (param.value.asnumpy() == value).all()):
                raise AssertionError(f"Constant '{name}' already exists but it's value "
                                     "doesn't match new value")
        return param

    def update(self, other):
        """Copy every parameter of ``other`` into this dict."""
        for k, v in other.items():
            if k in self._params and self._params[k] is not v:
                raise AssertionError("Cannot update self with other because they have "
                                     f"different Parameters with the same name '{k}'")
        for k, v in other.items():
            self._params[k] = v

    def initialize(self, init=None, ctx=None, verbose=False, force_reinit=False):
        """Initialize every parameter (``init`` defaults to ``Uniform()``)."""
        from .. import initializer

        if init is None:
            init = initializer.Uniform()
        if verbose and hasattr(init, "set_verbosity"):
            init.set_verbosity(verbose=verbose)
        for v in self.values():
            v.initialize(None, ctx, init, force_reinit=force_reinit)

    def zero_grad(self):
        for p in self.values():
            p.zero_grad()

    def reset_ctx(self, ctx):
        for p in self.values():
            p.reset_ctx(ctx)

    def list_ctx(self):
        s = set()
        for p in self.values():
            s.update(p.list_ctx())
        return list(s)

    def setattr(self, name, value):
        """Set attribute ``name`` of every parameter (``grad_req``, ``lr_mult``...)."""
        for p in self.values():
            setattr(p, name, value)

    def save(self, filename, strip_prefix=""):
        """Save to ``filename`` with prefixed names (minus ``strip_prefix``)."""
        arg_dict = {}
        for param in self.values():
            weight = param._reduce()
            if not param.name.startswith(strip_prefix):
                raise ValueError(
                    f"Prefix '{strip_prefix}' is to be striped before saving, but Parameter's "
                    f"name '{param.name}' does not start with '{strip_prefix}'. this may be due "
                    "to your Block shares parameters from other Blocks or you forgot to use "
                    "'with name_scope()' when creating child blocks. " + _NAMING_URL)
            arg_dict[param.name[len(strip_prefix):]] = weight
        _nd().save(filename, arg_dict)

    def load(self, filename, ctx=None, allow_missing=False, ignore_extra=False,
             restore_prefix="", cast_dtype=False, dtype_source="current"):
        """Load parameters saved by :meth:`save` (``arg:``/``aux:`` prefixes accepted)."""
        if restore_prefix:
            for name in self.keys():
                if not name.startswith(restore_prefix):
                    raise AssertionError(
                        f"restore_prefix is '{restore_prefix}' but Parameters name '{name}' "
                        f"does not start with '{restore_prefix}'. " + _NAMING_URL)
        loaded = _nd().load(filename)
        if isinstance(loaded, list) and not loaded:
            loaded = {}  # an empty dict is saved as an empty list (a graph without params)
        if isinstance(loaded, list):
            from ..base import MXNetError

            raise MXNetError(f"ParameterDict.load: '{filename}' holds an unnamed list of "
                             "arrays, not a name->array dict")
        self.load_dict(loaded, ctx, allow_missing, ignore_extra, restore_prefix, filename,
                       cast_dtype, dtype_source)

    def load_dict(self, param_dict, ctx=None, allow_missing=False, ignore_extra=False,
                  restore_prefix="", filename=None, cast_dtype=False, dtype_source="current"):
        """Load from a ``{name: NDArray}`` dict; nothing is changed when a check fails."""
        lprefix = len(restore_prefix)
        if isinstance(param_dict, dict):
            items = param_dict.items()
        else:
            items = param_dict
        loaded = [(k[4:] if k.startswith(("arg:", "aux:")) else k, v) for k, v in items]
        arg_dict = {restore_prefix + k: v for k, v in loaded}
        where = f"file: {filename}" if filename else "param_dict"
        if not allow_missing:
            for name in self.keys():
                if name not in arg_dict:
                    raise AssertionError(
                        f"Parameter '{name[lprefix:]}' is missing in {where}, which contains "
                        f"parameters: {_brief_print_list(arg_dict.keys())}. Please make sure "
                        "source and target networks have the same prefix." + _NAMING_URL)
        todo = []
        for name, value in arg_dict.items():
            if name not in self._params:
                if not ignore_extra:
                    raise AssertionError(
                        f"Parameter '{name[lprefix:]}' loaded from {where} is not present in "
                        f"ParameterDict, choices are: {_brief_print_list(self._params.keys())}"
                        ". Set ignore_extra to True to ignore. Please make sure source and "
                        "target networks have the same prefix." + _NAMING_URL)
                continue
            self._params[name]._check_load(value, cast_dtype, dtype_source)
            todo.append((name, value))
        for name, value in todo:
            self._params[name]._load_init(value, ctx, cast_dtype=cast_dtype,
                                          dtype_source=dtype_source)


ParameterDict.__module__ = "mxnet.gluon.parameter"
