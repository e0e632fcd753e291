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
#include "tiles.h"


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
