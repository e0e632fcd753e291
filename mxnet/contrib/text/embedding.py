"""Token embeddings of ``mx.contrib.text``: pre-trained (GloVe, fastText), custom files and
compositions of several embeddings over one vocabulary."""

from __future__ import annotations

import logging
import os
import tarfile
import warnings
import zipfile

import numpy as np

from ... import ndarray as nd
from . import _pretrained
from .vocab import Vocabulary

__all__ = ["register", "create", "get_pretrained_file_names", "GloVe", "FastText",
           "CustomEmbedding", "CompositeEmbedding"]

_REGISTRY: dict = {}
_REPO_URL = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/"


def register(embedding_cls):
    """Class decorator registering a token embedding under its lower-cased class name.

    Examples
    --------
    >>> @register
    ... class MyEmbed(_TokenEmbedding):
    ...     pretrained_file_name_sha1 = {}
    """
    _REGISTRY[embedding_cls.__name__.lower()] = embedding_cls
    return embedding_cls


def create(embedding_name, **kwargs):
    """Create a registered token embedding by name (``'glove'``, ``'fasttext'``...).

    Examples
    --------
    >>> create('glove', pretrained_file_name='glove.6B.50d.txt')  # doctest: +SKIP
    """
    name = embedding_name.lower()
    assert name in _REGISTRY, (f"{embedding_name} is not registered. Please register with "
                               "token embedding.register first")
    return _REGISTRY[name](**kwargs)


def get_pretrained_file_names(embedding_name=None):
    """Pre-trained file names of one embedding, or a dict name -> list for all.

    Examples
    --------
    >>> len(get_pretrained_file_names('glove'))
    10
    """
    if embedding_name is None:
        return {name: list(cls.pretrained_file_name_sha1)
                for name, cls in _REGISTRY.items()
                if hasattr(cls, "pretrained_file_name_sha1")}
    if embedding_name not in _REGISTRY:
        raise KeyError(f"Cannot find `embedding_name` {embedding_name}. Use "
                       "`get_pretrained_file_names(embedding_name=None).keys()` to get all the "
                       "valid embedding names.")
    return list(_REGISTRY[embedding_name].pretrained_file_name_sha1)


