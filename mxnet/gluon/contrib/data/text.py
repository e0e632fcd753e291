"""Language-model text datasets (``mx.gluon.contrib.data.text``): WikiText-2 and -103.

Each dataset reads one segment's token file (downloading and unpacking MXNet's published
archive when the file is missing or its SHA-1 does not match), appends ``<eos>`` to every
non-empty line, indexes the tokens with a :class:`mxnet.contrib.text.vocab.Vocabulary`
and cuts the stream into ``(data, label)`` rows of ``seq_len`` tokens, the label being the
data shifted by one token.
"""

from __future__ import annotations

import os
import shutil
import zipfile

import numpy as np

from .... import base
from ....ndarray import array as _nd_array
from ...data.dataset import _DownloadedDataset
from ...utils import _get_repo_file_url, check_sha1, download

__all__ = ["WikiText2", "WikiText103"]

EOS_TOKEN = "<eos>"


class _LanguageModelDataset(_DownloadedDataset):
    """A token-stream dataset with a vocabulary built from its own text when none is given."""

    def __init__(self, root, namespace, vocabulary):
        self._vocab = vocabulary
        self._counter = None
        self._namespace = namespace
        super().__init__(root, None)

    @property
    def vocabulary(self):
        """The :class:`~mxnet.contrib.text.vocab.Vocabulary` indexing the tokens."""
        return self._vocab

    @property
    def frequencies(self):
        """Token counts of the text read (a ``collections.Counter``)."""
        return self._counter

    def _build_vocab(self, content: str) -> None:
        from ....contrib import text

        if not self._counter:
            self._counter = text.utils.count_tokens_from_str(content)
        if not self._vocab:
            self._vocab = text.vocab.Vocabulary(
                counter=self.frequencies, reserved_tokens=[EOS_TOKEN]
            )


class _WikiText(_LanguageModelDataset):
    _archive_file: tuple[str, str]
    _data_file: dict[str, tuple[str, str]]
    _segment: str
    _seq_len: int

    def _read_batch(self, filename: str):
        with open(filename, encoding="utf8") as fin:
            content = fin.read()
        self._build_vocab(content)
        tokens = []
        for line in content.splitlines():
            words = line.strip().split()
            if words:
                tokens.extend(words)
                tokens.append(EOS_TOKEN)
        ids = self.vocabulary.to_indices(tokens)
        return np.array(ids[:-1], dtype=np.int32), np.array(ids[1:], dtype=np.int32)

    def _fetch(self) -> None:
        archive_name, archive_sha1 = self._archive_file
        url = _get_repo_file_url("gluon/dataset/" + self._namespace, archive_name)
        zpath = download(url, path=self._root, sha1_hash=archive_sha1)
        with zipfile.ZipFile(zpath, "r") as zf:
            for member in zf.namelist():
                fname = os.path.basename(member)
                if not fname:
                    continue  # a folder entry
                with zf.open(member) as src, open(os.path.join(self._root, fname), "wb") as dst:
                    shutil.copyfileobj(src, dst)

    def _get_data(self) -> None:
        fname, sha1 = self._data_file[self._segment]
        path = os.path.join(self._root, fname)
        if not os.path.exists(path) or not check_sha1(path, sha1):
            self._fetch()
        data, label = self._read_batch(path)
        n = len(data) // self._seq_len * self._seq_len  # drop the incomplete last row
        self._data = _nd_array(data[:n], dtype=data.dtype).reshape((-1, self._seq_len))
        self._label = _nd_array(label[:n], dtype=label.dtype).reshape((-1, self._seq_len))

    def __getitem__(self, idx):
        return self._data[idx], self._label[idx]

    def __len__(self) -> int:
        return len(self._label)


class WikiText2(_WikiText):
    """WikiText-2 word-level language-modelling dataset (Salesforce research, CC BY-SA).

    Parameters
    ----------
    root : str, default ``$MXNET_HOME/datasets/wikitext-2``
        Folder holding (or receiving) the token files.
    segment : str, default 'train'
        'train', 'validation' or 'test'.
    vocab : Vocabulary, optional
        Vocabulary used for indexing; built from the segment's text when None.
    seq_len : int, default 35
        Tokens per sample, regardless of sentence boundaries.

    Examples
    --------
    >>> train = WikiText2(segment='train')  # doctest: +SKIP
    >>> data, label = train[0]  # two int32 NDArrays of 35 token ids  # doctest: +SKIP
    """

    def __init__(
        self,
        root=os.path.join(base.data_dir(), "datasets", "wikitext-2"),
        segment="train",
        vocab=None,
        seq_len=35,
    ):
        self._archive_file = ("wikitext-2-v1.zip", "3c914d17d80b1459be871a5039ac23e752a53cbe")
        self._data_file = {
            "train": ("wiki.train.tokens", "863f29c46ef9d167fff4940ec821195882fe29d1"),
            "validation": ("wiki.valid.tokens", "0418625c8b4da6e4b5c7a0b9e78d4ae8f7ee5422"),
            "test": ("wiki.test.tokens", "c7b8ce0aa086fb34dab808c5c49224211eb2b172"),
        }
        self._segment = segment
        self._seq_len = seq_len
        super().__init__(root, "wikitext-2", vocab)


class WikiText103(_WikiText):
    """WikiText-103 word-level language-modelling dataset (Salesforce research, CC BY-SA).

    Parameters are those of :class:`WikiText2`; the default root is
    ``$MXNET_HOME/datasets/wikitext-103``.

    Examples
    --------
    >>> val = WikiText103(segment='validation', seq_len=50)  # doctest: +SKIP
    """

    def __init__(
        self,
        root=os.path.join(base.data_dir(), "datasets", "wikitext-103"),
        segment="train",
        vocab=None,
        seq_len=35,
    ):
        self._archive_file = ("wikitext-103-v1.zip", "0aec09a7537b58d4bb65362fee27650eeaba625a")
        self._data_file = {
            "train": ("wiki.train.tokens", "b7497e2dfe77e72cfef5e3dbc61b7b53712ac211"),
            "validation": ("wiki.valid.tokens", "c326ac59dc587676d58c422eb8a03e119582f92b"),
            "test": ("wiki.test.tokens", "8a5befc548865cec54ed4273cf87dbbad60d1e47"),
        }
        self._segment = segment
        self._seq_len = seq_len
        super().__init__(root, "wikitext-103", vocab)
