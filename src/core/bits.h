/* SPDX-License-Identifier: MIT */
/* bits.h - counting and finding set bits, and dividing small numbers, for
 * drawing random actions (rules.c).
 *
 * With the processor's popcnt and pdep each is one instruction. Baseline
 * x86-64 has neither: there __builtin_popcount is a libgcc call, and finding
 * the n-th set bit in a loop costs a mispredicted branch per call, so byte
 * tables stand in. pdep is microcoded, hence slow, on AMD before Zen 3: the
 * tables serve there.
 *
 * popcount16 and nth_bit take the path the compiler was told about (MARCH in
 * the Makefile: the tables in the default, portable build; the instructions
 * in a `make MARCH=-march=native` build on a recent processor). The default
 * build keeps the instructions by runtime dispatch (FIG_BITS_DISPATCH): the
 * few functions that draw actions are compiled twice, once with hw = 1 and
 * the target FIG_BITS_HW_TARGET, whose helpers popcount16_hw and nth_bit_hw
 * are the instructions, and the loader picks one copy for the processor it
 * runs on (an ifunc whose resolver asks fig_bits_hw_usable; rules.c). */
#ifndef FIGARO_BITS_H
#define FIGARO_BITS_H

#include <stdint.h>

#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
#define FIG_FAST_PDEP 1
#endif

/* Dispatch at run time where the build itself does not take both
 * instructions: x86-64 ELF (the loader's ifunc), GCC or clang. */
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && \
    !(defined(__POPCNT__) && defined(FIG_FAST_PDEP))
#define FIG_BITS_DISPATCH 1
#define FIG_BITS_HW_TARGET __attribute__((target("popcnt,bmi2")))
#endif

#if defined(FIG_FAST_PDEP) || defined(FIG_BITS_DISPATCH)
#include <immintrin.h>
#endif

#if !defined(__POPCNT__) || !defined(FIG_FAST_PDEP) || defined(FIG_BITS_DISPATCH)
/* Bits set in a byte. */
static const uint8_t pop8[256] = {
#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
    B6(0), B6(1), B6(1), B6(2)
#undef B2
#undef B4
#undef B6
};
#endif

/* The number of set bits of m, m < 2^16. */
static inline int popcount16(uint32_t m)
{
#ifdef __POPCNT__
    return __builtin_popcount(m);
#else
    return pop8[m & 255] + pop8[m >> 8 & 255];
#endif
}

