/* rng.h - the only source of randomness in figaro.
 *
 * xoshiro256** (Blackman & Vigna, 2018) seeded through splitmix64. The caller
 * owns every generator and hands it in: there is no hidden global state, so a
 * game is a pure function of its seed and its moves, and threads never share a
 * stream by accident. */
#ifndef FIGARO_RNG_H
#define FIGARO_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} fig_rng_t;

/* Seeds r from one 64-bit value; every seed (0 included) gives a good stream. */
void fig_rng_seed(fig_rng_t *r, uint64_t seed);

/* Seeds r from a seed and a stream number, for independent streams derived from
 * one game seed (e.g. one per round's deal). */
void fig_rng_seed_stream(fig_rng_t *r, uint64_t seed, uint64_t stream);

uint64_t fig_rng_next(fig_rng_t *r);

/* Uniform in [0, n), n >= 1, without modulo bias (Lemire's method). */
uint32_t fig_rng_below(fig_rng_t *r, uint32_t n);

#endif
