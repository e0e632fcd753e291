"""ONNX model file -> MXNet symbol and params (``import_model``, ``import_to_gluon``)."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np

from ...base import MXNetError
from ._common import require_onnx
from ._ops_import import IMPORTERS

__all__ = ["import_model", "get_model_metadata", "import_to_gluon", "ImportContext"]


class ImportContext:
    """State shared by the import converters while an ONNX graph is translated.

    Parameters
    ----------
    onnx : module
        The imported ``onnx`` package.
    consts : dict
        Initializers and ``Constant`` outputs by name, as NumPy arrays.
    """

    def __init__(self, onnx: Any, consts: dict[str, np.ndarray]):
        from ... import symbol

        self.onnx = onnx
        self.sym = symbol
        self.consts = consts
        self.tensors: dict[str, Any] = {}  # ONNX tensor name -> Symbol
        self.used: set[str] = set()  # constants that became MXNet params
        self.aux_names: set[str] = set()
        self.num_outputs = 1  # outputs of the ONNX node being converted
        self.data_shapes: dict[str, tuple] = {}  # static shapes of the graph's data inputs
        self.input_dims: dict[str, tuple] = {}  # declared dims of every graph input

    def const(self, name: str, node_name: str) -> np.ndarray:
        """The constant value of an input (shape, axes...), or MXNetError."""
        if name not in self.consts:
            raise MXNetError(
                f"ONNX import: node '{node_name}' needs input '{name}' to be a constant initializer"
            )
        return self.consts[name]

    def add_param(self, name: str, value: np.ndarray) -> str:
        """Register a derived parameter (e.g. a transposed weight); returns its name."""
        self.consts[name] = value
        return name

    def static_shape(self, name: str) -> tuple | None:
        """Shape of a tensor when the graph's input shapes determine it, else None."""
        return _static_shape(self, name, self.data_shapes)

    def var(self, name: str) -> Any:
        """Symbol for an ONNX tensor: an earlier node's output, or a variable."""
        if name in self.tensors:
            return self.tensors[name]
        if name in self.consts:
            self.used.add(name)
            # as MXNet 1.9.1: parameters carry their shape (shape inference through
            # broadcast ops such as Add(x, weight) needs it)
            s = self.sym.var(name, shape=tuple(self.consts[name].shape))
            self.tensors[name] = s
            return s
        s = self.sym.var(name)
        self.tensors[name] = s
        return s


def _attrs(onnx: Any, node: Any) -> dict[str, Any]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


_FOLDABLE = {
    "Transpose",
    "Reshape",
    "Unsqueeze",
    "Squeeze",
    "Identity",
    "Cast",
    "ConstantOfShape",
    "Range",
}
# evaluated at import time only on integer constants (shape arithmetic)
_INT_FOLDABLE = {"Add", "Sub", "Mul", "Div", "Slice", "Concat", "Gather"}


def _fold_int(op: str, attrs: dict, vals: list) -> np.ndarray:
    a = vals[0]
    if op == "Add":
        return a + vals[1]
    if op == "Sub":
        return a - vals[1]
    if op == "Mul":
        return a * vals[1]
    if op == "Div":
        return a // vals[1]
    if op == "Concat":
        return np.concatenate(vals, axis=int(attrs.get("axis", 0)))
    if op == "Gather":
        return np.take(a, vals[1], axis=int(attrs.get("axis", 0)))
    starts, ends = vals[1], vals[2]
    axes = vals[3] if len(vals) > 3 and vals[3] is not None else range(len(starts))
    steps = vals[4] if len(vals) > 4 and vals[4] is not None else [1] * len(starts)
    index = [slice(None)] * a.ndim
    for ax, st, en, sp in zip(axes, starts, ends, steps):
        index[int(ax)] = slice(int(st), int(en), int(sp))
    return a[tuple(index)]


