/* mote.c - the mote command-line tool: dispatches to subcommands. */
#include "tool.h"

#include <string.h>

#include "mote/common.h"

static const char usage[] =
    "usage: mote <command> [options]\n"
    "\n"
    "commands:\n"
#ifdef MOTE_TOOL_SQL
    "  sql split   split a SQL script or record stream into statements (JSON lines)\n"
#endif
#ifdef MOTE_TOOL_LP
    "  lp dump     decode line protocol, one JSON object per point\n"
    "  lp check    summarise a line-protocol file: lines, points, errors, series\n"
#endif
#ifdef MOTE_TOOL_CQL
    "  cql encode  encode a CQL literal of a type as hex\n"
    "  cql decode  decode hex of a CQL type into a literal\n"
#endif
    "\n"
    "'mote <command> --help' describes a command's options.\n"
    "--version prints the library version.\n"
    "Sizes take a binary suffix: 64K, 16M, 1G (1K = 1024 bytes).\n"
    "\n"
    "exit status (every command):\n"
    "  0  ok\n"
    "  1  bad records: each one reported, the rest of the input processed\n"
    "  2  usage error, or an I/O error (unreadable input, failed write): one\n"
    "     line 'mote: WHAT: REASON' on stderr; output may be partial\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return TOOL_USAGE;
    }
    /* Every command's stdout is closed checked here, once: a write that
     * failed anywhere (full disk, closed descriptor, broken pipe with
     * SIGPIPE ignored) turns the status into 2 with errno's reason. */
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, stdout);
        return tool_finish(TOOL_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("mote " MOTE_VERSION_STRING);
        return tool_finish(TOOL_OK);
    }
#ifdef MOTE_TOOL_SQL
    if (strcmp(argv[1], "sql") == 0) return tool_finish(tool_cmd_sql(argc - 1, argv + 1));
#endif
#ifdef MOTE_TOOL_LP
    if (strcmp(argv[1], "lp") == 0) return tool_finish(tool_cmd_lp(argc - 1, argv + 1));
#endif
#ifdef MOTE_TOOL_CQL
    if (strcmp(argv[1], "cql") == 0) return tool_finish(tool_cmd_cql(argc - 1, argv + 1));
#endif
    return tool_usage_error("unknown command '%s' (try 'mote --help')", argv[1]);
}
