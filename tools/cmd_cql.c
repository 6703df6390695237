/*
 * cmd_cql.c - 'mote cql encode TYPE LITERAL' and 'mote cql decode TYPE HEX'.
 *
 * encode parses a cqlsh literal of the type (mote/cql_literal.h), checks the
 * bytes with mote_cql_validate and prints them as lowercase hex, without the
 * [bytes] length prefix of the cell. decode validates the bytes and prints
 * them back as a literal that encode accepts. LITERAL or HEX '-' reads it
 * from standard input (no limit on its size; a command-line argument is
 * capped at 128 KiB on Linux).
 */
#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mote/cql.h"
#include "mote/cql_literal.h"

#define MAX_NODES 256

static const char cql_usage[] =
    "usage: mote cql encode TYPE LITERAL|-   print the value's bytes as hex\n"
    "       mote cql decode TYPE HEX|-       print the value as a CQL literal\n"
    "TYPE is CQL type text (\"vector<float, 3>\") or a Cassandra marshal class name\n"
    "(org.apache.cassandra.db.marshal.*). '-' reads the literal or the hex from\n"
    "standard input (hex may then hold spaces and newlines). Hex has no [bytes]\n"
    "length prefix. A bad type, literal or hex is one line on stderr (with the\n"
    "offset where it went wrong) and exit status 2. A set element or map key\n"
    "given twice (top level) is valid, but the server keeps only one: the value\n"
    "is printed, a line on stderr names the element, exit status 1.\n"
    TOOL_EXIT_TABLE;

/* All of standard input, NUL-terminated (for messages); NULL after printing
 * the reason. */
static char *read_stdin(size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (!b) {
            fputs("mote: out of memory\n", stderr);
            return NULL;
        }
        bool failed = false;
        size_t got = tool_read(stdin, "-", b + n, cap - n - 1, &failed);
        if (failed) {
            free(b);
            return NULL;
        }
        if (got == 0) break;
        n += got;
        if (cap - n < 2) {
            char *nb = cap <= SIZE_MAX / 2 ? realloc(b, cap * 2) : NULL;
            if (!nb) free(b);
            b = nb;
            cap *= 2;
        }
    }
    b[n] = '\0';
    *len = n;
    return b;
}

static int parse_type_arg(const char *text, mote_cql_type *nodes, const mote_cql_type **t)
{
    mote_err e = mote_cql_type_parse(text, strlen(text), nodes, MAX_NODES, NULL, t);
    if (e) return tool_usage_error("cql: bad type '%s': %s (%s)", text, mote_err_message(e), mote_err_name(e));
    return TOOL_OK;
}

static int put_hex(const uint8_t *p, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        putchar(hx[p[i] >> 4]);
        putchar(hx[p[i] & 15]);
    }
    putchar('\n');
    return tool_out_ok(stdout, "stdout");
}

/* A set element or map key given twice is valid on the wire, and the server
 * keeps only one (cql.h): print the value, and say so as a bad record. */
static int check_duplicates(const char *cmd, const mote_cql_type *t, const uint8_t *p, size_t n, int rc)
{
    size_t at = 0;
    if (rc != TOOL_OK || mote_cql_find_duplicate(t, p, n, &at) != MOTE_ERR_DUPLICATE) return rc;
    fprintf(stderr, "mote: cql %s: %s at element %zu: the server keeps only one\n", cmd,
            mote_err_name(MOTE_ERR_DUPLICATE), at);
    return TOOL_DATA_ERROR;
}

static int cmd_encode(const mote_cql_type *t, const char *lit, size_t len, mote_arena *scratch)
{
    mote_cql_literal_error err = {0, NULL};
    size_t need = 0, got = 0;
    mote_err e = mote_cql_literal_parse(t, lit, len, NULL, 0, &need, scratch, &err);
    uint8_t *out = NULL;
    if (e == MOTE_ERR_SPACE || e == MOTE_OK) {
        out = malloc(need ? need : 1);
        if (!out) {
            fputs("mote: out of memory\n", stderr);
            return TOOL_IO;
        }
        e = mote_cql_literal_parse(t, lit, len, out, need, &got, scratch, &err);
    }
    if (e) {
        free(out);
        return tool_usage_error("cql encode: %s (%s) at offset %zu", err.message, mote_err_name(e),
                                err.offset);
    }
    /* the parser drives cql.c's writer; validation is the server's check,
     * kept as a second opinion on what is printed */
    e = mote_cql_validate(t, out, got);
    int rc = e ? tool_usage_error("cql encode: the bytes written do not validate: %s (%s)",
                                  mote_err_message(e), mote_err_name(e))
               : put_hex(out, got);
    rc = check_duplicates("encode", t, out, got, rc);
    free(out);
    return rc;
}

