"""Wrong calls users make, with the words a clear error must contain.

Each case is ``(id, code, words)``: ``code`` runs with ``mx``, ``np``, ``nd``, ``sym``,
``gluon``, ``nn`` in scope and must raise; the exception type must be MXNet 1.9.1's (recorded
by ``tests/compat/make_golden_reliability.py`` in ``golden/reliability/errors.json``) and the
message must contain every word of ``words`` (operator/layer, argument, values).
"""

from __future__ import annotations

__all__ = ["CASES", "SETUP"]

SETUP = """
import mxnet as mx, numpy as np
nd, sym, gluon = mx.nd, mx.sym, mx.gluon
nn = gluon.nn
"""

CASES: list[tuple[str, str, list[str]]] = [
    # -- NDArray operators: shapes -------------------------------------------------------
    ("nd_add_shapes", "nd.elemwise_add(nd.ones((2, 3)), nd.ones((3, 2)))",
     ["elemwise_add", "(2,3)", "(3,2)"]),
    ("nd_broadcast_add", "nd.broadcast_add(nd.ones((2, 3)), nd.ones((4, 3)))",
     ["broadcast_add", "(2,3)", "(4,3)"]),
    ("nd_plus_operator", "nd.ones((2, 3)) + nd.ones((4, 3))", ["(2,3)", "(4,3)"]),
    ("nd_dot_shapes", "nd.dot(nd.ones((2, 3)), nd.ones((2, 3)))", ["dot", "(2,3)"]),
    ("nd_batch_dot", "nd.batch_dot(nd.ones((2, 3, 4)), nd.ones((2, 5, 4)))",
     ["batch_dot", "(2,3,4)", "(2,5,4)"]),
    ("nd_reshape_size", "nd.ones((2, 3)).reshape((4, 2))", ["reshape", "(2,3)", "(4,2)"]),
    ("nd_concat_shapes", "nd.concat(nd.ones((2, 3)), nd.ones((3, 4)), dim=0)",
     ["concat", "(3,4)"]),
    ("nd_fc_weight", "nd.FullyConnected(nd.ones((2, 3)), nd.ones((4, 5)), nd.ones((4,)), "
     "num_hidden=4)", ["FullyConnected", "(4,5)"]),
    ("nd_conv_ndim", "nd.Convolution(nd.ones((2, 3)), nd.ones((4, 3, 3, 3)), nd.ones((4,)), "
     "kernel=(3, 3), num_filter=4)", ["Convolution", "(2,3)"]),
    ("nd_transpose_axes", "nd.transpose(nd.ones((2, 3)), axes=(0, 2))",
     ["transpose", "axes"]),
    ("nd_sum_axis", "nd.sum(nd.ones((2, 3)), axis=5)", ["sum", "axis", "5"]),
    ("nd_softmax_axis", "nd.softmax(nd.ones((2, 3)), axis=4)", ["softmax", "axis"]),
    ("nd_take_axis", "nd.take(nd.ones((2, 3)), nd.array([0]), axis=3)", ["take", "axis"]),
    ("nd_slice_axis", "nd.slice_axis(nd.ones((2, 3)), axis=2, begin=0, end=1)",
     ["slice_axis", "axis"]),
    ("nd_split_uneven", "nd.split(nd.ones((2, 3)), num_outputs=2, axis=1)",
     ["split", "num_outputs", "3"]),
    ("nd_broadcast_to", "nd.broadcast_to(nd.ones((2, 3)), shape=(4, 3))",
     ["broadcast_to", "(2,3)", "(4,3)"]),
    ("nd_where_shapes", "nd.where(nd.ones((2,)), nd.ones((3,)), nd.ones((3,)))",
     ["where", "(2,)", "(3,)"]),
    ("nd_pick_axis", "nd.pick(nd.ones((2, 3)), nd.array([0, 1]), axis=3)", ["pick", "axis"]),
    ("nd_one_hot_depth", "nd.one_hot(nd.array([1]), depth=-1)", ["one_hot", "depth"]),
    # -- NDArray: unknown or bad arguments -----------------------------------------------
    ("nd_unknown_kwarg", "nd.sum(nd.ones((2,)), foo=1)", ["sum", "foo"]),
    ("nd_unknown_kwarg_fc", "nd.FullyConnected(nd.ones((2, 3)), num_hidden=2, "
     "num_hiden=3)", ["FullyConnected", "num_hiden"]),
    ("nd_bad_enum", "nd.Activation(nd.ones((2,)), act_type='relu6')",
     ["Activation", "act_type", "relu6"]),
    ("nd_bad_int", "nd.FullyConnected(nd.ones((2, 3)), nd.ones((2, 3)), nd.ones((2,)), "
     "num_hidden='two')", ["FullyConnected", "num_hidden", "two"]),
    ("nd_missing_required", "nd.FullyConnected(nd.ones((2, 3)), nd.ones((2, 3)), "
     "nd.ones((2,)))", ["FullyConnected", "num_hidden"]),
    ("nd_bad_dtype", "nd.ones((2,), dtype='float13')", ["float13"]),
    ("nd_cast_dtype", "nd.cast(nd.ones((2,)), dtype='int3')", ["int3"]),
    ("nd_array_ragged", "nd.array([[1, 2], [3]])", []),
    ("nd_index_oob", "nd.ones((2, 3))[5]", ["5"]),
    ("nd_asscalar", "nd.ones((2,)).asscalar()", ["scalar"]),
    ("nd_setitem_shape", "a = nd.ones((2, 3)); a[:] = nd.ones((3, 2))", ["(3,2)"]),
    ("nd_copyto_shape", "nd.ones((2,)).copyto(nd.ones((3,)))", ["(2,)", "(3,)"]),
    ("nd_load_missing", "nd.load('/nonexistent/x.params')", ["/nonexistent/x.params"]),
    ("nd_save_bad", "nd.save('/tmp/_x.params', [1, 2])", []),
    ("nd_random_shape", "nd.random.uniform(0, 1, shape=(-2, 3))", []),
    # -- Symbol inference ---------------------------------------------------------------
    ("sym_infer_mismatch", "x = sym.Variable('x'); y = sym.Variable('y'); "
     "(x + y).infer_shape(x=(2, 3), y=(3, 2))", ["(2,3)", "(3,2)"]),
    ("sym_fc_infer", "d = sym.Variable('data'); w = sym.Variable('w'); "
     "sym.FullyConnected(d, w, num_hidden=4, no_bias=True).infer_shape(data=(2, 3), "
     "w=(5, 3))", ["FullyConnected", "(5,3)"]),
    ("sym_unknown_arg_name", "sym.Variable('x').infer_shape(y=(2,))", ["y"]),
    ("sym_unknown_kwarg", "sym.FullyConnected(sym.Variable('x'), num_hidden=2, foo=3)",
     ["FullyConnected", "foo"]),
    ("sym_bind_missing", "x = sym.Variable('x'); (x * 2).bind(mx.cpu(), {})", ["x"]),
    ("sym_simple_bind_noshape", "x = sym.Variable('x'); y = sym.Variable('y'); "
     "(x + y).simple_bind(mx.cpu(), x=(2,))", ["y"]),
    ("sym_load_json_bad", "sym.load_json('not json')", []),
    ("sym_load_missing", "sym.load('/nonexistent/a-symbol.json')", ["/nonexistent"]),
    ("sym_getitem_oob", "sym.Variable('x')[3]", ["3"]),
    ("sym_getitem_name", "sym.Group([sym.Variable('a'), sym.Variable('b')])['c']", ["c"]),
    ("sym_conv_kernel", "sym.Convolution(sym.Variable('d'), num_filter=2, kernel=(3, 3))"
     ".infer_shape(d=(1, 1, 2, 2))", ["Convolution"]),
    # -- Gluon ---------------------------------------------------------------------------
    ("gluon_dense_in_units", "n = nn.Dense(3, in_units=4); n.initialize(); "
     "n(nd.ones((2, 5)))", ["(2,5)", "4"]),
    ("gluon_dense_hybrid_in_units", "n = nn.Dense(3, in_units=4); n.initialize(); "
     "n.hybridize(); n(nd.ones((2, 5)))", ["5", "4"]),
    ("gluon_conv_input_ndim", "n = nn.Conv2D(4, 3); n.initialize(); n(nd.ones((2, 3)))",
     ["(2,3)"]),
    ("gluon_conv_channels", "n = nn.Conv2D(4, 3, in_channels=2); n.initialize(); "
     "n(nd.ones((1, 3, 8, 8)))", ["3", "2"]),
    ("gluon_uninitialized", "n = nn.Dense(3); n(nd.ones((2, 4)))",
     ["initialize"]),
    ("gluon_param_data_uninit", "n = nn.Dense(3, in_units=2); n.weight.data()",
     ["weight", "initialize"]),
    ("gluon_unknown_kwarg", "nn.Dense(3, foo=1)", ["foo"]),
    ("gluon_bad_activation", "n = nn.Dense(3, activation='relu7', in_units=2); "
     "n.initialize(); n(nd.ones((1, 2)))", ["relu7"]),
    ("gluon_load_missing_file", "n = nn.Dense(3, in_units=2); "
     "n.load_parameters('/nonexistent/p.params')", ["/nonexistent/p.params"]),
    ("gluon_load_wrong_names", "n = nn.Dense(3, in_units=2); n.initialize(); "
     "nd.save('/tmp/_w.params', {'x': nd.ones((1,))}); n.load_parameters('/tmp/_w.params')",
     ["weight"]),
    ("gluon_load_wrong_shape", "n = nn.Dense(3, in_units=2); n.initialize(); "
     "nd.save('/tmp/_s.params', {'weight': nd.ones((3, 5)), 'bias': nd.ones((3,))}); "
     "n.load_parameters('/tmp/_s.params')", ["weight", "(3, 2)", "(3, 5)"]),
    ("gluon_trainer_not_list", "gluon.Trainer(3, 'sgd')", []),
    ("gluon_trainer_bad_opt", "n = nn.Dense(3, in_units=2); n.initialize(); "
     "gluon.Trainer(n.collect_params(), 'sgdd')", ["sgdd"]),
    ("gluon_step_no_grad", "n = nn.Dense(3, in_units=2); n.initialize(); "
     "t = gluon.Trainer(n.collect_params(), 'sgd'); t.step(1)", ["Parameter", "backward"]),
    ("gluon_sequential_index", "s = nn.Sequential(); s.add(nn.Dense(2)); s[3]", []),
    ("gluon_symbolblock_inputs", "d = sym.Variable('data'); "
     "gluon.SymbolBlock(sym.FullyConnected(d, num_hidden=2), [sym.Variable('x')])", []),
    ("gluon_batchnorm_axis", "n = nn.BatchNorm(axis=5); n.initialize(); n(nd.ones((2, 3)))",
     ["axis"]),
    ("gluon_embedding_float_input", "n = nn.Embedding(4, 2); n.initialize(); "
     "n(nd.array([[7.0]])).asnumpy()", []),
    ("gluon_loss_shapes", "gluon.loss.L2Loss()(nd.ones((2, 3)), nd.ones((4, 5)))", []),
    # -- Module --------------------------------------------------------------------------
    ("module_forward_unbound", "d = sym.Variable('data'); m = mx.mod.Module("
     "sym.FullyConnected(d, num_hidden=2), label_names=None); "
     "m.forward(mx.io.DataBatch([nd.ones((1, 2))]))", ["bind"]),
    ("module_bad_data_name", "d = sym.Variable('data'); m = mx.mod.Module("
     "sym.FullyConnected(d, num_hidden=2), data_names=['x'], label_names=None)",
     ["x"]),
    ("module_update_no_opt", "d = sym.Variable('data'); m = mx.mod.Module("
     "sym.FullyConnected(d, num_hidden=2), label_names=None); "
     "m.bind([('data', (1, 2))]); m.init_params(); m.update()", ["optimizer"]),
    # -- io and kvstore ------------------------------------------------------------------
    ("io_ndarrayiter_len", "mx.io.NDArrayIter(np.ones((4, 2)), np.ones((3,)), batch_size=2)",
     []),
    ("io_recordio_missing", "mx.recordio.MXRecordIO('/nonexistent/a.rec', 'r')",
     ["/nonexistent/a.rec"]),
    ("io_recordio_flag", "mx.recordio.MXRecordIO('/tmp/_a.rec', 'x')", ["x"]),
    ("kv_pull_uninit", "kv = mx.kv.create('local'); a = nd.ones((2,)); kv.pull(9, out=a)",
     ["9"]),
    ("kv_init_twice_shape", "kv = mx.kv.create('local'); kv.init(3, nd.ones((2,))); "
     "kv.push(3, nd.ones((5,)))", []),
    ("kv_unknown_type", "mx.kv.create('nosuchstore')", ["nosuchstore"]),
    ("opt_unknown", "mx.optimizer.create('adamm')", ["adamm"]),
    ("init_unknown", "mx.init.create('xavierr')", ["xavierr"]),
    ("metric_unknown", "mx.metric.create('accc')", ["accc"]),
    # -- more NDArray operators ----------------------------------------------------------
    ("nd_elemwise_mul", "nd.elemwise_mul(nd.ones((2,)), nd.ones((3,)))",
     ["elemwise_mul", "(2,)", "(3,)"]),
    ("nd_elemwise_sub", "nd.elemwise_sub(nd.ones((2, 2)), nd.ones((2, 3)))",
     ["elemwise_sub"]),
    ("nd_broadcast_mul", "nd.broadcast_mul(nd.ones((2, 3)), nd.ones((2, 4)))",
     ["broadcast_mul", "(2,3)", "(2,4)"]),
    ("nd_broadcast_div", "nd.ones((5, 3)) / nd.ones((4, 3))", ["(5,3)", "(4,3)"]),
    ("nd_stack_shapes", "nd.stack(nd.ones((2,)), nd.ones((3,)))", ["stack"]),
    ("nd_tile_reps", "nd.tile(nd.ones((2,)), reps=(-1,))", ["tile"]),
    ("nd_repeat_axis", "nd.repeat(nd.ones((2,)), repeats=2, axis=3)", ["repeat", "axis"]),
    ("nd_flip_axis", "nd.flip(nd.ones((2,)), axis=4)", []),
    ("nd_expand_dims_axis", "nd.expand_dims(nd.ones((2,)), axis=5)",
     ["expand_dims", "axis"]),
    ("nd_squeeze_axis", "nd.squeeze(nd.ones((2, 3)), axis=0)", ["squeeze"]),
    ("nd_swapaxes", "nd.swapaxes(nd.ones((2, 3)), dim1=0, dim2=5)", ["swapax", "5"]),
    ("nd_mean_axis", "nd.mean(nd.ones((2, 3)), axis=(0, 4))", ["mean", "axis"]),
    ("nd_max_axis", "nd.max(nd.ones((2, 3)), axis=3)", ["max", "axis"]),
    ("nd_argmax_axis", "nd.argmax(nd.ones((2, 3)), axis=3)", ["argmax", "axis"]),
    ("nd_topk_axis", "nd.topk(nd.ones((2, 3)), axis=3)", ["topk", "axis"]),
    ("nd_norm_ord", "nd.norm(nd.ones((2, 3)), ord=3)", ["norm", "ord"]),
    ("nd_pooling_type", "nd.Pooling(nd.ones((1, 1, 4, 4)), kernel=(2, 2), "
     "pool_type='median')", ["Pooling", "pool_type", "median"]),
    ("nd_pooling_kernel_big", "nd.Pooling(nd.ones((1, 1, 2, 2)), kernel=(3, 3), "
     "pool_type='max')", ["Pooling"]),
    ("nd_batchnorm_gamma", "nd.BatchNorm(nd.ones((2, 3)), nd.ones((4,)), nd.ones((3,)), "
     "nd.ones((3,)), nd.ones((3,)))", ["BatchNorm", "(4,)"]),
    ("nd_embedding_weight", "nd.Embedding(nd.array([0]), nd.ones((4, 2)), input_dim=5, "
     "output_dim=2)", ["Embedding", "(4,2)"]),
    ("nd_softmax_output_label", "nd.SoftmaxOutput(nd.ones((2, 3)), nd.ones((4,)))",
     ["SoftmaxOutput"]),
    ("nd_linalg_gemm2", "nd.linalg.gemm2(nd.ones((2, 3)), nd.ones((2, 3)))", ["gemm2"]),
    ("nd_clip_missing", "nd.clip(nd.ones((2,)))", ["clip", "a_m"]),
    ("nd_leaky_type", "nd.LeakyReLU(nd.ones((2,)), act_type='bogus')",
     ["LeakyReLU", "act_type", "bogus"]),
    ("nd_dropout_mode", "nd.Dropout(nd.ones((2,)), mode='sometimes')",
     ["Dropout", "mode", "sometimes"]),
    ("nd_deconv_kernel", "nd.Deconvolution(nd.ones((1, 2, 4, 4)), nd.ones((2, 3, 3, 3)), "
     "num_filter=3, no_bias=True)", ["Deconvolution", "kernel"]),
    ("nd_gather_nd_shape", "nd.gather_nd(nd.ones((2, 3)), nd.array([[0, 1, 2, 3, 4]]))",
     []),
    ("nd_sequence_mask_len", "nd.SequenceMask(nd.ones((3, 2, 4)), nd.ones((5,)), "
     "use_sequence_length=True)", ["SequenceMask"]),
    ("nd_wait_bad_ctx", "nd.ones((2,), ctx=mx.Context('tpu', 0))", ["tpu"]),
    ("nd_random_normal_scale", "nd.random.normal(0, -1, shape=(2,)).asnumpy()", []),
    # -- more Gluon / Symbol -------------------------------------------------------------
    ("gluon_conv_layout", "nn.Conv2D(4, 3, layout='NCWH')", ["layout"]),
    ("gluon_dense_bad_units", "n = nn.Dense(-3, in_units=2); n.initialize()", []),
    ("gluon_export_not_hybridized", "n = nn.HybridSequential(); n.add(nn.Dense(2, "
     "in_units=2)); n.initialize(); n.export('/tmp/_never')", ["hybridize"]),
    ("gluon_hybrid_numpy_input", "n = nn.Dense(2, in_units=2); n.initialize(); "
     "n(np.ones((1, 2)))", []),
    ("gluon_param_set_data_shape", "n = nn.Dense(2, in_units=2); n.initialize(); "
     "n.weight.set_data(nd.ones((5, 5)))", []),
    ("sym_fc_missing_hidden", "sym.FullyConnected(sym.Variable('x'))", ["num_hidden"]),
    ("sym_compose_twice", "x = sym.Variable('x'); y = sym.Variable('y'); "
     "f = sym.FullyConnected(x, num_hidden=2, name='f'); f(data=y, foo=x)", ["not found"]),
    ("sym_concat_infer", "a = sym.Variable('a'); b = sym.Variable('b'); "
     "sym.concat(a, b, dim=1).infer_shape(a=(2, 3), b=(3, 3))", ["concat"]),
    ("sym_reshape_infer", "x = sym.Variable('x'); x.reshape((5, 5)).infer_shape(x=(2, 3))",
     ["reshape"]),
]
