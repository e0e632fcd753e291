"""Vision datasets: MNIST, FashionMNIST, CIFAR10/100, image RecordIO and image folders.

Files live under ``$MXNET_HOME/datasets/<name>`` by default. A file that is missing or whose
SHA-1 differs from MXNet's published one is (re)downloaded from MXNet's Gluon repository
(``MXNET_GLUON_REPO``) with ``mx.gluon.utils.download``, which verifies it again.
"""
from __future__ import annotations

import gzip
import os
import struct
import tarfile
import warnings
import zlib
from collections.abc import Callable
from typing import Any

import numpy as np

from ....base import MXNetError, data_dir
from ....ndarray.ndarray import array as _nd_array
from ....util import is_np_array
from .. import dataset

__all__ = ['MNIST', 'FashionMNIST', 'CIFAR10', 'CIFAR100', 'ImageRecordDataset',
           'ImageFolderDataset', 'ImageListDataset']

def _array_fn() -> Callable:
    """``mx.np.array`` in NumPy mode (``npx.set_np()``), else ``mx.nd.array``."""
    if is_np_array():
        from .... import numpy as _mx_np

        return _mx_np.array
    return _nd_array


def _np_array(label: np.ndarray) -> Any:
    from .... import numpy as _mx_np

    return _mx_np.array(label, dtype=label.dtype)


# (file name, SHA-1) as published by MXNet's Gluon dataset repository.
MNIST_FILES = {
    'train_data': ('train-images-idx3-ubyte.gz', '6c95f4b05d2bf285e1bfb0e7960c31bd3b3f8a7d'),
    'train_label': ('train-labels-idx1-ubyte.gz', '2a80914081dc54586dbdf242f9805a6b8d2a15fc'),
    'test_data': ('t10k-images-idx3-ubyte.gz', 'c3a25af1f52dad7f726cce8cacb138654b760d48'),
    'test_label': ('t10k-labels-idx1-ubyte.gz', '763e7fa3757d93b0cdec073cef058b2004252c17'),
}
FASHION_MNIST_FILES = {
    'train_data': ('train-images-idx3-ubyte.gz', '0cf37b0d40ed5169c6b3aba31069a9770ac9043d'),
    'train_label': ('train-labels-idx1-ubyte.gz', '236021d52f1e40852b06a4c3008d8de8aef1e40b'),
    'test_data': ('t10k-images-idx3-ubyte.gz', '626ed6a7c06dd17c0eec72fa3be1740f146a2863'),
    'test_label': ('t10k-labels-idx1-ubyte.gz', '17f9ab60e7257a1620f4ad76bbbaf857c3920701'),
}
CIFAR10_FILES = {
    'archive': ('cifar-10-binary.tar.gz', 'fab780a1e191a7eda0f345501ccd62d20f7ed891'),
    'train': [('data_batch_1.bin', 'aadd24acce27caa71bf4b10992e9e7b2d74c2540'),
              ('data_batch_2.bin', 'c0ba65cce70568cd57b4e03e9ac8d2a5367c1795'),
              ('data_batch_3.bin', '1dd00a74ab1d17a6e7d73e185b69dbf31242f295'),
              ('data_batch_4.bin', 'aab85764eb3584312d3c7f65fd2fd016e36a258e'),
              ('data_batch_5.bin', '26e2849e66a845b7f1e4614ae70f4889ae604628')],
    'test': [('test_batch.bin', '67eb016db431130d61cd03c7ad570b013799c88c')],
}
CIFAR100_FILES = {
    'archive': ('cifar-100-binary.tar.gz', 'a0bb982c76b83111308126cc779a992fa506b90b'),
    'train': [('train.bin', 'e207cd2e05b73b1393c74c7f5e7bea451d63e08e')],
    'test': [('test.bin', '8fb6623e830365ff53cf14adec797474f5478006')],
}


def _sha1_ok(path: str, sha1: str) -> bool:
    from ...utils import check_sha1
    return check_sha1(path, sha1)


def _fetch(root: str, namespace: str, name: str, sha1: str) -> str:
    """Path of ``root/name``; (re)downloaded from the Gluon repository when missing or when
    its SHA-1 differs (``download`` verifies the new file too)."""
    from ...utils import _get_repo_file_url, download
    return download(_get_repo_file_url('gluon/dataset/' + namespace, name),
                    path=os.path.join(root, name), sha1_hash=sha1)


def _gunzip(path: str) -> bytes:
    try:
        with gzip.open(path, 'rb') as fin:
            return fin.read()
    except (OSError, EOFError, zlib.error) as e:
        raise MXNetError('%s: not a valid gzip file (%s)' % (path, e)) from None


