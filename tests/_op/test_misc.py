"""Records for ``mxnet/_op/_misc.py`` and ``_misc_nn.py`` (NumPy references; SVMOutput,
Correlation, im2col/col2im, Crop and IdentityAttachKLSparseReg against MXNet 1.9.1 golden
values).
"""

from __future__ import annotations

import json
import os
import tempfile

import cv2
import numpy as np
import pytest

import mxnet as mx
from tests._op.harness import Record, run_record
from tests._op.test_detection import CASES, check_golden_grad, golden_record, load

rng = np.random.RandomState(5)
X = rng.uniform(-2, 2, (2, 3)).astype(np.float32)
Y = rng.uniform(-2, 2, (4, 3)).astype(np.float32)


def _khatri_rao(*ms):
    out = ms[0]
    for m in ms[1:]:
        out = np.einsum("ik,jk->ijk", out, m).reshape(-1, m.shape[1])
    return out


def _moments(x, axes=None, keepdims=False):
    ax = tuple(range(x.ndim)) if axes is None else tuple(axes)
    return [x.mean(ax, keepdims=keepdims), x.var(ax, keepdims=keepdims)]


def _fill(lhs, mhs, rhs):
    out = lhs.copy()
    out[np.arange(len(lhs)), rhs.astype(int)] = mhs
    return out


def _hist_uniform(x, bin_cnt, range):
    c, e = np.histogram(x, bin_cnt, range)
    return [c, e]


INF = np.array([1.0, np.inf], np.float32)
RECORDS = [
    Record("khatri_rao", [X, Y], ref=_khatri_rao),  # MXNet: no gradient (FGradient)
    Record("khatri_rao", [X], ref=_khatri_rao, name="khatri_rao_one"),
    Record("moments", [Y], {"axes": (0,)}, ref=_moments, grad=True, rtol=1e-4),
    Record("moments", [Y], {"axes": (0, 1), "keepdims": True}, ref=_moments,
           name="moments_all", rtol=1e-4),
    Record("cumsum", [X], ref=lambda x, **k: np.cumsum(x), grad=True, rtol=1e-5),
    Record("cumsum", [X], {"axis": 1, "dtype": "float64"},
           ref=lambda x, **k: np.cumsum(x, 1), name="cumsum_axis"),
    Record("cumsum", [np.array([[1, 2], [3, 4]], np.int8)], {"axis": 0},
           ref=lambda x, **k: np.cumsum(x, 0).astype(np.int8), name="cumsum_int8"),
    Record("all_finite", [X], ref=lambda x, **k: np.array([1.0], np.float32)),
    Record("all_finite", [INF], ref=lambda x, **k: np.array([0.0], np.float32),
           name="all_finite_inf"),
    Record("multi_all_finite", [X, Y], {"num_arrays": 2},
           ref=lambda *a, **k: np.array([1.0], np.float32)),
    Record("multi_all_finite", [X, INF], {"num_arrays": 2},
           ref=lambda *a, **k: np.array([0.0], np.float32), name="multi_all_finite_inf"),
    Record("reset_arrays", [X.copy(), Y.copy()], {"num_arrays": 2}, symbolic=False),
    Record("fill_element_0index", [X, np.array([7, 8], np.float32),
                                   np.array([2, 0], np.float32)], ref=_fill),
    Record("_onehot_encode", [np.array([1, 0, 2], np.float32), np.zeros((3, 4), np.float32)],
           ref=lambda i, o: np.eye(4, dtype=np.float32)[i.astype(int)]),
    Record("_histogram", [np.array([0.1, 0.5, 0.9, 1.0, 0.3, -1, 2], np.float32)],
           {"bin_cnt": 4, "range": (0.0, 1.0)}, ref=_hist_uniform, symbolic=False),
    Record("_histogram", [np.array([0.1, 0.5, 0.9, 1.0, 0.3], np.float32),
                          np.array([0, 0.25, 0.5, 1.0], np.float32)],
           ref=lambda x, b: [np.histogram(x, b)[0], b], name="histogram_bins",
           symbolic=False),
    Record("_ravel_multi_index", [np.array([[1, 2, 0], [0, 1, 3]], np.float32)],
           {"shape": (3, 4)}, ref=lambda d, shape: np.ravel_multi_index(
               d.astype(int), shape).astype(np.float32)),
    Record("_unravel_index", [np.array([5, 7, 11], np.float32)], {"shape": (3, 4)},
           ref=lambda d, shape: np.stack(np.unravel_index(d.astype(int), shape)).astype(
               np.float32)),
    Record("_square_sum", [Y], {"axis": (1,)}, ref=lambda x, **k: (x * x).sum(1), grad=True),
    Record("_square_sum", [Y], {"axis": (1,), "exclude": True, "keepdims": True},
           ref=lambda x, **k: (x * x).sum(0, keepdims=True), name="square_sum_exclude"),
    Record("_grad_add", [X, X * 2], ref=lambda a, b: a + b),  # MXNet: no gradient
    Record("_identity_with_attr_like_rhs", [X, X * 0], ref=lambda a, b: a),
    Record("_copyto", [X], ref=lambda x: x),
    Record("_CrossDeviceCopy", [X], ref=lambda x: x),
    Record("_NoGradient", [], ref=lambda: np.zeros(()), symbolic=False),
    Record("_set_value", [], {"src": 2.5}, ref=lambda **k: np.array(2.5, np.float32),
           symbolic=False),
    Record("_scatter_plus_scalar", [X], {"scalar": 2.0}, ref=lambda x, **k: x + 2),
    Record("_scatter_minus_scalar", [X], {"scalar": 2.0}, ref=lambda x, **k: x - 2),
    Record("_scatter_elemwise_div", [X, X + 5], ref=lambda a, b: a / b, rtol=1e-5),
    Record("_sample_unique_zipfian", [], {"range_max": 50, "shape": (2, 6)},
           check=lambda outs, ins: _check_zipf(outs)),
    Record("IdentityAttachKLSparseReg", [X, np.array([0.2, 0.3, 0.4], np.float32)],
           ref=lambda x, a, **k: x),
]
RECORDS += [golden_record(n, rtol=1e-4) for n in sorted(CASES) if CASES[n]["op"] in
            ("SVMOutput", "Correlation", "im2col", "col2im", "Crop")]
