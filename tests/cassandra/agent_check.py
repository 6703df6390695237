#!/usr/bin/env python3
"""examples/lp_agent against a live Cassandra (suite 'integration').

usage: agent_check.py LP_AGENT   (env MOTE_CASS_PORT, MOTE_TEST_DATA)

The server: 127.0.0.1:$MOTE_CASS_PORT with PasswordAuthenticator
(cassandra/cassandra), started by tests/cassandra/server. Needs the Python
cassandra-driver (scripts/deps installs it) to read the rows back; without
it, or without a server, the test fails.

1. Ingest: tests/data/lp_agent/input.lp (escapes, every field type, bad
   lines) plus lines made here: a repeated tag key (bad, with its column),
   repeated field keys (the last one wins, across fields and text_fields),
   a point whose partition key is over the server's 64 KiB limit (the server
   refuses its batch; the agent splits it, reports that line as rejected
   and writes the rest), and 200 plain points. --create, small --batch and
   --inflight so that many batches are in flight. Every row is read back with
   the Python driver and compared with the input decoded independently
   (expected.json from tests/gen/lp_agent_golden.py, and the expectations
   written below), and the exit status and summary line are checked.
2. Re-prepare: the agent reads from a pipe; after its first rows are in,
   ALTER TABLE evicts the prepared INSERT; the rows after it are answered
   Unprepared, the agent prepares again and resends them: every row
   arrives, none failed, retries > 0.
3. Login: a wrong password, and no --user, end with exit status 2 and one
   message line.
"""
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from tap import check, done

agent = sys.argv[1]
port = int(os.environ.get('MOTE_CASS_PORT', '9042'))
data = os.path.join(os.environ.get('MOTE_TEST_DATA', 'tests/data'), 'lp_agent')


try:
    from cassandra.auth import PlainTextAuthProvider
    from cassandra.cluster import Cluster
except ImportError:
    print('not ok 1 - the Python cassandra-driver is not installed (scripts/deps test)')
    sys.exit(1)

cluster = Cluster(['127.0.0.1'], port=port, protocol_version=4,
                  auth_provider=PlainTextAuthProvider('cassandra', 'cassandra'))
session = cluster.connect()
KS = 'mote_agent_it'
session.execute('DROP KEYSPACE IF EXISTS ' + KS)

tmp = tempfile.mkdtemp(prefix='mote-agent-it-')
pwfile = os.path.join(tmp, 'pw')
with open(pwfile, 'w') as f:
    f.write('cassandra\n')
base = [agent, '--cassandra', '127.0.0.1:%d' % port, '--keyspace', KS, '--user', 'cassandra',
        '--password-file', pwfile]

# ---- 1. ingest -------------------------------------------------------------
expected = json.load(open(os.path.join(data, 'expected.json')))
text = open(os.path.join(data, 'input.lp'), 'rb').read()
assert text.endswith(b'\n')
lines0 = text.count(b'\n')
points = [dict(p) for p in expected['points']]
bad = [(b['line'], b['code']) for b in expected['bad_lines']]
extra = []
extra.append(b'dup,t=a,t=b f=1')                                  # bad: tag twice
bad.append((lines0 + 1, 'DUPLICATE'))
dup_col = 9
extra.append(b'dupf,t=a f=1,f=2,g="x",g=3i,h="s",h="t\\"u" 5000000')  # last wins
points.append({'measurement': 'dupf', 'tags': [['t', 'a']], 'fields': [['f', 2.0], ['g', 3.0]],
               'text_fields': [['h', 't"u']], 'time_ms': 5})
extra.append(b'huge,t=' + b'x' * 66000 + b' f=1 6000000')         # server refuses
huge_line = lines0 + 3
for i in range(200):
    extra.append(b'plain,host=h%d,sp\\ ace=a\\,b v=%di,w=%d.5,ok=t,s="n%d" %d' % (i % 7, i, i, i, 10**9 * (i + 1)))
    points.append({'measurement': 'plain', 'tags': [['host', 'h%d' % (i % 7)], ['sp ace', 'a,b']],
                   'fields': [['v', float(i)], ['w', i + 0.5], ['ok', 1.0]],
                   'text_fields': [['s', 'n%d' % i]], 'time_ms': 1000 * (i + 1)})
inp = os.path.join(tmp, 'in.lp')
with open(inp, 'wb') as f:
    f.write(text + b'\n'.join(extra) + b'\n')

r = subprocess.run(base + ['--table', 'metrics', '--create', '--batch', '8', '--inflight', '3',
                           '--arena', '1M', inp], capture_output=True)
