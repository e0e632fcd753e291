"""Gluon utilities: data splitting across contexts, gradient clipping, downloads."""

from __future__ import annotations

import hashlib
import os
import uuid
import warnings

import numpy as np

from .parameter import _brief_print_list  # noqa: F401

__all__ = [
    "split_data",
    "split_and_load",
    "clip_global_norm",
    "check_sha1",
    "download",
    "replace_file",
]


def shape_is_known(shape) -> bool:
    """Whether ``shape`` is fully known, as MXNet 1.9.1's public helper: unknown dimensions
    are 0 (or -1 under ``np_shape``, where 0 is a real size and ``()`` a known scalar
    shape); a dimension below that marker raises AssertionError."""
    if shape is None:
        return False
    from ..util import is_np_shape

    unknown = -1 if is_np_shape() else 0
    if len(shape) == 0:
        return unknown == -1
    for dim in shape:
        if dim == unknown:
            return False
        assert dim > unknown, (
            f"shape dimension size cannot be less than {unknown}, while received {dim}"
        )
    return True


def _indent(s_, num_spaces):
    """Indent every line of ``s_`` but the first by ``num_spaces`` (MXNet's repr helper)."""
    from .block import _indent as indent

    return indent(s_, num_spaces)


def _is_np_array_obj(x) -> bool:
    from ..numpy import ndarray as np_ndarray

    return isinstance(x, np_ndarray)


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Split ``data`` into ``num_slice`` slices along ``batch_axis``.

    Examples
    --------
    >>> [s.shape for s in split_data(mx.nd.ones((5, 2)), 2, even_split=False)]
    [(3, 2), (2, 2)]
    """
    from .. import ndarray

    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(
            f"data with shape {data.shape} cannot be evenly split into {num_slice} slices "
            f"along axis {batch_axis}. Use a batch size that's multiple of {num_slice} or set "
            "even_split=False to allow uneven partitioning of data."
        )
    n_each, extras = divmod(size, num_slice)
    sizes = [0] + extras * [n_each + 1] + (num_slice - extras) * [n_each]
    div = np.array(sizes).cumsum()
    if batch_axis != 0:
        from ._np_mode import to_np

        is_np = _is_np_array_obj(data)
        src = data.as_nd_ndarray() if is_np else data  # slice_axis is a classic operator
        res = [
            ndarray.slice_axis(src, axis=batch_axis, begin=int(div[i]), end=int(div[i + 1]))
            for i in range(num_slice)
        ]
        return to_np(res) if is_np else res
    return [
        data[int(div[i]) : int(div[i + 1])] if i < num_slice - 1 else data[int(div[i]) : size]
        for i in range(num_slice)
    ]


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Split ``data`` along ``batch_axis`` and copy slice ``i`` to ``ctx_list[i]``.

    Examples
    --------
    >>> parts = split_and_load(mx.nd.ones((4, 2)), [mx.cpu(0), mx.cpu(1)])
    >>> [p.context for p in parts]
    [cpu(0), cpu(1)]
    """
    from .. import ndarray

    if not isinstance(data, ndarray.NDArray):
        from ..util import is_np_array

        if is_np_array():
            from ..numpy import array as np_array

            data = np_array(data, ctx=ctx_list[0], dtype=getattr(data, "dtype", None))
        else:
            data = ndarray.array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [s.as_in_context(ctx) for s, ctx in zip(slices, ctx_list)]


