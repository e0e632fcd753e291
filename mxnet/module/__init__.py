"""The Module API (``mx.mod``): train Symbol graphs with ``fit``."""

from .base_module import BaseModule
from .module import Module
from .bucketing_module import BucketingModule

__all__ = ["BaseModule", "Module", "BucketingModule"]
