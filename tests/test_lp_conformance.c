/*
 * test_lp_conformance.c - every decode and encode case of the reference
 * corpus (tests/data/lp/corpus.txt, converted from influxdata/line-protocol's
 * corpus.json by tests/gen/lp_corpus.py) against mote's decoder and writer.
 *
 * A case passes when mote gives the reference result: the same points (tags
 * compared sorted by key, a duplicate tag key rejecting the input, as the
 * reference harness does), or at least one bad line where the reference
 * rejects the input. The deliberate deviations are listed in
 * tests/data/lp/deviations.txt (reasons in docs/lp.md); each must deviate in
 * exactly the listed way, and a listed case that passes fails the test (so the
 * list stays exact). Every decode case is also run through the streaming
 * decoder in 1-byte and 7-byte chunks, which must give the same result.
 *
 * The same is done for tests/data/lp/reference_cases.txt, cases the
 * reference Go decoder and encoder judged themselves on inputs the corpus
 * does not hold (tests/gen/lp_reference_go). Its "lines" cases hold bad
 * lines among good ones and list the good lines' points: mote must give
 * exactly those, whatever its errors.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mote/lp.h"
#include "test_data.h"

/* ---- a tiny owned-bytes type and the corpus reader ---------------------- */

typedef struct bytes {
    uint8_t *p;
    size_t n;
} bytes;

static bytes bdup(const void *p, size_t n)
{
    bytes b;
    assert_true(n < ((size_t)1 << 30));
    b.p = malloc(n + 1);
    assert_non_null(b.p);
    if (n) memcpy(b.p, p, n);
    b.n = n;
    return b;
}

static bool beq(bytes a, bytes b)
{
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static int bcmp_(bytes a, bytes b)
{
    size_t n = a.n < b.n ? a.n : b.n;
    int c = n ? memcmp(a.p, b.p, n) : 0;
    if (c) return c;
    return a.n < b.n ? -1 : a.n > b.n;
}

typedef struct tfield {
    bytes key;
    int type;
    uint64_t bits; /* float bits, int, uint, bool */
    bytes s;
} tfield;

typedef struct tpoint {
    bytes name;
    size_t ntags, nfields;
    bytes tk[64], tv[64];
    tfield f[64];
    int64_t time;
} tpoint;

typedef struct result {
    bool error;
    int code;       /* our first error code */
    size_t n;
    tpoint *pts;
} result;

static void result_free(result *r)
{
    for (size_t i = 0; i < r->n; i++) {
        tpoint *p = &r->pts[i];
        free(p->name.p);
        for (size_t k = 0; k < p->ntags; k++) {
            free(p->tk[k].p);
            free(p->tv[k].p);
        }
        for (size_t k = 0; k < p->nfields; k++) {
            free(p->f[k].key.p);
            free(p->f[k].s.p);
        }
    }
    free(r->pts);
    memset(r, 0, sizeof *r);
}

static tpoint *result_add(result *r)
{
    r->pts = realloc(r->pts, (r->n + 1) * sizeof *r->pts);
    assert_non_null(r->pts);
    tpoint *p = &r->pts[r->n++];
    memset(p, 0, sizeof *p);
    return p;
}

/* Decode a STR token ('... with %HH) */
static bytes unpct(const char *t)
{
    assert_true(t[0] == '\'');
    t++;
    size_t n = strlen(t);
    uint8_t *out = malloc(n + 1);
    assert_non_null(out);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '%') {
            unsigned v;
            assert_int_equal(sscanf(t + i + 1, "%2X", &v), 1);
            out[k++] = (uint8_t)v;
            i += 2;
        } else {
            out[k++] = (uint8_t)t[i];
        }
    }
    bytes b = {out, k};
    return b;
}

static int type_of(const char *s)
{
    if (!strcmp(s, "float")) return MOTE_LP_FLOAT;
    if (!strcmp(s, "int")) return MOTE_LP_INT;
    if (!strcmp(s, "uint")) return MOTE_LP_UINT;
    if (!strcmp(s, "bool")) return MOTE_LP_BOOL;
    if (!strcmp(s, "string")) return MOTE_LP_STRING;
    fail_msg("bad type %s", s);
    return 0;
}

