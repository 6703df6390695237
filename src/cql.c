/*
 * cql.c - CQL collection encoders and decoders (see mote/cql.h).
 *
 * Hot paths (lists and vectors of int32/int64/float/double) size the output
 * in O(1), write the header and hand the body to one byte-swap kernel
 * (cql_simd.c). Everything else walks elements one at a time with every
 * length checked against the bytes that remain before it is used.
 */
#include "mote/cql.h"
#include "mote/be.h"

#include <string.h>

#define MAXL MOTE_CQL_MAX_LEN

/* ---- vints --------------------------------------------------------------- */

size_t mote_cql_uvint_size(uint64_t v)
{
    /* n <= 8 bytes hold 7n value bits: the first byte spends n-1 one-bits
     * and a zero on the length, leaving 8-n, plus 8 per extra byte. Nine
     * bytes (first byte all ones) hold all 64. */
    size_t n = 1;
    while (n < 9 && (v >> (7 * n)) != 0) n++;
    return n;
}

size_t mote_cql_uvint_put(uint8_t *out, uint64_t v)
{
    size_t n = mote_cql_uvint_size(v);
    size_t extra = n - 1;
    for (size_t i = n; i-- > 1;) {
        out[i] = (uint8_t)v;
        v >>= 8;
    }
    /* First byte: 'extra' one-bits, then the top bits of the value. For 9
     * bytes the first byte is all ones and the value is in the other 8. */
    uint8_t prefix = (uint8_t)(0xff00u >> extra);
    out[0] = extra == 8 ? 0xff : (uint8_t)(prefix | (uint8_t)v);
    return n;
}

mote_err mote_cql_uvint_get(const uint8_t *in, size_t len, uint64_t *v, size_t *used)
{
    if (len == 0) return MOTE_ERR_TRUNCATED;
    uint8_t b0 = in[0];
    size_t extra = 0;
    while (extra < 8 && (b0 & (0x80u >> extra))) extra++;
    if (len < extra + 1) return MOTE_ERR_TRUNCATED;
    uint64_t r = extra == 8 ? 0 : (uint64_t)(b0 & (0xffu >> (extra + 1)));
    for (size_t i = 1; i <= extra; i++) r = (r << 8) | in[i];
    if (mote_cql_uvint_size(r) != extra + 1) return MOTE_ERR_BAD_VINT;
    *v = r;
    *used = extra + 1;
    return MOTE_OK;
}

size_t mote_cql_vint_put(uint8_t *out, int64_t v)
{
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0);
    return mote_cql_uvint_put(out, u);
}

mote_err mote_cql_vint_get(const uint8_t *in, size_t len, int64_t *v, size_t *used)
{
    uint64_t u;
    mote_err e = mote_cql_uvint_get(in, len, &u, used);
    if (e) return e;
    uint64_t r = (u >> 1) ^ (0 - (u & 1));
    memcpy(v, &r, sizeof r); /* two's complement reinterpretation */
    return MOTE_OK;
}

/* ---- per-kind facts -------------------------------------------------------- */

/* Wire width of a native fixed-width value, or -1 (variable: a view). */
static int32_t wire_width(int kind)
{
    switch (kind) {
    case MOTE_CQL_BOOLEAN:
    case MOTE_CQL_TINYINT: return 1;
    case MOTE_CQL_SMALLINT: return 2;
    case MOTE_CQL_INT:
    case MOTE_CQL_DATE:
    case MOTE_CQL_FLOAT: return 4;
    case MOTE_CQL_BIGINT:
    case MOTE_CQL_COUNTER:
    case MOTE_CQL_TIMESTAMP:
    case MOTE_CQL_TIME:
    case MOTE_CQL_DOUBLE: return 8;
    case MOTE_CQL_UUID:
    case MOTE_CQL_TIMEUUID: return 16;
    default: return -1;
    }
}

static bool valid_kind(int kind)
{
    return kind >= MOTE_CQL_ASCII && kind <= MOTE_CQL_VECTOR;
}

/* Size of one element of the caller's C array for this kind. */
static size_t csize(int kind)
{
    int32_t w = wire_width(kind);
    return w > 0 ? (size_t)w : sizeof(mote_view);
}

static bool is_collection(int kind)
{
    return kind >= MOTE_CQL_LIST;
}

/* Fixed wire width of an element type node for list/set/map/tuple purposes
 * (the native width), or -1. */
static int32_t node_width(const mote_cql_type *t)
{
    return wire_width(t->kind);
}

/* Checks a view element of a variable kind on the way out. */
static mote_err check_view_out(int kind, const mote_view *v)
{
    if (v->len > MAXL) return MOTE_ERR_OVERFLOW;
    if (kind == MOTE_CQL_INET && v->len != 4 && v->len != 16) return MOTE_ERR_MISMATCH;
    return MOTE_OK;
}

/* Writes element i of a native array as its wire bytes. */
static void put_native(int kind, uint8_t *dst, const uint8_t *src)
{
    switch (wire_width(kind)) {
    case 1:
        dst[0] = kind == MOTE_CQL_BOOLEAN ? (uint8_t)(src[0] != 0) : src[0];
        return;
    case 2: {
        uint16_t v;
        memcpy(&v, src, 2);
        mote_be_store16(dst, v);
        return;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, src, 4);
        mote_be_store32(dst, v);
        return;
    }
    case 8: {
        uint64_t v;
        memcpy(&v, src, 8);
        mote_be_store64(dst, v);
        return;
    }
    default:
        memcpy(dst, src, 16); /* uuid bytes are already in wire order */
        return;
    }
}

/* Reads a native value of exactly its width into dst. */
static mote_err get_native(int kind, uint8_t *dst, const uint8_t *p, size_t len)
{
    int32_t w = wire_width(kind);
    if (len != (size_t)w) return MOTE_ERR_MISMATCH;
    switch (w) {
    case 1:
        if (kind == MOTE_CQL_BOOLEAN && p[0] > 1) return MOTE_ERR_MISMATCH;
        dst[0] = p[0];
        return MOTE_OK;
    case 2: {
        uint16_t v = mote_be_load16(p);
        memcpy(dst, &v, 2);
        return MOTE_OK;
    }
    case 4: {
        uint32_t v = mote_be_load32(p);
        memcpy(dst, &v, 4);
        return MOTE_OK;
    }
    case 8: {
        uint64_t v = mote_be_load64(p);
        memcpy(dst, &v, 8);
        return MOTE_OK;
    }
    default:
        memcpy(dst, p, 16);
        return MOTE_OK;
    }
}

