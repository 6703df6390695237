/* tool.c - helpers shared by the mote command-line tool's subcommands. */
#include "tool.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mote/num.h"

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

int tool_io_error(const char *what, int err)
{
    fprintf(stderr, "mote: %s: %s\n", what, strerror(err ? err : EIO));
    return TOOL_IO;
}

int tool_parse_size(const char *s, size_t *out)
{
    /* num's parser: whole span, digits and a K/M/G suffix (no sign, no
     * spaces, no locale) */
    return s && mote_num_parse_size((const uint8_t *)s, strlen(s), out) == MOTE_OK ? 0 : -1;
}

int tool_parse_i64(const char *s, int64_t *out)
{
    if (!s) return -1;
    return mote_num_parse_i64((const uint8_t *)s, strlen(s), out) == MOTE_OK ? 0 : -1;
}

const char *tool_input_name(const char *path)
{
    return !path || strcmp(path, "-") == 0 ? "stdin" : path;
}

FILE *tool_open_input(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) tool_io_error(path, errno);
    return f;
}

size_t tool_read(FILE *in, const char *path, void *buf, size_t n, bool *failed)
{
    errno = 0;
    size_t got = fread(buf, 1, n, in);
    if (got == 0 && ferror(in)) {
        tool_io_error(tool_input_name(path), errno);
        *failed = true;
    }
    return got;
}

/* Set once a failed write to stdout was reported, so that tool_finish does
 * not print a second line for the same failure. */
static bool stdout_reported;

int tool_out_ok(FILE *f, const char *what)
{
    if (!ferror(f)) return 0;
    if (f == stdout) {
        if (stdout_reported) return TOOL_IO;
        stdout_reported = true;
    }
    return tool_io_error(what, errno);
}

int tool_out_close(FILE *f, const char *what)
{
    /* fflush reports the error of the last buffer (errno is the reason);
     * ferror one met earlier; fclose one the kernel defers to close(). */
    errno = 0;
    int e = 0;
    if (fflush(f) != 0 || ferror(f)) e = errno ? errno : EIO;
    if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
    return e ? tool_io_error(what, e) : 0;
}

int tool_finish(int status)
{
    if (stdout_reported) {
        fclose(stdout); /* already reported: one line per failure */
        return TOOL_IO;
    }
    int rc = tool_out_close(stdout, "stdout");
    return rc ? rc : status;
}
