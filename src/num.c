/*
 * num.c - exact, locale-independent number parsing and formatting.
 *
 * Parsing decimal to double (mote_num_parse_f64): one pass scans the span
 * (digits eight at a time in the speed build) into w, the first 19
 * significant digits, and q, with value ~ w * 10^q; then, in order of cost:
 *   1. Clinger: at most 19 significant digits, w <= 2^53 and |q| <= 22: one
 *      IEEE multiply or divide of two exact doubles is correctly rounded.
 *      Only where FLT_EVAL_METHOD == 0 (no x87 excess precision).
 *   2. Eisel-Lemire (D. Lemire, "Number Parsing at a Gigabyte per Second",
 *      2021; fast_round): at most 19 digits and a normal result: w times
 *      the 128-bit truncated power of five T(q) bounds the value within two
 *      units of the product's top 128 bits; unless that interval touches a
 *      halfway point, its top 53 bits rounded are the result. Nearly every
 *      input ends here or in 1.
 *   3. Exact integer: w * 5^q fits in 128 bits for 0 <= q <= 27, so the value
 *      (w * 5^q) * 2^q is rounded exactly in integer arithmetic.
 *   4. Interval, as 2 but for subnormal results too, and with more than 19
 *      digits the value lying between w * 10^q and (w + 1) * 10^q: both
 *      ends must round alike. Soundness needs only that the interval is a
 *      true bound, which is easy to check (see round_interval).
 *   5. Exact slow path, always correct: from a candidate within an ulp or
 *      two, compare the input digits with the exact decimal expansion of the
 *      halfway point between neighbouring doubles (a dyadic rational, so its
 *      expansion is finite: at most 1075 + 309 digits) and step the
 *      candidate. The expansion is produced nine digits at a time from a
 *      fixed 36-limb integer, so inputs of any length need O(length) time
 *      and under 200 bytes of stack.
 *
 * Shortest digits (mote_num_f64_digits): Schubfach (R. Giulietti, "The
 * Schubfach way to render doubles", 2020), implemented from the paper: three
 * round-to-odd products with a 126-bit g ~ 10^-k give the shortest decimal in
 * the rounding interval, closest to v, ties to even digit.
 *
 * Tables: both algorithms use T(e) = floor(5^e / 2^s), normalized to
 * [2^127, 2^128), for -343 <= e <= 324. MOTE_NUM_SMALL (default: MOTE_SMALL
 * from mote/common.h) selects the code:
 *   0: a generated 668-entry table (10.7 KiB of .rodata, src/num_pow5.inc,
 *      made by scripts/gen_num_pow5.py); all five parse steps; digits
 *      formatted eight at a time (mote__num_digits8, mote_private.h);
 *      fastest.
 *   1: each entry computed when needed with exact multi-precision arithmetic
 *      (up to ~30 short multiplications/divisions over <= 30 32-bit limbs,
 *      120 bytes of stack); parsing skips steps 1-4 and goes from a
 *      truncated candidate straight to step 5; digits are emitted one by
 *      one; no 64-bit division. For microcontrollers (~4 KiB on M4).
 * Both give identical results (tests/test_num.c and fuzz/fuzz_num_float.c
 * compile a second, small copy and compare every result).
 *
 * Integer code avoids 64-bit division (divisions by 10 are multiplications),
 * so int parsing/formatting pulls no libgcc division helper on Cortex-M0+.
 * The float paths use doubles (soft-float on cores without a double FPU) and
 * the slow path divides 64-bit values by 10^9; they are linked only by
 * callers of the f64 functions (-ffunction-sections).
 */
#include "mote/num.h"

#include <float.h>
#include <string.h>

#include "mote_private.h"

/* follows the library-wide MOTE_SMALL (mote/common.h) unless set */
#ifndef MOTE_NUM_SMALL
#define MOTE_NUM_SMALL MOTE_SMALL
#endif

#define F64_INF_BITS UINT64_C(0x7FF0000000000000)
#define F64_SIGN_BIT UINT64_C(0x8000000000000000)
#define F64_FRAC_MASK UINT64_C(0x000FFFFFFFFFFFFF)
#define F64_HIDDEN UINT64_C(0x0010000000000000)

/* Range of T(e): decimal exponents reachable from 19-digit parse inputs
 * (E - 19 >= -343) and from Schubfach's 10^-k (-292 <= -k <= 324). */
#define POW5_MIN (-343)
#define POW5_MAX 324

/* MOTE_NOINLINE (mote_private.h) keeps a helper's locals out of its
 * caller's frame where that lowers the deepest stack (the slow path must stay
 * well under 512 bytes). */

/* Under MOTE_SMALL, MOTE_SMALL_NOINLINE helpers measured smaller out of
 * line on Cortex-M4; MOTE_FAST_NOINLINE: out of line in the speed build only
 * (its frame kept apart there, the call saved in the small build, which has
 * one caller). */

typedef struct u128 {
    uint64_t hi, lo;
} u128;

/* ------------------------------------------------------------------ */
/* small integer helpers                                                */

/* a * b in full (mote_private.h) */
static u128 mul64(uint64_t a, uint64_t b)
{
    u128 r;
    r.hi = mote__mul64(a, b, &r.lo);
    return r;
}

MOTE_SMALL_NOINLINE static int clz64(uint64_t x) { return x ? (int)mote__clz64(x) : 64; }

/* x / 10 for any uint64 without a division instruction or helper. */
MOTE_SMALL_NOINLINE static uint64_t div10(uint64_t x)
{
    return mul64(x, UINT64_C(0xCCCCCCCCCCCCCCCD)).hi >> 3;
}

/* floor(x / 2^s) for signed x, independent of how >> treats negatives. */
MOTE_SMALL_NOINLINE static int floor_shr(int32_t x, int s)
{
#if MOTE_NUM_SMALL
    if (x >= 0) return x >> s;
    return -((-x + (((int32_t)1 << s) - 1)) >> s);
#else
    /* without a branch: shifted while made positive by 2^32 */
    return (int)((((int64_t)x + (INT64_C(1) << 32)) >> s) - (INT64_C(1) << (32 - s)));
#endif
}

/* floor(e * log2(5)); exact for |e| <= 400 (checked by the generator). */
MOTE_SMALL_NOINLINE static int floor_log2_pow5(int e) { return floor_shr((int32_t)e * 152170, 16); }

/* 5^e for 0 <= e <= 27 */
#if MOTE_NUM_SMALL
static uint64_t pow5_u64(int e)
{
    uint64_t r = 1;
    while (e-- > 0) r *= 5;
    return r;
}
#else
static const uint64_t pow5_u64_tab[28] = {
    UINT64_C(1), UINT64_C(5), UINT64_C(25), UINT64_C(125), UINT64_C(625),
    UINT64_C(3125), UINT64_C(15625), UINT64_C(78125), UINT64_C(390625),
    UINT64_C(1953125), UINT64_C(9765625), UINT64_C(48828125),
    UINT64_C(244140625), UINT64_C(1220703125), UINT64_C(6103515625),
    UINT64_C(30517578125), UINT64_C(152587890625), UINT64_C(762939453125),
    UINT64_C(3814697265625), UINT64_C(19073486328125), UINT64_C(95367431640625),
    UINT64_C(476837158203125), UINT64_C(2384185791015625),
    UINT64_C(11920928955078125), UINT64_C(59604644775390625),
    UINT64_C(298023223876953125), UINT64_C(1490116119384765625),
    UINT64_C(7450580596923828125),
};
static uint64_t pow5_u64(int e) { return pow5_u64_tab[e]; }
#endif

