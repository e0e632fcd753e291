"""Inference-time fusion of convolution chains on CPU (oneDNN), like MXNet's MKLDNN backend.

In a forward pass with ``is_train=False`` and no gradient wanted, the chains

    Convolution [-> BatchNorm] [-> relu]
    Convolution [-> BatchNorm] -> add(other) -> relu        (residual units)

run as one oneDNN convolution whose weights are prepacked once with the BatchNorm folded in
(``w * gamma / sqrt(var + eps)``, ``beta - mean * gamma / sqrt(var + eps)``) and whose relu
and residual addition are fused post-ops (3x3 convolutions the Winograd route of
:mod:`mxnet._op._conv_wino` takes run its kernel, with the bias, residual and relu applied in
its output transform). The packed weights are cached per input shape and
recomputed whenever a weight, bias or BatchNorm array changes (tensor version counters), so
training between evaluations is seen. Anything outside the fast path (GPU, other dtypes,
mismatched shapes) runs the original steps unchanged. ``MXNET_NG_FUSE=0`` turns it off.
"""

from __future__ import annotations

import functools
import os

import torch

from .._op import _conv_wino, _relu

# bumped by writes that bypass torch's version counter (setitem, Parameter.set_data)
from ..ndarray._indexing import UNTRACKED_WRITES as WRITES

__all__ = ["fuse_inference_steps", "fusion_enabled"]

_ADD_OPS = ("elemwise_add", "broadcast_add")
# ops whose output is always a fresh tensor (never a view or an alias of an input): a
# residual operand produced by one of them may be overwritten in place once nobody reads it
_FRESH_OPS = (
    "Convolution",
    "BatchNorm",
    "Activation",
    "relu",
    "elemwise_add",
    "broadcast_add",
    "Pooling",
    "LeakyReLU",
)


@functools.lru_cache(maxsize=1)
def _onednn_ops() -> bool:
    return torch.backends.mkldnn.is_available() and hasattr(
        torch.ops.mkldnn, "_convolution_pointwise"
    )


def fusion_enabled() -> bool:
    """Whether graph fusion is on (``MXNET_NG_FUSE=0`` turns it off)."""
    if os.environ.get("MXNET_NG_FUSE", "1") in ("0", "false", "False"):
        return False
    return _onednn_ops()


def _is_relu(node) -> bool:
    name = node.op.name
    return name == "relu" or (name == "Activation" and node.parsed.get("act_type") == "relu")


def _pair(v, default: int) -> list[int]:
    v = tuple(v or ())
    return [int(x) for x in v] if len(v) == 2 else [default, default]


class _FusedConv:
    """The compute of one fused chain (a step: ``compute(attrs, *tensors)``)."""

    def __init__(
        self, conv, has_bias: bool, bn, act: bool, add: bool, inplace: bool, original: list
    ):
        a = conv.parsed
        self.pad = _pair(a.get("pad"), 0)
        self.stride = _pair(a.get("stride"), 1)
        self.dilate = _pair(a.get("dilate"), 1)
        self.groups = int(a.get("num_group") or 1)
        self.has_bias = has_bias
        self.bn = bn  # (eps, fix_gamma) or None
        self.act = act
        self.add = add
        self.inplace = inplace
        self.original = original  # [(compute, attrs, local input positions)] fallback
        self._cache: dict = {}

    def _params(self, ts):
        n = 2 + self.has_bias
        return ts[1:n], (ts[n : n + 4] if self.bn else ())

    def _packed(self, x, ts, wino: bool = False):
        """The weight packed for oneDNN (or transformed for the Winograd kernel) and the
        bias, BatchNorm folded in; cached per input shape until a parameter changes."""
        (w, *b), bn = self._params(ts)
        key = (tuple(x.shape), wino)
        stamp = (WRITES[0], *((t.data_ptr(), t._version) for t in (w, *b, *bn)))
        hit = self._cache.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1], hit[2]
        bias = b[0] if b else None
        if self.bn:
            gamma, beta, mean, var = bn
            eps, fix_gamma = self.bn
            scale = torch.rsqrt(var + eps)
            if not fix_gamma:
                scale = scale * gamma
            w = w * scale.reshape(-1, 1, 1, 1)
            shift = bias - mean if bias is not None else -mean
            bias = shift * scale + beta
        if wino:
            packed = _conv_wino.weights(w.contiguous())
        else:
            packed = torch._C._nn.mkldnn_reorder_conv2d_weight(
                w.contiguous().to_mkldnn(),
                self.pad,
                self.stride,
                self.dilate,
                self.groups,
                list(x.shape),
            )
        bias = bias.contiguous() if bias is not None else None
        if len(self._cache) >= 4:
            self._cache.clear()
        self._cache[key] = (stamp, packed, bias)
        return packed, bias

    def _fast_ok(self, x, ts) -> bool:
        if x.device.type != "cpu" or x.dim() != 4:
            return False
        return all(t.dtype == torch.float32 and t.device.type == "cpu" for t in ts)

    def __call__(self, attrs, *ts):
        x = ts[0]
        if not self._fast_ok(x, ts):
            return self._slow(ts)
        w = ts[1]
        if _conv_wino.applies(x, w, self.stride, self.pad, self.dilate, self.groups):
            # Winograd kernel with bias, residual and relu in its output transform
            u, bias = self._packed(x, ts, wino=True)
            other = ts[-1] if self.add else None
            if other is not None and tuple(other.shape) != (x.shape[0], w.shape[0], *x.shape[2:]):
                return self._slow(ts)
            out = _conv_wino.forward(x, u, bias, other, self.act)
            if out is not None:
                return out  # else non-finite values: oneDNN's direct sums below
        packed, bias = self._packed(x, ts)
        args = (self.pad, self.stride, self.dilate, self.groups)
        if not self.add:
            return torch.ops.mkldnn._convolution_pointwise(
                x, packed, bias, *args, "relu" if self.act else "none", [], ""
            )
        other = ts[-1]
        if not self.inplace or other._base is not None:
            other = other.clone()
        try:
            return torch.ops.mkldnn._convolution_pointwise_.binary(
                other, x, packed, bias, *args, "add", None, "relu" if self.act else None, [], None
            )
        except RuntimeError:  # shapes that do not match exactly (broadcast add)
            return self._slow(ts)

    def _slow(self, ts):
        vals = list(ts)
        out = None
        for compute, attrs, pos in self.original:
            r = compute(attrs, *[vals[i] if i >= 0 else out for i in pos])
            out = r if isinstance(r, torch.Tensor) else r[0]
        return out


