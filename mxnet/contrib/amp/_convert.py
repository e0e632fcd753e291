"""The precision-reducing graph pass behind ``amp.convert_symbol`` (private).

It copies a float32 graph and inserts ``amp_cast`` / ``amp_multicast`` nodes, following the
behaviour of MXNet 1.9.1's ``ReducePrecision`` pass: inputs of target-dtype operators are
cast to the target dtype, inputs of float32 (and conditionally float32) operators to float32,
widest-type operators get casts when every input dtype is known and one ``amp_multicast``
otherwise; outputs end in float32. Cast nodes are named ``<source>[_<output>]_amp_cast_<dtype>``
and shared by every consumer of one entry. Afterwards the graph's types are inferred and the
``__dtype__`` attribute of the model parameters is set.
"""

from __future__ import annotations

from ..._dtype import CODE_TO_NAME, NAME_TO_CODE
from ..._op._registry import get_op
from ...base import MXNetError
from ...symbol._node import Node, topo_order
from ...symbol.symbol import Symbol

__all__ = ["reduce_precision"]

# operators whose outputs have names (MXNet's FListOutputNames); others are numbered
_NAMED_OUTPUTS = frozenset(
    (
        "Activation BatchNorm BatchNorm_v1 BilinearSampler Concat Convolution Convolution_v1 "
        "Correlation Crop Deconvolution Dropout FullyConnected GridGenerator GroupNorm "
        "IdentityAttachKLSparseReg InstanceNorm L2Normalization LRN LayerNorm LeakyReLU MakeLoss "
        "Pad Pooling Pooling_v1 RNN ROIPooling SVMOutput SequenceLast SequenceMask "
        "SequenceReverse SliceChannel SoftmaxActivation SoftmaxOutput SpatialTransformer SwapAxis "
        "UpSampling elemwise_add make_loss softmax softmin _rnn_param_concat "
        "_contrib_BatchNormWithReLU _contrib_MultiBoxDetection _contrib_MultiBoxPrior "
        "_contrib_MultiBoxTarget _contrib_MultiProposal _contrib_Proposal _contrib_ROIAlign "
        "_contrib_calibrate_entropy _contrib_fft _contrib_ifft _contrib_index_array "
        "_contrib_quantize_asym _contrib_quantized_elemwise_mul _contrib_quantized_flatten"
    ).split()
)

Key = tuple[int, int]  # (id(original node), output index)


def _suffix(node: Node, index: int) -> str:
    if node.op is None:
        return ""
    if node.op.name in _NAMED_OUTPUTS:
        return "_" + node.op.output_names(node.parsed)[index]
    return f"_{index}"


def _infer(node: Node, first: str) -> tuple[list, list] | None:
    """Input and output dtypes of ``node`` when its first input has dtype ``first``."""
    ins: list = [first] + [None] * (len(node.inputs) - 1)
    nout = node.num_outputs()
    try:
        fn = node.op.infer_type_fn
        if fn is not None:
            new_ins, outs = fn(node.parsed, list(ins))
        else:
            new_ins, outs = [first] * len(ins), [first] * nout
    except (MXNetError, ValueError, TypeError, KeyError, IndexError):
        return None
    return list(new_ins), list(outs or [None] * nout)