def _read_idx_pair(label_file: str, data_file: str) -> tuple[np.ndarray, np.ndarray]:
    """Images (flat uint8) and int32 labels from gzipped MNIST idx files, checked against
    their headers."""
    raw = _gunzip(label_file)
    if len(raw) < 8:
        raise MXNetError('%s: truncated idx1-ubyte header (%d bytes)' % (label_file, len(raw)))
    magic, n = struct.unpack('>II', raw[:8])
    label = np.frombuffer(raw, dtype=np.uint8, offset=8).astype(np.int32)
    if magic != 2049 or len(label) != n:
        raise MXNetError('%s: not an idx1-ubyte label file (magic %d at byte offset 0, %d of '
                         '%d labels)' % (label_file, magic, len(label), n))
    raw = _gunzip(data_file)
    if len(raw) < 16:
        raise MXNetError('%s: truncated idx3-ubyte header (%d bytes)' % (data_file, len(raw)))
    magic, count, rows, cols = struct.unpack('>IIII', raw[:16])
    data = np.frombuffer(raw, dtype=np.uint8, offset=16)
    if magic != 2051 or data.size != len(label) * 28 * 28 or count != len(label):
        raise MXNetError('%s: expected %d 28x28 images after a magic 2051 header, found magic '
                         '%d, %d images and %d bytes' % (data_file, len(label), magic, count,
                                                         data.size))
    return data, label


class MNIST(dataset._DownloadedDataset):
    """MNIST handwritten digits: samples are ``(uint8 NDArray 28x28x1, int32 label)``.

    Parameters
    ----------
    root : str, default ``$MXNET_HOME/datasets/mnist``
    train : bool, default True
    transform : callable ``(data, label) -> sample``, optional

    Examples
    --------
    >>> ds = MNIST(train=False)  # doctest: +SKIP
    >>> ds[0][0].shape           # doctest: +SKIP
    (28, 28, 1)
    """

    _files = MNIST_FILES
    _namespace = 'mnist'

    def __init__(self, root: str = os.path.join(data_dir(), 'datasets', 'mnist'),
                 train: bool = True, transform: Callable | None = None) -> None:
        self._train = train
        super().__init__(root, transform)

    def _get_data(self) -> None:
        files = type(self)._files
        kind = 'train' if self._train else 'test'
        data_name, data_sha = files[kind + '_data']
        label_name, label_sha = files[kind + '_label']
        data_file = _fetch(self._root, self._namespace, data_name, data_sha)
        label_file = _fetch(self._root, self._namespace, label_name, label_sha)
        data, label = _read_idx_pair(label_file, data_file)
        data = data.reshape(len(label), 28, 28, 1)
        # under npx.set_np() MXNet keeps images and labels as mx.np arrays
        self._data = _array_fn()(data, dtype=data.dtype)
        self._label = _np_array(label) if is_np_array() else label


class FashionMNIST(MNIST):
    """Zalando's Fashion-MNIST, a drop-in replacement of MNIST.

    Examples
    --------
    >>> ds = FashionMNIST(train=True)  # doctest: +SKIP
    """

    _files = FASHION_MNIST_FILES
    _namespace = 'fashion-mnist'

    def __init__(self, root: str = os.path.join(data_dir(), 'datasets', 'fashion-mnist'),
                 train: bool = True, transform: Callable | None = None) -> None:
        super().__init__(root, train, transform)