/* Packed vector body of n native values of width w (host order in src). */
static void put_packed(int kind, uint8_t *dst, const uint8_t *src, size_t n)
{
    int32_t w = wire_width(kind);
#if MOTE_BE_HOST_LITTLE
    if (w == 4) {
        mote__cql_bswap32(dst, src, n, MOTE_CQL_SIMD_BEST);
        return;
    }
    if (w == 8) {
        mote__cql_bswap64(dst, src, n, MOTE_CQL_SIMD_BEST);
        return;
    }
#elif MOTE_BE_HOST_BIG
    if (w == 4 || w == 8) {
        memcpy(dst, src, n * (size_t)w);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) put_native(kind, dst + i * (size_t)w, src + i * (size_t)w);
}

static bool get_packed(int kind, uint8_t *dst, const uint8_t *src, size_t n)
{
    int32_t w = wire_width(kind);
#if MOTE_BE_HOST_LITTLE
    if (w == 4) {
        mote__cql_bswap32(dst, src, n, MOTE_CQL_SIMD_BEST);
        return true;
    }
    if (w == 8) {
        mote__cql_bswap64(dst, src, n, MOTE_CQL_SIMD_BEST);
        return true;
    }
#elif MOTE_BE_HOST_BIG
    if (w == 4 || w == 8) {
        memcpy(dst, src, n * (size_t)w);
        return true;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        if (get_native(kind, dst + i * (size_t)w, src + i * (size_t)w, (size_t)w)) return false;
    }
    return true;
}

/* Copies n bytes. Short strings (keys, names, ids) are the common case in
 * collections: two overlapping fixed-size copies beat a library call. Reads
 * and writes stay within [src, src+n) and [dst, dst+n). */
static inline void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n > 16 && n <= 32) {
        uint64_t a[2], b[2];
        memcpy(a, src, 16);
        memcpy(b, src + n - 16, 16);
        memcpy(dst, a, 16);
        memcpy(dst + n - 16, b, 16);
    } else if (n >= 8 && n <= 16) {
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + n - 4, &b, 4);
    } else if (n < 4) {
        for (size_t i = 0; i < n; i++) dst[i] = src[i];
    } else {
        memcpy(dst, src, n);
    }
}

/* ---- sizing ---------------------------------------------------------------- */

/* Bytes a list/set body element takes: 4 + value length. */
static mote_err list_body_size(int kind, const void *v, size_t n, size_t *size)
{
    if (n > MAXL) return MOTE_ERR_OVERFLOW;
    int32_t w = wire_width(kind);
    if (w > 0) {
        /* n <= 2^31-1 and 4 + w <= 20: the product fits any size_t >= 32 bits
         * only if checked; use the helper. */
        size_t s;
        if (!mote_size_mul(n, 4 + (size_t)w, &s)) return MOTE_ERR_OVERFLOW;
        *size = s;
        return MOTE_OK;
    }
    const mote_view *views = (const mote_view *)v;
    size_t s = 0;
    for (size_t i = 0; i < n; i++) {
        /* The server refuses null elements in collections. */
        if (!views[i].ptr) return MOTE_ERR_UNEXPECTED_NULL;
        mote_err e = check_view_out(kind, &views[i]);
        if (e) return e;
        if (!mote_size_add(s, 4 + views[i].len, &s) || s > MAXL) return MOTE_ERR_OVERFLOW;
    }
    *size = s;
    return MOTE_OK;
}

static mote_err need_array(int kind, const void *v, size_t n)
{
    if (!valid_kind(kind)) return MOTE_ERR_TYPE;
    if (!v && n > 0) return MOTE_ERR_INVALID;
    return MOTE_OK;
}

mote_err mote_cql_list_size(int kind, const void *v, size_t n, size_t *size)
{
    mote_err e = need_array(kind, v, n);
    if (e) return e;
    size_t s;
    e = list_body_size(kind, v, n, &s);
    if (e) return e;
    if (!mote_size_add(s, 4, &s) || s > MAXL) return MOTE_ERR_OVERFLOW;
    if (size) *size = s;
    return MOTE_OK;
}

/* Vector size with the element's fixed length under the vector rule (-1:
 * vint-prefixed elements). */
static mote_err vector_size(int kind, int32_t fixed, const void *v, size_t n, size_t *size)
{
    if (n == 0) return MOTE_ERR_DIMENSION;
    if (n > MAXL) return MOTE_ERR_OVERFLOW;
    size_t s = 0;
    int32_t w = wire_width(kind);
    if (fixed >= 0 && w >= 0) {
        if (!mote_size_mul(n, (size_t)fixed, &s) || s > MAXL) return MOTE_ERR_OVERFLOW;
    } else if (w > 0) {
        /* native kind without a fixed vector length: 1-byte vint + value */
        if (!mote_size_mul(n, 1 + (size_t)w, &s) || s > MAXL) return MOTE_ERR_OVERFLOW;
    } else {
        const mote_view *views = (const mote_view *)v;
        for (size_t i = 0; i < n; i++) {
            if (!views[i].ptr) return MOTE_ERR_UNEXPECTED_NULL;
            mote_err e = check_view_out(kind, &views[i]);
            if (e) return e;
            size_t add;
            if (fixed >= 0) {
                if (views[i].len != (size_t)fixed) return MOTE_ERR_MISMATCH;
                add = views[i].len;
            } else {
                add = mote_cql_uvint_size(views[i].len) + views[i].len;
            }
            if (!mote_size_add(s, add, &s) || s > MAXL) return MOTE_ERR_OVERFLOW;
        }
    }
    *size = s;
    return MOTE_OK;
}

mote_err mote_cql_vector_size(int kind, const void *v, size_t n, size_t *size)
{
    mote_err e = need_array(kind, v, n);
    if (e) return e;
    if (kind == MOTE_CQL_VECTOR) return MOTE_ERR_TYPE; /* needs the inner type */
    size_t s;
    e = vector_size(kind, mote_cql_kind_fixed(kind), v, n, &s);
    if (e) return e;
    if (size) *size = s;
    return MOTE_OK;
}

static mote_err map_size(int kk, const void *k, int vk, const void *v, size_t n, size_t *size)
{
    size_t ks, vs, s;
    mote_err e = list_body_size(kk, k, n, &ks);
    if (e) return e;
    e = list_body_size(vk, v, n, &vs);
    if (e) return e;
    if (!mote_size_add(ks, vs, &s) || !mote_size_add(s, 4, &s) || s > MAXL)
        return MOTE_ERR_OVERFLOW;
    *size = s;
    return MOTE_OK;
}

