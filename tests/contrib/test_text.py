"""mx.contrib.text: token counting, Vocabulary, custom and composite embeddings."""

from collections import Counter

import numpy as np
import pytest

from mxnet import nd
from mxnet.contrib import text


def test_count_tokens_with_two_delimiters():
    cnt = text.utils.count_tokens_from_str("x y\ny Y\n", " ", "\n")
    assert cnt == Counter({"y": 2, "x": 1, "Y": 1})
    base = Counter({"y": 5})
    out = text.utils.count_tokens_from_str("x y\ny Y\n", to_lower=True, counter_to_update=base)
    assert out is base and base == Counter({"y": 8, "x": 1})


def test_vocabulary_order_caps_and_errors():
    counter = Counter("zzzyyx")  # z:3, y:2, x:1
    v = text.vocab.Vocabulary(counter, reserved_tokens=["<pad>"])
    assert v.idx_to_token == ["<unk>", "<pad>", "z", "y", "x"]
    assert v.to_indices(["y", "nope"]) == [3, 0]
    assert v.to_tokens(2) == "z"
    with pytest.raises(ValueError, match="invalid"):
        v.to_tokens([9])
    assert text.vocab.Vocabulary(counter, most_freq_count=1).idx_to_token == ["<unk>", "z"]
    assert text.vocab.Vocabulary(counter, min_freq=2, unknown_token="z").idx_to_token == ["z", "y"]
    with pytest.raises(AssertionError):
        text.vocab.Vocabulary(counter, min_freq=0)
    with pytest.raises(AssertionError):
        text.vocab.Vocabulary(counter, reserved_tokens=["<unk>"])


def _write(path, rows):
    path.write_text("".join(" ".join(r) + "\n" for r in rows))
    return str(path)


def test_custom_embedding_and_updates(tmp_path):
    f = _write(tmp_path / "e.txt", [["x", "1", "2"], ["y", "3", "4"], ["<unk>", "9", "9"]])
    emb = text.embedding.CustomEmbedding(f)
    assert emb.idx_to_token == ["<unk>", "x", "y"] and emb.vec_len == 2
    np.testing.assert_allclose(
        emb.get_vecs_by_tokens("Y", lower_case_backup=True).asnumpy(), [3, 4]
    )
    np.testing.assert_allclose(emb.get_vecs_by_tokens(["q"]).asnumpy(), [[9, 9]])
    emb.update_token_vectors("x", nd.array([5, 6]))
    np.testing.assert_allclose(emb.idx_to_vec.asnumpy()[1], [5, 6])
    with pytest.raises(ValueError, match="unknown"):
        emb.update_token_vectors("q", nd.array([0, 0]))
    with pytest.raises(AssertionError):
        emb.update_token_vectors("x", nd.array([0, 0, 0]))
    bad = _write(tmp_path / "bad.txt", [["x", "1", "2"], ["y", "3"]])
    with pytest.raises(AssertionError):
        text.embedding.CustomEmbedding(bad)


def test_composite_embedding_concatenates(tmp_path):
    e1 = text.embedding.CustomEmbedding(
        _write(tmp_path / "a.txt", [["x", "1"]]), init_unknown_vec=nd.ones
    )
    e2 = text.embedding.CustomEmbedding(_write(tmp_path / "b.txt", [["y", "2", "3"]]))
    vocab = text.vocab.Vocabulary(Counter(["y", "y", "x"]))
    ce = text.embedding.CompositeEmbedding(vocab, [e1, e2])
    assert ce.vec_len == 3 and ce.idx_to_token == ["<unk>", "y", "x"]
    np.testing.assert_allclose(ce.idx_to_vec.asnumpy(), [[1, 0, 0], [1, 2, 3], [1, 0, 0]])


def test_pretrained_file_names():
    assert len(text.embedding.get_pretrained_file_names("glove")) == 10
    assert len(text.embedding.get_pretrained_file_names()["fasttext"]) == 327
    with pytest.raises(KeyError):
        text.embedding.get_pretrained_file_names("nope")
    with pytest.raises(KeyError, match="Valid pretrained files"):
        text.embedding.GloVe(pretrained_file_name="nope.txt")
    with pytest.raises(AssertionError, match="not registered"):
        text.embedding.create("nope")
