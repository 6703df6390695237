#!/usr/bin/env python3
"""Independent check of tests/data/cql_golden.tsv (standard library only).

Parses every data line's TYPE and LITERAL by the rules in cql_golden.md and
encodes the value by Cassandra's rules, written from the Cassandra source and
the protocol spec, not from either client. Then:
  - lines marked `py,go` or `cassandra` must match (HEX `-`: must be refused);
  - lines marked `py!` / `go!` (each client's variant where they disagree;
    one of them may well equal Cassandra's) are only parsed, not compared.
This is a third opinion on the bytes, and a check that every LITERAL follows
the documented literal rules. Floats are parsed through a double and then
narrowed, which is exact for the literals in the file (they are chosen to
round-trip; the Go client parses straight to float32 and agrees).

Usage: python3 tests/gen/cql_golden_check.py [tests/data/cql_golden.tsv]
"""

import datetime
import decimal
import ipaddress
import math
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


class T:
    def __init__(self, name):
        self.name, self.args, self.dim = name, [], 0


def parse_type(s):
    """CQL type text -> T tree (frozen<> dropped: same bytes)."""
    toks = re.findall(r"[<>,]|[^<>, ]+", s)
    pos = 0

    def parse():
        nonlocal pos
        t = T(toks[pos].lower())
        pos += 1
        if pos < len(toks) and toks[pos] == "<":
            pos += 1
            while True:
                if t.name == "vector" and len(t.args) == 1:
                    t.dim = int(toks[pos])
                    pos += 1
                else:
                    t.args.append(parse())
                pos += 1
                if toks[pos - 1] == ">":
                    break
                if toks[pos - 1] != ",":
                    raise ValueError("bad type " + s)
        return t.args[0] if t.name == "frozen" else t

    t = parse()
    if pos != len(toks):
        raise ValueError("bad type " + s)
    return t


class Refused(Exception):
    pass


FIXED = {"boolean": 1, "int": 4, "float": 4, "bigint": 8, "double": 8,
         "timestamp": 8, "uuid": 16, "timeuuid": 16}
INT_BITS = {"tinyint": 8, "smallint": 16, "int": 32, "bigint": 64, "counter": 64}


def fixed_len(t):
    if t.name in FIXED:
        return FIXED[t.name]
    if t.name == "vector":
        e = fixed_len(t.args[0])
        return None if e is None else e * t.dim
    return None


def uvint(n):
    extra = 0
    while extra < 8 and n >= 1 << (7 * (extra + 1)):
        extra += 1
    body = n.to_bytes(extra + 1, "big")
    return bytes([((0xff00 >> extra) & 0xff) | body[0]]) + body[1:]


def svint(n):
    return uvint((n << 1) ^ (n >> 63) if n < 0 else n << 1)


def varint_bytes(n):
    length = 1
    while not -(1 << (8 * length - 1)) <= n < (1 << (8 * length - 1)):
        length += 1
    return n.to_bytes(length, "big", signed=True)


