/*
 * mote/arena.h - bump allocator over caller-supplied memory.
 *
 * An arena hands out memory from a block the caller gives (stack, static
 * storage or heap). Without an allocator callback it never grows: an
 * allocation that does not fit returns NULL, counts a failure, and leaves the
 * arena exactly as it was. With a callback it chains new blocks obtained from
 * it (each at least the requested size plus a header, and at least
 * min_block bytes).
 *
 * Nothing is freed individually. Scratch work uses save/restore marks; reset
 * drops everything. Under AddressSanitizer (or Valgrind with -DMOTE_VALGRIND)
 * free arena memory is poisoned (from init on, and again after
 * restore/reset) and exactly the bytes handed out are unpoisoned, so
 * overruns into free space and use after restore/reset are reported.
 * mote_arena_destroy() unpoisons the caller's block before handing it back.
 *
 * Not thread-safe: one arena per thread, or external locking.
 */
#ifndef MOTE_ARENA_H
#define MOTE_ARENA_H

#include "mote/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default alignment of mote_arena_alloc(): 8, every type's on 32-bit ARM and
 * every integer, pointer and double's elsewhere. Not enough on x86-64 for
 * long double, __int128 or max_align_t (16): use mote_arena_alloc_aligned()
 * for those. */
#define MOTE_ARENA_ALIGN 8u

typedef struct mote_arena_block mote_arena_block; /* private: chained block header */

/* Fields are private; the struct is visible so callers can place it anywhere. */
typedef struct mote_arena {
    uint8_t *cur;              /* next free byte in the current block */
    uint8_t *end;              /* end of the current block */
    mote_arena_block *block;   /* current chained block, NULL while in the initial one */
    mote_arena_block *first;   /* oldest chained block; blocks after 'block' are spares */
    uint8_t *initial;          /* caller block */
    size_t initial_size;
    mote_alloc_fn alloc;       /* NULL: fixed size */
    void *alloc_ctx;
    size_t min_block;          /* smallest chained block to request */
    size_t used;               /* bytes handed out (incl. alignment padding) */
    size_t capacity;           /* bytes of all blocks usable for allocation */
    size_t high_water;         /* max of used over the arena's life */
    size_t failed;             /* allocations that returned NULL */
    size_t blocks;             /* chained blocks held */
} mote_arena;

/* A save point: restore() releases everything allocated after save(). */
typedef struct mote_arena_mark {
    mote_arena_block *block;
    uint8_t *cur;
    size_t used;
} mote_arena_mark;

typedef struct mote_arena_stats {
    size_t used;        /* bytes handed out now, padding included */
    size_t capacity;    /* bytes usable across all blocks */
    size_t high_water;  /* largest 'used' seen */
    size_t failed;      /* failed allocations */
    size_t blocks;      /* chained blocks currently held (0 = only the caller block) */
} mote_arena_stats;

/*
 * Initialise an arena over mem[0..size). mem may be NULL with size 0 when an
 * allocator is given (all memory then comes from it). alloc may be NULL
 * (fixed size). The caller owns mem and must keep it alive while the arena is
 * used. Returns MOTE_OK, or MOTE_ERR_INVALID if a is NULL, or mem is NULL with
 * size > 0. Does not release blocks of an arena initialised before (destroy
 * it first).
 */
MOTE_NODISCARD mote_err mote_arena_init(mote_arena *a, void *mem, size_t size,
                         mote_alloc_fn alloc, void *alloc_ctx);

/* Smallest block (header included) requested from the allocator when
 * chaining; 0 restores the default 4096. A larger request gets a block of
 * its own size. NULL a is ignored. */
void mote_arena_set_min_block(mote_arena *a, size_t min_block);

/*
 * Inline fast paths. A few hot functions (mote_arena_alloc here,
 * mote_buf_append/mote_buf_push in mote/buf.h) are C99 inline definitions, so
 * the common case costs a handful of instructions in the caller instead of
 * a call; the library still exports every one of them (extern inline in
 * its .c file), so taking their address or calling from another language
 * works as before. Under AddressSanitizer (or with MOTE_VALGRIND) the
 * memory-tracking ones always call into the library so the shim sees every
 * block: code that includes these headers must be built with the same
 * sanitizer setting as the library. mote__* functions are private.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(MOTE_VALGRIND)
#define MOTE__TRACKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MOTE__TRACKED 1
#endif
#endif
/* Size-optimised builds (MOTE_SMALL, see mote/common.h) keep one copy of
 * the allocator code, in the library, instead of a second inline one. */