typedef struct tcase {
    bool encode;
    bool lines;        /* decode: want holds the good lines' points only */
    char key[40];
    mote_lp_precision prec;
    int64_t default_time;
    bytes input;       /* decode */
    result want;       /* decode: expected; encode: the point (want.pts[0]) */
    bytes output;      /* encode */
    bool want_error;   /* encode */
} tcase;

static char *read_file(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "lp/%s", name);
    FILE *f = test_data_open(path, "rb");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static mote_lp_precision prec_of(const char *s)
{
    if (!strcmp(s, "ns")) return MOTE_LP_NS;
    if (!strcmp(s, "us")) return MOTE_LP_US;
    if (!strcmp(s, "ms")) return MOTE_LP_MS;
    if (!strcmp(s, "s")) return MOTE_LP_S;
    fail_msg("bad precision %s", s);
    return MOTE_LP_NS;
}

static tcase *load_corpus(const char *name, size_t *ncases)
{
    size_t len;
    char *text = read_file(name, &len);
    tcase *cases = NULL;
    size_t n = 0;
    tcase *c = NULL;
    tpoint *p = NULL;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#') continue;
        char *w[4] = {0};
        char *s2 = NULL;
        int nw = 0;
        for (char *tok = strtok_r(line, " ", &s2); tok && nw < 4; tok = strtok_r(NULL, " ", &s2)) {
            w[nw++] = tok;
        }
        if (!strcmp(w[0], "decode") || !strcmp(w[0], "encode") || !strcmp(w[0], "lines")) {
            if ((n & (n - 1)) == 0) { /* n a power of two or 0: double (ASan's realloc copies) */
                cases = realloc(cases, (n ? 2 * n : 1) * sizeof *cases);
                assert_non_null(cases);
            }
            c = &cases[n++];
            memset(c, 0, sizeof *c);
            c->encode = w[0][0] == 'e';
            c->lines = w[0][0] == 'l';
            snprintf(c->key, sizeof c->key, "%s", w[1]);
            c->prec = prec_of(w[2]);
            c->default_time = w[3] ? strtoll(w[3], NULL, 10) : 0;
        } else if (!strcmp(w[0], "input")) {
            c->input = unpct(w[1]);
        } else if (!strcmp(w[0], "error")) {
            c->want.error = true;
            c->want_error = true;
        } else if (!strcmp(w[0], "points")) {
            c->want.error = false;
        } else if (!strcmp(w[0], "point")) {
            p = result_add(&c->want);
            p->name = unpct(w[1]);
        } else if (!strcmp(w[0], "tag")) {
            assert_true(p->ntags < 64);
            p->tk[p->ntags] = unpct(w[1]);
            p->tv[p->ntags++] = unpct(w[2]);
        } else if (!strcmp(w[0], "field")) {
            assert_true(p->nfields < 64);
            tfield *f = &p->f[p->nfields++];
            f->key = unpct(w[1]);
            f->type = type_of(w[2]);
            switch (f->type) {
            case MOTE_LP_FLOAT: f->bits = strtoull(w[3], NULL, 16); break;
            case MOTE_LP_INT: f->bits = (uint64_t)strtoll(w[3], NULL, 10); break;
            case MOTE_LP_UINT: f->bits = strtoull(w[3], NULL, 10); break;
            case MOTE_LP_BOOL: f->bits = !strcmp(w[3], "true"); break;
            default: f->s = unpct(w[3]); break;
            }
        } else if (!strcmp(w[0], "time")) {
            p->time = strtoll(w[1], NULL, 10);
        } else if (!strcmp(w[0], "output")) {
            c->output = unpct(w[1]);
        } else if (!strcmp(w[0], "end")) {
            c = NULL;
            p = NULL;
        } else {
            fail_msg("bad corpus line %s", w[0]);
        }
    }
    free(text);
    *ncases = n;
    return cases;
}

/* ---- running mote on a case --------------------------------------------- */

static bytes unesc(const mote_lp_text *t)
{
    uint8_t *buf = malloc(t->len ? t->len : 1);
    assert_non_null(buf);
    size_t n = 0;
    assert_int_equal(mote_lp_unescape(t, buf, t->len, &n), MOTE_OK);
    assert_true(n <= t->len);
    bytes b = {buf, n};
    return b;
}

