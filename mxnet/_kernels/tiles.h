/* Register tiles shared by the native convolution kernels (gemm.c, wino.c, smallconv.c):
 * the vector type and its operations for AVX-512, AVX2+FMA or plain C, and two products
 * on tiles of RO rows x RC columns kept in registers. Part of mxnet-ng (see
 * mxnet/_kernels/__init__.py, which hashes this header with each source including it). */
#ifndef MXNG_TILES_H
#define MXNG_TILES_H
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
#define VMAX(a, b) _mm512_max_ps(a, b)
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
#define VMAX(a, b) _mm256_max_ps(a, b)
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
#define VMAX(a, b) ((a) > (b) ? (a) : (b)) /* NaN a: b, as the vector max */
#define VSTREAM(p, v) (*(p) = (v))
#define SFENCE() ((void)0)
#define RO 4
#endif

#define NV 4
#define RC (NV * VW) /* input channels per tile */

#define KB 128 /* rows summed per block */

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

#endif