mote_err mote_cql_map_size(int kkind, const void *k, int vkind, const void *v, size_t n,
                           size_t *size)
{
    mote_err e = need_array(kkind, k, n);
    if (!e) e = need_array(vkind, v, n);
    if (e) return e;
    size_t s;
    e = map_size(kkind, k, vkind, v, n, &s);
    if (e) return e;
    if (size) *size = s;
    return MOTE_OK;
}

/* ---- encoding ---------------------------------------------------------------- */

/* Writes n list/set body elements (no count). Sizes already checked. */
static uint8_t *put_list_body(int kind, uint8_t *p, const void *v, size_t n)
{
    int32_t w = wire_width(kind);
    const uint8_t *src = (const uint8_t *)v;
    if (w == 4) {
        mote__cql_list_put32(p, src, n, MOTE_CQL_SIMD_BEST);
        return p + n * 8;
    }
    if (w == 8) {
        mote__cql_list_put64(p, src, n, MOTE_CQL_SIMD_BEST);
        return p + n * 12;
    }
    if (w > 0) {
        for (size_t i = 0; i < n; i++) {
            mote_be_store32(p, (uint32_t)w);
            put_native(kind, p + 4, src + i * (size_t)w);
            p += 4 + (size_t)w;
        }
        return p;
    }
    const mote_view *views = (const mote_view *)v; /* none null: sized first */
    for (size_t i = 0; i < n; i++) {
        mote_be_store32(p, (uint32_t)views[i].len);
        copy_bytes(p + 4, views[i].ptr, views[i].len);
        p += 4 + views[i].len;
    }
    return p;
}

/* Writes one [bytes] element of a kind's C array slot; returns the end. */
static uint8_t *put_one(int kind, int32_t w, uint8_t *p, const uint8_t *src)
{
    if (w > 0) {
        mote_be_store32(p, (uint32_t)w);
        put_native(kind, p + 4, src);
        return p + 4 + w;
    }
    mote_view view; /* never null: sized first */
    memcpy(&view, src, sizeof view);
    mote_be_store32(p, (uint32_t)view.len);
    copy_bytes(p + 4, view.ptr, view.len);
    return p + 4 + view.len;
}

static mote_err out_ok(uint8_t *out, size_t cap, size_t need, size_t *written)
{
    if (written) *written = need;
    if (!out && cap > 0) return MOTE_ERR_INVALID;
    if (need > cap) return MOTE_ERR_SPACE;
    return MOTE_OK;
}

mote_err mote_cql_encode_list(int kind, const void *v, size_t n, uint8_t *out, size_t cap,
                              size_t *written)
{
    if (written) *written = 0;
    size_t need;
    mote_err e = mote_cql_list_size(kind, v, n, &need);
    if (e) return e;
    e = out_ok(out, cap, need, written);
    if (e) return e;
    mote_be_store32(out, (uint32_t)n);
    put_list_body(kind, out + 4, v, n);
    return MOTE_OK;
}

static mote_err encode_vector(int kind, int32_t fixed, const void *v, size_t n, uint8_t *out,
                              size_t cap, size_t *written)
{
    if (written) *written = 0;
    size_t need;
    mote_err e = vector_size(kind, fixed, v, n, &need);
    if (e) return e;
    e = out_ok(out, cap, need, written);
    if (e) return e;
    int32_t w = wire_width(kind);
    const uint8_t *src = (const uint8_t *)v;
    if (w > 0 && fixed >= 0) {
        put_packed(kind, out, src, n);
    } else if (w > 0) {
        uint8_t *p = out;
        for (size_t i = 0; i < n; i++) {
            *p++ = (uint8_t)w; /* widths 1..8 are one-byte vints */
            put_native(kind, p, src + i * (size_t)w);
            p += w;
        }
    } else {
        const mote_view *views = (const mote_view *)v;
        uint8_t *p = out;
        for (size_t i = 0; i < n; i++) {
            if (fixed < 0) p += mote_cql_uvint_put(p, views[i].len);
            copy_bytes(p, views[i].ptr, views[i].len);
            p += views[i].len;
        }
    }
    return MOTE_OK;
}

mote_err mote_cql_encode_vector(int kind, const void *v, size_t n, uint8_t *out, size_t cap,
                                size_t *written)
{
    if (written) *written = 0;
    mote_err e = need_array(kind, v, n);
    if (e) return e;
    if (kind == MOTE_CQL_VECTOR) return MOTE_ERR_TYPE;
    return encode_vector(kind, mote_cql_kind_fixed(kind), v, n, out, cap, written);
}

mote_err mote_cql_encode_map(int kkind, const void *k, int vkind, const void *v, size_t n,
                             uint8_t *out, size_t cap, size_t *written)
{
    if (written) *written = 0;
    size_t need;
    mote_err e = mote_cql_map_size(kkind, k, vkind, v, n, &need);
    if (e) return e;
    e = out_ok(out, cap, need, written);
    if (e) return e;
    mote_be_store32(out, (uint32_t)n);
    uint8_t *p = out + 4;
    size_t kc = csize(kkind), vc = csize(vkind);
    int32_t kw = wire_width(kkind), vw = wire_width(vkind);
    const uint8_t *ks = (const uint8_t *)k, *vs = (const uint8_t *)v;
    /* Keys and values interleave, so each element is written in place (no
     * per-element kernel dispatch). */
    for (size_t i = 0; i < n; i++) {
        p = put_one(kkind, kw, p, ks + i * kc);
        p = put_one(vkind, vw, p, vs + i * vc);
    }
    return MOTE_OK;
}

/* Reserves need bytes in b and returns its tail (or the error). */
static mote_err buf_room(mote_buf *b, size_t need, uint8_t **tail)
{
    if (!b) return MOTE_ERR_INVALID;
    mote_err e = mote_buf_reserve(b, need);
    if (e) return e;
    size_t avail = 0;
    *tail = mote_buf_tail(b, &avail);
    return (avail >= need && (*tail || need == 0)) ? MOTE_OK : MOTE_ERR_NOMEM;
}

mote_err mote_cql_encode_list_buf(mote_buf *b, int kind, const void *v, size_t n)
{
    size_t need, w;
    uint8_t *tail;
    mote_err e = mote_cql_list_size(kind, v, n, &need);
    if (!e) e = buf_room(b, need, &tail);
    if (!e) e = mote_cql_encode_list(kind, v, n, tail, need, &w);
    if (!e) mote_buf_commit(b, w);
    return e;
}

