#!/usr/bin/env python3
"""Real dumps from real servers, restored through 'mote sql split' alone.

    restore.py --mote PATH --server mariadb|postgres|sqlite [--sql-restore PATH]
               [--quick] [--keep DIR]

For one server: start a private instance (temp data dir, unix socket, no
TCP), build a source database holding the hard cases (quotes, backslashes,
NUL and binary blobs, emoji, routines/triggers/events with ';' in their
bodies, $tag$ and BEGIN ATOMIC bodies, rules with parenthesised actions,
COPY data with tabs/backslashes/newlines, views inside /*! */, routines
created under NO_BACKSLASH_ESCAPES), dump it with each variant of the
server's dump tool, split every dump with 'mote sql split --dialect X' at
chunk sizes 1 (small dumps only), 7, 4096 and the default, execute the
statements one at a time into a fresh database (psql/mysql client commands
skipped, COPY rows fed through the COPY statement), re-dump source and copy
with one canonical set of options and compare byte for byte. Also: every
chunk size must give the same tokens, no token may be an error, and every
statement must be terminated; a dump cut inside a statement must not look
complete. With --sql-restore (sqlite), the C example
examples/sql_restore restores each dump too. The setup scripts themselves
(DELIMITER, sql_mode changes, E'' strings, standard_conforming_strings off,
COPY data in a script) are split and restored the same way and must give
the database the server's own client made from them.

Prints one line per case and 'N passed, N failed'; exit 1 if any failed.
"""
import argparse
import base64
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import servers  # noqa: E402

CHUNKS = [1, 7, 4096, None]   # None: the CLI's default
SMALL = 4 << 20             # chunk size 1 only on dumps up to this size


class Tok:
    __slots__ = ('kind', 'terminated', 'data', 'line')

    def __init__(self, o):
        self.kind = o['kind']
        self.terminated = o['terminated']
        self.data = o['text'].encode('utf-8') if 'text' in o else base64.b64decode(o['base64'])
        self.line = o['line']

    def key(self):
        return (self.kind, self.terminated, self.data, self.line)


def split(mote, path, dialect, chunk, extra=()):
    argv = [mote, 'sql', 'split', '--dialect', dialect, *extra, path]
    if chunk:
        argv[5:5] = ['--chunk', str(chunk)]
    p = subprocess.run(argv, capture_output=True)
    toks, errors = [], []
    for line in p.stdout.splitlines():
        o = json.loads(line)
        if 'error' in o:
            errors.append(o)
        else:
            toks.append(Tok(o))
    if p.returncode != 0 or errors:
        raise AssertionError(f'mote sql split exit {p.returncode}, errors {errors[:3]}, '
                             f'stderr {p.stderr[:300]!r}')
    bad = [t for t in toks if t.kind == 'statement' and not t.terminated]
    if bad:
        raise AssertionError(f'unterminated statement at line {bad[0].line}: {bad[0].data[:200]!r}')
    return toks


def statements(toks):
    """(statement, copy rows or None) in order; client commands and comments
    skipped. A COPY ... FROM stdin statement is followed by its rows."""
    out = []
    for t in toks:
        if t.kind == 'statement':
            out.append([t, None])
        elif t.kind == 'copy_data':
            if not out or out[-1][0].kind != 'statement':
                raise AssertionError(f'COPY data without a COPY statement at line {t.line}')
            if out[-1][1] is None:
                out[-1][1] = []
            out[-1][1].append(t.data + b'\n')
        elif t.kind == 'copy_end':
            if not out:
                raise AssertionError(f'end of COPY data without COPY at line {t.line}')
            if out[-1][1] is None:
                out[-1][1] = []  # COPY with no rows
        elif t.kind not in ('command', 'comment'):
            raise AssertionError(f'unknown token kind {t.kind}')
    return out


def run_one(conn_exec, toks):
    for st, rows in statements(toks):
        try:
            conn_exec(st.data, rows)
        except Exception as e:
            raise AssertionError(f'statement at line {st.line} failed: {e}\n'
                                 f'  {st.data[:300]!r}') from None


# ---------------------------------------------------------------------------
# source databases

