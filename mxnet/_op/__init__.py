"""The operator registry. Importing this package registers every operator."""

from . import (  # noqa: F401  (registration side effects)
    _cached_op,  # _CachedOp (a graph as one node)
    _contrib,
    _control_flow,  # _foreach (symbolic control flow)
    _conv,
    _creation,
    _custom,  # noqa: F401  (the Custom operator)
    _cvimage,
    _deform,
    _detection,
    _elemwise,
    _image,
    _index,
    _linalg,
    _loss,
    _misc,
    _misc_nn,
    _multi_update,
    _multibox,
    _nn,
    _norm,
    _optim,  # noqa: F401  (optimizer update operators)
    _proposal,
    _random,
    _random_pdf,
    _reduce,
    _rnn,  # the fused RNN operator (added with gluon.rnn)
    _shape,
    _slice,
    _softmax,
    _spatial,
    _sparse,  # cast_storage, _sparse_retain, _sparse_adagrad_update
    _graph,  # getnnz, edge_id, dgl_* graph operators
    _calibrate,  # _contrib_calibrate_entropy
    _quant,  # _contrib_quantize_v2, _contrib_requantize
    _quantized,  # _contrib_quantized_conv, _fully_connected, _pooling... (INT8)
    _quantized_multi,  # _contrib_quantized_elemwise_add, _concat, _batch_norm...
    _np_arith,  # mx.np operators (_npi_add...)
    _np_math,
    _np_reduce,
    _np_dot,
    _np_create,
    _np_shape,
    _np_join,
    _np_select,
    _np_sort,
    _np_linalg,
    _np_random,
    _npx,  # mx.npx operators (_npx_relu, _npx_reshape...)
)
from ._apply import apply
from ._params import Param
from ._registry import OpDef, all_names, all_ops, get_op, has_op, register

__all__ = ["OpDef", "Param", "apply", "register", "get_op", "has_op", "all_ops", "all_names"]
