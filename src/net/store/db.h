/* SPDX-License-Identifier: MIT */
/* db.h - where the table server keeps its tables: a small storage interface
 * (a vtable) and its back ends, chosen by the storage's URL (fig_db_open):
 * SQLite (db_sqlite.c, "sqlite:PATH", one server) and PostgreSQL (db_pg.c,
 * "postgresql://...", several servers sharing it, docs/scaling.md). Nothing
 * above this header knows which one runs.
 *
 * What is stored: tables (code, options, seed, creation time), their seats
 * (who sits: open, a person with the SHA-256 of their token -- never the
 * token --, a bot level, a registered engine's name; a person's rematch
 * vote), their games (the nth game of a table: its setup; a rematch is the
 * next game), the games' actions in order, and the reviews of its seats
 * once asked for; and people (below): a person, their keys' and device
 * codes' hashes, and the games they played with those games' records, kept
 * after the tables are gone. A game is its setup and its actions: the hands
 * follow from the setup's seed (fig_game_deal_seeded), so no hand is ever
 * stored.
 * Each game's seed is drawn from the system when the game is made, stored
 * with it, and derived from nothing (docs/server.md, "Fairness").
 *
 * Writes come in batches (fig_db_batch_t: the writes of one request, all
 * or none), and several batches are committed at once (fig_db_apply: one
 * transaction, one sync to the disk for all of them -- the group commit of
 * the server's writer thread, net/store/writer.h). A batch counts as written only
 * once fig_db_apply returned and its rc is FIG_OK: durable as the back end
 * promises (SQLite: committed, synchronous=FULL by default; PostgreSQL:
 * committed, synchronous_commit=on). The server
 * acknowledges and broadcasts an action only after that. A failed batch
 * changes nothing; the other batches of the same call are not affected
 * unless the commit itself fails, which fails them all.
 *
 * A handle is used by one thread at a time: the server keeps one for its
 * writer thread and one for loading its tables at start.
 *
 * Both back ends keep the same schema, with one version number whose
 * meaning they share (FIG_DB_SCHEMA): 1 the first, 2 the rematch votes and
 * the event numbers' high-water marks, 3 the tables' hints option, 4 the
 * seats' reviews, 5 people (a person, their keys, device codes, the games
 * they played and those games' records: "people" below), the seats' person
 * and the tables' listed option, 6 the log of the people forgotten
 * (fig_db_forgotten_since). Each creates it and upgrades an older one
 * when it opens, one version at a time, and refuses a newer one. */
#ifndef FIGARO_NET_DB_H
#define FIGARO_NET_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figaro/figaro.h"
#include "host/rating.h"
#include "net/base/names.h"
#include "net/base/token.h"

enum { FIG_DB_SCHEMA = 6 };
enum { FIG_DB_NODE_MAX = 64 };   /* a server's name among those sharing a database */
enum {
    FIG_DB_DEVICE_CODE = 8,      /* a device code's characters (fig_code_new) */
    FIG_DB_DEVICE_CODE_S = 600,  /* how long a device code lives, in seconds */
    FIG_DB_PERSON_SEATS = 8      /* fig_db_person_seats' most */
};

typedef enum {
    FIG_DB_SEAT_OPEN,      /* for a person, nobody sits */
    FIG_DB_SEAT_PERSON,    /* a person sits: token_hash */
    FIG_DB_SEAT_BOT,       /* a bot of level `what` */
    FIG_DB_SEAT_ENGINE     /* the operator's engine named `what` */
} fig_db_seat_kind_t;

typedef struct {
    fig_db_seat_kind_t kind;
    char what[FIG_ENGINE_NAME_MAX + 1];
    char name[FIG_PERSON_NAME_BYTES + 1];    /* a person's name (names.h); "" else */
    char token_hash[FIG_HASH_HEX + 1];      /* a person's; "" else */
    int rematch;                            /* a person's vote: the game after whose end
                                               they asked for the next one; 0: none */
    char person[FIG_PERSON_ID_LEN + 1];      /* the signed-in person whose seat it is (their
                                               public id); "": none (stored NULL, and so is
                                               the id of a person not stored: forgotten).
                                               An open seat's: who left it while the
                                               table's latest game ran (they rank last at
                                               its end, net/table/rated.h), kept until the next
                                               game starts (FIG_DBW_GAME); never shown */
} fig_db_seat_t;

