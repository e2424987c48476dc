/* SPDX-License-Identifier: MIT */
/* proto_out.c - every frame the server sends (proto.h: "building the
 * server's messages"): views and events as JSON from a seat's view (R14),
 * the service's frames, a table's frames, built from plain C values. The
 * parser of clients' frames is proto.c's. Building never reads anything but
 * a view, a step's public events and an action: no function here can reach
 * a hidden hand. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/fgn.h"
#include "host/lang.h"
#include "host/session.h"
#include "host/util.h"
#include "net/proto/proto.h"

json_t *fig_proto_action_json(fig_action_t a)
{
    char buf[16];
    return json_string(fig_act_format(a, buf, sizeof buf));
}

/* A pile's cards as codes: colour cards in the pile's colour by value, then
 * jesters and rings (state.h: n[] is values 1-3, J1, J2, rings). */
static json_t *pile_json(const fig_pile_t *p)
{
    json_t *o = json_object();
    json_t *cards = json_array();
    for (int i = 0; i < 6; i++) {
        int kind;
        if (i < 3)
            kind = p->colour < FIG_COLOURS ? p->colour * 3 + i : -1;
        else
            kind = FIG_J1 + (i - 3);
        for (int k = 0; k < p->n[i] && kind >= 0; k++)
            json_array_append_new(cards, json_string(fig_kind_code(kind)));
    }
    char colour[2] = { p->colour < FIG_COLOURS ? fig_colour_letter(p->colour) : 0, 0 };
    json_object_set_new(o, "colour", colour[0] ? json_string(colour) : json_null());
    json_object_set_new(o, "total", json_integer(p->total));
    json_object_set_new(o, "cards", cards);
    return o;
}

json_t *fig_proto_hand_json(const fig_hand_t *h)
{
    json_t *a = json_array();
    for (int k = 0; k < FIG_KINDS; k++)
        for (int i = 0; i < h->n[k]; i++)
            json_array_append_new(a, json_string(fig_kind_code(k)));
    return a;
}

/* What a legal action of the viewer would do, as the engine plays it: the
 * action is applied to a state sampled from the view (fig_view_sample). The
 * immediate effect of a move (R5-R8: the target pile's new total, who collects
 * how many cards) depends only on the public piles and the mover's own card,
 * so whatever the sample dealt the other seats, the outcome is the same and
 * tells nothing hidden (R14); the sample's seed is therefore a constant.
 * {"reach":n} for a card that leaves its pile at n, plus "collector" and
 * "count" when the pile reaches 6 (R8); {"collector":me,"count":n} for a
 * take (R5); {"ring":true} for a ring (R7: every pile moves left). */
static json_t *outcome_json(const fig_state_t *sample, fig_action_t a)
{
    fig_state_t st = *sample;
    fig_events_t ev;
    int reach = -1;
    if (!fig_act_is_take(a) && fig_act_kind(a) != FIG_RING)
        reach = st.pile[fig_act_target(a)].total + fig_kind_value(fig_act_kind(a));
    fig_state_apply_legal(&st, a, &ev);
    json_t *o = json_object();
    if (reach >= 0)
        json_object_set_new(o, "reach", json_integer(reach));
    for (int i = 0; i < ev.n; i++) {
        if (ev.ev[i].type == FIG_EV_RING)
            json_object_set_new(o, "ring", json_true());
        if (ev.ev[i].type == FIG_EV_COLLECT) {
            json_object_set_new(o, "collector", json_integer(ev.ev[i].seat));
            json_object_set_new(o, "count", json_integer(ev.ev[i].count));
        }
    }
    return o;
}

static const char *phase_name(int phase)
{
    return phase == FIG_PHASE_DEAL ? "deal" : phase == FIG_PHASE_PLAY ? "play" : "over";
}

/* Why each card of the hand that no legal action plays (acts, k of them)
 * cannot go in front of each seat, in seat order: {"B2":["...", ...]}, the
 * engine's refusals (fig_narrate_refusal) in the receiver's words. They read
 * the view alone, and only a card the seat holds is named: the colours of
 * the public piles and who has which tell the rest (R6, R14). NULL when
 * every card can go somewhere: most turns, and always with five or six
 * players (a colour no pile has leaves a pile without colour). */
