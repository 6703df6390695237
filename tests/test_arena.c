/* test_arena.c - the contract of include/mote/arena.h, one behaviour per test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "mote/arena.h"
#include "counting_alloc.h"

static _Alignas(16) uint8_t block[1024];

static mote_arena_stats stats_of(const mote_arena *a)
{
    mote_arena_stats s;
    mote_arena_get_stats(a, &s);
    return s;
}

static bool inside(const void *p, size_t n, const void *base, size_t size)
{
    uintptr_t u = (uintptr_t)p, b = (uintptr_t)base;
    return u >= b && n <= size && u - b <= size - n;
}

/* init rejects a NULL arena and NULL memory with a size; NULL/0 is valid. */
static void init_rejects_bad_arguments(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(NULL, block, sizeof block, NULL, NULL), MOTE_ERR_INVALID);
    assert_int_equal(mote_arena_init(&a, NULL, 16, NULL, NULL), MOTE_ERR_INVALID);
    assert_int_equal(mote_arena_init(&a, NULL, 0, NULL, NULL), MOTE_OK);
    /* No memory and no allocator: every allocation fails, counted. */
    assert_null(mote_arena_alloc(&a, 1));
    assert_int_equal(stats_of(&a).failed, 1);
    mote_arena_destroy(&a);
}

/* A NULL arena is harmless everywhere and reports zero statistics. */
static void null_arena_is_harmless(void **state)
{
    (void)state;
    assert_null(mote_arena_alloc(NULL, 8));
    assert_null(mote_arena_alloc_aligned(NULL, 8, 8));
    assert_null(mote_arena_alloc_array(NULL, 2, 8, 8));
    assert_null(mote_arena_calloc(NULL, 2, 8));
    mote_arena_mark m = mote_arena_save(NULL);
    mote_arena_restore(NULL, m);
    mote_arena_reset(NULL, true);
    mote_arena_destroy(NULL);
    mote_arena_set_min_block(NULL, 64);
    mote_arena_stats s;
    memset(&s, 0xff, sizeof s);
    mote_arena_get_stats(NULL, &s);
    assert_int_equal(s.used, 0);
    assert_int_equal(s.capacity, 0);
    assert_int_equal(s.failed, 0);
    mote_arena_get_stats(NULL, NULL);
}

/* Allocations are aligned, inside the caller block, disjoint, and counted. */
static void fixed_allocations_aligned_disjoint_counted(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    uint8_t *prev_end = block;
    for (size_t n = 1; n <= 20; n++) {
        uint8_t *p = mote_arena_alloc(&a, n);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % MOTE_ARENA_ALIGN, 0);
        assert_true(inside(p, n, block, sizeof block));
        assert_true(p >= prev_end);
        memset(p, (int)n, n);
        prev_end = p + n;
    }
    mote_arena_stats s = stats_of(&a);
    assert_int_equal(s.capacity, sizeof block);
    assert_int_equal(s.used, (size_t)(prev_end - block));
    assert_int_equal(s.high_water, s.used);
    assert_int_equal(s.blocks, 0);
    assert_int_equal(s.failed, 0);
    mote_arena_destroy(&a);
}

/* Fixed arena: a request that does not fit returns NULL, counts a failure and
 * changes nothing else; smaller requests still succeed afterwards. */
static void fixed_exhaustion_fails_cleanly(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 64, NULL, NULL), MOTE_OK);
    uint8_t *p = mote_arena_alloc(&a, 40);
    assert_non_null(p);
    memset(p, 0x5a, 40);
    mote_arena_stats before = stats_of(&a);
    assert_null(mote_arena_alloc(&a, 32));
    mote_arena_stats after = stats_of(&a);
    assert_int_equal(after.failed, before.failed + 1);
    assert_int_equal(after.used, before.used);
    assert_int_equal(after.capacity, before.capacity);
    uint8_t *q = mote_arena_alloc(&a, 24); /* exactly the rest */
    assert_non_null(q);
    assert_ptr_equal(q, block + 40);
    for (int i = 0; i < 40; i++) assert_int_equal(p[i], 0x5a);
    assert_null(mote_arena_alloc(&a, 1));
    assert_int_equal(stats_of(&a).used, 64);
    mote_arena_destroy(&a);
}

