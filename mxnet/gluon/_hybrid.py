"""HybridBlock (eager or traced to a Symbol) and SymbolBlock (a Block around a Symbol)."""

from __future__ import annotations

import warnings

import torch

from .. import _deferred, _freed, _graph_grads, _int_grad, autograd, ndarray
from .._executor._fuse import fusion_enabled
from .._op._state import state as _state
from ..base import MXNetError, abstract
from ..context import Context
from ._deferred import InferNamespace, Pending, deferred_error
from ._hybrid_util import (  # noqa: F401
    _cached_op_flags,
    _check_param_contexts,
    _common_prefix,
    _flatten,
    _hooked_descendant,
    _is_symbol,
    _link_int_outputs,
    _match_default_nones,
    _np_wrap,
    _regroup,
    _run_hooked,
    _scan,
    _symbol_mod,
    _zero_grad_compute,
)
from ._np_mode import pick_F, to_np
from .block import Block, _BlockScope  # noqa: F401
from .parameter import DeferredInitializationError, shape_is_known

__all__ = ["HybridBlock"]


class HybridBlock(Block):
    """A Block whose computation is written once in ``hybrid_forward(F, x, ...)``.

    ``F`` is ``mx.nd`` when called eagerly and ``mx.sym`` while tracing. After
    ``hybridize()`` the first call traces the block into a Symbol, which later calls run
    through the executor. Parameters registered as attributes arrive as keyword arguments.

    Examples
    --------
    >>> class Scale(mx.gluon.HybridBlock):
    ...     def __init__(self, **kwargs):
    ...         super().__init__(**kwargs)
    ...         with self.name_scope():
    ...             self.s = self.params.get('s', shape=(1,), init=mx.init.One())
    ...     def hybrid_forward(self, F, x, s):
    ...         return F.broadcast_mul(x, s)
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self._cached_graph = ()
        self._cached_op = None
        self._callables = {}
        self._out_format = None
        self._in_format = None
        self._active = False
        self._flags = []
        self._backend = None
        self._np_graph = False

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if isinstance(value, HybridBlock):
            self._clear_cached_op()

    def register_child(self, block, name=None):
        if not isinstance(block, HybridBlock):
            raise ValueError(
                f"Children of HybridBlock must also be HybridBlock, but {block} has type "
                f"{type(block)}. If you are using Sequential, please try HybridSequential "
                "instead."
            )
        super().register_child(block, name)
        self._clear_cached_op()

    def _clear_cached_op(self):
        self._cached_graph = ()
        self._cached_op = None
        self._callables = {}

    def register_op_hook(self, callback, monitor_all=False):
        """Call ``callback(node_name, op_name, array)`` for every operator output of this
        block's hybridized graph (``monitor_all``: inputs too), names as bytes like MXNet's.

        Examples
        --------
        >>> net.register_op_hook(lambda name, op, arr: print(name, op))  # doctest: +SKIP
        """
        self.__dict__["_op_hook"] = (callback, bool(monitor_all))
        for cld in self._children.values():
            cld.register_op_hook(callback, monitor_all)

    def hybridize(
        self,
        active=True,
        backend=None,
        clear=True,
        static_alloc=False,
        static_shape=False,
        inline_limit=2,
        forward_bulk_size=None,
        backward_bulk_size=None,
        **kwargs,
    ):
        """Trace this block to a Symbol on the next call (``static_alloc``/``static_shape``
        are accepted: the compiled graph is always reused). Arguments take MXNet 1.9.1's
        positions; children are hybridized without the backend, as MXNet."""
        self._active = active
        self._backend = backend
        self._flags = _cached_op_flags(
            static_alloc, static_shape, inline_limit, forward_bulk_size, backward_bulk_size, kwargs
        )
        child_flags = {
            "static_alloc": static_alloc,
            "static_shape": static_shape,
            "inline_limit": inline_limit,
            "forward_bulk_size": forward_bulk_size,
            "backward_bulk_size": backward_bulk_size,
        }
        if clear:
            self._clear_cached_op()
        if active and (self._forward_hooks or self._forward_pre_hooks):
            warnings.warn(
                f'"{self}" is being hybridized while still having forward hook/'
                f'pre-hook. If "{self}" is a child of HybridBlock, the hooks will not '
                "take effect.",
                stacklevel=2,
            )
        super().hybridize(active, **child_flags)

    def cast(self, dtype):
        self._clear_cached_op()
        super().cast(dtype)

    def hybrid_forward(self, F, x, *args, **kwargs):
        """Override to define the computation with ``F`` (``mx.nd`` or ``mx.sym``)."""
        raise abstract(self, "hybrid_forward")

    def optimize_for(
        self,
        x,
        *args,
        backend=None,
        clear=False,
        static_alloc=False,
        static_shape=False,
        inline_limit=2,
        forward_bulk_size=None,
        backward_bulk_size=None,
        **kwargs,
    ):
        """Hybridize for ``backend`` and run one forward pass on ``x`` (returns None, as
        MXNet). The graph is not partitioned: mxnet-ng's programs fuse by themselves (see
        ``Symbol.optimize_for``)."""
        if not backend:
            raise ValueError('Must specify "backend" to optimize_for')
        from ..symbol._frontend import _check_backend

        _check_backend("optimize_for", backend)
        if clear:
            self._clear_cached_op()
        self.hybridize(
            True, static_alloc=static_alloc, static_shape=static_shape, inline_limit=inline_limit
        )
        self(x, *args)

    # -- eager / symbolic dispatch ------------------------------------------------------
    def _eager_forward(self, x):
        """``hybrid_forward(mx.nd, x, **params)`` with ``x``'s context as the default one
        (entered only when it is not already the current context)."""
        ctx = x._ctx
        cur = getattr(Context._default_ctx, "value", None)
        if cur is not None and cur == ctx:
            try:
                params = {k: v.data(ctx) for k, v in self._reg_params.items()}
            except DeferredInitializationError:
                return self._deferred_forward(ctx, x)
            return self.hybrid_forward(pick_F(ndarray, False), x, **params)
        with Context(ctx):
            try:
                params = {k: v.data(ctx) for k, v in self._reg_params.items()}
            except DeferredInitializationError:
                return self._deferred_forward(ctx, x)
            return self.hybrid_forward(pick_F(ndarray, False), x, **params)

    def forward(self, x, *args):
        if not args and x.__class__ is ndarray.NDArray and not self._active:
            return self._eager_forward(x)  # the common eager call: one array in
        has_sym, has_nd, ctxs = _scan((x,) + args)
        if has_sym and has_nd:
            raise ValueError(
                "In HybridBlock, we do not support mixed NDArrays and Symbols "
                "types for the input. Please check the type of the args.\n"
            )
        if not has_sym and not has_nd:
            raise ValueError(
                "In HybridBlock, there must be one NDArray or one Symbol in the "
                "input. Please check the type of the args.\n"
            )
        if has_nd:
            ctx = ctxs[0]
            if self._active:
                if len(ctxs) > 1:
                    raise ValueError(
                        "Find multiple contexts in the input, After hybridized, the "
                        "HybridBlock only supports one input context. You can print the "
                        "ele.ctx in the input arguments to inspect their contexts. Find all "
                        f"contexts = {set(ctxs)}"
                    )
                with Context(ctx):  # a fresh object: nested `with` on one object would leak
                    return self._call_cached_op(x, *args)
            with Context(ctx):
                try:
                    params = {k: v.data(ctx) for k, v in self._reg_params.items()}
                except DeferredInitializationError:
                    return self._deferred_forward(ctx, x, *args)
                return self.hybrid_forward(pick_F(ndarray, False), x, *args, **params)
        params = {k: v.var() for k, v in self._reg_params.items()}
        with self.name_scope():
            return self.hybrid_forward(pick_F(_symbol_mod(), True), x, *args, **params)

    def _deferred_forward(self, ctx, x, *args):
        try:
            _flatten([x] + list(args), "input")
        except ValueError as e:
            raise deferred_error(str(e)) from None
        user_rule = type(self).infer_shape
        if user_rule is not HybridBlock.infer_shape and not getattr(
            user_rule, "__module__", ""
        ).startswith("mxnet."):
            # a user block that defines infer_shape sets its own deferred shapes (MXNet
            # calls it on the first forward); mxnet's own layers defer eagerly
            try:
                self.infer_shape(x, *args)
            except Exception as e:  # noqa: BLE001 - reported as MXNet does
                raise deferred_error(str(e)) from None
        elif _hooked_descendant(self):  # only hooks can tell (the trace costs ~1 ms a block)
            self._trace_for_child_hooks(x, *args)
        else:
            # the trace would make each parameter's Symbol while its shape is still unknown
            # (exported JSON shows (3, 0), as MXNet's does); make them the same way
            for v in self._reg_params.values():
                if v._var is None:
                    v.var()
        params = {}
        for k, v in self._reg_params.items():
            if v._data is None and v._deferred_init and not shape_is_known(v.shape):
                params[k] = Pending(v, ctx)
            else:
                v._finish_deferred_init()
                params[k] = v.data(ctx)
        try:
            return self.hybrid_forward(InferNamespace(pick_F(ndarray, False)), x, *args, **params)
        except ValueError as err:
            # an expression the eager pass cannot see through (the parameter meets an
            # elementwise op before any shape-giving one): infer over the whole traced
            # graph as MXNet does, then run eagerly
            if not str(err).startswith("Deferred initialization failed"):
                raise
            if not self._symbolic_deferred_init(x, *args):
                raise
        params = {k: v.data(ctx) for k, v in self._reg_params.items()}
        return self.hybrid_forward(pick_F(ndarray, False), x, *args, **params)

    def _symbolic_deferred_init(self, *args) -> bool:
        """Trace ``hybrid_forward`` with Symbols and give every deferred parameter its shape
        by (bidirectional) graph shape inference; False when that cannot finish either."""
        saved = (self._cached_graph, self._in_format, self._out_format)
        try:
            self._cached_graph = ()
            graph_inputs, out = self._get_graph(*args)
            flat, _ = _flatten(list(args), "input")
            self._infer_params(graph_inputs, out, flat)
        except Exception:  # noqa: BLE001 - the caller reports the eager pass's error
            return False
        finally:
            self._cached_graph, self._in_format, self._out_format = saved
        return all(v._data is not None for v in self._reg_params.values() if v._deferred_init)

    def _trace_for_child_hooks(self, *args):
        """MXNet infers deferred shapes by tracing ``hybrid_forward`` with Symbols: the
        hooks of the children fire once with Symbol arguments (``summary()`` prints those
        rows) and each parameter's Symbol is made then, with the shape still unknown (as
        exported JSON shows it). Trace the same way, keeping no graph; a block that cannot
        be traced (MXNet could not defer its shapes at all) skips it, and the shapes come
        from the eager pass that follows."""
        saved = (self._cached_graph, self._in_format, self._out_format)
        try:
            self._cached_graph = ()
            self._get_graph(*args)
        except Exception:  # noqa: BLE001 - only hooks were to be fired
            pass
        finally:
            self._cached_graph, self._in_format, self._out_format = saved

    # -- hybridized execution -----------------------------------------------------------
    def _get_graph(self, *args):
        if not self._cached_graph:
            sym = _symbol_mod()
            flat, self._in_format = _flatten(list(args), "input")
            if len(flat) > 1:
                inputs = [
                    sym.var(f"data{i}") if a is not None else None for i, a in enumerate(flat)
                ]
            else:
                inputs = [sym.var("data")] if flat[0] is not None else [None]
            F = pick_F(sym, True)
            if F is not sym:  # NumPy mode: trace with _Symbol inputs
                inputs = to_np(inputs)
            else:  # as MXNet, an mx.np.ndarray argument is a _Symbol input in any mode
                from ..numpy.multiarray import ndarray as _np_ndarray

                inputs = [
                    to_np(i) if isinstance(a, _np_ndarray) else i for i, a in zip(inputs, flat)
                ]
            grouped = _regroup(inputs, self._in_format)[0]
            params = {i: j.var() for i, j in self._reg_params.items()}
            with self.name_scope():
                out = self.hybrid_forward(F, *grouped, **params)
            if F is not sym:
                from .block import _check_np_outputs

                _check_np_outputs(out)  # classic symbols among NumPy-mode outputs: TypeError
                self._np_graph = True
            else:  # MXNet's CachedOp gives mx.np arrays when the traced outputs are _Symbol
                from ..symbol.numpy import _Symbol

                outs_list = out if isinstance(out, (list, tuple)) else [out]
                self._np_graph = bool(outs_list) and all(isinstance(o, _Symbol) for o in outs_list)
            out, self._out_format = _flatten(out, "output")
            self._cached_graph = inputs, sym.Group(out)
        return self._cached_graph

    def _infer_params(self, graph_inputs, out, flat_args, args=None):
        """Give deferred parameters their shapes from the traced graph, then init them."""
        params = self.collect_params()
        pending = [p for p in params.values() if p._data is None and p._deferred_init]
        if not pending:
            return
        known = {v.name: a.shape for v, a in zip(graph_inputs, flat_args) if v is not None}
        try:
            arg_shapes, _, aux_shapes = out._infer_shape_raw(True, **known)
        except MXNetError as e:
            raise deferred_error(str(e)) from None
        shapes = dict(zip(out.list_arguments(), arg_shapes or []))
        shapes.update(zip(out.list_auxiliary_states(), aux_shapes or []))
        for p in pending:
            s = shapes.get(p.name)
            if s is not None and shape_is_known(s):
                p.shape = s
        # MXNet's CachedOp finishes deferred parameters in the order of the graph's
        # ``list_inputs()`` (that order decides which random draws each initializer gets)
        order = {n: i for i, n in enumerate(out.list_inputs())}
        pending.sort(key=lambda q: order.get(q.name, len(order)))
        if args is not None and any(not shape_is_known(p.shape) for p in pending):
            # some shapes only follow from imperative code (e.g. fused RNN layers): run one
            # imperative pass, which finishes every deferred initialization on the way
            self._imperative_init(args)
        for p in pending:
            p._finish_deferred_init()

    def _imperative_init(self, args):
        blocks = []

        def collect(b):
            if isinstance(b, HybridBlock) and b._active:
                blocks.append(b)

        self.apply(collect)
        for b in blocks:
            b._active = False
        try:
            with autograd.pause():
                self(*args)
        finally:
            for b in blocks:
                b._active = True

    def _call_cached_op(self, *args):
        if len(args) == 1 and isinstance(args[0], ndarray.NDArray) and self._in_format == [0]:
            flat, fmt = [args[0]], [0]  # fast path: one array in
        else:
            flat, fmt = _flatten(list(args), "input")
        if not self._cached_graph or not self._callables:
            graph_inputs, out = self._get_graph(*args)
            self._infer_params(graph_inputs, out, flat, args)
        if fmt != self._in_format:
            flat = _match_default_nones(flat, fmt, self._in_format)
        key = tuple((a._t.shape, a._t.dtype) if a is not None else None for a in flat)
        entry = self._callables.get(key)
        if entry is None:
            graph_inputs, out = self._get_graph(*args)
            self._infer_params(graph_inputs, out, flat, args)
            entry = self._build_callable(graph_inputs, out)
            self._callables[key] = entry
        fn, in_src, aux_params, conv = entry
        ctx = (
            flat[0].context
            if flat[0] is not None
            else next(a.context for a in flat if a is not None)
        )
        if _freed.ANY[0] and _state.is_recording:
            _freed.detach_freed(flat)  # arrays of a backpropagated graph are constants
        if ctx.device_typeid in (3, 5):  # cpu_pinned / cpu_shared data: parameters differ
            _check_param_contexts(in_src, flat, ctx)
        try:
            tensors = [flat[src]._t if src.__class__ is int else src.data(ctx)._t for src in in_src]
        except RuntimeError:
            _check_param_contexts(in_src, flat, ctx)
            raise
        # an auxiliary state may be a block input (F.BatchNorm(x, g, b, mean, var) with the
        # moving statistics passed in), as MXNet 1.x allows
        aux = [flat[p]._t if p.__class__ is int else p.data(ctx)._t for p in aux_params]
        hook = self.__dict__.get("_op_hook")
        if hook is not None:
            outs = _run_hooked(fn.prog, tensors, aux, hook, ctx)
        elif _state.is_recording:
            outs = fn(tensors, aux, _state.is_train)
            if _int_grad.ACTIVE[0]:  # integer variables: their float64 shadows' graph
                outs = _link_int_outputs(fn, tensors, aux, outs)
            # MXNet writes the whole graph's parameter gradients (zeros where none reached)
            in_arrays = [flat[s] if s.__class__ is int else s.data(ctx) for s in in_src]
            outs = _graph_grads.touch(
                outs,
                [
                    a
                    for a, s in zip(in_arrays, in_src)
                    if s.__class__ is not int and a._grad is not None and a._grad_req != "null"
                ],
            )
        else:  # outside autograd.record() no graph is built
            if conv:
                # convolution graphs run faster with NHWC strides (same logical NCHW shapes):
                # measured 1.3-1.7x on ResNet-50 inference on the 2-core CPU machine. Fused
                # inference convolutions (CPU) prepack their weights: only data is converted.
                data_only = not _state.is_train and ctx.device_type != "gpu" and fusion_enabled()
                tensors = [
                    t.contiguous(memory_format=torch.channels_last)
                    if t.dim() == 4
                    and t.is_floating_point()
                    and not (data_only and src.__class__ is not int)
                    else t
                    for t, src in zip(tensors, in_src)
                ]
            with torch.no_grad():
                outs = fn(tensors, aux, _state.is_train)
            if conv:
                outs = [o.contiguous() for o in outs]
        wrap = _np_wrap if self._np_graph else ndarray.NDArray._wrap
        if _state.is_recording and hook is None:
            res = [wrap(t, ctx) for t in outs]
            self._record_call(fn.prog, in_arrays, aux_params, flat, ctx, res)
            if self._out_format == 0:
                return res[0]
            return _regroup(res, self._out_format)[0]
        box = _deferred.first_box(flat) if _deferred.PENDING[0] else None
        if box is not None:  # an input carries a deferred failure: so do the outputs
            res = [wrap(t, ctx) for t in outs]
            for o in res:
                o._exc = box
            return res[0] if self._out_format == 0 else _regroup(res, self._out_format)[0]
        if self._out_format == 0:
            return wrap(outs[0], ctx)
        return _regroup([wrap(t, ctx) for t in outs], self._out_format)[0]

    def _record_call(self, prog, in_arrays, aux_params, flat, ctx, res) -> None:
        """Remember the call for ``autograd.get_symbol`` (its graph, expanded lazily)."""
        from ..ndarray._invoke import _prov_inputs

        arrays = in_arrays + [flat[p] if p.__class__ is int else p.data(ctx) for p in aux_params]
        sym = self._cached_graph[1]
        hit = self.__dict__.get("_inline_memo")
        if hit is None or hit[0] is not sym or hit[1] is not self._flags:
            flags = dict(self._flags)
            # MXNet's CachedOp records its graph inlined only up to inline_limit operators,
            # and never with static_alloc
            inline = not flags.get("static_alloc", False) and _num_ops(sym) <= int(
                flags.get("inline_limit", 2)
            )
            hit = self.__dict__["_inline_memo"] = (sym, self._flags, inline)
        inline = hit[2]
        call = _graph_grads.CallRecord(
            sym, [*prog.arg_names, *prog.aux_names], _prov_inputs(arrays), inline
        )
        box = _deferred.first_box(flat) if _deferred.PENDING[0] else None
        for i, o in enumerate(res):
            o._prov = (call, i)
            if box is not None:
                o._exc = box

    def _build_callable(self, graph_inputs, out):
        from .._executor._program import compile_enabled, compile_program

        backend = getattr(self, "_backend", None)
        if backend is not None:  # hybridize(backend=...): checked when the graph is built
            from ..symbol._frontend import _check_backend

            _check_backend("optimize_for", backend)

        prog = compile_program(out)
        # under autograd.record a hybridized block computes exactly like the same block run
        # imperatively (NCHW convolutions); inference converts its data itself (below)
        prog.cl_inputs = []
        # MXNET_NG_COMPILE=1 hands the graph to torch.compile (as for executors). Measured on
        # the 2-core machine it made ResNet-50 inference slower (1.9 vs 4.2 img/s), so
        # static_alloc/static_shape only reuse the cached callable.
        use_compile = compile_enabled()
        input_names, aux_names = list(prog.arg_names), list(prog.aux_names)

        def fn(inputs, aux, is_train):
            return prog.run(inputs, aux, is_train, compile=use_compile)

        fn.prog = prog  # (an op hook runs the program step by step)

        data_pos = {v.name: i for i, v in enumerate(graph_inputs) if v is not None}
        params = {p.name: p for p in self.collect_params().values()}
        params.update(self.collect_params().items())  # keys win (Block.load renames them)
        in_src = []
        for n in input_names:
            if n in data_pos:
                in_src.append(data_pos[n])
            elif n in params:
                in_src.append(params[n])
            else:
                raise MXNetError(
                    f"HybridBlock {self.name}: graph input '{n}' is neither a "
                    "block input nor a Parameter of this block"
                )
        aux_params = []
        for n in aux_names:
            if n in data_pos:
                aux_params.append(data_pos[n])
                continue
            if n not in params:
                raise MXNetError(
                    f"HybridBlock {self.name}: auxiliary state '{n}' is not a "
                    "Parameter of this block"
                )
            aux_params.append(params[n])
        from .._executor._program import CHANNELS_LAST_MIN_CONVS, channels_last_enabled

        conv = channels_last_enabled() and prog.num_conv2d >= CHANNELS_LAST_MIN_CONVS
        return fn, in_src, aux_params, conv

    # -- shape / type inference and export ----------------------------------------------
    def _infer_attrs(self, kind, *args):
        inputs, out = self._get_graph(*args)
        flat, _ = _flatten(list(args), "input")
        known = {v.name: getattr(a, kind) for v, a in zip(inputs, flat) if v is not None}
        if kind == "shape":
            arg, _, aux = out._infer_shape_raw(False, **known)
        else:
            arg, _, aux = out.infer_type(**known)
        attrs = dict(zip(out.list_arguments(), arg))
        attrs.update(zip(out.list_auxiliary_states(), aux))
        for p in self.collect_params().values():
            if p.name in attrs:
                setattr(p, kind, attrs[p.name])

    def infer_shape(self, *args):
        """Infer the shapes of deferred parameters from the input shapes."""
        self._infer_attrs("shape", *args)

    def infer_type(self, *args):
        """Infer the dtypes of parameters from the input dtypes."""
        self._infer_attrs("dtype", *args)

    def export(self, path, epoch=0, remove_amp_cast=True):
        """Write ``path-symbol.json`` and ``path-%04d.params`` (``arg:``/``aux:`` names).

        Examples
        --------
        >>> net.hybridize(); _ = net(x); net.export('model')  # doctest: +SKIP
        """
        if not self._cached_graph:
            raise RuntimeError(
                "Please first call block.hybridize() and then run forward with "
                "this block at least once before calling export."
            )
        sym = self._cached_graph[1]
        sym_filename = f"{path}-symbol.json"
        sym.save(sym_filename, remove_amp_cast=remove_amp_cast)
        arg_names = set(sym.list_arguments())
        aux_names = set(sym.list_auxiliary_states())
        params = self.collect_params()
        arg_dict = {}
        # MXNet saves the graph's parameter inputs in the graph's input order (a fused
        # RNN's weights before its biases); parameters the graph does not use are left out
        for name in sym.list_inputs():
            if name not in params:
                continue
            param = params[name]
            if name in arg_names:
                arg_dict[f"arg:{name}"] = param._reduce()
            elif name in aux_names:
                arg_dict[f"aux:{name}"] = param._reduce()
        params_filename = f"{path}-{epoch:04d}.params"
        ndarray.save(params_filename, arg_dict)  # MXNet 1.9.1 returns nothing


HybridBlock.__module__ = "mxnet.gluon.block"


def _num_ops(sym) -> int:
    """The number of operator nodes in ``sym``'s graph (counted once per graph)."""
    from ..symbol._node import topo_order

    return sum(1 for node in topo_order([e[0] for e in sym._outputs]) if node.op is not None)
