"""Image decoding, augmentation and image iterators (``mx.image``)."""
from . import (
    detection,  # noqa: F401
    image,  # noqa: F401
)
from . import detection as det  # noqa: F401
from ._imageiter import ImageIter  # noqa: F401

ImageIter.__module__ = 'mxnet.image.image'  # MXNet's public path (reprs, pickles)
image.ImageIter = ImageIter
from .detection import *  # noqa: F401,F403
from .image import *  # noqa: F401,F403
