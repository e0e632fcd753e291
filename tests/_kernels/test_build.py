"""The native kernel library is built once per machine into the cache, and turned off by
``MXNET_NG_NATIVE=0`` or a missing compiler (the operators then use PyTorch)."""

from __future__ import annotations

import os

import pytest

from mxnet import _kernels


def test_disabled_by_environment(monkeypatch):
    monkeypatch.setenv("MXNET_NG_NATIVE", "0")
    assert not _kernels.enabled()
    assert _kernels.library("norm") is None


def test_no_compiler_means_no_library(monkeypatch, tmp_path):
    monkeypatch.delenv("MXNET_NG_NATIVE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setenv("MXNET_NG_KERNEL_CACHE", str(tmp_path / "cache"))
    _kernels._load.cache_clear()
    try:
        assert _kernels.library("norm") is None
        assert "no C compiler" in _kernels.status()["norm"]
    finally:
        _kernels._load.cache_clear()


def test_build_into_cache_once(monkeypatch, tmp_path):
    if _kernels._compiler() is None:
        pytest.skip("no C compiler on this machine")
    monkeypatch.delenv("MXNET_NG_NATIVE", raising=False)
    monkeypatch.setenv("MXNET_NG_KERNEL_CACHE", str(tmp_path))
    _kernels._load.cache_clear()
    try:
        lib = _kernels.library("norm")
        assert lib is not None, _kernels.status()
        built = [f for f in os.listdir(tmp_path) if f.endswith(".so")]
        assert len(built) == 1 and built[0].startswith("norm-")
        stamp = os.path.getmtime(tmp_path / built[0])
        _kernels._load.cache_clear()
        assert _kernels.library("norm") is not None
        assert os.path.getmtime(tmp_path / built[0]) == stamp  # reused, not rebuilt
        assert sorted(os.listdir(tmp_path)) == built  # no temporary files left
    finally:
        _kernels._load.cache_clear()
