/* test_pool.c - the contract of include/mote/pool.h, one behaviour per test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mote/pool.h"
#include "counting_alloc.h"

static _Alignas(16) uint8_t block[8192];

static mote_pool_stats pstats(const mote_pool *p)
{
    mote_pool_stats s;
    mote_pool_get_stats(p, &s);
    return s;
}

/* init rejects NULL pool/arena; max_size rounds up to a power of two >= 16,
 * 0 means 64 KiB, huge values clamp to the largest class. */
static void init_checks_and_rounds_max(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(NULL, &a, 0), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_init(&p, NULL, 0), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    assert_int_equal(p.max_size, 64 * 1024);
    assert_int_equal(mote_pool_init(&p, &a, 1), MOTE_OK);
    assert_int_equal(p.max_size, 16);
    assert_int_equal(mote_pool_init(&p, &a, 100), MOTE_OK);
    assert_int_equal(p.max_size, 128);
    assert_int_equal(mote_pool_init(&p, &a, 4096), MOTE_OK);
    assert_int_equal(p.max_size, 4096);
    assert_int_equal(mote_pool_init(&p, &a, SIZE_MAX), MOTE_OK);
    assert_int_equal(p.max_size, (size_t)MOTE_POOL_MIN_CLASS << (MOTE_POOL_CLASSES - 1));
    mote_arena_destroy(&a);
}

/* get returns aligned buffers whose capacity is the class size: a power of
 * two >= the request (size 0 counts as 1), reported by capacity() too. */
static void get_gives_power_of_two_classes(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 1024), MOTE_OK);
    static const size_t req[] = {0, 1, 15, 16, 17, 31, 32, 33, 100, 512, 513, 1024};
    static const size_t want[] = {16, 16, 16, 16, 32, 32, 32, 64, 128, 512, 1024, 1024};
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        size_t cap = 0;
        uint8_t *b = mote_pool_get(&p, req[i], &cap);
        assert_non_null(b);
        assert_int_equal(cap, want[i]);
        assert_int_equal(mote_pool_capacity(b), want[i]);
        assert_int_equal((uintptr_t)b % MOTE_ARENA_ALIGN, 0);
        memset(b, 0xab, cap); /* whole capacity usable */
    }
    assert_non_null(mote_pool_get(&p, 5, NULL)); /* capacity pointer optional */
    assert_int_equal(mote_pool_capacity(NULL), 0);
    mote_arena_destroy(&a);
}

/* A put buffer is handed out again by the next get of its class (a hit),
 * and stats count hits, misses and outstanding bytes. */
static void put_then_get_reuses(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    void *x = mote_pool_get(&p, 100, NULL);
    void *y = mote_pool_get(&p, 100, NULL);
    assert_int_equal(pstats(&p).misses, 2);
    assert_int_equal(pstats(&p).outstanding, 256);
    assert_int_equal(mote_pool_put(&p, x), MOTE_OK);
    assert_int_equal(pstats(&p).outstanding, 128);
    size_t used = a.used;
    assert_ptr_equal(mote_pool_get(&p, 120, NULL), x);
    assert_int_equal(a.used, used); /* no carving on a hit */
    mote_pool_stats s = pstats(&p);
    assert_int_equal(s.hits, 1);
    assert_int_equal(s.misses, 2);
    assert_int_equal(s.outstanding, 256);
    /* Other classes do not see this class's free buffers. */
    assert_int_equal(mote_pool_put(&p, y), MOTE_OK);
    assert_ptr_not_equal(mote_pool_get(&p, 20, NULL), y);
    assert_int_equal(pstats(&p).misses, 3);
    /* LIFO within a class. */
    void *b1 = mote_pool_get(&p, 64, NULL), *b2 = mote_pool_get(&p, 64, NULL);
    assert_int_equal(mote_pool_put(&p, b1), MOTE_OK);
    assert_int_equal(mote_pool_put(&p, b2), MOTE_OK);
    assert_ptr_equal(mote_pool_get(&p, 64, NULL), b2);
    assert_ptr_equal(mote_pool_get(&p, 64, NULL), b1);
    mote_arena_destroy(&a);
}

