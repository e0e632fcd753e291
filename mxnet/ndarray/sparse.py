"""Sparse NDArrays and the ``sparse`` operator namespace (``mx.nd.sparse``).

Registry operators of the ``sparse`` namespace are generated first; the sparse array classes
and the sparsity-keeping functions of :mod:`._sparse_ops` / :mod:`._sparse_unary` are added
on top (they win). The other operators MXNet lists here (``sum``, ``mean``, ``where``...)
are the generated operators: on sparse inputs they compute densely and return the storage
type MXNet 1.9.1 infers (``mxnet._op._stype_rules``; dense where MXNet falls back).

Storage kept (as MXNet 1.9.1): ``dot(csr, dense)`` -> dense, ``dot(csr.T, dense)`` ->
row_sparse, ``dot(dense, csr)`` -> csr; ``elemwise_add/sub/mul`` (and ``+ - *``) of two
arrays of the same sparse stype; ``* /`` by a scalar, unary minus; ``retain``; the
zero-preserving unary operators (``sqrt``, ``square``, ``abs``, ``sign``, ``relu``, ...);
``zeros_like``; ``zeros``/``empty``/``array``/``cast_storage``.
"""

from ._namespace import populate as _populate

__all__ = _populate(globals(), "sparse")

from ._sparse_base import BaseSparseNDArray, CSRNDArray, RowSparseNDArray  # noqa: E402, F401
from ._sparse_ops import (  # noqa: E402, F401
    add,
    array,
    cast_storage,
    csr_matrix,
    divide,
    dot,
    elemwise_add,
    elemwise_mul,
    elemwise_sub,
    empty,
    multiply,
    retain,
    row_sparse_array,
    subtract,
    zeros,
)

__all__ = sorted(
    set(__all__)
    | {
        "BaseSparseNDArray",
        "CSRNDArray",
        "RowSparseNDArray",
        "add",
        "array",
        "cast_storage",
        "csr_matrix",
        "divide",
        "dot",
        "elemwise_add",
        "elemwise_mul",
        "elemwise_sub",
        "empty",
        "multiply",
        "retain",
        "row_sparse_array",
        "subtract",
        "zeros",
    }
)

from ._sparse_optim import adagrad_update  # noqa: E402, F401

__all__ = sorted(set(__all__) | {"adagrad_update"})

from ._sparse_unary import ZERO_PRESERVING as _ZP  # noqa: E402
from ._sparse_unary import attach_sparse_fluent as _attach  # noqa: E402
from ._sparse_unary import make_unary as _make_unary  # noqa: E402
from ._sparse_unary import zeros_like  # noqa: E402, F401


def _fill() -> None:
    from . import op as _op

    g = globals()
    for _name in _ZP:
        g[_name] = _make_unary(_name)
    # dense operators MXNet 1.9.1 also lists under mx.nd.sparse
    for _name in (
        "add_n",
        "adam_update",
        "arccos",
        "arccosh",
        "broadcast_add",
        "broadcast_div",
        "broadcast_minus",
        "broadcast_mul",
        "broadcast_plus",
        "broadcast_sub",
        "clip",
        "concat",
        "cos",
        "cosh",
        "elemwise_div",
        "exp",
        "ftrl_update",
        "gamma",
        "gammaln",
        "log",
        "log10",
        "log2",
        "mean",
        "norm",
        "rsqrt",
        "sgd_mom_update",
        "sgd_update",
        "sigmoid",
        "slice",
        "sum",
        "where",
    ):
        if _name not in g and hasattr(_op, _name):
            g[_name] = getattr(_op, _name)
            __all__.append(_name)
    __all__.extend(n for n in (*_ZP, "zeros_like") if n not in __all__)
    # storage-aware forms of some of those (lazy row_sparse updates, csr concat...)
    from . import _sparse_more

    for _name in _sparse_more.__all__:
        g[_name] = getattr(_sparse_more, _name)
        if _name not in __all__:
            __all__.append(_name)
    # MXNet dispatches on storage type: mx.nd.sgd_update(w, row_sparse_grad, out=w) is
    # lazy too, and so are optimizers calling the operator (NAG / LBSGD without momentum)
    from . import _namespace

    for _name in _sparse_more.LAZY_UPDATES:
        setattr(_op, _name, g[_name])
        _namespace._FUNCS[_name] = g[_name]
    for _name, _fn in _sparse_more.DENSE_FRONTS.items():  # in-place aliasing (out=weight)
        setattr(_op, _name, _fn)
        _namespace._FUNCS[_name] = _fn


_fill()
_attach(BaseSparseNDArray)


def _install_graph_ops() -> None:
    """``mx.nd.contrib``'s graph operators read and return CSR structure: the CSR-aware
    front ends of :mod:`._sparse_graph` replace the generated (dense) ones there (and the
    storage-aware ``_square_sum`` replaces ``mx.nd._internal._square_sum``)."""
    from . import _internal, _sparse_graph, contrib
    from ._sparse_reduce import square_sum

    for _name in _sparse_graph.__all__:
        setattr(contrib, _name, getattr(_sparse_graph, _name))
        if _name not in contrib.__all__:
            contrib.__all__.append(_name)
    _internal._square_sum = square_sum  # row_sparse-keeping for axis=1, keepdims=True


_install_graph_ops()
