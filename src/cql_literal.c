/*
 * cql_literal.c - cqlsh literals <-> CQL value bytes (mote/cql_literal.h).
 *
 * Parsing walks the literal once and drives the general writer of cql.c
 * (which checks every element against the type and does the framing), so
 * the wire rules live in one place. Formatting walks the value with the
 * iterator of cql.c. Numbers go through num.c: no strtod, no printf.
 */
#include "mote/cql_literal.h"

#include <string.h>

#include "mote/be.h"
#include "mote/num.h"

/* ---- parsing ---------------------------------------------------------------- */

typedef struct lit {
    const char *s;
    size_t len, pos;
    mote_cql_writer *w;
    mote_arena *scratch;
    mote_err code;        /* first error, MOTE_OK so far */
    const char *msg;
    size_t at;            /* its offset */
    unsigned depth;
} lit;

static bool lfail_at(lit *l, mote_err code, const char *msg, size_t at)
{
    if (!l->code) {
        l->code = code;
        l->msg = msg;
        l->at = at;
    }
    return false;
}

static bool lfail(lit *l, mote_err code, const char *msg)
{
    return lfail_at(l, code, msg, l->pos);
}

/* The writer's errors, except SPACE: the writer then measures on, and the
 * caller learns the size needed from mote_cql_writer_finish. */
static bool wcheck(lit *l, mote_err e, size_t at)
{
    if (e && e != MOTE_ERR_SPACE) return lfail_at(l, e, mote_err_message(e), at);
    return true;
}

static int peek(const lit *l)
{
    return l->pos < l->len ? (unsigned char)l->s[l->pos] : -1;
}

static void skipws(lit *l)
{
    for (int c; (c = peek(l)) == ' ' || c == '\t' || c == '\n' || c == '\r';) l->pos++;
}

static bool lit_accept(lit *l, char c)
{
    skipws(l);
    if (peek(l) == (unsigned char)c) {
        l->pos++;
        return true;
    }
    return false;
}

/* A bare token: up to a delimiter (or a NUL byte, which no token holds). */
static size_t bare(lit *l, const char **tok)
{
    skipws(l);
    size_t b = l->pos;
    for (int c; (c = peek(l)) > 0 && !memchr(",:[]{}()' \t\r\n", c, 13);) l->pos++;
    *tok = l->s + b;
    return l->pos - b;
}

/* A quoted string, '' for a quote: a view into the literal when it holds no
 * '', else unescaped into scratch. */
static bool quoted(lit *l, const char **tok, size_t *n)
{
    size_t open = l->pos++, b = l->pos, doubled = 0;
    for (;;) {
        const char *q = l->pos < l->len ? memchr(l->s + l->pos, '\'', l->len - l->pos) : NULL;
        if (!q) return lfail_at(l, MOTE_ERR_SYNTAX, "unterminated string", open);
        l->pos = (size_t)(q - l->s) + 1;
        if (peek(l) != '\'') break;
        l->pos++;
        doubled++;
    }
    size_t raw = l->pos - 1 - b;
    if (!doubled) {
        *tok = l->s + b;
        *n = raw;
        return true;
    }
    char *out = l->scratch ? mote_arena_alloc_aligned(l->scratch, raw, 1) : NULL;
    if (!out) return lfail_at(l, MOTE_ERR_NOMEM, "no scratch memory for a string holding ''", open);
    size_t k = 0;
    for (size_t i = b; i < l->pos - 1; i++) {
        out[k++] = l->s[i];
        if (l->s[i] == '\'') i++;
    }
    *tok = out;
    *n = k;
    return true;
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
    return mote_num_parse_i64((const uint8_t *)t, n, out) == MOTE_OK;
}

static int hexval(int c)
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

/* A cursor over a token. */
typedef struct cur {
    const char *p, *e;
} cur;

static int cpeek(const cur *c)
{
    return c->p < c->e ? (unsigned char)*c->p : -1;
}

static bool cskip(cur *c, char ch)
{
    if (cpeek(c) != (unsigned char)ch) return false;
    c->p++;
    return true;
}

/* Exactly k digits. */
static bool digits(cur *c, int k, int64_t *out)
{
    int64_t v = 0;
    for (int i = 0; i < k; i++) {
        int d = cpeek(c);
        if (d < '0' || d > '9') return false;
        v = v * 10 + (d - '0');
        c->p++;
    }
    *out = v;
    return true;
}

static bool parse_date(cur *c, int64_t *days)
{
    bool neg = cskip(c, '-');
    int yl = 0;
    while (c->p + yl < c->e && c->p[yl] >= '0' && c->p[yl] <= '9') yl++;
    int64_t y, m, d;
    if (yl < 4 || yl > 9 || !digits(c, yl, &y) || !cskip(c, '-') || !digits(c, 2, &m) ||
        !cskip(c, '-') || !digits(c, 2, &d))
        return false;
    if (m < 1 || m > 12 || d < 1 || d > 31) return false;
    if (neg) y = -y;
    *days = days_from_civil(y, (unsigned)m, (unsigned)d);
    int64_t cy;
    unsigned cm, cd;
    civil_from_days(*days, &cy, &cm, &cd);
    return cm == m && cd == d; /* not 2021-02-30 */
}

/* HH:MM[:SS[.f{1,9}]] -> nanoseconds since midnight. */
static bool parse_clock(cur *c, int64_t *ns, bool need_seconds)
{
    int64_t h, mi, sec = 0, frac = 0;
    if (!digits(c, 2, &h) || !cskip(c, ':') || !digits(c, 2, &mi)) return false;
    if (cskip(c, ':')) {
        if (!digits(c, 2, &sec)) return false;
        if (cskip(c, '.')) {
            int k = 0;
            for (int d; (d = cpeek(c)) >= '0' && d <= '9'; c->p++, k++) {
                if (k == 9) return false;
                frac = frac * 10 + (d - '0');
            }
            if (k == 0) return false;
            for (; k < 9; k++) frac *= 10;
        }
    } else if (need_seconds) {
        return false;
    }
    if (h > 23 || mi > 59 || sec > 59) return false;
    *ns = ((h * 60 + mi) * 60 + sec) * 1000000000 + frac;
    return true;
}

static bool parse_timestamp(cur *c, int64_t *ms)
{
    int64_t days, ns = 0, off_min = 0;
    if (!parse_date(c, &days)) return false;
    /* milliseconds of int64 reach about 292 million years: a date's years
     * (up to 999999999) can lie past them (6 days' margin: the clock and an
     * offset of up to 99:99 are added below) */
    if (days > INT64_MAX / 86400000 - 6 || days < -(INT64_MAX / 86400000 - 6)) return false;
    if (cskip(c, ' ') || cskip(c, 'T')) {
        if (!parse_clock(c, &ns, false)) return false;
        if (ns % 1000000) return false; /* timestamps hold milliseconds */
    }
    if (cskip(c, 'Z')) {
    } else if (cpeek(c) == '+' || cpeek(c) == '-') {
        int sign = *c->p++ == '-' ? -1 : 1;
        int64_t oh, om = 0;
        if (!digits(c, 2, &oh)) return false;
        cskip(c, ':');
        if (c->p < c->e && !digits(c, 2, &om)) return false;
        off_min = sign * (oh * 60 + om);
    }
    if (c->p != c->e) return false;
    *ms = days * 86400000 + ns / 1000000 - off_min * 60000;
    return true;
}