mote_err mote_cql_encode_vector_buf(mote_buf *b, int kind, const void *v, size_t n)
{
    size_t need, w;
    uint8_t *tail;
    mote_err e = mote_cql_vector_size(kind, v, n, &need);
    if (!e) e = buf_room(b, need, &tail);
    if (!e) e = mote_cql_encode_vector(kind, v, n, tail, need, &w);
    if (!e) mote_buf_commit(b, w);
    return e;
}

mote_err mote_cql_encode_map_buf(mote_buf *b, int kkind, const void *k, int vkind, const void *v,
                                 size_t n)
{
    size_t need, w;
    uint8_t *tail;
    mote_err e = mote_cql_map_size(kkind, k, vkind, v, n, &need);
    if (!e) e = buf_room(b, need, &tail);
    if (!e) e = mote_cql_encode_map(kkind, k, vkind, v, n, tail, need, &w);
    if (!e) mote_buf_commit(b, w);
    return e;
}

/* ---- decoding ---------------------------------------------------------------- */

/* Reads a [bytes] element header at *pp: sets *vp and *vl (vp NULL for null). */
static mote_err read_bytes(const uint8_t **pp, const uint8_t *end, const uint8_t **vp,
                           size_t *vl)
{
    const uint8_t *p = *pp;
    if ((size_t)(end - p) < 4) return MOTE_ERR_TRUNCATED;
    int32_t l = (int32_t)mote_be_load32(p);
    p += 4;
    if (l == -1) {
        *vp = NULL;
        *vl = 0;
    } else if (l < 0) {
        return MOTE_ERR_BAD_LENGTH;
    } else {
        if ((size_t)l > (size_t)(end - p)) return MOTE_ERR_TRUNCATED;
        *vp = p;
        *vl = (size_t)l;
        p += l;
    }
    *pp = p;
    return MOTE_OK;
}

/* Stores one decoded element into slot dst of a kind's C array. */
static mote_err store_elem(int kind, uint8_t *dst, const uint8_t *vp, size_t vl)
{
    if (wire_width(kind) > 0) {
        if (!vp) return MOTE_ERR_UNEXPECTED_NULL;
        return get_native(kind, dst, vp, vl);
    }
    if (vp && kind == MOTE_CQL_INET && vl != 4 && vl != 16) return MOTE_ERR_MISMATCH;
    mote_view view = {vp, vl};
    memcpy(dst, &view, sizeof view);
    return MOTE_OK;
}

/* Reads and checks a list/map count: min_elem bytes per counted item. */
static mote_err read_count(const uint8_t *in, size_t len, size_t min_elem, size_t *count)
{
    if (len < 4) return MOTE_ERR_TRUNCATED;
    int32_t c = (int32_t)mote_be_load32(in);
    if (c < 0) return MOTE_ERR_BAD_LENGTH;
    /* Before anything is sized from the count: each element needs at least
     * min_elem bytes, so a count the input cannot hold is rejected here. */
    if ((size_t)c > (len - 4) / min_elem) return MOTE_ERR_BAD_LENGTH;
    *count = (size_t)c;
    return MOTE_OK;
}

mote_err mote_cql_decode_list(int kind, const uint8_t *in, size_t len, void *v, size_t cap,
                              size_t *n)
{
    if (n) *n = 0;
    if (!valid_kind(kind)) return MOTE_ERR_TYPE;
    if (!in && len > 0) return MOTE_ERR_INVALID;
    size_t count;
    mote_err e = read_count(in, len, 4, &count);
    if (e) return e;
    if (count > cap) {
        if (n) *n = count;
        return MOTE_ERR_SPACE;
    }
    if (!v && count > 0) return MOTE_ERR_INVALID;
    uint8_t *dst = (uint8_t *)v;
    int32_t w = wire_width(kind);
    const uint8_t *p = in + 4, *end = in + len;
    /* Fast path: exactly count elements of the native width. The kernel
     * checks every length; any surprise falls through to the careful loop,
     * which names the error. */
    if ((w == 4 || w == 8) && (size_t)(end - p) == count * (4 + (size_t)w)) {
        bool ok = w == 4 ? mote__cql_list_get32(dst, p, count, MOTE_CQL_SIMD_BEST)
                         : mote__cql_list_get64(dst, p, count, MOTE_CQL_SIMD_BEST);
        if (ok) {
            if (n) *n = count;
            return MOTE_OK;
        }
    }
    size_t c = csize(kind);
    for (size_t i = 0; i < count; i++) {
        const uint8_t *vp;
        size_t vl;
        e = read_bytes(&p, end, &vp, &vl);
        if (!e) e = store_elem(kind, dst + i * c, vp, vl);
        if (e) return e;
    }
    if (p != end) return MOTE_ERR_TRAILING;
    if (n) *n = count;
    return MOTE_OK;
}

/* Error for a packed vector body of len bytes where dim*w were expected. */
static mote_err packed_len_err(size_t len, size_t w, size_t need)
{
    if (w > 0 && len % w == 0) return MOTE_ERR_DIMENSION;
    return len < need ? MOTE_ERR_TRUNCATED : MOTE_ERR_TRAILING;
}

/* Reads one vint-prefixed vector element. */
static mote_err read_vint_elem(const uint8_t **pp, const uint8_t *end, const uint8_t **vp,
                               size_t *vl)
{
    const uint8_t *p = *pp;
    uint64_t l;
    size_t used;
    mote_err e = mote_cql_uvint_get(p, (size_t)(end - p), &l, &used);
    if (e) return e;
    p += used;
    if (l > MAXL) return MOTE_ERR_BAD_LENGTH;
    if (l > (uint64_t)(end - p)) return MOTE_ERR_TRUNCATED;
    *vp = p;
    *vl = (size_t)l;
    *pp = p + l;
    return MOTE_OK;
}

/* After a variable vector's dim elements, bytes remain: if they parse as
 * whole elements the value had more elements than the type (DIMENSION),
 * otherwise they are garbage (TRAILING). */
static mote_err extra_elems_err(const uint8_t *p, const uint8_t *end)
{
    while (p < end) {
        const uint8_t *vp;
        size_t vl;
        if (read_vint_elem(&p, end, &vp, &vl)) return MOTE_ERR_TRAILING;
    }
    return MOTE_ERR_DIMENSION;
}

