"""Network visualisation: ``print_summary`` (a text table) and ``plot_network`` (graphviz).

``graphviz`` is optional: it is imported only by :func:`plot_network`.

Examples
--------
>>> import mxnet as mx
>>> net = mx.sym.FullyConnected(mx.sym.Variable('data'), num_hidden=4, name='fc')
>>> mx.viz.print_summary(net, shape={'data': (1, 3)})  # doctest: +ELLIPSIS
____...
Layer (type)                                        Output Shape            Param #     Previous Layer...
"""

from __future__ import annotations

import copy
import json
import re
import warnings

from .symbol.symbol import Symbol

__all__ = ["print_summary", "plot_network"]

_COLORS = ("#8dd3c7", "#fb8072", "#ffffb3", "#bebada", "#80b1d3", "#fdb462", "#b3de69",
           "#fccde5")
_WEIGHT_SUFFIXES = ("_weight", "_bias", "_beta", "_gamma", "_moving_var", "_moving_mean",
                    "_running_var", "_running_mean")


def _dims(text: str) -> list[str]:
    """``"(3, 3)"`` -> ``['3', '3']``."""
    return re.findall(r"\d+", text)


def _shape_dict(symbol: Symbol, shape: dict) -> dict:
    internals = symbol.get_internals()
    _, out_shapes, _ = internals.infer_shape(**shape)
    if out_shapes is None:
        raise ValueError("Input shape is incomplete")
    return dict(zip(internals.list_outputs(), out_shapes))


def _layer_params(node: dict, pre_filter: int, shapes: dict | None) -> int:
    op, attrs = node["op"], node.get("attrs", {})
    if op == "Convolution":
        n = pre_filter * int(attrs["num_filter"]) // int(attrs.get("num_group", "1"))
        for k in _dims(attrs["kernel"]):
            n *= int(k)
        if attrs.get("no_bias") != "True":
            n += int(attrs["num_filter"])
        return n
    if op == "FullyConnected":
        if attrs.get("no_bias") == "True":
            return pre_filter * int(attrs["num_hidden"])
        return (pre_filter + 1) * int(attrs["num_hidden"])
    if op == "BatchNorm" and shapes is not None:
        return int(shapes[node["name"] + "_output"][1]) * 2
    if op == "Embedding":
        return int(attrs["input_dim"]) * int(attrs["output_dim"])
    return 0


def print_summary(symbol: Symbol, shape: dict | None = None, line_length: int = 120,
                  positions=(.44, .64, .74, 1.)) -> None:
    """Print MXNet's layer table: name(type), output shape, parameter count, inputs.

    Parameters
    ----------
    symbol : Symbol
    shape : dict, optional
        Input shapes (``{'data': (1, 3, 224, 224)}``); without it, shapes are left blank.
    line_length : int
        Width of the table.
    positions : sequence of float or int
        Right edges of the columns (fractions of ``line_length`` when all are <= 1).
    """
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be Symbol")
    shapes = _shape_dict(symbol, shape) if shape is not None else None
    conf = json.loads(symbol.tojson())
    nodes = conf["nodes"]
    # MXNet's quirk, kept: the numbers of the first head entry act as "head node ids"
    heads = set(conf["heads"][0])
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]

    def row(fields):
        line = ""
        for i, f in enumerate(fields):
            line += str(f)
            line = line[:positions[i]]
            line += " " * (positions[i] - len(line))
        print(line)

    print("_" * line_length)
    row(["Layer (type)", "Output Shape", "Param #", "Previous Layer"])
    print("=" * line_length)
    total = 0
    for i, node in enumerate(nodes):
        op = node["op"]
        if op == "null" and i > 0:
            continue
        out_shape = []
        if (op != "null" or i in heads) and shapes is not None:
            key = node["name"] + "_output" if op != "null" else node["name"]
            if key in shapes:
                out_shape = shapes[key][1:]
        pre, pre_filter = [], 0
        if op != "null":
            for item in node["inputs"]:
                src = nodes[item[0]]
                if src["op"] != "null" or item[0] in heads:
                    pre.append(src["name"])
                    if shapes is not None:
                        key = src["name"] + "_output" if src["op"] != "null" else src["name"]
                        if key in shapes:
                            pre_filter += int(shapes[key][1:][0])
        n = _layer_params(node, pre_filter, shapes)
        row([f"{node['name']}({op})", "x".join(str(x) for x in out_shape), n,
             pre[0] if pre else ""])
        for extra in pre[1:]:
            row(["", "", "", extra])
        total += n
        print("=" * line_length if i == len(nodes) - 1 else "_" * line_length)
    print(f"Total params: {total}")
    print("_" * line_length)


