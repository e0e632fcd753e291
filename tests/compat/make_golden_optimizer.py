"""Write golden files for optimizers, update operators, lr schedulers, metrics and
initializers with the REAL MXNet 1.9.1 (the oracle).

Run once under the oracle python from the repository root::

    /root/.cache/mxnet-oracle/bin/python tests/compat/make_golden_optimizer.py

Outputs go to tests/compat/golden/optimizer/. Tests load them without the oracle.
"""
import json
import logging
import os

import numpy as np

import mxnet as mx

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'golden', 'optimizer')
SHAPES = [(3, 4), (5,)]
NAMES = {0: 'fc_weight', 1: 'fc_bias'}

# (id, optimizer name, kwargs, options); options: names (param_idx2name), dtype, direct
OPT_CASES = [
    ('sgd', 'sgd', {'learning_rate': 0.1}, {}),
    ('sgd_mom', 'sgd', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01,
                        'rescale_grad': 0.5, 'clip_gradient': 0.3}, {}),
    ('sgd_mom_direct', 'sgd', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01}, {'direct': 1}),
    ('sgd_names', 'sgd', {'learning_rate': 0.1, 'momentum': 0.5, 'wd': 0.1}, {'names': 1}),
    ('sgd_sched', 'sgd', {'momentum': 0.9, 'learning_rate': 0.2, 'wd': 0.01,
                          'lr_scheduler': ('FactorScheduler', {'step': 3, 'factor': 0.5})}, {}),
    ('sgd_mp', 'sgd', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01,
                       'multi_precision': True}, {'dtype': 'float16'}),
    ('nag', 'nag', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01}, {}),
    ('nag_nomom', 'nag', {'learning_rate': 0.1, 'wd': 0.01, 'clip_gradient': 0.5}, {}),
    ('signum', 'signum', {}, {}),
    ('signum_wd', 'signum', {'momentum': 0.8, 'wd_lh': 0.01, 'wd': 0.01}, {}),
    ('signsgd', 'signum', {'momentum': 0.0, 'wd': 0.01}, {}),
    ('ftml', 'ftml', {'learning_rate': 0.01, 'wd': 0.01}, {}),
    ('lars', 'lars', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01, 'eta': 0.01},
     {'names': 1}),
    ('lars_direct', 'lars', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01, 'eta': 0.01},
     {'names': 1, 'direct': 1}),
    ('lamb', 'lamb', {'wd': 0.01}, {}),
    ('lamb_direct', 'lamb', {'wd': 0.01, 'lower_bound': 0.1, 'upper_bound': 2.0,
                             'learning_rate': 0.01}, {'direct': 1}),
    ('lamb_nobc', 'lamb', {'wd': 0.01, 'bias_correction': False}, {'direct': 1}),
    ('lbsgd', 'lbsgd', {'learning_rate': 0.1, 'momentum': 0.9, 'wd': 0.01}, {}),
    ('lbsgd_scale', 'lbsgd', {'learning_rate': 0.1, 'momentum': 0.9, 'batch_scale': 2,
                              'warmup_epochs': 1, 'updates_per_epoch': 4}, {}),
    ('dcasgd', 'dcasgd', {'learning_rate': 0.1, 'wd': 0.01, 'lamda': 0.1}, {}),
    ('adam', 'adam', {}, {}),
    ('adam_wd', 'adam', {'learning_rate': 0.01, 'wd': 0.01, 'clip_gradient': 0.5,
                         'rescale_grad': 2.0}, {}),
    ('adagrad', 'adagrad', {'learning_rate': 0.1, 'wd': 0.01}, {}),
    ('rmsprop', 'rmsprop', {'learning_rate': 0.01}, {}),
    ('rmsprop_centered', 'rmsprop', {'learning_rate': 0.01, 'centered': True, 'wd': 0.01,
                                     'clip_weights': 0.5}, {}),
    ('adadelta', 'adadelta', {'wd': 0.01}, {}),
    ('ftrl', 'ftrl', {}, {}),
    ('ftrl_wd', 'ftrl', {'lamda1': 0.001, 'wd': 0.01, 'learning_rate': 0.5}, {}),
    ('adamax', 'adamax', {'wd': 0.01}, {}),
    ('nadam', 'nadam', {'wd': 0.01}, {}),
]


def _make_kwargs(kw):
    kw = dict(kw)
    if 'lr_scheduler' in kw:
        cls, args = kw['lr_scheduler']
        kw['lr_scheduler'] = getattr(mx.lr_scheduler, cls)(**args)
    return kw


