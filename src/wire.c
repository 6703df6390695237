/*
 * wire.c - the CQL native protocol v4 without I/O (see mote/wire.h).
 *
 * Responses are read through a small cursor (rd) whose error is sticky: a
 * parser reads field after field and looks at the error once, so each
 * length is checked against the bytes left exactly where it is read and a
 * hostile count is refused before anything is done count times (counts are
 * first compared with the bytes left divided by the smallest size an item
 * can have). Requests are appended to a mote_buf through a writer (wr) with
 * the same sticky error; the body length is patched into the header at the
 * end, so nothing is measured twice.
 */
#include <stddef.h>
#include <string.h>

#include "mote/wire.h"
#include "mote/be.h"
#include "mem_private.h"

/* MOTE_SMALL_NOINLINE (mote_private.h): one copy instead of one per call
 * site on Cortex-M; inlined in speed builds, where the parsers run 3x
 * faster. MOTE_SMALL_INLINE: helpers gcc -Os keeps out of line where
 * inlining them is smaller (each choice measured on Cortex-M4). */

/* ---- response cursor ------------------------------------------------------ */

typedef mote__wire_rd rd;

/* (p may be NULL with n 0, an absent view: NULL + 0 is undefined in C,
 * an address computed as an integer is not) */
static void rd_init(rd *r, const uint8_t *p, size_t n)
{
    r->p = p;
    r->end = (const uint8_t *)((uintptr_t)p + n);
    r->err = MOTE_OK;
}

/* The n bytes at the cursor, stepped over; NULL if they are not there
 * (the cursor fails with TRUNCATED) or the cursor has failed already. */
static MOTE_SMALL_NOINLINE const uint8_t *rd_take(rd *r, size_t n)
{
    const uint8_t *p = r->p;
    if (r->err) return NULL;
    if ((size_t)(r->end - p) < n) {
        r->err = MOTE_ERR_TRUNCATED;
        return NULL;
    }
    r->p = p + n;
    return p;
}

/* Did rd_take() give the bytes at p? Small builds test p, which is in a
 * register; speed builds test the error, which gcc follows through the
 * inlined rd_take() (it cannot know that p is not NULL; testing p cost
 * the rows parse 0.3 % more instructions). */
#if MOTE_SMALL
#define RD_GOT(r, p) ((p) != NULL)
#else
#define RD_GOT(r, p) (!(r)->err)
#endif

static MOTE_SMALL_INLINE void rd_fail(rd *r, mote_err e)
{
    if (!r->err) r->err = e;
}

static MOTE_SMALL_INLINE size_t rd_left(const rd *r)
{
    return r->err ? 0 : (size_t)(r->end - r->p);
}

/* A count of n items of at least min bytes each: BAD_LENGTH if the bytes
 * left cannot hold them (before anything is done n times). */
static MOTE_SMALL_NOINLINE void rd_count(rd *r, size_t n, size_t min)
{
    if (n > rd_left(r) / min) rd_fail(r, MOTE_ERR_BAD_LENGTH);
}

static MOTE_SMALL_NOINLINE uint8_t rd_u8(rd *r)
{
    const uint8_t *p = rd_take(r, 1);
    return RD_GOT(r, p) ? *p : 0;
}

static uint16_t rd_u16(rd *r)
{
    const uint8_t *p = rd_take(r, 2);
    return RD_GOT(r, p) ? mote_be_load16(p) : 0;
}

static int32_t rd_i32(rd *r)
{
    const uint8_t *p = rd_take(r, 4);
    return RD_GOT(r, p) ? (int32_t)mote_be_load32(p) : 0;
}

/* An [int] count or length: BAD_LENGTH if negative. */
static MOTE_SMALL_NOINLINE uint32_t rd_len(rd *r)
{
    int32_t n = rd_i32(r);
    if (n < 0) rd_fail(r, MOTE_ERR_BAD_LENGTH);
    return (uint32_t)n;
}

/* n raw bytes as a view into *v (may be NULL: skipped); ptr non-NULL even
 * for n == 0 while the cursor is good, so that an empty item is told apart
 * from an absent one. Views are written in place, not returned: a struct
 * return costs a copy at every call (Cortex-M size). */
static MOTE_SMALL_NOINLINE void rd_raw(rd *r, size_t n, mote_view *v)
{
#if MOTE_SMALL
    const uint8_t *p = rd_take(r, n);
    mote_view x = {p, p ? n : 0};
#else
    /* (through rd_take(), 2 more instructions per cell in
     * mote_wire_cell_next: register moves) */
    mote_view x = {NULL, 0};
    if (!r->err && (size_t)(r->end - r->p) >= n) {
        x.ptr = r->p;
        x.len = n;
        r->p += n;
    } else {
        rd_fail(r, MOTE_ERR_TRUNCATED);
    }
#endif
    if (v) *v = x;
}

/* The end of a parser: on error, out (size bytes) is zeroed again past its
 * first keep bytes (the result kind or error code, kept). */
static MOTE_SMALL_NOINLINE mote_err parsed(const rd *r, void *out, size_t size, size_t keep)
{
    if (r->err) memset((char *)out + keep, 0, size - keep);
    return r->err;
}

/* [string] and [short bytes]: [short] n, n bytes. */
static void rd_string(rd *r, mote_view *v)
{
    rd_raw(r, rd_u16(r), v);
}

/* [bytes]: [int] n, n bytes; n < 0 is null (ptr NULL). */
static void rd_bytes(rd *r, mote_view *v)
{
    int32_t n = rd_i32(r);
    rd_raw(r, n >= 0 ? (size_t)n : 0, v);
    if (n < 0 && v) v->ptr = NULL;
}

/* A [short] count n, then n items of a [string] and a second part: none
 * (then: RI_STRING, a [string list]), a [bytes] (RI_BYTES: a [bytes map],
 * the custom payload) or a [string list] (RI_LIST: a [string multimap],
 * SUPPORTED's; the one recursion, one level deep); min: the fewest bytes
 * an item takes. Checked, and handed out raw, count included (NULL on
 * error). One reader for the three. */
enum { RI_STRING, RI_BYTES, RI_LIST };

static void rd_string_list(rd *r, mote_view *v);

static void rd_items(rd *r, mote_view *v, size_t min, unsigned second)
{
    const uint8_t *start = r->p;
    uint16_t n = rd_u16(r);
    rd_count(r, n, min);
    for (uint32_t i = 0; i < n && !r->err; i++) {
        rd_string(r, NULL);
        if (second == RI_BYTES) rd_bytes(r, NULL);
        if (second == RI_LIST) rd_string_list(r, NULL);
    }
    /* hand the items out as one raw view: step back, take them again */
    size_t len = (size_t)(r->p - start);
    r->p = start;
    rd_raw(r, len, v);
}

/* [string list]: checked, handed out raw (mote_wire_strings iterates). */
static void rd_string_list(rd *r, mote_view *v)
{
    rd_items(r, v, 2, RI_STRING);
}

/* ---- type options ----------------------------------------------------------
 *
 * One walker reads an [option] tree, without recursion: a stack holds the
 * open list/set/map/tuple/UDT with the children it still expects. With
 * nodes it also builds the mote_cql_type tree (preorder, children linked
 * through sub/next); without, it only checks and skips.
 */

/* Option ids 0x0001..0x0015 -> mote_cql_kind (0: none). */
static const uint8_t option_kinds[0x16] = {
    0, MOTE_CQL_ASCII, MOTE_CQL_BIGINT, MOTE_CQL_BLOB, MOTE_CQL_BOOLEAN, MOTE_CQL_COUNTER,
    MOTE_CQL_DECIMAL, MOTE_CQL_DOUBLE, MOTE_CQL_FLOAT, MOTE_CQL_INT, 0 /* 0x0A text, v1-v2 */,
    MOTE_CQL_TIMESTAMP, MOTE_CQL_UUID, MOTE_CQL_TEXT, MOTE_CQL_VARINT, MOTE_CQL_TIMEUUID,
    MOTE_CQL_INET, MOTE_CQL_DATE, MOTE_CQL_TIME, MOTE_CQL_SMALLINT, MOTE_CQL_TINYINT,
    MOTE_CQL_DURATION};

/* The walk's state, so that it can stop at a Custom option and be resumed
 * after the caller has parsed the class name: the cql type parser then
 * runs on the caller's stack, beside the walk and not below it (stack
 * budget), and only mote_wire_type needs it. */
typedef struct owalk {
    uint32_t udt;              /* bit per level: children come with a field name */
    unsigned depth;
    unsigned maxdepth;
    size_t n;                  /* nodes so far */
    mote_view custom;          /* the class name where the walk stopped */
    bool build;
    bool done;
    uint16_t left[MOTE_WIRE_MAX_OPTION_DEPTH];    /* children still to read */
    /* per open level, where its next child is linked: the sub of the
     * level's node, then the next of its last child (unset for a level
     * whose node is not stored: none of its children is) */
    const mote_cql_type **link[MOTE_WIRE_MAX_OPTION_DEPTH];
} owalk;

