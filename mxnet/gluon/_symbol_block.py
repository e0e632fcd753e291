"""Gluon :class:`SymbolBlock`: a Block that runs a given Symbol graph (for example an
exported model loaded with :meth:`SymbolBlock.imports`)."""

from __future__ import annotations

import copy

from ..base import MXNetError
from ..context import Context
from ._hybrid import (
    HybridBlock,
    _cached_op_flags,
    _common_prefix,
    _flatten,
    _is_symbol,
    _regroup,
    _scan,
    _symbol_mod,
)
from .block import Block
from .parameter import ParameterDict

__all__ = ["SymbolBlock"]


def _infer_param_types(inputs, out, arg_params, aux_params, default="float32"):
    """Parameter dtypes following from the dtypes declared on the input variables
    (``float32`` where they cannot be inferred)."""
    import numpy as np

    arg_types = aux_types = None
    in_types = []
    for s in inputs:
        t = s.infer_type()[0]
        if not t or t[0] is None:
            in_types = None
            break
        in_types.append(t[0])
    if in_types is not None:
        try:
            arg_types, _, aux_types = out.infer_type(
                **{s.name: t for s, t in zip(inputs, in_types)})
        except MXNetError:
            arg_types = aux_types = None
    if arg_types is None or len(arg_types) != len(arg_params) or None in arg_types:
        arg_types = [np.dtype(default).type] * len(arg_params)
    if aux_types is None or len(aux_types) != len(aux_params) or None in aux_types:
        aux_types = [np.dtype(default).type] * len(aux_params)
    return arg_types, aux_types


class SymbolBlock(HybridBlock):
    """A Block built from a Symbol graph (for example an exported model).

    Parameters
    ----------
    outputs : Symbol or list of Symbol
        The outputs.
    inputs : Symbol or list of Symbol
        The input variables.
    params : ParameterDict, optional
        Parameters to reuse.

    Examples
    --------
    >>> net = mx.gluon.SymbolBlock.imports('model-symbol.json', ['data'],
    ...                                    'model-0000.params')  # doctest: +SKIP
    """

    @staticmethod
    def imports(symbol_file, input_names, param_file=None, ctx=None, allow_missing=False,
                ignore_extra=False):
        """Load a block from ``symbol_file`` and (optionally) ``param_file``."""
        sym = _symbol_mod()
        out = sym.load(symbol_file)
        if isinstance(input_names, str):
            input_names = [input_names]
        if param_file is None:
            inputs = [sym.var(i, dtype="float32") for i in input_names]
        else:
            inputs = [sym.var(i) for i in input_names]
        ret = SymbolBlock(out, inputs)
        if param_file is not None:
            ret.collect_params().load(param_file, ctx, allow_missing, ignore_extra,
                                      cast_dtype=True, dtype_source="saved")
        return ret

    def __repr__(self):
        inputs, out = self._cached_graph
        modstr = f"{out} : {len(inputs)} -> {len(out.list_outputs())}"
        return f"{self.__class__.__name__}(\n{modstr}\n)"

    def __init__(self, outputs, inputs, params=None):
        super().__init__(prefix=None, params=None)
        self._prefix = ""
        self._params = ParameterDict("", params)
        sym = _symbol_mod()
        if _is_symbol(inputs) and len(inputs.list_outputs()) == 1:
            inputs = [inputs]
        if isinstance(outputs, (list, tuple)) and len(outputs) == 1:
            outputs = outputs[0]
        syms, self._in_format = _flatten(inputs, "input")
        out, self._out_format = _flatten(outputs, "output")
        out = sym.Group(out)
        for i in out.get_internals():
            if i.attr("__storage_type__") == "1":  # row_sparse
                raise AssertionError(f"SymbolBlock doesn't support Parameter '{i.name}' "
                                     "because its storage type is 'row_sparse'.")
        input_names = set()
        for i in syms:
            if len(i.get_internals().list_outputs()) != 1:
                raise AssertionError(f"Input symbols must be variable, but {i} is an output "
                                     "of operators")
            input_names.add(i.name)
        arg_params, aux_params = out.list_arguments(), out.list_auxiliary_states()
        arg_types, aux_types = _infer_param_types(syms, out, arg_params, aux_params)
        for i, t in zip(arg_params, arg_types):
            if i not in input_names:
                self.params.get(i, allow_deferred_init=True, dtype=t)
        for i, t in zip(aux_params, aux_types):
            if i not in input_names:
                self.params.get(i, grad_req="null", allow_deferred_init=True, dtype=t)
        self._cached_graph = syms, out
        len_prefix = len(_common_prefix(list(self._params.keys())))
        self._reg_params = {key[len_prefix:]: val for key, val in self._params.items()}
        self._active = True
        from ..util import is_np_array

        self._np_graph = is_np_array()  # NumPy mode: outputs are mx.np arrays

    def forward(self, x, *args):
        has_sym, has_nd, ctxs = _scan((x,) + args)
        if has_nd and not has_sym:
            with Context(ctxs[0]):
                return self._call_cached_op(x, *args)
        if not has_sym:
            raise ValueError("In HybridBlock, there must be one NDArray or one Symbol in the "
                             "input. Please check the type of the args.\n")
        flat, _ = _flatten([x] + list(args), "input")
        ret = copy.copy(self._cached_graph[1])
        ret._compose(**{k.name: v for k, v in zip(self._cached_graph[0], flat)})
        res = _regroup(list(ret), self._out_format)[0]
        if self._np_graph:
            from ._np_mode import to_np

            res = to_np(res)
        return res

    def _clear_cached_op(self):
        graph = getattr(self, "_cached_graph", ())
        super()._clear_cached_op()
        self._cached_graph = graph

    def hybridize(self, active=True, backend=None, clear=True, static_alloc=False,
                  static_shape=False, inline_limit=2, forward_bulk_size=None,
                  backward_bulk_size=None, **kwargs):
        self._backend = backend
        self._flags = _cached_op_flags(static_alloc, static_shape, inline_limit,
                                       forward_bulk_size, backward_bulk_size, kwargs)
        self._callables = {}

    def cast(self, dtype):
        self._callables = {}
        Block.cast(self, dtype)

    def hybrid_forward(self, F, x, *args, **kwargs):
        raise MXNetError("SymbolBlock runs its Symbol graph; hybrid_forward is not used")


SymbolBlock.__module__ = "mxnet.gluon.block"
