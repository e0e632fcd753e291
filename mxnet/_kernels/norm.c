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
 * plain variants round alike. Sums are taken in float over short runs (64 rows of a channels
 * last array, 16 lanes of at most 64 values each channels first) and added up in double, so
 * their error does not grow with the batch (one float accumulator per channel running over
 * all the rows, as PyTorch's channels-last CPU kernel does, loses ~sqrt(rows) ulps); the
 * statistics are shifted by an estimate of each channel's mean (that of its first values),
 * so that a large mean does not cancel the variance.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define ROWS 256 /* rows per scheduled block (channels last) */
#define RUN 64   /* rows summed in float before the sums go to double (channels last) */

static inline float affine(float x, float a, float b) { return fmaf(x, a, b); }

/* ---- streaming stores ------------------------------------------------------------- */

/* Outputs of at least NT_MIN floats are written with non-temporal (streaming) stores where
 * the CPU has them: an array that large does not stay in cache for its reader anyway, and a
 * streaming store skips reading each cache line before overwriting it (a third less memory
 * traffic for y = f(x)). The arithmetic is the scalar code's, operation for operation (one
 * fused multiply-add, max(v, 0) == (v > 0 ? v : 0) also for NaN and -0), so both paths give
 * the same bits. */
#define NT_MIN (1 << 20)
#if defined(__AVX512F__)
#include <immintrin.h>
#define NT_W 16
typedef __m512 ntv;
#define NT_LD(p) _mm512_loadu_ps(p)
#define NT_ST(p, v) _mm512_stream_ps(p, v)
#define NT_SET1(s) _mm512_set1_ps(s)
#define NT_FMA(x, a, b) _mm512_fmadd_ps(x, a, b)
#define NT_ADD(x, y) _mm512_add_ps(x, y)
#define NT_MAX0(v) _mm512_max_ps(v, _mm512_setzero_ps())
#define NT_KEEP_POS(v, g) _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_GT_OQ), g)
#define NT_ZERO_LE0(q, g) _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(q, _mm512_setzero_ps(), _CMP_NLE_UQ), g)
#define NT_SUB(x, y) _mm512_sub_ps(x, y)
#define NT_STU(p, v) _mm512_storeu_ps(p, v)
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define NT_W 8
typedef __m256 ntv;
#define NT_LD(p) _mm256_loadu_ps(p)
#define NT_ST(p, v) _mm256_stream_ps(p, v)
#define NT_SET1(s) _mm256_set1_ps(s)
#define NT_FMA(x, a, b) _mm256_fmadd_ps(x, a, b)
#define NT_ADD(x, y) _mm256_add_ps(x, y)
#define NT_MAX0(v) _mm256_max_ps(v, _mm256_setzero_ps())
#define NT_KEEP_POS(v, g) _mm256_and_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GT_OQ), g)
#define NT_ZERO_LE0(q, g) _mm256_and_ps(_mm256_cmp_ps(q, _mm256_setzero_ps(), _CMP_NLE_UQ), g)
#define NT_SUB(x, y) _mm256_sub_ps(x, y)
#define NT_STU(p, v) _mm256_storeu_ps(p, v)
#endif

enum { OP_APPLY, OP_APPLY_RELU, OP_ADD_RELU, OP_GRAD, OP_GRAD_RELU };

/* Whether rows of n floats at y (every row starts n floats after the last) take streaming
 * stores: aligned, whole vectors, a large output. */
static inline int nt_ok(const float *y, int64_t n, int64_t total) {
#ifdef NT_W
    return total >= NT_MIN && n % NT_W == 0 && ((uintptr_t)y % (NT_W * sizeof(float))) == 0;
#else
    (void)y, (void)n, (void)total;
    return 0;
#endif
}

static inline void nt_fence(int nt) {
#ifdef NT_W
    if (nt) _mm_sfence();
#else
    (void)nt;
#endif
}

/* ---- channels last -------------------------------------------------------------- */

/* Sums over rows m0..m1 of channels c0..c0+cn into f1, f2 (see sums_cl): whole rows at a
 * time, in memory order (the accumulators stay in L1). */
static inline void chunk_cl(const float *x, const float *dy, int64_t C, int64_t c0, int64_t cn,
                            int64_t m0, int64_t m1, const float *shift, const float *a,
                            const float *b, int relu, const float *ym, float *dz, int nt,
                            float *f1, float *f2) {
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
#ifdef NT_W
            if (nt) { /* the same operations, dz written with streaming stores */
                for (int64_t l = 0; l < cn; l += NT_W) {
                    ntv d = NT_ZERO_LE0(NT_LD(q + l), NT_LD(g + l));
                    NT_ST(o + l, d);
                    NT_STU(f1 + l, NT_ADD(NT_LD(f1 + l), d));
                    NT_STU(f2 + l, NT_FMA(d, NT_SUB(NT_LD(r + l), NT_LD(k + l)), NT_LD(f2 + l)));
                }
                continue;
            }
#endif
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
    const int nt = dz != NULL && nt_ok(dz, C, M * C);
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
            for (int64_t r0 = m0; r0 < m1; r0 += RUN) {
                memset(acc, 0, 2 * C * sizeof(float));
                chunk_cl(x, dy, C, 0, C, r0, r0 + RUN < m1 ? r0 + RUN : m1, shift, a, b, relu,
                         ym, dz, nt, f1, f2);
#pragma omp simd
                for (int64_t c = 0; c < C; ++c) {
                    l1[c] += f1[c];
                    l2[c] += f2[c];
                }
            }
        }
        nt_fence(nt);
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
    /* the shift: the mean of each channel's first (up to) 16 values, so that the shifted
     * values are small around zero (their running sums stay small, and the variance
     * E[d^2] - E[d]^2 does not cancel) */
    const int64_t h = M < 16 ? M : 16;
    for (int64_t c = 0; c < C; ++c) {
        double t = 0;
        for (int64_t i = 0; i < h; ++i)
            t += cl ? x[i * C + c] : x[((i / S) * C + c) * S + i % S];
        shift[c] = (float)(t / (double)h);
    }
    if (cl)
        sums_cl(x, NULL, M, C, shift, NULL, NULL, 0, NULL, NULL, mean, var, nthr);
    else
        sums_cf(x, NULL, N, C, S, shift, NULL, NULL, 0, NULL, NULL, mean, var, nthr);
    for (int64_t c = 0; c < C; ++c) {
        double m = mean[c] / (double)M;
        double v = var[c] / (double)M - m * m;
        mean[c] = m + shift[c];
        var[c] = (v > 0 || v != v) ? v : 0; /* NaN stays NaN (non-finite input), as MXNet */
    }
    free(shift);
}