/* ------------------------------------------------------------------ */
/* T(e) = floor(5^e / 2^s) in [2^127, 2^128), s = floor(e log2 5) - 127 */

#if MOTE_NUM_SMALL
#define BIG_LIMBS 30 /* 960 bits: 2^924 for e = -343, 5^324 < 2^753 */

/* 32 bits of the little-endian limb integer d[0..n) starting at bit pos
 * (pos may be negative: bits below 0 read as zero). */
static uint32_t big_bits32(const uint32_t *d, int n, int pos)
{
    if (pos < 0) {
        if (pos <= -32) return 0;
        return d[0] << -pos;
    }
    int i = pos >> 5, b = pos & 31;
    uint32_t lo = i < n ? d[i] : 0, hi = i + 1 < n ? d[i + 1] : 0;
    return b ? (lo >> b) | (hi << (32 - b)) : lo;
}

static u128 pow5_128(int e)
{
    uint32_t d[BIG_LIMBS];
    int n;
    if (e >= 0) {
        d[0] = 1;
        n = 1;
        for (int r = e; r > 0;) {
            int step = r > 13 ? 13 : r; /* 5^13 < 2^32 */
            uint64_t m = pow5_u64(step), carry = 0;
            r -= step;
            for (int i = 0; i < n; i++) {
                carry += (uint64_t)d[i] * m;
                d[i] = (uint32_t)carry;
                carry >>= 32;
            }
            if (carry) d[n++] = (uint32_t)carry;
        }
    } else {
        /* floor(2^N / 5^m) with N = 127 + bitlen(5^m) lies in [2^127, 2^128),
         * and floor(floor(x / a) / b) = floor(x / ab) lets us divide by 5^6
         * at a time. 5^6 < 2^14 keeps each partial dividend (rem < 2^14,
         * shifted by a 16-bit half limb) below 2^30, so only 32-bit division
         * is needed: on Cortex-M0+ a 64-bit division pulls __aeabi_uldivmod
         * and its stack into every float parse/format. */
        int m = -e, nbits = 127 + floor_log2_pow5(m) + 1;
        n = nbits / 32 + 1;
        memset(d, 0, sizeof d);
        d[nbits / 32] = (uint32_t)1 << (nbits % 32);
        for (int r = m; r > 0;) {
            int step = r > 6 ? 6 : r;
            uint32_t dv = (uint32_t)pow5_u64(step);
            uint32_t rem = 0;
            r -= step;
            for (int i = n - 1; i >= 0; i--) {
                uint32_t hi = (rem << 16) | (d[i] >> 16);
                uint32_t qh = hi / dv;
                uint32_t lo = ((hi - qh * dv) << 16) | (d[i] & 0xFFFFu);
                uint32_t ql = lo / dv;
                rem = lo - ql * dv;
                d[i] = (qh << 16) | ql;
            }
            while (n > 1 && d[n - 1] == 0) n--;
        }
    }
    int len = 32 * (n - 1) + (64 - clz64(d[n - 1]));
    int sh = len - 128;
    u128 t;
    t.hi = ((uint64_t)big_bits32(d, n, sh + 96) << 32) | big_bits32(d, n, sh + 64);
    t.lo = ((uint64_t)big_bits32(d, n, sh + 32) << 32) | big_bits32(d, n, sh);
    return t;
}
#else
static const uint64_t pow5_table[POW5_MAX - POW5_MIN + 1][2] = {
#include "num_pow5.inc"
};

static u128 pow5_128(int e)
{
    u128 t;
    t.hi = pow5_table[e - POW5_MIN][0];
    t.lo = pow5_table[e - POW5_MIN][1];
    return t;
}
#endif

/* ------------------------------------------------------------------ */
/* integers                                                             */

#if MOTE_NUM_SMALL /* speed builds: mote__num_mantissa (mote_private.h) */
static bool is_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }
#endif

/* The integer core is mote_private.h's (lp.c inlines the same code). */
mote_err mote_num_parse_u64(const uint8_t *s, size_t n, uint64_t *out)
{
    return mote__num_digits(s, n, out);
}

mote_err mote_num_parse_size(const uint8_t *s, size_t n, size_t *out)
{
    unsigned shift = 0;
    if (n > 1) {
        uint8_t c = s[n - 1] | 0x20; /* lower case for letters */
        shift = c == 'k' ? 10 : c == 'm' ? 20 : c == 'g' ? 30 : 0;
        if (shift) n--;
    }
    uint64_t v;
    mote_err e = mote_num_parse_u64(s, n, &v);
    if (e) return e;
    if (v > (uint64_t)SIZE_MAX >> shift) return MOTE_ERR_RANGE;
    *out = (size_t)(v << shift);
    return MOTE_OK;
}

mote_err mote_num_parse_i64(const uint8_t *s, size_t n, int64_t *out)
{
    return mote__num_i64(s, n, true, false, out);
}

/* ------------------------------------------------------------------ */
/* rounding a 128-bit scaled value to a double                          */

#if !MOTE_NUM_SMALL
static u128 shl128(u128 x, int s)
{
    if (s == 0) return x;
    if (s >= 64) { x.hi = x.lo << (s - 64); x.lo = 0; return x; }
    x.hi = (x.hi << s) | (x.lo >> (64 - s));
    x.lo <<= s;
    return x;
}

static int cmp128(u128 a, u128 b)
{
    if (a.hi != b.hi) return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo) return a.lo < b.lo ? -1 : 1;
    return 0;
}

/*
 * The value lies in [m, m + delta] * 2^e2 with m's top bit at 127 (delta 0:
 * exactly m * 2^e2, ties to even). Sets *bits to the IEEE bits of the
 * nearest double (F64_INF_BITS or more on overflow) and returns true, or
 * returns false when the interval holds a rounding boundary (a halfway
 * point, or a tie we cannot see) and force is false. With force the lower
 * end is rounded: a candidate within an ulp, for the slow path.
 */
static bool round_interval(u128 m, int e2, uint64_t delta, bool force, uint64_t *bits)
{
    int top = e2 + 127;
    if (top > 1023) { *bits = F64_INF_BITS; return true; }
    int lsb = top - 52 < -1074 ? -1074 : top - 52;
    int shift = lsb - e2; /* bits of m below the result's last bit, >= 75 */
    if (shift > 127) {
        /* below 2^-1074: only the slow path decides between 0 and 2^-1074 */
        *bits = 0;
        return force;
    }
    /* (75 to 127: the result's bits all lie in m.hi) */
    uint64_t mant = m.hi >> (shift - 64);
    u128 rem = m, one = {0, 1};
    rem.hi &= (UINT64_C(1) << (shift - 64)) - 1;
    u128 half = shl128(one, shift - 1), full = shl128(one, shift);
    bool up;
    if (delta == 0) {
        int c = cmp128(rem, half);
        up = c > 0 || (c == 0 && (mant & 1));
    } else {
        u128 top_rem = rem;
        top_rem.lo += delta;
        top_rem.hi += top_rem.lo < delta;
        if (cmp128(top_rem, half) < 0) {
            up = false;
        } else if (cmp128(rem, half) > 0 && cmp128(top_rem, full) < 0) {
            up = true;
        } else {
            if (!force) return false;
            up = cmp128(rem, half) > 0;
        }
    }
    *bits = ((uint64_t)(lsb + 1074) << 52) + mant + (up ? 1 : 0);
    return true;
}
#endif

