"""Compile a Symbol graph once into a flat list of steps over torch tensors.

Each step is ``(compute, attrs, input slots, output slots, slots to free)``; running the
program is one Python loop over that list with a list of tensors as the only storage: no
per-node lookups, attributes parsed once, intermediates dropped as soon as no later step
reads them.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence

import torch

from .._op._apply import OpValueError
from .._op._state import state
from ..base import MXNetError
from ..symbol._node import Node, aux_node_ids, topo_order
from ._fuse import fusion_enabled
from ._monitor import input_labels

Step = tuple  # (compute, attrs, in_slots, out_slots, free_slots, node)


class Program:
    """A compiled graph.

    Attributes
    ----------
    arg_names, aux_names : list of str
        Input order of :meth:`run` (``list_arguments`` and ``list_auxiliary_states``).
    output_names : list of str
        ``list_outputs`` of the symbol.
    """

    def __init__(
        self,
        steps: list[Step],
        nslots: int,
        heads: list[int],
        arg_names: list[str],
        aux_names: list[str],
        output_names: list[str],
        nodes: list[Node],
    ):
        self.steps = steps
        self.nslots = nslots
        self.heads = heads
        self.arg_names = arg_names
        self.aux_names = aux_names
        self.output_names = output_names
        self.nodes = nodes
        self._compiled: Callable | None = None
        self.cl_inputs: list[int] = []  # argument slots converted to channels-last
        self.cl_probe: list[int] = []  # argument slots whose shapes decide (conv data)
        self.has_grouped_conv = False
        self._cl_choice: dict = {}
        self.num_conv2d = 0
        # creation steps whose shape has unknown (0) dims, e.g. RNN begin states made with
        # F.zeros(shape=(layers, 0, hidden)); resolved per input-shape signature
        self.partial: list[int] = []
        self._resolved: dict = {}
        self.last_watch: list | None = None  # (node name, input tensors) of a monitored run
        self._infer_steps: list[Step] | None | bool = False  # False: not built yet
        self._fast: list[Step] | None | bool = False
        self.fused_fallbacks = 0  # runs whose rewritten steps failed where plain ones ran

    def _fast_steps(self) -> list[Step] | None:
        """The steps with relus that overwrite their dead inputs and max pooling moved before
        relu (see ``_fuse``)."""
        if self._fast is False:
            from ._fuse import inplace_relu_steps, pool_before_relu_steps
            from ._fuse_train import bn_relu_steps

            keep = set(range(len(self.arg_names) + len(self.aux_names))) | set(self.heads)
            fused = bn_relu_steps(self.steps, keep)
            steps = pool_before_relu_steps(fused or self.steps, keep) or fused
            fast = inplace_relu_steps(steps or self.steps, keep)
            self._fast = fast or steps
        return self._fast

    def _inference_steps(self) -> list[Step] | None:
        """The steps with convolution chains fused for inference (see ``_fuse``), if any."""
        if self._infer_steps is False:
            from ._fuse import fuse_inference_steps

            keep = set(range(len(self.arg_names) + len(self.aux_names))) | set(self.heads)
            self._infer_steps = fuse_inference_steps(self.steps, self.heads, keep)
        return self._infer_steps

    def _steps_for(self, inputs, aux) -> list[Step]:
        """The steps with every partial creation shape filled in by shape inference."""
        if not self.partial:
            return self.steps
        key = tuple(tuple(t.shape) for t in inputs) + tuple(tuple(t.shape) for t in aux)
        steps = self._resolved.get(key)
        if steps is None:
            from ..symbol._infer import infer_graph_shapes

            names = self.arg_names + self.aux_names
            known = dict(zip(names, [tuple(t.shape) for t in list(inputs) + list(aux)]))
            shapes = infer_graph_shapes(self.nodes, known)
            steps = list(self.steps)
            for k in self.partial:
                compute, attrs, ins, outs, frees, node = steps[k]
                shp = shapes.get((id(node), 0))
                if shp is None or 0 in shp:
                    raise MXNetError(
                        f"Error in operator {node.name}: cannot infer the unknown "
                        f"dimensions of shape {attrs['shape']}"
                    )
                steps[k] = (compute, {**attrs, "shape": tuple(shp)}, ins, outs, frees, node)
            if len(self._resolved) > 64:
                self._resolved.clear()
            self._resolved[key] = steps
        return steps

    def _channels_last_pays(self, inputs) -> bool:
        """Whether these input shapes run faster in channels-last memory (decided once per
        shape): graphs with grouped (depthwise) convolutions always, others on images of at
        least 64x64 pixels. Measured on the 2-core CPU, ResNet-18 training through Module:
        channels-last 0.78x at 32x32 (dense 3x3 convolutions over 1x1-2x2 maps are slow in
        it), even at 64x64, 1.12x at 224x224; MobileNet-0.25 at 32x32: 1.45x."""
        if self.has_grouped_conv:
            return True
        key = tuple(tuple(inputs[i].shape) for i in self.cl_probe)
        pays = self._cl_choice.get(key)
        if pays is None:
            pays = (
                any(len(shp) == 4 and shp[2] * shp[3] >= _CHANNELS_LAST_MIN_PIXELS for shp in key)
                or not key
            )
            if len(self._cl_choice) > 64:
                self._cl_choice.clear()
            self._cl_choice[key] = pays
        return pays

    def _to_channels_last(self, inputs):
        """4-D inputs of convolutions in channels-last memory (same shape, NHWC strides):
        oneDNN/cuDNN convolutions run faster on it; every other op is layout-agnostic."""
        if not self._channels_last_pays(inputs):
            return inputs
        cl = torch.channels_last
        out = list(inputs)
        for i in self.cl_inputs:
            t = out[i]
            if t.dim() == 4 and not t.is_contiguous(memory_format=cl):
                out[i] = t.contiguous(memory_format=cl)
        return out

    def _raw(
        self,
        inputs: Sequence[torch.Tensor],
        aux: Sequence[torch.Tensor],
        steps: list[Step] | None = None,
    ):
        if self.cl_inputs:
            inputs = self._to_channels_last(inputs)
        buf: list = [None] * self.nslots
        nargs = len(inputs)
        buf[:nargs] = inputs
        buf[nargs : nargs + len(aux)] = aux
        node = None
        try:
            for compute, attrs, ins, outs, frees, node in steps or self._steps_for(  # noqa: B007
                inputs, aux
            ):
                r = compute(attrs, *[buf[i] for i in ins])
                if isinstance(r, torch.Tensor):
                    buf[outs[0]] = r
                else:
                    for o, t in zip(outs, r):
                        buf[o] = t
                for f in frees:
                    buf[f] = None
        except MXNetError as e:  # MXNet names the graph node that failed
            if node is None or type(e) is not MXNetError or str(e).startswith("Error in"):
                raise
            raise MXNetError(f"Error in operator {node.name}: {e}") from None
        return [buf[h] for h in self.heads]

    def run_linked(
        self, inputs: Sequence[torch.Tensor], aux: Sequence[torch.Tensor], is_train: bool
    ) -> list[torch.Tensor]:
        """Run step by step carrying the float64 shadows of integer tensors, so integer
        arguments and casts to integers pass gradients as in MXNet (see ``mxnet._int_grad``).
        """
        from .. import _int_grad

        prev = state.is_train
        state.is_train = bool(is_train)
        try:
            buf: list = [None] * self.nslots
            nargs = len(inputs)
            buf[:nargs] = inputs
            buf[nargs : nargs + len(aux)] = aux
            for compute, attrs, ins, outs, frees, node in self._steps_for(inputs, aux):
                args = [buf[i] for i in ins]
                try:
                    r = compute(attrs, *args)
                except MXNetError as e:
                    raise MXNetError(f"Error in operator {node.name}: {e}") from None
                r = (r,) if isinstance(r, torch.Tensor) else tuple(r)
                r = _int_grad.link_step(
                    lambda ts, c=compute, a=attrs: c(a, *ts),
                    args,
                    r,
                    getattr(node.op, "int_grad_zero", False),
                )
                for o, t in zip(outs, r):
                    buf[o] = t
                for f in frees:
                    buf[f] = None
            return [buf[h] for h in self.heads]
        finally:
            state.is_train = prev

    def has_int_casts(self) -> bool:
        """Whether a step casts to an integer type (its gradient needs :meth:`run_linked`)."""
        found = getattr(self, "_int_casts", None)
        if found is None:
            found = False
            for _c, attrs, _i, _o, _f, node in self.steps:
                dt = attrs.get("dtype") if isinstance(attrs, dict) else None
                if node.op.name in ("Cast", "amp_cast") and dt is not None:
                    found = found or str(dt).startswith(("int", "uint"))
            self._int_casts = found
        return found

    def _checked(self, inputs, aux, monitor=None, monitor_all=False):
        if self.cl_inputs:
            inputs = self._to_channels_last(inputs)
        buf: list = [None] * self.nslots
        nargs = len(inputs)
        buf[:nargs] = inputs
        buf[nargs : nargs + len(aux)] = aux
        watch = self.last_watch = [] if monitor is not None else None
        for compute, attrs, ins, outs, frees, node in self._steps_for(inputs, aux):
            args = [buf[i] for i in ins]
            if watch is not None:
                watch.append((node.name, args))  # for the backward monitor
            if monitor_all and monitor is not None:
                for (var, label), t in zip(input_labels(node), args):
                    if var is not None:
                        monitor(var, t.detach())
                    monitor(label, t.detach())
            try:
                r = compute(attrs, *args)
            except MXNetError as e:
                raise MXNetError(f"Error in operator {node.name}: {e}") from None
            except OpValueError:
                raise
            except (RuntimeError, ValueError, IndexError, TypeError) as e:
                shapes = ", ".join(str(tuple(t.shape)) for t in args)
                raise MXNetError(
                    f"Error in operator {node.name} ({node.op.name}): {e} "
                    f"(input shapes: [{shapes}])"
                ) from None
            if isinstance(r, torch.Tensor):
                r = (r,)
            for o, t in zip(outs, r):
                buf[o] = t
            if monitor is not None:  # hidden outputs too, as MXNet
                for name, t in zip(node.output_names(), r):
                    if isinstance(t, torch.Tensor):
                        monitor(name, t.detach())
            for f in frees:
                buf[f] = None
        return [buf[h] for h in self.heads]

    def run(
        self,
        inputs: Sequence[torch.Tensor],
        aux: Sequence[torch.Tensor],
        is_train: bool,
        monitor: Callable | None = None,
        compile: bool = False,
        monitor_all: bool = False,
    ) -> list[torch.Tensor]:
        """Run the graph; sets the training flag read by Dropout/BatchNorm meanwhile."""
        prev = state.is_train
        state.is_train = bool(is_train)
        try:
            if monitor is not None:
                outs = self._checked(inputs, aux, monitor, monitor_all)
            elif compile:
                if self._compiled is None:
                    from .._op import _conv_native, _conv_small, _conv_wino, _norm, _norm_ops

                    _norm_ops.ready()  # build/load the native kernels: tracing reads the answer
                    _conv_native.ready()
                    _conv_wino.enabled()
                    _conv_small.ready()
                    for step in self.steps:  # memoise outside tracing (a write there breaks it)
                        if isinstance(step[1], dict) and "momentum" in step[1]:
                            _norm._momentum_weights(float(step[1]["momentum"]))
                    steps = None
                    if not self.partial and fusion_enabled():
                        from ._fuse_train import bn_relu_steps

                        keep = set(range(len(self.arg_names) + len(self.aux_names)))
                        steps = bn_relu_steps(self.steps, keep | set(self.heads))
                    self._compiled = torch.compile(
                        functools.partial(self._raw, steps=steps), dynamic=False)
                if self.cl_inputs:  # memoise the layout choice outside tracing (see above)
                    self._channels_last_pays(inputs)
                outs = self._compiled(list(inputs), list(aux))
            else:
                fused = None
                if (
                    not is_train
                    and not self.partial
                    and not torch.is_grad_enabled()
                    and fusion_enabled()
                ):
                    fused = self._inference_steps()
                if fused is None and not self.partial and fusion_enabled():
                    fused = self._fast_steps()
                try:
                    outs = self._raw(inputs, aux, fused)
                except (MXNetError, OpValueError):
                    raise
                except (RuntimeError, ValueError, IndexError, TypeError):
                    # run again step by step to name the failing node
                    outs = self._checked(inputs, aux)
                    if fused:  # the plain steps ran: the rewritten ones cannot (e.g. an
                        # in-place step autograd refuses); keep to the plain ones from now on
                        self.fused_fallbacks += 1
                        if fused is self._fast:
                            self._fast = None
                        else:
                            self._infer_steps = None
                if fused:
                    outs = [o.contiguous() for o in outs]
            if self.cl_inputs:
                outs = [o.contiguous() for o in outs]
            return outs
        finally:
            state.is_train = prev


def compile_enabled(option: bool | None = None) -> bool:
    """Whether the torch.compile switch is on (option, else ``MXNET_NG_COMPILE=1``)."""
    if option is not None:
        return bool(option)
    return os.environ.get("MXNET_NG_COMPILE", "0") not in ("", "0", "false", "False")


def _device_mover(compute: Callable, dev: torch.device) -> Callable:
    def moved(attrs, *ts):
        return compute(attrs, *[t if t.device == dev else t.to(dev) for t in ts])

    return moved


def compile_program(
    symbol,
    group_devices: dict[str, torch.device] | None = None,
    default_device: torch.device | None = None,
) -> Program:
    """Turn ``symbol`` into a :class:`Program` (once per bind).

    ``group_devices`` maps ``ctx_group`` names to devices (model parallelism): steps of a
    group run there, their inputs are copied over when they live elsewhere.
    """
    heads = [n for n, _ in symbol._outputs]
    order = topo_order(heads)
    aux = aux_node_ids(order)
    variables = [n for n in order if n.op is None]
    args = [n for n in variables if id(n) not in aux]
    auxs = [n for n in variables if id(n) in aux]
    slot: dict[tuple[int, int], int] = {}
    for n in args + auxs:
        slot[(id(n), 0)] = len(slot)
    ops = [n for n in order if n.op is not None]
    for n in ops:
        for i in range(n.num_outputs()):
            slot[(id(n), i)] = len(slot)
    head_slots = [slot[(id(n), i)] for n, i in symbol._outputs]
    # last reader of every slot, to free intermediates early
    last_use: dict[int, int] = {}
    for k, n in enumerate(ops):
        for s, i in n.inputs:
            last_use[slot[(id(s), i)]] = k
    keep = set(head_slots) | set(range(len(args) + len(auxs)))
    steps: list[Step] = []
    frees_at: dict[int, list[int]] = {}
    for s, k in last_use.items():
        if s not in keep:
            frees_at.setdefault(k, []).append(s)
    for k, n in enumerate(ops):
        ins = tuple(slot[(id(s), i)] for s, i in n.inputs)
        outs = tuple(slot[(id(n), i)] for i in range(n.num_outputs()))
        # outputs never read by anyone are freed right away
        unread = [o for o in outs if o not in last_use and o not in keep]
        compute = n.op.compute
        if group_devices:
            dev = group_devices.get(n.attrs.get("__ctx_group__", ""), default_device)
            if dev is not None:
                compute = _device_mover(compute, dev)
        steps.append((compute, n.parsed, ins, outs, tuple(frees_at.get(k, []) + unread), n))
    prog = Program(
        steps,
        len(slot),
        head_slots,
        [n.name for n in args],
        [n.name for n in auxs],
        symbol.list_outputs(),
        order,
    )
    from ..util import is_np_shape

    # a 0 in a creation shape means "unknown" only in MXNet's classic shape semantics (the
    # NumPy-interface creation operators and NumPy-shape mode take it as a real size)
    np_shape = is_np_shape()
    prog.partial = [
        k
        for k, n in enumerate(ops)
        if n.op.creation
        and not np_shape
        and not n.op.name.startswith("_np")
        and 0 in tuple(n.parsed.get("shape") or ())
    ]
    convs = [
        n
        for n in ops
        if n.op.name in ("Convolution", "Deconvolution")
        and len(n.parsed.get("kernel", ())) == 2
        and n.parsed.get("layout") in (None, "NCHW")
    ]
    prog.num_conv2d = len(convs)
    if channels_last_enabled() and len(convs) >= CHANNELS_LAST_MIN_CONVS:
        nargs = len(args)
        cl, probe = set(), set()
        for n in convs:
            for j, (src, i) in enumerate(n.inputs[:2]):
                k = slot[(id(src), i)]
                if k < nargs:
                    cl.add(k)
                    if j == 0:
                        probe.add(k)
        prog.cl_inputs = sorted(cl)
        prog.cl_probe = sorted(probe)
        prog.has_grouped_conv = any(int(n.parsed.get("num_group") or 1) > 1 for n in convs)
    return prog


# Channels-last memory pays off on deep conv nets (ResNet-50: +3-10% training, 1.3-1.7x
# inference here) but costs shallow ones the layout copies (LeNet training: -9%), measured
# on the 2-core CPU machine; graphs with fewer 2-D convolutions stay NCHW.
CHANNELS_LAST_MIN_CONVS = 8
# ...and images of at least this many pixels (see Program._channels_last_pays)
_CHANNELS_LAST_MIN_PIXELS = 64 * 64


def channels_last_enabled() -> bool:
    """Channels-last memory for conv graphs (``MXNET_NG_CHANNELS_LAST=0`` turns it off)."""
    return os.environ.get("MXNET_NG_CHANNELS_LAST", "1") not in ("0", "false", "False")
