"""``mx.contrib.quantization``: MXNet 1.9.1's INT8 post-training quantization.

Turns an FP32 model (a Symbol with its ``arg_params``/``aux_params``) into a quantized one
the way MXNet 1.9.1's CPU (oneDNN) build does: the same quantized graph (node names such as
``data_quantize``, ``quantized_conv0``, ``requantize_conv0``, ``fc0_dequantize``; the same
JSON), the same int8 parameters (``conv0_weight_quantize`` with ``_min``/``_max``), the same
calibrated ranges (``min_calib_range``/``max_calib_range``) and the same numbers when the
quantized graph runs (the ``_contrib_quantized_*`` operators, see ``mxnet/_op/_quantized.py``).

Functions
---------
quantize_model(sym, arg_params, aux_params, ...)
    Quantize and, with ``calib_mode='naive'`` or ``'entropy'``, calibrate on a DataIter.
quantize_graph(sym, arg_params, aux_params, ...)
    Quantize only; returns a collector to fill with a forward pass (``set_monitor_callback``),
    then :func:`calib_graph` writes the ranges.
calib_graph(qsym, arg_params, aux_params, collector, ...)
    Write the ranges a filled collector holds into the quantized graph.
combine_histogram(old_hist, arr, new_min, new_max, new_th)
    Merge a histogram of ``arr`` into an entropy-calibration histogram.

Notes
-----
- Quantized operators: Convolution (2-D), FullyConnected, Pooling (max/avg), Activation
  (relu), Flatten, Concat, elemwise_add, elemwise_mul, BatchNorm and Embedding, with
  ``quantize_mode`` 'smart' (operators that only support quantization are quantized when they
  sit between two that must be) or 'full'. Where MXNet 1.9.1's oneDNN kernels refuse a graph
  (int8 data into a quantized convolution, an uncalibrated quantized BatchNorm), running it
  fails here too, on read.
- As in MXNet 1.9.1's CPU build, the calibration forward runs the FP32 model with oneDNN
  fusion, which hides the outputs of Convolution/FullyConnected layers (and what fuses into
  them) from the monitor: their requantize nodes stay uncalibrated (ranges computed at run
  time). ``MXNET_SUBGRAPH_BACKEND=NONE`` calibrates them, in both.
- ``quantize_granularity='channel-wise'``, ``quantize_model_mkldnn`` and the Gluon
  ``quantize_net``/``quantize_net_v2`` need MXNet's oneDNN subgraph fusion
  (``_sg_mkldnn_conv`` operators), which mxnet-ng does not have: they raise
  :class:`~mxnet.base.MXNetError`.

Examples
--------
>>> from mxnet.contrib import quantization
>>> qsym, qarg, aux = quantization.quantize_model(
...     sym, arg_params, aux_params, calib_mode='naive', calib_data=data_iter,
...     num_calib_examples=64, quantized_dtype='auto')
"""

from __future__ import annotations

import logging
import os

import numpy as np

from .. import ndarray
from ..base import MXNetError, py_str
from ..context import Context, cpu
from ..io import DataIter
from ..ndarray import load as nd_load
from ..symbol import Symbol
from ..symbol import load as sym_load
from . import _quantize_graph as _qg

__all__ = [
    "quantize_model",
    "quantize_model_mkldnn",
    "quantize_graph",
    "quantize_net",
    "quantize_net_v2",
    "calib_graph",
    "combine_histogram",
]


def _quantize_params(qsym: Symbol, params: dict, th_dict: dict) -> dict:
    """int8 params (``<name>_quantize`` with ``_min``/``_max``) for the quantized symbol's
    weight/bias arguments; other arguments are copied from ``params``."""
    out = {}
    for name in qsym.list_arguments():
        if name.endswith(("weight_quantize", "bias_quantize")):
            param = params[name[: -len("_quantize")]]
            val, vmin, vmax = ndarray.contrib.quantize(
                data=param,
                min_range=ndarray.min(param),
                max_range=ndarray.max(param),
                out_type="int8",
            )
            out[name] = val
            out[name + "_min"] = vmin
            out[name + "_max"] = vmax
        elif name in params:
            out[name] = params[name]
        elif name.endswith("_min"):
            layer = name[: -len("_min")]
            if layer in th_dict:
                out[name] = ndarray.array([th_dict[layer][0]])
        elif name.endswith("_max"):
            layer = name[: -len("_min")]  # MXNet 1.9.1 cuts 4 characters here too
            if layer in th_dict:
                out[name] = ndarray.array([th_dict[layer][1]])
    return out


