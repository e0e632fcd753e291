"""Dtype tables: MXNet (mshadow) type codes, NumPy and torch dtypes."""

from __future__ import annotations

import numpy as np
import torch

from .base import MXNetError

# bfloat16 has no NumPy type; MXNet 1.9.1 represents it as a one-field structured dtype.
bfloat16 = np.dtype([("bfloat16", np.uint16)])

# mshadow type codes (FORMATS.md section 1)
CODE_TO_NAME = {
    0: "float32", 1: "float64", 2: "float16", 3: "uint8", 4: "int32", 5: "int8", 6: "int64",
    7: "bool", 8: "int16", 9: "uint16", 10: "uint32", 11: "uint64", 12: "bfloat16",
}
NAME_TO_CODE = {v: k for k, v in CODE_TO_NAME.items()}

NAME_TO_TORCH = {
    "float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
    "uint8": torch.uint8, "int32": torch.int32, "int8": torch.int8, "int64": torch.int64,
    "bool": torch.bool, "int16": torch.int16, "uint16": torch.uint16, "uint32": torch.uint32,
    "uint64": torch.uint64, "bfloat16": torch.bfloat16,
}
TORCH_TO_NAME = {v: k for k, v in NAME_TO_TORCH.items()}
TORCH_TO_NP = {t: (np.dtype(n) if n != "bfloat16" else bfloat16) for n, t in NAME_TO_TORCH.items()}
TORCH_TO_NPTYPE = {t: (d.type if d is not bfloat16 else bfloat16) for t, d in TORCH_TO_NP.items()}

# NumPy's meaning (MXNet passes dtype strings through ``np.dtype``): 'float' is float64 and
# 'int' is int64 on Linux, in every API (nd.array, astype, cast, sym.var, Parameter...)
_ALIASES = {"float": "float64", "double": "float64", "half": "float16", "int": "int64",
            "long": "int64", "bool_": "bool"}


class _DTypeError(MXNetError, TypeError):
    """An unknown dtype spelling (a TypeError in MXNet, which passes it to NumPy)."""


def dtype_name(dtype) -> str:
    """Normalise any dtype spelling (str, NumPy type or dtype, torch dtype) to its name."""
    if dtype is None:
        return "float32"
    if isinstance(dtype, torch.dtype):
        try:
            return TORCH_TO_NAME[dtype]
        except KeyError:
            raise MXNetError(f"Unsupported dtype {dtype}") from None
    if isinstance(dtype, str):
        name = _ALIASES.get(dtype, dtype)
        if name in NAME_TO_TORCH:
            return name
    if dtype is bfloat16 or (isinstance(dtype, np.dtype) and dtype == bfloat16):
        return "bfloat16"
    if not isinstance(dtype, (np.dtype, type, str)) and hasattr(dtype, "dtype"):
        # an array given as the dtype (``x.astype(label)``, as Sockeye does): MXNet's
        # NumPy 1.x accepts any object with a ``.dtype``; NumPy 2 refuses a type there
        return dtype_name(dtype.dtype)
    try:
        name = np.dtype(dtype).name
    except TypeError:  # MXNet raises NumPy's TypeError here: be both
        raise _DTypeError(f"Unsupported dtype {dtype!r}: data type {dtype!r} not "
                          "understood") from None
    if name not in NAME_TO_TORCH:
        raise MXNetError(f"Unsupported dtype {dtype!r}: MXNet supports "
                         f"{sorted(NAME_TO_TORCH)}")
    return name


def to_torch(dtype) -> torch.dtype:
    """Torch dtype of any dtype spelling (default float32 for None)."""
    if isinstance(dtype, torch.dtype):
        return dtype
    return NAME_TO_TORCH[dtype_name(dtype)]


def to_numpy_type(tdtype: torch.dtype):
    """The NumPy scalar type MXNet reports as ``NDArray.dtype`` (e.g. ``numpy.float32``)."""
    return TORCH_TO_NPTYPE[tdtype]
