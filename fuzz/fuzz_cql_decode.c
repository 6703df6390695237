/*
 * fuzz_cql_decode.c - any bytes as a value of a type chosen by the input.
 *
 * Input: byte 0 picks a type from the table below; 0xff instead takes type
 * text up to the first newline (so the type parser is fuzzed too). The rest
 * is the value. Properties (abort on violation):
 *  - validate OK  =>  walking the value with iterators and rebuilding it with
 *    the general writer gives back exactly the input bytes, and measuring
 *    gives exactly its length;
 *  - for lists, sets and vectors of native kinds the bulk decoder agrees
 *    with validate where both check the same things, reports 0 elements on
 *    error, and a successful bulk decode re-encodes to the input;
 *  - a parsed type formats to text that parses to the same text again.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mote/cql.h"

static const char *const types[] = {
    "list<int>", "set<bigint>", "list<float>", "list<double>", "list<uuid>",
    "vector<float, 3>", "vector<double, 2>", "vector<int, 4>", "vector<smallint, 3>",
    "vector<text, 2>", "vector<tinyint, 5>", "vector<uuid, 1>", "vector<boolean, 4>",
    "vector<vector<float, 2>, 2>", "vector<list<int>, 2>", "map<text, bigint>",
    "map<int, frozen<list<text>>>", "tuple<int, text, boolean>", "list<text>", "list<blob>",
    "set<ascii>", "list<varint>", "list<decimal>", "list<inet>", "list<duration>",
    "list<date>", "list<time>", "list<timestamp>", "list<counter>", "list<timeuuid>",
    "map<uuid, frozen<map<text, frozen<tuple<int, double>>>>>",
    "list<frozen<list<frozen<list<frozen<list<int>>>>>>>", "vector<duration, 2>",
    "vector<varint, 3>", "text", "int", "double", "boolean", "duration", "decimal", "inet",
    "tuple<vector<float, 2>, list<smallint>>", "set<frozen<vector<int, 2>>>",
};

static mote_cql_type nodes[128];

/* Rebuilds the value at t from its bytes through the writer. */
static mote_err rebuild(mote_cql_writer *w, const mote_cql_type *t, const uint8_t *p, size_t n)
{
    if (t->kind < MOTE_CQL_LIST) return mote_cql_write_bytes(w, p, n);
    mote_err e = mote_cql_write_begin(w);
    if (e && e != MOTE_ERR_SPACE) return e;
    mote_cql_iter it;
    if (mote_cql_iter_init(&it, t, p, n)) abort(); /* validate said OK */
    mote_cql_value v;
    while (mote_cql_iter_next(&it, &v)) {
        if (v.absent) continue; /* a short tuple: end it early, as it was */
        e = v.null ? mote_cql_write_null(w) : rebuild(w, v.type, v.ptr, v.len);
        if (e && e != MOTE_ERR_SPACE) return e;
    }
    if (mote_cql_iter_err(&it)) abort();
    return mote_cql_write_end(w);
}

static void check_rebuild(const mote_cql_type *t, const uint8_t *p, size_t n)
{
    mote_cql_writer w;
    size_t len = 0;
    if (mote_cql_writer_init(&w, t, NULL, 0) != MOTE_OK) abort();
    mote_err e = rebuild(&w, t, p, n);
    if (e || mote_cql_writer_finish(&w, &len) || len != n) abort();
    uint8_t *out = malloc(n ? n : 1);
    if (!out) abort();
    if (mote_cql_writer_init(&w, t, out, n) != MOTE_OK) abort();
    e = rebuild(&w, t, p, n);
    if (e || mote_cql_writer_finish(&w, &len) || len != n || memcmp(out, p, n) != 0) abort();
    free(out);
}

/* Kinds whose bulk decode checks exactly what validate checks (views may be
 * null in a bulk decode, which validate refuses, so no view kind is here). */
static bool strict_kind(int k)
{
    return mote_cql_kind_fixed(k) > 0 || k == MOTE_CQL_TINYINT || k == MOTE_CQL_SMALLINT ||
           k == MOTE_CQL_DATE || k == MOTE_CQL_TIME || k == MOTE_CQL_COUNTER;
}

