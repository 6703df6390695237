/*
 * mote/buf.h - growable byte buffer on pool, arena or caller memory.
 *
 * Growth doubles the capacity (at least to what is needed) up to an optional
 * hard cap. Reaching the cap, or running out of memory, returns an error and
 * leaves the content so far intact. Memory comes from:
 *   - a pool (mote_buf_init_pool): old storage is put back when it grows;
 *   - an arena (mote_buf_init_arena): old storage is abandoned in the arena
 *     (it grows in place when the buffer is the arena's last allocation);
 *   - a fixed caller block (mote_buf_init_fixed): never grows.
 *
 * Views into data stay valid until the next call that may grow the buffer
 * (under ASan, storage left behind is poisoned, so stale views are caught).
 * Fields data and len may be read directly; the others are private.
 */
#ifndef MOTE_BUF_H
#define MOTE_BUF_H

#include <string.h>

#include "mote/pool.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mote_buf {
    uint8_t *data;     /* content is data[0..len) */
    size_t len;
    size_t cap;
    size_t max;        /* hard cap on cap; SIZE_MAX = none */
    mote_pool *pool;   /* private: exactly one of pool/arena, or neither (fixed) */
    mote_arena *arena;
} mote_buf;

/* max == 0 means no cap. Returns MOTE_OK, or MOTE_ERR_INVALID for a NULL b
 * (nothing written), a NULL pool or arena, or a NULL mem with size > 0; in
 * the last three cases b is still initialised, as a buffer that cannot hold
 * anything (reserve: LIMIT). A fixed buffer's cap is size. No storage is
 * taken before the first byte is reserved. */
MOTE_NODISCARD mote_err mote_buf_init_pool(mote_buf *b, mote_pool *pool, size_t max);
MOTE_NODISCARD mote_err mote_buf_init_arena(mote_buf *b, mote_arena *arena, size_t max);
MOTE_NODISCARD mote_err mote_buf_init_fixed(mote_buf *b, void *mem, size_t size);

/*
 * Make room for at least extra more bytes after len. Growth takes
 * max(2 * cap, len + extra, 16) clamped to max, falling back to exactly
 * len + extra if that much is not available. Returns MOTE_OK,
 * MOTE_ERR_INVALID (NULL b), MOTE_ERR_OVERFLOW (len + extra overflows),
 * MOTE_ERR_LIMIT (beyond max, or a fixed buffer is full) or MOTE_ERR_NOMEM.
 * On error nothing changes.
 */
MOTE_NODISCARD mote_err mote_buf_reserve(mote_buf *b, size_t extra);

/* Append n bytes (src may be NULL only if n == 0, else MOTE_ERR_INVALID);
 * src may point into the buffer itself. Errors as reserve; on error the
 * content is unchanged. */
mote_err mote__buf_append_slow(mote_buf *b, const void *src, size_t n);
mote_err mote__buf_push_slow(mote_buf *b, uint8_t byte);

MOTE_NODISCARD inline mote_err mote_buf_append(mote_buf *b, const void *src, size_t n)
{
#if !MOTE_SMALL
    /* Fast path (inline, see mote/arena.h): fits, and src is not inside
     * the buffer's own storage (unsigned difference >= cap). Size-optimised
     * builds (MOTE_SMALL) keep the one copy in the library. */
    if (b && src && n != 0 && n <= b->cap - b->len &&
        (uintptr_t)src - (uintptr_t)b->data >= b->cap) {
        memcpy(b->data + b->len, src, n);
        b->len += n;
        return MOTE_OK;
    }
#endif
    return mote__buf_append_slow(b, src, n);
}

MOTE_NODISCARD inline mote_err mote_buf_push(mote_buf *b, uint8_t byte)
{
#if !MOTE_SMALL
    if (b && b->len < b->cap) {
        b->data[b->len++] = byte;
        return MOTE_OK;
    }
#endif
    return mote__buf_push_slow(b, byte);
}

/* Free tail: pointer to data + len and the bytes available before growth
 * (NULL and 0 while the buffer has no storage; avail may be NULL).
 * After writing k <= *avail bytes there, call mote_buf_commit(b, k);
 * commit clamps k to the free space. */
uint8_t *mote_buf_tail(mote_buf *b, size_t *avail);
void mote_buf_commit(mote_buf *b, size_t n);

/* Remove the first n bytes (n > len removes all), moving the rest to the
 * front. Used by streaming readers to compact consumed input. */
void mote_buf_consume(mote_buf *b, size_t n);

/* len = 0, storage kept. */
void mote_buf_clear(mote_buf *b);

/* Shorten the content to its first len bytes, storage kept (a writer drops
 * a half-built record this way). len >= the current length changes nothing;
 * a NULL b is ignored. */
void mote_buf_truncate(mote_buf *b, size_t len);

/*
 * Hand the storage to the caller and leave the buffer empty (storage-less).
 * For a pool buffer the caller must give it back with mote_pool_put; for an
 * arena buffer it lives as long as the arena (the unused tail is given back
 * to the arena when the buffer is its last allocation). *len (if non-NULL)
 * receives the content length. Returns NULL if len is 0; any storage is then
 * released as by mote_buf_free.
 */
uint8_t *mote_buf_detach(mote_buf *b, size_t *len);

/* Release storage and empty the buffer: a pool buffer goes back to the pool,
 * an arena buffer back to the arena if it is the last allocation (else it
 * is abandoned), a fixed buffer forgets its block. The buffer stays usable
 * (pool/arena) or holds nothing (fixed). */
void mote_buf_free(mote_buf *b);

/*
 * Hosted only (src/buf_file.c; absent from freestanding builds).
 * Read all of fd / the file at path, appending to b. For a regular file the
 * size from fstat reserves space once and the bytes are read straight into
 * the buffer's tail chunk by chunk: no temporary buffer, no second copy, so
 * peak memory for an N-byte file is N plus at most one page (arena/oversize
 * pool storage: N plus the block header; a pooled class rounds up to a power
 * of two). For pipes and sockets the tail grows by doubling. A file larger
 * than the cap fails up front with MOTE_ERR_LIMIT; a stream reaching the cap
 * returns MOTE_ERR_LIMIT with the bytes that fit appended (and one byte
 * past them read and lost: the probe that found the stream goes on). End of input is
 * detected with a one-byte probe read before any growth, so an empty input
 * allocates nothing. fd is not closed. Returns MOTE_OK, MOTE_ERR_INVALID
 * (NULL b or path), MOTE_ERR_IO (errno set; bytes read so far stay
 * appended), or the reserve() errors.
 */
MOTE_NODISCARD mote_err mote_buf_read_fd(mote_buf *b, int fd);
MOTE_NODISCARD mote_err mote_buf_read_file(mote_buf *b, const char *path);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_BUF_H */
