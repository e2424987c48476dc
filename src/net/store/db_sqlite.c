/* SPDX-License-Identifier: MIT */
/* db_sqlite.c - the SQLite back end of the storage interface (db.h).
 *
 * One file, WAL mode (readers never wait for the writer, and a crash leaves
 * the last committed transaction whole), synchronous=FULL unless asked
 * otherwise: a commit returns once it is on the disk. fig_db_apply writes a
 * chain of batches in one transaction (one sync for all: the group commit),
 * each batch inside its own savepoint, so that a batch that fails (an action
 * stored twice) is undone alone (a batch alone: the transaction is rolled
 * back). Statements are prepared once, at open.
 *
 * Schema (user_version 6):
 *   tables  (code PK, players, move_seconds, open, fill, seed, created, hints, listed)
 *   events  (code PK, hw): the table's event numbers told may reach hw (a
 *           high-water mark, only ever raised)
 *   seats   (code, seat, kind, what, name, token_hash, rematch, person)  PK (code, seat)
 *   games   (code, game, players, removed, king, roads, seed, ev)  PK (code, game)
 *   actions (code, game, idx, seat, action, ev)               PK (code, game, idx)
 *   reviews (code, game, seat, review)                        PK (code, game, seat)
 * and the people's (db.h, db_people.c):
 *   people       (id PK, name, mu, sigma, rated, hidden, created)
 *   person_keys  (hash PK, person, created)       a key's SHA-256, never the key
 *   device_codes (hash PK, person UNIQUE, expires)
 *   played       (person, idx, code, game, seat, players, place, rated, mu, sigma, ended,
 *                 seats, record)                          PK (person, idx)
 *   records      (id PK, fgn)
 *   forgotten    (seq PK, person, at)             who was forgotten when (db_forget.c)
 * A seat's kind is the text open/person/bot/engine; a seat's person is whose
 * seat it is, or on an open seat the signed-in person who left it during
 * its table's latest game (db.h); an action is in FGN
 * syntax ("R2>1", "RING>0", "take"); roads are the three groups, "15 9 2/...".
 * A 64-bit seed is stored as the signed integer of the same bits. A seat's
 * rematch is the game after whose end its person asked for the next (0: no
 * vote). An older database is brought up to date at open, one version at a
 * time, each step one transaction: version 1 (no rematch column, no events)
 * takes both; version 2 (no hints column) takes it, off (the tables made
 * before had no hints); version 3 takes the reviews' table (a seat's review
 * of a finished game, its text net/service/reviews.h's); version 4 takes people's
 * tables (empty), the seats' person (none) and the tables' listed option
 * (off); version 5 takes the log of the people forgotten (empty). One of
 * a later version than this program's is refused.
 *
 * WAL checkpoints: SQLite's own (every 1,000 pages of WAL, inside the
 * commit that reaches them) is replaced by the same done by the writer
 * thread after its group (fig_db_upkeep), our WAL hook keeping the WAL's
 * size: with synchronous=NORMAL a commit does not sync but a checkpoint
 * does, so no commit checkpoints; the storage says its next commit is
 * quick (fig_db_quick: the loop may make it) while the WAL is below the
 * checkpoint's size, and once it is not, the next group goes to the writer
 * thread, which checkpoints after it. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/store/db_row.h"
#include "net/store/db_sql.h"

enum { ST_TABLE, ST_SEAT, ST_GAME, ST_ACTION, ST_GET_GAME, ST_GET_ACTIONS, ST_TABLES, ST_SEATS,
       ST_LAST_GAME, ST_DEL_ACTIONS, ST_DEL_GAMES, ST_DEL_SEATS, ST_DEL_EVENTS, ST_DEL_TABLE,
       ST_EVENTS, ST_REVIEW, ST_GET_REVIEW, ST_DEL_REVIEWS, ST_BEGIN, ST_SAVEPOINT, ST_RELEASE,
       ST_COMMIT, ST_LEFT_GONE, ST_COUNT };

static const char *const sql_text[ST_COUNT] = {
    /* A group's transaction and each batch's savepoint, prepared as the
     * rest: parsed once, not at every commit. */
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_SAVEPOINT] = "SAVEPOINT b",
    [ST_RELEASE] = "RELEASE b",
    [ST_COMMIT] = "COMMIT",
    [ST_TABLE] = "INSERT INTO tables (code, players, move_seconds, open, fill, seed, created, "
                 "hints, listed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    [ST_SEAT] = "INSERT OR REPLACE INTO seats (code, seat, kind, what, name, token_hash, "
                "rematch, person) VALUES (?, ?, ?, ?, ?, ?, ?, "
                "(SELECT id FROM people WHERE id = ?8))",   /* a person forgotten: none */
    [ST_GAME] = "INSERT INTO games (code, game, players, removed, king, roads, seed, ev) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    /* A new game: who left an open seat in the one before is no leaver of it. */
    [ST_LEFT_GONE] = "UPDATE seats SET person = NULL WHERE code = ? AND kind = 'open' "
                     "AND person IS NOT NULL",
    [ST_ACTION] = "INSERT INTO actions (code, game, idx, seat, action, ev) "
                  "VALUES (?, ?, ?, ?, ?, ?)",
    [ST_GET_GAME] = "SELECT players, removed, king, roads, seed, ev FROM games "
                    "WHERE code = ? AND game = ?",
    [ST_GET_ACTIONS] = "SELECT idx, seat, action, ev FROM actions WHERE code = ? AND game = ? "
                       "ORDER BY idx",
    [ST_TABLES] = "SELECT t.code, players, move_seconds, open, fill, seed, created, "
                  "COALESCE(e.hw, 0), hints, listed FROM tables t LEFT JOIN events e "
                  "ON e.code = t.code ORDER BY created, t.rowid",
    [ST_SEATS] = "SELECT seat, kind, what, name, token_hash, rematch, person FROM seats "
                 "WHERE code = ? ORDER BY seat",
    [ST_LAST_GAME] = "SELECT MAX(game) FROM games WHERE code = ?",
    [ST_DEL_ACTIONS] = "DELETE FROM actions WHERE code = ?",
    [ST_DEL_GAMES] = "DELETE FROM games WHERE code = ?",
    [ST_DEL_SEATS] = "DELETE FROM seats WHERE code = ?",
    [ST_DEL_EVENTS] = "DELETE FROM events WHERE code = ?",
    [ST_DEL_TABLE] = "DELETE FROM tables WHERE code = ?",
    [ST_EVENTS] = "INSERT INTO events (code, hw) VALUES (?, ?) "
                  "ON CONFLICT (code) DO UPDATE SET hw = MAX(hw, excluded.hw)",
    /* Computed once: a second one (two askers at once) leaves the first;
     * a game deleted meanwhile takes none. */
    [ST_REVIEW] = "INSERT OR IGNORE INTO reviews (code, game, seat, review) "
                  "SELECT ?1, ?2, ?3, ?4 WHERE EXISTS "
                  "(SELECT 1 FROM games WHERE code = ?1 AND game = ?2)",
    [ST_GET_REVIEW] = "SELECT review FROM reviews WHERE code = ? AND game = ? AND seat = ?",
    [ST_DEL_REVIEWS] = "DELETE FROM reviews WHERE code = ?",
};

