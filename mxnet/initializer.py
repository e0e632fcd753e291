"""Weight initializers (``mx.init``): fill parameter arrays by name pattern.

An :class:`Initializer` is called with an :class:`InitDesc` (the parameter name plus its
symbol attributes) and the array to fill. The ``__init__`` attribute (a ``dumps()`` string)
overrides everything; otherwise the name suffix picks the rule: ``weight`` -> the
initializer's own rule, ``bias``/``beta``/``min`` -> 0, ``gamma``/``max`` -> 1.
"""

from __future__ import annotations

import json
import logging
import re
import warnings
from math import sqrt

import numpy as np
import torch

from . import registry
from .base import abstract
from .ndarray import NDArray, load

__all__ = [
    "InitDesc",
    "Initializer",
    "Load",
    "Mixed",
    "Zero",
    "One",
    "Constant",
    "Uniform",
    "Normal",
    "Orthogonal",
    "Xavier",
    "MSRAPrelu",
    "Bilinear",
    "LSTMBias",
    "FusedRNN",
    "register",
    "alias",
    "create",
]


class InitDesc(str):
    """A parameter name carrying its attributes and the global initializer.

    Examples
    --------
    >>> d = mx.init.InitDesc('fc_weight', attrs={'__init__': '["zero", {}]'})
    >>> d, d.attrs['__init__']
    ('fc_weight', '["zero", {}]')
    """

    def __new__(cls, name, attrs=None, global_init=None):
        ret = super().__new__(cls, name)
        ret.attrs = attrs or {}
        ret.global_init = global_init
        return ret


def _fill(arr: NDArray, value) -> None:
    """Write a scalar or an array-like into ``arr`` in place."""
    t = arr._t
    with torch.no_grad():
        if isinstance(value, NDArray):
            t.copy_(value._t.to(t.dtype).reshape(t.shape))
        elif np.isscalar(value):
            t.fill_(value)
        else:
            src = torch.as_tensor(np.asarray(value), dtype=t.dtype).reshape(t.shape)
            t.copy_(src)


def _check_float_out(arr: NDArray, opname: str) -> None:
    """MXNet's samplers write only floating-point outputs (int parameters fail to init)."""
    if not arr._t.is_floating_point():
        from .base import MXNetError

        raise MXNetError(
            f"Operator {opname}: output type must be float16, float32, float64; "
            f"got {arr.dtype.__name__ if hasattr(arr.dtype, '__name__') else arr.dtype}"
        )


def _mx_stream(arr: NDArray, kind: str, a: float, b: float) -> bool:
    """Fill a float32/float64 CPU array from MXNet's own CPU sampler stream, as MXNet's
    initializers call ``nd.random.uniform/normal(out=arr)`` (``np.random.*`` in NumPy
    mode, another stream with float32 arithmetic); False for other arrays."""
    from . import _mxrng
    from .util import is_np_array

    t = arr._t
    if t.device.type != "cpu" or t.dtype not in (torch.float32, torch.float64):
        return False
    if not _mxrng.ENABLED:
        return False

    n = t.numel()
    if is_np_array():
        lo, hi = np.float32(a), np.float32(b)
        if kind == "uniform":
            vals = lo + (hi - lo) * _mxrng.np_uniform01(n)
        else:
            vals = lo + hi * _mxrng.np_normal01(n)
    else:
        fn = _mxrng.uniform if kind == "uniform" else _mxrng.normal
        vals = fn(n, a, b, "float32" if t.dtype == torch.float32 else "float64")
    with torch.no_grad():
        t.copy_(torch.from_numpy(vals.reshape(tuple(t.shape))))
    return True


def _uniform(arr: NDArray, low: float, high: float) -> None:
    _check_float_out(arr, "_random_uniform")
    if _mx_stream(arr, "uniform", low, high):
        return
    with torch.no_grad():
        arr._t.uniform_(low, high)


def _normal(arr: NDArray, sigma: float) -> None:
    _check_float_out(arr, "_random_normal")
    if _mx_stream(arr, "normal", 0.0, sigma):
        return
    with torch.no_grad():
        arr._t.normal_(0.0, sigma)


