/*
 * count - the loops of bench_scan's, bench_lp's and bench_num's "mote" rows
 * over one input file, once, for bench/counts.py to count their
 * instructions under callgrind (only the library's entry points are counted
 * there, so this program's own reading and setup do not count).
 *
 *   count scan FILE DIALECT CHUNK [sse2]   mote_scan_next, as bench_scan
 *                                          (sse2: the block path without AVX2)
 *   count lp FILE tokenize|decode          mote_lp_next (and
 *                                          mote_lp_point_decode), as bench_lp
 *   count lp FILE stream                   mote_lp_stream_next and
 *                                          mote_lp_point_decode, 64 KiB chunks
 *   count lp FILE write                    the points written back
 *                                          (mote_lp_write_*)
 *   count num FILE parse|parse_int|format  mote_num_parse_f64, _parse_i64,
 *                                          _format_f64 on each line
 *
 * Prints the number of tokens, points or numbers; exit 1 on any error the
 * library reports, 2 on bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mote/arena.h"
#include "mote/buf.h"
#include "mote/lp.h"
#include "mote/num.h"
#include "mote/pool.h"
#include "mote/scan.h"

#if !MOTE_SMALL
void mote__scan_no_avx2(mote_scanner *sc); /* src/scan.c, for tests and this */
#endif

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *b = NULL;
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)len + 1)) != NULL && fread(b, 1, (size_t)len, f) != (size_t)len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *n = (size_t)len;
    return b;
}

static int count_scan(const unsigned char *in, size_t n, int dialect, size_t chunk, int sse2)
{
    mote_arena arena;
    mote_pool pool;
    mote_buf carry;
    mote_scan_config cfg;
    mote_scanner sc;
    if (mote_arena_init(&arena, NULL, 0, mote_heap_alloc, NULL) != MOTE_OK ||
        mote_pool_init(&pool, &arena, 0) != MOTE_OK || mote_buf_init_pool(&carry, &pool, 0) != MOTE_OK ||
        mote_scan_config_init(&cfg, (mote_scan_dialect)dialect) != MOTE_OK ||
        mote_scan_init(&sc, &cfg, &carry) != MOTE_OK)
        return 1;
#if !MOTE_SMALL
    if (sse2) mote__scan_no_avx2(&sc);
#else
    if (sse2) return 2; /* small builds have no block path */
#endif
    mote_scan_token tok;
    unsigned long tokens = 0;
    mote_err e;
    for (size_t off = 0; off < n; off += chunk) {
        if (mote_scan_feed(&sc, in + off, n - off < chunk ? n - off : chunk) != MOTE_OK) return 1;
        while ((e = mote_scan_next(&sc, &tok)) == MOTE_OK) tokens++;
        if (e != MOTE_ERR_NEED_MORE) return 1;
    }
    if (mote_scan_finish(&sc) != MOTE_OK) return 1;
    while ((e = mote_scan_next(&sc, &tok)) == MOTE_OK) tokens++;
    if (e != MOTE_ERR_NEED_MORE) return 1;
    printf("%lu tokens\n", tokens);
    mote_buf_free(&carry);
    mote_arena_destroy(&arena);
    return 0;
}

/* The points of in[0..n) decoded (not counted), each written back with the
 * writer (counted: mote_lp_write_*), as bench_lp's write row writes its
 * decoded points: names and strings unescaped first. */
static int count_lp_write(const unsigned char *in, size_t n)
{
    static mote_lp_tag tags[16];
    static mote_lp_field fields[16];
    static uint8_t scratch[1 << 16];
    size_t cap = 2 * n + 65536;
    uint8_t *out = malloc(cap);
    mote_lp_decoder d;
    mote_lp_point pt;
    mote_lp_writer w;
    if (!out || mote_lp_decoder_init(&d, in, n, NULL) != MOTE_OK ||
        mote_lp_point_init(&pt, tags, 16, fields, 16) != MOTE_OK ||
        mote_lp_writer_init(&w, out, cap, MOTE_LP_NS) != MOTE_OK)
        return 1;
    unsigned long points = 0;
    mote_err e;
    while ((e = mote_lp_next(&d, &pt, NULL)) == MOTE_OK) {
        if (mote_lp_point_decode(&pt, NULL, NULL) != MOTE_OK || pt.ntags > 16 || pt.nfields > 16) return 1;
        size_t used = 0, k;
#define UNESC(t, p, len)                                                                            \
    do {                                                                                          \
        if (mote_lp_unescape(t, scratch + used, sizeof scratch - used, &k) != MOTE_OK) return 1; \
        p = scratch + used, len = k, used += k;                                                   \
    } while (0)
        const uint8_t *m, *a, *b;
        size_t mn, an, bn;
        UNESC(&pt.measurement, m, mn);
        e = mote_lp_write_measurement(&w, m, mn);
        for (size_t i = 0; i < pt.ntags && e == MOTE_OK; i++) {
            UNESC(&tags[i].key, a, an);
            UNESC(&tags[i].value, b, bn);
            e = mote_lp_write_tag(&w, a, an, b, bn);
        }
        for (size_t i = 0; i < pt.nfields && e == MOTE_OK; i++) {
            const mote_lp_field *f = &fields[i];
            UNESC(&f->key, a, an);
            switch (f->type) {
            case MOTE_LP_FLOAT: e = mote_lp_write_float(&w, a, an, f->value.f); break;
            case MOTE_LP_INT: e = mote_lp_write_int(&w, a, an, f->value.i); break;
            case MOTE_LP_UINT: e = mote_lp_write_uint(&w, a, an, f->value.u); break;
            case MOTE_LP_BOOL: e = mote_lp_write_bool(&w, a, an, f->value.b); break;
            default:
                UNESC(&f->value.s, b, bn);
                e = mote_lp_write_string(&w, a, an, b, bn);
            }
        }
#undef UNESC
        if (e != MOTE_OK || mote_lp_write_end(&w, pt.has_time ? &pt.time : NULL) != MOTE_OK) return 1;
        points++;
    }
    if (e != MOTE_ERR_NEED_MORE) return 1;
    printf("%lu points %zu bytes\n", points, mote_lp_writer_length(&w));
    free(out);
    return 0;
}

