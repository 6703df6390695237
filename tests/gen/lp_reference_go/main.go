// lp_reference_go: line-protocol cases judged by the reference Go decoder
// and encoder (github.com/influxdata/line-protocol/v2, where the
// conformance corpus comes from), for tests/data/lp/reference_cases.txt.
//
// The conformance corpus (corpus.txt) holds the inputs its authors fuzzed.
// This program makes more. Decode cases: the corpus's own inputs changed by
// a few random edits (bytes that matter to the grammar put in, taken out,
// repeated; inputs joined), and lines built from the grammar's parts (names
// with escapes, every value type and its edges, timestamps), at every
// precision and with default times near the limits. Each input is decoded
// the way the corpus harness decodes (lineprotocol/corpus_test.go,
// decodeToCorpusPoints: every line, tags sorted by key, a duplicate tag key
// or any error rejects the whole input). Recovery ("lines") cases: bad and
// good lines mixed, and the good lines' points, which the corpus's
// all-or-nothing rule never tests. Encode cases: random points through the
// Go encoder, its line or its refusal. One refused decode or encode case in
// four is kept (a refusal tests less). Written in corpus.txt's format,
// which test_lp_conformance reads (tests/gen/lp_corpus.py describes it).
// Deterministic: the same -seed, -n, -lines and -encode give the same bytes.
//
// Usage (in this directory):
//
//	go run . -corpus ../../data/lp/corpus.txt > ../../data/lp/reference_cases.txt
//
// (the defaults: -seed 1 -n 2000 -lines 600 -encode 1200)
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
)

// str writes b as corpus.txt's STR: a quote, then every byte outside
// 0x21..0x7e, the percent sign and the quote as %HH.
func str(b []byte) string {
	var sb strings.Builder
	sb.WriteByte('\'')
	for _, c := range b {
		if c >= 0x21 && c <= 0x7e && c != '%' && c != '\'' {
			sb.WriteByte(c)
		} else {
			fmt.Fprintf(&sb, "%%%02X", c)
		}
	}
	return sb.String()
}

// unstr reads a STR back.
func unstr(s string) []byte {
	s = strings.TrimPrefix(s, "'")
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}

type tag struct{ k, v []byte }

type point struct {
	name   []byte
	tags   []tag
	fields []string // "field KEY TYPE VALUE" records, in order
	time   int64
}

// The precisions, their names in corpus.txt and their nanoseconds.
var (
	precs = []lineprotocol.Precision{lineprotocol.Nanosecond, lineprotocol.Microsecond,
		lineprotocol.Millisecond, lineprotocol.Second}
	precName = map[lineprotocol.Precision]string{
		lineprotocol.Nanosecond: "ns", lineprotocol.Microsecond: "us",
		lineprotocol.Millisecond: "ms", lineprotocol.Second: "s",
	}
	precNs = map[lineprotocol.Precision]int64{
		lineprotocol.Nanosecond: 1, lineprotocol.Microsecond: 1e3,
		lineprotocol.Millisecond: 1e6, lineprotocol.Second: 1e9,
	}
)

// The corpus's usual default time (ns), for inputs without their own.
const corpusDefaultTime = 946815194000000000

var errDupTag = errors.New("duplicate tag key")

