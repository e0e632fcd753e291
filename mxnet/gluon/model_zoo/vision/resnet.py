"""ResNet V1 and V2 (He et al. 2015/2016) with MXNet 1.9.1's parameter names."""

from __future__ import annotations

from ...block import HybridBlock
from ...nn import (
    Activation,
    BatchNorm,
    Conv2D,
    Dense,
    Flatten,
    GlobalAvgPool2D,
    HybridSequential,
    MaxPool2D,
)
from ._common import DEFAULT_CTX, DEFAULT_ROOT, load_pretrained

__all__ = [
    "ResNetV1",
    "ResNetV2",
    "BasicBlockV1",
    "BasicBlockV2",
    "BottleneckV1",
    "BottleneckV2",
    "resnet18_v1",
    "resnet34_v1",
    "resnet50_v1",
    "resnet101_v1",
    "resnet152_v1",
    "resnet18_v2",
    "resnet34_v2",
    "resnet50_v2",
    "resnet101_v2",
    "resnet152_v2",
    "get_resnet",
]


def _conv3x3(channels, stride, in_channels):
    return Conv2D(
        channels, kernel_size=3, strides=stride, padding=1, use_bias=False, in_channels=in_channels
    )


def _downsample(channels, stride, in_channels, with_bn):
    if not with_bn:
        return Conv2D(channels, 1, stride, use_bias=False, in_channels=in_channels)
    ds = HybridSequential(prefix="")
    ds.add(Conv2D(channels, kernel_size=1, strides=stride, use_bias=False, in_channels=in_channels))
    ds.add(BatchNorm())
    return ds


