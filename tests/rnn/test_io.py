"""mx.rnn.encode_sentences, BucketSentenceIter and the RNN checkpoint helpers."""

import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import rnn

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "rnn")
with open(os.path.join(GOLDEN, "meta.json")) as _f:
    META = json.load(_f)


def test_encode_sentences_matches_mxnet():
    res, vocab = rnn.encode_sentences([["a", "b", "c"], ["b", "d"]], invalid_label=0,
                                      start_label=0)
    assert [res, vocab] == META["encode"]
    res, vocab = rnn.encode_sentences([["a", "z"]], vocab={"a": 1, "<unk>": 2},
                                      unknown_token="<unk>")
    assert [res, vocab] == META["encode_unk"]
    with pytest.raises(AssertionError, match="Unknown token"):
        rnn.encode_sentences([["q"]], vocab={"a": 1})


def test_bucket_sentence_iter(capsys):
    sents = [[1, 2, 3], [4, 5, 6], [1, 2], [3, 4], [5, 6, 7, 8, 9]]
    it = rnn.BucketSentenceIter(sents, 2, invalid_label=0)
    assert "discarded 1 sentences" in capsys.readouterr().out
    assert it.buckets == [2, 3] and it.default_bucket_key == 3
    assert it.provide_data[0].shape == (2, 3) and it.provide_label[0].name == "softmax_label"
    batches = list(it)
    assert sorted(b.bucket_key for b in batches) == [2, 3]
    for b in batches:
        d, lab = b.data[0].asnumpy(), b.label[0].asnumpy()
        assert d.shape == (2, b.bucket_key)
        np.testing.assert_array_equal(lab[:, :-1], d[:, 1:])
        assert (lab[:, -1] == 0).all()
    tn = rnn.BucketSentenceIter(sents[:4], 2, buckets=[2, 3, 5], layout="TN")
    assert tn.buckets == [2, 3] and tn.provide_data[0].shape == (3, 2)
    assert {b.data[0].shape for b in tn} == {(2, 2), (3, 2)}
    with pytest.raises(ValueError, match="layout"):
        rnn.BucketSentenceIter(sents, 2, layout="XY")


def test_rnn_checkpoint_roundtrip(tmp_path):
    cell = rnn.LSTMCell(3, prefix="lstm_")
    out, _ = cell.unroll(2, mx.sym.var("data"), merge_outputs=True)
    args = {"lstm_i2h_weight": mx.nd.arange(24).reshape((12, 2)),
            "lstm_i2h_bias": mx.nd.arange(12), "lstm_h2h_weight": mx.nd.ones((12, 3)),
            "lstm_h2h_bias": mx.nd.zeros(12)}
    prefix = str(tmp_path / "m")
    cb = rnn.do_rnn_checkpoint(cell, prefix, period=2)
    cb(0, out, args, {})
    assert not os.path.exists(prefix + "-0001.params")
    cb(1, out, args, {})
    saved = mx.nd.load(prefix + "-0002.params")
    assert "arg:lstm_i2h_f_weight" in saved and "arg:lstm_i2h_weight" not in saved
    sym, arg, aux = rnn.load_rnn_checkpoint(cell, prefix, 2)
    assert sym.list_arguments() == out.list_arguments() and aux == {}
    for k, v in args.items():
        np.testing.assert_array_equal(arg[k].asnumpy(), v.asnumpy())
