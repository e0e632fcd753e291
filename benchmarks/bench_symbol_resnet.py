"""Forward+backward images/sec of a ResNet-50 built with ``mx.sym``, through ``simple_bind``.

Runs mxnet-ng (eager executor, then with the torch.compile switch) and real MXNet 1.9.1
(the oracle python) on the same network and shapes, in one run, and prints the ratios.

    .venv/bin/python benchmarks/bench_symbol_resnet.py [--batch 32] [--size 224] [--iters 3]
        [--oracle /root/.cache/mxnet-oracle/bin/python] [--threads N]

The same file runs under the oracle, so both sides build the identical graph. Each side is
a long-lived process that binds once and warms up; the timed steps then alternate between
the processes (oracle, ours, oracle, ours...), so that the load of other jobs on a shared
machine hits both sides alike, and the medians are compared. ``--worker`` runs one side
alone (what ``run_all.py`` uses).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


def resnet50(mx, num_classes: int = 1000):
    """ResNet-50 v1 (bottleneck units 3-4-6-3) in the symbolic API."""
    sym = mx.sym
    eps = 2e-5

    def conv_bn(x, nf, k, s, p, name, act=True):
        x = sym.Convolution(x, num_filter=nf, kernel=(k, k), stride=(s, s), pad=(p, p),
                            no_bias=True, name=name + "_conv")
        x = sym.BatchNorm(x, fix_gamma=False, eps=eps, name=name + "_bn")
        return sym.Activation(x, act_type="relu", name=name + "_relu") if act else x

    def unit(x, nf, stride, dim_match, name):
        b = conv_bn(x, nf // 4, 1, 1, 0, name + "_a")
        b = conv_bn(b, nf // 4, 3, stride, 1, name + "_b")
        b = conv_bn(b, nf, 1, 1, 0, name + "_c", act=False)
        sc = x if dim_match else conv_bn(x, nf, 1, stride, 0, name + "_sc", act=False)
        return sym.Activation(b + sc, act_type="relu", name=name + "_out")

    data = sym.Variable("data")
    x = conv_bn(data, 64, 7, 2, 3, "stem")
    x = sym.Pooling(x, kernel=(3, 3), stride=(2, 2), pad=(1, 1), pool_type="max", name="pool0")
    for stage, (units, nf) in enumerate(((3, 256), (4, 512), (6, 1024), (3, 2048))):
        for u in range(units):
            stride = 2 if (u == 0 and stage > 0) else 1
            x = unit(x, nf, stride, u > 0, f"stage{stage + 1}_unit{u + 1}")
    x = sym.Pooling(x, global_pool=True, kernel=(7, 7), pool_type="avg", name="pool1")
    x = sym.Flatten(x, name="flat")
    x = sym.FullyConnected(x, num_hidden=num_classes, name="fc")
    return sym.SoftmaxOutput(x, name="softmax")


def _setup(mx, batch: int, size: int, compile_: bool = False):
    """Bind the network with fixed random weights; return the training-step function."""
    import numpy as np

    net = resnet50(mx)
    kwargs = {"data": (batch, 3, size, size)}
    if compile_:
        kwargs["compile"] = True
    ex = net.simple_bind(mx.cpu(), **kwargs)
    rng = np.random.RandomState(0)
    for name, arr in ex.arg_dict.items():
        if name == "softmax_label":
            arr[:] = rng.randint(0, 1000, arr.shape)
        else:
            arr[:] = rng.normal(0, 0.05, arr.shape)
    for arr in ex.aux_dict.values():
        arr[:] = 1.0

    def step():
        ex.forward(is_train=True)
        ex.backward()
        for g in ex.grad_arrays:
            if g is not None:
                g.wait_to_read()

    return step


def measure(mx, batch: int, size: int, iters: int, compile_: bool = False) -> dict:
    """One process, ``iters`` timed steps after a warm-up (what ``run_all.py`` calls)."""
    step = _setup(mx, batch, size, compile_)
    t0 = time.perf_counter()
    step()  # warm-up (compilation happens here with the switch on)
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    c0 = time.process_time()
    for _ in range(iters):
        step()
    dt = time.perf_counter() - t0
    dc = time.process_time() - c0
    return {"img_per_s": batch * iters / dt, "img_per_cpu_s": batch * iters / dc,
            "first_step_s": first}


def serve(mx, batch: int, size: int, compile_: bool, warmup: int = 6) -> None:
    """Step server: warm up, say ready, then run one timed step per ``step`` line on stdin.

    Warm-up steps let allocator pools and caches settle: MXNet plans its memory at bind;
    mxnet-ng's heap (see mxnet/_malloc.py) grows to its steady size in the first steps."""
    step = _setup(mx, batch, size, compile_)
    t0 = time.perf_counter()
    step()
    first = time.perf_counter() - t0
    for _ in range(warmup - 1):
        step()
    print(json.dumps({"first_step_s": first}), flush=True)
    for line in sys.stdin:
        if line.strip() != "step":
            break
        t0, c0 = time.perf_counter(), time.process_time()
        step()
        print(json.dumps({"wall": time.perf_counter() - t0, "cpu": time.process_time() - c0}),
              flush=True)


