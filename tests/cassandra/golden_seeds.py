#!/usr/bin/env python3
"""Seeds for fuzz_wire_decode from the frames recorded from Cassandra 5.0.6.

    python3 tests/cassandra/golden_seeds.py

fuzz/corpus/wire_decode/golden_NAME: the feeding-mode byte the target reads
first (0x05: chunks of 6 bytes, 64-byte receive buffer, so big frames come
out as LIMIT), then tests/data/wire/NAME.bin; golden_all_MM: every recorded
frame back to back (stream ids as recorded: the target has 0..63 in flight)
under modes 0x00, 0x1f and 0x30 (fuzz/gen_wire_seeds.py has the mode bits).
"""
import glob
import os

here = os.path.dirname(os.path.abspath(__file__))
src = os.path.join(here, '..', 'data', 'wire')
dst = os.path.join(here, '..', '..', 'fuzz', 'corpus', 'wire_decode')
for old in glob.glob(os.path.join(dst, 'golden_*')):
    os.remove(old)
frames = []
for path in sorted(glob.glob(os.path.join(src, '*.bin'))):
    data = open(path, 'rb').read()
    frames.append(data)
    name = os.path.basename(path)[:-4]
    with open(os.path.join(dst, 'golden_' + name), 'wb') as f:
        f.write(b'\x05' + data)
for mode in (0x00, 0x1f, 0x30):
    with open(os.path.join(dst, 'golden_all_%02x' % mode), 'wb') as f:
        f.write(bytes([mode]) + b''.join(frames))