typedef struct {
    char code[FIG_TABLE_CODE_LEN + 1];
    int players;
    fig_db_seat_t seats[FIG_MAX_PLAYERS];
    int move_seconds;                      /* a person's time per move, 0: none */
    bool open;                             /* stacks and roads shown in play */
    bool hints;                            /* the seated may ask for hints (everyone sees
                                              that they may) */
    bool listed;                           /* shown in the lobby (else invite-only) */
    char fill[FIG_LEVEL_NAME_MAX + 1];    /* the level that plays for an absent person */
    uint64_t seed;                         /* from getrandom, never shown, and no longer used:
                                              each game draws its own (fig_db_game_t) */
    long long created;                     /* Unix seconds */
    long long ev_hw;                       /* read: the event numbers told stayed at or
                                              below it (FIG_DBW_EVENTS); 0: none stored */
} fig_db_table_t;

enum { FIG_DB_GAME_ACTIONS = FIG_ROUNDS * FIG_MAX_ROUND_ACTIONS };

typedef struct {
    uint8_t seat;
    fig_action_t action;
    long long ev;                          /* the table's event number that told it */
} fig_db_action_t;

/* A stored game: its setup, and its actions in order. */
typedef struct {
    int game;                              /* 1, 2, ... */
    fig_setup_t setup;
    long long ev;                          /* the event number of its start */
    int nactions;
    fig_db_action_t actions[FIG_DB_GAME_ACTIONS];
} fig_db_game_t;

/* Receives one table at load: its row and seats, and its latest game (NULL
 * when none was started). Returning an error stops the load with it. */
typedef fig_err_t fig_db_table_fn(void *ctx, const fig_db_table_t *t, const fig_db_game_t *last,
                                  fig_msg_t *msg);

/* One write. */
typedef enum {
    FIG_DBW_TABLE,         /* a new table and its seats: row */
    FIG_DBW_SEAT,          /* seat `seat` of table `code` is now `seat_row` */
    FIG_DBW_GAME,          /* game `game` of `code` starts: setup, told by event ev; the
                              table's open seats lose their leaver (fig_db_seat_t.person) */
    FIG_DBW_ACTION,        /* action number `index` (0, 1, ...) of game `game`: storing an
                              index twice is refused (FIG_ERR_STATE), so an action is never
                              stored twice */
    FIG_DBW_DELETE,        /* table `code` and all it holds are removed */
    FIG_DBW_EVENTS,        /* table `code` may tell event numbers up to `ev` (its stored
                              high-water mark is raised to ev, never lowered) */
    FIG_DBW_REVIEW,        /* the review of seat `seat` in game `game` of `code`: `text`
                              (net/service/reviews.h); a game that has one keeps it, and a game
                              that is gone (its table deleted) takes none */
    FIG_DBW_RESULT         /* game `game` of `code` ended: *result (fig_db_result_t), in
                              the batch of the game's last action */
} fig_db_write_kind_t;

/* ---- a game's result, as the people who played it keep it (FIG_DBW_RESULT)
 *
 * Written in the batch of a game's last action (the same transaction: the
 * game's end and the ratings are stored together or not at all). The back
 * end, for the persons among the seats (kind FIG_DB_RS_PERSON, person set):
 *   1. reads each one's mu and sigma (PostgreSQL: SELECT ... FOR UPDATE, so
 *      that two games ending at once on two servers update one after the
 *      other); a person no longer stored (forgotten meanwhile) is then a
 *      fixed point at mu0, sigma0, as a person not signed in, and gets no
 *      row;
 *   2. when `rated`: calls fig_rating_update once on every seat (the persons
 *      not fixed, the others fixed at `fixed`, ranks = places) and writes
 *      each person's new mu and sigma, their rated games + 1; not rated: the
 *      ratings stay;
 *   3. stores `fgn` once in records, and for each person one played row
 *      (their next index: 0, 1, ...): table code, game, seat, players,
 *      place, rated, mu and sigma after, ended, and the seats' JSON
 *      (fig_db_played_t.seats), pointing at that record;
 *   4. sets each person seat's before and after (out; after == before when
 *      not rated).
 * A person in two seats of one game: the first is theirs (updated, a played
 * row); the others count as fixed points at their rating before. A bad
 * input (players, places that are not 1..players each once) fails the
 * batch (FIG_ERR_INPUT). */
