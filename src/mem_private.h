/*
 * mem_private.h - hooks between the memory-layer modules (not installed).
 */
#ifndef MOTE_MEM_PRIVATE_H
#define MOTE_MEM_PRIVATE_H

#include "mote/arena.h"

/*
 * If ptr[0..old_size) is the most recent allocation in a's current block,
 * move its end so it spans new_size bytes (growing only into free space of
 * that block, shrinking gives the bytes back) and return true. Otherwise
 * change nothing and return false. Lets an arena-backed buffer grow in place
 * and give back what it does not use.
 */
bool mote__arena_resize_last(mote_arena *a, void *ptr, size_t old_size, size_t new_size);

#endif /* MOTE_MEM_PRIVATE_H */
