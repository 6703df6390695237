/* cmd_sql.c - 'mote sql split': statements of a script as JSON lines,
 * read in chunks through the streaming scanner. */
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mote/arena.h"
#include "mote/scan.h"

static const char sql_usage[] =
    "usage: mote sql split [--dialect generic|mysql|sqlite|postgres|lines]\n"
    "                      [--delimiter S] [--max-statement BYTES] [--chunk BYTES]\n"
    "                      [--keep-comments] [--no-backslash-escapes]\n"
    "                      [--ansi-quotes] [--nonstandard-strings]\n"
    "                      [--charset NAME] [FILE|-]\n"
    "\n"
    "Splits FILE (or standard input) into statements with the streaming scanner,\n"
    "reading --chunk bytes at a time (default 65536), and prints one JSON object\n"
    "per line for each token, in order:\n"
    "  {\"line\":L,\"column\":C,\"offset\":O,\"length\":N,\"kind\":K,\n"
    "   \"terminated\":B,\"text\":\"...\"}\n"
    "kind: \"statement\", \"command\" (mysql DELIMITER, psql \\ lines), \"copy_data\"\n"
    "(one row of COPY ... FROM stdin), \"copy_end\" (its \\. line), \"comment\";\n"
    "terminated: false when the token ran to the end of the input (a cut dump).\n"
    "text: the token's bytes without the delimiter, as a JSON string when they\n"
    "are UTF-8 (only \", \\ and bytes below 0x20 escaped); otherwise a field\n"
    "\"base64\" holds the exact bytes instead. Bytes are input[offset..+length].\n"
    "\"cr\":true is added when a \\r before the line break was dropped (lines,\n"
    "copy_data).\n"
    "For an error, after which it goes on:\n"
    "  {\"error\":\"CODE\",\"message\":\"...\",\"line\":L,\"offset\":O}\n"
    "--dialect      default generic (\";\", quotes \" and ', backslash escapes)\n"
    "--delimiter    statement delimiter, 1..16 bytes (generic, mysql, postgres)\n"
    "--max-statement longest statement kept (default 1G = 1 GiB, the largest\n"
    "               packet MySQL accepts; 0 = no limit: memory then follows the\n"
    "               longest statement); longer ones are reported as TOO_LONG\n"
    "               and skipped up to their delimiter\n"
    "--chunk        read size (default 64K)\n"
    "--keep-comments  also print comment-only text (kind \"comment\")\n"
    "--no-backslash-escapes  mysql: start in sql_mode NO_BACKSLASH_ESCAPES\n"
    "--ansi-quotes           mysql: start in sql_mode ANSI_QUOTES (\"...\" is an\n"
    "                        identifier, without backslash escapes)\n"
    "--nonstandard-strings   postgres: start with standard_conforming_strings off\n"
    "(these modes then follow the script's SET statements)\n"
    "--charset      mysql, postgres: the dump's character set where a character's\n"
    "               second byte may be '\\' or '`': sjis (cp932, shift_jis_2004),\n"
    "               gbk (cp936, gb18030, big5), johab; default ascii (UTF-8,\n"
    "               Latin-1, EUC-JP, EUC-KR ...). As mysql --default-character-set\n"
    "               (mysqldump's SET NAMES); postgres then follows the script's\n"
    "               SET client_encoding, as psql does.\n"
    "Sizes take a binary suffix: 64K, 16M, 1G (1K = 1024 bytes).\n"
    "Exit status: 0; 1 if any statement error was reported (the rest is still\n"
    "split); 2 on a usage error or an I/O error (unreadable input, failed write),\n"
    "with one line 'mote: WHAT: REASON' on stderr.\n";

/* --dialect's names, by mote_scan_dialect (0 .. MOTE_SCAN_LINES) */
static const char *const dialect_names[] = {"generic", "mysql", "sqlite", "postgres", "lines"};
_Static_assert(sizeof dialect_names / sizeof dialect_names[0] == MOTE_SCAN_LINES + 1, "a name per dialect");

static int parse_dialect(const char *s, mote_scan_dialect *d)
{
    for (size_t i = 0; i < sizeof dialect_names / sizeof dialect_names[0]; i++) {
        if (strcmp(s, dialect_names[i]) == 0) {
            *d = (mote_scan_dialect)i;
            return 0;
        }
    }
    return -1;
}

/* ---- JSON output: the tool's buffer and JSON writer (out.c) ---------- */

