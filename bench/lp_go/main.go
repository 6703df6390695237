// Command lp_go measures the reference Go decoder (influxdata/line-protocol
// v2) on the corpora of bench_lp, for the ratio reported in docs/lp.md.
// Not part of the build or the tests (it needs the Go module proxy):
//
//	MOTE_LP_BENCH_DUMP=/tmp/lpcorp build/release/bench/bench_lp --benchmark_filter=none
//	cd bench/lp_go && go run . /tmp/lpcorp/tsbs.lp /tmp/lpcorp/telegraf.lp
package main

import (
	"fmt"
	"os"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
)

// full decodes every tag, every field value (typed) and the timestamp.
func full(buf []byte) int {
	dec := lineprotocol.NewDecoderWithBytes(buf)
	n := 0
	for dec.Next() {
		if _, err := dec.Measurement(); err != nil {
			panic(err)
		}
		for {
			k, _, err := dec.NextTag()
			if err != nil {
				panic(err)
			}
			if k == nil {
				break
			}
		}
		for {
			k, v, err := dec.NextField()
			if err != nil {
				panic(err)
			}
			if k == nil {
				break
			}
			_ = v
		}
		if _, err := dec.Time(lineprotocol.Nanosecond, time.Time{}); err != nil {
			panic(err)
		}
		n++
	}
	return n
}

// tokens splits only: raw field bytes and raw timestamp.
func tokens(buf []byte) int {
	dec := lineprotocol.NewDecoderWithBytes(buf)
	n := 0
	for dec.Next() {
		dec.Measurement()
		for {
			k, _, _ := dec.NextTag()
			if k == nil {
				break
			}
		}
		for {
			k, _, _, _ := dec.NextFieldBytes()
			if k == nil {
				break
			}
		}
		dec.TimeBytes()
		n++
	}
	return n
}

func measure(name string, buf []byte, f func([]byte) int) {
	best := time.Duration(1 << 62)
	for rep := 0; rep < 5; rep++ {
		start := time.Now()
		iters := 0
		for time.Since(start) < 300*time.Millisecond {
			f(buf)
			iters++
		}
		per := time.Since(start) / time.Duration(iters)
		if per < best {
			best = per
		}
	}
	fmt.Printf("%-28s %10.1f us %8.2f GB/s\n", name, float64(best.Nanoseconds())/1e3,
		float64(len(buf))/float64(best.Nanoseconds()))
}

func main() {
	for _, path := range os.Args[1:] {
		buf, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		measure(path+" tokenize/go", buf, tokens)
		measure(path+" decode/go", buf, full)
	}
}
