"""Gluon data API: datasets, samplers and the DataLoader."""
from . import vision  # noqa: F401
from .dataloader import *  # noqa: F401,F403
from .dataset import *  # noqa: F401,F403
from .sampler import *  # noqa: F401,F403
