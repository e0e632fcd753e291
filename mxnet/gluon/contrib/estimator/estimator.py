"""The Gluon Estimator: ``fit``/``evaluate`` loops driven by event handlers."""

from __future__ import annotations

import copy
import logging
import sys
import warnings

from .... import initializer, metric
from ....context import Context, cpu, gpu, num_gpus
from ...data import DataLoader
from ...loss import Loss as GluonLoss
from ...loss import SigmoidBinaryCrossEntropyLoss, SoftmaxCrossEntropyLoss
from ...trainer import Trainer
from .batch_processor import BatchProcessor
from .event_handler import (
    BatchBegin,
    BatchEnd,
    EpochBegin,
    EpochEnd,
    EventHandler,
    GradientUpdateHandler,
    LoggingHandler,
    MetricHandler,
    StoppingHandler,
    TrainBegin,
    TrainEnd,
    ValidationHandler,
    _check_metrics,
)

__all__ = ["Estimator"]


def _check_handler_metric_ref(handler, known_metrics):
    for attribute in dir(handler):
        if "metric" not in attribute:
            continue
        reference = getattr(handler, attribute)
        if not reference:
            continue
        for m in reference if isinstance(reference, list) else [reference]:
            if m not in known_metrics:
                raise ValueError(f"Event handler {type(handler).__name__} refers to a metric "
                                 f"instance {m} outside of the known training and "
                                 "validation metrics. Please use the metrics from "
                                 "estimator.train_metrics and estimator.val_metrics instead.")


def _check_event_handlers(handlers):
    if isinstance(handlers, EventHandler):
        return [handlers]
    handlers = list(handlers or [])
    if not all(isinstance(h, EventHandler) for h in handlers):
        raise ValueError(f"handlers must be an EventHandler or a list of EventHandler, got: "
                         f"{handlers}")
    return handlers


def _suggest_metric_for_loss(loss):
    if isinstance(loss, (SoftmaxCrossEntropyLoss, SigmoidBinaryCrossEntropyLoss)):
        return metric.Accuracy()
    return None