/* (left, link and the udt bits of a level are written when the level is
 * opened, before they are read: only the scalars start at 0) */
static void owalk_init(owalk *o, unsigned maxdepth, bool build)
{
    o->udt = 0;
    o->depth = 0;
    o->n = 0;
    o->done = false;
    o->maxdepth = maxdepth < MOTE_WIRE_MAX_OPTION_DEPTH ? maxdepth : MOTE_WIRE_MAX_OPTION_DEPTH;
    o->build = build;
}

/* The node at o->n (take nodes with its subtree; t: it, NULL when not
 * building or past cap) is complete: link it to its parent, open it if it
 * has children, close the levels it completes. */
static void owalk_place(owalk *o, mote_cql_type *t, size_t take, uint16_t nchild, bool udt)
{
    unsigned d = o->depth;
    if (d) o->left[d - 1]--;
    if (t) {
        if (d) {
            *o->link[d - 1] = t;
            o->link[d - 1] = &t->next;
        }
        /* (level d is not open: its link is free, used if t opens it;
         * d < maxdepth here, checked before every place) */
        o->link[d] = &t->sub;
    }
    if (nchild) {
        o->left[d] = nchild;
        o->udt = (o->udt & ~(1u << d)) | (uint32_t)udt << d;
        o->depth = ++d;
    }
    o->n += take;
    while (o->depth && o->left[o->depth - 1] == 0) o->depth--;
    if (!o->depth) o->done = true;
}

/* Read options until the tree is complete (MOTE_OK) or, when building, a
 * Custom option is met (MOTE_ERR_NEED_MORE, o->custom set: the caller
 * parses it and calls owalk_place for it). Errors are also left in r. */
static mote_err owalk_run(owalk *o, rd *r, mote_cql_type *nodes, size_t cap)
{
    while (!o->done) {
        if (o->depth && ((o->udt >> (o->depth - 1)) & 1)) rd_string(r, NULL);
        uint16_t id = rd_u16(r);
        if (o->depth >= o->maxdepth) rd_fail(r, MOTE_ERR_DEPTH);
        if (r->err) return r->err;
        int kind = id < sizeof option_kinds ? option_kinds[id] : 0;
        uint16_t nchild = 0;
        bool udt = false;
        if (id == 0x0000) {
            rd_string(r, &o->custom); /* (read only after NEED_MORE) */
            if (r->err) return r->err;
            if (o->build) return MOTE_ERR_NEED_MORE;
            kind = MOTE_CQL_BLOB;
        } else if (id >= 0x20 && id <= 0x22) {  /* list, map, set */
            /* x 0, 1, 2 -> LIST, MAP, SET (kinds LIST, SET, MAP in
             * order): its two bits swapped */
            unsigned x = id - 0x20u;
            kind = MOTE_CQL_LIST + (int)((x & 1) << 1 | x >> 1);
            nchild = (uint16_t)(1 + (x & 1));
        } else if (id == 0x30 || id == 0x31) {  /* UDT, tuple */
            udt = id == 0x30;
            if (udt) {
                rd_string(r, NULL);  /* keyspace */
                rd_string(r, NULL);  /* type name */
            }
            kind = MOTE_CQL_TUPLE;
            nchild = rd_u16(r);
            /* each child takes at least its 2-byte id */
            rd_count(r, nchild, 2);
            if (o->build && nchild == 0) rd_fail(r, MOTE_ERR_BAD_TYPE);
        } else if (!kind) {
            rd_fail(r, MOTE_ERR_BAD_TYPE);
        }
        if (r->err) return r->err;
        mote_cql_type *t = NULL;
        if (o->n < cap) {  /* (cap 0 when checking) */
            t = &nodes[o->n];
            *t = (mote_cql_type){(uint8_t)kind, udt, nchild, 0,
                                 nchild ? -1 : mote_cql_kind_fixed(kind), NULL, NULL};
        }
        owalk_place(o, t, 1, nchild, udt);
    }
    return MOTE_OK;
}

/* Check and step over one [option] (errors stay in r). */
static void skip_option(rd *r)
{
    owalk o;
    owalk_init(&o, MOTE_WIRE_MAX_OPTION_DEPTH, false);
    owalk_run(&o, r, NULL, 0);
}

mote_err mote_wire_type(mote_view option, mote_cql_type *nodes, size_t cap, size_t *used,
                        const mote_cql_type **root)
{
    if (used) *used = 0;
    bool bad = !root; /* (one way out for every refusal: Cortex-M size) */
    if (!bad) {
        *root = NULL;
        bad = (!option.ptr && option.len) || (!nodes && cap);
    }
    if (bad) return MOTE_ERR_INVALID;
    if (cap > 65534) cap = 65534;  /* at most 65534 nodes, as documented */
    rd r;
    rd_init(&r, option.ptr, option.len);
    owalk o;
    owalk_init(&o, MOTE_CQL_MAX_DEPTH, true);
    mote_err e;
    while ((e = owalk_run(&o, &r, nodes, cap)) == MOTE_ERR_NEED_MORE) {
        /* a Custom option: its class name as a type, e.g. VectorType(...) */
        size_t k = 0;
        const mote_cql_type *t;
        bool fits = o.n < cap;
        e = mote_cql_type_parse((const char *)o.custom.ptr, o.custom.len, fits ? nodes + o.n : NULL,
                                fits ? cap - o.n : 0, &k, &t);
        if (e == MOTE_ERR_SPACE) {
            owalk_place(&o, NULL, k, 0, false); /* counted only: the result is SPACE */
            continue;
        }
        if (e) return e;
        /* its nodes one by one (preorder), so that its depth adds to the
         * walk's (MOTE_CQL_MAX_DEPTH for the whole tree); linked again as
         * the type parser linked them (they are the caller's nodes) */
        for (size_t i = 0; i < k; i++) {
            if (o.depth >= o.maxdepth) return MOTE_ERR_DEPTH;
            owalk_place(&o, (mote_cql_type *)t + i, 1, t[i].nsub, false);
        }
    }
    if (e) return e;
    if (used) *used = o.n;
    if (o.n > cap) return MOTE_ERR_SPACE;
    *root = &nodes[0];
    return MOTE_OK;
}

/* ---- context, stream table ------------------------------------------------ */

mote_err mote_wire_init(mote_wire *w, mote_wire_slot *slots, size_t nslots, uint8_t *rx,
                        size_t rx_cap)
{
    if (!w || !slots || nslots == 0 || !rx || rx_cap < MOTE_WIRE_HEADER) return MOTE_ERR_INVALID;
    if (nslots > MOTE_WIRE_MAX_STREAMS) nslots = MOTE_WIRE_MAX_STREAMS;
    memset(w, 0, sizeof *w);
    w->slots = slots;
    w->nslots = (uint32_t)nslots;
    /* a free slot's tag and opcode are never read: busy and next only;
     * linked from the last (-1: none after it), so that no store follows
     * the loop (Cortex-M0+ size) */
    int32_t next = -1;
    size_t i = nslots; /* (>= 1) */
    do {
        i--;
        slots[i].busy = 0;
        slots[i].next = next;
        next = (int32_t)i;
    } while (i);
    w->rx = rx; /* (free_head 0: the memset) */
    w->rx_cap = rx_cap;
    return MOTE_OK;
}

size_t mote_wire_inflight(const mote_wire *w)
{
    return w ? w->inflight - w->orphans : 0;
}

size_t mote_wire_orphans(const mote_wire *w)
{
    return w ? w->orphans : 0;
}

static int take_slot(mote_wire *w, uint64_t tag, uint8_t op)
{
    int s = w->free_head;
    mote_wire_slot *sl = &w->slots[s];
    w->free_head = sl->next;
    sl->busy = 1;
    sl->tag = tag;
    sl->opcode = op;
    w->inflight++;
    return s;
}

static void free_slot(mote_wire *w, int s)
{
    mote_wire_slot *sl = &w->slots[s];
    sl->busy = 0;
    sl->next = w->free_head;
    w->free_head = s;
    w->inflight--;
}

/* The state of stream s of w: 0 free (or no such stream), 1 waits for its
 * answer, 2 orphaned (released, waits for its answer to be dropped). */
static unsigned slot_state(const mote_wire *w, int s)
{
    return (uint32_t)s < w->nslots ? w->slots[s].busy : 0;
}

/* The id stays taken (out of use) until its response comes: match_stream
 * frees it then. */
mote_err mote_wire_release(mote_wire *w, int stream)
{
    if (!w || slot_state(w, stream) != 1) return MOTE_ERR_INVALID;
    w->slots[stream].busy = 2;
    w->orphans++;
    return MOTE_OK;
}