def _sha1(path: str) -> str:
    import hashlib

    h = hashlib.sha1()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class _TokenEmbedding(Vocabulary):
    """A vocabulary with one vector per token (``idx_to_vec``, row 0: the unknown token).

    Examples
    --------
    >>> emb = CustomEmbedding('vectors.txt', elem_delim=' ')  # doctest: +SKIP
    >>> emb.get_vecs_by_tokens(['a', 'b']).shape  # doctest: +SKIP
    (2, 5)
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._vec_len = 0
        self._idx_to_vec = None

    # -- pre-trained files ----------------------------------------------------------------
    @classmethod
    def _get_download_file_name(cls, pretrained_file_name):
        return pretrained_file_name

    @classmethod
    def _get_pretrained_file_url(cls, pretrained_file_name):
        repo = os.environ.get("MXNET_GLUON_REPO", _REPO_URL)
        return (f"{repo}gluon/embeddings/{cls.__name__.lower()}/"
                f"{cls._get_download_file_name(pretrained_file_name)}")

    @classmethod
    def _get_pretrained_file(cls, embedding_root, pretrained_file_name):
        from ...gluon.utils import download

        root = os.path.join(os.path.expanduser(embedding_root), cls.__name__.lower())
        path = os.path.join(root, pretrained_file_name)
        expected = cls.pretrained_file_name_sha1[pretrained_file_name]
        if os.path.isfile(path) and _sha1(path) == expected:
            return path
        download_name = cls._get_download_file_name(pretrained_file_name)
        archives = getattr(cls, "pretrained_archive_name_sha1", {})
        target = os.path.join(root, download_name)
        download(cls._get_pretrained_file_url(pretrained_file_name), path=target,
                 sha1_hash=archives.get(download_name, expected if
                                        download_name == pretrained_file_name else None))
        if download_name.endswith(".zip"):
            with zipfile.ZipFile(target, "r") as zf:
                zf.extractall(root)
        elif download_name.endswith(".gz"):
            with tarfile.open(target, "r:gz") as tf:
                tf.extractall(root)
        return path

    @classmethod
    def _check_pretrained_file_names(cls, pretrained_file_name):
        name = cls.__name__.lower()
        if pretrained_file_name not in cls.pretrained_file_name_sha1:
            raise KeyError(f"Cannot find pretrained file {pretrained_file_name} for token "
                           f"embedding {name}. Valid pretrained files for embedding {name}: "
                           f"{', '.join(cls.pretrained_file_name_sha1)}")

    # -- loading ----------------------------------------------------------------------------
    def _load_embedding(self, pretrained_file_path, elem_delim, init_unknown_vec,
                        encoding="utf8"):
        """Read ``token<delim>v1<delim>v2...`` lines into the vocabulary and vectors."""
        path = os.path.expanduser(pretrained_file_path)
        if not os.path.isfile(path):
            raise ValueError(f"`pretrained_file_path` must be a valid path to the pre-trained "
                             f"token embedding file: {path}")
        logging.info("Loading pre-trained token embedding vectors from %s", path)
        vectors: list = []
        unknown_vec = None
        vec_len = None
        with open(path, encoding=encoding) as f:
            for line_no, line in enumerate(f, 1):
                elems = line.rstrip().split(elem_delim)
                assert len(elems) > 1, (f"At line {line_no} of the pre-trained text embedding "
                                        f"file: the data format of the pre-trained token "
                                        f"embedding file {path} is unexpected.")
                token, values = elems[0], [float(x) for x in elems[1:]]
                if token == self.unknown_token and unknown_vec is None:
                    unknown_vec = values
                elif token in self._token_to_idx:
                    warnings.warn(f"At line {line_no} of the pre-trained token embedding file: "
                                  f"the embedding vector for token {token} has been loaded "
                                  "and a duplicate embedding for the same token is seen and "
                                  "skipped.")
                    continue
                else:
                    if vec_len is None:
                        vec_len = len(values)
                    assert len(values) == vec_len, (
                        f"At line {line_no} of the pre-trained token embedding file: the "
                        f"dimension of token {token} is {len(values)} but the dimension of "
                        f"previous tokens is {vec_len}. Dimensions of all the tokens must be "
                        "the same.")
                    self._token_to_idx[token] = len(self._idx_to_token)
                    self._idx_to_token.append(token)
                    vectors.append(values)
        if vec_len is None:
            vec_len = len(unknown_vec) if unknown_vec is not None else 0
        self._vec_len = vec_len
        if unknown_vec is not None:
            first = np.asarray(unknown_vec, dtype=np.float32)
        else:
            first = init_unknown_vec(shape=vec_len).asnumpy().astype(np.float32)
        rows = [first] + [np.asarray(v, dtype=np.float32) for v in vectors]
        # rows for the reserved tokens (if any) sit between the unknown and loaded tokens
        n_special = len(self._idx_to_token) - len(vectors) - 1
        rows[1:1] = [first] * n_special
        self._idx_to_vec = nd.array(np.stack(rows))

    def _index_tokens_from_vocabulary(self, vocabulary) -> None:
        self._token_to_idx = vocabulary.token_to_idx.copy() \
            if vocabulary.token_to_idx is not None else None
        self._idx_to_token = vocabulary.idx_to_token[:] \
            if vocabulary.idx_to_token is not None else None
        self._unknown_token = vocabulary.unknown_token
        self._reserved_tokens = vocabulary.reserved_tokens[:] \
            if vocabulary.reserved_tokens is not None else None

    def _set_idx_to_vec_by_embeddings(self, token_embeddings, vocab_len, vocab_idx_to_token):
        """Concatenate the embeddings' vectors of the vocabulary's tokens; row 0 takes each
        embedding's own unknown vector."""
        total = sum(e.vec_len for e in token_embeddings)
        out = np.zeros((vocab_len, total), dtype=np.float32)
        col = 0
        for emb in token_embeddings:
            end = col + emb.vec_len
            out[0, col:end] = emb.idx_to_vec[0].asnumpy()
            if vocab_len > 1:
                out[1:, col:end] = emb.get_vecs_by_tokens(vocab_idx_to_token[1:]).asnumpy()
            col = end
        self._vec_len = total
        self._idx_to_vec = nd.array(out)

    def _build_embedding_for_vocabulary(self, vocabulary) -> None:
        if vocabulary is not None:
            assert isinstance(vocabulary, Vocabulary), \
                "The argument `vocabulary` must be an instance of mxnet.contrib.text.Vocabulary."
            self._set_idx_to_vec_by_embeddings([self], len(vocabulary), vocabulary.idx_to_token)
            self._index_tokens_from_vocabulary(vocabulary)

    # -- access -----------------------------------------------------------------------------
    @property
    def vec_len(self) -> int:
        """Length of each embedding vector."""
        return self._vec_len

    @property
    def idx_to_vec(self):
        """NDArray ``(len(self), vec_len)``: the vector of each indexed token."""
        return self._idx_to_vec

    def get_vecs_by_tokens(self, tokens, lower_case_backup=False):
        """Vectors of a token (1-D) or of a list of tokens (2-D); unknown tokens get row 0.

        With ``lower_case_backup`` a token not found as is is looked up lower-cased.
        """
        single = not isinstance(tokens, list)
        items = [tokens] if single else tokens
        unk = self._token_to_idx[self._unknown_token]
        if lower_case_backup:
            idx = [self._token_to_idx[t] if t in self._token_to_idx
                   else self._token_to_idx.get(t.lower(), unk) for t in items]
        else:
            idx = [self._token_to_idx.get(t, unk) for t in items]
        vecs = nd.Embedding(nd.array(idx), self._idx_to_vec, input_dim=self._idx_to_vec.shape[0],
                            output_dim=self._idx_to_vec.shape[1])
        return vecs[0] if single else vecs

    def update_token_vectors(self, tokens, new_vectors):
        """Replace the vectors of indexed ``tokens`` (a token or a list) by ``new_vectors``."""
        assert self._idx_to_vec is not None, "The property `idx_to_vec` has not been properly set."
        if not isinstance(tokens, list) or len(tokens) == 1:
            assert isinstance(new_vectors, nd.NDArray) and len(new_vectors.shape) in (1, 2), \
                "`new_vectors` must be a 1-D or 2-D NDArray if `tokens` is a singleton."
            if not isinstance(tokens, list):
                tokens = [tokens]
            if len(new_vectors.shape) == 1:
                new_vectors = new_vectors.expand_dims(0)
        else:
            assert isinstance(new_vectors, nd.NDArray) and len(new_vectors.shape) == 2, \
                "`new_vectors` must be a 2-D NDArray if `tokens` is a list of multiple strings."
        assert new_vectors.shape == (len(tokens), self._vec_len), (
            "The length of new_vectors must be equal to the number of tokens and the width of "
            "new_vectors must be equal to the dimension of embeddings of the glossary.")
        indices = []
        for token in tokens:
            if token not in self._token_to_idx:
                raise ValueError(f"Token {token} is unknown. To update the embedding vector for "
                                 "an unknown token, please specify it explicitly as the "
                                 f"`unknown_token` {self._unknown_token} in `tokens`. This is "
                                 "to avoid unintended updates.")
            indices.append(self._token_to_idx[token])
        vecs = self._idx_to_vec.asnumpy()
        vecs[indices] = new_vectors.asnumpy()
        self._idx_to_vec = nd.array(vecs, dtype=self._idx_to_vec.dtype)

    def __contains__(self, token) -> bool:
        return token in self._token_to_idx


