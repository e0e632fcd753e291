"""Gluon :class:`Trainer`: applies an optimizer to a set of parameters.

Gradients of parameters that live on several contexts are summed through a kvstore
(``'device'`` by default) before every context's copy is updated.

Examples
--------
>>> net = mx.gluon.nn.Dense(1, in_units=2); net.initialize()
>>> trainer = mx.gluon.Trainer(net.collect_params(), 'sgd', {'learning_rate': 0.1})
"""

from __future__ import annotations

import os
import weakref

import numpy as np

from ..base import MXNetError
from .parameter import Parameter, ParameterDict

__all__ = ["Trainer"]


def _create_kvstore(kvstore, num_device, max_size=0):
    """MXNet's rule: no kvstore for one device unless distributed."""
    update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, str):
        if num_device == 1 and "dist" not in kvstore:
            kv = None
        else:
            from .. import kvstore as kvs

            kv = kvs.create(kvstore)
            if kvstore == "local" and max_size > 1024 * 1024 * 16:
                update_on_kvstore = False  # big weights: update on the devices
    elif hasattr(kvstore, "pushpull") or hasattr(kvstore, "push"):
        kv = kvstore
    else:
        raise TypeError("kvstore must be KVStore, str or None")
    if kv is None:
        update_on_kvstore = False
    return kv, update_on_kvstore


def _create_sparse_kvstore(kvstore):
    """A kvstore is required when weights are sparse; they are updated on it."""
    from .. import kvstore as kvs

    if isinstance(kvstore, str):
        return kvs.create(kvstore), True
    if kvstore is not None and (hasattr(kvstore, "pushpull") or hasattr(kvstore, "push")):
        return kvstore, True
    raise ValueError(f"Cannot create KVStore with row_sparse weights for input {kvstore}")


