/*
 * test_wire_golden.c - the wire module's response parsers on frames recorded
 * from a real Apache Cassandra 5.0.6 (tests/data/wire/NAME.bin, recorded by
 * tests/cassandra/record_frames.py; what each holds: tests/data/wire/README.md).
 * No server needed. A missing frame file fails its test.
 *
 * Pins: every frame is taken whole by mote_wire_next with the opcode and
 * stream the server sent; each body parses to what the request asked for
 * (schema changes, prepared ids and partition-key indexes, rows and their
 * cells decoded with the cql module, paging state, error bodies, the warning
 * list, the event); the same frames fed one byte at a time give the same
 * answers; a frame bigger than the receive buffer is reported and skipped
 * without losing the next one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mote/mote.h"
#include "test_data.h"

static uint8_t file_buf[1 << 16];

/* Load tests/data/wire/NAME.bin; fails the test if it is not there. */
static size_t load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "wire/%s.bin", name);
    FILE *f = test_data_open(path, "rb");
    size_t n = fread(file_buf, 1, sizeof file_buf, f);
    fclose(f);
    assert_true(n >= MOTE_WIRE_HEADER);
    return n;
}

typedef struct ctx {
    mote_wire w;
    mote_wire_slot slots[64];
    uint8_t rx[1 << 16];
    uint8_t txmem[4096];
    mote_buf tx;
    uint64_t tag_of[64];
} ctx;
static ctx X;

/* A context with stream ids 0..63 in flight, each tagged 1000 + id, so any
 * recorded answer (streams 0..27) has its request. */
static void ctx_init(ctx *c, size_t rx_cap)
{
    memset(c, 0, sizeof *c);
    assert_int_equal(mote_wire_init(&c->w, c->slots, 64, c->rx, rx_cap), MOTE_OK);
    assert_int_equal(mote_buf_init_fixed(&c->tx, c->txmem, sizeof c->txmem), MOTE_OK);
    for (int i = 0; i < 64; i++) {
        int stream = -2;
        c->tx.len = 0;
        assert_int_equal(mote_wire_options(&c->w, &c->tx, 1000 + (uint64_t)i, &stream), MOTE_OK);
        assert_true(stream >= 0 && stream < 64);
        c->tag_of[stream] = 1000 + (uint64_t)i; /* whatever order the ids come in */
    }
}

/* Parse one recorded frame; returns it in *f (views into X.rx). */
static void frame(const char *name, mote_wire_frame *f)
{
    size_t n = load(name);
    ctx_init(&X, sizeof X.rx);
    assert_int_equal(mote_wire_feed(&X.w, file_buf, n), n);
    assert_int_equal(mote_wire_next(&X.w, f), MOTE_OK);
    assert_int_equal(f->length + MOTE_WIRE_HEADER, n);
    assert_int_equal(f->version, 0x84);
    if (f->stream >= 0) assert_true(f->tag == X.tag_of[f->stream]);
    mote_wire_frame g;
    assert_int_equal(mote_wire_next(&X.w, &g), MOTE_ERR_NEED_MORE);
}

static bool eq(mote_view v, const char *s)
{
    return v.len == strlen(s) && (v.len == 0 || !memcmp(v.ptr, s, v.len));
}

static void result(const char *name, int kind, mote_wire_result *r)
{
    mote_wire_frame f;
    frame(name, &f);
    assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
    assert_int_equal(mote_wire_parse_result(&f, r), MOTE_OK);
    assert_int_equal(r->kind, kind);
}

static void error(const char *name, int32_t code, mote_wire_error *e)
{
    mote_wire_frame f;
    frame(name, &f);
    assert_int_equal(f.opcode, MOTE_WIRE_ERROR);
    assert_int_equal(mote_wire_parse_error(&f, e), MOTE_OK);
    assert_int_equal(e->code, code);
    assert_true(e->message.len > 0);
}

