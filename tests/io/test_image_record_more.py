"""ImageRecordIter: mean_img (created / loaded, against MXNet 1.9.1 files), HLS shifts
(random_h/s/l), per-pixel normalization order, and ignored unknown arguments."""
import os
import random

import cv2
import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.io import ImageRecordIter
from mxnet.io._image_mean import hls_shift

HERE = os.path.dirname(__file__)
SRC = os.path.join(HERE, '..', 'compat', 'golden', 'data')
GOLD = os.path.join(HERE, '..', 'compat', 'golden', 'data_more')
REC = os.path.join(SRC, 'images.rec')


@pytest.fixture(scope='module')
def gold():
    return dict(np.load(os.path.join(GOLD, 'golden.npz')))


def _batches(it):
    return [b.data[0].asnumpy() for b in it]


def test_mean_img_created_like_mxnet(gold, tmp_path):
    path = str(tmp_path / 'mean.bin')
    it = ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=4, mean_img=path,
                         mean_r=10.0, scale=2.0, resize=30)
    # the file MXNet writes: same bytes
    with open(path, 'rb') as a, open(os.path.join(GOLD, 'mean.bin'), 'rb') as b:
        assert a.read() == b.read()
    for bi, data in enumerate(_batches(it)):
        np.testing.assert_allclose(data, gold['created/%d/data' % bi], rtol=1e-6, atol=1e-4)


def test_mean_img_loaded_from_mxnet_file(gold):
    it = ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=4,
                         mean_img=os.path.join(GOLD, 'mean.bin'), mirror=True, std_r=2.0,
                         std_b=0.5, scale=0.25, resize=30)
    for bi, data in enumerate(_batches(it)):
        np.testing.assert_allclose(data, gold['loaded/%d/data' % bi], rtol=1e-6, atol=1e-4)


def test_mean_img_bad_file(tmp_path):
    path = str(tmp_path / 'two.bin')
    mx.nd.save(path, [mx.nd.zeros((3, 24, 32)), mx.nd.zeros((3, 24, 32))])
    with pytest.raises(MXNetError, match='Invalid mean image file format'):
        ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=4, mean_img=path)
    mx.nd.save(path, {'mean_img': mx.nd.zeros((3, 8, 8))})
    with pytest.raises(MXNetError, match='shape'):
        ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=4, mean_img=path)


def test_hls_shift_formula():
    img = np.random.RandomState(0).randint(0, 256, (5, 6, 3)).astype(np.uint8)
    p = dict(random_h=10, random_s=40, random_l=50)
    out = hls_shift(img, p, random.Random(7))
    rng = random.Random(7)
    dh, ds, dl = (int(rng.random() * r * 2 - r) for r in (10, 40, 50))
    hls = cv2.cvtColor(img, cv2.COLOR_BGR2HLS).astype(int) + [dh, dl, ds]
    hls = np.clip(hls, 0, [180, 255, 255]).astype(np.uint8)
    np.testing.assert_array_equal(out, cv2.cvtColor(hls, cv2.COLOR_HLS2BGR))
    with pytest.raises(MXNetError, match='3-channel'):
        hls_shift(img[:, :, :1], p, random.Random(0))


def test_hls_and_seed_aug_reproducible():
    kw = dict(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=3, resize=30,
              random_h=10, random_s=40, random_l=50, rand_mirror=True,
              max_random_illumination=3, max_random_contrast=0.2)
    a = _batches(ImageRecordIter(seed_aug=3, **kw))
    b = _batches(ImageRecordIter(seed_aug=3, **kw))
    c = _batches(ImageRecordIter(seed_aug=4, **kw))
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_unknown_arguments_ignored():
    # MXNet's C++ iterators accept and ignore unknown keyword arguments
    it = ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=2,
                         and_mirror=False)
    assert it.next().data[0].shape == (2, 3, 24, 32)


