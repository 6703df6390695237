/* test_lp_write.c - line-protocol writer: escaping, refusals, rollback. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "mote/lp.h"

#define S(lit) (lit), (sizeof(lit) - 1)

static uint8_t out[512];

static void assert_out(const mote_lp_writer *w, const char *want)
{
    size_t n = mote_lp_writer_length(w);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(out, want, n);
}

/* Every element is written, in order, with its own escapes. */
static void writes_and_escapes_each_element(void **state)
{
    (void)state;
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("c pu,x=y")), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("t,a g=1"), S("v=a l,")), MOTE_OK);
    assert_int_equal(mote_lp_write_float(&w, S("f=k"), 1.5), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("i"), -42), MOTE_OK);
    assert_int_equal(mote_lp_write_uint(&w, S("u"), UINT64_MAX), MOTE_OK);
    assert_int_equal(mote_lp_write_bool(&w, S("b"), false), MOTE_OK);
    assert_int_equal(mote_lp_write_string(&w, S("s"), S("say \"hi\"\\ \nnext")), MOTE_OK);
    int64_t t = 1700000000000000000;
    assert_int_equal(mote_lp_write_end(&w, &t), MOTE_OK);
    assert_out(&w, "c\\ pu\\,x=y,t\\,a\\ g\\=1=v\\=a\\ l\\, f\\=k=1.5,i=-42i,"
                   "u=18446744073709551615u,b=false,s=\"say \\\"hi\\\"\\\\ \nnext\" "
                   "1700000000000000000\n");
    /* a backslash inside a name is written as is; it reads back as itself */
    assert_int_equal(mote_lp_write_measurement(&w, S("a\\b")), MOTE_OK);
    assert_int_equal(mote_lp_write_bool(&w, S("k\\,"), true), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
    assert_int_equal(mote_lp_writer_length(&w), strlen("c\\ pu\\,x=y,t\\,a\\ g\\=1=v\\=a\\ l\\, f\\=k=1.5,i=-42i,"
                   "u=18446744073709551615u,b=false,s=\"say \\\"hi\\\"\\\\ \nnext\" "
                   "1700000000000000000\n") + strlen("a\\b k\\\\,=true\n"));
}

/* What cannot be written is refused; the output rolls back to the last line. */
static void refuses_what_cannot_be_written(void **state)
{
    (void)state;
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("ok")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 1), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
    size_t good = mote_lp_writer_length(&w);

    assert_int_equal(mote_lp_write_measurement(&w, "", 0), MOTE_ERR_EMPTY_NAME);
    assert_int_equal(mote_lp_write_measurement(&w, S("#x")), MOTE_ERR_SYNTAX);
    assert_int_equal(mote_lp_write_measurement(&w, S("a\tb")), MOTE_ERR_SYNTAX);
    assert_int_equal(mote_lp_write_measurement(&w, S("a\xff")), MOTE_ERR_SYNTAX);
    assert_int_equal(mote_lp_write_measurement(&w, S("m\\")), MOTE_ERR_BAD_ESCAPE);

    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("k"), "", 0), MOTE_ERR_EMPTY_NAME);
    /* sticky: the rest of the line reports the same error */
    assert_int_equal(mote_lp_write_int(&w, S("v"), 1), MOTE_ERR_EMPTY_NAME);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_ERR_EMPTY_NAME);
    assert_int_equal(mote_lp_writer_length(&w), good);

    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("k"), S("v\\")), MOTE_ERR_BAD_ESCAPE);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, "", 0, S("v")), MOTE_ERR_EMPTY_NAME);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_float(&w, S("f"), NAN), MOTE_ERR_NOT_FINITE);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_float(&w, S("f"), -INFINITY), MOTE_ERR_NOT_FINITE);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, "", 0, 1), MOTE_ERR_EMPTY_NAME);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_string(&w, S("s"), S("\xc3")), MOTE_ERR_SYNTAX);
    assert_int_equal(mote_lp_writer_length(&w), good);
    assert_memory_equal(out, "ok v=1i\n", good);
}

/* Each byte value in each kind of name, in the middle of it and at its
 * end, against the rules written out here (lp.h): what is escaped, what is
 * refused. Speed builds decide most names by the grammar's byte classes
 * and the rest by the checks and escaping loop: both must give this. */
