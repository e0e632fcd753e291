"""``mx.contrib.text``: token counting, vocabularies and pre-trained token embeddings."""

from . import embedding, utils, vocab

__all__ = ["utils", "vocab", "embedding"]
