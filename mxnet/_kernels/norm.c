/* Training-mode batch normalization of float32 CPU data, with an optional fused relu.
 *
 * Part of mxnet-ng (see mxnet/_kernels/__init__.py, which compiles this file once per
 * machine). Two layouts of an array with N samples, C channels and S positions per channel:
 *   cl = 1: channels last, x[m][c] with m < N*S (NHWC, NWC, or (N, C) with S = 1);
 *   cl = 0: channels first, x[n][c][s] (NCHW, NCW).
 * Forward:  y = x * a[c] + b[c] (then max(., 0) when relu), a = gamma * invstd,
 *           b = beta - mean * a.
 * Backward: dyr = dy masked where the forward relu was not positive (the mask is recomputed
 *           from x, a and b with the same fused multiply-add), then
 *           dx = dyr * A[c] + x * B[c] + D[c] from the per-channel sums of dyr and
 *           dyr * (x - mean).
 * Every multiply-add is an explicit fmaf (built with -ffp-contract=off), so the relu and
 * plain variants round alike. Sums are taken over blocks of a few hundred values in float and added up in double; the
 * statistics are shifted by the first value of each channel, so that a large mean does
 * not cancel the variance.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define ROWS 256

static inline float affine(float x, float a, float b) { return fmaf(x, a, b); }

/* ---- channels last -------------------------------------------------------------- */

/* Sums over rows m0..m1 of channels c0..c0+cn into f1, f2 (see sums_cl): whole rows at a
 * time, in memory order (the accumulators stay in L1). */
static inline void chunk_cl(const float *x, const float *dy, int64_t C, int64_t c0, int64_t cn,
                            int64_t m0, int64_t m1, const float *shift, const float *a,
                            const float *b, int relu, const float *ym, float *dz, float *f1,
                            float *f2) {
    for (int64_t m = m0; m < m1; ++m) {
        const float *r = x + m * C + c0;
        const float *k = shift + c0;
        if (dy == NULL) { /* statistics of x */
#pragma omp simd
            for (int64_t l = 0; l < cn; ++l) {
                float d = r[l] - k[l];
                f1[l] += d;
                f2[l] = fmaf(d, d, f2[l]);
            }
        } else if (ym != NULL) { /* dyr = dy where the output ym is positive, kept in dz */
            const float *g = dy + m * C + c0, *q = ym + m * C + c0;
            float *o = dz + m * C + c0;
#pragma omp simd
            for (int64_t l = 0; l < cn; ++l) {
                float d = q[l] <= 0.f ? 0.f : g[l];
                o[l] = d;
                f1[l] += d;
                f2[l] = fmaf(d, r[l] - k[l], f2[l]);
            }
        } else { /* sums of dyr and dyr * (x - mean) */
            const float *g = dy + m * C + c0;
#pragma omp simd
            for (int64_t l = 0; l < cn; ++l) {
                float d = (relu && !(affine(r[l], a[c0 + l], b[c0 + l]) > 0.f)) ? 0.f : g[l];
                f1[l] += d;
                f2[l] = fmaf(d, r[l] - k[l], f2[l]);
            }
        }
    }
}

static void sums_cl(const float *x, const float *dy, int64_t M, int64_t C, const float *shift,
                    const float *a, const float *b, int relu, const float *ym, float *dz,
                    double *s1, double *s2, int nthr) {
    memset(s1, 0, C * sizeof(double));
    memset(s2, 0, C * sizeof(double));
    double *part = calloc((size_t)2 * C * nthr, sizeof(double));
#pragma omp parallel num_threads(nthr) if (nthr > 1)
    {
#ifdef _OPENMP
        double *l1 = part + (size_t)2 * C * omp_get_thread_num();
#else
        double *l1 = part;
#endif
        double *l2 = l1 + C;
        float *acc = malloc(2 * C * sizeof(float));
        int64_t nb = (M + ROWS - 1) / ROWS;
#pragma omp for schedule(static)
        for (int64_t blk = 0; blk < nb; ++blk) {
            int64_t m0 = blk * ROWS, m1 = m0 + ROWS < M ? m0 + ROWS : M;
            float *f1 = acc, *f2 = acc + C;
            memset(acc, 0, 2 * C * sizeof(float));
            chunk_cl(x, dy, C, 0, C, m0, m1, shift, a, b, relu, ym, dz, f1, f2);
            for (int64_t c = 0; c < C; ++c) {
                l1[c] += f1[c];
                l2[c] += f2[c];
            }
        }
        free(acc);
    }
    for (int t = 0; t < nthr; ++t) /* in thread order: the same sums on every run */
        for (int64_t c = 0; c < C; ++c) {
            s1[c] += part[(size_t)2 * C * t + c];
            s2[c] += part[(size_t)2 * C * t + C + c];
        }
    free(part);
}

/* ---- channels first --------------------------------------------------------------- */