/* Size 0 is served as one byte: distinct non-NULL pointers while space lasts. */
static void zero_size_gives_distinct_pointers(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 16, NULL, NULL), MOTE_OK);
    void *p = mote_arena_alloc(&a, 0);
    void *q = mote_arena_alloc(&a, 0);
    assert_non_null(p);
    assert_non_null(q);
    assert_ptr_not_equal(p, q);
    assert_non_null(mote_arena_alloc_aligned(&a, 0, 1));
    assert_non_null(mote_arena_alloc_aligned(&a, 0, 1)); /* 8 + 1 + 1 + 1 = 11 bytes */
    assert_non_null(mote_arena_alloc_aligned(&a, 4, 1));
    assert_null(mote_arena_alloc_aligned(&a, 2, 1));     /* 15 used, 1 free */
    assert_non_null(mote_arena_alloc_aligned(&a, 0, 1));
    assert_null(mote_arena_alloc(&a, 0));
    mote_arena_destroy(&a);
}

/* Alignment must be a power of two; others fail (NULL, counted) without
 * consuming memory; large powers of two are honoured. */
static void alignment_checked_and_honoured(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    static const size_t bad[] = {0, 3, 6, 24, 100, SIZE_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null(mote_arena_alloc_aligned(&a, 8, bad[i]));
        assert_null(mote_arena_alloc_array(&a, 1, 8, bad[i]));
    }
    assert_int_equal(stats_of(&a).failed, 12);
    assert_int_equal(stats_of(&a).used, 0);
    assert_non_null(mote_arena_alloc_aligned(&a, 1, 1));
    for (size_t al = 1; al <= 256; al *= 2) {
        uint8_t *p = mote_arena_alloc_aligned(&a, 3, al);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % al, 0);
    }
    mote_arena_destroy(&a);
}

/* alloc_array checks count * size before computing it: overflowing products
 * fail without touching the arena or calling the allocator. */
static void array_size_overflow_detected(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, counting_fn, &c), MOTE_OK);
    assert_null(mote_arena_alloc_array(&a, SIZE_MAX / 2 + 1, 2, 8));
    assert_null(mote_arena_alloc_array(&a, SIZE_MAX, SIZE_MAX, 8));
    assert_null(mote_arena_alloc_array(&a, 3, SIZE_MAX / 3 + 1, 8));
    assert_null(mote_arena_calloc(&a, SIZE_MAX / 8 + 1, 8));
    assert_int_equal(stats_of(&a).failed, 4);
    assert_int_equal(stats_of(&a).used, 0);
    assert_int_equal(c.calls, 0);
    /* The largest product that fits is not an overflow (it just does not fit). */
    assert_null(mote_arena_alloc_array(&a, SIZE_MAX / 16, 16, 8));
    assert_int_equal(c.calls, 0); /* header + size wraps: refused before asking */
    int *v = mote_arena_alloc_array(&a, 10, sizeof(int), _Alignof(int));
    assert_non_null(v);
    assert_non_null(mote_arena_alloc_array(&a, 0, 16, 8));
    mote_arena_destroy(&a);
}

/* Huge single requests near SIZE_MAX fail cleanly, never wrap. */
static void huge_request_fails_without_wrapping(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, counting_fn, &c), MOTE_OK);
    assert_null(mote_arena_alloc(&a, SIZE_MAX));
    assert_null(mote_arena_alloc(&a, SIZE_MAX - 7));
    assert_null(mote_arena_alloc_aligned(&a, SIZE_MAX - 20, 64));
    assert_int_equal(c.calls, 0);
    assert_int_equal(stats_of(&a).failed, 3);
    mote_arena_destroy(&a);
}

/* calloc returns zeroed memory even where the arena handed out dirty bytes. */
static void calloc_zeroes(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    mote_arena_mark m = mote_arena_save(&a);
    uint8_t *p = mote_arena_alloc(&a, 100);
    memset(p, 0xee, 100);
    mote_arena_restore(&a, m);
    uint8_t *z = mote_arena_calloc(&a, 25, 4);
    assert_ptr_equal(z, p);
    for (int i = 0; i < 100; i++) assert_int_equal(z[i], 0);
    mote_arena_destroy(&a);
}

/* restore returns to the mark: used goes back, the next allocation reuses
 * the released address, earlier allocations keep their contents. */