/* m[0..n) (big-endian) negated in place: the two's complement, used both
 * ways (a magnitude to a negative varint and back). */
static void negate_be(uint8_t *m, size_t n)
{
    unsigned carry = 1;
    for (size_t j = n; j-- > 0;) {
        unsigned v = (uint8_t)~m[j] + carry;
        m[j] = (uint8_t)v;
        carry = v >> 8;
    }
}

/* Minimal two's complement bytes of the decimal digits d[0..n) (a sign
 * apart: neg), into scratch. */
static uint8_t *varint_from_digits(lit *l, const char *d, size_t n, bool neg, size_t *outn)
{
    size_t cap = n / 2 + 2;
    uint8_t *mag = l->scratch ? mote_arena_alloc_aligned(l->scratch, cap, 1) : NULL;
    if (!mag) return NULL;
    memset(mag, 0, cap);
    for (size_t i = 0; i < n; i++) {
        unsigned carry = (unsigned)(d[i] - '0');
        for (size_t j = cap; j-- > 0;) {
            unsigned v = mag[j] * 10u + carry;
            mag[j] = (uint8_t)v;
            carry = v >> 8;
        }
    }
    if (neg) negate_be(mag, cap); /* two's complement of the magnitude */
    size_t s = 0;
    while (s + 1 < cap && ((mag[s] == 0 && !(mag[s + 1] & 0x80)) ||
                           (mag[s] == 0xff && (mag[s + 1] & 0x80))))
        s++;
    *outn = cap - s;
    return mag + s;
}

static bool write_varint(lit *l, const char *t, size_t n, size_t at)
{
    bool neg = n && t[0] == '-';
    if (n && (t[0] == '-' || t[0] == '+')) {
        t++;
        n--;
    }
    if (n == 0) return lfail_at(l, MOTE_ERR_BAD_VALUE, "integer expected", at);
    for (size_t i = 0; i < n; i++)
        if (t[i] < '0' || t[i] > '9') return lfail_at(l, MOTE_ERR_BAD_VALUE, "integer expected", at);
    size_t vn;
    uint8_t *v = varint_from_digits(l, t, n, neg, &vn);
    if (!v) return lfail_at(l, MOTE_ERR_NOMEM, "no scratch memory for a varint", at);
    return wcheck(l, mote_cql_write_bytes(l->w, v, vn), at);
}

/* decimal: [int] scale then the varint of the unscaled digits, as Java's
 * BigDecimal(String): 1.250 is 1250 scale 3, 1E+3 is 1 scale -3. */
static bool write_decimal(lit *l, const char *t, size_t n, size_t at)
{
    size_t i = 0, nd = 0;
    int64_t scale = 0;
    bool neg = false;
    if (i < n && (t[i] == '-' || t[i] == '+')) neg = t[i++] == '-';
    size_t d0 = i;
    for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) nd++;
    size_t dot = i;
    if (i < n && t[i] == '.')
        for (i++; i < n && t[i] >= '0' && t[i] <= '9'; i++, nd++, scale++) {
        }
    if (nd == 0) return lfail_at(l, MOTE_ERR_BAD_VALUE, "decimal expected", at);
    size_t mant_end = i;
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        int64_t ex;
        /* only the resulting scale must fit 32 bits (1E+2147483648 is
         * unscaled 1, scale -2147483648) */
        if (!parse_i64(t + i + 1, n - i - 1, &ex) || ex > ((int64_t)1 << 40) ||
            ex < -((int64_t)1 << 40))
            return lfail_at(l, MOTE_ERR_BAD_VALUE, "bad decimal exponent", at);
        scale -= ex;
        i = n;
    }
    if (i != n) return lfail_at(l, MOTE_ERR_BAD_VALUE, "decimal expected", at);
    if (scale > INT32_MAX || scale < INT32_MIN) return lfail_at(l, MOTE_ERR_RANGE, "decimal scale out of range", at);
    char *dig = l->scratch ? mote_arena_alloc_aligned(l->scratch, nd, 1) : NULL;
    if (!dig) return lfail_at(l, MOTE_ERR_NOMEM, "no scratch memory for a decimal", at);
    size_t k = 0;
    for (size_t j = d0; j < mant_end; j++)
        if (j != dot) dig[k++] = t[j];
    size_t vn;
    uint8_t *v = varint_from_digits(l, dig, nd, neg, &vn);
    uint8_t *b = v ? mote_arena_alloc_aligned(l->scratch, 4 + vn, 1) : NULL;
    if (!b) return lfail_at(l, MOTE_ERR_NOMEM, "no scratch memory for a decimal", at);
    mote_be_store32(b, (uint32_t)(int32_t)scale);
    memcpy(b + 4, v, vn);
    return wcheck(l, mote_cql_write_bytes(l->w, b, 4 + vn), at);
}

/* Duration: [-]( <int> (y|mo|w|d|h|m|s|ms|us|µs|ns) )+ */
static bool write_duration(lit *l, const char *t, size_t n, size_t at)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && t[i] == '-') {
        neg = true;
        i++;
    }
    uint64_t months = 0, days = 0, nanos = 0;
    if (i == n) return lfail_at(l, MOTE_ERR_BAD_VALUE, "duration expected", at);
    while (i < n) {
        uint64_t v = 0;
        size_t d0 = i;
        while (i < n && t[i] >= '0' && t[i] <= '9') {
            if (v > (UINT64_MAX - 9) / 10) return lfail_at(l, MOTE_ERR_RANGE, "duration out of range", at);
            v = v * 10 + (uint64_t)(t[i++] - '0');
        }
        if (i == d0) return lfail_at(l, MOTE_ERR_BAD_VALUE, "duration expected", at);
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
        else return lfail_at(l, MOTE_ERR_BAD_VALUE, "bad duration unit", at);
        if (v != 0 && mul > UINT64_MAX / v) return lfail_at(l, MOTE_ERR_RANGE, "duration out of range", at);
        if (*slot > UINT64_MAX - v * mul) return lfail_at(l, MOTE_ERR_RANGE, "duration out of range", at);
        *slot += v * mul;
    }
    /* a negative duration may reach the most negative value of each field */
    uint64_t m32 = (uint64_t)INT32_MAX + neg, m64 = (uint64_t)INT64_MAX + neg;
    if (months > m32 || days > m32 || nanos > m64) return lfail_at(l, MOTE_ERR_RANGE, "duration out of range", at);
    uint8_t b[27];
    size_t k = 0;
    k += mote_cql_vint_put(b + k, neg ? (int64_t)(0 - months) : (int64_t)months);
    k += mote_cql_vint_put(b + k, neg ? (int64_t)(0 - days) : (int64_t)days);
    k += mote_cql_vint_put(b + k, neg ? (int64_t)(0 - nanos) : (int64_t)nanos);
    return wcheck(l, mote_cql_write_bytes(l->w, b, k), at);
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
        int h = hexval((unsigned char)t[i]), g = i + 1 < 36 ? hexval((unsigned char)t[i + 1]) : -1;
        if (h < 0 || g < 0) return false;
        out[k++] = (uint8_t)(h * 16 + g);
        i++;
    }
    return k == 16;
}

