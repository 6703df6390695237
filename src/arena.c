/*
 * arena.c - bump allocator over caller memory; chains blocks obtained from
 * an allocator callback when one is given.
 *
 * Layout: the caller's block first, then chained blocks in a doubly linked
 * list (oldest first). 'block' is the one allocations come from; blocks after
 * it are spares kept by reset(false) and reused before asking the allocator.
 * Free bytes of every block are poisoned (track.h); allocation unpoisons
 * exactly the bytes handed out, so padding and the unused tail stay poisoned.
 */
#include <string.h>

#include "mote/arena.h"
#include "mem_private.h"
#include "track.h"

struct mote_arena_block {
    mote_arena_block *prev;
    mote_arena_block *next;
    size_t size; /* bytes obtained from the allocator, header included */
};

/* Header rounded to 16 so the usable part keeps the allocator's alignment. */
#define BLOCK_HDR ((sizeof(mote_arena_block) + 15u) & ~(size_t)15u)
#define DEFAULT_MIN_BLOCK 4096u

static uint8_t *block_start(mote_arena_block *b) { return (uint8_t *)b + BLOCK_HDR; }
static uint8_t *block_end(mote_arena_block *b) { return (uint8_t *)b + b->size; }

/* Integer arithmetic on addresses: the initial block may be NULL (size 0),
 * and NULL + 0 or NULL - NULL is undefined behaviour in C. */
static size_t span(const uint8_t *from, const uint8_t *to)
{
    return (size_t)((uintptr_t)to - (uintptr_t)from);
}

static size_t pad_for(const uint8_t *p, size_t align)
{
    return (size_t)(-(uintptr_t)p) & (align - 1);
}

