"""Write golden files for the data pipeline with the REAL MXNet 1.9.1 (the oracle).

Run once under the oracle python from the repository root::

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_data.py

Outputs go to tests/compat/golden/data/. Tests load them without the oracle.
"""
import json
import os
import struct

import numpy as np

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'golden', 'data')
IMG_DIR = os.path.join(HERE, '..', 'image')
MAGIC = struct.pack('<I', 0xCED7230A)


def rec_payloads():
    """Payloads chosen to exercise every split case of the RecordIO writer."""
    return [
        b'',
        b'a',
        b'hello world!',
        b'ABCD' + MAGIC + b'EFGHIJ',               # magic at an aligned offset
        b'AB' + MAGIC + b'CDEFGH',                 # magic at an unaligned offset: not split
        MAGIC,                                      # the magic word alone
        MAGIC + MAGIC + b'xyz',                     # consecutive magic words
        b'12345678' + MAGIC + b'abcd' + MAGIC,     # magic at the end
        bytes(range(256)) * 3,
        b'Q' * 4097,
    ]


def write_recordio():
    pay = rec_payloads()
    rec = mx.recordio.MXRecordIO(os.path.join(OUT, 'plain.rec'), 'w')
    for p in pay:
        rec.write(p)
    rec.close()
    rec = mx.recordio.MXIndexedRecordIO(os.path.join(OUT, 'indexed.idx'),
                                        os.path.join(OUT, 'indexed.rec'), 'w')
    headers = []
    for i, p in enumerate(pay):
        if i % 2:
            h = mx.recordio.IRHeader(0, float(i) + 0.5, 1000 + i, i)
            lab = h.label
        else:
            lab = [float(i), -1.25, 3.0][: 1 + i % 3]
            h = mx.recordio.IRHeader(0, lab, 2000 + i, 0)
        headers.append({'label': lab, 'id': h.id, 'id2': h.id2})
        rec.write_idx(i * 5, mx.recordio.pack(h, p))
    rec.close()
    with open(os.path.join(OUT, 'recordio.json'), 'w') as f:
        json.dump({'payloads': [p.hex() for p in pay], 'headers': headers}, f)


NDITER_CASES = [
    # (name, kwargs, epochs)
    ('pad', dict(batch_size=4, last_batch_handle='pad'), 2),
    ('pad_big', dict(batch_size=23, last_batch_handle='pad'), 1),
    ('discard', dict(batch_size=4, last_batch_handle='discard'), 2),
    ('roll_over', dict(batch_size=4, last_batch_handle='roll_over'), 3),
    ('shuffle', dict(batch_size=3, shuffle=True, last_batch_handle='pad'), 2),
    ('shuffle_roll', dict(batch_size=4, shuffle=True, last_batch_handle='roll_over'), 3),
]


def nditer_inputs():
    data = np.arange(10 * 2 * 3, dtype=np.float32).reshape(10, 2, 3)
    label = np.arange(10, dtype=np.int32) * 10
    return data, label


def write_nditer():
    data, label = nditer_inputs()
    out = {}
    for name, kw, epochs in NDITER_CASES:
        np.random.seed(7)
        for variant, args in (('single', dict(data=data, label=label)),
                              ('dict', dict(data={'b': data, 'a': data[:, 0]},
                                            label=[label, label + 1])),
                              ('nolabel', dict(data=[data]))):
            it = mx.io.NDArrayIter(**args, **kw)
            key = '%s/%s' % (name, variant)
            out[key + '/provide'] = np.array(repr((it.provide_data, it.provide_label)))
            for ep in range(epochs):
                for bi, b in enumerate(it):
                    for j, d in enumerate(b.data):
                        out['%s/%d/%d/data%d' % (key, ep, bi, j)] = d.asnumpy()
                    for j, d in enumerate(b.label):
                        out['%s/%d/%d/label%d' % (key, ep, bi, j)] = d.asnumpy()
                    out['%s/%d/%d/pad' % (key, ep, bi)] = np.array(b.pad)
                it.reset()
    np.savez_compressed(os.path.join(OUT, 'nditer.npz'), **out)


