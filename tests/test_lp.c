/* test_lp.c - line-protocol tokenizer, typed decoder and streaming decoder. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mote/lp.h"

#define S(lit) (const uint8_t *)(lit), sizeof(lit) - 1

static mote_lp_tag g_tags[8];
static mote_lp_field g_fields[8];

static void init_pt(mote_lp_point *pt)
{
    assert_int_equal(mote_lp_point_init(pt, g_tags, 8, g_fields, 8), MOTE_OK);
}

/* Unescape into a static buffer and compare with a C string. */
static void assert_text(const mote_lp_text *t, const char *want)
{
    uint8_t buf[256];
    size_t n = 0;
    assert_int_equal(mote_lp_unescape(t, buf, sizeof buf, &n), MOTE_OK);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(buf, want, n);
}

static mote_err decode_one(const char *in, mote_lp_point *pt, mote_lp_error *err,
                           const mote_lp_config *opt)
{
    static mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, in, strlen(in), opt), MOTE_OK);
    init_pt(pt);
    mote_err rc = mote_lp_next(&d, pt, err);
    if (rc == MOTE_OK) rc = mote_lp_point_decode(pt, opt, err);
    return rc;
}

/* Escapes in the measurement and tag values of ordinary lines (read by the
 * grammar's instance without end checks in speed builds) are flagged exactly
 * as in any other line; a backslash before another byte stays literal and
 * unflagged. */
static void escapes_in_ordinary_lines(void **state)
{
    (void)state;
    const char *in = "m\\ x,k=v\\=1,p=c:\\d,q=a\\,b f=1i 5\n"
                     "m,k=plain,p=x\\y f=\"s\\\"t\" 6\n";
    mote_lp_decoder d;
    mote_lp_point pt;
    assert_int_equal(mote_lp_decoder_init(&d, in, strlen(in), NULL), MOTE_OK);
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
    assert_true(pt.measurement.escaped);
    assert_text(&pt.measurement, "m x");
    assert_int_equal(pt.ntags, 3);
    assert_true(pt.tags[0].value.escaped);
    assert_text(&pt.tags[0].value, "v=1");
    assert_false(pt.tags[1].value.escaped);
    assert_int_equal(pt.tags[1].value.len, 4);
    assert_true(pt.tags[2].value.escaped);
    assert_text(&pt.tags[2].value, "a,b");
    assert_int_equal(pt.nfields, 1);
    assert_int_equal(pt.fields[0].type, MOTE_LP_INT);
    assert_int_equal(pt.time_text.len, 1);
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
    assert_false(pt.measurement.escaped);
    assert_false(pt.tags[0].value.escaped);
    assert_false(pt.tags[1].value.escaped);
    assert_text(&pt.tags[1].value, "x\\y");
    assert_int_equal(pt.fields[0].type, MOTE_LP_STRING);
    assert_true(pt.fields[0].raw.escaped);
    assert_text(&pt.fields[0].raw, "s\"t");
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_ERR_NEED_MORE);
}

/* A full line: every part as a view into the input, typed values, time. */
static void decodes_all_parts_as_views(void **state)
{
    (void)state;
    const char *in = "cpu,host=a,region=eu x=1.5,n=-3i,u=7u,ok=T,s=\"hi\" 1700000000000000000\n";
    mote_lp_point pt;
    mote_lp_error err;
    assert_int_equal(decode_one(in, &pt, &err, NULL), MOTE_OK);
    assert_ptr_equal(pt.measurement.ptr, (const uint8_t *)in);
    assert_int_equal(pt.measurement.len, 3);
    assert_false(pt.measurement.escaped);
    assert_int_equal(pt.ntags, 2);
    assert_text(&pt.tags[0].key, "host");
    assert_text(&pt.tags[0].value, "a");
    assert_text(&pt.tags[1].key, "region");
    assert_text(&pt.tags[1].value, "eu");
    assert_int_equal(pt.nfields, 5);
    assert_int_equal(pt.fields[0].type, MOTE_LP_FLOAT);
    assert_true(pt.fields[0].value.f == 1.5);
    assert_int_equal(pt.fields[1].type, MOTE_LP_INT);
    assert_true(pt.fields[1].value.i == -3);
    assert_int_equal(pt.fields[2].type, MOTE_LP_UINT);
    assert_true(pt.fields[2].value.u == 7);
    assert_int_equal(pt.fields[3].type, MOTE_LP_BOOL);
    assert_true(pt.fields[3].value.b);
    assert_int_equal(pt.fields[4].type, MOTE_LP_STRING);
    assert_text(&pt.fields[4].value.s, "hi");
    assert_true(pt.has_time);
    assert_true(pt.time == 1700000000000000000LL);
    assert_int_equal(pt.offset, 0);
    assert_int_equal(pt.line, 1);
    assert_int_equal(pt.text.len, strlen(in) - 1);
    /* every view lies inside the input */
    const uint8_t *lo = (const uint8_t *)in, *hi = lo + strlen(in);
    for (size_t i = 0; i < pt.nfields; i++) {
        assert_true(pt.fields[i].key.ptr >= lo && pt.fields[i].key.ptr + pt.fields[i].key.len <= hi);
        assert_true(pt.fields[i].raw.ptr >= lo && pt.fields[i].raw.ptr + pt.fields[i].raw.len <= hi);
    }
    assert_int_equal(pt.time_text.len, 19);
}

