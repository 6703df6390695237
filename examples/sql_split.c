/*
 * sql_split.c - the skeleton of a SQL importer: split a script (mysql
 * dialect, DELIMITER commands honoured) into statements with the pull API and
 * print each with its line number (client commands marked as such, a last
 * statement cut off by the end of the input flagged). A statement longer than --max is reported
 * and skipped; the import goes on with the next one.
 *
 *   sql_split [--max BYTES] [--chunk BYTES] [FILE|-]
 *
 * Memory: one 4 KiB read chunk and a carry buffer for the one statement that
 * straddles chunks, from an arena over a static block. A script of millions
 * of statements runs in memory bounded by the longest statement, and each
 * byte is examined once (the statistics at the end show it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mote/mote.h"

static uint8_t block[64 * 1024]; /* arena memory; grows through the heap only if needed */

static long read_file(void *ctx, uint8_t *dst, size_t cap)
{
    FILE *f = ctx;
    errno = 0;
    size_t n = fread(dst, 1, cap, f);
    if (n == 0 && ferror(f)) return -1;
    return (long)n;
}

static int usage(const char *msg)
{
    if (msg) {
        fprintf(stderr, "sql_split: %s (try --help)\n", msg);
        return 2;
    }
    printf("usage: sql_split [--max BYTES] [--chunk BYTES] [FILE|-]\n"
           "  Split a mysql-dialect SQL script into statements and print each with\n"
           "  its line number. --max: longest statement kept (default 1048576);\n"
           "  --chunk: read size (default 4096). Sizes take K, M, G (binary).\n"
           "  Exit 0; 1 if any statement was bad (each reported, the rest split);\n"
           "  2 on a usage or I/O error.\n");
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sql_split: stdout: %s\n", strerror(errno ? errno : EIO));
        return 2;
    }
    return 0;
}

/* A positive byte count with an optional binary suffix K, M or G ("64K"),
 * on mote's own exact integer parser (no locale). */
static int size_arg(const char *s, size_t *out)
{
    size_t v;
    if (mote_num_parse_size((const uint8_t *)s, strlen(s), &v) != MOTE_OK || v == 0) return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    size_t max = 1u << 20, chunk_size = 4096;
    const char *path = "-";
    int have_path = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return usage(NULL);
        if (!strcmp(argv[i], "--max") || !strcmp(argv[i], "--chunk")) {
            if (i + 1 >= argc || size_arg(argv[i + 1], argv[i][2] == 'm' ? &max : &chunk_size))
                return usage("--max and --chunk need a positive number");
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage("unknown option");
        } else if (have_path++) {
            return usage("more than one input file");
        } else {
            path = argv[i];
        }
    }
    FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!in) {
        fprintf(stderr, "sql_split: %s: %s\n", path, strerror(errno));
        return 2;
    }

    mote_arena arena;
    mote_buf carry;
    mote_scanner sc;
    mote_scan_config cfg;
    if (mote_arena_init(&arena, block, sizeof block, mote_heap_alloc, NULL) != MOTE_OK) return 2;
    uint8_t *chunk = mote_arena_alloc_array(&arena, chunk_size, 1, 1);
    if (mote_buf_init_arena(&carry, &arena, 0) != MOTE_OK) return 2;
    mote_err ce = mote_scan_config_init(&cfg, MOTE_SCAN_MYSQL);
    cfg.max_token = max;
    if (!chunk || ce != MOTE_OK || mote_scan_init(&sc, &cfg, &carry) != MOTE_OK) {
        fprintf(stderr, "sql_split: out of memory\n");
        return 2;
    }

    mote_scan_token tok;
    mote_err e;
    unsigned long statements = 0, errors = 0;
    while ((e = mote_scan_pull(&sc, read_file, in, chunk, chunk_size, &tok)) != MOTE_ERR_NEED_MORE) {
        if (e == MOTE_ERR_IO) { /* a directory, a closed descriptor: errno says */
            fprintf(stderr, "sql_split: %s: %s\n", path, strerror(errno ? errno : EIO));
            return 2;
        }
        if (e != MOTE_OK) {
            /* Recoverable: the scanner has dropped the bad statement. */
            fprintf(stderr, "line %llu: %s: %s\n", (unsigned long long)tok.pos.line,
                    mote_err_name(e), tok.message);
            errors++;
            continue;
        }
        /* DELIMITER lines come as client commands: the scanner has
         * already applied them; an importer does not send them */
        if (tok.kind == MOTE_SCAN_COMMAND) {
            printf("%llu: (client command) %.*s\n", (unsigned long long)tok.pos.line,
                   (int)tok.text.len, (const char *)tok.text.ptr);
            continue;
        }
        statements++;
        printf("%llu: %.*s%s\n", (unsigned long long)tok.pos.line, (int)tok.text.len,
               (const char *)tok.text.ptr,
               (tok.flags & MOTE_SCAN_TOK_TERMINATED) ? "" : "  (no delimiter: input ended)");
        if (ferror(stdout)) { /* a full disk or a closed pipe: stop, say so */
            fprintf(stderr, "sql_split: stdout: %s\n", strerror(errno ? errno : EIO));
            return 2;
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sql_split: stdout: %s\n", strerror(errno ? errno : EIO));
        return 2;
    }

    mote_scan_stats st;
    mote_arena_stats as;
    mote_scan_get_stats(&sc, &st);
    mote_arena_get_stats(&arena, &as);
    fprintf(stderr,
            "%lu statements, %lu errors; %llu bytes read, %llu examined, %llu copied "
            "(longest carry %zu); arena high water %zu bytes\n",
            statements, errors, (unsigned long long)st.bytes_fed,
            (unsigned long long)st.bytes_examined, (unsigned long long)st.bytes_copied,
            st.carry_peak, as.high_water);
    if (in != stdin) fclose(in);
    return errors ? 1 : 0;
}
