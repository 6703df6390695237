/* test_scan_dialects.c - the sqlite dialect against SQLite's own
 * sqlite3_complete() (every statement boundary of a script is where SQLite
 * says the statement is complete), on hand-picked scripts and on generated
 * token soup; plus dialect rules that need many cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "scan_util.h"

#ifdef MOTE_HAVE_SQLITE /* set by tests/meson.build when libsqlite3 is found */
#include <sqlite3.h>
#define HAVE_SQLITE 1
#endif

#ifdef HAVE_SQLITE
static int complete(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    int r = sqlite3_complete(s);
    free(s);
    return r;
}

/* Shortest prefix of p[0..n) SQLite calls complete, 0 if none. */
static size_t shortest_complete(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] == ';' && complete(p, i + 1)) return i + 1;
    return 0;
}

/* Every delimiter-ended statement ends where SQLite first calls the rest
 * complete; the end-of-input remainder has no complete prefix. */
static void check_script(const char *s)
{
    size_t n = strlen(s);
    mote_scan_config cfg;
    assert_int_equal(mote_scan_config_init(&cfg, MOTE_SCAN_SQLITE), MOTE_OK);
    cfg.flags = MOTE_SCAN_KEEP_BLANK | MOTE_SCAN_KEEP_COMMENTS;
    uint8_t *mem = malloc(n + 1);
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, n + 1), MOTE_OK);
    mote_scanner sc;
    assert_int_equal(mote_scan_init(&sc, &cfg, &b), MOTE_OK);
    assert_int_equal(mote_scan_feed(&sc, s, n), MOTE_OK);
    size_t at = 0;
    mote_scan_token tok;
    mote_err e;
    bool fin = false;
    for (;;) {
        e = mote_scan_next(&sc, &tok);
        if (e == MOTE_ERR_NEED_MORE) {
            if (fin) break;
            assert_int_equal(mote_scan_finish(&sc), MOTE_OK);
            fin = true;
            continue;
        }
        /* leading comments split off a statement end at no delimiter */
        if (e == MOTE_OK && tok.kind == MOTE_SCAN_COMMENT &&
            s[tok.pos.offset + tok.text.len] != ';')
            continue;
        size_t want = shortest_complete(s + at, n - at);
        if (e == MOTE_OK && (tok.flags & MOTE_SCAN_TOK_DELIM)) {
            size_t end = (size_t)tok.pos.offset + tok.text.len + 1;
            if (want == 0 || at + want != end) {
                print_message("script: %s\nat %zu: scanner ends at %zu, sqlite at %zu\n", s, at, end,
                              want ? at + want : 0);
                fail();
            }
            at = end;
        } else {
            if (want != 0) {
                print_message("script: %s\nat %zu: scanner finds no end, sqlite at %zu\n", s, at,
                              at + want);
                fail();
            }
            break;
        }
    }
    free(mem);
}
#endif

#ifdef HAVE_SQLITE
static void sqlite_matches_sqlite3_complete_on_known_cases(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "select 1;",
        "  ;select 2 ; ;",
        "select 'a;b' , \"c;d\", `e;f`, [g;h];",
        "select 'it''s;';",
        "-- c;\nselect 1; /* ; */ select 2;",
        "select 1 -- ;",
        "create trigger t after insert on a begin select 1; end; x;",
        "CREATE TEMP TRIGGER t BEFORE DELETE ON a BEGIN DELETE FROM b; UPDATE c SET d=1; END;",
        "create temporary trigger t instead of update on v begin select 1; end ;",
        "explain create trigger t begin select 1; end; y;",
        "explain query plan select 1; z;",
        "create table end(x); create trigger e begin select end from end; end;",
        "create trigger t begin select 1; end-; end;",
        "create trigger t begin select 1; end /* c */ ; q;",
        "create trigger t begin select 1; end -- c\n; q;",
        "createtrigger t; create  trigger; end; r;",
        "create \"trigger\" t; u;",
        "create temp temp trigger x; end; v;",
        "\vexplain create trigger t begin; end; w;",
        "create trigger x begin select 'end;'; end; v;",
        "create trigger x begin select [a;b]; select `c;d`; end;",
        "create_trigger x; trigger; end;",
        "x$create trigger; create$ trigger y; end;",
        "/* unterminated ;",
        "'open ;",
        "select 1",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_script(cases[i]);
}
#endif