static void test_handshake_frames(void **state)
{
    (void)state;
    mote_wire_frame f;
    frame("supported", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_SUPPORTED);
    assert_int_equal(f.stream, 0);
    mote_wire_multimap m;
    mote_view key, val;
    mote_wire_list vals;
    assert_int_equal(mote_wire_parse_supported(&f, &m), MOTE_OK);
    int cql = 0, protocols = 0;
    while (mote_wire_multimap_next(&m, &key, &vals)) {
        if (eq(key, "CQL_VERSION")) {
            assert_true(mote_wire_list_next(&vals, &val));
            assert_true(eq(val, "3.4.7"));
            cql = 1;
        }
        if (eq(key, "PROTOCOL_VERSIONS"))
            while (mote_wire_list_next(&vals, &val)) protocols += eq(val, "4/v4");
    }
    assert_true(cql);
    assert_int_equal(protocols, 1);

    frame("ready", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_READY);
    assert_int_equal(f.length, 0);
    frame("ready_register", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_READY);

    frame("authenticate", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_AUTHENTICATE);
    mote_view cls;
    assert_int_equal(mote_wire_parse_authenticate(&f, &cls), MOTE_OK);
    assert_true(eq(cls, "org.apache.cassandra.auth.PasswordAuthenticator"));

    frame("auth_success", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_AUTH_SUCCESS);
    mote_view token;
    assert_int_equal(mote_wire_parse_auth_token(&f, &token), MOTE_OK);

    mote_wire_error e;
    error("error_bad_credentials", MOTE_WIRE_E_BAD_CREDENTIALS, &e);
}

static void schema(const char *name, const char *change, const char *target, const char *ks,
                   const char *tbl)
{
    mote_wire_result r;
    result(name, MOTE_WIRE_RESULT_SCHEMA_CHANGE, &r);
    assert_true(eq(r.change.change, change));
    assert_true(eq(r.change.target, target));
    assert_true(eq(r.change.keyspace, ks));
    assert_true(eq(r.change.name, tbl));
}

static void test_results_simple(void **state)
{
    (void)state;
    mote_wire_result r;
    schema("schema_created_keyspace", "CREATED", "KEYSPACE", "golden", "");
    schema("schema_created_table", "CREATED", "TABLE", "golden", "t");
    schema("schema_altered_table", "UPDATED", "TABLE", "golden", "t");
    schema("schema_dropped_keyspace", "DROPPED", "KEYSPACE", "rf3", "");
    result("set_keyspace", MOTE_WIRE_RESULT_SET_KEYSPACE, &r);
    assert_true(eq(r.keyspace, "golden"));
    result("void_insert", MOTE_WIRE_RESULT_VOID, &r);
    result("void_execute", MOTE_WIRE_RESULT_VOID, &r);
    result("void_batch", MOTE_WIRE_RESULT_VOID, &r);
}

static void column(mote_wire_columns_it *it, const char *name, uint16_t type_id)
{
    mote_wire_column c;
    assert_true(mote_wire_column_next(it, &c));
    assert_true(eq(c.name, name));
    assert_true(eq(c.keyspace, "golden"));
    assert_true(eq(c.table, "t"));
    assert_int_equal(c.type_id, type_id);
}

/* PREPARE INSERT INTO golden.t (k, c, v): three bind markers, k (index 0)
 * the partition key, a 16-byte id (MD5), no result columns. */
static void test_prepared(void **state)
{
    (void)state;
    mote_wire_result r;
    result("prepared_insert", MOTE_WIRE_RESULT_PREPARED, &r);
    assert_int_equal(r.id.len, 16);
    assert_int_equal(r.bind.ncols, 3);
    assert_int_equal(r.bind.npk, 1);
    assert_int_equal(mote_wire_pk_index(&r.bind, 0), 0);
    assert_int_equal(mote_wire_pk_index(&r.bind, 1), -1);
    mote_wire_columns_it it;
    assert_int_equal(mote_wire_columns(&it, &r.bind), MOTE_OK);
    column(&it, "k", 0x0009);
    column(&it, "c", 0x000D);
    column(&it, "v", 0x0002);
    mote_wire_column c;
    assert_false(mote_wire_column_next(&it, &c));
    assert_int_equal(r.meta.ncols, 0);

    result("prepared_select", MOTE_WIRE_RESULT_PREPARED, &r);
    assert_int_equal(r.bind.ncols, 2);
    assert_int_equal(r.bind.npk, 1);
    assert_int_equal(mote_wire_pk_index(&r.bind, 0), 0);
    assert_int_equal(r.meta.ncols, 2);
    assert_int_equal(mote_wire_columns(&it, &r.meta), MOTE_OK);
    column(&it, "v", 0x0002);
    column(&it, "l", 0x0020);
}

/* Header flag 0x08: a warning list before the body; the body still parses. */
static void test_warning(void **state)
{
    (void)state;
    mote_wire_frame f;
    frame("prepared_warning", &f);
    assert_true(f.flags & MOTE_WIRE_F_WARNING);
    mote_wire_list w;
    mote_view s;
    assert_int_equal(mote_wire_strings(&w, f.warnings), MOTE_OK);
    assert_int_equal(mote_wire_list_count(&w), 1);
    assert_true(mote_wire_list_next(&w, &s));
    assert_true(s.len > 10);
    mote_wire_result r;
    assert_int_equal(mote_wire_parse_result(&f, &r), MOTE_OK);
    assert_int_equal(r.kind, MOTE_WIRE_RESULT_PREPARED);
    assert_int_equal(r.bind.ncols, 3);
}

