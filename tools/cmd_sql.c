/* cmd_sql.c - 'mote sql split': statements of a script as JSON lines,
 * read in chunks through the streaming scanner. */
#include "tool.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mote/arena.h"
#include "mote/be.h"
#include "mote/scan.h"

static const char sql_usage[] =
    "usage: mote sql split [--dialect generic|mysql|sqlite|postgres|lines]\n"
    "                      [--delimiter S] [--max-statement BYTES] [--chunk BYTES]\n"
    "                      [--keep-comments] [--no-backslash-escapes]\n"
    "                      [--nonstandard-strings] [FILE|-]\n"
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
    "--nonstandard-strings   postgres: start with standard_conforming_strings off\n"
    "(both modes then follow the script's SET statements)\n"
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

/* ---- JSON output ------------------------------------------------------
 * The writer is the CLI's cost (the scanner under it runs several GB/s), so
 * it fills its own buffer instead of going through stdio per byte: text is
 * checked for UTF-8 and escaped eight bytes at a time, and only the words
 * that hold a byte needing attention are walked byte by byte. 32 KiB is as
 * fast as 1 MiB here (measured) and keeps the process near the longest
 * statement in memory (the RSS check allows the longest statement + 2 MiB,
 * and libc, libm and the binary take about 1.3 MiB of that). */

enum { OUT_CAP = 1u << 15 };

typedef struct out_buf {
    uint8_t *p;
    size_t len;
    FILE *f;
    int failed; /* a write failed: stop, exit 2 */
} out_buf;

static void out_flush(out_buf *o)
{
    /* a short write leaves ferror(f) set: the caller reports it */
    if (o->len && !o->failed && fwrite(o->p, 1, o->len, o->f) != o->len) o->failed = 1;
    o->len = 0;
}

/* Room for n more bytes (n <= OUT_CAP). */
static inline uint8_t *out_room(out_buf *o, size_t n)
{
    if (OUT_CAP - o->len < n) out_flush(o);
    return o->p + o->len;
}

static void out_mem(out_buf *o, const char *s, size_t n)
{
    memcpy(out_room(o, n), s, n);
    o->len += n;
}
#define out_lit(o, lit) out_mem((o), "" lit, sizeof(lit) - 1)

static void out_str(out_buf *o, const char *s)
{
    out_mem(o, s, strlen(s));
}

/* Decimal digits of v at d, two at a time from a table, back to front
 * (the length found first by comparisons: through a stack temporary the
 * 2-byte stores stalled the wider load that copied them out); returns the
 * end. Four numbers per token made the library's digit-at-a-time
 * mote_num_format_u64 (small code for microcontrollers) 30% of the CLI's
 * time on COPY data, one short token per row. d needs 20 bytes. */
static uint8_t *put_u64(uint8_t *d, uint64_t v)
{
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    size_t n = 1;
    for (uint64_t p = 10; n < 20 && v >= p; p *= 10) n++;
    uint8_t *e = d + n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        e -= 2;
        memcpy(e, pairs + 2 * r, 2);
    }
    if (v >= 10) {
        memcpy(e - 2, pairs + 2 * v, 2);
    } else {
        e[-1] = (uint8_t)('0' + v);
    }
    return d + n;
}

static void out_u64(out_buf *o, uint64_t v)
{
    uint8_t *d = out_room(o, 20);
    o->len = (size_t)(put_u64(d, v) - o->p);
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Eight bytes as a little-endian word on any host: byte i in bits 8i..8i+7,
 * so the lowest set bit of a mask names the first byte, and the borrow in
 * needs_escape() runs toward later bytes only. */
static inline uint64_t load64(const uint8_t *p)
{
    uint64_t w;
#if MOTE_BE_HOST_LITTLE || MOTE_BE_HOST_BIG
    memcpy(&w, p, 8);
#if MOTE_BE_HOST_BIG
    w = mote_bswap64(w);
#endif
#else
    w = 0;
    for (int i = 7; i >= 0; i--) w = w << 8 | p[i];
#endif
    return w;
}

/* Bit 7 of each byte of w that is < 0x20, '"' or '\\'. The lowest set bit
 * is exact (a subtraction's borrow only reaches bytes above a true hit),
 * which is all the callers use. */
static inline uint64_t needs_escape(uint64_t w)
{
    uint64_t q = w ^ (ONES * '"'), b = w ^ (ONES * '\\');
    return ((w - ONES * 0x20) & ~w & HIGHS) | ((q - ONES) & ~q & HIGHS) |
           ((b - ONES) & ~b & HIGHS);
}

/* Length of the run of bytes >= 0x80 at p[0..avail) (at least 1 when
 * p[0] is one). Valid UTF-8 is ASCII bytes and whole multibyte sequences,
 * whose bytes are all >= 0x80, so text is valid iff each such run is. */
static inline size_t high_run(const uint8_t *p, size_t avail)
{
    size_t i = 0;
    while (avail - i >= 8) {
        uint64_t lo = ~load64(p + i) & HIGHS;
        if (lo) return i + (size_t)__builtin_ctzll(lo) / 8;
        i += 8;
    }
    while (i < avail && p[i] >= 0x80) i++;
    return i;
}

/* Valid UTF-8 (RFC 3629; the library's validator decides each run of
 * non-ASCII bytes), ASCII words skipped eight bytes at a time. */
static bool utf8_ok(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (n - i >= 8) {
            uint64_t h = load64(p + i) & HIGHS;
            if (!h) {
                i += 8;
                continue;
            }
            i += (size_t)__builtin_ctzll(h) / 8;
        } else if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t len = high_run(p + i, n - i);
        if (!mote_utf8_valid(p + i, len)) return false;
        i += len;
    }
    return true;
}

