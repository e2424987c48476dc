/* SPDX-License-Identifier: MIT */
/* bot.c - the bot handle: spec registry, game tracking, and the guard that
 * keeps every answer legal.
 *
 * The handle follows the game with a full fig_state_t whose other hands are a
 * guess, repaired as cards are seen (fig_state_apply_seen), so the engine's own
 * rules keep it exact in everything the seat can know; bots are shown only the
 * view of it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "figaro/bot.h"

struct fig_bot {
    const fig_bot_ops_t *ops;
    void *data;
    char spec[128];
    int seat;
    bool in_game;
    fig_state_t st;
    fig_round_log_t log;   /* this round so far, for the turn */
    bool logged;           /* log holds the whole round: it was followed from its deal */
    fig_rng_t rng;   /* for overruling an illegal answer */
    int overrules;
};

static const struct {
    const char *name;
    bot_ctor_t ctor;
} kinds[] = {
    { "random", random_bot_new },
    { "greedy", greedy_bot_new },
    { "ismcts", mcts_bot_new },
    { "novice", novice_bot_new },
    { "careless", careless_bot_new },
};

/* Levels for people (docs/bots.md, docs/play.md): a name that stands for a
 * spec. Each is an iteration budget, not a time, so a level plays the same on
 * every machine and the same moves for the same seed. From easy up each wins
 * about 60-65% of the games against the one below (measured in the arena,
 * docs/bots.md). beginner is for a first game: a newcomer (the `novice` kind,
 * its lowest card, never collecting when it can help it) wins about a third
 * of the games at a table of three of them (docs/play.md), where against the
 * search it once was (ismcts:iters=200,temp=0.03) it won one in twenty. The
 * levels from normal to hard search without the learned leaf (leaf=-1), as
 * they were when their steps were measured; max, the strongest, has it. None
 * reads the others' play (infer=0): the levels, and the hints and reviews
 * that use them, were measured without it.
 *
 * mu is each level's fixed point on the people's rating scale (host/rating.h,
 * docs/ratings.md): its strength in an arena round-robin of the levels, in
 * Weng and Lin's units, beginner at a new person's 25; max, which the
 * round-robin placed level with hard, is hard plus its step head to head.
 * A level whose spec changes must be measured again (bench/rating_levels.py,
 * the commands in docs/ratings.md). */
static const struct {
    const char *level, *spec;
    double mu;
} levels[] = {
    /* TRANSLATORS: the levels of the bots, as the start screen, plain mode
     * and the page show them (the command line and the protocol keep
     * beginner, easy, normal, hard, max). */
    { N_LEVEL("beginner"), "careless", 25.0 },
    { N_LEVEL("easy"), "greedy", 41.0 },
    { N_LEVEL("normal"), "ismcts:iters=800,leaf=-1,infer=0", 45.5 },
    { N_LEVEL("hard"), "ismcts:iters=8000,leaf=-1,infer=0", 50.8 },
    { N_LEVEL("max"), "ismcts:iters=100000,infer=0", 53.0 },
};
/* The levels' sigma on that scale: the measurement's uncertainty, one for all. */
#define LEVEL_SIGMA 1.5
enum { NLEVELS = sizeof levels / sizeof levels[0] };

int fig_bot_level_count(void)
{
    return NLEVELS;
}

const char *fig_bot_level_name(int i)
{
    return i >= 0 && i < NLEVELS ? levels[i].level : NULL;
}

bool fig_bot_level_rating(int i, double *mu, double *sigma)
{
    if (i < 0 || i >= NLEVELS)
        return false;
    *mu = levels[i].mu;
    *sigma = LEVEL_SIGMA;
    return true;
}

int fig_bot_level_index(const char *name)
{
    for (int i = 0; name && i < NLEVELS; i++)
        if (strcmp(name, levels[i].level) == 0)
            return i;
    return -1;
}

/* "'SPEC' is not a bot (try ...)": the kinds, then the levels, from their tables. */
static fig_err_t not_a_bot(const char *spec, fig_msg_t *msg)
{
    char list[160];
    size_t n = 0;
    list[0] = '\0';
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] + NLEVELS && n < sizeof list; i++) {
        const char *name = i < sizeof kinds / sizeof kinds[0]
                               ? kinds[i].name : levels[i - sizeof kinds / sizeof kinds[0]].level;
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", name);
    }
    return fig_fail(msg, FIG_ERR_INPUT, N_("'%s' is not a bot (try %s)"), spec, list);
}

