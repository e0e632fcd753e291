"""mx.contrib.io.DataLoaderIter: a Gluon DataLoader as an mx.io iterator."""
import numpy as np

import mxnet as mx
from mxnet.contrib.io import DataLoaderIter


def _loader(n, bs, last_batch):
    x = np.arange(n * 2, dtype=np.float32).reshape(n, 2)
    ds = mx.gluon.data.ArrayDataset(x, np.arange(n))
    return mx.gluon.data.DataLoader(ds, bs, last_batch=last_batch)


def test_batches_and_padding():
    it = DataLoaderIter(_loader(10, 4, 'keep'))
    assert it.provide_data[0].shape == (4, 2) and it.provide_label[0].shape == (4,)
    batches = list(it)
    assert len(batches) == 3 and [b.pad for b in batches] == [0, 0, 2]
    last = batches[-1]
    np.testing.assert_array_equal(last.data[0].asnumpy()[:2], [[16, 17], [18, 19]])
    assert last.data[0].shape == (4, 2) and last.label[0].dtype == np.float32
    it.reset()
    assert sum(1 for _ in it) == 3


def test_discard_and_rollover():
    assert sum(1 for _ in DataLoaderIter(_loader(10, 3, 'discard'))) == 3
    assert sum(1 for _ in DataLoaderIter(_loader(10, 3, 'rollover'))) == 3
    it = DataLoaderIter(_loader(4, 2, 'keep'), dtype='float16')
    assert it.next().data[0].dtype == np.float16
