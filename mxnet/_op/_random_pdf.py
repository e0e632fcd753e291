"""Probability density / mass functions of MXNet's samplers: ``random_pdf_uniform``,
``_normal``, ``_gamma`` (beta is a rate here, as in MXNet), ``_exponential``, ``_poisson``,
``_negative_binomial``, ``_generalized_negative_binomial`` and ``_dirichlet``.

The parameters have shape ``P``; ``sample`` has shape ``P + S`` (for Dirichlet ``P + S + (k,)``
with ``alpha`` of shape ``P + (k,)``) and the output has the shape of ``sample`` (without
the last axis for Dirichlet).

Example: ``mx.nd.random_pdf_normal(x, mu, sigma, is_log=True)``
"""

from __future__ import annotations

import math

import torch

from ._params import Param
from ._registry import OpDef, register
from ._shape import fmt_shape, op_error

__all__: list[str] = []


def _expand(op: str, sample: torch.Tensor, params: tuple[torch.Tensor, ...],
            event: int = 0) -> list[torch.Tensor]:
    """Reshape each parameter so that it broadcasts against ``sample``."""
    out = []
    for p in params:
        lead = p.shape[:p.dim() - event] if event else p.shape
        n = len(lead)
        if tuple(sample.shape[:n]) != tuple(lead):
            raise op_error(op, f"sample shape {fmt_shape(sample.shape)} must start with the "
                               f"parameter shape {fmt_shape(lead)}")
        extra = sample.dim() - n - event
        shape = tuple(lead) + (1,) * extra + tuple(p.shape[p.dim() - event:])
        out.append(p.reshape(shape).to(sample.dtype))
    return out


def _lgamma(x: torch.Tensor) -> torch.Tensor:
    return torch.lgamma(x)


def _uniform(s, low, high):
    return -torch.log(high - low) + torch.zeros_like(s)


def _normal(s, mu, sigma):
    return -0.5 * ((s - mu) / sigma) ** 2 - torch.log(sigma) - 0.5 * math.log(2 * math.pi)


def _gamma(s, alpha, beta):
    return alpha * torch.log(beta) + (alpha - 1) * torch.log(s) - beta * s - _lgamma(alpha)


def _exponential(s, lam):
    return torch.log(lam) - lam * s


def _poisson(s, lam):
    return s * torch.log(lam) - lam - _lgamma(s + 1)


def _neg_binomial(s, k, p):
    return (_lgamma(s + k) - _lgamma(s + 1) - _lgamma(k) + k * torch.log(p)
            + s * torch.log1p(-p))


def _gen_neg_binomial(s, mu, alpha):
    k = 1 / alpha
    p = 1 / (1 + alpha * mu)
    return _neg_binomial(s, k, p)


_FAMILIES = {
    "uniform": (("low", "high"), _uniform),
    "normal": (("mu", "sigma"), _normal),
    "gamma": (("alpha", "beta"), _gamma),
    "exponential": (("lam",), _exponential),
    "poisson": (("lam",), _poisson),
    "negative_binomial": (("k", "p"), _neg_binomial),
    "generalized_negative_binomial": (("mu", "alpha"), _gen_neg_binomial),
}
_IS_LOG = [Param("is_log", "bool", False, doc="If set, compute the density of the log-"
                 "probability instead of the probability.")]


_DISCRETE = ("poisson", "negative_binomial", "generalized_negative_binomial")


def _make(name: str, fn):
    op = f"_random_pdf_{name}"
    discrete = name in _DISCRETE

    def compute(a: dict, sample: torch.Tensor, *params: torch.Tensor) -> torch.Tensor:
        if discrete:  # MXNet gives integer-valued samples no gradient
            sample = sample.detach()
        logp = fn(sample, *_expand(op, sample, params))
        return logp if a["is_log"] else torch.exp(logp)

    return compute


for _name, (_pnames, _fn) in _FAMILIES.items():
    register(OpDef(f"_random_pdf_{_name}", _make(_name, _fn), inputs=("sample",) + _pnames,
                   params=_IS_LOG, aliases=(f"random_pdf_{_name}",),
                   doc=f"Probability density (or mass) of ``sample`` under the {_name} "
                       f"distribution with parameters {', '.join(_pnames)}.\n\n"
                       f"Example: ``mx.nd.random_pdf_{_name}(sample, "
                       f"{', '.join(_pnames)})``"))


def _dirichlet(a: dict, sample: torch.Tensor, alpha: torch.Tensor) -> torch.Tensor:
    op = "_random_pdf_dirichlet"
    if sample.shape[-1] != alpha.shape[-1]:
        raise op_error(op, f"the last dimension of sample {fmt_shape(sample.shape)} and alpha "
                           f"{fmt_shape(alpha.shape)} must agree")
    (al,) = _expand(op, sample, (alpha,), event=1)
    logp = ((al - 1) * torch.log(sample)).sum(-1) + _lgamma(al.sum(-1)) - _lgamma(al).sum(-1)
    return logp if a["is_log"] else torch.exp(logp)


register(OpDef("_random_pdf_dirichlet", _dirichlet, inputs=("sample", "alpha"),
               params=_IS_LOG, aliases=("random_pdf_dirichlet",),
               doc="Density of ``sample`` (last axis: the k components) under the Dirichlet "
                   "distribution with concentration ``alpha``.\n\n"
                   "Example: ``mx.nd.random_pdf_dirichlet(sample, alpha)``"))
