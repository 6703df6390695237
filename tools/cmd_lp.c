/*
 * cmd_lp.c - 'mote lp dump' and 'mote lp check': decode line protocol from a
 * file or stdin through the streaming decoder, in chunks of --chunk bytes.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "tool.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mote/lp.h"
#include "mote/num.h"

static const char dump_usage[] =
    "usage: mote lp dump [--precision ns|us|ms|s] [--default-time NS] [--chunk BYTES]\n"
    "                    [--max-line BYTES] [FILE|-]\n"
    "Decode line protocol; print one JSON object per line for each point and each\n"
    "bad line, in input order. --chunk: read size (default 64K); --max-line:\n"
    "longest line kept (default 1M; longer ones are reported as TOO_LONG).\n"
    "Sizes take a binary suffix: 64K, 16M, 1G.\n"
    TOOL_EXIT_TABLE;
static const char check_usage[] =
    "usage: mote lp check [--precision ns|us|ms|s] [--chunk BYTES] [--max-line BYTES] [FILE|-]\n"
    "Summarise line protocol: lines, points, errors (the first with positions),\n"
    "distinct series and throughput. Series are counted exactly up to 131072;\n"
    "beyond, estimated (HyperLogLog, 256 KiB: 'series: ~N +/-0.6%'), so memory\n"
    "stays bounded. Sizes take a binary suffix: 64K, 16M, 1G.\n"
    TOOL_EXIT_TABLE;

/* Distinct series: counted exactly (a set of 64-bit hashes, at most 2 MiB)
 * up to SERIES_EXACT_MAX series; beyond, estimated by a HyperLogLog sketch of
 * 2^HLL_P one-byte registers (256 KiB) kept from the start, so memory stays
 * bounded whatever the number of series. Relative standard error
 * 1.04 / sqrt(2^HLL_P) = 0.2%; the summary prints three of them (0.6%). */
#define SERIES_EXACT_MAX ((size_t)1 << 17)
#define HLL_P 18

typedef struct lp_run {
    mote_lp_config opt;
    size_t chunk;
    size_t max_line;
    const char *path;
    bool check;
    bool help;         /* --help was printed: nothing else to do */
    /* scratch for unescaping: a view is never longer than a chunk or the carry */
    uint8_t *scratch;
    /* check mode */
    uint64_t points, errors, bytes, newlines;
    bool last_newline;
    uint64_t *series;  /* open-addressing set of 64-bit series hashes (0 = empty) */
    size_t series_cap, series_n;
    bool estimating;   /* over SERIES_EXACT_MAX: the set is gone, hll counts */
    uint8_t *hll;      /* 2^HLL_P HyperLogLog registers, fed from the start */
    uint8_t *key;      /* series key being built */
    size_t key_cap;
} lp_run;

