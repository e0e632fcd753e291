"""Evaluation metrics (``mx.metric``): accumulate over batches, report ``(name, value)``.

Examples
--------
>>> acc = mx.metric.create('acc')
>>> acc.update([mx.nd.array([0, 1])], [mx.nd.array([[0.7, 0.3], [0.2, 0.8]])])
>>> acc.get()
('accuracy', 1.0)
"""

from __future__ import annotations

from collections import OrderedDict

import numpy
import torch

from . import ndarray, registry  # noqa: F401  (``from mxnet.metric import ndarray`` works in 1.x)
from .base import AbstractMethodError, abstract, numeric_types, string_types
from .ndarray import NDArray

__all__ = [
    "EvalMetric",
    "CompositeEvalMetric",
    "Accuracy",
    "TopKAccuracy",
    "F1",
    "MCC",
    "Perplexity",
    "MAE",
    "MSE",
    "RMSE",
    "CrossEntropy",
    "NegativeLogLikelihood",
    "PearsonCorrelation",
    "PCC",
    "Loss",
    "Torch",
    "Caffe",
    "CustomMetric",
    "np",
    "create",
    "register",
    "alias",
    "check_label_shapes",
]


def check_label_shapes(labels, preds, wrap=False, shape=False):
    """Raise ``ValueError`` unless labels and predictions have the same length (or shape);
    with ``wrap``, single NDArrays become one-element lists."""
    if not shape:
        label_shape, pred_shape = len(labels), len(preds)
    else:
        label_shape, pred_shape = labels.shape, preds.shape
    if label_shape != pred_shape:
        raise ValueError(
            f"Shape of labels {label_shape} does not match shape of predictions {pred_shape}"
        )
    if wrap:
        if isinstance(labels, NDArray):
            labels = [labels]
        if isinstance(preds, NDArray):
            preds = [preds]
    return labels, preds


def _py(value):
    """NumPy scalars as Python numbers (prints as MXNet 1.9.1 does under NumPy 1.x)."""
    if isinstance(value, numpy.generic):
        return value.item()
    if isinstance(value, list):
        return [_py(v) for v in value]
    return value


class EvalMetric:
    """Base class of metrics: ``update(labels, preds)`` then ``get()``.

    Local statistics (``get``) are reset by ``reset_local`` (e.g. by ``Speedometer``);
    global ones (``get_global``) only by ``reset``.

    Examples
    --------
    >>> m = mx.metric.MAE()
    >>> m.update([mx.nd.array([1, 2])], [mx.nd.array([1.5, 2])])
    >>> m.get()
    ('mae', 0.25)
    """

    def __init__(self, name, output_names=None, label_names=None, **kwargs):
        self.name = str(name)
        self.output_names = output_names
        self.label_names = label_names
        self._has_global_stats = kwargs.pop("has_global_stats", False)
        self._kwargs = kwargs
        self.reset()

    def __str__(self):
        return f"EvalMetric: {dict(self.get_name_value())}"

    def get_config(self):
        """The constructor arguments, so that ``create(**config)`` rebuilds the metric."""
        config = self._kwargs.copy()
        config.update(
            {
                "metric": self.__class__.__name__,
                "name": self.name,
                "output_names": self.output_names,
                "label_names": self.label_names,
            }
        )
        return config

    def update_dict(self, label, pred):
        """Update from dicts of named labels and outputs (``output_names``/``label_names``)."""
        pred = (
            [pred[n] for n in self.output_names]
            if self.output_names is not None
            else list(pred.values())
        )
        label = (
            [label[n] for n in self.label_names]
            if self.label_names is not None
            else list(label.values())
        )
        self.update(label, pred)

    def update(self, labels, preds):
        """Accumulate the statistics of one batch."""
        raise abstract(self, "update")

    def reset(self):
        """Clear local and global statistics."""
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0

    def reset_local(self):
        """Clear the local statistics only."""
        self.num_inst = 0
        self.sum_metric = 0.0

    def get(self):
        """``(name, value)`` of the local statistics (NaN before any update)."""
        if self.num_inst == 0:
            return self.name, float("nan")
        return self.name, _py(self.sum_metric / self.num_inst)

    def get_global(self):
        """``(name, value)`` since the last ``reset``."""
        if not self._has_global_stats:
            return self.get()
        if self.global_num_inst == 0:
            return self.name, float("nan")
        return self.name, _py(self.global_sum_metric / self.global_num_inst)

    @staticmethod
    def _pairs(name, value):
        if not isinstance(name, list):
            name = [name]
        if not isinstance(value, list):
            value = [value]
        return list(zip(name, value))

    def get_name_value(self):
        """List of ``(name, value)`` pairs."""
        return self._pairs(*self.get())

    def get_global_name_value(self):
        """List of global ``(name, value)`` pairs."""
        if self._has_global_stats:
            return self._pairs(*self.get_global())
        return self.get_name_value()