/* Schema 5's people: the persons, their keys' and device codes' hashes,
 * the games they played and those games' records (db.h). */
#define PEOPLE                                                                                \
    "CREATE TABLE IF NOT EXISTS people (id TEXT PRIMARY KEY, name TEXT NOT NULL, "          \
    "  mu REAL NOT NULL, sigma REAL NOT NULL, rated INTEGER NOT NULL DEFAULT 0, "           \
    "  hidden INTEGER NOT NULL DEFAULT 0, created INTEGER NOT NULL);"                       \
    "CREATE TABLE IF NOT EXISTS person_keys (hash TEXT PRIMARY KEY, "                       \
    "  person TEXT NOT NULL REFERENCES people(id), created INTEGER NOT NULL);"              \
    "CREATE INDEX IF NOT EXISTS person_keys_person ON person_keys (person);"                \
    "CREATE TABLE IF NOT EXISTS device_codes (hash TEXT PRIMARY KEY, "                      \
    "  person TEXT NOT NULL UNIQUE REFERENCES people(id), expires INTEGER NOT NULL);"       \
    "CREATE TABLE IF NOT EXISTS records (id INTEGER PRIMARY KEY, fgn TEXT NOT NULL);"       \
    "CREATE TABLE IF NOT EXISTS played (person TEXT NOT NULL REFERENCES people(id), "       \
    "  idx INTEGER NOT NULL, code TEXT NOT NULL, game INTEGER NOT NULL, "                   \
    "  seat INTEGER NOT NULL, players INTEGER NOT NULL, place INTEGER NOT NULL, "           \
    "  rated INTEGER NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL, "                     \
    "  ended INTEGER NOT NULL, seats TEXT NOT NULL, "                                       \
    "  record INTEGER NOT NULL REFERENCES records(id), PRIMARY KEY (person, idx));"         \
    "CREATE INDEX IF NOT EXISTS played_record ON played (record);"                          \
    "CREATE INDEX IF NOT EXISTS seats_person ON seats (person);"

