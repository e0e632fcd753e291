"""Recurrent layers and cells (``mx.gluon.rnn``)."""

from .rnn_cell import *
from .rnn_layer import *
