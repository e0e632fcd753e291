"""gluon.data: datasets, samplers, vision datasets."""
import os

import numpy as np
import pytest

from mxnet import nd, recordio
from mxnet.gluon.data import (
    ArrayDataset,
    BatchSampler,
    DataLoader,
    IntervalSampler,
    RandomSampler,
    RecordFileDataset,
    SequentialSampler,
    SimpleDataset,
)


def test_samplers():
    assert list(SequentialSampler(3, 2)) == [2, 3, 4]
    assert sorted(RandomSampler(5)) == list(range(5))
    seq = SequentialSampler(10)
    assert list(BatchSampler(seq, 3, 'keep')) == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert list(BatchSampler(seq, 3, 'discard')) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    roll = BatchSampler(seq, 3, 'rollover')
    assert list(roll) == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    assert len(roll) == 3
    assert list(roll)[0] == [9, 0, 1]
    assert len(BatchSampler(seq, 3, 'keep')) == 4
    with pytest.raises(ValueError):
        list(BatchSampler(seq, 3, 'bad'))
    assert list(IntervalSampler(6, 3)) == [0, 3, 1, 4, 2, 5]
    assert list(IntervalSampler(6, 3, rollover=False)) == [0, 3]


def test_dataset_ops():
    ds = SimpleDataset(list(range(10)))
    assert ds.transform(lambda x: x * 2)[3] == 6
    assert ds.transform(lambda x: x * 2, lazy=False)[4] == 8
    assert list(ds.filter(lambda x: x % 3 == 0)) == [0, 3, 6, 9]
    sh = [list(ds.shard(3, i)) for i in range(3)]
    assert sh == [[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert list(ds.take(2)) == [0, 1] and len(ds.take(None)) == 10
    assert list(ds.sample(SequentialSampler(2, 5))) == [5, 6]
    with pytest.raises(TypeError):
        ds.sample([1, 2])
    pairs = ArrayDataset(np.arange(4), nd.array([5, 6, 7, 8]))
    x, y = pairs[1]
    assert x == 1 and y == 6.0 and isinstance(y, np.float32)
    t = pairs.transform_first(lambda v: v + 100)
    assert t[2] == (102, np.float32(7))
    with pytest.raises(AssertionError):
        ArrayDataset([1, 2], [1])


def test_record_file_dataset(tmp_path):
    rec = recordio.MXIndexedRecordIO(str(tmp_path / 'a.idx'), str(tmp_path / 'a.rec'), 'w')
    for i in range(5):
        rec.write_idx(i, b'item%d' % i)
    rec.close()
    ds = RecordFileDataset(str(tmp_path / 'a.rec'))
    assert len(ds) == 5 and ds[3] == b'item3'


def test_seed_cifar_pipeline(tmp_path):
    """The seed's CIFAR-10 pipeline on CIFAR binary files written here."""
    from mxnet.gluon.data.vision import CIFAR10, datasets
    from mxnet.gluon.data.vision import transforms as T
    rng = np.random.RandomState(0)
    files = {}
    for name, _ in datasets.CIFAR10_FILES['train'] + datasets.CIFAR10_FILES['test']:
        rows = np.concatenate([rng.randint(0, 10, (8, 1)), rng.randint(0, 256, (8, 3072))], 1)
        raw = rows.astype(np.uint8).tobytes()
        (tmp_path / name).write_bytes(raw)
        import hashlib
        files[name] = hashlib.sha1(raw).hexdigest()
    table = dict(datasets.CIFAR10_FILES)
    table['train'] = [(n, files[n]) for n, _ in table['train']]
    table['test'] = [(n, files[n]) for n, _ in table['test']]
    old = CIFAR10._files
    CIFAR10._files = table
    try:
        ds = CIFAR10(root=str(tmp_path), train=True)
        assert len(ds) == 40
        img, lab = ds[9]
        assert img.shape == (32, 32, 3) and img.dtype == np.uint8
        raw = np.frombuffer((tmp_path / 'data_batch_2.bin').read_bytes(), np.uint8)
        raw = raw.reshape(-1, 3073)
        assert lab == raw[1, 0]
        np.testing.assert_array_equal(img.asnumpy(), raw[1, 1:].reshape(3, 32, 32)
                                      .transpose(1, 2, 0))
        tf = T.Compose([T.ToTensor(), T.Normalize((0.4914, 0.4822, 0.4465),
                                                  (0.2023, 0.1994, 0.2010))])
        dl = DataLoader(ds.transform_first(tf), batch_size=16, shuffle=True, last_batch='keep')
        shapes = [(x.shape, y.shape) for x, y in dl]
        assert shapes[0] == ((16, 3, 32, 32), (16,)) and len(shapes) == 3
        assert len(CIFAR10(root=str(tmp_path), train=False)) == 8
    finally:
        CIFAR10._files = old


def test_mnist_files(tmp_path):
    import gzip
    import hashlib
    import struct

    from mxnet.gluon.data.vision import MNIST, datasets
    n = 5
    img = (np.arange(n * 784) % 255).astype(np.uint8)
    lab = np.arange(n, dtype=np.uint8)
    blobs = {'t10k-images-idx3-ubyte.gz': gzip.compress(struct.pack('>IIII', 2051, n, 28, 28)
                                                        + img.tobytes()),
             't10k-labels-idx1-ubyte.gz': gzip.compress(struct.pack('>II', 2049, n)
                                                        + lab.tobytes())}
    for k, v in blobs.items():
        (tmp_path / k).write_bytes(v)
    table = {k: (v[0], hashlib.sha1(blobs[v[0]]).hexdigest()) if v[0] in blobs else v
             for k, v in datasets.MNIST_FILES.items()}
    old = MNIST._files
    MNIST._files = table
    try:
        ds = MNIST(root=str(tmp_path), train=False)
        assert len(ds) == 5
        x, y = ds[3]
        assert x.shape == (28, 28, 1) and y == 3 and y.dtype == np.int32
        np.testing.assert_array_equal(x.asnumpy().ravel(), img[3 * 784:4 * 784])
    finally:
        MNIST._files = old


def test_image_folder(tmp_path):
    import cv2
    src = cv2.imread(os.path.join(os.path.dirname(__file__), '..', '..', 'image', 'china.jpg'))
    for cls in ('b', 'a'):
        os.makedirs(tmp_path / cls)
        cv2.imwrite(str(tmp_path / cls / 'x.png'), src[:10, :12])
    (tmp_path / 'a' / 'skip.txt').write_text('x')
    from mxnet.gluon.data.vision import ImageFolderDataset
    with pytest.warns(UserWarning):
        ds = ImageFolderDataset(str(tmp_path))
    assert ds.synsets == ['a', 'b'] and len(ds) == 2
    img, label = ds[1]
    assert img.shape == (10, 12, 3) and label == 1
    np.testing.assert_array_equal(img.asnumpy(), src[:10, :12, ::-1])


def test_download_and_verify(tmp_path, monkeypatch):
    """A corrupt local file is re-downloaded (from a local HTTP repository) and verified."""
    import functools
    import gzip
    import hashlib
    import http.server
    import struct
    import threading

    from mxnet.gluon.data.vision import FashionMNIST, datasets
    n = 3
    blobs = {'t10k-images-idx3-ubyte.gz': gzip.compress(struct.pack('>IIII', 2051, n, 28, 28)
                                                        + bytes(n * 784)),
             't10k-labels-idx1-ubyte.gz': gzip.compress(struct.pack('>II', 2049, n)
                                                        + bytes([7, 8, 9]))}
    repo = tmp_path / 'repo' / 'gluon' / 'dataset' / 'fashion-mnist'
    repo.mkdir(parents=True)
    for k, v in blobs.items():
        (repo / k).write_bytes(v)
    root = tmp_path / 'root'
    root.mkdir()
    (root / 't10k-labels-idx1-ubyte.gz').write_bytes(b'corrupt')
    table = {k: (v[0], hashlib.sha1(blobs[v[0]]).hexdigest()) if v[0] in blobs else v
             for k, v in datasets.FASHION_MNIST_FILES.items()}
    monkeypatch.setattr(FashionMNIST, '_files', table)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler,
                                directory=str(tmp_path / 'repo'))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv('MXNET_GLUON_REPO', 'http://127.0.0.1:%d/' % server.server_address[1])
    try:
        _check_download(FashionMNIST, root, repo, blobs)
    finally:
        server.shutdown()


def _check_download(FashionMNIST, root, repo, blobs):
    ds = FashionMNIST(root=str(root), train=False)
    assert [int(ds[i][1]) for i in range(3)] == [7, 8, 9]
    assert (root / 't10k-labels-idx1-ubyte.gz').read_bytes() == blobs['t10k-labels-idx1-ubyte.gz']
    (repo / 't10k-labels-idx1-ubyte.gz').write_bytes(b'also corrupt')
    (root / 't10k-labels-idx1-ubyte.gz').write_bytes(b'corrupt')
    # MXNet 1.9.1 re-raises the hash check's UserWarning after the last retry
    with pytest.raises(UserWarning, match='t10k-labels-idx1-ubyte.gz is downloaded but the content'):
        FashionMNIST(root=str(root), train=False)


def test_cifar100_and_bad_size(tmp_path, monkeypatch):
    import hashlib

    from mxnet.base import MXNetError
    from mxnet.gluon.data.vision import CIFAR100, datasets
    rows = np.zeros((3, 3074), dtype=np.uint8)
    rows[:, 0] = [1, 2, 3]
    rows[:, 1] = [11, 12, 13]
    raw = rows.tobytes()
    for name in ('train.bin', 'test.bin'):
        (tmp_path / name).write_bytes(raw)
    sha = hashlib.sha1(raw).hexdigest()
    table = dict(datasets.CIFAR100_FILES, train=[('train.bin', sha)], test=[('test.bin', sha)])
    monkeypatch.setattr(CIFAR100, '_files', table)
    assert [int(CIFAR100(root=str(tmp_path))[i][1]) for i in range(3)] == [1, 2, 3]
    fine = CIFAR100(root=str(tmp_path), fine_label=True, train=False)
    assert [int(fine[i][1]) for i in range(3)] == [11, 12, 13]
    bad = raw[:-5]
    (tmp_path / 'train.bin').write_bytes(bad)
    table['train'] = [('train.bin', hashlib.sha1(bad).hexdigest())]
    with pytest.raises(MXNetError, match=r'train\.bin.*not a multiple'):
        CIFAR100(root=str(tmp_path))


def test_mnist_under_np_mode_gives_np_arrays_and_np_transforms(tmp_path, monkeypatch):
    # d2l (npx.set_np()) reads FashionMNIST and maps ToTensor over it: MXNet keeps the
    # images and labels as mx.np arrays and the transforms call npx.image.*
    import gzip
    import hashlib
    import struct

    import mxnet as mx
    from mxnet.gluon.data.vision import MNIST, datasets, transforms

    n = 4
    img = (np.arange(n * 784) % 255).astype(np.uint8)
    lab = np.arange(n, dtype=np.uint8)
    blobs = {
        "t10k-images-idx3-ubyte.gz": gzip.compress(
            struct.pack(">IIII", 2051, n, 28, 28) + img.tobytes()
        ),
        "t10k-labels-idx1-ubyte.gz": gzip.compress(struct.pack(">II", 2049, n) + lab.tobytes()),
    }
    for k, v in blobs.items():
        (tmp_path / k).write_bytes(v)
    table = {
        k: (v[0], hashlib.sha1(blobs[v[0]]).hexdigest()) if v[0] in blobs else v
        for k, v in datasets.MNIST_FILES.items()
    }
    monkeypatch.setattr(MNIST, "_files", table)
    with mx.util.np_array(True), mx.util.np_shape(True):
        ds = MNIST(root=str(tmp_path), train=False)
        x, y = ds[1]
        assert isinstance(x, mx.np.ndarray) and x.dtype == np.uint8
        assert isinstance(ds._label, mx.np.ndarray) and int(y) == 1
        loader = DataLoader(ds.transform_first(transforms.ToTensor()), batch_size=2)
        X, Y = next(iter(loader))
        assert isinstance(X, mx.np.ndarray) and X.shape == (2, 1, 28, 28)
        assert X.dtype == np.float32 and isinstance(Y, mx.np.ndarray)
        c = transforms.Cast("float16")(mx.np.ones((2, 2)))
        assert isinstance(c, mx.np.ndarray) and c.dtype == np.float16
    ds = MNIST(root=str(tmp_path), train=False)
    assert type(ds[0][0]) is nd.NDArray and isinstance(ds._label, np.ndarray)
