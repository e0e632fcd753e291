"""ImageDetRecordIter's detection augmenter (random crop/pad/colour/mirror, mean_img,
path_imglist) against MXNet 1.9.1 golden batches and hand-built invariants."""
import os
import shutil
import sys

import numpy as np
import pytest

from mxnet import recordio
from mxnet.base import MXNetError
from mxnet.io._det_aug import DetAugmenter, DetRNG, parse_det_label
from mxnet.io._det_record import _PARAMS, ImageDetRecordIter

HERE = os.path.dirname(__file__)
GOLD = os.path.join(HERE, '..', 'compat', 'golden', 'det_record')
sys.path.insert(0, os.path.join(HERE, '..', 'compat'))
from make_golden_det_record import CONFIGS, SHAPE  # noqa: E402


@pytest.fixture(scope='module')
def gold():
    return dict(np.load(os.path.join(GOLD, 'det.npz')))


@pytest.mark.parametrize('name', sorted(CONFIGS))
def test_golden_random_augmentations(gold, name, tmp_path, monkeypatch):
    """MXNet decodes with one engine seeded 233: every random augmentation is replayed."""
    for f in ('det.rec', 'det.lst'):
        shutil.copy(os.path.join(GOLD, f), tmp_path / f)
    monkeypatch.chdir(tmp_path)
    # MXNet decoded with one thread (one engine); more threads mean more engines
    it = ImageDetRecordIter(path_imgrec='det.rec', data_shape=SHAPE, batch_size=4,
                            preprocess_threads=1, **CONFIGS[name])
    n = 0
    for ep in range(2):
        for bi, b in enumerate(it):
            key = '%s/%d/%d' % (name, ep, bi)
            np.testing.assert_allclose(b.label[0].asnumpy(), gold[key + '/label'], atol=1e-6,
                                       err_msg=key)
            np.testing.assert_allclose(b.data[0].asnumpy(), gold[key + '/data'], atol=1e-4,
                                       err_msg=key)
            assert b.pad == int(gold[key + '/pad'])
            n += 1
        it.reset()
    assert n == sum(1 for k in gold if k.startswith(name + '/') and k.endswith('/pad'))
    if 'mean_img' in CONFIGS[name]:
        from mxnet import nd
        saved = nd.load(CONFIGS[name]['mean_img'])['mean_img'].asnumpy()
        np.testing.assert_allclose(saved, gold[name + '/mean_img'], atol=1e-4)
        # a second iterator loads the file instead of creating it
        it2 = ImageDetRecordIter(path_imgrec='det.rec', data_shape=SHAPE, batch_size=4,
                                 preprocess_threads=1, **CONFIGS[name])
        np.testing.assert_allclose(it2._mean_img, saved)


def test_mt19937_stream():
    r = DetRNG(5489)
    assert [r.raw(), r.raw()] == [3499211612, 581869302]
    r = DetRNG(233)
    u = [float(r.uniform(0.2, 0.7)) for _ in range(2000)]
    assert min(u) >= 0.2 and max(u) < 0.7 and abs(np.mean(u) - 0.45) < 0.02
    assert sorted({r.randint(0, 4) for _ in range(200)}) == [0, 1, 2, 3, 4]


def _write_rec(path, images, labels):
    rec = recordio.MXRecordIO(str(path), 'w')
    for i, (img, lab) in enumerate(zip(images, labels)):
        rec.write(recordio.pack_img(recordio.IRHeader(0, lab, i, 0), img, quality=3,
                                    img_fmt='.png'))
    rec.close()


def _objs_rec(tmp_path, n=6, seed=0):
    rng = np.random.RandomState(seed)
    images, labels = [], []
    for i in range(n):
        h, w = rng.randint(20, 60, 2)
        images.append((rng.rand(h, w, 3) * 255).astype(np.uint8))
        objs = []
        for _ in range(1 + i % 4):
            x0, y0 = rng.uniform(0, 0.7, 2)
            objs += [i % 5, x0, y0, x0 + rng.uniform(0.05, 0.3), y0 + rng.uniform(0.05, 0.3)]
        labels.append([2, 5] + objs)
    path = tmp_path / 'objs.rec'
    _write_rec(path, images, labels)
    return str(path)


