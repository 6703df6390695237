#!/bin/sh
# Reference measurements from real Go libraries, for scale (not run in CI:
# `go` fetches the modules pinned in each go.sum from the Go module proxy).
#   lp_go:  github.com/influxdata/line-protocol/v2 full decode of a TSBS
#           cpu-only style corpus made by gen_tsbs.py, MB/s over repetitions
#   lp_vm_go: the VictoriaMetrics influx parser (lib/protoparser/influx,
#           v1.151.0) on the same corpus
#   cql_go: github.com/apache/cassandra-gocql-driver/v2 Marshal/Unmarshal of
#           vector<float, 768> and list<int> of 1000, ns/op (go test -bench)
# Usage: sh bench/ref/run.sh   (env: LINES=100000 REPS=10 COUNT=5)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
LINES=${LINES:-100000}
REPS=${REPS:-10}
COUNT=${COUNT:-5}

echo "== environment"
go version
nproc
python3 --version

echo "== line protocol: influxdata/line-protocol/v2 full decode"
python3 "$here/gen_tsbs.py" --lines "$LINES" -o "$tmp/tsbs.lp"
(cd "$here/lp_go" && go build -o "$tmp/lp_go" .)
"$tmp/lp_go" -reps "$REPS" "$tmp/tsbs.lp"

echo "== line protocol: VictoriaMetrics influx parser, same corpus"
(cd "$here/lp_vm_go" && go build -o "$tmp/lp_vm_go" .)
"$tmp/lp_vm_go" -reps "$REPS" "$tmp/tsbs.lp"

echo "== CQL: apache/cassandra-gocql-driver/v2 Marshal/Unmarshal"
(cd "$here/cql_go" && go test -run TestRoundTrip -bench . -benchmem -count "$COUNT")
