#!/usr/bin/env python3
"""Generate tests/data/cql_golden.tsv: CQL collection values encoded by real clients.

Clients:
  py  the Python cassandra-driver (PyPI), cassandra.cqltypes ... .serialize(v, 4)
  go  the Apache Cassandra Go driver (github.com/apache/cassandra-gocql-driver/v2,
      the continuation of gocql), gocql.Marshal, via tests/gen/cql_golden_go

Every case is defined once, here, as (CQL type text, value in the interchange
form below). This script derives the cqlsh literal, asks both clients for the
bytes, compares them, and writes one line per case, or, where the clients
disagree, one line per client (marked `py!` / `go!`) plus a line for what the
Cassandra server does (`cassandra`), decided by a rule documented in
tests/data/cql_golden.md. A disagreement without a rule stops the generator.

Interchange form of a value (JSON), by CQL type:
  null                      JSON null
  boolean                   true / false
  tinyint..bigint, counter, varint, time (ns), timestamp (ms)
                            decimal integer as a string
  float, double             the literal text ("1.5", "NaN", "Infinity", "-Infinity")
  decimal                   [unscaled integer string, scale string]
  text, varchar, ascii      the string
  blob                      lowercase hex string (no 0x)
  uuid, timeuuid, inet      the text form
  date                      "YYYY-MM-DD"
  duration                  [months, days, nanoseconds] as strings
  list, set, vector, tuple  JSON array of element values
  map                       JSON array of [key, value] pairs, in literal order

Usage: python3 tests/gen/cql_golden.py [--out tests/data/cql_golden.tsv]
       (needs cassandra-driver importable and `go` on PATH; see tests/gen/README.md)
"""

import argparse
import datetime
import decimal
import json
import math
import os
import struct
import subprocess
import sys
import uuid

import cassandra
from cassandra import cqltypes, util

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROTO = 4

# --------------------------------------------------------------------------
# CQL type text -> tree


class T:
    def __init__(self, name, args=(), dim=0):
        self.name, self.args, self.dim = name, list(args), dim

    def __repr__(self):
        return "T(%r, %r, %r)" % (self.name, self.args, self.dim)


def parse_type(s, keep_frozen=False):
    pos = 0

    def skip():
        nonlocal pos
        while pos < len(s) and s[pos] == " ":
            pos += 1

    def ident():
        nonlocal pos
        skip()
        st = pos
        while pos < len(s) and s[pos] not in "<>, ":
            pos += 1
        return s[st:pos]

    def parse():
        nonlocal pos
        t = T(ident().lower())
        skip()
        if pos < len(s) and s[pos] == "<":
            pos += 1
            while True:
                if t.name == "vector" and len(t.args) == 1:
                    t.dim = int(ident())
                else:
                    t.args.append(parse())
                skip()
                if s[pos] == ",":
                    pos += 1
                    continue
                assert s[pos] == ">", s
                pos += 1
                break
        return t.args[0] if t.name == "frozen" and not keep_frozen else t

    t = parse()
    skip()
    assert pos == len(s), s
    return t


CLASS = {
    "ascii": "AsciiType", "bigint": "LongType", "blob": "BytesType",
    "boolean": "BooleanType", "counter": "CounterColumnType",
    "date": "SimpleDateType", "decimal": "DecimalType", "double": "DoubleType",
    "duration": "DurationType", "float": "FloatType", "inet": "InetAddressType",
    "int": "Int32Type", "smallint": "ShortType", "text": "UTF8Type",
    "varchar": "VarcharType", "time": "TimeType", "timestamp": "TimestampType",
    "timeuuid": "TimeUUIDType", "tinyint": "ByteType", "uuid": "UUIDType",
    "varint": "IntegerType",
}


def class_name(t):
    """Cassandra marshal class form, as the Python driver's lookup_casstype wants."""
    if t.name == "vector":
        return "VectorType(%s, %d)" % (class_name(t.args[0]), t.dim)
    if t.name in ("list", "set", "map", "tuple"):
        kind = {"list": "ListType", "set": "SetType", "map": "MapType",
                "tuple": "TupleType"}[t.name]
        return "%s(%s)" % (kind, ", ".join(class_name(a) for a in t.args))
    return CLASS[t.name]


