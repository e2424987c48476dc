/* table.c - one table of the server (table.h).
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
#include "net/table.h"
#include "net/token.h"

const double fig_table_latency_le[FIG_TABLE_LATENCY_BUCKETS - 1] = {
    0.5, 1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500
};

typedef enum { EV_START, EV_DEAL, EV_ACTION, EV_SEAT, EV_CHAT, EV_REMATCH } ev_kind_t;

/* What happened to a seat (EV_SEAT). */
typedef enum { NEWS_TAKEN, NEWS_AWAY, NEWS_BOT, NEWS_TIMEOUT, NEWS_BACK, NEWS_LEFT } news_t;

static const char *const news_names[] = { "taken", "away", "bot", "timeout", "back", "left" };

/* A seat's part in the vote for the next game, once a game is over: a person
 * who has not asked (waiting), a person who has (ready), or a seat whose
 * consent is taken: a bot, an engine, an open seat, a person a bot plays for
 * (their grace period is over, or their time ran out). */
typedef enum { VOTE_BOT, VOTE_WAITING, VOTE_READY } vote_t;

static const char *const vote_names[] = { "bot", "waiting", "ready" };

/* The vote as it stood at an event (a rematch event, a seat's news while a
 * game is over), so that catching up tells it as it was. */
typedef struct {
    bool has;
    uint8_t votes[FIG_MAX_PLAYERS];       /* vote_t per seat */
    int ready, of;                        /* people ready, people whose vote counts */
} tally_t;

typedef struct {
    long long n;
    ev_kind_t kind;
    int game;
    int pos;                              /* deal, action: the step's place in its game */
    int seat;                             /* seat, chat: the seat, -1 for a spectator */
    news_t news;
    bool ready;                           /* rematch: asked (else withdrew) */
    tally_t tally;                        /* rematch; seat news after a game's end */
    char name[FIG_PROTO_NAME_BYTES + 1];
    char text[FIG_PROTO_CHAT_MAX + 1];
} logent_t;

typedef struct {
    void *p;
    const fig_tr_t *tr;
    int seat;                             /* -1: watches */
} peer_t;

typedef struct {
    bool away;                            /* a person's seat nobody holds now */
    long long away_at;
    bool bot_plays;                       /* a bot plays for the person */
} seat_t;

/* What a write is for: what to do once it is on the disk. */
typedef enum {
    OP_ACTION, OP_JOIN, OP_LEAVE, OP_START, OP_CREATE, OP_VOTE, OP_EVENTS,
    OP_REBUILD   /* not a write: the read of the stored game (back_to_storage) */
} op_kind_t;

/* Event numbers are reserved on the disk ahead of their use, EV_RESERVE at
 * a time (FIG_DBW_EVENTS rides on every write, and a write of its own goes
 * when less than half is left): after a crash the numbers continue above
 * every number that may have been told, never reusing one. */
enum { EV_RESERVE = 256 };

typedef struct {
    fig_db_batch_t b;                     /* first: the writer's part */
    op_kind_t kind;
    void *peer;                           /* who asked; NULL: a bot, or it went away */
    const fig_tr_t *tr;
    bool person;                          /* action: a person's (else a bot's) */
    long long latency_from;               /* a person's action: when its frame came in (us) */
    fig_match_step_t step;                /* action: applied in the match, not told yet */
    fig_state_t prev;                     /* action: the state before it */
    int seat;                             /* join, leave, vote */
    bool ready;                           /* vote: asks (else withdraws) */
    char token[FIG_TOKEN_HEX + 1];        /* join: the token for the peer */
    bool has_since;                       /* join: the peer's catch-up point */
    char epoch[FIG_PROTO_EPOCH_LEN + 1];
    long long since;
    bool start;                           /* join, create: the first game starts (b.w[1]) */
} op_t;

struct fig_table {
    const fig_table_env_t *env;
    fig_db_table_t row;
    seat_t seat[FIG_MAX_PLAYERS];
    int game;                             /* the current game, 0 before the first */
    fig_match_t *match;
    int fd;                               /* the match's descriptor, watched; -1 */
    int steps;                            /* steps of the current game so far */
    long long next_n, game_n;
    long long hw;                         /* numbers up to hw are reserved on the disk */
    long long log_lo;                     /* the first event of this life */
    logent_t log[FIG_TABLE_LOG];
    peer_t *peers;
    int npeers, cap;
    long long turn_deadline;              /* -1: none */
    long long turn_for;                   /* the game_n it was set for */
    op_t *inflight;                       /* the write on its way to the disk; NULL: none */
    bool rebuilding;                      /* inflight is the read of back_to_storage: `act` is
                                             refused (storage) until it is back */
    bool dead;                            /* its creation failed */
    long long idle_since;                 /* nobody attached since (service clock); -1: peers */
    long long rematch_retry;              /* a rematch whose write failed: not before then */
    struct {                              /* the hint being thought of */
        fig_hint_t *h;                    /* NULL: none; its descriptor is watched */
        void *peer;                       /* who asked; NULL: gone */
        const fig_tr_t *tr;
        int seat;
    } hint;
    char logp[24];                        /* its log lines' prefix: "table K7M2QX: " */
};

/* ---- small helpers */

static long long now(const fig_table_t *t) { return t->env->now(t->env->svc); }

static bool running(const fig_table_t *t)
{
    return t->match && !fig_game_over(fig_match_game(t->match));
}

