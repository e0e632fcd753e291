"""Legacy symbolic RNN API (``mx.rnn``): cells, bucketing iterator, checkpoints."""

from . import io, rnn, rnn_cell
from ._conv_cells import BaseConvRNNCell, ConvGRUCell, ConvLSTMCell, ConvRNNCell
from .io import BucketSentenceIter, encode_sentences
from .rnn import do_rnn_checkpoint, load_rnn_checkpoint, rnn_unroll, save_rnn_checkpoint
from .rnn_cell import (
    BaseRNNCell,
    BidirectionalCell,
    DropoutCell,
    FusedRNNCell,
    GRUCell,
    LSTMCell,
    ModifierCell,
    ResidualCell,
    RNNCell,
    RNNParams,
    SequentialRNNCell,
    ZoneoutCell,
)

__all__ = ["io", "rnn", "rnn_cell", "rnn_unroll", "BucketSentenceIter", "encode_sentences",
           "save_rnn_checkpoint", "load_rnn_checkpoint", "do_rnn_checkpoint", "RNNParams",
           "BaseRNNCell", "RNNCell", "LSTMCell", "GRUCell", "FusedRNNCell", "SequentialRNNCell",
           "DropoutCell", "ModifierCell", "ZoneoutCell", "ResidualCell", "BidirectionalCell",
           "BaseConvRNNCell", "ConvRNNCell", "ConvLSTMCell", "ConvGRUCell"]
