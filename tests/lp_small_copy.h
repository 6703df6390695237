/*
 * lp_small_copy.h - a second copy of src/lp.c compiled with MOTE_LP_FAST=0
 * (the same grammar as in small builds: no plain-name and plain-string fast
 * paths, no word-at-a-time scans, no key prediction) under "small_" names
 * (mote_lp_next -> small_lp_next, ...), while messages stay those of the host build. A fuzz target compares every
 * result of the library's speed paths against it. Include once, after
 * mote/lp.h.
 */
#ifndef MOTE_TEST_LP_SMALL_COPY_H
#define MOTE_TEST_LP_SMALL_COPY_H

#include "mote/lp.h"

/* The renames come from src/lp.c itself (tests/gen_small_copy.py, run by
 * the build into lp_small_copy_gen.h): every external definition there is
 * compiled again as small_<name>, so none can be missed. */
#include "lp_small_copy_gen.h"

#endif
