#!/bin/sh
# examples_io.sh - every example checks its writes and says why it failed:
# stdout on /dev/full or closed, lp_agent --out on /dev/full, a directory as
# input: exit 2 with one line on stderr; --help exits 0. And lp_agent --cql
# prints each row as an INSERT statement with cqlsh literals.
# usage: sh tests/examples_io.sh LP_AGENT SQL_SPLIT DEMO TOUR SAMPLE_LP
set -u
AGENT=$1 SQL=$2 DEMO=$3 TOUR=$4 SAMPLE=$5
. "$(dirname "$0")/check.sh"
scratch mote_examples_io
# err_line NAME PREFIX FILE: some line of FILE starts with PREFIX
err_line() { grep -q "^$2" "$3" && ok || bad "$1: no '$2...' line on stderr: $(cat "$3")"; }

printf 'select 1;\nselect 2;\n' > "$TMP/a.sql"

for mode in full closed; do
    for c in "$AGENT --hex $SAMPLE" "$AGENT --cql $SAMPLE" "$AGENT --out - $SAMPLE" "$AGENT --help" \
        "$SQL $TMP/a.sql" "$SQL --help" "$DEMO" "$TOUR"; do
        if [ $mode = full ]; then
            $c > /dev/full 2> "$TMP/err"
        else
            $c >&- 2> "$TMP/err"
        fi
        want "$mode stdout: $c: exit" 2 $?
        err_line "$mode stdout: $c" "[a-z_]*: stdout: " "$TMP/err"
    done
done
"$AGENT" --out /dev/full "$SAMPLE" 2> "$TMP/err"
want "lp_agent --out /dev/full: exit" 2 $?
err_line "lp_agent --out /dev/full" "lp_agent: /dev/full: " "$TMP/err"
for c in "$AGENT --hex" "$SQL"; do
    $c "$TMP" > "$TMP/out" 2> "$TMP/err"
    want "directory: $c: exit" 2 $?
    err_line "directory: $c" "[a-z_]*: $TMP: " "$TMP/err"
done
for c in "$AGENT --help" "$SQL --help" "$DEMO --help"; do
    $c > "$TMP/out"
    want "$c: exit" 0 $?
    [ -s "$TMP/out" ] && ok || bad "$c: no usage on stdout"
done
# one input file: a second is a usage error, not silently the one read
for c in "$AGENT --hex" "$SQL" "$DEMO"; do
    $c "$TMP/missing" "$TMP/a.sql" > "$TMP/out" 2> "$TMP/err"
    want "two files: $c: exit" 2 $?
done
"$AGENT" --arena 1M --chunk 64K --hex "$SAMPLE" > /dev/null 2>&1
want "lp_agent --arena 1M --chunk 64K: exit (one bad line in the sample)" 1 $?
"$SQL" --max 1K --chunk 1k "$TMP/a.sql" > /dev/null 2>&1
want "sql_split --max 1K --chunk 1k: exit" 0 $?

# --cql: the table, then one INSERT per good row, in order
"$AGENT" --cql "$SAMPLE" > "$TMP/out" 2> /dev/null
want "lp_agent --cql: exit (one bad line)" 1 $?
want "lp_agent --cql: INSERT lines" 5 "$(grep -c '^INSERT INTO metrics ' "$TMP/out")"
want "lp_agent --cql: CREATE TABLE first" "CREATE TABLE IF NOT EXISTS metrics (measurement text, tags frozen<map<text, text>>," "$(head -n 1 "$TMP/out")"
want "lp_agent --cql: first row" \
    "INSERT INTO metrics (measurement, tags, time, fields, text_fields) VALUES ('cpu', {'host': 'node1', 'region': 'eu-west'}, 1700000000000, {'usage_user': 12.5, 'usage_system': 3.25, 'usage_idle': 84.25}, {});" \
    "$(sed -n 4p "$TMP/out")"

summary
