"""mx.viz.print_summary and plot_network (expected text from MXNet 1.9.1)."""

import sys
import types

import pytest

import mxnet.symbol as sym
from mxnet import visualization as viz
from mxnet._op import has_op

needs_ops = pytest.mark.skipif(
    not all(has_op(o) for o in ("FullyConnected", "Activation", "SoftmaxOutput", "Convolution",
                                "BatchNorm", "Pooling", "Flatten")), reason="nn ops missing")

MLP_TABLE = """\
________________________________________________________________________________________________________________________
Layer (type)                                        Output Shape            Param #     Previous Layer                  
========================================================================================================================
data(null)                                          100                     0                                           
________________________________________________________________________________________________________________________
fc1(FullyConnected)                                 128                     12928       data                            
________________________________________________________________________________________________________________________
relu1(Activation)                                   128                     0           fc1                             
________________________________________________________________________________________________________________________
fc2(FullyConnected)                                 10                      1290        relu1                           
________________________________________________________________________________________________________________________
out(SoftmaxOutput)                                  10                      0           fc2                             
========================================================================================================================
Total params: 14218
________________________________________________________________________________________________________________________
"""  # noqa: W291

CONV_TAIL = """\
_plus0(elemwise_add)                                36                      0           flat                            
                                                                                        flat                            
========================================================================================================================
Total params: 120
"""  # noqa: W291


def _mlp():
    net = sym.Variable('data')
    net = sym.FullyConnected(data=net, name='fc1', num_hidden=128)
    net = sym.Activation(data=net, name='relu1', act_type="relu")
    net = sym.FullyConnected(data=net, name='fc2', num_hidden=10)
    return sym.SoftmaxOutput(data=net, name='out')


def _conv():
    d = sym.Variable('data')
    c = sym.Convolution(d, kernel=(3, 3), num_filter=4, name='conv')
    b = sym.BatchNorm(c, name='bn')
    a = sym.Activation(b, act_type='relu', name='act')
    p = sym.Pooling(a, kernel=(2, 2), stride=(2, 2), pool_type='max', name='pool')
    f = sym.Flatten(p, name='flat')
    return sym.elemwise_add(f, f, name='_plus0')


@needs_ops
def test_print_summary_matches_mxnet(capsys):
    viz.print_summary(_mlp(), shape={'data': (1, 100)})
    assert capsys.readouterr().out == MLP_TABLE
    viz.print_summary(_conv(), shape={'data': (2, 3, 8, 8)})
    out = capsys.readouterr().out
    assert "bn(BatchNorm)                                       4x6x6                   8" in out
    assert CONV_TAIL in out
    viz.print_summary(_mlp())
    assert "Total params: 138" in capsys.readouterr().out


class _FakeDigraph:
    def __init__(self, name, format):
        self.name, self.format, self.nodes, self.edges = name, format, [], []

    def node(self, name, label, **attr):
        self.nodes.append((name, label, attr))

    def edge(self, tail_name, head_name, **attr):
        self.edges.append((tail_name, head_name, attr))


@needs_ops
def test_plot_network_labels_and_colors(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", types.SimpleNamespace(Digraph=_FakeDigraph))
    dot = viz.plot_network(_conv(), shape={'data': (2, 3, 8, 8)})
    labels = {n: (lab, a["fillcolor"], a["shape"]) for n, lab, a in dot.nodes}
    assert labels == {
        'data': ('data', '#8dd3c7', 'oval'), 'conv': ('Convolution\n3x3/1, 4', '#fb8072', 'box'),
        'bn': ('bn', '#bebada', 'box'), 'act': ('Activation\nrelu', '#ffffb3', 'box'),
        'pool': ('Pooling\nmax, 2x2/2x2', '#80b1d3', 'box'), 'flat': ('flat', '#fdb462', 'box'),
        '_plus0': ('_plus0', '#fccde5', 'box')}
    edges = [(t, h, a["label"]) for t, h, a in dot.edges]
    assert edges == [('conv', 'data', '3x8x8'), ('bn', 'conv', '4x6x6'),
                     ('act', 'bn', '4x6x6'), ('pool', 'act', '4x6x6'),
                     ('flat', 'pool', '4x3x3'), ('_plus0', 'flat', '36'),
                     ('_plus0', 'flat', '36')]
    assert all(a["dir"] == "back" and a["arrowtail"] == "open" for _, _, a in dot.edges)


def test_plot_network_without_graphviz(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    with pytest.raises(ImportError, match="pip install graphviz"):
        viz.plot_network(sym.Variable('x'))
    with pytest.raises(TypeError):
        viz.print_summary("not a symbol")
