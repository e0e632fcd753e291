"""AlexNet, AlexNet OWT, OverFeat, VGG, DeepMNIST, GoogleNet (Inception v1)."""

from __future__ import annotations

import mxnet as mx

from .layers import Model, conv, fc, pool


class AlexNet(Model):
    implements = ["alexnet", "alexnet_owt"]
    input_shape = (3, 227, 227)

    def __init__(self, params):
        super().__init__(params)
        owt = params["model"] == "alexnet_owt"
        if owt:
            self.input_shape = (3, 224, 224)
        v = self.data()
        if owt:
            v = conv(v, 64, (11, 11), (4, 4), (2, 2))
        else:
            v = conv(v, 96, (11, 11), (4, 4))
            v = mx.sym.LRN(data=v, alpha=0.0001, beta=0.75, knorm=2, nsize=5)
        v = pool(v, (3, 3), (2, 2))
        v = conv(v, 192 if owt else 256, (5, 5), pad=(2, 2))
        if not owt:
            v = mx.sym.LRN(data=v, alpha=0.0001, beta=0.75, knorm=2, nsize=5)
        v = pool(v, (3, 3), (2, 2))
        v = conv(v, 384, (3, 3), pad=(1, 1))
        v = conv(v, 384 if not owt else 256, (3, 3), pad=(1, 1))
        v = conv(v, 256, (3, 3), pad=(1, 1))
        v = pool(v, (3, 3), (2, 2))
        v = mx.sym.Flatten(v)
        v = fc(v, 4096, dropout=0.5)
        v = fc(v, 4096, dropout=0.5)
        self._output = self.add_head_nodes(v)


class OverFeat(Model):
    implements = "overfeat"
    input_shape = (3, 231, 231)

    def __init__(self, params):
        super().__init__(params)
        v = self.data()
        v = conv(v, 96, (11, 11), (4, 4))
        v = pool(v, (2, 2), (2, 2))
        v = conv(v, 256, (5, 5))
        v = pool(v, (2, 2), (2, 2))
        v = conv(v, 512, (3, 3), pad=(1, 1))
        v = conv(v, 1024, (3, 3), pad=(1, 1))
        v = conv(v, 1024, (3, 3), pad=(1, 1))
        v = pool(v, (2, 2), (2, 2))
        v = mx.sym.Flatten(v)
        v = fc(v, 3072, dropout=0.5)
        v = fc(v, 4096, dropout=0.5)
        self._output = self.add_head_nodes(v)


_VGG = {"vgg11": [1, 1, 2, 2, 2], "vgg13": [2, 2, 2, 2, 2], "vgg16": [2, 2, 3, 3, 3],
        "vgg19": [2, 2, 4, 4, 4]}


class VGG(Model):
    implements = list(_VGG)

    def __init__(self, params):
        super().__init__(params)
        v = self.data()
        for layers, filters in zip(_VGG[params["model"]], [64, 128, 256, 512, 512]):
            for _ in range(layers):
                v = conv(v, filters, (3, 3), pad=(1, 1))
            v = pool(v, (2, 2), (2, 2))
        v = mx.sym.Flatten(v)
        v = fc(v, 4096, dropout=0.5)
        v = fc(v, 4096, dropout=0.5)
        self._output = self.add_head_nodes(v)


class DeepMNIST(Model):
    implements = "deep_mnist"
    input_shape = (784,)
    num_classes = 10

    def __init__(self, params):
        super().__init__(params)
        v = self.data()
        for units in (2500, 2000, 1500, 1000, 500):
            v = fc(v, units)
        self._output = self.add_head_nodes(v)


class SensorNet(Model):
    implements = "sensor_net"
    input_shape = (784,)
    num_classes = 16

    def __init__(self, params):
        super().__init__(params)
        v = self.data()
        for _ in range(3):
            v = fc(v, 1024)
        self._output = self.add_head_nodes(v)


class AcousticModel(Model):
    implements = "acoustic_model"
    input_shape = (540,)
    num_classes = 8192

    def __init__(self, params):
        super().__init__(params)
        v = self.data()
        for _ in range(5):
            v = fc(v, 2048)
        self._output = self.add_head_nodes(v)


def _inception_v1(v, c1, c3r, c3, c5r, c5, proj):
    b1 = conv(v, c1, (1, 1))
    b2 = conv(conv(v, c3r, (1, 1)), c3, (3, 3), pad=(1, 1))
    b3 = conv(conv(v, c5r, (1, 1)), c5, (5, 5), pad=(2, 2))
    b4 = conv(pool(v, (3, 3), (1, 1), pad=(1, 1)), proj, (1, 1))
    return mx.sym.Concat(b1, b2, b3, b4)


class GoogleNet(Model):
    implements = "googlenet"

    def __init__(self, params):
        super().__init__(params)
        v = self.data()
        v = conv(v, 64, (7, 7), (2, 2), (3, 3))
        v = pool(v, (3, 3), (2, 2), convention="full")
        v = conv(v, 64, (1, 1))
        v = conv(v, 192, (3, 3), pad=(1, 1))
        v = pool(v, (3, 3), (2, 2), convention="full")
        v = _inception_v1(v, 64, 96, 128, 16, 32, 32)
        v = _inception_v1(v, 128, 128, 192, 32, 96, 64)
        v = pool(v, (3, 3), (2, 2), convention="full")
        for cfg in ((192, 96, 208, 16, 48, 64), (160, 112, 224, 24, 64, 64),
                    (128, 128, 256, 24, 64, 64), (112, 144, 288, 32, 64, 64),
                    (256, 160, 320, 32, 128, 128)):
            v = _inception_v1(v, *cfg)
        v = pool(v, (3, 3), (2, 2), convention="full")
        v = _inception_v1(v, 256, 160, 320, 32, 128, 128)
        v = _inception_v1(v, 384, 192, 384, 48, 128, 128)
        v = mx.sym.Pooling(v, kernel=(7, 7), global_pool=True, pool_type="avg")
        v = mx.sym.Flatten(v)
        v = mx.sym.Dropout(v, p=0.4)
        self._output = self.add_head_nodes(v)
