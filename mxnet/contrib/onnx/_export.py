"""MXNet symbol + params -> ONNX model file (``mx.onnx.export_model``)."""

from __future__ import annotations

import json
import logging
import os
import warnings
from typing import Any

import numpy as np

from ...base import MXNetError
from ._common import IR_VERSION, OPSET, ExportContext, require_onnx
from ._ops_export_extra import EXTRA_CONVERTERS
from ._ops_export_more import MORE_CONVERTERS
from ._ops_export_nn import NN_CONVERTERS
from ._ops_export_tensor import TENSOR_CONVERTERS

__all__ = ["export_model", "get_operator_support"]

CONVERTERS = {**NN_CONVERTERS, **TENSOR_CONVERTERS, **MORE_CONVERTERS, **EXTRA_CONVERTERS}


def get_operator_support(opset_version: int | None = None) -> list[str]:
    """Names of the MXNet operators the ONNX exporter can convert.

    Examples
    --------
    >>> 'Convolution' in get_operator_support()
    True
    """
    return sorted(CONVERTERS)


def _load_inputs(sym: Any, params: Any) -> tuple[Any, dict[str, np.ndarray]]:
    from ... import ndarray as nd
    from ... import symbol

    if isinstance(sym, str | os.PathLike):
        sym = symbol.load(os.fspath(sym))
    if isinstance(params, str | os.PathLike):
        params = nd.load(os.fspath(params))
        if isinstance(params, list) and not params:
            # a parameter-free network's .params file loads as [] (MXNet's load_checkpoint
            # gives empty arg/aux dicts for it)
            params = {}
    elif isinstance(params, list | tuple) and len(params) == 2:
        merged: dict = {}
        merged.update(params[0])
        merged.update(params[1])
        params = merged
    if not isinstance(sym, symbol.Symbol) or not isinstance(params, dict):
        raise ValueError("Input sym and params should either be files or objects")
    out = {}
    for k, v in params.items():
        key = k.split(":", 1)[1] if k.startswith(("arg:", "aux:")) else k
        out[key] = v.asnumpy() if hasattr(v, "asnumpy") else np.asarray(v)
    return sym, out


def _value_info(onnx: Any, name: str, dtype: Any, shape) -> Any:
    ttype = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    dims = [d if d is not None and d >= 0 else None for d in shape] if shape is not None else None
    return onnx.helper.make_tensor_value_info(name, ttype, dims)


def _entry_dtypes(sym: Any, type_kw: dict) -> dict[str, Any]:
    """Element type of every internal output of ``sym`` (keyed by output name)."""
    try:
        internals = sym.get_internals()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, types, _ = internals.infer_type(**type_kw)
        if types is None:
            return {}
        return {n: np.dtype(t) for n, t in zip(internals.list_outputs(), types)}
    except Exception:  # noqa: BLE001 - converters fall back to float32
        return {}


def _full_shapes(sym: Any, shape_kw: dict) -> dict[str, tuple]:
    """Shape of every internal output from whole-graph inference (fills the unknown 0
    dims of creation ops such as a Gluon RNN layer's ``zeros((L, 0, H))`` begin state)."""
    try:
        internals = sym.get_internals()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, shp, _ = internals.infer_shape_partial(**shape_kw)
        if shp is None:
            return {}
        return {n: tuple(s) for n, s in zip(internals.list_outputs(), shp) if s is not None}
    except Exception:  # noqa: BLE001 - the node-by-node shapes are used instead
        return {}


