/*
 * num_small_copy.h - a second copy of src/num.c compiled with
 * MOTE_NUM_SMALL=1 (computed powers, no int128: the microcontroller paths)
 * under "small_" names, so a test or fuzz target can check every result of
 * the small build against the library's. Include once, after mote/num.h.
 */
#ifndef MOTE_TEST_NUM_SMALL_COPY_H
#define MOTE_TEST_NUM_SMALL_COPY_H

mote_err small_parse_f64(const uint8_t *s, size_t n, double *out);
mote_err small_parse_i64(const uint8_t *s, size_t n, int64_t *out);
mote_err small_parse_u64(const uint8_t *s, size_t n, uint64_t *out);
int small_f64_digits(double v, char digits[17], int *exp10);
size_t small_format_f64(double v, char *out, size_t cap);
size_t small_format_i64(int64_t v, char *out, size_t cap);
size_t small_format_u64(uint64_t v, char *out, size_t cap);
#undef MOTE_NUM_SMALL
#define MOTE_NUM_SMALL 1
#define MOTE_NUM_NO_INT128 1 /* and the portable 64x64->128 multiply */
#define mote_num_parse_f64 small_parse_f64
#define mote_num_parse_i64 small_parse_i64
#define mote_num_parse_u64 small_parse_u64
#define mote_num_f64_digits small_f64_digits
#define mote_num_format_f64 small_format_f64
#define mote_num_format_i64 small_format_i64
#define mote_num_format_u64 small_format_u64
#include "../src/num.c"
#undef mote_num_parse_f64
#undef mote_num_parse_i64
#undef mote_num_parse_u64
#undef mote_num_f64_digits
#undef mote_num_format_f64
#undef mote_num_format_i64
#undef mote_num_format_u64

#endif
