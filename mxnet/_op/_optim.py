"""Fused optimizer update operators (``sgd_update``, ``adam_update``...).

MXNet's update operators return the new weight (written to ``out``, usually the weight
itself) and update their state inputs (momentum, mean, var, fp32 master weights...) in
place. Each kernel here does the same on torch tensors: states are mutated, the new weight
is returned. Scalars are rounded to float32 first, as MXNet's float parameters are.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ._params import Param
from ._registry import OpDef, get_op, register
from ._unary_grad import exact_sqrt

_f32 = np.float32


def get_op_attrs(name: str, params: dict) -> dict:
    """Parsed (cached) attrs of operator ``name`` for keyword ``params``."""
    return get_op(name).parse_attrs(params)


_S_CACHE: dict = {}


def _s(x) -> float:
    """A scalar rounded to float32 (MXNet's ``float`` parameters); Python numbers are
    memoized (the optimizers round the same few hyper-parameters at every update)."""
    if x and (type(x) is float or type(x) is int):  # (0.0 and -0.0 share a dict key)
        r = _S_CACHE.get(x)
        if r is None:
            if len(_S_CACHE) > 4096:  # (learning-rate schedules make new values)
                _S_CACHE.clear()
            r = _S_CACHE[x] = float(_f32(x))
        return r
    return float(_f32(x))


def _clip(g: torch.Tensor, bound: float) -> torch.Tensor:
    if bound >= 0:
        return torch.clamp(g, -bound, bound)
    return g


_exact_sqrt = exact_sqrt  # MXNet's sqrtf: correctly rounded (see _unary_grad)
_NP_SQRT = (torch.float16, torch.float32, torch.float64)


def _rescaled(a: dict, g: torch.Tensor, clip_key: str = "clip_gradient") -> torch.Tensor:
    return _clip(g * _s(a["rescale_grad"]), _s(a[clip_key]))


def _same(attrs, shapes):
    known = next((s for s in shapes if s is not None), None)
    return [known if s is None else s for s in shapes]


# -- common parameter lists -----------------------------------------------------------
def _common(*, lr=True, momentum=False, lazy=False):
    ps = []
    if lr:
        ps.append(Param("lr", "float", doc="Learning rate"))
    if momentum:
        ps.append(Param("momentum", "float", 0.0, doc="The decay rate of momentum estimates"))
    ps += [
        Param("wd", "float", 0.0, doc="Weight decay"),
        Param("rescale_grad", "float", 1.0, doc="Rescale gradient to grad = rescale_grad*grad."),
        Param(
            "clip_gradient",
            "float",
            -1.0,
            doc="Clip gradient to [-clip_gradient, clip_gradient]; < 0 disables clipping",
        ),
    ]
    if lazy:
        ps.append(
            Param(
                "lazy_update",
                "bool",
                True,
                doc="If true, lazy updates are applied for row_sparse gradients.",
            )
        )
    return ps


# -- SGD family ------------------------------------------------------------------------
def _prep(a, g, w=None, wd=0.0, clip_key="clip_gradient"):
    """``clip(rescale_grad * g (+ wd * w))``; returns ``g`` itself when nothing applies."""
    r = _s(a["rescale_grad"])
    if r != 1.0:
        g = g * r
    if w is not None and wd != 0.0:
        g = g + w * _s(wd)
    return _clip(g, _s(a[clip_key]))


def _h(x) -> float:
    """A scalar rounded to float16 (MXNet's kernels cast their parameters to ``half_t``)."""
    return float(np.float16(x))


def _half_sgd(a, w, g, mom, lr, wd, momentum, multi=False):
    """SGD (with momentum when ``mom`` is given) on float16 tensors, as MXNet's ``half_t``
    kernels compute it: the parameters are cast to float16 and every product and sum is
    rounded to float16. ``multi_sgd_update`` writes the no-momentum step as
    ``w + (0 - lr * wd * w - lr * g)``, ``sgd_update`` as ``(1 - lr * wd) * w - lr * g``.
    ``multi="preloaded"``: the learning rates and weight decays come as float32 arrays, so
    they (and ``lr * wd``) stay float32."""
    rg_, clip = _h(a["rescale_grad"]), _s(a["clip_gradient"])
    if multi == "preloaded":
        lr_ = _s(lr)
        lw = _s(_f32(lr) * _f32(wd))
    else:
        lr_ = _h(lr)
        lw = _h(_f32(lr_) * _f32(_h(wd)))
    if clip >= 0:
        c = _h(clip)
        gterm = torch.clamp(g * rg_, -c, c) * lr_
    else:
        gterm = g * _h(_f32(lr_) * _f32(rg_))
    if mom is None and not multi:
        return w * _h(1.0 - lw) - gterm
    m = mom * _h(momentum) if mom is not None else torch.zeros_like(w)
    new_mom = (m - w * lw) - gterm
    if mom is not None:
        mom.copy_(new_mom)
    return w + new_mom


def _sgd_gterm(a, g, lr):
    """MXNet's gradient term of the SGD kernels: ``(lr * rescale_grad) * g``, or
    ``lr * clip(rescale_grad * g)`` when clipping (every product rounded)."""
    clip = _s(a["clip_gradient"])
    if clip >= 0:
        return _clip(g * _s(a["rescale_grad"]), clip).mul_(_s(lr))
    return g * _s(_f32(lr) * _f32(a["rescale_grad"]))


def _sgd_step(a, w, g, lr, wd, out=None, multi=False):
    if w.dtype == torch.float16:
        new = _half_sgd(a, w, g, None, lr, wd, 0.0, multi)
        return new if out is None else out.copy_(new)
    gt = _sgd_gterm(a, g, lr)
    if multi:
        # multi_sgd_update: w + ((0 - lr * wd * w) - gterm) == w - (lr * wd * w + gterm)
        lw = _s(_f32(lr) * _f32(wd))
        step = (w * lw).add_(gt) if lw != 0.0 else gt
        return w - step if out is None else out.sub_(step)
    f = _s(1 - _f32(lr) * _f32(wd))
    if out is None:
        return w * f - gt
    if f != 1.0:
        out.mul_(f)
    return out.sub_(gt)


def _sgd_mom_step(a, w, g, mom, lr, wd, momentum, out=None, multi=False):
    if w.dtype == torch.float16:
        new = _half_sgd(a, w, g, mom, lr, wd, momentum, multi)
        return new if out is None else out.copy_(new)
    # momentum * mom - (lr * wd) * w - gterm, every product rounded as in MXNet's kernels
    # (torch's ``sub_(alpha=)`` would fuse them: last-bit differences in ~6% of elements)
    gt = _sgd_gterm(a, g, lr)
    mom.mul_(_s(momentum))
    if wd != 0.0:
        mom.sub_(w * _s(_f32(lr) * _f32(wd)))
    mom.sub_(gt)
    if out is None:
        return w + mom
    return out.add_(mom)


def _half_nag(a, w, g, mom, lr, wd, momentum, aliased):
    """NAG on float16 tensors as MXNet's ``half_t`` kernel computes it (parameters cast to
    float16, every intermediate rounded)."""
    lr_, wd_, m = _h(lr), _h(wd), _h(momentum)
    cg = g * _h(a["rescale_grad"])
    clip = _s(a["clip_gradient"])
    if clip >= 0:
        cg = torch.clamp(cg, -_h(clip), _h(clip))
    m1 = mom * m
    new_w = (w - m1) + (m1 - (cg + w * wd_) * lr_) * _h(m + 1.0)
    w_seen = new_w if aliased else w  # the momentum reads the weight after it was written
    mom.copy_(m1 - (cg + w_seen * wd_) * lr_)
    return new_w


def _nag_step(a, w, g, mom, lr, wd, momentum, aliased=False, out=None):
    """NAG step. MXNet's kernel writes the weight before the momentum, so when the output
    is the weight itself (``aliased``: always for the fp32 master copy of ``mp_``) the
    momentum sees the new weight."""
    if w.dtype == mom.dtype == torch.float16:
        new = _half_nag(a, w, g, mom, lr, wd, momentum, aliased)
        return new if out is None else out.copy_(new)
    lr, wd, m = _s(lr), _s(wd), _s(momentum)
    cg = _prep(a, g)  # clipping comes before weight decay here

    def step_for(weight):  # lr * (clip(rescale * g) + wd * w)
        return (cg + weight * wd if wd != 0.0 else cg) * lr

    # MXNet's kernel form, each product rounded:
    # mom1 = momentum * mom; w' = (w - mom1) + (momentum + 1) * (mom1 - step); mom = mom1 - step
    step = step_for(w)
    m1 = mom * m
    new_w = (w - m1) + (m1 - step) * _s(_f32(m) + _f32(1))
    if aliased and wd != 0.0:
        step = step_for(new_w)  # the momentum reads the weight after it was written
    mom.copy_(m1 - step)
    return new_w if out is None else out.copy_(new_w)


def nag_inplace(weight, grad, mom, lr, wd, momentum, rescale_grad=1.0, clip_gradient=-1.0):
    """``nag_mom_update(weight, grad, mom, out=weight, ...)`` on torch tensors."""
    a = {"rescale_grad": rescale_grad, "clip_gradient": clip_gradient}
    _nag_step(a, weight, grad, mom, lr, wd, momentum, aliased=True, out=weight)


def sgd_inplace(
    weight, grad, mom, lr, wd, momentum, rescale_grad=1.0, clip_gradient=-1.0, multi=False
):
    """``sgd_update``/``sgd_mom_update`` (``multi``: ``multi_sgd[_mom]_update``) with
    ``out=weight`` on torch tensors."""
    a = {"rescale_grad": rescale_grad, "clip_gradient": clip_gradient}
    if mom is None:
        _sgd_step(a, weight, grad, lr, wd, out=weight, multi=multi)
    else:
        _sgd_mom_step(a, weight, grad, mom, lr, wd, momentum, out=weight, multi=multi)


def _sgd(a, w, g):
    return _sgd_step(a, w, g, a["lr"], a["wd"])


def _sgd_mom(a, w, g, mom):
    return _sgd_mom_step(a, w, g, mom, a["lr"], a["wd"], a["momentum"])


def _mp_sgd(a, w, g, w32):
    w32.copy_(_sgd_step(a, w32, g.float(), a["lr"], a["wd"]))
    return w32.to(w.dtype)


def _mp_sgd_mom(a, w, g, mom, w32):
    w32.copy_(_sgd_mom_step(a, w32, g.float(), mom, a["lr"], a["wd"], a["momentum"]))
    return w32.to(w.dtype)


def _nag(a, w, g, mom):
    return _nag_step(a, w, g, mom, a["lr"], a["wd"], a["momentum"])


def _mp_nag(a, w, g, mom, w32):
    w32.copy_(_nag_step(a, w32, g.float(), mom, a["lr"], a["wd"], a["momentum"], True))
    return w32.to(w.dtype)


_UPD = "Update function for the {} optimizer: returns the new weight, updates states in place."

for _name, _fn, _ins, _mom, _lazy in (
    ("sgd_update", _sgd, ("weight", "grad"), False, True),
    ("sgd_mom_update", _sgd_mom, ("weight", "grad", "mom"), True, True),
    ("mp_sgd_update", _mp_sgd, ("weight", "grad", "weight32"), False, True),
    ("mp_sgd_mom_update", _mp_sgd_mom, ("weight", "grad", "mom", "weight32"), True, True),
    ("nag_mom_update", _nag, ("weight", "grad", "mom"), True, False),
    ("mp_nag_mom_update", _mp_nag, ("weight", "grad", "mom", "weight32"), True, False),
):
    register(
        OpDef(
            _name,
            _fn,
            params=_common(momentum=_mom, lazy=_lazy),
            inputs=_ins,
            infer_shape=_same,
            doc=_UPD.format(_name.replace("_update", "")),
        )
    )


# -- sign SGD ----------------------------------------------------------------------------
def _half_signum(a, w, g, mom):
    """signsgd_update / signum_update on float16 tensors as MXNet's ``half_t`` kernels:
    parameters cast to float16, every intermediate rounded."""
    lr, wd = _h(a["lr"]), _h(a["wd"])
    if mom is None:
        return w * _h(1.0 - _h(_f32(lr) * _f32(wd))) - torch.sign(g) * lr
    m, rg = _h(a["momentum"]), _h(a["rescale_grad"])
    one_m = _h(1.0 - m)
    clip = _s(a["clip_gradient"])
    if clip >= 0:
        gterm = torch.clamp(g * rg, -_h(clip), _h(clip)) * one_m
    else:
        gterm = g * _h(_f32(one_m) * _f32(rg))
    mom.copy_((mom * m - w * _h(_f32(one_m) * _f32(wd))) - gterm)
    keep = _h(1.0 - _h(_f32(lr) * _f32(_h(a["wd_lh"]))))
    return w * keep + torch.sign(mom) * lr


def _signsgd(a, w, g):
    if w.dtype == torch.float16:
        return _half_signum(a, w, g, None)
    g = _rescaled(a, g)
    return w * _s(1 - _f32(a["lr"]) * _f32(a["wd"])) - torch.sign(g) * _s(a["lr"])


def _signum(a, w, g, mom):
    if w.dtype == mom.dtype == torch.float16:
        return _half_signum(a, w, g, mom)
    g = _rescaled(a, g)
    m = _s(a["momentum"])
    mom.mul_(m).sub_(w * _s((1 - _f32(m)) * _f32(a["wd"]))).sub_(g * _s(1 - _f32(m)))
    return w * _s(1 - _f32(a["lr"]) * _f32(a["wd_lh"])) + torch.sign(mom) * _s(a["lr"])


register(
    OpDef(
        "signsgd_update",
        _signsgd,
        params=_common(),
        inputs=("weight", "grad"),
        infer_shape=_same,
        doc=_UPD.format("SignSGD"),
    )
)
register(
    OpDef(
        "signum_update",
        _signum,
        params=_common(momentum=True)
        + [Param("wd_lh", "float", 0.0, doc="Decoupled weight decay")],
        inputs=("weight", "grad", "mom"),
        infer_shape=_same,
        doc=_UPD.format("Signum"),
    )
)


# -- Adam / AdamW ------------------------------------------------------------------------
def _half_adam(a, w, g, mean, var):
    """Adam on float16 tensors as MXNet's ``half_t`` kernel computes it (parameters cast to
    float16, every intermediate rounded; an epsilon below float16's range becomes 0)."""
    b1, b2 = _h(a["beta1"]), _h(a["beta2"])
    gr = g * _h(a["rescale_grad"]) + w * _h(a["wd"])
    clip = _s(a["clip_gradient"])
    if clip >= 0:
        gr = torch.clamp(gr, -_h(clip), _h(clip))
    mean.copy_(mean * b1 + gr * _h(1.0 - b1))
    var.copy_(var * b2 + (gr * _h(1.0 - b2)) * gr)
    return w - (mean * _h(a["lr"])) / (var.sqrt() + _h(a["epsilon"]))


_NP_ADAM = (torch.float32, torch.float64)


def _adam_numpy(a, w, g, mean, var, out=None):
    """:func:`_adam_core` on CPU float32/float64 tensors through NumPy views: the same
    separately rounded products and sums (no FMA), at a fraction of torch's per-call cost on
    the small parameters of RNN/MLP models. ``mean``/``var`` are updated in place; the weight
    through torch (``out.sub_``), so its version counter moves as before."""
    gn = g.detach().numpy()
    r = _s(a["rescale_grad"])
    if r != 1.0:
        gn = gn * r
    wd = a["wd"]
    if wd != 0.0:
        gn = gn + w.detach().numpy() * _s(wd)
    bound = _s(a["clip_gradient"])
    if bound >= 0:
        gn = np.minimum(np.maximum(gn, -bound), bound)  # torch.clamp (NaN stays NaN)
    b1, b2 = _s(a["beta1"]), _s(a["beta2"])
    m = mean.detach().numpy()
    v = var.detach().numpy()
    m *= b1
    m += gn * _s(1 - _f32(b1))
    t = gn * _s(1 - _f32(b2))
    t *= gn  # (1 - beta2) * g * g
    v *= b2
    v += t
    with np.errstate(invalid="ignore"):
        denom = np.sqrt(v)  # correctly rounded, as MXNet's sqrtf
    denom += _s(a["epsilon"])
    step = m * _s(a["lr"])
    step /= denom  # lr * mean / (sqrt(var) + epsilon)
    st = torch.from_numpy(step)
    if out is None:
        return w - st
    return out.sub_(st)


def _adam_core(a, w, g, mean, var, out=None):
    if (
        w.dtype in _NP_ADAM
        and w.dtype == g.dtype == mean.dtype == var.dtype
        and w.device.type == g.device.type == mean.device.type == var.device.type == "cpu"
        and (out is None or out.dtype == w.dtype)
        and not torch.compiler.is_compiling()
    ):
        return _adam_numpy(a, w, g, mean, var, out)
    if w.dtype == mean.dtype == var.dtype == torch.float16:
        new = _half_adam(a, w, g, mean, var)
        return new if out is None else out.copy_(new)
    g = _prep(a, g, w, a["wd"])
    b1, b2 = _s(a["beta1"]), _s(a["beta2"])
    # MXNet's kernel rounds every product: torch's ``add_(alpha=)``/``addcmul_``/``addcdiv_``
    # fuse them (FMA) and differ from it in the last bit for ~10% of the elements
    mean.mul_(b1).add_(g * _s(1 - _f32(b1)))
    var.mul_(b2).add_(torch.mul(g, _s(1 - _f32(b2))).mul_(g))  # (1 - beta2) * g * g
    denom = _exact_sqrt(var).add_(_s(a["epsilon"]))
    step = torch.mul(mean, _s(a["lr"])).div_(denom)  # lr * mean / (sqrt(var) + epsilon)
    if out is None:
        return w - step
    return out.sub_(step)


def _adam(a, w, g, mean, var):
    return _adam_core(a, w, g, mean, var)


def adam_inplace(weight, grad, mean, var, **params):
    """``adam_update(weight, grad, mean, var, out=weight, **params)`` on torch tensors."""
    a = get_op_attrs("adam_update", params)
    _adam_core(a, weight, grad, mean, var, out=weight)


_ADAM_P = [
    Param("lr", "float", doc="Learning rate"),
    Param("beta1", "float", 0.9, doc="The decay rate for the 1st moment estimates."),
    Param("beta2", "float", 0.999, doc="The decay rate for the 2nd moment estimates."),
    Param("epsilon", "float", 1e-8, doc="A small constant for numerical stability."),
]
register(
    OpDef(
        "adam_update",
        _adam,
        params=_ADAM_P + _common(lr=False, lazy=True),
        inputs=("weight", "grad", "mean", "var"),
        infer_shape=_same,
        doc=_UPD.format("Adam"),
    )
)


def _adamw_core(a, w, g, mean, var, scale, write_grad=False):
    s = float(scale.reshape(-1)[0]) if scale.device.type != "meta" else 1.0
    if not math.isfinite(s) or s == 0:
        return w.clone()
    grad = g
    g = _clip(g * _s(s), _s(a["clip_gradient"]))
    if write_grad:
        grad.copy_(g)
    b1, b2 = _s(a["beta1"]), _s(a["beta2"])
    mean.mul_(b1).add_(g * _s(1 - _f32(b1)))
    var.mul_(b2).add_(g.square() * _s(1 - _f32(b2)))
    step = mean * _s(a["lr"]) / (_exact_sqrt(var) + _s(a["epsilon"])) + w * _s(a["wd"])
    return w - step * _s(a["eta"])


def _adamw(a, w, g, mean, var, scale):
    # like MXNet 1.9.1, the fp32 kernel leaves the rescaled, clipped gradient in ``grad``
    return _adamw_core(a, w, g, mean, var, scale, write_grad=True)


def _mp_adamw(a, w, g, mean, var, w32, scale):
    w32.copy_(_adamw_core(a, w32, g.float(), mean, var, scale))
    return w32.to(w.dtype)


_ADAMW_P = _ADAM_P + [
    Param("wd", "float", 0.0, doc="Weight decay"),
    Param("eta", "float", doc="Learning rate schedule multiplier"),
    Param("clip_gradient", "float", -1.0, doc="Clip gradient; < 0 disables"),
]
register(
    OpDef(
        "_adamw_update",
        _adamw,
        params=_ADAMW_P,
        inputs=("weight", "grad", "mean", "var", "rescale_grad"),
        infer_shape=lambda a, s: s,
        doc=_UPD.format("AdamW") + " The update is skipped when rescale_grad is 0/inf/nan.",
    )
)
register(
    OpDef(
        "_mp_adamw_update",
        _mp_adamw,
        params=_ADAMW_P,
        inputs=("weight", "grad", "mean", "var", "weight32", "rescale_grad"),
        infer_shape=lambda a, s: s,
        doc=_UPD.format("AdamW (fp32 master weights)"),
    )
)


# -- RMSProp -----------------------------------------------------------------------------
def _clip_w(a, w):
    return _clip(w, _s(a["clip_weights"]))


def _rmsprop(a, w, g, n):
    g = _clip(g * _s(a["rescale_grad"]) + w * _s(a["wd"]), _s(a["clip_gradient"]))
    g1 = _s(a["gamma1"])
    n.mul_(g1).add_(g.square() * _s(1 - _f32(g1)))  # (1 - gamma1) * (g * g)
    return _clip_w(a, w - (g / _exact_sqrt(n + _s(a["epsilon"]))) * _s(a["lr"]))


def _rmspropalex(a, w, g, n, gm, delta):
    g = _clip(g * _s(a["rescale_grad"]) + w * _s(a["wd"]), _s(a["clip_gradient"]))
    g1, g2 = _s(a["gamma1"]), _s(a["gamma2"])
    n.mul_(g1).add_(g * _s(1 - _f32(g1)) * g)  # (1 - gamma1) * g * g, left to right
    gm.mul_(g1).add_(g * _s(1 - _f32(g1)))
    delta.mul_(g2).sub_(g * _s(a["lr"]) / _exact_sqrt(n - gm.square() + _s(a["epsilon"])))
    return _clip_w(a, w + delta)


_CW = Param("clip_weights", "float", -1.0, doc="Clip weights to [-clip_weights, clip_weights]")
register(
    OpDef(
        "rmsprop_update",
        _rmsprop,
        params=[
            Param("lr", "float", doc="Learning rate"),
            Param("gamma1", "float", 0.95, doc="The decay rate of momentum estimates."),
            Param("epsilon", "float", 1e-8, doc="A small constant for stability."),
        ]
        + _common(lr=False)
        + [_CW],
        inputs=("weight", "grad", "n"),
        infer_shape=_same,
        doc=_UPD.format("RMSProp"),
    )
)
register(
    OpDef(
        "rmspropalex_update",
        _rmspropalex,
        params=[
            Param("lr", "float", doc="Learning rate"),
            Param("gamma1", "float", 0.95, doc="Decay rate."),
            Param("gamma2", "float", 0.9, doc="Decay rate."),
            Param("epsilon", "float", 1e-8, doc="A small constant for stability."),
        ]
        + _common(lr=False)
        + [_CW],
        inputs=("weight", "grad", "n", "g", "delta"),
        infer_shape=_same,
        doc=_UPD.format("RMSPropAlex (centered RMSProp)"),
    )
)


# -- Ftrl / FTML -------------------------------------------------------------------------
def _ftrl(a, w, g, z, n):
    g = _rescaled(a, g)
    lr = _s(a["lr"])
    z.add_(g - (_exact_sqrt(n + g.square()) - _exact_sqrt(n)) * w / lr)
    n.add_(g.square())
    l1 = _s(a["lamda1"])
    num = torch.sign(z) * l1 - z
    den = (_exact_sqrt(n) + _s(a["beta"])) / lr + _s(a["wd"])
    return num / den * (z.abs() > l1).to(w.dtype)


register(
    OpDef(
        "ftrl_update",
        _ftrl,
        params=[
            Param("lr", "float", doc="Learning rate"),
            Param("lamda1", "float", 0.01, doc="The L1 regularization coefficient."),
            Param("beta", "float", 1.0, doc="Per-Coordinate Learning Rate beta."),
        ]
        + _common(lr=False),
        inputs=("weight", "grad", "z", "n"),
        infer_shape=_same,
        doc=_UPD.format("Ftrl"),
    )
)


def _ftml(a, w, g, d, v, z):
    g = _clip(g * _s(a["rescale_grad"]) + w * _s(a["wd"]), _s(a["clip_grad"]))
    b1, b2, t = _f32(a["beta1"]), _f32(a["beta2"]), a["t"]
    v.mul_(float(b2)).add_(g.square() * float(_f32(1) - b2))
    # MXNet evaluates the bias corrections in double precision (std::pow promotes)
    c1 = (1.0 - float(b1) ** t) / _s(a["lr"])
    c2 = 1.0 - float(b2) ** t
    d_t = (((v.double() / c2).sqrt() + a["epsilon"]) * c1).to(w.dtype)
    sigma = d_t - d * float(b1)
    z.mul_(float(b1)).add_(g * float(_f32(1) - b1)).sub_(sigma * w)
    d.copy_(d_t)
    return -z / d_t


register(
    OpDef(
        "ftml_update",
        _ftml,
        params=[
            Param("lr", "float", doc="Learning rate"),
            Param("beta1", "float", 0.6, doc="Generally close to 0.5."),
            Param("beta2", "float", 0.999, doc="Generally close to 1."),
            Param("epsilon", "float", 1e-8, doc="Epsilon to prevent div 0."),
            Param("t", "int", doc="Number of update."),
            Param("wd", "float", 0.0, doc="Weight decay"),
            Param("rescale_grad", "float", 1.0, doc="Rescale gradient."),
            Param("clip_grad", "float", -1.0, doc="Clip gradient; < 0 disables"),
        ],
        inputs=("weight", "grad", "d", "v", "z"),
        infer_shape=_same,
        doc=_UPD.format("FTML"),
    )
)


# -- LAMB --------------------------------------------------------------------------------
def _lamb1_core(a, w, g, mean, var):
    # MXNet's lamb_update_phase1 kernel in its own order of operations
    g = _rescaled(a, g)
    b1, b2 = _s(a["beta1"]), _s(a["beta2"])
    mean.mul_(b1).add_(g * _s(1 - _f32(b1)))
    var.mul_(b2).add_(g * _s(1 - _f32(b2)) * g)  # (1 - beta2) * g * g, left to right
    eps = _s(a["epsilon"])
    if a["bias_correction"]:
        t = int(a["t"])
        # beta^t: std::pow(float, int) runs in double and is stored as float; the kernel
        # divides the mean by ``1. - beta1_t`` (a double literal) but the variance by
        # ``1 - beta2_t`` in float
        b1t = float(_f32(b1**t))
        b2t = float(_f32(b2**t))
        m_hat = (mean.double() / (1.0 - b1t)).to(mean.dtype)
        v_hat = var / float(_f32(1) - _f32(b2t))
        return m_hat / (_exact_sqrt(v_hat) + eps) + w * _s(a["wd"])
    return mean / (_exact_sqrt(var) + eps) + w * _s(a["wd"])


def _lamb2_core(a, w, g, r1, r2, grouped=False):
    r1 = r1.reshape(-1)[0].float()
    r2 = r2.reshape(-1)[0].float()
    lo, hi = _s(a["lower_bound"]), _s(a["upper_bound"])
    if lo >= 0:
        r1 = torch.clamp(r1, min=lo)
    if hi >= 0:
        r1 = torch.clamp(r1, max=hi)
    lr = torch.tensor(_s(a["lr"]), dtype=torch.float32, device=w.device)
    # lamb_update_phase2 scales as (lr * r1) / r2; the multi-tensor kernel as lr * (r1 / r2)
    scaled = lr * (r1 / r2) if grouped else (lr * r1) / r2
    ratio = torch.where((r1 == 0) | (r2 == 0), lr, scaled)
    return w - g * ratio.to(w.dtype)


def _lamb1(a, w, g, mean, var):
    return _lamb1_core(a, w, g, mean, var)


def _mp_lamb1(a, w, g, mean, var, w32):
    return _lamb1_core(a, w32, g.float(), mean, var)


def _lamb2(a, w, g, r1, r2):
    return _lamb2_core(a, w, g, r1, r2)


def _mp_lamb2(a, w, g, r1, r2, w32):
    # MXNet 1.9.1 returns the updated master weights cast down but leaves ``weight32`` as is
    return _lamb2_core(a, w32, g, r1, r2).to(w.dtype)


_LAMB1_P = [
    Param("beta1", "float", 0.9, doc="The decay rate for the 1st moment estimates."),
    Param("beta2", "float", 0.999, doc="The decay rate for the 2nd moment estimates."),
    Param("epsilon", "float", 1e-6, doc="A small constant for numerical stability."),
    Param("t", "int", doc="Index update count."),
    Param("bias_correction", "bool", True, doc="Whether to use bias correction."),
    Param("wd", "float", doc="Weight decay"),
    Param("rescale_grad", "float", 1.0, doc="Rescale gradient."),
    Param("clip_gradient", "float", -1.0, doc="Clip gradient; < 0 disables"),
]
_LAMB2_P = [
    Param("lr", "float", doc="Learning rate"),
    Param("lower_bound", "float", -1.0, doc="Lower limit of norm of weight; < 0: none"),
    Param("upper_bound", "float", -1.0, doc="Upper limit of norm of weight; < 0: none"),
]
register(
    OpDef(
        "lamb_update_phase1",
        _lamb1,
        params=_LAMB1_P,
        inputs=("weight", "grad", "mean", "var"),
        infer_shape=_same,
        doc="Phase I of the LAMB update: returns the update direction g.",
    )
)
register(
    OpDef(
        "mp_lamb_update_phase1",
        _mp_lamb1,
        params=_LAMB1_P,
        inputs=("weight", "grad", "mean", "var", "weight32"),
        infer_shape=_same,
        doc="Phase I of the LAMB update with fp32 master weights.",
    )
)
register(
    OpDef(
        "lamb_update_phase2",
        _lamb2,
        params=_LAMB2_P,
        inputs=("weight", "g", "r1", "r2"),
        infer_shape=lambda a, s: s,
        doc="Phase II of the LAMB update: weight -= lr * (r1/r2) * g.",
    )
)
register(
    OpDef(
        "mp_lamb_update_phase2",
        _mp_lamb2,
        params=_LAMB2_P,
        inputs=("weight", "g", "r1", "r2", "weight32"),
        infer_shape=lambda a, s: s,
        doc="Phase II of the LAMB update with fp32 master weights.",
    )
)


def _row_mean_sq(g: torch.Tensor) -> torch.Tensor:
    """Per-row mean of squares as MXNet's group AdaGrad kernel forms it: the squares summed
    one after another in the array's dtype, then divided by the row length; ``(rows, 1)``."""
    g2 = g.reshape(g.shape[0], -1)
    if g2.device.type == "cpu" and g2.dtype in _NP_SQRT and g2.shape[1] > 0:
        x = g2.detach().numpy()
        ssq = np.add.accumulate(x * x, axis=1, dtype=x.dtype)[:, -1:]
        return torch.from_numpy(ssq / x.dtype.type(g2.shape[1]))
    return g2.square().mean(dim=1, keepdim=True)


def _group_adagrad(a, w, g, history):
    g = _rescaled(a, g)
    history.add_(_row_mean_sq(g).reshape(history.shape))
    return w - g * _s(a["lr"]) / _exact_sqrt(history + _s(a["epsilon"]))  # (lr * g) / sqrt


register(
    OpDef(
        "_contrib_group_adagrad_update",
        _group_adagrad,
        params=[
            Param("lr", "float", doc="Learning rate"),
            Param("rescale_grad", "float", 1.0, doc="Rescale gradient."),
            Param("clip_gradient", "float", -1.0, doc="Clip gradient; < 0 disables"),
            Param("epsilon", "float", 1e-5, doc="Epsilon for numerical stability"),
        ],
        inputs=("weight", "grad", "history"),
        infer_shape=lambda a, s: s,
        doc=_UPD.format("Group AdaGrad") + " One history value per row.",
    )
)

from . import _optim_multi  # noqa: E402,F401  (multi-tensor forms)

__all__: list[str] = []