/* ---- receiving ------------------------------------------------------------ */

/* Drop the frame handed out last, and bytes of a skipped body. */
static void rx_settle(mote_wire *w)
{
    w->rx_pos += w->rx_done;
    w->rx_done = 0;
    size_t avail = w->rx_len - w->rx_pos;
    size_t d = w->skip < avail ? w->skip : avail;
    w->rx_pos += d;
    w->skip -= d;
    if (w->rx_pos == w->rx_len) w->rx_pos = w->rx_len = 0;
}

uint8_t *mote_wire_recv_space(mote_wire *w, size_t *avail)
{
    size_t a = 0;
    uint8_t *p = NULL;
    if (w && w->rx) {
        rx_settle(w);
        if (w->rx_pos) {
            memmove(w->rx, w->rx + w->rx_pos, w->rx_len - w->rx_pos);
            w->rx_len -= w->rx_pos;
            w->rx_pos = 0;
        }
        a = w->rx_cap - w->rx_len;
        p = w->rx + w->rx_len;
    }
    if (avail) *avail = a;
    return p;
}

void mote_wire_recv_commit(mote_wire *w, size_t n)
{
    if (!w) return;
    if (n > w->rx_cap - w->rx_len) n = w->rx_cap - w->rx_len;
    w->rx_len += n;
    rx_settle(w);
}

size_t mote_wire_feed(mote_wire *w, const void *data, size_t n)
{
    size_t done = 0;
    if (!w || (!data && n)) return 0;
    while (done < n) {
        size_t avail;
        uint8_t *p = mote_wire_recv_space(w, &avail);
        if (avail == 0) break; /* (also when p is NULL) */
        size_t c = n - done < avail ? n - done : avail;
        memcpy(p, (const uint8_t *)data + done, c);
        mote_wire_recv_commit(w, c);
        done += c;
    }
    return done;
}

/* The answer to stream s: its tag and request opcode into f, slot freed. */
static mote_err match_stream(mote_wire *w, mote_wire_frame *f)
{
    int s = f->stream;
    if (s == MOTE_WIRE_EVENT_STREAM) {
        return f->opcode == MOTE_WIRE_EVENT ? MOTE_OK : MOTE_ERR_UNKNOWN_STREAM;
    }
    unsigned st = slot_state(w, s);
    if (st == 2) { /* the late answer to a released request: dropped */
        w->orphans--;
        free_slot(w, s);
    }
    if (st != 1 || f->opcode == MOTE_WIRE_EVENT) {
        return MOTE_ERR_UNKNOWN_STREAM;
    }
    f->tag = w->slots[s].tag;
    f->req_opcode = w->slots[s].opcode;
    free_slot(w, s);
    return MOTE_OK;
}

mote_err mote_wire_next(mote_wire *w, mote_wire_frame *f)
{
    if (!w || !f) return MOTE_ERR_INVALID;
    memset(f, 0, sizeof *f);
    if (w->err) return w->err;
    rx_settle(w);
    if (w->skip) return MOTE_ERR_NEED_MORE;
    size_t avail = w->rx_len - w->rx_pos;
    if (avail < MOTE_WIRE_HEADER) return MOTE_ERR_NEED_MORE;
    const uint8_t *h = w->rx + w->rx_pos;
    /* version and flags: the header's first two bytes, the frame's too */
    _Static_assert(offsetof(mote_wire_frame, flags) == offsetof(mote_wire_frame, version) + 1,
                   "version, flags");
    memcpy(&f->version, h, 2);
    f->stream = (int16_t)mote_be_load16(h + 2);
    f->opcode = h[4];
    f->length = mote_be_load32(h + 5);
    if (f->version != (0x80 | MOTE_WIRE_VERSION) || f->length > MOTE_WIRE_MAX_BODY ||
        f->stream < MOTE_WIRE_EVENT_STREAM) {
        w->err = MOTE_ERR_PROTOCOL;
        return w->err;
    }
    /* Too big to hold: report it, free its stream, drop the body as it
     * comes (skip: the next rx_settle), and carry on with the next frame. */
    bool big = f->length > w->rx_cap - MOTE_WIRE_HEADER;
    if (!big && avail - MOTE_WIRE_HEADER < f->length) return MOTE_ERR_NEED_MORE;
    w->rx_done = MOTE_WIRE_HEADER + (big ? 0 : (size_t)f->length);
    if (big) w->skip = f->length;
    mote_err e = match_stream(w, f);
    if (big) return MOTE_ERR_LIMIT;
    /* an UNKNOWN_STREAM frame too (e.g. a late ERROR: its message is read
     * as any other's) */
    f->body.ptr = h + MOTE_WIRE_HEADER;
    f->body.len = f->length;
    if (f->flags & MOTE_WIRE_F_COMPRESSION) return MOTE_ERR_PROTOCOL;
    rd r;
    rd_init(&r, f->body.ptr, f->body.len);
    if (f->flags & MOTE_WIRE_F_TRACING) rd_raw(&r, 16, &f->tracing_id);
    if (f->flags & MOTE_WIRE_F_WARNING) rd_string_list(&r, &f->warnings);
    /* each entry: [string] key (2+) and [bytes] value (4+) */
    if (f->flags & MOTE_WIRE_F_PAYLOAD) rd_items(&r, &f->payload, 6, RI_BYTES);
    /* on error: tracing id, warnings and payload (the frame's last fields)
     * back to {NULL, 0} */
    if (r.err) return parsed(&r, f, sizeof *f, offsetof(mote_wire_frame, tracing_id));
    f->body.ptr = r.p;
    f->body.len = (size_t)(r.end - r.p);
    return e;
}

/* ---- requests --------------------------------------------------------------- */

/* The writer: a buffer and a sticky error (a request's own, r->o, or a
 * one-shot request's local one). */
typedef mote__wire_out wr;

static void w_put(wr *o, const void *p, size_t n)
{
    if (o->err) return;
    mote_err e = mote_buf_append(o->b, p, n); /* (n 0, p NULL: MOTE_OK) */
    if (e) o->err = e;
}

/* The last n bytes of v, big-endian: [consistency] and a flags byte in
 * one go; in MOTE_SMALL builds also the one copy for [byte], [short] and
 * [int] (Cortex-M size). */
static MOTE_SMALL_NOINLINE void w_be(wr *o, uint32_t v, size_t n)
{
    uint8_t b[4];
    mote_be_store32(b, v);
    w_put(o, b + 4 - n, n);
}

#if MOTE_SMALL
static MOTE_SMALL_INLINE void w_u8(wr *o, uint8_t v)
{
    w_be(o, v, 1);
}

static MOTE_SMALL_INLINE void w_u16(wr *o, uint16_t v)
{
    w_be(o, v, 2);
}

static MOTE_SMALL_INLINE void w_u32(wr *o, uint32_t v)
{
    w_be(o, v, 4);
}
#else
static void w_u8(wr *o, uint8_t v)
{
    w_put(o, &v, 1);
}

static void w_u16(wr *o, uint16_t v)
{
    uint8_t b[2];
    mote_be_store16(b, v);
    w_put(o, b, 2);
}

static void w_u32(wr *o, uint32_t v)
{
    uint8_t b[4];
    mote_be_store32(b, v);
    w_put(o, b, 4);
}
#endif

static void w_u64(wr *o, uint64_t v)
{
#if MOTE_SMALL
    /* the same 8 bytes through w_u32's one copy (Cortex-M size) */
    w_u32(o, (uint32_t)(v >> 32));
    w_u32(o, (uint32_t)v);
#else
    uint8_t b[8];
    mote_be_store64(b, v);
    w_put(o, b, 8);
#endif
}

/* [string] / [short bytes] (wide false: max 65535), [long string] /
 * [bytes] (wide true: max 2^31-1). MOTE_SMALL: one writer for both, as the
 * callers pick one by a flag anyway; elsewhere two (measured faster). */
#if MOTE_SMALL
static void w_str(wr *o, bool wide, const void *p, size_t n)
{
    if (n > (wide ? (size_t)MOTE_CQL_MAX_LEN : 0xffff)) {
        if (!o->err) o->err = MOTE_ERR_OVERFLOW;
        return;
    }
    if (wide) {
        w_u32(o, (uint32_t)n);
    } else {
        w_u16(o, (uint16_t)n);
    }
    w_put(o, p, n);
}
#else
static void w_short_str(wr *o, const void *p, size_t n)
{
    if (n > 0xffff) {
        if (!o->err) o->err = MOTE_ERR_OVERFLOW;
        return;
    }
    w_u16(o, (uint16_t)n);
    w_put(o, p, n);
}

static void w_long_str(wr *o, const void *p, size_t n)
{
    if (n > MOTE_CQL_MAX_LEN) {
        if (!o->err) o->err = MOTE_ERR_OVERFLOW;
        return;
    }
    w_u32(o, (uint32_t)n);
    w_put(o, p, n);
}