/* ------------------------------------------------------------------ */
/* exact slow path                                                      */

/* Cursor over the significant digits of the input mantissa (skips '.'). */
typedef struct digit_cursor {
    const uint8_t *p, *end;
} digit_cursor;

static int cursor_next(digit_cursor *c)
{
    if (c->p < c->end && *c->p == '.') c->p++;
    if (c->p >= c->end) return -1;
    return *c->p++ - '0';
}

/*
 * Decimal digits of the halfway point H = M * 2^K (M odd, < 2^55) most
 * significant first, nine at a time. K >= 0: H as base-10^9 limbs. K < 0:
 * the integer part M >> -K (< 2^55) then the fraction F / 2^j (j = -K),
 * multiplied by 10^9 per chunk; F < 2^j fits 36 limbs for j <= 1076.
 */
#define HG_LIMBS 36
typedef struct halfgen {
    /* The limbs last: the named fields then stay within a 16-bit Thumb
     * load/store's offset (Cortex-M). */
    bool frac_left;
    int n;    /* K >= 0: limbs in use; K < 0: limbs spanned by j + 30 bits */
    int j;    /* K < 0: fraction bits; -1 for K >= 0 */
    int next; /* K >= 0: next limb index to emit (counting down) */
    int pos, len;
    char buf[20];
    uint32_t d[HG_LIMBS];
} halfgen;

/* Digits of v < 10^9, zero-padded to width, into buf; returns the count.
 * 32-bit arithmetic only: the slow path's deepest call chain runs through
 * here, so it stays small on cores without a 64-bit multiplier (on
 * Cortex-M0+ a 64-bit multiply calls __aeabi_lmul, which costs more stack
 * than the 32-bit division helper). */
static int put_u32(char *buf, uint32_t v, int width)
{
    int n = 1;
    for (uint32_t p = 10; n < 9 && v >= p; p *= 10) n++;
    if (n < width) n = width;
    for (int i = n - 1; i >= 0; i--) {
        uint32_t q = v / 10; /* a multiply where the core has one; never a 64-bit helper */
        buf[i] = (char)('0' + (v - q * 10));
        v = q;
    }
    return n;
}

static bool halfgen_refill(halfgen *g)
{
    g->pos = g->len = 0; /* stays empty once the digits are exhausted */
    if (g->j < 0) {
        if (g->next < 0) return false;
        g->len = put_u32(g->buf, g->d[g->next], 9);
        g->next--;
        return true;
    }
    if (!g->frac_left) return false;
    uint64_t carry = 0;
    for (int i = 0; i < g->n; i++) {
        carry += (uint64_t)g->d[i] * 1000000000u;
        g->d[i] = (uint32_t)carry;
        carry >>= 32;
    }
    int wi = g->j >> 5, wb = g->j & 31;
    uint32_t chunk = wb ? (g->d[wi] >> wb) | (wi + 1 < g->n ? g->d[wi + 1] << (32 - wb) : 0)
                        : g->d[wi];
    g->d[wi] &= wb ? ((uint32_t)1 << wb) - 1 : 0;
    for (int i = wi + 1; i < g->n; i++) g->d[i] = 0;
    bool any = false;
    for (int i = 0; i <= wi && !any; i++) any = g->d[i] != 0;
    g->frac_left = any;
    g->len = put_u32(g->buf, chunk, 9);
    return true;
}

static int halfgen_next(halfgen *g)
{
    if (g->pos == g->len && !halfgen_refill(g)) return -1;
    return g->buf[g->pos++] - '0';
}

#if MOTE_NUM_SMALL
/* d[0..n) = x * 2^k in base-10^9 limbs (little-endian); returns n. One
 * doubling per bit instead of division: a 64-bit division would link
 * __aeabi_uldivmod (~500-700 bytes) into every float parse on Cortex-M. */
static int to_base1e9(uint32_t *d, uint64_t x, int k)
{
    int n = 1;
    d[0] = 0;
    for (int b = 0; b < 64 + k; b++) {
        uint32_t c = (uint32_t)(x >> 63);
        x <<= 1;
        for (int i = 0; i < n; i++) {
            uint32_t v = 2 * d[i] + c;
            c = v >= 1000000000u;
            d[i] = c ? v - 1000000000u : v;
        }
        if (c) d[n++] = 1;
    }
    return n;
}
#endif

/* Sets up the digits of the halfway point above the finite double with
 * bits b; returns its decimal exponent F: H = 0.h1h2... * 10^F, h1 != 0. */
MOTE_FAST_NOINLINE static int halfgen_init(halfgen *g, uint64_t b)
{
    uint64_t fexp = b >> 52, frac = b & F64_FRAC_MASK;
    uint64_t mm = fexp ? frac | F64_HIDDEN : frac;
    int e2 = fexp ? (int)fexp - 1075 : -1074;
    uint64_t M = 2 * mm + 1;
    int K = e2 - 1;
    g->pos = g->len = 0;
    if (K >= 0) {
        g->j = -1;
#if MOTE_NUM_SMALL
        g->n = to_base1e9(g->d, M, K);
#else
        /* M < 2^54 < 10^18: two base-10^9 limbs, then times 2^K, 2^29 at a time */
        uint64_t q9 = M / 1000000000u;
        g->d[0] = (uint32_t)(M - q9 * 1000000000u);
        g->d[1] = (uint32_t)q9;
        g->n = g->d[1] ? 2 : 1;
        for (int r = K; r > 0;) {
            int step = r > 29 ? 29 : r;
            uint64_t carry = 0;
            r -= step;
            for (int i = 0; i < g->n; i++) {
                carry += (uint64_t)g->d[i] << step;
                uint64_t q = carry / 1000000000u;
                g->d[i] = (uint32_t)(carry - q * 1000000000u);
                carry = q;
            }
            while (carry) {
                uint64_t q = carry / 1000000000u;
                g->d[g->n++] = (uint32_t)(carry - q * 1000000000u);
                carry = q;
            }
        }
#endif
        g->len = put_u32(g->buf, g->d[g->n - 1], 0);
        g->next = g->n - 2;
        return 9 * (g->n - 1) + g->len;
    }
    int j = -K;
    g->j = j;
    g->n = (j + 30) / 32 + 1;
    memset(g->d, 0, sizeof g->d);
    uint64_t ip = j < 64 ? M >> j : 0;
    uint64_t fr = j < 64 ? M & ((UINT64_C(1) << j) - 1) : M;
    g->d[0] = (uint32_t)fr;
    g->d[1] = (uint32_t)(fr >> 32);
    g->frac_left = fr != 0;
    if (ip) {
        /* ip < 2^55 < 10^17: at most two nine-digit pieces */
#if MOTE_NUM_SMALL
        uint32_t t[3];
        uint32_t ih = to_base1e9(t, ip, 0) > 1 ? t[1] : 0, il = t[0];
#else
        uint64_t ih = ip / 1000000000u;
        uint32_t il = (uint32_t)(ip - ih * 1000000000u);
#endif
        g->len = ih ? put_u32(g->buf, (uint32_t)ih, 0) : 0;
        g->len += put_u32(g->buf + g->len, il, ih ? 9 : 0);
        return g->len;
    }
    int F = 0;
    for (;;) {
        int dg = halfgen_next(g);
        if (dg != 0) { g->pos--; break; }
        F--;
    }
    return F;
}

