/*
 * lp_agent.c - a telemetry agent's core: InfluxDB line protocol in, CQL row
 * values out, in one fixed block of memory.
 *
 *   lp_agent [--arena BYTES] [--chunk BYTES] [--precision ns|us|ms|s]
 *            [--out FILE] [--hex] [FILE|-]
 *
 * Each point becomes the bound values of one row of
 *
 *   CREATE TABLE metrics (measurement text, tags map<text,text>,
 *       time timestamp, fields map<text,double>, text_fields map<text,text>,
 *       PRIMARY KEY ((measurement, tags), time))
 *
 * encoded exactly as a driver binds them: integer, unsigned and boolean
 * fields widened to double (true 1.0, false 0.0), string fields into
 * text_fields, the time in milliseconds (ns rounded down). Names, keys and
 * values are unescaped.
 *
 * --out FILE writes the rows: each row is five cells in column order, each
 * cell a CQL [bytes]: a 4-byte big-endian length, then that many bytes
 * (maps as the protocol encodes them, count 0 for an empty one). No header,
 * no separator: a reader takes five cells at a time. --hex prints each row's
 * cells as hex on stdout. Statistics go to stderr: points, bad lines (each
 * with its line and column), bytes in and out, MB/s, the arena's high water.
 *
 * Memory: one block of --arena bytes (default 256 KiB) taken at start; after
 * that nothing is allocated. From it: the read chunk, stdio's output buffer,
 * the carry for a line that straddles chunks (a quarter of the arena: a
 * longer line is reported as TOO_LONG and skipped), and per-point scratch
 * that is released after every point (arena save/restore). Resident memory
 * is therefore the same for a 10 MB and a 10 GB input.
 *
 * Why mote_lp_stream and not the generic scanner's "lines" dialect: in line
 * protocol a '"' opens a string only in a field value (m,t="x v=1 is a tag
 * value holding a quote), so only the lp grammar knows where a record ends.
 * Exit status: 0, 1 if any line was bad, 2 for usage or I/O errors.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mote/mote.h"

#define NCELLS 5
#define ARRAY_CAP 64 /* tags/fields decoded in place; more are iterated */

typedef struct agent {
    mote_arena arena;
    mote_lp_options opt;
    FILE *out;      /* --out, or NULL */
    const char *out_name; /* for messages */
    int hex;
    unsigned long long points, bad, bytes_in, bytes_out;
} agent;

typedef struct row {
    mote_view name;
    mote_view *tag_k, *tag_v;
    size_t ntags;
    mote_view *num_k, *str_k, *str_v;
    double *num_v;
    size_t nnum, nstr;
    int64_t time_ms;
} row;

static int usage(const char *msg)
{
    if (msg) fprintf(stderr, "lp_agent: %s (try --help)\n", msg);
    else
        printf("usage: lp_agent [--arena BYTES] [--chunk BYTES] [--precision ns|us|ms|s]\n"
               "                [--out FILE] [--hex] [FILE|-]\n"
               "Read line protocol (default stdin), turn each point into the CQL values of a\n"
               "row (measurement text, tags map<text,text>, time timestamp,\n"
               "fields map<text,double>, text_fields map<text,text>).\n"
               "  --arena BYTES     all the memory the agent uses (default 262144)\n"
               "  --chunk BYTES     read size (default 16384, at most a quarter of the arena)\n"
               "  --precision P     timestamp unit of the input (default ns)\n"
               "  --out FILE        write rows: five [bytes] cells per row ('-' = stdout)\n"
               "  --hex             print each row's cells as hex\n"
               "Sizes take a binary suffix: 256K, 1M (1K = 1024 bytes).\n"
               "Statistics go to stderr. Exit 0; 1 if any line was bad (each reported, the\n"
               "rest processed); 2 on a usage or I/O error (one line: WHAT: REASON).\n");
    if (!msg && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "lp_agent: stdout: %s\n", strerror(errno ? errno : EIO));
        return 2;
    }
    return msg ? 2 : 0;
}

