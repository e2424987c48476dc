/* SPDX-License-Identifier: MIT */
/* table_requests.c - a peer's requests to a table (table.h: join, resume,
 * spectate, act, leave, back, rematch, chat), each beside the step it takes
 * once its write is back from the disk (fig_table_written): store first,
 * then acknowledge and tell. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/fep_host.h"
#include "host/narrate.h"
#include "host/session.h"
#include "host/util.h"
#include "net/table/table.h"
#include "net/table/table_internal.h"
#include "net/base/token.h"

static fig_proto_code_t storage_error(fig_table_t *t, const fig_tr_t *tr, const fig_msg_t *why,
                                      fig_msg_t *msg)
{
    t->env->stats->storage_errors++;
    fig_logf(t->env->log, t->env->svc, t->logp, "storage: %s", why->text);
    fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("the server could not store that; nothing was done"));
    return FIG_PC_STORAGE;
}

/* A name not used by another seat (ignoring case), a bot's included: the
 * name, else name2, name3, ... (cut to stay within FIG_PERSON_NAME_CHARS). */
static void unique_name(const fig_table_t *t, int seat, const char *want, char out[])
{
    name_t names[FIG_MAX_PLAYERS];
    fig_tb_seat_names(t, names);
    snprintf(out, FIG_PERSON_NAME_BYTES + 1, "%s", want);
    for (int k = 2; k < 100; k++) {
        bool clash = false;
        for (int s = 0; s < t->row.players; s++)
            if (s != seat && (strcasecmp(names[s], out) == 0 ||
                              strcasecmp(fig_tb_bot_name(t, s), out) == 0))
                clash = true;
        if (!clash)
            return;
        char cut[FIG_PERSON_NAME_BYTES - 1], both[FIG_PERSON_NAME_BYTES + 16];
        fig_name_cut(want, FIG_PERSON_NAME_CHARS - (k < 10 ? 1 : 2), cut, sizeof cut);
        snprintf(both, sizeof both, "%s%d", cut, k);   /* at most 126 bytes and 2 digits */
        memcpy(out, both, FIG_PERSON_NAME_BYTES + 1);
    }
}

fig_proto_code_t fig_table_join(fig_table_t *t, void *p, const fig_tr_t *tr, const char *name,
                                int seat, const fig_table_since_t *since, fig_msg_t *msg)
{
    int i = peer_index(t, p);
    if (i >= 0 && t->peers[i].seat >= 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("you already sit at this table (seat %d)"),
                    t->peers[i].seat + 1);
        return FIG_PC_NO_SEAT;
    }
    if (seat >= t->row.players || (seat >= 0 && t->row.seats[seat].kind != FIG_DB_SEAT_OPEN)) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("seat %d is not open"), seat + 1);
        return FIG_PC_NO_SEAT;
    }
    for (int s = 0; s < t->row.players && seat < 0; s++)
        if (t->row.seats[s].kind == FIG_DB_SEAT_OPEN)
            seat = s;
    if (seat < 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("this table has no open seat"));
        return FIG_PC_NO_SEAT;
    }
    char token[FIG_TOKEN_HEX + 1];
    name_t want;
    fig_db_seat_t x;
    memset(&x, 0, sizeof x);
    x.kind = FIG_DB_SEAT_PERSON;
    if (t->env->person_of)   /* a signed-in person's seat is theirs, from any table */
        snprintf(x.person, sizeof x.person, "%s", t->env->person_of(t->env->svc, p));
    snprintf(want, sizeof want, "%s", name && name[0] ? name : "Player");
    unique_name(t, seat, want, x.name);
    fig_msg_t why;
    if (fig_token_new(token, &why) || fig_sha256_hex(token, strlen(token), x.token_hash, &why))
        return storage_error(t, tr, &why, msg);
    op_t *op = fig_tb_op_new(t, OP_JOIN, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_db_write_t *w = fig_tb_op_write(t, op, FIG_DBW_SEAT);
    w->seat = seat;
    w->seat_row = x;
    op->seat = seat;
    memcpy(op->token, token, sizeof op->token);
    if (since && since->has) {
        op->has_since = true;
        snprintf(op->epoch, sizeof op->epoch, "%s", since->epoch);
        op->since = since->n;
    }
    bool open = false;
    for (int s = 0; s < t->row.players; s++)
        open |= s != seat && t->row.seats[s].kind == FIG_DB_SEAT_OPEN;
    if (!t->match && !open) {   /* the last open seat: the game starts, after the news */
        op->start = true;
        if (fig_tb_write_game(t, op, t->next_n + 1, &why)) {
            free(op);
            return storage_error(t, tr, &why, msg);
        }
    }
    fig_tb_submit(t, op);
    return FIG_PC_NONE;
}