def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Scale ``arrays`` in place so that their joint 2-norm is at most ``max_norm``.

    Returns the norm before clipping (a float, or an NDArray when ``check_isfinite`` is
    False).

    Examples
    --------
    >>> a = [mx.nd.array([3., 4.])]
    >>> clip_global_norm(a, 1.0)
    5.0
    """
    from .. import ndarray

    if len(arrays) == 0:
        raise AssertionError("arrays must not be empty")
    ctx = arrays[0].context

    def _norm(array):
        if getattr(array, "stype", "default") != "default":
            array = array.tostype("default")  # row_sparse / csr: the same sum of squares
        x = array.reshape((-1,))
        return ndarray.dot(x, x)

    total = _norm(arrays[0]).as_in_context(ctx)
    for arr in arrays[1:]:
        total = total + _norm(arr).as_in_context(ctx)
    total_norm = ndarray.sqrt(total).reshape((1,))
    if check_isfinite and not np.isfinite(total_norm.asscalar()):
        warnings.warn(
            UserWarning("nan or inf is detected. Clipping results will be undefined."), stacklevel=2
        )
    scale = max_norm / (total_norm + 1e-8)
    scale = ndarray.broadcast_minimum(scale, ndarray.ones((1,), ctx=ctx, dtype=scale.dtype))
    for arr in arrays:
        arr *= scale.as_in_context(arr.context)
    if check_isfinite:
        return total_norm.asscalar()
    return total_norm


def check_sha1(filename, sha1_hash):
    """Whether the SHA-1 of ``filename`` equals ``sha1_hash`` (hex digits)."""
    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        while True:
            data = f.read(1048576)
            if not data:
                break
            sha1.update(data)
    return sha1.hexdigest() == sha1_hash


def _fetch(url, dest, verify_ssl):
    try:  # MXNet downloads through requests; use it when installed
        import requests
    except ImportError:
        requests = None
    if requests is not None:
        r = requests.get(url, stream=True, verify=verify_ssl)
        if r.status_code != 200:
            raise RuntimeError(f"Failed downloading url {url}")
        with open(dest, "wb") as f:
            for chunk in r.iter_content(chunk_size=1024):
                if chunk:
                    f.write(chunk)
        return
    import ssl
    import urllib.request

    context = None if verify_ssl else ssl._create_unverified_context()
    with urllib.request.urlopen(url, timeout=60, context=context) as r:
        status = getattr(r, "status", 200)
        if status != 200:
            raise RuntimeError(f"Failed downloading url {url}")
        with open(dest, "wb") as f:
            while True:
                chunk = r.read(1 << 20)
                if not chunk:
                    break
                f.write(chunk)


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Download ``url`` to ``path`` (a file or a folder), checking ``sha1_hash`` if given.

    Retries ``retries`` times; the file is written to a temporary name and renamed into place.
    Returns the file path.

    Examples
    --------
    >>> download('https://example.com/x.params', path='/tmp/')  # doctest: +SKIP
    """
    if path is None:
        fname = url.split("/")[-1]
        if not fname:
            raise AssertionError(
                "Can't construct file-name from this URL. Please set the `path` option manually."
            )
    else:
        path = os.path.expanduser(path)
        fname = os.path.join(path, url.split("/")[-1]) if os.path.isdir(path) else path
    if retries < 0:
        raise AssertionError(f"Number of retries should be at least 0, currently it's {retries}")
    if not verify_ssl:
        warnings.warn(
            "Unverified HTTPS request is being made (verify_ssl=False). Adding "
            "certificate verification is strongly advised.",
            stacklevel=2,
        )
    if overwrite or not os.path.exists(fname) or (sha1_hash and not check_sha1(fname, sha1_hash)):
        dirname = os.path.dirname(os.path.abspath(os.path.expanduser(fname)))
        os.makedirs(dirname, exist_ok=True)
        while retries + 1 > 0:
            tmp = f"{fname}.{uuid.uuid4()}"
            try:
                print(f"Downloading {fname} from {url}...")
                _fetch(url, tmp, verify_ssl)
                os.replace(tmp, fname)
                if sha1_hash and not check_sha1(fname, sha1_hash):
                    raise UserWarning(
                        f"File {fname} is downloaded but the content hash does not match. "
                        "The repo may be outdated or download may be incomplete. If the "
                        '"repo_url" is overridden, consider switching to the default repo.'
                    )
                break
            except Exception as e:
                if os.path.exists(tmp):
                    os.remove(tmp)
                retries -= 1
                if retries <= 0:
                    raise  # MXNet re-raises the last failure as it came (requests' errors...)
                print(
                    f"download failed due to {e!r}, retrying, {retries} attempt"
                    f"{'s' if retries > 1 else ''} left"
                )
    return fname


def _get_repo_url():
    default_repo = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/"
    repo_url = os.environ.get("MXNET_GLUON_REPO", default_repo)
    if repo_url[-1] != "/":
        repo_url = repo_url + "/"
    return repo_url


def _get_repo_file_url(namespace, filename):
    return f"{_get_repo_url()}{namespace}/{filename}"


def replace_file(src, dst):
    """Move ``src`` over ``dst`` atomically; on failure remove ``src`` and raise OSError."""
    try:
        os.replace(src, dst)
    except OSError:
        try:
            os.remove(src)
        except OSError:
            pass
        raise OSError(
            f"Moving downloaded temp file - {src}, to {dst} failed. Please retry the download."
        ) from None


def __getattr__(name):
    if name == "HookHandle":  # defined with Block (which imports this module)
        from .block import HookHandle

        return HookHandle
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