static void w_str(wr *o, bool wide, const void *p, size_t n)
{
    if (wide) {
        w_long_str(o, p, n);
    } else {
        w_short_str(o, p, n);
    }
}
#endif

/* Frame header with the stream id the next take_slot will return. */
static void w_header(wr *o, const mote_wire *w, unsigned op, unsigned flags)
{
    uint8_t h[MOTE_WIRE_HEADER] = {MOTE_WIRE_VERSION, (uint8_t)flags, 0, 0, (uint8_t)op,
                                   0, 0, 0, 0};
    mote_be_store16(h + 2, (uint16_t)w->free_head);
    w_put(o, h, sizeof h);
}

/* Patch the body length of the frame at start; OVERFLOW past the limit. */
static MOTE_SMALL_NOINLINE mote_err patch_length(mote_buf *b, size_t start)
{
    size_t body = b->len - start - MOTE_WIRE_HEADER;
    if (body > MOTE_WIRE_MAX_BODY) return MOTE_ERR_OVERFLOW;
    mote_be_store32(b->data + start + 5, (uint32_t)body);
    return MOTE_OK;
}

static mote_err check_ctx(const mote_wire *w, const mote_buf *out)
{
    if (!w || !w->slots || !out) return MOTE_ERR_INVALID;
    if (w->free_head < 0) return MOTE_ERR_LIMIT;
    return MOTE_OK;
}

/* STARTUP's body: {"CQL_VERSION": "3.0.0"} as a [string map]. */
static const uint8_t startup_body[] = {0, 1, 0, 11, 'C', 'Q', 'L', '_', 'V', 'E', 'R', 'S',
                                       'I', 'O', 'N', 0, 5, '3', '.', '0', '.', '0'};

/* A request whose body is parts[0..n) one after the other, preceded (len4:
 * PREPARE, AUTH_RESPONSE) by their total length as an [int] ([bytes],
 * [long string]); AUTH_RESPONSE's with a NULL first part (auth_response's
 * one; auth_plain's first is never NULL), by -1 (a null [bytes]). One
 * frame, or nothing. */
static mote_err oneshot(mote_wire *w, mote_buf *out, uint64_t tag, uint8_t op,
                        const mote_view *parts, size_t n, int *stream)
{
    /* PREPARE and AUTH_RESPONSE, of the five (a bit per opcode) */
    bool len4 = (1u << MOTE_WIRE_PREPARE | 1u << MOTE_WIRE_AUTH_RESPONSE) >> op & 1;
    mote_err e = check_ctx(w, out);
    if (e) return e;
    size_t total = 0;
    /* (OPTIONS: parts NULL, n 0; the end as an integer, as rd_init's) */
    const mote_view *end = (const mote_view *)((uintptr_t)parts + n * sizeof *parts), *v;
    for (v = parts; v != end; v++) {
        if (!v->ptr && v->len) return MOTE_ERR_INVALID;
        if (v->len > MOTE_CQL_MAX_LEN - total) return MOTE_ERR_OVERFLOW;
        total += v->len;
    }
    wr o = {out, MOTE_OK};
    size_t start = out->len;
    w_header(&o, w, op, 0);
    if (len4)
        w_u32(&o, op == MOTE_WIRE_AUTH_RESPONSE && !parts->ptr ? UINT32_MAX : (uint32_t)total);
    for (v = parts; v != end; v++) w_put(&o, v->ptr, v->len);
    e = o.err ? o.err : patch_length(out, start);
    if (e) {
        out->len = start;
        return e;
    }
    int s = take_slot(w, tag, op);
    if (stream) *stream = s;
    return MOTE_OK;
}

mote_err mote_wire_startup(mote_wire *w, mote_buf *out, uint64_t tag, int *stream)
{
    static const mote_view v = {startup_body, sizeof startup_body};
    return oneshot(w, out, tag, MOTE_WIRE_STARTUP, &v, 1, stream);
}

mote_err mote_wire_options(mote_wire *w, mote_buf *out, uint64_t tag, int *stream)
{
    return oneshot(w, out, tag, MOTE_WIRE_OPTIONS, NULL, 0, stream);
}

mote_err mote_wire_auth_response(mote_wire *w, mote_buf *out, uint64_t tag, const void *token,
                                 size_t n, int *stream)
{
    mote_view v = {(const uint8_t *)token, n};
    return oneshot(w, out, tag, MOTE_WIRE_AUTH_RESPONSE, &v, 1, stream);
}

mote_err mote_wire_prepare(mote_wire *w, mote_buf *out, uint64_t tag, const char *cql,
                           size_t len, int *stream)
{
    /* NULL with len 0 is the empty text, not a null [long string]: only
     * AUTH_RESPONSE's NULL part is null (oneshot) */
    mote_view v = {(const uint8_t *)cql, len};
    return oneshot(w, out, tag, MOTE_WIRE_PREPARE, &v, 1, stream);
}

mote_err mote_wire_auth_plain(mote_wire *w, mote_buf *out, uint64_t tag, const char *user,
                              size_t ulen, const char *password, size_t plen, int *stream)
{
    static const uint8_t nul = 0;
    mote_view v[4] = {{&nul, 1}, {(const uint8_t *)user, ulen}, {&nul, 1},
                      {(const uint8_t *)password, plen}};
    return oneshot(w, out, tag, MOTE_WIRE_AUTH_RESPONSE, v, 4, stream);
}

/* The event types as [string]s, in MOTE_WIRE_EVENT_* bit order: REGISTER
 * sends them, mote_wire_parse_event compares with them. Entry i starts at
 * event_names + 17 * i (a fixed stride, padded: no offset table). */
#define EV_AT(i) (17 * (i))
static const uint8_t event_names[49] = "\0\017TOPOLOGY_CHANGE\0\015STATUS_CHANGE\0\0\0\015SCHEMA_CHANGE";

mote_err mote_wire_register(mote_wire *w, mote_buf *out, uint64_t tag, unsigned events,
                            int *stream)
{
    /* a [string list]: its count, then the names asked for, each a part
     * of its own, straight from the table */
    uint8_t count[2];
    mote_view v[4];
    if (events - 1 >= MOTE_WIRE_EVENT_ALL) return MOTE_ERR_INVALID; /* 0, or another bit */
    mote_view *last = v; /* v[0]: the count, set after the names */
    /* (a walk by bit and entry pointer: no index arithmetic, Cortex-M size) */
    for (const uint8_t *e = event_names; events; events >>= 1, e += EV_AT(1)) {
        if (events & 1) {
            (++last)->ptr = e;
            last->len = (size_t)e[1] + 2;
        }
    }
    count[0] = 0;
    count[1] = (uint8_t)(last - v);
    v[0].ptr = count;
    v[0].len = 2;
    return oneshot(w, out, tag, MOTE_WIRE_REGISTER, v, (size_t)(last - v) + 1, stream);
}

/* ---- requests with values ------------------------------------------------- */

#define Q_VALUES 0x01
#define Q_SKIP_METADATA 0x02
#define Q_PAGE_SIZE 0x04
#define Q_PAGING_STATE 0x08
#define Q_SERIAL 0x10
#define Q_TIMESTAMP 0x20

static MOTE_NOINLINE mote_err req_fail(mote_wire_req *r, mote_err e)
{
    if (!r->o.err) r->o.err = e;
    return r->o.err;
}

/* [consistency] and the flags byte of r's parameters, the values bit
 * aside (set by mote_wire_end): QUERY's and EXECUTE's at begin, BATCH's at
 * the end (it has none of page size, paging state and skip metadata:
 * mote_wire_batch_begin refuses them). */
static MOTE_SMALL_NOINLINE void w_consistency(mote_wire_req *r)
{
    const mote_wire_params *p = &r->p;
    uint32_t v = (uint32_t)p->consistency << 8;
    if (p->serial_consistency) v |= Q_SERIAL;
    /* (the bools shifted in, not tested: Cortex-M size) */
    v |= (uint32_t)p->has_timestamp << 5 | (uint32_t)p->skip_metadata << 1;
    _Static_assert(Q_TIMESTAMP == 1 << 5 && Q_SKIP_METADATA == 1 << 1, "flag bits");
    if (p->page_size > 0) v |= Q_PAGE_SIZE;
    if (p->paging_state.ptr) v |= Q_PAGING_STATE;
    w_be(&r->o, v, 3);
}

/* Start QUERY (stmt: the text), EXECUTE (stmt: the id) or BATCH (len: the
 * batch type): header with a stream taken, the statement, and for QUERY and
 * EXECUTE [consistency] <flags> (w_consistency; the values flag is set
 * at the end if a value came, and the [short] value count comes with the
 * first value); for BATCH the type and a [short] statement count. The
 * arguments are those of mote_wire_query_begin with op in the register the
 * 64-bit tag leaves free (r3 on 32-bit ARM), so the QUERY and EXECUTE calls
 * are a move and a jump (Cortex-M size). */