err = r.stderr.decode('utf-8', 'replace')
sys.stderr.write(err)
check(r.returncode == 1, 'exit status 1: bad lines and a rejected row (got %d)' % r.returncode)
for line, code in bad:
    check(re.search(r'bad line %d, column \d+: %s:' % (line, code), err) is not None,
          'bad line %d reported as %s' % (line, code))
check(re.search(r'bad line %d, column %d: DUPLICATE: tag key' % (lines0 + 1, dup_col), err) is not None,
      'the repeated tag key is reported at its second occurrence (column %d)' % dup_col)
check(re.search(r'rejected line %d: .*[Kk]ey length' % huge_line, err) is not None,
      'the row the server refuses is reported with its line (%d)' % huge_line)
m = re.search(r'(\d+) rows written, (\d+) rows failed, (\d+) retries', err)
check(m is not None and int(m.group(1)) == len(points) and int(m.group(2)) == 1,
      'summary: %d rows written, 1 failed (got %s)' % (len(points), m.group(0) if m else None))


def key(meas, tags, ms):
    return (meas, tuple(sorted((k, v) for k, v in tags)), ms)


def as_dict(pairs):
    return {k: v for k, v in pairs}


EPOCH = datetime.datetime(1970, 1, 1)
rows = {}
for row in session.execute('SELECT measurement, tags, time, fields, text_fields FROM %s.metrics' % KS):
    ms = (row.time - EPOCH) // datetime.timedelta(milliseconds=1)
    rows[key(row.measurement, (row.tags or {}).items(), ms)] = (
        dict(row.fields or {}), dict(row.text_fields or {}))
check(len(rows) == len(points), 'as many rows in the table as good points (%d, got %d)' % (len(points), len(rows)))
missing = 0
for p in points:
    k = key(p['measurement'], p['tags'], p['time_ms'])
    got = rows.get(k)
    want = (as_dict(p['fields']), as_dict(p['text_fields']))
    if got != want:
        missing += 1
        if missing <= 5:
            print('# point %r: want %r, got %r' % (k[:1] + (k[2],), want, got))
check(missing == 0, 'every point read back equal to the input, decoded independently (%d differ)' % missing)

# ---- 2. re-prepare after ALTER TABLE -------------------------------------
p = subprocess.Popen(base + ['--table', 'rp', '--create', '--batch', '4', '--inflight', '2',
                             '--chunk', '4096', '-'], stdin=subprocess.PIPE, stderr=subprocess.PIPE)
first = b''.join(b'rp,i=%d v=%di %d\n' % (i, i, i * 10**6) for i in range(300))
second = b''.join(b'rp,i=%d v=%di %d\n' % (i, i, i * 10**6) for i in range(300, 600))
p.stdin.write(first)
p.stdin.flush()
deadline = time.time() + 30
n = 0
while time.time() < deadline:
    try:
        n = session.execute('SELECT count(*) FROM %s.rp' % KS).one()[0]
    except Exception:
        n = 0
    if n >= 100:
        break
    time.sleep(0.2)
check(n >= 100, 'the agent wrote from the pipe before its end (%d rows)' % n)
session.execute('ALTER TABLE %s.rp ADD extra int' % KS)
p.stdin.write(second)
p.stdin.close()
err = p.stderr.read().decode('utf-8', 'replace')
rc = p.wait(timeout=120)
sys.stderr.write(err)
m = re.search(r'(\d+) rows written, (\d+) rows failed, (\d+) retries', err)
check(rc == 0 and m is not None and m.group(1) == '600' and m.group(2) == '0' and int(m.group(3)) > 0,
      're-prepared after ALTER TABLE: 600 written, 0 failed, retries > 0 (exit %d, %s)'
      % (rc, m.group(0) if m else None))
n = session.execute('SELECT count(*) FROM %s.rp' % KS).one()[0]
check(n == 600, 'all 600 rows in the table (got %d)' % n)

# ---- 3. login refused ----------------------------------------------------
with open(pwfile, 'w') as f:
    f.write('wrong\n')
r = subprocess.run(base + ['--table', 'metrics', inp], capture_output=True)
e = r.stderr.decode('utf-8', 'replace')
check(r.returncode == 2 and 'login' in e and '0x0100' in e, 'a wrong password: exit 2, the server says why')
r = subprocess.run([agent, '--cassandra', '127.0.0.1:%d' % port, inp], capture_output=True)
e = r.stderr.decode('utf-8', 'replace')
check(r.returncode == 2 and '--user' in e, 'no --user where the server wants a login: exit 2')

session.execute('DROP KEYSPACE ' + KS)
cluster.shutdown()
done()
