"""Write golden NDArray files with REAL MXNet 1.9.1 (run once under the oracle python).

    cd /tmp && /root/.cache/mxnet-oracle/bin/python /work/main/tests/compat/make_golden_ndarray.py

Writes into ``tests/compat/golden/ndarray/``: ``.params`` list/dict files of every dtype the
oracle can create, empty arrays, an array saved from ``cpu(1)``, NumPy-shape (V3) files with a
0-d scalar, csr and row_sparse saves, pickled NDArrays, and ``manifest.json`` with the
expected dtype, shape, context and raw little-endian data bytes (hex) of every array, so the
tests check values bit for bit and can rebuild the same arrays to compare written bytes.
"""

import json
import os
import pickle
import sys

import numpy as np

import mxnet as mx

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "ndarray")
PICKLE_PROTOCOL = 4


def values(dtype, shape, seed):
    rng = np.random.RandomState(seed)
    n = int(np.prod(shape))
    if dtype == "bool":
        return (rng.rand(n) > 0.5).reshape(shape)
    if dtype.startswith("float"):
        v = (rng.randn(n) * 10).astype(dtype)
        if n >= 4:
            v[1], v[2], v[3] = np.inf, -np.inf, -0.0
        return v.reshape(shape)
    info = np.iinfo(dtype)
    v = rng.randint(max(info.min, -1000), min(info.max, 1000) + 1, size=n).astype(dtype)
    if n >= 2:
        v[0], v[1] = info.min, info.max
    return v.reshape(shape)


def describe(arr):
    a = arr.asnumpy()
    return {"dtype": np.dtype(arr.dtype).name, "shape": list(arr.shape),
            "ctx": str(arr.context), "hex": np.ascontiguousarray(a).astype(
                a.dtype.newbyteorder("<")).tobytes().hex()}


def spec(a_np, ctx="cpu(0)"):
    return {"dtype": a_np.dtype.name, "shape": list(a_np.shape), "ctx": ctx,
            "hex": np.ascontiguousarray(a_np).astype(
                a_np.dtype.newbyteorder("<")).tobytes().hex()}


