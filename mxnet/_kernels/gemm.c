/* Weight gradient, forward and input gradient of 1x1 convolutions over channels-last
 * float32 data.
 *
 * Part of mxnet-ng (see mxnet/_kernels/__init__.py, which compiles this file once per
 * machine with -march=native). A 1x1 convolution without padding is a matrix product over
 * the pixel rows: y[m, :] = w . x[row(m), :], row(m) the input pixel that output pixel m
 * reads (the same pixel at stride 1). Its weight gradient dw[CO, CI] = sum over m of
 * dy[m, :]^T x[row(m), :] reduces over every pixel of the batch (10^5 rows for ResNet-50 at
 * batch 32) into a small matrix. oneDNN's channels-last kernel for that product runs at
 * 65-95% of a core's peak depending on the shape; here the result is cut into register
 * tiles (RO output channels x NV vectors of input channels), each tile summed over blocks
 * of KB rows in registers and each block's sum added into dw (two-level summation: the
 * rounding error grows with sqrt(KB) + sqrt(M / KB), not sqrt(M)). Tiles belong to one
 * thread each, so the result does not depend on the thread count.
 *
 * The forward product y = x . w^T and the input gradient dx = dy . w (mxng_rows_gemm) keep
 * register tiles of RO output rows x NV vectors of output channels, each summed over the
 * whole inner dimension in order (so the results equal oneDNN's sequential sums), with the
 * right-hand matrix packed in panels of RC columns that stay in L2; large outputs are
 * written with streaming stores (they are not read again before they leave the cache).
 *
 * AVX-512 or AVX2+FMA intrinsics where the compiler targets them, plain C otherwise.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#if defined(__AVX512F__)
#include <immintrin.h>
typedef __m512 vec;
#define VW 16
#define VLOAD(p) _mm512_loadu_ps(p)
#define VSTORE(p, v) _mm512_storeu_ps(p, v)
#define VZERO() _mm512_setzero_ps()
#define VSET1(s) _mm512_set1_ps(s)
#define VFMA(a, b, c) _mm512_fmadd_ps(a, b, c)
#define VADD(a, b) _mm512_add_ps(a, b)
#define VSUB(a, b) _mm512_sub_ps(a, b)
#define VMUL(a, b) _mm512_mul_ps(a, b)
#define VSTREAM(p, v) _mm512_stream_ps(p, v)
#define SFENCE() _mm_sfence()
#define RO 6
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
typedef __m256 vec;
#define VW 8
#define VLOAD(p) _mm256_loadu_ps(p)
#define VSTORE(p, v) _mm256_storeu_ps(p, v)
#define VZERO() _mm256_setzero_ps()
#define VSET1(s) _mm256_set1_ps(s)
#define VFMA(a, b, c) _mm256_fmadd_ps(a, b, c)
#define VADD(a, b) _mm256_add_ps(a, b)
#define VSUB(a, b) _mm256_sub_ps(a, b)
#define VMUL(a, b) _mm256_mul_ps(a, b)
#define VSTREAM(p, v) _mm256_stream_ps(p, v)
#define SFENCE() _mm_sfence()
#define RO 2
#else
typedef float vec;
#define VW 1
#define VLOAD(p) (*(p))
#define VSTORE(p, v) (*(p) = (v))
#define VZERO() 0.f
#define VSET1(s) (s)
#define VFMA(a, b, c) fmaf(a, b, c)
#define VADD(a, b) ((a) + (b))
#define VSUB(a, b) ((a) - (b))
#define VMUL(a, b) ((a) * (b))
#define VSTREAM(p, v) (*(p) = (v))
#define SFENCE() ((void)0)
#define RO 4
#endif

#define NV 4
#define RC (NV * VW) /* input channels per tile */

#define KB 128 /* rows summed per block */

/* The input channels a tile covers: mxng_wgrad_1x1 needs CI to be a multiple of it. */
int64_t mxng_wgrad_tile(void) { return RC; }

/* off[m] = where the input row of output pixel m0 + m starts: output pixel (n, i, j) of an
 * [N, Ho, Wo] grid reads input pixel (n, i*s, j*s) of [N, H, W], rows of K floats. */