/* Schema 6's log of the people forgotten (db.h, fig_db_forgotten_since):
 * AUTOINCREMENT, so that a number is never given twice, even once the
 * rows before it are pruned. */
#define FORGOTTEN                                                                             \
    "CREATE TABLE IF NOT EXISTS forgotten (seq INTEGER PRIMARY KEY AUTOINCREMENT, "         \
    "  person TEXT NOT NULL, at INTEGER NOT NULL);"

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS tables (code TEXT PRIMARY KEY, players INTEGER NOT NULL, "
    "  move_seconds INTEGER NOT NULL, open INTEGER NOT NULL, fill TEXT NOT NULL, "
    "  seed INTEGER NOT NULL, created INTEGER NOT NULL, hints INTEGER NOT NULL DEFAULT 0, "
    "  listed INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS seats (code TEXT NOT NULL REFERENCES tables(code), "
    "  seat INTEGER NOT NULL, kind TEXT NOT NULL, what TEXT NOT NULL, name TEXT NOT NULL, "
    "  token_hash TEXT NOT NULL, rematch INTEGER NOT NULL DEFAULT 0, person TEXT, "
    "  PRIMARY KEY (code, seat));"
    "CREATE TABLE IF NOT EXISTS games (code TEXT NOT NULL REFERENCES tables(code), "
    "  game INTEGER NOT NULL, players INTEGER NOT NULL, removed INTEGER NOT NULL, "
    "  king INTEGER NOT NULL, roads TEXT NOT NULL, seed INTEGER NOT NULL, ev INTEGER NOT NULL, "
    "  PRIMARY KEY (code, game));"
    "CREATE TABLE IF NOT EXISTS actions (code TEXT NOT NULL, game INTEGER NOT NULL, "
    "  idx INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, ev INTEGER NOT NULL, "
    "  PRIMARY KEY (code, game, idx), FOREIGN KEY (code, game) REFERENCES games(code, game));"
    "CREATE TABLE IF NOT EXISTS events (code TEXT PRIMARY KEY REFERENCES tables(code), "
    "  hw INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS reviews (code TEXT NOT NULL, game INTEGER NOT NULL, "
    "  seat INTEGER NOT NULL, review TEXT NOT NULL, PRIMARY KEY (code, game, seat), "
    "  FOREIGN KEY (code, game) REFERENCES games(code, game));"
    PEOPLE
    FORGOTTEN
    "PRAGMA user_version = 6;";

enum { SCHEMA_VERSION = FIG_DB_SCHEMA };   /* its meaning: db.h */

/* upgrade[v]: from version v to v + 1. */
static const char *const upgrade[SCHEMA_VERSION] = {
    /* 1 to 2: a person's rematch vote, and the event numbers' high-water
     * marks (none yet: a table's numbers then go on from its stored events). */
    [1] = "ALTER TABLE seats ADD COLUMN rematch INTEGER NOT NULL DEFAULT 0;"
          "CREATE TABLE IF NOT EXISTS events (code TEXT PRIMARY KEY REFERENCES tables(code), "
          "  hw INTEGER NOT NULL);"
          "PRAGMA user_version = 2;",
    /* 2 to 3: the hints option. */
    [2] = "ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;"
          "PRAGMA user_version = 3;",
    /* 3 to 4: the reviews of finished games, none yet. */
    [3] = "CREATE TABLE IF NOT EXISTS reviews (code TEXT NOT NULL, game INTEGER NOT NULL, "
          "  seat INTEGER NOT NULL, review TEXT NOT NULL, PRIMARY KEY (code, game, seat), "
          "  FOREIGN KEY (code, game) REFERENCES games(code, game));"
          "PRAGMA user_version = 4;",
    /* 4 to 5: people (none yet), the seats' person (none), the tables'
     * listed option (off: every table made before was invite-only). */
    [4] = "ALTER TABLE tables ADD COLUMN listed INTEGER NOT NULL DEFAULT 0;"
          "ALTER TABLE seats ADD COLUMN person TEXT;"
          PEOPLE
          "PRAGMA user_version = 5;",
    /* 5 to 6: the log of the people forgotten, empty (those forgotten
     * before are anonymous in storage already). */
    [5] = FORGOTTEN "PRAGMA user_version = 6;",
};

typedef struct {
    fig_db_t base;        /* first: a fig_db_t * is a db_t * */
    sqlite3 *sq;
    sqlite3_stmt *st[ST_COUNT];
    bool normal_sync;     /* synchronous=NORMAL: a commit does not sync */
    int wal_pages;        /* in the WAL after the last commit (the WAL hook's) */
} db_t;

/* SQLite's default checkpoint size. */
enum { WAL_CHECKPOINT_PAGES = 1000 };

/* After every commit: the WAL's size (no checkpoint here: upkeep's). */
static int wal_hook(void *ctx, sqlite3 *sq, const char *name, int pages)
{
    (void)sq;
    (void)name;
    ((db_t *)ctx)->wal_pages = pages;
    return SQLITE_OK;
}

static bool quick(const fig_db_t *db)
{
    const db_t *d = (const db_t *)db;
    return d->normal_sync && d->wal_pages < WAL_CHECKPOINT_PAGES;
}

/* A passive checkpoint once the WAL holds WAL_CHECKPOINT_PAGES, as SQLite's
 * automatic one. */
static void upkeep(fig_db_t *db)
{
    db_t *d = (db_t *)db;
    if (d->wal_pages < WAL_CHECKPOINT_PAGES)
        return;
    int log = 0, done = 0;
    if (sqlite3_wal_checkpoint_v2(d->sq, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done) ==
            SQLITE_OK && done == log)
        d->wal_pages = 0;   /* all of it copied: the next commit starts the WAL again */
}

static fig_err_t sq_fail(db_t *d, fig_msg_t *msg, const char *what)
{
    return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s: %s"), what, sqlite3_errmsg(d->sq));
}

/* Runs a prepared write to its end and resets it. */
static fig_err_t step_done(db_t *d, sqlite3_stmt *s, fig_msg_t *msg, const char *what)
{
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (rc == SQLITE_DONE)
        return FIG_OK;
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
        return fig_fail(msg, FIG_ERR_STATE, N_("database: %s: already stored"), what);
    return sq_fail(d, msg, what);
}

static fig_err_t exec(db_t *d, const char *sql, fig_msg_t *msg)
{
    char *err = NULL;
    if (sqlite3_exec(d->sq, sql, NULL, NULL, &err) == SQLITE_OK)
        return FIG_OK;
    fig_err_t rc = fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), err ? err : "?");
    sqlite3_free(err);
    return rc;
}