/* A positive byte count with an optional binary suffix K, M or G ("256K"),
 * on mote's own exact integer parser (no locale). */
static int parse_size(const char *s, size_t *out)
{
    size_t n = strlen(s);
    unsigned shift = 0;
    if (n > 1 && strchr("kKmMgG", s[n - 1])) {
        char c = s[--n];
        shift = c == 'k' || c == 'K' ? 10 : c == 'm' || c == 'M' ? 20 : 30;
    }
    uint64_t v;
    if (mote_num_parse_u64((const uint8_t *)s, n, &v) != MOTE_OK || v == 0 ||
        v > (SIZE_MAX / 2) >> shift)
        return -1;
    *out = (size_t)(v << shift);
    return 0;
}

/* One line "lp_agent: WHAT: REASON" for a failed read or write; the caller
 * exits 2. */
static int io_error(const char *what, int err)
{
    fprintf(stderr, "lp_agent: %s: %s\n", what, strerror(err ? err : EIO));
    return 2;
}

/* The real bytes of a name or value: the input itself when it holds no
 * escapes, else an unescaped copy in the per-point scratch arena. */
static mote_err text_of(agent *ag, const mote_lp_text *t, mote_view *v)
{
    return mote_lp_unescape_arena(t, &ag->arena, v);
}

static mote_err add_field(agent *ag, row *r, mote_lp_field *f)
{
    mote_err e = f->decoded ? MOTE_OK : mote_lp_field_decode(f);
    if (e != MOTE_OK) return e;
    mote_view key;
    if ((e = text_of(ag, &f->key, &key)) != MOTE_OK) return e;
    double d;
    switch (f->type) {
    case MOTE_LP_FLOAT: d = f->value.f; break;
    case MOTE_LP_INT: d = (double)f->value.i; break;
    case MOTE_LP_UINT: d = (double)f->value.u; break;
    case MOTE_LP_BOOL: d = f->value.b ? 1.0 : 0.0; break;
    default: /* string */
        r->str_k[r->nstr] = key;
        if ((e = text_of(ag, &f->value.s, &r->str_v[r->nstr])) != MOTE_OK) return e;
        r->nstr++;
        return MOTE_OK;
    }
    r->num_k[r->nnum] = key;
    r->num_v[r->nnum++] = d;
    return MOTE_OK;
}

/* Gather a decoded point's names and values, unescaped, into r. */
static mote_err collect(agent *ag, mote_lp_point *pt, row *r)
{
    mote_arena *a = &ag->arena;
    size_t nt = pt->ntags, nf = pt->nfields;
    r->tag_k = mote_arena_alloc_array(a, nt ? nt : 1, 2 * sizeof(mote_view), _Alignof(mote_view));
    r->num_k = mote_arena_alloc_array(a, nf, 3 * sizeof(mote_view), _Alignof(mote_view));
    r->num_v = mote_arena_alloc_array(a, nf, sizeof(double), _Alignof(double));
    if (!r->tag_k || !r->num_k || !r->num_v) return MOTE_ERR_NOMEM;
    r->tag_v = r->tag_k + (nt ? nt : 1);
    r->str_k = r->num_k + nf;
    r->str_v = r->str_k + nf;
    r->ntags = r->nnum = r->nstr = 0;

    mote_err e = text_of(ag, &pt->measurement, &r->name);
    mote_lp_iter it;
    mote_lp_tag tag;
    mote_lp_field field;
    /* The first ARRAY_CAP tags and fields are in the point's arrays (fields
     * already typed); the iterators reach the rest. */
    if (nt <= pt->tags_cap) {
        for (size_t i = 0; e == MOTE_OK && i < nt; i++, r->ntags++)
            if ((e = text_of(ag, &pt->tags[i].key, &r->tag_k[i])) == MOTE_OK)
                e = text_of(ag, &pt->tags[i].value, &r->tag_v[i]);
    } else {
        for (mote_lp_tags_begin(pt, &it); e == MOTE_OK && mote_lp_tags_next(&it, &tag); r->ntags++)
            if ((e = text_of(ag, &tag.key, &r->tag_k[r->ntags])) == MOTE_OK)
                e = text_of(ag, &tag.value, &r->tag_v[r->ntags]);
    }
    if (nf <= pt->fields_cap) {
        for (size_t i = 0; e == MOTE_OK && i < nf; i++) e = add_field(ag, r, &pt->fields[i]);
    } else {
        for (mote_lp_fields_begin(pt, &it); e == MOTE_OK && mote_lp_fields_next(&it, &field);)
            e = add_field(ag, r, &field);
    }
    /* CQL timestamp: milliseconds since the epoch; floor, also before 1970. */
    int64_t t = pt->time;
    r->time_ms = t / 1000000 - (t % 1000000 < 0);
    return e;
}

