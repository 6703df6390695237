/*
 * fuzz_scan_sqlite - the sqlite dialect against SQLite's own
 * sqlite3_complete(): the first statement (blank and comment-only ones
 * included; leading comments split off a statement are skipped) ends exactly
 * at the shortest prefix SQLite calls complete, and if the scanner finds no
 * delimiter-ended statement, no prefix is complete.
 *
 * sqlite3_complete() reads a C string, so the input is cut at its first NUL
 * (the scanner treats NUL as data). Inputs that start with a UTF-8 BOM are
 * skipped: the scanner drops the BOM, SQLite would read it as part of an
 * identifier.
 */
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mote/scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int complete_prefix(const uint8_t *in, size_t len)
{
    char *s = malloc(len + 1);
    memcpy(s, in, len);
    s[len] = 0;
    int r = sqlite3_complete(s);
    free(s);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    const uint8_t *nul = memchr(data, 0, size);
    size_t n = nul ? (size_t)(nul - data) : size;
    if (n >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) return 0;

    mote_scan_config cfg;
    if (mote_scan_config_init(&cfg, MOTE_SCAN_SQLITE) != MOTE_OK) abort();
    /* comment-only statements are statements to sqlite3_complete() */
    cfg.flags = MOTE_SCAN_KEEP_BLANK | MOTE_SCAN_KEEP_COMMENTS;
    uint8_t *mem = malloc(n + 1);
    mote_buf b;
    if (mote_buf_init_fixed(&b, mem, n + 1) != MOTE_OK) abort(); /* malloc failed */
    mote_scanner sc;
    if (mote_scan_init(&sc, &cfg, &b) != MOTE_OK) abort();
    mote_scan_token tok;
    if (mote_scan_feed(&sc, data, n) != MOTE_OK) abort();
    mote_err e;
    bool fin = false;
    for (;;) {
        e = mote_scan_next(&sc, &tok);
        if (e == MOTE_ERR_NEED_MORE && !fin) {
            if (mote_scan_finish(&sc) != MOTE_OK) abort();
            fin = true;
            continue;
        }
        /* leading comments split off the first statement end at no ';' */
        if (e == MOTE_OK && tok.kind == MOTE_SCAN_COMMENT &&
            (tok.pos.offset + tok.text.len >= n || data[tok.pos.offset + tok.text.len] != ';'))
            continue;
        break;
    }
    size_t end = 0; /* 0: no complete prefix */
    if (e == MOTE_OK && (tok.flags & MOTE_SCAN_TOK_DELIM)) {
        end = (size_t)tok.pos.offset + tok.text.len + 1;
        if (end > n || data[end - 1] != ';') abort();
        if (!complete_prefix(data, end)) abort();
    }
    /* no shorter complete prefix; a complete prefix always ends at a ';' */
    size_t lim = end ? end - 1 : n;
    for (size_t i = 0; i < lim; i++) {
        if (data[i] == ';' && complete_prefix(data, i + 1)) abort();
    }
    if (!end && complete_prefix(data, n)) abort();
    free(mem);
    return 0;
}
