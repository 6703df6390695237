/* mote/mote.h - everything. Prefer the single module header you need. */
#ifndef MOTE_MOTE_H
#define MOTE_MOTE_H

#include "mote/common.h"
#include "mote/arena.h"
#include "mote/pool.h"
#include "mote/buf.h"
#if __has_include("mote/scan.h")
#include "mote/scan.h"
#endif
#if __has_include("mote/num.h")
#include "mote/num.h"
#endif
#if __has_include("mote/lp.h")
#include "mote/lp.h"
#endif
#if __has_include("mote/be.h")
#include "mote/be.h"
#endif
#if __has_include("mote/cql.h")
#include "mote/cql.h"
#endif

#endif /* MOTE_MOTE_H */