static mote_err decode_vector(int kind, int32_t fixed, const uint8_t *in, size_t len, void *v,
                              size_t dim)
{
    if (!valid_kind(kind)) return MOTE_ERR_TYPE;
    if ((!in && len > 0) || (!v && dim > 0)) return MOTE_ERR_INVALID;
    if (dim == 0) return MOTE_ERR_DIMENSION;
    uint8_t *dst = (uint8_t *)v;
    int32_t w = wire_width(kind);
    if (fixed >= 0) {
        size_t need = 0;
        bool fits = mote_size_mul(dim, (size_t)fixed, &need);
        if (!fits || len != need) return packed_len_err(len, (size_t)fixed, fits ? need : SIZE_MAX);
        if (w > 0) {
            return get_packed(kind, dst, in, dim) ? MOTE_OK : MOTE_ERR_MISMATCH;
        }
        for (size_t i = 0; i < dim; i++) {
            mote_view view = {in + i * (size_t)fixed, (size_t)fixed};
            memcpy(dst + i * sizeof view, &view, sizeof view);
        }
        return MOTE_OK;
    }
    /* Each element takes at least one byte (its vint). */
    if (dim > len) return MOTE_ERR_DIMENSION;
    const uint8_t *p = in, *end = in + len;
    size_t c = csize(kind);
    for (size_t i = 0; i < dim; i++) {
        if (p == end) return MOTE_ERR_DIMENSION;
        const uint8_t *vp;
        size_t vl;
        mote_err e = read_vint_elem(&p, end, &vp, &vl);
        if (!e) e = store_elem(kind, dst + i * c, vp, vl);
        if (e) return e;
    }
    if (p != end) return extra_elems_err(p, end);
    return MOTE_OK;
}

mote_err mote_cql_decode_vector(int kind, const uint8_t *in, size_t len, void *v, size_t dim)
{
    if (kind == MOTE_CQL_VECTOR) return MOTE_ERR_TYPE;
    return decode_vector(kind, mote_cql_kind_fixed(kind), in, len, v, dim);
}

mote_err mote_cql_decode_map(int kkind, const uint8_t *in, size_t len, void *k, int vkind,
                             void *v, size_t cap, size_t *n)
{
    if (n) *n = 0;
    if (!valid_kind(kkind) || !valid_kind(vkind)) return MOTE_ERR_TYPE;
    if (!in && len > 0) return MOTE_ERR_INVALID;
    size_t count;
    mote_err e = read_count(in, len, 8, &count);
    if (e) return e;
    if (count > cap) {
        if (n) *n = count;
        return MOTE_ERR_SPACE;
    }
    if ((!k || !v) && count > 0) return MOTE_ERR_INVALID;
    const uint8_t *p = in + 4, *end = in + len;
    size_t kc = csize(kkind), vc = csize(vkind);
    for (size_t i = 0; i < count; i++) {
        const uint8_t *vp;
        size_t vl;
        e = read_bytes(&p, end, &vp, &vl);
        if (!e && !vp) e = MOTE_ERR_UNEXPECTED_NULL;
        if (!e) e = store_elem(kkind, (uint8_t *)k + i * kc, vp, vl);
        if (!e) e = read_bytes(&p, end, &vp, &vl);
        if (!e) e = store_elem(vkind, (uint8_t *)v + i * vc, vp, vl);
        if (e) return e;
    }
    if (p != end) return MOTE_ERR_TRAILING;
    if (n) *n = count;
    return MOTE_OK;
}

mote_err mote_cql_encode_array(const mote_cql_type *t, const void *v, size_t n, uint8_t *out,
                               size_t cap, size_t *written)
{
    if (written) *written = 0;
    if (!t || !t->sub) return MOTE_ERR_TYPE;
    if (t->kind == MOTE_CQL_LIST || t->kind == MOTE_CQL_SET)
        return mote_cql_encode_list(t->sub->kind, v, n, out, cap, written);
    if (t->kind != MOTE_CQL_VECTOR) return MOTE_ERR_TYPE;
    if (n != t->dim) return MOTE_ERR_DIMENSION;
    mote_err e = need_array(t->sub->kind, v, n);
    if (e) return e;
    return encode_vector(t->sub->kind, t->sub->fixed, v, n, out, cap, written);
}

mote_err mote_cql_decode_array(const mote_cql_type *t, const uint8_t *in, size_t len, void *v,
                               size_t cap, size_t *n)
{
    if (n) *n = 0;
    if (!t || !t->sub) return MOTE_ERR_TYPE;
    if (t->kind == MOTE_CQL_LIST || t->kind == MOTE_CQL_SET)
        return mote_cql_decode_list(t->sub->kind, in, len, v, cap, n);
    if (t->kind != MOTE_CQL_VECTOR) return MOTE_ERR_TYPE;
    if (cap < t->dim) {
        if (n) *n = t->dim;
        return MOTE_ERR_SPACE;
    }
    mote_err e = decode_vector(t->sub->kind, t->sub->fixed, in, len, v, t->dim);
    if (!e && n) *n = t->dim;
    return e;
}

/* ---- iterator ---------------------------------------------------------------- */

mote_err mote_cql_iter_init(mote_cql_iter *it, const mote_cql_type *t, const uint8_t *in,
                            size_t len)
{
    if (!it) return MOTE_ERR_INVALID;
    memset(it, 0, sizeof *it);
    it->err = MOTE_ERR_INVALID;
    if (!t || (!in && len > 0)) return MOTE_ERR_INVALID;
    it->err = MOTE_ERR_TYPE;
    if (!is_collection(t->kind) || !t->sub) return MOTE_ERR_TYPE;
    it->type = t;
    it->next_type = t->sub;
    it->p = in;
    it->end = in + len;
    mote_err e = MOTE_OK;
    size_t count = 0;
    switch (t->kind) {
    case MOTE_CQL_LIST:
    case MOTE_CQL_SET:
        e = read_count(in, len, 4, &count);
        it->left = count;
        it->p = in + 4;
        break;
    case MOTE_CQL_MAP:
        e = read_count(in, len, 8, &count);
        it->left = 2 * count;
        it->p = in + 4;
        break;
    case MOTE_CQL_TUPLE:
        count = t->nsub;
        it->left = count;
        if (count > len / 4) e = MOTE_ERR_TRUNCATED;
        break;
    default: /* vector */
        count = t->dim;
        it->left = count;
        if (t->sub->fixed >= 0) {
            size_t need = 0;
            bool fits = mote_size_mul(count, (size_t)t->sub->fixed, &need);
            if (!fits || need != len) e = packed_len_err(len, (size_t)t->sub->fixed, fits ? need : SIZE_MAX);
        } else if (count > len) {
            e = MOTE_ERR_DIMENSION;
        }
        break;
    }
    if (e) {
        it->err = e;
        it->left = 0;
        return e;
    }
    it->count = count;
    it->err = MOTE_OK;
    return MOTE_OK;
}

