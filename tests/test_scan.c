/* test_scan.c - mote_split and the streaming scanner: boundaries, chunking
 * invariance, positions, errors and recovery, memory bounds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mote/arena.h"
#include "mote/scan.h"
#include "portable_scan.h" /* scan.c without SIMD (tests/copies/meson.build), for scan_util.h */
#include "small_scan.h"    /* scan.c as small builds have it: the grammar alone */
#include "scan_util.h"

static mote_scan_config cfg_of(mote_scan_dialect d)
{
    mote_scan_config c;
    assert_int_equal(mote_scan_config_init(&c, d), MOTE_OK);
    return c;
}

/* Scan s with every chunk size 1..9 and whole; all transcripts must be equal;
 * returns the transcript (caller frees .s) and checks bytes_examined. */
static transcript scan_every(const mote_scan_config *cfg, const char *s, size_t n)
{
    transcript whole = scan_all(cfg, s, n, n ? n : 1, 0);
    assert_int_equal(whole.stats.bytes_examined, n);
    for (size_t k = 1; k <= 9; k++) {
        transcript t = scan_all(cfg, s, n, k, 0);
        if (strcmp(t.s, whole.s) != 0) {
            print_message("chunk %zu:\n%s\nwhole:\n%s\n", k, t.s, whole.s);
            fail();
        }
        assert_int_equal(t.stats.bytes_examined, n);
        assert_int_equal(t.stats.bytes_fed, n);
        free(t.s);
    }
    return whole;
}

/* text[0..n) whole, byte by byte and in random chunks (seed; through the
 * scanner iter picks, scan_util.h's scan_variant()), and whole through every
 * other scanner (each block classifier, the grammar alone): the same
 * transcript each time, every byte examined once; iter names the case. */
static void same_any_chunking(const mote_scan_config *c, const char *text, size_t n, uint32_t seed,
                              unsigned iter)
{
    transcript whole = scan_all(c, text, n, n, 0);
    transcript one = scan_all(c, text, n, 1, 0);
    const char *vname;
    transcript var = scan_chunks_with(scan_variant(iter, &vname), c, text, n, 0, seed | 1u, 0);
    if (strcmp(whole.s, one.s) != 0 || strcmp(whole.s, var.s) != 0) {
        print_message("iter %u dialect %d input:\n%.*s\nwhole:\n%s\nbytes:\n%s\nchunks (%s):\n%s\n", iter,
                      (int)c->dialect, (int)n, text, whole.s, one.s, vname, var.s);
        fail();
    }
    const char *other = scan_variants_differ(c, text, n, &whole);
    if (other) {
        print_message("iter %u dialect %d: the %s scanner differs, input:\n%.*s\n", iter, (int)c->dialect,
                      other, (int)n, text);
        fail();
    }
    assert_int_equal(whole.stats.bytes_examined, n);
    free(whole.s);
    free(one.s);
    free(var.s);
}

static void expect_scan(mote_scan_config cfg, const char *in, const char *want)
{
    transcript t = scan_every(&cfg, in, strlen(in));
    if (strcmp(t.s, want) != 0) {
        print_message("input: %s\ngot:\n%s\nwant:\n%s\n", in, t.s, want);
        fail();
    }
    free(t.s);
}

/* ------------------------------------------------------------ split */

static void split_skips_empty_parts_and_keeps_escapes(void **state)
{
    (void)state;
    const char *s = ";;a;b\\;c;;\"d;e\";";
    mote_view parts[8];
    size_t n = 0;
    assert_int_equal(mote_split((const uint8_t *)s, strlen(s), ';', parts, 8, &n), MOTE_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(parts[0].ptr, "a", 1);
    assert_int_equal(parts[1].len, 4);
    assert_memory_equal(parts[1].ptr, "b\\;c", 4);
    assert_int_equal(parts[2].len, 5);
    assert_memory_equal(parts[2].ptr, "\"d;e\"", 5);
    assert_ptr_equal(parts[0].ptr, (const uint8_t *)s + 2); /* a view, not a copy */
}

static void split_reports_count_when_array_too_small(void **state)
{
    (void)state;
    const char *s = "a,b,c,d";
    mote_view parts[2];
    size_t n = 0;
    assert_int_equal(mote_split((const uint8_t *)s, 7, ',', parts, 2, &n), MOTE_ERR_SPACE);
    assert_int_equal(n, 4);
    assert_memory_equal(parts[1].ptr, "b", 1);
    assert_int_equal(mote_split((const uint8_t *)s, 7, ',', NULL, 0, &n), MOTE_ERR_SPACE);
    assert_int_equal(n, 4);
    assert_int_equal(mote_split(NULL, 0, ',', NULL, 0, &n), MOTE_OK);
    assert_int_equal(n, 0);
    assert_int_equal(mote_split((const uint8_t *)s, 7, '"', parts, 2, &n), MOTE_ERR_INVALID);
}

static void split_unterminated_quote_runs_to_end(void **state)
{
    (void)state;
    const char *s = "a;\"b;c";
    mote_view parts[4];
    size_t n;
    assert_int_equal(mote_split((const uint8_t *)s, strlen(s), ';', parts, 4, &n), MOTE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(parts[1].len, 4);
}

/* --------------------------------------------------------- generic */

static void generic_split_semantics_any_chunking(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_GENERIC), "a;b\\;c;;\"d;e\";'f;g'",
                "1:1@0|a|\n1:3@2|b\\x5c;c|\n1:9@8|\"d;e\"|\n1:15@14$|'f;g'|\n");
}

static void multibyte_delimiter_restarts_partial_match(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    c.delim = (const uint8_t *)"ab";
    c.delim_len = 2;
    /* the reference implementation lost "xa" + " y": after "a" it met "a" */
    expect_scan(c, "xaab yab", "1:1@0|xa|\n1:5@4|\x20y|\n");
    c.delim = (const uint8_t *)"aab";
    c.delim_len = 3;
    expect_scan(c, "xaaab1aab", "1:1@0|xa|\n1:6@5|1|\n");
}

static void keep_blank_returns_empty_tokens(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    c.flags = MOTE_SCAN_KEEP_BLANK;
    expect_scan(c, ";a;;", "1:1@0||\n1:2@1|a|\n1:4@3||\n");
}

/* The rest after the last delimiter is handed out only when it is not
 * blank: a generic script's last "\n" is no statement cut short (generic
 * and lines keep leading blanks; so does KEEP_LEADING), KEEP_BLANK or not.
 * A COPY row is data, blank or not. */
static void blank_rest_after_last_delimiter_not_a_statement(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_GENERIC), "a;\n", "1:1@0|a|\n");
    expect_scan(cfg_of(MOTE_SCAN_GENERIC), "a;\n b", "1:1@0|a|\n1:3@2$|\\x0a b|\n");
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    c.flags = MOTE_SCAN_KEEP_BLANK;
    expect_scan(c, "a; \t\r\n", "1:1@0|a|\n");
    c = cfg_of(MOTE_SCAN_MYSQL);
    c.flags = MOTE_SCAN_KEEP_LEADING;
    expect_scan(c, "a;\n  b;\n", "1:1@0|a|\n1:3@2|\\x0a  b|\n");
    expect_scan(cfg_of(MOTE_SCAN_LINES), "a\n  ", "1:1@0|a|\n");
    expect_scan(cfg_of(MOTE_SCAN_LINES), "a\n\r", "1:1@0|a|\n");
    expect_scan(cfg_of(MOTE_SCAN_LINES), "a\n \n", "1:1@0|a|\n2:1@2| |\n");
    expect_scan(cfg_of(MOTE_SCAN_POSTGRES), "COPY t FROM stdin;\n1\n  ",
                "1:1@0|COPY t FROM stdin|\n2:1@19D|1|\n3:1@21$D|  |\n");
}

static void generic_comment_styles(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    c.comments = MOTE_SCAN_COMMENT_HASH | MOTE_SCAN_COMMENT_BLOCK;
    c.escape = -1;
    expect_scan(c, "a#;\n;b/*;*/c;", "1:1@0|a#;\\x0a|\n2:2@5|b/*;*/c|\n");
}

/* ----------------------------------------------------------- mysql */

static void mysql_dashdash_needs_blank(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "select 1--1;select 2 -- x;\n;",
                "1:1@0|select 1--1|\n1:13@12|select 2 -- x;\\x0a|\n");
}

static void mysql_hash_comment_apostrophe_opens_no_string(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "# it's\nselect 1;select 2;",
                "2:1@7|select 1|\n2:10@16|select 2|\n");
}

static void slash_star_slash_is_one_comment(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "/*/ ; */ select 1; x",
                "1:10@9|select 1|\n1:20@19$|x|\n");
}

static void mysql_quotes_and_escapes(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "a 'x\\';y' \"p;\" `b\\`;c",
                "1:1@0|a 'x\\x5c';y' \"p;\" `b\\x5c`|\n1:21@20$|c|\n");
}

static void mysql_delimiter_command(void **state)
{
    (void)state;
    const char *in =
        "select 1;\n"
        "DELIMITER //\n"
        "create procedure p() begin select 1; select 2; end//\n"
        "delimiter ;  trailing words ignored\n"
        "select 3;";
    /* scan_every feeds 1..9-byte chunks: the command straddles boundaries */
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), in,
                "1:1@0|select 1|\n2:1@10C|DELIMITER //|\n"
                "3:1@23|create procedure p() begin select 1; select 2; end|\n"
                "4:1@76C|delimiter ;  trailing words ignored|\n5:1@112|select 3|\n");
}

