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
#include <string.h>

#include "mote/wire.h"
#include "mote/be.h"

/* ---- response cursor ------------------------------------------------------ */

typedef struct rd {
    const uint8_t *p;
    const uint8_t *end;
    mote_err err;
} rd;

static void rd_init(rd *r, const uint8_t *p, size_t n)
{
    r->p = p;
    r->end = p + n;
    r->err = MOTE_OK;
}

/* True if n more bytes are there; else the cursor fails with TRUNCATED. */
static bool rd_need(rd *r, size_t n)
{
    if (r->err) return false;
    if ((size_t)(r->end - r->p) < n) {
        r->err = MOTE_ERR_TRUNCATED;
        return false;
    }
    return true;
}

static void rd_fail(rd *r, mote_err e)
{
    if (!r->err) r->err = e;
}

static size_t rd_left(const rd *r)
{
    return r->err ? 0 : (size_t)(r->end - r->p);
}

static uint8_t rd_u8(rd *r)
{
    if (!rd_need(r, 1)) return 0;
    return *r->p++;
}

static uint16_t rd_u16(rd *r)
{
    if (!rd_need(r, 2)) return 0;
    uint16_t v = mote_be_load16(r->p);
    r->p += 2;
    return v;
}

static int32_t rd_i32(rd *r)
{
    if (!rd_need(r, 4)) return 0;
    int32_t v = (int32_t)mote_be_load32(r->p);
    r->p += 4;
    return v;
}

/* n raw bytes as a view (ptr non-NULL even for n == 0 while the cursor is
 * good, so that an empty item is told apart from an absent one). */
static mote_view rd_raw(rd *r, size_t n)
{
    mote_view v = {NULL, 0};
    if (!rd_need(r, n)) return v;
    v.ptr = r->p;
    v.len = n;
    r->p += n;
    return v;
}

/* [string] and [short bytes]: [short] n, n bytes. */
static mote_view rd_string(rd *r)
{
    return rd_raw(r, rd_u16(r));
}

/* [bytes]: [int] n, n bytes; n < 0 is null (ptr NULL). */
static mote_view rd_bytes(rd *r)
{
    mote_view v = {NULL, 0};
    int32_t n = rd_i32(r);
    if (n >= 0) v = rd_raw(r, (size_t)n);
    return v;
}

