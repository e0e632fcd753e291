"""Random sampling operators: ``_random_*`` (scalar parameters), ``_random_*_like``,
``_sample_*`` (per-element parameter arrays), ``_sample_multinomial`` and ``_shuffle``.

Uniform and normal samples of float32/float64 CPU arrays follow MXNet 1.9.1's own CPU
stream bit for bit (:mod:`mxnet._mxrng`); the other samplers, other dtypes and GPUs use
torch's per-device generators. :func:`mxnet.random.seed` seeds both.
Samples carry no gradient (as in MXNet).
"""

from __future__ import annotations

import torch

from .._deferred import DeferredOpError
from .._dtype import to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register

_CTX = Param("ctx", "ctx", None, doc="Context of output, in format [cpu|gpu|cpu_pinned](n).")
_FLOAT_DTYPE = Param("dtype", "dtype", None,
                     doc="DType of the output in case this can't be inferred (float32 if None).")


def _device(attrs) -> torch.device:
    ctx = attrs.get("ctx")
    if ctx is None:
        from ..context import current_context

        ctx = current_context()
    return ctx.torch_device


def _float_dtype(name: str, dt) -> torch.dtype:
    if dt is None:
        return torch.float32
    t = to_torch(dt)
    if not t.is_floating_point:
        raise MXNetError(f"Operator {name}: dtype must be one of None, float16, float32, "
                         f"float64; got {dt}")
    return t


# Samplers: draw(params as float64 tensors broadcastable to `shape`, shape, device) -> tensor


def _uniform(p, shape, dev):
    low, high = p
    return low + (high - low) * torch.rand(shape, dtype=torch.float64, device=dev)


def _normal(p, shape, dev):
    loc, scale = p
    return loc + scale * torch.randn(shape, dtype=torch.float64, device=dev)


def _std_gamma(alpha, shape, dev):
    return torch._standard_gamma(torch.broadcast_to(alpha, shape).contiguous())


def _gamma(p, shape, dev):
    alpha, beta = p
    return _std_gamma(alpha, shape, dev) * beta


def _exponential(p, shape, dev):
    (lam,) = p
    return torch.empty(shape, dtype=torch.float64, device=dev).exponential_() / lam


def _poisson(p, shape, dev):
    (lam,) = p
    return torch.poisson(torch.broadcast_to(lam, shape).clamp(min=0))


def _negative_binomial(p, shape, dev):
    # failures before the k-th success, success probability p: Poisson(Gamma(k, (1-p)/p))
    k, prob = p
    lam = _std_gamma(k, shape, dev) * ((1 - prob) / prob)
    return torch.poisson(lam.clamp(min=0))  # p > 1: a negative rate, 0 as in MXNet


def _gen_negative_binomial(p, shape, dev):
    # mean mu, variance mu + alpha * mu^2: Poisson(Gamma(1/alpha, mu*alpha)); alpha=0: Poisson
    mu, alpha = p
    mu = torch.broadcast_to(mu, shape)
    alpha = torch.broadcast_to(alpha, shape)
    safe = torch.where(alpha > 0, alpha, torch.ones_like(alpha))
    lam = torch.where(alpha > 0, _std_gamma(1 / safe, shape, dev) * mu * safe, mu)
    return torch.poisson(lam.clamp(min=0))  # negative mu: 0 as in MXNet


# name suffix: (sampler, param specs [(name, kind, default, doc)], doc)
_DISTS = {
    "uniform": (_uniform, [("low", "float", 0.0, "Lower bound of the distribution."),
                           ("high", "float", 1.0, "Upper bound of the distribution.")],
                "Samples from a uniform distribution on [low, high)."),
    "normal": (_normal, [("loc", "float", 0.0, "Mean of the distribution."),
                         ("scale", "float", 1.0, "Standard deviation of the distribution.")],
               "Samples from a normal (Gaussian) distribution."),
    "gamma": (_gamma, [("alpha", "float", 1.0, "Alpha parameter (shape) of the distribution."),
                       ("beta", "float", 1.0, "Beta parameter (scale) of the distribution.")],
              "Samples from a gamma distribution."),
    "exponential": (_exponential, [("lam", "float", 1.0, "Lambda parameter (rate).")],
                    "Samples from an exponential distribution."),
    "poisson": (_poisson, [("lam", "float", 1.0, "Lambda parameter (rate).")],
                "Samples from a Poisson distribution (floating-point output)."),
    "negative_binomial": (_negative_binomial,
                          [("k", "int", 1, "Limit of unsuccessful experiments."),
                           ("p", "float", 1.0, "Failure probability in each experiment.")],
                          "Samples from a negative binomial distribution."),
    "generalized_negative_binomial": (
        _gen_negative_binomial,
        [("mu", "float", 1.0, "Mean of the negative binomial distribution."),
         ("alpha", "float", 1.0, "Alpha (dispersion) parameter of the distribution.")],
        "Samples from a generalized negative binomial distribution."),
}

