"""NumPy-interface (``mx.np.random`` / ``npx.random``) samplers: ``_npi_uniform``,
``_npi_normal``, ``_npi_gamma``, ``_npi_logistic``, ``_npi_gumbel``, ``_npi_exponential``,
``_npi_weibull``, ``_npi_pareto``, ``_npi_powerd``, ``_npi_rayleigh``, ``_npi_bernoulli``,
``_npi_uniform_n``, ``_npi_normal_n``, ``_npi_choice``, ``_npi_multinomial``,
``_npi_random_randint``, ``_npi_shuffle`` and ``_npi_mvn_fallback``.

A distribution parameter is either a scalar attribute or, when that attribute is None, an
input array (``input1``, ``input2`` in parameter order), as in MXNet 1.9.1. The output shape
is ``size`` (parameters broadcast to it) or the broadcast parameter shape; the ``_n``
variants prepend ``size`` (their ``batch_shape``) to it. Samples come from torch's
generators, seeded by :func:`mxnet.random.seed`. Gradients follow MXNet: pathwise for
normal, logistic, gumbel, exponential, weibull, pareto and rayleigh parameters; zero for
uniform, gamma and power. Invalid parameters fail when the result is read, with
``ValueError`` as in MXNet.
"""

from __future__ import annotations

import math

import torch

from .._deferred import DeferredOpError
from .._dtype import to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []

_F64 = torch.float64


def _device(attrs, tensors) -> torch.device:
    if tensors:
        return tensors[0].device
    ctx = attrs.get("ctx")
    if ctx is None:
        from ..context import current_context

        ctx = current_context()
    return ctx.torch_device


def _params(attrs, names, tensors, dev):
    """Each distribution parameter as a float64 tensor (inputs in order for None attrs)."""
    it = iter(tensors)
    out = []
    for n in names:
        v = attrs[n]
        if v is None:
            try:
                out.append(next(it).to(_F64))
            except StopIteration:
                raise MXNetError(f"parameter {n} is None but no input array gives it") from None
        else:
            out.append(torch.tensor(float(v), dtype=_F64, device=dev))
    return out


def _out_shape(op: str, attrs, params, batch: bool) -> tuple:
    try:
        shape = tuple(torch.broadcast_shapes(*[p.shape for p in params]))
    except RuntimeError:
        raise MXNetError(f"Operator {op}: parameter shapes "
                         f"{[tuple(p.shape) for p in params]} do not broadcast") from None
    size = attrs["size"]
    if size is None:
        return shape
    size = tuple(size)
    if batch:
        return size + shape
    try:
        if torch.broadcast_shapes(size, shape) != size:
            raise RuntimeError
    except RuntimeError:
        raise MXNetError(f"Operator {op}: parameter shape {shape} cannot be broadcast to size "
                         f"{size}") from None
    return size


def _zero_grad(res: torch.Tensor, srcs) -> torch.Tensor:
    """``res`` without gradient paths, still attached (with zero gradient) to ``srcs``."""
    res = res.detach()
    for s in srcs:
        if s.requires_grad:
            res = res + (s.reshape(-1)[:1] * 0).sum().to(res.dtype)
    return res


# (param name, kind of check, message): 'pos' > 0, 'nonneg' >= 0, 'prob' in [0, 1]
_CHECKS = {
    "normal": [("scale", "nonneg", "scale < 0")],
    "logistic": [("scale", "nonneg", "scale < 0")],
    "gumbel": [("scale", "nonneg", "scale < 0")],
    "gamma": [("shape", "pos", "expect shape > 0"), ("scale", "pos", "expect scale > 0")],
    "exponential": [("scale", "nonneg", "expect scale >= 0")],
    "rayleigh": [("scale", "nonneg", "expect scale >= 0")],
    "weibull": [("a", "pos", "expect a > 0")],
    "pareto": [("a", "pos", "expect a > 0")],
    "powerd": [("a", "pos", "expect a > 0")],
}


