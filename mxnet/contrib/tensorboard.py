"""TensorBoard logging of training metrics (MXNet's ``mxnet.contrib.tensorboard``).

Examples
--------
>>> cb = mx.contrib.tensorboard.LogMetricsCallback('logs/train')  # doctest: +SKIP
>>> mod.fit(train_data, batch_end_callback=cb)  # doctest: +SKIP
"""

from __future__ import annotations

import logging

__all__ = ["LogMetricsCallback"]


def _summary_writer(logging_dir):
    try:
        from mxboard import SummaryWriter
    except ImportError:
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError:
            logging.error("You can install tensorboard via `pip install tensorboard`.")
            raise ImportError("LogMetricsCallback needs mxboard or tensorboard "
                              "(pip install tensorboard)") from None
    return SummaryWriter(logging_dir)


class LogMetricsCallback:
    """Write every evaluation metric of ``param.eval_metric`` as a TensorBoard scalar.

    Parameters
    ----------
    logging_dir : str
        Event-file folder.
    prefix : str, optional
        Prepended to each metric name (e.g. ``'train'``, ``'eval'``).
    """

    def __init__(self, logging_dir, prefix=None):
        self.prefix = prefix
        self.step = 0
        self.summary_writer = _summary_writer(logging_dir)

    def __call__(self, param):
        """Log ``param.eval_metric``'s name/value pairs at the next step."""
        if param.eval_metric is None:
            return
        self.step += 1
        for name, value in param.eval_metric.get_name_value():
            if self.prefix is not None:
                name = f"{self.prefix}-{name}"
            self.summary_writer.add_scalar(name, value, global_step=self.step)
