/* test_buf.c - the contract of include/mote/buf.h (memory part). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mote/buf.h"
#include "counting_alloc.h"

static _Alignas(16) uint8_t block[16384];

static void fill(uint8_t *p, size_t n, size_t seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)((seed + i) * 31u);
}

static bool check(const uint8_t *p, size_t n, size_t seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (uint8_t)((seed + i) * 31u)) return false;
    return true;
}

/* Fixed buffer: appends within the block succeed; one that does not fit
 * returns LIMIT and leaves the content intact; push at full too. */
static void fixed_buffer_limit_keeps_content(void **state)
{
    (void)state;
    uint8_t mem[10];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "hello", 5), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "world!", 6), MOTE_ERR_LIMIT);
    assert_int_equal(b.len, 5);
    assert_memory_equal(b.data, "hello", 5);
    assert_int_equal(mote_buf_append(&b, "world", 5), MOTE_OK);
    assert_int_equal(mote_buf_push(&b, '!'), MOTE_ERR_LIMIT);
    assert_int_equal(mote_buf_reserve(&b, 1), MOTE_ERR_LIMIT);
    assert_int_equal(mote_buf_reserve(&b, 0), MOTE_OK);
    assert_memory_equal(b.data, "helloworld", 10);
    assert_ptr_equal(b.data, mem);
    /* NULL memory with a size is INVALID and leaves a zero-sized buffer;
     * NULL with size 0 is a valid empty one. */
    assert_int_equal(mote_buf_init_fixed(&b, NULL, 100), MOTE_ERR_INVALID);
    assert_int_equal(b.cap, 0);
    assert_int_equal(mote_buf_push(&b, 1), MOTE_ERR_LIMIT);
    assert_int_equal(mote_buf_init_fixed(&b, NULL, 0), MOTE_OK);
    assert_int_equal(b.cap, 0);
    assert_int_equal(mote_buf_push(&b, 1), MOTE_ERR_LIMIT);
}

/* NULL buffer and NULL source are rejected; empty appends are no-ops. */
static void null_arguments(void **state)
{
    (void)state;
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, block, 16), MOTE_OK);
    assert_int_equal(mote_buf_reserve(NULL, 1), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_append(NULL, "x", 1), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_push(NULL, 1), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_append(&b, NULL, 3), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_append(&b, NULL, 0), MOTE_OK);
    assert_int_equal(b.len, 0);
    size_t avail = 7;
    assert_null(mote_buf_tail(NULL, &avail));
    assert_int_equal(avail, 0);
    mote_buf_commit(NULL, 1);
    mote_buf_consume(NULL, 1);
    mote_buf_clear(NULL);
    mote_buf_free(NULL);
    size_t len = 9;
    assert_null(mote_buf_detach(NULL, &len));
    assert_int_equal(len, 0);
    assert_int_equal(mote_buf_init_pool(NULL, NULL, 0), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_init_arena(NULL, NULL, 0), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_init_fixed(NULL, NULL, 0), MOTE_ERR_INVALID);
    /* A buffer with neither pool nor arena is INVALID and cannot grow. */
    assert_int_equal(mote_buf_init_pool(&b, NULL, 0), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_push(&b, 1), MOTE_ERR_LIMIT);
    assert_int_equal(mote_buf_init_arena(&b, NULL, 0), MOTE_ERR_INVALID);
    assert_int_equal(mote_buf_push(&b, 1), MOTE_ERR_LIMIT);
}

/* Arena buffer grows by doubling; while it is the arena's last allocation
 * it grows in place (same pointer, no copy). */
static void arena_buffer_doubles_in_place(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_int_equal(mote_buf_push(&b, 0), MOTE_OK);
    uint8_t *first = b.data;
    assert_int_equal(b.cap, 16);
    size_t caps[8], n = 0, last = b.cap;
    for (size_t i = 1; i < 1000; i++) {
        assert_int_equal(mote_buf_push(&b, (uint8_t)((i * 31u))), MOTE_OK);
        if (b.cap != last) {
            assert_int_equal(b.cap, last * 2);
            caps[n++ % 8] = b.cap;
            last = b.cap;
        }
    }
    (void)caps;
    assert_ptr_equal(b.data, first);
    assert_int_equal(b.cap, 1024);
    assert_true(check(b.data, 1000, 0));
    assert_int_equal(a.used, 1024);
    /* Another allocation after it forces a move, content copied. */
    assert_non_null(mote_arena_alloc(&a, 8));
    assert_int_equal(mote_buf_append(&b, block, 100), MOTE_OK);
    assert_ptr_not_equal(b.data, first);
    assert_int_equal(b.cap, 2048);
    assert_true(check(b.data, 1000, 0));
    mote_arena_destroy(&a);
}

