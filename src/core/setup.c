/* SPDX-License-Identifier: MIT */
/* setup.c - a game's setup: players, removed colour, road groups, King (R1-R3). */
#include <string.h>

#include "figaro/state.h"

const uint16_t fig_default_roads[15] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static void sort_desc(uint16_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint16_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] < x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

void fig_setup_random(fig_setup_t *setup, int players, uint64_t seed, const uint16_t *lengths)
{
    fig_rng_t rng;
    uint16_t pool[15];
    fig_rng_seed_stream(&rng, seed, 0);   /* stream 0: setup; streams 1-3: deals */
    memcpy(pool, lengths ? lengths : fig_default_roads, sizeof pool);
    memset(setup, 0, sizeof *setup);
    setup->players = players;
    /* R3: draw 3 x (N-1) pieces at random (a partial Fisher-Yates shuffle). */
    int need = 3 * (players - 1);
    for (int i = 0; i < need; i++) {
        int j = i + (int)fig_rng_below(&rng, (uint32_t)(15 - i));
        uint16_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    for (int r = 0; r < FIG_ROUNDS; r++) {
        memcpy(setup->roads[r], pool + r * (players - 1), sizeof(uint16_t) * (size_t)(players - 1));
        sort_desc(setup->roads[r], players - 1);
    }
    setup->removed = players == 3 ? (int)fig_rng_below(&rng, FIG_COLOURS) : FIG_NO_COLOUR;
    setup->king = (int)fig_rng_below(&rng, (uint32_t)players);
    setup->seed = seed;
    setup->has_seed = true;
}

fig_err_t fig_setup_check(fig_setup_t *setup, fig_msg_t *msg)
{
    int n = setup->players;
    if (n < FIG_MIN_PLAYERS || n > FIG_MAX_PLAYERS)
        return fig_fail(msg, FIG_ERR_INPUT, N_("Figaro is played by 3 to 6 players, not %d"), n);
    if (n == 3 && (setup->removed < 0 || setup->removed >= FIG_COLOURS))
        return fig_fail(msg, FIG_ERR_INPUT,
                        N_("a 3-player game must name the colour left out (R2)"));
    if (n != 3 && setup->removed != FIG_NO_COLOUR)
        return fig_fail(msg, FIG_ERR_INPUT,
                        N_("only a 3-player game leaves a colour out (R2), not a %d-player game"), n);
    if (setup->king < 0 || setup->king >= n)
        return fig_fail(msg, FIG_ERR_INPUT, N_("the King must start at a seat from 0 to %d, not %d"),
                        n - 1, setup->king);
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < n - 1; i++) {
            uint16_t len = setup->roads[r][i];
            if (len == 0)
                return fig_fail(msg, FIG_ERR_INPUT, N_("road lengths must be positive"));
            for (int r2 = 0; r2 <= r; r2++)
                for (int j = 0; j < (r2 == r ? i : n - 1); j++)
                    if (setup->roads[r2][j] == len)
                        return fig_fail(msg, FIG_ERR_INPUT,
                                        N_("road length %d appears twice: all pieces differ (R1)"),
                                        len);
        }
    for (int r = 0; r < FIG_ROUNDS; r++)
        sort_desc(setup->roads[r], n - 1);
    return FIG_OK;
}
