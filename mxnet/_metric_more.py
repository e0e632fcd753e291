"""Classification-statistics and correlation metrics of ``mx.metric``: F1, MCC, PCC,
PearsonCorrelation, Perplexity (re-exported by :mod:`mxnet.metric`)."""

from __future__ import annotations

import math

import numpy
import torch

from .base import abstract
from .metric import EvalMetric, _Counting, _py, alias, check_label_shapes, register

__all__ = ["F1", "MCC", "PCC", "PearsonCorrelation", "Perplexity"]

_FIELDS = ("true_positives", "false_negatives", "false_positives", "true_negatives")


class _BinaryClassificationMetrics:
    """Confusion counts of a binary classifier, local and global."""

    def __init__(self):
        self.reset_stats()

    def update_binary_stats(self, label, pred):
        pred = pred.asnumpy()
        label = label.asnumpy().astype("int32")
        pred_label = numpy.argmax(pred, axis=1)
        check_label_shapes(label, pred)
        if len(numpy.unique(label)) > 2:
            raise ValueError(f"{self.__class__.__name__} currently only supports binary "
                             "classification.")
        pred_true = pred_label == 1
        pred_false = 1 - pred_true
        label_true = label == 1
        label_false = 1 - label_true
        counts = {"true_positives": (pred_true * label_true).sum(),
                  "false_positives": (pred_true * label_false).sum(),
                  "false_negatives": (pred_false * label_true).sum(),
                  "true_negatives": (pred_false * label_false).sum()}
        for k, v in counts.items():
            setattr(self, k, getattr(self, k) + v)
            setattr(self, "global_" + k, getattr(self, "global_" + k) + v)

    @staticmethod
    def _ratio(a, b):
        return float(a) / (a + b) if a + b > 0 else 0.0

    @property
    def precision(self):
        return self._ratio(self.true_positives, self.false_positives)

    @property
    def global_precision(self):
        return self._ratio(self.global_true_positives, self.global_false_positives)

    @property
    def recall(self):
        return self._ratio(self.true_positives, self.false_negatives)

    @property
    def global_recall(self):
        return self._ratio(self.global_true_positives, self.global_false_negatives)

    @staticmethod
    def _f(p, r):
        return 2 * p * r / (p + r) if p + r > 0 else 0.0

    @property
    def fscore(self):
        return self._f(self.precision, self.recall)

    @property
    def global_fscore(self):
        return self._f(self.global_precision, self.global_recall)

    def matthewscc(self, use_global=False):
        pre = "global_" if use_global else ""
        if not (self.global_total_examples if use_global else self.total_examples):
            return 0.0
        tp, fp, fn, tn = (float(getattr(self, pre + k)) for k in
                          ("true_positives", "false_positives", "false_negatives",
                           "true_negatives"))
        denom = 1.0
        for t in (tp + fp, tp + fn, tn + fp, tn + fn):
            if t != 0.0:
                denom *= t
        return (tp * tn - fp * fn) / math.sqrt(denom)

    @property
    def total_examples(self):
        return (self.false_negatives + self.false_positives + self.true_negatives
                + self.true_positives)

    @property
    def global_total_examples(self):
        return (self.global_false_negatives + self.global_false_positives
                + self.global_true_negatives + self.global_true_positives)

    def local_reset_stats(self):
        for k in _FIELDS:
            setattr(self, k, 0)

    def reset_stats(self):
        for k in _FIELDS:
            setattr(self, k, 0)
            setattr(self, "global_" + k, 0)


class _Binary(EvalMetric):
    """F1 and MCC: per-batch average ('macro') or over all samples ('micro')."""

    def _score(self, use_global):
        raise abstract(self, "_score")

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        stats = self._stats
        for label, pred in zip(labels, preds):
            stats.update_binary_stats(label, pred)
        if self._avg == "macro":
            self.sum_metric += self._score(False)
            self.global_sum_metric += self._score(True)
            self.num_inst += 1
            self.global_num_inst += 1
            stats.reset_stats()
        else:
            self.sum_metric = self._score(False) * stats.total_examples
            self.global_sum_metric = self._score(True) * stats.global_total_examples
            self.num_inst = stats.total_examples
            self.global_num_inst = stats.global_total_examples


