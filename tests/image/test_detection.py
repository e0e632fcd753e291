"""ImageDetIter and detection augmenters against MXNet 1.9.1 golden batches."""
import os
import random

import numpy as np
import pytest

from mxnet import nd
from mxnet.image import detection as det

GOLD = os.path.join(os.path.dirname(__file__), '..', 'compat', 'golden', 'data')


@pytest.fixture(scope='module')
def gold():
    return dict(np.load(os.path.join(GOLD, 'det.npz')))


@pytest.mark.parametrize('name,kw', [
    ('plain', {}),
    ('rand', dict(rand_crop=0.8, rand_pad=0.5, rand_mirror=True, mean=True, std=True))])
def test_det_iter_golden(gold, name, kw):
    random.seed(5)
    np.random.seed(5)
    it = det.ImageDetIter(2, (3, 32, 40), path_imgrec=os.path.join(GOLD, 'det.rec'), **kw)
    assert it.provide_label[0][1] == tuple(gold[name + '/provide_label'])
    n = 0
    for bi, b in enumerate(it):
        np.testing.assert_allclose(b.data[0].asnumpy(), gold['%s/%d/data' % (name, bi)],
                                   rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(b.label[0].asnumpy(), gold['%s/%d/label' % (name, bi)],
                                   rtol=1e-6, atol=1e-6)
        assert b.pad == int(gold['%s/%d/pad' % (name, bi)])
        n += 1
    assert n == sum(1 for k in gold if k.startswith(name + '/') and k.endswith('/pad'))


def test_det_augmenters():
    label = np.array([[0, 0.1, 0.2, 0.5, 0.6], [1, 0.4, 0.4, 0.9, 0.8]], dtype=np.float32)
    img = nd.array(np.arange(20 * 30 * 3).reshape(20, 30, 3) % 255, dtype='uint8')
    out, lab = det.DetHorizontalFlipAug(1.0)(img, label.copy())
    np.testing.assert_allclose(lab[:, 1], [0.5, 0.1], rtol=1e-6)
    np.testing.assert_array_equal(out.asnumpy(), img.asnumpy()[:, ::-1])
    random.seed(0)
    out, lab = det.DetRandomPadAug(area_range=(2.0, 3.0))(img, label.copy())
    assert out.shape[0] >= 20 and out.shape[1] > 30 and lab.shape == label.shape
    random.seed(1)
    out, lab = det.DetRandomCropAug(min_object_covered=0.1, area_range=(0.3, 0.9))(img,
                                                                                  label.copy())
    assert out.shape[0] <= 20 and np.all((lab[:, 1:] >= 0) & (lab[:, 1:] <= 1))
    aug = det.CreateMultiRandCropAugmenter(min_object_covered=[0.1, 0.3, 0.5])
    assert len(aug.aug_list) == 3 and aug.dumps()[0] == 'detrandomselectaug'
    with pytest.raises(TypeError):
        det.DetBorrowAug(lambda x: x)


@pytest.mark.parametrize('name,extra', [
    ('force', {}),
    ('fit', dict(resize_mode='fit', label_pad_width=20, label_pad_value=-2)),
    ('shrink', dict(resize_mode='shrink', inter_method=2)),
    ('mirror', dict(rand_mirror_prob=1.0, mean_r=100, mean_g=110, mean_b=120, std_r=2,
                    std_g=3, std_b=4, scale=0.5))])
def test_det_record_iter_golden(gold, name, extra):
    from mxnet.io import ImageDetRecordIter
    it = ImageDetRecordIter(path_imgrec=os.path.join(GOLD, 'det.rec'), data_shape=(3, 32, 40),
                            batch_size=2, **extra)
    n = 0
    for ep in range(2 if name == 'force' else 1):
        for bi, b in enumerate(it):
            key = 'detrec/%s/%d/%d' % (name, ep, bi)
            np.testing.assert_allclose(b.data[0].asnumpy(), gold[key + '/data'], atol=1e-5,
                                       err_msg=key)
            np.testing.assert_allclose(b.label[0].asnumpy(), gold[key + '/label'], atol=1e-6,
                                       err_msg=key)
            assert b.pad == int(gold[key + '/pad'])
            n += 1
        it.reset()
    assert n == sum(1 for k in gold if k.startswith('detrec/%s/' % name) and k.endswith('/pad'))


def test_det_iter_draw_next_draws_boxes_in_bgr(tmp_path):
    import cv2

    img = np.full((20, 30, 3), 100, np.uint8)
    cv2.imwrite(str(tmp_path / "a.jpg"), img)
    # one object on each of two images; a padding row (-1) is skipped
    label = [2, 5, 0, 0.1, 0.2, 0.6, 0.7]
    imglist = [label + ["a.jpg"], label + ["a.jpg"]]
    it = det.ImageDetIter(1, (3, 20, 30), path_root=str(tmp_path), imglist=imglist)
    out = list(it.draw_next(color=(255, 0, 0), thickness=1))
    assert len(out) == 2 and out[0].shape == (20, 30, 3) and out[0].dtype == np.uint8
    # the box's top-left corner (x=3, y=4): MXNet 1.9.1 reverses the RGB color once per
    # image, so red is drawn as BGR (0, 0, 255) on the first image and (255, 0, 0) next
    assert out[0][4, 3].tolist() == [0, 0, 255]
    assert out[1][4, 3].tolist() == [255, 0, 0]
    assert abs(int(out[0][10, 10, 0]) - 100) <= 3  # inside the box: the image
