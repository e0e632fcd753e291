"""The native BatchNorm kernels of ``mxnet/_kernels/norm.c`` as PyTorch operators.

Each kernel is registered with :mod:`torch.library` as ``torch.ops.mxng.<name>`` with a
shape-only ("fake") implementation, so that ``torch.compile`` keeps it as one opaque call in
the graphs it compiles (the executor's compile switch) instead of breaking the graph at a
``ctypes`` call; eager code calls the same operators. The operators take float32 CPU arrays
in a plain layout (channels first, or channels last 4-D), return fresh arrays laid out as
their first argument, and the per-channel statistics and sums in float64.

Examples
--------
>>> import torch
>>> from mxnet._op import _norm_ops
>>> x = torch.randn(4, 8, 16, 16)
>>> if _norm_ops.ready():
...     mean, var = _norm_ops.call("bn_stats", x)
"""

from __future__ import annotations

import ctypes
import inspect

import torch

from .. import _kernels

__all__ = ["ready", "layout", "call"]

def ready() -> bool:
    """Whether the kernels are loaded (see :func:`mxnet._kernels.ready`)."""
    return _kernels.ready("norm")


def layout(x: torch.Tensor) -> tuple[int, int, int, int] | None:
    """``(N, C, S, channels_last)`` of a plainly laid out array, else ``None``."""
    n, c = x.shape[0], x.shape[1]
    s = x.numel() // max(n * c, 1)
    if x.is_contiguous():
        return n, c, s, int(x.dim() == 2)
    if x.dim() == 4 and x.is_contiguous(memory_format=torch.channels_last):
        return n, c, s, 1
    return None


def _plain(x: torch.Tensor) -> torch.Tensor:
    return x if layout(x) is not None else x.contiguous()