static json_t *reasons_json(const fig_view_t *v, const fig_action_t acts[], int k,
                            const fig_narrator_t *nr)
{
    uint32_t playable = 0;
    for (int i = 0; i < k; i++)
        if (!fig_act_is_take(acts[i]))
            playable |= 1u << fig_act_kind(acts[i]);
    json_t *o = NULL;
    for (int kind = 0; kind < FIG_KINDS; kind++) {
        if (!v->hand.n[kind] || playable >> kind & 1u)
            continue;
        json_t *why = json_array();
        for (int t = 0; t < v->players; t++) {
            char text[320];
            fig_narrate_refusal(nr, v, fig_act_play(kind, t), text, sizeof text);
            if (text[0])
                json_array_append_new(why, json_string(text));
        }
        if (!o)
            o = json_object();
        json_object_set_new(o, fig_kind_code(kind), why);
    }
    return o;
}

/* What the seat's own view adds: its seat, its hand and, on its turn, the
 * legal actions with what each would do, and why the others cannot be
 * played when nr is given. */
static void own_seat_json(json_t *o, const fig_view_t *v, int me, const fig_narrator_t *nr)
{
    json_object_set_new(o, "seat", json_integer(me));
    json_object_set_new(o, "hand", fig_proto_hand_json(&v->hand));
    fig_action_t acts[FIG_MAX_ACTIONS];
    int k = fig_view_legal(v, acts);
    if (k <= 0)
        return;
    fig_state_t sample;
    fig_rng_t rng;
    fig_rng_seed(&rng, 0);
    fig_view_sample(v, &rng, &sample);
    json_t *legal = json_array(), *outcomes = json_array();
    for (int i = 0; i < k; i++) {
        json_array_append_new(legal, fig_proto_action_json(acts[i]));
        json_array_append_new(outcomes, outcome_json(&sample, acts[i]));
    }
    json_object_set_new(o, "legal", legal);
    json_object_set_new(o, "outcomes", outcomes);
    json_t *reasons = nr ? reasons_json(v, acts, k, nr) : NULL;
    if (reasons)
        json_object_set_new(o, "reasons", reasons);
}

json_t *fig_proto_view_json(const fig_view_t *v, int me, const fig_proto_show_t *show)
{
    int n = v->players;
    bool over = v->phase == FIG_PHASE_OVER;
    bool open = (show && show->open) || over;
    json_t *o = json_object();
    json_object_set_new(o, "players", json_integer(n));
    json_object_set_new(o, "round", json_integer(v->round));
    json_object_set_new(o, "phase", json_string(phase_name(v->phase)));
    json_object_set_new(o, "turn", json_integer(v->turn));
    json_object_set_new(o, "king", json_integer(v->king));
    if (n == 3 && v->removed < FIG_COLOURS) {
        char c[2] = { fig_colour_letter(v->removed), 0 };
        json_object_set_new(o, "removed", json_string(c));
    } else {
        json_object_set_new(o, "removed", json_null());
    }
    json_t *sizes = json_array(), *piles = json_array(), *pieces = json_array();
    json_t *stacks = open ? json_array() : NULL, *roads = json_array();
    for (int s = 0; s < n; s++) {
        json_array_append_new(sizes, json_integer(v->hand_size[s]));
        json_array_append_new(piles, pile_json(&v->pile[s]));
        json_array_append_new(pieces, json_integer(v->nroad[s]));
        if (stacks)
            json_array_append_new(stacks, json_integer(v->stack[s]));
        /* A seat's own pieces are in front of it; others' lengths are not
         * compared during play (R14) unless the table is open. */
        if (open || s == me) {
            json_t *r = json_array();
            for (int i = 0; i < v->nroad[s]; i++)
                json_array_append_new(r, json_integer(v->road[s][i]));
            json_array_append_new(roads, r);
        } else {
            json_array_append_new(roads, json_null());
        }
    }
    json_object_set_new(o, "hand_sizes", sizes);
    json_object_set_new(o, "piles", piles);
    json_object_set_new(o, "road_pieces", pieces);
    json_object_set_new(o, "roads", roads);
    if (stacks)
        json_object_set_new(o, "stacks", stacks);
    json_t *groups = json_array();
    for (int r = 0; r < FIG_ROUNDS; r++) {
        json_t *g = json_array();
        for (int i = 0; i < n - 1; i++)
            json_array_append_new(g, json_integer(v->group[r][i]));
        json_array_append_new(groups, g);
    }
    json_object_set_new(o, "road_groups", groups);
    if (me >= 0 && me == v->seat)
        own_seat_json(o, v, me, show ? show->nr : NULL);
    if (over) {
        /* R13, as the engine ranks: a view of a finished game says who won,
         * for a client that was not there for the game_over event. */
        fig_state_t st = { .pub = v->pub };
        int ranking[FIG_MAX_PLAYERS];
        fig_state_ranking(&st, ranking);
        json_t *r = json_array();
        for (int s = 0; s < n; s++)
            json_array_append_new(r, json_integer(ranking[s]));
        json_object_set_new(o, "ranking", r);
    }
    return o;
}