typedef enum {
    FIG_DB_RS_PERSON,      /* a signed-in person: person */
    FIG_DB_RS_ANONYMOUS,   /* a person not signed in: fixed (mu0, sigma0) */
    FIG_DB_RS_BOT,         /* a bot of level `level`: fixed (fig_rating_level) */
    FIG_DB_RS_ENGINE       /* an engine named `level` (never in a rated game) */
} fig_db_rs_kind_t;

typedef struct {
    fig_db_rs_kind_t kind;
    char person[FIG_PERSON_ID_LEN + 1];     /* FIG_DB_RS_PERSON: their public id */
    char name[FIG_PERSON_NAME_BYTES + 1];   /* the seat's name as the table showed it */
    char level[FIG_ENGINE_NAME_MAX + 1];   /* a bot's level, an engine's name */
    int place;                             /* 1 first ... players last: the ranking */
    fig_rating_t fixed;                    /* not a person: the fixed point it counts as */
    fig_rating_t before, after;            /* out, a person: mu and sigma before, after */
} fig_db_result_seat_t;

typedef struct {
    int players;
    bool rated;                            /* the ratings move (PEOPLE.md's rule, decided by
                                              the server) */
    long long ended;                       /* Unix seconds */
    const char *fgn;                       /* the game's FGN record */
    fig_db_result_seat_t seats[FIG_MAX_PLAYERS];
} fig_db_result_t;

typedef struct {
    fig_db_write_kind_t kind;
    char code[FIG_TABLE_CODE_LEN + 1];
    int seat;
    int game;
    int index;
    long long ev;
    fig_db_table_t row;                    /* FIG_DBW_TABLE */
    fig_db_seat_t seat_row;                /* FIG_DBW_SEAT */
    fig_setup_t setup;                     /* FIG_DBW_GAME */
    fig_db_action_t action;                /* FIG_DBW_ACTION */
    const char *text;                      /* FIG_DBW_REVIEW: the submitter's, kept until
                                              the batch is back */
    fig_db_result_t *result;               /* FIG_DBW_RESULT: the submitter's, kept until
                                              the batch is back; its out fields set when
                                              the batch's rc is FIG_OK */
} fig_db_write_t;

enum { FIG_DB_BATCH_MAX = 3 };   /* a request's writes, and its FIG_DBW_EVENTS */

/* The writes of one request, all or none. `next` chains batches for
 * fig_db_apply; rc and msg are its outcome; `user` is the submitter's (the
 * back end leaves it alone).
 *
 * A batch may be a read instead (read.out not NULL, n == 0), for the
 * server's writer thread (net/store/writer.h), which alone touches the database
 * once the server is up: game read.game of table read.code into *read.out
 * (fig_db_game_get), after every write queued before it; with read.review
 * set, also the stored review of seat read.seat in that game into
 * *read.review (fig_db_review_get). Or a lease round (lease not NULL,
 * n == 0: fig_db_lease_round). fig_db_apply never sees either.
 *
 * `fenced` (out): the batch was refused because its table is not this
 * server's (rc FIG_ERR_STATE): another server drives it now, or this
 * server's lease on it ran out (fig_db_take). Only a shared back end
 * refuses so. */
typedef struct fig_db_lease fig_db_lease_t;
typedef struct fig_db fig_db_t;

typedef struct fig_db_batch {
    struct fig_db_batch *next;
    /* Its completion, set by whoever submits it; the storage and the writer
     * never look at these. back (with ctx) is what the loop calls when the
     * writer gives the batch back; drop frees a batch never given back (the
     * server stopped first), NULL when something else owns its memory. */
    void (*back)(void *ctx, struct fig_db_batch *b);
    void (*drop)(struct fig_db_batch *b);
    void *ctx;
    void *user;
    int n;
    fig_db_write_t w[FIG_DB_BATCH_MAX];
    struct {
        fig_db_game_t *out;                /* NULL: a batch of writes */
        char code[FIG_TABLE_CODE_LEN + 1];
        int game;
        int seat;                          /* with review: whose review */
        char **review;                     /* NULL: the game alone */
    } read;
    fig_db_lease_t *lease;                 /* not NULL: a lease round */
    /* Not NULL: a call the writer thread makes on the storage in its turn,
     * after every write queued before it (n == 0; fig_db_apply never sees
     * it): its rc is the batch's. The people's calls go this way, each
     * with what it needs in the struct the batch begins. */
    fig_err_t (*call)(fig_db_t *db, struct fig_db_batch *b, fig_msg_t *msg);
    bool fenced;
    fig_err_t rc;
    fig_msg_t msg;
} fig_db_batch_t;

