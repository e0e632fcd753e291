"""mxnet-benchmarks: the seed's benchmark tool (tf_cnn_benchmarks-like CLI over Module)."""

from .benchmarks import main, run

__all__ = ["main", "run"]