static void add_point(result *r, const mote_lp_point *pt)
{
    tpoint *p = result_add(r);
    p->name = unesc(&pt->measurement);
    mote_lp_iter it;
    mote_lp_tag tag;
    mote_lp_tags_begin(pt, &it);
    while (mote_lp_tags_next(&it, &tag)) {
        assert_true(p->ntags < 64);
        p->tk[p->ntags] = unesc(&tag.key);
        p->tv[p->ntags++] = unesc(&tag.value);
    }
    assert_int_equal(p->ntags, pt->ntags);
    mote_lp_field fl;
    mote_lp_fields_begin(pt, &it);
    while (mote_lp_fields_next(&it, &fl)) {
        assert_true(p->nfields < 64);
        tfield *f = &p->f[p->nfields++];
        assert_int_equal(mote_lp_field_decode(&fl), MOTE_OK);
        f->key = unesc(&fl.key);
        f->type = fl.type;
        switch (fl.type) {
        case MOTE_LP_FLOAT: memcpy(&f->bits, &fl.value.f, 8); break;
        case MOTE_LP_INT: f->bits = (uint64_t)fl.value.i; break;
        case MOTE_LP_UINT: f->bits = fl.value.u; break;
        case MOTE_LP_BOOL: f->bits = fl.value.b; break;
        default: f->s = unesc(&fl.value.s); break;
        }
    }
    assert_int_equal(p->nfields, pt->nfields);
    p->time = pt->time;
    /* The reference harness sorts tags and rejects duplicate keys. */
    for (size_t i = 1; i < p->ntags; i++) {
        for (size_t j = i; j > 0 && bcmp_(p->tk[j - 1], p->tk[j]) > 0; j--) {
            bytes t = p->tk[j]; p->tk[j] = p->tk[j - 1]; p->tk[j - 1] = t;
            t = p->tv[j]; p->tv[j] = p->tv[j - 1]; p->tv[j - 1] = t;
        }
    }
    for (size_t i = 1; i < p->ntags; i++) {
        if (beq(p->tk[i - 1], p->tk[i]) && !r->error) {
            r->error = true;
            r->code = -1; /* duplicate tag key (harness rule) */
        }
    }
}

/* Whole-input decode (chunk == 0) or streaming in chunks of that size. */
static void run_decode(const tcase *c, size_t chunk, result *r)
{
    memset(r, 0, sizeof *r);
    mote_lp_config opt;
    assert_int_equal(mote_lp_config_init(&opt), MOTE_OK);
    opt.precision = c->prec;
    opt.default_time = c->default_time;
    mote_lp_tag tags[4];
    mote_lp_field fields[4];
    mote_lp_point pt;
    mote_lp_error err;
    mote_err rc;
    if (chunk == 0) {
        mote_lp_decoder d;
        assert_int_equal(mote_lp_decoder_init(&d, c->input.p, c->input.n, &opt), MOTE_OK);
        for (;;) {
            assert_int_equal(mote_lp_point_init(&pt, tags, 4, fields, 4), MOTE_OK);
            rc = mote_lp_next(&d, &pt, &err);
            if (rc == MOTE_ERR_NEED_MORE) break;
            if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, &opt, &err);
            if (rc == MOTE_OK) {
                add_point(r, &pt);
            } else if (!r->error) {
                r->error = true;
                r->code = rc;
            }
        }
        return;
    }
    static uint8_t carry[1 << 16];
    mote_lp_stream s;
    assert_int_equal(mote_lp_stream_init(&s, &opt, carry, sizeof carry), MOTE_OK);
    size_t off = 0;
    bool fed_all = false;
    for (;;) {
        assert_int_equal(mote_lp_point_init(&pt, tags, 4, fields, 4), MOTE_OK);
        rc = mote_lp_stream_next(&s, &pt, &err);
        if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, &opt, &err);
        if (rc == MOTE_ERR_NEED_MORE) {
            if (fed_all) break;
            if (off == c->input.n) {
                assert_int_equal(mote_lp_stream_finish(&s), MOTE_OK);
                fed_all = true;
                continue;
            }
            size_t k = c->input.n - off < chunk ? c->input.n - off : chunk;
            assert_int_equal(mote_lp_stream_feed(&s, c->input.p + off, k), MOTE_OK);
            off += k;
            continue;
        }
        if (rc == MOTE_OK) {
            add_point(r, &pt);
        } else if (!r->error) {
            r->error = true;
            r->code = rc;
        }
    }
}

