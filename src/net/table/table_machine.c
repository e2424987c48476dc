/* SPDX-License-Identifier: MIT */
/* table_machine.c - one table of the server (table.h): its state machine.
 * The other parts are table_tell.c, table_hint.c, table_record.c and
 * table_requests.c (table_internal.h).
 *
 * Invariants:
 *   - t->match is NULL until the first game starts, then always the current
 *     game's match; its record (fig_match_game) holds every hand and never
 *     leaves this file except through fig_table_record once the game is over.
 *   - Every frame for a peer is said from that peer's view (fig_view_of for
 *     its seat; seat 0's view with no hand for a spectator): render_game,
 *     snapshot. The JSON is proto.c's (fig_proto_game_event,
 *     fig_proto_snapshot, ...): this file decides what happened and to whom.
 *   - An action is in the database before its event exists: the person's is
 *     checked, stored, then played; a bot's is stored right after the match
 *     applied it and before it is told (if storing fails, the match is
 *     rebuilt from the database, which does not have it, and the bot thinks
 *     again).
 *   - game_n is the number of the latest event that changed the game (its
 *     start, a deal, an action): an action must answer exactly that event.
 *     Numbers continue across a restart from the stored ones, so an action
 *     answering an event of the previous life either finds the same game
 *     state it saw or is refused as stale.
 *   - The seats a bot plays: bot and engine seats; open seats during a game;
 *     a person's seat while bot_plays (grace period over, or turn time out).
 *     Changing that set rebuilds the match from its record
 *     (fig_match_resume): the bots are told the game so far and think on.
 *   - Writes go to the writer thread (env.submit) one at a time: t->inflight
 *     is the op whose batch is on its way, and while it is, the table tells
 *     nothing and changes nothing: no event is numbered (an action's event
 *     number is reserved in its stored row: next_n), the match is not
 *     stepped (its descriptor is only drained, fig_match_idle), requests
 *     wait in the service, ticks wait. The match may be one step ahead of
 *     what was told (the action in flight), never more, and nothing renders
 *     it meanwhile. When the batch comes back (fig_table_written) the op's
 *     continuation does what the synchronous request used to do after its
 *     write, then the presence of the seats is settled (a connection that
 *     closed meanwhile: its seat is away now) and the game moves on (pump).
 *   - A failed write of an action is undone by reading the stored game back
 *     through the writer too (back_to_storage: an OP_REBUILD op, a read
 *     batch, in flight like a write, t->rebuilding set): the loop thread
 *     never reads the database for it, and `act` is refused (storage) until
 *     the match is rebuilt from what is stored (rebuilt).
 *   - A person seat nobody holds is away: settle_presence keeps it so.
 *   - Once a game is over, the votes for the next one are the people's
 *     stored seat rows (rematch == t->game: ready); vote_of says who counts.
 *     Whatever may complete the vote (a vote stored, a seat left, a grace
 *     period over) ends in maybe_rematch, which stores the next game; a
 *     table restored with a complete vote starts it at its first tick.
 *   - A snapshot's story is derived, never stored: the record replayed
 *     through the receiver's views and narrated as emit_game narrates, with
 *     the log's other events between (story_json). */
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

const double fig_table_latency_le[FIG_TABLE_LATENCY_BUCKETS - 1] = {
    0.5, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500
};

/* The next game starts when every person whose vote counts asked for it,
 * and at least one did (a table of bots alone waits for somebody). */
static bool rematch_due(const tally_t *y) { return y->has && y->ready > 0 && y->ready == y->of; }

void fig_tb_seat_news(fig_table_t *t, int s, news_t news) { fig_tb_seat_news_as(t, s, news, NULL); }

/* A step of the match, told to every peer. prev: the state before it. */

void fig_tb_emit_game(fig_table_t *t, const fig_match_step_t *step, const fig_state_t *prev)
{
    fig_tb_hint_cancel(t);   /* the turn moves on: a hint still out answers nothing now */
    logent_t *e = fig_tb_log_put(t, step->deal ? EV_DEAL : EV_ACTION);
    e->pos = t->steps++;
    t->game_n = e->n;
    for (int i = 0; i < t->npeers; i++) {
        const peer_t *p = &t->peers[i];
        int seat = p->seat >= 0 ? p->seat : 0;
        fig_view_t before, after;
        fig_view_of(prev, seat, &before);
        fig_match_view(t->match, seat, &after);
        fig_tb_send_json(t, p, fig_tb_render_game(t, e, step, &before, &after, p->seat, p->tr));
    }
}