def all_bytes_hex():
    return bytes(range(256)).hex()


def big_rows(n, fmt):
    words = ["it''s", 'semi;colon', 'caf\u00e9', '\U0001F600', '-- x', '/* y */', 'a"b',
             'x' * 30, '$$', 'END;', '\u65e5\u672c']
    return ',\n'.join(fmt(i, words[i % len(words)], words[(i * 7) % len(words)]) for i in range(1, n + 1))


def mariadb_setup(db='src'):
    big = big_rows(3000, lambda i, a, b: f"({i}, '{a} {i} {b}', UNHEX('{(i * 2654435761 % 2**32):08x}00ff'))")
    return f"""
CREATE DATABASE {db} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
USE {db};
CREATE TABLE t (id INT PRIMARY KEY, s VARCHAR(255), b BLOB, note TEXT) DEFAULT CHARSET=utf8mb4;
INSERT INTO t VALUES
 (1, 'it''s', NULL, 'semi;colon'),
 (2, 'back\\\\slash \\' end', X'00', '-- not a comment'),
 (3, 'quote " and ` backtick', X'00FF27225C0A0D1A3B', '/* nor */ this; # nor this'),
 (4, CONCAT('nul', CHAR(0), 'byte'), UNHEX('{all_bytes_hex()}'), 'emoji \U0001F600 caf\u00e9 \u65e5\u672c'),
 (5, 'tab\\there\\nnewline\\rcr\\Zctrlz', X'5C', 'C:\\\\'),
 (6, 'ends with backslash \\\\', X'', 'DELIMITER ;;'),
 (7, '$$ and $tag$', X'2A2F3B', '*/ ; /*!50001 x */ /*M!100100 y */');
CREATE TABLE `we``ird;name` (`a*/b` INT PRIMARY KEY, `c;d` VARCHAR(20));
INSERT INTO `we``ird;name` VALUES (1, 'x;y'), (2, '*/');
CREATE TABLE big (id INT PRIMARY KEY, s VARCHAR(100), b VARBINARY(64));
INSERT INTO big VALUES {big};
CREATE VIEW v AS SELECT id, 'a;b' AS `x*/y`, s FROM t;
CREATE VIEW `v;2` AS SELECT CONCAT(s, '*/;') AS c, 'it''s' AS `q'` FROM t;
DELIMITER ;;
CREATE PROCEDURE p(IN x INT)
BEGIN
  DECLARE y VARCHAR(20) DEFAULT 'a;b''c\\\\';
  SELECT x; /* ; */ SELECT y; -- ;
  SELECT '*/;' AS `*/`;
END;;
CREATE FUNCTION f(x INT) RETURNS INT DETERMINISTIC
BEGIN
  DECLARE z INT; SET z = x + 1; RETURN z;
END;;
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW
BEGIN
  IF NEW.note IS NULL THEN SET NEW.note = 'x;y'; END IF;
  SET NEW.s = CONCAT(NEW.s, '\\\\;');
END;;
CREATE EVENT e ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 00:00:00' DO
BEGIN
  DELETE FROM big WHERE id < 0; UPDATE big SET s = 'e;v' WHERE id = -1;
END;;
DELIMITER ;
SET sql_mode = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION,NO_BACKSLASH_ESCAPES';
DELIMITER ;;
CREATE PROCEDURE p_nbe() BEGIN SELECT 'C:\\'; SELECT 'a\\', "b\\"; END;;
CREATE TRIGGER tr_nbe BEFORE UPDATE ON big FOR EACH ROW BEGIN SET NEW.s = 'D:\\'; END;;
DELIMITER ;
SET sql_mode = 'ANSI_QUOTES';
DELIMITER ;;
CREATE PROCEDURE p_ansi() BEGIN SELECT 1 AS "a\\"; SELECT 'b\\';' AS "c;d"; END;;
DELIMITER ;
SET sql_mode = DEFAULT;
DELIMITER ;;
CREATE PROCEDURE p_last() BEGIN SELECT 'it\\'s;'; SELECT 2; END;;
DELIMITER ;
CREATE VIEW v_last AS SELECT 'last;view' AS `x`;
""".encode()


