"""The glibc pool setting (mxnet/_malloc.py): on by default on Linux, off on request."""

import os
import subprocess
import sys

import pytest

import mxnet as mx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _enabled_in_child(**env):
    code = "import mxnet; print(mxnet._malloc.pool_enabled())"
    full = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    full.update(env, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full,
                         check=True)
    return out.stdout.strip().splitlines()[-1]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc only")
def test_pool_switches():
    assert _enabled_in_child() == "True"
    assert _enabled_in_child(MXNET_NG_MALLOC_POOL="0") == "False"
    # a user's own malloc tuning wins
    assert _enabled_in_child(MALLOC_TRIM_THRESHOLD_="1000000") == "False"


def test_large_arrays_reuse_cleanly():
    # freed blocks come back from the pool: values must be what each step wrote
    for i in range(3):
        a = mx.nd.full((1024, 1024, 8), float(i))
        assert float(a.sum().asscalar()) == float(i) * 1024 * 1024 * 8
        del a
