"""DenseNet 121/161/169/201 (Huang et al. 2016)."""

from __future__ import annotations

from ...block import HybridBlock
from ...contrib.nn import HybridConcurrent, Identity
from ...nn import (
    Activation,
    AvgPool2D,
    BatchNorm,
    Conv2D,
    Dense,
    Dropout,
    Flatten,
    HybridSequential,
    MaxPool2D,
)
from ._common import DEFAULT_CTX, DEFAULT_ROOT, load_pretrained

__all__ = ["DenseNet", "densenet121", "densenet161", "densenet169", "densenet201"]


def _dense_layer(growth_rate, bn_size, dropout):
    new_features = HybridSequential(prefix="")
    new_features.add(
        BatchNorm(),
        Activation("relu"),
        Conv2D(bn_size * growth_rate, kernel_size=1, use_bias=False),
        BatchNorm(),
        Activation("relu"),
        Conv2D(growth_rate, kernel_size=3, padding=1, use_bias=False),
    )
    if dropout:
        new_features.add(Dropout(dropout))
    out = HybridConcurrent(axis=1, prefix="")
    out.add(Identity())
    out.add(new_features)
    return out


def _dense_block(num_layers, bn_size, growth_rate, dropout, stage_index):
    out = HybridSequential(prefix=f"stage{stage_index}_")
    with out.name_scope():
        for _ in range(num_layers):
            out.add(_dense_layer(growth_rate, bn_size, dropout))
    return out


def _transition(num_output_features):
    out = HybridSequential(prefix="")
    out.add(
        BatchNorm(),
        Activation("relu"),
        Conv2D(num_output_features, kernel_size=1, use_bias=False),
        AvgPool2D(pool_size=2, strides=2),
    )
    return out


class DenseNet(HybridBlock):
    """DenseNet with ``block_config`` layers per dense block.

    Examples
    --------
    >>> net = densenet121(classes=10)
    """

    def __init__(
        self,
        num_init_features,
        growth_rate,
        block_config,
        bn_size=4,
        dropout=0,
        classes=1000,
        **kwargs,
    ):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = HybridSequential(prefix="")
            self.features.add(
                Conv2D(num_init_features, kernel_size=7, strides=2, padding=3, use_bias=False),
                BatchNorm(),
                Activation("relu"),
                MaxPool2D(pool_size=3, strides=2, padding=1),
            )
            num_features = num_init_features
            for i, num_layers in enumerate(block_config):
                self.features.add(_dense_block(num_layers, bn_size, growth_rate, dropout, i + 1))
                num_features = num_features + num_layers * growth_rate
                if i != len(block_config) - 1:
                    self.features.add(_transition(num_features // 2))
                    num_features = num_features // 2
            self.features.add(BatchNorm(), Activation("relu"), AvgPool2D(pool_size=7), Flatten())
            self.output = Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


densenet_spec = {
    121: (64, 32, [6, 12, 24, 16]),
    161: (96, 48, [6, 12, 36, 24]),
    169: (64, 32, [6, 12, 32, 32]),
    201: (64, 32, [6, 12, 48, 32]),
}


def get_densenet(num_layers, pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """DenseNet with ``num_layers`` (121, 161, 169, 201)."""
    num_init_features, growth_rate, block_config = densenet_spec[num_layers]
    net = DenseNet(num_init_features, growth_rate, block_config, **kwargs)
    if pretrained:
        load_pretrained(net, f"densenet{num_layers}", ctx, root)
    return net


def _ctor(n):
    def fn(**kwargs):
        return get_densenet(n, **kwargs)

    fn.__name__ = f"densenet{n}"
    fn.__doc__ = f"DenseNet-{n}."
    return fn


densenet121, densenet161, densenet169, densenet201 = (_ctor(n) for n in (121, 161, 169, 201))