static void check_bulk(const mote_cql_type *t, const uint8_t *p, size_t n, mote_err verr)
{
    if (t->kind != MOTE_CQL_LIST && t->kind != MOTE_CQL_SET && t->kind != MOTE_CQL_VECTOR) return;
    const mote_cql_type *s = t->sub;
    if (s->kind >= MOTE_CQL_LIST) return;
    size_t cap = t->kind == MOTE_CQL_VECTOR ? t->dim : 64;
    static uint8_t arr[64 * 16 + 64 * sizeof(mote_view)];
    if (t->kind == MOTE_CQL_VECTOR && t->dim > 64) return;
    size_t got = 12345;
    mote_err e = mote_cql_decode_array(t, p, n, arr, cap, &got);
    if (e == MOTE_ERR_SPACE) return;
    /* An empty element validates but has no C value: bulk decode refuses
     * it (MISMATCH), and only then. */
    if (verr == MOTE_OK && t->kind != MOTE_CQL_VECTOR) {
        mote_cql_iter it;
        mote_cql_value v;
        bool empty = false;
        if (mote_cql_iter_init(&it, t, p, n)) abort();
        while (mote_cql_iter_next(&it, &v)) empty |= v.empty;
        /* (view kinds hold an empty view fine; inet's bulk form is an
         * address of 4 or 16 bytes, which an empty one is not) */
        bool view = s->kind == MOTE_CQL_TEXT || s->kind == MOTE_CQL_ASCII ||
                    s->kind == MOTE_CQL_BLOB || s->kind == MOTE_CQL_VARINT ||
                    s->kind == MOTE_CQL_DECIMAL;
        if (empty && !view) {
            if (e != MOTE_ERR_MISMATCH) abort();
            return;
        }
    }
    if (e && got != 0) abort();
    if (strict_kind(s->kind) && (e == MOTE_OK) != (verr == MOTE_OK)) abort();
    if (verr == MOTE_OK && e != MOTE_OK) abort();
    if (e || verr) return; /* (a null element decodes, but encoders refuse it) */
    /* Re-encode what was decoded: same bytes. */
    uint8_t *out = malloc(n ? n : 1);
    if (!out) abort();
    size_t w = 0;
    e = mote_cql_encode_array(t, arr, got, out, n, &w);
    /* A list of views that held text may re-encode fine; kinds that cannot
     * appear in bulk form (none here) would be TYPE. */
    if (e || w != n || memcmp(out, p, n) != 0) abort();
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *text;
    size_t tlen;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    if (data[0] == 0xff) {
        const uint8_t *nl = memchr(p, '\n', n);
        if (!nl) return 0;
        text = (const char *)p;
        tlen = (size_t)(nl - p);
        n -= tlen + 1;
        p = nl + 1;
    } else {
        text = types[data[0] % (sizeof types / sizeof types[0])];
        tlen = strlen(text);
    }
    const mote_cql_type *t;
    if (mote_cql_type_parse(text, tlen, nodes, 128, NULL, &t)) return 0;
    /* Format -> parse -> format is stable. */
    char f1[1024], f2[1024];
    size_t l1 = 0, l2 = 0;
    mote_err fe = mote_cql_type_format(t, f1, sizeof f1, &l1);
    if (fe != (l1 <= sizeof f1 ? MOTE_OK : MOTE_ERR_SPACE)) abort();
    if (fe == MOTE_OK) {
        static mote_cql_type nodes2[128];
        const mote_cql_type *t2;
        if (mote_cql_type_parse(f1, l1, nodes2, 128, NULL, &t2)) abort();
        if (mote_cql_type_format(t2, f2, sizeof f2, &l2) != MOTE_OK) abort();
        if (l1 != l2 || memcmp(f1, f2, l1) != 0) abort();
        if (t2->fixed != t->fixed) abort();
    }
    /* Exact-size copy so a read past the value is caught by ASan. */
    uint8_t *v = malloc(n ? n : 1);
    if (!v) abort();
    memcpy(v, p, n);
    mote_err verr = mote_cql_validate(t, v, n);
    if (verr == MOTE_OK) check_rebuild(t, v, n);
    check_bulk(t, v, n, verr);
    free(v);
    return 0;
}
