"""Data pipeline speed: ImageRecordIter decode+augment and Gluon DataLoader throughput.

Uses the public MXNet API only, so the same file runs under mxnet-ng and under real MXNet:

    .venv/bin/python benchmarks/bench_data.py            # this interpreter, a table
    .venv/bin/python benchmarks/bench_data.py --compare  # mxnet-ng vs MXNet 1.9.1

The ``.rec`` is built once (with OpenCV, in this interpreter) from random crops of the photos
in ``../shared/data`` (``--records``, default 2000); both interpreters then read the same file.
``--compare`` prints images (or samples) per second and the ratio mxnet-ng / MXNet (above 1
means mxnet-ng is faster).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ORACLE = os.path.expanduser("~/.cache/mxnet-oracle/bin/python")
PHOTOS = [os.path.join(REPO, "tests", "image", n) for n in ("china.jpg", "flower.jpg")]


def build_rec(path, n):
    """Write ``n`` JPEG records (random 240..427 x 300..640 crops, scalar labels)."""
    import cv2
    import numpy as np

    from mxnet import recordio

    rng = np.random.RandomState(0)
    imgs = [cv2.imread(p) for p in PHOTOS]
    rec = recordio.MXIndexedRecordIO(path[:-4] + ".idx", path, "w")
    for i in range(n):
        img = imgs[i % 2]
        h, w = rng.randint(240, 428), rng.randint(300, 641)
        y, x = rng.randint(0, 428 - h), rng.randint(0, 641 - w)
        hdr = recordio.IRHeader(0, float(i % 10), i, 0)
        rec.write_idx(i, recordio.pack_img(hdr, img[y:y + h, x:x + w], quality=90))
    rec.close()


def bench_record_iter(path, threads):
    from mxnet import io

    it = io.ImageRecordIter(path_imgrec=path, data_shape=(3, 224, 224), batch_size=64,
                            resize=256, rand_crop=True, rand_mirror=True, shuffle=False,
                            mean_r=123.68, mean_g=116.78, mean_b=103.94, std_r=58.4,
                            std_g=57.1, std_b=57.4, preprocess_threads=threads)
    n = 0
    t0 = time.perf_counter()
    for batch in it:
        batch.data[0].wait_to_read()
        n += batch.data[0].shape[0] - batch.pad
    return n / (time.perf_counter() - t0)


def bench_loader(workers, samples=4096):
    import numpy as np

    import mxnet as mx
    from mxnet.gluon.data import ArrayDataset, DataLoader
    from mxnet.gluon.data.vision import transforms as T

    rng = np.random.RandomState(0)
    imgs = [mx.nd.array(rng.randint(0, 256, (32, 32, 3)), dtype="uint8")
            for _ in range(samples)]
    ds = ArrayDataset(imgs, rng.randint(0, 10, samples).astype("int32"))
    tf = T.Compose([T.ToTensor(), T.Normalize((0.49, 0.48, 0.45), (0.2, 0.2, 0.2))])
    dl = DataLoader(ds.transform_first(tf), batch_size=64, shuffle=True, num_workers=workers)
    best = 0.0
    for _ in range(2):
        n = 0
        t0 = time.perf_counter()
        for x, _y in dl:
            x.wait_to_read()
            n += x.shape[0]
        best = max(best, n / (time.perf_counter() - t0))
    return best


def run(rec, threads):
    return {"ImageRecordIter imgs/s (threads=%d)" % threads: bench_record_iter(rec, threads),
            "DataLoader samples/s (0 workers)": bench_loader(0),
            "DataLoader samples/s (2 workers)": bench_loader(2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rec", default=None, help="existing .rec to read (skips building one)")
    ap.add_argument("--records", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=2, help="preprocess_threads")
    args = ap.parse_args()
    if args.compare:
        sys.path.insert(0, REPO)
        tmp = tempfile.mkdtemp()
        rec = os.path.join(tmp, "bench.rec")
        build_rec(rec, args.records)
        res = {}
        oracle = os.environ.get("MXNET_ORACLE_PYTHON", DEFAULT_ORACLE)
        for who, py in (("mxnet-ng", sys.executable), ("MXNet 1.9.1", oracle)):
            env = dict(os.environ, PYTHONPATH=REPO if who == "mxnet-ng" else "")
            out = subprocess.run([py, os.path.abspath(__file__), "--json", "--rec", rec,
                                  "--threads", str(args.threads)], check=True, env=env,
                                 capture_output=True, text=True, cwd=tmp).stdout
            res[who] = json.loads(out.strip().splitlines()[-1])
        print("%-40s %12s %12s %8s" % ("benchmark", "mxnet-ng", "MXNet", "ratio"))
        for k in res["mxnet-ng"]:
            a, b = res["mxnet-ng"][k], res["MXNet 1.9.1"][k]
            print("%-40s %12.1f %12.1f %8.2f" % (k, a, b, a / b))
        return
    rec = args.rec
    if rec is None:
        rec = os.path.join(tempfile.mkdtemp(), "bench.rec")
        build_rec(rec, args.records)
    res = run(rec, args.threads)
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print("%-40s %12.1f" % (k, v))


if __name__ == "__main__":
    main()
