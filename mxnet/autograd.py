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

from . import _deferred, _freed, _graph_grads, _int_grad
from ._op._state import state
from .base import MXNetError

# NDArray resolves lazily through the module __getattr__ below
__all__ = ["NDArray", "record", "pause", "train_mode", "predict_mode",  # noqa: F822
           "is_recording", "is_training",
           "set_recording", "set_training", "mark_variables", "backward", "grad", "Function",
           "get_symbol"]


def set_recording(is_recording: bool) -> bool:
    """Set recording on or off; return the previous state.

    Recording turns torch's grad mode on. Turning recording off leaves torch's grad mode
    at its default (on): outside recording every mxnet-ng operator already runs without
    building a graph, and other torch code in the process keeps working.
    """
    prev = state.is_recording
    state.is_recording = bool(is_recording)
    if is_recording or not torch.is_grad_enabled():
        torch.set_grad_enabled(True)
    return prev


def set_training(train_mode: bool) -> bool:
    """Set the training flag (Dropout, BatchNorm); return the previous state."""
    prev = state.is_train
    state.is_train = bool(train_mode)
    return prev


def is_recording() -> bool:
    """Whether operations are being recorded (inside ``record()``)."""
    return state.is_recording


def is_training() -> bool:
    """Whether the training flag is on (Dropout active, BatchNorm uses batch statistics)."""
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
    """Scope in which operations are recorded for differentiation.

    Examples
    --------
    >>> with mx.autograd.record():
    ...     print(mx.autograd.is_recording(), mx.autograd.is_training())
    True True
    """
    return _RecordingStateScope(True, train_mode)


def pause(train_mode: bool = False):
    """Scope in which recording is suspended.

    Examples
    --------
    >>> with mx.autograd.record():
    ...     with mx.autograd.pause():
    ...         print(mx.autograd.is_recording())
    False
    """
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


_GRAD_REQS = {"null": 0, "write": 1, "add": 3}
_NOT_IN_GRAPH = (
    "Check failed: !AGInfo: :IsNone(*i): "
    "Cannot differentiate node because it is not in a computational graph. You need to set "
    "is_recording to true or use autograd.record() to save computational graphs for "
    "backward. If you want to differentiate the same graph twice, you need to pass "
    "retain_graph=True to backward.")
_NO_INPUTS = "There are no inputs in computation graph that require gradients."
_fired = [0]  # gradient buffers written during the current backward


def _make_hook(vref):
    """Post-accumulate hook: move the leaf's ``.grad`` into the MXNet gradient buffer."""

    def hook(t: torch.Tensor) -> None:
        g = t.grad
        t.grad = None
        v = vref()
        if v is None or g is None:
            return
        _fired[0] += 1
        _graph_grads.WRITTEN.add(id(v))
        if v._grad is None or (v._t is not t and getattr(v._t, "_mx_leaf", None) is not t):
            return  # re-attached since the graph was recorded
        v._fresh = 1
        garr = v._grad
        if getattr(garr, "_sdata", None) is not None:  # a sparse gradient buffer
            with torch.no_grad():
                new = garr._dense() + g if v._grad_req == "add" else g
                garr._set_from_dense(new.detach().to(garr._sdata.dtype))
            return
        if _bwd_box[0] is not None:  # the heads carry a run-time failure (_deferred)
            garr._exc = _bwd_box[0]
        buf = garr._t
        if g.dtype != buf.dtype:  # an integer variable's float64 shadow gradient
            g = g.to(buf.dtype)
        with torch.no_grad():
            if v._grad_req == "add":
                buf.add_(g)
            else:
                buf.copy_(g)
        cb = getattr(v, "_on_grad", None)
        if cb is not None:  # e.g. a dist_sync Trainer starting this gradient's reduction
            cb()

    return hook