static const mote_cql_type *col_type(const mote_wire_meta *m, unsigned idx, mote_cql_type *nodes,
                                     size_t cap)
{
    mote_wire_columns_it it;
    mote_wire_column c;
    assert_int_equal(mote_wire_columns(&it, m), MOTE_OK);
    for (unsigned i = 0; i <= idx; i++) assert_true(mote_wire_column_next(&it, &c));
    const mote_cql_type *root;
    size_t used;
    assert_int_equal(mote_wire_type(c.type, nodes, cap, &used, &root), MOTE_OK);
    return root;
}

/* SELECT k, c, v, l, m, tu WHERE k = 1: five rows in clustering order; the
 * first has every column, decoded with the cql module. */
static void test_rows_select(void **state)
{
    (void)state;
    mote_wire_result r;
    result("rows_select", MOTE_WIRE_RESULT_ROWS, &r);
    assert_int_equal(r.meta.ncols, 6);
    assert_int_equal(r.nrows, 5);
    assert_true(r.meta.flags & MOTE_WIRE_META_GLOBAL_SPEC);
    assert_true(eq(r.meta.keyspace, "golden"));
    mote_cql_type nodes[6][8];
    const mote_cql_type *t[6];
    for (unsigned i = 0; i < 6; i++) t[i] = col_type(&r.meta, i, nodes[i], 8);
    assert_int_equal(t[0]->kind, MOTE_CQL_INT);
    assert_int_equal(t[1]->kind, MOTE_CQL_TEXT);
    assert_int_equal(t[2]->kind, MOTE_CQL_BIGINT);
    assert_int_equal(t[3]->kind, MOTE_CQL_LIST);
    assert_int_equal(t[4]->kind, MOTE_CQL_MAP);
    assert_int_equal(t[5]->kind, MOTE_CQL_TUPLE);

    mote_wire_cells it;
    mote_view cell[6];
    uint32_t row, col;
    assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
    for (unsigned i = 0; i < 6; i++) {
        assert_true(mote_wire_cell_next(&it, &cell[i], &row, &col));
        assert_int_equal(row, 0);
        assert_int_equal(col, i);
        assert_non_null(cell[i].ptr);
        assert_int_equal(mote_cql_validate(t[i], cell[i].ptr, cell[i].len), MOTE_OK);
    }
    assert_int_equal((int32_t)mote_be_load32(cell[0].ptr), 1);
    assert_true(eq(cell[1], "a"));
    assert_int_equal((int64_t)mote_be_load64(cell[2].ptr), 10);
    int32_t l[3];
    size_t n = 0;
    assert_int_equal(mote_cql_decode_list(MOTE_CQL_INT, cell[3].ptr, cell[3].len, l, 3, &n), MOTE_OK);
    assert_int_equal(n, 3);
    assert_int_equal(l[0], 1);
    assert_int_equal(l[2], 3);
    mote_cql_iter mi;
    mote_cql_value v;
    assert_int_equal(mote_cql_iter_init(&mi, t[4], cell[4].ptr, cell[4].len), MOTE_OK);
    assert_int_equal(mote_cql_iter_count(&mi), 1);
    assert_true(mote_cql_iter_next(&mi, &v));
    assert_true(v.len == 1 && v.ptr[0] == 'x');
    assert_true(mote_cql_iter_next(&mi, &v));
    double d;
    uint64_t bits = mote_be_load64(v.ptr);
    memcpy(&d, &bits, 8);
    assert_true(d == 1.5);
    assert_int_equal(mote_cql_iter_init(&mi, t[5], cell[5].ptr, cell[5].len), MOTE_OK);
    assert_true(mote_cql_iter_next(&mi, &v));
    assert_int_equal((int32_t)mote_be_load32(v.ptr), 5);
    assert_true(mote_cql_iter_next(&mi, &v));
    assert_true(v.len == 4 && !memcmp(v.ptr, "five", 4));
    /* rows 1..4: only k, c, v set; the collections are null cells */
    unsigned cells = 6, nulls = 0;
    while (mote_wire_cell_next(&it, &cell[0], &row, &col)) {
        cells++;
        nulls += cell[0].ptr == NULL;
    }
    assert_int_equal(cells, 30);
    assert_int_equal(nulls, 12);
}

