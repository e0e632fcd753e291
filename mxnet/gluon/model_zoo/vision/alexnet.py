"""AlexNet (Krizhevsky et al. 2012)."""

from __future__ import annotations

from ...block import HybridBlock
from ...nn import Conv2D, Dense, Dropout, Flatten, HybridSequential, MaxPool2D
from ._common import DEFAULT_CTX, DEFAULT_ROOT, load_pretrained

__all__ = ["AlexNet", "alexnet"]


class AlexNet(HybridBlock):
    """AlexNet with ``classes`` outputs.

    Examples
    --------
    >>> net = alexnet(classes=10)
    """

    def __init__(self, classes=1000, **kwargs):
        super().__init__(**kwargs)
        with self.name_scope():
            self.features = HybridSequential(prefix="")
            with self.features.name_scope():
                self.features.add(
                    Conv2D(64, kernel_size=11, strides=4, padding=2, activation="relu"),
                    MaxPool2D(pool_size=3, strides=2),
                    Conv2D(192, kernel_size=5, padding=2, activation="relu"),
                    MaxPool2D(pool_size=3, strides=2),
                    Conv2D(384, kernel_size=3, padding=1, activation="relu"),
                    Conv2D(256, kernel_size=3, padding=1, activation="relu"),
                    Conv2D(256, kernel_size=3, padding=1, activation="relu"),
                    MaxPool2D(pool_size=3, strides=2),
                    Flatten(),
                    Dense(4096, activation="relu"),
                    Dropout(0.5),
                    Dense(4096, activation="relu"),
                    Dropout(0.5),
                )
            self.output = Dense(classes)

    def hybrid_forward(self, F, x):
        return self.output(self.features(x))


def alexnet(pretrained=False, ctx=DEFAULT_CTX, root=DEFAULT_ROOT, **kwargs):
    """AlexNet; ``pretrained=True`` loads MXNet's ImageNet weights."""
    net = AlexNet(**kwargs)
    if pretrained:
        load_pretrained(net, "alexnet", ctx, root)
    return net