static const char *const event_names[] = {
    [FIG_EV_PLAY] = "play",           [FIG_EV_TAKE] = "take",
    [FIG_EV_RING] = "ring",           [FIG_EV_COLLECT] = "collect",
    [FIG_EV_LAST_CARD] = "last_card", [FIG_EV_HAND_EMPTY] = "hand_empty",
    [FIG_EV_ROUND_END] = "round_end", [FIG_EV_EXCHANGE] = "exchange",
    [FIG_EV_PIECE] = "piece",         [FIG_EV_NO_PIECE] = "no_piece",
    [FIG_EV_GAME_OVER] = "game_over",
};

static json_t *int_list(const uint8_t *a, int n)
{
    json_t *l = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(l, json_integer(a[i]));
    return l;
}

json_t *fig_proto_events_json(const fig_match_step_t *step, int players)
{
    json_t *a = json_array();
    for (int i = 0; i < step->events.n; i++) {
        const fig_event_t *e = &step->events.ev[i];
        if (e->type > FIG_EV_GAME_OVER)
            continue;
        json_t *o = json_object();
        json_object_set_new(o, "type", json_string(event_names[e->type]));
        json_object_set_new(o, "seat", json_integer(e->seat));
        switch (e->type) {
        case FIG_EV_PLAY:
            json_object_set_new(o, "card", json_string(fig_kind_code(e->kind)));
            json_object_set_new(o, "target", json_integer(e->target));
            break;
        case FIG_EV_TAKE:
        case FIG_EV_COLLECT:
            json_object_set_new(o, "count", json_integer(e->count));
            if (e->type == FIG_EV_COLLECT)
                json_object_set_new(o, "reason", json_string(e->reason == FIG_WHY_SIX ? "six"
                                                                                      : "take"));
            break;
        case FIG_EV_ROUND_END:
            /* counts[] are the stacks, told at the round's end (R10, R14). */
            json_object_set_new(o, "round", json_integer(e->round));
            json_object_set_new(o, "stacks", int_list(e->counts, players));
            break;
        case FIG_EV_EXCHANGE:
            json_object_set_new(o, "gave", json_integer(e->a));
            json_object_set_new(o, "took", json_integer(e->b));
            break;
        case FIG_EV_PIECE:
            json_object_set_new(o, "length", json_integer(e->a));
            json_object_set_new(o, "rank", json_integer(e->rank + 1));
            json_object_set_new(o, "cards", json_integer(e->count));
            json_object_set_new(o, "tie", json_boolean(e->tie));
            break;
        case FIG_EV_NO_PIECE:
            json_object_set_new(o, "reason", json_string(e->reason == FIG_WHY_LAST ? "last"
                                                                                   : "zero"));
            json_object_set_new(o, "cards", json_integer(e->count));
            break;
        case FIG_EV_GAME_OVER: {
            json_t *rank = json_array(), *tot = json_array();
            for (int s = 0; s < players; s++) {
                json_array_append_new(rank, json_integer(e->counts[s]));
                json_array_append_new(tot, json_integer(e->totals[s]));
            }
            json_object_set_new(o, "ranking", rank);
            json_object_set_new(o, "totals", tot);
            break;
        }
        default:
            break;
        }
        json_array_append_new(a, o);
    }
    return a;
}