def mark_variables(variables, gradients, grad_reqs="write") -> None:
    """Mark NDArrays as variables whose gradients ``backward`` stores in ``gradients``.

    Examples
    --------
    >>> x = mx.nd.array([1., 2.]); gx = mx.nd.zeros((2,))
    >>> mx.autograd.mark_variables([x], [gx])
    >>> with mx.autograd.record():
    ...     y = x * 5
    >>> y.backward(); gx.asnumpy().tolist()
    [5.0, 5.0]
    """
    variables = _as_list(variables)
    gradients = _as_list(gradients)
    if isinstance(grad_reqs, str):
        grad_reqs = [grad_reqs] * len(variables)
    if len(variables) != len(gradients) or len(variables) != len(grad_reqs):
        raise MXNetError("mark_variables: variables, gradients and grad_reqs must have the "
                         "same length")
    for v, g, req in zip(variables, gradients, grad_reqs):
        if req not in _GRAD_REQS:
            raise KeyError(req)
        t = v._t.detach()
        if req == "null":
            # MXNet keeps a 'null' variable in the graph and clears its gradient
            # buffer (grad becomes None) once a backward pass goes through it
            leaf = t.requires_grad_(True) if t.is_floating_point() or t.is_complex() \
                else _int_grad.make_leaf(t)
            leaf.register_post_accumulate_grad_hook(_make_null_hook(weakref.ref(v)))
        elif req != "null" and (t.is_floating_point() or t.is_complex()):
            t.requires_grad_(True)
            t.register_post_accumulate_grad_hook(_make_hook(weakref.ref(v)))
        elif req != "null":  # integers: a float64 shadow leaf carries the graph
            _int_grad.make_leaf(t).register_post_accumulate_grad_hook(
                _make_hook(weakref.ref(v)))
        v._t = t
        v._grad = g
        v._grad_req = req
        v._marked = True
        v._fresh = 0
        _name_variable(v, t)


# id(variable tensor) -> (weak reference, the name get_symbol shows: var<N>, numbered when
# marked); tensors compare element-wise, so they are keyed by identity
_VAR_NAMES: dict[int, tuple] = {}


def _var_name(t: torch.Tensor) -> str | None:
    hit = _VAR_NAMES.get(id(t))
    return hit[1] if hit is not None and hit[0]() is t else None


def _name_variable(v, t: torch.Tensor) -> None:
    from .ndarray._invoke import Leaf, next_leaf_name

    name = next_leaf_name("var")
    key = id(t)
    _VAR_NAMES[key] = (weakref.ref(t, lambda _r, k=key: _VAR_NAMES.pop(k, None)), name)
    try:
        v._prov = Leaf(name)
    except AttributeError:  # arrays without provenance slots
        pass


class _GradRecord:
    """Provenance of a gradient computed with ``create_graph=True``: ``get_symbol`` shows
    a backward node reading the head gradients and the variables it depends on."""

    __slots__ = ("nheads", "grad")

    def __init__(self, nheads: int, grad: torch.Tensor):
        self.nheads, self.grad = nheads, grad  # the gradient before any zero tie


def _depends_on(t: torch.Tensor) -> list:
    """Names of the marked variables whose tensors ``t``'s autograd graph reaches."""
    fn = t.grad_fn
    if fn is None:
        return []
    seen, stack, names = set(), [fn], []
    while stack:
        f = stack.pop()
        if f is None or id(f) in seen:
            continue
        seen.add(id(f))
        var = getattr(f, "variable", None)
        if var is not None:
            name = _var_name(var)
            if name is not None and name not in names:
                names.append(name)
        stack.extend(nf for nf, _ in f.next_functions)
    return sorted(names, key=lambda n: int(n[3:]))


def _make_null_hook(vref):
    """Post-accumulate hook of a ``grad_req='null'`` variable: drop the gradient."""

    def hook(t: torch.Tensor) -> None:
        t.grad = None
        v = vref()
        if v is not None and v._grad_req == "null" and (
                v._t is t or getattr(v._t, "_mx_leaf", None) is t):
            v._grad = None

    return hook


