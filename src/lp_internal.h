/* lp_internal.h - helpers shared by lp.c and lp_write.c (not installed). */
#ifndef MOTE_LP_INTERNAL_H
#define MOTE_LP_INTERNAL_H

#include "mote/lp.h"

/* Nanoseconds per unit of each precision (ns, us, ms, s). */
extern const int64_t mote__lp_ns_per[4];

#endif
