// cql_golden_go: encode CQL values with the Apache Cassandra Go driver
// (github.com/apache/cassandra-gocql-driver/v2, the continuation of gocql)
// for tests/gen/cql_golden.py.
//
// Input (stdin): one JSON object per line, {"id": N, "type": "list<int>", "val": V}
// where V is the value in the generator's interchange form (see
// cql_golden.py, "interchange form"). The CQL type text is handed to the
// driver's own type parser; this program only walks it to turn V into the
// Go values the driver's Marshal accepts.
//
// Output (stdout): one line per input, "N<TAB>hex" or "N<TAB>ERR<TAB>message".
//
// Go maps iterate in random order, so the driver writes map entries in a
// random order. To keep the output deterministic, every map's entries (at
// any nesting level) are re-ordered to the order of the input (the literal's
// order); the bytes of each entry are the driver's own.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"strings"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	"gopkg.in/inf.v0"
)

const proto = 4

// ---- a small CQL type-text parser (only to know how to build values) ----

type ctype struct {
	name string   // "list", "set", "map", "tuple", "vector", "frozen" or a native name
	args []*ctype // element types
	dim  int      // vector dimension
}

type tparser struct {
	s   string
	pos int
}

func (p *tparser) skip() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *tparser) ident() string {
	p.skip()
	st := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '<' || c == '>' || c == ',' || c == ' ' {
			break
		}
		p.pos++
	}
	return p.s[st:p.pos]
}

func (p *tparser) expect(c byte) {
	p.skip()
	if p.pos >= len(p.s) || p.s[p.pos] != c {
		panic(fmt.Sprintf("type %q: expected %q at %d", p.s, c, p.pos))
	}
	p.pos++
}

func (p *tparser) parse() *ctype {
	t := &ctype{name: strings.ToLower(p.ident())}
	p.skip()
	if p.pos < len(p.s) && p.s[p.pos] == '<' {
		p.pos++
		for {
			if t.name == "vector" && len(t.args) == 1 {
				d, err := strconv.Atoi(p.ident())
				if err != nil {
					panic(err)
				}
				t.dim = d
			} else {
				t.args = append(t.args, p.parse())
			}
			p.skip()
			if p.s[p.pos] == ',' {
				p.pos++
				continue
			}
			p.expect('>')
			break
		}
	}
	if t.name == "frozen" {
		return t.args[0]
	}
	return t
}

// ---- interchange value -> Go value ----

func str(v interface{}) string {
	s, ok := v.(string)
	if !ok {
		panic(fmt.Sprintf("expected string, got %T", v))
	}
	return s
}

func mustInt(s string, bits int) int64 {
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		panic(err)
	}
	return n
}

func goValue(t *ctype, v interface{}) interface{} {
	if v == nil {
		return nil
	}
	switch t.name {
	case "boolean":
		return v.(bool)
	case "tinyint":
		return int8(mustInt(str(v), 8))
	case "smallint":
		return int16(mustInt(str(v), 16))
	case "int":
		return int32(mustInt(str(v), 32))
	case "bigint", "counter":
		return mustInt(str(v), 64)
	case "varint":
		b, ok := new(big.Int).SetString(str(v), 10)
		if !ok {
			panic("bad varint")
		}
		return *b
	case "float":
		// strconv parses straight to float32 precision (no double rounding).
		f, err := strconv.ParseFloat(str(v), 32)
		if err != nil {
			panic(err)
		}
		return float32(f)
	case "double":
		f, err := strconv.ParseFloat(str(v), 64)
		if err != nil {
			panic(err)
		}
		return f
	case "decimal":
		a := v.([]interface{})
		u, ok := new(big.Int).SetString(str(a[0]), 10)
		if !ok {
			panic("bad decimal")
		}
		return *inf.NewDecBig(u, inf.Scale(mustInt(str(a[1]), 32)))
	case "text", "varchar", "ascii":
		return str(v)
	case "blob":
		b, err := hex.DecodeString(str(v))
		if err != nil {
			panic(err)
		}
		return b
	case "uuid", "timeuuid":
		u, err := gocql.ParseUUID(str(v))
		if err != nil {
			panic(err)
		}
		return u
	case "inet":
		return str(v) // the driver parses the address text itself (net.ParseIP)
	case "date":
		return str(v) // 'YYYY-MM-DD', parsed by the driver
	case "time":
		return mustInt(str(v), 64) // nanoseconds since midnight
	case "timestamp":
		return mustInt(str(v), 64) // milliseconds since the epoch
	case "duration":
		a := v.([]interface{})
		return gocql.Duration{
			Months:      int32(mustInt(str(a[0]), 32)),
			Days:        int32(mustInt(str(a[1]), 32)),
			Nanoseconds: mustInt(str(a[2]), 64),
		}
	case "list", "set", "vector":
		a := v.([]interface{})
		out := make([]interface{}, len(a))
		for i := range a {
			out[i] = goValue(t.args[0], a[i])
		}
		return out
	case "tuple":
		a := v.([]interface{})
		out := make([]interface{}, len(a))
		for i := range a {
			out[i] = goValue(t.args[i], a[i])
		}
		return out
	case "map":
		return orderedMap{t: t, pairs: v.([]interface{})}
	}
	panic("unknown type " + t.name)
}

