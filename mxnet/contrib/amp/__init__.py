"""Automatic mixed precision (``mx.contrib.amp``): float16/bfloat16 casting of operators,
dynamic loss scaling and conversion of float32 models."""

from . import amp, lists, loss_scaler
from .amp import *  # noqa: F403
from .amp import __all__