/* Dotted quad: four decimal parts 0..255 without leading zeros (as
 * inet_pton reads them). */
static bool parse_ipv4(const char *t, size_t n, uint8_t out[4])
{
    cur c = {t, t + n};
    for (int i = 0; i < 4; i++) {
        if (i && !cskip(&c, '.')) return false;
        int d = cpeek(&c), k = 0;
        unsigned v = 0;
        for (; (d = cpeek(&c)) >= '0' && d <= '9'; c.p++, k++) {
            if (k && v == 0) return false; /* leading zero */
            v = v * 10 + (unsigned)(d - '0');
            if (v > 255) return false;
        }
        if (k == 0) return false;
        out[i] = (uint8_t)v;
    }
    return c.p == c.e;
}

/* RFC 4291 text: groups of 1..4 hex digits, one '::' for a run of zero
 * groups, optionally a dotted quad as the last 32 bits. */
static bool parse_ipv6(const char *t, size_t n, uint8_t out[16])
{
    uint8_t a[16] = {0};
    size_t k = 0, i = 0;
    int gap = -1;
    if (n >= 2 && t[0] == ':' && t[1] == ':') {
        gap = 0;
        i = 2;
    } else if (n && t[0] == ':') {
        return false;
    }
    while (i < n) {
        size_t j = i;
        unsigned v = 0;
        while (j < n && j - i < 5 && hexval((unsigned char)t[j]) >= 0) v = v * 16 + (unsigned)hexval((unsigned char)t[j++]);
        if (j < n && t[j] == '.') { /* trailing dotted quad */
            if (k > 12 || !parse_ipv4(t + i, n - i, a + k)) return false;
            k += 4;
            i = n;
            break;
        }
        if (j == i || j - i > 4 || k > 14) return false;
        a[k++] = (uint8_t)(v >> 8);
        a[k++] = (uint8_t)v;
        i = j;
        if (i == n) break;
        if (t[i] != ':') return false;
        i++;
        if (i < n && t[i] == ':') {
            if (gap >= 0) return false;
            gap = (int)k;
            i++;
        } else if (i == n) {
            return false; /* a trailing single ':' */
        }
    }
    if (gap < 0) {
        if (k != 16) return false;
    } else {
        if (k > 14) return false;
        size_t tail = k - (size_t)gap;
        memmove(a + 16 - tail, a + gap, tail);
        memset(a + gap, 0, 16 - tail - (size_t)gap);
    }
    memcpy(out, a, 16);
    return true;
}

/* Exact decimal digits of |x| for a double of float range (a float
 * midpoint: x = m * 2^e2 with -150 <= e2 <= 104 after trailing zero bits
 * go; at most ~115 digits; none for 0 or out of that range): x = 0.D *
 * 10^*dexp. It settles only the rare double-rounding tie in parse_f32, so it
 * favours brevity over speed: a little-endian base-10^9 big number. */
static size_t exact_digits(double x, char *d, size_t cap, int *dexp)
{
    uint64_t bits;
    memcpy(&bits, &x, 8);
    int e2 = (int)((bits >> 52) & 0x7ff);
    uint64_t m = bits & (((uint64_t)1 << 52) - 1);
    if (e2) m |= (uint64_t)1 << 52;
    else e2 = 1;
    e2 -= 1075; /* x = m * 2^e2 */
    if (m == 0) return 0;
    while (!(m & 1)) {
        m >>= 1;
        e2++;
    }
    if (e2 < -160 || e2 > 130) return 0; /* 40 limbs hold m * 5^160 and m * 2^130 */
    /* N = m * 2^e2 (e2 >= 0) or m * 5^-e2 with the point -e2 digits left */
    uint32_t big[40];
    size_t nb = 0;
    for (uint64_t v = m; v; v /= 1000000000u) big[nb++] = (uint32_t)(v % 1000000000u);
    int shift10 = 0;
    for (int k = e2 < 0 ? -e2 : e2; k > 0; k--) {
        uint64_t carry = 0, mul = e2 < 0 ? 5 : 2;
        for (size_t i = 0; i < nb; i++) {
            uint64_t v = big[i] * mul + carry;
            big[i] = (uint32_t)(v % 1000000000u);
            carry = v / 1000000000u;
        }
        if (carry) big[nb++] = (uint32_t)carry;
    }
    if (e2 < 0) shift10 = e2;
    char tmp[40 * 9];
    size_t nt = 0;
    for (size_t i = 0; i < nb; i++)
        for (int j = 0; j < 9; j++) {
            tmp[nt++] = (char)('0' + big[i] % 10);
            big[i] /= 10;
        }
    while (nt && tmp[nt - 1] == '0') nt--; /* leading zeros (reversed) */
    size_t z = 0;
    while (z < nt && tmp[z] == '0') z++; /* trailing zeros */
    size_t nd = 0;
    for (size_t i = nt; i-- > z && nd < cap;) d[nd++] = tmp[i];
    *dexp = (int)nt + shift10;
    return nd;
}

/* Compare the decimal literal t[0..n) (num's float grammar, already
 * accepted) with the double x by magnitude: <0, 0, >0. */
static int cmp_decimal(const char *t, size_t n, double x)
{
    size_t i = 0;
    if (i < n && (t[i] == '-' || t[i] == '+')) i++;
    char sd[800];
    size_t ns = 0;
    int64_t dexp = 0;
    bool seen = false, point = false;
    for (; i < n && ((t[i] >= '0' && t[i] <= '9') || t[i] == '.'); i++) {
        if (t[i] == '.') {
            point = true;
            continue;
        }
        if (t[i] == '0' && !seen) {
            if (point) dexp--;
            continue;
        }
        seen = true;
        if (!point) dexp++;
        if (ns < sizeof sd) sd[ns++] = t[i];
        else if (t[i] != '0') sd[sizeof sd - 1] = '9'; /* beyond any double: only "more" counts */
    }
    if (i < n) {
        int64_t ex = 0;
        if (!parse_i64(t + i + 1, n - i - 1, &ex) || ex > INT32_MAX || ex < INT32_MIN)
            ex = t[i + 1] == '-' ? INT32_MIN : INT32_MAX; /* far beyond any double either way */
        dexp += ex;
    }
    while (ns && sd[ns - 1] == '0') ns--;
    char xd[800];
    int xe = 0;
    size_t nx = exact_digits(x < 0 ? -x : x, xd, sizeof xd, &xe);
    if (!ns || !nx) return ns ? 1 : nx ? -1 : 0;
    if (dexp != xe) return dexp < xe ? -1 : 1;
    for (size_t k = 0; k < ns || k < nx; k++) {
        char a = k < ns ? sd[k] : '0', b = k < nx ? xd[k] : '0';
        if (a != b) return a < b ? -1 : 1;
    }
    return 0;
}

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Decimal text to the nearest float. num parses to the nearest double;
 * rounding that to float is right except when the double lands exactly on
 * the midpoint of two floats without the text being that midpoint: then the
 * text decides (exact comparison). */