static int parse_args(int argc, char **argv, lp_run *r, const char *usage)
{
    if (mote_lp_config_init(&r->opt) != MOTE_OK) return TOOL_IO; /* r is not NULL: cannot fail */
    r->chunk = 65536;
    r->max_line = 1 << 20;
    r->path = "-";
    const char *cmd = r->check ? "lp check" : "lp dump";
    bool have_path = false, options = true; /* options: until "--" */
    /* options and the file in any order, as 'mote sql split' takes them */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!options || a[0] != '-' || a[1] == 0) {
            if (have_path) return tool_usage_error("%s: more than one input file", cmd);
            r->path = a;
            have_path = true;
            continue;
        }
        if (!strcmp(a, "--")) {
            options = false;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            r->help = true;
            return TOOL_OK;
        }
        if (strcmp(a, "--precision") && strcmp(a, "--chunk") && strcmp(a, "--max-line") &&
            (strcmp(a, "--default-time") || r->check))
            return tool_usage_error("%s: unknown option '%s' (try 'mote %s --help')", cmd, a, cmd);
        if (i + 1 >= argc) return tool_usage_error("%s: %s needs a value", cmd, a);
        const char *v = argv[++i];
        if (!strcmp(a, "--precision")) {
            if (!strcmp(v, "ns")) r->opt.precision = MOTE_LP_NS;
            else if (!strcmp(v, "us")) r->opt.precision = MOTE_LP_US;
            else if (!strcmp(v, "ms")) r->opt.precision = MOTE_LP_MS;
            else if (!strcmp(v, "s")) r->opt.precision = MOTE_LP_S;
            else return tool_usage_error("%s: --precision must be ns, us, ms or s", cmd);
        } else if (!strcmp(a, "--default-time")) {
            if (tool_parse_i64(v, &r->opt.default_time) != 0)
                return tool_usage_error("%s: --default-time needs an integer (ns)", cmd);
        } else if (!strcmp(a, "--chunk")) {
            if (tool_parse_size(v, &r->chunk) != 0 || r->chunk == 0)
                return tool_usage_error("%s: --chunk needs a positive byte count", cmd);
        } else if (tool_parse_size(v, &r->max_line) != 0 || r->max_line == 0 || r->max_line > SIZE_MAX / 4) {
            return tool_usage_error("%s: --max-line needs a positive byte count", cmd);
        }
    }
    return TOOL_OK;
}

/* ---- dump: JSON through the tool's buffer (out.c), no stdio per field ----
 * A point is written at a pointer d into the buffer, o->len set once per
 * point: before each tag, field and frame piece one compare makes sure of
 * DUMP_ROOM bytes, and the piece's punctuation, short texts and numbers are
 * stored at d with fixed-size writes. A text's slow path (escapes, longer
 * than 32 bytes, too near the end of its line) goes through tool_buf_json
 * and makes DUMP_ROOM again after it. */

/* The most one piece writes with its texts on the short path: a string
 * field's ',["' key(32) '","string","' value(32) '"]', or a float field's
 * ',["' key(32) '","float",' number (MOTE_NUM_F64_MAX: fixed-size writes)
 * ']'; a tag's ',["' key(32) '","' value(32) '"]'. */
enum { DUMP_ROOM = 3 + TOOL_JSON_SHORT_ROOM + 11 + TOOL_JSON_SHORT_ROOM + 2 };
_Static_assert(DUMP_ROOM >= 3 + TOOL_JSON_SHORT_ROOM + 10 + MOTE_NUM_F64_MAX + 1, "float field");
_Static_assert(DUMP_ROOM >= 9 + 1 + TOOL_U64_ROOM + 2, "time");

/* What the writers of one point need, in dump_point's registers: every byte
 * stored through d may alias anything in memory, so what is read through o
 * or r after a store is read again; these values are read once. */
typedef struct dump_at {
    tool_buf *o;
    lp_run *r;
    const uint8_t *line_end; /* the end of pt->text, where every view lies */
    const uint8_t *lim;      /* o->p + TOOL_BUF_CAP - DUMP_ROOM (o->p never moves) */
} dump_at;

static MOTE_NOINLINE uint8_t *dump_flush(tool_buf *o, uint8_t *d)
{
    o->len = (size_t)(d - o->p);
    tool_buf_flush(o);
    return o->p;
}

/* d, or the buffer's start once what is before d is written out: DUMP_ROOM
 * bytes at the result. */
static MOTE_ALWAYS_INLINE uint8_t *dump_room(const dump_at *c, uint8_t *d)
{
    return MOTE_LIKELY(d <= c->lim) ? d : dump_flush(c->o, d);
}

/* A view's real bytes as a JSON string without its quotes at d, the slow
 * way (see put_text): unescaped into the scratch first when it holds
 * escapes (tested and copied there by tool_json_short: the scratch is
 * longer than any view by 16 bytes and more), else tool_buf_json, after
 * which DUMP_ROOM is made again. As UTF-8 text, as a JSON reader expects:
 * the grammar lets only valid UTF-8 into a name or string, and unescaping
 * takes out ASCII backslashes only. */
