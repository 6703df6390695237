/*
 * cmd_cql.c - 'mote cql encode TYPE LITERAL' and 'mote cql decode TYPE HEX'.
 *
 * encode parses a cqlsh-style literal against the type and drives the
 * library's general writer (twice: once to measure, once to write), then
 * checks the result with mote_cql_validate and prints it as lowercase hex,
 * without the [bytes] length prefix of the cell itself.
 * decode validates the bytes and prints them back as a literal that encode
 * accepts (floats as the shortest decimal that round-trips).
 *
 * Literal syntax: [1, 2] list or vector, {1, 2} set, {'a': 1} map, (1, 'x')
 * tuple, 'it''s' text/ascii, 0xcafe blob, true/false, null, uuids bare (or
 * quoted), numbers as written (NaN, Infinity, -Infinity for floats),
 * '1.2.3.4' / '::1' inet, 'YYYY-MM-DD' or the raw unsigned day number for
 * date, 'HH:MM:SS[.fffffffff]' or nanoseconds for time, milliseconds or
 * 'YYYY-MM-DD[ HH:MM[:SS[.fff]]][Z|+HHMM]' for timestamp, 1y2mo3w4d5h6m7s
 * 8ms9us10ns for duration.
 */
#define _POSIX_C_SOURCE 200809L
#include "tool.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mote/be.h"
#include "mote/cql.h"
#include "mote/num.h"

#define MAX_NODES 256

static const char cql_usage[] =
    "usage: mote cql encode TYPE LITERAL   print the value's bytes as hex\n"
    "       mote cql decode TYPE HEX       print the value as a CQL literal\n"
    "TYPE is CQL type text (\"vector<float, 3>\") or a Cassandra marshal class name.\n"
    "Hex has no [bytes] length prefix. Errors: message on stderr, exit status 2.\n";

/* ---- literal parsing -------------------------------------------------------- */

typedef struct lit {
    const char *s;
    size_t pos;
    mote_cql_writer *w;
    const char *err;      /* static message for the first literal error */
    mote_err werr;        /* first writer error */
    unsigned depth;
} lit;

static bool lfail(lit *l, const char *msg)
{
    if (!l->err && !l->werr) l->err = msg;
    return false;
}

static bool wcheck(lit *l, mote_err e)
{
    /* SPACE while measuring cannot happen; any other error is the answer */
    if (e && e != MOTE_ERR_SPACE) {
        if (!l->err && !l->werr) l->werr = e;
        return false;
    }
    return true;
}

static void skipws(lit *l)
{
    while (l->s[l->pos] == ' ' || l->s[l->pos] == '\t' || l->s[l->pos] == '\n' ||
           l->s[l->pos] == '\r')
        l->pos++;
}

static bool lit_accept(lit *l, char c)
{
    skipws(l);
    if (l->s[l->pos] == c) {
        l->pos++;
        return true;
    }
    return false;
}

/* A bare token: up to a delimiter. */
static size_t bare(lit *l, const char **tok)
{
    skipws(l);
    size_t b = l->pos;
    while (l->s[l->pos] && !strchr(",:[]{}()' \t\r\n", l->s[l->pos])) l->pos++;
    *tok = l->s + b;
    return l->pos - b;
}

/* A quoted string with '' for a quote, unescaped into a fresh heap block. */
static char *quoted(lit *l, size_t *n)
{
    skipws(l);
    if (l->s[l->pos] != '\'') return NULL;
    l->pos++;
    size_t cap = strlen(l->s + l->pos) + 1;
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t k = 0;
    for (;;) {
        char c = l->s[l->pos];
        if (c == '\0') {
            free(out);
            return NULL;
        }
        l->pos++;
        if (c == '\'') {
            if (l->s[l->pos] == '\'') {
                l->pos++;
            } else {
                break;
            }
        }
        out[k++] = c;
    }
    out[k] = '\0';
    *n = k;
    return out;
}

static bool tok_eq(const char *t, size_t n, const char *word)
{
    if (strlen(word) != n) return false;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return false;
    }
    return true;
}

static bool parse_i64(const char *t, size_t n, int64_t *out)
{
    char buf[32];
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, t, n);
    buf[n] = '\0';
    if (!((buf[0] >= '0' && buf[0] <= '9') || buf[0] == '-' || buf[0] == '+')) return false;
    errno = 0;
    char *end;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || end == buf) return false;
    *out = (int64_t)v;
    return true;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yy + (*m <= 2);
}