// decodePoint is the corpus harness's decodeToCorpusPoint: the line at dec
// as a point, tags sorted by key (a duplicate key: errDupTag).
func decodePoint(dec *lineprotocol.Decoder, prec lineprotocol.Precision, def int64) (point, error) {
	var p point
	m, err := dec.Measurement()
	if err != nil {
		return p, err
	}
	p.name = append([]byte(nil), m...)
	for {
		k, v, err := dec.NextTag()
		if err != nil {
			return p, err
		}
		if k == nil {
			break
		}
		p.tags = append(p.tags, tag{append([]byte(nil), k...), append([]byte(nil), v...)})
	}
	sort.Slice(p.tags, func(i, j int) bool { return bytes.Compare(p.tags[i].k, p.tags[j].k) < 0 })
	for i := 1; i < len(p.tags); i++ {
		if bytes.Equal(p.tags[i-1].k, p.tags[i].k) {
			return p, errDupTag
		}
	}
	for {
		k, v, err := dec.NextField()
		if err != nil {
			return p, err
		}
		if k == nil {
			break
		}
		var val string
		switch v.Kind() {
		case lineprotocol.Float:
			val = "float " + fmt.Sprintf("%016x", math.Float64bits(v.FloatV()))
		case lineprotocol.Int:
			val = "int " + strconv.FormatInt(v.IntV(), 10)
		case lineprotocol.Uint:
			val = "uint " + strconv.FormatUint(v.UintV(), 10)
		case lineprotocol.Bool:
			val = "bool " + strconv.FormatBool(v.BoolV())
		case lineprotocol.String:
			val = "string " + str([]byte(v.StringV()))
		default:
			panic("unknown value kind")
		}
		p.fields = append(p.fields, "field "+str(k)+" "+val)
	}
	t, err := dec.Time(prec, time.Unix(0, def))
	if err != nil {
		return p, err
	}
	p.time = t.UnixNano()
	return p, nil
}

// decode is the corpus harness's decodeToCorpusPoints: every line's point,
// or false if any line is bad.
func decode(text []byte, prec lineprotocol.Precision, def int64) ([]point, bool) {
	dec := lineprotocol.NewDecoderWithBytes(text)
	var ps []point
	for dec.Next() {
		p, err := decodePoint(dec, prec, def)
		if err != nil {
			return nil, false
		}
		ps = append(ps, p)
	}
	return ps, true
}

// decodeLines: the points of the good lines, each bad line skipped, and the
// number of bad lines; false where mote recovers otherwise by design
// (docs/lp.md): a '"' after an error, which Go's decoder does not take for
// a string (it goes on after the next newline) and mote's splitter may
// (Go's position is the bad token's start, which may itself be a string
// running over lines, so any '"' after the first error counts); and a
// duplicate tag key, which the harness's rule makes a bad input, not a bad
// line.
func decodeLines(text []byte, prec lineprotocol.Precision, def int64) ([]point, int, bool) {
	dec := lineprotocol.NewDecoderWithBytes(text)
	var ps []point
	bad := 0
	for dec.Next() {
		p, err := decodePoint(dec, prec, def)
		var de *lineprotocol.DecodeError
		switch {
		case err == nil:
			ps = append(ps, p)
		case errors.As(err, &de):
			if bad == 0 && bytes.IndexByte(text[offsetOf(text, de.Line, de.Column):], '"') >= 0 {
				return nil, 0, false
			}
			bad++
		default:
			return nil, 0, false
		}
	}
	return ps, bad, true
}