class _Pass:
    def __init__(
        self,
        target: str,
        target_ops,
        fp32_ops,
        widest_ops,
        conditional,
        excluded,
        data_names,
        cast_optional: bool,
    ):
        self.target = target
        self.target_ops, self.fp32_ops, self.widest_ops = target_ops, fp32_ops, widest_ops
        self.conditional, self.excluded = conditional, excluded
        self.data_names, self.cast_optional = set(data_names), cast_optional
        self.mirror: dict[int, Node] = {}
        self.fp32: dict[Key, tuple] = {}
        self.low: dict[Key, tuple] = {}

    def _mirror_entry(self, node: Node, i: int, ver: int) -> tuple:
        src, idx = node.inputs[i]
        return (self.mirror[id(src)], idx), ver

    def _cast(self, src: Node, idx: int, ver: int, dtype: str, table: dict) -> tuple:
        new_src = self.mirror[id(src)]
        name = f"{src.name}{_suffix(new_src, idx)}_amp_cast_{dtype}"
        c = Node(get_op("amp_cast"), name, {"dtype": dtype})
        c.set_inputs([(new_src, idx)], [ver])
        table[(id(src), idx)] = ((c, 0), ver)
        return (c, 0), ver

    def _record_outputs(self, node: Node, new: Node, outs: list) -> None:
        for i, t in enumerate(outs[: node.num_outputs()]):
            if t == self.target:
                self.low[(id(node), i)] = ((new, i), 0)
            elif t == "float32":
                self.fp32[(id(node), i)] = ((new, i), 0)

    def _is_conditional_fp32(self, node: Node) -> bool:
        rules = self.conditional.get(node.op.name)
        if not rules or node.name in self.excluded:
            return False
        return any(node.attrs.get(p) in vals for p, vals in rules.items())

    def visit(self, node: Node) -> None:
        new = Node(node.op, node.name, dict(node.attrs))
        new._parsed = node._parsed
        new.subgraphs = list(node.subgraphs)
        new.control_deps = [self.mirror[id(d)] for d in node.control_deps]
        self.mirror[id(node)] = new
        if node.op is None:
            return
        ins: list[tuple] = []
        mutable = set(node.mutable_input_indices())
        vers = node.in_versions
        name = node.op.name
        if name in self.fp32_ops or node.name in self.excluded:
            self._record_outputs(node, new, ["float32"] * node.num_outputs())
            for i, (src, idx) in enumerate(node.inputs):
                key = (id(src), idx)
                if key in self.fp32:
                    ins.append(self.fp32[key])
                elif src.op is None:
                    ins.append(self._mirror_entry(node, i, vers[i]))
                else:
                    ins.append(self._cast(src, idx, vers[i], "float32", self.fp32))
        elif name in self.target_ops:
            types = _infer(node, self.target)
            if types is None:
                raise MXNetError(
                    f"amp.convert_symbol: type inference failed for node "
                    f"{node.name} ({name}) with {self.target} inputs"
                )
            in_types, out_types = types
            self._record_outputs(node, new, out_types)
            for i, (src, idx) in enumerate(node.inputs):
                key = (id(src), idx)
                if key in self.low:
                    ins.append(self.low[key])
                elif (
                    (self.cast_optional and src.op is None and src.name not in self.data_names)
                    or i in mutable
                    or in_types[i] not in (self.target, None)
                ):
                    e = self._mirror_entry(node, i, vers[i])
                    ins.append(e)
                    if self.cast_optional and src.op is None:
                        self.low[key] = e
                else:
                    ins.append(self._cast(src, idx, vers[i], self.target, self.low))
        elif name in self.widest_ops and node.name not in self.excluded:
            ins = self._widest(node, new)
        elif self._is_conditional_fp32(node):
            self._record_outputs(node, new, ["float32"] * node.num_outputs())
            for i, (src, idx) in enumerate(node.inputs):
                key = (id(src), idx)
                if key in self.fp32:
                    ins.append(self.fp32[key])
                elif i in mutable:
                    ins.append(self._mirror_entry(node, i, vers[i]))
                else:
                    ins.append(self._cast(src, idx, vers[i], "float32", self.fp32))
        else:
            if node.inputs:
                key = (id(node.inputs[0][0]), node.inputs[0][1])
                first = (
                    self.target if key in self.low else ("float32" if key in self.fp32 else None)
                )
                if first is not None:
                    types = _infer(node, first)
                    if types is not None:
                        self._record_outputs(node, new, types[1])
            ins = [self._mirror_entry(node, i, vers[i]) for i in range(len(node.inputs))]
        new.set_inputs([e for e, _ in ins], [v for _, v in ins])

    def _widest(self, node: Node, new: Node) -> list[tuple]:
        if not node.inputs:
            raise MXNetError(
                f"Please check the symbol. node name: {node.name}op name "
                f"{node.op.name} has no inputs."
            )
        keys = [(id(s), i) for s, i in node.inputs]
        vers = node.in_versions
        if any(k not in self.low and k not in self.fp32 for k in keys):
            src0, idx0 = node.inputs[0]
            mname = f"{src0.name}{_suffix(self.mirror[id(src0)], idx0)}_amp_multicast"
            mc = Node(get_op("amp_multicast"), mname, {"num_outputs": str(len(keys))})
            mc.set_inputs([(self.mirror[id(s)], i) for s, i in node.inputs], list(vers))
            return [((mc, i), vers[i]) for i in range(len(keys))]
        out = "float32" if any(k in self.fp32 for k in keys) else self.target
        self._record_outputs(node, new, [out] * node.num_outputs())
        table = self.low if out == self.target else self.fp32
        ins = []
        for i, ((src, idx), key) in enumerate(zip(node.inputs, keys)):
            if key in table:
                ins.append(table[key])
            else:
                ins.append(self._cast(src, idx, vers[i], out, table))
        return ins

    def outputs(self, heads: list) -> list:
        res = []
        for node, idx in heads:
            key = (id(node), idx)
            if key in self.fp32:
                res.append(self.fp32[key][0])
            else:
                res.append(self._cast(node, idx, 0, "float32", self.fp32)[0])
        return res