static void row_offsets(int64_t *off, int64_t m0, int64_t cnt, int64_t Ho, int64_t Wo,
                        int64_t H, int64_t W, int64_t s, int64_t K) {
    for (int64_t m = 0; m < cnt; ++m) {
        int64_t q = m0 + m, j = q % Wo, i = (q / Wo) % Ho, n = q / (Wo * Ho);
        off[m] = ((n * H + i * s) * W + j * s) * K;
    }
}

/* dw[o0:o0+R, i0:i0+RC] += sum over the kb rows of dy[m, o] * x[xoff[m], i]. */
static inline __attribute__((always_inline)) void tile(const float *dy, const float *x,
                                                       const int64_t *xoff, float *dw,
                                                       int64_t kb, int64_t CO, int64_t CI,
                                                       const int R) {
    vec acc[RO][NV];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[r][v] = VZERO();
    for (int64_t m = 0; m < kb; ++m) {
        const float *xr = x + xoff[m], *gr = dy + m * CO;
        vec xv[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) xv[v] = VLOAD(xr + v * VW);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            vec g = VSET1(gr[r]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) acc[r][v] = VFMA(g, xv[v], acc[r][v]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) {
            float *o = dw + r * CI + v * VW;
            VSTORE(o, VADD(VLOAD(o), acc[r][v]));
        }
}

/* Weight gradient dw[CO, CI] (overwritten) of a 1x1 convolution with stride s and no
 * padding: dy is [N, Ho, Wo, CO], x is [N, H, W, CI], both channels-last and dense;
 * output pixel (n, i, j) reads input pixel (n, i*s, j*s). CI % RC == 0. */
void mxng_wgrad_1x1(const float *dy, const float *x, float *dw, int64_t N, int64_t Ho,
                    int64_t Wo, int64_t H, int64_t W, int64_t s, int64_t CO, int64_t CI,
                    int nthr) {
    memset(dw, 0, sizeof(float) * CO * CI);
    const int64_t M = N * Ho * Wo, tiles = (CO + RO - 1) / RO;
#pragma omp parallel num_threads(nthr) if (nthr > 1)
    {
        int64_t t0 = 0, t1 = tiles, xoff[KB];
#ifdef _OPENMP
        int nt = omp_get_num_threads(), id = omp_get_thread_num();
        t0 = tiles * id / nt;
        t1 = tiles * (id + 1) / nt;
#endif
        for (int64_t m0 = 0; m0 < M && t0 < t1; m0 += KB) {
            int64_t kb = M - m0 < KB ? M - m0 : KB;
            row_offsets(xoff, m0, kb, Ho, Wo, H, W, s, CI);
            for (int64_t i0 = 0; i0 < CI; i0 += RC)
                for (int64_t t = t0; t < t1; ++t) {
                    const float *g = dy + m0 * CO + t * RO, *xs = x + i0;
                    float *o = dw + t * RO * CI + i0;
                    int64_t left = CO - t * RO;
                    if (left >= RO) {
                        tile(g, xs, xoff, o, kb, CO, CI, RO);
                        continue;
                    }
                    int64_t r = 0;  /* the last, partial tile: as few passes as can be */
                    for (; r + 4 <= left && RO > 4; r += 4)
                        tile(g + r, xs, xoff, o + r * CI, kb, CO, CI, 4);
                    for (; r + 2 <= left && RO > 2; r += 2)
                        tile(g + r, xs, xoff, o + r * CI, kb, CO, CI, 2);
                    for (; r < left; ++r)
                        tile(g + r, xs, xoff, o + r * CI, kb, CO, CI, 1);
                }
        }
    }
}

#define MB 96 /* rows per block of mxng_rows_gemm (their offsets computed together) */

/* C[0:R, 0:RC] = sum over k of A[aoff[r] + k] * Bp[k, 0:RC] (rows R apart by ldc). */
static inline __attribute__((always_inline)) void rtile(const float *A, const int64_t *aoff,
                                                        const float *Bp, float *C, int64_t K,
                                                        int64_t ldc, const int R, int nt) {
    vec acc[RO][NV];
    const float *ar[RO];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
        ar[r] = A + aoff[r];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[r][v] = VZERO();
    }
    for (int64_t k = 0; k < K; ++k) {
        vec b[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) b[v] = VLOAD(Bp + k * RC + v * VW);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            vec a = VSET1(ar[r][k]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; ++v) acc[r][v] = VFMA(a, b[v], acc[r][v]);
        }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) {
            if (nt)
                VSTREAM(C + r * ldc + v * VW, acc[r][v]);
            else
                VSTORE(C + r * ldc + v * VW, acc[r][v]);
        }
}

