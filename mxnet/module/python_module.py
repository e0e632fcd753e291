"""Modules written in Python: ``PythonModule`` and ``PythonLossModule``."""

from __future__ import annotations

import logging

from ..base import MXNetError
from .base_module import BaseModule

__all__ = ["PythonModule", "PythonLossModule"]


class PythonModule(BaseModule):
    """A parameter-free module whose computation is written in Python.

    Subclasses implement ``_compute_output_shapes``, ``forward``, ``backward``,
    ``get_outputs`` and ``get_input_grads``.
    """

    def __init__(self, data_names, label_names, output_names, logger=logging):
        super().__init__(logger=logger)
        self._data_names = list(data_names) if data_names is not None else []
        self._label_names = list(label_names) if label_names is not None else []
        self._output_names = list(output_names)
        self._data_shapes = None
        self._label_shapes = None
        self._output_shapes = None

    @property
    def data_names(self):
        return self._data_names

    @property
    def output_names(self):
        return self._output_names

    @property
    def data_shapes(self):
        return self._data_shapes

    @property
    def label_shapes(self):
        return self._label_shapes

    @property
    def output_shapes(self):
        return self._output_shapes

    def get_params(self):
        return {}, {}

    def init_params(self, initializer=None, arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False):
        self.params_initialized = True

    def update(self):
        """No parameters: nothing to update."""

    def update_metric(self, eval_metric, labels, pre_sliced=False):
        if self._label_shapes is None:
            return  # no labels: not a loss module
        if pre_sliced:
            raise MXNetError("PythonModule does not support pre-sliced labels")
        eval_metric.update(labels, self.get_outputs())

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write"):
        from ..io import DataDesc

        if self.binded and not force_rebind:
            self.logger.warning("Already bound, ignoring bind()")
            return
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad

        def norm(shapes):
            return [s if isinstance(s, DataDesc) else DataDesc(*s) for s in shapes]

        self._data_shapes = norm(data_shapes)
        if [d.name for d in self._data_shapes] != self._data_names:
            raise MXNetError(f"PythonModule.bind: data names {self._data_names} do not match "
                             f"{[d.name for d in self._data_shapes]}")
        if label_shapes is not None:
            self._label_shapes = norm(label_shapes)
            if [d.name for d in self._label_shapes] != self._label_names:
                raise MXNetError(f"PythonModule.bind: label names {self._label_names} do not "
                                 f"match {[d.name for d in self._label_shapes]}")
        else:
            self._label_shapes = None
        self._output_shapes = self._compute_output_shapes()
        self.binded = True

    def _compute_output_shapes(self):
        raise MXNetError(f"{type(self).__name__} must define _compute_output_shapes()")

    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False):
        self.optimizer_initialized = True


class PythonLossModule(PythonModule):
    """A loss written in Python: outputs its input scores; backward calls ``grad_func``.

    Examples
    --------
    >>> loss = mx.mod.PythonLossModule(grad_func=lambda scores, labels: scores - labels)
    """

    def __init__(self, name="pyloss", data_names=("data",), label_names=("softmax_label",),
                 logger=logging, grad_func=None):
        super().__init__(data_names, label_names, [name + "_output"], logger=logger)
        self._name = name
        if len(self._data_names) != 1 or len(self._label_names) != 1:
            raise MXNetError("PythonLossModule takes exactly one data and one label")
        self._scores = None
        self._labels = None
        self._scores_grad = None
        if grad_func is not None and not callable(grad_func):
            raise TypeError("grad_func must be callable")
        self._grad_func = grad_func

    def _compute_output_shapes(self):
        return [(self._name + "_output", self._data_shapes[0].shape)]

    def forward(self, data_batch, is_train=None):
        self._scores = data_batch.data[0]
        if is_train is None:
            is_train = self.for_training
        if is_train:
            self._labels = data_batch.label[0]

    def get_outputs(self, merge_multi_context=True):
        return [self._scores]

    def backward(self, out_grads=None):
        if out_grads is not None:
            raise MXNetError("PythonLossModule.backward takes no out_grads (it is a loss)")
        if not self.for_training:
            raise MXNetError("PythonLossModule: bind with for_training=True to run backward")
        self._backward_impl()

    def _backward_impl(self):
        from .. import ndarray as nd

        if self._grad_func is None:
            raise MXNetError("PythonLossModule: no grad_func given; subclass it and define "
                             "_backward_impl, or pass grad_func")
        grad = self._grad_func(self._scores, self._labels)
        if not isinstance(grad, nd.NDArray):
            grad = nd.array(grad)
        self._scores_grad = grad

    def get_input_grads(self, merge_multi_context=True):
        return [self._scores_grad]

    def install_monitor(self, mon):
        raise MXNetError("PythonLossModule does not support monitors")
