"""Shared helpers of the model-zoo constructors."""

from __future__ import annotations

import os

from ....base import data_dir
from ....context import cpu

# MXNet evaluates these defaults once, at import time (shown in the signatures)
DEFAULT_CTX = cpu()
DEFAULT_ROOT = os.path.join(data_dir(), "models")


def load_pretrained(net, name, ctx=None, root=None):
    """Load MXNet's published parameters of ``name`` into ``net``."""
    from ..model_store import get_model_file

    net.load_parameters(get_model_file(name, root=root), ctx=ctx if ctx is not None else cpu())
    return net