# MXNet checks these scalar parameters while the sampler runs, so a failure is deferred
# (mxnet._deferred): (param, lower bound, bound is strict, what MXNet's message says)
_RUN_CHECKS = {
    "normal": [("scale", 0, True, "scale parameter in gaussian has to be positive")],
    "gamma": [("alpha", 0, True, "alpha parameter in gamma distribution has to be positive"),
              ("beta", 0, True, "beta parameter in gamma distribution has to be positive")],
    "exponential": [("lam", 0, True,
                     "lambda parameter in exponential distribution has to be positive")],
    "poisson": [("lam", 0, False,
                 "lambda parameter in poisson distribution has to be non-negative")],
    "negative_binomial": [("k", 0, False, "k parameter in negative binomial distribution "
                                          "has to be non-negative")],
    "generalized_negative_binomial": [
        ("mu", 0, False, "mu parameter in generalized negative binomial distribution has to "
                         "be non-negative"),
        ("alpha", 0, False, "alpha parameter in generalized negative binomial distribution "
                            "has to be non-negative")],
}


def _run_check(name: str, attrs, shape, dtype, dev) -> None:
    """Raise :class:`DeferredOpError` (zeros as outputs) when MXNet's run-time check fails."""
    dist = name[len("_random_"):].replace("_like", "")
    msg = None
    if dist in ("uniform", "randint"):
        low, high = attrs["low"], attrs["high"]
        if not high >= low:
            msg = (f"Check failed: param.high >= param.low ({high:g} vs. {low:g}) : low must "
                   f"be less or equal to high in uniform distribution")
    else:
        for pname, bound, strict, text in _RUN_CHECKS.get(dist, ()):
            v = attrs[pname]
            if not (v > bound if strict else v >= bound):
                op = ">" if strict else ">="
                msg = f"Check failed: param.{pname} {op} {bound} ({v:g} vs. {bound}) : {text}"
                break
    if msg is not None:
        raise DeferredOpError(f"Error in operator {name}: {msg}",
                              (torch.zeros(shape, dtype=dtype, device=dev),))


# legacy public aliases MXNet 1.9.1 registers for the scalar-parameter samplers
_RANDOM_ALIASES = {"uniform": ("random_uniform", "uniform"),
                   "normal": ("random_normal", "normal")}


def _scalar_params(attrs, names, dev):
    return [torch.tensor(float(attrs[n]), dtype=torch.float64, device=dev) for n in names]


def _check_shape(name: str, shape) -> tuple:
    from ..util import is_np_shape

    if shape == () and is_np_shape():  # a scalar under NumPy-shape semantics
        return shape
    if not shape or any(d is None or d < 0 for d in shape):
        raise MXNetError(f"Operator {name}: invalid or unknown output shape {shape}")
    return shape


def _mx_cpu(kind: str, shape, p1, p2, dt: torch.dtype, dev: torch.device):
    """MXNet's own CPU uniform/normal stream (:mod:`mxnet._mxrng`) for float32/float64
    outputs on the CPU; ``None`` elsewhere (torch's generators are used)."""
    from .. import _mxrng

    if dev.type != "cpu" or dt not in (torch.float32, torch.float64) or not _mxrng.ENABLED:
        return None

    n = 1
    for d in shape:
        n *= d
    npdt = "float32" if dt == torch.float32 else "float64"
    fn = _mxrng.uniform if kind == "uniform" else _mxrng.normal
    return torch.from_numpy(fn(n, p1, p2, npdt).reshape(shape))