static int peer_index(const fig_table_t *t, const void *p)
{
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].p == p)
            return i;
    return -1;
}

static bool seat_held(const fig_table_t *t, int s)
{
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].seat == s)
            return true;
    return false;
}

/* A seat's name as people see it: FIG_PROTO_NAME_CHARS characters of UTF-8. */
typedef char name_t[FIG_PROTO_NAME_BYTES + 1];

/* The name of the bot that plays seat s, fixed when the table is made: the
 * bot and engine seats take the names of the Barber of Seville
 * (fig_session_bot_name) in seat order, then the seats made for people take
 * the names after those, for the fill bot that plays one nobody holds.
 * Only the seats' kinds as created count, so nobody joining, leaving or
 * naming themselves "Rosina" renames a bot (a person who takes a bot's
 * name gets a number: unique_name). */
static const char *bot_name(const fig_table_t *t, int seat)
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
static void seat_names(const fig_table_t *t, name_t names[])
{
    for (int s = 0; s < t->row.players; s++) {
        const fig_db_seat_t *x = &t->row.seats[s];
        if (x->kind == FIG_DB_SEAT_PERSON && x->name[0])
            snprintf(names[s], sizeof names[s], "%s", x->name);
        else if (x->kind == FIG_DB_SEAT_OPEN && !running(t) && t->game == 0)
            snprintf(names[s], sizeof names[s], "Seat%d", s + 1);
        else
            snprintf(names[s], sizeof names[s], "%s", bot_name(t, s));
    }
}

/* The players' names as an FGN record holds them (fig_proto_name_record). */
static void record_names(const fig_table_t *t, char out[][FIG_NAME_MAX + 1])
{
    name_t names[FIG_MAX_PLAYERS];
    seat_names(t, names);
    for (int s = 0; s < t->row.players; s++)
        fig_proto_name_record(names[s], out[s]);
}

/* A narrator speaking the seats' names as people see them. */
static void narrator_init(const fig_table_t *t, fig_narrator_t *nr, int me, const fig_tr_t *tr,
                          fig_narrate_card_fn *card, fig_narrate_say_fn *say, void *ctx)
{
    static const char none[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    name_t names[FIG_MAX_PLAYERS];
    seat_names(t, names);
    fig_narrate_init(nr, t->row.players, me, none, tr, card, say, ctx);
    for (int s = 0; s < t->row.players; s++)
        fig_narrate_set_name(nr, s, names[s]);
}

static void send_json(fig_table_t *t, const peer_t *p, json_t *j)
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

/* ---- the vote for the next game */

static vote_t vote_of(const fig_table_t *t, int s)
{
    const fig_db_seat_t *x = &t->row.seats[s];
    if (x->kind != FIG_DB_SEAT_PERSON || t->seat[s].bot_plays)
        return VOTE_BOT;
    return x->rematch == t->game ? VOTE_READY : VOTE_WAITING;
}

/* The vote now; `has` only once the current game is over. */
static tally_t tally_now(const fig_table_t *t)
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

/* The next game starts when every person whose vote counts asked for it,
 * and at least one did (a table of bots alone waits for somebody). */
static bool rematch_due(const tally_t *y) { return y->has && y->ready > 0 && y->ready == y->of; }

/* The vote as the frames say it; game is the game that ended. */
static fig_proto_tally_t tally_say(const fig_table_t *t, const tally_t *y, int game)
{
    fig_proto_tally_t out = { .game = game, .n = t->row.players, .ready = y->ready, .of = y->of };
    for (int s = 0; s < t->row.players; s++)
        out.votes[s] = vote_names[y->votes[s]];
    return out;
}

/* ---- rendering an event for one peer */

typedef struct {
    json_t *say;
} say_ctx_t;

static void say_cb(void *ctx, int about, const char *sentence)
{
    (void)about;
    json_array_append_new(((say_ctx_t *)ctx)->say, json_string(sentence));
}

static const char *card_cb(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    snprintf(buf, cap, "%s", fig_kind_code(kind));
    return buf;
}

/* A deal or an action, as `me` (a seat, -1 for a spectator) sees it, from
 * the views of seat `me` (seat 0's for a spectator) before and after. */
static json_t *render_game(const fig_table_t *t, const logent_t *e, const fig_match_step_t *step,
                           const fig_view_t *before, const fig_view_t *after, int me,
                           const fig_tr_t *tr)
{
    say_ctx_t sc = { json_array() };
    fig_narrator_t nr;
    narrator_init(t, &nr, me, tr, card_cb, say_cb, &sc);
    fig_narrate_step(&nr, step, before, after);
    char url[64] = "";
    for (int i = 0; i < step->events.n; i++)
        if (step->events.ev[i].type == FIG_EV_GAME_OVER)
            record_url(t, e->game, url, sizeof url);
    fig_proto_show_t show = { t->row.open };
    return fig_proto_game_event(t->row.code, e->n, e->game, step, t->row.players, after, me,
                                &show, sc.say, url[0] ? url : NULL);
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
        }
        break;
    default:
        break;
    }
}

