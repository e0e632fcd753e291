"""Make image lists (``.lst``) and image RecordIO files (``.rec`` + ``.idx``).

Usage (MXNet's ``im2rec.py`` options)::

    python -m mxnet.tools.im2rec --list --recursive PREFIX ROOT   # write PREFIX.lst
    python -m mxnet.tools.im2rec --resize 256 --quality 90 PREFIX ROOT  # PREFIX*.lst -> .rec

Examples
--------
>>> main(['--list', '--recursive', 'data/train', 'images/'])  # doctest: +SKIP
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import cv2

from .. import recordio

__all__ = ['list_image', 'write_list', 'make_list', 'read_list', 'image_encode', 'main']


def list_image(root: str, recursive: bool, exts: list) -> Iterator[tuple]:
    """Yield ``(index, relative path, label)`` for the images under ``root``.

    With ``recursive`` every folder gets its own label (in walk order); otherwise only the
    images directly in ``root`` are listed, with label 0.
    """
    i = 0
    if recursive:
        cat: dict = {}
        for path, dirs, files in os.walk(root, followlinks=True):
            dirs.sort()
            files.sort()
            for fname in files:
                fpath = os.path.join(path, fname)
                if os.path.isfile(fpath) and os.path.splitext(fname)[1].lower() in exts:
                    if path not in cat:
                        cat[path] = len(cat)
                    yield i, os.path.relpath(fpath, root), cat[path]
                    i += 1
        for k, v in sorted(cat.items(), key=lambda x: x[1]):
            print(os.path.relpath(k, root), v)
        return
    for fname in sorted(os.listdir(root)):
        fpath = os.path.join(root, fname)
        if os.path.isfile(fpath) and os.path.splitext(fname)[1].lower() in exts:
            yield i, os.path.relpath(fpath, root), 0
            i += 1


def write_list(path_out: str, image_list: list) -> None:
    """Write ``index\\tlabel...\\tpath`` lines (labels as ``%f``)."""
    tmp = path_out + '.tmp%d' % os.getpid()
    with open(tmp, 'w') as fout:
        for item in image_list:
            line = '%d\t' % item[0]
            for j in item[2:]:
                line += '%f\t' % j
            fout.write(line + '%s\n' % item[1])
    os.replace(tmp, path_out)


def make_list(args: argparse.Namespace) -> None:
    """Write ``prefix[_chunk][_train|_val|_test].lst`` for the images under ``args.root``."""
    image_list = list(list_image(args.root, args.recursive, args.exts))
    if args.shuffle is True:
        random.seed(100)
        random.shuffle(image_list)
    n = len(image_list)
    chunk_size = (n + args.chunks - 1) // args.chunks
    for i in range(args.chunks):
        chunk = image_list[i * chunk_size:(i + 1) * chunk_size]
        suffix = '_%d' % i if args.chunks > 1 else ''
        sep = int(chunk_size * args.train_ratio)
        sep_test = int(chunk_size * args.test_ratio)
        if args.train_ratio == 1.0:
            write_list(args.prefix + suffix + '.lst', chunk)
            continue
        if args.test_ratio:
            write_list(args.prefix + suffix + '_test.lst', chunk[:sep_test])
        if args.train_ratio + args.test_ratio < 1.0:
            write_list(args.prefix + suffix + '_val.lst', chunk[sep_test + sep:])
        write_list(args.prefix + suffix + '_train.lst', chunk[sep_test:sep_test + sep])


def read_list(path_in: str) -> Iterator[list]:
    """Yield ``[index, path, label...]`` from a ``.lst`` file (bad lines are reported)."""
    with open(path_in) as fin:
        for line in fin:
            parts = [p.strip() for p in line.strip().split('\t')]
            if len(parts) < 3:
                print('lst should have at least has three parts, but only has %s parts for %s'
                      % (len(parts), parts))
                continue
            try:
                yield [int(parts[0])] + [parts[-1]] + [float(p) for p in parts[1:-1]]
            except ValueError as e:
                print('Parsing lst met error for %s, detail: %s' % (parts, e))


def image_encode(args: argparse.Namespace, item: list) -> bytes | None:
    """Read, crop/resize and encode one image into a packed record (None on failure)."""
    fullpath = os.path.join(args.root, item[1])
    if len(item) > 3 and args.pack_label:
        header = recordio.IRHeader(0, item[2:], item[0], 0)
    else:
        header = recordio.IRHeader(0, item[2], item[0], 0)
    if args.pass_through:
        try:
            with open(fullpath, 'rb') as fin:
                return recordio.pack(header, fin.read())
        except OSError as e:
            print('pack_img error:', item[1], e)
            return None
    img = cv2.imread(fullpath, args.color)
    if img is None:
        print('imread read blank (None) image for file: %s' % fullpath)
        return None
    if args.center_crop:
        h, w = img.shape[:2]
        if h > w:
            m = (h - w) // 2
            img = img[m:m + w, :]
        else:
            m = (w - h) // 2
            img = img[:, m:m + h]
    if args.resize:
        h, w = img.shape[:2]
        size = (args.resize, h * args.resize // w) if h > w else (w * args.resize // h,
                                                                  args.resize)
        img = cv2.resize(img, size)
    try:
        return recordio.pack_img(header, img, quality=args.quality, img_fmt=args.encoding)
    except Exception as e:  # noqa: BLE001 - reported per file, the others go on
        traceback.print_exc()
        print('pack_img error on file: %s' % fullpath, e)
        return None


def _make_rec(args: argparse.Namespace, fname: str, working_dir: str) -> None:
    stem = os.path.splitext(os.path.basename(fname))[0]
    record = recordio.MXIndexedRecordIO(os.path.join(working_dir, stem + '.idx'),
                                        os.path.join(working_dir, stem + '.rec'), 'w')
    items = list(read_list(fname))
    pre = time.time()
    nthread = max(1, args.num_thread)
    with ThreadPoolExecutor(nthread) as pool:
        window = 4 * nthread
        futures = [pool.submit(image_encode, args, it) for it in items[:window]]
        for count, item in enumerate(items):
            s = futures[count].result()
            futures[count] = None
            if count + window < len(items):
                futures.append(pool.submit(image_encode, args, items[count + window]))
            if s is not None:
                record.write_idx(item[0], s)
            if count % 1000 == 0:
                now = time.time()
                print('time:', now - pre, ' count:', count)
                pre = now
    record.close()


def parse_args(argv: list | None = None) -> argparse.Namespace:
    """Parse MXNet's im2rec command line."""
    parser = argparse.ArgumentParser(
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
        description='Create an image list or make a record database by reading from an '
                    'image list')
    parser.add_argument('prefix', help='prefix of input/output lst and rec files.')
    parser.add_argument('root', help='path to folder containing images.')
    cg = parser.add_argument_group('Options for creating image lists')
    cg.add_argument('--list', action='store_true',
                    help='create image list(s) <prefix>.lst by traversing root; otherwise read '
                         '<prefix>*.lst and create <prefix>.rec')
    cg.add_argument('--exts', nargs='+', default=['.jpeg', '.jpg', '.png'],
                    help='list of acceptable image extensions.')
    cg.add_argument('--chunks', type=int, default=1, help='number of chunks.')
    cg.add_argument('--train-ratio', type=float, default=1.0,
                    help='Ratio of images to use for training.')
    cg.add_argument('--test-ratio', type=float, default=0, help='Ratio of images to use for '
                                                                'testing.')
    cg.add_argument('--recursive', action='store_true',
                    help='walk subfolders and give each folder its own label')
    cg.add_argument('--no-shuffle', dest='shuffle', action='store_false',
                    help='keep the traversal order in <prefix>.lst')
    rg = parser.add_argument_group('Options for creating database')
    rg.add_argument('--pass-through', action='store_true',
                    help='whether to skip transformation and save image as is')
    rg.add_argument('--resize', type=int, default=0,
                    help='resize the shorter edge of image to the newsize')
    rg.add_argument('--center-crop', action='store_true',
                    help='crop the center square of the image')
    rg.add_argument('--quality', type=int, default=95,
                    help='JPEG quality for encoding, 1-100; or PNG compression, 1-9')
    rg.add_argument('--num-thread', type=int, default=1,
                    help='number of threads to use for encoding (order is kept)')
    rg.add_argument('--color', type=int, default=1, choices=[-1, 0, 1],
                    help='1: color, 0: grayscale, -1: unchanged (with alpha)')
    rg.add_argument('--encoding', type=str, default='.jpg', choices=['.jpg', '.png'],
                    help='specify the encoding of the images.')
    rg.add_argument('--pack-label', action='store_true',
                    help='Whether to also pack multi dimensional label in the record file')
    args = parser.parse_args(argv)
    args.prefix = os.path.abspath(args.prefix)
    args.root = os.path.abspath(args.root)
    return args


def main(argv: list | None = None) -> int:
    """Run im2rec with command-line arguments ``argv``."""
    args = parse_args(argv)
    if args.list:
        make_list(args)
        return 0
    working_dir = args.prefix if os.path.isdir(args.prefix) else os.path.dirname(args.prefix)
    count = 0
    for fname in sorted(os.listdir(working_dir)):
        fname = os.path.join(working_dir, fname)
        if os.path.isfile(fname) and fname.startswith(args.prefix) and fname.endswith('.lst'):
            print('Creating .rec file from', fname, 'in', working_dir)
            count += 1
            _make_rec(args, fname, working_dir)
    if not count:
        print('Did not find and list file with prefix %s' % args.prefix)
    return 0


if __name__ == '__main__':
    sys.exit(main())