def fuse_inference_steps(steps: list, heads: list[int], keep: set[int]) -> list | None:
    """Steps with conv chains fused, or ``None`` when nothing can be fused.

    ``heads`` are the output slots, ``keep`` the slots never freed (arguments, aux states,
    outputs).
    """
    readers: dict[int, list[int]] = {}
    producer: dict[int, int] = {}
    for k, (_c, _a, ins, outs, _f, _n) in enumerate(steps):
        for s in ins:
            readers.setdefault(s, []).append(k)
        for s in outs:
            producer[s] = k
    head_set = set(heads)

    used: set[int] = set()  # steps already inside a fused chain

    def sole_reader(slot):
        r = readers.get(slot, [])
        if slot in head_set or len(r) != 1 or r[0] in used:
            return None
        return r[0]

    drop: set[int] = set()
    replace: dict[int, tuple] = {}
    for k, (compute, attrs, ins, outs, _frees, node) in enumerate(steps):
        if node.op.name != "Convolution" or k in used:
            continue
        a = node.parsed
        if len(tuple(a.get("kernel") or ())) != 2 or a.get("layout") not in (None, "NCHW"):
            continue
        has_bias = not a.get("no_bias")
        chain = [k]
        fused_ins = list(ins)  # conv inputs, then BatchNorm's four, then the residual
        original = [(compute, attrs, list(range(len(ins))))]
        cur = outs[0]
        bn = None
        j = sole_reader(cur)
        if j is not None and steps[j][5].op.name == "BatchNorm":
            b = steps[j][5].parsed
            other_outs = steps[j][3][1:]
            if (
                steps[j][2][0] == cur
                and int(b.get("axis", 1)) == 1
                and not b.get("output_mean_var")
                and all(not readers.get(o) and o not in head_set for o in other_outs)
            ):
                bn = (float(b.get("eps", 1e-3)), bool(b.get("fix_gamma", True)))
                pos = [-1] + list(range(len(fused_ins), len(fused_ins) + 4))
                fused_ins += steps[j][2][1:5]
                original.append((steps[j][0], steps[j][1], pos))
                chain.append(j)
                cur = steps[j][3][0]
                j = sole_reader(cur)
        act = add = inplace = False
        if j is not None and _is_relu(steps[j][5]):
            original.append((steps[j][0], steps[j][1], [-1]))
            chain.append(j)
            cur = steps[j][3][0]
            act = True
        elif j is not None and steps[j][5].op.name in _ADD_OPS:
            aj = steps[j]
            other = aj[2][1] if aj[2][0] == cur else aj[2][0]
            r = sole_reader(aj[3][0])
            if other != cur and r is not None and _is_relu(steps[r][5]) and other in producer:
                add = act = True
                prod = steps[producer[other]][5]
                # the residual may be overwritten when it is a fresh tensor nobody reads later
                inplace = prod.op.name in _FRESH_OPS and other not in keep and other in aj[4]
                pos = [-1, len(fused_ins)] if aj[2][0] == cur else [len(fused_ins), -1]
                fused_ins.append(other)
                original.append((aj[0], aj[1], pos))
                original.append((steps[r][0], steps[r][1], [-1]))
                chain += [j, r]
                cur = steps[r][3][0]
        fused = _FusedConv(node, has_bias, bn, act, add, inplace, original)
        last = max(chain)
        replace[last] = (fused, attrs, tuple(fused_ins), (cur,), (), node)
        drop.update(c for c in chain if c != last)
        used.update(chain)
    if not replace:
        return None
    return _refree([replace.get(k, st) for k, st in enumerate(steps) if k not in drop], keep)


