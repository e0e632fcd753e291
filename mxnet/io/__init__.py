"""Data iterators (``mx.io``)."""
from . import io, utils  # noqa: F401
from ._det_record import ImageDetRecordIter  # noqa: F401
from ._image_record import (  # noqa: F401
    ImageRecordInt8Iter,
    ImageRecordIter,
    ImageRecordIter_v1,
    ImageRecordUInt8Iter,
    ImageRecordUInt8Iter_v1,
)
from ._libsvm import LibSVMIter  # noqa: F401
from ._native import CSVIter, MNISTIter, MXDataIter  # noqa: F401
from .io import DataBatch, DataDesc, DataIter, NDArrayIter, PrefetchingIter, ResizeIter  # noqa: F401
from .io import _init_data  # noqa: F401  (MXNet exposes it as mx.io._init_data)