/* [string list]: checked, handed out raw (mote_wire_strings iterates). */
static mote_view rd_string_list(rd *r)
{
    const uint8_t *start = r->p;
    uint16_t n = rd_u16(r);
    if (n > rd_left(r) / 2) rd_fail(r, MOTE_ERR_BAD_LENGTH);
    for (uint32_t i = 0; i < n && !r->err; i++) rd_string(r);
    mote_view v = {NULL, 0};
    if (!r->err) {
        v.ptr = start;
        v.len = (size_t)(r->p - start);
    }
    return v;
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

#define NO_NODE UINT32_MAX

typedef struct opt_frame {
    uint32_t parent;   /* node index of the open collection */
    uint32_t prev;     /* its last child so far, or NO_NODE */
    uint16_t left;     /* children still to read */
    uint8_t udt;       /* each child is preceded by a field name */
} opt_frame;

static mote_err walk_option(rd *r, mote_cql_type *nodes, size_t cap, size_t *used,
                            unsigned maxdepth, bool build)
{
    opt_frame st[MOTE_WIRE_MAX_OPTION_DEPTH];
    unsigned depth = 0;
    if (maxdepth > MOTE_WIRE_MAX_OPTION_DEPTH) maxdepth = MOTE_WIRE_MAX_OPTION_DEPTH;
    size_t n = 0;
    mote_err e = MOTE_OK;
    do {
        if (depth && st[depth - 1].udt) rd_string(r);
        uint16_t id = rd_u16(r);
        if (r->err) return r->err;
        if (depth + 1 > maxdepth) return MOTE_ERR_DEPTH;
        int kind = id < sizeof option_kinds ? option_kinds[id] : 0;
        uint32_t nchild = 0;
        bool udt = false;
        size_t take = 1;
        mote_view custom = {NULL, 0};
        switch (id) {
        case 0x0000:
            custom = rd_string(r);
            break;
        case 0x0020:
            kind = MOTE_CQL_LIST;
            nchild = 1;
            break;
        case 0x0022:
            kind = MOTE_CQL_SET;
            nchild = 1;
            break;
        case 0x0021:
            kind = MOTE_CQL_MAP;
            nchild = 2;
            break;
        case 0x0030:
            rd_string(r);  /* keyspace */
            rd_string(r);  /* type name */
            udt = true;
            /* fall through */
        case 0x0031:
            kind = MOTE_CQL_TUPLE;
            nchild = rd_u16(r);
            /* each child takes at least its 2-byte id (and a UDT's name 2) */
            if (nchild > rd_left(r) / 2) rd_fail(r, MOTE_ERR_BAD_LENGTH);
            if (build && nchild == 0) rd_fail(r, MOTE_ERR_BAD_TYPE);
            break;
        default:
            if (!kind) rd_fail(r, MOTE_ERR_BAD_TYPE);
            break;
        }
        if (r->err) return r->err;
        if (build) {
            const mote_cql_type *sub = NULL;
            mote_cql_type *t = n < cap ? &nodes[n] : NULL;
            if (custom.ptr) {
                size_t k = 0;
                e = mote_cql_type_parse((const char *)custom.ptr, custom.len, t,
                                        t ? cap - n : 0, &k, &sub);
                if (e != MOTE_OK && e != MOTE_ERR_SPACE) return e;
                take = k;
            } else if (t) {
                t->kind = (uint8_t)kind;
                t->frozen = udt;
                t->nsub = (uint16_t)nchild;
                t->dim = 0;
                t->fixed = nchild ? -1 : mote_cql_kind_fixed(kind);
                t->sub = NULL;
                t->next = NULL;
            }
            if (depth && n < cap) {
                opt_frame *f = &st[depth - 1];
                if (f->prev == NO_NODE) {
                    nodes[f->parent].sub = &nodes[n];
                } else {
                    nodes[f->prev].next = &nodes[n];
                }
                f->prev = (uint32_t)n;
            }
            if (n > SIZE_MAX - take) return MOTE_ERR_OVERFLOW;
        }
        if (depth) st[depth - 1].left--;
        if (nchild) {
            st[depth].parent = (uint32_t)n;
            st[depth].prev = NO_NODE;
            st[depth].left = (uint16_t)nchild;
            st[depth].udt = udt;
            depth++;
        }
        n += take;
        while (depth && st[depth - 1].left == 0) depth--;
    } while (depth);
    if (used) *used = n;
    return n > cap && build ? MOTE_ERR_SPACE : MOTE_OK;
}

mote_err mote_wire_type(mote_view option, mote_cql_type *nodes, size_t cap, size_t *used,
                        const mote_cql_type **root)
{
    if (root) *root = NULL;
    if (used) *used = 0;
    if (!root || (!option.ptr && option.len) || (!nodes && cap)) return MOTE_ERR_INVALID;
    /* node indexes are kept in 32 bits */
    if (cap > UINT32_MAX - 1) cap = UINT32_MAX - 1;
    rd r;
    rd_init(&r, option.ptr, option.len);
    mote_err e = walk_option(&r, nodes, cap, used, MOTE_CQL_MAX_DEPTH, true);
    if (e == MOTE_OK) *root = &nodes[0];
    return e;
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
    for (size_t i = 0; i < nslots; i++) {
        slots[i].tag = 0;
        slots[i].next = i + 1 < nslots ? (int32_t)(i + 1) : -1;
        slots[i].busy = 0;
        slots[i].opcode = 0;
        slots[i].pad = 0;
    }
    w->free_head = 0;
    w->rx = rx;
    w->rx_cap = rx_cap;
    return MOTE_OK;
}

size_t mote_wire_inflight(const mote_wire *w)
{
    return w ? w->inflight : 0;
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

mote_err mote_wire_release(mote_wire *w, int stream)
{
    if (!w || stream < 0 || (uint32_t)stream >= w->nslots || !w->slots[stream].busy) {
        return MOTE_ERR_INVALID;
    }
    free_slot(w, stream);
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
    if (avail) *avail = 0;
    if (!w || !w->rx) return NULL;
    rx_settle(w);
    if (w->rx_pos) {
        memmove(w->rx, w->rx + w->rx_pos, w->rx_len - w->rx_pos);
        w->rx_len -= w->rx_pos;
        w->rx_pos = 0;
    }
    if (avail) *avail = w->rx_cap - w->rx_len;
    return w->rx + w->rx_len;
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
        if (!p || avail == 0) break;
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
    if ((uint32_t)s >= w->nslots || !w->slots[s].busy || f->opcode == MOTE_WIRE_EVENT) {
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
    f->version = h[0];
    f->flags = h[1];
    f->stream = (int16_t)mote_be_load16(h + 2);
    f->opcode = h[4];
    f->length = mote_be_load32(h + 5);
    if (f->version != (0x80 | MOTE_WIRE_VERSION) || f->length > MOTE_WIRE_MAX_BODY ||
        f->stream < MOTE_WIRE_EVENT_STREAM) {
        w->err = MOTE_ERR_PROTOCOL;
        return w->err;
    }
    if (f->length > w->rx_cap - MOTE_WIRE_HEADER) {
        /* Too big to hold: report it, free its stream, drop the body as it
         * comes (rx_settle), and carry on with the next frame. */
        match_stream(w, f);
        w->rx_pos += MOTE_WIRE_HEADER;
        w->skip = f->length;
        rx_settle(w);
        return MOTE_ERR_LIMIT;
    }
    if (avail - MOTE_WIRE_HEADER < f->length) return MOTE_ERR_NEED_MORE;
    w->rx_done = MOTE_WIRE_HEADER + (size_t)f->length;
    f->body.ptr = h + MOTE_WIRE_HEADER;
    f->body.len = f->length;
    mote_err e = match_stream(w, f);
    if (e) return e;
    if (f->flags & MOTE_WIRE_F_COMPRESSION) return MOTE_ERR_PROTOCOL;
    rd r;
    rd_init(&r, f->body.ptr, f->body.len);
    if (f->flags & MOTE_WIRE_F_TRACING) f->tracing_id = rd_raw(&r, 16);
    if (f->flags & MOTE_WIRE_F_WARNING) f->warnings = rd_string_list(&r);
    if (f->flags & MOTE_WIRE_F_PAYLOAD) {
        const uint8_t *start = r.p;
        uint16_t n = rd_u16(&r);
        /* each entry: [string] key (2+) and [bytes] value (4+) */
        if (n > rd_left(&r) / 6) rd_fail(&r, MOTE_ERR_BAD_LENGTH);
        for (uint32_t i = 0; i < n && !r.err; i++) {
            rd_string(&r);
            rd_bytes(&r);
        }
        if (!r.err) {
            f->payload.ptr = start;
            f->payload.len = (size_t)(r.p - start);
        }
    }
    if (r.err) {
        mote_view none = {NULL, 0};
        f->tracing_id = f->warnings = f->payload = none;
        return r.err;
    }
    f->body.ptr = r.p;
    f->body.len = (size_t)(r.end - r.p);
    return MOTE_OK;
}

/* ---- requests --------------------------------------------------------------- */

typedef struct wr {
    mote_buf *b;
    mote_err err;
} wr;

static void w_put(wr *o, const void *p, size_t n)
{
    if (o->err || n == 0) return;
    mote_err e = mote_buf_append(o->b, p, n);
    if (e) o->err = e;
}

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

static void w_u64(wr *o, uint64_t v)
{
    uint8_t b[8];
    mote_be_store64(b, v);
    w_put(o, b, 8);
}

/* [string] / [short bytes] (max 65535), [long string] / [bytes] (2^31-1). */
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

/* Frame header with the stream id the next take_slot will return. */
static void w_header(wr *o, const mote_wire *w, uint8_t op)
{
    uint8_t h[MOTE_WIRE_HEADER] = {MOTE_WIRE_VERSION, 0, 0, 0, op, 0, 0, 0, 0};
    mote_be_store16(h + 2, (uint16_t)w->free_head);
    w_put(o, h, sizeof h);
}

/* Patch the body length of the frame at start; OVERFLOW past the limit. */
static mote_err patch_length(mote_buf *b, size_t start)
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

/* Finish a one-shot request: patch, take the stream, or roll back. */
static mote_err finish(mote_wire *w, wr *o, size_t start, uint8_t op, uint64_t tag, int *stream)
{
    mote_err e = o->err ? o->err : patch_length(o->b, start);
    if (e) {
        o->b->len = start;
        return e;
    }
    int s = take_slot(w, tag, op);
    if (stream) *stream = s;
    return MOTE_OK;
}

/* STARTUP's body: {"CQL_VERSION": "3.0.0"} as a [string map]. */
static const uint8_t startup_body[] = {0, 1, 0, 11, 'C', 'Q', 'L', '_', 'V', 'E', 'R', 'S',
                                       'I', 'O', 'N', 0, 5, '3', '.', '0', '.', '0'};

/* A request whose body is one run of bytes: [type] 0 raw, 1 [bytes],
 * 2 [long string]. */
static mote_err simple(mote_wire *w, mote_buf *out, uint64_t tag, uint8_t op, int form,
                       const void *p, size_t n, int *stream)
{
    mote_err e = check_ctx(w, out);
    if (e) return e;
    if (!p && n) return MOTE_ERR_INVALID;
    wr o = {out, MOTE_OK};
    size_t start = out->len;
    w_header(&o, w, op);
    if (form == 0) {
        w_put(&o, p, n);
    } else if (form == 1 && !p) {
        w_u32(&o, UINT32_MAX);   /* null token */
    } else {
        w_long_str(&o, p, n);    /* [bytes] and [long string] share the layout */
    }
    return finish(w, &o, start, op, tag, stream);
}

mote_err mote_wire_startup(mote_wire *w, mote_buf *out, uint64_t tag, int *stream)
{
    return simple(w, out, tag, MOTE_WIRE_STARTUP, 0, startup_body, sizeof startup_body, stream);
}

mote_err mote_wire_options(mote_wire *w, mote_buf *out, uint64_t tag, int *stream)
{
    return simple(w, out, tag, MOTE_WIRE_OPTIONS, 0, NULL, 0, stream);
}

mote_err mote_wire_auth_response(mote_wire *w, mote_buf *out, uint64_t tag, const void *token,
                                 size_t n, int *stream)
{
    return simple(w, out, tag, MOTE_WIRE_AUTH_RESPONSE, 1, token, n, stream);
}

mote_err mote_wire_prepare(mote_wire *w, mote_buf *out, uint64_t tag, const char *cql,
                           size_t len, int *stream)
{
    if (!cql && !len) cql = "";
    return simple(w, out, tag, MOTE_WIRE_PREPARE, 2, cql, len, stream);
}

mote_err mote_wire_auth_plain(mote_wire *w, mote_buf *out, uint64_t tag, const char *user,
                              size_t ulen, const char *password, size_t plen, int *stream)
{
    mote_err e = check_ctx(w, out);
    if (e) return e;
    if ((!user && ulen) || (!password && plen)) return MOTE_ERR_INVALID;
    if (ulen > MOTE_CQL_MAX_LEN - 2 || plen > MOTE_CQL_MAX_LEN - 2 - ulen) {
        return MOTE_ERR_OVERFLOW;
    }
    wr o = {out, MOTE_OK};
    size_t start = out->len;
    w_header(&o, w, MOTE_WIRE_AUTH_RESPONSE);
    w_u32(&o, (uint32_t)(2 + ulen + plen));
    w_u8(&o, 0);
    w_put(&o, user, ulen);
    w_u8(&o, 0);
    w_put(&o, password, plen);
    return finish(w, &o, start, MOTE_WIRE_AUTH_RESPONSE, tag, stream);
}

mote_err mote_wire_register(mote_wire *w, mote_buf *out, uint64_t tag, const char *const *types,
                            size_t n, int *stream)
{
    mote_err e = check_ctx(w, out);
    if (e) return e;
    if (!types && n) return MOTE_ERR_INVALID;
    if (n > 0xffff) return MOTE_ERR_OVERFLOW;
    wr o = {out, MOTE_OK};
    size_t start = out->len;
    w_header(&o, w, MOTE_WIRE_REGISTER);
    w_u16(&o, (uint16_t)n);
    for (size_t i = 0; i < n; i++) {
        if (!types[i]) {
            o.err = MOTE_ERR_INVALID;
            break;
        }
        w_short_str(&o, types[i], strlen(types[i]));
    }
    return finish(w, &o, start, MOTE_WIRE_REGISTER, tag, stream);
}

/* ---- requests with values ------------------------------------------------- */

#define Q_VALUES 0x01
#define Q_SKIP_METADATA 0x02
#define Q_PAGE_SIZE 0x04
#define Q_PAGING_STATE 0x08
#define Q_SERIAL 0x10
#define Q_TIMESTAMP 0x20

static mote_err req_fail(mote_wire_req *r, mote_err e)
{
    if (!r->err) r->err = e;
    return r->err;
}

/* Common start: checks, header, stream taken. */
static mote_err req_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                          uint8_t op, const mote_wire_params *p)
{
    if (!r) return MOTE_ERR_INVALID;
    memset(r, 0, sizeof *r);
    r->stream = -1;
    r->value_at = SIZE_MAX;
    mote_err e = check_ctx(w, out);
    if (e) return r->err = e;
    if (p) {
        r->p = *p;
    } else {
        r->p.consistency = MOTE_WIRE_ONE;
    }
    if (!r->p.paging_state.ptr && r->p.paging_state.len) return r->err = MOTE_ERR_INVALID;
    r->w = w;
    r->out = out;
    r->opcode = op;
    r->start = out->len;
    wr o = {out, MOTE_OK};
    w_header(&o, w, op);
    if (o.err) {
        r->w = NULL;
        return r->err = o.err;
    }
    r->stream = take_slot(w, tag, op);
    return MOTE_OK;
}

/* After the statement: [consistency] <flags> [short] value count (QUERY,
 * EXECUTE). The values flag and the count are taken back at the end if no
 * value comes. */
static mote_err req_params_head(mote_wire_req *r, wr *o)
{
    uint8_t flags = Q_VALUES;
    if (r->p.skip_metadata) flags |= Q_SKIP_METADATA;
    if (r->p.page_size > 0) flags |= Q_PAGE_SIZE;
    if (r->p.paging_state.ptr) flags |= Q_PAGING_STATE;
    if (r->p.serial_consistency) flags |= Q_SERIAL;
    if (r->p.has_timestamp) flags |= Q_TIMESTAMP;
    w_u16(o, r->p.consistency);
    r->flags_at = r->out->len;
    w_u8(o, flags);
    r->count_at = r->out->len;
    w_u16(o, 0);
    if (o->err) {
        req_fail(r, o->err);
        mote_wire_abort(r);
    }
    return r->err;
}

mote_err mote_wire_query_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                               const char *cql, size_t len, const mote_wire_params *p)
{
    mote_err e = req_begin(r, w, out, tag, MOTE_WIRE_QUERY, p);
    if (e) return e;
    if (!cql && len) {
        req_fail(r, MOTE_ERR_INVALID);
        mote_wire_abort(r);
        return r->err;
    }
    wr o = {out, MOTE_OK};
    w_long_str(&o, cql, len);
    if (o.err) {
        req_fail(r, o.err);
        mote_wire_abort(r);
        return r->err;
    }
    return req_params_head(r, &o);
}

mote_err mote_wire_execute_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                                 const void *id, size_t idlen, const mote_wire_params *p)
{
    mote_err e = req_begin(r, w, out, tag, MOTE_WIRE_EXECUTE, p);
    if (e) return e;
    if (!id && idlen) {
        req_fail(r, MOTE_ERR_INVALID);
        mote_wire_abort(r);
        return r->err;
    }
    wr o = {out, MOTE_OK};
    w_short_str(&o, id, idlen);
    if (o.err) {
        req_fail(r, o.err);
        mote_wire_abort(r);
        return r->err;
    }
    return req_params_head(r, &o);
}