struct fig_db_sql;   /* db_sql.h: the SQL the people calls share (the back ends' own) */

typedef char fig_db_code_t[FIG_TABLE_CODE_LEN + 1];

typedef struct {
    fig_err_t (*apply)(fig_db_t *db, fig_db_batch_t *list);
    fig_err_t (*game_get)(fig_db_t *db, const char *code, int game, fig_db_game_t *out,
                          fig_msg_t *msg);
    fig_err_t (*review_get)(fig_db_t *db, const char *code, int game, int seat, char **out,
                            fig_msg_t *msg);
    fig_err_t (*load)(fig_db_t *db, int max, fig_db_table_fn *fn, void *ctx, fig_msg_t *msg);
    /* Leases (NULL in a back end one server has alone: no-ops). */
    fig_err_t (*renew)(fig_db_t *db, const fig_db_code_t *codes, int n, bool *lost,
                       fig_msg_t *msg);
    fig_err_t (*take)(fig_db_t *db, int max, fig_db_table_fn *fn, void *ctx, fig_msg_t *msg);
    fig_err_t (*claim)(fig_db_t *db, const char *code, fig_db_table_fn *fn, void *ctx,
                       char owner[FIG_DB_NODE_MAX + 1], fig_msg_t *msg);
    void (*close)(fig_db_t *db);
    /* Whether the next commit returns without waiting for the disk (NULL:
     * never): SQLite with synchronous=NORMAL in WAL mode, while no
     * checkpoint (which syncs) is near. */
    bool (*quick)(const fig_db_t *db);
    /* Optional: the slow upkeep the back end leaves out of its commits (a
     * checkpoint), done by the writer thread after its groups. */
    void (*upkeep)(fig_db_t *db);
    /* The statements of the people calls (db_people.c), run by the back end. */
    const struct fig_db_sql *sql;
} fig_db_ops_t;

/* Every back end's handle begins with its ops. */
struct fig_db {
    const fig_db_ops_t *ops;
};

/* Frees a batch made by malloc or calloc (a batch's drop). */
void fig_db_batch_free(fig_db_batch_t *b);

/* Writes every batch of the chain `list` in one transaction: sets each
 * batch's rc (and msg); returns FIG_OK when the transaction was committed
 * (some batches may still have failed alone), else the commit's error, which
 * every batch then carries too. */
static inline fig_err_t fig_db_apply(fig_db_t *db, fig_db_batch_t *list)
{
    return db->ops->apply(db, list);
}
/* Whether the next fig_db_apply returns without waiting for the disk: then
 * the loop may commit a small group itself rather than hand it to the
 * writer thread and wait to be woken (writer.h: fig_writer_flush). */
static inline bool fig_db_quick(const fig_db_t *db)
{
    return db->ops->quick && db->ops->quick(db);
}
/* The upkeep a quick commit leaves for later (SQLite: a WAL checkpoint,
 * which syncs), when it is due; the writer thread's, never the loop's. */
static inline void fig_db_upkeep(fig_db_t *db)
{
    if (db->ops->upkeep)
        db->ops->upkeep(db);
}
/* Reads game `game` of a table: FIG_ERR_INPUT when there is none. */
static inline fig_err_t fig_db_game_get(fig_db_t *db, const char *code, int game,
                                        fig_db_game_t *out, fig_msg_t *msg)
{
    return db->ops->game_get(db, code, game, out, msg);
}
/* Reads the stored review of seat `seat` in game `game` of a table into
 * *out (malloc'd text, the caller frees it; NULL when none is stored). */