/* The seat of a join is stored: the news, the game's start, the token. */
static void join_stored(fig_table_t *t, op_t *op)
{
    const fig_db_seat_t *x = &op->b.w[0].seat_row;
    int seat = op->seat;
    void *p = op->peer;
    bool was_bot = running(t);   /* an open seat in play: its bot stops now */
    if (p && peer_index(t, p) >= 0)
        fig_tb_unlink_peer(t, p);   /* it watched: it is told again below */
    fig_tb_seat_set(t, seat, x);
    memset(&t->seat[seat], 0, sizeof t->seat[seat]);
    fig_tb_seat_news(t, seat, NEWS_TAKEN);
    fig_msg_t msg;
    if (op->start)
        fig_tb_start_stored(t, op->b.w[1].game, &op->b.w[1].setup, op->tr, &msg);   /* logged */
    else if (was_bot)
        fig_tb_rebuild(t);
    /* A connection that closed meanwhile never gets the token: its seat is
     * away from now on (settle_presence), and a bot plays it after the grace. */
    if (!p)
        return;
    if (!fig_tb_attach(t, p, op->tr, seat)) {
        t->env->fail(t->env->svc, p, FIG_PC_STORAGE, fig_tr_text(op->tr, "out of memory"),
                     "join", t->row.code);
        return;
    }
    peer_t *me = &t->peers[peer_index(t, p)];
    fig_tb_send_json(t, me, fig_proto_seated(t->row.code, seat, x->name, op->token));
    fig_table_since_t since = { op->has_since, op->epoch, op->since };
    fig_tb_welcome(t, me, &since);
}

fig_proto_code_t fig_table_resume(fig_table_t *t, void *p, const fig_tr_t *tr, const char *token,
                                  const fig_table_since_t *since, fig_msg_t *msg)
{
    char hash[FIG_HASH_HEX + 1];
    fig_msg_t why;
    if (fig_sha256_hex(token, strlen(token), hash, &why))
        return storage_error(t, tr, &why, msg);
    int seat = -1;
    for (int s = 0; s < t->row.players; s++)
        if (t->row.seats[s].kind == FIG_DB_SEAT_PERSON &&
            fig_hash_equal(t->row.seats[s].token_hash, hash))
            seat = s;
    if (seat < 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("this token holds no seat at table %s"),
                    t->row.code);
        return FIG_PC_BAD_TOKEN;
    }
    return fig_tb_resume_seat(t, p, tr, seat, since, msg);
}

