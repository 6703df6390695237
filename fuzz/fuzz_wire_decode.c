/*
 * fuzz_wire_decode.c - the CQL v4 response decoder (mote/wire.h).
 *
 * Input: byte 0 picks the feeding (chunk size 1..16 from the low bits) and
 * the receive buffer (64, 256, 1024 or 8192 bytes); the rest is a byte
 * stream of response frames. All 64 stream ids are in flight, with tag =
 * 1000 + stream. Properties:
 *  - the frames (result code, stream, opcode, length, tag, body bytes) are
 *    the same fed in chunks into the small buffer and fed at once into a
 *    buffer of the whole input, except that frames too big for the small
 *    buffer come out as LIMIT there with the same header, and the byte
 *    stream stays in sync after them;
 *  - every view a parser hands out lies inside the frame body; an
 *    UNKNOWN_STREAM frame has its body as any other (tag 0);
 *  - a parsed Rows result yields exactly rows x columns cells (no rows
 *    without columns), its column specs all iterate, and their types
 *    convert or fail with a listed code; more pages come with a paging
 *    state; a Prepared result's partition-key indexes name bind markers;
 *  - the parsers also run on the input itself as a body of each opcode.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mote/wire.h"

#define NSLOTS 64
#define MAXF 512

typedef struct rec {
    mote_err e;
    int16_t stream;
    uint8_t opcode;
    uint32_t length;
    uint64_t tag;
    const uint8_t *body;   /* into a private copy */
    size_t blen;
} rec;

static const uint8_t *lo, *hi;   /* the body being parsed */

static void in_body(mote_view v)
{
    if (!v.ptr) {
        if (v.len) abort();
        return;
    }
    if (v.ptr < lo || v.ptr + v.len > hi || v.ptr + v.len < v.ptr) abort();
}

static void check_list(mote_view raw)
{
    in_body(raw);
    mote_wire_list l;
    if (mote_wire_strings(&l, raw)) abort();   /* parsers hand out checked lists */
    mote_view s;
    size_t n = mote_wire_list_count(&l), k = 0;
    while (mote_wire_list_next(&l, &s)) {
        in_body(s);
        k++;
    }
    if (k != n) abort();
}

static void check_schema(const mote_wire_schema_change *c)
{
    in_body(c->change);
    in_body(c->target);
    in_body(c->keyspace);
    in_body(c->name);
    check_list(c->arg_types);
}

static void check_meta(const mote_wire_meta *m)
{
    in_body(m->paging_state);
    in_body(m->keyspace);
    in_body(m->table);
    in_body(m->specs);
    /* a partition-key index names a bind marker */
    if (m->npk > m->ncols) abort();
    for (size_t i = 0; i < m->npk; i++) {
        int k = mote_wire_pk_index(m, i);
        if (k < 0 || (uint32_t)k >= m->ncols) abort();
    }
    /* more pages come with a paging state (empty, but not null) */
    if ((m->flags & MOTE_WIRE_META_MORE_PAGES) && !m->paging_state.ptr) abort();
    mote_wire_columns_it it;
    mote_wire_column c;
    if (mote_wire_columns(&it, m) != MOTE_OK) abort();
    uint32_t k = 0;
    while (mote_wire_column_next(&it, &c)) {
        in_body(c.keyspace);
        in_body(c.table);
        in_body(c.name);
        in_body(c.type);
        mote_cql_type nodes[16];
        const mote_cql_type *t;
        size_t used = 0;
        mote_err e = mote_wire_type(c.type, nodes, 16, &used, &t);
        if (e == MOTE_OK) {
            if (!t || used == 0 || used > 16) abort();
            char txt[256];
            size_t tn = 0;
            mote_err fe = mote_cql_type_format(t, txt, sizeof txt, &tn);
            if (fe != MOTE_OK && fe != MOTE_ERR_SPACE) abort();
        } else if (e != MOTE_ERR_BAD_TYPE && e != MOTE_ERR_DEPTH && e != MOTE_ERR_SPACE &&
                   e != MOTE_ERR_OVERFLOW) {
            abort();   /* TRUNCATED/BAD_LENGTH cannot happen on a checked option */
        }
        k++;
    }
    if (m->specs.ptr && k != m->ncols) abort();
}

