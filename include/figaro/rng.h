/* SPDX-License-Identifier: MIT */
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

/* One seed derived from a parent seed, for a part of the game that needs its
 * own reproducible stream: a bot's seat, one think, one arena game. `salt` and
 * `stream` name the part (e.g. a seat and a move number); different names give
 * unrelated seeds. The one derivation used by every layer. */
uint64_t fig_seed_derive(uint64_t seed, uint64_t salt, uint64_t stream);

/* The next 64 random bits. Inline: it runs once per simulated action. */
static inline uint64_t fig_rng_next(fig_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Uniform in [0, n), n >= 1, without modulo bias: Lemire, "Fast random integer
 * generation in an interval" (2019); a multiply and, rarely, a rejection. */
static inline uint32_t fig_rng_below(fig_rng_t *r, uint32_t n)
{
    uint64_t m = (fig_rng_next(r) >> 32) * (uint64_t)n;
    if ((uint32_t)m < n) {
        uint32_t threshold = (uint32_t)-n % n;
        while ((uint32_t)m < threshold)
            m = (fig_rng_next(r) >> 32) * (uint64_t)n;
    }
    return (uint32_t)(m >> 32);
}

#endif
