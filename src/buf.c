/*
 * buf.c - growable byte buffer on pool, arena or fixed caller memory.
 *
 * The fast paths (append/push that fit) touch only data/len/cap; growth is
 * out of line. Arena buffers grow in place while they are the arena's last
 * allocation, which makes the common "build one thing in a scratch arena"
 * case copy-free. Storage a buffer leaves behind in an arena is poisoned, so
 * a stale view is reported under ASan.
 */
#include <string.h>

#include "mote/buf.h"
#include "mem_private.h"
#include "track.h"

#define MIN_CAP 16u

static void init(mote_buf *b, mote_pool *pool, mote_arena *arena, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max ? max : SIZE_MAX;
    b->pool = pool;
    b->arena = arena;
}

/* A missing pool or arena still leaves b set up, as a buffer that cannot
 * hold anything: a caller that goes on anyway meets LIMIT, not garbage.
 * One out-of-line body for both inits (smaller on Cortex-M). */
static MOTE_NOINLINE mote_err init_growing(mote_buf *b, mote_pool *pool, mote_arena *arena,
                                           size_t max)
{
    if (!b) return MOTE_ERR_INVALID;
    init(b, pool, arena, max);
    return pool || arena ? MOTE_OK : MOTE_ERR_INVALID;
}

mote_err mote_buf_init_pool(mote_buf *b, mote_pool *pool, size_t max)
{
    return init_growing(b, pool, NULL, max);
}

mote_err mote_buf_init_arena(mote_buf *b, mote_arena *arena, size_t max)
{
    return init_growing(b, NULL, arena, max);
}

mote_err mote_buf_init_fixed(mote_buf *b, void *mem, size_t size)
{
    if (!b) return MOTE_ERR_INVALID;
    init(b, NULL, NULL, 0);
    b->max = 0;
    if (!mem) return size ? MOTE_ERR_INVALID : MOTE_OK; /* (NULL, 0): empty, valid */
    b->data = mem;
    b->cap = size;
    b->max = size;
    return MOTE_OK;
}

/* Give up storage the buffer no longer uses. */
static void drop_storage(mote_buf *b, uint8_t *data, size_t cap)
{
    if (!data) return;
    if (b->pool) {
        /* The storage came from this pool: a refusal means a corrupted
         * header, which the pool counts (stats.bad_puts); nothing to undo. */
        mote_err e = mote_pool_put(b->pool, data);
        (void)e;
    } else if (b->arena) {
        if (!mote__arena_resize_last(b->arena, data, cap, 0)) MOTE_TRACK_POISON(data, cap);
    }
}

static MOTE_NOINLINE mote_err grow(mote_buf *b, size_t extra)
{
    size_t need;
    if (!mote_size_add(b->len, extra, &need)) return MOTE_ERR_OVERFLOW;
    if (need > b->max || (!b->pool && !b->arena)) return MOTE_ERR_LIMIT;
    /* doubled; past half the address space that wraps, and need decides */
    size_t want = b->cap * 2;
    if (want < need) want = need;
    if (want < MIN_CAP) want = MIN_CAP;
    if (want > b->max) want = b->max;

    /* Try the doubled size, then the least that fits: in place when the
     * buffer is the arena's last block, else a new block and one copy. */
    for (size_t to = want;; to = need) {
        uint8_t *nd;
        size_t got = to;
        if (b->pool) {
            nd = mote_pool_get(b->pool, to, &got);
            if (got > b->max) got = b->max; /* a pool class may exceed the cap */
        } else {
            if (b->data) {
                uint8_t *moved = mote__arena_resize_last(b->arena, b->data, b->cap, to);
                if (moved) {
                    b->data = moved;
                    b->cap = to;
                    return MOTE_OK;
                }
            }
            nd = mote_arena_alloc(b->arena, to);
        }
        if (nd) {
            if (b->len) memcpy(nd, b->data, b->len);
            drop_storage(b, b->data, b->cap);
            b->data = nd;
            b->cap = got;
            return MOTE_OK;
        }
        if (to == need) return MOTE_ERR_NOMEM;
    }
}

mote_err mote_buf_reserve(mote_buf *b, size_t extra)
{
    if (!b) return MOTE_ERR_INVALID;
    if (extra <= b->cap - b->len) return MOTE_OK;
    return grow(b, extra);
}

/* External definitions of the inline fast paths in mote/buf.h. */
extern inline mote_err mote_buf_append(mote_buf *b, const void *src, size_t n);
extern inline mote_err mote_buf_push(mote_buf *b, uint8_t byte);

mote_err mote__buf_append_slow(mote_buf *b, const void *src, size_t n)
{
    if (!b || (!src && n)) return MOTE_ERR_INVALID;
    if (n == 0) return MOTE_OK;
    /* src may be a piece of this buffer: growth can move (and release) the
     * storage it points into, so it is kept as an offset, and the copy may
     * overlap. */
    uintptr_t s = (uintptr_t)src, d = (uintptr_t)b->data;
    bool inside = b->data && s >= d && s < d + b->cap;
    if (MOTE_UNLIKELY(n > b->cap - b->len)) {
        mote_err e = grow(b, n);
        if (e != MOTE_OK) return e;
        if (inside) src = b->data + (s - d);
    }
    /* (MOTE_SMALL: memmove for both, one call site) */
    if (MOTE_SMALL || MOTE_UNLIKELY(inside)) memmove(b->data + b->len, src, n);
    else memcpy(b->data + b->len, src, n);
    b->len += n;
    return MOTE_OK;
}

mote_err mote__buf_push_slow(mote_buf *b, uint8_t byte)
{
#if MOTE_SMALL
    return mote__buf_append_slow(b, &byte, 1); /* the same steps (Cortex-M size) */
#else
    if (!b) return MOTE_ERR_INVALID;
    if (b->len == b->cap) {
        mote_err e = grow(b, 1);
        if (e != MOTE_OK) return e;
    }
    b->data[b->len++] = byte;
    return MOTE_OK;
#endif
}

uint8_t *mote_buf_tail(mote_buf *b, size_t *avail)
{
    size_t n = 0;
    uint8_t *t = NULL;
    if (b && b->data) {
        n = b->cap - b->len;
        t = b->data + b->len;
    }
    if (avail) *avail = n;
    return t;
}

void mote_buf_commit(mote_buf *b, size_t n)
{
    if (!b) return;
    if (n > b->cap - b->len) n = b->cap - b->len;
    b->len += n;
}

void mote_buf_consume(mote_buf *b, size_t n)
{
    if (!b) return;
    if (n >= b->len) {
        b->len = 0;
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

void mote_buf_clear(mote_buf *b)
{
    mote_buf_truncate(b, 0);
}

void mote_buf_truncate(mote_buf *b, size_t len)
{
    if (b && len < b->len) b->len = len;
}

uint8_t *mote_buf_detach(mote_buf *b, size_t *len)
{
    if (len) *len = 0;
    if (!b) return NULL;
    if (!b->data || b->len == 0) {
        mote_buf_free(b);
        return NULL;
    }
    uint8_t *d = b->data;
    if (len) *len = b->len;
    /* An arena buffer gives its unused tail back when it can. */
    if (b->arena) (void)mote__arena_resize_last(b->arena, d, b->cap, b->len);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    return d;
}

void mote_buf_free(mote_buf *b)
{
    if (!b) return;
    drop_storage(b, b->data, b->cap);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}
