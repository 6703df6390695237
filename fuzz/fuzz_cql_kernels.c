/*
 * fuzz_cql_kernels.c - every byte-swap kernel level == the portable loop.
 *
 * Input: byte 0 picks the level, byte 1 the source/destination offsets
 * (alignment), the rest is the data; element counts run over every value
 * the data allows. Properties: each kernel's output equals the portable
 * one's, byte for byte, no byte outside the destination range is written,
 * and the list decoders agree on accepting or rejecting the lengths.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mote/cql.h"
#include "../src/cql_kernels.h" /* private: the kernels are pinned here */

static const mote__cql_simd_level levels[] = {MOTE_CQL_SIMD_SSSE3, MOTE_CQL_SIMD_AVX2,
                                              MOTE_CQL_SIMD_NEON, MOTE_CQL_SIMD_BEST};

#define PAD 32

static void cmp(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (memcmp(a, b, n) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
static const struct {
    void (*fn)(uint8_t *, const uint8_t *, size_t, mote__cql_simd_level);
    size_t unit; /* input bytes per element */
} encoders[] = {
    {mote__cql_bswap32, 4},
    {mote__cql_bswap64, 8},
    {mote__cql_list_put32, 4},
    {mote__cql_list_put64, 12},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    mote__cql_simd_level level = levels[data[0] % 4];
    size_t soff = data[1] & 7, doff = (data[1] >> 3) & 7;
    const uint8_t *in = data + 2;
    size_t n = size - 2;
    if (n > 4096) n = 4096;
    uint8_t *src = malloc(n + 8);
    uint8_t *a = malloc(2 * n + 2 * PAD + 8), *b = malloc(2 * n + 2 * PAD + 8);
    if (!src || !a || !b) abort();
    memcpy(src + soff, in, n);
    const uint8_t *s = src + soff;
    size_t total = 2 * n + 2 * PAD + 8;
    /* Counts: all of the data, and a few shorter ones for the tails. */
    size_t counts[3] = {n, n / 2, n > 3 ? n - 3 : 0};
    for (int ci = 0; ci < 3; ci++) {
        size_t bytes = counts[ci];
        /* The encoders: portable and chosen level over the same source,
         * count in elements of their input size. */
        for (size_t k = 0; k < sizeof encoders / sizeof encoders[0]; k++) {
            memset(a, 0xa5, total);
            memset(b, 0xa5, total);
            encoders[k].fn(a + PAD + doff, s, bytes / encoders[k].unit, MOTE_CQL_SIMD_PORTABLE);
            encoders[k].fn(b + PAD + doff, s, bytes / encoders[k].unit, level);
            cmp(a, b, total);
        }
        /* Decoders on the raw data (lengths mostly wrong) and on a valid
         * encoding (lengths right). */
        for (int valid = 0; valid < 2; valid++) {
            const uint8_t *body = s;
            uint8_t *enc = NULL;
            size_t k = bytes / 8;
            if (valid) {
                enc = malloc(k * 8 + 1);
                if (!enc) abort();
                mote__cql_list_put32(enc, s, k, MOTE_CQL_SIMD_PORTABLE);
                body = enc;
            }
            memset(a, 0xa5, total);
            memset(b, 0xa5, total);
            bool ra = mote__cql_list_get32(a + PAD + doff, body, k, MOTE_CQL_SIMD_PORTABLE);
            bool rb = mote__cql_list_get32(b + PAD + doff, body, k, level);
            if (ra != rb || (valid && !ra)) abort();
            if (ra) cmp(a, b, total);
            if (valid && memcmp(a + PAD + doff, s, k * 4) != 0) abort();
            free(enc);
            k = bytes / 12;
            ra = mote__cql_list_get64(a + PAD + doff, s, k, MOTE_CQL_SIMD_PORTABLE);
            rb = mote__cql_list_get64(b + PAD + doff, s, k, level);
            if (ra != rb) abort();
            if (ra) cmp(a, b, total);
        }
    }
    free(src);
    free(a);
    free(b);
    return 0;
}