#ifdef HAVE_SQLITE
static void sqlite_matches_sqlite3_complete_on_token_soup(void **state)
{
    (void)state;
    /* Deterministic random scripts built from the tokens that drive
     * sqlite3_complete()'s state machine. */
    static const char *const toks[] = {
        "create", "CREATE", "trigger", "Trigger", "temp", "temporary", "end", "END",
        "explain", "begin", "select", "x", ";", ";", ";", " ", "\n", "\t", "\v", "'a;b'",
        "\"q\"", "`b`", "[c;]", "-- c\n", "/* ; */", "-", "/", "(", ")", ",", "end_", "$",
        "1", "\xc3\xa9", "''", "'", "*/",
    };
    uint32_t r = 12345;
    char buf[512];
    for (int script = 0; script < 3000; script++) {
        size_t len = 0;
        r = r * 1103515245u + 12345u;
        int ntok = 1 + (int)((r >> 16) % 24);
        for (int t = 0; t < ntok; t++) {
            r = r * 1103515245u + 12345u;
            const char *tk = toks[(r >> 16) % (sizeof toks / sizeof toks[0])];
            size_t tl = strlen(tk);
            if (len + tl + 2 >= sizeof buf) break;
            memcpy(buf + len, tk, tl);
            len += tl;
            /* words need separators; sometimes leave them glued */
            if ((r >> 8) % 4) buf[len++] = ' ';
        }
        buf[len] = 0;
        check_script(buf);
    }
}
#endif

/* mysql: the delimiter command and comment rules over many chunkings are in
 * test_scan.c; here, every way of splitting a DELIMITER line over two feeds. */
static void mysql_delimiter_command_split_anywhere(void **state)
{
    (void)state;
    const char *in = "select 1;\nDELIMITER $$\nselect 2; select 3$$\nDELIMITER ;\nselect 4;";
    size_t n = strlen(in);
    mote_scan_config cfg;
    assert_int_equal(mote_scan_config_init(&cfg, MOTE_SCAN_MYSQL), MOTE_OK);
    transcript whole = scan_all(&cfg, in, n, n, 0);
    assert_string_equal(whole.s, "1:1@0|select 1|\n2:1@10C|DELIMITER $$|\n3:1@23|select 2; select 3|\n"
                                 "4:1@44C|DELIMITER ;|\n5:1@56|select 4|\n");
    for (size_t cut = 1; cut < n; cut++) {
        /* two chunks: [0,cut) and [cut,n) */
        uint8_t mem[128];
        mote_buf b;
        assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
        mote_scanner sc;
        assert_int_equal(mote_scan_init(&sc, &cfg, &b), MOTE_OK);
        transcript t = {0};
        tr_add(&t, "", 0);
        mote_scan_token tok;
        mote_err e;
        char *a = malloc(cut), *c = malloc(n - cut);
        memcpy(a, in, cut);
        memcpy(c, in + cut, n - cut);
        assert_int_equal(mote_scan_feed(&sc, a, cut), MOTE_OK);
        while ((e = mote_scan_next(&sc, &tok)) != MOTE_ERR_NEED_MORE) tr_token(&t, e, &tok);
        free(a);
        assert_int_equal(mote_scan_feed(&sc, c, n - cut), MOTE_OK);
        while ((e = mote_scan_next(&sc, &tok)) != MOTE_ERR_NEED_MORE) tr_token(&t, e, &tok);
        free(c);
        assert_int_equal(mote_scan_finish(&sc), MOTE_OK);
        while ((e = mote_scan_next(&sc, &tok)) != MOTE_ERR_NEED_MORE) tr_token(&t, e, &tok);
        assert_string_equal(t.s, whole.s);
        free(t.s);
    }
    free(whole.s);
}

/* postgres: tags must match exactly; "$1" is a parameter, "a$b" an identifier. */
static void postgres_dollar_tag_rules(void **state)
{
    (void)state;
    mote_scan_config cfg;
    assert_int_equal(mote_scan_config_init(&cfg, MOTE_SCAN_POSTGRES), MOTE_OK);
    const char *in = "do $fn$ begin perform 1; $f$ ; $fn ; end $fn$;"
                     "select $a$$$a$;select $_9$;$_9$;select $1,$2;";
    transcript t = scan_all(&cfg, in, strlen(in), 3, 0);
    assert_string_equal(t.s, "1:1@0|do $fn$ begin perform 1; $f$ ; $fn ; end $fn$|\n"
                             "1:47@46|select $a$$$a$|\n1:62@61|select $_9$;$_9$|\n"
                             "1:79@78|select $1,$2|\n");
    free(t.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef HAVE_SQLITE /* without the oracle (a cross build) these are left out:
                      * cmocka 1.1.5 reports a skip as "not ok" */
        cmocka_unit_test(sqlite_matches_sqlite3_complete_on_known_cases),
        cmocka_unit_test(sqlite_matches_sqlite3_complete_on_token_soup),
#endif
        cmocka_unit_test(mysql_delimiter_command_split_anywhere),
        cmocka_unit_test(postgres_dollar_tag_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