#ifdef NT_W
/* One row of n values with streaming stores: o = op(r, q). The per-channel parameters are
 * vectors along the row (step 1, channels last) or one value for the row (step 0). */
static inline __attribute__((always_inline)) void row_nt(int op, const float *r, const float *q, float *o, int64_t n, const float *a,
                   const float *b, const float *A, const float *B, const float *D, int step) {
    ntv av = NT_SET1(a[0]), bv = NT_SET1(b[0]), Av = av, Bv = av, Dv = av;
    int grad = op >= OP_GRAD;
    if (grad) Av = NT_SET1(A[0]), Bv = NT_SET1(B[0]), Dv = NT_SET1(D[0]);
    for (int64_t i = 0; i < n; i += NT_W) {
        if (step) {
            av = NT_LD(a + i), bv = NT_LD(b + i);
            if (grad) Av = NT_LD(A + i), Bv = NT_LD(B + i), Dv = NT_LD(D + i);
        }
        ntv x = NT_LD(r + i), v;
        switch (op) {
        case OP_APPLY: v = NT_FMA(x, av, bv); break;
        case OP_APPLY_RELU: v = NT_MAX0(NT_FMA(x, av, bv)); break;
        case OP_ADD_RELU: v = NT_MAX0(NT_ADD(NT_FMA(x, av, bv), NT_LD(q + i))); break;
        default: {
            ntv d = NT_LD(q + i);
            if (op == OP_GRAD_RELU) d = NT_KEEP_POS(NT_FMA(x, av, bv), d);
            v = NT_FMA(d, Av, NT_FMA(x, Bv, Dv));
        }
        }
        NT_ST(o + i, v);
    }
}
#define ROW_NT(...) row_nt(__VA_ARGS__)
#else
#define ROW_NT(...) ((void)0)
#endif

/* One row of n values with ordinary stores: o = op(r, q), the per-channel parameters as in
 * row_nt. Each op is its own vectorised loop. */
static inline __attribute__((always_inline)) void row_plain(int op, const float *r, const float *q, float *o, int64_t n,
                             const float *a, const float *b, const float *A, const float *B,
                             const float *D, int step) {
#define P(p) ((p)[step * i])
    switch (op) {
    case OP_APPLY:
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) o[i] = affine(r[i], P(a), P(b));
        break;
    case OP_APPLY_RELU:
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) {
            float v = affine(r[i], P(a), P(b));
            o[i] = v > 0.f ? v : 0.f;
        }
        break;
    case OP_ADD_RELU:
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) {
            float v = affine(r[i], P(a), P(b)) + q[i];
            o[i] = v > 0.f ? v : 0.f;
        }
        break;
    default: {
        const int relu = op == OP_GRAD_RELU;
#pragma omp simd
        for (int64_t i = 0; i < n; ++i) {
            float d = (relu && !(affine(r[i], P(a), P(b)) > 0.f)) ? 0.f : q[i];
            o[i] = fmaf(d, P(A), fmaf(r[i], P(B), P(D)));
        }
    }
    }