def _head_grads(heads, head_grads, tensors=None):
    out = []
    for i, h in enumerate(heads):
        ht = h._t if tensors is None else tensors[i]
        g = None if head_grads is None else head_grads[i]
        if g is None:
            out.append(torch.ones_like(ht))
        elif hasattr(g, "_t"):
            out.append(g._t.detach().to(ht.dtype))
        else:
            out.append(torch.as_tensor(g, dtype=ht.dtype))
    return out


def _check_heads(heads) -> list:
    """The tensors backward starts from (an integer head's float64 shadow)."""
    out = []
    for h in heads:
        t = h._t
        if not t.requires_grad:
            t = _int_grad.graph_tensor(h)
        if not t.requires_grad or getattr(h._t, "_mx_freed", False):
            raise MXNetError(_NOT_IN_GRAPH)
        out.append(t)
    return out


def _torch_error(e: RuntimeError) -> MXNetError:
    if "second time" in str(e):
        return MXNetError(_NOT_IN_GRAPH)
    return MXNetError(f"backward failed: {e}")


# The train_mode of the backward pass running now. torch runs the backward of CUDA tensors on
# its own device threads, which do not see this thread's (thread-local) training flag; user
# Functions read the mode from here instead.
_backward_mode: list = [None]


_bwd_box: list = [None]  # the run-time failure the running backward's heads carry


def _run_backward(train_mode: bool, fn):
    prev = set_training(train_mode)
    prev_bwd, _backward_mode[0] = _backward_mode[0], bool(train_mode)
    try:
        with torch.enable_grad():
            return fn()
    except RuntimeError as e:
        raise _torch_error(e) from None
    finally:
        state.is_train = prev
        _backward_mode[0] = prev_bwd


def backward(heads, head_grads=None, retain_graph: bool = False, train_mode: bool = True):
    """Compute the gradients of ``heads`` into the marked variables' buffers.

    ``grad_req='write'`` overwrites a buffer, ``'add'`` accumulates into it. Without
    ``retain_graph`` the graph is freed and a second backward raises :class:`MXNetError`.

    Examples
    --------
    >>> x = mx.nd.array([1., 2.]); x.attach_grad()
    >>> with mx.autograd.record():
    ...     y = x * x
    >>> mx.autograd.backward([y]); x.grad.asnumpy().tolist()
    [2.0, 4.0]
    """
    heads = _as_list(heads)
    head_grads = _as_list(head_grads)
    if head_grads is not None and len(head_grads) != len(heads):
        raise MXNetError("heads and head_grads must be lists of the same length")
    tensors = _check_heads(heads)
    _fired[0] = 0
    _graph_grads.start()
    if _deferred.PENDING[0]:
        _bwd_box[0] = _deferred.first_box(heads + (head_grads or []))
    try:
        _run_backward(train_mode, lambda: torch.autograd.backward(
            tensors, _head_grads(heads, head_grads, tensors), retain_graph=retain_graph))
    finally:
        _bwd_box[0] = None
    _graph_grads.settle()
    if not retain_graph:
        for h in heads:
            h._t._mx_freed = True
        _freed.mark_freed(tensors)
    if not _fired[0]:
        raise MXNetError(_NO_INPUTS)


