/*
 * test_sizes.c - size arithmetic at the edge of size_t.
 *
 * On a 32-bit host (armhf, Cortex-M) a count * size or len + extra that
 * passes 4 GiB wraps to a small number, and a missing check turns into a
 * short block that the caller then overruns. These tests ask for exactly
 * such sizes. On a 64-bit host the same requests are merely too large, so
 * every test passes there too (and pins the "refused, nothing changed"
 * behaviour); on armhf under qemu they hit the overflow checks themselves.
 * Covered: arena array/calloc/near-SIZE_MAX/growth requests, pool class
 * rounding and oversize requests, buf reserve and doubling, CQL value sizes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mote/arena.h"
#include "mote/pool.h"
#include "mote/buf.h"
#include "mote/cql.h"

/* An arena block larger than any wrapped product below (64 KiB + a bit). */
static _Alignas(16) uint8_t big_block[96 * 1024];

/* 0x10001 * 0x10000 = 2^32 + 2^16: wraps to 64 KiB with a 32-bit size_t,
 * which would fit big_block. 0x10000 * 0x10000 wraps to 0. */
#define WRAP_COUNT ((size_t)0x10001u)
#define WRAP_SIZE ((size_t)0x10000u)

/* An allocator that records the largest request and refuses everything, so
 * a wrapped (small) request would show up as max_request < what was asked. */
typedef struct spy_alloc {
    size_t calls;
    size_t min_request;
} spy_alloc;

static void *spy_fn(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    spy_alloc *s = ctx;
    (void)ptr;
    (void)old_size;
    if (new_size > 0) {
        s->calls++;
        if (new_size < s->min_request) {
            s->min_request = new_size;
        }
    }
    return NULL;
}

static void init_arena(mote_arena *a)
{
    assert_int_equal(mote_arena_init(a, big_block, sizeof big_block, NULL, NULL), MOTE_OK);
}

/* arena_alloc_array: a product past SIZE_MAX (or past 4 GiB on 32-bit) is
 * refused, counted as a failure, and uses no memory. */
static void arena_array_product_wrap_is_refused(void **state)
{
    (void)state;
    mote_arena a;
    init_arena(&a);
    mote_arena_stats before, after;
    mote_arena_get_stats(&a, &before);
    assert_null(mote_arena_alloc_array(&a, WRAP_COUNT, WRAP_SIZE, 8));
    assert_null(mote_arena_alloc_array(&a, WRAP_SIZE, WRAP_SIZE, 8));
    assert_null(mote_arena_alloc_array(&a, SIZE_MAX / 2u + 2u, 2, 1));
    assert_null(mote_arena_alloc_array(&a, SIZE_MAX, SIZE_MAX, 1));
    mote_arena_get_stats(&a, &after);
    assert_int_equal(after.used, before.used);
    assert_int_equal(after.failed, before.failed + 4);
    /* The arena still works for a request that fits. */
    assert_non_null(mote_arena_alloc_array(&a, 16, 4, 4));
}

/* arena_calloc multiplies too: the wrapped product must not be zeroed and
 * returned. */
static void arena_calloc_product_wrap_is_refused(void **state)
{
    (void)state;
    mote_arena a;
    init_arena(&a);
    assert_null(mote_arena_calloc(&a, WRAP_COUNT, WRAP_SIZE));
    assert_null(mote_arena_calloc(&a, SIZE_MAX / 4u + 1u, 4));
    mote_arena_stats st;
    mote_arena_get_stats(&a, &st);
    assert_int_equal(st.used, 0);
}

/* A size within SIZE_MAX whose alignment padding or end pointer would wrap
 * is refused (cur + padding + size computed without overflow). */
static void arena_alloc_near_size_max_is_refused(void **state)
{
    (void)state;
    mote_arena a;
    init_arena(&a);
    assert_non_null(mote_arena_alloc(&a, 3)); /* misalign cur for the next one */
    assert_null(mote_arena_alloc(&a, SIZE_MAX));
    assert_null(mote_arena_alloc(&a, SIZE_MAX - 7u));
    assert_null(mote_arena_alloc_aligned(&a, SIZE_MAX - 100u, 64));
    mote_arena_stats st;
    mote_arena_get_stats(&a, &st);
    assert_int_equal(st.failed, 3);
    assert_true(st.used <= 16);
}

/* With an allocator, a huge request plus the chained-block header must not
 * wrap into a small block request: the callback never sees a size smaller
 * than what was asked for (here it refuses, so the result is NULL), and a
 * product that overflows size_t never reaches it at all. */