/* ---- the service's frames */

json_t *fig_proto_welcome(const char *epoch, const char *lang, const char *server,
                          const char *const engines[], int nengines)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("welcome"));
    json_object_set_new(o, "v", json_integer(FIG_PROTO_VERSION));
    json_object_set_new(o, "epoch", json_string(epoch));
    json_object_set_new(o, "lang", json_string(lang));
    json_object_set_new(o, "server", json_string(server));
    json_t *names = json_array();
    for (int i = 0; i < nengines; i++)
        json_array_append_new(names, json_string(engines[i]));
    json_object_set_new(o, "engines", names);
    json_t *levels = json_array();
    for (int i = 0; i < fig_level_count(); i++)
        json_array_append_new(levels, json_string(fig_level_name(i)));
    json_object_set_new(o, "levels", levels);
    json_object_set_new(o, "default_level", json_string(FIG_BOT_LEVEL_DEFAULT));
    json_t *langs = json_array();
    for (int i = 0; i < fig_lang_count(); i++) {
        json_t *l = json_object();
        json_object_set_new(l, "code", json_string(fig_lang_code(i)));
        json_object_set_new(l, "name", json_string(fig_lang_name(i)));
        json_array_append_new(langs, l);
    }
    json_object_set_new(o, "languages", langs);
    json_t *lim = json_object();
    json_object_set_new(lim, "frame", json_integer(FIG_NET_FRAME_MAX));
    json_object_set_new(lim, "chat", json_integer(FIG_PROTO_CHAT_MAX));
    json_object_set_new(o, "limits", lim);
    return o;
}

json_t *fig_proto_error(fig_proto_code_t code, const char *text, const char *re,
                        const char *table)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("error"));
    json_object_set_new(o, "code", json_string(fig_proto_code_name(code)));
    json_object_set_new(o, "text", json_string(text));
    if (re)
        json_object_set_new(o, "re", json_string(re));
    if (table)
        json_object_set_new(o, "table", json_string(table));
    return o;
}

json_t *fig_proto_moved(const char *text, const char *re, const char *table, const char *node)
{
    json_t *o = fig_proto_error(FIG_PC_MOVED, text, re, table);
    json_object_set_new(o, "node", json_string(node));
    return o;
}

json_t *fig_proto_pong(void)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string("pong"));
    return o;
}

/* ---- a table's frames */

json_t *fig_proto_table_msg(const char *type, const char *table)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(type));
    json_object_set_new(o, "table", json_string(table));
    return o;
}

json_t *fig_proto_seats_json(const fig_proto_seat_info_t *seats, int n)
{
    json_t *a = json_array();
    for (int s = 0; s < n; s++) {
        const fig_proto_seat_info_t *x = &seats[s];
        json_t *o = json_object();
        json_object_set_new(o, "kind", json_string(x->kind));
        json_object_set_new(o, "name", x->name ? json_string(x->name) : json_null());
        if (x->level)
            json_object_set_new(o, "level", json_string(x->level));
        if (x->engine)
            json_object_set_new(o, "engine", json_string(x->engine));
        json_object_set_new(o, "status", json_string(x->status));
        json_array_append_new(a, o);
    }
    return a;
}

json_t *fig_proto_tally_json(const fig_proto_tally_t *y)
{
    json_t *o = json_object();
    json_object_set_new(o, "game", json_integer(y->game));
    json_t *a = json_array();
    for (int s = 0; s < y->n; s++)
        json_array_append_new(a, json_string(y->votes[s]));
    json_object_set_new(o, "votes", a);
    json_object_set_new(o, "ready", json_integer(y->ready));
    json_object_set_new(o, "of", json_integer(y->of));
    return o;
}

