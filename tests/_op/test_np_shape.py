"""Records for the ``mx.np`` shape, joining, selection and creation operators
(``_np_reshape``, ``_npi_concatenate``, ``_npi_where``, ``_npi_eye``...)."""

import numpy as np
import pytest

from tests._op.harness import Record, run_record

X = np.arange(6, dtype=np.float32).reshape(2, 3)
V = np.array([1.0, 4.0, 9.0, 16.0], dtype=np.float32)
C = np.array([1.0, 0.0, 1.0], dtype=np.float32)
IDX = np.array([0, 2], dtype=np.int64)


def _npx_reshape_ref(a, newshape, reverse=False):
    return a.reshape(2, 3)


def _insert_ref(arr, *rest, val=None, int_ind=None, start=None, stop=None, step=None,
                axis=None):
    rest = list(rest)
    values = val if val is not None else rest.pop(0)
    obj = int_ind if int_ind is not None else (slice(start, stop, step) if not rest
                                               else rest.pop(0))
    return np.insert(arr, obj, values, axis=axis)


def _ediff_ref(x, *rest, to_begin_arr_given=False, to_end_arr_given=False,
               to_begin_scalar=None, to_end_scalar=None):
    return np.ediff1d(x, to_begin=to_begin_scalar, to_end=to_end_scalar)


def _mask_assign_ref(x, mask, *rest, value=None, start_axis=0):
    out = x.copy()
    out[(slice(None),) * start_axis + (mask.astype(bool),)] = rest[0] if rest else value
    return out


def _split_ref(x, indices=(), axis=1, squeeze_axis=False, sections=0):
    return np.split(x, sections if sections else list(indices[1:]), axis=axis)


SHAPE = [
    Record("_np_reshape", [X], {"newshape": (3, -1)}, ref=lambda a, newshape: a.reshape(newshape),
           grad=True),
    Record("_npi_reshape", [X.reshape(6)], {"newshape": (2, -1)}, ref=_npx_reshape_ref,
           grad=True),
    Record("_npi_reshape", [X], {"newshape": (-2, -1)}, name="npx_reshape_codes",
           ref=lambda a, newshape: a.reshape(2, 3)),
    Record("_np_transpose", [X], {"axes": (1, 0)}, ref=lambda a, axes: a.transpose(axes),
           grad=True),
    Record("_np_transpose", [X], {}, name="np_transpose_default", ref=lambda a: a.T),
    Record("_npi_swapaxes", [X], {"dim1": 0, "dim2": 1},
           ref=lambda a, dim1, dim2: np.swapaxes(a, dim1, dim2), grad=True),
    Record("_np_moveaxis", [X.reshape(1, 2, 3)], {"source": (0,), "destination": (2,)},
           ref=lambda a, source, destination: np.moveaxis(a, source, destination), grad=True),
    Record("_npi_expand_dims", [X], {"axis": 1}, ref=lambda a, axis: np.expand_dims(a, axis),
           grad=True),
    Record("_np_squeeze", [X.reshape(1, 2, 1, 3)], {"axis": (0, 2)},
           ref=lambda a, axis: np.squeeze(a, axis), grad=True),
    Record("_npi_broadcast_to", [X[:1]], {"shape": (4, 3)},
           ref=lambda a, shape: np.broadcast_to(a, shape), grad=True),
    Record("_np_atleast_1d", [np.float32(3.0), X], {},
           ref=lambda a, b: [np.atleast_1d(a), b]),
    Record("_np_atleast_2d", [V], {}, ref=lambda a: np.atleast_2d(a)),
    Record("_np_atleast_3d", [X], {}, ref=lambda a: np.atleast_3d(a)),
    Record("_npi_flip", [X], {"axis": (0, 1)}, ref=lambda a, axis: np.flip(a, axis), grad=True),
    Record("_np_roll", [X], {"shift": (1,), "axis": (1,)},
           ref=lambda a, shift, axis: np.roll(a, shift, axis), grad=True),
    Record("_np_roll", [X], {"shift": (2,)}, name="np_roll_flat",
           ref=lambda a, shift: np.roll(a, shift)),
    Record("_npi_rot90", [X], {"k": 2, "axes": (0, 1)},
           ref=lambda a, k, axes: np.rot90(a, k, axes), grad=True),
    Record("_npi_tile", [X], {"reps": (2, 1)}, ref=lambda a, reps: np.tile(a, reps), grad=True),
    Record("_np_repeat", [X], {"repeats": 2, "axis": 1},
           ref=lambda a, repeats, axis: np.repeat(a, repeats, axis), grad=True),
    Record("_np_copy", [X], {}, ref=np.copy, grad=True),
]