/* Seat `seat` is taken back by peer p (its token or its person said so). */
fig_proto_code_t fig_tb_resume_seat(fig_table_t *t, void *p, const fig_tr_t *tr, int seat,
                                    const fig_table_since_t *since, fig_msg_t *msg)
{
    fig_tb_unlink_peer(t, p);
    /* Whoever held the seat until now watches from here on. */
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].seat == seat) {
            t->peers[i].seat = -1;
            fig_tb_send_json(t, &t->peers[i], fig_proto_seat_msg("unseated", t->row.code, seat));
        }
    seat_t *st = &t->seat[seat];
    bool bot = st->bot_plays, away = st->away;
    st->away = false;
    st->bot_plays = false;
    if (bot || away)
        /* the peer is attached after: its snapshot follows */
        fig_tb_seat_news(t, seat, NEWS_BACK);
    if (bot)
        fig_tb_rebuild(t);
    if (!fig_tb_attach(t, p, tr, seat)) {
        fig_tb_settle_presence(t);
        fig_tb_pump(t);
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    peer_t *me = &t->peers[peer_index(t, p)];
    fig_tb_send_json(t, me, fig_proto_seated(t->row.code, seat, t->row.seats[seat].name, NULL));
    fig_tb_welcome(t, me, since);
    fig_tb_set_turn_deadline(t);
    fig_tb_pump(t);
    return FIG_PC_NONE;
}

fig_proto_code_t fig_table_spectate(fig_table_t *t, void *p, const fig_tr_t *tr,
                                    const fig_table_since_t *since, fig_msg_t *msg)
{
    int i = peer_index(t, p);
    if (i >= 0 && t->peers[i].seat >= 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("you already sit at this table (seat %d)"),
                    t->peers[i].seat + 1);
        return FIG_PC_NO_SEAT;
    }
    if (!fig_tb_attach(t, p, tr, -1)) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_tb_welcome(t, &t->peers[peer_index(t, p)], since);
    return FIG_PC_NONE;
}

fig_proto_code_t fig_table_act(fig_table_t *t, void *p, const fig_tr_t *tr, long long n,
                               const char *action, long long latency_from, fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return fig_tb_not_seated(t, tr, msg);
    if (!t->match) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("the game has not started: seats are still "
                                               "open"));
        return FIG_PC_NOT_STARTED;
    }
    if (t->rebuilding)
        return fig_table_refuse_rebuilding(t, tr, msg);
    if (n != t->game_n) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("that action answers event %lld, but the game "
                                               "is at event %lld: nothing was done"),
                    n, t->game_n);
        return FIG_PC_STALE;
    }
    const fig_game_t *g = fig_match_game(t->match);
    if (fig_game_over(g)) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("the game is over"));
        return FIG_PC_NOT_YOUR_TURN;
    }
    if (fig_match_status(t->match) != FIG_MATCH_WAIT_HUMAN || fig_match_turn(t->match) != s) {
        if (t->seat[s].bot_plays)
            fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a bot plays your seat now: send \"back\" "
                                                   "to take it again"));
        else
            fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("it is not your turn"));
        return FIG_PC_NOT_YOUR_TURN;
    }
    fig_action_t a = fig_act_parse(action, strlen(action), s);
    if (a == FIG_ACT_NONE) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("'%s' is not an action (e.g. R2>1, RING, take)"),
                    action);
        return FIG_PC_ILLEGAL;
    }
    /* The verdict depends only on what the mover knows (state.h); it is told
     * in narrate.h's words, with the seats' names, as the terminal tells it. */
    if (fig_state_check_tr(&g->state, a, tr, msg) != FIG_OK) {
        fig_view_t v;
        fig_narrator_t nr;
        char why[sizeof msg->text];
        if (fig_view_of(&g->state, s, &v) == FIG_OK) {
            fig_tb_narrator_init(t, &nr, s, tr, fig_tb_card_cb, NULL, NULL);
            fig_narrate_refusal(&nr, &v, a, why, sizeof why);
            if (why[0])
                memcpy(msg->text, why, sizeof why);
        }
        return FIG_PC_ILLEGAL;
    }
    op_t *op = fig_tb_op_new(t, OP_ACTION, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_tb_write_action(t, op, moves_of(g), s, a);
    op->prev = g->state;
    op->person = true;
    op->latency_from = latency_from;
    fig_msg_t why;
    if (fig_match_play(t->match, a, &op->step, &why)) {   /* checked above: cannot happen */
        fig_logf(t->env->log, t->env->svc, t->logp, "a checked action was refused: %s", why.text);
        free(op);
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("'%s' is not an action (e.g. R2>1, RING, take)"),
                    action);
        return FIG_PC_ILLEGAL;
    }
    /* Applied in the match, told once stored (action_stored). */
    fig_tb_submit(t, op);
    fig_tb_hint_cancel(t);   /* the seat has moved */
    return FIG_PC_NONE;
}

