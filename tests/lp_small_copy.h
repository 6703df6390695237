/*
 * lp_small_copy.h - a second copy of src/lp.c compiled with MOTE_LP_FAST=0
 * (the byte-by-byte parser of small builds: no quick parser, no sentinel
 * copy, no word-at-a-time scans, no key prediction) under "small_" names,
 * while messages stay those of the host build. A fuzz target compares every
 * result of the library's speed paths against it. Include once, after
 * mote/lp.h.
 */
#ifndef MOTE_TEST_LP_SMALL_COPY_H
#define MOTE_TEST_LP_SMALL_COPY_H

#include "mote/lp.h"

mote_err small_lp_config_init(mote_lp_config *cfg);
mote_err small_lp_point_init(mote_lp_point *pt, mote_lp_tag *tags, size_t tags_cap,
                         mote_lp_field *fields, size_t fields_cap);
mote_err small_lp_decoder_init(mote_lp_decoder *d, const void *data, size_t len,
                               const mote_lp_config *opt);
mote_err small_lp_next(mote_lp_decoder *d, mote_lp_point *pt, mote_lp_error *err);
mote_err small_lp_stream_init(mote_lp_stream *s, const mote_lp_config *opt, uint8_t *carry,
                              size_t carry_cap);
mote_err small_lp_stream_feed(mote_lp_stream *s, const void *chunk, size_t len);
mote_err small_lp_stream_finish(mote_lp_stream *s);
mote_err small_lp_stream_next(mote_lp_stream *s, mote_lp_point *pt, mote_lp_error *err);
void small_lp_tags_begin(const mote_lp_point *pt, mote_lp_iter *it);
bool small_lp_tags_next(mote_lp_iter *it, mote_lp_tag *tag);
void small_lp_fields_begin(const mote_lp_point *pt, mote_lp_iter *it);
bool small_lp_fields_next(mote_lp_iter *it, mote_lp_field *f);
mote_err small_lp_field_decode(mote_lp_field *f);
mote_err small_lp_point_decode(mote_lp_point *pt, const mote_lp_config *opt,
                               mote_lp_error *err);
mote_err small_lp_point_decode_time(mote_lp_point *pt, mote_lp_precision precision,
                                    int64_t default_time);
mote_err small_lp_unescape(const mote_lp_text *t, uint8_t *out, size_t cap, size_t *len);
mote_err small_lp_unescape_arena(const mote_lp_text *t, mote_arena *arena, mote_view *out);
extern const int64_t small_lp_ns_per[4];

#define MOTE_LP_FAST 0
#define mote_lp_config_init small_lp_config_init
#define mote_lp_point_init small_lp_point_init
#define mote_lp_decoder_init small_lp_decoder_init
#define mote_lp_next small_lp_next
#define mote_lp_stream_init small_lp_stream_init
#define mote_lp_stream_feed small_lp_stream_feed
#define mote_lp_stream_finish small_lp_stream_finish
#define mote_lp_stream_next small_lp_stream_next
#define mote_lp_tags_begin small_lp_tags_begin
#define mote_lp_tags_next small_lp_tags_next
#define mote_lp_fields_begin small_lp_fields_begin
#define mote_lp_fields_next small_lp_fields_next
#define mote_lp_field_decode small_lp_field_decode
#define mote_lp_point_decode small_lp_point_decode
#define mote_lp_point_decode_time small_lp_point_decode_time
#define mote_lp_unescape small_lp_unescape
#define mote_lp_unescape_arena small_lp_unescape_arena
#define mote__lp_ns_per small_lp_ns_per
#include "../src/lp.c"
#undef MOTE_LP_FAST
#undef mote_lp_config_init
#undef mote_lp_point_init
#undef mote_lp_decoder_init
#undef mote_lp_next
#undef mote_lp_stream_init
#undef mote_lp_stream_feed
#undef mote_lp_stream_finish
#undef mote_lp_stream_next
#undef mote_lp_tags_begin
#undef mote_lp_tags_next
#undef mote_lp_fields_begin
#undef mote_lp_fields_next
#undef mote_lp_field_decode
#undef mote_lp_point_decode
#undef mote_lp_point_decode_time
#undef mote_lp_unescape
#undef mote_lp_unescape_arena
#undef mote__lp_ns_per

#endif