static void save_restore_releases_later_allocations(void **state)
{
    (void)state;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, sizeof block, NULL, NULL), MOTE_OK);
    uint8_t *keep = mote_arena_alloc(&a, 10);
    memcpy(keep, "0123456789", 10);
    mote_arena_mark m = mote_arena_save(&a);
    size_t used = stats_of(&a).used;
    uint8_t *t1 = mote_arena_alloc(&a, 100);
    assert_non_null(mote_arena_alloc(&a, 200));
    assert_true(stats_of(&a).used > used);
    mote_arena_restore(&a, m);
    assert_int_equal(stats_of(&a).used, used);
    assert_int_equal(stats_of(&a).high_water, used + 6 + 100 + 4 + 200); /* padding counted */
    assert_ptr_equal(mote_arena_alloc(&a, 5), t1);
    assert_memory_equal(keep, "0123456789", 10);
    mote_arena_destroy(&a);
}

/* With an allocator the arena chains blocks of at least min_block bytes,
 * contents of every block survive, capacity grows by each block. */
static void chains_blocks_from_allocator(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 64, counting_fn, &c), MOTE_OK);
    mote_arena_set_min_block(&a, 256);
    uint8_t *ptrs[40];
    for (int i = 0; i < 40; i++) {
        ptrs[i] = mote_arena_alloc(&a, 50);
        assert_non_null(ptrs[i]);
        assert_int_equal((uintptr_t)ptrs[i] % MOTE_ARENA_ALIGN, 0);
        memset(ptrs[i], i, 50);
    }
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 50; j++) assert_int_equal(ptrs[i][j], i);
    mote_arena_stats s = stats_of(&a);
    assert_true(s.blocks >= 8);
    assert_int_equal(s.blocks, c.calls);
    assert_true(s.capacity > 64 && s.capacity <= 64 + c.live);
    assert_true(s.used <= s.capacity);
    assert_true(s.used >= 40 * 50);
    assert_int_equal(s.failed, 0);
    /* A request larger than min_block gets a block of its own size. */
    uint8_t *big = mote_arena_alloc(&a, 5000);
    assert_non_null(big);
    memset(big, 1, 5000);
    assert_int_equal(stats_of(&a).blocks, s.blocks + 1);
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.frees, c.calls);
    assert_int_equal(c.size_errors, 0);
}

/* A failing allocator makes the allocation fail cleanly: NULL, counted,
 * used/capacity/blocks unchanged, earlier memory intact. */
static void allocator_failure_is_clean(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    c.fail_after = 1;
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    uint8_t *p = mote_arena_alloc(&a, 100);
    assert_non_null(p);
    memset(p, 7, 100);
    mote_arena_stats before = stats_of(&a);
    assert_null(mote_arena_alloc(&a, 10000));
    mote_arena_stats after = stats_of(&a);
    assert_int_equal(after.failed, before.failed + 1);
    assert_int_equal(after.used, before.used);
    assert_int_equal(after.capacity, before.capacity);
    assert_int_equal(after.blocks, before.blocks);
    assert_non_null(mote_arena_alloc(&a, 8)); /* still fits the first block */
    for (int i = 0; i < 100; i++) assert_int_equal(p[i], 7);
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
}

/* restore gives back to the allocator every block chained after the mark. */
static void restore_releases_chained_blocks(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 128, counting_fn, &c), MOTE_OK);
    mote_arena_set_min_block(&a, 512);
    assert_non_null(mote_arena_alloc(&a, 64));
    mote_arena_mark m = mote_arena_save(&a);
    for (int i = 0; i < 20; i++) assert_non_null(mote_arena_alloc(&a, 300));
    assert_true(stats_of(&a).blocks > 0);
    mote_arena_restore(&a, m);
    mote_arena_stats s = stats_of(&a);
    assert_int_equal(s.blocks, 0);
    assert_int_equal(s.capacity, 128);
    assert_int_equal(s.used, 64);
    assert_int_equal(c.live, 0);
    assert_true(s.high_water >= 64 + 20 * 300);
    mote_arena_destroy(&a);
}

/* A mark from a block that is no longer held (after reset) is ignored. */
static void stale_mark_is_ignored(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    assert_non_null(mote_arena_alloc(&a, 100));
    mote_arena_mark m = mote_arena_save(&a);
    mote_arena_reset(&a, true);
    assert_non_null(mote_arena_alloc(&a, 10));
    mote_arena_stats before = stats_of(&a);
    mote_arena_restore(&a, m);
    mote_arena_stats after = stats_of(&a);
    assert_int_equal(after.used, before.used);
    assert_int_equal(after.blocks, before.blocks);
    /* A mark from another arena is ignored too. */
    mote_arena other;
    assert_int_equal(mote_arena_init(&other, block, 256, NULL, NULL), MOTE_OK);
    assert_non_null(mote_arena_alloc(&other, 32));
    mote_arena_restore(&other, mote_arena_save(&a));
    assert_int_equal(stats_of(&other).used, 32);
    mote_arena_destroy(&other);
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
}

