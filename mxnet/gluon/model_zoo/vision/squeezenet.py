"""SqueezeNet 1.0 and 1.1 (Iandola et al. 2016)."""

from __future__ import annotations

from ...block import HybridBlock
from ...contrib.nn import HybridConcurrent
from ...nn import Activation, AvgPool2D, Conv2D, Dropout, Flatten, HybridSequential, MaxPool2D
from ._common import DEFAULT_CTX, DEFAULT_ROOT, load_pretrained

__all__ = ["SqueezeNet", "squeezenet1_0", "squeezenet1_1"]


def _fire_conv(channels, kernel_size, padding=0):
    out = HybridSequential(prefix="")
    out.add(Conv2D(channels, kernel_size, padding=padding), Activation("relu"))
    return out


def _fire(squeeze, expand1x1, expand3x3):
    out = HybridSequential(prefix="")
    out.add(_fire_conv(squeeze, 1))
    paths = HybridConcurrent(axis=1, prefix="")
    paths.add(_fire_conv(expand1x1, 1))
    paths.add(_fire_conv(expand3x3, 3, 1))
    out.add(paths)
    return out


class SqueezeNet(HybridBlock):
    """SqueezeNet ``version`` '1.0' or '1.1'.

    Examples
    --------
    >>> net = squeezenet1_1(classes=10)
    """

    def __init__(self, version, classes=1000, **kwargs):
        super().__init__(**kwargs)
        if version not in ("1.0", "1.1"):
            raise AssertionError(f"Unsupported SqueezeNet version {version}:1.0 or 1.1 expected")
        with self.name_scope():
            f = self.features = HybridSequential(prefix="")
            if version == "1.0":
                f.add(
                    Conv2D(96, kernel_size=7, strides=2),
                    Activation("relu"),
                    MaxPool2D(pool_size=3, strides=2, ceil_mode=True),
                )
                f.add(_fire(16, 64, 64), _fire(16, 64, 64), _fire(32, 128, 128))
                f.add(MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                f.add(
                    _fire(32, 128, 128),
                    _fire(48, 192, 192),
                    _fire(48, 192, 192),
                    _fire(64, 256, 256),
                )
                f.add(MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                f.add(_fire(64, 256, 256))
            else:
                f.add(
                    Conv2D(64, kernel_size=3, strides=2),
                    Activation("relu"),
                    MaxPool2D(pool_size=3, strides=2, ceil_mode=True),
                )
                f.add(_fire(16, 64, 64), _fire(16, 64, 64))
                f.add(MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                f.add(_fire(32, 128, 128), _fire(32, 128, 128))
                f.add(MaxPool2D(pool_size=3, strides=2, ceil_mode=True))
                f.add(
                    _fire(48, 192, 192),
                    _fire(48, 192, 192),
                    _fire(64, 256, 256),
                    _fire(64, 256, 256),
                )
            f.add(Dropout(0.5))
            self.output = HybridSequential(prefix="")
            self.output.add(
                Conv2D(classes, kernel_size=1), Activation("relu"), AvgPool2D(13), Flatten()
            )

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def get_squeezenet(version, pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """SqueezeNet of ``version``; ``pretrained=True`` loads MXNet's ImageNet weights."""
    net = SqueezeNet(version, **kwargs)
    if pretrained:
        load_pretrained(net, f"squeezenet{version}", ctx, root)
    return net


def squeezenet1_0(**kwargs):
    """SqueezeNet 1.0."""
    return get_squeezenet("1.0", **kwargs)


def squeezenet1_1(**kwargs):
    """SqueezeNet 1.1."""
    return get_squeezenet("1.1", **kwargs)
