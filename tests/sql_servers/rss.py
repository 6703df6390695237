#!/usr/bin/env python3
"""rss.py --mote PATH [--size-mb 200] [--longest BYTES]

Max RSS of 'mote sql split --dialect mysql' on a generated dump of about
--size-mb megabytes (tests/sql_servers/gen_dump.py) whose longest statement
is --longest bytes (default 3,000,000: not a power of two, so a carry that
doubles would show): it must stay at most the longest statement + 2 MiB,
whatever the dump's size. The split must exit 0 and report every statement.
Needs /usr/bin/time (Debian package time). Prints the numbers and
'N passed, N failed'; exit 1 on failure."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mote', required=True)
    ap.add_argument('--size-mb', type=float, default=200)
    ap.add_argument('--longest', type=int, default=3_000_000)
    opt = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix='mote-rss-') as tmp:
        dump = os.path.join(tmp, 'dump.sql')
        longest = int(subprocess.run([sys.executable, os.path.join(HERE, 'gen_dump.py'),
                                      str(opt.size_mb), dump, '--longest', str(opt.longest)],
                                     check=True, capture_output=True, text=True).stdout)
        size = os.path.getsize(dump)
        out = os.path.join(tmp, 'out.json')
        # Max RSS through GNU time: a high-water mark survives exec(), so a
        # child forked from this Python process would report Python's own
        # RSS when that is larger; time's is about 2 MB.
        rss_file = os.path.join(tmp, 'rss')
        with open(out, 'wb') as f:
            t0 = time.time()
            p = subprocess.run(['/usr/bin/time', '-f', '%M', '-o', rss_file, opt.mote, 'sql',
                                'split', '--dialect', 'mysql', dump], stdout=f)
            secs = time.time() - t0
        with open(rss_file) as f:
            rss = int(f.read().split()[-1]) * 1024  # KiB
        limit = longest + (2 << 20)
        with open(out, 'rb') as f:
            lines = sum(1 for _ in f)
        print(f'dump {size} bytes, longest statement {longest} bytes, max RSS {rss} bytes '
              f'(limit {limit}, {(limit - rss) / 1024:.0f} KiB to spare), '
              f'{lines} tokens, {size / secs / 1e9:.2f} GB/s to a file')
        failed = 0
        if p.returncode != 0:
            print(f'FAIL exit status {p.returncode}')
            failed += 1
        if rss > limit:
            print(f'FAIL max RSS {rss} > longest statement + 2 MiB = {limit}')
            failed += 1
        if lines < 100:
            print(f"FAIL only {lines} tokens")
            failed += 1
    print(f'{3 - failed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
