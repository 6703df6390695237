/*
 * mote_private.h - what every module's implementation needs (not installed).
 *
 * One place for compiler attributes, bit helpers, word-at-a-time (SWAR) byte
 * tests and the integer core that num.c exports and lp.c inlines. Everything
 * here is static inline or a macro: including it costs nothing until used.
 * Each helper has a portable fallback for compilers without the GNU
 * builtins; results are the same either way.
 */
#ifndef MOTE_PRIVATE_H
#define MOTE_PRIVATE_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mote/common.h"
#include "mote/num.h" /* mote_num_parse_f64, for the plain-decimal core below */

/* ---- attributes ----------------------------------------------------------
 * Every inlining choice in src/ is one of these, by what it does in the two
 * kinds of build. Speed: hosted builds, where a call in a hot loop costs
 * more than the code it saves. Small: MOTE_SMALL (mote/common.h; Cortex-M,
 * -Os), where one copy out of line is smaller than a copy per caller, or a
 * helper folded into its one caller is smaller than a call; each small-side
 * choice was measured with -Os on Cortex-M4 (cross/ holds the budgets).
 *
 *                        speed build          small build
 *   MOTE_NOINLINE        out of line          out of line
 *   MOTE_ALWAYS_INLINE   inlined              inlined
 *   MOTE_INLINE          inlined              compiler's choice
 *   MOTE_FAST_INLINE     inlined              out of line
 *   MOTE_FAST_NOINLINE   out of line          compiler's choice
 *   MOTE_SMALL_INLINE    compiler's choice    inlined
 *   MOTE_SMALL_NOINLINE  compiler's choice    out of line
 *   MOTE_COLD            out of line          inlined
 *
 * MOTE_NOINLINE keeps a slow path, or a big frame, out of its callers (the
 * deepest stack must stay under 512 bytes). MOTE_COLD is a slow path kept
 * out of the hosted fast paths and folded in where size is what counts.
 * "Compiler's choice" is a plain static inline function. Compilers without
 * the GNU attributes get plain inline everywhere; results are the same. */
#if defined(__GNUC__) || defined(__clang__)
#define MOTE_NOINLINE __attribute__((noinline))
#define MOTE_ALWAYS_INLINE inline __attribute__((always_inline))
#define MOTE_LIKELY(x) __builtin_expect(!!(x), 1)
#define MOTE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define MOTE_NOINLINE
#define MOTE_ALWAYS_INLINE inline
#define MOTE_LIKELY(x) (x)
#define MOTE_UNLIKELY(x) (x)
#endif
#if MOTE_SMALL
#define MOTE_INLINE inline
#define MOTE_FAST_INLINE MOTE_NOINLINE
#define MOTE_FAST_NOINLINE
#define MOTE_SMALL_INLINE MOTE_ALWAYS_INLINE
#define MOTE_SMALL_NOINLINE MOTE_NOINLINE
#define MOTE_COLD MOTE_ALWAYS_INLINE
#else
#define MOTE_INLINE MOTE_ALWAYS_INLINE
#define MOTE_FAST_INLINE MOTE_ALWAYS_INLINE
#define MOTE_FAST_NOINLINE MOTE_NOINLINE
#define MOTE_SMALL_INLINE inline
#define MOTE_SMALL_NOINLINE
#define MOTE_COLD MOTE_NOINLINE
#endif

/* MOTE_ALIGN_ENTRY: a hot entry point starts on a 64-byte boundary in
 * speed builds, so that its loops sit at the same offsets in cache lines
 * and fetch blocks whatever the link order puts before it (lp's tokenizer
 * timed 4-10% apart by its placement alone). Small builds: no padding. */
#if (defined(__GNUC__) || defined(__clang__)) && !MOTE_SMALL
#define MOTE_ALIGN_ENTRY __attribute__((aligned(64)))
#else
#define MOTE_ALIGN_ENTRY
#endif

/* ---- bit helpers (x != 0 for ctz/clz) ------------------------------------ */

static inline unsigned mote__ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

