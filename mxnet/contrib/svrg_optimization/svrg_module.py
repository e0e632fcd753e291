"""``SVRGModule``: a Module trained with stochastic variance reduced gradients.

Every ``update_freq`` epochs the full gradient over the data is computed with an auxiliary
module holding a snapshot of the weights; each update then uses
``g(w) - g(w_snapshot) + full_gradient``.
"""

from __future__ import annotations

import logging
import time

from ... import context as ctx
from ... import initializer as init_mod
from ... import ndarray as nd
from ... import optimizer as opt
from ...module import Module
from ...module.module import _create_kvstore
from .svrg_optimizer import _SVRGOptimizer

__all__ = ["SVRGModule"]


class SVRGModule(Module):
    """Module with SVRG updates; ``update_freq`` is the number of epochs between two
    full-gradient computations.

    Examples
    --------
    >>> mod = SVRGModule(sym, data_names=['data'], label_names=['lin_reg_label'],
    ...                  update_freq=2)  # doctest: +SKIP
    """

    def __init__(self, symbol, data_names=("data",), label_names=("softmax_label",),
                 logger=logging, context=ctx.cpu(), work_load_list=None,
                 fixed_param_names=None, state_names=None, group2ctxs=None,
                 compression_params=None, update_freq=None):
        super().__init__(symbol, data_names=data_names, label_names=label_names, logger=logger,
                         context=context, work_load_list=work_load_list,
                         fixed_param_names=fixed_param_names, state_names=state_names,
                         group2ctxs=group2ctxs, compression_params=compression_params)
        if isinstance(update_freq, int) and update_freq > 0:
            self.update_freq = update_freq
        else:
            raise ValueError("update_freq in SVRGModule must be a positive integer to "
                             "represent the frequency for calculating full gradients")
        self._mod_aux = Module(symbol, data_names=data_names, label_names=label_names,
                               logger=logger, context=context, work_load_list=work_load_list,
                               fixed_param_names=fixed_param_names, state_names=state_names,
                               group2ctxs=group2ctxs, compression_params=compression_params)
        self._param_dict = None
        self._ctx_len = len(self._context)

    def _reset_bind(self):
        super()._reset_bind()
        self._mod_aux._reset_bind()

    def reshape(self, data_shapes, label_shapes=None):
        super().reshape(data_shapes, label_shapes=label_shapes)
        self._mod_aux.reshape(data_shapes, label_shapes=label_shapes)

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        """Create the SVRG optimizer around ``optimizer`` and the ``<name>_full`` keys."""
        self._param_dict = [{k: nd.zeros(v.shape, ctx=self._context[i])
                             for k, v in self.get_params()[0].items()}
                            for i in range(self._ctx_len)]
        svrg_opt = self._create_optimizer(_SVRGOptimizer.__name__, optimizer, kvstore,
                                          optimizer_params)
        super().init_optimizer(kvstore=kvstore, optimizer=svrg_opt,
                               optimizer_params=optimizer_params, force_init=force_init)
        if self._kvstore:
            for idx, arrays in enumerate(self._exec_group.param_arrays):
                name = self._exec_group.param_names[idx]
                self._kvstore.init(name + "_full", nd.zeros(self._arg_params[name].shape))
                if self._update_on_kvstore:
                    self._kvstore.pull(name + "_full", arrays, priority=-idx)

    def _create_optimizer(self, optimizer, default_opt, kvstore, optimizer_params):
        kv, update_on_kvstore = _create_kvstore(kvstore, len(self._context), self._arg_params)
        batch_size = self._exec_group.batch_size
        if kv and "dist" in kv.type and "_sync" in kv.type:
            batch_size *= kv.num_workers
        names = self._exec_group.param_names
        if update_on_kvstore:
            idx2name = dict(enumerate(names))
            idx2name.update({i + len(names): n + "_full" for i, n in enumerate(names)})
        else:
            ndev = len(self._context)
            idx2name = {i * ndev + k: n for k in range(ndev) for i, n in enumerate(names)}
            idx2name.update({i * ndev + k + len(names) * ndev: n + "_full"
                             for k in range(ndev) for i, n in enumerate(names)})
        params = dict(optimizer_params)
        params.setdefault("rescale_grad", 1.0 / batch_size)
        return opt.create(optimizer, sym=self.symbol, param_idx2name=idx2name,
                          default_optimizer=default_opt, **params)

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        super().bind(data_shapes, label_shapes, for_training, inputs_need_grad, force_rebind,
                     shared_module, grad_req)
        if for_training:
            self._mod_aux.bind(data_shapes, label_shapes, for_training, inputs_need_grad,
                               force_rebind, shared_module, grad_req)

    def forward(self, data_batch, is_train=None):
        super().forward(data_batch, is_train)
        if is_train:
            self._mod_aux.forward(data_batch, is_train)

    def backward(self, out_grads=None):
        super().backward(out_grads)
        if self._mod_aux.binded:
            self._mod_aux.backward(out_grads)

    def update(self):
        """Replace the gradients by their SVRG form, then apply the optimizer."""
        self._update_svrg_gradients()
        super().update()

    def update_full_grads(self, train_data):
        """Average the gradients over ``train_data`` at a snapshot of the current weights."""
        names = self._exec_group.param_names
        arg, aux = self.get_params()
        self._mod_aux.set_params(arg_params=arg, aux_params=aux)
        train_data.reset()
        nbatch = 0
        padding = 0
        for batch in train_data:
            self._mod_aux.forward(batch, is_train=True)
            self._mod_aux.backward()
            nbatch += 1
            for k in range(self._ctx_len):
                for i, name in enumerate(names):
                    grad = self._mod_aux._exec_group.grad_arrays[i][k]
                    self._param_dict[k][name] = self._param_dict[k][name] + grad
            padding = batch.pad
        true_num_batch = nbatch - padding / train_data.batch_size
        for name in names:
            grads = []
            for k in range(self._ctx_len):
                self._param_dict[k][name] /= true_num_batch
                grads.append(self._param_dict[k][name])
            if self._kvstore:
                self._accumulate_kvstore(name, grads)

    def _accumulate_kvstore(self, key, value):
        self._kvstore.push(key + "_full", value)
        self._kvstore.pull(key + "_full", value)
        self._allocate_gradients(key, value)

    def _allocate_gradients(self, key, value):
        for k in range(self._ctx_len):
            self._param_dict[k][key] = value[k] / self._ctx_len

    @staticmethod
    def _svrg_grads_update_rule(g_curr_batch_curr_weight, g_curr_batch_special_weight,
                                g_special_weight_all_batch):
        return g_curr_batch_curr_weight - g_curr_batch_special_weight + \
            g_special_weight_all_batch

    def _update_svrg_gradients(self):
        names = self._exec_group.param_names
        for k in range(self._ctx_len):
            for i, name in enumerate(names):
                grad = self._exec_group.grad_arrays[i][k]
                if grad is None:
                    continue
                special = self._mod_aux._exec_group.grad_arrays[i][k]
                new = self._svrg_grads_update_rule(grad, special, self._param_dict[k][name])
                new.copyto(grad)

    def prepare(self, data_batch, sparse_row_id_fn=None):
        super().prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)
        self._mod_aux.prepare(data_batch, sparse_row_id_fn=sparse_row_id_fn)

    def fit(self, train_data, eval_data=None, eval_metric="acc", epoch_end_callback=None,
            batch_end_callback=None, kvstore="local", optimizer="sgd",
            optimizer_params=(("learning_rate", 0.01),), eval_end_callback=None,
            eval_batch_end_callback=None, initializer=init_mod.Uniform(0.01),
            arg_params=None, aux_params=None, allow_missing=False, force_rebind=False,
            force_init=False, begin_epoch=0, num_epoch=None, validation_metric=None,
            monitor=None, sparse_row_id_fn=None):
        """Train like :meth:`Module.fit`, computing full gradients every ``update_freq``
        epochs."""
        from ... import metric as metric_mod
        from ...model import BatchEndParam

        assert num_epoch is not None, "please specify number of epochs"
        self.bind(data_shapes=train_data.provide_data, label_shapes=train_data.provide_label,
                  for_training=True, force_rebind=force_rebind)
        if monitor is not None:
            self.install_monitor(monitor)
        self.init_params(initializer=initializer, arg_params=arg_params,
                         aux_params=aux_params, allow_missing=allow_missing,
                         force_init=force_init)
        self.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                            optimizer_params=optimizer_params)
        if validation_metric is None:
            validation_metric = eval_metric
        if not isinstance(eval_metric, metric_mod.EvalMetric):
            eval_metric = metric_mod.create(eval_metric)
        for epoch in range(begin_epoch, num_epoch):
            eval_metric.reset()
            tic = time.time()
            if epoch % self.update_freq == 0:
                self.update_full_grads(train_data)
            train_data.reset()
            nbatch = 0
            for nbatch, batch in enumerate(train_data):
                if monitor is not None:
                    monitor.tic()
                self.forward_backward(batch)
                self.update()
                self.update_metric(eval_metric, batch.label)
                if monitor is not None:
                    monitor.toc_print()
                if batch_end_callback is not None:
                    params = BatchEndParam(epoch=epoch, nbatch=nbatch, eval_metric=eval_metric,
                                           locals=locals())
                    for cb in _as_list(batch_end_callback):
                        cb(params)
            self._end_epoch(epoch, tic, eval_metric.get_name_value(), epoch_end_callback,
                            eval_data, validation_metric, eval_end_callback,
                            eval_batch_end_callback)


def _as_list(x):
    return x if isinstance(x, (list, tuple)) else [x]