static mote_err parse_f32(const char *t, size_t n, float *out)
{
    double x;
    mote_err e = mote_num_parse_f64((const uint8_t *)t, n, &x);
    if (e) return e;
    float f = (float)x;
    if ((double)f != x && f32_bits(f) << 1 != 0xff000000u) {
        uint32_t u = f32_bits(f);
        /* the other float next to x: toward x */
        bool away = (x < 0) != ((double)f < x); /* x is farther from zero than f */
        float g = f32_from_bits(away ? u + 1 : u - 1);
        if (((double)f + (double)g) / 2 == x) {
            int c = cmp_decimal(t, n, x);
            if (c != 0) {
                /* |text| above |x| rounds away from zero, below toward it */
                float lo = away ? f : g, hi = away ? g : f;
                f = c > 0 ? hi : lo;
            }
        }
    }
    /* FLT_MAX + half an ulp is a midpoint whose upper side is infinity */
    if ((f32_bits(f) << 1) == 0xff000000u && x == 3.4028235677973366e38 * (x < 0 ? -1 : 1) &&
        cmp_decimal(t, n, x) < 0)
        f = f32_from_bits((f32_bits(f) & 0x80000000u) | 0x7f7fffffu);
    if ((f32_bits(f) << 1) == 0xff000000u) return MOTE_ERR_RANGE; /* beyond FLT_MAX */
    *out = f;
    return MOTE_OK;
}

static bool write_float(lit *l, const char *tok, size_t n, bool is_float, size_t at)
{
    double d = 0;
    float f = 0;
    mote_err e = MOTE_OK;
    /* NaN and the infinities as Java's Double.toString spells them */
    if (tok_eq(tok, n, "nan")) {
        d = (double)(f = f32_from_bits(0x7fc00000u));
    } else if (tok_eq(tok, n, "infinity") || tok_eq(tok, n, "+infinity")) {
        d = (double)(f = f32_from_bits(0x7f800000u));
    } else if (tok_eq(tok, n, "-infinity")) {
        d = (double)(f = f32_from_bits(0xff800000u));
    } else if (is_float) {
        e = parse_f32(tok, n, &f);
    } else {
        e = mote_num_parse_f64((const uint8_t *)tok, n, &d);
    }
    if (e == MOTE_ERR_RANGE) return lfail_at(l, MOTE_ERR_RANGE, "number out of range", at);
    if (e) return lfail_at(l, MOTE_ERR_BAD_VALUE, "number expected", at);
    uint8_t b[8];
    if (is_float) mote_be_storef32(b, f);
    else mote_be_storef64(b, d);
    return wcheck(l, mote_cql_write_bytes(l->w, b, is_float ? 4 : 8), at);
}

