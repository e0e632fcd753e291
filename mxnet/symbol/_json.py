"""nnvm JSON: ``tojson``/``save``/``load``/``load_json`` with legacy upgrades (private).

The writer reproduces MXNet's layout byte for byte (dmlc JSON writer: objects with one
key and arrays of at most ten items stay on one line). The reader accepts every variant
described in FORMATS.md section 3, including 0.8-era files.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile

from .._op._registry import get_op, has_op
from ..base import MXNetError
from ._create import _AUX_INIT
from ._node import HIDDEN_KEYS, Node, aux_node_ids, topo_order
from .symbol import Symbol

__all__ = ["to_json", "save", "load", "load_json", "debug_str"]

MXNET_VERSION = 10901
_AMP_OPS = ("amp_cast", "amp_multicast")


# -- writer -----------------------------------------------------------------------------
def _s(x: str) -> str:
    return json.dumps(x, ensure_ascii=False)


def _arr(items: list[str], indent: int, force_multi: bool = False) -> str:
    if not items:
        return "[]"
    if len(items) > 10 or force_multi:
        pad = " " * (indent + 2)
        return "[\n" + ", \n".join(pad + i for i in items) + "\n" + " " * indent + "]"
    return "[" + ", ".join(items) + "]"


def _obj(pairs: list[tuple[str, str]], indent: int) -> str:
    if not pairs:
        return "{}"
    if len(pairs) > 1:
        pad = " " * (indent + 2)
        body = ", \n".join(f"{pad}{_s(k)}: {v}" for k, v in pairs)
        return "{\n" + body + "\n" + " " * indent + "}"
    k, v = pairs[0]
    return "{" + f"{_s(k)}: {v}" + "}"


# operators whose MXNet 1.9.1 (oneDNN build, as the pip wheels) node has hidden outputs
# that we do not materialise (masks, workspaces, temporaries); ``node_row_ptr`` counts them
_MX_NUM_OUTPUTS = {
    "Dropout": 2,
    "LRN": 2,
    "L2Normalization": 2,
    "InstanceNorm": 3,
    "ROIPooling": 2,
    "Correlation": 3,
    "CTCLoss": 2,
    "SpatialTransformer": 3,
    "BilinearSampler": 2,
    "GridGenerator": 2,
    "_contrib_BatchNormWithReLU": 4,
}


def _mx_num_outputs(n: Node) -> int:
    """The output count MXNet 1.9.1 writes for ``n`` in ``node_row_ptr``."""
    k = n.num_outputs()
    if n.op is None:
        return k
    name = n.op.name
    if name == "Pooling":  # oneDNN max pooling keeps its workspace as a second output
        p = n.parsed
        kernel = p.get("kernel") or ()
        if (
            p.get("pool_type") == "max"
            and 1 <= len(kernel) <= 3
            and p.get("layout") in (None, "NCW", "NCHW", "NCDHW")
        ):
            return max(k, 2)
        return k
    return max(k, _MX_NUM_OUTPUTS.get(name, k))


def _entry(nid: int, idx: int, ver: int) -> str:
    return f"[{nid}, {idx}, {ver}]"


def _strip_amp(entries):
    """Map entries through amp_cast/amp_multicast nodes to their inputs."""

    def through(e):
        n, i = e
        while n.op is not None and n.op.name in _AMP_OPS:
            n, i = n.inputs[i if n.op.name == "amp_multicast" else 0]
        return n, i

    return through


def graph_dict(sym: Symbol, remove_amp_cast: bool = True):
    """Nodes (in order) and the JSON pieces of ``sym``; shared by the writer and viz."""
    through = _strip_amp(sym._outputs) if remove_amp_cast else (lambda e: e)
    # MXNet bypasses the amp casts inside the graph but keeps one that is an output
    heads = list(sym._outputs)
    if not remove_amp_cast:
        return topo_order([n for n, _ in heads]), heads, through
    return _order_bypassing_amp([n for n, _ in heads], through), heads, through


def _preds(node: Node, through) -> list[Node]:
    return [through(e)[0] for e in node.inputs] + list(node.control_deps)


def _order_bypassing_amp(heads: list[Node], through) -> list[Node]:
    """Post-order walk of the graph as MXNet re-serialises it after removing the amp casts:
    every input is read through the amp nodes (``through``), so those nodes are reached only
    as graph heads, and the order is that of the rewired graph."""
    order: list[Node] = []
    done: set[int] = set()
    for h in heads:
        if id(h) in done:
            continue
        done.add(id(h))
        stack = [(h, _preds(h, through), 0)]
        while stack:
            node, preds, i = stack[-1]
            if i < len(preds):
                stack[-1] = (node, preds, i + 1)
                nxt = preds[i]
                if id(nxt) not in done:
                    done.add(id(nxt))
                    stack.append((nxt, _preds(nxt, through), 0))
            else:
                stack.pop()
                order.append(node)
    return order


def to_json(sym: Symbol, remove_amp_cast: bool = True, _subgraph: bool = False) -> str:
    """Serialise ``sym`` as MXNet 1.9.1 does (a control-flow body, ``_subgraph``, is written
    without the graph ``attrs``)."""
    order, heads, through = graph_dict(sym, remove_amp_cast)
    if remove_amp_cast:
        # re-walk with amp nodes bypassed
        for n in order:
            if n.op is not None and any(
                s.op is not None and s.op.name in _AMP_OPS for s, _ in n.inputs
            ):
                break
        else:
            through = lambda e: e  # noqa: E731
    nid = {id(n): k for k, n in enumerate(order)}
    node_strs = []
    for n in order:
        ins = [through(e) for e in n.inputs]
        items = [
            _entry(nid[id(src)], i, ver if src.op is None else 0)
            for (src, i), ver in zip(ins, n.in_versions)
        ]
        pairs = [("op", _s(n.op.name if n.op is not None else "null")), ("name", _s(n.name))]
        if n.attrs:
            pairs.append(("attrs", _obj([(k, _s(v)) for k, v in sorted(n.attrs.items())], 6)))
        pairs.append(("inputs", _arr(items, 6)))
        if n.control_deps:
            pairs.append(("control_deps", _arr([str(nid[id(d)]) for d in n.control_deps], 6)))
        if n.subgraphs:  # control-flow bodies (_foreach)
            # nested objects, indented as MXNet's writer does
            subs = [
                to_json(g, remove_amp_cast, True).replace("\n", "\n" + " " * 8) for g in n.subgraphs
            ]
            pairs.append(
                (
                    "subgraphs",
                    "[\n" + " " * 8 + (", \n" + " " * 8).join(subs) + "\n" + " " * 6 + "]",
                )
            )
        pad = " " * 6
        node_strs.append("{\n" + ", \n".join(f"{pad}{_s(k)}: {v}" for k, v in pairs) + "\n    }")
    arg_nodes = [str(k) for k, n in enumerate(order) if n.op is None]
    row = [0]
    for n in order:
        row.append(row[-1] + _mx_num_outputs(n))
    head_items = [_entry(nid[id(n)], i, 0) for n, i in heads]
    top = [
        ("nodes", _arr(node_strs, 2, force_multi=True)),
        ("arg_nodes", _arr(arg_nodes, 2)),
        ("node_row_ptr", _arr([str(r) for r in row], 2)),
        ("heads", _arr(head_items, 2)),
    ]
    if not _subgraph:
        top.append(("attrs", _graph_attrs()))
    return "{\n" + ", \n".join(f"  {_s(k)}: {v}" for k, v in top) + "\n}"


def _graph_attrs() -> str:
    """The graph's ``attrs``: MXNet's version, and ``is_np_shape`` while NumPy-shape
    semantics are on (as MXNet 1.9.1 writes them)."""
    from ..util import is_np_shape

    version = '"mxnet_version": ["int", ' + str(MXNET_VERSION) + "]"
    if is_np_shape():
        return '{\n    "is_np_shape": ["int", 1], \n    ' + version + "\n  }"
    return "{" + version + "}"


def save(sym: Symbol, fname: str, remove_amp_cast: bool = True) -> None:
    """Write ``sym.tojson()`` to ``fname`` atomically."""
    text = to_json(sym, remove_amp_cast)
    d = os.path.dirname(os.path.abspath(fname))
    try:
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".json")
    except OSError as e:  # MXNet's file stream fails to open: MXNetError
        raise MXNetError(f"Cannot open symbol file {fname} for writing: {e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        # mkstemp creates the file 0600; MXNet's stream leaves 0666 & ~umask
        mask = os.umask(0o022)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, fname)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# -- reader -----------------------------------------------------------------------------
def _fail(msg: str):
    raise MXNetError(f"Invalid symbol JSON: {msg}")


def _parse_entry(e, where: str, limit: int) -> tuple[int, int]:
    if (
        not isinstance(e, list)
        or len(e) not in (2, 3)
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in e)
    ):
        _fail(f"{where}: an entry must be [node_id, output_index(, version)], got {e!r}")
    if not 0 <= e[0] < limit:
        _fail(f"{where}: node reference {e[0]} is out of range (must be below {limit})")
    if e[1] < 0:
        _fail(f"{where}: negative output index {e[1]}")
    return e[0], e[1]


def _fix_hidden(n: Node, raw_inputs_vars) -> None:
    """``UpgradeJSON_FixParsing``: rename hidden keys, move ``<arg>_lr_mult`` to inputs."""
    moved = {}
    for k in list(n.attrs):
        for key in HIDDEN_KEYS:
            if k == key:
                moved[k] = ("self", key)
                break
            pos = k.rfind(key)
            if pos > 1 and pos == len(k) - len(key):
                moved[k] = ("input", key)
                break
    for k, (kind, key) in moved.items():
        v = n.attrs.pop(k)
        if kind == "self":
            n.attrs[f"__{key}__"] = v
            continue
        placed = False
        if n.op is not None:
            arg = k[: len(k) - len(key) - 1]
            names = n.arg_names_raw if hasattr(n, "arg_names_raw") else None
            try:
                names = n.op.input_names(n.op.parse_attrs(_params_only(n)))
            except MXNetError:
                names = []
            if arg in names:
                idx = names.index(arg)
                if idx < len(n.inputs) and n.inputs[idx][0].op is None:
                    n.inputs[idx][0].attrs[f"__{key}__"] = v
                    placed = True
        if not placed:
            n.attrs[k] = v


def _params_only(n: Node) -> dict:
    return {k: v for k, v in n.attrs.items() if k in n.op.param_map}


def load_json(json_str: str) -> Symbol:
    """Build a Symbol from MXNet JSON (any 1.x or 0.8-era file).

    Examples
    --------
    >>> import mxnet as mx
    >>> s = mx.sym.Variable('x') + 1
    >>> mx.sym.load_json(s.tojson()).list_outputs()
    ['_plusscalar0_output']
    """
    if not isinstance(json_str, str):
        raise TypeError("fname required to be string")
    try:
        data = json.loads(json_str)
    except json.JSONDecodeError as e:
        raise MXNetError(f"Invalid symbol JSON: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        _fail("top level must be an object with a 'nodes' list")
    gattrs = data.get("attrs") or {}
    if not isinstance(gattrs, dict):
        _fail("top-level field 'attrs' must be an object")
    version = 800
    if "mxnet_version" in gattrs:
        mv = gattrs["mxnet_version"]
        try:
            version = int(mv[1] if isinstance(mv, list) else mv)
        except (TypeError, ValueError, IndexError):
            _fail(f"bad mxnet_version {mv!r}")
    if version < MXNET_VERSION:
        logging.info(
            "Loading symbol saved by previous version v%d.%d.%d. Attempting to upgrade...",
            version // 10000,
            (version // 100) % 100,
            version % 100,
        )
    nodes: list[Node] = []
    for k, jn in enumerate(data["nodes"]):
        if not isinstance(jn, dict):
            _fail(f"node {k} is not an object")
        opname = jn.get("op")
        name = jn.get("name")
        if not isinstance(opname, str) or not isinstance(name, str):
            _fail(f"node {k}: 'op' and 'name' must be strings")
        attrs: dict[str, str] = {}
        for key in ("param", "attr", "attrs"):
            d = jn.get(key)
            if d is None:
                continue
            if not isinstance(d, dict):
                _fail(f"node {k} ('{name}'): field '{key}' must be an object")
            for a, v in d.items():
                attrs[str(a)] = v if isinstance(v, str) else str(v)
        raw_inputs = jn.get("inputs", [])
        if not isinstance(raw_inputs, list):
            _fail(f"node {k} ('{name}'): field 'inputs' must be a list")
        inputs, versions = [], []
        for e in raw_inputs:
            src, idx = _parse_entry(e, f"node {k} ('{name}') field 'inputs'", k)
            inputs.append((nodes[src], idx))
            ver = e[2] if len(e) == 3 else 0
            versions.append(ver)
            if nodes[src].op is None:
                nodes[src].version = max(nodes[src].version, ver)
        if opname == "null":
            if inputs:
                _fail(f"variable node {k} ('{name}') has inputs")
            node = Node(None, name, attrs)
        else:
            if not has_op(opname):
                raise MXNetError(
                    f"Invalid symbol JSON: node {k} ('{name}'): Cannot find "
                    f"operator '{opname}' in the operator registry"
                )
            node = Node(get_op(opname), name, attrs, inputs)
            node.in_versions = versions
        deps = jn.get("control_deps") or []
        for d in deps:
            if not isinstance(d, int) or not 0 <= d < k:
                _fail(f"node {k} ('{name}') field 'control_deps': reference {d!r} out of range")
            node.control_deps.append(nodes[d])
        for g in jn.get("subgraphs") or []:  # control-flow bodies (_foreach)
            node.subgraphs.append(load_json(json.dumps(g)))
        nodes.append(node)
    raw_heads = data.get("heads")
    if not isinstance(raw_heads, list):
        _fail("'heads' must be a list")
    heads = [_parse_entry(e, "field 'heads'", len(nodes)) for e in raw_heads]
    if version < MXNET_VERSION:
        for n in nodes:
            _fix_hidden(n, None)
    for k, n in enumerate(nodes):
        if n.op is None:
            continue
        for a in n.attrs:
            if (
                a not in n.op.param_map
                and not (a.startswith("__") and a.endswith("__"))
                and n.op.params
            ):  # parameter-less operators keep any attribute
                raise MXNetError(
                    f"Invalid symbol JSON: node {k} ('{n.name}', operator "
                    f"{n.op.name}): unknown attribute '{a}'"
                )
        n.parsed  # noqa: B018  (validate parameters now)
    if version < 900:
        _add_missing_inputs(nodes)
    if version < 904:
        for n in nodes:
            if n.op is not None:
                _set_aux_init(n)
    if version < 905:
        for n in nodes:
            if (
                n.op is not None
                and n.op.name in ("argmax", "argmin")
                and n.attrs.get("axis") == "-1"
            ):
                del n.attrs["axis"]
                n.invalidate()
    for k, n in enumerate(nodes):
        if n.op is None:
            continue
        want = len(n.arg_names()) + len(n.aux_names())
        if n.op.variadic is None and len(n.inputs) != want:
            raise MXNetError(
                f"Invalid symbol JSON: node {k} ('{n.name}', operator {n.op.name}) "
                f"has {len(n.inputs)} inputs, expected {want} "
                f"({n.arg_names() + n.aux_names()})"
            )
        for src, i in n.inputs:
            if i >= src.num_outputs():
                raise MXNetError(
                    f"Invalid symbol JSON: node {k} ('{n.name}') reads output {i} "
                    f"of node '{src.name}', which has {src.num_outputs()}"
                )
    for nid, i in heads:
        if i >= nodes[nid].num_outputs():
            _fail(f"field 'heads': output {i} of node '{nodes[nid].name}' does not exist")
    _legacy_shapes_to_np(nodes, gattrs)
    sym = Symbol._from_entries([(nodes[nid], i) for nid, i in heads])
    topo_order([n for n, _ in sym._outputs])  # raises on cycles
    return sym


def _legacy_shapes_to_np(nodes: list[Node], gattrs: dict) -> None:
    """Loaded under ``mx.np_shape()`` from a graph not saved with ``is_np_shape``: a 0 in a
    ``__shape__`` attribute meant "unknown" there, so it becomes -1, as MXNet 1.9.1's loader converts legacy shape attributes."""
    from ..util import is_np_shape

    flag = gattrs.get("is_np_shape")
    if isinstance(flag, list):
        flag = flag[-1] if flag else 0
    try:
        saved_np = bool(int(flag)) if flag is not None else False
    except (TypeError, ValueError):
        saved_np = False
    if saved_np or not is_np_shape():
        return
    from .._op._params import _to_shape

    for n in nodes:
        s = n.attrs.get("__shape__")
        if not s:
            continue
        try:
            shp = _to_shape(s, True)
        except Exception:  # noqa: BLE001  (left for shape inference to report)
            continue
        if shp is None:
            continue
        if 0 in shp:
            n.attrs["__shape__"] = (
                "[" + ",".join(str(-1 if d in (0, None) else d) for d in shp) + "]"
            )


