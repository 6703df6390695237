module mote/bench/lp_go

go 1.21

require github.com/influxdata/line-protocol/v2 v2.2.1