static void arena_growth_request_does_not_wrap(void **state)
{
    (void)state;
    spy_alloc spy = {0, SIZE_MAX};
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, spy_fn, &spy), MOTE_OK);
    assert_null(mote_arena_alloc(&a, SIZE_MAX - 8u));
    if (spy.calls > 0) {
        assert_true(spy.min_request >= SIZE_MAX - 8u);
    }

    spy = (spy_alloc){0, SIZE_MAX};
    assert_null(mote_arena_alloc_array(&a, SIZE_MAX / 2u + 2u, 2, 8));
    assert_int_equal(spy.calls, 0);

    /* 2^32 + 2^16: wraps on 32-bit (no call allowed), merely huge on 64-bit
     * (a call, if any, asks for at least the whole product). */
    spy = (spy_alloc){0, SIZE_MAX};
    size_t product;
    bool fits = mote_size_mul(WRAP_COUNT, WRAP_SIZE, &product);
    assert_null(mote_arena_alloc_array(&a, WRAP_COUNT, WRAP_SIZE, 8));
    if (!fits) {
        assert_int_equal(spy.calls, 0);
    } else if (spy.calls > 0) {
        assert_true(spy.min_request >= product);
    }
    mote_arena_destroy(&a);
}

/* pool_get rounds up to a power of two: for sizes above SIZE_MAX / 2 that
 * rounding (and adding the buffer header) would wrap; the pool refuses. */
static void pool_get_rounding_wrap_is_refused(void **state)
{
    (void)state;
    mote_arena a;
    init_arena(&a);
    mote_pool p;
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    size_t cap = 12345;
    assert_null(mote_pool_get(&p, SIZE_MAX / 2u + 2u, &cap));
    assert_null(mote_pool_get(&p, SIZE_MAX, &cap));
    assert_null(mote_pool_get(&p, SIZE_MAX - 4u, NULL));
    /* A normal request still works afterwards. */
    void *b = mote_pool_get(&p, 100, &cap);
    assert_non_null(b);
    assert_true(cap >= 100);
    assert_int_equal(mote_pool_put(&p, b), MOTE_OK);
}

/* Oversize pool requests go to the arena's allocator: header + size must
 * not wrap into a small request either. */
static void pool_oversize_request_does_not_wrap(void **state)
{
    (void)state;
    spy_alloc spy = {0, SIZE_MAX};
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, big_block, sizeof big_block, spy_fn, &spy), MOTE_OK);
    mote_pool p;
    assert_int_equal(mote_pool_init(&p, &a, 1024), MOTE_OK);
    assert_null(mote_pool_get(&p, SIZE_MAX - 4u, NULL));
    if (spy.calls > 0) {
        assert_true(spy.min_request >= SIZE_MAX - 4u);
    }
    mote_arena_destroy(&a);
}

/* buf_reserve: len + extra past SIZE_MAX is MOTE_ERR_OVERFLOW and leaves the
 * buffer exactly as it was. */
static void buf_reserve_len_plus_extra_overflows(void **state)
{
    (void)state;
    mote_arena a;
    init_arena(&a);
    mote_pool p;
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &p, 0), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "hello", 5), MOTE_OK);
    uint8_t *data = b.data;
    size_t cap = b.cap;
    assert_int_equal(mote_buf_reserve(&b, SIZE_MAX), MOTE_ERR_OVERFLOW);
    assert_int_equal(mote_buf_reserve(&b, SIZE_MAX - 4u), MOTE_ERR_OVERFLOW);
    assert_ptr_equal(b.data, data);
    assert_int_equal(b.len, 5);
    assert_int_equal(b.cap, cap);
    assert_memory_equal(b.data, "hello", 5);
    mote_buf_free(&b);
}

/* buf growth doubles the capacity: when len + extra fits but doubling does
 * not, growth must fail cleanly (no wrapped capacity), content intact. */
static void buf_growth_doubling_does_not_wrap(void **state)
{
    (void)state;
    mote_arena a;
    init_arena(&a);
    mote_pool p;
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    mote_buf b;
    assert_int_equal(mote_buf_init_pool(&b, &p, 0), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "abc", 3), MOTE_OK);
    size_t cap = b.cap;
    mote_err e1 = mote_buf_reserve(&b, SIZE_MAX / 2u + 1u);
    mote_err e2 = mote_buf_reserve(&b, SIZE_MAX - 3u);
    assert_int_not_equal(e1, MOTE_OK);
    assert_int_not_equal(e2, MOTE_OK);
    assert_int_equal(b.len, 3);
    assert_int_equal(b.cap, cap);
    assert_memory_equal(b.data, "abc", 3);
    /* Still usable. */
    assert_int_equal(mote_buf_append(&b, "def", 3), MOTE_OK);
    assert_memory_equal(b.data, "abcdef", 6);
    mote_buf_free(&b);
}

