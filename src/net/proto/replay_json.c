/* SPDX-License-Identifier: MIT */
/* replay_json.c - a game told again as JSON (replay_json.h).
 *
 * The record is played again from its setup on a game of our own, deal by
 * deal and action by action, as fig_session_replay does (host/session.h), but
 * keeping the whole state: the replay shows every hand. Each step's state is
 * a view of seat 0 shown as at an open table (fig_proto_view_json: piles,
 * stacks, every road) plus every seat's hand, so the client reads the same
 * fields it reads in live play; what never changes in a game (the players,
 * the colour left out, the road groups) is said once, at the top. Sentences
 * come from the narrator (host/narrate.h) as a spectator hears them: in the
 * third person, from seat 0's views, which are public but for seat 0's own
 * hand, and the narrator reads only the public part.
 *
 * The summary at the end is the object `figaro replay --json` prints
 * (src/cli/replay.c), built from the same engine calls (fig_game_results,
 * fig_state_ranking), so the two cannot disagree. */
#include "net/proto/replay_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/narrate.h"
#include "host/session.h"
#include "net/proto/proto.h"

static json_t *int_array(const int *v, int n, int null_value)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, v[i] == null_value ? json_null() : json_integer(v[i]));
    return a;
}

json_t *fig_replay_summary_json(const fig_game_t *g)
{
    fig_round_result_t res[FIG_ROUNDS];
    int n = g->setup.players, done = fig_game_results(g, res);
    bool finished = fig_game_over(g);
    json_t *obj = json_object();
    json_object_set_new(obj, "ok", json_true());
    json_object_set_new(obj, "finished", json_boolean(finished));
    json_object_set_new(obj, "players", json_integer(n));
    json_t *rounds = json_array();
    for (int r = 0; r < done; r++) {
        json_t *round = json_object();
        json_object_set_new(round, "round", json_integer(res[r].round));
        json_object_set_new(round, "king", json_integer(res[r].king));
        json_object_set_new(round, "stacks", int_array(res[r].stacks, n, -1));
        json_object_set_new(round, "exchange",
                            res[r].exchanged ? json_pack("{s:i, s:i, s:i}",
                                                         "seat", res[r].exchange_seat,
                                                         "gave", res[r].gave,
                                                         "took", res[r].took)
                                             : json_null());
        json_object_set_new(round, "pieces", int_array(res[r].pieces, n, 0));
        json_array_append_new(rounds, round);
    }
    json_object_set_new(obj, "rounds", rounds);
    if (finished) {
        const fig_state_t *st = &g->state;
        int totals[FIG_MAX_PLAYERS], ranking[FIG_MAX_PLAYERS];
        json_t *roads = json_array();
        for (int s = 0; s < n; s++) {
            json_t *road = json_array();
            for (int i = 0; i < st->nroad[s]; i++)
                json_array_append_new(road, json_integer(st->road[s][i]));
            json_array_append_new(roads, road);
            totals[s] = fig_state_road(st, s);
        }
        fig_state_ranking(st, ranking);
        json_object_set_new(obj, "roads", roads);
        json_object_set_new(obj, "totals", int_array(totals, n, -1));
        json_object_set_new(obj, "ranking", int_array(ranking, n, -1));
        json_object_set_new(obj, "winner", json_integer(ranking[0]));
    }
    return obj;
}

/* The state after a step: seat 0's view shown as at an open table, less
 * what the top says once, plus every hand (the game is over, or the record
 * is the person's own). */
static json_t *state_json(const fig_state_t *st, const fig_view_t *v)
{
    fig_proto_show_t open = { .open = true };
    json_t *o = fig_proto_view_json(v, -1, &open);
    json_object_del(o, "players");
    json_object_del(o, "removed");
    json_object_del(o, "road_groups");
    json_t *hands = json_array();
    for (int s = 0; s < st->players; s++)
        json_array_append_new(hands, fig_proto_hand_json(&st->hand[s]));
    json_object_set_new(o, "hands", hands);
    return o;
}

typedef struct {
    json_t *say;
    const fig_tr_t *tr;
} say_ctx_t;

static void say_cb(void *ctx, int about, const char *sentence)
{
    (void)about;
    json_array_append_new(((say_ctx_t *)ctx)->say, json_string(sentence));
}