/* Runs one of the prepared transaction statements (ST_BEGIN...), with
 * exec's message on failure. */
static fig_err_t control(db_t *d, int st, fig_msg_t *msg)
{
    int rc = sqlite3_step(d->st[st]);
    sqlite3_reset(d->st[st]);
    return rc == SQLITE_DONE ? FIG_OK
                             : fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"),
                                        sqlite3_errmsg(d->sq));
}

static fig_err_t user_version(db_t *d, int *out, fig_msg_t *msg)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(d->sq, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK)
        return sq_fail(d, msg, "user_version");
    int rc = sqlite3_step(s);
    *out = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? FIG_OK : sq_fail(d, msg, "user_version");
}

static void bind_seat(sqlite3_stmt *s, const char *code, int seat, const fig_db_seat_t *x)
{
    sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, seat);
    sqlite3_bind_text(s, 3, fig_db_kind_name(x->kind), -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 4, x->what, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 5, x->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 6, x->token_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 7, x->rematch);
    if (x->person[0])
        sqlite3_bind_text(s, 8, x->person, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, 8);
}

static fig_err_t table_add(db_t *d, const fig_db_table_t *t, fig_msg_t *msg)
{
    sqlite3_stmt *s = d->st[ST_TABLE];
    sqlite3_bind_text(s, 1, t->code, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, t->players);
    sqlite3_bind_int(s, 3, t->move_seconds);
    sqlite3_bind_int(s, 4, t->open);
    sqlite3_bind_text(s, 5, t->fill, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 6, (sqlite3_int64)t->seed);
    sqlite3_bind_int64(s, 7, t->created);
    sqlite3_bind_int(s, 8, t->hints);
    sqlite3_bind_int(s, 9, t->listed);
    fig_err_t rc = step_done(d, s, msg, "table");
    for (int i = 0; i < t->players && rc == FIG_OK; i++) {
        bind_seat(d->st[ST_SEAT], t->code, i, &t->seats[i]);
        rc = step_done(d, d->st[ST_SEAT], msg, "seat");
    }
    return rc;
}