def write_image():
    """mx.image functions and gluon transforms on china.jpg/flower.jpg (small outputs)."""
    import hashlib
    out = {}
    for name in ('china', 'flower'):
        raw = open(os.path.join(IMG_DIR, name + '.jpg'), 'rb').read()
        img = mx.image.imdecode(raw)
        a = img.asnumpy()
        out[name + '/md5'] = np.array(hashlib.md5(a.tobytes()).hexdigest())
        out[name + '/crop'] = a[100:140, 200:260]
        out[name + '/gray_crop'] = mx.image.imdecode(raw, flag=0).asnumpy()[50:80, 50:90]
        out[name + '/bgr_crop'] = mx.image.imdecode(raw, to_rgb=False).asnumpy()[0:20, 0:30]
        for interp in range(5):
            out['%s/resize%d' % (name, interp)] = mx.image.imresize(img, 48, 32, interp).asnumpy()
            out['%s/up%d' % (name, interp)] = mx.image.imresize(
                img[:20, :30], 45, 25, interp).asnumpy()
        out[name + '/short'] = mx.image.resize_short(img, 40).asnumpy()
        out[name + '/center'] = mx.image.center_crop(img, (50, 40))[0].asnumpy()
        out[name + '/fixed'] = mx.image.fixed_crop(img, 10, 20, 100, 80, (40, 30)).asnumpy()
        out[name + '/border'] = mx.image.copyMakeBorder(img[:10, :12], 1, 2, 3, 4, type=0,
                                                        value=7).asnumpy()
        out[name + '/border_rep'] = mx.image.copyMakeBorder(img[:10, :12], 2, 2, 2, 2,
                                                            type=1).asnumpy()
        small = img[:32, :48]
        T = mx.gluon.data.vision.transforms
        tt = T.ToTensor()(small)
        out[name + '/to_tensor'] = tt.asnumpy()
        out[name + '/normalize'] = T.Normalize((0.4, 0.5, 0.6), (0.2, 0.25, 0.3))(tt).asnumpy()
        out[name + '/t_resize'] = T.Resize((20, 10))(small).asnumpy()
        out[name + '/t_resize_keep'] = T.Resize(16, keep_ratio=True)(small).asnumpy()
        out[name + '/t_centercrop'] = T.CenterCrop((24, 16))(small).asnumpy()
        out[name + '/t_cropresize'] = T.CropResize(2, 3, 20, 10, (10, 5), 1)(small).asnumpy()
        out[name + '/t_compose'] = T.Compose([T.Resize(24), T.CenterCrop(16), T.ToTensor(),
                                              T.Normalize(0.5, 0.25)])(small).asnumpy()
        out[name + '/t_cast'] = T.Cast('float16')(small).asnumpy()
        out[name + '/flip_lr'] = mx.nd.image.flip_left_right(small).asnumpy()
        out[name + '/flip_tb'] = mx.nd.image.flip_top_bottom(small).asnumpy()
        out[name + '/adjust_lighting'] = mx.nd.image.adjust_lighting(
            small.astype('float32'), alpha=(0.1, -0.05, 0.02)).asnumpy()
        augs = mx.image.CreateAugmenter((3, 24, 32), resize=30, mean=True, std=True)
        x = img
        for aug in augs:
            x = aug(x)
        out[name + '/augment'] = x.asnumpy()
        out[name + '/augdumps'] = np.array(json.dumps([a.dumps() for a in augs]))
    np.savez_compressed(os.path.join(OUT, 'image.npz'), **out)


