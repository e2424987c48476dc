/* SPDX-License-Identifier: MIT */
/* table.h - one table of the server: its seats and tokens, its current game
 * (a fig_match_t on the service's shared pool), its numbered events, the
 * people watching it, the grace period of a person who left and the time
 * limit of a person's turn.
 *
 * A table talks to its peers (connections, opaque `void *` here) through the
 * environment the service gives it (fig_table_env_t): a send function, the
 * storage, the pool. It never reads a socket: the service parses a client's
 * message (proto.h) and calls the request below; an error comes back as a
 * fig_proto_code_t with a sentence in the peer's language, and the table goes
 * on unchanged.
 *
 * Events are numbered per table from 1 and kept (the last FIG_TABLE_LOG) for
 * a peer that comes back saying the last number it saw; each is rendered for
 * each peer from that peer's view (R14): its own hand, never another's. A
 * peer that gets a snapshot instead gets the current game's story with it:
 * the sentences the live events carried to its seat, told again from the
 * record through its views.
 *
 * After a game, the next starts by agreement: every person seated votes
 * (fig_table_rematch), bots and people a bot plays for agree; the votes are
 * stored with the seats.
 *
 * Durability: every action a person or a bot makes is stored (fig_db_t)
 * before it is told to anyone; a seat is stored before its token is handed
 * out; a game before its start is told. Storing is asynchronous: a request
 * that writes hands a batch to env.submit (the service's writer thread,
 * net/store/writer.h) and returns; the table is then busy (fig_table_busy) until
 * the service gives the batch back through fig_table_written, and only then
 * does it acknowledge and tell. While busy the table writes nothing else and
 * tells nothing: the service holds back every request for it (and ticks
 * wait), the match is not moved on, so nobody sees a state that is not on
 * the disk, and the table's order of events is the order of its writes.
 *
 * Every call is made on the service's loop thread; none blocks. */
#ifndef FIGARO_NET_TABLE_H
#define FIGARO_NET_TABLE_H

#include <stdbool.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/narrate.h"
#include "host/pool.h"
#include "net/store/db.h"
#include "net/proto/proto.h"

enum {
    FIG_TABLE_LOG = 64,            /* events kept for catch-up */
    FIG_TABLE_LATENCY_BUCKETS = 13
};

/* The upper bounds (ms) of the move latency histogram's buckets, from half a
 * millisecond to seconds; the last bucket is +Inf. */
extern const double fig_table_latency_le[FIG_TABLE_LATENCY_BUCKETS - 1];

/* Counters the tables add to and the service shows (/metrics). */
typedef struct {
    unsigned long long actions;            /* actions applied (people and bots) */
    unsigned long long events;             /* events told */
    unsigned long long frames;             /* frames sent */
    unsigned long long storage_errors;
    unsigned long long latency[FIG_TABLE_LATENCY_BUCKETS];   /* per bucket, not cumulative */
    unsigned long long latency_count;
    double latency_sum_ms;
} fig_table_stats_t;

typedef struct fig_table fig_table_t;

/* What the service lends every table. */
typedef struct {
    void *svc;
    /* Queues a text frame to a peer (it copies the text). */
    void (*send)(void *svc, void *peer, const char *text, size_t len);
    /* An error for a peer, answering a request whose outcome came later
     * (its write failed): code, a sentence in the peer's language, the
     * request's type. */
    void (*fail)(void *svc, void *peer, fig_proto_code_t code, const char *text, const char *re,
                 const char *table);
    /* Hands a batch of writes to the writer (b->user is the table); it comes
     * back through fig_table_written. */
    void (*submit)(void *svc, fig_db_batch_t *b);
    void (*watch)(void *svc, int fd, fig_table_t *t);
    void (*unwatch)(void *svc, int fd);
    /* "cmd:..." spec of the operator's engine `name`, or NULL. */
    const char *(*engine)(void *svc, const char *name);
    /* One log line. */
    void (*log)(void *svc, const char *line);
    /* The clock (ms, monotonic) of the service. */
    long long (*now)(void *svc);
    /* The public id of the person signed in on a peer ("": nobody): a seat
     * it takes is theirs (fig_db_seat_t.person). */
    const char *(*person_of)(void *svc, void *peer);
    /* A rated game's result is stored: r's seats hold each person's rating
     * before and after (docs/protocol.md, rated). */
    void (*rated)(void *svc, const char *table, int game, const fig_db_result_t *r);
    /* A seat of t changed person (fig_db_seat_t.person, an open seat's
     * leaver included): `was` is the one it had, `now` the one it has
     * (either may be ""). Told after the change; NULL: nobody listens. */
    void (*seat_person)(void *svc, fig_table_t *t, const char *was, const char *now);
    fig_pool_t *pool;
    int grace_ms;
    int max_bot_ms;                        /* 0: the levels' own time */
    char epoch[FIG_PROTO_EPOCH_LEN + 1];   /* this life of the server */
    fig_table_stats_t *stats;
} fig_table_env_t;