static fig_err_t game_add(db_t *d, const char *code, int game, const fig_setup_t *setup,
                          long long ev, fig_msg_t *msg)
{
    char roads[256];
    fig_db_roads_text(setup, roads, sizeof roads);
    sqlite3_stmt *s = d->st[ST_GAME];
    sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, game);
    sqlite3_bind_int(s, 3, setup->players);
    sqlite3_bind_int(s, 4, setup->removed);
    sqlite3_bind_int(s, 5, setup->king);
    sqlite3_bind_text(s, 6, roads, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 7, (sqlite3_int64)setup->seed);
    sqlite3_bind_int64(s, 8, ev);
    fig_err_t rc = step_done(d, s, msg, "game");
    sqlite3_bind_text(d->st[ST_LEFT_GONE], 1, code, -1, SQLITE_TRANSIENT);
    return rc ? rc : step_done(d, d->st[ST_LEFT_GONE], msg, "game");
}

static fig_err_t action_add(db_t *d, const char *code, int game, int index,
                            const fig_db_action_t *a, fig_msg_t *msg)
{
    char text[16];
    sqlite3_stmt *s = d->st[ST_ACTION];
    sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, game);
    sqlite3_bind_int(s, 3, index);
    sqlite3_bind_int(s, 4, a->seat);
    sqlite3_bind_text(s, 5, fig_act_format(a->action, text, sizeof text), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(s, 6, a->ev);
    return step_done(d, s, msg, "action");
}

/* Everything of a table, children first (the foreign keys). */
static fig_err_t table_delete(db_t *d, const char *code, fig_msg_t *msg)
{
    static const int order[] = { ST_DEL_REVIEWS, ST_DEL_ACTIONS, ST_DEL_GAMES, ST_DEL_SEATS,
                                 ST_DEL_EVENTS, ST_DEL_TABLE };
    fig_err_t rc = FIG_OK;
    for (size_t i = 0; i < sizeof order / sizeof order[0] && !rc; i++) {
        sqlite3_stmt *s = d->st[order[i]];
        sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
        rc = step_done(d, s, msg, "delete");
    }
    return rc;
}

static fig_err_t write_one(db_t *d, const fig_db_write_t *w, fig_msg_t *msg)
{
    switch (w->kind) {
    case FIG_DBW_TABLE:
        return table_add(d, &w->row, msg);
    case FIG_DBW_SEAT:
        bind_seat(d->st[ST_SEAT], w->code, w->seat, &w->seat_row);
        return step_done(d, d->st[ST_SEAT], msg, "seat");
    case FIG_DBW_GAME:
        return game_add(d, w->code, w->game, &w->setup, w->ev, msg);
    case FIG_DBW_ACTION:
        return action_add(d, w->code, w->game, w->index, &w->action, msg);
    case FIG_DBW_DELETE:
        return table_delete(d, w->code, msg);
    case FIG_DBW_EVENTS:
        sqlite3_bind_text(d->st[ST_EVENTS], 1, w->code, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(d->st[ST_EVENTS], 2, w->ev);
        return step_done(d, d->st[ST_EVENTS], msg, "events");
    case FIG_DBW_REVIEW: {
        sqlite3_stmt *s = d->st[ST_REVIEW];
        sqlite3_bind_text(s, 1, w->code, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(s, 2, w->game);
        sqlite3_bind_int(s, 3, w->seat);
        sqlite3_bind_text(s, 4, w->text ? w->text : "", -1, SQLITE_TRANSIENT);
        return step_done(d, s, msg, "review");
    }
    case FIG_DBW_RESULT:
        return fig_db_result_write(&d->base, w->code, w->game, w->result, msg);
    }
    return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "an unknown write");
}

static fig_err_t apply(fig_db_t *db, fig_db_batch_t *list)
{
    db_t *d = (db_t *)db;
    fig_msg_t msg;
    /* A batch alone needs no savepoint: the transaction is its own, and
     * undoing the batch is rolling it back. */
    bool alone = list && !list->next, undone = false;
    fig_err_t rc = control(d, ST_BEGIN, &msg);
    for (fig_db_batch_t *b = list; b && !rc; b = b->next) {
        b->rc = alone ? FIG_OK : control(d, ST_SAVEPOINT, &b->msg);
        for (int i = 0; i < b->n && !b->rc; i++)
            b->rc = write_one(d, &b->w[i], &b->msg);
        if (alone) {
            if ((undone = b->rc != FIG_OK))
                sqlite3_exec(d->sq, "ROLLBACK", NULL, NULL, NULL);
            continue;
        }
        if (b->rc)
            sqlite3_exec(d->sq, "ROLLBACK TO b", NULL, NULL, NULL);
        if (control(d, ST_RELEASE, &msg) != FIG_OK)
            rc = FIG_ERR_INPUT;
    }
    if (!rc && !undone)
        rc = control(d, ST_COMMIT, &msg);
    if (rc) {
        sqlite3_exec(d->sq, "ROLLBACK", NULL, NULL, NULL);
        for (fig_db_batch_t *b = list; b; b = b->next) {
            b->rc = rc;
            b->msg = msg;
        }
    }
    return rc;
}

static const char *col_text(sqlite3_stmt *s, int i)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    return t ? (const char *)t : "";
}

