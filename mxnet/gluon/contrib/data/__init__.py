"""Experimental data utilities (``mx.gluon.contrib.data``)."""

from . import sampler
from .sampler import *
