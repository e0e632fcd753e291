"""NDArrayIter over h5py datasets: read lazily, a batch of increasing rows at a time."""

import numpy as np

from mxnet.io import NDArrayIter


class Dataset:
    """Stand-in for ``h5py.Dataset``: fancy indexing takes increasing row lists only."""

    def __init__(self, arr: np.ndarray) -> None:
        self._arr = arr
        self.shape = arr.shape
        self.dtype = arr.dtype
        self.reads: list = []

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, key):
        if isinstance(key, list):
            assert key == sorted(set(key)), "h5py reads increasing indices only"
        self.reads.append(key)
        return self._arr[key]


Dataset.__module__ = "h5py._hl.dataset"


def test_h5py_dataset_batches_are_read_lazily_in_order():
    data = Dataset(np.arange(20, dtype=np.float64).reshape(10, 2))
    label = Dataset(np.arange(10, dtype=np.float64))
    it = NDArrayIter(data, label, 4, last_batch_handle="pad")
    assert it.provide_data[0].shape == (4, 2)
    assert it.provide_data[0].dtype == np.float64
    batches = [(b.data[0].asnumpy(), b.label[0].asnumpy(), b.pad) for b in it]
    assert len(batches) == 3 and batches[-1][2] == 2
    assert batches[0][0].dtype == np.float32  # nd.array of the rows read
    np.testing.assert_array_equal(batches[2][0], [[16, 17], [18, 19], [0, 1], [2, 3]])
    np.testing.assert_array_equal(batches[1][1], [4, 5, 6, 7])
    assert data.reads and all(isinstance(r, list) and len(r) <= 4 for r in data.reads)


def test_h5py_dataset_shuffled_batch_order_matches_mxnet():
    # MXNet 1.9.1 reads sorted(idx[s]) and reorders it by argsort(idx[s]) (oracle checked)
    np.random.seed(0)
    it = NDArrayIter(
        Dataset(np.arange(20, dtype=np.float64).reshape(10, 2)), np.arange(10), 4, shuffle=True
    )
    rows = it.idx[4:8].copy()
    it.next()
    got = it.next().data[0].asnumpy()[:, 0] / 2
    np.testing.assert_array_equal(got, np.sort(rows)[np.argsort(rows)])