static fig_err_t game_get(fig_db_t *db, const char *code, int game, fig_db_game_t *out,
                          fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    memset(out, 0, sizeof *out);
    out->game = game;
    sqlite3_stmt *s = d->st[ST_GET_GAME];
    sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, game);
    int rc = sqlite3_step(s);
    fig_err_t err = FIG_OK;
    if (rc == SQLITE_ROW)
        err = fig_db_setup_read(out, code, game, sqlite3_column_int(s, 0),
                                sqlite3_column_int(s, 1), sqlite3_column_int(s, 2),
                                col_text(s, 3), (uint64_t)sqlite3_column_int64(s, 4),
                                sqlite3_column_int64(s, 5), msg);
    else if (rc == SQLITE_DONE)
        err = fig_fail(msg, FIG_ERR_INPUT, N_("table %s has no game %d"), code, game);
    else
        err = sq_fail(d, msg, "game");
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    if (err)
        return err;
    s = d->st[ST_GET_ACTIONS];
    sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, game);
    while (!err && (rc = sqlite3_step(s)) == SQLITE_ROW)
        err = fig_db_action_read(out, code, sqlite3_column_int(s, 0), sqlite3_column_int(s, 1),
                                 col_text(s, 2), sqlite3_column_int64(s, 3), msg);
    if (!err && rc != SQLITE_DONE)
        err = sq_fail(d, msg, "actions");
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return err;
}

