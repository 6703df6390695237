#!/usr/bin/env python3
"""examples/lp_agent's retry paths against a scripted CQL server (suite 'tool').

usage: fake_server_check.py LP_AGENT

A real Cassandra on one idle node never answers Overloaded or a timeout, so
this script plays the server: a thread on 127.0.0.1 (an ephemeral port)
speaks just enough of protocol v4 (STARTUP -> READY, PREPARE -> Prepared
with the five bind columns of lp_agent's table, EXECUTE / BATCH -> what
the scenario says) and records every row it accepted. Pins:

1. Overloaded, Write_timeout, Read_timeout and Unavailable are retried
   (with backoff) until the request is accepted: every row arrives once,
   none failed, the summary counts the retries; also with --batch 1 (one
   EXECUTE per row, pipelined).
2. Unprepared leads to a new PREPARE and the same rows sent again.
3. A batch refused with Invalid is split: the one row the server refuses
   (measurement "reject") is reported with its input line, the others are
   written.
4. A server that answers Overloaded forever: the rows fail after the
   bounded number of tries ("gave up"), in bounded time (backoff capped).
5. Without a server (--hex): a repeated tag key makes the line bad at the
   second key; a repeated field key: the last value wins.
"""
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

from tap import check, done

agent = sys.argv[1]


def s(t):
    t = t.encode()
    return struct.pack('>H', len(t)) + t


def frame(stream, op, body):
    return struct.pack('>BBhBi', 0x84, 0, stream, op, len(body)) + body


ID = b'\x11' * 16
NEW_ID = b'\x22' * 16


def prepared(pid):
    text, dbl, ts, mp = 0x000D, 0x0007, 0x000B, 0x0021
    cols = [('measurement', struct.pack('>H', text)),
            ('tags', struct.pack('>HHH', mp, text, text)),
            ('time', struct.pack('>H', ts)),
            ('fields', struct.pack('>HHH', mp, text, dbl)),
            ('text_fields', struct.pack('>HHH', mp, text, text))]
    meta = struct.pack('>iiiHH', 0x0001, 5, 2, 0, 1) + s('ks') + s('t')
    meta += b''.join(s(n) + t for n, t in cols)
    result_meta = struct.pack('>ii', 0x0004, 0)
    return struct.pack('>i', 4) + struct.pack('>H', len(pid)) + pid + meta + result_meta


def error(code, msg, extra=b''):
    return struct.pack('>i', code) + s(msg) + extra


ERRORS = {
    'overloaded': lambda pid: error(0x1001, 'fake: overloaded'),
    'write_timeout': lambda pid: error(0x1100, 'fake: write timeout',
                                       struct.pack('>Hii', 1, 0, 1) + s('BATCH')),
    'read_timeout': lambda pid: error(0x1200, 'fake: read timeout', struct.pack('>HiiB', 1, 0, 1, 0)),
    'unavailable': lambda pid: error(0x1000, 'fake: unavailable', struct.pack('>Hii', 1, 1, 0)),
    'unprepared': lambda pid: error(0x2500, 'fake: unprepared', struct.pack('>H', len(pid)) + pid),
}


def rows_of(op, body):
    """[(prepared id, measurement)] of an EXECUTE or BATCH body."""
    out = []
    if op == 0x0A:
        n = struct.unpack('>H', body[:2])[0]
        pid, p = body[2:2 + n], 2 + n
        p += 3  # consistency, flags (values are there: the agent always binds)
        nv = struct.unpack('>H', body[p:p + 2])[0]
        p += 2
        ln = struct.unpack('>i', body[p:p + 4])[0]
        out.append((pid, body[p + 4:p + 4 + ln].decode()))
        assert nv == 5
        return out
    assert op == 0x0D
    p = 1
    n = struct.unpack('>H', body[p:p + 2])[0]
    p += 2
    for _ in range(n):
        kind = body[p]
        assert kind == 1
        k = struct.unpack('>H', body[p + 1:p + 3])[0]
        pid = body[p + 3:p + 3 + k]
        p += 3 + k
        nv = struct.unpack('>H', body[p:p + 2])[0]
        p += 2
        first = None
        for v in range(nv):
            ln = struct.unpack('>i', body[p:p + 4])[0]
            if v == 0:
                first = body[p + 4:p + 4 + ln].decode()
            p += 4 + max(ln, 0)
        out.append((pid, first))
    return out


class Fake:
    """script: actions for the row requests in the order they arrive
    ('overloaded', ..., 'void'); after it runs out, 'void' (or 'forever')."""

    def __init__(self, script, forever=None):
        self.script = list(script)
        self.forever = forever
        self.accepted = []
        self.prepares = 0
        self.requests = 0
        self.pid = ID
        self.ls = socket.socket()
        self.ls.bind(('127.0.0.1', 0))
        self.ls.listen(1)
        self.port = self.ls.getsockname()[1]
        self.t = threading.Thread(target=self.serve, daemon=True)
        self.t.start()

    def serve(self):
        c, _ = self.ls.accept()
        buf = b''
        while True:
            d = c.recv(65536)
            if not d:
                break
            buf += d
            while len(buf) >= 9:
                n = struct.unpack('>i', buf[5:9])[0]
                if len(buf) < 9 + n:
                    break
                stream, op = struct.unpack('>hB', buf[2:5])
                body, buf = buf[9:9 + n], buf[9 + n:]
                c.sendall(self.answer(stream, op, body))
        c.close()

    def answer(self, stream, op, body):
        if op == 0x01:
            return frame(stream, 0x02, b'')
        if op == 0x09:
            self.prepares += 1
            if self.prepares > 1:
                self.pid = NEW_ID
            return frame(stream, 0x08, prepared(self.pid))
        if op in (0x0A, 0x0D):
            self.requests += 1
            rows = rows_of(op, body)
            if any(pid != self.pid for pid, _ in rows):
                return frame(stream, 0x00, ERRORS['unprepared'](rows[0][0]))
            act = self.script.pop(0) if self.script else (self.forever or 'void')
            if act in ERRORS:
                return frame(stream, 0x00, ERRORS[act](self.pid))
            if any(m == 'reject' for _, m in rows):
                return frame(stream, 0x00, error(0x2200, 'fake: refused row'))
            self.accepted += [m for _, m in rows]
            return frame(stream, 0x08, struct.pack('>i', 1))
        return frame(stream, 0x00, error(0x000A, 'fake: unexpected opcode %d' % op))


