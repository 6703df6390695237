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


mote_err mote_lp_writer_init(mote_lp_writer *w, void *out, size_t cap,
                             mote_lp_precision precision)
{
    if (!w || (!out && cap > 0) || (unsigned)precision > MOTE_LP_S) return MOTE_ERR_INVALID;
    memset(w, 0, sizeof *w);
    w->out = out;
    w->cap = cap;
    w->precision = precision;
    w->state = W_IDLE;
    return MOTE_OK;
}

mote_err mote_lp_writer_init_buf(mote_lp_writer *w, mote_buf *buf,
                                 mote_lp_precision precision)
{
    if (!buf) return MOTE_ERR_INVALID;
    mote_err rc = mote_lp_writer_init(w, NULL, 0, precision);
    if (rc == MOTE_OK) {
        w->buf = buf;
        w->len = w->line_start = buf->len;
    }
    return rc;
}

size_t mote_lp_writer_length(const mote_lp_writer *w)
{
    return w ? w->line_start : 0;
}

/* Drop the line being built (for a buf: shorten it to the line start).
 * One copy in small builds (Cortex-M4 2 bytes less). */
static MOTE_SMALL_NOINLINE void rollback(mote_lp_writer *w)
{
    w->len = w->line_start;
    if (w->buf) mote_buf_truncate(w->buf, w->line_start);
}

/* Abandon the line: roll back to its start, remember the error. */
static MOTE_NOINLINE mote_err line_fail(mote_lp_writer *w, mote_err rc)
{
    rollback(w);
    w->err = rc;
    w->state = W_FAILED;
    return rc;
}

/*
 * Append n bytes to the line. Sticky: once the line has failed nothing more
 * is written and its error comes back, so a field is a plain sequence of
 * puts with w->err read at the end (MOTE_OK unless the line failed).
 */
static mote_err put(mote_lp_writer *w, const void *p, size_t n)
{
    if (w->state == W_FAILED) return w->err;
    mote_err rc = MOTE_OK;
    if (w->buf) {
        rc = mote_buf_append(w->buf, p, n);
        w->len = w->buf->len;
    } else if (n > w->cap - w->len) {
        rc = MOTE_ERR_SPACE;
    } else {
        if (n) memcpy(w->out + w->len, p, n);
        w->len += n;
    }
    return rc == MOTE_OK ? rc : line_fail(w, rc);
}

static mote_err put_byte(mote_lp_writer *w, uint8_t c)
{
    if (!MOTE_SMALL && !w->buf && w->state != W_FAILED && w->len < w->cap) {
        w->out[w->len++] = c;
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
static MOTE_INLINE bool plain(const void *p, size_t n, unsigned k)
{
    const uint8_t *s = p;
    unsigned acc = 0;
    if (!s || !n) return false;
    for (size_t i = 0; i < n; i++) acc |= mote__lp_cls[s[i]];
    return !(acc & k);
}
#else
#define plain(p, n, k) false /* every name through the checks and the escaping loop */
#endif

/* Check a measurement (meas) or tag key/value/field key. */
static mote_err check_name(const uint8_t *s, size_t n, bool meas)
{
    if (n == 0) return MOTE_ERR_EMPTY_NAME;
    if (!s) return MOTE_ERR_INVALID;
    if (s[n - 1] == '\\') return MOTE_ERR_BAD_ESCAPE;
    if (meas && s[0] == '#') return MOTE_ERR_SYNTAX;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < 0x20 || s[i] == 0x7f) return MOTE_ERR_SYNTAX;
    }
    return mote_utf8_valid(s, n) ? MOTE_OK : MOTE_ERR_SYNTAX;
}

