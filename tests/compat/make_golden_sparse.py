"""Write golden files for sparse NDArrays and LibSVMIter (run ONCE under the MXNet 1.9.1
oracle python, from a directory other than the repository root):

    cd /tmp && /root/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_sparse.py

Writes ``golden/sparse/*.params`` (sparse records saved by ``mx.nd.save``), ``cases.npz``
(component arrays and dot results), ``meta.json`` (printed forms, dtypes) and a small LibSVM
data set with the batches ``mx.io.LibSVMIter`` returns. ``tests/ndarray/test_sparse.py`` and
``tests/io/test_libsvm.py`` replay them without MXNet.
"""

import json
import os

import numpy as np

import mxnet as mx

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "sparse")
sp = mx.nd.sparse


def main():
    os.makedirs(HERE, exist_ok=True)
    out, meta = {}, {}
    csr = sp.csr_matrix(([1., 2., 3.], [0, 2, 1], [0, 2, 2, 3]), shape=(3, 3))
    rsp = sp.row_sparse_array(([[1., 2.], [3., 4.]], [0, 2]), shape=(4, 2))
    dense = mx.nd.array([[0, 1.5], [0, 0], [2, 0], [0, 0]])
    cases = {
        "csr": csr,
        "rsp": rsp,
        "csr_f64": csr.astype("float64"),
        "csr_empty": sp.zeros("csr", (2, 3)),
        "rsp_empty": sp.zeros("row_sparse", (3, 2)),
        "rsp_tostype": dense.tostype("row_sparse"),
        "csr_tostype": dense.tostype("csr"),
        "csr_slice": csr[1:3],
    }
    for name, arr in cases.items():
        mx.nd.save(os.path.join(HERE, f"{name}.params"), [arr])
        meta[name] = {"repr": repr(arr), "stype": arr.stype, "shape": list(arr.shape),
                      "dtype": np.dtype(arr.dtype).name}
        out[f"{name}_dense"] = arr.asnumpy()
        out[f"{name}_data"] = arr.data.asnumpy()
        out[f"{name}_indices"] = arr.indices.asnumpy()
        if arr.stype == "csr":
            out[f"{name}_indptr"] = arr.indptr.asnumpy()
    mx.nd.save(os.path.join(HERE, "mixed_dict.params"),
               {"a": csr, "b": rsp, "c": mx.nd.array([1, 2])})
    rhs = mx.nd.array(np.arange(6).reshape(3, 2))
    out["dot_csr_dense"] = sp.dot(csr, rhs).asnumpy()
    t = sp.dot(csr, rhs, transpose_a=True)
    meta["dot_csr_t_dense_stype"] = t.stype
    out["dot_csr_t_dense"] = t.asnumpy()
    out["dot_csr_t_dense_indices"] = t.indices.asnumpy()
    s = rsp + sp.row_sparse_array(([[10., 10.]], [1]), shape=(4, 2))
    out["rsp_add_indices"] = s.indices.asnumpy()
    out["rsp_add_dense"] = s.asnumpy()
    rt = sp.retain(rsp, mx.nd.array([2, 3]))
    out["retain_indices"] = rt.indices.asnumpy()
    out["retain_dense"] = rt.asnumpy()
    np.savez(os.path.join(HERE, "cases.npz"), **out)
    libsvm(meta)
    with open(os.path.join(HERE, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)


def libsvm(meta):
    data = os.path.join(HERE, "data.libsvm")
    label = os.path.join(HERE, "label.libsvm")
    with open(data, "w") as f:
        f.write("1 0:1.5 3:2\n0 1:0.5\n1 2:3 4:1 5:-1\n0\n1 0:7 5:2.5\n")
    with open(label, "w") as f:
        f.write("0 0:1 1:2\n1 1:1\n0 0:3\n1 1:4\n0 0:5 1:6\n")
    res = {}
    for tag, kw in {"basic": dict(batch_size=2),
                    "noround": dict(batch_size=2, round_batch=False),
                    "labelfile": dict(batch_size=2, label_libsvm=label, label_shape=(2,)),
                    "part1": dict(batch_size=1, num_parts=2, part_index=1)}.items():
        try:
            it = mx.io.LibSVMIter(data_libsvm=data, data_shape=(6,), **kw)
        except mx.base.MXNetError as e:
            res[tag] = {"error": str(e).strip().splitlines()[-1]}
            continue
        batches = []
        for _epoch in range(3):  # a fresh iterator, then reset after each full pass
            for b in it:
                d, lab = b.data[0], b.label[0]
                batches.append({"data": d.asnumpy().tolist(), "stype": d.stype,
                                "label": lab.asnumpy().tolist(), "label_stype": lab.stype,
                                "pad": b.pad, "indptr": d.indptr.asnumpy().tolist(),
                                "dtype": np.dtype(d.dtype).name,
                                "index": [int(i) for i in b.index]})
            it.reset()
        res[tag] = {"batches": batches,
                    "provide_data": [(x.name, list(x.shape)) for x in it.provide_data],
                    "provide_label": [(x.name, list(x.shape)) for x in it.provide_label]}
    meta["libsvm"] = res


if __name__ == "__main__":
    main()