PDF = sorted(n for n in CASES if n.startswith("pdf_"))
RECORDS += [golden_record(n, rtol=1e-4) for n in PDF]


IMG = (np.arange(4 * 5 * 3).reshape(4, 5, 3) * 7 % 256).astype(np.uint8)
PNG = np.frombuffer(cv2.imencode(".png", IMG)[1].tobytes(), np.uint8)
PNG_PATH = os.path.join(tempfile.mkdtemp(), "img.png")
with open(PNG_PATH, "wb") as _f:
    _f.write(PNG.tobytes())
RECORDS += [
    Record("_cvimdecode", [PNG], ref=lambda b, **k: IMG[..., ::-1], symbolic=False),
    Record("_cvimdecode", [PNG], {"flag": 0},
           ref=lambda b, **k: cv2.cvtColor(IMG, cv2.COLOR_BGR2GRAY)[..., None],
           name="cvimdecode_gray", symbolic=False),
    Record("_cvimread", [], {"filename": PNG_PATH, "to_rgb": False}, ref=lambda **k: IMG,
           symbolic=False),
    Record("_cvimresize", [IMG], {"w": 3, "h": 2}, ref=lambda x, **k: cv2.resize(x, (3, 2)),
           symbolic=False),
    Record("_cvcopyMakeBorder", [IMG], {"top": 1, "bot": 2, "left": 0, "right": 1,
                                        "values": (1.0, 2.0, 3.0)},
           ref=lambda x, **k: np.concatenate([
               np.pad(x[..., c:c + 1], ((1, 2), (0, 1), (0, 0)), constant_values=c + 1)
               for c in range(3)], -1), symbolic=False),
]