register = registry.get_register_func(EvalMetric, "metric")
alias = registry.get_alias_func(EvalMetric, "metric")
_create = registry.get_create_func(EvalMetric, "metric")


def create(metric, *args, **kwargs):
    """A metric from a name (``'acc'``, ``'ce'``...), an instance, a callable
    (:class:`CustomMetric`) or a list of those (:class:`CompositeEvalMetric`).

    Examples
    --------
    >>> type(mx.metric.create(['acc', 'ce'])).__name__
    'CompositeEvalMetric'
    """
    if callable(metric):
        return CustomMetric(metric, *args, **kwargs)
    if isinstance(metric, list):
        composite = CompositeEvalMetric()
        for child in metric:
            composite.add(create(child, *args, **kwargs))
        return composite
    return _create(metric, *args, **kwargs)


def _public(cls):
    cls.__module__ = "mxnet.metric"
    return cls


@register
@alias("composite")
class CompositeEvalMetric(EvalMetric):
    """Several metrics updated together; ``get()`` returns lists of names and values.

    Examples
    --------
    >>> m = mx.metric.CompositeEvalMetric(['acc', 'ce'])
    """

    def __init__(self, metrics=None, name="composite", output_names=None, label_names=None):
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )
        self.metrics = [create(i) for i in (metrics or [])]

    def add(self, metric):
        """Add a child metric (anything :func:`create` accepts)."""
        self.metrics.append(create(metric))

    def get_metric(self, index):
        """The child metric at ``index`` (MXNet returns, not raises, the range error)."""
        try:
            return self.metrics[index]
        except IndexError:
            return ValueError(f"Metric index {index} is out of range 0 and {len(self.metrics)}")

    def update_dict(self, labels, preds):
        if self.label_names is not None:
            labels = OrderedDict([i for i in labels.items() if i[0] in self.label_names])
        if self.output_names is not None:
            preds = OrderedDict([i for i in preds.items() if i[0] in self.output_names])
        for metric in self.metrics:
            metric.update_dict(labels, preds)

    def update(self, labels, preds):
        for metric in self.metrics:
            metric.update(labels, preds)

    def reset(self):
        for metric in getattr(self, "metrics", []):
            metric.reset()

    def reset_local(self):
        for metric in getattr(self, "metrics", []):
            metric.reset_local()

    def _collect(self, method):
        names, values = [], []
        for metric in self.metrics:
            name, value = getattr(metric, method)()
            if isinstance(name, string_types):
                name = [name]
            if isinstance(value, numeric_types):
                value = [value]
            names.extend(name)
            values.extend(value)
        return names, values

    def get(self):
        names, values = self._collect("get")
        return names, _py(values)

    def get_global(self):
        names, values = self._collect("get_global")
        return names, _py(values)

    def get_config(self):
        config = super().get_config()
        config.update({"metrics": [i.get_config() for i in self.metrics]})
        return config


