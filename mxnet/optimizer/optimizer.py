"""Weight-update rules: the :class:`Optimizer` base class, the registry and :class:`Updater`.

Every optimizer class is importable as ``mxnet.optimizer.optimizer.<Name>``: ``.states``
files written by ``Updater.get_states(dump_optimizer=True)`` pickle the optimizer by that
path, with MXNet 1.9.1's attribute names.
"""

from __future__ import annotations

import pickle
import warnings

import numpy

from ..base import abstract
from ..ndarray import NDArray
from ..util import is_np_array

__all__ = [
    "AdaDelta", "AdaGrad", "Adam", "Adamax", "DCASGD", "FTML", "Ftrl", "LARS", "LBSGD",
    "NAG", "Nadam", "Optimizer", "RMSProp", "SGD", "SGLD", "Signum", "LAMB", "Test",
    "Updater", "ccSGD", "create", "get_updater", "register",
]


def _flatten_list(nested):
    return [item for sub in nested for item in sub]


class Optimizer:
    """Base class of all optimizers.

    Parameters
    ----------
    rescale_grad : float, default 1.0
        Multiply the gradient by this before the update (often ``1/batch_size``).
    param_idx2name : dict of int to str, optional
        Parameter names by index; names not ending in ``_weight``/``_gamma`` get no weight
        decay.
    wd : float, default 0.0
        Weight decay (L2 penalty) coefficient.
    clip_gradient : float, optional
        Clip the gradient to ``[-clip_gradient, clip_gradient]``.
    learning_rate : float, optional
        Initial learning rate (0.01 when neither it nor ``lr_scheduler`` is given).
    lr_scheduler : LRScheduler, optional
        Learning-rate schedule, called with ``num_update``.
    sym : Symbol, optional
        Symbol whose ``__lr_mult__``/``__wd_mult__`` attributes set per-parameter multipliers.
    begin_num_update : int, default 0
        Initial update count.
    multi_precision : bool, default False
        Keep an fp32 master copy of fp16 weights and update that.
    param_dict : dict of int to gluon.Parameter, optional
        Parameters whose ``lr_mult``/``wd_mult`` attributes are used.

    Examples
    --------
    >>> opt = mx.optimizer.create('sgd', learning_rate=0.1, momentum=0.9)
    >>> opt.learning_rate
    0.1
    """

    opt_registry: dict = {}

    def __init__(self, rescale_grad=1.0, param_idx2name=None, wd=0.0, clip_gradient=None,
                 learning_rate=None, lr_scheduler=None, sym=None, begin_num_update=0,
                 multi_precision=False, param_dict=None):
        self.rescale_grad = rescale_grad
        self.lr_scheduler = lr_scheduler
        if lr_scheduler is None and learning_rate is None:
            learning_rate = 0.01
        self.lr = learning_rate
        if lr_scheduler is not None and learning_rate is not None:
            if lr_scheduler.base_lr != learning_rate:
                print(UserWarning("learning rate from ``lr_scheduler`` has been overwritten "
                                  "by ``learning_rate`` in optimizer."))
                lr_scheduler.base_lr = learning_rate
        self.wd = wd
        self.lr_mult = {}
        self.wd_mult = {}
        self.begin_num_update = begin_num_update
        self.num_update = begin_num_update
        self._all_index_update_counts = {0: {}}
        self._index_update_count = self._all_index_update_counts[0]
        self.clip_gradient = clip_gradient
        self.multi_precision = multi_precision
        self.aggregate_num = 0
        if param_idx2name is None:
            param_idx2name = {}
        assert isinstance(param_idx2name, dict), \
            "param_idx2name should be a dict of param indexes to names."
        self.idx2name = param_idx2name.copy()
        self.sym_info = (sym.attr_dict(), sym.list_arguments()) if sym is not None else ()
        self.param_dict = param_dict if param_dict else {}
        # MXNet: an optimizer made under npx.set_np() takes mx.np weights and gradients
        # (its Updater hands them to the classic kernels as mx.nd views)
        self.allow_np_array = is_np_array()
        self.set_lr_mult({})
        self.set_wd_mult({})

    # -- registry -------------------------------------------------------------------------
    @staticmethod
    def register(klass):
        """Register an optimizer class under its lower-cased name (a decorator).

        Examples
        --------
        >>> @mx.optimizer.Optimizer.register
        ... class MyOptimizer(mx.optimizer.Optimizer):
        ...     pass
        """
        assert isinstance(klass, type)
        name = klass.__name__.lower()
        if name in Optimizer.opt_registry:
            old = Optimizer.opt_registry[name]
            warnings.warn(f"WARNING: New optimizer {klass.__module__}.{klass.__name__} is "
                          f"overriding existing optimizer {old.__module__}.{old.__name__}")
        Optimizer.opt_registry[name] = klass
        return klass

    @staticmethod
    def create_optimizer(name, **kwargs):
        """Instantiate a registered optimizer by (case-insensitive) name.

        Examples
        --------
        >>> type(mx.optimizer.create('adam', learning_rate=0.1)).__name__
        'Adam'
        """
        if name.lower() in Optimizer.opt_registry:
            return Optimizer.opt_registry[name.lower()](**kwargs)
        raise ValueError(f"Cannot find optimizer {name}")

    # -- learning rate ----------------------------------------------------------------------
    @property
    def learning_rate(self):
        """The current learning rate (from the scheduler when there is one)."""
        if self.lr_scheduler is not None:
            return self.lr_scheduler(self.num_update)
        return self.lr

    def set_learning_rate(self, lr):
        """Set the learning rate; not allowed when an ``lr_scheduler`` is in use."""
        if self.lr_scheduler is not None:
            raise UserWarning("LRScheduler of the optimizer has already been defined. Note that "
                              "set_learning_rate can mutate the value of the learning rate of "
                              "the optimizer only when the LRScheduler of the optimizer is "
                              "undefined.")
        self.lr = lr

    def set_lr_scale(self, args_lrscale):
        """[DEPRECATED] Use :meth:`set_lr_mult`."""
        raise DeprecationWarning

    def set_lr_mult(self, args_lr_mult):
        """Set per-parameter learning-rate multipliers (by name or index).

        Symbol attributes ``__lr_mult__`` (from ``sym``) are applied first.
        """
        self.lr_mult = {}
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__lr_mult__" in attr[name]:
                    self.lr_mult[name] = float(attr[name]["__lr_mult__"])
        self.lr_mult.update(args_lr_mult)

    def set_wd_mult(self, args_wd_mult):
        """Set per-parameter weight-decay multipliers (by name or index).

        Parameters whose names (from ``param_idx2name``) end neither in ``_weight`` nor in
        ``_gamma`` get 0; symbol attributes ``__wd_mult__`` come next, then ``args_wd_mult``.
        """
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not (n.endswith("_weight") or n.endswith("_gamma")):
                self.wd_mult[n] = 0.0
        self._apply_sym_wd_mult()
        self.wd_mult.update(args_wd_mult)

    def _apply_sym_wd_mult(self):
        if self.sym_info:
            attr, arg_names = self.sym_info
            for name in arg_names:
                if name in attr and "__wd_mult__" in attr[name]:
                    self.wd_mult[name] = float(attr[name]["__wd_mult__"])

    # -- states -----------------------------------------------------------------------------
    def create_state(self, index, weight):
        """Auxiliary state (momentum...) for one weight; ``None`` when there is none."""
        return None

    def create_state_multi_precision(self, index, weight):
        """Like :meth:`create_state`, with an fp32 master copy first for fp16 weights."""
        if self.multi_precision and weight.dtype == numpy.float16:
            master = weight.astype(numpy.float32)
            return (master,) + (self.create_state(index, master),)
        if weight.dtype == numpy.float16 and not self.multi_precision:
            warnings.warn("Accumulating with float16 in optimizer can lead to poor accuracy or "
                          "slow convergence. Consider using multi_precision=True option of the "
                          "optimizer")
        return self.create_state(index, weight)

    def update(self, index, weight, grad, state):
        """Update ``weight`` in place from ``grad`` and ``state``."""
        raise abstract(self, "update")

    def update_multi_precision(self, index, weight, grad, state):
        """:meth:`update` through the fp32 master copy when ``multi_precision`` is on."""
        if self.multi_precision and weight.dtype == numpy.float16:
            master, original = state[0], state[1]
            self.update(index, master, grad.astype(numpy.float32), original)
            weight._assign_tensor(master._t.to(weight._t.dtype))
        else:
            self.update(index, weight, grad, state)

    # -- counters, lr and wd per index ------------------------------------------------------
    def _set_current_context(self, device_id):
        if device_id not in self._all_index_update_counts:
            self._all_index_update_counts[device_id] = {}
        self._index_update_count = self._all_index_update_counts[device_id]

    def _update_count(self, index):
        if not isinstance(index, (list, tuple)):
            index = [index]
        for idx in index:
            if idx not in self._index_update_count:
                self._index_update_count[idx] = self.begin_num_update
            self._index_update_count[idx] += 1
            self.num_update = max(self._index_update_count[idx], self.num_update)

    def _scale_by_mult(self, values, indices, attr, mults):
        for i, index in enumerate(indices):
            if index in self.param_dict:
                values[i] *= getattr(self.param_dict[index], attr)
            elif index in mults:
                values[i] *= mults[index]
            elif index in self.idx2name:
                values[i] *= mults.get(self.idx2name[index], 1.0)
        return values

    def _get_lrs(self, indices):
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        return self._scale_by_mult([lr for _ in indices], indices, "lr_mult", self.lr_mult)

    def _get_lr(self, index):
        return self._get_lrs([index])[0]

    def _get_wds(self, indices):
        return self._scale_by_mult([self.wd for _ in indices], indices, "wd_mult", self.wd_mult)

    def _get_wd(self, index):
        return self._get_wds([index])[0]

    # -- pickling (param_dict holds live Parameters: never pickled) -------------------------
    def __getstate__(self):
        ret = self.__dict__.copy()
        ret.pop("param_dict", None)
        return ret

    def __setstate__(self, state):
        self.__dict__ = state
        self.param_dict = {}