/* p[0..n) as standard base64 with padding (RFC 4648). */
static void out_base64(tool_buf *o, const uint8_t *p, size_t n)
{
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    while (n) {
        size_t seg = (TOOL_BUF_CAP - o->len) / 4 * 3;
        if (seg < 48) {
            tool_buf_flush(o);
            seg = TOOL_BUF_CAP / 4 * 3;
        }
        if (seg > n) seg = n;
        uint8_t *d = o->p + o->len;
        size_t i = 0;
        for (; seg - i >= 3; i += 3, d += 4) {
            uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
            d[0] = (uint8_t)b64[v >> 18];
            d[1] = (uint8_t)b64[v >> 12 & 63];
            d[2] = (uint8_t)b64[v >> 6 & 63];
            d[3] = (uint8_t)b64[v & 63];
        }
        if (i < seg) { /* only in the last segment: seg == n there */
            uint32_t v = (uint32_t)p[i] << 16 | (seg - i > 1 ? (uint32_t)p[i + 1] << 8 : 0);
            d[0] = (uint8_t)b64[v >> 18];
            d[1] = (uint8_t)b64[v >> 12 & 63];
            d[2] = seg - i > 1 ? (uint8_t)b64[v >> 6 & 63] : '=';
            d[3] = '=';
            d += 4;
            i = seg;
        }
        o->len = (size_t)(d - o->p);
        p += seg;
        n -= seg;
    }
}

/* A token's bytes: as "text" when they are UTF-8, else as "base64". A token
 * whose worst case fits the buffer is checked while it is escaped (one pass;
 * on a bad byte the output is dropped: room for all of it is made first, so
 * nothing of it has been flushed); a longer one is checked first. */
static void out_token_text(tool_buf *o, const uint8_t *p, size_t n)
{
    static const char text_key[] = ",\"text\":\"";
    size_t need = n < TOOL_BUF_CAP / 6 ? (n + TOOL_BUF_SLACK) * 6 + sizeof text_key : TOOL_BUF_CAP + 1;
    if (need <= TOOL_BUF_CAP) {
        tool_buf_room(o, need);
        size_t mark = o->len;
        tool_buf_mem(o, text_key, sizeof text_key - 1);
        if (tool_buf_json(o, p, n, TOOL_JSON_UTF8_CHECK)) return;
        o->len = mark;
    } else if (tool_utf8_ok(p, n)) {
        tool_buf_mem(o, text_key, sizeof text_key - 1);
        tool_buf_json(o, p, n, TOOL_JSON_UTF8);
        return;
    }
    tool_buf_lit(o, ",\"base64\":\"");
    out_base64(o, p, n);
}

/* What follows the numbers, per kind and terminated flag: one copy. */
#define KIND_TAIL(k) \
    {{",\"kind\":\"" k "\",\"terminated\":false", sizeof(",\"kind\":\"" k "\",\"terminated\":false") - 1}, \
     {",\"kind\":\"" k "\",\"terminated\":true", sizeof(",\"kind\":\"" k "\",\"terminated\":true") - 1}}
/* Fixed 48-byte entries: copied with one constant-size copy (a variable one
 * was a libc call per token), the length added after. */
static const struct kind_tail { char s[48]; uint8_t n; } kind_tails[][2] = {
    [MOTE_SCAN_STATEMENT] = KIND_TAIL("statement"), [MOTE_SCAN_COMMAND] = KIND_TAIL("command"),
    [MOTE_SCAN_COPY_DATA] = KIND_TAIL("copy_data"), [MOTE_SCAN_COPY_END] = KIND_TAIL("copy_end"),
    [MOTE_SCAN_COMMENT] = KIND_TAIL("comment"),
};
static const struct kind_tail unknown_tail[2] = KIND_TAIL("unknown");

static int print_result(tool_buf *o, mote_err e, const mote_scan_token *tok)
{
    if (e == MOTE_OK) {
        /* the frame before the text in one go: 4 numbers (TOOL_U64_ROOM
         * each: tool_put_u64 stores whole words), 38 bytes of keys and the
         * kind tail */
        uint8_t *d = tool_buf_room(o, 4 * TOOL_U64_ROOM + 38 + sizeof kind_tails[0][0].s);
        d = TOOL_PUT_LIT(d, "{\"line\":");
        d = tool_put_u64(d, tok->pos.line);
        d = TOOL_PUT_LIT(d, ",\"column\":");
        d = tool_put_u64(d, tok->pos.column);
        d = TOOL_PUT_LIT(d, ",\"offset\":");
        d = tool_put_u64(d, tok->pos.offset);
        d = TOOL_PUT_LIT(d, ",\"length\":");
        d = tool_put_u64(d, tok->text.len);
        const struct kind_tail *kt = (unsigned)tok->kind < sizeof kind_tails / sizeof kind_tails[0]
                                         ? kind_tails[tok->kind] : unknown_tail;
        kt += (tok->flags & MOTE_SCAN_TOK_DELIM) != 0;
        memcpy(d, kt->s, sizeof kt->s);
        d += kt->n;
        if (tok->flags & MOTE_SCAN_TOK_CR) d = TOOL_PUT_LIT(d, ",\"cr\":true");
        o->len = (size_t)(d - o->p);
        out_token_text(o, tok->text.ptr, tok->text.len);
        tool_buf_lit(o, "\"}\n");
        return 0;
    }
    tool_buf_error(o, mote_err_name((int)e), tok->message, tok->pos.line, "offset", tok->pos.offset);
    return 1;
}