class _Counting(EvalMetric):
    """Helper: add to local and global sums together."""

    def _add(self, value, count):
        if isinstance(value, numpy.floating):  # NumPy 1.x summed float32 scores in float64
            value = numpy.float64(value)
        self.sum_metric += value
        self.global_sum_metric += value
        self.num_inst += count
        self.global_num_inst += count


@register
@alias("acc")
class Accuracy(_Counting):
    """Fraction of predictions equal to the label (argmax over ``axis`` when the
    prediction has one more dimension).

    Examples
    --------
    >>> m = mx.metric.Accuracy()
    """

    def __init__(self, axis=1, name="accuracy", output_names=None, label_names=None):
        super().__init__(
            name,
            axis=axis,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=True,
        )
        self.axis = axis

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            if pred.shape != label.shape:
                p = torch.argmax(pred._t, dim=self.axis).cpu().numpy().astype("int32")
            else:
                p = pred.asnumpy().astype("int32")
            lab = label.asnumpy().astype("int32").flat
            p = p.flat
            check_label_shapes(lab, p)
            self._add((p == lab).sum(), len(p))


@register
@alias("top_k_accuracy", "top_k_acc")
class TopKAccuracy(_Counting):
    """Fraction of samples whose label is among the ``top_k`` highest scores.

    Examples
    --------
    >>> m = mx.metric.TopKAccuracy(top_k=3)
    >>> m.name
    'top_k_accuracy_3'
    """

    def __init__(self, top_k=1, name="top_k_accuracy", output_names=None, label_names=None):
        super().__init__(
            name,
            top_k=top_k,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=True,
        )
        self.top_k = top_k
        assert self.top_k > 1, "Please use Accuracy if top_k is no more than 1"
        self.name += f"_{self.top_k}"

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            assert len(pred.shape) <= 2, "Predictions should be no more than 2 dims"
            p = numpy.argpartition(pred.asnumpy().astype("float32"), -self.top_k)
            lab = label.asnumpy().astype("int32")
            check_label_shapes(lab, p)
            n = p.shape[0]
            if p.ndim == 1:
                self.sum_metric += (p.flat == lab.flat).sum()
            else:
                ncls = p.shape[1]
                for j in range(min(ncls, self.top_k)):
                    correct = (p[:, ncls - 1 - j].flat == lab.flat).sum()
                    self.sum_metric += correct
                    self.global_sum_metric += correct
            self.num_inst += n
            self.global_num_inst += n


class _Regression(_Counting):
    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lab, p = label.asnumpy(), pred.asnumpy()
            if lab.ndim == 1:
                lab = lab.reshape(lab.shape[0], 1)
            if p.ndim == 1:
                p = p.reshape(p.shape[0], 1)
            self._add(self._score(lab, p), 1)


@register
class MAE(_Regression):
    """Mean absolute error (averaged per batch). ``mx.metric.MAE()``"""

    def __init__(self, name="mae", output_names=None, label_names=None):
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

    @staticmethod
    def _score(label, pred):
        return numpy.abs(label - pred).mean()


@register
class MSE(_Regression):
    """Mean squared error (averaged per batch). ``mx.metric.MSE()``"""

    def __init__(self, name="mse", output_names=None, label_names=None):
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

    @staticmethod
    def _score(label, pred):
        return ((label - pred) ** 2.0).mean()


@register
class RMSE(_Regression):
    """Root mean squared error (averaged per batch). ``mx.metric.RMSE()``"""

    def __init__(self, name="rmse", output_names=None, label_names=None):
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

    @staticmethod
    def _score(label, pred):
        return numpy.sqrt(((label - pred) ** 2.0).mean())


class _LogLoss(_Counting):
    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lab, p = label.asnumpy().ravel(), pred.asnumpy()
            n = p.shape[0]
            assert lab.shape[0] == n, (lab.shape[0], n)
            prob = p[numpy.arange(n, dtype=numpy.int64), numpy.int64(lab)]
            self._add((-numpy.log(prob + self.eps)).sum(), n)


