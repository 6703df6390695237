#!/usr/bin/env python3
"""tool_sql_json.py MOTE - the JSON of 'mote sql split' carries every token's
exact bytes: for random scripts (quotes, backslashes, NUL, control bytes,
valid and invalid UTF-8, long runs of each) in every dialect and several
chunk sizes, each output line is strict JSON in valid UTF-8; a token has
"text" exactly when its bytes are UTF-8, else "base64"; the decoded bytes
equal input[offset:offset+length]; "kind" and "terminated" are present;
tokens come in input order without overlapping; every chunk size gives the
same output; and the run as a whole checked tokens of both forms (a split
that printed nothing, or only errors, fails). Exit 1 on the first
mismatch."""
import base64
import json
import random
import subprocess
import sys

KINDS = {'statement', 'command', 'copy_data', 'copy_end', 'comment'}
PIECES = [b"'", b'"', b'\\', b';', b'\x00', b'\x01', b'\x1f', b'\t', b'\n', b'\r', b'\x7f',
          b'caf\xc3\xa9', b'\xf0\x9f\x98\x80', b'\xe6\x97\xa5\xe6\x9c\xac', b'\xff', b'\xc3',
          b'\xed\xa0\x80', b'\xc0\xaf', b'\xf4\x90\x80\x80', b'abc', b'select ', b'x' * 40,
          b'\xc3\xa9' * 30, b'\\\\' * 9, b'"' * 9, b'-- c\n', b'/* c */', b'$$', b'`']


def gen(rnd):
    n = rnd.randrange(0, 60)
    return b''.join(rnd.choice(PIECES) for _ in range(n))


SEEN = {'text': 0, 'base64': 0}  # tokens checked, by form


def check(mote, data, dialect, chunk):
    p = subprocess.run([mote, 'sql', 'split', '--dialect', dialect, '--chunk', str(chunk), '-'],
                       input=data, capture_output=True)
    if p.returncode not in (0, 1):
        raise AssertionError(f'exit {p.returncode}: {p.stderr!r}')
    out = p.stdout
    out.decode('utf-8')  # strict: the whole output is UTF-8
    end = 0  # where the last token ended: tokens in order, never overlapping
    for line in out.split(b'\n')[:-1]:
        o = json.loads(line)
        if 'error' in o:
            continue
        if o['offset'] < end:
            raise AssertionError(f'token before the end of the last one ({end}): {line!r}')
        end = o['offset'] + o['length']
        SEEN['text' if 'text' in o else 'base64'] += 1
        if o['kind'] not in KINDS or not isinstance(o['terminated'], bool):
            raise AssertionError(f'kind/terminated: {line!r}')
        want = data[o['offset']:o['offset'] + o['length']]
        if 'text' in o:
            got = o['text'].encode('utf-8', 'surrogatepass')
            if 'base64' in o:
                raise AssertionError(f'both text and base64: {line!r}')
        else:
            got = base64.b64decode(o['base64'], validate=True)
            try:
                got.decode('utf-8')
                raise AssertionError(f'base64 for valid UTF-8: {line!r}')
            except UnicodeDecodeError:
                pass
        if got != want or len(got) != o['length']:
            raise AssertionError(f'bytes differ: {got!r} != {want!r} in {line!r}')
    return out


def main():
    mote = sys.argv[1]
    rnd = random.Random(11)
    cases = 0
    inputs = [gen(rnd) for _ in range(80)]
    # long tokens: past the writer's 64 KiB buffer, in text and base64 form
    inputs.append(b'select \'' + b'\xc3\xa9"\\\n' * 40000 + b'\';x;')
    inputs.append(b'select \'' + b'\xc3\xa9"\\\n' * 40000 + b'\xff\';x;')
    # many short tokens, some not UTF-8, so that the writer's buffer fills
    # at every kind of token (a bad token must not leave bytes behind)
    inputs.append(b''.join(b'x' * rnd.randrange(0, 90) + rnd.choice([b'', b'\xff', b'\xc3\xa9', b'"'])
                           + b';' for _ in range(20000)))
    inputs.append(b'a' * 200001 + b'\xf0\x9f\x98\x80' * 50001 + b';')
    for i, data in enumerate(inputs):
        for dialect in ('generic', 'mysql', 'sqlite', 'postgres', 'lines'):
            first = None
            for chunk in (1, 7, 65536) if len(data) < 5000 else (4096, 65536):
                try:
                    out = check(mote, data, dialect, chunk)
                except AssertionError as e:
                    print(f'FAIL input {i} {dialect} chunk {chunk}: {e}'[:2000])
                    return 1
                if first is None:
                    first = out
                elif out != first:
                    print(f'FAIL input {i} {dialect}: chunk {chunk} output differs')
                    return 1
                cases += 1
    # a split that printed nothing (or errors alone) checked nothing
    if SEEN['text'] < cases or SEEN['base64'] < 100:
        print(f'FAIL too few tokens checked: {SEEN} in {cases} runs')
        return 1
    print(f'{cases} passed, 0 failed ({SEEN["text"]} text and {SEEN["base64"]} base64 tokens)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
