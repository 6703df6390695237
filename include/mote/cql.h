/*
 * mote/cql.h - Cassandra/ScyllaDB CQL collection values: list, set, map,
 * tuple and vector, encoded and decoded as the native protocol (v4/v5) puts
 * them on the wire.
 *
 * Wire format (all integers big-endian):
 *   [int]    4 bytes, signed.
 *   [bytes]  [int] n, then n bytes; n < 0 is null (-1 on output).
 *   list, set   [int] count, then count x [bytes] element.
 *   map         [int] count, then count x ([bytes] key, [bytes] value).
 *   tuple       one [bytes] per component of the type, no count.
 *   vector<T,d> no count, no header, exactly d elements, never null. If T has
 *               a fixed length under Cassandra's rule (boolean 1; int, float
 *               4; bigint, double, timestamp 8; uuid, timeuuid 16; a vector
 *               of a fixed-length type d*len) the elements are packed;
 *               otherwise each is preceded by its length as an unsigned vint.
 *   unsigned vint  Cassandra's, not LEB128: the number of leading 1-bits of
 *               the first byte is the number of extra bytes, the value
 *               follows big-endian (127 -> 7f, 128 -> 80 80, 16384 ->
 *               c0 40 00, 2^64-1 -> nine ff). Signed vint = zigzag over it.
 * Element values: boolean 1 byte (00/01), tinyint 1, smallint 2, int 4,
 * bigint/counter/timestamp (ms since epoch)/time (ns since midnight) 8,
 * date 4 (unsigned days, 2^31 = 1970-01-01), float 4, double 8 (IEEE bits),
 * uuid/timeuuid 16, inet 4 or 16, text/ascii/blob raw bytes, varint two's
 * complement, decimal [int] scale + varint, duration 3 signed vints.
 *
 * Nothing here allocates: sizes are computed exactly first (every add and
 * multiply checked; counts and lengths limited to 2^31-1 as the protocol
 * requires) and values are written in one pass into memory the caller gives.
 * Decoders write into caller arrays or hand out views into the input.
 *
 * Nulls: encoders follow the Cassandra server, which refuses null elements
 * in lists, sets, maps ("null is not supported inside collections") and
 * vectors; only tuple components may be null. Decoders report a null
 * ([int] -1) list/set element or map value per element, as Cassandra's own
 * deserializer does, and mote_cql_validate (the server's validation) refuses it.
 *
 * Strictness: decoders accept exactly what the encoders produce, so that
 * decode followed by encode gives the input back. In particular they reject
 * non-minimal vints and booleans other than 00/01. Two forms the server
 * itself stores and returns are accepted, and can be written too:
 *   - empty values: a zero-length value of bigint, boolean, counter,
 *     decimal, double, float, inet, int, timestamp, timeuuid, uuid or varint
 *     (blobAsInt(0x) gives one) is Cassandra's "empty" value, distinct from
 *     null. The iterator reports it with ptr non-NULL, len 0 and empty set;
 *     validate accepts it; mote_cql_write_bytes(w, p, 0) writes it. The
 *     types that came with protocol v4 (smallint, tinyint, date, time,
 *     duration) have no empty value, as on the server. Bulk decoders into C
 *     arrays have no way to hold one: an empty element is MOTE_ERR_MISMATCH
 *     there (use the iterator).
 *   - short tuples: a tuple value that ends before its last components
 *     (the literal (5) for tuple<int, text> is stored as 0000000400000005)
 *     has those components null; the iterator reports them with null and
 *     absent set, and the writer writes such a value when a tuple is ended
 *     early.
 */
#ifndef MOTE_CQL_H
#define MOTE_CQL_H

#include "mote/common.h"
#include "mote/arena.h"
#include "mote/buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest nesting accepted by the type parser: list<int> has depth 2 (the
 * list and its int), list<frozen<list<int>>> depth 3. Deeper types are
 * MOTE_ERR_DEPTH. It bounds recursion (and so stack use) everywhere else. */
#ifndef MOTE_CQL_MAX_DEPTH
#define MOTE_CQL_MAX_DEPTH 8
#endif

