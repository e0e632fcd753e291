"""Experimental Gluon APIs (``mx.gluon.contrib``)."""

from . import cnn, data, estimator, nn, rnn
