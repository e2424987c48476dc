/* SPDX-License-Identifier: MIT */
/* test_bits.c - the helpers that draw random actions fast (src/core/bits.h),
 * against plain loops, for every input they take.
 *
 * bits.h has two paths: the processor's popcnt and pdep and byte tables (any
 * x86-64). The portable builds (the test build, the default release build)
 * hold both, the loader choosing at run time (FIG_BITS_DISPATCH), and the
 * Makefile also builds this file for this machine, as test_bits_native:
 * the helpers of each path are checked against plain loops wherever the
 * processor has the instructions, the tables everywhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/bits.h"

static int count_slow(uint32_t m)
{
    int n = 0;
    for (; m; m >>= 1)
        n += (int)(m & 1);
    return n;
}

static void check_popcount16(int hw)
{
    int wrong = 0;
    for (uint32_t m = 0; m < 1u << 16; m++)
        wrong += POPCOUNT16(hw, m) != count_slow(m);
    assert_int_equal(wrong, 0);
}

static void check_nth_bit(int hw)
{
    int wrong = 0, checked = 0;
    for (uint32_t m = 1; m < 1u << 16; m++) {
        int n = 0;
        for (int bit = 0; bit < 16; bit++)
            if (m >> bit & 1) {
                wrong += NTH_BIT(hw, m, n) != bit;
                n++;
                checked++;
            }
    }
    assert_int_equal(checked, 16 << 15);   /* every set bit of every mask */
    assert_int_equal(wrong, 0);
}

static void test_bits_popcount16(void **cm)
{
    (void)cm;
    check_popcount16(0);
}

static void test_bits_nth_bit(void **cm)
{
    (void)cm;
    check_nth_bit(0);
}

/* The copies the loader picks on a processor with popcnt and a fast pdep. */
static void test_bits_dispatched(void **cm)
{
    (void)cm;
#ifdef FIG_BITS_DISPATCH
    if (!fig_bits_hw_usable()) {
        print_message("no popcnt and fast pdep here: the tables serve, checked above\n");
        return;
    }
    check_popcount16(1);
    check_nth_bit(1);
#else
    print_message("built for this processor's own path (no dispatch): checked above\n");
#endif
}

static void test_bits_div_small(void **cm)
{
    (void)cm;
    for (int n = 1; n <= 6; n++)
        for (int r = 0; r < 1024; r++)
            if (div_small(r, n) != r / n)
                fail_msg("div_small(%d, %d) = %d, not %d", r, n, div_small(r, n), r / n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits_popcount16),
        cmocka_unit_test(test_bits_nth_bit),
        cmocka_unit_test(test_bits_dispatched),
        cmocka_unit_test(test_bits_div_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