/* Escapes are flagged and undone on demand; "\\" in names stays two bytes. */
static void escapes_flagged_and_unescaped_on_demand(void **state)
{
    (void)state;
    const char *in = "my\\ cpu\\,x,ta\\=g=v\\ a\\,l,k=a\\\\b f\\ 1=\"q\\\"\\\\\\n\" 1";
    mote_lp_point pt;
    mote_lp_error err;
    assert_int_equal(decode_one(in, &pt, &err, NULL), MOTE_OK);
    assert_true(pt.measurement.escaped);
    assert_text(&pt.measurement, "my cpu,x");
    assert_true(pt.tags[0].key.escaped);
    assert_text(&pt.tags[0].key, "ta=g");
    assert_text(&pt.tags[0].value, "v a,l");
    assert_false(pt.tags[1].value.escaped); /* a backslash before 'b' is literal */
    assert_text(&pt.tags[1].value, "a\\\\b");
    assert_text(&pt.fields[0].key, "f 1");
    assert_true(pt.fields[0].value.s.escaped);
    assert_text(&pt.fields[0].value.s, "q\"\\\\n"); /* \n stays backslash + n */
    /* unescape never needs more than the view; too small a buffer is refused */
    uint8_t small[3];
    size_t n = 0;
    assert_int_equal(mote_lp_unescape(&pt.measurement, small, sizeof small, &n), MOTE_ERR_SPACE);
    assert_int_equal(n, 8);
    assert_true(n <= pt.measurement.len);
    /* Views made by hand: each context undoes its own escapes only, and a
     * context past MOTE_LP_ESC_STRING is read as a string's. */
    static const char raw[] = "a\\=b\\ c\\,d\\\"e";
    static const struct {
        uint8_t context;
        const char *want;
    } ctx[] = {{MOTE_LP_ESC_MEASUREMENT, "a\\=b c,d\\\"e"},
               {MOTE_LP_ESC_KEY, "a=b c,d\\\"e"},
               {MOTE_LP_ESC_STRING, "a\\=b\\ c\\,d\"e"},
               {7, "a\\=b\\ c\\,d\"e"}};
    for (size_t i = 0; i < sizeof ctx / sizeof ctx[0]; i++) {
        mote_lp_text t = {(const uint8_t *)raw, sizeof raw - 1, true, ctx[i].context};
        uint8_t out[32];
        assert_int_equal(mote_lp_unescape(&t, out, sizeof out, &n), MOTE_OK);
        assert_int_equal(n, strlen(ctx[i].want));
        assert_memory_equal(out, ctx[i].want, n);
    }
}

typedef struct outcome {
    mote_err rc;
    mote_lp_error err;
    char name[32];
} outcome;

/* Decode everything, recording each result in order. */
static size_t decode_all(const char *in, size_t len, const mote_lp_config *opt,
                         outcome *out, size_t cap)
{
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, in, len, opt), MOTE_OK);
    size_t n = 0;
    for (;;) {
        mote_lp_point pt;
        init_pt(&pt);
        mote_lp_error err;
        memset(&err, 0, sizeof err);
        mote_err rc = mote_lp_next(&d, &pt, &err);
        if (rc == MOTE_ERR_NEED_MORE) break;
        if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, opt, &err);
        assert_true(n < cap);
        out[n].rc = rc;
        out[n].err = err;
        out[n].name[0] = 0;
        if (rc == MOTE_OK) {
            size_t k = 0;
            assert_int_equal(mote_lp_unescape(&pt.measurement, (uint8_t *)out[n].name,
                                              sizeof out[n].name - 1, &k), MOTE_OK);
            out[n].name[k] = 0;
        }
        n++;
    }
    return n;
}

/* A bad line does not stop the batch: every good point and every error. */
static void bad_lines_reported_and_skipped(void **state)
{
    (void)state;
    const char *in =
        "a f=1\n"
        "b,t= f=1\n"          /* empty tag value */
        "c f=1,\n"            /* trailing comma */
        "d f=abc\n"           /* bad value */
        "e\n"                 /* no fields */
        "f f=\"x\ny\" 5\n"    /* string with a raw newline: one line */
        "g f=1 12x\n"         /* bad timestamp */
        "h f=99999999999999999999i\n"
        "i f=1";
    outcome o[16];
    size_t n = decode_all(in, strlen(in), NULL, o, 16);
    assert_int_equal(n, 9);
    assert_int_equal(o[0].rc, MOTE_OK);
    assert_string_equal(o[0].name, "a");
    assert_int_equal(o[1].rc, MOTE_ERR_EMPTY_NAME);
    assert_int_equal(o[1].err.pos.line, 2);
    assert_int_equal(o[1].err.pos.column, 5);
    assert_int_equal(o[1].err.pos.offset, 6 + 4);
    assert_int_equal(o[1].err.line_offset, 6);
    assert_non_null(o[1].err.message);
    assert_int_equal(o[2].rc, MOTE_ERR_SYNTAX);
    assert_int_equal(o[2].err.pos.line, 3);
    assert_int_equal(o[2].err.pos.column, 7);
    assert_int_equal(o[3].rc, MOTE_ERR_BAD_VALUE);
    assert_int_equal(o[3].err.pos.column, 5);
    assert_int_equal(o[4].rc, MOTE_ERR_NO_FIELDS);
    assert_int_equal(o[5].rc, MOTE_OK);
    assert_string_equal(o[5].name, "f");
    assert_int_equal(o[6].rc, MOTE_ERR_BAD_TIMESTAMP);
    assert_int_equal(o[6].err.pos.line, 8); /* the string's newline counted */
    assert_int_equal(o[6].err.pos.column, 7);
    assert_int_equal(o[7].rc, MOTE_ERR_RANGE);
    assert_int_equal(o[8].rc, MOTE_OK);
    assert_string_equal(o[8].name, "i");
}

/* Comments, blank lines, leading spaces and CRLF line ends. */
static void comments_blank_lines_crlf(void **state)
{
    (void)state;
    const char *in = "# comment\r\n\n   \r\n  # indented comment\n  a f=1\r\nb f=2 3\r\n\r\n#end";
    outcome o[8];
    size_t n = decode_all(in, strlen(in), NULL, o, 8);
    assert_int_equal(n, 2);
    assert_int_equal(o[0].rc, MOTE_OK);
    assert_string_equal(o[0].name, "a");
    assert_int_equal(o[1].rc, MOTE_OK);
    /* a lone CR is an error, a comment with a control byte too */
    const char *bad = "a f=1\rb f=2\n# x\ty\nc f=3\n";
    n = decode_all(bad, strlen(bad), NULL, o, 8);
    assert_int_equal(n, 3);
    assert_int_equal(o[0].rc, MOTE_ERR_SYNTAX);
    assert_int_equal(o[1].rc, MOTE_ERR_SYNTAX);
    assert_int_equal(o[1].err.pos.line, 2);
    assert_int_equal(o[2].rc, MOTE_OK);
}