json_t *fig_proto_other_event(const fig_proto_other_t *e)
{
    json_t *o = fig_proto_table_msg("event", e->table);
    json_object_set_new(o, "n", json_integer(e->n));
    json_object_set_new(o, "game", json_integer(e->game));
    json_object_set_new(o, "kind", json_string(e->kind));
    if (strcmp(e->kind, "start") == 0) {
        json_object_set_new(o, "seats", fig_proto_seats_json(e->seats, e->nseats));
    } else if (strcmp(e->kind, "chat") == 0) {
        json_object_set_new(o, "seat", e->seat >= 0 ? json_integer(e->seat) : json_null());
        json_object_set_new(o, "name", json_string(e->name));
        json_object_set_new(o, "text", json_string(e->text));
    } else if (strcmp(e->kind, "rematch") == 0) {
        json_object_set_new(o, "seat", json_integer(e->seat));
        json_object_set_new(o, "name", json_string(e->name));
        json_object_set_new(o, "ready", json_boolean(e->ready));
    } else {
        json_object_set_new(o, "seat", json_integer(e->seat));
        json_object_set_new(o, "news", json_string(e->news));
        json_object_set_new(o, "name", json_string(e->name));
        json_object_set_new(o, "seats", fig_proto_seats_json(e->seats, e->nseats));
    }
    if (e->tally)
        json_object_set_new(o, "rematch", fig_proto_tally_json(e->tally));
    json_t *say = json_array();
    if (e->say && e->say[0])
        json_array_append_new(say, json_string(e->say));
    json_object_set_new(o, "say", say);
    return o;
}

json_t *fig_proto_game_event(const char *table, long long n, int game,
                             const fig_match_step_t *step, int players, const fig_view_t *after,
                             int me, const fig_proto_show_t *show, json_t *say,
                             const char *record)
{
    json_t *o = fig_proto_table_msg("event", table);
    json_object_set_new(o, "n", json_integer(n));
    json_object_set_new(o, "game", json_integer(game));
    json_object_set_new(o, "kind", json_string(step->deal ? "deal" : "action"));
    json_object_set_new(o, "round", json_integer(step->round));
    json_object_set_new(o, "seat", json_integer(step->seat));
    if (!step->deal)
        json_object_set_new(o, "action", fig_proto_action_json(step->action));
    json_object_set_new(o, "events", fig_proto_events_json(step, players));
    json_object_set_new(o, "view", fig_proto_view_json(after, me, show));
    json_object_set_new(o, "say", say);
    if (record)
        json_object_set_new(o, "record", json_string(record));
    return o;
}

void fig_proto_set_clock(json_t *o, long long ms_left)
{
    json_object_set_new(o, "turn_ms_left", ms_left >= 0 ? json_integer(ms_left) : json_null());
}

json_t *fig_proto_seated(const char *table, int seat, const char *name, const char *token)
{
    json_t *o = fig_proto_table_msg("seated", table);
    json_object_set_new(o, "seat", json_integer(seat));
    json_object_set_new(o, "name", json_string(name));
    if (token)
        json_object_set_new(o, "token", json_string(token));
    return o;
}

json_t *fig_proto_seat_msg(const char *type, const char *table, int seat)
{
    json_t *o = fig_proto_table_msg(type, table);
    json_object_set_new(o, "seat", json_integer(seat));
    return o;
}

json_t *fig_proto_caught_up(const char *table, long long n)
{
    json_t *o = fig_proto_table_msg("caught_up", table);
    json_object_set_new(o, "n", json_integer(n));
    return o;
}

json_t *fig_proto_story_entry(const char *kind, json_t *say)
{
    json_t *o = json_object();
    json_object_set_new(o, "kind", json_string(kind));
    json_object_set_new(o, "say", say ? say : json_array());
    return o;
}

json_t *fig_proto_story_chat(int seat, const char *name, const char *text)
{
    json_t *o = fig_proto_story_entry("chat", NULL);
    json_object_set_new(o, "seat", seat >= 0 ? json_integer(seat) : json_null());
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "text", json_string(text));
    return o;
}