JOIN = [
    Record("_npi_concatenate", [X, X[:1]], {"axis": 0},
           ref=lambda a, b, axis: np.concatenate([a, b], axis), grad=True),
    Record("_npi_concatenate", [X, V], {"axis": None}, name="np_concatenate_flat",
           ref=lambda a, b, axis: np.concatenate([a, b], axis=None)),
    Record("_npi_stack", [V, V * 2], {"axis": 1},
           ref=lambda a, b, axis: np.stack([a, b], axis), grad=True),
    Record("_npi_vstack", [V, V], {}, ref=lambda a, b: np.vstack([a, b]), grad=True),
    Record("_npi_hstack", [X, X], {}, ref=lambda a, b: np.hstack([a, b]), grad=True),
    Record("_npi_dstack", [X, X], {}, ref=lambda a, b: np.dstack([a, b]), grad=True),
    Record("_npi_column_stack", [V, V], {}, ref=lambda a, b: np.column_stack([a, b]),
           grad=True),
    Record("_npi_split", [X], {"indices": (), "axis": 1, "sections": 3}, ref=_split_ref,
           grad=True),
    Record("_npi_split", [V], {"indices": (0, 1, 3), "axis": 0}, name="np_split_indices",
           ref=_split_ref),
    Record("_npi_hsplit", [X.reshape(3, 2)], {"indices": (), "sections": 2},
           ref=lambda a, indices, sections: np.hsplit(a, sections)),
    Record("_npi_dsplit", [X.reshape(1, 3, 2)], {"indices": (0, 1)},
           ref=lambda a, indices: np.dsplit(a, [1])),
    Record("_npi_delete", [X], {"int_ind": 1, "axis": 1},
           ref=lambda a, int_ind, axis: np.delete(a, int_ind, axis)),
    Record("_npi_delete", [V, IDX], {"axis": 0}, name="np_delete_array", symbolic=False,
           ref=lambda a, obj, axis: np.delete(a, obj, axis)),
    Record("_npi_insert_scalar", [V], {"val": 5.0, "int_ind": 1}, ref=_insert_ref),
    Record("_npi_insert_slice", [V, np.array([7.0, 8.0], np.float32)],
           {"start": 0, "stop": 4, "step": 2}, ref=_insert_ref),
    Record("_npi_insert_tensor", [V, np.array([7.0, 8.0], np.float32), IDX], {},
           ref=_insert_ref, symbolic=False),
]

SELECT = [
    Record("_npi_take", [X, IDX], {"axis": 1}, ref=lambda a, i, axis: np.take(a, i, axis),
           grad=True, grad_inputs=(0,)),
    Record("_npi_take", [X, np.array([0, 7])], {"axis": 1, "mode": "wrap"},
           name="np_take_wrap", ref=lambda a, i, axis, mode: np.take(a, i, axis, mode=mode)),
    Record("_npi_where", [C, V[:3], V[1:]], {}, ref=lambda c, x, y: np.where(c, x, y),
           grad=True, grad_inputs=(1, 2)),
    Record("_npi_where_lscalar", [C, V[:3]], {"scalar": 2.0},
           ref=lambda c, y, scalar: np.where(c, scalar, y)),
    Record("_npi_where_rscalar", [C, V[:3]], {"scalar": 2.0},
           ref=lambda c, x, scalar: np.where(c, x, scalar)),
    Record("_npi_where_scalar2", [C], {"x": 1.0, "y": -1.0},
           ref=lambda c, x, y: np.where(c, x, y).astype(np.float32)),
    Record("_npi_nonzero", [X], {}, ref=lambda a: np.argwhere(a), symbolic=False),
    Record("_npi_pad", [X], {"pad_width": ((1, 0), (2, 1)), "mode": "edge"},
           ref=lambda a, pad_width, mode: np.pad(a, pad_width, mode)),
    Record("_npi_pad", [X], {"pad_width": ((1, 1), (1, 2)), "mode": "constant",
                             "constant_value": 3.0}, name="np_pad_constant", grad=True,
           ref=lambda a, pad_width, mode, constant_value: np.pad(
               a, pad_width, mode, constant_values=constant_value)),
    Record("_npi_pad", [X], {"pad_width": ((1, 1), (2, 2)), "mode": "reflect"},
           name="np_pad_reflect", ref=lambda a, pad_width, mode: np.pad(a, pad_width, mode)),
    Record("_npi_pad", [X], {"pad_width": ((1, 1), (4, 4)), "mode": "symmetric"},
           name="np_pad_symmetric", ref=lambda a, pad_width, mode: np.pad(a, pad_width, mode)),
    Record("_npi_pad", [X], {"pad_width": ((0, 1), (1, 0)), "mode": "minimum"},
           name="np_pad_minimum", ref=lambda a, pad_width, mode: np.pad(a, pad_width, mode)),
    Record("_npi_share_memory", [X, X], {}, ref=lambda a, b: np.array(False)),
    Record("_npi_diff", [V], {"n": 2}, ref=lambda a, n: np.diff(a, n), grad=True),
    Record("_npi_boolean_mask_assign_scalar", [X, np.array([True, False])],
           {"value": 5.0, "start_axis": 0}, ref=_mask_assign_ref),
    Record("_npi_boolean_mask_assign_tensor",
           [X, np.array([False, True, True]), np.array([[7.0], [8.0]], np.float32)],
           {"start_axis": 1}, ref=_mask_assign_ref),
    Record("_npi_ediff1d", [V], {"to_begin_scalar": -1.0}, ref=_ediff_ref, grad=True),
]