def case_inputs(n, dtype):
    """Initial weights and 10 steps of gradients of case ``n`` (tests rebuild them)."""
    rng = np.random.RandomState(1000 + n)
    w0 = [rng.uniform(-1, 1, s).astype(dtype) for s in SHAPES]
    grads = [[rng.uniform(-1, 1, s).astype(dtype) for s in SHAPES] for _ in range(10)]
    return w0, grads


def write_optimizers():
    arrays = {}
    meta = []
    for n, (cid, name, kw, opts) in enumerate(OPT_CASES):
        dtype = opts.get('dtype', 'float32')
        w0, grads = case_inputs(n, dtype)
        extra = {}
        if opts.get('names'):
            extra['param_idx2name'] = NAMES
        opt = mx.optimizer.create(name, **_make_kwargs(kw), **extra)
        weights = [mx.nd.array(w, dtype=dtype) for w in w0]
        upd = mx.optimizer.get_updater(opt)
        states = {}
        for step in range(10):
            g = [mx.nd.array(x, dtype=dtype) for x in grads[step]]
            if opts.get('direct'):
                for i in range(2):
                    if i not in states:
                        states[i] = opt.create_state_multi_precision(i, weights[i])
                    opt.update_multi_precision(i, weights[i], g[i], states[i])
            else:
                upd([0, 1], g, weights)
            for i in range(2):
                arrays['%s/w%d_%d' % (cid, step + 1, i)] = weights[i].asnumpy()
        meta.append({'n': n, 'id': cid, 'name': name, 'kwargs': kw, 'opts': opts,
                     'num_update': opt.num_update})
    np.savez_compressed(os.path.join(OUT, 'optimizers.npz'), **arrays)
    with open(os.path.join(OUT, 'optimizers.json'), 'w') as f:
        json.dump(meta, f, indent=1)


def write_states():
    """Real .states files (Module and Trainer shapes) plus the continuation to match."""
    rng = np.random.RandomState(7)
    arrays = {}
    for cid, name, kw in (('adam', 'adam', {'learning_rate': 0.01, 'wd': 0.01}),
                          ('sgd_mom', 'sgd', {'learning_rate': 0.1, 'momentum': 0.9})):
        opt = mx.optimizer.create(name, param_idx2name=NAMES, **kw)
        upd = mx.optimizer.get_updater(opt)
        weights = [mx.nd.array(rng.uniform(-1, 1, s)) for s in SHAPES]
        for step in range(6):
            g = [mx.nd.array(rng.uniform(-1, 1, s)) for s in SHAPES]
            if step == 3:
                for i in range(2):
                    arrays['%s/w3_%d' % (cid, i)] = weights[i].asnumpy()
                with open(os.path.join(OUT, '%s.states' % cid), 'wb') as f:
                    f.write(upd.get_states(dump_optimizer=False))
                with open(os.path.join(OUT, '%s_opt.states' % cid), 'wb') as f:
                    f.write(upd.get_states(dump_optimizer=True))
            if step >= 3:
                for i in range(2):
                    arrays['%s/g%d_%d' % (cid, step, i)] = g[i].asnumpy()
            upd([0, 1], g, weights)
        for i in range(2):
            arrays['%s/w6_%d' % (cid, i)] = weights[i].asnumpy()
    np.savez_compressed(os.path.join(OUT, 'states.npz'), **arrays)


