#!/usr/bin/env python3
r"""Write a varied line-protocol corpus for the byte-exact test of 'mote lp dump'.

tests/tool_lp.sh compares 'mote lp dump' of tests/data/lp/dump_varied.lp with
tests/data/lp/dump_varied.json, both checked in; this script made the corpus
(the JSON is the tool's own output, reviewed once, so that a faster writer
must reproduce the old bytes; written again when the dump's strings became
UTF-8 text instead of a \u00XX per byte >= 0x7f, and checked to read as the
old one's bytes). Same seed, same bytes.

What it holds, mixed: escapes in measurements, tag keys/values, field keys and
strings; control bytes, DEL, UTF-8 and bytes that are not UTF-8; every field
type and its spellings (floats of every magnitude, i/u integers at their
limits, t/T/true/True/TRUE/f/F/false/False/FALSE); timestamps and none; CRLF
line ends, blank and comment lines, leading spaces; points with more than 32
tags or fields (beyond the tool's arrays); lines longer than a small chunk;
bad lines of several kinds (each one an error object in the dump).

Usage: python3 tests/gen_lp_varied.py > tests/data/lp/dump_varied.lp
"""
import random
import sys

R = random.Random(1414)

PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/'
# names take no control bytes (the parser rejects them); strings take any
ODD_NAME = ['\u00e9', '\u20ac', '\U0001f600', '"', '\\x', "'", '{', '}']
ODD_STRING = ODD_NAME + ['\x7f', '\x01', '\t', '\x1f', '\r']


def word(lo=1, hi=12, odd=0.0, escapes='', odd_set=None):
    out = []
    for _ in range(R.randint(lo, hi)):
        r = R.random()
        if r < odd:
            out.append(R.choice(odd_set or ODD_NAME))
        elif r < odd * 1.6 and escapes:
            out.append('\\' + R.choice(escapes))
        else:
            out.append(R.choice(PLAIN))
    s = ''.join(out)
    # a key or value may not end in a lone backslash (it would escape the separator)
    while s.endswith('\\'):
        s = s[:-1] + 'z'
    return s or 'k'


def flt():
    k = R.randrange(9)
    if k == 0:
        return repr(R.uniform(-1, 1))
    if k == 1:
        return '%de%d' % (R.randint(1, 9), R.randint(-320, 308))
    if k == 2:
        return str(R.randint(-10**6, 10**6))
    if k == 3:
        return R.choice(['0', '-0', '0.0', '1.', '.5', '-.5', '1e0', '1E+2', '2.5e-3',
                         '1.7976931348623157e308', '4.9e-324', '2.2250738585072014e-308',
                         '123456789012345678901234567890', '0.1', '0.30000000000000004'])
    return repr(R.uniform(-1e6, 1e6) * 10 ** R.randint(-20, 20))


def value():
    k = R.randrange(10)
    if k < 3:
        return flt()
    if k < 5:
        return '%di' % R.choice([R.randint(-1000, 1000), R.randint(-2**63, 2**63 - 1),
                                 -2**63, 2**63 - 1, 0])
    if k == 5:
        return '%du' % R.choice([R.randint(0, 1000), R.randint(0, 2**64 - 1), 2**64 - 1, 0])
    if k == 6:
        return R.choice(['t', 'T', 'true', 'True', 'TRUE', 'f', 'F', 'false', 'False', 'FALSE'])
    s = word(0, 30, odd=0.15, escapes='"\\', odd_set=ODD_STRING)
    s = s.replace('"', '\\"') if '\\"' not in s else s
    if R.random() < 0.1:
        s += '\nsecond line'
    # an unescaped quote would end the string: escape every bare one
    out, i = [], 0
    while i < len(s):
        if s[i] == '\\' and i + 1 < len(s):
            out.append(s[i:i + 2])
            i += 2
            continue
        out.append('\\"' if s[i] == '"' else s[i])
        i += 1
    return '"' + ''.join(out) + '"'


def good_line():
    meas = word(1, 10, odd=0.05, escapes=', ')
    if meas.startswith('#'):
        meas = 'm' + meas
    ntags = R.choice([0, 1, 2, 5, 10] + ([40] if R.random() < 0.05 else []))
    nfields = R.choice([1, 1, 2, 4, 10] + ([35] if R.random() < 0.05 else []))
    tags = ''.join(',%s=%s' % (word(1, 10, 0.05, ',= '), word(1, 16, 0.05, ',= '))
                   for _ in range(ntags))
    fields = ','.join('%s=%s' % (word(1, 12, 0.03, ',= '), value()) for _ in range(nfields))
    ts = R.choice(['', ' %d' % R.randint(0, 2**62), ' -%d' % R.randint(1, 10**12), ' 0',
                   ' 1451606400000000000'])
    return meas + tags + ' ' + fields + ts


BAD = ['m', 'm,t= f=1', 'm f=', 'm f=1 12x', 'm f=1i2', 'm f="open', ',t=1 f=1',
       'm f=99999999999999999999i', 'm f=18446744073709551616u', 'm f=-1u', 'm  f=1',
       'm f=1 9223372036854775808', 'm,=v f=1', 'm f=tru', 'm f=1,', 'm f=1e999']


def main():
    lines = []
    for i in range(1500):
        r = R.random()
        if r < 0.04:
            lines.append(R.choice(BAD))
        elif r < 0.05:
            lines.append(R.choice(['', '# a comment', '   # indented comment', '  ']))
        else:
            line = good_line()
            if R.random() < 0.05:
                line = '  ' + line
            lines.append(line)
    out = []
    for line in lines:
        out.append(line + ('\r\n' if R.random() < 0.05 else '\n'))
    data = ''.join(out).encode('utf-8')
    # bytes that are not UTF-8, in a tag value and a string field
    data += b'bin,t=\xff\xfe\x80 s="\xc3(\xa0\xa1",n=1i 5\n'
    sys.stdout.buffer.write(data)


if __name__ == '__main__':
    main()
