/* SPDX-License-Identifier: MIT */
/* mcts.c - Information-Set Monte Carlo Tree Search (Cowling, Powley and
 * Whitehouse, 2012), single-observer form.
 *
 * In Figaro every action is public and only the hands are hidden, so one tree
 * keyed by actions serves all players: a node is an action history, and each
 * node stores the seat that acted into it and that seat's rewards. Each
 * iteration
 *   1. samples a full state consistent with the bot's view (fig_view_sample);
 *   2. descends, among the children legal in that sample, by UCB1 with
 *      availability counts (n_avail instead of the parent's visits), exploring
 *      with `c` at the bot's own choices and the smaller `copp` at the others'
 *      (they are expected to play what the search finds best for them);
 *   3. expands one untried legal action;
 *   4. plays `leaf` actions of the playout policy (fig_state_policy_action,
 *      FIG_PLAYOUT_SEEK unless `playout=avoid`); then, while at least
 *      `leafcards` cards are still in play, draws `draws` round ends from the
 *      learned leaf (leaf.h) instead of playing on, else plays out to the end
 *      of the current *round* (short and exact late in a round);
 *   5. scores the rest of the game exactly over the rank orders of the later
 *      rounds (future.h), averaged over the drawn round ends, and backs up
 *      each seat's expected reward.
 * The tree stops at a round's end. `exact=0` plays rounds 2 and 3 out at
 * random instead (and never uses the leaf); with `playout=avoid,copp=0.7`
 * too, it is the search the results of docs/bots.md compare with.
 *
 * Each tree also sums, per root move, what fig_bot_analysis reports (win,
 * place, cards collected to the round's end, being made to collect before
 * the next turn); `temp` > 0 draws the move played by a softmax over the
 * root values instead of taking the most visited (the levels for people).
 *
 * Budget: `iters` iterations (deterministic for a seed) or `ms` milliseconds;
 * a cancel flag in the turn (fig_bot_turn_t) ends the search early, with the
 * best action found so far. Root parallelism: `threads` trees searched
 * independently (threads - 1 helper threads during the think), their root
 * visits summed.
 *
 * Memory: the trees' nodes (and each tree's cache of round-end values and
 * root statistics, tree_mem_t) come from the scratch block the host lends for
 * the think (a pool worker's, host/pool.h), split evenly between the trees
 * and capped by `mem` MiB (with `infer`, its pool of weighed states comes first
 * from the same memory); so a thousand bots in a server use the workers'
 * blocks, not a thousand pools. Called without scratch (bench, tests, a bot
 * used on its own), the bot allocates a pool of `mem` MiB at its first think
 * and keeps it. Either way a long think never exhausts memory: a full tree
 * stops expanding and keeps sampling; a search whose memory suffices plays
 * the same whichever memory it runs in. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ai.h"
#include "ai/future.h"
#include "ai/infer.h"
#include "ai/leaf.h"

enum { MAX_THREADS = 16, MAX_DEPTH = 130 };

/* Children are made in blocks of BLOCK adjacent nodes, one block's worth of
 * siblings at a time (add_child): choosing among a node's children then reads
 * a few cache lines, not one scattered line per child, whose misses were a
 * quarter of a long think's time (200,000 iterations). Node 0 is the root,
 * alone in the first block. */
enum { BLOCK = 8 };

typedef struct {
    uint32_t child;     /* first child, 0 for none (0 is the root: never a child) */
    uint32_t sibling;   /* next sibling, 0 for none */
    uint32_t visits;
    uint32_t avail;     /* times this action was legal when its parent was visited */
    float reward;       /* sum of the actor's rewards */
    fig_action_t action;
    uint8_t actor;
} node_t;

