/*
 * test_data.h - the unit tests' data files: tests/data, or the directory
 * MOTE_TEST_DATA names (tests/meson.build sets it). Include after cmocka.h.
 *
 * A missing file fails the test that reads it: the data is part of the
 * test, and a test that passed without it would hide a lost or renamed file.
 */
#ifndef TEST_DATA_H
#define TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>

/* fopen() of NAME (a path below the data directory) with MODE; fails the
 * running test when it cannot be opened. */
static FILE *test_data_open(const char *name, const char *mode)
{
    const char *dir = getenv("MOTE_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
    FILE *f = fopen(path, mode);
    if (!f) fail_msg("cannot open %s: the data is part of the test", path);
    return f;
}

#endif
