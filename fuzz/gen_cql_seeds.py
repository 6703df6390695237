#!/usr/bin/env python3
"""Write the seed corpora for the cql fuzz targets (deterministic).

    python3 fuzz/gen_cql_seeds.py

fuzz/corpus/cql_decode/: byte 0 = index into the type table of
fuzz_cql_decode.c (or 0xff + type text + newline), then a value: valid ones
and the classic breakages (truncated, trailing, negative/huge counts, bad
vints, wrong widths). cql_roundtrip/: kind byte, shape byte, element bytes.
cql_kernels/: level byte, offsets byte, data of lengths around SIMD widths.
"""
import os
import random
import struct

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus')


def i32(v): return struct.pack('>i', v)
def i64(v): return struct.pack('>q', v)
def f32(v): return struct.pack('>f', v)
def f64(v): return struct.pack('>d', v)
def bts(b): return i32(len(b)) + b
NULL = i32(-1)


def uvint(v):
    n = 1
    while n < 9 and v >> (7 * n):
        n += 1
    if n == 9:
        return b'\xff' + v.to_bytes(8, 'big')
    b = bytearray(v.to_bytes(n, 'big'))
    b[0] |= (0xff00 >> (n - 1)) & 0xff
    return bytes(b)


def vint(v):
    return uvint((v << 1) ^ (v >> 63) if v < 0 else v << 1)


def lst(elems): return i32(len(elems)) + b''.join(bts(e) if e is not None else NULL for e in elems)