typedef struct {
    int ms, iters, threads;
    double c;           /* UCB exploration constant at the bot's own choices */
    double c_opp;       /* and at the other seats' choices (smaller: they are
                           assumed to play what the search finds best for them) */
    int mem;            /* MiB for all trees together */
    double win_weight;  /* reward = w * win + (1 - w) * rank score */
    double win_opp;     /* the same w for the other seats: what the search assumes
                           they play for; < 0: win_weight */
    int redraws;        /* playout policy: see fig_state_policy_action */
    fig_playout_t playout;
    double temp;        /* > 0: choose by a softmax of root values (levels) */
    int exact;          /* 1: playouts end with the round, the rest scored by future.h;
                           0: played to the game's end at random, for comparison */
    int leaf;           /* >= 0: a playout stops after this many actions and the round's
                           end is drawn from the learned model (leaf.h); -1: played out */
    int leaf_cards;     /* ... when at least this many cards are still in play (else
                           played out: late in a round a playout is short and exact) */
    int leaf_draws;     /* round ends drawn per leaf, their values averaged */
    double infer;       /* > 0: the others' hands weighed by their play this round, with
                           this sharpness (infer.h; 5 by default, docs/bots.md); 0: drawn
                           uniformly from the view */
} params_t;

/* Sums over the playouts through one root child, for fig_bot_analysis. */
typedef struct {
    double win, place, next;
    double collect[FIG_MAX_PLAYERS], made_by[FIG_MAX_PLAYERS];
} root_stat_t;

typedef struct {
    node_t *nodes;
    uint32_t n, cap;
    fig_rng_t rng;
    const fig_view_t *view;
    const infer_pool_t *pool;   /* with `infer`, when there was something to read: the
                                   weighed states; else NULL */
    const params_t *p;
    uint32_t stamp;
    uint32_t legal_at[256], child_at[256];   /* stamps marking actions per visit */
    long iterations;
    double deadline;    /* CLOCK_MONOTONIC seconds, or 0 with an iteration budget */
    const atomic_bool *cancel;   /* the host's flag, or NULL */
    float c;            /* the exploration constant, as a float for the inner loop */
    float c_opp;        /* the same at other seats' choices */
    float place_reward[FIG_MAX_PLAYERS];   /* by final place, first to last */
    float place_reward_opp[FIG_MAX_PLAYERS];   /* the same for the other seats */
    float w_me, w_opp;                     /* the win weights (params_t), as floats for the
                                              inner loop */
    long budget;
    future_cache_t *future;   /* with exact: this tree's values of round ends */
    uint8_t slot[256];                     /* root child's action code -> stats index */
    int nslots;
    root_stat_t *stats;                    /* in the think's memory (tree_mem_t) */
} tree_t;

/* What each tree keeps beside its nodes, at the start of its share of the
 * think's memory (scratch or own pool): nothing of it outlives the think. */
typedef struct {
    future_cache_t future;
    root_stat_t stats[FIG_MAX_ACTIONS];
} tree_mem_t;

enum { STRIDE_ALIGN = 64 };

typedef struct {
    params_t p;
    fig_rng_t rng;
    tree_t trees[MAX_THREADS];
    infer_pool_t *pool;   /* in the think's memory, before the trees' (place_trees) */
    char *own;          /* the bot's own pool, for thinks without scratch; NULL until then */
    size_t own_size;
    long last_iterations;
    bool analysed;      /* `last` holds the last think's root */
    fig_analysis_t last;
} mcts_t;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int code(fig_action_t a) { return fig_act_is_take(a) ? 255 : a; }

/* Natural logarithm of x >= 1, to about 0.5%: exploration needs the shape of
 * log, not its digits, and libm's log was a twentieth of every iteration.
 * Reads the float's exponent, then a quadratic for the mantissa in [1, 2). */
static inline float fast_log(float x)
{
    union { float f; uint32_t u; } v = { x };
    float e = (float)((int)(v.u >> 23) - 127);
    v.u = (v.u & 0x007FFFFFu) | 0x3F800000u;
    float m = v.f;
    return 0.6931472f * (e + (-0.34484843f * m + 2.02466578f) * m - 1.67487759f);
}

/* The reward of each final place (R13), for `players` seats: a win counts
 * most, then the rank. Set once per move, read once per iteration. */
static void place_rewards(double w, int players, float out[])
{
    for (int r = 0; r < players; r++)
        out[r] = (float)(w * (r == 0) + (1 - w) * (double)(players - 1 - r) / (players - 1));
}

/* Whether the block of a node's first child has a free slot before it (a
 * block fills backwards, see add_child; 0, no child yet, has none). */
static inline bool block_open(uint32_t first_child)
{
    return first_child % BLOCK != 0;
}

