/* test_num.c - exact number parsing and shortest formatting (mote/num.h).
 *
 * The library build is checked against pinned values and against glibc's
 * strtod (correctly rounded) as an oracle. A second copy of src/num.c,
 * compiled with MOTE_NUM_SMALL=1 (computed powers instead of the table, as
 * on microcontrollers), is linked in with every symbol renamed small_mote_*
 * (tests/copies/meson.build), and every check runs on both. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mote/num.h"
#include "test_data.h"
#include "test_rounds.h"

/* ---- the MOTE_NUM_SMALL copy (tests/copies/meson.build) ---- */
#include "small_num.h"

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

typedef mote_err (*parse_fn)(const uint8_t *, size_t, double *);
static const parse_fn parsers[2] = {mote_num_parse_f64, small_mote_num_parse_f64};

#if !MOTE_SMALL
/* num.c's entry with plain decimals first (src/mote_private.h; lp's
 * floats): the same results as mote_num_parse_f64. */
mote_err mote__num_parse_f64_plain(const uint8_t *s, size_t n, double *out);
#endif

/* Parse with both builds (and the plain-first entry); all must agree on
 * code and bits. */
static mote_err parse_both(const char *s, double *out)
{
    double a = 12345.0, b = 12345.0;
    size_t n = strlen(s);
    mote_err ea = parsers[0]((const uint8_t *)s, n, &a);
    mote_err eb = parsers[1]((const uint8_t *)s, n, &b);
    if (ea != eb || bits_of(a) != bits_of(b)) {
        fprintf(stderr, "table/small disagree on '%.80s': %d %d %a %a\n", s, ea, eb, a, b);
        fail();
    }
#if !MOTE_SMALL
    double c = 12345.0;
    mote_err ec = mote__num_parse_f64_plain((const uint8_t *)s, n, &c);
    if (ec != ea || bits_of(c) != bits_of(a)) {
        fprintf(stderr, "plain entry disagrees on '%.80s': %d %d %a %a\n", s, ec, ea, c, a);
        fail();
    }
#endif
    if (ea == MOTE_OK) *out = a;
    return ea;
}

/* Expect OK and exactly these bits. */
static void expect_bits(const char *s, uint64_t want)
{
    double d;
    mote_err e = parse_both(s, &d);
    if (e != MOTE_OK || bits_of(d) != want) {
        fprintf(stderr, "parse '%.80s': err %d got %016" PRIx64 " want %016" PRIx64 "\n",
                s, e, bits_of(d), want);
        fail();
    }
}

static void expect_err(const char *s, mote_err want);

/* Expect OK and the same bits glibc strtod gives (correctly rounded). */
static void expect_strtod(const char *s)
{
    errno = 0;
    double want = strtod(s, NULL);
    if (isinf(want)) expect_err(s, MOTE_ERR_RANGE);
    else expect_bits(s, bits_of(want));
}

static void expect_err(const char *s, mote_err want)
{
    double d = 42.0;
    mote_err e = parse_both(s, &d);
    if (e != want) {
        fprintf(stderr, "parse '%.80s': err %d want %d\n", s, e, want);
        fail();
    }
    assert_true(bits_of(d) == bits_of(42.0)); /* *out untouched on error */
}

