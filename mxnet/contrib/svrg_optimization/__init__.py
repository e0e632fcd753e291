"""SVRG (stochastic variance reduced gradient) training for the Module API."""

from . import svrg_module, svrg_optimizer
from .svrg_module import SVRGModule

__all__ = ["svrg_module", "svrg_optimizer", "SVRGModule"]