MARIADB_SJIS = """
CREATE DATABASE sj CHARACTER SET sjis;
USE sj;
CREATE TABLE `表ソ` (id INT PRIMARY KEY, s VARCHAR(100), `ソ` VARCHAR(20)) DEFAULT CHARSET=sjis;
INSERT INTO `表ソ` VALUES (1, '表', 'ソ;'), (2, 'チ\\'x', '`;チ'), (3, 'ソ\\\\', '能;表');
CREATE VIEW v AS SELECT id, CONCAT(s, '表;') AS c FROM `表ソ`;
"""

POSTGRES_SJIS = """
CREATE TABLE t (id int PRIMARY KEY, s text);
INSERT INTO t VALUES (1, '表'), (2, 'ソ;'), (3, E'表\\\\;');
COMMENT ON TABLE t IS '表;ソ';
CREATE VIEW v AS SELECT id, s || '表' AS "ソ" FROM t;
"""


def postgres_setup():
    big = big_rows(3000, lambda i, a, b: f"({i}, '{a} {i}' || E'\\t' || '{b}', '\\x{(i * 2654435761 % 2**32):08x}5c0a')")
    return f"""
CREATE TABLE t (id int PRIMARY KEY, s text, b bytea, n numeric);
INSERT INTO t VALUES
 (1, 'it''s; a test', '\\x00ff', 1.5),
 (2, E'tab\\there\\nnewline\\r\\\\backslash', '\\x5c2e0a', NULL),
 (3, E'\\\\.\\n\\\\.\\n.', '\\x{all_bytes_hex()}', -0.0),
 (4, 'emoji \U0001F600 caf\u00e9 \u65e5\u672c', '\\x', 1e20),
 (5, '$$ $tag$ ; -- /* */ BEGIN ATOMIC END;', NULL, NULL),
 (6, E'ends with backslash \\\\', '\\x5c', 3),
 (7, E'\\\\N is not null', NULL, 4),
 (8, NULL, NULL, NULL);
CREATE TABLE "we;ird""name" ("a;b" int, "c""d" text);
INSERT INTO "we;ird""name" VALUES (1, 'x;y'), (2, E'\\\\.');
CREATE TABLE big (id int PRIMARY KEY, s text, b bytea);
INSERT INTO big VALUES {big};
CREATE TABLE empty_t (x int);
CREATE VIEW v AS SELECT id, 'a;b'::text AS "x;y", s FROM t;
CREATE TABLE a (x int);
CREATE TABLE b (x int);
CREATE VIEW vr AS SELECT x FROM a;
CREATE RULE r AS ON INSERT TO vr DO INSTEAD (INSERT INTO a VALUES (NEW.x); INSERT INTO b VALUES (NEW.x + 1));
CREATE RULE r2 AS ON UPDATE TO vr DO INSTEAD (UPDATE a SET x = NEW.x WHERE x = OLD.x; DELETE FROM b WHERE x = ';'::text::int);
CREATE FUNCTION f_atomic(x int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT x + 1; END;
CREATE PROCEDURE p_atomic(x int) LANGUAGE sql BEGIN ATOMIC INSERT INTO a VALUES (x); INSERT INTO b VALUES (x); END;
CREATE FUNCTION f_case(x int) RETURNS text LANGUAGE sql
BEGIN ATOMIC
  SELECT CASE WHEN x > 0 THEN 'p;os' ELSE 'neg' END;
END;
CREATE FUNCTION f_trg() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  NEW.s := NEW.s || ';$$' || E'\\\\';
  RETURN NEW;
END;
$body$;
CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION f_trg();
CREATE FUNCTION f_dollar() RETURNS text LANGUAGE sql AS $$ SELECT 'a;b' $$;
COMMENT ON TABLE t IS 'it''s; a -- comment /* x */';
CREATE TABLE c (x text DEFAULT E'it''s \\\\ ok;' CHECK (x <> ';'));
SET standard_conforming_strings = off;
INSERT INTO c VALUES ('nonstandard \\\\ and \\' quote; ok');
SET standard_conforming_strings = on;
INSERT INTO c VALUES (E'it''s \\' ok; E after doubled quote'), ('C:\\');
CREATE TABLE copied (id int, s text);
COPY copied (id, s) FROM stdin;
1\tfoo\\tbar; 'q
2\t\\\\.
3\t\\N
4\t\\\\N
\\.
SELECT 1;
CREATE VIEW v_last AS SELECT 'last;view'::text AS x;
""".encode()


