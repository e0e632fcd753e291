"""SGD-family optimizers: SGD, NAG, Signum, LARS, LBSGD, DCASGD, SGLD (and ccSGD)."""

from __future__ import annotations

import logging
import math
import os
import warnings

import numpy
import torch

from .._op._optim import nag_inplace, sgd_inplace
from ..ndarray import NDArray, array, zeros
from ..ndarray._namespace import function_for
from ._rows import apply_update, dense_fallback
from .optimizer import Optimizer, _flatten_list, register

_MODULE = "mxnet.optimizer.optimizer"


def _public(cls):
    """Give ``cls`` its pickle path (``mxnet.optimizer.optimizer``) and register it."""
    cls.__module__ = _MODULE
    if "_native_sparse" not in cls.__dict__:
        # kernels without a sparse path run on dense copies of sparse weights/states
        cls.update = dense_fallback(cls.update)
        cls.update_multi_precision = dense_fallback(cls.update_multi_precision)
    return register(cls)


def _op(name):
    return function_for(name)


def _q(v, t: torch.Tensor):
    """A Python scalar as MXNet's NDArray-scalar kernels use it next to ``t``: DType(v), so
    float16/bfloat16 arrays see the scalar rounded to their precision."""
    if t.dtype in (torch.float16, torch.bfloat16):
        return torch.tensor(float(v), dtype=t.dtype).item()
    return v


def _warn_fp16(name):
    warnings.warn(
        "Accumulating with float16 in optimizer can lead to poor accuracy or slow "
        f"convergence. Consider using multi_precision=True option of the {name} "
        "optimizer"
    )


def _mp_state_first(opt, index, weight, name):
    """State layout ``(state, weight32)`` used by SGD, LARS and NAG."""
    if opt.multi_precision and weight.dtype == numpy.float16:
        master = weight.astype(numpy.float32)
        return (opt.create_state(index, master), master)
    if weight.dtype == numpy.float16 and not opt.multi_precision:
        _warn_fp16(name)
    return opt.create_state(index, weight)


def _sgd_kwargs(opt, momentum):
    kwargs = {"rescale_grad": opt.rescale_grad}
    if momentum > 0:
        kwargs["momentum"] = momentum
    if opt.clip_gradient:
        kwargs["clip_gradient"] = opt.clip_gradient
    return kwargs


def _as_lists(indices, weights, grads, states):
    if not isinstance(indices, (tuple, list)):
        return [indices], [weights], [grads], [states]
    return list(indices), list(weights), list(grads), list(states)


def _single_sgd(weight, grad, state, lr, wd, kwargs, multi_precision, lazy=None):
    extra = {} if lazy is None else {"lazy_update": lazy}
    if not multi_precision:
        if state is not None:
            _op("sgd_mom_update")(weight, grad, state, out=weight, lr=lr, wd=wd, **extra, **kwargs)
        else:
            _op("sgd_update")(weight, grad, out=weight, lr=lr, wd=wd, **extra, **kwargs)
    elif state[0] is not None:
        _op("mp_sgd_mom_update")(
            weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd, **kwargs
        )
    else:
        _op("mp_sgd_update")(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)


def _multi_inputs(weights, grads, states, momentum, multi_precision):
    if not multi_precision:
        if momentum > 0:
            return _flatten_list(zip(weights, grads, states))
        return _flatten_list(zip(weights, grads))
    if momentum > 0:
        return _flatten_list(zip(weights, grads, *zip(*states)))
    return _flatten_list(zip(weights, grads, list(zip(*states))[1]))


def _multi_name(momentum, multi_precision, preloaded=False):
    name = (
        "multi_"
        + ("mp_" if multi_precision else "")
        + "sgd_"
        + ("mom_" if momentum > 0 else "")
        + "update"
    )
    return ("preloaded_" + name) if preloaded else name


class _SGDBase(Optimizer):
    def create_state_multi_precision(self, index, weight):
        return _mp_state_first(self, index, weight, "SGD")

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        stype = weight.stype if self.lazy_update else "default"
        return zeros(weight.shape, weight.context, dtype=weight.dtype, stype=stype)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        first = weight if not isinstance(index, (tuple, list)) else weight[0]
        use_mp = self.multi_precision and first.dtype == numpy.float16
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


