/*
 * fuzz_num_float.c - properties of mote/num.h against libc as the oracle
 * (glibc's strtod is correctly rounded; the process stays in the "C" locale).
 *
 * For every input:
 *  1. mote_num_parse_f64 accepts exactly the grammar
 *     [+-]? (digits ['.' digits?] | '.' digits) ([eE] [+-]? digits)?
 *     (checked by an independent matcher here); inside it the result equals
 *     strtod's bit for bit, and MOTE_ERR_RANGE exactly when strtod overflows.
 *  2. The MOTE_NUM_SMALL build (computed powers, as on microcontrollers,
 *     linked in under small_mote_* names) gives the same results, and so
 *     does the entry with plain decimals first (mote__num_parse_f64_plain,
 *     the core lp.c inlines for its float fields).
 *  3. Integer parsing agrees with strtoll/strtoull + errno on [+-]?digits
 *     (i64) and digits (u64), and rejects everything else.
 *  4. The first 8 bytes as a double (when finite): format parses back to the
 *     same bits; the digits are shortest (no decimal with one digit fewer
 *     near v round-trips) and match the SMALL build.
 * A violation calls abort().
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mote/num.h"

#include "small_num.h" /* the MOTE_NUM_SMALL copy, tests/copies/meson.build */

#if !MOTE_SMALL
/* src/mote_private.h: mote_num_parse_f64 with plain decimals first. */
mote_err mote__num_parse_f64_plain(const uint8_t *s, size_t n, double *out);
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "violated: %s (line %d)\n", #c, __LINE__); abort(); } } while (0)

static size_t digits_at(const uint8_t *s, size_t n, size_t i)
{
    size_t j = i;
    while (j < n && s[j] >= '0' && s[j] <= '9') j++;
    return j - i;
}

/* Independent matcher for the float grammar. */
static int float_grammar(const uint8_t *s, size_t n)
{
    size_t i = 0;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    size_t a = digits_at(s, n, i);
    i += a;
    size_t b = 0;
    if (i < n && s[i] == '.') {
        i++;
        b = digits_at(s, n, i);
        i += b;
    }
    if (a + b == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t c = digits_at(s, n, i);
        if (c == 0) return 0;
        i += c;
    }
    return i == n;
}

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static void check_float_parse(const uint8_t *data, size_t size, const char *z)
{
    double a = 7.0, b = 7.0;
    mote_err ea = mote_num_parse_f64(data, size, &a);
    mote_err eb = small_mote_num_parse_f64(data, size, &b);
    CHECK(ea == eb);
    CHECK(bits_of(a) == bits_of(b));
#if !MOTE_SMALL
    double c = 7.0;
    CHECK(mote__num_parse_f64_plain(data, size, &c) == ea);
    CHECK(bits_of(c) == bits_of(a));
#endif
    if (!float_grammar(data, size)) {
        CHECK(ea == MOTE_ERR_BAD_VALUE);
        CHECK(bits_of(a) == bits_of(7.0));
        return;
    }
    char *end;
    double want = strtod(z, &end);
    CHECK(end == z + size);
    if (want > DBL_MAX || want < -DBL_MAX) {
        CHECK(ea == MOTE_ERR_RANGE);
    } else {
        CHECK(ea == MOTE_OK);
        CHECK(bits_of(a) == bits_of(want));
    }
}

