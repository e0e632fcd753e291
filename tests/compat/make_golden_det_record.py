"""Golden ImageDetRecordIter batches with MXNet 1.9.1's random detection augmenter.

Run ONCE under the oracle python from /tmp:
    cd /tmp && /root/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_det_record.py
Writes tests/compat/golden/det_record/{det.rec,det.lst,det.npz}. MXNet decodes with one thread
on a 2-core machine, so its augmentation stream is the single engine the tests replay.
"""
import os
import struct
import zlib

import numpy as np

import mxnet as mx

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'golden', 'det_record')
SHAPE = (3, 16, 20)

CONFIGS = {
    'mirror': dict(rand_mirror_prob=0.5),
    'colour': dict(random_hue_prob=0.5, max_random_hue=20, random_saturation_prob=0.5,
                   max_random_saturation=40, random_illumination_prob=0.5,
                   max_random_illumination=30, random_contrast_prob=0.5,
                   max_random_contrast=0.4),
    'pad': dict(rand_pad_prob=0.7, max_pad_scale=2.5, fill_value=80),
    'crop': dict(rand_crop_prob=0.8, min_crop_scales=(0.3,), max_crop_scales=(1.0,),
                 min_crop_aspect_ratios=(0.5,), max_crop_aspect_ratios=(2.0,)),
    'crop3': dict(rand_crop_prob=1.0, num_crop_sampler=3, min_crop_scales=(0.3, 0.5, 0.7),
                  max_crop_scales=(0.9, 1.0, 1.0), min_crop_aspect_ratios=(0.5,),
                  max_crop_aspect_ratios=(2.0,), min_crop_overlaps=(0.1, 0.3, 0.5),
                  max_crop_overlaps=(0.99,), min_crop_sample_coverages=(0.01,),
                  max_crop_sample_coverages=(0.99,), min_crop_object_coverages=(0.01,),
                  max_crop_object_coverages=(0.99,), max_crop_trials=(10, 20, 30),
                  crop_emit_mode='overlap', emit_overlap_thresh=0.4),
    'all': dict(rand_mirror_prob=0.5, rand_pad_prob=0.5, max_pad_scale=2.0,
                rand_crop_prob=0.6, min_crop_scales=(0.4,), random_hue_prob=0.3,
                max_random_hue=10, random_contrast_prob=0.4, max_random_contrast=0.3,
                resize_mode='fit', mean_r=10, mean_g=20, mean_b=30, std_r=2, std_g=3,
                std_b=4, scale=0.5, inter_method=9),
    'interp': dict(inter_method=10, resize=16, rand_pad_prob=1.0, max_pad_scale=1.5,
                   resize_mode='shrink'),
    'imglist': dict(path_imglist='det.lst', rand_mirror_prob=1.0, label_pad_width=30),
    # example/ssd's training settings (without shuffle)
    'ssd': dict(mean_r=123.68, mean_g=116.779, mean_b=103.939, label_pad_width=420,
                random_hue_prob=0.5, max_random_hue=18, random_saturation_prob=0.5,
                max_random_saturation=32, random_illumination_prob=0.5,
                max_random_illumination=32, random_contrast_prob=0.5, max_random_contrast=0.5,
                rand_pad_prob=0.5, fill_value=127, max_pad_scale=4, rand_crop_prob=0.833333,
                max_crop_aspect_ratios=[2.0] * 5, max_crop_object_coverages=[1.0] * 5,
                max_crop_overlaps=[1.0] * 5, max_crop_sample_coverages=[1.0] * 5,
                max_crop_scales=[1.0] * 5, max_crop_trials=[25] * 5,
                min_crop_aspect_ratios=[0.5] * 5, min_crop_object_coverages=[0.0] * 5,
                min_crop_overlaps=[0.1, 0.3, 0.5, 0.7, 0.9],
                min_crop_sample_coverages=[0.0] * 5, min_crop_scales=[0.3] * 5,
                num_crop_sampler=5, inter_method=10, rand_mirror_prob=0.5),
    # the mean image is created (one augmented pass) when the file is missing
    'meanimg': dict(mean_img='mean_created.nd', rand_mirror_prob=0.5, std_r=2, scale=0.5),
}
# shuffled passes: MXNet augments in file order, then shuffles (seeded 233 + seed)
CONFIGS['shuffle'] = dict(CONFIGS['crop3'], shuffle=True, seed=3, rand_pad_prob=0.5,
                          max_pad_scale=2.0, mean_img='mean_shuffle.nd')


def png(img):
    """A minimal RGB PNG encoder (the oracle has no OpenCV); ``img`` is HWC BGR uint8."""
    h, w = img.shape[:2]
    raw = b''.join(b'\x00' + img[y, :, ::-1].tobytes() for y in range(h))

    def chunk(tag, data):
        return (struct.pack('>I', len(data)) + tag + data
                + struct.pack('>I', zlib.crc32(tag + data) & 0xFFFFFFFF))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def write_rec():
    rng = np.random.RandomState(3)
    rec = mx.recordio.MXRecordIO(os.path.join(OUT, 'det.rec'), 'w')
    lst = []
    for i in range(6):
        h, w = [(24, 32), (30, 20), (20, 20), (28, 40), (16, 30), (26, 26)][i]
        small = rng.rand((h + 3) // 4, (w + 3) // 4, 3) * 255
        img = np.kron(small, np.ones((4, 4, 1)))[:h, :w].astype(np.uint8)
        objs = []
        for _ in range(1 + i % 3):
            x0, y0 = rng.uniform(0, 0.6, 2)
            x1, y1 = x0 + rng.uniform(0.1, 0.4), y0 + rng.uniform(0.1, 0.4)
            objs.append([i % 4, x0, y0, x1, y1, 0.5 + i])
        if i == 4:
            objs.append([3, 0.5, 0.5, 0.4, 0.9, 0])   # invalid box: dropped
        label = [3, 6, 77] + [v for o in objs for v in o]
        rec.write(mx.recordio.pack(mx.recordio.IRHeader(0, label, 100 + i, 0), png(img)))
        lab2 = [2, 5] + [v for o in objs[:1] for v in o[:5]]
        lst.append('%d\t%s\timg%d.png' % (100 + i, '\t'.join('%g' % v for v in lab2), i))
    rec.close()
    with open(os.path.join(OUT, 'det.lst'), 'w') as f:
        f.write('\n'.join(lst) + '\n')


def main():
    os.makedirs(OUT, exist_ok=True)
    write_rec()
    out = {}
    os.chdir(OUT)
    for name, extra in CONFIGS.items():
        it = mx.io.ImageDetRecordIter(path_imgrec='det.rec', data_shape=SHAPE, batch_size=4,
                                      preprocess_threads=1, **extra)
        for ep in range(2):
            for bi, b in enumerate(it):
                key = '%s/%d/%d' % (name, ep, bi)
                out[key + '/data'] = b.data[0].asnumpy()
                out[key + '/label'] = b.label[0].asnumpy()
                out[key + '/pad'] = np.array(b.pad)
            it.reset()
        if 'mean_img' in extra:
            out[name + '/mean_img'] = mx.nd.load(extra['mean_img'])['mean_img'].asnumpy()
            os.remove(extra['mean_img'])
    np.savez_compressed(os.path.join(OUT, 'det.npz'), **out)


if __name__ == '__main__':
    main()
