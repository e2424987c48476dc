/* db.h - where the table server keeps its tables: a small storage interface
 * (a vtable, so a PostgreSQL back end can follow, docs/scaling.md) and the
 * SQLite back end (db_sqlite.c).
 *
 * What is stored: tables (code, options, seed, creation time), their seats
 * (who sits: open, a person with the SHA-256 of their token -- never the
 * token --, a bot level, a registered engine's name), their games (the nth
 * game of a table: its setup; a rematch is the next game) and the games'
 * actions in order. A game is its setup and its actions: the hands follow
 * from the setup's seed (fig_game_deal_seeded), so no hand is ever stored.
 *
 * Every call that writes returns only once the write is durable as the back
 * end promises (SQLite: committed, synchronous=FULL by default): the server
 * acknowledges and broadcasts an action only after action_add returned
 * FIG_OK. A failed write changes nothing.
 *
 * A handle is used by one thread (the server's loop). */
#ifndef FIGARO_NET_DB_H
#define FIGARO_NET_DB_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/figaro.h"
#include "net/proto.h"
#include "net/token.h"

typedef enum {
    FIG_DB_SEAT_OPEN,      /* for a person, nobody sits */
    FIG_DB_SEAT_PERSON,    /* a person sits: token_hash */
    FIG_DB_SEAT_BOT,       /* a bot of level `what` */
    FIG_DB_SEAT_ENGINE     /* the operator's engine named `what` */
} fig_db_seat_kind_t;

typedef struct {
    fig_db_seat_kind_t kind;
    char what[FIG_PROTO_ENGINE_NAME_MAX + 1];
    char name[FIG_NAME_MAX + 1];            /* a person's name; "" else */
    char token_hash[FIG_HASH_HEX + 1];      /* a person's; "" else */
} fig_db_seat_t;

typedef struct {
    char code[FIG_PROTO_CODE_LEN + 1];
    int players;
    fig_db_seat_t seats[FIG_MAX_PLAYERS];
    int move_seconds;                      /* a person's time per move, 0: none */
    bool open;                             /* stacks and roads shown in play */
    char fill[8];                          /* the level that plays for an absent person */
    uint64_t seed;                         /* game g's seed: fig_seed_derive(seed, g, 0) */
    long long created;                     /* Unix seconds */
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

typedef struct fig_db fig_db_t;

typedef struct {
    fig_err_t (*table_add)(fig_db_t *db, const fig_db_table_t *t, fig_msg_t *msg);
    fig_err_t (*seat_set)(fig_db_t *db, const char *code, int seat, const fig_db_seat_t *s,
                          fig_msg_t *msg);
    fig_err_t (*game_add)(fig_db_t *db, const char *code, int game, const fig_setup_t *setup,
                          long long ev, fig_msg_t *msg);
    /* index: the action's place in its game, 0, 1, ...: storing an index
     * twice is refused (FIG_ERR_STATE), so an action is never stored twice. */
    fig_err_t (*action_add)(fig_db_t *db, const char *code, int game, int index,
                            const fig_db_action_t *a, fig_msg_t *msg);
    fig_err_t (*game_get)(fig_db_t *db, const char *code, int game, fig_db_game_t *out,
                          fig_msg_t *msg);
    fig_err_t (*load)(fig_db_t *db, fig_db_table_fn *fn, void *ctx, fig_msg_t *msg);
    void (*close)(fig_db_t *db);
} fig_db_ops_t;

/* Every back end's handle begins with its ops. */
struct fig_db {
    const fig_db_ops_t *ops;
};

static inline fig_err_t fig_db_table_add(fig_db_t *db, const fig_db_table_t *t, fig_msg_t *msg)
{
    return db->ops->table_add(db, t, msg);
}
static inline fig_err_t fig_db_seat_set(fig_db_t *db, const char *code, int seat,
                                        const fig_db_seat_t *s, fig_msg_t *msg)
{
    return db->ops->seat_set(db, code, seat, s, msg);
}
static inline fig_err_t fig_db_game_add(fig_db_t *db, const char *code, int game,
                                        const fig_setup_t *setup, long long ev, fig_msg_t *msg)
{
    return db->ops->game_add(db, code, game, setup, ev, msg);
}
static inline fig_err_t fig_db_action_add(fig_db_t *db, const char *code, int game, int index,
                                          const fig_db_action_t *a, fig_msg_t *msg)
{
    return db->ops->action_add(db, code, game, index, a, msg);
}
/* Reads game `game` of a table: FIG_ERR_INPUT when there is none. */
static inline fig_err_t fig_db_game_get(fig_db_t *db, const char *code, int game,
                                        fig_db_game_t *out, fig_msg_t *msg)
{
    return db->ops->game_get(db, code, game, out, msg);
}
/* Calls fn for every table, oldest first. */
static inline fig_err_t fig_db_load(fig_db_t *db, fig_db_table_fn *fn, void *ctx, fig_msg_t *msg)
{
    return db->ops->load(db, fn, ctx, msg);
}
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

/* ---- SQLite */

typedef struct {
    bool normal_sync;      /* synchronous=NORMAL instead of FULL (faster, may lose the last
                              commits on power loss, never on a crash of the server) */
} fig_db_sqlite_opts_t;

/* Opens (creating if need be) the database file at `path`, in WAL mode, and
 * its tables. opts may be NULL. FIG_ERR_INPUT with SQLite's reason. */
fig_err_t fig_db_sqlite_open(fig_db_t **out, const char *path, const fig_db_sqlite_opts_t *opts,
                             fig_msg_t *msg);

#endif
