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
    if (!w || !buf || (unsigned)precision > MOTE_LP_S) return MOTE_ERR_INVALID;
    memset(w, 0, sizeof *w);
    w->buf = buf;
    w->len = w->line_start = buf->len;
    w->precision = precision;
    w->state = W_IDLE;
    return MOTE_OK;
}

size_t mote_lp_writer_length(const mote_lp_writer *w)
{
    return w ? w->line_start : 0;
}

/* Drop the line being built (for a buf: shorten it to the line start; buf.h
 * has no truncate call, and len <= its old value keeps the buffer valid). */
static void rollback(mote_lp_writer *w)
{
    w->len = w->line_start;
    if (w->buf && w->buf->len > w->line_start) w->buf->len = w->line_start;
}

/* Abandon the line: roll back to its start, remember the error. */
static mote_err line_fail(mote_lp_writer *w, mote_err rc)
{
    rollback(w);
    w->err = rc;
    w->state = W_FAILED;
    return rc;
}

static bool room(const mote_lp_writer *w, size_t n)
{
    return n <= w->cap - w->len;
}

static mote_err put(mote_lp_writer *w, const void *p, size_t n)
{
    if (w->buf) {
        mote_err rc = mote_buf_append(w->buf, p, n);
        w->len = w->buf->len;
        return rc;
    }
    if (!room(w, n)) return MOTE_ERR_SPACE;
    if (n) memcpy(w->out + w->len, p, n);
    w->len += n;
    return MOTE_OK;
}

static mote_err put_byte(mote_lp_writer *w, uint8_t c)
{
    if (MOTE_SMALL || w->buf) return put(w, &c, 1);
    if (!room(w, 1)) return MOTE_ERR_SPACE;
    w->out[w->len++] = c;
    return MOTE_OK;
}

/* Check a measurement (meas) or tag key/value/field key. */
static mote_err check_name(const uint8_t *s, size_t n, bool meas)
{
    if (n == 0) return MOTE_ERR_EMPTY_NAME;
    if (!s) return MOTE_ERR_INVALID;
    if (s[n - 1] == '\\') return MOTE_ERR_BAD_ESCAPE;
    if (meas && s[0] == '#') return MOTE_ERR_SYNTAX;
    bool hi = false;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c < 0x20 || c == 0x7f) return MOTE_ERR_SYNTAX;
        if (c >= 0x80) hi = true;
    }
    if (hi && !mote__lp_utf8_valid(s, n)) return MOTE_ERR_SYNTAX;
    return MOTE_OK;
}

/* Copy s escaping the bytes in set (a backslash before each). */
static mote_err put_escaped(mote_lp_writer *w, const uint8_t *s, size_t n, const char *set)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (strchr(set, s[i]) && s[i] != 0) {
            mote_err rc = put(w, s + run, i - run);
            if (rc == MOTE_OK) rc = put_byte(w, '\\');
            if (rc != MOTE_OK) return rc;
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
    mote_err rc = check_name(name, len, true);
    if (rc == MOTE_OK) rc = put_escaped(w, name, len, ", ");
    if (rc != MOTE_OK) return line_fail(w, rc);
    w->state = W_TAGS;
    return MOTE_OK;
}

mote_err mote_lp_write_tag(mote_lp_writer *w, const void *key, size_t klen,
                           const void *value, size_t vlen)
{
    if (!w) return MOTE_ERR_INVALID;
    if (w->state == W_FAILED) return w->err;
    if (w->state != W_TAGS) return line_fail(w, MOTE_ERR_STATE);
    mote_err rc = check_name(key, klen, false);
    if (rc == MOTE_OK) rc = check_name(value, vlen, false);
    if (rc == MOTE_OK) rc = put_byte(w, ',');
    if (rc == MOTE_OK) rc = put_escaped(w, key, klen, ",= ");
    if (rc == MOTE_OK) rc = put_byte(w, '=');
    if (rc == MOTE_OK) rc = put_escaped(w, value, vlen, ",= ");
    return rc == MOTE_OK ? rc : line_fail(w, rc);
}

