"""How the Estimator runs one training or evaluation batch."""

from __future__ import annotations

from .... import autograd
from ...utils import split_and_load

__all__ = ["BatchProcessor"]


class BatchProcessor:
    """Default batch logic: split a ``(data, label)`` batch over the contexts, forward, loss
    (and backward when training). Subclass it to customize a step.

    Examples
    --------
    >>> est = Estimator(net, loss, batch_processor=BatchProcessor())  # doctest: +SKIP
    """

    def _get_data_and_label(self, batch, ctx, batch_axis=0):
        data = split_and_load(batch[0], ctx_list=ctx, batch_axis=batch_axis)
        label = split_and_load(batch[1], ctx_list=ctx, batch_axis=batch_axis)
        return data, label

    def evaluate_batch(self, estimator, val_batch, batch_axis=0):
        """Forward and loss of one validation batch: (data, label, pred, loss)."""
        data, label = self._get_data_and_label(val_batch, estimator.context, batch_axis)
        pred = [estimator.val_net(x) for x in data]
        loss = [estimator.val_loss(y_hat, y) for y_hat, y in zip(pred, label)]
        return data, label, pred, loss

    def fit_batch(self, estimator, train_batch, batch_axis=0):
        """Forward, loss and backward of one training batch: (data, label, pred, loss)."""
        data, label = self._get_data_and_label(train_batch, estimator.context, batch_axis)
        with autograd.record():
            pred = [estimator.net(x) for x in data]
            loss = [estimator.loss(y_hat, y) for y_hat, y in zip(pred, label)]
        for lo in loss:
            lo.backward()
        return data, label, pred, loss
