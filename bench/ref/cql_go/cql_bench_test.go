// Reference measurements (not run in CI): the Apache Cassandra Go driver
// (github.com/apache/cassandra-gocql-driver/v2, successor of gocql; gocql
// v1.7.0 has no vector type) encoding and decoding the issue-5 hot cases
// through its public Marshal/Unmarshal.
//
// Run: go test -bench . -benchmem
package cqlref

import (
	"syscall"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
)

func typeInfo(b *testing.B, text string) gocql.TypeInfo {
	b.Helper()
	return gocql.NewNativeType(4, gocql.TypeCustom, text)
}

// The values of bench/bench_cql.cc (values<T>(n): i * 0.37 - 100 converted
// to the element type, rounding for float, truncating for int as C++'s
// static_cast does), so both encode and decode the same bytes.
func vec768() []float32 {
	v := make([]float32, 768)
	for i := range v {
		v[i] = float32(float64(i)*0.37 - 100.0)
	}
	return v
}

func list1000() []int32 {
	v := make([]int32, 1000)
	for i := range v {
		v[i] = int32(float64(i)*0.37 - 100.0)
	}
	return v
}

// cpuNow is the process's CPU time (user + system): on a shared machine the
// wall time of a pass also counts the run queue; bench/run.py compares CPU
// time with mote's rows (metric cpu-ns/op).
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the CPU time per op since c0 as the metric cpu-ns/op.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}

func benchEncode(b *testing.B, ti gocql.TypeInfo, v interface{}) {
	out, err := gocql.Marshal(ti, v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(out)))
	b.ResetTimer()
	c0 := cpuNow()
	for i := 0; i < b.N; i++ {
		if _, err := gocql.Marshal(ti, v); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

func BenchmarkVectorFloat768Encode(b *testing.B) {
	benchEncode(b, typeInfo(b, "vector<float, 768>"), vec768())
}

func BenchmarkVectorFloat768Decode(b *testing.B) {
	ti := typeInfo(b, "vector<float, 768>")
	data, err := gocql.Marshal(ti, vec768())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	c0 := cpuNow()
	for i := 0; i < b.N; i++ {
		var out []float32
		if err := gocql.Unmarshal(ti, data, &out); err != nil {
			b.Fatal(err)
		}
		if len(out) != 768 {
			b.Fatal("bad length")
		}
	}
	reportCPU(b, c0)
}

func BenchmarkListInt1000Encode(b *testing.B) {
	benchEncode(b, typeInfo(b, "list<int>"), list1000())
}

func BenchmarkListInt1000Decode(b *testing.B) {
	ti := typeInfo(b, "list<int>")
	data, err := gocql.Marshal(ti, list1000())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	c0 := cpuNow()
	for i := 0; i < b.N; i++ {
		var out []int32
		if err := gocql.Unmarshal(ti, data, &out); err != nil {
			b.Fatal(err)
		}
		if len(out) != 1000 {
			b.Fatal("bad length")
		}
	}
	reportCPU(b, c0)
}

// Round-trip check so the benchmarks measure correct work.
func TestRoundTrip(t *testing.T) {
	ti := gocql.NewNativeType(4, gocql.TypeCustom, "vector<float, 768>")
	data, err := gocql.Marshal(ti, vec768())
	if err != nil || len(data) != 768*4 {
		t.Fatalf("vector encode: %v len %d", err, len(data))
	}
	var back []float32
	if err := gocql.Unmarshal(ti, data, &back); err != nil || back[767] != vec768()[767] {
		t.Fatalf("vector decode: %v", err)
	}
	li := gocql.NewNativeType(4, gocql.TypeCustom, "list<int>")
	data, err = gocql.Marshal(li, list1000())
	if err != nil || len(data) != 4+1000*8 {
		t.Fatalf("list encode: %v len %d", err, len(data))
	}
}
