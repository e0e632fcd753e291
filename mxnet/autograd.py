"""Automatic differentiation in MXNet's style, on top of ``torch.autograd``.

``record()`` turns graph recording on; ``attach_grad`` marks arrays as variables whose
gradient buffers ``backward`` writes (``grad_req='write'``) or adds into (``'add'``).

Examples
--------
>>> import mxnet as mx
>>> x = mx.nd.array([1., 2., 3.])
>>> x.attach_grad()
>>> with mx.autograd.record():
...     y = (x * x).sum()
>>> y.backward()
>>> x.grad.asnumpy().tolist()
[2.0, 4.0, 6.0]
"""

from __future__ import annotations

import weakref

import torch

from ._op._state import state
from .base import MXNetError

__all__ = ["record", "pause", "train_mode", "predict_mode", "is_recording", "is_training",
           "set_recording", "set_training", "mark_variables", "backward", "grad", "Function",
           "get_symbol"]

_variables: weakref.WeakSet = weakref.WeakSet()


def set_recording(is_recording: bool) -> bool:
    """Set recording on or off; return the previous state."""
    prev = state.is_recording
    state.is_recording = bool(is_recording)
    torch.set_grad_enabled(bool(is_recording))
    return prev


def set_training(train_mode: bool) -> bool:
    """Set the training flag (Dropout, BatchNorm); return the previous state."""
    prev = state.is_train
    state.is_train = bool(train_mode)
    return prev


def is_recording() -> bool:
    return state.is_recording


def is_training() -> bool:
    return state.is_train


class _RecordingStateScope:
    """Scope that sets recording/training flags and restores them on exit."""

    def __init__(self, is_record, train_mode):
        self._enter_is_record = is_record
        self._enter_train_mode = train_mode
        self._prev_is_record = None
        self._prev_train_mode = None
        self._prev_grad = None

    def __enter__(self):
        self._prev_grad = torch.is_grad_enabled()
        if self._enter_is_record is not None:
            self._prev_is_record = set_recording(self._enter_is_record)
        if self._enter_train_mode is not None:
            self._prev_train_mode = set_training(self._enter_train_mode)
        return self

    def __exit__(self, ptype, value, trace):
        if self._enter_is_record is not None:
            state.is_recording = self._prev_is_record
        if self._enter_train_mode is not None:
            state.is_train = self._prev_train_mode
        torch.set_grad_enabled(self._prev_grad)


def record(train_mode: bool = True):
    """Scope in which operations are recorded for differentiation."""
    return _RecordingStateScope(True, train_mode)


def pause(train_mode: bool = False):
    """Scope in which recording is suspended."""
    return _RecordingStateScope(False, train_mode)


def train_mode():
    """Scope with the training flag on (recording unchanged)."""
    return _RecordingStateScope(None, True)


def predict_mode():
    """Scope with the training flag off (recording unchanged)."""
    return _RecordingStateScope(None, False)


def _as_list(x):
    if x is None:
        return None
    return list(x) if isinstance(x, (list, tuple)) else [x]


def mark_variables(variables, gradients, grad_reqs="write") -> None:
    """Mark NDArrays as variables with gradient buffers ``gradients``."""
    variables = _as_list(variables)
    gradients = _as_list(gradients)
    if isinstance(grad_reqs, str):
        grad_reqs = [grad_reqs] * len(variables)
    if len(variables) != len(gradients) or len(variables) != len(grad_reqs):
        raise MXNetError("mark_variables: variables, gradients and grad_reqs must have the "
                         "same length")
    for v, g, req in zip(variables, gradients, grad_reqs):
        if req not in ("write", "add", "null"):
            raise MXNetError(f"grad_req must be one of 'write', 'add', 'null', got {req!r}")
        t = v._t
        if req != "null" and not (t.is_floating_point() or t.is_complex()):
            raise MXNetError(f"attach_grad: cannot differentiate an array of dtype {t.dtype}")
        if not t.is_leaf or t.requires_grad != (req != "null"):
            t = t.detach()
            if req != "null":
                t.requires_grad_(True)
            v._t = t
        v._grad = g
        v._grad_req = req
        v._marked = True
        _variables.add(v)


def _head_grads(heads, head_grads):
    out = []
    for i, h in enumerate(heads):
        g = None if head_grads is None else head_grads[i]
        if g is None:
            out.append(torch.ones_like(h._t))
        else:
            out.append(g._t.to(h._t.dtype) if hasattr(g, "_t") else torch.as_tensor(g))
    return out


def _check_heads(heads):
    for h in heads:
        if not h._t.requires_grad:
            raise MXNetError(
                "Cannot differentiate node because it is not in a computational graph. "
                "You need to set is_recording to true or use autograd.record() to save "
                "computational graphs for backward. If you want to differentiate the same "
                "graph twice, you need to pass retain_graph=True to backward.")


