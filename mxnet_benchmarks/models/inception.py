"""Inception v3, Inception v4 and Inception-ResNet v2 for the benchmark tool (299x299)."""

from __future__ import annotations

import mxnet as mx

from .layers import Model, conv, pool


def c(v, f, k, s=(1, 1), p=(0, 0)):
    return conv(v, f, k, s, p, bn=True)


def _cat(*vs):
    return mx.sym.Concat(*vs)


def _avg3(v):
    return pool(v, (3, 3), (1, 1), "avg", (1, 1))


def _stem_v3(v):
    v = c(v, 32, (3, 3), (2, 2))
    v = c(v, 32, (3, 3))
    v = c(v, 64, (3, 3), p=(1, 1))
    v = pool(v, (3, 3), (2, 2))
    v = c(v, 80, (1, 1))
    v = c(v, 192, (3, 3))
    return pool(v, (3, 3), (2, 2))


class Inception3(Model):
    implements = "inception3"
    input_shape = (3, 299, 299)

    def __init__(self, params):
        super().__init__(params)
        v = _stem_v3(self.data())
        for proj in (32, 64, 64):  # 35x35 blocks
            v = _cat(c(v, 64, (1, 1)), c(c(v, 48, (1, 1)), 64, (5, 5), p=(2, 2)),
                     c(c(c(v, 64, (1, 1)), 96, (3, 3), p=(1, 1)), 96, (3, 3), p=(1, 1)),
                     c(_avg3(v), proj, (1, 1)))
        v = _cat(c(v, 384, (3, 3), (2, 2)),
                 c(c(c(v, 64, (1, 1)), 96, (3, 3), p=(1, 1)), 96, (3, 3), (2, 2)),
                 pool(v, (3, 3), (2, 2)))
        for f in (128, 160, 160, 192):  # 17x17 blocks
            b2 = c(c(c(v, f, (1, 1)), f, (1, 7), p=(0, 3)), 192, (7, 1), p=(3, 0))
            b3 = c(v, f, (1, 1))
            for k, out in (((7, 1), f), ((1, 7), f), ((7, 1), f), ((1, 7), 192)):
                b3 = c(b3, out, k, p=(k[0] // 2, k[1] // 2))
            v = _cat(c(v, 192, (1, 1)), b2, b3, c(_avg3(v), 192, (1, 1)))
        b1 = c(c(v, 192, (1, 1)), 320, (3, 3), (2, 2))
        b2 = c(c(c(c(v, 192, (1, 1)), 192, (1, 7), p=(0, 3)), 192, (7, 1), p=(3, 0)), 192,
               (3, 3), (2, 2))
        v = _cat(b1, b2, pool(v, (3, 3), (2, 2)))
        for _ in range(2):  # 8x8 blocks
            b2 = c(v, 384, (1, 1))
            b3 = c(c(v, 448, (1, 1)), 384, (3, 3), p=(1, 1))
            v = _cat(c(v, 320, (1, 1)),
                     c(b2, 384, (1, 3), p=(0, 1)), c(b2, 384, (3, 1), p=(1, 0)),
                     c(b3, 384, (1, 3), p=(0, 1)), c(b3, 384, (3, 1), p=(1, 0)),
                     c(_avg3(v), 192, (1, 1)))
        v = mx.sym.Pooling(v, kernel=(8, 8), global_pool=True, pool_type="avg")
        v = mx.sym.Dropout(mx.sym.Flatten(v), p=0.2)
        self._output = self.add_head_nodes(v)


def _stem_v4(v):
    v = c(v, 32, (3, 3), (2, 2))
    v = c(v, 32, (3, 3))
    v = c(v, 64, (3, 3), p=(1, 1))
    v = _cat(pool(v, (3, 3), (2, 2)), c(v, 96, (3, 3), (2, 2)))
    b1 = c(c(v, 64, (1, 1)), 96, (3, 3))
    b2 = c(c(c(c(v, 64, (1, 1)), 64, (7, 1), p=(3, 0)), 64, (1, 7), p=(0, 3)), 96, (3, 3))
    v = _cat(b1, b2)
    return _cat(c(v, 192, (3, 3), (2, 2)), pool(v, (3, 3), (2, 2)))


def _reduction_a(v, k, l, m, n):
    return _cat(pool(v, (3, 3), (2, 2)), c(v, n, (3, 3), (2, 2)),
                c(c(c(v, k, (1, 1)), l, (3, 3), p=(1, 1)), m, (3, 3), (2, 2)))


class Inception4(Model):
    implements = "inception4"
    input_shape = (3, 299, 299)

    def __init__(self, params):
        super().__init__(params)
        v = _stem_v4(self.data())
        for _ in range(4):
            v = _cat(c(_avg3(v), 96, (1, 1)), c(v, 96, (1, 1)),
                     c(c(v, 64, (1, 1)), 96, (3, 3), p=(1, 1)),
                     c(c(c(v, 64, (1, 1)), 96, (3, 3), p=(1, 1)), 96, (3, 3), p=(1, 1)))
        v = _reduction_a(v, 192, 224, 256, 384)
        for _ in range(7):
            b3 = c(c(c(v, 192, (1, 1)), 224, (1, 7), p=(0, 3)), 256, (7, 1), p=(3, 0))
            b4 = c(v, 192, (1, 1))
            for k, f in (((1, 7), 192), ((7, 1), 224), ((1, 7), 224), ((7, 1), 256)):
                b4 = c(b4, f, k, p=(k[0] // 2, k[1] // 2))
            v = _cat(c(_avg3(v), 128, (1, 1)), c(v, 384, (1, 1)), b3, b4)
        b2 = c(c(v, 192, (1, 1)), 192, (3, 3), (2, 2))
        b3 = c(c(c(c(v, 256, (1, 1)), 256, (1, 7), p=(0, 3)), 320, (7, 1), p=(3, 0)), 320,
               (3, 3), (2, 2))
        v = _cat(pool(v, (3, 3), (2, 2)), b2, b3)
        for _ in range(3):
            b3 = c(v, 384, (1, 1))
            b4 = c(c(c(v, 384, (1, 1)), 448, (1, 3), p=(0, 1)), 512, (3, 1), p=(1, 0))
            v = _cat(c(_avg3(v), 256, (1, 1)), c(v, 256, (1, 1)),
                     c(b3, 256, (1, 3), p=(0, 1)), c(b3, 256, (3, 1), p=(1, 0)),
                     c(b4, 256, (3, 1), p=(1, 0)), c(b4, 256, (1, 3), p=(0, 1)))
        v = mx.sym.Pooling(v, kernel=(8, 8), global_pool=True, pool_type="avg")
        v = mx.sym.Dropout(mx.sym.Flatten(v), p=0.2)
        self._output = self.add_head_nodes(v)


def _residual(v, branches, channels, scale):
    mixed = _cat(*branches) if len(branches) > 1 else branches[0]
    up = conv(mixed, channels, (1, 1), act=None)
    return mx.sym.Activation(v + up * scale, act_type="relu")


class InceptionResNetV2(Model):
    implements = "inception_resnet_v2"
    input_shape = (3, 299, 299)

    def __init__(self, params):
        super().__init__(params)
        v = _stem_v4(self.data())  # 384 channels at 35x35
        v = c(v, 320, (1, 1))
        for _ in range(10):
            v = _residual(v, [c(v, 32, (1, 1)), c(c(v, 32, (1, 1)), 32, (3, 3), p=(1, 1)),
                              c(c(c(v, 32, (1, 1)), 48, (3, 3), p=(1, 1)), 64, (3, 3),
                                p=(1, 1))], 320, 0.17)
        v = _reduction_a(v, 256, 256, 384, 384)  # 1088 channels
        for _ in range(20):
            v = _residual(v, [c(v, 192, (1, 1)),
                              c(c(c(v, 128, (1, 1)), 160, (1, 7), p=(0, 3)), 192, (7, 1),
                                p=(3, 0))], 1088, 0.1)
        v = _cat(pool(v, (3, 3), (2, 2)), c(c(v, 256, (1, 1)), 384, (3, 3), (2, 2)),
                 c(c(v, 256, (1, 1)), 288, (3, 3), (2, 2)),
                 c(c(c(v, 256, (1, 1)), 288, (3, 3), p=(1, 1)), 320, (3, 3), (2, 2)))
        v = c(v, 2080, (1, 1))
        for _ in range(10):
            v = _residual(v, [c(v, 192, (1, 1)),
                              c(c(c(v, 192, (1, 1)), 224, (1, 3), p=(0, 1)), 256, (3, 1),
                                p=(1, 0))], 2080, 0.2)
        v = c(v, 1536, (1, 1))
        v = mx.sym.Pooling(v, kernel=(8, 8), global_pool=True, pool_type="avg")
        v = mx.sym.Dropout(mx.sym.Flatten(v), p=0.2)
        self._output = self.add_head_nodes(v)