/* Tags and fields beyond the caller arrays are counted and iterable. */
static void no_fixed_limit_on_tags_and_fields(void **state)
{
    (void)state;
    char in[4096];
    size_t k = (size_t)snprintf(in, sizeof in, "m");
    for (int i = 0; i < 100; i++) k += (size_t)snprintf(in + k, sizeof in - k, ",t%d=v%d", i, i);
    for (int i = 0; i < 100; i++) k += (size_t)snprintf(in + k, sizeof in - k, "%cf%d=%di", i ? ',' : ' ', i, i);
    mote_lp_tag tags[2];
    mote_lp_field fields[3];
    mote_lp_point pt;
    assert_int_equal(mote_lp_point_init(&pt, tags, 2, fields, 3), MOTE_OK);
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, in, k, NULL), MOTE_OK);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
    assert_int_equal(mote_lp_point_decode(&pt, NULL, NULL), MOTE_OK);
    assert_int_equal(pt.ntags, 100);
    assert_int_equal(pt.nfields, 100);
    assert_text(&tags[1].key, "t1");
    mote_lp_iter it;
    mote_lp_tag t;
    int n = 0;
    mote_lp_tags_begin(&pt, &it);
    while (mote_lp_tags_next(&it, &t)) {
        char want[16];
        snprintf(want, sizeof want, "v%d", n++);
        assert_text(&t.value, want);
    }
    assert_int_equal(n, 100);
    mote_lp_field f;
    n = 0;
    mote_lp_fields_begin(&pt, &it);
    while (mote_lp_fields_next(&it, &f)) {
        assert_int_equal(f.type, MOTE_LP_INT);
        assert_false(f.decoded);
        assert_int_equal(mote_lp_field_decode(&f), MOTE_OK);
        assert_true(f.value.i == n);
        n++;
    }
    assert_int_equal(n, 100);
    /* iteration only: no arrays at all */
    assert_int_equal(mote_lp_point_init(&pt, NULL, 0, NULL, 0), MOTE_OK);
    assert_int_equal(mote_lp_decoder_init(&d, in, k, NULL), MOTE_OK);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
    assert_int_equal(pt.nfields, 100);
}

static mote_err value_rc(const char *line, mote_lp_field *out)
{
    mote_lp_point pt;
    mote_err rc = decode_one(line, &pt, NULL, NULL);
    if (rc == MOTE_OK) *out = pt.fields[0];
    return rc;
}

/* Unescaping into an arena copies only escaped views. */
static void unescape_into_arena(void **state)
{
    (void)state;
    mote_lp_point pt;
    assert_int_equal(decode_one("a\\ b,k=v s=\"x\"", &pt, NULL, NULL), MOTE_OK);
    static uint8_t block[64]; /* static: the arena poisons its free bytes under ASan */
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    mote_view v;
    assert_int_equal(mote_lp_unescape_arena(&pt.tags[0].value, &a, &v), MOTE_OK);
    assert_ptr_equal(v.ptr, pt.tags[0].value.ptr); /* no escapes: the view itself */
    assert_int_equal(mote_lp_unescape_arena(&pt.measurement, &a, &v), MOTE_OK);
    assert_int_equal(v.len, 3);
    assert_memory_equal(v.ptr, "a b", 3);
    assert_true(v.ptr >= block && v.ptr < block + sizeof block);
    /* an arena without room: NOMEM */
    mote_arena tiny;
    assert_int_equal(mote_arena_init(&tiny, block, 1, NULL, NULL), MOTE_OK);
    /* fill it; on 32-bit hosts the 1-byte block may have no aligned byte
     * left to hand out, and the arena is full either way */
    void *fill = mote_arena_alloc(&tiny, 1);
    (void)fill;
    assert_int_equal(mote_lp_unescape_arena(&pt.measurement, &tiny, &v), MOTE_ERR_NOMEM);
    assert_int_equal(mote_lp_unescape_arena(NULL, &a, &v), MOTE_ERR_INVALID);
}

/* Key prediction (a key equal to the one before in its position is compared,
 * not scanned) never changes a result: longer, shorter, escaped, and
 * prefix-sharing keys in the same position. */
static void repeated_keys_decode_like_new_ones(void **state)
{
    (void)state;
    const char *in =
        "m,host=a,rack=1 usage=1i,idle=2i\n"
        "m,host=b,rack=2 usage=3i,idle=4i\n"
        "m,hostname=c,rack=3 usage_x=5i,idl=6i\n"
        "m,host=d,ra\\ ck=4 usage=7i,idle\\=x=8i\n"
        "m,host\\ =e,rack=5 usage=9i,idle=10i\n"
        "m,hos=f,rack=6 usage=11i,idle=12i\n"
        "m,host=g usage=13i\n";
    static const char *const want[][4] = {
        {"host", "rack", "usage", "idle"},     {"host", "rack", "usage", "idle"},
        {"hostname", "rack", "usage_x", "idl"}, {"host", "ra ck", "usage", "idle=x"},
        {"host ", "rack", "usage", "idle"},  {"hos", "rack", "usage", "idle"},
    };
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, in, strlen(in), NULL), MOTE_OK);
    mote_lp_point pt;
    for (int i = 0; i < 6; i++) {
        init_pt(&pt);
        assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
        assert_int_equal(mote_lp_point_decode(&pt, NULL, NULL), MOTE_OK);
        assert_text(&pt.tags[0].key, want[i][0]);
        assert_text(&pt.tags[1].key, want[i][1]);
        assert_text(&pt.fields[0].key, want[i][2]);
        assert_text(&pt.fields[1].key, want[i][3]);
        assert_true(pt.fields[1].value.i == 2 * i + 2);
    }
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
    assert_int_equal(pt.ntags, 1);
    assert_int_equal(pt.nfields, 1);
}

/* Keys of 8 to 23 bytes predicted within 24 bytes of the input's end, where
 * they are compared byte-exactly in place (no word may be read past the
 * end): equal ones, ones that differ in their last byte or in their first
 * word, shorter ones, and a key that runs into the end. */