def sqlite_setup():
    big = big_rows(3000, lambda i, a, b: f"({i}, '{a} {i}' || char(10) || '{b}', X'{(i * 2654435761 % 2**32):08x}00')")
    return f"""
CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, b BLOB, r REAL);
INSERT INTO t VALUES (1, 'it''s; -- x /* y */', X'00FF275C', 1.5);
INSERT INTO t VALUES (2, 'line' || char(10) || 'break' || char(13) || 'cr', X'{all_bytes_hex()}', NULL);
INSERT INTO t VALUES (3, 'emoji \U0001F600 caf\u00e9', X'', -0.0);
INSERT INTO t VALUES (4, 'back\\slash \\', NULL, 1e300);
INSERT INTO t VALUES (5, 'END; BEGIN CASE', NULL, 2);
CREATE TABLE "we;ird""name" ([a;b] INTEGER, `c``d` TEXT);
INSERT INTO "we;ird""name" VALUES (1, 'x;y');
CREATE TABLE log (id INTEGER, s TEXT);
CREATE TABLE big (id INTEGER PRIMARY KEY, s TEXT, b BLOB);
INSERT INTO big VALUES {big};
CREATE VIEW v AS SELECT id, 'a;b' AS "x;y" FROM t;
CREATE TRIGGER tr AFTER INSERT ON t BEGIN
  INSERT INTO log VALUES (new.id, 'x;y');
  UPDATE log SET s = s || ';' WHERE id = new.id;
END;
CREATE TRIGGER "tr;2" BEFORE DELETE ON t BEGIN
  SELECT CASE WHEN old.id < 0 THEN RAISE(ABORT, 'no;way') END;
END;
CREATE INDEX "i;x" ON t (s);
CREATE VIEW v_last AS SELECT 'last;view' AS x;
""".encode()


# ---------------------------------------------------------------------------
# per server

def normalise_pg(d):
    # pg_dump 15.14+ brackets the script with \\restrict KEY / \\unrestrict
    # KEY, a fresh random key per dump
    return re.sub(rb'^(\\(?:un)?restrict) \S+$', rb'\1 KEY', d, flags=re.M)


def normalise_mariadb(d, db):
    # the database's name appears only in comments: "-- Host: ... Database:
    # src" and "-- Dumping events for database 'src'"
    d = re.sub(rb'^(-- Host: \S+\s+Database: )\S+$', rb'\1DB', d, flags=re.M)
    return re.sub(rb"^(--.* for database )'" + re.escape(db.encode()) + rb"'$", rb"\1'DB'", d,
                  flags=re.M)


class Suite:
    def __init__(self, opt, tmp):
        self.opt, self.tmp = opt, tmp
        self.passed = self.failed = 0
        self.n = 0

    def case(self, name, fn):
        try:
            fn()
            self.passed += 1
            print(f'ok {name}', flush=True)
        except Exception as e:
            self.failed += 1
            msg = str(e) if isinstance(e, AssertionError) else traceback.format_exc()
            print(f'FAIL {name}: {msg}'[:3000], flush=True)

    def chunks(self, path):
        cs = CHUNKS if not self.opt.quick else [7, None]
        return [c for c in cs if c != 1 or os.path.getsize(path) <= SMALL]

    def restore_all(self, label, path, dialect, restore, canonical, source, extra=()):
        """Split path at every chunk size (same tokens for each), restore each
        split into a fresh database, compare its canonical dump with source."""
        ref = None
        for c in self.chunks(path):
            name = f'{label} chunk {c or "default"}'

            def one(c=c):
                nonlocal ref
                toks = split(self.opt.mote, path, dialect, c, extra)
                keys = [t.key() for t in toks]
                if ref is None:
                    ref = keys
                elif keys != ref:
                    i = next((i for i, (a, b) in enumerate(zip(keys, ref)) if a != b), min(len(keys), len(ref)))
                    raise AssertionError(f'tokens differ from chunk {self.chunks(path)[0]} at token {i}')
                self.n += 1
                got = canonical(restore(toks, self.n))
                if got != source:
                    raise AssertionError(diff(source, got))
            self.case(name, one)