def _static_shape(ctx: ImportContext, name: str, data_shapes: dict) -> tuple | None:
    """Shape of an ONNX tensor when it follows from the graph's input shapes."""
    if name in ctx.consts:
        return ctx.consts[name].shape
    if name in data_shapes:
        return data_shapes[name]
    if name not in ctx.tensors or not data_shapes:
        return None
    s = ctx.tensors[name]
    known = {k: v for k, v in data_shapes.items() if k in s.list_inputs()}
    try:
        _, outs, _ = s.infer_shape_partial(**known)
    except MXNetError:
        return None
    shp = outs[0] if outs else None
    return tuple(shp) if shp and all(d > 0 for d in shp) else None


def _fold(op: str, attrs: dict, vals: list) -> np.ndarray:
    """Evaluate a shape-only node whose inputs are all constants (weight re-layouts)."""
    x = vals[0]
    if op == "Transpose":
        return np.transpose(x, attrs.get("perm"))
    if op == "Reshape":
        shape = [int(s) for s in vals[1]]
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
        return x.reshape(shape)
    if op == "Unsqueeze":
        axes = [int(a) for a in (vals[1] if len(vals) > 1 else attrs["axes"])]
        for a in sorted(a % (x.ndim + len(axes)) for a in axes):
            x = np.expand_dims(x, a)
        return x
    if op == "Squeeze":
        axes = vals[1] if len(vals) > 1 else attrs.get("axes")
        return np.squeeze(x, None if axes is None else tuple(int(a) for a in axes))
    if op == "Cast":
        import onnx

        return x.astype(onnx.helper.tensor_dtype_to_np_dtype(int(attrs["to"])))
    if op == "ConstantOfShape":
        import onnx

        v = attrs.get("value")
        fill = onnx.numpy_helper.to_array(v).reshape(-1) if v is not None else np.zeros(1, "f")
        return np.full([int(d) for d in x], fill[0], dtype=fill.dtype)
    if op == "Range":
        start, limit, delta = (np.asarray(v).reshape(()) for v in vals[:3])
        return np.arange(start, limit, delta, dtype=np.asarray(vals[0]).dtype)
    return x


def _graph_to_sym(onnx: Any, graph: Any):
    from ... import ndarray as nd

    consts = {i.name: onnx.numpy_helper.to_array(i) for i in graph.initializer}
    ctx = ImportContext(onnx, consts)
    data_shapes = {}
    for vi in graph.input:
        dims = tuple(d.dim_value for d in vi.type.tensor_type.shape.dim)
        if vi.name not in consts and dims and all(d > 0 for d in dims):
            data_shapes[vi.name] = dims
    ctx.data_shapes = data_shapes
    ctx.input_dims = {vi.name: _dims(vi) for vi in graph.input}
    out_names = {o.name for o in graph.output}
    for k, node in enumerate(graph.node):
        attrs = _attrs(onnx, node)
        if node.op_type == "Constant":
            val = attrs.get("value")
            if val is None:
                raise MXNetError(
                    f"ONNX import: Constant '{node.output[0]}' without a tensor "
                    "value is not supported"
                )
            consts[node.output[0]] = onnx.numpy_helper.to_array(val)
            continue
        ins_const = [consts.get(i) if i else None for i in node.input]
        if (
            node.op_type in _INT_FOLDABLE
            and all(v is not None for i, v in zip(node.input, ins_const) if i)
            and all(v is None or v.dtype.kind in "iu" for v in ins_const)
        ):
            consts[node.output[0]] = _fold_int(node.op_type, attrs, ins_const)
            continue
        if node.op_type == "Shape" and node.output[0] not in out_names:
            shp = _static_shape(ctx, node.input[0], data_shapes)
            if shp is None:
                raise MXNetError(
                    f"ONNX import: Shape node '{node.name or node.output[0]}' needs the static "
                    f"shape of '{node.input[0]}'"
                )
            arr = np.array(shp, dtype=np.int64)
            consts[node.output[0]] = arr[attrs.get("start", 0) : attrs.get("end", len(shp))]
            continue
        if node.op_type in _FOLDABLE and node.input and all(i in consts for i in node.input if i):
            consts[node.output[0]] = _fold(node.op_type, attrs, [consts.get(i) for i in node.input])
            continue
        fn = IMPORTERS.get(node.op_type)
        if fn is None:
            raise MXNetError(
                f"ONNX import: operator {node.op_type} is not supported "
                f"(node '{node.name or node.output[0]}')"
            )
        name = node.output[0] if node.output[0] else (node.name or f"{node.op_type}{k}")
        ctx.num_outputs = len(node.output)
        out = fn(ctx, name, attrs, list(node.input), None)
        if len(node.output) > 1:
            for i, o in enumerate(node.output):
                if o:
                    ctx.tensors[o] = out[i]
        else:
            ctx.tensors[node.output[0]] = out
    heads = [ctx.var(o.name) for o in graph.output]
    sym = heads[0] if len(heads) == 1 else ctx.sym.Group(heads)
    arg_params, aux_params = {}, {}
    args = set(sym.list_arguments())
    auxs = set(sym.list_auxiliary_states())
    for name in ctx.used:
        arr = nd.array(consts[name], dtype=consts[name].dtype)
        if name in auxs:
            aux_params[name] = arr
        elif name in args:
            arg_params[name] = arr
    return sym, arg_params, aux_params