static void predicted_long_keys_near_the_end(void **state)
{
    (void)state;
    static const struct {
        const char *last; /* after "m,hostname_long=a f_sixteen_bytes=1i\n" */
        const char *tag, *field;
    } cases[] = {
        {"m,hostname_long=b f_sixteen_bytes=2i", "hostname_long", "f_sixteen_bytes"},
        {"m,hostname_lonG=b f_sixteen_byteZ=2i", "hostname_lonG", "f_sixteen_byteZ"},
        {"m,hostnamE_long=b f_sixteen_Bytes=2i", "hostnamE_long", "f_sixteen_Bytes"},
        {"m,hostname=b f_sixteen=2i", "hostname", "f_sixteen"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char in[128];
        const int n = snprintf(in, sizeof in, "m,hostname_long=a f_sixteen_bytes=1i\n%s", cases[k].last);
        mote_lp_decoder d;
        assert_int_equal(mote_lp_decoder_init(&d, in, (size_t)n, NULL), MOTE_OK);
        mote_lp_point pt;
        init_pt(&pt);
        assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
        init_pt(&pt);
        assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
        assert_int_equal(mote_lp_point_decode(&pt, NULL, NULL), MOTE_OK);
        assert_text(&pt.tags[0].key, cases[k].tag);
        assert_text(&pt.tags[0].value, "b");
        assert_text(&pt.fields[0].key, cases[k].field);
        assert_true(pt.fields[0].value.i == 2);
        assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_ERR_NEED_MORE);
    }
    /* a key that runs into the end of the input: no '=' there */
    static const char in2[] = "m,hostname_long=a f=1i\nm,hostname_long";
    mote_lp_decoder d;
    mote_lp_error err;
    assert_int_equal(mote_lp_decoder_init(&d, in2, sizeof in2 - 1, NULL), MOTE_OK);
    mote_lp_point pt;
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_OK);
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, &err), MOTE_ERR_SYNTAX);
    assert_int_equal(err.pos.line, 2);
}

static void same_view_text(const mote_lp_text *a, const mote_lp_text *b)
{
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->ptr, b->ptr, a->len);
    assert_int_equal(a->escaped, b->escaped);
}

/* Key prediction by measurement (a set of remembered keys per measurement,
 * the line's set predicted from the line before, its measurement compared
 * instead of scanned) never changes a result: each line decodes as it does
 * alone in a fresh decoder. More measurements in turn than there are sets,
 * names that share a prefix, a measurement with and without tags (another
 * byte after it), escaped, long, non-ASCII and '=' measurements, bad lines
 * between good ones, and lines within 24 bytes of the end. */
static void measurements_in_turn_decode_like_new_ones(void **state)
{
    (void)state;
    static const char *const lines[] = {
        "cpu,cpu=cpu0,host=a usage_user=1,usage_idle=2 10\n",
        "mem,host=a used=3u,free=4u 11\n",
        "disk,device=d0,path=/a\\ b free=5u 12\n",
        "cpu2,cpu=cpu1 usage_user=6 13\n",
        "cp,x=y v=7i 14\n",
        "mem f=8u 15\n",
        "c\\ pu,host=a usage_user=9 16\n",
        "a_measurement_over_23_bytes_long,host=a v=10i 17\n",
        "temp\xc3\xa9,host=a v=11i 18\n",
        "a=b,host=a v=12i 19\n",
        "cpu,cpu=cpu0,host=a usage_user=13,usage_idle=14 20\n",
        "mem,host=a used=15u,free=16u 21\n",
        "cpu,cpu=cpu0,host=a usage_user=,usage_idle=17 22\n",
        "net,if=eth0 rx=18u,tx=19u 23\n",
        "swap,host=a used=20u 24\n",
        "kernel,host=a ctx=21i 25\n",
        "processes,host=a n=22i 26\n",
        "cpu,cpu=cpu0,host=b usage_user=23,usage_idle=24 27\n",
        "mem,hosts=a used=25u,free=26u 28\n",
        "cpu f=27\n",
        "cpu,h=1 f=28\n",
        "mem,host=a used=29u\n",
    };
    const size_t n = sizeof lines / sizeof lines[0];
    static char in[4096];
    size_t len = 0;
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < n; i++) {
            size_t k = strlen(lines[i]);
            assert_true(len + k < sizeof in);
            memcpy(in + len, lines[i], k);
            len += k;
        }
    }
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, in, len, NULL), MOTE_OK);
    static mote_lp_tag tags1[8];
    static mote_lp_field fields1[8];
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < n; i++) {
            mote_lp_point pt, one;
            mote_lp_error err, err1;
            init_pt(&pt);
            mote_err rc = mote_lp_next(&d, &pt, &err);
            if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, NULL, &err);
            mote_lp_decoder d1;
            assert_int_equal(mote_lp_decoder_init(&d1, lines[i], strlen(lines[i]), NULL), MOTE_OK);
            assert_int_equal(mote_lp_point_init(&one, tags1, 8, fields1, 8), MOTE_OK);
            mote_err rc1 = mote_lp_next(&d1, &one, &err1);
            if (rc1 == MOTE_OK) rc1 = mote_lp_point_decode(&one, NULL, &err1);
            assert_int_equal(rc, rc1);
            if (rc != MOTE_OK) {
                assert_int_equal(err.pos.column, err1.pos.column);
                continue;
            }
            same_view_text(&pt.measurement, &one.measurement);
            assert_int_equal(pt.ntags, one.ntags);
            assert_int_equal(pt.nfields, one.nfields);
            for (size_t t = 0; t < pt.ntags; t++) {
                same_view_text(&pt.tags[t].key, &one.tags[t].key);
                same_view_text(&pt.tags[t].value, &one.tags[t].value);
            }
            for (size_t f = 0; f < pt.nfields; f++) {
                same_view_text(&pt.fields[f].key, &one.fields[f].key);
                same_view_text(&pt.fields[f].raw, &one.fields[f].raw);
                assert_int_equal(pt.fields[f].type, one.fields[f].type);
            }
            assert_true(pt.time == one.time);
        }
    }
    mote_lp_point pt;
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_ERR_NEED_MORE);
}

