/* SPDX-License-Identifier: MIT */
/* table_tell.c - what each receiver of a table is told (table_internal.h):
 * the seats' names and the vote as frames say them, an event rendered for
 * one peer from that peer's view (R14: its own hand, never another's), the
 * numbered event log, the story a snapshot tells again, the snapshot itself
 * and the catch-up of a peer that comes back. The JSON is proto.c's. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/fep_host.h"
#include "host/narrate.h"
#include "host/session.h"
#include "host/util.h"
#include "net/table/rated.h"
#include "net/table/table.h"
#include "net/table/table_internal.h"
#include "net/base/token.h"

static const char *const news_names[] = { "taken", "away",  "bot",      "timeout",
                                           "back",  "left", "forgotten" };
static const char *const vote_names[] = { "bot", "waiting", "ready" };

/* The name of the bot that plays seat s, fixed when the table is made: the
 * bot and engine seats take the names of the Barber of Seville
 * (fig_session_bot_name) in seat order, then the seats made for people take
 * the names after those, for the fill bot that plays one nobody holds.
 * Only the seats' kinds as created count, so nobody joining, leaving or
 * naming themselves "Rosina" renames a bot (a person who takes a bot's
 * name gets a number: unique_name). */
const char *fig_tb_bot_name(const fig_table_t *t, int seat)
{
    fig_seats_t all;
    memset(&all, 0, sizeof all);
    all.players = t->row.players;
    for (int s = 0; s < t->row.players; s++)
        all.seat[s].bot = true;   /* nobody's name is taken: the k-th name is names[k] */
    int rank = 0;
    bool made_bot = t->row.seats[seat].kind == FIG_DB_SEAT_BOT ||
                    t->row.seats[seat].kind == FIG_DB_SEAT_ENGINE;
    for (int s = 0; s < t->row.players; s++) {
        bool b = t->row.seats[s].kind == FIG_DB_SEAT_BOT ||
                 t->row.seats[s].kind == FIG_DB_SEAT_ENGINE;
        if (made_bot ? b && s < seat : b || s < seat)
            rank++;
    }
    const char *n = fig_session_bot_name(&all, rank);
    return n ? n : "Bot";
}

/* The players' names: people's own, bots' (bot_name), "Seat3" for an open
 * seat nobody took before the first game. */
void fig_tb_seat_names(const fig_table_t *t, name_t names[])
{
    for (int s = 0; s < t->row.players; s++) {
        const fig_db_seat_t *x = &t->row.seats[s];
        if (x->kind == FIG_DB_SEAT_PERSON && x->name[0])
            snprintf(names[s], sizeof names[s], "%s", x->name);
        else if (x->kind == FIG_DB_SEAT_OPEN && !running(t) && t->game == 0)
            snprintf(names[s], sizeof names[s], "Seat%d", s + 1);
        else
            snprintf(names[s], sizeof names[s], "%s", fig_tb_bot_name(t, s));
    }
}

/* The players' names as an FGN record holds them (fig_name_record). */
void fig_tb_record_names(const fig_table_t *t, char out[][FIG_NAME_MAX + 1])
{
    name_t names[FIG_MAX_PLAYERS];
    fig_tb_seat_names(t, names);
    for (int s = 0; s < t->row.players; s++)
        fig_name_record(names[s], out[s]);
}

/* A narrator speaking the seats' names as people see them. */
void fig_tb_narrator_init(const fig_table_t *t, fig_narrator_t *nr, int me, const fig_tr_t *tr,
                          fig_narrate_card_fn *card, fig_narrate_say_fn *say, void *ctx)
{
    static const char none[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    name_t names[FIG_MAX_PLAYERS];
    fig_tb_seat_names(t, names);
    fig_narrate_init(nr, t->row.players, me, none, tr, card, say, ctx);
    for (int s = 0; s < t->row.players; s++)
        fig_narrate_set_name(nr, s, names[s]);
}

void fig_tb_send_json(fig_table_t *t, const peer_t *p, json_t *j)
{
    size_t len;
    char *text = fig_proto_dump(j, &len);
    json_decref(j);
    if (!text)
        return;
    t->env->send(t->env->svc, p->p, text, len);
    t->env->stats->frames++;
    free(text);
}

static void record_url(const fig_table_t *t, int game, char *buf, size_t cap)
{
    snprintf(buf, cap, "/tables/%s/games/%d.fgn", t->row.code, game);
}

/* The move clock as the frames tell it (docs/protocol.md, "The move clock"):
 * the ms left to the person to move, -1 when no clock runs. Read from the
 * seats, not from the match, whose bots are rebuilt only after a seat's news
 * is told: a `back` tells the clock the seat has from then on. A turn whose
 * deadline is not set yet is the one the frame being told gives (the table
 * sets it once the frame is out: fig_tb_set_turn_deadline), so it has the
 * whole time. In a catch-up every frame tells the clock as it is now. */
static long long turn_ms_left(const fig_table_t *t)
{
    if (!running(t))
        return -1;
    const fig_state_t *st = &fig_match_game(t->match)->state;
    if (st->phase != FIG_PHASE_PLAY || !clock_for(t, st->turn))
        return -1;
    if (t->turn_deadline >= 0 && t->turn_for == t->game_n) {
        long long left = t->turn_deadline - now(t);
        return left > 0 ? left : 0;
    }
    return t->row.move_seconds * 1000LL;
}

/* ---- the vote for the next game */

static vote_t vote_of(const fig_table_t *t, int s)
{
    const fig_db_seat_t *x = &t->row.seats[s];
    if (x->kind != FIG_DB_SEAT_PERSON || t->seat[s].bot_plays)
        return VOTE_BOT;
    return x->rematch == t->game ? VOTE_READY : VOTE_WAITING;
}

/* The vote now; `has` only once the current game is over. */
tally_t fig_tb_tally_now(const fig_table_t *t)
{
    tally_t y;
    memset(&y, 0, sizeof y);
    y.has = t->match && !running(t);
    for (int s = 0; s < t->row.players && y.has; s++) {
        vote_t v = vote_of(t, s);
        y.votes[s] = (uint8_t)v;
        y.ready += v == VOTE_READY;
        y.of += v != VOTE_BOT;
    }
    return y;
}

/* The vote as the frames say it; game is the game that ended. */
static fig_proto_tally_t tally_say(const fig_table_t *t, const tally_t *y, int game)
{
    fig_proto_tally_t out = { .game = game, .n = t->row.players, .ready = y->ready, .of = y->of };
    for (int s = 0; s < t->row.players; s++)
        out.votes[s] = vote_names[y->votes[s]];
    return out;
}

/* ---- rendering an event for one peer */

static void say_cb(void *ctx, int about, const char *sentence)
{
    (void)about;
    json_array_append_new(((say_ctx_t *)ctx)->say, json_string(sentence));
}

const char *fig_tb_card_cb(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    snprintf(buf, cap, "%s", fig_kind_code(kind));
    return buf;
}

/* A deal or an action, as `me` (a seat, -1 for a spectator) sees it, from
 * the views of seat `me` (seat 0's for a spectator) before and after. */
json_t *fig_tb_render_game(const fig_table_t *t, const logent_t *e, const fig_match_step_t *step,
                           const fig_view_t *before, const fig_view_t *after, int me,
                           const fig_tr_t *tr)
{
    say_ctx_t sc = { json_array() };
    fig_narrator_t nr;
    fig_tb_narrator_init(t, &nr, me, tr, fig_tb_card_cb, say_cb, &sc);
    fig_narrate_step(&nr, step, before, after);
    char url[64] = "";
    for (int i = 0; i < step->events.n; i++)
        if (step->events.ev[i].type == FIG_EV_GAME_OVER)
            record_url(t, e->game, url, sizeof url);
    fig_proto_show_t show = { t->row.open, &nr };
    json_t *o = fig_proto_game_event(t->row.code, e->n, e->game, step, t->row.players, after, me,
                                     &show, sc.say, url[0] ? url : NULL);
    fig_proto_set_clock(o, turn_ms_left(t));
    return o;
}

/* The seats as the frames show them, into out (names: their storage). */
static int seats_say(const fig_table_t *t, fig_proto_seat_info_t out[], name_t names[]);

/* The sentence of a game's start, a seat's news or a rematch vote, in tr's
 * language, into line ("" for a chat line: it has no narration). */
static void other_line(const logent_t *e, const fig_tr_t *tr, char *line, size_t cap)
{
    line[0] = '\0';
    switch (e->kind) {
    case EV_START:
        snprintf(line, cap, fig_tr_text(tr, "Game %d begins."), e->game);
        break;
    case EV_REMATCH:
        if (e->ready)
            snprintf(line, cap, fig_tr_text(tr, "%s wants a rematch: %d of %d ready."),
                     e->name, e->tally.ready, e->tally.of);
        else
            snprintf(line, cap,
                     fig_tr_text(tr, "%s no longer wants a rematch: %d of %d ready."),
                     e->name, e->tally.ready, e->tally.of);
        break;
    case EV_SEAT:
        switch (e->news) {
        case NEWS_TAKEN:
            snprintf(line, cap, fig_tr_text(tr, "%s takes seat %d."), e->name, e->seat + 1);
            break;
        case NEWS_AWAY:
            snprintf(line, cap, fig_tr_text(tr, "%s is away."), e->name);
            break;
        case NEWS_BOT:
            snprintf(line, cap, fig_tr_text(tr, "%s has not come back: a bot plays for them."),
                     e->name);
            break;
        case NEWS_TIMEOUT:
            snprintf(line, cap, fig_tr_text(tr, "%s ran out of time: a bot plays for them."),
                     e->name);
            break;
        case NEWS_BACK:
            snprintf(line, cap, fig_tr_text(tr, "%s is back."), e->name);
            break;
        case NEWS_LEFT:
            snprintf(line, cap,
                     fig_tr_text(tr, "%s has left: a bot plays the seat until someone takes it."),
                     e->name);
            break;
        case NEWS_FORGOTTEN:
            snprintf(line, cap, fig_tr_text(tr, "The player of seat %d is called %s now."),
                     e->seat + 1, e->name);
            break;
        }
        break;
    default:
        break;
    }
}

/* A seat's news, a chat line, a rematch vote or a game's start, the same for
 * everyone but for the language. A start and a seat's news carry the seats
 * as they are now (who sits where, each one's status; a bot's name never
 * changes: bot_name) and the move clock (turn_ms_left). A
 * vote, and a seat's news once the game is over, carry the vote as it stood
 * then (`rematch`). */
static json_t *render_other(const fig_table_t *t, const logent_t *e, const fig_tr_t *tr)
{
    static const char *const kinds[] = { [EV_START] = "start", [EV_CHAT] = "chat",
                                         [EV_REMATCH] = "rematch", [EV_SEAT] = "seat" };
    fig_proto_seat_info_t seats[FIG_MAX_PLAYERS];
    name_t names[FIG_MAX_PLAYERS];
    fig_proto_tally_t tally = tally_say(t, &e->tally, e->game);
    char line[300];
    other_line(e, tr, line, sizeof line);
    fig_proto_other_t o = {
        .table = t->row.code, .n = e->n, .game = e->game,
        .kind = e->kind == EV_START || e->kind == EV_CHAT || e->kind == EV_REMATCH
                    ? kinds[e->kind] : kinds[EV_SEAT],
        .seat = e->seat, .name = e->name, .text = e->text, .ready = e->ready,
        .news = news_names[e->news], .seats = seats,
        .tally = e->tally.has ? &tally : NULL, .say = line,
    };
    if (e->kind == EV_START || (e->kind != EV_CHAT && e->kind != EV_REMATCH))
        o.nseats = seats_say(t, seats, names);
    json_t *j = fig_proto_other_event(&o);
    if (o.nseats)   /* a start and a seat's news may start or stop the clock */
        fig_proto_set_clock(j, turn_ms_left(t));
    return j;
}

logent_t *fig_tb_log_put(fig_table_t *t, ev_kind_t kind)
{
    logent_t *e = &t->log[t->next_n % FIG_TABLE_LOG];
    memset(e, 0, sizeof *e);
    e->n = t->next_n++;
    e->kind = kind;
    e->game = t->game;
    e->seat = -1;
    t->env->stats->events++;
    return e;
}

static const logent_t *log_get(const fig_table_t *t, long long n)
{
    if (n < t->log_lo || n >= t->next_n || n < t->next_n - FIG_TABLE_LOG)
        return NULL;
    return &t->log[n % FIG_TABLE_LOG];
}

void fig_tb_broadcast_other(fig_table_t *t, const logent_t *e)
{
    for (int i = 0; i < t->npeers; i++)
        fig_tb_send_json(t, &t->peers[i], render_other(t, e, t->peers[i].tr));
}

/* Seat s's news, told with `name` (NULL: its name now). */
void fig_tb_seat_news_as(fig_table_t *t, int s, news_t news, const char *name)
{
    name_t names[FIG_MAX_PLAYERS];
    fig_tb_seat_names(t, names);
    logent_t *e = fig_tb_log_put(t, EV_SEAT);
    e->seat = s;
    e->news = news;
    e->tally = fig_tb_tally_now(t);
    snprintf(e->name, sizeof e->name, "%s", name ? name : names[s]);
    fig_logf(t->env->log, t->env->svc, t->logp, "seat %d (%s): %s", s, e->name, news_names[news]);
    fig_tb_broadcast_other(t, e);
}

static const char *seat_kind_name(fig_db_seat_kind_t k)
{
    static const char *const names[] = { "open", "person", "bot", "engine" };
    return names[k];
}

static int seats_say(const fig_table_t *t, fig_proto_seat_info_t out[], name_t names[])
{
    fig_tb_seat_names(t, names);
    for (int s = 0; s < t->row.players; s++) {
        const fig_db_seat_t *x = &t->row.seats[s];
        const char *status = "bot";
        if (x->kind == FIG_DB_SEAT_OPEN)
            status = "open";
        else if (x->kind == FIG_DB_SEAT_PERSON)
            status = t->seat[s].bot_plays ? "bot" : t->seat[s].away ? "away" : "present";
        out[s] = (fig_proto_seat_info_t){
            .kind = seat_kind_name(x->kind),
            .name = x->kind == FIG_DB_SEAT_OPEN && t->game == 0 ? NULL : names[s],
            .level = x->kind == FIG_DB_SEAT_BOT ? x->what : NULL,
            .engine = x->kind == FIG_DB_SEAT_ENGINE ? x->what : NULL,
            .status = status,
        };
    }
    return t->row.players;
}

/* ---- the story so far: what a receiver would have read, had it been there
 *
 * The current game's sentences for seat `me` (-1: a spectator) in tr's
 * language: its start, then every deal and action told again from the
 * record through that seat's views, exactly as emit_game told them live
 * (fig_session_replay hands over the same views; seat 0's, with nobody's
 * hand narrated, for a spectator), with the seats' news, votes and chat lines
 * the event log still holds in between (the last FIG_TABLE_LOG events of
 * this life of the server). A step the log holds is placed by its number;
 * the steps it no longer holds are older than everything it holds. */

typedef struct {
    fig_narrator_t nr;
    say_ctx_t sc;
    json_t **says;            /* per step of the game: its sentences */
    bool *deal;               /* per step: a deal (else an action) */
    int nsteps, pos;
} story_t;

static void story_step(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                       const fig_view_t *after)
{
    story_t *c = ctx;
    int pos = c->pos++;
    if (pos >= c->nsteps)
        return;   /* not told yet */
    c->sc.say = json_array();
    fig_narrate_step(&c->nr, step, before, after);
    c->says[pos] = c->sc.say;
    c->deal[pos] = step->deal;
}

/* Step `pos` of the story as an entry (its sentences move into it). */
static json_t *story_told(story_t *c, int pos)
{
    json_t *o = fig_proto_story_entry(c->deal[pos] ? "deal" : "action", c->says[pos]);
    c->says[pos] = NULL;
    return o;
}

static json_t *story_json(const fig_table_t *t, int me, const fig_tr_t *tr)
{
    json_t *out = json_array();
    story_t c;
    memset(&c, 0, sizeof c);
    c.nsteps = t->match ? t->steps : 0;
    if (c.nsteps > 0) {
        c.says = calloc((size_t)c.nsteps, sizeof *c.says);
        c.deal = calloc((size_t)c.nsteps, sizeof *c.deal);
        if (!c.says || !c.deal) {
            free(c.says);
            free(c.deal);
            return out;
        }
        fig_tb_narrator_init(t, &c.nr, me, tr, fig_tb_card_cb, say_cb, &c.sc);
        fig_session_replay(fig_match_game(t->match), me >= 0 ? me : 0, story_step, &c, NULL);
    }
    if (t->game > 0) {
        char line[100];
        snprintf(line, sizeof line, fig_tr_text(tr, "Game %d begins."), t->game);
        json_t *say = json_array();
        json_array_append_new(say, json_string(line));
        json_array_append_new(out, fig_proto_story_entry("start", say));
    }
    long long lo = t->next_n - FIG_TABLE_LOG > t->log_lo ? t->next_n - FIG_TABLE_LOG : t->log_lo;
    int first = c.nsteps;   /* the first step the log holds */
    for (long long n = lo; n < t->next_n; n++) {
        const logent_t *e = log_get(t, n);
        if (e && e->game == t->game && (e->kind == EV_DEAL || e->kind == EV_ACTION) &&
            e->pos < first)
            first = e->pos;
    }
    int next = 0;   /* the next step to tell */
    for (; next < first; next++)
        json_array_append_new(out, story_told(&c, next));
    for (long long n = lo; n < t->next_n; n++) {
        const logent_t *e = log_get(t, n);
        if (!e || e->game != t->game || e->kind == EV_START)
            continue;
        if (e->kind == EV_DEAL || e->kind == EV_ACTION) {
            for (; next <= e->pos && next < c.nsteps; next++)
                json_array_append_new(out, story_told(&c, next));
            continue;
        }
        if (e->kind == EV_CHAT) {
            json_array_append_new(out, fig_proto_story_chat(e->seat, e->name, e->text));
            continue;
        }
        char line[300];
        other_line(e, tr, line, sizeof line);
        json_t *say = json_array();
        if (line[0])
            json_array_append_new(say, json_string(line));
        json_array_append_new(out, fig_proto_story_entry(e->kind == EV_REMATCH ? "rematch" : "seat",
                                                         say));
    }
    for (; next < c.nsteps; next++)
        json_array_append_new(out, story_told(&c, next));
    free(c.says);
    free(c.deal);
    return out;
}

json_t *fig_tb_snapshot(const fig_table_t *t, int me, const fig_tr_t *tr)
{
    fig_proto_seat_info_t seats[FIG_MAX_PLAYERS];
    name_t names[FIG_MAX_PLAYERS];
    seats_say(t, seats, names);
    fig_proto_snapshot_t snap = {
        .table = t->row.code, .epoch = t->env->epoch, .n = t->next_n - 1, .game_n = t->game_n,
        .game = t->game, .state = !t->match ? "waiting" : running(t) ? "playing" : "over",
        .me = me, .players = t->row.players, .move_seconds = t->row.move_seconds,
        .open = t->row.open, .hints = t->row.hints, .fill = t->row.fill, .seats = seats,
        .listed = t->row.listed,
        .turn_ms_left = turn_ms_left(t), .rated = fig_rated_table(&t->row),
    };
    fig_view_t v;
    fig_proto_tally_t ty;
    char url[64];
    fig_narrator_t nr;   /* the view's reasons, in the receiver's words */
    fig_tb_narrator_init(t, &nr, me, tr, fig_tb_card_cb, NULL, NULL);
    snap.nr = &nr;
    if (t->match) {
        fig_match_view(t->match, me >= 0 ? me : 0, &v);
        snap.view = &v;
        snap.game_rec = fig_match_game(t->match);
        if (!running(t)) {
            tally_t y = fig_tb_tally_now(t);
            ty = tally_say(t, &y, t->game);
            snap.tally = &ty;
            record_url(t, t->game, url, sizeof url);
            snap.record = url;
        }
    }
    snap.log = story_json(t, me, tr);
    return fig_proto_snapshot(&snap);
}

typedef struct {
    fig_table_t *t;
    long long from, to;        /* events (from, to] */
    char **frames;
    int me;
    const fig_tr_t *tr;
    int pos;
} catchup_t;

static void catchup_step(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                         const fig_view_t *after)
{
    catchup_t *c = ctx;
    int pos = c->pos++;
    for (long long n = c->from + 1; n <= c->to; n++) {
        const logent_t *e = log_get(c->t, n);
        if (e && (e->kind == EV_DEAL || e->kind == EV_ACTION) && e->pos == pos) {
            json_t *j = fig_tb_render_game(c->t, e, step, before, after, c->me, c->tr);
            c->frames[n - c->from - 1] = fig_proto_dump(j, NULL);
            json_decref(j);
        }
    }
}

/* The end of a catch-up: the peer has every event up to n. */
static void caught_up(fig_table_t *t, const peer_t *p)
{
    fig_tb_send_json(t, p, fig_proto_caught_up(t->row.code, t->next_n - 1));
}

/* Sends the events after `since` when they are all still here, from this
 * life of the server and this game, then `caught_up`; else a snapshot. */
void fig_tb_welcome(fig_table_t *t, const peer_t *p, const fig_table_since_t *since)
{
    long long last = t->next_n - 1;
    bool ok = since && since->has && strcmp(since->epoch, t->env->epoch) == 0 &&
              since->n <= last && since->n + 1 >= t->log_lo && since->n + 1 >= t->next_n -
              FIG_TABLE_LOG;
    bool games = false;
    for (long long n = since && ok ? since->n + 1 : last + 1; n <= last && ok; n++) {
        const logent_t *e = log_get(t, n);
        if (!e || e->game != t->game)
            ok = false;
        else if (e->kind == EV_DEAL || e->kind == EV_ACTION)
            games = true;
    }
    if (!ok) {
        fig_tb_send_json(t, p, fig_tb_snapshot(t, p->seat, p->tr));
        return;
    }
    int count = (int)(last - since->n);
    if (count == 0) {   /* nothing missed: said, so the client knows it is current */
        caught_up(t, p);
        return;
    }
    catchup_t c = { t, since->n, last, calloc((size_t)count, sizeof(char *)), p->seat, p->tr, 0 };
    if (!c.frames) {
        fig_tb_send_json(t, p, fig_tb_snapshot(t, p->seat, p->tr));
        return;
    }
    if (games && t->match)
        fig_session_replay(fig_match_game(t->match), p->seat >= 0 ? p->seat : 0, catchup_step, &c,
                           NULL);
    bool whole = true;
    for (long long n = since->n + 1; n <= last; n++) {
        const logent_t *e = log_get(t, n);
        char **f = &c.frames[n - since->n - 1];
        if (e->kind != EV_DEAL && e->kind != EV_ACTION) {
            json_t *j = render_other(t, e, p->tr);
            *f = fig_proto_dump(j, NULL);
            json_decref(j);
        }
        whole &= *f != NULL;
    }
    if (whole) {
        for (int i = 0; i < count; i++) {
            t->env->send(t->env->svc, p->p, c.frames[i], strlen(c.frames[i]));
            t->env->stats->frames++;
        }
        caught_up(t, p);
    } else
        fig_tb_send_json(t, p, fig_tb_snapshot(t, p->seat, p->tr));
    for (int i = 0; i < count; i++)
        free(c.frames[i]);
    free(c.frames);
}

fig_proto_code_t fig_tb_not_seated(const fig_table_t *t, const fig_tr_t *tr, fig_msg_t *msg)
{
    fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("you hold no seat at table %s"), t->row.code);
    return FIG_PC_NOT_SEATED;
}
