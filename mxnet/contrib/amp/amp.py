"""Automatic mixed precision: casting operators to float16/bfloat16 and dynamic loss scaling."""

from __future__ import annotations

import contextlib
import logging

import numpy as np

from ..._dtype import bfloat16
from . import _wrap, lists
from ._convert_api import (
    convert_bucketing_module,  # noqa: F401  (in MXNet's amp.amp too)
    convert_hybrid_block,
    convert_model,
    convert_symbol,
)
from .loss_scaler import LossScaler

__all__ = [
    "init",
    "init_trainer",
    "scale_loss",
    "unscale",
    "convert_model",
    "convert_hybrid_block",
    "list_lp16_ops",
    "list_fp32_ops",
    "list_lp16_fp32_ops",
    "list_conditional_fp32_ops",
    "list_widest_type_cast",
    "list_loss_output_functions",
    "list_lp16_use_fp32_params",
    "convert_symbol",
]

_amp_initialized = False
_amp_loss_scale_initialized = False
_loss_scaler: LossScaler | None = None


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise AssertionError(msg)


def _is_fp16(target_dtype) -> bool:
    return target_dtype in ("float16", np.float16)


def _module(target_dtype):
    if _is_fp16(target_dtype):
        return lists.symbol_fp16
    _check(target_dtype == bfloat16, "not supported type")
    return lists.symbol_bf16


def list_lp16_ops(target_dtype) -> list[str]:
    """The default operators AMP runs in ``target_dtype`` (float16 or the bfloat16 dtype).

    Examples
    --------
    >>> from mxnet.contrib import amp
    >>> amp.list_lp16_ops('float16')
    ['Convolution', 'Deconvolution', 'FullyConnected', 'RNN']
    """
    m = _module(target_dtype)
    return m.FP16_FUNCS if m is lists.symbol_fp16 else m.BF16_FUNCS


def list_fp32_ops(target_dtype) -> list[str]:
    """The default operators AMP runs in float32.

    Examples
    --------
    >>> 'softmax' in amp.list_fp32_ops('float16')
    True
    """
    return _module(target_dtype).FP32_FUNCS


def list_lp16_fp32_ops(target_dtype) -> list[str]:
    """The default operators that run in either precision (their inputs are not cast).

    Examples
    --------
    >>> 'relu' in amp.list_lp16_fp32_ops('float16')
    True
    """
    m = _module(target_dtype)
    return m.FP16_FP32_FUNCS if m is lists.symbol_fp16 else m.BF16_FP32_FUNCS


def list_conditional_fp32_ops(target_dtype) -> list[tuple]:
    """``(operator, parameter, values)``: run in float32 when the parameter is in values.

    Examples
    --------
    >>> amp.list_conditional_fp32_ops('float16')[0]
    ('Activation', 'act_type', ['softrelu'])
    """
    return _module(target_dtype).CONDITIONAL_FP32_FUNCS


def list_widest_type_cast(target_dtype) -> list[str]:
    """The operators run in the widest float type among their inputs.

    Examples
    --------
    >>> 'elemwise_add' in amp.list_widest_type_cast('float16')
    True
    """
    return _module(target_dtype).WIDEST_TYPE_CASTS


def list_loss_output_functions(target_dtype) -> list[str]:
    """Loss outputs whose ``grad_scale`` follows the dynamic loss scale.

    Examples
    --------
    >>> amp.list_loss_output_functions('float16')[0]
    'SoftmaxOutput'
    """
    return _module(target_dtype).LOSS_OUTPUT_FUNCTIONS


def list_lp16_use_fp32_params(target_dtype):
    """Inputs kept in float32 per operator in bfloat16 mode (``None`` for float16).

    Examples
    --------
    >>> amp.list_lp16_use_fp32_params('float16') is None
    True
    """
    if _is_fp16(target_dtype):
        return None
    _check(target_dtype == bfloat16, "not supported type")
    return lists.symbol_bf16.BF16_USE_FP32_PARAMS


@contextlib.contextmanager
def scale_loss(loss, optimizer_or_trainer):
    """Scale ``loss`` (an NDArray or a list of them) by the current loss scale.

    Use it inside ``autograd.record()`` around ``backward``; the trainer's gradient rescaling
    is adjusted so that ``trainer.step`` sees unscaled gradients.

    Examples
    --------
    >>> with autograd.record():                                    # doctest: +SKIP
    ...     loss = loss_fn(net(x), y)
    ...     with amp.scale_loss(loss, trainer) as scaled_loss:
    ...         autograd.backward(scaled_loss)
    >>> trainer.step(batch_size)                                   # doctest: +SKIP
    """
    scaler = getattr(optimizer_or_trainer, "_amp_loss_scaler", None)
    _check(
        scaler is not None,
        "Loss scaler is not initialized, did you forget to call amp.init_trainer()?",
    )
    optimizer_or_trainer._scale = optimizer_or_trainer._amp_original_scale / scaler.loss_scale
    if isinstance(loss, (list, tuple)):
        yield [x * scaler.loss_scale for x in loss]
    else:
        yield scaler.loss_scale * loss