def main():
    os.makedirs(OUT, exist_ok=True)
    manifest = {"mxnet_version": mx.__version__, "pickle_protocol": PICKLE_PROTOCOL,
                "files": {}, "pickles": {}}

    def record(fname, kind, written, loaded=None, **extra):
        """``written``: what was saved (spec list/dict); ``loaded``: what load returns."""
        loaded = mx.nd.load(os.path.join(OUT, fname)) if loaded is None else loaded
        if isinstance(loaded, dict):
            got = {k: describe(v) for k, v in loaded.items()}
        else:
            got = [describe(v) for v in loaded]
        manifest["files"][fname] = {"kind": kind, "written": written, "loaded": got, **extra}

    # one file per dtype, list form, shape (2, 3)
    dtypes = ["float32", "float64", "float16", "uint8", "int8", "int32", "int64", "bool"]
    for i, dt in enumerate(dtypes):
        a = values(dt, (2, 3), i)
        try:
            nd = mx.nd.array(a, dtype=dt)
        except Exception as e:  # noqa: BLE001
            print("skip dtype", dt, e, file=sys.stderr)
            continue
        fname = f"dtype_{dt}.params"
        mx.nd.save(os.path.join(OUT, fname), [nd])
        record(fname, "list", [spec(a)])

    # list of several shapes
    arrs = [values("float32", (4,), 10), values("float32", (2, 1, 3), 11),
            values("int32", (3, 2), 12)]
    mx.nd.save(os.path.join(OUT, "list.params"), [mx.nd.array(a, dtype=a.dtype) for a in arrs])
    record("list.params", "list", [spec(a) for a in arrs])

    # dict (checkpoint style), insertion order kept
    d = {"arg:fc_weight": values("float32", (3, 4), 20), "arg:fc_bias": values("float32", (3,), 21),
         "aux:bn_moving_mean": values("float32", (3,), 22), "unicode_naïve": values("int64", (2,), 23)}
    mx.nd.save(os.path.join(OUT, "dict.params"), {k: mx.nd.array(v, dtype=v.dtype)
                                                  for k, v in d.items()})
    record("dict.params", "dict", {k: spec(v) for k, v in d.items()})

    # single array (stored as a one-element list)
    one = values("float32", (5,), 30)
    mx.nd.save(os.path.join(OUT, "single.params"), mx.nd.array(one))
    record("single.params", "list", [spec(one)])

    # empty arrays
    empties = [np.zeros((0,), np.float32), np.zeros((0, 3), np.float32)]
    mx.nd.save(os.path.join(OUT, "empty.params"), [mx.nd.array(e) for e in empties])
    record("empty.params", "list", [spec(e) for e in empties])

    # empty list and empty dict
    mx.nd.save(os.path.join(OUT, "empty_list.params"), [])
    record("empty_list.params", "list", [])

    # context: cpu(1) and cpu_pinned(0) are written with their device type and id
    c = values("float32", (2, 2), 40)
    mx.nd.save(os.path.join(OUT, "ctx.params"), {"cpu1": mx.nd.array(c, ctx=mx.cpu(1)),
                                                 "pinned": mx.nd.array(c, ctx=mx.cpu_pinned(0))})
    record("ctx.params", "dict", {"cpu1": spec(c, "cpu(1)"), "pinned": spec(c, "cpu_pinned(0)")})

    # sparse (loaded back dense by mxnet-ng)
    csr_dense = np.array([[0, 1.5, 0], [2, 0, 3], [0, 0, 0]], dtype=np.float32)
    rsp_dense = np.array([[0, 0], [1, 2], [0, 0], [3, 4]], dtype=np.float32)
    sp = {"csr": mx.nd.sparse.csr_matrix(csr_dense), "rsp": mx.nd.sparse.row_sparse_array(rsp_dense)}
    mx.nd.save(os.path.join(OUT, "sparse.params"), sp)
    loaded = mx.nd.load(os.path.join(OUT, "sparse.params"))
    record("sparse.params", "dict", {"csr": spec(csr_dense), "rsp": spec(rsp_dense)},
           loaded={k: v.tostype("default") for k, v in loaded.items()})

    # NumPy-shape semantics: V3 records, a true 0-d scalar
    mx.npx.set_np()
    scal = np.array(3.25, dtype=np.float32)
    vec = values("float32", (2, 3), 50)
    mx.npx.save(os.path.join(OUT, "np_v3.params"), {"scalar": mx.np.array(scal),
                                                    "mat": mx.np.array(vec)})
    loaded = mx.npx.load(os.path.join(OUT, "np_v3.params"))
    record("np_v3.params", "dict", {"scalar": spec(scal), "mat": spec(vec)},
           loaded={k: v.as_nd_ndarray() for k, v in loaded.items()}, np_shape=True)
    pk = pickle.dumps(mx.np.array(vec).as_nd_ndarray(), protocol=PICKLE_PROTOCOL)
    mx.npx.reset_np()

    # pickles
    for name, a, ctx in [("f32", values("float32", (2, 3), 60), mx.cpu(0)),
                         ("i64", values("int64", (4,), 61), mx.cpu(0)),
                         ("u8_cpu1", values("uint8", (3,), 62), mx.cpu(1))]:
        nd = mx.nd.array(a, ctx=ctx, dtype=a.dtype)
        blob = pickle.dumps(nd, protocol=PICKLE_PROTOCOL)
        with open(os.path.join(OUT, f"pickle_{name}.pkl"), "wb") as f:
            f.write(blob)
        back = pickle.loads(blob)
        manifest["pickles"][f"pickle_{name}.pkl"] = {"written": spec(a, str(ctx)),
                                                     "loaded": describe(back)}
    with open(os.path.join(OUT, "pickle_np_mode.pkl"), "wb") as f:
        f.write(pk)
    manifest["pickles"]["pickle_np_mode.pkl"] = {"written": spec(vec), "loaded": spec(vec),
                                                 "np_shape": True}

    with open(os.path.join(OUT, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
    print("wrote", len(os.listdir(OUT)), "files to", OUT)


if __name__ == "__main__":
    main()