def _convert_graph(
    ctx: ExportContext,
    graph: dict,
    params: dict,
    data_shapes: dict,
    dtypes: dict | None = None,
    full_shapes: dict | None = None,
):
    """Walk the symbol JSON graph, emitting ONNX nodes; returns (tensor names, shapes)."""
    from ..._op._registry import get_op, has_op

    dtypes = dtypes or {}
    f32 = np.dtype(np.float32)

    def entry_dtype(nid: int, idx: int, nouts: int):
        nname = nodes[nid]["name"]
        if nodes[nid]["op"] == "null":
            return dtypes.get(nname, f32)
        key = f"{nname}_output" if nouts == 1 else f"{nname}_output{idx}"
        return dtypes.get(key, dtypes.get(f"{nname}_output{idx}", f32))

    nouts_of: dict[int, int] = {}
    nodes = graph["nodes"]
    names: dict[tuple[int, int], str] = {}
    shapes: dict[tuple[int, int], tuple] = {}
    for nid, node in enumerate(nodes):
        op, name = node["op"], node["name"]
        if op == "null":
            names[(nid, 0)] = name
            if name in params:
                shapes[(nid, 0)] = tuple(params[name].shape)
            elif name in data_shapes:
                shapes[(nid, 0)] = tuple(data_shapes[name])
            continue
        if not has_op(op):
            raise MXNetError(f"ONNX export: operator {op} (node '{name}') is not supported")
        opdef = get_op(op)
        conv = CONVERTERS.get(opdef.name)
        if conv is None:
            raise MXNetError(f"ONNX export: operator {op} (node '{name}') is not supported")
        attrs = opdef.parse_attrs(node.get("attrs", node.get("param", {})) or {})
        entries = [(e[0], e[1]) for e in node["inputs"]]
        shp_attr = attrs.get("shape")
        if not entries and isinstance(shp_attr, tuple) and 0 in shp_attr and full_shapes:
            full = full_shapes.get(f"{name}_output")
            if full and 0 not in full:  # an unknown dim the consumers determine
                attrs = dict(attrs, shape=tuple(full))
        in_shapes = [shapes.get(e) for e in entries]
        in_shapes, outs = opdef.infer_shape(attrs, list(in_shapes))
        if any(s is None for s in in_shapes) or any(o is None for o in outs):
            raise MXNetError(
                f"ONNX export: cannot infer the input shapes of node '{name}' "
                f"({op}); give every data input's shape in in_shapes"
            )
        nouts_of[nid] = len(outs)
        ctx.in_dtypes = [entry_dtype(e[0], e[1], nouts_of.get(e[0], 1)) for e in entries]
        ctx.out_dtypes = [entry_dtype(nid, i, len(outs)) for i in range(len(outs))]
        ins = []
        for e in entries:
            if e not in names:
                raise MXNetError(
                    f"ONNX export: output {e[1]} of node '{nodes[e[0]]['name']}' is not supported"
                )
            ins.append(names[e])
        produced = conv(ctx, name, attrs, ins, in_shapes, outs)
        for i, tname in enumerate(produced):
            names[(nid, i)] = tname
            shapes[(nid, i)] = tuple(outs[i])
    return names, shapes


