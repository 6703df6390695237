/* mote/mote.h - everything. Prefer the single module header you need. */
#ifndef MOTE_MOTE_H
#define MOTE_MOTE_H

#include "mote/common.h"
#include "mote/arena.h"
#include "mote/pool.h"
#include "mote/buf.h"
#include "mote/scan.h"
#include "mote/num.h"
#include "mote/lp.h"
#include "mote/be.h"
#include "mote/cql.h"
#include "mote/wire.h"
#include "mote/cql_literal.h" /* hosted builds only (src/meson.build) */

#endif /* MOTE_MOTE_H */