static inline fig_err_t fig_db_review_get(fig_db_t *db, const char *code, int game, int seat,
                                          char **out, fig_msg_t *msg)
{
    return db->ops->review_get(db, code, game, seat, out, msg);
}
/* Calls fn for every table this server drives, oldest first: every table
 * (SQLite: the one server has them all, whatever `max`); on a shared back
 * end, at most `max` (the server's cap, --max-tables) of those it held
 * before under its own name (a restart) and those it can take now
 * (fig_db_take), its own first. */
static inline fig_err_t fig_db_load(fig_db_t *db, int max, fig_db_table_fn *fn, void *ctx,
                                    fig_msg_t *msg)
{
    return db->ops->load(db, max, fn, ctx, msg);
}

/* ---- leases: one server drives a table at a time (docs/scaling.md)
 *
 * On a back end several servers share, each table has an owner (a server's
 * --node name) and a lease, until a time. A server takes a table whose lease
 * ran out (its server died, was paused or cut off), and renews its own
 * leases in time; every write of a table (fig_db_apply) is refused unless
 * the server holds the table's lease at that moment (`fenced`), so a server
 * that lost it can write nothing there. A new table is its creator's. */

/* Whether the handle's back end is shared by several servers (it keeps
 * leases). */
static inline bool fig_db_shared(const fig_db_t *db) { return db->ops->take != NULL; }

/* Extends this server's lease on each of codes[0..n) it still holds;
 * lost[i] tells those it does not (another server took it, or the lease
 * ran out first). A no-op (nothing lost) where not shared. */
static inline fig_err_t fig_db_renew(fig_db_t *db, const fig_db_code_t *codes, int n,
                                     bool *lost, fig_msg_t *msg)
{
    for (int i = 0; i < n; i++)
        lost[i] = false;
    return db->ops->renew ? db->ops->renew(db, codes, n, lost, msg) : FIG_OK;
}

/* Takes at most `max` tables whose lease ran out (their server is gone)
 * and calls fn for each, as fig_db_load does. A no-op where not shared. */
static inline fig_err_t fig_db_take(fig_db_t *db, int max, fig_db_table_fn *fn, void *ctx,
                                    fig_msg_t *msg)
{
    return db->ops->take ? db->ops->take(db, max, fn, ctx, msg) : FIG_OK;
}

/* Table `code`, asked for on this server, which does not drive it: taken
 * (fn called, as fig_db_take does) when nobody holds it (its lease ran out)
 * or its lease is this server's; else `owner` names the server that holds
 * it. fn NULL (a full server): nothing taken, only `owner` set when a
 * server holds a live lease on it ("" when none does). FIG_ERR_INPUT when
 * there is no such table. Where not shared: no such table (the server
 * drives every table there is). */
static inline fig_err_t fig_db_claim(fig_db_t *db, const char *code, fig_db_table_fn *fn,
                                     void *ctx, char owner[FIG_DB_NODE_MAX + 1], fig_msg_t *msg)
{
    owner[0] = '\0';
    if (!db->ops->claim)
        return fig_fail(msg, FIG_ERR_INPUT, N_("there is no table %s"), code);
    return db->ops->claim(db, code, fn, ctx, owner, msg);
}

/* A table taken in a lease round, with its latest game (NULL: none). */
typedef struct fig_db_taken {
    struct fig_db_taken *next;
    fig_db_table_t row;
    fig_db_game_t *last;
} fig_db_taken_t;

/* A lease round of the server's writer thread (fig_db_batch_t.lease), or
 * the claim of one table (claim[0] set: fig_db_claim). */
struct fig_db_lease {
    fig_db_code_t *codes;    /* in: the tables the server drives */
    int ncodes;
    bool *lost;              /* out: lost[i] for codes[i] (ncodes of them) */
    int take_max;            /* in: tables to take at most */
    fig_db_code_t claim;     /* in: a claim of this table alone; "": a round */
    bool look;               /* in, a claim: only look who holds it (the server is full) */
    char owner[FIG_DB_NODE_MAX + 1];   /* out, a claim: the server that holds it */
    fig_db_taken_t *taken;   /* out: the tables taken, oldest first (fig_db_taken_free) */
    /* a round: in, this server's name; out, the listed tables the other
     * servers drive that wait for people (fig_db_others_listed; malloc'ed:
     * the caller frees; NULL: they could not be read) */
    char node[FIG_DB_NODE_MAX + 1];
    fig_db_table_t *listed;
    int nlisted;
};

