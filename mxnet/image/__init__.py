"""Image decoding, augmentation and image iterators (``mx.image``)."""
from . import (
    detection,  # noqa: F401
    image,  # noqa: F401
)
from . import detection as det  # noqa: F401
from ._imageiter import ImageIter  # noqa: F401
from .detection import *  # noqa: F401,F403
from .image import *  # noqa: F401,F403