def check_truncated(s, label, path, dialect, marker, into):
    """A dump cut inside a statement (or COPY row) must not look complete:
    its last token says terminated false, or an error is reported."""
    def one():
        with open(path, 'rb') as f:
            d = f.read()
        at = d.find(marker)
        if at < 0:
            raise AssertionError(f'{marker!r} not in the dump')
        cut = os.path.join(s.tmp, os.path.basename(path) + '.cut')
        with open(cut, 'wb') as f:
            f.write(d[:at + into])
        p = subprocess.run([s.opt.mote, 'sql', 'split', '--dialect', dialect, cut],
                           capture_output=True)
        objs = [json.loads(line) for line in p.stdout.splitlines()]
        if not objs:
            raise AssertionError('no output')
        last = objs[-1]
        if 'error' not in last and last.get('terminated') is not False:
            raise AssertionError(f'cut dump looks complete: last token {str(last)[:300]}')
    s.case(f'{label} cut inside a statement', one)


def diff(a, b):
    import difflib
    al = a.decode('utf-8', 'replace').splitlines()
    bl = b.decode('utf-8', 'replace').splitlines()
    d = list(difflib.unified_diff(al, bl, 'source', 'restored', n=1, lineterm=''))
    return 'dumps differ:\n' + '\n'.join(x[:300] for x in d[:40])


def test_mariadb(s):
    srv = servers.Mariadb(s.tmp)
    srv.start()
    srv.client(mariadb_setup())
    base = ['--routines', '--triggers', '--events', '--skip-dump-date']
    canon_opts = base + ['--hex-blob', '--skip-extended-insert', '--order-by-primary']

    def canonical(db):
        return normalise_mariadb(srv.dump(db, canon_opts), db)
    source = canonical('src')
    # the source itself must hold what the cases need
    for needle in (b'NO_BACKSLASH_ESCAPES', b"= 'ANSI_QUOTES'", b'p_ansi', b'/*!50001 CREATE', b'p_last',
                   b'v_last', b'EVENT'):
        if needle not in srv.dump('src', base):
            raise RuntimeError(f'source dump lacks {needle!r}')
    variants = {
        'default': [],
        'hex-blob': ['--hex-blob'],
        'net-buffer-4k': ['--net-buffer-length=4096'],
        'net-buffer-16m': ['--net-buffer-length=16777216'],
        'compact': ['--compact'],
        'skip-extended-insert': ['--skip-extended-insert'],
    }

    def restore(toks, n):
        db = f'dst{n}'
        c = srv.connect()
        c.query(f'CREATE DATABASE {db} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin')
        c.select_db(db)

        def ex(stmt, rows):
            if rows is not None:
                raise AssertionError('COPY data in a mysql dump')
            c.query(stmt)
        try:
            run_one(ex, toks)
        finally:
            c.close()
        return db

    for name, opts in variants.items():
        path = os.path.join(s.tmp, f'mariadb-{name}.sql')
        with open(path, 'wb') as f:
            f.write(srv.dump('src', base + opts))
        s.restore_all(f'mariadb {name}', path, 'mysql', restore, canonical, source)
    # the setup script itself (DELIMITER, NO_BACKSLASH_ESCAPES set by the
    # script, a view with */ in a quoted alias): split by mote versus run by
    # the mariadb client
    script = os.path.join(s.tmp, 'mariadb-script.sql')
    with open(script, 'wb') as f:
        f.write(mariadb_setup('scr'))

    def restore_script(toks, n):
        c = srv.connect()
        c.query('DROP DATABASE IF EXISTS scr')
        try:
            run_one(lambda stmt, rows: c.query(stmt), toks)
        finally:
            c.close()
        return 'scr'
    s.restore_all('mariadb setup script', script, 'mysql', restore_script, canonical, source)
    # Shift_JIS: mariadb-dump --default-character-set=sjis writes SET NAMES
    # sjis and the text in sjis, where a character's second byte may be '\\'
    # or '`' (表 95 5c, ソ 83 5c in names and strings, チ 83 60 in strings:
    # mariadb-dump itself doubles a trail '`' in a name, which breaks its own
    # LOCK TABLES, and writes a view's stand-in under character_set_client
    # utf8mb4 with its names in sjis: ASCII names there): split with
    # --charset sjis, as the mariadb client needs --default-character-set=sjis
    srv.client(MARIADB_SJIS.encode())
    path = os.path.join(s.tmp, 'mariadb-sjis.sql')
    with open(path, 'wb') as f:
        f.write(srv.dump('sj', base + ['--default-character-set=sjis']))
    with open(path, 'rb') as f:
        d = f.read()
    for needle in (b'SET NAMES sjis', '`表ソ`'.encode('sjis'), 'ソ;'.encode('sjis'), 'チ'.encode('sjis')):
        if needle not in d:
            raise RuntimeError(f'sjis dump lacks {needle!r}')
    s.restore_all('mariadb sjis', path, 'mysql', restore, canonical, canonical('sj'), ['--charset', 'sjis'])
    check_truncated(s, 'mariadb', os.path.join(s.tmp, 'mariadb-default.sql'), 'mysql',
                    b'INSERT INTO `big` VALUES', 100)
    srv.stop()


