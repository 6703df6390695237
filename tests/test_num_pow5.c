/* test_num_pow5.c - the MOTE_NUM_SMALL build's computed powers of five equal
 * the generated table (src/num_pow5.inc) entry by entry.
 *
 * The computation is private to src/num.c, so this test compiles num.c into
 * itself (with the small flags from tests/meson.build) and does not link the
 * library: there is one copy of every num symbol here, and nothing to rename. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "../src/num.c"

#if !MOTE_NUM_SMALL
#error "tests/meson.build compiles this test with MOTE_NUM_SMALL=1"
#endif

static void small_powers_equal_table(void **state)
{
    (void)state;
    static const uint64_t table[][2] = {
#include "../src/num_pow5.inc"
    };
    for (int e = POW5_MIN; e <= POW5_MAX; e++) {
        u128 t = pow5_128(e);
        assert_true(t.hi == table[e - POW5_MIN][0]);
        assert_true(t.lo == table[e - POW5_MIN][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_powers_equal_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
