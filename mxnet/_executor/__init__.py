"""Private pieces of the executor: graph compilation into a flat callable."""

from ._program import Program, compile_program

__all__ = ["Program", "compile_program"]
