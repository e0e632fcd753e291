"""``mx.contrib.quantization``: MXNet 1.9.1's INT8 model quantization is not provided.

The module exists so that programs written for MXNet 1.9.1 (which import it at the top,
e.g. ``example/quantization/imagenet_gen_qsym_mkldnn.py``) start; each entry point raises
:class:`~mxnet.base.MXNetError` naming itself when it is called. The quantize/requantize/
calibration operators (``_contrib_quantize_v2``, ``_contrib_requantize``) do exist.
"""

from __future__ import annotations

from ..base import MXNetError

__all__ = [
    "quantize_model",
    "quantize_model_mkldnn",
    "quantize_graph",
    "quantize_net",
    "quantize_net_v2",
    "calib_graph",
    "combine_histogram",
]


def _unsupported(name: str):
    def entry(*args, **kwargs):
        raise MXNetError(
            f"mxnet.contrib.quantization.{name}: INT8 model quantization (quantized "
            "operators and calibration of MXNet 1.9.1's oneDNN backend) is not supported "
            "by mxnet-ng"
        )

    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"MXNet 1.9.1's ``{name}``; raises MXNetError (not supported)."
    return entry


quantize_model = _unsupported("quantize_model")
quantize_model_mkldnn = _unsupported("quantize_model_mkldnn")
quantize_graph = _unsupported("quantize_graph")
quantize_net = _unsupported("quantize_net")
quantize_net_v2 = _unsupported("quantize_net_v2")
calib_graph = _unsupported("calib_graph")
combine_histogram = _unsupported("combine_histogram")
