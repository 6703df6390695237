/*
 * fuzz_wire_build.c - the CQL v4 request builder (mote/wire.h), driven by a
 * program read from the input against a model of what it must write.
 *
 * Input: byte 0 picks the stream slots (1..4) and out (a fixed buffer of
 * 0..2047 bytes, or one that grows through an arena); the rest is a list of
 * operations on two request structs: begin (QUERY, EXECUTE, BATCH; with no
 * parameters, or with parameters decoded from the next bytes: consistency,
 * serial consistency, timestamp, page size, paging state, skip_metadata,
 * tracing, the batch type, good and bad ones), batch statements, values
 * (bytes, null, unset, open + bytes the caller appends + close), end, abort,
 * and between requests REGISTER (an event bit set, good or bad) and a reset
 * of out or of the wire.
 * Properties:
 *  - a begin that fails appends nothing and takes no stream; one that
 *    succeeds takes one;
 *  - a begin with parameters the spec gives no meaning to (a consistency
 *    past LOCAL_ONE, a serial consistency other than 0, SERIAL or
 *    LOCAL_SERIAL, has_timestamp with a negative timestamp, a paging state
 *    NULL with a length, and for BATCH a page size, paging state,
 *    skip_metadata or a type outside the enum) is MOTE_ERR_INVALID (LIMIT
 *    only when no stream is free), and good ones never are;
 *  - REGISTER: a bad event set (none, or a bit outside EVENT_ALL) is
 *    MOTE_ERR_INVALID and writes nothing; a good one appends one REGISTER
 *    frame (flags 0, the stream returned) whose body is the [string list] of
 *    the event names asked for, in bit order, and takes a stream; any
 *    failure leaves out and the streams as they were;
 *  - after the first error every call of that request returns it;
 *  - end that fails, and abort, leave out as it was before begin (also the
 *    bytes the caller appended after a failure) and give the stream back;
 *  - end that succeeds leaves one frame: header (version 4, the tracing
 *    flag as asked, the stream end returned, the opcode, the body length),
 *    and a body that parses back to exactly the statements, values and
 *    parameters the model holds (flags byte, then page size, paging state,
 *    serial consistency, timestamp, in the spec's order);
 *  - end or abort on a closed request touches nothing (out and streams).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mote/arena.h"
#include "mote/wire.h"

#define MAXV 8   /* values per statement kept in the model */
#define MAXS 4   /* statements per batch kept in the model */

typedef struct mval {
    int32_t len;        /* -1 null, -2 unset, else the byte count */
    uint8_t b[24];      /* its bytes (all the same: the operation's argument) */
} mval;

typedef struct mstmt {
    uint8_t kind;       /* 0 query text, 1 prepared id */
    uint8_t text[16];
    size_t tlen;
    mval v[MAXV];
    size_t nv;
} mstmt;

typedef struct mreq {
    mote_wire_req r;
    enum { NONE, OPEN, CLOSED } st;
    uint8_t op;
    size_t start;       /* out->len before begin */
    mote_err err;       /* the sticky error seen, or 0 */
    bool took;          /* begin took a stream */
    bool overflow;      /* more values or statements than the model holds */
    mstmt s[MAXS];
    size_t ns;
    mote_wire_params p; /* as given to begin (NULL: consistency ONE) */
    uint8_t btype;      /* BATCH type given */
    uint8_t ps[16];     /* the paging state's bytes (p.paging_state points here) */
} mreq;