/* C[M, N] = A[row(m), 0:K] . B, C dense [M, N]; row m of A starts at ((n*H + i*s)*W + j*s)*K
 * for m = (n, i, j) over [N_, Ho, Wo] (s = 1, H = Ho, W = Wo: A dense [M, K]). B is [K, N]
 * row-major, or [N, K] when bt (a convolution weight [CO, CI]: the forward product).
 * N % RC == 0. Returns 0, or -1 when the panel buffer could not be allocated. */
int64_t mxng_rows_gemm(const float *A, const float *B, float *C, int64_t M, int64_t K,
                       int64_t N, int64_t Ho, int64_t Wo, int64_t H, int64_t W, int64_t s,
                       int bt, int nthr) {
    const int64_t P = N / RC;
    /* the panels live in a per-thread buffer kept between calls: a fresh block of up to
     * 4 MiB per call would be carved out of the heap between the tensors (fragmentation) */
    static __thread float *panels = NULL;
    static __thread int64_t cap = 0;
    if (cap < K * N) {
        float *nb = realloc(panels, sizeof(float) * K * N);
        if (!nb) return -1;
        panels = nb;
        cap = K * N;
    }
    float *const Bp = panels; /* the caller's buffer, also in the worker threads */
    for (int64_t p = 0; p < P; ++p)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t j = 0; j < RC; ++j)
                Bp[(p * K + k) * RC + j] = bt ? B[(p * RC + j) * K + k] : B[k * N + p * RC + j];
    /* streaming stores: whole aligned cache lines of an output too large to stay cached */
    const int nt = M * N >= (1 << 20) && ((uintptr_t)C % 64) == 0 && (N * 4) % 64 == 0;
    const int64_t blocks = (M + MB - 1) / MB;
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
    for (int64_t blk = 0; blk < blocks; ++blk) {
        int64_t aoff[MB], m0 = blk * MB, mb = M - m0 < MB ? M - m0 : MB;
        row_offsets(aoff, m0, mb, Ho, Wo, H, W, s, K);
        for (int64_t p = 0; p < P; ++p) {
            const float *bp = Bp + p * K * RC;
            float *c = C + m0 * N + p * RC;
            int64_t m = 0;
            for (; m + RO <= mb; m += RO) rtile(A, aoff + m, bp, c + m * N, K, N, RO, nt);
            for (; m < mb; ++m) rtile(A, aoff + m, bp, c + m * N, K, N, 1, nt);
        }
    }
    SFENCE();
    return 0;
}

/* ---- 3x3 convolutions, stride 1, padding 1: Winograd F(2x2, 3x3) ----
 *
 * Each 2x2 block of outputs ("tile") reads a 4x4 block of inputs d; with the transforms
 * V = B^T d B (per input channel), U = G g G^T (per weight slice) and Y = A^T M A, the
 * convolution is 16 independent matrix products M[xi] = V[xi] . U[xi] over the channels
 * (xi = one of the 4x4 transformed positions): 16 multiply-adds per channel pair and tile
 * where the direct convolution takes 36. Tiles are handled in blocks of WT whose
 * transformed inputs and products stay in the cache; the products use rtile. */

#define WT 96 /* tiles per block */

/* U[xi][p][i][0:RC] (xi = 4a + b, p = output-channel panel, i = input channel) from the
 * weight laid out wt[I][3][3][O] (a forward weight [O][I][3][3] permuted), flip = 1 turning
 * each 3x3 slice by 180 degrees (the input gradient: a convolution of dy with w^T). O % RC
 * == 0. */
