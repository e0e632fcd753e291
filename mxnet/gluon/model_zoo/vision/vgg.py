"""VGG 11/13/16/19 with and without BatchNorm (Simonyan & Zisserman 2014)."""

from __future__ import annotations

from ....initializer import Xavier
from ...block import HybridBlock
from ...nn import Activation, BatchNorm, Conv2D, Dense, Dropout, HybridSequential, MaxPool2D
from ._common import DEFAULT_CTX, DEFAULT_ROOT, load_pretrained

__all__ = [
    "VGG",
    "vgg11",
    "vgg13",
    "vgg16",
    "vgg19",
    "vgg11_bn",
    "vgg13_bn",
    "vgg16_bn",
    "vgg19_bn",
    "get_vgg",
]


class VGG(HybridBlock):
    """VGG: ``layers[i]`` 3x3 convolutions with ``filters[i]`` channels per stage.

    Examples
    --------
    >>> net = vgg11(classes=10)
    """

    def __init__(self, layers, filters, classes=1000, batch_norm=False, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(filters):
            raise AssertionError("layers and filters must have the same length")
        with self.name_scope():
            self.features = self._make_features(layers, filters, batch_norm)
            self.features.add(
                Dense(
                    4096, activation="relu", weight_initializer="normal", bias_initializer="zeros"
                ),
                Dropout(rate=0.5),
                Dense(
                    4096, activation="relu", weight_initializer="normal", bias_initializer="zeros"
                ),
                Dropout(rate=0.5),
            )
            self.output = Dense(classes, weight_initializer="normal", bias_initializer="zeros")

    def _make_features(self, layers, filters, batch_norm):
        featurizer = HybridSequential(prefix="")
        for i, num in enumerate(layers):
            for _ in range(num):
                featurizer.add(
                    Conv2D(
                        filters[i],
                        kernel_size=3,
                        padding=1,
                        weight_initializer=Xavier(
                            rnd_type="gaussian", factor_type="out", magnitude=2
                        ),
                        bias_initializer="zeros",
                    )
                )
                if batch_norm:
                    featurizer.add(BatchNorm())
                featurizer.add(Activation("relu"))
            featurizer.add(MaxPool2D(strides=2))
        return featurizer

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


vgg_spec = {
    11: ([1, 1, 2, 2, 2], [64, 128, 256, 512, 512]),
    13: ([2, 2, 2, 2, 2], [64, 128, 256, 512, 512]),
    16: ([2, 2, 3, 3, 3], [64, 128, 256, 512, 512]),
    19: ([2, 2, 4, 4, 4], [64, 128, 256, 512, 512]),
}


def get_vgg(num_layers, pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """VGG with ``num_layers`` (11, 13, 16, 19); ``batch_norm=True`` adds BatchNorm."""
    layers, filters = vgg_spec[num_layers]
    net = VGG(layers, filters, **kwargs)
    if pretrained:
        suffix = "_bn" if kwargs.get("batch_norm") else ""
        load_pretrained(net, f"vgg{num_layers}{suffix}", ctx, root)
    return net


def _ctor(n, bn):
    def fn(**kwargs):
        if bn:
            kwargs["batch_norm"] = True
        return get_vgg(n, **kwargs)

    fn.__name__ = f"vgg{n}{'_bn' if bn else ''}"
    fn.__doc__ = f"VGG-{n}{' with BatchNorm' if bn else ''}."
    return fn


vgg11, vgg13, vgg16, vgg19 = (_ctor(n, False) for n in (11, 13, 16, 19))
vgg11_bn, vgg13_bn, vgg16_bn, vgg19_bn = (_ctor(n, True) for n in (11, 13, 16, 19))