def run(fake, lines, *opts):
    with tempfile.NamedTemporaryFile('wb', suffix='.lp', delete=False) as f:
        f.write(''.join(l + '\n' for l in lines).encode())
        path = f.name
    t0 = time.time()
    r = subprocess.run([agent, '--cassandra', '127.0.0.1:%d' % fake.port, *opts, path],
                       capture_output=True, timeout=60)
    err = r.stderr.decode('utf-8', 'replace')
    sys.stderr.write(err)
    return r.returncode, err, time.time() - t0


def summary(err):
    import re
    m = re.search(r'(\d+) rows written, (\d+) rows failed, (\d+) retries', err)
    return tuple(int(x) for x in m.groups()) if m else None


lines = ['m%d,h=x v=%di %d' % (i, i, i) for i in range(40)]

# 1. every retryable error once (and one twice), then accepted
fake = Fake(['overloaded', 'write_timeout', 'void', 'read_timeout', 'unavailable', 'overloaded'])
rc, err, secs = run(fake, lines, '--batch', '8', '--inflight', '2')
check(rc == 0 and summary(err) == (40, 0, 5),
      'retryable errors retried: 40 written, 0 failed, 5 retries (exit %d, %s)' % (rc, summary(err)))
check(sorted(fake.accepted) == sorted('m%d' % i for i in range(40)),
      'every row accepted exactly once (%d accepted)' % len(fake.accepted))

# 2. Unprepared: the server forgets the id after two requests
fake = Fake(['void', 'void'])
orig = fake.answer


def forget(stream, op, body, fake=fake, orig=orig):
    if op in (0x0A, 0x0D) and fake.requests == 2 and fake.prepares == 1:
        fake.pid = b'\x33' * 16  # the server's cache lost the statement
    return orig(stream, op, body)


fake.answer = forget
rc, err, secs = run(fake, lines, '--batch', '4', '--inflight', '1')
check(rc == 0 and fake.prepares == 2 and summary(err) is not None and summary(err)[:2] == (40, 0),
      'Unprepared: prepared again, all 40 rows written (%d PREPAREs, %s)' % (fake.prepares, summary(err)))
check(sorted(set(fake.accepted)) == sorted('m%d' % i for i in range(40)), 'every row arrived')

# 3. Invalid for the batch holding the row the server refuses
rl = lines[:10] + ['reject,h=x v=1i 99'] + lines[10:20]
fake = Fake([])
rc, err, secs = run(fake, rl, '--batch', '8', '--inflight', '2')
check(rc == 1 and summary(err) == (20, 1, 0),
      'a refused batch is split: 20 written, 1 failed (exit %d, %s)' % (rc, summary(err)))
check('rejected line 11: fake: refused row' in err, 'the refused row is reported with its line (11)')
check(sorted(fake.accepted) == sorted('m%d' % i for i in range(20)), 'the other rows of its batch are written')

# 1b. --batch 1: plain EXECUTEs, pipelined, one retried
fake = Fake(['void', 'unavailable'])
rc, err, secs = run(fake, lines, '--batch', '1', '--inflight', '4')
check(rc == 0 and summary(err) == (40, 0, 1) and fake.requests == 41,
      '--batch 1: 41 EXECUTEs for 40 rows, one retry (exit %d, %s)' % (rc, summary(err)))

# 4. Overloaded forever: bounded tries, bounded time
fake = Fake([], forever='overloaded')
rc, err, secs = run(fake, lines[:3], '--batch', '8', '--inflight', '1')
sm = summary(err)
check(rc == 1 and sm == (0, 3, 7) and 'gave up after retries' in err,
      'always Overloaded: 7 retries, then the rows fail (exit %d, %s)' % (rc, sm))
check(fake.requests == 8 and secs < 10,
      'at most 8 tries, backoff capped (%d requests, %.1f s)' % (fake.requests, secs))

# 5. repeated keys (the same rules with --out, no server): a tag key twice
# is a bad line at the second key's column; a field key twice, the last wins
with tempfile.NamedTemporaryFile('wb', suffix='.lp', delete=False) as f:
    f.write(b'dup,t=a,t=b f=1\nm f=1,g=2,f="x",g=3i 0\n')
    path = f.name
r = subprocess.run([agent, '--hex', path], capture_output=True)
out, err = r.stdout.decode(), r.stderr.decode()
check(r.returncode == 1 and 'bad line 1, column 9: DUPLICATE' in err,
      'a repeated tag key: bad line at column 9 (exit %d)' % r.returncode)
# row 1: text_fields {f: x} and fields {g: 3.0}, nothing else
fields = '00000001' + '00000001' + '67' + '00000008' + '4008000000000000'
text = '00000001' + '00000001' + '66' + '00000001' + '78'
check(out.startswith('row 1:') and out.split()[-2:] == [fields, text],
      'repeated field keys: the last value wins across fields and text_fields (%r)' % out.strip())

done()
