"""Generate golden outputs and gradients of the shape, indexing and linear-algebra operators
with real MXNet 1.9.1.

Run ONCE under the oracle interpreter (numpy<1.24, mxnet==1.9.1)::

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_shape.py

Writes ``tests/compat/golden/shape/cases.json`` (op, params, gradient inputs, head output per
case) and ``tests/compat/golden/shape/arrays.npz`` (inputs, head gradient, outputs,
gradients). Ops are named by their registry name (``_linalg_gemm``, ``_split_v2``...).
"""

from __future__ import annotations

import json
import os

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "shape")
rng = np.random.RandomState(3)


def U(*shape, lo=-1.0, hi=1.0, dtype=np.float32):
    return rng.uniform(lo, hi, shape).astype(dtype)


def IX(values, dtype=np.float32):
    return np.asarray(values, dtype=dtype)


def D(*shape):
    return U(*shape, dtype=np.float64)


def SPD(n, batch=()):
    a = rng.uniform(-1, 1, batch + (n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype(np.float64)


CASES: dict = {}


def case(name, op, inputs, params=None, grad=(), head_out=0):
    CASES[name] = dict(op=op, inputs=inputs, params=params or {}, grad=list(grad),
                       head_out=head_out)


X = U(2, 3, 4)
# ---- reshape family
for i, (shape, rev) in enumerate([((0, -1), False), ((-1,), False), ((-2,), False),
                                  ((-3, 0), False), ((0, -3), False), ((-4, 1, 2, -2), False),
                                  ((-4, -1, 1, -2), False), ((4, 0, -1), False),
                                  ((-1, 0), True), ((0, -3), True), ((2, -1, 2), True),
                                  ((-3, -2), False), ((2, 0, 2, -1), False)]):
    case(f"reshape{i}", "Reshape", [X], {"shape": shape, "reverse": rev}, grad=(0,))
case("reshape_target", "Reshape", [X], {"target_shape": (4, 0)})
case("reshape_keep_highest", "Reshape", [X], {"target_shape": (3, 0), "keep_highest": True})
case("reshape_like", "reshape_like", [U(30, 2), U(15, 2, 2)],
     {"lhs_begin": 0, "lhs_end": 1, "rhs_begin": 0, "rhs_end": 2}, grad=(0,))
case("reshape_like_neg", "reshape_like", [U(6, 4), U(2, 2, 2, 2)],
     {"lhs_begin": -1, "rhs_begin": 1, "rhs_end": -1})
case("reshape_like_all", "reshape_like", [U(6, 4), U(3, 8)], {})
case("flatten", "Flatten", [U(2, 3, 2, 2)], grad=(0,))
case("flatten_1d", "Flatten", [U(3)])
case("expand_dims", "expand_dims", [X], {"axis": -2}, grad=(0,))
case("squeeze_all", "squeeze", [U(1, 3, 1)], grad=(0,))
case("squeeze_axis", "squeeze", [U(1, 3, 1)], {"axis": (-1,)})
case("squeeze_scalar", "squeeze", [U(1, 1)])
case("transpose_default", "transpose", [X], grad=(0,))
case("transpose_axes", "transpose", [X], {"axes": (1, 0, 2)})
case("swapaxes", "SwapAxis", [X], {"dim1": -1, "dim2": 0}, grad=(0,))
case("broadcast_to", "broadcast_to", [U(1, 3, 1)], {"shape": (2, 0, 4)}, grad=(0,))
case("broadcast_like", "broadcast_like", [U(1, 3), U(2, 3)], grad=(0,))
case("broadcast_like_axes", "broadcast_like", [U(1, 3), U(5, 4, 6)],
     {"lhs_axes": (0,), "rhs_axes": (2,)})
case("broadcast_axis", "broadcast_axis", [U(2, 1, 1)], {"axis": (1, 2), "size": (3, 2)},
     grad=(0,))
case("tile", "tile", [U(2, 3)], {"reps": (2, 1, 2)}, grad=(0,))
case("tile_short", "tile", [X], {"reps": (2,)})
case("repeat_axis", "repeat", [U(2, 3)], {"repeats": 2, "axis": -1}, grad=(0,))
case("repeat_flat", "repeat", [U(2, 3)], {"repeats": 3})
case("reverse", "reverse", [X], {"axis": (0, 2)}, grad=(0,))
case("d2s", "depth_to_space", [U(1, 8, 2, 3)], {"block_size": 2}, grad=(0,))
case("s2d", "space_to_depth", [U(1, 2, 4, 6)], {"block_size": 2}, grad=(0,))
case("shape_array", "shape_array", [X])
case("size_array", "size_array", [X])
case("diag_1d", "diag", [U(3)], {"k": -1}, grad=(0,))
case("diag_2d", "diag", [U(3, 4)], {"k": 1}, grad=(0,))
case("diag_3d", "diag", [X], {"k": -1, "axis1": 2, "axis2": 0}, grad=(0,))
# ---- join / split / slice
case("concat", "Concat", [U(2, 3), U(2, 1), U(2, 2)], {"dim": 1, "num_args": 3}, grad=(0, 1, 2))
case("concat_neg", "Concat", [U(2, 3), U(1, 3)], {"dim": -2, "num_args": 2})
case("stack", "stack", [U(2, 3), U(2, 3)], {"axis": -1, "num_args": 2}, grad=(0, 1))
case("split", "SliceChannel", [X], {"num_outputs": 2, "axis": -1}, grad=(0,))
case("split_squeeze", "SliceChannel", [X], {"num_outputs": 3, "squeeze_axis": True},
     grad=(0,), head_out=1)
case("split_v2", "_split_v2", [X], {"indices": (0, 1, 3), "axis": 2}, grad=(0,), head_out=1)
case("split_v2_sq", "_split_v2", [X], {"indices": (0, 1, 2), "axis": 1, "squeeze_axis": True})
case("slice", "slice", [X], {"begin": (None, 1), "end": (None, None), "step": (None, -1)},
     grad=(0,))
case("slice_neg", "slice", [U(10)], {"begin": (8,), "end": (-11,), "step": (-3,)}, grad=(0,))
case("slice_plain", "slice", [X], {"begin": (1, 0, -3), "end": (2, 2, None)})
case("slice_step", "slice", [U(7, 5)], {"begin": (-1, 4), "end": (None, 0), "step": (-2, -1)})
case("slice_axis", "slice_axis", [X], {"axis": 2, "begin": -3, "end": None}, grad=(0,))
case("slice_axis1", "slice_axis", [X], {"axis": 1, "begin": 0, "end": -1})
case("slice_like", "slice_like", [X, U(1, 2, 3)], {"axes": (0, -1)}, grad=(0,))
case("slice_like_all", "slice_like", [X, U(1, 2, 3)])
case("slice_assign", "_slice_assign", [U(3, 4), U(2, 2)],
     {"begin": (None, 3), "end": (2, None), "step": (None, -2)})
case("slice_assign_scalar", "_slice_assign_scalar", [U(3, 4)],
     {"scalar": 5.0, "begin": (1, None), "end": (None, None), "step": (1, 2)})
case("pad_const", "Pad", [U(1, 2, 2, 3)],
     {"mode": "constant", "pad_width": (0, 0, 0, 0, 1, 0, 0, 2), "constant_value": -1.5},
     grad=(0,))
case("pad_edge", "Pad", [U(1, 1, 2, 3, 2)],
     {"mode": "edge", "pad_width": (0, 0, 0, 0, 1, 1, 2, 0, 0, 1)}, grad=(0,))
case("pad_reflect", "Pad", [U(1, 2, 3, 4)],
     {"mode": "reflect", "pad_width": (0, 0, 0, 0, 1, 2, 2, 1)}, grad=(0,))
# ---- indexing
T = U(3, 4)
case("take_clip", "take", [T, IX([[-1, 1.7], [5, 2]])], grad=(0,))
case("take_wrap", "take", [T, IX([-1, 1.7, 5, -4])], {"mode": "wrap", "axis": 0}, grad=(0,))
case("take_axis", "take", [X, IX([[0, 3]])], {"axis": -1}, grad=(0,))
case("take_raise", "take", [T, IX([2, 0])], {"mode": "raise"})
case("pick", "pick", [T, IX([1.7, 2.2, -0.5])], {"axis": 1}, grad=(0,))
case("pick_wrap", "pick", [T, IX([5, -1, 2])], {"axis": -1, "mode": "wrap"})
case("pick_keep", "pick", [T, IX([[1, 2, 0, 1]])], {"axis": 0, "keepdims": True}, grad=(0,))
case("one_hot", "one_hot", [IX([[-1, 3], [1.5, 2]])],
     {"depth": 3, "on_value": 5.0, "off_value": -1.0, "dtype": "int32"})
case("one_hot_default", "one_hot", [IX([0, 2, 1])], {"depth": 4})
case("gather_nd", "gather_nd", [X, IX([[1, 0], [2, 1]])], grad=(0,))
case("gather_nd_neg", "gather_nd", [X, IX([[1, 0], [2, -1]])])
case("gather_nd_full", "gather_nd", [X, IX([[1, 0], [2, 1], [3, 0]])], grad=(0,))
case("scatter_nd", "scatter_nd", [U(2, 3), IX([[0, 1], [1, 0]])], {"shape": (2, 2, 3)},
     grad=(0,))
case("batch_take", "batch_take", [T, IX([3, 0, 2], np.int32)])
S = U(4, 3, 2)
LEN = IX([1.5, 2.9, 4])
case("seqmask", "SequenceMask", [S, LEN], {"use_sequence_length": True, "value": -1.0},
     grad=(0,))
case("seqmask_axis1", "SequenceMask", [U(3, 4, 2), LEN],
     {"use_sequence_length": True, "axis": 1}, grad=(0,))
case("seqmask_nolen", "SequenceMask", [S], grad=(0,))
case("seqlast", "SequenceLast", [S, IX([1, 2.5, 4])], {"use_sequence_length": True}, grad=(0,))
case("seqlast_axis1", "SequenceLast", [U(3, 4, 2), IX([1, 2, 4])],
     {"use_sequence_length": True, "axis": 1}, grad=(0,))
case("seqlast_nolen", "SequenceLast", [S])
case("seqrev", "SequenceReverse", [S, IX([1.5, 2.9, 3])], {"use_sequence_length": True},
     grad=(0,))
case("seqrev_nolen", "SequenceReverse", [S], grad=(0,))
# ---- dot
case("dot", "dot", [U(2, 3), U(3, 4)], grad=(0, 1))
case("dot_nd", "dot", [U(2, 3, 2), U(2, 2, 3)], grad=(0, 1))
case("dot_ta", "dot", [U(4, 3, 2), U(4, 5)], {"transpose_a": True}, grad=(0, 1))
case("dot_tb", "dot", [U(2, 3, 4), U(5, 4)], {"transpose_b": True}, grad=(0, 1))
case("dot_tab", "dot", [U(3, 2), U(4, 3)], {"transpose_a": True, "transpose_b": True},
     grad=(0, 1))
case("dot_vv", "dot", [U(3), U(3)], grad=(0, 1))
case("dot_vm", "dot", [U(3), U(3, 2)], grad=(0, 1))
case("dot_mv", "dot", [U(2, 3), U(3)], {"transpose_b": True}, grad=(0, 1))
case("batch_dot", "batch_dot", [U(2, 3, 4), U(2, 4, 5)], grad=(0, 1))
case("batch_dot_t", "batch_dot", [U(2, 4, 3), U(2, 5, 4)],
     {"transpose_a": True, "transpose_b": True}, grad=(0, 1))
case("batch_dot_4d", "batch_dot", [U(2, 2, 3, 4), U(2, 2, 4, 2)], grad=(0, 1))
# ---- linalg (float64)
A3 = SPD(3)
L3 = np.linalg.cholesky(A3)
case("gemm", "_linalg_gemm", [D(2, 3), D(2, 3), D(2, 2)],
     {"transpose_b": True, "alpha": 2.0, "beta": 3.0}, grad=(0, 1, 2))
case("gemm_axis0", "_linalg_gemm", [D(3, 2, 4), D(4, 2, 5), D(3, 2, 5)], {"axis": 0},
     grad=(0, 1, 2))
case("gemm2", "_linalg_gemm2", [D(2, 3, 2), D(2, 3, 4)], {"transpose_a": True, "alpha": 0.5},
     grad=(0, 1))
case("gemm2_axis0", "_linalg_gemm2", [D(3, 2, 4), D(4, 2, 5)], {"axis": 0}, grad=(0, 1))
case("potrf", "_linalg_potrf", [A3], grad=(0,))
case("potrf_batch", "_linalg_potrf", [SPD(2, (2,))], grad=(0,))
case("potri", "_linalg_potri", [L3], grad=(0,))
case("trmm", "_linalg_trmm", [D(3, 3), D(3, 2)], {"alpha": 2.0}, grad=(0, 1))
case("trmm_upper_right_t", "_linalg_trmm", [D(3, 3), D(2, 3)],
     {"lower": False, "rightside": True, "transpose": True}, grad=(0, 1))
case("trsm", "_linalg_trsm", [L3, D(3, 2)], {"alpha": 2.0}, grad=(0, 1))
case("trsm_right_t", "_linalg_trsm", [L3, D(2, 3)], {"rightside": True, "transpose": True},
     grad=(0, 1))
case("trsm_upper", "_linalg_trsm", [L3.T.copy(), D(3, 2)], {"lower": False}, grad=(0, 1))
case("syrk", "_linalg_syrk", [D(2, 3)], {"alpha": 2.0}, grad=(0,))
case("syrk_t", "_linalg_syrk", [D(2, 2, 3)], {"transpose": True}, grad=(0,))
case("gelqf", "_linalg_gelqf", [D(2, 3)], grad=(0,))
case("gelqf_L", "_linalg_gelqf", [D(2, 3)], grad=(0,), head_out=1)
case("sumlogdiag", "_linalg_sumlogdiag", [A3], grad=(0,))
case("sumlogdiag_batch", "_linalg_sumlogdiag", [SPD(2, (3,))], grad=(0,))
case("inverse", "_linalg_inverse", [A3], grad=(0,))
case("det", "_linalg_det", [D(2, 3, 3)], grad=(0,))
case("det_one", "_linalg_det", [D(3, 3)], grad=(0,))
case("slogdet", "_linalg_slogdet", [D(3, 3)], grad=(0,), head_out=1)
case("syevd", "_linalg_syevd", [A3], grad=(0,), head_out=1)
case("syevd_U", "_linalg_syevd", [SPD(3, (2,))], grad=(0,))
case("extractdiag", "_linalg_extractdiag", [D(3, 3)], {"offset": -1}, grad=(0,))
case("makediag", "_linalg_makediag", [D(2, 2)], {"offset": 1}, grad=(0,))
case("extracttrian", "_linalg_extracttrian", [D(3, 3)], {"offset": -1}, grad=(0,))
case("extracttrian_up", "_linalg_extracttrian", [D(2, 3, 3)], {"lower": False}, grad=(0,))
case("extracttrian_up1", "_linalg_extracttrian", [D(3, 3)], {"offset": 1})
case("maketrian", "_linalg_maketrian", [D(3)], {"offset": -1}, grad=(0,))
case("maketrian_up", "_linalg_maketrian", [D(2, 3)], {"offset": 1, "lower": False},
     grad=(0,))
case("maketrian0u", "_linalg_maketrian", [D(6)], {"lower": False})


def nd_function(mx, name):
    if name.startswith("_linalg_"):
        return getattr(mx.nd.linalg, name[len("_linalg_"):])
    if name.startswith("_"):
        return getattr(mx.nd._internal, name)
    return getattr(mx.nd, name)


def run_case(mx, c, rs):
    ins = [mx.nd.array(x, dtype=x.dtype) for x in c["inputs"]]
    for i in c["grad"]:
        ins[i].attach_grad()
    params = {k: v for k, v in c["params"].items() if k != "num_args"}
    with mx.autograd.record():
        out = nd_function(mx, c["op"])(*ins, **params)
    outs = out if isinstance(out, list) else [out]
    heads = []
    if c["grad"]:
        h = outs[c["head_out"]]
        heads = [rs.uniform(-1, 1, h.shape).astype(h.dtype)]
        h.backward(mx.nd.array(heads[0], dtype=heads[0].dtype))
    return [o.asnumpy() for o in outs], heads, [ins[i].grad.asnumpy() for i in c["grad"]]


def main():
    import mxnet as mx

    arrays, meta = {}, {}
    rs = np.random.RandomState(11)
    for name, c in CASES.items():
        try:
            outs, heads, grads = run_case(mx, c, rs)
            mx.nd.waitall()
        except mx.base.MXNetError as e:
            print(f"skipped {name}: {str(e).splitlines()[0]}")
            continue
        for i, x in enumerate(c["inputs"]):
            arrays[f"{name}|in{i}"] = x
        for i, x in enumerate(outs):
            arrays[f"{name}|out{i}"] = x
        for i, x in enumerate(heads):
            arrays[f"{name}|head{i}"] = x
        for i, x in zip(c["grad"], grads):
            arrays[f"{name}|grad{i}"] = x
        meta[name] = {k: v for k, v in c.items() if k != "inputs"}
        meta[name]["n_in"] = len(c["inputs"])
        meta[name]["n_out"] = len(outs)
    os.makedirs(HERE, exist_ok=True)
    tmp = os.path.join(HERE, "arrays.tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, os.path.join(HERE, "arrays.npz"))
    tmp = os.path.join(HERE, "cases.json.tmp")
    with open(tmp, "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(HERE, "cases.json"))
    print(f"wrote {len(meta)} cases")


if __name__ == "__main__":
    main()