#undef P
}

/* y = op(x, q) over an array laid out as in the notes at the top, row by row (a row: one
 * pixel's channels, channels last; one channel of one sample, channels first), streaming
 * the stores of a large output. */
static void apply_rows(int op, const float *x, const float *q, float *y, int64_t N,
                       int64_t C, int64_t S, int cl, const float *a, const float *b,
                       const float *A, const float *B, const float *D, int nthr) {
    const int nt = nt_ok(y, cl ? C : S, N * C * S);
    const int64_t rows = cl ? N * S : N * C, n = cl ? C : S;
#pragma omp parallel num_threads(nthr) if (nthr > 1)
    {
#pragma omp for schedule(static)
        for (int64_t m = 0; m < rows; ++m) {
            const float *r = x + m * n, *g = q ? q + m * n : NULL;
            float *o = y + m * n;
            const int64_t k = cl ? 0 : m % C; /* channels first: the row's channel */
            const float *Ak = A ? A + k : NULL, *Bk = B ? B + k : NULL, *Dk = D ? D + k : NULL;
            /* constant steps, so that each call is compiled for its layout */
            if (nt && cl)
                ROW_NT(op, r, g, o, n, a, b, A, B, D, 1);
            else if (nt)
                ROW_NT(op, r, g, o, n, a + k, b + k, Ak, Bk, Dk, 0);
            else if (cl)
                row_plain(op, r, g, o, n, a, b, A, B, D, 1);
            else
                row_plain(op, r, g, o, n, a + k, b + k, Ak, Bk, Dk, 0);
        }
        nt_fence(nt);
    }
}

/* y = x * a + b, then relu. */
void mxng_bn_apply(const float *x, float *y, int64_t N, int64_t C, int64_t S, int cl,
                   const float *a, const float *b, int relu, int nthr) {
    apply_rows(relu ? OP_APPLY_RELU : OP_APPLY, x, NULL, y, N, C, S, cl, a, b, NULL, NULL,
               NULL, nthr);
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
    apply_rows(relu ? OP_GRAD_RELU : OP_GRAD, x, dy, dx, N, C, S, cl, a, b, A, B, D, nthr);
}

/* y = max(x * a + b + z, 0): BatchNorm's output added to a residual z (same layout), then
 * relu, rounded as the three separate steps round. */
void mxng_bn_apply_add_relu(const float *x, const float *z, float *y, int64_t N, int64_t C,
                            int64_t S, int cl, const float *a, const float *b, int nthr) {
    apply_rows(OP_ADD_RELU, x, z, y, N, C, S, cl, a, b, NULL, NULL, NULL, nthr);
}

/* ---- relu as MXNet's CPU operators compute it ------------------------------------- */

/* y = x > 0 ? x : 0, so -0 gives +0 and NaN gives 0 (oneDNN's relu behind MXNet's
 * Activation(act_type='relu')); keep_nan: NaN stays NaN (MXNet's relu operator). Large
 * outputs take streaming stores (same bits: max(v, 0) returns its second operand for NaN
 * and for zeros of either sign). */
void mxng_relu(const float *x, float *y, int64_t n, int keep_nan, int nthr) {
    const int64_t chunk = 1 << 14, chunks = (n + chunk - 1) / chunk;
    const int nt = nt_ok(y, chunk, n >> 3); /* past 8M floats: larger than the L3 cache */
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1 && n >= (1 << 16))
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t i0 = c * chunk, i1 = n - i0 < chunk ? n : i0 + chunk;
        int64_t i = i0;
#ifdef NT_W
        if (nt && !keep_nan)
            for (; i + NT_W <= i1; i += NT_W) NT_ST(y + i, NT_MAX0(NT_LD(x + i)));
#endif
        for (; i < i1; ++i) {
            float v = x[i];
            y[i] = v > 0.f ? v : (keep_nan && v != v ? v : 0.f);
        }
    }
    nt_fence(nt && !keep_nan);
}

/* gx = g where y > 0, else 0; with keep_nan (the relu operator) NaN where y is NaN, as
 * MXNet 1.9.1's relu gradient (Activation's is 0 there). gx may be g. */
