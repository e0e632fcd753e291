"""NumPy-interface (``mx.np``) creation operators: ``_npi_zeros``, ``_npi_ones``,
``_npi_full``, ``_npi_full_like``, ``_npi_arange``, ``_npi_identity``, ``_npi_eye``,
``_npi_linspace``, ``_npi_logspace``, ``_npi_indices``, the window functions
(``_npi_hanning``...) and the triangle/diagonal operators (``_npi_tril``, ``_np_diag``,
``_np_diagflat``, ``_np_diagonal``, ``_npi_diag_indices_from``).

Values are computed in the output dtype where MXNet 1.9.1 does (``arange(0, 1, 0.3)`` ends in
``0.90000004`` in float32), names and parameters are MXNet's.
"""

from __future__ import annotations

import math

import torch

from .._dtype import to_torch
from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, register
from ._shape import norm_axis, op_error

__all__: list[str] = []

_NP_DTYPES = ("bfloat16", "bool", "float16", "float32", "float64", "int32", "int64", "int8",
              "uint8")


class _CtxParam(Param):
    """MXNet's ``ctx`` string parameter: '' (the default) means the current context."""

    __slots__ = ()

    def parse(self, value, op_name: str = ""):
        if isinstance(value, str) and not value.strip():
            return None
        return super().parse(value, op_name)


def _ctx_param() -> Param:
    return _CtxParam("ctx", "ctx", None, doc="Context of output, in format "
                     "[cpu|gpu|cpu_pinned](n). Only used for imperative calls.")


_NO_BOOL = tuple(d for d in _NP_DTYPES if d != "bool")


def _dtype_param(default="float32", choices=_NP_DTYPES) -> Param:
    return Param("dtype", "enum", default, choices=choices, doc="Target data type.")


def device_of(attrs: dict) -> torch.device:
    """The torch device of a creation operator's ``ctx`` (None: the current context)."""
    from ..context import current_context

    ctx = attrs.get("ctx")
    return (ctx if ctx is not None else current_context()).torch_device


def _check_shape(name: str, shape) -> tuple:
    if shape is None:
        raise op_error(name, "shape must be given")
    for d in shape:
        if d is None or d < 0:
            raise op_error(name, f"invalid shape {tuple(shape)}: dimensions must be >= 0")
    return tuple(shape)


def _filled(name: str, value_of):
    def compute(attrs):
        shape = _check_shape(name, attrs["shape"])
        return torch.full(shape, value_of(attrs), dtype=to_torch(attrs["dtype"]),
                          device=device_of(attrs))

    return compute


_SHAPE_OUT = {"infer_out": lambda a, s: [_check_shape("creation", a["shape"])]}

for _name, _val, _extra in (("_npi_zeros", lambda a: 0, ()), ("_npi_ones", lambda a: 1, ()),
                            ("_npi_full", lambda a: a["value"],
                             (Param("value", "float", doc="Value with which to fill."),))):
    register(OpDef(_name, _filled(_name, _val), inputs=(), creation=True,
                   params=[Param("shape", "shape", (), doc="The shape of the output"),
                           _ctx_param(), _dtype_param(), *_extra], **_SHAPE_OUT,
                   doc=f"A new array of the given shape filled with {_name[5:]} "
                       f"(``mx.np.{_name[5:]}``).\n\n"
                       f"Example: ``mx.nd._internal.{_name}(shape=(2, 3))``"))


def _full_like(a: dict, x: torch.Tensor) -> torch.Tensor:
    dt = to_torch(a["dtype"]) if a["dtype"] is not None else x.dtype
    return torch.full(tuple(x.shape), a["fill_value"], dtype=dt, device=x.device)


register(OpDef("_npi_full_like", _full_like, inputs=("a",),
               params=[Param("fill_value", "float", doc="Value with which to fill."),
                       _ctx_param(), _dtype_param(None)],
               infer_out=lambda a, s: [s[0]],
               doc="An array of ``a``'s shape filled with ``fill_value`` (``mx.np.full_like``)."
                   "\n\nExample: ``mx.nd._internal._npi_full_like(x, fill_value=2.0)``"))

# ---------------------------------------------------------------------------------------
# ranges


