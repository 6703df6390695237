/*
 * lp_fuzz.h - helpers shared by the line-protocol fuzz targets: a canonical
 * serialization of decode results (points unescaped, errors with positions)
 * so two decodes can be compared byte for byte, and the checks every point
 * and error must pass. Violations abort().
 */
#ifndef MOTE_LP_FUZZ_H
#define MOTE_LP_FUZZ_H

#include <stdlib.h>
#include <string.h>

#include "mote/lp.h"

typedef struct fbuf {
    uint8_t *p;
    size_t n, cap;
} fbuf;

static inline void fb_put(fbuf *b, const void *p, size_t n)
{
    if (n > b->cap - b->n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->n < n) cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) abort();
        b->p = q;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
}

static inline void fb_u64(fbuf *b, uint64_t v)
{
    fb_put(b, &v, sizeof v);
}

/* A view must lie inside [lo, hi) (or be empty). */
static inline void check_in(const void *ptr, size_t len, const uint8_t *lo, const uint8_t *hi)
{
    const uint8_t *p = ptr;
    if (len == 0) return;
    if (!p || p < lo || p > hi || len > (size_t)(hi - p)) abort();
}

/* Unescape t (checking it is never longer than the view) and append it. */
static inline void fb_text(fbuf *b, const mote_lp_text *t, const uint8_t *lo, const uint8_t *hi)
{
    check_in(t->ptr, t->len, lo, hi);
    uint8_t *tmp = malloc(t->len + 1);
    if (!tmp) abort();
    size_t n = 0;
    if (mote_lp_unescape(t, tmp, t->len, &n) != MOTE_OK || n > t->len) abort();
    if (!t->escaped && (n != t->len || (n && memcmp(tmp, t->ptr, n) != 0))) abort();
    if (t->escaped && n >= t->len) abort(); /* an escape makes it shorter */
    fb_u64(b, n);
    fb_put(b, tmp, n);
    free(tmp);
}

static inline void fb_field(fbuf *b, const mote_lp_field *f, const uint8_t *lo, const uint8_t *hi)
{
    fb_text(b, &f->key, lo, hi);
    fb_u64(b, (uint64_t)f->type);
    fb_u64(b, f->decoded);
    if (f->type == MOTE_LP_STRING) {
        fb_text(b, &f->value.s, lo, hi);
    } else if (f->decoded) {
        uint64_t bits = 0;
        switch (f->type) {
        case MOTE_LP_FLOAT: memcpy(&bits, &f->value.f, 8); break;
        case MOTE_LP_INT: bits = (uint64_t)f->value.i; break;
        case MOTE_LP_UINT: bits = f->value.u; break;
        default: bits = f->value.b; break;
        }
        fb_u64(b, bits);
    } else {
        fb_text(b, &f->raw, lo, hi);
    }
}

/* Serialize a point, checking arrays and iteration agree and every view lies
 * in [lo, hi). */
static inline void fb_point(fbuf *b, const mote_lp_point *pt, const uint8_t *lo, const uint8_t *hi)
{
    fb_put(b, "P", 1);
    fb_u64(b, pt->offset);
    fb_u64(b, pt->line);
    if (pt->line < 1 || pt->measurement.len == 0) abort();
    fb_text(b, &pt->measurement, lo, hi);
    check_in(pt->text.ptr, pt->text.len, lo, hi);
    fb_u64(b, pt->ntags);
    mote_lp_iter it;
    mote_lp_tag tag;
    size_t k = 0;
    mote_lp_tags_begin(pt, &it);
    while (mote_lp_tags_next(&it, &tag)) {
        if (k < pt->tags_cap && (tag.key.ptr != pt->tags[k].key.ptr || tag.value.len != pt->tags[k].value.len))
            abort();
        if (tag.key.len == 0 || tag.value.len == 0) abort();
        fb_text(b, &tag.key, lo, hi);
        fb_text(b, &tag.value, lo, hi);
        k++;
    }
    if (k != pt->ntags) abort();
    fb_u64(b, pt->nfields);
    if (pt->nfields == 0) abort();
    mote_lp_field f;
    k = 0;
    mote_lp_fields_begin(pt, &it);
    while (mote_lp_fields_next(&it, &f)) {
        /* a decoded point's every value converts on its own too */
        if (pt->decoded && mote_lp_field_decode(&f) != MOTE_OK) abort();
        if (k < pt->fields_cap) {
            const mote_lp_field *a = &pt->fields[k];
            if (a->type != f.type || a->raw.ptr != f.raw.ptr || a->raw.len != f.raw.len ||
                a->decoded != f.decoded) {
                abort();
            }
        }
        fb_field(b, &f, lo, hi);
        k++;
    }
    if (k != pt->nfields) abort();
    fb_u64(b, pt->has_time);
    fb_u64(b, (uint64_t)pt->time);
}

