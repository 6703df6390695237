#!/usr/bin/env python3
"""sql_restore_check.py SQL_RESTORE - examples/sql_restore restores a dump
into SQLite statement by statement: a failing statement in the middle is
reported with its line and the rest is still restored (exit 1); a trigger
body with ';' stays one statement; chunk sizes 1 and 7 give the same
database; an unterminated quote at the end is reported; usage and I/O
errors exit 2; a clean dump exits 0. Exit 1 on the first mismatch."""
import os
import sqlite3
import subprocess
import sys
import tempfile

DUMP = b"""PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE t(a, b);
INSERT INTO t VALUES(1,'it''s; fine');
INSERT INTO nosuch VALUES(2);
INSERT INTO t VALUES(3,'caf\xc3\xa9 \xf0\x9f\x98\x80');
CREATE TABLE log(x);
CREATE TRIGGER tr AFTER INSERT ON t BEGIN
  INSERT INTO log VALUES(new.a); INSERT INTO log VALUES(';');
END;
INSERT INTO t VALUES(4, X'00FF');
SELECT a FROM t;
COMMIT;
"""

fails = 0
passes = 0


def check(name, cond, detail=''):
    global fails, passes
    if cond:
        passes += 1
    else:
        fails += 1
        print(f'FAIL {name} {detail}')


def rows(db):
    c = sqlite3.connect(db)
    try:
        return (c.execute('SELECT a, b FROM t ORDER BY a').fetchall(),
                c.execute('SELECT x FROM log ORDER BY rowid').fetchall())
    finally:
        c.close()


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix='sql_restore.') as tmp:
        dump = os.path.join(tmp, 'd.sql')
        with open(dump, 'wb') as f:
            f.write(DUMP)
        want = ([(1, "it's; fine"), (3, 'caf\u00e9 \U0001F600'), (4, b'\x00\xff')], [(4,), (';',)])
        for chunk in ('1', '7', '65536'):
            db = os.path.join(tmp, f'c{chunk}.db')
            p = subprocess.run([exe, '--chunk', chunk, db, dump], capture_output=True)
            check(f'chunk {chunk}: exit 1 for a failed statement', p.returncode == 1, p)
            check(f'chunk {chunk}: failure reported with its line',
                  b'line 5: no such table: nosuch' in p.stderr and p.stderr.count(b'\n') == 1, p.stderr)
            check(f'chunk {chunk}: summary', p.stdout == b'10 statements restored, 1 failed\n', p.stdout)
            check(f'chunk {chunk}: rest restored', rows(db) == want, rows(db))
        # from stdin, clean dump: exit 0
        db = os.path.join(tmp, 'clean.db')
        clean = DUMP.replace(b'INSERT INTO nosuch VALUES(2);\n', b'')
        p = subprocess.run([exe, db, '-'], input=clean, capture_output=True)
        check('clean dump exits 0', p.returncode == 0 and p.stderr == b'', p)
        # unterminated quote at the end: reported, the rest kept, exit 1
        db = os.path.join(tmp, 'cut.db')
        p = subprocess.run([exe, db], input=clean + b"INSERT INTO t VALUES(9,'cut", capture_output=True)
        check('cut dump exits 1', p.returncode == 1, p)
        check('cut dump reported', b'UNTERMINATED_QUOTE' in p.stderr and b'line 13' in p.stderr, p.stderr)
        # usage and I/O errors: exit 2
        for args, what in (([], 'no arguments'), (['--bogus', db], 'unknown option'),
                           (['--chunk', '0', db], 'bad chunk'),
                           ([db, os.path.join(tmp, 'missing.sql')], 'missing dump'),
                           ([os.path.join(tmp, 'no', 'such', 'dir.db'), dump], 'unopenable db')):
            p = subprocess.run([exe] + args, capture_output=True, stdin=subprocess.DEVNULL)
            check(f'{what}: exit 2', p.returncode == 2, p)
        # a closed stdin is an I/O error, not an empty dump (SQLite would
        # open /dev/null onto fd 0); a directory as the dump says why
        p = subprocess.run(['sh', '-c', 'exec "$0" "$1" - <&-', exe, os.path.join(tmp, 'closed.db')],
                           capture_output=True)
        check('closed stdin: exit 2 with the reason',
              p.returncode == 2 and p.stderr.startswith(b'sql_restore: stdin: '), p)
        p = subprocess.run([exe, os.path.join(tmp, 'dir.db'), tmp], capture_output=True)
        check('directory as the dump: exit 2 with the reason',
              p.returncode == 2 and p.stderr.startswith(b'sql_restore: ' + tmp.encode() + b': Is a directory'), p)
        with open('/dev/full', 'wb') as full:
            p = subprocess.run([exe, os.path.join(tmp, 'full.db'), dump], stdout=full,
                               stderr=subprocess.PIPE)
        check('failed write of the summary: exit 2', p.returncode == 2, p)
    print(f'{passes} passed, {fails} failed')
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