/* Whether parent can have one more child: its first child's block has room
 * left, or the pool has a block to spare. */
static inline bool child_room(const tree_t *t, uint32_t parent)
{
    return block_open(t->nodes[parent].child) || t->n + BLOCK <= t->cap;
}

/* A new first child of parent (child_room must hold). Each block is filled
 * from its end backwards, so that the children keep the order they had as a
 * list (the newest first) and a walk over them goes forwards through memory. */
static uint32_t add_child(tree_t *t, uint32_t parent, fig_action_t a, int actor)
{
    uint32_t id = t->nodes[parent].child;
    if (block_open(id)) {
        id--;
    } else {
        t->n += BLOCK;
        id = t->n - 1;
    }
    node_t *c = &t->nodes[id];
    memset(c, 0, sizeof *c);
    c->action = a;
    c->actor = (uint8_t)actor;
    c->sibling = t->nodes[parent].child;
    t->nodes[parent].child = id;
    return id;
}

/* Follows one seat from the root move until its next turn begins (or the
 * round ends): whether it collects in that window, and whose action made it. */
typedef struct {
    int me, by;      /* by: the seat whose action made `me` collect, or -1 */
    bool open;
} watch_t;

static inline void watched_apply(fig_state_t *st, fig_action_t a, watch_t *w)
{
    if (!w->open) {
        fig_state_apply_legal(st, a, NULL);
        return;
    }
    int actor = st->turn, before = st->stack[w->me];
    fig_state_apply_legal(st, a, NULL);   /* a round's stacks stay until the next deal */
    if (st->stack[w->me] != before) {
        w->by = actor;
        w->open = false;
    } else if (st->phase != FIG_PHASE_PLAY || st->turn == w->me) {
        w->open = false;
    }
}

/* Plays the rest of the current round by the bot's playout policy
 * (fig_state_policy_action), watching w while it is open, then in the core's
 * own loop, which draws the same and is a few percent faster. */
static void playout_round(fig_state_t *st, fig_rng_t *rng, const params_t *p, watch_t *w)
{
    while (w->open && st->phase == FIG_PHASE_PLAY)
        watched_apply(st, fig_state_policy_action(st, rng, p->redraws, p->playout), w);
    fig_state_playout_round(st, rng, p->redraws, p->playout);   /* the rest, unwatched */
}

static root_stat_t *root_stat(tree_t *t, fig_action_t a)
{
    uint8_t *slot = &t->slot[code(a)];
    if (*slot == 0xFF) {
        *slot = (uint8_t)t->nslots++;
        memset(&t->stats[*slot], 0, sizeof t->stats[*slot]);
    }
    return &t->stats[*slot];
}

/* Selection and expansion: down the tree along the children legal in this
 * sample (UCB1 with availability, each counted as available), until one
 * untried action is added or the round ends. The nodes walked are path[],
 * their number returned. */
static int descend(tree_t *t, fig_state_t *st, watch_t *w, uint32_t path[MAX_DEPTH])
{
    fig_action_t moves[FIG_MAX_ACTIONS];
    int depth = 0;
    uint32_t node = 0;
    path[depth++] = 0;
    while (st->phase == FIG_PHASE_PLAY && depth < MAX_DEPTH) {
        int n = fig_state_legal(st, moves);
        uint32_t stamp = ++t->stamp;
        for (int i = 0; i < n; i++)
            t->legal_at[code(moves[i])] = stamp;
        uint32_t best = 0;
        float best_ucb = -1, cx = st->turn == w->me ? t->c : t->c_opp;
        int known = 0;
        for (uint32_t c = t->nodes[node].child; c; c = t->nodes[c].sibling) {
            node_t *ch = &t->nodes[c];
            int k = code(ch->action);
            if (t->legal_at[k] != stamp)
                continue;
            t->child_at[k] = stamp;
            known++;
            ch->avail++;
            float inv = 1.0f / (float)ch->visits;   /* one division, not two */
            float ucb = ch->reward * inv + cx * sqrtf(fast_log((float)ch->avail) * inv);
            if (ucb > best_ucb) {
                best_ucb = ucb;
                best = c;
            }
        }
        if (known < n) {   /* expansion: one untried action, chosen at random */
            if (!child_room(t, node))
                break;     /* pool full: play out from here */
            int pick = (int)fig_rng_below(&t->rng, (uint32_t)(n - known)), seen = 0;
            for (int i = 0; i < n; i++) {
                if (t->child_at[code(moves[i])] == stamp)
                    continue;
                if (seen++ == pick) {
                    uint32_t c = add_child(t, node, moves[i], st->turn);
                    t->nodes[c].avail = 1;
                    watched_apply(st, moves[i], w);
                    path[depth++] = c;
                    break;
                }
            }
            break;
        }
        watched_apply(st, t->nodes[best].action, w);
        node = best;
        path[depth++] = node;
    }
    return depth;
}