class _Server:
    def __init__(self, label: str, cmd: list, env: dict):
        self.label = label
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=env, cwd="/tmp")
        self.first = self._read()["first_step_s"]
        self.walls: list = []
        self.cpus: list = []

    def _read(self) -> dict:
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.label}: the benchmark process ended early")
            if line.startswith("{"):
                return json.loads(line)

    def step(self) -> None:
        self.proc.stdin.write("step\n")
        self.proc.stdin.flush()
        r = self._read()
        self.walls.append(r["wall"])
        self.cpus.append(r["cpu"])

    def close(self) -> None:
        try:
            self.proc.stdin.write("stop\n")
            self.proc.stdin.flush()
        except OSError:
            pass
        self.proc.wait(timeout=120)


def _median(xs: list) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2] if len(xs) % 2 else (xs[len(xs) // 2 - 1] + xs[len(xs) // 2]) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--iters", type=int, default=3, help="timed steps per side")
    ap.add_argument("--warmup", type=int, default=6, help="untimed steps per side first")
    ap.add_argument("--threads", type=int, default=0, help="threads for both (0: defaults)")
    ap.add_argument("--oracle", default="/root/.cache/mxnet-oracle/bin/python")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile switch run")
    ap.add_argument("--worker", choices=["oracle"], help=argparse.SUPPRESS)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--compile", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker == "oracle" or a.serve:
        import mxnet as mx

        if a.threads and "torch" in sys.modules:
            sys.modules["torch"].set_num_threads(a.threads)
        if a.serve:
            serve(mx, a.batch, a.size, a.compile, a.warmup)
        else:
            print(json.dumps(measure(mx, a.batch, a.size, a.iters)))
        return
    env = dict(os.environ)
    if a.threads:
        env["OMP_NUM_THREADS"] = str(a.threads)
        env["MXNET_CPU_WORKER_NTHREADS"] = str(a.threads)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours_env = dict(env, PYTHONPATH=repo + os.pathsep + env.get("PYTHONPATH", ""))
    me = os.path.abspath(__file__)
    args = ["--serve", "--batch", str(a.batch), "--size", str(a.size), "--threads",
            str(a.threads), "--warmup", str(a.warmup)]
    oracle = None
    if os.path.exists(a.oracle):
        oracle = _Server("mxnet 1.9.1 (oracle)", [a.oracle, me, *args], env)
    else:
        print(f"oracle python {a.oracle} not found: mxnet-ng only", file=sys.stderr)
    phases = [("mxnet-ng eager", [])] + ([] if a.no_compile else
                                          [("mxnet-ng torch.compile", ["--compile"])])
    rows = []
    for label, extra in phases:
        ours = _Server(label, [sys.executable, me, *args, *extra], ours_env)
        mark = len(oracle.walls) if oracle else 0
        for _ in range(a.iters):  # alternate the two processes: machine load hits both alike
            if oracle:
                oracle.step()
            ours.step()
        ours.close()
        rows.append((ours, mark))
    if oracle:
        oracle.close()
    print(f"ResNet-50 forward+backward, batch {a.batch}, {a.size}x{a.size}, {a.warmup} warm-up "
          f"and {a.iters} timed steps per side alternating between the processes, threads "
          f"{a.threads or 'default'}; median step time")

    def show(srv, walls, cpus, ref=None):
        wall, cpu = _median(walls), _median(cpus)
        ratio = ""
        if ref is not None:
            ratio = f"  ({ref[0] / wall:.2f}x oracle wall, {ref[1] / cpu:.2f}x per CPU second)"
        print(f"  {srv.label:24s} {a.batch / wall:7.2f} img/s wall, {a.batch / cpu:7.2f} "
              f"img/CPU-s, first step {srv.first:.1f}s{ratio}")

    for srv, mark in rows:
        ref = None
        if oracle:
            ow, oc = oracle.walls[mark:mark + a.iters], oracle.cpus[mark:mark + a.iters]
            show(oracle, ow, oc)
            ref = (_median(ow), _median(oc))
        show(srv, srv.walls, srv.cpus, ref)


if __name__ == "__main__":
    main()