/* reset(false) keeps chained blocks and reuses them without calling the
 * allocator; reset(true) returns them; high_water survives both. */
static void reset_keeps_or_releases_blocks(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 64, counting_fn, &c), MOTE_OK);
    mote_arena_set_min_block(&a, 1024);
    for (int i = 0; i < 10; i++) assert_non_null(mote_arena_alloc(&a, 500));
    mote_arena_stats full = stats_of(&a);
    size_t calls = c.calls;
    mote_arena_reset(&a, false);
    mote_arena_stats s = stats_of(&a);
    assert_int_equal(s.used, 0);
    assert_int_equal(s.blocks, full.blocks);
    assert_int_equal(s.capacity, full.capacity);
    assert_int_equal(s.high_water, full.used);
    for (int i = 0; i < 10; i++) assert_non_null(mote_arena_alloc(&a, 500));
    assert_int_equal(c.calls, calls);
    assert_int_equal(stats_of(&a).blocks, full.blocks);
    mote_arena_reset(&a, true);
    s = stats_of(&a);
    assert_int_equal(s.blocks, 0);
    assert_int_equal(s.capacity, 64);
    assert_int_equal(s.used, 0);
    assert_int_equal(s.high_water, full.used);
    assert_int_equal(c.live, 0);
    assert_ptr_equal(mote_arena_alloc(&a, 8), block);
    mote_arena_destroy(&a);
}

/* A kept spare block too small for a request is released and replaced. */
static void small_spare_replaced(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    mote_arena_set_min_block(&a, 256);
    assert_non_null(mote_arena_alloc(&a, 100));
    mote_arena_reset(&a, false);
    assert_int_equal(stats_of(&a).blocks, 1);
    uint8_t *p = mote_arena_alloc(&a, 2000);
    assert_non_null(p);
    memset(p, 3, 2000);
    assert_int_equal(stats_of(&a).blocks, 1);
    assert_int_equal(c.calls, 2);
    assert_int_equal(c.frees, 1);
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
}

/* Large alignments work in chained blocks too. */
static void large_alignment_in_chained_block(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, NULL, 0, counting_fn, &c), MOTE_OK);
    for (size_t al = 1; al <= 8192; al *= 4) {
        uint8_t *p = mote_arena_alloc_aligned(&a, 100, al);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % al, 0);
        memset(p, 9, 100);
    }
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.size_errors, 0);
}

/* After destroy the arena holds nothing and further use fails cleanly. */
static void destroy_releases_everything(void **state)
{
    (void)state;
    counting_alloc c;
    counting_init(&c);
    mote_arena a;
    assert_int_equal(mote_arena_init(&a, block, 32, counting_fn, &c), MOTE_OK);
    for (int i = 0; i < 5; i++) assert_non_null(mote_arena_alloc(&a, 4000));
    mote_arena_destroy(&a);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.frees, c.calls);
    assert_null(mote_arena_alloc(&a, 1));
    /* The caller block is usable by the caller again (ASan: unpoisoned). */
    memset(block, 0, 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_rejects_bad_arguments),
        cmocka_unit_test(null_arena_is_harmless),
        cmocka_unit_test(fixed_allocations_aligned_disjoint_counted),
        cmocka_unit_test(fixed_exhaustion_fails_cleanly),
        cmocka_unit_test(zero_size_gives_distinct_pointers),
        cmocka_unit_test(alignment_checked_and_honoured),
        cmocka_unit_test(array_size_overflow_detected),
        cmocka_unit_test(huge_request_fails_without_wrapping),
        cmocka_unit_test(calloc_zeroes),
        cmocka_unit_test(save_restore_releases_later_allocations),
        cmocka_unit_test(chains_blocks_from_allocator),
        cmocka_unit_test(allocator_failure_is_clean),
        cmocka_unit_test(restore_releases_chained_blocks),
        cmocka_unit_test(stale_mark_is_ignored),
        cmocka_unit_test(reset_keeps_or_releases_blocks),
        cmocka_unit_test(small_spare_replaced),
        cmocka_unit_test(large_alignment_in_chained_block),
        cmocka_unit_test(destroy_releases_everything),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
