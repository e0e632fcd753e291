/* The input gradient of strided convolutions over few input channels (ResNet's 7x7/2 stem
 * over RGB images) on channels-last float32 data.
 *
 * Part of mxnet-ng (see mxnet/_op/_conv_small.py). Output pixel m = (n, oy, ox) reads the
 * window x[n, oy*sh - ph + ky, ox*sw - pw + kx, c]; laid out as a row of K = kh*kw*C values
 * in (ky, kx, c) order, each kernel row of the window is kw*C consecutive floats of the
 * channels-last input. The gradient of pixel m's window is dy[m, :] . Wkt (Wkt: the weight
 * as [O][K]), computed for blocks of pixels with the register-tiled product of tiles.h
 * and added back into the image, pixel by pixel in order. */
#include "tiles.h"

typedef struct {
    int64_t N, H, W, C, Ho, Wo, kh, kw, sh, sw, ph, pw, K;
} geom;

/* dx windows of output pixels m0.. += P rows (row stride ld), in pixel order. */
static void scatter_add(float *dx, const float *P, int64_t ld, int64_t m0, int64_t cnt,
                        const geom *g) {
    for (int64_t m = 0; m < cnt; ++m) {
        const int64_t q = m0 + m, ox = q % g->Wo, oy = (q / g->Wo) % g->Ho, n = q / (g->Wo * g->Ho);
        const int64_t ix0 = ox * g->sw - g->pw;
        for (int64_t ky = 0; ky < g->kh; ++ky) {
            const int64_t iy = oy * g->sh - g->ph + ky;
            if (iy < 0 || iy >= g->H) continue;
            const float *src = P + m * ld + ky * g->kw * g->C;
            float *row = dx + ((n * g->H + iy) * g->W) * g->C;
            if (ix0 >= 0 && ix0 + g->kw <= g->W) { /* the whole kernel row: one run */
                float *d = row + ix0 * g->C;
                for (int64_t j = 0; j < g->kw * g->C; ++j) d[j] += src[j];
                continue;
            }
            for (int64_t kx = 0; kx < g->kw; ++kx) {
                const int64_t ix = ix0 + kx;
                if (ix < 0 || ix >= g->W) continue;
                for (int64_t c = 0; c < g->C; ++c) row[ix * g->C + c] += src[kx * g->C + c];
            }
        }
    }
}

static geom make_geom(int64_t N, int64_t H, int64_t W, int64_t C, int64_t kh, int64_t kw,
                      int64_t sh, int64_t sw, int64_t ph, int64_t pw) {
    geom g = {N, H, W, C, (H + 2 * ph - kh) / sh + 1, (W + 2 * pw - kw) / sw + 1,
              kh, kw, sh, sw, ph, pw, kh * kw * C};
    return g;
}

/* Bp[p][k][0:RC] = B[k][p*RC + j] for a [K][Nc] matrix B, zero columns past Nc. */
static void pack(const float *B, float *Bp, int64_t K, int64_t Nc, int64_t P) {
    for (int64_t p = 0; p < P; ++p)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t j = 0; j < RC; ++j) {
                const int64_t c = p * RC + j;
                Bp[(p * K + k) * RC + j] = c < Nc ? B[k * Nc + c] : 0.f;
            }
}

/* dx[N, H, W, C] (overwritten) = the input gradient for dy[N, Ho, Wo, O] of the
 * convolution with wkt[O][K] (the weight as [O][K]): each pixel's window gradient
 * dy[m, :] . wkt, added into its window. Threads take whole images (the windows of one
 * image overlap), so the result does not depend on their number. Returns 0, or -1 when a
 * buffer could not be allocated. */
int64_t mxng_small_dgrad(const float *dy, const float *wkt, float *dx, int64_t N, int64_t H,
                         int64_t W, int64_t C, int64_t O, int64_t kh, int64_t kw, int64_t sh,
                         int64_t sw, int64_t ph, int64_t pw, int nthr) {
    const geom g = make_geom(N, H, W, C, kh, kw, sh, sw, ph, pw);
    const int64_t K = g.K, P = (K + RC - 1) / RC, Kp = P * RC, per = g.Ho * g.Wo;
    float *Bp = malloc(sizeof(float) * O * Kp);
    if (!Bp) return -1;
    pack(wkt, Bp, O, K, P);
    memset(dx, 0, sizeof(float) * N * H * W * C);
    int64_t fail = 0, aoff[MB];
    for (int64_t r = 0; r < MB; ++r) aoff[r] = r * O;
#pragma omp parallel num_threads(nthr) if (nthr > 1) reduction(| : fail)
    {
        float *D = malloc(sizeof(float) * MB * Kp);
        fail |= D == NULL;
#pragma omp for schedule(static)
        for (int64_t n = 0; n < N; ++n) {
            if (!D) continue;
            for (int64_t m0 = n * per; m0 < (n + 1) * per; m0 += MB) {
                const int64_t mb = (n + 1) * per - m0 < MB ? (n + 1) * per - m0 : MB;
                for (int64_t p = 0; p < P; ++p) {
                    const float *bp = Bp + p * O * RC, *a = dy + m0 * O;
                    float *c = D + p * RC;
                    int64_t m = 0;
                    for (; m + RO <= mb; m += RO) rtile(a, aoff + m, bp, c + m * Kp, O, Kp, RO, 0);
                    for (; m < mb; ++m) rtile(a, aoff + m, bp, c + m * Kp, O, Kp, 1, 0);
                }
                scatter_add(dx, D, Kp, m0, mb, &g);
            }
        }
        free(D);
    }
    free(Bp);
    return fail ? -1 : 0;
}