/* Hex on stdin may hold these between and around its digits. */
static bool hex_blank(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static int cmd_decode(const mote_cql_type *t, const char *hex, size_t hl, bool from_stdin,
                      mote_arena *scratch)
{
    /* offsets in messages count from the argument's (or input's) first byte */
    size_t skip = 0;
    while (from_stdin && skip < hl && hex_blank(hex[skip])) skip++;
    if (hl - skip >= 2 && hex[skip] == '0' && (hex[skip + 1] == 'x' || hex[skip + 1] == 'X')) skip += 2;
    hex += skip;
    hl -= skip;
    uint8_t *in = malloc(hl / 2 + 1);
    if (!in) {
        fputs("mote: out of memory\n", stderr);
        return TOOL_IO;
    }
    size_t n = 0;
    int hi = -1;
    for (size_t i = 0; i < hl; i++) {
        char c = hex[i];
        if (from_stdin && hex_blank(c)) continue;
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (v < 0) {
            free(in);
            return tool_usage_error("cql decode: bad hex digit at offset %zu", skip + i);
        }
        if (hi < 0) {
            hi = v;
        } else {
            in[n++] = (uint8_t)(hi * 16 + v);
            hi = -1;
        }
    }
    if (hi >= 0) {
        free(in);
        return tool_usage_error("cql decode: odd number of hex digits");
    }
    size_t cap = 4 * n + 64, len = 0;
    char *out = malloc(cap);
    mote_err e = out ? mote_cql_literal_format(t, in, n, out, cap, &len, scratch) : MOTE_ERR_NOMEM;
    if (e == MOTE_ERR_SPACE) {
        free(out);
        cap = len;
        out = malloc(cap);
        e = out ? mote_cql_literal_format(t, in, n, out, cap, &len, scratch) : MOTE_ERR_NOMEM;
    }
    int rc;
    if (e == MOTE_ERR_NOMEM) {
        fputs("mote: out of memory\n", stderr);
        rc = TOOL_IO;
    } else if (e) {
        rc = tool_usage_error("cql decode: %s (%s)", mote_err_message(e), mote_err_name(e));
    } else {
        fwrite(out, 1, len, stdout);
        putchar('\n');
        rc = check_duplicates("decode", t, in, n, tool_out_ok(stdout, "stdout"));
    }
    free(in);
    free(out);
    return rc;
}

int tool_cmd_cql(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) { /* 'mote cql encode --help' too */
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(cql_usage, stdout);
            return TOOL_OK;
        }
    }
    if (argc != 4) {
        fputs(cql_usage, stderr);
        return TOOL_USAGE;
    }
    bool encode = strcmp(argv[1], "encode") == 0;
    if (!encode && strcmp(argv[1], "decode") != 0)
        return tool_usage_error("cql: unknown subcommand '%s' (encode or decode)", argv[1]);
    static mote_cql_type nodes[MAX_NODES];
    const mote_cql_type *t;
    int rc = parse_type_arg(argv[2], nodes, &t);
    if (rc) return rc;
    bool from_stdin = strcmp(argv[3], "-") == 0;
    char *text = argv[3];
    size_t len = strlen(text);
    if (from_stdin && !(text = read_stdin(&len))) return TOOL_IO;
    /* the literal codec's temporaries (strings holding '', blobs, varints)
     * come from a heap-backed arena */
    mote_arena scratch;
    if (mote_arena_init(&scratch, NULL, 0, mote_heap_alloc, NULL) != MOTE_OK) {
        fputs("mote: out of memory\n", stderr);
        rc = TOOL_IO;
    } else {
        rc = encode ? cmd_encode(t, text, len, &scratch)
                    : cmd_decode(t, text, len, from_stdin, &scratch);
        mote_arena_destroy(&scratch);
    }
    if (from_stdin) free(text);
    return rc;
}
