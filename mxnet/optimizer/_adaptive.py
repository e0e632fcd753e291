"""Adaptive optimizers: Adam, AdaGrad, RMSProp, AdaDelta, Ftrl, Adamax, Nadam, FTML, LAMB."""

from __future__ import annotations

import math
import os

import numpy
import torch

from .._op._optim import _exact_sqrt, adam_inplace
from ..ndarray import NDArray, zeros
from ._rows import apply_update, check_sparse_wd, op_inplace
from ._sgd import _op, _public, _q
from .optimizer import Optimizer


def _check(weight, grad):
    assert isinstance(weight, NDArray) and isinstance(grad, NDArray)


def _zeros_like(weight, with_dtype=True, stype=False):
    kw = {"dtype": weight.dtype} if with_dtype else {}
    if stype:
        kw["stype"] = weight.stype
    return zeros(weight.shape, weight.context, **kw)


def _norm(a):
    """L2 norm of a whole array, shape (1,) like ``NDArray.norm()``."""
    t = torch.linalg.vector_norm(a._t.float()).reshape(1).to(a._t.dtype)
    return NDArray._wrap(t, a.context)


def _rescale_clip(opt, grad, weight=None, wd=0.0):
    """``rescale_grad * grad (+ wd * weight)``, clipped when ``clip_gradient`` is not None."""
    g = grad._t * _q(opt.rescale_grad, grad._t)
    if weight is not None:
        g = g + _q(wd, weight._t) * weight._t
    if opt.clip_gradient is not None:
        c = _q(opt.clip_gradient, g)
        g = torch.clamp(g, -c, c)
    return g


