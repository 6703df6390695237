/* test_cql_literal.c - cqlsh literals <-> value bytes (mote/cql_literal.h),
 * and mote_cql_find_duplicate. libc's strtof/strtod/inet_pton/inet_ntop
 * serve as oracles here (the library itself uses none of them). */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mote/be.h"
#include "mote/cql_literal.h"
#include "test_rounds.h"

static mote_cql_type nodes[64];
static uint8_t block[1 << 16];
static mote_arena scratch;

static const mote_cql_type *type(const char *text)
{
    const mote_cql_type *t;
    if (mote_cql_type_parse(text, strlen(text), nodes, 64, NULL, &t) != MOTE_OK) fail_msg("type %s", text);
    return t;
}

static void init_scratch(void)
{
    assert_int_equal(mote_arena_init(&scratch, block, sizeof block, NULL, NULL), MOTE_OK);
}

/* Parse lit as t into out; returns the error, *n the size. */
static mote_err parse(const mote_cql_type *t, const char *lit, uint8_t *out, size_t cap, size_t *n,
                      mote_cql_literal_error *err)
{
    return mote_cql_literal_parse(t, lit, strlen(lit), out, cap, n, &scratch, err);
}

/* Format bytes of t into a NUL-terminated static string. */
static const char *format(const mote_cql_type *t, const uint8_t *in, size_t len)
{
    static char out[4096];
    size_t n = 0;
    mote_err e = mote_cql_literal_format(t, in, len, out, sizeof out - 1, &n, &scratch);
    if (e) fail_msg("format: %s", mote_err_name(e));
    out[n] = '\0';
    return out;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Literal -> bytes -> literal -> the same bytes, for every kind of value. */
static void literals_round_trip(void **state)
{
    (void)state;
    init_scratch();
    static const char *const cases[][3] = {
        {"list<int>", "[1, -2, 2147483647]", "[1, -2, 2147483647]"},
        {"set<text>", "{'a', 'it''s'}", "{'a', 'it''s'}"},
        {"map<text, double>", "{'x': 0.1, 'y': -1e+20}", "{'x': 0.1, 'y': -1e+20}"},
        {"tuple<int, text, boolean>", "(1, null, TRUE)", "(1, null, true)"},
        {"vector<float, 3>", "[1.0, 0.1, -Infinity]", "[1, 0.1, -Infinity]"},
        {"blob", "0xCAFE", "0xcafe"},
        {"varint", "-123456789012345678901234567890", "-123456789012345678901234567890"},
        {"decimal", "-1.250", "-1.250"},
        {"decimal", "1E+3", "1E+3"},
        {"decimal", "0.00000012", "1.2E-7"},
        {"date", "'2024-02-29'", "'2024-02-29'"},
        {"time", "'13:14:15.5'", "'13:14:15.500000000'"},
        {"timestamp", "'2024-01-02 03:04:05.678+0100'", "1704161045678"},
        {"duration", "-1y2mo3w4d5h6m7s8ms9us10ns", "-14mo25d18367008009010ns"},
        {"uuid", "'123e4567-e89b-12d3-a456-426614174000'", "123e4567-e89b-12d3-a456-426614174000"},
        {"inet", "'::ffff:1.2.3.4'", "'1.2.3.4'"},
        {"inet", "'2001:db8::1'", "'2001:db8::1'"},
        {"float", "NaN", "NaN"},
        {"double", "  3.5e-324 ", "5e-324"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mote_cql_type *t = type(cases[i][0]);
        uint8_t a[512], b[512];
        size_t na = 0, nb = 0;
        mote_cql_literal_error err = {0, NULL};
        mote_err e = parse(t, cases[i][1], a, sizeof a, &na, &err);
        if (e) fail_msg("%s %s: %s at %zu", cases[i][0], cases[i][1], mote_err_name(e), err.offset);
        const char *lit = format(t, a, na);
        if (strcmp(lit, cases[i][2]) != 0) fail_msg("%s %s printed %s", cases[i][0], cases[i][1], lit);
        assert_int_equal(parse(t, lit, b, sizeof b, &nb, NULL), MOTE_OK);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
    }
}

/* Errors carry a code and the offset of the element at fault. */
static void errors_have_codes_and_offsets(void **state)
{
    (void)state;
    init_scratch();
    static const struct {
        const char *type, *lit;
        mote_err code;
        size_t offset;
    } cases[] = {
        {"list<int>", "[1, 2", MOTE_ERR_SYNTAX, 5},
        {"list<int>", "[1, x]", MOTE_ERR_BAD_VALUE, 4},
        {"list<int>", "[1] x", MOTE_ERR_SYNTAX, 4},
        {"text", "'abc", MOTE_ERR_SYNTAX, 0},
        {"int", "2147483648", MOTE_ERR_MISMATCH, 0},
        {"bigint", "9223372036854775808", MOTE_ERR_RANGE, 0},
        {"float", "1e39", MOTE_ERR_RANGE, 0},
        {"double", "1e309", MOTE_ERR_RANGE, 0},
        {"map<int, int>", "{1 2}", MOTE_ERR_SYNTAX, 3},
        {"list<int>", "[1, null]", MOTE_ERR_UNEXPECTED_NULL, 4},
        {"vector<float, 2>", "[1]", MOTE_ERR_DIMENSION, 2},
        {"date", "'2021-02-30'", MOTE_ERR_BAD_VALUE, 0},
        /* a date's year past int64 milliseconds (found by fuzz_cql_literal:
         * the multiply overflowed) */
        {"timestamp", "'300232024-01-03T03:04'", MOTE_ERR_BAD_VALUE, 0},
        {"timestamp", "'-300232024-01-03'", MOTE_ERR_BAD_VALUE, 0},
        {"time", "86400000000000", MOTE_ERR_RANGE, 0},
        {"time", "'12:34'", MOTE_ERR_BAD_VALUE, 0}, /* seconds are required (Cassandra's TimeSerializer) */
        {"decimal", "1.5e", MOTE_ERR_BAD_VALUE, 0},
        {"decimal", "1e1099511627777", MOTE_ERR_BAD_VALUE, 0}, /* exponent past 2^40 */
        {"duration", "1x", MOTE_ERR_BAD_VALUE, 0},
        {"inet", "'1.2.3.04'", MOTE_ERR_BAD_VALUE, 0},
        {"inet", "'1::2::3'", MOTE_ERR_BAD_VALUE, 0},
        {"timeuuid", "123e4567-e89b-42d3-a456-426614174000", MOTE_ERR_BAD_VALUE, 0},
        {"blob", "0xcafq", MOTE_ERR_BAD_VALUE, 4},
        {"list<int>", "[1,\n 2,\n zz]", MOTE_ERR_BAD_VALUE, 9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mote_cql_literal_error err = {0, NULL};
        size_t n = 0;
        uint8_t out[64];
        mote_err e = parse(type(cases[i].type), cases[i].lit, out, sizeof out, &n, &err);
        if (e != cases[i].code || err.offset != cases[i].offset || !err.message)
            fail_msg("%s %s: %s at %zu, want %s at %zu", cases[i].type, cases[i].lit, mote_err_name(e),
                     err.offset, mote_err_name(cases[i].code), cases[i].offset);
    }
    /* a NUL byte is an ordinary character: refused, not an end */
    mote_cql_literal_error err;
    size_t n;
    assert_int_equal(mote_cql_literal_parse(type("int"), "1\0 2", 4, NULL, 0, &n, &scratch, &err),
                     MOTE_ERR_SYNTAX);
    assert_int_equal(err.offset, 1);
    /* an empty literal as (NULL, 0) is refused as "" is (the parser formed
     * NULL + 0, undefined in C: clang's UBSan stopped here, gcc's does not
     * flag it) */
    mote_cql_literal_error err0;
    assert_int_equal(mote_cql_literal_parse(type("int"), NULL, 0, NULL, 0, &n, &scratch, &err),
                     mote_cql_literal_parse(type("int"), "", 0, NULL, 0, &n, &scratch, &err0));
    assert_int_equal(err.offset, err0.offset);
    assert_int_not_equal(mote_cql_literal_parse(type("list<int>"), NULL, 0, NULL, 0, &n, &scratch, &err),
                         MOTE_OK);
}

/* Output too small: MOTE_ERR_SPACE with the size needed, both ways. */
static void space_is_reported_with_the_size(void **state)
{
    (void)state;
    init_scratch();
    const mote_cql_type *t = type("list<text>");
    size_t need = 0, n = 0;
    uint8_t out[64];
    /* measuring is "too small" as well */
    assert_int_equal(parse(t, "['abc', 'de']", NULL, 0, &need, NULL), MOTE_ERR_SPACE);
    assert_int_equal(need, 4 + 4 + 3 + 4 + 2);
    assert_int_equal(parse(t, "['abc', 'de']", out, need - 1, &n, NULL), MOTE_ERR_SPACE);
    assert_int_equal(n, need);
    assert_int_equal(parse(t, "['abc', 'de']", out, need, &n, NULL), MOTE_OK);
    char text[8];
    assert_int_equal(mote_cql_literal_format(t, out, n, text, sizeof text, &need, NULL), MOTE_ERR_SPACE);
    assert_int_equal(need, strlen("['abc', 'de']"));
    need = 0;
    assert_int_equal(mote_cql_literal_format(t, out, n, NULL, 0, &need, NULL), MOTE_ERR_SPACE);
    assert_int_equal(need, strlen("['abc', 'de']"));
    /* an empty value needs nothing: measuring it fits */
    assert_int_equal(parse(type("text"), "''", NULL, 0, &need, NULL), MOTE_OK);
    assert_int_equal(need, 0);
}

/* Every capacity from 0 to the size and one more, both ways, for values of
 * many types (a capacity probe's core: it found nothing here, and keeps
 * finding regressions cheaply): too small is SPACE with the size, no byte
 * written past the capacity; exactly enough gives what a large buffer
 * gets; scratch is restored. */
static void every_capacity_both_ways(void **state)
{
    (void)state;
    init_scratch();
    static const char *const cases[][2] = {
        {"int", "42"}, {"text", "'it''s'"}, {"blob", "0xcafe"}, {"list<int>", "[1, 2, 3]"},
        {"map<text, frozen<list<int>>>", "{'a': [1], 'b': []}"}, {"tuple<int, text>", "(5, null)"},
        {"tuple<int, text>", "(5)"}, {"vector<float, 3>", "[1.5, 2, 3]"},
        {"vector<text, 2>", "['x', '']"}, {"varint", "123456789012345678901234567890"},
        {"decimal", "-1.250E+3"}, {"double", "0.1"}, {"float", "NaN"},
        {"uuid", "123e4567-e89b-12d3-a456-426614174000"}, {"inet", "'::1'"}, {"date", "'2024-02-29'"},
        {"time", "'12:34:56.789'"}, {"timestamp", "'2024-01-01T00:00:00Z'"},
        {"duration", "1y2mo3w4d5h6m7s8ms9us10ns"}, {"list<frozen<set<int>>>", "[{1}, {}]"},
    };
    enum { GUARD = 8 };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mote_cql_type *t = type(cases[i][0]);
        const char *lit = cases[i][1];
        uint8_t want[256];
        char text[256];
        size_t need = 0, tneed = 0, n;
        assert_int_equal(parse(t, lit, want, sizeof want, &need, NULL), MOTE_OK);
        assert_int_equal(mote_cql_literal_format(t, want, need, text, sizeof text, &tneed, &scratch), MOTE_OK);
        const mote_arena_mark m = mote_arena_save(&scratch);
        for (size_t cap = 0; cap <= need + 1; cap++) {
            uint8_t out[256 + GUARD];
            memset(out, 0xa5, sizeof out);
            n = 0;
            mote_err e = parse(t, lit, out, cap, &n, NULL);
            if (e != (cap < need ? MOTE_ERR_SPACE : MOTE_OK) || n != need ||
                (cap >= need && memcmp(out, want, need) != 0))
                fail_msg("parse %s %s, room %zu of %zu: %s, %zu", cases[i][0], lit, cap, need,
                         mote_err_name(e), n);
            for (size_t k = cap; k < cap + GUARD; k++)
                if (out[k] != 0xa5) fail_msg("parse %s %s, room %zu: byte %zu written", cases[i][0], lit, cap, k);
        }
        for (size_t cap = 0; cap <= tneed + 1; cap++) {
            char out[256 + GUARD];
            memset(out, 0xa5, sizeof out);
            n = 0;
            mote_err e = mote_cql_literal_format(t, want, need, out, cap, &n, &scratch);
            if (e != (cap < tneed ? MOTE_ERR_SPACE : MOTE_OK) || n != tneed ||
                (cap >= tneed && memcmp(out, text, tneed) != 0))
                fail_msg("format %s %s, room %zu of %zu: %s, %zu", cases[i][0], lit, cap, tneed,
                         mote_err_name(e), n);
            for (size_t k = cap; k < cap + GUARD; k++)
                if ((uint8_t)out[k] != 0xa5) fail_msg("format %s %s, room %zu: byte %zu written", cases[i][0], lit, cap, k);
        }
        const mote_arena_mark m2 = mote_arena_save(&scratch);
        assert_true(m.cur == m2.cur && m.used == m2.used);
        /* measuring */
        assert_int_equal(parse(t, lit, NULL, 0, &n, NULL), MOTE_ERR_SPACE);
        assert_int_equal(n, need);
        assert_int_equal(mote_cql_literal_format(t, want, need, NULL, 0, &n, &scratch), MOTE_ERR_SPACE);
        assert_int_equal(n, tneed);
    }
}

/* Scratch is needed only for strings holding '', blobs, varints, decimals. */
static void scratch_only_when_needed(void **state)
{
    (void)state;
    size_t n;
    uint8_t out[64];
    mote_cql_literal_error err;
    const mote_cql_type *t = type("tuple<text, int, double>");
    assert_int_equal(mote_cql_literal_parse(t, "('plain', 1, 2.5)", 17, out, sizeof out, &n, NULL, &err), MOTE_OK);
    assert_int_equal(mote_cql_literal_parse(t, "('it''s', 1, 2.5)", 17, out, sizeof out, &n, NULL, &err),
                     MOTE_ERR_NOMEM);
    assert_int_equal(err.offset, 1);
    /* a varint longer than 64 bytes prints only with scratch */
    uint8_t big[100];
    memset(big, 0x7f, sizeof big);
    char text[512];
    t = type("varint");
    assert_int_equal(mote_cql_literal_format(t, big, sizeof big, text, sizeof text, &n, NULL), MOTE_ERR_NOMEM);
    init_scratch();
    assert_int_equal(mote_cql_literal_format(t, big, sizeof big, text, sizeof text, &n, &scratch), MOTE_OK);
    assert_int_equal(mote_arena_save(&scratch).used, 0); /* given back */
    /* scratch with room for the copy but not for the digits: NOMEM, and
     * what was taken is given back */
    static uint8_t tight_mem[200];
    mote_arena tight;
    assert_int_equal(mote_arena_init(&tight, tight_mem, sizeof tight_mem, NULL, NULL), MOTE_OK);
    const size_t used0 = mote_arena_save(&tight).used;
    assert_int_equal(mote_cql_literal_format(t, big, sizeof big, text, sizeof text, &n, &tight), MOTE_ERR_NOMEM);
    assert_int_equal(mote_arena_save(&tight).used, used0);
    /* a decimal's unscaled value the same way (measured first) */
    uint8_t dec[4 + sizeof big] = {0, 0, 0, 2};
    memcpy(dec + 4, big, sizeof big);
    t = type("decimal");
    assert_int_equal(mote_cql_literal_format(t, dec, sizeof dec, text, sizeof text, &n, NULL), MOTE_ERR_NOMEM);
    assert_int_equal(mote_cql_literal_format(t, dec, sizeof dec, text, sizeof text, &n, &tight), MOTE_ERR_NOMEM);
    assert_int_equal(mote_cql_literal_format(t, dec, sizeof dec, text, sizeof text, &n, &scratch), MOTE_OK);
    assert_int_equal(n, 242); /* 241 digits, "." after the 239th (scale 2) */
    assert_int_equal(text[239], '.');
}

/* Reference: the fewest digits (1..9) that strtof reads back as f. */
static int ref_float_digits(float f)
{
    char buf[64];
    for (int p = 1; p <= 9; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, (double)f);
        if (strtof(buf, NULL) == f) return p;
    }
    return 9;
}

/* Significant digits of a printed number: no leading or trailing zeros. */
static int digits_of(const char *s)
{
    char d[64];
    int n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9' && (n || *s != '0')) d[n++] = *s;
    while (n && d[n - 1] == '0') n--;
    return n;
}

/* Floats: what format prints reads back to the same bits (through mote and
 * through strtof), with no more digits than the shortest. */
static void floats_print_shortest_and_read_back(void **state)
{
    (void)state;
    const mote_cql_type *t = type("float");
    for (int i = 0; i < test_rounds(200000); i++) {
        uint32_t bits = (uint32_t)next();
        if (i < 1000) bits = (uint32_t)i; /* subnormals */
        uint8_t in[4], back[4];
        mote_be_store32(in, bits);
        float f = mote_be_loadf32(in);
        if (isnan(f) || isinf(f)) continue;
        const char *lit = format(t, in, 4);
        size_t n;
        assert_int_equal(mote_cql_literal_parse(t, lit, strlen(lit), back, 4, &n, NULL, NULL), MOTE_OK);
        if (memcmp(in, back, 4) != 0) fail_msg("%08x printed %s reads back %08x", bits, lit, mote_be_load32(back));
        if (strtof(lit, NULL) != f && f == f) fail_msg("%08x printed %s, strtof disagrees", bits, lit);
        if (f != 0 && digits_of(lit) > ref_float_digits(f))
            fail_msg("%08x printed %s, %d digits suffice", bits, lit, ref_float_digits(f));
    }
}

/* Float parsing is correctly rounded, also where the nearest double is a
 * midpoint of two floats (double rounding): text just above, on and below
 * every such midpoint, against strtof. */
static void float_parse_is_correctly_rounded(void **state)
{
    (void)state;
    const mote_cql_type *t = type("float");
    char exact[800], text[900];
    for (int i = 0; i < 20000; i++) {
        uint32_t bits = (uint32_t)next() & 0x7f7fffffu;
        if (bits >= 0x7f7fffffu) continue;
        float a = mote_be_loadf32((uint8_t[]){(uint8_t)(bits >> 24), (uint8_t)(bits >> 16), (uint8_t)(bits >> 8), (uint8_t)bits});
        uint32_t b1 = bits + 1;
        float b = mote_be_loadf32((uint8_t[]){(uint8_t)(b1 >> 24), (uint8_t)(b1 >> 16), (uint8_t)(b1 >> 8), (uint8_t)b1});
        double mid = ((double)a + (double)b) / 2;
        snprintf(exact, sizeof exact, "%.760e", mid); /* exact: a midpoint has few digits */
        char *e = strchr(exact, 'e');
        char *z = e;
        while (z[-1] == '0') z--;
        static const char *const tails[] = {"", "00000000000000000000000000000001", "-"};
        for (int k = 0; k < 3; k++) {
            if (k < 2) {
                snprintf(text, sizeof text, "%.*s%s%s", (int)(z - exact), exact, tails[k], e);
            } else { /* just below: the last digit one less, then 9s */
                int len = (int)(z - exact);
                memcpy(text, exact, (size_t)len);
                int j = len - 1;
                while (text[j] == '0' || text[j] == '.') {
                    if (text[j] == '0') text[j] = '9';
                    j--;
                }
                text[j]--;
                snprintf(text + len, sizeof text - (size_t)len, "999999999999999999999999%s", e);
            }
            uint8_t out[4];
            size_t n;
            mote_err err = mote_cql_literal_parse(t, text, strlen(text), out, 4, &n, NULL, NULL);
            assert_int_equal(err, MOTE_OK);
            float want = strtof(text, NULL);
            if (mote_be_loadf32(out) != want) fail_msg("%s: got %a want %a", text, (double)mote_be_loadf32(out), (double)want);
        }
    }
}

/* The same for midpoints and texts that reach the exact comparison by other
 * spellings: plain decimals with leading zeros after the point, more
 * significant digits than the comparison keeps (a nonzero digit far out
 * decides), and the midpoint of FLT_MAX and 2^128, whose upper side is
 * infinity: below it FLT_MAX, on and above it out of range (ties to even:
 * FLT_MAX's last bit is 1), as strtof says. */
static void float_midpoints_in_other_spellings(void **state)
{
    (void)state;
    const mote_cql_type *t = type("float");
    static char text[2400];
    for (int i = 0; i < 2000; i++) {
        /* floats from 2^-40 to 1: their midpoints have at most 64 decimals */
        const uint32_t bits = 0x2b800000u + (uint32_t)next() % (0x3f800000u - 0x2b800000u);
        uint8_t be[4] = {(uint8_t)(bits >> 24), (uint8_t)(bits >> 16), (uint8_t)(bits >> 8), (uint8_t)bits};
        const uint32_t b1 = bits + 1;
        uint8_t be1[4] = {(uint8_t)(b1 >> 24), (uint8_t)(b1 >> 16), (uint8_t)(b1 >> 8), (uint8_t)b1};
        const double mid = ((double)mote_be_loadf32(be) + (double)mote_be_loadf32(be1)) / 2;
        int len = snprintf(text, sizeof text, "%.80f", mid); /* "0.000...": exact */
        while (text[len - 1] == '0') len--;
        for (int k = 0; k < 3; k++) {
            int n = len;
            if (k == 1) { /* a 1 after 1000 zeros: just above */
                memset(text + n, '0', 1000);
                n += 1000;
                text[n++] = '1';
            } else if (k == 2) { /* with an exponent: the same value */
                n += snprintf(text + n, sizeof text - (size_t)n, "0e0");
            }
            uint8_t out[4];
            size_t w;
            assert_int_equal(mote_cql_literal_parse(t, text, (size_t)n, out, 4, &w, NULL, NULL), MOTE_OK);
            text[n] = 0;
            const float want = strtof(text, NULL);
            if (mote_be_loadf32(out) != want)
                fail_msg("%.60s...: got %a want %a", text, (double)mote_be_loadf32(out), (double)want);
        }
    }
    /* 2^128 - 2^103: FLT_MAX and infinity's midpoint */
    static const struct {
        const char *text;
        mote_err want;
    } edge[] = {
        {"340282356779733661637539395458142568447.999", MOTE_OK},
        {"-340282356779733661637539395458142568447.999", MOTE_OK},
        {"340282356779733661637539395458142568448", MOTE_ERR_RANGE},
        {"340282356779733661637539395458142568448.001", MOTE_ERR_RANGE},
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        uint8_t out[4];
        size_t w;
        const mote_err e = mote_cql_literal_parse(t, edge[i].text, strlen(edge[i].text), out, 4, &w, NULL, NULL);
        if (e != edge[i].want) fail_msg("%s: %s, want %s", edge[i].text, mote_err_name(e), mote_err_name(edge[i].want));
        if (e == MOTE_OK) assert_true(mote_be_loadf32(out) == strtof(edge[i].text, NULL));
        if (e == MOTE_OK) assert_true(mote_be_loadf32(out) == (edge[i].text[0] == '-' ? -FLT_MAX : FLT_MAX));
    }
}

/* Doubles: parse matches strtod, print reads back. */
static void doubles_round_trip(void **state)
{
    (void)state;
    const mote_cql_type *t = type("double");
    for (int i = 0; i < test_rounds(50000); i++) {
        uint64_t bits = next();
        uint8_t in[8], back[8];
        mote_be_store64(in, bits);
        double d = mote_be_loadf64(in);
        if (isnan(d)) continue;
        const char *lit = format(t, in, 8);
        size_t n;
        assert_int_equal(mote_cql_literal_parse(t, lit, strlen(lit), back, 8, &n, NULL, NULL), MOTE_OK);
        assert_memory_equal(in, back, 8);
        if (!isinf(d) && strtod(lit, NULL) != d) fail_msg("%s", lit);
    }
}

/* inet: text as glibc's inet_ntop writes it, and parsing as inet_pton. */
static void inet_matches_libc(void **state)
{
    (void)state;
    init_scratch();
    const mote_cql_type *t = type("inet");
    for (int i = 0; i < 20000; i++) {
        uint8_t a[16];
        for (int k = 0; k < 16; k += 2) {
            uint64_t r = next();
            int z = (int)(r % 3) != 0; /* many zero groups: runs to compress */
            a[k] = z ? 0 : (uint8_t)(r >> 8);
            a[k + 1] = z ? (r & 0x10 ? 1 : 0) : (uint8_t)(r >> 16);
        }
        if (i % 7 == 0) memcpy(a, (uint8_t[]){0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 12);
        bool v4 = i % 5 == 0;
        char want[64], lit[80];
        inet_ntop(v4 ? AF_INET : AF_INET6, a, want, sizeof want);
        snprintf(lit, sizeof lit, "'%s'", want);
        const char *got = format(t, a, v4 ? 4 : 16);
        if (strcmp(got, lit) != 0) fail_msg("format %s, inet_ntop %s", got, lit);
        uint8_t back[16];
        size_t n;
        assert_int_equal(mote_cql_literal_parse(t, lit, strlen(lit), back, 16, &n, NULL, NULL), MOTE_OK);
        bool mapped = !v4 && memcmp(a, (uint8_t[]){0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff}, 12) == 0;
        if (mapped) {
            assert_int_equal(n, 4);
            assert_memory_equal(back, a + 12, 4);
        } else {
            assert_int_equal(n, v4 ? 4 : 16);
            assert_memory_equal(back, a, n);
        }
    }
    static const char *const bad[] = {"'1.2.3'", "'1.2.3.4.5'", "'256.1.1.1'", "'01.2.3.4'", "':1'",
                                      "'1:'", "'1:2:3:4:5:6:7:8:9'", "'1::2:3:4:5:6:7:8'", "'12345::'",
                                      "':::'", "'1:2:3:4:5:6:7'", "'::1.2.3'", "''"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t out[16], p[16];
        size_t n;
        char raw[64];
        snprintf(raw, sizeof raw, "%.*s", (int)strlen(bad[i]) - 2, bad[i] + 1);
        assert_int_equal(inet_pton(AF_INET6, raw, p), 0);
        if (mote_cql_literal_parse(t, bad[i], strlen(bad[i]), out, 16, &n, NULL, NULL) != MOTE_ERR_BAD_VALUE)
            fail_msg("%s accepted", bad[i]);
    }
}

/* Duplicates: accepted by validate (as the server does), found on request. */
static void duplicates_are_found_on_request(void **state)
{
    (void)state;
    init_scratch();
    static const struct {
        const char *type, *lit;
        mote_err code;
        size_t index;
    } cases[] = {
        {"set<int>", "{1, 2, 1}", MOTE_ERR_DUPLICATE, 2},
        {"set<int>", "{1, 2, 3}", MOTE_OK, 0},
        {"set<text>", "{'', 'a', ''}", MOTE_ERR_DUPLICATE, 2},
        {"map<text, int>", "{'a': 1, 'b': 1, 'a': 3}", MOTE_ERR_DUPLICATE, 2},
        {"map<text, int>", "{'a': 1, 'b': 1}", MOTE_OK, 0},
        {"map<int, int>", "{1: 2, 2: 3}", MOTE_OK, 0}, /* a key equal to a value is fine */
        {"list<int>", "[1, 1]", MOTE_OK, 0},
        {"set<frozen<set<int>>>", "{{1}, {1}}", MOTE_ERR_DUPLICATE, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mote_cql_type *t = type(cases[i].type);
        uint8_t out[256];
        size_t n, at = 99;
        assert_int_equal(parse(t, cases[i].lit, out, sizeof out, &n, NULL), MOTE_OK);
        assert_int_equal(mote_cql_validate(t, out, n), MOTE_OK);
        mote_err e = mote_cql_find_duplicate(t, out, n, &at);
        if (e != cases[i].code || (e && at != cases[i].index))
            fail_msg("%s %s: %s at %zu", cases[i].type, cases[i].lit, mote_err_name(e), at);
    }
    /* invalid bytes: validate's error */
    const uint8_t bad[] = {0, 0, 0, 1, 0, 0, 0, 4, 0};
    assert_int_equal(mote_cql_find_duplicate(type("set<int>"), bad, sizeof bad, NULL), MOTE_ERR_TRUNCATED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(literals_round_trip),
        cmocka_unit_test(errors_have_codes_and_offsets),
        cmocka_unit_test(space_is_reported_with_the_size),
        cmocka_unit_test(every_capacity_both_ways),
        cmocka_unit_test(scratch_only_when_needed),
        cmocka_unit_test(floats_print_shortest_and_read_back),
        cmocka_unit_test(float_parse_is_correctly_rounded),
        cmocka_unit_test(float_midpoints_in_other_spellings),
        cmocka_unit_test(doubles_round_trip),
        cmocka_unit_test(inet_matches_libc),
        cmocka_unit_test(duplicates_are_found_on_request),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