/* Copy s escaping the bytes in set (a backslash before each). */
static mote_err put_escaped(mote_lp_writer *w, const uint8_t *s, size_t n, const char *set)
{
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
    rollback(w); /* an unfinished line is dropped */
    w->err = MOTE_OK;
    w->state = W_IDLE;
    const bool p = plain(name, len, C_MEAS) && *(const uint8_t *)name != '#';
    mote_err rc = p ? MOTE_OK : check_name(name, len, true);
    if (rc != MOTE_OK) return line_fail(w, rc);
    rc = p ? put(w, name, len) : put_escaped(w, name, len, ", ");
    if (rc == MOTE_OK) w->state = W_TAGS;
    return rc;
}

/* Entry to a call that adds to the line: MOTE_OK if the line is in one of
 * the states a and b, else its error (failing it for a wrong state). */
static mote_err line_state(mote_lp_writer *w, uint8_t a, uint8_t b)
{
    if (w->state == W_FAILED) return w->err;
    if (w->state != a && w->state != b) return line_fail(w, MOTE_ERR_STATE);
    return MOTE_OK;
}

mote_err mote_lp_write_tag(mote_lp_writer *w, const void *key, size_t klen,
                           const void *value, size_t vlen)
{
    if (!w) return MOTE_ERR_INVALID;
    mote_err rc = line_state(w, W_TAGS, W_TAGS);
    if (rc != MOTE_OK) return rc;
    const bool kp = plain(key, klen, C_KEY), vp = plain(value, vlen, C_KEY);
    if (!kp) rc = check_name(key, klen, false);
    if (rc == MOTE_OK && !vp) rc = check_name(value, vlen, false);
    if (rc != MOTE_OK) return line_fail(w, rc);
    put_byte(w, ',');
    kp ? put(w, key, klen) : put_escaped(w, key, klen, ",= ");
    put_byte(w, '=');
    return vp ? put(w, value, vlen) : put_escaped(w, value, vlen, ",= ");
}

/* Separator and key of a field, leaving the value to the caller. */
static mote_err field_start(mote_lp_writer *w, const void *key, size_t klen)
{
    mote_err rc = line_state(w, W_TAGS, W_FIELDS);
    if (rc != MOTE_OK) return rc;
    const bool p = plain(key, klen, C_KEY);
    if (!p) rc = check_name(key, klen, false);
    if (rc != MOTE_OK) return line_fail(w, rc);
    put_byte(w, w->state == W_TAGS ? ' ' : ',');
    p ? put(w, key, klen) : put_escaped(w, key, klen, ",= ");
    rc = put_byte(w, '=');
    if (rc == MOTE_OK) w->state = W_FIELDS;
    return rc;
}

/* Checks and key of a float field: v must be finite (exponent bits not all
 * ones; no soft-float calls needed). */
static mote_err float_start(mote_lp_writer *w, const void *key, size_t klen, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (!w) return MOTE_ERR_INVALID;
    if (w->state == W_FAILED) return w->err;
    if ((~bits & 0x7ff0000000000000ull) == 0) return line_fail(w, MOTE_ERR_NOT_FINITE);
    return field_start(w, key, klen);
}

mote_err mote_lp_write_float(mote_lp_writer *w, const void *key, size_t klen, double v)
{
    mote_err rc = float_start(w, key, klen, v);
    if (rc != MOTE_OK) return rc;
    /* Formatted here, with only w and v live: num's frames nearly fill a
     * Cortex-M0+'s 512 bytes. 24 bytes suffice (num.h); a finite v always
     * formats. */
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
    if (w->state == W_FAILED) return w->err;
    if (!s && slen > 0) return line_fail(w, MOTE_ERR_INVALID);
    const bool p = plain(s, slen, C_STR);
    if (!p && !mote_utf8_valid(s, slen)) return line_fail(w, MOTE_ERR_SYNTAX);
    mote_err rc = field_start(w, key, klen);
    if (rc != MOTE_OK) return rc;
    put_byte(w, '"');
    p ? put(w, s, slen) : put_escaped(w, s, slen, "\"\\");
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
    w->line_start = w->len;
    w->state = W_IDLE;
    return MOTE_OK;
}