@pytest.mark.parametrize('name', ['i8', 'i8mean', 'u8'])
def test_int8_uint8_outputs(gold, name):
    kw = dict(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=3, resize=30)
    cls, extra = {'i8': (ImageRecordIter, dict(dtype='int8', mean_r=100.5, mean_g=-3.5,
                                                 mean_b=20.0)),
                  'i8mean': (mx.io.ImageRecordInt8Iter,
                             dict(mean_img=os.path.join(GOLD, 'mean.bin'), mirror=True)),
                  'u8': (ImageRecordIter, dict(dtype='uint8', mean_r=10.0))}[name]
    got = _batches(cls(**dict(kw, **extra)))
    for bi, data in enumerate(got):
        want = gold['%s/%d/data' % (name, bi)]
        assert data.dtype == want.dtype
        np.testing.assert_array_equal(data, want)


def test_unknown_dtype_and_legacy_names():
    for dt in ('float16', 'float64', 'int32'):
        with pytest.raises(MXNetError, match='unknown dtype'):
            ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=2, dtype=dt)
    a = mx.io.ImageRecordIter_v1(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=2)
    b = mx.io.ImageRecordUInt8Iter_v1(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=2)
    assert a.next().data[0].dtype == np.float32 and b.next().data[0].dtype == np.uint8


@pytest.mark.parametrize('name,extra', [
    ('rot30', dict(rotate=30)),
    ('rot45cubic', dict(rotate=45, fill_value=7, inter_method=2)),
    ('scale', dict(max_random_scale=1.5, min_random_scale=1.5, resize=26)),
    ('shrink_area', dict(max_random_scale=0.8, min_random_scale=0.8, inter_method=3,
                         resize=40))])
def test_affine_warp_exact(gold, name, extra):
    # OpenCV 3.4's fixed-point warpAffine (MXNet's build): bit-exact pixels
    it = ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=3, **extra)
    for bi, data in enumerate(_batches(it)):
        np.testing.assert_array_equal(data, gold['warp/%s/%d/data' % (name, bi)])


def test_nearest_rejected_with_warp():
    with pytest.raises(MXNetError, match='inter_method'):
        ImageRecordIter(path_imgrec=REC, data_shape=(3, 24, 32), batch_size=2,
                        max_rotate_angle=10, inter_method=0)


def test_crop_size_larger_than_the_image_is_an_error():
    # MXNet 1.9.1 checks max_crop_size <= image size and >= min_crop_size (images are 70x90)
    for kw in (dict(min_crop_size=20), dict(min_crop_size=30, max_crop_size=80)):
        with pytest.raises(MXNetError, match='input image size smaller than max_crop_size'):
            ImageRecordIter(path_imgrec=REC, data_shape=(3, 8, 8), batch_size=2, **kw).next()
    it = ImageRecordIter(path_imgrec=REC, data_shape=(3, 8, 8), batch_size=2, min_crop_size=20,
                         max_crop_size=60, rand_crop=True)
    assert it.next().data[0].shape == (2, 3, 8, 8)


def test_shuffle_order_matches_mxnet(tmp_path):
    # labels = record index; batches of MXNet 1.9.1 (oracle) for seed=3: each pass is a new
    # std::shuffle by mt19937(111 + seed), and a wrapped batch reads the next pass's start
    path = str(tmp_path / 'ids.rec')
    w = mx.recordio.MXRecordIO(path, 'w')
    for i in range(20):
        ok, buf = cv2.imencode('.png', np.full((4, 4, 3), i, np.uint8))
        w.write(mx.recordio.pack((0, float(i), i, 0), buf.tobytes()))
    w.close()
    it = ImageRecordIter(path_imgrec=path, data_shape=(3, 4, 4), batch_size=6, shuffle=True,
                         seed=3, verbose=False)
    expected = [
        [[10, 13, 1, 14, 19, 5], [2, 9, 15, 4, 16, 3], [18, 0, 7, 6, 8, 11],
         [17, 12, 10, 5, 1, 16]],
        [[6, 4, 14, 15, 12, 2], [8, 17, 11, 3, 7, 13], [19, 18, 0, 9, 17, 12]],
        [[18, 5, 0, 14, 19, 9], [15, 10, 11, 16, 4, 2], [6, 8, 7, 3, 1, 13]],
    ]
    for epoch in expected:
        assert [b.label[0].asnumpy().astype(int).tolist() for b in it] == epoch
        it.reset()