enum { FIG_DB_LISTED_MAX = 50 };   /* a lobby's tables (net/service/lobby.h) */

/* The listed tables that servers other than `node` drive and that wait for
 * people (no game yet, an open seat), the newest max, with their seats
 * (tokens and persons left out), into out (room for max); *n how many
 * (db_lobby.c; a lease round reads them for the lobby, net/service/lobby.h). */
fig_err_t fig_db_others_listed(fig_db_t *db, const char *node, fig_db_table_t *out, int max,
                               int *n, fig_msg_t *msg);

/* Renews, then takes (or claims): l's outputs set. On error, what was
 * taken before it is kept in l->taken (it is this server's now). */
fig_err_t fig_db_lease_round(fig_db_t *db, fig_db_lease_t *l, fig_msg_t *msg);
void fig_db_taken_free(fig_db_taken_t *list);
/* NULL is a no-op. */
static inline void fig_db_close(fig_db_t *db)
{
    if (db)
        db->ops->close(db);
}

/* Replays a stored game into a record: the setup, each round dealt from the
 * seed, the actions. FIG_ERR_INPUT with the reason when an action does not
 * replay (a damaged database). */
fig_err_t fig_db_game_record(const fig_db_game_t *g, fig_game_t *out, fig_msg_t *msg);

/* ---- people (schema 5; docs/server.md, "People")
 *
 * A person has no password and no email: a public id, a name they chose,
 * a rating (mu, sigma: host/rating.h) and one or more keys, random secrets
 * their browsers keep (one per device). The storage only ever holds a key's
 * SHA-256 (fig_sha256_hex of the 32 hex digits), and a device code's (of its
 * 8 characters in upper case): every call below takes hashes, never the
 * secret, and nothing here logs either. "Not found" is never an error: a
 * call answers FIG_OK with out->id "" (or *found false); an error is the
 * storage's (FIG_ERR_INPUT, FIG_ERR_SPACE) or a bad argument (FIG_ERR_INPUT).
 *
 * Synchronous calls, each its own transaction, made by the server's writer
 * thread (the database's one user once the server is up: net/store/writer.h) or
 * by `figaro people`; never between the batches of fig_db_apply. */

typedef struct {
    char id[FIG_PERSON_ID_LEN + 1];         /* "": none */
    char name[FIG_PERSON_NAME_BYTES + 1];
    double mu, sigma;                      /* the rating (fig_rating_initial for a new one) */
    int rated;                             /* rated games played */
    bool hidden;                           /* off the leaderboard */
    long long created;                     /* Unix seconds */
} fig_db_person_t;

/* Receives one person of a list; returning an error stops the list with it. */
typedef fig_err_t fig_db_person_fn(void *ctx, const fig_db_person_t *p, fig_msg_t *msg);

/* A new person named `name` (already clean: fig_name_clean) with a
 * new public id (fig_code_new, drawn again on the rare clash), created
 * `now`, rated fig_rating_initial, not hidden, and key_hash as their first
 * key. FIG_OK with the person in *out. */
fig_err_t fig_db_person_new(fig_db_t *db, const char *name, const char *key_hash,
                            long long now, fig_db_person_t *out, fig_msg_t *msg);

/* The person whose key has the hash key_hash (a signed-out key: none).
 * FIG_OK; out->id "" when none. */
fig_err_t fig_db_person_by_key(fig_db_t *db, const char *key_hash, fig_db_person_t *out,
                               fig_msg_t *msg);

/* Person `id`. FIG_OK; out->id "" when none. */
fig_err_t fig_db_person_get(fig_db_t *db, const char *id, fig_db_person_t *out,
                            fig_msg_t *msg);

/* Renames person `id` (name not NULL: clean already) and/or hides them from
 * the leaderboard or shows them again (hidden 1 or 0; -1: as it was); past
 * seats and records keep the name they had. FIG_OK with the person after
 * in *out; out->id "" when there is no such person. */
