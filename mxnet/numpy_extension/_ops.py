"""``mx.npx`` neural-network and utility operators on ``mx.np`` arrays.

Each function runs one registry operator through :func:`mxnet.numpy.multiarray.np_call`, so
it returns ``mx.np.ndarray`` on arrays and builds ``_Symbol`` graphs on symbols (what
``F.npx`` is inside a hybridized block). Operator names are MXNet 1.9.1's: most ``npx``
functions run the classic operators (``npx.softmax`` -> ``softmax``, ``npx.fully_connected``
-> ``FullyConnected``); ``relu``, ``sigmoid``, ``reshape`` and ``nonzero`` have ``_npx_*``
operators of their own.
"""

from __future__ import annotations

import inspect

from .._op import _npx  # noqa: F401  (registers the _npx_* operators)
from ..numpy.multiarray import np_call

__all__ = ["activation", "arange_like", "batch_dot", "batch_flatten", "batch_norm", "cast",
           "convolution", "deconvolution", "dropout", "embedding", "erf", "erfinv",
           "fully_connected", "gamma", "gammaln", "gather_nd", "layer_norm", "leaky_relu",
           "log_softmax", "nonzero", "one_hot", "pick", "pooling", "relu", "reshape",
           "reshape_like", "rnn", "roi_pooling", "sequence_mask", "shape_array", "sigmoid",
           "slice", "smooth_l1", "softmax", "topk", "multibox_prior", "multibox_target",
           "multibox_detection", "constraint_check", "gpu_memory_info"]


def _front(pyname: str, opname: str, inputs: tuple, params: tuple, doc: str):
    """Build ``pyname(*inputs, *params, out=None, name=None, **kwargs)`` running ``opname``
    (``None`` inputs are left out; ``None`` params take the operator's defaults)."""
    names = inputs + params

    def fn(*args, out=None, name=None, **kwargs):
        if len(args) > len(names):
            raise TypeError(f"{pyname}() takes at most {len(names)} positional arguments "
                            f"({len(args)} given)")
        vals = dict(zip(names, args))
        for k in list(kwargs):
            if k in names:
                if k in vals:
                    raise TypeError(f"{pyname}() got multiple values for argument '{k}'")
                vals[k] = kwargs.pop(k)
        arrays = [vals[k] for k in inputs if vals.get(k) is not None]
        attrs = {k: vals[k] for k in params if vals.get(k) is not None}
        attrs.update({k: v for k, v in kwargs.items() if v is not None})
        if any(hasattr(a, "_outputs") for a in arrays):  # symbols: MXNet's node name hint
            from ..symbol.numpy import np_symbol_call

            return np_symbol_call(opname, arrays, attrs, name=name, hint=pyname)
        return np_call(opname, arrays, attrs, out)

    sig = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
           for n in names]
    sig += [inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None),
            inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None),
            inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)]
    fn.__signature__ = inspect.Signature(sig)
    fn.__name__ = fn.__qualname__ = pyname
    fn.__module__ = "mxnet.numpy_extension"
    fn._opname = opname
    fn.__doc__ = (f"{doc}\n\nRuns the ``{opname}`` operator; returns ``mx.np.ndarray`` (or a "
                  f"``_Symbol`` on symbol inputs).\n")
    return fn


_CONV = ("kernel", "stride", "dilate", "pad", "num_filter", "num_group", "workspace",
         "no_bias", "cudnn_tune", "cudnn_off", "layout")
_SOFTMAX = ("axis", "temperature", "dtype", "use_length")

