#!/usr/bin/env python3
"""The tool's JSON writer (tools/out.c) against a reference written here.

    python3 tests/tool_json.py HARNESS [HARNESS...] [--seed N] [--texts N]

Each HARNESS is tests/tool_json_harness.c built with tools/out.c (the build
makes one as configured, SSE2 on x86-64, and one with MOTE_NO_SIMD: the
portable masks). Random
texts of every length class (empty, below a word, a word, across the 32 KiB
buffer, past the segment size) and density of bytes that need escaping (tab,
quote, backslash, NUL, DEL, 0xff, UTF-8 sequences, broken ones) go through
both styles; the output must equal the reference byte for byte:
  UTF8 / UTF8_CHECK: '"' '\\' as \\" \\\\, \\b \\t \\n \\f \\r, other bytes below
  0x20 as \\u00XX, the rest as is (CHECK: "!BAD" when not UTF-8)
A third style is UTF8 through tool_json_short (tools/tool.h, lp dump's
short path) first, with bytes to escape right after the text: the same
output, and the path must take exactly the texts of 0-32 bytes with nothing
to escape (the harness counts them on stderr).
"""
import argparse
import random
import struct
import subprocess
import sys

SHORT = {8: b'\\b', 9: b'\\t', 10: b'\\n', 12: b'\\f', 13: b'\\r'}
PIECES = [b'a', b'\t', b'"', b'\\', b'\x00', b'\x7f', b'\xff', '\u20ac'.encode(),
          '\U0001f600'.encode(), b'\n', b'\x1f', b' ', b'\xc3', b'\x80', b'\r']


def reference(b):
    out = bytearray()
    for c in b:
        if c in (0x22, 0x5c):
            out += b'\\' + bytes([c])
        elif c in SHORT:
            out += SHORT[c]
        elif c < 0x20:
            out += b'\\u00%02x' % c
        else:
            out.append(c)
    return bytes(out)


def utf8(b):
    try:
        b.decode('utf-8')
        return True
    except UnicodeDecodeError:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('harness', nargs='+')
    ap.add_argument('--seed', type=int, default=14)
    ap.add_argument('--texts', type=int, default=1500)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    inp, want = bytearray(), bytearray()
    shorts = 0
    for _ in range(a.texts):
        n = rnd.randint(0, rnd.choice([0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 1000,
                                       5461, 5500, 40000, 100000]))
        dense = rnd.random()
        b = b''.join(rnd.choice(PIECES) if rnd.random() < dense else b'x' for _ in range(n))[:n]
        style = rnd.randrange(3)  # 0 UTF8, 1 UTF8_CHECK, 2 UTF8 by tool_json_short first
        if style != 1 and not utf8(b):
            style = 1  # UTF8 requires UTF-8
        if style == 2 and len(b) <= 32 and reference(b) == b:
            shorts += 1
        inp += struct.pack('<IB', len(b), style) + b
        want += b'x' * (len(b) % 97)
        want += b'!BAD' if style == 1 and not utf8(b) else reference(b)
        want += b'\n'
    fails = 0
    for h in a.harness:
        r = subprocess.run([h], input=bytes(inp), capture_output=True)
        got = r.stdout
        if r.stderr != b'short %d\n' % shorts:
            print(f'FAIL {h}: tool_json_short took {r.stderr[-300:]!r}, not the {shorts} texts of '
                  f'0-32 bytes with nothing to escape')
            fails += 1
        elif r.returncode != 0 or got != want:
            i = next((k for k, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want)))
            print(f'FAIL {h}: exit {r.returncode}, first difference at byte {i} of {len(want)}: '
                  f'got {got[i - 20:i + 20]!r} want {want[i - 20:i + 20]!r}; {r.stderr[-300:]!r}')
            fails += 1
        else:
            print(f'ok {h}: {a.texts} texts, {len(want)} bytes, {shorts} by the short path')
    sys.exit(1 if fails else 0)


if __name__ == '__main__':
    main()