def _check_params(op: str, dist: str, attrs, names, params, shape, dt, dev) -> None:
    for pname, kind, msg in _CHECKS.get(dist.replace("_n", ""), ()):
        p = params[names.index(pname)]
        if p.device.type == "meta":
            continue
        bad = (p <= 0) if kind == "pos" else (p < 0)
        if p.numel() and bool(bad.any()):
            v = attrs[pname]
            if v is None:
                m = float(p.detach()[bad].reshape(-1)[0])
                text = f"Check failed: indicator_host >= 0.0 ({m:g} vs. 0) : {msg}"
            elif dist == "gamma":
                text = f"Check failed: false: {msg}"
            else:
                op_ = ">" if kind == "pos" else ">="
                text = f"Check failed: param.{pname}.value() {op_} 0.0 ({v:g} vs. 0) : {msg}"
            raise DeferredOpError(text, (torch.zeros(shape, dtype=dt, device=dev),),
                                  kind=ValueError)


def _uniform01(shape, dev):
    return torch.rand(shape, dtype=_F64, device=dev)


def _std_exp(shape, dev):
    return torch.empty(shape, dtype=_F64, device=dev).exponential_()



def _mxrng_on() -> bool:
    """Whether MXNet's own CPU random stream is in use (see :mod:`mxnet._mxrng`)."""
    from .. import _mxrng

    return _mxrng.ENABLED

def _mx_cpu_draw(dist: str, p, shape):
    """MXNet 1.9.1's own CPU stream for ``uniform``/``normal`` (:mod:`mxnet._mxrng`): float32
    draws and float32 arithmetic, as MXNet's NumPy-interface samplers."""
    from .. import _mxrng

    n = 1
    for d in shape:
        n *= d
    a, b = (q.to(torch.float32) for q in p)
    if dist == "uniform":
        u = torch.from_numpy(_mxrng.np_uniform01(n).reshape(shape))
        return _zero_grad(a.detach() + (b.detach() - a.detach()) * u, p)
    z = torch.from_numpy(_mxrng.np_normal01(n).reshape(shape))
    return a + b * z


_MX_TRANSFORMS = ("weibull", "pareto", "powerd", "rayleigh", "logistic", "gumbel")


def _mx_transform(dist: str, p, shape, scalar: list):
    """MXNet 1.9.1's CPU samplers that transform float uniforms of its NumPy-interface
    engine (:func:`mxnet._mxrng.np_uniform01`): the values follow its kernels' float32 /
    double steps; gradients (reparameterisation) come from the same formula in torch.
    ``scalar[i]`` says whether parameter ``i`` was an attribute (a C ``float``)."""
    import numpy as np

    from .. import _mxrng

    f32, f64 = np.float32, np.float64
    n = 1
    for d in shape:
        n *= d
    # power draws one uniform more than it uses
    # (MXNet 1.9.1 samples its whole workspace, indicator slot included)
    extra = dist == "powerd"
    u = _mxrng.np_uniform01(n + extra)[:n]
    u = u.reshape(shape).astype(f64)
    ps = [np.broadcast_to(q.detach().cpu().numpy().astype(f32), shape).astype(f64) for q in p]
    if dist == "weibull":
        (a,) = ps
        e = (-np.log(u)).astype(f32).astype(f64)
        val = np.power(e, (1.0 / a).astype(f32).astype(f64))
    elif dist == "powerd":
        (a,) = ps
        val = np.power((1.0 - u).astype(f32).astype(f64), (1.0 / a).astype(f32).astype(f64))
    elif dist == "pareto":
        (a,) = ps
        if scalar[0]:
            val = np.exp(-np.log(u) / a) - 1.0
        else:
            e = (-np.log(u)).astype(f32).astype(f64)  # stored as the float noise
            val = np.exp((e / a).astype(f32).astype(f64)) - 1.0  # float ratio, double exp
    elif dist == "rayleigh":
        (scale,) = ps
        t = np.sqrt(-2.0 * np.log(u)).astype(f32).astype(f64)
        val = scale * t
    else:
        loc, scale = ps
        if dist == "logistic":
            noise = (np.log(u) - np.log((1.0 - u).astype(f32).astype(f64))).astype(f32)
        else:
            noise = (-np.log(-np.log(u))).astype(f32)
        val = loc + (noise.astype(f64) * scale).astype(f32).astype(f64)
    out = torch.from_numpy(np.array(val, dtype=f32).reshape(shape))  # 0-d: not a scalar
    if any(q.requires_grad for q in p):
        un = torch.from_numpy(np.array(u).reshape(shape))
        if dist == "weibull":
            expr = (-torch.log(un)) ** (1 / p[0])
        elif dist == "powerd":
            expr = (1 - un) ** (1 / p[0])
        elif dist == "pareto":
            expr = torch.exp(-torch.log(un) / p[0]) - 1
        elif dist == "rayleigh":
            expr = p[0] * torch.sqrt(-2 * torch.log(un))
        elif dist == "logistic":
            expr = p[0] + p[1] * torch.log(un / (1 - un))
        else:
            expr = p[0] - p[1] * torch.log(-torch.log(un))
        out = out + (expr - expr.detach()).to(torch.float32)
    return out


