#!/bin/sh
# tool_sql.sh - tests of 'mote sql split'. Usage: sh tests/tool_sql.sh /path/to/mote
set -u
MOTE=${1:?usage: tool_sql.sh MOTE}
. "$(dirname "$0")/check.sh"
scratch tool_sql

# Statements, positions, kind, terminated, JSON text (quote, backslash, tab,
# UTF-8 kept as UTF-8).
printf 'select 1;\n  select "a\\\\b" ;\ninsert \t\303\251;' > "$TMP/a.sql"
want='{"line":1,"column":1,"offset":0,"length":8,"kind":"statement","terminated":true,"text":"select 1"}
{"line":2,"column":3,"offset":12,"length":14,"kind":"statement","terminated":true,"text":"select \"a\\\\b\" "}
{"line":3,"column":1,"offset":28,"length":10,"kind":"statement","terminated":true,"text":"insert \té"}'
got=$("$MOTE" sql split --dialect mysql "$TMP/a.sql"); st=$?
want "mysql statements" "$want" "$got"
want "exit 0" 0 "$st"

# Same output for any --chunk, from stdin too.
for c in 1 2 3 7 4096; do
    got=$("$MOTE" sql split --dialect mysql --chunk $c - < "$TMP/a.sql")
    want "chunk $c" "$want" "$got"
done

# DELIMITER command, straddling 1-byte chunks.
printf 'DELIMITER //\nselect 1; select 2//\ndelimiter ;\nselect 3;\n' > "$TMP/d.sql"
# (the library hands the commands out as tokens of their own kind)
want='{"line":1,"column":1,"offset":0,"length":12,"kind":"command","terminated":true,"text":"DELIMITER //"}
{"line":2,"column":1,"offset":13,"length":18,"kind":"statement","terminated":true,"text":"select 1; select 2"}
{"line":3,"column":1,"offset":34,"length":11,"kind":"command","terminated":true,"text":"delimiter ;"}
{"line":4,"column":1,"offset":46,"length":8,"kind":"statement","terminated":true,"text":"select 3"}'
got=$("$MOTE" sql split --dialect mysql --chunk 1 "$TMP/d.sql")
want "delimiter command" "$want" "$got"

# Errors: TOO_LONG then recovery, unterminated quote; exit 1.
printf "ok;\nselect 'long;string';\nnext;\n'open" > "$TMP/e.sql"
want='{"line":1,"column":1,"offset":0,"length":2,"kind":"statement","terminated":true,"text":"ok"}
{"error":"TOO_LONG","message":"token longer than the maximum","line":2,"offset":4}
{"line":3,"column":1,"offset":26,"length":4,"kind":"statement","terminated":true,"text":"next"}
{"error":"UNTERMINATED_QUOTE","message":"end of input inside a quoted string","line":4,"offset":32}'
got=$("$MOTE" sql split --dialect mysql --max-statement 10 --chunk 5 "$TMP/e.sql"); st=$?
# codes and positions, not the English descriptions (the small build
# prints the code's name instead)
nomsg() { sed 's/"message":"[^"]*"/"message":""/'; }
want "errors" "$(echo "$want" | nomsg)" "$(echo "$got" | nomsg)"
want "exit 1" 1 "$st"

# Other dialects and delimiters.
got=$(printf 'a|b||c' | "$MOTE" sql split --delimiter '|')
want='{"line":1,"column":1,"offset":0,"length":1,"kind":"statement","terminated":true,"text":"a"}
{"line":1,"column":3,"offset":2,"length":1,"kind":"statement","terminated":true,"text":"b"}
{"line":1,"column":6,"offset":5,"length":1,"kind":"statement","terminated":false,"text":"c"}'
want "generic delimiter" "$want" "$got"
# The default dialect on a script that ends in ";\n": two statements, both
# terminated, not a third one of the last "\n" (a cut statement to a user).
got=$(printf 'select 1;\nselect 2;\n' | "$MOTE" sql split)
want='{"line":1,"column":1,"offset":0,"length":8,"kind":"statement","terminated":true,"text":"select 1"}
{"line":1,"column":10,"offset":9,"length":9,"kind":"statement","terminated":true,"text":"\nselect 2"}'
want "generic, blank rest" "$want" "$got"
got=$(printf 'm v="x\ny"\r\nn v=1\n' | "$MOTE" sql split --dialect lines --chunk 2)
want='{"line":1,"column":1,"offset":0,"length":9,"kind":"statement","terminated":true,"cr":true,"text":"m v=\"x\ny\""}
{"line":3,"column":1,"offset":11,"length":5,"kind":"statement","terminated":true,"text":"n v=1"}'
want "lines" "$want" "$got"
got=$(printf 'create trigger t after insert on a begin select 1; end; x;' | "$MOTE" sql split --dialect sqlite)
want='{"line":1,"column":1,"offset":0,"length":54,"kind":"statement","terminated":true,"text":"create trigger t after insert on a begin select 1; end"}
{"line":1,"column":57,"offset":56,"length":1,"kind":"statement","terminated":true,"text":"x"}'
want "sqlite trigger" "$want" "$got"
got=$(printf 'select $$;$$;' | "$MOTE" sql split --dialect postgres)
want "postgres" '{"line":1,"column":1,"offset":0,"length":12,"kind":"statement","terminated":true,"text":"select $$;$$"}' "$got"