def _add_missing_inputs(nodes: list[Node]) -> None:
    """v0.8 -> v0.9: auxiliary states were not stored; add them as variables."""
    for n in nodes:
        if n.op is None or n.op.variadic is not None:
            continue
        names = n.arg_names() + n.aux_names()
        for i in range(len(n.inputs), len(names)):
            n.inputs.append((Node(None, f"{n.name}_{names[i]}", dict(n.attrs)), 0))
            n.in_versions.append(0)


def _set_aux_init(n: Node) -> None:
    nargs = n.num_args()
    for i, name in enumerate(n.aux_names()):
        k = nargs + i
        if name in _AUX_INIT and k < len(n.inputs):
            src = n.inputs[k][0]
            if src.op is None and "__init__" not in src.attrs:
                src.attrs["__init__"] = _AUX_INIT[name]


def load(fname: str) -> Symbol:
    """Load a symbol from a ``-symbol.json`` file."""
    if not isinstance(fname, str):
        raise TypeError("fname required to be string")
    try:
        with open(fname, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise MXNetError(f"Cannot open symbol file {fname}: {e}") from None
    except UnicodeDecodeError as e:
        raise MXNetError(f"Invalid symbol JSON file {fname}: not UTF-8 text ({e})") from None
    try:
        return load_json(text)
    except MXNetError as e:
        raise MXNetError(f"{fname}: {e}") from None


# -- debug_str --------------------------------------------------------------------------
def debug_str(sym: Symbol) -> str:
    """MXNet's ``Symbol.debug_str`` text."""
    lines = ["Symbol Outputs:"]
    for k, (n, i) in enumerate(sym._outputs):
        lines.append(f"\toutput[{k}]={n.name}({i})")
    order = topo_order([n for n, _ in sym._outputs])
    for n in order:
        if n.op is None:
            lines.append(f"Variable:{n.name}")
            continue
        lines.append("-" * 20)
        lines.append(f"Op:{n.op.name}, Name={n.name}")
        lines.append("Inputs:")
        for k, ((src, i), ver) in enumerate(zip(n.inputs, n.in_versions)):
            if src.op is None:
                lines.append(f"\targ[{k}]={src.name}({i}) version={ver}")
            else:
                lines.append(f"\targ[{k}]={src.name}({i})")
        if n.attrs:
            lines.append("Attrs:")
            lines += [f"\t{k}={v}" for k, v in sorted(n.attrs.items())]
    return "\n".join(lines) + "\n"


_ = aux_node_ids  # re-exported helper for callers reading aux nodes from loaded graphs