@_public
class SGD(_SGDBase):
    """Stochastic gradient descent with momentum and weight decay.

    ``state = momentum * state + lr * (rescale_grad * clip(grad) + wd * weight)``;
    ``weight -= state``. With ``multi_precision`` fp16 weights are updated through an fp32
    master copy.

    Examples
    --------
    >>> opt = mx.optimizer.SGD(learning_rate=0.1, momentum=0.9)
    """

    _native_sparse = True

    def __init__(self, momentum=0.0, lazy_update=True, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.lazy_update = lazy_update
        self.aggregate_num = int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "4"))

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        for w, g in zip(weights, grads):
            assert isinstance(w, NDArray) and isinstance(g, NDArray)
        aggregate = all(
            w.stype == "default" and g.stype == "default" for w, g in zip(weights, grads)
        )
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        kwargs = _sgd_kwargs(self, self.momentum)
        if aggregate and not multi_precision:
            # multi_sgd[_mom]_update(..., out=weights), applied in place
            clip = kwargs.get("clip_gradient", -1.0)
            with torch.no_grad():
                for w, g, s, lr, wd in zip(weights, grads, states, lrs, wds):
                    sgd_inplace(
                        w._t,
                        g._t,
                        s._t if self.momentum > 0 else None,
                        lr,
                        wd,
                        self.momentum,
                        self.rescale_grad,
                        clip,
                        multi=True,
                    )
            return
        if aggregate:
            ins = _multi_inputs(weights, grads, states, self.momentum, multi_precision)
            _op(_multi_name(self.momentum, multi_precision))(
                *ins, out=weights, num_weights=len(weights), lrs=lrs, wds=wds, **kwargs
            )
            return
        clip = kwargs.get("clip_gradient", -1.0)
        for w, g, s, lr, wd in zip(weights, grads, states, lrs, wds):
            if multi_precision:
                _single_sgd(w, g, s, lr, wd, kwargs, multi_precision)
                continue

            def step(wt, gt, st, lr=lr, wd=wd):
                sgd_inplace(wt, gt, st[0], lr, wd, self.momentum, self.rescale_grad, clip)

            apply_update(w, g, [s if self.momentum > 0 else None], step, lazy=self.lazy_update)


@_public
class ccSGD(SGD):
    """[DEPRECATED] Same as :class:`SGD`."""


