"""Python front ends of ``mx.sym`` that pick an operator by argument type (as MXNet's)."""

from __future__ import annotations

from numbers import Number

import numpy as np

from ._create import create_op_symbol
from .symbol import Symbol

__all__ = [
    "split_v2",
    "pow",
    "power",
    "maximum",
    "minimum",
    "hypot",
    "zeros",
    "ones",
    "full",
    "arange",
    "linspace",
    "eye",
    "histogram",
]


def _binary(left, right, names: tuple[str, str, str], pyfn, what: str):
    if isinstance(left, Symbol) and isinstance(right, Symbol):
        return create_op_symbol(names[0], [left, right], {}, {})
    if isinstance(left, Symbol) and isinstance(right, Number):
        return create_op_symbol(names[1], [left], {}, {"scalar": right})
    if isinstance(left, Number) and isinstance(right, Symbol):
        return create_op_symbol(names[2], [right], {}, {"scalar": left})
    if isinstance(left, Number) and isinstance(right, Number):
        return pyfn(left, right)
    raise TypeError(f"types ({type(left)}, {type(right)}) not supported for {what}")


def pow(base, exp):  # noqa: A001
    """``base ** exp`` element-wise for symbols and scalars (no broadcasting).

    Examples
    --------
    >>> import mxnet as mx
    >>> mx.sym.pow(mx.sym.Variable('x'), 2).name
    '_powerscalar0'
    """
    return _binary(base, exp, ("_Power", "_PowerScalar", "_RPowerScalar"), lambda a, b: a**b, "pow")


def power(base, exp):
    """Same as :func:`pow`."""
    return pow(base, exp)


def maximum(left, right):
    """Element-wise maximum of symbols and scalars."""
    return _binary(
        left,
        right,
        ("_Maximum", "_MaximumScalar", "_MaximumScalar"),
        lambda a, b: a if a > b else b,
        "maximum",
    )


def minimum(left, right):
    """Element-wise minimum of symbols and scalars."""
    return _binary(
        left,
        right,
        ("_Minimum", "_MinimumScalar", "_MinimumScalar"),
        lambda a, b: a if a < b else b,
        "minimum",
    )


def hypot(left, right):
    """Element-wise ``sqrt(left**2 + right**2)``."""
    return _binary(
        left,
        right,
        ("_Hypot", "_HypotScalar", "_HypotScalar"),
        lambda a, b: float(np.hypot(a, b)),
        "hypot",
    )


def _creation(opname: str, params: dict, name=None, attr=None) -> Symbol:
    return create_op_symbol(opname, [], {}, params, name, attr)


def zeros(shape, dtype=None, **kwargs) -> Symbol:
    """A symbol of zeros (``_zeros``); dtype defaults to float32."""
    name, attr = kwargs.pop("name", None), kwargs.pop("attr", None)
    return _creation("_zeros", {"shape": shape, "dtype": dtype or np.float32, **kwargs}, name, attr)


def ones(shape, dtype=None, **kwargs) -> Symbol:
    """A symbol of ones (``_ones``); dtype defaults to float32."""
    name, attr = kwargs.pop("name", None), kwargs.pop("attr", None)
    return _creation("_ones", {"shape": shape, "dtype": dtype or np.float32, **kwargs}, name, attr)


def full(shape, val, dtype=None, **kwargs) -> Symbol:
    """A symbol filled with ``val`` (``_full``)."""
    name, attr = kwargs.pop("name", None), kwargs.pop("attr", None)
    return _creation(
        "_full",
        {"shape": shape, "dtype": dtype or np.float32, "value": float(val), **kwargs},
        name,
        attr,
    )


def arange(
    start, stop=None, step=1.0, repeat=1, infer_range=False, name=None, dtype=None
) -> Symbol:
    """Evenly spaced values in ``[start, stop)`` (``_arange``)."""
    return _creation(
        "_arange",
        {
            "start": start,
            "stop": stop,
            "step": step,
            "repeat": repeat,
            "infer_range": infer_range,
            "dtype": dtype or np.float32,
        },
        name,
    )


def linspace(start, stop, num, endpoint=True, name=None, dtype=None) -> Symbol:
    """``num`` evenly spaced values from ``start`` to ``stop`` (``_linspace``)."""
    return _creation(
        "_linspace",
        {
            "start": start,
            "stop": stop,
            "num": num,
            "endpoint": endpoint,
            "dtype": dtype or np.float32,
        },
        name,
    )