/* A seat's news, a chat line, a rematch vote or a game's start, the same for
 * everyone but for the language. A start and a seat's news carry the seats
 * as they are now (who sits where; a bot's name never changes: bot_name). A
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
    return fig_proto_other_event(&o);
}

static logent_t *log_put(fig_table_t *t, ev_kind_t kind)
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

static void broadcast_other(fig_table_t *t, const logent_t *e)
{
    for (int i = 0; i < t->npeers; i++)
        send_json(t, &t->peers[i], render_other(t, e, t->peers[i].tr));
}

/* Seat s's news, told with `name` (NULL: its name now). */
static void seat_news_as(fig_table_t *t, int s, news_t news, const char *name)
{
    name_t names[FIG_MAX_PLAYERS];
    seat_names(t, names);
    logent_t *e = log_put(t, EV_SEAT);
    e->seat = s;
    e->news = news;
    e->tally = tally_now(t);
    snprintf(e->name, sizeof e->name, "%s", name ? name : names[s]);
    fig_logf(t->env->log, t->env->svc, t->logp, "seat %d (%s): %s", s, e->name, news_names[news]);
    broadcast_other(t, e);
}

static void seat_news(fig_table_t *t, int s, news_t news) { seat_news_as(t, s, news, NULL); }

/* A step of the match, told to every peer. prev: the state before it. */
static void hint_cancel(fig_table_t *t);

static void emit_game(fig_table_t *t, const fig_match_step_t *step, const fig_state_t *prev)
{
    hint_cancel(t);   /* the turn moves on: a hint still out answers nothing now */
    logent_t *e = log_put(t, step->deal ? EV_DEAL : EV_ACTION);
    e->pos = t->steps++;
    t->game_n = e->n;
    for (int i = 0; i < t->npeers; i++) {
        const peer_t *p = &t->peers[i];
        int seat = p->seat >= 0 ? p->seat : 0;
        fig_view_t before, after;
        fig_view_of(prev, seat, &before);
        fig_match_view(t->match, seat, &after);
        send_json(t, p, render_game(t, e, step, &before, &after, p->seat, p->tr));
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
    record_names(t, o->names);
    memcpy(o->bots, bots, sizeof o->bots);
    o->move_ms = t->env->max_bot_ms;
    o->pool = t->env->pool;
    o->on_fault = on_fault;
    o->fault_user = t;
}

static void set_match(fig_table_t *t, fig_match_t *m)
{
    hint_cancel(t);
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

static void pump(fig_table_t *t);
static void maybe_rematch(fig_table_t *t);

/* The seats a bot plays changed: the same game, with other bots (the caller
 * moves it on with pump). */
static void rebuild(fig_table_t *t)
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
static void back_to_storage(fig_table_t *t)
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
static void rebuilt(fig_table_t *t, op_t *op)
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

static int moves_of(const fig_game_t *g)
{
    return g->nmoves[0] + g->nmoves[1] + g->nmoves[2];
}

static void set_turn_deadline(fig_table_t *t)
{
    if (!running(t) || fig_match_status(t->match) != FIG_MATCH_WAIT_HUMAN) {
        t->turn_deadline = -1;
        return;
    }
    int s = fig_match_turn(t->match);
    if (t->row.move_seconds <= 0 || t->row.seats[s].kind != FIG_DB_SEAT_PERSON ||
        t->seat[s].bot_plays) {
        t->turn_deadline = -1;
        return;
    }
    if (t->turn_for != t->game_n || t->turn_deadline < 0) {
        t->turn_deadline = now(t) + t->row.move_seconds * 1000LL;
        t->turn_for = t->game_n;
    }
}

/* ---- writes */

static op_t *op_new(fig_table_t *t, op_kind_t kind, void *peer, const fig_tr_t *tr)
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

static fig_db_write_t *op_write(fig_table_t *t, op_t *op, fig_db_write_kind_t kind)
{
    fig_db_write_t *w = &op->b.w[op->b.n++];
    w->kind = kind;
    snprintf(w->code, sizeof w->code, "%s", t->row.code);
    return w;
}

/* The table is busy from here until fig_table_written. Every write
 * reserves the event numbers of the next EV_RESERVE events. */
static void submit(fig_table_t *t, op_t *op)
{
    op_write(t, op, FIG_DBW_EVENTS)->ev = t->next_n + EV_RESERVE;
    t->inflight = op;
    t->env->submit(t->env->svc, &op->b);
}

/* The write of an action (the one the match is about to apply or just
 * applied): its place in the game and the event that will tell it. */
static void write_action(fig_table_t *t, op_t *op, int index, int seat, fig_action_t a)
{
    fig_db_write_t *w = op_write(t, op, FIG_DBW_ACTION);
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
static fig_err_t write_game(fig_table_t *t, op_t *op, long long ev, fig_msg_t *msg)
{
    uint64_t seed;
    fig_err_t rc = fig_random_u64(&seed, msg);
    if (rc)
        return rc;
    fig_db_write_t *w = op_write(t, op, FIG_DBW_GAME);
    w->game = t->game + 1;
    w->ev = ev;
    fig_setup_random(&w->setup, t->row.players, seed, NULL);
    return FIG_OK;
}

/* Reserves more event numbers when less than half of the reserve is left
 * and the table is free (chat and seat news write nothing of their own). */
static void reserve_numbers(fig_table_t *t)
{
    if (t->inflight || t->dead || t->next_n + EV_RESERVE / 2 <= t->hw)
        return;
    op_t *op = op_new(t, OP_EVENTS, NULL, NULL);
    if (op)
        submit(t, op);
}

/* Moves the game on as far as it goes without waiting and without writing:
 * deals are told at once (they follow from the seed); a bot's action is
 * stored first, and the table waits for that. */
static void pump(fig_table_t *t)
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
            emit_game(t, &step, &prev);
            continue;
        }
        op_t *op = op_new(t, OP_ACTION, NULL, NULL);
        if (!op) {
            t->env->stats->storage_errors++;
            fig_logf(t->env->log, t->env->svc, t->logp,
                     "a bot's action was not stored: out of memory");
            back_to_storage(t);
            return;
        }
        write_action(t, op, index, step.seat, step.action);
        op->step = step;
        op->prev = prev;
        submit(t, op);
        return;
    }
    set_turn_deadline(t);
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
            seat_news(t, s, NEWS_BOT);
            any = true;
        }
    return any;
}