fig_err_t fig_db_person_set(fig_db_t *db, const char *id, const char *name, int hidden,
                            fig_db_person_t *out, fig_msg_t *msg);

/* Another key (key_hash) for person `id`, made `now`. FIG_OK; *found false
 * (nothing stored) when there is no such person. */
fig_err_t fig_db_key_add(fig_db_t *db, const char *id, const char *key_hash, long long now,
                         bool *found, fig_msg_t *msg);

/* Sign out: the key whose hash is key_hash stops working (the person's
 * other keys do not). FIG_OK also when there was no such key. */
fig_err_t fig_db_key_drop(fig_db_t *db, const char *key_hash, fig_msg_t *msg);

/* A device code for person `id`: code_hash (the SHA-256 of the code's 8
 * characters in upper case), usable until now + FIG_DB_DEVICE_CODE_S. It
 * replaces the person's earlier code (one live code per person). FIG_OK;
 * *found false (nothing stored) when there is no such person;
 * FIG_ERR_STATE (nothing stored) when another person's live code has the
 * same hash (1 in 31^8): draw another code. */
fig_err_t fig_db_code_new(fig_db_t *db, const char *id, const char *code_hash, long long now,
                          bool *found, fig_msg_t *msg);

/* Redeems a device code: when code_hash is a code that lives at `now`, the
 * code is used up (single use: deleted), key_hash becomes a new key of its
 * person (the new device's own), and *out is that person. FIG_OK; out->id
 * "" when the code is unknown, used or expired (one answer for the three).
 * Expired codes are deleted on the way. */
fig_err_t fig_db_code_redeem(fig_db_t *db, const char *code_hash, const char *key_hash,
                             long long now, fig_db_person_t *out, fig_msg_t *msg);

/* Forget me, in one transaction: person `id`, their keys, device code,
 * played rows and rating are deleted, and the records only they kept; every
 * seat that was theirs loses its person (seats.person NULL) and its name
 * becomes "Anonymous" ("Anonymous2", ... when another seat of the table has
 * that name already, ignoring case), the seat's token kept (a seat at a
 * running game still works), and an open seat they left loses them (keeps
 * no name); in the played rows of others, their seat
 * becomes {"kind":"anonymous"} with the same name rule, and in the kept
 * records (FGN `names`) their name becomes that name too; and a row of
 * the log of the people forgotten (below) says so, made `now` (Unix
 * seconds). FIG_OK; *found false (nothing logged) when there was no such
 * person. */
fig_err_t fig_db_person_forget(fig_db_t *db, const char *id, long long now, bool *found,
                               fig_msg_t *msg);

/* ---- the people forgotten (schema 6)
 *
 * Every forget that found its person adds a row to a log in its own
 * transaction: a number (seq, only ever growing, never given twice), the
 * person's id, and `now` (Unix seconds); rows older than
 * FIG_DB_FORGOTTEN_KEEP_S go in the same transaction. A reader that saw a
 * row has seen every row before it. The servers sharing the storage (and a
 * server whose SQLite file `figaro people remove` wrote) read the rows
 * after the last one they saw, and forget those people at the tables they
 * hold in memory (net/service/service_forgotten.c). */

enum { FIG_DB_FORGOTTEN_KEEP_S = 86400 };

typedef struct {
    long long seq;
    char person[FIG_PERSON_ID_LEN + 1];
} fig_db_forgotten_t;

/* The log's latest number into *seq (0: none yet). */
fig_err_t fig_db_forgotten_last(fig_db_t *db, long long *seq, fig_msg_t *msg);

/* The rows after number `after`, oldest first, at most max: out[0..*n). */
fig_err_t fig_db_forgotten_since(fig_db_t *db, long long after, fig_db_forgotten_t *out, int max,
                                 int *n, fig_msg_t *msg);

/* Every person, oldest first (created, then id), to fn. */
fig_err_t fig_db_people_list(fig_db_t *db, fig_db_person_fn *fn, void *ctx, fig_msg_t *msg);

/* The best of the leaderboard: people not hidden with at least one rated
 * game, by mu - 3 sigma (fig_rating_conservative) highest first, then more
 * rated games, then id; at most max, to fn. */
fig_err_t fig_db_leaderboard(fig_db_t *db, int max, fig_db_person_fn *fn, void *ctx,
                             fig_msg_t *msg);

