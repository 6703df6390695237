/*
 * cql_simd.c - byte-swap kernels behind the bulk CQL encoders and decoders.
 *
 * Every kernel has a portable form, cql_kernels.h's one loop: what
 * big-endian hosts, Cortex-M and -Dsimd=disabled builds run, and the SIMD
 * versions' tails. On x86 the SSSE3 and AVX2 versions use pshufb through
 * function-level target attributes and are chosen at run time from the
 * CPU's feature bits, so the library itself is built for the baseline ISA.
 * On ARM with NEON (always present when __ARM_NEON is defined) vrev does
 * the swap. fuzz/fuzz_cql_kernels.c checks each level against the portable
 * loop for random lengths and alignments.
 */
#include "mote/be.h"
#include "mote/cql.h"
#include "cql_kernels.h"

/* No SIMD level on this target: the header holds the kernels (inline
 * portable loops) and this file is empty. */
#if MOTE_CQL_SIMD_NONE
typedef int mote__cql_simd_none; /* ISO C: no empty translation unit */
#else

#if !defined(MOTE_NO_SIMD) && (defined(__x86_64__) || defined(__i386__)) && \
    (defined(__GNUC__) || defined(__clang__))
#define MOTE_CQL_X86 1
#include <immintrin.h>
#else
#define MOTE_CQL_X86 0
#endif

#if !defined(MOTE_NO_SIMD) && defined(__ARM_NEON)
#define MOTE_CQL_NEON 1
#include <arm_neon.h>
#else
#define MOTE_CQL_NEON 0
#endif

/* ---- portable: cql_kernels.h's loop, its widths constant ---------------- */

static void bswap32_portable(uint8_t *dst, const uint8_t *src, size_t n)
{
    mote__cql_kernel(dst, src, n, 4, 0, true);
}

static void bswap64_portable(uint8_t *dst, const uint8_t *src, size_t n)
{
    mote__cql_kernel(dst, src, n, 8, 0, true);
}

static void list_put32_portable(uint8_t *dst, const uint8_t *src, size_t n)
{
    mote__cql_kernel(dst, src, n, 4, 4, true);
}

static void list_put64_portable(uint8_t *dst, const uint8_t *src, size_t n)
{
    mote__cql_kernel(dst, src, n, 8, 4, true);
}

static bool list_get32_portable(uint8_t *dst, const uint8_t *src, size_t n)
{
    return mote__cql_kernel(dst, src, n, 4, 4, false);
}

static bool list_get64_portable(uint8_t *dst, const uint8_t *src, size_t n)
{
    return mote__cql_kernel(dst, src, n, 8, 4, false);
}

/* ---- x86: SSSE3 and AVX2 -------------------------------------------------
 * The list kernels assume a little-endian host, which every x86 is. */
#if MOTE_CQL_X86

__attribute__((target("ssse3")))
static void bswap32_ssse3(uint8_t *dst, const uint8_t *src, size_t n)
{
    const __m128i m = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * i));
        _mm_storeu_si128((__m128i *)(void *)(dst + 4 * i), _mm_shuffle_epi8(v, m));
    }
    bswap32_portable(dst + 4 * i, src + 4 * i, n - i);
}

__attribute__((target("ssse3")))
static void bswap64_ssse3(uint8_t *dst, const uint8_t *src, size_t n)
{
    const __m128i m = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 8 * i));
        _mm_storeu_si128((__m128i *)(void *)(dst + 8 * i), _mm_shuffle_epi8(v, m));
    }
    bswap64_portable(dst + 8 * i, src + 8 * i, n - i);
}

__attribute__((target("ssse3")))
static void list_put32_ssse3(uint8_t *dst, const uint8_t *src, size_t n)
{
    /* 4 values in, two 16-byte outputs of [00 00 00 04][value] x 2. */
    const __m128i lo = _mm_setr_epi8(-1, -1, -1, -1, 3, 2, 1, 0, -1, -1, -1, -1, 7, 6, 5, 4);
    const __m128i hi = _mm_setr_epi8(-1, -1, -1, -1, 11, 10, 9, 8, -1, -1, -1, -1, 15, 14, 13, 12);
    const __m128i len = _mm_setr_epi8(0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * i));
        _mm_storeu_si128((__m128i *)(void *)(dst + 8 * i),
                         _mm_or_si128(_mm_shuffle_epi8(v, lo), len));
        _mm_storeu_si128((__m128i *)(void *)(dst + 8 * i + 16),
                         _mm_or_si128(_mm_shuffle_epi8(v, hi), len));
    }
    list_put32_portable(dst + 8 * i, src + 4 * i, n - i);
}

