#!/usr/bin/env python3
"""Write tests/data/wire_tokens.tsv: Murmur3Partitioner tokens computed by the
Python cassandra-driver (cassandra.metadata.Murmur3Token.hash_fn, the
driver's port of Cassandra's MurmurHash.hash3_x64_128), for test_wire.c.

Each line: keys<TAB>token. keys is one hex string (a single-column partition
key) or several joined by ',' (a composite key: the driver's hash of the
CompositeType bytes, per component a 2-byte big-endian length, the bytes
and a 0x00). 1,000 single keys of 1..80 bytes (every tail length 0..15, many
bytes >= 0x80, where Cassandra's signed-byte tail matters) and 200 composite
keys of 2..4 components. Deterministic (fixed seed).

Usage: python3 tests/gen/wire_tokens.py > tests/data/wire_tokens.tsv
"""
import random
import struct

from cassandra.metadata import Murmur3Token


def token(b):
    return Murmur3Token.hash_fn(b)


def main():
    rnd = random.Random(12)
    out = []
    for i in range(1000):
        n = 1 + (i % 80)
        if i % 3 == 0:
            key = bytes(rnd.randrange(0x80, 0x100) for _ in range(n))
        elif i % 3 == 1:
            key = bytes(rnd.randrange(0, 0x100) for _ in range(n))
        else:
            key = ('k%d' % i).encode() * (1 + n // 4)
            key = key[:n]
        out.append((key.hex(), token(key)))
    for i in range(200):
        parts = [bytes(rnd.randrange(0, 0x100) for _ in range(rnd.randrange(0, 40)))
                 for _ in range(2 + i % 3)]
        comp = b''.join(struct.pack('>H', len(p)) + p + b'\x00' for p in parts)
        out.append((','.join(p.hex() for p in parts), token(comp)))
    for k, t in out:
        print('%s\t%d' % (k, t))


if __name__ == '__main__':
    main()
