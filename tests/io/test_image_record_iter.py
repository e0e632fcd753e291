"""ImageRecordIter / ImageRecordUInt8Iter / ImageIter against MXNet 1.9.1 golden batches."""
import os

import numpy as np
import pytest

from mxnet import image
from mxnet.base import MXNetError
from mxnet.io import ImageRecordIter, ImageRecordUInt8Iter

GOLD = os.path.join(os.path.dirname(__file__), '..', 'compat', 'golden', 'data')
CASES = [('plain', {}),
         ('norm', dict(mean_r=123.0, mean_g=117.0, mean_b=104.0, std_r=58.0, std_g=57.0,
                       std_b=57.5, scale=0.5, resize=30)),
         ('labels', dict(label_width=2, round_batch=False, resize=40, inter_method=2,
                         path_imgrec=os.path.join(GOLD, 'images_w2.rec'))),
         ('part', dict(num_parts=2, part_index=1, batch_size=2))]


@pytest.fixture(scope='module')
def gold():
    return dict(np.load(os.path.join(GOLD, 'imagerec.npz')))


@pytest.mark.parametrize('cls', [ImageRecordIter, ImageRecordUInt8Iter])
@pytest.mark.parametrize('name,extra', CASES, ids=[c[0] for c in CASES])
def test_record_iter_golden(gold, cls, name, extra):
    if cls is ImageRecordUInt8Iter and name == 'norm':
        pytest.skip('no normalization in the uint8 iterator')
    args = dict(path_imgrec=os.path.join(GOLD, 'images.rec'), data_shape=(3, 24, 32),
                batch_size=4)
    args.update(extra)
    it = cls(**args)
    seen = 0
    for ep in range(2):
        for bi, b in enumerate(it):
            key = '%s/%s/%d/%d' % (cls.__name__, name, ep, bi)
            valid = b.data[0].shape[0]
            if name == 'labels' and bi == 1:
                valid = 2      # MXNet leaves the tail of a non-rounded batch uninitialized
            np.testing.assert_allclose(b.data[0].asnumpy()[:valid], gold[key + '/data'][:valid],
                                       rtol=1e-6, atol=1e-6, err_msg=key)
            assert b.data[0].dtype == gold[key + '/data'].dtype
            np.testing.assert_array_equal(b.label[0].asnumpy()[:valid],
                                          gold[key + '/label'][:valid])
            assert b.pad == int(gold[key + '/pad'])
            seen += 1
        it.reset()
    assert seen == sum(1 for k in gold if k.startswith(cls.__name__ + '/' + name + '/')
                       and k.endswith('/pad'))


def test_imageiter_golden(gold):
    it = image.ImageIter(4, (3, 24, 32), path_imgrec=os.path.join(GOLD, 'images_w2.rec'),
                         path_imgidx=os.path.join(GOLD, 'images_w2.idx'), label_width=2,
                         resize=36)
    n = 0
    for ep in range(2):
        for bi, b in enumerate(it):
            key = 'imageiter/%d/%d' % (ep, bi)
            np.testing.assert_allclose(b.data[0].asnumpy(), gold[key + '/data'], atol=1e-4)
            assert b.pad == int(gold[key + '/pad'])
            n += 1
        it.reset()
    assert n == sum(1 for k in gold if k.startswith('imageiter/') and k.endswith('/pad'))


def test_random_aug_shapes():
    it = ImageRecordIter(path_imgrec=os.path.join(GOLD, 'images.rec'), data_shape=(3, 20, 20),
                         batch_size=3, rand_crop=True, rand_mirror=True, shuffle=True,
                         max_random_scale=1.2, min_random_scale=0.8, max_aspect_ratio=0.2,
                         resize=30, preprocess_threads=2)
    batches = list(it)
    assert len(batches) == 2 and batches[0].data[0].shape == (3, 3, 20, 20)
    labels = sorted(np.concatenate([b.label[0].asnumpy() for b in batches]).tolist())
    assert labels == [0, 0, 1, 1, 2, 2]


