"""Attribute scopes: attributes attached to every symbol created inside the scope.

Examples
--------
>>> import mxnet as mx
>>> with mx.AttrScope(ctx_group='dev1'):
...     fc = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=3, name='fc')
>>> fc.attr('ctx_group')
'dev1'
"""

from __future__ import annotations

import threading
import warnings
from collections import defaultdict

from .name import _ClassProperty, _Meta

__all__ = ["AttrScope"]


class AttrScope(metaclass=_Meta):
    """Scope whose string attributes are added to the symbols created inside it.

    Parameters
    ----------
    **kwargs : str
        Attributes (``ctx_group='dev1'``, ``lr_mult='0.5'``, ``__layout__='NCHW'``).
    """

    _current = threading.local()
    # Subgraph name -> how many control-flow subgraphs took it (MXNet's unique naming).
    _subgraph_names: defaultdict = defaultdict(int)

    def __init__(self, **kwargs):
        self._old_scope = None
        for value in kwargs.values():
            if not isinstance(value, str):
                raise ValueError("Attributes need to be string")
        self._attr = kwargs

    def get(self, attr: dict | None) -> dict:
        """Merge the scope's attributes with ``attr`` (``attr`` wins)."""
        if self._attr:
            ret = self._attr.copy()
            if attr:
                ret.update(attr)
            return ret
        return attr if attr else {}

    def __enter__(self):
        if not hasattr(AttrScope._current, "value"):
            AttrScope._current.value = AttrScope()
        self._old_scope = AttrScope._current.value
        attr = AttrScope._current.value._attr.copy()
        attr.update(self._attr)
        self._attr = attr
        AttrScope._current.value = self
        return self

    def __exit__(self, ptype, value, trace):
        AttrScope._current.value = self._old_scope

    def _get_current(cls):
        warnings.warn(
            "AttrScope.current has been deprecated. It is advised to use the "
            "`with` statement with AttrScope.",
            DeprecationWarning,
            stacklevel=2,
        )
        return _current_scope()

    def _set_current(cls, val):
        AttrScope._current.value = val

    current = _ClassProperty(_get_current, _set_current)


def _current_scope() -> AttrScope:
    cur = getattr(AttrScope._current, "value", None)
    if cur is None:
        cur = AttrScope._current.value = AttrScope()
    return cur


AttrScope._current.value = AttrScope()
