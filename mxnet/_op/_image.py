"""Image operators (``mx.nd.image.*``: ``_image_to_tensor``, ``_image_normalize``...).

Imports only the registry at module level, so it can be imported (or moved) next to the other
operator modules in ``mxnet/_op``. Registered in the operator registry; they work on HWC/NHWC images (``to_tensor``, ``resize``,
``crop``, flips, colour jitter, lighting) or CHW/NCHW tensors (``normalize``).
"""
from __future__ import annotations

import functools

import numpy as np
import torch

from ..base import MXNetError
from ._params import Param
from ._registry import OpDef, has_op, register

_GRAY = (0.299, 0.587, 0.114)
_EIGVAL = (55.46, 4.794, 1.148)
_EIGVEC = ((-0.5675, 0.7192, 0.4009), (-0.5808, -0.0045, -0.8140), (-0.5836, -0.6948, 0.4203))


def _err(op: str, msg: str) -> MXNetError:
    return MXNetError('Error in operator _image_%s: %s' % (op, msg))


def _check_hwc(op: str, x: torch.Tensor) -> None:
    if x.dim() not in (3, 4):
        if op == 'resize':
            raise _err(op, 'Input image dimension should be 3 or 4 but got %d' % x.dim())
        raise _err(op, 'Input image must have shape (height, width, channels), or '
                   '(N, height, width, channels) but got [%s]'
                   % ','.join(str(int(d)) for d in x.shape))