/* A double put returns INVALID, counts a bad put, and leaves the free list
 * sound: the buffer is handed out once, not twice. */
static void double_put_rejected(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    void *x = mote_pool_get(&p, 40, NULL);
    assert_int_equal(mote_pool_put(&p, x), MOTE_OK);
    mote_pool_stats before = pstats(&p);
    assert_int_equal(mote_pool_put(&p, x), MOTE_ERR_INVALID);
    mote_pool_stats after = pstats(&p);
    assert_int_equal(after.bad_puts, 1);
    assert_int_equal(after.outstanding, before.outstanding);
    void *g1 = mote_pool_get(&p, 40, NULL);
    void *g2 = mote_pool_get(&p, 40, NULL);
    assert_ptr_equal(g1, x);
    assert_ptr_not_equal(g2, x);
    mote_arena_destroy(&a);
}

/* Pointers the pool did not hand out are refused: another pool's buffer, a
 * pointer into the middle of a buffer, a misaligned one, static memory,
 * a malloc block. Nothing changes but bad_puts. */
static void foreign_put_rejected(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p, q;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    assert_int_equal(mote_pool_init(&q, &a, 0), MOTE_OK);
    uint8_t *mine = mote_pool_get(&p, 64, NULL);
    uint8_t *theirs = mote_pool_get(&q, 64, NULL);
    memset(mine, 0, 64);
    static _Alignas(16) uint8_t elsewhere[64];
    /* A heap block that is not ours; put() reads the 8 bytes before the
     * pointer (its contract), so hand it one with readable bytes there. */
    uint8_t *heap = calloc(1, 80);
    assert_non_null(heap);
    mote_pool_stats before = pstats(&p);
    assert_int_equal(mote_pool_put(&p, theirs), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_put(&p, mine + 16), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_put(&p, mine + 1), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_put(&p, elsewhere + 16), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_put(&p, heap + 16), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_put(&p, (void *)(uintptr_t)8), MOTE_ERR_INVALID);
    mote_pool_stats after = pstats(&p);
    assert_int_equal(after.bad_puts, 6);
    assert_int_equal(after.outstanding, before.outstanding);
    assert_int_equal(mote_pool_capacity(elsewhere + 16), 0);
    /* The right owners still accept them. */
    assert_int_equal(mote_pool_put(&q, theirs), MOTE_OK);
    assert_int_equal(mote_pool_put(&p, mine), MOTE_OK);
    free(heap);
    mote_arena_destroy(&a);
}

/* NULL pool / NULL pointer: put(NULL ptr) is a no-op, NULL pool fails. */
static void null_arguments(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    assert_int_equal(mote_pool_put(&p, NULL), MOTE_OK);
    assert_int_equal(pstats(&p).bad_puts, 0);
    size_t cap = 99;
    assert_null(mote_pool_get(NULL, 10, &cap));
    assert_int_equal(cap, 0);
    assert_int_equal(mote_pool_put(NULL, block + 16), MOTE_ERR_INVALID);
    mote_pool_stats s;
    memset(&s, 0xff, sizeof s);
    mote_pool_get_stats(NULL, &s);
    assert_int_equal(s.hits + s.misses + s.failures, 0);
    mote_pool_get_stats(&p, NULL);
    mote_arena_destroy(&a);
}

/* A fixed arena runs dry: get returns NULL (failures counted, capacity 0);
 * buffers put back are still served. */
static void exhaustion_fails_cleanly(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, 1024, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    void *got[16];
    size_t n = 0;
    while (n < 16 && (got[n] = mote_pool_get(&p, 100, NULL)) != NULL) n++;
    assert_int_equal(n, 1024 / (128 + 8));
    size_t cap = 5;
    assert_null(mote_pool_get(&p, 100, &cap));
    assert_int_equal(cap, 0);
    assert_int_equal(pstats(&p).failures, 2); /* the loop's last get and this one */
    assert_int_equal(pstats(&p).outstanding, n * 128);
    assert_int_equal(mote_pool_put(&p, got[0]), MOTE_OK);
    assert_ptr_equal(mote_pool_get(&p, 100, NULL), got[0]);
    /* No oversize path without an allocator. */
    assert_null(mote_pool_get(&p, 65 * 1024, NULL));
    assert_int_equal(pstats(&p).failures, 3);
    mote_arena_destroy(&a);
}