/* Game `g` (stored with `setup`) begins: bots, match, told. The caller
 * moves it on (pump). */
static fig_proto_code_t start_stored(fig_table_t *t, int g, const fig_setup_t *setup,
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
    logent_t *e = log_put(t, EV_START);
    t->game_n = e->n;
    fig_logf(t->env->log, t->env->svc, t->logp, "game %d starts", g);
    broadcast_other(t, e);
    return FIG_PC_NONE;
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
    op_t *op = t ? op_new(t, OP_CREATE, peer, tr) : NULL;
    if (!op) {
        free(t);
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    t->log_lo = t->next_n;
    op_write(t, op, FIG_DBW_TABLE)->row = *row;
    bool open = false;
    for (int s = 0; s < row->players; s++)
        open |= row->seats[s].kind == FIG_DB_SEAT_OPEN;
    if (!open) {   /* no person to wait for: the first game starts with it */
        op->start = true;
        fig_err_t rc = write_game(t, op, t->next_n, msg);
        if (rc) {
            free(op);
            free(t);
            return rc;
        }
    }
    submit(t, op);
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
    pump(t);
    reserve_numbers(t);   /* before anything is told, this life's numbers are stored */
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

static void hint_done(fig_table_t *t);

void fig_table_ready(fig_table_t *t)
{
    hint_done(t);
    if (t->inflight && t->match)
        fig_match_idle(t->match);   /* takes the answer in (and empties the pipe) for later */
    else
        pump(t);
}

long long fig_table_deadline(const fig_table_t *t)
{
    long long d = t->turn_deadline;
    if (t->inflight)
        return -1;   /* nothing changes until the write is back; then deadlines count */
    if (!t->match)
        return d;
    if (!running(t)) {
        /* Over: once somebody asked, an absent person's grace still ends (a
         * bot agrees for them), and a vote that is complete (the server
         * restarted between the last vote and the next game's write) is
         * carried out at once. */
        tally_t y = tally_now(t);
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
    if (!t->match || t->inflight || !running(t)) {
        if (t->match && !t->inflight)
            maybe_rematch(t);   /* an absent person's grace may be over: a bot agrees */
        reserve_numbers(t);
        return;
    }
    bool changed = bots_for_the_absent(t, t_now);
    if (t->turn_deadline >= 0 && t_now >= t->turn_deadline) {
        t->turn_deadline = -1;
        int s = fig_match_turn(t->match);
        if (fig_match_status(t->match) == FIG_MATCH_WAIT_HUMAN &&
            t->row.seats[s].kind == FIG_DB_SEAT_PERSON && !t->seat[s].bot_plays) {
            t->seat[s].bot_plays = true;
            seat_news(t, s, NEWS_TIMEOUT);
            changed = true;
        }
    }
    if (changed) {
        rebuild(t);
        pump(t);
    }
    reserve_numbers(t);
}

/* ---- peers */

static bool attach(fig_table_t *t, void *p, const fig_tr_t *tr, int seat)
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
static int unlink_peer(fig_table_t *t, void *p)
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
static void settle_presence(fig_table_t *t)
{
    for (int s = 0; s < t->row.players; s++)
        if (t->row.seats[s].kind == FIG_DB_SEAT_PERSON && !seat_held(t, s) &&
            !t->seat[s].away) {
            t->seat[s].away = true;
            t->seat[s].away_at = now(t);
            seat_news(t, s, NEWS_AWAY);
        }
}


void fig_table_detach(fig_table_t *t, void *p)
{
    if (t->inflight && t->inflight->peer == p)
        t->inflight->peer = NULL;   /* its answer has nobody to go to */
    if (t->hint.peer == p)
        hint_cancel(t);
    unlink_peer(t, p);
    if (!t->inflight) {
        settle_presence(t);   /* else once the write is back: no event meanwhile */
        reserve_numbers(t);
    }
}

static const char *seat_kind_name(fig_db_seat_kind_t k)
{
    static const char *const names[] = { "open", "person", "bot", "engine" };
    return names[k];
}

static int seats_say(const fig_table_t *t, fig_proto_seat_info_t out[], name_t names[])
{
    seat_names(t, names);
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
        narrator_init(t, &c.nr, me, tr, card_cb, say_cb, &c.sc);
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

static json_t *snapshot(const fig_table_t *t, int me, const fig_tr_t *tr)
{
    fig_proto_seat_info_t seats[FIG_MAX_PLAYERS];
    name_t names[FIG_MAX_PLAYERS];
    seats_say(t, seats, names);
    long long left = t->turn_deadline >= 0 ? t->turn_deadline - now(t) : -1;
    fig_proto_snapshot_t snap = {
        .table = t->row.code, .epoch = t->env->epoch, .n = t->next_n - 1, .game_n = t->game_n,
        .game = t->game, .state = !t->match ? "waiting" : running(t) ? "playing" : "over",
        .me = me, .players = t->row.players, .move_seconds = t->row.move_seconds,
        .open = t->row.open, .hints = t->row.hints, .fill = t->row.fill, .seats = seats,
        .turn_ms_left = left >= 0 ? left : -1,
    };
    fig_view_t v;
    fig_proto_tally_t ty;
    char url[64];
    if (t->match) {
        fig_match_view(t->match, me >= 0 ? me : 0, &v);
        snap.view = &v;
        snap.game_rec = fig_match_game(t->match);
        if (!running(t)) {
            tally_t y = tally_now(t);
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
            json_t *j = render_game(c->t, e, step, before, after, c->me, c->tr);
            c->frames[n - c->from - 1] = fig_proto_dump(j, NULL);
            json_decref(j);
        }
    }
}

/* The end of a catch-up: the peer has every event up to n. */
static void caught_up(fig_table_t *t, const peer_t *p)
{
    send_json(t, p, fig_proto_caught_up(t->row.code, t->next_n - 1));
}

/* Sends the events after `since` when they are all still here, from this
 * life of the server and this game, then `caught_up`; else a snapshot. */
static void welcome(fig_table_t *t, const peer_t *p, const fig_table_since_t *since)
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
        send_json(t, p, snapshot(t, p->seat, p->tr));
        return;
    }
    int count = (int)(last - since->n);
    if (count == 0) {   /* nothing missed: said, so the client knows it is current */
        caught_up(t, p);
        return;
    }
    catchup_t c = { t, since->n, last, calloc((size_t)count, sizeof(char *)), p->seat, p->tr, 0 };
    if (!c.frames) {
        send_json(t, p, snapshot(t, p->seat, p->tr));
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
        send_json(t, p, snapshot(t, p->seat, p->tr));
    for (int i = 0; i < count; i++)
        free(c.frames[i]);
    free(c.frames);
}

static fig_proto_code_t storage_error(fig_table_t *t, const fig_tr_t *tr, const fig_msg_t *why,
                                      fig_msg_t *msg)
{
    t->env->stats->storage_errors++;
    fig_logf(t->env->log, t->env->svc, t->logp, "storage: %s", why->text);
    fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("the server could not store that; nothing was done"));
    return FIG_PC_STORAGE;
}

/* A name not used by another seat (ignoring case), a bot's included: the
 * name, else name2, name3, ... (cut to stay within FIG_PROTO_NAME_CHARS). */
static void unique_name(const fig_table_t *t, int seat, const char *want, char out[])
{
    name_t names[FIG_MAX_PLAYERS];
    seat_names(t, names);
    snprintf(out, FIG_PROTO_NAME_BYTES + 1, "%s", want);
    for (int k = 2; k < 100; k++) {
        bool clash = false;
        for (int s = 0; s < t->row.players; s++)
            if (s != seat && (strcasecmp(names[s], out) == 0 ||
                              strcasecmp(bot_name(t, s), out) == 0))
                clash = true;
        if (!clash)
            return;
        char cut[FIG_PROTO_NAME_BYTES - 1], both[FIG_PROTO_NAME_BYTES + 16];
        fig_proto_name_cut(want, FIG_PROTO_NAME_CHARS - (k < 10 ? 1 : 2), cut, sizeof cut);
        snprintf(both, sizeof both, "%s%d", cut, k);   /* at most 126 bytes and 2 digits */
        memcpy(out, both, FIG_PROTO_NAME_BYTES + 1);
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
    snprintf(want, sizeof want, "%s", name && name[0] ? name : "Player");
    unique_name(t, seat, want, x.name);
    fig_msg_t why;
    if (fig_token_new(token, &why) || fig_sha256_hex(token, strlen(token), x.token_hash, &why))
        return storage_error(t, tr, &why, msg);
    op_t *op = op_new(t, OP_JOIN, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_db_write_t *w = op_write(t, op, FIG_DBW_SEAT);
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
        if (write_game(t, op, t->next_n + 1, &why)) {
            free(op);
            return storage_error(t, tr, &why, msg);
        }
    }
    submit(t, op);
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
        unlink_peer(t, p);   /* it watched: it is told again below */
    t->row.seats[seat] = *x;
    memset(&t->seat[seat], 0, sizeof t->seat[seat]);
    seat_news(t, seat, NEWS_TAKEN);
    fig_msg_t msg;
    if (op->start)
        start_stored(t, op->b.w[1].game, &op->b.w[1].setup, op->tr, &msg);   /* logged */
    else if (was_bot)
        rebuild(t);
    /* A connection that closed meanwhile never gets the token: its seat is
     * away from now on (settle_presence), and a bot plays it after the grace. */
    if (!p)
        return;
    if (!attach(t, p, op->tr, seat)) {
        t->env->fail(t->env->svc, p, FIG_PC_STORAGE, fig_tr_text(op->tr, "out of memory"),
                     "join", t->row.code);
        return;
    }
    peer_t *me = &t->peers[peer_index(t, p)];
    send_json(t, me, fig_proto_seated(t->row.code, seat, x->name, op->token));
    fig_table_since_t since = { op->has_since, op->epoch, op->since };
    welcome(t, me, &since);
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
    unlink_peer(t, p);
    /* Whoever held the seat until now watches from here on. */
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].seat == seat) {
            t->peers[i].seat = -1;
            send_json(t, &t->peers[i], fig_proto_seat_msg("unseated", t->row.code, seat));
        }
    seat_t *st = &t->seat[seat];
    bool bot = st->bot_plays, away = st->away;
    st->away = false;
    st->bot_plays = false;
    if (bot || away)
        seat_news(t, seat, NEWS_BACK);   /* the peer is attached after: its snapshot follows */
    if (bot)
        rebuild(t);
    if (!attach(t, p, tr, seat)) {
        settle_presence(t);
        pump(t);
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    peer_t *me = &t->peers[peer_index(t, p)];
    send_json(t, me, fig_proto_seated(t->row.code, seat, t->row.seats[seat].name, NULL));
    welcome(t, me, since);
    set_turn_deadline(t);
    pump(t);
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
    if (!attach(t, p, tr, -1)) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    welcome(t, &t->peers[peer_index(t, p)], since);
    return FIG_PC_NONE;
}

static int seat_of(const fig_table_t *t, const void *p)
{
    int i = peer_index(t, p);
    return i >= 0 ? t->peers[i].seat : -1;
}

static fig_proto_code_t not_seated(const fig_table_t *t, const fig_tr_t *tr, fig_msg_t *msg)
{
    fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("you hold no seat at table %s"), t->row.code);
    return FIG_PC_NOT_SEATED;
}

fig_proto_code_t fig_table_act(fig_table_t *t, void *p, const fig_tr_t *tr, long long n,
                               const char *action, long long latency_from, fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return not_seated(t, tr, msg);
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
    /* The verdict depends only on what the mover knows (state.h). */
    if (fig_state_check_tr(&g->state, a, tr, msg) != FIG_OK)
        return FIG_PC_ILLEGAL;
    op_t *op = op_new(t, OP_ACTION, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    write_action(t, op, moves_of(g), s, a);
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
    submit(t, op);
    hint_cancel(t);   /* the seat has moved */
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
        back_to_storage(t);   /* the match forgets it; a bot thinks again */
        if (op->peer)
            t->env->fail(t->env->svc, op->peer, FIG_PC_STORAGE,
                         fig_tr_text(op->tr, "the server could not store that; nothing was "
                                             "done"), "act", t->row.code);
        return;
    }
    t->env->stats->actions++;
    emit_game(t, &op->step, &op->prev);
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
        return not_seated(t, tr, msg);
    op_t *op = op_new(t, OP_LEAVE, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_db_write_t *w = op_write(t, op, FIG_DBW_SEAT);
    w->seat = s;
    w->seat_row.kind = FIG_DB_SEAT_OPEN;
    op->seat = s;
    submit(t, op);
    return FIG_PC_NONE;
}

static void leave_stored(fig_table_t *t, op_t *op)
{
    int s = op->seat;
    name_t names[FIG_MAX_PLAYERS];
    seat_names(t, names);
    t->row.seats[s] = op->b.w[0].seat_row;
    memset(&t->seat[s], 0, sizeof t->seat[s]);
    seat_news_as(t, s, NEWS_LEFT, names[s]);   /* with the name it had; the vote without it */
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].seat == s)
            t->peers[i].seat = -1;   /* every connection of that seat watches now */
    int i = op->peer ? peer_index(t, op->peer) : -1;
    if (i >= 0) {
        send_json(t, &t->peers[i], fig_proto_seat_msg("left", t->row.code, s));
    }
    rebuild(t);
}