/* Simple and classic hard cases, pinned to their IEEE bits. */
static void parse_f64_pinned_values(void **state)
{
    (void)state;
    expect_bits("0", 0);
    expect_bits("-0", UINT64_C(0x8000000000000000));
    expect_bits("0.0e-999999999999", 0);
    expect_bits("1", UINT64_C(0x3FF0000000000000));
    expect_bits("0.1", UINT64_C(0x3FB999999999999A));
    expect_bits("12.5", UINT64_C(0x4029000000000000));
    expect_bits("1e23", UINT64_C(0x44B52D02C7E14AF6)); /* 9.999999999999999e22 */
    expect_bits("8.98846567431158e307", UINT64_C(0x7FE0000000000000)); /* 2^1023 */
    /* 2^53 + 1 is halfway between 2^53 and 2^53 + 2: ties to even, 2^53 */
    expect_bits("9007199254740993", UINT64_C(0x4340000000000000));
    expect_bits("9007199254740993.0000000000000000000000001", UINT64_C(0x4340000000000001));
    expect_bits("9007199254740995", UINT64_C(0x4340000000000002));
    /* 2^52 + 0.5 is a tie that needs 20 digits */
    expect_bits("4503599627370496.5", UINT64_C(0x4330000000000000));
    expect_bits("4503599627370497.5", UINT64_C(0x4330000000000002));
    /* extremes */
    expect_bits("1.7976931348623157e308", UINT64_C(0x7FEFFFFFFFFFFFFF));
    expect_bits("2.2250738585072014e-308", UINT64_C(0x0010000000000000));
    expect_bits("2.2250738585072011e-308", UINT64_C(0x000FFFFFFFFFFFFF));
    expect_bits("2.2250738585072012e-308", UINT64_C(0x0010000000000000));
    expect_bits("4.9406564584124654e-324", 1);
    expect_bits("5e-324", 1);
    expect_bits("2.4703282292062328e-324", 1);  /* just above half of 2^-1074 */
    expect_bits("2.4703282292062327e-324", 0);  /* just below */
    expect_bits("1e-400", 0);
    expect_bits("-1e-400", UINT64_C(0x8000000000000000));
    /* largest value that still rounds down to DBL_MAX */
    expect_bits("1.7976931348623158e308", UINT64_C(0x7FEFFFFFFFFFFFFF));
    expect_err("1.7976931348623159e308", MOTE_ERR_RANGE);
    expect_err("1e309", MOTE_ERR_RANGE);
    expect_err("-1e309", MOTE_ERR_RANGE);
    expect_err("1e999999999999999999999", MOTE_ERR_RANGE);
    expect_bits("1e-999999999999999999999", 0);
    expect_bits("0e999999999999999999999", 0);
    expect_bits("0.0000000001e10", UINT64_C(0x3FF0000000000000));
    expect_bits("10000000000e-10", UINT64_C(0x3FF0000000000000));
    /* syntax variants that are accepted */
    expect_bits("1.", UINT64_C(0x3FF0000000000000));
    expect_bits(".5", UINT64_C(0x3FE0000000000000));
    expect_bits("+.5e1", UINT64_C(0x4014000000000000));
    expect_bits("000000000000000000000000001", UINT64_C(0x3FF0000000000000));
    expect_bits("1E2", UINT64_C(0x4059000000000000));
    expect_bits("1e+2", UINT64_C(0x4059000000000000));
    expect_bits("100e-2", UINT64_C(0x3FF0000000000000));
}

static void parse_f64_matches_strtod_on_hard_cases(void **state)
{
    (void)state;
    static const char *cases[] = {
        "0.000123", "98765.4321", "-1.5e-7", "1.2345678901234567890123", "123456789012345678901",
        "3.14159265358979323846264338327950288419716939937510", "2.718281828459045",
        "7.2057594037927933e16", "9223372036854775807", "18446744073709551615",
        "18446744073709551616", "1e22", "1e-22", "1e-23", "1e27", "1e28", "1e300",
        "4.35e-322", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "0.500000000000000166533453693773481063544750213623046875",
        "3.0517578125e-05", "2.2250738585072011e-308", "2.225073858507201136057409796709131975934819546351645648e-308",
        "1.797693134862315708145274237317043567981e+308",
        "1.797693134862315807937289714053034150799e+308",
        "6.631236846766476e-316", "3.2379086165851934e-319", "1448997445238699",
        "5.0e-324", "2.5e-324", "7.4109846876186981626e-324", "123.456e-2", "0.0000000000000000000000000000001",
        "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368",
        "4.940656458412465441765687928682213723650598026143247644255856825006755072702087518652998363616359923797965646954457177309266567103559397963987747960107818781263007131903114045278458171678489821036887186360569987307230500063874091535649843873124733972731696151400317153853980741262385655911710266585566867681870395603106249319452715914924553293054565444011274801297099995419319894090804165633245247571478690147267801593552386115501348035264934720193790268107107491703332226844753335720832431936092382893458368060106011506169809753078342277318329247904982524730776375927247874656084778203734469699533647017972677717585125660551199131504891101451037862738167250955837389733598993664809941164205702637090279242767544565229087538682506419718265533447265625e-324",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_strtod(cases[i]);
        char neg[2048];
        if (cases[i][0] == '-') continue;
        snprintf(neg, sizeof neg, "-%s", cases[i]);
        expect_strtod(neg);
    }
}

