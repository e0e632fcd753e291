"""Experimental Gluon layers (``mx.gluon.contrib.nn``)."""

from .basic_layers import *