/* The options that set a config flag, and the one dialect each is for (-1: any). */
static const struct {
    const char *name;
    unsigned flag;
    int only;
} flag_opts[] = {
    {"--keep-comments", MOTE_SCAN_KEEP_COMMENTS, -1},
    {"--no-backslash-escapes", MOTE_SCAN_NO_BACKSLASH_ESCAPES, MOTE_SCAN_MYSQL},
    {"--ansi-quotes", MOTE_SCAN_ANSI_QUOTES, MOTE_SCAN_MYSQL},
    {"--nonstandard-strings", MOTE_SCAN_PG_NONSTANDARD_STRINGS, MOTE_SCAN_POSTGRES},
};
#define N_FLAG_OPTS (sizeof flag_opts / sizeof flag_opts[0])

/* --charset's names (any case), by what the scanner must know of them. */
static int parse_charset(const char *s, mote_scan_charset *cs)
{
    static const struct { const char *name; mote_scan_charset cs; } names[] = {
        {"ascii", MOTE_SCAN_CHARSET_ASCII},   {"utf8", MOTE_SCAN_CHARSET_ASCII},
        {"utf8mb4", MOTE_SCAN_CHARSET_ASCII}, {"sjis", MOTE_SCAN_CHARSET_SJIS},
        {"cp932", MOTE_SCAN_CHARSET_SJIS},    {"shift_jis_2004", MOTE_SCAN_CHARSET_SJIS},
        {"gbk", MOTE_SCAN_CHARSET_GBK},       {"cp936", MOTE_SCAN_CHARSET_GBK},
        {"gb18030", MOTE_SCAN_CHARSET_GBK},   {"big5", MOTE_SCAN_CHARSET_GBK},
        {"johab", MOTE_SCAN_CHARSET_JOHAB},
    };
    char low[16];
    size_t n = 0;
    for (; s[n] && n < sizeof low - 1; n++) low[n] = (char)(s[n] >= 'A' && s[n] <= 'Z' ? s[n] + 32 : s[n]);
    low[n] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !s[n]; i++) {
        if (strcmp(low, names[i].name) == 0) {
            *cs = names[i].cs;
            return 0;
        }
    }
    return -1;
}

