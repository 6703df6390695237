#!/bin/sh
# bench/ref/ingest.sh - end-to-end ingest: N line-protocol points (TSBS-like,
# bench/ref/gen_tsbs.py) into one private local Cassandra 5.0.6, by
#   mote   examples/lp_agent --cassandra (release build)
#   go     bench/ref/cql_ingest_go (apache/cassandra-gocql-driver/v2 + influx
#          line-protocol/v2), built here from the Go module proxy
#   py     bench/ref/cql_ingest_py.py (Python cassandra-driver)
# each with the same unlogged batch size and batches in flight, one
# connection, consistency ONE, into the table `lp_agent --create` makes
# (truncated before each run). Prints per client: CPU seconds (user+sys of
# the client process) per million rows, max RSS, wall time. Not part of CI.
#   N=1000000 BATCH=32 INFLIGHT=4 REPS=1 PORT=19050 sh bench/ref/ingest.sh
# The server runs on the same 2 cores, so wall time is the server's.
set -eu
cd "$(dirname "$0")/../.."
N=${N:-1000000}
BATCH=${BATCH:-32}
INFLIGHT=${INFLIGHT:-4}
REPS=${REPS:-1}
PORT=${PORT:-19050}
CLIENTS=${CLIENTS:-"mote go py"}
T=${TMPDIR:-/tmp}/mote-ingest-bench
mkdir -p "$T"
B=build/bench-ingest
[ -f "$B/build.ninja" ] || meson setup "$B" --buildtype=release -Dtests=disabled -Dbenchmarks=disabled >/dev/null
ninja -C "$B" examples/lp_agent >/dev/null
(cd bench/ref/cql_ingest_go && go build -o "$T/cql_ingest_go" .)
[ -f "$T/in-$N.lp" ] || python3 bench/ref/gen_tsbs.py --lines "$N" -o "$T/in-$N.lp"
echo cassandra >"$T/pw"

srv="$T/server"
trap 'tests/cassandra/server stop "$srv"' EXIT INT TERM
MOTE_CASS_PORT=$PORT MOTE_CASS_STORAGE=$((PORT + 1)) MOTE_CASS_QUIET_BATCHES=1 \
    tests/cassandra/server start "$srv"
: | "$B/examples/lp_agent" --cassandra 127.0.0.1:$PORT --user cassandra --password-file "$T/pw" \
    --keyspace mote --table metrics --create - 2>/dev/null

truncate_table() {
    python3 - "$PORT" <<'PY'
import sys
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster
c = Cluster(['127.0.0.1'], port=int(sys.argv[1]), protocol_version=4,
            auth_provider=PlainTextAuthProvider('cassandra', 'cassandra'))
c.connect().execute('TRUNCATE mote.metrics', timeout=120)
c.shutdown()
PY
}

run() { # NAME CMD...: one timed run; prints "NAME user_s sys_s rss_kib wall_s"
    name=$1; shift
    truncate_table
    /usr/bin/time -f "%U %S %M %e" -o "$T/time" "$@" 2>"$T/$name.err" || { cat "$T/$name.err"; exit 1; }
    tail -n 2 "$T/$name.err" | sed 's/^/    /' >&2
    read -r u s m e <"$T/time"
    echo "$name $u $s $m $e"
}

echo "N=$N points, batch $BATCH, $INFLIGHT batches in flight, one connection; $(nproc) cores shared with the server" >&2
for rep in $(seq "$REPS"); do
    for c in $CLIENTS; do
        case $c in
        mote) run mote "$B/examples/lp_agent" --cassandra 127.0.0.1:$PORT --user cassandra \
                  --password-file "$T/pw" --keyspace mote --table metrics --batch "$BATCH" \
                  --inflight "$INFLIGHT" "$T/in-$N.lp" ;;
        go) run go "$T/cql_ingest_go" -port "$PORT" -user cassandra -password cassandra \
                -keyspace mote -table metrics -batch "$BATCH" -inflight "$INFLIGHT" "$T/in-$N.lp" ;;
        py) run py python3 bench/ref/cql_ingest_py.py --port "$PORT" --user cassandra \
                --password cassandra --keyspace mote --table metrics --batch "$BATCH" \
                --inflight "$INFLIGHT" "$T/in-$N.lp" ;;
        esac
    done
done | awk -v n="$N" '
    { cpu = ($2 + $3) * 1e6 / n
      printf "%-5s CPU %7.2f s per million rows (user %.2f, sys %.2f), max RSS %7.1f MB, wall %7.1f s\n",
             $1, cpu, $2, $3, $4 / 1024, $5 }'