static void parse_all(uint8_t opcode, const uint8_t *body, size_t len)
{
    mote_wire_frame f;
    memset(&f, 0, sizeof f);
    f.opcode = opcode;
    f.body.ptr = body;
    f.body.len = len;
    lo = body;
    hi = body + len;
    mote_view v;
    switch (opcode) {
    case MOTE_WIRE_AUTHENTICATE:
        if (!mote_wire_parse_authenticate(&f, &v)) in_body(v);
        break;
    case MOTE_WIRE_AUTH_CHALLENGE:
    case MOTE_WIRE_AUTH_SUCCESS:
        if (!mote_wire_parse_auth_token(&f, &v)) in_body(v);
        break;
    case MOTE_WIRE_SUPPORTED: {
        mote_wire_multimap m;
        if (mote_wire_parse_supported(&f, &m)) break;
        mote_wire_list l;
        while (mote_wire_multimap_next(&m, &v, &l)) {
            in_body(v);
            while (mote_wire_list_next(&l, &v)) in_body(v);
        }
        break;
    }
    case MOTE_WIRE_RESULT: {
        mote_wire_result r;
        if (mote_wire_parse_result(&f, &r)) break;
        check_meta(&r.meta);
        check_meta(&r.bind);
        in_body(r.id);
        in_body(r.keyspace);
        in_body(r.rows);
        check_schema(&r.change);
        mote_wire_cells c;
        /* a result of another kind has no cells (and says so) */
        mote_err ce = mote_wire_cells_init(&c, &r);
        if (ce != (r.kind == MOTE_WIRE_RESULT_ROWS ? MOTE_OK : MOTE_ERR_TYPE)) abort();
        if (ce) break; /* c was not written */
        uint64_t n = 0;
        uint32_t row, col;
        while (mote_wire_cell_next(&c, &v, &row, &col)) {
            in_body(v);
            if (row != n / r.meta.ncols || col != n % r.meta.ncols) abort();
            n++;
        }
        /* (rows without columns are refused: nrows is 0 then) */
        if (r.kind == MOTE_WIRE_RESULT_ROWS && n != (uint64_t)r.nrows * r.meta.ncols) abort();
        if (r.kind == MOTE_WIRE_RESULT_ROWS && !r.meta.ncols && r.nrows) abort();
        break;
    }
    case MOTE_WIRE_ERROR: {
        mote_wire_error e;
        if (mote_wire_parse_error(&f, &e)) break;
        in_body(e.message);
        in_body(e.write_type);
        in_body(e.keyspace);
        in_body(e.table);
        in_body(e.function);
        in_body(e.id);
        check_list(e.arg_types);
        break;
    }
    case MOTE_WIRE_EVENT: {
        mote_wire_event e;
        if (mote_wire_parse_event(&f, &e)) break;
        in_body(e.type);
        in_body(e.change);
        in_body(e.address);
        if (e.address.ptr && e.address.len != 4 && e.address.len != 16) abort();
        check_schema(&e.schema);
        break;
    }
    default:
        break;
    }
}

static void start(mote_wire *w, mote_wire_slot *slots, uint8_t *rx, size_t cap)
{
    static uint8_t scratch[NSLOTS * 16];
    if (mote_wire_init(w, slots, NSLOTS, rx, cap)) abort();
    mote_buf b;
    if (mote_buf_init_fixed(&b, scratch, sizeof scratch)) abort();
    for (int i = 0; i < NSLOTS; i++) {
        int s;
        if (mote_wire_options(w, &b, 1000 + (uint64_t)i, &s) || s != i) abort();
    }
}