static fig_err_t review_get(fig_db_t *db, const char *code, int game, int seat, char **out,
                            fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    *out = NULL;
    sqlite3_stmt *s = d->st[ST_GET_REVIEW];
    sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(s, 2, game);
    sqlite3_bind_int(s, 3, seat);
    int rc = sqlite3_step(s);
    fig_err_t err = FIG_OK;
    if (rc == SQLITE_ROW) {
        const char *t = col_text(s, 0);
        size_t n = strlen(t);
        if (!(*out = malloc(n + 1)))
            err = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
        else
            memcpy(*out, t, n + 1);
    } else if (rc != SQLITE_DONE) {
        err = sq_fail(d, msg, "review");
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return err;
}

static fig_err_t read_seats(db_t *d, fig_db_table_t *t, fig_msg_t *msg)
{
    sqlite3_stmt *s = d->st[ST_SEATS];
    sqlite3_bind_text(s, 1, t->code, -1, SQLITE_TRANSIENT);
    int rc = SQLITE_DONE, n = 0;
    fig_err_t err = FIG_OK;
    while (!err && (rc = sqlite3_step(s)) == SQLITE_ROW)
        if (!(err = fig_db_seat_read(t, n, sqlite3_column_int(s, 0), col_text(s, 1),
                                     col_text(s, 2), col_text(s, 3), col_text(s, 4),
                                     sqlite3_column_int(s, 5), col_text(s, 6), msg)))
            n++;
    if (!err && rc != SQLITE_DONE)
        err = sq_fail(d, msg, "seats");
    if (!err && n != t->players)
        err = fig_fail(msg, FIG_ERR_INPUT, N_("database: table %s: %d seats for %d players"),
                       t->code, n, t->players);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return err;
}

static fig_err_t last_game(db_t *d, const char *code, int *game, fig_msg_t *msg)
{
    sqlite3_stmt *s = d->st[ST_LAST_GAME];
    sqlite3_bind_text(s, 1, code, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    *game = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc == SQLITE_ROW ? FIG_OK : sq_fail(d, msg, "games");
}

/* Every table, whatever max: this server is the only one there is. */
static fig_err_t load(fig_db_t *db, int max, fig_db_table_fn *fn, void *ctx, fig_msg_t *msg)
{
    (void)max;
    db_t *d = (db_t *)db;
    /* The list of tables is read whole first: the callback may write. */
    fig_db_table_t *list = NULL;
    size_t n = 0, cap = 0;
    sqlite3_stmt *s = d->st[ST_TABLES];
    int rc;
    fig_err_t err = FIG_OK;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : 16;
            fig_db_table_t *nl = realloc(list, ncap * sizeof *nl);
            if (!nl) {
                err = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
                break;
            }
            list = nl;
            cap = ncap;
        }
        fig_db_table_t *t = &list[n];
        memset(t, 0, sizeof *t);
        const char *code = col_text(s, 0), *fill = col_text(s, 4);
        t->players = sqlite3_column_int(s, 1);
        t->move_seconds = sqlite3_column_int(s, 2);
        t->open = sqlite3_column_int(s, 3) != 0;
        t->seed = (uint64_t)sqlite3_column_int64(s, 5);
        t->created = sqlite3_column_int64(s, 6);
        t->ev_hw = sqlite3_column_int64(s, 7);
        t->hints = sqlite3_column_int(s, 8) != 0;
        t->listed = sqlite3_column_int(s, 9) != 0;
        if ((err = fig_db_table_read(t, code, fill, msg)))
            break;
        n++;
    }
    if (!err && rc != SQLITE_DONE)
        err = sq_fail(d, msg, "tables");
    sqlite3_reset(s);
    fig_db_game_t *g = malloc(sizeof *g);
    if (!err && !g)
        err = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    for (size_t i = 0; i < n && !err; i++) {
        int last = 0;
        if ((err = read_seats(d, &list[i], msg)) || (err = last_game(d, list[i].code, &last, msg)))
            break;
        if (last > 0 && (err = game_get(db, list[i].code, last, g, msg)))
            break;
        err = fn(ctx, &list[i], last > 0 ? g : NULL, msg);
    }
    free(g);
    free(list);
    return err;
}

/* ---- the people calls' statements (db_sql.h), prepared at each call: they
 * are few beside a game's actions */

static void bind_param(sqlite3_stmt *s, int i, const fig_dbp_t *p)
{
    char name[16];
    snprintf(name, sizeof name, "$%d", i % 1000 + 1);
    int k = sqlite3_bind_parameter_index(s, name);
    if (k == 0)
        return;
    switch (p->kind) {
    case FIG_DBP_TEXT:
        sqlite3_bind_text(s, k, p->s, -1, SQLITE_TRANSIENT);
        break;
    case FIG_DBP_INT:
    case FIG_DBP_BOOL:
        sqlite3_bind_int64(s, k, p->i);
        break;
    case FIG_DBP_REAL:
        sqlite3_bind_double(s, k, p->d);
        break;
    case FIG_DBP_NULL:
        sqlite3_bind_null(s, k);
        break;
    }
}

enum { SQL_COLS = 16 };

/* A row's values as text: a real as %.17g (read back exactly). */
static fig_err_t row_out(sqlite3_stmt *s, fig_db_row_fn *fn, void *ctx, fig_msg_t *msg)
{
    int n = sqlite3_column_count(s);
    const char *col[SQL_COLS];
    char reals[SQL_COLS][32];
    if (n > SQL_COLS)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "too many columns");
    for (int i = 0; i < n; i++) {
        if (sqlite3_column_type(s, i) == SQLITE_FLOAT) {
            snprintf(reals[i], sizeof reals[i], "%.17g", sqlite3_column_double(s, i));
            col[i] = reals[i];
        } else {
            col[i] = col_text(s, i);
        }
    }
    return fn(ctx, col, n, msg);
}

