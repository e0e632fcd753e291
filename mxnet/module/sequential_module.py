"""``SequentialModule``: modules chained so each one's outputs feed the next."""

from __future__ import annotations

import copy
import logging

from ..base import MXNetError
from .base_module import BaseModule

__all__ = ["SequentialModule"]


class SequentialModule(BaseModule):
    """A container running several modules one after the other.

    ``add(module, take_labels=True)`` marks the module that receives the labels (usually
    the loss); ``auto_wiring=True`` renames the previous outputs to its data names.

    Examples
    --------
    >>> seq = mx.mod.SequentialModule()                                 # doctest: +SKIP
    >>> seq.add(mod1).add(mod2, take_labels=True, auto_wiring=True)      # doctest: +SKIP
    """

    META_TAKE_LABELS = "take_labels"
    META_AUTO_WIRING = "auto_wiring"

    def __init__(self, logger=logging):
        super().__init__(logger=logger)
        self._modules = []
        self._metas = []
        self._label_shapes = None
        self._data_shapes = None
        self._meta_keys = {self.META_TAKE_LABELS, self.META_AUTO_WIRING}

    def add(self, module, **kwargs):
        """Append ``module``; returns self so calls chain."""
        self._modules.append(module)
        for key in kwargs:
            if key not in self._meta_keys:
                raise MXNetError(f"SequentialModule.add: unknown meta '{key}', expected one of "
                                 f"{sorted(self._meta_keys)}")
        self._metas.append(kwargs)
        self.binded = False
        self.params_initialized = False
        self.optimizer_initialized = False
        return self

    @property
    def data_names(self):
        return self._modules[0].data_names if self._modules else []

    @property
    def output_names(self):
        return self._modules[-1].output_names if self._modules else []

    @property
    def data_shapes(self):
        assert self.binded
        return self._modules[0].data_shapes

    @property
    def label_shapes(self):
        assert self.binded
        return self._label_shapes

    @property
    def output_shapes(self):
        assert self.binded
        return self._modules[-1].output_shapes

    def get_params(self):
        assert self.binded and self.params_initialized
        arg_params, aux_params = {}, {}
        for module in self._modules:
            a, b = module.get_params()
            arg_params.update(a)
            aux_params.update(b)
        return arg_params, aux_params

    def init_params(self, initializer=None, arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        if self.params_initialized and not force_init:
            return
        assert self.binded, "call bind before initializing the parameters"
        for module in self._modules:
            module.init_params(initializer=initializer, arg_params=arg_params,
                               aux_params=aux_params, allow_missing=allow_missing,
                               force_init=force_init, allow_extra=allow_extra)
        seen: dict = {}
        for i, module in enumerate(self._modules):
            a, b = module.get_params()
            for name in list(a) + list(b):
                if name in seen:
                    raise MXNetError(f"Duplicated parameter names: name '{name}' in layer {i} "
                                     f"({type(module).__name__}) is already used in layer "
                                     f"{seen[name]}")
                seen[name] = i
        self.params_initialized = True

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        if inputs_need_grad and not for_training:
            raise MXNetError("inputs_need_grad requires for_training=True")
        if shared_module is not None:
            raise MXNetError("SequentialModule does not support shared_module")
        if not self._modules:
            raise MXNetError("SequentialModule.bind: add modules first")
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._label_shapes = label_shapes
        my_data_shapes = data_shapes
        any_labels = False
        for i, (module, meta) in enumerate(zip(self._modules, self._metas)):
            my_label_shapes = label_shapes if meta.get(self.META_TAKE_LABELS) else None
            any_labels |= my_label_shapes is not None
            if meta.get(self.META_AUTO_WIRING):
                names = module.data_names
                if len(names) != len(my_data_shapes):
                    raise MXNetError(f"SequentialModule: layer {i} takes {len(names)} inputs but "
                                     f"the previous layer gives {len(my_data_shapes)}")
                my_data_shapes = [(n, tuple(s[1] if isinstance(s, tuple) else s.shape))
                                  for n, s in zip(names, my_data_shapes)]
            module.bind(data_shapes=my_data_shapes, label_shapes=my_label_shapes,
                        for_training=for_training,
                        inputs_need_grad=inputs_need_grad if i == 0 else for_training,
                        force_rebind=force_rebind, shared_module=None, grad_req=grad_req)
            my_data_shapes = module.output_shapes
        if not any_labels:
            self._label_shapes = None  # no module takes labels
        self.binded = True

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        assert self.binded and self.params_initialized
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring.")
            return
        for module in self._modules:
            module.init_optimizer(kvstore=kvstore, optimizer=optimizer,
                                  optimizer_params=optimizer_params, force_init=force_init)
        self.optimizer_initialized = True

    def forward(self, data_batch, is_train=None):
        assert self.binded and self.params_initialized
        data_batch = copy.copy(data_batch)
        for i, module in enumerate(self._modules):
            module.forward(data_batch, is_train=is_train)
            if i + 1 == len(self._modules):
                break
            data_batch.data = module.get_outputs()
            if hasattr(data_batch, "provide_data"):
                names = [x[0] for x in module.output_shapes]
                data_batch.provide_data = [(n, x.shape) for n, x in zip(names, data_batch.data)]

    def backward(self, out_grads=None):
        assert self.binded and self.params_initialized
        for i, module in reversed(list(enumerate(self._modules))):
            module.backward(out_grads=out_grads)
            if i == 0:
                break
            out_grads = module.get_input_grads()

    def update(self):
        assert self.binded and self.params_initialized and self.optimizer_initialized
        for module in self._modules:
            module.update()

    def get_outputs(self, merge_multi_context=True):
        return self._modules[-1].get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        assert self.inputs_need_grad
        return self._modules[0].get_input_grads(merge_multi_context=merge_multi_context)

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        for meta, module in zip(self._metas, self._modules):
            if meta.get(self.META_TAKE_LABELS):
                module.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon):
        for module in self._modules:
            module.install_monitor(mon)
