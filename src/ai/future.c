/* SPDX-License-Identifier: MIT */
/* future.c - the rest of a game, scored exactly from a round's end (future.h).
 *
 * The model: in each round still to play, the seats' rank order (R11) is
 * uniformly random; zero stacks are not modelled (every seat but the last gets
 * a piece). In round 3 the last seat, the one with fewest cards, first swaps
 * its longest piece for the group's shortest if that is shorter (R12), and
 * gets no piece of the group. Final places (R13) tie when road totals are
 * equal; as the King of the game's end is not known, a tie shares the places
 * it covers evenly. At the game's real end (phase OVER) the ranking is exact. */
#include <string.h>

#include "ai/future.h"

void future_reset(future_cache_t *c)
{
    /* The cache lives in memory lent for one think, which another bot's think
     * may have used since: every slot is cleared, not only a stamp moved. */
    memset(c->slot, 0, sizeof c->slot);
    c->stamp = 1;
    c->computed = c->hits = 0;
}

/* Sums, over the outcomes averaged, of each seat's win, score and place. */
typedef struct {
    double win[FIG_MAX_PLAYERS], score[FIG_MAX_PLAYERS], place[FIG_MAX_PLAYERS];
    long n;
} sums_t;

/* Adds one outcome: final road totals, ties sharing their places. */
static void add_outcome(sums_t *sum, const int total[], int n)
{
    double span = n - 1;
    for (int s = 0; s < n; s++) {
        int below = 0, equal = 0;
        for (int o = 0; o < n; o++) {
            below += total[o] < total[s];
            equal += total[o] == total[s];
        }
        double place = below + (equal - 1) / 2.0;   /* 0-based, averaged over the tie */
        sum->win[s] += below == 0 ? 1.0 / equal : 0;
        sum->score[s] += (span - place) / span;
        sum->place[s] += place + 1;
    }
    sum->n++;
}

/* Round 3 with rank order p (most cards first): R12, then R11. */
static void round_three(const int total[], const int longest[], const uint16_t group[],
                        const uint8_t p[], int n, sums_t *sum)
{
    int t[FIG_MAX_PLAYERS], g[FIG_MAX_PLAYERS];
    memcpy(t, total, sizeof t);
    for (int i = 0; i < n - 1; i++)
        g[i] = group[i];
    int last = p[n - 1], shortest = g[n - 2];
    if (longest[last] > shortest) {   /* R12: swapped, and the group re-sorted */
        t[last] += shortest - longest[last];
        int j = n - 2;
        for (; j > 0 && g[j - 1] < longest[last]; j--)
            g[j] = g[j - 1];
        g[j] = longest[last];
    }
    for (int i = 0; i < n - 1; i++)
        t[p[i]] += g[i];
    add_outcome(sum, t, n);
}

/* Round 2 with rank order p, then round 3 in every order of `orders` (or the
 * given sample). */
static void round_two(const int total[], const int longest[], const uint16_t group2[],
                      const uint16_t group3[], const uint8_t p[], int n,
                      const uint8_t (*orders)[FIG_MAX_PLAYERS], int norders, sums_t *sum)
{
    int t[FIG_MAX_PLAYERS], l[FIG_MAX_PLAYERS];
    memcpy(t, total, sizeof t);
    memcpy(l, longest, sizeof l);
    for (int i = 0; i < n - 1; i++) {
        t[p[i]] += group2[i];
        if (group2[i] > l[p[i]])
            l[p[i]] = group2[i];
    }
    for (int k = 0; k < norders; k++)
        round_three(t, l, group3, orders[k], n, sum);
}

/* Every permutation of 0..n-1, in lexicographic order; returns how many. */
static int all_orders(int n, uint8_t (*out)[FIG_MAX_PLAYERS])
{
    uint8_t p[FIG_MAX_PLAYERS] = { 0 };
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)i;
    int count = 0;
    for (;;) {
        memcpy(out[count++], p, FIG_MAX_PLAYERS);
        int i = n - 2;
        while (i >= 0 && p[i] > p[i + 1])
            i--;
        if (i < 0)
            return count;
        int j = n - 1;
        while (p[j] < p[i])
            j--;
        uint8_t x = p[i];
        p[i] = p[j];
        p[j] = x;
        for (int a = i + 1, b = n - 1; a < b; a++, b--) {
            x = p[a];
            p[a] = p[b];
            p[b] = x;
        }
    }
}