/* Encode r's five cells, each as [bytes], into scratch; the row is out[0..len). */
static mote_err encode_row(agent *ag, const row *r, uint8_t **out, size_t *len)
{
    size_t sz[NCELLS], total = 0;
    mote_err e;
    sz[0] = r->name.len;
    sz[2] = 8;
    if ((e = mote_cql_map_size(MOTE_CQL_TEXT, r->tag_k, MOTE_CQL_TEXT, r->tag_v, r->ntags, &sz[1])) ||
        (e = mote_cql_map_size(MOTE_CQL_TEXT, r->num_k, MOTE_CQL_DOUBLE, r->num_v, r->nnum, &sz[3])) ||
        (e = mote_cql_map_size(MOTE_CQL_TEXT, r->str_k, MOTE_CQL_TEXT, r->str_v, r->nstr, &sz[4])))
        return e;
    for (int i = 0; i < NCELLS; i++) {
        if (sz[i] > MOTE_CQL_MAX_LEN || !mote_size_add(total, 4 + sz[i], &total)) return MOTE_ERR_OVERFLOW;
    }
    uint8_t *p = mote_arena_alloc_aligned(&ag->arena, total, 1);
    if (!p) return MOTE_ERR_NOMEM;
    *out = p;
    *len = total;
    for (int i = 0; i < NCELLS; i++) {
        mote_be_store32(p, (uint32_t)sz[i]);
        p += 4;
        switch (i) {
        case 0: if (sz[0]) memcpy(p, r->name.ptr, sz[0]); break;
        case 1: e = mote_cql_encode_map(MOTE_CQL_TEXT, r->tag_k, MOTE_CQL_TEXT, r->tag_v, r->ntags, p, sz[1], NULL); break;
        case 2: mote_be_store64(p, (uint64_t)r->time_ms); break;
        case 3: e = mote_cql_encode_map(MOTE_CQL_TEXT, r->num_k, MOTE_CQL_DOUBLE, r->num_v, r->nnum, p, sz[3], NULL); break;
        default: e = mote_cql_encode_map(MOTE_CQL_TEXT, r->str_k, MOTE_CQL_TEXT, r->str_v, r->nstr, p, sz[4], NULL); break;
        }
        if (e != MOTE_OK) return e;
        p += sz[i];
    }
    return MOTE_OK;
}

static int print_hex(const uint8_t *p, unsigned long long n)
{
    printf("row %llu:", n);
    for (int c = 0; c < NCELLS; c++) {
        size_t cl = mote_be_load32(p);
        p += 4;
        putchar(' ');
        for (size_t i = 0; i < cl; i++) printf("%02x", p[i]);
        if (!cl) printf("-");
        p += cl;
    }
    putchar('\n');
    return ferror(stdout) ? -1 : 0; /* errno holds the reason */
}