def export_model(
    sym: Any,
    params: Any,
    in_shapes=None,
    in_types=np.float32,
    onnx_file_path: str = "model.onnx",
    verbose: bool = False,
    dynamic: bool = False,
    dynamic_input_shapes=None,
    run_shape_inference: bool = False,
    input_type=None,
    input_shape=None,
) -> str:
    """Export an MXNet symbol and its parameters to an ONNX file.

    Parameters
    ----------
    sym : Symbol or str
        The network, or the path of a ``-symbol.json`` file.
    params : dict or str
        Parameters (``arg:``/``aux:`` prefixes accepted), or the path of a ``.params`` file.
    in_shapes : list of tuple
        Shapes of the data inputs, in the order the symbol lists them.
    in_types : numpy dtype or list of dtypes
        Element types of the data inputs.
    onnx_file_path : str
        Where the model is written.
    dynamic, dynamic_input_shapes : bool, list of tuple
        Declare input dimensions as symbolic (``None`` entries).

    Returns
    -------
    str
        ``onnx_file_path``.

    Examples
    --------
    >>> export_model('net-symbol.json', 'net-0000.params', [(1, 3, 224, 224)],
    ...              np.float32, 'net.onnx')  # doctest: +SKIP
    'net.onnx'
    """
    onnx = require_onnx()
    if input_type is not None:
        in_types = input_type
    if input_shape is not None:
        in_shapes = input_shape
    if in_shapes is None:
        # MXNet 1.9.1 fails here with TypeError (len(None))
        raise TypeError("object of type 'NoneType' has no len()")  # MXNet 1.9.1's error
    in_shapes = [tuple(s) for s in in_shapes]
    if not isinstance(in_types, list):
        in_types = [in_types] * len(in_shapes)
    if len(in_types) != len(in_shapes):
        raise AssertionError("The lengths of in_types and in_shapes must equal")
    sym, params = _load_inputs(sym, params)
    graph = json.loads(sym.tojson())
    label = graph["nodes"][-1]["name"] + "_label"
    data_names = [n for n in sym.list_inputs() if n not in params and n != label]
    if len(data_names) != len(in_shapes):
        raise ValueError(
            f"export_model: the symbol has {len(data_names)} data inputs "
            f"{data_names} but {len(in_shapes)} shapes were given"
        )
    decl_shapes = list(in_shapes)
    if dynamic:
        if dynamic_input_shapes is None:
            decl_shapes = [[None] * len(s) for s in in_shapes]
        else:
            if len(dynamic_input_shapes) != len(in_shapes):
                raise AssertionError(
                    "The length of dynamic_input_shapes must equal to the length of in_shapes."
                )
            decl_shapes = [list(s) for s in dynamic_input_shapes]
    elif dynamic_input_shapes is not None:
        raise AssertionError(  # MXNet 1.9.1's assertion and message
            "dynamic_input_shapes is specified. Please set dynamic_input_shapes=True to "
            "enable dynamic input shapes"
        )

    type_kw = {n: np.dtype(t) for n, t in zip(data_names, in_types)}
    type_kw.update({k: v.dtype for k, v in params.items() if k in sym.list_inputs()})
    ctx = ExportContext(onnx)
    names, shapes = _convert_graph(
        ctx,
        graph,
        params,
        dict(zip(data_names, in_shapes)),
        _entry_dtypes(sym, type_kw),
        _full_shapes(
            sym,
            {
                **dict(zip(data_names, in_shapes)),
                **{k: v.shape for k, v in params.items() if k in sym.list_inputs()},
            },
        ),
    )
    used = {i for n in ctx.nodes for i in n.input}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, out_types, _ = sym.infer_type(**type_kw)
    except MXNetError:  # as MXNet 1.9.1: conflicting types (float16 data, float32 weights)
        raise
    except Exception:  # noqa: BLE001 - fall back to the first input type
        out_types = None
    inputs = [_value_info(onnx, n, t, s) for n, t, s in zip(data_names, in_types, decl_shapes)]
    inits = []
    order = [n["name"] for n in graph["nodes"] if n["op"] == "null" and n["name"] in params]
    for pname in dict.fromkeys(order):
        arr = params[pname]
        if pname in used:
            inputs.append(_value_info(onnx, pname, arr.dtype, arr.shape))
            inits.append(onnx.numpy_helper.from_array(np.ascontiguousarray(arr), pname))
    outputs = []
    for i, head in enumerate(graph["heads"]):
        key = (head[0], head[1])
        dt = out_types[i] if out_types else in_types[0]
        shp = shapes[key]
        if dynamic:
            shp = [None] * len(shp)
        outputs.append(_value_info(onnx, names[key], dt, shp))
    g = onnx.helper.make_graph(
        ctx.nodes, "mxnet_converted_model", inputs, outputs, inits + ctx.initializers
    )
    model = onnx.helper.make_model(
        g, opset_imports=[onnx.helper.make_opsetid("", OPSET)], ir_version=IR_VERSION
    )
    onnx.checker.check_model(model)
    if run_shape_inference:
        try:
            model = onnx.shape_inference.infer_shapes(model)
        except Exception:  # noqa: BLE001 - MXNet keeps the un-inferred model
            pass
    if verbose:  # as MXNet 1.9.1: conversion steps go to logging.info, not stdout
        for idx, node in enumerate(graph["nodes"]):
            logging.info("Converting idx: %d, op: %s, name: %s", idx, node["op"], node["name"])
        for o in outputs:
            logging.info("Output node is: %s", o.name)
    path = os.fspath(onnx_file_path)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(model.SerializeToString())
    os.replace(tmp, path)
    return onnx_file_path
