/*
 * src/cql_kernels.h - cql's byte-swap kernels (private: not installed).
 *
 * Used by cql.c (list/set/vector bulk paths) and cql_simd.c (the SIMD
 * versions), and reached from tests/test_cql.c, fuzz/fuzz_cql_kernels.c and
 * bench/bench_cql.cc by relative path, to pin each level against the
 * portable loop. Not part of the API: names and levels may change.
 */
#ifndef MOTE_CQL_KERNELS_H
#define MOTE_CQL_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mote/be.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mote__cql_simd_level {
    MOTE_CQL_SIMD_PORTABLE = 0,
    MOTE_CQL_SIMD_SSSE3 = 1,
    MOTE_CQL_SIMD_AVX2 = 2,
    MOTE_CQL_SIMD_NEON = 3,
    MOTE_CQL_SIMD_BEST = 255    /* best the CPU supports */
} mote__cql_simd_level;
/* Targets with no SIMD level at all (neither x86 nor NEON: Cortex-M,
 * s390x, ...; and big-endian ones, where the swaps are copies and the SIMD
 * versions would reverse) resolve the dispatch at compile time: the kernels
 * below are the portable loop itself, inline, and cql_simd.c compiles to
 * nothing (Cortex-M size budget). Elsewhere they are functions in
 * cql_simd.c. */
#if (!((defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))) && \
     !defined(__ARM_NEON)) ||                                                                     \
    MOTE_BE_HOST_BIG
#define MOTE_CQL_SIMD_NONE 1
#else
#define MOTE_CQL_SIMD_NONE 0
#endif

/* The portable kernel, one loop for all six (the SIMD levels' tails, their
 * portable level, and everything where there is no level): each element is
 * an optional [int] w header, then the value, host order on one side and
 * big-endian on the other. put: host -> wire with header hdr (0 or 4); get:
 * wire -> host, false if a header is not w (the check accumulated, so the
 * loop has no early exit). Callers pass constants for w, hdr and put. */
static inline bool mote__cql_kernel(uint8_t *dst, const uint8_t *src, size_t n, size_t w,
                                    size_t hdr, bool put)
{
    uint32_t bad = 0;
    const size_t di = put ? w + hdr : w, si = put ? w : w + hdr;
    for (size_t i = 0; i < n; i++, dst += di, src += si) {
        if (put) {
            if (hdr) mote_be_store32(dst, (uint32_t)w);
            if (w == 4) {
                uint32_t v;
                memcpy(&v, src, 4);
                mote_be_store32(dst + hdr, v);
            } else {
                uint64_t v;
                memcpy(&v, src, 8);
                mote_be_store64(dst + hdr, v);
            }
        } else {
            if (hdr) bad |= mote_be_load32(src) ^ (uint32_t)w;
            if (w == 4) {
                const uint32_t v = mote_be_load32(src + hdr);
                memcpy(dst, &v, 4);
            } else {
                const uint64_t v = mote_be_load64(src + hdr);
                memcpy(dst, &v, 8);
            }
        }
    }
    return bad == 0;
}

/* Whether a kernel level is available in this build on this CPU.
 * bswap: dst[i] = src[i] between host order and big-endian (bytes reversed:
 * the kernels serve little-endian hosts) for n elements of 4 (32) or 8 (64)
 * bytes; any alignment, no overlap. Unavailable levels fall back to the
 * portable loop.
 * List bodies of n elements: each element is [int] width then the
 * big-endian value (width 4 or 8): encode writes n*(4+w) bytes; decode reads
 * them and returns false (with dst contents unspecified) if any element
 * length is not w. */
#if MOTE_CQL_SIMD_NONE
static inline bool mote__cql_simd_available(mote__cql_simd_level level)
{
    return level == MOTE_CQL_SIMD_PORTABLE;
}

static inline void mote__cql_bswap32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level;
    mote__cql_kernel(dst, src, n, 4, 0, true);
}
static inline void mote__cql_bswap64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level;
    mote__cql_kernel(dst, src, n, 8, 0, true);
}
static inline void mote__cql_list_put32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level;
    mote__cql_kernel(dst, src, n, 4, 4, true);
}
static inline void mote__cql_list_put64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level;
    mote__cql_kernel(dst, src, n, 8, 4, true);
}
static inline bool mote__cql_list_get32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level;
    return mote__cql_kernel(dst, src, n, 4, 4, false);
}
static inline bool mote__cql_list_get64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level)
{
    (void)level;
    return mote__cql_kernel(dst, src, n, 8, 4, false);
}
#else
bool mote__cql_simd_available(mote__cql_simd_level level);
void mote__cql_bswap32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level);
void mote__cql_bswap64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level);
void mote__cql_list_put32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level);
void mote__cql_list_put64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level);
bool mote__cql_list_get32(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level);
bool mote__cql_list_get64(uint8_t *dst, const uint8_t *src, size_t n, mote__cql_simd_level level);
#endif

#ifdef __cplusplus
}
#endif

#endif /* MOTE_CQL_KERNELS_H */