/* Sign of D - H(b): D = 0.(digits from sig) * 10^E, H(b) the halfway point
 * between the double with bits b and the next one up. */
static int cmp_halfway(const uint8_t *sig, const uint8_t *mend, int64_t E, uint64_t b)
{
    halfgen g;
    int F = halfgen_init(&g, b);
    if (E != F) return E > F ? 1 : -1;
    digit_cursor c = {sig, mend};
    for (;;) {
        int dd = cursor_next(&c), hd = halfgen_next(&g);
        if (dd < 0 && hd < 0) return 0;
        if (dd < 0) dd = 0;
        if (hd < 0) hd = 0;
        if (dd != hd) return dd > hd ? 1 : -1;
    }
}

/* ------------------------------------------------------------------ */
/* decimal to double                                                    */

/* Clinger's path is only a shortcut (the integer paths are exact for every
 * input); MOTE_NUM_SMALL leaves it and its soft-float calls out. */
#if FLT_EVAL_METHOD == 0 && !MOTE_NUM_SMALL
#define NUM_CLINGER 1
#else
#define NUM_CLINGER 0
#endif

#if NUM_CLINGER
static const double pow10_f64[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};
#endif

#if !MOTE_NUM_SMALL
/* w * 10^q (w != 0) scaled: the exact value lies in [m, m + *delta) *
 * 2^e2 (the return value) with m's top bit at 127. */
static int scale_w10q(uint64_t w, int q, u128 *mp, uint64_t *delta)
{
    u128 t = pow5_128(q);
    int s = floor_log2_pow5(q) - 127;
    int lz = clz64(w);
    uint64_t wn = w << lz;
    u128 a = mul64(wn, t.lo), b = mul64(wn, t.hi);
    u128 m;
    m.lo = a.hi + b.lo;
    m.hi = b.hi + (m.lo < a.hi);
    /* w*5^q*2^q lies in [m, m + 2) * 2^(s + q - lz + 64): the dropped low
     * word (< 1 unit) and T's truncation (< w / 2^64 < 1 unit). */
    int e2 = s + q - lz + 64;
    *delta = 2;
    if (!(m.hi >> 63)) {
        m = shl128(m, 1);
        m.lo |= a.lo >> 63;
        e2--;
        *delta = 4;
    }
    *mp = m;
    return e2;
}

/* Value w * 10^q (w != 0) as the interval of round_interval. */
static bool round_w10q(uint64_t w, int q, bool force, uint64_t *bits)
{
    u128 m;
    uint64_t delta;
    int e2 = scale_w10q(w, q, &m, &delta);
    return round_interval(m, e2, delta, force, bits);
}
#endif

/* What the slow path needs once the fast paths could not decide. */
typedef struct slow_input {
    const uint8_t *sig, *mend; /* significant digits (may include a '.') */
    int64_t E;                 /* D = 0.d1d2... * 10^E */
    uint64_t w;                /* first (up to) 19 significant digits */
    int q;                     /* D ~ w * 10^q */
    bool truncated;            /* digits beyond the 19 in w exist */
    bool neg;
    uint64_t bits;             /* candidate, within an ulp or two */
} slow_input;

/* The optional exponent at p, ( [eE] [+-]? digits )?, into *exp10 (0 if
 * absent); returns the position after it, or NULL for an 'e' without
 * digits. The value saturates at 10^17: far beyond any exponent that
 * matters, even after 10^17 leading zeros, and sums with digit counts still
 * fit int64 for any input that fits in memory. */
static const uint8_t *scan_exp(const uint8_t *p, const uint8_t *end, int64_t *exp10)
{
    bool neg = false;
    *exp10 = 0;
    if (p == end || (*p | 0x20) != 'e') return p;
    if (++p < end && (*p == '+' || *p == '-')) neg = *p++ == '-';
    uint64_t x = 0;
#if MOTE_NUM_SMALL
    /* a loop of its own: the integer core would link a second copy of it
     * into programs whose lp.c already inlines one */
    const uint8_t *e0 = p;
    for (; p < end && is_digit(*p); p++)
        if (x < UINT64_C(100000000000000000)) x = x * 10 + (unsigned)(*p - '0');
    if (p == e0) return NULL;
#else
    /* the digits must run to the end: through the integer core, 1 to 3
     * digits inline (its loop-free case), longer exponents through the
     * call, keeping the caller's frame small */
    size_t ne = (size_t)(end - p);
    mote_err e = ne - 1 < 3 ? mote__num_digits(p, ne, &x) : mote_num_parse_u64(p, ne, &x);
    if (e == MOTE_ERR_BAD_VALUE) return NULL;
    if (e != MOTE_OK || x > UINT64_C(100000000000000000)) x = UINT64_C(100000000000000000);
    p = end;
#endif
    *exp10 = neg ? -(int64_t)x : (int64_t)x;
    return p;
}

/* Stores bits (with the sign) in *out, or MOTE_ERR_RANGE past the largest. */
static mote_err store_f64(uint64_t bits, bool neg, double *out)
{
    if (bits >= F64_INF_BITS) return MOTE_ERR_RANGE;
    if (neg) bits |= F64_SIGN_BIT;
    memcpy(out, &bits, sizeof *out);
    return MOTE_OK;
}

#if MOTE_NUM_SMALL
/* MOTE_NUM_SMALL: no interval test, every value goes through the exact slow
 * path; the candidate is w * 10^q truncated to a double (a few ulps at most
 * below the result), found without the rounding code. Called at the end
 * of the scan, before the slow path starts (see parse_f64_scan). */
static void f64_candidate(slow_input *st)
{
    /* the top 64 bits of w * T's high word: below the value by less than
     * 2^-62 of it, which the slow path's stepping absorbs */
    int q = st->q, lz = clz64(st->w);
    uint64_t x = mul64(st->w << lz, pow5_128(q).hi).hi;
    int e2 = floor_log2_pow5(q) - 127 + q - lz + 128; /* value ~ x * 2^e2 */
    if (!(x >> 63)) {
        x <<= 1;
        e2--;
    }
    /* x's last bit sits at least 11 bits below the double's */
    int top = e2 + 63, lsb = top - 52 < -1074 ? -1074 : top - 52, shift = lsb - e2;
    if (top > 1023) st->bits = F64_INF_BITS;
    else if (shift > 63) st->bits = 0;
    else st->bits = ((uint64_t)(lsb + 1074) << 52) + (x >> shift);
}

