#!/usr/bin/env python3
"""Write the seed corpus of fuzz_arena_ops into fuzz/corpus/arena_ops/.

Each seed is a short, meaningful operation sequence in the target's input
format: 3 setup bytes (arena A / arena B min-block shift, pool max shift),
then ops. An op byte selects the operation (byte % 18) and, for buffer ops,
the buffer (bits 5-6: 0/1 pool, 2 arena, 3 fixed 512 B); arguments follow.
Run: python3 fuzz/gen_arena_ops_corpus.py
"""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "arena_ops")

ALLOC, ALLOC_AL, CALLOC, BAD, SAVE, RESTORE, RESET = 0, 2, 3, 4, 5, 6, 7
GET, PUT, BADPUT, APPEND, RESERVE, TAIL, CONSUME, MISC = 8, 10, 11, 12, 14, 15, 16, 17


def code(op, buf=0):
    for c in range(256):
        if c % 18 == op and (c >> 5) & 3 == buf:
            return c
    raise ValueError((op, buf))


def u16(n):
    return bytes([n & 255, n >> 8])


def alloc(n):
    return bytes([code(ALLOC)]) + u16(n) + b"\0"


def alloc_al(n, shift):
    return bytes([code(ALLOC_AL)]) + u16(n) + bytes([shift])


def calloc(count, each):
    return bytes([code(CALLOC)]) + u16(each * 64 + count) + b"\0"


def get(n):
    return bytes([code(GET), 1]) + u16(n) if n > 255 else bytes([code(GET), 0, n])


def put(i=0):
    return bytes([code(PUT), i])


def append(buf, n, push=False, self_off=None):
    mode = 0 if push else 1
    if push:
        return bytes([code(APPEND, buf), 0])
    b = bytes([code(APPEND, buf), mode, 1]) + u16(n)
    b += bytes([0]) + u16(self_off) if self_off is not None else bytes([1])
    return b


def seeds():
    s = {}
    s["arena_small_allocs"] = b"\0\0\4" + b"".join(alloc(n) for n in range(1, 40))
    s["arena_chain_growth"] = b"\0\0\4" + b"".join(alloc(1000) for _ in range(20))
    s["arena_big_blocks"] = b"\7\0\4" + b"".join(alloc(2999) for _ in range(12))
    s["arena_aligned"] = b"\0\0\4" + b"".join(alloc_al(n, sh) for n, sh in
                                               [(1, 0), (3, 7), (100, 6), (0, 5), (7, 3), (2000, 7)])
    s["arena_calloc"] = b"\0\0\4" + b"".join(calloc(c, e) for c, e in [(10, 4), (63, 46), (0, 5), (1, 1)])
    s["arena_bad_requests"] = b"\0\0\4" + bytes([code(BAD), 0, 5, code(BAD), 1, 9, code(BAD), 2, 0,
                                                  code(BAD), 3, code(BAD), 0, 255])
    s["arena_save_restore"] = (b"\0\0\4" + alloc(100) + bytes([code(SAVE)]) + alloc(500) + alloc(3000)
                               + bytes([code(RESTORE)]) + alloc(50))
    s["arena_nested_marks"] = (b"\1\0\4" + b"".join(bytes([code(SAVE)]) + alloc(700) for _ in range(6))
                               + bytes([code(RESTORE)] * 3) + alloc(10) + bytes([code(RESTORE)] * 4))
    s["arena_reset_keep"] = (b"\0\0\4" + alloc(2000) * 5 + bytes([code(RESET), 0, 0]) + alloc(2000) * 5)
    s["arena_reset_release"] = (b"\0\0\4" + alloc(2000) * 5 + bytes([code(RESET), 0, 1]) + alloc(100))
    s["arena_fail_next"] = b"\0\0\4" + alloc(1500) + bytes([code(MISC), 0, 1]) + alloc(3000) + alloc(3000)
    s["pool_get_put_cycle"] = b"\0\0\4" + (get(100) + put()) * 10
    s["pool_classes"] = b"\0\0\6" + b"".join(get(n) for n in [0, 1, 16, 17, 33, 64, 200, 255, 1000])
    s["pool_many_live"] = b"\0\0\4" + get(40) * 30 + put(3) * 10 + get(40) * 10
    s["pool_oversize"] = b"\0\0\2" + get(4000) + get(100) + put(0) + put(0)
    s["pool_double_put"] = b"\0\0\4" + get(64) + get(64) + put(0) + bytes([code(BADPUT), 0, 0])
    s["pool_foreign_put"] = (b"\0\0\4" + get(200) + bytes([code(BADPUT), 1, 0, 2, code(BADPUT), 2, 3])
                             + put(0))
    s["pool_exhaust_budget"] = b"\0\0\0" + get(4999) * 40
    s["pool_fail_next"] = b"\0\0\3" + bytes([code(MISC), 0, 0]) + get(3000) + get(3000)
    for buf in range(4):
        s[f"buf{buf}_appends"] = b"\0\0\4" + b"".join(append(buf, n) for n in [1, 15, 16, 100, 1000])
        s[f"buf{buf}_to_cap"] = b"\0\0\4" + append(buf, 2999) * 4 + append(buf, 10) + append(buf, 1)
        s[f"buf{buf}_push"] = b"\0\0\4" + append(buf, 0, push=True) * 40
    s["buf0_self_append"] = b"\0\0\4" + append(0, 100) + append(0, 100, self_off=0) + append(0, 100, self_off=50)
    s["buf2_self_append"] = b"\0\0\4" + append(2, 300) + append(2, 300, self_off=10)
    s["buf_reserve_overflow"] = b"\0\0\4" + append(1, 10) + bytes([code(RESERVE, 1), 1, 0, 0,
                                                                    code(RESERVE, 1), 1, 9, 0])
    s["buf_reserve_limit"] = b"\0\0\4" + bytes([code(RESERVE, 2), 0]) + u16(9000) + bytes(
        [code(RESERVE, 3), 0]) + u16(600)
    # TAIL: u16 commit count (mod free+1), then u8: 0 -> u16 extra (clamped), else none.
    s["buf_tail_commit"] = (b"\0\0\4" + append(0, 10) + bytes([code(TAIL, 0)]) + u16(5) + b"\1"
                            + bytes([code(TAIL, 0)]) + u16(3) + b"\0" + u16(60000))
    s["buf_consume_clear"] = b"\0\0\4" + append(2, 500) + bytes([code(CONSUME, 2)]) + u16(100) + b"\1" + bytes(
        [code(CONSUME, 2)]) + u16(0) + b"\0"
    s["buf_detach_free"] = (b"\0\0\4" + append(0, 100) + bytes([code(MISC, 0), 1, 1]) + append(0, 50)
                            + bytes([code(MISC, 0), 1, 0]) + append(3, 20) + bytes([code(MISC, 3), 1, 1])
                            + append(3, 20))
    s["buf_oversize_pool"] = b"\0\0\0" + append(1, 2000) + append(1, 2000) + bytes([code(MISC, 1), 1, 0])
    s["mixed_all"] = (b"\2\3\5" + alloc(100) + get(50) + append(0, 70) + bytes([code(SAVE)]) + alloc(900)
                      + append(2, 1500) + get(3000) + put(1) + bytes([code(RESTORE)]) + append(1, 2999)
                      + bytes([code(BADPUT), 0, 0]) + bytes([code(MISC, 2), 1, 0]) + alloc(2500))
    return s


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in seeds().items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(seeds())} seeds to {OUT}")


if __name__ == "__main__":
    main()