@_public
class Signum(Optimizer):
    """Sign of momentum: ``weight = (1 - lr*wd_lh)*weight - lr*sign(state)``.

    Examples
    --------
    >>> opt = mx.optimizer.Signum(learning_rate=0.01, momentum=0.9)
    """

    def __init__(self, learning_rate=0.01, momentum=0.9, wd_lh=0.0, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.momentum = momentum
        self.wd_lh = wd_lh

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return zeros(weight.shape, weight.context, dtype=weight.dtype, stype=weight.stype)

    def _update_impl(self, index, weight, grad, state):
        assert isinstance(weight, NDArray) and isinstance(grad, NDArray)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = _sgd_kwargs(self, self.momentum)
        if self.wd_lh:
            kwargs["wd_lh"] = self.wd_lh
        if state is not None:
            _op("signum_update")(weight, grad, state, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            _op("signsgd_update")(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state)


@_public
class NAG(Optimizer):
    """Nesterov accelerated gradient (``nag_mom_update``).

    Examples
    --------
    >>> opt = mx.optimizer.NAG(learning_rate=0.1, momentum=0.9)
    """

    def __init__(self, momentum=0.0, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum

    def create_state_multi_precision(self, index, weight):
        return _mp_state_first(self, index, weight, "NAG")

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return None
        return zeros(weight.shape, weight.context, dtype=weight.dtype)

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        assert isinstance(weight, NDArray) and isinstance(grad, NDArray)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = _sgd_kwargs(self, self.momentum)
        if not multi_precision:
            if state is not None:
                with torch.no_grad():
                    nag_inplace(
                        weight._t,
                        grad._t,
                        state._t,
                        lr,
                        wd,
                        self.momentum,
                        self.rescale_grad,
                        self.clip_gradient or -1.0,
                    )
            else:
                _op("sgd_update")(weight, grad, out=weight, lr=lr, wd=wd, **kwargs)
        elif state[0] is not None:
            _op("mp_nag_mom_update")(
                weight, grad, state[0], state[1], out=weight, lr=lr, wd=wd, **kwargs
            )
        else:
            _op("mp_sgd_update")(weight, grad, state[1], out=weight, lr=lr, wd=wd, **kwargs)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        use_mp = (
            self.multi_precision
            and weight.dtype == numpy.float16
            and isinstance(state, (tuple, list))
        )
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


def _no_lars(name):
    return name.endswith("gamma") or name.endswith("beta") or name.endswith("bias")


@_public
class LARS(_SGDBase):
    """Layer-wise adaptive rate scaling on top of SGD with momentum.

    ``lr_layer = lr * eta * |w| / (|g| + wd * |w| + eps)`` for weights; biases and
    batch-norm ``gamma``/``beta`` keep ``lr``.

    Examples
    --------
    >>> opt = mx.optimizer.LARS(learning_rate=0.1, momentum=0.9, eta=0.001)
    """

    def __init__(
        self, momentum=0.0, lazy_update=True, eta=0.001, eps=0, momentum_correction=True, **kwargs
    ):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.momentum_correction = momentum_correction
        self.lazy_update = lazy_update
        self.aggregate_num = int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "4"))
        self.eta = eta
        self.eps = eps
        self.skip = 0
        self.last_lr = None
        self.cur_lr = None

    def _get_lrs(self, indices):
        if self.cur_lr is not None:
            self.last_lr = self.cur_lr
        lr = self.lr_scheduler(self.num_update) if self.lr_scheduler is not None else self.lr
        if self.cur_lr is None:
            self.last_lr = lr
        self.cur_lr = lr
        return self._scale_by_mult([lr for _ in indices], indices, "lr_mult", self.lr_mult)

    def set_wd_mult(self, args_wd_mult):
        self.wd_mult = {}
        for n in self.idx2name.values():
            if not n.endswith("_weight"):
                self.wd_mult[n] = 0.0
        self._apply_sym_wd_mult()
        self.wd_mult.update(args_wd_mult)

    def _l2norm(self, v, rescale=False):
        t = v._t.float()
        if rescale:
            t = t * self.rescale_grad
        return numpy.float32(torch.linalg.vector_norm(t).item())

    def _get_lars(self, i, weight, g, lr, wd):
        name = self.idx2name[i] if i in self.idx2name else str(i)
        if _no_lars(name):
            return lr
        w_norm = self._l2norm(weight)
        g_norm = self._l2norm(g, rescale=True)
        if w_norm > 0.0 and g_norm > 0.0:
            lars = self.eta * w_norm / (g_norm + wd * w_norm + self.eps)
        else:
            lars = 1.0
        return lars * lr

    def _update_impl(self, indices, weights, grads, states, multi_precision=False):
        indices, weights, grads, states = _as_lists(indices, weights, grads, states)
        aggregate = all(
            w.stype == "default" and g.stype == "default" for w, g in zip(weights, grads)
        )
        self._update_count(indices)
        lrs = self._get_lrs(indices)
        wds = self._get_wds(indices)
        momentum = self.momentum
        if momentum > 0 and self.momentum_correction and self.last_lr != 0:
            momentum = self.momentum * (self.cur_lr / self.last_lr)
        kwargs = _sgd_kwargs(self, momentum)
        if not aggregate:
            lrs = [
                self._get_lars(i, w, g, lr, wd)
                for i, w, g, lr, wd in zip(indices, weights, grads, lrs, wds)
            ]
            for w, g, s, lr, wd in zip(weights, grads, states, lrs, wds):
                _single_sgd(
                    w,
                    g,
                    s,
                    lr,
                    wd,
                    kwargs,
                    multi_precision,
                    None if multi_precision else self.lazy_update,
                )
            return
        names = [self.idx2name[i] if i in self.idx2name else str(i) for i in indices]
        lars_idx = [i for i, n in enumerate(names) if not _no_lars(n)]
        order = lars_idx + [i for i, n in enumerate(names) if _no_lars(n)]
        ctx = weights[0].context
        new_lrs = array([lrs[i] for i in order], ctx=ctx, dtype="float32")
        new_wds = array([wds[i] for i in order], ctx=ctx, dtype="float32")
        ws = [weights[i] for i in order]
        gs = [grads[i] for i in order]
        ss = [states[i] for i in order]
        nl = len(lars_idx)
        if nl > 0:
            w_sq = _op("multi_sum_sq")(*ws[:nl], num_arrays=nl)
            g_sq = _op("multi_sum_sq")(*gs[:nl], num_arrays=nl)
            head = new_lrs[:nl]
            _op("multi_lars")(
                head,
                w_sq,
                g_sq,
                new_wds[:nl],
                eta=self.eta,
                eps=self.eps,
                rescale_grad=self.rescale_grad,
                out=head,
            )
        fn = _op(_multi_name(momentum, multi_precision, preloaded=True))
        for s in range(0, len(indices), self.aggregate_num):
            e = min(s + self.aggregate_num, len(indices))
            ins = _multi_inputs(ws[s:e], gs[s:e], ss[s:e], momentum, multi_precision)
            fn(*ins, new_lrs[s:e], new_wds[s:e], out=ws[s:e], num_weights=e - s, **kwargs)


@_public
class LBSGD(Optimizer):
    """Large-batch SGD: SGD with momentum, a warmup multiplier and gradient accumulation
    over ``batch_scale`` updates.

    Examples
    --------
    >>> opt = mx.optimizer.LBSGD(learning_rate=0.1, momentum=0.9, batch_scale=1)
    """

    def __init__(
        self,
        momentum=0.0,
        multi_precision=False,
        warmup_strategy="linear",
        warmup_epochs=5,
        batch_scale=1,
        updates_per_epoch=32,
        begin_epoch=0,
        num_epochs=60,
        **kwargs,
    ):
        super().__init__(**kwargs)
        logging.info("Running Large-Batch SGD Algorithm")
        logging.info(
            "(Batch_scale=%f, warmup_epochs=%d, warmup_strategy=%s, updates_per_epoch=%d)",
            batch_scale,
            warmup_epochs,
            warmup_strategy,
            updates_per_epoch,
        )
        self.momentum = momentum
        self.multi_precision = multi_precision
        self.warmup_strategy = warmup_strategy
        self.warmup_epochs = warmup_epochs
        self.batch_scale = batch_scale
        self.updates_per_epoch = updates_per_epoch
        self.init_updates = begin_epoch * updates_per_epoch
        self.num_epochs = num_epochs
        self.lbmult = 1
        self.cumgrads = {}
        self.adaptive = False
        self.admult = 1

    def create_state(self, index, weight):
        if self.multi_precision and weight.dtype == numpy.float16:
            master = array(weight, ctx=weight.context, dtype=numpy.float32)
            mom = None
            if self.momentum != 0.0:
                mom = zeros(weight.shape, weight.context, dtype=numpy.float32)
            return (mom, master)
        if weight.dtype == numpy.float16 and not self.multi_precision:
            _warn_fp16("SGD")
        if self.momentum != 0.0:
            return zeros(weight.shape, weight.context, dtype=weight.dtype, stype=weight.stype)
        return None

    def _get_lbmult(self, nup):
        nwup = self.warmup_epochs * self.updates_per_epoch
        maxmult = float(self.batch_scale)
        if nup >= nwup:
            return maxmult
        if nwup <= 1:
            return 1.0
        frac = {
            "linear": nup / nwup,
            "power2": (nup * nup) / (nwup * nwup),
            "sqrt": math.sqrt(float(nup) / nwup),
        }.get(self.warmup_strategy)
        return 1.0 if frac is None else 1.0 + (maxmult - 1) * frac

    def _l2norm(self, v):
        a = v.asnumpy()
        return (a * a).sum()

    def _get_lars(self, weight, g, wd):
        w2 = self._l2norm(weight)
        g2 = self._l2norm(g)
        lars = math.sqrt(w2 / (g2 + wd * w2 + 1e-18))
        return min(max(lars, 0.01), 100)

    def _cumulate_gradient(self, grad, index):
        cgrad = self.cumgrads.get(index, {})
        if cgrad and cgrad["num_cums"] > 0:
            cgrad = {"cum_grad": cgrad["cum_grad"] + grad, "num_cums": cgrad["num_cums"] + 1}
        else:
            cgrad = {"cum_grad": grad, "num_cums": self.init_updates + 1}
        self.cumgrads[index] = cgrad
        return cgrad

    def update(self, index, weight, grad, state):
        assert isinstance(weight, NDArray) and isinstance(grad, NDArray)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        self._update_count(index)
        cgrad = self._cumulate_gradient(grad, index)
        if cgrad["num_cums"] % self.batch_scale != 0:
            _op("sgd_update")(weight, grad, out=weight, lr=0.0, wd=wd)
            return
        grad = cgrad["cum_grad"] / self.batch_scale
        if self.warmup_strategy == "lars":
            lbmult = self._get_lars(weight, grad, wd)
        else:
            lbmult = self._get_lbmult(cgrad["num_cums"])
        kwargs = _sgd_kwargs(self, self.momentum)
        mp = isinstance(state, (list, tuple))
        _single_sgd(weight, grad, state, lr * lbmult, wd, kwargs, mp)
        self.cumgrads[index]["cum_grad"] = 0


@_public
class DCASGD(Optimizer):
    """Delay-compensated asynchronous SGD.

    Examples
    --------
    >>> opt = mx.optimizer.DCASGD(learning_rate=0.1, lamda=0.04)
    """

    def __init__(self, momentum=0.0, lamda=0.04, **kwargs):
        super().__init__(**kwargs)
        self.momentum = momentum
        self.weight_previous = {}
        self.lamda = lamda

    def create_state(self, index, weight):
        if self.momentum == 0.0:
            return (None, weight.copy())
        return (zeros(weight.shape, weight.context, dtype=weight.dtype), weight.copy())

    def update(self, index, weight, grad, state):
        assert isinstance(weight, NDArray) and isinstance(grad, NDArray)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        g = grad._t * _q(self.rescale_grad, grad._t)
        if self.clip_gradient is not None:
            c = _q(self.clip_gradient, g)
            g = torch.clamp(g, -c, c)
        mom, prev = state
        w = weight._t
        with torch.no_grad():
            # MXNet: -lr * (grad + wd * weight + lamda * grad * grad * (weight - previous))
            step = (g + _q(wd, w) * w + _q(self.lamda, g) * g * g * (w - prev._t)) * _q(-lr, w)
            if mom:  # MXNet 1.9.1 tests NDArray truth here (fails for arrays of size > 1)
                mom._t.mul_(_q(self.momentum, w)).add_(step)
                step = mom._t
            prev._t.copy_(w)
            w.add_(step)


@_public
class SGLD(Optimizer):
    """Stochastic gradient Langevin dynamics: a half SGD step plus Gaussian noise of
    variance ``lr``.

    Examples
    --------
    >>> opt = mx.optimizer.SGLD(learning_rate=0.01)
    """

    def create_state(self, index, weight):
        return None

    def update(self, index, weight, grad, state):
        assert isinstance(weight, NDArray) and isinstance(grad, NDArray)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        g = grad._t * self.rescale_grad
        if self.clip_gradient is not None:
            g = torch.clamp(g, -self.clip_gradient, self.clip_gradient)
        w = weight._t
        with torch.no_grad():
            w.add_((g + wd * w) * (-lr / 2))
            w.add_(torch.randn(w.shape, dtype=w.dtype, device=w.device) * math.sqrt(lr))
