"""Experimental recurrent cells (``mx.gluon.contrib.rnn``)."""

from . import conv_rnn_cell, rnn_cell
from .conv_rnn_cell import *
from .rnn_cell import *