def _bilinear(shape) -> np.ndarray:
    n = int(np.prod(shape))
    f = np.ceil(shape[3] / 2.0)
    c = (2 * f - 1 - f % 2) / (2.0 * f)
    i = np.arange(n)
    x = i % shape[3]
    y = i // shape[3] % shape[2]
    weight = (1 - np.abs(x / f - c)) * (1 - np.abs(y / f - c))
    return weight.astype("float32").reshape(shape)


_SUFFIX_RULES = (
    ("weight", "_init_weight"),
    ("bias", "_init_bias"),
    ("gamma", "_init_gamma"),
    ("beta", "_init_beta"),
    ("min", "_init_zero"),
    ("max", "_init_one"),
    ("weight_quantize", "_init_quantized_weight"),
    ("bias_quantize", "_init_quantized_bias"),
)

_LEGACY_RULES = (
    ("bias", "_init_bias"),
    ("gamma", "_init_gamma"),
    ("beta", "_init_beta"),
    ("weight", "_init_weight"),
    ("moving_mean", "_init_zero"),
    ("moving_var", "_init_one"),
    ("moving_inv_var", "_init_zero"),
    ("moving_avg", "_init_zero"),
    ("min", "_init_zero"),
    ("max", "_init_one"),
)


class Initializer:
    """Base class of initializers.

    Examples
    --------
    >>> init = mx.init.Xavier(magnitude=2.24)
    >>> w = mx.nd.zeros((4, 3))
    >>> init(mx.init.InitDesc('fc_weight'), w)
    >>> init.dumps()
    '["xavier", {"rnd_type": "uniform", "factor_type": "avg", "magnitude": 2.24}]'
    """

    def __init__(self, **kwargs):
        self._kwargs = kwargs
        self._verbose = False
        self._print_func = None

    def set_verbosity(self, verbose=False, print_func=None):
        """Log a statistic (default: ``norm(x) / sqrt(size)``) of every initialized array."""
        self._verbose = verbose
        if print_func is None:

            def asum_stat(x):
                return str((torch.linalg.vector_norm(x._t.float()) / sqrt(x.size)).item())

            print_func = asum_stat
        self._print_func = print_func
        return self

    def _verbose_print(self, desc, init, arr):
        if self._verbose and self._print_func:
            logging.info("Initialized %s as %s: %s", desc, init, self._print_func(arr))

    def dumps(self):
        """JSON ``[name, kwargs]`` string, usable as a symbol's ``__init__`` attribute."""
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])

    def __call__(self, desc, arr):
        if isinstance(arr, NDArray) and arr.stype != "default":
            # sparse storage: initialise a dense copy, then store it back
            dense = NDArray._wrap(arr._t, arr.context)
            self(desc, dense)
            arr._t = dense._t
            return
        if not isinstance(desc, InitDesc):
            self._legacy_init(desc, arr)
            return
        if desc.global_init is None:
            desc.global_init = self
        init = desc.attrs.get("__init__", "")
        if init:
            create(init)._init_weight(desc, arr)
            self._verbose_print(desc, init, arr)
            return
        for suffix, method in _SUFFIX_RULES:
            if desc.endswith(suffix):
                getattr(self, method)(desc, arr)
                self._verbose_print(desc, suffix, arr)
                return
        self._init_default(desc, arr)

    def _legacy_init(self, name, arr):
        warnings.warn(
            "\033[91mCalling initializer with init(str, NDArray) has been deprecated."
            "please use init(mx.init.InitDesc(...), NDArray) instead.\033[0m",
            DeprecationWarning,
            stacklevel=3,
        )
        if not isinstance(name, str):
            raise TypeError("name must be string")
        if not isinstance(arr, NDArray):
            raise TypeError("arr must be NDArray")
        if name.startswith("upsampling"):
            self._init_bilinear(name, arr)
        elif name.startswith("stn_loc") and name.endswith("weight"):
            self._init_zero(name, arr)
        elif name.startswith("stn_loc") and name.endswith("bias"):
            self._init_loc_bias(name, arr)
        else:
            for suffix, method in _LEGACY_RULES:
                if name.endswith(suffix):
                    getattr(self, method)(name, arr)
                    return
            self._init_default(name, arr)

    def _init_bilinear(self, _, arr):
        _fill(arr, _bilinear(arr.shape))

    def _init_loc_bias(self, _, arr):
        assert arr.shape[0] == 6
        _fill(arr, np.array([1.0, 0, 0, 0, 1.0, 0]))

    def _init_zero(self, _, arr):
        _fill(arr, 0.0)

    def _init_one(self, _, arr):
        _fill(arr, 1.0)

    def _init_bias(self, _, arr):
        _fill(arr, 0.0)

    def _init_quantized_bias(self, _, arr):
        _fill(arr, 0)

    def _init_gamma(self, _, arr):
        _fill(arr, 1.0)

    def _init_beta(self, _, arr):
        _fill(arr, 0.0)

    def _init_weight(self, name, arr):
        raise abstract(self, "_init_weight")

    def _init_quantized_weight(self, _, arr):
        _fill(arr, torch.randint(-127, 127, arr.shape).numpy().astype(np.int8))

    def _init_default(self, name, _):
        raise ValueError(
            f"Unknown initialization pattern for {name}. Default initialization is now limited "
            'to "weight", "bias", "gamma" (1.0), and "beta" (0.0).Please use '
            "mx.sym.Variable(init=mx.init.*) to set initialization pattern"
        )

    def __eq__(self, other):
        if not isinstance(other, Initializer):
            return NotImplemented
        return type(self) is type(other) and self._kwargs == other._kwargs

    __hash__ = object.__hash__