CREATE = [
    Record("_npi_zeros", [], {"shape": (2, 3)}, ref=lambda shape: np.zeros(shape, np.float32)),
    Record("_npi_ones", [], {"shape": (3,), "dtype": "int32"},
           ref=lambda shape, dtype: np.ones(shape, dtype)),
    Record("_npi_full", [], {"shape": (2, 2), "value": 7.5},
           ref=lambda shape, value: np.full(shape, value, np.float32)),
    Record("_npi_full_like", [X], {"fill_value": 2.0},
           ref=lambda a, fill_value: np.full_like(a, fill_value)),
    Record("_npi_arange", [], {"start": 1, "stop": 7, "step": 2},
           ref=lambda start, stop, step: np.arange(start, stop, step, dtype=np.float32)),
    Record("_npi_identity", [], {"shape": (3, 3)}, ref=lambda shape: np.eye(3)),
    Record("_npi_eye", [], {"N": 3, "M": 4, "k": -1},
           ref=lambda N, M, k: np.eye(N, M, k)),  # noqa: N803
    Record("_npi_linspace", [], {"start": 0, "stop": 1, "num": 5},
           ref=lambda start, stop, num: np.linspace(start, stop, num)),
    Record("_npi_logspace", [], {"start": 0, "stop": 2, "num": 3, "base": 2.0},
           ref=lambda start, stop, num, base: np.logspace(start, stop, num, base=base)),
    Record("_npi_indices", [], {"dimensions": (2, 3)},
           ref=lambda dimensions: np.indices(dimensions)),
    Record("_npi_hanning", [], {"M": 5}, ref=lambda M: np.hanning(M), atol=1e-6),  # noqa: N803
    Record("_npi_hamming", [], {"M": 5}, ref=lambda M: np.hamming(M), atol=1e-6),  # noqa: N803
    Record("_npi_blackman", [], {"M": 5}, ref=lambda M: np.blackman(M), atol=1e-6),  # noqa: N803
    Record("_npi_tril", [np.ones((3, 3), np.float32)], {"k": 0},
           ref=lambda a, k: np.tril(a, k), grad=True),
    Record("_np_diag", [X], {"k": 1}, ref=lambda a, k: np.diag(a, k), grad=True),
    Record("_np_diagflat", [V], {"k": -1}, ref=lambda a, k: np.diagflat(a, k), grad=True),
    Record("_np_diagonal", [X.reshape(1, 2, 3)], {"offset": 1, "axis1": 1, "axis2": 2},
           ref=lambda a, offset, axis1, axis2: np.diagonal(a, offset, axis1, axis2), grad=True),
    Record("_npi_diag_indices_from", [np.ones((3, 3), np.float32)], {},
           ref=lambda a: np.array(np.diag_indices_from(a))),
]

RECORDS = SHAPE + JOIN + SELECT + CREATE


@pytest.mark.parametrize("rec", RECORDS, ids=lambda r: r.id)
def test_record(rec):
    run_record(rec)