/* A fixed buffer never grows: an overflowing request is still reported as
 * overflow or limit, never accepted. */
static void buf_fixed_rejects_huge_append(void **state)
{
    (void)state;
    uint8_t mem[32];
    mote_buf b;
    assert_int_equal(mote_buf_init_fixed(&b, mem, sizeof mem), MOTE_OK);
    assert_int_equal(mote_buf_append(&b, "xy", 2), MOTE_OK);
    mote_err e = mote_buf_reserve(&b, SIZE_MAX - 1u);
    assert_true(e == MOTE_ERR_OVERFLOW || e == MOTE_ERR_LIMIT);
    assert_int_equal(mote_buf_reserve(&b, SIZE_MAX), MOTE_ERR_OVERFLOW);
    assert_int_equal(b.len, 2);
    assert_memory_equal(b.data, "xy", 2);
}

/* CQL sizes: a vector<float> of 2^30 + 1 elements is 2^32 + 4 bytes, which a
 * 32-bit size_t wraps to 4; a list of 2^30 ints likewise. The encoders must
 * say OVERFLOW (the protocol caps a value at 2^31 - 1 bytes) without reading
 * the array: the pointer below covers one element only. */
static void cql_sizes_past_protocol_limit_overflow(void **state)
{
    (void)state;
    static const float one_float[1] = {1.0f};
    static const int32_t one_int[1] = {7};
    size_t size = 12345;
    assert_int_equal(mote_cql_vector_size(MOTE_CQL_FLOAT, one_float, (size_t)0x40000001u, &size),
                     MOTE_ERR_OVERFLOW);
    assert_int_equal(mote_cql_list_size(MOTE_CQL_INT, one_int, (size_t)0x40000000u, &size),
                     MOTE_ERR_OVERFLOW);
    assert_int_equal(mote_cql_vector_size(MOTE_CQL_FLOAT, one_float, SIZE_MAX, &size),
                     MOTE_ERR_OVERFLOW);
    uint8_t out[16];
    size_t written = 0;
    assert_int_equal(mote_cql_encode_vector(MOTE_CQL_FLOAT, one_float, (size_t)0x40000001u, out,
                                            sizeof out, &written),
                     MOTE_ERR_OVERFLOW);
    assert_int_equal(mote_cql_encode_list(MOTE_CQL_INT, one_int, SIZE_MAX / 4u + 1u, out,
                                          sizeof out, &written),
                     MOTE_ERR_OVERFLOW);
    /* The largest legal sizes still compute exactly. */
    assert_int_equal(mote_cql_vector_size(MOTE_CQL_FLOAT, one_float, 1, &size), MOTE_OK);
    assert_int_equal(size, 4);
}

/* A list header claiming 2^31 - 1 elements in a 12-byte value is refused
 * before anything is sized from the count (count * element size would
 * overflow 32-bit size_t). */
static void cql_decode_huge_count_is_bad_length(void **state)
{
    (void)state;
    static const uint8_t in[12] = {0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 4, 0, 0, 0, 1};
    int32_t v[4];
    size_t n = 99;
    mote_err e = mote_cql_decode_list(MOTE_CQL_INT, in, sizeof in, v, 4, &n);
    assert_int_equal(e, MOTE_ERR_BAD_LENGTH);
    assert_int_equal(n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(arena_array_product_wrap_is_refused),
        cmocka_unit_test(arena_calloc_product_wrap_is_refused),
        cmocka_unit_test(arena_alloc_near_size_max_is_refused),
        cmocka_unit_test(arena_growth_request_does_not_wrap),
        cmocka_unit_test(pool_get_rounding_wrap_is_refused),
        cmocka_unit_test(pool_oversize_request_does_not_wrap),
        cmocka_unit_test(buf_reserve_len_plus_extra_overflows),
        cmocka_unit_test(buf_growth_doubling_does_not_wrap),
        cmocka_unit_test(buf_fixed_rejects_huge_append),
        cmocka_unit_test(cql_sizes_past_protocol_limit_overflow),
        cmocka_unit_test(cql_decode_huge_count_is_bad_length),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
