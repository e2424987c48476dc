/* SPDX-License-Identifier: MIT */
/* hint_time.c - what a hint costs: the processor time of the hint's search
 * (host/hint.h: the strongest level, the last of ai/bot.c's) at every move of seat 0 in
 * 4-player games against `greedy`, the bot told only that seat's knowledge
 * as a hint's bot is (docs/bots.md, Hints).
 *
 *   build/hint_time [GAMES [SEED]]     (make build/hint_time)
 *
 * GAMES games (default 2), dealt from SEED, SEED + 1, ... (default 100); prints
 * the number of searches, their mean and their longest, in seconds of
 * processor time (what it takes on a free core, whatever the load). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ai/ai.h"
#include "figaro/figaro.h"
#include "host/hint.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int games = argc > 1 ? atoi(argv[1]) : 2;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 100;
    double sum = 0, worst = 0;
    int n = 0;
    const char *spec = fig_bot_level_name(fig_bot_level_count() - 1);   /* the hint's search */
    for (int gi = 0; gi < games; gi++) {
        fig_setup_t setup;
        fig_setup_random(&setup, 4, seed + (uint64_t)gi, NULL);
        fig_game_t g;
        fig_game_init(&g, &setup);
        fig_rng_t rng;
        fig_rng_seed(&rng, seed + (uint64_t)gi);
        while (!fig_game_over(&g)) {
            if (g.state.phase == FIG_PHASE_DEAL)
                fig_game_deal_seeded(&g);
            fig_action_t a;
            if (g.state.turn == 0) {
                fig_bot_t *bot;
                fig_msg_t msg;
                if (fig_bot_new(&bot, spec, (uint64_t)n + 1, &msg) != FIG_OK ||
                    fig_bot_game(bot, &g.setup, 0, &msg) != FIG_OK) {
                    fprintf(stderr, "hint_time: %s\n", msg.text);
                    return 1;
                }
                for (int r = 0; r < g.dealt; r++) {
                    fig_bot_round(bot, &g.hands[r][0], &msg);
                    for (int i = 0; i < g.nmoves[r]; i++)
                        fig_bot_move(bot, g.moves[r][i].action, &msg);
                }
                double t0 = cpu_seconds();
                a = fig_bot_choose_with(bot, 0, NULL, NULL);
                double t = cpu_seconds() - t0;
                sum += t;
                worst = t > worst ? t : worst;
                n++;
                fig_bot_free(bot);
            } else {
                a = greedy_choose(&g.state, &rng);
            }
            fig_game_play(&g, a, NULL, NULL);
        }
    }
    printf("%s: %d searches, mean %.3f s, longest %.3f s of processor time\n", spec, n,
           n ? sum / n : 0, worst);
    return 0;
}
