"""Event handlers of the Gluon Estimator (stopping, metrics, validation, logging,
checkpoints, early stopping, gradient updates)."""

from __future__ import annotations

import os
import time
import warnings

import numpy as np

from ....metric import CompositeEvalMetric, EvalMetric
from ....metric import Loss as metric_loss

__all__ = ["EventHandler", "TrainBegin", "TrainEnd", "EpochBegin", "EpochEnd", "BatchBegin",
           "BatchEnd", "StoppingHandler", "MetricHandler", "ValidationHandler",
           "LoggingHandler", "CheckpointHandler", "EarlyStoppingHandler",
           "GradientUpdateHandler"]


class EventHandler:
    """Base of every handler."""


class TrainBegin(EventHandler):
    def train_begin(self, estimator, *args, **kwargs):
        pass


class TrainEnd(EventHandler):
    def train_end(self, estimator, *args, **kwargs):
        pass


class EpochBegin(EventHandler):
    def epoch_begin(self, estimator, *args, **kwargs):
        pass


class EpochEnd(EventHandler):
    def epoch_end(self, estimator, *args, **kwargs):
        return False


class BatchBegin(EventHandler):
    def batch_begin(self, estimator, *args, **kwargs):
        pass


class BatchEnd(EventHandler):
    def batch_end(self, estimator, *args, **kwargs):
        return False


def _check_metrics(metrics):
    if isinstance(metrics, CompositeEvalMetric):
        return [m for metric in metrics.metrics for m in _check_metrics(metric)]
    if isinstance(metrics, EvalMetric):
        return [metrics]
    metrics = metrics or []
    if not all(isinstance(m, EvalMetric) for m in metrics):
        raise ValueError("metrics must be a Metric or a list of Metric, refer to "
                         f"mxnet.metric.EvalMetric: {metrics}")
    return list(metrics)


class StoppingHandler(TrainBegin, BatchEnd, EpochEnd):
    """Stop after ``max_epoch`` epochs or ``max_batch`` batches."""

    def __init__(self, max_epoch=None, max_batch=None):
        self.max_epoch = max_epoch
        self.max_batch = max_batch
        self.current_batch = 0
        self.current_epoch = 0
        self.stop_training = False

    def train_begin(self, estimator, *args, **kwargs):
        self.max_epoch = estimator.max_epoch
        self.max_batch = estimator.max_batch
        self.current_batch = 0
        self.current_epoch = 0
        self.stop_training = False

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.current_batch == self.max_batch:
            self.stop_training = True
        return self.stop_training

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.current_epoch == self.max_epoch:
            self.stop_training = True
        return self.stop_training


class MetricHandler(EpochBegin, BatchEnd):
    """Reset ``metrics`` every epoch and update them after every batch."""

    def __init__(self, metrics, priority=-1000):
        self.metrics = _check_metrics(metrics)
        self.priority = priority

    def epoch_begin(self, estimator, *args, **kwargs):
        for metric in self.metrics:
            metric.reset()

    def batch_end(self, estimator, *args, **kwargs):
        pred, label, loss = kwargs["pred"], kwargs["label"], kwargs["loss"]
        for metric in self.metrics:
            if isinstance(metric, metric_loss):
                metric.update(0, loss)
            else:
                metric.update(label, pred)


class ValidationHandler(TrainBegin, BatchEnd, EpochEnd):
    """Run ``eval_fn(val_data)`` every ``epoch_period`` epochs / ``batch_period`` batches."""

    def __init__(self, val_data, eval_fn, epoch_period=1, batch_period=None, priority=-1000,
                 event_handlers=None):
        self.val_data = val_data
        self.eval_fn = eval_fn
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.priority = priority
        self.event_handlers = event_handlers

    def train_begin(self, estimator, *args, **kwargs):
        self.current_batch = 0
        self.current_epoch = 0

    def batch_end(self, estimator, *args, **kwargs):
        self.current_batch += 1
        if self.batch_period and self.current_batch % self.batch_period == 0:
            self.eval_fn(val_data=self.val_data, batch_axis=estimator.batch_axis,
                         event_handlers=self.event_handlers)

    def epoch_end(self, estimator, *args, **kwargs):
        self.current_epoch += 1
        if self.epoch_period and self.current_epoch % self.epoch_period == 0:
            self.eval_fn(val_data=self.val_data, batch_axis=estimator.batch_axis,
                         event_handlers=self.event_handlers)


