"""Inception V3 (Szegedy et al. 2015); expects 299x299 inputs."""

from __future__ import annotations

from ...block import HybridBlock
from ...contrib.nn import HybridConcurrent
from ...nn import (
    Activation,
    AvgPool2D,
    BatchNorm,
    Conv2D,
    Dense,
    Dropout,
    HybridSequential,
    MaxPool2D,
)
from ._common import DEFAULT_CTX, DEFAULT_ROOT, load_pretrained

__all__ = ["Inception3", "inception_v3"]

_SETTING_NAMES = ("channels", "kernel_size", "strides", "padding")


def _basic_conv(**kwargs):
    out = HybridSequential(prefix="")
    out.add(Conv2D(use_bias=False, **kwargs), BatchNorm(epsilon=0.001), Activation("relu"))
    return out


def _branch(use_pool, *conv_settings):
    out = HybridSequential(prefix="")
    if use_pool == "avg":
        out.add(AvgPool2D(pool_size=3, strides=1, padding=1))
    elif use_pool == "max":
        out.add(MaxPool2D(pool_size=3, strides=2))
    for setting in conv_settings:
        kwargs = {n: v for n, v in zip(_SETTING_NAMES, setting) if v is not None}
        out.add(_basic_conv(**kwargs))
    return out


def _concat(prefix, *branch_args):
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        for args in branch_args:
            out.add(_branch(*args))
    return out


def _make_A(pool_features, prefix):
    return _concat(
        prefix,
        (None, (64, 1, None, None)),
        (None, (48, 1, None, None), (64, 5, None, 2)),
        (None, (64, 1, None, None), (96, 3, None, 1), (96, 3, None, 1)),
        ("avg", (pool_features, 1, None, None)),
    )


def _make_B(prefix):
    return _concat(
        prefix,
        (None, (384, 3, 2, None)),
        (None, (64, 1, None, None), (96, 3, None, 1), (96, 3, 2, None)),
        ("max",),
    )


def _make_C(c7, prefix):
    return _concat(
        prefix,
        (None, (192, 1, None, None)),
        (None, (c7, 1, None, None), (c7, (1, 7), None, (0, 3)), (192, (7, 1), None, (3, 0))),
        (
            None,
            (c7, 1, None, None),
            (c7, (7, 1), None, (3, 0)),
            (c7, (1, 7), None, (0, 3)),
            (c7, (7, 1), None, (3, 0)),
            (192, (1, 7), None, (0, 3)),
        ),
        ("avg", (192, 1, None, None)),
    )


def _make_D(prefix):
    return _concat(
        prefix,
        (None, (192, 1, None, None), (320, 3, 2, None)),
        (
            None,
            (192, 1, None, None),
            (192, (1, 7), None, (0, 3)),
            (192, (7, 1), None, (3, 0)),
            (192, 3, 2, None),
        ),
        ("max",),
    )


def _split(*settings):
    out = HybridConcurrent(axis=1, prefix="")
    for s in settings:
        out.add(_branch(None, s))
    return out


def _make_E(prefix):
    out = HybridConcurrent(axis=1, prefix=prefix)
    with out.name_scope():
        out.add(_branch(None, (320, 1, None, None)))
        b3 = HybridSequential(prefix="")
        out.add(b3)
        b3.add(_branch(None, (384, 1, None, None)))
        b3.add(_split((384, (1, 3), None, (0, 1)), (384, (3, 1), None, (1, 0))))
        b3d = HybridSequential(prefix="")
        out.add(b3d)
        b3d.add(_branch(None, (448, 1, None, None), (384, 3, None, 1)))
        b3d.add(_split((384, (1, 3), None, (0, 1)), (384, (3, 1), None, (1, 0))))
        out.add(_branch("avg", (192, 1, None, None)))
    return out


class Inception3(HybridBlock):
    """Inception V3.

    Examples
    --------
    >>> net = inception_v3(classes=10)
    """

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            f = self.features = HybridSequential(prefix="")
            f.add(
                _basic_conv(channels=32, kernel_size=3, strides=2),
                _basic_conv(channels=32, kernel_size=3),
                _basic_conv(channels=64, kernel_size=3, padding=1),
                MaxPool2D(pool_size=3, strides=2),
                _basic_conv(channels=80, kernel_size=1),
                _basic_conv(channels=192, kernel_size=3),
                MaxPool2D(pool_size=3, strides=2),
            )
            f.add(
                _make_A(32, "A1_"),
                _make_A(64, "A2_"),
                _make_A(64, "A3_"),
                _make_B("B_"),
                _make_C(128, "C1_"),
                _make_C(160, "C2_"),
                _make_C(160, "C3_"),
                _make_C(192, "C4_"),
                _make_D("D_"),
                _make_E("E1_"),
                _make_E("E2_"),
            )
            f.add(AvgPool2D(pool_size=8), Dropout(0.5))
            self.output = Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def inception_v3(pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """Inception V3; ``pretrained=True`` loads MXNet's ImageNet weights."""
    net = Inception3(**kwargs)
    if pretrained:
        load_pretrained(net, "inceptionv3", ctx, root)
    return net
