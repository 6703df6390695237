#!/usr/bin/env python3
"""Record response frames from a real Cassandra into tests/data/wire/*.bin.

    tests/cassandra/record_frames.py AUTH_PORT NOAUTH_PORT OUTDIR

AUTH_PORT: a server with PasswordAuthenticator (user cassandra/cassandra);
NOAUTH_PORT: one with AllowAllAuthenticator (the only way to get READY for a
STARTUP). Both on 127.0.0.1 (tests/cassandra/server start). Each .bin is one
whole response frame as the server sent it: the 9-byte v4 header and the body.
The requests are built here by hand, from the protocol spec (native_protocol_v4
.spec); a line per frame goes to OUTDIR/frames.tsv: file, stream, opcode, what
was sent. Deterministic apart from ids, uuids and timestamps the server makes.
"""
import socket
import struct
import sys
import time

OP = dict(ERROR=0, STARTUP=1, READY=2, AUTHENTICATE=3, OPTIONS=5, SUPPORTED=6,
          QUERY=7, RESULT=8, PREPARE=9, EXECUTE=10, REGISTER=11, EVENT=12,
          BATCH=13, AUTH_CHALLENGE=14, AUTH_RESPONSE=15, AUTH_SUCCESS=16)
ONE, QUORUM = 1, 4


def string(s):
    b = s.encode()
    return struct.pack(">H", len(b)) + b


def long_string(s):
    b = s.encode()
    return struct.pack(">i", len(b)) + b


def bytes_(b):
    return struct.pack(">i", -1) if b is None else struct.pack(">i", len(b)) + b


def short_bytes(b):
    return struct.pack(">H", len(b)) + b


def string_map(d):
    return struct.pack(">H", len(d)) + b"".join(string(k) + string(v) for k, v in d.items())


def params(cl=ONE, values=None, page_size=None, paging_state=None, skip_meta=False):
    flags = 0
    tail = b""
    if values is not None:
        flags |= 0x01
        tail += struct.pack(">H", len(values)) + b"".join(bytes_(v) for v in values)
    if skip_meta:
        flags |= 0x02
    if page_size is not None:
        flags |= 0x04
        tail += struct.pack(">i", page_size)
    if paging_state is not None:
        flags |= 0x08
        tail += bytes_(paging_state)
    return struct.pack(">HB", cl, flags) + tail


class Conn:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""

    def send(self, stream, op, body):
        self.s.sendall(struct.pack(">BBhBi", 4, 0, stream, OP[op], len(body)) + body)

    def recv(self):
        while True:
            if len(self.buf) >= 9:
                n = struct.unpack(">i", self.buf[5:9])[0]
                if len(self.buf) >= 9 + n:
                    f, self.buf = self.buf[:9 + n], self.buf[9 + n:]
                    return f
            d = self.s.recv(65536)
            if not d:
                raise EOFError("server closed")
            self.buf += d

    def ask(self, stream, op, body):
        self.send(stream, op, body)
        f = self.recv()
        assert struct.unpack(">h", f[2:4])[0] == stream, f
        return f


def body_of(frame):
    """The body after the header and, when header flag 0x08 says so, the warnings."""
    body = frame[9:]
    if frame[1] & 0x08:
        n = struct.unpack(">H", body[:2])[0]
        off = 2
        for _ in range(n):
            off += 2 + struct.unpack(">H", body[off:off + 2])[0]
        body = body[off:]
    return body