fig_err_t fig_spec_parse(const char *spec, char *name, size_t cap, fig_spec_fn f, void *ctx,
                         fig_msg_t *msg)
{
    size_t n = strcspn(spec, ":");
    if (n == 0 || n >= cap)
        return not_a_bot(spec, msg);
    memcpy(name, spec, n);
    name[n] = '\0';
    const char *p = spec + n;
    if (*p == '\0')
        return FIG_OK;
    p++;
    while (*p) {
        char key[32], value[64];
        size_t kl = strcspn(p, "=,");
        if (kl == 0 || kl >= sizeof key || p[kl] != '=')
            return fig_fail(msg, FIG_ERR_INPUT, N_("bot '%s': expected key=value after ':'"),
                            spec);
        memcpy(key, p, kl);
        key[kl] = '\0';
        p += kl + 1;
        size_t vl = strcspn(p, ",");
        if (vl == 0 || vl >= sizeof value)
            return fig_fail(msg, FIG_ERR_INPUT, N_("bot '%s': option '%s' needs a value"), spec,
                            key);
        memcpy(value, p, vl);
        value[vl] = '\0';
        p += vl;
        if (*p == ',')
            p++;
        if (!f)
            return fig_fail(msg, FIG_ERR_INPUT, N_("bot '%s' takes no options"), name);
        fig_err_t rc = f(ctx, key, value, msg);
        if (rc)
            return rc;
    }
    return FIG_OK;
}

fig_bot_t *fig_bot_wrap(const fig_bot_ops_t *ops, void *data, const char *spec)
{
    fig_bot_t *bot = calloc(1, sizeof *bot);
    if (!bot) {
        if (ops->free)
            ops->free(data);
        return NULL;
    }
    bot->ops = ops;
    bot->data = data;
    bot->seat = -1;
    snprintf(bot->spec, sizeof bot->spec, "%s", spec);
    fig_rng_seed(&bot->rng, 0x5EED);
    return bot;
}

fig_err_t fig_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, fig_msg_t *msg)
{
    char name[32];
    *out = NULL;
    int level = fig_bot_level_index(spec);
    if (level >= 0) {
        fig_err_t rc = fig_bot_new(out, levels[level].spec, seed, msg);
        if (rc == FIG_OK)
            snprintf((*out)->spec, sizeof (*out)->spec, "%s", spec);
        return rc;
    }
    fig_err_t rc;
    size_t n = strcspn(spec, ":");   /* the kind's name; the kind parses its own options */
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, spec, n);
    name[n] = '\0';
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strcmp(name, kinds[i].name) != 0)
            continue;
        const fig_bot_ops_t *ops;
        void *data;
        rc = kinds[i].ctor(spec, seed, &ops, &data, msg);
        if (rc)
            return rc;
        *out = fig_bot_wrap(ops, data, spec);
        if (!*out)
            return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
        fig_rng_seed_stream(&(*out)->rng, seed, 99);
        return FIG_OK;
    }
    return not_a_bot(spec, msg);
}

void fig_bot_free(fig_bot_t *bot)
{
    if (!bot)
        return;
    if (bot->ops->free)
        bot->ops->free(bot->data);
    free(bot);
}

const char *fig_bot_spec(const fig_bot_t *bot) { return bot->spec; }
bool fig_bot_instant(const fig_bot_t *bot) { return bot->ops->instant; }

void fig_bot_seed(fig_bot_t *bot, uint64_t seed)
{
    fig_rng_seed_stream(&bot->rng, seed, 99);
    if (bot->ops->seed)
        bot->ops->seed(bot->data, seed);
}
int fig_bot_seat(const fig_bot_t *bot) { return bot->seat; }
const fig_state_t *fig_bot_state(const fig_bot_t *bot) { return &bot->st; }

int fig_bot_overrules(const fig_bot_t *bot) { return bot->overrules; }

bool fig_bot_analysis(const fig_bot_t *bot, fig_analysis_t *out)
{
    if (!bot->ops->analysis || !bot->ops->analysis(bot->data, out))
        return false;
    out->seat = bot->seat;
    return true;
}

void fig_move_stat_noise(const fig_move_stat_t *m, int players, double *se_win,
                         double *se_place)
{
    double v = m->visits ? (double)m->visits : 1;
    double w = (m->win * v + 0.5) / (v + 1);
    *se_win = sqrt(w * (1 - w) / v);
    *se_place = sqrt((players * players - 1) / 12.0 / v);
}

int fig_bot_faults(const fig_bot_t *bot)
{
    return bot->ops->faults ? bot->ops->faults(bot->data) : 0;
}

bool fig_bot_take_fault(fig_bot_t *bot, fig_fault_t *out)
{
    return bot->ops->take_fault ? bot->ops->take_fault(bot->data, out) : false;
}

void fig_bot_watch(fig_bot_t *bot, const atomic_bool *closing)
{
    if (bot->ops->watch)
        bot->ops->watch(bot->data, closing);
}

