"""Sparse NDArrays and the ``sparse`` operator namespace (``mx.nd.sparse``).

Registry operators of the ``sparse`` namespace are generated first; the sparse array classes
and the sparsity-keeping functions of :mod:`._sparse_ops` are added on top (they win).
"""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "sparse")

from ._sparse_base import BaseSparseNDArray, CSRNDArray, RowSparseNDArray  # noqa: E402, F401
from ._sparse_ops import (  # noqa: E402, F401
    add,
    array,
    cast_storage,
    csr_matrix,
    dot,
    elemwise_add,
    elemwise_sub,
    empty,
    retain,
    row_sparse_array,
    subtract,
    zeros,
)

__all__ = sorted(set(__all__) | {
    "BaseSparseNDArray", "CSRNDArray", "RowSparseNDArray", "add", "array", "cast_storage",
    "csr_matrix", "dot", "elemwise_add", "elemwise_sub", "empty", "retain",
    "row_sparse_array", "subtract", "zeros"})
