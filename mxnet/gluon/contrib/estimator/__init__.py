"""Gluon Estimator: a training loop with event handlers (``mx.gluon.contrib.estimator``)."""

from .batch_processor import *
from .estimator import *
from .event_handler import *
