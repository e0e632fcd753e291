"""``mxnet-benchmarks``: tf_cnn_benchmarks-style throughput measurement over ``mx.mod``.

Example::

    python -m mxnet_benchmarks --model resnet50 --batch_size 16 --num_batches 20
    python -m mxnet_benchmarks --model alexnet --forward_only true --device cpu

Prints per-batch times, then ``__results.time__`` (mean ms per batch),
``__results.throughput__`` (images/sec) and a JSON summary line.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time

import numpy as np

import mxnet as mx

from .model_factory import MODELS, ModelFactory


def str2bool(v: str) -> bool:
    return str(v).lower() in ("true", "1", "yes", "on")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mxnet-benchmarks", description=__doc__.splitlines()[0])
    p.add_argument("--model", type=str, required=True, help=f"one of {', '.join(sorted(MODELS))}")
    p.add_argument("--forward_only", type=str2bool, default=False,
                   help="benchmark inference (true) or training (false)")
    p.add_argument("--batch_size", type=int, default=16, help="per-device batch size")
    p.add_argument("--num_batches", type=int, default=10, help="benchmark iterations")
    p.add_argument("--num_warmup_batches", type=int, default=2, help="warm-up iterations")
    p.add_argument("--num_gpus", type=int, default=1, help="GPUs to use (with --device gpu)")
    p.add_argument("--device", type=str, default="cpu", choices=["cpu", "gpu"])
    p.add_argument("--kv_store", type=str, default="device",
                   choices=["local", "device", "dist_sync", "dist_device_sync", "dist_async"])
    p.add_argument("--data_dir", type=str, default="",
                   help="RecordIO .rec file or directory of them; synthetic data when empty")
    p.add_argument("--dtype", type=str, default="float32",
                   choices=["float32", "float16", "bfloat16"])
    p.add_argument("--num_cpu_devices", type=int, default=1,
                   help="CPU contexts to split the batch over (data parallel on one host)")
    return p


def _contexts(args):
    if args.device == "gpu":
        n = mx.context.num_gpus()
        if n < args.num_gpus:
            raise SystemExit(f"--num_gpus {args.num_gpus} requested but {n} GPUs are visible")
        return [mx.gpu(i) for i in range(args.num_gpus)]
    return [mx.cpu(i) for i in range(args.num_cpu_devices)]


def _rec_files(data_dir):
    if os.path.isdir(data_dir):
        return sorted(os.path.join(data_dir, f) for f in os.listdir(data_dir)
                      if f.endswith(".rec"))
    return [data_dir]


def _data_iter(args, model, batch_size, kv):
    shape = model.input_shape
    if args.data_dir:
        recs = _rec_files(args.data_dir)
        if not recs:
            raise SystemExit(f"no .rec files in {args.data_dir}")
        return mx.io.ImageRecordIter(
            path_imgrec=recs[0], data_shape=shape, batch_size=batch_size, shuffle=True,
            rand_crop=True, rand_mirror=True, num_parts=kv.num_workers if kv else 1,
            part_index=kv.rank if kv else 0, preprocess_threads=max(1, os.cpu_count() or 1))
    rng = np.random.RandomState(0)
    data = mx.nd.array(rng.uniform(-1, 1, (batch_size,) + shape), dtype=args.dtype
                       if args.dtype != "bfloat16" else "float32")
    label = mx.nd.array(rng.randint(0, model.num_classes, (batch_size,)))
    batch = mx.io.DataBatch(data=[data], label=[label],
                            provide_data=[mx.io.DataDesc("data", data.shape, data.dtype)],
                            provide_label=[mx.io.DataDesc("softmax_label", label.shape)])

    class _Synthetic:
        provide_data = batch.provide_data
        provide_label = batch.provide_label

        def __iter__(self):
            while True:
                yield batch

        def reset(self):
            pass

    return _Synthetic()


def run(args) -> dict:
    """Run one benchmark and return the summary dict."""
    phase = "inference" if args.forward_only else "training"
    kv = None
    if args.kv_store.startswith("dist"):
        kv = mx.kv.create(args.kv_store)
    ctxs = _contexts(args)
    model = ModelFactory.get_model({"model": args.model, "phase": phase,
                                    "batch_size": args.batch_size, "dtype": args.dtype})
    batch_size = args.batch_size * len(ctxs)
    it = _data_iter(args, model, batch_size, kv)
    label_names = ("softmax_label",) if phase == "training" else None
    mod = mx.mod.Module(model.output, context=ctxs, label_names=label_names)
    mod.bind(data_shapes=it.provide_data,
             label_shapes=it.provide_label if phase == "training" else None,
             for_training=phase == "training")
    mod.init_params(initializer=mx.init.Xavier(rnd_type="gaussian", factor_type="in",
                                               magnitude=2))
    if phase == "training":
        mod.init_optimizer(kvstore=kv or args.kv_store, optimizer="sgd",
                           optimizer_params={"learning_rate": 0.01, "momentum": 0.9,
                                             "wd": 1e-4})
    batches = iter(it)

    def step():
        batch = next(batches)
        mod.forward(batch, is_train=phase == "training")
        if phase == "training":
            mod.backward()
            mod.update()
        for out in mod.get_outputs():
            out.wait_to_read()

    for _ in range(args.num_warmup_batches):
        step()
    times = []
    for i in range(args.num_batches):
        tic = time.time()
        step()
        times.append((time.time() - tic) * 1000.0)
        print(f"batch {i + 1}/{args.num_batches}: {times[-1]:.2f} ms", flush=True)
    mean_ms = float(np.mean(times))
    throughput = batch_size * 1000.0 / mean_ms
    if kv is not None:
        throughput *= kv.num_workers
    summary = {"model": args.model, "phase": phase, "device": args.device,
               "num_devices": len(ctxs), "batch_size": batch_size, "dtype": args.dtype,
               "kv_store": args.kv_store, "num_workers": kv.num_workers if kv else 1,
               "time_ms": mean_ms, "throughput": throughput, "time_data": times}
    print(f"__results.time__= {json.dumps(mean_ms)}")
    print(f"__results.throughput__= {json.dumps(throughput)}")
    print(f"__results.time_data__= {json.dumps(times)}")
    print(json.dumps(summary))
    return summary


def main(argv=None) -> int:
    logging.basicConfig(level=logging.INFO)
    args = build_parser().parse_args(argv)
    if args.model not in MODELS:
        print(f"Unknown model '{args.model}'. Supported: {', '.join(sorted(MODELS))}",
              file=sys.stderr)
        return 2
    run(args)
    return 0
