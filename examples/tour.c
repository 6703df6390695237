/*
 * tour.c - the README's module tour, compiled and run by the test suite so
 * the snippets there cannot rot. Each function is one snippet.
 */
#include <stdio.h>
#include <string.h>

#include "mote/mote.h"

/* --- memory: an arena over a static block, a pool, a growable buffer --- */
static int tour_memory(void)
{
    static uint8_t block[16 * 1024];
    mote_arena arena;
    mote_pool pool;
    mote_buf buf;
    if (mote_arena_init(&arena, block, sizeof block, NULL, NULL) != MOTE_OK) return 1; /* fixed: never grows */
    if (mote_pool_init(&pool, &arena, 4096) != MOTE_OK) return 1;   /* size classes up to 4 KiB */
    if (mote_buf_init_pool(&buf, &pool, 8192) != MOTE_OK) return 1; /* grows through the pool, cap 8 KiB */

    if (mote_buf_append(&buf, "hello, ", 7) != MOTE_OK) return 1;
    if (mote_buf_append(&buf, "mote", 4) != MOTE_OK) return 1;
    printf("memory: \"%.*s\" in a %zu-byte pool buffer\n", (int)buf.len, (const char *)buf.data, buf.cap);
    mote_buf_free(&buf); /* back to the pool */

    mote_arena_mark mark = mote_arena_save(&arena);
    char *scratch = mote_arena_alloc(&arena, 1000);
    if (!scratch) return 1;
    mote_arena_restore(&arena, mark); /* scratch released in O(1) */
    return 0;
}

/* --- scan: split a SQL script that arrives in chunks --- */
static int tour_scan(void)
{
    static const char *const chunks[] = {"INSERT INTO t VALUES ('a;b');\n", "-- a comment; no split\nSELE", "CT 1;"};
    uint8_t carry_mem[256];
    mote_buf carry;
    mote_scanner sc;
    mote_scan_config cfg;
    mote_scan_token tok;
    if (mote_buf_init_fixed(&carry, carry_mem, sizeof carry_mem) != MOTE_OK) return 1; /* holds only a straddling statement */
    if (mote_scan_config_init(&cfg, MOTE_SCAN_MYSQL) != MOTE_OK) return 1;
    if (mote_scan_init(&sc, &cfg, &carry) != MOTE_OK) return 1;

    for (size_t i = 0; i <= 3; i++) {
        mote_err fe = i < 3 ? mote_scan_feed(&sc, chunks[i], strlen(chunks[i])) : mote_scan_finish(&sc);
        if (fe != MOTE_OK) return 1; /* only when the last chunk was not drained */
        mote_err e;
        while ((e = mote_scan_next(&sc, &tok)) != MOTE_ERR_NEED_MORE) {
            if (e != MOTE_OK) { printf("scan: %s at line %llu\n", mote_err_name(e), (unsigned long long)tok.pos.line); continue; }
            printf("scan: line %llu: %.*s\n", (unsigned long long)tok.pos.line, (int)tok.text.len, (const char *)tok.text.ptr);
        }
    }
    return 0;
}

/* --- lp: decode line protocol in place, write it back --- */
static int tour_lp(void)
{
    static const char input[] = "cpu,host=a,dc=eu\\ 1 usage=0.5,count=3i 1700000000000000000\n"
                                "cpu usage=oops\n";
    mote_lp_decoder d;
    mote_lp_tag tags[8];
    mote_lp_field fields[8];
    mote_lp_point pt;
    mote_lp_error err;
    if (mote_lp_decoder_init(&d, input, sizeof input - 1, NULL) != MOTE_OK) return 1; /* ns, no limits */
    for (;;) {
        if (mote_lp_point_init(&pt, tags, 8, fields, 8) != MOTE_OK) return 1;
        mote_err e = mote_lp_next(&d, &pt, &err);
        if (e == MOTE_ERR_NEED_MORE) break;
        if (e == MOTE_OK) e = mote_lp_point_decode(&pt, NULL, &err); /* type the values */
        if (e != MOTE_OK) {
            printf("lp: line %llu, column %llu: %s\n", (unsigned long long)err.pos.line,
                   (unsigned long long)err.pos.column, err.message);
            continue; /* a bad line never stops the batch */
        }
        uint8_t dc[32];
        size_t dclen;
        if (mote_lp_unescape(&tags[1].value, dc, sizeof dc, &dclen) != MOTE_OK) return 1; /* "eu\ 1" -> "eu 1" */
        printf("lp: %.*s dc=%.*s usage=%g count=%lld time=%lld\n", (int)pt.measurement.len,
               (const char *)pt.measurement.ptr, (int)dclen, (const char *)dc, fields[0].value.f,
               (long long)fields[1].value.i, (long long)pt.time);
    }

    char line[128];
    mote_lp_writer w;
    int64_t now = 1700000000000000000;
    size_t len;
    if (mote_lp_writer_init(&w, line, sizeof line, MOTE_LP_NS) != MOTE_OK) return 1;
    mote_lp_write_measurement(&w, "disk", 4);
    mote_lp_write_tag(&w, "path", 4, "/var/log data", 13); /* escaped as the grammar needs */
    mote_lp_write_float(&w, "free", 4, 0.25);
    if (mote_lp_write_end(&w, &now) != MOTE_OK) return 1;
    len = mote_lp_writer_length(&w);
    printf("lp: wrote %.*s", (int)len, line);
    return 0;
}

/* --- cql: a 3-dimensional float vector and a list of ints, as on the wire --- */
static int tour_cql(void)
{
    static const float embedding[3] = {0.5f, -1.0f, 2.0f};
    static const int32_t ids[4] = {1, 2, 3, 400000};
    uint8_t out[64];
    size_t n;
    if (mote_cql_encode_vector(MOTE_CQL_FLOAT, embedding, 3, out, sizeof out, &n) != MOTE_OK) return 1;
    printf("cql: vector<float, 3> is %zu bytes\n", n);                 /* 12: packed, big-endian */
    if (mote_cql_encode_list(MOTE_CQL_INT, ids, 4, out, sizeof out, &n) != MOTE_OK) return 1;
    int32_t back[4];
    size_t count;
    if (mote_cql_decode_list(MOTE_CQL_INT, out, n, back, 4, &count) != MOTE_OK) return 1;
    printf("cql: list<int> of %zu is %zu bytes, decoded back: %d\n", count, n, (int)back[3]);

    mote_cql_type nodes[4];
    const mote_cql_type *t;
    if (mote_cql_type_parse("map<text, bigint>", 17, nodes, 4, NULL, &t) != MOTE_OK) return 1;
    printf("cql: parsed a %s of %s to %s\n", mote_cql_kind_name(t->kind), mote_cql_kind_name(t->sub->kind),
           mote_cql_kind_name(t->sub->next->kind));
    return 0;
}

int main(void)
{
    int rc = tour_memory() || tour_scan() || tour_lp() || tour_cql();
    /* output that did not arrive (a full disk, a closed pipe) is a failure */
    if (fclose(stdout) != 0) {
        perror("tour: stdout");
        return 2;
    }
    return rc;
}