static bool point_eq(const tpoint *a, const tpoint *b)
{
    if (!beq(a->name, b->name) || a->ntags != b->ntags || a->nfields != b->nfields ||
        a->time != b->time) {
        return false;
    }
    for (size_t i = 0; i < a->ntags; i++) {
        if (!beq(a->tk[i], b->tk[i]) || !beq(a->tv[i], b->tv[i])) return false;
    }
    for (size_t i = 0; i < a->nfields; i++) {
        const tfield *x = &a->f[i], *y = &b->f[i];
        if (!beq(x->key, y->key) || x->type != y->type) return false;
        if (x->type == MOTE_LP_STRING) {
            if (!beq(x->s, y->s)) return false;
        } else if (x->type == MOTE_LP_FLOAT) {
            /* Compared as numbers, as the reference harness does: the
             * corpus writes -0 (from "-0." and "-0e-4") as 0. */
            double dx, dy;
            memcpy(&dx, &x->bits, 8);
            memcpy(&dy, &y->bits, 8);
            if (dx != dy) return false;
        } else if (x->bits != y->bits) {
            return false;
        }
    }
    return true;
}

static bool result_eq(const result *a, const result *b)
{
    if (a->error || b->error) return a->error == b->error;
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++) {
        if (!point_eq(&a->pts[i], &b->pts[i])) return false;
    }
    return true;
}

/* Our points and errors must not depend on the chunking. */
static bool result_same(const result *a, const result *b)
{
    if (a->error != b->error || (a->error && a->code != b->code) || a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++) {
        if (!point_eq(&a->pts[i], &b->pts[i])) return false;
    }
    return true;
}

/* The same points, whatever the errors (a "lines" case: the good lines'). */
static bool points_eq(const result *a, const result *b)
{
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++) {
        if (!point_eq(&a->pts[i], &b->pts[i])) return false;
    }
    return true;
}

static bool run_encode(const tcase *c, bytes *out, mote_err *rc_out)
{
    static uint8_t buf[1 << 16];
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init(&w, buf, sizeof buf, c->prec), MOTE_OK);
    const tpoint *p = &c->want.pts[0];
    mote_err rc = mote_lp_write_measurement(&w, p->name.p, p->name.n);
    for (size_t i = 0; i < p->ntags && rc == MOTE_OK; i++) {
        rc = mote_lp_write_tag(&w, p->tk[i].p, p->tk[i].n, p->tv[i].p, p->tv[i].n);
    }
    for (size_t i = 0; i < p->nfields && rc == MOTE_OK; i++) {
        const tfield *f = &p->f[i];
        switch (f->type) {
        case MOTE_LP_FLOAT: {
            double d;
            memcpy(&d, &f->bits, 8);
            rc = mote_lp_write_float(&w, f->key.p, f->key.n, d);
            break;
        }
        case MOTE_LP_INT: rc = mote_lp_write_int(&w, f->key.p, f->key.n, (int64_t)f->bits); break;
        case MOTE_LP_UINT: rc = mote_lp_write_uint(&w, f->key.p, f->key.n, f->bits); break;
        case MOTE_LP_BOOL: rc = mote_lp_write_bool(&w, f->key.p, f->key.n, f->bits != 0); break;
        default: rc = mote_lp_write_string(&w, f->key.p, f->key.n, f->s.p, f->s.n); break;
        }
    }
    if (rc == MOTE_OK) rc = mote_lp_write_end(&w, &p->time);
    *rc_out = rc;
    if (rc != MOTE_OK) return false;
    size_t n = mote_lp_writer_length(&w);
    assert_true(n > 0 && buf[n - 1] == '\n');
    *out = bdup(buf, n - 1);
    return true;
}

/* ---- deviations ---------------------------------------------------------- */

typedef struct deviation {
    char kind;      /* 'd' decode, 'e' encode */
    char key[40];
    char how[16];   /* reject | differ | accept */
    int code;       /* for reject: the code mote must give */
    bool seen;
} deviation;

