/*
 * lp_write.c - line-protocol writer: escapes every element as the grammar
 * needs and refuses what no decoder could read back as written.
 *
 * Why each refusal: a name ending in a backslash would escape the separator
 * written after it; control bytes cannot appear in names at all (there is no
 * escape for them); a measurement starting with '#' reads as a comment; the
 * decoder rejects invalid UTF-8; line protocol has no NaN or infinity.
 */
#include "mote/lp.h"

#include <string.h>

#include "mote/num.h"
#include "lp_internal.h"
#include "mote_private.h"

enum { W_IDLE, W_TAGS, W_FIELDS, W_FAILED };

/* Where the lines go: one sink (a mote_buf) for both kinds of writer. A
 * fixed-size out[0..cap) is the writer's own fixed buffer, a pointer to
 * which would dangle if the caller copied the writer. */
static mote_buf *sink(mote_lp_writer *w) { return w->buf ? w->buf : &w->own; }

mote_err mote_lp_writer_init(mote_lp_writer *w, void *out, size_t cap,
                             mote_lp_precision precision)
{
    if (!w || (unsigned)precision > MOTE_LP_S) return MOTE_ERR_INVALID;
    memset(w, 0, sizeof *w);
    w->precision = precision;
    return mote_buf_init_fixed(&w->own, out, cap); /* NULL out with cap > 0: INVALID */
}

mote_err mote_lp_writer_init_buf(mote_lp_writer *w, mote_buf *buf,
                                 mote_lp_precision precision)
{
    mote_err rc = buf ? mote_lp_writer_init(w, NULL, 0, precision) : MOTE_ERR_INVALID;
    if (rc == MOTE_OK) {
        w->buf = buf;
        w->line_start = buf->len;
    }
    return rc;
}

size_t mote_lp_writer_length(const mote_lp_writer *w) { return w ? w->line_start : 0; }

/* Abandon the line: drop what it wrote, remember the error. */
static MOTE_NOINLINE mote_err line_fail(mote_lp_writer *w, mote_err rc)
{
    mote_buf_truncate(sink(w), w->line_start);
    if (w->state != W_FAILED) w->err = rc; /* the line's first error stays */
    w->state = W_FAILED;
    return w->err;
}

/*
 * Append n bytes to the line. Sticky: once the line has failed nothing more
 * is written and its error comes back, so a field is a plain sequence of
 * puts with w->err read at the end (MOTE_OK unless the line failed). The
 * writer's own fixed buffer full is MOTE_ERR_SPACE (lp.h), the caller's
 * buffer says why it could not grow.
 */
static mote_err put(mote_lp_writer *w, const void *p, size_t n)
{
    if (w->state == W_FAILED) return w->err;
    mote_buf *b = sink(w);
    /* Speed builds: 0 < n <= room is mote_buf_append's fast path without its
     * tests of p (set, as n > 0; memmove, as a caller's name may lie in b's
     * own storage, even its free tail). */
    if (!MOTE_SMALL && n - 1 < b->cap - b->len) {
        memmove(b->data + b->len, p, n);
        b->len += n;
        return MOTE_OK;
    }
    mote_err rc = mote_buf_append(b, p, n);
    if (rc == MOTE_OK) return rc;
    return line_fail(w, rc == MOTE_ERR_LIMIT && !w->buf ? MOTE_ERR_SPACE : rc);
}

static mote_err put_byte(mote_lp_writer *w, uint8_t c)
{
    mote_buf *b = sink(w);
    if (!MOTE_SMALL && w->state != W_FAILED && b->len < b->cap) {
        b->data[b->len++] = c;
        return MOTE_OK;
    }
    return put(w, &c, 1);
}

#if !MOTE_SMALL
/* Speed builds: s[0..n) needs no check and no escape as a name of kind k
 * (C_MEAS a measurement, whose leading '#' the caller tests; C_KEY a tag key
 * or value or field key; C_STR a string value): none of its bytes stops the
 * decoder's scan of that kind (the grammar's table). One look per byte, not
 * the checks' loops, UTF-8 check and strchr() per byte (docs/lp.md). */
