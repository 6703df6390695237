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
#include "cql_kernels.h"
#include "mote_private.h"

#include <string.h>

#define MAXL MOTE_CQL_MAX_LEN

/* MOTE_SMALL_NOINLINE, MOTE_SMALL_INLINE (mote_private.h) mark where gcc's
 * -Os gets Cortex-M size wrong: one copy of a helper called from several
 * entry points; a helper inlined where the call costs more than its body. */

/* ---- vints --------------------------------------------------------------- */

size_t mote_cql_uvint_size(uint64_t v)
{
    /* n <= 8 bytes hold 7n value bits: the first byte spends n-1 one-bits
     * and a zero on the length, leaving 8-n, plus 8 per extra byte. Nine
     * bytes (first byte all ones) hold all 64. So: ceil(bits / 7) for up
     * to 56 significant bits, 9 above (a count of leading zeros, no loop
     * of 64-bit shifts: Cortex-M size). */
    unsigned bits = 64 - mote__clz64(v | 1);
    return bits > 56 ? 9 : (bits + 6) / 7;
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
    /* the leading one-bits of b0 (8 for 0xff): a count of leading zeros */
    size_t extra = mote__clz64((uint64_t)(uint8_t)~b0 << 56 | UINT64_C(1) << 55);
    if (len < extra + 1) return MOTE_ERR_TRUNCATED;
    uint64_t r = b0 & (0xffu >> (extra + 1)); /* nothing when extra is 8 */
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

/* Per kind (index kind - 1): the native wire width in the low 5 bits (0:
 * variable, the value is a view), 0x80 if that width is also fixed under
 * Cassandra's vector rule (the rest carry a vint length in a vector), 0x40
 * if the server also takes a zero-length ("empty") value of the kind: the
 * types older than protocol v4, whose validators (Int32Serializer & co.)
 * accept 0 bytes for legacy compatibility; smallint, tinyint, date, time
 * and duration came with v4 and want their exact form. */
#define FX 0x80
#define EM 0x40
static const uint8_t kind_bits[MOTE_CQL_VECTOR] = {
    EM,      8 | FX | EM, EM, 1 | FX | EM, 8 | EM, 4, EM, 8 | FX | EM, 0, 4 | FX | EM, /* ascii .. float */
    EM,      4 | FX | EM, 2, EM,      8,      8 | FX | EM, 16 | FX | EM, 1, 16 | FX | EM, EM, /* inet .. varint */
    0,       0,      0, 0,      0};    /* list, set, map, tuple, vector */

#if MOTE_SMALL
/* kind_bits of kind, 0 for a kind out of range: one range check for the
 * three readers below (Cortex-M size). */
static MOTE_SMALL_NOINLINE unsigned kbits(int kind)
{
    unsigned i = (unsigned)kind - 1;
    return i < MOTE_CQL_VECTOR ? kind_bits[i] : 0;
}

static int32_t wire_width(int kind)
{
    int32_t w = (int32_t)(kbits(kind) & 31);
    return w ? w : -1;
}

static bool empty_ok(int kind)
{
    return kbits(kind) & EM;
}

int mote_cql_kind_fixed(mote_cql_kind kind)
{
    unsigned b = kbits(kind);
    return b & FX ? (int)(b & 31) : -1;
}
#else
/* Wire width of a native fixed-width value, or -1 (variable: a view). */
static int32_t wire_width(int kind)
{
    unsigned i = (unsigned)kind - 1;
    int32_t w = i < MOTE_CQL_VECTOR ? kind_bits[i] & 31 : 0;
    return w ? w : -1;
}

/* Whether a zero-length value of kind is valid ("empty", see kind_bits). */
static bool empty_ok(int kind)
{
    unsigned i = (unsigned)kind - 1;
    return i < MOTE_CQL_VECTOR && (kind_bits[i] & EM);
}

int mote_cql_kind_fixed(mote_cql_kind kind)
{
    unsigned i = (unsigned)kind - 1;
    return i < MOTE_CQL_VECTOR && (kind_bits[i] & FX) ? kind_bits[i] & 31 : -1;
}
#endif

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

/* How an element's length goes before it: an [int] (list, set and map
 * elements, tuple components; lists, sets and maps also start with an [int]
 * count), an unsigned vint (vector elements without a fixed length) or not
 * at all (packed vector elements). Shared by the bulk codecs and the writer. */
enum { PFX_NONE = 0, PFX_INT = 1, PFX_VINT = 2 };

static size_t pfx_size(int pfx, size_t len)
{
    return pfx == PFX_INT ? 4 : pfx == PFX_VINT ? mote_cql_uvint_size(len) : 0;
}

/* Writes the prefix for a value of len bytes; returns the bytes written. */
static size_t pfx_put(int pfx, uint8_t *p, uint32_t len)
{
    if (pfx == PFX_INT) {
        mote_be_store32(p, len);
        return 4;
    }
    return pfx == PFX_VINT ? mote_cql_uvint_put(p, len) : 0;
}

#if MOTE_SMALL
/* Native value <-> wire bytes, one byte loop for every width (size over
 * speed): reversed on little-endian hosts, except uuids (wire order).
 * Folded into its two callers (measured smaller than one copy). */
static MOTE_SMALL_INLINE void swap_native(int kind, uint8_t *dst, const uint8_t *src)
{
    size_t w = (size_t)wire_width(kind);
    bool rev = MOTE_BE_HOST_LITTLE && w <= 8;
    for (size_t i = 0; i < w; i++) dst[i] = src[rev ? w - 1 - i : i];
}

/* Writes element i of a native array as its wire bytes. */
static void put_native(int kind, uint8_t *dst, const uint8_t *src)
{
    swap_native(kind, dst, src);
    if (kind == MOTE_CQL_BOOLEAN) dst[0] = (uint8_t)(src[0] != 0);
}

/* Reads a native value of exactly its width into dst. */
static mote_err get_native(int kind, uint8_t *dst, const uint8_t *p, size_t len)
{
    if (len != (size_t)wire_width(kind)) return MOTE_ERR_MISMATCH;
    if (kind == MOTE_CQL_BOOLEAN && p[0] > 1) return MOTE_ERR_MISMATCH;
    swap_native(kind, dst, p);
    return MOTE_OK;
}
#else
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

#endif


#if !MOTE_SMALL
/* Packed 4- or 8-byte values between host order and the wire, all at once
 * (the byte-swap kernels, or a copy on big-endian hosts). */
static void swap_packed(int32_t w, uint8_t *dst, const uint8_t *src, size_t n)
{
#if MOTE_BE_HOST_BIG
    memcpy(dst, src, n * (size_t)w);
#else
    if (w == 4) mote__cql_bswap32(dst, src, n, MOTE_CQL_SIMD_BEST);
    else mote__cql_bswap64(dst, src, n, MOTE_CQL_SIMD_BEST);
#endif
}
#endif

/* Copies n bytes. Short strings (keys, names, ids) are the common case in
 * collections: two overlapping fixed-size copies beat a library call. Reads
 * and writes stay within [src, src+n) and [dst, dst+n). */
static inline void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n)
{
#if MOTE_SMALL
    memcpy(dst, src, n); /* speed-only fast path left out */
#else
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
#endif
}