/* Halfway points written out with many digits: exact ties, one unit in the
 * 800th digit above and below, and leading/trailing zero padding. */
static void parse_f64_long_inputs_are_exact(void **state)
{
    (void)state;
    static char buf[12000];
    /* exact decimal of the halfway point between 1 and 1 + 2^-52 */
    const char *half = "1.00000000000000011102230246251565404236316680908203125";
    expect_bits(half, UINT64_C(0x3FF0000000000000)); /* tie, even is 1.0 */
    snprintf(buf, sizeof buf, "%s", half);
    size_t n = strlen(buf);
    memset(buf + n, '0', 5000);
    buf[n + 5000] = 0;
    expect_bits(buf, UINT64_C(0x3FF0000000000000));
    buf[n + 4999] = '1';
    expect_bits(buf, UINT64_C(0x3FF0000000000001));
    /* leading zeros: 0.000...0001e5000 = 1 */
    strcpy(buf, "0.");
    memset(buf + 2, '0', 4999);
    strcpy(buf + 2 + 4999, "1e5000");
    expect_bits(buf, UINT64_C(0x3FF0000000000000));
    /* thousands of digits, random, against strtod */
    uint64_t x = 88172645463325252u;
    for (int round = 0; round < 200; round++) {
        size_t len = 20 + (size_t)(round * 53 % 3000);
        size_t p = 0;
        for (size_t k = 0; k < len; k++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            buf[p++] = (char)('0' + x % 10);
            if (k == len / 3) buf[p++] = '.';
        }
        p += (size_t)snprintf(buf + p, 32, "e%d", (int)(x % 700) - 350 - (int)(len / 3));
        buf[p] = 0;
        expect_strtod(buf);
    }
}

/* Exact halfway points between neighbouring doubles, written out in full
 * (up to ~770 significant digits, printed exactly from an x87 long double),
 * then nudged one unit in the last place up or down: ties go to the even
 * neighbour, the nudges decide. This is where only the exact slow path can
 * be right. */
/* (It needs a long double wider than a double for the exact midpoints: where
 * there is none, armhf for one, the test is left out of the list rather
 * than passing with nothing checked.) */
#if LDBL_MANT_DIG >= 64 && LDBL_MAX_EXP > 1024
#define HAVE_WIDE_LONG_DOUBLE 1
static void parse_f64_exact_halfway_points(void **state)
{
    (void)state;
    static char buf[1400];
    uint64_t x = 0xDEADBEEFCAFEF00Du;
    for (int round = 0; round < 3000; round++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t b = x & UINT64_C(0x7FEFFFFFFFFFFFFF);
        if (round % 4 == 0) b &= UINT64_C(0x000FFFFFFFFFFFFF); /* subnormals */
        if (round % 4 == 1) b &= UINT64_C(0x7FF000000000000F); /* binade bottoms */
        if (round % 50 == 2) b = UINT64_C(0x7FEFFFFFFFFFFFFE) + (uint64_t)(round & 1);
        long double lo = from_bits(b), hi = from_bits(b + 1);
        long double mid = (lo + hi) / 2; /* exact: 54 bits fit in 64 */
        if (b + 1 == UINT64_C(0x7FF0000000000000)) mid = lo + (lo - (long double)from_bits(b - 1)) / 2;
        snprintf(buf, sizeof buf, "%.1100Le", mid);
        /* drop trailing zeros of the mantissa (fractions end in 5, large
         * integers in some other non-zero digit) */
        char *e = strchr(buf, 'e');
        assert_non_null(e);
        char expo[16];
        snprintf(expo, sizeof expo, "%s", e);
        size_t k = (size_t)(e - buf);
        while (k > 1 && buf[k - 1] == '0') k--;
        char last = buf[k - 1];
        assert_true(last >= '1' && last <= '9');
        snprintf(buf + k, sizeof buf - k, "%s", expo);
        uint64_t even = (b & 1) ? b + 1 : b;
        if (even == UINT64_C(0x7FF0000000000000)) expect_err(buf, MOTE_ERR_RANGE);
        else expect_bits(buf, even);
        /* one unit in the 1100th place below: rounds down */
        buf[k - 1] = (char)(last - 1);
        snprintf(buf + k, sizeof buf - k, "99999999%s", expo);
        expect_bits(buf, b);
        /* just above: rounds up */
        buf[k - 1] = last;
        snprintf(buf + k, sizeof buf - k, "00000001%s", expo);
        if (b + 1 == UINT64_C(0x7FF0000000000000)) expect_err(buf, MOTE_ERR_RANGE);
        else expect_bits(buf, b + 1);
    }
    /* The same halfway points cut to 16..20 significant digits, and one
     * unit in the last place either side: within the 19 digits of the
     * Eisel-Lemire path, the bits below the mantissa land right next to
     * the halfway point, where it must give up rather than guess. */
    for (int round = 0; round < test_rounds(40000); round++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t b = x & UINT64_C(0x7FEFFFFFFFFFFFFF);
        if (round % 3 == 0) b &= UINT64_C(0x7FF00000000000FF); /* short mantissas */
        long double mid = ((long double)from_bits(b) + (long double)from_bits(b + 1)) / 2;
        snprintf(buf, sizeof buf, "%.*Le", 15 + round % 5, mid);
        char *e = strchr(buf, 'e');
        assert_non_null(e);
        expect_strtod(buf);
        char *q = e - 1;
        if (*q != '0' && *q != '9') {
            (*q)++;
            expect_strtod(buf);
            *q = (char)(*q - 2);
            expect_strtod(buf);
        }
    }
}
#endif

