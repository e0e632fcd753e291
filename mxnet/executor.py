"""Executors: a Symbol bound to arrays, run forward and backward.

The graph is compiled once per bind into a flat callable over torch tensors
(:mod:`mxnet._executor`): one loop over ``(kernel, parsed attrs, input slots, output slots)``
steps, intermediates freed as soon as their last reader ran.

Compile switch: set the environment variable ``MXNET_NG_COMPILE=1`` (or pass
``compile=True`` to ``simple_bind``/``bind``) to hand that callable to ``torch.compile``.
The first forward then compiles (seconds to minutes for a ResNet), later ones run the
compiled graph. It pays off for inference and on GPU; for CPU training of conv nets the
eager path is usually as fast (see ``benchmarks/bench_symbol_resnet.py``). The monitor
callback always runs the eager, step-by-step path.

Memory format: in graphs of 8 or more 2-D convolutions, arguments feeding them run in
channels-last memory (same shapes, NHWC strides), which oneDNN/cuDNN convolutions prefer,
when the images have 64x64 pixels or more or the graph holds grouped convolutions (dense
convolutions over tiny maps are slower in it); outputs are returned contiguous.
``MXNET_NG_CHANNELS_LAST=0`` turns this off.

Storage types: the graph always runs on dense tensors, but when an argument is sparse (or
the graph holds ``cast_storage``/``dot``/``retain``...) the outputs get the storage type
MXNet 1.9.1 infers (``square(row_sparse)`` is row_sparse, ``dot(csr, dense)`` dense, ...),
sparse gradient buffers keep theirs, and ``simple_bind`` allocates sparse arrays for
variables declared with ``stype`` (see :mod:`mxnet._executor._stype`). All-dense graphs skip
this entirely.

Examples
--------
>>> import mxnet as mx
>>> x = mx.sym.Variable('x')
>>> ex = (x * 2).bind(mx.cpu(), {'x': mx.nd.ones((2,))})
>>> ex.forward()[0].asnumpy()
array([2., 2.], dtype=float32)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import torch

from . import _deferred, _int_grad
from ._deferred import PENDING, DeferredOpError
from ._dtype import to_torch
from ._executor._program import Program, compile_enabled, compile_program
from ._head_grad import HEAD_GRAD_REQUIRED, check_differentiable, head_grad_needed
from .base import MXNetError
from .context import Context
from .ndarray.ndarray import NDArray

__all__ = ["Executor", "bind", "simple_bind"]

_REQS = ("null", "write", "add", "inplace")


def _graph_callable(symbol, compile: bool | None = False) -> tuple[Callable, list[str], list[str]]:
    """Compile ``symbol`` into ``fn(inputs, aux, is_train) -> list of output tensors``.

    ``inputs`` follow ``symbol.list_arguments()``, ``aux`` follow
    ``symbol.list_auxiliary_states()`` (both lists of torch tensors). The function is
    transparent to torch autograd and sets the training flag while it runs. ``compile=True``
    (or ``None`` with ``MXNET_NG_COMPILE=1``) runs the graph through ``torch.compile``.

    Returns
    -------
    (fn, input_names, aux_names)
    """
    prog = compile_program(symbol)
    use_compile = compile_enabled(compile)

    def fn(
        inputs: Sequence[torch.Tensor], aux: Sequence[torch.Tensor], is_train: bool = False
    ) -> list[torch.Tensor]:
        return prog.run(inputs, aux, is_train, compile=use_compile)

    return fn, list(prog.arg_names), list(prog.aux_names)


def _as_list(name: str, values, names: list[str], required: bool = True) -> list:
    if values is None:
        if required and names:
            raise ValueError(f"{name} is required for {names}")
        return [None] * len(names)
    if isinstance(values, dict):
        out = []
        for n in names:
            if n not in values:
                if required:
                    raise ValueError(f"key `{n}` is missing in `{name}`")
                out.append(None)
            else:
                out.append(values[n])
        return out
    values = list(values)
    if len(values) != len(names):
        raise ValueError(
            f"Length of {name} does not match the number of arguments: "
            f"expected {len(names)} ({names}), got {len(values)}"
        )
    return values


def _check_nd(what: str, name: str, a):
    if a is not None and not isinstance(a, NDArray):
        raise TypeError(f"{what} `{name}` must be an NDArray, got {type(a).__name__}")
    return a


def _grad_reqs(grad_req, names: list[str]) -> list[str]:
    if isinstance(grad_req, str):
        reqs = [grad_req] * len(names)
    elif isinstance(grad_req, dict):
        reqs = [grad_req.get(n, "null") for n in names]
    else:
        reqs = list(grad_req)
        if len(reqs) != len(names):
            raise ValueError("grad_req list length does not match the number of arguments")
    for r in reqs:
        if r not in _REQS:
            raise ValueError(f"grad_req must be one of {_REQS}, got {r!r}")
    return ["write" if r == "inplace" else r for r in reqs]


class Executor:
    """A bound symbol: argument, gradient, auxiliary and output arrays plus forward/backward.

    Built by :meth:`Symbol.bind` / :meth:`Symbol.simple_bind`.

    Examples
    --------
    >>> import mxnet as mx
    >>> x = mx.sym.Variable('x')
    >>> ex = (x * x).simple_bind(mx.cpu(), x=(3,))
    >>> ex.arg_dict['x'][:] = 3
    >>> _ = ex.forward(is_train=True)
    >>> ex.backward(mx.nd.ones((3,)))
    >>> ex.grad_dict['x'].asnumpy()
    array([6., 6., 6.], dtype=float32)
    """

    def __init__(
        self,
        symbol,
        ctx: Context,
        arg_arrays: list,
        grad_arrays: list,
        grad_req: list[str],
        aux_arrays: list,
        group2ctx=None,
        compile=None,
        out_shapes: list | None = None,
    ):
        self._symbol = symbol
        self._ctx = ctx
        from ._executor._cse import cse_enabled

        self._cse = cse_enabled()  # MXNET_ELIMINATE_COMMON_EXPR, read at bind time
        self._group2ctx = dict(group2ctx) if group2ctx else None
        group_devices = None
        if self._group2ctx:
            group_devices = {k: v.torch_device for k, v in self._group2ctx.items()}
        self._prog: Program = compile_program(
            symbol, group_devices, ctx.torch_device if group_devices else None
        )
        self.arg_arrays: list[NDArray] = arg_arrays
        self.grad_arrays: list[NDArray | None] = grad_arrays
        self.aux_arrays: list[NDArray] = aux_arrays
        self._grad_req = grad_req
        self._compile = compile_enabled(compile)
        self._monitor: Callable | None = None
        self._monitor_all = False
        self._leaves: list[torch.Tensor] | None = None
        self._out_t: list[torch.Tensor] | None = None
        self._last_is_train = False
        self._write_outputs = False  # outputs are views shared with another executor
        self._failed: list | None = None  # run-time failure of the last forward (_deferred)
        self._fwd_failed = False  # ... raised by the forward itself (no graph to run back)
        self._grad_idx = [
            i
            for i, (r, g) in enumerate(zip(grad_req, grad_arrays or []))
            if r != "null" and g is not None
        ]
        # storage types of the outputs (None: all dense, the common case) and the indices of
        # sparse gradient buffers; computed once per bind (see _executor._stype)
        self._out_stypes: list[str] | None = None
        self._sparse_grads: frozenset = frozenset()
        self._init_stypes()
        # MXNet places each output on the device of the ctx_group that produced it
        self._out_ctx: list[Context] = [
            self._group2ctx.get(n.attrs.get("__ctx_group__", ""), ctx) if self._group2ctx else ctx
            for n, _ in symbol._outputs
        ]
        self.outputs: list[NDArray] = self._init_outputs(out_shapes)

    # -- construction helpers ---------------------------------------------------------
    def _init_stypes(self) -> None:
        from ._executor._stype import graph_needs_stypes, infer_head_stypes

        names = self._prog.arg_names + self._prog.aux_names
        stypes = [getattr(a, "stype", "default") for a in self.arg_arrays + self.aux_arrays]
        if self.grad_arrays is not None:
            self._sparse_grads = frozenset(
                i
                for i in self._grad_idx
                if getattr(self.grad_arrays[i], "stype", "default") != "default"
            )
        if not graph_needs_stypes(self._prog.nodes, stypes):
            return
        by_name = dict(zip(names, stypes))
        var_stypes = {
            id(n): by_name.get(n.name, "default") for n in self._prog.nodes if n.op is None
        }
        heads = infer_head_stypes(self._symbol._outputs, self._prog.nodes, var_stypes)
        if any(s != "default" for s in heads):
            self._out_stypes = heads

    def _init_outputs(self, outs: list | None) -> list[NDArray]:
        if outs is None:
            names = self._prog.arg_names
            known = {n: a.shape for n, a in zip(names, self.arg_arrays)}
            known.update({n: a.shape for n, a in zip(self._prog.aux_names, self.aux_arrays)})
            _, outs, _ = self._symbol._infer_shape_raw(True, **known)  # raises on bad shapes
        types = [None] * len(outs or [])
        try:  # MXNet allocates the outputs with their inferred dtypes (Cast, amp_cast...)
            names = self._prog.arg_names
            _, out_types, _ = self._symbol.infer_type(
                **{n: a.dtype for n, a in zip(names, self.arg_arrays)}
            )
            types = list(out_types or types)
        except MXNetError:
            pass
        res = []
        for s, t, c in zip(outs or [], types, self._out_ctx):
            if not s or 0 in s:
                return []
            dt = to_torch(t) if t is not None else torch.float32
            res.append(NDArray._wrap(torch.zeros(s, dtype=dt, device=c.torch_device), c))
        if self._out_stypes is not None and len(res) == len(self._out_stypes):
            from ._executor._stype import as_stype

            res = [as_stype(o._t, st, o._ctx) for o, st in zip(res, self._out_stypes)]
        return res

    # -- dict views -------------------------------------------------------------------
    @property
    def arg_dict(self) -> dict[str, NDArray]:
        return dict(zip(self._prog.arg_names, self.arg_arrays))

    @property
    def grad_dict(self) -> dict[str, NDArray | None]:
        if self.grad_arrays is None:
            return {}
        return dict(zip(self._prog.arg_names, self.grad_arrays))

    @property
    def aux_dict(self) -> dict[str, NDArray]:
        return dict(zip(self._prog.aux_names, self.aux_arrays))

    @property
    def output_dict(self) -> dict[str, NDArray]:
        return dict(zip(self._prog.output_names, self.outputs))

    # -- running ----------------------------------------------------------------------
    def forward(self, is_train: bool = False, **kwargs) -> list[NDArray]:
        """Run the graph; ``kwargs`` are copied into the argument arrays first."""
        if kwargs:
            ad = self.arg_dict
            for k, v in kwargs.items():  # MXNet 1.9.1's checks, errors and messages
                if not isinstance(v, (NDArray, np.ndarray)):
                    raise ValueError("only accept keyword argument of NDArrays and numpy.ndarray")
                if k not in ad:
                    raise TypeError(f"Unknown argument {k}")
                dst = ad[k]
                if tuple(dst.shape) != tuple(v.shape):
                    raise ValueError(
                        f"Shape not match! Argument {k}, need: {dst.shape}, "
                        f"received: {tuple(v.shape)}"
                    )
                if isinstance(v, NDArray):
                    v.copyto(dst)
                else:
                    dst[:] = np.asarray(v)
        args = [a._t for a in self.arg_arrays]
        aux = [a._t for a in self.aux_arrays]
        need_grad = bool(is_train) and bool(self._grad_idx)
        monitor = None
        if self._monitor is not None:
            cb, ctx = self._monitor, self._ctx

            def monitor(name, t):  # names reach the callback as bytes, like MXNet's char*
                cb(name.encode(), NDArray._wrap(t, ctx))

        self._last_is_train = bool(is_train)
        # the last forward's graph (kept for repeated backward calls) goes now: alive through
        # this run, its saved activations would double the peak memory of a training step
        self._out_t = None
        self._leaves = None
        box = None
        if PENDING[0] or self._failed is not None:
            box = self._forward_failure_state()
        try:
            if need_grad:
                outs = self._run_with_grad(True, monitor)
            else:
                with torch.no_grad():
                    outs = self._prog.run(
                        args, aux, is_train, monitor, self._compile, self._monitor_all
                    )
                self._leaves = None
                self._out_t = None
        except DeferredOpError as err:  # MXNet reports it on read / waitall
            return self._failed_forward(err, box)
        self._set_outputs(outs)
        if box is not None:
            for o in self.outputs:
                o._exc = box
        return self.outputs

    def _forward_failure_state(self) -> list | None:
        """Forget the last forward's failure; return the one the inputs carry, if any."""
        self._failed, self._fwd_failed = None, False
        for o in self.outputs:
            o._exc = None
        box = _deferred.first_box(self.arg_arrays + self.aux_arrays) if PENDING[0] else None
        self._failed = box
        return box

    def _failed_forward(self, err: DeferredOpError, box: list | None) -> list[NDArray]:
        """A run-time check failed inside the graph: the outputs carry it (MXNet's engine)."""
        if not self.outputs:  # output shapes unknown: nothing to hand back, raise now
            raise err
        self._leaves = None
        self._out_t = None
        self._failed = box if box is not None else _deferred.defer(err)
        self._fwd_failed = True
        for o in self.outputs:
            o._exc = self._failed
        return self.outputs

    def _run_with_grad(self, is_train: bool, monitor=None) -> list[torch.Tensor]:
        args = [a._t for a in self.arg_arrays]
        aux = [a._t for a in self.aux_arrays]
        leaves = []
        shadowed = False
        for i in self._grad_idx:
            t = args[i].detach()
            if t.is_floating_point() or t.is_complex():
                t.requires_grad_(True)
                args[i] = t
                leaves.append(t)
            elif t.dtype == torch.bool:
                leaves.append(None)
            else:  # integers: a float64 shadow leaf carries their gradient (as MXNet's)
                args[i] = t
                leaves.append(_int_grad.make_leaf(t))
                shadowed = True
        with torch.enable_grad():
            if monitor is None and (shadowed or self._prog.has_int_casts()):
                outs = self._prog.run_linked(args, aux, is_train)
            else:
                outs = self._prog.run(
                    args, aux, is_train, monitor, self._compile, self._monitor_all
                )
        self._leaves = leaves
        self._out_t = outs
        return outs

    def _set_outputs(self, outs: list[torch.Tensor]) -> None:
        if self._out_stypes is not None and len(outs) == len(self._out_stypes):
            from ._executor._stype import as_stype

            # MXNet's inferred storage types: sparse outputs are new arrays each forward
            self.outputs = [
                as_stype(t.detach(), st, c)
                for t, st, c in zip(outs, self._out_stypes, self._out_ctx)
            ]
            return
        cur = self.outputs
        if len(cur) == len(outs):
            for nd, t in zip(cur, outs):
                if self._write_outputs and nd._t.shape == t.shape:
                    with torch.no_grad():
                        nd._t.copy_(t)
                else:
                    nd._t = t.detach()
        else:
            self.outputs = [NDArray._wrap(t.detach(), c) for t, c in zip(outs, self._out_ctx)]

    def backward(self, out_grads=None, is_train: bool = True) -> None:
        """Write (or add) the gradients of the last training forward into ``grad_arrays``.

        Loss outputs (``SoftmaxOutput``...) need no head gradient; others default to ones.
        """
        if not self._grad_idx:
            return
        if self._failed is not None:  # the gradients carry the forward's failure
            for i in self._grad_idx:
                self.grad_arrays[i]._exc = self._failed
            if self._fwd_failed:
                return
        if self._out_t is None:
            # MXNet allows backward after an inference forward: rerun it with a graph
            self._run_with_grad(self._last_is_train)
        if out_grads is not None and not isinstance(out_grads, (list, tuple, dict)):
            out_grads = [out_grads]
        if isinstance(out_grads, dict):
            out_grads = [out_grads.get(n) for n in self._prog.output_names]
        if out_grads is not None and any(
            not isinstance(g, NDArray) for g in out_grads if g is not None
        ):
            raise TypeError("inputs must be NDArray")
        outs, heads = [], []
        for k, t in enumerate(self._out_t):
            sh = None if t.requires_grad else getattr(t, "_mx_shadow", None)
            if not t.requires_grad and sh is None:
                continue
            g = out_grads[k] if out_grads is not None and k < len(out_grads) else None
            if g is None:
                if self._head_grad_needed(k):
                    raise MXNetError(HEAD_GRAD_REQUIRED)
                g = torch.ones_like(t)
            else:
                g = g._t.to(device=t.device, dtype=t.dtype)
                if g.shape != t.shape:
                    raise MXNetError(
                        f"backward: head gradient {k} has shape {tuple(g.shape)}, "
                        f"the output has shape {tuple(t.shape)}"
                    )
            if sh is not None:  # an integer output: back-propagate through its shadow
                t, g = sh, g.to(sh.dtype)
            outs.append(t)
            heads.append(g)
        grads = [None] * len(self._leaves)
        live = [k for k, leaf in enumerate(self._leaves) if leaf is not None]
        if outs and live:
            found = torch.autograd.grad(
                outs, [self._leaves[k] for k in live], heads, retain_graph=True, allow_unused=True
            )
            for k, g in zip(live, found):
                grads[k] = g
        if self._monitor is not None and outs:
            self._monitor_backward(outs, heads)
        with torch.no_grad():
            sparse = self._sparse_grads
            for i, g in zip(self._grad_idx, grads):
                if sparse and i in sparse:
                    self._write_sparse_grad(i, g)
                    continue
                dst = self.grad_arrays[i]._t
                if self._grad_req[i] == "add":
                    if g is not None:
                        dst.add_(g.to(dst.device, dst.dtype))
                elif g is None:
                    dst.zero_()
                else:
                    dst.copy_(g)

    def _write_sparse_grad(self, i: int, g: torch.Tensor | None) -> None:
        """Store gradient ``g`` into the sparse buffer ``i`` (its storage type kept)."""
        arr = self.grad_arrays[i]
        if g is None:
            if self._grad_req[i] != "add":
                arr._t = torch.zeros(arr.shape, dtype=arr._sdata.dtype)
            return
        g = g.detach().to(arr._sdata.dtype)
        arr._t = arr._t.to(g.device) + g if self._grad_req[i] == "add" else g

    def _head_grad_needed(self, k: int) -> bool:
        """Whether output ``k``'s gradient must be given (MXNet's rule; cached)."""
        needed = self.__dict__.setdefault("_head_needed", {})
        if k not in needed:
            needed[k] = head_grad_needed(self._symbol, self._prog.arg_names, self._grad_req, k)
        return needed[k]

    def _monitor_backward(self, outs, heads) -> None:
        """Report every node's input gradients as ``<node>_backward_output[i]`` (MXNet's
        monitor sees the backward nodes' outputs); inputs without a gradient report zeros.

        As MXNet's backward graph: nodes in reverse order, and a node none of whose inputs
        needs a gradient has no backward node (nothing reported)."""
        watch = [
            (name, args)
            for name, args in reversed(self._prog.last_watch or [])
            if any(t.requires_grad for t in args)
        ]
        flat = list({id(t): t for _, args in watch for t in args if t.requires_grad}.values())
        found = (
            torch.autograd.grad(outs, flat, heads, retain_graph=True, allow_unused=True)
            if flat
            else []
        )
        by_id = {id(t): g for t, g in zip(flat, found)}
        cb, ctx = self._monitor, self._ctx
        for name, args in watch:
            for i, t in enumerate(args):
                g = by_id.get(id(t)) if t.requires_grad else None
                g = torch.zeros_like(t) if g is None else g
                label = (
                    f"{name}_backward_output" if len(args) == 1 else f"{name}_backward_output{i}"
                )
                cb(label.encode(), NDArray._wrap(g.detach(), ctx))

    # -- utilities --------------------------------------------------------------------
    def set_monitor_callback(self, callback: Callable, monitor_all: bool = False) -> None:
        """Call ``callback(name, array)`` with every node output after each forward.

        As in MXNet the name is ``bytes`` (decode it with ``mx.base.py_str``); the array also
        passes for MXNet's handle: ``NDArray(ctypes.cast(array, NDArrayHandle))``.
        """
        self._monitor = callback
        self._monitor_all = monitor_all

    def copy_params_from(
        self, arg_params: dict, aux_params: dict | None = None, allow_extra_params: bool = False
    ) -> None:
        """Copy parameter values into the bound argument/auxiliary arrays."""
        ad = self.arg_dict
        for name, array in arg_params.items():
            if name in ad:
                dst = ad[name]
                array.astype(dst.dtype).copyto(dst)
            elif not allow_extra_params:
                raise ValueError(f'Find name "{name}" that is not in the arguments')
        if aux_params is None:
            return
        xd = self.aux_dict
        for name, array in aux_params.items():
            if name in xd:
                dst = xd[name]
                array.astype(dst.dtype).copyto(dst)
            elif not allow_extra_params:
                raise ValueError(f'Find name "{name}" that is not in the auxiliary states')

    def get_optimized_symbol(self):
        """The graph this executor runs (MXNet: after its subgraph backend's rewrites; the
        fusions here happen inside the compiled program, so it is the bound symbol), with
        common subexpressions merged unless ``MXNET_ELIMINATE_COMMON_EXPR=0`` at bind."""
        if not self._cse:
            return self._symbol
        from ._executor._cse import eliminate_common_expr

        return type(self._symbol)._from_entries(eliminate_common_expr(self._symbol._outputs))

    def reshape(
        self, partial_shaping: bool = False, allow_up_sizing: bool = False, **kwargs
    ) -> Executor:
        """A new executor for new input shapes, sharing arrays whose shape is unchanged."""
        arg_shapes, _, aux_shapes = self._symbol._infer_shape_raw(False, **kwargs)
        if arg_shapes is None:
            raise ValueError("Insufficient argument shapes provided.")
        new_args, new_grads = [], []
        for i, (name, shape) in enumerate(zip(self._prog.arg_names, arg_shapes)):
            arr = self.arg_arrays[i]
            grad = self.grad_arrays[i] if self.grad_arrays is not None else None
            if tuple(shape) == arr.shape:
                new_args.append(arr)
                new_grads.append(grad)
                continue
            if not partial_shaping and name not in kwargs:
                raise MXNetError(
                    f"Shape of unspecified array arg:{name} changed. This can "
                    "cause the new executor to not share parameters with the "
                    "old one. Please check for error in network. If this is "
                    "intended, set partial_shaping=True to suppress this "
                    "warning."
                )
            if int(np.prod(shape)) > arr.size and not allow_up_sizing:
                raise MXNetError(
                    f"New shape of arg:{name} larger than original. First "
                    "making a big executor and then down sizing it is more "
                    "efficient than the reverse. If you really want to up "
                    "size, set allow_up_sizing=True to enable allocation "
                    "of new arrays."
                )
            new_args.append(_shrink_or_alloc(arr, shape))
            new_grads.append(None if grad is None else _shrink_or_alloc(grad, shape))
        new_aux = []
        for i, (name, shape) in enumerate(zip(self._prog.aux_names, aux_shapes)):
            arr = self.aux_arrays[i]
            if tuple(shape) == arr.shape:
                new_aux.append(arr)
            elif not partial_shaping:
                raise MXNetError(
                    f"Shape of unspecified array aux:{name} changed. This can "
                    "cause the new executor to not share parameters with the "
                    "old one. Please check for error in network. If this is "
                    "intended, set partial_shaping=True to suppress this "
                    "warning."
                )
            else:
                new_aux.append(_shrink_or_alloc(arr, shape))
        if self.grad_arrays is None:
            new_grads = None
        exe = Executor(
            self._symbol,
            self._ctx,
            new_args,
            new_grads,
            self._grad_req,
            new_aux,
            self._group2ctx,
            self._compile,
        )
        if len(exe.outputs) == len(self.outputs):
            # as in MXNet, a smaller executor writes its outputs into the old ones' memory
            exe.outputs = [_shrink_or_alloc(o, n.shape) for o, n in zip(self.outputs, exe.outputs)]
            exe._write_outputs = True
        return exe

    def debug_str(self) -> str:
        """Text description of the bound graph, then MXNet's memory summary lines.

        The ``Total N MB allocated`` figure estimates the intermediate storage: every node
        output is kept when a gradient flows back to an argument, otherwise two buffers of
        the largest output are reused.
        """
        return (
            f"{self._symbol.debug_str()}Total {self._graph_bytes() >> 20} MB allocated\n"
            "Total 0 TempSpace resource requested\n"
        )

    def _graph_bytes(self) -> int:
        from ._executor._memory import graph_bytes

        return graph_bytes(self._symbol, self.arg_arrays, self._grad_req)


