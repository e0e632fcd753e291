"""BucketingModule.load_dict: the given symbols serve their buckets even with a sym_gen."""

import numpy as np

import mxnet as mx


def _net(prefix, hidden):
    data = mx.sym.Variable("data")
    fc = mx.sym.FullyConnected(data, num_hidden=hidden, name="fc")
    return mx.sym.SoftmaxOutput(mx.sym.Activation(fc, act_type=prefix), name="softmax")


def test_sym_dict_wins_over_sym_gen():
    loaded = _net("tanh", 4)  # the saved graph uses tanh

    def sym_gen(key):  # today's generator would build relu
        return _net("relu", 4), ("data",), ("softmax_label",)

    arg = {"fc_weight": mx.nd.array(np.full((4, 3), 0.1)), "fc_bias": mx.nd.zeros((4,))}
    mod = mx.mod.BucketingModule.load_dict({5: loaded}, sym_gen=sym_gen, default_bucket_key=5,
                                           arg_params=arg, aux_params={})
    mod.bind(data_shapes=[("data", (2, 3))], label_shapes=[("softmax_label", (2,))],
             for_training=False)
    assert "tanh" in mod._curr_module.symbol.tojson()
    assert "relu" not in mod._curr_module.symbol.tojson()
    batch = mx.io.DataBatch([mx.nd.array(-np.ones((2, 3)))], [mx.nd.zeros((2,))])
    mod.forward(batch, is_train=False)
    np.testing.assert_allclose(mod.get_outputs()[0].asnumpy(), np.full((2, 4), 0.25), rtol=1e-6)