MARSHAL = "org.apache.cassandra.db.marshal."


def java_name(t, ignore_freezing=False):
    """The type's name as Cassandra's AbstractType.toString() spells it
    (Cassandra 5.0): package-qualified classes; collection parameters joined
    with "," (TypeParser.stringifyTypeParameters); a frozen collection wrapped
    in FrozenType(...) unless an enclosing frozen type already is
    (ignoreFreezing); tuples never wrapped and their fields spelled with
    ignoreFreezing; vector as VectorType(ELEM , DIM) with " , "
    (TypeParser.stringifyVectorParameters) and the element frozen.
    `t` comes from parse_type(..., keep_frozen=True)."""
    n = t.name
    if n == "frozen":
        inner = t.args[0]
        if inner.name in ("list", "set", "map"):
            body = java_name(inner, True)
            return body if ignore_freezing else MARSHAL + "FrozenType(" + body + ")"
        return java_name(inner, ignore_freezing)
    if n in ("list", "set", "map"):
        kind = {"list": "ListType", "set": "SetType", "map": "MapType"}[n]
        return MARSHAL + kind + "(" + ",".join(java_name(a, ignore_freezing) for a in t.args) + ")"
    if n == "tuple":
        return MARSHAL + "TupleType(" + ",".join(java_name(a, True) for a in t.args) + ")"
    if n == "vector":
        el = t.args[0]
        if el.name in ("list", "set", "map"):
            el = T("frozen", [el])
        return MARSHAL + "VectorType(%s , %d)" % (java_name(el, ignore_freezing), t.dim)
    return MARSHAL + {"varchar": "UTF8Type"}.get(n, CLASS[n])


# --------------------------------------------------------------------------
# literals (cqlsh syntax; exact rules in tests/data/cql_golden.md)


def f32_bits(x):
    try:
        return struct.unpack(">I", struct.pack(">f", x))[0]
    except OverflowError:  # beyond float32 range: matches nothing
        return None


def float_lit_from_float(x, single):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if not single:
        return repr(x)
    b = f32_bits(x)
    for p in range(1, 10):
        s = "%.*g" % (p, x)
        if f32_bits(float(s)) == b:
            return repr(float(s))
    raise AssertionError(x)


def F32(x):
    """A float value given as a Python float that float32 holds exactly."""
    xf = struct.unpack(">f", struct.pack(">f", x))[0]
    assert math.isnan(x) or xf == x, ("not a float32", x)
    return float_lit_from_float(xf, True)


def F32BITS(b):
    return F32(struct.unpack(">f", struct.pack(">I", b))[0])


def F64(x):
    return float_lit_from_float(x, False)


def F64BITS(b):
    return F64(struct.unpack(">d", struct.pack(">Q", b))[0])


def dec_value(v):
    unscaled, scale = int(v[0]), int(v[1])
    sign = 1 if unscaled < 0 else 0
    digits = tuple(int(c) for c in str(abs(unscaled)))
    return decimal.Decimal((sign, digits, -scale))


def time_lit(ns):
    s, f = divmod(ns, 10**9)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return "'%02d:%02d:%02d.%09d'" % (h, m, s, f)


def duration_lit(m, d, n):
    vals = (m, d, n)
    neg = any(v < 0 for v in vals)
    assert not (neg and any(v > 0 for v in vals)), "mixed-sign duration"
    parts = ["%d%s" % (abs(v), u) for v, u in zip(vals, ("mo", "d", "ns")) if v]
    return ("-" if neg else "") + ("".join(parts) if parts else "0ns")


def quote(s):
    return "'" + s.replace("'", "''") + "'"