/* An action's write came back: told (a person's is acknowledged so), or
 * undone. */
static void action_stored(fig_table_t *t, op_t *op)
{
    if (op->b.rc) {
        t->env->stats->storage_errors++;
        fig_logf(t->env->log, t->env->svc, t->logp,
                 "%s action was not stored: %s", op->person ? "a person's" : "a bot's",
                 op->b.msg.text);
        fig_tb_back_to_storage(t);   /* the match forgets it; a bot thinks again */
        if (op->peer)
            t->env->fail(t->env->svc, op->peer, FIG_PC_STORAGE,
                         fig_tr_text(op->tr, "the server could not store that; nothing was "
                                             "done"), "act", t->row.code);
        return;
    }
    t->env->stats->actions++;
    fig_tb_emit_game(t, &op->step, &op->prev);
    if (op->result)
        fig_tb_result_stored(t, op);
    if (!op->person)
        return;   /* a bot's */
    double ms = (double)(fig_clock_us() - op->latency_from) / 1000.0;
    if (ms < 0)
        ms = 0;
    fig_table_stats_t *st = t->env->stats;
    int b = 0;
    while (b < FIG_TABLE_LATENCY_BUCKETS - 1 && ms > fig_table_latency_le[b])
        b++;
    st->latency[b]++;
    st->latency_count++;
    st->latency_sum_ms += ms;
}

fig_proto_code_t fig_table_leave(fig_table_t *t, void *p, const fig_tr_t *tr, fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return fig_tb_not_seated(t, tr, msg);
    op_t *op = fig_tb_op_new(t, OP_LEAVE, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_db_write_t *w = fig_tb_op_write(t, op, FIG_DBW_SEAT);
    w->seat = s;
    w->seat_row.kind = FIG_DB_SEAT_OPEN;
    /* A signed-in person who leaves a running game stays its leaver, stored
     * with the open seat (a restart keeps them): at its end they rank last
     * (table_result.c), unless someone takes the seat first. */
    if (running(t))
        memcpy(w->seat_row.person, t->row.seats[s].person, sizeof w->seat_row.person);
    op->seat = s;
    fig_tb_submit(t, op);
    return FIG_PC_NONE;
}

static void leave_stored(fig_table_t *t, op_t *op)
{
    int s = op->seat;
    name_t names[FIG_MAX_PLAYERS];
    fig_tb_seat_names(t, names);
    fig_tb_seat_set(t, s, &op->b.w[0].seat_row);
    memset(&t->seat[s], 0, sizeof t->seat[s]);
    /* with the name it had; the vote without it */
    fig_tb_seat_news_as(t, s, NEWS_LEFT, names[s]);
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].seat == s)
            t->peers[i].seat = -1;   /* every connection of that seat watches now */
    int i = op->peer ? peer_index(t, op->peer) : -1;
    if (i >= 0) {
        fig_tb_send_json(t, &t->peers[i], fig_proto_seat_msg("left", t->row.code, s));
    }
    fig_tb_rebuild(t);
}

fig_proto_code_t fig_table_back(fig_table_t *t, void *p, const fig_tr_t *tr, fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return fig_tb_not_seated(t, tr, msg);
    if (!t->seat[s].bot_plays)
        return FIG_PC_NONE;
    t->seat[s].bot_plays = false;
    t->seat[s].away = false;
    fig_tb_seat_news(t, s, NEWS_BACK);
    fig_tb_rebuild(t);
    fig_tb_pump(t);
    return FIG_PC_NONE;
}