static void parse_f64_rejects_bad_syntax(void **state)
{
    (void)state;
    static const char *bad[] = {
        "", "+", "-", ".", "+.", "e1", ".e1", "1e", "1e+", "1e-", "1.e", "0x10", "0X1p3",
        "1_0", "1_000.5", "inf", "-inf", "Infinity", "nan", "NaN", " 1", "1 ", "1\n", "\t1",
        "1,5", "1..2", "1.2.3", "--1", "+-1", "1e1.5", "1e+-1", "1ee1", "1d5", "1f", "1.5L",
        "٣", "0.1e", "e", "E5",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) expect_err(bad[i], MOTE_ERR_BAD_VALUE);
    double d = 7.0;
    assert_int_equal(mote_num_parse_f64(NULL, 0, &d), MOTE_ERR_BAD_VALUE);
    /* the span is the whole input: a NUL inside is just a bad byte */
    assert_int_equal(mote_num_parse_f64((const uint8_t *)"1\0", 2, &d), MOTE_ERR_BAD_VALUE);
    assert_int_equal(mote_num_parse_f64((const uint8_t *)"15", 1, &d), MOTE_OK);
    assert_true(d == 1.0);
}

/* A pseudo-random mix of digit counts and exponents against strtod. */
static void parse_f64_random_against_strtod(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15u;
    char buf[128];
    for (int round = 0; round < test_rounds(300000); round++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int nd = 1 + (int)(x % 25), p = 0;
        uint64_t y = x * 0x2545F4914F6CDD1Du;
        for (int k = 0; k < nd; k++) {
            y ^= y << 13; y ^= y >> 7; y ^= y << 17;
            buf[p++] = (char)('0' + y % 10);
        }
        int ex = (int)((x >> 20) % 680) - 345;
        snprintf(buf + p, 16, "e%d", ex);
        errno = 0;
        double want = strtod(buf, NULL);
        double got;
        mote_err e = parse_both(buf, &got);
        if (isinf(want)) {
            assert_int_equal(e, MOTE_ERR_RANGE);
            continue;
        }
        if (e != MOTE_OK || bits_of(got) != bits_of(want)) {
            fprintf(stderr, "'%s' got %a want %a\n", buf, got, want);
            fail();
        }
    }
    /* plain decimals as line protocol writes them ([-]digits[.digits],
     * 1 to 24 digits, no exponent): Clinger's case, its edges (2^53, 22
     * fraction digits, 19 digits) and what lies past them */
    for (int round = 0; round < test_rounds(300000); round++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int p = (x & 1) ? 1 : 0, ni = (int)(x >> 8) % 12, nf = (int)(x >> 16) % 24;
        if (ni + nf < 2) continue; /* at least one digit after the p-- below */
        if (p) buf[0] = '-';
        uint64_t y = x * 0x2545F4914F6CDD1Du;
        for (int k = 0; k < ni + nf + 1; k++) {
            y ^= y << 13; y ^= y >> 7; y ^= y << 17;
            buf[p++] = (char)(k == ni ? '.' : '0' + (int)((y >> 3) % ((x >> 30) % 3 ? 10 : 2)));
        }
        if ((x >> 40) % 5 == 0) p--; /* sometimes ending in '.' */
        buf[p] = 0;
        expect_strtod(buf);
    }
    /* near-halfway inputs: shortest repr of random doubles +- tiny offsets */
    for (int round = 0; round < test_rounds(100000); round++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t b = x & UINT64_C(0x7FEFFFFFFFFFFFFF);
        double v = from_bits(b), nx = from_bits(b + 1);
        snprintf(buf, sizeof buf, "%.40e", v / 2 + nx / 2 == v ? v : v / 2 + nx / 2);
        expect_strtod(buf);
        snprintf(buf, sizeof buf, "%.17e", v);
        expect_bits(buf, b);
    }
}