/* The server stores the literal (5) for tuple<int,text> with one
 * component: the missing trailing one reads as null. */
static void test_rows_short_tuple(void **state)
{
    (void)state;
    mote_wire_result r;
    result("rows_short_tuple_null", MOTE_WIRE_RESULT_ROWS, &r);
    assert_int_equal(r.nrows, 1);
    mote_cql_type nodes[8];
    const mote_cql_type *t = col_type(&r.meta, 3, nodes, 8);
    assert_int_equal(t->kind, MOTE_CQL_TUPLE);
    mote_wire_cells it;
    mote_view cell;
    uint32_t row, col;
    assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
    for (int i = 0; i < 4; i++) assert_true(mote_wire_cell_next(&it, &cell, &row, &col));
    assert_int_equal(cell.len, 8);
    assert_memory_equal(cell.ptr, "\0\0\0\4\0\0\0\5", 8);
    assert_int_equal(mote_cql_validate(t, cell.ptr, cell.len), MOTE_OK);
}

/* blobAsBigint(0x): a zero-length cell, not null, distinct from the null v
 * of rows_short_tuple_null. */
static void test_rows_empty_value(void **state)
{
    (void)state;
    mote_wire_result r;
    result("rows_empty_value", MOTE_WIRE_RESULT_ROWS, &r);
    mote_wire_cells it;
    mote_view cell;
    uint32_t row, col;
    assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
    for (int i = 0; i < 3; i++) assert_true(mote_wire_cell_next(&it, &cell, &row, &col));
    assert_non_null(cell.ptr);
    assert_int_equal(cell.len, 0);
    mote_cql_type nodes[2];
    const mote_cql_type *t = col_type(&r.meta, 2, nodes, 2);
    assert_int_equal(mote_cql_validate(t, cell.ptr, cell.len), MOTE_OK);

    result("rows_short_tuple_null", MOTE_WIRE_RESULT_ROWS, &r);
    assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
    for (int i = 0; i < 3; i++) assert_true(mote_wire_cell_next(&it, &cell, &row, &col));
    assert_null(cell.ptr);
}

static void test_rows_paging(void **state)
{
    (void)state;
    mote_wire_result r;
    result("rows_page1", MOTE_WIRE_RESULT_ROWS, &r);
    assert_int_equal(r.nrows, 2);
    assert_true(r.meta.flags & MOTE_WIRE_META_MORE_PAGES);
    assert_non_null(r.meta.paging_state.ptr);
    assert_true(r.meta.paging_state.len > 0);
    result("rows_page2", MOTE_WIRE_RESULT_ROWS, &r);
    assert_int_equal(r.nrows, 2);
    result("rows_empty", MOTE_WIRE_RESULT_ROWS, &r);
    assert_int_equal(r.nrows, 0);
    assert_false(r.meta.flags & MOTE_WIRE_META_MORE_PAGES);
    mote_wire_cells it;
    mote_view cell;
    uint32_t row, col;
    assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
    assert_false(mote_wire_cell_next(&it, &cell, &row, &col));
}

static void test_errors(void **state)
{
    (void)state;
    mote_wire_error e;
    error("error_syntax", MOTE_WIRE_E_SYNTAX, &e);
    error("error_unknown_table", MOTE_WIRE_E_INVALID, &e);
    error("error_wrong_bind_type", MOTE_WIRE_E_INVALID, &e);
    assert_false(mote_wire_error_retryable(e.code));
    error("error_already_exists", MOTE_WIRE_E_ALREADY_EXISTS, &e);
    assert_true(eq(e.keyspace, "golden"));
    assert_true(eq(e.table, ""));
    error("error_unprepared", MOTE_WIRE_E_UNPREPARED, &e);
    assert_int_equal(e.id.len, 16);
    for (int i = 0; i < 16; i++) assert_int_equal(e.id.ptr[i], 0x01);
    error("error_unavailable", MOTE_WIRE_E_UNAVAILABLE, &e);
    assert_int_equal(e.consistency, MOTE_WIRE_QUORUM);
    assert_int_equal(e.required, 2);
    assert_int_equal(e.alive, 1);
    assert_true(mote_wire_error_retryable(e.code));
}

