"""ImageIter over image lists, ImageRecordDataset/ImageListDataset, augmenters, errors."""
import os
import random

import numpy as np
import pytest

from mxnet import image, nd
from mxnet.base import MXNetError
from mxnet.gluon.data.vision import ImageListDataset, ImageRecordDataset

GOLD = os.path.join(os.path.dirname(__file__), '..', 'compat', 'golden', 'data')


def test_imageiter_imglist_and_lst(tmp_path):
    lst = tmp_path / 'a.lst'
    lst.write_text(''.join('%d\t%d\tsmall%d.jpg\n' % (i, i % 2, i) for i in range(5)))
    it = image.ImageIter(2, (3, 16, 16), path_imglist=str(lst), path_root=GOLD,
                         last_batch_handle='discard', rand_crop=True, rand_mirror=True,
                         brightness=0.1, contrast=0.1, saturation=0.1, hue=0.1, pca_noise=0.1,
                         rand_gray=0.5)
    batches = list(it)
    assert len(batches) == 2 and batches[0].data[0].shape == (2, 3, 16, 16)
    assert batches[1].label[0].asnumpy().tolist() == [0, 1]
    it2 = image.ImageIter(3, (3, 16, 16), imglist=[[1.0, 'small0.jpg'], [0.0, 'small1.jpg']],
                          path_root=GOLD, last_batch_handle='pad')
    b = next(iter(it2))
    assert b.pad == 1 and b.label[0].asnumpy().tolist() == [1, 0, 1]
    it3 = image.ImageIter(2, (3, 16, 16), imglist=[[0.0, 'missing.jpg']], path_root=GOLD)
    with pytest.raises(MXNetError, match='missing.jpg'):
        next(iter(it3))
    with pytest.raises(ValueError):
        image.ImageIter(2, (1, 16, 16), imglist=[[0.0, 'small0.jpg']])


def test_roll_over_imageiter():
    it = image.ImageIter(4, (3, 8, 8), path_imgrec=os.path.join(GOLD, 'images.rec'),
                         last_batch_handle='roll_over')
    pads = []
    for _ in range(3):
        pads.append([b.pad for b in it])
        it.reset()
    assert pads == [[0], [2, 0], [0]]   # as MXNet 1.9.1


def test_record_and_list_datasets(tmp_path):
    ds = ImageRecordDataset(os.path.join(GOLD, 'images.rec'))
    img, label = ds[4]
    assert len(ds) == 6 and img.shape[2] == 3 and label == 1.0
    gray = ImageRecordDataset(os.path.join(GOLD, 'images.rec'), flag=0)[0][0]
    assert gray.shape[2] == 1
    lst = tmp_path / 'b.lst'
    lst.write_text('0\t3\tsmall0.jpg\n1\t4\t5\tsmall1.jpg\n')
    lds = ImageListDataset(GOLD, str(lst))
    assert len(lds) == 2 and lds[0][1] == 3 and lds[1][1].tolist() == [4, 5]
    assert lds[0][0].shape == image.imread(os.path.join(GOLD, 'small0.jpg')).shape


def test_augmenter_functions():
    random.seed(0)
    img = nd.array(np.arange(30 * 40 * 3).reshape(30, 40, 3) % 256, dtype='uint8')
    assert image.random_crop(img, (20, 10))[0].shape == (10, 20, 3)
    out, (x0, y0, w, h) = image.random_size_crop(img, (16, 16), (0.3, 1.0), (0.75, 1.33))
    assert out.shape == (16, 16, 3) and w <= 40 and h <= 30
    assert image.scale_down((640, 480), (720, 120)) == (640, 106)
    assert image.ForceResizeAug((12, 7))(img).shape == (7, 12, 3)
    f = image.CastAug()(img)
    assert image.HorizontalFlipAug(1.0)(f).asnumpy()[0, 0, 0] == f.asnumpy()[0, -1, 0]
    g = image.RandomGrayAug(1.0)(f).asnumpy()
    np.testing.assert_allclose(g[..., 0], g[..., 1], rtol=1e-6)
    bad = image.imresize(img, 4, 4, interp=7)  # MXNet: OpenCV fails when the op runs
    with pytest.raises(MXNetError, match='interpolation'):
        bad.asnumpy()
    with pytest.raises(MXNetError, match='Decoding failed'):
        image.imdecode(b'garbage')
    with pytest.raises(ValueError):
        image.imdecode('a string')
    assert image.image._get_interp_method(9, (10, 10, 20, 20)) == 2
    assert image.image._get_interp_method(9, (10, 10, 5, 5)) == 3