static deviation *load_deviations(size_t *n)
{
    size_t len;
    char *text = read_file("deviations.txt", &len);
    deviation *d = NULL;
    size_t k = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || line[0] == 0) continue;
        char kind[16], key[40], how[16], code[32] = "";
        int m = sscanf(line, "%15s %39s %15s %31s", kind, key, how, code);
        assert_true(m >= 3);
        d = realloc(d, (k + 1) * sizeof *d);
        assert_non_null(d);
        memset(&d[k], 0, sizeof d[k]);
        d[k].kind = kind[0];
        snprintf(d[k].key, sizeof d[k].key, "%s", key);
        snprintf(d[k].how, sizeof d[k].how, "%s", how);
        d[k].code = -2;
        for (int e = 0; e < 100 && m == 4; e++) {
            if (!strcmp(mote_err_name(e), code)) d[k].code = e;
        }
        k++;
    }
    free(text);
    *n = k;
    return d;
}

static deviation *find_dev(deviation *d, size_t n, char kind, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        if (d[i].kind == kind && !strcmp(d[i].key, key)) return &d[i];
    }
    return NULL;
}

/*
 * "differ": both accept, and the reference's strings are ours with the Go
 * decoder's extra string escapes (\n \r \t written as backslash + letter)
 * undone; nothing else may differ.
 */
static bool go_unescape_eq(bytes ours, bytes ref)
{
    size_t k = 0;
    for (size_t i = 0; i < ours.n; i++) {
        uint8_t c = ours.p[i];
        if (c == '\\' && i + 1 < ours.n &&
            (ours.p[i + 1] == 'n' || ours.p[i + 1] == 'r' || ours.p[i + 1] == 't')) {
            c = ours.p[i + 1] == 'n' ? '\n' : ours.p[i + 1] == 'r' ? '\r' : '\t';
            i++;
        }
        if (k >= ref.n || ref.p[k] != c) return false;
        k++;
    }
    return k == ref.n;
}

static bool differ_only_in_string_escapes(const result *ours, const result *ref)
{
    if (ours->error || ref->error || ours->n != ref->n) return false;
    for (size_t i = 0; i < ours->n; i++) {
        const tpoint *a = &ours->pts[i], *b = &ref->pts[i];
        if (a->nfields != b->nfields) return false;
        for (size_t k = 0; k < a->nfields; k++) {
            if (a->f[k].type == MOTE_LP_STRING && b->f[k].type == MOTE_LP_STRING &&
                go_unescape_eq(a->f[k].s, b->f[k].s)) {
                continue;
            }
            if (!beq(a->f[k].key, b->f[k].key) || a->f[k].type != b->f[k].type) return false;
            if (a->f[k].type != MOTE_LP_STRING && a->f[k].bits != b->f[k].bits) return false;
            if (a->f[k].type == MOTE_LP_STRING && !beq(a->f[k].s, b->f[k].s)) return false;
        }
    }
    return true;
}

/* ---- the tests ----------------------------------------------------------- */

/* Every case of the corpus file `name` (below tests/data/lp), which must
 * hold want_decode decode and want_encode encode cases. deviations.txt names
 * cases of corpus.txt only (lp_reference_go leaves such inputs out), so
 * there each entry must name a case. */