def grad(heads, variables, head_grads=None, retain_graph=None, create_graph: bool = False,
         train_mode: bool = True):
    """Return the gradients of ``heads`` with respect to ``variables`` (a list).

    No gradient buffer is written. With ``create_graph=True`` the result can be
    differentiated again (higher-order gradients).

    Examples
    --------
    >>> x = mx.nd.array([1., 2.]); x.attach_grad()
    >>> with mx.autograd.record():
    ...     y = x * x
    >>> mx.autograd.grad(y, [x])[0].asnumpy().tolist()
    [2.0, 4.0]
    """
    from .ndarray.ndarray import NDArray

    heads = _as_list(heads)
    variables = _as_list(variables)
    head_grads = _as_list(head_grads)
    tensors = _check_heads(heads)
    if retain_graph is None:
        retain_graph = create_graph
    vts = [v._t if v._t.requires_grad else getattr(v._t, "_mx_leaf", v._t) for v in variables]
    for t in vts:
        if not t.requires_grad:
            raise MXNetError(_NOT_IN_GRAPH)
    res = _run_backward(train_mode, lambda: torch.autograd.grad(
        tensors, vts, _head_grads(heads, head_grads, tensors),
        retain_graph=retain_graph, create_graph=create_graph, allow_unused=True))
    if not retain_graph:
        for h in heads:
            h._t._mx_freed = True
    box = _deferred.first_box(heads + (head_grads or [])) if _deferred.PENDING[0] else None
    for i, r in enumerate(res):
        if r is None:
            raise MXNetError(f"Cannot differentiate with respect to the {i}-th variable "
                             "because it is unreachable from the outputs.")
    out = []
    for r, v in zip(res, variables):
        if r._is_zerotensor():
            r = torch.zeros_like(v._t.detach())
        elif r.dtype != v._t.dtype and not v._t.is_floating_point():
            r = r.detach().to(v._t.dtype)  # an integer variable's shadow gradient
        untied = r
        if create_graph and not r.requires_grad:
            # a gradient that no longer depends on the variable stays in the graph (MXNet
            # differentiates it again to zeros): tie it to the variable with a zero term
            r = r + (v._t - v._t.detach()) * 0
        out.append(NDArray._wrap(r, v._ctx))
        if create_graph:
            out[-1]._prov = _GradRecord(len(heads), untied)
        if box is not None:
            out[-1]._exc = box
    return out


def get_symbol(x):
    """The recorded computation that produced ``x``, as a Symbol.

    Arrays not computed by a recorded operator (variables, constants) become variables
    ``var0``, ``var1``... in the order they are met.

    Examples
    --------
    >>> x = mx.nd.ones((1,)); x.attach_grad()
    >>> with mx.autograd.record():
    ...     y = x * x + 1
    >>> mx.autograd.get_symbol(y).list_arguments()
    ['var0']
    """
    from .ndarray._invoke import Leaf, next_leaf_name
    from .symbol import Symbol, var
    from .symbol._namespace import function_for

    memo: dict = {}

    def build(rec):
        if rec.__class__ is _GradRecord:
            return _grad_symbol(rec)
        if rec.__class__ is tuple and rec and rec[0].__class__ is _graph_grads.CallRecord:
            call = rec[0]
            if not call.inline:  # one _CachedOp node, as MXNet beyond inline_limit
                node = call.cached_op_node([build(r) for r in call.ins])
                return Symbol._from_entries([(node, rec[1])])
            rec = call.output(rec[1])  # an output of a hybridized call: its graph inlined
        if not isinstance(rec, tuple) or not rec[2]:  # a Leaf (an input array), or made
            # by an operator without inputs (zeros, random...): MXNet shows a variable
            hit = memo.get(id(rec))
            if hit is None:
                name = getattr(rec, "name", None)
                if name is None:  # numbered when first shown, as MXNet numbers it
                    name = next_leaf_name("null")
                    if isinstance(rec, Leaf):
                        rec.name = name
                hit = memo[id(rec)] = var(name)
            return hit
        op, attrs, ins, idx = rec
        hit = memo.get(id(ins))  # one node per invocation (shared by its outputs)
        if hit is None:
            kwargs = {k: v for k, v in attrs.items() if v is not None and k != op.variadic}
            hit = memo[id(ins)] = function_for(op.name)(*[build(r) for r in ins], **kwargs)
        return hit[idx] if len(hit.list_outputs()) > 1 else hit

    rec = getattr(x, "_prov", None)
    if rec is None:
        return var("var0")
    try:
        return build(rec)
    except (TypeError, ValueError, KeyError) as e:
        raise MXNetError(f"autograd.get_symbol: cannot express the recorded graph as a "
                         f"Symbol: {e}") from None


