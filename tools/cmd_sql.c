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
    "                      [--delimiter S] [--max-statement BYTES] [--chunk BYTES] [FILE|-]\n"
    "\n"
    "Splits FILE (or standard input) into statements with the streaming scanner,\n"
    "reading --chunk bytes at a time (default 65536), and prints one JSON object\n"
    "per line for each statement, in order:\n"
    "  {\"line\":L,\"column\":C,\"offset\":O,\"length\":N,\"text\":\"...\"}\n"
    "(text without its delimiter; \" and \\ escaped, bytes outside 0x20..0x7e as\n"
    "\\u00XX), or for an error, after which it goes on:\n"
    "  {\"error\":\"CODE\",\"message\":\"...\",\"line\":L,\"offset\":O}\n"
    "--dialect      default generic (\";\", quotes \" and ', backslash escapes)\n"
    "--delimiter    statement delimiter, 1..16 bytes (generic, mysql, postgres)\n"
    "--max-statement longest statement kept (default 1G = 1 GiB, the largest\n"
    "               packet MySQL accepts; 0 = no limit: memory then follows the\n"
    "               longest statement); longer ones are reported as TOO_LONG\n"
    "               and skipped up to their delimiter\n"
    "--chunk        read size (default 64K)\n"
    "Sizes take a binary suffix: 64K, 16M, 1G (1K = 1024 bytes).\n"
    "Exit status: 0; 1 if any statement error was reported (the rest is still\n"
    "split); 2 on a usage error or an I/O error (unreadable input, failed write),\n"
    "with one line 'mote: WHAT: REASON' on stderr.\n";

static int parse_dialect(const char *s, mote_scan_dialect *d)
{
    static const struct { const char *name; mote_scan_dialect d; } names[] = {
        {"generic", MOTE_SCAN_GENERIC}, {"mysql", MOTE_SCAN_MYSQL},
        {"sqlite", MOTE_SCAN_SQLITE},   {"postgres", MOTE_SCAN_POSTGRES},
        {"lines", MOTE_SCAN_LINES},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].name) == 0) {
            *d = names[i].d;
            return 0;
        }
    }
    return -1;
}

static int print_result(mote_err e, const mote_scan_token *tok)
{
    if (e == MOTE_OK) {
        printf("{\"line\":%" PRIu64 ",\"column\":%" PRIu64 ",\"offset\":%" PRIu64
               ",\"length\":%zu,\"text\":",
               tok->pos.line, tok->pos.column, tok->pos.offset, tok->text.len);
        tool_json_string(stdout, tok->text.ptr, tok->text.len);
        fputs("}\n", stdout);
        return 0;
    }
    printf("{\"error\":\"%s\",\"message\":", mote_err_name((int)e));
    tool_json_string(stdout, (const uint8_t *)tok->message, strlen(tok->message));
    printf(",\"line\":%" PRIu64 ",\"offset\":%" PRIu64 "}\n", tok->pos.line, tok->pos.offset);
    return 1;
}

static int sql_split(int argc, char **argv)
{
    mote_scan_dialect dialect = MOTE_SCAN_GENERIC;
    const char *delim = NULL, *path = NULL;
    /* 1 GiB: MySQL's max_allowed_packet ceiling, so no real statement is cut;
     * an unterminated quote in a huge dump stops there instead of taking all
     * memory. */
    size_t max_stmt = (size_t)1 << 30, chunk = 65536;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(sql_usage, stdout);
            return TOOL_OK;
        }
        bool takes = strcmp(a, "--dialect") == 0 || strcmp(a, "--delimiter") == 0 ||
                     strcmp(a, "--max-statement") == 0 || strcmp(a, "--chunk") == 0;
        if (takes) {
            if (i + 1 >= argc) return tool_usage_error("sql split: %s needs a value", a);
            const char *v = argv[++i];
            if (strcmp(a, "--dialect") == 0) {
                if (parse_dialect(v, &dialect) != 0)
                    return tool_usage_error("sql split: unknown dialect '%s'", v);
            } else if (strcmp(a, "--delimiter") == 0) {
                delim = v;
            } else if (strcmp(a, "--max-statement") == 0) {
                if (tool_parse_size(v, &max_stmt) != 0)
                    return tool_usage_error("sql split: bad --max-statement '%s'", v);
            } else if (tool_parse_size(v, &chunk) != 0 || chunk == 0) {
                return tool_usage_error("sql split: bad --chunk '%s'", v);
            }
        } else if (a[0] == '-' && a[1] != 0) {
            return tool_usage_error("sql split: unknown option '%s' (try --help)", a);
        } else if (path) {
            return tool_usage_error("sql split: more than one input file");
        } else {
            path = a;
        }
    }

    mote_scan_config cfg;
    mote_scan_config_init(&cfg, dialect);
    if (delim) {
        cfg.delim = (const uint8_t *)delim;
        cfg.delim_len = strlen(delim);
    }
    cfg.max_token = max_stmt;

    /* The carry grows through a pool on a heap-backed arena: old storage goes
     * back to the pool, so memory follows the longest statement. */
    mote_arena arena;
    mote_pool pool;
    mote_buf carry;
    if (mote_arena_init(&arena, NULL, 0, mote_heap_alloc, NULL) != MOTE_OK ||
        mote_pool_init(&pool, &arena, 0) != MOTE_OK ||
        mote_buf_init_pool(&carry, &pool, 0) != MOTE_OK) {
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
    if (!buf) {
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
        if (n > 0) mote_scan_feed(&sc, buf, n);
        else mote_scan_finish(&sc);
        while ((e = mote_scan_next(&sc, &tok)) != MOTE_ERR_NEED_MORE) {
            if (print_result(e, &tok)) status = TOOL_DATA_ERROR;
            if (tool_out_ok(stdout, "stdout")) {
                failed = true;
                break;
            }
        }
        if (failed) {
            status = TOOL_IO;
            break;
        }
        if (n == 0) break;
    }
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
