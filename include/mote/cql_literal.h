/*
 * mote/cql_literal.h - CQL values as cqlsh literals: parse a literal into the
 * bytes of a value of a type, and format the bytes of a value as a literal.
 *
 * For people and agents that show or take values as text: `mote cql
 * encode/decode`, `lp_agent --cql` (rows as INSERT statements a newcomer can
 * paste into cqlsh). Numbers go through mote/num.h, so results do not depend
 * on the locale and floats are correctly rounded both ways.
 *
 * Literal syntax (what cqlsh accepts, and what format writes):
 *   [1, 2] list or vector, {1, 2} set, {'a': 1} map, (1, 'x') tuple,
 *   null (a tuple component only: the writer refuses null elsewhere),
 *   'it''s' text/ascii ('' is a quote), 0xcafe blob, true/false,
 *   integers as written (tinyint..bigint, counter, varint of any length),
 *   decimal as Java's BigDecimal reads it (1.250, -1E+3),
 *   float/double as decimal numbers, NaN, Infinity, -Infinity,
 *   uuid/timeuuid bare or quoted (timeuuid must be version 1),
 *   inet '1.2.3.4' or '::1' (::ffff:a.b.c.d becomes the 4-byte IPv4 address,
 *     as Cassandra's InetAddress.getByName does),
 *   date 'YYYY-MM-DD' (years -999999999..999999999) or the raw unsigned day
 *     number (2^31 = 1970-01-01),
 *   time 'HH:MM:SS[.fffffffff]' or nanoseconds since midnight,
 *   timestamp milliseconds or 'YYYY-MM-DD[( |T)HH:MM[:SS[.fff]]][Z|+-HH[:]MM]'
 *     (no zone: UTC),
 *   duration [-]1y2mo3w4d5h6m7s8ms9us10ns (units any order, case-insensitive,
 *     µs too).
 * Keywords are case-insensitive; spaces, tabs and newlines may surround any
 * element.
 *
 * Format writes: collections with ", " and ": " separators; text and inet
 * quoted; date as 'YYYY-MM-DD' for years 0..9999, else the day number; time
 * as 'HH:MM:SS.fffffffff'; timestamp as milliseconds; float and double as the
 * shortest decimal that round-trips at their own precision, in Go's 'g'
 * style (0.1, 1e+20), NaN, Infinity, -Infinity; decimal as Java's
 * BigDecimal.toString; duration as [-]NmoNdNns (zero: 0ns). Whatever format
 * writes, parse reads back to the same bytes, but for bytes no literal
 * holds: a 16-byte IPv4-mapped inet (written '::ffff:a.b.c.d', read back as
 * the 4-byte address, as Cassandra reads it), a varint (or a decimal's
 * unscaled value) with redundant sign bytes (read back in its shortest
 * form) and a NaN's payload (every NaN is written NaN and read back as
 * 0x7fc00000 or 0x7ff8000000000000). What parse reads, format writes and
 * parse reads back to the same bytes, always.
 *
 * Memory: neither function allocates. Temporaries (a string holding '', a
 * blob, the bytes of a varint or decimal; for format a varint or decimal
 * longer than 64 bytes) come from the scratch arena, which is restored before
 * return; scratch may be NULL when the value has none of those (they then
 * fail with MOTE_ERR_NOMEM). Recursion is bounded by MOTE_CQL_MAX_DEPTH.
 *
 * Build: hosted builds only (src/meson.build). It is ~9 KiB of code, for
 * tools and agents; the Cortex-M library keeps its 24 KiB budget without it.
 * The file uses no OS call, so a firmware that wants it can add
 * src/cql_literal.c to its own build.
 */
#ifndef MOTE_CQL_LITERAL_H
#define MOTE_CQL_LITERAL_H

#include "mote/cql.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why a literal was refused. */
typedef struct mote_cql_literal_error {
    size_t offset;       /* byte offset in the literal text */
    const char *message; /* static one-line description */
} mote_cql_literal_error;

/*
 * Parse text[0..len) (no NUL needed; a NUL byte is an ordinary, refused
 * character) as one literal of type t, whole (trailing spaces allowed), and
 * write the value's bytes, without the [bytes] length prefix of the cell, to
 * out[0..cap). out NULL with cap 0 measures (MOTE_ERR_SPACE, *written = the
 * size; MOTE_OK for a value of zero bytes).
 * t and written MUST be valid; err may be NULL.
 * Returns MOTE_OK (*written = size), MOTE_ERR_SPACE (out too small;
 * *written = the size needed; out holds nothing useful), or, with err filled
 * in:
 *   MOTE_ERR_SYNTAX      brackets, separators, an unterminated string, text
 *                        after the value;
 *   MOTE_ERR_BAD_VALUE   a scalar that is not a value of its type;
 *   MOTE_ERR_RANGE       a number, date, time or duration out of range;
 *   MOTE_ERR_NOMEM       scratch missing or exhausted;
 *   any error of the writer (mote/cql.h): MOTE_ERR_MISMATCH (e.g. int out
 *   of range, a value where a collection is expected), MOTE_ERR_DIMENSION,
 *   MOTE_ERR_UNEXPECTED_NULL, MOTE_ERR_DEPTH, MOTE_ERR_OVERFLOW.
 */
MOTE_NODISCARD mote_err mote_cql_literal_parse(const mote_cql_type *t, const char *text, size_t len,
                                uint8_t *out, size_t cap, size_t *written, mote_arena *scratch,
                                mote_cql_literal_error *err);

/*
 * Format the value in[0..len) of type t as a literal into out[0..cap) (no
 * NUL). The value is validated first (mote_cql_validate; its error is
 * returned). t and written MUST be valid; out NULL with cap 0 measures.
 * Returns MOTE_OK (*written = length), MOTE_ERR_SPACE (*written = the length
 * needed; out's contents are unspecified), a validation error,
 * MOTE_ERR_MISMATCH (an empty value of a scalar type, anywhere in the value:
 * zero bytes of an int, a uuid, ...; it has no literal that reads back as the
 * same bytes) or MOTE_ERR_NOMEM.
 */
MOTE_NODISCARD mote_err mote_cql_literal_format(const mote_cql_type *t, const uint8_t *in, size_t len,
                                 char *out, size_t cap, size_t *written, mote_arena *scratch);

/*
 * Duplicates (the decision is in mote/cql.h: decoders accept them, as the
 * server does). mote_cql_find_duplicate validates the value (its errors as
 * mote_cql_validate), then compares each element of a top-level set, or each
 * key of a top-level map, with the earlier ones byte for byte. Returns
 * MOTE_ERR_DUPLICATE with *index (may be NULL) = the position of the later
 * of the first equal pair (element or key number, from 0), or MOTE_OK (also
 * for types other than set and map). Nested sets and maps are not searched:
 * call it on each element (the iterator gives their bytes). Byte equality is
 * value equality for every canonical encoding; the server's comparators also
 * take 1.0 and 1.00 (decimal) or varints with redundant sign bytes as equal.
 * No memory, O(n^2) comparisons. (It lives here, in the hosted module, to
 * keep the Cortex-M library within its size budget.)
 */
MOTE_NODISCARD mote_err mote_cql_find_duplicate(const mote_cql_type *t, const uint8_t *in, size_t len,
                                 size_t *index);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_CQL_LITERAL_H */
