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
    # issue 11: real dumps
    b"COPY t (a) FROM stdin;\na;b\n\\.\nSELECT 1;",
    b"copy public.t (a, b) FROM STDIN WITH (FORMAT text);  \r\nit's\t\\\\N\r\n\r\n\\.\r\nSELECT 1;",
    b"--\n-- PostgreSQL database dump\n--\n\n\\restrict KEY\n\n-- x\nSET a = 1;\n\\unrestrict KEY\n",
    b"CREATE OR REPLACE PROCEDURE p() LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN true THEN 1 END; SELECT 2; END; SELECT 3;",
    b"CREATE RULE r AS ON INSERT TO v DO INSTEAD (INSERT INTO a VALUES (1); INSERT INTO b VALUES (2)); x;",
    b"SELECT E'it''s \\' ok;'; SELECT 2;",
    b"SET standard_conforming_strings = off;\nSELECT 'a\\';b';\nRESET ALL;\nSELECT 'e\\';",
    b"SET sql_mode='NO_BACKSLASH_ESCAPES';\nSELECT 'C:\\';\nSELECT 2;",
    b"/*!50003 SET @saved_sql_mode = @@sql_mode */ ;\n/*!50003 SET sql_mode = 'NO_BACKSLASH_ESCAPES' */ ;\nSELECT 'C:\\';\n/*!50003 SET sql_mode = @saved_sql_mode */ ;\nSELECT 'a\\';b';",
    b"/*!50001 CREATE VIEW v AS SELECT 1 AS `a*/b` */;\nSELECT 2;/*M!100100 SELECT '*/;' */;",
    b"# c\n--1; /* d */ /*!1 x */;/* e */ /*M!1 y */;\n-- Dump completed\n",
]

def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

# fuzz_scan_chunks header: dialect|flags, max/dlen, 3 delimiter bytes, comments
for i, s in enumerate(SQL):
    for dialect in range(5):
        # the issue 11 seeds (24 on) in mysql and postgres each
        if (i + dialect) % 3 and not (i >= 24 and dialect in (1, 3)):
            continue
        flags = [0, 0x08, 0x20, 0x48, 0x58][(i + dialect) % 5]
        m = 5 + i % 20
        dl = 0 if i % 4 else 2
        # byte 5: generic comment styles; KEEP_COMMENTS, NO_BACKSLASH_ESCAPES,
        # PG_NONSTANDARD_STRINGS on some seeds
        extra = [0, 0x20, 0x40, 0x80, 0xe0][(i + 2 * dialect) % 5]
        hdr = bytes([dialect | flags, (dl << 6) | m]) + b"ab;" + bytes([0x1b | extra])
        write("scan_chunks", "seed%02d_%d" % (i, dialect), hdr + s)
    write("scan_split", "seed%02d" % i, b";" + s)
    write("scan_sqlite", "seed%02d" % i, s)
write("scan_split", "comma", b",a,\"b,c\",d\\,e,,")
write("scan_split", "newline", b"\nl1\n\"l\n2\"\n\\\nl3")