static void run_corpus(const char *name, size_t want_decode, size_t want_lines, size_t want_encode)
{
    size_t ncases = 0, ndev = 0;
    tcase *cases = load_corpus(name, &ncases);
    deviation *devs = load_deviations(&ndev);
    size_t ndecode = 0, nlines = 0, nencode = 0, passed = 0, deviated = 0, failures = 0;
    for (size_t i = 0; i < ncases; i++) {
        tcase *c = &cases[i];
        deviation *dv = find_dev(devs, ndev, c->encode ? 'e' : 'd', c->key);
        if (dv) dv->seen = true;
        if (!c->encode) {
            result ours, s1, s7;
            run_decode(c, 0, &ours);
            run_decode(c, 1, &s1);
            run_decode(c, 7, &s7);
            if (!result_same(&ours, &s1) || !result_same(&ours, &s7)) {
                printf("# %s: streaming result differs from whole-input result\n", c->key);
                failures++;
            }
            c->lines ? nlines++ : ndecode++;
            bool eq = c->lines ? points_eq(&ours, &c->want) : result_eq(&ours, &c->want);
            if (c->lines && !eq) {
                printf("# lines %s: the good lines' %zu points, mote %zu (or other points)\n", c->key,
                       c->want.n, ours.n);
                failures++;
            } else if (c->lines) {
                passed++;
            } else if (!dv) {
                if (eq) {
                    passed++;
                } else {
                    printf("# decode %s: want %s, mote %s (code %s)\n", c->key,
                           c->want.error ? "error" : "points", ours.error ? "error" : "points",
                           ours.error ? mote_err_name(ours.code) : "-");
                    failures++;
                }
            } else {
                bool ok = false;
                if (!strcmp(dv->how, "reject")) {
                    ok = !c->want.error && ours.error && ours.code == dv->code;
                } else if (!strcmp(dv->how, "differ")) {
                    ok = !eq && differ_only_in_string_escapes(&ours, &c->want);
                } else if (!strcmp(dv->how, "accept")) {
                    ok = c->want.error && !ours.error;
                }
                if (ok) {
                    deviated++;
                } else {
                    printf("# decode %s: listed deviation '%s %s' not as listed (mote %s %s)\n",
                           c->key, dv->how, mote_err_name(dv->code), ours.error ? "error" : "points",
                           ours.error ? mote_err_name(ours.code) : "");
                    failures++;
                }
            }
            result_free(&ours);
            result_free(&s1);
            result_free(&s7);
        } else {
            nencode++;
            bytes out = {0, 0};
            mote_err rc;
            bool ok = run_encode(c, &out, &rc);
            bool eq = c->want_error ? !ok : ok && beq(out, c->output);
            if (ok) {
                /* Round trip: decoding what we wrote gives the point back. */
                result back;
                tcase dc = *c;
                dc.input = out;
                dc.default_time = 0;
                run_decode(&dc, 0, &back);
                if (back.error || back.n != 1 || !point_eq(&back.pts[0], &c->want.pts[0])) {
                    printf("# encode %s: output does not decode to the point\n", c->key);
                    failures++;
                }
                result_free(&back);
            }
            if (!dv) {
                if (eq) {
                    passed++;
                } else {
                    printf("# encode %s: want %s, mote %s (%s) '%.*s'\n", c->key,
                           c->want_error ? "error" : "line", ok ? "line" : "error",
                           mote_err_name(rc), (int)out.n, out.p ? (const char *)out.p : "");
                    failures++;
                }
            } else if (!eq && (!strcmp(dv->how, "reject") ? !ok && (int)rc == dv->code : ok)) {
                deviated++;
            } else {
                printf("# encode %s: listed deviation not as listed\n", c->key);
                failures++;
            }
            free(out.p);
        }
    }
    for (size_t i = 0; i < ndev; i++) {
        if (!devs[i].seen) {
            if (!strcmp(name, "corpus.txt")) {
                printf("# deviation %s names no corpus case\n", devs[i].key);
                failures++;
            }
        }
    }
    printf("# conformance: %zu decode + %zu lines + %zu encode cases, %zu pass, %zu listed deviations, "
           "%zu failures\n",
           ndecode, nlines, nencode, passed, deviated, failures);
    for (size_t i = 0; i < ncases; i++) {
        free(cases[i].input.p);
        free(cases[i].output.p);
        result_free(&cases[i].want);
    }
    free(cases);
    free(devs);
    assert_int_equal(failures, 0);
    assert_int_equal(ndecode, want_decode);
    assert_int_equal(nlines, want_lines);
    assert_int_equal(nencode, want_encode);
}

static void corpus_cases_match_reference_or_listed_deviation(void **state)
{
    (void)state;
    run_corpus("corpus.txt", 5351, 0, 97);
}

/* Cases judged by the reference Go decoder and encoder themselves
 * (tests/gen/lp_reference_go): the corpus's inputs edited at random, lines
 * built from the grammar's parts, random points to encode. */
static void reference_go_cases_match_or_listed_deviation(void **state)
{
    (void)state;
    run_corpus("reference_cases.txt", 2000, 600, 1200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_cases_match_reference_or_listed_deviation),
        cmocka_unit_test(reference_go_cases_match_or_listed_deviation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
