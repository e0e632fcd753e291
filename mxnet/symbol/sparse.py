"""Symbol operators of the ``sparse`` namespace, generated from the registry."""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "sparse")