mote_err mote_wire_batch_begin(mote_wire_req *r, mote_wire *w, mote_buf *out, uint64_t tag,
                               int type, const mote_wire_params *p)
{
    if (p && (p->page_size || p->paging_state.ptr || p->paging_state.len || p->skip_metadata)) {
        if (r) {
            memset(r, 0, sizeof *r);
            r->stream = -1;
            r->err = MOTE_ERR_INVALID;
        }
        return MOTE_ERR_INVALID;
    }
    if (type < MOTE_WIRE_BATCH_LOGGED || type > MOTE_WIRE_BATCH_COUNTER) {
        if (r) {
            memset(r, 0, sizeof *r);
            r->stream = -1;
            r->err = MOTE_ERR_INVALID;
        }
        return MOTE_ERR_INVALID;
    }
    mote_err e = req_begin(r, w, out, tag, MOTE_WIRE_BATCH, p);
    if (e) return e;
    wr o = {out, MOTE_OK};
    w_u8(&o, (uint8_t)type);
    w_u16(&o, 0);            /* statement count, patched at the end */
    r->count_at = SIZE_MAX;  /* no statement yet */
    if (o.err) {
        req_fail(r, o.err);
        mote_wire_abort(r);
    }
    return r->err;
}

/* Write the value count of the statement that is complete. */
static void patch_count(mote_wire_req *r)
{
    if (r->count_at != SIZE_MAX) mote_be_store16(r->out->data + r->count_at, (uint16_t)r->nvalues);
}