/* Largest count, element length or value length the protocol can carry. */
#define MOTE_CQL_MAX_LEN ((size_t)INT32_MAX)

typedef enum mote_cql_kind {
    MOTE_CQL_ASCII = 1,
    MOTE_CQL_BIGINT,
    MOTE_CQL_BLOB,
    MOTE_CQL_BOOLEAN,
    MOTE_CQL_COUNTER,
    MOTE_CQL_DATE,
    MOTE_CQL_DECIMAL,
    MOTE_CQL_DOUBLE,
    MOTE_CQL_DURATION,
    MOTE_CQL_FLOAT,
    MOTE_CQL_INET,
    MOTE_CQL_INT,
    MOTE_CQL_SMALLINT,
    MOTE_CQL_TEXT,        /* also varchar */
    MOTE_CQL_TIME,
    MOTE_CQL_TIMESTAMP,
    MOTE_CQL_TIMEUUID,
    MOTE_CQL_TINYINT,
    MOTE_CQL_UUID,
    MOTE_CQL_VARINT,
    MOTE_CQL_LIST,
    MOTE_CQL_SET,
    MOTE_CQL_MAP,
    MOTE_CQL_TUPLE,
    MOTE_CQL_VECTOR
} mote_cql_kind;

/*
 * A type descriptor node. Read-only for callers. Children of list/set/vector
 * (one), map (key, then value) and tuple (components in order) are reached
 * through sub and then next.
 */
typedef struct mote_cql_type {
    uint8_t kind;          /* a mote_cql_kind, stored in a byte to keep nodes small */
    uint8_t frozen;        /* written as frozen<...> (no effect on the wire) */
    uint16_t nsub;         /* number of children */
    uint32_t dim;          /* vector dimension (>= 1); 0 otherwise */
    int32_t fixed;         /* value length if fixed under Cassandra's vector rule, else -1 */
    const struct mote_cql_type *sub;   /* first child or NULL */
    const struct mote_cql_type *next;  /* next sibling or NULL */
} mote_cql_type;

/* Static name of a kind as CQL spells it ("bigint", "list"); "?" if unknown. */
const char *mote_cql_kind_name(mote_cql_kind kind);

/* Fixed value length of a native kind under Cassandra's vector rule (1, 4, 8,
 * 16), or -1 for kinds whose elements carry a vint length in a vector. */
int mote_cql_kind_fixed(mote_cql_kind kind);

/*
 * Parse a type from CQL text ("vector<float, 768>", "map<text, frozen<list<
 * int>>>", "tuple<int, text>", case-insensitive, spaces allowed; "varchar" =
 * text) or from a Cassandra marshal class name ("org.apache.cassandra.db.
 * marshal.VectorType(org.apache.cassandra.db.marshal.FloatType, 768)",
 * "ListType(Int32Type)", "FrozenType(...)", package prefix optional) into
 * nodes[0..cap). The root is nodes[0] and is stored in *root.
 * *used (may be NULL) receives the number of nodes the type needs, also when
 * they do not fit. Nodes must outlive every use of the descriptor; the text
 * may be discarded. The whole text must be one type (trailing spaces OK).
 * Returns MOTE_OK; MOTE_ERR_SPACE (cap too small: call again with *used
 * nodes; nodes==NULL with cap 0 only counts); MOTE_ERR_BAD_TYPE (syntax,
 * unknown name, wrong number of parameters, vector dimension outside
 * 1..2^31-1 or a fixed vector longer than 2^31-1 bytes); MOTE_ERR_DEPTH
 * (nesting deeper than MOTE_CQL_MAX_DEPTH); MOTE_ERR_INVALID (NULL text
 * with len > 0 or NULL root). On error *root is NULL.
 */
MOTE_NODISCARD mote_err mote_cql_type_parse(const char *text, size_t len, mote_cql_type *nodes, size_t cap,
                             size_t *used, const mote_cql_type **root);