/* A new table from its row (seats open, bots, engines; code, options and seed
 * chosen by the service), busy until it is stored: then `peer` (who asked)
 * is sent `created`, and the first game starts when no seat is open for a
 * person. If storing fails, peer is told and the table is dead
 * (fig_table_dead): the service frees it. */
fig_err_t fig_table_create(fig_table_t **out, const fig_table_env_t *env, const fig_db_table_t *row,
                           void *peer, const fig_tr_t *tr, fig_msg_t *msg);

/* A table loaded from storage, with its latest game (NULL: none started),
 * replayed; the people are away (their grace period starts now) and the bots
 * think again. */
fig_err_t fig_table_restore(fig_table_t **out, const fig_table_env_t *env,
                            const fig_db_table_t *row, const fig_db_game_t *last, fig_msg_t *msg);

/* Frees the table and its match (returns at once). A batch still with the
 * writer must not come back to it: the service drops those. NULL is a
 * no-op. */
void fig_table_free(fig_table_t *t);

/* Whether a write of the table is on its way to the disk: requests wait. */
bool fig_table_busy(const fig_table_t *t);
/* After a failed write of an action, the table reads back the game the
 * database holds (through the writer thread: never on the loop thread) and
 * is busy meanwhile; an `act` that comes then is refused at once with
 * FIG_PC_STORAGE (fig_table_refuse_rebuilding fills msg), not queued. */
bool fig_table_rebuilding(const fig_table_t *t);
fig_proto_code_t fig_table_refuse_rebuilding(const fig_table_t *t, const fig_tr_t *tr,
                                             fig_msg_t *msg);

/* A batch the table submitted came back from the writer, written or not
 * (b->rc): the table frees it, acknowledges or refuses what it held, tells
 * the table, and moves the game on. */
void fig_table_written(fig_table_t *t, fig_db_batch_t *b);
/* (A batch refused because another server drives the table, b->fenced,
 * changes nothing and starts nothing: the service drops the table.) */

/* Creating it failed: the service removes and frees it. */
bool fig_table_dead(const fig_table_t *t);

/* Whether peer is at the table (seated or watching). */
bool fig_table_attached(const fig_table_t *t, const void *peer);
/* The peers at the table (seated or watching): how many, and the i-th
 * (0 <= i < that), in no order. */
int fig_table_npeers(const fig_table_t *t);
void *fig_table_peer(const fig_table_t *t, int i);

/* Since when (service clock, ms) nobody watches or sits at the table, or -1
 * while someone does or a write is on its way. */
long long fig_table_idle_since(const fig_table_t *t);

/* Whether the table is in the lobby (docs/protocol.md, lobby: listed, stored,
 * an open seat, its first game not started), and then *out as the lobby
 * shows it (table_lobby.c). */
bool fig_table_lobby(const fig_table_t *t, fig_lobby_table_t *out);

/* A table's row as the lobby shows it (*out), if it may be there: listed,
 * with an open seat (whether its first game started is the caller's to
 * say: the row does not). */
bool fig_table_lobby_row(const fig_db_table_t *r, fig_lobby_table_t *out);

/* Whether its latest game is over (and no other has started). */
bool fig_table_over(const fig_table_t *t);

const char *fig_table_code(const fig_table_t *t);

/* The descriptor became readable: moves the game on. */
void fig_table_ready(fig_table_t *t);

/* The next time (service clock, ms) the table has something to do, or -1. */
long long fig_table_deadline(const fig_table_t *t);

/* Grace periods and turn limits that ran out by `now`. */
void fig_table_tick(fig_table_t *t, long long now);

/* Whether a bot of this table is thinking (the bot queue of /metrics). */
bool fig_table_thinking(const fig_table_t *t);

/* Catch-up point a peer gives: its epoch and the last event it saw. */
typedef struct {
    bool has;
    const char *epoch;
    long long n;
} fig_table_since_t;

/* ---- requests of a peer; each returns FIG_PC_NONE or an error code with msg
 * (in tr's language); nothing changes on error. */

/* Takes an open seat (`seat`, or the first open one for -1) for `name`:
 * stores the seat with the hash of a new token, then sends the peer
 * `seated` (with the token: the only time it is ever sent) and a snapshot. */
fig_proto_code_t fig_table_join(fig_table_t *t, void *peer, const fig_tr_t *tr, const char *name,
                                int seat, const fig_table_since_t *since, fig_msg_t *msg);

/* ---- people (table_people.c) */

/* Takes back the seat `person` (a public id) holds at the table, as
 * fig_table_resume does with a token: `seated` without a token, then
 * catch-up or a snapshot. FIG_PC_NOT_YOUR_SEAT when they hold none. */
fig_proto_code_t fig_table_resume_person(fig_table_t *t, void *peer, const fig_tr_t *tr,
                                         const char *person, const fig_table_since_t *since,
                                         fig_msg_t *msg);

/* Person `person` is forgotten (the storage did or does the same): their
 * seats lose the link and their name becomes "Anonymous" (numbered when the
 * table has one), in the table's log of events too; each renamed seat's
 * row is written again (after any write of the table on its way, which may
 * hold the old name) and, once stored, everyone at the table is told (a
 * seat's news, `forgotten`). Nothing happens where no seat holds them. */
