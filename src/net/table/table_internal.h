/* SPDX-License-Identifier: MIT */
/* table_internal.h - what the files of one table share: the table itself,
 * its events, peers and writes, small helpers, and what each file offers the
 * others. Only those files include it; the service sees table.h. The files,
 * lowest first (each calls only those before it): table_tell.c (what each
 * receiver is told: frames, the event log, the story, snapshots, catch-up),
 * table_hint.c, table_record.c, table_result.c (a game's end as its people
 * keep it), table_machine.c (the state machine: the match, writes and pump,
 * lifecycle, clocks, presence, the rematch), table_requests.c (each request
 * beside the step it takes once its write is back: fig_table_written),
 * table_people.c (a seat taken back by its person, a person forgotten). */
#ifndef FIGARO_NET_TABLE_INTERNAL_H
#define FIGARO_NET_TABLE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/hint.h"
#include "host/narrate.h"
#include "net/table/table.h"
#include "net/base/token.h"

typedef enum { EV_START, EV_DEAL, EV_ACTION, EV_SEAT, EV_CHAT, EV_REMATCH } ev_kind_t;

/* What happened to a seat (EV_SEAT). */
typedef enum {
    NEWS_TAKEN, NEWS_AWAY, NEWS_BOT, NEWS_TIMEOUT, NEWS_BACK, NEWS_LEFT,
    NEWS_FORGOTTEN   /* its person was forgotten: the seat has its new name */
} news_t;

/* A seat's part in the vote for the next game, once a game is over: a person
 * who has not asked (waiting), a person who has (ready), or a seat whose
 * consent is taken: a bot, an engine, an open seat, a person a bot plays for
 * (their grace period is over, or their time ran out). */
typedef enum { VOTE_BOT, VOTE_WAITING, VOTE_READY } vote_t;

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
    char name[FIG_PERSON_NAME_BYTES + 1];
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
    OP_RENAME,   /* a seat's new name after its person was forgotten (fig_tb_renames) */
    OP_REBUILD,  /* not a write: the read of the stored game (back_to_storage) */
    OP_KINDS     /* how many: the size of table_requests.c's op_ways */
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
    fig_db_result_t *result;              /* action: the game's end (FIG_DBW_RESULT), in the
                                             op's own block (fig_tb_with_result); NULL */
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
    unsigned renames;                     /* seats (bit s) renamed after a forget, whose rows
                                             are to be stored and whose news told */
    struct {                              /* the hint being thought of */
        fig_hint_t *h;                    /* NULL: none; its descriptor is watched */
        void *peer;                       /* who asked; NULL: gone */
        const fig_tr_t *tr;
        int seat;
    } hint;
    char logp[24];                        /* its log lines' prefix: "table K7M2QX: " */
};

/* A seat's name as people see it: FIG_PERSON_NAME_CHARS characters of UTF-8. */
typedef char name_t[FIG_PERSON_NAME_BYTES + 1];

typedef struct {
    json_t *say;
} say_ctx_t;

/* ---- small helpers */

static inline long long now(const fig_table_t *t) { return t->env->now(t->env->svc); }

static inline bool running(const fig_table_t *t)
{
    return t->match && !fig_game_over(fig_match_game(t->match));
}

/* Whether seat s has a move clock when it is to move: the table has one and
 * a person, not the bot that stands in for them, plays the seat. The table
 * arms the deadline by it (fig_tb_set_turn_deadline) and the frames tell it
 * (table_tell.c), so the two cannot disagree. */
static inline bool clock_for(const fig_table_t *t, int s)
{
    return t->row.move_seconds > 0 && t->row.seats[s].kind == FIG_DB_SEAT_PERSON &&
           !t->seat[s].bot_plays;
}

static inline int peer_index(const fig_table_t *t, const void *p)
{
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].p == p)
            return i;
    return -1;
}

static inline bool seat_held(const fig_table_t *t, int s)
{
    for (int i = 0; i < t->npeers; i++)
        if (t->peers[i].seat == s)
            return true;
    return false;
}

static inline int moves_of(const fig_game_t *g)
{
    return g->nmoves[0] + g->nmoves[1] + g->nmoves[2];
}

static inline int seat_of(const fig_table_t *t, const void *p)
{
    int i = peer_index(t, p);
    return i >= 0 ? t->peers[i].seat : -1;
}

/* ---- what each receiver is told (table_tell.c) */