static void report(agent *ag, const char *what, uint64_t line, uint64_t column, mote_err code,
                   const char *msg)
{
    ag->bad++;
    fprintf(stderr, "lp_agent: %s line %llu, column %llu: %s: %s\n", what,
            (unsigned long long)line, (unsigned long long)column, mote_err_name(code), msg);
}

/* One point from the stream: decode, gather, encode, write. Scratch memory
 * is given back whatever happens. */
static int handle_point(agent *ag, mote_lp_point *pt)
{
    mote_lp_error err;
    mote_err e = mote_lp_point_decode(pt, &ag->opt, &err);
    if (e != MOTE_OK) {
        report(ag, "bad", err.pos.line, err.pos.column, e, err.message);
        return 0;
    }
    mote_arena_mark mark = mote_arena_save(&ag->arena);
    row r;
    uint8_t *bytes = NULL;
    size_t len = 0;
    e = collect(ag, pt, &r);
    if (e == MOTE_OK) e = encode_row(ag, &r, &bytes, &len);
    if (e != MOTE_OK) {
        report(ag, "cannot encode", pt->line, pt->column, e, mote_err_message(e));
    } else {
        ag->points++;
        ag->bytes_out += len;
        /* every write checked: a full disk or a closed pipe stops the agent
         * with exit 2 instead of dropping rows */
        if (ag->hex && print_hex(bytes, ag->points) != 0) {
            io_error("stdout", errno);
            e = MOTE_ERR_IO;
        } else if (ag->out && fwrite(bytes, 1, len, ag->out) != len) {
            io_error(ag->out_name, errno);
            e = MOTE_ERR_IO;
        }
    }
    mote_arena_restore(&ag->arena, mark);
    return e == MOTE_ERR_IO ? -1 : 0;
}

