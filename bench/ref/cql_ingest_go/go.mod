module mote/bench/ref/cql_ingest_go

go 1.25

require (
	github.com/apache/cassandra-gocql-driver/v2 v2.1.2
	github.com/influxdata/line-protocol/v2 v2.2.1
)

require (
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
)
