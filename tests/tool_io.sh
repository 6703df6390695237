#!/bin/sh
# tool_io.sh - what every 'mote' command does with failing output and odd
# input, and the exit codes that say so (0 ok, 1 bad records, 2 usage or
# I/O error): a full disk (/dev/full), a closed stdout, a broken pipe with
# SIGPIPE ignored, a directory or a closed stdin as input, --help, sizes with
# K/M/G, values on stdin, and lp check's bounded series estimate.
# Messages are checked by form ('mote: WHAT: ...', one line), never by their
# English, so this runs on the small build (MOTE_SMALL) too.
# usage: sh tests/tool_io.sh PATH_TO_MOTE
set -u
MOTE=${1:?usage: tool_io.sh MOTE}
. "$(dirname "$0")/check.sh"
scratch mote_tool_io
# one_line NAME PREFIX FILE: FILE is exactly one line, starting with PREFIX
one_line() {
    n=$(wc -l < "$3" | tr -d ' ')
    case "$(cat "$3")" in
    "$2"*) [ "$n" = 1 ] && ok || bad "$1: $n lines on stderr: $(cat "$3")" ;;
    *) bad "$1: stderr '$(cat "$3")' does not start with '$2'" ;;
    esac
}

printf 'm,t=a f=1 1\nm,t=b f=2 2\n' > "$TMP/ok.lp"
printf 'select 1;\nselect 2;\n' > "$TMP/ok.sql"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "m,t=%d f=%d %d\n", i, i, i }' > "$TMP/big.lp"
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "select %d;\n", i }' > "$TMP/big.sql"

# Every command, as "ARGS|INPUT": each writes to stdout.
cmds="lp dump|$TMP/ok.lp
lp check|$TMP/ok.lp
sql split|$TMP/ok.sql
cql encode int 1|
cql decode int 00000001|
cql encode int -|$TMP/one.txt
--help|
--version|"
echo 1 > "$TMP/one.txt"

run_each() { # MODE: full | closed
    echo "$cmds" | while IFS='|' read -r args input; do
        # shellcheck disable=SC2086
        if [ -n "$input" ] && [ "${args##* }" != "-" ]; then set -- $args "$input"; else set -- $args; fi
        [ -n "$input" ] || input=/dev/null
        case $MODE in
        full) "$MOTE" "$@" < "$input" > /dev/full 2> "$TMP/err" ;;
        closed) "$MOTE" "$@" < "$input" >&- 2> "$TMP/err" ;;
        esac
        rc=$?
        echo "$rc $*" >> "$TMP/rcs.$MODE"
        cp "$TMP/err" "$TMP/err.$MODE.$(echo "$*" | tr -c 'a-z0-9' _)"
    done
}

# 1. A full disk: exit 2 and one line "mote: stdout: REASON" for every command.
for MODE in full closed; do
    rm -f "$TMP/rcs.$MODE"
    run_each
    while read -r rc rest; do
        want "$MODE stdout: mote $rest: exit" 2 "$rc"
        one_line "$MODE stdout: mote $rest" "mote: stdout: " "$TMP/err.$MODE.$(echo "$rest" | tr -c 'a-z0-9' _)"
    done < "$TMP/rcs.$MODE"
done

# 2. A broken pipe with SIGPIPE ignored: EPIPE is an I/O error, exit 2, and
#    the command stops (it does not read the whole input on).
for c in "lp dump $TMP/big.lp" "sql split $TMP/big.sql"; do
    # shellcheck disable=SC2086
    ( trap '' PIPE; "$MOTE" $c 2> "$TMP/err"; echo $? > "$TMP/rc" ) | head -c 10 > /dev/null
    want "EPIPE mote $c: exit" 2 "$(cat "$TMP/rc")"
    one_line "EPIPE mote $c" "mote: stdout: " "$TMP/err"
done

# 3. Unreadable input (a directory, a closed stdin): exit 2 with the reason,
#    not 1 ("bad record"), and nothing on stdout (no all-zero summary).
for c in "lp dump" "lp check" "sql split"; do
    # shellcheck disable=SC2086
    "$MOTE" $c "$TMP" > "$TMP/out" 2> "$TMP/err"
    want "directory: mote $c: exit" 2 $?
    want "directory: mote $c: stdout" "" "$(cat "$TMP/out")"
    one_line "directory: mote $c" "mote: $TMP: " "$TMP/err"
    # shellcheck disable=SC2086
    "$MOTE" $c - > "$TMP/out" 2> "$TMP/err" <&-
    want "closed stdin: mote $c: exit" 2 $?
    want "closed stdin: mote $c: stdout" "" "$(cat "$TMP/out")"
    one_line "closed stdin: mote $c" "mote: stdin: " "$TMP/err"
