/*
 * counting_alloc.h - test allocator for the mote_alloc_fn callback: counts
 * calls and live/peak bytes, can fail on demand, and checks that every free
 * names the size that was allocated. Header-only, for the memory-layer tests.
 */
#ifndef MOTE_TEST_COUNTING_ALLOC_H
#define MOTE_TEST_COUNTING_ALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct counting_alloc {
    size_t calls;       /* allocations and resizes requested */
    size_t frees;
    size_t live;        /* bytes currently allocated */
    size_t peak;        /* largest 'live' seen */
    size_t requested;   /* sum of all allocation sizes asked for */
    size_t fail_after;  /* allocations allowed before failing (SIZE_MAX: never) */
    size_t size_errors; /* frees whose old_size did not match */
} counting_alloc;

static inline void counting_init(counting_alloc *c)
{
    memset(c, 0, sizeof *c);
    c->fail_after = SIZE_MAX;
}

/* Each block carries its size in a 16-byte prefix so frees can be checked. */
static inline void *counting_fn(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    counting_alloc *c = ctx;
    if (ptr && new_size == 0) {
        unsigned char *base = (unsigned char *)ptr - 16;
        size_t real;
        memcpy(&real, base, sizeof real);
        if (real != old_size) c->size_errors++;
        c->frees++;
        c->live -= real;
        free(base);
        return NULL;
    }
    if (new_size == 0) return NULL;
    if (c->fail_after == 0) return NULL;
    if (c->fail_after != SIZE_MAX) c->fail_after--;
    if (new_size > SIZE_MAX - 16) return NULL;
    c->calls++;
    unsigned char *base;
    if (ptr) {
        unsigned char *old = (unsigned char *)ptr - 16;
        size_t real;
        memcpy(&real, old, sizeof real);
        if (real != old_size) c->size_errors++;
        base = realloc(old, new_size + 16);
        if (!base) return NULL;
        c->live -= real;
    } else {
        base = malloc(new_size + 16);
        if (!base) return NULL;
    }
    memcpy(base, &new_size, sizeof new_size);
    c->live += new_size;
    c->requested += new_size;
    if (c->live > c->peak) c->peak = c->live;
    return base + 16;
}

#endif /* MOTE_TEST_COUNTING_ALLOC_H */
