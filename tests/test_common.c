/* test_common.c - error names/messages and size arithmetic helpers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mote/common.h"

/* Every defined code has a distinct, non-"UNKNOWN" name. */
static void error_codes_have_distinct_names(void **state)
{
    (void)state;
    static const int codes[] = {
        MOTE_OK, MOTE_ERR_INVALID, MOTE_ERR_NOMEM, MOTE_ERR_OVERFLOW, MOTE_ERR_LIMIT,
        MOTE_ERR_IO, MOTE_ERR_NEED_MORE, MOTE_ERR_STATE, MOTE_ERR_SPACE,
        MOTE_ERR_TOO_LONG, MOTE_ERR_UNTERMINATED_QUOTE, MOTE_ERR_UNTERMINATED_COMMENT,
        MOTE_ERR_BAD_DELIMITER, MOTE_ERR_SYNTAX, MOTE_ERR_NO_FIELDS, MOTE_ERR_EMPTY_NAME,
        MOTE_ERR_BAD_VALUE, MOTE_ERR_RANGE, MOTE_ERR_BAD_TIMESTAMP, MOTE_ERR_BAD_ESCAPE,
        MOTE_ERR_UNTERMINATED_STRING, MOTE_ERR_NOT_FINITE, MOTE_ERR_TYPE,
        MOTE_ERR_TRUNCATED, MOTE_ERR_TRAILING, MOTE_ERR_BAD_LENGTH, MOTE_ERR_BAD_VINT,
        MOTE_ERR_UNEXPECTED_NULL, MOTE_ERR_DIMENSION, MOTE_ERR_BAD_TYPE, MOTE_ERR_DEPTH,
        MOTE_ERR_MISMATCH, MOTE_ERR_PROTOCOL, MOTE_ERR_UNKNOWN_STREAM,
    };
    size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; i++) {
        const char *name = mote_err_name(codes[i]);
        assert_non_null(name);
        assert_string_not_equal(name, "UNKNOWN");
        assert_string_not_equal(mote_err_message(codes[i]), "unknown error");
        for (size_t j = 0; j < i; j++) {
            assert_string_not_equal(name, mote_err_name(codes[j]));
        }
    }
    assert_string_equal(mote_err_name(MOTE_ERR_TOO_LONG), "TOO_LONG");
    /* the first and last code of each group (the table marks group starts) */
    assert_string_equal(mote_err_name(MOTE_OK), "OK");
    assert_string_equal(mote_err_name(MOTE_ERR_SPACE), "SPACE");
    assert_string_equal(mote_err_name(MOTE_ERR_BAD_DELIMITER), "BAD_DELIMITER");
    assert_string_equal(mote_err_name(MOTE_ERR_SYNTAX), "SYNTAX");
    assert_string_equal(mote_err_name(MOTE_ERR_TYPE), "TYPE");
    assert_string_equal(mote_err_name(MOTE_ERR_TRUNCATED), "TRUNCATED");
    assert_string_equal(mote_err_name(MOTE_ERR_DUPLICATE), "DUPLICATE");
    assert_string_equal(mote_err_name(MOTE_ERR_PROTOCOL), "PROTOCOL");
    assert_string_equal(mote_err_name(MOTE_ERR_UNKNOWN_STREAM), "UNKNOWN_STREAM");
    /* the message, or the name in size-optimised (MOTE_SMALL) builds */
    const char *m = mote_err_message(MOTE_ERR_PROTOCOL);
    assert_true(strcmp(m, "not a CQL v4 response frame") == 0 || strcmp(m, "PROTOCOL") == 0);
    assert_string_equal(mote_err_message(MOTE_ERR_SYNTAX), strcmp(m, "PROTOCOL") ? "syntax error" : "SYNTAX");
}

/* Unknown codes get a static fallback, never NULL. */
static void unknown_code_has_fallback(void **state)
{
    (void)state;
    assert_string_equal(mote_err_name(12345), "UNKNOWN");
    assert_string_equal(mote_err_name(-1), "UNKNOWN");
    /* codes in the gaps between the groups */
    assert_string_equal(mote_err_name((mote_err)9), "UNKNOWN");
    assert_string_equal(mote_err_name((mote_err)10), "UNKNOWN");
    assert_string_equal(mote_err_name((mote_err)24), "UNKNOWN");
    assert_string_equal(mote_err_name((mote_err)80), "UNKNOWN");
    assert_string_equal(mote_err_name((mote_err)102), "UNKNOWN");
    /* the name in size-optimised (MOTE_SMALL) builds, as for known codes */
    const char *m = mote_err_message(12345);
    assert_true(strcmp(m, "unknown error") == 0 || strcmp(m, "UNKNOWN") == 0);
    assert_true((strcmp(m, "UNKNOWN") == 0) == (strcmp(mote_err_message(MOTE_ERR_SYNTAX), "SYNTAX") == 0));
}

/* Size helpers refuse exactly the operations that would wrap. */
/* RFC 3629 boundaries: every rule on its first accepted and first refused byte. */
static void utf8_validity_at_every_boundary(void **state)
{
    (void)state;
    static const struct { const char *s; bool ok; } cases[] = {
        {"", true}, {"plain ascii \x7f", true}, {"\xc2\x80", true}, {"\xdf\xbf", true},
        {"\xc0\x80", false}, {"\xc1\xbf", false},                 /* overlong 2-byte */
        {"\xe0\xa0\x80", true}, {"\xe0\x9f\xbf", false},          /* overlong 3-byte */
        {"\xed\x9f\xbf", true}, {"\xed\xa0\x80", false},          /* U+D800 surrogate */
        {"\xef\xbf\xbf", true}, {"\xf0\x90\x80\x80", true}, {"\xf0\x8f\xbf\xbf", false},
        {"\xf4\x8f\xbf\xbf", true}, {"\xf4\x90\x80\x80", false}, /* past U+10FFFF */
        {"\xf5\x80\x80\x80", false}, {"\x80", false}, {"\xbf", false}, /* lone continuation */
        {"\xc2", false}, {"\xe2\x82", false}, {"\xf0\x9f\x98", false}, /* truncated */
        {"\xc2\x41", false}, {"\xff", false}, {"h\xc3\xa9llo \xe2\x84\x9d \xf0\x9f\x98\x80", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (mote_utf8_valid(cases[i].s, strlen(cases[i].s)) != cases[i].ok) fail_msg("case %zu", i);
    }
    assert_true(mote_utf8_valid(NULL, 0));
}

static void size_helpers_detect_overflow(void **state)
{
    (void)state;
    size_t r = 0;
    assert_true(mote_size_add(SIZE_MAX - 1, 1, &r));
    assert_true(r == SIZE_MAX);
    assert_false(mote_size_add(SIZE_MAX, 1, &r));
    assert_true(mote_size_mul(SIZE_MAX / 2, 2, &r));
    assert_false(mote_size_mul(SIZE_MAX / 2 + 1, 2, &r));
    assert_true(mote_size_mul(0, SIZE_MAX, &r));
    assert_true(r == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_codes_have_distinct_names),
        cmocka_unit_test(unknown_code_has_fallback),
        cmocka_unit_test(utf8_validity_at_every_boundary),
        cmocka_unit_test(size_helpers_detect_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
