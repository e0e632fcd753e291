"""Sentence encoding and the bucketing iterator of ``mx.rnn`` (variable-length sequences)."""

from __future__ import annotations

import bisect
import random

import numpy as np

from .. import ndarray
from ..io import DataBatch, DataDesc, DataIter

__all__ = ["encode_sentences", "BucketSentenceIter"]


def encode_sentences(sentences, vocab=None, invalid_label=-1, invalid_key="\n", start_label=0,
                     unknown_token=None):
    """Map the words of tokenized sentences to integer ids, building the vocabulary.

    Parameters
    ----------
    sentences : list of list of str
    vocab : dict, optional
        Existing word -> id map; new words are then an error unless ``unknown_token`` is set.
    invalid_label : int
        Id reserved for padding (skipped when numbering).
    invalid_key : str
        Vocabulary key of ``invalid_label`` in a new vocabulary.
    start_label : int
        First id given to a word.
    unknown_token : str, optional
        Key that unknown words map to.

    Returns
    -------
    (list of list of int, dict)

    Examples
    --------
    >>> mx.rnn.encode_sentences([['a', 'b'], ['b', 'c']], invalid_label=0, start_label=1)[0]
    [[1, 2], [2, 3]]
    """
    idx = start_label
    new_vocab = vocab is None
    if new_vocab:
        vocab = {invalid_key: invalid_label}
    res = []
    for sent in sentences:
        coded = []
        for word in sent:
            if word not in vocab:
                if not (new_vocab or unknown_token):
                    raise AssertionError(f"Unknown token {word}")
                if idx == invalid_label:
                    idx += 1
                if unknown_token:
                    word = unknown_token
                vocab[word] = idx
                idx += 1
            coded.append(vocab[word])
        res.append(coded)
    return res, vocab


class BucketSentenceIter(DataIter):
    """Batches of encoded sentences grouped by length bucket (padded with ``invalid_label``).

    The label is the data shifted left by one step (next-word prediction).

    Parameters
    ----------
    sentences : list of list of int
    batch_size : int
    buckets : list of int, optional
        Bucket lengths; default: every length with at least ``batch_size`` sentences.
    invalid_label : int
    data_name, label_name : str
    dtype : str
    layout : {'NT', 'TN'}

    Examples
    --------
    >>> it = mx.rnn.BucketSentenceIter([[1, 2, 3]] * 4, batch_size=2)
    >>> it.next().bucket_key
    3
    """

    def __init__(self, sentences, batch_size, buckets=None, invalid_label=-1, data_name="data",
                 label_name="softmax_label", dtype="float32", layout="NT"):
        super().__init__()
        if not buckets:
            counts = np.bincount([len(s) for s in sentences])
            buckets = [i for i, j in enumerate(counts) if j >= batch_size]
        buckets.sort()  # in place, as MXNet
        ndiscard = 0
        data: list[list] = [[] for _ in buckets]
        for sent in sentences:
            b = bisect.bisect_left(buckets, len(sent))
            if b == len(buckets):
                ndiscard += 1
                continue
            buff = np.full((buckets[b],), invalid_label, dtype=dtype)
            buff[:len(sent)] = sent
            data[b].append(buff)
        # buckets that received no sentence are dropped
        keep = [k for k, d in enumerate(data) if d]
        buckets = [buckets[k] for k in keep]
        self.data = [np.asarray(data[k], dtype=dtype) for k in keep]
        print(f"WARNING: discarded {ndiscard} sentences longer than the largest bucket.")
        self.batch_size = batch_size
        self.buckets = buckets
        self.data_name = data_name
        self.label_name = label_name
        self.dtype = dtype
        self.invalid_label = invalid_label
        self.nddata: list = []
        self.ndlabel: list = []
        self.major_axis = layout.find("N")
        self.layout = layout
        self.default_bucket_key = max(buckets)
        if self.major_axis == 0:
            shape = (batch_size, self.default_bucket_key)
        elif self.major_axis == 1:
            shape = (self.default_bucket_key, batch_size)
        else:
            raise ValueError(f"Invalid layout {layout}: Must by NT (batch major) or TN "
                             "(time major)")
        self.provide_data = [DataDesc(name=data_name, shape=shape, layout=layout)]
        self.provide_label = [DataDesc(name=label_name, shape=shape, layout=layout)]
        self.idx = []
        for i, buck in enumerate(self.data):
            self.idx.extend((i, j) for j in range(0, len(buck) - batch_size + 1, batch_size))
        self.curr_idx = 0
        self.reset()

    def reset(self):
        """Shuffle the batches and the sentences within buckets."""
        self.curr_idx = 0
        random.shuffle(self.idx)
        for buck in self.data:
            np.random.shuffle(buck)
        self.nddata, self.ndlabel = [], []
        for buck in self.data:
            label = np.empty_like(buck)
            label[:, :-1] = buck[:, 1:]
            label[:, -1] = self.invalid_label
            self.nddata.append(ndarray.array(buck, dtype=self.dtype))
            self.ndlabel.append(ndarray.array(label, dtype=self.dtype))

    def next(self):
        """The next :class:`DataBatch` (``bucket_key`` = its bucket length)."""
        if self.curr_idx == len(self.idx):
            raise StopIteration
        i, j = self.idx[self.curr_idx]
        self.curr_idx += 1
        data = self.nddata[i][j:j + self.batch_size]
        label = self.ndlabel[i][j:j + self.batch_size]
        if self.major_axis == 1:
            data, label = data.T, label.T
        return DataBatch([data], [label], pad=0, bucket_key=self.buckets[i],
                         provide_data=[DataDesc(name=self.data_name, shape=data.shape,
                                                layout=self.layout)],
                         provide_label=[DataDesc(name=self.label_name, shape=label.shape,
                                                 layout=self.layout)])
