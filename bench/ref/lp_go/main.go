// lp_go: reference measurement of github.com/influxdata/line-protocol/v2
// (the reference Go decoder) fully decoding a line-protocol file: measurement,
// every tag key and value, every field key and typed value (NextField parses
// the number), and the timestamp in ns. The file is read into memory once;
// each repetition decodes it from the in-memory bytes. MB = 10^6 bytes.
//
// -tokenize: views only (NextFieldBytes: field values not parsed, TimeBytes:
// the timestamp as written), the peer of mote's lp/<corpus>_tokenize.
// -encode: the file's points (decoded once, tags sorted by key as the
// encoder requires) written back with lineprotocol.Encoder, checked (not
// lax), timestamps in ns; MB/s of the bytes written. The peer of mote's
// lp/<corpus>_write.
// -min-time S: each repetition decodes the file as many times as fit in S
// seconds (at least once) and reports the mean per pass, as google-benchmark
// does for mote's rows (bench/run.py runs it so).
//
// Usage: go run . [-reps N] [-min-time S] [-tokenize | -encode] FILE
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"syscall"
	"time"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
)

type totals struct {
	lines, tags, fields, errs int
	sum                       uint64 // keeps every decoded value observable
}

func decodeAll(buf []byte) totals   { return readAll(buf, false) }
func tokenizeAll(buf []byte) totals { return readAll(buf, true) }

// readAll reads every line: measurement, tags, then either every field typed
// (NextField) and the time in ns, or (tokenize) only the raw field bytes
// (NextFieldBytes) and the raw timestamp (TimeBytes).
func readAll(buf []byte, tokenize bool) (t totals) {
	d := lineprotocol.NewDecoderWithBytes(buf)
	for d.Next() {
		m, err := d.Measurement()
		if err != nil {
			t.errs++
			continue
		}
		t.sum += uint64(len(m))
		for {
			k, v, err := d.NextTag()
			if err != nil {
				t.errs++
				break
			}
			if k == nil {
				break
			}
			t.tags++
			t.sum += uint64(len(k) + len(v))
		}
		for {
			var k []byte
			var err error
			if tokenize {
				var raw []byte
				k, _, raw, err = d.NextFieldBytes()
				t.sum += uint64(len(raw))
			} else {
				var v lineprotocol.Value
				k, v, err = d.NextField()
				t.sum += valueSum(v)
			}
			if err != nil {
				t.errs++
				break
			}
			if k == nil {
				break
			}
			t.fields++
		}
		if tokenize {
			ts, err := d.TimeBytes()
			if err != nil {
				t.errs++
			}
			t.sum += uint64(len(ts))
		} else {
			ts, err := d.Time(lineprotocol.Nanosecond, time.Time{})
			if err != nil {
				t.errs++
			}
			t.sum += uint64(ts.UnixNano())
		}
		t.lines++
	}
	return t
}

type point struct {
	meas   []byte
	tags   [][2][]byte
	keys   [][]byte
	values []lineprotocol.Value
	t      time.Time
}

// pointsOf decodes buf once into points that own their bytes.
func pointsOf(buf []byte) []point {
	var pts []point
	d := lineprotocol.NewDecoderWithBytes(buf)
	own := func(b []byte) []byte { return append([]byte(nil), b...) }
	for d.Next() {
		m, err := d.Measurement()
		if err != nil {
			panic(err)
		}
		p := point{meas: own(m)}
		for {
			k, v, err := d.NextTag()
			if err != nil {
				panic(err)
			}
			if k == nil {
				break
			}
			p.tags = append(p.tags, [2][]byte{own(k), own(v)})
		}
		sort.Slice(p.tags, func(i, j int) bool { return bytes.Compare(p.tags[i][0], p.tags[j][0]) < 0 })
		for {
			k, v, err := d.NextField()
			if err != nil {
				panic(err)
			}
			if k == nil {
				break
			}
			if v.Kind() == lineprotocol.String {
				v, _ = lineprotocol.StringValue(string(v.BytesV()))
			}
			p.keys = append(p.keys, own(k))
			p.values = append(p.values, v)
		}
		t, err := d.Time(lineprotocol.Nanosecond, time.Time{})
		if err != nil {
			panic(err)
		}
		p.t = t // (the zero time: none written)
		pts = append(pts, p)
	}
	return pts
}