def _to_tensor(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_hwc('to_tensor', x)
    perm = (2, 0, 1) if x.dim() == 3 else (0, 3, 1, 2)
    if x.device.type == 'cpu' and not x.requires_grad:
        # one NumPy pass (much cheaper than several torch ops on small images)
        src = x.numpy().transpose(perm)
        # a C-ordered result (a ufunc would keep the transposed strides, and every later
        # operator would then walk a strided array)
        out = np.empty(src.shape, dtype=np.float32)
        np.divide(src, np.float32(255.0), out=out, dtype=np.float32)
        return torch.from_numpy(out)
    return (x.permute(*perm).to(torch.float32) / 255.0).contiguous()


@functools.lru_cache(maxsize=256)
def _shape_str(shape) -> str:
    return '[%s]' % ','.join(str(int(d)) for d in shape)


def _channel_stats(mean: tuple, std: tuple, c: int, shape) -> tuple[np.ndarray, np.ndarray]:
    # MXNet 1.9.1 takes one value for every channel or exactly one per channel; its default
    # (0, 0, 0, 0) is therefore rejected for 1- and 3-channel inputs
    out = []
    for name, vals in (('mean', mean), ('std', std)):
        vals = tuple(vals) if vals is not None else ()
        if len(vals) not in (1, c):
            raise _err('normalize', 'Invalid %s for input with shape %s. %s must have either 1 '
                       'or %d elements, but got [%s]' % (name, _shape_str(shape), name, c,
                                                         ','.join('%g' % v for v in vals)))
        if len(vals) == 1:
            vals = vals * c
        out.append(np.array(vals, dtype=np.float32).reshape(c, 1, 1))
    return out[0], out[1]


def _normalize(a: dict, x: torch.Tensor) -> torch.Tensor:
    if x.dim() not in (3, 4):
        raise _err('normalize', 'Input tensor must have shape (channels, height, width), or '
                   '(N, channels, height, width), but got %s' % _shape_str(x.shape))
    c = x.shape[-3]
    if c not in (1, 3):
        raise _err('normalize', 'The first dimension of input tensor must be the channel '
                   'dimension with either 1 or 3 elements, but got input with shape %s'
                   % _shape_str(x.shape))
    mean, std = _channel_stats(tuple(a['mean']), tuple(a['std']), c, x.shape)
    if x.device.type == 'cpu' and not x.requires_grad and x.dtype == torch.float32:
        out = np.subtract(x.numpy(), mean)
        np.divide(out, std, out=out)
        return torch.from_numpy(out)
    tm, ts = torch.from_numpy(mean).to(x.device), torch.from_numpy(std).to(x.device)
    return ((x.to(torch.float32) - tm) / ts).to(x.dtype)


def _resize_hw(op: str, h: int, w: int, size: tuple, keep_ratio: bool) -> tuple[int, int]:
    if len(size) == 1:
        s = size[0]
        if not keep_ratio:
            return s, s
        if h > w:
            return h * s // w, s
        return s, w * s // h
    if len(size) == 2:
        return size[1], size[0]
    raise _err(op, 'Input size dimension must be 1 or 2, but got %d' % len(size))


def _cv_apply(x: torch.Tensor, fn) -> torch.Tensor:
    """Run ``fn`` (NumPy HWC -> HWC) on an HWC or NHWC tensor."""
    arr = x.detach().cpu().numpy()
    if arr.ndim == 3:
        out = fn(arr)
        if out.ndim == 2:
            out = out[:, :, None]
        return torch.from_numpy(np.ascontiguousarray(out)).to(x.device)
    outs = []
    for img in arr:
        o = fn(img)
        outs.append(o[:, :, None] if o.ndim == 2 else o)
    return torch.from_numpy(np.ascontiguousarray(np.stack(outs))).to(x.device)


def _resize(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_hwc('resize', x)
    h, w = x.shape[-3], x.shape[-2]
    nh, nw = _resize_hw('resize', h, w, tuple(a['size']), a['keep_ratio'])
    if nh <= 0 or nw <= 0:
        raise _err('resize', 'output size (%d, %d) must be positive' % (nw, nh))
    interp = a['interp']
    if interp not in (0, 1, 2, 3, 4, 5):
        raise _err('resize', "OpenCV(3.4.2) resize.cpp:3919: error: (-5:Bad argument) Unknown "
                   "interpolation method in function 'resize' (interp=%d)" % interp)
    from ..image import _cv  # lazy: this module must import with the registry alone
    return _cv_apply(x, lambda img: _cv.resize(img, nw, nh, interp))


def _crop(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_hwc('crop', x)
    h, w = x.shape[-3], x.shape[-2]
    x0, y0, cw, ch = a['x'], a['y'], a['width'], a['height']
    # MXNet 1.9.1's checks and messages, in its order
    if ch <= 0 or cw <= 0:
        raise _err('crop', 'Input height and width must be greater than 0')
    if x0 + cw > w:
        raise _err('crop', 'x + width should not be greater than input width')
    if y0 + ch > h:
        raise _err('crop', 'y + height should not be greater than input height')
    if x0 < 0 or y0 < 0:
        raise _err('crop', 'crop (x=%d, y=%d, width=%d, height=%d) starts outside the %dx%d '
                   'image' % (x0, y0, cw, ch, w, h))
    return x[..., y0:y0 + ch, x0:x0 + cw, :].contiguous()


def _flip(axis_from_end: int):
    def run(a: dict, x: torch.Tensor) -> torch.Tensor:
        _check_hwc('flip', x)
        return torch.flip(x, dims=(x.dim() - axis_from_end,))
    return run


def _random_flip(axis_from_end: int):
    def run(a: dict, x: torch.Tensor) -> torch.Tensor:
        _check_hwc('random_flip', x)
        d = _stream_raw(2)  # MXNet: a double uniform from the two draws, flip when >= 0.5
        if (float(d[0]) + float(d[1]) * 4294967296.0) / 18446744073709551616.0 >= 0.5:
            return torch.flip(x, dims=(x.dim() - axis_from_end,))
        return x.clone()
    return run


def _saturate(out: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    # MXNet 1.9.1's colour kernels clamp, then cast toward zero (180.7 -> 180, not 181)
    if not like.dtype.is_floating_point:
        info = torch.iinfo(like.dtype)
        out = out.clamp(info.min, info.max).trunc()
    return out.to(like.dtype)


def _gray(xf: torch.Tensor) -> torch.Tensor:
    coef = torch.tensor(_GRAY, dtype=torch.float32, device=xf.device)
    return (xf[..., :3] * coef).sum(-1, keepdim=True)


def adjust_brightness(x: torch.Tensor, alpha: float) -> torch.Tensor:
    """Scale every pixel by ``alpha``."""
    return _saturate(x.to(torch.float32) * alpha, x)


def adjust_contrast(x: torch.Tensor, alpha: float) -> torch.Tensor:
    """Blend with the mean gray level of the image.

    As MXNet 1.9.1's kernel: the luma of each pixel summed in float, in pixel order (the
    rounding of that sum decides some uint8 results), and ``(1 - alpha)`` in float.
    """
    xf = x.to(torch.float32)
    arr = xf.detach().cpu().numpy()
    if arr.shape[-1] == 1:
        gray = arr[..., 0]
    else:
        c = [np.float32(v) for v in _GRAY]
        gray = arr[..., 0] * c[0] + arr[..., 1] * c[1] + arr[..., 2] * c[2]
    flat = gray.reshape(gray.shape[:-2] + (-1,))
    total = np.cumsum(flat, axis=-1, dtype=np.float32)[..., -1]  # sequential float sum
    mean = total / np.float32(flat.shape[-1])
    a32 = np.float32(alpha)
    beta = torch.from_numpy(np.asarray((np.float32(1) - a32) * mean, np.float32)).to(xf.device)
    return _saturate(xf * float(a32) + beta.reshape(beta.shape + (1, 1, 1)), x)


def _gray_or_rgb(op: str, x: torch.Tensor) -> bool:
    """MXNet 1.9.1's saturation and hue kernels take 1 or 3 channels; True for one."""
    c = x.shape[-1]
    if c not in (1, 3):
        raise _err(op, 'The last dimension of input image must be the channel dimension with '
                   'either 1 or 3 elements, but got input with shape [%s]'
                   % ','.join(str(int(d)) for d in x.shape))
    return c == 1


def adjust_saturation(x: torch.Tensor, alpha: float) -> torch.Tensor:
    """Blend with a per-pixel "gray" level.

    MXNet 1.9.1's kernel keeps only the last term of its gray sum, ``0.114 * B``, as the
    gray level (not the luma ``0.299 R + 0.587 G + 0.114 B``); the same is done here.
    """
    if _gray_or_rgb('random_saturation', x):
        return x.clone()  # a one-channel image is left as it is
    xf = x.to(torch.float32)
    gray = xf[..., 2:3] * _GRAY[2]
    a32 = np.float32(alpha)
    return _saturate(xf * float(a32) + gray * float(np.float32(1) - a32), x)


# (b, g, r) picks from (p2, p1, falling, rising) in each 60-degree hue sector
_HLS_SECTORS = ((1, 3, 0), (1, 0, 2), (3, 0, 1), (0, 2, 1), (0, 1, 3), (2, 1, 0))


def _rgb_to_hls(r: torch.Tensor, g: torch.Tensor, b: torch.Tensor):
    """RGB in [0, 1] to (hue in degrees [0, 360), lightness, saturation), as OpenCV."""
    vmax = torch.maximum(torch.maximum(r, g), b)
    vmin = torch.minimum(torch.minimum(r, g), b)
    diff = vmax - vmin
    light = (vmax + vmin) * 0.5
    chroma = diff > torch.finfo(torch.float32).eps
    safe = torch.where(chroma, diff, torch.ones_like(diff))
    sat = torch.where(light < 0.5, diff / torch.where(chroma, vmax + vmin, safe),
                      diff / torch.where(chroma, 2.0 - vmax - vmin, safe))
    scale = torch.full_like(safe, 60.0) / safe  # a true division (60 / t is t**-1 * 60)
    hue = torch.where(vmax == r, (g - b) * scale,
                      torch.where(vmax == g, (b - r) * scale + 120.0, (r - g) * scale + 240.0))
    hue = torch.where(hue < 0, hue + 360.0, hue)
    zero = torch.zeros_like(hue)
    return torch.where(chroma, hue, zero), light, torch.where(chroma, sat, zero)


def _hls_to_rgb(hue: torch.Tensor, light: torch.Tensor, sat: torch.Tensor):
    """Inverse of :func:`_rgb_to_hls`; returns (r, g, b) in [0, 1]."""
    p2 = torch.where(light <= 0.5, light * (1 + sat), light + sat - light * sat)
    p1 = 2 * light - p2
    h = torch.remainder(hue * float(np.float32(1.0) / np.float32(60.0)), 6.0)  # h *= 1.f/60.f
    sector = h.floor().clamp(0, 5).long()
    frac = h - sector
    tab = torch.stack([p2, p1, p1 + (p2 - p1) * (1 - frac), p1 + (p2 - p1) * frac], -1)
    idx = torch.tensor(_HLS_SECTORS, device=hue.device)[sector]  # (..., 3) as (b, g, r)
    bgr = torch.gather(tab, -1, idx)
    gray = sat == 0
    b, g, r = (torch.where(gray, light, bgr[..., k]) for k in range(3))
    return r, g, b


def adjust_hue(x: torch.Tensor, alpha: float) -> torch.Tensor:
    """Rotate the hue by ``alpha`` turns in HLS space (MXNet 1.9.1's kernel: lightness and
    saturation are kept; results are scaled back to [0, 255] and cast toward zero)."""
    if _gray_or_rgb('random_hue', x):
        return x.clone()  # no hue to turn (MXNet leaves such an output unwritten)
    xf = x.to(torch.float32)
    rgb = xf[..., :3] / torch.full_like(xf[..., :3], 255.0)
    hue, light, sat = _rgb_to_hls(rgb[..., 0], rgb[..., 1], rgb[..., 2])
    turn = float(np.float32(alpha) * np.float32(360.0))  # float arithmetic, as the kernel
    r, g, b = _hls_to_rgb(hue + turn, light, sat)
    out = xf.clone()
    out[..., :3] = torch.stack([r, g, b], -1) * 255.0
    return _saturate(out, x)


def adjust_lighting(x: torch.Tensor, alpha) -> torch.Tensor:
    """Add AlexNet's PCA lighting noise ``eigvec @ (alpha * eigval)`` to the RGB channels."""
    if x.shape[-1] == 1:
        return x.clone()  # no RGB channels (MXNet leaves such an output unwritten)
    vec = torch.tensor(_EIGVEC, dtype=torch.float32)
    rgb = (vec @ (torch.tensor(tuple(alpha), dtype=torch.float32)
                  * torch.tensor(_EIGVAL, dtype=torch.float32))).to(x.device)
    xf = x.to(torch.float32)
    out = xf.clone()
    out[..., :3] = xf[..., :3] + rgb
    return _saturate(out, x)


# MXNet 1.9.1's random image operators draw from its CPU "kRandom" engine: one std::mt19937
# seeded with 127 * seed by mx.random.seed, the engine mx.np.random's samplers read too
# (mxnet._mxrng keeps it). Draws follow libstdc++: uniform_real_distribution<float> takes one
# 32-bit draw, a double canonical two, uniform_int_distribution the division method.
def _stream_raw(n: int) -> np.ndarray:
    """``n`` raw 32-bit draws of the engine (torch's generator when MXNET_NG_TORCH_RNG=1)."""
    from .. import _mxrng

    if not _mxrng.ENABLED:
        return torch.randint(0, 2 ** 32, (n,), dtype=torch.int64).numpy().astype(np.uint32)
    with _mxrng._LOCK:
        return _mxrng._engines(1).take([n])[0]


def _uniform(lo: float, hi: float) -> float:
    """``std::uniform_real_distribution<float>(lo, hi)`` on the engine (float arithmetic)."""
    u = np.float32(_stream_raw(1)[0]) / np.float32(4294967296.0)
    if u >= 1:
        u = np.nextafter(np.float32(1), np.float32(0))
    lo32, hi32 = np.float32(lo), np.float32(hi)
    return float(u * (hi32 - lo32) + lo32)


def _randint(high: int) -> int:
    """``std::uniform_int_distribution(0, high)`` on the engine (libstdc++'s division method)."""
    span = high + 1
    scaling = 0xFFFFFFFF // span
    past = span * scaling
    while True:
        r = int(_stream_raw(1)[0])
        if r < past:
            return r // scaling


def _rand_jitter(fn):
    def run(a: dict, x: torch.Tensor) -> torch.Tensor:
        _check_hwc('random', x)
        return fn(x, _uniform(a['min_factor'], a['max_factor']))
    return run


def _color_jitter(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_hwc('random_color_jitter', x)
    # MXNet: std::shuffle of the four steps, then one draw per step whose jitter is > 0;
    # brightness/contrast/saturation scale by 1 + U(-v, v), hue turns by U(-hue, hue)
    order = [0, 1, 2, 3]
    for i in range(1, 4):
        j = _randint(i)
        order[i], order[j] = order[j], order[i]
    steps = ((adjust_brightness, a['brightness']), (adjust_contrast, a['contrast']),
             (adjust_saturation, a['saturation']), (adjust_hue, a['hue']))
    out = x.clone()
    for i in order:
        fn, v = steps[i]
        if v > 0:
            r = _uniform(-v, v)
            out = fn(out, r if fn is adjust_hue else float(np.float32(1.0 + r)))
    return out


def _adjust_lighting_op(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_hwc('adjust_lighting', x)
    return adjust_lighting(x, a['alpha'])


def _random_lighting(a: dict, x: torch.Tensor) -> torch.Tensor:
    _check_hwc('random_lighting', x)
    from .. import _mxrng

    if _mxrng.ENABLED:  # one normal_distribution<float> object: both values of a polar pair
        alpha = _mxrng.np_normal01(3) * np.float32(a['alpha_std'])
    else:
        alpha = (torch.randn(3, dtype=torch.float64) * a['alpha_std']).numpy()
    return adjust_lighting(x, alpha)


def _factor_params() -> list:
    return [Param('min_factor', 'float', doc='Minimum factor.'),
            Param('max_factor', 'float', doc='Maximum factor.')]


_OPS = [
    OpDef('_image_to_tensor', _to_tensor,
          doc='Convert an HWC/NHWC image in [0, 255] to a CHW/NCHW float32 tensor in [0, 1].'),
    OpDef('_image_normalize', _normalize,
          params=[Param('mean', 'float_seq', (0.0, 0.0, 0.0, 0.0), doc='Channel means.'),
                  Param('std', 'float_seq', (1.0, 1.0, 1.0, 1.0), doc='Channel stds.')],
          doc='Normalize a CHW/NCHW tensor: (x - mean[c]) / std[c].'),
    OpDef('_image_resize', _resize,
          params=[Param('size', 'shape', (), doc='(width, height) or a single size.'),
                  Param('keep_ratio', 'bool', False, doc='Keep the aspect ratio.'),
                  Param('interp', 'int', 1, doc='OpenCV interpolation code.')],
          doc='Resize an HWC/NHWC image with OpenCV.'),
    OpDef('_image_crop', _crop,
          params=[Param('x', 'int'), Param('y', 'int'), Param('width', 'int'),
                  Param('height', 'int')],
          doc='Crop an HWC/NHWC image to the box (x, y, width, height).'),
    OpDef('_image_flip_left_right', _flip(2), doc='Flip an HWC image horizontally.'),
    OpDef('_image_random_flip_left_right', _random_flip(2),
          doc='Flip horizontally with probability 0.5.'),
    OpDef('_image_flip_top_bottom', _flip(3), doc='Flip an HWC image vertically.'),
    OpDef('_image_random_flip_top_bottom', _random_flip(3),
          doc='Flip vertically with probability 0.5.'),
    OpDef('_image_random_brightness', _rand_jitter(adjust_brightness), params=_factor_params(),
          doc='Scale brightness by a factor drawn from [min_factor, max_factor].'),
    OpDef('_image_random_contrast', _rand_jitter(adjust_contrast), params=_factor_params(),
          doc='Jitter contrast by a factor drawn from [min_factor, max_factor].'),
    OpDef('_image_random_saturation', _rand_jitter(adjust_saturation), params=_factor_params(),
          doc='Jitter saturation by a factor drawn from [min_factor, max_factor].'),
    OpDef('_image_random_hue', _rand_jitter(adjust_hue), params=_factor_params(),
          doc='Rotate the hue by factor turns (factor 1 keeps it), factor drawn from '
              '[min, max].'),
    OpDef('_image_random_color_jitter', _color_jitter,
          params=[Param('brightness', 'float'), Param('contrast', 'float'),
                  Param('saturation', 'float'), Param('hue', 'float')],
          doc='Jitter brightness, contrast, saturation and hue in random order.'),
    OpDef('_image_adjust_lighting', _adjust_lighting_op,
          params=[Param('alpha', 'float_seq', doc='PCA weights of the 3 eigenvectors.')],
          doc='Add AlexNet-style PCA lighting with the given weights.'),
    OpDef('_image_random_lighting', _random_lighting,
          params=[Param('alpha_std', 'float', 0.05, doc='Std of the PCA weights.')],
          doc='Add AlexNet-style PCA lighting noise.'),
]

_SAME_SHAPE = {"_image_flip_left_right", "_image_random_flip_left_right",
               "_image_flip_top_bottom", "_image_random_flip_top_bottom",
               "_image_random_brightness", "_image_random_contrast", "_image_random_saturation",
               "_image_random_hue", "_image_random_color_jitter", "_image_adjust_lighting",
               "_image_random_lighting", "_image_normalize"}

def _resize_shape(a: dict, s: list) -> list:
    """Output shape of ``_image_resize`` (its OpenCV kernel cannot run on meta tensors)."""
    shape = tuple(s[0])
    if len(shape) not in (3, 4):
        raise _err('resize', 'expects an image of shape (H, W, C) or (N, H, W, C), got %s'
                   % (shape,))
    nh, nw = _resize_hw('resize', shape[-3], shape[-2], tuple(a['size']), a['keep_ratio'])
    return [shape[:-3] + (nh, nw, shape[-1])]


for _op in _OPS:
    if _op.name == '_image_resize':
        _op.infer_out_fn = _resize_shape
    if _op.name in _SAME_SHAPE:
        _op.infer_out_fn = lambda a, s: [s[0]]  # kernels draw on the host: no meta tracing
    if not has_op(_op.name):
        register(_op)


_FN_CACHE: dict = {}


def image_op(F, name: str):
    """The ``F.image.<name>`` function for ``F`` = ``mx.nd`` or ``mx.sym``."""
    key = (F.__name__, name)
    fn = _FN_CACHE.get(key)
    if fn is None:
        ns = getattr(F, 'image', None)
        fn = getattr(ns, name, None) if ns is not None else None
        if fn is None:
            import importlib
            mod = importlib.import_module(F.__name__ + '._namespace')
            fn = mod.function_for('_image_' + name)
        _FN_CACHE[key] = fn
    return fn