/* The stream in 64 KiB chunks with one 64 KiB carry, every point decoded
 * (bench_lp's stream row). */
static int count_lp_stream(const unsigned char *in, size_t n)
{
    static uint8_t carry[1 << 16];
    static mote_lp_tag tags[16];
    static mote_lp_field fields[16];
    const size_t chunk = 65536;
    mote_lp_stream s;
    if (mote_lp_stream_init(&s, NULL, carry, sizeof carry) != MOTE_OK) return 1;
    size_t off = 0;
    unsigned long points = 0;
    for (int done = 0;;) {
        mote_lp_point pt;
        if (mote_lp_point_init(&pt, tags, 16, fields, 16) != MOTE_OK) return 1;
        const mote_err e = mote_lp_stream_next(&s, &pt, NULL);
        if (e == MOTE_ERR_NEED_MORE) {
            if (done) break;
            if (off == n) {
                if (mote_lp_stream_finish(&s) != MOTE_OK) return 1;
                done = 1;
                continue;
            }
            const size_t k = n - off < chunk ? n - off : chunk;
            if (mote_lp_stream_feed(&s, in + off, k) != MOTE_OK) return 1;
            off += k;
            continue;
        }
        if (e != MOTE_OK || mote_lp_point_decode(&pt, NULL, NULL) != MOTE_OK) return 1;
        points++;
    }
    printf("%lu points\n", points);
    return 0;
}

/* num over the lines of in[0..n) (bench_num's rows): how 0 parses each as a
 * double (mote_num_parse_f64), 1 as an int64 (mote_num_parse_i64), 2 formats
 * each double, given as the 16 hex digits of its bits (mote_num_format_f64). */
static int count_num(unsigned char *in, size_t n, int how)
{
    unsigned long items = 0;
    in[n] = 0; /* (slurp() left room for it) */
    for (char *line = (char *)in, *next; *line; line = next) {
        char *nl = strchr(line, '\n');
        if (!nl) return 2;
        *nl = 0;
        next = nl + 1;
        const size_t len = (size_t)(nl - line);
        double d;
        int64_t v;
        char buf[MOTE_NUM_F64_MAX];
        size_t w;
        if (how == 0 && mote_num_parse_f64((const uint8_t *)line, len, &d) != MOTE_OK) return 1;
        if (how == 1 && mote_num_parse_i64((const uint8_t *)line, len, &v) != MOTE_OK) return 1;
        if (how == 2) {
            const uint64_t bits = strtoull(line, NULL, 16);
            memcpy(&d, &bits, sizeof d);
            if (mote_num_format_f64(d, buf, sizeof buf, &w) != MOTE_OK) return 1;
        }
        items++;
    }
    printf("%lu items\n", items);
    return 0;
}

static int count_lp(const unsigned char *in, size_t n, int decode)
{
    static mote_lp_tag tags[16];
    static mote_lp_field fields[16];
    mote_lp_decoder d;
    mote_lp_point pt;
    if (mote_lp_decoder_init(&d, in, n, NULL) != MOTE_OK ||
        mote_lp_point_init(&pt, tags, 16, fields, 16) != MOTE_OK)
        return 1;
    unsigned long points = 0;
    mote_err e;
    while ((e = mote_lp_next(&d, &pt, NULL)) == MOTE_OK) {
        if (decode && mote_lp_point_decode(&pt, NULL, NULL) != MOTE_OK) return 1;
        points++;
    }
    if (e != MOTE_ERR_NEED_MORE) return 1;
    printf("%lu points\n", points);
    return 0;
}

int main(int argc, char **argv)
{
    size_t n = 0;
    unsigned char *in = argc >= 4 ? slurp(argv[2], &n) : NULL;
    int rc = 2;
    if (!in) {
        fputs("usage: count scan FILE DIALECT CHUNK [sse2] | count lp FILE tokenize|decode|stream|write | count num FILE parse|parse_int|format\n",
              stderr);
    } else if (strcmp(argv[1], "scan") == 0 && argc >= 5 && strtoul(argv[4], NULL, 10) > 0) {
        rc = count_scan(in, n, atoi(argv[3]), (size_t)strtoul(argv[4], NULL, 10),
                        argc > 5 && strcmp(argv[5], "sse2") == 0);
    } else if (strcmp(argv[1], "num") == 0) {
        rc = count_num(in, n, strcmp(argv[3], "parse") == 0 ? 0 : strcmp(argv[3], "parse_int") == 0 ? 1 : 2);
    } else if (strcmp(argv[1], "lp") == 0) {
        if (strcmp(argv[3], "stream") == 0) rc = count_lp_stream(in, n);
        else if (strcmp(argv[3], "write") == 0) rc = count_lp_write(in, n);
        else rc = count_lp(in, n, strcmp(argv[3], "decode") == 0);
    }
    if (rc == 1) fputs("count: the library reported an error\n", stderr);
    if (rc == 2 && in) fputs("count: bad arguments\n", stderr);
    free(in);
    return rc;
}
