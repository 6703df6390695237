#!/usr/bin/env python3
"""cql_ingest_py: the end-to-end ingest peer of examples/lp_agent's network
mode with the Python cassandra-driver (PyPI, with its compiled extensions).

Streams a line-protocol file, turns each point into the row lp_agent writes
(measurement, tags, time, fields, text_fields; integer, unsigned and boolean
fields widened to double, time in ms) and sends UNLOGGED BATCHes of --batch
rows of a prepared INSERT, --inflight batches in flight on one connection.
The line-protocol parsing here is tests/lp_agent_check.py-style plain Python
(escapes, quoted strings); bad lines are counted and skipped.

    cql_ingest_py.py [--port 9042] [--keyspace KS] [--table T] [--user U
        --password P] [--batch N] [--inflight N] FILE
"""
import argparse
import re
import sys
import threading
import time

from cassandra import ConsistencyLevel
from cassandra.auth import PlainTextAuthProvider
from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
from cassandra.policies import WhiteListRoundRobinPolicy
from cassandra.query import BatchStatement, BatchType

_split = re.compile(r'(?<!\\)[ ]')


def unesc(s):
    return re.sub(r'\\(.)', r'\1', s) if '\\' in s else s


def split_unescaped(s, sep):
    out, cur, i = [], [], 0
    while i < len(s):
        ch = s[i]
        if ch == '\\' and i + 1 < len(s):
            cur.append(s[i:i + 2])
            i += 2
            continue
        if ch == sep:
            out.append(''.join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append(''.join(cur))
    return out


def parse(line):
    """-> (measurement, tags, ms, fields, text_fields) or None for a bad line."""
    # measurement+tags, fields, timestamp: split on unescaped spaces outside quotes
    parts, cur, q, i = [], [], False, 0
    while i < len(line):
        ch = line[i]
        if ch == '\\' and i + 1 < len(line):
            cur.append(line[i:i + 2])
            i += 2
            continue
        if ch == '"':
            q = not q
        if ch == ' ' and not q:
            parts.append(''.join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append(''.join(cur))
    if len(parts) not in (2, 3):
        return None
    head = split_unescaped(parts[0], ',')
    m = unesc(head[0])
    tags = {}
    for t in head[1:]:
        k, _, v = t.partition('=')
        tags[unesc(k)] = unesc(v)
    fields, text = {}, {}
    for f in split_unescaped(parts[1], ','):
        k, _, v = f.partition('=')
        k = unesc(k)
        if v.startswith('"'):
            text[k] = v[1:-1].replace('\\"', '"').replace('\\\\', '\\')
        elif v[-1] in 'iu':
            fields[k] = float(int(v[:-1]))
        elif v in ('t', 'T', 'true', 'True', 'TRUE'):
            fields[k] = 1.0
        elif v in ('f', 'F', 'false', 'False', 'FALSE'):
            fields[k] = 0.0
        else:
            fields[k] = float(v)
    ms = int(parts[2]) // 1000000 if len(parts) == 3 else int(time.time() * 1000)
    return m, tags, ms, fields, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--port', type=int, default=9042)
    ap.add_argument('--keyspace', default='mote')
    ap.add_argument('--table', default='metrics')
    ap.add_argument('--user')
    ap.add_argument('--password')
    ap.add_argument('--batch', type=int, default=50)
    ap.add_argument('--inflight', type=int, default=8)
    ap.add_argument('file')
    a = ap.parse_args()
    auth = PlainTextAuthProvider(a.user, a.password) if a.user else None
    prof = ExecutionProfile(load_balancing_policy=WhiteListRoundRobinPolicy(['127.0.0.1']),
                            consistency_level=ConsistencyLevel.ONE, request_timeout=30)
    cl = Cluster(['127.0.0.1'], port=a.port, protocol_version=4, auth_provider=auth,
                 execution_profiles={EXEC_PROFILE_DEFAULT: prof})
    s = cl.connect(a.keyspace)
    ins = s.prepare(f'INSERT INTO {a.table} (measurement, tags, time, fields, text_fields) '
                    'VALUES (?, ?, ?, ?, ?)')
    window = threading.Semaphore(a.inflight)
    lock = threading.Lock()
    st = {'written': 0, 'failed': 0}

    def done(_, n):
        with lock:
            st['written'] += n
        window.release()

    def fail(e, n):
        print('batch:', e, file=sys.stderr)
        with lock:
            st['failed'] += n
        window.release()

    def send(rows):
        b = BatchStatement(batch_type=BatchType.UNLOGGED, consistency_level=ConsistencyLevel.ONE)
        for r in rows:
            b.add(ins, r)
        window.acquire()
        f = s.execute_async(b)
        f.add_callbacks(done, fail, callback_args=(len(rows),), errback_args=(len(rows),))

    t0 = time.time()
    bad, cur = 0, []
    with open(a.file, encoding='utf-8') as fh:
        for line in fh:
            line = line.rstrip('\n')
            if not line or line.startswith('#'):
                continue
            try:
                r = parse(line)
            except (ValueError, IndexError):
                r = None
            if r is None:
                bad += 1
                continue
            cur.append(r)
            if len(cur) == a.batch:
                send(cur)
                cur = []
    if cur:
        send(cur)
    for _ in range(a.inflight):
        window.acquire()
    print(f"cql_ingest_py: {st['written']} rows written, {st['failed']} failed, {bad} bad lines "
          f"in {time.time() - t0:.2f} s", file=sys.stderr)
    cl.shutdown()
    sys.exit(1 if st['failed'] else 0)


if __name__ == '__main__':
    main()
