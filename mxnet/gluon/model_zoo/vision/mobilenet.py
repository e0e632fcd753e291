"""MobileNet V1 (Howard et al. 2017) and V2 (Sandler et al. 2018)."""

from __future__ import annotations

from ...block import HybridBlock
from ...nn import Activation, BatchNorm, Conv2D, Dense, Flatten, GlobalAvgPool2D, HybridSequential
from ._common import DEFAULT_CTX, DEFAULT_ROOT, load_pretrained

__all__ = [
    "MobileNet",
    "MobileNetV2",
    "mobilenet1_0",
    "mobilenet0_75",
    "mobilenet0_5",
    "mobilenet0_25",
    "mobilenet_v2_1_0",
    "mobilenet_v2_0_75",
    "mobilenet_v2_0_5",
    "mobilenet_v2_0_25",
    "get_mobilenet",
    "get_mobilenet_v2",
]


class RELU6(HybridBlock):
    """``min(max(x, 0), 6)``."""

    def hybrid_forward(self, F, x):
        return F.clip(x, 0, 6, name="relu6")


def _add_conv(out, channels=1, kernel=1, stride=1, pad=0, num_group=1, active=True, relu6=False):
    out.add(Conv2D(channels, kernel, stride, pad, groups=num_group, use_bias=False))
    out.add(BatchNorm(scale=True))
    if active:
        out.add(RELU6() if relu6 else Activation("relu"))


def _add_conv_dw(out, dw_channels, channels, stride, relu6=False):
    _add_conv(
        out,
        channels=dw_channels,
        kernel=3,
        stride=stride,
        pad=1,
        num_group=dw_channels,
        relu6=relu6,
    )
    _add_conv(out, channels=channels, relu6=relu6)


class LinearBottleneck(HybridBlock):
    """MobileNetV2 inverted residual block with expansion ``t``."""

    def __init__(self, in_channels, channels, t, stride, **kwargs):
        super().__init__(**kwargs)
        self.use_shortcut = stride == 1 and in_channels == channels
        with self.name_scope():
            self.out = HybridSequential()
            _add_conv(self.out, in_channels * t, relu6=True)
            _add_conv(
                self.out,
                in_channels * t,
                kernel=3,
                stride=stride,
                pad=1,
                num_group=in_channels * t,
                relu6=True,
            )
            _add_conv(self.out, channels, active=False, relu6=True)

    def hybrid_forward(self, F, x):
        out = self.out(x)
        if self.use_shortcut:
            out = F.elemwise_add(out, x)
        return out


class MobileNet(HybridBlock):
    """MobileNet V1 with width ``multiplier``.

    Examples
    --------
    >>> net = mobilenet0_25(classes=10)
    """

    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = HybridSequential(prefix="")
            with self.features.name_scope():
                _add_conv(self.features, channels=int(32 * multiplier), kernel=3, pad=1, stride=2)
                dw_channels = [
                    int(x * multiplier)
                    for x in [32, 64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024]
                ]
                channels = [
                    int(x * multiplier)
                    for x in [64] + [128] * 2 + [256] * 2 + [512] * 6 + [1024] * 2
                ]
                strides = [1, 2] * 3 + [1] * 5 + [2, 1]
                for dwc, c, s in zip(dw_channels, channels, strides):
                    _add_conv_dw(self.features, dw_channels=dwc, channels=c, stride=s)
                self.features.add(GlobalAvgPool2D(), Flatten())
            self.output = Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class MobileNetV2(HybridBlock):
    """MobileNet V2 with width ``multiplier``."""

    def __init__(self, multiplier=1.0, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = HybridSequential(prefix="features_")
            with self.features.name_scope():
                _add_conv(
                    self.features, int(32 * multiplier), kernel=3, stride=2, pad=1, relu6=True
                )
                in_group = [
                    int(x * multiplier)
                    for x in [32] + [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3
                ]
                out_group = [
                    int(x * multiplier)
                    for x in [16] + [24] * 2 + [32] * 3 + [64] * 4 + [96] * 3 + [160] * 3 + [320]
                ]
                ts = [1] + [6] * 16
                strides = [1, 2] * 2 + [1, 1, 2] + [1] * 6 + [2] + [1] * 3
                for in_c, c, t, s in zip(in_group, out_group, ts, strides):
                    self.features.add(LinearBottleneck(in_channels=in_c, channels=c, t=t, stride=s))
                last = int(1280 * multiplier) if multiplier > 1.0 else 1280
                _add_conv(self.features, last, relu6=True)
                self.features.add(GlobalAvgPool2D())
            self.output = HybridSequential(prefix="output_")
            with self.output.name_scope():
                self.output.add(Conv2D(classes, 1, use_bias=False, prefix="pred_"), Flatten())

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def _suffix(multiplier):
    s = f"{multiplier:.2f}"
    return s[:-1] if s in ("1.00", "0.50") else s


def get_mobilenet(multiplier, pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """MobileNet V1 with width ``multiplier`` (1.0, 0.75, 0.5, 0.25)."""
    net = MobileNet(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, f"mobilenet{_suffix(multiplier)}", ctx, root)
    return net


def get_mobilenet_v2(multiplier, pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """MobileNet V2 with width ``multiplier`` (1.0, 0.75, 0.5, 0.25)."""
    net = MobileNetV2(multiplier, **kwargs)
    if pretrained:
        load_pretrained(net, f"mobilenetv2_{_suffix(multiplier)}", ctx, root)
    return net


def _ctor(getter, m, name):
    def fn(**kwargs):
        return getter(m, **kwargs)

    fn.__name__ = name
    fn.__doc__ = f"{name} (width multiplier {m})."
    return fn


mobilenet1_0 = _ctor(get_mobilenet, 1.0, "mobilenet1_0")
mobilenet0_75 = _ctor(get_mobilenet, 0.75, "mobilenet0_75")
mobilenet0_5 = _ctor(get_mobilenet, 0.5, "mobilenet0_5")
mobilenet0_25 = _ctor(get_mobilenet, 0.25, "mobilenet0_25")
mobilenet_v2_1_0 = _ctor(get_mobilenet_v2, 1.0, "mobilenet_v2_1_0")
mobilenet_v2_0_75 = _ctor(get_mobilenet_v2, 0.75, "mobilenet_v2_0_75")
mobilenet_v2_0_5 = _ctor(get_mobilenet_v2, 0.5, "mobilenet_v2_0_5")
mobilenet_v2_0_25 = _ctor(get_mobilenet_v2, 0.25, "mobilenet_v2_0_25")