def import_model(model_file: str):
    """Load an ONNX model file as an MXNet symbol with its parameters.

    Parameters
    ----------
    model_file : str
        Path of the ``.onnx`` file.

    Returns
    -------
    sym : Symbol
    arg_params : dict of str to NDArray
    aux_params : dict of str to NDArray

    Examples
    --------
    >>> sym, arg_params, aux_params = import_model('model.onnx')  # doctest: +SKIP
    """
    onnx = require_onnx()
    model = onnx.load(os.fspath(model_file))
    return _graph_to_sym(onnx, model.graph)


def _dims(vi: Any) -> tuple:
    # as MXNet 1.9.1: a symbolic dimension reads as 0
    return tuple(d.dim_value for d in vi.type.tensor_type.shape.dim)


def get_model_metadata(model_file: str) -> dict:
    """Names, shapes (and input element types) of an ONNX model's data inputs and outputs.

    Returns
    -------
    dict
        ``{'input_tensor_data': [(name, shape, onnx_elem_type)],
        'output_tensor_data': [(name, shape)]}``; initializers are not listed as inputs and
        symbolic dimensions read as 0.

    Examples
    --------
    >>> get_model_metadata('model.onnx')  # doctest: +SKIP
    {'input_tensor_data': [('data', (1, 3, 224, 224), 1)], 'output_tensor_data': [...]}
    """
    onnx = require_onnx()
    graph = onnx.load(os.fspath(model_file)).graph
    inits = {i.name for i in graph.initializer}
    inputs = [
        (i.name, _dims(i), i.type.tensor_type.elem_type) for i in graph.input if i.name not in inits
    ]
    outputs = [(o.name, _dims(o)) for o in graph.output]
    return {"input_tensor_data": inputs, "output_tensor_data": outputs}


def import_to_gluon(model_file: str, ctx=None):
    """Load an ONNX model file as a Gluon ``SymbolBlock`` holding its parameters.

    Examples
    --------
    >>> net = import_to_gluon('model.onnx', mx.cpu())  # doctest: +SKIP
    >>> out = net(mx.nd.ones((1, 3, 224, 224)))  # doctest: +SKIP
    """
    from ... import ndarray as nd
    from ...gluon import SymbolBlock

    sym, arg_params, aux_params = import_model(model_file)
    known = set(arg_params) | set(aux_params)
    data_names = [n for n in sym.list_inputs() if n not in known]
    with tempfile.TemporaryDirectory() as tmp:
        sym_file = os.path.join(tmp, "model-symbol.json")
        par_file = os.path.join(tmp, "model-0000.params")
        sym.save(sym_file)
        save = {f"arg:{k}": v for k, v in arg_params.items()}
        save.update({f"aux:{k}": v for k, v in aux_params.items()})
        nd.save(par_file, save)
        return SymbolBlock.imports(sym_file, data_names, par_file, ctx=ctx)