const char *fig_tb_bot_name(const fig_table_t *t, int seat);
void fig_tb_seat_names(const fig_table_t *t, name_t names[]);
void fig_tb_record_names(const fig_table_t *t, char out[][FIG_NAME_MAX + 1]);
void fig_tb_narrator_init(const fig_table_t *t, fig_narrator_t *nr, int me, const fig_tr_t *tr,
                          fig_narrate_card_fn *card, fig_narrate_say_fn *say, void *ctx);
void fig_tb_send_json(fig_table_t *t, const peer_t *p, json_t *j);
tally_t fig_tb_tally_now(const fig_table_t *t);
const char *fig_tb_card_cb(void *ctx, int kind, char *buf, size_t cap);
json_t *fig_tb_render_game(const fig_table_t *t, const logent_t *e, const fig_match_step_t *step,
                           const fig_view_t *before, const fig_view_t *after, int me,
                           const fig_tr_t *tr);
logent_t *fig_tb_log_put(fig_table_t *t, ev_kind_t kind);
void fig_tb_broadcast_other(fig_table_t *t, const logent_t *e);
void fig_tb_seat_news_as(fig_table_t *t, int s, news_t news, const char *name);
json_t *fig_tb_snapshot(const fig_table_t *t, int me, const fig_tr_t *tr);
void fig_tb_welcome(fig_table_t *t, const peer_t *p, const fig_table_since_t *since);
fig_proto_code_t fig_tb_not_seated(const fig_table_t *t, const fig_tr_t *tr, fig_msg_t *msg);

/* ---- hints (table_hint.c) */

void fig_tb_hint_cancel(fig_table_t *t);
void fig_tb_hint_done(fig_table_t *t);

/* ---- a game's result for its people (table_result.c) */

op_t *fig_tb_with_result(fig_table_t *t, op_t *op);
void fig_tb_result_stored(fig_table_t *t, const op_t *op);

/* ---- the state machine (table_machine.c) */

void fig_tb_seat_news(fig_table_t *t, int s, news_t news);
void fig_tb_emit_game(fig_table_t *t, const fig_match_step_t *step, const fig_state_t *prev);
void fig_tb_rebuild(fig_table_t *t);
void fig_tb_back_to_storage(fig_table_t *t);
void fig_tb_rebuilt(fig_table_t *t, op_t *op);
void fig_tb_set_turn_deadline(fig_table_t *t);
op_t *fig_tb_op_new(fig_table_t *t, op_kind_t kind, void *peer, const fig_tr_t *tr);
fig_db_write_t *fig_tb_op_write(fig_table_t *t, op_t *op, fig_db_write_kind_t kind);
void fig_tb_submit(fig_table_t *t, op_t *op);
void fig_tb_write_action(fig_table_t *t, op_t *op, int index, int seat, fig_action_t a);
fig_err_t fig_tb_write_game(fig_table_t *t, op_t *op, long long ev, fig_msg_t *msg);
void fig_tb_reserve_numbers(fig_table_t *t);
void fig_tb_pump(fig_table_t *t);
fig_proto_code_t fig_tb_start_stored(fig_table_t *t, int g, const fig_setup_t *setup,
                                     const fig_tr_t *tr, fig_msg_t *msg);
bool fig_tb_attach(fig_table_t *t, void *p, const fig_tr_t *tr, int seat);
int fig_tb_unlink_peer(fig_table_t *t, void *p);
void fig_tb_settle_presence(fig_table_t *t);
void fig_tb_maybe_rematch(fig_table_t *t);

/* ---- a seat's person (table_machine.c) */

/* Seat s becomes x; the service is told if its person changed
 * (fig_table_env_t.seat_person). */
void fig_tb_seat_set(fig_table_t *t, int s, const fig_db_seat_t *x);
/* Seat s's person is cleared (the service told). */
void fig_tb_seat_unlink(fig_table_t *t, int s);

/* The next seat renamed after a forget (t->renames) stored, when the table
 * is free: its row as it is now, so that a write of the old name that went
 * before it is overwritten; once stored, everyone is told (NEWS_FORGOTTEN). */
void fig_tb_renames(fig_table_t *t);

/* ---- requests (table_requests.c), for table_people.c */

fig_proto_code_t fig_tb_resume_seat(fig_table_t *t, void *p, const fig_tr_t *tr, int seat,
                                    const fig_table_since_t *since, fig_msg_t *msg);

#endif
