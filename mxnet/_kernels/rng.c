/* MXNet 1.9.1's CPU random streams (see mxnet/_mxrng.py, which owns the engine states and
 * runs the same algorithms in NumPy when this library is not available).
 *
 * Part of mxnet-ng (mxnet/_kernels/__init__.py compiles this file once per machine).
 * An engine is a std::mt19937 kept as three pieces owned by Python: key[624] (the state
 * after the last transition), out[624] (that state tempered: the block being read) and
 * pos (the next unread index of out; 624 means a transition is due). Draws that Python
 * handed back to an engine ("pend", at most one buffer per engine) are read first.
 *
 * The parallel samplers split n outputs over T = min(ceil(n / 64), 1024) engines, engine j
 * filling outputs [j * step, (j + 1) * step), step = ceil(n / T). Floats follow libstdc++:
 * generate_canonical takes one draw per float (d / 2**32) and two per double
 * ((d0 + d1 * 2**32) / 2**64), values rounding up to 1 becoming the largest value below 1;
 * a normal is the polar method (pairs x, y = 2u - 1 until 0 < r2 = x*x + y*y <= 1, then
 * y * sqrt(-2 log(r2) / r2)). logf is glibc's (the table-driven algorithm of ARM's
 * optimized-routines), written out here in double so that it rounds exactly as
 * mxnet._mxrng._logf; double normals use the C library's log.
 * Built with -ffp-contract=off: every float operation rounds on its own, as in NumPy.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MT_N 624
#define MT_M 397
#define NSTATES 1024
#define MIN_PER_WORKER 64

/* ---- std::mt19937 --------------------------------------------------------------- */

