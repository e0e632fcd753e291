"""gluon.data.DataLoader: batching, last_batch, workers (processes/threads), errors."""
import multiprocessing
import os
import time

import numpy as np
import pytest

from mxnet import nd
from mxnet.gluon import data as gdata
from mxnet.gluon.data import (
    ArrayDataset,
    BatchSampler,
    DataLoader,
    SequentialSampler,
    SimpleDataset,
)


def test_dataloader_basic():
    data = np.arange(20, dtype=np.float32).reshape(10, 2)
    ds = ArrayDataset(data, np.arange(10, dtype=np.int32))
    dl = DataLoader(ds, batch_size=4)
    batches = list(dl)
    assert len(dl) == 3 and len(batches) == 3
    x, y = batches[2]
    assert x.shape == (2, 2) and y.dtype == np.int32 and x.dtype == np.float32
    np.testing.assert_array_equal(x.asnumpy(), data[8:])
    assert [b[0].shape[0] for b in DataLoader(ds, 4, last_batch='discard')] == [4, 4]
    roll = DataLoader(ds, 4, last_batch='rollover')
    assert len(list(roll)) == 2
    assert list(roll)[0][1].asnumpy().tolist() == [8, 9, 0, 1]
    nds = SimpleDataset([nd.ones((2, 3)) * i for i in range(5)])
    b = next(iter(DataLoader(nds, batch_size=5)))
    assert b.shape == (5, 2, 3) and b.asnumpy()[4, 0, 0] == 4
    sh = DataLoader(ds, batch_size=10, shuffle=True)
    assert sorted(next(iter(sh))[1].asnumpy().tolist()) == list(range(10))
    with pytest.raises(ValueError):
        DataLoader(ds, batch_size=2, shuffle=True, sampler=SequentialSampler(10))
    with pytest.raises(ValueError):
        DataLoader(ds, batch_size=2, batch_sampler=BatchSampler(SequentialSampler(10), 2))
    with pytest.raises(ValueError):
        DataLoader(ds)
    dl = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(10), 5),
                    batchify_fn=lambda s: len(s))
    assert list(dl) == [5, 5]


def test_dataloader_pin_memory():
    ds = ArrayDataset(np.ones((4, 2), dtype=np.float32))
    b = next(iter(DataLoader(ds, batch_size=2, pin_memory=True)))
    assert b.context.device_type == 'cpu_pinned'


def _boom(x):
    if x[0] == 3:
        raise ValueError('bad sample 3')
    return x


class _Slow(gdata.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            time.sleep(30)
        return np.float32(i)


@pytest.mark.parametrize('thread_pool', [False, True])


def test_dataloader_workers(thread_pool):
    data = np.arange(40, dtype=np.float32).reshape(20, 2)
    ds = ArrayDataset(data, np.arange(20)).transform_first(lambda x: x * 2) if thread_pool \
        else ArrayDataset(data, np.arange(20))
    dl = DataLoader(ds, batch_size=3, num_workers=2, thread_pool=thread_pool)
    for _ in range(2):
        got = list(dl)
        assert len(got) == 7
        xs = np.concatenate([b[0].asnumpy() for b in got])
        np.testing.assert_array_equal(xs, data * (2 if thread_pool else 1))
        assert got[-1][1].asnumpy().tolist() == [18, 19]
    nds = SimpleDataset([nd.ones((2,)) * i for i in range(6)])
    out = list(DataLoader(nds, batch_size=2, num_workers=2, thread_pool=thread_pool))
    assert out[2].asnumpy().tolist() == [[4, 4], [5, 5]]


def test_dataloader_worker_error():
    ds = SimpleDataset([np.array([i], dtype=np.float32) for i in range(6)]).transform(_boom)
    dl = DataLoader(ds, batch_size=2, num_workers=2)
    with pytest.raises(ValueError, match='bad sample 3'):
        list(dl)


def test_dataloader_timeout():
    dl = DataLoader(_Slow(), batch_size=1, num_workers=1, timeout=1)
    t0 = time.time()
    with pytest.raises(multiprocessing.TimeoutError, match='timed out after 1 seconds'):
        list(dl)
    assert time.time() - t0 < 15
    del dl


class _Dies(gdata.Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            os._exit(3)
        return np.float32(i)


def test_dataloader_dead_worker():
    dl = DataLoader(_Dies(), batch_size=1, num_workers=1, timeout=2)
    t0 = time.time()
    with pytest.raises(multiprocessing.TimeoutError, match='stuck or died'):
        list(dl)
    assert time.time() - t0 < 15


def test_dataloader_break_frees_shared_memory():
    import gc
    before = set(os.listdir('/dev/shm'))
    ds = ArrayDataset(np.ones((64, 64, 64), dtype=np.float32))
    dl = DataLoader(ds, batch_size=8, num_workers=2, prefetch=6)
    for _ in dl:
        break
    gc.collect()
    time.sleep(1.0)
    gc.collect()
    leaked = [f for f in set(os.listdir('/dev/shm')) - before if f.startswith('psm_')]
    assert leaked == []