@register
class F1(_Binary):
    """F1 score of a binary classifier (predictions are per-class scores).

    Examples
    --------
    >>> m = mx.metric.F1(average='micro')
    """

    def __init__(self, name="f1", output_names=None, label_names=None, average="macro"):
        self.average = average
        self.metrics = _BinaryClassificationMetrics()
        EvalMetric.__init__(self, name=name, output_names=output_names,
                            label_names=label_names, has_global_stats=True)

    @property
    def _stats(self):
        return self.metrics

    @property
    def _avg(self):
        return self.average

    def _score(self, use_global):
        return self.metrics.global_fscore if use_global else self.metrics.fscore

    def reset(self):
        self.sum_metric = 0.0
        self.num_inst = 0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0
        self.metrics.reset_stats()

    def reset_local(self):
        self.sum_metric = 0.0
        self.num_inst = 0
        self.metrics.local_reset_stats()


@register
class MCC(_Binary):
    """Matthews correlation coefficient of a binary classifier.

    Examples
    --------
    >>> m = mx.metric.MCC()
    """

    def __init__(self, name="mcc", output_names=None, label_names=None, average="macro"):
        self._average = average
        self._metrics = _BinaryClassificationMetrics()
        EvalMetric.__init__(self, name=name, output_names=output_names,
                            label_names=label_names, has_global_stats=True)

    @property
    def _stats(self):
        return self._metrics

    @property
    def _avg(self):
        return self._average

    def _score(self, use_global):
        return self._metrics.matthewscc(use_global=use_global)

    def reset(self):
        self.sum_metric = 0.0
        self.num_inst = 0.0
        self.global_sum_metric = 0.0
        self.global_num_inst = 0.0
        self._metrics.reset_stats()

    def reset_local(self):
        self.sum_metric = 0.0
        self.num_inst = 0.0
        self._metrics.local_reset_stats()


@register
class Perplexity(_Counting):
    """``exp`` of the mean negative log probability of the labels, skipping
    ``ignore_label``.

    Examples
    --------
    >>> m = mx.metric.Perplexity(ignore_label=None)
    """

    def __init__(self, ignore_label, axis=-1, name="perplexity", output_names=None,
                 label_names=None):
        super().__init__(name, ignore_label=ignore_label, output_names=output_names,
                         label_names=label_names, has_global_stats=True)
        self.ignore_label = ignore_label
        self.axis = axis

    def update(self, labels, preds):
        assert len(labels) == len(preds)
        loss = 0.0
        num = 0
        for label, pred in zip(labels, preds):
            assert label.size == pred.size / pred.shape[-1], \
                f"shape mismatch: {label.shape} vs. {pred.shape}"
            lab = label._t.reshape(-1).to(pred._t.device)
            p = pred._t
            axis = self.axis % p.dim()
            idx = lab.to(torch.int64).clamp(0, p.shape[axis] - 1)
            idx = idx.reshape([p.shape[d] if d != axis else 1 for d in range(p.dim())]) \
                if p.dim() > 1 else idx
            picked = torch.gather(p, axis, idx).reshape(-1) if p.dim() > 1 else p[idx]
            if self.ignore_label is not None:
                ignore = (lab == self.ignore_label).to(picked.dtype)
                num -= float(ignore.sum().item())
                picked = picked * (1 - ignore) + ignore
            loss -= float(torch.log(torch.clamp(picked, min=1e-10)).sum().item())
            num += picked.numel()
        self._add(loss, num)

    def get(self):
        if self.num_inst == 0:
            return self.name, float("nan")
        return self.name, math.exp(self.sum_metric / self.num_inst)

    def get_global(self):
        if self.global_num_inst == 0:
            return self.name, float("nan")
        return self.name, math.exp(self.global_sum_metric / self.global_num_inst)


