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

#include <string.h>

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

/* Fields are private. */
typedef struct mote_pool {
    mote_arena *arena;
    void *free_list[MOTE_POOL_CLASSES];
    size_t max_size;
    unsigned max_class;   /* class index of max_size */
    uint32_t key;         /* mixed into buffer headers: tells this pool's buffers apart */
    mote_pool_stats stats;
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
 * so resetting the arena invalidates them (re-init the pool then).
 */
MOTE_NODISCARD inline void *mote_pool_get(mote_pool *p, size_t size, size_t *capacity);

/*
 * Return a buffer obtained from this pool's get(). NULL is a no-op (MOTE_OK).
 * Returns MOTE_ERR_INVALID for a double put or a pointer this pool did not
 * hand out (detected through the header; counted in bad_puts, nothing else
 * changes), and for a NULL pool. The 8 bytes before ptr must be readable
 * (under ASan poisoned bytes are recognised and not read). An oversize
 * buffer goes straight back to the allocator (counted in drops), so putting
 * it twice reads freed memory: ASan reports that, other builds usually
 * still see the FREE mark.
 */
MOTE_NODISCARD inline mote_err mote_pool_put(mote_pool *p, void *ptr);

/* Usable capacity of a buffer obtained from get() (0 for NULL or a pointer
 * without a pool header). */
size_t mote_pool_capacity(const void *ptr);

/* Statistics into *out (NULL out: nothing; NULL p: all zero). Every get()
 * counts exactly one of hits, misses, failures. */
void mote_pool_get_stats(const mote_pool *p, mote_pool_stats *out);

/*
 * Inline fast paths of get (a free-list hit) and put (a valid pooled
 * buffer), as mote_arena_alloc: a handful of instructions in the caller,
 * everything else (and everything under ASan/Valgrind, so the shim sees
 * every buffer, or in MOTE_SMALL builds) in the library. The header layout below is private.
 */
#define MOTE__POOL_HDR 8u             /* tag (u32), info (u32) before each buffer */
#define MOTE__POOL_CHECK 0x6d6f74u    /* info bits 8..31: "mot" */
#define MOTE__POOL_LIVE 0x4c495645u   /* tag = (header address ^ key) ^ state */
#define MOTE__POOL_FREE 0x46524545u

void *mote__pool_get_slow(mote_pool *p, size_t size, size_t *capacity);
mote_err mote__pool_put_slow(mote_pool *p, void *ptr);

/* Class index of a request: 0 for <= 16 bytes, then one per power of two. */
inline unsigned mote__pool_class(size_t size)
{
    if (size <= MOTE_POOL_MIN_CLASS) return 0;
#if defined(__GNUC__)
    return (unsigned)(64 - __builtin_clzll((unsigned long long)(size - 1))) - 4u;
#else
    unsigned c = 0;
    size_t s = MOTE_POOL_MIN_CLASS;
    while (s < size) {
        s <<= 1;
        c++;
    }
    return c;
#endif
}

/* A buffer header's tag. Not a secret, just a value that stale or foreign
 * bytes almost never match: the header's own address (a copied header
 * fails) mixed with the pool's key (another pool's buffer fails) and the
 * state (LIVE or FREE). */
inline uint32_t mote__pool_tag(const mote_pool *p, const uint8_t *hdr, uint32_t state)
{
    return ((uint32_t)(uintptr_t)hdr ^ p->key) ^ state;
}

MOTE_NODISCARD inline void *mote_pool_get(mote_pool *p, size_t size, size_t *capacity)
{
#if !defined(MOTE__CALL_LIBRARY)
    if (p && size <= p->max_size) {
        unsigned c = mote__pool_class(size);
        /* c < MOTE_POOL_CLASSES always holds (size <= max_size); the test
         * tells the compiler so. */
        uint8_t *ptr = c < MOTE_POOL_CLASSES ? (uint8_t *)p->free_list[c] : NULL;
        if (ptr) {
            size_t cap = (size_t)MOTE_POOL_MIN_CLASS << c;
            uint8_t *h = ptr - MOTE__POOL_HDR;
            uint32_t tag = mote__pool_tag(p, h, MOTE__POOL_LIVE);
            memcpy(&p->free_list[c], ptr, sizeof(void *));
            memcpy(h, &tag, 4);
            p->stats.hits++;
            p->stats.outstanding += cap;
            if (capacity) *capacity = cap;
            return ptr;
        }
    }
#endif
    return mote__pool_get_slow(p, size, capacity);
}

MOTE_NODISCARD inline mote_err mote_pool_put(mote_pool *p, void *ptr)
{
#if !defined(MOTE__CALL_LIBRARY)
    uintptr_t u = (uintptr_t)ptr;
    if (p && u >= 2 * MOTE__POOL_HDR && (u & (MOTE_ARENA_ALIGN - 1)) == 0) {
        uint8_t *h = (uint8_t *)ptr - MOTE__POOL_HDR;
        uint32_t tag, info;
        memcpy(&tag, h, 4);
        memcpy(&info, h + 4, 4);
        unsigned c = info & 0xffu;
        /* Oversize buffers (class 0xff), double puts (FREE tag) and foreign
         * pointers take the library path. */
        if ((info >> 8) == MOTE__POOL_CHECK && c <= p->max_class &&
            tag == mote__pool_tag(p, h, MOTE__POOL_LIVE)) {
            uint32_t freed = tag ^ (MOTE__POOL_LIVE ^ MOTE__POOL_FREE);
            memcpy(h, &freed, 4);
            memcpy(ptr, &p->free_list[c], sizeof(void *));
            p->free_list[c] = ptr;
            p->stats.outstanding -= (size_t)MOTE_POOL_MIN_CLASS << c;
            return MOTE_OK;
        }
    }
#endif
    return mote__pool_put_slow(p, ptr);
}

#ifdef __cplusplus
}
#endif

#endif /* MOTE_POOL_H */