/* Reads exactly k digits at *p. */
static bool digits(const char **p, int k, int64_t *out)
{
    int64_t v = 0;
    for (int i = 0; i < k; i++) {
        if ((*p)[i] < '0' || (*p)[i] > '9') return false;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += k;
    *out = v;
    return true;
}

static bool parse_date(const char *s, const char **rest, int64_t *days)
{
    const char *p = s;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    int64_t y, m, d;
    size_t yl = 0;
    while (p[yl] >= '0' && p[yl] <= '9') yl++;
    if (yl < 4 || yl > 9 || !digits(&p, (int)yl, &y) || *p++ != '-' || !digits(&p, 2, &m) ||
        *p++ != '-' || !digits(&p, 2, &d))
        return false;
    if (m < 1 || m > 12 || d < 1 || d > 31) return false;
    if (neg) y = -y;
    *days = days_from_civil(y, (unsigned)m, (unsigned)d);
    int64_t cy;
    unsigned cm, cd;
    civil_from_days(*days, &cy, &cm, &cd);
    if (cm != m || cd != d) return false; /* e.g. 2021-02-30 */
    *rest = p;
    return true;
}

/* HH:MM[:SS[.f{1,9}]] -> nanoseconds since midnight. */
static bool parse_clock(const char **pp, int64_t *ns, bool need_seconds)
{
    const char *p = *pp;
    int64_t h, mi, sec = 0, frac = 0;
    if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi)) return false;
    if (*p == ':') {
        p++;
        if (!digits(&p, 2, &sec)) return false;
        if (*p == '.') {
            p++;
            int k = 0;
            while (*p >= '0' && *p <= '9') {
                if (k == 9) return false;
                frac = frac * 10 + (*p++ - '0');
                k++;
            }
            if (k == 0) return false;
            for (; k < 9; k++) frac *= 10;
        }
    } else if (need_seconds) {
        return false;
    }
    if (h > 23 || mi > 59 || sec > 59) return false;
    *ns = ((h * 60 + mi) * 60 + sec) * 1000000000 + frac;
    *pp = p;
    return true;
}

static bool parse_timestamp(const char *s, int64_t *ms)
{
    const char *p;
    int64_t days, ns = 0, off_min = 0;
    if (!parse_date(s, &p, &days)) return false;
    if (*p == ' ' || *p == 'T') {
        p++;
        if (!parse_clock(&p, &ns, false)) return false;
        if (ns % 1000000) return false; /* timestamps hold milliseconds */
    }
    if (*p == 'Z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1;
        int64_t oh, om = 0;
        if (!digits(&p, 2, &oh)) return false;
        if (*p == ':') p++;
        if (*p) {
            if (!digits(&p, 2, &om)) return false;
        }
        off_min = sign * (oh * 60 + om);
    }
    if (*p) return false;
    *ms = days * 86400000 + ns / 1000000 - off_min * 60000;
    return true;
}