/*
 * As mote_cql_type_parse, with the nodes taken from arena a: exactly as many
 * as the type needs (the text is parsed twice: once to count, once to fill).
 * The descriptor lives as long as the arena's memory (until a restore to an
 * earlier mark, reset or destroy). Returns the parse errors (nothing is
 * allocated then), MOTE_ERR_NOMEM if the arena cannot provide the nodes, or
 * MOTE_ERR_INVALID (NULL a or root).
 */
MOTE_NODISCARD mote_err mote_cql_type_parse_arena(mote_arena *a, const char *text, size_t len,
                                   const mote_cql_type **root);

/* Write t as CQL text ("map<text, frozen<list<int>>>") to out[0..cap) (no
 * NUL). *len (may be NULL) receives the length the text needs, also when it
 * does not fit. Returns MOTE_OK; MOTE_ERR_SPACE (cap too small: call again
 * with *len bytes; out[0..cap) holds a prefix of the text; out NULL with cap 0
 * only measures); MOTE_ERR_INVALID (NULL t, *len 0). */
MOTE_NODISCARD mote_err mote_cql_type_format(const mote_cql_type *t, char *out, size_t cap, size_t *len);

/* ---- vints ------------------------------------------------------------ */

/* Bytes the unsigned vint of v takes: 1..9. */
size_t mote_cql_uvint_size(uint64_t v);
/* Write v as an unsigned vint to out (room for 9 bytes always suffices);
 * returns the bytes written. */
size_t mote_cql_uvint_put(uint8_t *out, uint64_t v);
/*
 * Read an unsigned vint from in[0..len). Returns MOTE_OK and sets *v and
 * *used; MOTE_ERR_TRUNCATED if the input ends inside it; MOTE_ERR_BAD_VINT
 * if it is not the minimal encoding of its value (which is how every encoder
 * writes it). Nothing is written on error.
 */
MOTE_NODISCARD mote_err mote_cql_uvint_get(const uint8_t *in, size_t len, uint64_t *v, size_t *used);
/* Signed vints: zigzag ((v << 1) ^ (v >> 63)) over the unsigned form. */
size_t mote_cql_vint_put(uint8_t *out, int64_t v);
MOTE_NODISCARD mote_err mote_cql_vint_get(const uint8_t *in, size_t len, int64_t *v, size_t *used);

/* ---- bulk arrays of native values ---------------------------------------
 *
 * The element kind selects the C type of the caller's array:
 *   BOOLEAN uint8_t (0 or 1)        TINYINT int8_t     SMALLINT int16_t
 *   INT int32_t    DATE uint32_t    BIGINT, COUNTER, TIMESTAMP, TIME int64_t
 *   FLOAT float    DOUBLE double    UUID, TIMEUUID uint8_t[16]
 *   ASCII, TEXT, BLOB, VARINT, DECIMAL, INET, DURATION and the collection
 *   kinds: mote_view holding the element's encoded value bytes. Decoders set
 *   ptr == NULL for a null element; encoders refuse one (see "Nulls").
 * Lists and sets share one wire format: use the LIST entry points for both.
 */

/* Exact encoded size of a list/set (4 + per element 4 + length), a vector,
 * or a map of n elements/entries; for view kinds the views are read. Returns
 * MOTE_OK; MOTE_ERR_OVERFLOW if a length, the count or the total exceeds
 * 2^31-1; MOTE_ERR_TYPE for a kind without an array form; MOTE_ERR_DIMENSION
 * for a vector with n == 0; MOTE_ERR_UNEXPECTED_NULL for a null view;
 * MOTE_ERR_MISMATCH for a view of the wrong length for a fixed kind (inet
 * not 4 or 16). */
MOTE_NODISCARD mote_err mote_cql_list_size(mote_cql_kind kind, const void *v, size_t n, size_t *size);
MOTE_NODISCARD mote_err mote_cql_vector_size(mote_cql_kind kind, const void *v, size_t n, size_t *size);
MOTE_NODISCARD mote_err mote_cql_map_size(mote_cql_kind kkind, const void *k, mote_cql_kind vkind, const void *v, size_t n,
                           size_t *size);