static bool iter_fail(mote_cql_iter *it, mote_err e)
{
    it->err = e;
    it->left = 0;
    return false;
}

bool mote_cql_iter_next(mote_cql_iter *it, mote_cql_value *out)
{
    if (!it || it->err) return false;
    if (it->left == 0) {
        if (it->p != it->end) {
            it->err = it->type->kind == MOTE_CQL_VECTOR ? extra_elems_err(it->p, it->end)
                                                        : MOTE_ERR_TRAILING;
            if (it->type->kind == MOTE_CQL_VECTOR && it->type->sub->fixed >= 0)
                it->err = MOTE_ERR_TRAILING;
        }
        return false;
    }
    const mote_cql_type *t = it->next_type;
    const uint8_t *vp = NULL;
    size_t vl = 0;
    mote_err e;
    if (it->type->kind == MOTE_CQL_VECTOR) {
        if (t->fixed >= 0) {
            vp = it->p;
            vl = (size_t)t->fixed;
            it->p += vl;
            e = MOTE_OK;
        } else if (it->p == it->end) {
            e = MOTE_ERR_DIMENSION;
        } else {
            e = read_vint_elem(&it->p, it->end, &vp, &vl);
        }
    } else {
        e = read_bytes(&it->p, it->end, &vp, &vl);
        if (!e && !vp && it->type->kind == MOTE_CQL_MAP && (it->left & 1) == 0)
            e = MOTE_ERR_UNEXPECTED_NULL; /* a map key */
    }
    if (!e && vp) {
        int32_t w = node_width(t);
        if (w >= 0 && vl != (size_t)w) e = MOTE_ERR_MISMATCH;
    }
    if (e) return iter_fail(it, e);
    it->left--;
    switch (it->type->kind) {
    case MOTE_CQL_MAP:
        it->next_type = (it->left & 1) ? it->type->sub->next : it->type->sub;
        break;
    case MOTE_CQL_TUPLE:
        it->next_type = t->next ? t->next : t;
        break;
    default: break;
    }
    if (out) {
        out->type = t;
        out->ptr = vp;
        out->len = vl;
        out->null = vp == NULL;
    }
    return true;
}

mote_err mote_cql_iter_err(const mote_cql_iter *it)
{
    return it ? it->err : MOTE_ERR_INVALID;
}

size_t mote_cql_iter_count(const mote_cql_iter *it)
{
    return it ? it->count : 0;
}

/* ---- validation ---------------------------------------------------------------- */

static bool valid_utf8(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k;
        uint32_t cp, min;
        if ((c & 0xe0) == 0xc0) { k = 1; cp = c & 0x1fu; min = 0x80; }
        else if ((c & 0xf0) == 0xe0) { k = 2; cp = c & 0x0fu; min = 0x800; }
        else if ((c & 0xf8) == 0xf0) { k = 3; cp = c & 0x07u; min = 0x10000; }
        else return false;
        if (n - i <= k) return false;
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xc0) != 0x80) return false;
            cp = (cp << 6) | (s[i + j] & 0x3fu);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += k + 1;
    }
    return true;
}

static mote_err check_duration(const uint8_t *p, size_t n)
{
    int64_t v[3];
    size_t at = 0;
    for (int i = 0; i < 3; i++) {
        size_t used;
        mote_err e = mote_cql_vint_get(p + at, n - at, &v[i], &used);
        if (e) return e == MOTE_ERR_TRUNCATED ? MOTE_ERR_MISMATCH : e;
        at += used;
    }
    if (at != n) return MOTE_ERR_MISMATCH;
    if (v[0] < INT32_MIN || v[0] > INT32_MAX || v[1] < INT32_MIN || v[1] > INT32_MAX)
        return MOTE_ERR_MISMATCH;
    /* Cassandra: months, days and nanoseconds all of one sign. */
    bool neg = v[0] < 0 || v[1] < 0 || v[2] < 0;
    bool pos = v[0] > 0 || v[1] > 0 || v[2] > 0;
    return neg && pos ? MOTE_ERR_MISMATCH : MOTE_OK;
}

static mote_err check_scalar(int kind, const uint8_t *p, size_t n)
{
    int32_t w = wire_width(kind);
    if (w >= 0) {
        if (n != (size_t)w) return MOTE_ERR_MISMATCH;
        if (kind == MOTE_CQL_BOOLEAN && p[0] > 1) return MOTE_ERR_MISMATCH;
        return MOTE_OK;
    }
    switch (kind) {
    case MOTE_CQL_ASCII:
        for (size_t i = 0; i < n; i++) {
            if (p[i] > 0x7f) return MOTE_ERR_MISMATCH;
        }
        return MOTE_OK;
    case MOTE_CQL_TEXT: return valid_utf8(p, n) ? MOTE_OK : MOTE_ERR_MISMATCH;
    case MOTE_CQL_VARINT: return n >= 1 ? MOTE_OK : MOTE_ERR_MISMATCH;
    case MOTE_CQL_DECIMAL: return n >= 5 ? MOTE_OK : MOTE_ERR_MISMATCH;
    case MOTE_CQL_INET: return (n == 4 || n == 16) ? MOTE_OK : MOTE_ERR_MISMATCH;
    case MOTE_CQL_DURATION: return check_duration(p, n);
    default: return MOTE_OK; /* blob */
    }
}

/* Iterative depth-first walk with a stack of iterators instead of recursion:
 * fixed, small stack use whatever the type (Cortex-M budget). */
mote_err mote_cql_validate(const mote_cql_type *t, const uint8_t *in, size_t len)
{
    if (!t || (!in && len > 0)) return MOTE_ERR_INVALID;
    if (!is_collection(t->kind)) return check_scalar(t->kind, in, len);
    mote_cql_iter st[MOTE_CQL_MAX_DEPTH];
    mote_err e = mote_cql_iter_init(&st[0], t, in, len);
    if (e) return e;
    unsigned depth = 1;
    while (depth > 0) {
        mote_cql_value v;
        if (!mote_cql_iter_next(&st[depth - 1], &v)) {
            e = st[depth - 1].err;
            if (e) return e;
            depth--;
            continue;
        }
        if (v.null) {
            if (st[depth - 1].type->kind != MOTE_CQL_TUPLE) return MOTE_ERR_UNEXPECTED_NULL;
            continue;
        }
        if (is_collection(v.type->kind)) {
            /* only a type built by hand can be deeper than the parser allows */
            if (depth >= MOTE_CQL_MAX_DEPTH) return MOTE_ERR_DEPTH;
            e = mote_cql_iter_init(&st[depth], v.type, v.ptr, v.len);
            if (e) return e;
            depth++;
        } else {
            e = check_scalar(v.type->kind, v.ptr, v.len);
            if (e) return e;
        }
    }
    return MOTE_OK;
}