// readBytes reads one [bytes] at p; returns the slice covering it (length
// prefix included) and the next offset.
func readBytes(b []byte, p int) ([]byte, int) {
	n := int(int32(binary.BigEndian.Uint32(b[p:])))
	end := p + 4
	if n > 0 {
		end += n
	}
	return b[p:end], end
}

// orderedMap is a CQL map value that marshals through the driver's own map
// encoder and then puts the entries back into input order (Go map iteration
// is random), matching them by the driver's encoding of each key. Because it
// is a gocql.Marshaler, this happens at every nesting level.
type orderedMap struct {
	t     *ctype
	pairs []interface{}
}

func (om orderedMap) MarshalCQL(info gocql.TypeInfo) ([]byte, error) {
	ci, ok := info.(gocql.CollectionType)
	if !ok {
		return nil, fmt.Errorf("map value for non-map type %v", info)
	}
	// Keys are stored as pointers: every Go value (slices too) can then be a
	// map key, and Marshal dereferences pointers.
	m := make(map[interface{}]interface{}, len(om.pairs))
	for _, e := range om.pairs {
		kv := e.([]interface{})
		k := goValue(om.t.args[0], kv[0])
		var key interface{}
		if k != nil {
			key = &k
		}
		m[key] = goValue(om.t.args[1], kv[1])
	}
	enc, err := ci.Marshal(m)
	if err != nil || len(om.pairs) < 2 {
		return enc, err
	}
	entries := map[string][]byte{}
	p := 4
	for i := 0; i < len(om.pairs); i++ {
		k, np := readBytes(enc, p)
		_, np2 := readBytes(enc, np)
		entries[string(k)] = enc[p:np2]
		p = np2
	}
	if p != len(enc) {
		return nil, fmt.Errorf("map: trailing bytes")
	}
	out := append([]byte(nil), enc[:4]...)
	for _, e := range om.pairs {
		kv := e.([]interface{})
		kb, err := gocql.Marshal(ci.Key, goValue(om.t.args[0], kv[0]))
		if err != nil {
			return nil, err
		}
		var pref [4]byte
		if kb == nil {
			binary.BigEndian.PutUint32(pref[:], 0xffffffff)
		} else {
			binary.BigEndian.PutUint32(pref[:], uint32(len(kb)))
		}
		ent, ok := entries[string(append(pref[:], kb...))]
		if !ok {
			return nil, fmt.Errorf("map: key not found when reordering")
		}
		out = append(out, ent...)
	}
	return out, nil
}

type input struct {
	ID   int             `json:"id"`
	Type string          `json:"type"`
	Val  json.RawMessage `json:"val"`
	// Class, if set, is a Cassandra marshal class name for the same type,
	// handed to the driver instead of Type (Type still guides the value).
	Class string `json:"class"`
}

func encodeOne(in input) (res string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	var v interface{}
	if err := json.Unmarshal(in.Val, &v); err != nil {
		return "", err
	}
	t := (&tparser{s: in.Type}).parse()
	spelled := in.Type
	if in.Class != "" {
		spelled = in.Class
	}
	info := gocql.NewNativeType(proto, gocql.TypeCustom, spelled)
	b, err := gocql.Marshal(info, goValue(t, v))
	if err != nil {
		return "", err
	}
	if b == nil {
		return "", fmt.Errorf("driver returned null")
	}
	return hex.EncodeToString(b), nil
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for sc.Scan() {
		var in input
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		h, err := encodeOne(in)
		if err != nil {
			msg := strings.ReplaceAll(err.Error(), "\t", " ")
			msg = strings.ReplaceAll(msg, "\n", " ")
			fmt.Fprintf(w, "%d\tERR\t%s\n", in.ID, msg)
		} else {
			fmt.Fprintf(w, "%d\t%s\n", in.ID, h)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