/* Parses s (syntax, zero, out-of-range exponents); returns MOTE_OK or an
 * error when that decides, else MOTE_ERR_NEED_MORE with st filled for
 * the slow path, candidate included. The small build inlines it, and the
 * slow path, into mote_num_parse_f64 (196 bytes less on Cortex-M4 with
 * halfgen_init and schubfach_pick): the locals share one frame there, and
 * the 128-bit power computation and the slow path's big integers are
 * still called one after the other, not nested (Cortex-M0+: 512 bytes of
 * stack at most, reached by mote_lp_point_decode). */
MOTE_FAST_NOINLINE static mote_err parse_f64_scan(const uint8_t *s, size_t n, double *out,
                                                  slow_input *st)
{
    size_t i = 0;
    bool neg = false;
    if (n == 0 || s == NULL) return MOTE_ERR_BAD_VALUE;
    if (s[0] == '+' || s[0] == '-') {
        neg = s[0] == '-';
        i++;
    }
    /* One loop over the mantissa: the first 19 significant digits into w
     * (value ~ w * 10^dexp), later ones only set truncated and, before the
     * point, scale dexp. */
    size_t ndig = 0, sig0 = 0;
    uint64_t w = 0;
    int64_t dexp = 0;
    int nd = 0;
    bool truncated = false, point = false;
    for (; i < n; i++) {
        if (s[i] == '.' && !point) {
            point = true;
            continue;
        }
        if (!is_digit(s[i])) break;
        unsigned dg = (unsigned)(s[i] - '0');
        ndig++;
        if (nd < 19) {
            if (nd || dg) {
                if (!nd) sig0 = i;
                w = w * 10 + dg;
                nd++;
            }
            if (point) dexp--;
        } else {
            if (!point) dexp++;
            truncated |= dg != 0;
        }
    }
    const uint8_t *mend = s + i, *sig = s + sig0;
    if (ndig == 0) return MOTE_ERR_BAD_VALUE;
    int64_t exp10;
    if (scan_exp(mend, s + n, &exp10) != s + n) return MOTE_ERR_BAD_VALUE;
    /* D = 0.d1d2... * 10^E with d1 the first non-zero digit */
    int64_t E = dexp + exp10 + nd;
    if (nd && E > 309) return MOTE_ERR_RANGE; /* D >= 10^309 */
    /* a signed zero, or D < 10^-325, below half of 2^-1074: zero */
    if (!nd || E < -324) return store_f64(0, neg, out);
    st->sig = sig;
    st->mend = mend;
    st->E = E;
    st->w = w;
    st->q = (int)E - nd;
    st->truncated = truncated;
    st->neg = neg;
    f64_candidate(st);
    return MOTE_ERR_NEED_MORE;
}
#else
/* The mantissa's digits: mote__num_mantissa() (mote_private.h), which
 * mote__num_f64_plain, inlined into lp's decode loop, reads them with too. */

/* Mantissa m[0..mend) with more than 19 significant digits (syntax already
 * checked): the first 19 into *w, value ~ w * 10^*dexp; later digits only
 * set *truncated (if non-zero) and, before the point, scale *dexp. */
static void scan_long(const uint8_t *m, const uint8_t *mend, uint64_t *w, int64_t *dexp,
                      bool *truncated)
{
    int nd = 0;
    bool after_point = false;
    *w = 0;
    *dexp = 0;
    *truncated = false;
    for (; m < mend; m++) {
        if (*m == '.') {
            after_point = true;
            continue;
        }
        unsigned dg = (unsigned)(*m - '0');
        if (nd < 19) {
            if (nd || dg) {
                *w = *w * 10 + dg;
                nd++;
            }
            if (after_point) --*dexp;
        } else {
            if (!after_point) ++*dexp;
            *truncated |= dg != 0;
        }
    }
}

/*
 * Eisel-Lemire (D. Lemire, "Number Parsing at a Gigabyte per Second",
 * 2021), for results in the normal range. w * T(q) is a 192-bit product;
 * the exact value w * 10^q lies within [m, m + 2) units of the low word of
 * its top 128 bits m = hi:lo (the dropped low word and T's truncation are
 * each below one unit). The top 53 bits of hi are the candidate; the bits
 * below decide the rounding unless the interval touches the halfway point:
 * then false, and the caller falls back to the exact paths. Exact ties
 * (w * 10^q halfway between two doubles) always land there. Usually the
 * product with T's high word alone decides: its error is below one unit of
 * hi, which matters only when the bits below the mantissa are within one of
 * the halfway point. w != 0, POW5_MIN <= q <= POW5_MAX.
 */
static MOTE_INLINE bool fast_round(uint64_t w, int q, uint64_t *bits)
{
    int lz = clz64(w);
    uint64_t wn = w << lz;
    u128 t = pow5_128(q);
    u128 b = mul64(wn, t.hi);
    uint64_t lo = b.lo, hi = b.hi;
    /* hi >= 2^62: the mantissa's last bit is bit sh of hi */
    int sh = 10 + (int)(hi >> 63);
    uint64_t half = UINT64_C(1) << (sh - 1);
    uint64_t r = hi & ((half << 1) - 1);
    if (MOTE_UNLIKELY(r - (half - 1) <= 1)) {
        /* r is half - 1 or half: the low product's carry may matter (it
         * cannot reach bit 63: r would be all ones) */
        u128 a = mul64(wn, t.lo);
        lo += a.hi;
        hi += lo < a.hi;
        r = hi & ((half << 1) - 1);
        if ((r == half && lo == 0) || (r == half - 1 && lo == UINT64_MAX)) return false;
    }
    /* value = mant * 2^lsb (+ rounding), from T(q) = 5^q / 2^s and 2^q */
    int lsb = floor_log2_pow5(q) + q - lz + 1 + sh;
    if (lsb < -1074 || lsb > 971) return false; /* subnormal or overflow */
    /* a carry out of the 53 bits steps the exponent, up to infinity */
    *bits = ((uint64_t)(lsb + 1074) << 52) + (hi >> sh) + (r >= half);
    return true;
}
#endif

#if !MOTE_NUM_SMALL
/* Exact 128-bit product for small exponents, then the interval path; returns
 * MOTE_OK/MOTE_ERR_RANGE when decided, else MOTE_ERR_NEED_MORE with
 * st->bits the candidate for the slow path. */
MOTE_NOINLINE static mote_err parse_f64_round(slow_input *st, double *out)
{
    uint64_t bits, w = st->w;
    int q = st->q;
    if (!st->truncated && q >= 0 && q <= 27) {
        u128 p = mul64(w, pow5_u64(q));
        int lz = p.hi ? clz64(p.hi) : 64 + clz64(p.lo);
        (void)round_interval(shl128(p, lz), q - lz, 0, true, &bits);
        return store_f64(bits, st->neg, out);
    }
    if (round_w10q(w, q, false, &bits)) {
        uint64_t bits_up;
        if (!st->truncated) return store_f64(bits, st->neg, out);
        if (round_w10q(w + 1, q, false, &bits_up) && bits_up == bits)
            return store_f64(bits, st->neg, out);
    }
    (void)round_w10q(w, q, true, &bits);
    st->bits = bits;
    return MOTE_ERR_NEED_MORE;
}
#endif