/* A seat a person holds at a table that still exists. */
typedef struct {
    char code[FIG_TABLE_CODE_LEN + 1];
    int seat;
} fig_db_person_seat_t;

/* The seats person `id` holds (seats.person), newest table first (its
 * creation, then its code), at most FIG_DB_PERSON_SEATS: out[0..*n); not
 * an open seat they left. */
fig_err_t fig_db_person_seats(fig_db_t *db, const char *id,
                              fig_db_person_seat_t out[FIG_DB_PERSON_SEATS], int *n,
                              fig_msg_t *msg);

/* One game a person played (a `played` row, kept after its table is gone). */
typedef struct {
    int idx;                               /* 0, 1, ... in the order they ended */
    char code[FIG_TABLE_CODE_LEN + 1];     /* the table's code (may be gone, or reused) */
    int game;                              /* the table's nth game */
    int seat;                              /* theirs, 0-based */
    int players;
    int place;                             /* 1 first */
    bool rated;
    double mu, sigma;                      /* their rating after it */
    long long ended;                       /* Unix seconds */
    /* Every seat in seat order, as JSON: [{"kind":"me"|"person"|"anonymous"|
     * "bot"|"engine","name":...,"place":N}...], a person's with "id", a
     * bot's "level", an engine's "level" its name. Valid during fn. */
    const char *seats;
    long long record;                      /* the kept record's id (fig_db_played_record) */
} fig_db_played_t;

typedef fig_err_t fig_db_played_fn(void *ctx, const fig_db_played_t *p, fig_msg_t *msg);

/* Every game person `id` played, oldest first (idx), to fn. */
fig_err_t fig_db_person_played(fig_db_t *db, const char *id, fig_db_played_fn *fn, void *ctx,
                               fig_msg_t *msg);

/* The FGN record of person `id`'s played row `idx` into *fgn (malloc'd,
 * the caller frees it). FIG_OK; *fgn NULL when there is no such row. */
fig_err_t fig_db_played_record(fig_db_t *db, const char *id, int idx, char **fgn,
                               fig_msg_t *msg);

/* ---- opening a back end */

typedef struct {
    bool normal_sync;      /* SQLite: synchronous=NORMAL instead of FULL (faster, may lose the
                              last commits on power loss, never on a crash of the server);
                              PostgreSQL: no effect (synchronous_commit stays on) */
    const char *node;      /* a shared back end: this server's name, its leases' owner
                              (NULL: "local") */
    int lease_ms;          /* a shared back end: how long a lease lasts (0: FIG_DB_LEASE_S) */
} fig_db_opts_t;

/* A lease's length when none is given (`figaro serve --lease`), in seconds.
 * A dead server's tables play again on the others after what was left of
 * their lease plus a few seconds (docs/scaling.md, "Failover"): at most
 * this plus those, under the 30 s the design promises. */
#define FIG_DB_LEASE_S 20


/* Whether url names a back end (its scheme is one of fig_db_open's). */
bool fig_db_url_known(const char *url);
/* url to show in a log: a password it holds replaced by "***". */
void fig_db_url_shown(const char *url, char *buf, size_t size);

/* Opens the storage `url` names, by its scheme:
 *   sqlite:PATH            an SQLite file (created if missing), WAL mode;
 *   postgresql://...       a PostgreSQL database (libpq's connection URI;
 *   postgres://...         the PG* environment variables give what it leaves
 *                          out: "postgresql://" alone is all of them).
 * Creates the schema or brings it up to date. opts may be NULL.
 * FIG_ERR_INPUT with the reason (an unknown scheme, the back end's error). */
fig_err_t fig_db_open(fig_db_t **out, const char *url, const fig_db_opts_t *opts,
                      fig_msg_t *msg);

/* The back ends' own openers, for fig_db_open: `where` is the URL without
 * "sqlite:" (a path), or the whole PostgreSQL URI. */
fig_err_t fig_db_sqlite_open(fig_db_t **out, const char *path, const fig_db_opts_t *opts,
                             fig_msg_t *msg);
fig_err_t fig_db_pg_open(fig_db_t **out, const char *uri, const fig_db_opts_t *opts,
                         fig_msg_t *msg);

#endif