/* Typed values: ranges, the ten boolean spellings, what floats refuse. */
static void typed_values_and_their_limits(void **state)
{
    (void)state;
    mote_lp_field f;
    memset(&f, 0, sizeof f);
    assert_int_equal(value_rc("m v=9223372036854775807i", &f), MOTE_OK);
    assert_true(f.value.i == INT64_MAX);
    assert_int_equal(value_rc("m v=-9223372036854775808i", &f), MOTE_OK);
    assert_true(f.value.i == INT64_MIN);
    assert_int_equal(value_rc("m v=9223372036854775808i", &f), MOTE_ERR_RANGE);
    assert_int_equal(value_rc("m v=-9223372036854775809i", &f), MOTE_ERR_RANGE);
    assert_int_equal(value_rc("m v=18446744073709551615u", &f), MOTE_OK);
    assert_true(f.value.u == UINT64_MAX);
    assert_int_equal(value_rc("m v=18446744073709551616u", &f), MOTE_ERR_RANGE);
    assert_int_equal(value_rc("m v=-1u", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=1.5i", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=-i", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=+1i", &f), MOTE_ERR_BAD_VALUE);
    static const char *const yes[] = {"t", "T", "true", "True", "TRUE"};
    static const char *const no[] = {"f", "F", "false", "False", "FALSE"};
    char line[64];
    for (int i = 0; i < 5; i++) {
        snprintf(line, sizeof line, "m v=%s", yes[i]);
        assert_int_equal(value_rc(line, &f), MOTE_OK);
        assert_true(f.type == MOTE_LP_BOOL && f.value.b);
        snprintf(line, sizeof line, "m v=%s", no[i]);
        assert_int_equal(value_rc(line, &f), MOTE_OK);
        assert_true(f.type == MOTE_LP_BOOL && !f.value.b);
    }
    assert_int_equal(value_rc("m v=tRUE", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=yes", &f), MOTE_ERR_BAD_VALUE);
    /* floats: decimal with optional exponent; no hex, '_', inf or nan */
    assert_int_equal(value_rc("m v=-1.25e2", &f), MOTE_OK);
    assert_true(f.value.f == -125.0);
    assert_int_equal(value_rc("m v=.5", &f), MOTE_OK);
    assert_int_equal(value_rc("m v=5.", &f), MOTE_OK);
    assert_int_equal(value_rc("m v=0x1p3", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=1_000", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=-inf", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=nan", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=1e400", &f), MOTE_ERR_RANGE);
    assert_int_equal(value_rc("m v=", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v= 1", &f), MOTE_ERR_BAD_VALUE);
    assert_int_equal(value_rc("m v=\"abc", &f), MOTE_ERR_UNTERMINATED_STRING);
    assert_int_equal(value_rc("m v=\"a\xff\"", &f), MOTE_ERR_SYNTAX);
    assert_int_equal(value_rc("m v=\"\xc3\xa9\"", &f), MOTE_OK);
}

/* Timestamps in each precision, overflow, default time truncated. */
static void timestamps_precision_overflow_default(void **state)
{
    (void)state;
    mote_lp_config opt;
    assert_int_equal(mote_lp_config_init(&opt), MOTE_OK);
    mote_lp_point pt;
    static const int64_t mul[4] = {1, 1000, 1000000, 1000000000};
    for (int p = 0; p < 4; p++) {
        opt.precision = (mote_lp_precision)p;
        assert_int_equal(decode_one("m f=1 -42", &pt, NULL, &opt), MOTE_OK);
        assert_true(pt.time == -42 * mul[p]);
    }
    opt.precision = MOTE_LP_S;
    assert_int_equal(decode_one("m f=1 9223372037", &pt, NULL, &opt), MOTE_ERR_BAD_TIMESTAMP);
    assert_int_equal(decode_one("m f=1 9223372036", &pt, NULL, &opt), MOTE_OK);
    opt.precision = MOTE_LP_NS;
    assert_int_equal(decode_one("m f=1 9223372036854775808", &pt, NULL, &opt),
                     MOTE_ERR_BAD_TIMESTAMP);
    assert_int_equal(decode_one("m f=1 1-2", &pt, NULL, &opt), MOTE_ERR_BAD_TIMESTAMP);
    assert_int_equal(decode_one("m f=1 1 2", &pt, NULL, &opt), MOTE_ERR_SYNTAX);
    opt.default_time = 1234567891;
    assert_int_equal(decode_one("m f=1", &pt, NULL, &opt), MOTE_OK);
    assert_false(pt.has_time);
    assert_true(pt.time == 1234567891);
    opt.precision = MOTE_LP_S;
    assert_int_equal(decode_one("m f=1  ", &pt, NULL, &opt), MOTE_OK);
    assert_true(pt.time == 1000000000);
    opt.default_time = -1;
    assert_int_equal(decode_one("m f=1", &pt, NULL, &opt), MOTE_OK);
    assert_true(pt.time == -1000000000); /* rounded down, as Go's Truncate */
}

/* The loop-free readings in speed builds (19-byte timestamps as three
 * words, integers of 4 to 16 digits as one or two words) check every byte:
 * a '-' or a letter at each position is an error, a '-' first a negative
 * time; INT64_MAX and every precision's bound hold at 19 digits. */
static void fast_paths_check_every_byte(void **state)
{
    (void)state;
    mote_lp_config opt;
    assert_int_equal(mote_lp_config_init(&opt), MOTE_OK);
    mote_lp_point pt;
    char line[64];
    for (int i = 0; i < 19; i++) {
        char t[20];
        memcpy(t, "1234567890123456789", 20);
        t[i] = '-';
        snprintf(line, sizeof line, "m f=1 %s", t);
        assert_int_equal(decode_one(line, &pt, NULL, &opt),
                         i == 0 ? MOTE_OK : MOTE_ERR_BAD_TIMESTAMP);
        if (i == 0) assert_true(pt.time == -234567890123456789);
    }
    assert_int_equal(decode_one("m f=1 9223372036854775807", &pt, NULL, &opt), MOTE_OK);
    assert_true(pt.time == INT64_MAX);
    assert_int_equal(decode_one("m f=1 9999999999999999999", &pt, NULL, &opt),
                     MOTE_ERR_BAD_TIMESTAMP);
    assert_int_equal(decode_one("m f=1 0000000000000000042", &pt, NULL, &opt), MOTE_OK);
    assert_true(pt.time == 42);
    opt.precision = MOTE_LP_US;
    assert_int_equal(decode_one("m f=1 0009223372036854775", &pt, NULL, &opt), MOTE_OK);
    assert_true(pt.time == 9223372036854775000);
    assert_int_equal(decode_one("m f=1 0009223372036854776", &pt, NULL, &opt),
                     MOTE_ERR_BAD_TIMESTAMP);
    opt.precision = MOTE_LP_NS;
    mote_lp_field f = {0}; /* (gcc -O2 on s390x, armhf, aarch64: "may be used uninitialized") */
    for (int n = 4; n <= 16; n++) {
        char v[17];
        memcpy(v, "9876543210987654", (size_t)n);
        v[n] = '\0';
        uint64_t want = strtoull(v, NULL, 10);
        snprintf(line, sizeof line, "m v=%si", v);
        assert_int_equal(value_rc(line, &f), MOTE_OK);
        assert_true(f.value.i == (int64_t)want);
        snprintf(line, sizeof line, "m v=%su", v);
        assert_int_equal(value_rc(line, &f), MOTE_OK);
        assert_true(f.value.u == want);
        for (int i = 0; i < n; i++) {
            const char bad[] = {'/', ':', 'a', '-', (char)0xb9};
            for (size_t b = 0; b < sizeof bad; b++) {
                char w[17];
                memcpy(w, v, (size_t)n + 1);
                w[i] = bad[b];
                snprintf(line, sizeof line, "m v=%su", w);
                assert_int_equal(value_rc(line, &f), MOTE_ERR_BAD_VALUE);
                snprintf(line, sizeof line, "m v=%si", w);
                assert_int_equal(value_rc(line, &f),
                                 i == 0 && bad[b] == '-' ? MOTE_OK : MOTE_ERR_BAD_VALUE);
            }
        }
    }
}

/* Limits are errors for that line, never truncation. */
static void limits_reported_not_truncated(void **state)
{
    (void)state;
    mote_lp_config opt;
    assert_int_equal(mote_lp_config_init(&opt), MOTE_OK);
    opt.max_line = 12;
    opt.max_key = 4;
    opt.max_string = 3;
    const char *in = "m f=1 123456\nm f=1 1234567\nlong f=1\nlonger f=1\nm s=\"abc\"\nm s=\"abcd\"\n";
    outcome o[8];
    size_t n = decode_all(in, strlen(in), &opt, o, 8);
    assert_int_equal(n, 6);
    assert_int_equal(o[0].rc, MOTE_OK);
    assert_int_equal(o[1].rc, MOTE_ERR_TOO_LONG);
    assert_int_equal(o[1].err.pos.line, 2);
    assert_int_equal(o[1].err.pos.column, 1);
    assert_int_equal(o[2].rc, MOTE_OK);
    assert_int_equal(o[3].rc, MOTE_ERR_TOO_LONG);
    assert_int_equal(o[4].rc, MOTE_OK);
    assert_int_equal(o[5].rc, MOTE_ERR_TOO_LONG);
}

/* mote_lp_next only tokenizes; mote_lp_point_decode converts (and can find
 * the line bad, with the value's position); values also convert one by one. */
static void tokenize_then_decode(void **state)
{
    (void)state;
    const char *in = "m a=12i,b=t1,c=1e5 77\nm a=zz9 1\n  m x=1,y=\"a\nb\",z=99999999999999999999u 1\n";
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, in, strlen(in), NULL), MOTE_OK);
    mote_lp_point pt;
    mote_lp_error err;
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, &err), MOTE_OK);
    assert_false(pt.decoded);
    assert_false(pt.fields[0].decoded);
    assert_int_equal(pt.fields[1].type, MOTE_LP_BOOL);
    assert_int_equal(mote_lp_field_decode(&pt.fields[0]), MOTE_OK);
    assert_true(pt.fields[0].value.i == 12);
    assert_int_equal(mote_lp_field_decode(&pt.fields[1]), MOTE_ERR_BAD_VALUE);
    assert_int_equal(mote_lp_field_decode(&pt.fields[2]), MOTE_OK);
    assert_true(pt.fields[2].value.f == 1e5);
    /* a field whose type is none of line protocol's (built by hand): INVALID */
    mote_lp_field odd = pt.fields[0];
    odd.type = (mote_lp_type)99;
    odd.decoded = false;
    assert_int_equal(mote_lp_field_decode(&odd), MOTE_ERR_INVALID);
    assert_false(odd.decoded);
    assert_int_equal(mote_lp_point_decode_time(&pt, MOTE_LP_MS, 0), MOTE_OK);
    assert_true(pt.time == 77000000);
    mote_lp_config opt;
    assert_int_equal(mote_lp_config_init(&opt), MOTE_OK);
    assert_int_equal(mote_lp_point_decode(&pt, &opt, &err), MOTE_ERR_BAD_VALUE);
    assert_int_equal(err.pos.offset, 10);
    assert_int_equal(err.pos.column, 11);
    /* a value of no known kind is a tokenizer error */
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, &err), MOTE_ERR_BAD_VALUE);
    assert_int_equal(err.pos.line, 2);
    /* decode errors after a string's raw newline: line and column counted */
    init_pt(&pt);
    assert_int_equal(mote_lp_next(&d, &pt, &err), MOTE_OK);
    assert_int_equal(pt.column, 3);
    assert_int_equal(mote_lp_point_decode(&pt, &opt, &err), MOTE_ERR_RANGE);
    assert_int_equal(err.pos.line, 4);
    assert_int_equal(err.pos.column, 6);
    assert_int_equal(err.line_offset, 32);
    assert_int_equal(mote_lp_point_decode(NULL, &opt, &err), MOTE_ERR_INVALID);
}