/* Slow path: bits is within an ulp or two; step until
 * H(bits - 1) <= D <= H(bits) with ties to the even neighbour. */
MOTE_FAST_NOINLINE static mote_err parse_f64_slow(const slow_input *st, double *out)
{
    uint64_t bits = st->bits;
    if (bits > F64_INF_BITS) bits = F64_INF_BITS;
    while (bits < F64_INF_BITS) {
        int r = cmp_halfway(st->sig, st->mend, st->E, bits);
        if (r < 0 || (r == 0 && !(bits & 1))) break;
        bits++;
    }
    while (bits > 0) {
        int r = cmp_halfway(st->sig, st->mend, st->E, bits - 1);
        if (r > 0 || (r == 0 && !(bits & 1))) break;
        bits--;
    }
    return store_f64(bits, st->neg, out);
}

#if MOTE_NUM_SMALL
mote_err mote_num_parse_f64(const uint8_t *s, size_t n, double *out)
{
    slow_input st;
    mote_err e = parse_f64_scan(s, n, out, &st);
    if (e == MOTE_ERR_NEED_MORE) e = parse_f64_slow(&st, out);
    return e;
}
#else
/* What the fast paths left, value ~ w * 10^q (w != 0) from the mantissa
 * m0[0..mend): range checks, the exact-integer and interval paths, then the
 * exact slow path, each a sibling call. */
MOTE_NOINLINE static mote_err parse_f64_rest(const uint8_t *m0, const uint8_t *mend, uint64_t w,
                                             int64_t q, bool truncated, bool neg, double *out)
{
    slow_input st;
    int nd = 19; /* digits in w */
    if (!truncated)
        for (nd = 1; nd < 19 && w >= (pow5_u64(nd) << nd); nd++) {}
    /* D = 0.d1d2... * 10^E with d1 the first non-zero digit */
    int64_t E = q + nd;
    if (E > 309) return MOTE_ERR_RANGE;           /* D >= 10^309 */
    if (E < -324) return store_f64(0, neg, out);  /* below half of 2^-1074: zero */
    while (*m0 == '0' || *m0 == '.') m0++;        /* w != 0: stops at a digit */
    st.sig = m0;
    st.mend = mend;
    st.E = E;
    st.w = w;
    st.q = (int)q;
    st.truncated = truncated;
    st.neg = neg;
    mote_err e = parse_f64_round(&st, out);
    if (e == MOTE_ERR_NEED_MORE) e = parse_f64_slow(&st, out);
    return e;
}

/* A mantissa of more than 19 digits (value ~ w * 10^q if the digits past
 * leading zeros are at most 19, else w wrapped): not a fast path's case. */
MOTE_NOINLINE static mote_err parse_f64_long(const uint8_t *m0, const uint8_t *mend, uint64_t w,
                                             int64_t q, int64_t exp10, bool neg, double *out)
{
    bool truncated = false;
    size_t zeros = 0, ndig = 0;
    for (const uint8_t *z = m0; z < mend; z++) ndig += *z != '.';
    for (const uint8_t *z = m0; z < mend && (*z == '0' || *z == '.'); z++) zeros += *z == '0';
    if (ndig - zeros > 19) {
        int64_t dexp;
        scan_long(m0, mend, &w, &dexp, &truncated);
        q = dexp + exp10;
    }
    if (w == 0) return store_f64(0, neg, out); /* a signed zero */
    return parse_f64_rest(m0, mend, w, q, truncated, neg, out);
}

/* One pass over the input: the mantissa's digits into w (eight at a time),
 * the exponent; then Clinger's exact case, Eisel-Lemire, and only if those
 * cannot decide, parse_f64_rest. */
mote_err mote_num_parse_f64(const uint8_t *s, size_t n, double *out)
{
    if (n == 0 || s == NULL) return MOTE_ERR_BAD_VALUE;
    const uint8_t *p = s, *end = s + n;
    bool neg = *p == '-';
    if (neg || *p == '+') p++;
    const uint8_t *m0 = p;
    uint64_t w = 0;
    size_t ndig, nfrac;
    p = mote__num_mantissa(p, end, &w, &ndig, &nfrac);
    const uint8_t *mend = p;
    int64_t exp10;
    if (ndig == 0 || scan_exp(mend, end, &exp10) != end) return MOTE_ERR_BAD_VALUE;
    int64_t q = exp10 - (int64_t)nfrac;
    if (MOTE_UNLIKELY(ndig > 19)) return parse_f64_long(m0, mend, w, q, exp10, neg, out);
    if (w == 0) return store_f64(0, neg, out); /* a signed zero */
#if NUM_CLINGER
    if (w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
        double d = (double)w;
        d = q < 0 ? d / pow10_f64[-q] : d * pow10_f64[q];
        *out = neg ? -d : d;
        return MOTE_OK;
    }
#endif
    uint64_t bits;
    if (q >= -342 && q <= 308 && fast_round(w, (int)q, &bits)) return store_f64(bits, neg, out);
    return parse_f64_rest(m0, mend, w, q, false, neg, out);
}

/* mote_num_parse_f64() with plain decimals first, as lp.c's float fields
 * read them (mote__num_f64_plain, mote_private.h, inlined there): out of
 * line here for callers without that header and for test_num, which
 * checks it against the full parser. */
mote_err mote__num_parse_f64_plain(const uint8_t *s, size_t n, double *out)
{
    return mote__num_f64_plain_first(s, n, out);
}
#endif

/* ------------------------------------------------------------------ */
/* shortest digits: Schubfach                                           */

/* floor(q log10 2), floor(log10(3/4 2^q)), floor(e log2 10): exact over
 * the ranges used (checked by scripts/gen_num_pow5.py). */
static int flog10_pow2(int q) { return floor_shr((int32_t)q * 78913, 18); }
static int flog10_three_quarters_pow2(int q) { return floor_shr((int32_t)q * 1262611 - 524031, 22); }
static int flog2_pow10(int e) { return floor_log2_pow5(e) + e; }

/* Schubfach's rop: g * cp / 2^127 rounded to odd (cp = c * 2^h), computed as the paper
 * prescribes with g split into 63-bit halves g1:g0. The parts below the
 * 63 bits after the point (g0*cp's low word, y0's low bit) are left out on
 * purpose: g overestimates 10^-k by up to one unit and that excess must not
 * reach the sticky bit (an exact round-to-odd of g*cp gets exact ties such
 * as 2^-25 = 2.98023223876953125e-08 wrong). */
MOTE_SMALL_NOINLINE static uint64_t rop(const u128 *gp, uint64_t c, int h)
{
    const u128 g = *gp;
    const uint64_t cp = c << h;
    const uint64_t mask63 = (UINT64_C(1) << 63) - 1;
    uint64_t g1 = (g.hi << 1) | (g.lo >> 63), g0 = g.lo & mask63;
    uint64_t x1 = mul64(g0, cp).hi;
    u128 y = mul64(g1, cp);
    uint64_t z = (y.lo >> 1) + x1;
    uint64_t vbp = y.hi + (z >> 63);
    return vbp | (((z & mask63) + mask63) >> 63);
}

