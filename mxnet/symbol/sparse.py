"""Symbol operators of the ``sparse`` namespace, generated from the registry."""

from ._namespace import lazy_getattr as _lazy_getattr
from ._namespace import populate as _populate

__all__ = _populate(globals(), "sparse")
_registry_getattr = _lazy_getattr("sparse", __name__)

# MXNet 1.9.1 also lists its storage-aware operators under ``mx.sym.sparse``: they are the
# same graph nodes as ``mx.sym.<name>`` (``mx.sym.sparse.dot(csr_var, rsp_weight)``).
_SAME_AS_OP = (
    "ElementWiseSum", "Embedding", "FullyConnected", "LinearRegressionOutput",
    "LogisticRegressionOutput", "MAERegressionOutput", "abs", "adagrad_update", "adam_update",
    "add_n", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "broadcast_add",
    "broadcast_div", "broadcast_minus", "broadcast_mul", "broadcast_plus", "broadcast_sub",
    "cast_storage", "cbrt", "ceil", "clip", "concat", "cos", "cosh", "degrees", "dot",
    "elemwise_add", "elemwise_div", "elemwise_mul", "elemwise_sub", "exp", "expm1", "fix",
    "floor", "ftrl_update", "gamma", "gammaln", "log", "log10", "log1p", "log2", "make_loss",
    "mean", "negative", "norm", "radians", "relu", "retain", "rint", "round", "rsqrt",
    "sgd_mom_update", "sgd_update", "sigmoid", "sign", "sin", "sinh", "slice", "sqrt",
    "square", "stop_gradient", "sum", "tan", "tanh", "trunc", "where", "zeros_like")


def _fill() -> None:
    from . import op

    g = globals()
    for _name in _SAME_AS_OP:
        if _name not in g and hasattr(op, _name):
            g[_name] = getattr(op, _name)
            __all__.append(_name)


_fill()


def __getattr__(attr: str):
    if attr in _SAME_AS_OP and attr not in __all__:
        from . import op

        return getattr(op, attr)
    return _registry_getattr(attr)
