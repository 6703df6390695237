/*
 * fuzz_lp_decode.c - whole-input decoding of any bytes. Properties:
 *   - every view lies inside the input; unescaping never makes a view longer
 *     (and an escaped view always shorter); arrays and iteration agree;
 *   - every error has a known code, a message, and a position inside the
 *     input (offset, line >= 1, column >= 1, at or after its line's start);
 *   - decoding is deterministic (two runs give the same results);
 *   - converting a tokenized point's values and time one by one succeeds
 *     exactly when mote_lp_point_decode does, and its errors lie in the line;
 *   - the speed paths (the grammar's instance without end checks,
 *     word-at-a-time scans, key prediction) give exactly what the byte-by-
 *     byte grammar of small builds gives (lp.c again with MOTE_LP_FAST=0, the
 *     small_lp copy of tests/copies/meson.build): every result code, error
 *     position and message (phrase, unless the library is a MOTE_SMALL one
 *     and gives the code's message), every view (same pointer, length,
 *     flags), count and typed value, also with small caller arrays.
 * Byte 0 chooses the options; the rest is the input.
 */
#include "lp_fuzz.h"
#include "small_lp.h" /* lp.c with MOTE_LP_FAST=0, tests/copies/meson.build */

static void same_text(const mote_lp_text *a, const mote_lp_text *b)
{
    if (a->ptr != b->ptr || a->len != b->len || a->escaped != b->escaped ||
        a->context != b->context) {
        abort();
    }
}

static void same_view(mote_view a, mote_view b)
{
    if (a.len != b.len || (a.len && a.ptr != b.ptr)) abort();
}

static void same_field(const mote_lp_field *a, const mote_lp_field *b)
{
    same_text(&a->key, &b->key);
    same_text(&a->raw, &b->raw);
    if (a->type != b->type || a->decoded != b->decoded) abort();
    if (!a->decoded) return;
    switch (a->type) {
    case MOTE_LP_FLOAT:
        if (memcmp(&a->value.f, &b->value.f, sizeof a->value.f) != 0) abort();
        break;
    case MOTE_LP_INT: if (a->value.i != b->value.i) abort(); break;
    case MOTE_LP_UINT: if (a->value.u != b->value.u) abort(); break;
    case MOTE_LP_BOOL: if (a->value.b != b->value.b) abort(); break;
    default: same_text(&a->value.s, &b->value.s); break;
    }
}

/* The library and the small copy side by side over the whole input, with
 * caller arrays of cap entries. */
static void against_small(const uint8_t *data, size_t size, const mote_lp_config *opt,
                          size_t cap)
{
    mote_lp_decoder da, db;
    if (mote_lp_decoder_init(&da, data, size, opt) != MOTE_OK) abort();
    if (small_mote_lp_decoder_init(&db, data, size, opt) != MOTE_OK) abort();
    mote_lp_tag ta[4], tb[4];
    mote_lp_field fa[4], fb[4];
    for (size_t guard = 0; guard <= size + 1; guard++) {
        mote_lp_point a, b;
        mote_lp_error ea, eb;
        if (mote_lp_point_init(&a, ta, cap, fa, cap) != MOTE_OK) abort();
        if (small_mote_lp_point_init(&b, tb, cap, fb, cap) != MOTE_OK) abort();
        mote_err ra = mote_lp_next(&da, &a, &ea);
        mote_err rb = small_mote_lp_next(&db, &b, &eb);
        if (ra != rb) abort();
        if (ra == MOTE_ERR_NEED_MORE) return;
        if (ra == MOTE_OK) {
            ra = mote_lp_point_decode(&a, opt, &ea);
            rb = small_mote_lp_point_decode(&b, opt, &eb);
            if (ra != rb) abort();
        }
        if (ra != MOTE_OK) {
            if (ea.code != eb.code || ea.pos.offset != eb.pos.offset ||
                ea.pos.line != eb.pos.line || ea.pos.column != eb.pos.column ||
                ea.line_offset != eb.line_offset) {
                abort();
            }
            /* A MOTE_SMALL library gives the code's own message instead of
             * the line parser's phrase; otherwise the phrases agree. */
            if (strcmp(ea.message, mote_err_message(ea.code)) != 0 &&
                strcmp(ea.message, eb.message) != 0) {
                abort();
            }
            continue;
        }
        same_text(&a.measurement, &b.measurement);
        if (a.ntags != b.ntags || a.nfields != b.nfields) abort();
        for (size_t i = 0; i < a.ntags && i < cap; i++) {
            same_text(&ta[i].key, &tb[i].key);
            same_text(&ta[i].value, &tb[i].value);
        }
        for (size_t i = 0; i < a.nfields && i < cap; i++) same_field(&fa[i], &fb[i]);
        same_view(a.tag_section, b.tag_section);
        same_view(a.field_section, b.field_section);
        same_view(a.time_text, b.time_text);
        same_view(a.text, b.text);
        if (a.has_time != b.has_time || a.decoded != b.decoded || a.time != b.time ||
            a.offset != b.offset || a.line != b.line || a.column != b.column) {
            abort();
        }
    }
    abort(); /* more results than lines: no progress */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    mote_lp_config opt;
    opts_from(data[0], &opt);
    data++;
    size--;

    fbuf a = {0}, b = {0};
    decode_whole(data, size, &opt, &a);
    decode_whole(data, size, &opt, &b);
    if (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n) != 0)) abort();
    against_small(data, size, &opt, 4);
    against_small(data, size, &opt, 1);

    /* Tokenize, then decode: converting the values and time one by one
     * succeeds exactly when mote_lp_point_decode does, and a decode error
     * lies inside its line. */
    mote_lp_decoder tok;
    if (mote_lp_decoder_init(&tok, data, size, &opt) != MOTE_OK) abort();
    for (;;) {
        mote_lp_point pt;
        mote_lp_error e;
        if (mote_lp_point_init(&pt, NULL, 0, NULL, 0) != MOTE_OK) abort();
        mote_err r = mote_lp_next(&tok, &pt, &e);
        if (r == MOTE_ERR_NEED_MORE) break;
        if (r != MOTE_OK) continue;
        mote_lp_iter it;
        mote_lp_field f;
        bool all_ok = true;
        mote_lp_fields_begin(&pt, &it);
        while (mote_lp_fields_next(&it, &f)) {
            if (mote_lp_field_decode(&f) != MOTE_OK) all_ok = false;
        }
        if (mote_lp_point_decode_time(&pt, opt.precision, opt.default_time) != MOTE_OK)
            all_ok = false;
        int64_t t = pt.time;
        r = mote_lp_point_decode(&pt, &opt, &e);
        if ((r == MOTE_OK) != all_ok) abort();
        if (r == MOTE_OK && pt.time != t) abort();
        if (r != MOTE_OK) {
            fbuf tmp = {0};
            fb_error(&tmp, r, &e, size);
            free(tmp.p);
            if (e.pos.offset < pt.offset || e.pos.offset > pt.offset + pt.text.len) abort();
        }
    }
    free(a.p);
    free(b.p);
    return 0;
}
