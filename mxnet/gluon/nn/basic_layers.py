"""Basic layers: containers, Dense, Dropout, normalization, Embedding, Flatten, Lambda."""

from __future__ import annotations

import warnings

import numpy as np

from ...util import is_np_array
from ..block import Block, HybridBlock, _indent
from .activations import Activation

__all__ = ["Sequential", "HybridSequential", "Dense", "Dropout", "Embedding", "BatchNorm",
           "BatchNormReLU", "InstanceNorm", "LayerNorm", "GroupNorm", "Flatten", "Lambda",
           "HybridLambda"]


def _children_repr(block):
    modstr = "\n".join(f"  ({key}): {_indent(repr(b), 2)}" for key, b in block._children.items())
    return f"{block.__class__.__name__}(\n{modstr}\n)"


def _chain(blocks, x, args):
    for block in blocks:
        x = block(x, *args)
        args = []
        if isinstance(x, (tuple, list)):
            args = x[1:]
            x = x[0]
    if args:
        x = tuple([x] + list(args))
    return x


class Sequential(Block):
    """Stack Blocks sequentially.

    Examples
    --------
    >>> net = mx.gluon.nn.Sequential()
    >>> with net.name_scope():
    ...     net.add(mx.gluon.nn.Dense(10, activation='relu'), mx.gluon.nn.Dense(2))
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def add(self, *blocks):
        """Append blocks."""
        for block in blocks:
            self.register_child(block)

    def forward(self, x, *args):
        return _chain(self._children.values(), x, args)

    def __repr__(self):
        return _children_repr(self)

    def __getitem__(self, key):
        layers = list(self._children.values())[key]
        if isinstance(layers, list):
            net = type(self)(prefix=self._prefix)
            with net.name_scope():
                net.add(*layers)
            return net
        return layers

    def __len__(self):
        return len(self._children)

    def hybridize(self, active=True, **kwargs):
        if self._children and all(isinstance(c, HybridBlock) for c in self._children.values()):
            warnings.warn(f"All children of this Sequential layer '{self.prefix}' are "
                          "HybridBlocks. Consider using HybridSequential for the best "
                          "performance.", stacklevel=2)
        super().hybridize(active, **kwargs)


class HybridSequential(HybridBlock):
    """Stack HybridBlocks sequentially (can be hybridized as a whole).

    Examples
    --------
    >>> net = mx.gluon.nn.HybridSequential()
    >>> with net.name_scope():
    ...     net.add(mx.gluon.nn.Dense(10, activation='relu'), mx.gluon.nn.Dense(2))
    >>> net.hybridize()
    """

    def __init__(self, prefix=None, params=None):
        super().__init__(prefix=prefix, params=params)

    def add(self, *blocks):
        """Append blocks."""
        for block in blocks:
            self.register_child(block)

    def hybrid_forward(self, F, x, *args):
        return _chain(self._children.values(), x, args)

    def __repr__(self):
        return _children_repr(self)

    def __getitem__(self, key):
        return Sequential.__getitem__(self, key)

    def __len__(self):
        return len(self._children)


class Dense(HybridBlock):
    """Fully connected layer: ``activation(dot(x, weight.T) + bias)``.

    Parameters
    ----------
    units : int
        Output size.
    activation : str, optional
        Activation applied to the output.
    use_bias : bool
    flatten : bool
        Flatten all but the first input axis (else apply to the last axis).
    in_units : int
        Input size (0: inferred at the first call).

    Examples
    --------
    >>> d = mx.gluon.nn.Dense(3, in_units=4); d.initialize()
    >>> d(mx.nd.ones((2, 4))).shape
    (2, 3)
    """

    def __init__(self, units, activation=None, use_bias=True, flatten=True, dtype="float32",
                 weight_initializer=None, bias_initializer="zeros", in_units=0, **kwargs):
        super().__init__(**kwargs)
        self._flatten = flatten
        with self.name_scope():
            self._units = units
            self._in_units = in_units
            self.weight = self.params.get("weight", shape=(units, in_units),
                                          init=weight_initializer, dtype=dtype,
                                          allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get("bias", shape=(units,), init=bias_initializer,
                                            dtype=dtype, allow_deferred_init=True)
            else:
                self.bias = None
            if activation is not None:
                self.act = Activation(activation, prefix=activation + "_")
            else:
                self.act = None

    def hybrid_forward(self, F, x, weight, bias=None):
        act = F.FullyConnected(x, weight, bias, no_bias=bias is None, num_hidden=self._units,
                               flatten=self._flatten, name="fwd")
        if self.act is not None:
            act = self.act(act)
        return act

    def __repr__(self):
        shape = self.weight.shape
        layout = f"{shape[1] if shape[1] else None} -> {shape[0]}"
        return f"{self.__class__.__name__}({layout}, {self.act if self.act else 'linear'})"


class Dropout(HybridBlock):
    """Randomly zero elements with probability ``rate`` during training.

    Examples
    --------
    >>> mx.gluon.nn.Dropout(0.5)(mx.nd.ones((2,))).asnumpy()  # not training: identity
    array([1., 1.], dtype=float32)
    """

    def __init__(self, rate, axes=(), **kwargs):
        super().__init__(**kwargs)
        self._rate = rate
        self._axes = axes

    def hybrid_forward(self, F, x):
        if self._rate > 0:
            return F.Dropout(x, p=self._rate, axes=self._axes, name="fwd", cudnn_off=False)
        return F.identity(x)

    def __repr__(self):
        return f"{self.__class__.__name__}(p = {self._rate}, axes={self._axes})"


def _norm_params(block, in_channels, center, scale, beta_init, gamma_init, shape=None):
    shape = (in_channels,) if shape is None else shape
    block.gamma = block.params.get("gamma", grad_req="write" if scale else "null", shape=shape,
                                   init=gamma_init, allow_deferred_init=True,
                                   differentiable=scale)
    block.beta = block.params.get("beta", grad_req="write" if center else "null", shape=shape,
                                  init=beta_init, allow_deferred_init=True,
                                  differentiable=center)


class BatchNorm(HybridBlock):
    """Batch normalization over ``axis`` with running statistics.

    Examples
    --------
    >>> bn = mx.gluon.nn.BatchNorm(); bn.initialize()
    >>> bn(mx.nd.ones((2, 3, 4))).shape
    (2, 3, 4)
    """

    def __init__(self, axis=1, momentum=0.9, epsilon=1e-5, center=True, scale=True,
                 use_global_stats=False, beta_initializer="zeros", gamma_initializer="ones",
                 running_mean_initializer="zeros", running_variance_initializer="ones",
                 in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"axis": axis, "eps": epsilon, "momentum": momentum,
                        "fix_gamma": not scale, "use_global_stats": use_global_stats}
        self._axis = axis
        if in_channels != 0:
            self.in_channels = in_channels
        _norm_params(self, in_channels, center, scale, beta_initializer, gamma_initializer)
        self.running_mean = self.params.get("running_mean", grad_req="null",
                                            shape=(in_channels,),
                                            init=running_mean_initializer,
                                            allow_deferred_init=True, differentiable=False)
        self.running_var = self.params.get("running_var", grad_req="null",
                                           shape=(in_channels,),
                                           init=running_variance_initializer,
                                           allow_deferred_init=True, differentiable=False)

    def cast(self, dtype):
        if np.dtype(dtype).name == "float16":
            dtype = "float32"
        super().cast(dtype)

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.BatchNorm(x, gamma, beta, running_mean, running_var, name="fwd",
                           **self._kwargs)

    def __repr__(self):
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        in_channels = self.gamma.shape[0]
        return (f"{self.__class__.__name__}({content}, "
                f"in_channels={in_channels if in_channels else None})")


class BatchNormReLU(BatchNorm):
    """Batch normalization followed by ReLU, one fused ``contrib.BatchNormWithReLU`` node;
    same parameters, defaults and parameter names as :class:`BatchNorm`.

    Examples
    --------
    >>> bn = mx.gluon.nn.BatchNormReLU(in_channels=2); bn.initialize()
    >>> bn(mx.nd.array([[-1., 1.], [1., -1.]])).asnumpy().min()
    0.0
    """

    def hybrid_forward(self, F, x, gamma, beta, running_mean, running_var):
        return F.contrib.BatchNormWithReLU(x, gamma, beta, running_mean, running_var,
                                           name="fwd", **self._kwargs)


class Embedding(HybridBlock):
    """Map integer indices to dense vectors of size ``output_dim``.

    Examples
    --------
    >>> e = mx.gluon.nn.Embedding(10, 3); e.initialize()
    >>> e(mx.nd.array([1, 2])).shape
    (2, 3)
    """

    def __init__(self, input_dim, output_dim, dtype="float32", weight_initializer=None,
                 sparse_grad=False, **kwargs):
        super().__init__(**kwargs)
        grad_stype = "row_sparse" if sparse_grad else "default"
        self._kwargs = {"input_dim": input_dim, "output_dim": output_dim, "dtype": dtype,
                        "sparse_grad": sparse_grad}
        self.weight = self.params.get("weight", shape=(input_dim, output_dim),
                                      init=weight_initializer, dtype=dtype,
                                      allow_deferred_init=True, grad_stype=grad_stype)

    def hybrid_forward(self, F, x, weight):
        return F.Embedding(x, weight, name="fwd", **self._kwargs)

    def __repr__(self):
        k = self._kwargs
        return f"{self.__class__.__name__}({k['input_dim']} -> {k['output_dim']}, {k['dtype']})"


class Flatten(HybridBlock):
    """Flatten every axis but the first: ``(N, ...) -> (N, prod(...))``."""

    def hybrid_forward(self, F, x):
        return F.Flatten(x)

    def __repr__(self):
        return self.__class__.__name__


class InstanceNorm(HybridBlock):
    """Instance normalization (per sample and channel)."""

    def __init__(self, axis=1, epsilon=1e-5, center=True, scale=False,
                 beta_initializer="zeros", gamma_initializer="ones", in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        _norm_params(self, in_channels, center, scale, beta_initializer, gamma_initializer)

    def hybrid_forward(self, F, x, gamma, beta):
        if self._axis == 1:
            return F.InstanceNorm(x, gamma, beta, name="fwd", eps=self._epsilon)
        x = x.swapaxes(1, self._axis)
        return F.InstanceNorm(x, gamma, beta, name="fwd",
                              eps=self._epsilon).swapaxes(1, self._axis)

    def __repr__(self):
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{self.__class__.__name__}({content}, in_channels={self.gamma.shape[0]})"


class LayerNorm(HybridBlock):
    """Layer normalization over ``axis``."""

    def __init__(self, axis=-1, epsilon=1e-5, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", in_channels=0, **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"eps": epsilon, "axis": axis, "center": center, "scale": scale}
        self._axis = axis
        self._epsilon = epsilon
        self._center = center
        self._scale = scale
        _norm_params(self, in_channels, center, scale, beta_initializer, gamma_initializer)

    def hybrid_forward(self, F, data, gamma, beta):
        if is_np_array():  # NumPy mode: npx.layer_norm (node named layer_norm<N>, as MXNet)
            return F.npx.layer_norm(data, gamma=gamma, beta=beta, axis=self._axis,
                                    eps=self._epsilon)
        return F.LayerNorm(data, gamma=gamma, beta=beta, axis=self._axis, eps=self._epsilon)

    def __repr__(self):
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{self.__class__.__name__}({content}, in_channels={self.gamma.shape[0]})"


class GroupNorm(HybridBlock):
    """Group normalization with ``num_groups`` channel groups."""

    def __init__(self, num_groups=1, epsilon=1e-5, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self._kwargs = {"eps": epsilon, "num_groups": num_groups, "center": center,
                        "scale": scale}
        self._num_groups = num_groups
        self._epsilon = epsilon
        self._center = center
        self._scale = scale
        _norm_params(self, 0, center, scale, beta_initializer, gamma_initializer,
                     shape=(num_groups,))

    def hybrid_forward(self, F, data, gamma, beta):
        return F.GroupNorm(data, gamma=gamma, beta=beta, num_groups=self._num_groups,
                           eps=self._epsilon)

    def __repr__(self):
        content = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{self.__class__.__name__}({content})"


class Lambda(Block):
    """Wrap a function (or the name of an ``mx.nd`` function) as a Block.

    Examples
    --------
    >>> mx.gluon.nn.Lambda('tanh')(mx.nd.zeros((1,))).asnumpy()
    array([0.], dtype=float32)
    """

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        from ... import ndarray as nd

        if isinstance(function, str):
            if not hasattr(nd, function):
                raise AssertionError(f"Function name {function} is not found in ndarray.")
            self._func_impl = getattr(nd, function)
        elif callable(function):
            self._func_impl = function
        else:
            raise ValueError(f"Unrecognized function in lambda: {function} of type "
                             f"{type(function)}")

    def forward(self, *args):
        return self._func_impl(*args)

    def __repr__(self):
        return f"{self.__class__.__name__}({self._func_impl.__name__})"


class HybridLambda(HybridBlock):
    """Wrap ``function(F, x, *args)`` (or an operator name) as a HybridBlock.

    Examples
    --------
    >>> blk = mx.gluon.nn.HybridLambda(lambda F, x: F.relu(x))
    """

    def __init__(self, function, prefix=None):
        super().__init__(prefix=prefix)
        if isinstance(function, str):
            from ... import ndarray as nd
            from ... import symbol as sym

            if not (hasattr(nd, function) and hasattr(sym, function)):
                raise AssertionError(f"Function name {function} is not found in symbol/"
                                     "ndarray.")
            self._func = lambda F, *args: getattr(F, function)(*args)
            self._func_name = function
        elif callable(function):
            self._func = function
            self._func_name = function.__name__
        else:
            raise ValueError(f"Unrecognized function in lambda: {function} of type "
                             f"{type(function)}")

    def hybrid_forward(self, F, x, *args):
        return self._func(F, x, *args)

    def __repr__(self):
        return f"{self.__class__.__name__}({self._func_name})"