/*
 * Encode n elements of kind into out[0..cap) as a list/set, a vector (n is
 * the dimension), or a map (k[i] -> v[i]). *written (may be NULL) receives the
 * size, also when it does not fit. Returns the *_size errors, or
 * MOTE_ERR_SPACE (cap too small; nothing written), MOTE_ERR_INVALID (NULL
 * out with cap > 0, NULL array with n > 0). One pass, no allocation; int32,
 * int64, float, double and uuid arrays use the byte-swap kernels.
 */
MOTE_NODISCARD mote_err mote_cql_encode_list(mote_cql_kind kind, const void *v, size_t n, uint8_t *out, size_t cap,
                              size_t *written);
MOTE_NODISCARD mote_err mote_cql_encode_vector(mote_cql_kind kind, const void *v, size_t n, uint8_t *out, size_t cap,
                                size_t *written);
MOTE_NODISCARD mote_err mote_cql_encode_map(mote_cql_kind kkind, const void *k, mote_cql_kind vkind, const void *v, size_t n,
                             uint8_t *out, size_t cap, size_t *written);

/*
 * The same, appended to a growable buffer: the exact size is computed, room
 * reserved once, the value written into the buffer's tail and committed.
 * Returns the *_size errors or mote_buf_reserve's (MOTE_ERR_LIMIT,
 * MOTE_ERR_NOMEM, MOTE_ERR_OVERFLOW); on error the buffer is unchanged.
 * Pointers into the buffer's data may move (it may grow).
 */
MOTE_NODISCARD mote_err mote_cql_encode_list_buf(mote_buf *b, mote_cql_kind kind, const void *v, size_t n);
MOTE_NODISCARD mote_err mote_cql_encode_vector_buf(mote_buf *b, mote_cql_kind kind, const void *v, size_t n);
MOTE_NODISCARD mote_err mote_cql_encode_map_buf(mote_buf *b, mote_cql_kind kkind, const void *k, mote_cql_kind vkind, const void *v,
                                 size_t n);

/*
 * Decode a list/set value in[0..len) of elements of kind into v[0..cap).
 * *n receives the element count (also on MOTE_ERR_SPACE, so the caller can
 * size an array and retry). Views point into in and stay valid as long as it.
 * Returns MOTE_OK; MOTE_ERR_TRUNCATED (input ends early); MOTE_ERR_TRAILING
 * (bytes after the last element); MOTE_ERR_BAD_LENGTH (negative count, count
 * larger than the remaining bytes allow - checked before anything else - or
 * an element length below -1); MOTE_ERR_UNEXPECTED_NULL (null element of a
 * non-view kind); MOTE_ERR_MISMATCH (element of the wrong length for its
 * kind, boolean not 00/01); MOTE_ERR_SPACE; MOTE_ERR_TYPE. On error the
 * contents of v are unspecified and *n is 0 unless the error is SPACE.
 */
MOTE_NODISCARD mote_err mote_cql_decode_list(mote_cql_kind kind, const uint8_t *in, size_t len, void *v, size_t cap,
                              size_t *n);
/* Decode a vector of exactly dim elements into v[0..dim). Errors as above
 * plus MOTE_ERR_BAD_VINT (bad element length), MOTE_ERR_DIMENSION (dim 0, or
 * the input holds another number of elements: for packed kinds len !=
 * dim*width). */
MOTE_NODISCARD mote_err mote_cql_decode_vector(mote_cql_kind kind, const uint8_t *in, size_t len, void *v, size_t dim);
/* Decode a map into k[0..cap) and v[0..cap); null keys are
 * MOTE_ERR_UNEXPECTED_NULL. */
MOTE_NODISCARD mote_err mote_cql_decode_map(mote_cql_kind kkind, const uint8_t *in, size_t len, void *k, mote_cql_kind vkind,
                             void *v, size_t cap, size_t *n);

/* Type-driven forms: t is a list, set or vector whose element is a native
 * kind (or a collection, as views); a vector's n must equal its dimension
 * (MOTE_ERR_DIMENSION). Same contracts as above. */
MOTE_NODISCARD mote_err mote_cql_encode_array(const mote_cql_type *t, const void *v, size_t n, uint8_t *out,
                               size_t cap, size_t *written);