_BACKWARD_COUNT = [0]


def _grad_symbol(rec: _GradRecord):
    """An opaque ``_backward`` node over ``_head_grad_<i>`` and the variables a gradient
    depends on (MXNet shows its backward operators; they cannot be run from here)."""
    from .symbol import var
    from .symbol._node import Node
    from .symbol.symbol import Symbol

    deps = _depends_on(rec.grad)
    ins = [var(f"_head_grad_{i}") for i in range(rec.nheads)] + [var(n) for n in deps]

    def compute(attrs, *ts):
        raise MXNetError("autograd.get_symbol: the backward node of a gradient cannot be run")

    from ._op._registry import OpDef

    op = OpDef("_backward", compute, inputs=tuple(f"arg{i}" for i in range(len(ins))))
    _BACKWARD_COUNT[0] += 1
    node = Node(op, f"_backward{_BACKWARD_COUNT[0] - 1}", {})
    node.set_inputs([s._outputs[0] for s in ins])
    return Symbol._from_entries([(node, 0)])


class _TorchBridge(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, *tensors):
        from .ndarray.ndarray import NDArray

        ctx.fn = fn
        classes = fn._in_cls or [NDArray] * len(tensors)
        with pause(train_mode=state.is_train):  # inputs keep their class (mx.np arrays too)
            outs = fn.forward(*[c._wrap(t, fn._ctx) for c, t in zip(classes, tensors)])
        fn._single = not isinstance(outs, (list, tuple))
        outs = [outs] if fn._single else list(outs)
        fn._out_cls = [type(o) for o in outs]
        return tuple(o._t for o in outs)

    @staticmethod
    def backward(ctx, *grads):
        from .ndarray.ndarray import NDArray

        fn = ctx.fn
        mode = _backward_mode[0] if _backward_mode[0] is not None else state.is_train
        with pause(train_mode=mode):
            classes = fn._out_cls or [NDArray] * len(grads)
            res = fn.backward(*[c._wrap(g.contiguous(), fn._ctx) for c, g in zip(classes, grads)])
        res = [res] if not isinstance(res, (list, tuple)) else list(res)
        n_in = len(ctx.needs_input_grad) - 1
        if len(res) != n_in:  # checked as MXNet 1.9.1 does
            raise MXNetError(
                f"{type(fn).__name__}.backward must return exactly the same number of NDArrays "
                f"as the number of NDArrays arguments to forward. Expecting {n_in} got {len(res)}"
            )
        for r in res:
            if not isinstance(r, NDArray):
                raise MXNetError(f"autograd.Function.backward must return NDArrays, not {type(r)}")
        return (None, *[r._t for r in res])


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
        self._in_cls = None
        self._out_cls = None

    def save_for_backward(self, *args):
        self.saved_tensors = args

    def forward(self, *inputs):
        raise MXNetError(f"{type(self).__name__} must define forward()")

    def backward(self, *output_grads):
        raise MXNetError(f"{type(self).__name__} must define backward()")

    def __call__(self, *inputs):

        if self._used:
            raise MXNetError("Each autograd.Function object can only be called once")
        self._used = True
        self._ctx = inputs[0]._ctx if inputs else None
        self._in_cls = [type(x) for x in inputs]
        outs = _TorchBridge.apply(self, *[x._t for x in inputs])
        res = [c._wrap(o, self._ctx) for c, o in zip(self._out_cls, outs)]
        return res[0] if self._single else res


def __getattr__(name):
    """``NDArray`` is exported here as in MXNet (``from mxnet.autograd import *``)."""
    if name == "NDArray":
        from .ndarray.ndarray import NDArray

        return NDArray
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