/* ---- streaming ----------------------------------------------------------- */

typedef struct rec {
    mote_err rc;
    uint64_t off, line, col;
    char text[64];
} rec;

static size_t run_whole(const char *in, size_t len, const mote_lp_config *opt, rec *out, size_t cap)
{
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, in, len, opt), MOTE_OK);
    size_t n = 0;
    for (;;) {
        mote_lp_point pt;
        init_pt(&pt);
        mote_lp_error err;
        mote_err rc = mote_lp_next(&d, &pt, &err);
        if (rc == MOTE_ERR_NEED_MORE) return n;
        if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, opt, &err);
        assert_true(n < cap);
        memset(&out[n], 0, sizeof out[n]);
        out[n].rc = rc;
        if (rc == MOTE_OK) {
            out[n].off = pt.offset;
            out[n].line = pt.line;
            uint8_t buf[64];
            size_t k = 0;
            assert_int_equal(mote_lp_unescape(&pt.fields[0].value.s, buf, sizeof buf, &k), MOTE_OK);
            snprintf(out[n].text, sizeof out[n].text, "%.*s|%zu|%lld", (int)k, (const char *)buf,
                     pt.ntags, (long long)pt.time);
        } else {
            out[n].off = err.pos.offset;
            out[n].line = err.pos.line;
            out[n].col = err.pos.column;
        }
        n++;
    }
}