static inline unsigned mote__clz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* a * b in 128 bits: returns the high 64, the low 64 into *lo. One
 * instruction on 64-bit hosts (the compiler's 128-bit type), four 32-bit
 * products elsewhere. */
static inline uint64_t mote__mul64(uint64_t a, uint64_t b, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__) && !defined(MOTE_NUM_NO_INT128)
    __extension__ typedef unsigned __int128 mote__u128;
    const mote__u128 p = (mote__u128)a * b;
    *lo = (uint64_t)p;
    return (uint64_t)(p >> 64);
#else
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* The builtin only where it is one instruction: without POPCNT (x86-64's
 * baseline) GCC calls a libgcc helper, slower than these four lines. */
static inline unsigned mote__popcount64(uint64_t x)
{
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return (unsigned)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* ---- SWAR: 8 bytes in one word -------------------------------------------
 * The word holds the bytes in memory order (p[0] in the low byte) on any
 * host, so the lowest flagged byte is the first one. Every test is exact per
 * byte (no carry crosses into the next byte). */
#define MOTE__ONES 0x0101010101010101ull
#define MOTE__HIGHS 0x8080808080808080ull
#define MOTE__LOWS 0x7f7f7f7f7f7f7f7full
#define MOTE__ZEROS (MOTE__ONES * '0') /* eight ASCII '0' bytes */

static inline uint64_t mote__load8(const uint8_t *p)
{
    uint64_t x;
    memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#elif !defined(__BYTE_ORDER__)
    x = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
        (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
#endif
    return x;
}

/* 4 bytes at p, p[0] in the low byte (as mote__load8). */
static inline uint32_t mote__load4(const uint8_t *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap32(x);
#elif !defined(__BYTE_ORDER__)
    x = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
    return x;
}

/* The inverse of mote__load8: the low byte of x goes to p[0], on any host. */
static inline void mote__store8(uint8_t *p, uint64_t x)
{
#if !defined(__BYTE_ORDER__)
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(x >> (8 * i));
#else
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    memcpy(p, &x, 8);
#endif
}

/* High bit of each byte equal to c. */
static inline uint64_t mote__eq8(uint64_t x, uint8_t c)
{
    uint64_t y = x ^ (MOTE__ONES * c);
    return ~(((y & MOTE__LOWS) + MOTE__LOWS) | y) & MOTE__HIGHS;
}

/* High bit of each byte below n (n <= 0x80). */
static inline uint64_t mote__lt8(uint64_t x, uint8_t n)
{
    return ~(((x & MOTE__LOWS) + MOTE__ONES * (uint8_t)(0x80 - n)) | x) & MOTE__HIGHS;
}

/* Index of the first flagged byte of a non-zero mask from the tests above. */
static inline unsigned mote__first8(uint64_t m)
{
    return mote__ctz64(m) >> 3;
}

/* Value of 8 ASCII digits (a word from mote__load8, mote__not_digits8 zero):
 * three multiply-shift steps instead of a chain of eight multiply-adds. */
static inline uint64_t mote__value8(uint64_t x)
{
    x = ((x & 0x0f0f0f0f0f0f0f0full) * 2561) >> 8;
    x = ((x & 0x00ff00ff00ff00ffull) * 6553601) >> 16;
    return ((x & 0x0000ffff0000ffffull) * 42949672960001ull) >> 32;
}

/* Bytes of x (a word from mote__load8) that are not digits, high bit set; a
 * byte from 0x8a up also flags the one after it (a carry): only the first
 * flagged byte, and whether any is, count (zero exactly when all 8 are
 * digits). Three constants, not the four of an exact test (mote__lt8): a
 * register less in the callers. */
static inline uint64_t mote__not_digits8(uint64_t x)
{
    const uint64_t y = x ^ MOTE__ZEROS;
    return ((y + MOTE__ONES * (0x80 - 10)) | y) & MOTE__HIGHS;
}

/* ---- num's integer core ---------------------------------------------------
 * Value of the decimal digits s[0..n): MOTE_OK, MOTE_ERR_BAD_VALUE (n == 0
 * or a byte that is not a digit, checked over the whole span first) or
 * MOTE_ERR_RANGE (above UINT64_MAX; leading zeros are fine). *out is set
 * only on MOTE_OK. mote_num_parse_u64/_i64 (num.c) are this; lp.c inlines it
 * into its field loop. No 64-bit division (a libgcc call on Cortex-M0+).
 *
 * varied (a constant at each call): the caller's numbers vary in length
 * from one to the next, as line protocol's field values do; then 4 to 16
 * digits are read without a loop, whose exit mispredicts there, as one or
 * two words of 8 ASCII digits, the first padded with '0' bytes in front
 * (leading zeros do not change the value). Where lengths repeat (num's own
 * callers, a benchmark's fixed list) the predicted loops below are faster
 * than the words' longer chain of dependent steps. */
#if !MOTE_SMALL
/* 1 to 3 digits (most field values) without a loop, whose exit branch
 * mispredicts when lengths vary: bytes 0, n/2 and n-1 cover them all,
 * weighted by n (for n 1 or 2 a byte is read twice). */
static MOTE_INLINE bool mote__num_small(const uint8_t *s, size_t n, uint64_t *out)
{
    static const uint8_t mul[4][2] = {{0, 0}, {0, 0}, {10, 0}, {100, 10}};
    const unsigned a = (unsigned)s[0] - '0', m = (unsigned)s[n >> 1] - '0',
                   z = (unsigned)s[n - 1] - '0';
    if ((a > 9) | (m > 9) | (z > 9)) return false;
    *out = a * mul[n][0] + m * mul[n][1] + z;
    return true;
}

/* The n (4 to 8) bytes at s as one word after 8 - n '0' bytes: two 4-byte
 * loads, the first moved up over the bytes the second repeats. */
static inline uint64_t mote__load_padded8(const uint8_t *s, size_t n)
{
    const unsigned k = (unsigned)(8 - n) * 8;
    const uint64_t a = mote__load4(s), b = mote__load4(s + n - 4);
    return ((a << k) & 0xffffffffu) | (MOTE__ZEROS & ((UINT64_C(1) << k) - 1)) | b << 32;
}
#endif

#if MOTE_SMALL
/* Small builds read every length one way: no parameter to carry. */
#define mote__num_digits_of(s, n, varied, out) mote__num_digits(s, n, out)
static MOTE_INLINE mote_err mote__num_digits(const uint8_t *s, size_t n, uint64_t *out)
#else
#define mote__num_digits(s, n, out) mote__num_digits_of(s, n, false, out)
static MOTE_INLINE mote_err mote__num_digits_of(const uint8_t *s, size_t n, bool varied,
                                                uint64_t *out)
#endif
{
    uint64_t v = 0;
    size_t i = 0;
#if !MOTE_SMALL
    if (n - 1 < 3) return mote__num_small(s, n, out) ? MOTE_OK : MOTE_ERR_BAD_VALUE;
    if (n - 17 < 3) {
        /* 17 to 19 digits (nanosecond timestamps): the last 16 as two words
         * (below 10^19: no overflow), the 1 to 3 before them one by one. */
        const size_t h = n - 16;
        const uint64_t x = mote__load8(s + h), y = mote__load8(s + h + 8);
        if (mote__not_digits8(x) | mote__not_digits8(y)) return MOTE_ERR_BAD_VALUE;
        for (; i < h; i++) {
            unsigned d = (unsigned)s[i] - '0';
            if (d > 9) return MOTE_ERR_BAD_VALUE;
            v = v * 10 + d;
        }
        *out = v * 10000000000000000u + mote__value8(x) * 100000000u + mote__value8(y);
        return MOTE_OK;
    }
    if (varied && n - 4 < 5) {
        /* 4 to 8: all as one word, padded */
        const uint64_t x = mote__load_padded8(s, n);
        if (mote__not_digits8(x)) return MOTE_ERR_BAD_VALUE;
        *out = mote__value8(x);
        return MOTE_OK;
    }
    if (varied && n - 9 < 8) {
        /* 9 to 16: the last 8 as a word; the first n - 8 as a word shifted
         * up over the bytes the last one holds, '0' bytes shifted in. */
        const unsigned k = (unsigned)(16 - n) * 8;
        const uint64_t x = mote__load8(s), y = mote__load8(s + n - 8);
        const uint64_t h = x << k | (MOTE__ZEROS & ((UINT64_C(1) << k) - 1));
        if (mote__not_digits8(h) | mote__not_digits8(y)) return MOTE_ERR_BAD_VALUE;
        *out = mote__value8(h) * 100000000u + mote__value8(y);
        return MOTE_OK;
    }
    /* 8 at a time while at most 16 are taken (below 10^16: no overflow). */
    while (n - i >= 8 && i < 16) {
        uint64_t x = mote__load8(s + i);
        if (mote__not_digits8(x)) break;
        v = v * 100000000u + mote__value8(x);
        i += 8;
    }
#endif
    if (n == 0) return MOTE_ERR_BAD_VALUE;
#if !MOTE_SMALL
    /* Then one by one, without a range check up to 19 digits (< 2^64). */
    for (; i < n && i < 19; i++) {
        unsigned d = (unsigned)s[i] - '0';
        if (d > 9) return MOTE_ERR_BAD_VALUE;
        v = v * 10 + d;
    }
#endif
    /* (MOTE_SMALL: one loop, the range check on every digit) */
    for (; i < n; i++) {
        unsigned d = (unsigned)s[i] - '0';
        if (d > 9) return MOTE_ERR_BAD_VALUE;
        /* v * 10 + d > UINT64_MAX, compared without a division */
        if (v > 1844674407370955161u || (v == 1844674407370955161u && d > 5)) {
            /* Still a syntax error if a later byte is not a digit. */
            for (; i < n; i++) {
                if ((unsigned)s[i] - '0' > 9) return MOTE_ERR_BAD_VALUE;
            }
            return MOTE_ERR_RANGE;
        }
        v = v * 10 + d;
    }
    *out = v;
    return MOTE_OK;
}

#if !MOTE_SMALL
/* 19 bytes known to be [-0-9] (a grammar's scan: lp's timestamps), all
 * digits, as their value (below 10^19), without a loop: a digit is then a
 * byte with bit 4 set ('-' is 0x2d), all 19 checked through three words;
 * the last 16 as two words, the first 3 one by one. UINT64_MAX where a '-'
 * is among them (above every int64: one range test serves both).
 * Nanosecond timestamps from 2001 to 2286. */
static MOTE_INLINE uint64_t mote__num_digits19_known(const uint8_t *s)
{
    const uint64_t x = mote__load8(s), y = mote__load8(s + 3), z = mote__load8(s + 11);
    const uint64_t bit4 = MOTE__ONES * 0x10;
    if (MOTE_UNLIKELY((x & y & z & bit4) != bit4)) return UINT64_MAX;
    const uint64_t h = (uint64_t)s[0] * 100 + (uint64_t)s[1] * 10 + s[2] - '0' * 111u;
    return h * 10000000000000000u + mote__value8(y) * 100000000u + mote__value8(z);
}
#endif

/* [+-]digits as int64 (plus_ok false: a '+' is a bad value, as in line
 * protocol), results and varied as mote__num_digits_of. */
static MOTE_INLINE mote_err mote__num_i64(const uint8_t *s, size_t n, bool plus_ok, bool varied,
                                          int64_t *out)
{
    uint64_t v;
    (void)varied; /* small builds read every length one way */
#if !MOTE_SMALL
    /* Field values: most are 1 or 2 digits without a sign, the first and
     * the last byte (one byte read twice for 1), no table; a sign fails
     * the digit test and takes the way below, as 3 digits and more do.
     * Not folded into mote__num_small (measured: callgrind instructions
     * per line, first 2000 lines of bench_lp's corpora, TSBS / telegraf
     * decode 2,089 / 1,502 with this form; mote__num_small for 1 to 3
     * digits here 2,239 / 1,518; mote__num_small under this 1-2 test
     * 2,238 / 1,512; no form here, the sign test then mote__num_small
     * 2,301 / 1,522; tokenize rows unchanged). */
    if (varied && n - 1 < 2) {
        const unsigned a = (unsigned)s[0] - '0', z = (unsigned)s[n - 1] - '0';
        if ((a > 9) | (z > 9)) goto general;
        *out = (int64_t)(a * 10 * (unsigned)(n - 1) + z);
        return MOTE_OK;
    }
general:;
#endif
    bool neg = n > 0 && s[0] == '-';
    if (n > 0 && (neg || (plus_ok && s[0] == '+'))) {
        s++;
        n--;
    }
    mote_err rc = mote__num_digits_of(s, n, varied, &v);
    if (rc != MOTE_OK) return rc;
    if (v > (uint64_t)INT64_MAX + neg) return MOTE_ERR_RANGE;
    /* Negation in unsigned arithmetic: no signed overflow for INT64_MIN. */
    *out = neg ? (v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v) : (int64_t)v;
    return MOTE_OK;
}

/* ---- num's integer formatter ----------------------------------------------
 * One formatter of integers for the project: num.c's speed build
 * (mote_num_format_u64/_i64, and the digits of its shortest doubles) and the
 * mote tool's JSON output inline it. (Small builds of num emit digits one by
 * one with no 64-bit division; unused static inline functions cost nothing
 * there.)
 *
 * v < 10^8 as eight digits, zero-padded: byte i of the word (in
 * mote__store8's order) is the value 0..9 of digit i. Three splits (4+4,
 * 2+2, 1+1) of all lanes of one word at once, each a multiply and shift that
 * equals the division for the lane's range (checked exhaustively in
 * tests/test_num.c through the formatters), instead of a division per
 * digit. */
static inline uint64_t mote__num_digits8(uint32_t v)
{
    uint32_t hi = v / 10000;
    uint64_t x = hi | (uint64_t)(v - hi * 10000) << 32;
    uint64_t a = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F); /* / 100, lanes < 10^4 */
    x = a | (x - a * 100) << 16;
    uint64_t b = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F); /* / 10, lanes < 100 */
    return b | (x - b * 10) << 8;
}

/* w from mote__num_digits8() of v >= 1 stored at p as ASCII without its
 * leading zeros (8 bytes written, the digits first); returns their count. */
static inline unsigned mote__num_put_digits8(uint8_t *p, uint64_t w)
{
    const unsigned lead = mote__ctz64(w) >> 3;
    mote__store8(p, (w >> 8 * lead) | MOTE__ZEROS);
    return 8 - lead;
}

/* x / 10^8 for any uint64, as a multiply (no 64-bit division helper on
 * 32-bit hosts). */
static inline uint64_t mote__num_div1e8(uint64_t x)
{
    uint64_t lo;
    return mote__mul64(x, UINT64_C(0xABCC77118461CEFD), &lo) >> 26;
}

/* "00" to "99": two digits per load */
static const char mote__digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The decimal digits of v at p (room for 24 bytes, which may all be
 * written); returns their count, 1 to 20. 0 to 99 (a column, a length,
 * most field values) from one table load; up to 8 digits as one word, its
 * leading zeros shifted out; 9 or 10 digits below 2^32 as one or two from
 * the table and a word (a 32-bit division: no 128-bit product); longer ones
 * as two or three words.
 *
 * Measured against num's formatter before (words only, from 100 up) and the
 * mote tool's own copy before (pair table, count first): ns per number,
 * min of 40 runs of 2^16 calls of mote_num_format_u64, before / this: 0-99
 * 5.2 / 3.1, below 10^5 5.1 / 5.0, 7 to 10 digits 9.5 / 10.0, 19 digits
 * 12.2 / 12.0, random lengths 10.6 / 10.4; callgrind, 'mote sql split' of
 * 10 MB of COPY rows (four numbers per token), 188.0 M instructions with
 * the tool's copy, 179.4 M with this (num's words alone took 1.23x the
 * CPU time of the copy on 200 MB: 1 and 2 digit numbers). */