static fig_err_t sql_query(fig_db_t *db, const char *sql, const fig_dbp_t *p, int n,
                           fig_db_row_fn *fn, void *ctx, fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(d->sq, sql, -1, &s, NULL) != SQLITE_OK)
        return sq_fail(d, msg, "prepare");
    for (int i = 0; i < n; i++)
        bind_param(s, i, &p[i]);
    int rc = SQLITE_DONE;
    fig_err_t err = FIG_OK;
    while (!err && (rc = sqlite3_step(s)) == SQLITE_ROW)
        if (fn)
            err = row_out(s, fn, ctx, msg);
    if (!err && rc != SQLITE_DONE)
        err = (rc & 0xff) == SQLITE_CONSTRAINT && sqlite3_extended_errcode(d->sq) !=
                  SQLITE_CONSTRAINT_FOREIGNKEY
                  ? fig_fail(msg, FIG_ERR_STATE, N_("database: %s: already stored"), "person")
                  : sq_fail(d, msg, "people");
    sqlite3_finalize(s);
    return err;
}

static fig_err_t sql_begin(fig_db_t *db, fig_msg_t *msg)
{
    return control((db_t *)db, ST_BEGIN, msg);
}

static fig_err_t sql_commit(fig_db_t *db, fig_msg_t *msg)
{
    return control((db_t *)db, ST_COMMIT, msg);
}

static void sql_rollback(fig_db_t *db)
{
    sqlite3_exec(((db_t *)db)->sq, "ROLLBACK", NULL, NULL, NULL);
}

static const struct fig_db_sql sqlite_sql = { false, sql_query, sql_begin, sql_commit,
                                              sql_rollback };

static void close_db(fig_db_t *db)
{
    db_t *d = (db_t *)db;
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(d->st[i]);
    sqlite3_close(d->sq);
    free(d);
}

static const fig_db_ops_t sqlite_ops = {
    apply, game_get, review_get, load, NULL, NULL, NULL, close_db,   /* one server: no leases */
    quick, upkeep, &sqlite_sql,
};

fig_err_t fig_db_sqlite_open(fig_db_t **out, const char *path, const fig_db_opts_t *opts,
                             fig_msg_t *msg)
{
    *out = NULL;
    db_t *d = calloc(1, sizeof *d);
    if (!d)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    d->base.ops = &sqlite_ops;
    if (sqlite3_open_v2(path, &d->sq, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
                        SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fig_err_t rc = fig_fail(msg, FIG_ERR_INPUT, N_("database %s: %s"), path,
                                d->sq ? sqlite3_errmsg(d->sq) : "out of memory");
        sqlite3_close(d->sq);
        free(d);
        return rc;
    }
    sqlite3_busy_timeout(d->sq, 2000);
    fig_err_t rc = exec(d, "PRAGMA journal_mode=WAL", msg);
    if (!rc)
        rc = exec(d, opts && opts->normal_sync ? "PRAGMA synchronous=NORMAL"
                                               : "PRAGMA synchronous=FULL", msg);
    if (!rc)
        rc = exec(d, "PRAGMA foreign_keys=ON", msg);
    d->normal_sync = opts && opts->normal_sync;
    sqlite3_wal_hook(d->sq, wal_hook, d);   /* instead of SQLite's automatic checkpoint */
    int version = 0;
    if (!rc)
        rc = user_version(d, &version, msg);
    if (!rc && version > SCHEMA_VERSION)
        rc = fig_fail(msg, FIG_ERR_INPUT, N_("database %s: version %d, newer than this "
                                             "program's (%d)"), path, version, SCHEMA_VERSION);
    if (!rc && version == 0)
        rc = exec(d, schema, msg);
    for (int v = version; !rc && v >= 1 && v < SCHEMA_VERSION; v++) {
        if ((rc = exec(d, "BEGIN", msg)))
            break;
        if (!(rc = exec(d, upgrade[v], msg)))
            rc = exec(d, "COMMIT", msg);
        if (rc)
            sqlite3_exec(d->sq, "ROLLBACK", NULL, NULL, NULL);
    }
    for (int i = 0; i < ST_COUNT && !rc; i++)
        if (sqlite3_prepare_v2(d->sq, sql_text[i], -1, &d->st[i], NULL) != SQLITE_OK)
            rc = sq_fail(d, msg, "prepare");
    if (rc) {
        close_db(&d->base);
        return rc;
    }
    *out = &d->base;
    return FIG_OK;
}
