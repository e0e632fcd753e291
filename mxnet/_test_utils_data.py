"""Data-set and environment helpers of ``mx.test_utils`` (private module).

The download helpers fetch MXNet's public data files exactly as MXNet 1.9.1 does. Where
the network cannot be reached they raise the download error: they never make up data.
"""

from __future__ import annotations

import bz2  # noqa: F401  (MXNet's test_utils exports these modules through ``import *``)
import errno  # noqa: F401
import gzip
import os
import platform
import struct
import sys  # noqa: F401
import traceback  # noqa: F401
import zipfile
from contextlib import contextmanager  # noqa: F401  (exported, as MXNet's test_utils does)

import numpy as np

from ._test_utils_more import download, get_mnist_ubyte
from .base import MXNetError
from .context import current_context
from .runtime import Features
from .util import get_cuda_compute_capability

__all__ = [
    "download_model",
    "get_mnist",
    "get_mnist_pkl",
    "get_mnist_iterator",
    "get_zip_data",
    "get_im2rec_path",
    "is_aarch64_run",
    "has_tvm_ops",
    "get_cuda_compute_capability",
    "bz2",
    "errno",
    "gzip",
    "platform",
    "struct",
    "sys",
    "traceback",
    "zipfile",
    "contextmanager",
]


def lazy_module(name: str):
    """``ss`` (scipy.stats, None without scipy) and ``requests``, which MXNet's
    test_utils exports; imported on first use so that ``import mxnet`` stays fast."""
    import importlib

    target = {"ss": "scipy.stats", "requests": "requests"}[name]
    try:
        return importlib.import_module(target)
    except ImportError:
        if name == "ss":
            return None
        raise AttributeError(f"module 'mxnet.test_utils' has no attribute {name!r}") from None


def lazy_names() -> list:
    """The lazily imported names that exist here (``requests`` only when installed)."""
    import importlib.util

    names = ["ss"]
    if importlib.util.find_spec("requests") is not None:
        names.append("requests")
    return names


_MODEL_BASE = "http://data.mxnet.io/models/"
_IMAGENET = {
    "imagenet1k-inception-bn": ("imagenet/inception-bn/Inception-BN", "0126"),
    "imagenet1k-resnet-18": ("imagenet/resnet/18-layers/resnet-18", "0000"),
    "imagenet1k-resnet-34": ("imagenet/resnet/34-layers/resnet-34", "0000"),
    "imagenet1k-resnet-50": ("imagenet/resnet/50-layers/resnet-50", "0000"),
    "imagenet1k-resnet-101": ("imagenet/resnet/101-layers/resnet-101", "0000"),
    "imagenet1k-resnet-152": ("imagenet/resnet/152-layers/resnet-152", "0000"),
    "imagenet1k-resnext-50": ("imagenet/resnext/50-layers/resnext-50", "0000"),
    "imagenet1k-resnext-101": ("imagenet/resnext/101-layers/resnext-101", "0000"),
    "imagenet1k-resnext-101-64x4d": ("imagenet/resnext/101-layers/resnext-101-64x4d", "0000"),
    "imagenet11k-resnet-152": ("imagenet-11k/resnet-152/resnet-152", "0000"),
    "imagenet11k-place365ch-resnet-152": ("imagenet-11k-place365-ch/resnet-152", "0000"),
    "imagenet11k-place365ch-resnet-50": ("imagenet-11k-place365-ch/resnet-50", "0000"),
}


def _default_model_info() -> dict:
    return {
        name: {
            "symbol": f"{_MODEL_BASE}{stem}-symbol.json",
            "params": f"{_MODEL_BASE}{stem}-{epoch}.params",
        }
        for name, (stem, epoch) in _IMAGENET.items()
    }


def download_model(model_name, dst_dir="./", meta_info=None):
    """Download a model's symbol and parameter files (from data.mxnet.io by default).

    Parameters
    ----------
    model_name : str
        Key of the model in ``meta_info``.
    dst_dir : str
        Folder to save the files into (created if missing).
    meta_info : dict of dict, optional
        ``{model_name: {'symbol': url, 'params': url}}``; the ImageNet models by default.

    Returns
    -------
    tuple
        ``(path prefix, 0)``, or ``(None, 0)`` when ``model_name`` is unknown.

    Examples
    --------
    >>> download_model('no-such-model')
    (None, 0)
    """
    info = dict(_default_model_info() if meta_info is None else meta_info)
    if model_name not in info:
        return (None, 0)
    if not os.path.isdir(dst_dir):
        os.mkdir(dst_dir)
    meta = dict(info[model_name])
    assert "symbol" in meta, "missing symbol url"
    prefix = os.path.join(dst_dir, model_name)
    download(meta["symbol"], prefix + "-symbol.json")
    assert "params" in meta, "mssing parameter file url"
    download(meta["params"], prefix + "-0000.params")
    return (prefix, 0)


