// gen_num_format.go writes num_format_go.txt: one line per double,
// "<16 hex digits of the IEEE bits> <strconv.FormatFloat(v, 'g', -1, 64)>",
// the reference for mote_num_format_f64 in tests/test_num.c.
// Run: go run gen_num_format.go > num_format_go.txt   (Go standard library only)
package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand"
	"os"
	"strconv"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	emit := func(b uint64) {
		v := math.Float64frombits(b)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		fmt.Fprintf(w, "%016x %s\n", b, strconv.FormatFloat(v, 'g', -1, 64))
	}
	// every power of two: the asymmetric rounding interval at binade bottoms
	for e := uint64(0); e < 2047; e++ {
		emit(e << 52)
		if e%7 == 0 {
			emit(e<<52 | 1)
			emit(e<<52 - 1)
		}
	}
	// smallest subnormals and the subnormal/normal border
	for c := uint64(1); c <= 300; c++ {
		emit(c)
		emit(0x0010000000000000 - c)
	}
	// powers of ten and their neighbours, with both signs
	for k := -323; k <= 308; k++ {
		v, _ := strconv.ParseFloat("1e"+strconv.Itoa(k), 64)
		b := math.Float64bits(v)
		emit(b)
		emit(b + 1)
		emit(b | 1<<63)
	}
	// integers around 2^53 and round numbers
	for i := int64(-20); i <= 20; i++ {
		emit(math.Float64bits(float64(int64(1)<<53 + i)))
	}
	for _, v := range []float64{0, 1, 0.1, 0.3, 100, 1e6, 123456, 1234567, 1e21, 1e-5, 1e-4,
		123456789012345680000, 5e-324, math.MaxFloat64, 2.2250738585072014e-308, 12.5,
		0.000123, 98765.4321, -1.5e-7, 6.632243e+06, 1e23, 9007199254740993} {
		emit(math.Float64bits(v))
	}
	emit(1 << 63)
	r := rand.New(rand.NewSource(20261123))
	for i := 0; i < 3000; i++ {
		emit(r.Uint64())
	}
	// short decimals as telemetry carries them
	for i := 0; i < 1000; i++ {
		s := strconv.Itoa(r.Intn(1000000)) + "e" + strconv.Itoa(r.Intn(40)-20)
		v, _ := strconv.ParseFloat(s, 64)
		emit(math.Float64bits(v))
	}
}
