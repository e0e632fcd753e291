"""Text helpers of ``mx.contrib.text``."""

from __future__ import annotations

import collections
import re

__all__ = ["count_tokens_from_str"]


def count_tokens_from_str(source_str: str, token_delim: str = " ", seq_delim: str = "\n",
                          to_lower: bool = False, counter_to_update=None):
    """Count the tokens of ``source_str``, split on ``token_delim`` and ``seq_delim``.

    Parameters
    ----------
    source_str : str
        The text to count.
    token_delim, seq_delim : str
        Token and sequence delimiters (empty pieces are ignored).
    to_lower : bool
        Lower-case the tokens before counting.
    counter_to_update : collections.Counter, optional
        Counter updated in place and returned; a new one when None.

    Returns
    -------
    collections.Counter

    Examples
    --------
    >>> count_tokens_from_str('a b\\nb')['b']
    2
    """
    pattern = re.escape(token_delim) + "|" + re.escape(seq_delim)
    tokens = [t for t in re.split(pattern, source_str) if t]
    if to_lower:
        tokens = [t.lower() for t in tokens]
    if counter_to_update is None:
        return collections.Counter(tokens)
    counter_to_update.update(tokens)
    return counter_to_update