@pytest.mark.parametrize('mode', ['center', 'overlap'])
def test_label_invariants_under_heavy_augmentation(tmp_path, mode):
    rec = _objs_rec(tmp_path)
    it = ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 32, 32), batch_size=3,
                            rand_crop_prob=1.0, num_crop_sampler=2, min_crop_scales=(0.2, 0.5),
                            min_crop_aspect_ratios=(0.5,), max_crop_aspect_ratios=(2.0,),
                            crop_emit_mode=mode, rand_pad_prob=0.5, max_pad_scale=3.0,
                            rand_mirror_prob=0.5, preprocess_threads=2)
    for _ in range(3):
        for b in it:
            lab = b.label[0].asnumpy()
            for row in lab:
                assert tuple(row[:3]) == (3, 32, 32)
                body = row[4:4 + int(row[3])]
                assert tuple(body[:2]) == (2, 5)
                objs = body[2:].reshape(-1, 5)
                assert len(objs) >= 1
                assert np.all((objs[:, 1:] >= 0) & (objs[:, 1:] <= 1))
                assert np.all(objs[:, 3] >= objs[:, 1]) and np.all(objs[:, 4] >= objs[:, 2])
                assert np.all(row[4 + int(row[3]):] == -1)
        it.reset()


def _aug(**kw):
    p = dict(_PARAMS, **kw)
    p['_shape'] = (3, 10, 10)
    return DetAugmenter(p)


def test_emit_modes_hand_built():
    objs = np.array([[0, 0.0, 0.0, 0.4, 0.4],     # centre (0.2, 0.2): outside the crop
                     [1, 0.3, 0.3, 0.7, 0.7],     # centre inside, fully covered
                     [2, 0.45, 0.1, 0.95, 0.35]], dtype=np.float32)  # centre (0.7, 0.225)
    box = (np.float32(0.25), np.float32(0.25), np.float32(0.5), np.float32(0.5))
    out = _aug(crop_emit_mode='center')._try_crop(0, box, objs)
    np.testing.assert_allclose(out, [[1, 0.1, 0.1, 0.9, 0.9]], atol=1e-6)
    # overlap: kept when intersection / object area > thresh (object 0: 0.0225/0.16)
    out = _aug(crop_emit_mode='overlap', emit_overlap_thresh=0.1)._try_crop(0, box, objs)
    np.testing.assert_allclose(out[:, 0], [0, 1, 2])
    np.testing.assert_allclose(out[0], [0, 0, 0, 0.3, 0.3], atol=1e-6)
    np.testing.assert_allclose(out[2], [2, 0.4, 0, 1, 0.2], atol=1e-6)
    out = _aug(crop_emit_mode='overlap', emit_overlap_thresh=0.2)._try_crop(0, box, objs)
    np.testing.assert_allclose(out[:, 0], [1, 2])
    # nothing emitted: the crop trial fails
    far = (np.float32(0.8), np.float32(0.8), np.float32(0.2), np.float32(0.2))
    assert _aug()._try_crop(0, far, objs) is None
    # each bound that is set must hold for one object (object 1: IoU 0.64, covered fully)
    assert _aug(min_crop_overlaps=(0.9,))._try_crop(0, box, objs) is None
    assert _aug(min_crop_overlaps=(0.6,))._try_crop(0, box, objs) is not None
    assert _aug(min_crop_overlaps=(0.6,), max_crop_object_coverages=(0.9,))._try_crop(
        0, box, objs) is None
    assert _aug(min_crop_sample_coverages=(0.7,))._try_crop(0, box, objs) is None


def test_invalid_objects_dropped_and_label_format():
    header, objs = parse_det_label([2, 5, 0, 0.1, 0.1, 0.5, 0.5, 1, 0.6, 0.1, 0.5, 0.3])
    assert header.tolist() == [2, 5] and objs[:, 0].tolist() == [0]
    for bad in ([2, 5, 0, 0.1, 0.1], [1, 5, 0, 0.1, 0.1, 0.5, 0.5], [2, 4, 0, 1, 1, 2, 2],
                [2, 5, 0, 0.1, 0.1, 0.5, 0.5, 3]):
        with pytest.raises(MXNetError):
            parse_det_label(bad)