/* ---- the match */

static void on_fault(void *user, const fig_fault_t *f)
{
    const fig_table_t *t = user;
    char buf[400];
    fig_logf(t->env->log, t->env->svc, t->logp, "%s", fig_fault_text(f, NULL, buf, sizeof buf));
}

static bool bot_seat(const fig_table_t *t, int s)
{
    const fig_db_seat_t *x = &t->row.seats[s];
    return x->kind == FIG_DB_SEAT_BOT || x->kind == FIG_DB_SEAT_ENGINE ||
           x->kind == FIG_DB_SEAT_OPEN || t->seat[s].bot_plays;
}

/* The bots for the seats a bot plays now. Each draws its own seed from the
 * system: a bot's stream never follows from the game's seed (which the
 * record shows), so a record tells nothing of a bot's later choices. A bot
 * rebuilt mid-game (a seat changed hands, a restart) thinks on with a new
 * stream: what it played is stored, not replayed. */
static fig_err_t make_bots(fig_table_t *t, fig_bot_t *bots[], fig_msg_t *msg)
{
    memset(bots, 0, FIG_MAX_PLAYERS * sizeof bots[0]);
    int engine_ms = t->env->max_bot_ms > 0 ? t->env->max_bot_ms : FIG_SESSION_ENGINE_MS;
    for (int s = 0; s < t->row.players; s++) {
        if (!bot_seat(t, s))
            continue;
        const fig_db_seat_t *x = &t->row.seats[s];
        const char *spec = t->row.fill;
        if (x->kind == FIG_DB_SEAT_BOT) {
            spec = x->what;
        } else if (x->kind == FIG_DB_SEAT_ENGINE) {
            spec = t->env->engine(t->env->svc, x->what);
            if (!spec) {   /* the operator dropped it since: the fill level plays */
                fig_logf(t->env->log, t->env->svc, t->logp,
                         "engine '%s' is no longer registered: %s plays seat %d", x->what,
                         t->row.fill, s);
                spec = t->row.fill;
            }
        }
        uint64_t seed;
        fig_err_t rc = fig_random_u64(&seed, msg);
        if (!rc)
            rc = fig_bot_any_new(&bots[s], spec, seed, engine_ms, msg);
        if (rc) {
            for (int k = 0; k < s; k++)
                fig_bot_free(bots[k]);
            memset(bots, 0, FIG_MAX_PLAYERS * sizeof bots[0]);
            return rc;
        }
    }
    return FIG_OK;
}

static void match_opts(fig_table_t *t, fig_match_opts_t *o, fig_bot_t *bots[])
{
    memset(o, 0, sizeof *o);
    o->has_names = true;
    fig_tb_record_names(t, o->names);
    memcpy(o->bots, bots, sizeof o->bots);
    o->move_ms = t->env->max_bot_ms;
    o->pool = t->env->pool;
    o->inline_instant = true;   /* random bots move on the loop: no hand-off to the pool */
    o->on_fault = on_fault;
    o->fault_user = t;
}

static void set_match(fig_table_t *t, fig_match_t *m)
{
    fig_tb_hint_cancel(t);
    if (t->fd >= 0)
        t->env->unwatch(t->env->svc, t->fd);
    fig_match_free(t->match);
    t->match = m;
    t->fd = m ? fig_match_fd(m) : -1;
    if (t->fd >= 0)
        t->env->watch(t->env->svc, t->fd, t);
}

/* Goes on with `rec` with the bots the seats call for now. */
static fig_err_t resume_match(fig_table_t *t, const fig_game_t *rec, fig_msg_t *msg)
{
    fig_bot_t *bots[FIG_MAX_PLAYERS];
    fig_err_t rc = make_bots(t, bots, msg);
    if (rc)
        return rc;
    fig_match_opts_t o;
    match_opts(t, &o, bots);
    fig_match_t *m;
    if ((rc = fig_match_resume(&m, rec, &o, msg)))
        return rc;
    set_match(t, m);
    return FIG_OK;
}

/* The seats a bot plays changed: the same game, with other bots (the caller
 * moves it on with pump). */