def _op_cases():
    f = mx.nd
    cases = [
        ('sgd_update', ['weight', 'grad'], {'lr': 0.1, 'wd': 0.01}),
        ('sgd_update', ['weight', 'grad'], {'lr': 0.1, 'rescale_grad': 2.0, 'clip_gradient': 0.5}),
        ('sgd_mom_update', ['weight', 'grad', 'mom'], {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}),
        ('mp_sgd_update', ['weight16', 'grad16', 'weight32'], {'lr': 0.1, 'wd': 0.01}),
        ('mp_sgd_mom_update', ['weight16', 'grad16', 'mom', 'weight32'],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}),
        ('nag_mom_update', ['weight', 'grad', 'mom'], {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01,
                                                        'clip_gradient': 0.5}),
        ('mp_nag_mom_update', ['weight16', 'grad16', 'mom', 'weight32'],
         {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01}),
        ('adam_update', ['weight', 'grad', 'mean', 'pos'],
         {'lr': 0.01, 'wd': 0.01, 'clip_gradient': 0.6, 'rescale_grad': 1.5}),
        ('rmsprop_update', ['weight', 'grad', 'pos'], {'lr': 0.01, 'wd': 0.01,
                                                        'clip_weights': 0.5}),
        ('rmspropalex_update', ['weight', 'grad', 'pos', 'mean', 'mom'],
         {'lr': 0.01, 'wd': 0.01, 'clip_gradient': 0.5}),
        ('ftrl_update', ['weight', 'grad', 'mean', 'pos'], {'lr': 0.1, 'wd': 0.01,
                                                             'lamda1': 0.001}),
        ('ftml_update', ['weight', 'grad', 'pos', 'pos', 'mean'], {'lr': 0.01, 't': 3,
                                                                    'wd': 0.01}),
        ('signsgd_update', ['weight', 'grad'], {'lr': 0.1, 'wd': 0.01}),
        ('signum_update', ['weight', 'grad', 'mom'], {'lr': 0.1, 'momentum': 0.9, 'wd': 0.01,
                                                       'wd_lh': 0.02}),
        ('lamb_update_phase1', ['weight', 'grad', 'mean', 'pos'], {'t': 2, 'wd': 0.01}),
        ('lamb_update_phase1', ['weight', 'grad', 'mean', 'pos'],
         {'t': 2, 'wd': 0.01, 'bias_correction': False, 'clip_gradient': 0.5}),
        ('lamb_update_phase2', ['weight', 'grad', 'r1', 'r2'], {'lr': 0.1}),
        ('lamb_update_phase2', ['weight', 'grad', 'r1', 'r2'], {'lr': 0.1, 'lower_bound': 5.0,
                                                                 'upper_bound': 8.0}),
        ('mp_lamb_update_phase1', ['weight16', 'grad16', 'mean', 'pos', 'weight32'],
         {'t': 2, 'wd': 0.01}),
        ('mp_lamb_update_phase2', ['weight16', 'grad', 'r1', 'r2', 'weight32'], {'lr': 0.1}),
        ('_adamw_update', ['weight', 'grad', 'mean', 'pos', 'scale'],
         {'lr': 0.01, 'eta': 0.5, 'wd': 0.01}),
        ('_adamw_update', ['weight', 'grad', 'mean', 'pos', 'zero1'],
         {'lr': 0.01, 'eta': 0.5, 'wd': 0.01}),
        ('_mp_adamw_update', ['weight16', 'grad16', 'mean', 'pos', 'weight32', 'scale'],
         {'lr': 0.01, 'eta': 0.5, 'wd': 0.01}),
        ('multi_sgd_update', ['weight', 'grad', 'weight', 'grad'],
         {'lrs': (0.1, 0.2), 'wds': (0.01, 0.0), 'num_weights': 2}),
        ('multi_sgd_mom_update', ['weight', 'grad', 'mom', 'weight', 'grad', 'mom'],
         {'lrs': (0.1, 0.2), 'wds': (0.01, 0.0), 'momentum': 0.9, 'num_weights': 2}),
        ('multi_mp_sgd_update', ['weight16', 'grad16', 'weight32'],
         {'lrs': (0.1,), 'wds': (0.01,), 'num_weights': 1}),
        ('multi_mp_sgd_mom_update', ['weight16', 'grad16', 'mom', 'weight32'],
         {'lrs': (0.1,), 'wds': (0.01,), 'momentum': 0.9, 'num_weights': 1}),
        ('preloaded_multi_sgd_update', ['weight', 'grad', 'weight', 'grad', 'lrs2', 'wds2'],
         {'num_weights': 2}),
        ('preloaded_multi_sgd_mom_update', ['weight', 'grad', 'mom', 'lrs1', 'wds1'],
         {'num_weights': 1, 'momentum': 0.9}),
        ('preloaded_multi_mp_sgd_update', ['weight16', 'grad16', 'weight32', 'lrs1', 'wds1'],
         {'num_weights': 1}),
        ('preloaded_multi_mp_sgd_mom_update',
         ['weight16', 'grad16', 'mom', 'weight32', 'lrs1', 'wds1'],
         {'num_weights': 1, 'momentum': 0.9}),
        ('multi_sum_sq', ['weight', 'grad', 'mom'], {'num_arrays': 3}),
        ('multi_lars', ['lrs2', 'sq2', 'sq2b', 'wds2'], {'eta': 0.01, 'eps': 1e-6,
                                                          'rescale_grad': 0.5}),
    ]
    del f
    return cases