def _mx_exponential(shape, lam, dt: torch.dtype, dev: torch.device):
    """MXNet 1.9.1's CPU exponential sampler: ``-log(1 - u) / lam`` (in double) with ``u``
    from its parallel uniform stream; ``None`` off that stream."""
    import numpy as np

    from .. import _mxrng

    if dev.type != "cpu" or dt not in (torch.float32, torch.float64) or not _mxrng.ENABLED:
        return None
    n = 1
    for d in shape:
        n *= d
    npdt = np.float32 if dt == torch.float32 else np.float64
    u = _mxrng.uniform(n, 0.0, 1.0, npdt).astype(np.float64)  # the kernel works in double
    if isinstance(lam, np.ndarray):  # _sample_exponential: element i uses lam[i // batch]
        lam = lam.reshape(-1).astype(np.float64)
        batch = 1 + (n - 1) // max(lam.size, 1) if n else 1
        lam = np.repeat(lam, batch)[:n]
    else:
        lam = float(np.float32(lam))
    return torch.from_numpy((-np.log(1.0 - u) / lam).astype(npdt).reshape(shape))


_REJECTION = {"gamma", "poisson", "negative_binomial", "generalized_negative_binomial"}


def _mx_rejection(name: str, shape, params: list, dt: torch.dtype, dev: torch.device):
    """MXNet 1.9.1's CPU gamma / Poisson / negative-binomial samplers on its parallel stream
    (:mod:`mxnet._mxrng_dist`) for float32/float64 CPU outputs up to ``MAX_ELEMENTS``;
    ``None`` elsewhere (torch's samplers). ``params`` are NumPy arrays (``_sample_*``) or
    scalars (MXNet keeps those as C floats)."""
    import numpy as np

    from .. import _mxrng, _mxrng_dist

    kind = name.split("_", 2)[-1]
    if kind.endswith("_like"):
        kind = kind[: -len("_like")]
    if kind not in _REJECTION or dev.type != "cpu" or not _mxrng.ENABLED:
        return None
    if dt not in (torch.float16, torch.float32, torch.float64):
        return None
    n = 1
    for d in shape:
        n *= d
    if n > _mxrng_dist.MAX_ELEMENTS:
        return None
    ps = [p if isinstance(p, np.ndarray) else np.float32(p) for p in params]
    # float16 outputs: MXNet samples with its float generator, then casts
    npdt = np.float64 if dt == torch.float64 else np.float32
    out = getattr(_mxrng_dist, kind)(n, *ps, npdt)
    return torch.from_numpy(out.reshape(shape)).to(dt)


# in-place samplers drawing straight into the output dtype for scalar parameters
_FAST = {
    "_random_uniform": lambda t, a: t.uniform_(a["low"], a["high"]),
    "_random_normal": lambda t, a: t.normal_(a["loc"], a["scale"]),
    "_random_exponential": lambda t, a: t.exponential_(a["lam"]),
}


_MX_KIND = {"_random_uniform": "uniform", "_random_normal": "normal",
            "_sample_uniform": "uniform", "_sample_normal": "normal"}


def _random_op(name, draw, names):
    fast = _FAST.get(name)
    kind = _MX_KIND.get(name)

    def compute(attrs):
        shape = _check_shape(name, attrs["shape"])
        dev = _device(attrs)
        dt = _float_dtype(name, attrs["dtype"])
        _run_check(name, attrs, shape, dt, dev)
        if kind is not None:
            out = _mx_cpu(kind, shape, attrs[names[0]], attrs[names[1]], dt, dev)
            if out is not None:
                return out
        if name == "_random_exponential":
            out = _mx_exponential(shape, attrs["lam"], dt, dev)
            if out is not None:
                return out
        out = _mx_rejection(name, shape, [attrs[k] for k in names], dt, dev)
        if out is not None:
            return out
        with torch.no_grad():
            if fast is not None:
                return fast(torch.empty(shape, dtype=dt, device=dev), attrs)
            out = draw(_scalar_params(attrs, names, dev), shape, dev)
        return out.to(dt)

    return compute


