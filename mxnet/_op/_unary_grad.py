"""Unary kernels with explicit gradients matching MXNet's values at poles and infinities
(gamma/gammaln, cbrt/rcbrt, softsign) and ``make_loss``'s ones gradient (private)."""

from __future__ import annotations

import math

import numpy as np
import torch


def _gamma_sign(x):
    # sign of Gamma(x): negative on (-2k-1, -2k) for x < 0
    neg = (x < 0) & (torch.remainder(torch.floor(x), 2) == 1)
    return torch.where(neg, -torch.ones_like(x), torch.ones_like(x))


def _psi(x):
    # digamma with MXNet's (cephes) convention: +inf at the poles 0, -1, -2, ...
    # (cephes' MAXNUM: the largest double, which overflows to inf below float64)
    pole = (x <= 0) & (x == torch.floor(x))
    big = torch.finfo(torch.float64).max if x.dtype == torch.float64 else math.inf
    return torch.where(pole, torch.full_like(x, big), torch.digamma(x))


class _GammaFn(torch.autograd.Function):
    """Gamma (``log_=False``) or log|Gamma| (``log_=True``) with MXNet's values at the poles:
    Gamma is NaN at negative integers and the gradients use ``psi`` = +inf at every pole."""

    @staticmethod
    def forward(ctx, x, log_):
        lg = torch.lgamma(x)
        if log_:
            out = lg
        else:
            out = torch.exp(lg) * _gamma_sign(x)
            neg_int = (x < 0) & (x == torch.floor(x))
            out = torch.where(neg_int, torch.full_like(out, math.nan), out)
        ctx.save_for_backward(x, out)
        ctx.log_ = log_
        return out

    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        psi = _psi(x)
        return (g * psi if ctx.log_ else g * out * psi), None


def exact_sqrt(x: torch.Tensor) -> torch.Tensor:
    """Correctly rounded square root, as MXNet's ``sqrtf``/``std::sqrt``: torch's vectorised
    CPU sqrt is 1 ulp off for ~17% of float32 inputs (and some float64 ones). NumPy's is
    exact (and faster there); under ``torch.compile`` a float64 root rounded back is used
    (exact for float32/float16). CUDA's sqrt is already correctly rounded."""
    if x.device.type != "cpu":
        return x.sqrt()
    if x.dtype in (torch.float16, torch.float32, torch.float64):
        if not torch.compiler.is_compiling():
            with np.errstate(invalid="ignore"):  # sqrt(-1) is NaN without a warning
                return torch.from_numpy(np.sqrt(x.detach().numpy()))
        if x.dtype != torch.float64:
            return x.double().sqrt().to(x.dtype)
    return x.sqrt()


def _cbrt(x):
    return torch.sign(x) * torch.abs(x).pow(1.0 / 3)


# forward and d(out)/dx (from x and out) written as MXNet's kernels do, so the values at
# 0 and +-inf match (cbrt'(0) = inf, softsign'(inf) = 0)
# MXNet's erf/erfinv derivatives use ``sqrt`` of its float PI in float precision:
# 2 / sqrtf(PI) = 1.128379133197802 and 0.5 * sqrtf(PI) = 0.8862269520759583
_SQRT_PI_F32 = float(torch.sqrt(torch.tensor(3.141592653589793, dtype=torch.float32)))

_POINTWISE = {
    "erf": (torch.erf, lambda x, y: (2.0 / _SQRT_PI_F32) * torch.exp(-(x * x))),
    "erfinv": (torch.erfinv, lambda x, y: (0.5 * _SQRT_PI_F32) * torch.exp(y * y)),
    # MXNet: sqrt' = 0.5f / out, rsqrt = 1.0f / sqrtf(x), rsqrt' = -0.5f / (sqrtf(x) * x)
    "sqrt": (exact_sqrt, lambda x, y: 0.5 / y),
    "rsqrt": (lambda x: 1.0 / exact_sqrt(x), lambda x, y: -0.5 / (exact_sqrt(x) * x)),
    "cbrt": (_cbrt, lambda x, y: 1.0 / (3.0 * y * y)),
    "rcbrt": (lambda x: 1.0 / _cbrt(x), lambda x, y: -y / (3.0 * x)),
    "softsign": (
        lambda x: x / (1 + torch.abs(x)),
        lambda x, y: 1.0 / ((1 + torch.abs(x)) * (1 + torch.abs(x))),
    ),
}


class _Pointwise(torch.autograd.Function):
    """A unary function from ``_POINTWISE`` with its explicit derivative."""

    @staticmethod
    def forward(ctx, x, name):
        y = _POINTWISE[name][0](x)
        ctx.save_for_backward(x, y)
        ctx.name = name
        return y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return g * _POINTWISE[ctx.name][1](x, y), None


class _OnesGrad(torch.autograd.Function):
    """Identity forward; backward sends ones (MXNet's ``make_loss`` gradient)."""

    ignores_head = True  # see _apply.reaches_head_ignoring

    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, g):
        return torch.ones_like(g)


class _InvSqrtQuad(torch.autograd.Function):
    """``(1 + s * x**2) ** -0.5`` (``s`` = 1: arcsinh's derivative; ``s`` = -1 with the sign
    folded: arccosh's ``(x**2 - 1) ** -0.5``), differentiated as MXNet 1.9.1's backward
    operators are: ``+x * value**3``, the opposite sign of the true second derivative."""

    @staticmethod
    def forward(ctx, x, plus_one):
        q = x * x + 1 if plus_one else x * x - 1
        out = torch.rsqrt(q)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, g):
        x, out = ctx.saved_tensors
        return g * x * out * out * out, None


class _InvHyp(torch.autograd.Function):
    """arcsinh / arccosh whose gradient is built from :class:`_InvSqrtQuad`."""

    @staticmethod
    def forward(ctx, x, plus_one):
        ctx.save_for_backward(x)
        ctx.plus_one = plus_one
        return torch.asinh(x) if plus_one else torch.acosh(x)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * _InvSqrtQuad.apply(x, ctx.plus_one), None


def asinh_mx(x: torch.Tensor) -> torch.Tensor:
    """``arcsinh`` with MXNet 1.9.1's second-order gradient."""
    return _InvHyp.apply(x, True)


def acosh_mx(x: torch.Tensor) -> torch.Tensor:
    """``arccosh`` with MXNet 1.9.1's second-order gradient."""
    return _InvHyp.apply(x, False)
