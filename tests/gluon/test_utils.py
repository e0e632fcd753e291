"""gluon.utils: split_data, split_and_load, clip_global_norm, check_sha1, download."""

import hashlib
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon import utils


def test_split_data():
    x = mx.nd.array(np.arange(10).reshape(5, 2))
    parts = utils.split_data(x, 2, even_split=False)
    assert [p.shape for p in parts] == [(3, 2), (2, 2)]
    with pytest.raises(ValueError, match="cannot be evenly split into 2 slices along axis 0"):
        utils.split_data(x, 2)
    cols = utils.split_data(mx.nd.ones((2, 6)), 3, batch_axis=1)
    assert [c.shape for c in cols] == [(2, 2)] * 3


def test_split_and_load():
    parts = utils.split_and_load(np.ones((4, 3)), [mx.cpu(0), mx.cpu(1)])
    assert [p.context for p in parts] == [mx.cpu(0), mx.cpu(1)]
    assert [p.shape for p in parts] == [(2, 3), (2, 3)]
    one = utils.split_and_load(mx.nd.ones((4, 3)), [mx.cpu(2)])
    assert one[0].context == mx.cpu(2) and one[0].shape == (4, 3)


def test_clip_global_norm():
    a = [mx.nd.array([3.0, 0.0]), mx.nd.array([[4.0]])]
    norm = utils.clip_global_norm(a, 1.0)
    assert norm == pytest.approx(5.0)
    np.testing.assert_allclose(a[0].asnumpy(), [0.6, 0.0], rtol=1e-5)
    np.testing.assert_allclose(a[1].asnumpy(), [[0.8]], rtol=1e-5)
    b = [mx.nd.array([0.1, 0.1])]
    n = utils.clip_global_norm(b, 1.0, check_isfinite=False)
    assert isinstance(n, mx.nd.NDArray)
    np.testing.assert_allclose(b[0].asnumpy(), [0.1, 0.1], rtol=1e-6)  # below max: unchanged


def test_check_sha1_and_download_offline(tmp_path):
    f = tmp_path / "x.bin"
    f.write_bytes(b"hello")
    assert utils.check_sha1(str(f), hashlib.sha1(b"hello").hexdigest())
    assert not utils.check_sha1(str(f), "0" * 40)
    # an existing file with the right hash is not downloaded again
    assert utils.download(
        "http://127.0.0.1:9/x.bin", path=str(f), sha1_hash=hashlib.sha1(b"hello").hexdigest()
    ) == str(f)
    # MXNet 1.9.1 re-raises the transport's own error (requests.exceptions.ConnectionError)
    with pytest.raises(OSError, match="/y.bin"):
        utils.download("http://127.0.0.1:9/y.bin", path=str(tmp_path), retries=1)
    assert not list(tmp_path.glob("y.bin*"))  # no partial file left behind


def test_download_goes_through_requests_when_installed(tmp_path, monkeypatch):
    import io
    import sys
    import types

    calls = []

    class _Resp:
        status_code = 200

        def __init__(self, content):
            self._buf = io.BytesIO(content)

        def iter_content(self, chunk_size=1):
            while True:
                b = self._buf.read(chunk_size)
                if not b:
                    return
                yield b

    def get(url, stream=False, verify=True):
        calls.append((url, stream, verify))
        return _Resp(b"MOCK CONTENT" * 100)

    monkeypatch.setitem(sys.modules, "requests", types.SimpleNamespace(get=get))
    dest = str(tmp_path / "README.md")
    import warnings

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = utils.download("https://example.com/README.md", path=dest, verify_ssl=False)
    assert out == dest and os.path.getsize(dest) == 1200
    assert calls == [("https://example.com/README.md", True, False)]
    assert any(str(x.message).startswith("Unverified HTTPS request") for x in w)
    assert os.listdir(str(tmp_path)) == ["README.md"]


def test_clip_global_norm_of_a_row_sparse_array():
    a = mx.nd.ones((2, 3)).tostype("row_sparse")
    norm = utils.clip_global_norm([a], 1.0)
    assert abs(norm - 6**0.5) < 1e-5
    assert a.stype == "row_sparse"
    np.testing.assert_allclose(a.asnumpy(), np.full((2, 3), 6**-0.5), rtol=1e-5)