@register
class GloVe(_TokenEmbedding):
    """GloVe pre-trained vectors (downloaded into ``embedding_root`` on first use).

    Examples
    --------
    >>> glove = GloVe(pretrained_file_name='glove.6B.50d.txt')  # doctest: +SKIP
    """

    pretrained_archive_name_sha1 = _pretrained.GLOVE_ARCHIVES
    pretrained_file_name_sha1 = _pretrained.GLOVE_FILES

    @classmethod
    def _get_download_file_name(cls, pretrained_file_name):
        by_corpus = {a.split(".")[1]: a for a in cls.pretrained_archive_name_sha1}
        return by_corpus[pretrained_file_name.split(".")[1]]

    def __init__(self, pretrained_file_name="glove.840B.300d.txt",
                 embedding_root=os.path.join("~", ".mxnet", "embeddings"),
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        GloVe._check_pretrained_file_names(pretrained_file_name)
        super().__init__(**kwargs)
        path = GloVe._get_pretrained_file(embedding_root, pretrained_file_name)
        self._load_embedding(path, " ", init_unknown_vec)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


@register
class FastText(_TokenEmbedding):
    """fastText pre-trained vectors (downloaded into ``embedding_root`` on first use).

    Examples
    --------
    >>> ft = FastText(pretrained_file_name='wiki.simple.vec')  # doctest: +SKIP
    """

    pretrained_archive_name_sha1 = _pretrained.FASTTEXT_ARCHIVES
    pretrained_file_name_sha1 = _pretrained.FASTTEXT_FILES

    @classmethod
    def _get_download_file_name(cls, pretrained_file_name):
        return ".".join(pretrained_file_name.split(".")[:-1]) + ".zip"

    def __init__(self, pretrained_file_name="wiki.simple.vec",
                 embedding_root=os.path.join("~", ".mxnet", "embeddings"),
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        FastText._check_pretrained_file_names(pretrained_file_name)
        super().__init__(**kwargs)
        path = FastText._get_pretrained_file(embedding_root, pretrained_file_name)
        self._load_embedding(path, " ", init_unknown_vec)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


class CustomEmbedding(_TokenEmbedding):
    """Embedding read from a local file of ``token<elem_delim>v1<elem_delim>v2...`` lines.

    Examples
    --------
    >>> emb = CustomEmbedding('my_vectors.txt', elem_delim='\\t')  # doctest: +SKIP
    """

    def __init__(self, pretrained_file_path, elem_delim=" ", encoding="utf8",
                 init_unknown_vec=nd.zeros, vocabulary=None, **kwargs):
        super().__init__(**kwargs)
        self._load_embedding(pretrained_file_path, elem_delim, init_unknown_vec, encoding)
        if vocabulary is not None:
            self._build_embedding_for_vocabulary(vocabulary)


class CompositeEmbedding(_TokenEmbedding):
    """The tokens of ``vocabulary`` with the concatenated vectors of ``token_embeddings``.

    Examples
    --------
    >>> ce = CompositeEmbedding(vocab, [emb1, emb2])  # doctest: +SKIP
    """

    def __init__(self, vocabulary, token_embeddings):
        assert isinstance(vocabulary, Vocabulary), \
            "The argument `vocabulary` must be an instance of mxnet.contrib.text.Vocabulary."
        if not isinstance(token_embeddings, list):
            token_embeddings = [token_embeddings]
        for emb in token_embeddings:
            assert isinstance(emb, _TokenEmbedding), (
                "The argument `token_embeddings` must be an instance or a list of instances of "
                "`mxnet.contrib.text.embedding._TokenEmbedding` whose embedding vectors will "
                "be loaded or concatenated-then-loaded to map to the indexed tokens.")
        self._index_tokens_from_vocabulary(vocabulary)
        self._set_idx_to_vec_by_embeddings(token_embeddings, len(self), self.idx_to_token)