static inline size_t mote__num_put_u64(uint8_t *p, uint64_t v)
{
    if (v < 100) {
        memcpy(p, mote__digit_pairs + 2 * v + (v < 10), 2);
        return 1 + (v >= 10);
    }
    if (v < 100000000) return mote__num_put_digits8(p, mote__num_digits8((uint32_t)v));
    if (v <= UINT32_MAX) {
        const uint32_t hi = (uint32_t)v / 100000000u; /* 1 to 42 */
        const size_t k = 1 + (hi >= 10);
        memcpy(p, mote__digit_pairs + 2 * hi + (hi < 10), 2);
        mote__store8(p + k, mote__num_digits8((uint32_t)v - hi * 100000000u) | MOTE__ZEROS);
        return k + 8;
    }
    const uint64_t hi = mote__num_div1e8(v);
    const uint64_t wl = mote__num_digits8((uint32_t)(v - hi * 100000000u)) | MOTE__ZEROS;
    if (hi < 100000000) {
        const unsigned k = mote__num_put_digits8(p, mote__num_digits8((uint32_t)hi));
        mote__store8(p + k, wl);
        return k + 8;
    }
    const uint64_t top = mote__num_div1e8(hi); /* < 1845 */
    const unsigned k = mote__num_put_digits8(p, mote__num_digits8((uint32_t)top));
    mote__store8(p + k, mote__num_digits8((uint32_t)(hi - top * 100000000u)) | MOTE__ZEROS);
    mote__store8(p + k + 8, wl);
    return k + 16;
}

