"""Suite-wide switches.

``MXNET_NG_TEST_DEFAULT_CTX=gpu`` runs every test inside ``with mx.gpu(0):`` so that arrays
created without an explicit context land on the GPU (a sweep of the operator records on a
CUDA device: ``MXNET_NG_TEST_DEFAULT_CTX=gpu python -m pytest tests/_op``).
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _default_ctx_from_env():
    if os.environ.get("MXNET_NG_TEST_DEFAULT_CTX", "cpu") != "gpu":
        yield
        return
    import mxnet as mx

    with mx.gpu(0):
        yield