class Trainer:
    """Apply an :class:`~mxnet.optimizer.Optimizer` to parameters.

    Parameters
    ----------
    params : ParameterDict, dict or list of Parameter
        Parameters to optimize (a dict is taken in sorted-key order).
    optimizer : str or Optimizer
    optimizer_params : dict
        Keyword arguments of the optimizer (``learning_rate``, ``wd``...).
    kvstore : str or KVStore
        Reduction of gradients across contexts.
    compression_params : dict, optional
    update_on_kvstore : bool, optional
        Update on the kvstore instead of on each context.

    Examples
    --------
    >>> with mx.autograd.record():
    ...     loss = net(mx.nd.ones((4, 2))).sum()
    >>> loss.backward()
    >>> trainer.step(4)
    """

    def __init__(
        self,
        params,
        optimizer,
        optimizer_params=None,
        kvstore="device",
        compression_params=None,
        update_on_kvstore=None,
    ):
        if isinstance(params, (dict, ParameterDict)):
            params = [params[key] for key in sorted(list(params.keys()))]
        if not isinstance(params, (list, tuple)):
            raise ValueError(
                f"First argument must be a list or dict of Parameters, got {type(params)}."
            )
        self._params = []
        self._param2idx = {}
        self._contains_sparse_weight = False
        self._contains_sparse_grad = False
        for i, param in enumerate(params):
            if not isinstance(param, Parameter):
                raise ValueError(
                    f"First argument must be a list or dict of Parameters, got "
                    f"list of {type(param)}."
                )
            self._param2idx[param.name] = i
            self._params.append(param)
            param._set_trainer(self)
            if param._stype != "default":
                self._contains_sparse_weight = True
            if param._grad_stype != "default":
                self._contains_sparse_grad = True
        self._compression_params = compression_params
        self._contexts = self._check_contexts()
        self._init_optimizer(optimizer, optimizer_params or {})
        self._scale = self._optimizer.rescale_grad
        self._kvstore_params = {"kvstore": kvstore, "update_on_kvstore": update_on_kvstore}
        self._kv_initialized = False
        self._kvstore = None
        self._update_on_kvstore = None
        self._distributed = None
        self._params_to_init = []
        self._reset_kvstore()

    def _check_contexts(self):
        contexts = None
        for param in self._params:
            ctx = param.list_ctx()
            if contexts is not None and contexts != ctx:
                raise AssertionError(
                    f"All Parameters must be initialized on the same set of contexts, but "
                    f"Parameter {param.name} is initialized on {ctx} while previous Parameters "
                    f"are initialized on {contexts}."
                )
            contexts = ctx
        return contexts

    def _init_optimizer(self, optimizer, optimizer_params):
        from .. import optimizer as opt

        param_dict = {i: param for i, param in enumerate(self._params)}
        if isinstance(optimizer, opt.Optimizer):
            if optimizer_params:
                raise AssertionError(
                    "optimizer_params must be None if optimizer is an "
                    "instance of Optimizer instead of str"
                )
            self._optimizer = optimizer
            self._optimizer.param_dict = param_dict
        else:
            self._optimizer = opt.create(optimizer, param_dict=param_dict, **optimizer_params)
        if self._contexts is None:
            # MXNet 1.9.1 fails here with a TypeError when there is no Parameter
            raise TypeError(
                "Trainer needs at least one Parameter: 'NoneType' object is not iterable"
            )
        self._updaters = [opt.get_updater(self._optimizer) for _ in self._contexts]

    def _reset_kvstore(self):
        if self._kvstore is not None and "dist" in getattr(self._kvstore, "type", ""):
            raise RuntimeError("Cannot reset distributed KVStore.")
        self._kv_initialized = False
        self._kvstore = None
        self._distributed = None
        self._update_on_kvstore = None
        self._params_to_init = list(self._params)

    def _init_kvstore(self):
        config = self._kvstore_params
        if self._contains_sparse_weight:
            # sparse weights live in the kvstore, which also updates them
            kvstore, update_on_kvstore = _create_sparse_kvstore(config["kvstore"])
            self._distributed = "dist" in kvstore.type
            if config["update_on_kvstore"] is False:
                raise ValueError(
                    "Cannot set update_on_kvstore=False when sparse weights are present."
                )
        else:
            max_size = max((int(np.prod(p.shape)) for p in self._params if p.shape), default=0)
            kvstore, update_on_kvstore = _create_kvstore(
                config["kvstore"], len(self._contexts or [None]), max_size
            )
            self._distributed = "dist" in kvstore.type if kvstore is not None else False
            if self._contains_sparse_grad:
                update_on_kvstore = self._distributed
            elif self._distributed and "async" in kvstore.type:
                update_on_kvstore = True
                if config["update_on_kvstore"] is False:
                    raise ValueError(
                        "Please set update_on_kvstore=True when training in async mode."
                    )
            if config["update_on_kvstore"] is not None:
                if (
                    config["update_on_kvstore"] is False
                    and self._distributed
                    and self._contains_sparse_grad
                ):
                    raise ValueError(
                        "Cannot set update_on_kvstore=False on dist kvstore when "
                        "sparse gradients are present."
                    )
                update_on_kvstore = config["update_on_kvstore"]
        if kvstore is not None:
            if self._compression_params:
                kvstore.set_gradient_compression(self._compression_params)
            if update_on_kvstore:
                kvstore.set_optimizer(self._optimizer)
            self._kvstore = kvstore
            self._update_on_kvstore = bool(update_on_kvstore)
        else:
            self._kvstore = None
            self._update_on_kvstore = None
        self._kv_initialized = True

    def _init_params(self):
        if not self._kv_initialized:
            raise AssertionError(
                "Cannot initialize parameters in KVStore when KVStore is not initialized."
            )
        pending = []
        if self._kvstore is not None:
            for param in self._params_to_init:
                if param._deferred_init:
                    pending.append(param)
                    continue
                arrays = param._check_and_get(param._data, list)
                idx = self._param2idx[param.name]
                self._kvstore.init(idx, arrays[0])
                if param._stype == "default" and len(arrays) > 1:
                    # arrays[0] holds the stored value already: leaving it untouched keeps
                    # it valid in a graph being recorded
                    self._kvstore.pull(idx, arrays[1:], priority=-idx)
        self._params_to_init = pending

    def _row_sparse_pull(self, parameter, out, row_id, full_idx=False):
        """Pull rows ``row_id`` of a row_sparse parameter from the kvstore into ``out``."""
        self._prepare()
        from .. import autograd

        idx = self._param2idx[parameter.name]
        with autograd.pause():
            self._pull_rows(idx, out, row_id, full_idx)

    def _pull_rows(self, idx, out, row_id, full_idx):
        if full_idx and "dist" not in self._kvstore.type:
            self._kvstore.pull(idx, out=out, priority=-idx, ignore_sparse=False)
        else:
            self._kvstore.row_sparse_pull(idx, out=out, row_ids=row_id, priority=-idx)

    def _prepare(self):
        from .. import autograd

        if not self._kv_initialized:
            self._init_kvstore()
        if self._params_to_init:
            with autograd.pause():  # may run inside record() (row_sparse_data in forward)
                self._init_params()

    @property
    def learning_rate(self):
        from .. import optimizer as opt

        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning(
                "Optimizer has to be defined before its learning rate can be accessed."
            )
        return self._optimizer.learning_rate

    @property
    def optimizer(self):
        from .. import optimizer as opt

        if isinstance(self._optimizer, opt.Optimizer):
            return self._optimizer
        raise UserWarning("Optimizer has not been initialized yet")

    def set_learning_rate(self, lr):
        """Set the learning rate of the optimizer."""
        from .. import optimizer as opt

        if not isinstance(self._optimizer, opt.Optimizer):
            raise UserWarning("Optimizer has to be defined before its learning rate is mutated.")
        self._optimizer.set_learning_rate(lr)

    def _check_and_rescale_grad(self, scale):
        if self._update_on_kvstore and self._distributed and self._kv_initialized:
            if self._optimizer.rescale_grad != scale:
                raise UserWarning(
                    "Possible change in the `batch_size` from previous `step` "
                    "detected. Optimizer gradient normalizing factor will not "
                    "change w.r.t new batch_size when update_on_kvstore=True "
                    "and when distributed kvstore is used."
                )
        self._optimizer.rescale_grad = scale

    def step(self, batch_size, ignore_stale_grad=False):
        """One update: gradients are scaled by ``1/batch_size``, reduced, then applied."""
        self._check_and_rescale_grad(self._scale / batch_size)
        self._prepare()
        self._allreduce_grads()
        self._update(ignore_stale_grad)

    def allreduce_grads(self):
        """Sum gradients over contexts (for use with :meth:`update`)."""
        self._prepare()
        if self._kvstore is not None and self._update_on_kvstore:
            raise AssertionError(
                "allreduce_grads() when parameters are updated on kvstore is "
                "not supported. Try setting `update_on_kvstore` to False "
                "when creating trainer."
            )
        self._allreduce_grads()

    def _allreduce_grads(self):
        if self._kvstore is None:
            return
        # MXNet's freshness flag is set by backward only: a reduction that writes the summed
        # gradient into a stale buffer leaves it stale
        stale = [
            (param, k, grad)
            for param in self._params
            if param.grad_req != "null" and param._stype == "default"
            for k, grad in enumerate(param._check_and_get(param._grad, list))
            if not self._is_fresh(param, k, grad)
        ]
        try:
            self._reduce_grads()
        finally:
            for param, k, grad in stale:
                self._mark_used(param, k, grad)

    def _reduce_grads(self):
        from ..kvstore.kvstore import KVStore

        if isinstance(self._kvstore, KVStore) and "dist" in self._kvstore.type:
            overlap = self._grad_overlap()
            if overlap is not None and overlap.active:  # reductions started during backward
                overlap.finish()
                return
            # one call: a dist_sync store reduces the next keys while updating this one
            live = [(i, p) for i, p in enumerate(self._params) if p.grad_req != "null"]
            if live:
                keys, grads = [i for i, _ in live], [p._grad for _, p in live]
                outs = [p._data for _, p in live] if self._update_on_kvstore else None
                self._kvstore.pushpull(keys, grads, out=outs)
            if overlap is not None:
                overlap.establish()  # the order of this round's gradients is known now
            return
        for i, param in enumerate(self._params):
            if param.grad_req == "null":
                continue
            grad_list = param._check_and_get(param._grad, list)
            if param._stype != "default":  # the kvstore updates; rows are pulled on use
                self._kvstore.push(i, grad_list, priority=-i)
            elif self._update_on_kvstore:
                if param._grad_stype != "default":  # lazy updates on the store: row_sparse
                    grad_list = [param._public_grad(g) for g in grad_list]
                self._kvstore.pushpull(i, grad_list, out=param.list_data(), priority=-i)
            else:
                self._kvstore.pushpull(i, grad_list, priority=-i)

    def _grad_overlap(self):
        """The overlapped-reduction helper of a ``dist_sync`` store (see ``_overlap``): it is
        installed at the first step, learns the gradients' order in the second and overlaps
        the reductions with backward from the third."""
        from ._overlap import GradOverlap, overlap_possible

        ov = getattr(self, "_overlap", None)
        if ov is not None and ov.usable():
            return ov
        self._overlap = None
        if overlap_possible(self):
            ov = GradOverlap(self)
            if ov.keys:
                self._overlap = ov  # records the gradients' order from the next backward
        return None

    def update(self, batch_size, ignore_stale_grad=False):
        """Apply the optimizer (after :meth:`allreduce_grads`)."""
        self._prepare()
        if self._kvstore is not None and self._update_on_kvstore:
            raise AssertionError(
                "update() when parameters are updated on kvstore is not "
                "supported. Try setting `update_on_kvstore` to False when "
                "creating trainer."
            )
        self._check_and_rescale_grad(self._scale / batch_size)
        self._update(ignore_stale_grad)

    def _is_fresh(self, param, k, grad):
        # a gradient is fresh when its buffer was written since the last update by ANY
        # trainer (MXNet keeps the flag on the gradient array itself)
        t = grad._t
        seen = param.__dict__.get("_grad_seen", {}).get(k)
        # a weak reference, not id(): after re-initialization a new gradient buffer can
        # reuse a freed one's address (and version) and would look stale
        if seen is None or seen[0]() is not t:
            return t._version != 0
        return seen[1] != t._version

    def _mark_used(self, param, k, grad):
        t = grad._t
        param.__dict__.setdefault("_grad_seen", {})[k] = (weakref.ref(t), t._version)

    def _update(self, ignore_stale_grad=False):
        scaler = getattr(self, "_amp_loss_scaler", None)  # set by mxnet.contrib.amp
        if scaler is not None and scaler.has_overflow(self._params):
            return  # AMP: skip the step when the gradients overflowed
        updates = [[] for _ in self._updaters]
        for i, param in enumerate(self._params):
            if param.grad_req == "null":
                continue
            datas = param._check_and_get(param._data, list)
            grads = param._check_and_get(param._grad, list)
            if not ignore_stale_grad and param._stype == "default":
                for k, (data, grad) in enumerate(zip(datas, grads)):
                    if not self._is_fresh(param, k, grad):
                        raise UserWarning(
                            f"Gradient of Parameter `{param.name}` on context {data.context} "
                            "has not been updated by backward since last `step`. This could "
                            "mean a bug in your model that made it only use a subset of the "
                            "Parameters (Blocks) for this iteration. If you are intentionally "
                            "only using a subset, call step with ignore_stale_grad=True to "
                            "suppress this warning and skip updating of Parameters with stale "
                            "gradient"
                        )
            if self._kvstore is not None and self._update_on_kvstore:
                # MXNet 1.9.1 resets the flag only on the device-update path: with
                # update_on_kvstore a gradient once written by backward stays "fresh"
                continue
            for k, (upd, arr, grad) in enumerate(zip(updates, datas, grads)):
                if not ignore_stale_grad or self._is_fresh(param, k, grad):
                    upd.append((i, grad, arr, param, k))
        if self._kvstore is not None and self._update_on_kvstore:
            return
        for updater, upd in zip(self._updaters, updates):
            for i, grad, arr, param, k in upd:
                # a row_sparse gradient (Embedding(sparse_grad=True)) reaches the optimizer
                # as row_sparse: lazy updates (Adam, SGD momentum) touch only its rows
                sparse = param._grad_stype != "default"
                updater(i, param._public_grad(grad) if sparse else grad, arr)
                self._mark_used(param, k, grad)

    def save_states(self, fname):
        """Save optimizer states as the pickle ``(states, optimizer)``."""
        if self._optimizer is None:
            raise AssertionError("Optimizer has not been initialized")
        self._prepare()
        if self._update_on_kvstore:
            if self._params_to_init:
                raise AssertionError(
                    "Cannot save trainer states when some parameters are not "
                    "yet initialized in kvstore."
                )
            self._kvstore.save_optimizer_states(fname, dump_optimizer=True)
            return
        data = self._updaters[0].get_states(dump_optimizer=True)
        tmp = f"{fname}.tmp{os.getpid()}"
        with open(tmp, "wb") as fout:
            fout.write(data)
        os.replace(tmp, fname)

    def load_states(self, fname):
        """Load optimizer states saved by :meth:`save_states` (or by real MXNet)."""
        self._prepare()
        if self._update_on_kvstore:
            self._kvstore.load_optimizer_states(fname)
            self._optimizer = self._kvstore._updater.optimizer
        else:
            with open(fname, "rb") as f:
                states = f.read()
            for updater in self._updaters:
                try:
                    updater.set_states(states)
                except MXNetError as e:
                    raise MXNetError(f"{fname}: {e}") from None
                updater.optimizer = self._updaters[0].optimizer
            self._optimizer = self._updaters[0].optimizer
        self._optimizer.param_dict = {i: p for i, p in enumerate(self._params)}
