/* tool.h - helpers shared by the mote command-line tool's subcommands. */
#ifndef MOTE_TOOL_H
#define MOTE_TOOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses shared by all subcommands. */
enum { TOOL_OK = 0, TOOL_DATA_ERROR = 1, TOOL_USAGE = 2 };

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

/* Parse a decimal size/count argument ("65536"); 0 on success, -1 if not a
 * positive integer that fits size_t. */
int tool_parse_size(const char *s, size_t *out);
/* Parse a signed decimal int64 argument; 0 on success, -1 otherwise. */
int tool_parse_i64(const char *s, int64_t *out);

/* Open FILE or "-" (stdin) for reading; NULL (and a one-line error naming
 * the file) on failure. */
FILE *tool_open_input(const char *path);

/* Subcommands; each takes argv after the command word (argv[0] = command). */
int tool_cmd_sql(int argc, char **argv);
int tool_cmd_lp(int argc, char **argv);
int tool_cmd_cql(int argc, char **argv);

#endif