def reduce_precision(
    sym: Symbol,
    target: str,
    target_ops,
    fp32_ops,
    widest_ops,
    conditional,
    excluded,
    data_names,
    model_params,
    cast_optional: bool,
) -> Symbol:
    """Mixed-precision copy of ``sym`` (see the module docstring)."""
    order = topo_order([n for n, _ in sym._outputs])
    p = _Pass(
        target,
        set(target_ops),
        set(fp32_ops),
        set(widest_ops),
        conditional,
        set(excluded),
        data_names,
        cast_optional,
    )
    for node in order:
        p.visit(node)
    out = Symbol._from_entries(p.outputs(sym._outputs))
    _set_param_dtypes(out, target, data_names, set(model_params), cast_optional)
    return out


def _set_param_dtypes(
    out: Symbol, target: str, data_names, model_params: set, cast_optional: bool
) -> None:
    from ...symbol._infer import infer_graph_types

    order = topo_order([n for n, _ in out._outputs])
    variables = [n for n in order if n.op is None]
    known = {n: "float32" for n in data_names}
    # as in MXNet, the variables' own ``__dtype__`` attributes take no part in this inference
    saved = {id(n): n.attrs.pop("__dtype__") for n in variables if "__dtype__" in n.attrs}
    try:
        types = infer_graph_types(order, known)
    except MXNetError:
        types = {}
    finally:
        for n in variables:
            if id(n) in saved:
                n.attrs["__dtype__"] = saved[id(n)]
    inferred = {n.name: types.get((id(n), 0)) for n in variables}
    if cast_optional:
        inferred.update(_infer_unknown(order, target, inferred))
    with_attr = {n.name for n in variables if "__dtype__" in n.attrs}
    for n in variables:
        if model_params:
            if n.name not in model_params:
                continue
        elif n.name not in with_attr:
            continue
        t = inferred.get(n.name)
        n.attrs["__dtype__"] = str(NAME_TO_CODE[t] if t is not None else 0)


def _infer_unknown(order: list[Node], target: str, inferred: dict) -> dict:
    """Variables of unknown dtype that feed only casts to one dtype take that dtype."""
    seen: dict[str, str] = {}
    result: dict[str, str | None] = {}

    def update(var: Node, dtype: str) -> None:
        if var.name not in seen:
            if inferred.get(var.name) is None and result.get(var.name) is None:
                seen[var.name] = dtype
                result[var.name] = dtype
        elif seen[var.name] != dtype:
            result[var.name] = inferred.get(var.name)

    for node in order:
        if node.op is None:
            continue
        if node.op.name == "amp_cast":
            dt = node.parsed["dtype"]
            dt = CODE_TO_NAME[dt] if isinstance(dt, int) else str(dt)
            for src, _ in node.inputs:
                if src.op is None:
                    update(src, dt)
        elif node.op.name == "amp_multicast":
            if all(src.op is None for src, _ in node.inputs):
                for src, _ in node.inputs:
                    update(src, target)
    return result
