#!/bin/sh
# run-fuzzer.sh EXE SECONDS WORK_DIR SEED_DIR [DICT]
# Runs one libFuzzer target for a bounded time. New inputs go to WORK_DIR (in
# the build tree); the committed seeds in SEED_DIR are read, never written.
set -eu
exe=$1 secs=$2 work=$3 seeds=$4
dict=${5:-}
mkdir -p "$work" "$seeds"
# -error_exitcode=1: libFuzzer's default, 77, is what meson counts as a SKIP,
# so a crash found in CI would pass as skipped
set -- -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 -error_exitcode=1 -print_final_stats=1
[ -n "$dict" ] && set -- "$@" -dict="$dict"
exec "$exe" "$@" "$work" "$seeds"
