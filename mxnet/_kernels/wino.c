/* Winograd F(2x2, 3x3) convolutions over channels-last float32 data (see
 * mxnet/_op/_conv_wino.py). Part of mxnet-ng: compiled by mxnet/_kernels/__init__.py. */
#include "tiles.h"

/* Each 2x2 block of outputs ("tile") reads a 4x4 block of inputs d; with the transforms
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

/* v + bias[o0..] + res (each when given), then max(., 0) when relu (NaN gives 0, as
 * oneDNN's relu post-op): the epilogue of an inference convolution chain. */
static inline vec epilogue(vec v, const float *bias, const float *res, int relu, int64_t o0) {
    if (bias) v = VADD(v, VLOAD(bias + o0));
    if (res) v = VADD(v, VLOAD(res));
    return relu ? VMAX(v, VZERO()) : v;
}

/* The 2x2 outputs (A^T M A) of tile t, written from pixel (r0, c0) of image n on, with the
 * epilogue. */
static inline void wino_out(const float *Mb, float *y, int64_t n, int64_t r0, int64_t c0,
                            int64_t H, int64_t W, int64_t O, int64_t t, const float *bias,
                            const float *res, int relu, vec *chk) {
    const vec zero = VZERO();
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
            int64_t at = ((n * H + r0) * W + c) * O + o0;
            const vec top = VADD(VADD(s[0][b], s[1][b]), s[2][b]);
            *chk = VADD(*chk, VMUL(top, zero)); /* stays 0 while every value is finite */
            VSTORE(y + at, epilogue(top, bias, res ? res + at : NULL, relu, o0));
            if (r0 + 1 < H) {
                at += W * O;
                const vec bottom = VSUB(VSUB(s[1][b], s[2][b]), s[3][b]);
                *chk = VADD(*chk, VMUL(bottom, zero));
                VSTORE(y + at, epilogue(bottom, bias, res ? res + at : NULL, relu, o0));
            }
        }
    }
}

/* y[N, H, W, O] = the 3x3 convolution (stride 1, padding 1) of x[N, H, W, I], both
 * channels-last and dense, with the weight transformed by mxng_wino_weights; then plus
 * bias[O] and res[N, H, W, O] and max(., 0) when relu (bias and res may be NULL). I % VW
 * == 0, O % RC == 0. Returns 0; 1 when a convolution value (before the epilogue) is not
 * finite: the transforms spread an Inf or NaN of the input over whole 2x2 blocks, where
 * the direct sums keep it to the windows that read it, so the caller recomputes those
 * directly; -1 when a block buffer could not be allocated. */
int64_t mxng_wino_conv(const float *x, const float *U, float *y, int64_t N, int64_t H,
                       int64_t W, int64_t I, int64_t O, const float *bias, const float *res,
                       int relu, int nthr) {
    const int64_t th = (H + 1) / 2, tw = (W + 1) / 2, T = N * th * tw, P = O / RC;
    const int64_t blocks = (T + WT - 1) / WT;
    int64_t fail = 0, nonfinite = 0;
#pragma omp parallel num_threads(nthr) if (nthr > 1) reduction(| : fail, nonfinite)
    {
        vec chk = VZERO();
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
                wino_out(Mb, y, n, 2 * ti, 2 * tj, H, W, O, t, bias, res, relu, &chk);
            }
        }
        float lanes[VW];
        VSTORE(lanes, chk);
        for (int v = 0; v < VW; ++v) nonfinite |= lanes[v] != 0.f;
    }
    return fail ? -1 : nonfinite ? 1 : 0;
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
