#!/usr/bin/env python3
"""Write a mysqldump-like SQL script of about SIZE megabytes (deterministic).

    gen_dump.py SIZE_MB OUT [--longest BYTES]
    gen_dump.py SIZE_MB OUT --pg-copy

--pg-copy: a pg_dump-like script instead, COPY ... FROM stdin blocks of
20,000 short rows each (tabs, backslash escapes, NULLs, UTF-8), one token per
row for the postgres dialect.

Tables with multi-row INSERTs whose strings hold quotes, backslash escapes,
UTF-8 (accents, emoji), semicolons and comment-like text; a routine between
DELIMITER commands; one statement of --longest bytes (default 4 MiB) in the
middle. Prints the length of the longest statement (bytes, without its ';').
Used by bench/run.py (CLI throughput) and the sql-servers suite (max RSS).
"""
import random
import sys


def repr_note(rnd):
    return "'note'" if rnd.randrange(2) else "'caf\u00e9 \U0001F600'"


def pg_copy(size, out, rnd):
    names = ['caf\u00e9', 'a\\\\b', 'x', 'tab\\there', '\U0001F600']
    null = '\\N'
    rows = b''.join((f"{i}\tname {i} {rnd.choice(names)}\t{rnd.randrange(10000)}."
                     f"{rnd.randrange(100):02d}\t2024-01-{1 + i % 28:02d} 12:00:00+00\t"
                     + (null if i % 3 else 'note') + '\n').encode()
                    for i in range(1, 20001))
    with open(out, 'wb') as f:
        f.write(b"SET standard_conforming_strings = on;\n"
                b"CREATE TABLE public.t (id int, name text, price numeric, created timestamptz,"
                b" note text);\n")
        n = 0
        while n < size:
            f.write(b'COPY public.t (id, name, price, created, note) FROM stdin;\n')
            f.write(rows)
            f.write(b'\\.\n\n')
            n += len(rows)
    print(max(len(r) for r in rows.split(b'\n')))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    size = int(float(sys.argv[1]) * 1e6)
    out = sys.argv[2]
    longest_req = 4 << 20
    if len(sys.argv) > 4 and sys.argv[3] == '--longest':
        longest_req = int(sys.argv[4])
    rnd = random.Random(11)
    if len(sys.argv) > 3 and sys.argv[3] == '--pg-copy':
        return pg_copy(size, out, rnd)
    words = ['alpha', 'beta', 'gamma', 'delta', 'zeta', 'alpha', "it\\'s", 'semi;colon', 'back\\\\slash', 'caf\u00e9', 'na\u00efve',
             '\U0001F600', '-- not a comment', '/* nor this */', 'tab\\there', 'line\\nbreak',
             '"dq"', 'x' * 40, '\u65e5\u672c\u8a9e']
    head = ('-- MariaDB dump 10.19  Distrib 10.11\n/*!40101 SET NAMES utf8mb4 */;\n'
            '/*!40103 SET TIME_ZONE=\'+00:00\' */;\n'
            'DROP TABLE IF EXISTS `t`;\nCREATE TABLE `t` (\n  `id` int NOT NULL,\n'
            '  `s` text,\n  `price` decimal(10,2),\n  `created` datetime,\n  `note` text,\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n'
            'DELIMITER ;;\nCREATE PROCEDURE p() BEGIN SELECT 1; SELECT \'a;b\'; END ;;\n'
            'DELIMITER ;\n')
    # a pool of distinct statements, cycled: a 200 MB dump in about a second
    pool = []
    row_id = 0
    for _ in range(256):
        rows = []
        for _ in range(rnd.randint(200, 1200)):
            row_id += 1
            w = rnd.choice(words)
            rows.append(f"({row_id},'{w} {rnd.randrange(1000)}',{rnd.randrange(10000)}."
                        f"{rnd.randrange(100):02d},'2024-{1 + rnd.randrange(12):02d}-"
                        f"{1 + rnd.randrange(28):02d} 12:{rnd.randrange(60):02d}:00',"
                        f"{'NULL' if rnd.randrange(5) else repr_note(rnd)})")
        pool.append(('INSERT INTO `t` VALUES ' + ','.join(rows)).encode() + b';\n')
    big = ('INSERT INTO `t` VALUES (0,\'' + 'y' * max(0, longest_req - 40) + '\')').encode()
    longest = max(max(len(p) for p in pool) - 2, len(big))
    written = len(head)
    big_done = False
    i = 0
    with open(out, 'wb') as f:
        f.write(head.encode())
        while written < size:
            if not big_done and written >= size // 2:
                f.write(big + b';\n')
                written += len(big) + 2
                big_done = True
            stmt = pool[i % len(pool)]
            i += 1
            f.write(stmt)
            written += len(stmt)
        tail = b'/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;\n-- Dump completed on 2024-01-01\n'
        f.write(tail)
    print(longest)


if __name__ == '__main__':
    main()
