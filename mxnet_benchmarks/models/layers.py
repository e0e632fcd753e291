"""Small building blocks shared by the benchmark models."""

from __future__ import annotations

import mxnet as mx


class Model:
    """Base of every benchmark model: ``output`` is the head symbol.

    ``params`` holds at least ``model`` (the id), ``phase`` (``'training'`` or
    ``'inference'``), ``batch_size`` and ``dtype``.
    """

    implements: str | list[str] = ""
    input_shape: tuple[int, ...] = (3, 224, 224)
    num_classes = 1000

    def __init__(self, params: dict):
        self.params = params
        self._output = None

    @property
    def output(self):
        return self._output

    @property
    def phase(self) -> str:
        return self.params.get("phase", "training")

    def data(self):
        """The input variable, cast to the benchmark dtype when it is not float32.

        With ``params['input_size']`` (tests), an image-like input becomes ``S x S``.
        """
        size = self.params.get("input_size")
        if size and len(self.input_shape) == 3:
            self.input_shape = (self.input_shape[0], size, size)
        data = mx.sym.Variable("data")
        dtype = self.params.get("dtype", "float32")
        if dtype != "float32":
            data = mx.sym.Cast(data, dtype=dtype)
        return data

    def add_head_nodes(self, v):
        """Classifier + loss: ``FullyConnected(num_classes)`` then softmax."""
        v = mx.sym.FullyConnected(data=v, num_hidden=self.num_classes, name="fc_out")
        if self.params.get("dtype", "float32") != "float32":
            v = mx.sym.Cast(v, dtype="float32")
        if self.phase == "training":
            return mx.sym.SoftmaxOutput(data=v, name="softmax")
        return mx.sym.softmax(data=v, name="softmax")


def conv(v, num_filter, kernel, stride=(1, 1), pad=(0, 0), name=None, act="relu", bn=False,
         no_bias=None):
    """Convolution (+ BatchNorm) (+ activation)."""
    if no_bias is None:
        no_bias = bn
    v = mx.sym.Convolution(data=v, num_filter=num_filter, kernel=kernel, stride=stride,
                           pad=pad, no_bias=no_bias, name=name)
    if bn:
        v = mx.sym.BatchNorm(data=v, fix_gamma=False, eps=1e-3, momentum=0.9,
                             name=None if name is None else f"{name}_bn")
    if act:
        v = mx.sym.Activation(data=v, act_type=act)
    return v


def pool(v, kernel, stride, pool_type="max", pad=(0, 0), convention="valid"):
    """Pooling; ``convention='full'`` rounds the output size up (TensorFlow's SAME-like)."""
    return mx.sym.Pooling(data=v, kernel=kernel, stride=stride, pad=pad, pool_type=pool_type,
                          pooling_convention=convention)


def fc(v, num_hidden, act="relu", dropout=0.0, name=None):
    v = mx.sym.FullyConnected(data=v, num_hidden=num_hidden, name=name)
    if act:
        v = mx.sym.Activation(data=v, act_type=act)
    if dropout > 0:
        v = mx.sym.Dropout(data=v, p=dropout)
    return v