/* ---- writer ---------------------------------------------------------------- */

/* Where a new element's length prefix goes. */
enum { PFX_NONE = 0, PFX_INT = 1, PFX_VINT = 2 };

void mote_cql_writer_init(mote_cql_writer *w, const mote_cql_type *t, uint8_t *out, size_t cap)
{
    if (!w) return;
    memset(w, 0, sizeof *w);
    w->root = t;
    w->out = out;
    w->cap = out ? cap : 0;
    if (!t) w->err = MOTE_ERR_INVALID;
}

const mote_cql_type *mote_cql_writer_expect(const mote_cql_writer *w)
{
    if (!w || w->done || w->err) return NULL;
    return w->depth == 0 ? w->root : w->stack[w->depth - 1].next;
}

static mote_err wfail(mote_cql_writer *w, mote_err e)
{
    if (!w->err) w->err = e;
    return w->err;
}

/* Reserves n bytes at w->len: returns the pointer, or NULL when measuring
 * (or when out is too small: then the writer keeps measuring and remembers
 * the shortage). */
static uint8_t *wroom(mote_cql_writer *w, size_t n)
{
    size_t end;
    if (!mote_size_add(w->len, n, &end) || end > MAXL) {
        wfail(w, MOTE_ERR_OVERFLOW);
        return NULL;
    }
    uint8_t *p = NULL;
    if (w->out) {
        if (end > w->cap) {
            w->out = NULL; /* keep measuring */
            w->short_space = true;
        } else {
            p = w->out + w->len;
        }
    }
    w->len = end;
    return p;
}

/* Claims the next element slot: returns its type and prefix style, counts
 * it in the parent. null_ok: whether a null may go there. */
static mote_err wclaim(mote_cql_writer *w, bool is_null, const mote_cql_type **tp, int *pfx)
{
    if (w->err) return w->err;
    if (w->done) return wfail(w, MOTE_ERR_STATE);
    if (w->depth == 0) {
        if (is_null) return wfail(w, MOTE_ERR_UNEXPECTED_NULL);
        *tp = w->root;
        *pfx = PFX_NONE;
        return MOTE_OK;
    }
    mote_cql_writer_frame *f = &w->stack[w->depth - 1];
    const mote_cql_type *c = f->type;
    const mote_cql_type *t = f->next;
    switch (c->kind) {
    case MOTE_CQL_VECTOR:
        if (f->count >= c->dim) return wfail(w, MOTE_ERR_DIMENSION);
        if (is_null) return wfail(w, MOTE_ERR_UNEXPECTED_NULL);
        *pfx = t->fixed >= 0 ? PFX_NONE : PFX_VINT;
        break;
    case MOTE_CQL_TUPLE:
        if (f->count >= c->nsub) return wfail(w, MOTE_ERR_DIMENSION);
        *pfx = PFX_INT;
        break;
    default: /* list, set, map: the server refuses nulls in collections */
        if (is_null) return wfail(w, MOTE_ERR_UNEXPECTED_NULL);
        *pfx = PFX_INT;
        break;
    }
    if (f->count >= (uint32_t)INT32_MAX) return wfail(w, MOTE_ERR_OVERFLOW);
    *tp = t;
    return MOTE_OK;
}

/* Marks the claimed element done in its parent (advances the expected type). */
static void wadvance(mote_cql_writer *w)
{
    if (w->depth == 0) {
        w->done = true;
        return;
    }
    mote_cql_writer_frame *f = &w->stack[w->depth - 1];
    f->count++;
    if (f->type->kind == MOTE_CQL_MAP) {
        f->next = (f->count & 1) ? f->type->sub->next : f->type->sub;
    } else if (f->type->kind == MOTE_CQL_TUPLE) {
        if (f->next->next) f->next = f->next->next;
    }
}

/* Writes a complete scalar element of n bytes from src (or null): prefix and
 * value reserved together. */
static mote_err wscalar(mote_cql_writer *w, int pfx, const void *src, size_t n, bool is_null)
{
    if (n > MAXL) return wfail(w, MOTE_ERR_OVERFLOW);
    size_t plen = pfx == PFX_INT ? 4 : pfx == PFX_VINT ? mote_cql_uvint_size(n) : 0;
    uint8_t *p = wroom(w, plen + (is_null ? 0 : n));
    if (w->err) return w->err;
    if (p) {
        if (pfx == PFX_INT) mote_be_store32(p, is_null ? 0xffffffffu : (uint32_t)n);
        else if (pfx == PFX_VINT) mote_cql_uvint_put(p, n);
        if (!is_null) {
            /* scalars are short: a byte loop beats a library memcpy call */
            if (n <= 16) {
                const uint8_t *b = (const uint8_t *)src;
                for (size_t i = 0; i < n; i++) p[plen + i] = b[i];
            } else {
                memcpy(p + plen, src, n);
            }
        }
    }
    wadvance(w);
    return w->short_space ? MOTE_ERR_SPACE : MOTE_OK;
}

mote_err mote_cql_write_null(mote_cql_writer *w)
{
    if (!w) return MOTE_ERR_INVALID;
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, true, &t, &pfx);
    if (e) return e;
    return wscalar(w, pfx, NULL, 0, true);
}

mote_err mote_cql_write_bool(mote_cql_writer *w, bool v)
{
    if (!w) return MOTE_ERR_INVALID;
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, false, &t, &pfx);
    if (e) return e;
    if (t->kind != MOTE_CQL_BOOLEAN) return wfail(w, MOTE_ERR_MISMATCH);
    uint8_t b = v ? 1 : 0;
    return wscalar(w, pfx, &b, 1, false);
}