#define LANES 16

/* One channel's sums over n values in LANES fixed accumulators (the same order of
 * additions whatever the loop variant the compiler makes of it): of v - k and its square
 * (g == NULL), else of dyr and dyr * (v - k). */
static inline void lane_sums(const float *r, const float *g, int64_t n, float k, float ac,
                             float bc, int relu, const float *q, float *o, double *t1,
                             double *t2) {
    float u1[LANES] = {0}, u2[LANES] = {0};
    int64_t s = 0;
    if (q != NULL) { /* dyr = g where the output q is positive, kept in o */
        for (; s + LANES <= n; s += LANES)
            for (int l = 0; l < LANES; ++l) {
                float d = q[s + l] <= 0.f ? 0.f : g[s + l];
                o[s + l] = d;
                u1[l] += d;
                u2[l] = fmaf(d, r[s + l] - k, u2[l]);
            }
        for (; s < n; ++s) {
            float d = q[s] <= 0.f ? 0.f : g[s];
            o[s] = d;
            u1[0] += d;
            u2[0] = fmaf(d, r[s] - k, u2[0]);
        }
    } else if (g == NULL) {
        for (; s + LANES <= n; s += LANES)
            for (int l = 0; l < LANES; ++l) {
                float d = r[s + l] - k;
                u1[l] += d;
                u2[l] = fmaf(d, d, u2[l]);
            }
        for (; s < n; ++s) {
            float d = r[s] - k;
            u1[0] += d;
            u2[0] = fmaf(d, d, u2[0]);
        }
    } else {
        for (; s + LANES <= n; s += LANES)
            for (int l = 0; l < LANES; ++l) {
                float v = r[s + l];
                float d = (relu && !(affine(v, ac, bc) > 0.f)) ? 0.f : g[s + l];
                u1[l] += d;
                u2[l] = fmaf(d, v - k, u2[l]);
            }
        for (; s < n; ++s) {
            float v = r[s];
            float d = (relu && !(affine(v, ac, bc) > 0.f)) ? 0.f : g[s];
            u1[0] += d;
            u2[0] = fmaf(d, v - k, u2[0]);
        }
    }
    double v1 = 0, v2 = 0;
    for (int l = 0; l < LANES; ++l) {
        v1 += u1[l];
        v2 += u2[l];
    }
    *t1 += v1;
    *t2 += v2;
}

static void sums_cf(const float *x, const float *dy, int64_t N, int64_t C, int64_t S,
                    const float *shift, const float *a, const float *b, int relu,
                    const float *ym, float *dz, double *s1, double *s2, int nthr) {
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
    for (int64_t c = 0; c < C; ++c) {
        double t1 = 0, t2 = 0;
        const float k = shift[c], ac = a ? a[c] : 0.f, bc = b ? b[c] : 0.f;
        for (int64_t n = 0; n < N; ++n) {
            const float *r = x + (n * C + c) * S;
            const int64_t at = (n * C + c) * S;
            const float *g = dy ? dy + at : NULL, *q = ym ? ym + at : NULL;
            float *o = dz ? dz + at : NULL;
            for (int64_t s0 = 0; s0 < S; s0 += 1024)
                lane_sums(r + s0, g ? g + s0 : NULL, (S - s0 < 1024 ? S - s0 : 1024), k, ac, bc,
                          relu, q ? q + s0 : NULL, o ? o + s0 : NULL, &t1, &t2);
        }
        s1[c] = t1;
        s2[c] = t2;
    }
}

/* ---- entry points ------------------------------------------------------------------- */

/* Batch mean and biased variance of each channel (double). */
void mxng_bn_stats(const float *x, int64_t N, int64_t C, int64_t S, int cl, double *mean,
                   double *var, int nthr) {
    int64_t M = N * S;
    float *shift = malloc(C * sizeof(float));
    for (int64_t c = 0; c < C; ++c) shift[c] = cl ? x[c] : x[c * S];
    if (cl)
        sums_cl(x, NULL, M, C, shift, NULL, NULL, 0, NULL, NULL, mean, var, nthr);
    else
        sums_cf(x, NULL, N, C, S, shift, NULL, NULL, 0, NULL, NULL, mean, var, nthr);
    for (int64_t c = 0; c < C; ++c) {
        double m = mean[c] / (double)M;
        double v = var[c] / (double)M - m * m;
        mean[c] = m + shift[c];
        var[c] = v > 0 ? v : 0;
    }
    free(shift);
}