/* Run the stream through w, chunk bytes at a time; records into out. */
static size_t run(mote_wire *w, const uint8_t *p, size_t n, size_t chunk, rec *out,
                  uint8_t *copies, size_t *copied)
{
    size_t nrec = 0, fed = 0;
    for (;;) {
        mote_wire_frame f;
        mote_err e = mote_wire_next(w, &f);
        if (e == MOTE_ERR_NEED_MORE) {
            if (fed == n) break;
            size_t c = n - fed < chunk ? n - fed : chunk;
            size_t took = mote_wire_feed(w, p + fed, c);
            if (took == 0) abort();   /* NEED_MORE means there is room */
            fed += took;
            continue;
        }
        if (nrec == MAXF) break;
        rec *r = &out[nrec++];
        r->e = e;
        r->stream = f.stream;
        r->opcode = f.opcode;
        r->length = f.length;
        r->tag = f.tag;
        r->body = copies + *copied;
        r->blen = f.body.len;
        /* an UNKNOWN_STREAM frame is filled as any other (tag 0) */
        if (e == MOTE_ERR_UNKNOWN_STREAM && (f.tag || f.req_opcode)) abort();
        if (e == MOTE_OK || e == MOTE_ERR_UNKNOWN_STREAM) {
            if (f.body.len && f.body.ptr + f.body.len != w->rx + w->rx_pos + w->rx_done) abort();
            /* the whole body: the prefixes are in it too */
            hi = f.body.ptr + f.body.len;
            lo = hi - f.length;
            if (f.flags & MOTE_WIRE_F_WARNING) check_list(f.warnings);
            memcpy(copies + *copied, f.body.ptr, f.body.len);
            *copied += f.body.len;
            parse_all(f.opcode, f.body.ptr, f.body.len);
        }
        /* a bad header is sticky (a compressed frame is not): nothing more
         * comes. (Reads the private field; the header says which is which.) */
        if (e == MOTE_ERR_PROTOCOL && w->err) break;
    }
    return nrec;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    static const size_t caps[4] = {64, 256, 1024, 8192};
    size_t chunk = 1 + (data[0] & 15);
    size_t cap = caps[(data[0] >> 4) & 3];
    const uint8_t *p = data + 1;
    size_t n = size - 1;

    /* the parsers on the raw input, as each opcode's body */
    static const uint8_t ops[] = {MOTE_WIRE_ERROR, MOTE_WIRE_AUTHENTICATE, MOTE_WIRE_SUPPORTED,
                                  MOTE_WIRE_RESULT, MOTE_WIRE_EVENT, MOTE_WIRE_AUTH_SUCCESS};
    for (size_t i = 0; i < sizeof ops; i++) parse_all(ops[i], p, n);

    static mote_wire_slot s1[NSLOTS], s2[NSLOTS];
    static rec r1[MAXF], r2[MAXF];
    uint8_t *rx1 = malloc(cap), *rx2 = malloc(n + MOTE_WIRE_HEADER);
    uint8_t *c1 = malloc(n + 1), *c2 = malloc(n + 1);
    if (!rx1 || !rx2 || !c1 || !c2) abort();
    mote_wire w1, w2;
    start(&w1, s1, rx1, cap);
    start(&w2, s2, rx2, n + MOTE_WIRE_HEADER);
    size_t k1 = 0, k2 = 0;
    size_t n1 = run(&w1, p, n, chunk, r1, c1, &k1);
    size_t n2 = run(&w2, p, n, n ? n : 1, r2, c2, &k2);
    /* The big buffer holds every frame the input holds whole; a LIMIT
     * there is a header whose length runs past the end of the input. */
    size_t m = n1 < n2 ? n1 : n2;
    for (size_t i = 0; i < m; i++) {
        if (r1[i].stream != r2[i].stream || r1[i].opcode != r2[i].opcode ||
            r1[i].length != r2[i].length)
            abort();
        if (r2[i].e == MOTE_ERR_LIMIT && r2[i].length <= n) abort();
        if (r1[i].e == MOTE_ERR_LIMIT || r2[i].e == MOTE_ERR_LIMIT) {
            if (r1[i].e == MOTE_ERR_LIMIT && r1[i].length <= cap - MOTE_WIRE_HEADER) abort();
            continue;
        }
        if (r1[i].e != r2[i].e || r1[i].tag != r2[i].tag || r1[i].blen != r2[i].blen) abort();
        if ((r1[i].e == MOTE_OK || r1[i].e == MOTE_ERR_UNKNOWN_STREAM) &&
            memcmp(r1[i].body, r2[i].body, r1[i].blen) != 0)
            abort();
    }
    /* a LIMIT comes with the header, before the body: one side may report
     * one for a last frame that never completes, the other nothing */
    if (n1 == n2 + 1 && r1[n2].e == MOTE_ERR_LIMIT) n1--;
    if (n2 == n1 + 1 && r2[n1].e == MOTE_ERR_LIMIT) n2--;
    if (n1 != n2 && n1 < MAXF && n2 < MAXF) abort();
    free(rx1);
    free(rx2);
    free(c1);
    free(c2);
    return 0;
}
