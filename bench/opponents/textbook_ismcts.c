/* SPDX-License-Identifier: MIT */
/* textbook_ismcts.c - a held-out opponent: single-observer Information-Set
 * MCTS as the textbook has it (Cowling, Powley and Whitehouse, IEEE TCIAIG
 * 2012, algorithm 1), an FEP engine on standard input and output.
 *
 * It exists to measure figaro's own bot against a strong player that was
 * never used to tune it (docs/bots.md, "How strength is measured"): nothing of
 * src/ai is in it. It uses the rules engine only (legal actions, applying
 * them, a uniformly random playout to the game's end, and a full state drawn
 * from what its seat knows), and the FEP engine of the host layer for the
 * protocol, on standard input and output as `figaro engine` serves it
 * (cli/fep_stdio.h, through opponent.h). Its search is the paper's, with no
 * knowledge of Figaro:
 *   - every iteration draws a determinization (the unseen cards dealt at
 *     random to the other seats, their hand sizes kept);
 *   - descends by UCB1 over the children legal in it, with availability
 *     counts, the exploration constant c (0.7: rewards are 0 or 1);
 *   - expands one untried legal action at random;
 *   - plays uniformly random actions to the end of the game, dealing the
 *     rounds still to come at random;
 *   - rewards 1 to the seat that wins (R13: the shortest road, ties broken as
 *     the rules break them), 0 to every other seat: it maximises wins only;
 *   - plays the most visited move at the root.
 * The tree ends where a round ends (the next deal is a chance event that the
 * playout draws). Time: the host's `go <ms>`, all of it, or at most --ms N
 * (to give it less than the other seats); or a fixed number of iterations
 * (--iters), which makes it deterministic for its --seed.
 *
 *   figaro arena ... --move-ms 25 --bot 'cmd:build/textbook_ismcts'
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/bot.h"
#include "figaro/view.h"
#include "opponent.h"

/* Enough for a long think: a node per iteration, 24 bytes each. When the
 * pool is full the tree stops growing and the search goes on. */
enum { MAX_NODES = 1 << 22, NONE = -1 };

typedef struct {
    int32_t child, sibling;   /* first child; next child of the same parent */
    uint32_t visits, avail;
    float wins;               /* wins of `actor` over the playouts through here */
    fig_action_t action;
    uint8_t actor;            /* the seat that took `action` */
} node_t;

typedef struct {
    opp_options_t opt;        /* --c, and --iters or --ms (opponent.h) */
    fig_rng_t rng;
    node_t *nodes;
    int32_t used;
} search_t;

/* An action as an index 0..255 (a take is 255), for a set of legal ones. */
static int slot(fig_action_t a) { return fig_act_is_take(a) ? 255 : a & 255; }

static int32_t new_node(search_t *s, int32_t parent, fig_action_t a, int actor)
{
    if (s->used >= MAX_NODES)
        return NONE;
    int32_t i = s->used++;
    s->nodes[i] = (node_t){ .child = NONE, .sibling = s->nodes[parent].child,
                            .action = a, .actor = (uint8_t)actor };
    s->nodes[parent].child = i;
    return i;
}

