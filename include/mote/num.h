/*
 * mote/num.h - exact, locale-independent number parsing and formatting.
 *
 * No libc number conversions (strtod, printf) are used: results do not
 * depend on the locale, and a microcontroller build does not pull in printf's
 * floating-point support. Parsing is correctly rounded (round half to even)
 * for every input, however many digits it has.
 */
#ifndef MOTE_NUM_H
#define MOTE_NUM_H

#include "mote/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enough for any mote_num_format_* output (sign, 17 digits, point, exponent). */
#define MOTE_NUM_F64_MAX 32

/*
 * Parse the whole span s[0..n) as a decimal floating-point number:
 *   [+-]? ( digits [ '.' digits? ] | '.' digits ) ( [eE] [+-]? digits )?
 * No hex floats, no '_' separators, no inf/nan, no surrounding spaces.
 * Correctly rounded to the nearest double. Returns MOTE_OK,
 * MOTE_ERR_BAD_VALUE (syntax), or MOTE_ERR_RANGE (magnitude overflows to
 * infinity; values that underflow round to zero or a subnormal and are OK).
 * On error *out is unchanged.
 */
mote_err mote_num_parse_f64(const uint8_t *s, size_t n, double *out);

/* Parse the whole span as [+-]?digits (int64) or digits (uint64, no sign).
 * MOTE_ERR_BAD_VALUE for syntax, MOTE_ERR_RANGE if it does not fit. */
mote_err mote_num_parse_i64(const uint8_t *s, size_t n, int64_t *out);
mote_err mote_num_parse_u64(const uint8_t *s, size_t n, uint64_t *out);

/*
 * Shortest decimal digits that parse back to |v| exactly: writes n digits
 * (1 <= n <= 17, no trailing zeros) to digits and sets *exp10 so that
 * |v| = 0.d1d2...dn x 10^exp10. v must be finite and non-zero; returns n, or
 * 0 for zero, NaN or infinity.
 */
int mote_num_f64_digits(double v, char digits[17], int *exp10);

/*
 * Format v as the shortest decimal that round-trips, in the style of Go's
 * strconv.FormatFloat(v, 'g', -1, 64) ("1.5", "1e+21", "1e-07", "-0").
 * Writes no NUL; returns the length, or 0 if cap is too small (cap
 * MOTE_NUM_F64_MAX always suffices) or v is NaN/infinite.
 */
size_t mote_num_format_f64(double v, char *out, size_t cap);

/* Decimal formatting of integers; returns the length (no NUL) or 0 if cap is
 * too small (21 always suffices). */
size_t mote_num_format_i64(int64_t v, char *out, size_t cap);
size_t mote_num_format_u64(uint64_t v, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* MOTE_NUM_H */