static void parse_i64_edges(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"-9223372036854775808", 20, &v), MOTE_OK);
    assert_true(v == INT64_MIN);
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"9223372036854775807", 19, &v), MOTE_OK);
    assert_true(v == INT64_MAX);
    v = 5;
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"9223372036854775808", 19, &v), MOTE_ERR_RANGE);
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"-9223372036854775809", 20, &v), MOTE_ERR_RANGE);
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"99999999999999999999999", 23, &v), MOTE_ERR_RANGE);
    assert_true(v == 5);
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"-0", 2, &v), MOTE_OK);
    assert_true(v == 0);
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"+5", 2, &v), MOTE_OK);
    assert_true(v == 5);
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"007", 3, &v), MOTE_OK);
    assert_true(v == 7);
    static const char *bad[] = {"", "-", "+", "1.0", "1e3", " 1", "1 ", "0x1", "--1", "1_0", "9i"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(mote_num_parse_i64((const uint8_t *)bad[i], strlen(bad[i]), &v),
                         MOTE_ERR_BAD_VALUE);
        assert_int_equal(small_mote_num_parse_i64((const uint8_t *)bad[i], strlen(bad[i]), &v),
                         MOTE_ERR_BAD_VALUE);
    }
    /* syntax is checked before range */
    assert_int_equal(mote_num_parse_i64((const uint8_t *)"99999999999999999999x", 21, &v),
                     MOTE_ERR_BAD_VALUE);
}

