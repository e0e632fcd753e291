"""MXNet 1.9.1's INT8 graph passes on our Symbol graphs (private to ``contrib.quantization``).

``quantize_graph`` rewrites an FP32 graph: each quantizable node becomes its
``_contrib_quantized_*`` twin, fed by ``_contrib_quantize_v2`` nodes where its inputs are
float (``data_quantize``, ``conv1_output_quantize``), followed by ``_contrib_requantize``
where it accumulates in int32 (``requantize_conv0``) and by ``_contrib_dequantize`` where a
float consumer or a graph output reads it (``fc0_dequantize``). Node names, input orders and
the depth-first order of the result are MXNet's, so the JSON matches real MXNet's byte for
byte. ``set_calib_table`` writes calibrated ranges into the quantize/requantize nodes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .._op import get_op
from ..base import MXNetError
from ..symbol._node import Node, topo_order
from ..symbol.symbol import Symbol

__all__ = ["quantize_graph", "set_calib_table", "entry_name", "hidden_by_fusion"]


@dataclass(frozen=True)
class _QSpec:
    """How MXNet 1.9.1 (CPU) quantizes one FP32 operator."""

    qop: str
    must: bool = False  # FQuantizable kMust (else kSupport)
    requantize: bool = False  # FNeedRequantize
    avoid: Callable[[dict, int], bool] | None = None  # FAvoidQuantizeInput
    when: Callable[[dict], bool] | None = None  # quantizable for these params only
    calib_output: bool = False  # FNeedCalibrateOutput


_SPECS: dict[str, _QSpec] = {
    "Convolution": _QSpec("_contrib_quantized_conv", must=True, requantize=True),
    "FullyConnected": _QSpec("_contrib_quantized_fully_connected", must=True, requantize=True),
    "Pooling": _QSpec("_contrib_quantized_pooling"),  # sum/lp: see _refuse_broken
    "Activation": _QSpec("_contrib_quantized_act", when=lambda a: a["act_type"] == "relu"),
    "Flatten": _QSpec("_contrib_quantized_flatten"),
    "Concat": _QSpec("_contrib_quantized_concat"),
    "elemwise_add": _QSpec("_contrib_quantized_elemwise_add", requantize=True),
    "elemwise_mul": _QSpec("_contrib_quantized_elemwise_mul", requantize=True),
    "BatchNorm": _QSpec(
        "_contrib_quantized_batch_norm", avoid=lambda a, i: i != 0, calib_output=True
    ),
    "Embedding": _QSpec("_contrib_quantized_embedding", avoid=lambda a, i: i == 0),
}

# operators whose MXNet registration names its outputs (FListOutputNames): a quantize node
# after one is named ``<node>_<output name>_quantize``, after others ``<node>_<index>_quantize``
_NAMED_OUTPUTS = frozenset(
    {
        "Convolution", "Deconvolution", "FullyConnected", "Activation", "LeakyReLU",
        "BatchNorm", "Pooling", "Dropout", "Concat", "elemwise_add", "softmax", "log_softmax",
        "softmin", "SoftmaxActivation", "SoftmaxOutput", "LRN", "UpSampling", "InstanceNorm",
        "LayerNorm", "GroupNorm", "SliceChannel", "Pad", "SequenceMask", "SequenceLast",
        "SequenceReverse", "Crop", "RNN", "ROIPooling", "SpatialTransformer", "GridGenerator",
        "BilinearSampler", "Correlation", "L2Normalization", "MakeLoss", "SVMOutput",
        "LinearRegressionOutput", "LogisticRegressionOutput", "MAERegressionOutput",
        "IdentityAttachKLSparseReg", "Custom", "_contrib_quantized_conv",
        "_contrib_quantized_fully_connected", "_contrib_quantized_pooling",
        "_contrib_quantized_act", "_contrib_quantized_flatten", "_contrib_quantized_concat",
        "_contrib_quantized_elemwise_add", "_contrib_quantized_elemwise_mul",
        "_contrib_quantized_batch_norm", "_contrib_quantized_embedding",
    }
)  # fmt: skip

_QUANTIZE = "_contrib_quantize_v2"
_REQUANTIZE = "_contrib_requantize"
_DEQUANTIZE = "_contrib_dequantize"


def entry_name(node: Node, index: int) -> str:
    """The name MXNet lists for output ``index`` of ``node`` (``conv0_output``, ``data``)."""
    if node.op is None:
        return node.name
    return node.output_names()[index]


def _output_suffix(node: Node, index: int) -> str:
    if node.op.name in _NAMED_OUTPUTS:
        return node.op.output_names(node.parsed)[index]
    return str(index)


def _num_visible(node: Node) -> int:
    return node.num_visible()


def _quantized_node(node: Node) -> Node | None:
    spec = _SPECS.get(node.op.name) if node.op is not None else None
    if spec is None:
        return None
    if spec.when is not None and not spec.when(node.parsed):
        return None
    attrs = {k: v for k, v in node.attrs.items()}
    return Node(get_op(spec.qop), f"quantized_{node.name}", attrs)


def _mark(order: list[Node], excluded_names: set, excluded_ops: set, mode: str) -> dict:
    """id(fp32 node) -> its (input-less) quantized twin, for the nodes to quantize."""
    qmap: dict[int, Node] = {}
    must: list[Node] = []
    support: dict[int, int] = {}
    consumers: dict[int, list[Node]] = {}
    for node in order:
        for src, _ in node.inputs:
            consumers.setdefault(id(src), []).append(node)
        if node.op is None or node.op.name not in _SPECS:
            continue
        if node.name in excluded_names or node.op.name in excluded_ops:
            continue
        q = _quantized_node(node)
        if q is None:
            continue
        qmap[id(node)] = q
        if _SPECS[node.op.name].must:
            must.append(node)
        else:
            support[id(node)] = 0
    if mode == "full":
        return _refuse_broken(order, qmap)
    if mode != "smart":
        raise MXNetError(f"quantize_graph: unrecognized quantize_mode {mode!r}")
    for bit, step in ((1, lambda n: [s for s, _ in n.inputs]),
                      (2, lambda n: consumers.get(id(n), []))):  # fmt: skip
        queue = deque(must)
        seen: set[int] = set()
        while queue:
            n = queue.popleft()
            for m in step(n):
                if id(m) in support and id(m) not in seen:
                    seen.add(id(m))
                    support[id(m)] |= bit
                    queue.append(m)
    for k, flags in support.items():
        if flags != 3:
            del qmap[k]
    return _refuse_broken(order, qmap)


def _refuse_broken(order: list[Node], qmap: dict) -> dict:
    """MXNet 1.9.1 "quantizes" a sum/lp Pooling into an FP32 Pooling wired to int8 inputs
    and an output index of -1: a graph that fails on bind. Refuse it here, by name."""
    for node in order:
        if id(node) in qmap and node.op.name == "Pooling":
            pt = node.parsed["pool_type"]
            if pt not in ("max", "avg"):
                raise MXNetError(
                    f"quantize_graph: Pooling '{node.name}' with pool_type='{pt}' cannot be "
                    "quantized (MXNet 1.9.1 builds a graph that fails to bind here); add it "
                    "to excluded_sym_names or 'Pooling' to excluded_op_names"
                )
    return qmap


def quantize_graph(
    sym: Symbol,
    excluded_names=(),
    excluded_ops=(),
    offline_params=(),
    quantized_dtype: str = "int8",
    quantize_mode: str = "smart",
) -> tuple[Symbol, list[str]]:
    """MXNet 1.9.1's ``QuantizeGraph`` pass: the quantized symbol and the names of the
    layer outputs that calibration should collect."""
    heads = sym._outputs
    order = topo_order([n for n, _ in heads])
    qmap = _mark(order, set(excluded_names), set(excluded_ops), quantize_mode)
    mirror: dict[int, Node] = {}
    reverse: dict[int, Node] = {}
    quantized_entry: dict[tuple[int, int], Node] = {}
    qv2 = get_op(_QUANTIZE)
    for node in order:
        if id(node) in qmap:
            new = qmap[id(node)]
            spec = _SPECS[node.op.name]
            avoid = spec.avoid
            ins: list = []
            for i, (src, idx) in enumerate(node.inputs):
                m = mirror[id(src)]
                key = (id(src), idx)
                if avoid is not None and avoid(node.parsed, i):
                    ins.append((m, idx))
                elif id(src) not in qmap:
                    q = quantized_entry.get(key)
                    if q is None:
                        suffix = "" if m.op is None else "_" + _output_suffix(src, idx)
                        q = Node(qv2, f"{src.name}{suffix}_quantize",
                                 {"out_type": quantized_dtype}, [(m, idx)])  # fmt: skip
                        quantized_entry[key] = q
                    ins.append((q, 0))
                elif m.op is not None and m.op.name == _DEQUANTIZE:
                    ins.append((m.inputs[0][0], idx))
                else:
                    ins.append((m, idx))
            for i, (src, idx) in enumerate(node.inputs):
                if avoid is not None and avoid(node.parsed, i):
                    continue
                m = mirror[id(src)]
                if m.op is not None and m.op.name == _DEQUANTIZE:
                    m = m.inputs[0][0]
                lo, hi = 1, 2
                if id(src) in qmap:
                    n_out = _num_visible(m) - 2
                    lo, hi = n_out + 2 * idx, n_out + 2 * idx + 1
                q = quantized_entry.get((id(src), idx))
                ins += [(q, lo), (q, hi)] if q is not None else [(m, lo), (m, hi)]
            new.set_inputs(ins)
            if spec.requantize:
                new = Node(get_op(_REQUANTIZE), f"requantize_{node.name}",
                           {"out_type": quantized_dtype}, [(new, 0), (new, 1), (new, 2)])  # fmt: skip
        else:
            new = Node(node.op, node.name, dict(node.attrs))
            new.subgraphs = list(node.subgraphs)
            ins = []
            for src, idx in node.inputs:
                m = mirror[id(src)]
                key = (id(src), idx)
                if id(src) in qmap and not (m.op is not None and m.op.name == _DEQUANTIZE):
                    lo = _num_visible(m) - 2 + 2 * idx
                    dq = Node(get_op(_DEQUANTIZE), f"{src.name}_dequantize", {},
                              [(m, idx), (m, lo), (m, lo + 1)])  # fmt: skip
                    ins.append((dq, 0))
                    mirror[id(src)] = dq
                    reverse[id(dq)] = src
                elif key in quantized_entry:
                    ins.append((quantized_entry[key].inputs[0][0], idx))
                else:
                    ins.append((m, idx))
            if node.op is not None:
                new.set_inputs(ins)
        mirror[id(node)] = new
        reverse[id(new)] = node
    outputs = []
    for node, idx in heads:
        m = mirror[id(node)]
        if id(node) in qmap:
            lo = node.num_visible() + 2 * idx
            dq = Node(get_op(_DEQUANTIZE), f"{node.name}_dequantize", {},
                      [(m, idx), (m, lo), (m, lo + 1)])  # fmt: skip
            outputs.append((dq, 0))
        else:
            outputs.append((m, idx))
    outputs = _offline(outputs, set(offline_params))
    calib = _calib_names(outputs, reverse)
    return Symbol._from_entries(outputs), calib


def _offline(outputs: list, offline: set) -> list:
    """Quantize nodes of parameters become variables (``conv0_weight_quantize``, ``_min``,
    ``_max``) that ``_quantize_params`` fills."""
    if not offline:
        return outputs
    made: dict[tuple[int, int], Node] = {}
    suffixes = ("", "_min", "_max")

    def swap(entry):
        src, idx = entry
        if src.op is not None and src.op.name == _QUANTIZE:
            feed = src.inputs[0][0]
            if feed.op is None and feed.name in offline:
                key = (id(src), idx)
                if key not in made:
                    made[key] = Node(None, src.name + suffixes[idx])
                return (made[key], 0)
        return entry

    for node in topo_order([n for n, _ in outputs]):
        if node.op is not None and any(
            s.op is not None and s.op.name == _QUANTIZE for s, _ in node.inputs
        ):
            node.set_inputs([swap(e) for e in node.inputs], node.in_versions)
    return [swap(e) for e in outputs]


def _calib_names(outputs: list, reverse: dict) -> list[str]:
    names = []
    for node in topo_order([n for n, _ in outputs]):
        if node.op is None:
            continue
        opname = node.op.name
        if opname in (_QUANTIZE, _REQUANTIZE):
            src, idx = node.inputs[0]
            if id(node) in reverse:
                names.append(entry_name(reverse[id(node)], idx))
            elif src.op is None:
                names.append(src.name)
            elif id(src) in reverse:
                names.append(entry_name(reverse[id(src)], idx))
            else:
                raise MXNetError(f"quantize_graph: can't find calibration node for {node.name}")
        elif opname == "_contrib_quantized_batch_norm":
            if id(node) in reverse:
                names.append(entry_name(reverse[id(node)], 0))
            else:
                names.append(entry_name(node, 0))
    return names


def set_calib_table(qsym: Symbol, table: dict) -> Symbol:
    """A copy of ``qsym`` whose quantize/requantize (and quantized BatchNorm) nodes carry
    the ``(min, max)`` ranges that ``table`` holds for their calibrated entry."""
    sym = qsym.__copy__()
    for node in topo_order([n for n, _ in sym._outputs]):
        if node.op is None:
            continue
        name = node.op.name
        if name in (_QUANTIZE, _REQUANTIZE):
            src, idx = node.inputs[0]
            key = entry_name(src, idx)
        elif name == "_contrib_quantized_batch_norm":
            key = entry_name(node, 0)
        else:
            continue
        if key.startswith("quantized_"):
            key = key[len("quantized_") :]
        hit = table.get(key)
        if hit is not None:
            node.attrs["min_calib_range"] = "%f" % float(hit[0])
            node.attrs["max_calib_range"] = "%f" % float(hit[1])
            node.invalidate()
    return sym


# ---------------------------------------------------------------------------------------
# which layer outputs MXNet 1.9.1's calibration forward cannot see


# element-wise operators oneDNN fuses after a convolution / a FullyConnected in MXNet 1.9.1
# (probed: elu and prelu, softsign, and the standalone ``relu``/``sigmoid`` operators are not)
_ACTS = frozenset({"relu", "sigmoid", "tanh", "softrelu"})
_CONV_LEAKY = frozenset({"leaky", "gelu"})
_FC_LEAKY = frozenset({"leaky", "elu", "gelu"})
_FC_ELTWISE = frozenset({"clip", "sqrt", "square", "exp", "abs"})


def _is_post_op(node: Node, leaky: frozenset, eltwise: frozenset) -> bool:
    name = node.op.name
    if name == "Activation":
        return node.parsed["act_type"] in _ACTS
    if name == "LeakyReLU":
        return node.parsed["act_type"] in leaky
    return name in eltwise


def _identity_like(node: Node) -> bool:
    """Operators oneDNN's subgraph backend drops from an inference graph (after an op)."""
    if node.op is None:
        return False
    if node.op.name == "Dropout":
        return node.parsed["mode"] != "always"
    return node.op.name in ("identity", "_copy")