_register = registry.get_register_func(Initializer, "initializer")
alias = registry.get_alias_func(Initializer, "initializer")
create = registry.get_create_func(Initializer, "initializer")


def register(klass):
    """Register an initializer class so that ``create(name)`` and ``dumps()`` strings find it.

    Examples
    --------
    >>> @mx.init.register
    ... class MyInit(mx.init.Initializer):
    ...     def _init_weight(self, _, arr):
    ...         arr[:] = 3
    """
    return _register(klass)


class Load:
    """Initialize from saved arrays (a dict or a ``.params`` file), falling back to
    ``default_init`` for names not found; ``arg:``/``aux:`` prefixes are dropped.

    Examples
    --------
    >>> init = mx.init.Load({'fc_weight': mx.nd.ones((2,))}, default_init=mx.init.Zero())
    """

    def __init__(self, param, default_init=None, verbose=False):
        if isinstance(param, str):
            param = load(param)
        assert isinstance(param, dict)
        self.param = {}
        for name, arr in param.items():
            key = name[4:] if name.startswith("arg:") or name.startswith("aux:") else name
            self.param[key] = arr
        self.default_init = default_init
        self.verbose = verbose

    def __call__(self, name, arr):
        if name in self.param:
            src = self.param[name]
            assert arr.shape == src.shape, (
                f"Parameter {name} cannot be initialized from loading. Shape mismatch, target "
                f"{arr.shape} vs loaded {src.shape}"
            )
            _fill(arr, src)
            if self.verbose:
                logging.info("Initialized %s by loading", name)
        else:
            assert self.default_init is not None, (
                f"Cannot Initialize {name}. Not found in loaded param and no default "
                "Initializer is provided."
            )
            self.default_init(name, arr)
            if self.verbose:
                logging.info("Initialized %s by default", name)


class Mixed:
    """Pick the initializer of the first regular expression that matches the name.

    Examples
    --------
    >>> init = mx.init.Mixed(['bias', '.*'], [mx.init.Zero(), mx.init.Uniform(0.1)])
    """

    def __init__(self, patterns, initializers):
        assert len(patterns) == len(initializers)
        self.map = list(zip([re.compile(p) for p in patterns], initializers))

    def __call__(self, name, arr):
        for prog, init in self.map:
            if prog.match(name):
                init(name, arr)
                return
        raise ValueError(
            "Parameter name %s did not match any pattern. Consider"
            'add a ".*" pattern at the and with default Initializer.'
        )


@register
@alias("zeros")
class Zero(Initializer):
    """Fill with 0. ``mx.init.Zero()``"""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        _fill(arr, 0)


@register
@alias("ones")
class One(Initializer):
    """Fill with 1. ``mx.init.One()``"""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        _fill(arr, 1)


