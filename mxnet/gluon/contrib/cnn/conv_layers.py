"""Deformable convolution blocks: ``DeformableConvolution`` (DCNv1) and
``ModulatedDeformableConvolution`` (DCNv2).

A plain convolution over the input predicts the sampling offsets (and, for DCNv2, the
modulation mask); the ``contrib.(Modulated)DeformableConvolution`` operator then
convolves the input sampled at those offsets. Parameter names and shapes follow MXNet
1.9.1 (``offset_weight``, ``offset_bias``, ``deformable_conv_weight``,
``deformable_conv_bias``).
"""

from __future__ import annotations

from numbers import Number

from ...block import HybridBlock
from ...nn.activations import Activation

__all__ = ["DeformableConvolution", "ModulatedDeformableConvolution"]


def _pair(v, n=2):
    return (v,) * n if isinstance(v, Number) else tuple(v)


class _DeformableBase(HybridBlock):
    """Shared set-up: offset convolution parameters, deformable weights, activation."""

    _OFFSET_PER_TAP = 2  # offset channels per kernel tap and deformable group

    def __init__(
        self,
        channels,
        kernel_size=(1, 1),
        strides=(1, 1),
        padding=(0, 0),
        dilation=(1, 1),
        groups=1,
        num_deformable_group=1,
        layout="NCHW",
        use_bias=True,
        in_channels=0,
        activation=None,
        weight_initializer=None,
        bias_initializer="zeros",
        offset_weight_initializer="zeros",
        offset_bias_initializer="zeros",
        offset_use_bias=True,
        op_name=None,
        adj=None,
        prefix=None,
        params=None,
    ):
        """The public constructor of both layers (``op_name`` defaults to the layer's)."""
        op_name = op_name or self._OP_NAME
        super().__init__(prefix=prefix, params=params)
        with self.name_scope():
            self._channels = channels
            self._in_channels = in_channels
            assert layout in ("NCHW", "NHWC"), "Only supports 'NCHW' and 'NHWC' layout for now"
            kernel_size = _pair(kernel_size)
            n = len(kernel_size)
            strides, padding, dilation = _pair(strides, n), _pair(padding, n), _pair(dilation, n)
            self._op_name = op_name
            taps = kernel_size[0] * kernel_size[1]
            self._offset_channels = num_deformable_group * self._OFFSET_PER_TAP * taps
            self._kwargs_offset = {
                "kernel": kernel_size,
                "stride": strides,
                "dilate": dilation,
                "pad": padding,
                "num_filter": self._offset_channels,
                "num_group": groups,
                "no_bias": not offset_use_bias,
                "layout": layout,
            }
            self._kwargs_deformable_conv = {
                "kernel": kernel_size,
                "stride": strides,
                "dilate": dilation,
                "pad": padding,
                "num_filter": channels,
                "num_group": groups,
                "num_deformable_group": num_deformable_group,
                "no_bias": not use_bias,
                "layout": layout,
            }
            if adj:
                self._kwargs_offset["adj"] = adj
                self._kwargs_deformable_conv["adj"] = adj
            self._init_args = (
                kernel_size,
                groups,
                use_bias,
                in_channels,
                weight_initializer,
                bias_initializer,
                offset_weight_initializer,
                offset_bias_initializer,
                offset_use_bias,
            )
            self._register()
            self.act = Activation(activation, prefix=activation + "_") if activation else None

    def _offset_params(self):
        kernel, groups, _, in_c, _, _, ow_init, ob_init, ob_use = self._init_args
        self.offset_weight = self.params.get(
            "offset_weight",
            shape=(self._offset_channels, in_c // groups if in_c else 0) + tuple(kernel),
            init=ow_init,
            allow_deferred_init=True,
        )
        self.offset_bias = (
            self.params.get(
                "offset_bias",
                shape=(self._offset_channels,),
                init=ob_init,
                allow_deferred_init=True,
            )
            if ob_use
            else None
        )

    def _conv_params(self):
        kernel, _, use_bias, _, w_init, b_init, _, _, _ = self._init_args
        self.deformable_conv_weight = self.params.get(
            "deformable_conv_weight",
            shape=(self._channels, 0) + tuple(kernel),
            init=w_init,
            allow_deferred_init=True,
        )
        self.deformable_conv_bias = (
            self.params.get(
                "deformable_conv_bias",
                shape=(self._channels,),
                init=b_init,
                allow_deferred_init=True,
            )
            if use_bias
            else None
        )

    def _offsets(self, F, x, offset_weight, offset_bias):
        if offset_bias is None:
            return F.Convolution(x, offset_weight, cudnn_off=True, **self._kwargs_offset)
        return F.Convolution(x, offset_weight, offset_bias, cudnn_off=True, **self._kwargs_offset)

    def _activate(self, out):
        return self.act(out) if self.act else out

    def _weight_ready(self, x, weight):
        """On the first (deferred-init) eager call, give the deformable weight its shape
        from the data (the contrib operator's name is not a top-level one, so the generic
        deferred-init lookup cannot reach its shape rule)."""
        from ..._deferred import Pending

        if not isinstance(weight, Pending):
            return weight
        kw = self._kwargs_deformable_conv
        in_c = x.shape[kw["layout"].find("C")]
        weight.param.shape = (kw["num_filter"], in_c // kw["num_group"]) + tuple(kw["kernel"])
        return weight.resolve()


class DeformableConvolution(_DeformableBase):
    """2-D deformable convolution (Dai et al., 2017): learned offsets move each kernel tap.

    Parameters follow :class:`mxnet.gluon.nn.Conv2D`, plus ``num_deformable_group`` and
    the offset convolution's initializers / ``offset_use_bias``.

    Examples
    --------
    >>> net = mx.gluon.contrib.cnn.DeformableConvolution(4, kernel_size=3, padding=1)
    >>> net.initialize()
    >>> net(mx.nd.ones((1, 2, 5, 5))).shape
    (1, 4, 5, 5)
    """

    _OP_NAME = "DeformableConvolution"

    def _register(self):
        self._offset_params()
        self._conv_params()

    def hybrid_forward(
        self,
        F,
        x,
        offset_weight,
        deformable_conv_weight,
        offset_bias=None,
        deformable_conv_bias=None,
    ):
        offset = self._offsets(F, x, offset_weight, offset_bias)
        deformable_conv_weight = self._weight_ready(x, deformable_conv_weight)
        kw = dict(self._kwargs_deformable_conv)
        if deformable_conv_bias is not None:
            kw["bias"] = deformable_conv_bias
        out = F.contrib.DeformableConvolution(
            data=x, offset=offset, weight=deformable_conv_weight, name="fwd", **kw
        )
        return self._activate(out)

    def _alias(self):
        return "deformable_conv"

    def __repr__(self):
        kw = self._kwargs_deformable_conv
        n = len(kw["kernel"])
        s = (
            f"{self.__class__.__name__}({{mapping}}, kernel_size={kw['kernel']}, "
            f"stride={kw['stride']}"
        )
        if kw["pad"] != (0,) * n:
            s += f", padding={kw['pad']}"
        if kw["dilate"] != (1,) * n:
            s += f", dilation={kw['dilate']}"
        if kw["num_group"] != 1:
            s += f", groups={kw['num_group']}"
        if self.deformable_conv_bias is None:
            s += ", bias=False"
        if self.act:
            s += f", {self.act}"
        shape = self.deformable_conv_weight.shape
        return s.format(mapping=f"{shape[1] if shape[1] else None} -> {shape[0]}") + ")"


class ModulatedDeformableConvolution(_DeformableBase):
    """2-D modulated deformable convolution (DCNv2, Zhu et al., 2019): offsets plus a
    sigmoid mask (scaled by 2) per kernel tap, predicted by one convolution.

    Examples
    --------
    >>> net = mx.gluon.contrib.cnn.ModulatedDeformableConvolution(4, kernel_size=(3, 3))
    >>> net.initialize()
    >>> net(mx.nd.ones((1, 2, 5, 5))).shape
    (1, 4, 3, 3)
    """

    _OFFSET_PER_TAP = 3  # two offsets and one mask value per tap
    _OP_NAME = "ModulatedDeformableConvolution"

    @property
    def offset_split_index(self) -> int:
        """Channels of the offsets (the mask channels follow them)."""
        return self._offset_channels * 2 // 3

    def _register(self):
        self._conv_params()
        self._offset_params()

    def hybrid_forward(
        self,
        F,
        x,
        offset_weight,
        deformable_conv_weight,
        offset_bias=None,
        deformable_conv_bias=None,
    ):
        offset = self._offsets(F, x, offset_weight, offset_bias)
        split = self.offset_split_index
        offset_t = F.slice_axis(offset, axis=1, begin=0, end=split)
        mask = F.sigmoid(F.slice_axis(offset, axis=1, begin=split, end=None)) * 2
        deformable_conv_weight = self._weight_ready(x, deformable_conv_weight)
        kw = dict(self._kwargs_deformable_conv)
        if deformable_conv_bias is not None:
            kw["bias"] = deformable_conv_bias
        out = F.contrib.ModulatedDeformableConvolution(
            data=x, offset=offset_t, mask=mask, weight=deformable_conv_weight, name="fwd", **kw
        )
        return self._activate(out)

    def _alias(self):
        return "modulated_deformable_conv"