/* Minimal two's complement bytes of a decimal integer string (any size). */
static uint8_t *varint_from_decimal(const char *t, size_t n, size_t *outn)
{
    bool neg = false;
    if (n && (t[0] == '-' || t[0] == '+')) {
        neg = t[0] == '-';
        t++;
        n--;
    }
    if (n == 0) return NULL;
    size_t cap = n / 2 + 2;
    uint8_t *mag = calloc(cap, 1);
    if (!mag) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') {
            free(mag);
            return NULL;
        }
        unsigned carry = (unsigned)(t[i] - '0');
        for (size_t j = cap; j-- > 0;) {
            unsigned v = mag[j] * 10u + carry;
            mag[j] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    if (neg) { /* two's complement of the magnitude */
        unsigned carry = 1;
        for (size_t j = cap; j-- > 0;) {
            unsigned v = (uint8_t)~mag[j] + carry;
            mag[j] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    size_t s = 0;
    while (s + 1 < cap && ((mag[s] == 0 && !(mag[s + 1] & 0x80)) ||
                           (mag[s] == 0xff && (mag[s + 1] & 0x80))))
        s++;
    memmove(mag, mag + s, cap - s);
    *outn = cap - s;
    return mag;
}

/* decimal: [int] scale then the varint of the unscaled digits, like Java's
 * BigDecimal(String): 1.250 is 1250 scale 3, 1E+3 is 1 scale -3. */
static bool write_decimal(lit *l, const char *t, size_t n)
{
    char *dig = malloc(n + 2);
    if (!dig) return lfail(l, "out of memory");
    size_t k = 0, i = 0;
    int64_t scale = 0;
    if (i < n && (t[i] == '-' || t[i] == '+')) dig[k++] = t[i++];
    size_t nd = 0;
    for (; i < n && t[i] >= '0' && t[i] <= '9'; i++, nd++) dig[k++] = t[i];
    if (i < n && t[i] == '.') {
        for (i++; i < n && t[i] >= '0' && t[i] <= '9'; i++, nd++, scale++) dig[k++] = t[i];
    }
    if (nd == 0) {
        free(dig);
        return lfail(l, "bad decimal literal");
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        int64_t ex;
        /* only the resulting scale must fit 32 bits (1E+2147483648 is
         * unscaled 1, scale -2147483648) */
        if (!parse_i64(t + i + 1, n - i - 1, &ex) || ex > ((int64_t)1 << 40) || ex < -((int64_t)1 << 40)) {
            free(dig);
            return lfail(l, "bad decimal exponent");
        }
        scale -= ex;
        i = n;
    }
    if (i != n || scale > INT32_MAX || scale < INT32_MIN) {
        free(dig);
        return lfail(l, "bad decimal literal");
    }
    size_t vn;
    uint8_t *v = varint_from_decimal(dig, k, &vn);
    free(dig);
    if (!v) return lfail(l, "bad decimal literal");
    uint8_t *b = malloc(4 + vn);
    if (!b) {
        free(v);
        return lfail(l, "out of memory");
    }
    mote_be_store32(b, (uint32_t)(int32_t)scale);
    memcpy(b + 4, v, vn);
    bool ok = wcheck(l, mote_cql_write_bytes(l->w, b, 4 + vn));
    free(b);
    free(v);
    return ok;
}

/* Duration: [-]( <int> (y|mo|w|d|h|m|s|ms|us|µs|ns) )+ */
static bool write_duration(lit *l, const char *t, size_t n)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && t[i] == '-') {
        neg = true;
        i++;
    }
    uint64_t months = 0, days = 0, nanos = 0;
    if (i == n) return lfail(l, "bad duration literal");
    while (i < n) {
        uint64_t v = 0;
        size_t d0 = i;
        while (i < n && t[i] >= '0' && t[i] <= '9') {
            if (v > (UINT64_MAX - 9) / 10) return lfail(l, "duration out of range");
            v = v * 10 + (uint64_t)(t[i++] - '0');
        }
        if (i == d0) return lfail(l, "bad duration literal");
        size_t u0 = i;
        while (i < n && !(t[i] >= '0' && t[i] <= '9')) i++;
        const char *u = t + u0;
        size_t un = i - u0;
        uint64_t *slot;
        uint64_t mul;
        if (tok_eq(u, un, "y")) { slot = &months; mul = 12; }
        else if (tok_eq(u, un, "mo")) { slot = &months; mul = 1; }
        else if (tok_eq(u, un, "w")) { slot = &days; mul = 7; }
        else if (tok_eq(u, un, "d")) { slot = &days; mul = 1; }
        else if (tok_eq(u, un, "h")) { slot = &nanos; mul = 3600000000000ull; }
        else if (tok_eq(u, un, "m")) { slot = &nanos; mul = 60000000000ull; }
        else if (tok_eq(u, un, "s")) { slot = &nanos; mul = 1000000000ull; }
        else if (tok_eq(u, un, "ms")) { slot = &nanos; mul = 1000000ull; }
        else if (tok_eq(u, un, "us") || (un == 3 && memcmp(u, "\xc2\xb5s", 3) == 0)) { slot = &nanos; mul = 1000ull; }
        else if (tok_eq(u, un, "ns")) { slot = &nanos; mul = 1; }
        else return lfail(l, "bad duration unit");
        if (v != 0 && mul > UINT64_MAX / v) return lfail(l, "duration out of range");
        if (*slot > UINT64_MAX - v * mul) return lfail(l, "duration out of range");
        *slot += v * mul;
    }
    /* a negative duration may reach the most negative value of each field */
    uint64_t m32 = (uint64_t)INT32_MAX + neg, m64 = (uint64_t)INT64_MAX + neg;
    if (months > m32 || days > m32 || nanos > m64) return lfail(l, "duration out of range");
    uint8_t b[27];
    size_t k = 0;
    k += mote_cql_vint_put(b + k, neg ? (int64_t)(0 - months) : (int64_t)months);
    k += mote_cql_vint_put(b + k, neg ? (int64_t)(0 - days) : (int64_t)days);
    k += mote_cql_vint_put(b + k, neg ? (int64_t)(0 - nanos) : (int64_t)nanos);
    return wcheck(l, mote_cql_write_bytes(l->w, b, k));
}

static bool parse_uuid(const char *t, size_t n, uint8_t out[16])
{
    if (n != 36) return false;
    size_t k = 0;
    for (size_t i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (t[i] != '-') return false;
            continue;
        }
        int h = hexval(t[i]), g = i + 1 < 36 ? hexval(t[i + 1]) : -1;
        if (h < 0 || g < 0) return false;
        out[k++] = (uint8_t)(h * 16 + g);
        i++;
    }
    return k == 16;
}

