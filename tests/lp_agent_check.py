#!/usr/bin/env python3
"""Check examples/lp_agent against known points (issue 7).

usage: lp_agent_check.py LP_AGENT MOTE_TOOL   (env MOTE_TEST_DATA = tests/data)

1. The agent's --out bytes for tests/data/lp_agent/input.lp equal
   expected.rows, which the Python cassandra-driver serialized from the
   points (tests/gen/lp_agent_golden.py); its exit status is 1 and stderr
   names every bad line with its line number and code.
2. Every cell, decoded with mote's own decoders (`mote cql decode`), equals
   the point it came from (expected.json).
3. The cassandra-driver's deserializers agree too (python3-cassandra from
   scripts/deps; without it the step fails).
4. A line longer than the arena allows is reported as TOO_LONG and skipped;
   the points around it still come out.
"""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

agent, tool = sys.argv[1], sys.argv[2]
data = os.path.join(os.environ.get('MOTE_TEST_DATA', 'tests/data'), 'lp_agent')
expected = json.load(open(os.path.join(data, 'expected.json')))
failures = 0


def check(ok, what):
    global failures
    print(('ok - ' if ok else 'not ok - ') + what)
    if not ok:
        failures += 1


def cells_of(blob):
    rows, p = [], 0
    while p < len(blob):
        row = []
        for _ in range(5):
            n = struct.unpack_from('>i', blob, p)[0]
            row.append(blob[p + 4:p + 4 + n])
            p += 4 + n
        rows.append(row)
    return rows


def mote_decode(cql_type, cell):
    r = subprocess.run([tool, 'cql', 'decode', cql_type, cell.hex()], capture_output=True)
    if r.returncode != 0:
        raise RuntimeError('mote cql decode %s: %s' % (cql_type, r.stderr.decode()))
    return r.stdout.decode('utf-8').rstrip('\n')


def cql_quote(s):
    return "'" + s.replace("'", "''") + "'"


def text_map_literal(pairs):
    return '{' + ', '.join('%s: %s' % (cql_quote(k), cql_quote(v)) for k, v in pairs) + '}'


def double_map(literal):
    """Parse mote's {'k': 1.5, ...} into [(k, float)] (keys have no quotes here)."""
    return [(k.replace("''", "'"), float(v))
            for k, v in re.findall(r"'((?:[^']|'')*)': ([^,}]+)", literal)]


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, 'rows')
    r = subprocess.run([agent, '--out', out, os.path.join(data, 'input.lp')], capture_output=True)
    err = r.stderr.decode('utf-8', 'replace')
    check(r.returncode == 1, 'exit status 1 when some lines are bad (got %d)' % r.returncode)
    for bad in expected['bad_lines']:
        check(re.search(r'line %d, column \d+: %s:' % (bad['line'], bad['code']), err) is not None,
              'bad line %d reported as %s' % (bad['line'], bad['code']))
    check(re.search(r'\b%d points, %d bad lines' % (len(expected['points']), len(expected['bad_lines'])), err)
          is not None, 'statistics count points and bad lines')
    blob = open(out, 'rb').read()
    golden = open(os.path.join(data, 'expected.rows'), 'rb').read()
    check(blob == golden, 'rows byte-identical to the cassandra-driver serialization (%d bytes)' % len(golden))

    rows = cells_of(blob)
    check(len(rows) == len(expected['points']), 'one row per good point')
    for i, (row, pt) in enumerate(zip(rows, expected['points'])):
        name = mote_decode('text', row[0])
        tags = mote_decode('map<text,text>', row[1])
        when = mote_decode('timestamp', row[2])
        nums = double_map(mote_decode('map<text,double>', row[3]))
        strs = mote_decode('map<text,text>', row[4])
        ok = (name == cql_quote(pt['measurement']) and tags == text_map_literal(pt['tags']) and
              int(when) == pt['time_ms'] and nums == [tuple(f) for f in pt['fields']] and
              strs == text_map_literal(pt['text_fields']))
        check(ok, 'row %d decoded by mote equals point %r' % (i + 1, pt['measurement']))

    try:
        from cassandra.cqltypes import DateType, DoubleType, MapType, UTF8Type
    except ImportError:
        # Installed by scripts/deps (Debian's python3-cassandra): a check
        # that cannot run is a failure, not a pass.
        check(False, 'cassandra-driver importable (python3-cassandra, scripts/deps)')
    else:
        tm = MapType.apply_parameters([UTF8Type, UTF8Type])
        nm = MapType.apply_parameters([UTF8Type, DoubleType])
        for i, (row, pt) in enumerate(zip(rows, expected['points'])):
            got = (UTF8Type.deserialize(row[0], 4), list(tm.deserialize(row[1], 4).items()),
                   struct.unpack('>q', row[2])[0], list(nm.deserialize(row[3], 4).items()),
                   list(tm.deserialize(row[4], 4).items()))
            want = (pt['measurement'], [tuple(t) for t in pt['tags']], pt['time_ms'],
                    [tuple(f) for f in pt['fields']], [tuple(f) for f in pt['text_fields']])
            check(got == want, 'row %d decoded by cassandra-driver equals the point' % (i + 1))

    # A line longer than a quarter of a 4 KiB arena (the carry) is skipped.
    longin = os.path.join(tmp, 'long.lp')
    with open(longin, 'w') as f:
        f.write('a v=1 1000000\n' + 'long,t=' + 'x' * 5000 + ' v=2\n' + 'b v=3 2000000\n')
    r = subprocess.run([agent, '--arena', '4096', '--chunk', '512', '--hex', longin], capture_output=True)
    err = r.stderr.decode()
    check(r.returncode == 1 and 'line 2, column 1: TOO_LONG' in err and ' 2 points, 1 bad lines' in err,
          'a line over the arena is TOO_LONG at its start, skipped, neighbours kept')
    check(r.stdout.decode().count('\n') == 2, 'both neighbouring points printed (--hex)')

    # Usage errors: one line, exit 2.
    for args in (['--bogus'], ['--arena'], ['/nonexistent/file']):
        r = subprocess.run([agent] + args, capture_output=True)
        check(r.returncode == 2 and r.stderr.decode().count('\n') == 1, 'usage error %s: exit 2, one line' % args)

print('%d failed' % failures)
sys.exit(1 if failures else 0)