/* ---- num's float core: plain decimals --------------------------------------
 * (Speed builds of num and lp use these; in small ones, unused static inline
 * functions cost nothing, and num.c's speed code, chosen by MOTE_NUM_SMALL,
 * still finds them under MOTE_SMALL.) */

/* The run of digits at p into *w (wrapping past 19 digits: the caller only
 * trusts w when its count allows); returns the end of the run. Eight at a
 * time while eight are digits. A word's shorter last run: with word_tail,
 * in one step (no loop exit to mispredict, as where fractions of 14-16
 * digits end at varying places), else one by one (for integer parts,
 * mostly short: the one-step form puts a count-dependent shift and table
 * load on the value's critical path; measured on the 17-digit benchmark,
 * and in lp's decode loop a loop-free 1-2 digit form made telegraf 20%
 * slower: every later load and test waits for the end it computes, which
 * a predicted loop exit gives at once). */
static MOTE_INLINE const uint8_t *mote__num_scan_digits(const uint8_t *p, const uint8_t *end,
                                                        uint64_t *w, bool word_tail)
{
    static const uint32_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    uint64_t v = *w;
    while (end - p >= 8) {
        const uint64_t x = mote__load8(p);
        const uint64_t other = mote__not_digits8(x);
        if (!other) {
            v = v * 100000000 + mote__value8(x);
            p += 8;
            continue;
        }
        if (!word_tail) break;
        const unsigned k = mote__first8(other); /* digits before the first other byte */
        if (k) {
            /* the k digits moved to the top of the word, zeros before them */
            v = v * pow10[k] + mote__value8(x << (64 - 8 * k));
            p += k;
        }
        *w = v;
        return p;
    }
    if (word_tail && end - p >= 4 && (unsigned)*p - '0' < 10) {
        /* 4 to 7 bytes left, a digit first (a fraction's usual tail, as in
         * "0.875438"; an exponent takes the byte loop): as one word from two
         * 4-byte loads that overlap (never past end), the bytes past the end
         * zero (not digits), then as a word's tail above. */
        const unsigned r = (unsigned)(end - p);
        const uint64_t x = mote__load4(p) | (uint64_t)mote__load4(end - 4) << (8 * (r - 4));
        const unsigned k = mote__first8(mote__not_digits8(x)); /* r at most: byte r is zero */
        v = v * pow10[k] + mote__value8(x << (64 - 8 * k)); /* k >= 1: a digit first */
        *w = v;
        return p + k;
    }
    for (; p < end && (unsigned)*p - '0' < 10; p++) v = v * 10 + (unsigned)(*p - '0');
    *w = v;
    return p;
}