fig_proto_code_t fig_table_back(fig_table_t *t, void *p, const fig_tr_t *tr, fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return not_seated(t, tr, msg);
    if (!t->seat[s].bot_plays)
        return FIG_PC_NONE;
    t->seat[s].bot_plays = false;
    t->seat[s].away = false;
    seat_news(t, s, NEWS_BACK);
    rebuild(t);
    pump(t);
    return FIG_PC_NONE;
}

fig_proto_code_t fig_table_rematch(fig_table_t *t, void *p, const fig_tr_t *tr, int game,
                                   bool ready, fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return not_seated(t, tr, msg);
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
        seat_news(t, s, NEWS_BACK);
    }
    if ((t->row.seats[s].rematch == t->game) == ready) {
        maybe_rematch(t);   /* nothing to store; coming back may have changed the count */
        return FIG_PC_NONE;
    }
    op_t *op = op_new(t, OP_VOTE, p, tr);
    if (!op) {
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    fig_db_write_t *w = op_write(t, op, FIG_DBW_SEAT);
    w->seat = s;
    w->seat_row = t->row.seats[s];
    w->seat_row.rematch = ready ? t->game : 0;
    op->seat = s;
    op->ready = ready;
    submit(t, op);
    return FIG_PC_NONE;
}

/* A vote is stored: everyone is told who asked or withdrew and the count
 * (fig_table_written then starts the game if that was the last one). */