/* Schubfach's choice among the candidates, given the interval's ends vbl,
 * vbr and v itself (vb), all scaled by 4 and rounded to odd; out is 1 when
 * the ends are excluded. Inlined into mote_num_f64_digits in both builds:
 * 42 bytes less on Cortex-M4 than out of line, and the Cortex-M0+ format
 * path still fits 512 bytes of stack (exactly 512 for mote_lp_write_float;
 * cross/ test stack-budget). */
static uint64_t schubfach_pick(uint64_t vbl, uint64_t vb, uint64_t vbr, unsigned out)
{
    uint64_t s = vb >> 2;
    /* First (if s >= 10) the multiples of ten around v, one digit fewer
     * (Java's Double.toString tests s >= 100 because it wants two
     * digits), then s and s + 1: when exactly one candidate of the pair
     * is in the interval, it is the answer. */
    for (int step = s >= 10 ? 10 : 1;; step = 1) {
        uint64_t lo = step == 10 ? 10 * div10(s) : s, hi = lo + (unsigned)step;
        bool loin = vbl + out <= lo << 2;
        bool hiin = (hi << 2) + out <= vbr;
        if (loin != hiin) return loin ? lo : hi;
        if (step == 1) break;
    }
    /* both s and s + 1 in the interval: the closer one, ties to even */
    uint64_t mid2 = (2 * s + 1) << 1;
    return vb < mid2 || (vb == mid2 && !(s & 1)) ? s : s + 1;
}

/* The shortest decimal f * 10^*k that rounds to the finite, non-zero double
 * with bits b (sign bit clear), closest to it, ties to even; 1 <= f <= 10^17
 * (trailing zeros possible: the caller strips them). */
static uint64_t shortest(uint64_t b, int *kp)
{
    uint64_t fe = b >> 52, c = b & F64_FRAC_MASK;
    int q, k;
    if (fe) {
        c |= F64_HIDDEN;
        q = (int)fe - 1075;
#if !MOTE_NUM_SMALL
        /* integers below 2^53: the digits of the integer itself (a
         * shortcut: Schubfach finds the same digits) */
        if (q < 0 && q > -53 && !(c & ((UINT64_C(1) << -q) - 1))) {
            *kp = 0;
            return c >> -q;
        }
#endif
    } else {
        q = -1074;
        /* The two smallest subnormals have rounding intervals wider than
         * ten units of the last digit, outside the algorithm's premise:
         * 5e-324 and 1e-323 are their shortest forms. */
        if (c < 3) {
            *kp = c == 1 ? -324 : -323;
            return c == 1 ? 5 : 1;
        }
    }
    /* v = c 2^q; cbl/cbr (x4) bound its rounding interval, which is
     * narrower below at the bottom of a binade. */
    unsigned out = (unsigned)(c & 1);
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    if (c != F64_HIDDEN || q == -1074) {
        cbl = cb - 2;
        k = flog10_pow2(q);
    } else {
        cbl = cb - 1;
        k = flog10_three_quarters_pow2(q);
    }
    int h = q + flog2_pow10(-k) + 2;
    /* g = floor(10^-k / 2^r) + 1 with 2^125 <= g < 2^126 */
    u128 g = pow5_128(-k);
    g.lo = (g.lo >> 2) | (g.hi << 62);
    g.hi >>= 2;
    g.lo++;
    g.hi += g.lo == 0;
    /* vbl, vb, vbr: the interval's ends and v, scaled (x4) */
    const uint64_t vbl = rop(&g, cbl, h), vb = rop(&g, cb, h), vbr = rop(&g, cbr, h);
    *kp = k;
    return schubfach_pick(vbl, vb, vbr, out);
}

#if MOTE_NUM_SMALL
/* ------------------------------------------------------------------ */
/* digits one at a time (small code)                                    */

/* The decimal digits of v written backwards ending just before end (at
 * most 20); returns where they start. */
MOTE_SMALL_NOINLINE static char *put_dec(char *end, uint64_t v)
{
    do {
        uint64_t q = div10(v);
        *--end = (char)('0' + (unsigned)(v - q * 10));
        v = q;
    } while (v);
    return end;
}

int mote_num_f64_digits(double v, char digits[17], int *exp10)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits &= ~F64_SIGN_BIT;
    if (bits == 0 || bits >= F64_INF_BITS) return 0;
    int k;
    char tmp[20];
    const char *p = put_dec(tmp + sizeof tmp, shortest(bits, &k));
    int len = (int)(tmp + sizeof tmp - p);
    *exp10 = k + len;
    while (p[len - 1] == '0') len--; /* f != 0: stops at a digit */
    if (len > 17) return 0; /* cannot happen: Schubfach gives <= 17 digits */
    memcpy(digits, p, (size_t)len);
    return len;
}

/* The magnitude m, with a '-' before it if neg: one body for both
 * formatters (smaller than one calling the other; neg last: the public
 * calls' arguments stay where the ABI put them). */
MOTE_SMALL_NOINLINE static mote_err format_int(uint64_t m, char *out, size_t cap, size_t *len,
                                               bool neg)
{
    char tmp[21];
    char *p = put_dec(tmp + sizeof tmp, m);
    if (neg) *--p = '-';
    size_t n = (size_t)(tmp + sizeof tmp - p);
    *len = n;
    if (cap < n) return MOTE_ERR_SPACE;
    memcpy(out, p, n);
    return MOTE_OK;
}

mote_err mote_num_format_u64(uint64_t v, char *out, size_t cap, size_t *len)
{
    return format_int(v, out, cap, len, false);
}

mote_err mote_num_format_i64(int64_t v, char *out, size_t cap, size_t *len)
{
    return format_int(v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, out, cap, len, v < 0);
}

mote_err mote_num_format_f64(double v, char *out, size_t cap, size_t *len)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    *len = 0;
    if ((bits & ~F64_SIGN_BIT) >= F64_INF_BITS) return MOTE_ERR_NOT_FINITE;
    char buf[MOTE_NUM_F64_MAX], d[17], *p = buf;
    int dp, nd;
    if (bits & F64_SIGN_BIT) *p++ = '-';
    nd = mote_num_f64_digits(v, d, &dp);
    if (nd == 0) { /* zero: the digit "0" before the point */
        d[0] = '0';
        nd = dp = 1;
    }
    /* strconv.FormatFloat(v, 'g', -1, 64): %e when the exponent x is below
     * -4 or at least 6 (the shortest-precision rule), with at least two
     * exponent digits; its mantissa is the plain form with the point after
     * the first digit. */
    int x = dp - 1;
    bool sci = x < -4 || x >= 6;
    int pdp = sci ? 1 : dp;
    /* One pass over digit positions i (value 0.d0d1... * 10^pdp): a
     * leading "0" when pdp <= 0 (from i = pdp - 1), the point before
     * position pdp, zeros outside d; here -3 <= pdp <= 6. */
    int end = nd > pdp ? nd : pdp;
    for (int i = pdp > 0 ? 0 : pdp - 1; i < end; i++) {
        if (i == pdp) *p++ = '.';
        *p++ = i >= 0 && i < nd ? d[i] : '0';
    }
    if (sci) {
        *p++ = 'e';
        *p++ = x < 0 ? '-' : '+';
        p += put_u32(p, (unsigned)(x < 0 ? -x : x), 2); /* |x| <= 324 */
    }
    size_t n = (size_t)(p - buf);
    *len = n;
    if (n > cap) return MOTE_ERR_SPACE;
    memcpy(out, buf, n);
    return MOTE_OK;
}