static void mysql_multibyte_delimiter_with_comment_bytes(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "DELIMITER $$\nselect '$$' /* $$ */ $$x$$",
                "1:1@0C|DELIMITER $$|\n2:1@13|select '$$' /* $$ */ |\n2:24@36|x|\n");
}

static void mysql_bad_delimiter_keeps_old(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "delimiter\na;delimiter \\x\nb;",
                "!BAD_DELIMITER@1:1@0\n2:1@10|a|\n!BAD_DELIMITER@2:3@12\n3:1@25|b|\n");
}

static void mysql_delimiter_word_not_command(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "delimiters x;select delimiter //;",
                "1:1@0|delimiters x|\n1:14@13|select delimiter //|\n");
}

/* ---------------------------------------------------------- errors */

static void too_long_drops_to_next_delimiter_tracking_quotes(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_MYSQL);
    c.max_token = 8;
    expect_scan(c, "ok;\nselect 'a;b;c;d';\nafter;12345678;123456789;",
                "1:1@0|ok|\n!TOO_LONG@2:1@4\n3:1@22|after|\n3:7@28|12345678|\n!TOO_LONG@3:16@37\n");
}

/* The scanner reads up to max_token + the delimiter's length before it
 * calls a token too long, so a token the input cuts off inside that margin
 * (a delimiter's first byte, no second) is judged where it is handed out. */
static void too_long_at_end_inside_delimiter_margin(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    c.max_token = 6;
    c.delim = (const uint8_t *)"$$";
    c.delim_len = 2;
    expect_scan(c, "abcdef$", "!TOO_LONG@1:1@0\n");
    expect_scan(c, "abcde$", "1:1@0$|abcde$|\n");
    expect_scan(c, "abcdef$$x", "1:1@0|abcdef|\n1:9@8$|x|\n");
}

static void too_long_through_fixed_carry_cap(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    const char *in = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;b;";
    transcript t = scan_all(&c, in, strlen(in), 4, 16);
    assert_string_equal(t.s, "!TOO_LONG@1:1@0\n1:34@33|b|\n");
    free(t.s);
}

/* The carry holds a straddling token with its delimiter: max_token + the
 * delimiter's length bytes (a line or COPY row: + 2, for "\r\n", or + 1 in
 * pieces). A carry of that size gives every chunking the transcript of the
 * whole input, for max_tokens that put tokens of each length at the bound;
 * one byte less does not (a capacity probe of the carry: scan.h said only
 * "set max_token below" the carry's cap, and a token of max_token bytes
 * split before its ';' was TOO_LONG through a carry of max_token). */
static void carry_of_max_token_and_delimiter_is_enough(void **state)
{
    (void)state;
    static const struct {
        mote_scan_dialect d;
        const char *delim;
        unsigned flags;
        size_t extra;
        const char *in;
    } cases[] = {
        {MOTE_SCAN_GENERIC, NULL, 0, 1, "ab;abcd;abcdef;abcdefgh;x;abcdefghij;"},
        {MOTE_SCAN_GENERIC, "$$", 0, 2, "ab$$abcd$$abcdef$$abcdefgh$$x$$abcdefghij$$"},
        {MOTE_SCAN_GENERIC, NULL, MOTE_SCAN_PIECES, 1, "ab;abcd;abcdef;abcdefgh;x;abcdefghij;"},
        {MOTE_SCAN_GENERIC, "$$", MOTE_SCAN_PIECES, 2, "ab$$abcd$$abcdef$$abcdefgh$$x$$abcdefghij$$"},
        {MOTE_SCAN_LINES, NULL, 0, 2, "ab\nabcd\r\nabcdef\nabcdefgh\r\nx\nabcdefghij\n"},
        {MOTE_SCAN_LINES, NULL, MOTE_SCAN_PIECES, 1, "ab\nabcd\r\nabcdef\nabcdefgh\r\nx\nabcdefghij\n"},
        {MOTE_SCAN_POSTGRES, NULL, 0, 2, "COPY t FROM stdin;\nab\nabcd\r\nabcdef\nabcdefgh\r\n\\.\nabcd;"},
        {MOTE_SCAN_POSTGRES, NULL, MOTE_SCAN_KEEP_COMMENTS, 1,
         "/* c1 */ ab; -- cmt\nabcd; /* long comment */ x;"},
        {MOTE_SCAN_MYSQL, NULL, 0, 2, "ab;abcd;\nDELIMITER //\nabcd//ab//\n"},
        {MOTE_SCAN_SQLITE, NULL, 0, 1, "ab;abcd;abcdef;abcdefgh;x;abcdefghij;"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mote_scan_config c = cfg_of(cases[i].d);
        if (cases[i].delim) {
            c.delim = (const uint8_t *)cases[i].delim;
            c.delim_len = strlen(cases[i].delim);
        }
        c.flags = cases[i].flags;
        const char *in = cases[i].in;
        const size_t n = strlen(in);
        bool short_differs = false;
        for (size_t m = 1; m <= 12; m++) {
            c.max_token = m;
            transcript whole = scan_all(&c, in, n, n, 0);
            for (size_t k = 1; k <= 9; k++) {
                transcript t = scan_all(&c, in, n, k, m + cases[i].extra);
                if (strcmp(t.s, whole.s) != 0) {
                    print_message("case %zu, max_token %zu, carry %zu, chunk %zu:\n%s\nwhole:\n%s\n",
                                  i, m, m + cases[i].extra, k, t.s, whole.s);
                    fail();
                }
                free(t.s);
                t = scan_all(&c, in, n, k, m + cases[i].extra - 1);
                short_differs |= strcmp(t.s, whole.s) != 0;
                free(t.s);
            }
            free(whole.s);
        }
        if (!short_differs) fail_msg("case %zu: a carry one byte smaller is enough too", i);
    }
}

static void unterminated_quote_names_opening_line(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "a;\nb;\nselect 'x;\n;\n",
                "1:1@0|a|\n2:1@3|b|\n!UNTERMINATED_QUOTE@3:8@13\n");
    expect_scan(cfg_of(MOTE_SCAN_POSTGRES), "x;\n /* /* */ ;\n",
                "1:1@0|x|\n!UNTERMINATED_COMMENT@2:2@4\n");
}

/* ------------------------------------------------------- positions */

static void bom_skipped_crlf_one_break_nul_is_data(void **state)
{
    (void)state;
    static const char in[] = "\xEF\xBB\xBF" "a;\r\nb\r\r\nc\0d;";
    expect_scan(cfg_of(MOTE_SCAN_MYSQL), "\xEF\xBB\xBF" "a;", "1:1@3|a|\n");
    mote_scan_config c = cfg_of(MOTE_SCAN_MYSQL);
    transcript t = scan_every(&c, in, sizeof in - 1);
    assert_string_equal(t.s, "1:1@3|a|\n2:1@7|b\\x0d\\x0d\\x0ac\\x00d|\n");
    free(t.s);
    /* a partial BOM is data */
    expect_scan(cfg_of(MOTE_SCAN_GENERIC), "\xEF\xBBx;y", "1:1@0|\\xef\\xbbx|\n1:5@4$|y|\n");
    expect_scan(cfg_of(MOTE_SCAN_GENERIC), "\xEF", "1:1@0$|\\xef|\n");
}

/* ----------------------------------------------------------- lines */

static void lines_quotes_hold_newlines_crlf_stripped(void **state)
{
    (void)state;
    mote_scan_token tok;
    expect_scan(cfg_of(MOTE_SCAN_LINES), "m f=\"a\nb\" 1\r\n\nm\\\n x=1\n  \nlast",
                "1:1@0r|m f=\"a\\x0ab\" 1|\n4:1@14|m\\x5c\\x0a x=1|\n6:1@22|  |\n7:1@25$|last|\n");
    /* flags: CR removed, escapes present */
    mote_scan_config c = cfg_of(MOTE_SCAN_LINES);
    uint8_t mem[64];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    mote_scanner sc;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
    assert_int_equal(mote_scan_feed(&sc, "a\\ b\r\nc", 7), MOTE_OK);
    assert_int_equal(mote_scan_next(&sc, &tok), MOTE_OK);
    assert_int_equal(tok.flags, MOTE_SCAN_TOK_DELIM | MOTE_SCAN_TOK_CR | MOTE_SCAN_TOK_ESCAPES);
    assert_int_equal(tok.text.len, 4);
    assert_int_equal(mote_scan_next(&sc, &tok), MOTE_ERR_NEED_MORE);
    assert_int_equal(mote_scan_finish(&sc), MOTE_OK);
    assert_int_equal(mote_scan_next(&sc, &tok), MOTE_OK);
    assert_int_equal(tok.flags, 0);
    assert_memory_equal(tok.text.ptr, "c", 1);
    assert_int_equal(mote_scan_next(&sc, &tok), MOTE_ERR_NEED_MORE);
    assert_int_equal(mote_scan_next(&sc, &tok), MOTE_ERR_NEED_MORE);
}

/* -------------------------------------------------------- postgres */

