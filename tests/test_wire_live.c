/*
 * test_wire_live.c - the wire module against a live Apache Cassandra 5.0.6
 * (suite 'integration'; tests/cassandra/server starts it, scripts/test runs
 * this). The server is found at 127.0.0.1:$MOTE_CASS_PORT with
 * PasswordAuthenticator, user cassandra / password cassandra. No server: every
 * test fails (a missing server is not a pass).
 *
 * Pins: handshake with SASL PLAIN (and a refused password), OPTIONS, QUERY,
 * PREPARE, EXECUTE, logged and unlogged BATCH; every error class a single
 * node lets us provoke (syntax, invalid: unknown table and a wrong bind type,
 * already exists, unprepared: an unknown id, after an ALTER TABLE and after
 * a DROP + CREATE of the table, unavailable);
 * paging through a SELECT; the Murmur3 token helper equal to the server's
 * token() for 1,000 keys of a single-column and 1,000 of a composite
 * partition key.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "mote/mote.h"

#define KS "mote_it"

typedef struct conn {
    int fd;
    mote_wire w;
    mote_wire_slot slots[16];
    uint8_t rx[1 << 20];
    uint8_t txmem[1 << 20];
    mote_buf tx;
    uint64_t next_tag;
} conn;

static conn C; /* the logged-in connection the tests share */

static int port(void)
{
    const char *p = getenv("MOTE_CASS_PORT");
    return p ? atoi(p) : 9042;
}

static void conn_init(conn *c)
{
    memset(c, 0, sizeof *c);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(c->fd >= 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port());
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK); /* 127.0.0.1 only */
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) != 0) {
        fprintf(stderr, "# no server on 127.0.0.1:%d: %s\n", port(), strerror(errno));
        fail();
    }
    assert_int_equal(mote_wire_init(&c->w, c->slots, 16, c->rx, sizeof c->rx), MOTE_OK);
    assert_int_equal(mote_buf_init_fixed(&c->tx, c->txmem, sizeof c->txmem), MOTE_OK);
    c->next_tag = 1;
}

static void conn_close(conn *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
}

static void conn_send(conn *c)
{
    size_t off = 0;
    while (off < c->tx.len) {
        ssize_t k = send(c->fd, c->tx.data + off, c->tx.len - off, MSG_NOSIGNAL);
        assert_true(k > 0);
        off += (size_t)k;
    }
    c->tx.len = 0;
}

/* Send what tx holds, then receive until the answer with this tag. */
static void conn_wait(conn *c, uint64_t tag, mote_wire_frame *f)
{
    conn_send(c);
    for (;;) {
        mote_err e = mote_wire_next(&c->w, f);
        if (e == MOTE_OK && f->stream >= 0 && f->tag == tag) return;
        if (e == MOTE_OK) continue; /* an event or another answer */
        assert_int_equal(e, MOTE_ERR_NEED_MORE);
        size_t avail;
        uint8_t *p = mote_wire_recv_space(&c->w, &avail);
        assert_true(avail > 0);
        ssize_t k = recv(c->fd, p, avail, 0);
        assert_true(k > 0);
        mote_wire_recv_commit(&c->w, (size_t)k);
    }
}

static mote_wire_params one(void)
{
    mote_wire_params p;
    memset(&p, 0, sizeof p);
    p.consistency = MOTE_WIRE_ONE;
    return p;
}

static void query_p(conn *c, const char *cql, const mote_wire_params *p, mote_wire_frame *f)
{
    mote_wire_req r;
    uint64_t tag = c->next_tag++;
    assert_int_equal(mote_wire_query_begin(&r, &c->w, &c->tx, tag, cql, strlen(cql), p), MOTE_OK);
    assert_int_equal(mote_wire_end(&r, NULL), MOTE_OK);
    conn_wait(c, tag, f);
}

static void query(conn *c, const char *cql, mote_wire_frame *f)
{
    mote_wire_params p = one();
    query_p(c, cql, &p, f);
}