static void check(bool c)
{
    if (!c) abort();
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* The values of statement s at *p (below end), as the model has them. */
static const uint8_t *check_values(const mstmt *s, const uint8_t *p, const uint8_t *end)
{
    check(end - p >= 2 && be16(p) == s->nv);
    p += 2;
    for (size_t i = 0; i < s->nv; i++) {
        check(end - p >= 4);
        const int32_t n = (int32_t)be32(p);
        p += 4;
        check(n == s->v[i].len);
        if (n > 0) {
            check(end - p >= n && memcmp(p, s->v[i].b, (size_t)n) == 0);
            p += n;
        }
    }
    return p;
}

static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

/* The parameters after the values: page size, paging state (not in a
 * BATCH), serial consistency, timestamp, as flags says, up to end. */
static void check_tail(const mreq *m, uint8_t flags, const uint8_t *p, const uint8_t *end)
{
    const mote_wire_params *q = &m->p;
    if (flags & 0x04) {
        check(end - p >= 4 && (int32_t)be32(p) == q->page_size);
        p += 4;
    }
    if (flags & 0x08) {
        check(end - p >= 4 && be32(p) == q->paging_state.len);
        p += 4;
        check((size_t)(end - p) >= q->paging_state.len &&
              memcmp(p, q->paging_state.ptr, q->paging_state.len) == 0);
        p += q->paging_state.len;
    }
    if (flags & 0x10) {
        check(end - p >= 2 && be16(p) == q->serial_consistency);
        p += 2;
    }
    if (flags & 0x20) {
        check(end - p >= 8 && (int64_t)be64(p) == q->timestamp);
        p += 8;
    }
    check(p == end);
}

/* The frame of a request that ended well: [start, out->len). */
static void check_frame(const mreq *m, const mote_buf *out, int stream)
{
    const uint8_t *f = out->data + m->start, *end = out->data + out->len;
    const mote_wire_params *q = &m->p;
    check(end - f >= MOTE_WIRE_HEADER);
    check(f[0] == 0x04 && f[1] == (q->tracing ? MOTE_WIRE_F_TRACING : 0) &&
          be16(f + 2) == (uint16_t)stream && f[4] == m->op);
    check(be32(f + 5) == (uint32_t)(end - f - MOTE_WIRE_HEADER));
    const uint8_t *p = f + MOTE_WIRE_HEADER;
    /* flags the parameters set (the values flag aside) */
    uint8_t want = (uint8_t)((q->serial_consistency ? 0x10 : 0) | (q->has_timestamp ? 0x20 : 0));
    if (m->op == MOTE_WIRE_BATCH) {
        check(end - p >= 3 && p[0] == m->btype && be16(p + 1) == m->ns);
        p += 3;
        for (size_t i = 0; i < m->ns; i++) {
            const mstmt *s = &m->s[i];
            check(end - p >= 1 && *p == s->kind);
            p++;
            const size_t hl = s->kind ? 2 : 4;
            check((size_t)(end - p) >= hl + s->tlen);
            check((s->kind ? be16(p) : be32(p)) == s->tlen && memcmp(p + hl, s->text, s->tlen) == 0);
            p += hl + s->tlen;
            p = check_values(s, p, end);
        }
        check(end - p >= 3 && be16(p) == q->consistency && p[2] == want);
        check_tail(m, p[2], p + 3, end);
        return;
    }
    const mstmt *s = &m->s[0];
    const size_t hl = m->op == MOTE_WIRE_QUERY ? 4 : 2;
    check((size_t)(end - p) >= hl + s->tlen + 3);
    check((hl == 4 ? be32(p) : be16(p)) == s->tlen && memcmp(p + hl, s->text, s->tlen) == 0);
    p += hl + s->tlen;
    check(be16(p) == q->consistency);
    const uint8_t flags = p[2];
    p += 3;
    want |= (uint8_t)((s->nv ? 0x01 : 0) | (q->skip_metadata ? 0x02 : 0) |
                      (q->page_size > 0 ? 0x04 : 0) | (q->paging_state.ptr ? 0x08 : 0));
    check(flags == want);
    if (s->nv) p = check_values(s, p, end);
    check_tail(m, flags, p, end);
}

/* Byte j of the input, 0 past its end. */
static uint8_t byte_at(const uint8_t *data, size_t size, size_t j)
{
    return j < size ? data[j] : 0;
}

/* Parameters for a begin from the five bytes at b (see the cases below);
 * returns whether the builder must refuse them (MOTE_ERR_INVALID). */
static bool decode_params(mreq *q, const uint8_t b[5])
{
    static const uint16_t bad_consistency[8] = {0x000B, 0x000C, 0x00FF, 0x0100,
                                                0x010A, 0x7FFF, 0x8000, 0xFFFF};
    static const uint16_t bad_serial[8] = {0x0001, 0x0003, 0x0007, 0x000A,
                                           0x0108, 0x0109, 0x8008, 0xFFFF};
    mote_wire_params *p = &q->p;
    memset(p, 0, sizeof *p);
    bool bad = false;
    /* b[0]: 0x01 tracing, 0x02 skip_metadata, 0x04 has_timestamp, 0x08 a
     * paging state of b[4] & 15 bytes, 0x10 (without 0x08) a NULL one with
     * a length, 0x60 the batch type (3: none), 0x80 page size (int8) b[4] */
    p->tracing = b[0] & 0x01;
    p->skip_metadata = b[0] & 0x02;
    p->has_timestamp = b[0] & 0x04;
    if (b[0] & 0x08) {
        memset(q->ps, 'p' + (b[4] >> 4), sizeof q->ps);
        p->paging_state.ptr = q->ps;
        p->paging_state.len = b[4] & 15u;
    } else if (b[0] & 0x10) {
        p->paging_state.len = 1 + (b[4] & 7u);
        bad = true;
    }
    q->btype = (uint8_t)(b[0] >> 5 & 3u);
    if (b[0] & 0x80) p->page_size = (int8_t)b[4];
    /* b[1]: a consistency, ANY..LOCAL_ONE or (0x80) one past it */
    if (b[1] & 0x80) {
        p->consistency = bad_consistency[b[1] & 7u];
        bad = true;
    } else {
        p->consistency = (uint16_t)(b[1] % 11u);
    }
    /* b[2]: none, SERIAL, LOCAL_SERIAL or (0x80) another value */
    if (b[2] & 0x80) {
        p->serial_consistency = bad_serial[b[2] & 7u];
        bad = true;
    } else {
        p->serial_consistency = (uint16_t)(b[2] % 3u ? MOTE_WIRE_SERIAL + b[2] % 3u - 1 : 0);
    }
    /* b[3]: the timestamp, negative for 0x80..0xff (the extremes at 0x80 and
     * 0x7f) */
    p->timestamp = b[3] == 0x80 ? INT64_MIN
                   : b[3] == 0x7f ? INT64_MAX
                                  : (int64_t)(int8_t)b[3] * 1000000007;
    if (p->has_timestamp && p->timestamp < 0) bad = true;
    return bad;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    static mote_wire_slot slots[4];
    static uint8_t rx[64];
    static uint8_t fixed[2048];
    static uint8_t block[1 << 16];
    const size_t nslots = 1 + (data[0] & 3u);
    mote_wire w;
    check(mote_wire_init(&w, slots, nslots, rx, sizeof rx) == MOTE_OK);
    mote_arena arena;
    mote_buf out;
    const bool grows = data[0] & 4u;
    if (grows) {
        check(mote_arena_init(&arena, block, sizeof block, NULL, NULL) == MOTE_OK);
        check(mote_buf_init_arena(&out, &arena, 0) == MOTE_OK);
    } else {
        check(mote_buf_init_fixed(&out, fixed, ((size_t)(data[0] >> 3) << 6 | data[1]) % sizeof fixed) ==
              MOTE_OK);
    }
    static mreq m[2];
    memset(m, 0, sizeof m);
    size_t inflight = 0;
    for (size_t i = 2; i < size; i++) {
        const uint8_t op = data[i];
        mreq *q = &m[op & 1u];
        const uint8_t arg = i + 1 < size ? data[i + 1] : 0;
        const size_t len0 = out.len;
        mote_err e;
        const unsigned kind = (op >> 1) % 16;
        switch (kind) {
        case 0: case 1: case 2:    /* begin QUERY / EXECUTE / BATCH */
        case 13: case 14: case 15: { /* the same, with parameters */
            if (m[0].st == OPEN || m[1].st == OPEN) break; /* one open request per out */
            i++;
            memset(q, 0, sizeof *q);
            const unsigned k = kind % 13;
            q->op = k == 0 ? MOTE_WIRE_QUERY : k == 1 ? MOTE_WIRE_EXECUTE : MOTE_WIRE_BATCH;
            q->start = out.len;
            mstmt *s = &q->s[0];
            s->tlen = arg & 15u;
            memset(s->text, 'a' + (arg >> 4), s->tlen);
            s->kind = k == 1;
            const mote_wire_params *pp = NULL;
            bool bad = false;
            q->p.consistency = MOTE_WIRE_ONE; /* what NULL stands for */
            q->btype = MOTE_WIRE_BATCH_UNLOGGED;
            if (kind >= 13) {
                uint8_t b[5];
                for (size_t j = 0; j < 5; j++) b[j] = byte_at(data, size, i + 1 + j);
                i += 5;
                bad = decode_params(q, b);
                if (k == 2)
                    bad = bad || q->btype > MOTE_WIRE_BATCH_COUNTER || q->p.page_size ||
                          q->p.paging_state.ptr || q->p.skip_metadata;
                pp = &q->p;
            }
            e = k == 0   ? mote_wire_query_begin(&q->r, &w, &out, arg, (const char *)s->text, s->tlen, pp)
                : k == 1 ? mote_wire_execute_begin(&q->r, &w, &out, arg, s->text, s->tlen, pp)
                         : mote_wire_batch_begin(&q->r, &w, &out, arg, (mote_wire_batch_type)q->btype, pp);
            q->ns = k == 2 ? 0 : 1;
            q->st = OPEN;
            /* bad parameters: INVALID (LIMIT if no stream is free); good
             * ones never INVALID */
            if (bad) check(e == MOTE_ERR_INVALID || (e == MOTE_ERR_LIMIT && inflight == nslots));
            else check(e != MOTE_ERR_INVALID);
            if (e) {
                check(out.len == len0 && mote_wire_inflight(&w) == inflight);
                q->err = e;
            } else {
                check(out.len > len0 && mote_wire_inflight(&w) == ++inflight);
                q->took = true;
            }
            break;
        }
        case 12: { /* REGISTER, between requests */
            if (m[0].st == OPEN || m[1].st == OPEN) break;
            i++;
            /* arg: event bits 0..7 (0: none), and for 0x28..0x38 in bits
             * 3..5 a bit outside EVENT_ALL */
            static const unsigned extra[8] = {0, 0, 0, 0, 0, 0x08, 0x100, 0x80000000u};
            const unsigned ev = (arg & 7u) | extra[arg >> 3 & 7u];
            const bool bad = ev == 0 || ev > MOTE_WIRE_EVENT_ALL;
            int stream = -5;
            e = mote_wire_register(&w, &out, arg, ev, &stream);
            if (bad) check(e == MOTE_ERR_INVALID || (e == MOTE_ERR_LIMIT && inflight == nslots));
            else check(e != MOTE_ERR_INVALID);
            if (e) {
                check(out.len == len0 && mote_wire_inflight(&w) == inflight);
                break;
            }
            check(mote_wire_inflight(&w) == ++inflight);
            check(stream >= 0 && (size_t)stream < nslots);
            static const char *const names[3] = {"TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE"};
            const uint8_t *f = out.data + len0, *end = out.data + out.len;
            check(end - f >= MOTE_WIRE_HEADER + 2);
            check(f[0] == 0x04 && f[1] == 0 && be16(f + 2) == (uint16_t)stream && f[4] == MOTE_WIRE_REGISTER);
            check(be32(f + 5) == (uint32_t)(end - f - MOTE_WIRE_HEADER));
            const uint8_t *p = f + MOTE_WIRE_HEADER;
            check(be16(p) == (uint16_t)((ev & 1) + (ev >> 1 & 1) + (ev >> 2 & 1)));
            p += 2;
            for (unsigned b = 0; b < 3; b++) {
                if (!(ev >> b & 1)) continue;
                const size_t n = strlen(names[b]);
                check((size_t)(end - p) >= 2 + n && be16(p) == n && memcmp(p + 2, names[b], n) == 0);
                p += 2 + n;
            }
            check(p == end);
            break;
        }
        case 3: { /* a batch statement */
            if (q->st != OPEN) break;
            i++;
            mstmt *s = q->ns < MAXS ? &q->s[q->ns] : NULL;
            uint8_t text[16];
            const size_t tl = arg & 15u;
            memset(text, 'A' + (arg >> 4), tl);
            e = (arg & 0x80) ? mote_wire_batch_prepared(&q->r, text, tl)
                             : mote_wire_batch_query(&q->r, (const char *)text, tl);
            if (q->err) {
                check(e == q->err);
            } else if (q->op != MOTE_WIRE_BATCH) {
                check(e == MOTE_ERR_STATE);
                q->err = e;
            } else if (e) {
                q->err = e;
            } else if (!s) {
                q->overflow = true;
            } else {
                memset(s, 0, sizeof *s);
                s->kind = (arg & 0x80) != 0;
                s->tlen = tl;
                memcpy(s->text, text, tl);
                q->ns++;
            }
            break;
        }
        case 4: case 5: case 6: case 7: { /* a value: bytes, null, unset, open + append + close */
            if (q->st != OPEN) break;
            i++;
            const unsigned k = kind - 4;
            mval v = {0, {0}};
            v.len = k == 1 ? -1 : k == 2 ? -2 : (int32_t)(arg % 25u);
            if (v.len > 0) memset(v.b, arg, (size_t)v.len);
            if (k == 3) {
                e = mote_wire_value_open(&q->r);
                if (q->err) check(e == q->err);
                /* the caller's encoder appends whether or not open worked
                 * (a full fixed out: nothing, an empty value) */
                if (mote_buf_append(&out, v.b, (size_t)v.len) != MOTE_OK) v.len = 0;
                const mote_err c = mote_wire_value_close(&q->r);
                if (e || q->err) check(c == (q->err ? q->err : e));
                if (!q->err && (e || c)) q->err = e ? e : c;
                e = e ? e : c;
            } else {
                e = k == 0 ? mote_wire_value(&q->r, v.b, (size_t)v.len)
                    : k == 1 ? mote_wire_value_null(&q->r)
                             : mote_wire_value_unset(&q->r);
                if (q->err) check(e == q->err);
                else if (e) q->err = e;
            }
            if (!e && !q->err) {
                mstmt *s = q->ns ? &q->s[q->ns - 1] : NULL;
                check(s != NULL); /* a batch value before a statement is STATE */
                if (s->nv < MAXV) s->v[s->nv++] = v;
                else q->overflow = true;
            }
            break;
        }
        case 8: case 9: { /* end */
            int stream = -5;
            e = mote_wire_end(&q->r, &stream);
            if (q->st != OPEN) {
                check(e != MOTE_OK && out.len == len0 && mote_wire_inflight(&w) == inflight);
                break;
            }
            q->st = CLOSED;
            if (q->err) check(e == q->err);
            if (e) {
                check(out.len == q->start);
                check(mote_wire_inflight(&w) == inflight - q->took); /* the stream back */
                inflight -= q->took;
            } else {
                check(!q->err && stream >= 0 && out.len > q->start);
                check(mote_wire_inflight(&w) == inflight);
                if (!q->overflow) check_frame(q, &out, stream);
            }
            break;
        }
        case 10: { /* abort */
            mote_wire_abort(&q->r);
            if (q->st == OPEN) {
                check(out.len == q->start);
                check(mote_wire_inflight(&w) == inflight - q->took);
                inflight -= q->took;
                q->st = CLOSED;
            } else {
                check(out.len == len0 && mote_wire_inflight(&w) == inflight);
            }
            break;
        }
        default: /* 11, between requests: out emptied, or every stream given back */
            if (m[0].st == OPEN || m[1].st == OPEN) break;
            if (op & 0x80) {
                mote_buf_clear(&out);
            } else {
                check(mote_wire_init(&w, slots, nslots, rx, sizeof rx) == MOTE_OK);
                inflight = 0;
            }
            break;
        }
    }
    /* what is still open is dropped */
    for (size_t k = 0; k < 2; k++)
        if (m[k].st == OPEN) {
            mote_wire_abort(&m[k].r);
            check(out.len == m[k].start);
        }
    return 0;
}