def literal(t, v):
    if v is None:
        return "null"
    n = t.name
    if n == "boolean":
        return "true" if v else "false"
    if n in ("tinyint", "smallint", "int", "bigint", "counter", "varint",
             "timestamp"):
        return str(int(v))
    if n in ("float", "double"):
        return v
    if n == "decimal":
        return str(dec_value(v))
    if n in ("text", "varchar", "ascii", "inet", "date"):
        return quote(v)
    if n == "blob":
        return "0x" + v
    if n in ("uuid", "timeuuid"):
        return v
    if n == "time":
        return time_lit(int(v))
    if n == "duration":
        return duration_lit(*(int(x) for x in v))
    if n in ("list", "vector"):
        return "[" + ", ".join(literal(t.args[0], e) for e in v) + "]"
    if n == "set":
        return "{" + ", ".join(literal(t.args[0], e) for e in v) + "}"
    if n == "map":
        return "{" + ", ".join("%s: %s" % (literal(t.args[0], k), literal(t.args[1], x))
                               for k, x in v) + "}"
    if n == "tuple":
        return "(" + ", ".join(literal(a, e) for a, e in zip(t.args, v)) + ")"
    raise AssertionError(n)


# --------------------------------------------------------------------------
# interchange value -> Python driver value


def py_value(t, v, hashable=False):
    if v is None:
        return None
    n = t.name
    if n == "boolean":
        return bool(v)
    if n in ("tinyint", "smallint", "int", "bigint", "counter", "varint",
             "timestamp"):
        return int(v)
    if n in ("float", "double"):
        return float(v)
    if n == "decimal":
        return dec_value(v)
    if n in ("text", "varchar", "ascii", "inet"):
        return v
    if n == "blob":
        return bytes.fromhex(v)
    if n in ("uuid", "timeuuid"):
        return uuid.UUID(v)
    if n == "date":
        return util.Date(datetime.date.fromisoformat(v))
    if n == "time":
        return util.Time(int(v))
    if n == "duration":
        return util.Duration(*(int(x) for x in v))
    if n in ("list", "set", "vector"):
        out = [py_value(t.args[0], e, True) for e in v]
        return tuple(out) if hashable else out
    if n == "tuple":
        return tuple(py_value(a, e, True) for a, e in zip(t.args, v))
    if n == "map":
        return PairMap([(py_value(t.args[0], k, True), py_value(t.args[1], x))
                        for k, x in v])
    raise AssertionError(n)


class PairMap:
    """A mapping as the driver's MapType.serialize sees it (len + items), kept
    as a list of pairs so that keys equal in Python (0.0 and -0.0) stay
    distinct and literal order is kept."""

    def __init__(self, pairs):
        self.pairs = pairs

    def __len__(self):
        return len(self.pairs)

    def items(self):
        return list(self.pairs)

    def __hash__(self):
        return hash(tuple(self.pairs))


def py_encode(type_text, v, java=None):
    t = parse_type(type_text)
    ct = cqltypes.lookup_casstype(java if java else class_name(t))
    try:
        return ct.serialize(py_value(t, v), PROTO).hex()
    except Exception as e:  # noqa: BLE001 - any refusal is a client behaviour
        return "ERR %s: %s" % (type(e).__name__, e)