fig_err_t fig_bot_game(fig_bot_t *bot, const fig_setup_t *setup, int seat, fig_msg_t *msg)
{
    fig_setup_t checked = *setup;
    fig_err_t rc = fig_setup_check(&checked, msg);
    if (rc)
        return rc;
    if (seat < 0 || seat >= checked.players)
        return fig_fail(msg, FIG_ERR_INPUT, N_("seat %d does not exist with %d players"), seat,
                        checked.players);
    bot->seat = seat;
    bot->in_game = true;
    bot->logged = false;
    fig_state_init(&bot->st, &checked);
    if (bot->ops->game)
        bot->ops->game(bot->data, &checked, seat);
    return FIG_OK;
}

fig_err_t fig_bot_round(fig_bot_t *bot, const fig_hand_t *hand, fig_msg_t *msg)
{
    if (!bot->in_game)
        return fig_fail(msg, FIG_ERR_STATE, N_("no game has started"));
    fig_err_t rc = fig_state_deal_seen(&bot->st, bot->seat, hand, msg);
    if (rc)
        return rc;
    bot->log.start = bot->st;
    bot->log.n = 0;
    bot->logged = true;
    if (bot->ops->round)
        bot->ops->round(bot->data, bot->st.round, hand);
    return FIG_OK;
}

fig_err_t fig_bot_move(fig_bot_t *bot, fig_action_t a, fig_msg_t *msg)
{
    if (!bot->in_game)
        return fig_fail(msg, FIG_ERR_STATE, N_("no game has started"));
    int seat = bot->st.turn;
    fig_err_t rc = fig_state_apply_seen(&bot->st, bot->seat, a, NULL, msg);
    if (rc)
        return rc;
    if (bot->logged && bot->log.n < FIG_MAX_ROUND_ACTIONS)
        bot->log.action[bot->log.n++] = a;
    else
        bot->logged = false;   /* cannot happen (a round's bound), but never write past it */
    if (bot->ops->move)
        bot->ops->move(bot->data, seat, a);
    return FIG_OK;
}

void fig_bot_game_over(fig_bot_t *bot)
{
    int totals[FIG_MAX_PLAYERS] = { 0 };
    for (int s = 0; s < bot->st.players; s++)
        totals[s] = fig_state_road(&bot->st, s);
    if (bot->ops->game_over)
        bot->ops->game_over(bot->data, totals);
    bot->in_game = false;
}

fig_action_t fig_bot_choose(fig_bot_t *bot, int ms)
{
    return fig_bot_choose_with(bot, ms, NULL, NULL);
}

fig_action_t fig_bot_choose_with(fig_bot_t *bot, int ms, const fig_scratch_t *scratch,
                                 const atomic_bool *cancel)
{
    if (!bot->in_game || bot->st.phase != FIG_PHASE_PLAY || bot->st.turn != bot->seat)
        return FIG_ACT_NONE;
    fig_view_t view;
    fig_view_of(&bot->st, bot->seat, &view);
    fig_bot_turn_t turn = { &view, &bot->st, ms, scratch, cancel,
                            bot->logged ? &bot->log : NULL };
    fig_action_t a = bot->ops->choose(bot->data, &turn);
    if (fig_state_check(&bot->st, a, NULL) != FIG_OK) {
        a = fig_state_random_action(&bot->st, &bot->rng);   /* never pass on an illegal move */
        bot->overrules++;
    }
    return a;
}

/* ---- bots whose only state is their generator */

fig_err_t rng_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t *kind,
                      const fig_bot_ops_t **ops, void **data, fig_msg_t *msg)
{
    char name[32];
    fig_err_t rc = fig_spec_parse(spec, name, sizeof name, NULL, NULL, msg);
    if (rc)
        return rc;
    fig_rng_t *rng = malloc(sizeof *rng);
    if (!rng)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    fig_rng_seed(rng, seed);
    *ops = kind;
    *data = rng;
    return FIG_OK;
}

void rng_bot_seed(void *data, uint64_t seed)
{
    fig_rng_seed(data, seed);
}

/* ---- random: a uniformly random legal action */

static fig_action_t random_choose(void *data, const fig_bot_turn_t *turn)
{
    return fig_state_random_action(turn->guess, data);
}

static const fig_bot_ops_t random_ops = {
    .kind = "random", .choose = random_choose, .seed = rng_bot_seed, .free = free,
    .instant = true,
};

fig_err_t random_bot_new(const char *spec, uint64_t seed, const fig_bot_ops_t **ops, void **data,
                         fig_msg_t *msg)
{
    return rng_bot_new(spec, seed, &random_ops, ops, data, msg);
}