static inline void fb_error(fbuf *b, mote_err rc, const mote_lp_error *e, uint64_t input_len)
{
    if (rc == MOTE_OK || e->code != rc || !e->message) abort();
    if (strcmp(mote_err_name(rc), "UNKNOWN") == 0) abort();
    if (e->pos.offset > input_len || e->line_offset > e->pos.offset) abort();
    if (e->pos.line < 1 || e->pos.column < 1 || e->pos.column > e->pos.offset + 1) abort();
    fb_put(b, "E", 1);
    fb_u64(b, (uint64_t)rc);
    fb_u64(b, e->pos.offset);
    fb_u64(b, e->pos.line);
    fb_u64(b, e->pos.column);
    fb_u64(b, e->line_offset);
}

/* Options from one byte, so the fuzzer explores precisions and limits. */
static inline void opts_from(uint8_t c, mote_lp_config *opt)
{
    if (mote_lp_config_init(opt) != MOTE_OK) abort();
    opt->precision = (mote_lp_precision)(c & 3);
    opt->default_time = (c & 4) ? -1234567890123LL : 42;
    if (c & 8) opt->max_key = 8;
    if (c & 16) opt->max_string = 5;
    if (c & 32) opt->max_line = 40;
}

/* Decode data[0..size), which must be exactly one good point, into b
 * (fb_point: "P", offset and line first, the point from the measurement on
 * at FB_POINT_BODY). */
enum { FB_POINT_BODY = 1 + 2 * sizeof(uint64_t) };
static inline void decode_one(const uint8_t *data, size_t size, const mote_lp_config *opt, fbuf *b)
{
    mote_lp_decoder d;
    if (mote_lp_decoder_init(&d, data, size, opt) != MOTE_OK) abort();
    mote_lp_point pt;
    if (mote_lp_point_init(&pt, NULL, 0, NULL, 0) != MOTE_OK) abort();
    if (mote_lp_next(&d, &pt, NULL) != MOTE_OK) abort();
    if (mote_lp_point_decode(&pt, opt, NULL) != MOTE_OK) abort();
    fb_point(b, &pt, data, data + size);
    if (mote_lp_next(&d, &pt, NULL) != MOTE_ERR_NEED_MORE) abort();
}

/* Decode all of data with the whole-input decoder into b. */
static inline void decode_whole(const uint8_t *data, size_t size, const mote_lp_config *opt, fbuf *b)
{
    mote_lp_decoder d;
    if (mote_lp_decoder_init(&d, data, size, opt) != MOTE_OK) abort();
    mote_lp_tag tags[3];
    mote_lp_field fields[3];
    for (size_t guard = 0; guard <= size + 1; guard++) {
        mote_lp_point pt;
        if (mote_lp_point_init(&pt, tags, 3, fields, 3) != MOTE_OK) abort();
        mote_lp_error err;
        mote_err rc = mote_lp_next(&d, &pt, &err);
        if (rc == MOTE_ERR_NEED_MORE) return;
        if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, opt, &err);
        if (rc == MOTE_OK) fb_point(b, &pt, data, data + size);
        else fb_error(b, rc, &err, size);
    }
    abort(); /* more results than lines: no progress */
}

#endif