def go_encode_all(cases):
    """cases: (type text, value) or (type text, value, class name to hand the
    driver instead of the type text)."""
    gen = os.path.join(HERE, "cql_golden_go")
    # CQL type names are case-insensitive; the Go driver only knows lower case.
    inp = "".join(json.dumps({"id": i, "type": c[0].lower(), "val": c[1],
                              "class": c[2] if len(c) > 2 else ""}) + "\n"
                  for i, c in enumerate(cases))
    out = subprocess.run(["go", "run", "."], cwd=gen, input=inp.encode(),
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    res = {}
    for line in out.splitlines():
        f = line.split("\t")
        res[int(f[0])] = f[1] if f[1] != "ERR" else "ERR " + f[2]
    assert len(res) == len(cases)
    return [res[i] for i in range(len(cases))]


# --------------------------------------------------------------------------
# Cassandra server rules for the cases where the clients disagree.
# Each returns the server's bytes (hex), "-" for "rejected", or None if the
# rule does not apply. The rule names are explained in cql_golden.md.

FIXED = {"boolean": 1, "int": 4, "float": 4, "bigint": 8, "double": 8,
         "timestamp": 8, "uuid": 16, "timeuuid": 16}


def has_null_in_collection(t, v):
    if v is None:
        return False
    n = t.name
    if n in ("list", "set", "vector"):
        return any(e is None or has_null_in_collection(t.args[0], e) for e in v)
    if n == "map":
        return any(k is None or x is None or has_null_in_collection(t.args[0], k)
                   or has_null_in_collection(t.args[1], x) for k, x in v)
    if n == "tuple":
        return any(has_null_in_collection(a, e) for a, e in zip(t.args, v))
    return False


def uvint(n):
    """Cassandra unsigned vint: `extra` leading 1 bits, then the value big-endian."""
    extra = 0
    while extra < 8 and n >= 1 << (7 * (extra + 1)):
        extra += 1
    body = n.to_bytes(extra + 1, "big")
    return bytes([((0xff00 >> extra) & 0xff) | body[0]]) + body[1:]


def rule_null_element(t, v, py, go):
    if has_null_in_collection(t, v):
        return "-"
    return None


def rule_vector_variable_elements(t, v, py, go):
    # Cassandra: an element type without a fixed length (valueLengthIfFixed)
    # gets an unsigned-vint length prefix; counter is such a type.
    if t.name == "vector" and t.args[0].name == "counter":
        return b"".join(uvint(8) + struct.pack(">q", int(e)) for e in v).hex()
    return None


def canonical_nan_double(t, v, py, go):
    # Java's Double.NaN (what Cassandra parses "NaN" to and serializes with
    # putDouble) is 0x7ff8000000000000; Go's strconv gives 0x7ff8000000000001.
    def mentions_nan(tt, vv):
        if vv is None:
            return False
        if tt.name == "double":
            return vv == "NaN"
        if tt.name in ("list", "set", "vector"):
            return any(mentions_nan(tt.args[0], e) for e in vv)
        if tt.name == "map":
            return any(mentions_nan(tt.args[0], k) or mentions_nan(tt.args[1], x) for k, x in vv)
        if tt.name == "tuple":
            return any(mentions_nan(a, e) for a, e in zip(tt.args, vv))
        return False
    if mentions_nan(t, v) and go.replace("7ff8000000000001", "7ff8000000000000") == py:
        return py
    return None


def ipv4_mapped(t, v, py, go):
    # Java's InetAddress turns ::ffff:a.b.c.d into an Inet4Address: 4 bytes.
    if "::ffff:" in json.dumps(v):
        return go
    return None


def ascii_non_ascii(t, v, py, go):
    # AsciiSerializer.validate rejects bytes >= 0x80.
    def bad(tt, vv):
        if vv is None:
            return False
        if tt.name == "ascii":
            return any(ord(c) > 0x7f for c in vv)
        if tt.name in ("list", "set", "vector"):
            return any(bad(tt.args[0], e) for e in vv)
        if tt.name == "map":
            return any(bad(tt.args[0], k) or bad(tt.args[1], x) for k, x in vv)
        if tt.name == "tuple":
            return any(bad(a, e) for a, e in zip(tt.args, vv))
        return False
    return "-" if bad(t, v) else None


RULES = [
    ("null-element", rule_null_element),
    ("vector-variable-length", rule_vector_variable_elements),
    ("nan-double", canonical_nan_double),
    ("inet-v4-mapped", ipv4_mapped),
    ("ascii-range", ascii_non_ascii),
]

# --------------------------------------------------------------------------
# the cases

I8 = ["0", "1", "-1", "127", "-128"]
I16 = ["0", "-1", "256", "32767", "-32768"]
I32 = ["0", "1", "-1", "16909060", "2147483647", "-2147483648"]
I64 = ["0", "-1", "1234567890123", "9223372036854775807", "-9223372036854775808"]
VARINT = ["0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "32767",
          "-32768", "32768", "9223372036854775807", "9223372036854775808",
          "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
          "123456789012345678901234567890", "-123456789012345678901234567890"]
FLOATS = [F32(0.0), F32(-0.0), F32(1.0), F32(-1.5), F32BITS(0x3dcccccd),  # 0.1
          F32BITS(0x40490fdb),  # pi
          F32(16777216.0), F32BITS(0x4b800001),  # 16777218
          F32BITS(0x7f7fffff), F32BITS(0xff7fffff),  # +-FLT_MAX
          F32BITS(0x00800000),  # FLT_MIN (smallest normal)
          F32BITS(0x00000001), F32BITS(0x007fffff),  # subnormals
          F32BITS(0x80000001), F32(1e10), F32BITS(0x3eaaaaab),  # 1/3
          "NaN", "Infinity", "-Infinity"]
DOUBLES = [F64(0.0), F64(-0.0), F64(1.0), F64(0.1), F64(-2.5), F64(1e16),
           F64(1e-5), F64(123456.789), F64(math.pi), F64(1 / 3),
           F64(sys.float_info.max), F64(-sys.float_info.max),
           F64(sys.float_info.min), F64(5e-324),
           F64BITS(0x000fffffffffffff), F64BITS(0x8000000000000001),
           F64(9007199254740993.0), F64(1e22), F64(1e23),
           "Infinity", "-Infinity"]
# NaN is kept out of DOUBLES: the Go driver's NaN differs (see cql_golden.md),
# and the big all-samples lines should stay agreed. NaN gets its own cases.
DECIMALS = [["0", "0"], ["1", "0"], ["15", "1"], ["-1", "3"], ["150", "2"],
            ["1", "-10"], ["0", "10"], ["-128", "0"], ["127", "0"], ["128", "0"],
            ["314159265358979323846264338327950288", "35"],
            ["-123456789012345678901234567890", "5"], ["1", "-2147483648"],
            ["1", "2147483647"]]
TEXTS = ["", "a", "it's", "h\u00e9llo", "\u65e5\u672c\u8a9e", "\U0001F642",
         "''", "[1, 2]", "x" * 200]
ASCIIS = ["", "abc", "it's", " !~", "{'a': 1}"]
BLOBS = ["", "00", "cafe", "00ff00ff", "ff" * 200]
UUIDS = ["00000000-0000-0000-0000-000000000000",
         "123e4567-e89b-12d3-a456-426614174000",
         "550e8400-e29b-41d4-a716-446655440000",
         "ffffffff-ffff-ffff-ffff-ffffffffffff"]
TIMEUUIDS = ["50554d6e-29bb-11e5-b345-feff819cdc9f",
             "00000000-0000-1000-8080-808080808080",
             "d2177dd0-eaa2-11de-a572-001b779c76e3"]
INETS = ["0.0.0.0", "127.0.0.1", "192.168.1.10", "255.255.255.255", "::", "::1",
         "2001:db8::ff00:42:8329", "fe80::1",
         "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]
DATES = ["1970-01-01", "1969-12-31", "2000-01-01", "2024-02-29", "0001-01-01",
         "9999-12-31"]
TIMES = ["0", "1", "45930123456789", "43200000000000", "86399999999999"]
TIMESTAMPS = ["0", "-1", "1700000000000", "-62135596800000", "253402300799999",
              "9223372036854775807", "-9223372036854775808"]
DURATIONS = [["0", "0", "0"], ["1", "2", "3"], ["-1", "-2", "-3"], ["12", "0", "0"],
             ["0", "1", "0"], ["0", "0", "3600000000000"], ["0", "0", "-1"],
             ["0", "0", "63"], ["0", "0", "64"], ["0", "0", "8192"],
             ["2147483647", "2147483647", "9223372036854775807"],
             ["-2147483648", "-2147483648", "-9223372036854775808"]]

NATIVE = [
    ("boolean", [True, False]),
    ("tinyint", I8), ("smallint", I16), ("int", I32), ("bigint", I64),
    ("counter", I64), ("varint", VARINT),
    ("float", FLOATS), ("double", DOUBLES), ("decimal", DECIMALS),
    ("text", TEXTS), ("varchar", TEXTS[:4]), ("ascii", ASCIIS), ("blob", BLOBS),
    ("uuid", UUIDS), ("timeuuid", TIMEUUIDS), ("inet", INETS),
    ("date", DATES), ("time", TIMES), ("timestamp", TIMESTAMPS),
    ("duration", DURATIONS),
]

# Cassandra refuses these as set elements / map keys (not comparable).
NO_SET = {"duration", "counter"}


def build_cases():
    cases = []  # (type text, value, comment)

    def add(ty, v, comment=None):
        cases.append((ty, v, comment))

    cases.append(("#", None, "native types as elements of list, set, map, vector"))
    for name, samples in NATIVE:
        cases.append(("#", None, name))
        add("list<%s>" % name, samples)
        if name not in NO_SET:
            add("set<%s>" % name, samples)
            add("map<%s, int>" % name, [[s, str(i)] for i, s in enumerate(samples)])
        add("map<text, %s>" % name, [["k%d" % i, s] for i, s in enumerate(samples)])
        add("frozen<list<%s>>" % name, samples[:1])
        add("vector<%s, %d>" % (name, len(samples)), samples)
        for s in samples:
            add("vector<%s, 1>" % name, [s])
        add("tuple<%s>" % name, [samples[-1]])
        add("tuple<%s, %s>" % (name, name), [samples[0], None])

    cases.append(("#", None, "empty collections"))
    for ty in ("list<int>", "list<text>", "set<int>", "set<text>", "map<int, text>",
               "map<text, bigint>", "frozen<list<float>>", "frozen<set<uuid>>",
               "frozen<map<text, int>>", "list<frozen<list<int>>>"):
        add(ty, [])
    add("list<frozen<list<int>>>", [[]])
    add("map<text, frozen<list<int>>>", [["", []]])
    add("list<text>", [""])
    add("list<blob>", ["", ""])

    cases.append(("#", None, "nested collections"))
    add("list<frozen<list<int>>>", [["1", "2"], [], ["3"]])
    add("list<list<int>>", [["1"], ["2", "3"]])
    add("set<frozen<set<int>>>", [["1", "2"], ["3"]])
    add("set<frozen<list<text>>>", [["a", "b"], []])
    add("map<text, frozen<list<int>>>", [["a", ["1", "2"]], ["b", []], ["c", ["3"]]])
    add("map<frozen<list<int>>, text>", [[["1", "2"], "x"], [[], "y"]])
    add("map<int, frozen<map<text, int>>>", [["1", [["a", "1"], ["b", "2"]]], ["2", []]])
    add("list<frozen<map<text, bigint>>>", [[["x", "-1"]], []])
    add("map<frozen<set<text>>, frozen<list<double>>>", [[["a"], ["1.5", "-0.0"]]])
    add("list<frozen<list<frozen<list<int>>>>>", [[["1"], []], []])
    add("vector<vector<float, 2>, 2>", [[F32(1.0), F32(2.0)], [F32(3.0), F32(4.0)]])
    add("vector<vector<bigint, 1>, 3>", [["1"], ["-1"], ["0"]])
    add("vector<vector<text, 2>, 2>", [["a", ""], ["bc", "d"]])
    add("vector<frozen<list<int>>, 2>", [["1", "2"], []])
    add("vector<list<int>, 2>", [["7"], ["8", "9"]])
    add("vector<frozen<set<text>>, 1>", [["x", "y"]])
    add("vector<frozen<map<text, int>>, 2>", [[["a", "1"]], []])
    add("vector<text, 3>", ["a", "", "it's"])
    add("list<vector<float, 2>>", [[F32(1.0), F32(-1.0)], [F32(0.5), F32(0.25)]])
    add("set<vector<int, 2>>", [["1", "2"], ["3", "4"]])
    add("map<text, vector<float, 3>>", [["a", [F32(1.0), F32(2.0), F32(3.0)]]])
    add("map<int, vector<text, 2>>", [["1", ["a", "b"]]])

    cases.append(("#", None, "tuples"))
    add("tuple<int, text>", ["1", "x"])
    add("tuple<int, text, boolean>", ["-1", "it's", False])
    add("tuple<int, text>", [None, None])
    add("tuple<int, text>", ["1", None])
    add("tuple<int, frozen<list<text>>, frozen<map<text, int>>>",
        ["1", ["a", "b"], [["k", "2"]]])
    add("tuple<tuple<int, int>, text>", [["1", "2"], "z"])
    add("list<frozen<tuple<int, text>>>", [["1", "a"], ["2", None]])
    add("set<frozen<tuple<bigint, double>>>", [["1", F64(0.5)]])
    add("map<text, frozen<tuple<int, float>>>", [["p", ["3", F32(0.75)]]])
    add("vector<tuple<int, int>, 2>", [["1", "2"], ["3", "4"]])
    add("vector<frozen<tuple<text, int>>, 1>", [["a", "1"]])
    add("frozen<tuple<uuid, inet, date, time, timestamp, duration>>",
        [UUIDS[1], "10.0.0.1", "2024-02-29", "45930123456789", "1700000000000",
         ["1", "2", "3"]])

    cases.append(("#", None, "vector dimensions and vint length prefixes"))
    for d in (1, 2, 3, 4, 16, 100):
        add("vector<float, %d>" % d, [F32((i % 17) * 0.25 - 2.0) for i in range(d)])
    add("vector<float, 768>", [F32(((i * 37) % 101) / 64.0 - 0.75) for i in range(768)])
    add("vector<double, 1536>", [F64(((i * 53) % 211) / 128.0 - 0.5) for i in range(1536)])
    add("vector<int, 1000>", [str(i * 2654435761 % 4294967296 - 2147483648) for i in range(1000)])
    add("vector<bigint, 3>", I64[:3])
    add("vector<boolean, 9>", [i % 3 == 0 for i in range(9)])
    add("vector<uuid, 2>", UUIDS[1:3])
    for n in (0, 1, 127, 128, 255, 16383, 16384, 20000):
        add("vector<blob, 1>", ["ab" * n])
    add("vector<text, 2>", ["x" * 127, "y" * 128])
    add("vector<varint, 3>", ["0", "-1", "18446744073709551615"])
    add("vector<smallint, 4>", ["1", "-1", "32767", "-32768"])
    add("vector<tinyint, 3>", ["0", "127", "-128"])
    add("vector<date, 2>", ["1970-01-01", "2024-02-29"])
    add("vector<time, 2>", ["0", "86399999999999"])
    add("vector<counter, 3>", ["1", "-1", "9223372036854775807"])
    add("vector<decimal, 2>", [["15", "1"], ["-1", "3"]])
    add("vector<inet, 2>", ["127.0.0.1", "::1"])
    add("vector<duration, 2>", [["1", "2", "3"], ["0", "0", "64"]])
    add("vector<ascii, 2>", ["ab", ""])

    cases.append(("#", None, "benchmark shapes (issue 5)"))
    add("list<int>", [str((i * 7919) % 2000003 - 1000001) for i in range(1000)])
    add("list<text>", ["item-%03d" % i for i in range(100)])
    add("map<text, bigint>", [["key%03d" % i, str(i * 1000003 - 50000000)] for i in range(100)])

    cases.append(("#", None, "nulls inside collections (clients disagree; see cql_golden.md)"))
    add("list<int>", ["1", None])
    add("list<text>", [None])
    add("set<int>", [None])
    add("map<text, int>", [["a", None]])
    add("map<text, int>", [["a", "1"], ["b", None]])
    add("list<frozen<list<int>>>", [["1", None]])
    add("vector<float, 2>", [F32(1.0), None])
    add("vector<text, 2>", ["a", None])

    cases.append(("#", None, "other known disagreements"))
    add("list<double>", ["NaN"])
    add("vector<double, 1>", ["NaN"])
    add("map<text, double>", [["nan", "NaN"]])
    add("list<inet>", ["::ffff:1.2.3.4"])
    add("vector<inet, 1>", ["::ffff:192.168.0.1"])
    add("list<ascii>", ["caf\u00e9"])

    cases.append(("#", None, "type text spellings"))
    add("LIST<INT>", ["1"])
    add("map<text,bigint>", [["a", "1"]])
    add("vector<float,3>", [F32(1.0), F32(2.0), F32(3.0)])
    add("frozen<map<text, frozen<set<int>>>>", [["a", ["1"]]])
    return cases


# --------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "data", "cql_golden.tsv"))
    ap.add_argument("--types-out",
                    default=os.path.join(ROOT, "tests", "data", "cql_golden_types.tsv"))
    args = ap.parse_args()

    items = build_cases()
    cases = [(ty, v) for ty, v, _ in items if ty != "#"]
    py = [py_encode(ty, v) for ty, v in cases]
    go = go_encode_all(cases)
    gover = subprocess.run(["go", "list", "-m", "-f", "{{.Version}}",
                            "github.com/apache/cassandra-gocql-driver/v2"],
                           cwd=os.path.join(HERE, "cql_golden_go"),
                           stdout=subprocess.PIPE, check=True).stdout.decode().strip()

    lines = [
        "# Golden CQL value encodings from real clients. GENERATED by tests/gen/cql_golden.py;",
        "# do not edit. Format and rules: tests/data/cql_golden.md.",
        "# py = Python cassandra-driver %s (protocol v%d); go = github.com/apache/"
        "cassandra-gocql-driver/v2 %s (protocol v%d)." % (cassandra.__version__, PROTO, gover, PROTO),
        "# TYPE<TAB>LITERAL<TAB>HEX<TAB>CLIENTS; HEX '-' = refused; CLIENTS 'x!' = that client's",
        "# deviating variant, 'cassandra' = what the Cassandra server does (follow this one).",
    ]
    stats = {"agree": 0, "disagree": 0}
    idx = 0
    for ty, v, comment in items:
        if ty == "#":
            lines.append("# --- %s" % comment)
            continue
        t = parse_type(ty)
        lit = literal(t, v)
        assert "\t" not in lit and "\n" not in lit
        p, g = py[idx], go[idx]
        idx += 1
        if p.startswith("ERR") and g.startswith("ERR"):
            raise SystemExit("both clients refuse %s %s: %s | %s" % (ty, lit, p, g))
        if p == g:
            lines.append("%s\t%s\t%s\tpy,go" % (ty, lit, p))
            stats["agree"] += 1
            continue
        verdict = None
        for rname, rule in RULES:
            verdict = rule(t, v, p, g)
            if verdict is not None:
                break
        if verdict is None:
            raise SystemExit("unexplained disagreement for %s %s:\n py %s\n go %s" % (ty, lit, p, g))
        stats["disagree"] += 1
        lines.append("# disagreement (%s): py %s; go %s" % (
            rname, "refused" if p.startswith("ERR") else "bytes",
            "refused" if g.startswith("ERR") else "bytes"))
        lines.append("%s\t%s\t%s\tpy!" % (ty, lit, "-" if p.startswith("ERR") else p))
        lines.append("%s\t%s\t%s\tgo!" % (ty, lit, "-" if g.startswith("ERR") else g))
        lines.append("%s\t%s\t%s\tcassandra" % (ty, lit, verdict))

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d cases, %d agree, %d disagree" % (args.out, len(cases), stats["agree"],
                                                   stats["disagree"]), file=sys.stderr)
    write_types(args.types_out, cases, py, go)