def _read_idx_pair(label_url: str, image_url: str):
    with gzip.open(download(label_url)) as flbl:
        struct.unpack(">II", flbl.read(8))
        label = np.frombuffer(flbl.read(), dtype=np.int8)
    with gzip.open(download(image_url), "rb") as fimg:
        _, _, rows, cols = struct.unpack(">IIII", fimg.read(16))
        image = np.frombuffer(fimg.read(), dtype=np.uint8).reshape(len(label), rows, cols)
        image = image.reshape(image.shape[0], 1, 28, 28).astype(np.float32) / 255
    return label, image


def get_mnist():
    """Download MNIST (gzip idx files) and load it into NumPy arrays.

    Returns
    -------
    dict
        ``train_data``, ``train_label``, ``test_data``, ``test_label`` (images as float32
        ``(N, 1, 28, 28)`` in [0, 1], labels as int8).

    Examples
    --------
    >>> mnist = get_mnist()  # doctest: +SKIP
    """
    base = "http://data.mxnet.io/data/mnist/"
    train_lbl, train_img = _read_idx_pair(
        base + "train-labels-idx1-ubyte.gz", base + "train-images-idx3-ubyte.gz"
    )
    test_lbl, test_img = _read_idx_pair(
        base + "t10k-labels-idx1-ubyte.gz", base + "t10k-images-idx3-ubyte.gz"
    )
    return {
        "train_data": train_img,
        "train_label": train_lbl,
        "test_data": test_img,
        "test_label": test_lbl,
    }


def get_mnist_pkl():
    """Download ``mnist.pkl.gz`` into ``./data`` unless it is there.

    Examples
    --------
    >>> get_mnist_pkl()  # doctest: +SKIP
    """
    os.makedirs("data", exist_ok=True)
    if not os.path.exists("data/mnist.pkl.gz"):
        download("http://deeplearning.net/data/mnist/mnist.pkl.gz", dirname="data")


def get_mnist_iterator(batch_size, input_shape, num_parts=1, part_index=0):
    """Training and validation ``mx.io.MNISTIter`` over the idx files in ``./data``
    (downloaded first when missing).

    Examples
    --------
    >>> train, val = get_mnist_iterator(100, (784,))  # doctest: +SKIP
    """
    from . import io

    get_mnist_ubyte()
    flat = len(input_shape) != 3
    train = io.MNISTIter(
        image="data/train-images-idx3-ubyte",
        label="data/train-labels-idx1-ubyte",
        input_shape=input_shape,
        batch_size=batch_size,
        shuffle=True,
        flat=flat,
        num_parts=num_parts,
        part_index=part_index,
    )
    val = io.MNISTIter(
        image="data/t10k-images-idx3-ubyte",
        label="data/t10k-labels-idx1-ubyte",
        input_shape=input_shape,
        batch_size=batch_size,
        flat=flat,
        num_parts=num_parts,
        part_index=part_index,
    )
    return (train, val)


def get_zip_data(data_dir, url, data_origin_name):
    """Download ``url`` (a zip file named ``data_origin_name``) into ``data_dir`` and
    extract it there, unless the zip file is already present.

    Examples
    --------
    >>> get_zip_data('data', 'http://example.com/x.zip', 'x.zip')  # doctest: +SKIP
    """
    packed = os.path.join(data_dir, data_origin_name)
    if not os.path.exists(packed):
        download(url, dirname=data_dir, overwrite=False)
        with zipfile.ZipFile(packed) as zf:
            zf.extractall(path=data_dir)


def get_im2rec_path(home_env="MXNET_HOME"):
    """Path of the ``im2rec.py`` tool: under ``$MXNET_HOME`` when set, else next to the
    imported package.

    Examples
    --------
    >>> get_im2rec_path().endswith('im2rec.py')
    True
    """
    if home_env in os.environ:
        root = os.environ[home_env]
    else:
        root = os.path.dirname(os.path.abspath(__file__))
    for parts in (("tools", "im2rec.py"), ("..", "..", "tools", "im2rec.py")):
        path = os.path.join(root, *parts)
        if os.path.isfile(path):
            return path
    raise OSError("Could not find path to tools/im2rec.py")


def is_aarch64_run() -> bool:
    """True when running on an aarch64 machine.

    Examples
    --------
    >>> isinstance(is_aarch64_run(), bool)
    True
    """
    return platform.machine() == "aarch64"


def has_tvm_ops() -> bool:
    """True when the build has TVM-generated operators (never, for this package).

    Examples
    --------
    >>> has_tvm_ops()
    False
    """
    built = Features().is_enabled("TVM_OP")
    ctx = current_context()
    if ctx.device_type == "gpu":
        try:
            cc = get_cuda_compute_capability(ctx)
        except (ValueError, MXNetError):
            print(
                f"Failed to get CUDA compute capability for context {ctx}. The operators "
                "built with USE_TVM_OP=1 will not be run in unit tests."
            )
            return False
        return built and cc >= 53
    return built
