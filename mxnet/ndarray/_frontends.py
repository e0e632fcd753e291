"""Hand-written ``mx.nd`` front ends that wrap registry operators (as MXNet's Python does)."""

from __future__ import annotations

from .._op._slice import split_v2_indices
from ._namespace import function_for

__all__ = ["split_v2"]


def split_v2(ary, indices_or_sections, axis: int = 0, squeeze_axis: bool = False):
    """Split an array into sub-arrays by section count or split points.

    Examples
    --------
    >>> a = mx.nd.arange(24).reshape((2, 3, 4))
    >>> [x.shape for x in mx.nd.split_v2(a, 2, axis=2)]
    [(2, 3, 2), (2, 3, 2)]
    """
    indices = split_v2_indices(ary.shape, indices_or_sections, axis)
    res = function_for("_split_v2")(ary, indices=indices, axis=axis, squeeze_axis=squeeze_axis,
                                    sections=0)
    return res if isinstance(res, list) else [res]


def _split_v2_method(self, indices_or_sections, axis=0, squeeze_axis=False):
    return split_v2(self, indices_or_sections, axis, squeeze_axis)


def attach(cls) -> None:
    """Install front-end based methods on NDArray (overriding generated ones)."""
    cls.split_v2 = _split_v2_method
