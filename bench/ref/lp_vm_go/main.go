// lp_vm_go: reference measurement of the VictoriaMetrics influx line-protocol
// parser (github.com/VictoriaMetrics/VictoriaMetrics/lib/protoparser/influx,
// the fastest Go parser we know) fully decoding a line-protocol file: every
// row's measurement, tags, fields (values parsed to float64, as VictoriaMetrics
// stores them) and timestamp. The file is read into memory once; each
// repetition parses it from the in-memory string with the same Rows (its
// arrays are reused, as VictoriaMetrics does per request). MB = 10^6 bytes.
//
// -min-time S: each repetition parses the file as many times as fit in S
// seconds (at least once) and reports the mean per pass, as google-benchmark
// does for mote's rows (bench/run.py runs it so).
//
// Usage: go run . [-reps N] [-min-time S] FILE
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"sort"
	"syscall"
	"time"

	"github.com/VictoriaMetrics/VictoriaMetrics/lib/protoparser/influx"
)

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
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: lp_vm_go [-reps N] [-min-time S] FILE")
		os.Exit(2)
	}
	buf, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s := string(buf)
	var rows influx.Rows
	var mbs, cpuMbs []float64
	var lines, tags, fields int
	var sum uint64
	for r := 0; r < *reps; r++ {
		runtime.GC()
		t0, c0 := time.Now(), cpuNow()
		passes := 0
		for passes == 0 || time.Since(t0).Seconds() < *minTime {
			// skipInvalidLines: true, as the corpora may hold what VictoriaMetrics
			// rejects; the row count below shows how many lines it took.
			if err := rows.Unmarshal(s, true); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			lines, tags, fields, sum = 0, 0, 0, 0
			for i := range rows.Rows {
				row := &rows.Rows[i]
				lines++
				sum += uint64(len(row.Measurement))
				for _, t := range row.Tags {
					tags++
					sum += uint64(len(t.Key) + len(t.Value))
				}
				for _, f := range row.Fields {
					fields++
					sum += math.Float64bits(f.Value)
				}
				sum += uint64(row.Timestamp)
			}
			passes++
		}
		d := time.Since(t0) / time.Duration(passes)
		mbs = append(mbs, float64(len(buf))/d.Seconds()/1e6)
		if cpu := (cpuNow() - c0) / time.Duration(passes); cpu > 0 {
			cpuMbs = append(cpuMbs, float64(len(buf))/cpu.Seconds()/1e6)
		}
	}
	sorted := append([]float64(nil), mbs...)
	sort.Float64s(sorted)
	fmt.Printf("VictoriaMetrics influx parser (v1.151.0): %d bytes, %d rows, %d tags, %d fields, sum %d\n",
		len(buf), lines, tags, fields, sum)
	fmt.Printf("MB/s per repetition:")
	for _, v := range mbs {
		fmt.Printf(" %.1f", v)
	}
	fmt.Printf("\nmedian %.1f MB/s, best %.1f MB/s\n", sorted[len(sorted)/2], sorted[len(sorted)-1])
	if len(cpuMbs) > 0 {
		sort.Float64s(cpuMbs)
		fmt.Printf("cpu time: median %.1f MB/s, best %.1f MB/s\n", cpuMbs[len(cpuMbs)/2],
			cpuMbs[len(cpuMbs)-1])
	}
}