/* Pool buffer: growth takes a larger class and puts the old one back, so
 * outstanding equals the current class; free returns it. */
static void pool_buffer_grows_and_returns_storage(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &p, 0), MOTE_OK);
    uint8_t src[700];
    fill(src, sizeof src, 5);
    for (size_t i = 0; i < sizeof src; i += 70) {
        assert_int_equal(mote_buf_append(&b, src + i, 70), MOTE_OK);
        mote_pool_stats s;
        mote_pool_get_stats(&p, &s);
        assert_int_equal(s.outstanding, b.cap);
    }
    assert_int_equal(b.len, 700);
    assert_int_equal(b.cap, 1024);
    assert_true(check(b.data, 700, 5));
    mote_buf_free(&b);
    mote_pool_stats s;
    mote_pool_get_stats(&p, &s);
    assert_int_equal(s.outstanding, 0);
    assert_int_equal(s.bad_puts, 0);
    assert_null(b.data);
    assert_int_equal(b.len + b.cap, 0);
    mote_arena_destroy(&a);
}

/* The hard cap: growth stops at max, the append that would cross it returns
 * LIMIT with the content intact, reaching it exactly works. */
static void cap_reached_content_intact(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    mote_buf bufs[2];
    assert_int_equal(mote_buf_init_pool(&bufs[0], &p, 100), MOTE_OK);
    assert_int_equal(mote_buf_init_arena(&bufs[1], &a, 100), MOTE_OK);
    for (int k = 0; k < 2; k++) {
        mote_buf *b = &bufs[k];
        uint8_t src[120];
        fill(src, sizeof src, 1);
        assert_int_equal(mote_buf_append(b, src, 90), MOTE_OK);
        assert_true(b->cap <= 100);
        assert_int_equal(mote_buf_append(b, src + 90, 20), MOTE_ERR_LIMIT);
        assert_int_equal(mote_buf_reserve(b, 11), MOTE_ERR_LIMIT);
        assert_int_equal(b->len, 90);
        assert_true(check(b->data, 90, 1));
        assert_int_equal(mote_buf_append(b, src + 90, 10), MOTE_OK);
        assert_int_equal(b->cap, 100);
        assert_int_equal(mote_buf_push(b, 0), MOTE_ERR_LIMIT);
        assert_true(check(b->data, 100, 1));
        size_t avail;
        assert_non_null(mote_buf_tail(b, &avail));
        assert_int_equal(avail, 0);
        mote_buf_free(b);
    }
    mote_arena_destroy(&a);
}

/* len + extra overflowing size_t is OVERFLOW, nothing changes. */
static void reserve_overflow(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "abc", 3), MOTE_OK);
    size_t cap = b.cap;
    assert_int_equal(mote_buf_reserve(&b, SIZE_MAX), MOTE_ERR_OVERFLOW);
    assert_int_equal(mote_buf_reserve(&b, SIZE_MAX - 2), MOTE_ERR_OVERFLOW);
    /* Fits size_t but not memory. */
    assert_int_equal(mote_buf_reserve(&b, SIZE_MAX - 3), MOTE_ERR_NOMEM);
    assert_int_equal(mote_buf_reserve(&b, SIZE_MAX / 2), MOTE_ERR_NOMEM);
    assert_int_equal(b.len, 3);
    assert_int_equal(b.cap, cap);
    assert_memory_equal(b.data, "abc", 3);
    mote_arena_destroy(&a);
}

/* Running out of memory is NOMEM with the content intact; a smaller growth
 * that still fits is tried before giving up. */
static void out_of_memory_keeps_content(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 300, NULL, NULL), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    uint8_t src[200];
    fill(src, sizeof src, 9);
    assert_int_equal(mote_buf_append(&b, src, 100), MOTE_OK);
    assert_non_null(mote_arena_alloc(&a, 8)); /* pin: no in-place growth */
    /* 200 bytes do not fit beside the old 100 (188 free): NOMEM. */
    assert_int_equal(mote_buf_append(&b, src + 100, 100), MOTE_ERR_NOMEM);
    assert_int_equal(b.len, 100);
    assert_true(check(b.data, 100, 9));
    /* Doubling (200) does not fit but the exact need (150) does. */
    assert_int_equal(mote_buf_append(&b, src + 100, 50), MOTE_OK);
    assert_int_equal(b.cap, 150);
    assert_true(check(b.data, 150, 9));
    mote_buf_clear(&b);
    assert_int_equal(mote_buf_append(&b, src, 100), MOTE_OK);
    assert_int_equal(b.len, 100);
    assert_true(check(b.data, 100, 9));
    mote_arena_destroy(&a);

    /* Failing allocator behind the arena. */
    counting_alloc c;
    counting_init(&c);
    c.fail_after = 1;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    mote_arena_set_min_block(&a, 64);
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, src, 20), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, src + 20, 180), MOTE_ERR_NOMEM);
    assert_int_equal(b.len, 20);
    assert_true(check(b.data, 20, 9));
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
}

