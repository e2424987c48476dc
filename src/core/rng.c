/* SPDX-License-Identifier: MIT */
/* rng.c - xoshiro256** with splitmix64 seeding (public-domain algorithms by
 * Blackman and Vigna). The state is the caller's; nothing here is global. */
#include "figaro/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void fig_rng_seed(fig_rng_t *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

void fig_rng_seed_stream(fig_rng_t *r, uint64_t seed, uint64_t stream)
{
    /* Mix the stream number through splitmix once so that nearby seeds and
     * streams give unrelated generators. */
    uint64_t x = stream * 0xD1342543DE82EF95ull + 1;
    fig_rng_seed(r, seed ^ splitmix64(&x));
}


uint64_t fig_seed_derive(uint64_t seed, uint64_t salt, uint64_t stream)
{
    fig_rng_t r;
    fig_rng_seed_stream(&r, seed ^ salt * 0x9E3779B97F4A7C15ull, stream);
    return fig_rng_next(&r);
}