def test_cvimdecode_invalid_raises():
    with pytest.raises(mx.base.MXNetError, match="Decoding failed"):
        mx.nd._internal._cvimdecode(mx.nd.array([1, 2, 3], dtype="uint8"))


def _check_zipf(outs):
    s, tries = outs
    assert s.dtype == np.int64 and s.shape == (2, 6) and tries.shape == (2,)
    for row, t in zip(s, tries):
        assert len(set(row.tolist())) == 6 and row.min() >= 0 and row.max() < 50
        assert t >= 6


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)


@pytest.mark.parametrize("name", sorted(n for n in CASES if CASES[n]["grad"] and CASES[n][
    "op"] in ("SVMOutput", "Correlation", "im2col", "col2im")))
def test_golden_grad(name):
    check_golden_grad(name)


@pytest.mark.parametrize("name", PDF)
def test_pdf_golden_grad(name):
    check_golden_grad(name, rtol=1e-3, atol=1e-4)


MULTI = ["_multi_adamw_update", "_multi_mp_adamw_update", "_multi_lamb_update",
         "_multi_mp_lamb_update"]
_MZ = load("multi_update")


def _multi_inputs(name):
    n = sum(k.startswith(name + "/in") for k in _MZ)
    return [_MZ[f"{name}/in{i}"] for i in range(n)]


def _multi_params(name):
    return {k: tuple(v) if isinstance(v, list) else v
            for k, v in json.loads(str(_MZ[f"{name}/params"])).items()}


RECORDS += [Record(n, _multi_inputs(n), _multi_params(n),
                   ref=(lambda nm: lambda *a, **k: [_MZ[f"{nm}/out0"], _MZ[f"{nm}/out1"]])(n),
                   symbolic=False, rtol=5e-4 if "lamb" in n else 1e-4, atol=1e-5)
            for n in MULTI]


@pytest.mark.parametrize("name", MULTI)
def test_multi_update_states(name):
    ins = _multi_inputs(name)
    nds = [mx.nd.array(x, dtype=x.dtype) for x in ins]
    outs = [mx.nd.zeros(nds[0].shape, dtype=nds[0].dtype) for _ in range(2)]
    getattr(mx.nd._internal, name)(*nds, out=outs, **_multi_params(name))
    for i, o in enumerate(outs):
        np.testing.assert_allclose(o.asnumpy().astype(np.float64), _MZ[f"{name}/out{i}"],
                                   rtol=1e-3, atol=1e-4, err_msg=f"{name} output {i}")
    # the fp32 master weights of the mixed-precision LAMB differ from MXNet by ~4e-5
    # relative (MXNet's trust ratio is computed slightly differently in that kernel)
    tol = 5e-4 if name == "_multi_mp_lamb_update" else 1e-4
    for i, x in enumerate(nds):
        np.testing.assert_allclose(x.asnumpy().astype(np.float64), _MZ[f"{name}/after{i}"],
                                   rtol=tol, atol=1e-5, err_msg=f"{name} input {i} after")


def test_reset_arrays_in_place():
    a, b = mx.nd.ones((2,)), mx.nd.ones((3,))
    assert mx.nd.reset_arrays(a, b, num_arrays=2) == []
    assert a.asnumpy().sum() == 0 and b.asnumpy().sum() == 0


def test_set_value_fills_out():
    o = mx.nd.zeros((2, 2))
    mx.nd._internal._set_value(src=3.0, out=o)
    np.testing.assert_array_equal(o.asnumpy(), 3)