/* What an iteration is worth, from where the descent left the sample: each
 * seat's reward r[], and for the root's analysis the stacks at the round's
 * end and the searcher's win and place. */
typedef struct {
    float r[FIG_MAX_PLAYERS], win_me, place_me;
    uint8_t round_end[FIG_MAX_PLAYERS];
} outcome_t;

/* A few actions of the policy, then the learned leaf while the round has
 * far to go; else the playout to the round's end. Then the rounds to come:
 * their exact value, or played out to the game's end. */
static void evaluate(tree_t *t, fig_state_t *st, watch_t *w, outcome_t *o)
{
    future_t modelled;
    bool leaf = false;
    const params_t *p = t->p;
    int steps = p->exact ? p->leaf : -1;   /* the leaf's value is the exact rest's */
    for (int i = 0; i < steps && st->phase == FIG_PHASE_PLAY; i++)
        watched_apply(st, fig_state_policy_action(st, &t->rng, p->redraws, p->playout), w);
    if (steps >= 0 && st->phase == FIG_PHASE_PLAY && leaf_cards_in_play(st) >= p->leaf_cards) {
        leaf_value(st, &t->rng, p->leaf_draws, t->future, &modelled);
        leaf = true;
    } else {
        playout_round(st, &t->rng, p, w);
    }
    memcpy(o->round_end, st->stack, sizeof o->round_end);
    int me = w->me;
    if (p->exact) {
        future_t scratch;
        const future_t *f = leaf ? &modelled : future_value(t->future, st, &scratch);
        for (int s = 0; s < st->players; s++) {
            float w1 = s == me ? t->w_me : t->w_opp;
            o->r[s] = w1 * f->win[s] + (1 - w1) * f->score[s];
        }
        o->win_me = f->win[me];
        o->place_me = f->place[me];
    } else {
        fig_state_playout(st, &t->rng, p->redraws);
        int ranking[FIG_MAX_PLAYERS];
        fig_state_ranking(st, ranking);
        o->win_me = o->place_me = 0;
        for (int place = 0; place < st->players; place++) {
            o->r[ranking[place]] = ranking[place] == me ? t->place_reward[place]
                                                        : t->place_reward_opp[place];
            if (ranking[place] == me) {
                o->win_me = place == 0;
                o->place_me = (float)(place + 1);
            }
        }
    }
}

static void iterate(tree_t *t)
{
    fig_state_t st;
    uint32_t path[MAX_DEPTH];
    if (t->pool)
        infer_draw(t->pool, t->view, &t->rng, &st);
    else
        fig_view_sample(t->view, &t->rng, &st);
    watch_t w = { .me = t->view->seat, .by = -1, .open = true };
    int depth = descend(t, &st, &w, path);
    outcome_t o;
    evaluate(t, &st, &w, &o);
    if (depth > 1) {   /* the analysis of the root move this iteration went through */
        root_stat_t *rs = root_stat(t, t->nodes[path[1]].action);
        rs->win += o.win_me;
        rs->place += o.place_me;
        for (int s = 0; s < st.players; s++)
            rs->collect[s] += o.round_end[s] - t->view->stack[s];
        if (w.by >= 0) {
            rs->next += 1;
            rs->made_by[w.by] += 1;
        }
    }
    t->nodes[0].visits++;
    for (int i = 1; i < depth; i++) {
        node_t *nd = &t->nodes[path[i]];
        nd->visits++;
        nd->reward += o.r[nd->actor];
    }
}

