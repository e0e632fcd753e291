"""Automatic naming of symbols: :class:`NameManager` and :class:`Prefix`.

Examples
--------
>>> import mxnet as mx
>>> data = mx.sym.Variable('data')
>>> with mx.name.Prefix('mynet_'):
...     net = mx.sym.FullyConnected(data, num_hidden=10, name='fc1')
>>> net.list_arguments()
['data', 'mynet_fc1_weight', 'mynet_fc1_bias']
"""

from __future__ import annotations

import threading
import warnings

__all__ = ["NameManager", "Prefix"]


class _ClassProperty:
    def __init__(self, fget, fset=None):
        self.fget = fget
        self.fset = fset

    def __get__(self, obj, owner):
        return self.fget(owner)


class _Meta(type):
    def __setattr__(cls, key, value):
        attr = cls.__dict__.get(key)
        if isinstance(attr, _ClassProperty) and attr.fset is not None:
            attr.fset(cls, value)
            return
        super().__setattr__(key, value)


class NameManager(metaclass=_Meta):
    """Gives unnamed symbols a name from a hint and a per-hint counter (``fullyconnected0``).

    Examples
    --------
    >>> nm = NameManager()
    >>> nm.get(None, 'conv'), nm.get(None, 'conv'), nm.get('x', 'conv')
    ('conv0', 'conv1', 'x')
    """

    _current = threading.local()

    def __init__(self):
        self._counter: dict[str, int] = {}
        self._old_manager = None

    def get(self, name: str | None, hint: str) -> str:
        """Return ``name`` if given, else ``hint`` followed by the hint's counter."""
        if name:
            return name
        n = self._counter.get(hint, 0)
        self._counter[hint] = n + 1
        return f"{hint}{n}"

    def __enter__(self):
        if not hasattr(NameManager._current, "value"):
            NameManager._current.value = NameManager()
        self._old_manager = NameManager._current.value
        NameManager._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        NameManager._current.value = self._old_manager

    def _get_current(cls):
        warnings.warn("NameManager.current has been deprecated. It is advised to use the "
                      "`with` statement with NameManager.", DeprecationWarning, stacklevel=2)
        return _current_manager()

    def _set_current(cls, val):
        NameManager._current.value = val

    current = _ClassProperty(_get_current, _set_current)


class Prefix(NameManager):
    """A name manager that prepends ``prefix`` to every name it gives.

    Examples
    --------
    >>> import mxnet as mx
    >>> with mx.name.Prefix('net_'):
    ...     s = mx.sym.Variable('x') * 2
    >>> s.name
    'net__mulscalar0'
    """

    def __init__(self, prefix: str):
        super().__init__()
        self._prefix = prefix

    def get(self, name: str | None, hint: str) -> str:
        return self._prefix + super().get(name, hint)


def _current_manager() -> NameManager:
    cur = getattr(NameManager._current, "value", None)
    if cur is None:
        cur = NameManager._current.value = NameManager()
    return cur


NameManager._current.value = NameManager()