def _mx_np_gamma(p, shape):
    """MXNet 1.9.1's CPU ``_npi_gamma``: per output two double uniforms and two double
    normals of the NumPy-interface engine, one Marsaglia-Tsang attempt (``logf`` tests), the
    failed outputs drawn again with fresh whole-size batches until none fails."""
    import numpy as np

    from .. import _mxrng

    f32 = np.float32
    n = 1
    for d in shape:
        n *= d
    a = np.broadcast_to(p[0].detach().cpu().numpy().astype(f32), shape).reshape(-1)
    b = np.broadcast_to(p[1].detach().cpu().numpy().astype(f32), shape).reshape(-1)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    d = np.where(a64 < 1, a64 + 2.0 / 3.0, a64 - 1.0 / 3.0)
    c = 1.0 / np.sqrt(9.0 * d)
    out = np.full(n, -1.0)
    todo = np.ones(n, dtype=bool)
    with np.errstate(all="ignore"):
        while n and todo.any():
            uni = _mxrng.np_uniform01_f64(2 * n).reshape(n, 2)
            nor = _mxrng.np_normal01_f64(2 * n).reshape(n, 2)
            u, z = uni[:, 0], nor[:, 0]
            ocn = 1.0 + c * z
            v = ocn * ocn * ocn  # as written in MXNet (not pow: the last bit differs)
            cand = d * v * b64
            lu = np.log(u.astype(f32)).astype(f32).astype(np.float64)  # logf
            lv = np.log(np.where(v > 0, v, 1).astype(f32)).astype(f32).astype(np.float64)
            ok = (v > 0) & ((u <= 1 - 0.0331 * (z * z) * (z * z))
                            | (lu < 0.5 * (z * z) + d * (1 - v + lv)))
            sample = np.where(ok, cand, -1.0)
            inv = (1.0 / a64).astype(f32).astype(np.float64)
            u2 = uni[:, 1].astype(f32).astype(np.float64)
            small = np.power(u2, inv).astype(f32).astype(np.float64)  # powf(u2, 1 / a)
            sample = np.where((sample > 0) & (a64 < 1), sample * small, sample)
            out = np.where(todo, sample, out)
            todo = out < 0
    return torch.from_numpy(out.reshape(shape))


