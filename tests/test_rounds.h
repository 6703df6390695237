/*
 * test_rounds.h - how many rounds a random sweep runs.
 *
 * Natively, all of them. Cross builds run their tests under qemu-user
 * (the exe_wrapper of the cross files), 20-100x slower, where what is checked is byte
 * order and the 32-bit ABI: the pinned and edge cases run in full there, and
 * the random sweeps a tenth of their rounds (tests/meson.build sets
 * MOTE_TEST_EMULATED=1 in cross builds). Without this, test_num's sweeps
 * against strtod took 340 s of armhf's 300 s timeout on a loaded host.
 */
#ifndef MOTE_TEST_ROUNDS_H
#define MOTE_TEST_ROUNDS_H

#include <stdlib.h>

static inline int test_rounds(int n)
{
    static int div; /* read once: the loops call this every round */
    if (!div) {
        const char *e = getenv("MOTE_TEST_EMULATED");
        div = e && e[0] == '1' ? 10 : 1;
    }
    return n / div > 0 ? n / div : 1;
}

#endif