def init(
    target_dtype="float16", target_precision_ops=None, conditional_fp32_ops=None, fp32_ops=None
) -> None:
    """Turn AMP on: listed operators cast their inputs (call it before building the model).

    Parameters
    ----------
    target_dtype : {'float16', 'bfloat16'}
        The low-precision type.
    target_precision_ops : list of str, optional
        Operators run in ``target_dtype`` (default: :func:`list_lp16_ops`).
    conditional_fp32_ops : list of (str, str, list of str), optional
        ``(operator, parameter, values)`` run in float32 when the parameter is in values.
    fp32_ops : list of str, optional
        Operators run in float32 (default: :func:`list_fp32_ops`).

    Examples
    --------
    >>> from mxnet.contrib import amp
    >>> amp.init()                                                  # doctest: +SKIP
    """
    global _amp_initialized, _loss_scaler
    if _amp_initialized:
        return
    _check(
        target_dtype in ["float16", np.float16, "bfloat16", bfloat16],
        "AMP currently supports only float16 or bfloat16 as a target_dtype",
    )
    target = (
        bfloat16
        if (isinstance(target_dtype, str) and target_dtype == "bfloat16")
        else np.dtype(target_dtype)
    )
    name = "bfloat16" if target == bfloat16 else "float16"
    params = list_lp16_use_fp32_params(target)
    rules = _wrap.Rules(
        name,
        target_precision_ops if target_precision_ops is not None else list_lp16_ops(target),
        fp32_ops if fp32_ops is not None else list_fp32_ops(target),
        conditional_fp32_ops
        if conditional_fp32_ops is not None
        else list_conditional_fp32_ops(target),
        list_widest_type_cast(target),
        list_loss_output_functions(target),
        params,
        strict=(
            target_precision_ops is not None,
            fp32_ops is not None,
            conditional_fp32_ops is not None,
        ),
    )
    _amp_initialized = True
    logging.info("Using AMP")
    _loss_scaler = LossScaler()
    rules.scaler = _loss_scaler
    _wrap.install(rules)


def init_trainer(optimizer_or_trainer) -> None:
    """Attach a dynamic loss scaler to a Gluon ``Trainer`` (after :func:`init`).

    The trainer then skips steps whose gradients overflow.

    Examples
    --------
    >>> amp.init()                                                  # doctest: +SKIP
    >>> trainer = gluon.Trainer(net.collect_params(), 'sgd')        # doctest: +SKIP
    >>> amp.init_trainer(trainer)                                   # doctest: +SKIP
    """
    global _amp_loss_scale_initialized
    from ...gluon.trainer import Trainer
    from ...optimizer import Optimizer

    _check(_amp_initialized, "AMP not initialized, did you forget to call amp.init()?")
    if not _amp_loss_scale_initialized:
        _amp_loss_scale_initialized = True
        scaler = _loss_scaler
    else:
        scaler = LossScaler()
    if isinstance(optimizer_or_trainer, Trainer):
        optimizer_or_trainer._amp_loss_scaler = scaler
        optimizer_or_trainer._amp_original_scale = optimizer_or_trainer._scale
    elif isinstance(optimizer_or_trainer, Optimizer):
        raise TypeError("AMP is currently only compatible with Gluon Trainer")
    else:
        raise TypeError(
            "optimizer_or_trainer should be a Gluon Trainer or an optimizer, "
            f"instead is {type(optimizer_or_trainer)}"
        )


def unscale(optimizer_or_trainer) -> None:
    """Divide the gradients by the loss scale now (e.g. before gradient clipping).

    The trainer's rescaling factor becomes 1 until the next :func:`scale_loss`.

    Examples
    --------
    >>> amp.unscale(trainer)                                        # doctest: +SKIP
    >>> gluon.utils.clip_global_norm(grads, 1.0)                    # doctest: +SKIP
    """
    from ...gluon.trainer import Trainer
    from ...optimizer import Optimizer

    if isinstance(optimizer_or_trainer, Trainer):
        scale = optimizer_or_trainer._scale
        for p in optimizer_or_trainer._params:
            if p._grad is not None:
                for g in p._grad:
                    g[:] *= scale
        optimizer_or_trainer._scale = 1.0
    elif isinstance(optimizer_or_trainer, Optimizer):
        raise TypeError("AMP is currently only compatible with Gluon Trainer")
    else:
        raise TypeError(
            "optimizer_or_trainer should be a Gluon Trainer or an optimizer, "
            f"instead is {type(optimizer_or_trainer)}"
        )


def _reset() -> None:
    """Turn AMP off again (for tests; MXNet itself has no way back)."""
    global _amp_initialized, _amp_loss_scale_initialized, _loss_scaler
    _wrap.uninstall()
    _amp_initialized = False
    _amp_loss_scale_initialized = False
    _loss_scaler = None
