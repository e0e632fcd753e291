"""Golden files (REAL MXNet 1.9.1): ImageRecordIter's ``mean_img`` and int8/uint8 output,
``mx.image.imrotate``, affine warps.

Run once under the oracle python from the repository root (after make_golden_data.py)::

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_data_more.py

Outputs go to tests/compat/golden/data_more/.
"""
import os

import numpy as np

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, 'golden', 'data')
OUT = os.path.join(HERE, 'golden', 'data_more')


def write_mean_img(out):
    rec = os.path.join(SRC, 'images.rec')
    mean_file = os.path.join(OUT, 'mean.bin')
    if os.path.exists(mean_file):
        os.remove(mean_file)
    # first iterator creates the mean file (mean of the normalized images), then iterates
    it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 24, 32), batch_size=4,
                               mean_img=mean_file, mean_r=10.0, scale=2.0, resize=30,
                               verbose=False)
    for bi, b in enumerate(it):
        out['created/%d/data' % bi] = b.data[0].asnumpy()
    # second one loads it; per-pixel mean taken before mirroring
    it = mx.io.ImageRecordIter(path_imgrec=rec, data_shape=(3, 24, 32), batch_size=4,
                               mean_img=mean_file, mirror=True, std_r=2.0, std_b=0.5,
                               scale=0.25, resize=30, verbose=False)
    for bi, b in enumerate(it):
        out['loaded/%d/data' % bi] = b.data[0].asnumpy()


def write_int8(out):
    rec = os.path.join(SRC, 'images.rec')
    kw = dict(path_imgrec=rec, data_shape=(3, 24, 32), batch_size=3, resize=30, verbose=False)
    cases = {'i8': (mx.io.ImageRecordIter, dict(dtype='int8', mean_r=100.5, mean_g=-3.5,
                                                  mean_b=20.0)),
             'i8mean': (mx.io.ImageRecordInt8Iter, dict(mean_img=os.path.join(OUT, 'mean.bin'),
                                                        mirror=True)),
             'u8': (mx.io.ImageRecordIter, dict(dtype='uint8', mean_r=10.0))}
    for name, (cls, extra) in cases.items():
        for bi, b in enumerate(cls(**dict(kw, **extra))):
            out['%s/%d/data' % (name, bi)] = b.data[0].asnumpy()


def write_warp(out):
    """Affine warps (fixed angle / scale): OpenCV 3.4's fixed-point warpAffine."""
    rec = os.path.join(SRC, 'images.rec')
    kw = dict(path_imgrec=rec, data_shape=(3, 24, 32), batch_size=3, verbose=False)
    cases = {'rot30': dict(rotate=30),
             'rot45cubic': dict(rotate=45, fill_value=7, inter_method=2),
             'scale': dict(max_random_scale=1.5, min_random_scale=1.5, resize=26),
             'shrink_area': dict(max_random_scale=0.8, min_random_scale=0.8, inter_method=3,
                                 resize=40)}
    for name, extra in cases.items():
        for bi, b in enumerate(mx.io.ImageRecordIter(**dict(kw, **extra))):
            out['warp/%s/%d/data' % (name, bi)] = b.data[0].asnumpy()


def write_rotate(out):
    rng = np.random.RandomState(3)
    img = rng.uniform(0, 1, (3, 7, 9)).astype(np.float32)
    batch = rng.uniform(0, 1, (3, 2, 6, 5)).astype(np.float32)
    out['rotate/img'] = img
    out['rotate/batch'] = batch
    for deg in (0.0, 30.0, 90.0, -45.0, 200.0):
        for zi, zo in ((False, False), (True, False), (False, True)):
            key = 'rotate/%g/%d%d' % (deg, zi, zo)
            out[key] = mx.image.imrotate(mx.nd.array(img), deg, zoom_in=zi,
                                         zoom_out=zo).asnumpy()
    angles = np.array([10.0, -100.0, 45.0], dtype=np.float32)
    out['rotate/angles'] = angles
    out['rotate/batch_out'] = mx.image.imrotate(mx.nd.array(batch), mx.nd.array(angles),
                                                zoom_in=True).asnumpy()


def main():
    os.makedirs(OUT, exist_ok=True)
    out = {}
    write_mean_img(out)
    write_int8(out)
    write_warp(out)
    write_rotate(out)
    np.savez_compressed(os.path.join(OUT, 'golden.npz'), **out)


if __name__ == '__main__':
    main()
