"""Data parallelism inside one process: one executor per context, batch split by workload."""

from __future__ import annotations

import logging
from collections import OrderedDict

from ..base import MXNetError

__all__ = ["DataParallelExecutorGroup"]


def _split_input_slice(batch_size: int, work_load_list) -> list[slice]:
    """Split ``batch_size`` samples into contiguous slices proportional to the workloads."""
    total = float(sum(work_load_list))
    batch_num_list = [round(w * batch_size / total) for w in work_load_list]
    diff = batch_size - sum(batch_num_list)
    batch_num_list[-1] += diff
    slices, end = [], 0
    for n in batch_num_list:
        begin = int(min(end, batch_size))
        end = int(min(begin + n, batch_size))
        if begin >= end:
            raise ValueError("Too many slices. Some splits are empty.")  # MXNet 1.9.1's
        slices.append(slice(begin, end))
    return slices


def _load_general(data, targets, major_axis) -> None:
    """Copy each source array into its targets: one NDArray, a list of per-device arrays
    (copied pairwise), or ``(slice, array)`` pairs cut along the batch axis (MXNet 1.x's
    private helper; custom executor groups import it)."""
    from .. import ndarray as nd

    for d_src, d_targets, axis in zip(data, targets, major_axis):
        if isinstance(d_targets, nd.NDArray):
            d_src.copyto(d_targets)
        elif isinstance(d_src, (list, tuple)):
            for src, dst in zip(d_src, d_targets):
                src.copyto(dst)
        else:
            for sl, d_dst in d_targets:
                if axis >= 0 and (sl.start != 0 or d_src.shape[axis] != sl.stop):
                    _slice(d_src, axis, sl).copyto(d_dst)
                else:
                    d_src.copyto(d_dst)


def _load_data(batch, targets, major_axis) -> None:
    _load_general(batch.data, targets, major_axis)


def _load_label(batch, targets, major_axis) -> None:
    _load_general(batch.label, targets, major_axis)


def _merge_multi_context(outputs, major_axis) -> list:
    """One array per output: per-device pieces concatenated along the batch axis (on the
    first piece's context), or the first piece where the output has no batch axis."""
    from .. import ndarray as nd

    rets = []
    for tensors, axis in zip(outputs, major_axis):
        if axis >= 0 and len(tensors) > 1:
            ctx = tensors[0].context
            rets.append(nd.concat(*[t.as_in_context(ctx) for t in tensors], dim=axis))
        else:
            rets.append(tensors[0])
    return rets


def _group2ctx_per_device(group2ctxs, n: int) -> list:
    """One ``{ctx_group: Context}`` (or None) per device, from MXNet's accepted forms: a
    list of such dicts, or one dict whose values are a context or a list of 1 or ``n``."""
    if group2ctxs is None:
        return [None] * n
    if isinstance(group2ctxs, (list, tuple)):
        if len(group2ctxs) != n:
            raise MXNetError(f"length of group2ctxs should be {n}")
        return list(group2ctxs)
    if not isinstance(group2ctxs, dict):
        raise MXNetError("group2ctxs should be a list of dicts of str to Context, or a dict "
                         "of str to Context or list of Context")
    out: list = [{} for _ in range(n)]
    for grp, v in group2ctxs.items():
        ctxs = list(v) if isinstance(v, (list, tuple)) else [v]
        if len(ctxs) == 1:
            ctxs = ctxs * n
        if len(ctxs) != n:
            raise MXNetError(f"length of group2ctxs[{grp}] should be {n} or 1")
        for i in range(n):
            out[i][grp] = ctxs[i]
    return out


def _batch_axis(desc) -> int:
    layout = getattr(desc, "layout", None)
    return max(layout.find("N"), 0) if layout else 0


def _as_desc(d):
    from ..io import DataDesc

    return d if isinstance(d, DataDesc) else DataDesc(*d)