#else
/* ------------------------------------------------------------------ */
/* digits eight at a time                                               */

/* The ASCII digits of 1 <= f < 10^17 to d (room for 24 bytes; writes up to
 * d[17] and leaves later bytes alone), no leading or trailing zeros; returns
 * their count, and in *nf the number of digits of f. */
static int f_digits(uint64_t f, char *d, int *nf)
{
    uint8_t *u = (uint8_t *)d;
    if (f < 100000000) {
        uint64_t w = mote__num_digits8((uint32_t)f);
        *nf = (int)mote__num_put_digits8(u, w);
        return *nf - ((int)mote__clz64(w) >> 3);
    }
    uint64_t hi = mote__num_div1e8(f);
    uint64_t wl = mote__num_digits8((uint32_t)(f - hi * 100000000u));
    int trail = wl ? (int)mote__clz64(wl) >> 3 : 8; /* trailing zeros of the low 8 */
    if (hi < 100000000) {
        uint64_t wh = mote__num_digits8((uint32_t)hi);
        int k = (int)mote__num_put_digits8(u, wh);
        mote__store8(u + k, wl | MOTE__ZEROS);
        if (!wl) trail += (int)mote__clz64(wh) >> 3;
        *nf = k + 8;
        return k + 8 - trail;
    }
    uint32_t top = (uint32_t)hi / 100000000u; /* 1..9 */
    uint64_t wm = mote__num_digits8((uint32_t)hi - top * 100000000u);
    u[0] = (uint8_t)('0' + top);
    mote__store8(u + 1, wm | MOTE__ZEROS);
    mote__store8(u + 9, wl | MOTE__ZEROS);
    if (!wl) trail += wm ? (int)mote__clz64(wm) >> 3 : 8;
    *nf = 17;
    return 17 - trail;
}

/* The shortest digits of the finite, non-zero |double| with bits b into d
 * (24 bytes of room) as f_digits; *exp10 as mote_num_f64_digits. */
static int shortest_digits(uint64_t b, char *d, int *exp10)
{
    int k, nf;
    uint64_t f = shortest(b, &k);
    if (f == UINT64_C(100000000000000000)) { /* 18 digits: "1" */
        f = 1;
        k += 17;
    }
    int nd = f_digits(f, d, &nf);
    *exp10 = k + nf;
    return nd;
}

int mote_num_f64_digits(double v, char digits[17], int *exp10)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits &= ~F64_SIGN_BIT;
    if (bits == 0 || bits >= F64_INF_BITS) return 0;
    char d[24];
    int nd = shortest_digits(bits, d, exp10);
    memcpy(digits, d, (size_t)nd);
    return nd;
}

/* Copies the n bytes of a formatted number from tmp to out when they fit,
 * sets *len (MOTE_ERR_SPACE: the size needed, out untouched). */
static mote_err give(const char *tmp, size_t n, char *out, size_t cap, size_t *len)
{
    *len = n;
    if (n > cap) return MOTE_ERR_SPACE;
    memcpy(out, tmp, n);
    return MOTE_OK;
}

/* The integer formatters and mote_num_format_f64 write straight into out
 * when it has MOTE_NUM_F64_MAX bytes (fixed-size stores, scratch past the
 * number), else into a local buffer first. */
mote_err mote_num_format_u64(uint64_t v, char *out, size_t cap, size_t *len)
{
    char tmp[MOTE_NUM_F64_MAX];
    char *p = cap >= MOTE_NUM_F64_MAX ? out : tmp;
    size_t n = mote__num_put_u64((uint8_t *)p, v);
    if (p == out) {
        *len = n;
        return MOTE_OK;
    }
    return give(tmp, n, out, cap, len);
}

mote_err mote_num_format_i64(int64_t v, char *out, size_t cap, size_t *len)
{
    char tmp[MOTE_NUM_F64_MAX];
    char *p = cap >= MOTE_NUM_F64_MAX ? out : tmp;
    size_t n = 0;
    uint64_t m = (uint64_t)v;
    if (v < 0) {
        p[n++] = '-';
        m = (uint64_t)0 - m;
    }
    n += mote__num_put_u64((uint8_t *)p + n, m);
    if (p == out) {
        *len = n;
        return MOTE_OK;
    }
    return give(tmp, n, out, cap, len);
}

/* Go-style 'g' formatting into p (MOTE_NUM_F64_MAX bytes of room) of the
 * finite v; returns the length. */
static size_t format_g(uint64_t bits, char *p0)
{
    char *p = p0;
    char d[24];
    if (bits & F64_SIGN_BIT) *p++ = '-';
    bits &= ~F64_SIGN_BIT;
    if (bits == 0) {
        *p++ = '0';
        return (size_t)(p - p0);
    }
    /* d is all '0' past the digits: the plain form's zeros come from it */
    memset(d, '0', sizeof d);
    int dp, nd = shortest_digits(bits, d, &dp);
    if (dp - 1 < -4 || dp - 1 >= 6) {
        /* strconv.FormatFloat(v, 'g', -1, 64): %e when the exponent is
         * below -4 or at least 6 (the shortest-precision rule), with at
         * least two exponent digits */
        unsigned x = (unsigned)(dp > 0 ? dp - 1 : 1 - dp);
        p[0] = d[0];
        p[1] = '.';
        memcpy(p + 2, d + 1, 16);
        p += nd > 1 ? nd + 1 : 1;
        p[0] = 'e';
        p[1] = dp > 0 ? '+' : '-';
        if (x >= 100) {
            unsigned h = x / 100;
            p[2] = (char)('0' + h);
            x -= h * 100;
            p++;
        }
        memcpy(p + 2, mote__digit_pairs + 2 * x, 2);
        p += 4;
    } else if (dp <= 0) {
        /* 0.000ddd: -3 <= dp <= 0 */
        memcpy(p, "0.000", 5);
        memcpy(p + 2 - dp, d, 24);
        p += 2 - dp + nd;
    } else if (dp >= nd) {
        /* an integer: digits, then zeros up to dp <= 6 */
        memcpy(p, d, 8);
        p += dp;
    } else {
        /* ddd.ddd: 1 <= dp <= 6, dp < nd */
        memcpy(p, d, 8);
        p[dp] = '.';
        memcpy(p + dp + 1, d + dp, 16);
        p += nd + 1;
    }
    return (size_t)(p - p0);
}

mote_err mote_num_format_f64(double v, char *out, size_t cap, size_t *len)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if ((bits & ~F64_SIGN_BIT) >= F64_INF_BITS) {
        *len = 0;
        return MOTE_ERR_NOT_FINITE;
    }
    if (cap >= MOTE_NUM_F64_MAX) {
        *len = format_g(bits, out);
        return MOTE_OK;
    }
    char tmp[MOTE_NUM_F64_MAX];
    return give(tmp, format_g(bits, tmp), out, cap, len);
}
#endif