static mote_err req_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint8_t op,
                          uint64_t tag, const void *stmt, size_t len, const mote_wire_params *p)
{
    if (!r) return MOTE_ERR_INVALID;
    memset(r, 0, sizeof *r); /* w NULL: not open (stream is set below) */
    /* out is the request's from here (a NULL one aside), even if begin
     * fails: end takes back what the caller appends after the failure */
    mote_err e = check_ctx(w, out);
    if (e != MOTE_ERR_INVALID) {
        r->o.b = out;
        r->start = out->len;
    }
    /* parameters the spec has no meaning for: consistency past LOCAL_ONE,
     * a serial consistency other than SERIAL / LOCAL_SERIAL (or 0: none),
     * a negative default timestamp ("negative values are forbidden") */
    if (!e && ((!stmt && len) ||
               (p && ((!p->paging_state.ptr && p->paging_state.len) ||
                      p->consistency > MOTE_WIRE_LOCAL_ONE ||
                      (p->serial_consistency && (p->serial_consistency | 1) != MOTE_WIRE_LOCAL_SERIAL) ||
                      (p->has_timestamp && p->timestamp < 0)))))
        e = MOTE_ERR_INVALID;
    if (e) return r->o.err = e;
    if (p) {
        r->p = *p;
    } else {
        r->p.consistency = MOTE_WIRE_ONE;
    }
    r->w = w;
    r->opcode = op;
    wr *o = &r->o;
    w_header(o, w, op, r->p.tracing ? MOTE_WIRE_F_TRACING : 0);
    r->stream = o->err ? -1 : take_slot(w, tag, op);
    if (op == MOTE_WIRE_BATCH) {
        w_be(o, (uint32_t)len << 16, 3); /* the type, a [short] count of 0 */
    } else {
        w_str(o, op == MOTE_WIRE_QUERY, stmt, len);
        /* [consistency], then the flags (just before the count; the
         * values bit is set at the end). The value count comes with the
         * first value (put_value): without values the frame has none, and
         * a frame that fits out exactly must not need room for it
         * meanwhile. */
        w_consistency(r);
        r->count_at = out->len;
    }
    if (o->err) {
        mote_wire_abort(r);
        r->o.b = out; /* still the request's: end takes back what comes after */
    }
    return o->err;
}

mote_err mote_wire_query_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                               const char *cql, size_t len, const mote_wire_params *p)
{
    return req_begin(r, w, out, MOTE_WIRE_QUERY, tag, cql, len, p);
}

mote_err mote_wire_execute_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                                 const void *id, size_t idlen, const mote_wire_params *p)
{
    return req_begin(r, w, out, MOTE_WIRE_EXECUTE, tag, id, idlen, p);
}

mote_err mote_wire_batch_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                               mote_wire_batch_type type, const mote_wire_params *p)
{
    /* (bad: stmt NULL with len not 0, so req_begin says INVALID once out
     * is the request's: end takes back what the caller appends after; the
     * fields BATCH has not, or'ed: one test, not a branch each) */
    bool bad = (unsigned)type > MOTE_WIRE_BATCH_COUNTER ||
               (p && (p->page_size | (uintptr_t)p->paging_state.ptr | p->skip_metadata));
    /* stmt: any non-NULL pointer (BATCH has no statement here; len is the
     * type), so that req_begin's NULL check needs no opcode test (Cortex-M
     * size) */
    return req_begin(r, w, out, MOTE_WIRE_BATCH, tag, bad ? NULL : r, bad ? 1 : (size_t)type, p);
}

/* Write the value count of the statement that is complete. */
static MOTE_SMALL_NOINLINE void patch_count(mote_wire_req *r)
{
    if (r->nvalues) mote_be_store16(r->o.b->data + r->count_at, (uint16_t)r->nvalues);
}

/* Is the request open, with no value open? Else STATE (sticky). */
static mote_err req_ready(mote_wire_req *r)
{
    if (!r) return MOTE_ERR_INVALID;
    if (!r->o.err && (!r->o.b || r->value_at)) r->o.err = MOTE_ERR_STATE;
    return r->o.err;
}

static mote_err batch_stmt(mote_wire_req *r, uint8_t kind, const void *p, size_t n)
{
    mote_err e = req_ready(r);
    if (e) return e;
    if (r->opcode != MOTE_WIRE_BATCH) return req_fail(r, MOTE_ERR_STATE);
    if (!p && n) return req_fail(r, MOTE_ERR_INVALID);
    if (r->nstmts == 0xffff) return req_fail(r, MOTE_ERR_OVERFLOW);
    patch_count(r);
    wr *o = &r->o;
    w_u8(o, kind);
    w_str(o, kind == 0, p, n);
    size_t at = o->b->len;
    w_u16(o, 0);
    if (o->err) return o->err;
    r->count_at = at;
    r->nvalues = 0;
    r->nstmts++;
    return MOTE_OK;
}

mote_err mote_wire_batch_query(mote_wire_req *r, const char *cql, size_t len)
{
    return batch_stmt(r, 0, cql, len);
}

mote_err mote_wire_batch_prepared(mote_wire_req *r, const void *id, size_t idlen)
{
    return batch_stmt(r, 1, id, idlen);
}

/* [int] n then len bytes of v, reserved once (the hot path: a row's values). */
static mote_err put_value(mote_wire_req *r, int32_t n, const void *v, size_t len)
{
    /* (the argument checks of mote_wire_value; the others pass len 0) */
    if (r && ((!v && len) || len > MOTE_CQL_MAX_LEN))
        return req_fail(r, len > MOTE_CQL_MAX_LEN ? MOTE_ERR_OVERFLOW : MOTE_ERR_INVALID);
    mote_err e = req_ready(r);
    if (e) return e;
    if (!r->count_at) return req_fail(r, MOTE_ERR_STATE);
    if (r->nvalues == 0xffff) return req_fail(r, MOTE_ERR_OVERFLOW);
    mote_buf *b = r->o.b;
    /* QUERY, EXECUTE: the first value brings the count (out ends where it
     * goes; patch_count sets it). A batch statement has written its own. */
    size_t c = b->len == r->count_at ? 2 : 0;
    e = mote_buf_reserve(b, c + 4 + len);
    if (e) return req_fail(r, e);
    b->len += c;
    uint8_t *d = b->data + b->len;
    mote_be_store32(d, (uint32_t)n);
    if (len) memcpy(d + 4, v, len);
    b->len += 4 + len;
    r->nvalues++;
    return r->o.err; /* (MOTE_OK: req_ready said so; not e, which gcc would keep) */
}

mote_err mote_wire_value(mote_wire_req *r, const void *v, size_t n)
{
    return put_value(r, (int32_t)n, v, n);
}

mote_err mote_wire_value_null(mote_wire_req *r)
{
    return put_value(r, -1, NULL, 0);
}

mote_err mote_wire_value_unset(mote_wire_req *r)
{
    return put_value(r, -2, NULL, 0);
}

mote_err mote_wire_value_open(mote_wire_req *r)
{
    mote_err e = put_value(r, 0, NULL, 0);
    if (!e) r->value_at = r->o.b->len - 4;  /* its length comes at close */
    return e;
}

mote_err mote_wire_value_close(mote_wire_req *r)
{
    if (!r) return MOTE_ERR_INVALID;
    if (r->o.err) return r->o.err;
    if (!r->o.b || !r->value_at || r->o.b->len < r->value_at + 4) {
        return req_fail(r, MOTE_ERR_STATE);
    }
    size_t n = r->o.b->len - r->value_at - 4;
    if (n > MOTE_CQL_MAX_LEN) return req_fail(r, MOTE_ERR_OVERFLOW);
    mote_be_store32(r->o.b->data + r->value_at, (uint32_t)n);
    r->value_at = 0;
    return MOTE_OK;
}

void mote_wire_abort(mote_wire_req *r)
{
    if (!r || !r->o.b) return; /* closed, or never opened */
    if (r->o.b->len > r->start) r->o.b->len = r->start;
    if (r->w && r->stream >= 0) free_slot(r->w, r->stream);
    r->w = NULL;
    r->o.b = NULL; /* closed: out is not touched again */
}