def _like_op(name, draw, names):
    fast = _FAST.get(name[:-len("_like")])
    kind = _MX_KIND.get(name[:-len("_like")])

    def compute(attrs, data):
        dev = data.device
        dt = data.dtype if data.is_floating_point() else torch.float32
        if dev.type == "meta":
            return torch.empty_like(data, dtype=dt)
        _run_check(name, attrs, tuple(data.shape), dt, dev)
        if kind is not None:
            out = _mx_cpu(kind, tuple(data.shape), attrs[names[0]], attrs[names[1]], dt, dev)
            if out is not None:
                return out
        if name == "_random_exponential_like":
            out = _mx_exponential(tuple(data.shape), attrs["lam"], dt, dev)
            if out is not None:
                return out
        out = _mx_rejection(name, tuple(data.shape), [attrs[k] for k in names], dt, dev)
        if out is not None:
            return out
        with torch.no_grad():
            if fast is not None:
                return fast(torch.empty(data.shape, dtype=dt, device=dev), attrs)
            out = draw(_scalar_params(attrs, names, dev), tuple(data.shape), dev)
        return out.to(dt)

    return compute


def _sample_op(name, draw):
    def compute(attrs, *params):
        first = params[0]
        for q in params[1:]:
            if q.shape != first.shape:
                raise MXNetError(f"Operator {name}: parameter shapes differ "
                                 f"({tuple(first.shape)} vs {tuple(q.shape)})")
        extra = tuple(attrs["shape"])
        shape = tuple(first.shape) + extra
        out_dt = _float_dtype(name, attrs["dtype"])
        if first.device.type == "meta":
            return torch.empty(shape, dtype=out_dt, device="meta")
        kind = _MX_KIND.get(name)
        if kind is not None and len(params) == 2:
            ps = [q.detach().cpu().numpy() for q in params]
            out = _mx_cpu(kind, shape, ps[0], ps[1], out_dt, first.device)
            if out is not None:
                return out
        if name == "_sample_exponential":
            out = _mx_exponential(shape, first.detach().cpu().numpy(), out_dt, first.device)
            if out is not None:
                return out
        if name[len("_sample_"):] in _REJECTION and first.device.type == "cpu":
            ps = [q.detach().numpy() for q in params]
            out = _mx_rejection(name, shape, ps, out_dt, first.device)
            if out is not None:
                return out
        expand = (...,) + (None,) * len(extra)
        with torch.no_grad():
            ps = [q.detach().to(torch.float64)[expand] for q in params]
            out = draw(ps, shape, first.device)
        return out.to(out_dt)

    return compute


def _random_infer_type(a, ins):
    dt = a["dtype"]
    return ins, [dt if dt is not None else "float32"]


def _like_type(a, ins):
    t = ins[0]
    return ins, [None if t is None else (t if t.startswith(("float", "bfloat")) else "float32")]


for _suffix, (_draw, _pspecs, _doc) in _DISTS.items():
    _names = [s[0] for s in _pspecs]
    _params = [Param(n, k, d, doc=doc) for n, k, d, doc in _pspecs]
    register(OpDef(f"_random_{_suffix}", _random_op(f"_random_{_suffix}", _draw, _names),
                   inputs=(), creation=True, aliases=_RANDOM_ALIASES.get(_suffix,
                                                                         (f"random_{_suffix}",)),
                   params=[*_params, Param("shape", "shape", (), doc="Shape of the output."),
                           _CTX, _FLOAT_DTYPE],
                   infer_out=lambda a, s: [a["shape"]], infer_type=_random_infer_type, doc=_doc))
    register(OpDef(f"_random_{_suffix}_like",
                   _like_op(f"_random_{_suffix}_like", _draw, _names), params=_params,
                   infer_type=_like_type,
                   doc=_doc + " Output has the shape and dtype of ``data``."))
    register(OpDef(f"_sample_{_suffix}", _sample_op(f"_sample_{_suffix}", _draw),
                   inputs=("mu", "sigma") if _suffix == "normal" else tuple(_names),
                   infer_type=_random_infer_type,
                   aliases=(f"sample_{_suffix}",),
                   params=[Param("shape", "shape", (), doc="Shape to be sampled from each "
                                                             "random distribution."),
                           _FLOAT_DTYPE],
                   doc=_doc + " Parameters are arrays; each element gets ``shape`` samples."))


# ---------------------------------------------------------------------------------------
# randint, multinomial, shuffle