__attribute__((target("ssse3")))
static bool list_get32_ssse3(uint8_t *dst, const uint8_t *src, size_t n)
{
    const __m128i lenmask = _mm_setr_epi8(-1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0);
    const __m128i len = _mm_setr_epi8(0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0);
    const __m128i s0 = _mm_setr_epi8(7, 6, 5, 4, 15, 14, 13, 12, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i s1 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, 7, 6, 5, 4, 15, 14, 13, 12);
    __m128i bad = _mm_setzero_si128();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(src + 8 * i));
        __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(src + 8 * i + 16));
        bad = _mm_or_si128(bad, _mm_xor_si128(_mm_and_si128(a, lenmask), len));
        bad = _mm_or_si128(bad, _mm_xor_si128(_mm_and_si128(b, lenmask), len));
        __m128i v = _mm_or_si128(_mm_shuffle_epi8(a, s0), _mm_shuffle_epi8(b, s1));
        _mm_storeu_si128((__m128i *)(void *)(dst + 4 * i), v);
    }
    bool ok = _mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) == 0xffff;
    return list_get32_portable(dst + 4 * i, src + 8 * i, n - i) && ok;
}

__attribute__((target("avx2")))
static void bswap32_avx2(uint8_t *dst, const uint8_t *src, size_t n)
{
    const __m256i m = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
                                       3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + 4 * i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + 4 * i + 32));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 4 * i), _mm256_shuffle_epi8(a, m));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 4 * i + 32), _mm256_shuffle_epi8(b, m));
    }
    for (; i + 8 <= n; i += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + 4 * i));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 4 * i), _mm256_shuffle_epi8(a, m));
    }
    bswap32_portable(dst + 4 * i, src + 4 * i, n - i);
}

__attribute__((target("avx2")))
static void bswap64_avx2(uint8_t *dst, const uint8_t *src, size_t n)
{
    const __m256i m = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
                                       7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + 8 * i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + 8 * i + 32));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 8 * i), _mm256_shuffle_epi8(a, m));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 8 * i + 32), _mm256_shuffle_epi8(b, m));
    }
    for (; i + 4 <= n; i += 4) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + 8 * i));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 8 * i), _mm256_shuffle_epi8(a, m));
    }
    bswap64_portable(dst + 8 * i, src + 8 * i, n - i);
}

__attribute__((target("avx2")))
static void list_put32_avx2(uint8_t *dst, const uint8_t *src, size_t n)
{
    /* 4 values, broadcast to both lanes; lane 0 builds elements 0-1, lane 1
     * elements 2-3 (pshufb works within a lane). */
    const __m256i m = _mm256_setr_epi8(-1, -1, -1, -1, 3, 2, 1, 0, -1, -1, -1, -1, 7, 6, 5, 4,
                                       -1, -1, -1, -1, 11, 10, 9, 8, -1, -1, -1, -1, 15, 14, 13, 12);
    const __m256i len = _mm256_setr_epi8(0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0,
                                         0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i v0 = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * i));
        __m128i v1 = _mm_loadu_si128((const __m128i *)(const void *)(src + 4 * i + 16));
        __m256i a = _mm256_broadcastsi128_si256(v0);
        __m256i b = _mm256_broadcastsi128_si256(v1);
        _mm256_storeu_si256((__m256i *)(void *)(dst + 8 * i),
                            _mm256_or_si256(_mm256_shuffle_epi8(a, m), len));
        _mm256_storeu_si256((__m256i *)(void *)(dst + 8 * i + 32),
                            _mm256_or_si256(_mm256_shuffle_epi8(b, m), len));
    }
    list_put32_portable(dst + 8 * i, src + 4 * i, n - i);
}

__attribute__((target("avx2")))
static bool list_get32_avx2(uint8_t *dst, const uint8_t *src, size_t n)
{
    const __m256i lenmask = _mm256_setr_epi8(-1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0,
                                             -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0);
    const __m256i len = _mm256_setr_epi8(0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0,
                                         0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0);
    /* Per lane: the two values, swapped, into the low 8 bytes. */
    const __m256i s = _mm256_setr_epi8(7, 6, 5, 4, 15, 14, 13, 12, -1, -1, -1, -1, -1, -1, -1, -1,
                                       7, 6, 5, 4, 15, 14, 13, 12, -1, -1, -1, -1, -1, -1, -1, -1);
    __m256i bad = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(src + 8 * i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(src + 8 * i + 32));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_and_si256(a, lenmask), len));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_and_si256(b, lenmask), len));
        /* qwords: a -> [a0 x a1 x], b -> [b0 x b1 x]; gather a0 a1 b0 b1. */
        __m256i pa = _mm256_shuffle_epi8(a, s);
        __m256i pb = _mm256_shuffle_epi8(b, s);
        __m256i u = _mm256_unpacklo_epi64(pa, pb); /* [a0 b0 | a1 b1] */
        u = _mm256_permute4x64_epi64(u, 0xd8);     /* [a0 a1 b0 b1] */
        _mm256_storeu_si256((__m256i *)(void *)(dst + 4 * i), u);
    }
    bool ok = _mm256_testz_si256(bad, bad) != 0;
    return list_get32_portable(dst + 4 * i, src + 8 * i, n - i) && ok;
}