# Usage errors: one line on stderr, exit 2.
"$MOTE" sql split --bogus > "$TMP/out" 2> "$TMP/err"; st=$?
want "unknown option exit" 2 "$st"
want "unknown option one line" 1 "$(wc -l < "$TMP/err" | tr -d ' ')"
"$MOTE" sql split --dialect oracle < /dev/null 2> /dev/null; want "bad dialect" 2 $?
"$MOTE" sql split --dialect sqlite --delimiter // < /dev/null 2> /dev/null; want "bad delimiter" 2 $?
"$MOTE" sql split --chunk 0 < /dev/null 2> /dev/null; want "bad chunk" 2 $?
"$MOTE" sql split --help > "$TMP/help"; want "help exit" 0 $?
grep -q -- '--max-statement' "$TMP/help"; want "help text" 0 $?
"$MOTE" sql split "$TMP/missing.sql" 2> /dev/null; want "missing file: usage error" 2 $?
"$MOTE" sql 2> /dev/null; want "no subcommand" 2 $?
"$MOTE" sql frob 2> "$TMP/err"; want "unknown subcommand" 2 $?
want "unknown subcommand one line" 1 "$(wc -l < "$TMP/err" | tr -d ' ')"
# a dialect's own flag with another dialect: refused, not ignored
"$MOTE" sql split --no-backslash-escapes < /dev/null 2> /dev/null; want "mysql flag, generic" 2 $?
"$MOTE" sql split --dialect mysql --nonstandard-strings < /dev/null 2> /dev/null; want "postgres flag, mysql" 2 $?
"$MOTE" sql split --dialect postgres --ansi-quotes < /dev/null 2> /dev/null; want "mysql flag, postgres" 2 $?
"$MOTE" sql split --charset sjis < /dev/null 2> /dev/null; want "charset, generic" 2 $?
"$MOTE" sql split --dialect mysql --charset ebcdic < /dev/null 2> /dev/null; want "unknown charset" 2 $?
# --charset sjis: the second byte of 0x95 0x5c is no escape (mysql; postgres with nonstandard strings)
printf "SELECT '\225\\\\';\nSELECT 2;" > "$TMP/sjis.sql"
want "sjis: two statements" 2 "$("$MOTE" sql split --dialect mysql --charset SJIS "$TMP/sjis.sql" | grep -c '"terminated":true')"
want "sjis: one statement" 0 "$("$MOTE" sql split --dialect postgres --nonstandard-strings --charset cp932 "$TMP/sjis.sql" | grep -c 'error')"
"$MOTE" sql split --dialect mysql "$TMP/sjis.sql" > /dev/null; want "sjis read as ascii: an error" 1 $?
# --ansi-quotes: "..." is an identifier, a backslash in it no escape
printf 'SELECT "a\\";\nSELECT 2;' > "$TMP/ansi.sql"
want "ansi quotes: two statements" 2 "$("$MOTE" sql split --dialect mysql --ansi-quotes "$TMP/ansi.sql" | grep -c '"terminated":true')"
# "--" ends the options: a file named like one
printf 'a;' > "$TMP/-x.sql"
got=$(cd "$TMP" && "$MOTE" sql split -- -x.sql)
want "-- then a file" '{"line":1,"column":1,"offset":0,"length":1,"kind":"statement","terminated":true,"text":"a"}' "$got"

summary
