"""``mxnet-benchmarks``: tf_cnn_benchmarks-style throughput measurement over ``mx.mod``.

Example::

    python -m mxnet_benchmarks --model resnet50 --batch_size 16 --num_batches 20
    python -m mxnet_benchmarks --model alexnet --forward_only true --device cpu

Prints per-batch times, then ``__results.time__`` (mean ms per batch),
``__results.throughput__`` (images/sec) and a JSON summary line. Only the public MXNet API is
used, so the same code runs under real MXNet 1.9.1 (see ``benchmarks/bench_models.py``).
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

__all__ = ["BenchmarkError", "build_parser", "main", "run"]


class BenchmarkError(Exception):
    """A problem with the command line or the environment, reported without a traceback."""


def str2bool(v: str) -> bool:
    """``'true'``/``'1'``/``'yes'``/``'on'`` (any case) -> True, anything else -> False."""
    return str(v).lower() in ("true", "1", "yes", "on")


def build_parser() -> argparse.ArgumentParser:
    """The command line of the seed's tool (plus a few extras)."""
    p = argparse.ArgumentParser(prog="mxnet-benchmarks", description=__doc__.splitlines()[0])
    p.add_argument("--model", type=str, required=True, help=f"one of {', '.join(sorted(MODELS))}")
    p.add_argument("--forward_only", type=str2bool, default=False,
                   help="benchmark inference (true) or training (false)")
    p.add_argument("--batch_size", type=int, default=16, help="per-device batch size")
    p.add_argument("--global_batch_size", type=int, default=0,
                   help="total batch size split evenly over the devices (overrides --batch_size)")
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
    p.add_argument("--preprocess_threads", type=int, default=0,
                   help="decoding threads with --data_dir (0: one per CPU core)")
    # Hidden: smaller inputs (spatial size S x S of image/spectrogram models), for tests.
    p.add_argument("--input_size", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    return p


def _contexts(args) -> list:
    if args.device == "gpu":
        n = mx.context.num_gpus()
        if args.num_gpus < 1:
            raise BenchmarkError("--num_gpus must be at least 1")
        if n < args.num_gpus:
            raise BenchmarkError(f"--num_gpus {args.num_gpus} requested but {n} GPUs are "
                                 "visible (use --device cpu)")
        return [mx.gpu(i) for i in range(args.num_gpus)]
    if args.num_cpu_devices < 1:
        raise BenchmarkError("--num_cpu_devices must be at least 1")
    return [mx.cpu(i) for i in range(args.num_cpu_devices)]


def _check_counts(args, num_devices: int) -> int:
    """Validate the batch options; return the per-device batch size."""
    if args.global_batch_size:
        if args.global_batch_size < 1 or args.global_batch_size % num_devices:
            raise BenchmarkError(
                f"--global_batch_size {args.global_batch_size} does not divide evenly over "
                f"{num_devices} device(s); use a multiple of {num_devices}")
        per_device = args.global_batch_size // num_devices
    else:
        per_device = args.batch_size
    if per_device < 1:
        raise BenchmarkError(f"--batch_size must be positive, got {per_device}")
    if args.num_batches < 1:
        raise BenchmarkError(f"--num_batches must be positive, got {args.num_batches}")
    if args.num_warmup_batches < 0:
        raise BenchmarkError("--num_warmup_batches must not be negative")
    return per_device


def rec_files(data_dir: str) -> list[str]:
    """The ``.rec`` files named by ``--data_dir`` (a file or a directory); raises if none."""
    if os.path.isdir(data_dir):
        recs = sorted(os.path.join(data_dir, f) for f in os.listdir(data_dir)
                      if f.endswith(".rec"))
        if not recs:
            raise BenchmarkError(f"--data_dir {data_dir!r} contains no .rec files (create them "
                                 "with tools/im2rec.py, or leave --data_dir empty for "
                                 "synthetic data)")
        return recs
    if not os.path.isfile(data_dir):
        raise BenchmarkError(f"--data_dir {data_dir!r} does not exist")
    if not data_dir.endswith(".rec"):
        raise BenchmarkError(f"--data_dir {data_dir!r} is not a .rec file or a directory")
    return [data_dir]


class _RecordData:
    """Endless batches from one or more ``.rec`` files (each file in turn, then again)."""

    def __init__(self, recs, shape, batch_size, kv, threads):
        self._iters = [mx.io.ImageRecordIter(
            path_imgrec=r, data_shape=shape, batch_size=batch_size, shuffle=True,
            rand_crop=True, rand_mirror=True, num_parts=kv.num_workers if kv else 1,
            part_index=kv.rank if kv else 0, preprocess_threads=threads) for r in recs]
        self.provide_data = self._iters[0].provide_data
        self.provide_label = self._iters[0].provide_label

    def __iter__(self):
        while True:
            got = False
            for it in self._iters:
                it.reset()
                for batch in it:
                    got = True
                    yield batch
            if not got:
                raise BenchmarkError("the .rec files hold fewer images than one batch")


class _Synthetic:
    """One fixed random batch, served forever."""

    def __init__(self, model, batch_size, dtype):
        rng = np.random.RandomState(0)
        shape = (batch_size,) + tuple(model.input_shape)
        data = mx.nd.array(rng.uniform(-1, 1, shape), dtype=dtype)
        lshape = (batch_size,) + tuple(getattr(model, "label_shape", ()))
        label = mx.nd.array(rng.randint(0, model.num_classes, lshape))
        self.provide_data = [mx.io.DataDesc("data", data.shape, data.dtype)]
        self.provide_label = [mx.io.DataDesc("softmax_label", label.shape)]
        self._batch = mx.io.DataBatch(data=[data], label=[label],
                                      provide_data=self.provide_data,
                                      provide_label=self.provide_label)

    def __iter__(self):
        while True:
            yield self._batch


def _data(args, model, batch_size, kv):
    if args.data_dir:
        recs = rec_files(args.data_dir)
        if len(model.input_shape) != 3 or model.input_shape[0] != 3:
            raise BenchmarkError(f"--data_dir needs an image model; {args.model} takes input "
                                 f"of shape {tuple(model.input_shape)}")
        threads = args.preprocess_threads or max(1, os.cpu_count() or 1)
        return _RecordData(recs, tuple(model.input_shape), batch_size, kv, threads)
    # bfloat16 inputs are fed as float32 and cast inside the network
    return _Synthetic(model, batch_size, "float32" if args.dtype == "bfloat16" else args.dtype)


def run(args) -> dict:
    """Run one benchmark (``args`` from :func:`build_parser`) and return the summary dict.

    Examples
    --------
    >>> args = build_parser().parse_args(["--model", "sensor_net", "--num_batches", "2"])
    >>> run(args)["model"]  # doctest: +SKIP
    'sensor_net'
    """
    if args.model not in MODELS:
        raise BenchmarkError(f"unknown model {args.model!r}; supported: "
                             f"{', '.join(sorted(MODELS))}")
    phase = "inference" if args.forward_only else "training"
    ctxs = _contexts(args)
    per_device = _check_counts(args, len(ctxs))
    kv = None
    if args.kv_store.startswith("dist"):
        kv = mx.kv.create(args.kv_store)
    params = {"model": args.model, "phase": phase, "batch_size": per_device,
              "dtype": args.dtype}
    if args.input_size:
        params["input_size"] = args.input_size
    model = ModelFactory.get_model(params)
    batch_size = per_device * len(ctxs)
    data = _data(args, model, batch_size, kv)
    training = phase == "training"
    mod = mx.mod.Module(model.output, context=ctxs,
                        label_names=("softmax_label",) if training else None)
    mod.bind(data_shapes=data.provide_data,
             label_shapes=data.provide_label if training else None, for_training=training)
    mod.init_params(initializer=mx.init.Xavier(rnd_type="gaussian", factor_type="in",
                                               magnitude=2))
    if training:
        mod.init_optimizer(kvstore=kv or args.kv_store, optimizer="sgd",
                           optimizer_params={"learning_rate": 0.01, "momentum": 0.9,
                                             "wd": 1e-4})
    batches = iter(data)

    def step():
        batch = next(batches)
        mod.forward(batch, is_train=training)
        if training:
            mod.backward()
            mod.update()
        for out in mod.get_outputs():
            out.wait_to_read()

    # with a distributed store only worker 0 reports (the others still run every batch)
    show = kv is None or kv.rank == 0
    for _ in range(args.num_warmup_batches):
        step()
    times = []
    for i in range(args.num_batches):
        tic = time.time()
        step()
        times.append((time.time() - tic) * 1000.0)
        if show:
            print(f"batch {i + 1}/{args.num_batches}: {times[-1]:.2f} ms", flush=True)
    mean_ms = float(np.mean(times))
    throughput = batch_size * 1000.0 / mean_ms
    if kv is not None:
        throughput *= kv.num_workers
    summary = {"model": args.model, "phase": phase, "device": args.device,
               "num_devices": len(ctxs), "batch_size": batch_size, "dtype": args.dtype,
               "kv_store": args.kv_store, "num_workers": kv.num_workers if kv else 1,
               "input_shape": list(model.input_shape), "time_ms": mean_ms,
               "throughput": throughput, "time_data": times}
    if show:
        print(f"__results.time__= {json.dumps(mean_ms)}")
        print(f"__results.throughput__= {json.dumps(throughput)}")
        print(f"__results.time_data__= {json.dumps(times)}")
        print(json.dumps(summary), flush=True)
    return summary


def main(argv=None) -> int:
    """Entry point of ``python -m mxnet_benchmarks``; returns the exit status."""
    logging.basicConfig(level=logging.INFO)
    args = build_parser().parse_args(argv)
    try:
        run(args)
    except BenchmarkError as e:
        print(f"mxnet-benchmarks: error: {e}", file=sys.stderr)
        return 2
    except (mx.base.MXNetError, ValueError, TypeError, RuntimeError, OSError) as e:
        if args.debug:
            raise
        msg = str(e).strip().splitlines()
        print(f"mxnet-benchmarks: error: {type(e).__name__}: {msg[0] if msg else ''}"
              + ("\n  " + "\n  ".join(msg[1:6]) if len(msg) > 1 else ""), file=sys.stderr)
        print("  (rerun with --debug for the full traceback)", file=sys.stderr)
        return 1
    return 0