static void *search(void *arg)
{
    tree_t *t = arg;
    t->n = BLOCK;   /* the root's block */
    memset(&t->nodes[0], 0, sizeof t->nodes[0]);
    t->iterations = 0;
    memset(t->slot, 0xFF, sizeof t->slot);
    t->nslots = 0;
    for (;;) {
        if ((t->iterations & 15) == 0 && t->cancel &&
            atomic_load_explicit(t->cancel, memory_order_relaxed))
            break;
        if (t->deadline > 0) {
            if ((t->iterations & 15) == 0 && t->iterations > 0 && now() >= t->deadline)
                break;
        } else if (t->iterations >= t->budget) {
            break;
        }
        iterate(t);
        t->iterations++;
    }
    return NULL;
}

/* Bytes of the think's memory before the trees': the pool of weighed states
 * with `infer`, a multiple of STRIDE_ALIGN. */
static size_t pool_bytes(const params_t *p)
{
    return p->infer > 0 ? (sizeof(infer_pool_t) + STRIDE_ALIGN - 1) / STRIDE_ALIGN * STRIDE_ALIGN
                        : 0;
}

/* Bytes per tree the bot's `mem` allows, a multiple of STRIDE_ALIGN. */
static size_t mem_stride(const params_t *p)
{
    size_t all = (size_t)p->mem * 1024 * 1024, before = pool_bytes(p);
    size_t stride = (all > before ? all - before : 0) / (size_t)p->threads;
    size_t most = sizeof(tree_mem_t) + ((size_t)1 << 30) * sizeof(node_t);
    stride = stride > most ? most : stride;
    return stride / STRIDE_ALIGN * STRIDE_ALIGN;
}

/* Points each tree at its share of the memory for this think: the host's
 * scratch when lent (up to `mem`), else the bot's own pool, made now if
 * need be. Returns false if there is no memory for even a root and a child. */
static bool place_trees(mcts_t *m, const fig_scratch_t *scratch)
{
    size_t stride = mem_stride(&m->p), before = pool_bytes(&m->p);
    if (scratch && scratch->mem && before > scratch->size / 8)
        before = 0;   /* a small block goes to the trees: the pool helps, they are needed */
    char *base;
    if (scratch && scratch->mem) {
        size_t fit = (scratch->size - before) / (size_t)m->p.threads / STRIDE_ALIGN * STRIDE_ALIGN;
        if (fit < stride)
            stride = fit;
        base = scratch->mem;
    } else {
        if (!m->own) {
            /* Only touched as nodes are made, so a large cap costs nothing
             * until a long think needs it. */
            m->own = malloc(before + stride * (size_t)m->p.threads);
            if (!m->own)
                return false;
            m->own_size = before + stride * (size_t)m->p.threads;
        }
        base = m->own;
    }
    m->pool = before ? (infer_pool_t *)(void *)base : NULL;
    base += before;
    /* The nodes start on a cache line, so that a block of siblings spans as
     * few lines as it can (stride is a multiple of the line). */
    size_t pad = (size_t)(-(uintptr_t)(base + sizeof(tree_mem_t)) % STRIDE_ALIGN);
    if (stride < sizeof(tree_mem_t) + pad + 2 * BLOCK * sizeof(node_t))
        return false;
    size_t per_tree = (stride - sizeof(tree_mem_t) - pad) / sizeof(node_t);
    for (int i = 0; i < m->p.threads; i++) {
        char *at = base + (size_t)i * stride;
        tree_mem_t *tm = (tree_mem_t *)(void *)at;
        m->trees[i].stats = tm->stats;
        m->trees[i].future = &tm->future;
        m->trees[i].nodes = (node_t *)(void *)(at + sizeof(tree_mem_t) + pad);
        m->trees[i].cap = (uint32_t)per_tree;
        if (m->p.exact)
            future_reset(&tm->future);
    }
    return true;
}

static void analyse(mcts_t *m, int trees, const fig_action_t moves[], int n,
                    const uint32_t visits[], const float reward[]);

static int soften(mcts_t *m, const fig_state_t *st, const fig_action_t moves[], int n,
                  const uint32_t visits[], const float reward[], int best);

