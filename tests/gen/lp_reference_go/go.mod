module mote/tests/gen/lp_reference_go

go 1.22

require github.com/influxdata/line-protocol/v2 v2.2.1
