# scripts/suites.sh - sourced by scripts/test and scripts/cross (from the
# repository's root).

# suites_have_tests DIR MESON-TEST-ARGS...: every '--suite S' among the
# arguments has a test in build DIR (a suite that lost its tests would
# otherwise pass by running nothing)
suites_have_tests() {
    dir=$1; shift
    while [ $# -gt 0 ]; do
        if [ "$1" = --suite ] && [ $# -gt 1 ]; then
            meson test -C "$dir" --no-rebuild --list --suite "$2" >/dev/null 2>&1 ||
                { echo "    suite $2: no test in $dir"; return 1; }
            shift
        fi
        shift
    done
}
