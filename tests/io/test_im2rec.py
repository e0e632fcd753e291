"""python -m mxnet.tools.im2rec: lists, records, options."""
import os
import subprocess
import sys

import cv2
import numpy as np

from mxnet import recordio
from mxnet.tools import im2rec

HERE = os.path.dirname(__file__)
ROOT = os.path.abspath(os.path.join(HERE, '..', '..'))


def _images(tmp_path):
    src = cv2.imread(os.path.join(HERE, '..', 'image', 'flower.jpg'))
    for cls, n in (('cat', 3), ('dog', 2)):
        os.makedirs(tmp_path / 'img' / cls)
        for i in range(n):
            cv2.imwrite(str(tmp_path / 'img' / cls / ('%d.jpg' % i)),
                        src[i * 20:i * 20 + 60, i * 30:i * 30 + 80])
    (tmp_path / 'img' / 'cat' / 'notes.txt').write_text('x')
    return str(tmp_path / 'img')


def test_list_and_rec(tmp_path):
    root = _images(tmp_path)
    prefix = str(tmp_path / 'data')
    im2rec.main(['--list', '--recursive', '--no-shuffle', prefix, root])
    lines = open(prefix + '.lst').read().splitlines()
    assert lines[0] == '0\t0.000000\tcat/0.jpg' and lines[4] == '4\t1.000000\tdog/1.jpg'
    im2rec.main(['--resize', '32', '--quality', '90', '--num-thread', '2', prefix, root])
    rec = recordio.MXIndexedRecordIO(prefix + '.idx', prefix + '.rec', 'r')
    assert rec.keys == [0, 1, 2, 3, 4]
    header, img = recordio.unpack_img(rec.read_idx(4))
    assert header.label == 1.0 and header.id == 4 and img.shape == (32, 42, 3)


def test_split_pass_through_pack_label(tmp_path):
    root = _images(tmp_path)
    prefix = str(tmp_path / 'split')
    im2rec.main(['--list', '--recursive', '--train-ratio', '0.6', '--test-ratio', '0.2',
                 prefix, root])
    sizes = [len(open(prefix + s).read().splitlines()) for s in
             ('_train.lst', '_test.lst', '_val.lst')]
    assert sizes == [3, 1, 1]
    lst = str(tmp_path / 'multi.lst')
    with open(lst, 'w') as f:
        f.write('7\t1.5\t2.5\tcat/0.jpg\n')
    im2rec.main(['--pass-through', '--pack-label', str(tmp_path / 'multi'), root])
    rec = recordio.MXIndexedRecordIO(str(tmp_path / 'multi.idx'), str(tmp_path / 'multi.rec'),
                                     'r')
    header, raw = recordio.unpack(rec.read_idx(7))
    assert header.flag == 2 and header.label.tolist() == [1.5, 2.5]
    assert raw == open(os.path.join(root, 'cat', '0.jpg'), 'rb').read()


def test_cli_center_crop_png(tmp_path):
    root = _images(tmp_path)
    prefix = str(tmp_path / 'cli')
    env = dict(os.environ, PYTHONPATH=ROOT)
    im2rec.main(['--list', '--recursive', prefix, root])
    subprocess.run([sys.executable, '-m', 'mxnet.tools.im2rec', '--center-crop',
                    '--encoding', '.png', '--quality', '3', prefix, root], check=True,
                   env=env, capture_output=True)
    rec = recordio.MXRecordIO(prefix + '.rec', 'r')
    shapes = []
    while True:
        s = rec.read()
        if s is None:
            break
        shapes.append(recordio.unpack_img(s)[1].shape)
    assert shapes == [(60, 60, 3)] * 5
    assert np.array(shapes).size == 15