/* Separator and key of a field, leaving the value to the caller. */
static mote_err field_start(mote_lp_writer *w, const void *key, size_t klen)
{
    if (w->state == W_FAILED) return w->err;
    if (w->state != W_TAGS && w->state != W_FIELDS) return line_fail(w, MOTE_ERR_STATE);
    mote_err rc = check_name(key, klen, false);
    if (rc == MOTE_OK) rc = put_byte(w, w->state == W_TAGS ? ' ' : ',');
    if (rc == MOTE_OK) rc = put_escaped(w, key, klen, ",= ");
    if (rc == MOTE_OK) rc = put_byte(w, '=');
    if (rc != MOTE_OK) return line_fail(w, rc);
    w->state = W_FIELDS;
    return MOTE_OK;
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
    char tmp[24];
    rc = put(w, tmp, mote_num_format_f64(v, tmp, sizeof tmp));
    return rc == MOTE_OK ? rc : line_fail(w, rc);
}

mote_err mote_lp_write_int(mote_lp_writer *w, const void *key, size_t klen, int64_t v)
{
    if (!w) return MOTE_ERR_INVALID;
    char tmp[24];
    size_t n = mote_num_format_i64(v, tmp, sizeof tmp - 1);
    tmp[n++] = 'i';
    mote_err rc = field_start(w, key, klen);
    if (rc == MOTE_OK) rc = put(w, tmp, n);
    return rc == MOTE_OK ? rc : line_fail(w, rc);
}

mote_err mote_lp_write_uint(mote_lp_writer *w, const void *key, size_t klen, uint64_t v)
{
    if (!w) return MOTE_ERR_INVALID;
    char tmp[24];
    size_t n = mote_num_format_u64(v, tmp, sizeof tmp - 1);
    tmp[n++] = 'u';
    mote_err rc = field_start(w, key, klen);
    if (rc == MOTE_OK) rc = put(w, tmp, n);
    return rc == MOTE_OK ? rc : line_fail(w, rc);
}

mote_err mote_lp_write_bool(mote_lp_writer *w, const void *key, size_t klen, bool v)
{
    if (!w) return MOTE_ERR_INVALID;
    mote_err rc = field_start(w, key, klen);
    if (rc == MOTE_OK) rc = v ? put(w, "true", 4) : put(w, "false", 5);
    return rc == MOTE_OK ? rc : line_fail(w, rc);
}

mote_err mote_lp_write_string(mote_lp_writer *w, const void *key, size_t klen,
                              const void *s, size_t slen)
{
    if (!w) return MOTE_ERR_INVALID;
    if (w->state == W_FAILED) return w->err;
    if (!s && slen > 0) return line_fail(w, MOTE_ERR_INVALID);
    const uint8_t *b = s;
    bool hi = false;
    for (size_t i = 0; i < slen; i++) hi |= b[i] >= 0x80;
    if (hi && !mote__lp_utf8_valid(b, slen)) return line_fail(w, MOTE_ERR_SYNTAX);
    mote_err rc = field_start(w, key, klen);
    if (rc == MOTE_OK) rc = put_byte(w, '"');
    if (rc == MOTE_OK) rc = put_escaped(w, b, slen, "\"\\");
    if (rc == MOTE_OK) rc = put_byte(w, '"');
    return rc == MOTE_OK ? rc : line_fail(w, rc);
}

mote_err mote_lp_write_end(mote_lp_writer *w, const int64_t *time_ns)
{
    if (!w) return MOTE_ERR_INVALID;
    if (w->state == W_FAILED) return w->err;
    if (w->state != W_FIELDS) return line_fail(w, MOTE_ERR_STATE);
    mote_err rc = MOTE_OK;
    if (time_ns) {
        char tmp[24];
        /* C division truncates toward zero, as Go's encoder does. */
        size_t n = mote_num_format_i64(*time_ns / mote__lp_ns_per[w->precision], tmp, sizeof tmp);
        rc = put_byte(w, ' ');
        if (rc == MOTE_OK) rc = put(w, tmp, n);
    }
    if (rc == MOTE_OK) rc = put_byte(w, '\n');
    if (rc != MOTE_OK) return line_fail(w, rc);
    w->line_start = w->len;
    w->state = W_IDLE;
    return MOTE_OK;
}