def _slice(arr, axis: int, sl: slice):
    if axis == 0:
        return arr[sl.start:sl.stop]
    return arr.slice_axis(axis=axis, begin=sl.start, end=sl.stop)


class DataParallelExecutorGroup:
    """Executors of one symbol on several contexts, sharing a batch.

    Parameters mirror MXNet's class of the same name; ``param_arrays[i][k]`` is parameter
    ``i`` on context ``k``.
    """

    def __init__(self, symbol, contexts, workload, data_shapes, label_shapes, param_names,
                 for_training, inputs_need_grad, shared_group=None, logger=logging,
                 fixed_param_names=None, grad_req="write", state_names=None, group2ctxs=None):
        self.symbol = symbol
        self.contexts = list(contexts)
        self.workload = list(workload)
        self.param_names = list(param_names)
        self.for_training = for_training
        self.inputs_need_grad = inputs_need_grad
        self.logger = logger
        self.fixed_param_names = list(fixed_param_names or [])
        self.state_names = list(state_names or [])
        self.group2ctxs = _group2ctx_per_device(group2ctxs, len(self.contexts))
        self.arg_names = symbol.list_arguments()
        self.aux_names = symbol.list_auxiliary_states()
        self.grad_req = self._grad_req_dict(grad_req, [_as_desc(d).name for d in data_shapes])
        self.execs = []
        self.batch_size = None
        self.slices = None
        self.shared_group = shared_group
        # per context: the bound arrays of the non-parameter arguments (shared with the
        # group this one was created from)
        self.shared_data_arrays = shared_group.shared_data_arrays if shared_group is not None \
            else [{} for _ in self.contexts]
        self.bind_exec(data_shapes, label_shapes, shared_group)

    def _grad_req_dict(self, grad_req, data_names) -> dict:
        """Per-argument gradient requirements, as MXNet stores them in ``grad_req``."""
        if isinstance(grad_req, (list, tuple)):
            if len(grad_req) != len(self.arg_names):
                raise MXNetError(f"grad_req has {len(grad_req)} entries for "
                                 f"{len(self.arg_names)} arguments")
            return dict(zip(self.arg_names, grad_req))
        default = grad_req if isinstance(grad_req, str) else "write"
        reqs = {}
        for name in self.arg_names:
            if name in self.param_names:
                reqs[name] = "null" if name in self.fixed_param_names else default
            elif name in data_names:
                reqs[name] = default if self.inputs_need_grad else "null"
            else:
                reqs[name] = "null"
        if isinstance(grad_req, dict):
            reqs.update(grad_req)
        return reqs

    def _grad_req_for(self, name: str, data_names) -> str:
        if not self.for_training:
            return "null"
        return self.grad_req.get(name, "null")

    def decide_slices(self, data_shapes) -> list[slice]:
        sizes = {d.shape[_batch_axis(d)] for d in data_shapes}
        if len(sizes) != 1:
            raise MXNetError(f"All data must have the same batch size: {data_shapes}")
        self.batch_size = sizes.pop()
        self.slices = _split_input_slice(self.batch_size, self.workload)
        return self.slices

    def bind_exec(self, data_shapes, label_shapes, shared_group=None, reshape=False) -> None:
        self.data_shapes = [_as_desc(d) for d in data_shapes]
        self.label_shapes = [_as_desc(d) for d in label_shapes or []]
        self.data_names = [d.name for d in self.data_shapes]
        self.label_names = [d.name for d in self.label_shapes if d.name in self.arg_names]
        self.decide_slices(self.data_shapes)
        old = self.execs
        self.execs = []
        for i, ctx in enumerate(self.contexts):
            n = self.slices[i].stop - self.slices[i].start

            def sliced(d, n=n):
                shp = list(d.shape)
                shp[_batch_axis(d)] = n
                return tuple(shp)

            shapes = {d.name: sliced(d) for d in self.data_shapes}
            shapes.update({d.name: sliced(d) for d in self.label_shapes
                           if d.name in self.arg_names})
            types = {d.name: d.dtype for d in self.data_shapes + self.label_shapes
                     if d.name in self.arg_names}
            if reshape and old:
                ex = old[i].reshape(allow_up_sizing=True, **shapes)
            else:
                reqs = {name: self._grad_req_for(name, self.data_names)
                        for name in self.arg_names}
                kw = {}
                if shared_group is not None:
                    kw = {"shared_exec": shared_group.execs[i],
                          "shared_arg_names": self.param_names}
                ex = self.symbol.simple_bind(ctx=ctx, grad_req=reqs, type_dict=types, **kw,
                                             group2ctx=self.group2ctxs[i], **shapes)
            self.execs.append(ex)
            shared = self.shared_data_arrays[i]
            for name in self.arg_names:
                if name not in self.param_names:
                    shared[name] = ex.arg_dict[name]
        self.param_arrays = [[e.arg_dict[n] for e in self.execs] for n in self.param_names]
        self.grad_arrays = [[e.grad_dict.get(n) for e in self.execs] for n in self.param_names]
        if self.for_training and any(g[0] is None for g in self.grad_arrays):
            self.grad_arrays = [g if g[0] is not None else [None] * len(g)
                                for g in self.grad_arrays]
        self.aux_arrays = [[e.aux_dict[n] for e in self.execs] for n in self.aux_names]
        self.data_arrays = [[(self.slices[i], e.arg_dict[n]) for i, e in enumerate(self.execs)]
                            for n in self.data_names]
        self.label_arrays = [[(self.slices[i], e.arg_dict[n]) for i, e in enumerate(self.execs)]
                             for n in self.label_names]
        self.state_arrays = [[e.arg_dict[n] for e in self.execs] for n in self.state_names]
        self.data_axes = [_batch_axis(d) for d in self.data_shapes]
        self.label_axes = [_batch_axis(d) for d in self.label_shapes if d.name in self.arg_names]
        self.label_axes_all = [_batch_axis(d) for d in self.label_shapes]
        self.output_axes = []
        for k in range(len(self.symbol.list_outputs())):
            lay = self.symbol[k].attr("__layout__")
            self.output_axes.append(max(lay.find("N"), 0) if lay else 0)
        self.input_grad_arrays = [[e.grad_dict.get(n) for e in self.execs]
                                  for n in self.data_names] if self.inputs_need_grad else []

    def reshape(self, data_shapes, label_shapes) -> None:
        if list(data_shapes) == self.data_shapes and list(label_shapes or []) == self.label_shapes:
            return
        self.bind_exec(data_shapes, label_shapes, reshape=True)

    def set_params(self, arg_params, aux_params, allow_extra=False) -> None:
        for e in self.execs:
            e.copy_params_from(arg_params, aux_params, allow_extra_params=allow_extra)

    def get_params(self, arg_params, aux_params) -> None:
        """Average each parameter over the devices into ``arg_params``/``aux_params``."""
        from ..context import cpu

        for name, block in zip(self.param_names, self.param_arrays):
            w = sum(x.as_in_context(cpu()) for x in block) / len(block) if len(block) > 1 \
                else block[0].as_in_context(cpu())
            w.astype(arg_params[name].dtype).copyto(arg_params[name])
        for name, block in zip(self.aux_names, self.aux_arrays):
            w = sum(x.as_in_context(cpu()) for x in block) / len(block) if len(block) > 1 \
                else block[0].as_in_context(cpu())
            w.astype(aux_params[name].dtype).copyto(aux_params[name])

    def _load(self, arrays, targets, axes) -> None:
        for src, dst_list, ax in zip(arrays, targets, axes):
            for sl, dst in dst_list:
                part = src if len(dst_list) == 1 else _slice(src, ax, sl)
                if part.shape != dst.shape:
                    raise MXNetError(f"Module: input shape {part.shape} does not match the "
                                     f"bound shape {dst.shape}")
                part.copyto(dst)

    def forward(self, data_batch, is_train=None) -> None:
        self._load(data_batch.data, self.data_arrays, self.data_axes)
        if is_train is None:
            is_train = self.for_training
        if self.label_arrays and data_batch.label:
            self._load(data_batch.label, self.label_arrays, self.label_axes)
        for e in self.execs:
            e.forward(is_train=is_train)

    def get_output_shapes(self):
        outs = self.execs[0].outputs
        return [(n, (self.batch_size,) + tuple(o.shape[1:]))
                for n, o in zip(self.symbol.list_outputs(), outs)]

    def get_outputs(self, merge_multi_context=True, begin=0, end=None):
        from .. import ndarray as nd

        n = len(self.execs[0].outputs)
        end = n if end is None else end
        outputs = [[e.outputs[i] for e in self.execs] for i in range(begin, end)]
        if merge_multi_context:
            axes = self.output_axes[begin:end]
            return [o[0] if len(o) == 1 else nd.concatenate(
                [x.as_in_context(self.contexts[0]) for x in o], axis=ax)
                for o, ax in zip(outputs, axes)]
        return outputs

    def get_input_grads(self, merge_multi_context=True):
        from .. import ndarray as nd

        if not self.inputs_need_grad:
            raise MXNetError("get_input_grads: bind with inputs_need_grad=True first")
        if merge_multi_context:
            return [g[0] if len(g) == 1 else nd.concatenate(
                [x.as_in_context(self.contexts[0]) for x in g], axis=ax)
                for g, ax in zip(self.input_grad_arrays, self.data_axes)]
        return self.input_grad_arrays

    def backward(self, out_grads=None) -> None:
        if not self.for_training:
            raise AssertionError("re-bind with for_training=True to run backward")  # MXNet
        for i, e in enumerate(self.execs):
            grads = None
            if out_grads is not None:
                sl = self.slices[i]
                grads = [g if len(self.execs) == 1 else _slice(g, ax, sl)
                         for g, ax in zip(out_grads, self.output_axes)]
                grads = [g.as_in_context(self.contexts[i]) for g in grads]
            e.backward(out_grads=grads)

    def update_metric(self, eval_metric, labels, pre_sliced=False) -> None:
        for i, e in enumerate(self.execs):
            if pre_sliced:
                labels_slice = labels[i]
            elif len(self.execs) == 1:
                labels_slice = labels
            else:
                sl = self.slices[i]
                axes = self.label_axes_all or [0] * len(labels)
                labels_slice = [_slice(lab, ax, sl) for lab, ax in zip(labels, axes)]
            names = [d.name for d in self.label_shapes] or \
                [f"label{j}" for j in range(len(labels_slice))]
            labels_ = OrderedDict(zip(names, labels_slice))
            preds = OrderedDict(zip(self.symbol.list_outputs(), e.outputs))
            if hasattr(eval_metric, "update_dict"):
                eval_metric.update_dict(labels_, preds)
            else:
                eval_metric.update(list(labels_.values()), list(preds.values()))

    def get_states(self, merge_multi_context=True):
        from .. import ndarray as nd

        if merge_multi_context:
            return [s[0] if len(s) == 1 else nd.concatenate(
                [x.as_in_context(self.contexts[0]) for x in s]) for s in self.state_arrays]
        return self.state_arrays

    def set_states(self, states=None, value=None) -> None:
        if states is not None:
            if value is not None:
                raise MXNetError("set_states: only one of states and value can be specified")
            for src, dsts in zip(states, self.state_arrays):
                for i, dst in enumerate(dsts):
                    if isinstance(src, (list, tuple)):
                        part = src[i]
                    elif len(dsts) == 1:
                        part = src
                    else:
                        sl = self.slices[i]
                        part = src[sl.start:sl.stop]
                    part.copyto(dst)
        else:
            if value is None:
                raise MXNetError("set_states: give states or value")
            for dsts in self.state_arrays:
                for dst in dsts:
                    dst[:] = value

    def install_monitor(self, mon) -> None:
        for e in self.execs:
            mon.install(e)