def _shrink_or_alloc(arr: NDArray, shape) -> NDArray:
    """A view on the first elements of ``arr`` with ``shape`` if it fits, else a new array."""
    n = math.prod(shape)
    t = arr._t
    if n <= t.numel() and t.is_contiguous():
        return NDArray._wrap(t.reshape(-1)[:n].view(tuple(shape)), arr._ctx)
    return _alloc(shape, t.dtype, arr._ctx)


def _alloc(shape, tdtype: torch.dtype, ctx: Context) -> NDArray:
    return NDArray._wrap(torch.zeros(tuple(shape), dtype=tdtype, device=ctx.torch_device), ctx)


def _check_unique_inputs(symbol, what: str) -> None:
    """MXNet 1.9.1 cannot bind a graph with two input nodes of one name (two layers both
    named ``fc``...): raise instead of binding one array to both."""
    seen, dups = set(), []
    for n in symbol.list_inputs():
        if n in seen and n not in dups:
            dups.append(n)
        seen.add(n)
    if dups:
        raise MXNetError(
            f"{what}: the symbol has several input variables named {dups}; "
            "give each variable (or layer) a distinct name"
        )


def bind(
    symbol,
    ctx: Context,
    args,
    args_grad=None,
    grad_req="write",
    aux_states=None,
    group2ctx=None,
    shared_exec=None,
    compile=None,
) -> Executor:
    """:meth:`Symbol.bind`: bind given arrays (list in ``list_arguments`` order or dict)."""
    if not isinstance(ctx, Context):
        raise TypeError("Context type error")
    _check_unique_inputs(symbol, "bind")
    arg_names = symbol.list_arguments()
    aux_names = symbol.list_auxiliary_states()
    arg_arrays = [
        _check_nd("argument", n, a) for n, a in zip(arg_names, _as_list("args", args, arg_names))
    ]
    grads = [
        _check_nd("gradient", n, g)
        for n, g in zip(arg_names, _as_list("args_grad", args_grad, arg_names, required=False))
    ]
    reqs = _grad_reqs(grad_req, arg_names)
    if args_grad is None:
        reqs = ["null"] * len(arg_names)
        grads = None
    aux_arrays = [
        _check_nd("auxiliary state", n, a)
        for n, a in zip(aux_names, _as_list("aux_states", aux_states, aux_names))
    ]
    check_differentiable(symbol, reqs)
    return Executor(symbol, ctx, arg_arrays, grads, reqs, aux_arrays, group2ctx, compile)