json_t *fig_proto_snapshot(const fig_proto_snapshot_t *s)
{
    json_t *o = fig_proto_table_msg("snapshot", s->table);
    json_object_set_new(o, "epoch", json_string(s->epoch));
    json_object_set_new(o, "n", json_integer(s->n));
    json_object_set_new(o, "game_n", json_integer(s->game_n));
    json_object_set_new(o, "game", json_integer(s->game));
    json_object_set_new(o, "state", json_string(s->state));
    json_object_set_new(o, "seat", s->me >= 0 ? json_integer(s->me) : json_null());
    json_t *opts = json_object();
    json_object_set_new(opts, "players", json_integer(s->players));
    json_object_set_new(opts, "move_seconds", json_integer(s->move_seconds));
    json_object_set_new(opts, "open", json_boolean(s->open));
    json_object_set_new(opts, "fill", json_string(s->fill));
    json_object_set_new(opts, "hints", json_boolean(s->hints));
    json_object_set_new(opts, "listed", json_boolean(s->listed));
    json_object_set_new(opts, "rated", json_boolean(s->rated));
    json_object_set_new(o, "options", opts);
    json_object_set_new(o, "seats", fig_proto_seats_json(s->seats, s->players));
    if (s->view) {
        fig_proto_show_t show = { s->open, s->nr };
        json_object_set_new(o, "view", fig_proto_view_json(s->view, s->me, &show));
        /* Every action taken is public (R14); the deals are not in it. */
        const fig_game_t *g = s->game_rec;
        json_t *hist = json_array();
        for (int r = 0; r < g->dealt; r++) {
            json_t *round = json_array();
            for (int i = 0; i < g->nmoves[r]; i++) {
                json_t *m = json_object();
                json_object_set_new(m, "seat", json_integer(g->moves[r][i].seat));
                json_object_set_new(m, "action", fig_proto_action_json(g->moves[r][i].action));
                json_array_append_new(round, m);
            }
            json_array_append_new(hist, round);
        }
        json_object_set_new(o, "history", hist);
        if (s->tally)
            json_object_set_new(o, "rematch", fig_proto_tally_json(s->tally));
        if (s->record)
            json_object_set_new(o, "record", json_string(s->record));
    }
    fig_proto_set_clock(o, s->turn_ms_left);
    json_object_set_new(o, "log", s->log);
    return o;
}

json_t *fig_proto_hint(const char *table, long long n, const fig_hint_text_t *ht)
{
    json_t *o = fig_proto_table_msg("hint", table);
    json_object_set_new(o, "n", json_integer(n));
    json_object_set_new(o, "action", fig_proto_action_json(ht->action));
    json_t *say = json_array();
    json_array_append_new(say, json_string(ht->headline));
    if (ht->reason[0])
        json_array_append_new(say, json_string(ht->reason));
    json_object_set_new(o, "say", say);
    json_t *top = json_array();
    for (int i = 0; i < ht->n; i++) {
        const fig_hint_move_t *m = &ht->moves[i];
        json_t *x = json_object();
        json_object_set_new(x, "action", fig_proto_action_json(m->action));
        json_object_set_new(x, "share", json_real(m->share));
        json_object_set_new(x, "win", json_real(m->win));
        json_object_set_new(x, "place", json_real(m->place));
        json_object_set_new(x, "say", json_string(m->line));
        json_array_append_new(top, x);
    }
    json_object_set_new(o, "top", top);
    json_object_set_new(o, "iterations", json_integer(ht->iterations));
    return o;
}

static const char *const grade_codes[] = { "good", "inaccuracy", "mistake", "blunder" };

