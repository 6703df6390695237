/*
 * heap.c - the one adapter from the C heap to mote's allocator callback.
 * Hosted builds only; the only file in the library that calls malloc,
 * realloc or free.
 */
#include <stdlib.h>

#include "mote/arena.h"

void *mote_heap_alloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    /* realloc(NULL, n) is malloc(n); on failure the old block stays valid,
     * which is what the callback contract promises. */
    return realloc(ptr, new_size);
}