class CIFAR10(dataset._DownloadedDataset):
    """CIFAR-10: samples are ``(uint8 NDArray 32x32x3, int32 label)``.

    Reads the binary batches (``data_batch_1.bin``... ``test_batch.bin``) in ``root``;
    missing or corrupt ones trigger a download of MXNet's archive.

    Examples
    --------
    >>> ds = CIFAR10(train=False)  # doctest: +SKIP
    >>> ds[0][0].shape             # doctest: +SKIP
    (32, 32, 3)
    """

    _files = CIFAR10_FILES
    _namespace = 'cifar10'
    _label_bytes = 1

    def __init__(self, root: str = os.path.join(data_dir(), 'datasets', 'cifar10'),
                 train: bool = True, transform: Callable | None = None) -> None:
        self._train = train
        super().__init__(root, transform)

    def _label_column(self) -> int:
        return 0

    def _read_batch(self, filename: str) -> tuple[np.ndarray, np.ndarray]:
        rec = 3072 + self._label_bytes
        with open(filename, 'rb') as fin:
            raw = np.frombuffer(fin.read(), dtype=np.uint8)
        if raw.size % rec:
            raise MXNetError('%s: size %d is not a multiple of the %d-byte CIFAR record'
                             % (filename, raw.size, rec))
        raw = raw.reshape(-1, rec)
        data = raw[:, self._label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        return data, raw[:, self._label_column()].astype(np.int32)

    def _get_data(self) -> None:
        files = type(self)._files
        wanted = files['train'] + files['test']
        if any(not os.path.exists(os.path.join(self._root, name))
               or not _sha1_ok(os.path.join(self._root, name), sha1) for name, sha1 in wanted):
            archive = _fetch(self._root, self._namespace, *files['archive'])
            with tarfile.open(archive) as tar:
                tar.extractall(self._root, filter='data')
        names = files['train'] if self._train else files['test']
        data, label = zip(*(self._read_batch(os.path.join(self._root, name))
                            for name, _ in names))
        data = np.concatenate(data)
        label = np.concatenate(label)
        self._data = _array_fn()(data, dtype=data.dtype)
        self._label = _np_array(label) if is_np_array() else label


class CIFAR100(CIFAR10):
    """CIFAR-100; ``fine_label`` picks the 100 fine classes instead of the 20 coarse ones.

    Examples
    --------
    >>> ds = CIFAR100(fine_label=True)  # doctest: +SKIP
    """

    _files = CIFAR100_FILES
    _namespace = 'cifar100'
    _label_bytes = 2

    def __init__(self, root: str = os.path.join(data_dir(), 'datasets', 'cifar100'),
                 fine_label: bool = False, train: bool = True,
                 transform: Callable | None = None) -> None:
        self._fine_label = fine_label
        super().__init__(root, train, transform)

    def _label_column(self) -> int:
        return int(self._fine_label)


class ImageRecordDataset(dataset.RecordFileDataset):
    """Images in a RecordIO file: samples are ``(HxWxC uint8 NDArray in RGB, label)``.

    Examples
    --------
    >>> ds = ImageRecordDataset('train.rec')  # doctest: +SKIP
    """

    def __init__(self, filename: str, flag: int = 1, transform: Callable | None = None) -> None:
        super().__init__(filename)
        self._flag = flag
        self._transform = transform

    def __getitem__(self, idx: int) -> Any:
        from .... import image, recordio
        header, img = recordio.unpack(super().__getitem__(idx))
        data = image.imdecode(img, self._flag)
        if self._transform is not None:
            return self._transform(data, header.label)
        return data, header.label


class ImageFolderDataset(dataset.Dataset):
    """Images in ``root/<class>/<file>``; labels are class folder indices in sorted order.

    Attributes ``synsets`` (class names) and ``items`` (``(path, label)`` pairs).

    Examples
    --------
    >>> ds = ImageFolderDataset('root')  # doctest: +SKIP
    """

    def __init__(self, root: str, flag: int = 1, transform: Callable | None = None) -> None:
        self._root = os.path.expanduser(root)
        self._flag = flag
        self._transform = transform
        self._exts = ['.jpg', '.jpeg', '.png']
        self._list_images(self._root)

    def _list_images(self, root: str) -> None:
        self.synsets: list = []
        self.items: list = []
        for folder in sorted(os.listdir(root)):
            path = os.path.join(root, folder)
            if not os.path.isdir(path):
                warnings.warn('Ignoring %s, which is not a directory.' % path, stacklevel=3)
                continue
            label = len(self.synsets)
            self.synsets.append(folder)
            for filename in sorted(os.listdir(path)):
                filename = os.path.join(path, filename)
                ext = os.path.splitext(filename)[1]
                if ext.lower() not in self._exts:
                    warnings.warn('Ignoring %s of type %s. Only support %s'
                                  % (filename, ext, ', '.join(self._exts)), stacklevel=3)
                    continue
                self.items.append((filename, label))

    def __getitem__(self, idx: int) -> Any:
        from .... import image
        img = image.imread(self.items[idx][0], self._flag)
        label = self.items[idx][1]
        if self._transform is not None:
            return self._transform(img, label)
        return img, label

    def __len__(self) -> int:
        return len(self.items)


class ImageListDataset(dataset.Dataset):
    """Images listed in a ``.lst`` file (``index\\tlabel(s)\\tpath``) or a Python list of
    ``[label, path]`` / ``(path, label)`` entries, relative to ``root``.

    Examples
    --------
    >>> ds = ImageListDataset('.', 'train.lst')  # doctest: +SKIP
    """

    def __init__(self, root: str = '.', imglist: Any = None, flag: int = 1) -> None:
        self._root = root
        self._flag = flag
        self.items: list = []
        if isinstance(imglist, str):
            with open(imglist) as fin:
                for line in fin:
                    parts = line.strip().split('\t')
                    if len(parts) < 3:
                        continue
                    label = np.array([float(x) for x in parts[1:-1]], dtype=np.float32)
                    self.items.append((parts[-1], label[0] if label.size == 1 else label))
        elif imglist is not None:
            for entry in imglist:
                if isinstance(entry[0], str):
                    self.items.append((entry[0], entry[1]))
                else:
                    label = np.array(entry[:-1], dtype=np.float32).ravel()
                    self.items.append((entry[-1], label[0] if label.size == 1 else label))

    def __getitem__(self, idx: int) -> Any:
        from .... import image
        path, label = self.items[idx]
        return image.imread(os.path.join(self._root, path), self._flag), label

    def __len__(self) -> int:
        return len(self.items)