def _draw(dist: str, p, shape, dev, scalar=None):
    """Samples of ``dist`` with parameter tensors ``p`` (float64) broadcast to ``shape``."""
    if dist in ("uniform", "normal") and dev.type == "cpu" and _mxrng_on():
        return _mx_cpu_draw(dist, p, shape)
    if dist in _MX_TRANSFORMS and dev.type == "cpu" and _mxrng_on():
        return _mx_transform(dist, p, shape, scalar or [True] * len(p))
    if dist == "gamma" and dev.type == "cpu" and _mxrng_on() and math.prod(shape) <= 1 << 16:
        return _zero_grad(_mx_np_gamma(p, shape), p)  # larger: torch (Python-speed loop)
    if dist == "uniform":
        low, high = p
        return _zero_grad(low + (high - low) * _uniform01(shape, dev), p)
    if dist == "normal":
        loc, scale = p
        return loc + scale * torch.randn(shape, dtype=_F64, device=dev)
    if dist == "gamma":
        k, theta = p
        g = torch._standard_gamma(torch.broadcast_to(k.detach(), shape).contiguous())
        return _zero_grad(g * theta.detach(), p)
    if dist == "logistic":
        loc, scale = p
        u = _uniform01(shape, dev).clamp(1e-300, 1 - 1e-16)
        return loc + scale * torch.log(u / (1 - u))
    if dist == "gumbel":
        loc, scale = p
        u = _uniform01(shape, dev).clamp(1e-300, 1 - 1e-16)
        return loc - scale * torch.log(-torch.log(u))
    (a,) = p
    if dist == "exponential" and dev.type == "cpu" and _mxrng_on():
        # MXNet 1.9.1: -log(u) * scale with u from its kRandom (NumPy-interface) engine
        from .. import _mxrng

        n = 1
        for d in shape:
            n *= d
        u = _mxrng.np_uniform01(n).reshape(shape)
        e = -torch.log(torch.from_numpy(u).to(torch.float64))  # the kernel works in double
        return (a.to(torch.float64) * e).to(torch.float32)
    e = _std_exp(shape, dev)
    if dist == "exponential":
        return a * e
    if dist == "rayleigh":
        return a * torch.sqrt(2 * e)
    if dist == "weibull":
        return e ** (1 / a)
    if dist == "pareto":
        return torch.exp(e / a) - 1
    if dist == "powerd":
        return _zero_grad((1 - torch.exp(-e)) ** (1 / a), p)
    raise MXNetError(f"unknown distribution {dist}")


def _sampler(op: str, dist: str, names, batch: bool, has_dtype: bool):
    def compute(attrs, *tensors):
        dev = _device(attrs, tensors)
        params = _params(attrs, names, tensors, dev)
        shape = _out_shape(op, attrs, params, batch)
        dt = to_torch(attrs["dtype"]) if has_dtype else torch.float32
        _check_params(op, dist, attrs, names, params, shape, dt, dev)
        if dev.type == "meta":
            return torch.empty(shape, dtype=dt, device="meta")
        if batch:
            params = [q.reshape((1,) * (len(shape) - q.dim()) + tuple(q.shape)) for q in params]
        scalar = [attrs[n] is not None for n in names]
        return _draw(dist, params, shape, dev, scalar).to(dt)

    return compute


def _active(names):
    slots = ("input1", "input2")[:len(names)]
    return lambda attrs: list(slots[:sum(1 for n in names if attrs[n] is None)])


_SIZE = Param("size", "shape_or_none", None, doc="Output shape (None: the parameters' shape).")
_CTX = Param("ctx", "ctx", None, doc="Context of the output (cpu by default).")
_DTYPE = Param("dtype", "enum", "float32", choices=("float16", "float32", "float64"),
               doc="DType of the output.")

# op name: (distribution, [(param, default, doc)], batch (_n variant), has dtype, has ctx)
_SAMPLERS = {
    "_npi_uniform": ("uniform", [("low", "Lower bound."), ("high", "Upper bound.")],
                     False, True, True),
    "_npi_uniform_n": ("uniform", [("low", "Lower bound."), ("high", "Upper bound.")],
                       True, True, True),
    "_npi_normal": ("normal", [("loc", "Mean."), ("scale", "Standard deviation.")],
                    False, True, True),
    "_npi_normal_n": ("normal", [("loc", "Mean."), ("scale", "Standard deviation.")],
                      True, True, True),
    "_npi_gamma": ("gamma", [("shape", "Shape (k)."), ("scale", "Scale (theta).")],
                   False, True, True),
    "_npi_logistic": ("logistic", [("loc", "Location."), ("scale", "Scale.")],
                      False, False, True),
    "_npi_gumbel": ("gumbel", [("loc", "Location."), ("scale", "Scale.")], False, False, True),
    "_npi_exponential": ("exponential", [("scale", "Scale (1 / rate).")], False, False, True),
    "_npi_rayleigh": ("rayleigh", [("scale", "Scale.")], False, False, True),
    "_npi_weibull": ("weibull", [("a", "Shape.")], False, False, True),
    "_npi_pareto": ("pareto", [("a", "Shape.")], False, False, True),
    "_npi_powerd": ("powerd", [("a", "Shape (exponent 1 / a).")], False, False, False),
}

_REQUIRED_2 = ("_npi_uniform", "_npi_uniform_n", "_npi_normal", "_npi_normal_n", "_npi_gamma",
               "_npi_logistic", "_npi_gumbel")