@register
class Constant(Initializer):
    """Fill with a scalar or an array-like ``value``. ``mx.init.Constant(0.5)``"""

    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _init_weight(self, _, arr):
        value = self.value
        if isinstance(value, NDArray):
            value = value.asnumpy()
        if not np.isscalar(value):  # broadcast like ``arr[:] = value`` (ValueError if not)
            value = np.array(np.broadcast_to(np.asarray(value), arr.shape))
        _fill(arr, value)

    def dumps(self):
        val = self._kwargs["value"]
        if not np.isscalar(val):
            self._kwargs["value"] = (
                val.tolist() if isinstance(val, np.ndarray) else val.asnumpy().tolist()
            )
        return json.dumps([self.__class__.__name__.lower(), self._kwargs])


@register
class Uniform(Initializer):
    """Uniform on ``[-scale, scale]``. ``mx.init.Uniform(0.1)``"""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _init_weight(self, _, arr):
        _uniform(arr, -self.scale, self.scale)


@register
class Normal(Initializer):
    """Normal with mean 0 and standard deviation ``sigma``. ``mx.init.Normal(0.01)``"""

    def __init__(self, sigma=0.01):
        super().__init__(sigma=sigma)
        self.sigma = sigma

    def _init_weight(self, _, arr):
        _normal(arr, self.sigma)


@register
class Orthogonal(Initializer):
    """Scaled orthogonal matrix from the SVD of a random one. ``mx.init.Orthogonal()``"""

    def __init__(self, scale=1.414, rand_type="uniform"):
        super().__init__(scale=scale, rand_type=rand_type)
        self.scale = scale
        self.rand_type = rand_type

    def _init_weight(self, _, arr):
        nout = arr.shape[0]
        nin = int(np.prod(arr.shape[1:]))
        from . import _mxrng

        if self.rand_type == "uniform":  # MXNet: nd.random.uniform on the default context
            tmp = _mxrng.uniform(nout * nin, -1.0, 1.0, "float32").reshape(nout, nin)
        elif self.rand_type == "normal":
            tmp = _mxrng.normal(nout * nin, 0.0, 1.0, "float32").reshape(nout, nin)
        else:
            raise ValueError(f"Orthogonal: unknown rand_type '{self.rand_type}'")
        u, _, v = np.linalg.svd(tmp, full_matrices=False)
        res = u if u.shape == tmp.shape else v
        _fill(arr, self.scale * res.reshape(arr.shape))


@register
class Xavier(Initializer):
    """Xavier/Glorot: scale ``sqrt(magnitude / factor)`` where factor is the fan in, out or
    their average (``factor_type``); uniform or gaussian (``rnd_type``).

    Examples
    --------
    >>> init = mx.init.Xavier(rnd_type='gaussian', factor_type='in', magnitude=2)
    """

    def __init__(self, rnd_type="uniform", factor_type="avg", magnitude=3):
        super().__init__(rnd_type=rnd_type, factor_type=factor_type, magnitude=magnitude)
        self.rnd_type = rnd_type
        self.factor_type = factor_type
        self.magnitude = float(magnitude)

    def _init_weight(self, name, arr):
        shape = arr.shape
        if len(shape) < 2:
            raise ValueError(
                f"Xavier initializer cannot be applied to vector {name}. It requires at least 2D."
            )
        hw_scale = np.prod(shape[2:]) if len(shape) > 2 else 1.0
        fan_in, fan_out = shape[1] * hw_scale, shape[0] * hw_scale
        if self.factor_type == "avg":
            factor = (fan_in + fan_out) / 2.0
        elif self.factor_type == "in":
            factor = fan_in
        elif self.factor_type == "out":
            factor = fan_out
        else:
            raise ValueError("Incorrect factor type")
        scale = float(np.sqrt(self.magnitude / factor))
        if self.rnd_type == "uniform":
            _uniform(arr, -scale, scale)
        elif self.rnd_type == "gaussian":
            _normal(arr, scale)
        else:
            raise ValueError("Unknown random type")


@register
class MSRAPrelu(Xavier):
    """He/MSRA initialization for PReLU nets: gaussian Xavier with magnitude
    ``2 / (1 + slope**2)``. ``mx.init.MSRAPrelu(slope=0.25)``"""

    def __init__(self, factor_type="avg", slope=0.25):
        super().__init__("gaussian", factor_type, 2.0 / (1 + slope**2))
        self._kwargs = {"factor_type": factor_type, "slope": slope}


