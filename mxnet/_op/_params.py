"""Typed operator parameters: parse MXNet's string attributes and Python values.

MXNet passes every operator parameter to the backend as ``str(value)``; symbol JSON stores
those strings. A :class:`Param` turns either form (``"(3, 3)"`` or ``(3, 3)``) into the
Python value the kernel uses, and :func:`format_attr` turns a user value back into the
string MXNet would store.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from typing import Any

from ..base import MXNetError

REQUIRED = object()

# kind -> (type description used in docs and errors)
_TYPE_DOC = {
    "int": "int", "float": "float", "bool": "boolean", "shape": "Shape(tuple)",
    "str": "string", "enum": "{%s}", "dtype": "dtype", "any": "any",
    "int_or_none": "int or None", "float_or_none": "float or None",
    "shape_or_none": "Shape or None", "ctx": "Context", "int_seq": "tuple of <int>",
    "float_seq": "tuple of <float>", "bool_or_none": "boolean or None",
}


def _literal(text: str) -> Any:
    text = text.strip()
    if text in ("None", ""):
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        # MXNet accepts "[2,3]" and "(2,3,)" as well as bare words such as "inf"
        low = text.lower()
        if low in ("inf", "+inf", "infinity"):
            return math.inf
        if low in ("-inf", "-infinity"):
            return -math.inf
        if low == "nan":
            return math.nan
        if low == "true":
            return True
        if low == "false":
            return False
        raise


def _to_bool(v: Any) -> bool:
    if isinstance(v, str):
        s = v.strip().lower()
        if s in ("true", "1"):
            return True
        if s in ("false", "0"):
            return False
        raise ValueError(v)
    return bool(v)


def _to_int(v: Any) -> int:
    if isinstance(v, str):
        v = _literal(v)
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        if not v.is_integer():
            raise ValueError(v)
        return int(v)
    return int(v)


def _to_float(v: Any) -> float:
    if isinstance(v, str):
        v = _literal(v)
    return float(v)


def _to_shape(v: Any, allow_none_items: bool = False) -> tuple:
    if isinstance(v, str):
        v = _literal(v)
    if v is None:
        return ()
    if hasattr(v, "tolist") and getattr(v, "ndim", 0) > 0:  # a NumPy array of dims
        v = v.tolist()
    if hasattr(v, "__index__") and not isinstance(v, Sequence):
        return (int(v),)
    if isinstance(v, (int,)):
        return (v,)
    out = []
    for item in v:
        if item is None and allow_none_items:
            out.append(None)
        else:
            out.append(_to_int(item))
    return tuple(out)


class Param:
    """One operator parameter: name, kind, default, allowed values and doc line."""

    __slots__ = ("name", "kind", "default", "choices", "doc")

    def __init__(self, name: str, kind: str, default: Any = REQUIRED,
                 choices: Sequence[str] | None = None, doc: str = ""):
        if kind not in _TYPE_DOC:
            raise ValueError(f"unknown param kind {kind}")
        self.name = name
        self.kind = kind
        self.default = default
        self.choices = tuple(choices) if choices else None
        self.doc = doc

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    def type_doc(self) -> str:
        if self.kind == "enum":
            return "{" + ", ".join(repr(c) for c in self.choices) + "}"
        return _TYPE_DOC[self.kind]

    def describe(self) -> str:
        d = "required" if self.required else f"optional, default={format_attr(self.default)}"
        return f"{self.name} : {self.type_doc()}, {d}"

    def parse(self, value: Any, op_name: str = "") -> Any:
        """Convert a user value or attribute string to the kernel's Python value."""
        k = self.kind
        try:
            if k == "any":
                return value
            if value is None or (isinstance(value, str) and value.strip() == "None"):
                if k in ("int_or_none", "float_or_none", "shape_or_none", "dtype", "str",
                         "ctx", "bool_or_none", "enum") or self.default is None:
                    return None
            if k == "int" or k == "int_or_none":
                return _to_int(value)
            if k == "float" or k == "float_or_none":
                return _to_float(value)
            if k == "bool" or k == "bool_or_none":
                return _to_bool(value)
            if k in ("shape", "shape_or_none"):
                return _to_shape(value, allow_none_items=True)
            if k == "int_seq":
                return _to_shape(value)
            if k == "float_seq":
                if isinstance(value, str):
                    value = _literal(value)
                if isinstance(value, (int, float)):
                    return (float(value),)
                return tuple(float(x) for x in value)
            if k == "enum":
                if "dtype" in self.name and not isinstance(value, str):
                    from .._dtype import dtype_name  # np.float64 / np.dtype -> 'float64'

                    value = dtype_name(value)
                s = str(value)
                if s not in self.choices:
                    raise MXNetError(
                        f"Invalid Input: '{s}', valid values are: "
                        "{" + ", ".join(repr(c) for c in sorted(self.choices)) + "}"
                        f" (operator {op_name}, argument '{self.name}')")
                return s
            if k == "dtype":
                from .._dtype import dtype_name

                return dtype_name(value)
            if k == "ctx":
                from ..context import Context

                if isinstance(value, Context):
                    return value
                s = str(value)
                dev, _, rest = s.partition("(")
                if dev not in Context.devstr2type:  # MXNet 1.9.1's Context::FromString
                    raise MXNetError(f"Invalid context string {s}")
                return Context(dev, int(rest.rstrip(")") or 0))
            if k == "str":
                return str(value)
        except MXNetError:
            raise
        except (ValueError, TypeError, SyntaxError):
            pass
        raise MXNetError(f"Invalid Parameter format for {self.name} expect {self.type_doc()} "
                         f"but value='{value}', in operator {op_name}")


def _plain(v: Any) -> Any:
    """A NumPy scalar as the Python number whose repr matches NumPy 1.x's (float32 0.1 ->
    0.1, not 0.10000000149011612)."""
    import numpy as np

    if isinstance(v, np.floating):
        return float(str(v))
    if isinstance(v, np.generic):
        return v.item()
    return v


def format_attr(value: Any) -> str:
    """The attribute string MXNet stores for a Python value (``str(value)``, as 1.9.1 does)."""
    if isinstance(value, str):
        return value
    if value is REQUIRED:
        return "required"
    try:
        import numpy as np

        if isinstance(value, type) and issubclass(value, np.generic):
            return np.dtype(value).name
        if isinstance(value, np.dtype):  # MXNet's bfloat16 is a structured dtype
            return "bfloat16" if value.names == ("bfloat16",) else value.name
        if isinstance(value, (tuple, list)):
            # numpy 2 prints scalars inside containers as "np.int64(3)": store plain numbers
            value = type(value)(_plain(v) for v in value)
    except TypeError:
        pass
    return str(value)