@register
@alias("pearsonr")
class PearsonCorrelation(EvalMetric):
    """Pearson correlation of predictions and labels: per batch ('macro') or streamed over
    all samples ('micro').

    Examples
    --------
    >>> m = mx.metric.PearsonCorrelation(average='micro')
    """

    def __init__(self, name="pearsonr", output_names=None, label_names=None, average="macro"):
        self.average = average
        super().__init__(name, output_names=output_names, label_names=label_names,
                         has_global_stats=True)
        if self.average == "micro":
            self.reset_micro()

    def reset_micro(self):
        self._sse_p = 0
        self._mean_p = 0
        self._sse_l = 0
        self._mean_l = 0
        self._pred_nums = 0
        self._label_nums = 0
        self._conv = 0

    def reset(self):
        self.num_inst = 0
        self.sum_metric = 0.0
        self.global_num_inst = 0
        self.global_sum_metric = 0.0
        if self.average == "micro":
            self.reset_micro()

    def update_variance(self, new_values, *aggregate):
        count, mean, m_2 = aggregate
        count += len(new_values)
        delta = new_values - mean
        mean += numpy.sum(delta / count)
        delta_2 = new_values - mean
        m_2 += numpy.sum(delta * delta_2)
        return count, mean, m_2

    def update_cov(self, label, pred):
        self._conv = self._conv + numpy.sum((label - self._mean_l) * (pred - self._mean_p))

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            check_label_shapes(label, pred, False, True)
            lab = label.asnumpy().ravel().astype(numpy.float64)
            p = pred.asnumpy().ravel().astype(numpy.float64)
            self.num_inst += 1
            self.global_num_inst += 1
            if self.average == "macro":
                corr = numpy.corrcoef(p, lab)[0, 1]
                self.sum_metric += corr
                self.global_sum_metric += corr
            else:
                self._label_nums, self._mean_l, self._sse_l = self.update_variance(
                    lab, self._label_nums, self._mean_l, self._sse_l)
                self.update_cov(lab, p)
                self._pred_nums, self._mean_p, self._sse_p = self.update_variance(
                    p, self._pred_nums, self._mean_p, self._sse_p)

    def get(self):
        if self.num_inst == 0:
            return self.name, float("nan")
        if self.average == "macro":
            return self.name, _py(self.sum_metric / self.num_inst)
        n = self._label_nums
        return self.name, _py(self._conv / ((n - 1) * numpy.sqrt(self._sse_p / (n - 1))
                                            * numpy.sqrt(self._sse_l / (n - 1))))


@register
class PCC(EvalMetric):
    """Multi-class Matthews correlation (PCC) from a growing confusion matrix.

    Examples
    --------
    >>> m = mx.metric.PCC()
    """

    def __init__(self, name="pcc", output_names=None, label_names=None, has_global_stats=True):
        self.k = 2
        super().__init__(name=name, output_names=output_names, label_names=label_names,
                         has_global_stats=has_global_stats)

    def _grow(self, inc):
        self.lcm = numpy.pad(self.lcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.gcm = numpy.pad(self.gcm, ((0, inc), (0, inc)), "constant", constant_values=0)
        self.k += inc

    def _calc_mcc(self, cmat):
        n = cmat.sum()
        x = cmat.sum(axis=1)
        y = cmat.sum(axis=0)
        cov_xx = numpy.sum(x * (n - x))
        cov_yy = numpy.sum(y * (n - y))
        if cov_xx == 0 or cov_yy == 0:
            return float("nan")
        i = cmat.diagonal()
        cov_xy = numpy.sum(i * n - x * y)
        return cov_xy / (cov_xx * cov_yy) ** 0.5

    def update(self, labels, preds):
        labels, preds = check_label_shapes(labels, preds, True)
        for label, pred in zip(labels, preds):
            lab = label.asnumpy().astype("int32")
            p = pred.asnumpy()
            p = p.argmax(axis=1) if p.shape != lab.shape else p.astype("int32")
            n = max(p.max(), lab.max())
            if n >= self.k:
                self._grow(n + 1 - self.k)
            bcm = numpy.zeros((self.k, self.k))
            for i, j in zip(p, lab):
                bcm[i, j] += 1
            self.lcm += bcm
            self.gcm += bcm
        self.num_inst += 1
        self.global_num_inst += 1

    @property
    def sum_metric(self):
        return self._calc_mcc(self.lcm) * self.num_inst

    @sum_metric.setter
    def sum_metric(self, value):
        pass  # derived from the confusion matrix

    @property
    def global_sum_metric(self):
        return self._calc_mcc(self.gcm) * self.global_num_inst

    @global_sum_metric.setter
    def global_sum_metric(self, value):
        pass

    def reset(self):
        self.global_num_inst = 0.0
        self.gcm = numpy.zeros((self.k, self.k))
        self.reset_local()

    def reset_local(self):
        self.num_inst = 0.0
        self.lcm = numpy.zeros((self.k, self.k))
