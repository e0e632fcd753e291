"""The Module API (``mx.mod``): train Symbol graphs with ``fit``."""

from .base_module import BaseModule
from .bucketing_module import BucketingModule
from .module import Module

__all__ = ["BaseModule", "Module", "BucketingModule"]