// encodeAll writes every point; the total is the bytes written.
func encodeAll(e *lineprotocol.Encoder, pts []point) int {
	e.Reset()
	for i := range pts {
		p := &pts[i]
		e.StartLineRaw(p.meas)
		for _, t := range p.tags {
			e.AddTagRaw(t[0], t[1])
		}
		for j, k := range p.keys {
			e.AddFieldRaw(k, p.values[j])
		}
		e.EndLine(p.t)
	}
	if err := e.Err(); err != nil {
		panic(err)
	}
	return len(e.Bytes())
}

// valueSum keeps a decoded value observable (0 for the zero Value after the
// last field).
func valueSum(v lineprotocol.Value) uint64 {
	switch v.Kind() {
	case lineprotocol.Int:
		return uint64(v.IntV())
	case lineprotocol.Uint:
		return v.UintV()
	case lineprotocol.Float:
		return uint64(v.FloatV())
	case lineprotocol.Bool:
		if v.BoolV() {
			return 1
		}
	case lineprotocol.String:
		return uint64(len(v.BytesV()))
	}
	return 0
}

// cpuNow is the process's CPU time (user + system): on a shared machine the
// wall time of a pass also counts the run queue; bench/run.py compares CPU
// time with mote's rows.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	reps := flag.Int("reps", 10, "repetitions")
	minTime := flag.Float64("min-time", 0, "seconds per repetition (passes averaged)")
	tokenize := flag.Bool("tokenize", false, "views only: field values and timestamp not parsed")
	encode := flag.Bool("encode", false, "write the file's points back with the encoder")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: lp_go [-reps N] [-min-time S] [-tokenize | -encode] FILE")
		os.Exit(2)
	}
	buf, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var pts []point
	enc := &lineprotocol.Encoder{}
	if *encode {
		pts = pointsOf(buf)
		enc.SetPrecision(lineprotocol.Nanosecond)
	}
	var rates, cpuRates []float64
	var first totals
	var ms0, ms1 runtime.MemStats
	for r := 0; r < *reps; r++ {
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		run := decodeAll
		if *tokenize {
			run = tokenizeAll
		}
		if *encode {
			run = func([]byte) totals {
				n := encodeAll(enc, pts)
				return totals{lines: len(pts), sum: uint64(n)}
			}
		}
		st, c0 := time.Now(), cpuNow()
		t := run(buf)
		passes := 1
		for time.Since(st).Seconds() < *minTime {
			run(buf)
			passes++
		}
		el := time.Since(st) / time.Duration(passes)
		cpu := (cpuNow() - c0) / time.Duration(passes)
		runtime.ReadMemStats(&ms1)
		if r == 0 {
			first = t
		} else if t != first {
			fmt.Fprintln(os.Stderr, "repetitions disagree")
			os.Exit(1)
		}
		nbytes := len(buf) // (-encode: the bytes written)
		if *encode {
			nbytes = int(t.sum)
		}
		mbs := float64(nbytes) / 1e6 / el.Seconds()
		rates = append(rates, mbs)
		if cpu > 0 {
			cpuRates = append(cpuRates, float64(nbytes)/1e6/cpu.Seconds())
		}
		fmt.Printf("rep %2d: %8.1f MB/s  %6.0f ns/line  %.2f allocs/line\n", r, mbs,
			float64(el.Nanoseconds())/float64(t.lines),
			float64(ms1.Mallocs-ms0.Mallocs)/float64(t.lines)/float64(passes))
	}
	sort.Float64s(rates)
	sort.Float64s(cpuRates)
	fmt.Printf("file %s: %d bytes, %d lines, %d tags, %d fields, %d errors (checksum %x)\n",
		flag.Arg(0), len(buf), first.lines, first.tags, first.fields, first.errs, first.sum)
	what := "full decode"
	if *tokenize {
		what = "tokenize"
	}
	if *encode {
		what = "encode"
	}
	fmt.Printf("line-protocol/v2 %s: median %.1f MB/s, best %.1f MB/s over %d reps (%s)\n",
		what, rates[len(rates)/2], rates[len(rates)-1], len(rates), runtime.Version())
	if len(cpuRates) > 0 {
		fmt.Printf("cpu time: median %.1f MB/s, best %.1f MB/s\n", cpuRates[len(cpuRates)/2],
			cpuRates[len(cpuRates)-1])
	}
}