static void postgres_dollar_quotes_e_strings_nested_comments(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_POSTGRES),
                "select $$a;b$$, $x$ $$; $x$;"
                "select E'\\';', e'x', 'y\\';"
                "select /* a /* ; */ ; */ a$b; select $1;x$y$;",
                "1:1@0|select $$a;b$$, $x$ $$; $x$|\n"
                "1:29@28|select E'\\x5c';', e'x', 'y\\x5c'|\n"
                "1:55@54|select /* a /* ; */ ; */ a$b|\n"
                "1:85@84|select $1|\n1:95@94|x$y$|\n");
}

/* ---------------------------------------------------------- sqlite */

static void sqlite_trigger_body_is_one_statement(void **state)
{
    (void)state;
    expect_scan(cfg_of(MOTE_SCAN_SQLITE),
                "create temp trigger t after insert on a begin insert into b values(1); "
                "select [x;y]; end; select `a;`; explain create trigger u before delete on a "
                "begin select 1; end ; create table end_t(x);",
                "1:1@0|create temp trigger t after insert on a begin insert into b values(1); "
                "select [x;y]; end|\n"
                "1:91@90|select `a;`|\n"
                "1:104@103|explain create trigger u before delete on a begin select 1; end |\n"
                "1:170@169|create table end_t(x)|\n");
}

/* ----------------------------------------------------------- pieces */

static void pieces_mode_hands_out_long_token_in_parts(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    c.max_token = 4;
    c.flags = MOTE_SCAN_PIECES;
    c.delim = (const uint8_t *)"//";
    c.delim_len = 2;
    expect_scan(c, "abcdefghij//xy//abcd//",
                "1:1@0+|abcd|\n1:5@4+|efgh|\n1:9@8|ij|\n1:13@12|xy|\n1:17@16|abcd|\n");
    transcript t = scan_all(&c, "abcdefghij//", 12, 3, 8);
    assert_string_equal(t.s, "1:1@0+|abcd|\n1:5@4+|efgh|\n1:9@8|ij|\n");
    assert_true(t.stats.carry_peak <= 8);
    free(t.s);
}

/* ---------------------------------------------------- memory bounds */

static void one_big_statement_examined_once(void **state)
{
    (void)state;
    size_t n = 5u << 20;
    char *in = malloc(n);
    for (size_t i = 0; i < n; i++) in[i] = (char)('a' + i % 23);
    memcpy(in + 100, "'quoted;'", 9);
    in[n - 1] = ';';
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, mote_heap_alloc, NULL), MOTE_OK);
    mote_pool pool;
    assert_int_equal(mote_pool_init(&pool, &a, 0), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &pool, 0), MOTE_OK);
    mote_scan_config c = cfg_of(MOTE_SCAN_MYSQL);
    mote_scanner sc;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
    mote_scan_token tok;
    size_t got = 0, calls = 0;
    for (size_t off = 0; off < n; off += 4096) {
        size_t k = n - off < 4096 ? n - off : 4096;
        assert_int_equal(mote_scan_feed(&sc, in + off, k), MOTE_OK);
        mote_err e;
        while ((e = mote_scan_next(&sc, &tok)) == MOTE_OK) {
            assert_int_equal(tok.text.len, n - 1);
            assert_memory_equal(tok.text.ptr, in, n - 1);
            got++;
        }
        assert_int_equal(e, MOTE_ERR_NEED_MORE);
        calls++;
    }
    assert_int_equal(got, 1);
    mote_scan_stats st;
    mote_scan_get_stats(&sc, &st);
    assert_int_equal(st.bytes_examined, n); /* not 1,280 rescans of a growing buffer */
    assert_true(st.bytes_copied <= n);
    mote_buf_free(&b);
    mote_arena_destroy(&a);
    free(in);
}

static void many_short_statements_bounded_memory(void **state)
{
    (void)state;
    /* 1,000,000 statements; the longest is 40 bytes. Memory is one chunk plus
     * the carry, whose peak must stay near the longest statement. */
    enum { CHUNK = 4096 };
    static uint8_t chunk[CHUNK];
    uint8_t carry_mem[128];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, carry_mem, sizeof carry_mem), MOTE_OK);
    mote_scan_config c = cfg_of(MOTE_SCAN_MYSQL);
    mote_scanner sc;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
    size_t fill = 0, count = 0, total = 0;
    mote_scan_token tok;
    for (unsigned i = 0; i < 1000000u; i++) {
        char stmt[64];
        int len = snprintf(stmt, sizeof stmt, "insert into t values (%u, 'x;y');\n", i);
        for (int j = 0; j < len; j++) {
            chunk[fill++] = (uint8_t)stmt[j];
            if (fill == CHUNK) {
                assert_int_equal(mote_scan_feed(&sc, chunk, fill), MOTE_OK);
                while (mote_scan_next(&sc, &tok) == MOTE_OK) count++;
                total += fill;
                fill = 0;
            }
        }
    }
    assert_int_equal(mote_scan_feed(&sc, chunk, fill), MOTE_OK);
    total += fill;
    while (mote_scan_next(&sc, &tok) == MOTE_OK) count++;
    assert_int_equal(mote_scan_finish(&sc), MOTE_OK);
    while (mote_scan_next(&sc, &tok) == MOTE_OK) count++;
    assert_int_equal(count, 1000000u);
    mote_scan_stats st;
    mote_scan_get_stats(&sc, &st);
    assert_int_equal(st.bytes_examined, total);
    assert_true(st.carry_peak <= 40);
}

/* ------------------------------------------------------------- API */

typedef struct reader {
    const char *s;
    size_t len, off, step;
} reader;

static long read_some(void *ctx, uint8_t *dst, size_t cap)
{
    reader *r = ctx;
    size_t k = r->len - r->off;
    if (k > cap) k = cap;
    if (k > r->step) k = r->step;
    memcpy(dst, r->s + r->off, k);
    r->off += k;
    return (long)k;
}

static void pull_api_reads_through_callback(void **state)
{
    (void)state;
    reader r = {"a;'b;\nc';d", 10, 0, 3};
    uint8_t chunk[4], mem[32];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    mote_scanner sc;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
    mote_scan_token tok;
    assert_int_equal(mote_scan_pull(&sc, read_some, &r, chunk, sizeof chunk, &tok), MOTE_OK);
    assert_int_equal(tok.text.len, 1);
    assert_int_equal(mote_scan_pull(&sc, read_some, &r, chunk, sizeof chunk, &tok), MOTE_OK);
    assert_int_equal(tok.text.len, 6);
    assert_memory_equal(tok.text.ptr, "'b;\nc'", 6);
    assert_int_equal(mote_scan_pull(&sc, read_some, &r, chunk, sizeof chunk, &tok), MOTE_OK);
    assert_int_equal(tok.pos.line, 2);
    assert_int_equal(tok.pos.column, 4);
    assert_int_equal(mote_scan_pull(&sc, read_some, &r, chunk, sizeof chunk, &tok),
                     MOTE_ERR_NEED_MORE);
}

static void misuse_is_reported(void **state)
{
    (void)state;
    uint8_t mem[16];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    mote_scan_config c = cfg_of(MOTE_SCAN_GENERIC);
    mote_scanner sc;
    c.delim_len = 17;
    c.delim = (const uint8_t *)"aaaaaaaaaaaaaaaaaa";
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_BAD_DELIMITER);
    c = cfg_of(MOTE_SCAN_SQLITE);
    c.delim = (const uint8_t *)"//";
    c.delim_len = 2;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_BAD_DELIMITER);
    c = cfg_of(MOTE_SCAN_GENERIC);
    c.quotes = "'''";
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_INVALID);
    c = cfg_of(MOTE_SCAN_GENERIC);
    c.flags = MOTE_SCAN_PIECES;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_INVALID);
    assert_int_equal(mote_scan_init(NULL, &c, &b), MOTE_ERR_INVALID);
    assert_int_equal(mote_scan_config_init(NULL, MOTE_SCAN_MYSQL), MOTE_ERR_INVALID);
    assert_int_equal(mote_scan_config_init(&c, (mote_scan_dialect)5), MOTE_ERR_INVALID);
    assert_int_equal(c.dialect, 5);
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_INVALID);
    c = cfg_of(MOTE_SCAN_GENERIC);
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
    assert_int_equal(mote_scan_feed(&sc, "a;b", 3), MOTE_OK);
    assert_int_equal(mote_scan_feed(&sc, "x", 1), MOTE_ERR_STATE);
    assert_int_equal(mote_scan_finish(&sc), MOTE_ERR_STATE);
    mote_view d = mote_scan_delimiter(&sc);
    assert_int_equal(d.len, 1);
    assert_int_equal(d.ptr[0], ';');
}

/* ---------------------------------------------- issue 11: real dumps */

static mote_scan_config cfg_with(mote_scan_dialect d, unsigned flags)
{
    mote_scan_config c = cfg_of(d);
    c.flags = flags;
    return c;
}

/* The seven minimal failing inputs of issue 11 and the awkward cases
 * around them. Transcript letters: C command, D COPY data, E COPY end, M
 * comment; "$" not terminated, "r" a "\r" removed. */
