/*
 * sql_restore.c - restore a SQL dump (sqlite3's .dump, or any script in the
 * sqlite dialect) into an SQLite database through its C API, one statement
 * at a time, with bounded memory.
 *
 *   sql_restore [--chunk BYTES] [--max BYTES] DB [DUMP|-]
 *
 * The dump is read in chunks through the scanner's pull API; each statement
 * goes to sqlite3_prepare_v2() as a (pointer, length) view - no copy, no
 * NUL terminator needed - and is stepped to completion. A statement that
 * fails is reported on stderr with its line and SQLite's message, and the
 * restore goes on with the next one (as the sqlite3 shell does without
 * .bail). A statement the scanner cannot take (longer than --max, an
 * unterminated quote at the end) is reported the same way.
 *
 * Memory: one read chunk (static) and a carry buffer for the one statement
 * that straddles chunks, the only allocation of its own heap-backed arena
 * (it grows by realloc): the peak follows the longest statement, not the
 * size of the dump.
 *
 * Exit status: 0 all statements restored; 1 some failed (each reported);
 * 2 usage error, unreadable dump, database that cannot be opened or closed,
 * or a failed write of the report.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "mote/mote.h"

enum { CHUNK_MAX = 1 << 20 };
static uint8_t chunk[CHUNK_MAX];

static int read_errno; /* the reason of a failed read */

static long read_file(void *ctx, uint8_t *dst, size_t cap)
{
    FILE *f = ctx;
    errno = 0;
    size_t n = fread(dst, 1, cap, f);
    if (n == 0 && ferror(f)) {
        read_errno = errno ? errno : EIO;
        return -1;
    }
    return (long)n;
}

static int write_failed; /* a report line could not be written: exit 2 */

static void report(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(stderr, fmt, ap) < 0) write_failed = 1;
    va_end(ap);
}

static int usage(const char *msg)
{
    if (msg) {
        report("sql_restore: %s (try --help)\n", msg);
        return 2;
    }
    if (printf("usage: sql_restore [--chunk BYTES] [--max BYTES] DB [DUMP|-]\n"
               "  Restore an SQLite dump into DB statement by statement; report each\n"
               "  failing statement with its line and go on. --chunk: read size (default\n"
               "  65536, at most 1M); --max: longest statement (default 1G); K/M/G suffixes.\n"
               "  Exit 0 if all restored, 1 if any statement failed, 2 on usage or I/O\n"
               "  errors.\n") < 0 || fflush(stdout) != 0)
        return 2;
    return 0;
}

/* A positive byte count with an optional binary suffix K, M or G ("64K"). */
static int size_arg(const char *s, size_t *out)
{
    size_t v;
    if (mote_num_parse_size((const uint8_t *)s, strlen(s), &v) != MOTE_OK || v == 0) return -1;
    *out = v;
    return 0;
}

/* Prepare and step every statement in sql[0..len) (the scanner gives one; a
 * trailing comment leaves an empty tail). 0 on success, else SQLite's code
 * with the message reported. */
static int exec_view(sqlite3 *db, const char *sql, size_t len, unsigned long long line)
{
    while (len) {
        sqlite3_stmt *st = NULL;
        const char *tail = NULL;
        /* --max is capped below INT_MAX, so len fits prepare's int */
        int rc = sqlite3_prepare_v2(db, sql, (int)len, &st, &tail);
        if (rc == SQLITE_OK && st) {
            while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            }
            if (rc == SQLITE_DONE) rc = SQLITE_OK;
        }
        if (rc != SQLITE_OK) {
            int shown = len > 200 ? 200 : (int)len;
            report("sql_restore: line %llu: %s: %.*s%s\n", line, sqlite3_errmsg(db), shown, sql,
                   (size_t)shown < len ? "..." : "");
            sqlite3_finalize(st);
            return rc;
        }
        sqlite3_finalize(st);
        if (!tail) break;
        len -= (size_t)(tail - sql);
        sql = tail;
    }
    return 0;
}

