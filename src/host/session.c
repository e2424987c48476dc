/* SPDX-License-Identifier: MIT */
/* session.c - starting, resuming and telling again a game, the same way for
 * every front end (session.h).
 *
 * Every bot is made here, through fig_bot_any_new(), the one call of the general
 * bot factory (built-in specs and "cmd:" engines alike), and seeded from the
 * game seed and its seat: fig_session_bot_seed. Those seeds
 * and the deals from the game seed are what make a seed replay a game; they
 * must not change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "figaro/fgn.h"
#include "host/fep_host.h"
#include "host/session.h"
#include "host/util.h"

/* Opponents' names when none are given: characters of the Barber of Seville. */
static const char *const bot_names[] = { "Rosina", "Bartolo", "Basilio", "Berta", "Fiorello",
                                         "Almaviva" };

static bool is_person_name(const fig_seats_t *seats, const char *name)
{
    for (int s = 0; s < seats->players && s < FIG_MAX_PLAYERS; s++)
        if (!seats->seat[s].bot && strcasecmp(seats->seat[s].name, name) == 0)
            return true;
    return false;
}

const char *fig_session_bot_name(const fig_seats_t *seats, int seat)
{
    if (seat < 0 || seat >= seats->players || seat >= FIG_MAX_PLAYERS || !seats->seat[seat].bot)
        return NULL;
    /* The k-th bot seat takes the k-th free name; with the person at seat 0,
     * seat s is the s-th bot seat. */
    int k = 0;
    for (int s = 0; s <= seat; s++)
        if (seats->seat[s].bot)
            k++;
    for (size_t i = 0; i < sizeof bot_names / sizeof bot_names[0]; i++) {
        if (is_person_name(seats, bot_names[i]))
            continue;
        if (--k == 0)
            return bot_names[i];
    }
    return "Bot";
}

bool fig_session_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > FIG_NAME_MAX)
        return false;
    for (; *s; s++)
        if (!fig_fgn_name_byte_ok((unsigned char)*s))
            return false;
    return true;
}

static fig_err_t spec_ok(const char *spec, const fig_tr_t *tr, fig_msg_t *msg)
{
    size_t n = strnlen(spec, FIG_SPEC_MAX);
    if (n == 0)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a bot needs a spec"));
    if (n == FIG_SPEC_MAX)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                           N_("a bot spec is longer than %d characters"), FIG_SPEC_MAX - 1);
    for (const char *c = spec; *c; c++)
        if ((unsigned char)*c < ' ' || *c == 0x7F)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                               N_("a bot spec cannot hold control characters"));
    return FIG_OK;
}

fig_err_t fig_session_check_spec(const char *spec, const fig_tr_t *tr, fig_msg_t *msg)
{
    fig_err_t rc = spec_ok(spec, tr, msg);
    if (rc != FIG_OK)
        return rc;
    fig_bot_t *bot = NULL;
    if ((rc = fig_bot_any_new(&bot, spec, 0, FIG_SESSION_ENGINE_MS, msg)) != FIG_OK)
        return rc;
    fig_bot_free(bot);
    return FIG_OK;
}

uint64_t fig_session_bot_seed(uint64_t seed, int seat)
{
    return fig_seed_derive(seed, 0, 1000 + (uint64_t)seat);
}

/* Checks the seat table against `players` (the record's, or the table's own). */
static fig_err_t check_seats(const fig_seats_t *seats, int players, bool need_names,
                             const fig_tr_t *tr, fig_msg_t *msg)
{
    if (seats->players < FIG_MIN_PLAYERS || seats->players > FIG_MAX_PLAYERS)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a game has 3 to 6 players, not %d"),
                           seats->players);
    if (players != seats->players)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                           N_("the seat table has %d seats but the game %d players"),
                           seats->players, players);
    for (int s = 0; s < seats->players; s++) {
        const fig_seat_t *st = &seats->seat[s];
        const char *name = st->name;
        if (memchr(name, '\0', sizeof st->name) == NULL)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("seat %d: the name is too long"), s);
        if (!st->bot && !name[0] && need_names)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("seat %d: a person needs a name"), s);
        if (name[0] && !fig_session_name_ok(name))
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                               N_("seat %d: '%s' cannot be a name (1 to %d bytes, without "
                                  "spaces or '#')"),
                               s, name, FIG_NAME_MAX);
        if (st->bot) {
            fig_msg_t why;
            if (spec_ok(st->spec, tr, &why) != FIG_OK)
                return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("seat %d: %s"), s, why.text);
        }
    }
    return FIG_OK;
}

/* Names every seat into mo and the table: the record's names when it has
 * some, else the table's, else a bot's default. */
static void name_seats(fig_match_opts_t *mo, fig_seats_t *seats, const fig_game_t *record)
{
    fig_seats_t before = *seats;   /* defaults skip the people's names as given */
    mo->has_names = true;
    for (int s = 0; s < seats->players; s++) {
        const char *name = record && record->has_names ? record->names[s]
                           : seats->seat[s].name[0]    ? seats->seat[s].name
                                                       : fig_session_bot_name(&before, s);
        snprintf(mo->names[s], sizeof mo->names[s], "%s", name);
        memcpy(seats->seat[s].name, mo->names[s], sizeof seats->seat[s].name);
    }
}

