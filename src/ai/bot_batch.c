/* SPDX-License-Identifier: MIT */
/* bot_batch.c - a batch of games whose opponents are built-in bots
 * (bot_batch.h): the core's batch (batch.c) with fig_batch_opp_t hooks that
 * feed one fig_bot_t per opponent seat of each game what its seat may know. */
#include <stdlib.h>

#include "figaro/bot.h"
#include "figaro/bot_batch.h"

/* The search memory the batch's bots share (they think one at a time): the
 * ismcts default `mem` (256 MiB), only touched as a search makes nodes. */
#define SCRATCH_BYTES ((size_t)256 * 1024 * 1024)

struct fig_bot_batch {
    int n;
    fig_batch_opts_t opts;
    fig_env_t *envs;
    fig_bot_t **bots;          /* n x players; NULL at the learner's seat */
    fig_scratch_t scratch;
    fig_batch_opp_t opp;
    fig_err_t rc;              /* the first error a bot reported during a call */
    fig_msg_t msg;
};

static fig_bot_t *bot_at(fig_bot_batch_t *b, int i, int seat)
{
    return b->bots[(size_t)i * (size_t)b->opts.players + (size_t)seat];
}

static void keep(fig_bot_batch_t *b, fig_err_t rc, const fig_msg_t *msg)
{
    if (rc && !b->rc) {
        b->rc = rc;
        b->msg = *msg;
    }
}

static void on_start(void *ctx, int i, const fig_setup_t *setup, uint64_t seed)
{
    fig_bot_batch_t *b = ctx;
    fig_msg_t msg;
    for (int s = 0; s < b->opts.players; s++) {
        fig_bot_t *bot = bot_at(b, i, s);
        if (!bot)
            continue;
        fig_bot_seed(bot, fig_seed_derive(seed, 1, (uint64_t)s));
        keep(b, fig_bot_game(bot, setup, s, &msg), &msg);
    }
}

static void on_dealt(void *ctx, int i, const fig_hand_t hands[])
{
    fig_bot_batch_t *b = ctx;
    fig_msg_t msg;
    for (int s = 0; s < b->opts.players; s++) {
        fig_bot_t *bot = bot_at(b, i, s);
        if (bot)
            keep(b, fig_bot_round(bot, &hands[s], &msg), &msg);   /* its own hand only */
    }
}

static void on_moved(void *ctx, int i, fig_action_t a)
{
    fig_bot_batch_t *b = ctx;
    fig_msg_t msg;
    for (int s = 0; s < b->opts.players; s++) {
        fig_bot_t *bot = bot_at(b, i, s);
        if (bot)
            keep(b, fig_bot_move(bot, a, &msg), &msg);
    }
}

static fig_action_t on_choose(void *ctx, int i, int seat)
{
    fig_bot_batch_t *b = ctx;
    fig_bot_t *bot = bot_at(b, i, seat);
    return bot ? fig_bot_choose_with(bot, 0, &b->scratch, NULL) : FIG_ACT_NONE;
}

fig_err_t fig_bot_batch_new(fig_bot_batch_t **out, int n, const fig_batch_opts_t *opts,
                            const char *opponents, fig_msg_t *msg)
{
    *out = NULL;
    fig_err_t rc = fig_batch_check(opts, msg);
    if (rc)
        return rc;
    if (opts->seat < 0)
        return fig_fail(msg, FIG_ERR_INPUT,
                        N_("bots as opponents need the learner's seat, not self-play"));
    if (n < 1)
        return fig_fail(msg, FIG_ERR_INPUT, N_("a batch of %d games"), n);
    fig_bot_batch_t *b = calloc(1, sizeof *b);
    size_t nbots = (size_t)n * (size_t)opts->players;
    if (!b || !(b->envs = calloc((size_t)n, sizeof *b->envs)) ||
        !(b->bots = calloc(nbots, sizeof *b->bots)) ||
        !(b->scratch.mem = malloc(SCRATCH_BYTES))) {
        fig_bot_batch_free(b);
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    b->n = n;
    b->opts = *opts;
    b->scratch.size = SCRATCH_BYTES;
    b->opp = (fig_batch_opp_t){ b, on_start, on_dealt, on_moved, on_choose };
    for (size_t k = 0; k < nbots; k++) {
        if ((int)(k % (size_t)opts->players) == opts->seat)
            continue;
        rc = fig_bot_new(&b->bots[k], opponents, 0, msg);   /* seeded per game */
        if (rc) {
            fig_bot_batch_free(b);
            return rc;
        }
    }
    *out = b;
    return FIG_OK;
}

void fig_bot_batch_free(fig_bot_batch_t *b)
{
    if (!b)
        return;
    if (b->bots)
        for (size_t k = 0; k < (size_t)b->n * (size_t)b->opts.players; k++)
            fig_bot_free(b->bots[k]);
    free(b->bots);
    free(b->envs);
    free(b->scratch.mem);
    free(b);
}

/* The bots' first error of the call, if any, else rc. */
static fig_err_t outcome(fig_bot_batch_t *b, fig_err_t rc, fig_msg_t *msg)
{
    if (rc || !b->rc)
        return rc;
    return fig_fail(msg, b->rc, N_("an opponent: %s"), b->msg.text);
}

fig_err_t fig_bot_batch_reset(fig_bot_batch_t *b, const uint64_t seeds[],
                              const fig_batch_out_t *out, fig_msg_t *msg)
{
    b->rc = FIG_OK;
    return outcome(b, fig_batch_reset_with(b->envs, b->n, &b->opts, seeds, &b->opp, out, msg),
                   msg);
}

fig_err_t fig_bot_batch_step(fig_bot_batch_t *b, const int32_t actions[],
                             const fig_batch_out_t *out, fig_msg_t *msg)
{
    b->rc = FIG_OK;
    return outcome(b, fig_batch_step_with(b->envs, b->n, &b->opts, actions, &b->opp, out, msg),
                   msg);
}

const fig_env_t *fig_bot_batch_envs(const fig_bot_batch_t *b) { return b->envs; }