static bool scalar(lit *l, const mote_cql_type *t)
{
    const char *tok;
    size_t n;
    char *q = NULL;
    size_t qn = 0;
    bool ok = false;
    skipws(l);
    bool is_quoted = l->s[l->pos] == '\'';
    if (is_quoted) {
        q = quoted(l, &qn);
        if (!q) return lfail(l, "unterminated string");
        tok = q;
        n = qn;
    } else {
        n = bare(l, &tok);
        if (n == 0) return lfail(l, "value expected");
    }
    switch (t->kind) {
    case MOTE_CQL_BOOLEAN:
        if (!is_quoted && tok_eq(tok, n, "true")) ok = wcheck(l, mote_cql_write_bool(l->w, true));
        else if (!is_quoted && tok_eq(tok, n, "false")) ok = wcheck(l, mote_cql_write_bool(l->w, false));
        else ok = lfail(l, "boolean expected");
        break;
    case MOTE_CQL_TINYINT:
    case MOTE_CQL_SMALLINT:
    case MOTE_CQL_INT:
    case MOTE_CQL_BIGINT:
    case MOTE_CQL_COUNTER: {
        int64_t v;
        if (is_quoted || !parse_i64(tok, n, &v)) ok = lfail(l, "integer expected");
        else ok = wcheck(l, mote_cql_write_int(l->w, v));
        break;
    }
    case MOTE_CQL_DATE: {
        int64_t v;
        const char *rest;
        if (!is_quoted && parse_i64(tok, n, &v)) {
            ok = wcheck(l, mote_cql_write_int(l->w, v));
        } else if (is_quoted && parse_date(tok, &rest, &v) && *rest == '\0') {
            v += (int64_t)1 << 31;
            ok = wcheck(l, mote_cql_write_int(l->w, v));
        } else {
            ok = lfail(l, "date expected ('YYYY-MM-DD' or a day number)");
        }
        break;
    }
    case MOTE_CQL_TIME: {
        int64_t v;
        const char *p = tok;
        if (!is_quoted && parse_i64(tok, n, &v)) {
            if (v < 0 || v >= 86400000000000) ok = lfail(l, "time out of range");
            else ok = wcheck(l, mote_cql_write_int(l->w, v));
        } else if (is_quoted && parse_clock(&p, &v, true) && *p == '\0') {
            ok = wcheck(l, mote_cql_write_int(l->w, v));
        } else {
            ok = lfail(l, "time expected ('HH:MM:SS[.fffffffff]' or nanoseconds)");
        }
        break;
    }
    case MOTE_CQL_TIMESTAMP: {
        int64_t v;
        if (!is_quoted && parse_i64(tok, n, &v)) ok = wcheck(l, mote_cql_write_int(l->w, v));
        else if (is_quoted && parse_timestamp(tok, &v)) ok = wcheck(l, mote_cql_write_int(l->w, v));
        else ok = lfail(l, "timestamp expected (milliseconds or 'YYYY-MM-DD HH:MM:SS')");
        break;
    }
    case MOTE_CQL_VARINT: {
        size_t vn;
        uint8_t *v = is_quoted ? NULL : varint_from_decimal(tok, n, &vn);
        if (!v) {
            ok = lfail(l, "integer expected");
        } else {
            ok = wcheck(l, mote_cql_write_bytes(l->w, v, vn));
            free(v);
        }
        break;
    }
    case MOTE_CQL_DECIMAL:
        ok = is_quoted ? lfail(l, "decimal expected") : write_decimal(l, tok, n);
        break;
    case MOTE_CQL_FLOAT:
    case MOTE_CQL_DOUBLE: {
        double d = 0;
        float f = 0;
        bool good = !is_quoted;
        bool isf = t->kind == MOTE_CQL_FLOAT;
        if (good && (tok_eq(tok, n, "nan"))) {
            d = NAN;
            f = NAN;
        } else if (good && (tok_eq(tok, n, "infinity") || tok_eq(tok, n, "+infinity"))) {
            d = INFINITY;
            f = INFINITY;
        } else if (good && tok_eq(tok, n, "-infinity")) {
            d = -INFINITY;
            f = -INFINITY;
        } else if (good) {
            char buf[128];
            good = n < sizeof buf;
            for (size_t i = 0; good && i < n; i++)
                good = strchr("0123456789+-.eE", tok[i]) != NULL;
            if (good) {
                memcpy(buf, tok, n);
                buf[n] = '\0';
                char *end;
                errno = 0;
                if (isf) f = strtof(buf, &end);
                else d = strtod(buf, &end);
                good = *end == '\0' && end != buf && !(isf ? isinf(f) : isinf(d));
            }
        }
        if (!good) {
            ok = lfail(l, "number expected");
        } else {
            uint8_t b[8];
            if (isf) mote_be_storef32(b, f);
            else mote_be_storef64(b, d);
            ok = wcheck(l, mote_cql_write_bytes(l->w, b, isf ? 4 : 8));
        }
        break;
    }
    case MOTE_CQL_TEXT:
    case MOTE_CQL_ASCII:
        if (!is_quoted) ok = lfail(l, "quoted string expected");
        else ok = wcheck(l, mote_cql_write_bytes(l->w, tok, n));
        break;
    case MOTE_CQL_BLOB: {
        if (is_quoted || n < 2 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X') || n % 2) {
            ok = lfail(l, "blob expected (0x...)");
            break;
        }
        size_t bn = (n - 2) / 2;
        uint8_t *b = malloc(bn + 1);
        ok = b != NULL;
        for (size_t i = 0; ok && i < bn; i++) {
            int h = hexval(tok[2 + 2 * i]), g = hexval(tok[3 + 2 * i]);
            if (h < 0 || g < 0) ok = false;
            else b[i] = (uint8_t)(h * 16 + g);
        }
        ok = ok ? wcheck(l, mote_cql_write_bytes(l->w, b, bn)) : lfail(l, "bad hex in blob");
        free(b);
        break;
    }
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: {
        uint8_t u[16];
        if (!parse_uuid(tok, n, u)) ok = lfail(l, "uuid expected");
        else if (t->kind == MOTE_CQL_TIMEUUID && (u[6] >> 4) != 1)
            ok = lfail(l, "timeuuid must be a version 1 uuid");
        else ok = wcheck(l, mote_cql_write_bytes(l->w, u, 16));
        break;
    }
    case MOTE_CQL_INET: {
        uint8_t a[16];
        if (is_quoted && inet_pton(AF_INET, tok, a) == 1) ok = wcheck(l, mote_cql_write_bytes(l->w, a, 4));
        else if (is_quoted && inet_pton(AF_INET6, tok, a) == 1) {
            /* Cassandra (InetAddress.getByName) turns an IPv4-mapped IPv6
             * address (::ffff:a.b.c.d) into the 4-byte IPv4 address. */
            static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
            if (memcmp(a, mapped, 12) == 0) ok = wcheck(l, mote_cql_write_bytes(l->w, a + 12, 4));
            else ok = wcheck(l, mote_cql_write_bytes(l->w, a, 16));
        }
        else ok = lfail(l, "inet address expected ('1.2.3.4' or '::1')");
        break;
    }
    case MOTE_CQL_DURATION:
        ok = write_duration(l, tok, n);
        break;
    default:
        ok = lfail(l, "unsupported type");
        break;
    }
    free(q);
    return ok;
}