for _name, (_dist, _specs, _batch, _has_dt, _has_ctx) in _SAMPLERS.items():
    _names = [n for n, _ in _specs]
    if _name in _REQUIRED_2:
        _ps = [Param(n, "float_or_none", doc=d) for n, d in _specs]
    elif _dist in ("exponential", "rayleigh"):
        _ps = [Param(n, "float_or_none", 1.0, doc=d) for n, d in _specs]
    else:
        _ps = [Param(n, "float_or_none", None, doc=d) for n, d in _specs]
    _ps.append(_SIZE)
    if _has_ctx:
        _ps.append(_CTX)
    if _has_dt:
        _ps.append(_DTYPE)
    register(OpDef(_name, _sampler(_name, _dist, _names, _batch, _has_dt),
                   inputs=("input1", "input2")[:len(_names)], active_inputs=_active(_names),
                   params=_ps,
                   infer_type=(lambda attrs, ins: (ins, [attrs["dtype"]])) if _has_dt else (
                       lambda attrs, ins: (ins, ["float32"])),
                   doc=f"Samples from the {_dist} distribution (``mx.np.random``).\n\n"
                       f"Example: ``mx.nd._internal.{_name}({_names[0]}=1.0"
                       f"{', ' + _names[1] + '=1.0' if len(_names) > 1 else ''}, size=(2,))``"))


# ---------------------------------------------------------------------------------------
# bernoulli


def _bernoulli(attrs, *tensors):
    dev = _device(attrs, tensors)
    is_logit = attrs["is_logit"]
    name = "logit" if is_logit else "prob"
    (p,) = _params(attrs, [name], tensors, dev)
    shape = _out_shape("_npi_bernoulli", attrs, [p], False)
    dt = to_torch(attrs["dtype"])
    if dev.type == "meta":
        return torch.empty(shape, dtype=dt, device="meta")
    if not is_logit and p.numel() and bool(((p < 0) | (p > 1)).any()):
        v = attrs["prob"]
        text = (f"Check failed: param.prob.value() <= 1.0 ({v:g} vs. 1) : expect probs >= 0 "
                f"&& probs <= 1" if v is not None else
                "Check failed: indicator_host: expect probs >= 0 && probs <= 1")
        raise DeferredOpError(text, (torch.zeros(shape, dtype=dt, device=dev),),
                              kind=ValueError)
    prob = torch.sigmoid(p) if is_logit else p
    with torch.no_grad():
        if dev.type == "cpu" and _mxrng_on():
            # MXNet 1.9.1: a float uniform of its kRandom engine per output, below prob
            from .. import _mxrng

            n = 1
            for d in shape:
                n *= d
            u = torch.from_numpy(_mxrng.np_uniform01(n).reshape(shape))
            res = u < prob.detach().to(torch.float32)
        else:
            res = _uniform01(shape, dev) < prob.detach()
    return res.to(dt)


register(OpDef("_npi_bernoulli", _bernoulli, inputs=("input1",),
               active_inputs=lambda attrs: [] if attrs[
                   "logit" if attrs["is_logit"] else "prob"] is not None else ["input1"],
               params=[Param("prob", "float_or_none", doc="Probability of 1."),
                       Param("logit", "float_or_none", doc="Log-odds of 1."),
                       _SIZE, _CTX,
                       Param("dtype", "enum", "float32",
                             choices=("bool", "float16", "float32", "float64", "int32",
                                      "uint8"), doc="DType of the output."),
                       Param("is_logit", "bool", doc="Whether the logit is given.")],
               infer_type=lambda attrs, ins: (ins, [attrs["dtype"]]),
               doc="Samples from Bernoulli distributions (``npx.random.bernoulli``).\n\n"
                   "Example: ``mx.nd._internal._npi_bernoulli(prob=0.5, logit=None, "
                   "is_logit=False, size=(3,))``"))

# ---------------------------------------------------------------------------------------
# choice, multinomial, randint, shuffle, multivariate normal


