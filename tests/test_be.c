/* test_be.c - big-endian loads and stores (mote/be.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mote/be.h"

/* Stores put the most significant byte first, at every alignment. */
static void stores_are_big_endian_at_any_offset(void **state)
{
    (void)state;
    uint8_t buf[24];
    for (size_t off = 0; off < 8; off++) {
        memset(buf, 0xee, sizeof buf);
        mote_be_store16(buf + off, 0x0102);
        assert_int_equal(buf[off], 0x01);
        assert_int_equal(buf[off + 1], 0x02);
        mote_be_store32(buf + off, 0x01020304u);
        static const uint8_t w32[] = {1, 2, 3, 4};
        assert_memory_equal(buf + off, w32, 4);
        mote_be_store64(buf + off, 0x0102030405060708ull);
        static const uint8_t w64[] = {1, 2, 3, 4, 5, 6, 7, 8};
        assert_memory_equal(buf + off, w64, 8);
        assert_int_equal(buf[off + 8], 0xee); /* nothing written past the value */
    }
}

/* Loads read the most significant byte first, at every alignment, and
 * invert the stores. */
static void loads_invert_stores(void **state)
{
    (void)state;
    uint8_t buf[24];
    for (size_t off = 0; off < 8; off++) {
        const uint8_t src[] = {0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};
        memcpy(buf + off, src, 8);
        assert_int_equal(mote_be_load16(buf + off), 0xfedc);
        assert_true(mote_be_load32(buf + off) == 0xfedcba98u);
        assert_true(mote_be_load64(buf + off) == 0xfedcba9876543210ull);
        mote_be_store64(buf + off, 0x8000000000000001ull);
        assert_true(mote_be_load64(buf + off) == 0x8000000000000001ull);
    }
}

/* Floats travel as their IEEE bit patterns: 1.0f is 3f800000, -0.0 keeps
 * its sign, NaN payloads survive. */
static void floats_are_ieee_bit_patterns(void **state)
{
    (void)state;
    uint8_t b[8];
    mote_be_storef32(b, 1.0f);
    static const uint8_t one_f[] = {0x3f, 0x80, 0x00, 0x00};
    assert_memory_equal(b, one_f, 4);
    assert_true(mote_be_loadf32(b) == 1.0f);
    mote_be_storef64(b, -2.5);
    static const uint8_t m25[] = {0xc0, 0x04, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(b, m25, 8);
    assert_true(mote_be_loadf64(b) == -2.5);
    mote_be_storef64(b, -0.0);
    assert_int_equal(b[0], 0x80);
    static const uint8_t nan_payload[] = {0x7f, 0xf0, 0, 0, 0, 0, 0x12, 0x34};
    double d = mote_be_loadf64(nan_payload);
    assert_true(d != d);
    mote_be_storef64(b, d);
    assert_memory_equal(b, nan_payload, 8);
}

/* bswap reverses bytes on every host. */
static void bswap_reverses(void **state)
{
    (void)state;
    assert_int_equal(mote_bswap16(0x1234), 0x3412);
    assert_true(mote_bswap32(0x12345678u) == 0x78563412u);
    assert_true(mote_bswap64(0x0102030405060708ull) == 0x0807060504030201ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stores_are_big_endian_at_any_offset),
        cmocka_unit_test(loads_invert_stores),
        cmocka_unit_test(floats_are_ieee_bit_patterns),
        cmocka_unit_test(bswap_reverses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
