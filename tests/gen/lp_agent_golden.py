#!/usr/bin/env python3
"""Golden data for examples/lp_agent (issue 7).

Writes tests/data/lp_agent/:
  input.lp       line protocol: the points below, written with every escape
                 the grammar has, plus comment, blank, CRLF and bad lines;
  expected.json  the points as the agent must see them (unescaped), and the
                 bad lines (line number, error code);
  expected.rows  the agent's --out bytes for input.lp, serialized here by the
                 Python cassandra-driver (PyPI cassandra-driver 3.30.1):
                 per point five CQL [bytes] cells, measurement text,
                 tags map<text,text>, time timestamp (ms, floor of ns),
                 fields map<text,double>, text_fields map<text,text>.

Needs the driver (pip install cassandra-driver==3.30.1); the tests need only
the committed output. Run from the repository root:
  python3 tests/gen/lp_agent_golden.py
"""
import json
import os
import struct

from cassandra.cqltypes import (DateType, DoubleType, MapType, UTF8Type)

OUT = os.path.join('tests', 'data', 'lp_agent')
PV = 4  # native protocol version: collections use [int] counts from v3 on

# (measurement, [(tag key, value)], [(field key, kind, value)], time ns or None)
POINTS = [
    ('cpu', [('host', 'a'), ('region', 'us west')],
     [('usage_user', 'f', 12.5), ('usage_idle', 'i', 80), ('up', 'b', True)],
     1700000000123456789),
    ('weather', [('loc', 'x')],
     [('temp', 'f', -3.25), ('desc', 's', 'cloudy, "cold"\nsecond line'), ('n', 'u', 7)],
     1700000000000000000),
    ('m,x y', [], [('f', 'f', 1.0)], None),
    ('big', [('t%02d' % i, 'v%d' % i) for i in range(70)],
     [('x', 'i', 1), ('y', 'f', 2.0)], -1500000),
    ('esc', [('k=1', 'v,2 3'), ('\u00fc', '\u211d')],
     [('a b', 'f', 1e300), ('neg', 'i', -9223372036854775808),
      ('u', 'u', 18446744073709551615), ('ok', 'b', False), ('s', 's', 'back\\slash'),
      ('k,=', 'f', 5e-324)],
     -1),
    ('many', [('h', 'x')], [('f%02d' % i, 'i', i) for i in range(70)], 42000000),
]


def esc(s, chars):
    for c in chars:
        s = s.replace(c, '\\' + c)
    return s


def lp_value(kind, v):
    if kind == 'f':
        return repr(v)
    if kind == 'i':
        return '%di' % v
    if kind == 'u':
        return '%du' % v
    if kind == 'b':
        return 'true' if v else 'F'
    return '"' + v.replace('\\', '\\\\').replace('"', '\\"') + '"'


def lp_line(m, tags, fields, t):
    line = esc(m, ', ')
    for k, v in tags:
        line += ',' + esc(k, ',= ') + '=' + esc(v, ',= ')
    line += ' ' + ','.join(esc(k, ',= ') + '=' + lp_value(kind, v) for k, kind, v in fields)
    if t is not None:
        line += ' %d' % t
    return line


def row_bytes(m, tags, fields, t):
    text_map = MapType.apply_parameters([UTF8Type, UTF8Type])
    num_map = MapType.apply_parameters([UTF8Type, DoubleType])
    nums = {k: float(v) for k, kind, v in fields if kind != 's'}
    strs = {k: v for k, kind, v in fields if kind == 's'}
    ns = 0 if t is None else t
    cells = [UTF8Type.serialize(m, PV), text_map.serialize(dict(tags), PV),
             DateType.serialize(ns // 1000000, PV), num_map.serialize(nums, PV),
             text_map.serialize(strs, PV)]
    return b''.join(struct.pack('>i', len(c)) + c for c in cells)


def main():
    lines, bad = [], []
    lines.append('# a comment line, then a blank one')
    lines.append('')
    for i, p in enumerate(POINTS):
        lines.append(lp_line(*p))
        if i == 0:
            lines.append('bad line here')
            bad.append((len(lines) - 1, 'SYNTAX'))
        if i == 2:
            lines.append('m f=1.2.3')
            bad.append((len(lines) - 1, 'BAD_VALUE'))
    # CRLF line ending on the last good line, then a line that is bad only
    # when typed (int out of range).
    lines[-1] += '\r'
    lines.append('m f=9223372036854775808i')
    bad.append((len(lines) - 1, 'RANGE'))
    text = '\n'.join(lines) + '\n'
    # bad[] holds list indexes; a string value may hold a raw newline, so
    # the file's line number counts the newlines before the entry.
    bad = [('\n'.join(lines[:i]).count('\n') + 1 + (i > 0), code) for i, code in bad]
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, 'input.lp'), 'w', encoding='utf-8', newline='') as f:
        f.write(text)
    with open(os.path.join(OUT, 'expected.rows'), 'wb') as f:
        for p in POINTS:
            f.write(row_bytes(*p))
    pts = []
    for m, tags, fields, t in POINTS:
        ns = 0 if t is None else t
        pts.append({'measurement': m, 'tags': [list(kv) for kv in tags],
                    'fields': [[k, float(v)] for k, kind, v in fields if kind != 's'],
                    'text_fields': [[k, v] for k, kind, v in fields if kind == 's'],
                    'time_ms': ns // 1000000})
    with open(os.path.join(OUT, 'expected.json'), 'w') as f:
        json.dump({'points': pts, 'bad_lines': [{'line': l, 'code': c} for l, c in bad]},
                  f, indent=1, ensure_ascii=True)
        f.write('\n')


if __name__ == '__main__':
    main()
