#!/bin/sh
# tool_cql.sh - 'mote cql encode/decode': fixed cases, error exits, and every
# line of tests/data/cql_golden.tsv (bytes from real clients) when present.
# Usage: sh tests/tool_cql.sh /path/to/mote   (env MOTE_TEST_DATA)
set -u
MOTE=${1:?usage: tool_cql.sh /path/to/mote}
DATA=${MOTE_TEST_DATA:-$(dirname "$0")/data}
. "$(dirname "$0")/check.sh"

# enc TYPE LITERAL HEX: encode gives HEX, and decode of HEX encodes back to HEX.
enc() {
    got=$("$MOTE" cql encode "$1" "$2" 2>&1) || { bad "encode '$1' '$2': exit $?: $got"; return; }
    if [ "$got" != "$3" ]; then bad "encode '$1' '$2': got '$got' want '$3'"; return; fi
    lit=$("$MOTE" cql decode "$1" "$3" 2>&1) || { bad "decode '$1' '$3': $lit"; return; }
    again=$("$MOTE" cql encode "$1" "$lit" 2>&1) || { bad "encode '$1' '$lit': exit $?"; return; }
    if [ "$again" != "$3" ]; then bad "decode '$1' '$3' gave '$lit' which encodes to '$again'"; return; fi
    ok
}

# dec TYPE HEX LITERAL: decode prints exactly LITERAL.
dec() {
    got=$("$MOTE" cql decode "$1" "$2" 2>&1) || { bad "decode '$1' '$2': exit $?: $got"; return; }
    if [ "$got" != "$3" ]; then bad "decode '$1' '$2': got '$got' want '$3'"; else ok; fi
}

# err ARGS...: exit status 2, a message on stderr, nothing on stdout.
err() {
    out=$("$MOTE" cql "$@" 2>/dev/null); rc=$?
    msg=$("$MOTE" cql "$@" 2>&1 >/dev/null)
    if [ $rc -ne 2 ] || [ -n "$out" ] || [ -z "$msg" ]; then
        bad "expected exit 2 with a message: cql $* (rc=$rc out='$out')"
    else ok; fi
}

enc 'vector<float, 3>' '[1.0, 2.0, 3.0]' 3f8000004000000040400000
enc 'org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType, 3)' \
    '[1, 2, 3]' 3f8000004000000040400000
enc 'list<int>' '[1, 2]' 0000000200000004000000010000000400000002
enc 'list<int>' '[]' 00000000
# a literal longer than the tool's first guess (4 bytes of text per byte of
# value): 100 floats of 15 characters each; decode measures and tries again
h=''; l=''
i=0
while [ $i -lt 100 ]; do
    h="${h}fcf1926f"; l="${l:+$l, }-1.00345086e+37"; i=$((i + 1))
done
enc 'vector<float, 100>' "[$l]" "$h"
dec 'vector<float, 100>' "$h" "[$l]"
enc 'set<text>' "{'a', 'it''s'}" 0000000200000001610000000469742773
enc 'map<text, bigint>' "{'a': 1}" 000000010000000161000000080000000000000001
enc 'tuple<int, text>' "(1, 'x')" 00000004000000010000000178
enc 'vector<smallint, 2>' '[1, -2]' 02000102fffe
enc 'vector<text, 2>' "['a', 'bb']" 0161026262
enc 'vector<vector<float, 1>, 2>' '[[1], [2]]' 3f80000040000000
enc 'frozen<list<frozen<set<int>>>>' '[{1}]' 000000010000000c000000010000000400000001
enc 'blob' '0xcafe' cafe
enc 'boolean' 'false' 00
enc 'tinyint' '-128' 80
enc 'bigint' '-9223372036854775808' 8000000000000000
enc 'varint' '128' 0080
enc 'varint' '-129' ff7f
enc 'decimal' '1.25' 000000027d
enc 'uuid' '123e4567-e89b-12d3-a456-426614174000' 123e4567e89b12d3a456426614174000
enc 'inet' "'127.0.0.1'" 7f000001
enc 'date' "'1970-01-01'" 80000000
enc 'duration' '1mo2d3ns' 020406
enc 'double' '0.1' 3fb999999999999a
enc 'float' '-0.0' 80000000
dec 'vector<float, 3>' 3f8000004000000040400000 '[1, 2, 3]'
dec 'double' 3fb999999999999a '0.1'
dec 'float' 3dcccccd '0.1'
dec 'double' 4415af1d78b58c40 '1e+20'
dec 'tuple<int, text>' 00000004000000ffffffffff '(255, null)'
dec 'map<text, int>' 00000001000000016100000004ffffffff "{'a': -1}"
dec 'text' 69742773 "'it''s'"