static mote_err batch_stmt(mote_wire_req *r, uint8_t kind, const void *p, size_t n)
{
    if (!r) return MOTE_ERR_INVALID;
    if (r->err) return r->err;
    if (!r->w || r->opcode != MOTE_WIRE_BATCH) return req_fail(r, MOTE_ERR_STATE);
    if (r->value_at != SIZE_MAX) return req_fail(r, MOTE_ERR_STATE);
    if (!p && n) return req_fail(r, MOTE_ERR_INVALID);
    if (r->nstmts == 0xffff) return req_fail(r, MOTE_ERR_OVERFLOW);
    patch_count(r);
    wr o = {r->out, MOTE_OK};
    w_u8(&o, kind);
    if (kind == 0) {
        w_long_str(&o, p, n);
    } else {
        w_short_str(&o, p, n);
    }
    size_t at = r->out->len;
    w_u16(&o, 0);
    if (o.err) return req_fail(r, o.err);
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

/* May a value be added now? */
static mote_err value_ok(mote_wire_req *r)
{
    if (!r) return MOTE_ERR_INVALID;
    if (r->err) return r->err;
    if (!r->w || r->count_at == SIZE_MAX || r->value_at != SIZE_MAX) {
        return req_fail(r, MOTE_ERR_STATE);
    }
    if (r->nvalues == 0xffff) return req_fail(r, MOTE_ERR_OVERFLOW);
    return MOTE_OK;
}

/* [int] n then the value's bytes, reserved once. */
static mote_err put_value(mote_wire_req *r, int32_t n, const void *v, size_t len)
{
    mote_err e = value_ok(r);
    if (e) return e;
    mote_buf *b = r->out;
    e = mote_buf_reserve(b, 4 + len);
    if (e) return req_fail(r, e);
    uint8_t *d = b->data + b->len;
    mote_be_store32(d, (uint32_t)n);
    if (len) memcpy(d + 4, v, len);
    mote_buf_commit(b, 4 + len);
    r->nvalues++;
    return MOTE_OK;
}

mote_err mote_wire_value(mote_wire_req *r, const void *v, size_t n)
{
    if (r && !v && n) return req_fail(r, MOTE_ERR_INVALID);
    if (r && n > MOTE_CQL_MAX_LEN) return req_fail(r, MOTE_ERR_OVERFLOW);
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
    mote_err e = value_ok(r);
    if (e) return e;
    wr o = {r->out, MOTE_OK};
    size_t at = r->out->len;
    w_u32(&o, 0);
    if (o.err) return req_fail(r, o.err);
    r->value_at = at;
    return MOTE_OK;
}

mote_err mote_wire_value_close(mote_wire_req *r)
{
    if (!r) return MOTE_ERR_INVALID;
    if (r->err) return r->err;
    if (!r->w || r->value_at == SIZE_MAX || r->out->len < r->value_at + 4) {
        return req_fail(r, MOTE_ERR_STATE);
    }
    size_t n = r->out->len - r->value_at - 4;
    if (n > MOTE_CQL_MAX_LEN) return req_fail(r, MOTE_ERR_OVERFLOW);
    mote_be_store32(r->out->data + r->value_at, (uint32_t)n);
    r->value_at = SIZE_MAX;
    r->nvalues++;
    return MOTE_OK;
}

void mote_wire_abort(mote_wire_req *r)
{
    if (!r || !r->w) return;
    if (r->out->len > r->start) r->out->len = r->start;
    if (r->stream >= 0) free_slot(r->w, r->stream);
    r->w = NULL;
    r->stream = -1;
}

mote_err mote_wire_end(mote_wire_req *r, int *stream)
{
    if (!r) return MOTE_ERR_INVALID;
    if (!r->err && !r->w) r->err = MOTE_ERR_STATE;
    if (!r->err && r->value_at != SIZE_MAX) r->err = MOTE_ERR_STATE;
    if (!r->err && r->opcode == MOTE_WIRE_BATCH && r->nstmts == 0) r->err = MOTE_ERR_STATE;
    if (r->err) {
        mote_wire_abort(r);
        return r->err;
    }
    mote_buf *b = r->out;
    wr o = {b, MOTE_OK};
    if (r->opcode == MOTE_WIRE_BATCH) {
        patch_count(r);
        mote_be_store16(b->data + r->start + MOTE_WIRE_HEADER + 1, (uint16_t)r->nstmts);
        uint8_t flags = 0;
        if (r->p.serial_consistency) flags |= Q_SERIAL;
        if (r->p.has_timestamp) flags |= Q_TIMESTAMP;
        w_u16(&o, r->p.consistency);
        w_u8(&o, flags);
    } else {
        if (r->nvalues == 0) {
            /* nothing bound: no values flag, no count (the count is the
             * last thing written) */
            b->len = r->count_at;
            b->data[r->flags_at] &= (uint8_t)~Q_VALUES;
        } else {
            patch_count(r);
        }
        if (r->p.page_size > 0) w_u32(&o, (uint32_t)r->p.page_size);
        if (r->p.paging_state.ptr) w_long_str(&o, r->p.paging_state.ptr, r->p.paging_state.len);
    }
    if (r->p.serial_consistency) w_u16(&o, r->p.serial_consistency);
    if (r->p.has_timestamp) w_u64(&o, (uint64_t)r->p.timestamp);
    mote_err e = o.err ? o.err : patch_length(b, r->start);
    if (e) {
        req_fail(r, e);
        mote_wire_abort(r);
        return e;
    }
    if (stream) *stream = r->stream;
    r->w = NULL;
    return MOTE_OK;
}

/* ---- responses ------------------------------------------------------------ */

mote_err mote_wire_strings(mote_wire_list *it, mote_view raw)
{
    if (!it || (!raw.ptr && raw.len)) return MOTE_ERR_INVALID;
    it->p = it->end = raw.ptr;
    it->left = 0;
    if (raw.len == 0) return MOTE_OK;
    rd r;
    rd_init(&r, raw.ptr, raw.len);
    mote_view v = rd_string_list(&r);
    if (r.err) return r.err;
    it->p = raw.ptr + 2;
    it->end = v.ptr + v.len;
    it->left = mote_be_load16(raw.ptr);
    return MOTE_OK;
}

bool mote_wire_list_next(mote_wire_list *it, mote_view *s)
{
    if (!it || it->left == 0) return false;
    rd r;
    rd_init(&r, it->p, (size_t)(it->end - it->p));
    mote_view v = rd_string(&r);
    if (r.err) {
        it->left = 0;
        return false;
    }
    if (s) *s = v;
    it->p = r.p;
    it->left--;
    return true;
}

size_t mote_wire_list_count(const mote_wire_list *it)
{
    return it ? it->left : 0;
}

static mote_err body_of(const mote_wire_frame *f, uint8_t op, rd *r)
{
    if (!f || (!f->body.ptr && f->body.len)) return MOTE_ERR_INVALID;
    if (f->opcode != op) return MOTE_ERR_TYPE;
    rd_init(r, f->body.ptr, f->body.len);
    return MOTE_OK;
}

mote_err mote_wire_parse_authenticate(const mote_wire_frame *f, mote_view *authenticator)
{
    rd r;
    mote_err e = body_of(f, MOTE_WIRE_AUTHENTICATE, &r);
    if (e) return e;
    mote_view v = rd_string(&r);
    if (r.err) return r.err;
    if (authenticator) *authenticator = v;
    return MOTE_OK;
}

mote_err mote_wire_parse_auth_token(const mote_wire_frame *f, mote_view *token)
{
    rd r;
    mote_err e = body_of(f, MOTE_WIRE_AUTH_SUCCESS, &r);
    if (e == MOTE_ERR_TYPE) e = body_of(f, MOTE_WIRE_AUTH_CHALLENGE, &r);
    if (e) return e;
    mote_view v = rd_bytes(&r);
    if (r.err) return r.err;
    if (token) *token = v;
    return MOTE_OK;
}

mote_err mote_wire_parse_supported(const mote_wire_frame *f, mote_wire_multimap *m)
{
    rd r;
    mote_err e = body_of(f, MOTE_WIRE_SUPPORTED, &r);
    if (e) return e;
    if (!m) return MOTE_ERR_INVALID;
    uint16_t n = rd_u16(&r);
    const uint8_t *start = r.p;
    if (n > rd_left(&r) / 4) rd_fail(&r, MOTE_ERR_BAD_LENGTH);
    for (uint32_t i = 0; i < n && !r.err; i++) {
        rd_string(&r);
        rd_string_list(&r);
    }
    if (r.err) return r.err;
    m->p = start;
    m->end = r.p;
    m->left = n;
    return MOTE_OK;
}

bool mote_wire_multimap_next(mote_wire_multimap *m, mote_view *key, mote_wire_list *values)
{
    if (!m || m->left == 0) return false;
    rd r;
    rd_init(&r, m->p, (size_t)(m->end - m->p));
    mote_view k = rd_string(&r);
    mote_view l = rd_string_list(&r);
    if (r.err) {
        m->left = 0;
        return false;
    }
    if (key) *key = k;
    if (values) mote_wire_strings(values, l);
    m->p = r.p;
    m->left--;
    return true;
}

static bool view_is(mote_view v, const char *s)
{
    size_t n = strlen(s);
    return v.len == n && memcmp(v.ptr, s, n) == 0;
}

static void rd_schema_change(rd *r, mote_wire_schema_change *c)
{
    c->change = rd_string(r);
    c->target = rd_string(r);
    c->keyspace = rd_string(r);
    if (r->err || view_is(c->target, "KEYSPACE")) return;
    c->name = rd_string(r);
    if (view_is(c->target, "FUNCTION") || view_is(c->target, "AGGREGATE")) {
        c->arg_types = rd_string_list(r);
    }
}

/* Metadata: rows (prepared false) or a prepared statement's bind markers. */
static void rd_meta(rd *r, mote_wire_meta *m, bool bind)
{
    m->flags = (uint32_t)rd_i32(r);
    int32_t ncols = rd_i32(r);
    if (ncols < 0) rd_fail(r, MOTE_ERR_BAD_LENGTH);
    m->ncols = (uint32_t)ncols;
    if (bind) {
        int32_t npk = rd_i32(r);
        if (npk < 0 || (size_t)npk > rd_left(r) / 2) rd_fail(r, MOTE_ERR_BAD_LENGTH);
        if (r->err) return;
        m->npk = (uint32_t)npk;
        m->pk = r->p;
        r->p += (size_t)npk * 2;
        m->flags &= MOTE_WIRE_META_GLOBAL_SPEC;  /* the only flag bind metadata has */
    } else if (m->flags & MOTE_WIRE_META_MORE_PAGES) {
        m->paging_state = rd_bytes(r);
    }
    if (r->err || (m->flags & MOTE_WIRE_META_NO_METADATA)) return;
    bool global = m->flags & MOTE_WIRE_META_GLOBAL_SPEC;
    if (global) {
        m->keyspace = rd_string(r);
        m->table = rd_string(r);
    }
    /* a spec is at least a name (2) and an option id (2) */
    if (m->ncols > rd_left(r) / 4) rd_fail(r, MOTE_ERR_BAD_LENGTH);
    const uint8_t *start = r->p;
    for (uint32_t i = 0; i < m->ncols && !r->err; i++) {
        if (!global) {
            rd_string(r);
            rd_string(r);
        }
        rd_string(r);
        mote_err e = walk_option(r, NULL, 0, NULL, MOTE_WIRE_MAX_OPTION_DEPTH, false);
        if (e) rd_fail(r, e);
    }
    if (!r->err) {
        m->specs.ptr = start;
        m->specs.len = (size_t)(r->p - start);
    }
}

mote_err mote_wire_parse_result(const mote_wire_frame *f, mote_wire_result *res)
{
    rd r;
    mote_err e = body_of(f, MOTE_WIRE_RESULT, &r);
    if (e) return e;
    if (!res) return MOTE_ERR_INVALID;
    memset(res, 0, sizeof *res);
    res->kind = rd_i32(&r);
    switch (res->kind) {
    case MOTE_WIRE_RESULT_VOID:
        break;
    case MOTE_WIRE_RESULT_ROWS: {
        rd_meta(&r, &res->meta, false);
        int32_t nrows = rd_i32(&r);
        if (nrows < 0) rd_fail(&r, MOTE_ERR_BAD_LENGTH);
        if (r.err) break;
        res->nrows = (uint32_t)nrows;
        uint64_t cells = (uint64_t)res->meta.ncols * (uint64_t)nrows;
        if (cells > rd_left(&r) / 4) {
            rd_fail(&r, MOTE_ERR_BAD_LENGTH);
            break;
        }
        const uint8_t *start = r.p;
        for (uint64_t i = 0; i < cells && !r.err; i++) rd_bytes(&r);
        if (!r.err) {
            res->rows.ptr = start;
            res->rows.len = (size_t)(r.p - start);
        }
        break;
    }
    case MOTE_WIRE_RESULT_SET_KEYSPACE:
        res->keyspace = rd_string(&r);
        break;
    case MOTE_WIRE_RESULT_PREPARED:
        res->id = rd_string(&r);
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
    if (r.err) {
        int32_t kind = res->kind;
        memset(res, 0, sizeof *res);
        res->kind = kind;
    }
    return r.err;
}

int mote_wire_pk_index(const mote_wire_meta *m, size_t i)
{
    if (!m || i >= m->npk) return -1;
    return mote_be_load16(m->pk + 2 * i);
}

void mote_wire_columns(mote_wire_columns_it *it, const mote_wire_meta *m)
{
    if (!it) return;
    it->m = m;
    it->p = m ? m->specs.ptr : NULL;
    it->left = m && m->specs.ptr ? m->ncols : 0;
}

bool mote_wire_column_next(mote_wire_columns_it *it, mote_wire_column *c)
{
    if (!it || it->left == 0) return false;
    const mote_wire_meta *m = it->m;
    rd r;
    rd_init(&r, it->p, (size_t)(m->specs.ptr + m->specs.len - it->p));
    mote_wire_column col;
    memset(&col, 0, sizeof col);
    if (m->flags & MOTE_WIRE_META_GLOBAL_SPEC) {
        col.keyspace = m->keyspace;
        col.table = m->table;
    } else {
        col.keyspace = rd_string(&r);
        col.table = rd_string(&r);
    }
    col.name = rd_string(&r);
    const uint8_t *t = r.p;
    walk_option(&r, NULL, 0, NULL, MOTE_WIRE_MAX_OPTION_DEPTH, false);
    if (r.err) {
        it->left = 0;
        return false;
    }
    col.type.ptr = t;
    col.type.len = (size_t)(r.p - t);
    col.type_id = mote_be_load16(t);
    if (c) *c = col;
    it->p = r.p;
    it->left--;
    return true;
}

void mote_wire_cells_init(mote_wire_cells *it, const mote_wire_result *r)
{
    if (!it) return;
    memset(it, 0, sizeof *it);
    if (!r || r->kind != MOTE_WIRE_RESULT_ROWS || !r->rows.ptr) return;
    it->p = r->rows.ptr;
    it->end = r->rows.ptr + r->rows.len;
    it->ncols = r->meta.ncols;
    it->nrows = r->meta.ncols ? r->nrows : 0;
}

bool mote_wire_cell_next(mote_wire_cells *it, mote_view *cell, uint32_t *row, uint32_t *col)
{
    if (!it || it->row >= it->nrows) return false;
    rd r;
    rd_init(&r, it->p, (size_t)(it->end - it->p));
    mote_view v = rd_bytes(&r);
    if (r.err) {
        it->row = it->nrows;
        return false;
    }
    if (cell) *cell = v;
    if (row) *row = it->row;
    if (col) *col = it->col;
    it->p = r.p;
    if (++it->col == it->ncols) {
        it->col = 0;
        it->row++;
    }
    return true;
}

mote_err mote_wire_parse_error(const mote_wire_frame *f, mote_wire_error *e)
{
    rd r;
    mote_err err = body_of(f, MOTE_WIRE_ERROR, &r);
    if (err) return err;
    if (!e) return MOTE_ERR_INVALID;
    memset(e, 0, sizeof *e);
    e->code = rd_i32(&r);
    e->message = rd_string(&r);
    switch (e->code) {
    case MOTE_WIRE_E_UNAVAILABLE:
        e->consistency = rd_u16(&r);
        e->required = rd_i32(&r);
        e->alive = rd_i32(&r);
        break;
    case MOTE_WIRE_E_WRITE_TIMEOUT:
    case MOTE_WIRE_E_READ_TIMEOUT:
    case MOTE_WIRE_E_READ_FAILURE:
    case MOTE_WIRE_E_WRITE_FAILURE:
        e->consistency = rd_u16(&r);
        e->received = rd_i32(&r);
        e->blockfor = rd_i32(&r);
        if (e->code == MOTE_WIRE_E_READ_FAILURE || e->code == MOTE_WIRE_E_WRITE_FAILURE) {
            e->numfailures = rd_i32(&r);
        }
        if (e->code == MOTE_WIRE_E_WRITE_TIMEOUT || e->code == MOTE_WIRE_E_WRITE_FAILURE) {
            e->write_type = rd_string(&r);
        } else {
            e->data_present = rd_u8(&r) != 0;
        }
        break;
    case MOTE_WIRE_E_FUNCTION_FAILURE:
        e->keyspace = rd_string(&r);
        e->function = rd_string(&r);
        e->arg_types = rd_string_list(&r);
        break;
    case MOTE_WIRE_E_ALREADY_EXISTS:
        e->keyspace = rd_string(&r);
        e->table = rd_string(&r);
        break;
    case MOTE_WIRE_E_UNPREPARED:
        e->id = rd_string(&r);
        break;
    default:
        break;
    }
    if (r.err) {
        int32_t code = e->code;
        memset(e, 0, sizeof *e);
        e->code = code;
    }
    return r.err;
}

bool mote_wire_error_retryable(int32_t code)
{
    return code == MOTE_WIRE_E_OVERLOADED || code == MOTE_WIRE_E_IS_BOOTSTRAPPING ||
           code == MOTE_WIRE_E_UNAVAILABLE || code == MOTE_WIRE_E_WRITE_TIMEOUT ||
           code == MOTE_WIRE_E_READ_TIMEOUT;
}

mote_err mote_wire_parse_event(const mote_wire_frame *f, mote_wire_event *ev)
{
    rd r;
    mote_err e = body_of(f, MOTE_WIRE_EVENT, &r);
    if (e) return e;
    if (!ev) return MOTE_ERR_INVALID;
    memset(ev, 0, sizeof *ev);
    ev->type = rd_string(&r);
    if (view_is(ev->type, "TOPOLOGY_CHANGE") || view_is(ev->type, "STATUS_CHANGE")) {
        ev->change = rd_string(&r);
        uint8_t n = rd_u8(&r);
        if (!r.err && n != 4 && n != 16) rd_fail(&r, MOTE_ERR_BAD_LENGTH);
        ev->address = rd_raw(&r, n);
        ev->port = rd_i32(&r);
    } else if (view_is(ev->type, "SCHEMA_CHANGE")) {
        rd_schema_change(&r, &ev->schema);
    }
    if (r.err) memset(ev, 0, sizeof *ev);
    return r.err;
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
    uint64_t h1, h2;
    uint64_t total;
    uint8_t buf[16];
    unsigned nbuf;
} mm3;

#define MM_C1 0x87c37b91114253d5ull
#define MM_C2 0x4cf5ad432745937full

static uint64_t rotl64(uint64_t v, unsigned n)
{
    return (v << n) | (v >> (64 - n));
}

static uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
}

static uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static void mm3_block(mm3 *m, const uint8_t *p)
{
    uint64_t k1 = load_le64(p), k2 = load_le64(p + 8);
    k1 *= MM_C1;
    k1 = rotl64(k1, 31);
    k1 *= MM_C2;
    m->h1 ^= k1;
    m->h1 = rotl64(m->h1, 27);
    m->h1 += m->h2;
    m->h1 = m->h1 * 5 + 0x52dce729;
    k2 *= MM_C2;
    k2 = rotl64(k2, 33);
    k2 *= MM_C1;
    m->h2 ^= k2;
    m->h2 = rotl64(m->h2, 31);
    m->h2 += m->h1;
    m->h2 = m->h2 * 5 + 0x38495ab5;
}

static void mm3_update(mm3 *m, const uint8_t *p, size_t n)
{
    m->total += n;
    if (m->nbuf) {
        while (n && m->nbuf < 16) {
            m->buf[m->nbuf++] = *p++;
            n--;
        }
        if (m->nbuf < 16) return;
        mm3_block(m, m->buf);
        m->nbuf = 0;
    }
    for (; n >= 16; n -= 16, p += 16) mm3_block(m, p);
    memcpy(m->buf, p, n);
    m->nbuf = (unsigned)n;
}

static int64_t mm3_token(mm3 *m)
{
    uint64_t k1 = 0, k2 = 0;
    for (unsigned i = m->nbuf; i-- > 0;) {
        /* the Java quirk: (long) of a signed byte */
        uint64_t b = (uint64_t)(int64_t)(int8_t)m->buf[i];
        if (i >= 8) {
            k2 ^= b << (8 * (i - 8));
        } else {
            k1 ^= b << (8 * i);
        }
    }
    if (m->nbuf > 8) {
        k2 *= MM_C2;
        k2 = rotl64(k2, 33);
        k2 *= MM_C1;
        m->h2 ^= k2;
    }
    if (m->nbuf) {
        k1 *= MM_C1;
        k1 = rotl64(k1, 31);
        k1 *= MM_C2;
        m->h1 ^= k1;
    }
    m->h1 ^= m->total;
    m->h2 ^= m->total;
    m->h1 += m->h2;
    m->h2 += m->h1;
    m->h1 = fmix64(m->h1);
    m->h2 = fmix64(m->h2);
    m->h1 += m->h2;
    /* Murmur3Partitioner keeps INT64_MIN for the minimum token (also the
     * token of an empty key) */
    int64_t t = (int64_t)m->h1;
    return t == INT64_MIN ? INT64_MAX : t;
}

int64_t mote_wire_token(const void *key, size_t len)
{
    if (len == 0 || !key) return INT64_MIN;
    mm3 m;
    memset(&m, 0, sizeof m);
    mm3_update(&m, key, len);
    return mm3_token(&m);
}

mote_err mote_wire_token_parts(const mote_view *parts, size_t n, int64_t *token)
{
    if (!token || !parts || n == 0) return MOTE_ERR_INVALID;
    for (size_t i = 0; i < n; i++) {
        if (!parts[i].ptr && parts[i].len) return MOTE_ERR_INVALID;
        if (n > 1 && parts[i].len > 0xffff) return MOTE_ERR_OVERFLOW;
    }
    if (n == 1) {
        *token = mote_wire_token(parts[0].ptr, parts[0].len);
        return MOTE_OK;
    }
    mm3 m;
    memset(&m, 0, sizeof m);
    for (size_t i = 0; i < n; i++) {
        uint8_t len[2], zero = 0;
        mote_be_store16(len, (uint16_t)parts[i].len);
        mm3_update(&m, len, 2);
        if (parts[i].len) mm3_update(&m, parts[i].ptr, parts[i].len);
        mm3_update(&m, &zero, 1);
    }
    *token = mm3_token(&m);
    return MOTE_OK;
}