def _single_consumer(node: Node, consumers: dict, head_ids: set) -> Node | None:
    users = consumers.get(id(node), [])
    if len(users) != 1 or id(node) in head_ids:
        return None
    return users[0]


def hidden_by_fusion(sym: Symbol) -> set[str]:
    """Output names the calibration forward of MXNet 1.9.1's CPU build never reports.

    MXNet binds the FP32 model with its default oneDNN (MKLDNN) subgraph backend, which
    fuses every Convolution (with a following BatchNorm, activation, elemwise_add and
    activation) and every FullyConnected (with a following element-wise operator) into
    ``_sg_mkldnn_*`` nodes and drops inference no-ops (Dropout, identity) that follow an
    operator; the monitor then reports the fused nodes' outputs under new names, so the
    calibration ranges of these layers are never found.
    ``MXNET_SUBGRAPH_BACKEND=NONE`` turns this off there, and here.
    """
    import os

    if os.environ.get("MXNET_SUBGRAPH_BACKEND", "MKLDNN").upper() not in ("MKLDNN", ""):
        return set()
    order = topo_order([n for n, _ in sym._outputs])
    consumers: dict[int, list[Node]] = {}
    for n in order:
        for s, _ in n.inputs:
            consumers.setdefault(id(s), []).append(n)
    head_ids = {id(n) for n, _ in sym._outputs}
    hidden: set[int] = set()
    for n in order:
        if n.op is None or id(n) in hidden:
            continue
        if n.op.name == "Convolution":
            hidden.add(id(n))
            stage = 0  # 0: bn allowed, 1: act allowed, 2: sum allowed, 3: post-sum act
            cur = n
            while stage < 4:
                nxt = _single_consumer(cur, consumers, head_ids)
                if nxt is None or nxt.op is None:
                    break
                if _identity_like(nxt) and not _identity_like(cur):  # removed first
                    hidden.add(id(nxt))
                    cur = nxt
                    continue
                if nxt.op.name == "BatchNorm" and stage == 0:
                    stage = 1
                elif stage <= 1 and _is_post_op(nxt, _CONV_LEAKY, frozenset({"clip"})):
                    stage = 2
                elif nxt.op.name == "elemwise_add" and stage <= 2:
                    stage = 3
                elif stage == 3 and _is_post_op(nxt, _CONV_LEAKY, frozenset({"clip"})):
                    stage = 4
                else:
                    break
                hidden.add(id(nxt))
                cur = nxt
        elif _identity_like(n):
            src = n.inputs[0][0] if n.inputs else None
            if src is not None and src.op is not None and not _identity_like(src):
                hidden.add(id(n))  # removed from the graph: never reported
        elif n.op.name == "FullyConnected":
            hidden.add(id(n))
            nxt = _single_consumer(n, consumers, head_ids)
            if nxt is not None and _identity_like(nxt):  # removed first: what follows fuses
                hidden.add(id(nxt))
                nxt = _single_consumer(nxt, consumers, head_ids)
            if nxt is not None and nxt.op is not None and _is_post_op(nxt, _FC_LEAKY,
                                                                      _FC_ELTWISE):  # fmt: skip
                hidden.add(id(nxt))
    names: set[str] = set()
    for n in order:
        if id(n) in hidden:
            names.update(n.output_names())
    return names