enum { SLACK = 16 }; /* an 8-byte word store and a 4-byte sequence past a segment */

/* p[0..n) as the inside of a JSON string: only '"', '\\' and bytes below
 * 0x20 are escaped (the short forms where JSON has them). With check set,
 * stops and returns false at the first byte that is not UTF-8 (the caller
 * then drops what was written); otherwise the bytes must be UTF-8. */
static bool out_json_text(out_buf *o, const uint8_t *p, size_t n, bool check)
{
    static const char hex[] = "0123456789abcdef";
    static const uint8_t short_esc[32] = {['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n',
                                          ['\f'] = 'f', ['\r'] = 'r'};
    const uint8_t *s = p, *pend = p + n;
    while (s < pend) {
        /* a segment whose worst case (6 output bytes per input byte) fits */
        size_t left = (size_t)(pend - s), seg = (OUT_CAP - o->len) / 6;
        seg = seg > SLACK ? seg - SLACK : 0;
        if (seg < left && seg < 64) { /* (never when the caller made room for all) */
            out_flush(o);
            seg = OUT_CAP / 6 - SLACK;
        }
        if (seg > left) seg = left;
        uint8_t *d = o->p + o->len;
        const uint8_t *end = s + seg;
        while (s < end) {
            if (pend - s >= 8) {
                uint64_t w = load64(s), m = needs_escape(w) | (check ? w & HIGHS : 0);
                memcpy(d, s, 8); /* the clean bytes before the first hit */
                if (!m) {
                    d += 8;
                    s += 8;
                    continue;
                }
                size_t i = (size_t)__builtin_ctzll(m) / 8;
                d += i;
                s += i;
                if (s >= end) break;
            }
            uint8_t c = *s;
            if (c >= 0x80) {
                /* the run, cut before a lead byte where it leaves the
                 * segment (past it by 3 bytes at most: within the slack) */
                size_t len = high_run(s, (size_t)(pend - s)), cap = (size_t)(end - s) + 3;
                if (len > cap) {
                    len = cap;
                    while (len && (s[len] & 0xc0) == 0x80) len--;
                    if (!len) len = 1; /* not UTF-8 anyway */
                }
                if (check && !mote_utf8_valid(s, len)) return false;
                memcpy(d, s, len);
                d += len;
                s += len;
                continue;
            }
            s++;
            if (c >= 0x20 && c != '"' && c != '\\') {
                *d++ = c;
                continue;
            }
            /* a table, not a switch: the jump table's indirect branch
             * mispredicted on every tab of COPY data */
            uint8_t e2 = c < 0x20 ? short_esc[c] : c;
            d[0] = '\\';
            if (e2) {
                d[1] = e2;
                d += 2;
            } else {
                memcpy(d + 1, "u00", 3);
                d[4] = (uint8_t)hex[c >> 4];
                d[5] = (uint8_t)hex[c & 15];
                d += 6;
            }
        }
        o->len = (size_t)(d - o->p);
    }
    return true;
}

/* p[0..n) as standard base64 with padding (RFC 4648). */
static void out_base64(out_buf *o, const uint8_t *p, size_t n)
{
    static const char b64[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    while (n) {
        size_t seg = (OUT_CAP - o->len) / 4 * 3;
        if (seg < 48) {
            out_flush(o);
            seg = OUT_CAP / 4 * 3;
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
static void out_token_text(out_buf *o, const uint8_t *p, size_t n)
{
    static const char text_key[] = ",\"text\":\"";
    size_t need = n < OUT_CAP / 6 ? (n + SLACK) * 6 + sizeof text_key : OUT_CAP + 1;
    if (need <= OUT_CAP) {
        out_room(o, need);
        size_t mark = o->len;
        out_mem(o, text_key, sizeof text_key - 1);
        if (out_json_text(o, p, n, true)) return;
        o->len = mark;
    } else if (utf8_ok(p, n)) {
        out_mem(o, text_key, sizeof text_key - 1);
        out_json_text(o, p, n, false);
        return;
    }
    out_lit(o, ",\"base64\":\"");
    out_base64(o, p, n);
}

/* What follows the numbers, per kind and terminated flag: one copy. */
#define KIND_TAIL(k) \
    {{",\"kind\":\"" k "\",\"terminated\":false", sizeof(",\"kind\":\"" k "\",\"terminated\":false") - 1}, \
     {",\"kind\":\"" k "\",\"terminated\":true", sizeof(",\"kind\":\"" k "\",\"terminated\":true") - 1}}
static const struct kind_tail { const char *s; size_t n; } kind_tails[][2] = {
    [MOTE_SCAN_STATEMENT] = KIND_TAIL("statement"), [MOTE_SCAN_COMMAND] = KIND_TAIL("command"),
    [MOTE_SCAN_COPY_DATA] = KIND_TAIL("copy_data"), [MOTE_SCAN_COPY_END] = KIND_TAIL("copy_end"),
    [MOTE_SCAN_COMMENT] = KIND_TAIL("comment"),
};
static const struct kind_tail unknown_tail[2] = KIND_TAIL("unknown");

#define PUT_LIT(d, lit) (memcpy((d), lit, sizeof(lit) - 1), (d) + sizeof(lit) - 1)

static int print_result(out_buf *o, mote_err e, const mote_scan_token *tok)
{
    if (e == MOTE_OK) {
        /* the frame before the text in one go: at most 4 numbers of 20
         * digits, 40 bytes of keys and a 50-byte kind tail */
        uint8_t *d = out_room(o, 200);
        d = PUT_LIT(d, "{\"line\":");
        d = put_u64(d, tok->pos.line);
        d = PUT_LIT(d, ",\"column\":");
        d = put_u64(d, tok->pos.column);
        d = PUT_LIT(d, ",\"offset\":");
        d = put_u64(d, tok->pos.offset);
        d = PUT_LIT(d, ",\"length\":");
        d = put_u64(d, tok->text.len);
        const struct kind_tail *kt = (unsigned)tok->kind < sizeof kind_tails / sizeof kind_tails[0]
                                         ? kind_tails[tok->kind] : unknown_tail;
        kt += (tok->flags & MOTE_SCAN_TOK_DELIM) != 0;
        memcpy(d, kt->s, kt->n);
        d += kt->n;
        if (tok->flags & MOTE_SCAN_TOK_CR) d = PUT_LIT(d, ",\"cr\":true");
        o->len = (size_t)(d - o->p);
        out_token_text(o, tok->text.ptr, tok->text.len);
        out_lit(o, "\"}\n");
        return 0;
    }
    out_lit(o, "{\"error\":\"");
    out_str(o, mote_err_name((int)e));
    out_lit(o, "\",\"message\":\"");
    out_json_text(o, (const uint8_t *)tok->message, strlen(tok->message), false);
    out_lit(o, "\",\"line\":");
    out_u64(o, tok->pos.line);
    out_lit(o, ",\"offset\":");
    out_u64(o, tok->pos.offset);
    out_lit(o, "}\n");
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
    unsigned flags = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(sql_usage, stdout);
            return TOOL_OK;
        }
        static const struct { const char *name; unsigned flag; } flag_opts[] = {
            {"--keep-comments", MOTE_SCAN_KEEP_COMMENTS},
            {"--no-backslash-escapes", MOTE_SCAN_NO_BACKSLASH_ESCAPES},
            {"--nonstandard-strings", MOTE_SCAN_PG_NONSTANDARD_STRINGS},
        };
        size_t f = 0;
        while (f < sizeof flag_opts / sizeof flag_opts[0] && strcmp(a, flag_opts[f].name) != 0) f++;
        if (f < sizeof flag_opts / sizeof flag_opts[0]) {
            flags |= flag_opts[f].flag;
            continue;
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
    if (mote_scan_config_init(&cfg, dialect) != MOTE_OK)
        return tool_usage_error("sql split: bad dialect");
    if (delim) {
        cfg.delim = (const uint8_t *)delim;
        cfg.delim_len = strlen(delim);
    }
    cfg.max_token = max_stmt;
    cfg.flags |= flags;

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
    out_buf out = {malloc(OUT_CAP), 0, stdout, 0};
    if (!buf || !out.p) {
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
    out_flush(&out);
    if (out.failed) status = tool_out_ok(stdout, "stdout"); /* says why; TOOL_IO */
    free(out.p);
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
