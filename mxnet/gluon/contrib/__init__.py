"""Experimental Gluon APIs (``mx.gluon.contrib``)."""

from . import data, estimator, nn, rnn