static MOTE_NOINLINE uint8_t *put_text_slow(tool_buf *o, lp_run *r, uint8_t *d, const mote_lp_text *t)
{
    const uint8_t *p = t->ptr;
    size_t n = t->len;
    if (t->escaped) {
        if (mote_lp_unescape(t, r->scratch, t->len, &n) != MOTE_OK) n = 0;
        p = r->scratch;
        uint8_t *e = tool_json_short(d, p, n);
        if (e) return e;
    }
    o->len = (size_t)(d - o->p);
    tool_buf_json(o, p, n, TOOL_JSON_UTF8);
    return tool_buf_room(o, DUMP_ROOM);
}

/* A view of the point as above at d (room for TOOL_JSON_SHORT_ROOM made);
 * returns the end, with at least the room that was left after the text. A
 * view without escapes is tested and copied by tool_json_short straight from
 * the line when 16 bytes from its start lie in it, which is nearly all of
 * them. clean (a constant at each call): the view is a tag's, and tags_clean
 * has tested the whole section for it, so up to 16 bytes are copied with no
 * test at all. */
static MOTE_ALWAYS_INLINE uint8_t *put_text(const dump_at *c, uint8_t *d, const mote_lp_text *t, bool clean)
{
    if (clean && t->len <= 16) {
        tool_v16_store(d, tool_v16_load(t->ptr));
        return d + t->len;
    }
    if (MOTE_LIKELY(!t->escaped && c->line_end - t->ptr >= 16)) {
        uint8_t *e = tool_json_short(d, t->ptr, t->len);
        if (MOTE_LIKELY(e != NULL)) return e;
    }
    return put_text_slow(c->o, c->r, d, t);
}

/* Room, and ',' before every tag or field but the first (a store and an
 * add), and '["'. */
static MOTE_ALWAYS_INLINE uint8_t *put_open(const dump_at *c, uint8_t *d, bool first)
{
    d = dump_room(c, d);
    *d = ',';
    d += !first;
    return TOOL_PUT_LIT(d, "[\"");
}

static MOTE_ALWAYS_INLINE uint8_t *put_tag(const dump_at *c, uint8_t *d, const mote_lp_tag *tag, bool first,
                                           bool clean)
{
    d = put_text(c, put_open(c, d, first), &tag->key, clean);
    d = put_text(c, TOOL_PUT_LIT_W(d, "\",\""), &tag->value, clean);
    return TOOL_PUT_LIT(d, "\"]");
}

/* A field whose value is decoded; "string" values through put_text. */
static MOTE_ALWAYS_INLINE uint8_t *put_field(const dump_at *c, uint8_t *d, const mote_lp_field *f, bool first)
{
    d = put_text(c, put_open(c, d, first), &f->key, false);
    switch (f->type) {
    case MOTE_LP_FLOAT:
        d = TOOL_PUT_LIT(d, "\",\"float\",");
        size_t n; /* lp has no NaN or infinity: a failure cannot happen, and writes nothing */
        if (mote_num_format_f64(f->value.f, (char *)d, MOTE_NUM_F64_MAX, &n) != MOTE_OK) n = 0;
        d += n;
        break;
    case MOTE_LP_INT:
        d = tool_put_i64(TOOL_PUT_LIT_W(d, "\",\"int\","), f->value.i);
        break;
    case MOTE_LP_UINT:
        d = tool_put_u64(TOOL_PUT_LIT(d, "\",\"uint\","), f->value.u);
        break;
    case MOTE_LP_BOOL:
        d = f->value.b ? TOOL_PUT_LIT(d, "\",\"bool\",true") : TOOL_PUT_LIT(d, "\",\"bool\",false");
        break;
    default:
        d = put_text(c, TOOL_PUT_LIT(d, "\",\"string\",\""), &f->value.s, false);
        *d++ = '"';
        break;
    }
    *d++ = ']';
    return d;
}

