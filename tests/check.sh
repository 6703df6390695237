# check.sh - what every shell test here shares, sourced first thing with
#   . "$(dirname "$0")/check.sh"
# counters, ok/bad/want, a private scratch dir, and the closing line
# "N passed, N failed" whose exit status fails the test if anything failed.
fails=0
passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# want NAME EXPECTED ACTUAL
want() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$3', want '$2'"; fi; }
# scratch NAME: $TMP, a fresh directory removed when the test exits
scratch() {
    TMP=${TMPDIR:-/tmp}/$1.$$
    mkdir -p "$TMP"
    trap 'rm -rf "$TMP"' EXIT
}
summary() {
    echo "$passes passed, $fails failed"
    [ "$fails" -eq 0 ]
}