done
"$MOTE" cql encode int - > "$TMP/out" 2> "$TMP/err" <&-
want "closed stdin: cql encode: exit" 2 $?
one_line "closed stdin: cql encode" "mote: stdin: " "$TMP/err"
"$MOTE" cql decode int - > "$TMP/out" 2> "$TMP/err" < "$TMP"
want "directory stdin: cql decode: exit" 2 $?
one_line "directory stdin: cql decode" "mote: stdin: " "$TMP/err"

# 4. --help exits 0 and writes the usage to stdout, everywhere.
for c in "--help" "-h" "sql --help" "sql split --help" "lp --help" "lp dump --help" \
    "lp check --help" "cql --help" "cql encode --help" "cql decode --help" "cql encode int --help"; do
    # shellcheck disable=SC2086
    "$MOTE" $c > "$TMP/out" 2> "$TMP/err"
    want "mote $c: exit" 0 $?
    [ -s "$TMP/out" ] && [ ! -s "$TMP/err" ] && ok || bad "mote $c: usage not on stdout"
done
# the exit code table is in mote --help
"$MOTE" --help | grep -q '^  2 ' && ok || bad "mote --help: no exit status table"
# usage errors exit 2
for c in "" "bogus" "lp" "lp dump --frob" "sql split --chunk 0" "cql encode int" "cql frob int 1"; do
    # shellcheck disable=SC2086
    "$MOTE" $c > /dev/null 2>&1 < /dev/null
    want "usage error mote $c" 2 $?
done

