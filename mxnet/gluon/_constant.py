"""Gluon :class:`Constant`: a Parameter holding a fixed value (no gradient)."""

from __future__ import annotations

import warnings

from .parameter import Parameter, _nd

__all__ = ["Constant"]


class Constant(Parameter):
    """A parameter that keeps a fixed value and receives no gradient.

    Examples
    --------
    >>> c = mx.gluon.Constant('c', mx.nd.array([1, 2]))
    >>> c.grad_req
    'null'
    """

    def __init__(self, name, value):
        nd = _nd()
        if not isinstance(value, nd.NDArray):
            value = nd.array(value)
        self.value = value
        from .. import initializer

        const = value

        class _ConstInit(initializer.Initializer):
            def _init_weight(self, _, arr):
                const.copyto(arr)

            def __call__(self, desc, arr):
                const.copyto(arr)

            def dumps(self):
                return f'["constant", {{"value": {const.asnumpy().tolist()}}}]'

        init_name = f"Constant_{name}_{id(self)}"
        _ConstInit.__name__ = init_name
        super().__init__(name, grad_req="null", shape=value.shape, dtype=value.dtype,
                         init=_ConstInit())
        self._init_name = init_name

    def __repr__(self):
        return f"Constant {self.name} (shape={self.shape}, dtype={self.dtype})"

    @property
    def grad_req(self):
        return "null"

    @grad_req.setter
    def grad_req(self, req):
        if req != "null":
            warnings.warn(f"Constant parameter \"{self.name}\" does not support grad_req "
                          f"other than \"null\", and new value \"{req}\" is ignored.",
                          stacklevel=2)
        self._grad_req = "null"


Constant.__module__ = "mxnet.gluon.parameter"
