"""Dynamic loss scaling for AMP."""

from __future__ import annotations

import logging

__all__ = ["LossScaler"]


class LossScaler:
    """Dynamic loss scaler of AMP.

    The scale starts at ``2**16``. When the gradients of a step overflow (an inf or NaN),
    the step is skipped and the scale halved; after 2000 steps in a row without overflow
    it doubles, up to ``2**24``. The new scale takes effect at the next check.

    Examples
    --------
    >>> from mxnet.contrib.amp.loss_scaler import LossScaler
    >>> LossScaler().loss_scale
    65536.0
    """

    def __init__(self) -> None:
        self._loss_scale = 2.0**16
        self._next_loss_scale = self._loss_scale
        self._max_loss_scale = 2.0**24
        self._scale_seq_len = 2000
        self._unskipped = 0

    @property
    def loss_scale(self) -> float:
        """The current loss scale."""
        return self._loss_scale

    def has_overflow(self, params) -> bool:
        """Check the gradients of ``params`` (first context of each) for inf/NaN.

        Also moves the scale along: halves it after an overflow, doubles it after
        ``2000`` clean checks.
        """
        from ... import autograd
        from ... import ndarray as nd

        with autograd.pause():
            grads = [p._grad[0] for p in params if p._grad is not None]
            finite = True
            for start in range(0, len(grads), 200):  # one check per chunk of 200 arrays
                chunk = grads[start : start + 200]
                flag = nd.multi_all_finite(*chunk, num_arrays=len(chunk))
                finite = finite and bool(flag.asnumpy()[0])
        overflow = not finite
        self._loss_scale = self._next_loss_scale
        if overflow:
            self._next_loss_scale = self._loss_scale / 2.0
            self._unskipped = 0
            logging.info("AMP: decreasing loss scale to %f", self._next_loss_scale)
        else:
            self._unskipped += 1
        if self._unskipped == self._scale_seq_len:
            self._unskipped = 0
            self._next_loss_scale = min(self._max_loss_scale, self._loss_scale * 2.0)
            logging.info("AMP: increasing loss scale to %f", self._next_loss_scale)
        return overflow