mote_err mote_cql_write_int(mote_cql_writer *w, int64_t v)
{
    if (!w) return MOTE_ERR_INVALID;
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, false, &t, &pfx);
    if (e) return e;
    uint8_t b[8];
    size_t n;
    switch (t->kind) {
    case MOTE_CQL_TINYINT:
        if (v < INT8_MIN || v > INT8_MAX) return wfail(w, MOTE_ERR_MISMATCH);
        b[0] = (uint8_t)v;
        n = 1;
        break;
    case MOTE_CQL_SMALLINT:
        if (v < INT16_MIN || v > INT16_MAX) return wfail(w, MOTE_ERR_MISMATCH);
        mote_be_store16(b, (uint16_t)v);
        n = 2;
        break;
    case MOTE_CQL_INT:
        if (v < INT32_MIN || v > INT32_MAX) return wfail(w, MOTE_ERR_MISMATCH);
        mote_be_store32(b, (uint32_t)v);
        n = 4;
        break;
    case MOTE_CQL_DATE:
        if (v < 0 || v > (int64_t)UINT32_MAX) return wfail(w, MOTE_ERR_MISMATCH);
        mote_be_store32(b, (uint32_t)v);
        n = 4;
        break;
    case MOTE_CQL_BIGINT:
    case MOTE_CQL_COUNTER:
    case MOTE_CQL_TIMESTAMP:
    case MOTE_CQL_TIME:
        mote_be_store64(b, (uint64_t)v);
        n = 8;
        break;
    case MOTE_CQL_VARINT: {
        /* Minimal two's complement: drop leading bytes that only repeat
         * the sign of the next byte. */
        mote_be_store64(b, (uint64_t)v);
        size_t s = 0;
        while (s < 7 && ((b[s] == 0x00 && (b[s + 1] & 0x80) == 0) ||
                         (b[s] == 0xff && (b[s + 1] & 0x80) != 0)))
            s++;
        n = 8 - s;
        memmove(b, b + s, n);
        break;
    }
    default: return wfail(w, MOTE_ERR_MISMATCH);
    }
    return wscalar(w, pfx, b, n, false);
}

mote_err mote_cql_write_float(mote_cql_writer *w, double v)
{
    if (!w) return MOTE_ERR_INVALID;
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, false, &t, &pfx);
    if (e) return e;
    uint8_t b[8];
    if (t->kind == MOTE_CQL_FLOAT) {
        mote_be_storef32(b, (float)v);
        return wscalar(w, pfx, b, 4, false);
    }
    if (t->kind == MOTE_CQL_DOUBLE) {
        mote_be_storef64(b, v);
        return wscalar(w, pfx, b, 8, false);
    }
    return wfail(w, MOTE_ERR_MISMATCH);
}

mote_err mote_cql_write_bytes(mote_cql_writer *w, const void *p, size_t n)
{
    if (!w) return MOTE_ERR_INVALID;
    if (!p && n > 0) return wfail(w, MOTE_ERR_INVALID);
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, false, &t, &pfx);
    if (e) return e;
    int32_t width = node_width(t);
    if (width >= 0 && n != (size_t)width) return wfail(w, MOTE_ERR_MISMATCH);
    if (pfx == PFX_NONE && w->depth > 0 && n != (size_t)t->fixed)
        return wfail(w, MOTE_ERR_MISMATCH); /* packed element of a vector */
    if (t->kind == MOTE_CQL_INET && n != 4 && n != 16) return wfail(w, MOTE_ERR_MISMATCH);
    return wscalar(w, pfx, p, n, false);
}

mote_err mote_cql_write_begin(mote_cql_writer *w)
{
    if (!w) return MOTE_ERR_INVALID;
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, false, &t, &pfx);
    if (e) return e;
    if (!is_collection(t->kind) || !t->sub) return wfail(w, MOTE_ERR_MISMATCH);
    if (w->depth >= MOTE_CQL_MAX_DEPTH) return wfail(w, MOTE_ERR_DEPTH);
    size_t len_at = w->len;
    if (pfx == PFX_INT) {
        uint8_t *p = wroom(w, 4);
        if (p) memset(p, 0, 4);
    } else if (pfx == PFX_VINT) {
        /* One byte now; end() widens it if the element turns out longer. */
        uint8_t *p = wroom(w, 1);
        if (p) p[0] = 0;
    }
    if (w->err) return w->err;
    mote_cql_writer_frame *f = &w->stack[w->depth++];
    f->type = t;
    f->next = t->sub;
    f->len_at = pfx == PFX_NONE ? SIZE_MAX : len_at;
    f->vint = pfx == PFX_VINT;
    f->count = 0;
    f->start = w->len;
    if (t->kind == MOTE_CQL_LIST || t->kind == MOTE_CQL_SET || t->kind == MOTE_CQL_MAP) {
        uint8_t *p = wroom(w, 4);
        if (p) memset(p, 0, 4);
        if (w->err) return w->err;
    }
    return w->short_space ? MOTE_ERR_SPACE : MOTE_OK;
}

mote_err mote_cql_write_end(mote_cql_writer *w)
{
    if (!w) return MOTE_ERR_INVALID;
    if (w->err) return w->err;
    if (w->depth == 0) return wfail(w, MOTE_ERR_STATE);
    mote_cql_writer_frame *f = &w->stack[w->depth - 1];
    const mote_cql_type *t = f->type;
    if ((t->kind == MOTE_CQL_VECTOR && f->count != t->dim) ||
        (t->kind == MOTE_CQL_TUPLE && f->count != t->nsub))
        return wfail(w, MOTE_ERR_DIMENSION);
    if (t->kind == MOTE_CQL_MAP && (f->count & 1)) return wfail(w, MOTE_ERR_STATE);
    if (w->out && (t->kind == MOTE_CQL_LIST || t->kind == MOTE_CQL_SET || t->kind == MOTE_CQL_MAP))
        mote_be_store32(w->out + f->start, t->kind == MOTE_CQL_MAP ? f->count / 2 : f->count);
    if (f->len_at != SIZE_MAX) {
        size_t body = w->len - f->start;
        if (body > MAXL) return wfail(w, MOTE_ERR_OVERFLOW);
        if (!f->vint) {
            if (w->out) mote_be_store32(w->out + f->len_at, (uint32_t)body);
        } else {
            size_t k = mote_cql_uvint_size(body);
            if (k > 1) {
                size_t old = w->len;
                wroom(w, k - 1);
                if (w->err) return w->err;
                if (w->out) memmove(w->out + f->start + k - 1, w->out + f->start, old - f->start);
            }
            if (w->out) mote_cql_uvint_put(w->out + f->len_at, body);
        }
    }
    w->depth--;
    wadvance(w);
    return w->short_space ? MOTE_ERR_SPACE : MOTE_OK;
}

mote_err mote_cql_writer_finish(mote_cql_writer *w, size_t *len)
{
    if (!w) return MOTE_ERR_INVALID;
    if (len) *len = w->len;
    if (w->err) return w->err;
    if (!w->done) return MOTE_ERR_STATE;
    return w->short_space ? MOTE_ERR_SPACE : MOTE_OK;
}