# python name -> (operator, inputs, params, doc)
_TABLE = {
    "relu": ("_npx_relu", ("data",), (), "Rectified linear unit, element-wise."),
    "sigmoid": ("_npx_sigmoid", ("data",), (), "Logistic sigmoid, element-wise."),
    "activation": ("Activation", ("data",), ("act_type",),
                   "Activation function (relu, sigmoid, tanh, softrelu, softsign)."),
    "softmax": ("softmax", ("data", "length"), _SOFTMAX, "Softmax along ``axis``."),
    "log_softmax": ("log_softmax", ("data",), _SOFTMAX, "Log of softmax along ``axis``."),
    "batch_norm": ("BatchNorm", ("data", "gamma", "beta", "moving_mean", "moving_var"),
                   ("eps", "momentum", "fix_gamma", "use_global_stats", "output_mean_var",
                    "axis", "cudnn_off", "min_calib_range", "max_calib_range"),
                   "Batch normalization (updates the moving statistics while training)."),
    "convolution": ("Convolution", ("data", "weight", "bias"), _CONV,
                    "N-d convolution (NCW/NCHW/NCDHW)."),
    "deconvolution": ("Deconvolution", ("data", "weight", "bias"),
                      _CONV[:4] + ("adj", "target_shape") + _CONV[4:],
                      "Transposed convolution."),
    "fully_connected": ("FullyConnected", ("data", "weight", "bias"),
                        ("num_hidden", "no_bias", "flatten"),
                        "Dense layer ``data @ weight.T + bias``."),
    "pooling": ("Pooling", ("data",),
                ("kernel", "pool_type", "global_pool", "cudnn_off", "pooling_convention",
                 "stride", "pad", "p_value", "count_include_pad", "layout"),
                "Max / average / sum / Lp pooling."),
    "dropout": ("Dropout", ("data",), ("p", "mode", "axes", "cudnn_off"),
                "Dropout (active while training)."),
    "embedding": ("Embedding", ("data", "weight"),
                  ("input_dim", "output_dim", "dtype", "sparse_grad"),
                  "Rows of ``weight`` selected by the indices in ``data``."),
    "layer_norm": ("LayerNorm", ("data", "gamma", "beta"), ("axis", "eps", "output_mean_var"),
                   "Layer normalization along ``axis``."),
    "leaky_relu": ("LeakyReLU", ("data", "gamma"),
                   ("act_type", "slope", "lower_bound", "upper_bound"),
                   "Leaky / parametric / exponential / randomized ReLU variants."),
    "one_hot": ("one_hot", ("indices",), ("depth", "on_value", "off_value", "dtype"),
                "One-hot encoding of integer indices."),
    "pick": ("pick", ("data", "index"), ("axis", "keepdims", "mode"),
             "Elements of ``data`` picked along ``axis`` by ``index``."),
    "topk": ("topk", ("data",), ("axis", "k", "ret_typ", "is_ascend", "dtype"),
             "Top-k values or indices along ``axis``."),
    "batch_dot": ("batch_dot", ("lhs", "rhs"), ("transpose_a", "transpose_b",
                                                "forward_stype"),
                  "Batched matrix product of 3-d arrays."),
    "batch_flatten": ("Flatten", ("data",), (), "Collapse all axes but the first."),
    "arange_like": ("_contrib_arange_like", ("data",),
                    ("start", "step", "repeat", "ctx", "axis"),
                    "``arange`` with the size (of one axis) of ``data``."),
    "sequence_mask": ("SequenceMask", ("data", "sequence_length"),
                      ("use_sequence_length", "value", "axis"),
                      "Set the steps beyond each sequence's length to ``value``."),
    "gather_nd": ("gather_nd", ("data", "indices"), (),
                  "Gather slices of ``data`` addressed by ``indices`` (first axis: coords)."),
    "erf": ("erf", ("data",), (), "Gauss error function, element-wise."),
    "erfinv": ("erfinv", ("data",), (), "Inverse error function, element-wise."),
    "gamma": ("gamma", ("data",), (), "Gamma function, element-wise."),
    "gammaln": ("gammaln", ("data",), (), "Log of the absolute gamma function."),
    "cast": ("Cast", ("data",), ("dtype",), "Cast to ``dtype``."),
    "reshape_like": ("reshape_like", ("lhs", "rhs"),
                     ("lhs_begin", "lhs_end", "rhs_begin", "rhs_end"),
                     "Reshape ``lhs`` (or a range of its axes) like ``rhs``."),
    "slice": ("slice", ("data",), ("begin", "end", "step"), "Slice with begin/end/step."),
    "shape_array": ("shape_array", ("data",), (), "The shape as an int64 array."),
    "smooth_l1": ("smooth_l1", ("data",), ("scalar",), "Smooth L1 function, element-wise."),
    "rnn": ("RNN", ("data", "parameters", "state", "state_cell", "sequence_length"),
            ("state_size", "num_layers", "bidirectional", "mode", "p", "state_outputs",
             "projection_size", "lstm_state_clip_min", "lstm_state_clip_max",
             "lstm_state_clip_nan", "use_sequence_length"),
            "Fused RNN / LSTM / GRU layers."),
    "roi_pooling": ("ROIPooling", ("data", "rois"), ("pooled_size", "spatial_scale"),
                    "Region-of-interest max pooling."),
    "multibox_prior": ("_contrib_MultiBoxPrior", ("data",),
                       ("sizes", "ratios", "clip", "steps", "offsets"),
                       "Anchor boxes centred on each pixel of a feature map."),
    "multibox_target": ("_contrib_MultiBoxTarget", ("anchor", "label", "cls_pred"),
                        ("overlap_threshold", "ignore_label", "negative_mining_ratio",
                         "negative_mining_thresh", "minimum_negative_samples", "variances"),
                        "Training targets (offsets, masks, classes) of anchor boxes."),
    "multibox_detection": ("_contrib_MultiBoxDetection", ("cls_prob", "loc_pred", "anchor"),
                           ("clip", "threshold", "background_id", "nms_threshold",
                            "force_suppress", "variances", "nms_topk"),
                           "Detections from class probabilities and box offsets (with NMS)."),
}