void fig_tb_rebuild(fig_table_t *t)
{
    if (!running(t))
        return;
    fig_game_t *rec = malloc(sizeof *rec);
    fig_msg_t msg;
    if (!rec) {
        fig_logf(t->env->log, t->env->svc, t->logp, "cannot change the bots: out of memory");
        return;
    }
    *rec = *fig_match_game(t->match);
    if (resume_match(t, rec, &msg))
        fig_logf(t->env->log, t->env->svc, t->logp, "cannot change the bots: %s", msg.text);
    free(rec);
}

/* Storing an action failed: the match goes back to what the database
 * holds (the action is not there), and a bot thinks again. The game is
 * read by the writer thread, after every write before (never on the loop
 * thread); until it is back (rebuilt) the table is busy and refuses `act`
 * with storage. */
void fig_tb_back_to_storage(fig_table_t *t)
{
    op_t *op = calloc(1, sizeof *op);
    fig_db_game_t *g = malloc(sizeof *g);
    if (!op || !g) {
        fig_logf(t->env->log, t->env->svc, t->logp,
                 "cannot go back to the stored game: out of memory");
        free(op);
        free(g);
        return;
    }
    op->kind = OP_REBUILD;
    op->b.user = t;
    op->b.read.out = g;
    snprintf(op->b.read.code, sizeof op->b.read.code, "%s", t->row.code);
    op->b.read.game = t->game;
    t->inflight = op;
    t->rebuilding = true;
    t->env->submit(t->env->svc, &op->b);
}

/* The stored game is back (back_to_storage): the match resumes from it. */
void fig_tb_rebuilt(fig_table_t *t, op_t *op)
{
    fig_db_game_t *g = op->b.read.out;
    fig_game_t *rec = malloc(sizeof *rec);
    fig_msg_t msg = op->b.msg;
    t->rebuilding = false;
    if (rec && op->b.rc == FIG_OK && fig_db_game_record(g, rec, &msg) == FIG_OK &&
        resume_match(t, rec, &msg) == FIG_OK) {
        t->steps = rec->dealt;
        for (int r = 0; r < rec->dealt; r++)
            t->steps += rec->nmoves[r];
    } else {
        fig_logf(t->env->log, t->env->svc, t->logp,
                 "cannot go back to the stored game: %s", rec ? msg.text : "out of memory");
    }
    free(rec);
    free(g);
}

void fig_tb_set_turn_deadline(fig_table_t *t)
{
    if (!running(t) || fig_match_status(t->match) != FIG_MATCH_WAIT_HUMAN) {
        t->turn_deadline = -1;
        return;
    }
    int s = fig_match_turn(t->match);
    if (!clock_for(t, s)) {
        t->turn_deadline = -1;
        return;
    }
    if (t->turn_for != t->game_n || t->turn_deadline < 0) {
        t->turn_deadline = now(t) + t->row.move_seconds * 1000LL;
        t->turn_for = t->game_n;
    }
}

/* ---- writes */

op_t *fig_tb_op_new(fig_table_t *t, op_kind_t kind, void *peer, const fig_tr_t *tr)
{
    op_t *op = calloc(1, sizeof *op);
    if (!op)
        return NULL;
    op->kind = kind;
    op->peer = peer;
    op->tr = tr;
    op->b.user = t;
    return op;
}

fig_db_write_t *fig_tb_op_write(fig_table_t *t, op_t *op, fig_db_write_kind_t kind)
{
    fig_db_write_t *w = &op->b.w[op->b.n++];
    w->kind = kind;
    snprintf(w->code, sizeof w->code, "%s", t->row.code);
    return w;
}

/* The table is busy from here until fig_table_written. Every write
 * reserves the event numbers of the next EV_RESERVE events. */
void fig_tb_submit(fig_table_t *t, op_t *op)
{
    if (op->kind == OP_ACTION && !running(t))
        op = fig_tb_with_result(t, op);   /* the game's last action: its result with it */
    fig_tb_op_write(t, op, FIG_DBW_EVENTS)->ev = t->next_n + EV_RESERVE;
    t->inflight = op;
    t->env->submit(t->env->svc, &op->b);
}

/* The write of an action (the one the match is about to apply or just
 * applied): its place in the game and the event that will tell it. */
void fig_tb_write_action(fig_table_t *t, op_t *op, int index, int seat, fig_action_t a)
{
    fig_db_write_t *w = fig_tb_op_write(t, op, FIG_DBW_ACTION);
    w->game = t->game;
    w->index = index;
    w->action.seat = (uint8_t)seat;
    w->action.action = a;
    w->action.ev = t->next_n;   /* nothing is numbered while it is on its way */
}

