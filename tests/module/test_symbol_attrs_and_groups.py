"""Module details: hidden lr_mult/wd_mult kwargs, executor groups, sparse parameters."""

import numpy as np
import pytest

import mxnet as mx
from mxnet.module.executor_group import DataParallelExecutorGroup


def test_lr_wd_mult_keyword_arguments_reach_the_optimizer():
    data = mx.sym.Variable("data")
    bias = mx.sym.Variable("fc1_bias", lr_mult=1.0)
    fc1 = mx.sym.FullyConnected(data=data, bias=bias, name="fc1", num_hidden=10, lr_mult=0)
    fc2 = mx.sym.FullyConnected(data=fc1, name="fc2", num_hidden=10, wd_mult=0.5)
    assert fc1.attr_dict()["fc1_weight"]["__lr_mult__"] == "0"
    mod = mx.mod.Module(symbol=fc2, label_names=None)
    mod.bind(data_shapes=[("data", (5, 10))])
    mod.init_params(initializer=mx.init.Uniform(1.0))
    mod.init_optimizer(optimizer_params={"learning_rate": 1.0})
    assert mod._optimizer.lr_mult == {"fc1_bias": 1.0, "fc1_weight": 0.0}
    assert mod._optimizer.wd_mult == {"fc2_bias": 0.5, "fc2_weight": 0.5, "fc1_bias": 0.0}


def test_executor_group_from_tuples_shares_data_arrays():
    data = mx.sym.Variable("data")
    sym1 = mx.sym.FullyConnected(data, num_hidden=4, name="fc")
    sym2 = mx.sym.FullyConnected(sym1, num_hidden=2, name="fc2")
    ctxs = [mx.cpu(0), mx.cpu(1)]
    g1 = DataParallelExecutorGroup(sym1, ctxs, [1, 1], [("data", (4, 3))], None,
                                   ["fc_weight", "fc_bias"], True, False)
    assert g1.grad_req == {"data": "null", "fc_weight": "write", "fc_bias": "write"}
    assert [sorted(d) for d in g1.shared_data_arrays] == [["data"], ["data"]]
    g2 = DataParallelExecutorGroup(sym2, ctxs, [1, 1], [("data", (4, 3))], None,
                                   ["fc_weight", "fc_bias"], True, False, shared_group=g1)
    assert g2.shared_data_arrays is g1.shared_data_arrays
    assert sorted(g1.shared_data_arrays[0]) == ["data", "fc2_bias", "fc2_weight"]


def test_row_sparse_parameter_is_initialised_sparse():
    x = mx.sym.var("data", stype="csr")
    v = mx.sym.var("v", shape=(6, 1), init=mx.init.Uniform(scale=0.1), stype="row_sparse")
    out = mx.sym.LinearRegressionOutput(mx.sym.dot(x, v), mx.sym.var("label"), name="out")
    mod = mx.mod.Module(out, data_names=["data"], label_names=["label"])
    mod.bind(data_shapes=[("data", (4, 6))], label_shapes=[("label", (4, 1))])
    mod.init_params()
    param = mod._arg_params["v"]
    assert param.stype == "row_sparse"
    assert np.abs(param.asnumpy()).sum() > 0


def test_rand_ndarray_sparse():
    a = mx.test_utils.rand_ndarray((5, 6), "csr", density=0.5)
    b = mx.test_utils.rand_ndarray((5, 6), "row_sparse", density=1.0)
    assert a.stype == "csr" and b.stype == "row_sparse"
    assert (b.asnumpy() > 0).all()


