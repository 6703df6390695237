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
    "--version prints the library version.\n";

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? TOOL_USAGE : TOOL_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        puts("mote " MOTE_VERSION_STRING);
        return TOOL_OK;
    }
#ifdef MOTE_TOOL_SQL
    if (strcmp(argv[1], "sql") == 0) return tool_cmd_sql(argc - 1, argv + 1);
#endif
#ifdef MOTE_TOOL_LP
    if (strcmp(argv[1], "lp") == 0) return tool_cmd_lp(argc - 1, argv + 1);
#endif
#ifdef MOTE_TOOL_CQL
    if (strcmp(argv[1], "cql") == 0) return tool_cmd_cql(argc - 1, argv + 1);
#endif
    return tool_usage_error("unknown command '%s' (try 'mote --help')", argv[1]);
}