def test_bad_input(tmp_path):
    with pytest.raises(MXNetError, match='missing.rec'):
        ImageRecordIter(path_imgrec=str(tmp_path / 'missing.rec'), data_shape=(3, 8, 8),
                        batch_size=2)
    # MXNet's C++ iterators ignore unknown arguments (MXNet's own test passes `and_mirror`)
    it = ImageRecordIter(path_imgrec=os.path.join(GOLD, 'images.rec'), data_shape=(3, 8, 8),
                         batch_size=2, foo=1)
    assert it.next().data[0].shape == (2, 3, 8, 8)
    with pytest.raises(MXNetError, match='label_width is 1'):
        ImageRecordIter(path_imgrec=os.path.join(GOLD, 'images_w2.rec'),
                        data_shape=(3, 8, 8), batch_size=2)
    from mxnet import recordio
    rec = recordio.MXRecordIO(str(tmp_path / 'bad.rec'), 'w')
    for i in range(3):
        rec.write(recordio.pack(recordio.IRHeader(0, 1.0, i, 0), b'not an image'))
    rec.close()
    with pytest.raises(MXNetError, match=r'cannot decode.*record 0.*byte offset 0.*bad\.rec'):
        ImageRecordIter(path_imgrec=str(tmp_path / 'bad.rec'), data_shape=(3, 8, 8),
                        batch_size=2)
    raw = open(os.path.join(GOLD, 'images.rec'), 'rb').read()
    (tmp_path / 'trunc.rec').write_bytes(raw[:5000])
    with pytest.raises(MXNetError, match=r'trunc\.rec.*truncated record at byte offset 4352'):
        ImageRecordIter(path_imgrec=str(tmp_path / 'trunc.rec'), data_shape=(3, 8, 8),
                        batch_size=2)


def test_imglist_and_dtype(tmp_path):
    lst = tmp_path / 'x.lst'
    lst.write_text(''.join('%d\t%d.5\tsmall%d.jpg\n' % (i, i * 10, i) for i in range(6)))
    it = ImageRecordIter(path_imgrec=os.path.join(GOLD, 'images.rec'), data_shape=(3, 24, 32),
                         batch_size=3, path_imglist=str(lst), dtype='uint8')
    b = next(iter(it))
    assert b.label[0].asnumpy().tolist() == [0.5, 10.5, 20.5]
    assert b.data[0].dtype == np.uint8
    with pytest.raises(MXNetError, match='unknown dtype'):
        ImageRecordIter(path_imgrec=os.path.join(GOLD, 'images.rec'), data_shape=(3, 24, 32),
                        batch_size=3, dtype='int32')


def test_color_jitter_params():
    base = dict(path_imgrec=os.path.join(GOLD, 'images.rec'), data_shape=(3, 24, 32),
                batch_size=6, seed_aug=1)
    plain = next(iter(ImageRecordIter(**base))).data[0].asnumpy()
    jit = ImageRecordIter(brightness=0.3, contrast=0.3, saturation=0.3, pca_noise=0.1,
                          max_random_contrast=0.1, max_random_illumination=5, **base)
    out = next(iter(jit)).data[0].asnumpy()
    assert out.shape == plain.shape and not np.allclose(out, plain)
    assert abs(out.mean() - plain.mean()) < 0.4 * plain.mean()
    u8 = next(iter(ImageRecordUInt8Iter(brightness=0.3, **base))).data[0].asnumpy()
    assert u8.dtype == np.uint8
    rot = next(iter(ImageRecordIter(max_rotate_angle=20, max_shear_ratio=0.1, fill_value=0,
                                    **base))).data[0].asnumpy()
    assert rot.shape == plain.shape and not np.allclose(rot, plain)
    hls = next(iter(ImageRecordIter(random_h=20, random_l=30, **base))).data[0].asnumpy()
    assert hls.shape == plain.shape and not np.allclose(hls, plain)