static void issue11_postgres_copy_data(void **state)
{
    (void)state;
    /* issue 11 case 1: rows up to \. are data, one token each */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "COPY t (a) FROM stdin;\na;b\n\\.\nSELECT 1;",
                "1:1@0|COPY t (a) FROM stdin|\n"
                "2:1@23D|a;b|\n"
                "3:1@27E|\\x5c.|\n"
                "4:1@30|SELECT 1|\n");
    /* a quote in a row opens nothing */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "COPY t FROM stdin;\nit's\n\\.\nSELECT 1;",
                "1:1@0|COPY t FROM stdin|\n"
                "2:1@19D|it's|\n"
                "3:1@24E|\\x5c.|\n"
                "4:1@27|SELECT 1|\n");
    /* options, CRLF rows (r: CR removed), an empty row */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "copy public.t (a, b) FROM STDIN WITH (FORMAT text);  \r\nit's\t\\\\N\r\n\r\n\\.\r\nSELECT 1;",
                "1:1@0|copy public.t (a, b) FROM STDIN WITH (FORMAT text)|\n"
                "2:1@55rD|it's\\x09\\x5c\\x5cN|\n"
                "3:1@65rD||\n"
                "4:1@67rE|\\x5c.|\n"
                "5:1@71|SELECT 1|\n");
    /* a truncated COPY block: the last row is not terminated */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "COPY t FROM stdin;\nrow1\nrow2",
                "1:1@0|COPY t FROM stdin|\n"
                "2:1@19D|row1|\n"
                "3:1@24$D|row2|\n");
    /* no data after these */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "COPY (SELECT 1 FROM stdin) TO STDOUT;\nx;\nCOPY t TO stdout;\ny;",
                "1:1@0|COPY (SELECT 1 FROM stdin) TO STDOUT|\n"
                "2:1@38|x|\n"
                "3:1@41|COPY t TO stdout|\n"
                "4:1@59|y|\n");
}

static void issue11_psql_meta_commands(void **state)
{
    (void)state;
    /* issue 11 case 2 */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "\\restrict abc\nSET statement_timeout = 0;",
                "1:1@0C|\\x5crestrict abc|\n"
                "2:1@14|SET statement_timeout = 0|\n");
    /* after comments, as pg_dump writes them */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "--\n-- PostgreSQL database dump\n--\n\n\\restrict KEY\n\n-- Dumped from x\nSET a = 1;\n\\unrestrict KEY\n",
                "5:1@35C|\\x5crestrict KEY|\n"
                "8:1@67|SET a = 1|\n"
                "9:1@78C|\\x5cunrestrict KEY|\n");
    /* the comments kept: tokens of their own */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, MOTE_SCAN_KEEP_COMMENTS), "--\n-- PostgreSQL database dump\n--\n\n\\restrict KEY\n\n-- Dumped from x\nSET a = 1;\n\\unrestrict KEY\n",
                "1:1@0M|--\\x0a-- PostgreSQL database dump\\x0a--\\x0a\\x0a|\n"
                "5:1@35C|\\x5crestrict KEY|\n"
                "7:1@50M|-- Dumped from x\\x0a|\n"
                "8:1@67|SET a = 1|\n"
                "9:1@78C|\\x5cunrestrict KEY|\n");
    /* only at statement start; CRLF */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "select 1 \\x;\n\\connect db\r\nselect 2;",
                "1:1@0|select 1 \\x5cx|\n"
                "2:1@13C|\\x5cconnect db|\n"
                "3:1@26|select 2|\n");
}

static void issue11_postgres_begin_atomic_and_parentheses(void **state)
{
    (void)state;
    /* issue 11 case 3 */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END;",
                "1:1@0|CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END|\n");
    /* CASE ... END inside; BEGIN outside CREATE FUNCTION opens nothing */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "CREATE OR REPLACE PROCEDURE p() LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN true THEN 1 END; SELECT 2; END; SELECT 3; BEGIN; SELECT 4; END;",
                "1:1@0|CREATE OR REPLACE PROCEDURE p() LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN true THEN 1 END; SELECT 2; END|\n"
                "1:108@107|SELECT 3|\n"
                "1:118@117|BEGIN|\n"
                "1:125@124|SELECT 4|\n"
                "1:135@134|END|\n");
    /* issue 11 case 4 */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "CREATE RULE r AS ON INSERT TO v DO INSTEAD (INSERT INTO a VALUES (1); INSERT INTO b VALUES (2)); x;",
                "1:1@0|CREATE RULE r AS ON INSERT TO v DO INSTEAD (INSERT INTO a VALUES (1); INSERT INTO b VALUES (2))|\n"
                "1:98@97|x|\n");
    /* parentheses in quotes and comments do not count */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "select (';' /* ) */ -- )\n); select ')'; select 2;",
                "1:1@0|select (';' /* ) */ -- )\\x0a)|\n"
                "2:4@28|select ')'|\n"
                "2:16@40|select 2|\n");
}

static void issue11_postgres_escape_strings(void **state)
{
    (void)state;
    /* issue 11 case 5 */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "SELECT E'it''s \\' ok;'; SELECT 2;",
                "1:1@0|SELECT E'it''s \\x5c' ok;'|\n"
                "1:25@24|SELECT 2|\n");
    /* standard_conforming_strings followed from SET / RESET */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, 0), "SET standard_conforming_strings = off;\nSELECT 'a\\';b';\nSET standard_conforming_strings TO on;\nSELECT 'c\\';\nSET standard_conforming_strings = 'off';\nSELECT 'd\\'';\nRESET ALL;\nSELECT 'e\\';",
                "1:1@0|SET standard_conforming_strings = off|\n"
                "2:1@39|SELECT 'a\\x5c';b'|\n"
                "3:1@55|SET standard_conforming_strings TO on|\n"
                "4:1@94|SELECT 'c\\x5c'|\n"
                "5:1@107|SET standard_conforming_strings = 'off'|\n"
                "6:1@148|SELECT 'd\\x5c''|\n"
                "7:1@162|RESET ALL|\n"
                "8:1@173|SELECT 'e\\x5c'|\n");
    /* and from the config */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, MOTE_SCAN_PG_NONSTANDARD_STRINGS), "SELECT 'a\\';b';",
                "1:1@0|SELECT 'a\\x5c';b'|\n");
}

static void issue11_mysql_no_backslash_escapes(void **state)
{
    (void)state;
    /* issue 11 case 6 */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "SET sql_mode='NO_BACKSLASH_ESCAPES';\nSELECT 'C:\\';\nSELECT 2;",
                "1:1@0|SET sql_mode='NO_BACKSLASH_ESCAPES'|\n"
                "2:1@37|SELECT 'C:\\x5c'|\n"
                "3:1@51|SELECT 2|\n");
    /* mariadb-dump's save / set / restore around a routine */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "/*!50003 SET @saved_sql_mode = @@sql_mode */ ;\n/*!50003 SET sql_mode = 'STRICT,NO_BACKSLASH_ESCAPES' */ ;\nSELECT 'C:\\';\n/*!50003 SET sql_mode = @saved_sql_mode */ ;\nSELECT 'a\\';b';",
                "1:1@0|/*!50003 SET @saved_sql_mode = @@sql_mode */ |\n"
                "2:1@47|/*!50003 SET sql_mode = 'STRICT,NO_BACKSLASH_ESCAPES' */ |\n"
                "3:1@106|SELECT 'C:\\x5c'|\n"
                "4:1@120|/*!50003 SET sql_mode = @saved_sql_mode */ |\n"
                "5:1@165|SELECT 'a\\x5c';b'|\n");
    /* two assignments in one SET; restored from @OLD_SQL_MODE */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO,no_backslash_escapes' */;\nSELECT '\\';\n/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;\nSELECT '\\';x';",
                "1:1@0|/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO,no_backslash_escapes' */|\n"
                "2:1@97|SELECT '\\x5c'|\n"
                "3:1@109|/*!40101 SET SQL_MODE=@OLD_SQL_MODE */|\n"
                "4:1@149|SELECT '\\x5c';x'|\n");
    /* from the config, off again by SET SESSION sql_mode */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, MOTE_SCAN_NO_BACKSLASH_ESCAPES), "SELECT 'C:\\';\nSET SESSION sql_mode = '';\nSELECT 'a\\';b';",
                "1:1@0|SELECT 'C:\\x5c'|\n"
                "2:1@14|SET SESSION sql_mode = ''|\n"
                "3:1@41|SELECT 'a\\x5c';b'|\n");
    /* an expression after '=' (here a subquery): mote cannot evaluate it and
     * takes the configured mode (escapes on), as for any expression */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0),
                "SET sql_mode='NO_BACKSLASH_ESCAPES';\nSET sql_mode = (SELECT 'NO_BACKSLASH_ESCAPES');\nSELECT 'a\\';b';",
                "1:1@0|SET sql_mode='NO_BACKSLASH_ESCAPES'|\n"
                "2:1@37|SET sql_mode = (SELECT 'NO_BACKSLASH_ESCAPES')|\n"
                "3:1@85|SELECT 'a\\x5c';b'|\n");
    /* @@session. and DEFAULT */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "SET @@session.sql_mode = 'NO_BACKSLASH_ESCAPES';\nSELECT '\\';\nSET @@SQL_MODE = DEFAULT;\nSELECT '\\';';",
                "1:1@0|SET @@session.sql_mode = 'NO_BACKSLASH_ESCAPES'|\n"
                "2:1@49|SELECT '\\x5c'|\n"
                "3:1@61|SET @@SQL_MODE = DEFAULT|\n"
                "4:1@87|SELECT '\\x5c';'|\n");
}

