"""``mx.contrib.autograd``: the experimental autograd interface that preceded ``mx.autograd``.

Kept for old programs: ``train_section``/``test_section`` switch recording and training on
or off together, ``compute_gradient`` runs backward, and ``grad``/``grad_and_loss`` wrap a
function so that calling it returns the gradients of its arguments.

Examples
--------
>>> x = mx.nd.array([1., 2.])
>>> g = mx.contrib.autograd.grad(lambda x: (x * x).sum())
>>> g(x)[0].asnumpy().tolist()
[2.0, 4.0]
"""

from __future__ import annotations

import functools

from .. import autograd as _ag
from .._op._state import state as _state
from ..ndarray.ndarray import NDArray

__all__ = ["set_is_training", "TrainingStateScope", "train_section", "test_section",
           "mark_variables", "backward", "compute_gradient", "grad_and_loss", "grad"]


def set_is_training(is_train: bool) -> bool:
    """Turn recording and training mode on or off together; return the previous training
    mode."""
    prev = _state.is_train
    _state.is_train = bool(is_train)
    _state.is_recording = bool(is_train)
    return prev


class TrainingStateScope:
    """Scope that sets :func:`set_is_training` on entry and restores it on exit.

    Examples
    --------
    >>> with mx.contrib.autograd.TrainingStateScope(True):
    ...     y = mx.nd.ones((2,)) * 2
    """

    def __init__(self, enter_state: bool):
        self._enter_state = enter_state
        self._prev = None

    def __enter__(self):
        self._prev = set_is_training(self._enter_state)

    def __exit__(self, ptype, value, trace):
        if self._prev != self._enter_state:
            set_is_training(self._prev)


def train_section() -> TrainingStateScope:
    """Scope in which operators are recorded and run in training mode."""
    return TrainingStateScope(True)


def test_section() -> TrainingStateScope:
    """Scope in which nothing is recorded and operators run in inference mode."""
    return TrainingStateScope(False)


def mark_variables(variables, gradients, grad_reqs="write") -> None:
    """Mark arrays as variables whose gradients backward writes into ``gradients``."""
    if isinstance(variables, NDArray):
        variables, gradients = [variables], [gradients]
    _ag.mark_variables(variables, gradients, grad_reqs)


def backward(outputs, out_grads=None, retain_graph: bool = False) -> None:
    """Compute the gradients of ``outputs`` (a list) into the marked variables."""
    if isinstance(outputs, NDArray):
        outputs = [outputs]
    _ag.backward(outputs, out_grads, retain_graph=retain_graph, train_mode=True)


def compute_gradient(outputs) -> None:
    """Backward through ``outputs`` with unit head gradients."""
    backward(outputs)


def grad_and_loss(func, argnum=None):
    """Wrap ``func`` so that it returns ``(gradients of its arguments, its outputs)``.

    ``argnum`` (an int or a list of ints) picks the arguments to differentiate; all of them
    by default.
    """

    @functools.wraps(func)
    def wrapped(*args):
        variables = args
        if argnum is not None:
            picked = argnum if isinstance(argnum, list) else [argnum]
            variables = [args[i] for i in picked]
        for x in variables:
            assert isinstance(x, NDArray), "type of autograd input should NDArray."
        grads = [x.zeros_like() for x in variables]
        mark_variables(list(variables), grads)
        with train_section():
            outputs = func(*args)
        compute_gradient([outputs] if isinstance(outputs, NDArray) else outputs)
        return grads, outputs

    return wrapped


def grad(func, argnum=None):
    """Wrap ``func`` so that it returns the gradients of its arguments (see
    :func:`grad_and_loss`)."""
    grad_with_loss_func = grad_and_loss(func, argnum)

    @functools.wraps(grad_with_loss_func)
    def wrapped(*args):
        return grad_with_loss_func(*args)[0]

    return wrapped
