"""Values of row_sparse Parameters that autograd can differentiate.

A row_sparse array builds its dense view on demand, so autograd cannot hold on to it.
:class:`TrackedRowSparse` keeps the dense view that ``autograd.mark_variables`` turned into a
leaf for as long as the sparse components are unchanged; gradients then reach the
Parameter's (dense) gradient buffer and the Trainer pushes them to the kvstore.
"""

from __future__ import annotations

from ..ndarray.sparse import RowSparseNDArray

__all__ = ["TrackedRowSparse", "track"]


class TrackedRowSparse(RowSparseNDArray):
    """A :class:`RowSparseNDArray` whose dense view can be an autograd leaf.

    Examples
    --------
    >>> a = track(mx.nd.ones((3, 2)).tostype('row_sparse'))
    >>> a.stype
    'row_sparse'
    """

    __slots__ = ("_leaf", "_leaf_key")

    def _key(self):
        aux = self._saux[0]
        return (id(self._sdata), self._sdata._version, id(aux), aux._version)

    @property
    def _t(self):
        leaf = getattr(self, "_leaf", None)
        if leaf is not None and self._leaf_key == self._key():
            return leaf
        return self._dense()

    @_t.setter
    def _t(self, t):
        if t.requires_grad:
            self._leaf = t
            self._leaf_key = self._key()
        else:
            self._leaf = None
            self._set_from_dense(t)


def track(arr: RowSparseNDArray) -> TrackedRowSparse:
    """A :class:`TrackedRowSparse` sharing the components of ``arr``."""
    obj = object.__new__(TrackedRowSparse)
    obj._sdata = arr._sdata
    obj._saux = arr._saux
    obj._sshape = arr._sshape
    obj._ctx = arr._ctx
    obj._grad = None
    obj._grad_req = "null"
    obj._marked = False
    obj._fresh = 0
    obj._leaf = None
    return obj