static void test_event(void **state)
{
    (void)state;
    mote_wire_frame f;
    frame("event_schema_change", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_EVENT);
    assert_int_equal(f.stream, MOTE_WIRE_EVENT_STREAM);
    mote_wire_event ev;
    assert_int_equal(mote_wire_parse_event(&f, &ev), MOTE_OK);
    assert_true(eq(ev.type, "SCHEMA_CHANGE"));
    assert_true(eq(ev.schema.change, "UPDATED"));
    assert_true(eq(ev.schema.target, "TABLE"));
    assert_true(eq(ev.schema.keyspace, "golden"));
    assert_true(eq(ev.schema.name, "t"));
}

static const char *const all[] = {
    "supported", "ready", "authenticate", "error_bad_credentials", "auth_success",
    "schema_created_keyspace", "error_already_exists", "set_keyspace", "schema_created_table",
    "void_insert", "rows_select", "rows_short_tuple_null", "rows_empty_value", "rows_page1",
    "rows_page2", "rows_empty", "prepared_warning", "prepared_insert", "prepared_select",
    "void_execute", "error_wrong_bind_type", "error_unprepared", "void_batch", "error_syntax",
    "error_unknown_table", "error_unavailable", "ready_register", "schema_altered_table",
    "event_schema_change", "schema_dropped_keyspace"};
#define NALL (sizeof all / sizeof all[0])

static uint8_t stream_buf[1 << 17];

/* Every frame back to back, fed one byte at a time: the same frames come
 * out, in order, with the same opcodes and lengths. */
static void test_byte_at_a_time(void **state)
{
    (void)state;
    size_t total = 0, lens[NALL];
    uint8_t ops[NALL];
    for (size_t i = 0; i < NALL; i++) {
        size_t n = load(all[i]);
        /* give every frame stream 0..29 in turn: one request each */
        file_buf[2] = 0;
        file_buf[3] = file_buf[4] == MOTE_WIRE_EVENT ? 0 : (uint8_t)i;
        if (file_buf[4] == MOTE_WIRE_EVENT) file_buf[2] = file_buf[3] = 0xff;
        assert_true(total + n <= sizeof stream_buf);
        memcpy(stream_buf + total, file_buf, n);
        total += n;
        lens[i] = n;
        ops[i] = file_buf[4];
    }
    ctx_init(&X, sizeof X.rx);
    size_t got = 0;
    mote_wire_frame f;
    for (size_t off = 0; off < total; off++) {
        assert_int_equal(mote_wire_feed(&X.w, stream_buf + off, 1), 1);
        mote_err e;
        while ((e = mote_wire_next(&X.w, &f)) == MOTE_OK) {
            assert_true(got < NALL);
            assert_int_equal(f.opcode, ops[got]);
            assert_int_equal(f.length + MOTE_WIRE_HEADER, lens[got]);
            got++;
        }
        assert_int_equal(e, MOTE_ERR_NEED_MORE);
    }
    assert_int_equal(got, NALL);
}

/* rows_select does not fit a 128-byte receive buffer: LIMIT with its stream
 * and length, its body skipped, and the next frame (ready) read normally. */
static void test_oversize_skipped(void **state)
{
    (void)state;
    size_t n = load("rows_select");
    memcpy(stream_buf, file_buf, n);
    size_t m = load("ready");
    assert_true(n > 128 && m < 128);
    memcpy(stream_buf + n, file_buf, m);
    ctx_init(&X, 128);
    mote_wire_frame f;
    size_t off = 0;
    int limit = 0, ready = 0;
    while (off < n + m) {
        size_t k = mote_wire_feed(&X.w, stream_buf + off, n + m - off < 50 ? n + m - off : 50);
        off += k;
        mote_err e;
        while ((e = mote_wire_next(&X.w, &f)) != MOTE_ERR_NEED_MORE) {
            if (e == MOTE_ERR_LIMIT) {
                assert_int_equal(f.stream, 10);
                assert_int_equal(f.length + MOTE_WIRE_HEADER, n);
                limit++;
            } else {
                assert_int_equal(e, MOTE_OK);
                assert_int_equal(f.opcode, MOTE_WIRE_READY);
                ready++;
            }
        }
    }
    assert_int_equal(limit, 1);
    assert_int_equal(ready, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake_frames),
        cmocka_unit_test(test_results_simple),
        cmocka_unit_test(test_prepared),
        cmocka_unit_test(test_warning),
        cmocka_unit_test(test_rows_select),
        cmocka_unit_test(test_rows_short_tuple),
        cmocka_unit_test(test_rows_empty_value),
        cmocka_unit_test(test_rows_paging),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_event),
        cmocka_unit_test(test_byte_at_a_time),
        cmocka_unit_test(test_oversize_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
