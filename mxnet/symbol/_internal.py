"""Symbol operators of the ``_internal`` namespace, generated from the registry."""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "_internal")
