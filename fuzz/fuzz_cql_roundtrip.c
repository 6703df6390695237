/*
 * fuzz_cql_roundtrip.c - typed values from the input, encoded and decoded.
 *
 * Input: byte 0 picks an element kind, byte 1 the shape (list, vector, map
 * with a text key, and whether to use the writer), the rest are element
 * values (raw bytes of the C array; views are cut from the input). Properties:
 *  - bulk encode == the element-by-element writer, byte for byte, and the
 *    size functions predict the length exactly;
 *  - the bytes validate, and bulk decode gives back the values (booleans
 *    normalised to 0/1);
 *  - a buffer one byte short is SPACE with the size reported.
 * Views (text, blob) take lengths 0..38 from the input: every size class of
 * the short-copy paths.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mote/be.h"
#include "mote/cql.h"

static const int kinds[] = {
    MOTE_CQL_INT, MOTE_CQL_BIGINT, MOTE_CQL_FLOAT, MOTE_CQL_DOUBLE, MOTE_CQL_UUID,
    MOTE_CQL_BOOLEAN, MOTE_CQL_TINYINT, MOTE_CQL_SMALLINT, MOTE_CQL_DATE, MOTE_CQL_TIME,
    MOTE_CQL_TIMESTAMP, MOTE_CQL_COUNTER, MOTE_CQL_TIMEUUID, MOTE_CQL_TEXT, MOTE_CQL_BLOB,
};

static size_t width_of(int kind)
{
    switch (kind) {
    case MOTE_CQL_BOOLEAN:
    case MOTE_CQL_TINYINT: return 1;
    case MOTE_CQL_SMALLINT: return 2;
    case MOTE_CQL_INT:
    case MOTE_CQL_DATE:
    case MOTE_CQL_FLOAT: return 4;
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: return 16;
    case MOTE_CQL_TEXT:
    case MOTE_CQL_BLOB: return 0;
    default: return 8;
    }
}

/* Feeds element i of a C array to the writer. */
static mote_err write_elem(mote_cql_writer *w, int kind, const uint8_t *a, size_t i)
{
    size_t wd = width_of(kind);
    if (wd == 0) {
        const mote_view *v = (const mote_view *)(const void *)a + i;
        return v->ptr ? mote_cql_write_bytes(w, v->ptr, v->len) : mote_cql_write_null(w);
    }
    const uint8_t *p = a + i * wd;
    switch (kind) {
    case MOTE_CQL_BOOLEAN: return mote_cql_write_bool(w, p[0] != 0);
    case MOTE_CQL_TINYINT: return mote_cql_write_int(w, (int8_t)p[0]);
    case MOTE_CQL_SMALLINT: { int16_t v; memcpy(&v, p, 2); return mote_cql_write_int(w, v); }
    case MOTE_CQL_INT: { int32_t v; memcpy(&v, p, 4); return mote_cql_write_int(w, v); }
    case MOTE_CQL_DATE: { uint32_t v; memcpy(&v, p, 4); return mote_cql_write_int(w, v); }
    case MOTE_CQL_FLOAT: {
        /* through bytes: a float -> double -> float trip would quiet a
         * signalling NaN */
        uint8_t b[4];
        uint32_t u;
        memcpy(&u, p, 4);
        mote_be_store32(b, u);
        return mote_cql_write_bytes(w, b, 4);
    }
    case MOTE_CQL_DOUBLE: { double v; memcpy(&v, p, 8); return mote_cql_write_float(w, v); }
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: return mote_cql_write_bytes(w, p, 16);
    default: { int64_t v; memcpy(&v, p, 8); return mote_cql_write_int(w, v); }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    int kind = kinds[data[0] % (sizeof kinds / sizeof kinds[0])];
    int shape = data[1] % 3; /* 0 list, 1 vector, 2 map<text, kind> */
    const uint8_t *p = data + 2;
    size_t n = size - 2;
    size_t wd = width_of(kind);
    if (shape == 1 && (kind == MOTE_CQL_TEXT || kind == MOTE_CQL_BLOB) && n == 0) return 0;
    /* Build the C array. */
    size_t count;
    static mote_view views[512], keys[512];
    static uint8_t arr[4096];
    const void *src;
    if (wd) {
        count = n / wd;
        if (count > 256) count = 256;
        memcpy(arr, p, count * wd);
        src = arr;
    } else {
        /* views: each byte b starts an element of length b % 40 (39: empty) */
        count = 0;
        size_t at = 0;
        while (at < n && count < 512) {
            size_t l = p[at] % 40; /* covers every short-copy size class */
            at++;
            if (l == 39) { /* empty value (encoders refuse nulls in collections) */
                views[count].ptr = p;
                views[count].len = 0;
            } else {
                if (l > n - at) l = n - at;
                views[count].ptr = p + at;
                views[count].len = l;
                at += l;
            }
            count++;
        }
        src = views;
    }
    if (shape == 1 && count == 0) return 0;
    if (shape == 2) {
        for (size_t i = 0; i < count; i++) {
            keys[i].ptr = p + (i % (n ? n : 1));
            keys[i].len = n ? 1 : 0;
            if (!n) keys[i].ptr = (const uint8_t *)"";
        }
    }
    char tt[64];
    const char *kn = mote_cql_kind_name(kind);
    /* The type parser refuses a counter in a list or map, as the server
     * does; the bulk codecs still take the kind, and its wire form is
     * bigint's: the writer's side uses that type. */
    if (kind == MOTE_CQL_COUNTER && shape != 1) kn = "bigint";
    size_t tl;
    switch (shape) {
    case 0: tl = (size_t)snprintf(tt, sizeof tt, "list<%s>", kn); break;
    case 1: tl = (size_t)snprintf(tt, sizeof tt, "vector<%s, %zu>", kn, count); break;
    default: tl = (size_t)snprintf(tt, sizeof tt, "map<text, %s>", kn); break;
    }
    static mote_cql_type nodes[8];
    const mote_cql_type *t;
    if (mote_cql_type_parse(tt, tl, nodes, 8, NULL, &t)) abort();

    size_t need = 0;
    mote_err e = shape == 0 ? mote_cql_list_size(kind, src, count, &need)
               : shape == 1 ? mote_cql_vector_size(kind, src, count, &need)
                            : mote_cql_map_size(MOTE_CQL_TEXT, keys, kind, src, count, &need);
    if (e) abort();
    uint8_t *out = malloc(need), *out2 = malloc(need);
    if (!out || !out2) abort();
    size_t w = 0;
    e = shape == 0 ? mote_cql_encode_list(kind, src, count, out, need, &w)
      : shape == 1 ? mote_cql_encode_vector(kind, src, count, out, need, &w)
                   : mote_cql_encode_map(MOTE_CQL_TEXT, keys, kind, src, count, out, need, &w);
    if (e || w != need) abort();
    /* One byte short: SPACE, size still reported. */
    size_t w2 = 0;
    e = shape == 0 ? mote_cql_encode_list(kind, src, count, out2, need - 1, &w2)
      : shape == 1 ? mote_cql_encode_vector(kind, src, count, out2, need - 1, &w2)
                   : mote_cql_encode_map(MOTE_CQL_TEXT, keys, kind, src, count, out2, need - 1, &w2);
    if (e != MOTE_ERR_SPACE || w2 != need) abort();
    /* The writer produces the same bytes. */
    mote_cql_writer wr;
    if (mote_cql_writer_init(&wr, t, out2, need) != MOTE_OK) abort();
    if (mote_cql_write_begin(&wr)) abort();
    for (size_t i = 0; i < count; i++) {
        if (shape == 2 && mote_cql_write_bytes(&wr, keys[i].ptr, keys[i].len)) abort();
        if (write_elem(&wr, kind, src, i)) abort();
    }
    if (mote_cql_write_end(&wr) || mote_cql_writer_finish(&wr, &w2) || w2 != need) abort();
    if (memcmp(out, out2, need) != 0) abort();
    /* Bytes are valid; bulk decode returns the values. */
    mote_err v = mote_cql_validate(t, out, need);
    if (v && !(v == MOTE_ERR_MISMATCH && (kind == MOTE_CQL_TEXT || shape == 2)))
        abort(); /* text (values or map keys) may be bad UTF-8 */
    static uint8_t back[4096 + 512 * sizeof(mote_view)];
    static mote_view kback[512];
    size_t got = 0;
    e = shape == 0 ? mote_cql_decode_list(kind, out, need, back, count, &got)
      : shape == 1 ? mote_cql_decode_vector(kind, out, need, back, count)
                   : mote_cql_decode_map(MOTE_CQL_TEXT, out, need, kback, kind, back, count, &got);
    if (e) abort();
    if (shape != 1 && got != count) abort();
    for (size_t i = 0; i < count; i++) {
        if (wd) {
            const uint8_t *a = arr + i * wd, *b = back + i * wd;
            if (kind == MOTE_CQL_BOOLEAN ? (b[0] != (a[0] != 0)) : memcmp(a, b, wd) != 0) abort();
        } else {
            const mote_view *a = views + i, *b = (const mote_view *)(const void *)back + i;
            if ((a->ptr == NULL) != (b->ptr == NULL) || a->len != b->len) abort();
            if (a->len && memcmp(a->ptr, b->ptr, a->len) != 0) abort();
        }
    }
    free(out);
    free(out2);
    return 0;
}