class BasicBlockV1(HybridBlock):
    """Two 3x3 convolutions with a shortcut; BatchNorm after each convolution."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.body = HybridSequential(prefix="")
        self.body.add(
            _conv3x3(channels, stride, in_channels),
            BatchNorm(),
            Activation("relu"),
            _conv3x3(channels, 1, channels),
            BatchNorm(),
        )
        self.downsample = _downsample(channels, stride, in_channels, True) if downsample else None

    def hybrid_forward(self, F, x):
        residual = x
        x = self.body(x)
        if self.downsample:
            residual = self.downsample(residual)
        return F.Activation(residual + x, act_type="relu")


class BottleneckV1(HybridBlock):
    """1x1 - 3x3 - 1x1 bottleneck with a shortcut (V1 ordering)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.body = HybridSequential(prefix="")
        self.body.add(
            Conv2D(channels // 4, kernel_size=1, strides=stride),
            BatchNorm(),
            Activation("relu"),
            _conv3x3(channels // 4, 1, channels // 4),
            BatchNorm(),
            Activation("relu"),
            Conv2D(channels, kernel_size=1, strides=1),
            BatchNorm(),
        )
        self.downsample = _downsample(channels, stride, in_channels, True) if downsample else None

    def hybrid_forward(self, F, x):
        residual = x
        x = self.body(x)
        if self.downsample:
            residual = self.downsample(residual)
        return F.Activation(x + residual, act_type="relu")


class BasicBlockV2(HybridBlock):
    """Pre-activation basic block (BatchNorm and ReLU before each convolution)."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.bn1 = BatchNorm()
        self.conv1 = _conv3x3(channels, stride, in_channels)
        self.bn2 = BatchNorm()
        self.conv2 = _conv3x3(channels, 1, channels)
        self.downsample = _downsample(channels, stride, in_channels, False) if downsample else None

    def hybrid_forward(self, F, x):
        residual = x
        x = F.Activation(self.bn1(x), act_type="relu")
        if self.downsample:
            residual = self.downsample(x)
        x = self.conv1(x)
        x = F.Activation(self.bn2(x), act_type="relu")
        x = self.conv2(x)
        return x + residual


class BottleneckV2(HybridBlock):
    """Pre-activation bottleneck block."""

    def __init__(self, channels, stride, downsample=False, in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self.bn1 = BatchNorm()
        self.conv1 = Conv2D(channels // 4, kernel_size=1, strides=1, use_bias=False)
        self.bn2 = BatchNorm()
        self.conv2 = _conv3x3(channels // 4, stride, channels // 4)
        self.bn3 = BatchNorm()
        self.conv3 = Conv2D(channels, kernel_size=1, strides=1, use_bias=False)
        self.downsample = _downsample(channels, stride, in_channels, False) if downsample else None

    def hybrid_forward(self, F, x):
        residual = x
        x = F.Activation(self.bn1(x), act_type="relu")
        if self.downsample:
            residual = self.downsample(x)
        x = self.conv1(x)
        x = F.Activation(self.bn2(x), act_type="relu")
        x = self.conv2(x)
        x = F.Activation(self.bn3(x), act_type="relu")
        x = self.conv3(x)
        return x + residual


def _make_layer(block, layers, channels, stride, stage_index, in_channels=0):
    layer = HybridSequential(prefix=f"stage{stage_index}_")
    with layer.name_scope():
        layer.add(
            block(channels, stride, channels != in_channels, in_channels=in_channels, prefix="")
        )
        for _ in range(layers - 1):
            layer.add(block(channels, 1, False, in_channels=channels, prefix=""))
    return layer


class ResNetV1(HybridBlock):
    """ResNet V1: ``block`` repeated ``layers[i]`` times per stage with ``channels``.

    Examples
    --------
    >>> net = resnet18_v1(classes=10)
    """

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(channels) - 1:
            raise AssertionError("len(layers) must be len(channels) - 1")
        with self.name_scope():
            self.features = HybridSequential(prefix="")
            if thumbnail:
                self.features.add(_conv3x3(channels[0], 1, 0))
            else:
                self.features.add(
                    Conv2D(channels[0], 7, 2, 3, use_bias=False),
                    BatchNorm(),
                    Activation("relu"),
                    MaxPool2D(3, 2, 1),
                )
            for i, num_layer in enumerate(layers):
                stride = 1 if i == 0 else 2
                self.features.add(
                    _make_layer(
                        block, num_layer, channels[i + 1], stride, i + 1, in_channels=channels[i]
                    )
                )
            self.features.add(GlobalAvgPool2D())
            self.output = Dense(classes, in_units=channels[-1])

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


class ResNetV2(HybridBlock):
    """ResNet V2 (pre-activation)."""

    def __init__(self, block, layers, channels, classes=1000, thumbnail=False, **kwargs):
        super().__init__(**kwargs)
        if len(layers) != len(channels) - 1:
            raise AssertionError("len(layers) must be len(channels) - 1")
        with self.name_scope():
            self.features = HybridSequential(prefix="")
            self.features.add(BatchNorm(scale=False, center=False))
            if thumbnail:
                self.features.add(_conv3x3(channels[0], 1, 0))
            else:
                self.features.add(
                    Conv2D(channels[0], 7, 2, 3, use_bias=False),
                    BatchNorm(),
                    Activation("relu"),
                    MaxPool2D(3, 2, 1),
                )
            in_channels = channels[0]
            for i, num_layer in enumerate(layers):
                stride = 1 if i == 0 else 2
                self.features.add(
                    _make_layer(
                        block, num_layer, channels[i + 1], stride, i + 1, in_channels=in_channels
                    )
                )
                in_channels = channels[i + 1]
            self.features.add(BatchNorm(), Activation("relu"), GlobalAvgPool2D(), Flatten())
            self.output = Dense(classes, in_units=in_channels)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


resnet_spec = {
    18: ("basic_block", [2, 2, 2, 2], [64, 64, 128, 256, 512]),
    34: ("basic_block", [3, 4, 6, 3], [64, 64, 128, 256, 512]),
    50: ("bottle_neck", [3, 4, 6, 3], [64, 256, 512, 1024, 2048]),
    101: ("bottle_neck", [3, 4, 23, 3], [64, 256, 512, 1024, 2048]),
    152: ("bottle_neck", [3, 8, 36, 3], [64, 256, 512, 1024, 2048]),
}
resnet_net_versions = [ResNetV1, ResNetV2]
resnet_block_versions = [
    {"basic_block": BasicBlockV1, "bottle_neck": BottleneckV1},
    {"basic_block": BasicBlockV2, "bottle_neck": BottleneckV2},
]


def get_resnet(version, num_layers, pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """ResNet of ``version`` (1 or 2) with ``num_layers`` (18, 34, 50, 101, 152)."""
    if num_layers not in resnet_spec:
        raise AssertionError(
            f"Invalid number of layers: {num_layers}. Options are {resnet_spec.keys()}"
        )
    if version not in (1, 2):
        raise AssertionError(f"Invalid resnet version: {version}. Options are 1 and 2.")
    block_type, layers, channels = resnet_spec[num_layers]
    net = resnet_net_versions[version - 1](
        resnet_block_versions[version - 1][block_type], layers, channels, **kwargs
    )
    if pretrained:
        load_pretrained(net, f"resnet{num_layers}_v{version}", ctx, root)
    return net


def _ctor(version, n):
    def fn(**kwargs):
        return get_resnet(version, n, **kwargs)

    fn.__name__ = f"resnet{n}_v{version}"
    fn.__doc__ = (
        f"ResNet-{n} V{version}.\n\n    Examples\n    --------\n"
        f"    >>> net = {fn.__name__}(classes=10)\n"
    )
    return fn


resnet18_v1, resnet34_v1, resnet50_v1, resnet101_v1, resnet152_v1 = (
    _ctor(1, n) for n in (18, 34, 50, 101, 152)
)
resnet18_v2, resnet34_v2, resnet50_v2, resnet101_v2, resnet152_v2 = (
    _ctor(2, n) for n in (18, 34, 50, 101, 152)
)
