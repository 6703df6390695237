/*
 * pool.c - power-of-two size classes carved from an arena, one free list
 * per class.
 *
 * Every buffer is preceded by an 8-byte header:
 *   tag  (u32)  mix(pool key, header address) ^ state (LIVE or FREE)
 *   info (u32)  class index in the low byte, 'mot' check bytes above it
 * The tag depends on the pool and the address, so a pointer from another
 * pool, from elsewhere, or into the middle of a buffer fails the check, and
 * a buffer already on a free list carries the FREE tag: put() refuses both
 * without touching any list. Oversize buffers (from the allocator callback)
 * have one more 8-byte word in front of the header holding their capacity
 * (a size_t at its start).
 * While a buffer is on a free list its body (link word included) is
 * poisoned; the header never is, so put() can always read it.
 * Header and link words go through memcpy: no alignment assumptions.
 */
#include <string.h>

#include "mote/pool.h"
#include "mem_private.h"
#include "track.h"

#define HDR 8u                    /* tag (u32), info (u32) before each buffer */
#define OVERSIZE_CLASS 0xffu
#define INFO_CHECK 0x6d6f74u       /* info bits 8..31: "mot" */
#define STATE_LIVE 0x4c495645u     /* tag = (header address ^ key) ^ state */
#define STATE_FREE 0x46524545u
#define DEFAULT_MAX ((size_t)64 * 1024)
#define TOP_CLASS_SIZE ((size_t)MOTE_POOL_MIN_CLASS << (MOTE_POOL_CLASSES - 1))

/* Class index of a request: 0 for <= 16 bytes, then one per power of two. */
static MOTE_SMALL_NOINLINE unsigned size_class(size_t size)
{
    if (size <= MOTE_POOL_MIN_CLASS) return 0;
    return (unsigned)(64 - mote__clz64((uint64_t)(size - 1))) - 4u;
}

/* A buffer header's tag. Not a secret, just a value that stale or foreign
 * bytes almost never match: the header's own address (a copied header
 * fails) mixed with the pool's key (another pool's buffer fails) and the
 * state (LIVE or FREE). */
static inline uint32_t hdr_tag(const mote_pool *p, const uint8_t *hdr, uint32_t state)
{
    return ((uint32_t)(uintptr_t)hdr ^ p->key) ^ state;
}

mote_err mote_pool_init(mote_pool *p, mote_arena *a, size_t max_size)
{
    if (!p || !a) return MOTE_ERR_INVALID;
    memset(p, 0, sizeof *p);
    p->arena = a;
    if (max_size == 0) max_size = DEFAULT_MAX;
    if (max_size > TOP_CLASS_SIZE) max_size = TOP_CLASS_SIZE;
    p->max_class = size_class(max_size);
    p->max_size = (size_t)MOTE_POOL_MIN_CLASS << p->max_class;
#if MOTE_SMALL
    /* 32-bit arithmetic on 32-bit cores (Cortex-M size): any mix serves */
    p->key = (uint32_t)(((uintptr_t)p ^ ((uintptr_t)a << 7)) * 0x9E3779B9u);
#else
    uint64_t k = ((uint64_t)(uintptr_t)p ^ ((uint64_t)(uintptr_t)a << 7)) * 0x9E3779B97F4A7C15u;
    p->key = (uint32_t)(k >> 32);
#endif
    return MOTE_OK;
}

/* The buffer with header h (class c, or OVERSIZE_CLASS; cap bytes) goes
 * out: tagged LIVE, counted in *counter (hits or misses) and outstanding.
 * One tail for every way out (Cortex-M size: one copy under MOTE_SMALL).
 * The info word is written for a new buffer (fresh); on a free-list hit it
 * holds that value already, and only MOTE_SMALL builds write it again (one
 * store less on the hosted hit path). */
static MOTE_SMALL_NOINLINE void *hand_out(mote_pool *p, uint8_t *h, unsigned c, size_t cap,
                                         size_t *capacity, size_t *counter, bool fresh)
{
    uint32_t tag = hdr_tag(p, h, STATE_LIVE), info = c | (INFO_CHECK << 8);
    memcpy(h, &tag, 4);
    if (fresh || MOTE_SMALL) memcpy(h + 4, &info, 4);
    ++*counter;
    p->stats.outstanding += cap;
    if (capacity) *capacity = cap;
    return h + HDR;
}

static void *fail(mote_pool *p, size_t *capacity)
{
    p->stats.failures++;
    if (capacity) *capacity = 0;
    return NULL;
}

static MOTE_SMALL_INLINE void *get_oversize(mote_pool *p, size_t size, size_t *capacity)
{
    mote_arena *a = p->arena;
    size_t cap, total;
    if (!a || !a->alloc || !mote_size_add(size, MOTE_ARENA_ALIGN - 1, &cap)) return fail(p, capacity);
    cap &= ~(size_t)(MOTE_ARENA_ALIGN - 1);
    if (!mote_size_add(cap, 2 * HDR, &total)) return fail(p, capacity);
    uint8_t *blk = a->alloc(a->alloc_ctx, NULL, 0, total);
    if (!blk) return fail(p, capacity);
    memcpy(blk, &cap, sizeof cap); /* in an 8-byte word, which keeps the alignment */
    return hand_out(p, blk + HDR, OVERSIZE_CLASS, cap, capacity, &p->stats.misses, true);
}

