/* lp_internal.h - helpers shared by lp.c and lp_write.c (not installed). */
#ifndef MOTE_LP_INTERNAL_H
#define MOTE_LP_INTERNAL_H

#include "mote/lp.h"

/* Nanoseconds per unit of each precision (ns, us, ms, s). 32-bit entries
 * (all below 2^32): a 32-bit core's arithmetic on them is shorter (lp 40
 * bytes less on Cortex-M4 than with int64_t entries). */
extern const uint32_t mote__lp_ns_per[4];

#endif
