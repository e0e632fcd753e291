"""DataLoaderV1 (MXNet 1.x's first loader API)."""
import numpy as np

import mxnet as mx
from mxnet.gluon.data.dataloader import DataLoaderV1


def test_dataloader_v1_batches():
    ds = mx.gluon.data.ArrayDataset(np.arange(10).reshape(5, 2), np.arange(5))
    for workers in (0, 2):
        loader = DataLoaderV1(ds, batch_size=2, num_workers=workers, last_batch='keep')
        batches = list(loader)
        assert [x.shape for x, _ in batches] == [(2, 2), (2, 2), (1, 2)]
        np.testing.assert_array_equal(batches[-1][1].asnumpy(), [4])
    assert len(DataLoaderV1(ds, batch_size=2, last_batch='discard')) == 2


def test_transform_keyword_names():
    from mxnet.gluon.data.vision import transforms as T
    img = mx.nd.ones((4, 4, 3), dtype='uint8') * 100
    for t in (T.RandomBrightness(brightness=0.1), T.RandomContrast(contrast=0.1),
              T.RandomSaturation(saturation=0.1), T.RandomHue(hue=0.1)):
        assert t(img).shape == (4, 4, 3)
    assert T.ToTensor()(img).shape == (3, 4, 4)
    assert T.RandomFlipLeftRight()(img).shape == T.RandomFlipTopBottom()(img).shape


def test_batching_ragged_ndarrays_is_an_mxnet_error():
    # MXNet 1.9.1's default batchify stacks with nd.stack, which fails with an MXNetError
    import pytest

    from mxnet import gluon, nd
    from mxnet.base import MXNetError

    ds = gluon.data.SimpleDataset([nd.ones(2), nd.ones(3)])
    with pytest.raises(MXNetError, match="same shape"):
        next(iter(gluon.data.DataLoader(ds, 2)))