class Estimator:
    """Train and evaluate ``net`` with ``loss``, printing progress through handlers.

    Parameters
    ----------
    net : Block
    loss : gluon.loss.Loss
    train_metrics, val_metrics : EvalMetric or list of EvalMetric, optional
    initializer : Initializer, optional
    trainer : Trainer, optional
        Default: SGD with learning rate 0.001.
    context : Context or list of Context, optional
    val_net, val_loss : optional
        Network and loss used for validation (default: ``net`` and ``loss``).
    batch_processor : BatchProcessor, optional

    Examples
    --------
    >>> est = Estimator(net, gluon.loss.SoftmaxCrossEntropyLoss(), trainer=trainer)
    >>> est.fit(train_loader, val_data=val_loader, epochs=2)  # doctest: +SKIP
    """

    logger = None

    def __init__(self, net, loss, train_metrics=None, val_metrics=None, initializer=None,
                 trainer=None, context=None, val_net=None, val_loss=None,
                 batch_processor=None):
        self.net = net
        self.loss = self._check_loss(loss)
        self._train_metrics = _check_metrics(train_metrics)
        self._val_metrics = _check_metrics(val_metrics)
        self._add_default_training_metrics()
        self._add_validation_metrics()
        self.val_loss = self.loss if val_loss is None else self._check_loss(val_loss)
        self.val_net = self.net if val_net is None else val_net
        self.logger = logging.Logger(name="Estimator", level=logging.INFO)
        self.logger.addHandler(logging.StreamHandler(sys.stdout))
        self.context = self._check_context(context)
        self._initialize(initializer)
        self.trainer = self._check_trainer(trainer)
        self.batch_processor = batch_processor or BatchProcessor()
        if not isinstance(self.batch_processor, BatchProcessor):
            raise ValueError("batch_processor must be a BatchProcessor")
        self.max_epoch = None
        self.max_batch = None
        self.batch_axis = 0

    @staticmethod
    def _check_loss(loss):
        if not isinstance(loss, GluonLoss):
            raise ValueError(f"loss must be a Loss, refer to gluon.loss.Loss:{loss}")
        return loss

    @staticmethod
    def _check_context(context):
        n = num_gpus()
        if isinstance(context, list) and all(isinstance(c, Context) for c in context):
            valid = [cpu()] + [gpu(i) for i in range(n)]
            for c in context:
                if c not in valid:
                    raise AssertionError(
                        f"{c} is not available, please make sure your context is in one of: "
                        f"mx.cpu(), {', '.join(f'mx.gpu({i})' for i in range(n))}")
            return context
        if context is None:
            if n > 1:
                warnings.warn("You have multiple GPUs, gpu(0) will be used by default.To "
                              "utilize all your GPUs, specify context as a list of gpus, e.g. "
                              "context=[mx.gpu(0), mx.gpu(1)] ", stacklevel=3)
            return [gpu(0)] if n > 0 else [cpu()]
        if isinstance(context, Context):
            return [context]
        raise ValueError(f"context must be a Context or a list of Context, for example "
                         f"mx.cpu() or [mx.gpu(0), mx.gpu(1)], refer to mxnet.Context:"
                         f"{context}")

    def _initialize(self, init):
        params = self.net.collect_params()
        uninitialized = [p for p in params.values() if p._data is None and
                         not p._deferred_init]
        if not uninitialized:
            if init:
                warnings.warn("Network already fully initialized, skipping initialization. "
                              "You don't need to pass initializer if you already initialized "
                              "your net. You can use net.initialize(init=your_initializer, "
                              "force_reinit=True)to force re-initialize.", stacklevel=3)
            return
        self.net.initialize(init=init if init else initializer.Xavier(), ctx=self.context)

    def _check_trainer(self, trainer):
        if not trainer:
            warnings.warn("No trainer specified, default SGD optimizer with learning rate "
                          "0.001 is used.", stacklevel=3)
            return Trainer(self.net.collect_params(), "sgd", {"learning_rate": 0.001})
        if not isinstance(trainer, Trainer):
            raise ValueError(f"Trainer must be a Gluon Trainer instance, refer to "
                             f"gluon.Trainer:{trainer}")
        return trainer

    def _add_default_training_metrics(self):
        if not self._train_metrics:
            suggested = _suggest_metric_for_loss(self.loss)
            self._train_metrics = [suggested] if suggested else []
            loss_name = self.loss.name.rstrip("1234567890")
            self._train_metrics.append(metric.Loss(loss_name))
        for m in self._train_metrics:
            m.name = "training " + m.name

    def _add_validation_metrics(self):
        if not self._val_metrics:
            self._val_metrics = [copy.deepcopy(m) for m in self._train_metrics]
        for m in self._val_metrics:
            if "training" in m.name:
                m.name = m.name.replace("training", "validation")
            else:
                m.name = "validation " + m.name

    @property
    def train_metrics(self):
        return self._train_metrics

    @property
    def val_metrics(self):
        return self._val_metrics

    @staticmethod
    def _check_loader(data, what):
        if not isinstance(data, DataLoader):
            raise ValueError("Estimator only support input as Gluon DataLoader. "
                             "Alternatively, you can transform your DataIter or any NDArray "
                             "into Gluon DataLoader. Refer to gluon.data.DataLoader")

    @staticmethod
    def _categorize_handlers(handlers):
        kinds = (TrainBegin, EpochBegin, BatchBegin, BatchEnd, EpochEnd, TrainEnd)
        return [[h for h in handlers if isinstance(h, k)] for k in kinds]

    def evaluate_batch(self, val_batch, batch_axis=0):
        return self.batch_processor.evaluate_batch(self, val_batch, batch_axis)

    def fit_batch(self, train_batch, batch_axis=0):
        return self.batch_processor.fit_batch(self, train_batch, batch_axis)

    def evaluate(self, val_data, batch_axis=0, event_handlers=None):
        """Run ``val_net`` over ``val_data`` updating the validation metrics."""
        self._check_loader(val_data, "val_data")
        for m in self.val_metrics:
            m.reset()
        handlers = _check_event_handlers(event_handlers)
        if not any(isinstance(h, MetricHandler) for h in handlers):
            handlers.append(MetricHandler(metrics=self.val_metrics, priority=-1000))
        if not any(isinstance(h, LoggingHandler) for h in handlers):
            handlers.append(LoggingHandler(metrics=self.val_metrics))
        handlers.sort(key=lambda h: getattr(h, "priority", 0))
        _, epoch_begin, batch_begin, batch_end, epoch_end, _ = \
            self._categorize_handlers(handlers)
        for h in epoch_begin:
            h.epoch_begin(self)
        for batch in val_data:
            for h in batch_begin:
                h.batch_begin(self, batch=batch)
            _, label, pred, loss = self.evaluate_batch(batch, batch_axis)
            for h in batch_end:
                h.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
        for h in epoch_end:
            h.epoch_end(self)

    def _prepare_default_handlers(self, val_data, event_handlers):
        handlers = _check_event_handlers(event_handlers)
        added = [StoppingHandler(self.max_epoch, self.max_batch)]
        if not any(isinstance(h, GradientUpdateHandler) for h in handlers):
            added.append(GradientUpdateHandler())
        if not any(isinstance(h, MetricHandler) for h in handlers):
            added.append(MetricHandler(metrics=self.train_metrics))
        if not any(isinstance(h, ValidationHandler) for h in handlers) and val_data:
            added.append(ValidationHandler(val_data=val_data, eval_fn=self.evaluate))
        if not any(isinstance(h, LoggingHandler) for h in handlers):
            added.append(LoggingHandler(metrics=self.train_metrics))  # as MXNet 1.9.1
        mixing = bool(handlers) and bool(added)
        handlers.extend(added)
        if mixing:  # user and default handlers must share the estimator's metric objects
            known = set(self.train_metrics + self.val_metrics)
            for h in handlers:
                _check_handler_metric_ref(h, known)
        handlers.sort(key=lambda h: getattr(h, "priority", 0))
        return handlers

    def fit(self, train_data, val_data=None, epochs=None, event_handlers=None, batches=None,
            batch_axis=0):
        """Train for ``epochs`` epochs or ``batches`` batches (exactly one of them)."""
        self._check_loader(train_data, "train_data")
        if (not epochs) == (not batches):
            raise ValueError("Fit only support exactly one type of iteration, train by number "
                             "of epochs or number of batches. Please specify one and only one "
                             "of: epochs or batches.")
        self.max_epoch = epochs
        self.max_batch = batches
        self.batch_axis = batch_axis
        handlers = self._prepare_default_handlers(val_data, event_handlers)
        train_begin, epoch_begin, batch_begin, batch_end, epoch_end, train_end = \
            self._categorize_handlers(handlers)
        for h in train_begin:
            h.train_begin(self)
        while True:
            for h in epoch_begin:
                h.epoch_begin(self)
            stop = False
            for batch in train_data:
                for h in batch_begin:
                    h.batch_begin(self, batch=batch)
                _, label, pred, loss = self.fit_batch(batch, batch_axis)
                results = [h.batch_end(self, batch=batch, pred=pred, label=label, loss=loss)
                           for h in batch_end]
                if any(results):
                    stop = True
                    break
            results = [h.epoch_end(self) for h in epoch_end]
            if stop or any(results):
                break
        for h in train_end:
            h.train_end(self)
