"""mx.gluon.contrib.data.text.WikiText2 on a local token file (no download)."""

import numpy as np

import mxnet as mx
import mxnet.gluon.contrib.data.text as wtext


def test_wikitext_local_file(tmp_path, monkeypatch):
    monkeypatch.setattr(wtext, "check_sha1", lambda *a: True)
    (tmp_path / "wiki.test.tokens").write_text(
        " = Title = \n\n the cat sat on the mat . \n a dog , the cat and the bird \n", "utf8"
    )
    ds = mx.gluon.contrib.data.text.WikiText2(root=str(tmp_path), segment="test", seq_len=4)
    # 21 tokens incl. <eos> -> 20 (data, label) pairs -> 5 rows of 4
    assert len(ds) == 5
    data, label = ds[0]
    assert data.dtype == np.int32 and data.shape == (4,)
    assert data.asnumpy().tolist() == [3, 7, 3, 1]
    assert label.asnumpy().tolist() == [7, 3, 1, 2]
    assert ds.vocabulary.idx_to_token[:3] == ["<unk>", "<eos>", "the"]
    assert ds.frequencies["the"] == 4
    other = wtext.WikiText2(root=str(tmp_path), segment="test", seq_len=3, vocab=ds.vocabulary)
    assert other.vocabulary is ds.vocabulary and len(other) == 6


def test_interval_sampler_message():
    import pytest

    with pytest.raises(AssertionError, match="smaller than or equal to length 3"):
        mx.gluon.contrib.data.IntervalSampler(3, 5)
    assert list(mx.gluon.contrib.data.IntervalSampler(3, 3)) == [0, 1, 2]