static void every_byte_in_every_kind_of_name(void **state)
{
    (void)state;
    /* kinds: 0 measurement, 1 tag key, 2 tag value, 3 field key, 4 string value */
    static const char *const escaped[5] = {", ", ",= ", ",= ", ",= ", "\"\\"};
    for (unsigned kind = 0; kind < 5; kind++) {
        for (unsigned b = 0; b < 256; b++) {
            for (unsigned at_end = 0; at_end < 2; at_end++) {
                char name[4] = {'a', (char)b, 'z', 0};
                const size_t n = at_end ? 2 : 3;
                mote_err want = MOTE_OK;
                if (kind < 4 && (b < 0x20 || b == 0x7f)) want = MOTE_ERR_SYNTAX;
                if (b >= 0x80) want = MOTE_ERR_SYNTAX; /* a lone byte >= 0x80 is not UTF-8 */
                if (kind < 4 && b == '\\' && at_end) want = MOTE_ERR_BAD_ESCAPE;
                mote_lp_writer w;
                assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
                mote_err rc = mote_lp_write_measurement(&w, kind == 0 ? name : "m", kind == 0 ? n : 1);
                if (rc == MOTE_OK && (kind == 1 || kind == 2))
                    rc = mote_lp_write_tag(&w, kind == 1 ? name : "k", kind == 1 ? n : 1,
                                           kind == 2 ? name : "v", kind == 2 ? n : 1);
                if (rc == MOTE_OK && kind == 4) rc = mote_lp_write_string(&w, "f", 1, name, n);
                if (rc == MOTE_OK && kind != 4)
                    rc = mote_lp_write_int(&w, kind == 3 ? name : "f", kind == 3 ? n : 1, 1);
                if (rc == MOTE_OK) rc = mote_lp_write_end(&w, NULL);
                if (rc != want) fail_msg("kind %u byte 0x%02x%s: %d, want %d", kind, b, at_end ? " at the end" : "",
                                         (int)rc, (int)want);
                if (want != MOTE_OK) {
                    assert_int_equal(mote_lp_writer_length(&w), 0);
                    continue;
                }
                /* the name as written: a backslash before each byte of its kind's set */
                char text[8];
                size_t k = 0;
                text[k++] = 'a';
                if (b && strchr(escaped[kind], (int)b)) text[k++] = '\\';
                text[k++] = (char)b;
                if (!at_end) text[k++] = 'z';
                /* (memcpy, not %s: the byte may be 0) */
                static const char *const before[5] = {"", "m,", "m,k=", "m ", "m f=\""};
                static const char *const after[5] = {" f=1i\n", "=v f=1i\n", " f=1i\n", "=1i\n", "\"\n"};
                char want_line[64];
                size_t len = strlen(before[kind]);
                memcpy(want_line, before[kind], len);
                memcpy(want_line + len, text, k);
                len += k;
                memcpy(want_line + len, after[kind], strlen(after[kind]));
                len += strlen(after[kind]);
                if (mote_lp_writer_length(&w) != len || memcmp(out, want_line, len) != 0)
                    fail_msg("kind %u byte 0x%02x%s: wrote %.*s", kind, b, at_end ? " at the end" : "",
                             (int)mote_lp_writer_length(&w), (const char *)out);
            }
        }
    }
    /* a measurement's first '#' (a comment), and names of every length to 40
     * with one byte to escape at each place */
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("#m")), MOTE_ERR_SYNTAX);
    assert_int_equal(mote_lp_write_measurement(&w, S("m#")), MOTE_OK);
    for (size_t n = 1; n <= 40; n++) {
        for (size_t at = 0; at <= n; at++) {
            char key[41];
            memset(key, 'k', n);
            if (at < n) key[at] = '=';
            assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
            assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
            assert_int_equal(mote_lp_write_int(&w, key, n, 1), MOTE_OK);
            assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
            /* "m " + key (+1 backslash) + "=1i\n" */
            assert_int_equal(mote_lp_writer_length(&w), 2 + n + (at < n) + 4);
            if (at < n) assert_int_equal(out[2 + at], '\\');
        }
    }
}

/* Calls out of order are STATE errors. */
static void call_order_enforced(void **state)
{
    (void)state;
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("k"), S("v")), MOTE_ERR_STATE);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_ERR_STATE); /* no field */
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 1), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("k"), S("v")), MOTE_ERR_STATE);
    assert_int_equal(mote_lp_writer_length(&w), 0);
    /* a new measurement drops an unfinished line */
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 1), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("n")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 2), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
    assert_out(&w, "n v=2i\n");
}