def write_ops():
    rng = np.random.RandomState(3)
    base = {
        'weight': rng.uniform(-1, 1, (4, 5)).astype('float32'),
        'grad': rng.uniform(-1, 1, (4, 5)).astype('float32'),
        'mom': rng.uniform(-0.1, 0.1, (4, 5)).astype('float32'),
        'mean': rng.uniform(-0.1, 0.1, (4, 5)).astype('float32'),
        'pos': rng.uniform(0.01, 0.2, (4, 5)).astype('float32'),
        'r1': np.array([3.0], 'float32'), 'r2': np.array([6.0], 'float32'),
        'scale': np.array([0.5], 'float32'), 'zero1': np.array([0.0], 'float32'),
        'lrs2': np.array([0.1, 0.2], 'float32'), 'wds2': np.array([0.01, 0.0], 'float32'),
        'lrs1': np.array([0.1], 'float32'), 'wds1': np.array([0.01], 'float32'),
        'sq2': np.array([4.0, 0.0], 'float32'), 'sq2b': np.array([2.0, 3.0], 'float32'),
        'hist': rng.uniform(0.01, 0.2, (4, 1)).astype('float32'),
    }
    base['weight32'] = base['weight'].copy()
    base['weight16'] = base['weight'].astype('float16')
    base['grad16'] = base['grad'].astype('float16')
    arrays = {'in/' + k: v for k, v in base.items()}
    meta = []
    for n, (op, ins, params) in enumerate(_op_cases()):
        if op.startswith('_contrib_'):
            fn = getattr(mx.nd.contrib, op[len('_contrib_'):])
        else:
            fn = getattr(mx.nd, op, None) or getattr(mx.nd._internal, op)
        nds = [mx.nd.array(base[k], dtype=base[k].dtype) for k in ins]
        if 'num_weights' in params:
            k = (len(ins) - (2 if op.startswith('preloaded') else 0)) // params['num_weights']
            outs = [mx.nd.zeros(nds[i].shape, dtype=nds[i].dtype)
                    for i in range(0, k * params['num_weights'], k)]
            out = fn(*nds, out=outs, **params)
        else:
            out = fn(*nds, **params)
        outs = out if isinstance(out, list) else [out]
        for j, o in enumerate(outs):
            arrays['%d/out%d' % (n, j)] = o.asnumpy()
        for j, a in enumerate(nds):
            arrays['%d/in%d' % (n, j)] = a.asnumpy()
        meta.append({'op': op, 'inputs': ins, 'params': params, 'num_out': len(outs)})
    np.savez_compressed(os.path.join(OUT, 'ops.npz'), **arrays)
    with open(os.path.join(OUT, 'ops.json'), 'w') as f:
        json.dump(meta, f, indent=1)


SCHED_CASES = [
    ('FactorScheduler', {'step': 5, 'factor': 0.5, 'base_lr': 1.0}),
    ('FactorScheduler', {'step': 3, 'factor': 0.1, 'stop_factor_lr': 1e-4, 'base_lr': 0.5,
                         'warmup_steps': 4, 'warmup_begin_lr': 0.1}),
    ('MultiFactorScheduler', {'step': [3, 7, 20], 'factor': 0.5, 'base_lr': 0.1}),
    ('MultiFactorScheduler', {'step': [8, 12], 'factor': 0.3, 'base_lr': 0.2,
                              'warmup_steps': 5, 'warmup_mode': 'constant',
                              'warmup_begin_lr': 0.01}),
    ('PolyScheduler', {'max_update': 30, 'base_lr': 0.1, 'pwr': 2}),
    ('PolyScheduler', {'max_update': 30, 'base_lr': 0.1, 'pwr': 1, 'final_lr': 0.01,
                       'warmup_steps': 5}),
    ('CosineScheduler', {'max_update': 25, 'base_lr': 0.1, 'final_lr': 0.001}),
    ('CosineScheduler', {'max_update': 25, 'base_lr': 0.1, 'warmup_steps': 6,
                         'warmup_begin_lr': 0.02}),
]


def write_schedulers():
    res = []
    for cls, kw in SCHED_CASES:
        s = getattr(mx.lr_scheduler, cls)(**kw)
        vals = [s(i) for i in range(40)]
        res.append({'cls': cls, 'kwargs': kw, 'values': vals})
    with open(os.path.join(OUT, 'lr_scheduler.json'), 'w') as f:
        json.dump(res, f, indent=1)