/* Game t->game + 1's write: its setup, told by event `ev`. Its seed is
 * drawn from the system for this game alone (getrandom) and stored with
 * it: the record shows it once the game is over, and nothing else -- no
 * other game's deal, no bot's stream -- follows from it (docs/server.md,
 * "Fairness"). FIG_ERR_* when the system gives no random bytes. */
fig_err_t fig_tb_write_game(fig_table_t *t, op_t *op, long long ev, fig_msg_t *msg)
{
    uint64_t seed;
    fig_err_t rc = fig_random_u64(&seed, msg);
    if (rc)
        return rc;
    fig_db_write_t *w = fig_tb_op_write(t, op, FIG_DBW_GAME);
    w->game = t->game + 1;
    w->ev = ev;
    fig_setup_random(&w->setup, t->row.players, seed, NULL);
    return FIG_OK;
}

/* Reserves more event numbers when less than half of the reserve is left
 * and the table is free (chat and seat news write nothing of their own). */
void fig_tb_reserve_numbers(fig_table_t *t)
{
    if (t->inflight || t->dead || t->next_n + EV_RESERVE / 2 <= t->hw)
        return;
    op_t *op = fig_tb_op_new(t, OP_EVENTS, NULL, NULL);
    if (op)
        fig_tb_submit(t, op);
}

/* Moves the game on as far as it goes without waiting and without writing:
 * deals are told at once (they follow from the seed); a bot's action is
 * stored first, and the table waits for that. */
void fig_tb_pump(fig_table_t *t)
{
    if (!t->match || t->inflight)
        return;
    for (int guard = 0; guard < 4 * FIG_DB_GAME_ACTIONS; guard++) {
        fig_state_t prev = fig_match_game(t->match)->state;
        int index = moves_of(fig_match_game(t->match));
        fig_match_step_t step;
        if (!fig_match_step(t->match, &step))
            break;
        if (step.deal) {
            fig_tb_emit_game(t, &step, &prev);
            continue;
        }
        op_t *op = fig_tb_op_new(t, OP_ACTION, NULL, NULL);
        if (!op) {
            t->env->stats->storage_errors++;
            fig_logf(t->env->log, t->env->svc, t->logp,
                     "a bot's action was not stored: out of memory");
            fig_tb_back_to_storage(t);
            return;
        }
        fig_tb_write_action(t, op, index, step.seat, step.action);
        op->step = step;
        op->prev = prev;
        fig_tb_submit(t, op);
        return;
    }
    fig_tb_set_turn_deadline(t);
}

/* Whether seat s is a person away longer than the grace period, whose seat
 * no bot plays yet. */
static bool grace_over(const fig_table_t *t, int s, long long t_now)
{
    return t->row.seats[s].kind == FIG_DB_SEAT_PERSON && t->seat[s].away &&
           !t->seat[s].bot_plays && t_now >= t->seat[s].away_at + t->env->grace_ms;
}

/* A bot plays the seat of every person away past the grace period, from
 * now (each told); whether there was one. */
static bool bots_for_the_absent(fig_table_t *t, long long t_now)
{
    bool any = false;
    for (int s = 0; s < t->row.players; s++)
        if (grace_over(t, s, t_now)) {
            t->seat[s].bot_plays = true;
            fig_tb_seat_news(t, s, NEWS_BOT);
            any = true;
        }
    return any;
}

/* Game `g` (stored with `setup`) begins: bots, match, told. The caller
 * moves it on (pump). */