#if !defined(FIG_FAST_PDEP) || defined(FIG_BITS_DISPATCH)
/* nth8[b][n]: the position of the n-th (0-based) set bit of the byte b. */
static const uint8_t nth8[256][8] = {
    {0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0},
    {1, 0, 0, 0, 0, 0, 0, 0},
    {0, 1, 0, 0, 0, 0, 0, 0},
    {2, 0, 0, 0, 0, 0, 0, 0},
    {0, 2, 0, 0, 0, 0, 0, 0},
    {1, 2, 0, 0, 0, 0, 0, 0},
    {0, 1, 2, 0, 0, 0, 0, 0},
    {3, 0, 0, 0, 0, 0, 0, 0},
    {0, 3, 0, 0, 0, 0, 0, 0},
    {1, 3, 0, 0, 0, 0, 0, 0},
    {0, 1, 3, 0, 0, 0, 0, 0},
    {2, 3, 0, 0, 0, 0, 0, 0},
    {0, 2, 3, 0, 0, 0, 0, 0},
    {1, 2, 3, 0, 0, 0, 0, 0},
    {0, 1, 2, 3, 0, 0, 0, 0},
    {4, 0, 0, 0, 0, 0, 0, 0},
    {0, 4, 0, 0, 0, 0, 0, 0},
    {1, 4, 0, 0, 0, 0, 0, 0},
    {0, 1, 4, 0, 0, 0, 0, 0},
    {2, 4, 0, 0, 0, 0, 0, 0},
    {0, 2, 4, 0, 0, 0, 0, 0},
    {1, 2, 4, 0, 0, 0, 0, 0},
    {0, 1, 2, 4, 0, 0, 0, 0},
    {3, 4, 0, 0, 0, 0, 0, 0},
    {0, 3, 4, 0, 0, 0, 0, 0},
    {1, 3, 4, 0, 0, 0, 0, 0},
    {0, 1, 3, 4, 0, 0, 0, 0},
    {2, 3, 4, 0, 0, 0, 0, 0},
    {0, 2, 3, 4, 0, 0, 0, 0},
    {1, 2, 3, 4, 0, 0, 0, 0},
    {0, 1, 2, 3, 4, 0, 0, 0},
    {5, 0, 0, 0, 0, 0, 0, 0},
    {0, 5, 0, 0, 0, 0, 0, 0},
    {1, 5, 0, 0, 0, 0, 0, 0},
    {0, 1, 5, 0, 0, 0, 0, 0},
    {2, 5, 0, 0, 0, 0, 0, 0},
    {0, 2, 5, 0, 0, 0, 0, 0},
    {1, 2, 5, 0, 0, 0, 0, 0},
    {0, 1, 2, 5, 0, 0, 0, 0},
    {3, 5, 0, 0, 0, 0, 0, 0},
    {0, 3, 5, 0, 0, 0, 0, 0},
    {1, 3, 5, 0, 0, 0, 0, 0},
    {0, 1, 3, 5, 0, 0, 0, 0},
    {2, 3, 5, 0, 0, 0, 0, 0},
    {0, 2, 3, 5, 0, 0, 0, 0},
    {1, 2, 3, 5, 0, 0, 0, 0},
    {0, 1, 2, 3, 5, 0, 0, 0},
    {4, 5, 0, 0, 0, 0, 0, 0},
    {0, 4, 5, 0, 0, 0, 0, 0},
    {1, 4, 5, 0, 0, 0, 0, 0},
    {0, 1, 4, 5, 0, 0, 0, 0},
    {2, 4, 5, 0, 0, 0, 0, 0},
    {0, 2, 4, 5, 0, 0, 0, 0},
    {1, 2, 4, 5, 0, 0, 0, 0},
    {0, 1, 2, 4, 5, 0, 0, 0},
    {3, 4, 5, 0, 0, 0, 0, 0},
    {0, 3, 4, 5, 0, 0, 0, 0},
    {1, 3, 4, 5, 0, 0, 0, 0},
    {0, 1, 3, 4, 5, 0, 0, 0},
    {2, 3, 4, 5, 0, 0, 0, 0},
    {0, 2, 3, 4, 5, 0, 0, 0},
    {1, 2, 3, 4, 5, 0, 0, 0},
    {0, 1, 2, 3, 4, 5, 0, 0},
    {6, 0, 0, 0, 0, 0, 0, 0},
    {0, 6, 0, 0, 0, 0, 0, 0},
    {1, 6, 0, 0, 0, 0, 0, 0},
    {0, 1, 6, 0, 0, 0, 0, 0},
    {2, 6, 0, 0, 0, 0, 0, 0},
    {0, 2, 6, 0, 0, 0, 0, 0},
    {1, 2, 6, 0, 0, 0, 0, 0},
    {0, 1, 2, 6, 0, 0, 0, 0},
    {3, 6, 0, 0, 0, 0, 0, 0},
    {0, 3, 6, 0, 0, 0, 0, 0},
    {1, 3, 6, 0, 0, 0, 0, 0},
    {0, 1, 3, 6, 0, 0, 0, 0},
    {2, 3, 6, 0, 0, 0, 0, 0},
    {0, 2, 3, 6, 0, 0, 0, 0},
    {1, 2, 3, 6, 0, 0, 0, 0},
    {0, 1, 2, 3, 6, 0, 0, 0},
    {4, 6, 0, 0, 0, 0, 0, 0},
    {0, 4, 6, 0, 0, 0, 0, 0},
    {1, 4, 6, 0, 0, 0, 0, 0},
    {0, 1, 4, 6, 0, 0, 0, 0},
    {2, 4, 6, 0, 0, 0, 0, 0},
    {0, 2, 4, 6, 0, 0, 0, 0},
    {1, 2, 4, 6, 0, 0, 0, 0},
    {0, 1, 2, 4, 6, 0, 0, 0},
    {3, 4, 6, 0, 0, 0, 0, 0},
    {0, 3, 4, 6, 0, 0, 0, 0},
    {1, 3, 4, 6, 0, 0, 0, 0},
    {0, 1, 3, 4, 6, 0, 0, 0},
    {2, 3, 4, 6, 0, 0, 0, 0},
    {0, 2, 3, 4, 6, 0, 0, 0},
    {1, 2, 3, 4, 6, 0, 0, 0},
    {0, 1, 2, 3, 4, 6, 0, 0},
    {5, 6, 0, 0, 0, 0, 0, 0},
    {0, 5, 6, 0, 0, 0, 0, 0},
    {1, 5, 6, 0, 0, 0, 0, 0},
    {0, 1, 5, 6, 0, 0, 0, 0},
    {2, 5, 6, 0, 0, 0, 0, 0},
    {0, 2, 5, 6, 0, 0, 0, 0},
    {1, 2, 5, 6, 0, 0, 0, 0},
    {0, 1, 2, 5, 6, 0, 0, 0},
    {3, 5, 6, 0, 0, 0, 0, 0},
    {0, 3, 5, 6, 0, 0, 0, 0},
    {1, 3, 5, 6, 0, 0, 0, 0},
    {0, 1, 3, 5, 6, 0, 0, 0},
    {2, 3, 5, 6, 0, 0, 0, 0},
    {0, 2, 3, 5, 6, 0, 0, 0},
    {1, 2, 3, 5, 6, 0, 0, 0},
    {0, 1, 2, 3, 5, 6, 0, 0},
    {4, 5, 6, 0, 0, 0, 0, 0},
    {0, 4, 5, 6, 0, 0, 0, 0},
    {1, 4, 5, 6, 0, 0, 0, 0},
    {0, 1, 4, 5, 6, 0, 0, 0},
    {2, 4, 5, 6, 0, 0, 0, 0},
    {0, 2, 4, 5, 6, 0, 0, 0},
    {1, 2, 4, 5, 6, 0, 0, 0},
    {0, 1, 2, 4, 5, 6, 0, 0},
    {3, 4, 5, 6, 0, 0, 0, 0},
    {0, 3, 4, 5, 6, 0, 0, 0},
    {1, 3, 4, 5, 6, 0, 0, 0},
    {0, 1, 3, 4, 5, 6, 0, 0},
    {2, 3, 4, 5, 6, 0, 0, 0},
    {0, 2, 3, 4, 5, 6, 0, 0},
    {1, 2, 3, 4, 5, 6, 0, 0},
    {0, 1, 2, 3, 4, 5, 6, 0},
    {7, 0, 0, 0, 0, 0, 0, 0},
    {0, 7, 0, 0, 0, 0, 0, 0},
    {1, 7, 0, 0, 0, 0, 0, 0},
    {0, 1, 7, 0, 0, 0, 0, 0},
    {2, 7, 0, 0, 0, 0, 0, 0},
    {0, 2, 7, 0, 0, 0, 0, 0},
    {1, 2, 7, 0, 0, 0, 0, 0},
    {0, 1, 2, 7, 0, 0, 0, 0},
    {3, 7, 0, 0, 0, 0, 0, 0},
    {0, 3, 7, 0, 0, 0, 0, 0},
    {1, 3, 7, 0, 0, 0, 0, 0},
    {0, 1, 3, 7, 0, 0, 0, 0},
    {2, 3, 7, 0, 0, 0, 0, 0},
    {0, 2, 3, 7, 0, 0, 0, 0},
    {1, 2, 3, 7, 0, 0, 0, 0},
    {0, 1, 2, 3, 7, 0, 0, 0},
    {4, 7, 0, 0, 0, 0, 0, 0},
    {0, 4, 7, 0, 0, 0, 0, 0},
    {1, 4, 7, 0, 0, 0, 0, 0},
    {0, 1, 4, 7, 0, 0, 0, 0},
    {2, 4, 7, 0, 0, 0, 0, 0},
    {0, 2, 4, 7, 0, 0, 0, 0},
    {1, 2, 4, 7, 0, 0, 0, 0},
    {0, 1, 2, 4, 7, 0, 0, 0},
    {3, 4, 7, 0, 0, 0, 0, 0},
    {0, 3, 4, 7, 0, 0, 0, 0},
    {1, 3, 4, 7, 0, 0, 0, 0},
    {0, 1, 3, 4, 7, 0, 0, 0},
    {2, 3, 4, 7, 0, 0, 0, 0},
    {0, 2, 3, 4, 7, 0, 0, 0},
    {1, 2, 3, 4, 7, 0, 0, 0},
    {0, 1, 2, 3, 4, 7, 0, 0},
    {5, 7, 0, 0, 0, 0, 0, 0},
    {0, 5, 7, 0, 0, 0, 0, 0},
    {1, 5, 7, 0, 0, 0, 0, 0},
    {0, 1, 5, 7, 0, 0, 0, 0},
    {2, 5, 7, 0, 0, 0, 0, 0},
    {0, 2, 5, 7, 0, 0, 0, 0},
    {1, 2, 5, 7, 0, 0, 0, 0},
    {0, 1, 2, 5, 7, 0, 0, 0},
    {3, 5, 7, 0, 0, 0, 0, 0},
    {0, 3, 5, 7, 0, 0, 0, 0},
    {1, 3, 5, 7, 0, 0, 0, 0},
    {0, 1, 3, 5, 7, 0, 0, 0},
    {2, 3, 5, 7, 0, 0, 0, 0},
    {0, 2, 3, 5, 7, 0, 0, 0},
    {1, 2, 3, 5, 7, 0, 0, 0},
    {0, 1, 2, 3, 5, 7, 0, 0},
    {4, 5, 7, 0, 0, 0, 0, 0},
    {0, 4, 5, 7, 0, 0, 0, 0},
    {1, 4, 5, 7, 0, 0, 0, 0},
    {0, 1, 4, 5, 7, 0, 0, 0},
    {2, 4, 5, 7, 0, 0, 0, 0},
    {0, 2, 4, 5, 7, 0, 0, 0},
    {1, 2, 4, 5, 7, 0, 0, 0},
    {0, 1, 2, 4, 5, 7, 0, 0},
    {3, 4, 5, 7, 0, 0, 0, 0},
    {0, 3, 4, 5, 7, 0, 0, 0},
    {1, 3, 4, 5, 7, 0, 0, 0},
    {0, 1, 3, 4, 5, 7, 0, 0},
    {2, 3, 4, 5, 7, 0, 0, 0},
    {0, 2, 3, 4, 5, 7, 0, 0},
    {1, 2, 3, 4, 5, 7, 0, 0},
    {0, 1, 2, 3, 4, 5, 7, 0},
    {6, 7, 0, 0, 0, 0, 0, 0},
    {0, 6, 7, 0, 0, 0, 0, 0},
    {1, 6, 7, 0, 0, 0, 0, 0},
    {0, 1, 6, 7, 0, 0, 0, 0},
    {2, 6, 7, 0, 0, 0, 0, 0},
    {0, 2, 6, 7, 0, 0, 0, 0},
    {1, 2, 6, 7, 0, 0, 0, 0},
    {0, 1, 2, 6, 7, 0, 0, 0},
    {3, 6, 7, 0, 0, 0, 0, 0},
    {0, 3, 6, 7, 0, 0, 0, 0},
    {1, 3, 6, 7, 0, 0, 0, 0},
    {0, 1, 3, 6, 7, 0, 0, 0},
    {2, 3, 6, 7, 0, 0, 0, 0},
    {0, 2, 3, 6, 7, 0, 0, 0},
    {1, 2, 3, 6, 7, 0, 0, 0},
    {0, 1, 2, 3, 6, 7, 0, 0},
    {4, 6, 7, 0, 0, 0, 0, 0},
    {0, 4, 6, 7, 0, 0, 0, 0},
    {1, 4, 6, 7, 0, 0, 0, 0},
    {0, 1, 4, 6, 7, 0, 0, 0},
    {2, 4, 6, 7, 0, 0, 0, 0},
    {0, 2, 4, 6, 7, 0, 0, 0},
    {1, 2, 4, 6, 7, 0, 0, 0},
    {0, 1, 2, 4, 6, 7, 0, 0},
    {3, 4, 6, 7, 0, 0, 0, 0},
    {0, 3, 4, 6, 7, 0, 0, 0},
    {1, 3, 4, 6, 7, 0, 0, 0},
    {0, 1, 3, 4, 6, 7, 0, 0},
    {2, 3, 4, 6, 7, 0, 0, 0},
    {0, 2, 3, 4, 6, 7, 0, 0},
    {1, 2, 3, 4, 6, 7, 0, 0},
    {0, 1, 2, 3, 4, 6, 7, 0},
    {5, 6, 7, 0, 0, 0, 0, 0},
    {0, 5, 6, 7, 0, 0, 0, 0},
    {1, 5, 6, 7, 0, 0, 0, 0},
    {0, 1, 5, 6, 7, 0, 0, 0},
    {2, 5, 6, 7, 0, 0, 0, 0},
    {0, 2, 5, 6, 7, 0, 0, 0},
    {1, 2, 5, 6, 7, 0, 0, 0},
    {0, 1, 2, 5, 6, 7, 0, 0},
    {3, 5, 6, 7, 0, 0, 0, 0},
    {0, 3, 5, 6, 7, 0, 0, 0},
    {1, 3, 5, 6, 7, 0, 0, 0},
    {0, 1, 3, 5, 6, 7, 0, 0},
    {2, 3, 5, 6, 7, 0, 0, 0},
    {0, 2, 3, 5, 6, 7, 0, 0},
    {1, 2, 3, 5, 6, 7, 0, 0},
    {0, 1, 2, 3, 5, 6, 7, 0},
    {4, 5, 6, 7, 0, 0, 0, 0},
    {0, 4, 5, 6, 7, 0, 0, 0},
    {1, 4, 5, 6, 7, 0, 0, 0},
    {0, 1, 4, 5, 6, 7, 0, 0},
    {2, 4, 5, 6, 7, 0, 0, 0},
    {0, 2, 4, 5, 6, 7, 0, 0},
    {1, 2, 4, 5, 6, 7, 0, 0},
    {0, 1, 2, 4, 5, 6, 7, 0},
    {3, 4, 5, 6, 7, 0, 0, 0},
    {0, 3, 4, 5, 6, 7, 0, 0},
    {1, 3, 4, 5, 6, 7, 0, 0},
    {0, 1, 3, 4, 5, 6, 7, 0},
    {2, 3, 4, 5, 6, 7, 0, 0},
    {0, 2, 3, 4, 5, 6, 7, 0},
    {1, 2, 3, 4, 5, 6, 7, 0},
    {0, 1, 2, 3, 4, 5, 6, 7},
};
#endif

