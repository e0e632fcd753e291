"""Long runs: flat resident memory and no leaked threads, processes or file handles.

The loops are a few hundred iterations (the issue's 2,000-iteration runs are the same code
with ``MXNET_LONG_RUN_SCALE=7``); the trend after warm-up must stay flat.
"""

from __future__ import annotations

import gc
import os
import threading
import time

import numpy as np
import pytest

import mxnet as mx
from mxnet import autograd, gluon
from tests.reliability import _stats

SCALE = float(os.environ.get("MXNET_LONG_RUN_SCALE", "1"))
PAGE = os.sysconf("SC_PAGE_SIZE")
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "compat", "golden")


@pytest.fixture(autouse=True)
def _one_thread():
    """One intra-op thread: on a loaded 2-core machine OpenMP spinning makes tiny ops ~30x
    slower, which would only measure the neighbours."""
    import torch

    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE / (1 << 20)


def _children() -> set[int]:
    me = os.getpid()
    out = set()
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me and fields[0] != "Z":
                out.add(int(d))
    return out


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def track(name: str, step, iters: int, warmup: int, max_growth_mib: float = 12.0) -> None:
    """Run ``step(i)`` ``warmup + iters`` times; RSS after warm-up must not trend upward."""
    iters = int(iters * SCALE)
    for i in range(warmup):
        step(i)
    gc.collect()
    samples = []
    every = max(1, iters // 10)
    for i in range(iters):
        step(warmup + i)
        if i % every == every - 1:
            gc.collect()
            samples.append(rss_mib())
    first, last = samples[0], samples[-1]
    slope = np.polyfit(np.arange(len(samples)), samples, 1)[0] * len(samples)
    _stats.MEMORY[name] = (first, last, iters)
    assert last - first < max_growth_mib and slope < max_growth_mib, (
        f"{name}: resident memory grew from {first:.1f} to {last:.1f} MiB "
        f"(trend {slope:+.1f} MiB) over {iters} iterations: {samples}")


def _mlp():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(32, activation="relu"), gluon.nn.BatchNorm(),
            gluon.nn.Dropout(0.1), gluon.nn.Dense(4))
    net.initialize(mx.init.Xavier())
    return net


@pytest.mark.parametrize("hybridize", [False, True])
def test_gluon_training_memory_flat(hybridize):
    mx.random.seed(0)
    net = _mlp()
    if hybridize:
        net.hybridize()
    trainer = gluon.Trainer(net.collect_params(), "adam", {"learning_rate": 1e-3})
    loss_fn = gluon.loss.SoftmaxCrossEntropyLoss()
    x = mx.nd.array(np.random.RandomState(0).randn(16, 10))
    y = mx.nd.array(np.arange(16) % 4)

    def step(i):
        with autograd.record():
            loss = loss_fn(net(x), y)
        loss.backward()
        trainer.step(16)
        loss.asnumpy()

    track(f"gluon loop ({'hybridized' if hybridize else 'plain'})", step, 300, 30)


def test_module_fit_memory_flat():
    data = mx.sym.Variable("data")
    net = mx.sym.FullyConnected(data, num_hidden=16, name="fc1")
    net = mx.sym.Activation(net, act_type="relu")
    net = mx.sym.SoftmaxOutput(mx.sym.FullyConnected(net, num_hidden=3, name="fc2"),
                               name="softmax")
    rng = np.random.RandomState(0)
    it = mx.io.NDArrayIter(rng.randn(40, 8).astype(np.float32), np.arange(40) % 3,
                           batch_size=8)
    mod = mx.mod.Module(net, context=mx.cpu())
    mod.bind(data_shapes=it.provide_data, label_shapes=it.provide_label)
    mod.init_params()
    mod.init_optimizer(optimizer="sgd", optimizer_params={"learning_rate": 0.01})

    def step(i):  # one epoch of 5 batches per step, as Module.fit runs them
        mod.fit(it, num_epoch=1, begin_epoch=0, eval_metric="acc")

    track("Module.fit epochs", step, 60, 10)


class _Squares(gluon.data.Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return np.full((8,), i, np.float32), i


def test_dataloader_workers_memory_flat_and_no_leaks():
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # one per process, shared by all loaders: not a leak
    threads0, kids0, fds0 = threading.active_count(), _children(), _fds()
    holder = [gluon.data.DataLoader(_Squares(), batch_size=8, num_workers=2)]
    total = [0.0]

    def step(i):
        for x, _ in holder[0]:
            total[0] += float(x.sum().asscalar())

    track("DataLoader num_workers=2 epochs", step, 20, 4, max_growth_mib=16.0)
    holder.clear()
    gc.collect()
    _wait_clean(threads0, kids0, fds0, "DataLoader(num_workers=2)")


def _wait_clean(threads0: int, kids0: set[int], fds0: int, what: str) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        gc.collect()
        if (threading.active_count() <= threads0 and _children() <= kids0
                and _fds() <= fds0):
            break
        time.sleep(0.05)
    assert threading.active_count() <= threads0, f"{what} leaked threads: " \
        f"{[t.name for t in threading.enumerate()]}"
    assert _children() <= kids0, f"{what} leaked processes {_children() - kids0}"
    assert _fds() <= fds0, f"{what} leaked {_fds() - fds0} file descriptors"
    _stats.FAULTS[f"leaks after {what}"] = "none (threads, processes, fds)"


def test_prefetching_iter_no_leaks():
    threads0, kids0, fds0 = threading.active_count(), _children(), _fds()
    for _ in range(3):
        it = mx.io.PrefetchingIter([mx.io.NDArrayIter(np.zeros((8, 2)), batch_size=2),
                                    mx.io.NDArrayIter(np.ones((8, 2)), batch_size=2)])
        assert len(list(it)) == 4
        del it
    _wait_clean(threads0, kids0, fds0, "PrefetchingIter")


def test_image_record_iter_no_leaks():
    threads0, kids0, fds0 = threading.active_count(), _children(), _fds()
    for _ in range(2):
        it = mx.io.ImageRecordIter(path_imgrec=os.path.join(GOLDEN, "data", "images.rec"),
                                   path_imgidx=os.path.join(GOLDEN, "data", "images.idx"),
                                   data_shape=(3, 16, 16), batch_size=2,
                                   preprocess_threads=2, prefetch_buffer=2)
        n = sum(1 for _ in it)
        assert n > 0
        it.reset()
        next(iter(it))  # stop mid-epoch: the prefetcher must still go away
        del it
    _wait_clean(threads0, kids0, fds0, "ImageRecordIter")


def test_dataloader_worker_failure_no_leaks():
    class Bad(_Squares):
        def __getitem__(self, i):
            if i == 13:
                raise ValueError("bad sample 13")
            return super().__getitem__(i)

    threads0, kids0, fds0 = threading.active_count(), _children(), _fds()
    loader = gluon.data.DataLoader(Bad(), batch_size=8, num_workers=2)
    with pytest.raises(ValueError, match="bad sample 13"):
        for _ in loader:
            pass
    del loader
    _wait_clean(threads0, kids0, fds0, "failing DataLoader worker")
