#!/bin/sh
# subproject.sh - mote as another project's meson subproject, as the README
# shows it: the parent configures, builds and runs a program using mote,
# without pkg-config's packages (so without sqlite3, cmocka, benchmark: the
# oracles and test tools of this repository are not the parent's to have),
# and none of mote's tests, tool or examples become the parent's.
# usage: sh tests/subproject.sh MESON SOURCE_ROOT
set -u
MESON=${1:?usage: subproject.sh MESON SOURCE_ROOT}
SRC=${2:?usage: subproject.sh MESON SOURCE_ROOT}
. "$(dirname "$0")/check.sh"
scratch mote_subproject
mkdir -p "$TMP/parent/subprojects"
ln -s "$SRC" "$TMP/parent/subprojects/mote"
cat > "$TMP/parent/meson.build" <<'MESON'
project('agent', 'c', default_options: ['c_std=c11'])
mote_dep = dependency('mote', fallback: ['mote', 'mote_dep'])
executable('agent', 'agent.c', dependencies: mote_dep)
MESON
cat > "$TMP/parent/agent.c" <<'C'
#include <string.h>
#include "mote/lp.h"
int main(void)
{
    static const char in[] = "cpu,host=a v=1i 1\n";
    mote_lp_config cfg;
    mote_lp_decoder d;
    mote_lp_tag tags[4];
    mote_lp_field fields[4];
    mote_lp_point pt;
    if (mote_lp_config_init(&cfg) != MOTE_OK ||
        mote_lp_decoder_init(&d, in, strlen(in), &cfg) != MOTE_OK ||
        mote_lp_point_init(&pt, tags, 4, fields, 4) != MOTE_OK)
        return 1;
    return mote_lp_next(&d, &pt, NULL) == MOTE_OK && pt.ntags == 1 && pt.nfields == 1 ? 0 : 1;
}
C
cd "$TMP/parent"
if PKG_CONFIG_LIBDIR="$TMP/no-packages" "$MESON" setup b >"$TMP/setup.log" 2>&1; then
    ok
    if "$MESON" compile -C b >"$TMP/build.log" 2>&1; then ok; else bad "build: $(tail -n 5 "$TMP/build.log")"; fi
    if ./b/agent; then ok; else bad "the parent's program failed"; fi
    # mote's own tests are not the parent's
    want "tests the parent inherits" "[]" "$("$MESON" introspect b --tests 2>&1)"
else
    bad "parent setup: $(tail -n 5 "$TMP/setup.log")"
fi
summary
