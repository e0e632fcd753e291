"""MXNet 1.x's private training helpers of ``mx.model`` (kvstore creation, parameter
initialization on the store, one update step over per-device arrays, callback lists).

Module uses :func:`_create_kvstore`; third-party training loops written against MXNet 1.x
internals (Deformable-ConvNets' and mx-rcnn's own Module classes) import all of them from
``mxnet.model``.
"""

from __future__ import annotations

import os

__all__: list[str] = []


def _create_kvstore(kvstore, num_device: int, arg_params):
    """``(kvstore or None, update_on_kvstore)`` for a kvstore name / object / None."""
    from . import kvstore as kvs

    update_on_kvstore = bool(int(os.getenv("MXNET_UPDATE_ON_KVSTORE", "1")))
    if kvstore is None:
        kv = None
    elif isinstance(kvstore, kvs.KVStore):
        kv = kvstore
    elif isinstance(kvstore, str):
        if num_device == 1 and "dist" not in kvstore:
            kv = None  # a single device needs no store
        else:
            kv = kvs.create(kvstore)
            if kvstore == "local":
                max_size = max(p.size for p in arg_params.values()) if arg_params else 0
                if max_size > 1024 * 1024 * 16:
                    update_on_kvstore = False
    else:
        raise TypeError("kvstore must be KVStore, str or None")
    if kv is None:
        update_on_kvstore = False
    return kv, update_on_kvstore


def _initialize_kvstore(kvstore, param_arrays, arg_params, param_names,
                        update_on_kvstore: bool) -> None:
    """Put every parameter on the store; with ``update_on_kvstore`` copy it back to all
    devices (the store then owns the weights)."""
    for idx, param_on_devs in enumerate(param_arrays):
        name = param_names[idx]
        kvstore.init(name, arg_params[name])
        if update_on_kvstore:
            kvstore.pull(name, param_on_devs, priority=-idx)


def _update_params_on_kvstore(param_arrays, grad_arrays, kvstore, param_names) -> None:
    """Push each parameter's per-device gradients; pull the updated weights back."""
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        name = param_names[index]
        kvstore.push(name, grad_list, priority=-index)
        kvstore.pull(name, arg_list, priority=-index)


def _update_params(param_arrays, grad_arrays, updater, num_device: int, kvstore=None,
                   param_names=None) -> None:
    """Sum gradients through ``kvstore`` (when given), then one ``updater`` call per device
    over all its parameters; device ``k`` of parameter ``i`` is optimizer index
    ``i * num_device + k`` (MXNet's convention, so each device keeps its own state)."""
    updates: list[list] = [[] for _ in range(num_device)]
    for index, (arg_list, grad_list) in enumerate(zip(param_arrays, grad_arrays)):
        if grad_list[0] is None:
            continue
        if kvstore:
            name = param_names[index]
            kvstore.push(name, grad_list, priority=-index)
            kvstore.pull(name, grad_list, priority=-index)
        for k, (w, g) in enumerate(zip(arg_list, grad_list)):
            updates[k].append((index * num_device + k, g, w))
    for dev in updates:
        if dev:
            idx, grads, weights = zip(*dev)
            updater(list(idx), list(grads), list(weights))


def _multiple_callbacks(callbacks, *args, **kwargs) -> None:
    """Call one callback or each of a list of them."""
    if isinstance(callbacks, list):
        for cb in callbacks:
            cb(*args, **kwargs)
        return
    if callbacks:
        callbacks(*args, **kwargs)
