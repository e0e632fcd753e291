"""The deprecated Python operators of MXNet 1.x: ``PythonOp``, ``NumpyOp``, ``NDArrayOp``.

Old programs subclass them and call ``op.get_symbol(data, name=...)``. Here each instance is
run through the ``Custom`` operator: ``get_symbol`` registers a private ``CustomOpProp`` that
forwards ``list_arguments``/``list_outputs``/``infer_shape``/``need_top_grad`` to the instance,
and whose operator calls the instance's ``forward(in_data, out_data)`` and
``backward(out_grad, in_data, out_data, in_grad)`` with NumPy arrays (``NumpyOp``) or
NDArrays (``NDArrayOp``), writing the results back.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np

__all__ = ["PythonOp", "NumpyOp", "NDArrayOp"]

_ids = itertools.count()


class PythonOp:
    """Base class of the deprecated Python operators (use ``CustomOp`` in new code).

    Parameters
    ----------
    need_top_grad : bool
        The default :meth:`need_top_grad` (False for loss layers).
    """

    _ref_holder: list = []

    def __init__(self, need_top_grad: bool = True):
        self.info_ = None
        self.need_top_grad_ = need_top_grad
        warnings.warn("PythonOp has been deprecated. Please use CustomOp")

    def __call__(self, *args, **kwargs):
        return self.get_symbol(*args, **kwargs)

    def get_symbol(self, *args, **kwargs):
        """A Symbol applying this operator to ``args`` (symbols)."""
        from .base import abstract

        raise abstract(self, "get_symbol")

    def forward(self, in_data, out_data):
        """Compute ``out_data`` from ``in_data`` (the default copies the first input)."""
        out_data[0][:] = in_data[0]

    def backward(self, out_grad, in_data, out_data, in_grad):
        """Compute ``in_grad`` (the default writes ones)."""
        in_grad[0][:] = 1.0

    def infer_shape(self, in_shape):
        """``(input shapes, output shapes)``; the default: one output shaped like input 0."""
        return in_shape, [in_shape[0]]

    def list_outputs(self):
        """Names of the outputs."""
        return ["output"]

    def list_arguments(self):
        """Names of the inputs."""
        return ["data"]

    def need_top_grad(self):
        """Whether backward reads the output gradient (False for loss layers)."""
        return self.need_top_grad_


def _as_numpy(arrays):
    return [a.asnumpy() for a in arrays]


class _Bridge:
    """Creates the CustomOp that runs a PythonOp instance."""

    @staticmethod
    def prop_for(pyop, numpy_io: bool):
        from .operator import CustomOp, CustomOpProp

        class _Op(CustomOp):
            def forward(self, is_train, req, in_data, out_data, aux):
                if numpy_io:
                    ins, outs = _as_numpy(in_data), [np.zeros(o.shape, o.dtype)
                                                     for o in out_data]
                    pyop.forward(in_data=ins, out_data=outs)
                else:
                    outs = list(out_data)
                    pyop.forward(in_data=list(in_data), out_data=outs)
                for dst, r, src in zip(out_data, req, outs):
                    if src is not dst:
                        self.assign(dst, r, src)

            def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
                if numpy_io:
                    grads = [np.zeros(g.shape, g.dtype) for g in in_grad]
                    pyop.backward(out_grad=_as_numpy(out_grad), in_data=_as_numpy(in_data),
                                  out_data=_as_numpy(out_data), in_grad=grads)
                else:
                    grads = list(in_grad)
                    pyop.backward(out_grad=list(out_grad), in_data=list(in_data),
                                  out_data=list(out_data), in_grad=grads)
                for dst, r, src in zip(in_grad, req, grads):
                    if src is not dst:
                        self.assign(dst, r, src)

        class _Prop(CustomOpProp):
            def __init__(self):
                super().__init__(need_top_grad=pyop.need_top_grad())

            def list_arguments(self):
                return pyop.list_arguments()

            def list_outputs(self):
                return pyop.list_outputs()

            def infer_shape(self, in_shape):
                ins, outs = pyop.infer_shape(in_shape)
                return ins, outs, []

            def create_operator(self, ctx, shapes, dtypes):
                return _Op()

        return _Prop


def _symbol(pyop, numpy_io: bool, args, kwargs):
    from . import symbol
    from .operator import register

    if getattr(pyop, "_op_type", None) is None:
        pyop._op_type = f"_legacy_pyop{next(_ids)}"
        register(pyop._op_type)(_Bridge.prop_for(pyop, numpy_io))
        PythonOp._ref_holder.append(pyop)
    return symbol.Custom(*args, op_type=pyop._op_type, **kwargs)


class NumpyOp(PythonOp):
    """Deprecated operator computed in NumPy: ``forward``/``backward`` receive NumPy arrays
    and fill the output (gradient) arrays in place.

    Examples
    --------
    >>> op = mx.operator.NumpyOp()  # the default copies its input
    >>> ex = op.get_symbol(mx.sym.Variable("x")).bind(mx.cpu(), {"x": mx.nd.ones((2,))})
    >>> ex.forward()[0].asnumpy().tolist()
    [1.0, 1.0]
    """

    def __init__(self, need_top_grad: bool = True):
        super().__init__(need_top_grad)
        warnings.warn("NumpyOp has been deprecated. Please use CustomOp")

    def get_symbol(self, *args, **kwargs):
        return _symbol(self, True, args, kwargs)


class NDArrayOp(PythonOp):
    """Deprecated operator computed on NDArrays: ``forward``/``backward`` receive NDArrays
    and write the outputs (gradients) with ``out[:] = ...``."""

    def __init__(self, need_top_grad: bool = True):
        super().__init__(need_top_grad)
        warnings.warn("NDArrayOp has been deprecated. Please use CustomOp")

    def get_symbol(self, *args, **kwargs):
        return _symbol(self, False, args, kwargs)

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The arrays backward reads (MXNet's default: all of them when ``need_top_grad``)."""
        deps = []
        if self.need_top_grad():
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps
