/*
 * fuzz_arena_ops.c - random sequences of arena/pool/buf operations checked
 * against a simple reference model.
 *
 * Two arenas, both growing through a counting allocator with a byte budget
 * (so exhaustion and allocator failure happen too):
 *   A: direct allocations, save/restore marks, reset;
 *   B: a pool and four buffers (two on the pool, one on the arena, one fixed).
 * (restore/reset on B would legally invalidate pooled buffers, so B is never
 * rewound.) Every block handed out is filled with a pattern derived from a
 * seed and checked later; buffers are shadowed byte for byte.
 * Properties, abort() on violation:
 *   - contents of live blocks and buffers preserved by every other operation;
 *   - no two live regions overlap, all honour their alignment;
 *   - errors exactly as documented (LIMIT iff the cap is crossed, double and
 *     foreign put INVALID, overflowing sizes refused, failure = NULL);
 *   - statistics consistent with the model (used <= capacity <= budget,
 *     pool hits+misses+failures >= gets, outstanding = live capacities,
 *     bad_puts and drops counted, restore returns used to the mark's value).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mote/buf.h"

#define MAX_OPS 3000
#define MAX_LIVE 96
#define MAX_MARKS 8
#define BUDGET (1u << 20)
#define BUF_MAX 8192u
#define NBUF 4

/* Name the violated property's line, then abort. */
static void violated(int line)
{
    fprintf(stderr, "fuzz_arena_ops: check failed at line %d\n", line);
    abort();
}
#define CHECK(c) do { if (!(c)) violated(__LINE__); } while (0)

/* ---- input ---- */
typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static unsigned u8(input *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static size_t u16(input *in) { return (size_t)u8(in) | (size_t)u8(in) << 8; }

/* ---- counting allocator with a budget ---- */
typedef struct budget {
    size_t live, blocks;
    int fail_next; /* set by the input: the next allocation fails */
} budget;

static void *budget_fn(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    budget *b = ctx;
    if (ptr && new_size == 0) {
        CHECK(b->live >= old_size && b->blocks > 0);
        b->live -= old_size;
        b->blocks--;
        free(ptr);
        return NULL;
    }
    if (b->fail_next) {
        b->fail_next = 0;
        return NULL;
    }
    if (ptr) { /* resize: an arena buffer growing its own block */
        CHECK(b->live >= old_size && b->blocks > 0);
        if (new_size > old_size && new_size - old_size > BUDGET - b->live) return NULL;
        void *p = realloc(ptr, new_size);
        if (!p) return NULL;
        b->live = b->live - old_size + new_size;
        return p;
    }
    if (new_size > BUDGET - b->live) return NULL;
    void *p = malloc(new_size);
    if (!p) return NULL;
    b->live += new_size;
    b->blocks++;
    return p;
}

/* ---- pattern ---- */
static uint8_t pat(uint32_t seed, size_t i)
{
    return (uint8_t)(seed * 131u + i * 7u + (i >> 8));
}

static void pat_fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) p[i] = pat(seed, i);
}

static void pat_check(const uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) CHECK(p[i] == pat(seed, i));
}

/* ---- model ---- */
typedef struct block {
    uint8_t *p;
    size_t size;   /* bytes filled with the pattern */
    size_t cap;    /* bytes owned (pool capacity, or size) */
    uint32_t seed;
    unsigned tag;  /* arena A: mark depth at allocation */
} block;

typedef struct model {
    mote_arena a, b;
    budget ba, bb;
    mote_pool pool;
    block ablk[MAX_LIVE];
    size_t nablk;
    block pblk[MAX_LIVE];
    size_t npblk;
    mote_arena_mark marks[MAX_MARKS];
    size_t mark_used[MAX_MARKS];
    unsigned nmarks;
    void *recent_put[8]; /* pooled buffers put back and not handed out since */
    unsigned nrecent;
    size_t gets, bad_puts, drops, failures_seen, a_failed;
    mote_buf buf[NBUF];
    uint8_t shadow[NBUF][BUF_MAX];
    uint8_t fixed_mem[512];
    uint32_t seed;
} model;

static uint8_t initial_a[2048];
static uint8_t initial_b[4096];

typedef struct region {
    uintptr_t lo, hi;
} region;

