/*
 * mote/pool.h - size-classed buffer pool carved from an arena.
 *
 * Power-of-two size classes from MOTE_POOL_MIN_CLASS bytes up to max_size,
 * one free list per class. get() and put() are constant time and allocate
 * nothing per call once the pool is warm: a miss carves a new buffer of the
 * class size from the arena. A request larger than max_size is served by the
 * arena's allocator callback directly (or fails if there is none) and put()
 * drops it back to the callback instead of pooling it, so one huge message
 * does not pin memory forever (the motivating driver dropped buffers over
 * 64 KiB).
 *
 * Each buffer carries a small private header so that put() can find its
 * class and catch a double put or a foreign pointer (MOTE_ERR_INVALID, never
 * a corrupted free list). Under ASan a buffer on a free list is poisoned, so
 * use after put is reported (Valgrind too, with -DMOTE_VALGRIND); without a
 * checker use after put goes unnoticed.
 *
 * Not thread-safe: one pool per thread, or external locking.
 */
#ifndef MOTE_POOL_H
#define MOTE_POOL_H

#include "mote/arena.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MOTE_POOL_MIN_CLASS 16u
#define MOTE_POOL_CLASSES 28u   /* 16 B .. 2 GiB */

typedef struct mote_pool_stats {
    size_t hits;        /* get() served from a free list */
    size_t misses;      /* get() that carved or allocated successfully */
    size_t drops;       /* put() of oversize buffers released to the allocator */
    size_t outstanding; /* bytes currently handed out (class sizes) */
    size_t failures;    /* get() that returned NULL */
    size_t bad_puts;    /* put() calls rejected (double put, foreign pointer) */
} mote_pool_stats;

/* Fields are private (the buffer header layout lives in src/pool.c). */
typedef struct mote_pool {
    /* Scalars and counters first, the free lists (indexed by class) last:
     * on Cortex-M every named field is then in reach of a 16-bit Thumb
     * load/store (offset < 128). */
    mote_arena *arena;
    size_t max_size;
    unsigned max_class;   /* class index of max_size */
    uint32_t key;         /* mixed into buffer headers: tells this pool's buffers apart */
    mote_pool_stats stats;
    void *free_list[MOTE_POOL_CLASSES];
} mote_pool;

/*
 * Initialise a pool drawing on arena a. max_size is the largest pooled
 * buffer (rounded up to a power of two, at least MOTE_POOL_MIN_CLASS); 0 means
 * 64 KiB. Returns MOTE_OK or MOTE_ERR_INVALID (NULL pool or arena).
 */
MOTE_NODISCARD mote_err mote_pool_init(mote_pool *p, mote_arena *a, size_t max_size);

/*
 * Get a buffer of at least size bytes (size 0 is treated as 1). On success
 * *capacity (if non-NULL) receives the usable size: the class size, a power
 * of two >= size, or for an oversize request (size > max_size, served by the
 * arena's allocator) size rounded up to MOTE_ARENA_ALIGN. Returns NULL when
 * memory is exhausted, when size > max_size and the arena has no allocator,
 * or when the size would overflow (counted in failures; *capacity = 0).
 * NULL pool: NULL. Contents are unspecified. Alignment: MOTE_ARENA_ALIGN.
 * The buffer is the caller's until put; pooled buffers live in the arena,
 * so resetting the arena invalidates them (re-init the pool then), and so
 * does restoring a mark saved before they were carved (see
 * mote_arena_restore).
 */
MOTE_NODISCARD void *mote_pool_get(mote_pool *p, size_t size, size_t *capacity);

/*
 * Return a buffer obtained from this pool's get(). NULL is a no-op (MOTE_OK).
 * Returns MOTE_ERR_INVALID for a double put or a pointer this pool did not
 * hand out (detected through the header; counted in bad_puts, nothing else
 * changes), and for a NULL pool. The 8 bytes before ptr must be readable
 * (under ASan poisoned bytes are recognised and not read). An oversize
 * buffer goes straight back to the allocator (counted in drops), so putting
 * it twice reads freed memory: under ASan the freed header is recognised as
 * poisoned and the put refused (not read), other builds usually still see
 * the FREE mark.
 */
MOTE_NODISCARD mote_err mote_pool_put(mote_pool *p, void *ptr);

/* Usable capacity of a buffer obtained from get() (0 for NULL or a pointer
 * without a pool header). */
size_t mote_pool_capacity(const void *ptr);

/* Statistics into *out (NULL out: nothing; NULL p: all zero). Every get()
 * counts exactly one of hits, misses, failures. */
void mote_pool_get_stats(const mote_pool *p, mote_pool_stats *out);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_POOL_H */