/* A full buffer: SPACE, earlier lines intact, the writer usable again. */
static void full_buffer_rolls_back(void **state)
{
    (void)state;
    uint8_t small[12];
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init(&w, small, sizeof small, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 1), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK); /* "m v=1i\n" 7 bytes */
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 12345), MOTE_ERR_SPACE);
    assert_int_equal(mote_lp_writer_length(&w), 7);
    assert_memory_equal(small, "m v=1i\n", 7);
    for (size_t cap = 0; cap < 7; cap++) {
        assert_int_equal(mote_lp_writer_init(&w, small, cap, MOTE_LP_NS), MOTE_OK);
        mote_err rc = mote_lp_write_measurement(&w, S("m"));
        if (rc == MOTE_OK) rc = mote_lp_write_int(&w, S("v"), 1);
        if (rc == MOTE_OK) rc = mote_lp_write_end(&w, NULL);
        assert_int_equal(rc, MOTE_ERR_SPACE);
        assert_int_equal(mote_lp_writer_length(&w), 0);
    }
    /* the line's first error stays: the key does not fit, the value after
     * it would be refused */
    assert_int_equal(mote_lp_writer_init(&w, small, 4, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("key"), S("v\\")), MOTE_ERR_SPACE);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_ERR_SPACE);
    /* a copy of a writer writes where the original did (a caller's copy,
     * e.g. a struct returned by value) */
    assert_int_equal(mote_lp_writer_init(&w, small, sizeof small, MOTE_LP_NS), MOTE_OK);
    mote_lp_writer copy = w;
    memset(&w, 0xa5, sizeof w);
    assert_int_equal(mote_lp_write_measurement(&copy, S("c")), MOTE_OK);
    assert_int_equal(mote_lp_write_bool(&copy, S("b"), true), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&copy, NULL), MOTE_OK);
    assert_int_equal(mote_lp_writer_length(&copy), 9);
    assert_memory_equal(small, "c b=true\n", 9);
    assert_int_equal(mote_lp_writer_init(NULL, small, 1, MOTE_LP_NS), MOTE_ERR_INVALID);
    assert_int_equal(mote_lp_writer_init(&w, NULL, 1, MOTE_LP_NS), MOTE_ERR_INVALID);
}

/* Timestamps are written in the writer's precision (truncating). */
static void timestamp_precision(void **state)
{
    (void)state;
    mote_lp_writer w;
    int64_t t = -1999999999;
    assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_S), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_bool(&w, S("b"), true), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, &t), MOTE_OK);
    assert_out(&w, "m b=true -1\n");
    t = INT64_MIN;
    assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_float(&w, S("f"), -0.0), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, &t), MOTE_OK);
    assert_out(&w, "m f=-0 -9223372036854775808\n");
}