@register
@alias("ce")
class CrossEntropy(_LogLoss):
    """Mean of ``-log(p[label] + eps)``. ``mx.metric.CrossEntropy()``"""

    def __init__(self, eps=1e-12, name="cross-entropy", output_names=None, label_names=None):
        super().__init__(
            name, eps=eps, output_names=output_names, label_names=label_names, has_global_stats=True
        )
        self.eps = eps


@register
@alias("nll_loss")
class NegativeLogLikelihood(_LogLoss):
    """Mean negative log likelihood of the label. ``mx.metric.NegativeLogLikelihood()``"""

    def __init__(self, eps=1e-12, name="nll-loss", output_names=None, label_names=None):
        super().__init__(
            name, eps=eps, output_names=output_names, label_names=label_names, has_global_stats=True
        )
        self.eps = eps


@register
class Loss(_Counting):
    """Mean of the output values (for networks whose output is the loss).
    ``mx.metric.Loss()``"""

    def __init__(self, name="loss", output_names=None, label_names=None):
        super().__init__(
            name, output_names=output_names, label_names=label_names, has_global_stats=True
        )

    def update(self, _, preds):
        if isinstance(preds, NDArray):
            preds = [preds]
        for pred in preds:
            self._add(float(pred._t.sum().item()), pred.size)


@register
class Torch(Loss):
    """Dummy metric for torch criterions (same as :class:`Loss`)."""

    def __init__(self, name="torch", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class Caffe(Loss):
    """Dummy metric for caffe criterions (same as :class:`Loss`)."""

    def __init__(self, name="caffe", output_names=None, label_names=None):
        super().__init__(name, output_names=output_names, label_names=label_names)


@register
class CustomMetric(_Counting):
    """A metric from ``feval(label, pred) -> value or (sum, count)`` on NumPy arrays.

    Examples
    --------
    >>> m = mx.metric.CustomMetric(lambda l, p: float((l == p.argmax(1)).mean()), name='my')
    """

    def __init__(
        self, feval, name=None, allow_extra_outputs=False, output_names=None, label_names=None
    ):
        if name is None:
            name = feval.__name__
            if name.find("<") != -1:
                name = f"custom({name})"
        super().__init__(
            name,
            feval=feval,
            allow_extra_outputs=allow_extra_outputs,
            output_names=output_names,
            label_names=label_names,
            has_global_stats=True,
        )
        self._feval = feval
        self._allow_extra_outputs = allow_extra_outputs

    def update(self, labels, preds):
        if not self._allow_extra_outputs:
            labels, preds = check_label_shapes(labels, preds, True)
        for pred, label in zip(preds, labels):
            reval = self._feval(label.asnumpy(), pred.asnumpy())
            if isinstance(reval, tuple):
                self._add(*reval)
            else:
                self._add(reval, 1)

    def get_config(self):
        raise AbstractMethodError("CustomMetric cannot be serialized (its feval is arbitrary code)")


def np(numpy_feval, name=None, allow_extra_outputs=False):
    """A :class:`CustomMetric` from a NumPy function ``feval(label, pred)``.

    Examples
    --------
    >>> def err(label, pred):
    ...     return float(abs(label - pred).mean())
    >>> m = mx.metric.np(err)
    >>> m.name
    'err'
    """

    def feval(label, pred):
        return numpy_feval(label, pred)

    feval.__name__ = numpy_feval.__name__
    return CustomMetric(feval, name, allow_extra_outputs)


from ._metric_more import (  # noqa: E402
    F1,
    MCC,
    PCC,
    PearsonCorrelation,
    Perplexity,
    _BinaryClassificationMetrics,  # noqa: F401  (a name of MXNet's metric module)
)

for _cls in (F1, MCC, PCC, PearsonCorrelation, Perplexity):
    _public(_cls)