def _arange_count(a: dict) -> int:
    start, stop, step = a["start"], a["stop"], a["step"]
    if stop is None:
        start, stop = 0.0, start
    if step == 0:
        raise MXNetError("Operator _npi_arange: step cannot be 0")
    return max(int(math.ceil((stop - start) / step)), 0)


def arange_values(start: float, step: float, n: int, dtype: torch.dtype,
                  device) -> torch.Tensor:
    """``start + i * step`` for ``i < n``, evaluated in ``dtype`` as MXNet's kernel does."""
    if dtype.is_floating_point:
        i = torch.arange(n, dtype=dtype, device=device)
        return i * torch.tensor(step, dtype=dtype) + torch.tensor(start, dtype=dtype)
    i = torch.arange(n, dtype=torch.int64, device=device)
    return (int(start) + int(step) * i).to(dtype)


def _arange(a: dict) -> torch.Tensor:
    start, stop = a["start"], a["stop"]
    if stop is None:
        start = 0.0
    t = arange_values(start, a["step"], _arange_count(a), to_torch(a["dtype"]), device_of(a))
    if a["repeat"] > 1:
        t = t.repeat_interleave(a["repeat"])
    return t


register(OpDef("_npi_arange", _arange, inputs=(), creation=True,
               params=[Param("start", "float", doc="Start of interval."),
                       Param("stop", "float_or_none", None, doc="End of interval."),
                       Param("step", "float", 1.0, doc="Spacing between values."),
                       Param("repeat", "int", 1, doc="The repeating time of all elements."),
                       Param("infer_range", "bool", False, doc="Infer the stop value from the "
                             "output shape (unused imperatively)."),
                       _ctx_param(), _dtype_param(choices=_NO_BOOL)],
               infer_out=lambda a, s: [(_arange_count(a) * a["repeat"],)],
               doc="Evenly spaced values in ``[start, stop)`` (``mx.np.arange``).\n\n"
                   "Example: ``mx.nd._internal._npi_arange(start=0, stop=5)``"))


def _linspace_step(a: dict) -> float:
    n = a["num"]
    if n < 0:
        raise op_error("_npi_linspace", f"Number of sequence should be non-negative, got {n}")
    div = (n - 1) if a["endpoint"] else n
    return (a["stop"] - a["start"]) / div if div > 0 else 0.0


def _linspace(a: dict) -> torch.Tensor:
    n, dt, dev = a["num"], to_torch(a["dtype"]), device_of(a)
    step = _linspace_step(a)
    vals = a["start"] + step * torch.arange(n, dtype=torch.float64, device=dev)
    if a["endpoint"] and n > 1:
        vals[-1] = a["stop"]
    return vals.to(dt)


register(OpDef("_npi_linspace", _linspace, inputs=(), creation=True,
               params=[Param("start", "float", doc="The starting value of the sequence."),
                       Param("stop", "float", doc="The ending value of the sequence."),
                       Param("num", "int", doc="Number of samples to generate."),
                       Param("endpoint", "bool", True, doc="Whether stop is the last sample."),
                       _ctx_param(), _dtype_param(choices=_NO_BOOL)],
               infer_out=lambda a, s: [(max(a["num"], 0),)],
               doc="``num`` evenly spaced samples over ``[start, stop]`` (``mx.np.linspace``)."
                   "\n\nExample: ``mx.nd._internal._npi_linspace(start=0, stop=1, num=5)``"))


def _logspace(a: dict) -> torch.Tensor:
    n, dt, dev = a["num"], to_torch(a["dtype"]), device_of(a)
    step = _linspace_step(a)
    expo = a["start"] + step * torch.arange(n, dtype=torch.float64, device=dev)
    if a["endpoint"] and n > 1:
        expo[-1] = a["stop"]
    return torch.pow(torch.tensor(a["base"], dtype=torch.float64), expo).to(dt)


