/* SPDX-License-Identifier: MIT */
/* pimc.c - a held-out opponent: Perfect-Information Monte Carlo
 * (determinized flat Monte Carlo, as in Ginsberg's GIB and Long, Sturtevant,
 * Buro and Furtak, AAAI 2010), an FEP engine on standard input and output.
 *
 * It exists, with expert.c, to measure figaro's own bot against strong
 * players that were never used to tune it (docs/bots.md, "How strength is
 * measured"): nothing of src/ai is in it. Each iteration
 *   - draws a full state consistent with its seat's view (fig_view_sample:
 *     the unseen cards dealt at random to the other seats, their hand sizes
 *     kept);
 *   - chooses a move at the root by UCB1 (flat: no tree below the root; the
 *     moves are the same in every draw, R6 depends on public piles and the
 *     own hand only), exploration constant c (--c, 0.4), after trying every
 *     move once in the order the expert's rules rank them;
 *   - plays every seat's actions to the END OF THE GAME by the expert's rules
 *     (expert_policy.h) with a uniformly random action one time in ten
 *     (epsilon-greedy), the rounds still to come dealt at random;
 *   - rewards its seat's final rank score, (N - place) / (N - 1): 1 for the
 *     winner, 0 for the last (R13), so it maximises its expected place.
 * It plays the move with the best mean among those tried at least a tenth as
 * often as the most tried (a mean of three playouts is not a measure). Time:
 * the host's `go <ms>`, all of it, or at most --ms N; or --iters N a move,
 * which makes it deterministic for its --seed.
 *
 *   figaro arena ... --move-ms 25 --bot 'cmd:build/pimc'
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "expert_policy.h"
#include "opponent.h"
#include "figaro/view.h"

enum { EPS_PER_MILLE = 100 };

typedef struct {
    opp_options_t opt;        /* --c, and --iters or --ms (opponent.h) */
    xp_params_t params;
    fig_rng_t rng;
} pimc_t;

/* One playout from st (after the root move) to the end of the game; the rank
 * score of `seat`. */
static double playout(pimc_t *p, fig_state_t *st, int seat)
{
    while (st->phase != FIG_PHASE_OVER) {
        if (st->phase == FIG_PHASE_DEAL)
            fig_state_deal(st, &p->rng);
        else
            fig_state_apply_legal(st, xp_choose(st, &p->params, EPS_PER_MILLE / 1000.0, &p->rng),
                                  NULL);
    }
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(st, ranking);
    int place = 0;
    while (ranking[place] != seat)
        place++;
    return (double)(st->players - 1 - place) / (st->players - 1);
}

static fig_action_t choose(void *data, const fig_bot_turn_t *turn)
{
    pimc_t *p = data;
    const fig_view_t *view = turn->view;
    fig_action_t legal[FIG_MAX_ACTIONS];
    int n = fig_view_legal(view, legal);
    if (n == 1)
        return legal[0];
    double deadline = opp_deadline(p->opt.ms, turn->ms);
    /* Every move once first, the expert's favourites first (a budget smaller
     * than the moves then compares the best of them); the scores read only
     * what the view knows (xp_scores), so any draw gives them. */
    double sum[FIG_MAX_ACTIONS] = { 0 }, prior[FIG_MAX_ACTIONS];
    long visits[FIG_MAX_ACTIONS] = { 0 };
    int order[FIG_MAX_ACTIONS];
    fig_state_t st;
    fig_view_sample(view, &p->rng, &st);
    xp_scores(&st, &p->params, legal, n, prior);
    for (int a = 0; a < n; a++) {   /* insertion sort, best first, stable */
        int j = a;
        for (; j > 0 && prior[order[j - 1]] < prior[a]; j--)
            order[j] = order[j - 1];
        order[j] = a;
    }
    for (long i = 0; p->opt.iters > 0 ? i < p->opt.iters : (i < n || opp_now() < deadline); i++) {
        int arm;
        if (i < n) {
            arm = order[i];
        } else {
            double best_v = -1, log_n = log((double)i);
            arm = 0;
            for (int a = 0; a < n; a++) {
                double v = sum[a] / visits[a] + p->opt.c * sqrt(log_n / visits[a]);
                if (v > best_v) {
                    best_v = v;
                    arm = a;
                }
            }
        }
        fig_view_sample(view, &p->rng, &st);
        fig_state_apply_legal(&st, legal[arm], NULL);
        sum[arm] += playout(p, &st, view->seat);
        visits[arm]++;
    }
    long most = 0;
    for (int a = 0; a < n; a++)
        if (visits[a] > most)
            most = visits[a];
    int best = -1;
    for (int a = 0; a < n; a++)
        if (visits[a] > 0 && visits[a] * 10 >= most
            && (best < 0 || sum[a] / visits[a] > sum[best] / visits[best]))
            best = a;
    return legal[best];
}

static void seed_pimc(void *data, uint64_t seed)
{
    fig_rng_seed(&((pimc_t *)data)->rng, seed);
}

static const fig_bot_ops_t pimc_ops = {
    .kind = "pimc",
    .choose = choose,
    .seed = seed_pimc,
    .free = free,
};

int main(int argc, char **argv)
{
    opp_options_t o = { .c = 0.4, .seed = 1 };
    int bad = opp_options(argc, argv, "pimc", true, &o);
    if (bad)
        return bad;
    pimc_t *p = calloc(1, sizeof *p);
    if (!p) {
        fprintf(stderr, "pimc: out of memory\n");
        return 1;
    }
    p->opt = o;
    xp_defaults(&p->params);
    fig_rng_seed(&p->rng, o.seed);
    char spec[64];
    snprintf(spec, sizeof spec, "pimc c=%g%s", o.c, o.iters ? " iters" : "");
    return opp_serve(&pimc_ops, p, spec, "pimc");
}
