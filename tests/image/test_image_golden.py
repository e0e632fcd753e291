"""mx.image functions and gluon vision transforms against MXNet 1.9.1 golden outputs."""
import hashlib
import json
import os

import numpy as np
import pytest

from mxnet import image, nd
from mxnet.gluon.data.vision import transforms as T

HERE = os.path.dirname(__file__)
GOLD = os.path.join(HERE, '..', 'compat', 'golden', 'data', 'image.npz')
NAMES = ('china', 'flower')


@pytest.fixture(scope='module')
def gold():
    return dict(np.load(GOLD))


@pytest.fixture(scope='module', params=NAMES)
def case(request, gold):
    name = request.param
    raw = open(os.path.join(HERE, name + '.jpg'), 'rb').read()
    return name, raw, image.imdecode(raw), gold


def _eq(a, b, tol=0):
    a = a.asnumpy() if hasattr(a, 'asnumpy') else a
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    if tol:
        np.testing.assert_allclose(a, b, rtol=tol, atol=tol)
    else:
        np.testing.assert_array_equal(a, b)


def test_decode(case):
    name, raw, img, g = case
    assert hashlib.md5(img.asnumpy().tobytes()).hexdigest() == str(g[name + '/md5'])
    _eq(img.asnumpy()[100:140, 200:260], g[name + '/crop'])
    _eq(image.imdecode(raw, flag=0).asnumpy()[50:80, 50:90], g[name + '/gray_crop'])
    _eq(image.imdecode(raw, to_rgb=False).asnumpy()[0:20, 0:30], g[name + '/bgr_crop'])
    _eq(image.imread(os.path.join(HERE, name + '.jpg')).asnumpy()[100:140, 200:260],
        g[name + '/crop'])


def test_resize_crop(case):
    name, raw, img, g = case
    for interp in range(5):
        _eq(image.imresize(img, 48, 32, interp), g['%s/resize%d' % (name, interp)])
        _eq(image.imresize(img[:20, :30], 45, 25, interp), g['%s/up%d' % (name, interp)])
    _eq(image.resize_short(img, 40), g[name + '/short'])
    _eq(image.center_crop(img, (50, 40))[0], g[name + '/center'])
    _eq(image.fixed_crop(img, 10, 20, 100, 80, (40, 30)), g[name + '/fixed'])
    _eq(image.copyMakeBorder(img[:10, :12], 1, 2, 3, 4, type=0, value=7), g[name + '/border'])
    _eq(image.copyMakeBorder(img[:10, :12], 2, 2, 2, 2, type=1), g[name + '/border_rep'])


def test_transforms(case):
    name, raw, img, g = case
    small = img[:32, :48]
    tt = T.ToTensor()(small)
    _eq(tt, g[name + '/to_tensor'])
    _eq(T.Normalize((0.4, 0.5, 0.6), (0.2, 0.25, 0.3))(tt), g[name + '/normalize'], 1e-6)
    _eq(T.Resize((20, 10))(small), g[name + '/t_resize'])
    _eq(T.Resize(16, keep_ratio=True)(small), g[name + '/t_resize_keep'])
    _eq(T.CenterCrop((24, 16))(small), g[name + '/t_centercrop'])
    _eq(T.CropResize(2, 3, 20, 10, (10, 5), 1)(small), g[name + '/t_cropresize'])
    comp = T.Compose([T.Resize(24), T.CenterCrop(16), T.ToTensor(), T.Normalize(0.5, 0.25)])
    _eq(comp(small), g[name + '/t_compose'], 1e-6)
    _eq(T.Cast('float16')(small), g[name + '/t_cast'])
    _eq(nd.image.flip_left_right(small) if hasattr(nd, 'image') else
        T._op(nd, 'flip_left_right')(small), g[name + '/flip_lr'])
    _eq(T._op(nd, 'flip_top_bottom')(small), g[name + '/flip_tb'])
    _eq(T._op(nd, 'adjust_lighting')(small.astype('float32'), alpha=(0.1, -0.05, 0.02)),
        g[name + '/adjust_lighting'], 1e-4)


def test_augmenter_chain(case):
    name, raw, img, g = case
    augs = image.CreateAugmenter((3, 24, 32), resize=30, mean=True, std=True)
    assert json.dumps([a.dumps() for a in augs]) == str(g[name + '/augdumps'])
    x = img
    for aug in augs:
        x = aug(x)
    _eq(x, g[name + '/augment'], 1e-5)