/* Requests above max_size come from the allocator callback with their own
 * capacity; put drops them back to it (counted in drops). */
static void oversize_goes_to_allocator(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, counting_fn, &c), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 1024), MOTE_OK);
    size_t cap = 0;
    uint8_t *big = mote_pool_get(&p, 5000, &cap);
    assert_non_null(big);
    assert_true(cap >= 5000 && cap < 5000 + MOTE_ARENA_ALIGN);
    assert_int_equal(mote_pool_capacity(big), cap);
    assert_int_equal((uintptr_t)big % MOTE_ARENA_ALIGN, 0);
    memset(big, 1, cap);
    assert_int_equal(c.calls, 1);
    assert_int_equal(pstats(&p).outstanding, cap);
    assert_int_equal(pstats(&p).misses, 1);
    assert_int_equal(mote_pool_put(&p, big), MOTE_OK);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.size_errors, 0);
    mote_pool_stats s = pstats(&p);
    assert_int_equal(s.drops, 1);
    assert_int_equal(s.outstanding, 0);
    /* Exactly max_size is still pooled. */
    void *edge = mote_pool_get(&p, 1024, NULL);
    assert_int_equal(c.calls, 1);
    assert_int_equal(mote_pool_put(&p, edge), MOTE_OK);
    assert_int_equal(pstats(&p).drops, 1);
    /* An oversize buffer of another pool is refused. */
    mote_pool q;
    assert_int_equal(mote_pool_init(&q, &a, 1024), MOTE_OK);
    void *qb = mote_pool_get(&q, 3000, NULL);
    assert_int_equal(mote_pool_put(&p, qb), MOTE_ERR_INVALID);
    assert_int_equal(mote_pool_put(&q, qb), MOTE_OK);
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
}

/* Oversize requests near SIZE_MAX and allocator failures fail cleanly. */
static void oversize_overflow_and_failure(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, counting_fn, &c), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 1024), MOTE_OK);
    assert_null(mote_pool_get(&p, SIZE_MAX, NULL));
    assert_null(mote_pool_get(&p, SIZE_MAX - 16, NULL));
    assert_int_equal(c.calls, 0);
    c.fail_after = 0;
    assert_null(mote_pool_get(&p, 4096, NULL));
    assert_int_equal(pstats(&p).failures, 3);
    assert_int_equal(pstats(&p).outstanding, 0);
    mote_arena_destroy(&a);
}

/* Live buffers keep their contents across unrelated gets and puts. */
static void contents_survive_other_traffic(void **state)
{
    (void)state;
    mote_arena a;
    mote_pool p;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    assert_int_equal(mote_pool_init(&p, &a, 0), MOTE_OK);
    uint8_t *keep = mote_pool_get(&p, 32, NULL);
    memset(keep, 0x42, 32);
    for (int round = 0; round < 50; round++) {
        void *t[4];
        for (int i = 0; i < 4; i++) {
            t[i] = mote_pool_get(&p, (size_t)(16 << (i % 3)), NULL);
            assert_non_null(t[i]);
            memset(t[i], 0x99, 16);
        }
        for (int i = 0; i < 4; i++) assert_int_equal(mote_pool_put(&p, t[i]), MOTE_OK);
    }
    for (int i = 0; i < 32; i++) assert_int_equal(keep[i], 0x42);
    mote_pool_stats s = pstats(&p);
    assert_int_equal(s.hits + s.misses, 1 + 200);
    assert_int_equal(s.outstanding, 32);
    mote_arena_destroy(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_checks_and_rounds_max),
        cmocka_unit_test(get_gives_power_of_two_classes),
        cmocka_unit_test(put_then_get_reuses),
        cmocka_unit_test(double_put_rejected),
        cmocka_unit_test(foreign_put_rejected),
        cmocka_unit_test(null_arguments),
        cmocka_unit_test(exhaustion_fails_cleanly),
        cmocka_unit_test(oversize_goes_to_allocator),
        cmocka_unit_test(oversize_overflow_and_failure),
        cmocka_unit_test(contents_survive_other_traffic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
