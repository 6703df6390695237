/*
 * fuzz_lp_write.c - the writer on arbitrary names, values and call orders.
 * Three writers take the same calls: the library's over out[0..cap), the
 * library's over a fixed mote_buf of the same size, and the small build's
 * writer (no one-look test of names: every name through the checks and the
 * escaping loop; tests/copies). Properties:
 *   - the three return the same code after every call (the buf writer's
 *     LIMIT where the others say SPACE) and hold the same bytes;
 *   - a refused line leaves nothing behind, earlier lines stay as they were;
 *   - every line written decodes back to what was written: measurement,
 *     tags and field keys byte for byte, values bit for bit, the time in
 *     the writer's precision.
 * Input: byte 0 picks the capacity and the precision; then calls, each an
 * op byte (low 3 bits: the call; the rest: where a key ends and its value
 * begins), a length byte and that many bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "lp_fuzz.h"
#include "mote/buf.h"
#include "small_lp_write.h" /* lp_write.c as small builds compile it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_CAP = 4096 };

typedef struct writers {
    mote_lp_writer a, c; /* the library's: out[0..cap), fixed buf */
    mote_lp_writer b;    /* the small build's, over its own out */
    mote_buf cb;
    uint8_t out_a[MAX_CAP], out_b[MAX_CAP], out_c[MAX_CAP];
} writers;