// offsetOf: the byte offset of a 1-based line and column in text (its end
// if past it).
func offsetOf(text []byte, line int64, col int) int {
	off := 0
	for l := int64(1); l < line; l++ {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	if off += col - 1; off > len(text) || col < 1 {
		return len(text)
	}
	return off
}

// deviates: the input may hold one of the deliberate differences of
// docs/lp.md, which the corpus and test_lp cover: \n \r \t in a string
// value (the Go decoder turns them into control bytes, mote keeps them as
// written), '_' between digits and hex floats (Go's strconv.ParseFloat
// takes them, mote does not).
func deviates(in []byte) bool {
	return bytes.Contains(in, []byte("\\n")) || bytes.Contains(in, []byte("\\r")) ||
		bytes.Contains(in, []byte("\\t")) || digitSep.Match(in) || hexFloat.Match(in)
}

func writePoints(w *bufio.Writer, ps []point) {
	fmt.Fprintf(w, "points %d\n", len(ps))
	for _, p := range ps {
		fmt.Fprintf(w, "point %s\n", str(p.name))
		for _, t := range p.tags {
			fmt.Fprintf(w, "tag %s %s\n", str(t.k), str(t.v))
		}
		for _, fl := range p.fields {
			fmt.Fprintf(w, "%s\n", fl)
		}
		fmt.Fprintf(w, "time %d\n", p.time)
	}
}

// ---- inputs -----------------------------------------------------------------

// Bytes and pieces that matter to the grammar.
var pieces = []string{
	",", "=", " ", "  ", "\\", "\\ ", "\\,", "\\=", "\\\\", "\"", "\\\"", "\n", "\r", "\r\n",
	"\t", "#", "i", "u", "e", "E", "-", "+", ".", "0", "1", "9", "t", "f", "T", "F", "true",
	"false", "TRUE", "False", "\x00", "\x01", "\x7f", "\x80", "\xff", "\xc3\xa9", "\xe2\x82\xac",
	"\xf0\x9f\x98\x80", "\xed\xa0\x80", "\xc0\xaf", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "18446744073709551615", "18446744073709551616", "1e308", "1e309",
	"-0", "0x1p3", "1_000", "inf", "NaN", "1.", ".5", "5e-324", "2.2250738585072014e-308",
	"123456789012345678901234567890", "a", "b", "m", "x=1", " 1", "=\"s\"", ",t=v",
}

func piece(r *rand.Rand) []byte { return []byte(pieces[r.Intn(len(pieces))]) }

// mutate applies 1-4 random edits to in.
func mutate(r *rand.Rand, in []byte, seeds [][]byte) []byte {
	out := append([]byte(nil), in...)
	for n := 1 + r.Intn(4); n > 0; n-- {
		at := 0
		if len(out) > 0 {
			at = r.Intn(len(out) + 1)
		}
		switch r.Intn(7) {
		case 0, 1: // insert a piece
			out = append(out[:at], append(piece(r), out[at:]...)...)
		case 2: // replace a byte by a piece
			if at < len(out) {
				out = append(out[:at], append(piece(r), out[at+1:]...)...)
			}
		case 3: // delete a run
			if at < len(out) {
				k := 1 + r.Intn(4)
				if at+k > len(out) {
					k = len(out) - at
				}
				out = append(out[:at], out[at+k:]...)
			}
		case 4: // repeat a run
			if at < len(out) {
				k := 1 + r.Intn(8)
				if at+k > len(out) {
					k = len(out) - at
				}
				run := append([]byte(nil), out[at:at+k]...)
				out = append(out[:at], append(run, out[at:]...)...)
			}
		case 5: // join another input as a line after this one
			out = append(append(out, '\n'), seeds[r.Intn(len(seeds))]...)
		case 6: // a random byte
			if at < len(out) {
				out[at] = byte(r.Intn(256))
			}
		}
	}
	return out
}

var (
	digitSep = regexp.MustCompile(`[0-9]_[0-9]`)
	hexFloat = regexp.MustCompile(`0[xX][0-9a-fA-F.]*[pP]`)
)

func pick(r *rand.Rand, xs ...string) string { return xs[r.Intn(len(xs))] }

func name(r *rand.Rand, key bool) string {
	base := pick(r, "cpu", "m", "host", "region", "usage_idle", "a", "k", "measurement_name_that_is_long",
		"h\xc3\xa9", "t0", "x", "value")
	switch r.Intn(6) {
	case 0:
		return base + pick(r, "\\ ", "\\,", "\\=", "\\\\", "\\x", "=") + base
	case 1:
		if key {
			return base + pick(r, "\\ ", "\\,", "\\=")
		}
	}
	return base
}

func value(r *rand.Rand) string {
	switch r.Intn(6) {
	case 0:
		return strconv.FormatInt(r.Int63()>>uint(r.Intn(63))-r.Int63()>>uint(r.Intn(63)), 10) + "i"
	case 1:
		return strconv.FormatUint(r.Uint64()>>uint(r.Intn(64)), 10) + "u"
	case 2:
		return pick(r, "t", "T", "true", "True", "TRUE", "f", "F", "false", "False", "FALSE")
	case 3:
		return "\"" + pick(r, "", "s", "a b", "x,y=z", "\\\"q\\\"", "back\\\\slash", "line\nbreak",
			"caf\xc3\xa9", "\\", "\\x", "=,") + "\""
	default:
		f := pick(r, "%g", "%e", "%.3f", "%.17g", "%.0f", "%E")
		x := math.Float64frombits(r.Uint64())
		if r.Intn(2) == 0 {
			x = r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			x = 1.5
		}
		return fmt.Sprintf(f, x)
	}
}

// line builds one line from the grammar's parts, mostly valid.
func line(r *rand.Rand) string {
	var sb strings.Builder
	sb.WriteString(name(r, false))
	for i := r.Intn(4); i > 0; i-- {
		sb.WriteString("," + name(r, true) + "=" + name(r, true))
	}
	sb.WriteString(pick(r, " ", " ", "  "))
	for i := 1 + r.Intn(4); i > 0; i-- {
		sb.WriteString(name(r, true) + "=" + value(r))
		if i > 1 {
			sb.WriteString(",")
		}
	}
	switch r.Intn(4) {
	case 0:
	case 1:
		sb.WriteString(" " + strconv.FormatInt(r.Int63()>>uint(r.Intn(63)), 10))
	case 2:
		sb.WriteString(" -" + strconv.FormatInt(r.Int63()>>uint(r.Intn(63)), 10))
	case 3:
		sb.WriteString(pick(r, " 9223372036854775807", " -9223372036854775808", " 9223372036854775808",
			" 1", " 0", "  1234  "))
	}
	return sb.String()
}

// ---- encode cases -------------------------------------------------------

// Bytes for names and string values: the ones the writer escapes or
// refuses, and UTF-8 good and bad.
var nameBytes = []string{"a", "b", "z", "0", "_", "-", ".", " ", ",", "=", "\\", "\"", "#", "'",
	"\x00", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xff", "\xc3", "\xed\xa0\x80"}

func rawName(r *rand.Rand) []byte {
	var b []byte
	for i := r.Intn(6); i >= 0; i-- {
		if r.Intn(3) == 0 {
			b = append(b, nameBytes[r.Intn(len(nameBytes))]...)
		} else {
			b = append(b, byte('a'+r.Intn(26)))
		}
	}
	return b
}

// floatValue: random bits (finite), round decimals, powers of ten, and the
// values where the 'g' format changes form.
func floatValue(r *rand.Rand) float64 {
	for {
		var x float64
		switch r.Intn(5) {
		case 0:
			x = math.Float64frombits(r.Uint64())
		case 1:
			x = float64(r.Int63n(2000000)-1000000) / math.Pow(10, float64(r.Intn(12)))
		case 2:
			x = math.Pow(10, float64(r.Intn(50)-25)) * (1 + float64(r.Intn(9)))
		case 3: // where the format changes: %e or not, 2 or 3 exponent digits, the ends
			x = []float64{1e100, 1e-100, 1.5e100, 9.999e99, 1e99, 1e-99, 1e21, 1e20, 123456,
				1234567, 1e-4, 1e-5, 0.00012345, 5e-324, math.MaxFloat64, 2.2250738585072014e-308,
				0.1, 1, 0}[r.Intn(19)]
			if r.Intn(2) == 0 {
				x = -x
			}
		default:
			x = r.NormFloat64() * math.Pow(2, float64(r.Intn(2100)-1075))
		}
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			return x
		}
	}
}

// encodeCase writes one point through the reference encoder: the record,
// with its output or "error".
func encodeCase(r *rand.Rand, w *bufio.Writer, seen map[string]bool) bool {
	prec := precs[r.Intn(len(precs))]
	name := rawName(r)
	if len(name) > 0 && name[0] == '#' {
		// Go writes it; mote refuses it (the line would read back as a
		// comment: docs/lp.md).
		return false
	}
	var keys []string
	tags := map[string][]byte{}
	for i := r.Intn(4); i > 0; i-- {
		k := rawName(r)
		if _, dup := tags[string(k)]; !dup {
			keys = append(keys, string(k))
			tags[string(k)] = rawName(r)
		}
	}
	sort.Strings(keys) // the reference encoder wants tag keys in order
	var e lineprotocol.Encoder
	e.SetPrecision(prec)
	e.StartLineRaw(name)
	var rec []string
	rec = append(rec, "point "+str(name))
	for _, k := range keys {
		e.AddTagRaw([]byte(k), tags[k])
		rec = append(rec, "tag "+str([]byte(k))+" "+str(tags[k]))
	}
	for i := 1 + r.Intn(4); i > 0; i-- {
		k := rawName(r)
		var v lineprotocol.Value
		var val string
		switch r.Intn(5) {
		case 0, 1:
			f := floatValue(r)
			v = lineprotocol.MustNewValue(f)
			val = fmt.Sprintf("float %016x", math.Float64bits(f))
		case 2:
			n := r.Int63() >> uint(r.Intn(63))
			if r.Intn(2) == 0 {
				n = -n - int64(r.Intn(2))
			}
			v = lineprotocol.MustNewValue(n)
			val = "int " + strconv.FormatInt(n, 10)
		case 3:
			u := r.Uint64() >> uint(r.Intn(64))
			v = lineprotocol.MustNewValue(u)
			val = "uint " + strconv.FormatUint(u, 10)
		default:
			if r.Intn(3) == 0 {
				b := r.Intn(2) == 0
				v = lineprotocol.MustNewValue(b)
				val = "bool " + strconv.FormatBool(b)
			} else {
				sv := rawName(r)
				if bytes.ContainsAny(sv, "\n\r\t") || !utf8.Valid(sv) {
					// Go writes \n \r \t as escapes InfluxDB reads back
					// as a backslash and a letter; mote writes them raw
					// (docs/lp.md). Go's NewValue refuses bad UTF-8.
					return false
				}
				v = lineprotocol.MustNewValue(string(sv))
				val = "string " + str(sv)
			}
		}
		e.AddFieldRaw(k, v)
		rec = append(rec, "field "+str(k)+" "+val)
	}
	t := r.Int63() >> uint(r.Intn(63))
	if r.Intn(2) == 0 {
		t = -t
	}
	// A multiple of the precision, so that the line reads back as the point
	// (the harness checks that round trip).
	t = t / precNs[prec] * precNs[prec]
	e.EndLine(time.Unix(0, t))
	rec = append(rec, "time "+strconv.FormatInt(t, 10))
	if e.Err() != nil {
		if r.Intn(4) != 0 { // as for decode: one refused point in four is kept
			return false
		}
		rec = append(rec, "error")
	} else {
		rec = append(rec, "output "+str(bytes.TrimSuffix(e.Bytes(), []byte("\n"))))
	}
	body := strings.Join(rec, "\n")
	h := sha256.Sum256([]byte(precName[prec] + " " + body))
	key := hex.EncodeToString(h[:16])
	if seen[key] {
		return false
	}
	seen[key] = true
	fmt.Fprintf(w, "encode %s %s\n%s\nend\n", key, precName[prec], body)
	return true
}

func main() {
	corpus := flag.String("corpus", "tests/data/lp/corpus.txt", "seed inputs (corpus.txt format)")
	// (the defaults make the committed reference_cases.txt)
	n := flag.Int("n", 2000, "decode cases")
	nenc := flag.Int("encode", 1200, "encode cases")
	nlines := flag.Int("lines", 600, "recovery cases (good lines among bad ones)")
	seed := flag.Int64("seed", 1, "random seed")
	flag.Parse()

	f, err := os.Open(*corpus)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var seeds [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if t := sc.Text(); strings.HasPrefix(t, "input ") {
			seeds = append(seeds, unstr(t[len("input "):]))
		}
	}
	f.Close()
	if len(seeds) == 0 {
		fmt.Fprintln(os.Stderr, "no inputs in", *corpus)
		os.Exit(1)
	}

	r := rand.New(rand.NewSource(*seed))
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "# line-protocol cases judged by github.com/influxdata/line-protocol/v2 v2.2.1\n")
	fmt.Fprintf(w, "# (tests/gen/lp_reference_go, -seed %d -n %d -lines %d -encode %d; format:\n", *seed, *n,
		*nlines, *nenc)
	fmt.Fprintf(w, "# tests/gen/lp_corpus.py; a \"lines\" case lists the points of the good lines)\n")
	// Default times whose rounding down to the precision stays in int64
	// (beyond it Go's UnixNano is undefined).
	defs := []int64{0, corpusDefaultTime, 1603976386428616285, -1, -1603976386428616285, math.MaxInt64}
	seen := map[string]bool{}
	for made := 0; made < *n; {
		var in []byte
		switch k := r.Intn(10); {
		case k < 5:
			in = mutate(r, seeds[r.Intn(len(seeds))], seeds)
		case k < 8:
			var lines []string
			for i := 1 + r.Intn(3); i > 0; i-- {
				lines = append(lines, line(r))
			}
			in = []byte(strings.Join(lines, pick(r, "\n", "\n", "\r\n", "\n\n", "\n#c\n")))
		default:
			in = mutate(r, []byte(line(r)), seeds)
		}
		prec := precs[0]
		def := int64(corpusDefaultTime)
		if r.Intn(4) == 0 {
			prec = precs[r.Intn(len(precs))]
			def = defs[r.Intn(len(defs))]
		}
		if deviates(in) {
			continue
		}
		h := sha256.Sum256([]byte(fmt.Sprintf("%s %d %q", precName[prec], def, in)))
		key := hex.EncodeToString(h[:16])
		if seen[key] {
			continue
		}
		ps, ok := decode(in, prec, def)
		// Rejected inputs test less (any bad line of mote's passes): one in
		// four is kept.
		if !ok && r.Intn(4) != 0 {
			continue
		}
		seen[key] = true
		made++
		fmt.Fprintf(w, "decode %s %s %d\ninput %s\n", key, precName[prec], def, str(in))
		if !ok {
			fmt.Fprintf(w, "error\nend\n")
			continue
		}
		writePoints(w, ps)
		fmt.Fprintf(w, "end\n")
	}
	// Recovery: inputs of 2 to 6 lines, some bad, and the points of the good
	// ones, which mote must keep whatever the bad lines around them.
	for made := 0; made < *nlines; {
		var parts [][]byte
		for i := 2 + r.Intn(5); i > 0; i-- {
			switch r.Intn(3) {
			case 0:
				parts = append(parts, seeds[r.Intn(len(seeds))])
			case 1:
				parts = append(parts, []byte(line(r)))
			default:
				parts = append(parts, mutate(r, []byte(line(r)), seeds))
			}
		}
		in := bytes.Join(parts, []byte("\n"))
		if deviates(in) {
			continue
		}
		ps, bad, ok := decodeLines(in, lineprotocol.Nanosecond, corpusDefaultTime)
		if !ok || bad == 0 || len(ps) == 0 { // (all good or all bad: the decode cases)
			continue
		}
		h := sha256.Sum256([]byte(fmt.Sprintf("lines %q", in)))
		key := hex.EncodeToString(h[:16])
		if seen[key] {
			continue
		}
		seen[key] = true
		made++
		fmt.Fprintf(w, "lines %s ns %d\ninput %s\n", key, int64(corpusDefaultTime), str(in))
		writePoints(w, ps)
		fmt.Fprintf(w, "end\n")
	}
	for made := 0; made < *nenc; {
		if encodeCase(r, w, seen) {
			made++
		}
	}
}