/* ANSI_QUOTES: "..." quotes an identifier, a backslash in it escapes
 * nothing (mariadb-dump writes a routine's sql_mode before it; the mariadb
 * client splits so too). ' strings keep their escapes. */
static void mysql_ansi_quotes(void **state)
{
    (void)state;
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "SET sql_mode = 'ANSI_QUOTES';\nSELECT 1 AS \"a\\\";\nSELECT 'b\\';c';",
                "1:1@0|SET sql_mode = 'ANSI_QUOTES'|\n"
                "2:1@30|SELECT 1 AS \"a\\x5c\"|\n"
                "3:1@48|SELECT 'b\\x5c';c'|\n");
    /* ANSI holds it; the dump's save / set / restore; NO_BACKSLASH_ESCAPES apart */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0),
                "/*!50003 SET @saved_sql_mode = @@sql_mode */ ;\n"
                "/*!50003 SET sql_mode = 'PIPES_AS_CONCAT,ANSI,ORACLE' */ ;\n"
                "SELECT \"a\\\", 'b\\';c';\n"
                "/*!50003 SET sql_mode = @saved_sql_mode */ ;\n"
                "SELECT \"a\\\";b\";",
                "1:1@0|/*!50003 SET @saved_sql_mode = @@sql_mode */ |\n"
                "2:1@47|/*!50003 SET sql_mode = 'PIPES_AS_CONCAT,ANSI,ORACLE' */ |\n"
                "3:1@106|SELECT \"a\\x5c\", 'b\\x5c';c'|\n"
                "4:1@128|/*!50003 SET sql_mode = @saved_sql_mode */ |\n"
                "5:1@173|SELECT \"a\\x5c\";b\"|\n");
    /* from the config; both modes at once; off again */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, MOTE_SCAN_ANSI_QUOTES),
                "SELECT \"\\\";\nSET sql_mode = 'no_backslash_escapes,ansi_quotes';\nSELECT '\\', \"\\\";\n"
                "SET sql_mode = '';\nSELECT \"\\\";\";",
                "1:1@0|SELECT \"\\x5c\"|\n"
                "2:1@12|SET sql_mode = 'no_backslash_escapes,ansi_quotes'|\n"
                "3:1@63|SELECT '\\x5c', \"\\x5c\"|\n"
                "4:1@80|SET sql_mode = ''|\n"
                "5:1@99|SELECT \"\\x5c\";\"|\n");
}

/* postgres with a delimiter of its own: the block path reads it without
 * postgres's constant configuration (SSE2 and NEON: block_pg_any()'s
 * general copy), strings, E'' strings, dollar quotes, parentheses and
 * comments around runs of 64 bytes and more, at offsets across the block
 * grid: the same tokens as byte by byte and as every other scanner. */
static void postgres_own_delimiter_long_runs(void **state)
{
    (void)state;
    mote_scan_config c = cfg_of(MOTE_SCAN_POSTGRES);
    c.delim = (const uint8_t *)"//";
    c.delim_len = 2;
    static const char *const body[] = {
        "INSERT INTO t VALUES (1, 'a string; with // in it and more text to pass a block', 2)",
        "SELECT E'it\\'s // still a string, escaped', $$ a body // ; $$, (1 + (2)) -- a note // too\n",
        "CREATE FUNCTION f() RETURNS int AS $f$ SELECT 1 // 2 $f$ LANGUAGE sql /* // */",
    };
    char text[4096];
    for (unsigned pad = 0; pad < 70; pad += 5) {
        size_t n = 0;
        for (unsigned k = 0; k < 6; k++) {
            n += (size_t)sprintf(text + n, "%*s%s//\n", (int)(pad + k) % 67, "", body[k % 3]);
        }
        same_any_chunking(&c, text, n, pad * 7919u + 1u, pad / 5);
        transcript t = scan_all(&c, text, n, n, 0);
        size_t lines = 0;
        for (const char *q = t.s; *q; q++) lines += *q == '\n';
        assert_int_equal(lines, 6); /* one statement each: no // inside the strings, quotes or comments cut */
        free(t.s);
    }
}

static mote_scan_config cfg_charset(mote_scan_dialect d, unsigned flags, mote_scan_charset cs)
{
    mote_scan_config c = cfg_with(d, flags);
    c.charset = cs;
    return c;
}

/* Two-byte charsets: a trail byte '\\' (0x5c) or '`' (0x60) is part of its
 * character (Shift_JIS 0x95 0x5c, GBK 0x81 0x5c; the mysql client with
 * --default-character-set, psql with client_encoding), not an escape or a
 * closing quote; a byte below the trail range after a lead is itself;
 * Shift_JIS's half-width katakana (0xa1..0xdf) lead nothing. Every chunking
 * (scan_every: a lead at a chunk's end) gives the same tokens. */
static void charset_trail_bytes(void **state)
{
    (void)state;
    const char *my = "SELECT '\x95\x5c', `\x83\x60`;SELECT '\xb1';SELECT '\x81';SELECT 4;";
    expect_scan(cfg_charset(MOTE_SCAN_MYSQL, 0, MOTE_SCAN_CHARSET_SJIS), my,
                "1:1@0|SELECT '\\x95\\x5c', `\\x83``|\n"
                "1:19@18|SELECT '\\xb1'|\n"
                "1:30@29|SELECT '\\x81'|\n"
                "1:41@40|SELECT 4|\n");
    /* without the charset: the escape swallows the quote */
    expect_scan(cfg_charset(MOTE_SCAN_MYSQL, 0, MOTE_SCAN_CHARSET_ASCII), my, "!UNTERMINATED_QUOTE@1:39@38\n");
    /* GBK: 0x81..0xfe lead (the katakana byte too) */
    expect_scan(cfg_charset(MOTE_SCAN_MYSQL, 0, MOTE_SCAN_CHARSET_GBK), "SELECT '\x81\x5c', '\xb1\x5c';SELECT 2;",
                "1:1@0|SELECT '\\x81\\x5c', '\\xb1\\x5c'|\n1:19@18|SELECT 2|\n");
    /* postgres: E'' strings and nonstandard ones; a lead at the end */
    expect_scan(cfg_charset(MOTE_SCAN_POSTGRES, 0, MOTE_SCAN_CHARSET_SJIS),
                "SELECT E'\x95\x5c';\nSET standard_conforming_strings = off;\nSELECT '\x95\x5c';\nSELECT 1\x95",
                "1:1@0|SELECT E'\\x95\\x5c'|\n"
                "2:1@14|SET standard_conforming_strings = off|\n"
                "3:1@53|SELECT '\\x95\\x5c'|\n"
                "4:1@66$|SELECT 1\\x95|\n");
    /* postgres follows SET client_encoding (as psql does; by the server's
     * names, letters and digits alone) and RESET; effective after the SET */
    expect_scan(cfg_charset(MOTE_SCAN_POSTGRES, 0, MOTE_SCAN_CHARSET_ASCII),
                "SET client_encoding = 'Shift_JIS';SELECT E'\x95\x5c';RESET client_encoding;"
                "SET client_encoding TO gb18030;SELECT E'\xb1\x5c';SET client_encoding = DEFAULT;SELECT E'\x95\x5c';",
                "1:1@0|SET client_encoding = 'Shift_JIS'|\n"
                "1:35@34|SELECT E'\\x95\\x5c'|\n"
                "1:48@47|RESET client_encoding|\n"
                "1:70@69|SET client_encoding TO gb18030|\n"
                "1:101@100|SELECT E'\\xb1\\x5c'|\n"
                "1:114@113|SET client_encoding = DEFAULT|\n"
                "!UNTERMINATED_QUOTE@1:152@151\n");
    expect_scan(cfg_charset(MOTE_SCAN_POSTGRES, 0, MOTE_SCAN_CHARSET_SJIS), "RESET ALL;SELECT E'\x95\x5c';",
                "1:1@0|RESET ALL|\n!UNTERMINATED_QUOTE@1:19@18\n");
    expect_scan(cfg_charset(MOTE_SCAN_POSTGRES, 0, MOTE_SCAN_CHARSET_SJIS),
                "SET client_encoding = 'UTF8';SELECT E'\x95\x5c';';",
                "1:1@0|SET client_encoding = 'UTF8'|\n1:30@29|SELECT E'\\x95\\x5c';'|\n");
    /* mysql and postgres alone; a known charset */
    mote_scan_config c = cfg_charset(MOTE_SCAN_SQLITE, 0, MOTE_SCAN_CHARSET_SJIS);
    uint8_t mem[64];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    mote_scanner sc;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_INVALID);
    c = cfg_charset(MOTE_SCAN_GENERIC, 0, MOTE_SCAN_CHARSET_GBK);
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_INVALID);
    c = cfg_charset(MOTE_SCAN_MYSQL, 0, (mote_scan_charset)4);
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_ERR_INVALID);
    c = cfg_charset(MOTE_SCAN_POSTGRES, 0, MOTE_SCAN_CHARSET_JOHAB);
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
}