void mxng_wino_weights(const float *wt, float *U, int64_t O, int64_t I, int flip) {
    const int64_t P = O / RC;
    const vec half = VSET1(0.5f);
    for (int64_t i = 0; i < I; ++i)
        for (int64_t o0 = 0; o0 < O; o0 += VW) {
            vec g[3][3], t[4][3], u[4][4];
#pragma GCC unroll 3
            for (int a = 0; a < 3; ++a)
#pragma GCC unroll 3
                for (int b = 0; b < 3; ++b)
                    g[a][b] = VLOAD(wt + (i * 9 + (flip ? (2 - a) * 3 + 2 - b : a * 3 + b)) * O + o0);
#pragma GCC unroll 3
            for (int b = 0; b < 3; ++b) { /* G g: rows g0, (g0+g1+g2)/2, (g0-g1+g2)/2, g2 */
                t[0][b] = g[0][b];
                t[1][b] = VMUL(half, VADD(VADD(g[0][b], g[1][b]), g[2][b]));
                t[2][b] = VMUL(half, VADD(VSUB(g[0][b], g[1][b]), g[2][b]));
                t[3][b] = g[2][b];
            }
#pragma GCC unroll 4
            for (int a = 0; a < 4; ++a) { /* (G g) G^T */
                u[a][0] = t[a][0];
                u[a][1] = VMUL(half, VADD(VADD(t[a][0], t[a][1]), t[a][2]));
                u[a][2] = VMUL(half, VADD(VSUB(t[a][0], t[a][1]), t[a][2]));
                u[a][3] = t[a][2];
            }
            const int64_t p = o0 / RC, j = o0 % RC;
#pragma GCC unroll 16
            for (int xi = 0; xi < 16; ++xi)
                VSTORE(U + ((xi * P + p) * I + i) * RC + j, u[xi / 4][xi % 4]);
        }
}

/* V[xi][t][i0:i0+VW] = (B^T d B)[xi] of the 4x4 input block whose top-left pixel is
 * (r0, c0) of image n (pixels outside the image read as 0). */
static inline void wino_in(const float *x, float *V, int64_t n, int64_t r0, int64_t c0,
                           int64_t H, int64_t W, int64_t I, int64_t t) {
    for (int64_t i0 = 0; i0 < I; i0 += VW) {
        vec d[4][4], e[4][4];
#pragma GCC unroll 4
        for (int a = 0; a < 4; ++a) {
            const int64_t r = r0 + a;
            const int rok = r >= 0 && r < H;
#pragma GCC unroll 4
            for (int b = 0; b < 4; ++b) {
                const int64_t c = c0 + b;
                d[a][b] = rok && c >= 0 && c < W ? VLOAD(x + ((n * H + r) * W + c) * I + i0)
                                                 : VZERO();
            }
        }
#pragma GCC unroll 4
        for (int b = 0; b < 4; ++b) { /* B^T d */
            e[0][b] = VSUB(d[0][b], d[2][b]);
            e[1][b] = VADD(d[1][b], d[2][b]);
            e[2][b] = VSUB(d[2][b], d[1][b]);
            e[3][b] = VSUB(d[1][b], d[3][b]);
        }
#pragma GCC unroll 4
        for (int a = 0; a < 4; ++a) { /* (B^T d) B */
            float *v = V + (4 * a * WT + t) * I + i0;
            VSTORE(v, VSUB(e[a][0], e[a][2]));
            VSTORE(v + WT * I, VADD(e[a][1], e[a][2]));
            VSTORE(v + 2 * WT * I, VSUB(e[a][2], e[a][1]));
            VSTORE(v + 3 * WT * I, VSUB(e[a][1], e[a][3]));
        }
    }
}

/* The 2x2 outputs (A^T M A) of tile t, written from pixel (r0, c0) of image n on. */
static inline void wino_out(const float *Mb, float *y, int64_t n, int64_t r0, int64_t c0,
                            int64_t H, int64_t W, int64_t O, int64_t t) {
    for (int64_t o0 = 0; o0 < O; o0 += VW) {
        vec m[4][4], s[4][2];
#pragma GCC unroll 16
        for (int xi = 0; xi < 16; ++xi) m[xi / 4][xi % 4] = VLOAD(Mb + (xi * WT + t) * O + o0);
#pragma GCC unroll 4
        for (int a = 0; a < 4; ++a) { /* M A */
            s[a][0] = VADD(VADD(m[a][0], m[a][1]), m[a][2]);
            s[a][1] = VSUB(VSUB(m[a][1], m[a][2]), m[a][3]);
        }
#pragma GCC unroll 2
        for (int b = 0; b < 2; ++b) { /* A^T (M A) */
            const int64_t c = c0 + b;
            if (c >= W) continue;
            VSTORE(y + ((n * H + r0) * W + c) * O + o0,
                   VADD(VADD(s[0][b], s[1][b]), s[2][b]));
            if (r0 + 1 < H)
                VSTORE(y + ((n * H + r0 + 1) * W + c) * O + o0,
                       VSUB(VSUB(s[1][b], s[2][b]), s[3][b]));
        }
    }
}