def _like(t: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """``t`` with the strides of ``x`` (copied only when they differ)."""
    return t if t.stride() == x.stride() else torch.empty_like(x).copy_(t)


def _p(t: torch.Tensor) -> ctypes.c_void_p:
    return ctypes.c_void_p(t.data_ptr())


def _lib():
    return _kernels.library("norm")


_P, _I, _N, _D = ctypes.c_void_p, ctypes.c_int64, ctypes.c_int, ctypes.c_double
# C signatures of the whole-pass kernels (set here on first use: the library loader knows
# only the per-pass ones)
def _fn(name: str):
    """The ``ctypes`` function ``name`` of the loaded library (its signature is set by
    :mod:`mxnet._kernels`)."""
    return getattr(_lib(), name)


_IMPLS: dict = {}


def _operator(name: str, out: str = "x", sums: bool = False):
    """Register the decorated function as ``torch.ops.mxng.<name>`` and keep the plain
    function for eager calls (:func:`call`). Its shape-only version for ``torch.compile``:
    an array laid out as the argument ``out`` (unless ``out`` is empty), then with ``sums``
    two float64 vectors over that argument's channels."""

    def wrap(fn):
        _IMPLS[name] = fn
        op = torch.library.custom_op(f"mxng::{name}", mutates_args=())(fn)
        sig = inspect.signature(fn)

        def fake(*args, **kwargs):
            like = sig.bind(*args, **kwargs).arguments[out or "x"]
            res = ((torch.empty_like(like),) if out else ()) + (
                _sums_fake(like.shape[1], like) if sums else ())
            return res[0] if len(res) == 1 else res

        op.register_fake(fake)
        return op

    return wrap


def call(name: str, *args):
    """Run operator ``name``: through ``torch.ops.mxng`` while ``torch.compile`` traces (an
    opaque call in its graph), else the plain function (the dispatcher's Python round trip
    costs ~0.1 ms a call)."""
    if torch.compiler.is_compiling():
        return getattr(torch.ops.mxng, name)(*args)
    return _IMPLS[name](*args)


def _sums_fake(c: int, x: torch.Tensor):
    return x.new_empty(c, dtype=torch.float64), x.new_empty(c, dtype=torch.float64)


@_operator("bn_stats", out="", sums=True)
def bn_stats(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Batch mean and biased variance per channel (dim 1), float64."""
    x = _plain(x)
    n, c, s, cl = layout(x)
    mean, var = _sums_fake(c, x)
    _lib().mxng_bn_stats(_p(x), n, c, s, cl, _p(mean), _p(var), _kernels.threads())
    return mean, var



@_operator("bn_apply")
def bn_apply(x: torch.Tensor, a: torch.Tensor, b: torch.Tensor, relu: bool) -> torch.Tensor:
    """``x * a[c] + b[c]``, then ``max(., 0)`` with ``relu``."""
    x = _plain(x)
    n, c, s, cl = layout(x)
    y = torch.empty_like(x)
    _lib().mxng_bn_apply(_p(x), _p(y), n, c, s, cl, _p(a), _p(b), int(relu),
                         _kernels.threads())
    return y



@_operator("bn_apply_add_relu")
def bn_apply_add_relu(x: torch.Tensor, z: torch.Tensor, a: torch.Tensor,
                      b: torch.Tensor) -> torch.Tensor:
    """``max(x * a[c] + b[c] + z, 0)``."""
    x = _plain(x)
    z = _like(z, x)
    n, c, s, cl = layout(x)
    y = torch.empty_like(x)
    _lib().mxng_bn_apply_add_relu(_p(x), _p(z), _p(y), n, c, s, cl, _p(a), _p(b),
                                  _kernels.threads())
    return y



@_operator("bn_grad_sums", out="", sums=True)
def bn_grad_sums(gy: torch.Tensor, x: torch.Tensor, mean: torch.Tensor, a: torch.Tensor,
                 b: torch.Tensor, relu: bool) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-channel sums of ``dyr`` and ``dyr * (x - mean)``, ``dyr`` the output gradient
    masked where the relu (recomputed from ``x, a, b``) was not positive."""
    x = _plain(x)
    gy = _like(gy, x)
    n, c, s, cl = layout(x)
    sdy, sdyx = _sums_fake(c, x)
    _lib().mxng_bn_grad_sums(_p(gy), _p(x), n, c, s, cl, _p(mean), _p(a), _p(b), int(relu),
                             _p(sdy), _p(sdyx), _kernels.threads())
    return sdy, sdyx



@_operator("bn_grad_sums_relu_out", sums=True)
def bn_grad_sums_relu_out(gy: torch.Tensor, y: torch.Tensor, x: torch.Tensor,
                          mean: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``dz`` = ``gy`` where ``y > 0`` else 0 (a relu's input gradient for its output ``y``),
    and the sums of :func:`bn_grad_sums` over ``dz``."""
    x = _plain(x)
    gy, y = _like(gy, x), _like(y, x)
    n, c, s, cl = layout(x)
    dz = torch.empty_like(x)
    sdy, sdyx = _sums_fake(c, x)
    _lib().mxng_bn_grad_sums_relu_out(_p(gy), _p(y), _p(dz), _p(x), n, c, s, cl, _p(mean),
                                      _p(sdy), _p(sdyx), _kernels.threads())
    return dz, sdy, sdyx



@_operator("bn_grad_apply")
def bn_grad_apply(gy: torch.Tensor, x: torch.Tensor, big_a: torch.Tensor, big_b: torch.Tensor,
                  big_d: torch.Tensor, a: torch.Tensor, b: torch.Tensor,
                  relu: bool) -> torch.Tensor:
    """``dx = dyr * A[c] + x * B[c] + D[c]`` (``dyr`` as in :func:`bn_grad_sums`)."""
    x = _plain(x)
    gy = _like(gy, x)
    n, c, s, cl = layout(x)
    dx = torch.empty_like(x)
    _lib().mxng_bn_grad_apply(_p(gy), _p(x), _p(dx), n, c, s, cl, _p(big_a), _p(big_b),
                              _p(big_d), _p(a), _p(b), int(relu), _kernels.threads())
    return dx


def _fwd_fake(x, z, gamma, beta, eps, fixed, relu):
    c = x.shape[1]
    f = x.new_empty
    return (torch.empty_like(x), f(c), f(c), f(2 * c), f(2 * c, dtype=torch.float64))


def _bwd_fake(gy, x, ym, gamma, fixed, relu, mean, ab, st, need_dx):
    c = x.shape[1]
    return (torch.empty_like(x) if need_dx else x.new_empty(0), x.new_empty(c),
            x.new_empty(c), torch.empty_like(x) if ym is not None else x.new_empty(0))


def _whole(name: str, fake):
    """Register the decorated function as ``torch.ops.mxng.<name>`` with the shape-only
    ``fake`` (as :func:`_operator`)."""

    def wrap(fn):
        _IMPLS[name] = fn
        op = torch.library.custom_op(f"mxng::{name}", mutates_args=())(fn)
        op.register_fake(fake)
        return op

    return wrap


def _lay(x: torch.Tensor) -> tuple[torch.Tensor, tuple[int, int, int, int]]:
    """``x`` in a plain layout (copied only when it is not) and its :func:`layout`."""
    lay = layout(x)
    if lay is None:
        x = x.contiguous()
        lay = layout(x)
    return x, lay


# the whole-pass operators below pass pointers as plain ints (ctypes converts them by the
# signature): a few microseconds a call, which matters for the many small layers of a net


@_whole("bn_fwd", _fwd_fake)
def bn_fwd(x: torch.Tensor, z: torch.Tensor | None, gamma: torch.Tensor, beta: torch.Tensor,
           eps: float, fixed: bool, relu: bool
           ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """The whole training forward pass: ``(y, mean, var, ab, st)``: ``y = x * a + b`` (then
    relu; with the residual ``z``: ``max(x * a + b + z, 0)``), the float32 batch mean and
    biased variance, ``ab`` = ``a, b`` (2 x C) and ``st`` = the float64 mean and inverse
    std (2 x C)."""
    x, (n, c, s, cl) = _lay(x)
    if z is not None:
        z = _like(z, x)
    y = torch.empty_like(x)
    mean, var, ab = x.new_empty(c), x.new_empty(c), x.new_empty(2 * c)
    st = x.new_empty(2 * c, dtype=torch.float64)
    gamma, beta = gamma.contiguous(), beta.contiguous()  # held until the call returns
    _fn("mxng_bn_fwd")(x.data_ptr(), z.data_ptr() if z is not None else None, y.data_ptr(),
                       n, c, s, cl, gamma.data_ptr(), beta.data_ptr(), eps, fixed, relu,
                       mean.data_ptr(), var.data_ptr(), ab.data_ptr(), st.data_ptr(),
                       _kernels.threads())
    return y, mean, var, ab, st


@_whole("bn_bwd", _bwd_fake)
def bn_bwd(gy: torch.Tensor, x: torch.Tensor, ym: torch.Tensor | None, gamma: torch.Tensor,
           fixed: bool, relu: bool, mean: torch.Tensor, ab: torch.Tensor, st: torch.Tensor,
           need_dx: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """The whole backward pass for what :func:`bn_fwd` returned (``mean, ab, st``):
    ``(dx, dgamma, dbeta, dz)``. ``ym``: the output of a relu after the normalization
    (``gy`` is then that relu's output gradient and ``dz`` the gradient through it; else
    ``dz`` is empty); ``relu``: the relu fused in :func:`bn_fwd`. ``dx`` is empty unless
    ``need_dx``."""
    x, (n, c, s, cl) = _lay(x)
    gy = _like(gy, x)
    dx = torch.empty_like(x) if need_dx else x.new_empty(0)
    if ym is not None:
        ym = _like(ym, x)
        dz = torch.empty_like(x)
    else:
        dz = x.new_empty(0)
    dgamma, dbeta = x.new_empty(c), x.new_empty(c)
    gamma = gamma.contiguous()  # held until the call returns
    _fn("mxng_bn_bwd")(gy.data_ptr(), x.data_ptr(), ym.data_ptr() if ym is not None else None,
                       dz.data_ptr() if ym is not None else None,
                       dx.data_ptr() if need_dx else None, n, c, s, cl, gamma.data_ptr(),
                       fixed, relu, mean.data_ptr(), ab.data_ptr(), st.data_ptr(),
                       dgamma.data_ptr(), dbeta.data_ptr(), _kernels.threads())
    return dx, dgamma, dbeta, dz