mote_err mote_wire_end(mote_wire_req *r, int *stream)
{
    mote_err e = req_ready(r);
    if (!r) return e;
    if (r->opcode == MOTE_WIRE_BATCH && r->nstmts == 0) req_fail(r, MOTE_ERR_STATE); /* (sticky) */
    wr *o = &r->o;
    if (!o->err) {
        mote_buf *b = o->b;
        patch_count(r);
        if (r->opcode == MOTE_WIRE_BATCH) {
            mote_be_store16(b->data + r->start + MOTE_WIRE_HEADER + 1, (uint16_t)r->nstmts);
            w_consistency(r);
        } else {
            /* nothing bound: no values flag, and no count (put_value
             * writes it with the first value) */
            if (r->nvalues) b->data[r->count_at - 1] |= Q_VALUES;
            if (r->p.page_size > 0) w_u32(o, (uint32_t)r->p.page_size);
            if (r->p.paging_state.ptr) w_str(o, true, r->p.paging_state.ptr, r->p.paging_state.len);
        }
        if (r->p.serial_consistency) w_u16(o, r->p.serial_consistency);
        if (r->p.has_timestamp) w_u64(o, (uint64_t)r->p.timestamp);
        if (!o->err) o->err = patch_length(b, r->start);
    }
    if (o->err) {
        mote_wire_abort(r);
        return o->err;
    }
    if (stream) *stream = r->stream;
    r->o.b = NULL; /* closed (the stream stays taken: abort does nothing now) */
    return MOTE_OK;
}

/* ---- responses ------------------------------------------------------------ */

mote_err mote_wire_strings(mote_wire_list *it, mote_view raw)
{
    if (!it || (raw.len && !raw.ptr)) return MOTE_ERR_INVALID;
    rd_init(&it->r, raw.ptr, raw.len);
    it->left = 0;
    if (raw.len == 0) return MOTE_OK;
    /* checked by a walk over it, then walked again from its first item */
    rd_string_list(&it->r, NULL);
    if (it->r.err) return it->r.err;
    it->r.p = raw.ptr + 2; /* (what follows the list is never read) */
    it->left = mote_be_load16(raw.ptr);
    return MOTE_OK;
}

bool mote_wire_list_next(mote_wire_list *it, mote_view *s)
{
    if (!it || it->left == 0) return false;
    mote_view v;
    rd_string(&it->r, &v);
    if (it->r.err) {
        it->left = 0;
        return false;
    }
    if (s) *s = v;
    it->left--;
    return true;
}

size_t mote_wire_list_count(const mote_wire_list *it)
{
    return it ? it->left : 0;
}

/* The body of f into r, if f is a frame of opcode op; out, the caller's
 * result, must not be NULL and is zeroed (size bytes). op and size come
 * in one argument, op | size << 8 (four arguments: all in registers on
 * Cortex-M, 12 bytes less). */
static mote_err body_of(const mote_wire_frame *f, rd *r, void *out, uint32_t op_size)
{
    uint8_t op = (uint8_t)op_size;
    size_t size = op_size >> 8;
    if (!f || (!f->body.ptr && f->body.len)) return MOTE_ERR_INVALID;
    if (f->opcode != op) return MOTE_ERR_TYPE;
    if (!out) return MOTE_ERR_INVALID;
    memset(out, 0, size);
    rd_init(r, f->body.ptr, f->body.len);
    return MOTE_OK;
}

/* AUTHENTICATE's body, one [string] (bytes false), or AUTH_SUCCESS's or
 * AUTH_CHALLENGE's, one [bytes] (true), into *out (may be NULL). */
static MOTE_SMALL_NOINLINE mote_err parse_view(const mote_wire_frame *f, bool bytes, mote_view *out)
{
    rd r;
    mote_view v;
    uint8_t op = MOTE_WIRE_AUTHENTICATE;
    if (bytes) op = f && f->opcode == MOTE_WIRE_AUTH_CHALLENGE ? MOTE_WIRE_AUTH_CHALLENGE
                                                                : MOTE_WIRE_AUTH_SUCCESS;
    mote_err e = body_of(f, &r, &v, op);
    if (e) return e;
    if (bytes) {
        rd_bytes(&r, &v);
    } else {
        rd_string(&r, &v);
    }
    if (r.err) return r.err;
    if (out) *out = v;
    return MOTE_OK;
}

mote_err mote_wire_parse_authenticate(const mote_wire_frame *f, mote_view *authenticator)
{
    return parse_view(f, false, authenticator);
}

mote_err mote_wire_parse_auth_token(const mote_wire_frame *f, mote_view *token)
{
    return parse_view(f, true, token);
}

mote_err mote_wire_parse_supported(const mote_wire_frame *f, mote_wire_multimap *m)
{
    /* checked by a walk with m's own cursor, which then starts over at
     * the first key (on error it keeps the error: next gives nothing) */
    rd *r = (rd *)(void *)m; /* its first member (m may be NULL: INVALID) */
    mote_err e = body_of(f, r, m, MOTE_WIRE_SUPPORTED);
    if (e) return e;
    rd_items(r, NULL, 4, RI_LIST); /* each entry: [string] (2+), [string list] (2+) */
    if (r->err) return r->err;
    r->p = f->body.ptr + 2; /* (what follows the multimap is never read) */
    m->left = mote_be_load16(f->body.ptr);
    return MOTE_OK;
}

bool mote_wire_multimap_next(mote_wire_multimap *m, mote_view *key, mote_wire_list *values)
{
    if (!m || m->left == 0) return false;
    mote_view k;
    rd_string(&m->r, &k);
    mote_view l;
    rd_string_list(&m->r, &l);
    /* l is checked by now: mote_wire_strings cannot fail (it is looked at
     * all the same) */
    if (m->r.err || (values && mote_wire_strings(values, l))) {
        m->left = 0;
        return false;
    }
    if (key) *key = k;
    m->left--;
    return true;
}

static void rd_schema_change(rd *r, mote_wire_schema_change *c)
{
    /* change, target, keyspace: the first three, one after the other (a
     * loop, Cortex-M size; addressed from c as mote_wire_parse_error's
     * fields) */
    _Static_assert(offsetof(mote_wire_schema_change, change) == 0 &&
                       offsetof(mote_wire_schema_change, name) == 3 * sizeof(mote_view),
                   "change, target, keyspace first");
    for (char *at = (char *)c; at != (char *)&c->name; at += sizeof(mote_view))
        rd_string(r, (mote_view *)(void *)at);
    if (r->err) return;
    /* Targets are told apart by their first letter (the spec's words all
     * differ there): KEYSPACE, TABLE/TYPE, FUNCTION/AGGREGATE. An empty
     * one reads the low byte of its length, 0 (the [string] was read, so
     * its prefix is there): one path for both, Cortex-M size. */
    uint8_t t = c->target.ptr[c->target.len ? 0 : -1];
    if (t == 'K') return;
    rd_string(r, &c->name);
    if (t == 'F' || t == 'A') rd_string_list(r, &c->arg_types);
}

/* One column spec of m at r into *c, but its type_id (errors stay in r):
 * rd_meta checks the specs with it, mote_wire_column_next hands them out. */
static MOTE_SMALL_NOINLINE void rd_column(rd *r, const mote_wire_meta *m, mote_wire_column *c)
{
    if (m->flags & MOTE_WIRE_META_GLOBAL_SPEC) {
        c->keyspace = m->keyspace;
        c->table = m->table;
    } else {
        rd_string(r, &c->keyspace);
        rd_string(r, &c->table);
    }
    rd_string(r, &c->name);
    c->type.ptr = r->p;
    skip_option(r);
    c->type.len = (size_t)(r->p - c->type.ptr);
}

/* Metadata: rows (prepared false) or a prepared statement's bind markers. */
static void rd_meta(rd *r, mote_wire_meta *m, bool bind)
{
    m->flags = (uint32_t)rd_i32(r);
    m->ncols = rd_len(r);
    if (bind) {
        /* each index names a bind marker: no more of them than markers */
        uint32_t npk = rd_len(r);
        rd_count(r, npk > m->ncols ? SIZE_MAX : npk, 2);
        m->npk = npk;
        m->pk = r->p;
        for (uint32_t i = 0; i < npk && !r->err; i++) {
            if (rd_u16(r) >= m->ncols) rd_fail(r, MOTE_ERR_BAD_LENGTH);
        }
        m->flags &= MOTE_WIRE_META_GLOBAL_SPEC;  /* the only flag bind metadata has */
    } else if (m->flags & MOTE_WIRE_META_MORE_PAGES) {
        /* more pages without a paging state cannot be asked for (a paging
         * loop would start over at page 1): a null one is refused */
        rd_raw(r, rd_len(r), &m->paging_state);
    }
    if (m->flags & MOTE_WIRE_META_NO_METADATA) return; /* (an error: nothing more is read) */
    if (m->flags & MOTE_WIRE_META_GLOBAL_SPEC) {
        rd_string(r, &m->keyspace);
        rd_string(r, &m->table);
    }
    /* a spec is at least a name (2) and an option id (2) */
    rd_count(r, m->ncols, 4);
    const uint8_t *start = r->p;
    mote_wire_column c;
    for (uint32_t i = 0; i < m->ncols && !r->err; i++) rd_column(r, m, &c);
    /* (on an error, zeroed again by mote_wire_parse_result's parsed()) */
    m->specs.ptr = start;
    m->specs.len = (size_t)(r->p - start);
}

