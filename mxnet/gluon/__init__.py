"""Gluon: the imperative/hybrid neural network API of MXNet (``mx.gluon``)."""

from . import parameter
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict
from . import block
from .block import Block, HybridBlock, SymbolBlock
from . import nn
from . import loss
from . import utils
from . import trainer
from .trainer import Trainer
from . import data
from . import contrib