fig_proto_code_t fig_table_rematch(fig_table_t *t, void *p, const fig_tr_t *tr, int game,
                                   bool ready, fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return fig_tb_not_seated(t, tr, msg);
    if (game < t->game)
        return FIG_PC_NONE;   /* that rematch is this game: late clicks do nothing */
    if (game > t->game || running(t) || !t->match) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("game %d is not over"), game);
        return FIG_PC_NOT_OVER;
    }
    if (t->seat[s].bot_plays) {
        /* Their time ran out during the game: whoever votes is here again. */
        t->seat[s].bot_plays = false;
        t->seat[s].away = false;
        fig_tb_seat_news(t, s, NEWS_BACK);
    }
    if ((t->row.seats[s].rematch == t->game) == ready) {
        fig_tb_maybe_rematch(t);   /* nothing to store; coming back may have changed the count */
        return FIG_PC_NONE;
    }
    op_t *op = fig_tb_op_new(t, OP_VOTE, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_db_write_t *w = fig_tb_op_write(t, op, FIG_DBW_SEAT);
    w->seat = s;
    w->seat_row = t->row.seats[s];
    w->seat_row.rematch = ready ? t->game : 0;
    op->seat = s;
    op->ready = ready;
    fig_tb_submit(t, op);
    return FIG_PC_NONE;
}

/* A vote is stored: everyone is told who asked or withdrew and the count
 * (fig_table_written then starts the game if that was the last one). */
static void vote_stored(fig_table_t *t, op_t *op)
{
    int s = op->seat;
    /* The vote alone: a forget while it was on its way renamed the seat
     * (the rename's write comes after this one, fig_tb_renames). */
    fig_db_seat_t x = t->row.seats[s];
    x.rematch = op->b.w[0].seat_row.rematch;
    fig_tb_seat_set(t, s, &x);
    name_t names[FIG_MAX_PLAYERS];
    fig_tb_seat_names(t, names);
    logent_t *e = fig_tb_log_put(t, EV_REMATCH);
    e->seat = s;
    e->ready = op->ready;
    e->tally = fig_tb_tally_now(t);
    snprintf(e->name, sizeof e->name, "%s", names[s]);
    fig_logf(t->env->log, t->env->svc, t->logp,
             "seat %d (%s): %s a rematch, %d of %d ready", s, e->name,
             op->ready ? "asks for" : "withdraws from", e->tally.ready, e->tally.of);
    fig_tb_broadcast_other(t, e);
}

fig_proto_code_t fig_table_chat(fig_table_t *t, void *p, const fig_tr_t *tr, const char *name,
                                const char *text, fig_msg_t *msg)
{
    int i = peer_index(t, p);
    if (i < 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("you neither sit at nor watch table %s"),
                    t->row.code);
        return FIG_PC_NOT_SEATED;
    }
    int s = t->peers[i].seat;
    if (s < 0 && !(name && name[0])) {   /* a spectator speaks under the hello's name */
        fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                    N_("a spectator needs a name to chat: send hello with your name"));
        return FIG_PC_BAD_NAME;
    }
    logent_t *e = fig_tb_log_put(t, EV_CHAT);
    e->seat = s;
    if (s >= 0) {
        name_t names[FIG_MAX_PLAYERS];
        fig_tb_seat_names(t, names);
        snprintf(e->name, sizeof e->name, "%s", names[s]);
    } else {
        snprintf(e->name, sizeof e->name, "%s", name);
    }
    snprintf(e->text, sizeof e->text, "%s", text);
    fig_tb_broadcast_other(t, e);
    fig_tb_reserve_numbers(t);
    return FIG_PC_NONE;
}

/* ---- writes that came back */

static void create_stored(fig_table_t *t, op_t *op)
{
    fig_logf(t->env->log, t->env->svc, t->logp, "created (%d seats)", t->row.players);
    if (op->peer) {
        peer_t who = { op->peer, op->tr, -1 };
        fig_tb_send_json(t, &who, fig_proto_table_msg("created", t->row.code));
    }
    fig_msg_t msg;
    if (op->start)
        fig_tb_start_stored(t, op->b.w[1].game, &op->b.w[1].setup, NULL, &msg);   /* logged */
}

