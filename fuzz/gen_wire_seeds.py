#!/usr/bin/env python3
"""Write the seed corpus of fuzz_wire_decode (deterministic).

    python3 fuzz/gen_wire_seeds.py

fuzz/corpus/wire_decode/: byte 0 = feeding mode (chunk size 1..16 in the low
bits, receive buffer 64/256/1024/8192 in bits 4-5), then v4 response frames
as a server sends them (stream ids 0..63 are in flight in the target): every
response opcode and RESULT kind, every ERROR body, EVENTs, tracing/warning/
payload prefixes, a frame larger than the small buffers followed by a small
one, a frame cut short, and a bad header. Frames recorded from a live
Cassandra 5.0.6 (the integration suite's golden frames) belong here too.
"""
import os
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'wire_decode')


def u8(v): return struct.pack('>B', v)
def u16(v): return struct.pack('>H', v)
def i32(v): return struct.pack('>i', v)
def s(t): t = t.encode() if isinstance(t, str) else t; return u16(len(t)) + t
def bts(b): return i32(-1) if b is None else i32(len(b)) + b
def slist(*xs): return u16(len(xs)) + b''.join(s(x) for x in xs)


def frame(stream, op, body, flags=0):
    return bytes([0x84, flags]) + struct.pack('>hB', stream, op) + i32(len(body)) + body


ROWS = (i32(2) + i32(1 | 2) + i32(3) + bts(b'\x01\x02') + s('ks') + s('t') +
        s('a') + u16(0x09) + s('b') + u16(0x20) + u16(0x0d) +
        s('c') + u16(0x21) + u16(0x0d) + u16(0x31) + u16(2) + u16(0x09) + u16(0x03) +
        i32(2) + bts(b'\0\0\0\x07') + bts(None) + bts(b'') +
        bts(b'') + bts(b'\0\0\0\0') + bts(None))
ROWS_SPECS = (i32(2) + i32(0) + i32(2) + s('ks') + s('t') + s('v') + u16(0) +
              s('org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType, 3)') +
              s('ks') + s('t') + s('u') + u16(0x30) + s('ks') + s('addr') + u16(2) +
              s('street') + u16(0x0d) + s('n') + u16(0x09) +
              i32(1) + bts(b'\x3f\x80\0\0' * 3) + bts(b'\0\0\0\x01a'))
PREPARED = (i32(4) + s(b'\x8f\x12' * 8) + i32(1) + i32(3) + i32(2) + u16(2) + u16(0) +
            s('ks') + s('t') + s('a') + u16(0x09) + s('b') + u16(0x0d) + s('c') + u16(0x22) + u16(0x02) +
            i32(4) + i32(0))
SCHEMA = [i32(5) + s('CREATED') + s('KEYSPACE') + s('ks'),
          i32(5) + s('UPDATED') + s('TABLE') + s('ks') + s('t'),
          i32(5) + s('DROPPED') + s('FUNCTION') + s('ks') + s('f') + slist('int', 'text')]
ERRORS = [
    i32(0x0000) + s('server'), i32(0x000a) + s('protocol'), i32(0x0100) + s('bad credentials'),
    i32(0x1000) + s('unavailable') + u16(4) + i32(3) + i32(1),
    i32(0x1001) + s('overloaded'), i32(0x1002) + s('bootstrapping'), i32(0x1003) + s('truncate'),
    i32(0x1100) + s('write timeout') + u16(1) + i32(0) + i32(1) + s('SIMPLE'),
    i32(0x1200) + s('read timeout') + u16(1) + i32(0) + i32(1) + u8(0),
    i32(0x1300) + s('read failure') + u16(1) + i32(0) + i32(1) + i32(1) + u8(1),
    i32(0x1400) + s('function failure') + s('ks') + s('fn') + slist('int'),
    i32(0x1500) + s('write failure') + u16(1) + i32(0) + i32(1) + i32(1) + s('BATCH_LOG'),
    i32(0x2000) + s('line 1:0 no viable alternative at input'), i32(0x2100) + s('unauthorized'),
    i32(0x2200) + s('unconfigured table nope'), i32(0x2300) + s('config'),
    i32(0x2400) + s('already exists') + s('ks') + s(''),
    i32(0x2500) + s('unprepared') + s(b'\x8f\x12' * 8),
]
EVENTS = [s('STATUS_CHANGE') + s('UP') + u8(4) + b'\x7f\0\0\x01' + i32(9042),
          s('TOPOLOGY_CHANGE') + s('NEW_NODE') + u8(16) + bytes(16) + i32(9042),
          s('SCHEMA_CHANGE') + s('CREATED') + s('TYPE') + s('ks') + s('addr')]
SUPPORTED = u16(2) + s('COMPRESSION') + slist('snappy', 'lz4') + s('CQL_VERSION') + slist('3.4.7')


def main():
    os.makedirs(ROOT, exist_ok=True)
    seeds = {
        'handshake': frame(0, 0x06, SUPPORTED) + frame(1, 0x03, s('org.apache.cassandra.auth.PasswordAuthenticator')) +
                     frame(2, 0x0e, bts(b'challenge')) + frame(3, 0x10, bts(None)) + frame(4, 0x02, b''),
        'rows': frame(5, 0x08, ROWS),
        'rows_specs': frame(6, 0x08, ROWS_SPECS),
        'prepared': frame(7, 0x08, PREPARED),
        'void_keyspace': frame(8, 0x08, i32(1)) + frame(9, 0x08, i32(3) + s('ks')),
        'schema': b''.join(frame(10 + i, 0x08, b) for i, b in enumerate(SCHEMA)),
        'errors': b''.join(frame(i, 0x00, b) for i, b in enumerate(ERRORS)),
        'events': b''.join(frame(-1, 0x0c, b) for b in EVENTS),
        'prefixes': frame(20, 0x08, bytes(range(16)) + slist('Batch is large') + u16(1) + s('k') + bts(b'v') + i32(1),
                          flags=0x0e),
        'oversize': frame(21, 0x08, i32(2) + i32(4) + i32(1) + i32(1) + bts(b'x' * 600)) + frame(22, 0x02, b''),
        'out_of_order': frame(30, 0x02, b'') + frame(2, 0x02, b'') + frame(30, 0x02, b'') + frame(63, 0x02, b''),
        'cut_short': frame(23, 0x08, ROWS)[:-5],
        'bad_header': frame(24, 0x02, b'') + b'\x83\x00\x00\x00\x02\x00\x00\x00\x00' + frame(25, 0x02, b''),
        'compressed': frame(26, 0x08, i32(1), flags=1) + frame(27, 0x08, i32(1)),
    }
    modes = [0x00, 0x05, 0x1f, 0x23, 0x30]
    for name, data in seeds.items():
        for m in modes:
            with open(os.path.join(ROOT, '%s_%02x' % (name, m)), 'wb') as f:
                f.write(bytes([m]) + data)


if __name__ == '__main__':
    main()