def backward(heads, head_grads=None, retain_graph: bool = False, train_mode: bool = True):
    """Compute gradients of ``heads`` and store them in the marked variables' buffers."""
    heads = _as_list(heads)
    head_grads = _as_list(head_grads)
    _check_heads(heads)
    variables = [v for v in list(_variables) if v._grad_req != "null" and v._t.requires_grad]
    if not variables:
        return
    prev = set_training(train_mode)
    try:
        grads = torch.autograd.grad([h._t for h in heads], [v._t for v in variables],
                                    _head_grads(heads, head_grads),
                                    retain_graph=retain_graph, allow_unused=True)
    except RuntimeError as e:
        raise MXNetError(f"backward failed: {e}") from None
    finally:
        state.is_train = prev
    with torch.no_grad():
        for v, g in zip(variables, grads):
            if g is None:
                continue
            buf = v._grad._t
            if v._grad_req == "add":
                buf.add_(g)
            else:
                buf.copy_(g)


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph: bool = False,
         train_mode: bool = True):
    """Return the gradients of ``heads`` with respect to ``variables`` (no buffers written).

    With ``create_graph=True`` the result can be differentiated again.
    """
    from .ndarray.ndarray import NDArray

    single = not isinstance(variables, (list, tuple))
    heads = _as_list(heads)
    variables = _as_list(variables)
    head_grads = _as_list(head_grads)
    _check_heads(heads)
    if retain_graph is None:
        retain_graph = create_graph
    for v in variables:
        if not v._t.requires_grad:
            raise MXNetError("grad: every variable must have been marked with attach_grad()")
    prev = set_training(train_mode)
    try:
        with torch.enable_grad():
            res = torch.autograd.grad([h._t for h in heads], [v._t for v in variables],
                                      _head_grads(heads, head_grads), retain_graph=retain_graph,
                                      create_graph=create_graph, allow_unused=True)
    except RuntimeError as e:
        raise MXNetError(f"grad failed: {e}") from None
    finally:
        state.is_train = prev
    out = [NDArray._wrap(r if r is not None else torch.zeros_like(v._t), v._ctx)
           for r, v in zip(res, variables)]
    return out[0] if single and len(out) == 1 else out


def get_symbol(x):
    """Recorded-graph retrieval is not available: torch autograd keeps no MXNet Symbol."""
    raise MXNetError("autograd.get_symbol is not supported: the recorded graph is held by "
                     "torch.autograd and has no Symbol form; use HybridBlock.export instead")


class _TorchBridge(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, *tensors):
        from .ndarray.ndarray import NDArray

        ctx.fn = fn
        with pause(train_mode=state.is_train):
            outs = fn.forward(*[NDArray._wrap(t, fn._ctx) for t in tensors])
        fn._single = not isinstance(outs, (list, tuple))
        outs = [outs] if fn._single else list(outs)
        return tuple(o._t for o in outs)

    @staticmethod
    def backward(ctx, *grads):
        from .ndarray.ndarray import NDArray

        fn = ctx.fn
        with pause(train_mode=state.is_train):
            res = fn.backward(*[NDArray._wrap(g.contiguous(), fn._ctx) for g in grads])
        res = [res] if not isinstance(res, (list, tuple)) else list(res)
        return (None, *[r._t if r is not None else None for r in res])


class Function:
    """User-defined differentiable function with custom ``forward`` and ``backward``.

    Examples
    --------
    >>> class Sigmoid(mx.autograd.Function):
    ...     def forward(self, x):
    ...         y = 1 / (1 + mx.nd.exp(-x))
    ...         self.save_for_backward(y)
    ...         return y
    ...     def backward(self, dy):
    ...         y, = self.saved_tensors
    ...         return dy * y * (1 - y)
    """

    def __init__(self):
        self._used = False
        self.saved_tensors = ()
        self._ctx = None
        self._single = True

    def save_for_backward(self, *args):
        self.saved_tensors = args

    def forward(self, *inputs):
        raise MXNetError(f"{type(self).__name__} must define forward()")

    def backward(self, *output_grads):
        raise MXNetError(f"{type(self).__name__} must define backward()")

    def __call__(self, *inputs):
        from .ndarray.ndarray import NDArray

        if self._used:
            raise MXNetError("Each autograd.Function object can only be called once")
        self._used = True
        self._ctx = inputs[0]._ctx if inputs else None
        outs = _TorchBridge.apply(self, *[x._t for x in inputs])
        res = [NDArray._wrap(o, self._ctx) for o in outs]
        return res[0] if self._single else res
