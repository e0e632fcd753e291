"""Checkpoint helpers of the Module era: ``prefix-symbol.json`` + ``prefix-%04d.params``."""

from __future__ import annotations

import logging
from collections import namedtuple

from ._model_kv import (  # noqa: F401  (MXNet 1.x private helpers, imported by user code)
    _create_kvstore,
    _initialize_kvstore,
    _multiple_callbacks,
    _update_params,
    _update_params_on_kvstore,
)
from .base import MXNetError

__all__ = ["save_checkpoint", "load_checkpoint", "load_params", "BatchEndParam",  # noqa: F822
           "FeedForward"]

BatchEndParam = namedtuple("BatchEndParams", ["epoch", "nbatch", "eval_metric", "locals"])


def save_checkpoint(prefix: str, epoch: int, symbol, arg_params: dict, aux_params: dict,
                    remove_amp_cast: bool = True) -> None:
    """Write ``prefix-symbol.json`` and ``prefix-%04d.params`` (keys ``arg:``/``aux:``).

    Examples
    --------
    >>> mx.model.save_checkpoint('/tmp/net', 1, sym, arg_params, aux_params)  # doctest: +SKIP
    """
    from . import ndarray as nd

    if symbol is not None:
        symbol.save(f"{prefix}-symbol.json", remove_amp_cast=remove_amp_cast)
    save_dict = {f"arg:{k}": v.as_in_context(_cpu()) for k, v in arg_params.items()}
    save_dict.update({f"aux:{k}": v.as_in_context(_cpu()) for k, v in aux_params.items()})
    param_name = "%s-%04d.params" % (prefix, epoch)
    nd.save(param_name, save_dict)
    logging.info('Saved checkpoint to "%s"', param_name)


def _cpu():
    from .context import cpu

    return cpu()


def load_params(prefix: str, epoch: int):
    """Load ``prefix-%04d.params`` into ``(arg_params, aux_params)``."""
    from . import ndarray as nd

    fname = "%s-%04d.params" % (prefix, epoch)
    save_dict = nd.load(fname)
    if not isinstance(save_dict, dict):
        raise MXNetError(f"{fname}: expected a dict of named arrays (arg:/aux: keys)")
    arg_params, aux_params = {}, {}
    for k, v in save_dict.items():
        tp, _, name = k.partition(":")
        if tp == "arg":
            arg_params[name] = v
        elif tp == "aux":
            aux_params[name] = v
    return arg_params, aux_params


def load_checkpoint(prefix: str, epoch: int):
    """Load ``(symbol, arg_params, aux_params)`` saved by :func:`save_checkpoint`."""
    from . import symbol as sym

    symbol = sym.load(f"{prefix}-symbol.json")
    arg_params, aux_params = load_params(prefix, epoch)
    return symbol, arg_params, aux_params


def __getattr__(name):
    """``FeedForward`` loads on first use (it stands on the Module API)."""
    if name == "FeedForward":
        from ._feedforward import FeedForward

        return FeedForward
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
