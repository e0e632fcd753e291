"""mx.libinfo.find_include_path: an existing folder, MXNET_INCLUDE_PATH honoured."""

import os

import mxnet as mx


def test_find_include_path_is_a_folder():
    path = mx.libinfo.find_include_path()
    assert os.path.isdir(path)
    assert path.endswith(os.sep)


def test_find_include_path_env(tmp_path, monkeypatch):
    monkeypatch.setenv("MXNET_INCLUDE_PATH", str(tmp_path))
    assert mx.libinfo.find_include_path() == str(tmp_path)
    monkeypatch.setenv("MXNET_INCLUDE_PATH", "relative/nowhere")
    assert os.path.isdir(mx.libinfo.find_include_path())
