/*
 * fuzz_wire_build.c - the CQL v4 request builder (mote/wire.h), driven by a
 * program read from the input against a model of what it must write.
 *
 * Input: byte 0 picks the stream slots (1..4) and out (a fixed buffer of
 * 0..2047 bytes, or one that grows through an arena); the rest is a list of
 * operations on two request structs: begin (QUERY, EXECUTE, BATCH), batch
 * statements, values (bytes, null, unset, open + bytes the caller appends +
 * close), end, abort, and between requests a reset of out or of the wire.
 * Properties:
 *  - a begin that fails appends nothing and takes no stream; one that
 *    succeeds takes one;
 *  - after the first error every call of that request returns it;
 *  - end that fails, and abort, leave out as it was before begin (also the
 *    bytes the caller appended after a failure) and give the stream back;
 *  - end that succeeds leaves one frame: header (version 4, the stream end
 *    returned, the opcode, the body length), and a body that parses back to
 *    exactly the statements and values the model holds;
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

/* The frame of a request that ended well: [start, out->len). */
static void check_frame(const mreq *m, const mote_buf *out, int stream)
{
    const uint8_t *f = out->data + m->start, *end = out->data + out->len;
    check(end - f >= MOTE_WIRE_HEADER);
    check(f[0] == 0x04 && f[1] == 0 && be16(f + 2) == (uint16_t)stream && f[4] == m->op);
    check(be32(f + 5) == (uint32_t)(end - f - MOTE_WIRE_HEADER));
    const uint8_t *p = f + MOTE_WIRE_HEADER;
    if (m->op == MOTE_WIRE_BATCH) {
        check(end - p >= 3 && be16(p + 1) == m->ns);
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
        check(end - p == 3 && be16(p) == MOTE_WIRE_ONE && p[2] == 0); /* consistency, flags */
        return;
    }
    const mstmt *s = &m->s[0];
    const size_t hl = m->op == MOTE_WIRE_QUERY ? 4 : 2;
    check((size_t)(end - p) >= hl + s->tlen + 3);
    check((hl == 4 ? be32(p) : be16(p)) == s->tlen && memcmp(p + hl, s->text, s->tlen) == 0);
    p += hl + s->tlen;
    check(be16(p) == MOTE_WIRE_ONE);
    const uint8_t flags = p[2];
    p += 3;
    if (s->nv) {
        check(flags == 0x01);
        p = check_values(s, p, end);
    } else {
        check(flags == 0);
    }
    check(p == end);
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
        const unsigned kind = (op >> 1) % 12;
        switch (kind) {
        case 0: case 1: case 2: { /* begin QUERY / EXECUTE / BATCH */
            if (m[0].st == OPEN || m[1].st == OPEN) break; /* one open request per out */
            i++;
            memset(q, 0, sizeof *q);
            const unsigned k = kind;
            q->op = k == 0 ? MOTE_WIRE_QUERY : k == 1 ? MOTE_WIRE_EXECUTE : MOTE_WIRE_BATCH;
            q->start = out.len;
            mstmt *s = &q->s[0];
            s->tlen = arg & 15u;
            memset(s->text, 'a' + (arg >> 4), s->tlen);
            s->kind = k == 1;
            e = k == 0   ? mote_wire_query_begin(&q->r, &w, &out, arg, (const char *)s->text, s->tlen, NULL)
                : k == 1 ? mote_wire_execute_begin(&q->r, &w, &out, arg, s->text, s->tlen, NULL)
                         : mote_wire_batch_begin(&q->r, &w, &out, arg, MOTE_WIRE_BATCH_UNLOGGED, NULL);
            q->ns = k == 2 ? 0 : 1;
            q->st = OPEN;
            if (e) {
                check(out.len == len0 && mote_wire_inflight(&w) == inflight);
                q->err = e;
            } else {
                check(out.len > len0 && mote_wire_inflight(&w) == ++inflight);
                q->took = true;
            }
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
        default: /* between requests: out emptied, or every stream given back */
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