def test_index_file_splits_parts_by_record_count_and_shuffles_the_part(tmp_path):
    # MXNet 1.9.1 with path_imgidx: part k holds records [k*ceil(n/parts), ...) and is
    # shuffled whole (oracle: 20 records, 2 parts, seed=3, part 1)
    rec, idx = str(tmp_path / 'ix.rec'), str(tmp_path / 'ix.idx')
    w = mx.recordio.MXIndexedRecordIO(idx, rec, 'w')
    for i in range(20):
        ok, buf = cv2.imencode('.png', np.full((4, 4, 3), i, np.uint8))
        w.write_idx(i, mx.recordio.pack((0, float(i), i, 0), buf.tobytes()))
    w.close()
    it = ImageRecordIter(path_imgrec=rec, path_imgidx=idx, data_shape=(3, 4, 4), batch_size=6,
                         shuffle=True, seed=3, num_parts=2, part_index=1, verbose=False)
    expected = [[[18, 10, 11, 17, 13, 15], [12, 19, 16, 14, 14, 15]],
                [[10, 16, 17, 13, 19, 11], [12, 18, 19, 16, 15, 12]]]
    for epoch in expected:
        assert [b.label[0].asnumpy().astype(int).tolist() for b in it] == epoch
        it.reset()


def _rgba_rec(tmp_path):
    """9 random BGRA PNGs of 30x40, 31x39, ... 38x32 pixels; labels [i, 2i, 3i]."""
    rng = np.random.RandomState(1)
    path = str(tmp_path / 'rgba.rec')
    w = mx.recordio.MXRecordIO(path, 'w')
    imgs = []
    for i in range(9):
        img = rng.randint(0, 255, (30 + i, 40 - i, 4)).astype(np.uint8)
        imgs.append(img)
        ok, buf = cv2.imencode('.png', img)
        w.write(mx.recordio.pack((0, np.array([i, i * 2, i * 3], np.float32), i, 0), buf.tobytes()))
    w.close()
    with open(str(tmp_path / 'rgba.lst'), 'w') as f:
        f.write(''.join('%d\t%f\t%f\t%d.png\n' % (i, i * 10., i * 20., i) for i in range(9)))
    return path, imgs


