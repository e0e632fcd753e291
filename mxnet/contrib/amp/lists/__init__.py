"""Lists of operators for automatic mixed precision, one module per target dtype."""

from . import symbol_bf16, symbol_fp16

__all__ = ["symbol_fp16", "symbol_bf16"]
