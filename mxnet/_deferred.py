"""Deferred operator errors: MXNet's asynchronous-engine error semantics.

MXNet checks some conditions only while an operator *runs* (a sampler's parameters, a LAPACK
return code), not when it is pushed. Such a failure does not interrupt the call: the outputs
come back (with unspecified values), every operator that reads them passes the failure on,
and the error is raised when a result is read (``asnumpy``, ``asscalar``, ``wait_to_read``,
printing) or at ``mx.nd.waitall()``. Raising clears it: all arrays that carry the same
failure then read normally, and ``waitall`` reports the first pending failure and forgets
the rest. Shape and type errors stay synchronous, as in MXNet.

Kernels signal such a check by raising :class:`DeferredOpError` with placeholder outputs of
the right shapes. One failure is a *box* (a one-element list holding the error, or ``None``
once reported) shared by every array it reaches, via the NDArray slot ``_exc``.
``PENDING[0]`` is true only while some box is unreported, so array code pays one list lookup
on its paths and nothing more until an error happens.

Examples
--------
>>> import mxnet as mx
>>> a = mx.nd.random.normal(0, -1, shape=(2,))   # returns: the check runs "later"
>>> b = a * 2                                     # carries the failure
>>> try:
...     b.asnumpy()
... except mx.base.MXNetError:
...     print("raised on read")
raised on read
"""

from __future__ import annotations

import threading

from .base import MXNetError

__all__ = [
    "DeferredOpError",
    "PENDING",
    "RNG_BOX",
    "defer",
    "fail_later",
    "uses_rng",
    "rng_box",
    "box_of",
    "first_box",
    "carry",
    "carried",
    "check",
    "boxes",
    "take_new",
    "raise_pending",
]

PENDING = [0]  # truthy while some deferred failure has not been reported
RNG_BOX: list = [None]  # the failure a sampler left on MXNet's shared random-number resource
_boxes: list = []  # MXNet's global exception references (what waitall reports)
_lock = threading.Lock()


class DeferredOpError(MXNetError):
    """A check MXNet makes while the operator runs: reported later, on read or ``waitall``.

    Parameters
    ----------
    msg : str
        The error text (what the read raises).
    outputs : tuple of torch.Tensor
        Placeholder outputs with the operator's output shapes and dtypes.
    kind : type
        The exception class the read raises (MXNet raises ``IndexError`` for some kernels).

    Examples
    --------
    >>> import torch
    >>> err = DeferredOpError("Check failed: scale > 0", (torch.zeros(2),))
    >>> err.outputs[0].shape
    torch.Size([2])
    """

    def __init__(self, msg: str, outputs=(), kind: type = MXNetError):
        super().__init__(msg)
        self.outputs = tuple(outputs)
        self.kind = kind


def defer(err: BaseException) -> list:
    """Register a new failure; return its box (to be stored in the arrays it reaches)."""
    if isinstance(err, DeferredOpError):
        cls = err.kind
    else:
        cls = type(err) if isinstance(err, MXNetError) else MXNetError
    box = [(cls, str(err))]
    with _lock:
        _boxes.append(box)
        PENDING[0] = 1
    return box


def fail_later(arr, msg: str, kind: type = MXNetError):
    """Return ``arr`` carrying a new failure ``msg``: for functions outside the operator
    registry whose MXNet kernel checks at run time (e.g. an OpenCV call).

    Examples
    --------
    >>> a = fail_later(mx.nd.zeros((2,)), "Unknown interpolation method")
    >>> try:
    ...     a.asnumpy()
    ... except mx.base.MXNetError as e:
    ...     print(e)
    Unknown interpolation method
    """
    arr._exc = defer(DeferredOpError(msg, (), kind))
    return arr


def uses_rng(name: str) -> bool:
    """Whether operator ``name`` draws from MXNet's shared (parallel) random resource.

    A sampler that fails at run time leaves its failure on that resource, so in MXNet every
    later operator drawing from it carries the failure too, until it is reported.
    """
    return (
        name.startswith(("_random_", "_sample_"))
        and not name.startswith("_random_pdf")
        and name != "_sample_multinomial"
    ) or name == "Dropout"


def rng_box():
    """The unreported failure left on the random resource, or None."""
    box = RNG_BOX[0]
    if box is not None and box[0] is not None:
        return box
    RNG_BOX[0] = None
    return None


def box_of(arr):
    """The unreported failure box of ``arr`` (any object), or None."""
    box = getattr(arr, "_exc", None)
    if box is not None and box[0] is not None:
        return box
    return None


def first_box(arrays):
    """The first unreported failure box among ``arrays``, or None."""
    for a in arrays:
        box = getattr(a, "_exc", None)
        if box is not None and box[0] is not None:
            return box
    return None


def carry(src, dst) -> None:
    """Make ``dst`` carry ``src``'s unreported failure (views, copies, in-place writes)."""
    box = getattr(src, "_exc", None)
    if box is not None and box[0] is not None:
        dst._exc = box


def carried(src, dst):
    """``dst`` after :func:`carry` from ``src`` (for one-expression returns)."""
    carry(src, dst)
    return dst


def _forget_reported() -> None:
    with _lock:
        _boxes[:] = [b for b in _boxes if b[0] is not None]
        if not _boxes:
            PENDING[0] = 0
            RNG_BOX[0] = None


def check(arr) -> None:
    """Raise ``arr``'s unreported failure, if any, and mark it reported (MXNet's wait)."""
    box = getattr(arr, "_exc", None)
    if box is None or box[0] is None:
        return
    cls, msg = box[0]
    box[0] = None
    _forget_reported()
    raise cls(msg)


def raise_pending() -> None:
    """``waitall``: forget every unreported failure and raise the first one, if any."""
    with _lock:
        first = None
        for b in _boxes:
            if first is None and b[0] is not None:
                first = b[0]
            b[0] = None
        _boxes.clear()
        PENDING[0] = 0
        RNG_BOX[0] = None
    if first is not None:
        cls, msg = first
        raise cls(msg)


def boxes() -> list:
    """The failures registered so far (to compare with :func:`take_new`)."""
    with _lock:
        return list(_boxes)


def take_new(before: list):
    """The first unreported failure registered since ``before`` (from :func:`boxes`),
    marked reported (its caller carries it on), or None."""
    if not PENDING[0]:
        return None
    old = {id(b) for b in before}
    with _lock:
        new = next((b for b in _boxes if id(b) not in old and b[0] is not None), None)
        if new is None:
            return None
        err = new[0]
        new[0] = None
    _forget_reported()
    return err

