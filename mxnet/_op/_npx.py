"""``mx.npx`` operators that have their own names in MXNet 1.9.1 (``_npx_relu``,
``_npx_sigmoid``, ``_npx_reshape``, ``_npx_nonzero``, ``_npx_constraint_check``).

The other ``npx`` functions run classic operators (``softmax``, ``FullyConnected``,
``Pooling``...) exactly as MXNet's symbol files name them, so they need no new entry here.
"""

from __future__ import annotations

import torch

from ._apply import OpValueError
from ._np_shape import npx_reshape_target
from ._params import Param
from ._registry import _REGISTRY as _REG
from ._registry import OpDef, register
from ._relu import relu as _mx_relu
from ._shape import fresh, op_error

__all__: list[str] = []


def _same(attrs, shapes):
    return shapes


def _relu(attrs: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dtype == torch.bool:
        return x.clone()
    return _mx_relu(x, keep_nan=True)


def _sigmoid(attrs: dict, x: torch.Tensor) -> torch.Tensor:
    if x.is_floating_point():
        return torch.sigmoid(x)
    # integer inputs keep their dtype (MXNet computes in floating point and truncates)
    return torch.sigmoid(x.to(torch.float64)).to(x.dtype)


register(OpDef("_npx_relu", _relu, infer_shape=_same,
               doc="Rectified linear unit ``max(x, 0)``, element-wise (``npx.relu``).\n\n"
                   "Example: ``npx.relu(np.array([-1., 2.]))`` -> ``array([0., 2.])``"))
register(OpDef("_npx_sigmoid", _sigmoid, infer_shape=_same,
               doc="Logistic sigmoid ``1 / (1 + exp(-x))``, element-wise (``npx.sigmoid``)."
                   "\n\nExample: ``npx.sigmoid(np.array([0.]))`` -> ``array([0.5])``"))


def _reshape(attrs: dict, x: torch.Tensor) -> torch.Tensor:
    if attrs["order"] != "C":
        raise op_error("_npx_reshape", f"only order='C' is supported (got {attrs['order']!r})")
    shape = npx_reshape_target("_npx_reshape", tuple(x.shape), attrs["newshape"],
                               attrs["reverse"])
    return fresh(x.reshape(shape))


register(OpDef(
    "_npx_reshape", _reshape, inputs=("a",),
    params=[Param("newshape", "shape", doc="The new shape with npx codes: -1 infer, -2 copy "
                  "one axis, -3 drop a size-1 axis, -4 copy the remaining axes, -5 merge two "
                  "axes, -6 split one axis into the two following values."),
            Param("reverse", "bool", False, doc="Match the codes from right to left."),
            Param("order", "str", "C", doc="Element order (only 'C').")],
    doc="Reshape with MXNet's special shape codes (``npx.reshape``).\n\n"
        "Example: ``npx.reshape(np.ones((2, 3, 4)), (-2, -1))`` has shape ``(2, 12)``"))


def _nonzero(attrs: dict, x: torch.Tensor) -> torch.Tensor:
    if x.device.type == "meta":
        raise op_error("_npx_nonzero", "the output shape depends on the input values")
    if x.dim() == 0:
        return torch.nonzero(x.reshape(1)).to(torch.int64)  # MXNet: as a 1-element 1-D array
    return torch.nonzero(x).to(torch.int64)


register(OpDef("_npx_nonzero", _nonzero, inputs=("x",),
               infer_type=lambda attrs, ins: (ins, ["int64"]),
               doc="Indices of the non-zero elements as an ``(N, ndim)`` int64 array "
                   "(``npx.nonzero``).\n\n"
                   "Example: ``npx.nonzero(np.array([[0, 1], [2, 0]]))``"))
_REG["_npx_nonzero"].dynamic_shape = True  # output shape set by the input values


def _constraint_check(attrs: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dtype != torch.bool:
        raise op_error("_npx_constraint_check", "the input must be a boolean array")
    if x.device.type == "meta":
        return torch.empty((), dtype=torch.bool, device=x.device)
    if not bool(x.all()):
        raise OpValueError(f"Check failed: red_output == true (0 vs. 1) : {attrs['msg']}")
    return torch.ones((), dtype=torch.bool, device=x.device)


register(OpDef("_npx_constraint_check", _constraint_check, inputs=("input",),
               params=[Param("msg", "str", "Constraint violated.",
                             doc="Error message raised when the constraint is not met.")],
               infer_type=lambda attrs, ins: (ins, ["bool"]),
               doc="``True`` (a 0-d bool array) when every element of the boolean input is "
                   "true; raises ``ValueError(msg)`` otherwise (``npx.constraint_check``).\n\n"
                   "Example: ``npx.constraint_check(x > 0, 'x must be positive')``"))
