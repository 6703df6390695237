/*
 * main.c - mote on a bare-metal Cortex-M: a static arena of a few KiB, no
 * heap, no C library start-up, output through semihosting.
 *
 * Built by cross/meson.build in the Cortex-M cross builds and run under
 * qemu-system-arm (mps2-an385 Cortex-M3 for the M0+ build, mps2-an386
 * Cortex-M4 for the M4F build). Every module is in the cross builds'
 * library and every part runs; the run ends with "baremetal: OK" and exit
 * status 0, or "FAIL ..." lines and status 1.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bm.h"
#include "mote/common.h"
#include "mote/arena.h"
#include "mote/pool.h"
#include "mote/buf.h"
#include "mote/lp.h"
#include "mote/wire.h"
#include "mote/cql.h"

static unsigned failures;

/* Print an unsigned number in decimal (no printf: nothing from libc's stdio). */
static void put_u(uint32_t v)
{
    char tmp[11];
    size_t i = sizeof tmp - 1;
    tmp[i] = '\0';
    do {
        tmp[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    bm_puts(&tmp[i]);
}

static void put_kv(const char *key, uint32_t v)
{
    bm_puts(key);
    bm_puts(": ");
    put_u(v);
    bm_puts("\n");
}

static void check(int ok, const char *what)
{
    if (!ok) {
        failures++;
        bm_puts("FAIL ");
        bm_puts(what);
        bm_puts("\n");
    }
}

static void put_hex(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char two[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        two[0] = digits[p[i] >> 4];
        two[1] = digits[p[i] & 15u];
        bm_puts(two);
    }
}

/* Encode a CQL vector<float, 3> as ScyllaDB/Cassandra put it on the wire
 * (3 big-endian IEEE-754 floats, no length prefixes) and decode it back. */
static void run_cql(const float *vals, size_t n)
{
    mote_cql_type nodes[4];
    const mote_cql_type *t = NULL;
    static const char type_text[] = "vector<float, 3>";
    mote_err e = mote_cql_type_parse(type_text, sizeof type_text - 1, nodes, 4, NULL, &t);
    check(e == MOTE_OK && t != NULL, "cql_type_parse vector<float, 3>");
    if (e != MOTE_OK || n != 3) {
        return;
    }
    uint8_t out[12];
    size_t written = 0;
    e = mote_cql_encode_array(t, vals, n, out, sizeof out, &written);
    check(e == MOTE_OK && written == 12, "cql_encode_array");
    bm_puts("cql vector<float, 3>: ");
    put_hex(out, written);
    bm_puts("\n");
    float back[3] = {0, 0, 0};
    check(mote_cql_decode_vector(MOTE_CQL_FLOAT, out, written, back, 3) == MOTE_OK &&
              memcmp(back, vals, sizeof back) == 0,
          "cql_decode_vector round trip");
}

/* Tokenize a few lines of line protocol in place (views into the input, no
 * copies), skip the bad one with its line number, and type the fields of
 * the 'vec' point: they become the CQL vector below. */
static size_t run_lp(float *vec, size_t cap)
{
    static const char input[] = "# telemetry from a sensor node\n"
                                "env,node=m0,room=lab\\ 1 temp=21.5,rh=40i,ok=true 1700000000000000000\n"
                                "bad line\n"
                                "vec v0=1,v1=2,v2=-0.5\n";
    mote_lp_decoder d;
    mote_lp_tag tags[4];
    mote_lp_field fields[4];
    mote_lp_point pt;
    mote_lp_error err;
    uint32_t points = 0, bad_line = 0, nfields = 0;
    size_t n = 0;
    check(mote_lp_decoder_init(&d, input, sizeof input - 1, NULL) == MOTE_OK, "lp_decoder_init");
    for (;;) {
        check(mote_lp_point_init(&pt, tags, 4, fields, 4) == MOTE_OK, "lp_point_init");
        mote_err e = mote_lp_next(&d, &pt, &err);
        if (e == MOTE_ERR_NEED_MORE) break;
        if (e != MOTE_OK) {
            bad_line = (uint32_t)err.pos.line;
            continue;
        }
        points++;
        nfields += (uint32_t)pt.nfields;
        if (pt.ntags == 2) {
            /* "lab\ 1" is a view of 6 input bytes flagged as escaped. */
            check(tags[1].value.escaped && tags[1].value.len == 6, "lp views: escapes flagged, not copied");
        }
        if (pt.measurement.len == 3 && memcmp(pt.measurement.ptr, "vec", 3) == 0 &&
            mote_lp_point_decode(&pt, NULL, &err) == MOTE_OK) {
            for (size_t i = 0; i < pt.nfields && n < cap; i++) vec[n++] = (float)fields[i].value.f;
        }
    }
    check(points == 2 && nfields == 6 && bad_line == 3 && n == 3, "lp tokenize and decode");
    put_kv("lp points", points);
    put_kv("lp bad line", bad_line);
    return n;
}

/* All the memory mote gets here: 4 KiB of static storage, never grown. */
static _Alignas(8) uint8_t arena_mem[4096];

static void run_memory(void)
{
    mote_arena arena;
    check(mote_arena_init(&arena, arena_mem, sizeof arena_mem, NULL, NULL) == MOTE_OK,
          "arena_init");
    uint32_t *words = mote_arena_alloc_array(&arena, 16, sizeof *words, 4);
    check(words != NULL && ((uintptr_t)words & 3u) == 0, "arena_alloc_array aligned");
    /* count * size wraps 32-bit size_t: refused, not a short block. */
    check(mote_arena_alloc_array(&arena, SIZE_MAX / 2u + 2u, 2, 1) == NULL,
          "arena_alloc_array overflow refused");
    /* More than the arena holds: NULL, and the arena is unchanged. */
    mote_arena_mark before = mote_arena_save(&arena);
    check(mote_arena_alloc(&arena, sizeof arena_mem + 1u) == NULL, "arena_alloc beyond block");
    mote_arena_restore(&arena, before);

    mote_pool pool;
    check(mote_pool_init(&pool, &arena, 1024) == MOTE_OK, "pool_init");
    size_t cap = 0;
    void *p = mote_pool_get(&pool, 100, &cap);
    check(p != NULL && cap >= 100, "pool_get");
    check(mote_pool_put(&pool, p) == MOTE_OK, "pool_put");
    check(mote_pool_get(&pool, 100, NULL) == p, "pool reuses the freed buffer");
    check(mote_pool_put(&pool, p) == MOTE_OK, "pool_put again");

    mote_buf buf;
    check(mote_buf_init_pool(&buf, &pool, 512) == MOTE_OK, "buf_init_pool");
    static const char line[] = "cpu,host=m0 usage=0.5 1700000000\n";
    size_t appended = 0;
    while (mote_buf_append(&buf, line, sizeof line - 1) == MOTE_OK) {
        appended += sizeof line - 1;
    }
    /* The cap holds: growth stopped at 512 bytes with the content intact. */
    check(buf.len == appended && appended <= 512 && appended + sizeof line - 1 > 512,
          "buf stops at its cap");
    check(memcmp(buf.data, line, sizeof line - 1) == 0, "buf content intact");
    put_kv("buf bytes", (uint32_t)buf.len);
    mote_buf_free(&buf);

    mote_arena_stats st;
    mote_arena_get_stats(&arena, &st);
    put_kv("arena capacity", (uint32_t)st.capacity);
    put_kv("arena high water", (uint32_t)st.high_water);
}

/* The CQL client without a socket: a STARTUP and an EXECUTE frame into a
 * static buffer, a READY and a RESULT fed back byte by byte through a
 * 64-byte receive buffer, and a partition token. */
static void run_wire(void)
{
    static mote_wire_slot slots[4];
    static uint8_t rx[64], txmem[128];
    mote_wire w;
    mote_buf tx;
    int s0 = -1, s1 = -1;
    check(mote_wire_init(&w, slots, 4, rx, sizeof rx) == MOTE_OK, "wire init");
    check(mote_buf_init_fixed(&tx, txmem, sizeof txmem) == MOTE_OK, "wire buf");
    check(mote_wire_startup(&w, &tx, 1, &s0) == MOTE_OK && tx.len == 31, "wire startup");
    mote_wire_req r;
    static const uint8_t id[2] = {0xab, 0xcd}, v[4] = {0, 0, 0, 42};
    check(mote_wire_execute_begin(&r, &w, &tx, 2, id, 2, NULL) == MOTE_OK &&
              mote_wire_value(&r, v, 4) == MOTE_OK && mote_wire_end(&r, &s1) == MOTE_OK,
          "wire execute");
    static const uint8_t in[] = {0x84, 0, 0, 1, 0x08, 0, 0, 0, 4, 0, 0, 0, 1,  /* void */
                                 0x84, 0, 0, 0, 0x02, 0, 0, 0, 0};           /* ready */
    uint64_t tags = 0;
    unsigned frames = 0;
    for (size_t i = 0; i < sizeof in; i++) {
        mote_wire_frame f;
        mote_wire_feed(&w, in + i, 1);
        while (mote_wire_next(&w, &f) == MOTE_OK) {
            frames++;
            tags = tags * 10 + f.tag;
        }
    }
    check(frames == 2 && tags == 21 && mote_wire_inflight(&w) == 0, "wire responses");
    check(mote_wire_token("\x00\x00\x00\x01", 4) == INT64_C(-4069959284402364209), "wire token");
    put_kv("wire frame bytes sent", (uint32_t)tx.len);
}

int main(void)
{
    bm_puts("mote " MOTE_VERSION_STRING " bare-metal example\n");
    check(mote_err_name(MOTE_ERR_NOMEM)[0] == 'N', "err_name");
    run_memory();
    {
        float vec[3];
        run_cql(vec, run_lp(vec, 3));
    }
    run_wire();
    put_kv("stack used", bm_stack_used());
    if (failures != 0) {
        put_kv("failures", failures);
        return 1;
    }
    bm_puts("baremetal: OK\n");
    return 0;
}
