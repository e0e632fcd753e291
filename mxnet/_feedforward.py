"""The legacy ``mx.model.FeedForward`` API, implemented over :class:`mxnet.module.Module`."""

from __future__ import annotations

import logging

import numpy as np

from .base import MXNetError

__all__ = ["FeedForward"]


def _default_init():
    from .initializer import Uniform

    return Uniform(0.01)


_DEFAULT = object()  # fit(eval_end_callback=...) unset: log validation as MXNet


class FeedForward:
    """MXNet's pre-Module model class (deprecated in MXNet too): fit/predict/score/save/load.

    Examples
    --------
    >>> model = mx.model.FeedForward(net, num_epoch=2, learning_rate=0.1)  # doctest: +SKIP
    >>> model.fit(X=train_iter)                                            # doctest: +SKIP
    """

    __module__ = "mxnet.model"  # its public path (reprs, pickles), as in MXNet

    def __init__(self, symbol, ctx=None, num_epoch=None, epoch_size=None, optimizer="sgd",
                 initializer=None, numpy_batch_size=128, arg_params=None, aux_params=None,
                 allow_extra_params=False, begin_epoch=0, **kwargs):
        from .context import Context, cpu

        # MXNet 1.x: a callable ``symbol`` is a bucketing ``sym_gen(bucket_key)``; fit
        # builds the default bucket's symbol from the data's ``default_bucket_key``.
        self.sym_gen = symbol if callable(symbol) and not hasattr(symbol, "list_arguments") \
            else None
        self.symbol = None if self.sym_gen is not None else symbol
        if ctx is None:
            ctx = [cpu()]
        elif isinstance(ctx, Context):
            ctx = [ctx]
        self.ctx = ctx
        self.num_epoch = num_epoch
        self.epoch_size = epoch_size
        self.kwargs = dict(kwargs)
        self.optimizer = optimizer
        self.initializer = initializer or _default_init()
        self.numpy_batch_size = numpy_batch_size
        self.arg_params = arg_params
        self.aux_params = aux_params
        self.allow_extra_params = allow_extra_params
        self.begin_epoch = begin_epoch
        self._mod = None

    def _iter(self, X, y, is_train):
        from .io import DataIter, NDArrayIter

        if isinstance(X, DataIter):
            return X
        if isinstance(X, (np.ndarray, list)) or hasattr(X, "asnumpy"):
            if y is None:
                if is_train:
                    raise MXNetError("FeedForward.fit: y is required when X is an array")
                y = np.zeros(len(X))
            return NDArrayIter(X, y, min(len(X), self.numpy_batch_size), shuffle=is_train,
                               last_batch_handle="roll_over" if is_train else "pad")
        raise TypeError(f"X must be a DataIter or an array, got {type(X).__name__}")

    def _module(self, data_iter, for_training, bind=True):
        from .module import Module

        data_names = [d[0] if isinstance(d, tuple) else d.name for d in data_iter.provide_data]
        label_names = [d[0] if isinstance(d, tuple) else d.name
                       for d in (data_iter.provide_label or [])]
        args = self.symbol.list_arguments()
        label_names = [n for n in label_names if n in args]
        label_shapes = [d for d in (data_iter.provide_label or [])
                        if (d[0] if isinstance(d, tuple) else d.name) in label_names]
        if not for_training and self.arg_params is not None:
            # MXNet's predictor binds every argument it has no value for (e.g. a loss
            # layer's label such as SVMOutput's ``svm_label`` when X is a NumPy array) as
            # zeros of the inferred shape instead of treating it as a missing parameter.
            free = [a for a in args if a not in data_names and a not in label_names
                    and a not in self.arg_params]
            if free:
                shapes = dict(zip(args, self.symbol.infer_shape_partial(
                    **{(d[0] if isinstance(d, tuple) else d.name):
                       (d[1] if isinstance(d, tuple) else d.shape)
                       for d in data_iter.provide_data})[0]))
                label_names = label_names + free
                label_shapes = list(label_shapes) + [(n, shapes[n]) for n in free]
        if self.sym_gen is not None and for_training:
            from .module import BucketingModule

            gen = self.sym_gen

            def _gen(key):
                return gen(key), data_names, label_names

            mod = BucketingModule(_gen, default_bucket_key=data_iter.default_bucket_key,
                                  context=self.ctx)
        else:
            mod = Module(self.symbol, data_names=data_names, label_names=label_names,
                         context=self.ctx)
        if not bind:
            return mod
        mod.bind(data_shapes=data_iter.provide_data,
                 label_shapes=label_shapes if label_names else None,
                 for_training=for_training)
        return mod

    def _init_param_arrays(self, data) -> tuple:
        """Parameter arrays for training, as MXNet 1.9.1's ``FeedForward._init_params``.

        Given values are kept; the others are drawn by the initializer one by one in
        ``list_arguments()`` order (then auxiliary states in their order), called with the
        plain name, so seeded runs draw the same numbers as MXNet.
        """
        from . import ndarray as nd

        descs = list(data.provide_data) + list(data.provide_label or [])
        shapes = {(d[0] if isinstance(d, tuple) else d.name):
                  (d[1] if isinstance(d, tuple) else d.shape) for d in descs}
        known = set(self.symbol.list_arguments())
        arg_shapes, _, aux_shapes = self.symbol.infer_shape(
            **{k: v for k, v in shapes.items() if k in known})
        arg_types, _, aux_types = self.symbol.infer_type(
            **{(d[0] if isinstance(d, tuple) else d.name): getattr(d, "dtype", np.float32)
               for d in descs if (d[0] if isinstance(d, tuple) else d.name) in known})
        arg_types = arg_types or [np.float32] * len(arg_shapes)
        aux_types = aux_types or [np.float32] * len(aux_shapes)
        out = []
        for names, shp, typ, given in (
                (self.symbol.list_arguments(), arg_shapes, arg_types, self.arg_params),
                (self.symbol.list_auxiliary_states(), aux_shapes, aux_types, self.aux_params)):
            params = {}
            for name, s, t in zip(names, shp, typ):
                if name in shapes:
                    continue
                arr = nd.zeros(s, dtype=t)
                if given and name in given:
                    arr[:] = given[name]
                else:
                    self.initializer(name, arr)
                params[name] = arr
            out.append(params)
        return out[0], out[1]

    def fit(self, X, y=None, eval_data=None, eval_metric="acc", epoch_end_callback=None,
            batch_end_callback=None, kvstore="local", logger=None, work_load_list=None,
            monitor=None, eval_end_callback=_DEFAULT, eval_batch_end_callback=None):
        """Train for ``num_epoch`` epochs (optimizer options come from the constructor).

        Runs MXNet 1.9.1's legacy loop: the data is reset before the first epoch and
        whenever it runs out, an epoch ends after ``epoch_size`` batches when that is set,
        batch callbacks count batches from 1, and validation results go to
        ``eval_end_callback`` (``LogValidationMetricsCallback`` by default).
        """
        import time

        from . import metric as _metric
        from .model import BatchEndParam

        if eval_end_callback is _DEFAULT:
            from .callback import LogValidationMetricsCallback

            eval_end_callback = LogValidationMetricsCallback()
        data = self._iter(X, y, is_train=True)
        if self.sym_gen is not None:
            self.symbol = self.sym_gen(data.default_bucket_key)
        if isinstance(eval_data, (tuple, list)):
            eval_data = self._iter(eval_data[0], eval_data[1], is_train=False)
        mod = self._module(data, for_training=True, bind=False)
        log = logger if logger is not None else logging
        log.info("Start training with %s", str(self.ctx))
        mod.bind(data_shapes=data.provide_data,
                 label_shapes=data.provide_label if mod._label_names else None,
                 for_training=True)
        if monitor is not None:
            mod.install_monitor(monitor)
        arg_params, aux_params = self._init_param_arrays(data)
        mod.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params)
        mod.init_optimizer(kvstore=kvstore, optimizer=self.optimizer,
                           optimizer_params=self.kwargs)
        self._mod = mod
        if not isinstance(eval_metric, _metric.EvalMetric):
            eval_metric = _metric.create(eval_metric)

        def call(cbs, *args):
            for cb in cbs if isinstance(cbs, (list, tuple)) else [cbs]:
                cb(*args)

        data.reset()
        for epoch in range(self.begin_epoch, self.num_epoch):
            tic = time.time()
            eval_metric.reset()
            nbatch = 0
            while True:
                do_reset = True
                for batch in data:
                    if monitor is not None:
                        monitor.tic()
                    mod.forward_backward(batch)
                    mod.update()
                    if monitor is not None:
                        monitor.toc_print()
                    mod.update_metric(eval_metric, batch.label)
                    nbatch += 1
                    if batch_end_callback is not None:
                        call(batch_end_callback, BatchEndParam(epoch, nbatch, eval_metric,
                                                               locals()))
                    if self.epoch_size is not None and nbatch >= self.epoch_size:
                        do_reset = False
                        break
                if do_reset:
                    log.info("Epoch[%d] Resetting Data Iterator", epoch)
                    data.reset()
                if self.epoch_size is None or nbatch >= self.epoch_size:
                    break
            log.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - tic)
            self.arg_params, self.aux_params = mod.get_params()
            if epoch_end_callback is not None:
                call(epoch_end_callback, epoch, self.symbol, self.arg_params, self.aux_params)
            if eval_data:
                eval_metric.reset()
                eval_data.reset()
                total = 0
                for i, batch in enumerate(eval_data):
                    mod.forward(batch, is_train=False)
                    mod.update_metric(eval_metric, batch.label)
                    if eval_batch_end_callback is not None:
                        call(eval_batch_end_callback, BatchEndParam(epoch, i, eval_metric,
                                                                    locals()))
                    total += 1
                if eval_end_callback is not None:
                    call(eval_end_callback, BatchEndParam(epoch, total, eval_metric, locals()))
                eval_data.reset()
        self.arg_params, self.aux_params = mod.get_params()

    def _bound_for(self, data):
        mod = self._module(data, for_training=False)
        if self.arg_params is None:
            raise MXNetError("FeedForward: the model has no parameters; fit or load it first")
        mod.set_params(self.arg_params, self.aux_params or {},
                       allow_extra=self.allow_extra_params)
        return mod

    def predict(self, X, num_batch=None, return_data=False, reset=True):
        """Outputs for ``X`` as NumPy arrays (a list when the symbol has several outputs)."""
        data = self._iter(X, None, is_train=False)
        mod = self._bound_for(data)
        outs, datas, labels = [], [], []
        for batch_outs, _, batch in mod.iter_predict(data, num_batch=num_batch, reset=reset):
            outs.append([o.asnumpy() for o in batch_outs])
            if return_data:
                pad = batch.pad or 0
                n = batch.data[0].shape[0] - pad
                datas.append(batch.data[0].asnumpy()[:n])
                labels.append(batch.label[0].asnumpy()[:n] if batch.label else None)
        merged = [np.concatenate([o[i] for o in outs]) for i in range(len(outs[0]))] \
            if outs else []
        result = merged[0] if len(merged) == 1 else merged
        if return_data:
            return result, np.concatenate(datas), np.concatenate(labels) \
                if labels and labels[0] is not None else None
        return result

    def score(self, X, eval_metric="acc", num_batch=None, batch_end_callback=None,
              reset=True):
        """The value of ``eval_metric`` over ``X``."""
        data = self._iter(X, None, is_train=False)
        mod = self._bound_for(data)
        res = mod.score(data, eval_metric, num_batch=num_batch,
                        batch_end_callback=batch_end_callback, reset=reset)
        return res[0][1]

    def save(self, prefix, epoch=None, remove_amp_cast=True):
        """Write ``prefix-symbol.json`` and ``prefix-%04d.params``."""
        from .model import save_checkpoint

        if epoch is None:
            epoch = self.num_epoch
        save_checkpoint(prefix, epoch, self.symbol, self.arg_params or {},
                        self.aux_params or {}, remove_amp_cast=remove_amp_cast)

    @staticmethod
    def load(prefix, epoch, ctx=None, **kwargs):
        """A FeedForward model from a checkpoint."""
        from .model import load_checkpoint

        symbol, arg_params, aux_params = load_checkpoint(prefix, epoch)
        return FeedForward(symbol, ctx=ctx, arg_params=arg_params, aux_params=aux_params,
                           begin_epoch=epoch, **kwargs)

    @staticmethod
    def create(symbol, X, y=None, ctx=None, num_epoch=None, epoch_size=None, optimizer="sgd",
               initializer=None, eval_data=None, eval_metric="acc", epoch_end_callback=None,
               batch_end_callback=None, kvstore="local", logger=None, work_load_list=None,
               eval_end_callback=_DEFAULT, eval_batch_end_callback=None, **kwargs):
        """Construct a FeedForward model and fit it in one call."""
        model = FeedForward(symbol, ctx=ctx, num_epoch=num_epoch, epoch_size=epoch_size,
                            optimizer=optimizer, initializer=initializer, **kwargs)
        model.fit(X, y, eval_data=eval_data, eval_metric=eval_metric,
                  epoch_end_callback=epoch_end_callback, batch_end_callback=batch_end_callback,
                  kvstore=kvstore, logger=logger or logging, work_load_list=work_load_list,
                  eval_end_callback=eval_end_callback,
                  eval_batch_end_callback=eval_batch_end_callback)
        return model