static bool scalar(lit *l, const mote_cql_type *t)
{
    const char *tok;
    size_t n;
    skipws(l);
    size_t at = l->pos;
    bool is_quoted = peek(l) == '\'';
    if (is_quoted) {
        if (!quoted(l, &tok, &n)) return false;
    } else {
        n = bare(l, &tok);
        if (n == 0) return lfail(l, MOTE_ERR_SYNTAX, "value expected");
    }
    mote_cql_writer *w = l->w;
    int64_t v;
    cur c = {tok, tok + n};
    switch (t->kind) {
    case MOTE_CQL_BOOLEAN:
        if (!is_quoted && tok_eq(tok, n, "true")) return wcheck(l, mote_cql_write_bool(w, true), at);
        if (!is_quoted && tok_eq(tok, n, "false")) return wcheck(l, mote_cql_write_bool(w, false), at);
        return lfail_at(l, MOTE_ERR_BAD_VALUE, "boolean expected", at);
    case MOTE_CQL_TINYINT:
    case MOTE_CQL_SMALLINT:
    case MOTE_CQL_INT:
    case MOTE_CQL_BIGINT:
    case MOTE_CQL_COUNTER:
        if (is_quoted) return lfail_at(l, MOTE_ERR_BAD_VALUE, "integer expected", at);
        switch (mote_num_parse_i64((const uint8_t *)tok, n, &v)) {
        case MOTE_OK: return wcheck(l, mote_cql_write_int(w, v), at);
        case MOTE_ERR_RANGE: return lfail_at(l, MOTE_ERR_RANGE, "integer out of range", at);
        default: return lfail_at(l, MOTE_ERR_BAD_VALUE, "integer expected", at);
        }
    case MOTE_CQL_DATE:
        if (!is_quoted && parse_i64(tok, n, &v)) return wcheck(l, mote_cql_write_int(w, v), at);
        if (is_quoted && parse_date(&c, &v) && c.p == c.e)
            return wcheck(l, mote_cql_write_int(w, v + ((int64_t)1 << 31)), at);
        return lfail_at(l, MOTE_ERR_BAD_VALUE, "date expected ('YYYY-MM-DD' or a day number)", at);
    case MOTE_CQL_TIME:
        if (!is_quoted && parse_i64(tok, n, &v)) {
            if (v < 0 || v >= 86400000000000) return lfail_at(l, MOTE_ERR_RANGE, "time out of range", at);
            return wcheck(l, mote_cql_write_int(w, v), at);
        }
        if (is_quoted && parse_clock(&c, &v, true) && c.p == c.e) return wcheck(l, mote_cql_write_int(w, v), at);
        return lfail_at(l, MOTE_ERR_BAD_VALUE, "time expected ('HH:MM:SS[.fffffffff]' or nanoseconds)", at);
    case MOTE_CQL_TIMESTAMP:
        if (!is_quoted && parse_i64(tok, n, &v)) return wcheck(l, mote_cql_write_int(w, v), at);
        if (is_quoted && parse_timestamp(&c, &v)) return wcheck(l, mote_cql_write_int(w, v), at);
        return lfail_at(l, MOTE_ERR_BAD_VALUE, "timestamp expected (milliseconds or 'YYYY-MM-DD HH:MM:SS')", at);
    case MOTE_CQL_VARINT:
        if (is_quoted) return lfail_at(l, MOTE_ERR_BAD_VALUE, "integer expected", at);
        return write_varint(l, tok, n, at);
    case MOTE_CQL_DECIMAL:
        if (is_quoted) return lfail_at(l, MOTE_ERR_BAD_VALUE, "decimal expected", at);
        return write_decimal(l, tok, n, at);
    case MOTE_CQL_FLOAT:
    case MOTE_CQL_DOUBLE:
        if (is_quoted) return lfail_at(l, MOTE_ERR_BAD_VALUE, "number expected", at);
        return write_float(l, tok, n, t->kind == MOTE_CQL_FLOAT, at);
    case MOTE_CQL_TEXT:
    case MOTE_CQL_ASCII:
        if (!is_quoted) return lfail_at(l, MOTE_ERR_BAD_VALUE, "quoted string expected", at);
        /* text is UTF-8 on the wire, ascii 7-bit (the server validates both;
         * the writer checks neither) */
        if (t->kind == MOTE_CQL_TEXT && !mote_utf8_valid(tok, n))
            return lfail_at(l, MOTE_ERR_BAD_VALUE, "text is not valid UTF-8", at);
        if (t->kind == MOTE_CQL_ASCII)
            for (size_t i = 0; i < n; i++)
                if (tok[i] & 0x80) return lfail_at(l, MOTE_ERR_BAD_VALUE, "ascii holds a byte above 0x7f", at);
        return wcheck(l, mote_cql_write_bytes(w, tok, n), at);
    case MOTE_CQL_BLOB: {
        if (is_quoted || n < 2 || tok[0] != '0' || (tok[1] != 'x' && tok[1] != 'X') || n % 2)
            return lfail_at(l, MOTE_ERR_BAD_VALUE, "blob expected (0x...)", at);
        size_t bn = (n - 2) / 2;
        uint8_t *b = l->scratch ? mote_arena_alloc_aligned(l->scratch, bn ? bn : 1, 1) : NULL;
        if (!b) return lfail_at(l, MOTE_ERR_NOMEM, "no scratch memory for a blob", at);
        for (size_t i = 0; i < bn; i++) {
            int h = hexval((unsigned char)tok[2 + 2 * i]), g = hexval((unsigned char)tok[3 + 2 * i]);
            if (h < 0 || g < 0) return lfail_at(l, MOTE_ERR_BAD_VALUE, "bad hex digit in blob", at + 2 + 2 * i);
            b[i] = (uint8_t)(h * 16 + g);
        }
        return wcheck(l, mote_cql_write_bytes(w, b, bn), at);
    }
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: {
        uint8_t u[16];
        if (!parse_uuid(tok, n, u)) return lfail_at(l, MOTE_ERR_BAD_VALUE, "uuid expected", at);
        if (t->kind == MOTE_CQL_TIMEUUID && (u[6] >> 4) != 1)
            return lfail_at(l, MOTE_ERR_BAD_VALUE, "timeuuid must be a version 1 uuid", at);
        return wcheck(l, mote_cql_write_bytes(w, u, 16), at);
    }
    case MOTE_CQL_INET: {
        uint8_t a[16];
        if (is_quoted && parse_ipv4(tok, n, a)) return wcheck(l, mote_cql_write_bytes(w, a, 4), at);
        if (is_quoted && parse_ipv6(tok, n, a)) {
            /* Cassandra (InetAddress.getByName) turns an IPv4-mapped IPv6
             * address (::ffff:a.b.c.d) into the 4-byte IPv4 address. */
            static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
            if (memcmp(a, mapped, 12) == 0) return wcheck(l, mote_cql_write_bytes(w, a + 12, 4), at);
            return wcheck(l, mote_cql_write_bytes(w, a, 16), at);
        }
        return lfail_at(l, MOTE_ERR_BAD_VALUE, "inet address expected ('1.2.3.4' or '::1')", at);
    }
    case MOTE_CQL_DURATION:
        if (is_quoted) return lfail_at(l, MOTE_ERR_BAD_VALUE, "duration expected", at);
        return write_duration(l, tok, n, at);
    default:
        return lfail_at(l, MOTE_ERR_BAD_VALUE, "no literal for this type", at);
    }
}

static bool value(lit *l);

/* Elements up to close, separated by commas; for maps key: value. */
static bool elements(lit *l, char close, bool is_map)
{
    if (lit_accept(l, close)) return wcheck(l, mote_cql_write_end(l->w), l->pos - 1);
    for (;;) {
        if (!value(l)) return false;
        if (is_map) {
            if (!lit_accept(l, ':')) return lfail(l, MOTE_ERR_SYNTAX, "':' expected in map");
            if (!value(l)) return false;
        }
        if (lit_accept(l, close)) break;
        if (!lit_accept(l, ',')) return lfail(l, MOTE_ERR_SYNTAX, "',' or closing bracket expected");
    }
    return wcheck(l, mote_cql_write_end(l->w), l->pos - 1);
}

static bool value(lit *l)
{
    skipws(l);
    size_t at = l->pos;
    const mote_cql_type *t = mote_cql_writer_expect(l->w);
    if (!t) return lfail(l, MOTE_ERR_SYNTAX, "too many values");
    const char *tok;
    size_t n = bare(l, &tok);
    if (tok_eq(tok, n, "null")) return wcheck(l, mote_cql_write_null(l->w), at);
    l->pos = at;
    /* the type bounds the nesting (MOTE_CQL_MAX_DEPTH); this only guards a
     * hand-built type */
    if (l->depth >= MOTE_CQL_MAX_DEPTH) return lfail(l, MOTE_ERR_DEPTH, "literal nested too deeply");
    char open, close;
    switch (t->kind) {
    case MOTE_CQL_LIST:
    case MOTE_CQL_VECTOR: open = '[', close = ']'; break;
    case MOTE_CQL_SET:
    case MOTE_CQL_MAP: open = '{', close = '}'; break;
    case MOTE_CQL_TUPLE: open = '(', close = ')'; break;
    default: {
        mote_arena_mark mark = {0};
        if (l->scratch) mark = mote_arena_save(l->scratch);
        bool ok = scalar(l, t);
        if (l->scratch) mote_arena_restore(l->scratch, mark);
        return ok;
    }
    }
    if (!lit_accept(l, open)) {
        static const char *const want[] = {"'[' expected", "'{' expected", "'(' expected"};
        return lfail(l, MOTE_ERR_SYNTAX, want[open == '[' ? 0 : open == '{' ? 1 : 2]);
    }
    l->depth++;
    bool ok = wcheck(l, mote_cql_write_begin(l->w), at) && elements(l, close, t->kind == MOTE_CQL_MAP);
    l->depth--;
    return ok;
}