def write_initializers():
    res = {}
    inits = {
        'uniform': mx.init.Uniform(0.3), 'normal': mx.init.Normal(0.5),
        'xavier': mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2),
        'msra': mx.init.MSRAPrelu(), 'constant': mx.init.Constant(0.7),
        'mixed': mx.init.Mixed(['bias', '.*'], [mx.init.Zero(), mx.init.Uniform(0.1)]),
        'orth': mx.init.Orthogonal(), 'bilinear': mx.init.Bilinear(),
        'lstmbias': mx.init.LSTMBias(forget_bias=2.0), 'one': mx.init.One(),
        'zero': mx.init.Zero(),
    }
    res['dumps'] = {k: v.dumps() for k, v in inits.items() if k != 'mixed'}
    vals = {}
    for name, shape in [('x_weight', (2, 3)), ('x_bias', (4,)), ('x_gamma', (3,)),
                        ('x_beta', (3,)), ('x_moving_mean', (3,)), ('x_moving_var', (3,)),
                        ('x_moving_inv_var', (3,)), ('x_moving_avg', (3,)),
                        ('x_min', (2,)), ('x_max', (2,))]:
        arr = mx.nd.zeros(shape) + 5
        try:
            mx.init.Constant(0.25)(mx.init.InitDesc(name), arr)
            vals[name] = arr.asnumpy().tolist()
        except Exception as e:  # noqa: BLE001
            vals[name] = 'error: %s: %s' % (type(e).__name__, e)
    res['default_rules'] = vals
    arr = mx.nd.zeros((1, 2, 4, 4))
    mx.init.Bilinear()(mx.init.InitDesc('up_weight'), arr)
    res['bilinear'] = arr.asnumpy().tolist()
    arr = mx.nd.zeros((8, 3))
    mx.init.LSTMBias(forget_bias=2.0)(mx.init.InitDesc('lstm_bias'), arr)
    res['lstmbias'] = arr.asnumpy().tolist()
    arr = mx.nd.zeros((3,))
    mx.init.Xavier()(mx.init.InitDesc('fc_weight', attrs={'__init__': mx.init.Constant(
        0.5).dumps()}), arr)
    res['attr_init'] = arr.asnumpy().tolist()
    with open(os.path.join(OUT, 'initializer.json'), 'w') as f:
        json.dump(res, f, indent=1)


METRIC_CASES = [
    ('acc', {}, 'cls'), ('acc', {'axis': 1}, 'cls_int'), ('top_k_acc', {'top_k': 3}, 'cls'),
    ('f1', {}, 'bin'), ('f1', {'average': 'micro'}, 'bin'), ('mcc', {}, 'bin'),
    ('mcc', {'average': 'micro'}, 'bin'), ('perplexity', {'ignore_label': None}, 'cls'),
    ('perplexity', {'ignore_label': 2}, 'cls'), ('mae', {}, 'reg'), ('mse', {}, 'reg'),
    ('rmse', {}, 'reg'), ('ce', {}, 'cls'), ('nll_loss', {}, 'cls'), ('pearsonr', {}, 'reg'),
    ('pearsonr', {'average': 'micro'}, 'reg'), ('pcc', {}, 'cls'), ('loss', {}, 'reg'),
    (['acc', 'ce'], {}, 'cls'),
]


def metric_batches(kind, n):
    """Three (labels, preds) batches of kind ``kind`` for case ``n`` (tests rebuild them)."""
    rng = np.random.RandomState(500 + n)
    out = []
    for _ in range(3):
        if kind in ('cls', 'cls_int', 'bin'):
            c = 2 if kind == 'bin' else 5
            p = rng.uniform(0.01, 1, (8, c)).astype('float32')
            p /= p.sum(axis=1, keepdims=True)
            lab = rng.randint(0, c, (8,)).astype('float32')
            if kind == 'cls_int':
                p = p.argmax(axis=1).astype('float32')
                p[:3] = lab[:3]
            out.append(([lab], [p]))
        else:
            lab = rng.uniform(-1, 1, (6,)).astype('float32')
            p = (lab + rng.uniform(-0.5, 0.5, (6,))).astype('float32')
            out.append(([lab, lab[::-1].copy()], [p, p[::-1].copy()]))
    return out


def write_metrics():
    res = []
    for n, (name, kw, kind) in enumerate(METRIC_CASES):
        m = mx.metric.create(name, **kw)
        rec = {'name': name, 'kwargs': kw, 'kind': kind, 'n': n, 'steps': []}
        for labels, preds in metric_batches(kind, n):
            m.update([mx.nd.array(x) for x in labels], [mx.nd.array(x) for x in preds])
            rec['steps'].append({'get': m.get(), 'global': m.get_global(),
                                 'nv': m.get_name_value()})
            if len(rec['steps']) == 2:
                m.reset_local()
        rec['str'] = str(m)
        res.append(rec)
    with open(os.path.join(OUT, 'metric.json'), 'w') as f:
        json.dump(res, f, indent=1, default=float)


def main():
    logging.disable(logging.CRITICAL)
    os.makedirs(OUT, exist_ok=True)
    write_ops()
    write_optimizers()
    write_states()
    write_schedulers()
    write_initializers()
    write_metrics()


if __name__ == '__main__':
    main()
