"""``BaseModule``: the training/evaluation loops shared by every module type."""

from __future__ import annotations

import logging
import time
import warnings

from ..model import BatchEndParam

__all__ = ["BaseModule"]


def _as_list(obj):
    if obj is None:
        return []
    return list(obj) if isinstance(obj, (list, tuple)) else [obj]


def _check_input_names(symbol, names, typename, throw):
    args = symbol.list_arguments()
    for name in names:
        if name in args:
            continue
        candidates = [a for a in args if not a.endswith(("_weight", "_bias", "_gamma", "_beta"))]
        msg = (f"\033[91mYou created Module with Module(..., {typename}_names={list(names)}) "
               f"but input with name '{name}' is not found in symbol.list_arguments(). "
               f"Did you mean one of:\n\t" + "\n\t".join(candidates) + "\033[0m")
        if throw:
            raise ValueError(msg)
        warnings.warn(msg, stacklevel=3)


def _parse_data_desc(data_names, label_names, data_shapes, label_shapes):
    from ..io import DataDesc

    def norm(shapes):
        return [x if isinstance(x, DataDesc) else DataDesc(*x) for x in shapes]

    data_shapes = norm(data_shapes)
    names = [d.name for d in data_shapes]
    if sorted(names) != sorted(data_names):
        raise ValueError(f"Data provided by data_shapes don't match names specified by "
                         f"data_names ({data_shapes} vs. {list(data_names)})")
    if label_shapes is not None:
        label_shapes = norm(label_shapes)
    given = [d.name for d in label_shapes or []]
    if sorted(given) != sorted(label_names or []):  # MXNet only warns for labels
        warnings.warn(f"Data provided by label_shapes don't match names specified by "
                      f"label_names ({label_shapes or []} vs. {list(label_names or [])})",
                      stacklevel=3)
    return data_shapes, label_shapes


def _default_initializer():
    from ..initializer import Uniform

    return Uniform(0.01)