static void issue11_mysql_executable_comments(void **state)
{
    (void)state;
    /* issue 11 case 7 */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "/*!50001 CREATE VIEW v AS SELECT 1 AS `a*/b` */;\nSELECT 2;",
                "1:1@0|/*!50001 CREATE VIEW v AS SELECT 1 AS `a*/b` */|\n"
                "2:1@49|SELECT 2|\n");
    /* M!, a comment inside, a bare delimiter inside (ends the statement, as in the client) */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "/*M!100100 SELECT '*/;' */;\n/*!40101 SET x=1 /* c */ */;\n/*!99999 a; b */;\n/* plain 'x */ select 1;",
                "1:1@0|/*M!100100 SELECT '*/;' */|\n"
                "2:1@28|/*!40101 SET x=1 /* c */ */|\n"
                "3:1@57|/*!99999 a|\n"
                "3:13@69|b */|\n"
                "4:16@90|select 1|\n");
}

static void issue11_comments_and_terminated(void **state)
{
    (void)state;
    /* kept comments over max_token: reported, the statement after them kept;
     * COPY lines in pieces */
    mote_scan_config c = cfg_with(MOTE_SCAN_MYSQL, MOTE_SCAN_KEEP_COMMENTS);
    c.max_token = 12;
    expect_scan(c, "-- a very long comment line here\n/* another */ select 1; -- x\n/*!40101 SET x */;",
                "!TOO_LONG@1:1@0\n2:15@47|select 1|\n2:25@57M|-- x\\x0a|\n!TOO_LONG@3:1@62\n");
    c.flags |= MOTE_SCAN_PIECES;
    c.max_token = 6;
    expect_scan(c, "-- a long comment\n/*!1 x */;", "!TOO_LONG@1:1@0\n2:1@18+|/*!1 x|\n2:7@24| */|\n");
    c = cfg_with(MOTE_SCAN_POSTGRES, MOTE_SCAN_PIECES);
    c.max_token = 5;
    expect_scan(c, "COPY t FROM stdin;\nabcdefghijkl\nxy\n\\.\nselect 1;",
                "1:1@0+|COPY |\n1:6@5+|t FRO|\n1:11@10+|M std|\n1:16@15|in|\n2:1@19+D|abcde|\n"
                "2:6@24+D|fghij|\n2:11@29D|kl|\n3:1@32D|xy|\n4:1@35E|\\x5c.|\n5:1@38+|selec|\n"
                "5:6@43|t 1|\n");
    /* a cut dump whose last row came in pieces: that row's end starts the next
     * row afresh, so the end of input hands out no empty row */
    expect_scan(c, "COPY t FROM stdin;\nabcdefghijkl\n",
                "1:1@0+|COPY |\n1:6@5+|t FRO|\n1:11@10+|M std|\n1:16@15|in|\n2:1@19+D|abcde|\n"
                "2:6@24+D|fghij|\n2:11@29D|kl|\n");
    /* comment-only text after the last delimiter is no statement */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "select 1;\n-- Dump completed on 2024-01-01\n",
                "1:1@0|select 1|\n");
    /* ... a COMMENT token with KEEP_COMMENTS */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, MOTE_SCAN_KEEP_COMMENTS), "select 1;\n-- Dump completed on 2024-01-01\n",
                "1:1@0|select 1|\n"
                "2:1@10$M|-- Dump completed on 2024-01-01\\x0a|\n");
    /* a truncated dump: the partial statement is not terminated */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "select 1;\ninsert into t values (1",
                "1:1@0|select 1|\n"
                "2:1@10$|insert into t values (1|\n");
    /* comment-only statements */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, MOTE_SCAN_KEEP_COMMENTS), "a; -- x\n; /* y */;",
                "1:1@0|a|\n"
                "1:4@3M|-- x\\x0a|\n"
                "2:3@10M|/* y */|\n");
    /* a lone '-' or '/' after comments is code */
    expect_scan(cfg_with(MOTE_SCAN_POSTGRES, MOTE_SCAN_KEEP_COMMENTS), "-- c\n-1; /* d */ /x; -- e\n--1;",
                "1:1@0M|-- c\\x0a|\n"
                "2:1@5|-1|\n"
                "2:5@9M|/* d */ |\n"
                "2:13@17|/x|\n"
                "2:17@21$M|-- e\\x0a--1;|\n");
    /* mysql: --1 is code; executable comments start statements */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, MOTE_SCAN_KEEP_COMMENTS), "# c\n--1; /* d */ /*!1 x */;/* e */ /*M!1 y */;",
                "1:1@0M|# c\\x0a|\n"
                "2:1@4|--1|\n"
                "2:6@9M|/* d */ |\n"
                "2:14@17|/*!1 x */|\n"
                "2:24@27M|/* e */ |\n"
                "2:32@35|/*M!1 y */|\n");
    /* DELIMITER after comments */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, 0), "-- c\nDELIMITER ;;\nselect 1;;\n/* x */ DELIMITER ;\nselect 2;",
                "2:1@5C|DELIMITER ;;|\n"
                "3:1@18|select 1|\n"
                "4:9@37C|DELIMITER ;|\n"
                "5:1@49|select 2|\n");
    /* KEEP_LEADING: comments stay in the statement; comment-only text is skipped */
    expect_scan(cfg_with(MOTE_SCAN_MYSQL, MOTE_SCAN_KEEP_LEADING), "  -- c\n  select 1;\n  -- d\n",
                "1:1@0|  -- c\\x0a  select 1|\n");
    /* generic without comment styles: unchanged */
    expect_scan(cfg_with(MOTE_SCAN_GENERIC, 0), "a;\n;b",
                "1:1@0|a|\n"
                "1:3@2|\\x0a|\n"
                "2:2@4$|b|\n");
}

/* Hosted builds run the 64-byte block path only when 64 bytes of a chunk
 * remain: 1-byte chunks never take it. Random texts rich in quotes, runs of
 * backslashes, dashes, line breaks and stop bytes, and the statements that
 * switch the scanner's modes (COPY, SET sql_mode, executable comments,
 * commands), in every dialect, must give the same tokens, kinds,
 * positions and flags either way. */
static void block_path_matches_byte_loop(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "'", "\"", "\\", "\\\\", "\\\\\\", ";", "-", "--", "-- ", "\n", "\r\n", "\r",
        "#", "/", "/*", "*/", "`", "[", "]", "$", "$$", "|", " ", "abc", "xy", "12,",
        "E'", "''", "  hello world  ", "(1,'a b',2.5,NULL),", "DELIMITER //\n", "//",
        /* issue 11 state: COPY data, commands, executable comments, SET
         * statements that change escapes, BEGIN ATOMIC bodies, parentheses,
         * leading comments */
        "COPY t FROM stdin;\n", "\\.\n", "/*!", "/*M!1 ", "*/", "SET sql_mode='NO_BACKSLASH_ESCAPES';",
        "SET sql_mode='ANSI_QUOTES';",
        "SET sql_mode=@x;", "SET @x=@@sql_mode;", "set standard_conforming_strings=off;", "reset all;",
        "CREATE FUNCTION f() BEGIN ATOMIC ", "CASE ", "END", "(", ")", "\\restrict x\n", "-- c\n",
        "\r\n\\.\r\n",
        /* two-byte characters (charsets): trails '\\' and '`', a lone lead */
        "\x95\x5c", "\x83\x60", "\x81", "\xb1", "set client_encoding='sjis';"};
    const size_t np = sizeof pieces / sizeof pieces[0];
    char text[3000];
    uint32_t seed = 12345;
    tr_show_escapes = 1;
    for (unsigned iter = 0; iter < 1000; iter++) {
        size_t n = 0;
        seed = seed * 1103515245u + 12345u;
        size_t want = 64 + (seed >> 8) % 2000;
        /* a bias per text: mostly plain words and the quote, denser, or
         * single bytes of a small alphabet (escapes across block ends) */
        unsigned dense = (seed >> 4) % 4;
        while (n < want) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % 100;
            const char *pc = r < 40 - 15 * dense ? pieces[23 + r % 5] : r < 55 ? "'" : pieces[r % np];
            char one[2] = {r < 2 ? ';' : "'\\\\\\ab\n a-"[r % 10], 0};
            if (dense == 3) pc = one;
            size_t k = strlen(pc);
            if (n + k > sizeof text) break;
            memcpy(text + n, pc, k);
            n += k;
        }
        mote_scan_config c = cfg_of((mote_scan_dialect)(iter % 5));
        if (iter % 5 == 0) {
            c.comments = (iter / 5) % 32;
            c.quotes = (iter / 5) % 2 ? "'\"" : "\"'`";
            c.escape = (iter / 10) % 3 == 0 ? -1 : '\\';
        }
        if (iter % 7 == 0) c.flags |= MOTE_SCAN_KEEP_BLANK;
        if (iter % 3 == 0) c.flags |= MOTE_SCAN_KEEP_COMMENTS;
        if (iter % 4 == 1) c.flags |= MOTE_SCAN_NO_BACKSLASH_ESCAPES;
        if ((iter / 5) % 3 == 1) c.flags |= MOTE_SCAN_ANSI_QUOTES; /* (mysql reads it) */
        if (iter % 6 == 3) c.flags |= MOTE_SCAN_PG_NONSTANDARD_STRINGS;
        if (c.dialect == MOTE_SCAN_MYSQL || c.dialect == MOTE_SCAN_POSTGRES)
            c.charset = (mote_scan_charset)((iter / 5) % 4);
        if (iter % 11 == 0) c.max_token = 40;
        same_any_chunking(&c, text, n, seed, iter);
    }
    /* every offset of backslash runs against the block and chunk ends, in
     * each quote kind and outside */
    static const char *const kinds[] = {"`", "'", "\"", ""};
    for (unsigned pad = 0; pad < 140; pad += 3) {
        for (unsigned run = 1; run <= 3; run++) {
            for (unsigned kd = 0; kd < 4; kd++) {
                size_t n = 0;
                memset(text, 'a', pad);
                n = pad;
                n += (size_t)sprintf(text + n, "select %sx", kinds[kd]);
                for (unsigned r = 0; r < run; r++) text[n++] = '\\';
                n += (size_t)sprintf(text + n, "%s, 'q' ; tail %s;\n", kinds[kd], kinds[kd]);
                for (unsigned d = 1; d < 5; d++) {
                    mote_scan_config c = cfg_of((mote_scan_dialect)d);
                    transcript whole = scan_all(&c, text, n, n, 0);
                    transcript one = scan_all(&c, text, n, 1, 0);
                    if (strcmp(whole.s, one.s) != 0) {
                        print_message("dialect %u input:\n%.*s\nwhole:\n%s\nbytes:\n%s\n", d,
                                      (int)n, text, whole.s, one.s);
                        fail();
                    }
                    free(whole.s);
                    free(one.s);
                }
            }
        }
    }
    tr_show_escapes = 0;
}