static MOTE_INLINE bool plain(const uint8_t *s, size_t n, unsigned k)
{
    unsigned acc = 0;
    if (!s || !n) return false;
    for (size_t i = 0; i < n; i++) acc |= mote__lp_cls[s[i]];
    return !(acc & k);
}
#else
#define plain(p, n, k) false /* every name through the checks and the escaping loop */
#endif

/* Why s[0..n) cannot be written as a name of kind k (C_MEAS, C_KEY) or a
 * string value (C_STR), or MOTE_OK. */
static mote_err check(const uint8_t *s, size_t n, unsigned k)
{
    if (n == 0) return k == C_STR ? MOTE_OK : MOTE_ERR_EMPTY_NAME;
    if (!s) return MOTE_ERR_INVALID;
    if (k != C_STR) {
        if (s[n - 1] == '\\') return MOTE_ERR_BAD_ESCAPE;
        if (k == C_MEAS && s[0] == '#') return MOTE_ERR_SYNTAX;
        for (size_t i = 0; i < n; i++) {
            if (s[i] < 0x20 || s[i] == 0x7f) return MOTE_ERR_SYNTAX;
        }
    }
    return mote_utf8_valid(s, n) ? MOTE_OK : MOTE_ERR_SYNTAX;
}

/* Write s[0..n) as kind k (as check()) with a backslash before each byte its
 * kind escapes, or fail the line with check()'s error. */
static MOTE_FAST_INLINE mote_err put_name(mote_lp_writer *w, const uint8_t *s, size_t n, unsigned k)
{
    if (plain(s, n, k) && !(k == C_MEAS && s[0] == '#')) return put(w, s, n);
    mote_err rc = check(s, n, k);
    if (rc != MOTE_OK) return line_fail(w, rc);
    const char *set = k == C_MEAS ? ", " : k == C_KEY ? ",= " : "\"\\";
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != 0 && strchr(set, s[i])) {
            put(w, s + run, i - run);
            put_byte(w, '\\');
            run = i;
        }
    }
    return put(w, s + run, n - run);
}

mote_err mote_lp_write_measurement(mote_lp_writer *w, const void *name, size_t len)
{
    if (!w) return MOTE_ERR_INVALID;
    mote_buf_truncate(sink(w), w->line_start); /* an unfinished line is dropped */
    w->err = MOTE_OK;
    w->state = W_IDLE;
    mote_err rc = put_name(w, name, len, C_MEAS);
    if (rc == MOTE_OK) w->state = W_TAGS;
    return rc;
}

/* Entry to a call that adds to the line: MOTE_OK if the line is in one of
 * the states a and b, else its error (a failed line's, or a wrong state). */
static mote_err line_state(mote_lp_writer *w, uint8_t a, uint8_t b)
{
    return w->state == a || w->state == b ? MOTE_OK : line_fail(w, MOTE_ERR_STATE);
}

mote_err mote_lp_write_tag(mote_lp_writer *w, const void *key, size_t klen,
                           const void *value, size_t vlen)
{
    if (!w) return MOTE_ERR_INVALID;
    line_state(w, W_TAGS, W_TAGS); /* (a failed line writes nothing more) */
    put_byte(w, ',');
    put_name(w, key, klen, C_KEY);
    put_byte(w, '=');
    return put_name(w, value, vlen, C_KEY);
}

/* Separator and key of a field, leaving the value to the caller. */
static mote_err field_start(mote_lp_writer *w, const void *key, size_t klen)
{
    line_state(w, W_TAGS, W_FIELDS); /* (a failed line writes nothing more) */
    put_byte(w, w->state == W_TAGS ? ' ' : ',');
    put_name(w, key, klen, C_KEY);
    mote_err rc = put_byte(w, '=');
    if (rc == MOTE_OK) w->state = W_FIELDS;
    return rc;
}

