"""Map model ids (``--model``) to benchmark network classes."""

from __future__ import annotations

from .models.classic import VGG, AcousticModel, AlexNet, DeepMNIST, GoogleNet, OverFeat, SensorNet
from .models.inception import Inception3, Inception4, InceptionResNetV2
from .models.resnet import ResNet
from .models.speech import DeepSpeech2

_CLASSES = [AlexNet, OverFeat, VGG, DeepMNIST, SensorNet, AcousticModel, GoogleNet, ResNet,
            Inception3, Inception4, InceptionResNetV2, DeepSpeech2]


def _ids(cls):
    return cls.implements if isinstance(cls.implements, list) else [cls.implements]


MODELS = {mid: cls for cls in _CLASSES for mid in _ids(cls)}


class ModelFactory:
    """Create benchmark networks by id."""

    @staticmethod
    def get_model(params: dict):
        """Return the model object for ``params['model']`` (raises ValueError if unknown)."""
        mid = params["model"]
        if mid not in MODELS:
            raise ValueError(f"Unknown model '{mid}'. Supported: {', '.join(sorted(MODELS))}")
        return MODELS[mid](params)
