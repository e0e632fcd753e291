"""Optimizers used by :class:`SVRGModule`: the wrapped optimizer updates the weights, an
assignment optimizer stores the full gradients under the ``<name>_full`` keys."""

from __future__ import annotations

from ...optimizer import Optimizer, create, register

__all__ = ["_AssignmentOptimizer", "_SVRGOptimizer"]

_BASE_PARAMS = ("rescale_grad", "param_idx2name", "wd", "clip_gradient", "learning_rate",
                "lr_scheduler", "sym", "begin_num_update", "multi_precision", "param_dict")


@register
class _AssignmentOptimizer(Optimizer):
    """``weight[:] = grad``: keeps the pushed full gradients in a kvstore.

    Examples
    --------
    >>> opt = _AssignmentOptimizer()
    """

    def update(self, index, weight, grad, state):
        weight[:] = grad


@register
class _SVRGOptimizer(Optimizer):
    """Dispatch updates: ``<name>_full`` keys are assigned, the others go to
    ``default_optimizer`` (created with all the keyword arguments).

    Parameters
    ----------
    default_optimizer : str or Optimizer
        The optimizer of the weights.

    Examples
    --------
    >>> opt = _SVRGOptimizer(default_optimizer='sgd', learning_rate=0.1)
    >>> opt.default_opt.lr
    0.1
    """

    def __init__(self, default_optimizer, **kwargs):
        base = {k: v for k, v in kwargs.items() if k in _BASE_PARAMS}
        super().__init__(**base)
        if isinstance(default_optimizer, str):
            self.default_opt = create(default_optimizer, **kwargs)
        else:
            self.default_opt = default_optimizer
        self.aux_opt = create(_AssignmentOptimizer.__name__, **base)

    def _is_full(self, index) -> bool:
        name = self.idx2name.get(index, "") if self.idx2name else ""
        return isinstance(name, str) and name.endswith("_full")

    def create_state(self, index, weight):
        if self._is_full(index):
            return self.aux_opt.create_state(index, weight)
        return self.default_opt.create_state_multi_precision(index, weight)

    def update(self, index, weight, grad, state):
        if self._is_full(index):
            self.aux_opt.update(index, weight, grad, state)
        else:
            self.default_opt.update(index, weight, grad, state)
