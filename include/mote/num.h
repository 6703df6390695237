/*
 * mote/num.h - exact, locale-independent number parsing and formatting.
 *
 * No libc number conversions (strtod, printf) are used: results do not
 * depend on the locale, and a microcontroller build does not pull in printf's
 * floating-point support. Parsing is correctly rounded (round half to even)
 * for every input, however many digits it has. No function allocates, keeps
 * state or retains a pointer; all are reentrant. Worst-case stack is about
 * 450 bytes (the exact slow path of mote_num_parse_f64), ~250 elsewhere.
 *
 * Build options (src/num.c):
 *   MOTE_NUM_SMALL=1  smallest code, identical results: no 10.7 KiB table
 *                     of powers of five (each power computed exactly when
 *                     needed: a few short multiplications, or for negative
 *                     exponents up to 27 divisions of a <= 29-limb number,
 *                     ~1 us on x86-64), no Clinger/interval fast paths
 *                     (every parse ends in the exact digit comparison, a
 *                     few us for typical inputs, slower near 1e+-300), no
 *                     lookup tables, no 64-bit division. Default: follows
 *                     MOTE_SMALL (mote/common.h; on at -Os, meson
 *                     -Dsmall=true/false). num.c.o is ~4 KiB (text+rodata)
 *                     on Cortex-M4 at -Os.
 *   MOTE_NUM_NO_INT128=1  use the portable 64x64->128 multiply even where
 *                     the compiler has unsigned __int128 (for testing).
 * Integer functions use no 64-bit division (no libgcc helper on Cortex-M0+).
 * With MOTE_NUM_SMALL the f64 functions use neither double arithmetic nor
 * 64-bit division; otherwise parsing uses double arithmetic (Clinger's path)
 * and, on the slow path only, 64-by-32-bit division.
 */
#ifndef MOTE_NUM_H
#define MOTE_NUM_H

#include "mote/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any mote_num_format_* output (24 bytes at most) and their
 * fixed-size writes: with cap >= this, a format never needs a second call. */
#define MOTE_NUM_F64_MAX 32

/*
 * Parse the whole span s[0..n) as a decimal floating-point number:
 *   [+-]? ( digits [ '.' digits? ] | '.' digits ) ( [eE] [+-]? digits )?
 * No hex floats, no '_' separators, no inf/nan, no surrounding spaces.
 * Correctly rounded to the nearest double (ties to even), for any number of
 * digits and any exponent; "-0" gives negative zero. s may be NULL only if
 * n is 0; out MUST be valid. Time is O(n). Returns MOTE_OK,
 * MOTE_ERR_BAD_VALUE (syntax, including n == 0), or MOTE_ERR_RANGE
 * (magnitude rounds to infinity, i.e. >= DBL_MAX + half an ulp; values that
 * underflow round to zero or a subnormal and are OK). On error *out is
 * unchanged.
 */
MOTE_NODISCARD mote_err mote_num_parse_f64(const uint8_t *s, size_t n, double *out);

/* Parse the whole span as [+-]?digits (int64) or digits (uint64: no sign at
 * all, so "+5" and "-0" are rejected). Leading zeros are allowed. Returns
 * MOTE_ERR_BAD_VALUE for syntax (checked over the whole span first), else
 * MOTE_ERR_RANGE if the value does not fit, else MOTE_OK. On error *out is
 * unchanged. */
MOTE_NODISCARD mote_err mote_num_parse_i64(const uint8_t *s, size_t n, int64_t *out);
MOTE_NODISCARD mote_err mote_num_parse_u64(const uint8_t *s, size_t n, uint64_t *out);

/* Parse the whole span as a byte count: digits, then optionally one binary
 * suffix K, M or G (either case: 2^10, 2^20, 2^30), as in "256K". Zero is a
 * value ("0" means what the caller says, e.g. no limit). Returns
 * MOTE_ERR_BAD_VALUE for syntax, MOTE_ERR_RANGE if the count does not fit a
 * size_t, else MOTE_OK. On error *out is unchanged. */
MOTE_NODISCARD mote_err mote_num_parse_size(const uint8_t *s, size_t n, size_t *out);

/*
 * Shortest decimal digits that parse back to |v| exactly: writes n ASCII
 * digits '0'..'9' (1 <= n <= 17, no leading or trailing zeros, no NUL) to
 * digits and sets *exp10 so that |v| ~ 0.d1d2...dn x 10^exp10. Among the
 * shortest candidates the one closest to |v| is chosen (ties: even last
 * digit), the same digits as Go's strconv and Ryu. Returns n, or 0 for zero,
 * NaN or infinity (digits and *exp10 then untouched).
 */
int mote_num_f64_digits(double v, char digits[17], int *exp10);

/*
 * Format v as the shortest decimal that round-trips, byte for byte as Go's
 * strconv.FormatFloat(v, 'g', -1, 64): with exponent x = exp10 - 1 of the
 * shortest digits, %e style when x < -4 or x >= 6 ("1e+06", "1.234567e+06",
 * "1e-05", "1e+21", "5e-324": mantissa digits, 'e', sign, at least two
 * exponent digits), else plain ("123456", "0.0001", "0.1"); zero is "0" or
 * "-0". At most 24 bytes; no NUL. len MUST be valid; out may be NULL only
 * if cap is 0 (which measures). Returns:
 *   MOTE_OK              out[0..*len) holds the text;
 *   MOTE_ERR_SPACE       cap < *len, the size needed; out untouched;
 *   MOTE_ERR_NOT_FINITE  v is NaN or infinite; *len = 0, out untouched.
 * With cap >= MOTE_NUM_F64_MAX the text is stored with fixed-size writes:
 * out[*len..MOTE_NUM_F64_MAX) may be overwritten as scratch.
 */
MOTE_NODISCARD mote_err mote_num_format_f64(double v, char *out, size_t cap, size_t *len);

/* Decimal formatting of integers ("-9223372036854775808", "0": at most 20
 * bytes, no NUL), with the results and the scratch rule of
 * mote_num_format_f64 (never MOTE_ERR_NOT_FINITE). */
MOTE_NODISCARD mote_err mote_num_format_i64(int64_t v, char *out, size_t cap, size_t *len);
MOTE_NODISCARD mote_err mote_num_format_u64(uint64_t v, char *out, size_t cap, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_NUM_H */