static void iterate(search_t *s, const fig_view_t *view)
{
    fig_state_t st;
    fig_view_sample(view, &s->rng, &st);
    int32_t path[512];
    int depth = 0;
    int32_t at = 0;
    path[depth++] = at;
    while (st.phase == FIG_PHASE_PLAY && depth < (int)(sizeof path / sizeof path[0])) {
        fig_action_t legal[FIG_MAX_ACTIONS];
        int n = fig_state_legal(&st, legal);
        uint64_t tried[4] = { 0 };
        for (int32_t ch = s->nodes[at].child; ch != NONE; ch = s->nodes[ch].sibling)
            tried[slot(s->nodes[ch].action) >> 6] |= 1ull << (slot(s->nodes[ch].action) & 63);
        fig_action_t untried[FIG_MAX_ACTIONS];
        int u = 0;
        uint64_t legal_set[4] = { 0 };
        for (int i = 0; i < n; i++) {
            int k = slot(legal[i]);
            legal_set[k >> 6] |= 1ull << (k & 63);
            if (!(tried[k >> 6] >> (k & 63) & 1))
                untried[u++] = legal[i];
        }
        if (u > 0) {   /* expand one, then play out from it */
            fig_action_t a = untried[fig_rng_below(&s->rng, (uint32_t)u)];
            int32_t ch = new_node(s, at, a, st.turn);
            fig_state_apply_legal(&st, a, NULL);
            if (ch != NONE)
                path[depth++] = ch;
            break;
        }
        /* every legal action has a child: UCB1 over them, availability counts */
        int32_t best = NONE;
        double best_v = -1.0;
        for (int32_t ch = s->nodes[at].child; ch != NONE; ch = s->nodes[ch].sibling) {
            node_t *nd = &s->nodes[ch];
            int k = slot(nd->action);
            if (!(legal_set[k >> 6] >> (k & 63) & 1))
                continue;
            nd->avail++;
            double v = nd->wins / nd->visits + s->opt.c * sqrt(log((double)nd->avail) / nd->visits);
            if (v > best_v) {
                best_v = v;
                best = ch;
            }
        }
        fig_state_apply_legal(&st, s->nodes[best].action, NULL);
        at = best;
        path[depth++] = at;
    }
    if (st.phase != FIG_PHASE_OVER)
        fig_state_playout(&st, &s->rng, 0);
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(&st, ranking);
    for (int i = 0; i < depth; i++) {
        node_t *nd = &s->nodes[path[i]];
        nd->visits++;
        if (i > 0 && nd->actor == ranking[0])
            nd->wins += 1.0f;
    }
}

static fig_action_t choose(void *data, const fig_bot_turn_t *turn)
{
    search_t *s = data;
    fig_action_t legal[FIG_MAX_ACTIONS];
    int n = fig_view_legal(turn->view, legal);
    if (n == 1)
        return legal[0];
    s->used = 1;
    s->nodes[0] = (node_t){ .child = NONE, .sibling = NONE };
    double deadline = opp_deadline(s->opt.ms, turn->ms);
    for (long i = 0;; i++) {
        if (s->opt.iters > 0 ? i >= s->opt.iters : (i % 16 == 0 && opp_now() >= deadline))
            break;
        iterate(s, turn->view);
    }
    int32_t best = NONE;
    for (int32_t ch = s->nodes[0].child; ch != NONE; ch = s->nodes[ch].sibling)
        if (best == NONE || s->nodes[ch].visits > s->nodes[best].visits)
            best = ch;
    return best == NONE ? legal[0] : s->nodes[best].action;
}

static void seed_search(void *data, uint64_t seed)
{
    fig_rng_seed(&((search_t *)data)->rng, seed);
}

static void free_search(void *data)
{
    search_t *s = data;
    free(s->nodes);
    free(s);
}

static const fig_bot_ops_t textbook_ops = {
    .kind = "textbook-ismcts",
    .choose = choose,
    .seed = seed_search,
    .free = free_search,
};

int main(int argc, char **argv)
{
    opp_options_t o = { .c = 0.7, .seed = 1 };
    int bad = opp_options(argc, argv, "textbook_ismcts", true, &o);
    if (bad)
        return bad;
    search_t *s = calloc(1, sizeof *s);
    if (!s || !(s->nodes = malloc(sizeof(node_t) * MAX_NODES))) {
        free(s);
        fprintf(stderr, "textbook_ismcts: out of memory\n");
        return 1;
    }
    s->opt = o;
    fig_rng_seed(&s->rng, o.seed);
    char spec[96];
    snprintf(spec, sizeof spec, "textbook-ismcts c=%g%s", o.c, o.iters ? " iters" : "");
    return opp_serve(&textbook_ops, s, spec, "textbook_ismcts");
}