static bool has_ssse3(void)
{
    return __builtin_cpu_supports("ssse3");
}

static bool has_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#endif /* MOTE_CQL_X86 */

/* ---- ARM NEON ------------------------------------------------------------ */
#if MOTE_CQL_NEON
static void bswap32_neon(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) vst1q_u8(dst + 4 * i, vrev32q_u8(vld1q_u8(src + 4 * i)));
    bswap32_portable(dst + 4 * i, src + 4 * i, n - i);
}

static void bswap64_neon(uint8_t *dst, const uint8_t *src, size_t n)
{
    size_t i = 0;
    for (; i + 2 <= n; i += 2) vst1q_u8(dst + 8 * i, vrev64q_u8(vld1q_u8(src + 8 * i)));
    bswap64_portable(dst + 8 * i, src + 8 * i, n - i);
}
#endif

/* ---- dispatch ------------------------------------------------------------ */

bool mote__cql_simd_available(mote__cql_simd_level level)
{
    switch (level) {
    case MOTE_CQL_SIMD_PORTABLE: return true;
#if MOTE_CQL_X86
    case MOTE_CQL_SIMD_SSSE3: return has_ssse3();
    case MOTE_CQL_SIMD_AVX2: return has_avx2();
#endif
#if MOTE_CQL_NEON
    case MOTE_CQL_SIMD_NEON: return true;
#endif
    default: return false;
    }
}

/* The level to run: the one asked for if present, else the best present
 * (for MOTE_CQL_SIMD_BEST), else portable. */
static mote__cql_simd_level pick(mote__cql_simd_level level)
{
    if (level == MOTE_CQL_SIMD_BEST) {
#if MOTE_CQL_X86
        if (has_avx2()) return MOTE_CQL_SIMD_AVX2;
        if (has_ssse3()) return MOTE_CQL_SIMD_SSSE3;
#endif
#if MOTE_CQL_NEON
        return MOTE_CQL_SIMD_NEON;
#endif
        return MOTE_CQL_SIMD_PORTABLE;
    }
    return mote__cql_simd_available(level) ? level : MOTE_CQL_SIMD_PORTABLE;
}

void mote__cql_bswap32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    switch (pick(level)) {
#if MOTE_CQL_X86
    case MOTE_CQL_SIMD_AVX2: bswap32_avx2(dst, src, n); return;
    case MOTE_CQL_SIMD_SSSE3: bswap32_ssse3(dst, src, n); return;
#endif
#if MOTE_CQL_NEON
    case MOTE_CQL_SIMD_NEON: bswap32_neon(dst, src, n); return;
#endif
    default: bswap32_portable(dst, src, n); return;
    }
}

void mote__cql_bswap64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    switch (pick(level)) {
#if MOTE_CQL_X86
    case MOTE_CQL_SIMD_AVX2: bswap64_avx2(dst, src, n); return;
    case MOTE_CQL_SIMD_SSSE3: bswap64_ssse3(dst, src, n); return;
#endif
#if MOTE_CQL_NEON
    case MOTE_CQL_SIMD_NEON: bswap64_neon(dst, src, n); return;
#endif
    default: bswap64_portable(dst, src, n); return;
    }
}

void mote__cql_list_put32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    switch (pick(level)) {
#if MOTE_CQL_X86
    case MOTE_CQL_SIMD_AVX2: list_put32_avx2(dst, src, n); return;
    case MOTE_CQL_SIMD_SSSE3: list_put32_ssse3(dst, src, n); return;
#endif
    default: list_put32_portable(dst, src, n); return;
    }
}

void mote__cql_list_put64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level; /* 12-byte elements: the scalar loop is as fast as shuffles */
    list_put64_portable(dst, src, n);
}

bool mote__cql_list_get32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    switch (pick(level)) {
#if MOTE_CQL_X86
    case MOTE_CQL_SIMD_AVX2: return list_get32_avx2(dst, src, n);
    case MOTE_CQL_SIMD_SSSE3: return list_get32_ssse3(dst, src, n);
#endif
    default: return list_get32_portable(dst, src, n);
    }
}

bool mote__cql_list_get64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level;
    return list_get64_portable(dst, src, n);
}

#endif /* !MOTE_CQL_SIMD_NONE */
