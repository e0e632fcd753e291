"""Multi-tensor AdamW and LAMB updates: ``_multi_adamw_update``, ``_multi_mp_adamw_update``,
``_multi_lamb_update`` and ``_multi_mp_lamb_update`` (used by aggregated optimizers).

Inputs come in groups per weight: ``weight, grad, mean, var[, weight32]``; the AdamW forms
take a trailing ``rescale_grad`` array. States are updated in place, the new weights are
returned.

Example: ``mx.nd._internal._multi_adamw_update(w, g, m, v, scale, lrs=(0.1,), wds=(0.0,),
etas=(1.0,), num_weights=1)``
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ..base import MXNetError
from ._optim import _clip, _exact_sqrt, _lamb2_core, _s
from ._optim_multi import _sum_sq
from ._params import Param
from ._registry import OpDef, register

__all__: list[str] = []


def _groups(name: str, tensors: tuple, k: int, extra: int) -> list:
    n = len(tensors) - extra
    if n <= 0 or n % k:
        raise MXNetError(
            f"Operator {name}: expected {k} inputs per weight"
            f"{' plus rescale_grad' if extra else ''}, got {len(tensors)} inputs"
        )
    return [tensors[i : i + k] for i in range(0, n, k)]


def _need(name: str, a: dict, keys: tuple[str, ...], n: int) -> None:
    for key in keys:
        if len(a[key]) < n:
            raise MXNetError(f"Operator {name}: {key} needs {n} values, got {len(a[key])}")


def _outputs(key: str):
    return lambda a: [f"output{i}" for i in range(a.get(key) or 1)]


def _multi_adamw_step(
    a: dict, w: torch.Tensor, g: torch.Tensor, mean: torch.Tensor, var: torch.Tensor, scale: float
) -> torch.Tensor:
    """One weight of MXNet's multi-tensor AdamW kernel, in its own arithmetic.

    Unlike the single-tensor ``adamw_update`` (``beta * m + (1 - beta) * g``), this kernel
    moves the moments as ``beta * (m - g) + g`` and ``beta * (v - g*g) + g*g``; the two
    round differently in float32 (a first step's variance differs by ~1e-4 relative), so
    gluonnlp's aggregated BERTAdam only reproduces MXNet's weights with this form. Every
    scalar is held in the moments' dtype (``MPDType``: float16 for float16 weights without
    master copies), each operation rounding to it.
    """
    dt, dev = mean.dtype, mean.device

    def c(x: float) -> torch.Tensor:
        return torch.tensor(_s(x), dtype=dt, device=dev)

    g = c(scale) * g.to(dt)
    g = _clip(g, _s(a["clip_gradient"]))
    b1, b2 = c(a["beta1"]), c(a["beta2"])
    mean.copy_(b1 * (mean - g) + g)
    adj = g * g
    var.copy_(b2 * (var - adj) + adj)
    w = w.to(dt)
    root = _exact_sqrt(var)  # MXNet's sqrtf is correctly rounded; torch's is not always
    step = c(a["lr"]) * mean / (root + c(a["epsilon"])) + c(a["wd"]) * w
    return w - c(a["eta"]) * step


def _make_adamw(name: str, mp: bool) -> None:
    k = 5 if mp else 4

    def compute(a: dict, *tensors: torch.Tensor) -> tuple:
        groups = _groups(name, tensors, k, 1)
        _need(name, a, ("lrs", "wds", "etas"), len(groups))
        scale_t = tensors[-1]
        scale = float(scale_t.reshape(-1)[0]) if scale_t.device.type != "meta" else 1.0
        skip = not math.isfinite(scale) or scale == 0  # MXNet leaves everything untouched
        outs = []
        for i, grp in enumerate(groups):
            ai = {
                "lr": a["lrs"][i],
                "wd": a["wds"][i],
                "eta": a["etas"][i],
                "beta1": a["beta1"],
                "beta2": a["beta2"],
                "epsilon": a["epsilon"],
                "clip_gradient": a["clip_gradient"],
            }
            w, g, mean, var = grp[:4]
            if skip:
                outs.append(w.clone())
            elif mp:
                w32 = grp[4]
                w32.copy_(_multi_adamw_step(ai, w32, g, mean, var, scale))
                outs.append(w32.to(w.dtype))
            else:
                outs.append(_multi_adamw_step(ai, w, g, mean, var, scale).to(w.dtype))
        return tuple(outs)

    params = [
        Param("lrs", "float_seq", doc="Learning rates"),
        Param("beta1", "float", 0.9, doc="The decay rate for the 1st moment estimates."),
        Param("beta2", "float", 0.999, doc="The decay rate for the 2nd moment estimates."),
        Param("epsilon", "float", 1e-8, doc="A small constant for numerical stability."),
        Param(
            "wds",
            "float_seq",
            doc="Weight decay augments the objective function with "
            "a regularization term that penalizes large weights.",
        ),
        Param("etas", "float_seq", doc="Learning rates schedule multiplier"),
        Param("clip_gradient", "float", -1.0, doc="Clip gradient; < 0 disables"),
        Param("num_weights", "int", 1, doc="Number of updated weights."),
    ]
    register(
        OpDef(
            name,
            compute,
            params=params,
            variadic="num_weights",
            outputs=_outputs("num_weights"),
            doc="AdamW update of several weights at once"
            + (" (fp32 master weights)" if mp else "")
            + "; the update is skipped when rescale_grad is 0/inf/nan.",
        )
    )


def _multi_lamb_step1(
    a: dict, w: torch.Tensor, g: torch.Tensor, mean: torch.Tensor, var: torch.Tensor
) -> torch.Tensor:
    """The per-element first phase of MXNet's multi-tensor LAMB kernel in its own arithmetic
    (``(1 - beta2) * g * g`` left to right, ``powf`` bias corrections, the direction formed
    in double); returns the update direction, the moments are updated in place."""
    dt, dev = mean.dtype, mean.device

    def c(x) -> torch.Tensor:
        return torch.tensor(_s(x), dtype=dt, device=dev)

    g = g.to(dt) * c(a["rescale_grad"])
    g = _clip(g, _s(a["clip_gradient"]))
    b1, b2 = np.float32(a["beta1"]), np.float32(a["beta2"])
    mean.copy_(c(b1) * mean + c(np.float32(1) - b1) * g)
    var.copy_(c(b2) * var + c(np.float32(1) - b2) * g * g)
    m, v = mean, var
    if a["bias_correction"]:
        t = np.float32(a["t"])
        m = mean / c(np.float32(1) - np.power(b1, t))
        v = var / c(np.float32(1) - np.power(b2, t))
    # the kernel's C ``sqrt`` promotes to double: ``m / (sqrt(v) + eps) + wd * w`` is
    # evaluated in double (``wd * w`` in the moments' dtype) and rounded once
    decay = (c(a["wd"]) * w.to(dt)).double()
    eps = float(_s(a["epsilon"]))
    return (m.double() / (v.double().sqrt() + eps) + decay).to(dt)


def _make_lamb(name: str, mp: bool) -> None:
    k = 5 if mp else 4

    def compute(a: dict, *tensors: torch.Tensor) -> tuple:
        groups = _groups(name, tensors, k, 0)
        _need(name, a, ("learning_rates", "wds", "step_count"), len(groups))
        outs = []
        for i, grp in enumerate(groups):
            w, g, mean, var = grp[:4]
            master = grp[4] if mp else w
            a1 = {
                "beta1": a["beta1"],
                "beta2": a["beta2"],
                "epsilon": a["epsilon"],
                "t": a["step_count"][i],
                "bias_correction": a["bias_correction"],
                "wd": a["wds"][i],
                "rescale_grad": a["rescale_grad"],
                "clip_gradient": a["clip_gradient"],
            }
            upd = _multi_lamb_step1(a1, master, g, mean, var)
            # MXNet's trust ratio: sequential float32 sums of squares (multi_sum_sq) of the
            # weights as given (the float16 ones under mixed precision) and of the update
            r1 = _sum_sq(w).double().sqrt().float()  # correctly rounded, like sqrtf
            r2 = _sum_sq(upd).double().sqrt().float()
            a2 = {
                "lr": a["learning_rates"][i],
                "lower_bound": a["lower_bound"],
                "upper_bound": a["upper_bound"],
            }
            new = _lamb2_core(a2, master, upd, r1, r2, grouped=True)
            if mp:
                master.copy_(new)
                new = new.to(w.dtype)
            outs.append(new)
        return tuple(outs)

    params = [
        Param("learning_rates", "float_seq", doc="List of learning rates"),
        Param("beta1", "float", 0.9, doc="Exponential decay rate for the first moment estimates."),
        Param(
            "beta2", "float", 0.999, doc="Exponential decay rate for the second moment estimates."
        ),
        Param("epsilon", "float", 1e-6, doc="Small value to avoid division by 0."),
        Param("wds", "float_seq", doc="List of Weight decays."),
        Param("rescale_grad", "float", 1.0, doc="Gradient rescaling factor"),
        Param("lower_bound", "float", -1.0, doc="Lower limit of norm of weight."),
        Param("upper_bound", "float", -1.0, doc="Upper limit of norm of weight."),
        Param("clip_gradient", "float", -1.0, doc="Clip gradient; < 0 disables"),
        Param("bias_correction", "bool", True, doc="Whether to use bias correction."),
        Param("step_count", "int_seq", doc="Step count for each tensor"),
        Param("num_tensors", "int", 1, doc="Number of tensors"),
    ]
    register(
        OpDef(
            name,
            compute,
            params=params,
            variadic="num_tensors",
            outputs=_outputs("num_tensors"),
            doc="LAMB update of several weights at once"
            + (" (fp32 master weights)." if mp else "."),
        )
    )


_make_adamw("_multi_adamw_update", False)
_make_adamw("_multi_mp_adamw_update", True)
_make_lamb("_multi_lamb_update", False)
_make_lamb("_multi_mp_lamb_update", True)
