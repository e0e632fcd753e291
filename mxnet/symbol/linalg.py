"""Symbol operators of the ``linalg`` namespace, generated from the registry."""

from ._namespace import lazy_getattr as _lazy_getattr
from ._namespace import populate as _populate

__all__ = _populate(globals(), "linalg")
__getattr__ = _lazy_getattr("linalg", __name__)