static void vote_stored(fig_table_t *t, op_t *op)
{
    int s = op->seat;
    t->row.seats[s] = op->b.w[0].seat_row;
    name_t names[FIG_MAX_PLAYERS];
    seat_names(t, names);
    logent_t *e = log_put(t, EV_REMATCH);
    e->seat = s;
    e->ready = op->ready;
    e->tally = tally_now(t);
    snprintf(e->name, sizeof e->name, "%s", names[s]);
    fig_logf(t->env->log, t->env->svc, t->logp,
             "seat %d (%s): %s a rematch, %d of %d ready", s, e->name,
             op->ready ? "asks for" : "withdraws from", e->tally.ready, e->tally.of);
    broadcast_other(t, e);
}

/* Once a game is over and every person whose vote counts asked for the next
 * one, the next game is stored, then started (start_stored). */
static void maybe_rematch(fig_table_t *t)
{
    if (t->inflight || t->dead || !t->match || running(t) || now(t) < t->rematch_retry)
        return;
    tally_t y = tally_now(t);
    if (y.ready == 0)
        return;   /* nobody asked: nothing waits for the absent */
    /* A person away longer than the grace period is played by a bot from the
     * next game on: the vote does not wait for them. */
    bots_for_the_absent(t, now(t));
    y = tally_now(t);
    if (!rematch_due(&y))
        return;
    op_t *op = op_new(t, OP_START, NULL, NULL);
    if (!op) {
        fig_logf(t->env->log, t->env->svc, t->logp, "the rematch cannot start: out of memory");
        return;
    }
    fig_msg_t why;
    if (write_game(t, op, t->next_n, &why)) {
        fig_logf(t->env->log, t->env->svc, t->logp, "the rematch cannot start: %s", why.text);
        free(op);
        t->rematch_retry = now(t) + 1000;   /* tried again later, as after a failed write */
        return;
    }
    submit(t, op);
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
    logent_t *e = log_put(t, EV_CHAT);
    e->seat = s;
    if (s >= 0) {
        name_t names[FIG_MAX_PLAYERS];
        seat_names(t, names);
        snprintf(e->name, sizeof e->name, "%s", names[s]);
    } else {
        snprintf(e->name, sizeof e->name, "%s", name);
    }
    snprintf(e->text, sizeof e->text, "%s", text);
    broadcast_other(t, e);
    reserve_numbers(t);
    return FIG_PC_NONE;
}