/* The tag section holds no byte that JSON escapes (and so no backslash: no
 * view in it is escaped), and 16 bytes from any point in it lie in the line.
 * One pass of 16-byte tests over the section (~150 bytes of a TSBS line, ten
 * tags) costs less than the two per-view tests and the escape flags of each
 * of its tags; a line with an escape or a quote among its tags takes
 * put_text's usual path. */
static MOTE_ALWAYS_INLINE bool tags_clean(const mote_lp_point *pt, const uint8_t *line_end)
{
    const uint8_t *p = pt->tag_section.ptr;
    size_t n = pt->tag_section.len;
    if ((size_t)(line_end - p) < n + 16) return false;
    for (; n > 16; p += 16, n -= 16)
        if (tool_json_hits_v16(tool_v16_load(p))) return false;
    return !(tool_json_hits_v16(tool_v16_load(p)) & ((1u << n) - 1));
}

static void dump_point(tool_buf *o, lp_run *r, mote_lp_point *pt)
{
    const dump_at c = {o, r, pt->text.ptr + pt->text.len, o->p + (TOOL_BUF_CAP - DUMP_ROOM)};
    uint8_t *d = dump_room(&c, o->p + o->len);
    d = put_text(&c, TOOL_PUT_LIT(d, "{\"name\":\""), &pt->measurement, false);
    d = TOOL_PUT_LIT(d, "\",\"tags\":[");
    /* the point's arrays when they hold every tag / field (decoded by
     * mote_lp_point_decode), else the iterators over all of them; the
     * arrays' bounds in locals, not read from pt after every store (run's
     * arrays: never NULL) */
    mote_lp_iter it;
    if (pt->ntags <= pt->tags_cap) {
        const mote_lp_tag *const tags = pt->tags, *const tend = tags + pt->ntags;
        if (pt->ntags && tags_clean(pt, c.line_end)) {
            for (const mote_lp_tag *t = tags; t != tend; t++) d = put_tag(&c, d, t, t == tags, true);
        } else {
            for (const mote_lp_tag *t = tags; t != tend; t++) d = put_tag(&c, d, t, t == tags, false);
        }
    } else {
        mote_lp_tag tag;
        mote_lp_tags_begin(pt, &it);
        for (bool first = true; mote_lp_tags_next(&it, &tag); first = false) d = put_tag(&c, d, &tag, first, false);
    }
    d = dump_room(&c, d);
    d = TOOL_PUT_LIT(d, "],\"fields\":[");
    if (pt->nfields <= pt->fields_cap) {
        bool first = true;
        mote_lp_field *const fields = pt->fields, *const fend = fields + pt->nfields;
        for (mote_lp_field *f = fields; f != fend; f++) {
            /* decoded with the point: the check cannot fail */
            if (!f->decoded && mote_lp_field_decode(f) != MOTE_OK) continue;
            d = put_field(&c, d, f, first);
            first = false;
        }
    } else {
        mote_lp_field f;
        bool first = true;
        mote_lp_fields_begin(pt, &it);
        while (mote_lp_fields_next(&it, &f)) {
            if (mote_lp_field_decode(&f) != MOTE_OK) continue; /* cannot fail: the point decoded */
            d = put_field(&c, d, &f, first);
            first = false;
        }
    }
    /* '],"time":' (9 bytes), a sign and a number's room, '}\n' */
    d = dump_room(&c, d);
    d = tool_put_i64(TOOL_PUT_LIT(d, "],\"time\":"), pt->time);
    d = TOOL_PUT_LIT(d, "}\n");
    o->len = (size_t)(d - o->p);
}


/* FNV-1a over the series key bytes. */
static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h ? h : 1;
}

/* HyperLogLog register update: the top HLL_P bits choose the register, the
 * rest give the rank (position of the first 1-bit, 1..64-HLL_P+1). */