MOTE_NODISCARD mote_err mote_cql_decode_array(const mote_cql_type *t, const uint8_t *in, size_t len, void *v,
                               size_t cap, size_t *n);

/* ---- element iterator ---------------------------------------------------- */

/* One element: its type, and its value bytes as a view into the input. */
typedef struct mote_cql_value {
    const mote_cql_type *type;
    const uint8_t *ptr;    /* NULL if null */
    size_t len;
    bool null;
    bool empty;            /* a zero-length value, not null (see "Strictness") */
    bool absent;           /* null because a short tuple ended before it */
} mote_cql_value;

typedef struct mote_cql_iter {
    const uint8_t *p;           /* private */
    const uint8_t *end;
    const mote_cql_type *type;
    const mote_cql_type *next_type;
    size_t left;                /* elements still to come (a map entry counts 2) */
    size_t count;               /* elements (map: entries; tuple: components) */
    mote_err err;
} mote_cql_iter;

/*
 * Iterate over the elements of a list, set, map (key, value, key, value...),
 * tuple or vector value in[0..len) of type t. Only this level is checked;
 * nested values come out as views to iterate or decode in turn.
 * init reads the count (if any) and checks it against len before anything
 * else. Returns MOTE_OK or MOTE_ERR_TRUNCATED / MOTE_ERR_BAD_LENGTH /
 * MOTE_ERR_DIMENSION (vector: len does not fit dim packed elements) /
 * MOTE_ERR_TYPE (t is not a collection) / MOTE_ERR_INVALID (NULL arguments).
 * On success mote_cql_iter_count gives the number of elements (map:
 * entries; tuple: components; vector: its dimension). The iterator holds no
 * memory; views it hands out point into in.
 */
MOTE_NODISCARD mote_err mote_cql_iter_init(mote_cql_iter *it, const mote_cql_type *t, const uint8_t *in,
                            size_t len);
/*
 * Next element into *out: true if there was one. false at the end or on an
 * error; mote_cql_iter_err then says which (MOTE_OK at a clean end;
 * MOTE_ERR_TRAILING if bytes are left after the last element; TRUNCATED,
 * BAD_LENGTH, BAD_VINT, UNEXPECTED_NULL (null in a vector or map key),
 * MISMATCH (wrong length for a fixed-width element)). Errors are sticky.
 */
bool mote_cql_iter_next(mote_cql_iter *it, mote_cql_value *out);
mote_err mote_cql_iter_err(const mote_cql_iter *it);
size_t mote_cql_iter_count(const mote_cql_iter *it);

/*
 * Check that in[0..len) is exactly one valid value of type t, all the way
 * down, as the Cassandra server validates it: every count, length, vint,
 * fixed width, boolean, inet, ascii/UTF-8 text and duration, and no null
 * element outside tuples. Returns MOTE_OK or the first error as listed for
 * the iterator (MOTE_ERR_UNEXPECTED_NULL for a null list/set element or map
 * value; MOTE_ERR_DEPTH for a hand-built type deeper than MOTE_CQL_MAX_DEPTH).
 * Uses a fixed amount of stack (no recursion).
 */
MOTE_NODISCARD mote_err mote_cql_validate(const mote_cql_type *t, const uint8_t *in, size_t len);

/*
 * Duplicates. A set value with two equal elements, or a map value with two
 * equal keys, is accepted by every decoder, the iterator and
 * mote_cql_validate, as it is by the server: Cassandra's validation does not
 * look for duplicates, and when it reads the value a set keeps one of the
 * equal elements and a map the last value given for a key (LinkedHashSet /
 * LinkedHashMap), so what is stored can hold fewer elements than what was
 * sent. A caller that wants to know calls mote_cql_find_duplicate
 * (mote/cql_literal.h, hosted builds), which reports the first one as
 * MOTE_ERR_DUPLICATE with its position.
 */

/* ---- general element-by-element writer -----------------------------------
 *
 * Builds a value of any type, null tuple components included, by walking the
 * type: each call
 * supplies the next element where the type expects it (list/set elements,
 * map key then value, tuple components in order, vector elements). Nested
 * collections are opened with begin and closed with end. Errors are sticky:
 * after the first, every call returns it and writes nothing.
 * With out == NULL the writer only measures: run the same calls twice, first
 * to learn the exact size, then to write into a buffer of that size.
 */