def _quantize_symbol(sym, ctx, excluded_symbols=None, excluded_operators=None,
                     offline_params=None, quantized_dtype="int8", quantize_mode="smart",
                     quantize_granularity="tensor-wise"):  # fmt: skip
    """The quantized symbol and the names of the layer outputs to calibrate."""
    if excluded_symbols is not None and not isinstance(excluded_symbols, list):
        raise AssertionError("excluded_symbols must be a list")
    if excluded_operators is not None and not isinstance(excluded_operators, list):
        raise AssertionError("excluded_operators must be a list")
    if quantize_granularity == "channel-wise":
        raise MXNetError(
            "quantize_granularity='channel-wise' is not supported by mxnet-ng: MXNet 1.9.1 "
            "applies it to oneDNN-fused FullyConnected (_sg_mkldnn_fully_connected) nodes, "
            "which mxnet-ng does not have; use 'tensor-wise'"
        )
    return _qg.quantize_graph(
        sym,
        excluded_names=excluded_symbols or (),
        excluded_ops=excluded_operators or (),
        offline_params=offline_params or (),
        quantized_dtype=quantized_dtype,
        quantize_mode=quantize_mode,
    )


def combine_histogram(old_hist, arr, new_min, new_max, new_th):
    """Add the histogram of ``arr`` to ``old_hist`` = ``(hist, edges, min, max, th)``,
    widening the (symmetric) bins by whole steps when ``new_th`` exceeds the old range."""
    hist, edges, old_min, old_max, old_th = old_hist
    if new_th <= old_th:
        more, _ = np.histogram(arr, bins=len(hist), range=(-old_th, old_th))
        return (hist + more, edges, min(old_min, new_min), max(old_max, new_max), old_th)
    n_old = len(hist)
    step = 2 * old_th / n_old
    grow = int((new_th - old_th) // step + 1)
    n_new = n_old + 2 * grow
    th = grow * step + old_th
    merged, new_edges = np.histogram(arr, bins=n_new, range=(-th, th))
    merged[grow : n_new - grow] += hist
    return (merged, new_edges, min(old_min, new_min), max(old_max, new_max), th)


def _as_numpy(arr):
    return arr.asnumpy() if hasattr(arr, "asnumpy") else np.asarray(arr)


class _LayerCollector:
    """Monitor callback base: which layer outputs a calibration collector records."""

    def __init__(self, include_layer=None, logger=None):
        self.include_layer = include_layer
        self.logger = logger
        self._hidden: set = set()  # layers a oneDNN fusion would hide (see calib_graph)

    def _wanted(self, name) -> str | None:
        """``name`` as str when this collector records that layer, else None."""
        name = py_str(name)
        if self.include_layer is not None and name not in self.include_layer:
            return None
        return None if name in self._hidden else name


class _LayerHistogramCollector(_LayerCollector):
    """Histograms of the monitored layer outputs named in ``include_layer`` (entropy
    calibration)."""

    def __init__(self, num_bins=8001, include_layer=None, logger=None):
        super().__init__(include_layer, logger)
        self.hist_dict = {}
        self.num_bins = num_bins

    def collect(self, name, arr):
        """Monitor callback: add ``arr`` to the histogram of layer ``name``."""
        name = self._wanted(name)
        if name is None:
            return
        a = _as_numpy(arr)
        if self.logger:
            self.logger.debug(f"Collecting layer {name} histogram of shape {a.shape}")
        lo, hi = np.min(a), np.max(a)
        th = max(abs(lo), abs(hi))
        if name in self.hist_dict:
            self.hist_dict[name] = combine_histogram(self.hist_dict[name], a, lo, hi, th)
        else:
            hist, edges = np.histogram(a, bins=self.num_bins, range=(-th, th))
            self.hist_dict[name] = (hist, edges, lo, hi, th)


class _LayerOutputMinMaxCollector(_LayerCollector):
    """Running min and max of the monitored layer outputs named in ``include_layer``
    (naive calibration)."""

    def __init__(self, quantized_dtype, include_layer=None, logger=None):
        super().__init__(include_layer, logger)
        self.min_max_dict = {}
        self.quantized_dtype = quantized_dtype

    def collect(self, name, arr):
        """Monitor callback: widen the (min, max) of layer ``name`` by ``arr``."""
        name = self._wanted(name)
        if name is None:
            return
        lo = ndarray.min(arr).asscalar()
        hi = ndarray.max(arr).asscalar()
        if name in self.min_max_dict:
            old = self.min_max_dict[name]
            self.min_max_dict[name] = (min(old[0], lo), max(old[1], hi))
        else:
            self.min_max_dict[name] = (lo, hi)
        if self.logger:
            self.logger.debug(f"Collecting layer {name} min_range={lo:f}, max_range={hi:f}")


def _calibrate_quantized_sym(qsym: Symbol, th_dict: dict) -> Symbol:
    if not th_dict:
        return qsym

    def f32(v):  # entropy thresholds come as 1-element arrays
        return np.float32(np.asarray(v, dtype=np.float64).reshape(-1)[0])

    table = {k: (f32(v[0]), f32(v[1])) for k, v in th_dict.items()}
    return _qg.set_calib_table(qsym, table)


def _collect_layer_statistics(mod, data, collector, max_num_examples=None, logger=None):
    if not isinstance(data, DataIter):
        raise ValueError(f"Only supports data as a type of DataIter, while received type "
                         f"{type(data)}")  # fmt: skip
    mod._exec_group.execs[0].set_monitor_callback(collector.collect, monitor_all=True)
    num_batches = num_examples = 0
    for batch in data:
        mod.forward(data_batch=batch, is_train=False)
        num_batches += 1
        num_examples += data.batch_size
        if max_num_examples is not None and num_examples >= max_num_examples:
            break
    if logger is not None:
        logger.info(f"Collected statistics from {num_batches} batches with batch_size="
                    f"{data.batch_size}")  # fmt: skip
    return num_examples


def _smooth_distribution(p, eps=0.0001):
    """``p`` (a histogram) with its zero bins raised to ``eps``, the mass taken evenly off the
    non-zero bins; raises ValueError when every bin is zero."""
    zeros = (p == 0).astype(np.float32)
    nonzeros = (p != 0).astype(np.float32)
    n_zeros = zeros.sum()
    n_nonzeros = p.size - n_zeros
    if not n_nonzeros:
        raise ValueError("The discrete probability distribution is malformed. All entries are 0.")
    eps1 = eps * float(n_zeros) / float(n_nonzeros)
    if eps1 >= 1.0:
        raise AssertionError(f"n_zeros={n_zeros}, n_nonzeros={n_nonzeros}, eps1={eps1:f}")
    hist = p.astype(np.float32)
    hist += eps * zeros + (-eps1) * nonzeros
    if (hist <= 0).sum() != 0:
        raise AssertionError("smoothing left a non-positive bin")
    return hist


def _get_optimal_threshold(hist_data, quantized_dtype, num_quantized_bins=255):
    hist, edges, min_val, max_val, _ = hist_data
    if len(hist) % 2 != 1:
        raise AssertionError("the histogram must have an odd number of bins")
    if min_val >= 0 and quantized_dtype in ("auto", "uint8"):
        num_quantized_bins = num_quantized_bins * 2 + 1  # negative bins fold onto uint8
    th, div = ndarray.contrib.calibrate_entropy(
        hist=ndarray.array(hist, ctx=cpu()),
        hist_edges=ndarray.array(edges, ctx=cpu()),
        num_quantized_bins=num_quantized_bins,
    )
    return min_val, max_val, th.asnumpy(), div.asnumpy()


def _get_optimal_thresholds(hist_dict, quantized_dtype, num_quantized_bins=255, logger=None):
    """``{layer: (min, max)}`` thresholds minimizing the KL divergence of each histogram."""
    if logger is not None:
        logger.info(f"Calculating optimal thresholds for quantization using KL divergence "
                    f"with num_quantized_bins={num_quantized_bins}")  # fmt: skip
    th_dict = {}
    for name in list(hist_dict):
        lo, hi, th, div = _get_optimal_threshold(hist_dict[name], quantized_dtype,
                                                 num_quantized_bins)  # fmt: skip
        if lo >= 0 and quantized_dtype in ("auto", "uint8"):
            th_dict[name] = (0, th)
        else:
            th_dict[name] = (-th, th)
        del hist_dict[name]
        if logger:
            th1 = float(np.asarray(th).reshape(-1)[0])
            div1 = float(np.asarray(div).reshape(-1)[0])
            logger.debug(f"layer={name}, min_val={lo:f}, max_val={hi:f}, th={th1:f}, "
                         f"divergence={div1:f}")  # fmt: skip
    return th_dict


def _load_sym(sym, logger=None):
    if isinstance(sym, str):
        path = os.path.join(os.path.dirname(os.path.realpath(__file__)), sym)
        if logger:
            logger.info(f"Loading symbol from file {path}")
        return sym_load(path)
    if isinstance(sym, Symbol):
        return sym
    raise ValueError(f"_load_sym only accepts Symbol or path to the symbol file, while "
                     f"received type {type(sym)}")  # fmt: skip


def _load_params(params, logger=None):
    if isinstance(params, str):
        path = os.path.join(os.path.dirname(os.path.realpath(__file__)), params)
        if logger:
            logger.info(f"Loading params from file {path}")
        arg, aux = {}, {}
        for k, v in nd_load(path).items():
            kind, name = k.split(":", 1)
            if kind == "arg":
                arg[name] = v
            if kind == "aux":
                aux[name] = v
        return arg, aux
    if isinstance(params, (tuple, list)) and len(params) == 2:
        return params[0], params[1]
    raise ValueError("Unsupported params provided. Must be either a path to the param file or "
                     "a pair of dictionaries representing arg_params and aux_params")  # fmt: skip


def _check_args(excluded_sym_names, excluded_op_names, quantized_dtype, quantize_granularity):
    if excluded_sym_names is None:
        excluded_sym_names = []
    if not isinstance(excluded_sym_names, list):
        raise ValueError("excluded_sym_names must be a list of strings representing the names "
                         "of the symbols that will not be quantized, while received type "
                         f"{type(excluded_sym_names)}")  # fmt: skip
    if excluded_op_names is None:
        excluded_op_names = []
    if not isinstance(excluded_op_names, list):
        raise ValueError("excluded_op_names must be a list of strings representing the names "
                         "of the operators that will not be quantized, while received type "
                         f"{type(excluded_op_names)}")  # fmt: skip
    if quantized_dtype not in ("int8", "uint8", "auto"):
        raise ValueError(f"unknown quantized_dtype {quantized_dtype} received, expected "
                         "`int8`, `uint8` or `auto`")  # fmt: skip
    if quantize_granularity not in ("tensor-wise", "channel-wise"):
        raise ValueError(f"unkonwn quantize_granularity {quantize_granularity} received, "
                         "expected `tensor-wise` or `channel-wise`.")  # fmt: skip
    return excluded_sym_names, excluded_op_names


def quantize_model(sym, arg_params, aux_params, data_names=("data",),
                   label_names=("softmax_label",), ctx=cpu(), excluded_sym_names=None,
                   excluded_op_names=None, calib_mode="entropy", calib_data=None,
                   num_calib_examples=None, quantized_dtype="int8", quantize_mode="smart",
                   quantize_granularity="tensor-wise", logger=None):  # fmt: skip
    """Quantize an FP32 model to INT8, calibrating it on ``calib_data`` unless
    ``calib_mode='none'``.

    Parameters
    ----------
    sym : str or Symbol
        The FP32 network.
    arg_params, aux_params : dict of str to NDArray
        Its parameters.
    data_names, label_names : sequence of str
        Input names of the calibration Module.
    ctx : Context
        Context of the calibration forward pass (one context).
    excluded_sym_names, excluded_op_names : list of str, optional
        Node names / operator names to keep in FP32.
    calib_mode : {'none', 'naive', 'entropy'}
        No calibration (ranges found at run time), the layers' min/max, or KL-divergence
        thresholds.
    calib_data : DataIter
        Calibration data (needed unless ``calib_mode='none'``).
    num_calib_examples : int, optional
        Stop after this many examples.
    quantized_dtype : {'int8', 'uint8', 'auto'}
        Type of the quantized activations ('auto': uint8 where the calibrated range is
        non-negative).
    quantize_mode : {'smart', 'full'}
        Which quantizable operators to quantize.
    quantize_granularity : {'tensor-wise', 'channel-wise'}
        Only 'tensor-wise' is supported.
    logger : logging.Logger, optional
        Progress messages.

    Returns
    -------
    tuple
        ``(qsym, qarg_params, aux_params)``.
    """
    excluded_sym_names, excluded_op_names = _check_args(
        excluded_sym_names, excluded_op_names, quantized_dtype, quantize_granularity
    )
    if logger:
        os.environ["MXNET_QUANTIZATION_VERBOSE"] = "1"
        logger.info("Quantizing symbol")
    sym = _load_sym(sym, logger)
    qsym, calib_layer = _quantize_symbol(
        sym, ctx, excluded_symbols=excluded_sym_names, excluded_operators=excluded_op_names,
        offline_params=list(arg_params.keys()), quantized_dtype=quantized_dtype,
        quantize_mode=quantize_mode, quantize_granularity=quantize_granularity,
    )  # fmt: skip
    th_dict = {}
    if calib_mode is not None and calib_mode != "none":
        if not isinstance(ctx, Context):
            raise ValueError(f"currently only supports single ctx, while received {ctx}")
        if calib_data is None:
            raise ValueError(f"calib_data must be provided when calib_mode={calib_mode}")
        if not isinstance(calib_data, DataIter):
            raise ValueError(f"calib_data must be of DataIter type when calib_mode="
                             f"{calib_mode}, while received type {type(calib_data)}")  # fmt: skip
        from ..module import Module

        mod = Module(symbol=sym, data_names=data_names, label_names=label_names, context=ctx)
        if len(calib_data.provide_label) > 0:
            mod.bind(for_training=False, data_shapes=calib_data.provide_data,
                     label_shapes=calib_data.provide_label)  # fmt: skip
        else:
            mod.bind(for_training=False, data_shapes=calib_data.provide_data)
        mod.set_params(arg_params, aux_params)
        if calib_mode == "entropy":
            collector = _LayerHistogramCollector(include_layer=calib_layer, logger=logger)
        elif calib_mode == "naive":
            collector = _LayerOutputMinMaxCollector(quantized_dtype, calib_layer, logger)
        else:
            raise ValueError(f"unknown calibration mode {calib_mode} received, expected "
                             "`none`, `naive`, or `entropy`")  # fmt: skip
        collector._hidden = _qg.hidden_by_fusion(sym)
        num = _collect_layer_statistics(mod, calib_data, collector, num_calib_examples, logger)
        if calib_mode == "entropy":
            if logger:
                logger.info(f"Collected layer outputs from FP32 model using {num} examples")
                logger.info("Calculating optimal thresholds for quantization")
            th_dict = _get_optimal_thresholds(collector.hist_dict, quantized_dtype,
                                              logger=logger)  # fmt: skip
        else:
            if logger:
                logger.info("Collected layer output min/max values from FP32 model using "
                            f"{num} examples")  # fmt: skip
            th_dict = collector.min_max_dict
        qsym = _calibrate_quantized_sym(qsym, th_dict)
    if logger:
        logger.info("Quantizing parameters")
    return qsym, _quantize_params(qsym, arg_params, th_dict), aux_params


def quantize_graph(sym, arg_params, aux_params, ctx=cpu(), excluded_sym_names=None,
                   excluded_op_names=None, calib_mode="entropy", quantized_dtype="int8",
                   quantize_mode="full", quantize_granularity="tensor-wise",
                   LayerOutputCollector=None, logger=None):  # fmt: skip
    """Quantize ``sym`` without calibrating it.

    Returns ``(qsym, qarg_params, aux_params, collector)``: run the FP32 model with
    ``collector.collect`` as the executor's monitor callback (``monitor_all=True``), then
    pass the collector to :func:`calib_graph`. ``calib_mode='customize'`` uses the given
    ``LayerOutputCollector`` (an object with ``collect(name, arr)`` and ``min_max_dict``).
    """
    excluded_sym_names, excluded_op_names = _check_args(
        excluded_sym_names, excluded_op_names, quantized_dtype, quantize_granularity
    )
    if logger:
        os.environ["MXNET_QUANTIZATION_VERBOSE"] = "1"
        logger.info("Quantizing graph")
    qsym, calib_layer = _quantize_symbol(
        sym, ctx, excluded_symbols=excluded_sym_names, excluded_operators=excluded_op_names,
        offline_params=list(arg_params.keys()), quantized_dtype=quantized_dtype,
        quantize_mode=quantize_mode, quantize_granularity=quantize_granularity,
    )  # fmt: skip
    collector = None
    if calib_mode is not None and calib_mode != "none":
        if calib_mode == "entropy":
            collector = _LayerHistogramCollector(include_layer=calib_layer, logger=logger)
            if logger:
                logger.info("Create a layer output collector for entropy calibration.")
        elif calib_mode == "naive":
            collector = _LayerOutputMinMaxCollector(quantized_dtype, calib_layer, logger)
            if logger:
                logger.info("Create a layer output minmax collector for naive calibration")
        elif calib_mode == "customize" and LayerOutputCollector is not None:
            collector = LayerOutputCollector
            if logger:
                logger.info("Create a customize layer output minmax collector for calibration")
        else:
            raise ValueError(f"unknown calibration mode {calib_mode} received, expected "
                             "`none`, `naive`, `entropy` or `customize`")  # fmt: skip
        if hasattr(collector, "_hidden"):
            collector._hidden = _qg.hidden_by_fusion(sym)
        if logger:
            logger.info("Collector created, please use set_monitor_callback to collect "
                        "calibration information.")  # fmt: skip
    if logger:
        logger.info("Quantizing parameters")
    return qsym, _quantize_params(qsym, arg_params, {}), aux_params, collector


def calib_graph(qsym, arg_params, aux_params, collector, calib_mode="entropy",
                quantized_dtype="int8", logger=logging):  # fmt: skip
    """Write the ranges held by a filled ``collector`` into ``qsym``; returns
    ``(qsym, qarg_params, aux_params)``."""
    if calib_mode is None or calib_mode == "none":
        raise ValueError("please set calibration mode to naive or entropy.")
    if calib_mode == "entropy":
        if logger:
            logger.info("Calculating optimal thresholds for quantization")
        th_dict = _get_optimal_thresholds(collector.hist_dict, quantized_dtype, logger=logger)
    elif calib_mode in ("naive", "customize"):
        th_dict = collector.min_max_dict
    else:
        raise ValueError(f"unknown calibration mode {calib_mode} received, expected `none`, "
                         "`naive`, `entropy` or `customize`")  # fmt: skip
    qsym = _calibrate_quantized_sym(qsym, th_dict)
    if logger:
        logger.info("Quantizing parameters")
    return qsym, _quantize_params(qsym, arg_params, th_dict), aux_params


def _needs_onednn_fusion(name: str):
    def entry(*args, **kwargs):
        raise MXNetError(
            f"mxnet.contrib.quantization.{name}: MXNet 1.9.1 first fuses the model with its "
            "oneDNN (MKLDNN) subgraph backend (_sg_mkldnn_conv / _sg_mkldnn_fully_connected "
            "operators), which mxnet-ng does not have; use quantize_model (or quantize_graph "
            "+ calib_graph) on the exported symbol instead"
        )

    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = (
        f"MXNet 1.9.1's ``{name}`` (oneDNN-fused quantization); raises MXNetError: the "
        "oneDNN subgraph fusion it relies on is not available in mxnet-ng."
    )
    return entry


quantize_model_mkldnn = _needs_onednn_fusion("quantize_model_mkldnn")
quantize_net_v2 = _needs_onednn_fusion("quantize_net_v2")
quantize_net = _needs_onednn_fusion("quantize_net")