/* Creates the bots of the table into mo->bots; on failure frees those made. */
static fig_err_t make_bots(fig_match_opts_t *mo, const fig_session_opts_t *o, uint64_t seed,
                           const fig_tr_t *tr, fig_msg_t *msg)
{
    int engine_ms = o->engine_ms > 0 ? o->engine_ms : FIG_SESSION_ENGINE_MS;
    for (int s = 0; s < o->seats.players; s++) {
        if (!o->seats.seat[s].bot)
            continue;
        fig_msg_t why;
        fig_err_t rc = fig_bot_any_new(&mo->bots[s], o->seats.seat[s].spec,
                                       fig_session_bot_seed(seed, s), engine_ms, &why);
        if (rc != FIG_OK) {
            mo->bots[s] = NULL;
            for (int t = 0; t < s; t++) {
                fig_bot_free(mo->bots[t]);
                mo->bots[t] = NULL;
            }
            return fig_fail_tr(msg, tr, rc, N_("seat %d (%s): %s"), s, o->seats.seat[s].spec,
                               why.text);
        }
    }
    return FIG_OK;
}

/* What the match takes from the session's options besides the seats. */
static void match_opts(fig_match_opts_t *mo, const fig_session_opts_t *o)
{
    mo->pool = o->pool;
    mo->on_fault = o->on_fault;
    mo->fault_user = o->fault_user;
}

fig_err_t fig_session_start(fig_match_t **out, fig_session_opts_t *o, const fig_tr_t *tr,
                            fig_msg_t *msg)
{
    *out = NULL;
    fig_err_t rc = check_seats(&o->seats, o->seats.players, true, tr, msg);
    if (rc != FIG_OK)
        return rc;
    fig_match_opts_t mo;
    memset(&mo, 0, sizeof mo);
    if (!o->has_seed) {   /* secret: nothing shown lets it be guessed (R14) */
        if ((rc = fig_random_u64(&o->seed, msg)) != FIG_OK)
            return rc;
        o->has_seed = true;
    }
    fig_setup_random(&mo.setup, o->seats.players, o->seed, NULL);
    match_opts(&mo, o);
    if ((rc = make_bots(&mo, o, o->seed, tr, msg)) != FIG_OK)
        return rc;
    name_seats(&mo, &o->seats, NULL);
    return fig_match_new(out, &mo, msg);   /* the match owns the bots, even on failure */
}

fig_err_t fig_session_resume(fig_match_t **out, const fig_game_t *record,
                             fig_session_opts_t *o, const fig_tr_t *tr, fig_msg_t *msg)
{
    *out = NULL;
    fig_err_t rc = check_seats(&o->seats, record->setup.players, !record->has_names, tr, msg);
    if (rc != FIG_OK)
        return rc;
    fig_match_opts_t mo;
    memset(&mo, 0, sizeof mo);
    mo.setup = record->setup;
    o->seed = record->setup.seed;
    o->has_seed = record->setup.has_seed;
    match_opts(&mo, o);
    if ((rc = make_bots(&mo, o, o->seed, tr, msg)) != FIG_OK)
        return rc;
    name_seats(&mo, &o->seats, record);
    return fig_match_resume(out, record, &mo, msg);
}

/* The one replay loop: every step of rec through fn, with seat's views and
 * the whole state after the step. */
static fig_err_t replay(const fig_game_t *rec, int seat, fig_session_state_fn *fn, void *ctx,
                        fig_msg_t *msg)
{
    if (seat < 0 || seat >= rec->setup.players)
        return fig_fail(msg, FIG_ERR_INPUT, N_("there is no seat %d"), seat);
    /* The record is played again on a copy from its setup, so the steps and
     * their events are the engine's own, as fig_match_step gave them. */
    fig_game_t *g = malloc(sizeof *g);
    fig_view_t *v = malloc(2 * sizeof *v);
    if (!g || !v) {
        free(g);
        free(v);
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    fig_view_t *before = &v[0], *after = &v[1];
    fig_err_t rc = FIG_OK;
    fig_game_init(g, &rec->setup);
    fig_view_of(&g->state, seat, after);
    for (int r = 0; r < rec->dealt && rc == FIG_OK; r++) {
        fig_match_step_t step;
        *before = *after;
        if ((rc = fig_game_deal(g, rec->hands[r], msg)) != FIG_OK)
            break;
        memset(&step, 0, sizeof step);
        step.deal = true;
        step.round = g->state.round;
        step.seat = g->state.turn;
        step.action = FIG_ACT_NONE;
        fig_view_of(&g->state, seat, after);
        fn(ctx, &step, before, after, &g->state);
        for (int i = 0; i < rec->nmoves[r]; i++) {
            memset(&step, 0, sizeof step);
            step.round = g->state.round;
            step.seat = g->state.turn;
            step.action = rec->moves[r][i].action;
            *before = *after;
            if ((rc = fig_game_play(g, step.action, &step.events, msg)) != FIG_OK)
                break;
            fig_view_of(&g->state, seat, after);
            fn(ctx, &step, before, after, &g->state);
        }
    }
    free(v);
    free(g);
    return rc;
}

typedef struct {
    fig_session_step_fn *fn;
    void *ctx;
} seat_only_t;

/* Hands the seat's views on, never the state (R14). */
static void seat_only(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                      const fig_view_t *after, const fig_state_t *st)
{
    (void)st;
    const seat_only_t *so = ctx;
    so->fn(so->ctx, step, before, after);
}

fig_err_t fig_session_replay(const fig_game_t *rec, int seat, fig_session_step_fn *fn,
                             void *ctx, fig_msg_t *msg)
{
    seat_only_t so = { fn, ctx };
    return replay(rec, seat, seat_only, &so, msg);
}

fig_err_t fig_session_replay_open(const fig_game_t *rec, fig_session_state_fn *fn, void *ctx,
                                  fig_msg_t *msg)
{
    return replay(rec, 0, fn, ctx, msg);
}
