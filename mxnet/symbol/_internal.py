"""Symbol operators of the ``_internal`` namespace, generated from the registry."""

from ._namespace import lazy_getattr as _lazy_getattr
from ._namespace import populate as _populate

__all__ = _populate(globals(), "_internal")
__getattr__ = _lazy_getattr("_internal", __name__)