/* The same call on the three writers: ra, rb, rc. */
#define ALL3(call, ...)                                     \
    (ra = mote_##call(&w.a, __VA_ARGS__),                   \
     rb = small_mote_##call(&w.b, __VA_ARGS__),             \
     rc = mote_##call(&w.c, __VA_ARGS__))

static void same(mote_err a, mote_err b, mote_err c)
{
    if (a != b) abort();
    if (c != a && !(a == MOTE_ERR_SPACE && c == MOTE_ERR_LIMIT)) abort();
}

/* What the line written so far must decode to, in fb_point's form from the
 * measurement on: its measurement, tags and fields as the calls gave them
 * (fb_text's length and bytes for each text, fb_field's form for a field). */
typedef struct line_want {
    fbuf meas, tags, fields;
    uint64_t ntags, nfields;
} line_want;

static void put_text(fbuf *e, const uint8_t *p, size_t n)
{
    fb_u64(e, n);
    fb_put(e, p, n);
}

/* The one line out[0..n) must decode to want, then the time. */
static void decodes_to(const uint8_t *line, size_t n, mote_lp_precision prec, const line_want *want,
                       bool has_time, int64_t time)
{
    mote_lp_config cfg;
    if (mote_lp_config_init(&cfg) != MOTE_OK) abort();
    cfg.precision = prec;
    fbuf got = {0}, exp = {0};
    decode_one(line, n, &cfg, &got);
    fb_put(&exp, want->meas.p, want->meas.n);
    fb_u64(&exp, want->ntags);
    fb_put(&exp, want->tags.p, want->tags.n);
    fb_u64(&exp, want->nfields);
    fb_put(&exp, want->fields.p, want->fields.n);
    fb_u64(&exp, has_time);
    fb_u64(&exp, (uint64_t)time);
    const size_t skip = FB_POINT_BODY;
    if (got.n != exp.n + skip || memcmp(got.p + skip, exp.p, exp.n) != 0) abort();
    free(got.p);
    free(exp.p);
}

static uint64_t u64_of(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    memcpy(&v, p, n < 8 ? n : 8);
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const size_t cap = (data[0] & 0x80) ? MAX_CAP : (size_t)(data[0] & 0x3f) * 4;
    const mote_lp_precision prec = (mote_lp_precision)((data[0] >> 6) & 1 ? MOTE_LP_MS : MOTE_LP_NS);
    static writers w;
    if (mote_lp_writer_init(&w.a, w.out_a, cap, prec) != MOTE_OK) abort();
    if (small_mote_lp_writer_init(&w.b, w.out_b, cap, prec) != MOTE_OK) abort();
    if (mote_buf_init_fixed(&w.cb, w.out_c, cap) != MOTE_OK) abort();
    if (mote_lp_writer_init_buf(&w.c, &w.cb, prec) != MOTE_OK) abort();

    line_want want = {0}; /* the line being written, as it must decode */
    bool line_ok = false;
    for (size_t i = 1; i + 2 <= size;) {
        const uint8_t op = data[i];
        size_t n = data[i + 1];
        i += 2;
        if (n > size - i) n = size - i;
        const uint8_t *p = data + i;
        i += n;
        const size_t cut = (size_t)(op >> 3) < n ? (size_t)(op >> 3) : n; /* key | value */
        const size_t before = mote_lp_writer_length(&w.a);
        mote_err ra, rb, rc;
        switch (op & 7) {
        case 0:
            ALL3(lp_write_measurement, p, n);
            want.meas.n = want.tags.n = want.fields.n = 0;
            want.ntags = want.nfields = 0;
            put_text(&want.meas, p, n);
            break;
        case 1:
            ALL3(lp_write_tag, p, cut, p + cut, n - cut);
            put_text(&want.tags, p, cut);
            put_text(&want.tags, p + cut, n - cut);
            want.ntags++;
            break;
        case 7: {
            int64_t t = (int64_t)u64_of(p, n);
            const int64_t *tp = n ? &t : NULL;
            ALL3(lp_write_end, tp);
            same(ra, rb, rc);
            if (ra == MOTE_OK && line_ok) {
                /* the time comes back truncated to the precision */
                const int64_t unit = prec == MOTE_LP_MS ? 1000000 : 1;
                const size_t len = mote_lp_writer_length(&w.a);
                decodes_to(w.out_a + before, len - before, prec, &want, tp != NULL, tp ? t / unit * unit : 0);
            }
            line_ok = false;
            break;
        }
        default: {
            /* a field: key | value; numbers from the value's bytes */
            const uint8_t *k = p, *v = p + cut;
            const size_t kn = cut, vn = n - cut;
            const uint64_t bits = u64_of(v, vn);
            uint64_t wbits = bits;
            mote_lp_type type;
            switch (op & 7) {
            case 2: {
                double f;
                memcpy(&f, &bits, 8);
                ALL3(lp_write_float, k, kn, f);
                type = MOTE_LP_FLOAT;
                break;
            }
            case 3:
                ALL3(lp_write_int, k, kn, (int64_t)bits);
                type = MOTE_LP_INT;
                break;
            case 4:
                ALL3(lp_write_uint, k, kn, bits);
                type = MOTE_LP_UINT;
                break;
            case 5:
                wbits = bits & 1;
                ALL3(lp_write_bool, k, kn, wbits);
                type = MOTE_LP_BOOL;
                break;
            default:
                ALL3(lp_write_string, k, kn, v, vn);
                type = MOTE_LP_STRING;
                break;
            }
            /* fb_field's form: key, type, decoded, then the value */
            put_text(&want.fields, k, kn);
            fb_u64(&want.fields, (uint64_t)type);
            fb_u64(&want.fields, 1);
            if (type == MOTE_LP_STRING) put_text(&want.fields, v, vn);
            else fb_u64(&want.fields, wbits);
            want.nfields++;
            break;
        }
        }
        same(ra, rb, rc);
        if ((op & 7) == 0) line_ok = ra == MOTE_OK;
        else if (ra != MOTE_OK) line_ok = false;
        /* the same bytes everywhere; a refusal keeps only whole lines */
        const size_t len = mote_lp_writer_length(&w.a);
        if (small_mote_lp_writer_length(&w.b) != len || mote_lp_writer_length(&w.c) != len) abort();
        /* after a refusal or an end the buffers hold whole lines only */
        if ((ra != MOTE_OK || (op & 7) == 7) && (w.cb.len != len || w.a.own.len != len)) abort();
        if (ra != MOTE_OK && len != before) abort();
        if (memcmp(w.out_a, w.out_b, len) != 0 || memcmp(w.out_a, w.out_c, len) != 0) abort();
    }
    free(want.meas.p);
    free(want.tags.p);
    free(want.fields.p);
    return 0;
}