/* ---- reading ---------------------------------------------------------------- */

/* Reads a [bytes] element header at *pp: sets *vp and *vl (vp NULL for null). */
static MOTE_SMALL_INLINE mote_err read_bytes(const uint8_t **pp, const uint8_t *end, const uint8_t **vp,
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
static inline mote_err store_elem(int kind, uint8_t *dst, const uint8_t *vp, size_t vl)
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

/* Error for a packed vector body of len bytes where dim*w were expected. */
static mote_err packed_len_err(size_t len, size_t w, uint64_t need)
{
    if (w > 0 && len % w == 0) return MOTE_ERR_DIMENSION;
    return len < need ? MOTE_ERR_TRUNCATED : MOTE_ERR_TRAILING;
}

/* Reads one vint-prefixed vector element. */
static MOTE_SMALL_INLINE mote_err read_vint_elem(const uint8_t **pp, const uint8_t *end, const uint8_t **vp,
                               size_t *vl)
{
    const uint8_t *p = *pp;
    uint64_t l;
    size_t used;
    mote_err e = mote_cql_uvint_get(p, (size_t)(end - p), &l, &used);
    if (e) return e;
    p += used;
    if (l > MAXL) return MOTE_ERR_BAD_LENGTH;
    size_t n = (size_t)l; /* <= MAXL: the rest in size_t (32-bit cores) */
    if (n > (size_t)(end - p)) return MOTE_ERR_TRUNCATED;
    *vp = p;
    *vl = n;
    *pp = p + n;
    return MOTE_OK;
}

/* ---- iterator ---------------------------------------------------------------- */

mote_err mote_cql_iter_init(mote_cql_iter *it, const mote_cql_type *t, const uint8_t *in,
                            size_t len)
{
    if (!it) return MOTE_ERR_INVALID;
    memset(it, 0, sizeof *it);
    mote_err e = MOTE_ERR_INVALID;
    size_t count = 0;
    if (t && (in || len == 0)) {
        e = MOTE_ERR_TYPE;
        int k = t->kind;
        if (is_collection(k) && t->sub) {
            it->type = t;
            it->next_type = t->sub;
            it->p = in;
            it->end = (const uint8_t *)((uintptr_t)in + len); /* (NULL, 0): no NULL + 0 */
            if (k <= MOTE_CQL_MAP) { /* list, set, map: an [int] count */
                e = read_count(in, len, k == MOTE_CQL_MAP ? 8 : 4, &count);
                if (!e) it->p = in + 4;
            } else if (k == MOTE_CQL_TUPLE) {
                /* may hold fewer components than the type (see next) */
                count = t->nsub;
                e = MOTE_OK;
            } else { /* vector */
                count = t->dim;
                int32_t fixed = t->sub->fixed;
                if (fixed >= 0) {
                    /* below 2^63: a dimension and a length of 32 bits */
                    uint64_t need = (uint64_t)count * (uint32_t)fixed;
                    e = need != len ? packed_len_err(len, (size_t)fixed, need) : MOTE_OK;
                } else {
                    e = count > len ? MOTE_ERR_DIMENSION : MOTE_OK;
                }
            }
            if (!e) it->left = k == MOTE_CQL_MAP ? 2 * count : count;
        }
    }
    it->err = e;
    if (!e) it->count = count;
    return e;
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
    const mote_cql_type *t = it->next_type;
    const uint8_t *vp = NULL;
    size_t vl = 0;
    int k = it->type->kind;
    /* Past the last element, bytes left are TRAILING; after a variable
     * vector's dim elements, DIMENSION if they parse as whole elements (the
     * value had more than the type), read below by the one element reader.
     * A packed vector's length was checked whole by iter_init. */
    bool extra = it->left == 0;
    if (extra) {
        if (it->p == it->end) return false;
        if (k != MOTE_CQL_VECTOR || t->fixed >= 0) return iter_fail(it, MOTE_ERR_TRAILING);
    }
    /* A tuple value may stop before its last components (the server stores
     * the literal (5) for tuple<int, text> as 0000000400000005): those are
     * null, as Cassandra's TupleType reads them. */
    bool absent = k == MOTE_CQL_TUPLE && it->p == it->end;
    mote_err e = MOTE_OK;
    if (k == MOTE_CQL_VECTOR) {
        if (t->fixed >= 0) {
            vp = it->p;
            vl = (size_t)t->fixed;
            it->p += vl;
        } else if (it->p == it->end) {
            e = MOTE_ERR_DIMENSION;
        } else {
            do {
                e = read_vint_elem(&it->p, it->end, &vp, &vl);
            } while (extra && !e && it->p != it->end);
            if (extra) return iter_fail(it, e ? MOTE_ERR_TRAILING : MOTE_ERR_DIMENSION);
        }
    } else if (!absent) {
        e = read_bytes(&it->p, it->end, &vp, &vl);
        if (!e && !vp && k == MOTE_CQL_MAP && (it->left & 1) == 0)
            e = MOTE_ERR_UNEXPECTED_NULL; /* a map key */
    }
    if (!e && vp) {
        int32_t w = wire_width(t->kind);
        if (w >= 0 && vl != (size_t)w && (vl || !empty_ok(t->kind))) e = MOTE_ERR_MISMATCH;
    }
    if (e) return iter_fail(it, e);
    it->left--;
    switch (k) {
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
        out->empty = vp != NULL && vl == 0;
        out->absent = absent;
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

/* ---- bulk encoding: one kernel for lists, sets, maps and vectors ---------- */

/*
 * What a bulk encoder writes: n elements from one caller array (list, set,
 * vector) or n keys and n values from two (map), each element preceded by
 * its pfx; lists, sets and maps (pfx PFX_INT) start with the [int] count.
 * Every typed entry point fills one of these and calls cmeasure/cwrite.
 */
typedef struct cspec {
    const uint8_t *src[2];   /* elements, or map keys then values */
    int kind[2];
    size_t n;
    int32_t fixed;           /* vector: the element's fixed length, or -1 */
    uint8_t narr;            /* 1, or 2 for a map */
    uint8_t pfx;
    bool typed;              /* from a type node: a vector may hold vectors */
} cspec;

/* Member by member: no memset call, whose arguments would take the
 * registers that hold this one's (Cortex-M size). */
static MOTE_SMALL_NOINLINE void spec_list(cspec *c, int kind, const void *v, size_t n)
{
    c->src[0] = (const uint8_t *)v;
    c->src[1] = NULL;
    c->kind[0] = kind;
    c->kind[1] = 0;
    c->n = n;
    c->fixed = -1;
    c->narr = 1;
    c->pfx = PFX_INT;
    c->typed = false;
}

/* A vector's element length (-1: each element carries a vint length) and
 * the prefix that follows from it. */
static void spec_fixed(cspec *c, int32_t fixed)
{
    c->fixed = fixed;
    c->pfx = fixed >= 0 ? PFX_NONE : PFX_VINT;
}

/* A vector of kind, the element's length from its kind (a typed vector's
 * caller sets it again from the element's type node: that way this takes
 * four arguments, in registers on 32-bit Arm). */
static MOTE_SMALL_NOINLINE void spec_vector(cspec *c, int kind, const void *v, size_t n)
{
    spec_list(c, kind, v, n);
    spec_fixed(c, mote_cql_kind_fixed(kind));
}

static MOTE_SMALL_NOINLINE void spec_map(cspec *c, int kk, const void *k, int vk, const void *v, size_t n)
{
    spec_list(c, kk, k, n);
    c->src[1] = (const uint8_t *)v;
    c->kind[1] = vk;
    c->narr = 2;
}

/* Checks the arguments and every element and computes the exact size.
 * Native widths are sized in O(1); views are read one by one. */
static mote_err cmeasure(const cspec *c, size_t *size)
{
    size_t n = c->n;
    for (unsigned j = 0; j < c->narr; j++) {
        if (!valid_kind(c->kind[j])) return MOTE_ERR_TYPE;
        if (!c->src[j] && n > 0) return MOTE_ERR_INVALID;
    }
    if (c->pfx != PFX_INT) {
        /* untyped vector<vector>: the inner type is unknown */
        if (!c->typed && c->kind[0] == MOTE_CQL_VECTOR) return MOTE_ERR_TYPE;
        if (n == 0) return MOTE_ERR_DIMENSION;
    }
    if (n > MAXL) return MOTE_ERR_OVERFLOW;
    size_t total = c->pfx == PFX_INT ? 4 : 0;
    for (unsigned j = 0; j < c->narr; j++) {
        int kind = c->kind[j];
        int32_t w = wire_width(kind);
        size_t s = 0;
        if (w > 0) {
            if (!mote_size_mul(n, (size_t)w + pfx_size(c->pfx, (size_t)w), &s))
                return MOTE_ERR_OVERFLOW;
        } else {
            /* (the end as an integer: src may be NULL with n 0, and NULL + 0
             * is undefined in C; the same address as view + n otherwise) */
            const mote_view *view = (const mote_view *)(const void *)c->src[j];
            const mote_view *const end = (const mote_view *)((uintptr_t)view + n * sizeof *view);
            for (; view < end; view++) {
                size_t l = view->len;
                /* The server refuses null elements in collections. */
                if (!view->ptr) return MOTE_ERR_UNEXPECTED_NULL;
                if (l > MAXL) return MOTE_ERR_OVERFLOW;
                if ((kind == MOTE_CQL_INET && l != 4 && l != 16) ||
                    (c->fixed >= 0 && l != (size_t)c->fixed))
                    return MOTE_ERR_MISMATCH;
                if (!mote_size_add(s, pfx_size(c->pfx, l) + l, &s) || s > MAXL)
                    return MOTE_ERR_OVERFLOW;
            }
        }
        if (!mote_size_add(total, s, &total)) return MOTE_ERR_OVERFLOW;
    }
    if (total > MAXL) return MOTE_ERR_OVERFLOW;
    *size = total;
    return MOTE_OK;
}

/* Writes the next element of a caller array (*arr, which it advances): its
 * prefix, then its wire bytes; w is wire_width(kind). */
static MOTE_SMALL_INLINE uint8_t *put_elem_w(int kind, int32_t w, int pfx, uint8_t *p,
                                      const uint8_t **arr)
{
    const uint8_t *src;
    size_t len;
    if (w > 0) {
        src = *arr;
        len = (size_t)w;
    } else {
        mote_view view; /* never null: measured first */
        memcpy(&view, *arr, sizeof view);
        src = view.ptr;
        len = view.len;
    }
    *arr += w > 0 ? (size_t)w : sizeof(mote_view);
    p += pfx_put(pfx, p, (uint32_t)len);
    if (w > 0) put_native(kind, p, src);
    else copy_bytes(p, src, len);
    return p + len;
}

#if MOTE_SMALL
/* Four arguments, all in registers on 32-bit Arm (an index and the width
 * had made six, two on the stack); the width found per element. */
static uint8_t *put_elem(int kind, int pfx, uint8_t *p, const uint8_t **arr)
{
    return put_elem_w(kind, wire_width(kind), pfx, p, arr);
}
#define PUT_ELEM(k, w, pfx, p, arr) put_elem(k, pfx, p, arr)
#else
/* inlined into loops where the width is found once */
#define PUT_ELEM(k, w, pfx, p, arr) put_elem_w(k, w, pfx, p, arr)
#endif

/* Writes a measured value to p. The spec is read into locals first: stores
 * through p may alias it as far as the compiler knows. */
static void cwrite(const cspec *c, uint8_t *p)
{
    size_t n = c->n;
    int pfx = c->pfx, k0 = c->kind[0], k1 = c->kind[1];
    const uint8_t *s0 = c->src[0], *s1 = c->src[1];
    bool map = c->narr == 2;
    if (pfx == PFX_INT) p += pfx_put(PFX_INT, p, (uint32_t)n);
#if !MOTE_SMALL
    const int32_t w0 = wire_width(k0), w1 = wire_width(k1);
    /* Hot cases: one kernel call for the whole body (not for no elements:
     * s0 may then be NULL, and the kernels' s0 + 0 is undefined in C). */
    if (!map && n && (w0 == 4 || w0 == 8)) {
        if (pfx == PFX_NONE) {
            swap_packed(w0, p, s0, n);
            return;
        }
        if (pfx == PFX_INT) {
            if (w0 == 4) mote__cql_list_put32(p, s0, n, MOTE_CQL_SIMD_BEST);
            else mote__cql_list_put64(p, s0, n, MOTE_CQL_SIMD_BEST);
            return;
        }
    }
    /* Lists, sets, maps: loops with the prefix folded to a store. */
    if (pfx == PFX_INT && !map) {
        for (size_t i = 0; i < n; i++) p = PUT_ELEM(k0, w0, PFX_INT, p, &s0);
        return;
    }
    if (pfx == PFX_INT) {
        for (size_t i = 0; i < n; i++) {
            p = PUT_ELEM(k0, w0, PFX_INT, p, &s0);
            p = PUT_ELEM(k1, w1, PFX_INT, p, &s1);
        }
        return;
    }
#endif
    /* Map keys and values interleave: each element is written in place. */
    for (size_t i = 0; i < n; i++) {
        p = PUT_ELEM(k0, w0, pfx, p, &s0);
        if (map) p = PUT_ELEM(k1, w1, pfx, p, &s1);
    }
}

static mote_err csize_out(const cspec *c, size_t *size)
{
    size_t s;
    mote_err e = cmeasure(c, &s);
    if (!e && size) *size = s;
    return e;
}

static mote_err cencode(const cspec *c, uint8_t *out, size_t cap, size_t *written)
{
    if (written) *written = 0;
    size_t need;
    mote_err e = cmeasure(c, &need);
    if (e) return e;
    if (written) *written = need;
    if (!out && cap > 0) return MOTE_ERR_INVALID;
    if (need > cap) return MOTE_ERR_SPACE;
    cwrite(c, out);
    return MOTE_OK;
}

/* Sized, reserved once in b, written into its tail and committed. */
static mote_err cencode_buf(mote_buf *b, const cspec *c)
{
    size_t need, avail = 0;
    mote_err e = cmeasure(c, &need);
    if (e) return e;
    if (!b) return MOTE_ERR_INVALID;
    e = mote_buf_reserve(b, need);
    if (e) return e;
    uint8_t *tail = mote_buf_tail(b, &avail);
    if (avail < need || !tail) return MOTE_ERR_NOMEM; /* need >= 1 */
    cwrite(c, tail);
    mote_buf_commit(b, need);
    return MOTE_OK;
}

mote_err mote_cql_list_size(mote_cql_kind kind, const void *v, size_t n, size_t *size)
{
    cspec c;
    spec_list(&c, kind, v, n);
    return csize_out(&c, size);
}

mote_err mote_cql_vector_size(mote_cql_kind kind, const void *v, size_t n, size_t *size)
{
    cspec c;
    spec_vector(&c, kind, v, n);
    return csize_out(&c, size);
}

mote_err mote_cql_map_size(mote_cql_kind kkind, const void *k, mote_cql_kind vkind, const void *v, size_t n,
                           size_t *size)
{
    cspec c;
    spec_map(&c, kkind, k, vkind, v, n);
    return csize_out(&c, size);
}

mote_err mote_cql_encode_list(mote_cql_kind kind, const void *v, size_t n, uint8_t *out, size_t cap,
                              size_t *written)
{
    cspec c;
    spec_list(&c, kind, v, n);
    return cencode(&c, out, cap, written);
}

mote_err mote_cql_encode_vector(mote_cql_kind kind, const void *v, size_t n, uint8_t *out, size_t cap,
                                size_t *written)
{
    cspec c;
    spec_vector(&c, kind, v, n);
    return cencode(&c, out, cap, written);
}

mote_err mote_cql_encode_map(mote_cql_kind kkind, const void *k, mote_cql_kind vkind, const void *v, size_t n,
                             uint8_t *out, size_t cap, size_t *written)
{
    cspec c;
    spec_map(&c, kkind, k, vkind, v, n);
    return cencode(&c, out, cap, written);
}

mote_err mote_cql_encode_list_buf(mote_buf *b, mote_cql_kind kind, const void *v, size_t n)
{
    cspec c;
    spec_list(&c, kind, v, n);
    return cencode_buf(b, &c);
}

mote_err mote_cql_encode_vector_buf(mote_buf *b, mote_cql_kind kind, const void *v, size_t n)
{
    cspec c;
    spec_vector(&c, kind, v, n);
    return cencode_buf(b, &c);
}

mote_err mote_cql_encode_map_buf(mote_buf *b, mote_cql_kind kkind, const void *k, mote_cql_kind vkind, const void *v,
                                 size_t n)
{
    cspec c;
    spec_map(&c, kkind, k, vkind, v, n);
    return cencode_buf(b, &c);
}

mote_err mote_cql_encode_array(const mote_cql_type *t, const void *v, size_t n, uint8_t *out,
                               size_t cap, size_t *written)
{
    if (written) *written = 0;
    if (!t || !t->sub) return MOTE_ERR_TYPE;
    cspec c;
    if (t->kind == MOTE_CQL_LIST || t->kind == MOTE_CQL_SET) {
        spec_list(&c, t->sub->kind, v, n);
    } else {
        if (t->kind != MOTE_CQL_VECTOR) return MOTE_ERR_TYPE;
        if (n != t->dim) return MOTE_ERR_DIMENSION;
        spec_vector(&c, t->sub->kind, v, n);
        c.typed = true;
        spec_fixed(&c, t->sub->fixed);
    }
    return cencode(&c, out, cap, written);
}

/* ---- bulk decoding: the iterator, stored into the caller's arrays --------- */

/* Decodes value in[0..len) of collection type t (list, set, map or vector)
 * into k (elements, map keys) and v (map values). */
static mote_err cdecode(const mote_cql_type *t, const uint8_t *in, size_t len, uint8_t *k,
                        uint8_t *v, size_t cap, size_t *n)
{
    mote_cql_iter it;
    mote_err e = mote_cql_iter_init(&it, t, in, len);
    if (e) return e;
    size_t count = it.count;
    bool map = t->kind == MOTE_CQL_MAP;
    if (count > cap) {
        if (n) *n = count;
        return MOTE_ERR_SPACE;
    }
    if ((!k || (map && !v)) && count > 0) return MOTE_ERR_INVALID;
#if !MOTE_SMALL
    /* Hot case: a list or set of 4- or 8-byte values in one kernel call. The
     * kernel checks every length; any surprise falls through to the careful
     * loop, which names the error. (Packed vectors never come here:
     * decode_vector() takes them. Nor empty lists: k may then be NULL, and
     * the kernel's k + 0 is undefined in C.) */
    int32_t w = wire_width(t->sub->kind);
    if (!map && count && (w == 4 || w == 8) && t->kind != MOTE_CQL_VECTOR && len - 4 == count * (4 + (size_t)w) &&
        (w == 4 ? mote__cql_list_get32(k, in + 4, count, MOTE_CQL_SIMD_BEST)
                : mote__cql_list_get64(k, in + 4, count, MOTE_CQL_SIMD_BEST))) {
        if (n) *n = count;
        return MOTE_OK;
    }
    /* Lists, sets and maps element by element without the iterator's
     * per-element bookkeeping: the same checks in the same order. */
    if (t->kind != MOTE_CQL_VECTOR) {
        int k0 = t->sub->kind, k1 = map ? t->sub->next->kind : k0;
        size_t c0 = csize(k0), c1 = csize(k1);
        const uint8_t *p = in + 4, *end = in + len;
        for (size_t i = 0; !map && i < count; i++) {
            const uint8_t *vp;
            size_t vl;
            e = read_bytes(&p, end, &vp, &vl);
            if (!e) e = store_elem(k0, k + i * c0, vp, vl);
            if (e) return e;
        }
        for (size_t i = 0; map && i < count; i++) {
            const uint8_t *vp;
            size_t vl;
            e = read_bytes(&p, end, &vp, &vl);
            if (!e && !vp) e = MOTE_ERR_UNEXPECTED_NULL; /* a map key */
            if (!e) e = store_elem(k0, k + i * c0, vp, vl);
            if (!e) e = read_bytes(&p, end, &vp, &vl);
            if (!e) e = store_elem(k1, v + i * c1, vp, vl);
            if (e) return e;
        }
        if (p != end) return MOTE_ERR_TRAILING;
        if (n) *n = count;
        return MOTE_OK;
    }
#endif
    /* k is the next slot: a map's key and value cursors swap after each
     * element (no index arithmetic) */
    mote_cql_value val;
    while (mote_cql_iter_next(&it, &val)) {
        int kind = val.type->kind;
        e = store_elem(kind, k, val.ptr, val.len);
        if (e) return e;
        k += csize(kind);
        if (map) {
            uint8_t *x = k;
            k = v;
            v = x;
        }
    }
    if (it.err) return it.err;
    if (n) *n = count;
    return MOTE_OK;
}

/* Type nodes for the kind-driven entry points: a collection of elem (and,
 * for a map, elem then val). */
static void mk_type(mote_cql_type *c, int ckind, mote_cql_type *elem, int kind)
{
    memset(elem, 0, sizeof *elem);
    elem->kind = (uint8_t)kind;
    elem->fixed = mote_cql_kind_fixed(kind);
    memset(c, 0, sizeof *c);
    c->kind = (uint8_t)ckind;
    c->nsub = 1;
    c->sub = elem;
}

mote_err mote_cql_decode_list(mote_cql_kind kind, const uint8_t *in, size_t len, void *v, size_t cap,
                              size_t *n)
{
    if (n) *n = 0;
    if (!valid_kind(kind)) return MOTE_ERR_TYPE;
    mote_cql_type t, e;
    mk_type(&t, MOTE_CQL_LIST, &e, kind);
    return cdecode(&t, in, len, (uint8_t *)v, NULL, cap, n);
}

/* Vector of t->dim elements: the checks before the input is looked at. */
static mote_err decode_vector(const mote_cql_type *t, const uint8_t *in, size_t len, void *v)
{
    if (!valid_kind(t->sub->kind)) return MOTE_ERR_TYPE;
    if ((!in && len > 0) || (!v && t->dim > 0)) return MOTE_ERR_INVALID;
    if (t->dim == 0) return MOTE_ERR_DIMENSION;
#if !MOTE_SMALL
    /* The hot case without the iterator's set-up: a packed vector of 4- or
     * 8-byte values whose length is exactly right. */
    int32_t w = wire_width(t->sub->kind);
    size_t need;
    if ((w == 4 || w == 8) && t->sub->fixed >= 0 && mote_size_mul(t->dim, (size_t)w, &need) &&
        need == len) {
        swap_packed(w, (uint8_t *)v, in, t->dim);
        return MOTE_OK;
    }
#endif
    return cdecode(t, in, len, (uint8_t *)v, NULL, t->dim, NULL);
}

mote_err mote_cql_decode_vector(mote_cql_kind kind, const uint8_t *in, size_t len, void *v, size_t dim)
{
    if (kind == MOTE_CQL_VECTOR) return MOTE_ERR_TYPE;
#if SIZE_MAX > UINT32_MAX
    /* More elements than 4 GiB of input can hold: the same error either way. */
    if (dim > UINT32_MAX) dim = UINT32_MAX;
#endif
    mote_cql_type t, e;
    mk_type(&t, MOTE_CQL_VECTOR, &e, kind); /* four arguments: in registers */
    t.dim = (uint32_t)dim;
    return decode_vector(&t, in, len, v);
}

mote_err mote_cql_decode_map(mote_cql_kind kkind, const uint8_t *in, size_t len, void *k, mote_cql_kind vkind,
                             void *v, size_t cap, size_t *n)
{
    if (n) *n = 0;
    if (!valid_kind(kkind) || !valid_kind(vkind)) return MOTE_ERR_TYPE;
    mote_cql_type t, e[2], unused;
    mk_type(&t, MOTE_CQL_MAP, &e[0], kkind);
    mk_type(&unused, MOTE_CQL_MAP, &e[1], vkind);
    t.nsub = 2;
    e[0].next = &e[1];
    return cdecode(&t, in, len, (uint8_t *)k, (uint8_t *)v, cap, n);
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
    mote_err e = decode_vector(t, in, len, v);
    if (!e && n) *n = t->dim;
    return e;
}

/* ---- validation ---------------------------------------------------------------- */

/* UTF-8 as Cassandra's text validator takes it (no overlongs, surrogates or
 * code points past U+10FFFF); ascii: no byte above 0x7f at all. */
static bool valid_text(const uint8_t *s, size_t n, bool ascii)
{
    if (!ascii) return mote_utf8_valid(s, n);
    for (size_t i = 0; i < n; i++)
        if (s[i] > 0x7f) return false;
    return true;
}

/* Months, days (both 32-bit) and nanoseconds as signed vints, exactly n
 * bytes; Cassandra wants all three of one sign. Vint errors come first.
 * Read in zigzag form: the low bit is the sign, and a value fits 32 bits
 * signed exactly when its zigzag form fits 32 bits unsigned. */
static mote_err check_duration(const uint8_t *p, size_t n)
{
    size_t at = 0;
    unsigned seen = 0; /* 1: a negative value, 2: a positive one, 4: too wide */
    for (int i = 0; i < 3; i++) {
        uint64_t u;
        size_t used;
        mote_err e = mote_cql_uvint_get(p + at, n - at, &u, &used);
        if (e) return e == MOTE_ERR_TRUNCATED ? MOTE_ERR_MISMATCH : e;
        at += used;
        if (i < 2 && (u >> 32)) seen |= 4;
        seen |= u & 1 ? 1 : u ? 2 : 0;
    }
    return seen >= 3 || at != n ? MOTE_ERR_MISMATCH : MOTE_OK;
}

/* One non-collection value of kind, n bytes, as the server validates it. */
static mote_err check_scalar(int kind, const uint8_t *p, size_t n)
{
    int32_t w = wire_width(kind);
    bool ok;
    if (n == 0 && empty_ok(kind)) {
        ok = true;
    } else if (w >= 0) {
        ok = n == (size_t)w && !(kind == MOTE_CQL_BOOLEAN && p[0] > 1);
    } else if (kind == MOTE_CQL_DURATION) {
        return check_duration(p, n);
    } else if (kind == MOTE_CQL_ASCII || kind == MOTE_CQL_TEXT) {
        ok = valid_text(p, n, kind == MOTE_CQL_ASCII);
    } else {
        /* varint at least 1 byte, decimal a 4-byte scale and 1; blob any */
        ok = n >= (kind == MOTE_CQL_DECIMAL ? 5u : kind == MOTE_CQL_VARINT ? 1u : 0u) &&
             (kind != MOTE_CQL_INET || n == 4 || n == 16);
    }
    return ok ? MOTE_OK : MOTE_ERR_MISMATCH;
}

/* Iterative depth-first walk with a stack of iterators instead of recursion:
 * fixed, small stack use whatever the type (Cortex-M budget). */
mote_err mote_cql_validate(const mote_cql_type *t, const uint8_t *in, size_t len)
{
    if (!t || (!in && len > 0)) return MOTE_ERR_INVALID;
    if (!is_collection(t->kind)) return check_scalar(t->kind, in, len);
    mote_cql_iter st[MOTE_CQL_MAX_DEPTH];
    /* the innermost open collection, by pointer: its fields at small
     * offsets, where st[depth - 1] costs a multiply per use (Thumb code) */
    mote_cql_iter *it = st;
    mote_err e = mote_cql_iter_init(it, t, in, len);
    if (e) return e;
    for (;;) {
        mote_cql_value v;
        if (!mote_cql_iter_next(it, &v)) {
            e = it->err;
            if (e) return e;
            if (it == st) return MOTE_OK;
            it--;
            continue;
        }
        if (v.null) {
            if (it->type->kind != MOTE_CQL_TUPLE) return MOTE_ERR_UNEXPECTED_NULL;
            continue;
        }
        if (is_collection(v.type->kind)) {
            /* only a type built by hand can be deeper than the parser allows */
            if (it == &st[MOTE_CQL_MAX_DEPTH - 1]) return MOTE_ERR_DEPTH;
            e = mote_cql_iter_init(it + 1, v.type, v.ptr, v.len);
            if (e) return e;
            it++;
        } else {
            e = check_scalar(v.type->kind, v.ptr, v.len);
            if (e) return e;
        }
    }
}

/* ---- writer ---------------------------------------------------------------- */

mote_err mote_cql_writer_init(mote_cql_writer *w, const mote_cql_type *t, uint8_t *out,
                              size_t cap)
{
    if (!w) return MOTE_ERR_INVALID;
    memset(w, 0, sizeof *w);
    w->root = t;
    w->out = out;
    w->cap = out ? cap : 0;
    if (!t) w->err = MOTE_ERR_INVALID;
    return w->err;
}

const mote_cql_type *mote_cql_writer_expect(const mote_cql_writer *w)
{
    if (!w || w->done || w->err) return NULL;
    /* (NULL in a full tuple or vector: wadvance()) */
    return w->depth == 0 ? w->root : w->stack[w->depth - 1].next;
}

/* Records the writer's error. Only called while it has none: every entry
 * point returns a standing error first (wclaim, write_end), and wvalue's
 * argument check, which comes before, keeps the standing one itself. */
static mote_err wfail(mote_cql_writer *w, mote_err e)
{
    w->err = e;
    return e;
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
    const mote_cql_writer_frame *f = &w->stack[w->depth - 1];
    const mote_cql_type *c = f->type;
    const mote_cql_type *t = f->next;
    /* read once: gcc otherwise recomputes the frame's address per use */
    const uint32_t count = f->count;
    switch (c->kind) {
    case MOTE_CQL_VECTOR:
        if (count >= c->dim) return wfail(w, MOTE_ERR_DIMENSION);
        if (is_null) return wfail(w, MOTE_ERR_UNEXPECTED_NULL);
        *pfx = t->fixed >= 0 ? PFX_NONE : PFX_VINT;
        break;
    case MOTE_CQL_TUPLE:
        if (count >= c->nsub) return wfail(w, MOTE_ERR_DIMENSION);
        *pfx = PFX_INT;
        break;
    default: /* list, set, map: the server refuses nulls in collections */
        if (is_null) return wfail(w, MOTE_ERR_UNEXPECTED_NULL);
        *pfx = PFX_INT;
        break;
    }
    if (count >= (uint32_t)INT32_MAX) return wfail(w, MOTE_ERR_OVERFLOW);
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
        f->next = f->next->next; /* NULL after the last: wclaim() refuses more first */
    } else if (f->type->kind == MOTE_CQL_VECTOR && f->count == f->type->dim) {
        f->next = NULL; /* (as a tuple's) */
    }
}

/* n of an element that is null: its length prefix is CQL's -1 (0xffffffff
 * as a 32-bit length), its body empty. */
#define WNULL ((size_t)-1)

/* Writes a complete scalar element of n bytes from src (or null, n WNULL):
 * prefix and value reserved together. */
static mote_err wscalar(mote_cql_writer *w, int pfx, const void *src, size_t n)
{
    size_t body = n == WNULL ? 0 : n;
    if (body > MAXL) return wfail(w, MOTE_ERR_OVERFLOW);
    size_t plen = pfx_size(pfx, body);
    uint8_t *p = wroom(w, plen + body);
    if (w->err) return w->err;
    if (p) {
        pfx_put(pfx, p, (uint32_t)n); /* WNULL: 0xffffffff */
        if (body) {
            /* scalars are short: a byte loop beats a library memcpy call */
            if (!MOTE_SMALL && body <= 16) {
                const uint8_t *b = (const uint8_t *)src;
                for (size_t i = 0; i < body; i++) p[plen + i] = b[i];
            } else {
                memcpy(p + plen, src, body);
            }
        }
    }
    wadvance(w);
    return w->short_space ? MOTE_ERR_SPACE : MOTE_OK;
}

/* What a write_* call supplies (write_float has its own path: it alone
 * needs floating point, which a Cortex-M0+ does in library helpers). */
enum { WV_NULL, WV_BOOL, WV_INT, WV_BYTES };

/* One path for null, bool, integer and byte elements: claim the slot, check
 * the value against its type, write it. src: the bytes, or the caller's
 * bool (its one byte, 0 or 1, is CQL's) or int64_t: four arguments, the
 * ones Arm passes in registers. */
static mote_err wvalue(mote_cql_writer *w, int what, const void *src, size_t n)
{
    if (!w) return MOTE_ERR_INVALID;
    if (!src && n > 0) return w->err ? w->err : wfail(w, MOTE_ERR_INVALID);
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, what == WV_NULL, &t, &pfx);
    if (e) return e;
    int kind = t->kind;
    int32_t ww = wire_width(kind);
    uint8_t b[8];
    if (what == WV_BOOL) {
        _Static_assert(sizeof(bool) == 1, "a bool is CQL's one byte");
        if (kind != MOTE_CQL_BOOLEAN) return wfail(w, MOTE_ERR_MISMATCH);
    } else if (what == WV_INT) {
        /* Every integer kind: the big-endian 8 bytes, then the low ones
         * that the type holds (varint: as few as keep the value, minimal
         * two's complement); the bytes dropped must all repeat the sign of
         * the first one kept (date: unsigned, zeros). */
        const uint32_t int_kinds =
            1u << MOTE_CQL_TINYINT | 1u << MOTE_CQL_SMALLINT | 1u << MOTE_CQL_INT |
            1u << MOTE_CQL_BIGINT | 1u << MOTE_CQL_COUNTER | 1u << MOTE_CQL_TIMESTAMP |
            1u << MOTE_CQL_TIME | 1u << MOTE_CQL_DATE | 1u << MOTE_CQL_VARINT;
        if (kind > MOTE_CQL_VECTOR || !((int_kinds >> kind) & 1))
            return wfail(w, MOTE_ERR_MISMATCH);
        int64_t v;
        memcpy(&v, src, sizeof v);
        mote_be_store64(b, (uint64_t)v);
        size_t s = 0;
        if (kind == MOTE_CQL_VARINT) {
            while (s < 7 && b[s] == (uint8_t)-(b[s + 1] >> 7)) s++;
        } else {
            s = 8 - (size_t)ww;
        }
        uint8_t fill = kind == MOTE_CQL_DATE ? 0 : (uint8_t)-(b[s] >> 7);
        for (size_t i = 0; i < s; i++) {
            if (b[i] != fill) return wfail(w, MOTE_ERR_MISMATCH);
        }
        src = b + s;
        n = 8 - s;
    } else if (what == WV_BYTES) {
        /* packed vector element: exactly its width; zero bytes: the empty
         * value, where the kind has one */
        if (pfx == PFX_NONE && w->depth > 0 ? n != (size_t)t->fixed
            : n == 0 ? !empty_ok(kind)
                     : (ww >= 0 && n != (size_t)ww) || (kind == MOTE_CQL_INET && n != 4 && n != 16))
            return wfail(w, MOTE_ERR_MISMATCH);
    }
    return wscalar(w, pfx, src, what == WV_NULL ? WNULL : n);
}

mote_err mote_cql_write_null(mote_cql_writer *w)
{
    return wvalue(w, WV_NULL, NULL, 0);
}

mote_err mote_cql_write_bool(mote_cql_writer *w, bool v)
{
    return wvalue(w, WV_BOOL, &v, 1);
}

mote_err mote_cql_write_int(mote_cql_writer *w, int64_t v)
{
    return wvalue(w, WV_INT, &v, sizeof v);
}

mote_err mote_cql_write_bytes(mote_cql_writer *w, const void *p, size_t n)
{
    return wvalue(w, WV_BYTES, p, n);
}

mote_err mote_cql_write_float(mote_cql_writer *w, double v)
{
    if (!w) return MOTE_ERR_INVALID;
    const mote_cql_type *t;
    int pfx;
    mote_err e = wclaim(w, false, &t, &pfx);
    if (e) return e;
    uint8_t b[8];
    size_t n = 8;
    if (t->kind == MOTE_CQL_FLOAT) {
        mote_be_storef32(b, (float)v);
        n = 4;
    } else if (t->kind == MOTE_CQL_DOUBLE) {
        mote_be_storef64(b, v);
    } else {
        return wfail(w, MOTE_ERR_MISMATCH);
    }
    return wscalar(w, pfx, b, n);
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
    /* Zeroed placeholders, reserved at once: the element's length (4 bytes,
     * or one vint byte that end() widens if needed) and a list/set/map
     * count. end() fills them in. */
    size_t len_at = w->len;
    size_t plen = pfx_size(pfx, 0);
    size_t clen = t->kind <= MOTE_CQL_MAP ? 4 : 0; /* list, set, map */
    uint8_t *p = wroom(w, plen + clen);
    if (p) memset(p, 0, plen + clen);
    if (w->err) return w->err;
    mote_cql_writer_frame *f = &w->stack[w->depth++];
    f->type = t;
    f->next = t->sub;
    f->len_at = pfx == PFX_NONE ? SIZE_MAX : len_at;
    f->vint = pfx == PFX_VINT;
    f->count = 0;
    f->start = len_at + plen;
    return w->short_space ? MOTE_ERR_SPACE : MOTE_OK;
}

mote_err mote_cql_write_end(mote_cql_writer *w)
{
    if (!w) return MOTE_ERR_INVALID;
    if (w->err) return w->err;
    if (w->depth == 0) return wfail(w, MOTE_ERR_STATE);
    const mote_cql_writer_frame *f = &w->stack[w->depth - 1];
    const mote_cql_type *t = f->type;
    /* each field read once: gcc otherwise recomputes the frame's address
     * (a multiply) per use */
    const uint32_t count = f->count;
    const size_t start = f->start, len_at = f->len_at;
    const bool vint = f->vint;
    /* a tuple may end early: its trailing components are absent, which the
     * server reads as null (what the iterator reports as absent) */
    if (t->kind == MOTE_CQL_VECTOR && count != t->dim) return wfail(w, MOTE_ERR_DIMENSION);
    if (t->kind == MOTE_CQL_MAP && (count & 1)) return wfail(w, MOTE_ERR_STATE);
    if (w->out && t->kind <= MOTE_CQL_MAP) /* list, set, map: the count */
        mote_be_store32(w->out + start, t->kind == MOTE_CQL_MAP ? count / 2 : count);
    if (len_at != SIZE_MAX) {
        size_t body = w->len - start;
        if (body > MAXL) return wfail(w, MOTE_ERR_OVERFLOW);
        /* A vint length longer than its one-byte placeholder: move the body. */
        size_t k = vint ? mote_cql_uvint_size(body) : 1;
        if (k > 1) {
            size_t old = w->len;
            wroom(w, k - 1);
            if (w->err) return w->err;
            if (w->out) memmove(w->out + start + k - 1, w->out + start, old - start);
        }
        if (w->out) pfx_put(vint ? PFX_VINT : PFX_INT, w->out + len_at, (uint32_t)body);
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