/* The block path reads strings of the other quote kinds in place when they
 * are far apart: a mysql row with a backtick and a "..." string (escaped
 * quote, ';' inside) every ~80 bytes, a sqlite [...] and a generic
 * configuration whose second quote is '|'. Tokens, positions and the
 * escape flag must match the byte loops, and every byte is examined once. */
static void block_path_reads_other_quote_kinds(void **state)
{
    (void)state;
    static const struct {
        mote_scan_dialect d;
        const char *quotes, *row;
    } cases[] = {
        {MOTE_SCAN_MYSQL, NULL, "(1,'plain text; not a delimiter',`col;x`,\"dq \\\" ;\",'it''s',NULL),"},
        {MOTE_SCAN_SQLITE, NULL, "(1,'plain text; not a delimiter',[col;x],\"dq ; x\",'it''s',NULL),"},
        {MOTE_SCAN_GENERIC, "\"|", "(1,\"plain text; not a delimiter\",|col;x|,\"a \\\" b\",NULL),"},
    };
    char text[4096];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        size_t n = (size_t)sprintf(text, "insert into t values ");
        for (unsigned r = 0; r < 30; r++) n += (size_t)sprintf(text + n, "%s", cases[k].row);
        n += (size_t)sprintf(text + n, "(0);\nselect 2;");
        mote_scan_config c = cfg_of(cases[k].d);
        if (cases[k].quotes) c.quotes = cases[k].quotes;
        tr_show_escapes = 1;
        transcript whole = scan_all(&c, text, n, n, 0);
        transcript one = scan_all(&c, text, n, 1, 0);
        tr_show_escapes = 0;
        assert_string_equal(whole.s, one.s);
        assert_int_equal(whole.stats.bytes_examined, n);
        assert_int_equal(whole.stats.tokens, 2);
        assert_non_null(strstr(whole.s, "select 2|"));
        free(whole.s);
        free(one.s);
    }
}

/* Postgres on the block path: standard strings (a ';' and '' inside),
 * E'' strings (the run ends at their opening quote: E'it\'s;' read by the
 * handlers, and a quote right after one's close goes on in it), e'' after
 * a blank and an identifier ending in e (a standard string after it), "..."
 * identifiers, parentheses counted outside strings (a ';' inside them ends
 * nothing: CREATE RULE ... DO ALSO (...; ...)), "--" and block comments,
 * $$ bodies, rows long enough for many blocks, and a ';' in an E'' string
 * that a standard reading would take for the end. Whole input, byte by
 * byte and in random chunks, through every scanner (the grammar alone too):
 * the same transcript, every byte examined once, the statements counted. */
static void block_path_postgres(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "(1, 'a;b', 2.50, 'it''s (x)'),\n", "(2, E'it\\'s;', 'x'),\n", "(3, E'a''b\\n' 'c', \"q;(\"),\n",
        "(4, e'tab\\t', some'plain'),\n", "(5, ((6)), '(' , ')'),\n", "(7, $$a;'b$$, '-- no'),\n",
        "(8, 'x' -- c ; (\n), /* ; ( */ 9),\n",
    };
    char text[8192];
    size_t n = (size_t)sprintf(text, "CREATE RULE r AS ON INSERT TO t DO ALSO (INSERT INTO u VALUES (1); "
                                     "DELETE FROM v);\nINSERT INTO public.t VALUES ");
    uint32_t seed = 7;
    for (unsigned r = 0; r < 120; r++) {
        /* mostly rows the path passes whole (so that it does not back off), the others now and then */
        seed = seed * 1103515245u + 12345u;
        const unsigned k = (seed >> 16) % 40;
        n += (size_t)sprintf(text + n, "%s", rows[k < 7 ? k : (k & 1) ? 0 : 4]);
    }
    n += (size_t)sprintf(text + n, "(0);\nSELECT 1;\nSELECT ");
    /* a ';' in an E'' string after a few blocks of text: the statement goes on */
    for (unsigned r = 0; r < 12; r++) n += (size_t)sprintf(text + n, "'pad (%u)', ", r);
    n += (size_t)sprintf(text + n, "E'it\\'s; the same statement', (2);\n");
    mote_scan_config c = cfg_of(MOTE_SCAN_POSTGRES);
    tr_show_escapes = 1;
    for (uint32_t s = 1; s < 9; s++) same_any_chunking(&c, text, n, s, s);
    transcript whole = scan_all(&c, text, n, n, 0);
    tr_show_escapes = 0;
    assert_int_equal(whole.stats.tokens, 4);
    assert_int_equal(whole.stats.errors, 0);
    free(whole.s);
}

/* Blocks where strings of several quote kinds meet (blk_kinds()): quotes of
 * one kind inside another's strings ('a"b', "it's", `x'y"z`), chains of
 * them that take many rounds to settle ('"'"'"...), escaped quotes of other
 * kinds, backslashes where they escape nothing (in backticks, outside
 * strings: the byte loops take those blocks), strings open across block
 * ends with a backslash at every offset, '\r' and '\n' inside them, and
 * strings left open at the end (the error names the opener). Every
 * dialect with more than one quote kind, generic ones with three and four
 * kinds, escapes outside strings and a line break delimiter: the same
 * transcript as the byte loops (1-byte chunks) for any chunking. */
static void block_path_mixed_quote_kinds(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "'a;b',", "'it''s',", "\"x\\\"y\",", "`c;d`,", "'',", "'a\"b',", "\"it's\",", "`x'y\"z`,",
        "\"a\\'b\",", "'\\\\',", "`a\\`,", "\\", "'\"'\"'\"'\"'", "\"'\"'\"'\"'\"", "\n", "\r\n", "\r",
        ";\n", "select ", "abc ", "-- x\n", "#c\n", "/*c*/", "[a;b],", "|p'q|,", "$", "  "};
    const size_t np = sizeof pieces / sizeof pieces[0];
    char text[1200];
    uint32_t seed = 777;
    tr_show_escapes = 1;
    for (unsigned iter = 0; iter < 600; iter++) {
        size_t n = 0;
        seed = seed * 1103515245u + 12345u;
        const size_t want = 70 + (seed >> 8) % 1000;
        while (n < want) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) % (np + 6);
            /* odd texts: no backslashes, so that blk_kinds() takes every
             * block with quotes inside other kinds' strings */
            if ((iter & 1) && r >= 8 && r <= 11) r = 5 + r % 3;
            const char *pc = pieces[r < np ? r : r % 6];
            const size_t k = strlen(pc);
            if (n + k > sizeof text) break;
            memcpy(text + n, pc, k);
            n += k;
        }
        static const mote_scan_dialect ds[] = {MOTE_SCAN_MYSQL, MOTE_SCAN_SQLITE, MOTE_SCAN_GENERIC,
                                               MOTE_SCAN_GENERIC, MOTE_SCAN_GENERIC};
        mote_scan_config c = cfg_of(ds[iter % 5]);
        if (iter % 5 == 2) c.quotes = "'\"`";
        if (iter % 5 == 3) {
            c.quotes = "\"'`|";
            c.delim = (const uint8_t *)"\n";
            c.delim_len = 1;
        }
        if (iter % 5 == 4) c.escape = (iter / 5) % 2 ? -1 : '\\';
        if (iter % 7 == 1) c.flags |= MOTE_SCAN_NO_BACKSLASH_ESCAPES;
        if (iter % 3 == 0) c.flags |= MOTE_SCAN_KEEP_COMMENTS;
        same_any_chunking(&c, text, n, seed, iter);
    }
    /* a string of each kind open across a block end, a backslash (run of
     * 1..3) at every offset before it, then a string of another kind, and
     * the last one left open */
    static const char *const kinds[] = {"`", "'", "\""};
    for (unsigned pad = 0; pad < 140; pad++) {
        for (unsigned kd = 0; kd < 3; kd++) {
            size_t n = (size_t)sprintf(text, "select %s", kinds[kd]);
            memset(text + n, 'a', pad);
            n += pad;
            for (unsigned r = 0; r <= pad % 3; r++) text[n++] = '\\';
            n += (size_t)sprintf(text + n, "%s%s, %s\r\nb%s, 'q\n;x' ; %s", kinds[kd], kinds[kd],
                                 kinds[(kd + 1) % 3], kinds[(kd + 1) % 3], kinds[(kd + 2) % 3]);
            mote_scan_config c = cfg_of(MOTE_SCAN_MYSQL);
            transcript whole = scan_all(&c, text, n, n, 0);
            transcript one = scan_all(&c, text, n, 1, 0);
            if (strcmp(whole.s, one.s) != 0) {
                print_message("input:\n%.*s\nwhole:\n%s\nbytes:\n%s\n", (int)n, text, whole.s, one.s);
                fail();
            }
            assert_non_null(strstr(whole.s, "UNTERMINATED_QUOTE"));
            free(whole.s);
            free(one.s);
        }
    }
    tr_show_escapes = 0;
}

