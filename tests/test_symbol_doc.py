"""mx.symbol_doc (MXNet 1.x): SymbolDoc.get_output_shape, the <Op>Doc example classes run as
MXNet's tests/python/doctest/test_docstring.py runs them, and _build_doc."""

import doctest

import numpy

import mxnet as mx


def test_module_is_imported_with_mxnet():
    assert mx.symbol_doc.SymbolDoc.__name__ == "SymbolDoc"


def test_get_output_shape():
    c = mx.sym.Concat(mx.sym.var("a"), mx.sym.var("b"), dim=1, name="cat")
    shapes = mx.symbol_doc.SymbolDoc.get_output_shape(c, a=(2, 3), b=(2, 4))
    assert shapes == {"cat_output": (2, 7)}


def test_doc_examples_run_under_doctest():
    globs = {
        "np": numpy,
        "mx": mx,
        "test_utils": mx.test_utils,
        "SymbolDoc": mx.symbol_doc.SymbolDoc,
    }
    for name in dir(mx.symbol):
        globs.setdefault(name, getattr(mx.symbol, name))
    res = doctest.testmod(mx.symbol_doc, globs=globs, verbose=False, report=False)
    assert res.attempted >= 30 and res.failed == 0


def test_build_doc_appends_examples():
    doc = mx.symbol_doc._build_doc(
        "Flatten", "Flattens.", ["data"], ["NDArray-or-Symbol"], ["Input array."]
    )
    assert doc.startswith("Flattens.\n\n")
    assert "data : Symbol" in doc and "Returns\n-------\nSymbol" in doc
    assert ">>> op = Flatten(data=Variable('data'), name='flat')" in doc
