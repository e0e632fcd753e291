"""Image operators of the ``image`` namespace (``mx.nd.image.to_tensor``...), generated."""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "image")