static fig_action_t mcts_choose(void *data, const fig_bot_turn_t *turn)
{
    mcts_t *m = data;
    const params_t *p = &m->p;
    int threads = p->threads;
    m->analysed = false;
    if (!place_trees(m, turn->scratch))
        return FIG_ACT_NONE;   /* no memory: the handle overrules with a random action */
    double deadline = 0;
    if (p->iters == 0) {
        int ms = p->ms;
        if (turn->ms > 0 && turn->ms < ms)
            ms = turn->ms;   /* the host's limit wins when it is shorter */
        deadline = now() + ms / 1000.0;
    }
    uint64_t move_seed = fig_rng_next(&m->rng);
    const infer_pool_t *pool = NULL;
    if (m->pool) {   /* its own stream, after the trees' */
        fig_rng_t rng;
        fig_rng_seed_stream(&rng, move_seed, MAX_THREADS);
        infer_weigh(m->pool, turn->round, turn->view, p->infer, &rng);
        pool = m->pool->n ? m->pool : NULL;
    }
    for (int i = 0; i < threads; i++) {
        tree_t *t = &m->trees[i];
        t->view = turn->view;
        t->pool = pool;
        t->p = p;
        t->deadline = deadline;
        t->cancel = turn->cancel;
        t->budget = p->iters / threads + (i < p->iters % threads);
        t->c = (float)p->c;
        t->c_opp = (float)p->c_opp;
        t->w_me = (float)p->win_weight;
        t->w_opp = (float)p->win_opp;
        place_rewards(p->win_weight, turn->view->players, t->place_reward);
        place_rewards(p->win_opp, turn->view->players, t->place_reward_opp);
        fig_rng_seed_stream(&t->rng, move_seed, (uint64_t)i);
    }
    pthread_t tid[MAX_THREADS];
    int started = 1;
    for (int i = 1; i < threads; i++, started++)
        if (pthread_create(&tid[i], NULL, search, &m->trees[i]) != 0)
            break;   /* fewer threads than asked: search on with those we have */
    search(&m->trees[0]);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);

    /* Sum root visits by action over the trees; the most visited wins. */
    uint32_t visits[256] = { 0 };
    float reward[256] = { 0 };
    m->last_iterations = 0;
    for (int i = 0; i < started; i++) {
        tree_t *t = &m->trees[i];
        m->last_iterations += t->iterations;
        for (uint32_t c = t->nodes[0].child; c; c = t->nodes[c].sibling) {
            visits[code(t->nodes[c].action)] += t->nodes[c].visits;
            reward[code(t->nodes[c].action)] += t->nodes[c].reward;
        }
    }
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(turn->guess, moves), best = 0;
    for (int i = 1; i < n; i++) {
        int a = code(moves[i]), b = code(moves[best]);
        if (visits[a] > visits[b] || (visits[a] == visits[b] && reward[a] > reward[b]))
            best = i;
    }
    analyse(m, started, moves, n, visits, reward);
    if (p->temp > 0 && n > 1)
        best = soften(m, turn->guess, moves, n, visits, reward, best);
    return n ? moves[best] : FIG_ACT_NONE;
}

/* Whether a makes the mover collect at once: a Take, or a card that brings
 * its own pile to 6 (R5, R8). */
static bool self_collects(const fig_state_t *st, fig_action_t a)
{
    if (fig_act_is_take(a))
        return true;
    int k = fig_act_kind(a);
    return k != FIG_RING && fig_act_target(a) == st->turn &&
           st->pile[st->turn].total + fig_kind_value(k) >= 6;
}

/* The levels' knob (docs/bots.md): instead of the most visited move, a move
 * drawn with probability proportional to exp(value / temp), value being its
 * mean reward at the root. A person's mistakes, not a random bot's: moves the
 * search never tried are left out, and so is making oneself collect when some
 * move does not (the absurd moves a child would not play). */