int main(int argc, char **argv)
{
    size_t arena_size = 256 * 1024, chunk_size = 16 * 1024;
    const char *in_path = "-", *out_path = NULL;
    agent ag;
    memset(&ag, 0, sizeof ag);
    mote_lp_options_init(&ag.opt);

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(NULL);
        if (!strcmp(a, "--hex")) { ag.hex = 1; continue; }
        if (!strcmp(a, "--arena") || !strcmp(a, "--chunk") || !strcmp(a, "--precision") ||
            !strcmp(a, "--out")) {
            if (!val) return usage("option needs a value");
            i++;
            if (!strcmp(a, "--out")) out_path = val;
            else if (!strcmp(a, "--precision")) {
                static const char *const names[] = {"ns", "us", "ms", "s"};
                int k = 0;
                while (k < 4 && strcmp(val, names[k])) k++;
                if (k == 4) return usage("--precision is ns, us, ms or s");
                ag.opt.precision = (mote_lp_precision)k;
            } else if (parse_size(val, a[2] == 'a' ? &arena_size : &chunk_size)) {
                return usage("--arena and --chunk need a positive number of bytes");
            }
            continue;
        }
        if (a[0] == '-' && a[1]) return usage("unknown option");
        in_path = a;
    }
    if (arena_size < 4096 || chunk_size > arena_size / 4)
        return usage("--arena must be at least 4096 bytes and four times --chunk");

    /* A closed stdout would be taken by the next open (the input, or the
     * --out file, which --hex would then write into): refuse it up front. */
    if ((ag.hex || (out_path && !strcmp(out_path, "-"))) && fcntl(1, F_GETFD) < 0)
        return io_error("stdout", errno);
    FILE *in = strcmp(in_path, "-") ? fopen(in_path, "rb") : stdin;
    if (!in) return io_error(in_path, errno);
    if (out_path) {
        ag.out = strcmp(out_path, "-") ? fopen(out_path, "wb") : stdout;
        ag.out_name = strcmp(out_path, "-") ? out_path : "stdout";
        if (!ag.out) return io_error(out_path, errno);
    }

    /* The one allocation: everything below is carved from this block. */
    void *block = malloc(arena_size);
    if (!block || mote_arena_init(&ag.arena, block, arena_size, NULL, NULL) != MOTE_OK) {
        fprintf(stderr, "lp_agent: cannot get %zu bytes\n", arena_size);
        return 2;
    }
    size_t carry_size = arena_size / 4, stdio_size = chunk_size;
    uint8_t *chunk = mote_arena_alloc_aligned(&ag.arena, chunk_size, 16);
    uint8_t *carry = mote_arena_alloc_aligned(&ag.arena, carry_size, 16);
    char *iobuf = mote_arena_alloc_aligned(&ag.arena, stdio_size, 16);
    mote_lp_stream st;
    if (!chunk || !carry || !iobuf || mote_lp_stream_init(&st, &ag.opt, carry, carry_size) != MOTE_OK) {
        fprintf(stderr, "lp_agent: arena too small\n");
        return 2;
    }
    /* stdio would malloc its own buffers on first use; give it ours (the
     * input needs none: fread fills our chunk directly). */
    setvbuf(in, NULL, _IONBF, 0);
    if (ag.out) setvbuf(ag.out, iobuf, _IOFBF, stdio_size);
    if (ag.hex && ag.out != stdout) {
        char *hexbuf = mote_arena_alloc_aligned(&ag.arena, 4096, 16);
        if (hexbuf) setvbuf(stdout, hexbuf, _IOLBF, 4096); /* rows in order with stderr */
    }

    mote_lp_tag tags[ARRAY_CAP];
    mote_lp_field fields[ARRAY_CAP];
    mote_lp_point pt;
    mote_lp_error err;
    int io_failed = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int eof = 0; !eof && !io_failed;) {
        errno = 0;
        size_t n = fread(chunk, 1, chunk_size, in);
        if (n == 0) {
            if (ferror(in)) { /* a directory, a closed descriptor: errno says */
                io_failed = io_error(strcmp(in_path, "-") ? in_path : "stdin", errno);
                break;
            }
            eof = 1;
            mote_lp_stream_finish(&st);
        } else {
            ag.bytes_in += n;
            mote_lp_stream_feed(&st, chunk, n);
        }
        for (;;) {
            mote_lp_point_init(&pt, tags, ARRAY_CAP, fields, ARRAY_CAP);
            mote_err e = mote_lp_stream_next(&st, &pt, &err);
            if (e == MOTE_ERR_NEED_MORE) break;
            if (e != MOTE_OK) report(&ag, "bad", err.pos.line, err.pos.column, e, err.message);
            else if (handle_point(&ag, &pt) < 0) { /* reported there */
                io_failed = 1;
                break;
            }
        }
    }
    /* the last buffer goes out here: a full disk shows up now or never */
    if (ag.out && ag.out != stdout) {
        errno = 0;
        if ((fflush(ag.out) != 0 || ferror(ag.out)) && !io_failed) io_failed = io_error(out_path, errno);
        if (fclose(ag.out) != 0 && !io_failed) io_failed = io_error(out_path, errno);
    }
    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && !io_failed) io_failed = io_error("stdout", errno);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

    mote_arena_stats as;
    mote_arena_get_stats(&ag.arena, &as);
    fprintf(stderr,
            "lp_agent: %llu points, %llu bad lines; %llu bytes in, %llu bytes out; "
            "%.3f s, %.1f MB/s; arena %zu bytes, high water %zu\n",
            ag.points, ag.bad, ag.bytes_in, ag.bytes_out, secs,
            secs > 0 ? (double)ag.bytes_in / secs / 1e6 : 0.0, as.capacity, as.high_water);
    if (in != stdin) fclose(in);
    /* stdout's buffer may live in the block: close it (checked) before the
     * block goes */
    errno = 0;
    if (fclose(stdout) != 0 && !io_failed) io_failed = io_error("stdout", errno);
    free(block);
    return io_failed ? 2 : ag.bad ? 1 : 0;
}