/* Growth through a counting allocator: appending N bytes asks the allocator
 * for O(N) bytes in O(log N) blocks, content intact. */
static void growth_through_allocator_is_geometric(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    uint8_t chunk[1000];
    const size_t total = 1000 * 1000;
    for (size_t i = 0; i < total; i += sizeof chunk) {
        fill(chunk, sizeof chunk, i);
        assert_int_equal(mote_buf_append(&b, chunk, sizeof chunk), MOTE_OK);
    }
    assert_int_equal(b.len, total);
    assert_true(check(b.data, total, 0));
    assert_true(c.calls <= 20);
    assert_true(c.requested <= 4 * total);
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
}

/* An arena buffer alone in a chained block grows by resizing that block
 * through the allocator (realloc-like): nothing is abandoned, the arena
 * holds one block of about the buffer's size. */
static void arena_buffer_resizes_own_block(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    uint8_t chunk[1000];
    const size_t total = 500 * 1000;
    for (size_t i = 0; i < total; i += sizeof chunk) {
        fill(chunk, sizeof chunk, i);
        assert_int_equal(mote_buf_append(&b, chunk, sizeof chunk), MOTE_OK);
    }
    assert_true(check(b.data, total, 0));
    mote_arena_stats s;
    mote_arena_get_stats(&a, &s);
    assert_int_equal(s.blocks, 1);
    assert_int_equal(c.frees, 0);
    assert_true(c.live <= b.cap + 64);
    assert_int_equal(s.used, b.cap);
    /* A second allocation after the buffer stops block resizing: the next
     * growth copies into a new block. */
    assert_non_null(mote_arena_alloc(&a, 8));
    size_t cap = b.cap;
    assert_int_equal(mote_buf_reserve(&b, cap - b.len + 1), MOTE_OK);
    mote_arena_get_stats(&a, &s);
    assert_int_equal(s.blocks, 3); /* the 8 bytes took a small block of their own */
    assert_true(check(b.data, total, 0));
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.size_errors, 0);
}

/* tail + commit: write into the free tail, commit makes it content;
 * committing more than is free is clamped. */
static void tail_and_commit(void **state)
{
    (void)state;
    uint8_t mem[32];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    size_t avail;
    uint8_t *t = mote_buf_tail(&b, &avail);
    assert_ptr_equal(t, mem);
    assert_int_equal(avail, 32);
    memcpy(t, "abcd", 4);
    mote_buf_commit(&b, 4);
    assert_int_equal(b.len, 4);
    t = mote_buf_tail(&b, &avail);
    assert_ptr_equal(t, mem + 4);
    assert_int_equal(avail, 28);
    mote_buf_commit(&b, 1000);
    assert_int_equal(b.len, 32);
    assert_non_null(mote_buf_tail(&b, NULL));
    /* Storage-less buffer: NULL tail, nothing available. */
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 64, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_null(mote_buf_tail(&b, &avail));
    assert_int_equal(avail, 0);
    mote_buf_commit(&b, 5);
    assert_int_equal(b.len, 0);
    mote_arena_destroy(&a);
}

/* consume drops a prefix and keeps the rest at the front; n > len empties;
 * clear keeps storage. */
static void consume_and_clear(void **state)
{
    (void)state;
    uint8_t mem[16];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "0123456789", 10), MOTE_OK);
    mote_buf_consume(&b, 3);
    assert_int_equal(b.len, 7);
    assert_memory_equal(b.data, "3456789", 7);
    mote_buf_consume(&b, 0);
    assert_int_equal(b.len, 7);
    mote_buf_consume(&b, 100);
    assert_int_equal(b.len, 0);
    assert_int_equal(mote_buf_append(&b, "xy", 2), MOTE_OK);
    mote_buf_clear(&b);
    assert_int_equal(b.len, 0);
    assert_int_equal(b.cap, 16);
    assert_ptr_equal(b.data, mem);
}

/* truncate keeps the first len bytes and the storage; a longer len or a
 * NULL buffer changes nothing. */
static void truncate_keeps_prefix(void **state)
{
    (void)state;
    uint8_t mem[16];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "0123456789", 10), MOTE_OK);
    mote_buf_truncate(&b, 20);
    assert_int_equal(b.len, 10);
    mote_buf_truncate(&b, 10);
    assert_int_equal(b.len, 10);
    mote_buf_truncate(&b, 4);
    assert_int_equal(b.len, 4);
    assert_memory_equal(b.data, "0123", 4);
    assert_int_equal(b.cap, 16);
    assert_int_equal(mote_buf_append(&b, "x", 1), MOTE_OK);
    assert_memory_equal(b.data, "0123x", 5);
    mote_buf_truncate(&b, 0);
    assert_int_equal(b.len, 0);
    assert_ptr_equal(b.data, mem);
    mote_buf_truncate(NULL, 0);
}