static size_t run_chunks(const char *in, size_t len, size_t chunk, const mote_lp_config *opt,
                         uint8_t *carry, size_t carry_cap, rec *out, size_t cap)
{
    mote_lp_stream s;
    assert_int_equal(mote_lp_stream_init(&s, opt, carry, carry_cap), MOTE_OK);
    size_t n = 0, off = 0;
    bool done = false;
    for (;;) {
        mote_lp_point pt;
        init_pt(&pt);
        mote_lp_error err;
        mote_err rc = mote_lp_stream_next(&s, &pt, &err);
        if (rc == MOTE_OK) rc = mote_lp_point_decode(&pt, opt, &err);
        if (rc == MOTE_ERR_NEED_MORE) {
            if (done) return n;
            if (off == len) {
                assert_int_equal(mote_lp_stream_finish(&s), MOTE_OK);
                done = true;
                continue;
            }
            size_t k = len - off < chunk ? len - off : chunk;
            assert_int_equal(mote_lp_stream_feed(&s, in + off, k), MOTE_OK);
            off += k;
            continue;
        }
        assert_true(n < cap);
        memset(&out[n], 0, sizeof out[n]);
        out[n].rc = rc;
        if (rc == MOTE_OK) {
            out[n].off = pt.offset;
            out[n].line = pt.line;
            uint8_t buf[64];
            size_t k = 0;
            assert_int_equal(mote_lp_unescape(&pt.fields[0].value.s, buf, sizeof buf, &k), MOTE_OK);
            snprintf(out[n].text, sizeof out[n].text, "%.*s|%zu|%lld", (int)k, (const char *)buf,
                     pt.ntags, (long long)pt.time);
        } else {
            out[n].off = err.pos.offset;
            out[n].line = err.pos.line;
            out[n].col = err.pos.column;
        }
        n++;
    }
}

static void assert_same(const rec *a, size_t na, const rec *b, size_t nb)
{
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        assert_int_equal(a[i].rc, b[i].rc);
        assert_int_equal(a[i].off, b[i].off);
        assert_int_equal(a[i].line, b[i].line);
        assert_int_equal(a[i].col, b[i].col);
        assert_string_equal(a[i].text, b[i].text);
    }
}

/* The same points and errors for every chunk size and every split point:
 * between a backslash and the byte it escapes, inside a string (also around
 * its raw newline and escaped quote), between CR and LF. */
static void streaming_equals_whole_for_any_chunking(void **state)
{
    (void)state;
    static const char in[] =
        "# head\r\n"
        "c\\ pu,t\\=a=v\\,1 s=\"a\\\"b\nc\\\\\",x=1i 100\r\n"
        "bad,=x s=\"q\"\n"
        "  m s=\"line\r\nbreak\" 5\r\n"
        "m,k=v s=\"unterminated\n"
        "more\" 7\n"
        "x s=\"z\",y=bad\n"
        "last s=\"end\"";
    size_t len = sizeof in - 1;
    rec whole[16], part[16];
    size_t nw = run_whole(in, len, NULL, whole, 16);
    assert_int_equal(nw, 6);
    assert_int_equal(whole[0].rc, MOTE_OK);
    assert_string_equal(whole[0].text, "a\"b\nc\\|1|100");
    assert_int_equal(whole[1].rc, MOTE_ERR_EMPTY_NAME);
    assert_int_equal(whole[2].rc, MOTE_OK);
    assert_string_equal(whole[2].text, "line\r\nbreak|0|5");
    assert_int_equal(whole[3].rc, MOTE_OK);
    assert_string_equal(whole[3].text, "unterminated\nmore|1|7");
    assert_int_equal(whole[4].rc, MOTE_ERR_BAD_VALUE);
    assert_int_equal(whole[4].line, 9);
    static uint8_t carry[256];
    for (size_t chunk = 1; chunk <= len; chunk++) {
        size_t np = run_chunks(in, len, chunk, NULL, carry, sizeof carry, part, 16);
        assert_same(whole, nw, part, np);
    }
}

/* A line longer than the carry buffer is dropped as TOO_LONG at its start;
 * the lines after it come out normally. The whole-input decoder agrees when
 * max_line is the same. */
static void streaming_carry_overflow_is_too_long(void **state)
{
    (void)state;
    static const char in[] = "a s=\"1\"\nbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb s=\"2\"\nc s=\"3\"\n";
    size_t len = sizeof in - 1;
    uint8_t carry[16];
    mote_lp_config opt;
    assert_int_equal(mote_lp_config_init(&opt), MOTE_OK);
    opt.max_line = sizeof carry - 1;
    rec whole[8], part[8];
    size_t nw = run_whole(in, len, &opt, whole, 8);
    assert_int_equal(nw, 3);
    assert_int_equal(whole[1].rc, MOTE_ERR_TOO_LONG);
    assert_int_equal(whole[1].line, 2);
    assert_int_equal(whole[1].off, 8);
    for (size_t chunk = 1; chunk <= len; chunk++) {
        size_t np = run_chunks(in, len, chunk, NULL, carry, sizeof carry, part, 8);
        assert_same(whole, nw, part, np);
    }
}

