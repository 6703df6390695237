/*
 * fuzz_scan_split - mote_split() and the streaming scanner agree where both
 * apply: generic dialect, one-byte delimiter, '"' quotes, '\\' escapes, no
 * comments. When the scanner reports no error (an unterminated quote is an
 * error for it, the rest of the input for split), its tokens are exactly
 * split's parts, at the same offsets, but for a last part after the last
 * delimiter that is all blanks: split returns it, the scanner does not
 * (scan.h, MOTE_SCAN_KEEP_BLANK). Byte 0 is the delimiter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mote/scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536) return 0;
    uint8_t d = data[0];
    const uint8_t *in = data + 1;
    size_t n = size - 1;
    if (d == '"' || d == '\\') return 0;
    /* the scanner skips a BOM at offset 0 and split does not */
    if (n >= 3 && in[0] == 0xEF && in[1] == 0xBB && in[2] == 0xBF) return 0;

    size_t count = 0;
    if (mote_split(in, n, d, NULL, 0, &count) == MOTE_ERR_INVALID) abort();
    mote_view *parts = malloc((count ? count : 1) * sizeof *parts);
    size_t count2 = 0;
    if (mote_split(in, n, d, parts, count, &count2) != MOTE_OK || count2 != count) abort();
    if (count && parts[count - 1].ptr + parts[count - 1].len == in + n) {
        size_t j = 0;
        const mote_view *last = &parts[count - 1];
        while (j < last->len && (last->ptr[j] == ' ' || (last->ptr[j] >= '\t' && last->ptr[j] <= '\r'))) j++;
        if (j == last->len) count--;
    }

    mote_scan_config cfg;
    if (mote_scan_config_init(&cfg, MOTE_SCAN_GENERIC) != MOTE_OK) abort();
    cfg.quotes = "\"";
    cfg.escape = '\\';
    cfg.delim = &d;
    cfg.delim_len = 1;
    uint8_t *mem = malloc(n + 1);
    mote_buf b;
    if (mote_buf_init_fixed(&b, mem, n + 1) != MOTE_OK) abort(); /* malloc failed */
    mote_scanner sc;
    if (mote_scan_init(&sc, &cfg, &b) != MOTE_OK) abort();
    /* chunks of 7 bytes: tokens come from the chunk and from the carry */
    size_t off = 0, k = 0;
    bool bad = false;
    mote_scan_token tok;
    mote_err e;
    for (;;) {
        size_t c = n - off < 7 ? n - off : 7;
        if ((c ? mote_scan_feed(&sc, in + off, c) : mote_scan_finish(&sc)) != MOTE_OK) abort();
        off += c;
        while ((e = mote_scan_next(&sc, &tok)) != MOTE_ERR_NEED_MORE) {
            if (e != MOTE_OK) {
                if (e != MOTE_ERR_UNTERMINATED_QUOTE) abort();
                bad = true;
                continue;
            }
            if (k >= count) abort();
            if (tok.text.len != parts[k].len ||
                memcmp(tok.text.ptr, parts[k].ptr, tok.text.len) != 0 ||
                tok.pos.offset != (uint64_t)(parts[k].ptr - in))
                abort();
            k++;
        }
        if (!c) break;
    }
    if (!bad && k != count) abort();
    free(parts);
    free(mem);
    return 0;
}
