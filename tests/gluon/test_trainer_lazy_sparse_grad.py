"""Embedding(sparse_grad=True) + Trainer: the optimizer sees a row_sparse gradient and lazy
updates (Adam, SGD with momentum) leave the rows absent from the batch untouched, with or
without update_on_kvstore, as MXNet 1.9.1 (Sockeye trains its embeddings this way)."""

import numpy as np
import pytest

import mxnet as mx


def _train(opt, ctxs, update_on_kvstore):
    emb = mx.gluon.nn.Embedding(6, 2, sparse_grad=True)
    emb.initialize(mx.init.Constant(1), ctx=ctxs)
    params = {"learning_rate": 0.01}
    if opt == "sgd":
        params["momentum"] = 0.9
    kw = {} if update_on_kvstore is None else {"update_on_kvstore": update_on_kvstore}
    tr = mx.gluon.Trainer(emb.collect_params(), opt, params, kvstore="device", **kw)
    batches = [([1, 2, 3], [1]), ([2], [2, 5])]
    seen = []
    for step in batches:
        with mx.autograd.record():
            ys = [emb(mx.nd.array(i, ctx=c)).sum() for i, c in zip(step, ctxs)]
        for y in ys:
            y.backward()
        tr.step(1)
        seen.append([emb.weight.data(c).asnumpy()[:, 0] for c in ctxs])
    return seen


@pytest.mark.parametrize("opt", ["adam", "sgd"])
@pytest.mark.parametrize("update_on_kvstore", [None, True, False])
def test_lazy_update_touches_only_batch_rows(opt, update_on_kvstore):
    ctxs = [mx.cpu(0), mx.cpu(1)]
    first, second = _train(opt, ctxs, update_on_kvstore)
    for w1, w2 in zip(first, second):
        # rows 0 and 4 never appear; rows 1 and 3 only in the first step: lazy updates
        # apply no momentum to them in the second step
        np.testing.assert_allclose(w2[[0, 4]], [1.0, 1.0])
        assert (w1[[1, 3]] < 1.0).all()
        np.testing.assert_array_equal(w2[[1, 3]], w1[[1, 3]])
        assert w2[2] < w1[2] and w2[5] < 1.0


def test_lazy_update_single_context_adam():
    (_, (w,)) = _train("adam", [mx.cpu(0)], None)
    np.testing.assert_allclose(w[[1, 3]], [0.99, 0.99], rtol=1e-6)