/* ---- hints */

/* Stops the hint being thought of, if any: its worker stops early. */
static void hint_cancel(fig_table_t *t)
{
    if (!t->hint.h)
        return;
    t->env->unwatch(t->env->svc, fig_hint_fd(t->hint.h));
    fig_hint_free(t->hint.h);
    t->hint.h = NULL;
    t->hint.peer = NULL;
}

fig_proto_code_t fig_table_hint(fig_table_t *t, void *p, const fig_tr_t *tr, long long n,
                                fig_msg_t *msg)
{
    int s = seat_of(t, p);
    if (s < 0)
        return not_seated(t, tr, msg);
    if (!t->row.hints) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("this table was made without hints"));
        return FIG_PC_HINTS_OFF;
    }
    if (!t->match) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("the game has not started: seats are still "
                                               "open"));
        return FIG_PC_NOT_STARTED;
    }
    if (n != t->game_n) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("that hint answers event %lld, but the game is "
                                               "at event %lld"), n, t->game_n);
        return FIG_PC_STALE;
    }
    if (t->inflight || fig_match_status(t->match) != FIG_MATCH_WAIT_HUMAN ||
        fig_match_turn(t->match) != s || t->seat[s].bot_plays) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a hint is for your turn"));
        return FIG_PC_NOT_YOUR_TURN;
    }
    if (t->hint.h && t->hint.seat == s) {   /* asked already for this turn: one search */
        t->hint.peer = p;
        t->hint.tr = tr;
        return FIG_PC_NONE;
    }
    fig_msg_t why;
    if (fig_hint_new(&t->hint.h, t->env->pool, &why) ||
        fig_hint_ask(t->hint.h, fig_match_game(t->match), s, NULL, (long)n, &why)) {
        fig_hint_free(t->hint.h);
        t->hint.h = NULL;
        fig_logf(t->env->log, t->env->svc, t->logp, "no hint: %s", why.text);
        fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
        return FIG_PC_STORAGE;
    }
    t->env->watch(t->env->svc, fig_hint_fd(t->hint.h), t);
    t->hint.peer = p;
    t->hint.tr = tr;
    t->hint.seat = s;
    return FIG_PC_NONE;
}

/* The hint's answer, if it is in, goes to the seat that asked (its hand
 * shows in it: nobody else ever gets it, R14), in their language. */
static void hint_done(fig_table_t *t)
{
    fig_action_t a;
    long tag;
    if (!t->hint.h || !fig_hint_take(t->hint.h, &a, &tag))
        return;
    int i = t->hint.peer ? peer_index(t, t->hint.peer) : -1;
    if (i >= 0 && tag == t->game_n && t->peers[i].seat == t->hint.seat &&
        !t->seat[t->hint.seat].bot_plays) {
        fig_view_t v;
        fig_match_view(t->match, t->hint.seat, &v);
        fig_analysis_t an;
        bool has = fig_hint_analysis(t->hint.h, &an);
        fig_narrator_t nr;
        narrator_init(t, &nr, t->hint.seat, t->hint.tr, card_cb, NULL, NULL);
        fig_hint_text_t *ht = malloc(sizeof *ht);
        if (ht) {
            fig_hint_explain(&nr, &v, a, has ? &an : NULL, ht);
            send_json(t, &t->peers[i], fig_proto_hint(t->row.code, tag, ht));
            free(ht);
        }
    }
    hint_cancel(t);
}