/* A decimal mantissa at p, digits[.digits] (either part may be empty): its
 * digits' value into *w (wrapping past 19 digits), their count into *ndig
 * and the fraction's into *nfrac; returns its end. The one reading for
 * mote_num_parse_f64() and mote__num_f64_plain(). field (a constant at each
 * call): the text is a line-protocol field value, whose integer parts are
 * short (telemetry: "57.123456", "0.25"): read one by one, no first word
 * that stops at the '.' (a test, and in lp's decode loop two spills). */
#define mote__num_mantissa(p, end, w, ndig, nfrac) \
    mote__num_mantissa_of(p, end, false, w, ndig, nfrac)
static MOTE_INLINE const uint8_t *mote__num_mantissa_of(const uint8_t *p, const uint8_t *end,
                                                        bool field, uint64_t *w, size_t *ndig,
                                                        size_t *nfrac)
{
    const uint8_t *const m0 = p;
    if (field) {
        uint64_t v = *w;
        for (; p < end && (unsigned)*p - '0' < 10; p++) v = v * 10 + (unsigned)(*p - '0');
        *w = v;
    } else {
        p = mote__num_scan_digits(p, end, w, false);
    }
    *ndig = (size_t)(p - m0);
    *nfrac = 0;
    if (p < end && *p == '.') {
        const uint8_t *f0 = ++p;
        p = mote__num_scan_digits(p, end, w, true);
        *nfrac = (size_t)(p - f0);
        *ndig += *nfrac;
    }
    return p;
}

