/* tool.c - helpers shared by the mote command-line tool's subcommands. */
#include "tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void tool_json_bytes(FILE *out, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
        } else if (c < 0x20 || c > 0x7e) {
            fputs("\\u00", out);
            putc(hex[c >> 4], out);
            putc(hex[c & 15], out);
        } else {
            putc(c, out);
        }
    }
}

void tool_json_string(FILE *out, const uint8_t *p, size_t n)
{
    putc('"', out);
    tool_json_bytes(out, p, n);
    putc('"', out);
}

int tool_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mote: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return TOOL_USAGE;
}

int tool_parse_size(const char *s, size_t *out)
{
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v == 0 || v > SIZE_MAX) return -1;
    *out = (size_t)v;
    return 0;
}

int tool_parse_i64(const char *s, int64_t *out)
{
    if (!s || !*s) return -1;
    errno = 0;
    char *end = NULL;
    long long v = strtoll(s, &end, 10);
    if (errno || *end) return -1;
    *out = (int64_t)v;
    return 0;
}

FILE *tool_open_input(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) fprintf(stderr, "mote: %s: %s\n", path, strerror(errno));
    return f;
}