def eye(N, M=0, k=0, dtype=None, **kwargs) -> Symbol:
    """A 2-D identity-like symbol (``_eye``)."""
    name, attr = kwargs.pop("name", None), kwargs.pop("attr", None)
    return _creation(
        "_eye", {"N": N, "M": M, "k": k, "dtype": dtype or np.float32, **kwargs}, name, attr
    )


def split_v2(ary, indices_or_sections, axis: int = 0, squeeze_axis: bool = False):
    """Split a symbol into outputs by section count or split points.

    Examples
    --------
    >>> s = mx.sym.split_v2(mx.sym.var('x'), 2, axis=1)
    >>> len(s.list_outputs())
    2
    """
    # as MXNet 1.9.1: the split points go to the node as a list ("[0, 1, 3]" in the JSON)
    if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
        kw = {"sections": indices_or_sections, "indices": []}
    elif isinstance(indices_or_sections, tuple):
        kw = {"sections": 0, "indices": [0] + [int(i) for i in indices_or_sections]}
    else:
        raise ValueError("indices_or_sections must either int or tuple of ints")
    from ._namespace import function_for

    return function_for("_split_v2")(ary, axis=axis, squeeze_axis=squeeze_axis, **kw)


def histogram(a, bins=10, range=None, **kwargs):  # noqa: A002 (MXNet's argument name)
    """Histogram of ``a`` (flattened): ``bins`` is a count with ``range`` required, or a
    symbol of bin edges.

    Examples
    --------
    >>> h = mx.sym.histogram(mx.sym.var('x'), bins=4, range=(0, 1))
    >>> len(h.list_outputs())
    2
    """
    from ..base import integer_types
    from ._namespace import function_for

    if isinstance(bins, Symbol):
        return function_for("_histogram")(data=a, bins=bins, **kwargs)
    if isinstance(bins, integer_types):
        if range is None:
            raise ValueError("null range is not supported in symbol mode")
        return function_for("_histogram")(data=a, bin_cnt=bins, range=range, **kwargs)
    raise ValueError("bins argument should be either an integer or an NDArray")


def _split_v2_method(self, indices_or_sections, axis=0, squeeze_axis=False):
    return split_v2(self, indices_or_sections, axis, squeeze_axis)


def attach(cls) -> None:
    """Install front-end based methods on Symbol (overriding generated ones)."""
    cls.split_v2 = _split_v2_method
    cls.optimize_for = _optimize_for
    cls.get_backend_symbol = _get_backend_symbol


# MXNet 1.9.1's subgraph backends (oneDNN fusion and quantization, TensorRT)
_BACKENDS = ("MKLDNN", "MKLDNN_QUANTIZE", "ONEDNN", "ONEDNN_QUANTIZE", "TensorRT")


def _check_backend(name: str, backend) -> None:
    """MXNet 1.9.1: ``default``/``default_v2`` need operator names set through the C API
    (MXNetError here); ``optimize_for`` logs an unknown backend and returns the graph
    unchanged, ``get_backend_symbol`` raises MXNetError for it."""
    import logging

    from ..base import MXNetError

    if name == "optimize_for" and not isinstance(backend, str):
        raise AssertionError  # MXNet 1.9.1: ``assert isinstance(backend, str)``, no message
    if backend in ("default", "default_v2"):
        raise MXNetError(
            f"Symbol.{name}: Cannot find attribute op_names in SubgraphProperty "
            f"(the '{backend}' backend partitions by operator names set through "
            "MXNet's C API, which mxnet-ng does not have)"
        )
    if backend not in _BACKENDS:
        if name == "get_backend_symbol":
            raise MXNetError(f"SubgraphProperty {backend} is not found in SubgraphBackendRegistry")
        logging.warning("Error optimizing for backend '%s' cannot be found", backend)


def _optimize_for(
    self,
    backend,
    args=None,
    aux=None,
    ctx=None,
    shape_dict=None,
    type_dict=None,
    stype_dict=None,
    skip_infer=False,
    **kwargs,
):
    """The graph prepared for ``backend``. mxnet-ng's executors already fuse what MXNet's
    oneDNN backend partitions (convolution chains at inference), so the graph comes back
    unchanged (same arguments, outputs and results), as MXNet returns it for a backend it
    does not know."""
    _check_backend("optimize_for", backend)
    return self.__copy__()


def _get_backend_symbol(self, backend):
    """The graph for ``backend`` (unchanged here: see ``optimize_for``)."""
    _check_backend("get_backend_symbol", backend)
    return self.__copy__()