register(OpDef("_npi_logspace", _logspace, inputs=(), creation=True,
               params=[Param("start", "float", doc="base**start is the first value."),
                       Param("stop", "float", doc="base**stop is the last value."),
                       Param("num", "int", doc="Number of samples to generate."),
                       Param("endpoint", "bool", True, doc="Whether stop is the last sample."),
                       Param("base", "float", 10.0, doc="The base of the log space."),
                       _ctx_param(), _dtype_param(choices=_NO_BOOL)],
               infer_out=lambda a, s: [(max(a["num"], 0),)],
               doc="Samples evenly spaced on a log scale (``mx.np.logspace``).\n\n"
                   "Example: ``mx.nd._internal._npi_logspace(start=0, stop=2, num=3)``"))

# ---------------------------------------------------------------------------------------
# identity matrices, indices, windows


def _eye_dims(a: dict) -> tuple[int, int]:
    n = a["N"]
    m = n if a["M"] is None else a["M"]
    if n < 0 or m < 0:
        raise op_error("_npi_eye", f"N and M must be non-negative (N={n}, M={m})")
    return n, m


def _eye(a: dict) -> torch.Tensor:
    n, m = _eye_dims(a)
    k = a["k"]
    out = torch.zeros((n, m), dtype=to_torch(a["dtype"]), device=device_of(a))
    if n and m:
        rows = torch.arange(n, device=out.device)
        cols = rows + k
        keep = (cols >= 0) & (cols < m)
        out[rows[keep], cols[keep]] = 1
    return out


register(OpDef("_npi_eye", _eye, inputs=(), creation=True,
               params=[Param("N", "int", doc="Number of rows in the output."),
                       Param("M", "int_or_none", None, doc="Number of columns (default N)."),
                       Param("k", "int", 0, doc="Index of the diagonal (0: main)."),
                       _ctx_param(), _dtype_param(choices=_NO_BOOL)],
               infer_out=lambda a, s: [_eye_dims(a)],
               doc="A 2-D array with ones on the k-th diagonal (``mx.np.eye``).\n\n"
                   "Example: ``mx.nd._internal._npi_eye(N=3, k=1)``"))


def _identity(a: dict) -> torch.Tensor:
    shape = _check_shape("_npi_identity", a["shape"])
    if len(shape) != 2 or shape[0] != shape[1]:
        raise op_error("_npi_identity", f"shape must be square (n, n), got {shape}")
    return torch.eye(shape[0], dtype=to_torch(a["dtype"]), device=device_of(a))


register(OpDef("_npi_identity", _identity, inputs=(), creation=True,
               params=[Param("shape", "shape", (), doc="The shape (n, n) of the output"),
                       _ctx_param(), _dtype_param()], **_SHAPE_OUT,
               doc="The identity matrix (``mx.np.identity``).\n\n"
                   "Example: ``mx.nd._internal._npi_identity(shape=(3, 3))``"))


def _indices(a: dict) -> torch.Tensor:
    dims = _check_shape("_npi_indices", a["dimensions"])
    dt, dev = to_torch(a["dtype"]), device_of(a)
    if not dims:
        return torch.zeros((0,), dtype=dt, device=dev)
    grids = torch.meshgrid(*[torch.arange(d, device=dev) for d in dims], indexing="ij")
    return torch.stack(grids).to(dt)


register(OpDef("_npi_indices", _indices, inputs=(), creation=True,
               params=[Param("dimensions", "shape", doc="The shape of the grid."),
                       _dtype_param("int32", _NO_BOOL), _ctx_param()],
               infer_out=lambda a, s: [(len(a["dimensions"]), *a["dimensions"])
                                       if a["dimensions"] else (0,)],
               doc="An array representing the indices of a grid (``mx.np.indices``).\n\n"
                   "Example: ``mx.nd._internal._npi_indices(dimensions=(2, 3))``"))


