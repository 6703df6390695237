/*
 * mem_private.h - hooks between the memory-layer modules (not installed).
 */
#ifndef MOTE_MEM_PRIVATE_H
#define MOTE_MEM_PRIVATE_H

#include "mote/arena.h"

/* MOTE_NOINLINE, MOTE_UNLIKELY: keep slow paths out of line so the fast
 * paths stay small (no spills). */
#include "mote_private.h"

/*
 * Cortex-M size (MOTE_SMALL builds), each choice measured with -Os on
 * Cortex-M4: MOTE_SMALL_OUTLINE keeps one copy of a helper that gcc would
 * inline at every call; MOTE_SMALL_INLINE folds a helper into its callers
 * where that is smaller; MOTE_COLD is a slow path kept out of line for the
 * hosted fast paths' sake and folded in under MOTE_SMALL. Hosted builds:
 * plain static (MOTE_COLD: noinline), as before.
 */
#if MOTE_SMALL && defined(__GNUC__)
#define MOTE_SMALL_OUTLINE __attribute__((noinline))
#define MOTE_SMALL_INLINE __attribute__((always_inline)) inline
#define MOTE_COLD MOTE_SMALL_INLINE
#else
#define MOTE_SMALL_OUTLINE
#define MOTE_SMALL_INLINE inline
#define MOTE_COLD MOTE_NOINLINE
#endif

/*
 * If ptr[0..old_size) is the most recent allocation in a's current block,
 * resize it to new_size bytes and return
 * its (possibly new) address; otherwise change nothing and return NULL.
 * Shrinking gives the bytes back. Growing uses free space of the block, or,
 * when ptr is the only allocation of a chained block, resizes that block
 * through the allocator callback (like realloc: contents kept, may move).
 * Lets an arena-backed buffer grow without copying and give back what it
 * does not use.
 */
void *mote__arena_resize_last(mote_arena *a, void *ptr, size_t old_size, size_t new_size);

#endif /* MOTE_MEM_PRIVATE_H */