static int soften(mcts_t *m, const fig_state_t *st, const fig_action_t moves[], int n,
                  const uint32_t visits[], const float reward[], int best)
{
    bool harmless = false;
    for (int i = 0; i < n; i++)
        harmless |= visits[code(moves[i])] > 0 && !self_collects(st, moves[i]);
    double weight[FIG_MAX_ACTIONS], top = -1e30, sum = 0;
    for (int i = 0; i < n; i++) {
        int a = code(moves[i]);
        weight[i] = -1e30;
        if (visits[a] > 0 && !(harmless && self_collects(st, moves[i])))
            weight[i] = reward[a] / visits[a] / m->p.temp;
        if (weight[i] > top)
            top = weight[i];
    }
    if (top <= -1e30)
        return best;
    for (int i = 0; i < n; i++) {
        weight[i] = weight[i] <= -1e30 ? 0 : exp(weight[i] - top);
        sum += weight[i];
    }
    double x = (double)fig_rng_below(&m->rng, 1u << 30) / (double)(1u << 30) * sum;
    for (int i = 0; i < n; i++) {
        if (weight[i] > 0 && x < weight[i])
            return i;
        x -= weight[i];
    }
    return best;
}

static bool more_visited(fig_action_t x, fig_action_t y, const uint32_t visits[],
                         const float reward[])
{
    int a = code(x), b = code(y);
    return visits[a] > visits[b] || (visits[a] == visits[b] && reward[a] > reward[b]);
}

/* Fills m->last from the trees' root statistics: the visited moves, most
 * visited first in the order mcts_choose ranks them (so the first is the move
 * it chose), each with its averages over the playouts through it. */
static void analyse(mcts_t *m, int trees, const fig_action_t moves[], int n,
                    const uint32_t visits[], const float reward[])
{
    fig_analysis_t *an = &m->last;
    an->n = 0;
    an->iterations = m->last_iterations;
    long total = 0;
    for (int i = 0; i < n; i++)
        total += visits[code(moves[i])];
    for (int i = 0; i < n; i++) {
        fig_action_t a = moves[i];
        if (!visits[code(a)])
            continue;
        int j = an->n++;   /* stable insertion: equal moves keep the legal order */
        for (; j > 0 && more_visited(a, an->moves[j - 1].action, visits, reward); j--)
            an->moves[j] = an->moves[j - 1];
        fig_move_stat_t *ms = &an->moves[j];
        memset(ms, 0, sizeof *ms);
        ms->action = a;
        ms->visits = visits[code(a)];
        ms->share = (double)ms->visits / (double)total;
        for (int k = 0; k < trees; k++) {
            const tree_t *t = &m->trees[k];
            if (t->slot[code(a)] == 0xFF)
                continue;
            const root_stat_t *rs = &t->stats[t->slot[code(a)]];
            ms->win += rs->win;
            ms->place += rs->place;
            ms->collect_next += rs->next;
            for (int s = 0; s < FIG_MAX_PLAYERS; s++) {
                ms->collect[s] += rs->collect[s];
                ms->made_by[s] += rs->made_by[s];
            }
        }
        double v = ms->visits;
        ms->win /= v;
        ms->place /= v;
        ms->collect_next /= v;
        for (int s = 0; s < FIG_MAX_PLAYERS; s++) {
            ms->collect[s] /= v;
            ms->made_by[s] /= v;
        }
    }
    m->analysed = an->n > 0;
}

static bool mcts_analysis(void *data, fig_analysis_t *out)
{
    mcts_t *m = data;
    if (!m->analysed)
        return false;
    *out = m->last;
    return true;
}

static void mcts_free(void *data)
{
    mcts_t *m = data;
    if (!m)
        return;
    free(m->own);
    free(m);
}

static void mcts_seed(void *data, uint64_t seed)
{
    fig_rng_seed(&((mcts_t *)data)->rng, seed);
}

static const fig_bot_ops_t mcts_ops = {
    .kind = "ismcts", .choose = mcts_choose, .seed = mcts_seed, .free = mcts_free,
    .analysis = mcts_analysis,
};

static fig_err_t set_int(const char *key, const char *value, long min, long max, int *out,
                         fig_msg_t *msg)
{
    char *end;
    long v = strtol(value, &end, 10);
    if (*end || end == value || v < min || v > max)
        return fig_fail(msg, FIG_ERR_INPUT, N_("ismcts: %s must be a whole number from %ld to "
                                               "%ld, not '%s'"), key, min, max, value);
    *out = (int)v;
    return FIG_OK;
}