def _refree(steps: list, keep: set[int]) -> list:
    """Recompute which slots each step frees: a fused step runs later than the convolution
    it replaces, so its inputs must live until then."""
    last: dict[int, int] = {}
    for k, st in enumerate(steps):
        for s in st[2]:
            last[s] = k
    frees: dict[int, list[int]] = {}
    for s, k in last.items():
        if s not in keep:
            frees.setdefault(k, []).append(s)
    out = []
    for k, (compute, attrs, ins, outs, _f, node) in enumerate(steps):
        unread = [o for o in outs if o not in last and o not in keep]
        out.append((compute, attrs, ins, outs, tuple(frees.get(k, []) + unread), node))
    return out


# producers whose backward does not read their output: a relu right after them may overwrite
# that output in place under autograd too
_NO_SAVED_OUTPUT = ("Convolution", "FullyConnected", "BatchNorm", "elemwise_add", "broadcast_add")


def _relu_inplace(attrs, x):  # Activation(relu): NaN gives 0, as MXNet's oneDNN relu
    return _relu.relu_(x, keep_nan=False)


def _relu_op_inplace(attrs, x):  # the relu operator keeps NaN
    return _relu.relu_(x, keep_nan=True)


def inplace_relu_steps(steps: list, keep: set[int]) -> list | None:
    """Steps where a relu whose input is read by nobody else overwrites that input instead
    of allocating (conv/dense/BatchNorm outputs only: their gradients do not need them).
    ``None`` when no step changes."""
    producer: dict[int, tuple] = {}
    nreads: dict[int, int] = {}
    for st in steps:
        for s in st[3]:
            producer[s] = st
        for s in st[2]:
            nreads[s] = nreads.get(s, 0) + 1
    out, changed = [], False
    for st in steps:
        compute, attrs, ins, outs, frees, node = st
        if (
            _is_relu(node)
            and len(ins) == 1
            and nreads.get(ins[0]) == 1
            and ins[0] in frees
            and ins[0] not in keep
            and ins[0] in producer
            and producer[ins[0]][5].op.name in _NO_SAVED_OUTPUT
            and producer[ins[0]][3][0] == ins[0]
        ):
            fn = _relu_op_inplace if node.op.name == "relu" else _relu_inplace
            st = (fn, attrs, ins, outs, frees, node)
            changed = True
        out.append(st)
    return out if changed else None


def _relu_out(attrs, x):
    return _relu.relu(x, keep_nan=False)


def _relu_op_out(attrs, x):
    return _relu.relu(x, keep_nan=True)


def _is_max_pool(node) -> bool:
    return node.op.name == "Pooling" and node.parsed.get("pool_type", "max") == "max"


def pool_before_relu_steps(steps: list, keep: set[int]) -> list | None:
    """Steps where ``relu -> max Pooling`` runs as ``max Pooling -> relu``: the same values
    (relu is monotonic) and the same gradients (the window's first maximum is the same
    element before and after relu, and windows whose maximum is not positive get no gradient
    either way), with relu on the pooled, smaller array. ``None`` when nothing changes."""
    nreads: dict[int, int] = {}
    for st in steps:
        for s in st[2]:
            nreads[s] = nreads.get(s, 0) + 1
    reader_of: dict[int, int] = {}
    for k, st in enumerate(steps):
        for s in st[2]:
            reader_of[s] = k
    out = list(steps)
    changed = False
    for k, st in enumerate(steps):
        compute, attrs, ins, outs, frees, node = st
        if not (_is_relu(node) and len(ins) == 1 and len(outs) == 1):
            continue
        mid = outs[0]
        j = reader_of.get(mid)
        if (
            j is None
            or nreads.get(mid) != 1
            or mid in keep
            or nreads.get(ins[0]) != 1
            or ins[0] in keep
            or not _is_max_pool(steps[j][5])
            or len(steps[j][2]) != 1
            or len(steps[j][3]) != 1
        ):
            continue
        pc, pa, _pins, pouts, _pf, pnode = steps[j]
        out[k] = (pc, pa, ins, (mid,), (), pnode)
        out[j] = (_relu_op_out if node.op.name == "relu" else _relu_out, attrs, (mid,), pouts,
                  (), node)
        changed = True
    return _refree(out, keep) if changed else None