class P:
    """Type-directed parser for one literal."""

    def __init__(self, s):
        self.s, self.i = s, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == " ":
            self.i += 1

    def peek(self, lit):
        self.ws()
        return self.s.startswith(lit, self.i)

    def eat(self, lit):
        if not self.peek(lit):
            raise ValueError("expected %r at %d in %r" % (lit, self.i, self.s[:80]))
        self.i += len(lit)

    def match(self, rx):
        self.ws()
        m = re.compile(rx).match(self.s, self.i)
        if not m:
            raise ValueError("no %s at %d in %r" % (rx, self.i, self.s[self.i:self.i + 40]))
        self.i = m.end()
        return m.group(0)

    def quoted(self):
        self.ws()
        if self.s[self.i] != "'":
            raise ValueError("expected quote")
        j, out = self.i + 1, []
        while True:
            k = self.s.index("'", j)
            out.append(self.s[j:k])
            if self.s.startswith("''", k):
                out.append("'")
                j = k + 2
                continue
            self.i = k + 1
            return "".join(out)

    def seq(self, open_, close, item):
        self.eat(open_)
        out = []
        if self.peek(close):
            self.eat(close)
            return out
        while True:
            out.append(item(len(out)))
            if self.peek(","):
                self.eat(",")
                continue
            self.eat(close)
            return out

    def value(self, t):
        """Returns the element's bytes, or None for null."""
        if self.peek("null") and not t.name.startswith(("text", "varchar", "ascii")):
            self.eat("null")
            return None
        n = t.name
        if n == "boolean":
            return b"\x01" if self.match(r"true|false") == "true" else b"\x00"
        if n in INT_BITS:
            v = int(self.match(r"-?[0-9]+"))
            b = INT_BITS[n]
            if not -(1 << (b - 1)) <= v < (1 << (b - 1)):
                raise ValueError("out of range")
            return v.to_bytes(b // 8, "big", signed=True)
        if n == "varint":
            return varint_bytes(int(self.match(r"-?[0-9]+")))
        if n in ("float", "double"):
            s = self.match(r"NaN|-?Infinity|-?[0-9]+(\.[0-9]+)?(e[+-][0-9]+)?")
            x = float(s.replace("Infinity", "inf"))
            if n == "float":
                return b"\x7f\xc0\x00\x00" if math.isnan(x) else struct.pack(">f", x)
            # Java's Double.NaN
            return bytes.fromhex("7ff8000000000000") if math.isnan(x) else struct.pack(">d", x)
        if n == "decimal":
            d = decimal.Decimal(self.match(r"-?[0-9]+(\.[0-9]+)?(E[+-][0-9]+)?"))
            sign, digits, exp = d.as_tuple()
            u = int("".join(map(str, digits))) * (-1 if sign else 1)
            return struct.pack(">i", -exp) + varint_bytes(u)
        if n in ("text", "varchar", "ascii"):
            if self.peek("null"):
                self.eat("null")
                return None
            s = self.quoted()
            if n == "ascii" and any(ord(c) > 0x7f for c in s):
                raise Refused("ascii: non-ASCII character")
            return s.encode("utf-8")
        if n == "blob":
            return bytes.fromhex(self.match(r"0x[0-9a-f]*")[2:])
        if n in ("uuid", "timeuuid"):
            return bytes.fromhex(self.match(
                r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}").replace("-", ""))
        if n == "inet":
            a = ipaddress.ip_address(self.quoted())
            if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped:
                a = a.ipv4_mapped  # Java's InetAddress gives an Inet4Address
            return a.packed
        if n == "date":
            d = datetime.date.fromisoformat(self.quoted())
            return struct.pack(">I", (d - datetime.date(1970, 1, 1)).days + (1 << 31))
        if n == "time":
            m = re.fullmatch(r"([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{9})", self.quoted())
            h, mi, s, f = (int(g) for g in m.groups())
            return struct.pack(">q", ((h * 60 + mi) * 60 + s) * 10**9 + f)
        if n == "timestamp":
            return struct.pack(">q", int(self.match(r"-?[0-9]+")))
        if n == "duration":
            s = self.match(r"-?([0-9]+mo)?([0-9]+d)?([0-9]+ns)?")
            m = re.fullmatch(r"(-?)(?:([0-9]+)mo)?(?:([0-9]+)d)?(?:([0-9]+)ns)?", s)
            sg = -1 if m.group(1) else 1
            mo, d, ns = (sg * int(g or 0) for g in m.groups()[1:])
            return svint(mo) + svint(d) + svint(ns)
        if n in ("list", "set", "vector", "map"):
            if n == "map":
                def item(_):
                    k = self.value(t.args[0])
                    self.eat(":")
                    return (k, self.value(t.args[1]))
                items = self.seq("{", "}", item)
            else:
                o, c = ("{", "}") if n == "set" else ("[", "]")
                items = self.seq(o, c, lambda _: self.value(t.args[0]))
            flat = [x for it in items for x in (it if n == "map" else (it,))]
            if any(x is None for x in flat):
                raise Refused("null is not supported inside collections")
            if n == "vector":
                if len(items) != t.dim:
                    raise ValueError("dimension")
                if fixed_len(t.args[0]) is not None:
                    return b"".join(items)
                return b"".join(uvint(len(x)) + x for x in items)
            return struct.pack(">i", len(items)) + b"".join(
                struct.pack(">i", len(x)) + x for x in flat)
        if n == "tuple":
            items = self.seq("(", ")", lambda k: self.value(t.args[k]))
            if len(items) != len(t.args):
                raise ValueError("tuple arity")
            return b"".join(b"\xff\xff\xff\xff" if x is None else struct.pack(">i", len(x)) + x
                            for x in items)
        raise ValueError("type " + n)


def encode(ty, lit):
    p = P(lit)
    b = p.value(parse_type(ty))
    p.ws()
    if p.i != len(lit):
        raise ValueError("trailing text in literal")
    if b is None:
        raise ValueError("top-level null")
    return b.hex()


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.dirname(HERE)), "tests", "data", "cql_golden.tsv")
    passed = failed = 0
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            ty, lit, hexs, clients = line.split("\t")
            try:
                got = encode(ty, lit)
            except Refused:
                got = "-"
            if clients.endswith("!"):
                continue
            if got == hexs:
                passed += 1
            else:
                failed += 1
                print("line %d (%s %s, %s): expected %s, reference gives %s" % (
                    no, ty, lit[:60], clients, hexs[:80], got[:80]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
