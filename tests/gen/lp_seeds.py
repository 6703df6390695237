#!/usr/bin/env python3
"""Write the seed corpora of the line-protocol fuzz targets:

    python3 tests/gen/lp_seeds.py     (from the repository root)

fuzz/corpus/lp_decode/ and lp_roundtrip/ get 1 option byte + input,
fuzz/corpus/lp_chunks/ gets 3 bytes (options, carry size, chunk seed) + input.
Inputs: hand-written cases for each grammar corner, plus every 200th input of
tests/data/lp/corpus.txt (accepted and rejected ones alike) and every 20th
recovery ("lines") input of tests/data/lp/reference_cases.txt (bad lines among
good ones).
"""
import hashlib
import os

HAND = [
    b'cpu,host=a,region=eu usage=1.5,n=3i,u=4u,ok=true,s="x" 1700000000000000000\n',
    b'my\\ m\\,x,t\\=k=v\\ a\\,l f\\ k="q\\"\\\\" 1\n',
    b'm,k=a\\\\b f=1\nm f="a\\b"\n',
    b'# comment\r\n\r\n  \n  m f=1\r\nm f=2 3\r\n',
    b'm s="multi\nline\r\nstring" 5\nnext f=1\n',
    b'm f=1\rx f=1\n',
    b'a f=1\nb,t= f=1\nc f=1,\nd f=abc\ne\ng f=1 12x\nh f=99999999999999999999i\ni f=1',
    b'm f=9223372036854775807i,g=-9223372036854775808i,u=18446744073709551615u\n',
    b'm a=t,b=T,c=true,d=True,e=TRUE,f=f,g=F,h=false,i=False,j=FALSE\n',
    b'm f=-1.25e-2,g=.5,h=5.,i=1E+308,j=4.9e-324\n',
    b'm f=0x1p3\nm f=1_000\nm f=-inf\nm f=nan\nm f=1e400\n',
    b'm f=1 -9223372036854775808\nm f=1 9223372036854775808\n',
    b'm,t=\xc3\xa9 s="\xe2\x82\xac"\nm,t=\xff f=1\nm s="\xed\xa0\x80"\n',
    b'm s="unterminated',
    b'm s="ends in backslash\\',
    b'm,t=v\\',
    b'm\\ ',
    b'\\ m f=1',
    b'm  f=1   2  \n',
    b'm f=1,,g=2\nm f==1\nm =1\n,t=1 f=1\n m,=1 f=1\n',
    b'm s="a\\"b\\"c",t="" 1\r',
    b'm\x00 f=1\nm f=1\x7f\n#\x01bad comment\n',
    b'm f=1 1\n' * 20,
]


def corpus_inputs(name='corpus.txt', kind='decode', every=200):
    """Every `every`-th input of the cases of `kind` in tests/data/lp/NAME."""
    path = os.path.join('tests', 'data', 'lp', name)
    out = []
    n = 0
    want = False
    for line in open(path, encoding='ascii'):
        if line.startswith(('decode ', 'lines ', 'encode ')):
            want = line.startswith(kind + ' ')
        elif line.startswith('input ') and want:
            n += 1
            if n % every == 0:
                t = line[7:].rstrip('\n')
                b = bytearray()
                i = 0
                while i < len(t):
                    if t[i] == '%':
                        b.append(int(t[i + 1:i + 3], 16))
                        i += 3
                    else:
                        b.append(ord(t[i]))
                        i += 1
                out.append(bytes(b))
    return out


def write(target, data):
    d = os.path.join('fuzz', 'corpus', target)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def main():
    # (new inputs go last: the seeds before them keep their option bytes)
    inputs = HAND + corpus_inputs() + corpus_inputs('reference_cases.txt', 'lines', 20)
    for i, t in enumerate(inputs):
        opt = bytes([0 if i % 3 else (i * 7) & 63])
        write('lp_decode', opt + t)
        if i < len(HAND) or i % 2 == 0:
            write('lp_roundtrip', opt + t)
        if i < len(HAND) or i % 2 == 1:
            write('lp_chunks', opt + bytes([(i * 13) & 255, i & 255]) + t)


if __name__ == '__main__':
    main()
