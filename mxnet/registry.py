"""Name-based class registries (``register``/``alias``/``create`` factories).

Used by ``mx.init`` and ``mx.metric``: ``create('xavier', magnitude=2)``,
``create('["xavier", {"magnitude": 2}]')`` or ``create(instance)`` all work.
"""

from __future__ import annotations

import json
import warnings

__all__ = ["get_register_func", "get_alias_func", "get_create_func"]

_REGISTRY: dict = {}


def _registry_of(base_class) -> dict:
    return _REGISTRY.setdefault(base_class, {})


def get_register_func(base_class, nickname):
    """A ``register(klass, name=None)`` function for subclasses of ``base_class``.

    Examples
    --------
    >>> class Base: pass
    >>> register = get_register_func(Base, 'thing')
    """
    registry = _registry_of(base_class)

    def register(klass, name=None):
        assert issubclass(klass, base_class), \
            f"Can only register subclass of {base_class.__name__}"
        name = (klass.__name__ if name is None else name).lower()
        if name in registry:
            old = registry[name]
            warnings.warn(f"\033[91mNew {nickname} {klass.__module__}.{klass.__name__} "
                          f"registered with name {name} isoverriding existing {nickname} "
                          f"{old.__module__}.{old.__name__}\033[0m", UserWarning, stacklevel=2)
        registry[name] = klass
        return klass

    register.__doc__ = f"Register {nickname} to the {nickname} factory"
    return register


def get_alias_func(base_class, nickname):
    """An ``alias(*names)`` class decorator registering extra names."""
    register = get_register_func(base_class, nickname)

    def alias(*aliases):
        def reg(klass):
            for name in aliases:
                register(klass, name)
            return klass

        return reg

    return alias


def get_create_func(base_class, nickname):
    """A ``create(name_or_instance_or_json, *args, **kwargs)`` factory."""
    registry = _registry_of(base_class)

    def create(*args, **kwargs):
        if args:
            name, args = args[0], args[1:]
        else:
            name = kwargs.pop(nickname)
        if isinstance(name, base_class):
            assert not args and not kwargs, \
                f"{nickname} is already an instance. Additional arguments are invalid"
            return name
        if isinstance(name, dict):
            return create(**name)
        assert isinstance(name, str), f"{nickname} must be of string type"
        if name.startswith("["):
            assert not args and not kwargs
            name, kwargs = json.loads(name)
            return create(name, **kwargs)
        if name.startswith("{"):
            assert not args and not kwargs
            return create(**json.loads(name))
        name = name.lower()
        assert name in registry, \
            f"{name} is not registered. Please register with {nickname}.register first"
        return registry[name](*args, **kwargs)

    create.__doc__ = (f"Create a {nickname} instance from config.\n\nParameters\n----------\n"
                      f"{nickname} : str or {base_class.__name__} instance\n    class name of "
                      "desired instance. If is a instance,\n    it will be returned directly.\n"
                      "**kwargs : dict\n    arguments to be passed to constructor")
    return create