def _choice(attrs, *tensors):
    dev = _device(attrs, tensors)
    it = iter(tensors)
    n = attrs["a"]
    if n is None:
        n = next(it).numel()
    n = int(n)
    size = attrs["size"]
    shape = () if size is None else tuple(size)
    count = math.prod(shape)
    if dev.type == "meta":
        return torch.empty(shape, dtype=torch.int64, device="meta")
    if n <= 0:
        raise MXNetError("Operator _npi_choice: a must be greater than 0")
    if not attrs["replace"] and count > n:
        raise MXNetError("Operator _npi_choice: cannot take a larger sample than population "
                         "when 'replace=False'")
    with torch.no_grad():
        if attrs["weighted"]:
            p = next(it).detach().to(_F64).reshape(-1)
            if p.numel() != n:
                raise MXNetError("Operator _npi_choice: a and p must have the same size")
            if dev.type == "cpu" and _mxrng_on():
                idx = torch.from_numpy(_mx_choice_weighted(p.numpy(), count, attrs["replace"]))
            else:
                idx = torch.multinomial(p.clamp(min=0), count, replacement=attrs["replace"]) \
                    if count else torch.zeros(0, dtype=torch.int64, device=dev)
        elif attrs["replace"]:
            from .. import _mxrng

            if dev.type == "cpu" and _mxrng.ENABLED:
                # MXNet 1.9.1: one 32-bit draw of the kRandom engine per sample, modulo a
                idx = torch.from_numpy(_mxrng.np_raw(count).astype("int64") % n)
            else:
                idx = torch.randint(0, n, (count,), dtype=torch.int64, device=dev)
        elif dev.type == "cpu" and _mxrng_on():
            idx = torch.from_numpy(_mx_choice_no_replace(n, count))
        else:
            idx = torch.randperm(n, device=dev)[:count]
    return idx.reshape(shape)


def _mx_logf(x):
    """glibc ``logf`` of float32 values (0 gives -inf, negatives NaN)."""
    import numpy as np

    from .. import _mxrng

    x = np.asarray(x, dtype=np.float32)
    out = np.full(x.shape, np.nan, dtype=np.float32)
    pos = (x > 0) & np.isfinite(x) & (x >= np.finfo(np.float32).tiny)
    out[pos] = _mxrng._logf(x[pos])
    out[x == 0] = -np.inf
    out[np.isinf(x) & (x > 0)] = np.inf
    small = (x > 0) & (x < np.finfo(np.float32).tiny)  # subnormals: not from uniforms
    out[small] = np.log(x[small].astype(np.float64)).astype(np.float32)
    return out


def _mx_choice_weighted(p, k: int, replace: bool):
    """MXNet 1.9.1's CPU weighted choice (float weights, float uniforms of the
    NumPy-interface engine): with replacement, the number of running float sums of the
    weights below each uniform; without, the ``k`` largest Gumbel keys
    ``-logf(-logf(u)) + logf(w)`` (one uniform per item)."""
    import numpy as np

    from .. import _mxrng

    w = np.asarray(p, dtype=np.float32)
    if replace:
        u = _mxrng.np_uniform01(k)
        acc = np.cumsum(w, dtype=np.float32)  # float additions in order, as the kernel's
        return (acc[None, :] < u[:, None]).sum(axis=1).astype(np.int64)
    u = _mxrng.np_uniform01(len(w))
    with np.errstate(all="ignore"):
        keys = (-_mx_logf(-_mx_logf(u))) + _mx_logf(w)
    order = np.argsort(-keys.astype(np.float64), kind="stable")
    return order[:k].astype(np.int64)


def _mx_choice_no_replace(n: int, k: int):
    """MXNet 1.9.1's CPU uniform choice without replacement: ``m = min(k, n - k)`` raw
    draws of the NumPy-interface engine, draw ``i`` taken modulo ``i + n - m + 1``, a
    reservoir pass over ``range(n)``, then the last ``k`` indices (first ``k`` when
    ``2 * k >= n``)."""
    import numpy as np

    from .. import _mxrng

    m = min(k, n - k)
    split = n - m
    r = _mxrng.np_raw(m).astype(np.int64) % (np.arange(m, dtype=np.int64) + split + 1)
    idx = np.arange(n, dtype=np.int64)
    for i, z in enumerate(r.tolist()):
        if z < split:
            idx[z], idx[i + split] = idx[i + split], idx[z]
    return idx[n - k:] if 2 * k < n else idx[:k]