/* A game the vote or the request asked for is on the disk: it starts. */
static void start_stored(fig_table_t *t, op_t *op)
{
    fig_msg_t msg;
    fig_proto_code_t code = fig_tb_start_stored(t, op->b.w[0].game, &op->b.w[0].setup, op->tr,
                                                &msg);
    if (code && op->peer)
        t->env->fail(t->env->svc, op->peer, code, msg.text, "rematch", t->row.code);
}

static void rename_stored(fig_table_t *t, op_t *op)
{
    fig_tb_seat_news(t, op->seat, NEWS_FORGOTTEN);
}

/* Each kind of write, by its kind: the request it answers (the "re" of a
 * storage error) and what to do once it is on the disk. Indexed by the
 * kind, so the two cannot drift apart. */
static const struct {
    const char *re;                           /* NULL: no request (events) */
    void (*stored)(fig_table_t *t, op_t *op); /* NULL: nothing more */
} op_ways[OP_KINDS] = {
    [OP_ACTION] = { "act", action_stored },
    [OP_JOIN] = { "join", join_stored },
    [OP_LEAVE] = { "leave", leave_stored },
    [OP_START] = { "rematch", start_stored },
    [OP_CREATE] = { "create", create_stored },
    [OP_VOTE] = { "rematch", vote_stored },
    [OP_EVENTS] = { NULL, NULL },
    [OP_RENAME] = { NULL, rename_stored },
    [OP_REBUILD] = { NULL, NULL },   /* not a write: fig_tb_rebuilt */
};

void fig_table_written(fig_table_t *t, fig_db_batch_t *b)
{
    op_t *op = (op_t *)b;
    t->inflight = NULL;
    if (b->fenced) {   /* another server drives the table now: nothing more here */
        fig_logf(t->env->log, t->env->svc, t->logp, "storage: %s", b->msg.text);
        free(op);
        return;
    }
    if (op->kind == OP_REBUILD) {
        fig_tb_rebuilt(t, op);
        free(op);
        fig_tb_settle_presence(t);
        fig_tb_renames(t);
        fig_tb_pump(t);
        fig_tb_maybe_rematch(t);
        fig_tb_reserve_numbers(t);
        return;
    }
    if (!op->b.rc && op->b.w[op->b.n - 1].ev > t->hw)
        t->hw = op->b.w[op->b.n - 1].ev;   /* the reserve it carried (submit) */
    if (op->kind != OP_ACTION && op->b.rc) {
        /* Nothing of the request happened: the database holds none of it. */
        t->env->stats->storage_errors++;
        fig_logf(t->env->log, t->env->svc, t->logp, "storage: %s", op->b.msg.text);
        if (op->peer)
            t->env->fail(t->env->svc, op->peer, FIG_PC_STORAGE,
                         fig_tr_text(op->tr, "the server could not store that; nothing was "
                                             "done"), op_ways[op->kind].re, t->row.code);
        if (op->kind == OP_CREATE)
            t->dead = true;
        if (op->kind == OP_START && !op->peer)
            t->rematch_retry = now(t) + 1000;   /* the vote is complete: tried again later */
        if (op->kind == OP_RENAME)
            t->renames |= 1u << op->seat;   /* tried again at the next tick */
        free(op);
        if (!t->dead) {
            fig_tb_settle_presence(t);
            fig_tb_pump(t);   /* a reserve that failed is asked again at the next tick */
        }
        return;
    }
    if (op_ways[op->kind].stored)
        op_ways[op->kind].stored(t, op);
    free(op);
    fig_tb_settle_presence(t);
    fig_tb_renames(t);   /* before the game moves on: a bot's action waits for it */
    fig_tb_pump(t);
    fig_tb_maybe_rematch(t);   /* a vote, a seat left: maybe everyone left is ready now */
    fig_tb_reserve_numbers(t);
}
