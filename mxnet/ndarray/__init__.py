"""Imperative arrays: ``mx.nd``."""

from .ndarray import (NDArray, arange, array, concatenate, empty, from_dlpack, from_numpy,
                      full, moveaxis, onehot_encode, ones, waitall, zeros)
from . import _internal, contrib, linalg, op, random
from .op import *
from .ndarray import arange, array, empty, full, ones, zeros  # the Python front ends win
from .utils import load, load_frombuffer, save
from ._namespace import attach_fluent as _attach_fluent

_attach_fluent(NDArray)