/* The index of the n-th (0-based) set bit of m, m < 2^16; m has more than n. */
static inline int nth_bit(uint32_t m, int n)
{
#ifdef FIG_FAST_PDEP
    return __builtin_ctz(_pdep_u32(1u << n, m));
#else
    int low = pop8[m & 255], high = n >= low;
    return nth8[(m >> (8 * high)) & 255][n - low * high] + 8 * high;
#endif
}

#ifdef FIG_BITS_DISPATCH
/* The instructions, for the copies compiled with FIG_BITS_HW_TARGET. */
FIG_BITS_HW_TARGET static inline int popcount16_hw(uint32_t m)
{
    return __builtin_popcount(m);
}

FIG_BITS_HW_TARGET static inline int nth_bit_hw(uint32_t m, int n)
{
    return __builtin_ctz(_pdep_u32(1u << n, m));
}

/* Whether this processor has both instructions, pdep a fast one: for an
 * ifunc's resolver, which runs before the program's constructors (hence the
 * explicit __builtin_cpu_init) and before the sanitizers' runtimes are ready
 * (hence not instrumented). */
__attribute__((no_sanitize("address", "undefined", "thread")))
static inline int fig_bits_hw_usable(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi2") &&
           !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
}

#define POPCOUNT16(hw, m) ((hw) ? popcount16_hw(m) : popcount16(m))
#define NTH_BIT(hw, m, n) ((hw) ? nth_bit_hw(m, n) : nth_bit(m, n))
#else
#define POPCOUNT16(hw, m) ((void)(hw), popcount16(m))
#define NTH_BIT(hw, m, n) ((void)(hw), nth_bit(m, n))
#endif

/* r / n for 1 <= n <= 6 and 0 <= r < 1024, by a multiplication: a division
 * takes tens of cycles, and a playout decodes an index with one at about
 * every action. Exact in that range (test_bits checks every r and n). */
static inline int div_small(int r, int n)
{
    static const uint32_t ceil_65536_over[7] = { 0, 65536, 32768, 21846, 16384, 13108, 10923 };
    return (int)(((uint32_t)r * ceil_65536_over[n]) >> 16);
}

#endif
