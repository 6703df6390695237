// cql_ingest_go: the end-to-end ingest peer of examples/lp_agent's network
// mode, with the Apache Cassandra Go driver
// (github.com/apache/cassandra-gocql-driver/v2) and the reference Go
// line-protocol decoder (github.com/influxdata/line-protocol/v2). It streams a
// line-protocol file, turns each point into the row lp_agent writes
// (measurement, tags, time, fields, text_fields; integers, unsigned and
// booleans widened to double, time in ms) and sends UNLOGGED BATCHes of -batch
// rows of a prepared INSERT, with -inflight batches in flight on one
// connection. The table is the one `lp_agent --create` makes.
//
// Usage: go run . [-host 127.0.0.1] [-port 9042] [-keyspace KS] [-table T]
//        [-user U -password P] [-batch N] [-inflight N] FILE
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"github.com/influxdata/line-protocol/v2/lineprotocol"
)

type row struct {
	m      string
	tags   map[string]string
	ts     time.Time
	fields map[string]float64
	text   map[string]string
}

func main() {
	host := flag.String("host", "127.0.0.1", "server address")
	port := flag.Int("port", 9042, "native protocol port")
	ks := flag.String("keyspace", "mote", "keyspace")
	table := flag.String("table", "metrics", "table")
	user := flag.String("user", "", "user (PasswordAuthenticator)")
	pass := flag.String("password", "", "password")
	batch := flag.Int("batch", 50, "rows per UNLOGGED BATCH")
	inflight := flag.Int("inflight", 8, "batches in flight")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: cql_ingest_go [flags] FILE")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer f.Close()

	c := gocql.NewCluster(*host)
	c.Port = *port
	c.ProtoVersion = 4
	c.NumConns = 1
	c.Keyspace = *ks
	c.Consistency = gocql.One
	c.Timeout = 30 * time.Second
	c.DisableInitialHostLookup = true
	if *user != "" {
		c.Authenticator = gocql.PasswordAuthenticator{Username: *user, Password: *pass}
	}
	s, err := c.CreateSession()
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		os.Exit(2)
	}
	defer s.Close()
	ins := fmt.Sprintf("INSERT INTO %s (measurement, tags, time, fields, text_fields) VALUES (?, ?, ?, ?, ?)", *table)

	work := make(chan []row, *inflight)
	var written, failed atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < *inflight; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rs := range work {
				b := s.Batch(gocql.UnloggedBatch)
				for _, r := range rs {
					b.Query(ins, r.m, r.tags, r.ts, r.fields, r.text)
				}
				if err := b.Exec(); err != nil {
					fmt.Fprintln(os.Stderr, "batch:", err)
					failed.Add(int64(len(rs)))
				} else {
					written.Add(int64(len(rs)))
				}
			}
		}()
	}

	st := time.Now()
	d := lineprotocol.NewDecoder(bufio.NewReaderSize(f, 1<<16))
	bad := 0
	cur := make([]row, 0, *batch)
	for d.Next() {
		var r row
		m, err := d.Measurement()
		if err != nil {
			bad++
			continue
		}
		r.m = string(m)
		r.tags = map[string]string{}
		r.fields = map[string]float64{}
		r.text = map[string]string{}
		ok := true
		for {
			k, v, err := d.NextTag()
			if err != nil {
				ok = false
				break
			}
			if k == nil {
				break
			}
			r.tags[string(k)] = string(v)
		}
		for ok {
			k, v, err := d.NextField()
			if err != nil {
				ok = false
				break
			}
			if k == nil {
				break
			}
			switch v.Kind() {
			case lineprotocol.Int:
				r.fields[string(k)] = float64(v.IntV())
			case lineprotocol.Uint:
				r.fields[string(k)] = float64(v.UintV())
			case lineprotocol.Float:
				r.fields[string(k)] = v.FloatV()
			case lineprotocol.Bool:
				if v.BoolV() {
					r.fields[string(k)] = 1
				} else {
					r.fields[string(k)] = 0
				}
			case lineprotocol.String:
				r.text[string(k)] = string(v.BytesV())
			}
		}
		if ok {
			r.ts, err = d.Time(lineprotocol.Nanosecond, time.Time{})
			ok = err == nil
		}
		if !ok {
			bad++
			continue
		}
		cur = append(cur, r)
		if len(cur) == *batch {
			work <- cur
			cur = make([]row, 0, *batch)
		}
	}
	if len(cur) > 0 {
		work <- cur
	}
	close(work)
	wg.Wait()
	el := time.Since(st)
	fmt.Fprintf(os.Stderr, "cql_ingest_go: %d rows written, %d failed, %d bad lines in %.2f s\n",
		written.Load(), failed.Load(), bad, el.Seconds())
	if failed.Load() > 0 {
		os.Exit(1)
	}
}
