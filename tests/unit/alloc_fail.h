/* SPDX-License-Identifier: MIT */
/* alloc_fail.h - failing the Nth allocation, for the allocation-failure
 * sweeps (style.md: fail allocation 1, 2, 3... until creation succeeds; no
 * crash, no leak).
 *
 * The libraries keep no allocation hook: a test linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup (the
 * Makefile's WRAP_ALLOC) sends every call the libraries make to those
 * functions through this file's __wrap_ functions, which count them and fail
 * the one asked for. Only such tests link alloc_fail.o. */
#ifndef FIGARO_TESTS_ALLOC_FAIL_H
#define FIGARO_TESTS_ALLOC_FAIL_H

/* From now on, the k-th allocation fails (k >= 1); 0 disarms. Counting
 * restarts at each call. */
void alloc_fail_arm(long k);

/* Disarms; returns how many allocations were made since alloc_fail_arm. */
long alloc_fail_disarm(void);

#endif