static void hll_add(lp_run *r, uint64_t h)
{
    size_t j = (size_t)(h >> (64 - HLL_P));
    uint64_t w = h << HLL_P;
    uint8_t rank = 1;
    while (rank <= 64 - HLL_P && !(w & ((uint64_t)1 << 63))) {
        w <<= 1;
        rank++;
    }
    if (rank > r->hll[j]) r->hll[j] = rank;
}

/* Ertl's improved estimator ("New cardinality estimation algorithms for
 * HyperLogLog sketches", 2017): from the histogram of register values,
 * without empirical bias tables, nearly unbiased from 0 to far beyond 2^64
 * / 2^HLL_P. */
static double hll_sigma(double x)
{
    if (x == 1) return INFINITY;
    double y = 1, z = x, old;
    do {
        x *= x;
        old = z;
        z += x * y;
        y += y;
    } while (z != old);
    return z;
}

static double hll_tau(double x)
{
    if (x == 0 || x == 1) return 0;
    double y = 1, z = 1 - x, old;
    do {
        x = sqrt(x);
        old = z;
        y *= 0.5;
        z -= (1 - x) * (1 - x) * y;
    } while (z != old);
    return z / 3;
}

static double hll_estimate(const lp_run *r)
{
    enum { Q = 64 - HLL_P };
    double m = (double)(1 << HLL_P), c[Q + 2] = {0};
    for (size_t j = 0; j < (size_t)1 << HLL_P; j++) c[r->hll[j]]++;
    double z = m * hll_tau(1 - c[Q + 1] / m);
    for (int k = Q; k >= 1; k--) z = 0.5 * (z + c[k]);
    z += m * hll_sigma(c[0] / m);
    return m * m / (2 * log(2)) / z;
}

/* A 64-bit finaliser (MurmurHash3's fmix64 constants) over FNV-1a: FNV's
 * high bits mix poorly, and the sketch reads them first. */
static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h ? h : 1;
}

static int series_add(lp_run *r, uint64_t h)
{
    h = mix64(h);
    hll_add(r, h);
    if (r->estimating) return 0;
    if (r->series_n >= SERIES_EXACT_MAX) { /* from here on: the estimate */
        free(r->series);
        r->series = NULL;
        r->estimating = true;
        return 0;
    }
    if (r->series_n * 2 >= r->series_cap) {
        size_t cap = r->series_cap ? r->series_cap * 2 : 1024;
        uint64_t *s = calloc(cap, sizeof *s);
        if (!s) return -1;
        for (size_t i = 0; i < r->series_cap; i++) {
            if (!r->series[i]) continue;
            size_t j = (size_t)(r->series[i] & (cap - 1));
            while (s[j]) j = (j + 1) & (cap - 1);
            s[j] = r->series[i];
        }
        free(r->series);
        r->series = s;
        r->series_cap = cap;
    }
    size_t j = (size_t)(h & (r->series_cap - 1));
    while (r->series[j]) {
        if (r->series[j] == h) return 0;
        j = (j + 1) & (r->series_cap - 1);
    }
    r->series[j] = h;
    r->series_n++;
    return 0;
}

typedef struct tagspan {
    size_t off, klen, vlen;
} tagspan;

static const uint8_t *g_key;

static int cmp_tag(const void *a, const void *b)
{
    const tagspan *x = a, *y = b;
    size_t n = x->klen < y->klen ? x->klen : y->klen;
    int c = memcmp(g_key + x->off, g_key + y->off, n);
    if (c) return c;
    return x->klen < y->klen ? -1 : x->klen > y->klen;
}

