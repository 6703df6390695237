/*
 * fuzz_scan_chunks - the scanner gives the same tokens and errors for any
 * chunking: one chunk, 1-byte chunks and pseudo-random chunk sizes must give
 * identical transcripts, and bytes examined must equal the input size.
 *
 * Input: byte 0 dialect (low 3 bits, mod 5) + flags (KEEP_BLANK, PIECES,
 * KEEP_LEADING, max_token on, a two-byte charset: mysql and postgres, byte
 * 4 picks which); byte 1 max_token (1..64) and delimiter length
 * (generic/mysql/postgres: 1..3 bytes taken from bytes 2..4); byte 5 generic
 * comment styles (low 5 bits) and the flags KEEP_COMMENTS,
 * NO_BACKSLASH_ESCAPES, PG_NONSTANDARD_STRINGS (bits 5..7; the last also
 * ANSI_QUOTES: each dialect reads only its own); the rest is the text. Transcripts hold each token's kind and flags (terminated, pieces,
 * escapes, CR removed) besides text and position, so all of the state that
 * is carried across chunks (COPY data, commands, leading comments, sql_mode
 * and standard_conforming_strings from SET, executable comments,
 * parenthesis and BEGIN ... END depth) is compared. Hosted builds scan runs
 * of 64 bytes and more with the block path (whole input) and byte by byte
 * (1-byte chunks), so this also checks one against the other; the whole
 * input also goes through the block path's other classifiers (SSE2 where
 * the CPU has AVX2, and the portable table of a second copy of scan.c) and
 * the grammar alone (a third copy, built as small builds are: none of the
 * fast paths), and the random chunking through one of them or the library,
 * by the seed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mote/scan.h"
#include "portable_scan.h" /* scan.c without SIMD (tests/copies/meson.build) */
#include "small_scan.h"    /* scan.c as small builds have it: the grammar alone */
#include "../tests/scan_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 6 || size > 8192) return 0;
    tr_show_escapes = 1;
    mote_scan_config cfg;
    if (mote_scan_config_init(&cfg, (mote_scan_dialect)((data[0] & 7) % 5)) != MOTE_OK) abort();
    if (data[0] & 0x08) cfg.flags |= MOTE_SCAN_KEEP_BLANK;
    if (data[0] & 0x20) cfg.flags |= MOTE_SCAN_KEEP_LEADING;
    if (data[0] & 0x40) cfg.max_token = 1u + (data[1] & 63u);
    if ((data[0] & 0x10) && cfg.max_token) cfg.flags |= MOTE_SCAN_PIECES;
    if ((data[0] & 0x80) && (cfg.dialect == MOTE_SCAN_MYSQL || cfg.dialect == MOTE_SCAN_POSTGRES))
        cfg.charset = (mote_scan_charset)(1u + data[4] % 3u);
    size_t dl = (size_t)(data[1] >> 6);
    if (dl && cfg.dialect != MOTE_SCAN_SQLITE && cfg.dialect != MOTE_SCAN_LINES) {
        cfg.delim = data + 2;
        cfg.delim_len = dl;
    }
    if (cfg.dialect == MOTE_SCAN_GENERIC) cfg.comments = data[5] & 0x1fu;
    if (data[5] & 0x20) cfg.flags |= MOTE_SCAN_KEEP_COMMENTS;
    if (data[5] & 0x40) cfg.flags |= MOTE_SCAN_NO_BACKSLASH_ESCAPES;
    if (data[5] & 0x80) cfg.flags |= MOTE_SCAN_PG_NONSTANDARD_STRINGS | MOTE_SCAN_ANSI_QUOTES;
    const uint8_t *in = data + 6;
    size_t n = size - 6;

    transcript whole = scan_all(&cfg, in, n, n ? n : 1, 0);
    if (strcmp(whole.s, "INIT\n") == 0) { /* rejected configuration */
        free(whole.s);
        return 0;
    }
    if (whole.stats.bytes_examined != n) abort();
    if (scan_variants_differ(&cfg, in, n, &whole)) abort();
    transcript one = scan_all(&cfg, in, n, 1, 0);
    if (strcmp(one.s, whole.s) != 0 || one.stats.bytes_examined != n) abort();
    uint32_t seed = 1;
    for (size_t i = 0; i < n && i < 16; i++) seed = seed * 31u + in[i];
    transcript var = scan_chunks_with(scan_variant(seed, NULL), &cfg, in, n, 0, seed | 1u, 0);
    if (strcmp(var.s, whole.s) != 0 || var.stats.bytes_examined != n) abort();
    free(whole.s);
    free(one.s);
    free(var.s);
    return 0;
}
