"""dmlc-core's fast ``strtof``, which MXNet's CSV parser uses for float32 data.

It is not correctly rounded: the integer part becomes a float32, the first 19 fraction
digits are divided in double precision and added in float32, and an exponent is applied by
float32 multiplications by 1e8 and 10. About one value in eight of a ``np.savetxt`` file
(``%.18e``) comes out one float32 step away from the nearest float32, and CSVIter shows
those values, so we parse the same way.
"""

from __future__ import annotations

import re

import numpy as np

_F32 = np.float32
_MAX_DIGITS = 19  # fraction digits read; later ones are ignored
_MAX_EXP = 38
_MAX_SIG = _F32(3.402823466)  # largest significand allowed with exponent +38
_MIN_SIG = _F32(1.175494351)  # clip value with exponent -38
_TEN8 = _F32(1e8)
_TEN = _F32(10.0)
_DIGITS = frozenset("0123456789")


def _match_word(s: str, p: int, word: str) -> int:
    """Length of the case-insensitive prefix of ``word`` at ``s[p:]``."""
    n = 0
    while n < len(word) and p + n < len(s) and s[p + n].lower() == word[n]:
        n += 1
    return n


def strtof(s: str) -> np.float32:
    """The float32 dmlc's ``strtof`` reads from the start of ``s`` (0 when no number).

    Examples
    --------
    >>> float(strtof("1.050000000000000000e+02"))
    104.99999237060547
    """
    p, n = 0, len(s)
    while p < n and s[p] in " \t\r\n\f":
        p += 1
    positive = True
    if p < n and s[p] in "+-":
        positive = s[p] == "+"
        p += 1
    k = _match_word(s, p, "infinity")
    if k in (3, 8):
        return _F32(np.inf if positive else -np.inf)
    if _match_word(s, p, "nan") == 3:
        return _F32(np.nan)
    predec = 0
    while p < n and s[p] in _DIGITS:
        predec = (predec * 10 + ord(s[p]) - 48) & 0xFFFFFFFFFFFFFFFF
        p += 1
    value = _F32(predec)
    if p < n and s[p] == ".":
        p += 1
        val2, pow10, count = 0, 1, 0
        while p < n and s[p] in _DIGITS:
            if count < _MAX_DIGITS:
                val2 = val2 * 10 + ord(s[p]) - 48
                pow10 *= 10
            p += 1
            count += 1
        value = _F32(value + _F32(float(val2) / float(pow10)))
    if p < n and s[p] in "eE":
        p += 1
        negative_exp = False
        if p < n and s[p] in "+-":
            negative_exp = s[p] == "-"
            p += 1
        expon = 0
        while p < n and s[p] in _DIGITS:
            expon = expon * 10 + ord(s[p]) - 48
            p += 1
        expon = min(expon, _MAX_EXP)
        if expon == _MAX_EXP:
            if not negative_exp and value > _MAX_SIG:
                value = _MAX_SIG
            elif negative_exp and value < _MIN_SIG:
                value = _MIN_SIG
        scale = _SCALE[expon]
        with np.errstate(over="ignore", under="ignore"):
            value = _F32(value / scale) if negative_exp else _F32(value * scale)
    return value if positive else _F32(-value)


# one token per line: sign, integer digits, fraction digits, exponent, and the rest
_FIELDS = re.compile(
    r"^[ \t\f]*([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?(.*)$", re.MULTILINE
)


def _scale_table() -> np.ndarray:
    """dmlc's float32 power of ten for each exponent 0..38 (1e8 steps, then 10s)."""
    out = []
    for e in range(_MAX_EXP + 1):
        scale = _F32(1.0)
        while e >= 8:
            scale = _F32(scale * _TEN8)
            e -= 8
        while e > 0:
            scale = _F32(scale * _TEN)
            e -= 1
        out.append(scale)
    return np.array(out, dtype=np.float32)


_SCALE = _scale_table()


def strtof_many(tokens: list[str]) -> np.ndarray:
    """:func:`strtof` of many strings (without newlines) at once, as a float32 array."""
    if not tokens:
        return np.zeros(0, dtype=np.float32)
    parts = _FIELDS.findall("\n".join(tokens))
    if len(parts) != len(tokens):  # a token with a line break: take the slow road
        return np.array([strtof(t) for t in tokens], dtype=np.float32)
    sign, ints, fracs, exps, rest = zip(*parts)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        value = np.array([x or "0" for x in ints], dtype=np.float64).astype(np.float32)
        fr = [f[:_MAX_DIGITS] for f in fracs]
        ndig = np.array([len(f) for f in fr])
        frac = np.array([f or "0" for f in fr], dtype=np.float64) / np.power(10.0, ndig)
        value = (value + frac.astype(np.float32)).astype(np.float32)
        if any(exps):
            e = np.array([int(x) if x else 0 for x in exps])
            has_exp = np.array([x != "" for x in exps])
            neg = e < 0
            mag = np.minimum(np.abs(e), _MAX_EXP)
            at_max = has_exp & (mag == _MAX_EXP)
            value = np.where(at_max & ~neg & (value > _MAX_SIG), _MAX_SIG, value)
            value = np.where(at_max & neg & (value < _MIN_SIG), _MIN_SIG, value)
            scale = _SCALE[mag]
            scaled = np.where(neg, value / scale, value * scale).astype(np.float32)
            value = np.where(has_exp, scaled, value).astype(np.float32)
        value = np.where(np.array([x == "-" for x in sign]), -value, value).astype(np.float32)
    # no digits before some other text (inf, nan, words): the scalar reader decides
    for i, (n, f, r) in enumerate(zip(ints, fracs, rest)):
        if r and not n and not f:
            value[i] = strtof(tokens[i])
    return value


def _starts_number(tok: str) -> bool:
    """Whether dmlc's reader consumes at least one character of ``tok`` (space, sign, digit,
    '.', exponent mark, inf or nan); fields where it consumes none are left out."""
    if not tok:
        return False
    if tok[0] in " \t\f+-.eE0123456789":
        return True
    return _match_word(tok, 0, "infinity") in (3, 8) or _match_word(tok, 0, "nan") == 3


def parse_csv_float32(text: str) -> tuple[np.ndarray, list[int]]:
    """The float32 values of a CSV text, read field by field as dmlc's CSV parser does
    (empty lines and fields it cannot start on skipped), and each row's length."""
    tokens: list[str] = []
    lengths: list[int] = []
    for line in text.replace("\r", "\n").split("\n"):
        if not line:
            continue
        # a field the reader cannot start on (empty, or a word) gives no value at all
        toks = [t for t in line.split(",") if _starts_number(t)]
        tokens += toks
        lengths.append(len(toks))
    uniq = list(dict.fromkeys(tokens))  # each distinct spelling is parsed once
    where = {t: i for i, t in enumerate(uniq)}
    inverse = np.fromiter(map(where.__getitem__, tokens), dtype=np.int64, count=len(tokens))
    return strtof_many(uniq)[inverse], lengths
