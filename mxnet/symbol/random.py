"""Symbol operators of the ``random`` namespace, generated from the registry."""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "random")