def main():
    auth_port, noauth_port, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    log = []

    def rec(name, frame, what):
        with open(f"{out}/{name}.bin", "wb") as fh:
            fh.write(frame)
        log.append(f"{name}.bin\t{struct.unpack('>h', frame[2:4])[0]}\t0x{frame[4]:02x}\t{what}")

    startup = string_map({"CQL_VERSION": "3.0.0"})

    # --- no auth: READY, SUPPORTED
    c = Conn(noauth_port)
    rec("supported", c.ask(0, "OPTIONS", b""), "OPTIONS")
    rec("ready", c.ask(1, "STARTUP", startup), "STARTUP CQL_VERSION=3.0.0 (AllowAllAuthenticator)")

    # --- auth: AUTHENTICATE, bad credentials, AUTH_SUCCESS
    c = Conn(auth_port)
    rec("authenticate", c.ask(1, "STARTUP", startup), "STARTUP (PasswordAuthenticator)")
    rec("error_bad_credentials", c.ask(2, "AUTH_RESPONSE", bytes_(b"\0cassandra\0wrong")),
        "AUTH_RESPONSE SASL PLAIN cassandra/wrong")
    c = Conn(auth_port)
    c.ask(1, "STARTUP", startup)
    rec("auth_success", c.ask(2, "AUTH_RESPONSE", bytes_(b"\0cassandra\0cassandra")),
        "AUTH_RESPONSE SASL PLAIN cassandra/cassandra")

    def q(stream, text, **kw):
        return c.ask(stream, "QUERY", long_string(text) + params(**kw))

    q(3, "DROP KEYSPACE IF EXISTS golden")
    rec("schema_created_keyspace",
        q(4, "CREATE KEYSPACE golden WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"),
        "CREATE KEYSPACE golden")
    rec("error_already_exists",
        q(5, "CREATE KEYSPACE golden WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}"),
        "CREATE KEYSPACE golden (again)")
    rec("set_keyspace", q(6, "USE golden"), "USE golden")
    rec("schema_created_table",
        q(7, "CREATE TABLE t (k int, c text, v bigint, l list<int>, m map<text,double>, tu tuple<int,text>, "
             "PRIMARY KEY (k, c))"), "CREATE TABLE t")
    rec("void_insert", q(8, "INSERT INTO t (k, c, v, l, m, tu) VALUES (1, 'a', 10, [1,2,3], {'x': 1.5}, (5, 'five'))"),
        "INSERT INTO t ... (1, 'a', ...)")
    for i in range(2, 6):
        q(9, f"INSERT INTO t (k, c, v) VALUES (1, 'r{i}', {i})")
    q(9, "INSERT INTO t (k, c, v, tu) VALUES (2, 'short', null, (5))")
    q(9, "INSERT INTO t (k, c, v) VALUES (3, 'empty', blobAsBigint(0x))")
    rec("rows_select", q(10, "SELECT k, c, v, l, m, tu FROM t WHERE k = 1"), "SELECT k, c, v, l, m, tu FROM t WHERE k = 1")
    rec("rows_short_tuple_null", q(11, "SELECT k, c, v, tu FROM t WHERE k = 2"),
        "SELECT ... WHERE k = 2: tu stored from the literal (5) (one component of two), v null")
    rec("rows_empty_value", q(11, "SELECT k, c, v FROM t WHERE k = 3"),
        "SELECT ... WHERE k = 3: v is blobAsBigint(0x), an empty (zero-length) value")
    p1 = q(12, "SELECT k, c, v FROM t WHERE k = 1", page_size=2)
    rec("rows_page1", p1, "SELECT k, c, v FROM t WHERE k = 1, page size 2 (has more pages)")
    # paging state: Rows body = kind int, flags int, column count int, then [bytes] paging state if flag 0x02
    body = body_of(p1)
    flags = struct.unpack(">i", body[4:8])[0]
    assert flags & 0x02, "first page should have a paging state"
    n = struct.unpack(">i", body[12:16])[0]
    state = body[16:16 + n]
    rec("rows_page2", q(13, "SELECT k, c, v FROM t WHERE k = 1", page_size=2, paging_state=state),
        "the same SELECT, second page (paging state from rows_page1)")
    rec("rows_empty", q(14, "SELECT k, c FROM t WHERE k = 99"), "SELECT ... WHERE k = 99 (no rows)")

    rec("prepared_warning", c.ask(15, "PREPARE", long_string("INSERT INTO t (k, c, v) VALUES (?, ?, ?)")),
        "PREPARE INSERT INTO t ... after USE golden: the server adds a warning (header flag 0x08)")
    prep = c.ask(15, "PREPARE", long_string("INSERT INTO golden.t (k, c, v) VALUES (?, ?, ?)"))
    rec("prepared_insert", prep, "PREPARE INSERT INTO golden.t (k, c, v) VALUES (?, ?, ?)")
    pb = body_of(prep)
    idlen = struct.unpack(">H", pb[4:6])[0]
    pid = pb[6:6 + idlen]
    rec("prepared_select", c.ask(16, "PREPARE", long_string("SELECT v, l FROM golden.t WHERE k = ? AND c = ?")),
        "PREPARE SELECT v, l FROM golden.t WHERE k = ? AND c = ?")
    ok = struct.pack(">i", 7), b"x", struct.pack(">q", 70)
    rec("void_execute", c.ask(17, "EXECUTE", short_bytes(pid) + params(values=list(ok))),
        "EXECUTE prepared_insert (7, 'x', 70)")
    rec("error_wrong_bind_type",
        c.ask(18, "EXECUTE", short_bytes(pid) + params(values=[b"\0\0\0", b"x", struct.pack(">q", 1)])),
        "EXECUTE prepared_insert with a 3-byte int")
    rec("error_unprepared", c.ask(19, "EXECUTE", short_bytes(b"\x01" * 16) + params(values=list(ok))),
        "EXECUTE an id the server never issued (16 bytes of 0x01)")
    batch = struct.pack(">BH", 1, 3)  # unlogged, 3 statements
    for i in range(3):
        batch += b"\x01" + short_bytes(pid) + struct.pack(">H", 3) + bytes_(struct.pack(">i", 100 + i)) \
            + bytes_(b"b") + bytes_(struct.pack(">q", i))
    batch += struct.pack(">HB", ONE, 0)
    rec("void_batch", c.ask(20, "BATCH", batch), "BATCH unlogged, 3 x EXECUTE prepared_insert")
    rec("error_syntax", q(21, "SELEC * FROM t"), "SELEC * FROM t")
    rec("error_unknown_table", q(22, "SELECT * FROM golden.nosuch"), "SELECT * FROM golden.nosuch")
    q(23, "CREATE KEYSPACE rf3 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}")
    q(24, "CREATE TABLE rf3.t (k int PRIMARY KEY, v int)")
    rec("error_unavailable", q(25, "INSERT INTO rf3.t (k, v) VALUES (1, 1)", cl=QUORUM),
        "INSERT at QUORUM into a keyspace with replication_factor 3 on one node")

    # EVENT: register on a second connection, change the schema on the first
    e = Conn(auth_port)
    e.ask(1, "STARTUP", startup)
    e.ask(2, "AUTH_RESPONSE", bytes_(b"\0cassandra\0cassandra"))
    rec("ready_register", e.ask(3, "REGISTER", struct.pack(">H", 1) + string("SCHEMA_CHANGE")),
        "REGISTER [SCHEMA_CHANGE]")
    rec("schema_altered_table", q(26, "ALTER TABLE t ADD w int"), "ALTER TABLE t ADD w int")
    rec("event_schema_change", e.recv(), "EVENT pushed after ALTER TABLE t (stream -1)")
    rec("schema_dropped_keyspace", q(27, "DROP KEYSPACE rf3"), "DROP KEYSPACE rf3")

    with open(f"{out}/frames.tsv", "w") as fh:
        fh.write("# file\tstream\topcode\trequest\n" + "\n".join(log) + "\n")


if __name__ == "__main__":
    main()