static bool is_pow2(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

static uint8_t *initial_end(const mote_arena *a)
{
    return a->initial ? a->initial + a->initial_size : NULL;
}

static MOTE_SMALL_NOINLINE void note_high_water(mote_arena *a)
{
    if (a->used > a->high_water) a->high_water = a->used;
}

mote_err mote_arena_init(mote_arena *a, void *mem, size_t size,
                         mote_alloc_fn alloc, void *alloc_ctx)
{
    if (!a || (!mem && size > 0)) return MOTE_ERR_INVALID;
    *a = (mote_arena){.cur = mem, .initial = mem, .initial_size = size, .alloc = alloc,
                      .alloc_ctx = alloc_ctx, .min_block = DEFAULT_MIN_BLOCK, .capacity = size};
    a->end = initial_end(a);
    if (size) MOTE_TRACK_POISON(mem, size);
    return MOTE_OK;
}

void mote_arena_set_min_block(mote_arena *a, size_t min_block)
{
    if (a) a->min_block = min_block ? min_block : DEFAULT_MIN_BLOCK;
}

/* Unlink b and give it back to the allocator. */
static void release_block(mote_arena *a, mote_arena_block *b)
{
    if (b->prev) b->prev->next = b->next;
    else a->first = b->next;
    if (b->next) b->next->prev = b->prev;
    a->blocks--;
    a->capacity -= b->size - BLOCK_HDR;
    size_t size = b->size;
    /* The allocator owns these bytes again; it may touch all of them (the
     * header was never marked). */
    MOTE_TRACK_FRESH(block_start(b), size - BLOCK_HDR);
    (void)a->alloc(a->alloc_ctx, b, size, 0);
}

/* Bump within [cur, end) if it fits; NULL otherwise (nothing changed). */
static void *bump(mote_arena *a, size_t size, size_t align)
{
    size_t avail = span(a->cur, a->end);
    size_t pad = pad_for(a->cur, align);
    if (pad > avail || size > avail - pad) return NULL;
    uint8_t *p = a->cur + pad;
    a->cur = p + size;
    a->used += pad + size;
    MOTE_TRACK_FRESH(p, size);
    return p;
}

static MOTE_SMALL_NOINLINE void enter_block(mote_arena *a, mote_arena_block *b)
{
    a->block = b;
    a->cur = block_start(b);
    a->end = block_end(b);
}

/* Slow path: the current block is full. Try spares, then a new block.
 * Out of line in hosted builds (MOTE_COLD); under MOTE_SMALL the compiler
 * places it (8 bytes smaller on Cortex-M4 than forced inline). */
#if MOTE_SMALL
#define GROW_PLACE
#else
#define GROW_PLACE MOTE_COLD
#endif
static GROW_PLACE void *grow(mote_arena *a, size_t size, size_t align)
{
    size_t need;
    if (!a->alloc || !mote_size_add(size, align - 1, &need) ||
        !mote_size_add(need, BLOCK_HDR, &need)) {
        a->failed++;
        return NULL;
    }
    mote_arena_block *cand = a->block ? a->block->next : a->first;
    while (cand) {
        mote_arena_block *next = cand->next;
        size_t avail = cand->size - BLOCK_HDR;
        size_t pad = pad_for(block_start(cand), align);
        if (pad <= avail && size <= avail - pad) {
            enter_block(a, cand);
            return bump(a, size, align);
        }
        /* Too small for this request: spares are only a cache, drop it. */
        release_block(a, cand);
        cand = next;
    }
    size_t bsize = need < a->min_block ? a->min_block : need;
    if (bsize < BLOCK_HDR + 1) bsize = BLOCK_HDR + 1;
    mote_arena_block *nb = a->alloc(a->alloc_ctx, NULL, 0, bsize);
    if (!nb) {
        a->failed++;
        return NULL;
    }
    nb->size = bsize;
    nb->prev = a->block;
    nb->next = NULL;
    if (a->block) a->block->next = nb;
    else a->first = nb;
    a->blocks++;
    a->capacity += bsize - BLOCK_HDR;
    MOTE_TRACK_POISON(block_start(nb), bsize - BLOCK_HDR);
    enter_block(a, nb);
    return bump(a, size, align);
}

#if MOTE_SMALL
/* Inlined into its one caller, mote_arena_alloc_aligned, which every other
 * entry point calls; the bump shared with grow (Cortex-M size). */
static inline void *arena_alloc(mote_arena *a, size_t size, size_t align)
{
    if (size == 0) size = 1; /* every pointer handed out is distinct */
    void *p = bump(a, size, align);
    return p ? p : grow(a, size, align);
}
#else
static inline void *arena_alloc(mote_arena *a, size_t size, size_t align)
{
    if (size == 0) size = 1; /* every pointer handed out is distinct */
    size_t avail = span(a->cur, a->end);
    size_t pad = pad_for(a->cur, align);
    if (MOTE_UNLIKELY(pad > avail || size > avail - pad)) return grow(a, size, align);
    uint8_t *p = a->cur + pad;
    a->cur = p + size;
    a->used += pad + size;
    MOTE_TRACK_FRESH(p, size);
    return p;
}
#endif

/* The external definition of the inline fast path in mote/arena.h. */
extern inline void *mote_arena_alloc(mote_arena *a, size_t size);

void *mote_arena_alloc_aligned(mote_arena *a, size_t size, size_t align)
{
    if (!a) return NULL;
    if (!is_pow2(align)) {
        a->failed++;
        return NULL;
    }
    return arena_alloc(a, size, align);
}

#if MOTE_SMALL
/* Both through alloc_aligned, the one copy of the bump (Cortex-M size; the
 * inline path's align is a power of two). A program that never allocates
 * an array does not link alloc_array's multiplication check (on
 * Cortex-M0+, a division helper). */
void *mote__arena_alloc_slow(mote_arena *a, size_t size, size_t align)
{
    return mote_arena_alloc_aligned(a, size, align);
}

void *mote_arena_alloc_array(mote_arena *a, size_t count, size_t size, size_t align)
{
    size_t total;
    if (a && !mote_size_mul(count, size, &total)) {
        a->failed++;
        return NULL;
    }
    return mote_arena_alloc_aligned(a, count * size, align);
}
#else
void *mote__arena_alloc_slow(mote_arena *a, size_t size, size_t align)
{
    if (!a) return NULL;
    return arena_alloc(a, size, align);
}

void *mote_arena_alloc_array(mote_arena *a, size_t count, size_t size, size_t align)
{
    if (!a) return NULL;
    size_t total;
    if (!is_pow2(align) || !mote_size_mul(count, size, &total)) {
        a->failed++;
        return NULL;
    }
    return arena_alloc(a, total, align);
}
#endif

void *mote_arena_calloc(mote_arena *a, size_t count, size_t size)
{
    void *p = mote_arena_alloc_array(a, count, size, MOTE_ARENA_ALIGN);
    if (p) memset(p, 0, count * size); /* product checked above */
    return p;
}

mote_arena_mark mote_arena_save(const mote_arena *a)
{
    mote_arena_mark m = {NULL, NULL, 0};
    if (a) {
        m.block = a->block;
        m.cur = a->cur;
        m.used = a->used;
    }
    return m;
}

void mote_arena_restore(mote_arena *a, mote_arena_mark m)
{
    if (!a) return;
    /* The mark's block must be the current one or an older one still held. */
    mote_arena_block *b = a->block;
    while (b && b != m.block) b = b->prev;
    if (b != m.block) return;
    uint8_t *start = b ? block_start(b) : a->initial;
    uint8_t *end = b ? block_end(b) : initial_end(a);
    uintptr_t cur = (uintptr_t)m.cur;
    if (cur < (uintptr_t)start || cur > (uintptr_t)end) return;
    if (b == a->block && cur > (uintptr_t)a->cur) return;
    if (m.used > a->used) return;

    note_high_water(a);
    mote_arena_block *r = b ? b->next : a->first;
    while (r) {
        mote_arena_block *next = r->next;
        release_block(a, r);
        r = next;
    }
    a->block = b;
    a->cur = m.cur;
    a->end = end;
    a->used = m.used;
    if (end != m.cur) MOTE_TRACK_POISON(m.cur, span(m.cur, end));
}

void mote_arena_reset(mote_arena *a, bool release_blocks)
{
    if (!a) return;
    note_high_water(a);
    a->used = 0;
    mote_arena_block *b = a->first;
    while (b) {
        mote_arena_block *next = b->next;
        if (release_blocks) release_block(a, b);
        else MOTE_TRACK_POISON(block_start(b), b->size - BLOCK_HDR);
        b = next;
    }
    a->block = NULL;
    a->cur = a->initial;
    a->end = initial_end(a);
    if (a->initial_size) MOTE_TRACK_POISON(a->initial, a->initial_size);
}

void mote_arena_destroy(mote_arena *a)
{
    if (!a) return;
    mote_arena_reset(a, true); /* every chained block back to the allocator */
    /* The caller's block goes back to the caller fully usable. */
    if (a->initial_size) MOTE_TRACK_FRESH(a->initial, a->initial_size);
    memset(a, 0, sizeof *a);
}

void mote_arena_get_stats(const mote_arena *a, mote_arena_stats *out)
{
    if (!out) return;
    if (!a) {
        memset(out, 0, sizeof *out);
        return;
    }
    out->used = a->used;
    out->capacity = a->capacity;
    out->high_water = a->used > a->high_water ? a->used : a->high_water;
    out->failed = a->failed;
    out->blocks = a->blocks;
}

/* Resize the current chained block, whose only allocation is its first
 * byte onwards, so that allocation spans new_size bytes. */
static void *resize_block(mote_arena *a, size_t old_size, size_t new_size)
{
    mote_arena_block *b = a->block;
    size_t bsize;
    if (!mote_size_add(new_size, BLOCK_HDR, &bsize)) return NULL;
    size_t old_bsize = b->size;
    /* The allocator may copy the whole block: make the free tail accessible
     * (header and the one allocation are already). */
    MOTE_TRACK_FRESH(a->cur, span(a->cur, a->end));
    mote_arena_block *nb = a->alloc(a->alloc_ctx, b, old_bsize, bsize);
    if (!nb) {
        MOTE_TRACK_POISON(a->cur, span(a->cur, a->end));
        return NULL;
    }
    if (nb->prev) nb->prev->next = nb;
    else a->first = nb;
    if (nb->next) nb->next->prev = nb;
    nb->size = bsize;
    a->capacity = a->capacity - (old_bsize - BLOCK_HDR) + (bsize - BLOCK_HDR);
    a->block = nb;
    a->cur = block_start(nb) + new_size;
    a->end = block_end(nb);
    a->used += new_size - old_size;
    return block_start(nb);
}

void *mote__arena_resize_last(mote_arena *a, void *ptr, size_t old_size, size_t new_size)
{
    uint8_t *p = ptr;
    if (!a || !p || !a->cur) return NULL;
    uint8_t *start = a->block ? block_start(a->block) : a->initial;
    if ((uintptr_t)p < (uintptr_t)start || (uintptr_t)p > (uintptr_t)a->cur ||
        span(p, a->cur) != old_size)
        return NULL;
    if (new_size >= old_size) {
        size_t more = new_size - old_size;
        if (more > span(a->cur, a->end)) {
            /* Only allocation of a chained block: let the allocator resize
             * the block (often in place, else one copy like realloc). A mark
             * taken inside this block after p would become stale, but
             * restoring it after p grew is already invalid (see save). */
            if (a->block && p == start) return resize_block(a, old_size, new_size);
            return NULL;
        }
        MOTE_TRACK_FRESH(a->cur, more);
        a->cur += more;
        a->used += more;
    } else {
        size_t less = old_size - new_size;
        note_high_water(a);
        a->cur -= less;
        a->used -= less;
        MOTE_TRACK_POISON(a->cur, less);
    }
    return p;
}
