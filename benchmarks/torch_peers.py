"""The PyTorch-eager peers of the comparison suite, written the idiomatic PyTorch way.

Same shapes, batches and dtype (float32) as the MXNet benchmarks they stand beside:

    .venv/bin/python benchmarks/torch_peers.py --json [--quick] [--threads 1]
        [--resnet-batch 8] [--rec FILE]

Prints one JSON object ``{row name: value}``; latencies are microseconds per call, rates
images (samples) per second. Used by ``run_all.py``.
"""

from __future__ import annotations

import argparse
import json
import struct
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

__all__ = ["lenet", "resnet50", "main"]


def _timeit(fn, min_time=0.3, repeats=5):
    """Best-of-``repeats`` microseconds per call (same scheme as bench_ndarray.py)."""
    fn()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t0 > min_time / repeats or n >= 1 << 20:
            break
        n *= 4
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def tiny_ops(quick):
    mt = 0.1 if quick else 0.3
    g = torch.Generator().manual_seed(0)
    a, b = torch.tensor([[1.0]]), torch.tensor([[2.0]])
    x, y = torch.randn(64, 64, generator=g), torch.randn(64, 64, generator=g)
    res = {"nd.ones((2,3))*2": _timeit(lambda: torch.ones((2, 3)) * 2, mt),
           "a+b (1x1)": _timeit(lambda: a + b, mt),
           "nd.dot 64x64": _timeit(lambda: x @ y, mt)}
    data, label = torch.randn(64, 256, generator=g), torch.randint(0, 10, (64,), generator=g)
    w1 = (torch.randn(256, 128, generator=g) * 0.05).requires_grad_()
    b1 = torch.zeros(128, requires_grad=True)
    w2 = (torch.randn(128, 10, generator=g) * 0.05).requires_grad_()
    b2 = torch.zeros(10, requires_grad=True)
    params = [w1, b1, w2, b2]

    def step():
        loss = F.cross_entropy(torch.relu(data @ w1 + b1) @ w2 + b2, label)
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.1 * p.grad
                p.grad = None

    res["MLP step 64x256-128-10"] = _timeit(step, mt)
    return res


def lenet():
    """The seed's LeNet for 3x32x32 inputs."""
    return nn.Sequential(nn.Conv2d(3, 6, 5), nn.ReLU(), nn.MaxPool2d(2, 2),
                         nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(),
                         nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                         nn.Linear(84, 10))


def bench_lenet(batch, iters):
    net = lenet()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    x = torch.rand(batch, 3, 32, 32) * 2 - 1
    y = torch.randint(0, 10, (batch,))

    def step():
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(net(x), y).backward()
        opt.step()

    step()
    step()
    best = 0.0
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(iters):
            step()
        best = max(best, batch * iters / (time.perf_counter() - t0))
    return best


class _Bottleneck(nn.Module):
    def __init__(self, cin, width, stride):
        super().__init__()
        cout = width * 4
        self.body = nn.Sequential(
            nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width),
            nn.ReLU(inplace=True), nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                       nn.BatchNorm2d(cout))

    def forward(self, x):
        s = x if self.short is None else self.short(x)
        return torch.relu(self.body(x) + s)


def resnet50(num_classes=1000):
    """ResNet-50 v1 (stride on the 3x3 convolution, like MXNet's model zoo v1b/symbol one)."""
    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
              nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for stage, (units, width) in enumerate(((3, 64), (4, 128), (6, 256), (3, 512))):
        for u in range(units):
            layers.append(_Bottleneck(cin, width, 2 if u == 0 and stage > 0 else 1))
            cin = width * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, num_classes)]
    return nn.Sequential(*layers)


def bench_resnet_train(batch, iters, size=224):
    net = resnet50().train()
    x = torch.rand(batch, 3, size, size) * 2 - 1
    y = torch.randint(0, 1000, (batch,))

    def step():
        net.zero_grad(set_to_none=True)
        F.cross_entropy(net(x), y).backward()

    step()
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(iters):
        step()
    return batch * iters / (time.perf_counter() - t0), batch * iters / (time.process_time() - c0)


def bench_resnet_infer(batch, iters):
    net = resnet50().eval()
    x = torch.rand(batch, 3, 224, 224) * 2 - 1
    with torch.inference_mode():
        net(x)
        net(x)
        best = 0.0
        for _ in range(2):
            t0 = time.perf_counter()
            for _ in range(iters):
                net(x)
            best = max(best, batch * iters / (time.perf_counter() - t0))
    return best