def test_crop_box_distribution():
    aug = _aug(min_crop_scales=(0.3,), max_crop_scales=(0.8,), min_crop_aspect_ratios=(0.5,),
               max_crop_aspect_ratios=(2.0,))
    rng = DetRNG(7)
    img_ar = np.float32(40 / 30)
    x, y, w, h = aug._crop_boxes(0, img_ar, rng.peek_canonical(2000).reshape(500, 4))
    assert np.all((x >= 0) & (x <= 1 - w + 1e-6) & (y >= 0) & (y <= 1 - h + 1e-6))
    assert np.all((w <= 1) & (h <= 1))
    areas, aspects = w * h, w / h * img_ar
    assert areas.min() >= 0.3 ** 2 - 1e-5 and areas.max() <= 0.8 ** 2 + 1e-5
    assert aspects.min() >= 0.5 - 1e-4 and aspects.max() <= 2.0 + 1e-4
    assert areas.std() > 0.05 and aspects.std() > 0.2


def test_colour_identity_and_pad_fill(tmp_path):
    rec = _objs_rec(tmp_path, n=3)
    kw = dict(path_imgrec=rec, data_shape=(3, 24, 24), batch_size=3)
    plain = next(iter(ImageDetRecordIter(**kw)))
    ident = next(iter(ImageDetRecordIter(
        random_hue_prob=1, random_saturation_prob=1, random_illumination_prob=1,
        random_contrast_prob=1, **kw)))
    np.testing.assert_array_equal(ident.data[0].asnumpy(), plain.data[0].asnumpy())
    np.testing.assert_array_equal(ident.label[0].asnumpy(), plain.label[0].asnumpy())
    # a padded image keeps its objects' pixel size: widths shrink by the canvas scale
    aug = _aug(rand_pad_prob=1.0, max_pad_scale=3.0, resize_mode='shrink')
    aug.p['_shape'] = (3, 200, 200)
    raw = np.array([2, 5, 0, 0.2, 0.2, 0.6, 0.8], np.float32)
    for seed in range(20):
        ops, h, w, lab = aug.plan(20, 30, raw, DetRNG(seed))
        pads = [o for o in ops if o[0] == 'pad']
        if not pads:
            continue
        _, top, bot, left, right = pads[0]
        assert (h, w) == (20 + top + bot, 30 + left + right)
        np.testing.assert_allclose((lab[5] - lab[3]) * w, 0.4 * 30, atol=1.5)
        np.testing.assert_allclose(lab[3] * w, left + 0.2 * 30, atol=1.5)
    it = ImageDetRecordIter(rand_pad_prob=1.0, max_pad_scale=4.0, fill_value=200,
                            resize_mode='shrink', **dict(kw, data_shape=(3, 240, 240)))
    b = next(iter(it))
    row = b.label[0].asnumpy()[0]
    img = b.data[0].asnumpy()[0][:, :int(row[1]), :int(row[2])]
    assert (img == 200).all(axis=0).mean() > 0.3


def test_imglist_and_errors(tmp_path):
    rec = _objs_rec(tmp_path, n=2)
    lst = tmp_path / 'l.lst'
    lst.write_text('0\t2\t5\t1\t0.1\t0.1\t0.5\t0.5\ta.png\n1\t2\t5\t3\t0.2\t0.2\t0.4\t0.9\tb.png\n')
    b = next(iter(ImageDetRecordIter(path_imgrec=rec, path_imglist=str(lst),
                                     data_shape=(3, 16, 16), batch_size=2)))
    np.testing.assert_allclose(b.label[0].asnumpy()[:, 3:],
                               [[7, 2, 5, 1, 0.1, 0.1, 0.5, 0.5],
                                [7, 2, 5, 3, 0.2, 0.2, 0.4, 0.9]], atol=1e-6)
    lst.write_text('0\t2\t5\t1\t0.1\t0.1\t0.5\t0.5\ta.png\n')
    with pytest.raises(MXNetError, match='imagelabel for id 1'):   # first batch: at creation
        ImageDetRecordIter(path_imgrec=rec, path_imglist=str(lst), data_shape=(3, 16, 16),
                           batch_size=2)
    kw = dict(path_imgrec=rec, data_shape=(3, 16, 16), batch_size=2)
    for bad in (dict(min_crop_scales=(0.5,), max_crop_scales=(0.5,)), dict(inter_method=5),
                dict(num_crop_sampler=2, min_crop_scales=(0.1, 0.2, 0.3)),
                dict(min_crop_scales=(0.1, 0.2)), dict(crop_emit_mode='foo'),
                dict(label_width=3)):
        with pytest.raises(MXNetError):
            ImageDetRecordIter(**dict(kw, **bad))
    # string-valued tuples as written by scripts that pass command-line values through
    it = ImageDetRecordIter(num_crop_sampler=2, min_crop_scales='(0.3, 0.5)',
                            max_crop_trials='10,20', rand_crop_prob=1, **kw)
    assert it._aug.t['max_crop_trials'] == [10, 20]
    assert len(list(it)) == 1


