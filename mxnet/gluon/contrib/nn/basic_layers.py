"""Experimental layers: Concurrent, HybridConcurrent, Identity, SyncBatchNorm,
PixelShuffle1D/2D/3D."""

from __future__ import annotations

from ...block import Block, HybridBlock
from ...nn import BatchNorm, HybridSequential, Sequential

__all__ = ["Concurrent", "HybridConcurrent", "Identity", "SparseEmbedding", "SyncBatchNorm",
           "PixelShuffle1D", "PixelShuffle2D", "PixelShuffle3D"]


class Concurrent(Sequential):
    """Run every child on the same input and concatenate the outputs along ``axis``.

    Examples
    --------
    >>> net = Concurrent()
    >>> with net.name_scope():
    ...     net.add(mx.gluon.nn.Dense(2), mx.gluon.nn.Dense(3))
    """

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def forward(self, x):
        from .... import ndarray as nd

        out = [block(x) for block in self._children.values()]
        return nd.concat(*out, dim=self.axis)


class HybridConcurrent(HybridSequential):
    """Hybridizable :class:`Concurrent`."""

    def __init__(self, axis=-1, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)
        self.axis = axis

    def hybrid_forward(self, F, x):
        out = [block(x) for block in self._children.values()]
        return F.concat(*out, dim=self.axis)


class Identity(HybridBlock):
    """Return the input unchanged (useful as a branch of :class:`HybridConcurrent`)."""

    def hybrid_forward(self, F, x):
        return x


class SparseEmbedding(Block):
    """Embedding whose weight is a row_sparse Parameter: each forward pulls only the rows
    it looks up (through the Trainer's kvstore) and the gradient is row_sparse.

    Examples
    --------
    >>> SparseEmbedding(10, 4)
    SparseEmbedding(10 -> 4, float32)
    """

    def __init__(self, input_dim, output_dim, dtype="float32", weight_initializer=None,
                 **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype,
                        "sparse_grad": True}
        self.weight = self.params.get("weight", shape=(input_dim, output_dim),
                                      init=weight_initializer, dtype=dtype,
                                      grad_stype="row_sparse", stype="row_sparse")

    def forward(self, x):
        from .... import ndarray as nd

        weight = self.weight.row_sparse_data(x)
        return nd.Embedding(x, weight, name="fwd", **self._kwargs)

    def __repr__(self):
        k = self._kwargs
        return f"{self.__class__.__name__}({k['input_dim']} -> {k['output_dim']}, {k['dtype']})"


class SyncBatchNorm(BatchNorm):
    """Cross-device batch normalization through ``contrib.SyncBatchNorm`` (``ndev`` devices,
    keyed by the block prefix, as MXNet 1.9.1); one device computes as :class:`BatchNorm`,
    more raise MXNetError from the operator.

    Examples
    --------
    >>> bn = mx.gluon.contrib.nn.SyncBatchNorm(in_channels=2, num_devices=1)
    """

    def __init__(self, in_channels=0, num_devices=None, momentum=0.9, epsilon=1e-5,
                 center=True, scale=True, use_global_stats=False, beta_initializer="zeros",
                 gamma_initializer="ones", running_mean_initializer="zeros",
                 running_variance_initializer="ones", **kwargs):
        super().__init__(1, momentum, epsilon, center, scale, use_global_stats,
                         beta_initializer, gamma_initializer, running_mean_initializer,
                         running_variance_initializer, in_channels, **kwargs)
        if num_devices is None:
            num_devices = self._get_num_devices()
        self._num_devices = num_devices
        self._kwargs = {"eps": epsilon, "momentum": momentum, "fix_gamma": not scale,
                        "use_global_stats": use_global_stats, "ndev": num_devices,
                        "key": self.prefix}

    def _get_num_devices(self) -> int:
        import warnings

        from .... import context

        warnings.warn("Caution using SyncBatchNorm: if not using all the GPUs, please "
                      "mannually set num_devices", UserWarning, stacklevel=3)
        return max(context.num_gpus(), 1)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.contrib.SyncBatchNorm(x, gamma, beta, running_mean, running_var, name="fwd",
                                       **self._kwargs)


def _factors(factor, n):
    if isinstance(factor, int):
        return (factor,) * n
    factor = tuple(int(f) for f in factor)
    if len(factor) != n:
        raise ValueError(f"wrong length {len(factor)} of factor, expected {n}")
    return factor


class PixelShuffle1D(HybridBlock):
    """Move channels into the width: ``(N, f*C, W) -> (N, C, W*f)``."""

    def __init__(self, factor):
        super().__init__()
        self._factor = int(factor)

    def hybrid_forward(self, F, x):
        f = self._factor
        x = F.reshape(x, (0, -4, -1, f, 0))
        x = F.transpose(x, (0, 1, 3, 2))
        return F.reshape(x, (0, 0, -3))

    def __repr__(self):
        return f"{self.__class__.__name__}({self._factor})"


class PixelShuffle2D(HybridBlock):
    """Move channels into space: ``(N, f1*f2*C, H, W) -> (N, C, H*f1, W*f2)``."""

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 2)

    def hybrid_forward(self, F, x):
        f1, f2 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2, 0, 0))
        x = F.reshape(x, (0, 0, -4, f1, f2, 0, 0))
        x = F.transpose(x, (0, 1, 4, 2, 5, 3))
        return F.reshape(x, (0, 0, -3, -3))

    def __repr__(self):
        return f"{self.__class__.__name__}({self._factors})"


class PixelShuffle3D(HybridBlock):
    """Move channels into space: ``(N, f1*f2*f3*C, D, H, W) -> (N, C, D*f1, H*f2, W*f3)``."""

    def __init__(self, factor):
        super().__init__()
        self._factors = _factors(factor, 3)

    def hybrid_forward(self, F, x):
        f1, f2, f3 = self._factors
        x = F.reshape(x, (0, -4, -1, f1 * f2 * f3, 0, 0, 0))
        x = F.swapaxes(x, 2, 3)
        x = F.swapaxes(x, 3, 4)
        x = F.swapaxes(x, 4, 5)
        x = F.reshape(x, (0, 0, 0, 0, 0, -4, f1, f2 * f3))
        x = F.reshape(x, (0, 0, 0, 0, 0, 0, -4, f2, f3))
        x = F.transpose(x, (0, 1, 2, 5, 3, 6, 4, 7))
        return F.reshape(x, (0, 0, -3, -3, -3))

    def __repr__(self):
        return f"{self.__class__.__name__}({self._factors})"