@_public
class Adam(Optimizer):
    """Adam (``adam_update``), with the bias corrections folded into the learning rate.

    Examples
    --------
    >>> opt = mx.optimizer.Adam(learning_rate=0.001)
    """

    _native_sparse = True

    def __init__(
        self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, lazy_update=True, **kwargs
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lazy_update = lazy_update

    def create_state(self, index, weight):
        stype = weight.stype if self.lazy_update else "default"
        return (
            zeros(weight.shape, weight.context, dtype=weight.dtype, stype=stype),
            zeros(weight.shape, weight.context, dtype=weight.dtype, stype=stype),
        )

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        lr *= math.sqrt(1.0 - self.beta2**t) / (1.0 - self.beta1**t)
        kwargs = {
            "beta1": self.beta1,
            "beta2": self.beta2,
            "epsilon": self.epsilon,
            "rescale_grad": self.rescale_grad,
        }
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        apply_update(
            weight,
            grad,
            state,
            lambda w, g, s: adam_inplace(
                w, g, s[0], s[1], lazy_update=self.lazy_update, lr=lr, wd=wd, **kwargs
            ),
            lazy=self.lazy_update,
        )


@_public
class AdaGrad(Optimizer):
    """AdaGrad: ``history += g**2; weight -= lr * (g / sqrt(history + eps) + wd * weight)``.

    Examples
    --------
    >>> opt = mx.optimizer.AdaGrad(learning_rate=0.1)
    """

    _native_sparse = True

    def __init__(self, eps=1e-7, **kwargs):
        super().__init__(**kwargs)
        self.float_stable_eps = eps

    def create_state(self, index, weight):
        return zeros(weight.shape, weight.context, stype=weight.stype)

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        check_sparse_wd("_sparse_adagrad_update", grad, wd)

        def step(w, g, s):
            g = g * self.rescale_grad
            if self.clip_gradient is not None:
                g = torch.clamp(g, -self.clip_gradient, self.clip_gradient)
            s[0].add_(g.square())
            div = g / _exact_sqrt(s[0] + self.float_stable_eps)  # sqrtf: correctly rounded
            w.add_((div + w * wd) * -lr)

        apply_update(weight, grad, [state], step, lazy=True)


@_public
class RMSProp(Optimizer):
    """RMSProp (``rmsprop_update``) or, with ``centered=True``, Graves' centered version
    (``rmspropalex_update``).

    Examples
    --------
    >>> opt = mx.optimizer.RMSProp(learning_rate=0.001, centered=True)
    """

    def __init__(
        self,
        learning_rate=0.001,
        gamma1=0.9,
        gamma2=0.9,
        epsilon=1e-8,
        centered=False,
        clip_weights=None,
        **kwargs,
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.gamma1 = gamma1
        self.gamma2 = gamma2
        self.centered = centered
        self.epsilon = epsilon
        self.clip_weights = clip_weights

    def create_state(self, index, weight):
        n = 3 if self.centered else 1
        return tuple(zeros(weight.shape, weight.context, stype=weight.stype) for _ in range(n))

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = {"gamma1": self.gamma1, "epsilon": self.epsilon, "rescale_grad": self.rescale_grad}
        if self.centered:
            kwargs["gamma2"] = self.gamma2
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        if self.clip_weights:
            kwargs["clip_weights"] = self.clip_weights
        if not self.centered:
            (n,) = state
            _op("rmsprop_update")(weight, grad, n, out=weight, lr=lr, wd=wd, **kwargs)
        else:
            n, g, delta = state
            _op("rmspropalex_update")(weight, grad, n, g, delta, out=weight, lr=lr, wd=wd, **kwargs)


@_public
class AdaDelta(Optimizer):
    """AdaDelta (no learning rate).

    Like MXNet 1.9.1, the gradient array is rescaled in place.

    Examples
    --------
    >>> opt = mx.optimizer.AdaDelta(rho=0.9)
    """

    def __init__(self, rho=0.90, epsilon=1e-5, **kwargs):
        super().__init__(**kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (zeros(weight.shape, weight.context), zeros(weight.shape, weight.context))

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        wd = self._get_wd(index)
        self._update_count(index)
        rho, eps = self.rho, self.epsilon
        with torch.no_grad():
            # in place on the caller's array (a row_sparse ``_t`` is a dense copy)
            grad *= self.rescale_grad
            g = grad._t
            if self.clip_gradient is not None:
                g = torch.clamp(g, -self.clip_gradient, self.clip_gradient)
            acc_g, acc_delta = state[0]._t, state[1]._t
            acc_g.mul_(rho).add_((1.0 - rho) * g * g)
            cur = _exact_sqrt(acc_delta + eps) / _exact_sqrt(acc_g + eps) * g
            acc_delta.mul_(rho).add_((1.0 - rho) * cur * cur)
            w = weight._t
            w.sub_(cur + wd * w)


@_public
class Ftrl(Optimizer):
    """Follow-the-regularized-leader (``ftrl_update``).

    Examples
    --------
    >>> opt = mx.optimizer.Ftrl(lamda1=0.01, learning_rate=0.1)
    """

    _native_sparse = True

    def __init__(self, lamda1=0.01, learning_rate=0.1, beta=1, **kwargs):
        super().__init__(**kwargs)
        self.lamda1 = lamda1
        self.beta = beta
        self.lr = learning_rate

    def create_state(self, index, weight):
        return (
            zeros(weight.shape, weight.context, stype=weight.stype),
            zeros(weight.shape, weight.context, stype=weight.stype),
        )

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        self._update_count(index)
        wd = self._get_wd(index)
        lr = self._get_lr(index)
        kwargs = {"lamda1": self.lamda1, "beta": self.beta, "rescale_grad": self.rescale_grad}
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        apply_update(
            weight,
            grad,
            state,
            lambda w, g, s: op_inplace("ftrl_update", w, g, s[0], s[1], lr=lr, wd=wd, **kwargs),
            lazy=weight.stype == "row_sparse",
        )


@_public
class Adamax(Optimizer):
    """AdaMax, Adam's infinity-norm variant.

    Examples
    --------
    >>> opt = mx.optimizer.Adamax(learning_rate=0.002)
    """

    def __init__(self, learning_rate=0.002, beta1=0.9, beta2=0.999, **kwargs):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        lr /= 1.0 - self.beta1**t
        g = _rescale_clip(self, grad, weight, wd)
        m, u = state[0]._t, state[1]._t
        with torch.no_grad():
            m.mul_(_q(self.beta1, m)).add_(_q(1.0 - self.beta1, g) * g)
            u.copy_(torch.maximum(_q(self.beta2, u) * u, g.abs()))
            weight._t.sub_(_q(lr, m) * m / u)


@_public
class Nadam(Optimizer):
    """Adam with Nesterov momentum and a momentum schedule.

    Examples
    --------
    >>> opt = mx.optimizer.Nadam(learning_rate=0.001)
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta1=0.9,
        beta2=0.999,
        epsilon=1e-8,
        schedule_decay=0.004,
        **kwargs,
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.schedule_decay = schedule_decay
        self.m_schedule = 1.0

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        g = _rescale_clip(self, grad, weight, wd)
        mom_t = self.beta1 * (1.0 - 0.5 * pow(0.96, t * self.schedule_decay))
        mom_t1 = self.beta1 * (1.0 - 0.5 * pow(0.96, (t + 1) * self.schedule_decay))
        self.m_schedule = self.m_schedule * mom_t
        m_schedule_next = self.m_schedule * mom_t1
        m, v = state[0]._t, state[1]._t
        with torch.no_grad():
            m.mul_(_q(self.beta1, m)).add_(_q(1.0 - self.beta1, g) * g)
            v.mul_(_q(self.beta2, v)).add_(_q(1.0 - self.beta2, g) * g * g)
            g_prime = g / _q(1.0 - self.m_schedule, g)
            m_prime = m / _q(1.0 - m_schedule_next, m)
            v_prime = v / _q(1.0 - pow(self.beta2, t), v)
            m_bar = _q(1.0 - mom_t, g) * g_prime + _q(mom_t1, m) * m_prime
            weight._t.sub_(_q(lr, m) * m_bar / (_exact_sqrt(v_prime) + _q(self.epsilon, v)))


@_public
class FTML(Optimizer):
    """Follow the moving leader (``ftml_update``).

    Examples
    --------
    >>> opt = mx.optimizer.FTML(learning_rate=0.01)
    """

    def __init__(self, beta1=0.6, beta2=0.999, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon

    def create_state(self, index, weight):
        return (_zeros_like(weight), _zeros_like(weight), _zeros_like(weight))

    def update(self, index, weight, grad, state):
        _check(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        t = self._index_update_count[index]
        kwargs = {
            "beta1": self.beta1,
            "beta2": self.beta2,
            "epsilon": self.epsilon,
            "rescale_grad": self.rescale_grad,
            "t": t,
        }
        if self.clip_gradient:
            kwargs["clip_grad"] = self.clip_gradient
        d, v, z = state
        _op("ftml_update")(weight, grad, d, v, z, out=weight, lr=lr, wd=wd, **kwargs)


@_public
class LAMB(Optimizer):
    """Layer-wise adaptive moments (``lamb_update_phase1``/``phase2``).

    Examples
    --------
    >>> opt = mx.optimizer.LAMB(learning_rate=0.001, wd=0.01)
    """

    def __init__(
        self,
        learning_rate=0.001,
        beta1=0.9,
        beta2=0.999,
        epsilon=1e-6,
        lower_bound=None,
        upper_bound=None,
        bias_correction=True,
        **kwargs,
    ):
        super().__init__(learning_rate=learning_rate, **kwargs)
        self.beta1 = beta1
        self.beta2 = beta2
        self.epsilon = epsilon
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound
        self.bias_correction = bias_correction
        self.aggregate_num = max(
            1, min(45, int(os.getenv("MXNET_OPTIMIZER_AGGREGATION_SIZE", "45")))
        )

    def create_state(self, index, weight):
        return (_zeros_like(weight, stype=True), _zeros_like(weight, stype=True))

    def _one(self, index, weight, grad, state, multi_precision, aggregated=False):
        _check(weight, grad)
        self._update_count(index)
        lr = self._get_lr(index)
        wd = self._get_wd(index)
        kwargs = {
            "beta1": self.beta1,
            "beta2": self.beta2,
            "epsilon": self.epsilon,
            "bias_correction": self.bias_correction,
            "rescale_grad": self.rescale_grad,
            "t": self._index_update_count[index],
        }
        if self.clip_gradient:
            kwargs["clip_gradient"] = self.clip_gradient
        bounds = {}
        if self.lower_bound:
            bounds["lower_bound"] = self.lower_bound
        if self.upper_bound:
            bounds["upper_bound"] = self.upper_bound
        if multi_precision:
            w32 = state[0]
            mean, var = state[1]
            g = _op("mp_lamb_update_phase1")(weight, grad, mean, var, w32, wd=wd, **kwargs)
            r1, r2 = _norm(w32), _norm(g)
            if aggregated:
                # MXNet's multi_mp_lamb_update takes |w| of the float16 weights (in float32)
                # and also moves the fp32 master weight (mp_lamb_update_phase2, the
                # one-array path, leaves it as it is)
                r1 = _norm(weight.astype(numpy.float32))
                _op("lamb_update_phase2")(w32, g, r1, r2, lr=lr, out=w32, **bounds)
                weight[:] = w32.astype(weight.dtype)
            else:
                _op("mp_lamb_update_phase2")(weight, g, r1, r2, w32, lr=lr, out=weight, **bounds)
        else:
            mean, var = state
            g = _op("lamb_update_phase1")(weight, grad, mean, var, wd=wd, **kwargs)
            r1, r2 = _norm(weight), _norm(g)
            _op("lamb_update_phase2")(weight, g, r1, r2, lr=lr, out=weight, **bounds)

    def _update_impl(self, index, weight, grad, state, multi_precision=False):
        aggregated = isinstance(index, (tuple, list))
        if not aggregated:
            index, weight, grad, state = [index], [weight], [grad], [state]
        for i, w, g, s in zip(index, weight, grad, state):
            self._one(i, w, g, s, multi_precision, aggregated)

    def update(self, index, weight, grad, state):
        self._update_impl(index, weight, grad, state, multi_precision=False)

    def update_multi_precision(self, index, weight, grad, state):
        first = weight if not isinstance(index, (tuple, list)) else weight[0]
        use_mp = self.multi_precision and first.dtype == numpy.float16
        self._update_impl(index, weight, grad, state, multi_precision=use_mp)


@_public
class Test(Optimizer):
    """The optimizer used by MXNet's own tests: ``weight += grad * rescale_grad``."""

    def create_state(self, index, weight):
        return zeros(weight.shape, weight.context)

    def update(self, index, weight, grad, state):
        with torch.no_grad():
            weight._t.add_(grad._t * _q(self.rescale_grad, grad._t))
            state._t.copy_(weight._t)