mote_err mote_wire_parse_result(const mote_wire_frame *f, mote_wire_result *res)
{
    rd r;
    mote_err e = body_of(f, &r, res, MOTE_WIRE_RESULT | sizeof *res << 8);
    if (e) return e;
    res->kind = rd_i32(&r);
    switch (res->kind) {
    case MOTE_WIRE_RESULT_VOID:
        break;
    case MOTE_WIRE_RESULT_ROWS: {
        rd_meta(&r, &res->meta, false);
        uint32_t nrows = rd_len(&r);
        uint64_t cells = (uint64_t)res->meta.ncols * nrows;
        /* one past size_t, or rows without columns (no CQL result has
         * them; 2^31-1 of them fit in 12 bytes): more than the bytes left */
        rd_count(&r, cells > SIZE_MAX || nrows > cells ? SIZE_MAX : (size_t)cells, 4);
        res->nrows = nrows; /* (on an error, zeroed again by parsed()) */
        const uint8_t *start = r.p;
        /* cells <= bytes left / 4 now: it fits a size_t (a 32-bit count
         * is shorter on Cortex-M) */
        for (size_t i = 0; i < (size_t)cells && !r.err; i++) rd_bytes(&r, NULL);
        res->rows.ptr = start;
        res->rows.len = (size_t)(r.p - start);
        break;
    }
    case MOTE_WIRE_RESULT_SET_KEYSPACE:
        rd_string(&r, &res->keyspace);
        break;
    case MOTE_WIRE_RESULT_PREPARED:
        rd_string(&r, &res->id);
        rd_meta(&r, &res->bind, true);
        rd_meta(&r, &res->meta, false);
        break;
    case MOTE_WIRE_RESULT_SCHEMA_CHANGE:
        rd_schema_change(&r, &res->change);
        break;
    default:
        rd_fail(&r, MOTE_ERR_BAD_TYPE);
        break;
    }
    return parsed(&r, res, sizeof *res, sizeof res->kind);
}

int mote_wire_pk_index(const mote_wire_meta *m, size_t i)
{
    if (!m || i >= m->npk) return -1;
    return mote_be_load16(m->pk + 2 * i);
}

mote_err mote_wire_columns(mote_wire_columns_it *it, const mote_wire_meta *m)
{
    if (!it || !m) return MOTE_ERR_INVALID;
    it->m = m;
    /* (specs.len is 0 where specs.ptr is NULL: NO_METADATA, or an error) */
    rd_init(&it->r, m->specs.ptr, m->specs.len);
    it->left = m->specs.ptr ? m->ncols : 0;
    return MOTE_OK;
}

bool mote_wire_column_next(mote_wire_columns_it *it, mote_wire_column *c)
{
    if (!it || it->left == 0) return false;
    mote_wire_column col; /* every field is set below */
    rd_column(&it->r, it->m, &col);
    if (it->r.err) {
        it->left = 0;
        return false;
    }
    col.type_id = mote_be_load16(col.type.ptr);
    if (c) *c = col;
    it->left--;
    return true;
}

mote_err mote_wire_cells_init(mote_wire_cells *it, const mote_wire_result *r)
{
    if (!it || !r) return MOTE_ERR_INVALID;
    if (r->kind != MOTE_WIRE_RESULT_ROWS) return MOTE_ERR_TYPE;
    memset(it, 0, sizeof *it);
    if (r->rows.ptr) {
        it->r.p = r->rows.ptr;
        it->r.end = r->rows.ptr + r->rows.len;
        it->ncols = r->meta.ncols;
        /* no columns: no cells (rows is empty, next stops at once) */
        it->nrows = r->nrows;
    }
    return MOTE_OK;
}

bool mote_wire_cell_next(mote_wire_cells *it, mote_view *cell, uint32_t *row, uint32_t *col)
{
    if (!it || it->row >= it->nrows) return false;
#if MOTE_SMALL
    rd *r = &it->r; /* in place (Cortex-M size) */
#else
    /* a copy kept in registers, every cell of a result comes through here;
     * its error is 0 (an error ends the cells) */
    rd copy = {it->r.p, it->r.end, MOTE_OK}, *r = &copy;
#endif
    mote_view v;
    rd_bytes(r, &v);
    if (r->err) {
        it->row = it->nrows;
        return false;
    }
    it->r.p = r->p;
    if (cell) *cell = v;
    if (row) *row = it->row;
    if (col) *col = it->col;
    if (++it->col == it->ncols) {
        it->col = 0;
        it->row++;
    }
    return true;
}

/* The code-specific bodies of ERROR. Every code's fields come on the wire
 * in the order mote_wire_error declares them, so a code needs only the set
 * of its fields, walked in that order: a bit per field (EF_*, whose form
 * follows from its place in the order: consistency a [short], then [int]s,
 * a [byte] bool, [string]s and one [string list]). Tables, not code: the
 * Cortex-M size budget. */
enum {
    EF_CONSISTENCY, EF_REQUIRED, EF_ALIVE, EF_RECEIVED, EF_BLOCKFOR, EF_NUMFAILURES,
    EF_DATA_PRESENT, EF_WRITE_TYPE, EF_KEYSPACE, EF_TABLE, EF_FUNCTION, EF_ARG_TYPES, EF_ID,
    EF_CODES /* (where the codes start in err_table) */
};
#define EF_AT(field) (uint8_t)offsetof(mote_wire_error, field)
#define EB(f) (1u << EF_##f)
#define EC(hi, bits) hi, (uint8_t)(bits), (uint8_t)((bits) >> 8)
#define EF_TIMEOUT (EB(CONSISTENCY) | EB(RECEIVED) | EB(BLOCKFOR))
/* One table (one address to load): the fields' offsets, then from
 * EF_CODES per code its high byte (the low byte is 0 for all of them) and
 * its fields' bits, low byte first; a 0 high byte ends it (no fields). */
static const uint8_t err_table[] = {
    EF_AT(consistency), EF_AT(required), EF_AT(alive), EF_AT(received), EF_AT(blockfor),
    EF_AT(numfailures), EF_AT(data_present), EF_AT(write_type), EF_AT(keyspace), EF_AT(table),
    EF_AT(function), EF_AT(arg_types), EF_AT(id),
    EC(0x10, EB(CONSISTENCY) | EB(REQUIRED) | EB(ALIVE)),            /* UNAVAILABLE */
    EC(0x11, EF_TIMEOUT | EB(WRITE_TYPE)),                           /* WRITE_TIMEOUT */
    EC(0x12, EF_TIMEOUT | EB(DATA_PRESENT)),                         /* READ_TIMEOUT */
    EC(0x13, EF_TIMEOUT | EB(NUMFAILURES) | EB(DATA_PRESENT)),       /* READ_FAILURE */
    EC(0x14, EB(KEYSPACE) | EB(FUNCTION) | EB(ARG_TYPES)),           /* FUNCTION_FAILURE */
    EC(0x15, EF_TIMEOUT | EB(NUMFAILURES) | EB(WRITE_TYPE)),         /* WRITE_FAILURE */
    EC(0x24, EB(KEYSPACE) | EB(TABLE)),                              /* ALREADY_EXISTS */
    EC(0x25, EB(ID)),                                                /* UNPREPARED */
    0, 0, 0};

mote_err mote_wire_parse_error(const mote_wire_frame *f, mote_wire_error *e)
{
    rd r;
    mote_err err = body_of(f, &r, e, MOTE_WIRE_ERROR | sizeof *e << 8);
    if (err) return err;
    e->code = rd_i32(&r);
    rd_string(&r, &e->message);
    const uint8_t *op = err_table + EF_CODES;
    /* the code's high byte, or 0 (the table's end) if it has no fields */
    uint32_t hi = e->code & 0xffff00ff ? 0 : (uint32_t)e->code >> 8;
    while (*op && *op != hi) op += 3;
    for (unsigned bits = op[1] | op[2] << 8, i = 0; bits; bits >>= 1, i++) {
        if (!(bits & 1)) continue;
        char *at = (char *)e + err_table[i];
        if (i == EF_CONSISTENCY) {
            *(uint16_t *)(void *)at = rd_u16(&r);
        } else if (i < EF_DATA_PRESENT) {
            *(int32_t *)(void *)at = rd_i32(&r);
        } else if (i == EF_DATA_PRESENT) {
            *(bool *)at = rd_u8(&r) != 0;
        } else if (i == EF_ARG_TYPES) {
            rd_string_list(&r, (mote_view *)(void *)at);
        } else {
            rd_string(&r, (mote_view *)(void *)at);
        }
    }
    return parsed(&r, e, sizeof *e, sizeof e->code);
}