/* y[N, H, W, O] = the 3x3 convolution (stride 1, padding 1) of x[N, H, W, I], both
 * channels-last and dense, with the weight transformed by mxng_wino_weights. I % VW == 0,
 * O % RC == 0. Returns 0, or -1 when a block buffer could not be allocated. */
int64_t mxng_wino_conv(const float *x, const float *U, float *y, int64_t N, int64_t H,
                       int64_t W, int64_t I, int64_t O, int nthr) {
    const int64_t th = (H + 1) / 2, tw = (W + 1) / 2, T = N * th * tw, P = O / RC;
    const int64_t blocks = (T + WT - 1) / WT;
    int64_t fail = 0;
#pragma omp parallel num_threads(nthr) if (nthr > 1) reduction(| : fail)
    {
        static __thread float *buf = NULL; /* each thread's own block buffers */
        static __thread int64_t cap = 0;
        const int64_t need = 16 * WT * (I + O);
        if (cap < need) {
            float *nb = realloc(buf, sizeof(float) * need);
            if (nb) {
                buf = nb;
                cap = need;
            }
        }
        const int ok = cap >= need;
        fail |= !ok;
        float *const V = buf, *const Mb = buf + 16 * WT * I;
        int64_t aoff[WT];
        for (int64_t r = 0; r < WT; ++r) aoff[r] = r * I;
#pragma omp for schedule(static)
        for (int64_t blk = 0; blk < blocks; ++blk) {
            if (!ok) continue;
            const int64_t t0 = blk * WT, tb = T - t0 < WT ? T - t0 : WT;
            for (int64_t t = 0; t < tb; ++t) {
                const int64_t q = t0 + t, tj = q % tw, ti = (q / tw) % th, n = q / (tw * th);
                wino_in(x, V, n, 2 * ti - 1, 2 * tj - 1, H, W, I, t);
            }
            for (int xi = 0; xi < 16; ++xi)
                for (int64_t p = 0; p < P; ++p) {
                    const float *a = V + xi * WT * I, *bp = U + (xi * P + p) * I * RC;
                    float *c = Mb + xi * WT * O + p * RC;
                    int64_t m = 0;
                    for (; m + RO <= tb; m += RO) rtile(a, aoff + m, bp, c + m * O, I, O, RO, 0);
                    for (; m < tb; ++m) rtile(a, aoff + m, bp, c + m * O, I, O, 1, 0);
                }
            for (int64_t t = 0; t < tb; ++t) {
                const int64_t q = t0 + t, tj = q % tw, ti = (q / tw) % th, n = q / (tw * th);
                wino_out(Mb, y, n, 2 * ti, 2 * tj, H, W, O, t);
            }
        }
    }
    return fail ? -1 : 0;
}

/* D[xi][t][o0:o0+VW] = (A dY A^T)[xi] of the 2x2 output-gradient block whose top-left pixel
 * is (r0, c0) of image n (pixels outside the map contribute 0). */
static inline void wino_gout(const float *dy, float *D, int64_t n, int64_t r0, int64_t c0,
                             int64_t H, int64_t W, int64_t O, int64_t t) {
    for (int64_t o0 = 0; o0 < O; o0 += VW) {
        vec g[2][2], e[4][2];
#pragma GCC unroll 2
        for (int a = 0; a < 2; ++a)
#pragma GCC unroll 2
            for (int b = 0; b < 2; ++b)
                g[a][b] = r0 + a < H && c0 + b < W
                              ? VLOAD(dy + ((n * H + r0 + a) * W + c0 + b) * O + o0)
                              : VZERO();
#pragma GCC unroll 2
        for (int b = 0; b < 2; ++b) { /* A dY: rows g0, g0+g1, g0-g1, -g1 */
            e[0][b] = g[0][b];
            e[1][b] = VADD(g[0][b], g[1][b]);
            e[2][b] = VSUB(g[0][b], g[1][b]);
            e[3][b] = VSUB(VZERO(), g[1][b]);
        }
#pragma GCC unroll 4
        for (int a = 0; a < 4; ++a) { /* (A dY) A^T */
            float *d = D + (4 * a * WT + t) * O + o0;
            VSTORE(d, e[a][0]);
            VSTORE(d + WT * O, VADD(e[a][0], e[a][1]));
            VSTORE(d + 2 * WT * O, VSUB(e[a][0], e[a][1]));
            VSTORE(d + 3 * WT * O, VSUB(VZERO(), e[a][1]));
        }
    }
}