def test_bucketing_module_checkpoint_round_trip(tmp_path):
    def sym_gen(key):
        fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=3, name="fc")
        return mx.sym.SoftmaxOutput(fc, name="softmax"), ("data",), ("softmax_label",)

    prefix = str(tmp_path / "b")
    mod = mx.mod.BucketingModule(sym_gen=sym_gen, default_bucket_key=5)
    mod.bind(data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2,))])
    mod.init_params()
    mod.switch_bucket(7, [("data", (2, 5))], [("softmax_label", (2,))])
    mod.save_checkpoint(prefix, 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == \
        ["b-0001.params", "b-5-symbol.json", "b-7-symbol.json", "b.buckets"]
    assert mx.nd.load(prefix + ".buckets")[0].asnumpy().tolist() == [5, 7]
    loaded = mx.mod.BucketingModule.load(prefix, 1, sym_gen=sym_gen, default_bucket_key=5)
    assert loaded.params_initialized and not loaded.binded
    loaded.bind(data_shapes=[("data", (2, 5))], label_shapes=[("softmax_label", (2,))])
    np.testing.assert_array_equal(loaded.get_params()[0]["fc_weight"].asnumpy(),
                                  mod.get_params()[0]["fc_weight"].asnumpy())
    empty = mx.mod.BucketingModule(sym_gen=sym_gen, default_bucket_key=5)
    with pytest.raises(AssertionError, match="Empty BucketingModule"):
        empty.save_checkpoint(prefix, 2)
    with pytest.raises(AssertionError, match="sym_gen is required"):
        mx.mod.BucketingModule.load(prefix, 1)


def test_row_sparse_weight_rows_without_gradient_are_not_updated():
    x = mx.sym.var("data", stype="csr")
    v = mx.sym.var("v", shape=(4, 1), init=mx.init.Constant(0.1), stype="row_sparse")
    out = mx.sym.LinearRegressionOutput(mx.sym.dot(x, v), mx.sym.var("label"), name="out")
    dense = np.ones((2, 4), dtype=np.float32)
    dense[:, 2] = 0  # feature 2 never appears: row 2 of v gets no gradient
    it = mx.io.NDArrayIter(mx.nd.array(dense).tostype("csr"), {"label": mx.nd.zeros((2, 1))},
                           batch_size=2, last_batch_handle="discard")
    mod = mx.mod.Module(out, data_names=["data"], label_names=["label"])
    mod.bind(it.provide_data, it.provide_label)
    mod.init_params()
    mod.init_optimizer(optimizer="adam", optimizer_params={"learning_rate": 0.1, "wd": 0.1})
    for _ in range(2):
        it.reset()
        for batch in it:
            mod.forward_backward(batch)
            mod.update()
    w = mod.get_params()[0]["v"].asnumpy().ravel()
    assert w[2] == np.float32(0.1) and w[0] < 0.1


def test_regression_output_accepts_flat_labels():
    out = mx.sym.LinearRegressionOutput(mx.sym.var("d"), mx.sym.var("l"))
    assert out.infer_shape(d=(5, 1))[0] == [(5, 1), (5,)]
    assert out.infer_shape(d=(5, 1), l=(5,))[1] == [(5, 1)]
    assert out.infer_shape(d=(5, 2), l=(5, 2))[0] == [(5, 2), (5, 2)]


def test_bucketing_module_names_each_bucket_afresh():
    # MXNet 1.9.1 runs sym_gen under a new NameManager: every bucket's auto-named
    # Embedding weight is embedding0_weight, so buckets share it
    def sym_gen(seq_len):
        data = mx.sym.Variable("data")
        emb = mx.sym.Embedding(data=data, input_dim=10, output_dim=4)
        return mx.sym.sum(emb, axis=1), ("data",), None

    mod = mx.mod.BucketingModule(sym_gen=sym_gen, default_bucket_key=5)
    mod.bind([("data", (2, 5))], for_training=False)
    assert mod.symbol.list_arguments()[1] == "embedding0_weight"
    mod.switch_bucket(3, [("data", (2, 3))])
    assert mod._curr_module.symbol.list_arguments()[1] == "embedding0_weight"


def test_module_group2ctxs_places_grouped_arrays():
    with mx.AttrScope(ctx_group="dev1"):
        a = mx.sym.Variable("a") * 2
    with mx.AttrScope(ctx_group="dev2"):
        c = a + mx.sym.Variable("b")
    mod = mx.mod.Module(c, context=[mx.cpu(0)], data_names=["a", "b"], label_names=None,
                        group2ctxs={"dev1": mx.cpu(1), "dev2": [mx.cpu(2)]})
    mod.bind(data_shapes=[("a", (2, 3)), ("b", (2, 3))], inputs_need_grad=True)
    mod.init_params()
    ones = mx.nd.ones((2, 3))
    mod.forward(mx.io.DataBatch(data=[ones, ones]), is_train=True)
    mod.backward([ones])
    ga, gb = mod.get_input_grads()
    assert (ga.context, gb.context) == (mx.cpu(1), mx.cpu(2))
    assert (ga.asnumpy() == 2).all() and (gb.asnumpy() == 1).all()


def test_shared_executor_group_shares_row_sparse_parameters():
    data = mx.sym.Variable("data")
    w = mx.sym.Variable("embed_weight", stype="row_sparse")
    emb = mx.sym.contrib.SparseEmbedding(data=data, weight=w, input_dim=10, output_dim=4)
    sym1 = mx.sym.sum(emb)
    sym2 = mx.sym.sum(emb * 2)
    ctxs = [mx.cpu(0)]
    g1 = DataParallelExecutorGroup(sym1, ctxs, [1], [("data", (2, 3))], None,
                                   ["embed_weight"], True, False)
    g2 = DataParallelExecutorGroup(sym2, ctxs, [1], [("data", (2, 3))], None,
                                   ["embed_weight"], True, False, shared_group=g1)
    assert g2.execs[0].arg_dict["embed_weight"].stype == "row_sparse"
    assert mx.test_utils.same_array(g1.execs[0].arg_dict["embed_weight"],
                                    g2.execs[0].arg_dict["embed_weight"])


def test_base_module_declares_the_module_interface():
    # MXNet 1.9.1: the abstract methods exist on BaseModule and raise NotImplementedError
    base = mx.mod.BaseModule()
    for call in (lambda: base.forward(None), lambda: base.backward(), lambda: base.update(),
                 lambda: base.bind([("data", (1, 2))]), lambda: base.get_params(),
                 lambda: base.data_names, lambda: base.output_shapes,
                 lambda: base.install_monitor(None)):
        with pytest.raises(NotImplementedError):
            call()


def test_workload_slicing_errors_have_mxnet_types():
    # MXNet 1.9.1: ValueError when a context would get no rows, AssertionError for a
    # work_load_list of the wrong length
    net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    mod = mx.mod.Module(net, label_names=None, context=[mx.cpu(0), mx.cpu(1)])
    with pytest.raises(ValueError, match="Too many slices"):
        mod.bind([("data", (1, 3))])
    with pytest.raises(AssertionError):
        mx.mod.Module(net, label_names=None, context=[mx.cpu(0), mx.cpu(1)],
                      work_load_list=[1])
    mod = mx.mod.Module(net, label_names=None, context=[mx.cpu(0), mx.cpu(1)],
                        work_load_list=[1, 2])
    mod.bind([("data", (7, 3))])
    assert mod._exec_group.slices == [slice(0, 2), slice(2, 7)]


def test_module_misuse_raises_assertion_errors_as_mxnet():
    net = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=2, name="fc")
    mod = mx.mod.Module(net, label_names=None)
    mod.bind([("data", (2, 3))], for_training=False)
    mod.init_params()
    with pytest.raises(AssertionError):
        mod.backward()
    with pytest.raises(AssertionError):
        mx.mod.BucketingModule(lambda key: (net, ("data",), None))