bool mote_wire_error_retryable(int32_t code)
{
    /* not WRITE_TIMEOUT: the write may have been applied (wire.h) */
    return code == MOTE_WIRE_E_OVERLOADED || code == MOTE_WIRE_E_IS_BOOTSTRAPPING ||
           code == MOTE_WIRE_E_UNAVAILABLE || code == MOTE_WIRE_E_READ_TIMEOUT;
}

mote_err mote_wire_parse_event(const mote_wire_frame *f, mote_wire_event *ev)
{
    rd r;
    mote_err e = body_of(f, &r, ev, MOTE_WIRE_EVENT | sizeof *ev << 8);
    if (e) return e;
    rd_string(&r, &ev->type);
    /* TOPOLOGY_CHANGE, STATUS_CHANGE, SCHEMA_CHANGE (k 0..2), compared
     * whole (TRACE_COMPLETE is another type); k 3: another */
    unsigned k = 0;
    for (; k < 3; k++) {
        size_t at = EV_AT(k), len = event_names[at + 1];
        if (ev->type.len == len && !memcmp(ev->type.ptr, event_names + at + 2, len)) break;
    }
    if (k < 2) {
        rd_string(&r, &ev->change);
        uint8_t n = rd_u8(&r);
        if (!r.err && n != 4 && n != 16) rd_fail(&r, MOTE_ERR_BAD_LENGTH);
        rd_raw(&r, n, &ev->address);
        ev->port = rd_i32(&r);
    } else if (k == 2) {
        rd_schema_change(&r, &ev->schema);
    }
    return parsed(&r, ev, sizeof *ev, 0);
}

/* ---- Murmur3 partitioner token ---------------------------------------------
 *
 * MurmurHash3_x64_128 as Cassandra computes it: 16-byte blocks read as two
 * little-endian 64-bit words, then the tail, where Cassandra's Java code
 * widens each byte as a signed value (so bytes >= 0x80 set all the bits
 * above them); the token is the first half of the result. Streaming, so a
 * composite key is hashed from its parts without being assembled.
 */
typedef struct mm3 {
    uint64_t h[2];
    size_t total;    /* bytes so far; the buffered ones: total % 16 */
    uint8_t buf[16];
} mm3;

static uint64_t rotl64(uint64_t v, unsigned n)
{
    return (v << n) | (v >> (64 - n));
}

/* A 64-bit product: out of line in MOTE_SMALL builds, where a 32-bit core
 * spends three multiplies and an add on it and Murmur3 has eight (Cortex-M
 * size) */
static MOTE_SMALL_NOINLINE uint64_t mul64(uint64_t a, uint64_t b)
{
    return a * b;
}

static MOTE_NOINLINE uint64_t fmix64(uint64_t k)
{
    k = mul64(k ^ (k >> 33), 0xff51afd7ed558ccdull);
    k = mul64(k ^ (k >> 33), 0xc4ceb9fe1a85ec53ull);
    return k ^ (k >> 33);
}

/* Mix 16 bytes at p (round true: a block), or the tail buf[0..nbuf)
 * (round false), into the state as two little-endian words. The tail's
 * bytes are widened as signed, Cassandra's quirk (each one is XORed in
 * sign-extended, which k = k << 8 ^ byte from the top does), and the tail
 * leaves the state unrotated, as MurmurHash3 ends. */
#if MOTE_SMALL
/* The two lanes differ only in their constants: one loop over a table
 * (64-bit arithmetic is long on a 32-bit core). */
static MOTE_NOINLINE void mm3_mixin(mm3 *m, const uint8_t *p, bool round)
{
    static const uint64_t c[2] = {0x87c37b91114253d5ull, 0x4cf5ad432745937full};
    static const uint32_t add[2] = {0x52dce729, 0x38495ab5};
    uint64_t k[2] = {0, 0};
    for (unsigned i = round ? 16 : (unsigned)m->total & 15; i-- > 0;) {
        k[i >> 3] = k[i >> 3] << 8 ^ (round ? p[i] : (uint64_t)(int64_t)(int8_t)p[i]);
    }
    for (unsigned j = 0; j < 2; j++) {
        m->h[j] ^= mul64(rotl64(mul64(k[j], c[j]), 31 + 2 * j), c[j ^ 1]);
        if (round) m->h[j] = mul64(rotl64(m->h[j], 27 + 4 * j) + m->h[j ^ 1], 5) + add[j];
    }
}
#else
static uint64_t load_le64(const uint8_t *p)
{
#if MOTE_BE_HOST_LITTLE
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
#else
    uint64_t v = 0;
    for (unsigned i = 8; i-- > 0;) v = v << 8 | p[i];
    return v;
#endif
}

static void mm3_mixin(mm3 *m, const uint8_t *p, bool round)
{
    const uint64_t c1 = 0x87c37b91114253d5ull, c2 = 0x4cf5ad432745937full;
    uint64_t k1 = 0, k2 = 0;
    if (round) {
        k1 = load_le64(p);
        k2 = load_le64(p + 8);
    } else {
        for (unsigned i = (unsigned)m->total & 15; i-- > 0;) {
            uint64_t b = (uint64_t)(int64_t)(int8_t)p[i];
            if (i >= 8) {
                k2 = k2 << 8 ^ b;
            } else {
                k1 = k1 << 8 ^ b;
            }
        }
    }
    m->h[0] ^= rotl64(k1 * c1, 31) * c2;
    if (round) m->h[0] = (rotl64(m->h[0], 27) + m->h[1]) * 5 + 0x52dce729;
    m->h[1] ^= rotl64(k2 * c2, 33) * c1;
    if (round) m->h[1] = (rotl64(m->h[1], 31) + m->h[0]) * 5 + 0x38495ab5;
}
#endif

static MOTE_NOINLINE void mm3_update(mm3 *m, const uint8_t *p, size_t n)
{
    while (n) {
#if !MOTE_SMALL
        if ((m->total & 15) == 0 && n >= 16) { /* whole blocks straight from p */
            mm3_mixin(m, p, true);
            p += 16;
            n -= 16;
            m->total += 16;
            continue;
        }
#endif
        unsigned i = (unsigned)m->total++ & 15;
        m->buf[i] = *p++;
        n--;
        if (i == 15) mm3_mixin(m, m->buf, true);
    }
}

static int64_t mm3_token(mm3 *m)
{
    /* a zero word mixes to zero: no need to test which words the tail has */
    mm3_mixin(m, m->buf, false);
    m->h[0] ^= m->total;
    m->h[1] ^= m->total;
    m->h[0] += m->h[1];
    m->h[1] += m->h[0];
    int64_t t = (int64_t)(fmix64(m->h[0]) + fmix64(m->h[1]));
    /* Murmur3Partitioner keeps INT64_MIN for the minimum token (also the
     * token of an empty key) */
    return t == INT64_MIN ? INT64_MAX : t;
}

/* mote_wire_token_parts; also mote_wire_token's, whose one part cannot
 * fail (this one is not MOTE_NODISCARD: nothing to look at there) */
static MOTE_NOINLINE mote_err token_of(const mote_view *parts, size_t n, int64_t *token)
{
    if (!token || !parts || n == 0) return MOTE_ERR_INVALID;
    mm3 m;
    memset(&m, 0, sizeof m);
    bool comp = n > 1;
    /* (the end compared with parts + n each time: gcc -O3 then clones the
     * one-part call of mote_wire_token, as it did for the index loop; an
     * end pointer lost it, +29 instructions per token) */
    for (const mote_view *v = parts; v != parts + n; v++) {
        size_t len = v->len;
        /* one column: its bytes; several: CompositeType's components, each
         * [short] length, bytes, end-of-component byte 0 (set before the
         * check: gcc then keeps one path for a NULL part, Cortex-M size) */
        uint8_t hdr[3] = {(uint8_t)(len >> 8), (uint8_t)len, 0};
        /* (& rather than &&: one test, so that gcc does not split the
         * paths after it by the pointer; Cortex-M size) */
        if ((v->ptr == NULL) & (len != 0)) return MOTE_ERR_INVALID;
        if (comp) {
            if (len > 0xffff) return MOTE_ERR_OVERFLOW;
            mm3_update(&m, hdr, 2);
        }
        mm3_update(&m, v->ptr, len);
        if (comp) mm3_update(&m, hdr + 2, 1);
    }
    *token = m.total ? mm3_token(&m) : INT64_MIN;
    return MOTE_OK;
}

int64_t mote_wire_token(const void *key, size_t len)
{
    /* (NULL with len > 0: token_of refuses it before it writes t) */
    mote_view part = {(const uint8_t *)key, len};
    int64_t t = INT64_MIN;
    token_of(&part, 1, &t);
    return t;
}

mote_err mote_wire_token_parts(const mote_view *parts, size_t n, int64_t *token)
{
    return token_of(parts, n, token);
}