static void parse_u64_edges(void **state)
{
    (void)state;
    uint64_t v = 0;
    assert_int_equal(mote_num_parse_u64((const uint8_t *)"18446744073709551615", 20, &v), MOTE_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(mote_num_parse_u64((const uint8_t *)"0", 1, &v), MOTE_OK);
    assert_true(v == 0);
    v = 3;
    assert_int_equal(mote_num_parse_u64((const uint8_t *)"18446744073709551616", 20, &v), MOTE_ERR_RANGE);
    assert_int_equal(mote_num_parse_u64((const uint8_t *)"184467440737095516150", 21, &v), MOTE_ERR_RANGE);
    assert_true(v == 3);
    static const char *bad[] = {"", "+5", "-0", "-1", "1.0", " 1", "1u", "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(mote_num_parse_u64((const uint8_t *)bad[i], strlen(bad[i]), &v),
                         MOTE_ERR_BAD_VALUE);
}

/* Byte counts with binary suffixes: the tool's and the examples' size
 * options. */
static void parse_size_suffixes(void **state)
{
    (void)state;
    static const struct { const char *s; uint64_t v; } ok[] = {
        {"0", 0}, {"4096", 4096}, {"64k", 65536}, {"64K", 65536}, {"1m", 1u << 20},
        {"1M", 1u << 20}, {"1G", 1u << 30}, {"3g", 3ull << 30}, {"007K", 7168},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t v = 1;
        assert_int_equal(mote_num_parse_size((const uint8_t *)ok[i].s, strlen(ok[i].s), &v), MOTE_OK);
        assert_true((uint64_t)v == ok[i].v);
    }
    static const char *bad[] = {"", "K", "G", "1KB", "1T", "-1K", "+1", " 1", "1 K", "1.5M", "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 3;
        assert_int_equal(mote_num_parse_size((const uint8_t *)bad[i], strlen(bad[i]), &v),
                         MOTE_ERR_BAD_VALUE);
        assert_true(v == 3);
    }
    size_t v = 3;
    /* past size_t, before and after the shift */
    assert_int_equal(mote_num_parse_size((const uint8_t *)"18446744073709551616", 20, &v), MOTE_ERR_RANGE);
    if (SIZE_MAX == UINT64_MAX) {
        assert_int_equal(mote_num_parse_size((const uint8_t *)"17179869184G", 12, &v), MOTE_ERR_RANGE);
        assert_int_equal(mote_num_parse_size((const uint8_t *)"17179869183G", 12, &v), MOTE_OK);
    } else {
        assert_int_equal(mote_num_parse_size((const uint8_t *)"4G", 2, &v), MOTE_ERR_RANGE);
        assert_int_equal(mote_num_parse_size((const uint8_t *)"3G", 2, &v), MOTE_OK);
    }
}

static void format_integers(void **state)
{
    (void)state;
    char buf[MOTE_NUM_F64_MAX];
    size_t n = 99;
    assert_int_equal(mote_num_format_i64(INT64_MIN, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, 20);
    assert_memory_equal(buf, "-9223372036854775808", 20);
    assert_int_equal(mote_num_format_i64(0, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, 1);
    assert_memory_equal(buf, "0", 1);
    assert_int_equal(mote_num_format_u64(UINT64_MAX, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, 20);
    assert_memory_equal(buf, "18446744073709551615", 20);
    /* too small: MOTE_ERR_SPACE, the size needed, nothing written */
    memset(buf, 'x', sizeof buf);
    assert_int_equal(mote_num_format_u64(UINT64_MAX, buf, 19, &n), MOTE_ERR_SPACE);
    assert_int_equal(n, 20);
    assert_int_equal(mote_num_format_i64(-5, buf, 1, &n), MOTE_ERR_SPACE);
    assert_int_equal(n, 2);
    assert_int_equal(buf[0], 'x');
    assert_int_equal(mote_num_format_i64(-5, buf, 2, &n), MOTE_OK);
    assert_int_equal(n, 2);
    assert_memory_equal(buf, "-5", 2);
    assert_int_equal(buf[2], 'x'); /* a small cap: nothing past the number */
    /* out NULL, cap 0: measures */
    assert_int_equal(mote_num_format_i64(-123, NULL, 0, &n), MOTE_ERR_SPACE);
    assert_int_equal(n, 4);
    assert_int_equal(mote_num_format_u64(0, NULL, 0, &n), MOTE_ERR_SPACE);
    assert_int_equal(n, 1);
    /* round trip through the parsers, the small copy agreeing, and every
     * length of every power of ten and its neighbours (the SWAR digit
     * splits' boundaries) */
    uint64_t x = 12345;
    for (int i = 0; i < 10000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        int64_t sv = (int64_t)(x >> (i % 64)) * ((i & 1) ? -1 : 1), back;
        char sbuf[MOTE_NUM_F64_MAX];
        size_t sn = 0;
        assert_int_equal(mote_num_format_i64(sv, buf, sizeof buf, &n), MOTE_OK);
        assert_int_equal(small_mote_num_format_i64(sv, sbuf, sizeof sbuf, &sn), MOTE_OK);
        assert_true(n == sn && memcmp(buf, sbuf, n) == 0);
        assert_int_equal(mote_num_parse_i64((const uint8_t *)buf, n, &back), MOTE_OK);
        assert_true(back == sv);
    }
    uint64_t p10 = 1;
    for (int e = 0; e < 20; e++, p10 *= 10) {
        for (int d = -1; d <= 1; d++) {
            uint64_t v = p10 + (uint64_t)(int64_t)d, back;
            char want[32];
            snprintf(want, sizeof want, "%" PRIu64, v);
            assert_int_equal(mote_num_format_u64(v, buf, sizeof buf, &n), MOTE_OK);
            assert_true(n == strlen(want) && memcmp(buf, want, n) == 0);
            assert_int_equal(mote_num_parse_u64((const uint8_t *)buf, n, &back), MOTE_OK);
            assert_true(back == v);
        }
    }
    /* the 8-digit word split, whose two 4-digit lanes are independent:
     * every value of each lane, through 10^10 + v (above 32 bits: the
     * words' path; the low eight digits are v's, zero-padded), read back by
     * the parser (which checks digits) */
    for (uint32_t v = 0; v < 100000000u; v += 1 + (v & 7)) {
        uint64_t back = 0;
        const uint64_t w = UINT64_C(10000000000) + v;
        assert_int_equal(mote_num_format_u64(w, buf, sizeof buf, &n), MOTE_OK);
        if (n != 11 || buf[0] != '1' || mote_num_parse_u64((const uint8_t *)buf, n, &back) ||
            back != w) {
            fprintf(stderr, "format_u64 %" PRIu64 ": got '%.*s'\n", w, (int)n, buf);
            fail();
        }
    }
}

typedef mote_err (*format_fn)(double, char *, size_t, size_t *);
static const format_fn formatters[2] = {mote_num_format_f64, small_mote_num_format_f64};

static void expect_format(double v, const char *want)
{
    for (int k = 0; k < 2; k++) {
        char buf[MOTE_NUM_F64_MAX];
        size_t n = 0;
        mote_err e = formatters[k](v, buf, sizeof buf, &n);
        if (e != MOTE_OK || n != strlen(want) || memcmp(buf, want, n) != 0) {
            fprintf(stderr, "format %a (%s): got '%.*s' want '%s'\n", v, k ? "small" : "table",
                    (int)n, buf, want);
            fail();
        }
    }
}

/* Go strconv.FormatFloat(v, 'g', -1, 64) spellings. */
static void format_f64_pinned(void **state)
{
    (void)state;
    expect_format(5e-324, "5e-324");
    expect_format(1e-323, "1e-323");
    expect_format(1.7976931348623157e308, "1.7976931348623157e+308");
    expect_format(2.2250738585072014e-308, "2.2250738585072014e-308");
    expect_format(0.1, "0.1");
    expect_format(100, "100");
    expect_format(1e21, "1e+21");
    expect_format(1e20, "1e+20");
    expect_format(123456789012345680000.0, "1.2345678901234568e+20");
    expect_format(-0.0, "-0");
    expect_format(0.0, "0");
    expect_format(1e6, "1e+06");
    expect_format(123456, "123456");
    expect_format(1234567, "1.234567e+06");
    expect_format(1e-5, "1e-05");
    expect_format(0.0001, "0.0001");
    expect_format(0.0001234, "0.0001234");
    expect_format(-1.5e-7, "-1.5e-07");
    expect_format(1e23, "1e+23");
    expect_format(9007199254740993.0, "9.007199254740992e+15");
    expect_format(1e100, "1e+100");
    expect_format(12345.678, "12345.678");
    expect_format(0.3, "0.3");
    for (int k = 0; k < 2; k++) {
        char buf[4] = "xxx";
        size_t n = 99;
        assert_int_equal(formatters[k](1.5, buf, 3, &n), MOTE_OK);
        assert_int_equal(n, 3);
        assert_memory_equal(buf, "1.5", 3);
        memcpy(buf, "xxxx", 4);
        /* too small: the size needed, nothing written */
        assert_int_equal(formatters[k](-1.25, buf, 4, &n), MOTE_ERR_SPACE);
        assert_int_equal(n, 5);
        assert_memory_equal(buf, "xxxx", 4);
        assert_int_equal(formatters[k](1.7976931348623157e308, NULL, 0, &n), MOTE_ERR_SPACE);
        assert_int_equal(n, 23); /* measured */
        assert_int_equal(formatters[k](-2.2250738585072014e-308, NULL, 0, &n), MOTE_ERR_SPACE);
        assert_int_equal(n, 24); /* the longest */
        assert_int_equal(formatters[k](from_bits(UINT64_C(0x7FF0000000000000)), buf, 4, &n),
                         MOTE_ERR_NOT_FINITE);
        assert_int_equal(n, 0);
        assert_int_equal(formatters[k](from_bits(UINT64_C(0xFFF8000000000000)), buf, 4, &n),
                         MOTE_ERR_NOT_FINITE);
        assert_memory_equal(buf, "xxxx", 4);
    }
    char d[17];
    int ex = 99;
    assert_int_equal(mote_num_f64_digits(0.0, d, &ex), 0);
    assert_int_equal(mote_num_f64_digits(from_bits(UINT64_C(0xFFF0000000000000)), d, &ex), 0);
    assert_int_equal(mote_num_f64_digits(-2.5e-3, d, &ex), 2);
    assert_memory_equal(d, "25", 2);
    assert_int_equal(ex, -2);
}

/* Every line of tests/data/num_format_go.txt (from gen_num_format.go):
 * powers of two, subnormals, powers of ten, random bits. */
static void format_f64_matches_go(void **state)
{
    (void)state;
    char line[128];
    FILE *f = test_data_open("num_format_go.txt", "r");
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        char want[64];
        unsigned long long b;
        if (sscanf(line, "%16llx %63s", &b, want) != 2) continue;
        expect_format(from_bits((uint64_t)b), want);
        count++;
    }
    fclose(f);
    assert_true(count > 9000);
}

/* Decimal integer in digits[0..n) +- 1 in the last place, as "Ne<exp>". */
static void neighbour(const char *digits, int n, int exp10, int delta, char *out, size_t cap)
{
    uint64_t m = 0;
    for (int i = 0; i < n; i++) m = m * 10 + (uint64_t)(digits[i] - '0');
    m += (uint64_t)(int64_t)delta;
    snprintf(out, cap, "%" PRIu64 "e%d", m, exp10 - n);
}

/* Random doubles: the digits round-trip, no decimal with one digit fewer
 * round-trips, and when the nearest decimal of that length round-trips it
 * is the one chosen. strtod/snprintf are the oracle. */
static void f64_digits_are_shortest_and_closest(void **state)
{
    (void)state;
    uint64_t x = 0x1234567887654321u;
    for (int round = 0; round < test_rounds(60000); round++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        uint64_t b = round & 1 ? x & UINT64_C(0x7FEFFFFFFFFFFFFF) : (x >> (round % 64)) | 1;
        if (round % 5 == 0) b &= UINT64_C(0x7FF0000000000000) | (x & 0xFF); /* near binade bottoms */
        if (b >= UINT64_C(0x7FF0000000000000) || b == 0) continue;
        double v = from_bits(b);
        char d[17], buf[64];
        int ex, n = mote_num_f64_digits(v, d, &ex);
        char d2[17];
        int ex2, n2 = small_mote_num_f64_digits(v, d2, &ex2);
        assert_true(n >= 1 && n <= 17);
        assert_true(n == n2 && ex == ex2 && memcmp(d, d2, (size_t)n) == 0);
        assert_true(d[n - 1] != '0' && d[0] != '0');
        snprintf(buf, sizeof buf, "0.%.*se%d", n, d, ex);
        assert_true(bits_of(strtod(buf, NULL)) == b);
        /* closest: the correctly rounded n-digit decimal, if it round-trips */
        snprintf(buf, sizeof buf, "%.*e", n - 1, v);
        if (bits_of(strtod(buf, NULL)) == b) {
            char mine[64];
            snprintf(mine, sizeof mine, "%c%s%.*se%d", d[0], n > 1 ? "." : "", n - 1, d + 1, ex - 1);
            assert_true(strtod(mine, NULL) == strtod(buf, NULL));
        }
        if (n == 1) continue;
        /* shortest: the (n-1)-digit decimals nearest v, and their neighbours */
        snprintf(buf, sizeof buf, "%.*e", n - 2, v);
        char sd[20];
        int sn = 0, sexp;
        for (const char *p = buf; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9') sd[sn++] = *p;
        sexp = atoi(strchr(buf, 'e') + 1) + 1;
        for (int delta = -1; delta <= 1; delta++) {
            char cand[64];
            neighbour(sd, sn, sexp, delta, cand, sizeof cand);
            if (bits_of(strtod(cand, NULL)) == b) {
                fprintf(stderr, "%a: %d digits '%.*s' but %s round-trips\n", v, n, n, d, cand);
                fail();
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_f64_pinned_values),
        cmocka_unit_test(parse_f64_matches_strtod_on_hard_cases),
        cmocka_unit_test(parse_f64_long_inputs_are_exact),
#ifdef HAVE_WIDE_LONG_DOUBLE
        cmocka_unit_test(parse_f64_exact_halfway_points),
#endif
        cmocka_unit_test(parse_f64_rejects_bad_syntax),
        cmocka_unit_test(parse_f64_random_against_strtod),
        cmocka_unit_test(parse_i64_edges),
        cmocka_unit_test(parse_u64_edges),
        cmocka_unit_test(parse_size_suffixes),
        cmocka_unit_test(format_integers),
        cmocka_unit_test(format_f64_pinned),
        cmocka_unit_test(format_f64_matches_go),
        cmocka_unit_test(f64_digits_are_shortest_and_closest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
