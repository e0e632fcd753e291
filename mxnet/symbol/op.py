"""Symbol operators of the ``op`` namespace, generated from the registry."""

from ._namespace import lazy_getattr as _lazy_getattr
from ._namespace import populate as _populate

__all__ = _populate(globals(), "op")
__getattr__ = _lazy_getattr("op", __name__)
