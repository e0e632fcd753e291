"""Helpers shared by the ONNX tests: run a model file and compare with our forward pass."""

import pytest

onnx = pytest.importorskip("onnx")

try:  # onnxruntime is faster; onnx's reference evaluator is the fallback
    import onnxruntime as ort
except ImportError:  # pragma: no cover - depends on the environment
    ort = None


def run_onnx(path, feeds):
    """Outputs of the ONNX model at ``path`` for the ``{name: array}`` feeds."""
    if ort is not None:
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        return sess.run(None, feeds)
    from onnx.reference import ReferenceEvaluator

    return ReferenceEvaluator(str(path)).run(None, feeds)


def sym_forward(sym, params, feeds):
    """Outputs of ``sym`` bound with ``params`` (dict of numpy) and ``feeds``."""
    import mxnet as mx

    args = {k: mx.nd.array(v, dtype=v.dtype) for k, v in {**params, **feeds}.items()}
    aux_names = set(sym.list_auxiliary_states())
    arg = {k: v for k, v in args.items() if k not in aux_names}
    aux = {k: v for k, v in args.items() if k in aux_names}
    exe = sym.bind(mx.cpu(), arg, aux_states=aux, grad_req="null")
    return [o.asnumpy() for o in exe.forward(is_train=False)]