def _make(pyname: str):
    op, ins, ps, doc = _TABLE[pyname]
    return _front(pyname, op, ins, ps, doc)


relu = _make("relu")
sigmoid = _make("sigmoid")
activation = _make("activation")
softmax = _make("softmax")
log_softmax = _make("log_softmax")
batch_norm = _make("batch_norm")
convolution = _make("convolution")
deconvolution = _make("deconvolution")
fully_connected = _make("fully_connected")
pooling = _make("pooling")
dropout = _make("dropout")
embedding = _make("embedding")
layer_norm = _make("layer_norm")
leaky_relu = _make("leaky_relu")
one_hot = _make("one_hot")
pick = _make("pick")
topk = _make("topk")
batch_dot = _make("batch_dot")
batch_flatten = _make("batch_flatten")
arange_like = _make("arange_like")
sequence_mask = _make("sequence_mask")
gather_nd = _make("gather_nd")
erf = _make("erf")
erfinv = _make("erfinv")
gamma = _make("gamma")
gammaln = _make("gammaln")
cast = _make("cast")
reshape_like = _make("reshape_like")
slice = _make("slice")  # noqa: A001
shape_array = _make("shape_array")
smooth_l1 = _make("smooth_l1")
rnn = _make("rnn")
roi_pooling = _make("roi_pooling")
multibox_prior = _make("multibox_prior")
multibox_target = _make("multibox_target")
multibox_detection = _make("multibox_detection")


def reshape(a, newshape, reverse=False, order="C"):
    """Reshape with MXNet's shape codes: -1 infer, -2 copy one axis, -3 drop a size-1 axis,
    -4 copy the remaining axes, -5 merge two axes, -6 split one axis into the next two
    values; ``reverse=True`` matches the codes from the right.

    Examples
    --------
    >>> from mxnet import np, npx
    >>> npx.reshape(np.ones((2, 3, 4)), (-2, -1)).shape
    (2, 12)
    """
    if isinstance(newshape, int):
        newshape = (newshape,)
    return np_call("_npx_reshape", [a], {"newshape": tuple(newshape), "reverse": reverse,
                                         "order": order})


def nonzero(a):
    """Indices of the non-zero elements as an ``(N, a.ndim)`` int64 array.

    Examples
    --------
    >>> npx.nonzero(np.array([[0, 1], [2, 0]]))
    array([[0, 1],
           [1, 0]], dtype=int64)
    """
    return np_call("_npx_nonzero", [a])


def constraint_check(x, msg="Constraint violated."):
    """``array(True)`` when every element of the boolean array ``x`` is true; raises
    ``ValueError`` carrying ``msg`` otherwise.

    Examples
    --------
    >>> npx.constraint_check(np.array([True, True], dtype=bool), 'must hold')
    array(True)
    """
    from ..base import MXNetError

    try:
        return np_call("_npx_constraint_check", [x], {"msg": msg})
    except MXNetError as e:  # MXNet reports a failed check as ValueError
        if "red_output" in str(e):
            raise ValueError(f"Check failed: red_output == true (0 vs. 1) : {msg}") from None
        raise


def gpu_memory_info(device_id=0):
    """``(free, total)`` bytes of GPU ``device_id`` (raises when there is no such GPU)."""
    from ..context import gpu_memory_info as _info

    return _info(device_id)