/* Quote-dense statements where kinds meet in most blocks (blk_multi(),
 * which the next statement starts in while blocks hold other kinds): more
 * than 16 quotes of other kinds inside one string (the quote-by-quote
 * walk), strings that end at another kind's quote only by a wrong reading
 * ('a"b' "c'd"), doubled quotes at block ends, an escaped quote of each
 * kind, a long stretch of first-kind strings between (back to the first
 * loop) and a string of another kind open across block ends. The same
 * transcript as the byte loops for any chunking. */
static void block_path_dense_quote_kinds(void **state)
{
    (void)state;
    static const char *const pieces[] = {
        "'a;b',", "'it''s',", "\"x\\\"y\",", "`c;d`,", "'',", "'a\"b',\"c'd\",",
        "\"''''''''''''''''''''''''''''''''''''''\",", "`'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"'\"`,",
        "'\\'',", "\"\\\\\",", "'\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"',",
        "'plain text, no other kind of quote in it at all, for more than a block',",
        "`a long backtick name that runs across the end of a block; and on`,", "1,", "';'"};
    const size_t np = sizeof pieces / sizeof pieces[0];
    char text[2000];
    uint32_t seed = 4242;
    tr_show_escapes = 1;
    for (unsigned iter = 0; iter < 300; iter++) {
        size_t n = 0;
        while (n + 200 < sizeof text && n < 200 + iter * 5) {
            n += (size_t)sprintf(text + n, "select ");
            seed = seed * 1103515245u + 12345u;
            for (unsigned j = 0, m = 1 + (seed >> 16) % 9; j < m; j++) {
                seed = seed * 1103515245u + 12345u;
                const char *pc = pieces[(seed >> 16) % np];
                const size_t k = strlen(pc);
                if (n + k + 8 > sizeof text) break;
                memcpy(text + n, pc, k);
                n += k;
            }
            n += (size_t)sprintf(text + n, "'';\n");
        }
        mote_scan_config c = cfg_of(MOTE_SCAN_MYSQL);
        if (iter % 4 == 1) c.flags |= MOTE_SCAN_NO_BACKSLASH_ESCAPES;
        if (iter % 4 == 2) c = cfg_of(MOTE_SCAN_SQLITE);
        same_any_chunking(&c, text, n, seed, iter);
    }
    tr_show_escapes = 0;
}

/* The built-in mysql, sqlite and postgres (standard strings) configurations
 * reach the block path as constants (src/scan.c's blk_mysql, blk_sqlite,
 * blk_pg: 1, 2, 3) only while blk_setup()
 * builds exactly those: a change to either side that parts them fails here.
 * Other configurations take the general path, and the memo is redone when
 * a DELIMITER command changes the configuration and when it changes back.
 * Small builds have no block path, nor this test (cmocka's TAP writes a
 * skip as "not ok"). */
#if !MOTE_SMALL
int mote__scan_blk_const(mote_scanner *sc); /* src/scan.c, for this test */

static void block_path_constant_configurations(void **state)
{
    (void)state;
    static const struct {
        mote_scan_dialect d;
        unsigned flags; /* added to the dialect's defaults */
        int want;
    } cases[] = {
        {MOTE_SCAN_MYSQL, 0, 1},
        {MOTE_SCAN_SQLITE, 0, 2},
        {MOTE_SCAN_POSTGRES, 0, 3},
        {MOTE_SCAN_POSTGRES, MOTE_SCAN_PG_NONSTANDARD_STRINGS, 0},
        {MOTE_SCAN_GENERIC, 0, 0},
        {MOTE_SCAN_MYSQL, MOTE_SCAN_NO_BACKSLASH_ESCAPES, 0},
        {MOTE_SCAN_MYSQL, MOTE_SCAN_ANSI_QUOTES, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        mote_scan_config c = cfg_of(cases[k].d);
        c.flags |= cases[k].flags;
        uint8_t mem[64];
        mote_buf b;
        assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
        mote_scanner sc;
        assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
        if (mote__scan_blk_const(&sc) != cases[k].want)
            fail_msg("case %zu: constant configuration %d, want %d", k, mote__scan_blk_const(&sc),
                     cases[k].want);
    }
    /* mysql: DELIMITER // changes the stop bytes, DELIMITER ; restores them */
    mote_scan_config c = cfg_of(MOTE_SCAN_MYSQL);
    uint8_t mem[64];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    mote_scanner sc;
    mote_scan_token tok;
    assert_int_equal(mote_scan_init(&sc, &c, &b), MOTE_OK);
    assert_int_equal(mote__scan_blk_const(&sc), 1);
    static const char s1[] = "DELIMITER //\nselect 1//\n";
    assert_int_equal(mote_scan_feed(&sc, s1, sizeof s1 - 1), MOTE_OK);
    while (mote_scan_next(&sc, &tok) == MOTE_OK) {
    }
    assert_int_equal(mote__scan_blk_const(&sc), 0);
    static const char s2[] = "DELIMITER ;\nselect 2;\n";
    assert_int_equal(mote_scan_feed(&sc, s2, sizeof s2 - 1), MOTE_OK);
    while (mote_scan_next(&sc, &tok) == MOTE_OK) {
    }
    assert_int_equal(mote__scan_blk_const(&sc), 1);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(split_skips_empty_parts_and_keeps_escapes),
        cmocka_unit_test(split_reports_count_when_array_too_small),
        cmocka_unit_test(split_unterminated_quote_runs_to_end),
        cmocka_unit_test(generic_split_semantics_any_chunking),
        cmocka_unit_test(multibyte_delimiter_restarts_partial_match),
        cmocka_unit_test(keep_blank_returns_empty_tokens),
        cmocka_unit_test(blank_rest_after_last_delimiter_not_a_statement),
        cmocka_unit_test(generic_comment_styles),
        cmocka_unit_test(mysql_dashdash_needs_blank),
        cmocka_unit_test(mysql_hash_comment_apostrophe_opens_no_string),
        cmocka_unit_test(slash_star_slash_is_one_comment),
        cmocka_unit_test(mysql_quotes_and_escapes),
        cmocka_unit_test(mysql_delimiter_command),
        cmocka_unit_test(mysql_multibyte_delimiter_with_comment_bytes),
        cmocka_unit_test(mysql_bad_delimiter_keeps_old),
        cmocka_unit_test(mysql_delimiter_word_not_command),
        cmocka_unit_test(too_long_drops_to_next_delimiter_tracking_quotes),
        cmocka_unit_test(too_long_at_end_inside_delimiter_margin),
        cmocka_unit_test(too_long_through_fixed_carry_cap),
        cmocka_unit_test(carry_of_max_token_and_delimiter_is_enough),
        cmocka_unit_test(unterminated_quote_names_opening_line),
        cmocka_unit_test(bom_skipped_crlf_one_break_nul_is_data),
        cmocka_unit_test(block_path_matches_byte_loop),
        cmocka_unit_test(block_path_reads_other_quote_kinds),
        cmocka_unit_test(block_path_postgres),
        cmocka_unit_test(block_path_mixed_quote_kinds),
        cmocka_unit_test(block_path_dense_quote_kinds),
#if !MOTE_SMALL
        cmocka_unit_test(block_path_constant_configurations),
#endif
        cmocka_unit_test(lines_quotes_hold_newlines_crlf_stripped),
        cmocka_unit_test(postgres_dollar_quotes_e_strings_nested_comments),
        cmocka_unit_test(sqlite_trigger_body_is_one_statement),
        cmocka_unit_test(pieces_mode_hands_out_long_token_in_parts),
        cmocka_unit_test(one_big_statement_examined_once),
        cmocka_unit_test(many_short_statements_bounded_memory),
        cmocka_unit_test(pull_api_reads_through_callback),
        cmocka_unit_test(misuse_is_reported),
        cmocka_unit_test(issue11_postgres_copy_data),
        cmocka_unit_test(issue11_psql_meta_commands),
        cmocka_unit_test(issue11_postgres_begin_atomic_and_parentheses),
        cmocka_unit_test(issue11_postgres_escape_strings),
        cmocka_unit_test(issue11_mysql_no_backslash_escapes),
        cmocka_unit_test(mysql_ansi_quotes),
        cmocka_unit_test(postgres_own_delimiter_long_runs),
        cmocka_unit_test(charset_trail_bytes),
        cmocka_unit_test(issue11_mysql_executable_comments),
        cmocka_unit_test(issue11_comments_and_terminated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