json_t *fig_proto_review(const char *table, int game, const fig_review_t *rv,
                         const fig_narrator_t *nr)
{
    json_t *o = fig_proto_table_msg("review", table);
    json_object_set_new(o, "game", json_integer(game));
    json_object_set_new(o, "seat", json_integer(rv->seat));
    json_object_set_new(o, "reviewed", json_integer(rv->n));
    json_t *counts = json_object();
    for (int g = FIG_REVIEW_INACCURACY; g <= FIG_REVIEW_BLUNDER; g++)
        json_object_set_new(counts, grade_codes[g], json_integer(rv->count[g]));
    json_object_set_new(o, "counts", counts);
    char text[1200];
    fig_review_summary(nr, rv, text, sizeof text);
    json_object_set_new(o, "summary", json_string(text));
    json_t *moves = json_array();
    for (int i = 0; i < rv->n; i++) {
        const fig_review_move_t *m = &rv->moves[i];
        if (m->grade == FIG_REVIEW_GOOD)
            continue;
        json_t *x = json_object();
        json_object_set_new(x, "round", json_integer(m->round));
        json_object_set_new(x, "index", json_integer(m->index));
        json_object_set_new(x, "number", json_integer(m->number));
        json_object_set_new(x, "played", fig_proto_action_json(m->played));
        json_object_set_new(x, "best", fig_proto_action_json(m->best));
        fig_narrate_move(nr, &m->view, m->played, text, sizeof text);
        json_object_set_new(x, "played_say", json_string(text));
        fig_narrate_move(nr, &m->view, m->best, text, sizeof text);
        json_object_set_new(x, "best_say", json_string(text));
        json_object_set_new(x, "played_win", json_real(m->played_win));
        json_object_set_new(x, "best_win", json_real(m->best_win));
        json_object_set_new(x, "played_place", json_real(m->played_place));
        json_object_set_new(x, "best_place", json_real(m->best_place));
        json_object_set_new(x, "grade", json_string(grade_codes[m->grade]));
        json_object_set_new(x, "grade_say", json_string(fig_review_grade_name(m->grade, nr->tr)));
        fig_review_describe(nr, rv, i, text, sizeof text);
        json_object_set_new(x, "say", json_string(text));
        json_array_append_new(moves, x);
    }
    json_object_set_new(o, "moves", moves);
    json_object_set_new(o, "iterations", json_integer(rv->iterations));
    return o;
}

/* ---- the lobby's frame */

static const char *kind_name(fig_lobby_kind_t k)
{
    switch (k) {
    case FIG_LOBBY_PERSON:
        return "person";
    case FIG_LOBBY_BOT:
        return "bot";
    case FIG_LOBBY_ENGINE:
        return "engine";
    case FIG_LOBBY_OPEN:
        break;
    }
    return "open";
}

static json_t *lobby_table_json(const fig_lobby_table_t *x)
{
    json_t *o = json_object(), *seats = json_array(), *opts = json_object();
    json_object_set_new(o, "table", json_string(x->code));
    json_object_set_new(o, "players", json_integer(x->players));
    json_object_set_new(o, "free", json_integer(x->free));
    for (int s = 0; s < x->players; s++) {
        const fig_lobby_seat_t *y = &x->seats[s];
        json_t *j = json_object();
        json_object_set_new(j, "kind", json_string(kind_name(y->kind)));
        if (y->kind == FIG_LOBBY_PERSON)
            json_object_set_new(j, "name", json_string(y->name));
        else if (y->kind == FIG_LOBBY_BOT)
            json_object_set_new(j, "level", json_string(y->level));
        else if (y->kind == FIG_LOBBY_ENGINE)
            json_object_set_new(j, "engine", json_string(y->name));
        json_array_append_new(seats, j);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(opts, "move_seconds", json_integer(x->move_seconds));
    json_object_set_new(opts, "open", json_boolean(x->open));
    json_object_set_new(opts, "hints", json_boolean(x->hints));
    json_object_set_new(opts, "fill", json_string(x->fill));
    json_object_set_new(opts, "rated", json_boolean(x->rated));
    json_object_set_new(o, "options", opts);
    return o;
}

char *fig_proto_lobby(const fig_lobby_table_t *const *tables, int n, size_t *len)
{
    json_t *o = json_object(), *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, lobby_table_json(tables[i]));
    json_object_set_new(o, "type", json_string("lobby"));
    json_object_set_new(o, "tables", a);
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    *len = text ? strlen(text) : 0;
    return text;
}

char *fig_proto_dump(const json_t *j, size_t *len)
{
    char *s = json_dumps(j, JSON_COMPACT);
    if (s && len)
        *len = strlen(s);
    return s;
}