static void mt_twist(uint32_t *mt) {
    int i;
    uint32_t y;
    for (i = 0; i < MT_N - MT_M; ++i) {
        y = (mt[i] & 0x80000000u) | (mt[i + 1] & 0x7fffffffu);
        mt[i] = mt[i + MT_M] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    for (; i < MT_N - 1; ++i) {
        y = (mt[i] & 0x80000000u) | (mt[i + 1] & 0x7fffffffu);
        mt[i] = mt[i + (MT_M - MT_N)] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
    mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

static void mt_temper(const uint32_t *mt, uint32_t *out) {
    for (int i = 0; i < MT_N; ++i) {
        uint32_t y = mt[i];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        out[i] = y;
    }
}

/* key[j] = std::mt19937((uint32_t)(base + j)).state for j < rows */
void mxng_mt_seed(uint32_t *key, int64_t rows, int64_t base) {
    for (int64_t j = 0; j < rows; ++j) {
        uint32_t *k = key + j * MT_N;
        uint32_t prev = (uint32_t)((uint64_t)base + (uint64_t)j);
        k[0] = prev;
        for (uint32_t i = 1; i < MT_N; ++i) {
            prev = 1812433253u * (prev ^ (prev >> 30)) + i;
            k[i] = prev;
        }
    }
}

typedef struct {
    uint32_t *key, *out;
    int64_t pos;
    const uint32_t *pend;
    int64_t plen, pi;
} reader;

static inline uint32_t next_draw(reader *r) {
    if (r->pi < r->plen) return r->pend[r->pi++];
    if (r->pos >= MT_N) {
        mt_twist(r->key);
        mt_temper(r->key, r->out);
        r->pos = 0;
    }
    return r->out[r->pos++];
}

static void open_reader(reader *r, uint32_t *key, uint32_t *out, int64_t *pos,
                        const uint64_t *pend_ptr, const int64_t *pend_len, int64_t j) {
    r->key = key + j * MT_N;
    r->out = out + j * MT_N;
    r->pos = pos[j];
    r->pend = pend_ptr ? (const uint32_t *)(uintptr_t)pend_ptr[j] : NULL;
    r->plen = (pend_ptr && r->pend) ? pend_len[j] : 0;
    r->pi = 0;
}

/* ---- libstdc++ distributions ---------------------------------------------------- */

static inline float canon_f(reader *r) {
    float v = (float)next_draw(r) / 4294967296.0f;
    return v >= 1.0f ? 0x1.fffffep-1f : v;
}

static inline double canon_d(reader *r) {
    double lo = (double)next_draw(r);
    double hi = (double)next_draw(r);
    double v = (lo + hi * 4294967296.0) / 18446744073709551616.0;
    return v >= 1.0 ? 0x1.fffffffffffffp-1 : v;
}

static const double LOGF_TAB[16][2] = {
    {0x1.661ec79f8f3bep+0, -0x1.57bf7808caadep-2}, {0x1.571ed4aaf883dp+0, -0x1.2bef0a7c06ddbp-2},
    {0x1.49539f0f010bp+0, -0x1.01eae7f513a67p-2},  {0x1.3c995b0b80385p+0, -0x1.b31d8a68224e9p-3},
    {0x1.30d190c8864a5p+0, -0x1.6574f0ac07758p-3}, {0x1.25e227b0b8eap+0, -0x1.1aa2bc79c81p-3},
    {0x1.1bb4a4a1a343fp+0, -0x1.a4e76ce8c0e5ep-4}, {0x1.12358f08ae5bap+0, -0x1.1973c5a611cccp-4},
    {0x1.0953f419900a7p+0, -0x1.252f438e10c1ep-5}, {0x1p+0, 0x0p+0},
    {0x1.e608cfd9a47acp-1, 0x1.aa5aa5df25984p-5},  {0x1.ca4b31f026aap-1, 0x1.c5e53aa362eb4p-4},
    {0x1.b2036576afce6p-1, 0x1.526e57720db08p-3}, {0x1.9c2d163a1aa2dp-1, 0x1.bc2860d22477p-3},
    {0x1.886e6037841edp-1, 0x1.1058bc8a07ee1p-2}, {0x1.767dcf5534862p-1, 0x1.4043057b6ee09p-2},
};

/* glibc's logf of a positive normal float (r2 of an accepted polar pair is one) */
static inline float logf_glibc(float x) {
    if (x == 1.0f) return 0.0f;
    uint32_t ix, iz, tmp;
    memcpy(&ix, &x, 4);
    tmp = ix - 0x3f330000u;
    int i = (int)((tmp >> 19) & 15u);
    int32_t k = (int32_t)tmp >> 23;
    iz = ix - (tmp & (0x1ffu << 23));
    float z;
    memcpy(&z, &iz, 4);
    double r = (double)z * LOGF_TAB[i][0] - 1.0;
    double y0 = LOGF_TAB[i][1] + (double)k * 0x1.62e42fefa39efp-1;
    double r2 = r * r;
    double y = -0x1.00ea348b88334p-2 * r2 + (0x1.5575b0be00b6ap-2 * r + -0x1.ffffef20a4123p-2);
    y = y * r2 + (y0 + r);
    return (float)y;
}

/* one accepted polar pair: *yv, *xv are the multiplied values (second, first) */
static inline void polar_f(reader *r, float *yv, float *xv) {
    for (;;) {
        float x = 2.0f * canon_f(r) - 1.0f;
        float y = 2.0f * canon_f(r) - 1.0f;
        float r2 = x * x + y * y;
        if (r2 <= 1.0f && r2 != 0.0f) {
            float mult = sqrtf(-2.0f * logf_glibc(r2) / r2);
            *yv = y * mult;
            if (xv) *xv = x * mult;
            return;
        }
    }
}

static inline double polar_d(reader *r) {
    for (;;) {
        double x = 2.0 * canon_d(r) - 1.0;
        double y = 2.0 * canon_d(r) - 1.0;
        double r2 = x * x + y * y;
        if (r2 <= 1.0 && r2 != 0.0) return y * sqrt(-2.0 * log(r2) / r2);
    }
}

/* ---- the parallel samplers -------------------------------------------------------- */

enum { RAW = 0, UNI_F = 1, UNI_D = 2, NORM_F = 3, NORM_D = 4, MASK_F = 5, MASK_D = 6 };

/* outputs [i0, i1) of one engine */
static void fill_range(reader *r, int kind, void *dst, int64_t i0, int64_t i1, double a,
                       double b, int64_t flags) {
    int affine = (int)(flags & 1);
    switch (kind) {
    case RAW: { /* a = draws per output */
        uint32_t *o = (uint32_t *)dst;
        int64_t per = (int64_t)a;
        for (int64_t i = i0 * per; i < i1 * per; ++i) o[i] = next_draw(r);
        break;
    }
    case UNI_F: {
        float *o = (float *)dst, lo = (float)a, d = (float)b - (float)a;
        for (int64_t i = i0; i < i1; ++i) {
            float u = canon_f(r);
            o[i] = affine ? lo + d * u : u;
        }
        break;
    }
    case UNI_D: {
        double *o = (double *)dst, d = b - a;
        for (int64_t i = i0; i < i1; ++i) {
            double u = canon_d(r);
            o[i] = affine ? a + d * u : u;
        }
        break;
    }
    case NORM_F: {
        float *o = (float *)dst, mu = (float)a, sigma = (float)b;
        for (int64_t i = i0; i < i1; ++i) {
            float z;
            polar_f(r, &z, NULL);
            o[i] = affine ? z * sigma + mu : z;
        }
        break;
    }
    case NORM_D: {
        double *o = (double *)dst;
        for (int64_t i = i0; i < i1; ++i) {
            double z = polar_d(r);
            o[i] = affine ? z * b + a : z;
        }
        break;
    }
    case MASK_F:
    case MASK_D: { /* a = keep probability, b = scale (floats); flags & 2: strict compare */
        float *o = (float *)dst, pk = (float)a, sc = (float)b;
        int strict = (int)(flags & 2);
        for (int64_t i = i0; i < i1; ++i) {
            float u = kind == MASK_F ? canon_f(r) : (float)canon_d(r);
            int kept = strict ? u < pk : u <= pk;
            o[i] = (float)kept * sc;
        }
        break;
    }
    }
}

/* n outputs of the given kind from the parallel engines into dst. pend_ptr/pend_len (may be
 * NULL): per engine, the address and length of its handed-back draws; on return
 * pend_len[j] holds how many of them were read. */
void mxng_rng_fill(uint32_t *key, uint32_t *out, int64_t *pos, const uint64_t *pend_ptr,
                   int64_t *pend_len, int64_t n, int64_t kind, void *dst, double a, double b,
                   int64_t flags, int64_t nthr) {
    if (n <= 0) return;
    int64_t workers = (n + MIN_PER_WORKER - 1) / MIN_PER_WORKER;
    if (workers > NSTATES) workers = NSTATES;
    int64_t step = (n + workers - 1) / workers;
    if (nthr < 1) nthr = 1;
#pragma omp parallel for schedule(static) num_threads((int)nthr) if (workers > 4 && nthr > 1)
    for (int64_t j = 0; j < workers; ++j) {
        int64_t i0 = j * step, i1 = i0 + step < n ? i0 + step : n;
        if (i0 >= i1) continue;
        reader r;
        open_reader(&r, key, out, pos, pend_ptr, pend_len, j);
        fill_range(&r, (int)kind, dst, i0, i1, a, b, flags);
        pos[j] = r.pos;
        if (pend_ptr) pend_len[j] = r.pi;
    }
}

/* The NumPy-interface engine (row 0): kind 0, n float32 uniforms on [0, 1); kind 1, n float32
 * standard normals, both values of each accepted pair (second, then first), the unused half
 * of a last pair dropped. pend/pend_len: its handed-back draws (pend may be NULL); on return
 * *pend_len holds how many were read. */
void mxng_rng_np(uint32_t *key, uint32_t *out, int64_t *pos, const uint32_t *pend,
                 int64_t *pend_len, int64_t n, int64_t kind, float *dst) {
    reader r;
    r.key = key;
    r.out = out;
    r.pos = pos[0];
    r.pend = pend;
    r.plen = pend ? *pend_len : 0;
    r.pi = 0;
    if (kind == 0) {
        for (int64_t i = 0; i < n; ++i) dst[i] = canon_f(&r);
    } else {
        for (int64_t i = 0; i < n; i += 2) {
            float yv, xv;
            polar_f(&r, &yv, &xv);
            dst[i] = yv;
            if (i + 1 < n) dst[i + 1] = xv;
        }
    }
    pos[0] = r.pos;
    *pend_len = r.pi;
}
