"""``Module``: a Symbol bound to one or more contexts, trained with an optimizer."""

from __future__ import annotations

import logging
import os
import warnings

from .._model_kv import _create_kvstore
from ..base import MXNetError
from ..context import Context, cpu
from .base_module import BaseModule, _check_input_names, _parse_data_desc
from .executor_group import DataParallelExecutorGroup

__all__ = ["Module"]


_STYPE_CODES = {"0": "default", "1": "row_sparse", "2": "csr"}


def _param_stypes(symbol) -> dict:
    """Storage types declared on the variables (``mx.sym.var(..., stype=...)``)."""
    out = {}
    for name, attrs in symbol.attr_dict().items():
        code = attrs.get("__storage_type__")
        if code in _STYPE_CODES:
            out[name] = _STYPE_CODES[code]
    return out


class Module(BaseModule):
    """A module over one Symbol (MXNet 1.x ``mx.mod.Module``).

    Examples
    --------
    >>> data = mx.sym.var('data')
    >>> net = mx.sym.FullyConnected(data, num_hidden=10, name='fc')
    >>> net = mx.sym.SoftmaxOutput(net, name='softmax')
    >>> mod = mx.mod.Module(net, context=mx.cpu())
    >>> mod.bind(data_shapes=[('data', (4, 8))], label_shapes=[('softmax_label', (4,))])
    >>> mod.init_params()
    """

    def __init__(self, symbol, data_names=("data",), label_names=("softmax_label",),
                 logger=logging, context=None, work_load_list=None, fixed_param_names=None,
                 state_names=None, group2ctxs=None, compression_params=None):
        super().__init__(logger=logger)
        if context is None:
            context = cpu()
        if isinstance(context, Context):
            context = [context]
        self._context = list(context)
        if work_load_list is None:
            work_load_list = [1] * len(self._context)
        if len(work_load_list) != len(self._context):
            raise AssertionError("work_load_list must have one entry per context")  # as MXNet
        self._work_load_list = work_load_list
        self._group2ctxs = group2ctxs
        self._symbol = symbol
        data_names = list(data_names) if data_names is not None else []
        label_names = list(label_names) if label_names is not None else []
        state_names = list(state_names) if state_names is not None else []
        fixed_param_names = list(fixed_param_names) if fixed_param_names is not None else []
        _check_input_names(symbol, data_names, "data", True)
        _check_input_names(symbol, label_names, "label", False)
        _check_input_names(symbol, state_names, "state", True)
        _check_input_names(symbol, fixed_param_names, "fixed_param", True)
        arg_names = symbol.list_arguments()
        input_names = data_names + label_names + state_names
        self._param_names = [x for x in arg_names if x not in input_names]
        self._fixed_param_names = fixed_param_names
        self._aux_names = symbol.list_auxiliary_states()
        self._data_names = data_names
        self._label_names = label_names
        self._state_names = state_names
        self._output_names = symbol.list_outputs()
        self._arg_params = None
        self._aux_params = None
        self._params_dirty = False
        self._compression_params = compression_params
        self._optimizer = None
        self._kvstore = None
        self._update_on_kvstore = None
        self._updater = None
        self._preload_opt_states = None
        self._grad_req = None
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    @staticmethod
    def load(prefix, epoch, load_optimizer_states=False, **kwargs):
        """Create a Module from ``prefix-symbol.json`` and ``prefix-%04d.params``."""
        from ..model import load_checkpoint

        sym, args, auxs = load_checkpoint(prefix, epoch)
        mod = Module(symbol=sym, **kwargs)
        mod._arg_params = args
        mod._aux_params = auxs
        mod.params_initialized = True
        if load_optimizer_states:
            mod._preload_opt_states = "%s-%04d.states" % (prefix, epoch)
        return mod

    def save_checkpoint(self, prefix, epoch, save_optimizer_states=False,
                        remove_amp_cast=True) -> None:
        """Save ``prefix-symbol.json``, ``prefix-%04d.params`` (and ``.states``)."""
        self._symbol.save(f"{prefix}-symbol.json", remove_amp_cast=remove_amp_cast)
        param_name = "%s-%04d.params" % (prefix, epoch)
        self.save_params(param_name)
        logging.info('Saved checkpoint to "%s"', param_name)
        if save_optimizer_states:
            state_name = "%s-%04d.states" % (prefix, epoch)
            self.save_optimizer_states(state_name)
            logging.info('Saved optimizer state to "%s"', state_name)

    # -- properties ---------------------------------------------------------------------
    @property
    def data_names(self):
        return self._data_names

    @property
    def label_names(self):
        return self._label_names

    @property
    def output_names(self):
        return self._output_names

    @property
    def data_shapes(self):
        assert self.binded, "Module: call bind() first"
        return self._data_shapes

    @property
    def label_shapes(self):
        assert self.binded, "Module: call bind() first"
        return self._label_shapes

    @property
    def output_shapes(self):
        assert self.binded, "Module: call bind() first"
        return self._exec_group.get_output_shapes()

    # -- parameters -----------------------------------------------------------------------
    def get_params(self):
        assert self.binded and self.params_initialized, \
            "Module: call bind() and init_params() first"
        if self._params_dirty:
            self._sync_params_from_devices()
        return self._arg_params, self._aux_params

    def init_params(self, initializer=None, arg_params=None, aux_params=None,
                    allow_missing=False, force_init=False, allow_extra=False) -> None:
        """Initialise parameters from ``arg_params``/``aux_params`` or ``initializer``."""
        from ..initializer import InitDesc, Uniform

        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. "
                          "init_params call ignored.", stacklevel=2)
            return
        assert self.binded, "call bind before initializing the parameters"
        if initializer is None and arg_params is None and aux_params is None:
            initializer = Uniform(0.01)

        def _impl(desc, arr, cache):
            if cache is not None:
                if desc in cache:
                    src = cache[desc]
                    if src is not arr:
                        if src.shape != arr.shape:
                            raise MXNetError(f"init_params: shape of {desc} is {src.shape}, "
                                             f"expected {arr.shape}")
                        src.astype(arr.dtype).copyto(arr)
                else:
                    if not allow_missing:
                        raise RuntimeError(f"{desc} is not presented")
                    if initializer is not None:
                        initializer(desc, arr)
            else:
                initializer(desc, arr)

        attrs = self._symbol.attr_dict()
        for name, arr in sorted(self._arg_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, arg_params)
        for name, arr in sorted(self._aux_params.items()):
            _impl(InitDesc(name, attrs.get(name, None)), arr, aux_params)
        self.params_initialized = True
        self._params_dirty = False
        self._exec_group.set_params(self._arg_params, self._aux_params, allow_extra=allow_extra)

    def set_params(self, arg_params, aux_params, allow_missing=False, force_init=True,
                   allow_extra=False) -> None:
        if not allow_missing:
            self.init_params(initializer=None, arg_params=arg_params, aux_params=aux_params,
                             allow_missing=allow_missing, force_init=force_init,
                             allow_extra=allow_extra)
            return
        if self.params_initialized and not force_init:
            warnings.warn("Parameters already initialized and force_init=False. "
                          "set_params call ignored.", stacklevel=2)
            return
        self._exec_group.set_params(arg_params, aux_params, allow_extra=allow_extra)
        self._params_dirty = True
        self.params_initialized = True

    def _sync_params_from_devices(self) -> None:
        self._exec_group.get_params(self._arg_params, self._aux_params)
        self._params_dirty = False

    # -- binding --------------------------------------------------------------------------
    def _reset_bind(self) -> None:
        self.binded = False
        self._exec_group = None
        self._data_shapes = None
        self._label_shapes = None

    def bind(self, data_shapes, label_shapes=None, for_training=True, inputs_need_grad=False,
             force_rebind=False, shared_module=None, grad_req="write") -> None:
        """Allocate executors for these input shapes on every context."""
        from .. import ndarray as nd

        if force_rebind:
            self._reset_bind()
        if self.binded:
            self.logger.warning("Already bound, ignoring bind()")
            return
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self._grad_req = grad_req
        if not for_training and inputs_need_grad:
            raise MXNetError("inputs_need_grad requires for_training=True")
        self._data_shapes, self._label_shapes = _parse_data_desc(
            self._data_names, self._label_names, data_shapes, label_shapes)
        self._exec_group = DataParallelExecutorGroup(
            self._symbol, self._context, self._work_load_list, self._data_shapes,
            self._label_shapes, self._param_names, for_training, inputs_need_grad,
            logger=self.logger, fixed_param_names=self._fixed_param_names, grad_req=grad_req,
            state_names=self._state_names, group2ctxs=self._group2ctxs,
            shared_group=shared_module._exec_group if shared_module is not None else None)
        self.binded = True
        if shared_module is not None and shared_module.params_initialized:
            self._arg_params, self._aux_params = shared_module.get_params()
            self.params_initialized = True
        if self.params_initialized:
            self._exec_group.set_params(self._arg_params, self._aux_params)
        else:
            stypes = _param_stypes(self._symbol)
            self._arg_params = {n: nd.zeros(a[0].shape, dtype=a[0].dtype,
                                            stype=stypes.get(n, a[0].stype))
                                for n, a in zip(self._param_names, self._exec_group.param_arrays)}
            self._aux_params = {n: nd.zeros(a[0].shape, dtype=a[0].dtype)
                                for n, a in zip(self._aux_names, self._exec_group.aux_arrays)}
        if shared_module is not None and shared_module.optimizer_initialized:
            # as MXNet 1.9.1: a module bound against a trained one keeps training with its
            # optimizer (mx-rcnn's MutableModule rebinds this way on every new image shape)
            self.borrow_optimizer(shared_module)

    def reshape(self, data_shapes, label_shapes=None) -> None:
        assert self.binded, "Module: call bind() first"
        self._data_shapes, self._label_shapes = _parse_data_desc(
            self._data_names, self._label_names, data_shapes, label_shapes)
        self._exec_group.reshape(self._data_shapes, self._label_shapes)

    # -- optimizer ------------------------------------------------------------------------
    def init_optimizer(self, kvstore="local", optimizer="sgd",
                       optimizer_params=(("learning_rate", 0.01),), force_init=False) -> None:
        """Create the optimizer (and kvstore when several devices are used)."""
        from .. import optimizer as opt

        assert self.binded and self.params_initialized, \
            "Module: call bind() and init_params() first"
        if self.optimizer_initialized and not force_init:
            self.logger.warning("optimizer already initialized, ignoring...")
            return
        if self._params_dirty:
            self._sync_params_from_devices()
        kvstore, update_on_kvstore = _create_kvstore(kvstore, len(self._context),
                                                     self._arg_params)
        batch_size = self._exec_group.batch_size
        if kvstore and "dist" in kvstore.type and "_sync" in kvstore.type:
            batch_size *= kvstore.num_workers
        rescale_grad = 1.0 / batch_size
        ndev = len(self._context)
        if update_on_kvstore:
            idx2name = dict(enumerate(self._exec_group.param_names))
        else:
            idx2name = {i * ndev + k: n for k in range(ndev)
                        for i, n in enumerate(self._exec_group.param_names)}
        if isinstance(optimizer, str):
            params = dict(optimizer_params)
            params.setdefault("rescale_grad", rescale_grad)
            optimizer = opt.create(optimizer, sym=self.symbol, param_idx2name=idx2name, **params)
        else:
            if not isinstance(optimizer, opt.Optimizer):
                raise TypeError("optimizer must be a str or an Optimizer")
            if optimizer.rescale_grad != rescale_grad:
                warnings.warn(f"Optimizer created manually outside Module but rescale_grad is "
                              f"not normalized to 1.0/batch_size/num_workers "
                              f"({optimizer.rescale_grad} vs. {rescale_grad}). Is this "
                              "intended?", stacklevel=2)
            if not optimizer.idx2name:
                optimizer.idx2name = idx2name.copy()
        self._optimizer = optimizer
        self._kvstore = kvstore
        self._update_on_kvstore = update_on_kvstore
        self._updater = None
        if kvstore:
            if self._compression_params:
                kvstore.set_gradient_compression(self._compression_params)
            if update_on_kvstore:
                kvstore.set_optimizer(self._optimizer)
            for idx, name in enumerate(self._param_names):
                kvstore.init(name, self._arg_params[name])
                if update_on_kvstore:
                    kvstore.pull(name, self._exec_group.param_arrays[idx], priority=-idx)
        if not update_on_kvstore:
            self._updater = opt.get_updater(optimizer)
        self.optimizer_initialized = True
        if self._preload_opt_states is not None:
            self.load_optimizer_states(self._preload_opt_states)
            self._preload_opt_states = None

    def borrow_optimizer(self, shared_module) -> None:
        assert shared_module.optimizer_initialized
        self._optimizer = shared_module._optimizer
        self._kvstore = shared_module._kvstore
        self._update_on_kvstore = shared_module._update_on_kvstore
        self._updater = shared_module._updater
        self.optimizer_initialized = True

    # -- computation ----------------------------------------------------------------------
    def forward(self, data_batch, is_train=None) -> None:
        """Forward one batch (re-binding shapes when the batch shape changed)."""
        from ..io import DataDesc

        assert self.binded and self.params_initialized, \
            "Module: call bind() and init_params() first"
        curr = tuple(d.shape for d in self._data_shapes)
        new = tuple(d.shape for d in data_batch.data)
        if curr != new:
            if getattr(data_batch, "provide_data", None):
                new_dshape = data_batch.provide_data
            else:
                new_dshape = [DataDesc(d.name, s, d.dtype, d.layout)
                              for d, s in zip(self._data_shapes, new)]
            if getattr(data_batch, "provide_label", None):
                new_lshape = data_batch.provide_label
            elif getattr(data_batch, "label", None) and self._label_shapes:
                new_lshape = [DataDesc(d.name, lab.shape, d.dtype, d.layout)
                              for d, lab in zip(self._label_shapes, data_batch.label)]
            else:
                new_lshape = None
            self.reshape(new_dshape, new_lshape)
        self._exec_group.forward(data_batch, is_train)

    def backward(self, out_grads=None) -> None:
        assert self.binded and self.params_initialized, \
            "Module: call bind() and init_params() first"
        self._exec_group.backward(out_grads=out_grads)

    def update(self) -> None:
        """Apply one optimizer step to every parameter from the current gradients."""
        assert self.binded and self.params_initialized and self.optimizer_initialized, \
            "Module: call bind(), init_params() and init_optimizer() first"
        self._params_dirty = True
        group = self._exec_group
        ndev = len(self._context)
        sparse = self.__dict__.get("_row_sparse_params")
        if sparse is None:  # the symbol never changes: look its attributes up once
            sparse = self._row_sparse_params = {
                n for n, st in _param_stypes(self._symbol).items() if st == "row_sparse"}
        # as MXNet 1.9.1 (model._update_params): one updater call per device with every
        # parameter, so that optimizers with aggregate_num > 0 update them in groups
        updates: list[list] = [[] for _ in range(ndev)]
        for i, (args, grads) in enumerate(zip(group.param_arrays, group.grad_arrays)):
            if grads[0] is None:
                continue
            name = group.param_names[i]
            if name in sparse:
                # MXNet's gradient of a row_sparse weight only holds the touched rows, so
                # the optimizers update those rows lazily
                grads = [g.tostype("row_sparse") for g in grads]
            if self._update_on_kvstore:
                self._kvstore.push(name, grads, priority=-i)
                self._kvstore.pull(name, args, priority=-i, ignore_sparse=False)
                continue
            if self._kvstore is not None:
                self._kvstore.push(name, grads, priority=-i)
                self._kvstore.pull(name, grads, priority=-i, ignore_sparse=False)
            for k, (w, g) in enumerate(zip(args, grads)):
                updates[k].append((i * ndev + k, g, w))
        for dev in updates:
            if dev:
                idx, gs, ws = zip(*dev)
                self._updater(list(idx), list(gs), list(ws))

    def get_outputs(self, merge_multi_context=True):
        assert self.binded and self.params_initialized, \
            "Module: call bind() and init_params() first"
        return self._exec_group.get_outputs(merge_multi_context=merge_multi_context)

    def get_input_grads(self, merge_multi_context=True):
        assert self.binded and self.params_initialized and self.inputs_need_grad
        return self._exec_group.get_input_grads(merge_multi_context=merge_multi_context)

    def get_states(self, merge_multi_context=True):
        """Values of the ``state_names`` inputs (per device unless merged)."""
        assert self.binded and self.params_initialized
        return self._exec_group.get_states(merge_multi_context=merge_multi_context)

    def set_states(self, states=None, value=None) -> None:
        """Set the ``state_names`` inputs from arrays (``states``) or a scalar ``value``."""
        assert self.binded and self.params_initialized
        self._exec_group.set_states(states, value)

    def update_metric(self, eval_metric, labels, pre_sliced=False) -> None:
        self._exec_group.update_metric(eval_metric, labels, pre_sliced)

    def install_monitor(self, mon) -> None:
        assert self.binded, "Module: call bind() first"
        self._exec_group.install_monitor(mon)

    # -- optimizer states -----------------------------------------------------------------
    def save_optimizer_states(self, fname: str) -> None:
        """Write optimizer states (a pickle of ``{index: state}``) atomically."""
        assert self.optimizer_initialized, "Module: call init_optimizer() first"
        if self._update_on_kvstore:
            self._kvstore.save_optimizer_states(fname)
            return
        data = self._updater.get_states()
        tmp = f"{fname}.tmp{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, fname)

    def load_optimizer_states(self, fname: str) -> None:
        assert self.optimizer_initialized, "Module: call init_optimizer() first"
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
            return
        with open(fname, "rb") as f:
            data = f.read()
        try:
            self._updater.set_states(data)
        except MXNetError as e:
            raise MXNetError(f"{fname}: {e}") from None
