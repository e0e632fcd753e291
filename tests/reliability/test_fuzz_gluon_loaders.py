"""Fuzz Gluon's loaders: parameters, SymbolBlock.imports and the MNIST/CIFAR readers."""

from __future__ import annotations

import gzip
import os
import random

import numpy as np
import pytest

import mxnet as mx
from mxnet import gluon
from mxnet.base import MXNetError
from mxnet.gluon.data.vision import datasets
from mxnet.ndarray._serial import encode_list
from tests.reliability._fuzz import fuzz, mutate

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "compat", "golden", "gluon")


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)


def _net():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(4, in_units=3), gluon.nn.BatchNorm(in_channels=4),
            gluon.nn.Dense(2, in_units=4))
    net.initialize()
    return net


def test_fuzz_load_parameters(tmp_path):
    path = str(tmp_path / "net.params")
    net = _net()
    net.save_parameters(path)
    seed_bytes = _read(path)

    def load(data: bytes):
        _write(path, data)
        net.load_parameters(path)

    # MXNet raises AssertionError for missing/extra names and shape mismatches
    fuzz("Block.load_parameters", [seed_bytes], load, (MXNetError, AssertionError), seed=11)


def test_fuzz_symbolblock_imports(tmp_path):
    sym_path, par_path = str(tmp_path / "m-symbol.json"), str(tmp_path / "m-0000.params")
    sym_bytes = _read(os.path.join(GOLDEN, "lenet-symbol.json"))
    par_bytes = _read(os.path.join(GOLDEN, "lenet-0000.params"))

    def load(data: bytes):
        which, body = data[:1], data[1:]
        _write(sym_path, body if which == b"s" else sym_bytes)
        _write(par_path, body if which == b"p" else par_bytes)
        gluon.SymbolBlock.imports(sym_path, ["data"], par_path)

    def mutator(data: bytes, rng: random.Random) -> tuple[str, bytes]:
        kind, body = mutate(data[1:], rng)
        return f"{data[:1].decode()}:{kind}", data[:1] + body

    unnamed = encode_list(list(mx.nd.load_frombuffer(par_bytes).values()), None)
    fuzz("SymbolBlock.imports", [b"s" + sym_bytes, b"p" + par_bytes], load,
         (MXNetError, AssertionError), seed=12, mutator=mutator,
         extra=[("unnamed-list", b"p" + unnamed)])


def _idx_files(n: int = 3) -> tuple[bytes, bytes]:
    rng = np.random.RandomState(0)
    labels = np.array([2049, n], ">u4").tobytes() + rng.randint(0, 10, n).astype(np.uint8).tobytes()
    images = np.array([2051, n, 28, 28], ">u4").tobytes() + rng.randint(
        0, 256, n * 784).astype(np.uint8).tobytes()
    return labels, images


def test_fuzz_mnist_idx(tmp_path, monkeypatch):
    root = str(tmp_path)
    monkeypatch.setattr(datasets, "_fetch", lambda root, ns, name, sha1: os.path.join(root, name))
    files = datasets.MNIST_FILES
    lab_name, img_name = files["test_label"][0], files["test_data"][0]
    labels, images = _idx_files()

    def load(data: bytes):
        # first byte: which file; second: whether the corruption happens before gzip
        which, raw, body = data[:1], data[1:2], data[2:]
        for name, good, tag in ((lab_name, labels, b"l"), (img_name, images, b"i")):
            if which == tag:
                payload = gzip.compress(body, mtime=0) if raw == b"r" else body
            else:
                payload = gzip.compress(good, mtime=0)
            _write(os.path.join(root, name), payload)
        ds = datasets.MNIST(root=root, train=False)
        assert ds[len(ds) - 1][0].shape == (28, 28, 1) if len(ds) else True

    def mutator(data: bytes, rng: random.Random) -> tuple[str, bytes]:
        kind, body = mutate(data[2:], rng)
        return f"{data[:2].decode()}:{kind}", data[:2] + body

    seeds = [b"lr" + labels, b"ir" + images, b"lg" + gzip.compress(labels, mtime=0),
             b"ig" + gzip.compress(images, mtime=0)]
    fuzz("MNIST idx reader", seeds, load, (MXNetError,), seed=13, mutator=mutator)


@pytest.mark.parametrize("cls", [datasets.CIFAR10, datasets.CIFAR100])
def test_fuzz_cifar_batches(tmp_path, cls):
    path = str(tmp_path / "batch.bin")
    reader = cls.__new__(cls)
    reader._fine_label = False
    rec = 3072 + reader._label_bytes
    good = np.random.RandomState(1).randint(0, 100, 2 * rec).astype(np.uint8).tobytes()

    def load(data: bytes):
        _write(path, data)
        images, labels = reader._read_batch(path)
        assert images.shape[1:] == (32, 32, 3) and len(labels) == len(images)

    fuzz(f"{cls.__name__} batch reader", [good], load, (MXNetError,), budget_s=1.0, seed=14)