register = Optimizer.register
create = Optimizer.create_optimizer


def _as_classic(a, allow_np: bool):
    """``mx.np`` arrays as classic ``mx.nd`` views of the same memory (MXNet's Updater), or
    MXNet's ValueError when the optimizer was not made for NumPy arrays."""
    from ..numpy import ndarray as np_ndarray

    if isinstance(a, list):
        if any(isinstance(x, np_ndarray) for x in a):
            if not allow_np:
                raise ValueError("Converting np.ndarray to mx.nd.NDArray is not allowed")
            return [x.as_nd_ndarray() if isinstance(x, np_ndarray) else x for x in a]
        return a
    if isinstance(a, np_ndarray):
        if not allow_np:
            raise ValueError("Converting np.ndarray to mx.nd.NDArray is not allowed")
        return a.as_nd_ndarray()
    return a


class Updater:
    """Apply an optimizer to (index, grad, weight) triples, keeping the per-index states.

    Examples
    --------
    >>> upd = mx.optimizer.get_updater(mx.optimizer.SGD(learning_rate=0.1))
    >>> w = mx.nd.ones((2,))
    >>> upd(0, mx.nd.ones((2,)), w)
    >>> w.asnumpy().tolist()
    [0.8999999761581421, 0.8999999761581421]
    """

    def __init__(self, optimizer):
        self.optimizer = optimizer
        self.states = {}
        self.states_synced = {}
        self.aggregate_updates = optimizer.aggregate_num > 0

    def __call__(self, index, grad, weight):
        allow_np = getattr(self.optimizer, "allow_np_array", None)
        if allow_np is None:
            allow_np = is_np_array()
        if not isinstance(index, (list, tuple)):
            indices = [index]
            grads, weights = [_as_classic(grad, allow_np)], [_as_classic(weight, allow_np)]
        else:
            indices = list(index)
            grads, weights = _as_classic(list(grad), allow_np), _as_classic(list(weight), allow_np)
        if weights:
            self.optimizer._set_current_context(weights[0].context.device_id)
        for i, idx in enumerate(indices):
            if isinstance(idx, bytes):
                indices[i] = idx = idx.decode("utf-8")
            if idx not in self.states:
                self.states[idx] = self.optimizer.create_state_multi_precision(idx, weights[i])
                self.states_synced[idx] = True
            elif not self.states_synced[idx]:
                self.states[idx] = self.sync_state_context(self.states[idx], weights[i].context)
                self.states_synced[idx] = True
        if not self.aggregate_updates:
            for i, w, g in zip(indices, weights, grads):
                self.optimizer.update_multi_precision(i, w, g, self.states[i])
            return
        by_type: dict = {}
        for i, w, g in zip(indices, weights, grads):
            by_type.setdefault(w.dtype, []).append((i, w, g))
        num = self.optimizer.aggregate_num
        for group in by_type.values():
            idxs, ws, gs = zip(*group)
            for start in range(0, len(idxs), num):
                sl = slice(start, start + num)
                states = [self.states[j] for j in idxs[sl]]
                self.optimizer.update_multi_precision(idxs[sl], ws[sl], gs[sl], states)

    def sync_state_context(self, state, context):
        """Move a state (NDArray or nested tuple/list of them) to ``context``."""
        if isinstance(state, NDArray):
            return state.as_in_context(context)
        if isinstance(state, (tuple, list)):
            synced = (self.sync_state_context(s, context) for s in state)
            return tuple(synced) if isinstance(state, tuple) else list(synced)
        return state

    def set_states(self, states):
        """Load states pickled by :meth:`get_states` (either pickle shape)."""
        from .. import _safe_pickle  # restricted: .states files may come from anywhere

        states = _safe_pickle.loads(states, "optimizer states (.states pickle)")
        if isinstance(states, tuple) and len(states) == 2 and isinstance(states[1], Optimizer):
            states, self.optimizer = states
        if not isinstance(states, dict):
            from ..base import MXNetError

            raise MXNetError("optimizer states (.states pickle): expected a dict of states or "
                             f"(dict, Optimizer), got {type(states).__name__}")
        self.states = states
        self.states_synced = dict.fromkeys(self.states.keys(), False)

    def get_states(self, dump_optimizer=False):
        """Pickle the states (and the optimizer when ``dump_optimizer``)."""
        return pickle.dumps((self.states, self.optimizer) if dump_optimizer else self.states)


def get_updater(optimizer):
    """An :class:`Updater` for ``optimizer`` (the closure used by kvstores and Module)."""
    return Updater(optimizer)


# Concrete optimizers live in submodules; they are re-exported here, where pickles find them.
from ._adaptive import FTML, LAMB, AdaDelta, AdaGrad, Adam, Adamax, Ftrl, Nadam, RMSProp, Test  # noqa: E402
from ._sgd import DCASGD, LARS, LBSGD, NAG, SGD, SGLD, Signum, ccSGD  # noqa: E402


def _mxnet_registry_order() -> None:
    """List the registry in MXNet 1.9.1's order (the order its module defines them)."""
    order = ("sgd", "signum", "ftml", "lars", "lbsgd", "lamb", "dcasgd", "nag", "sgld",
             "ccsgd", "adam", "adagrad", "rmsprop", "adadelta", "ftrl", "adamax", "nadam",
             "test")
    reg = Optimizer.opt_registry
    items = dict(reg)
    reg.clear()
    reg.update({k: items.pop(k) for k in order if k in items})
    reg.update(items)


_mxnet_registry_order()