/* Series = measurement and the tag set sorted by key, all unescaped. */
static int count_series(lp_run *r, const mote_lp_point *pt)
{
    size_t need = pt->measurement.len + pt->tag_section.len + 2 * pt->ntags + 1;
    size_t tneed = (pt->ntags + 1) * sizeof(tagspan);
    /* tag spans live after the text, aligned */
    size_t toff = (need + 15) & ~(size_t)15;
    if (toff + tneed > r->key_cap) {
        free(r->key);
        r->key_cap = 2 * (toff + tneed);
        r->key = malloc(r->key_cap);
        if (!r->key) return -1;
    }
    tagspan *spans = (tagspan *)(void *)(r->key + toff);
    size_t len = 0, n = 0;
    mote_lp_iter it;
    mote_lp_tag tag;
    mote_lp_tags_begin(pt, &it);
    while (mote_lp_tags_next(&it, &tag)) {
        size_t kl = 0, vl = 0;
        /* the room is each view's length: unescaping never grows a text */
        if (mote_lp_unescape(&tag.key, r->key + len, tag.key.len, &kl) != MOTE_OK ||
            mote_lp_unescape(&tag.value, r->key + len + kl, tag.value.len, &vl) != MOTE_OK)
            return -1;
        spans[n].off = len;
        spans[n].klen = kl;
        spans[n].vlen = vl;
        len += kl + vl;
        n++;
    }
    g_key = r->key;
    qsort(spans, n, sizeof *spans, cmp_tag);
    uint8_t *out = r->scratch;
    size_t m = 0;
    if (mote_lp_unescape(&pt->measurement, out, pt->measurement.len, &m) != MOTE_OK) return -1;
    size_t o = m;
    for (size_t i = 0; i < n; i++) {
        out[o++] = ',';
        memcpy(out + o, r->key + spans[i].off, spans[i].klen + spans[i].vlen);
        o += spans[i].klen + spans[i].vlen;
        out[o++] = (uint8_t)spans[i].klen; /* separates key from value in the hash */
    }
    return series_add(r, hash_bytes(out, o));
}