def test_postgres(s):
    srv = servers.Postgres(s.tmp)
    srv.start()
    srv.psql(b'CREATE DATABASE src', 'postgres')
    srv.psql(postgres_setup(), 'src')

    def canonical(db):
        return normalise_pg(srv.dump(db, []))
    source = canonical('src')
    for needle in (b'COPY public.t', b'BEGIN ATOMIC', b'CREATE RULE', b'\\restrict', b'$_$'):
        if needle not in srv.dump('src', []):
            raise RuntimeError(f'source dump lacks {needle!r}')
    variants = {'plain': [], 'inserts': ['--inserts'], 'column-inserts': ['--column-inserts']}

    def restore(toks, n, nonstandard=False):
        db = f'dst{n}'
        srv.psql(f'CREATE DATABASE {db}'.encode(), 'postgres')
        if nonstandard:
            srv.psql(f'ALTER DATABASE {db} SET standard_conforming_strings = off'.encode(), 'postgres')
        c = srv.connect(db)
        cur = c.cursor()

        def ex(stmt, rows):
            if rows is None:
                cur.execute(stmt)
            else:
                # (a COPY statement's own bytes are ASCII in every test dump)
                cur.copy_expert(stmt.decode('ascii'), io.BytesIO(b''.join(rows)))
        try:
            run_one(ex, toks)
        finally:
            c.close()
        return db

    for name, opts in variants.items():
        path = os.path.join(s.tmp, f'postgres-{name}.sql')
        with open(path, 'wb') as f:
            f.write(srv.dump('src', opts))
        s.restore_all(f'postgres {name}', path, 'postgres', restore, canonical, source)
    # the setup script itself (E'' strings, standard_conforming_strings off,
    # COPY data in a script): split by mote versus run by psql
    script = os.path.join(s.tmp, 'postgres-script.sql')
    with open(script, 'wb') as f:
        f.write(postgres_setup())
    s.restore_all('postgres setup script', script, 'postgres', restore, canonical, source)
    # SJIS, a client-only encoding: pg_dump -E SJIS of a database whose
    # strings are nonstandard ('' strings take backslash escapes), where a
    # character's second byte may be '\\' (表 95 5c): split as psql splits,
    # following the dump's SET client_encoding (no --charset)
    srv.psql(b"CREATE DATABASE sj", 'postgres')
    srv.psql(b"ALTER DATABASE sj SET standard_conforming_strings = off", 'postgres')
    srv.psql(POSTGRES_SJIS.encode(), 'sj')

    def restore_sj(toks, n):
        return restore(toks, n, nonstandard=True)

    for name, opts in {'plain': [], 'inserts': ['--inserts']}.items():
        path = os.path.join(s.tmp, f'postgres-sjis-{name}.sql')
        with open(path, 'wb') as f:
            f.write(srv.dump('sj', ['-E', 'SJIS'] + opts))
        with open(path, 'rb') as f:
            d = f.read()
        for needle in (b"client_encoding = 'SJIS'", b'standard_conforming_strings = off', "'表;ソ'".encode('sjis')):
            if needle not in d:
                raise RuntimeError(f'sjis dump lacks {needle!r}')
        s.restore_all(f'postgres sjis {name}', path, 'postgres', restore_sj, canonical, canonical('sj'))
    check_truncated(s, 'postgres plain, COPY', os.path.join(s.tmp, 'postgres-plain.sql'),
                    'postgres', b'COPY public.big', 300)
    check_truncated(s, 'postgres inserts', os.path.join(s.tmp, 'postgres-inserts.sql'),
                    'postgres', b'INSERT INTO public.big', 30)
    srv.stop()