#if defined(MOTE__TRACKED) || MOTE_SMALL
#define MOTE__CALL_LIBRARY 1
#endif

void *mote__arena_alloc_slow(mote_arena *a, size_t size, size_t align);

/*
 * Allocate size bytes aligned to MOTE_ARENA_ALIGN. The memory is owned by
 * the arena and valid until a restore to an earlier mark, reset or destroy.
 * size 0 is served as 1 byte, so every non-NULL result is distinct. Returns
 * NULL (and counts a failure) if it does not fit and the arena cannot grow
 * (no allocator, or the allocator failed: spare blocks too small for the
 * request were given back to it on the way, as reset(false) says), or if
 * size plus block overhead would overflow size_t; NULL on a NULL arena
 * (nothing counted).
 */
MOTE_NODISCARD inline void *mote_arena_alloc(mote_arena *a, size_t size)
{
#if !defined(MOTE__CALL_LIBRARY)
    if (a && size != 0) {
        uintptr_t cur = (uintptr_t)a->cur;
        size_t pad = (size_t)(0u - cur) & (MOTE_ARENA_ALIGN - 1);
        size_t avail = (size_t)((uintptr_t)a->end - cur);
        if (pad <= avail && size <= avail - pad) {
            uint8_t *p = a->cur + pad;
            a->cur = p + size;
            a->used += pad + size;
            return p;
        }
    }
#endif
    return mote__arena_alloc_slow(a, size, MOTE_ARENA_ALIGN);
}

/* As mote_arena_alloc with an explicit alignment; align must be a power of
 * two (else NULL and a counted failure, nothing consumed). */
MOTE_NODISCARD void *mote_arena_alloc_aligned(mote_arena *a, size_t size, size_t align);

/* Allocate count * size bytes aligned to align; the product is checked for
 * overflow before it is computed (overflow or bad align: NULL, counted
 * failure, nothing consumed). count or size 0 behaves as size 0. */
MOTE_NODISCARD void *mote_arena_alloc_array(mote_arena *a, size_t count, size_t size, size_t align);

/* mote_arena_alloc_array(a, count, size, MOTE_ARENA_ALIGN), zeroed. */
MOTE_NODISCARD void *mote_arena_calloc(mote_arena *a, size_t count, size_t size);

/* Save point; restore releases (and poisons) everything allocated since,
 * and returns to the allocator every chained block after the mark's block.
 * A mark must not be restored after an earlier mark was restored or after
 * reset; restore checks what it cheaply can (the mark's block is still held,
 * its position lies in that block and not beyond the current position) and
 * ignores a mark that fails the checks. save(NULL) gives an empty mark;
 * restore(NULL, m) does nothing. Anything allocated or grown after the mark
 * is released by restore, including growth of an arena-backed mote_buf
 * made before the mark: such a buffer must not grow between save and
 * restore. So are a pool's buffers carved after the mark, even those put
 * back: a pool on this arena must not get new buffers between save and
 * restore (its free lists would then point into released memory). */
mote_arena_mark mote_arena_save(const mote_arena *a);
void mote_arena_restore(mote_arena *a, mote_arena_mark mark);

/* Release everything. release_blocks: give chained blocks back to the
 * allocator (true) or keep them as spares that later allocations fill before
 * asking the allocator again (false; a spare too small for a request is
 * released then). high_water and failed are kept. */
void mote_arena_reset(mote_arena *a, bool release_blocks);

/* Release all chained blocks and unpoison the caller's block; afterwards the
 * arena is empty (every allocation fails) until initialised again. */
void mote_arena_destroy(mote_arena *a);

/* Statistics into *out (NULL out: nothing; NULL a: all zero). Always
 * used <= capacity and used <= high_water. */
void mote_arena_get_stats(const mote_arena *a, mote_arena_stats *out);

/*
 * Allocator adapter over the C heap (malloc/realloc/free); ctx is ignored.
 * Lives in its own file (src/heap.c) and is absent from freestanding builds.
 */
void *mote_heap_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_ARENA_H */