def write_image_rec():
    """An image .rec/.idx from small JPEGs (bytes packed as-is) and ImageIter batches."""
    for stem, vec in (('images', False), ('images_w2', True)):
        rec = mx.recordio.MXIndexedRecordIO(os.path.join(OUT, stem + '.idx'),
                                            os.path.join(OUT, stem + '.rec'), 'w')
        for i in range(6):
            raw = open(os.path.join(OUT, 'small%d.jpg' % i), 'rb').read()
            label = [float(i), float(i) + 0.5] if vec else float(i % 3)
            rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, label, i, 0), raw))
        rec.close()
    out = {}
    it = mx.image.ImageIter(4, (3, 24, 32), path_imgrec=os.path.join(OUT, 'images_w2.rec'),
                            path_imgidx=os.path.join(OUT, 'images_w2.idx'), label_width=2,
                            resize=36)
    for ep in range(2):
        for bi, b in enumerate(it):
            out['imageiter/%d/%d/data' % (ep, bi)] = b.data[0].asnumpy()
            out['imageiter/%d/%d/pad' % (ep, bi)] = np.array(b.pad)
        it.reset()
    kw = dict(path_imgrec=os.path.join(OUT, 'images.rec'), data_shape=(3, 24, 32),
              batch_size=4)
    for name, extra in (('plain', {}),
                        ('norm', dict(mean_r=123.0, mean_g=117.0, mean_b=104.0, std_r=58.0,
                                      std_g=57.0, std_b=57.5, scale=0.5, resize=30)),
                        ('labels', dict(label_width=2, round_batch=False, resize=40,
                                        inter_method=2,
                                        path_imgrec=os.path.join(OUT, 'images_w2.rec'))),
                        ('part', dict(num_parts=2, part_index=1, batch_size=2))):
        args = dict(kw, **extra)
        for cls in ('ImageRecordIter', 'ImageRecordUInt8Iter'):
            if cls == 'ImageRecordUInt8Iter' and name == 'norm':
                continue
            it = getattr(mx.io, cls)(**args)
            for ep in range(2):
                for bi, b in enumerate(it):
                    key = '%s/%s/%d/%d' % (cls, name, ep, bi)
                    out[key + '/data'] = b.data[0].asnumpy()
                    out[key + '/label'] = b.label[0].asnumpy()
                    out[key + '/pad'] = np.array(b.pad)
                it.reset()
    np.savez_compressed(os.path.join(OUT, 'imagerec.npz'), **out)


def write_det():
    """A detection .rec and ImageDetIter batches (deterministic, then seeded random augs)."""
    import random
    rec = mx.recordio.MXIndexedRecordIO(os.path.join(OUT, 'det.idx'),
                                        os.path.join(OUT, 'det.rec'), 'w')
    for i in range(5):
        raw = open(os.path.join(OUT, 'small%d.jpg' % i), 'rb').read()
        objs = [[i % 3, 0.1, 0.2, 0.6, 0.7], [1, 0.3 + 0.05 * i, 0.1, 0.9, 0.5]][: 1 + i % 2]
        label = [2, 5] + [v for o in objs for v in o]
        rec.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, label, i, 0), raw))
    rec.close()
    out = {}
    for name, kw in (('plain', {}),
                     ('rand', dict(rand_crop=0.8, rand_pad=0.5, rand_mirror=True,
                                   mean=True, std=True))):
        random.seed(5)
        np.random.seed(5)
        it = mx.image.ImageDetIter(2, (3, 32, 40), path_imgrec=os.path.join(OUT, 'det.rec'),
                                   **kw)
        out['%s/provide_label' % name] = np.array(it.provide_label[0][1])
        for bi, b in enumerate(it):
            out['%s/%d/data' % (name, bi)] = b.data[0].asnumpy()
            out['%s/%d/label' % (name, bi)] = b.label[0].asnumpy()
            out['%s/%d/pad' % (name, bi)] = np.array(b.pad)
    kw = dict(path_imgrec=os.path.join(OUT, 'det.rec'), data_shape=(3, 32, 40), batch_size=2)
    for name, extra in (('force', {}), ('fit', dict(resize_mode='fit', label_pad_width=20,
                                                    label_pad_value=-2)),
                        ('shrink', dict(resize_mode='shrink', inter_method=2)),
                        ('mirror', dict(rand_mirror_prob=1.0, mean_r=100, mean_g=110,
                                        mean_b=120, std_r=2, std_g=3, std_b=4, scale=0.5))):
        it = mx.io.ImageDetRecordIter(**dict(kw, **extra))
        for ep in range(2 if name == 'force' else 1):
            for bi, b in enumerate(it):
                key = 'detrec/%s/%d/%d' % (name, ep, bi)
                out[key + '/data'] = b.data[0].asnumpy()
                out[key + '/label'] = b.label[0].asnumpy()
                out[key + '/pad'] = np.array(b.pad)
            it.reset()
    np.savez_compressed(os.path.join(OUT, 'det.npz'), **out)


def main():
    os.makedirs(OUT, exist_ok=True)
    np.random.seed(0)
    mx.random.seed(0)
    write_recordio()
    write_nditer()
    write_image()
    write_image_rec()
    write_det()


if __name__ == '__main__':
    main()