fig_proto_code_t fig_tb_start_stored(fig_table_t *t, int g, const fig_setup_t *setup,
                                     const fig_tr_t *tr, fig_msg_t *msg)
{
    fig_msg_t why;
    long long t_now = now(t);
    for (int s = 0; s < t->row.players; s++)
        if (grace_over(t, s, t_now))
            t->seat[s].bot_plays = true;
    fig_bot_t *bots[FIG_MAX_PLAYERS];
    fig_match_t *m = NULL;
    fig_match_opts_t o;
    int prev_game = t->game;
    t->game = g;   /* names and bots are the new game's */
    fig_err_t rc = make_bots(t, bots, &why);
    if (!rc) {
        match_opts(t, &o, bots);
        o.setup = *setup;
        rc = fig_match_new(&m, &o, &why);
    }
    if (rc) {
        /* The game row stays: it is replayed (with no action) at the next start. */
        fig_logf(t->env->log, t->env->svc, t->logp, "game %d cannot start: %s", g, why.text);
        t->game = prev_game;
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("the game cannot start: %s"), why.text);
        return FIG_PC_STORAGE;
    }
    set_match(t, m);
    t->steps = 0;
    for (int s = 0; s < t->row.players; s++)   /* as the game's write did (FIG_DBW_GAME) */
        if (t->row.seats[s].kind == FIG_DB_SEAT_OPEN)
            fig_tb_seat_unlink(t, s);   /* who left the game before */
    logent_t *e = fig_tb_log_put(t, EV_START);
    t->game_n = e->n;
    fig_logf(t->env->log, t->env->svc, t->logp, "game %d starts", g);
    fig_tb_broadcast_other(t, e);
    return FIG_PC_NONE;
}

/* The service keeps the tables by person (the tables a forgotten person's
 * name leaves): every change of a seat's person goes through here. */
void fig_tb_seat_set(fig_table_t *t, int s, const fig_db_seat_t *x)
{
    char was[sizeof x->person];
    memcpy(was, t->row.seats[s].person, sizeof was);
    t->row.seats[s] = *x;
    if (strcmp(was, x->person) != 0 && t->env->seat_person)
        t->env->seat_person(t->env->svc, t, was, x->person);
}

void fig_tb_seat_unlink(fig_table_t *t, int s)
{
    fig_db_seat_t x = t->row.seats[s];
    x.person[0] = '\0';
    fig_tb_seat_set(t, s, &x);
}

void fig_tb_renames(fig_table_t *t)
{
    if (!t->renames || t->inflight || t->dead)
        return;
    int s = 0;
    while (!(t->renames & 1u << s))
        s++;
    op_t *op = fig_tb_op_new(t, OP_RENAME, NULL, NULL);
    if (!op)
        return;   /* tried again after the table's next write */
    t->renames &= ~(1u << s);
    fig_db_write_t *w = fig_tb_op_write(t, op, FIG_DBW_SEAT);
    w->seat = s;
    w->seat_row = t->row.seats[s];
    op->seat = s;
    fig_tb_submit(t, op);
}

/* ---- creating, restoring, freeing */

static fig_table_t *alloc_table(const fig_table_env_t *env, const fig_db_table_t *row)
{
    fig_table_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->env = env;
    t->row = *row;
    snprintf(t->logp, sizeof t->logp, "table %s: ", row->code);
    t->fd = -1;
    t->next_n = 1;
    t->turn_deadline = -1;
    t->idle_since = env->now(env->svc);
    return t;
}

