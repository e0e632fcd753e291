"""``call``: ``np_call`` with MXNet 1.9.1's argument check (a non-array input raises
``AssertionError: Argument <name> must have NDArray type, but got ...``)."""

from __future__ import annotations

from .._op._registry import get_op
from .multiarray import NDArray, np_call

__all__ = ["call", "as_list"]


def _is_input(x) -> bool:
    from ..symbol import Symbol

    return isinstance(x, (NDArray, Symbol))


def _legacy_error(opname: str) -> TypeError:
    pyname = opname.split("_", 2)[-1] if opname.startswith(("_npi_", "_np_")) else opname
    return TypeError(
        f"Operator `{opname}` registered in backend is known as `{pyname}` in Python. This is "
        "a numpy operator which can only accept MXNet numpy ndarrays, while received a legacy "
        "ndarray. Please ensure that you have activated numpy semantics by calling "
        "`npx.set_np()` in your code. If you still see this error with numpy semantics "
        "activated, please call `as_np_ndarray()` upon the legacy ndarray to convert it to an "
        "MXNet numpy ndarray, and then feed the converted array to this operator.")


def _is_legacy(x) -> bool:
    from ..symbol import Symbol
    from ..symbol.numpy import _Symbol
    from .multiarray import ndarray

    if isinstance(x, NDArray):
        return not isinstance(x, ndarray)
    return isinstance(x, Symbol) and not isinstance(x, _Symbol)


def call(opname: str, inputs: list, attrs: dict | None = None, out=None):
    """Run registry operator ``opname`` on arrays or symbols (see ``np_call``); legacy
    ``mx.nd.NDArray`` / ``mx.sym.Symbol`` inputs raise MXNet 1.9.1's TypeError."""
    op = get_op(opname)
    names = None if op.variadic else op.input_names(op.parse_attrs(attrs or {}))
    for i, x in enumerate(inputs):
        if not _is_input(x):
            if names is None:
                raise AssertionError(f"Positional arguments must have NDArray type, but got {x}")
            raise AssertionError(f"Argument {names[i] if i < len(names) else i} must have "
                                 f"NDArray type, but got {x}")
        if _is_legacy(x):
            raise _legacy_error(opname)
    return np_call(opname, inputs, attrs, out)


def as_list(res) -> list:
    """The outputs of a multi-output call as a list (arrays, or one symbol per output)."""
    if isinstance(res, (list, tuple)):
        return list(res)
    if isinstance(res, NDArray):
        return [res]
    n = len(res.list_outputs())
    if n == 1:
        return [res]
    from ..symbol.numpy import _as_np_sym

    return [_as_np_sym(res[i]) for i in range(n)]