register(OpDef("_npi_choice", _choice, inputs=("input1", "input2"),
               active_inputs=lambda attrs: ["input1", "input2"][:(attrs["a"] is None) + bool(
                   attrs["weighted"])],
               params=[Param("a", "int_or_none", doc="Population size (None: input1's size)."),
                       Param("size", "shape_or_none", doc="Output shape."), _CTX,
                       Param("replace", "bool", True, doc="Sample with replacement."),
                       Param("weighted", "bool", False, doc="Whether probabilities p are "
                                                            "given.")],
               infer_type=lambda attrs, ins: (ins, ["int64"]),
               doc="Random indices in [0, a) (``mx.np.random.choice``).\n\n"
                   "Example: ``mx.nd._internal._npi_choice(a=5, size=(3,))``"))


def _mx_multinomial(pvals, n: int, shape):
    """MXNet 1.9.1's CPU multinomial with a ``pvals`` tuple: ``rows * n + len(pvals)``
    double uniforms of the NumPy-interface engine, the first ``rows * n`` used in order;
    each lands in the first outcome whose running (double) sum of ``pvals`` exceeds it,
    the last outcome when none does."""
    import numpy as np

    from .. import _mxrng

    k = len(pvals)
    rows = math.prod(shape) // k
    acc = np.cumsum(np.asarray(pvals, dtype=np.float64))
    u = _mxrng.np_uniform01_f64(rows * n + k)[: rows * n].reshape(rows, n)
    which = np.minimum(np.searchsorted(acc, u, side="right"), k - 1)
    counts = np.zeros((rows, k), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(rows), n), which.reshape(-1)), 1)
    return counts.reshape(shape)


def _multinomial(attrs, *tensors):
    n = attrs["n"]
    if tensors:
        p = tensors[0].detach()
        # accumulated in order in the input's precision, as MXNet's kernel does
        total = p.cumsum(-1)[..., -1].to(_F64) if p.shape[-1] else p.sum(-1).to(_F64)
        p = p.to(_F64)
        dev = p.device
    else:
        dev = _device(attrs, ())
        p = torch.tensor(attrs["pvals"], dtype=_F64, device=dev)
        total = p.sum(-1)
    size = () if attrs["size"] is None else tuple(attrs["size"])
    k = p.shape[-1]
    shape = size + (k,) if not tensors or p.dim() == 1 else size + tuple(p.shape)
    if dev.type == "meta":
        return torch.empty(shape, dtype=torch.int64, device="meta")
    head = p[..., :-1].sum(-1)  # MXNet checks the sum of every probability (total)
    if bool((total > 1.0 + 1e-12).any()):  # found while the kernel runs: reported on read
        raise DeferredOpError(f"Check failed: sum <= 1.0 + 1e-12 ({float(total.max()):g} vs. "
                              "1) : sum(pvals[:-1]) > 1.0",
                              (torch.zeros(shape, dtype=torch.int64, device=dev),))
    if k == 0 or n == 0 or 0 in shape:  # nothing to draw (also empty pvals)
        return torch.zeros(shape, dtype=torch.int64, device=dev)
    if not tensors and dev.type == "cpu" and _mxrng_on():
        return torch.from_numpy(_mx_multinomial(attrs["pvals"], n, shape))
    probs = torch.cat([p[..., :-1], (1 - head).clamp(min=0).unsqueeze(-1)], -1)
    flat = torch.broadcast_to(probs, shape).reshape(-1, k)
    draws = torch.multinomial(flat, n, replacement=True)
    counts = torch.zeros(flat.shape, dtype=torch.int64, device=dev)
    counts.scatter_add_(1, draws, torch.ones_like(draws))
    return counts.reshape(shape)


register(OpDef("_npi_multinomial", _multinomial, inputs=("a",),
               active_inputs=lambda attrs: [] if attrs["pvals"] is not None else ["a"],
               params=[Param("n", "int", doc="Number of experiments."),
                       Param("pvals", "float_seq", None, doc="Probabilities of the outcomes."),
                       Param("size", "shape_or_none", None, doc="Output batch shape.")],
               infer_type=lambda attrs, ins: (ins, ["int64"]),
               doc="Counts of n draws from a categorical distribution "
                   "(``mx.np.random.multinomial``).\n\n"
                   "Example: ``mx.nd._internal._npi_multinomial(n=5, pvals=(0.2, 0.8))``"))