class _RecDataset(torch.utils.data.Dataset):
    """JPEG records of an MXNet ``.rec`` file, decoded with OpenCV (no mxnet import)."""

    def __init__(self, path):
        self.recs = []
        with open(path, "rb") as f:
            buf = f.read()
        pos = 0
        while pos + 8 <= len(buf):
            magic, lrec = struct.unpack_from("<II", buf, pos)
            assert magic == 0xCED7230A, "not a RecordIO file"
            n = lrec & ((1 << 29) - 1)
            self.recs.append(buf[pos + 8 + 24:pos + 8 + n])  # skip the 24-byte IRHeader
            pos += 8 + ((n + 3) & ~3)
        self.mean = np.array([123.68, 116.78, 103.94], np.float32)
        self.std = np.array([58.4, 57.1, 57.4], np.float32)

    def __len__(self):
        return len(self.recs)

    def __getitem__(self, i):
        import cv2

        img = cv2.imdecode(np.frombuffer(self.recs[i], np.uint8), cv2.IMREAD_COLOR)[:, :, ::-1]
        h, w = img.shape[:2]
        s = 256 / min(h, w)
        img = cv2.resize(img, (max(224, round(w * s)), max(224, round(h * s))),
                         interpolation=cv2.INTER_LINEAR)
        h, w = img.shape[:2]
        y, x = np.random.randint(0, h - 223), np.random.randint(0, w - 223)
        img = img[y:y + 224, x:x + 224]
        if np.random.rand() < 0.5:
            img = img[:, ::-1]
        img = (img.astype(np.float32) - self.mean) / self.std
        return torch.from_numpy(img.transpose(2, 0, 1).copy()), 0


def bench_rec_loader(path, workers):
    dl = torch.utils.data.DataLoader(_RecDataset(path), batch_size=64, num_workers=workers)
    n = 0
    t0 = time.perf_counter()
    for x, _ in dl:
        n += x.shape[0]
    return n / (time.perf_counter() - t0)


def bench_loader(workers, samples=4096):
    rng = np.random.RandomState(0)
    imgs = torch.from_numpy(rng.randint(0, 256, (samples, 32, 32, 3)).astype(np.uint8))
    labels = torch.from_numpy(rng.randint(0, 10, samples))
    mean = torch.tensor([0.49, 0.48, 0.45]).view(3, 1, 1)
    std = torch.tensor([0.2, 0.2, 0.2]).view(3, 1, 1)

    class DS(torch.utils.data.Dataset):
        def __len__(self):
            return samples

        def __getitem__(self, i):  # ToTensor + Normalize, per sample like the Gluon one
            return (imgs[i].permute(2, 0, 1).float() / 255 - mean) / std, labels[i]

    dl = torch.utils.data.DataLoader(DS(), batch_size=64, shuffle=True, num_workers=workers)
    best = 0.0
    for _ in range(2):
        n = 0
        t0 = time.perf_counter()
        for x, _ in dl:
            n += x.shape[0]
        best = max(best, n / (time.perf_counter() - t0))
    return best


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--iters", type=int, default=6, help="LeNet iterations per round")
    ap.add_argument("--resnet-batch", type=int, default=8, help="ResNet-50 inference batch")
    ap.add_argument("--train-batch", type=int, default=8, help="ResNet-50 fwd+bwd batch")
    ap.add_argument("--train-iters", type=int, default=3)
    ap.add_argument("--rec", default="", help=".rec file for the decode+augment loader")
    ap.add_argument("--rec-workers", type=int, default=2)
    ap.add_argument("--only", default="", help="comma-separated groups: tiny,lenet,resnet,data")
    a = ap.parse_args(argv)
    if a.threads:
        torch.set_num_threads(a.threads)
    groups = set(a.only.split(",")) if a.only else {"tiny", "lenet", "resnet", "data"}
    res = {}
    if "tiny" in groups:
        res.update(tiny_ops(a.quick))
    if "lenet" in groups:
        res["LeNet train bs128 plain"] = bench_lenet(128, a.iters)
    if "resnet" in groups:
        wall, cpu = bench_resnet_train(a.train_batch, a.train_iters)
        res[f"ResNet-50 fwd+bwd bs{a.train_batch}"] = wall
        res[f"ResNet-50 fwd+bwd bs{a.train_batch} per CPU-s"] = cpu
        res[f"ResNet-50 inference bs{a.resnet_batch}"] = bench_resnet_infer(
            a.resnet_batch, max(1, a.iters // 2))
    if "data" in groups:
        if a.rec:
            res["rec decode+augment img/s"] = bench_rec_loader(a.rec, a.rec_workers)
        res["DataLoader samples/s (0 workers)"] = bench_loader(0)
        res["DataLoader samples/s (2 workers)"] = bench_loader(2)
    print(json.dumps(res) if a.json else "\n".join(f"{k:40s} {v:12.1f}" for k, v in res.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
