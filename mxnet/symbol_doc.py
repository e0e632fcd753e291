"""Extra, Python-only documentation of some symbolic operators (``mx.symbol_doc``).

MXNet 1.x keeps a small module of ``<Op>Doc`` classes deriving from :class:`SymbolDoc`; the
docstring of each class holds runnable examples for operator ``<Op>`` and
:func:`_build_doc` appends it to the operator's generated docstring. Its examples run under
``doctest`` with the operators (``Variable``, ``FullyConnected``...), ``SymbolDoc``,
``test_utils`` (``mx.test_utils``) and ``mx`` in scope, as MXNet's ``tests/python/doctest``
does (there ``np`` may be ``mx.sym.np``: the examples import NumPy as ``onp``).
"""

from __future__ import annotations

import re as _re

from .base import build_param_doc as _build_param_doc

__all__ = ["SymbolDoc"]


class SymbolDoc:
    """Base class of the per-operator documentation classes."""

    @staticmethod
    def get_output_shape(sym, **input_shapes):
        """Map each output name of ``sym`` to its inferred shape.

        Examples
        --------
        >>> import mxnet as mx
        >>> fc = mx.sym.FullyConnected(mx.sym.var('x'), num_hidden=4, name='fc')
        >>> mx.symbol_doc.SymbolDoc.get_output_shape(fc, x=(2, 3))
        {'fc_output': (2, 4)}
        """
        _, out_shapes, _ = sym.infer_shape(**input_shapes)
        return dict(zip(sym.list_outputs(), out_shapes))


class ActivationDoc(SymbolDoc):
    """
    Examples
    --------
    A hidden layer followed by a ReLU:

    >>> h = FullyConnected(data=Variable('data'), num_hidden=16, name='hid')
    >>> h = Activation(data=h, act_type='relu', name='hid_relu')
    >>> h
    <Symbol hid_relu>

    Each activation type against its NumPy formula:

    >>> import numpy as onp
    >>> x = test_utils.random_arrays((2, 5))
    >>> formulas = {'relu': lambda v: onp.maximum(v, 0),
    ...             'sigmoid': lambda v: 1 / (1 + onp.exp(-v)),
    ...             'tanh': onp.tanh,
    ...             'softrelu': lambda v: onp.log1p(onp.exp(v))}
    >>> for kind, f in formulas.items():
    ...     y = test_utils.simple_forward(Activation(act_type=kind, name='a'), a_data=x)
    ...     print(kind, test_utils.almost_equal(y, f(x), rtol=1e-5, atol=1e-6))
    relu True
    sigmoid True
    tanh True
    softrelu True
    """


class DropoutDoc(SymbolDoc):
    """
    Examples
    --------
    Outside training Dropout passes its input through; in training it zeroes entries with
    probability ``p`` and scales the others by ``1 / (1 - p)``:

    >>> import numpy as onp
    >>> x = onp.ones((50, 50), dtype='float32')
    >>> op = Dropout(p=0.5, name='drop')
    >>> bool((test_utils.simple_forward(op, drop_data=x, is_train=False) == x).all())
    True
    >>> y = test_utils.simple_forward(op, drop_data=x, is_train=True)
    >>> sorted(set(onp.unique(y).tolist()))
    [0.0, 2.0]
    """


class EmbeddingDoc(SymbolDoc):
    """
    Examples
    --------
    Indices of a (sequence, batch) array become vectors of ``output_dim`` values:

    >>> op = Embedding(data=Variable('tokens'), input_dim=30, output_dim=8, name='emb')
    >>> SymbolDoc.get_output_shape(op, tokens=(7, 4))
    {'emb_output': (7, 4, 8)}

    The output rows are the weight rows picked by the indices:

    >>> import numpy as onp
    >>> table = test_utils.random_arrays((30, 8))
    >>> idx = onp.array([3, 0, 29])
    >>> y = test_utils.simple_forward(Embedding(input_dim=30, output_dim=8, name='e'),
    ...                               e_data=idx, e_weight=table)
    >>> test_utils.almost_equal(y, table[idx])
    True
    """


class FlattenDoc(SymbolDoc):
    """
    Examples
    --------
    Flatten keeps the first axis and merges the others (e.g. before FullyConnected):

    >>> op = Flatten(data=Variable('data'), name='flat')
    >>> SymbolDoc.get_output_shape(op, data=(2, 3, 4, 5))
    {'flat_output': (2, 60)}
    >>> import numpy as onp
    >>> for dims in [(2, 3, 4), (2, 3), (2,)]:
    ...     y = test_utils.simple_forward(Flatten(name='f'), f_data=onp.zeros(dims))
    ...     print(dims, y.shape)
    (2, 3, 4) (2, 12)
    (2, 3) (2, 3)
    (2,) (2, 1)
    """


class FullyConnectedDoc(SymbolDoc):
    """
    Examples
    --------
    A layer of 32 outputs and the shape it gives a batch of 10 vectors:

    >>> op = FullyConnected(data=Variable('data'), num_hidden=32, name='fc1')
    >>> op
    <Symbol fc1>
    >>> SymbolDoc.get_output_shape(op, data=(10, 100))
    {'fc1_output': (10, 32)}

    The result is ``x . w^T + b``:

    >>> x, w, b = test_utils.random_arrays((5, 3), (4, 3), (4,))
    >>> y = test_utils.simple_forward(FullyConnected(num_hidden=4, name='fc'),
    ...                               fc_data=x, fc_weight=w, fc_bias=b)
    >>> test_utils.almost_equal(y, x.dot(w.T) + b, rtol=1e-5, atol=1e-6)
    True
    """


class ConcatDoc(SymbolDoc):
    """
    Examples
    --------
    Inputs are joined along ``dim``; the other dimensions must agree:

    >>> c = Concat(Variable('a'), Variable('b'), dim=1, name='cat')
    >>> SymbolDoc.get_output_shape(c, a=(8, 2, 3), b=(8, 5, 3))
    {'cat_output': (8, 7, 3)}
    """


class BroadcastPlusDoc(SymbolDoc):
    """
    Examples
    --------
    Axes of size 1 are broadcast to the other operand's size:

    >>> c = broadcast_plus(Variable('a'), Variable('b'))
    >>> ex = c.bind(mx.cpu(), args={'a': mx.nd.ones((2, 1)), 'b': mx.nd.ones((1, 3))})
    >>> ex.forward()[0].asnumpy().tolist()
    [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]
    """


def _build_doc(
    func_name, desc, arg_names, arg_types, arg_desc, key_var_num_args=None, ret_type=None
):
    """The docstring of symbolic function ``func_name``: description, parameters, the
    ``name`` argument, the return value and the examples of ``<func_name>Doc`` if any."""
    param_str = _build_param_doc(arg_names, arg_types, arg_desc)
    if key_var_num_args:
        desc += "\nThis function support variable length of positional input."
    doc_str = (
        f"{desc}\n\n{param_str}\nname : string, optional.\n"
        "    Name of the resulting symbol.\n\nReturns\n-------\nSymbol\n"
        "    The result symbol."
    )
    extra = "\n" + "\n".join(
        c.__doc__ for c in SymbolDoc.__subclasses__() if c.__name__ == f"{func_name}Doc"
    )
    doc_str += _re.sub("    ", "", extra)
    return _re.sub("NDArray-or-Symbol", "Symbol", doc_str)
