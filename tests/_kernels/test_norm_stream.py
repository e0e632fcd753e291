"""Large BatchNorm outputs are written with streaming stores (mxnet/_kernels/norm.c): the
same bits as the cached-store loops that smaller calls run."""

import ctypes

import pytest
import torch

from mxnet import _kernels

lib = _kernels.library("norm")
pytestmark = pytest.mark.skipif(lib is None, reason="native kernels not built here")
P = ctypes.c_void_p
BIG = 1 << 20  # norm.c's NT_MIN


def _special(x):
    """Values at the relu's edge: zeros of both signs and NaN."""
    flat = x.view(-1) if x.is_contiguous() else x.permute(0, 2, 3, 1).reshape(-1)
    flat[:7] = torch.tensor([0.0, -0.0, float("nan"), 1e-30, -1e-30, 3.0, -3.0])
    return x


def _run(fn, outs, args_of, n, parts):
    """Call ``fn`` over the whole batch, then over ``parts`` slices of it (below the size
    of a streaming call) into a second output; both outputs must be bit-identical."""
    whole, sliced = outs
    fn(*args_of(slice(0, n), whole))
    step = n // parts
    for i in range(parts):
        fn(*args_of(slice(i * step, (i + 1) * step), sliced))
    assert torch.equal(whole.nan_to_num(7.0), sliced.nan_to_num(7.0))
    assert torch.equal(whole.isnan(), sliced.isnan())


@pytest.mark.parametrize("cl", [1, 0])
@pytest.mark.parametrize("relu", [0, 1])
def test_streaming_apply_and_grad_match_small_calls(cl, relu):
    n, c, h = 8, 64, 48  # 8*64*48*48 = 1.18M values: streaming; an eighth of it is not
    assert n * c * h * h >= BIG > n * c * h * h // 8
    g = torch.Generator().manual_seed(0)
    fmt = torch.channels_last if cl else torch.contiguous_format
    x = _special(torch.randn(n, c, h, h, generator=g).contiguous(memory_format=fmt))
    z = torch.randn(n, c, h, h, generator=g).contiguous(memory_format=fmt)
    dy = torch.randn(n, c, h, h, generator=g).contiguous(memory_format=fmt)
    a, b, A, B, D = (torch.randn(c, generator=g) for _ in range(5))
    s = h * h
    outs = lambda: (torch.empty_like(x), torch.empty_like(x))  # noqa: E731

    def ptr(t, sl):
        return P(t[sl].data_ptr())

    def apply_args(sl, out):
        k = sl.stop - sl.start
        return ptr(x, sl), ptr(out, sl), k, c, s, cl, P(a.data_ptr()), P(b.data_ptr()), relu, 1

    _run(lib.mxng_bn_apply, outs(), apply_args, n, 8)

    def add_args(sl, out):
        k = sl.stop - sl.start
        return (ptr(x, sl), ptr(z, sl), ptr(out, sl), k, c, s, cl, P(a.data_ptr()),
                P(b.data_ptr()), 1)

    _run(lib.mxng_bn_apply_add_relu, outs(), add_args, n, 8)

    def grad_args(sl, out):
        k = sl.stop - sl.start
        return (ptr(dy, sl), ptr(x, sl), ptr(out, sl), k, c, s, cl, P(A.data_ptr()),
                P(B.data_ptr()), P(D.data_ptr()), P(a.data_ptr()), P(b.data_ptr()), relu, 1)

    _run(lib.mxng_bn_grad_apply, outs(), grad_args, n, 8)


def test_streaming_relu_gradient_matches_small_calls():
    """dz of mxng_bn_grad_sums_relu_out (channels last): streamed when large, the same bits
    as sliced calls; its sums agree with a float64 computation."""
    n, c, h = 8, 64, 48
    g = torch.Generator().manual_seed(1)
    cl = torch.channels_last
    x = torch.randn(n, c, h, h, generator=g).contiguous(memory_format=cl)
    y = _special(torch.randn(n, c, h, h, generator=g).contiguous(memory_format=cl))
    dy = torch.randn(n, c, h, h, generator=g).contiguous(memory_format=cl)
    mean = torch.randn(c, generator=g)
    sums = [torch.empty(c, dtype=torch.float64) for _ in range(2)]

    def args(sl, out):
        k = sl.stop - sl.start
        return (P(dy[sl].data_ptr()), P(y[sl].data_ptr()), P(out[sl].data_ptr()),
                P(x[sl].data_ptr()), k, c, h * h, 1, P(mean.data_ptr()),
                P(sums[0].data_ptr()), P(sums[1].data_ptr()), 1)

    _run(lib.mxng_bn_grad_sums_relu_out, (torch.empty_like(x), torch.empty_like(x)), args,
         n, 8)
    dz = torch.empty_like(x)  # kept alive while the kernel writes it
    lib.mxng_bn_grad_sums_relu_out(*args(slice(0, n), dz))
    d = torch.where(y <= 0, torch.zeros_like(dy), dy).double()
    ref1 = d.sum(dim=(0, 2, 3))
    ref2 = (d * (x.double() - mean.double()[None, :, None, None])).sum(dim=(0, 2, 3))
    torch.testing.assert_close(sums[0], ref1, rtol=1e-5, atol=1e-3)
    torch.testing.assert_close(sums[1], ref2, rtol=1e-5, atol=1e-3)