static int run(lp_run *r)
{
    FILE *in = tool_open_input(r->path);
    if (!in) return TOOL_USAGE; /* a missing file is a usage error: one line, exit 2 */
    size_t carry_cap = r->max_line + 1;
    uint8_t *chunk = malloc(r->chunk);
    uint8_t *carry = malloc(carry_cap);
    /* scratch holds any unescaped view (never longer than the chunk or the
     * carry) and, in check mode, a series key (at most a line plus a
     * separator byte per tag). */
    size_t scap = (r->chunk > carry_cap ? r->chunk : carry_cap) * 2 + 16;
    r->scratch = malloc(scap);
    if (r->check) r->hll = calloc((size_t)1 << HLL_P, 1);
    int status = TOOL_OK;
    mote_lp_stream s;
    tool_buf out = {0}; /* dump's output; check prints its few lines with stdio */
    if (!chunk || !carry || !r->scratch || (r->check && !r->hll) ||
        (!r->check && tool_buf_open(&out, stdout) != 0)) {
        fputs("mote: out of memory\n", stderr);
        status = TOOL_IO;
    } else if (mote_lp_stream_init(&s, &r->opt, carry, carry_cap) != MOTE_OK) {
        status = tool_usage_error("bad options");
    }
    if (status != TOOL_OK) goto done;
    mote_lp_tag tags[32];
    mote_lp_field fields[32];
    bool eof = false, failed = false;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const unsigned max_shown = 10;
    for (;;) {
        mote_lp_point pt;
        mote_lp_error err;
        mote_err rc = mote_lp_point_init(&pt, tags, 32, fields, 32); /* arrays given: cannot fail */
        if (rc == MOTE_OK) rc = mote_lp_stream_next(&s, &pt, &err);
        if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, &r->opt, &err);
        if (rc == MOTE_ERR_NEED_MORE) {
            if (eof) break;
            size_t n = tool_read(in, r->path, chunk, r->chunk, &failed);
            if (failed) {
                /* unreadable input (a directory, a closed descriptor) is an
                 * I/O error, not a bad line, and gets no summary: a summary
                 * of nothing would read as an empty input */
                status = TOOL_IO;
                goto done;
            }
            if (n == 0) {
                if (mote_lp_stream_finish(&s) != MOTE_OK) { /* drained: cannot fail */
                    status = TOOL_IO;
                    goto done;
                }
                eof = true;
                continue;
            }
            r->bytes += n;
            if (r->check) {
                for (const uint8_t *p = chunk, *e = chunk + n; (p = memchr(p, '\n', (size_t)(e - p)));) {
                    r->newlines++;
                    p++;
                }
                r->last_newline = chunk[n - 1] == '\n';
            }
            if (mote_lp_stream_feed(&s, chunk, n) != MOTE_OK) { /* drained: cannot fail */
                status = TOOL_IO;
                goto done;
            }
            continue;
        }
        if (rc == MOTE_OK) {
            r->points++;
            if (!r->check) dump_point(&out, r, &pt);
            else if (count_series(r, &pt) != 0) {
                fputs("mote: out of memory\n", stderr);
                status = TOOL_IO;
                goto done;
            }
        } else {
            status = TOOL_DATA_ERROR;
            r->errors++;
            if (!r->check) {
                tool_buf_error(&out, mote_err_name(err.code), err.message, err.pos.line, "column",
                               err.pos.column);
            } else if (r->errors <= max_shown) {
                printf("error: line %" PRIu64 ", column %" PRIu64 " (offset %" PRIu64 "): %s: %s\n",
                       err.pos.line, err.pos.column, err.pos.offset, mote_err_name(err.code),
                       err.message);
            }
        }
        /* a failed write stops the work: the rest would be lost as well */
        if (r->check ? tool_out_ok(stdout, "stdout") != 0 : out.failed) {
            status = TOOL_IO;
            goto done;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (r->check) {
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        uint64_t lines = r->newlines + (r->bytes > 0 && !r->last_newline ? 1 : 0);
        if (r->errors > max_shown) printf("error: ... %" PRIu64 " more\n", r->errors - max_shown);
        printf("lines: %" PRIu64 "\n", lines);
        printf("points: %" PRIu64 "\n", r->points);
        printf("errors: %" PRIu64 "\n", r->errors);
        if (!r->estimating) {
            printf("series: %zu\n", r->series_n);
        } else {
            /* "~N +/-E%": machine-readable for tests and scripts */
            printf("series: ~%.0f +/-%.1f%% (estimated beyond %zu series: HyperLogLog of "
                   "%d registers, three standard errors)\n",
                   hll_estimate(r), 300 * 1.04 / sqrt((double)(1 << HLL_P)), SERIES_EXACT_MAX,
                   1 << HLL_P);
        }
        printf("bytes: %" PRIu64 "\n", r->bytes);
        printf("throughput: %.1f MB/s (%.3f s)\n", secs > 0 ? (double)r->bytes / secs / 1e6 : 0.0,
               secs);
    }
done:
    /* what is buffered goes out whatever stopped the work; a failed write
     * (here or before) is reported once and exits 2 */
    if (out.p && tool_buf_close(&out, "stdout")) status = TOOL_IO;
    if (in != stdin) fclose(in);
    free(chunk);
    free(carry);
    free(r->scratch);
    free(r->series);
    free(r->hll);
    free(r->key);
    return status;
}

int tool_cmd_lp(int argc, char **argv)
{
    if (argc < 2) {
        fputs(dump_usage, stderr);
        fputs(check_usage, stderr);
        return TOOL_USAGE;
    }
    lp_run r;
    memset(&r, 0, sizeof r);
    const char *usage;
    if (!strcmp(argv[1], "dump")) {
        usage = dump_usage;
    } else if (!strcmp(argv[1], "check")) {
        usage = check_usage;
        r.check = true;
    } else if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(dump_usage, stdout);
        fputs(check_usage, stdout);
        return TOOL_OK;
    } else {
        return tool_usage_error("unknown lp command '%s' (dump or check)", argv[1]);
    }
    int rc = parse_args(argc - 1, argv + 1, &r, usage);
    if (rc != TOOL_OK || r.help) return rc;
    return run(&r);
}
