"""Names under which an executor monitor sees tensors, as MXNet's graph executor gives them.

With ``monitor_all`` every input of an operator is reported before it runs: a variable feeding
it first under its own name, then the input under ``<node>_<input name>``. The input names are
the operator's declared ones (``lhs``/``rhs``, ``arg0``..., ``data``/``weight``...), except for
single-input operators that MXNet registers without a name list (element-wise math, shape and
reduction operators, ``Activation``...): those report ``<node>_input0``. Every output is then
reported as ``<node>_<output name>``, hidden ones included (BatchNorm's mean and var, LRN's
tmp_norm, Dropout's mask).

Examples
--------
>>> from mxnet._executor._monitor import input_labels
"""

from __future__ import annotations

__all__ = ["input_labels"]

# single-input operators whose MXNet registration names their input (legacy OperatorProperty
# operators and the few NNVM ones with an FListInputNames), probed on MXNet 1.9.1
_NAMED_SINGLE = frozenset({
    "softmax", "log_softmax", "softmin", "LeakyReLU", "Dropout", "Pooling", "Pooling_v1",
    "BatchNorm", "BatchNorm_v1", "_contrib_SyncBatchNorm", "_contrib_BatchNormWithReLU",
    "SoftmaxOutput", "Softmax", "LinearRegressionOutput", "LogisticRegressionOutput",
    "MAERegressionOutput", "SVMOutput", "MakeLoss", "Embedding", "LayerNorm", "InstanceNorm",
    "GroupNorm", "L2Normalization", "LRN", "SliceChannel", "Convolution", "Convolution_v1",
    "Deconvolution", "FullyConnected", "UpSampling", "Crop", "ROIPooling", "SpatialTransformer",
    "GridGenerator", "BilinearSampler", "Correlation", "SequenceMask", "SequenceLast",
    "SequenceReverse", "RNN", "CTCLoss", "_contrib_CTCLoss", "IdentityAttachKLSparseReg", "Pad",
    "Custom", "_contrib_DeformableConvolution", "_contrib_ModulatedDeformableConvolution",
    "_contrib_PSROIPooling", "_contrib_ROIAlign", "_contrib_AdaptiveAvgPooling2D",
    "_contrib_BilinearResize2D",
})


def input_labels(node) -> list[tuple[str | None, str]]:
    """``(variable name or None, '<node>_<input name>')`` for each input of an op node."""
    names = node.arg_names() + node.aux_names()
    if len(node.inputs) == 1 and node.op.variadic is None and \
            node.op.name not in _NAMED_SINGLE:
        names = ["input0"]
    out = []
    for i, (src, _idx) in enumerate(node.inputs):
        nm = names[i] if i < len(names) else f"input{i}"
        out.append((src.name if src.op is None else None, f"{node.name}_{nm}"))
    return out
