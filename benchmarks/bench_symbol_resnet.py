"""Forward+backward images/sec of a ResNet-50 built with ``mx.sym``, through ``simple_bind``.

Runs mxnet-ng (eager executor, then with the torch.compile switch) and real MXNet 1.9.1
(the oracle python) on the same network and shapes, in one run, and prints the ratios.

    .venv/bin/python benchmarks/bench_symbol_resnet.py [--batch 32] [--size 224] [--iters 3]
        [--oracle /root/.cache/mxnet-oracle/bin/python] [--threads N]

The same file runs under the oracle (``--worker``) so both sides build the identical graph.
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


def measure(mx, batch: int, size: int, iters: int, compile_: bool = False) -> dict:
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--threads", type=int, default=0, help="threads for both (0: defaults)")
    ap.add_argument("--oracle", default="/root/.cache/mxnet-oracle/bin/python")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile switch run")
    ap.add_argument("--worker", choices=["oracle"], help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker == "oracle":
        import mxnet as mx

        print(json.dumps(measure(mx, a.batch, a.size, a.iters)))
        return
    env = dict(os.environ)
    if a.threads:
        env["OMP_NUM_THREADS"] = str(a.threads)
        env["MXNET_CPU_WORKER_NTHREADS"] = str(a.threads)
    oracle = None
    if os.path.exists(a.oracle):
        cmd = [a.oracle, os.path.abspath(__file__), "--worker", "oracle", "--batch",
               str(a.batch), "--size", str(a.size), "--iters", str(a.iters)]
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd="/tmp")
        if out.returncode == 0:
            oracle = json.loads(out.stdout.strip().splitlines()[-1])
        else:
            print("oracle run failed:", out.stderr[-2000:], file=sys.stderr)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import torch

    import mxnet as mx
    import mxnet.symbol

    mx.sym = mxnet.symbol
    if a.threads:
        torch.set_num_threads(a.threads)
    rows = [("mxnet 1.9.1 (oracle)", oracle)]
    rows.append(("mxnet-ng eager", measure(mx, a.batch, a.size, a.iters)))
    if not a.no_compile:
        rows.append(("mxnet-ng torch.compile", measure(mx, a.batch, a.size, a.iters, True)))
    print(f"ResNet-50 forward+backward, batch {a.batch}, {a.size}x{a.size}, {a.iters} timed "
          f"steps, torch threads {torch.get_num_threads()} (CPU-second rates are the stable "
          "measure on a shared machine)")
    for name, r in rows:
        if r is None:
            print(f"  {name:28s} n/a")
            continue
        ratio = ""
        if oracle:
            ratio = (f"  ({r['img_per_s'] / oracle['img_per_s']:.2f}x oracle wall, "
                     f"{r['img_per_cpu_s'] / oracle['img_per_cpu_s']:.2f}x per CPU second)")
        print(f"  {name:24s} {r['img_per_s']:7.2f} img/s wall, {r['img_per_cpu_s']:7.2f} img/CPU-s,"
              f" first step {r['first_step_s']:.1f}s{ratio}")


if __name__ == "__main__":
    main()