mote_err mote_cql_literal_parse(const mote_cql_type *t, const char *text, size_t len,
                                uint8_t *out, size_t cap, size_t *written, mote_arena *scratch,
                                mote_cql_literal_error *err)
{
    if (!t || !written || (!text && len) || (!out && cap)) return MOTE_ERR_INVALID;
    mote_cql_writer w;
    mote_err ie = mote_cql_writer_init(&w, t, out, cap);
    if (ie != MOTE_OK) return ie;
    /* (NULL, 0) as "": the parser forms views as l->s + pos, and NULL + 0
     * is undefined in C */
    lit l = {text ? text : "", len, 0, &w, scratch, MOTE_OK, NULL, 0, 0};
    if (value(&l)) {
        skipws(&l);
        if (l.pos != len) lfail(&l, MOTE_ERR_SYNTAX, "unexpected text after the value");
    }
    mote_err e = l.code;
    if (!e) {
        e = mote_cql_writer_finish(&w, written);
        if (e && e != MOTE_ERR_SPACE) lfail(&l, e, mote_err_message(e));
        /* measuring (out NULL, cap 0) is "too small" too, as everywhere */
        if (!e && *written > cap) e = MOTE_ERR_SPACE;
    }
    if (e && e != MOTE_ERR_SPACE && err) {
        err->offset = l.at;
        err->message = l.msg;
    }
    return e;
}

/* ---- formatting ------------------------------------------------------------ */

/* Output that counts past its end, so one pass gives the size needed. */
typedef struct sink {
    char *out;
    size_t cap, len;
    mote_arena *scratch;
    mote_err err;
} sink;

static void put(sink *o, char c)
{
    if (o->len < o->cap) o->out[o->len] = c;
    o->len++;
}

static void putn(sink *o, const char *s, size_t n)
{
    if (o->len < o->cap) memcpy(o->out + o->len, s, o->cap - o->len < n ? o->cap - o->len : n);
    o->len += n;
}

static void puts0(sink *o, const char *s)
{
    putn(o, s, strlen(s));
}

static void put_i64(sink *o, int64_t v)
{
    char b[MOTE_NUM_F64_MAX];
    size_t n;
    if (mote_num_format_i64(v, b, sizeof b, &n) == MOTE_OK) putn(o, b, n); /* always fits */
}

static void put_u64(sink *o, uint64_t v)
{
    char b[MOTE_NUM_F64_MAX];
    size_t n;
    if (mote_num_format_u64(v, b, sizeof b, &n) == MOTE_OK) putn(o, b, n); /* always fits */
}

/* v in at least w digits, zero-padded. */
static void put_pad(sink *o, uint64_t v, int w)
{
    char b[MOTE_NUM_F64_MAX];
    size_t n;
    if (mote_num_format_u64(v, b, sizeof b, &n) != MOTE_OK) return; /* always fits */
    for (size_t i = n; i < (size_t)w; i++) put(o, '0');
    putn(o, b, n);
}

/* Go strconv 'g' shortest style from digits d[0..nd) with value 0.d * 10^dp
 * (what mote_num_format_f64 writes for doubles; floats need it on their own
 * digits). */
static void put_go_float(sink *o, bool neg, const char *d, int nd, int dp)
{
    if (neg) put(o, '-');
    if (nd == 0) {
        put(o, '0');
        return;
    }
    int x = dp - 1;
    if (x < -4 || x >= 6) {
        put(o, d[0]);
        if (nd > 1) {
            put(o, '.');
            putn(o, d + 1, (size_t)nd - 1);
        }
        put(o, 'e');
        put(o, x < 0 ? '-' : '+');
        put_pad(o, (uint64_t)(x < 0 ? -x : x), 2);
        return;
    }
    if (dp > 0) {
        for (int i = 0; i < dp; i++) put(o, i < nd ? d[i] : '0');
    } else {
        put(o, '0');
    }
    if (nd > dp) {
        put(o, '.');
        for (int i = dp; i < 0; i++) put(o, '0');
        for (int i = dp > 0 ? dp : 0; i < nd; i++) put(o, d[i]);
    }
}

/* Does the decimal 0.d[0..nd) * 10^dp read back as the float whose
 * rounding interval is (lo, hi), bounds included when closed (an even
 * mantissa: ties go to it)? Through the correctly rounded parse: a result
 * strictly inside means the decimal is; a result on a bound (a float
 * midpoint) is settled by exact comparison. */
static bool inside(const char *d, int nd, int dp, double lo, double hi, bool closed)
{
    char b[40];
    size_t k = 0;
    b[k++] = '.';
    memcpy(b + k, d, (size_t)nd);
    k += (size_t)nd;
    b[k++] = 'e';
    size_t el;
    if (mote_num_format_i64(dp, b + k, sizeof b - k, &el) != MOTE_OK) return false;
    k += el;
    double x;
    if (mote_num_parse_f64((const uint8_t *)b, k, &x) != MOTE_OK) return false;
    if (x > lo && x < hi) return true;
    if (x != lo && x != hi) return false;
    int c = cmp_decimal(b, k, x);
    return x == hi ? c < 0 || (c == 0 && closed) : c > 0 || (c == 0 && closed);
}

/* Shortest digits that read back as the float f (finite, > 0), the closest
 * of those: candidates are the double's shortest digits cut to 1, 2, ...
 * digits, rounded down and up; a candidate must lie inside f's rounding
 * interval (half-way to each neighbouring float; the half-way points
 * belong to f when its mantissa is even). */
static int f32_shortest(float f, char out[17], int *dp)
{
    double v = (double)f;
    char d[17];
    int e10;
    int nd = mote_num_f64_digits(v, d, &e10);
    uint32_t u = f32_bits(f);
    double dn = (double)f32_from_bits(u - 1); /* u >= 1: f > 0 */
    double hi = u == 0x7f7fffffu ? v + (v - dn) / 2 : (v + (double)f32_from_bits(u + 1)) / 2;
    double lo = (v + dn) / 2;
    for (int k = 1; k < nd; k++) {
        char a[17], b[17];
        memcpy(a, d, (size_t)k);
        memcpy(b, d, (size_t)k);
        int be = e10, i = k - 1;
        while (i >= 0 && b[i] == '9') b[i--] = '0';
        if (i >= 0) {
            b[i]++;
        } else { /* 99 -> 100: one digit, one decade up */
            b[0] = '1';
            be++;
        }
        int bk = k;
        while (bk > 1 && b[bk - 1] == '0') bk--;
        bool even = !(u & 1);
        bool ina = inside(a, k, e10, lo, hi, even), inb = inside(b, bk, be, lo, hi, even);
        if (!ina && !inb) continue;
        /* both: the one nearer f, judged by the first cut digit */
        bool up = inb && (!ina || d[k] > '5' || (d[k] == '5' && (k + 1 < nd || (a[k - 1] - '0') % 2)));
        int m = up ? bk : k;
        memcpy(out, up ? b : a, (size_t)m);
        while (m > 1 && out[m - 1] == '0') m--;
        *dp = up ? be : e10;
        return m;
    }
    memcpy(out, d, (size_t)nd);
    *dp = e10;
    return nd;
}

