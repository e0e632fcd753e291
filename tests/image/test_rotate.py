"""mx.image.imrotate / random_rotate and the Rotate / RandomRotation transforms, against
MXNet 1.9.1 outputs (golden) and its argument checks."""
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon.data.vision import transforms

GOLD = os.path.join(os.path.dirname(__file__), '..', 'compat', 'golden', 'data_more')


@pytest.fixture(scope='module')
def gold():
    return dict(np.load(os.path.join(GOLD, 'golden.npz')))


@pytest.mark.parametrize('deg', [0.0, 30.0, 90.0, -45.0, 200.0])
@pytest.mark.parametrize('zoom', [(False, False), (True, False), (False, True)])
def test_imrotate_golden(gold, deg, zoom):
    out = mx.image.imrotate(mx.nd.array(gold['rotate/img']), deg, zoom_in=zoom[0],
                            zoom_out=zoom[1])
    np.testing.assert_allclose(out.asnumpy(), gold['rotate/%g/%d%d' % (deg, *zoom)],
                               rtol=1e-5, atol=1e-5)


def test_imrotate_batch_angles(gold):
    out = mx.image.imrotate(mx.nd.array(gold['rotate/batch']), mx.nd.array(gold['rotate/angles']),
                            zoom_in=True)
    np.testing.assert_allclose(out.asnumpy(), gold['rotate/batch_out'], rtol=1e-5, atol=1e-5)


def test_imrotate_errors():
    img = mx.nd.ones((3, 4, 4))
    with pytest.raises(ValueError):
        mx.image.imrotate(img, 10, zoom_in=True, zoom_out=True)
    with pytest.raises(TypeError):
        mx.image.imrotate(img.astype('uint8'), 10)
    with pytest.raises(TypeError):
        mx.image.imrotate(img, mx.nd.array([10.0]))
    with pytest.raises(ValueError):
        mx.image.imrotate(mx.nd.ones((2, 3, 4, 4)), mx.nd.array([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError):
        mx.image.imrotate(mx.nd.ones((4, 4)), 10)


def test_rotate_transform_quarter_turns():
    img = mx.nd.array([[[0., 0., 0.], [0., 0., 1.], [0., 0., 0.]]])
    expect = {90.: [[0, 1, 0], [0, 0, 0], [0, 0, 0]], 180.: [[0, 0, 0], [1, 0, 0], [0, 0, 0]],
              270.: [[0, 0, 0], [0, 0, 0], [0, 1, 0]], 360.: [[0, 0, 0], [0, 0, 1], [0, 0, 0]]}
    for deg, want in expect.items():
        out = transforms.Rotate(deg)(img)
        np.testing.assert_allclose(out.asnumpy()[0], want, atol=1e-6)
    with pytest.raises(TypeError):
        transforms.Rotate(10.)(mx.nd.ones((3, 5, 5), dtype='uint8'))
    assert transforms.Rotate(10.)(mx.nd.ones((2, 3, 5, 6))).shape == (2, 3, 5, 6)


def test_random_rotation_transform():
    with pytest.raises(ValueError):
        transforms.RandomRotation([-10, 10.], rotate_with_proba=1.1)
    with pytest.raises(ValueError):
        transforms.RandomRotation([10, -10.])
    t = transforms.RandomRotation([-10, 10.])
    with pytest.raises(TypeError):
        t(mx.nd.ones((3, 5, 5), dtype='uint8'))
    assert t(mx.nd.ones((3, 3, 5, 6))).shape == (3, 3, 5, 6)
    x = mx.nd.random.normal(shape=(3, 6, 7))
    same = transforms.RandomRotation([-100., 100.], rotate_with_proba=0.0)(x)
    np.testing.assert_array_equal(same.asnumpy(), x.asnumpy())


def test_random_op_transforms_in_compose():
    # random ops inside a hybrid Compose (regression: block name clashed with op name)
    t = transforms.Compose([transforms.RandomFlipLeftRight(), transforms.RandomBrightness(0.1),
                            transforms.ToTensor()])
    assert t(mx.nd.ones((4, 5, 3), dtype='uint8')).shape == (3, 4, 5)
