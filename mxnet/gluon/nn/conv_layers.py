"""Convolution, transposed convolution, pooling and padding layers."""

from __future__ import annotations

from numbers import Number

from ..block import HybridBlock
from .activations import Activation

__all__ = ["Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose",
           "Conv3DTranspose", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D",
           "AvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D",
           "GlobalAvgPool1D", "GlobalAvgPool2D", "GlobalAvgPool3D", "ReflectionPad2D"]


def _tup(v, n):
    return (v,) * n if isinstance(v, Number) else tuple(v)


def _infer_weight_shape(op_name, data_shape, kwargs):
    """Argument shapes of ``op_name`` applied to data of ``data_shape`` (MXNet 1.9.1's
    helper, used by third-party convolution-like layers): ``infer_shape_partial()[0]``."""
    from ... import symbol
    from ...util import is_np_array

    data = symbol.var("data", shape=data_shape)
    if is_np_array():
        op = getattr(symbol.npx, op_name)
        data = data.as_np_ndarray()
    else:
        op = getattr(symbol, op_name)
    return op(data, **kwargs).infer_shape_partial()[0]


class _Conv(HybridBlock):
    """Shared implementation of N-d (transposed) convolution layers."""

    def __init__(self, channels, kernel_size, strides, padding, dilation, groups, layout,
                 in_channels=0, activation=None, use_bias=True, weight_initializer=None,
                 bias_initializer="zeros", op_name="Convolution", adj=None, prefix=None,
                 params=None):
        super().__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            n = len(kernel_size)
            strides, padding, dilation = (_tup(strides, n), _tup(padding, n),
                                          _tup(dilation, n))
            self._op_name = op_name
            self._kwargs = {"kernel": kernel_size, "stride": strides, "dilate": dilation,
                            "pad": padding, "num_filter": channels, "num_group": groups,
                            "no_bias": not use_bias, "layout": layout}
            if adj is not None:
                self._kwargs["adj"] = adj
            if op_name == "Convolution":
                wshape = (channels, in_channels // groups if in_channels else 0) + kernel_size
            else:
                wshape = (in_channels, channels // groups) + kernel_size
            if layout[-1] == "C":
                # channels-last layouts keep the weight as (out, *kernel, in), as MXNet's
                # Convolution/Deconvolution shape inference does
                wshape = (wshape[0],) + kernel_size + (wshape[1],)
            self.weight = self.params.get("weight", shape=wshape, init=weight_initializer,
                                          allow_deferred_init=True)
            if use_bias:
                self.bias = self.params.get("bias", shape=(channels,), init=bias_initializer,
                                            allow_deferred_init=True)
            else:
                self.bias = None
            if activation is not None:
                self.act = Activation(activation, prefix=activation + "_")
            else:
                self.act = None

    def hybrid_forward(self, F, x, weight, bias=None):
        op = getattr(F, self._op_name)
        if bias is None:
            act = op(x, weight, name="fwd", **self._kwargs)
        else:
            act = op(x, weight, bias, name="fwd", **self._kwargs)
        if self.act is not None:
            act = self.act(act)
        return act

    def _alias(self):
        return "conv"

    def __repr__(self):
        k = self._kwargs
        n = len(k["kernel"])
        s = "{name}({mapping}, kernel_size={kernel}, stride={stride}"
        if k["pad"] != (0,) * n:
            s += ", padding={pad}"
        if k["dilate"] != (1,) * n:
            s += ", dilation={dilate}"
        if k["num_group"] != 1:
            s += ", groups={num_group}"
        if self.bias is None:
            s += ", bias=False"
        if self.act:
            s += f", {self.act}"
        s += ")"
        shape = self.weight.shape
        return s.format(name=self.__class__.__name__,
                        mapping=f"{shape[1] if shape[1] else None} -> {shape[0]}", **k)


def _check(layout, allowed, kernel_size, n):
    if layout not in allowed:
        raise AssertionError(f"Only supports {' and '.join(repr(a) for a in allowed)} layout "
                             "for now")
    kernel_size = _tup(kernel_size, n)
    if len(kernel_size) != n:
        raise AssertionError(f"kernel_size must be a number or a list of {n} ints")
    return kernel_size


def _conv_class(name, n, layouts, transpose):
    default_layout = layouts[0]

    if not transpose:
        def __init__(self, channels, kernel_size, strides=(1,) * n, padding=(0,) * n,
                     dilation=(1,) * n, groups=1, layout=default_layout, activation=None,
                     use_bias=True, weight_initializer=None, bias_initializer="zeros",
                     in_channels=0, **kwargs):
            kernel_size = _check(layout, layouts, kernel_size, n)
            _Conv.__init__(self, channels, kernel_size, strides, padding, dilation, groups,
                           layout, in_channels, activation, use_bias, weight_initializer,
                           bias_initializer, **kwargs)
    else:
        def __init__(self, channels, kernel_size, strides=(1,) * n, padding=(0,) * n,
                     output_padding=(0,) * n, dilation=(1,) * n, groups=1,
                     layout=default_layout, activation=None, use_bias=True,
                     weight_initializer=None, bias_initializer="zeros", in_channels=0,
                     **kwargs):
            kernel_size = _check(layout, layouts, kernel_size, n)
            output_padding = _tup(output_padding, n)
            _Conv.__init__(self, channels, kernel_size, strides, padding, dilation, groups,
                           layout, in_channels, activation, use_bias, weight_initializer,
                           bias_initializer, op_name="Deconvolution", adj=output_padding,
                           **kwargs)
            self.outpad = output_padding

    what = "transposed convolution" if transpose else "convolution"
    doc = (f"{n}-D {what} layer (layout {default_layout}).\n\n    Examples\n    --------\n"
           f"    >>> layer = mx.gluon.nn.{name}(4, 3)\n")
    cls = type(name, (_Conv,), {"__init__": __init__, "__doc__": doc,
                                "__module__": __name__})
    return cls


Conv1D = _conv_class("Conv1D", 1, ("NCW",), False)
Conv2D = _conv_class("Conv2D", 2, ("NCHW", "NHWC"), False)
Conv3D = _conv_class("Conv3D", 3, ("NCDHW", "NDHWC"), False)
Conv1DTranspose = _conv_class("Conv1DTranspose", 1, ("NCW",), True)
Conv2DTranspose = _conv_class("Conv2DTranspose", 2, ("NCHW", "NHWC"), True)
Conv3DTranspose = _conv_class("Conv3DTranspose", 3, ("NCDHW", "NDHWC"), True)


class _Pooling(HybridBlock):
    """Shared implementation of pooling layers."""

    def __init__(self, pool_size, strides, padding, ceil_mode, global_pool, pool_type, layout,
                 count_include_pad=None, **kwargs):
        super().__init__(**kwargs)
        if strides is None:
            strides = pool_size
        n = len(pool_size)
        strides = _tup(strides, n)
        padding = _tup(padding, n)
        self._kwargs = {"kernel": pool_size, "stride": strides, "pad": padding,
                        "global_pool": global_pool, "pool_type": pool_type, "layout": layout,
                        "pooling_convention": "full" if ceil_mode else "valid"}
        if count_include_pad is not None:
            self._kwargs["count_include_pad"] = count_include_pad

    def _alias(self):
        return "pool"

    def hybrid_forward(self, F, x):
        return F.Pooling(x, name="fwd", **self._kwargs)

    def __repr__(self):
        k = self._kwargs
        return (f"{self.__class__.__name__}(size={k['kernel']}, stride={k['stride']}, "
                f"padding={k['pad']}, ceil_mode={k['pooling_convention'] == 'full'}, "
                f"global_pool={k['global_pool']}, pool_type={k['pool_type']}, "
                f"layout={k['layout']})")


def _pool_class(name, n, layouts, pool_type, is_global):
    default_layout = layouts[0]

    if is_global:
        def __init__(self, layout=default_layout, **kwargs):
            _check(layout, layouts, 1, n)
            _Pooling.__init__(self, (1,) * n, None, 0, True, True, pool_type, layout, **kwargs)
    elif pool_type == "max" and n == 3:  # MXNet puts ceil_mode before layout here
        def __init__(self, pool_size=(2,) * n, strides=None, padding=0, ceil_mode=False,
                     layout=default_layout, **kwargs):
            pool_size = _check(layout, layouts, pool_size, n)
            _Pooling.__init__(self, pool_size, strides, padding, ceil_mode, False, "max",
                              layout, **kwargs)
    elif pool_type == "max":
        def __init__(self, pool_size=(2,) * n, strides=None, padding=0, layout=default_layout,
                     ceil_mode=False, **kwargs):
            pool_size = _check(layout, layouts, pool_size, n)
            _Pooling.__init__(self, pool_size, strides, padding, ceil_mode, False, "max",
                              layout, **kwargs)
    elif n > 1:  # AvgPool2D/3D: ceil_mode before layout, as MXNet 1.9.1
        def __init__(self, pool_size=(2,) * n, strides=None, padding=0, ceil_mode=False,
                     layout=default_layout, count_include_pad=True, **kwargs):
            pool_size = _check(layout, layouts, pool_size, n)
            _Pooling.__init__(self, pool_size, strides, padding, ceil_mode, False, "avg",
                              layout, count_include_pad, **kwargs)
    else:
        def __init__(self, pool_size=(2,) * n, strides=None, padding=0, layout=default_layout,
                     ceil_mode=False, count_include_pad=True, **kwargs):
            pool_size = _check(layout, layouts, pool_size, n)
            _Pooling.__init__(self, pool_size, strides, padding, ceil_mode, False, "avg",
                              layout, count_include_pad, **kwargs)
    if n == 1 and not is_global:
        defaults = list(__init__.__defaults__)
        defaults[0] = 2
        __init__.__defaults__ = tuple(defaults)

    what = ("global " if is_global else "") + f"{pool_type} pooling"
    doc = (f"{n}-D {what} layer (layout {default_layout}).\n\n    Examples\n    --------\n"
           f"    >>> layer = mx.gluon.nn.{name}()\n")
    return type(name, (_Pooling,), {"__init__": __init__, "__doc__": doc,
                                    "__module__": __name__})


MaxPool1D = _pool_class("MaxPool1D", 1, ("NCW", "NWC"), "max", False)
MaxPool2D = _pool_class("MaxPool2D", 2, ("NCHW", "NHWC"), "max", False)
MaxPool3D = _pool_class("MaxPool3D", 3, ("NCDHW", "NDHWC"), "max", False)
AvgPool1D = _pool_class("AvgPool1D", 1, ("NCW", "NWC"), "avg", False)
AvgPool2D = _pool_class("AvgPool2D", 2, ("NCHW", "NHWC"), "avg", False)
AvgPool3D = _pool_class("AvgPool3D", 3, ("NCDHW", "NDHWC"), "avg", False)
GlobalMaxPool1D = _pool_class("GlobalMaxPool1D", 1, ("NCW", "NWC"), "max", True)
GlobalMaxPool2D = _pool_class("GlobalMaxPool2D", 2, ("NCHW", "NHWC"), "max", True)
GlobalMaxPool3D = _pool_class("GlobalMaxPool3D", 3, ("NCDHW", "NDHWC"), "max", True)
GlobalAvgPool1D = _pool_class("GlobalAvgPool1D", 1, ("NCW", "NWC"), "avg", True)
GlobalAvgPool2D = _pool_class("GlobalAvgPool2D", 2, ("NCHW", "NHWC"), "avg", True)
GlobalAvgPool3D = _pool_class("GlobalAvgPool3D", 3, ("NCDHW", "NDHWC"), "avg", True)


class ReflectionPad2D(HybridBlock):
    """Pad the last two axes of an NCHW input by reflection.

    Examples
    --------
    >>> mx.gluon.nn.ReflectionPad2D(1)(mx.nd.ones((1, 1, 2, 2))).shape
    (1, 1, 4, 4)
    """

    def __init__(self, padding=0, **kwargs):
        super().__init__(**kwargs)
        if isinstance(padding, Number):
            padding = (0, 0, 0, 0, padding, padding, padding, padding)
        if len(padding) != 8:
            raise AssertionError("padding must be an int or a tuple of 8 ints")
        self._padding = padding

    def hybrid_forward(self, F, x):
        return F.pad(x, mode="reflect", pad_width=self._padding)