/* detach hands the storage over and leaves the buffer empty; a pool buffer
 * goes back with mote_pool_put; detaching an empty buffer gives NULL and
 * releases its storage. */
static void detach_hands_over_storage(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &p, 0), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "payload", 7), MOTE_OK);
    size_t len = 0;
    uint8_t *d = mote_buf_detach(&b, &len);
    assert_non_null(d);
    assert_int_equal(len, 7);
    assert_memory_equal(d, "payload", 7);
    assert_null(b.data);
    assert_int_equal(b.len + b.cap, 0);
    assert_int_equal(mote_pool_put(&p, d), MOTE_OK);
    assert_null(mote_buf_detach(&b, &len));
    assert_int_equal(len, 0);
    assert_int_equal(mote_buf_reserve(&b, 10), MOTE_OK);
    assert_null(mote_buf_detach(&b, &len));
    mote_pool_stats s;
    mote_pool_get_stats(&p, &s);
    assert_int_equal(s.outstanding, 0);
    /* Arena buffer: detach gives back the unused tail when it is last. */
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    assert_int_equal(mote_buf_reserve(&b, 1000), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "abc", 3), MOTE_OK);
    size_t used = a.used;
    d = mote_buf_detach(&b, &len);
    assert_int_equal(len, 3);
    assert_int_equal(a.used, used - 997);
    assert_memory_equal(d, "abc", 3);
    mote_arena_destroy(&a);
}

/* Appending a slice of the buffer itself works across growth. */
static void self_append_survives_growth(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &p, 0), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "0123456789abcdef", 16), MOTE_OK);
    assert_int_equal(b.cap, 16);
    assert_int_equal(mote_buf_append(&b, b.data, b.len), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, b.data + 4, 8), MOTE_OK);
    assert_int_equal(b.len, 40);
    assert_memory_equal(b.data, "0123456789abcdef0123456789abcdef456789ab", 40);
    mote_buf_free(&b);
    mote_arena_destroy(&a);
}

/* The inline fast paths are also exported functions: calls through a
 * pointer (another language, a shared library user) behave the same. */
static void inline_functions_are_exported(void **state)
{
    (void)state;
    mote_err (*append)(mote_buf *, const void *, size_t) = mote_buf_append;
    mote_err (*push)(mote_buf *, uint8_t) = mote_buf_push;
    void *(*alloc)(mote_arena *, size_t) = mote_arena_alloc;
    volatile uintptr_t hide = 0; /* keep the compiler from inlining them */
    append = (mote_err(*)(mote_buf *, const void *, size_t))((uintptr_t)append + hide);
    uint8_t mem[8];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    assert_int_equal(append(&b, "abcdefg", 7), MOTE_OK);
    assert_int_equal(push(&b, 'h'), MOTE_OK);
    assert_int_equal(push(&b, 'i'), MOTE_ERR_LIMIT);
    assert_int_equal(append(&b, "j", 1), MOTE_ERR_LIMIT);
    assert_memory_equal(mem, "abcdefgh", 8);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 64, NULL, NULL), MOTE_OK);
    assert_ptr_equal(alloc(&a, 10), block);
    assert_null(alloc(&a, 100));
    assert_int_equal(a.failed, 1);
    mote_arena_destroy(&a);
}

/* free of an arena buffer that is the last allocation gives it back. */
static void free_returns_arena_tail(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_arena(&b, &a, 0), MOTE_OK);
    uint8_t src[500];
    fill(src, sizeof src, 2);
    assert_int_equal(mote_buf_append(&b, src, 500), MOTE_OK);
    assert_int_equal(a.used, 500);
    mote_buf_free(&b);
    assert_int_equal(a.used, 0);
    assert_null(b.data);
    mote_arena_destroy(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fixed_buffer_limit_keeps_content),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(arena_buffer_doubles_in_place),
        cmocka_unit_test(pool_buffer_grows_and_returns_storage),
        cmocka_unit_test(cap_reached_content_intact),
        cmocka_unit_test(reserve_overflow),
        cmocka_unit_test(out_of_memory_keeps_content),
        cmocka_unit_test(growth_through_allocator_is_geometric),
        cmocka_unit_test(arena_buffer_resizes_own_block),
        cmocka_unit_test(tail_and_commit),
        cmocka_unit_test(consume_and_clear),
        cmocka_unit_test(truncate_keeps_prefix),
        cmocka_unit_test(detach_hands_over_storage),
        cmocka_unit_test(self_append_survives_growth),
        cmocka_unit_test(free_returns_arena_tail),
        cmocka_unit_test(inline_functions_are_exported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