fig_err_t fig_table_create(fig_table_t **out, const fig_table_env_t *env, const fig_db_table_t *row,
                           void *peer, const fig_tr_t *tr, fig_msg_t *msg)
{
    *out = NULL;
    fig_table_t *t = alloc_table(env, row);
    op_t *op = t ? fig_tb_op_new(t, OP_CREATE, peer, tr) : NULL;
    if (!op) {
        free(t);
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    t->log_lo = t->next_n;
    fig_tb_op_write(t, op, FIG_DBW_TABLE)->row = *row;
    bool open = false;
    for (int s = 0; s < row->players; s++)
        open |= row->seats[s].kind == FIG_DB_SEAT_OPEN;
    if (!open) {   /* no person to wait for: the first game starts with it */
        op->start = true;
        fig_err_t rc = fig_tb_write_game(t, op, t->next_n, msg);
        if (rc) {
            free(op);
            free(t);
            return rc;
        }
    }
    fig_tb_submit(t, op);
    *out = t;
    return FIG_OK;
}

fig_err_t fig_table_restore(fig_table_t **out, const fig_table_env_t *env,
                            const fig_db_table_t *row, const fig_db_game_t *last, fig_msg_t *msg)
{
    *out = NULL;
    fig_table_t *t = alloc_table(env, row);
    if (!t)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    long long t_now = now(t);
    for (int s = 0; s < row->players; s++)
        if (row->seats[s].kind == FIG_DB_SEAT_PERSON) {
            t->seat[s].away = true;   /* nobody is connected yet: grace from now */
            t->seat[s].away_at = t_now;
        }
    fig_err_t rc = FIG_OK;
    /* Above every number the previous life may have told (its reserve). */
    t->hw = row->ev_hw;
    t->next_n = row->ev_hw + 1;
    if (last) {
        long long maxev = last->ev;
        for (int i = 0; i < last->nactions; i++)
            if (last->actions[i].ev > maxev)
                maxev = last->actions[i].ev;
        t->next_n = (maxev > row->ev_hw ? maxev : row->ev_hw) + 1;
        t->game_n = maxev;
        t->game = last->game;
        fig_game_t *rec = malloc(sizeof *rec);
        if (!rec)
            rc = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
        if (!rc)
            rc = fig_db_game_record(last, rec, msg);
        if (!rc)
            rc = resume_match(t, rec, msg);
        if (!rc) {
            t->steps = rec->dealt + moves_of(rec);
            t->log_lo = t->next_n;
        }
        free(rec);
    }
    t->log_lo = t->next_n;
    if (rc) {
        fig_table_free(t);
        return rc;
    }
    fig_logf(t->env->log, t->env->svc, t->logp,
             "restored at game %d, event %lld", t->game, t->next_n - 1);
    fig_tb_pump(t);
    fig_tb_reserve_numbers(t);   /* before anything is told, this life's numbers are stored */
    *out = t;
    return FIG_OK;
}

void fig_table_free(fig_table_t *t)
{
    if (!t)
        return;
    set_match(t, NULL);   /* the hint too */
    free(t->peers);
    free(t);
}

bool fig_table_busy(const fig_table_t *t) { return t->inflight != NULL; }

bool fig_table_rebuilding(const fig_table_t *t) { return t->rebuilding; }

fig_proto_code_t fig_table_refuse_rebuilding(const fig_table_t *t, const fig_tr_t *tr,
                                             fig_msg_t *msg)
{
    (void)t;
    fig_fail_tr(msg, tr, FIG_ERR_STATE, N_("the server could not store that; nothing was "
                                           "done"));
    return FIG_PC_STORAGE;
}

bool fig_table_dead(const fig_table_t *t) { return t->dead; }

bool fig_table_attached(const fig_table_t *t, const void *peer)
{
    return peer_index(t, peer) >= 0;
}

int fig_table_npeers(const fig_table_t *t) { return t->npeers; }

void *fig_table_peer(const fig_table_t *t, int i) { return t->peers[i].p; }

long long fig_table_idle_since(const fig_table_t *t)
{
    return t->inflight || t->npeers > 0 ? -1 : t->idle_since;
}

bool fig_table_over(const fig_table_t *t) { return t->match && !running(t); }

const char *fig_table_code(const fig_table_t *t) { return t->row.code; }

bool fig_table_thinking(const fig_table_t *t)
{
    return t->match && fig_match_status(t->match) == FIG_MATCH_THINKING;
}

void fig_table_ready(fig_table_t *t)
{
    fig_tb_hint_done(t);
    if (t->inflight && t->match)
        fig_match_idle(t->match);   /* takes the answer in (and empties the pipe) for later */
    else
        fig_tb_pump(t);
}

long long fig_table_deadline(const fig_table_t *t)
{
    long long d = t->turn_deadline;
    if (t->inflight)
        return -1;   /* nothing changes until the write is back; then deadlines count */
    if (t->renames && (d < 0 || now(t) + 1000 < d))
        d = now(t) + 1000;   /* a rename whose write failed: again in a second */
    if (!t->match)
        return d;
    if (!running(t)) {
        /* Over: once somebody asked, an absent person's grace still ends (a
         * bot agrees for them), and a vote that is complete (the server
         * restarted between the last vote and the next game's write) is
         * carried out at once. */
        tally_t y = fig_tb_tally_now(t);
        if (y.ready == 0)
            return d;
        if (rematch_due(&y))
            return now(t) > t->rematch_retry ? now(t) : t->rematch_retry;
    }
    for (int s = 0; s < t->row.players; s++)
        if (t->row.seats[s].kind == FIG_DB_SEAT_PERSON && t->seat[s].away &&
            !t->seat[s].bot_plays) {
            long long x = t->seat[s].away_at + t->env->grace_ms;
            if (d < 0 || x < d)
                d = x;
        }
    return d;
}

void fig_table_tick(fig_table_t *t, long long t_now)
{
    fig_tb_renames(t);   /* a rename whose write failed */
    if (!t->match || t->inflight || !running(t)) {
        if (t->match && !t->inflight)
            fig_tb_maybe_rematch(t);   /* an absent person's grace may be over: a bot agrees */
        fig_tb_reserve_numbers(t);
        return;
    }
    bool changed = bots_for_the_absent(t, t_now);
    if (t->turn_deadline >= 0 && t_now >= t->turn_deadline) {
        t->turn_deadline = -1;
        int s = fig_match_turn(t->match);
        if (fig_match_status(t->match) == FIG_MATCH_WAIT_HUMAN &&
            t->row.seats[s].kind == FIG_DB_SEAT_PERSON && !t->seat[s].bot_plays) {
            t->seat[s].bot_plays = true;
            fig_tb_seat_news(t, s, NEWS_TIMEOUT);
            changed = true;
        }
    }
    if (changed) {
        fig_tb_rebuild(t);
        fig_tb_pump(t);
    }
    fig_tb_reserve_numbers(t);
}

/* ---- peers */

bool fig_tb_attach(fig_table_t *t, void *p, const fig_tr_t *tr, int seat)
{
    int i = peer_index(t, p);
    if (i < 0) {
        if (t->npeers == t->cap) {
            int ncap = t->cap ? 2 * t->cap : 8;
            peer_t *np = realloc(t->peers, (size_t)ncap * sizeof *np);
            if (!np)
                return false;
            t->peers = np;
            t->cap = ncap;
        }
        i = t->npeers++;
    }
    t->peers[i].p = p;
    t->peers[i].tr = tr;
    t->peers[i].seat = seat;
    t->idle_since = -1;
    return true;
}

/* Removes the peer; true if it held a seat that nobody holds now. */
int fig_tb_unlink_peer(fig_table_t *t, void *p)
{
    int i = peer_index(t, p);
    if (i < 0)
        return -1;
    int s = t->peers[i].seat;
    t->peers[i] = t->peers[--t->npeers];
    if (t->npeers == 0)
        t->idle_since = now(t);
    return s >= 0 && !seat_held(t, s) ? s : -1;
}

/* Every person seat nobody holds is away, and the table is told so once. */
void fig_tb_settle_presence(fig_table_t *t)
{
    for (int s = 0; s < t->row.players; s++)
        if (t->row.seats[s].kind == FIG_DB_SEAT_PERSON && !seat_held(t, s) &&
            !t->seat[s].away) {
            t->seat[s].away = true;
            t->seat[s].away_at = now(t);
            fig_tb_seat_news(t, s, NEWS_AWAY);
        }
}

void fig_table_detach(fig_table_t *t, void *p)
{
    if (t->inflight && t->inflight->peer == p)
        t->inflight->peer = NULL;   /* its answer has nobody to go to */
    if (t->hint.peer == p)
        fig_tb_hint_cancel(t);
    fig_tb_unlink_peer(t, p);
    if (!t->inflight) {
        fig_tb_settle_presence(t);   /* else once the write is back: no event meanwhile */
        fig_tb_reserve_numbers(t);
    }
}

/* Once a game is over and every person whose vote counts asked for the next
 * one, the next game is stored, then started (start_stored). */
void fig_tb_maybe_rematch(fig_table_t *t)
{
    if (t->inflight || t->dead || !t->match || running(t) || now(t) < t->rematch_retry)
        return;
    tally_t y = fig_tb_tally_now(t);
    if (y.ready == 0)
        return;   /* nobody asked: nothing waits for the absent */
    /* A person away longer than the grace period is played by a bot from the
     * next game on: the vote does not wait for them. */
    bots_for_the_absent(t, now(t));
    y = fig_tb_tally_now(t);
    if (!rematch_due(&y))
        return;
    op_t *op = fig_tb_op_new(t, OP_START, NULL, NULL);
    if (!op) {
        fig_logf(t->env->log, t->env->svc, t->logp, "the rematch cannot start: out of memory");
        return;
    }
    fig_msg_t why;
    if (fig_tb_write_game(t, op, t->next_n, &why)) {
        fig_logf(t->env->log, t->env->svc, t->logp, "the rematch cannot start: %s", why.text);
        free(op);
        t->rematch_retry = now(t) + 1000;   /* tried again later, as after a failed write */
        return;
    }
    fig_tb_submit(t, op);
}