void fig_table_forget_person(fig_table_t *t, const char *person);

/* The person tied to seat s (a seat's, or the leaver an open seat keeps):
 * their public id, "" for none or a seat the table does not have. */
const char *fig_table_seat_person(const fig_table_t *t, int s);

/* Whether the table's options let its games be rated (net/table/rated.h: no
 * open hands, no hints, no `random` bot, no engine); whether a game is,
 * depends on who holds the seats at its end. */
bool fig_table_may_rate(const fig_table_t *t);

/* Takes a seat back with its token, from any connection (the one that held
 * it before is told `unseated`): catch-up from `since` or a snapshot. */
fig_proto_code_t fig_table_resume(fig_table_t *t, void *peer, const fig_tr_t *tr,
                                  const char *token, const fig_table_since_t *since,
                                  fig_msg_t *msg);

/* Watches the table: the public view. */
fig_proto_code_t fig_table_spectate(fig_table_t *t, void *peer, const fig_tr_t *tr,
                                    const fig_table_since_t *since, fig_msg_t *msg);

/* An action of the peer's seat, answering event n. `latency_from` is when
 * the frame came in (fig_clock_us), for the latency histogram. The action is
 * applied and stored; it is told (its event is the acknowledgement) once
 * stored, and refused with `storage` if that failed. */
fig_proto_code_t fig_table_act(fig_table_t *t, void *peer, const fig_tr_t *tr, long long n,
                               const char *action, long long latency_from, fig_msg_t *msg);

/* The peer gives up its seat (it opens again; a bot plays it meanwhile). */
fig_proto_code_t fig_table_leave(fig_table_t *t, void *peer, const fig_tr_t *tr, fig_msg_t *msg);

/* The peer takes back the seat a bot plays for it since a turn ran out. */
fig_proto_code_t fig_table_back(fig_table_t *t, void *peer, const fig_tr_t *tr, fig_msg_t *msg);

/* The peer's vote for the next game, once game `game` is over: `ready`
 * asks for it, !ready withdraws. The vote is stored, then told to everyone
 * (an event `rematch` with the count); the next game starts once every
 * person whose vote counts asked (a bot, an open seat, a person a bot plays
 * for agree). A vote that changes nothing, or one for a game already
 * followed, does nothing (FIG_PC_NONE). */
fig_proto_code_t fig_table_rematch(fig_table_t *t, void *peer, const fig_tr_t *tr, int game,
                                   bool ready, fig_msg_t *msg);

/* A chat line from the peer (seated or watching), told to everyone. */
fig_proto_code_t fig_table_chat(fig_table_t *t, void *peer, const fig_tr_t *tr,
                                const char *name, const char *text, fig_msg_t *msg);

/* A hint for the peer's seat on its turn, whose latest event is n: the move
 * the search would make, with its reasons, comes later in a `hint` frame to
 * that peer alone, unless the turn moves on first (then none comes). Only at
 * a table made with hints; one search per turn. */
fig_proto_code_t fig_table_hint(fig_table_t *t, void *peer, const fig_tr_t *tr, long long n,
                                fig_msg_t *msg);

/* Whether the peer may have the review of game `game` (docs/protocol.md,
 * review): it sits at the table (FIG_PC_NOT_SEATED: a spectator), `asked`
 * is its seat or -1 (FIG_PC_NOT_YOUR_SEAT: a review is of one's own moves,
 * never another seat's) and the game is over (FIG_PC_NOT_OVER, also for a
 * game the table never had). Then *seat is the peer's seat. */
fig_proto_code_t fig_table_review_seat(const fig_table_t *t, const void *peer,
                                       const fig_tr_t *tr, int game, int asked, int *seat,
                                       fig_msg_t *msg);

/* A narrator for seat `me` (-1: nobody) with the seats' names as people see
 * them, in tr's language (for the words of a review). */
void fig_table_narrator(const fig_table_t *t, int me, const fig_tr_t *tr, fig_narrator_t *nr);

/* The peer's connection closed: its seat (if any) is away from now. */
void fig_table_detach(fig_table_t *t, void *peer);

/* Game `game`'s record for download, once that game is over (before, it
 * would show every hand: FIG_ERR_STATE; no such game: FIG_ERR_INPUT), with
 * the seats' names. The current game's is in memory: *out is it. An earlier
 * game's is in the storage, which the loop thread never reads: *stored is
 * set and *out holds only the names; the caller has the game read off the
 * loop (a read batch, net/store/db.h) and finishes with fig_table_record_stored,
 * which needs no table (it may be gone by then). */
fig_err_t fig_table_record(const fig_table_t *t, int game, fig_game_t *out, bool *stored,
                           fig_msg_t *msg);
fig_err_t fig_table_record_stored(const fig_db_game_t *g, int game,
                                  const char names[][FIG_NAME_MAX + 1], fig_game_t *out,
                                  fig_msg_t *msg);

#endif