def test_gray_and_four_channel(tmp_path):
    rng = np.random.RandomState(1)
    labels = [[2, 5, 0, 0.1, 0.2, 0.6, 0.7]] * 3
    gray = [(rng.rand(20, 30) * 255).astype(np.uint8) for _ in range(3)]
    _write_rec(tmp_path / 'g.rec', gray, labels)
    kw = dict(path_imgrec=str(tmp_path / 'g.rec'), batch_size=3, rand_crop_prob=1,
              rand_pad_prob=1, max_pad_scale=2, rand_mirror_prob=0.5)
    b = next(iter(ImageDetRecordIter(data_shape=(1, 16, 16), **kw)))
    assert b.data[0].shape == (3, 1, 16, 16)
    assert np.all(b.label[0].asnumpy()[:, :3] == [1, 16, 16])
    with pytest.raises(MXNetError, match='3-channel'):
        ImageDetRecordIter(data_shape=(1, 16, 16), random_hue_prob=1, max_random_hue=30,
                           **kw)
    rgba = [(rng.rand(20, 30, 4) * 255).astype(np.uint8) for _ in range(3)]
    _write_rec(tmp_path / 'a.rec', rgba, labels)
    it = ImageDetRecordIter(path_imgrec=str(tmp_path / 'a.rec'), data_shape=(4, 20, 30),
                            batch_size=3)
    d = next(iter(it)).data[0].asnumpy()
    np.testing.assert_array_equal(d[0].transpose(1, 2, 0), rgba[0][:, :, [2, 1, 0, 3]])


def test_shuffle_order_matches_mxnet():
    """Each pass is std::shuffle'd with mt19937(233 + seed); a wrapped batch opens the next
    pass (orders recorded from MXNet 1.9.1 on the golden file)."""
    expect = {3: [[105, 102, 101, 104, 100, 103], [104, 100, 103, 102, 105, 101],
                  [102, 101, 103, 105, 100, 104], [103, 105, 100, 104, 101, 102]],
              4: [[105, 102, 101, 104, 100, 103, 104, 100], [103, 102, 105, 101],
                  [102, 101, 103, 105, 100, 104, 103, 105], [100, 104, 101, 102]]}
    for bs, orders in expect.items():
        it = ImageDetRecordIter(path_imgrec=os.path.join(GOLD, 'det.rec'), data_shape=SHAPE,
                                batch_size=bs, shuffle=True, seed=4)
        for order in orders:
            assert [int(i) for b in it for i in b.index] == order
            it.reset()


def test_decoding_thread_engines(tmp_path):
    """Thread t of T owns the records starting in the t-th 4-byte-aligned byte slice of a
    chunk, and draws from its own engine seeded (t + 1) * 233."""
    rec = _objs_rec(tmp_path, n=9)
    it = ImageDetRecordIter(path_imgrec=rec, data_shape=(3, 16, 16), batch_size=3,
                            preprocess_threads=1)
    assert len(it._engines) == 1 and it._engine_of == [0] * 9
    size = os.path.getsize(rec)
    eng = it._record_engines(size, 3)
    step = ((size + 2) // 3 + 3) // 4 * 4
    assert eng == [off // step for off in it._offsets]
    assert eng[0] == 0 and eng == sorted(eng) and max(eng) == 2


def test_image_hw_from_headers():
    import cv2

    from mxnet.io._det_aug import image_hw
    for ext in ('.jpg', '.png'):
        for shape in ((37, 53, 3), (20, 11)):
            buf = cv2.imencode(ext, np.zeros(shape, np.uint8))[1].tobytes()
            assert image_hw(buf) == shape[:2]
    jpg = cv2.imencode('.jpg', np.zeros((8, 8, 3), np.uint8))[1].tobytes()
    exif = b'\xff\xd8\xff\xe1\x00\x08Exif\x00\x00' + jpg[2:]
    assert image_hw(exif) is None and image_hw(b'GIF89a') is None