static bool value(lit *l);

/* Elements between open and close, separated by commas; for maps key: value. */
static bool elements(lit *l, char close, bool is_map)
{
    if (lit_accept(l, close)) return wcheck(l, mote_cql_write_end(l->w));
    for (;;) {
        if (!value(l)) return false;
        if (is_map) {
            if (!lit_accept(l, ':')) return lfail(l, "':' expected in map");
            if (!value(l)) return false;
        }
        if (lit_accept(l, close)) break;
        if (!lit_accept(l, ',')) return lfail(l, "',' or closing bracket expected");
    }
    return wcheck(l, mote_cql_write_end(l->w));
}

static bool value(lit *l)
{
    const mote_cql_type *t = mote_cql_writer_expect(l->w);
    if (!t) return lfail(l, "too many values");
    skipws(l);
    size_t save = l->pos;
    const char *tok;
    size_t n = bare(l, &tok);
    if (tok_eq(tok, n, "null")) return wcheck(l, mote_cql_write_null(l->w));
    l->pos = save;
    if (l->depth >= 64) return lfail(l, "literal nested too deeply");
    bool ok;
    l->depth++;
    switch (t->kind) {
    case MOTE_CQL_LIST:
    case MOTE_CQL_VECTOR:
        if (!lit_accept(l, '[')) return lfail(l, "'[' expected");
        ok = wcheck(l, mote_cql_write_begin(l->w)) && elements(l, ']', false);
        break;
    case MOTE_CQL_SET:
        if (!lit_accept(l, '{')) return lfail(l, "'{' expected");
        ok = wcheck(l, mote_cql_write_begin(l->w)) && elements(l, '}', false);
        break;
    case MOTE_CQL_MAP:
        if (!lit_accept(l, '{')) return lfail(l, "'{' expected");
        ok = wcheck(l, mote_cql_write_begin(l->w)) && elements(l, '}', true);
        break;
    case MOTE_CQL_TUPLE:
        if (!lit_accept(l, '(')) return lfail(l, "'(' expected");
        ok = wcheck(l, mote_cql_write_begin(l->w)) && elements(l, ')', false);
        break;
    default:
        ok = scalar(l, t);
        break;
    }
    l->depth--;
    return ok;
}