/* A real option from 0 to 10 (temp, c, copp; win, which then checks its own bound). */
static fig_err_t set_number(const char *key, const char *value, double *out, fig_msg_t *msg)
{
    char *end;
    double v = strtod(value, &end);
    if (*end || end == value || !(v >= 0 && v <= 10))
        return fig_fail(msg, FIG_ERR_INPUT, N_("ismcts: %s must be a number from 0 to 10, "
                                               "not '%s'"), key, value);
    *out = v;
    return FIG_OK;
}

static fig_err_t set_option(void *ctx, const char *key, const char *value, fig_msg_t *msg)
{
    params_t *p = ctx;
    if (strcmp(key, "ms") == 0)
        return set_int(key, value, 1, 3600000, &p->ms, msg);
    if (strcmp(key, "iters") == 0)
        return set_int(key, value, 1, 100000000, &p->iters, msg);
    if (strcmp(key, "threads") == 0)
        return set_int(key, value, 1, MAX_THREADS, &p->threads, msg);
    if (strcmp(key, "mem") == 0)
        return set_int(key, value, 1, 65536, &p->mem, msg);
    if (strcmp(key, "redraws") == 0)
        return set_int(key, value, 0, 10, &p->redraws, msg);
    if (strcmp(key, "playout") == 0) {
        if (strcmp(value, "seek") == 0 || strcmp(value, "avoid") == 0) {
            p->playout = value[0] == 's' ? FIG_PLAYOUT_SEEK : FIG_PLAYOUT_AVOID;
            return FIG_OK;
        }
        return fig_fail(msg, FIG_ERR_INPUT, N_("ismcts: playout must be seek or avoid, not '%s'"),
                        value);
    }
    if (strcmp(key, "leaf") == 0)
        return set_int(key, value, -1, 200, &p->leaf, msg);
    if (strcmp(key, "leafcards") == 0)
        return set_int(key, value, 0, FIG_DECK_MAX, &p->leaf_cards, msg);
    if (strcmp(key, "draws") == 0)
        return set_int(key, value, 1, 256, &p->leaf_draws, msg);
    if (strcmp(key, "exact") == 0)
        return set_int(key, value, 0, 1, &p->exact, msg);
    if (strcmp(key, "temp") == 0)
        return set_number(key, value, &p->temp, msg);
    if (strcmp(key, "infer") == 0)
        return set_number(key, value, &p->infer, msg);
    if (strcmp(key, "c") == 0)
        return set_number(key, value, &p->c, msg);
    if (strcmp(key, "copp") == 0)
        return set_number(key, value, &p->c_opp, msg);
    if (strcmp(key, "win") == 0 || strcmp(key, "wopp") == 0) {
        double v;
        fig_err_t rc = set_number(key, value, &v, msg);
        if (rc)
            return rc;
        if (v > 1)
            return fig_fail(msg, FIG_ERR_INPUT, N_("ismcts: %s must be from 0 to 1"), key);
        *(strcmp(key, "win") == 0 ? &p->win_weight : &p->win_opp) = v;
        return FIG_OK;
    }
    return fig_fail(msg, FIG_ERR_INPUT, N_("ismcts: unknown option '%s' (ms, iters, threads, c, "
                                           "copp, win, wopp, mem, redraws, playout, exact, leaf, "
                                           "leafcards, draws, infer, temp)"), key);
}

fig_err_t mcts_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                       fig_msg_t *msg)
{
    params_t p = { .ms = 1000, .iters = 0, .threads = 1, .c = 0.7, .c_opp = 0.35, .mem = 256,
                   .win_weight = 0.5, .win_opp = -1, .redraws = 2,
                   .playout = FIG_PLAYOUT_SEEK, .exact = 1, .leaf = 4, .leaf_cards = 30,
                   .leaf_draws = 8, .infer = 5 };
    char name[32];
    fig_err_t rc = fig_spec_parse(spec, name, sizeof name, set_option, &p, msg);
    if (rc)
        return rc;
    if (p.win_opp < 0)
        p.win_opp = p.win_weight;
    mcts_t *m = calloc(1, sizeof *m);
    if (!m)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    m->p = p;
    fig_rng_seed(&m->rng, seed);
    *ops = &mcts_ops;
    *data = m;
    return FIG_OK;
}
