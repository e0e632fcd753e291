"""Optimizers: ``mx.optimizer.SGD``, ``mx.optimizer.create('adam')``, ``Updater``."""

from . import contrib, optimizer
from .optimizer import (
                        DCASGD,
                        FTML,
                        LAMB,
                        LARS,
                        LBSGD,
                        NAG,
                        SGD,
                        SGLD,
                        AdaDelta,
                        AdaGrad,
                        Adam,
                        Adamax,
                        Ftrl,
                        Nadam,
                        Optimizer,
                        RMSProp,
                        Signum,
                        Test,
                        Updater,
                        ccSGD,
                        create,
                        get_updater,
                        register,
)

__all__ = optimizer.__all__
