"""The operator registry. Importing this package registers every operator."""

from . import _creation, _elemwise, _random, _reduce, _softmax, _conv, _loss, _nn, _norm, _spatial, _shape, _slice, _index, _linalg  # noqa: F401  (registration side effects)
from . import _optim  # noqa: F401  (optimizer update operators)
from . import _custom  # noqa: F401  (the Custom operator)
from ._apply import apply
from ._params import Param
from ._registry import OpDef, all_names, all_ops, get_op, has_op, register

__all__ = ["OpDef", "Param", "apply", "register", "get_op", "has_op", "all_ops", "all_names"]