static int32_t error_code(const mote_wire_frame *f, mote_wire_error *e)
{
    if (f->opcode != MOTE_WIRE_ERROR) return -1;
    assert_int_equal(mote_wire_parse_error(f, e), MOTE_OK);
    return e->code;
}

/* A statement that must succeed; prints the server's message if not. */
static void ok(conn *c, const char *cql)
{
    mote_wire_frame f;
    query(c, cql, &f);
    if (f.opcode != MOTE_WIRE_RESULT) {
        mote_wire_error e;
        error_code(&f, &e);
        fprintf(stderr, "# %s: error 0x%04x %.*s\n", cql, (unsigned)e.code, (int)e.message.len,
                (const char *)e.message.ptr);
    }
    assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
}

static void login(conn *c, const char *password)
{
    mote_wire_frame f;
    uint64_t tag = c->next_tag++;
    assert_int_equal(mote_wire_startup(&c->w, &c->tx, tag, NULL), MOTE_OK);
    conn_wait(c, tag, &f);
    assert_int_equal(f.opcode, MOTE_WIRE_AUTHENTICATE);
    mote_view cls;
    assert_int_equal(mote_wire_parse_authenticate(&f, &cls), MOTE_OK);
    /* org.apache.cassandra.auth.PasswordAuthenticator */
    assert_true(cls.len >= 21 && !memcmp(cls.ptr + cls.len - 21, "PasswordAuthenticator", 21));
    tag = c->next_tag++;
    assert_int_equal(mote_wire_auth_plain(&c->w, &c->tx, tag, "cassandra", 9, password,
                                          strlen(password), NULL), MOTE_OK);
    conn_wait(c, tag, &f);
    if (!strcmp(password, "cassandra")) {
        assert_int_equal(f.opcode, MOTE_WIRE_AUTH_SUCCESS);
    } else {
        mote_wire_error e;
        assert_int_equal(error_code(&f, &e), MOTE_WIRE_E_BAD_CREDENTIALS);
    }
}

/* Prepare cql; the id is copied to id[0..*idlen). */
static void prepare(conn *c, const char *cql, uint8_t id[64], size_t *idlen, mote_wire_result *out)
{
    mote_wire_frame f;
    uint64_t tag = c->next_tag++;
    assert_int_equal(mote_wire_prepare(&c->w, &c->tx, tag, cql, strlen(cql), NULL), MOTE_OK);
    conn_wait(c, tag, &f);
    assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
    mote_wire_result r;
    assert_int_equal(mote_wire_parse_result(&f, &r), MOTE_OK);
    assert_int_equal(r.kind, MOTE_WIRE_RESULT_PREPARED);
    assert_true(r.id.len > 0 && r.id.len <= 64);
    memcpy(id, r.id.ptr, r.id.len);
    *idlen = r.id.len;
    if (out) *out = r;
}

static uint8_t be32b[4];
static const uint8_t *be32(int32_t v)
{
    mote_be_store32(be32b, (uint32_t)v);
    return be32b;
}

/* EXECUTE of id with (k int, c int, v text). */
static void exec_kcv(conn *c, const uint8_t *id, size_t idlen, int32_t k, int32_t cc, const char *v,
                     mote_wire_frame *f)
{
    mote_wire_req r;
    mote_wire_params p = one();
    uint64_t tag = c->next_tag++;
    assert_int_equal(mote_wire_execute_begin(&r, &c->w, &c->tx, tag, id, idlen, &p), MOTE_OK);
    mote_wire_value(&r, be32(k), 4);
    mote_wire_value(&r, be32(cc), 4);
    mote_wire_value(&r, v, strlen(v));
    assert_int_equal(mote_wire_end(&r, NULL), MOTE_OK);
    conn_wait(c, tag, f);
}