static fig_err_t not_over(fig_msg_t *msg, int game)
{
    return fig_fail(msg, FIG_ERR_STATE, N_("game %d is not over: its record holds every hand"),
                    game);
}

fig_proto_code_t fig_table_review_seat(const fig_table_t *t, const void *peer,
                                       const fig_tr_t *tr, int game, int asked, int *seat,
                                       fig_msg_t *msg)
{
    int i = peer_index(t, peer);
    int s = i >= 0 ? t->peers[i].seat : -1;
    if (s < 0) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("only the people seated at the table may see a "
                                               "review, each of their own moves"));
        return FIG_PC_NOT_SEATED;
    }
    if (asked >= 0 && asked != s) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a review is of your own moves: you sit at seat "
                                               "%d, not %d"), s, asked);
        return FIG_PC_NOT_YOUR_SEAT;
    }
    if (game < 1 || game > t->game || !t->match) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("table %s has no game %d"), t->row.code, game);
        return FIG_PC_NOT_OVER;
    }
    if (game == t->game && (running(t) || t->inflight)) {
        fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("game %d is not over: its review comes after "
                                               "its end"), game);
        return FIG_PC_NOT_OVER;
    }
    *seat = s;
    return FIG_PC_NONE;
}

void fig_table_narrator(const fig_table_t *t, int me, const fig_tr_t *tr, fig_narrator_t *nr)
{
    narrator_init(t, nr, me, tr, card_cb, NULL, NULL);
}

fig_err_t fig_table_record(const fig_table_t *t, int game, fig_game_t *out, bool *stored,
                           fig_msg_t *msg)
{
    if (game < 1 || game > t->game || !t->match)
        return fig_fail(msg, FIG_ERR_INPUT, N_("table %s has no game %d"), t->row.code, game);
    *stored = game < t->game;
    if (*stored) {
        memset(out, 0, sizeof *out);
    } else {
        if (running(t) || t->inflight)   /* its last action may not be on the disk yet */
            return not_over(msg, game);
        *out = *fig_match_game(t->match);
    }
    out->has_names = true;
    record_names(t, out->names);
    return FIG_OK;
}

fig_err_t fig_table_record_stored(const fig_db_game_t *g, int game,
                                  const char names[][FIG_NAME_MAX + 1], fig_game_t *out,
                                  fig_msg_t *msg)
{
    fig_err_t rc = fig_db_game_record(g, out, msg);
    if (rc)
        return rc;
    if (!fig_game_over(out))
        return not_over(msg, game);
    out->has_names = true;
    memcpy(out->names, names, sizeof out->names);
    return FIG_OK;
}

/* ---- writes that came back */

static void create_stored(fig_table_t *t, op_t *op)
{
    fig_logf(t->env->log, t->env->svc, t->logp, "created (%d seats)", t->row.players);
    if (op->peer) {
        peer_t who = { op->peer, op->tr, -1 };
        send_json(t, &who, fig_proto_table_msg("created", t->row.code));
    }
    fig_msg_t msg;
    if (op->start)
        start_stored(t, op->b.w[1].game, &op->b.w[1].setup, NULL, &msg);   /* logged */
}

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
        rebuilt(t, op);
        free(op);
        settle_presence(t);
        pump(t);
        maybe_rematch(t);
        reserve_numbers(t);
        return;
    }
    static const char *const re[] = { "act", "join", "leave", "rematch", "create", "rematch",
                                      NULL };
    if (!op->b.rc && op->b.w[op->b.n - 1].ev > t->hw)
        t->hw = op->b.w[op->b.n - 1].ev;   /* the reserve it carried (submit) */
    if (op->kind != OP_ACTION && op->b.rc) {
        /* Nothing of the request happened: the database holds none of it. */
        t->env->stats->storage_errors++;
        fig_logf(t->env->log, t->env->svc, t->logp, "storage: %s", op->b.msg.text);
        if (op->peer)
            t->env->fail(t->env->svc, op->peer, FIG_PC_STORAGE,
                         fig_tr_text(op->tr, "the server could not store that; nothing was "
                                             "done"), re[op->kind], t->row.code);
        if (op->kind == OP_CREATE)
            t->dead = true;
        if (op->kind == OP_START && !op->peer)
            t->rematch_retry = now(t) + 1000;   /* the vote is complete: tried again later */
        free(op);
        if (!t->dead) {
            settle_presence(t);
            pump(t);   /* a reserve that failed is asked again at the next tick */
        }
        return;
    }
    fig_msg_t msg;
    switch (op->kind) {
    case OP_ACTION:
        action_stored(t, op);
        break;
    case OP_JOIN:
        join_stored(t, op);
        break;
    case OP_LEAVE:
        leave_stored(t, op);
        break;
    case OP_START: {
        fig_proto_code_t code = start_stored(t, op->b.w[0].game, &op->b.w[0].setup, op->tr,
                                             &msg);
        if (code && op->peer)
            t->env->fail(t->env->svc, op->peer, code, msg.text, "rematch", t->row.code);
        break;
    }
    case OP_CREATE:
        create_stored(t, op);
        break;
    case OP_VOTE:
        vote_stored(t, op);
        break;
    case OP_EVENTS:
    case OP_REBUILD:   /* taken above */
        break;
    }
    free(op);
    settle_presence(t);
    pump(t);
    maybe_rematch(t);   /* a vote, a seat left: maybe everyone left is ready now */
    reserve_numbers(t);
}
