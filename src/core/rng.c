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

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t fig_rng_next(fig_rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint32_t fig_rng_below(fig_rng_t *r, uint32_t n)
{
    /* Lemire, "Fast random integer generation in an interval" (2019): a
     * multiply and, rarely, a rejection keep the result exactly uniform. */
    uint64_t m = (fig_rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)-n % n;
        while (low < threshold) {
            m = (fig_rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}
