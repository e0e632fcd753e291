"""ResNet v1 (18 to 269 layers) for the benchmark tool."""

from __future__ import annotations

import mxnet as mx

from .layers import Model, conv, pool

_UNITS = {18: [2, 2, 2, 2], 34: [3, 4, 6, 3], 50: [3, 4, 6, 3], 101: [3, 4, 23, 3],
          152: [3, 8, 36, 3], 200: [3, 24, 36, 3], 269: [3, 30, 48, 8]}


def _unit(v, filters, stride, bottleneck, project, name):
    if bottleneck:
        body = conv(v, filters // 4, (1, 1), stride, bn=True, name=f"{name}_c1")
        body = conv(body, filters // 4, (3, 3), pad=(1, 1), bn=True, name=f"{name}_c2")
        body = conv(body, filters, (1, 1), bn=True, act=None, name=f"{name}_c3")
    else:
        body = conv(v, filters, (3, 3), stride, (1, 1), bn=True, name=f"{name}_c1")
        body = conv(body, filters, (3, 3), pad=(1, 1), bn=True, act=None, name=f"{name}_c2")
    short = conv(v, filters, (1, 1), stride, bn=True, act=None, name=f"{name}_sc") \
        if project else v
    return mx.sym.Activation(body + short, act_type="relu")


class ResNet(Model):
    implements = [f"resnet{d}" for d in _UNITS]

    def __init__(self, params):
        super().__init__(params)
        depth = int(params["model"][len("resnet"):])
        bottleneck = depth >= 50
        filters = [256, 512, 1024, 2048] if bottleneck else [64, 128, 256, 512]
        v = self.data()
        v = conv(v, 64, (7, 7), (2, 2), (3, 3), bn=True, name="conv0")
        v = pool(v, (3, 3), (2, 2), pad=(1, 1))
        in_filters = 64
        for stage, (n, f) in enumerate(zip(_UNITS[depth], filters)):
            for i in range(n):
                stride = (2, 2) if i == 0 and stage > 0 else (1, 1)
                v = _unit(v, f, stride, bottleneck, i == 0 and (f != in_filters or stage > 0),
                          f"stage{stage + 1}_unit{i + 1}")
                in_filters = f
        v = mx.sym.Pooling(v, kernel=(7, 7), global_pool=True, pool_type="avg")
        v = mx.sym.Flatten(v)
        self._output = self.add_head_nodes(v)