typedef struct mote_cql_writer_frame {
    const mote_cql_type *type;   /* the open collection */
    const mote_cql_type *next;   /* type of the next element */
    size_t start;                /* offset of its count / first element */
    size_t len_at;               /* offset of its own length prefix, or SIZE_MAX */
    uint32_t count;              /* elements written (map: keys + values) */
    bool vint;                   /* its length prefix is a vint (vector element) */
} mote_cql_writer_frame;

typedef struct mote_cql_writer {
    uint8_t *out;                /* private */
    size_t cap;
    size_t len;
    const mote_cql_type *root;
    mote_err err;
    unsigned depth;
    bool done;
    bool short_space;            /* out was too small: measuring from then on */
    mote_cql_writer_frame stack[MOTE_CQL_MAX_DEPTH];
} mote_cql_writer;

/* Start a value of type t into out[0..cap) (out NULL, cap 0: measure).
 * Returns MOTE_OK, or MOTE_ERR_INVALID for a NULL w (nothing written) or a
 * NULL t (the writer then holds INVALID as its sticky error). */
MOTE_NODISCARD mote_err mote_cql_writer_init(mote_cql_writer *w, const mote_cql_type *t, uint8_t *out,
                              size_t cap);

/*
 * Element writers. Each checks the element against the expected type and
 * returns MOTE_OK or: MOTE_ERR_MISMATCH (wrong kind of value for the type, or
 * an integer out of the type's range, a byte view of the wrong length for a
 * fixed-width type), MOTE_ERR_UNEXPECTED_NULL (null anywhere but a tuple
 * component), MOTE_ERR_STATE (value already complete, or end without
 * an open collection), MOTE_ERR_DIMENSION (too many elements for a vector or
 * tuple, or a vector ended before all of them), MOTE_ERR_SPACE (out too small; the
 * writer stays usable only for measuring), MOTE_ERR_OVERFLOW (a count or
 * length over 2^31-1), MOTE_ERR_DEPTH.
 *   null  - a null tuple component.
 *   bool  - boolean.
 *   int   - tinyint, smallint, int, bigint, counter, timestamp, time, date
 *           (as the unsigned 32-bit wire value), varint (minimal two's
 *           complement), range-checked.
 *   float - float (converted from double; must be exactly representable or
 *           rounds to nearest) or double.
 *   bytes - the encoded value bytes of any non-collection type (text, blob,
 *           uuid, inet, decimal, duration...; fixed widths checked, zero
 *           bytes allowed where the type has an empty value) or of a
 *           whole nested collection already encoded.
 *   begin/end - open and close a nested list, set, map, tuple or vector
 *           where one is expected (also the top-level value). A tuple may
 *           be ended before all its components: the rest are absent (null
 *           to the server, see "Strictness"); a vector may not
 *           (MOTE_ERR_DIMENSION).
 */
mote_err mote_cql_write_null(mote_cql_writer *w);
mote_err mote_cql_write_bool(mote_cql_writer *w, bool v);
mote_err mote_cql_write_int(mote_cql_writer *w, int64_t v);
mote_err mote_cql_write_float(mote_cql_writer *w, double v);
mote_err mote_cql_write_bytes(mote_cql_writer *w, const void *p, size_t n);
mote_err mote_cql_write_begin(mote_cql_writer *w);
mote_err mote_cql_write_end(mote_cql_writer *w);
/* Type expected for the next element (NULL when none may come: the value
 * is complete, or the open tuple or vector has all its elements). */
const mote_cql_type *mote_cql_writer_expect(const mote_cql_writer *w);
/* Finish: the value must be complete. *len receives its size (the bytes are
 * out[0..*len) unless measuring). Returns MOTE_OK, the sticky error, or
 * MOTE_ERR_STATE if the value is incomplete. */
MOTE_NODISCARD mote_err mote_cql_writer_finish(mote_cql_writer *w, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_CQL_H */
