"""Contributed optimizers: ``mx.optimizer.contrib.GroupAdaGrad``."""

from __future__ import annotations

import torch

from .._op._optim import _exact_sqrt, _row_mean_sq
from ..ndarray import NDArray, zeros
from ._rows import apply_update
from .optimizer import Optimizer, register

__all__ = ["GroupAdaGrad"]


@register
class GroupAdaGrad(Optimizer):
    """AdaGrad with one accumulated squared-gradient mean per row of a 2-D weight
    (embeddings); weight decay is not supported.

    Examples
    --------
    >>> opt = mx.optimizer.contrib.GroupAdaGrad(learning_rate=0.1)
    """

    def __init__(self, eps=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        assert len(weight.shape) == 2
        return zeros((weight.shape[0], 1), weight.context, stype=weight.stype)

    def update(self, index, weight, grad, state):
        assert isinstance(weight, NDArray) and isinstance(grad, NDArray)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        assert wd == 0, "Weight decay is not supported for GroupAdaGrad"

        def step(w, g, s):
            g = g * self.rescale_grad
            if self.clip_gradient is not None:
                g = torch.clamp(g, -self.clip_gradient, self.clip_gradient)
            s[0].add_(_row_mean_sq(g).reshape(s[0].shape))
            w.sub_(lr * g / _exact_sqrt(s[0] + self.float_stable_eps))

        # sparse storage: only the gradient's rows change (as in MXNet's sparse kernel)
        apply_update(weight, grad, [state], step, lazy=True)