err encode 'lisst<int>' '[1]'
err encode 'list<int>' "[1, 'a']"
err encode 'list<int>' '[1, 2'
err encode 'int' '2147483648'
err encode 'vector<float, 2>' '[1]'
err encode 'vector<float, 2>' '[1, null]'
err encode 'map<int, int>' '{null: 1}'
err encode 'list<int>' '[1, null]'
err encode 'map<int, int>' '{1: null}'
err decode 'list<text>' '00000001ffffffff'
err encode 'ascii' "'é'"
err encode 'list<int>' '[1] x'
err decode 'list<int>' '0000000100000004000000'
err decode 'list<int>' '000000010000000400000001ff'
err decode 'list<int>' 'ffffffff'
err decode 'list<int>' '7fffffff'
err decode 'vector<float, 2>' '3f800000'
err decode 'vector<text, 1>' '8001'
err decode 'list<int>' 'abc'
err decode 'list<int>' 'zz'
err bogus 'int' '1'
err encode 'int'

# msg WANT ARGS...: exit status 2 and exactly this message (offsets in the argument as given)
msg() {
    want=$1; shift
    got=$("$MOTE" cql "$@" 2>&1 >/dev/null); rc=$?
    if [ $rc -ne 2 ] || [ "$got" != "$want" ]; then bad "cql $*: rc=$rc '$got', want '$want'"; else ok; fi
}
msg "mote: cql decode: bad hex digit at offset 9" decode int 0x0000000g
msg "mote: cql encode: ascii holds a byte above 0x7f (BAD_VALUE) at offset 0" encode ascii "'héllo'"
msg "mote: cql encode: too many values (SYNTAX) at offset 9" encode 'tuple<int, text>' "(1, 'a', 2)"
msg "mote: cql encode: too many values (SYNTAX) at offset 7" encode 'vector<int, 2>' '[1, 2, 3]'
# hex from stdin may start with blanks
got=$(printf ' 0x00000005\n' | "$MOTE" cql decode int -)
[ "$got" = 5 ] && ok || bad "stdin hex after blanks: '$got'"

# A set element or map key given twice: printed, reported (element index),
# exit 1 (a bad record); the server would keep one.
out=$("$MOTE" cql encode 'set<int>' '{1, 2, 1}' 2> "${TMPDIR:-/tmp}/cqlerr.$$"); rc=$?
if [ $rc -eq 1 ] && [ "$out" = 00000003000000040000000100000004000000020000000400000001 ] && grep -q 'DUPLICATE at element 2' "${TMPDIR:-/tmp}/cqlerr.$$"; then ok; else bad "duplicate set element: rc=$rc out=$out"; fi
out=$("$MOTE" cql decode 'map<int, int>' 00000002000000040000000100000004000000020000000400000001000000040000000300 2>/dev/null); rc=$?
[ $rc -eq 2 ] && ok || bad "bad map hex: rc=$rc"
out=$("$MOTE" cql decode 'map<int, int>' 000000020000000400000001000000040000000200000004000000010000000400000003 2> "${TMPDIR:-/tmp}/cqlerr.$$"); rc=$?
if [ $rc -eq 1 ] && [ "$out" = '{1: 2, 1: 3}' ] && grep -q 'DUPLICATE at element 1' "${TMPDIR:-/tmp}/cqlerr.$$"; then ok; else bad "duplicate map key: rc=$rc out=$out"; fi
rm -f "${TMPDIR:-/tmp}/cqlerr.$$"

# Golden lines (tests/data/cql_golden.md): follow the lines both clients
# agree on ('py,go') and Cassandra's own behaviour ('cassandra'); a client's
# deviating variant ('py!', 'go!') is information only. HEX '-': refused.
GOLD="$DATA/cql_golden.tsv"
if [ -f "$GOLD" ]; then
    tab=$(printf '\t')
    same=0
    total=0
    while IFS="$tab" read -r type literal hex clients; do
        case "$type" in ''|'#'*) continue ;; esac
        case "$clients" in py,go|cassandra) ;; *) continue ;; esac
        if [ "$hex" = "-" ]; then
            err encode "$type" "$literal"
            continue
        fi
        # a list/set/map/tuple of counter: clients encode it, the server
        # (and mote) refuse the type
        case "$type" in *'vector<counter'*) ;; *counter*) err encode "$type" "$literal"; continue ;; esac
        enc "$type" "$literal" "$hex"
        total=$((total + 1))
        [ "$lit" = "$literal" ] && same=$((same + 1))
    done < "$GOLD"
    echo "# golden: decode printed the file's own literal for $same of $total values"
    # (an empty or misread file checks nothing: 420 values today)
    [ "$total" -ge 400 ] && ok || bad "golden: only $total values read from $GOLD"
else
    # The golden data is part of the test: without it nothing is checked.
    echo "not ok - $GOLD not present"
    fails=$((fails + 1))
fi

summary