/* Bad arguments and call order. */
static void bad_arguments_and_state(void **state)
{
    (void)state;
    mote_lp_decoder d;
    mote_lp_point pt;
    init_pt(&pt);
    assert_int_equal(mote_lp_decoder_init(NULL, "x", 1, NULL), MOTE_ERR_INVALID);
    assert_int_equal(mote_lp_decoder_init(&d, NULL, 1, NULL), MOTE_ERR_INVALID);
    assert_int_equal(mote_lp_decoder_init(&d, NULL, 0, NULL), MOTE_OK);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_ERR_NEED_MORE);
    assert_int_equal(mote_lp_next(&d, NULL, NULL), MOTE_ERR_INVALID);
    mote_lp_config opt;
    assert_int_equal(mote_lp_config_init(&opt), MOTE_OK);
    opt.precision = (mote_lp_precision)9;
    assert_int_equal(mote_lp_decoder_init(&d, "x", 1, &opt), MOTE_ERR_INVALID);
    assert_int_equal(mote_lp_config_init(NULL), MOTE_ERR_INVALID);
    assert_int_equal(mote_lp_point_init(NULL, NULL, 0, NULL, 0), MOTE_ERR_INVALID);
    /* a NULL array with a cap: refused, and the point is left with no arrays */
    mote_lp_field one[1];
    assert_int_equal(mote_lp_point_init(&pt, NULL, 2, one, 1), MOTE_ERR_INVALID);
    assert_true(pt.tags == NULL && pt.tags_cap == 0 && pt.fields == NULL && pt.fields_cap == 0);
    assert_int_equal(mote_lp_point_init(&pt, g_tags, 8, NULL, 1), MOTE_ERR_INVALID);
    assert_true(pt.tags == NULL && pt.tags_cap == 0 && pt.fields_cap == 0);
    init_pt(&pt);
    mote_lp_stream s;
    uint8_t carry[8];
    assert_int_equal(mote_lp_stream_init(&s, NULL, carry, 1), MOTE_ERR_INVALID);
    assert_int_equal(mote_lp_stream_init(&s, NULL, carry, sizeof carry), MOTE_OK);
    assert_int_equal(mote_lp_stream_feed(&s, "a f=1\nb", 7), MOTE_OK);
    assert_int_equal(mote_lp_stream_feed(&s, "x", 1), MOTE_ERR_STATE); /* not used up */
    assert_int_equal(mote_lp_stream_finish(&s), MOTE_ERR_STATE);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_OK);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_ERR_NEED_MORE);
    assert_int_equal(mote_lp_stream_finish(&s), MOTE_OK);
    assert_int_equal(mote_lp_stream_feed(&s, "x", 1), MOTE_ERR_STATE);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_ERR_NO_FIELDS);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_ERR_NEED_MORE);
    mote_lp_text t = {NULL, 3, false, 0};
    size_t n;
    assert_int_equal(mote_lp_unescape(&t, carry, sizeof carry, &n), MOTE_ERR_INVALID);
}

/* An empty chunk given as (NULL, 0) is valid input, to the whole-input
 * decoder and to the stream, before and between real chunks. The end of
 * such a view was computed as NULL + 0, undefined in C: clang's UBSan
 * (-fsanitize=pointer-overflow, halt_on_error) stops here without the fix;
 * gcc's does not flag it. */
static void null_empty_chunks(void **state)
{
    (void)state;
    mote_lp_point pt;
    init_pt(&pt);
    mote_lp_decoder d;
    assert_int_equal(mote_lp_decoder_init(&d, NULL, 0, NULL), MOTE_OK);
    assert_int_equal(mote_lp_next(&d, &pt, NULL), MOTE_ERR_NEED_MORE);
    mote_lp_stream s;
    uint8_t carry[32];
    assert_int_equal(mote_lp_stream_init(&s, NULL, carry, sizeof carry), MOTE_OK);
    assert_int_equal(mote_lp_stream_feed(&s, NULL, 0), MOTE_OK);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_ERR_NEED_MORE);
    assert_int_equal(mote_lp_stream_feed(&s, "m f=1", 5), MOTE_OK);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_ERR_NEED_MORE);
    assert_int_equal(mote_lp_stream_feed(&s, NULL, 0), MOTE_OK);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_ERR_NEED_MORE);
    assert_int_equal(mote_lp_stream_finish(&s), MOTE_OK);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_OK);
    assert_int_equal(pt.measurement.len, 1);
    assert_int_equal(mote_lp_stream_next(&s, &pt, NULL), MOTE_ERR_NEED_MORE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decodes_all_parts_as_views),
        cmocka_unit_test(escapes_flagged_and_unescaped_on_demand),
        cmocka_unit_test(escapes_in_ordinary_lines),
        cmocka_unit_test(unescape_into_arena),
        cmocka_unit_test(bad_lines_reported_and_skipped),
        cmocka_unit_test(comments_blank_lines_crlf),
        cmocka_unit_test(no_fixed_limit_on_tags_and_fields),
        cmocka_unit_test(repeated_keys_decode_like_new_ones),
        cmocka_unit_test(predicted_long_keys_near_the_end),
        cmocka_unit_test(measurements_in_turn_decode_like_new_ones),
        cmocka_unit_test(typed_values_and_their_limits),
        cmocka_unit_test(timestamps_precision_overflow_default),
        cmocka_unit_test(fast_paths_check_every_byte),
        cmocka_unit_test(limits_reported_not_truncated),
        cmocka_unit_test(tokenize_then_decode),
        cmocka_unit_test(streaming_equals_whole_for_any_chunking),
        cmocka_unit_test(streaming_carry_overflow_is_too_long),
        cmocka_unit_test(bad_arguments_and_state),
        cmocka_unit_test(null_empty_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
