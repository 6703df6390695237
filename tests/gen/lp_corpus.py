#!/usr/bin/env python3
"""Convert the line-protocol conformance corpus (corpus.json) into
tests/data/lp/corpus.txt, a line-based format test_lp_conformance.c reads
without a JSON parser.

    python3 tests/gen/lp_corpus.py CORPUS_JSON > tests/data/lp/corpus.txt

Format (one record per line, fields separated by one space):
    decode KEY PRECISION DEFAULT_TIME      PRECISION is ns, us, ms or s
    input STR                               the whole input
    points N | error                        N points follow, or the input is rejected
    point STR                               measurement
    tag STR STR                             key, value (sorted by key, as in the corpus)
    field STR TYPE VALUE                    TYPE float (VALUE: 16 hex digits of the IEEE
                                            754 bits), int, uint (decimal), bool (true/
                                            false), string (VALUE: STR)
    time NS
    end
    encode KEY PRECISION
    point/tag/field/time as above           the point to encode
    output STR | error
    end
STR is a quote (') followed by the bytes, where every byte outside 0x21..0x7e
and the bytes '%' and ''' are written %HH; the empty string is a lone quote.
Cases are in key order.
"""
import base64
import json
import struct
import sys

PREC = {'1ns': 'ns', '1µs': 'us', '1us': 'us', '1ms': 'ms', '1s': 's'}


def s(b):
    if isinstance(b, str):
        b = b.encode('utf-8')
    out = ["'"]
    for c in b:
        if 0x21 <= c <= 0x7e and c not in (0x25, 0x27):
            out.append(chr(c))
        else:
            out.append('%%%02X' % c)
    return ''.join(out)


def text(t):
    if isinstance(t, dict):
        return base64.b64decode(t['binary'])
    return t.encode('utf-8')


def point(p, out):
    out.append('point ' + s(p['name']))
    for t in p.get('tags') or []:
        out.append('tag %s %s' % (s(t['key']), s(t['value'])))
    for f in p.get('fields') or []:
        (kind, v), = f['value'].items()
        if kind == 'float':
            val = struct.pack('>d', float(v)).hex()
        elif kind in ('int', 'uint'):
            val = str(int(v))
        elif kind == 'bool':
            val = 'true' if v else 'false'
        elif kind == 'string':
            val = s(v)
        else:
            raise ValueError(kind)
        out.append('field %s %s %s' % (s(f['key']), kind, val))
    out.append('time %d' % int(p['time']))


def main():
    corpus = json.load(open(sys.argv[1], encoding='utf-8'))
    out = ['# mote line-protocol conformance corpus: a conversion of corpus.json',
           '# (influxdata/line-protocol, MIT, see LICENSE.corpus) by tests/gen/lp_corpus.py;',
           '# the format is described there.']
    for key in sorted(corpus['decode']):
        c = corpus['decode'][key]
        i = c['input']
        out.append('decode %s %s %d' % (key, PREC[i['precision']], int(i.get('defaultTime', 0))))
        out.append('input ' + s(text(i['text'])))
        o = c['output']
        if 'error' in o:
            out.append('error')
        else:
            out.append('points %d' % len(o['result']))
            for p in o['result']:
                point(p, out)
        out.append('end')
    for key in sorted(corpus['encode']):
        c = corpus['encode'][key]
        i = c['input']
        out.append('encode %s %s' % (key, PREC[i['precision']]))
        point(i['point'], out)
        o = c['output']
        if 'error' in o:
            out.append('error')
        else:
            out.append('output ' + s(o['result']))
        out.append('end')
    sys.stdout.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