def _label_and_color(node: dict) -> tuple[str, str]:
    op, name, attrs = node["op"], node["name"], node.get("attrs", {})
    if op == "Convolution":
        stride = "x".join(_dims(attrs["stride"])) if "stride" in attrs else "1"
        return (f"Convolution\n{'x'.join(_dims(attrs['kernel']))}/{stride}, "
                f"{attrs['num_filter']}", _COLORS[1])
    if op == "FullyConnected":
        return f"FullyConnected\n{attrs['num_hidden']}", _COLORS[1]
    if op == "BatchNorm":
        return name, _COLORS[3]
    if op == "Activation":
        return f"Activation\n{attrs['act_type']}", _COLORS[2]
    if op == "LeakyReLU":
        return f"LeakyReLU\n{attrs.get('act_type', 'Leaky')}", _COLORS[2]
    if op == "Pooling":
        kernel = "x".join(_dims(attrs["kernel"])) if "kernel" in attrs else "[]"
        stride = "x".join(_dims(attrs["stride"])) if "stride" in attrs else "1"
        return f"Pooling\n{attrs['pool_type']}, {kernel}/{stride}", _COLORS[4]
    if op in ("Concat", "Flatten", "Reshape"):
        return name, _COLORS[5]
    if op == "Softmax":
        return name, _COLORS[6]
    if op == "Custom":
        return attrs["op_type"], _COLORS[7]
    return name, _COLORS[7]


def plot_network(symbol: Symbol, title: str = "plot", save_format: str = "pdf",
                 shape: dict | None = None, dtype: dict | None = None,
                 node_attrs: dict | None = None, hide_weights: bool = True):
    """Draw the graph as a ``graphviz.Digraph`` with MXNet's labels and colours.

    Needs the optional ``graphviz`` package (``pip install graphviz``).

    Parameters
    ----------
    symbol : Symbol
    title : str
    save_format : str
    shape, dtype : dict, optional
        Input shapes / dtypes; edges are then labelled with them.
    node_attrs : dict, optional
        Extra graphviz node attributes.
    hide_weights : bool
        Hide weight-like variables (``*_weight``, ``*_bias``...).
    """
    try:
        from graphviz import Digraph
    except ImportError:
        raise ImportError("Draw network requires graphviz library: install it with "
                          "`pip install graphviz` (and the Graphviz binaries to render)") from None
    if not isinstance(symbol, Symbol):
        raise TypeError("symbol must be a Symbol")
    internals = symbol.get_internals()
    shapes = _shape_dict(symbol, shape) if shape is not None else None
    types = None
    if dtype is not None:
        _, out_types, _ = internals.infer_type(**dtype)
        if out_types is None:
            raise ValueError("Input type is incomplete")
        types = dict(zip(internals.list_outputs(), out_types))
    nodes = json.loads(symbol.tojson())["nodes"]
    names = [n["name"] for n in nodes]
    if len(names) != len(set(names)):
        seen: set = set()
        repeated = {n for n in names if n in seen or seen.add(n)}
        warnings.warn("There are multiple variables with the same name in your graph, this may "
                      "result in cyclic graph. Repeated names: " + ",".join(repeated),
                      RuntimeWarning, stacklevel=2)
    base = {"shape": "box", "fixedsize": "true", "width": "1.3", "height": "0.8034",
            "style": "filled"}
    base.update(node_attrs or {})
    dot = Digraph(name=title, format=save_format)
    hidden = set()
    for node in nodes:
        attr = copy.deepcopy(base)
        if node["op"] == "null":
            if node["name"].endswith(_WEIGHT_SUFFIXES):
                if hide_weights:
                    hidden.add(node["name"])
                continue
            attr["shape"] = "oval"
            label, attr["fillcolor"] = node["name"], _COLORS[0]
        else:
            label, attr["fillcolor"] = _label_and_color(node)
        dot.node(name=node["name"], label=label, **attr)
    for node in nodes:
        if node["op"] == "null":
            continue
        inputs = node["inputs"]
        if node["op"] == "_contrib_BilinearResize2D":
            inputs = inputs[:1]
        for item in inputs:
            src = nodes[item[0]]
            if src["name"] in hidden:
                continue
            attr = {"dir": "back", "arrowtail": "open", "label": ""}
            key = src["name"]
            if src["op"] != "null":
                key += "_output"
                n_out = src.get("attrs", {}).get("num_outputs")
                if n_out is not None:
                    key += str(int(n_out) - 1)
            if shapes is not None:
                attr["label"] = "x".join(str(x) for x in shapes[key][1:])
            if types is not None:
                attr["label"] += "(" + types[key].__name__ + ")"
            dot.edge(tail_name=node["name"], head_name=src["name"], **attr)
    return dot
