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

_models = {
    "resnet18_v1": resnet18_v1, "resnet34_v1": resnet34_v1, "resnet50_v1": resnet50_v1,
    "resnet101_v1": resnet101_v1, "resnet152_v1": resnet152_v1,
    "resnet18_v2": resnet18_v2, "resnet34_v2": resnet34_v2, "resnet50_v2": resnet50_v2,
    "resnet101_v2": resnet101_v2, "resnet152_v2": resnet152_v2,
    "vgg11": vgg11, "vgg13": vgg13, "vgg16": vgg16, "vgg19": vgg19,
    "vgg11_bn": vgg11_bn, "vgg13_bn": vgg13_bn, "vgg16_bn": vgg16_bn, "vgg19_bn": vgg19_bn,
    "alexnet": alexnet,
    "densenet121": densenet121, "densenet161": densenet161, "densenet169": densenet169,
    "densenet201": densenet201,
    "squeezenet1.0": squeezenet1_0, "squeezenet1.1": squeezenet1_1,
    "inceptionv3": inception_v3,
    "mobilenet1.0": mobilenet1_0, "mobilenet0.75": mobilenet0_75,
    "mobilenet0.5": mobilenet0_5, "mobilenet0.25": mobilenet0_25,
    "mobilenetv2_1.0": mobilenet_v2_1_0, "mobilenetv2_0.75": mobilenet_v2_0_75,
    "mobilenetv2_0.5": mobilenet_v2_0_5, "mobilenetv2_0.25": mobilenet_v2_0_25,
}


def get_model(name, **kwargs):
    """Build model ``name`` (``pretrained``, ``classes``, ``ctx``, ``root`` accepted).

    Examples
    --------
    >>> net = get_model('mobilenet0.25', classes=10)
    """
    name = name.lower()
    if name not in _models:
        raise ValueError("Model {} is not supported. Available options are\n\t{}".format(
            name, "\n\t".join(sorted(_models.keys()))))
    return _models[name](**kwargs)