int main(int argc, char **argv)
{
    size_t max = (size_t)1 << 30, chunk_size = 65536;
    const char *db_path = NULL, *path = "-";
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return usage(NULL);
        if (!strcmp(argv[i], "--max") || !strcmp(argv[i], "--chunk")) {
            if (i + 1 >= argc || size_arg(argv[i + 1], argv[i][2] == 'm' ? &max : &chunk_size))
                return usage("--max and --chunk need a positive number");
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage("unknown option");
        } else if (npos == 0) {
            db_path = argv[i];
            npos++;
        } else if (npos == 1) {
            path = argv[i];
            npos++;
        } else {
            return usage("too many arguments");
        }
    }
    if (!db_path) return usage("no database given");
    if (chunk_size > CHUNK_MAX) return usage("--chunk is at most 1048576");
    if (max > (size_t)1 << 30) return usage("--max is at most 1073741824 (SQLite's own limit is lower)");

    FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    /* a closed stdin: said now, before SQLite opens /dev/null onto fd 0 (it
     * keeps its files off fds 0-2) and the dump reads as empty */
    struct stat st;
    if (in == stdin && fstat(STDIN_FILENO, &st) != 0) in = NULL;
    if (!in) {
        report("sql_restore: %s: %s\n", strcmp(path, "-") ? path : "stdin", strerror(errno));
        return 2;
    }
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        report("sql_restore: %s: %s\n", db_path, db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        if (in != stdin) fclose(in);
        return 2;
    }

    mote_arena arena;
    mote_buf carry;
    mote_scanner sc;
    mote_scan_config cfg;
    mote_err e = mote_scan_config_init(&cfg, MOTE_SCAN_SQLITE);
    cfg.max_token = max;
    if (e == MOTE_OK) e = mote_arena_init(&arena, NULL, 0, mote_heap_alloc, NULL);
    if (e == MOTE_OK) e = mote_buf_init_arena(&carry, &arena, 0);
    if (e == MOTE_OK) e = mote_scan_init(&sc, &cfg, &carry);
    if (e != MOTE_OK) { /* cannot happen with this config; checked all the same */
        report("sql_restore: %s\n", mote_err_message(e));
        sqlite3_close(db);
        if (in != stdin) fclose(in);
        return 2;
    }

    mote_scan_token tok;
    unsigned long long done = 0, failed = 0;
    int status = 0;
    while ((e = mote_scan_pull(&sc, read_file, in, chunk, chunk_size, &tok)) != MOTE_ERR_NEED_MORE) {
        if (e == MOTE_ERR_IO) {
            report("sql_restore: %s: %s\n", strcmp(path, "-") ? path : "stdin", strerror(read_errno));
            status = 2;
            break;
        }
        if (e != MOTE_OK) { /* the scanner dropped this statement and goes on */
            report("sql_restore: line %llu: %s: %s\n", (unsigned long long)tok.pos.line,
                   mote_err_name(e), tok.message);
            failed++;
            continue;
        }
        if (tok.kind != MOTE_SCAN_STATEMENT) continue; /* comments, client commands */
        if (exec_view(db, (const char *)tok.text.ptr, tok.text.len, tok.pos.line) != 0)
            failed++;
        else
            done++;
    }
    if (in != stdin) fclose(in);
    mote_buf_free(&carry);
    mote_arena_destroy(&arena);
    /* close reports what SQLite could not write at the end */
    if (sqlite3_close(db) != SQLITE_OK) {
        report("sql_restore: %s: cannot close: %s\n", db_path, sqlite3_errmsg(db));
        status = 2;
    }
    if (printf("%llu statements restored, %llu failed\n", done, failed) < 0 || fflush(stdout) != 0 ||
        write_failed)
        status = 2;
    if (status == 0 && failed) status = 1;
    return status;
}
