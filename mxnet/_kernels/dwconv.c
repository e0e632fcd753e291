/* Depthwise 2-D convolution (one filter per channel) of small channels-last float32 maps.
 *
 * Part of mxnet-ng (see mxnet/_kernels/__init__.py, which compiles this file once per
 * machine). MobileNet's depthwise layers on small inputs (CIFAR's 32x32: maps of 16x16
 * down to 2x2) are a few hundred thousand multiply-adds each, where PyTorch's oneDNN call
 * costs 0.2-0.8 ms of setup for microseconds of work. Here the loops run directly over
 * channels-last data: for each output pixel and kernel tap that meets the input, one
 * vector operation along the channels (the compiler vectorises the channel loops).
 *
 * Layouts: x [N, H, W, C], y and dy [N, Ho, Wo, C], dx like x, weights w and dw [KH, KW, C]
 * (tap-major: a tap's channel vector is contiguous). Output pixel (i, j) reads input pixel
 * (i*sh - ph + kh, j*sw - pw + kw); taps outside the input meet zero padding. Single-threaded
 * (the arrays this is used for are small), so every sum has one fixed order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Rows of the output are taken whole: for a tap (kh, kw) and output row i, the output pixels
 * j0..j1-1 whose input pixel exists form one run; at stride 1 their input pixels are a
 * contiguous run too, so both are flat arrays of (j1 - j0) * C floats, multiplied by the
 * tap's weights repeated along the row (wrow). Long flat loops vectorise well even for few
 * channels. Other strides go pixel by pixel. */

/* The valid output range [*j0, *j1) of tap kw: input pixel j*sw - pw + kw within [0, W). */
static void tap_range(int64_t kw, int64_t W, int64_t Wo, int64_t sw, int64_t pw, int64_t *j0,
                      int64_t *j1) {
    int64_t lo = pw - kw, a = lo <= 0 ? 0 : (lo + sw - 1) / sw;
    int64_t hi = W - 1 + pw - kw, b = hi < 0 ? -1 : hi / sw;
    *j0 = a;
    *j1 = b + 1 < Wo ? b + 1 : Wo;
    if (*j1 < *j0) *j1 = *j0;
}

/* wrow[t][j][c] = w[t][c] for every output column j (the weights repeated along a row). */
static float *repeat_taps(const float *w, int64_t T, int64_t Wo, int64_t C) {
    float *r = malloc(sizeof(float) * T * Wo * C);
    if (!r) return NULL;
    for (int64_t t = 0; t < T; ++t)
        for (int64_t j = 0; j < Wo; ++j) memcpy(r + (t * Wo + j) * C, w + t * C, sizeof(float) * C);
    return r;
}

/* y = depthwise_conv(x, w) (+ b[c] when b is not NULL). Returns 0, or -1 when out of
 * memory. */
int64_t mxng_dw_fwd(const float *x, const float *w, const float *b, float *y, int64_t N,
                    int64_t H, int64_t W, int64_t C, int64_t KH, int64_t KW, int64_t Ho,
                    int64_t Wo, int64_t sh, int64_t sw, int64_t ph, int64_t pw) {
    float *wrow = repeat_taps(w, KH * KW, Wo, C);
    if (!wrow) return -1;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t i = 0; i < Ho; ++i) {
            float *yr = y + (n * Ho + i) * Wo * C;
            for (int64_t j = 0; j < Wo; ++j) {
                if (b)
                    memcpy(yr + j * C, b, sizeof(float) * C);
                else
                    memset(yr + j * C, 0, sizeof(float) * C);
            }
            for (int64_t kh = 0; kh < KH; ++kh) {
                const int64_t ih = i * sh - ph + kh;
                if (ih < 0 || ih >= H) continue;
                const float *xrow = x + (n * H + ih) * W * C;
                for (int64_t kw = 0; kw < KW; ++kw) {
                    int64_t j0, j1;
                    tap_range(kw, W, Wo, sw, pw, &j0, &j1);
                    const float *wr = wrow + (kh * KW + kw) * Wo * C;
                    if (sw == 1) {
                        const float *xr = xrow + (j0 - pw + kw) * C;
                        float *o = yr + j0 * C;
                        for (int64_t k = 0; k < (j1 - j0) * C; ++k) o[k] += xr[k] * wr[k];
                        continue;
                    }
                    for (int64_t j = j0; j < j1; ++j) {
                        const float *xr = xrow + (j * sw - pw + kw) * C;
                        float *o = yr + j * C;
                        for (int64_t c = 0; c < C; ++c) o[c] += xr[c] * wr[c];
                    }
                }
            }
        }
    free(wrow);
    return 0;
}