def test_four_channel_records_and_list_labels(tmp_path):
    path, imgs = _rgba_rec(tmp_path)
    it = ImageRecordIter(path_imgrec=path, batch_size=4, data_shape=(4, 24, 24), label_width=3,
                         verbose=False)
    b = it.next()
    img = imgs[0][(30 - 24) // 2:(30 - 24) // 2 + 24, (40 - 24) // 2:(40 - 24) // 2 + 24]
    want = img[:, :, [2, 1, 0, 3]].transpose(2, 0, 1).astype(np.float32)  # BGRA -> RGBA
    np.testing.assert_array_equal(b.data[0].asnumpy()[0], want)
    # MXNet reads the first label_width labels of each image-list line
    it = ImageRecordIter(path_imgrec=path, batch_size=4, data_shape=(3, 24, 24), label_width=1,
                         path_imglist=str(tmp_path / 'rgba.lst'), verbose=False)
    assert it.next().label[0].asnumpy().tolist() == [0.0, 10.0, 20.0, 30.0]


def test_small_images_scale_up_like_mxnet(tmp_path):
    # pixel sums of MXNet 1.9.1's uint8 batch (it scales the height, then the width)
    path, _ = _rgba_rec(tmp_path)
    it = ImageRecordIter(path_imgrec=path, batch_size=9, data_shape=(3, 36, 44), label_width=3,
                         dtype='uint8', verbose=False)
    sums = [int(x.astype(np.int64).sum()) for x in it.next().data[0].asnumpy()]
    assert sums == [609553, 600888, 604437, 598691, 603370, 616056, 597517, 591107, 614847]


def test_inter_method_checked_only_where_mxnet_resizes_or_warps(tmp_path):
    path, _ = _rgba_rec(tmp_path)
    kw = dict(path_imgrec=path, batch_size=4, data_shape=(3, 24, 24), label_width=3,
              verbose=False)
    assert ImageRecordIter(inter_method=0, resize=26, **kw).next().data[0].shape[0] == 4
    assert ImageRecordIter(inter_method=7, **kw).next().data[0].shape[0] == 4
    for bad in (dict(inter_method=0, rotate=10), dict(inter_method=5, resize=26)):
        with pytest.raises(MXNetError, match='invalid inter_method'):
            ImageRecordIter(**bad, **kw).next()


def test_random_resized_crop_like_mxnet(tmp_path):
    # MXNet 1.9.1 (oracle): with the default area/aspect ranges random_resized_crop is idle
    # (the square 35x35 image is center-cropped); an aspect range of ~4/3 crops the 30x40
    # image whole (no aspect warp) and resizes it; crops that cannot fit fall back to center
    path, imgs = _rgba_rec(tmp_path)
    kw = dict(path_imgrec=path, batch_size=9, data_shape=(3, 24, 24), label_width=3,
              dtype='uint8', verbose=False, random_resized_crop=True)

    def bgr(x):
        return x[::-1].transpose(1, 2, 0)

    out = ImageRecordIter(**kw).next().data[0].asnumpy()
    sq = imgs[5][:, :, :3]
    np.testing.assert_array_equal(bgr(out[5]), sq[5:29, 5:29])
    out = ImageRecordIter(min_aspect_ratio=1.3333, max_aspect_ratio=1.3334, **kw).next()
    out = out.data[0].asnumpy()
    whole = cv2.resize(np.ascontiguousarray(imgs[0][:, :, :3]), (24, 24),
                       interpolation=cv2.INTER_LINEAR)
    np.testing.assert_array_equal(bgr(out[0]), whole)
    np.testing.assert_array_equal(bgr(out[5]), sq[5:29, 5:29])


def test_seed_aug_draws_like_mxnet(tmp_path):
    # MXNet 1.9.1 reseeds mt19937(idx + seed_aug + 111) per record: crop, mirror and
    # rotation draws (and the wrapped batch's next-pass indices) give the oracle's pixels
    rng = np.random.RandomState(3)
    path = str(tmp_path / 'sa.rec')
    w = mx.recordio.MXRecordIO(path, 'w')
    for i in range(10):
        ok, buf = cv2.imencode('.png', rng.randint(0, 256, (20, 26, 3)).astype(np.uint8))
        w.write(mx.recordio.pack((0, float(i), i, 0), buf.tobytes()))
    w.close()
    it = ImageRecordIter(path_imgrec=path, data_shape=(3, 12, 12), batch_size=4, seed_aug=9,
                         rand_crop=True, rand_mirror=True, max_rotate_angle=15, dtype='uint8',
                         verbose=False)
    expected = [
        [[56448, 57528, 54847, 54808], [55699, 55690, 60301, 57884],
         [55989, 55791, 55115, 58235]],
        [[54721, 53881, 60441, 56083], [55108, 56721, 54005, 55350]],
    ]
    for epoch in expected:
        got = [[int(x.astype(np.int64).sum()) for x in b.data[0].asnumpy()] for b in it]
        assert got == epoch
        it.reset()