static void check_int_parse(const uint8_t *data, size_t size, const char *z)
{
    size_t sign = size > 0 && (data[0] == '+' || data[0] == '-');
    int i_ok = size > sign && digits_at(data, size, sign) == size - sign;
    int u_ok = size > 0 && digits_at(data, size, 0) == size;
    int64_t iv = 3, siv = 3;
    uint64_t uv = 3;
    mote_err ei = mote_num_parse_i64(data, size, &iv);
    CHECK(small_mote_num_parse_i64(data, size, &siv) == ei && siv == iv);
    if (!i_ok) {
        CHECK(ei == MOTE_ERR_BAD_VALUE && iv == 3);
    } else {
        errno = 0;
        long long w = strtoll(z, NULL, 10);
        if (errno == ERANGE) CHECK(ei == MOTE_ERR_RANGE);
        else CHECK(ei == MOTE_OK && iv == w);
    }
    mote_err eu = mote_num_parse_u64(data, size, &uv);
    if (!u_ok) {
        CHECK(eu == MOTE_ERR_BAD_VALUE && uv == 3);
    } else {
        errno = 0;
        unsigned long long w = strtoull(z, NULL, 10);
        if (errno == ERANGE) CHECK(eu == MOTE_ERR_RANGE);
        else CHECK(eu == MOTE_OK && uv == w);
    }
    if (ei == MOTE_OK) { /* format round trip */
        char buf[MOTE_NUM_F64_MAX], sbuf[MOTE_NUM_F64_MAX];
        size_t n = 0, sn = 0;
        int64_t back;
        CHECK(mote_num_format_i64(iv, buf, sizeof buf, &n) == MOTE_OK);
        CHECK(small_mote_num_format_i64(iv, sbuf, sizeof sbuf, &sn) == MOTE_OK);
        CHECK(n == sn && memcmp(buf, sbuf, n) == 0);
        CHECK(n > 0 && mote_num_parse_i64((const uint8_t *)buf, n, &back) == MOTE_OK && back == iv);
        /* a too-small buffer: the size needed, nothing written */
        char small[24];
        memset(small, 'x', sizeof small);
        CHECK(mote_num_format_i64(iv, small, n - 1, &sn) == MOTE_ERR_SPACE && sn == n);
        CHECK(small[0] == 'x');
    }
}

static void check_format(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    char buf[MOTE_NUM_F64_MAX], sbuf[MOTE_NUM_F64_MAX];
    size_t n = 99, sn = 98;
    mote_err e = mote_num_format_f64(v, buf, sizeof buf, &n);
    CHECK(small_mote_num_format_f64(v, sbuf, sizeof sbuf, &sn) == e);
    CHECK(n == sn && memcmp(buf, sbuf, n) == 0);
    if ((bits & UINT64_C(0x7FF0000000000000)) == UINT64_C(0x7FF0000000000000)) {
        CHECK(e == MOTE_ERR_NOT_FINITE && n == 0);
        return;
    }
    CHECK(e == MOTE_OK);
    CHECK(n > 0 && n <= MOTE_NUM_F64_MAX);
    double back = 0;
    CHECK(mote_num_parse_f64((const uint8_t *)buf, n, &back) == MOTE_OK);
    CHECK(bits_of(back) == bits);
    /* a too-small buffer gets nothing, and the size needed */
    char small[MOTE_NUM_F64_MAX];
    memset(small, 'x', sizeof small);
    CHECK(mote_num_format_f64(v, small, n - 1, &sn) == MOTE_ERR_SPACE && sn == n);
    CHECK(small[0] == 'x');

    char d[17];
    int ex, nd = mote_num_f64_digits(v, d, &ex);
    if ((bits << 1) == 0) {
        CHECK(nd == 0);
        return;
    }
    char d2[17];
    int ex2, nd2 = small_mote_num_f64_digits(v, d2, &ex2);
    CHECK(nd >= 1 && nd <= 17 && nd == nd2 && ex == ex2 && memcmp(d, d2, (size_t)nd) == 0);
    CHECK(d[0] != '0' && d[nd - 1] != '0');
    if (nd == 1) return;
    /* shortest: the (nd-1)-digit decimals nearest |v| and their neighbours
     * all fail to round-trip */
    double av = v < 0 ? -v : v;
    char s[64];
    snprintf(s, sizeof s, "%.*e", nd - 2, av);
    uint64_t m = 0;
    int sn2 = 0;
    for (const char *p = s; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') { m = m * 10 + (uint64_t)(*p - '0'); sn2++; }
    int sexp = atoi(strchr(s, 'e') + 1) + 1 - sn2;
    for (int delta = -1; delta <= 1; delta++) {
        char cand[64];
        snprintf(cand, sizeof cand, "%" PRIu64 "e%d", m + (uint64_t)(int64_t)delta, sexp);
        CHECK(bits_of(strtod(cand, NULL)) != bits_of(av));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* bounded work: long inputs are still linear, but keep replay quick */
    if (size > (1u << 20)) size = 1u << 20;
    char *z = malloc(size + 1);
    if (!z) return 0;
    memcpy(z, data, size);
    z[size] = 0;
    check_float_parse(data, size, z);
    check_int_parse(data, size, z);
    free(z);
    if (size >= 8) {
        uint64_t bits;
        memcpy(&bits, data, 8);
        check_format(bits);
        check_format(bits & UINT64_C(0x800FFFFFFFFFFFFF)); /* subnormals */
        check_format(bits & UINT64_C(0xFFF0000000000000)); /* powers of two */
    }
    return 0;
}
