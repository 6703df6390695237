/* lp_internal.h - helpers shared by lp.c and lp_write.c (not installed). */
#ifndef MOTE_LP_INTERNAL_H
#define MOTE_LP_INTERNAL_H

#include "mote/lp.h"

/* Nanoseconds per unit of each precision (ns, us, ms, s). 32-bit entries
 * (all below 2^32): a 32-bit core's arithmetic on them is shorter (lp 40
 * bytes less on Cortex-M4 than with int64_t entries). */
extern const uint32_t mote__lp_ns_per[4];

/* Byte classes of the grammar. A bit set means "stop scanning here" for the
 * first three. */
#define C_MEAS 1u  /* measurement: control, space, ',', '\\', 0x7f-0xff */
#define C_KEY 2u   /* tag key/value, field key: control, space, ',', '=', '\\', 0x7f-0xff */
#define C_VAL 4u   /* unquoted field value: ',', ' ', '\r', '\n' */
#define C_STR 8u   /* string value: '"', '\\', '\n', 0x80-0xff */
#define C_TIME 16u /* timestamp bytes: '-', '0'-'9' (membership, not a stop) */
#define C_NUM 32u  /* a number starts: '-', '.', '0'-'9' (speed builds' table only) */

#if !MOTE_SMALL
/* Speed builds: each byte's classes (small builds compute them in lp.c,
 * the table costs 256 bytes of flash). lp_write.c reads it too: a name with
 * no byte its kind's scan stops at needs no check and no escape. */
extern const uint8_t mote__lp_cls[256];
#endif

#endif