def test_imresize_accepts_opencv_linear_exact():
    # interp=5 (INTER_LINEAR_EXACT) is a valid code for MXNet 1.9.1's OpenCV 3.4.2; 6+ fail
    src = nd.array(np.arange(4 * 6 * 3).reshape(4, 6, 3) % 251, dtype="uint8")
    out = image.imresize(src, 3, 2, interp=5)
    assert out.shape == (2, 3, 3) and out.dtype == np.uint8
    assert nd.image.resize(src, (3, 2), interp=5).shape == (2, 3, 3)
    with pytest.raises(MXNetError):
        nd.image.resize(src, (3, 2), interp=7).wait_to_read()


def test_copy_make_border_values_fill_like_a_cv_scalar():
    # MXNet 1.9.1: values=7.0 (or (7,)) fills the first channel only, the rest with 0
    src = nd.ones((2, 2, 3), dtype="uint8")
    for v in (7.0, (7.0,), [7]):
        out = image.copyMakeBorder(src, 1, 0, 0, 0, values=v).asnumpy()
        assert out[0, 0].tolist() == [7, 0, 0]
    out = image.copyMakeBorder(src, 1, 0, 0, 0, values=(1, 2, 3)).asnumpy()
    assert out[0, 0].tolist() == [1, 2, 3]
    assert image.copyMakeBorder(src, 1, 0, 0, 0, value=9).asnumpy()[0, 0].tolist() == [9, 9, 9]


def test_augmenters_live_at_mxnet_image_image():
    import pickle

    assert image.ResizeAug.__module__ == "mxnet.image.image"
    assert image.ImageIter.__module__ == "mxnet.image.image"
    aug = pickle.loads(pickle.dumps(image.ResizeAug(3)))
    assert aug.dumps() == '["resizeaug", {"size": 3, "interp": 2}]'
    with pytest.raises(NotImplementedError, match="Must override implementation"):
        image.Augmenter()(nd.ones((2, 2, 3)))


def test_image_iterators_batch_mx_np_arrays_under_set_np(tmp_path):
    import cv2

    import mxnet as mx

    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((20, 30, 3), 90, np.uint8))
    mx.npx.set_np()
    try:
        it = image.ImageIter(2, (3, 8, 8), imglist=[[0.0, "a.jpg"], [1.0, "a.jpg"]],
                             path_root=str(tmp_path))
        b = it.next()
        assert isinstance(b.data[0], mx.np.ndarray) and isinstance(b.label[0], mx.np.ndarray)
        assert b.label[0].asnumpy().tolist() == [0.0, 1.0]
        det_list = [[2, 5, 0, 0.1, 0.1, 0.5, 0.5, "a.jpg"]] * 2
        d = image.ImageDetIter(2, (3, 8, 8), imglist=det_list, path_root=str(tmp_path)).next()
        assert isinstance(d.data[0], mx.np.ndarray) and isinstance(d.label[0], mx.np.ndarray)
    finally:
        mx.npx.reset_np()
    b = image.ImageIter(2, (3, 8, 8), imglist=[[0.0, "a.jpg"]] * 2, path_root=str(tmp_path)).next()
    assert type(b.data[0]) is nd.NDArray


def test_negative_decode_flag_is_refused_like_mxnet():
    import cv2

    buf = cv2.imencode(".png", np.zeros((2, 3, 4), np.uint8))[1].tobytes()
    with pytest.raises(MXNetError, match="flag should be greater equal to 0"):
        image.imdecode(buf, flag=-1)
    with pytest.raises(MXNetError, match="flag should be greater equal to 0"):
        nd._internal._cvimdecode(nd.array(np.frombuffer(buf, np.uint8), dtype="uint8"), flag=-1)
    assert image.imdecode(buf, flag=0).shape == (2, 3, 1)


def test_imageiter_scalar_label_fills_a_wider_label_row(tmp_path):
    # MXNet 1.9.1 assigns batch_label[i] = label: a scalar fills all label_width slots
    import cv2

    cv2.imwrite(str(tmp_path / "a.jpg"), np.full((10, 10, 3), 50, np.uint8))
    lst = [[float(i), "a.jpg"] for i in range(3)]
    it = image.ImageIter(2, (3, 8, 8), label_width=2, imglist=lst, path_root=str(tmp_path))
    assert it.next().label[0].asnumpy().tolist() == [[0.0, 0.0], [1.0, 1.0]]
    it = image.ImageIter(2, (3, 8, 8), label_width=1, imglist=[[[0.0, 5.0], "a.jpg"]] * 2,
                         path_root=str(tmp_path))
    with pytest.raises(ValueError):
        it.next()