static int cmp_region(const void *x, const void *y)
{
    const region *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static void check_no_overlap(const model *m)
{
    region r[2 * MAX_LIVE + NBUF];
    size_t n = 0;
    for (size_t i = 0; i < m->nablk; i++)
        r[n++] = (region){(uintptr_t)m->ablk[i].p, (uintptr_t)m->ablk[i].p + m->ablk[i].cap};
    for (size_t i = 0; i < m->npblk; i++)
        r[n++] = (region){(uintptr_t)m->pblk[i].p, (uintptr_t)m->pblk[i].p + m->pblk[i].cap};
    for (size_t i = 0; i < NBUF; i++)
        if (m->buf[i].data && m->buf[i].cap)
            r[n++] = (region){(uintptr_t)m->buf[i].data, (uintptr_t)m->buf[i].data + m->buf[i].cap};
    qsort(r, n, sizeof r[0], cmp_region);
    for (size_t i = 1; i < n; i++) CHECK(r[i - 1].hi <= r[i].lo);
}

static void check_contents(const model *m)
{
    for (size_t i = 0; i < m->nablk; i++) pat_check(m->ablk[i].p, m->ablk[i].size, m->ablk[i].seed);
    for (size_t i = 0; i < m->npblk; i++) pat_check(m->pblk[i].p, m->pblk[i].size, m->pblk[i].seed);
    for (size_t i = 0; i < NBUF; i++) {
        const mote_buf *b = &m->buf[i];
        CHECK(b->len <= b->cap);
        CHECK(b->len == 0 || memcmp(b->data, m->shadow[i], b->len) == 0);
    }
}

static void check_stats(const model *m)
{
    mote_arena_stats as;
    mote_arena_get_stats(&m->a, &as);
    CHECK(as.used <= as.capacity);
    CHECK(as.used <= as.high_water);
    CHECK(as.blocks == m->ba.blocks);
    CHECK(as.capacity <= sizeof initial_a + m->ba.live);
    CHECK(as.failed == m->a_failed);
    size_t sum = 0;
    for (size_t i = 0; i < m->nablk; i++) sum += m->ablk[i].size;
    CHECK(sum <= as.used);

    mote_arena_stats bs;
    mote_arena_get_stats(&m->b, &bs);
    CHECK(bs.used <= bs.capacity);
    CHECK(bs.capacity <= sizeof initial_b + m->bb.live);

    mote_pool_stats ps;
    mote_pool_get_stats(&m->pool, &ps);
    /* Buffers get from the pool too (a failed growth may try twice), so the
     * model's direct gets are a lower bound. */
    CHECK(ps.hits + ps.misses + ps.failures >= m->gets);
    CHECK(ps.bad_puts == m->bad_puts);
    CHECK(ps.drops == m->drops);
    size_t out = 0;
    for (size_t i = 0; i < m->npblk; i++) out += m->pblk[i].cap;
    for (size_t i = 0; i < 2; i++) /* the pool-backed buffers */
        if (m->buf[i].data) out += mote_pool_capacity(m->buf[i].data);
    CHECK(ps.outstanding == out);
}

static bool is_pow2(size_t x) { return x && !(x & (x - 1)); }

/* ---- arena A ops ---- */
static void op_arena_alloc(model *m, input *in, unsigned kind)
{
    size_t size = u16(in) % 3000;
    size_t align = (size_t)1 << (u8(in) % 8);
    uint8_t *p;
    if (kind == 0) {
        p = mote_arena_alloc(&m->a, size);
        align = MOTE_ARENA_ALIGN;
    } else if (kind == 1) {
        p = mote_arena_alloc_aligned(&m->a, size, align);
    } else {
        size_t count = size % 64, each = size / 64;
        p = mote_arena_calloc(&m->a, count, each);
        size = count * each;
        align = MOTE_ARENA_ALIGN;
        if (p)
            for (size_t i = 0; i < size; i++) CHECK(p[i] == 0);
    }
    if (!p) {
        m->a_failed++;
        return;
    }
    CHECK((uintptr_t)p % align == 0);
    if (m->nablk == MAX_LIVE) return; /* untracked: released by the next reset */
    uint32_t seed = ++m->seed;
    pat_fill(p, size, seed);
    m->ablk[m->nablk++] = (block){p, size, size ? size : 1, seed, m->nmarks};
}

static void op_arena_bad(model *m, input *in)
{
    /* Requests that must fail without touching anything. */
    size_t used = m->a.used;
    switch (u8(in) % 4) {
    case 0: CHECK(!mote_arena_alloc_aligned(&m->a, 8, (size_t)u8(in) * 2 + 3)); break;
    case 1: CHECK(!mote_arena_alloc_array(&m->a, SIZE_MAX / 2 + 1 + u8(in), 2, 8)); break;
    case 2: CHECK(!mote_arena_alloc(&m->a, SIZE_MAX - u8(in))); break;
    default: CHECK(!mote_arena_alloc_aligned(&m->a, 8, 0)); break;
    }
    m->a_failed++;
    CHECK(m->a.used == used);
}

static void op_arena_save(model *m)
{
    if (m->nmarks == MAX_MARKS) return;
    m->marks[m->nmarks] = mote_arena_save(&m->a);
    m->mark_used[m->nmarks] = m->a.used;
    m->nmarks++;
}

static void drop_ablk_from(model *m, unsigned tag)
{
    size_t k = 0;
    for (size_t i = 0; i < m->nablk; i++)
        if (m->ablk[i].tag < tag) m->ablk[k++] = m->ablk[i];
    m->nablk = k;
}

static void op_arena_restore(model *m)
{
    if (!m->nmarks) return;
    m->nmarks--;
    mote_arena_restore(&m->a, m->marks[m->nmarks]);
    mote_arena_stats s;
    mote_arena_get_stats(&m->a, &s);
    CHECK(s.used == m->mark_used[m->nmarks]);
    drop_ablk_from(m, m->nmarks + 1);
}

static void op_arena_reset(model *m, input *in)
{
    mote_arena_reset(&m->a, u8(in) & 1);
    m->nmarks = 0;
    m->nablk = 0;
    CHECK(m->a.used == 0);
}

/* ---- pool ops ---- */
static void forget_recent(model *m, const void *p)
{
    for (unsigned i = 0; i < m->nrecent; i++)
        if (m->recent_put[i] == p) m->recent_put[i] = m->recent_put[--m->nrecent];
}

static void op_pool_get(model *m, input *in)
{
    size_t size = u8(in) & 1 ? u16(in) % 5000 : u8(in);
    size_t cap = 12345;
    m->gets++;
    uint8_t *p = mote_pool_get(&m->pool, size, &cap);
    if (!p) {
        CHECK(cap == 0);
        return;
    }
    CHECK((uintptr_t)p % MOTE_ARENA_ALIGN == 0);
    CHECK(cap >= (size ? size : 1));
    CHECK(mote_pool_capacity(p) == cap);
    if (size <= m->pool.max_size) CHECK(is_pow2(cap) && cap >= MOTE_POOL_MIN_CLASS && cap < 2 * (size > 16 ? size : 16));
    forget_recent(m, p);
    if (m->npblk == MAX_LIVE) {
        CHECK(mote_pool_put(&m->pool, p) == MOTE_OK);
        if (cap > m->pool.max_size) m->drops++;
        return;
    }
    uint32_t seed = ++m->seed;
    size_t fill = cap < 600 ? cap : 600; /* bounded work per op */
    pat_fill(p, fill, seed);
    m->pblk[m->npblk++] = (block){p, fill, cap, seed, 0};
}

static void op_pool_put(model *m, input *in)
{
    if (!m->npblk) return;
    size_t i = u8(in) % m->npblk;
    block b = m->pblk[i];
    m->pblk[i] = m->pblk[--m->npblk];
    pat_check(b.p, b.size, b.seed);
    CHECK(mote_pool_put(&m->pool, b.p) == MOTE_OK);
    if (b.cap > m->pool.max_size) {
        m->drops++; /* gone to the allocator: not put twice */
    } else if (m->nrecent < 8) {
        m->recent_put[m->nrecent++] = b.p;
    }
}

static void op_pool_bad_put(model *m, input *in)
{
    unsigned k = u8(in) % 3;
    if (k == 0 && m->nrecent) {
        CHECK(mote_pool_put(&m->pool, m->recent_put[u8(in) % m->nrecent]) == MOTE_ERR_INVALID);
    } else if (k == 1 && m->npblk) {
        block *b = &m->pblk[u8(in) % m->npblk];
        size_t off = (size_t)(u8(in) % 8 + 1) * 8;
        if (off + 8 > b->size) return; /* only into bytes we know: the pattern */
        CHECK(mote_pool_put(&m->pool, b->p + off) == MOTE_ERR_INVALID);
    } else {
        CHECK(mote_pool_put(&m->pool, m->fixed_mem + 8 * (1 + u8(in) % 8)) == MOTE_ERR_INVALID);
    }
    m->bad_puts++;
}

/* ---- buffer ops ---- */
static size_t buf_max(const model *m, unsigned i)
{
    return i == 3 ? sizeof m->fixed_mem : BUF_MAX;
}

static void op_buf_append(model *m, input *in, unsigned i)
{
    mote_buf *b = &m->buf[i];
    bool push = u8(in) % 4 == 0;
    size_t n = push ? 1 : u8(in) & 1 ? u16(in) % 3000 : u8(in) % 64;
    static uint8_t src[3000];
    pat_fill(src, n, ++m->seed);
    size_t len = b->len;
    const uint8_t *from = src;
    if (!push && len > 0 && u8(in) % 8 == 0) {
        /* Append a slice of the buffer to itself (may move the storage). */
        size_t off = u16(in) % len;
        if (n > len - off) n = len - off;
        from = b->data + off;
        memcpy(src, m->shadow[i] + off, n);
    }
    mote_err e = push ? mote_buf_push(b, src[0]) : mote_buf_append(b, from, n);
    if (e == MOTE_OK) {
        CHECK(b->len == len + n && b->len <= buf_max(m, i));
        memcpy(m->shadow[i] + len, src, n);
    } else {
        CHECK(b->len == len);
        if (len + n > buf_max(m, i)) CHECK(e == MOTE_ERR_LIMIT);
        else CHECK(e == MOTE_ERR_NOMEM && i != 3);
    }
    CHECK(b->cap <= buf_max(m, i));
    CHECK(b->len == 0 || memcmp(b->data, m->shadow[i], b->len) == 0);
}

static void op_buf_reserve(model *m, input *in, unsigned i)
{
    mote_buf *b = &m->buf[i];
    size_t extra = u8(in) & 1 ? SIZE_MAX - u16(in) : u16(in) % (BUF_MAX + 100);
    size_t len = b->len;
    mote_err e = mote_buf_reserve(b, extra);
    CHECK(b->len == len);
    if (extra > SIZE_MAX - len) CHECK(e == MOTE_ERR_OVERFLOW);
    else if (len + extra > buf_max(m, i)) CHECK(e == MOTE_ERR_LIMIT);
    else if (e == MOTE_OK) CHECK(b->cap - b->len >= extra);
    else CHECK(e == MOTE_ERR_NOMEM && i != 3);
    CHECK(b->len == 0 || memcmp(b->data, m->shadow[i], b->len) == 0);
}

static void op_buf_tail(model *m, input *in, unsigned i)
{
    mote_buf *b = &m->buf[i];
    size_t avail;
    uint8_t *t = mote_buf_tail(b, &avail);
    CHECK(avail == (b->data ? b->cap - b->len : 0));
    CHECK(t == (b->data ? b->data + b->len : NULL));
    /* Ask to commit k bytes, sometimes more than are free (clamped). */
    size_t k = avail ? u16(in) % (avail + 1) : 0;
    if (u8(in) % 4 == 0) k += u16(in);
    size_t fits = k < avail ? k : avail;
    pat_fill(m->shadow[i] + b->len, fits, ++m->seed);
    if (fits) memcpy(t, m->shadow[i] + b->len, fits);
    size_t len = b->len;
    mote_buf_commit(b, k);
    CHECK(b->len == len + fits && b->len <= b->cap);
}

static void op_buf_consume(model *m, input *in, unsigned i)
{
    mote_buf *b = &m->buf[i];
    size_t n = u16(in) % (b->len + 2);
    size_t len = b->len;
    if (u8(in) % 8 == 0) {
        mote_buf_clear(b);
        CHECK(b->len == 0);
        return;
    }
    mote_buf_consume(b, n);
    if (n >= len) {
        CHECK(b->len == 0);
    } else {
        CHECK(b->len == len - n);
        memmove(m->shadow[i], m->shadow[i] + n, len - n);
    }
}

static void reinit_buf(model *m, unsigned i)
{
    mote_err e = i < 2    ? mote_buf_init_pool(&m->buf[i], &m->pool, BUF_MAX)
                 : i == 2 ? mote_buf_init_arena(&m->buf[i], &m->b, BUF_MAX)
                          : mote_buf_init_fixed(&m->buf[i], m->fixed_mem, sizeof m->fixed_mem);
    if (e != MOTE_OK) abort(); /* every argument is valid */
}

static void op_buf_release(model *m, input *in, unsigned i)
{
    mote_buf *b = &m->buf[i];
    /* Oversize pool storage is dropped to the allocator either way: by
     * free, by detach of an empty buffer, or by our put after detach. */
    if (i < 2 && b->data && mote_pool_capacity(b->data) > m->pool.max_size) m->drops++;
    if (u8(in) & 1) {
        size_t len = b->len, got = 99;
        uint8_t *d = mote_buf_detach(b, &got);
        CHECK(got == len && (len == 0) == (d == NULL));
        CHECK(len == 0 || memcmp(d, m->shadow[i], len) == 0);
        CHECK(b->data == NULL && b->len == 0 && b->cap == 0);
        if (d && i < 2) CHECK(mote_pool_put(&m->pool, d) == MOTE_OK);
    } else {
        mote_buf_free(b);
        CHECK(b->data == NULL && b->len == 0 && b->cap == 0);
    }
    if (i == 3) reinit_buf(m, i);
}

/* A pool buffer's storage going back to the pool (growth or release) is a
 * put the model must count as a drop when it was oversize. */
static size_t pool_buf_cap(const model *m, unsigned i)
{
    return m->buf[i].data ? mote_pool_capacity(m->buf[i].data) : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static model mm;
    model *m = &mm;
    memset(m, 0, sizeof *m);
    input in = {data, size};

    CHECK(mote_arena_init(&m->a, initial_a, sizeof initial_a, budget_fn, &m->ba) == MOTE_OK);
    CHECK(mote_arena_init(&m->b, initial_b, sizeof initial_b, budget_fn, &m->bb) == MOTE_OK);
    mote_arena_set_min_block(&m->a, (size_t)64 << (u8(&in) % 8));
    mote_arena_set_min_block(&m->b, (size_t)64 << (u8(&in) % 8));
    CHECK(mote_pool_init(&m->pool, &m->b, (size_t)16 << (u8(&in) % 10)) == MOTE_OK);
    for (unsigned i = 0; i < NBUF; i++) reinit_buf(m, i);

    for (unsigned op = 0; op < MAX_OPS && in.n; op++) {
        unsigned code = u8(&in);
        unsigned bi = (code >> 5) & 3;
        /* Oversize storage of pool-backed buffers is dropped whenever it is
         * replaced or released: watch both pool buffers across the op. */
        size_t cap0 = pool_buf_cap(m, 0), cap1 = pool_buf_cap(m, 1);
        const void *d0 = m->buf[0].data, *d1 = m->buf[1].data;
        switch (code % 18) {
        case 0: case 1: op_arena_alloc(m, &in, 0); break;
        case 2: op_arena_alloc(m, &in, 1); break;
        case 3: op_arena_alloc(m, &in, 2); break;
        case 4: op_arena_bad(m, &in); break;
        case 5: op_arena_save(m); break;
        case 6: op_arena_restore(m); break;
        case 7: if (u8(&in) % 4 == 0) op_arena_reset(m, &in); break;
        case 8: case 9: op_pool_get(m, &in); break;
        case 10: op_pool_put(m, &in); break;
        case 11: op_pool_bad_put(m, &in); break;
        case 12: case 13: op_buf_append(m, &in, bi); break;
        case 14: op_buf_reserve(m, &in, bi); break;
        case 15: op_buf_tail(m, &in, bi); break;
        case 16: op_buf_consume(m, &in, bi); break;
        default:
            if (u8(&in) % 2) op_buf_release(m, &in, bi);
            else if (u8(&in) & 1) m->ba.fail_next = 1;
            else m->bb.fail_next = 1;
            break;
        }
        /* A buffer's growth may take a recently put buffer off a free list. */
        forget_recent(m, m->buf[0].data);
        forget_recent(m, m->buf[1].data);
        /* Detach is counted in op_buf_release; growth and free here. */
        if (d0 && m->buf[0].data != d0 && cap0 > m->pool.max_size && !(code % 18 == 17)) m->drops++;
        if (d1 && m->buf[1].data != d1 && cap1 > m->pool.max_size && !(code % 18 == 17)) m->drops++;
        check_no_overlap(m);
        check_stats(m);
        if (op % 16 == 0) check_contents(m);
    }
    check_contents(m);

    for (unsigned i = 0; i < NBUF; i++) mote_buf_free(&m->buf[i]);
    for (size_t i = 0; i < m->npblk; i++) CHECK(mote_pool_put(&m->pool, m->pblk[i].p) == MOTE_OK);
    mote_arena_destroy(&m->a);
    mote_arena_destroy(&m->b);
    CHECK(m->ba.live == 0 && m->ba.blocks == 0);
    CHECK(m->bb.live == 0 && m->bb.blocks == 0);
    return 0;
}
