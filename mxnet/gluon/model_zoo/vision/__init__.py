"""Model-zoo vision models with MXNet 1.9.1's architectures and parameter names.

Examples
--------
>>> net = mx.gluon.model_zoo.vision.get_model('resnet18_v1', classes=10)
"""

from .alexnet import *
from .densenet import *
from .inception import *
from .mobilenet import *
from .resnet import *
from .squeezenet import *
from .vgg import *

import sys as _sys

# (``vision.alexnet`` is the function, as in MXNet: reach the modules through sys.modules)
_alexnet, _densenet, _inception, _mobilenet, _resnet, _squeezenet, _vgg = (
    _sys.modules[f"{__name__}.{m}"]
    for m in ("alexnet", "densenet", "inception", "mobilenet", "resnet", "squeezenet", "vgg")
)

_models = {
    f"resnet{n}_v{v}": getattr(_resnet, f"resnet{n}_v{v}")
    for v in (1, 2)
    for n in (18, 34, 50, 101, 152)
}
_models.update(
    {f"vgg{n}{bn}": getattr(_vgg, f"vgg{n}{bn}") for n in (11, 13, 16, 19) for bn in ("", "_bn")}
)
_models.update({f"densenet{n}": getattr(_densenet, f"densenet{n}") for n in (121, 161, 169, 201)})
_models.update(
    {
        "alexnet": _alexnet.alexnet,
        "squeezenet1.0": _squeezenet.squeezenet1_0,
        "squeezenet1.1": _squeezenet.squeezenet1_1,
        "inceptionv3": _inception.inception_v3,
    }
)
for _m, _s in (("1.0", "1_0"), ("0.75", "0_75"), ("0.5", "0_5"), ("0.25", "0_25")):
    _models[f"mobilenet{_m}"] = getattr(_mobilenet, f"mobilenet{_s}")
    _models[f"mobilenetv2_{_m}"] = getattr(_mobilenet, f"mobilenet_v2_{_s}")


def get_model(name, **kwargs):
    """Build model ``name`` (``pretrained``, ``classes``, ``ctx``, ``root`` accepted).

    Examples
    --------
    >>> net = get_model('mobilenet0.25', classes=10)
    """
    name = name.lower()
    if name not in _models:
        raise ValueError(
            "Model {} is not supported. Available options are\n\t{}".format(
                name, "\n\t".join(sorted(_models.keys()))
            )
        )
    return _models[name](**kwargs)
