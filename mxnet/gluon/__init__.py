"""Gluon: the imperative/hybrid neural network API of MXNet (``mx.gluon``)."""

from . import block, contrib, data, loss, model_zoo, nn, parameter, rnn, trainer, utils
from .block import Block, HybridBlock, SymbolBlock
from .parameter import Constant, DeferredInitializationError, Parameter, ParameterDict, tensor_types
from .trainer import Trainer