def test_kl_sparse_reg_gradient_and_moving_avg():
    z = load("klsparse")
    sym = mx.sym.IdentityAttachKLSparseReg(mx.sym.var("data"), penalty=0.01, momentum=0.8)
    grad = mx.nd.zeros((4, 3))
    avg = mx.nd.array(z["in1"])
    ex = sym.bind(mx.cpu(), {"data": mx.nd.array(z["in0"])}, args_grad={"data": grad},
                  aux_states={sym.list_auxiliary_states()[0]: avg})
    y = ex.forward(is_train=True)[0]
    ex.backward(mx.nd.array(z["head"]))
    np.testing.assert_allclose(y.asnumpy(), z["out0"])
    np.testing.assert_allclose(grad.asnumpy(), z["grad0"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(avg.asnumpy(), z["avg"], rtol=1e-6)


def test_svm_output_ignores_head_gradient():
    x = mx.nd.array(X)
    x.attach_grad()
    with mx.autograd.record():
        y = mx.nd.SVMOutput(x, mx.nd.array([0, 2]), use_linear=True)
    y.backward(mx.nd.ones(y.shape) * 7)
    expect = np.where(np.eye(3)[[0, 2]] == 1, -(1 > X).astype(np.float32),
                      (1 > -X).astype(np.float32))
    np.testing.assert_array_equal(x.grad.asnumpy(), expect)


def test_crop_errors():
    with pytest.raises(mx.base.MXNetError, match="Crop"):
        mx.nd.Crop(mx.nd.ones((1, 1, 3, 3)), h_w=(4, 4), num_args=1)


def test_symbol_attr_with_numpy_ints_in_tuple():
    # numpy 2 prints np.int64 inside tuples as "np.int64(3)"; the stored attribute must stay
    # MXNet's plain "(3, 3)" so the symbol binds and round-trips through JSON
    import mxnet as mx

    k = tuple(np.array([3, 3]))
    conv = mx.sym.Convolution(mx.sym.var("x"), kernel=k, num_filter=2, no_bias=True, name="c")
    assert conv.attr_dict()["c"]["kernel"] == "(3, 3)"
    _, out, _ = conv.infer_shape(x=(1, 1, 5, 5))
    assert out == [(1, 2, 3, 3)]


def test_simple_bind_ignores_non_shape_keywords():
    # MXNet only reads tuple values as shapes; take(..., axis=, mode=) keywords pass through
    import mxnet as mx

    y = mx.sym.take(mx.sym.var("a"), mx.sym.var("indices"), axis=0)
    exe = y.simple_bind(mx.cpu(), a=(4, 2), indices=(3,), axis=0, mode="clip")
    assert exe.outputs[0].shape == (3, 2)


def test_check_numeric_gradient_grad_nodes_dict():
    # a grad_nodes dict is a grad_req per node: 'null' nodes are not differentiated
    import mxnet as mx
    from mxnet.test_utils import check_numeric_gradient

    a, b = mx.sym.var("a"), mx.sym.var("b")
    sym = mx.sym.take(a, b)
    data = np.random.rand(4, 3)
    idx = np.array([0.2, 2.0])  # rounding index: numerical gradient would be nonzero/noisy
    check_numeric_gradient(sym, [data, idx], grad_nodes={"a": "write", "b": "null"})
    check_numeric_gradient(sym, [data, idx], grad_nodes={"a": "add", "b": "null"})


def test_executor_outputs_have_inferred_dtype_before_forward():
    import mxnet as mx

    x = mx.sym.Variable("x", dtype=np.float32)
    for op in (mx.sym.Cast, mx.sym.amp_cast):
        exe = op(x, dtype=np.float16).bind(mx.cpu(), {"x": mx.nd.ones(3)})
        assert exe.outputs[0].dtype == np.float16
    # a dtype given to simple_bind/infer_type overrides the variable's dtype attribute
    exe = (x * 2).simple_bind(mx.cpu(), x=(2,), type_dict={"x": "float64"})
    assert exe.outputs[0].dtype == np.float64 and exe.arg_arrays[0].dtype == np.float64
    assert (x * 2).infer_type(x="int32")[1] == [np.int32]


def test_correlation_subtract_gradient_on_ties():
    # MXNet 1.9.1: |x1 - x2| back-propagates +1 to data1 and -1 to data2 where x1 == x2
    x = mx.nd.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    y = mx.nd.array([[[[1.0, 0.0], [3.0, 5.0]]]])
    x.attach_grad()
    y.attach_grad()
    with mx.autograd.record():
        out = mx.nd.Correlation(x, y, kernel_size=1, max_displacement=0, is_multiply=False)
    out.backward()
    np.testing.assert_array_equal(out.asnumpy().ravel(), [0, 2, 0, 1])
    np.testing.assert_array_equal(x.grad.asnumpy().ravel(), [1, 1, 1, -1])
    np.testing.assert_array_equal(y.grad.asnumpy().ravel(), [-1, -1, -1, 1])


def test_unravel_index_negative_index_uses_c_division():
    # MXNet 1.9.1's kernel divides from the last axis with C semantics (truncation)
    out = mx.nd.unravel_index(mx.nd.array([-1, 7, 5]), shape=(2, 4)).asnumpy()
    assert out.tolist() == [[0, 1, 1], [-1, 3, 1]]
    out = mx.nd.unravel_index(mx.nd.array([5, 23]), shape=(-1, 3, 4)).asnumpy()
    assert out.tolist() == [[0, 1], [1, 2], [1, 3]]


def test_moments_needs_axes_and_extractdiag_square_matrices():
    # MXNet 1.9.1 refuses moments without axes and extractdiag of non-square matrices
    from mxnet.base import MXNetError

    with pytest.raises(MXNetError, match="Empty axes"):
        mx.nd.moments(mx.nd.ones((2, 3)))
    with pytest.raises(MXNetError, match="square"):
        mx.nd.linalg.extractdiag(mx.nd.ones((2, 3, 4)))


def test_svm_output_l2_grad_zeros_are_negative_zero():
    # MXNet 1.9.1's L2-SVM backward writes the entries outside the margin as -0.0 (the
    # L1 one keeps +0.0 off the label); printed gradients show the sign.
    d = mx.nd.array([[2.0, -3.0, 0.1], [-2.0, 3.0, 0.5]])
    lab = mx.nd.array([0, 2])
    d.attach_grad()
    with mx.autograd.record():
        y = mx.nd.SVMOutput(d, lab, margin=1.0, regularization_coefficient=0.5)
    y.backward()
    g = d.grad.asnumpy()
    np.testing.assert_allclose(g, [[0, 0, 1.1], [0, 4.0, -0.5]], rtol=1e-6)
    assert np.signbit(g[[0, 0, 1], [0, 1, 0]]).all()


def test_cumsum_symbolic_shape_checks_axis_only_when_run():
    # MXNet 1.9.1: cumsum's shape rule keeps the input shape (flattens without axis); an
    # out-of-range axis fails when the operator runs, as MXNetError, also hybridized with
    # deferred parameters (GluonTS's IncrementalQuantileOutput projection)
    x = mx.sym.var("x")
    assert mx.sym.cumsum(x, axis=3).infer_shape(x=(2, 3, 4))[1] == [(2, 3, 4)]
    assert mx.sym.cumsum(x).infer_shape(x=(2, 3, 4))[1] == [(24,)]

    class _Net(mx.gluon.HybridBlock):
        def __init__(self, **kw):
            super().__init__(**kw)
            with self.name_scope():
                self.d = mx.gluon.nn.Dense(4, flatten=False)

        def hybrid_forward(self, F, v):
            return F.cumsum(self.d(v), axis=3)

    net = _Net()
    net.initialize()
    net.hybridize()
    with pytest.raises(mx.MXNetError):
        net(mx.nd.ones((2, 3, 5))).asnumpy()
    ok = mx.nd.cumsum(mx.nd.array([[1, 2], [3, 4]]), axis=1)
    np.testing.assert_array_equal(ok.asnumpy(), [[1, 3], [3, 7]])