class LoggingHandler(TrainBegin, TrainEnd, EpochBegin, EpochEnd, BatchBegin, BatchEnd):
    """Log progress every epoch (``log_interval='epoch'``) or every N batches."""

    def __init__(self, log_interval="epoch", metrics=None, priority=np.inf):
        if not isinstance(log_interval, int) and log_interval != "epoch":
            raise ValueError("log_interval must be either an integer or string 'epoch'")
        self.metrics = _check_metrics(metrics)
        self.batch_index = 0
        self.current_epoch = 0
        self.processed_samples = 0
        self.priority = priority
        self.log_interval = log_interval
        self.log_interval_time = 0

    def _append_scores(self, msg):
        for metric in self.metrics:
            name, value = metric.get()
            msg += f"{name}: {value:.4f}, "
        return msg.rstrip(", ")

    def train_begin(self, estimator, *args, **kwargs):
        self.train_start = time.time()
        trainer = estimator.trainer
        estimator.logger.info("Training begin: using optimizer %s with current learning rate "
                              "%.4f ", trainer.optimizer.__class__.__name__,
                              trainer.learning_rate)
        if estimator.max_epoch:
            estimator.logger.info("Train for %d epochs.", estimator.max_epoch)
        else:
            estimator.logger.info("Train for %d batches.", estimator.max_batch)
        self.current_epoch = 0
        self.batch_index = 0
        self.processed_samples = 0
        self.log_interval_time = 0

    def train_end(self, estimator, *args, **kwargs):
        train_time = time.time() - self.train_start
        msg = (f"Train finished using total {int(train_time)}s with {self.current_epoch} "
               "epochs. ")
        estimator.logger.info(self._append_scores(msg))

    def batch_begin(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            self.batch_start = time.time()

    def batch_end(self, estimator, *args, **kwargs):
        if isinstance(self.log_interval, int):
            batch_time = time.time() - self.batch_start
            msg = f"[Epoch {self.current_epoch}][Batch {self.batch_index}]"
            self.processed_samples += kwargs["batch"][0].shape[0]
            msg += f"[Samples {self.processed_samples}] "
            self.log_interval_time += batch_time
            if self.batch_index % self.log_interval == 0:
                msg += f"time/interval: {self.log_interval_time:.3f}s "
                self.log_interval_time = 0
                estimator.logger.info(self._append_scores(msg))
        self.batch_index += 1

    def epoch_begin(self, estimator, *args, **kwargs):
        is_training = any("training" in m.name for m in self.metrics)
        self.epoch_start = time.time()
        if is_training:
            estimator.logger.info("[Epoch %d] Begin, current learning rate: %.4f",
                                  self.current_epoch, estimator.trainer.learning_rate)
        else:
            estimator.logger.info("Validation Begin")

    def epoch_end(self, estimator, *args, **kwargs):
        epoch_time = time.time() - self.epoch_start
        msg = f"[Epoch {self.current_epoch}] Finished in {epoch_time:.3f}s, "
        estimator.logger.info(self._append_scores(msg))
        self.current_epoch += 1
        self.batch_index = 0


def _monitor_op(monitor, mode, kind="ModelCheckpoint"):
    if mode not in ("auto", "min", "max"):
        warnings.warn(f"{kind} mode {mode} is unknown, fallback to auto mode. "
                      "CheckpointHandler will usemax mode for f1 and accuracy metric "
                      "comparison and use min mode other wise", RuntimeWarning, stacklevel=3)
        mode = "auto"
    if mode == "auto":
        # MXNet 1.9.1 picks ``greater`` in auto mode whatever the metric (and says so)
        warnings.warn(f"`greater` operator will be used to determine if {monitor.get()[0]} "
                      "has improved. Please specify `mode='min'` to use the `less` operator. "
                      "Specify `mode='max' to disable this warning.`")
        mode = "max"
    return (np.greater, -np.inf) if mode == "max" else (np.less, np.inf)


class CheckpointHandler(TrainBegin, BatchEnd, EpochEnd):
    """Save ``net`` parameters and Trainer states periodically (and the best by ``monitor``).

    Files are ``<model_dir>/<model_prefix>-epoch<E>batch<B>.params``/``.states`` and
    ``<model_prefix>-best.params``/``.states``; at most ``max_checkpoints`` are kept.
    """

    def __init__(self, model_dir, model_prefix="model", monitor=None, verbose=0,
                 save_best=False, mode="auto", epoch_period=1, batch_period=None,
                 max_checkpoints=5, resume_from_checkpoint=False):
        self.monitor = monitor
        self.verbose = verbose
        os.makedirs(model_dir, exist_ok=True)
        self.model_dir = model_dir
        self.model_prefix = model_prefix
        self.save_best = save_best
        if self.save_best and not isinstance(self.monitor, EvalMetric):
            raise ValueError("To save best model only, please provide one of the metric "
                             "objects from estimator.train_metrics and "
                             "estimator.val_metrics as monitor.")
        self.epoch_period = epoch_period
        self.batch_period = batch_period
        self.current_batch = 0
        self.current_epoch = 0
        self.max_checkpoints = max_checkpoints
        self.resume_from_checkpoint = resume_from_checkpoint
        self.saved_checkpoints = []
        if self.save_best:
            self.monitor_op, self.best = _monitor_op(monitor, mode)

    def train_begin(self, estimator, *args, **kwargs):
        self.current_epoch = 0
        self.current_batch = 0
        if self.save_best:
            self.best = np.inf if self.monitor_op == np.less else -np.inf
        if self.resume_from_checkpoint:
            self._resume(estimator)

    def batch_end(self, estimator, *args, **kwargs):
        if self.current_batch == 0:  # the architecture is saved once, after the first batch
            self._save_symbol(estimator, kwargs.get("batch"))
        if self.batch_period and (self.current_batch + 1) % self.batch_period == 0:
            self._save_checkpoint(estimator)
        self.current_batch += 1

    def _save_symbol(self, estimator, batch):
        from ...block import HybridBlock

        symbol_file = os.path.join(self.model_dir, self.model_prefix + "-symbol.json")
        net = estimator.net
        # MXNet has a graph once hybridized and run, or when the block's OWN deferred
        # parameters were shape-inferred (that traces it); a plain container has none
        if isinstance(net, HybridBlock) and (net._cached_graph or (
                batch is not None and net._reg_params)):
            sym = net._cached_graph[1] if net._cached_graph else net._get_graph(batch[0])[1]
            sym.save(symbol_file)
        else:
            estimator.logger.info(
                "Model architecture(symbol file) is not saved, please use HybridBlock to "
                "construct your model, and call net.hybridize() before passing to Estimator "
                "in order to save model architecture as %s.", symbol_file)

    def epoch_end(self, estimator, *args, **kwargs):
        if self.epoch_period and (self.current_epoch + 1) % self.epoch_period == 0:
            self._save_checkpoint(estimator)
        self.current_epoch += 1

    def _save_checkpoint(self, estimator):
        prefix = f"{self.model_prefix}-epoch{self.current_epoch}batch{self.current_batch}"
        self._save_params_and_trainer(estimator, prefix)
        if self.verbose > 0:
            estimator.logger.info("[Epoch %d] CheckpointHandler: trained total %d batches, "
                                  "saving model at %s with prefix: %s", self.current_epoch,
                                  self.current_batch, self.model_dir, prefix)
        if self.save_best:
            name, value = self.monitor.get()
            if np.isnan(value):
                warnings.warn(f"{self.__class__.__name__} is set to save best model, but "
                              f"the monitor {name} is nan", stacklevel=2)
            elif self.monitor_op(value, self.best):
                self.best = value
                self._save_params_and_trainer(estimator, self.model_prefix + "-best")

    def _save_params_and_trainer(self, estimator, prefix):
        param_file = os.path.join(self.model_dir, prefix + ".params")
        trainer_file = os.path.join(self.model_dir, prefix + ".states")
        estimator.net.save_parameters(param_file)
        estimator.trainer.save_states(trainer_file)
        if "best" in prefix:
            return
        self.saved_checkpoints.append(prefix)
        while len(self.saved_checkpoints) > self.max_checkpoints:
            old = self.saved_checkpoints.pop(0)
            for ext in (".params", ".states"):
                path = os.path.join(self.model_dir, old + ext)
                if os.path.exists(path):
                    os.remove(path)

    def _resume(self, estimator):
        import re

        pat = re.compile(re.escape(self.model_prefix) + r"-epoch(\d+)batch(\d+)\.params$")
        found = []
        for f in os.listdir(self.model_dir):
            m = pat.match(f)
            if m:
                found.append((int(m.group(1)), int(m.group(2)), f))
        if not found:
            what = (f"{estimator.max_batch} batches" if estimator.max_batch
                    else f"{estimator.max_epoch} epochs")
            estimator.logger.info("CheckpointHandler: No checkpoint found, training from "
                                  "scratch for %s", what)
            return
        epoch, batch, f = max(found)
        msg = (f"CheckpointHandler: Checkpoint resumed from epoch {epoch} batch {batch}, "
               "continue to train for ")
        # the remaining budget of epochs / batches is what was asked minus what is done
        if estimator.max_epoch:
            if epoch >= estimator.max_epoch - 1:
                raise ValueError(f"Found checkpoint with maximum number of epoch "
                                 f"{estimator.max_epoch} reached, please specify "
                                 "resume_from_checkpoint=False (default value) if you wan to "
                                 "train from scratch.")
            estimator.max_epoch = estimator.max_epoch - epoch - 1
            msg += f"{estimator.max_epoch} epochs "
        if estimator.max_batch:
            if batch >= estimator.max_batch - 1:
                raise ValueError(f"Found checkpoint with maximum number of batch "
                                 f"{estimator.max_batch} reached, please specify "
                                 "resume_from_checkpoint=False (default value) if you wan to "
                                 "train from scratch.")
            estimator.max_batch = estimator.max_batch - batch - 1
            msg += f"{estimator.max_batch} batches "
        param_file = os.path.join(self.model_dir, f)
        trainer_file = param_file[:-len(".params")] + ".states"
        if not os.path.isfile(trainer_file):
            raise ValueError(f"Failed to load checkpoint, {trainer_file} does not exist")
        estimator.net.load_parameters(param_file, ctx=estimator.context)
        estimator.trainer.load_states(trainer_file)
        self.current_epoch, self.current_batch = epoch + 1, batch
        estimator.logger.warning(msg)


class EarlyStoppingHandler(TrainBegin, EpochEnd, TrainEnd):
    """Stop when ``monitor`` has not improved by ``min_delta`` for ``patience`` epochs."""

    def __init__(self, monitor, min_delta=0, patience=0, mode="auto", baseline=None):
        if not isinstance(monitor, EvalMetric):
            raise ValueError("Please provide one of the metric objects from "
                             "estimator.train_metrics and estimator.val_metrics as monitor.")
        if isinstance(monitor, CompositeEvalMetric):
            raise ValueError("CompositeEvalMetric is not supported for EarlyStoppingHandler, "
                             "please specify a simple metric instead.")
        self.monitor = monitor
        self.baseline = baseline
        self.patience = patience
        self.min_delta = min_delta
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        self.monitor_op, self.best = _monitor_op(monitor, mode, "EarlyStopping")
        self.min_delta = self.min_delta if self.monitor_op == np.greater else -self.min_delta

    def train_begin(self, estimator, *args, **kwargs):
        self.wait = 0
        self.stopped_epoch = 0
        self.current_epoch = 0
        self.stop_training = False
        if self.baseline is not None:
            self.best = self.baseline
        else:
            self.best = np.inf if self.monitor_op == np.less else -np.inf

    def epoch_end(self, estimator, *args, **kwargs):
        name, value = self.monitor.get()
        if np.isnan(value):
            warnings.warn(f"{self.__class__.__name__} is monitoring {name}, but its value is "
                          "nan", stacklevel=2)
        elif self.monitor_op(value - self.min_delta, self.best):
            self.best = value
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = self.current_epoch
                self.stop_training = True
        self.current_epoch += 1
        return self.stop_training

    def train_end(self, estimator, *args, **kwargs):
        if self.stopped_epoch > 0:
            estimator.logger.info("[Epoch %d] EarlyStoppingHanlder: early stopping due to %s "
                                  "not improving", self.stopped_epoch, self.monitor.get()[0])


class GradientUpdateHandler(BatchEnd):
    """Call ``trainer.step(batch_size)`` after every batch."""

    def __init__(self, priority=-2000):
        self.priority = priority

    def batch_end(self, estimator, *args, **kwargs):
        loss = kwargs["loss"]
        if not isinstance(loss, list):
            loss = [loss]
        batch_size = sum(lo.shape[0] for lo in loss)
        estimator.trainer.step(batch_size)
