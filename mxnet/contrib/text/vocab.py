"""Token indexing of ``mx.contrib.text``: :class:`Vocabulary`."""

from __future__ import annotations

__all__ = ["Vocabulary"]


class Vocabulary:
    """Index tokens: the unknown token is 0, then the reserved tokens, then the counted
    tokens by decreasing frequency (ties in token order).

    Parameters
    ----------
    counter : collections.Counter, optional
        Token frequencies (tokens are any hashable).
    most_freq_count : int, optional
        At most this many counted tokens are indexed (None: all).
    min_freq : int
        Counted tokens less frequent than this are left out (must be > 0).
    unknown_token : hashable
        Token for everything not indexed.
    reserved_tokens : list, optional
        Tokens indexed right after the unknown token.

    Examples
    --------
    >>> from collections import Counter
    >>> v = Vocabulary(Counter(['a', 'b', 'b']))
    >>> v.idx_to_token
    ['<unk>', 'b', 'a']
    """

    def __init__(self, counter=None, most_freq_count=None, min_freq=1, unknown_token="<unk>",
                 reserved_tokens=None):
        assert min_freq > 0, "`min_freq` must be set to a positive value."
        if reserved_tokens is not None:
            special = set(reserved_tokens)
            assert unknown_token not in special, \
                "`reserved_token` cannot contain `unknown_token`."
            assert len(special) == len(reserved_tokens), \
                "`reserved_tokens` cannot contain duplicate reserved tokens."
        self._unknown_token = unknown_token
        self._reserved_tokens = None if reserved_tokens is None else list(reserved_tokens)
        self._idx_to_token = [unknown_token] + (self._reserved_tokens or [])
        self._token_to_idx = {t: i for i, t in enumerate(self._idx_to_token)}
        if counter is not None:
            self._index_counter(counter, most_freq_count, min_freq)

    def _index_counter(self, counter, most_freq_count, min_freq) -> None:
        specials = set(self._idx_to_token)
        ordered = sorted(counter.items(), key=lambda kv: kv[0])
        ordered.sort(key=lambda kv: kv[1], reverse=True)
        cap = len(specials) + (len(counter) if most_freq_count is None else most_freq_count)
        for token, freq in ordered:
            if freq < min_freq or len(self._idx_to_token) == cap:
                break
            if token not in specials:
                self._token_to_idx[token] = len(self._idx_to_token)
                self._idx_to_token.append(token)

    def __len__(self) -> int:
        return len(self._idx_to_token)

    @property
    def token_to_idx(self) -> dict:
        """Dict token -> index."""
        return self._token_to_idx

    @property
    def idx_to_token(self) -> list:
        """List index -> token."""
        return self._idx_to_token

    @property
    def unknown_token(self):
        """The token standing for everything not indexed."""
        return self._unknown_token

    @property
    def reserved_tokens(self):
        """The reserved tokens (None when there are none)."""
        return self._reserved_tokens

    def to_indices(self, tokens):
        """Index of a token, or list of indices of a list of tokens (unknown -> 0).

        Examples
        --------
        >>> v.to_indices(['b', 'zzz'])  # doctest: +SKIP
        [1, 0]
        """
        single = not isinstance(tokens, list)
        items = [tokens] if single else tokens
        unk = self._token_to_idx[self._unknown_token]
        idx = [self._token_to_idx.get(t, unk) for t in items]
        return idx[0] if single else idx

    def to_tokens(self, indices):
        """Token of an index, or list of tokens of a list of indices.

        Examples
        --------
        >>> v.to_tokens([0, 1])  # doctest: +SKIP
        ['<unk>', 'b']
        """
        single = not isinstance(indices, list)
        items = [indices] if single else indices
        top = len(self._idx_to_token) - 1
        tokens = []
        for i in items:
            if not isinstance(i, int) or i > top:
                raise ValueError(f"Token index {i} in the provided `indices` is invalid.")
            tokens.append(self._idx_to_token[i])
        return tokens[0] if single else tokens