static int sql_split(int argc, char **argv)
{
    mote_scan_dialect dialect = MOTE_SCAN_GENERIC;
    const char *delim = NULL, *path = NULL;
    mote_scan_charset charset = MOTE_SCAN_CHARSET_ASCII;
    /* 1 GiB: MySQL's max_allowed_packet ceiling, so no real statement is cut;
     * an unterminated quote in a huge dump stops there instead of taking all
     * memory. */
    size_t max_stmt = (size_t)1 << 30, chunk = 65536;
    unsigned flags = 0;
    bool options = true; /* until "--" */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = false;
            continue;
        }
        if (!options || a[0] != '-' || a[1] == 0) {
            if (path) return tool_usage_error("sql split: more than one input file");
            path = a;
            continue;
        }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(sql_usage, stdout);
            return TOOL_OK;
        }
        size_t f = 0;
        while (f < N_FLAG_OPTS && strcmp(a, flag_opts[f].name) != 0) f++;
        if (f < N_FLAG_OPTS) {
            flags |= flag_opts[f].flag;
            continue;
        }
        bool takes = strcmp(a, "--dialect") == 0 || strcmp(a, "--delimiter") == 0 ||
                     strcmp(a, "--max-statement") == 0 || strcmp(a, "--chunk") == 0 ||
                     strcmp(a, "--charset") == 0;
        if (takes) {
            if (i + 1 >= argc) return tool_usage_error("sql split: %s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "--dialect") == 0) {
                if (parse_dialect(v, &dialect) != 0)
                    return tool_usage_error("sql split: unknown dialect '%s'", v);
            } else if (strcmp(a, "--delimiter") == 0) {
                delim = v;
            } else if (strcmp(a, "--charset") == 0) {
                if (parse_charset(v, &charset) != 0)
                    return tool_usage_error("sql split: unknown charset '%s' (try --help)", v);
            } else if (strcmp(a, "--max-statement") == 0) {
                if (tool_parse_size(v, &max_stmt) != 0)
                    return tool_usage_error("sql split: bad --max-statement '%s'", v);
            } else if (tool_parse_size(v, &chunk) != 0 || chunk == 0) {
                return tool_usage_error("sql split: bad --chunk '%s'", v);
            }
        } else {
            return tool_usage_error("sql split: unknown option '%s' (try --help)", a);
        }
    }
    /* each dialect flag belongs to one dialect (the library ignores it elsewhere) */
    for (size_t f = 0; f < N_FLAG_OPTS; f++)
        if ((flags & flag_opts[f].flag) && flag_opts[f].only >= 0 && flag_opts[f].only != (int)dialect)
            return tool_usage_error("sql split: %s is for --dialect %s", flag_opts[f].name,
                                    dialect_names[flag_opts[f].only]);
    if (charset && dialect != MOTE_SCAN_MYSQL && dialect != MOTE_SCAN_POSTGRES)
        return tool_usage_error("sql split: --charset is for --dialect mysql or postgres");

    mote_scan_config cfg;
    if (mote_scan_config_init(&cfg, dialect) != MOTE_OK)
        return tool_usage_error("sql split: bad dialect");
    if (delim) {
        cfg.delim = (const uint8_t *)delim;
        cfg.delim_len = strlen(delim);
    }
    cfg.max_token = max_stmt;
    cfg.flags |= flags;
    cfg.charset = charset;

    /* The carry is the only allocation of its own heap-backed arena, so it
     * grows by realloc of its block: large blocks are remapped in place,
     * not copied, and the old storage is not kept beside the new (with a
     * pool, growing past L/2 held L/2 + L bytes). Memory follows the
     * longest statement. */
    mote_arena arena;
    mote_buf carry;
    if (mote_arena_init(&arena, NULL, 0, mote_heap_alloc, NULL) != MOTE_OK ||
        mote_buf_init_arena(&carry, &arena, 0) != MOTE_OK) {
        fputs("mote: out of memory\n", stderr);
        return TOOL_IO;
    }
    mote_scanner sc;
    mote_err e = mote_scan_init(&sc, &cfg, &carry);
    if (e != MOTE_OK) {
        mote_arena_destroy(&arena);
        return tool_usage_error("sql split: %s (delimiter must be 1..16 bytes, and ';' for sqlite, "
                                "a newline for lines)", mote_err_message((int)e));
    }
    FILE *in = tool_open_input(path);
    if (!in) { /* a missing file is a usage error: one line, exit 2 */
        mote_arena_destroy(&arena);
        return TOOL_USAGE;
    }
    uint8_t *buf = malloc(chunk);
    tool_buf out;
    if (tool_buf_open(&out, stdout) != 0 || !buf) {
        free(buf);
        free(out.p);
        fputs("mote: out of memory\n", stderr);
        if (in != stdin) fclose(in);
        mote_arena_destroy(&arena);
        return TOOL_IO;
    }
    int status = TOOL_OK;
    mote_scan_token tok;
    bool failed = false;
    for (;;) {
        size_t n = tool_read(in, path, buf, chunk, &failed);
        if (failed) { /* an unreadable input is not a bad statement: exit 2 */
            status = TOOL_IO;
            break;
        }
        if ((n > 0 ? mote_scan_feed(&sc, buf, n) : mote_scan_finish(&sc)) != MOTE_OK) {
            status = TOOL_IO; /* cannot happen: the scanner was drained */
            break;
        }
        while ((e = mote_scan_next(&sc, &tok)) != MOTE_ERR_NEED_MORE) {
            if (print_result(&out, e, &tok)) status = TOOL_DATA_ERROR;
            if (out.failed) break;
        }
        if (n == 0 || out.failed) break;
    }
    if (tool_buf_close(&out, "stdout")) status = TOOL_IO; /* says why */
    free(buf);
    if (in != stdin) fclose(in);
    mote_buf_free(&carry);
    mote_arena_destroy(&arena);
    return status; /* stdout is closed and checked by tool_finish */
}

int tool_cmd_sql(int argc, char **argv)
{
    if (argc < 2) {
        fputs(sql_usage, stderr);
        return TOOL_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(sql_usage, stdout);
        return TOOL_OK;
    }
    if (strcmp(argv[1], "split") == 0) return sql_split(argc - 1, argv + 1);
    return tool_usage_error("sql: unknown subcommand '%s' (try 'mote sql --help')", argv[1]);
}