def write_types(path, cases, py, go):
    """CQL type text -> Cassandra marshal class name. CLIENTS lists the
    clients whose class-name parser accepted it; each of them encoded the
    case's value through it to the same bytes as through the CQL text. A
    client that accepts a class name and encodes differently stops the run."""
    seen, rows = set(), []
    for (ty, v), p, g in zip(cases, py, go):
        if ty in seen or p != g or p.startswith("ERR"):
            continue
        seen.add(ty)
        rows.append((ty, v, java_name(parse_type(ty, keep_frozen=True)), p))
    pj = [py_encode(ty, v, java) for ty, v, java, _ in rows]
    gj = go_encode_all([(ty, v, java) for ty, v, java, _ in rows])
    lines = [
        "# CQL type text and the same type as a Cassandra marshal class name (AbstractType",
        "# .toString() spelling). GENERATED by tests/gen/cql_golden.py; see cql_golden.md.",
        "# CLIENTS: the clients that parsed CLASS_NAME and then encoded the case's value to",
        "# the same bytes as the CQL text does in cql_golden.tsv (go has no FrozenType).",
        "# CQL_TYPE<TAB>CLASS_NAME<TAB>CLIENTS",
    ]
    for (ty, v, java, ref), a, b in zip(rows, pj, gj):
        ok = []
        for name, got in (("py", a), ("go", b)):
            if got.startswith("ERR"):
                continue
            if got != ref:
                raise SystemExit("class name %s: %s gives %s, CQL text %s" % (java, name, got[:80], ref[:80]))
            ok.append(name)
        if "py" not in ok:
            raise SystemExit("class name %s: the Python driver refuses it: %s" % (java, a))
        lines.append("%s\t%s\t%s" % (ty, java, ",".join(ok)))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("%s: %d types" % (path, len(rows)), file=sys.stderr)


if __name__ == "__main__":
    main()