def test_sqlite(s):
    servers.need('sqlite3')
    src = os.path.join(s.tmp, 'src.db')
    subprocess.run(['sqlite3', src], input=sqlite_setup(), check=True, capture_output=True)

    def canonical(db):
        return subprocess.run(['sqlite3', db, '.dump'], check=True, capture_output=True).stdout
    source = canonical(src)
    path = os.path.join(s.tmp, 'sqlite.sql')
    with open(path, 'wb') as f:
        f.write(source)

    def restore(toks, n):
        db = os.path.join(s.tmp, f'dst{n}.db')
        c = sqlite3.connect(db, isolation_level=None)

        def ex(stmt, rows):
            # execute() refuses more than one statement: a wrong split fails
            c.execute(stmt.decode('utf-8'))
        try:
            run_one(ex, toks)
        finally:
            c.close()
        return db
    s.restore_all('sqlite dump', path, 'sqlite', restore, canonical, source)
    script = os.path.join(s.tmp, 'sqlite-script.sql')
    with open(script, 'wb') as f:
        f.write(sqlite_setup())
    s.restore_all('sqlite setup script', script, 'sqlite', restore, canonical, source)
    check_truncated(s, 'sqlite', path, 'sqlite', b'INSERT INTO big', 30)

    if s.opt.sql_restore:
        def c_example():
            db = os.path.join(s.tmp, 'example.db')
            p = subprocess.run([s.opt.sql_restore, db, path], capture_output=True)
            if p.returncode != 0:
                raise AssertionError(f'sql_restore exit {p.returncode}: {p.stderr[:500]!r}')
            got = canonical(db)
            if got != source:
                raise AssertionError(diff(source, got))
        s.case('sqlite dump via examples/sql_restore', c_example)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--mote', required=True)
    ap.add_argument('--server', required=True, choices=['mariadb', 'postgres', 'sqlite'])
    ap.add_argument('--sql-restore')
    ap.add_argument('--quick', action='store_true', help='chunk sizes 7 and default only')
    ap.add_argument('--keep', help='work in this directory and keep it')
    opt = ap.parse_args()
    servers.install_signal_handlers()
    tmp_ctx = None
    if opt.keep:
        os.makedirs(opt.keep, exist_ok=True)
        tmp = opt.keep
    else:
        tmp_ctx = tempfile.TemporaryDirectory(prefix=f'mote-it-{opt.server}-')
        tmp = tmp_ctx.name
    s = Suite(opt, tmp)
    try:
        {'mariadb': test_mariadb, 'postgres': test_postgres, 'sqlite': test_sqlite}[opt.server](s)
    except Exception:
        s.failed += 1
        print(f'FAIL {opt.server} setup:\n{traceback.format_exc()}', flush=True)
    finally:
        servers.stop_all()
        if tmp_ctx:
            tmp_ctx.cleanup()
    print(f'{s.passed} passed, {s.failed} failed')
    return 1 if s.failed or not s.passed else 0


if __name__ == '__main__':
    sys.exit(main())
