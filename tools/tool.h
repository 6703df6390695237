/* tool.h - helpers shared by the mote command-line tool's subcommands. */
#ifndef MOTE_TOOL_H
#define MOTE_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses shared by all subcommands, one meaning each:
 *   0  success
 *   1  bad records: each one reported, the rest of the input processed
 *   2  usage error or I/O error (a one-line message with errno's reason)
 * A failed write is an I/O error: partial output never exits 0. */
enum { TOOL_OK = 0, TOOL_DATA_ERROR = 1, TOOL_USAGE = 2, TOOL_IO = 2 };

/* The table above, for 'mote --help' and every command's --help. */
#define TOOL_EXIT_TABLE                                                          \
    "Exit status: 0 ok; 1 bad records (each reported, the rest processed);\n"    \
    "2 usage or I/O error (one line 'mote: WHAT: REASON' on stderr).\n"

/* Write bytes as the inside of a JSON string, byte-exact: '"' and '\' as \" and
 * \\, every byte below 0x20 or above 0x7e as \u00XX of that byte. */
void tool_json_bytes(FILE *out, const uint8_t *p, size_t n);
/* Same, with the surrounding quotes. */
void tool_json_string(FILE *out, const uint8_t *p, size_t n);

/* Print "mote: <msg>" to stderr and return TOOL_USAGE. */
int tool_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Print "mote: <what>: <strerror(err)>" (err 0: EIO's text) and return
 * TOOL_IO. */
int tool_io_error(const char *what, int err);

/* Parse a size argument: decimal digits, optionally followed by one binary
 * suffix K, M or G (case-insensitive; 1K = 1024), e.g. "65536", "64K",
 * "1G". 0 is accepted (callers decide what it means). Returns 0 on success,
 * -1 if not of that form or the value does not fit size_t. */
int tool_parse_size(const char *s, size_t *out);
/* Parse a signed decimal int64 argument; 0 on success, -1 otherwise. */
int tool_parse_i64(const char *s, int64_t *out);

/* Open FILE or "-" (stdin) for reading; NULL (and a one-line error naming
 * the file, with errno's reason) on failure. */
FILE *tool_open_input(const char *path);
/* The name to show for an input path in messages ("-" is "stdin"). */
const char *tool_input_name(const char *path);

/* Read up to n bytes; returns the count (0 at end of input or on error). On
 * a read error (a directory, a closed or unreadable descriptor) prints
 * "mote: <name>: <reason>" and sets *failed (stays false otherwise). */
size_t tool_read(FILE *in, const char *path, void *buf, size_t n, bool *failed);

/* Checked output. tool_out_ok: 0 if no write to f has failed so far, else
 * prints "mote: <what>: <reason>" and returns TOOL_IO; call it after each
 * record so a full disk or a closed pipe stops the work early.
 * tool_out_close: flush, check and close f (stdout too: the last chance to
 * see a deferred error); 0 or TOOL_IO as above. */
int tool_out_ok(FILE *f, const char *what);
int tool_out_close(FILE *f, const char *what);
/* Wraps a command's result: closes stdout checked; a failure there turns
 * any status into TOOL_IO. */
int tool_finish(int status);

/* Subcommands; each takes argv after the command word (argv[0] = command). */
int tool_cmd_sql(int argc, char **argv);
int tool_cmd_lp(int argc, char **argv);
int tool_cmd_cql(int argc, char **argv);

#endif