/* Runs the literal through a writer over out (NULL: measure). */
static int run_literal(const mote_cql_type *t, const char *text, uint8_t *out, size_t cap,
                       size_t *len)
{
    mote_cql_writer w;
    mote_err e = mote_cql_writer_init(&w, t, out, cap);
    if (e) return tool_usage_error("cql encode: %s", mote_err_message(e));
    lit l = {text, 0, &w, NULL, MOTE_OK, 0};
    if (value(&l)) {
        skipws(&l);
        if (text[l.pos] != '\0') lfail(&l, "unexpected text after the value");
    }
    if (l.err) return tool_usage_error("cql encode: %s at offset %zu", l.err, l.pos);
    e = l.werr ? l.werr : mote_cql_writer_finish(&w, len);
    if (e) return tool_usage_error("cql encode: value does not fit the type: %s (%s) near offset %zu",
                                   mote_err_message(e), mote_err_name(e), l.pos);
    return TOOL_OK;
}

/* ---- printing ------------------------------------------------------------------ */

/* Go strconv 'g' shortest style from digits d[0..nd) with value 0.d * 10^dp. */
static void put_go_float(FILE *o, bool neg, const char *d, int nd, int dp)
{
    if (neg) putc('-', o);
    if (nd == 0) {
        putc('0', o);
        return;
    }
    int x = dp - 1;
    if (x < -4 || x >= 6) {
        putc(d[0], o);
        if (nd > 1) {
            putc('.', o);
            fwrite(d + 1, 1, (size_t)nd - 1, o);
        }
        fprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
        return;
    }
    if (dp > 0) {
        for (int i = 0; i < dp; i++) putc(i < nd ? d[i] : '0', o);
    } else {
        putc('0', o);
    }
    if (nd > dp) {
        putc('.', o);
        for (int i = dp; i < 0; i++) putc('0', o);
        for (int i = dp > 0 ? dp : 0; i < nd; i++) putc(d[i], o);
    }
}

/* Shortest decimal that round-trips, Go strconv 'g' style: doubles through
 * mote_num_format_f64; floats at float precision (num has no binary32
 * formatter) by searching the digit count with printf/strtof. */
static void put_float(FILE *o, double v, bool is_float)
{
    if (isnan(v)) {
        fputs("NaN", o);
        return;
    }
    if (isinf(v)) {
        fputs(v < 0 ? "-Infinity" : "Infinity", o);
        return;
    }
    if (!is_float) {
        char buf[MOTE_NUM_F64_MAX];
        size_t n = mote_num_format_f64(v, buf, sizeof buf);
        fwrite(buf, 1, n, o);
        return;
    }
    bool neg = signbit(v) != 0;
    double a = fabs(v);
    if (a == 0) {
        put_go_float(o, neg, "", 0, 0);
        return;
    }
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, a);
        bool same = is_float ? strtof(buf, NULL) == (float)a : strtod(buf, NULL) == a;
        if (same || prec == 17) break;
    }
    /* buf: d.ddddde[+-]xx */
    char d[20];
    int nd = 0;
    const char *p = buf;
    for (; *p && *p != 'e'; p++) {
        if (*p != '.') d[nd++] = *p;
    }
    int ex = atoi(p + 1);
    while (nd > 1 && d[nd - 1] == '0') nd--;
    put_go_float(o, neg, d, nd, ex + 1);
}

static void put_quoted(FILE *o, const uint8_t *p, size_t n)
{
    putc('\'', o);
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\'') putc('\'', o);
        putc(p[i], o);
    }
    putc('\'', o);
}

static void put_hex(FILE *o, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) fprintf(o, "%02x", p[i]);
}