static void put_float(sink *o, double v, bool is_float)
{
    if (v != v) {
        puts0(o, "NaN");
        return;
    }
    if (v > 1.7976931348623157e308 || v < -1.7976931348623157e308) {
        puts0(o, v < 0 ? "-Infinity" : "Infinity");
        return;
    }
    if (!is_float) {
        char b[MOTE_NUM_F64_MAX];
        size_t n;
        if (mote_num_format_f64(v, b, sizeof b, &n) == MOTE_OK) putn(o, b, n); /* finite here */
        return;
    }
    float f = (float)v;
    bool neg = f32_bits(f) >> 31;
    char d[17];
    int dp = 0, nd = 0;
    if (f != 0) nd = f32_shortest(neg ? -f : f, d, &dp);
    put_go_float(o, neg, d, nd, dp);
}

static void put_quoted(sink *o, const uint8_t *p, size_t n)
{
    put(o, '\'');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\'') put(o, '\'');
        put(o, (char)p[i]);
    }
    put(o, '\'');
}

static void put_hex(sink *o, const uint8_t *p, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        put(o, hx[p[i] >> 4]);
        put(o, hx[p[i] & 15]);
    }
}

/* Decimal digits of the two's complement big-endian integer p[0..n) (with
 * its sign when signed), by repeated division of a copy of the magnitude.
 * The copy and the digits (at most 2.41 per byte, +1) live on the stack up
 * to 64 bytes, in scratch beyond. */
static void put_varint(sink *o, const uint8_t *p, size_t n, bool with_sign)
{
    uint8_t small_m[64];
    char small_d[160];
    uint8_t *m = small_m;
    char *dig = small_d;
    mote_arena_mark mark = {0};
    if (n > sizeof small_m) {
        if (!o->scratch || n > (SIZE_MAX - 2) / 3) {
            o->err = MOTE_ERR_NOMEM;
            return;
        }
        mark = mote_arena_save(o->scratch);
        m = mote_arena_alloc_aligned(o->scratch, n, 1);
        dig = m ? mote_arena_alloc_aligned(o->scratch, n * 3 + 2, 1) : NULL;
        if (!dig) {
            mote_arena_restore(o->scratch, mark);
            o->err = MOTE_ERR_NOMEM;
            return;
        }
    }
    if (n) memcpy(m, p, n);
    bool neg = n && (p[0] & 0x80);
    if (neg) negate_be(m, n);
    size_t nd = 0;
    bool nonzero = true;
    while (nonzero) {
        unsigned rem = 0;
        nonzero = false;
        for (size_t j = 0; j < n; j++) {
            unsigned c = rem * 256 + m[j];
            m[j] = (uint8_t)(c / 10);
            rem = c % 10;
            if (m[j]) nonzero = true;
        }
        dig[nd++] = (char)('0' + rem);
    }
    if (neg && with_sign) put(o, '-');
    while (nd) put(o, dig[--nd]);
    if (m != small_m) mote_arena_restore(o->scratch, mark);
}

/* Java BigDecimal.toString of unscaled * 10^-scale. */
static void put_decimal(sink *o, const uint8_t *p, size_t n)
{
    int32_t scale = (int32_t)mote_be_load32(p);
    p += 4;
    n -= 4;
    /* the digits, without sign, measured first into a sink of their own */
    sink m = {NULL, 0, 0, o->scratch, MOTE_OK};
    put_varint(&m, p, n, false);
    if (m.err) {
        o->err = m.err;
        return;
    }
    int64_t nd = (int64_t)m.len;
    int64_t adjusted = -(int64_t)scale + (nd - 1);
    bool neg = n && (p[0] & 0x80);
    if (neg) put(o, '-');
    /* the digit string is needed in pieces: render it into the output
     * where it goes, or where a point has to be inserted, shift after */
    if (scale >= 0 && adjusted >= -6) {
        if (scale == 0) {
            put_varint(o, p, n, false);
        } else if (nd > scale) {
            size_t at = o->len;
            put_varint(o, p, n, false);
            /* insert '.' before the last scale digits */
            size_t pos = at + (size_t)(nd - scale);
            put(o, '.');
            if (o->len <= o->cap) {
                memmove(o->out + pos + 1, o->out + pos, (size_t)scale);
                o->out[pos] = '.';
            }
        } else {
            puts0(o, "0.");
            for (int64_t i = 0; i < scale - nd; i++) put(o, '0');
            put_varint(o, p, n, false);
        }
    } else {
        size_t at = o->len;
        put_varint(o, p, n, false);
        if (nd > 1) {
            put(o, '.');
            if (o->len <= o->cap) {
                memmove(o->out + at + 2, o->out + at + 1, (size_t)nd - 1);
                o->out[at + 1] = '.';
            }
        }
        put(o, 'E');
        if (adjusted >= 0) put(o, '+');
        put_i64(o, adjusted);
    }
}

static void put_duration(sink *o, const uint8_t *p, size_t n)
{
    int64_t v[3];
    size_t at = 0, used;
    for (int i = 0; i < 3; i++) {
        if (mote_cql_vint_get(p + at, n - at, &v[i], &used) != MOTE_OK) { /* validated */
            puts0(o, "?");
            return;
        }
        at += used;
    }
    /* The components share a sign (validated): '-' once, then the non-zero
     * ones as months, days, nanoseconds with absolute values; zero is 0ns. */
    bool neg = v[0] < 0 || v[1] < 0 || v[2] < 0;
    uint64_t a[3];
    for (int i = 0; i < 3; i++) a[i] = v[i] < 0 ? (uint64_t)0 - (uint64_t)v[i] : (uint64_t)v[i];
    if (neg) put(o, '-');
    if (!a[0] && !a[1] && !a[2]) {
        puts0(o, "0ns");
        return;
    }
    static const char *const unit[3] = {"mo", "d", "ns"};
    for (int i = 0; i < 3; i++)
        if (a[i]) {
            put_u64(o, a[i]);
            puts0(o, unit[i]);
        }
}

static void put_uuid(sink *o, const uint8_t *p)
{
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) put(o, '-');
        put_hex(o, p + i, 1);
    }
}

static void put_ipv4(sink *o, const uint8_t *p)
{
    for (int i = 0; i < 4; i++) {
        if (i) put(o, '.');
        put_u64(o, p[i]);
    }
}

/* As glibc's inet_ntop writes it: lowercase hex groups without leading
 * zeros, the longest run of two or more zero groups (the first of equals)
 * as '::', and ::a.b.c.d / ::ffff:a.b.c.d for IPv4-compatible and -mapped. */