void mxng_relu_bwd(const float *g, const float *y, float *gx, int64_t n, int keep_nan,
                   int nthr) {
    const int64_t chunk = 1 <<14, chunks = (n + chunk - 1) / chunk;
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1 && n >= (1 << 16))
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t i0 = c * chunk, i1 = n - i0 < chunk ? n : i0 + chunk;
        for (int64_t i = i0; i < i1; ++i) {
            const float v = y[i];
            gx[i] = v > 0.f ? g[i] : (keep_nan && v != v ? v : 0.f);
        }
    }
}

/* ---- whole forward and backward passes -------------------------------------------- */

/* Training forward in one call: the statistics (double), the per-channel map
 * a = gamma * invstd, b = beta - mean * gamma * invstd (gamma taken as 1 when fixed), and
 * y = x * a + b (then relu; with a residual z laid out as x: y = max(x * a + b + z, 0)).
 * Writes the float mean and biased var, ab[0..2C) = a, b and st[0..2C) = mean, invstd in
 * double (for the backward pass). */
void mxng_bn_fwd(const float *x, const float *z, float *y, int64_t N, int64_t C, int64_t S,
                 int cl,
                 const float *gamma, const float *beta, double eps, int fixed, int relu,
                 float *mean, float *var, float *ab, double *st, int nthr) {
    double *v = malloc(C * sizeof(double));
    float *a = ab, *b = ab + C;
    mxng_bn_stats(x, N, C, S, cl, st, v, nthr);
    for (int64_t c = 0; c < C; ++c) {
        const double m = st[c], inv = 1.0 / sqrt(v[c] + eps);
        const double g = fixed ? 1.0 : (double)gamma[c];
        mean[c] = (float)m;
        var[c] = (float)v[c];
        a[c] = (float)(g * inv);
        b[c] = (float)((double)beta[c] - m * g * inv);
        st[C + c] = inv;
    }
    free(v);
    apply_rows(z != NULL ? OP_ADD_RELU : (relu ? OP_APPLY_RELU : OP_APPLY), x, z, y, N, C, S,
               cl, a, b, NULL, NULL, NULL, nthr);
}

/* Training backward in one call, for what mxng_bn_fwd wrote (k: its float mean, which the
 * sums are centred on; ab, st). dyr = dy, or dy where the relu's output was positive
 * (relu: recomputed from x, a, b; ym != NULL: the output ym of a relu after the
 * normalization, dyr then written to dz). With s1 = sum(dyr) and s2 = sum(dyr * (x - mean))
 * (mean the double one): dgamma = s2 * invstd (0 when fixed), dbeta = s1 and, unless dx is
 * NULL, dx = dyr * A + x * B + D with A = g * invstd, B = -A * invstd^2 * s2 / m,
 * D = -A * s1 / m - B * mean. */
void mxng_bn_bwd(const float *dy, const float *x, const float *ym, float *dz, float *dx,
                 int64_t N, int64_t C, int64_t S, int cl, const float *gamma, int fixed,
                 int relu, const float *k, const float *ab, const double *st, float *dgamma,
                 float *dbeta, int nthr) {
    const float *a = ab, *b = ab + C;
    double *s = malloc(2 * C * sizeof(double));
    float *abd = malloc(3 * C * sizeof(float));
    if (ym != NULL)
        mxng_bn_grad_sums_relu_out(dy, ym, dz, x, N, C, S, cl, k, s, s + C, nthr);
    else
        mxng_bn_grad_sums(dy, x, N, C, S, cl, k, a, b, relu, s, s + C, nthr);
    const double m = (double)(N * S);
    for (int64_t c = 0; c < C; ++c) {
        const double mu = st[c], inv = st[C + c], g = fixed ? 1.0 : (double)gamma[c];
        const double s1 = s[c], s2 = s[C + c] - (mu - (double)k[c]) * s1; /* centred on mu */
        const double big_a = g * inv, big_b = -big_a * inv * inv * (s2 / m);
        abd[c] = (float)big_a;
        abd[C + c] = (float)big_b;
        abd[2 * C + c] = (float)(-big_a * (s1 / m) - big_b * mu);
        dgamma[c] = fixed ? 0.f : (float)(s2 * inv);
        dbeta[c] = (float)s1;
    }
    if (dx != NULL)
        apply_rows(ym != NULL ? OP_GRAD : (relu ? OP_GRAD_RELU : OP_GRAD), x,
                   ym != NULL ? dz : dy, dx, N, C, S, cl, a, b, abd, abd + C, abd + 2 * C, nthr);
    free(abd);
    free(s);
}