mote_err mote_lp_write_float(mote_lp_writer *w, const void *key, size_t klen, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (!w) return MOTE_ERR_INVALID;
    /* v must be finite: exponent bits not all ones (no soft-float calls) */
    mote_err rc = (~bits & 0x7ff0000000000000ull) == 0 ? line_fail(w, MOTE_ERR_NOT_FINITE)
                                                       : field_start(w, key, klen);
    if (rc != MOTE_OK) return rc;
    /* 24 bytes suffice (num.h); a finite v always formats. num's frames
     * fill a Cortex-M0+'s 512 bytes of stack with this one (stack-budget). */
    char tmp[MOTE_NUM_F64_MAX];
    size_t n;
    rc = mote_num_format_f64(v, tmp, sizeof tmp, &n);
    return rc != MOTE_OK ? rc : put(w, tmp, n);
}

/* An integer field: v as int64 (neg: v holds a negative int64's bits) or
 * uint64, then the type's suffix. */
static mote_err write_integer(mote_lp_writer *w, const void *key, size_t klen, uint64_t v,
                              bool neg, char suffix)
{
    if (!w) return MOTE_ERR_INVALID;
    char tmp[MOTE_NUM_F64_MAX + 2];
    size_t n;
    int64_t iv;
    memcpy(&iv, &v, sizeof iv);
    mote_err rc = neg ? mote_num_format_i64(iv, tmp, sizeof tmp - 1, &n)
                      : mote_num_format_u64(v, tmp, sizeof tmp - 1, &n);
    if (rc != MOTE_OK) return rc;
    tmp[n] = suffix;
    rc = field_start(w, key, klen);
    return rc != MOTE_OK ? rc : put(w, tmp, n + 1);
}

mote_err mote_lp_write_int(mote_lp_writer *w, const void *key, size_t klen, int64_t v)
{
    return write_integer(w, key, klen, (uint64_t)v, v < 0, 'i');
}

mote_err mote_lp_write_uint(mote_lp_writer *w, const void *key, size_t klen, uint64_t v)
{
    return write_integer(w, key, klen, v, false, 'u');
}

mote_err mote_lp_write_bool(mote_lp_writer *w, const void *key, size_t klen, bool v)
{
    if (!w) return MOTE_ERR_INVALID;
    mote_err rc = field_start(w, key, klen);
    /* "false" or "true" from one string: no branch (Cortex-M size) */
    return rc != MOTE_OK ? rc : put(w, &"falsetrue"[5 * v], 5u - v);
}

mote_err mote_lp_write_string(mote_lp_writer *w, const void *key, size_t klen,
                              const void *s, size_t slen)
{
    if (!w) return MOTE_ERR_INVALID;
    mote_err rc = field_start(w, key, klen);
    if (rc != MOTE_OK) return rc;
    put_byte(w, '"');
    put_name(w, s, slen, C_STR);
    return put_byte(w, '"');
}

mote_err mote_lp_write_end(mote_lp_writer *w, const int64_t *time_ns)
{
    if (!w) return MOTE_ERR_INVALID;
    mote_err rc = line_state(w, W_FIELDS, W_FIELDS);
    if (rc != MOTE_OK) return rc;
    if (time_ns) {
        char tmp[MOTE_NUM_F64_MAX];
        size_t n;
        /* C division truncates toward zero, as Go's encoder does. */
        rc = mote_num_format_i64(*time_ns / mote__lp_ns_per[w->precision], tmp, sizeof tmp, &n);
        if (rc != MOTE_OK) return rc;
        put_byte(w, ' ');
        put(w, tmp, n);
    }
    rc = put_byte(w, '\n');
    if (rc != MOTE_OK) return rc;
    w->line_start = sink(w)->len;
    w->state = W_IDLE;
    return MOTE_OK;
}