/* Gradients for the output gradient dy: dx (overwritten; skipped when NULL) and dw
 * (overwritten). The weight gradient is summed per sample in float along whole rows, each
 * sample's sums added in double, rounded once at the end. Returns 0, or -1 when out of
 * memory. */
int64_t mxng_dw_bwd(const float *dy, const float *x, const float *w, float *dx, float *dw,
                    int64_t N, int64_t H, int64_t W, int64_t C, int64_t KH, int64_t KW,
                    int64_t Ho, int64_t Wo, int64_t sh, int64_t sw, int64_t ph, int64_t pw) {
    const int64_t T = KH * KW, L = Wo * C;
    float *wrow = repeat_taps(w, T, Wo, C), *part = malloc(sizeof(float) * T * L);
    double *acc = calloc((size_t)(T * C), sizeof(double));
    if (!wrow || !part || !acc) {
        free(wrow), free(part), free(acc);
        return -1;
    }
    if (dx) memset(dx, 0, sizeof(float) * N * H * W * C);
    for (int64_t n = 0; n < N; ++n) {
        memset(part, 0, sizeof(float) * T * L);
        for (int64_t i = 0; i < Ho; ++i) {
            const float *gr = dy + (n * Ho + i) * L;
            for (int64_t kh = 0; kh < KH; ++kh) {
                const int64_t ih = i * sh - ph + kh;
                if (ih < 0 || ih >= H) continue;
                const int64_t row = (n * H + ih) * W * C;
                for (int64_t kw = 0; kw < KW; ++kw) {
                    int64_t j0, j1;
                    tap_range(kw, W, Wo, sw, pw, &j0, &j1);
                    const int64_t t = kh * KW + kw;
                    const float *wr = wrow + t * L;
                    float *pr = part + t * L;
                    if (sw == 1) {
                        const int64_t at = row + (j0 - pw + kw) * C, m = (j1 - j0) * C;
                        const float *xr = x + at, *g = gr + j0 * C;
                        float *p = pr + j0 * C;
                        for (int64_t k = 0; k < m; ++k) p[k] += g[k] * xr[k];
                        if (dx) {
                            float *d = dx + at;
                            for (int64_t k = 0; k < m; ++k) d[k] += g[k] * wr[k];
                        }
                        continue;
                    }
                    for (int64_t j = j0; j < j1; ++j) {
                        const int64_t at = row + (j * sw - pw + kw) * C;
                        const float *xr = x + at, *g = gr + j * C;
                        float *p = pr + j * C;
                        for (int64_t c = 0; c < C; ++c) p[c] += g[c] * xr[c];
                        if (dx) {
                            float *d = dx + at;
                            for (int64_t c = 0; c < C; ++c) d[c] += g[c] * wr[c];
                        }
                    }
                }
            }
        }
        for (int64_t t = 0; t < T; ++t)
            for (int64_t j = 0; j < Wo; ++j) {
                const float *p = part + t * L + j * C;
                double *a = acc + t * C;
                for (int64_t c = 0; c < C; ++c) a[c] += p[c];
            }
    }
    for (int64_t k = 0; k < T * C; ++k) dw[k] = (float)acc[k];
    free(wrow), free(part), free(acc);
    return 0;
}