class BaseModule:
    """Base class of modules: ``fit``, ``score``, ``predict`` over ``forward``/``backward``.

    Subclasses implement ``bind``, ``init_params``, ``init_optimizer``, ``forward``,
    ``backward``, ``update``, ``get_outputs``, ``update_metric``, ``get_params``.

    Examples
    --------
    >>> mod = mx.mod.Module(net)                       # doctest: +SKIP
    >>> mod.fit(train_iter, num_epoch=2)               # doctest: +SKIP
    """

    def __init__(self, logger=logging):
        self.logger = logger
        self.binded = False
        self.for_training = False
        self.inputs_need_grad = False
        self.params_initialized = False
        self.optimizer_initialized = False
        self._symbol = None
        self._total_exec_bytes = 0

    # -- high level --------------------------------------------------------------------
    def forward_backward(self, data_batch) -> None:
        """Forward in training mode, then backward."""
        self.forward(data_batch, is_train=True)
        self.backward()

    def score(self, eval_data, eval_metric, num_batch=None, batch_end_callback=None,
              score_end_callback=None, reset=True, epoch=0, sparse_row_id_fn=None):
        """Evaluate ``eval_metric`` over ``eval_data``; returns ``[(name, value), ...]``."""
        from .. import metric as _metric

        assert self.binded and self.params_initialized
        if reset:
            eval_data.reset()
        if not isinstance(eval_metric, _metric.EvalMetric):
            eval_metric = _metric.create(eval_metric)
        eval_metric.reset()
        actual_num_batch = 0
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            if isinstance(eval_batch, list):
                self.update_metric(eval_metric, [eb.label for eb in eval_batch], pre_sliced=True)
            else:
                self.update_metric(eval_metric, eval_batch.label)
            if batch_end_callback is not None:
                params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric,
                                       locals=locals())
                for cb in _as_list(batch_end_callback):
                    cb(params)
            actual_num_batch += 1
        if score_end_callback:
            params = BatchEndParam(epoch=epoch, nbatch=actual_num_batch,
                                   eval_metric=eval_metric, locals=locals())
            for cb in _as_list(score_end_callback):
                cb(params)
        return eval_metric.get_name_value()

    def iter_predict(self, eval_data, num_batch=None, reset=True, sparse_row_id_fn=None):
        """Yield ``(outputs, nbatch, batch)`` for each batch (padding removed)."""
        assert self.binded and self.params_initialized
        if reset:
            eval_data.reset()
        for nbatch, eval_batch in enumerate(eval_data):
            if num_batch is not None and nbatch == num_batch:
                break
            self.prepare(eval_batch, sparse_row_id_fn=sparse_row_id_fn)
            self.forward(eval_batch, is_train=False)
            pad = eval_batch.pad or 0
            outputs = [out[0:out.shape[0] - pad].copy() for out in self.get_outputs()]
            yield (outputs, nbatch, eval_batch)

    def predict(self, eval_data, num_batch=None, merge_batches=True, reset=True,
                always_output_list=False, sparse_row_id_fn=None):
        """Run prediction over ``eval_data`` and collect the outputs."""
        from .. import ndarray as nd
        from ..io import DataIter

        if not isinstance(eval_data, DataIter) and hasattr(eval_data, "shape"):
            from ..io import NDArrayIter

            eval_data = NDArrayIter(eval_data, batch_size=self._exec_group.batch_size)
        output_list = [outs for outs, _, _ in self.iter_predict(
            eval_data, num_batch=num_batch, reset=reset, sparse_row_id_fn=sparse_row_id_fn)]
        if not output_list:
            return output_list
        if merge_batches:
            num_outputs = len(output_list[0])
            merged = [nd.concatenate([out[i] for out in output_list]) for i in range(num_outputs)]
            if num_outputs == 1 and not always_output_list:
                return merged[0]
            return merged
        return output_list

    def fit(self, train_data, eval_data=None, eval_metric="acc", epoch_end_callback=None,
            batch_end_callback=None, kvstore="local", optimizer="sgd",
            optimizer_params=(("learning_rate", 0.01),), eval_end_callback=None,
            eval_batch_end_callback=None, initializer=None, arg_params=None, aux_params=None,
            allow_missing=False, force_rebind=False, force_init=False, begin_epoch=0,
            num_epoch=None, validation_metric=None, monitor=None, sparse_row_id_fn=None):
        """Train the module: bind, init params and optimizer, then loop over epochs."""
        from .. import metric as _metric

        assert num_epoch is not None, "please specify number of epochs"
        if initializer is None:
            initializer = _default_initializer()
        self.bind(data_shapes=train_data.provide_data, label_shapes=train_data.provide_label,
                  for_training=True, force_rebind=force_rebind)
        if monitor is not None:
            self.install_monitor(monitor)
        self.init_params(initializer=initializer, arg_params=arg_params, aux_params=aux_params,
                         allow_missing=allow_missing, force_init=force_init)
        self.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                            optimizer_params=optimizer_params)
        if validation_metric is None:
            validation_metric = eval_metric
        if not isinstance(eval_metric, _metric.EvalMetric):
            eval_metric = _metric.create(eval_metric)

        for epoch in range(begin_epoch, num_epoch):
            tic = time.time()
            eval_metric.reset()
            nbatch = 0
            data_iter = iter(train_data)
            end_of_batch = False
            next_data_batch = next(data_iter)
            eval_name_vals = []
            while not end_of_batch:
                data_batch = next_data_batch
                if monitor is not None:
                    monitor.tic()
                self.forward_backward(data_batch)
                self.update()
                if isinstance(data_batch, list):
                    self.update_metric(eval_metric, [db.label for db in data_batch],
                                       pre_sliced=True)
                else:
                    self.update_metric(eval_metric, data_batch.label)
                try:
                    next_data_batch = next(data_iter)
                    self.prepare(next_data_batch, sparse_row_id_fn=sparse_row_id_fn)
                except StopIteration:
                    end_of_batch = True
                if monitor is not None:
                    monitor.toc_print()
                if end_of_batch:
                    eval_name_vals = eval_metric.get_global_name_value() if hasattr(
                        eval_metric, "get_global_name_value") else eval_metric.get_name_value()
                if batch_end_callback is not None:
                    params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric,
                                           locals=locals())
                    for cb in _as_list(batch_end_callback):
                        cb(params)
                nbatch += 1
            self._end_epoch(epoch, tic, eval_name_vals, epoch_end_callback, eval_data,
                            validation_metric, eval_end_callback, eval_batch_end_callback)
            train_data.reset()

    def _end_epoch(self, epoch, tic, train_name_vals, epoch_end_callback, eval_data,
                   validation_metric, eval_end_callback, eval_batch_end_callback) -> None:
        """The end of one ``fit`` epoch: log, sync parameters, callbacks, validation."""
        for name, val in train_name_vals:
            self.logger.info("Epoch[%d] Train-%s=%f", epoch, name, val)
        self.logger.info("Epoch[%d] Time cost=%.3f", epoch, time.time() - tic)
        arg_params_, aux_params_ = self.get_params()
        self.set_params(arg_params_, aux_params_)
        if epoch_end_callback is not None:
            for cb in _as_list(epoch_end_callback):
                cb(epoch, self.symbol, arg_params_, aux_params_)
        if eval_data:
            res = self.score(eval_data, validation_metric,
                             score_end_callback=eval_end_callback,
                             batch_end_callback=eval_batch_end_callback, epoch=epoch)
            for name, val in res:
                self.logger.info("Epoch[%d] Validation-%s=%f", epoch, name, val)

    # -- defaults for subclasses ----------------------------------------------------------
    @property
    def symbol(self):
        return self._symbol

    def prepare(self, data_batch, sparse_row_id_fn=None) -> None:
        """Hook run before each forward (sparse row pulls in MXNet); nothing to do here."""

    def install_monitor(self, mon) -> None:
        raise NotImplementedError()

    # -- the interface every module implements (MXNet 1.9.1's abstract methods) ------------
    @property
    def data_names(self):
        """Names of the data inputs."""
        raise NotImplementedError()

    @property
    def output_names(self):
        """Names of the outputs."""
        raise NotImplementedError()

    @property
    def data_shapes(self):
        """``DataDesc`` of the data inputs."""
        raise NotImplementedError()

    @property
    def label_shapes(self):
        """``DataDesc`` of the labels."""
        raise NotImplementedError()

    @property
    def output_shapes(self):
        """``(name, shape)`` of the outputs."""
        raise NotImplementedError()

    def get_params(self):
        raise NotImplementedError()

    def init_params(self, initializer=None, arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        raise NotImplementedError()

    def get_states(self, merge_multi_context=True):
        assert self.binded and self.params_initialized
        assert not merge_multi_context
        return []

    def set_states(self, states=None, value=None):
        assert self.binded and self.params_initialized
        assert not states and not value

    def forward(self, data_batch, is_train=None):
        raise NotImplementedError()

    def backward(self, out_grads=None):
        raise NotImplementedError()

    def get_outputs(self, merge_multi_context=True):
        raise NotImplementedError()

    def get_input_grads(self, merge_multi_context=True):
        raise NotImplementedError()

    def update(self):
        raise NotImplementedError()

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        raise NotImplementedError()

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        raise NotImplementedError()

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        raise NotImplementedError()

    def set_params(self, arg_params, aux_params, allow_missing=False, force_init=True,
                   allow_extra=False):
        self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                         allow_missing=allow_missing, force_init=force_init,
                         allow_extra=allow_extra)

    def save_params(self, fname: str) -> None:
        """Save parameters as an ``arg:``/``aux:`` NDArray dict file."""
        from .. import ndarray as nd
        from ..context import cpu

        arg_params, aux_params = self.get_params()
        save_dict = {f"arg:{k}": v.as_in_context(cpu()) for k, v in arg_params.items()}
        save_dict.update({f"aux:{k}": v.as_in_context(cpu()) for k, v in aux_params.items()})
        nd.save(fname, save_dict)

    def load_params(self, fname: str) -> None:
        """Load parameters from a file written by :meth:`save_params`."""
        from .. import ndarray as nd
        from ..base import MXNetError

        save_dict = nd.load(fname)
        arg_params, aux_params = {}, {}
        for k, value in save_dict.items():
            arg_type, _, name = k.partition(":")
            if arg_type == "arg":
                arg_params[name] = value
            elif arg_type == "aux":
                aux_params[name] = value
            else:
                raise MXNetError(f"{fname}: invalid parameter name {k!r} (expected arg:/aux:)")
        self.set_params(arg_params, aux_params)
