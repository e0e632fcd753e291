"""Experimental Gluon APIs (``mx.gluon.contrib``)."""

from . import estimator, nn
