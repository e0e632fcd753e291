"""Experimental data utilities (``mx.gluon.contrib.data``)."""

from . import sampler, text
from .sampler import *
