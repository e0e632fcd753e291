"""Gluon neural network layers (``mx.gluon.nn``)."""

from ..block import Block, HybridBlock, SymbolBlock
from .activations import *
from .basic_layers import *
from .conv_layers import *