def simple_bind(
    symbol,
    ctx: Context,
    grad_req="write",
    type_dict=None,
    group2ctx=None,
    shared_arg_names=None,
    shared_exec=None,
    shared_buffer=None,
    compile=None,
    stype_dict=None,
    **kwargs,
) -> Executor:
    """:meth:`Symbol.simple_bind`: infer shapes/dtypes from ``kwargs``, allocate, bind."""
    from ._dtype import to_torch
    from .symbol._infer import infer_graph_shapes, infer_graph_types
    from .symbol._node import aux_node_ids, topo_order

    if not isinstance(ctx, Context):
        raise TypeError("Context type error")
    _check_unique_inputs(symbol, "simple_bind")
    order = topo_order([n for n, _ in symbol._outputs])
    # like MXNet, only tuple/list values are shapes; other keywords are ignored
    kwargs = {k: v for k, v in kwargs.items() if isinstance(v, (tuple, list))}
    shapes = infer_graph_shapes(order, {k: tuple(v) for k, v in kwargs.items()})
    tdict = {k: _dtype_of(v) for k, v in (type_dict or {}).items()}
    types = infer_graph_types(order, tdict, shapes)
    aux = aux_node_ids(order)
    variables = [n for n in order if n.op is None]
    missing = [
        n.name for n in variables if shapes.get((id(n), 0)) is None or 0 in shapes[(id(n), 0)]
    ]
    if missing:
        given = ", ".join(f"{k}={tuple(v)}" for k, v in kwargs.items())
        raise MXNetError(
            f"simple_bind: cannot infer the shapes of {missing} from the given "
            f"shapes ({given}); provide them as keyword arguments"
        )
    arg_names = [n.name for n in variables if id(n) not in aux]
    reqs = _grad_reqs(grad_req, arg_names)
    try:
        check_differentiable(symbol, reqs)
    except MXNetError as err:
        given = "".join(f"{k}: {tuple(v)}\n" for k, v in kwargs.items())
        raise MXNetError(f"simple_bind error. Arguments:\n{given}{err}") from None
    shared = shared_exec.arg_dict if shared_exec is not None else {}
    shared_grads = shared_exec.grad_dict if shared_exec is not None else {}
    shared_names = set(shared_arg_names or ())
    g2c = group2ctx or {}

    def ctx_of(node) -> Context:
        grp = node.attrs.get("__ctx_group__")
        return g2c.get(grp, ctx) if grp is not None else ctx

    args, grads, auxs = [], [], []
    arg_nodes = [v for v in variables if id(v) not in aux]
    from ._executor._stype import bind_stypes

    stypes = bind_stypes(order, arg_nodes, stype_dict)
    for k, (n, req) in enumerate(zip(arg_nodes, reqs)):
        shape = shapes[(id(n), 0)]
        tdt = to_torch(types.get((id(n), 0)) or "float32")
        c = ctx_of(n)
        if n.name in shared_names and n.name in shared and shared[n.name].shape == shape:
            args.append(shared[n.name])  # shared parameters, sparse ones included
            grads.append(shared_grads.get(n.name) if req != "null" else None)
            continue
        if stypes is not None and (stypes[0][k] != "default" or stypes[1][k] != "default"):
            from ._executor._stype import zeros_stype

            args.append(zeros_stype(shape, tdt, stypes[0][k], c))
            grads.append(zeros_stype(shape, tdt, stypes[1][k], c) if req != "null" else None)
            continue
        buf = shared_buffer.get(n.name) if shared_buffer is not None else None
        if buf is not None and buf.shape == shape and buf._t.dtype == tdt:
            args.append(buf)
        else:
            args.append(_alloc(shape, tdt, c))
            if shared_buffer is not None:
                shared_buffer[n.name] = args[-1]
        grads.append(_alloc(shape, tdt, c) if req != "null" else None)
    for n in (v for v in variables if id(v) in aux):
        shape = shapes[(id(n), 0)]
        tdt = to_torch(types.get((id(n), 0)) or "float32")
        if (
            shared_exec is not None
            and n.name in shared_exec.aux_dict
            and shared_exec.aux_dict[n.name].shape == shape
        ):
            auxs.append(shared_exec.aux_dict[n.name])
        else:
            auxs.append(_alloc(shape, tdt, ctx_of(n)))
    out_shapes = [shapes.get((id(n), i)) for n, i in symbol._outputs]
    if any(s is None for s in out_shapes):
        out_shapes = None
    return Executor(symbol, ctx, args, grads, reqs, auxs, group2ctx, compile, out_shapes)


def _dtype_of(v) -> str:
    from ._dtype import dtype_name

    return dtype_name(v)