/* Everything but a free-list hit: NULL pool, oversize, carving a new buffer. */
static MOTE_COLD void *get_miss(mote_pool *p, size_t size, size_t *capacity)
{
    if (!p) {
        if (capacity) *capacity = 0;
        return NULL;
    }
    if (size > p->max_size) return get_oversize(p, size, capacity);
    unsigned c = size_class(size);
    size_t cap = (size_t)MOTE_POOL_MIN_CLASS << c;
    uint8_t *h = mote_arena_alloc(p->arena, HDR + cap);
    if (!h) return fail(p, capacity);
    /* info never changes afterwards; the tag flips LIVE/FREE. */
    return hand_out(p, h, c, cap, capacity, &p->stats.misses, true);
}

/* A free-list hit here; everything else in get_miss. */
void *mote_pool_get(mote_pool *p, size_t size, size_t *capacity)
{
    if (MOTE_UNLIKELY(!p || size > p->max_size)) return get_miss(p, size, capacity);
    unsigned c = size_class(size);
    uint8_t *ptr = p->free_list[c];
    if (MOTE_UNLIKELY(!ptr)) return get_miss(p, size, capacity);
    size_t cap = (size_t)MOTE_POOL_MIN_CLASS << c;
    MOTE_TRACK_DEFINED(ptr, sizeof(void *));
    memcpy(&p->free_list[c], ptr, sizeof(void *));
    MOTE_TRACK_FRESH(ptr, cap);
    return hand_out(p, ptr - HDR, c, cap, capacity, &p->stats.hits, false);
}

/* Read the header of ptr if it can be one of ours; false if not. */
static inline bool read_hdr(const void *ptr, uint32_t *tag, uint32_t *info)
{
    uintptr_t u = (uintptr_t)ptr;
    /* Our buffers are MOTE_ARENA_ALIGN-aligned and have a header in front. */
    if (u < 2 * HDR || (u & (MOTE_ARENA_ALIGN - 1)) != 0) return false;
    const uint8_t *h = (const uint8_t *)ptr - HDR;
    /* Under ASan a poisoned header (a heap redzone, free arena space, a
     * pooled buffer's body) cannot be one of ours: refuse without reading. */
    if (MOTE_TRACK_IS_POISONED(h, HDR)) return false;
    memcpy(tag, h, 4);
    memcpy(info, h + 4, 4);
    return (*info >> 8) == INFO_CHECK;
}

static mote_err bad_put(mote_pool *p)
{
    p->stats.bad_puts++;
    return MOTE_ERR_INVALID;
}

/* An oversize buffer (header and tag checked) back to the allocator. */
static MOTE_COLD mote_err put_oversize(mote_pool *p, void *ptr, uint32_t tag)
{
    uint8_t *h = (uint8_t *)ptr - HDR;
    mote_arena *a = p->arena;
    size_t cap;
    if (!a->alloc || MOTE_TRACK_IS_POISONED(h - HDR, HDR)) return bad_put(p);
    memcpy(&cap, h - HDR, sizeof cap);
    if (cap <= p->max_size || cap > SIZE_MAX - 2 * HDR) return bad_put(p);
    /* Marked FREE first: a second put sees it while the memory is not
     * reused (and ASan reports the use after free). */
    uint32_t freed = tag ^ (STATE_LIVE ^ STATE_FREE);
    memcpy(h, &freed, 4);
    (void)a->alloc(a->alloc_ctx, h - HDR, cap + 2 * HDR, 0);
    p->stats.drops++;
    p->stats.outstanding -= cap;
    return MOTE_OK;
}

/* One pass of checks for every pointer: NULL, foreign, double put,
 * oversize, then a pooled buffer back on its free list. */
mote_err mote_pool_put(mote_pool *p, void *ptr)
{
    uint32_t tag, info;
    if (MOTE_UNLIKELY(!ptr)) return MOTE_OK;
    if (MOTE_UNLIKELY(!p)) return MOTE_ERR_INVALID;
    if (MOTE_UNLIKELY(!read_hdr(ptr, &tag, &info))) return bad_put(p);
    uint8_t *h = (uint8_t *)ptr - HDR;
    unsigned c = info & 0xffu;
    /* A FREE tag is a double put; anything else a foreign pointer. */
    if (MOTE_UNLIKELY(tag != hdr_tag(p, h, STATE_LIVE))) return bad_put(p);
    if (MOTE_UNLIKELY(c > p->max_class))
        return c == OVERSIZE_CLASS ? put_oversize(p, ptr, tag) : bad_put(p);
    size_t cap = (size_t)MOTE_POOL_MIN_CLASS << c;
    uint32_t freed = tag ^ (STATE_LIVE ^ STATE_FREE);
    memcpy(h, &freed, 4);
    memcpy(ptr, &p->free_list[c], sizeof(void *));
    p->free_list[c] = ptr;
    MOTE_TRACK_POISON(ptr, cap);
    p->stats.outstanding -= cap;
    return MOTE_OK;
}

size_t mote_pool_capacity(const void *ptr)
{
    uint32_t tag, info;
    if (!ptr || !read_hdr(ptr, &tag, &info)) return 0;
    unsigned c = info & 0xffu;
    if (c == OVERSIZE_CLASS) {
        const uint8_t *pre = (const uint8_t *)ptr - 2 * HDR;
        size_t cap;
        if (MOTE_TRACK_IS_POISONED(pre, HDR)) return 0;
        memcpy(&cap, pre, sizeof cap);
        return cap;
    }
    if (c >= MOTE_POOL_CLASSES) return 0;
    return (size_t)MOTE_POOL_MIN_CLASS << c;
}

void mote_pool_get_stats(const mote_pool *p, mote_pool_stats *out)
{
    if (!out) return;
    if (p) *out = p->stats;
    else memset(out, 0, sizeof *out);
}
