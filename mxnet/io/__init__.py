"""Data iterators (``mx.io``)."""
from . import io  # noqa: F401
from ._det_record import ImageDetRecordIter  # noqa: F401
from ._image_record import ImageRecordIter, ImageRecordUInt8Iter  # noqa: F401
from ._libsvm import LibSVMIter  # noqa: F401
from ._native import CSVIter, MNISTIter, MXDataIter  # noqa: F401
from .io import DataBatch, DataDesc, DataIter, NDArrayIter, PrefetchingIter, ResizeIter  # noqa: F401
