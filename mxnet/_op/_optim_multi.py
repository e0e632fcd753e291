"""Multi-tensor optimizer updates (``multi_sgd_update``, ``preloaded_*``, LARS helpers).

Inputs come in groups per weight (``weight, grad[, mom][, weight32]``); the ``preloaded_``
forms take the learning rates and weight decays as two trailing NDArrays.
"""

from __future__ import annotations

import numpy as np
import torch

from ..base import MXNetError
from ._optim import _exact_sqrt, _sgd_mom_step, _sgd_step
from ._params import Param
from ._registry import OpDef, register


def _outputs(attrs):
    return [f"output{i}" for i in range(attrs.get("num_weights") or 1)]


def _groups(name, tensors, k, extra):
    n = len(tensors) - extra
    if n <= 0 or n % k:
        raise MXNetError(
            f"Operator {name}: expected {k} inputs per weight"
            f"{' plus lrs and wds' if extra else ''}, got {len(tensors)} inputs"
        )
    return [tensors[i : i + k] for i in range(0, n, k)]


def _make(name, k, mom, mp, preloaded):
    def compute(a, *tensors):
        groups = _groups(name, tensors, k, 2 if preloaded else 0)
        if preloaded:
            lrs = tensors[-2].reshape(-1).tolist() if tensors[-2].device.type != "meta" else None
            wds = tensors[-1].reshape(-1).tolist() if tensors[-1].device.type != "meta" else None
            if lrs is None:
                lrs = wds = [0.0] * len(groups)
        else:
            lrs, wds = a["lrs"], a["wds"]
            if len(lrs) < len(groups) or len(wds) < len(groups):
                raise MXNetError(
                    f"Operator {name}: lrs and wds need {len(groups)} values, got "
                    f"{len(lrs)} and {len(wds)}"
                )
        outs = []
        kind = "preloaded" if preloaded else True  # float16 rounding rules (_half_sgd)
        for i, grp in enumerate(groups):
            w, g = grp[0], grp[1]
            if mp:
                w32 = grp[-1]
                if mom:
                    new = _sgd_mom_step(
                        a, w32, g.float(), grp[2], lrs[i], wds[i], a["momentum"], multi=kind
                    )
                else:
                    new = _sgd_step(a, w32, g.float(), lrs[i], wds[i], multi=kind)
                w32.copy_(new)
                outs.append(w32.to(w.dtype))
            elif mom:
                outs.append(
                    _sgd_mom_step(a, w, g, grp[2], lrs[i], wds[i], a["momentum"], multi=kind)
                )
            else:
                outs.append(_sgd_step(a, w, g, lrs[i], wds[i], multi=kind))
        return tuple(outs)

    params = (
        []
        if preloaded
        else [
            Param("lrs", "float_seq", doc="Learning rates."),
            Param("wds", "float_seq", doc="Weight decay augments."),
        ]
    )
    if mom:
        params.append(Param("momentum", "float", 0.0, doc="The decay rate of momentum."))
    params += [
        Param("rescale_grad", "float", 1.0, doc="Rescale gradient."),
        Param("clip_gradient", "float", -1.0, doc="Clip gradient; < 0 disables"),
        Param("num_weights", "int", 1, doc="Number of updated weights."),
    ]
    what = ("SGD with momentum" if mom else "SGD") + (" (fp32 master weights)" if mp else "")
    register(
        OpDef(
            name,
            compute,
            params=params,
            variadic="num_weights",
            outputs=_outputs,
            doc=f"Update several weights at once with {what}; inputs are groups of "
            f"{k} arrays per weight" + (", then lrs and wds." if preloaded else "."),
        )
    )


for _pre in (False, True):
    _p = "preloaded_" if _pre else ""
    _make(f"{_p}multi_sgd_update", 2, False, False, _pre)
    _make(f"{_p}multi_sgd_mom_update", 3, True, False, _pre)
    _make(f"{_p}multi_mp_sgd_update", 3, False, True, _pre)
    _make(f"{_p}multi_mp_sgd_mom_update", 4, True, True, _pre)


_SUMSQ_CHUNK = 1 << 16


def _sequential_sum_sq(t: torch.Tensor) -> torch.Tensor:
    """Sum of squares as MXNet's CPU kernel forms it: each square in the array's own dtype
    (a float16 square rounds to float16), added one after another into a float32
    accumulator. For large arrays this differs visibly from a pairwise sum (2M standard
    normals: 1996431.875 against 1998903.7), and gluonnlp's gradient norms print it.
    (float64 squares are rounded to float32 before each addition: MXNet adds them in double
    first, which can differ in the last bit.)"""
    x = t.detach().reshape(-1).numpy()
    carry = np.float32(0)
    buf = np.empty(min(x.size, _SUMSQ_CHUNK) + 1, np.float32)
    for i in range(0, x.size, _SUMSQ_CHUNK):
        chunk = x[i : i + _SUMSQ_CHUNK]
        n = chunk.size
        buf[0] = carry
        buf[1 : n + 1] = np.square(chunk)
        carry = np.add.accumulate(buf[: n + 1], dtype=np.float32)[-1]
    return torch.tensor(carry, dtype=torch.float32)


def _sum_sq(t: torch.Tensor) -> torch.Tensor:
    """One array's sum of squares (float32 scalar), as MXNet's ``multi_sum_sq`` forms it."""
    if t.device.type == "cpu" and t.dtype in (torch.float16, torch.float32, torch.float64):
        return _sequential_sum_sq(t)
    # MXNet's GPU kernel reduces in blocks (a tree), closer to a pairwise sum
    return t.float().square().sum()


def _multi_sum_sq(a, *tensors):
    return torch.stack([_sum_sq(t) for t in tensors])


register(
    OpDef(
        "multi_sum_sq",
        _multi_sum_sq,
        variadic="num_arrays",
        params=[Param("num_arrays", "int", doc="number of input arrays.")],
        doc="Sum of squares of each input array, as one float32 vector.",
    )
)


def _multi_lars(a, lrs, w_sq, g_sq, wds):
    w_norm = _exact_sqrt(w_sq)
    g_norm = _exact_sqrt(g_sq)
    scaled = lrs * a["eta"] * w_norm / (g_norm * a["rescale_grad"] + wds * w_norm + a["eps"])
    return torch.where((w_norm > 0) & (g_norm > 0), scaled, lrs)


register(
    OpDef(
        "multi_lars",
        _multi_lars,
        inputs=("lrs", "weights_sum_sq", "grads_sum_sq", "wds"),
        params=[
            Param("eta", "float", doc="LARS eta"),
            Param("eps", "float", doc="eps"),
            Param("rescale_grad", "float", 1.0, doc="Gradient rescaling factor"),
        ],
        infer_shape=lambda a, s: s,
        doc="LARS learning rates of several weights from their sums of squares.",
    )
)