static int group_setup(void **state)
{
    (void)state;
    conn_init(&C);
    login(&C, "cassandra");
    ok(&C, "DROP KEYSPACE IF EXISTS " KS);
    ok(&C, "CREATE KEYSPACE " KS " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    ok(&C, "CREATE TABLE " KS ".kv (k int, c int, v text, PRIMARY KEY (k, c))");
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    conn_close(&C);
    return 0;
}

/* OPTIONS answers SUPPORTED with CQL_VERSION; a wrong password is refused
 * with Bad_credentials, the right one gives AUTH_SUCCESS (group setup). */
static void test_handshake(void **state)
{
    (void)state;
    static conn c;
    conn_init(&c);
    mote_wire_frame f;
    uint64_t tag = c.next_tag++;
    assert_int_equal(mote_wire_options(&c.w, &c.tx, tag, NULL), MOTE_OK);
    conn_wait(&c, tag, &f);
    assert_int_equal(f.opcode, MOTE_WIRE_SUPPORTED);
    mote_wire_multimap m;
    assert_int_equal(mote_wire_parse_supported(&f, &m), MOTE_OK);
    mote_view key;
    mote_wire_list vals;
    int seen = 0;
    while (mote_wire_multimap_next(&m, &key, &vals))
        if (key.len == 11 && !memcmp(key.ptr, "CQL_VERSION", 11)) seen = 1;
    assert_true(seen);
    login(&c, "wrong");
    conn_close(&c);
}

/* PREPARE gives the bind markers with the partition-key index; EXECUTE
 * writes; a QUERY reads it back, cells decoded with the cql module. */
static void test_prepare_execute(void **state)
{
    (void)state;
    uint8_t id[64];
    size_t idlen;
    mote_wire_result pr;
    mote_wire_frame f;
    prepare(&C, "INSERT INTO " KS ".kv (k, c, v) VALUES (?, ?, ?)", id, &idlen, &pr);
    assert_int_equal(pr.bind.ncols, 3);
    assert_int_equal(pr.bind.npk, 1);
    assert_int_equal(mote_wire_pk_index(&pr.bind, 0), 0);
    exec_kcv(&C, id, idlen, 1, 1, "one", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
    query(&C, "SELECT k, c, v FROM " KS ".kv WHERE k = 1", &f);
    mote_wire_result r;
    assert_int_equal(mote_wire_parse_result(&f, &r), MOTE_OK);
    assert_int_equal(r.kind, MOTE_WIRE_RESULT_ROWS);
    assert_int_equal(r.meta.ncols, 3);
    assert_int_equal(r.nrows, 1);
    mote_wire_cells it;
    mote_view cell;
    uint32_t row, col;
    assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
    assert_true(mote_wire_cell_next(&it, &cell, &row, &col));
    assert_int_equal(cell.len, 4);
    assert_int_equal((int32_t)mote_be_load32(cell.ptr), 1);
    assert_true(mote_wire_cell_next(&it, &cell, &row, &col));
    assert_true(mote_wire_cell_next(&it, &cell, &row, &col));
    assert_int_equal(cell.len, 3);
    assert_memory_equal(cell.ptr, "one", 3);
    assert_false(mote_wire_cell_next(&it, &cell, &row, &col));
}

static int count_rows(int32_t k)
{
    char q[128];
    snprintf(q, sizeof q, "SELECT c FROM " KS ".kv WHERE k = %d", (int)k);
    mote_wire_frame f;
    query(&C, q, &f);
    mote_wire_result r;
    assert_int_equal(mote_wire_parse_result(&f, &r), MOTE_OK);
    assert_int_equal(r.kind, MOTE_WIRE_RESULT_ROWS);
    return (int)r.nrows;
}

/* A logged and an unlogged BATCH of prepared and plain statements. */
static void test_batch(void **state)
{
    (void)state;
    uint8_t id[64];
    size_t idlen;
    prepare(&C, "INSERT INTO " KS ".kv (k, c, v) VALUES (?, ?, ?)", id, &idlen, NULL);
    for (int type = MOTE_WIRE_BATCH_LOGGED; type <= MOTE_WIRE_BATCH_UNLOGGED; type++) {
        mote_wire_req r;
        mote_wire_params p = one();
        uint64_t tag = C.next_tag++;
        int32_t k = 10 + type;
        assert_int_equal(mote_wire_batch_begin(&r, &C.w, &C.tx, tag, (mote_wire_batch_type)type, &p),
                         MOTE_OK);
        for (int i = 0; i < 10; i++) {
            mote_wire_batch_prepared(&r, id, idlen);
            mote_wire_value(&r, be32(k), 4);
            mote_wire_value(&r, be32(i), 4);
            mote_wire_value(&r, "b", 1);
        }
        const char *q = "INSERT INTO " KS ".kv (k, c, v) VALUES (?, 100, 'plain')";
        mote_wire_batch_query(&r, q, strlen(q));
        mote_wire_value(&r, be32(k), 4);
        assert_int_equal(mote_wire_end(&r, NULL), MOTE_OK);
        mote_wire_frame f;
        conn_wait(&C, tag, &f);
        assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
        assert_int_equal(count_rows(k), 11);
    }
}

static void expect_error(const char *cql, int32_t code)
{
    mote_wire_frame f;
    mote_wire_error e;
    query(&C, cql, &f);
    assert_int_equal(error_code(&f, &e), code);
    assert_true(e.message.len > 0);
}

static void test_error_syntax(void **state)
{
    (void)state;
    expect_error("SELEC * FROM " KS ".kv", MOTE_WIRE_E_SYNTAX);
}

static void test_error_unknown_table(void **state)
{
    (void)state;
    expect_error("SELECT * FROM " KS ".nosuch", MOTE_WIRE_E_INVALID);
}

static void test_error_already_exists(void **state)
{
    (void)state;
    mote_wire_frame f;
    mote_wire_error e;
    query(&C, "CREATE TABLE " KS ".kv (k int PRIMARY KEY)", &f);
    assert_int_equal(error_code(&f, &e), MOTE_WIRE_E_ALREADY_EXISTS);
    assert_int_equal(e.keyspace.len, strlen(KS));
    assert_memory_equal(e.keyspace.ptr, KS, strlen(KS));
    assert_int_equal(e.table.len, 2);
}

/* A 3-byte int is refused as Invalid, naming nothing else. */
static void test_error_wrong_bind_type(void **state)
{
    (void)state;
    uint8_t id[64];
    size_t idlen;
    prepare(&C, "INSERT INTO " KS ".kv (k, c, v) VALUES (?, ?, ?)", id, &idlen, NULL);
    mote_wire_req r;
    mote_wire_params p = one();
    uint64_t tag = C.next_tag++;
    assert_int_equal(mote_wire_execute_begin(&r, &C.w, &C.tx, tag, id, idlen, &p), MOTE_OK);
    mote_wire_value(&r, "\0\0\1", 3);
    mote_wire_value(&r, be32(1), 4);
    mote_wire_value(&r, "x", 1);
    assert_int_equal(mote_wire_end(&r, NULL), MOTE_OK);
    mote_wire_frame f;
    mote_wire_error e;
    conn_wait(&C, tag, &f);
    assert_int_equal(error_code(&f, &e), MOTE_WIRE_E_INVALID);
}

/* Unprepared carries the id the server does not know. */
static void expect_unprepared(const uint8_t *id, size_t idlen)
{
    mote_wire_frame f;
    mote_wire_error e;
    exec_kcv(&C, id, idlen, 2, 2, "x", &f);
    assert_int_equal(error_code(&f, &e), MOTE_WIRE_E_UNPREPARED);
    assert_int_equal(e.id.len, idlen);
    assert_memory_equal(e.id.ptr, id, idlen);
}

static void test_error_unprepared_unknown_id(void **state)
{
    (void)state;
    uint8_t id[16];
    memset(id, 0x5a, sizeof id);
    expect_unprepared(id, sizeof id);
}

/* TRUNCATE system.prepared_statements only empties the table that reloads
 * statements at start-up: Cassandra 5.0.6 keeps its in-memory cache, so the
 * id still works afterwards (checked here so that a server that does evict
 * shows up; the Unprepared paths are the unknown id and the schema change).
 * An ALTER of the table does evict: Unprepared with the id, and after a new
 * PREPARE the same statement works again. */
static void test_error_unprepared_truncate_alter(void **state)
{
    (void)state;
    uint8_t id[64];
    size_t idlen;
    mote_wire_frame f;
    prepare(&C, "INSERT INTO " KS ".kv (k, c, v) VALUES (?, ?, ?)", id, &idlen, NULL);
    ok(&C, "TRUNCATE system.prepared_statements");
    exec_kcv(&C, id, idlen, 2, 2, "x", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
    ok(&C, "ALTER TABLE " KS ".kv ADD w int");
    expect_unprepared(id, idlen);
    prepare(&C, "INSERT INTO " KS ".kv (k, c, v) VALUES (?, ?, ?)", id, &idlen, NULL);
    exec_kcv(&C, id, idlen, 2, 2, "x", &f);
    assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
}

/* A schema change of the table drops the statements prepared on it. */
static void test_error_unprepared_schema_change(void **state)
{
    (void)state;
    uint8_t id[64];
    size_t idlen;
    ok(&C, "CREATE TABLE " KS ".sc (k int, c int, v text, PRIMARY KEY (k, c))");
    prepare(&C, "INSERT INTO " KS ".sc (k, c, v) VALUES (?, ?, ?)", id, &idlen, NULL);
    ok(&C, "DROP TABLE " KS ".sc");
    ok(&C, "CREATE TABLE " KS ".sc (k int, c int, v text, PRIMARY KEY (k, c))");
    expect_unprepared(id, idlen);
}

/* A QUORUM write to a replication-factor-3 keyspace on one node. */
static void test_error_unavailable(void **state)
{
    (void)state;
    ok(&C, "CREATE KEYSPACE IF NOT EXISTS " KS "_rf3 WITH replication = "
           "{'class': 'SimpleStrategy', 'replication_factor': 3}");
    ok(&C, "CREATE TABLE IF NOT EXISTS " KS "_rf3.t (k int PRIMARY KEY, v int)");
    mote_wire_params p = one();
    p.consistency = MOTE_WIRE_QUORUM;
    mote_wire_frame f;
    mote_wire_error e;
    query_p(&C, "INSERT INTO " KS "_rf3.t (k, v) VALUES (1, 1)", &p, &f);
    assert_int_equal(error_code(&f, &e), MOTE_WIRE_E_UNAVAILABLE);
    assert_true(mote_wire_error_retryable(e.code));
    assert_int_equal(e.consistency, MOTE_WIRE_QUORUM);
    assert_int_equal(e.required, 2);
    assert_int_equal(e.alive, 1);
    ok(&C, "DROP KEYSPACE " KS "_rf3");
}

/* 100 rows read 7 at a time through paging states, in clustering order. */
static void test_paging(void **state)
{
    (void)state;
    uint8_t id[64];
    size_t idlen;
    prepare(&C, "INSERT INTO " KS ".kv (k, c, v) VALUES (?, ?, ?)", id, &idlen, NULL);
    for (int i = 0; i < 100; i++) {
        mote_wire_frame f;
        exec_kcv(&C, id, idlen, 500, i, "p", &f);
        assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
    }
    static uint8_t state_copy[4096];
    mote_wire_params p = one();
    p.page_size = 7;
    int seen = 0, pages = 0;
    for (;;) {
        mote_wire_frame f;
        mote_wire_result r;
        query_p(&C, "SELECT c FROM " KS ".kv WHERE k = 500", &p, &f);
        assert_int_equal(mote_wire_parse_result(&f, &r), MOTE_OK);
        assert_int_equal(r.kind, MOTE_WIRE_RESULT_ROWS);
        assert_true(r.nrows <= 7);
        pages++;
        mote_wire_cells it;
        mote_view cell;
        uint32_t row, col;
        assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
        while (mote_wire_cell_next(&it, &cell, &row, &col)) {
            assert_int_equal(cell.len, 4);
            assert_int_equal((int32_t)mote_be_load32(cell.ptr), seen);
            seen++;
        }
        if (!(r.meta.flags & MOTE_WIRE_META_MORE_PAGES)) break;
        assert_non_null(r.meta.paging_state.ptr);
        assert_true(r.meta.paging_state.len <= sizeof state_copy);
        /* the view dies with the next receive: the request needs a copy */
        memcpy(state_copy, r.meta.paging_state.ptr, r.meta.paging_state.len);
        p.paging_state.ptr = state_copy;
        p.paging_state.len = r.meta.paging_state.len;
    }
    assert_int_equal(seen, 100);
    assert_true(pages >= 15);
}

/* Deterministic pseudo-random bytes (xorshift), no libc rand. */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint8_t rnd8(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint8_t)(rng >> 24);
}

/* Read every row of "SELECT ..., token(...)" and give each to check(). */
typedef void (*row_check)(const mote_view *cells, uint32_t ncols);
static int select_all(const char *cql, uint32_t ncols, row_check check)
{
    static uint8_t state_copy[4096];
    static mote_view cells[8];
    mote_wire_params p = one();
    p.page_size = 300;
    int n = 0;
    for (;;) {
        mote_wire_frame f;
        mote_wire_result r;
        query_p(&C, cql, &p, &f);
        assert_int_equal(mote_wire_parse_result(&f, &r), MOTE_OK);
        assert_int_equal(r.meta.ncols, ncols);
        mote_wire_cells it;
        mote_view cell;
        uint32_t row, col;
        assert_int_equal(mote_wire_cells_init(&it, &r), MOTE_OK);
        while (mote_wire_cell_next(&it, &cell, &row, &col)) {
            cells[col] = cell;
            if (col == ncols - 1) {
                check(cells, ncols);
                n++;
            }
        }
        if (!(r.meta.flags & MOTE_WIRE_META_MORE_PAGES)) break;
        memcpy(state_copy, r.meta.paging_state.ptr, r.meta.paging_state.len);
        p.paging_state.ptr = state_copy;
        p.paging_state.len = r.meta.paging_state.len;
    }
    return n;
}

static int64_t cell_token(mote_view c)
{
    assert_int_equal(c.len, 8);
    return (int64_t)mote_be_load64(c.ptr);
}

static void check_single(const mote_view *c, uint32_t n)
{
    (void)n;
    assert_true(c[0].len > 0);
    assert_true(mote_wire_token(c[0].ptr, c[0].len) == cell_token(c[1]));
}

static void check_composite(const mote_view *c, uint32_t n)
{
    (void)n;
    int64_t t;
    assert_int_equal(mote_wire_token_parts(c, 3, &t), MOTE_OK);
    assert_true(t == cell_token(c[3]));
}

/* Murmur3 token of 1,000 blob keys of 1..40 random bytes (every tail
 * length, bytes >= 0x80 in the tail where the server's sign extension
 * shows) equals the server's token(k). */
static void test_token_single(void **state)
{
    (void)state;
    ok(&C, "CREATE TABLE " KS ".tk1 (k blob PRIMARY KEY)");
    uint8_t id[64];
    size_t idlen;
    prepare(&C, "INSERT INTO " KS ".tk1 (k) VALUES (?)", id, &idlen, NULL);
    for (int b = 0; b < 10; b++) {
        mote_wire_req r;
        mote_wire_params p = one();
        uint64_t tag = C.next_tag++;
        assert_int_equal(mote_wire_batch_begin(&r, &C.w, &C.tx, tag, MOTE_WIRE_BATCH_UNLOGGED, &p), MOTE_OK);
        for (int i = 0; i < 100; i++) {
            uint8_t key[40];
            size_t len = 1 + (size_t)((b * 100 + i) % 40);
            for (size_t j = 0; j < len; j++) key[j] = rnd8();
            mote_wire_batch_prepared(&r, id, idlen);
            mote_wire_value(&r, key, len);
        }
        assert_int_equal(mote_wire_end(&r, NULL), MOTE_OK);
        mote_wire_frame f;
        conn_wait(&C, tag, &f);
        assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
    }
    assert_int_equal(select_all("SELECT k, token(k) FROM " KS ".tk1", 2, check_single), 1000);
}

/* Composite partition key (text, bigint, blob): 1,000 keys, texts of 0..300
 * bytes (over 255: the 2-byte length's high byte), non-ASCII included. */
static void test_token_composite(void **state)
{
    (void)state;
    ok(&C, "CREATE TABLE " KS ".tk2 (a text, b bigint, c blob, PRIMARY KEY ((a, b, c)))");
    uint8_t id[64];
    size_t idlen;
    prepare(&C, "INSERT INTO " KS ".tk2 (a, b, c) VALUES (?, ?, ?)", id, &idlen, NULL);
    for (int b = 0; b < 20; b++) {
        mote_wire_req r;
        mote_wire_params p = one();
        uint64_t tag = C.next_tag++;
        assert_int_equal(mote_wire_batch_begin(&r, &C.w, &C.tx, tag, MOTE_WIRE_BATCH_UNLOGGED, &p), MOTE_OK);
        for (int i = 0; i < 50; i++) {
            static char text[320];
            uint8_t big[8], blob[24];
            int n = b * 50 + i;
            size_t tl = (size_t)(n * 7 % 301);
            for (size_t j = 0; j < tl; j++) text[j] = (char)('a' + rnd8() % 26);
            if (tl >= 2 && n % 3 == 0) memcpy(text, "\xc3\xa9", 2); /* é */
            for (int j = 0; j < 8; j++) big[j] = rnd8();
            size_t bl = 1 + (size_t)(n % 24);
            for (size_t j = 0; j < bl; j++) blob[j] = rnd8();
            mote_wire_batch_prepared(&r, id, idlen);
            mote_wire_value(&r, text, tl);
            mote_wire_value(&r, big, 8);
            mote_wire_value(&r, blob, bl);
        }
        assert_int_equal(mote_wire_end(&r, NULL), MOTE_OK);
        mote_wire_frame f;
        conn_wait(&C, tag, &f);
        if (f.opcode != MOTE_WIRE_RESULT) {
            mote_wire_error e;
            error_code(&f, &e);
            fprintf(stderr, "# batch: %.*s\n", (int)e.message.len, (const char *)e.message.ptr);
        }
        assert_int_equal(f.opcode, MOTE_WIRE_RESULT);
    }
    assert_int_equal(select_all("SELECT a, b, c, token(a, b, c) FROM " KS ".tk2", 4, check_composite), 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),
        cmocka_unit_test(test_prepare_execute),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_error_syntax),
        cmocka_unit_test(test_error_unknown_table),
        cmocka_unit_test(test_error_already_exists),
        cmocka_unit_test(test_error_wrong_bind_type),
        cmocka_unit_test(test_error_unprepared_unknown_id),
        cmocka_unit_test(test_error_unprepared_truncate_alter),
        cmocka_unit_test(test_error_unprepared_schema_change),
        cmocka_unit_test(test_error_unavailable),
        cmocka_unit_test(test_paging),
        cmocka_unit_test(test_token_single),
        cmocka_unit_test(test_token_composite),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
