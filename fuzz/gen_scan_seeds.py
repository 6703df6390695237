#!/usr/bin/env python3
"""Write the seed corpora of fuzz_scan_chunks, fuzz_scan_split and
fuzz_scan_sqlite (fuzz/corpus/scan_*/). Run from anywhere; overwrites."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

SQL = [
    b"select 1;select 2;",
    b"select 1--1;select 2 -- x;\n;",
    b"# it's\nselect 1;",
    b"/*/ ; */ select 1; x",
    b"a 'x\\';y' \"p;\" `b\\`;c",
    b"select 1;\nDELIMITER //\ncreate procedure p() begin select 1; end//\ndelimiter ;\nselect 3;",
    b"DELIMITER $$\nselect '$$' /* $$ */ $$x$$",
    b"delimiter\na;delimiter \\x\nb;",
    b"\xef\xbb\xbfa;\r\nb\r\r\nc\x00d;",
    b"\xef\xbbx;y",
    b"select $$a;b$$, $x$ $$; $x$;select E'\\';', e'x', 'y\\';",
    b"select /* a /* ; */ ; */ a$b; select $1;x$y$;",
    b"create temp trigger t after insert on a begin insert into b values(1); select [x;y]; end; x;",
    b"explain create trigger u before delete on a begin select 1; end ; create table end_t(x);",
    b"create trigger x begin select 1; end-; end;",
    b"m f=\"a\nb\" 1\r\n\nm\\\n x=1\n  \nlast",
    b"insert into t values (1,'a'),(2,'b\\'c'),(3,\"d;e\");\n" * 3,
    b"'unterminated;\n",
    b"/* unterminated ;",
    b"xaab yab",
    b";;; ;\n;",
    b"CREATE TRIGGER\"t\"AFTER;END;",
    b"create temporary trigger t; end ;",
    b"select 'it''s'; select \"a\"\"b\";",
]

def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

# fuzz_scan_chunks header: dialect|flags, max/dlen, 3 delimiter bytes, comments
for i, s in enumerate(SQL):
    for dialect in range(5):
        if (i + dialect) % 3:
            continue
        flags = [0, 0x08, 0x20, 0x48, 0x58][(i + dialect) % 5]
        m = 5 + i % 20
        dl = 0 if i % 4 else 2
        hdr = bytes([dialect | flags, (dl << 6) | m]) + b"ab;" + bytes([0x1b])
        write("scan_chunks", "seed%02d_%d" % (i, dialect), hdr + s)
    write("scan_split", "seed%02d" % i, b";" + s)
    write("scan_sqlite", "seed%02d" % i, s)
write("scan_split", "comma", b",a,\"b,c\",d\\,e,,")
write("scan_split", "newline", b"\nl1\n\"l\n2\"\n\\\nl3")