/* Decimal digits of a two's complement big-endian integer. */
static void put_varint(FILE *o, const uint8_t *p, size_t n)
{
    uint8_t *m = malloc(n ? n : 1);
    char *dig = malloc(n * 3 + 2);
    if (!m || !dig) {
        free(m);
        free(dig);
        return;
    }
    memcpy(m, p, n);
    bool neg = n && (p[0] & 0x80);
    if (neg) {
        unsigned carry = 1;
        for (size_t j = n; j-- > 0;) {
            unsigned v = (uint8_t)~m[j] + carry;
            m[j] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    size_t nd = 0;
    bool nonzero = true;
    while (nonzero) {
        unsigned rem = 0;
        nonzero = false;
        for (size_t j = 0; j < n; j++) {
            unsigned cur = rem * 256 + m[j];
            m[j] = (uint8_t)(cur / 10);
            rem = cur % 10;
            if (m[j]) nonzero = true;
        }
        dig[nd++] = (char)('0' + rem);
    }
    if (neg) putc('-', o);
    while (nd) putc(dig[--nd], o);
    free(m);
    free(dig);
}

/* Java BigDecimal.toString of unscaled * 10^-scale. */
static void put_decimal(FILE *o, const uint8_t *p, size_t n)
{
    int32_t scale = (int32_t)mote_be_load32(p);
    char *buf = NULL;
    size_t bl = 0;
    FILE *m = open_memstream(&buf, &bl);
    if (!m) return;
    put_varint(m, p + 4, n - 4);
    fclose(m);
    const char *digs = buf;
    bool neg = digs[0] == '-';
    if (neg) digs++;
    int64_t nd = (int64_t)strlen(digs);
    int64_t adjusted = -(int64_t)scale + (nd - 1);
    if (neg) putc('-', o);
    if (scale >= 0 && adjusted >= -6) {
        if (scale == 0) {
            fputs(digs, o);
        } else if (nd > scale) {
            fwrite(digs, 1, (size_t)(nd - scale), o);
            putc('.', o);
            fputs(digs + (nd - scale), o);
        } else {
            fputs("0.", o);
            for (int64_t i = 0; i < scale - nd; i++) putc('0', o);
            fputs(digs, o);
        }
    } else {
        putc(digs[0], o);
        if (nd > 1) {
            putc('.', o);
            fputs(digs + 1, o);
        }
        fprintf(o, "E%s%lld", adjusted >= 0 ? "+" : "", (long long)adjusted);
    }
    free(buf);
}

static void put_duration(FILE *o, const uint8_t *p, size_t n)
{
    int64_t v[3];
    size_t at = 0, used;
    for (int i = 0; i < 3; i++) {
        if (mote_cql_vint_get(p + at, n - at, &v[i], &used) != MOTE_OK) return; /* validated */
        at += used;
    }
    /* The components share a sign (validated): '-' once, then the non-zero
     * ones as months, days, nanoseconds with absolute values; zero is 0ns. */
    bool neg = v[0] < 0 || v[1] < 0 || v[2] < 0;
    uint64_t mo = v[0] < 0 ? (uint64_t)0 - (uint64_t)v[0] : (uint64_t)v[0];
    uint64_t d = v[1] < 0 ? (uint64_t)0 - (uint64_t)v[1] : (uint64_t)v[1];
    uint64_t ns = v[2] < 0 ? (uint64_t)0 - (uint64_t)v[2] : (uint64_t)v[2];
    if (neg) putc('-', o);
    if (mo == 0 && d == 0 && ns == 0) {
        fputs("0ns", o);
        return;
    }
    if (mo) fprintf(o, "%llumo", (unsigned long long)mo);
    if (d) fprintf(o, "%llud", (unsigned long long)d);
    if (ns) fprintf(o, "%lluns", (unsigned long long)ns);
}

static void put_uuid(FILE *o, const uint8_t *p)
{
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) putc('-', o);
        fprintf(o, "%02x", p[i]);
    }
}

static void print_value(FILE *o, const mote_cql_type *t, const uint8_t *p, size_t n, bool null)
{
    if (null) {
        fputs("null", o);
        return;
    }
    switch (t->kind) {
    case MOTE_CQL_LIST:
    case MOTE_CQL_SET:
    case MOTE_CQL_MAP:
    case MOTE_CQL_TUPLE:
    case MOTE_CQL_VECTOR: {
        const char *br = t->kind == MOTE_CQL_SET || t->kind == MOTE_CQL_MAP ? "{}"
                         : t->kind == MOTE_CQL_TUPLE                       ? "()"
                                                                           : "[]";
        putc(br[0], o);
        mote_cql_iter it;
        mote_cql_value v;
        if (mote_cql_iter_init(&it, t, p, n) != MOTE_OK) return; /* validated before printing */
        for (size_t i = 0; mote_cql_iter_next(&it, &v); i++) {
            if (i) fputs(t->kind == MOTE_CQL_MAP && (i & 1) ? ": " : ", ", o);
            print_value(o, v.type, v.ptr, v.len, v.null);
        }
        putc(br[1], o);
        return;
    }
    case MOTE_CQL_BOOLEAN: fputs(p[0] ? "true" : "false", o); return;
    case MOTE_CQL_TINYINT: fprintf(o, "%d", (int8_t)p[0]); return;
    case MOTE_CQL_SMALLINT: fprintf(o, "%d", (int16_t)mote_be_load16(p)); return;
    case MOTE_CQL_INT: fprintf(o, "%ld", (long)(int32_t)mote_be_load32(p)); return;
    case MOTE_CQL_BIGINT:
    case MOTE_CQL_COUNTER:
    case MOTE_CQL_TIMESTAMP: fprintf(o, "%lld", (long long)(int64_t)mote_be_load64(p)); return;
    case MOTE_CQL_TIME: {
        int64_t ns = (int64_t)mote_be_load64(p);
        if (ns < 0 || ns >= 86400000000000) {
            fprintf(o, "%lld", (long long)ns);
            return;
        }
        int64_t s = ns / 1000000000;
        fprintf(o, "'%02d:%02d:%02d.%09lld'", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60),
                (long long)(ns % 1000000000));
        return;
    }
    case MOTE_CQL_DATE: {
        uint32_t raw = mote_be_load32(p);
        int64_t y;
        unsigned m, d;
        civil_from_days((int64_t)raw - ((int64_t)1 << 31), &y, &m, &d);
        if (y < 0 || y > 9999) fprintf(o, "%lu", (unsigned long)raw);
        else fprintf(o, "'%04d-%02u-%02u'", (int)y, m, d);
        return;
    }
    case MOTE_CQL_FLOAT: put_float(o, mote_be_loadf32(p), true); return;
    case MOTE_CQL_DOUBLE: put_float(o, mote_be_loadf64(p), false); return;
    case MOTE_CQL_TEXT:
    case MOTE_CQL_ASCII: put_quoted(o, p, n); return;
    case MOTE_CQL_BLOB:
        fputs("0x", o);
        put_hex(o, p, n);
        return;
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: put_uuid(o, p); return;
    case MOTE_CQL_INET: {
        char buf[64];
        inet_ntop(n == 4 ? AF_INET : AF_INET6, p, buf, sizeof buf);
        fprintf(o, "'%s'", buf);
        return;
    }
    case MOTE_CQL_VARINT: put_varint(o, p, n); return;
    case MOTE_CQL_DECIMAL: put_decimal(o, p, n); return;
    case MOTE_CQL_DURATION: put_duration(o, p, n); return;
    default: fputs("?", o); return;
    }
}