/* Cards in the sentences as the person's language writes them ("Ve2"). */
static const char *card_cb(void *ctx, int kind, char *buf, size_t cap)
{
    return fig_narrate_code(((say_ctx_t *)ctx)->tr, kind, buf, cap);
}

static json_t *step_json(const fig_narrator_t *nr, say_ctx_t *sc, const fig_match_step_t *step,
                         const fig_view_t *before, const fig_view_t *after,
                         const fig_state_t *st)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(step->deal ? "deal" : "action"));
    json_object_set_new(o, "round", json_integer(step->round));
    json_object_set_new(o, "seat", json_integer(step->seat));
    if (!step->deal)
        json_object_set_new(o, "action", fig_proto_action_json(step->action));
    json_object_set_new(o, "events", fig_proto_events_json(step, st->players));
    sc->say = json_array();
    fig_narrate_step(nr, step, before, after);
    json_object_set_new(o, "say", sc->say);
    sc->say = NULL;
    json_object_set_new(o, "state", state_json(st, after));
    return o;
}

typedef struct {
    const fig_narrator_t *nr;
    say_ctx_t *sc;
    json_t *steps;
} tell_ctx_t;

/* Each step of the record, told again by the host (fig_session_replay_open). */
static void tell(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                 const fig_view_t *after, const fig_state_t *st)
{
    tell_ctx_t *tc = ctx;
    json_array_append_new(tc->steps, step_json(tc->nr, tc->sc, step, before, after, st));
}

fig_err_t fig_replay_json(const fig_game_t *rec, const fig_tr_t *tr, char **out, size_t *len,
                          fig_msg_t *msg)
{
    *out = NULL;
    *len = 0;
    int n = rec->setup.players;
    json_t *top = json_object(), *steps = json_array();
    if (!top || !steps) {
        json_decref(top);
        json_decref(steps);
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    }
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    json_t *jnames = json_array();
    for (int s = 0; s < n; s++) {
        if (rec->has_names)
            snprintf(names[s], sizeof names[s], "%s", rec->names[s]);
        else
            snprintf(names[s], sizeof names[s], fig_tr_text(tr, "seat %d"), s);
        json_array_append_new(jnames, json_string(names[s]));
    }
    json_object_set_new(top, "players", json_integer(n));
    json_object_set_new(top, "names", jnames);
    json_object_set_new(top, "has_names", json_boolean(rec->has_names));
    if (n == 3 && rec->setup.removed < FIG_COLOURS) {
        char c[2] = { fig_colour_letter(rec->setup.removed), 0 };
        json_object_set_new(top, "removed", json_string(c));
    } else {
        json_object_set_new(top, "removed", json_null());
    }
    json_t *groups = json_array();
    for (int r = 0; r < FIG_ROUNDS; r++) {
        json_t *gr = json_array();
        for (int i = 0; i < n - 1; i++)
            json_array_append_new(gr, json_integer(rec->setup.roads[r][i]));
        json_array_append_new(groups, gr);
    }
    json_object_set_new(top, "road_groups", groups);
    json_object_set_new(top, "king", json_integer(rec->setup.king));

    say_ctx_t sc = { NULL, tr };
    fig_narrator_t nr;
    fig_narrate_init(&nr, n, -1, (const char(*)[FIG_NAME_MAX + 1])names, tr, card_cb, say_cb,
                     &sc);
    tell_ctx_t tc = { &nr, &sc, steps };
    fig_err_t rc = fig_session_replay_open(rec, tell, &tc, msg);
    if (rc != FIG_OK) {
        json_decref(steps);
        json_decref(top);
        return rc;
    }
    json_object_set_new(top, "steps", steps);
    json_object_set_new(top, "summary", fig_replay_summary_json(rec));
    size_t n_out = 0;
    char *text = fig_proto_dump(top, &n_out);
    json_decref(top);
    if (!text)
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    if (n_out > FIG_REPLAY_JSON_MAX) {
        free(text);
        return fig_fail(msg, FIG_ERR_SPACE, "the replay would be longer than %d bytes",
                        FIG_REPLAY_JSON_MAX);
    }
    *out = text;
    *len = n_out;
    return FIG_OK;
}