def _randint(attrs):
    shape = _check_shape("_random_randint", attrs["shape"])
    low, high = attrs["low"], attrs["high"]
    dt = attrs["dtype"] or "int32"
    if dt not in ("int32", "int64"):
        raise MXNetError(f"Operator _random_randint: dtype must be int32 or int64, got {dt}")
    _run_check("_random_randint", attrs, shape, to_torch(dt), _device(attrs))
    if low == high:  # MXNet 1.9.1 dies of a division by zero here
        raise MXNetError(f"Operator _random_randint: low ({low}) must be less than high ({high})")
    return _mx_randint(low, high, shape, to_torch(dt), _device(attrs))


def _mx_randint(low, high, shape, dtype, dev):
    """MXNet 1.9.1's CPU randint stream (:func:`mxnet._mxrng.randint`); torch elsewhere."""
    from .. import _mxrng

    if dev.type != "cpu" or not _mxrng.ENABLED:
        return torch.randint(low, high, shape, dtype=dtype, device=dev)
    n = 1
    for d in shape:
        n *= d
    return torch.from_numpy(_mxrng.randint(n, low, high).reshape(shape)).to(dtype)


register(OpDef("_random_randint", _randint, inputs=(), creation=True,
               aliases=("random_randint",),
               params=[Param("low", "int", doc="Lower bound of the distribution."),
                       Param("high", "int", doc="Upper bound of the distribution."),
                       Param("shape", "shape", (), doc="Shape of the output."), _CTX,
                       Param("dtype", "dtype", None,
                             doc="DType of the output (int32 if None).")],
               infer_out=lambda a, s: [a["shape"]],
               infer_type=lambda a, ins: ([], [a["dtype"] or "int32"]),
               doc="Samples integers uniformly from [low, high)."))


def _multinomial(attrs, data):
    if not data.is_floating_point():
        raise MXNetError("Operator _sample_multinomial: data must be a floating point array of "
                         "probabilities")
    extra = tuple(attrs["shape"])
    n = 1
    for d in extra:
        n *= d
    batch = tuple(data.shape[:-1])
    out_shape = (batch + extra) or (1,)  # MXNet 1.x has no 0-d arrays
    dt = to_torch(attrs["dtype"])
    if data.device.type == "meta":
        return (torch.empty(out_shape, dtype=dt, device="meta"),
                torch.empty(out_shape, dtype=data.dtype, device="meta"))
    flat = data.reshape(-1, data.shape[-1])
    import numpy as np

    from .. import _mxrng

    with torch.no_grad():
        if (flat.device.type == "cpu" and _mxrng.ENABLED and flat.numel()
                and flat.dtype in (torch.float32, torch.float64)):
            # MXNet 1.9.1: one float uniform per sample from the kRandom engine (in output
            # order); the sample is the first class whose running sum of probabilities (in
            # the data's dtype) exceeds it, the last class if none does
            u = _mxrng.np_uniform01(flat.shape[0] * n).reshape(flat.shape[0], n)
            probs = flat.detach().cpu().numpy()
            acc = np.cumsum(probs, axis=-1, dtype=probs.dtype)
            above = acc[:, None, :] > u[:, :, None].astype(probs.dtype)
            pick = np.where(above.any(-1), above.argmax(-1), probs.shape[-1] - 1)
            idx = torch.from_numpy(pick.astype(np.int64))
        else:
            idx = torch.multinomial(flat.detach().to(torch.float64), n, replacement=True)
    # log-probabilities stay differentiable w.r.t. data (MXNet: gradient 1/p at each sample)
    logp = torch.log(torch.gather(flat, 1, idx))
    return idx.reshape(out_shape).to(dt), logp.reshape(out_shape)


register(OpDef("_sample_multinomial", _multinomial, aliases=("sample_multinomial",),
               infer_type=lambda a, ins: (ins, [a["dtype"], ins[0]]),
               outputs=("output0", "output1"),
               num_visible=lambda a: 2 if a["get_prob"] else 1,
               params=[Param("shape", "shape", (), doc="Shape to be sampled from each random "
                                                        "distribution."),
                       Param("get_prob", "bool", False,
                             doc="Whether to also return the log probability of the samples."),
                       Param("dtype", "dtype", "int32", doc="DType of the samples.")],
               doc="Samples from multinomial distributions given by the last axis of data."))


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


register(OpDef("_shuffle", _shuffle, aliases=("shuffle",),
               doc="Randomly shuffle the elements along the first axis."))