/* What the writer writes, the decoder reads back as the same point. */
static void written_lines_decode_back(void **state)
{
    (void)state;
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init(&w, out, sizeof out, MOTE_LP_NS), MOTE_OK);
    const char name[] = "a\\,b c\\";     /* backslashes inside, comma, space */
    const char tagv[] = "\\=\\\\ x";
    const char str[] = "q\"\\\n\\n\r";
    assert_int_equal(mote_lp_write_measurement(&w, name, sizeof name - 2), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("k"), S(tagv)), MOTE_OK);
    assert_int_equal(mote_lp_write_string(&w, S("s"), S(str)), MOTE_OK);
    assert_int_equal(mote_lp_write_float(&w, S("f"), 0.1), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, out, mote_lp_writer_length(&w), NULL), MOTE_OK);
    mote_lp_tag tags[2];
    mote_lp_field fields[2];
    mote_lp_point pt;
    assert_int_equal(mote_lp_point_init(&pt, tags, 2, fields, 2), MOTE_OK);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
    assert_int_equal(mote_lp_point_decode(&pt, NULL, NULL), MOTE_OK);
    uint8_t buf[64];
    size_t n;
    assert_int_equal(mote_lp_unescape(&pt.measurement, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, sizeof name - 2);
    assert_memory_equal(buf, name, n);
    assert_int_equal(mote_lp_unescape(&tags[0].value, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, sizeof tagv - 1);
    assert_memory_equal(buf, tagv, n);
    assert_int_equal(mote_lp_unescape(&fields[0].value.s, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, sizeof str - 1);
    assert_memory_equal(buf, str, n);
    assert_true(fields[1].value.f == 0.1);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_ERR_NEED_MORE);
}

/* A buf writer: lines appended, a failed line leaves the buffer as it was;
 * a fixed buf that fills up gives LIMIT, an arena buf grows. */
static void buf_writer_appends_and_rolls_back(void **state)
{
    (void)state;
    uint8_t mem[16];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "x\n", 2), MOTE_OK);
    mote_lp_writer w;
    assert_int_equal(mote_lp_writer_init_buf(&w, &b, MOTE_LP_NS), MOTE_OK);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 1), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
    assert_int_equal(b.len, 9);
    assert_memory_equal(b.data, "x\nm v=1i\n", 9);
    assert_int_equal(mote_lp_writer_length(&w), 9);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("v"), 123456789), MOTE_ERR_LIMIT);
    assert_int_equal(b.len, 9);
    assert_int_equal(mote_lp_write_measurement(&w, S("m")), MOTE_OK);
    assert_int_equal(mote_lp_write_tag(&w, S("k"), "", 0), MOTE_ERR_EMPTY_NAME);
    assert_int_equal(b.len, 9);

    static uint8_t block[4096];
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    mote_buf g;
    assert_int_equal(mote_buf_init_arena(&g, &a, 0), MOTE_OK);
    assert_int_equal(mote_lp_writer_init_buf(&w, &g, MOTE_LP_NS), MOTE_OK);
    for (int i = 0; i < 50; i++) {
        assert_int_equal(mote_lp_write_measurement(&w, S("measurement")), MOTE_OK);
        assert_int_equal(mote_lp_write_tag(&w, S("host"), S("server 01")), MOTE_OK);
        assert_int_equal(mote_lp_write_int(&w, S("value"), i), MOTE_OK);
        assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
    }
    assert_int_equal(g.len, mote_lp_writer_length(&w));
    /* names from the buffer's own storage: a line's content, and bytes in
     * its free tail that the line's own bytes reach (the tag value lands at
     * tail + 14: a memcpy from tail + 16 overlaps, an ASan error) */
    const size_t before = g.len;
    assert_int_equal(mote_buf_reserve(&g, 64), MOTE_OK);
    uint8_t *tail = mote_buf_tail(&g, NULL);
    memcpy(tail + 16, "tailname", 8);
    assert_int_equal(mote_lp_write_measurement(&w, g.data, 11), MOTE_OK); /* "measurement" */
    assert_int_equal(mote_lp_write_tag(&w, S("t"), tail + 16, 8), MOTE_OK);
    assert_int_equal(mote_lp_write_int(&w, S("value"), 50), MOTE_OK);
    assert_int_equal(mote_lp_write_end(&w, NULL), MOTE_OK);
    assert_int_equal(g.len - before, strlen("measurement,t=tailname value=50i\n"));
    assert_memory_equal(g.data + before, "measurement,t=tailname value=50i\n", g.len - before);
    /* every line decodes */
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, g.data, g.len, NULL), MOTE_OK);
    mote_lp_point pt;
    mote_lp_field f[1];
    int n = 0;
    assert_int_equal(mote_lp_point_init(&pt, NULL, 0, f, 1), MOTE_OK);
    while (mote_lp_next(&d, &pt, NULL) == MOTE_OK) {
        assert_int_equal(mote_lp_point_decode(&pt, NULL, NULL), MOTE_OK);
        assert_true(f[0].value.i == n);
        n++;
    }
    assert_int_equal(n, 51);
    assert_int_equal(mote_lp_writer_init_buf(&w, NULL, MOTE_LP_NS), MOTE_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writes_and_escapes_each_element),
        cmocka_unit_test(refuses_what_cannot_be_written),
        cmocka_unit_test(every_byte_in_every_kind_of_name),
        cmocka_unit_test(call_order_enforced),
        cmocka_unit_test(full_buffer_rolls_back),
        cmocka_unit_test(timestamp_precision),
        cmocka_unit_test(written_lines_decode_back),
        cmocka_unit_test(buf_writer_appends_and_rolls_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