/*
 * A plain decimal, [-+]digits[.digits] of at most 19 digits that Clinger's
 * exact case takes (w * 10^-nfrac with w nonzero, at most 2^53, and at most
 * 22 fraction digits: one correctly rounded division), into *out: true;
 * else false and *out untouched, for mote_num_parse_f64() to read it from
 * its first byte (exponents, long mantissas, zeros, errors: rare in
 * telemetry). The common case of line protocol's floats, inlined into lp's
 * decode loop: no call, no frame (mote_num_parse_f64's serves every path and
 * saves six registers). The same scan and conversion as num.c's, so the
 * same results (test_num checks it on every input it parses).
 */
#if FLT_EVAL_METHOD == 0
#define mote__num_f64_plain(s, n, out) mote__num_f64_plain_of(s, n, false, out)
/* field: a parsed line-protocol field value (never empty, short integer
 * parts: mote__num_mantissa_of). */
static MOTE_INLINE bool mote__num_f64_plain_of(const uint8_t *s, size_t n, bool field, double *out)
{
    static const double pow10[23] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    };
    if (!field && (n == 0 || s == NULL)) return false;
    const uint8_t *const end = s + n;
    uint64_t w = 0;
    size_t ndig, nfrac;
    const uint8_t *p =
        mote__num_mantissa_of(s + (*s == '-' || *s == '+'), end, field, &w, &ndig, &nfrac);
    /* w != 0 (a zero keeps its sign there), w <= 2^53, q = -nfrac >= -22 */
    if (!MOTE_LIKELY(p == end && ndig - 1 < 19 && w - 1 < (UINT64_C(1) << 53) && nfrac <= 22))
        return false;
    const double d = (double)w / pow10[nfrac];
    *out = *s == '-' ? -d : d; /* the sign read again: a register less */
    return true;
}
#else
#define mote__num_f64_plain_of(s, n, field, out) \
    ((void)(s), (void)(n), (void)(field), (void)(out), false)
#define mote__num_f64_plain(s, n, out) mote__num_f64_plain_of(s, n, false, out)
#endif

/* mote_num_parse_f64() with mote__num_f64_plain first: lp's float fields
 * inline it; num.c exports it as mote__num_parse_f64_plain (for test_num and
 * fuzz_num_float, which hold it to the full parser). */
static MOTE_INLINE mote_err mote__num_f64_plain_first(const uint8_t *s, size_t n, double *out)
{
    return mote__num_f64_plain(s, n, out) ? MOTE_OK : mote_num_parse_f64(s, n, out);
}
/* The same for a parsed line-protocol field value (mote__num_f64_plain_of). */
static MOTE_INLINE mote_err mote__num_f64_field(const uint8_t *s, size_t n, double *out)
{
    return mote__num_f64_plain_of(s, n, true, out) ? MOTE_OK : mote_num_parse_f64(s, n, out);
}
mote_err mote__num_parse_f64_plain(const uint8_t *s, size_t n, double *out);

#endif /* MOTE_PRIVATE_H */