/* Weight gradient dw[O][I][3][3] (overwritten) of the 3x3 convolution (stride 1, padding 1)
 * of x[N, H, W, I] giving dy[N, H, W, O], both channels-last and dense: the 16 products
 * dU[xi] = sum over tiles of D[xi]^T V[xi] (each block of WT tiles summed in registers, then
 * added to dU), then dw = G^T dU G in double. Threads split each block's transforms and
 * the 16 products, so the result does not depend on their number. I % RC == 0,
 * O % VW == 0. Returns 0, or -1 when a buffer could not be allocated. */
int64_t mxng_wino_wgrad(const float *x, const float *dy, float *dw, int64_t N, int64_t H,
                        int64_t W, int64_t I, int64_t O, int nthr) {
    const int64_t th = (H + 1) / 2, tw = (W + 1) / 2, T = N * th * tw;
    const int64_t blocks = (T + WT - 1) / WT;
    float *buf = malloc(sizeof(float) * 16 * (WT * (I + O) + O * I));
    if (!buf) return -1;
    float *const V = buf, *const D = buf + 16 * WT * I, *const dU = D + 16 * WT * O;
    memset(dU, 0, sizeof(float) * 16 * O * I);
    int64_t aoff[WT];
    for (int64_t r = 0; r < WT; ++r) aoff[r] = r * I;
#pragma omp parallel num_threads(nthr) if (nthr > 1)
    for (int64_t blk = 0; blk < blocks; ++blk) {
        const int64_t t0 = blk * WT, tb = T - t0 < WT ? T - t0 : WT;
#pragma omp for schedule(static)
        for (int64_t t = 0; t < tb; ++t) {
            const int64_t q = t0 + t, tj = q % tw, ti = (q / tw) % th, n = q / (tw * th);
            wino_in(x, V, n, 2 * ti - 1, 2 * tj - 1, H, W, I, t);
            wino_gout(dy, D, n, 2 * ti, 2 * tj, H, W, O, t);
        }
#pragma omp for schedule(static) collapse(2)
        for (int xi = 0; xi < 16; ++xi)
            for (int64_t o0 = 0; o0 < O; o0 += RO)
                for (int64_t i0 = 0; i0 < I; i0 += RC) {
                    const float *d = D + xi * WT * O, *v = V + xi * WT * I + i0;
                    float *u = dU + xi * O * I + i0;
                    if (o0 + RO <= O)
                        tile(d + o0, v, aoff, u + o0 * I, tb, O, I, RO);
                    else
                        for (int64_t o = o0; o < O; ++o) tile(d + o, v, aoff, u + o * I, tb, O, I, 1);
                }
    }
#pragma omp parallel for num_threads(nthr) schedule(static) if (nthr > 1)
    for (int64_t o = 0; o < O; ++o)
        for (int64_t i = 0; i < I; ++i) {
            double u[4][4], s[3][4];
            for (int xi = 0; xi < 16; ++xi) u[xi / 4][xi % 4] = dU[(xi * O + o) * I + i];
            for (int b = 0; b < 4; ++b) { /* G^T dU: rows u0+(u1+u2)/2, (u1-u2)/2, (u1+u2)/2+u3 */
                s[0][b] = u[0][b] + 0.5 * (u[1][b] + u[2][b]);
                s[1][b] = 0.5 * (u[1][b] - u[2][b]);
                s[2][b] = 0.5 * (u[1][b] + u[2][b]) + u[3][b];
            }
            float *o9 = dw + (o * I + i) * 9;
            for (int a = 0; a < 3; ++a) { /* (G^T dU) G */
                o9[a * 3] = (float)(s[a][0] + 0.5 * (s[a][1] + s[a][2]));
                o9[a * 3 + 1] = (float)(0.5 * (s[a][1] - s[a][2]));
                o9[a * 3 + 2] = (float)(0.5 * (s[a][1] + s[a][2]) + s[a][3]);
            }
        }
    free(buf);
    return 0;
}