U = bytes(range(16))
decode = {
    'list_int': (0, lst([i32(1), i32(-1), i32(2**31 - 1)])),
    'list_int_empty': (0, i32(0)),
    'list_int_null': (0, lst([i32(1), None])),
    'list_int_trunc': (0, lst([i32(1), i32(2)])[:-1]),
    'list_int_trailing': (0, lst([i32(1)]) + b'\x00'),
    'list_int_negcount': (0, i32(-5)),
    'list_int_hugecount': (0, i32(2**31 - 1) + i32(4)),
    'list_int_badwidth': (0, i32(1) + bts(b'\x00\x01')),
    'list_int_neglen': (0, i32(1) + i32(-2)),
    'set_bigint': (1, lst([i64(-1), i64(2**62)])),
    'list_float': (2, lst([f32(1.5), f32(float('nan'))])),
    'list_double': (3, lst([f64(0.1)] * 5)),
    'list_uuid': (4, lst([U, U])),
    'vec_float': (5, f32(1) + f32(2) + f32(3)),
    'vec_float_short': (5, f32(1) + f32(2)),
    'vec_float_long': (5, f32(1) * 4),
    'vec_float_ragged': (5, f32(1) * 3 + b'\x00'),
    'vec_double': (6, f64(1) + f64(-2)),
    'vec_int': (7, i32(1) * 4),
    'vec_smallint': (8, b'\x02\x00\x01' * 3),
    'vec_smallint_badvint': (8, b'\x80\x02\x00\x01' * 3),
    'vec_smallint_extra': (8, b'\x02\x00\x01' * 4),
    'vec_text': (9, uvint(1) + b'a' + uvint(200) + b'x' * 200),
    'vec_text_hugevint': (9, b'\xf0\xff\xff\xff\xff' + b'a'),
    'vec_tinyint': (10, b'\x01\x05' * 5),
    'vec_uuid': (11, U),
    'vec_bool': (12, b'\x00\x01\x01\x00'),
    'vec_bool_bad': (12, b'\x00\x02\x01\x00'),
    'vec_vec_float': (13, f32(1) * 4),
    'vec_list_int': (14, uvint(12) + lst([i32(7)]) + uvint(4) + i32(0)),
    'map_text_bigint': (15, i32(2) + bts(b'a') + bts(i64(1)) + bts(b'bc') + bts(i64(-1))),
    'map_null_key': (15, i32(1) + NULL + bts(i64(1))),
    'map_nested': (16, i32(1) + bts(i32(3)) + bts(lst([b'x', None, b'']))),
    'tuple': (17, bts(i32(1)) + bts(b'hi') + bts(b'\x01')),
    'tuple_nulls': (17, NULL + NULL + NULL),
    'list_text_utf8': (18, lst(['é€😀'.encode(), b'\xc0\xaf'])),
    'list_blob': (19, lst([b'', b'\x00\xff', None])),
    'set_ascii': (20, lst([b'abc', b'\x80'])),
    'list_varint': (21, lst([b'\x00\x80', b'\xff', b''])),
    'list_decimal': (22, lst([i32(2) + b'\x7d', i32(0)])),
    'list_inet': (23, lst([b'\x7f\x00\x00\x01', bytes(16), b'\x01\x02\x03'])),
    'list_duration': (24, lst([vint(1) + vint(2) + vint(3), vint(1) + vint(-2) + vint(0),
                              b'\x80\x01\x00\x00'])),
    'list_date': (25, lst([i32(-2**31)])),
    'list_time': (26, lst([i64(1)])),
    'list_timestamp': (27, lst([i64(1577836800000)])),
    'list_counter': (28, lst([i64(5)])),
    'list_timeuuid': (29, lst([bytes(6) + b'\x10' + bytes(9)])),
    'map_deep': (30, i32(1) + bts(U) + bts(i32(1) + bts(b'k') + bts(bts(i32(1)) + bts(f64(2))))),
    'list_deep': (31, lst([lst([lst([i32(1)])])])),
    'vec_duration': (32, uvint(3) + vint(1) + vint(2) + vint(3) + uvint(3) + b'\x00\x00\x00'),
    'vec_varint': (33, (uvint(1) + b'\x05') * 3),
    'text': (34, 'hello'.encode()),
    'int': (35, i32(42)),
    'int_short': (35, b'\x00'),
    'double': (36, f64(-0.0)),
    'boolean': (37, b'\x01'),
    'duration': (38, vint(-1) + vint(0) + vint(-5)),
    'decimal': (39, i32(-3) + b'\x01'),
    'inet6': (40, bytes(15) + b'\x01'),
    'tuple_vec_list': (41, bts(f32(1) * 2) + bts(lst([b'\x00\x01']))),
    'set_vec': (42, lst([i32(1) + i32(2)])),
}
texts = {
    'text_type_vector': b'vector<float, 2>\n' + f32(1) * 2,
    'text_type_marshal': b'org.apache.cassandra.db.marshal.ListType(org.apache.cassandra.db.marshal.Int32Type)\n' + lst([i32(3)]),
    'text_type_frozen': b'frozen<map<text, frozen<list<int>>>>\n' + i32(0),
    'text_type_deep': b'list<' * 9 + b'int' + b'>' * 9 + b'\n',
    'text_type_bad': b'vector<float, 0>\n',
    'text_type_tuple': b'TupleType(Int32Type,UTF8Type)\n' + NULL + bts(b'a'),
}


def write(name, files):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    for k, v in files.items():
        with open(os.path.join(d, k), 'wb') as f:
            f.write(v)


write('cql_decode', {k: bytes([i]) + v for k, (i, v) in decode.items()} |
      {k: b'\xff' + v for k, v in texts.items()})

rng = random.Random(5)
rt = {}
for kind in range(15):
    for shape in range(3):
        n = rng.choice([1, 3, 8, 17, 40])
        rt[f'k{kind}_s{shape}'] = bytes([kind, shape]) + bytes(rng.randrange(256) for _ in range(n * 8))
write('cql_roundtrip', rt)

kr = {}
for level in range(4):
    for n in (0, 3, 15, 16, 31, 32, 33, 64, 100, 257):
        data = bytes(rng.randrange(256) for _ in range(n))
        if n == 64:  # a valid list<int> body so the decoders' accept path runs
            data = b''.join(b'\x00\x00\x00\x04' + bytes(rng.randrange(256) for _ in range(4)) for _ in range(8))
        kr[f'l{level}_n{n}'] = bytes([level, rng.randrange(64)]) + data
write('cql_kernels', kr)