# 5. Sizes take K, M, G (binary); a bad size is a usage error.
long=$(awk 'BEGIN { s = "select \x27"; for (i = 0; i < 1500; i++) s = s "x"; print s "\x27;" }')
printf '%s\nselect 2;\n' "$long" > "$TMP/long.sql"
"$MOTE" sql split --max-statement 1K "$TMP/long.sql" > "$TMP/out" 2>/dev/null
want "--max-statement 1K: exit" 1 $?
want "--max-statement 1K: TOO_LONG then the next statement" \
    '"TOO_LONG" 1' "$(sed -n 's/.*"error":\("[A-Z_]*"\).*/\1/p' "$TMP/out") $(grep -c '"text":"[^"]*select 2' "$TMP/out")"
"$MOTE" sql split --max-statement 2k --chunk 1K "$TMP/long.sql" > "$TMP/out"
want "--max-statement 2k --chunk 1K: exit" 0 $?
want "--max-statement 2k: both statements" 2 "$(grep -c '"text":"[^"]*select' "$TMP/out")"
"$MOTE" sql split --max-statement 0 --chunk 7 "$TMP/long.sql" > /dev/null
want "--max-statement 0 (no limit): exit" 0 $?
"$MOTE" sql split --max-statement 1M --chunk 1G "$TMP/ok.sql" > /dev/null
want "--max-statement 1M --chunk 1G: exit" 0 $?
"$MOTE" sql split --help | grep -q -- '--max-statement.*1G' && ok || bad "sql split --help: default 1G not shown"
awk 'BEGIN { s = "m f=\""; for (i = 0; i < 1500; i++) s = s "x"; print s "\"" }' > "$TMP/long.lp"
echo 'n f=1' >> "$TMP/long.lp"
"$MOTE" lp dump --max-line 1K "$TMP/long.lp" > "$TMP/out"
want "lp dump --max-line 1K: exit" 1 $?
want "lp dump --max-line 1K: TOO_LONG at line 1, then line 2" '"TOO_LONG" 1 1' \
    "$(sed -n 's/.*"error":\("[A-Z_]*"\).*"line":\([0-9]*\).*/\1 \2/p' "$TMP/out") $(grep -c '"name":"n"' "$TMP/out")"
"$MOTE" lp dump --max-line 2K --chunk 1k "$TMP/long.lp" > /dev/null
want "lp dump --max-line 2K: exit" 0 $?
for s in 1X 1KB K -1 1.5K 99999999999G ""; do
    "$MOTE" sql split --max-statement "$s" "$TMP/ok.sql" > /dev/null 2>&1
    want "--max-statement '$s': usage error" 2 $?
    "$MOTE" lp check --chunk "$s" "$TMP/ok.lp" > /dev/null 2>&1
    want "lp check --chunk '$s': usage error" 2 $?
done

# 6. Values on stdin: a vector literal far over the 128 KiB argument cap.
awk 'BEGIN { printf "["; for (i = 0; i < 40000; i++) printf "%s%d.5", (i ? ", " : ""), i % 1000; print "]" }' > "$TMP/vec.txt"
"$MOTE" cql encode 'vector<float, 40000>' - < "$TMP/vec.txt" > "$TMP/hex"
want "encode from stdin: exit" 0 $?
want "encode from stdin: hex digits" 320000 "$(tr -d '\n' < "$TMP/hex" | wc -c | tr -d ' ')"
fold -w 64 "$TMP/hex" | "$MOTE" cql decode 'vector<float, 40000>' - > "$TMP/lit"
want "decode from stdin (hex in lines): exit" 0 $?
"$MOTE" cql encode 'vector<float, 40000>' - < "$TMP/lit" > "$TMP/hex2"
cmp -s "$TMP/hex" "$TMP/hex2" && ok || bad "stdin round trip differs"
printf "['it''s',\n 'x']\n" | "$MOTE" cql encode 'list<text>' - > "$TMP/out"
want "encode list<text> from stdin" 0000000200000004697427730000000178 "$(cat "$TMP/out")"
# errors give the offset (a position, not English)
printf '[1, 2, zz]' | "$MOTE" cql encode 'list<int>' - 2> "$TMP/err" > /dev/null
want "bad literal on stdin: exit" 2 $?
grep -q 'BAD_VALUE.*offset 7' "$TMP/err" && ok || bad "bad literal: no code/offset: $(cat "$TMP/err")"

# 7. lp check: exact series up to 131072, then an estimate with its bound;
#    3 million series in at most 16 MB. The max RSS is the tool's own,
#    through GNU time (scripts/deps), as tests/sql_servers/rss.py takes it: a
#    high-water mark survives exec(), so Python's own ru_maxrss of its child
#    would count the forked Python. A sanitizer build's runtime alone
#    takes about 10 MB (ASan's shadow and allocator), so there the bound is
#    on what 3 million series add over 1000: the series set (2^18 slots of 8
#    bytes at most, 3 MB while it doubles) and the 256 KiB sketch, 6 MB,
#    with ASan's quarantine of freed blocks off (it would hold the set's
#    outgrown tables); a plain build is held to the 16 MB itself.
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "m,h=%d f=1\n", i % 700 }' | "$MOTE" lp check > "$TMP/out"
want "exact series" "series: 700" "$(grep '^series:' "$TMP/out")"
python3 - "$MOTE" "$TMP/rss" <<'PY'
import os, re, subprocess, sys
env = dict(os.environ, ASAN_OPTIONS=os.environ.get('ASAN_OPTIONS', '') + ':quarantine_size_mb=0')

def check(n):
    """lp check of n series on stdin: (exit, stdout, the tool's max RSS in MB)."""
    gen = subprocess.Popen(['awk', 'BEGIN { for (i = 0; i < %d; i++) printf "cpu,host=h%%d,dc=d%%d v=1 %%d\\n", i, i %% 7, i }' % n],
                           stdout=subprocess.PIPE)
    p = subprocess.run(['/usr/bin/time', '-f', '%M', '-o', sys.argv[2], sys.argv[1], 'lp', 'check', '-'],
                       stdin=gen.stdout, capture_output=True, text=True, env=env)
    gen.wait()
    with open(sys.argv[2]) as f:
        return p.returncode, p.stdout, int(f.read().split()[-1]) / 1024.0

with open(sys.argv[1], 'rb') as f:
    sanitized = b'__asan_init' in f.read()
n = 3000000
rc, out, rss_mb = check(n)
_, _, base_mb = check(1000)
m = re.search(r'^series: ~(\d+) \+/-([0-9.]+)%', out, re.M)
fails = 0
if rc != 0 or not m or not re.search(r'^points: %d$' % n, out, re.M):
    print('FAIL: lp check of %d series: exit %d, output %r' % (n, rc, out)); fails += 1
else:
    est, bound = int(m.group(1)), float(m.group(2))
    err = abs(est - n) / n * 100
    print('# lp check: %d series estimated %d (%.2f%% off, bound %.1f%%), peak RSS %.1f MB (1000 series: %.1f MB%s)'
          % (n, est, err, bound, rss_mb, base_mb, ', sanitizer build' if sanitized else ''))
    if err > bound: print('FAIL: estimate %d outside +/-%.1f%% of %d' % (est, bound, n)); fails += 1
if not sanitized and rss_mb > 16: print('FAIL: peak RSS %.1f MB > 16 MB' % rss_mb); fails += 1
if rss_mb - base_mb > 6: print('FAIL: 3 million series take %.1f MB more than 1000 (at most 6)' % (rss_mb - base_mb)); fails += 1
sys.exit(1 if fails else 0)
PY
[ $? -eq 0 ] && ok || fails=$((fails + 1))

summary
