/* lp_internal.h - helpers shared by lp.c and lp_write.c (not installed). */
#ifndef MOTE_LP_INTERNAL_H
#define MOTE_LP_INTERNAL_H

#include "mote/lp.h"

/* UTF-8 validity as Go's utf8.Valid (no overlongs, surrogates, > U+10FFFF). */
bool mote__lp_utf8_valid(const uint8_t *s, size_t n);

/* Nanoseconds per unit of each precision (ns, us, ms, s). */
extern const int64_t mote__lp_ns_per[4];

#endif
