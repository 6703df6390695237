/*
 * mem_private.h - hooks between the memory-layer modules (not installed).
 */
#ifndef MOTE_MEM_PRIVATE_H
#define MOTE_MEM_PRIVATE_H

#include "mote/arena.h"

/* MOTE_NOINLINE, MOTE_UNLIKELY: keep slow paths out of line so the fast
 * paths stay small (no spills). */
#include "mote_private.h"

/* MOTE_SMALL_NOINLINE, MOTE_SMALL_INLINE, MOTE_COLD: mote_private.h */

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