def _window(name: str, coeffs: tuple[float, ...]):
    def compute(a: dict) -> torch.Tensor:
        m = a["M"] if a["M"] is not None else 0
        dt, dev = to_torch(a["dtype"]), device_of(a)
        if m <= 0:
            return torch.zeros((0,), dtype=dt, device=dev)
        if m == 1:
            return torch.ones((1,), dtype=dt, device=dev)
        # evaluated in float32 like MXNet's kernel: hanning(4)[2] is 0.74999994
        n = torch.arange(m, dtype=torch.float32, device=dev)
        x = n * torch.tensor(2 * math.pi, dtype=torch.float32) / (m - 1)
        out = torch.full((m,), coeffs[0], dtype=torch.float32, device=dev)
        for j, c in enumerate(coeffs[1:], start=1):
            out = out + ((-1) ** j) * c * torch.cos(j * x)
        return out.to(dt)

    register(OpDef(name, compute, inputs=(), creation=True,
                   params=[Param("M", "int_or_none", None, doc="Number of points in the "
                                 "output window."), _ctx_param(),
                           _dtype_param(choices=_NO_BOOL)],
                   infer_out=lambda a, s: [(max(a["M"] or 0, 0),)],
                   doc=f"The {name[5:]} window (``mx.np.{name[5:]}``).\n\n"
                       f"Example: ``mx.nd._internal.{name}(M=5)``"))


_window("_npi_hanning", (0.5, 0.5))
_window("_npi_hamming", (0.54, 0.46))
_window("_npi_blackman", (0.42, 0.5, 0.08))

# ---------------------------------------------------------------------------------------
# triangles and diagonals


def _tril(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dtype == torch.bool:
        raise op_error("_npi_tril", "boolean input is not supported")
    if x.dim() == 0:
        raise op_error("_npi_tril", "the input must have at least 1 dimension")
    if x.dim() == 1:
        x = x.unsqueeze(0).expand(x.shape[0], x.shape[0])
    return torch.tril(x, a["k"])


register(OpDef("_npi_tril", _tril, params=[Param("k", "int", 0, doc="Diagonal above which to "
                                                 "zero elements.")],
               doc="Lower triangle of an array (``mx.np.tril``).\n\n"
                   "Example: ``mx.nd._internal._npi_tril(x, k=0)``"))


def _diag(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dim() not in (1, 2):
        raise op_error("_np_diag", f"Input must be 1- or 2-d (got {x.dim()}-d)")
    return torch.diag(x, a["k"]).clone()


def _diagflat(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dim() == 0:
        raise op_error("_np_diagflat", "the input must have at least 1 dimension")
    return torch.diag(x.reshape(-1), a["k"])


for _name, _fn, _doc in (("_np_diag", _diag, "Extract a diagonal or construct a diagonal array"),
                         ("_np_diagflat", _diagflat, "A 2-D array with the flattened input as "
                                                     "its k-th diagonal")):
    register(OpDef(_name, _fn, params=[Param("k", "int", 0, doc="Diagonal offset.")],
                   doc=f"{_doc} (``mx.np.{_name[4:]}``).\n\n"
                       f"Example: ``mx.nd._internal.{_name}(x, k=0)``"))


def _diagonal(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dim() < 2:
        raise op_error("_np_diagonal", "diagonal requires an array of at least two dimensions")
    a1 = norm_axis("_np_diagonal", a["axis1"], x.dim(), "axis1")
    a2 = norm_axis("_np_diagonal", a["axis2"], x.dim(), "axis2")
    if a1 == a2:
        raise op_error("_np_diagonal", "axis1 and axis2 cannot refer to the same axis")
    return torch.diagonal(x, a["offset"], a1, a2).clone()


register(OpDef("_np_diagonal", _diagonal,
               params=[Param("offset", "int", 0, doc="Diagonal offset."),
                       Param("axis1", "int", 0, doc="The first axis of the 2-D sub-arrays."),
                       Param("axis2", "int", 1, doc="The second axis of the 2-D sub-arrays.")],
               doc="The specified diagonals (``mx.np.diagonal``).\n\n"
                   "Example: ``mx.nd._internal._np_diagonal(x, offset=0)``"))


def _diag_indices_from(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dim() < 2 or len(set(x.shape)) != 1:
        raise op_error("_npi_diag_indices_from", "All dimensions of input must be of equal "
                       f"length (shape {tuple(x.shape)})")
    n = x.shape[0]
    return torch.arange(n, dtype=torch.int64, device=x.device).expand(x.dim(), n).clone()


register(OpDef("_npi_diag_indices_from", _diag_indices_from,
               doc="The indices of the main diagonal of an (n, n, ...) array "
                   "(``mx.np.diag_indices_from``).\n\n"
                   "Example: ``mx.nd._internal._npi_diag_indices_from(x)``"))