static void random_order(fig_rng_t *rng, int n, uint8_t p[])
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)fig_rng_below(rng, (uint32_t)(i + 1));
        uint8_t x = p[i];
        p[i] = p[j];
        p[j] = x;
    }
}

static uint64_t key_hash(const future_key_t *k)
{
    const unsigned char *b = (const unsigned char *)k;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void compute(const fig_state_t *st, const future_key_t *key, future_t *out)
{
    int n = st->players, total[FIG_MAX_PLAYERS] = { 0 }, longest[FIG_MAX_PLAYERS] = { 0 };
    for (int s = 0; s < n; s++) {
        total[s] = (int)key->total[s];
        longest[s] = key->longest[s];
    }
    sums_t sum;
    memset(&sum, 0, sizeof sum);
    uint8_t orders[720][FIG_MAX_PLAYERS];
    int norders = all_orders(n, orders);
    const uint16_t *group3 = st->group[2];
    if (st->round == 3) {
        for (int k = 0; k < norders; k++)
            round_three(total, longest, group3, orders[k], n, &sum);
    } else if ((long)norders * norders <= FUTURE_EXACT) {
        for (int k = 0; k < norders; k++)
            round_two(total, longest, st->group[1], group3, orders[k], n, orders, norders,
                      &sum);
    } else {
        /* Too many pairs: a fixed sample, drawn from the position itself. */
        fig_rng_t rng;
        fig_rng_seed(&rng, key_hash(key));
        for (int k = 0; k < FUTURE_SAMPLES; k++) {
            uint8_t p2[FIG_MAX_PLAYERS], p3[1][FIG_MAX_PLAYERS];
            random_order(&rng, n, p2);
            random_order(&rng, n, p3[0]);
            round_two(total, longest, st->group[1], group3, p2, n, p3, 1, &sum);
        }
    }
    memset(out, 0, sizeof *out);
    for (int s = 0; s < n; s++) {
        out->win[s] = (float)(sum.win[s] / (double)sum.n);
        out->score[s] = (float)(sum.score[s] / (double)sum.n);
        out->place[s] = (float)(sum.place[s] / (double)sum.n);
    }
}

static void exact_end(const fig_state_t *st, future_t *out)
{
    int ranking[FIG_MAX_PLAYERS], n = st->players;
    memset(out, 0, sizeof *out);
    fig_state_ranking(st, ranking);
    for (int place = 0; place < n; place++) {
        int s = ranking[place];
        out->win[s] = place == 0;
        out->score[s] = (float)(n - 1 - place) / (float)(n - 1);
        out->place[s] = (float)(place + 1);
    }
}

const future_t *future_value(future_cache_t *c, const fig_state_t *st, future_t *scratch)
{
    if (st->phase == FIG_PHASE_OVER) {
        exact_end(st, scratch);
        return scratch;
    }
    future_key_t key;
    memset(&key, 0, sizeof key);   /* padding too: the key is hashed and compared as bytes */
    key.round = st->round;
    for (int s = 0; s < st->players; s++) {
        int total = 0, longest = 0;
        for (int i = 0; i < st->nroad[s]; i++) {
            total += st->road[s][i];
            if (st->road[s][i] > longest)
                longest = st->road[s][i];
        }
        key.total[s] = (uint32_t)total;
        key.longest[s] = (uint16_t)longest;
    }
    uint32_t h = (uint32_t)key_hash(&key);
    for (int probe = 0; probe < 16; probe++) {
        future_slot_t *sl = &c->slot[(h + (uint32_t)probe) % FUTURE_SLOTS];
        if (sl->stamp == c->stamp) {
            if (memcmp(&sl->key, &key, sizeof key) == 0) {
                c->hits++;
                return &sl->value;
            }
            continue;
        }
        sl->stamp = c->stamp;
        sl->key = key;
        compute(st, &key, &sl->value);
        c->computed++;
        return &sl->value;
    }
    compute(st, &key, scratch);   /* the neighbourhood is full: computed, not kept */
    c->computed++;
    return scratch;
}
