"""Contrib convolution layers (``mx.gluon.contrib.cnn``)."""

from . import conv_layers
from .conv_layers import *  # noqa: F403

__all__ = conv_layers.__all__