static void put_ipv6(sink *o, const uint8_t *p)
{
    unsigned g[8];
    for (int i = 0; i < 8; i++) g[i] = (unsigned)p[2 * i] << 8 | p[2 * i + 1];
    int best = -1, blen = 0;
    for (int i = 0; i < 8;) {
        if (g[i]) {
            i++;
            continue;
        }
        int j = i;
        while (j < 8 && !g[j]) j++;
        if (j - i > blen) {
            best = i;
            blen = j - i;
        }
        i = j;
    }
    if (blen < 2) best = -1;
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 8; i++) {
        if (best >= 0 && i >= best && i < best + blen) {
            if (i == best) put(o, ':');
            continue;
        }
        if (i) put(o, ':');
        if (i == 6 && best == 0 && (blen == 6 || (blen == 5 && g[5] == 0xffff))) {
            put_ipv4(o, p + 12);
            break;
        }
        bool lead = true;
        for (int s = 12; s >= 0; s -= 4) {
            unsigned d = g[i] >> s & 15;
            if (d || !lead || s == 0) {
                put(o, hx[d]);
                lead = false;
            }
        }
    }
    if (best >= 0 && best + blen == 8) put(o, ':');
}

static void format_value(sink *o, const mote_cql_type *t, const uint8_t *p, size_t n, bool null)
{
    if (null) {
        puts0(o, "null");
        return;
    }
    /* Cassandra's "empty" value of a scalar type (zero bytes where the type
     * has a fixed or non-empty encoding; blobAsInt(0x) makes one) has no
     * literal that reads back as the same bytes: refused, not misprinted. */
    if (n == 0 && t->kind < MOTE_CQL_LIST && t->kind != MOTE_CQL_TEXT &&
        t->kind != MOTE_CQL_ASCII && t->kind != MOTE_CQL_BLOB) {
        o->err = MOTE_ERR_MISMATCH;
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
        put(o, br[0]);
        mote_cql_iter it;
        if (mote_cql_iter_init(&it, t, p, n) != MOTE_OK) { /* validated before */
            put(o, br[1]);
            return;
        }
        mote_cql_value v;
        for (size_t i = 0; mote_cql_iter_next(&it, &v); i++) {
            /* a short tuple's missing components are not written, so the
             * literal reads back as the same (short) bytes */
            if (v.absent) break;
            if (i) puts0(o, t->kind == MOTE_CQL_MAP && (i & 1) ? ": " : ", ");
            format_value(o, v.type, v.ptr, v.len, v.null);
        }
        put(o, br[1]);
        return;
    }
    case MOTE_CQL_BOOLEAN: puts0(o, p[0] ? "true" : "false"); return;
    case MOTE_CQL_TINYINT: put_i64(o, (int8_t)p[0]); return;
    case MOTE_CQL_SMALLINT: put_i64(o, (int16_t)mote_be_load16(p)); return;
    case MOTE_CQL_INT: put_i64(o, (int32_t)mote_be_load32(p)); return;
    case MOTE_CQL_BIGINT:
    case MOTE_CQL_COUNTER:
    case MOTE_CQL_TIMESTAMP: put_i64(o, (int64_t)mote_be_load64(p)); return;
    case MOTE_CQL_TIME: {
        int64_t ns = (int64_t)mote_be_load64(p);
        if (ns < 0 || ns >= 86400000000000) {
            put_i64(o, ns);
            return;
        }
        uint64_t s = (uint64_t)ns / 1000000000u;
        put(o, '\'');
        put_pad(o, s / 3600, 2);
        put(o, ':');
        put_pad(o, s / 60 % 60, 2);
        put(o, ':');
        put_pad(o, s % 60, 2);
        put(o, '.');
        put_pad(o, (uint64_t)ns % 1000000000u, 9);
        put(o, '\'');
        return;
    }
    case MOTE_CQL_DATE: {
        uint32_t raw = mote_be_load32(p);
        int64_t y;
        unsigned m, d;
        civil_from_days((int64_t)raw - ((int64_t)1 << 31), &y, &m, &d);
        if (y < 0 || y > 9999) {
            put_u64(o, raw);
            return;
        }
        put(o, '\'');
        put_pad(o, (uint64_t)y, 4);
        put(o, '-');
        put_pad(o, m, 2);
        put(o, '-');
        put_pad(o, d, 2);
        put(o, '\'');
        return;
    }
    case MOTE_CQL_FLOAT: put_float(o, (double)mote_be_loadf32(p), true); return;
    case MOTE_CQL_DOUBLE: put_float(o, mote_be_loadf64(p), false); return;
    case MOTE_CQL_TEXT:
    case MOTE_CQL_ASCII: put_quoted(o, p, n); return;
    case MOTE_CQL_BLOB:
        puts0(o, "0x");
        put_hex(o, p, n);
        return;
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: put_uuid(o, p); return;
    case MOTE_CQL_INET:
        put(o, '\'');
        if (n == 4) put_ipv4(o, p);
        else put_ipv6(o, p);
        put(o, '\'');
        return;
    case MOTE_CQL_VARINT: put_varint(o, p, n, true); return;
    case MOTE_CQL_DECIMAL: put_decimal(o, p, n); return;
    case MOTE_CQL_DURATION: put_duration(o, p, n); return;
    default: o->err = MOTE_ERR_TYPE; return; /* validate refuses such types first */
    }
}

mote_err mote_cql_literal_format(const mote_cql_type *t, const uint8_t *in, size_t len,
                                 char *out, size_t cap, size_t *written, mote_arena *scratch)
{
    if (!t || !written || (!out && cap)) return MOTE_ERR_INVALID;
    mote_err e = mote_cql_validate(t, in, len);
    if (e) return e;
    sink o = {out, cap, 0, scratch, MOTE_OK};
    format_value(&o, t, in, len, false);
    if (o.err) return o.err;
    *written = o.len;
    return o.len > cap ? MOTE_ERR_SPACE : MOTE_OK;
}

/* ---- duplicates ------------------------------------------------------------- */

/* Each set element, or map key, against the earlier ones, byte for byte,
 * with a second iterator: no memory, O(n^2) compares. */
mote_err mote_cql_find_duplicate(const mote_cql_type *t, const uint8_t *in, size_t len,
                                 size_t *index)
{
    mote_err e = mote_cql_validate(t, in, len);
    if (e || (t->kind != MOTE_CQL_SET && t->kind != MOTE_CQL_MAP)) return e;
    size_t odd = t->kind == MOTE_CQL_MAP; /* map: keys are the even elements */
    mote_cql_iter a, b;
    mote_cql_value x, y;
    if ((e = mote_cql_iter_init(&a, t, in, len)) != MOTE_OK) return e;
    for (size_t i = 0; mote_cql_iter_next(&a, &x); i++) {
        if (i & odd) continue;
        if ((e = mote_cql_iter_init(&b, t, in, len)) != MOTE_OK) return e;
        for (size_t j = 0; j < i && mote_cql_iter_next(&b, &y); j++) {
            if (!(j & odd) && y.len == x.len && (x.len == 0 || memcmp(y.ptr, x.ptr, x.len) == 0)) {
                if (index) *index = i >> odd;
                return MOTE_ERR_DUPLICATE;
            }
        }
    }
    return MOTE_OK;
}