@register
class Bilinear(Initializer):
    """Bilinear-upsampling kernels for deconvolution weights. ``mx.init.Bilinear()``"""

    def __init__(self):
        super().__init__()

    def _init_weight(self, _, arr):
        _fill(arr, _bilinear(arr.shape))


@register
class LSTMBias(Initializer):
    """LSTM bias: zeros, with the forget-gate quarter set to ``forget_bias``.
    ``mx.init.LSTMBias(forget_bias=1.0)``"""

    def __init__(self, forget_bias=1.0):
        super().__init__(forget_bias=forget_bias)
        self.forget_bias = forget_bias

    def _init_weight(self, name, arr):
        h = int(arr.shape[0] / 4)
        value = np.zeros(arr.shape, dtype="float32")
        value[h : 2 * h] = self.forget_bias
        _fill(arr, value)


_GATES = {
    "rnn_relu": [""],
    "rnn_tanh": [""],
    "lstm": ["_i", "_f", "_c", "_o"],
    "gru": ["_r", "_z", "_o"],
}


def _fused_slices(total, num_hidden, num_layers, mode, bidirectional):
    """Names and (offset, shape) of every block of a fused RNN parameter vector."""
    gates = _GATES[mode]
    dirs = ["l", "r"] if bidirectional else ["l"]
    g, h, d = len(gates), num_hidden, len(dirs)
    rest = sum(d * g * h * (d * h + h + 2) for _ in range(num_layers - 1))
    in0 = (total - rest) // (d * g * h) - h - 2
    blocks, off = [], 0
    for layer in range(num_layers):
        nin = in0 if layer == 0 else d * h
        for dn in dirs:
            for kind, width in (("i2h", nin), ("h2h", h)):
                for gate in gates:
                    blocks.append((f"{dn}{layer}_{kind}{gate}_weight", off, (h, width)))
                    off += h * width
    for layer in range(num_layers):
        for dn in dirs:
            for kind in ("i2h", "h2h"):
                for gate in gates:
                    blocks.append((f"{dn}{layer}_{kind}{gate}_bias", off, (h,)))
                    off += h
    if off != total:
        raise ValueError(
            f"FusedRNN: a parameter vector of size {total} does not fit mode={mode},"
            f" num_hidden={h}, num_layers={num_layers}, bidirectional="
            f"{bidirectional}"
        )
    return blocks


@register
class FusedRNN(Initializer):
    """Initialize the flat parameter vector of a fused RNN layer block by block: weights
    with ``init`` (or the global initializer), biases with zeros and LSTM forget-gate biases
    with ``forget_bias``.

    Examples
    --------
    >>> init = mx.init.FusedRNN(mx.init.Xavier(), num_hidden=8, num_layers=1, mode='lstm')
    """

    def __init__(self, init, num_hidden, num_layers, mode, bidirectional=False, forget_bias=1.0):
        if isinstance(init, str):
            init = create(init)
        super().__init__(
            init=init.dumps() if init is not None else None,
            num_hidden=num_hidden,
            num_layers=num_layers,
            mode=mode,
            bidirectional=bidirectional,
            forget_bias=forget_bias,
        )
        self._init = init
        self._num_hidden = num_hidden
        self._num_layers = num_layers
        self._mode = mode
        self._bidirectional = bidirectional
        self._forget_bias = forget_bias

    def _init_weight(self, desc, arr):
        flat = arr._t.reshape(-1)
        blocks = _fused_slices(
            flat.numel(), self._num_hidden, self._num_layers, self._mode, self._bidirectional
        )
        global_init = getattr(desc, "global_init", None)
        for name, off, shape in blocks:
            n = int(np.prod(shape))
            part = NDArray._wrap(flat[off : off + n].reshape(shape), arr.context)
            sub = InitDesc(name, global_init=global_init)
            if self._mode == "lstm" and name.endswith("_f_bias"):
                _fill(part, self._forget_bias)
            elif self._init is None:
                global_init(sub, part)
            else:
                self._init(sub, part)