/* y = x * a + b, then relu. */
void mxng_bn_apply(const float *x, float *y, int64_t N, int64_t C, int64_t S, int cl,
                   const float *a, const float *b, int relu, int nthr) {
    if (cl) {
        int64_t M = N * S;
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
        for (int64_t m = 0; m < M; ++m) {
            const float *r = x + m * C;
            float *o = y + m * C;
            if (relu) {
#pragma omp simd
                for (int64_t c = 0; c < C; ++c) {
                    float v = affine(r[c], a[c], b[c]);
                    o[c] = v > 0.f ? v : 0.f;
                }
            } else {
#pragma omp simd
                for (int64_t c = 0; c < C; ++c) o[c] = affine(r[c], a[c], b[c]);
            }
        }
    } else {
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
        for (int64_t nc = 0; nc < N * C; ++nc) {
            const float *r = x + nc * S;
            float *o = y + nc * S;
            const float ac = a[nc % C], bc = b[nc % C];
            if (relu) {
#pragma omp simd
                for (int64_t s = 0; s < S; ++s) {
                    float v = affine(r[s], ac, bc);
                    o[s] = v > 0.f ? v : 0.f;
                }
            } else {
#pragma omp simd
                for (int64_t s = 0; s < S; ++s) o[s] = affine(r[s], ac, bc);
            }
        }
    }
}

/* Per-channel sums of dyr and dyr * (x - mean) (double). */
void mxng_bn_grad_sums(const float *dy, const float *x, int64_t N, int64_t C, int64_t S,
                       int cl, const float *mean, const float *a, const float *b, int relu,
                       double *sdy, double *sdyx, int nthr) {
    if (cl)
        sums_cl(x, dy, N * S, C, mean, a, b, relu, NULL, NULL, sdy, sdyx, nthr);
    else
        sums_cf(x, dy, N, C, S, mean, a, b, relu, NULL, NULL, sdy, sdyx, nthr);
}

/* The same sums for dyr = dy where y > 0, 0 elsewhere (the gradient through a relu whose
 * output was y, as torch's threshold_backward), with dyr written to dz. */
void mxng_bn_grad_sums_relu_out(const float *dy, const float *y, float *dz, const float *x,
                                int64_t N, int64_t C, int64_t S, int cl, const float *mean,
                                double *sdy, double *sdyx, int nthr) {
    if (cl)
        sums_cl(x, dy, N * S, C, mean, NULL, NULL, 0, y, dz, sdy, sdyx, nthr);
    else
        sums_cf(x, dy, N, C, S, mean, NULL, NULL, 0, y, dz, sdy, sdyx, nthr);
}

/* dx = dyr * A + x * B + D. */
void mxng_bn_grad_apply(const float *dy, const float *x, float *dx, int64_t N, int64_t C,
                        int64_t S, int cl, const float *A, const float *B, const float *D,
                        const float *a, const float *b, int relu, int nthr) {
    if (cl) {
        int64_t M = N * S;
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
        for (int64_t m = 0; m < M; ++m) {
            const float *r = x + m * C, *g = dy + m * C;
            float *o = dx + m * C;
#pragma omp simd
            for (int64_t c = 0; c < C; ++c) {
                float d = (relu && !(affine(r[c], a[c], b[c]) > 0.f)) ? 0.f : g[c];
                o[c] = fmaf(d, A[c], fmaf(r[c], B[c], D[c]));
            }
        }
    } else {
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
        for (int64_t nc = 0; nc < N * C; ++nc) {
            const int64_t c = nc % C;
            const float *r = x + nc * S, *g = dy + nc * S;
            float *o = dx + nc * S;
            const float Ac = A[c], Bc = B[c], Dc = D[c];
            const float ac = a[c], bc = b[c];
#pragma omp simd
            for (int64_t s = 0; s < S; ++s) {
                float d = (relu && !(affine(r[s], ac, bc) > 0.f)) ? 0.f : g[s];
                o[s] = fmaf(d, Ac, fmaf(r[s], Bc, Dc));
            }
        }
    }
}

/* y = max(x * a + b + z, 0): BatchNorm's output added to a residual z (same layout), then
 * relu, rounded as the three separate steps round. */
void mxng_bn_apply_add_relu(const float *x, const float *z, float *y, int64_t N, int64_t C,
                            int64_t S, int cl, const float *a, const float *b, int nthr) {
    if (cl) {
        int64_t M = N * S;
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
        for (int64_t m = 0; m < M; ++m) {
            const float *r = x + m * C, *q = z + m * C;
            float *o = y + m * C;
#pragma omp simd
            for (int64_t c = 0; c < C; ++c) {
                float v = affine(r[c], a[c], b[c]) + q[c];
                o[c] = v > 0.f ? v : 0.f;
            }
        }
    } else {
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
        for (int64_t nc = 0; nc < N * C; ++nc) {
            const float *r = x + nc * S, *q = z + nc * S;
            float *o = y + nc * S;
            const float ac = a[nc % C], bc = b[nc % C];
#pragma omp simd
            for (int64_t s = 0; s < S; ++s) {
                float v = affine(r[s], ac, bc) + q[s];
                o[s] = v > 0.f ? v : 0.f;
            }
        }
    }
}