def _randint(attrs):
    low, high = attrs["low"], attrs["high"]
    dt = to_torch(attrs["dtype"] if attrs["dtype"] not in (None, "None") else "int32")
    dev = _device(attrs, ())
    shape = tuple(attrs["shape"] or ())
    if not high >= low:
        raise DeferredOpError(f"Check failed: param.high >= param.low ({high} vs. {low}) : low "
                              f"must be less or equal to high in uniform distribution",
                              (torch.zeros(shape, dtype=dt, device=dev),))
    if low == high:
        raise MXNetError(f"Operator _npi_random_randint: low ({low}) must be less than high "
                         f"({high})")
    from ._random import _mx_randint

    return _mx_randint(low, high, shape, dt, dev)


register(OpDef("_npi_random_randint", _randint, inputs=(), creation=True,
               params=[Param("low", "int", doc="Lower bound (inclusive)."),
                       Param("high", "int", doc="Upper bound (exclusive)."),
                       Param("shape", "shape", None, doc="Output shape."), _CTX,
                       Param("dtype", "enum", None, choices=("None", "int32", "int64"),
                             doc="DType of the output (int32 if None).")],
               infer_out=lambda a, s: [tuple(a["shape"] or ())],
               infer_type=lambda a, ins: ([], [a["dtype"] or "int32"]),
               doc="Random integers in [low, high) (``mx.np.random.randint``).\n\n"
                   "Example: ``mx.nd._internal._npi_random_randint(low=0, high=5, shape=(3,))``"))


def _shuffle(attrs, data):
    if data.device.type == "meta" or data.dim() == 0:
        return data.clone()
    from .. import _mxrng

    if data.device.type == "cpu" and _mxrng.ENABLED:
        # MXNet 1.9.1's permutation from its kRandom engine (the one mx.np.random reads)
        perm = torch.from_numpy(_mxrng.np_shuffle_perm(data.shape[0], rows=data.dim() > 1))
    else:
        perm = torch.randperm(data.shape[0], device=data.device)
    return data.detach()[perm]


register(OpDef("_npi_shuffle", _shuffle,
               doc="A copy with the first axis randomly permuted (``mx.np.random.shuffle`` "
                   "writes it back in place).\n\n"
                   "Example: ``mx.nd._internal._npi_shuffle(x)``"))


def _mvn(attrs, mean, cov):
    size = () if attrs["size"] is None else tuple(attrs["size"])
    d = mean.shape[-1] if mean.dim() else 0
    if mean.dim() == 0 or cov.dim() < 2 or tuple(cov.shape[-2:]) != (d, d):
        raise MXNetError(f"Operator _npi_mvn_fallback: cov must be of shape (..., {d}, {d}), "
                         f"got {tuple(cov.shape)}")
    # batch dimensions of mean and cov broadcast together (NumPy's rule in MXNet)
    batch = tuple(torch.broadcast_shapes(mean.shape[:-1], cov.shape[:-2]))
    shape = size + batch + (d,)
    if mean.device.type == "meta":
        return torch.empty(shape, dtype=torch.float32, device="meta")
    with torch.no_grad():
        c = cov.detach().to(_F64)
        w, v = torch.linalg.eigh((c + c.transpose(-1, -2)) / 2)
        factor = v * w.clamp(min=0).sqrt().unsqueeze(-2)
        z = torch.randn(shape, dtype=_F64, device=mean.device)
        res = mean.detach().to(_F64) + (factor @ z.unsqueeze(-1)).squeeze(-1)
    return res.to(torch.float32)


register(OpDef("_npi_mvn_fallback", _mvn, inputs=("mean", "cov"),
               params=[Param("size", "shape_or_none", None, doc="Output batch shape.")],
               infer_type=lambda attrs, ins: (ins, ["float32"]),
               doc="Samples from a multivariate normal distribution "
                   "(``mx.np.random.multivariate_normal``).\n\n"
                   "Example: ``mx.nd._internal._npi_mvn_fallback(mean, cov, size=(3,))``"))