/* ---- command --------------------------------------------------------------------- */

static int parse_type_arg(const char *text, mote_cql_type *nodes, const mote_cql_type **t)
{
    mote_err e = mote_cql_type_parse(text, strlen(text), nodes, MAX_NODES, NULL, t);
    if (e) return tool_usage_error("cql: bad type '%s': %s (%s)", text, mote_err_message(e), mote_err_name(e));
    return TOOL_OK;
}

static int cmd_encode(const char *type_text, const char *literal)
{
    static mote_cql_type nodes[MAX_NODES];
    const mote_cql_type *t;
    int rc = parse_type_arg(type_text, nodes, &t);
    if (rc) return rc;
    size_t need = 0, len = 0;
    rc = run_literal(t, literal, NULL, 0, &need);
    if (rc) return rc;
    uint8_t *out = malloc(need ? need : 1);
    if (!out) return tool_usage_error("cql encode: out of memory");
    rc = run_literal(t, literal, out, need, &len);
    if (!rc) {
        mote_err e = mote_cql_validate(t, out, len);
        if (e) rc = tool_usage_error("cql encode: value does not fit the type: %s (%s)", mote_err_message(e), mote_err_name(e));
    }
    if (!rc) {
        put_hex(stdout, out, len);
        putc('\n', stdout);
    }
    free(out);
    return rc;
}

static int cmd_decode(const char *type_text, const char *hex)
{
    static mote_cql_type nodes[MAX_NODES];
    const mote_cql_type *t;
    int rc = parse_type_arg(type_text, nodes, &t);
    if (rc) return rc;
    size_t hl = strlen(hex);
    if (hl >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) {
        hex += 2;
        hl -= 2;
    }
    if (hl % 2) return tool_usage_error("cql decode: odd number of hex digits");
    uint8_t *in = malloc(hl / 2 + 1);
    if (!in) return tool_usage_error("cql decode: out of memory");
    for (size_t i = 0; i < hl / 2; i++) {
        int h = hexval(hex[2 * i]), g = hexval(hex[2 * i + 1]);
        if (h < 0 || g < 0) {
            free(in);
            return tool_usage_error("cql decode: bad hex digit at offset %zu", 2 * i);
        }
        in[i] = (uint8_t)(h * 16 + g);
    }
    mote_err e = mote_cql_validate(t, in, hl / 2);
    if (e) {
        free(in);
        return tool_usage_error("cql decode: %s (%s)", mote_err_message(e), mote_err_name(e));
    }
    print_value(stdout, t, in, hl / 2, false);
    putc('\n', stdout);
    free(in);
    return TOOL_OK;
}

int tool_cmd_cql(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) { /* 'mote cql encode --help' too */
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(cql_usage, stdout);
            return TOOL_OK;
        }
    }
    if (argc != 4) {
        fputs(cql_usage, stderr);
        return TOOL_USAGE;
    }
    if (strcmp(argv[1], "encode") == 0) return cmd_encode(argv[2], argv[3]);
    if (strcmp(argv[1], "decode") == 0) return cmd_decode(argv[2], argv[3]);
    return tool_usage_error("cql: unknown subcommand '%s' (encode or decode)", argv[1]);
}
