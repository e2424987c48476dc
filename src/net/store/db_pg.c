/* SPDX-License-Identifier: MIT */
/* db_pg.c - the PostgreSQL back end of the storage interface (db.h), on
 * libpq: several servers may share one database (docs/scaling.md).
 *
 * One connection per handle, its session at synchronous_commit = on (a
 * commit returns once the server has flushed it to its WAL) and
 * client_encoding UTF8. Every statement is prepared once per session.
 * fig_db_apply writes a chain of batches in one transaction (one WAL flush
 * for all: the group commit), first in one round trip: every statement
 * sent at once in libpq's pipeline mode, no savepoints. If anything fails
 * there (a batch fenced, an action stored twice: a unique violation), the
 * group is rolled back and written again one statement at a time, each
 * batch inside its own SAVEPOINT, so that the batch that fails is undone
 * alone; a group with a game's result (FIG_DBW_RESULT reads what it then
 * writes) goes that way at once. A connection found broken is reset
 * before the next call (its statements prepared again); the call that found
 * it broken fails, and the server then reads back what is stored, as after
 * any failed write.
 *
 * Schema: SQLite's (db_sqlite.c), the same columns with PostgreSQL's types
 * (booleans for open and hints, bigint for the seeds, event numbers and the
 * creation time in Unix seconds), and `n`, an identity that orders tables
 * created in the same second as SQLite's rowid does, and each table's lease:
 * `owner` (a server's node name) and `lease_until` (docs/scaling.md; SQLite,
 * one server's, has none). Every write of a batch is fenced: the batch
 * first locks its table's row FOR SHARE where this server holds a live lease
 * on it, else the batch is refused (`fenced`); a take of that row by another
 * server waits for the transaction's end. A new table is its creator's.
 * Its version is a row
 * of figaro_schema (FIG_DB_SCHEMA, the same meaning as SQLite's
 * user_version); creating or upgrading it takes a transaction-wide advisory
 * lock, so servers started together do it once. PostgreSQL came at version
 * 3 (a new database is made so, then upgraded): version 3 takes the
 * reviews' table, version 4 people's (as SQLite's, booleans for hidden and
 * rated, an identity for a record's id), the seats' person and the tables'
 * listed option, version 5 the log of the people forgotten. */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/store/db_pg_sql.h"
#include "net/store/db_row.h"
#include "net/store/db_sql.h"

typedef struct {
    fig_db_t base;        /* first: a fig_db_t * is a db_t * */
    PGconn *pg;
    char node[FIG_DB_NODE_MAX + 1];
    int lease_ms;
    bool piped;           /* run() sends (libpq's pipeline mode), apply reads */
    bool stuck;           /* a pipeline left unfinished: the session is made again */
    bool txn;             /* inside a transaction (apply's, a people call's): a broken
                             connection then fails the rest, never made again midway */
} db_t;

/* Parameters of one statement, as text. */
typedef struct {
    const char *v[12];
    char buf[12][24];
    int n;
} params_t;

static void p_text(params_t *p, const char *s) { p->v[p->n++] = s; }

static void p_int(params_t *p, long long x)
{
    snprintf(p->buf[p->n], sizeof p->buf[0], "%lld", x);
    p->v[p->n] = p->buf[p->n];
    p->n++;
}

static void p_bool(params_t *p, bool b) { p->v[p->n++] = b ? "t" : "f"; }

static fig_err_t pg_fail(db_t *d, fig_msg_t *msg, const char *what, const PGresult *r)
{
    const char *why = r ? PQresultErrorMessage(r) : "";
    if (!why[0])
        why = PQerrorMessage(d->pg);
    char text[200];
    snprintf(text, sizeof text, "%s", why);
    text[strcspn(text, "\n")] = '\0';   /* libpq's messages end with a newline, or more lines */
    return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s: %s"), what, text);
}

/* The outcome of a statement: FIG_OK (its result in *out when out is not
 * NULL, else cleared), FIG_ERR_STATE for a unique key already taken,
 * FIG_ERR_INPUT else. */
static fig_err_t check(db_t *d, PGresult *r, PGresult **out, fig_msg_t *msg, const char *what)
{
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
        if (out)
            *out = r;
        else
            PQclear(r);
        return FIG_OK;
    }
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    fig_err_t rc = state && strcmp(state, "23505") == 0
                       ? fig_fail(msg, FIG_ERR_STATE, N_("database: %s: already stored"), what)
                       : pg_fail(d, msg, what, r);
    PQclear(r);
    return rc;
}

static fig_err_t run(db_t *d, int st, const params_t *p, PGresult **out, fig_msg_t *msg,
                     const char *what)
{
    char name[16];
    snprintf(name, sizeof name, "s%d", st);
    if (d->piped)   /* a write of a pipelined group: its result is read at its end */
        return PQsendQueryPrepared(d->pg, name, p->n, p->v, NULL, NULL, 0)
                   ? FIG_OK : pg_fail(d, msg, what, NULL);
    return check(d, PQexecPrepared(d->pg, name, p->n, p->v, NULL, NULL, 0), out, msg, what);
}

static fig_err_t exec(db_t *d, const char *sql, fig_msg_t *msg)
{
    return check(d, PQexec(d->pg, sql), NULL, msg, "exec");
}

/* A new session's settings. */
static fig_err_t settings(db_t *d, fig_msg_t *msg)
{
    if (PQsetClientEncoding(d->pg, "UTF8") != 0)
        return pg_fail(d, msg, "client_encoding", NULL);
    fig_err_t rc = exec(d, "SET synchronous_commit = on", msg);
    return rc ? rc : exec(d, "SET client_min_messages = warning", msg);   /* no NOTICE lines */
}

/* A new session's statements (once the schema is there). */
static fig_err_t prepare(db_t *d, fig_msg_t *msg)
{
    fig_err_t rc = FIG_OK;
    for (int i = 0; i < PGS_COUNT && !rc; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        rc = check(d, PQprepare(d->pg, name, fig_pg_sql[i], 0, NULL), NULL, msg, "prepare");
    }
    return rc;
}

/* Before every call: a broken connection is made again, a transaction
 * left open by a failure is ended. */
static fig_err_t ready(db_t *d, fig_msg_t *msg)
{
    if (PQstatus(d->pg) != CONNECTION_OK || d->stuck) {
        d->stuck = false;
        PQreset(d->pg);
        if (PQstatus(d->pg) != CONNECTION_OK)
            return pg_fail(d, msg, "connection", NULL);
        fig_err_t rc = settings(d, msg);
        return rc ? rc : prepare(d, msg);
    }
    if (PQtransactionStatus(d->pg) != PQTRANS_IDLE)
        PQclear(PQexec(d->pg, "ROLLBACK"));
    return FIG_OK;
}

static void bind_seat(params_t *p, const char *code, int seat, const fig_db_seat_t *x)
{
    p_text(p, code);
    p_int(p, seat);
    p_text(p, fig_db_kind_name(x->kind));
    p_text(p, x->what);
    p_text(p, x->name);
    p_text(p, x->token_hash);
    p_int(p, x->rematch);
    p_text(p, x->person[0] ? x->person : NULL);   /* NULL: no person */
}

static fig_err_t table_add(db_t *d, const fig_db_table_t *t, fig_msg_t *msg)
{
    params_t p = { .n = 0 };
    p_text(&p, t->code);
    p_int(&p, t->players);
    p_int(&p, t->move_seconds);
    p_bool(&p, t->open);
    p_text(&p, t->fill);
    p_int(&p, (long long)t->seed);
    p_int(&p, t->created);
    p_bool(&p, t->hints);
    p_text(&p, d->node);
    p_int(&p, d->lease_ms);
    p_bool(&p, t->listed);
    fig_err_t rc = run(d, PGS_TABLE, &p, NULL, msg, "table");
    for (int i = 0; i < t->players && rc == FIG_OK; i++) {
        params_t q = { .n = 0 };
        bind_seat(&q, t->code, i, &t->seats[i]);
        rc = run(d, PGS_SEAT, &q, NULL, msg, "seat");
    }
    return rc;
}

static fig_err_t write_one(db_t *d, const fig_db_write_t *w, fig_msg_t *msg)
{
    params_t p = { .n = 0 };
    switch (w->kind) {
    case FIG_DBW_TABLE:
        return table_add(d, &w->row, msg);
    case FIG_DBW_SEAT:
        bind_seat(&p, w->code, w->seat, &w->seat_row);
        return run(d, PGS_SEAT, &p, NULL, msg, "seat");
    case FIG_DBW_GAME: {
        char roads[256];
        fig_db_roads_text(&w->setup, roads, sizeof roads);
        p_text(&p, w->code);
        p_int(&p, w->game);
        p_int(&p, w->setup.players);
        p_int(&p, w->setup.removed);
        p_int(&p, w->setup.king);
        p_text(&p, roads);
        p_int(&p, (long long)w->setup.seed);
        p_int(&p, w->ev);
        fig_err_t rc = run(d, PGS_GAME, &p, NULL, msg, "game");
        params_t q = { .n = 0 };
        p_text(&q, w->code);
        return rc ? rc : run(d, PGS_LEFT_GONE, &q, NULL, msg, "game");
    }
    case FIG_DBW_ACTION: {
        char text[16];
        p_text(&p, w->code);
        p_int(&p, w->game);
        p_int(&p, w->index);
        p_int(&p, w->action.seat);
        p_text(&p, fig_act_format(w->action.action, text, sizeof text));
        p_int(&p, w->action.ev);
        return run(d, PGS_ACTION, &p, NULL, msg, "action");
    }
    case FIG_DBW_DELETE: {
        /* Everything of a table, children first (the foreign keys). */
        static const int order[] = { PGS_DEL_REVIEWS, PGS_DEL_ACTIONS, PGS_DEL_GAMES,
                                     PGS_DEL_SEATS, PGS_DEL_EVENTS, PGS_DEL_TABLE };
        p_text(&p, w->code);
        fig_err_t rc = FIG_OK;
        for (size_t i = 0; i < sizeof order / sizeof order[0] && !rc; i++)
            rc = run(d, order[i], &p, NULL, msg, "delete");
        return rc;
    }
    case FIG_DBW_EVENTS:
        p_text(&p, w->code);
        p_int(&p, w->ev);
        return run(d, PGS_EVENTS, &p, NULL, msg, "events");
    case FIG_DBW_REVIEW:
        p_text(&p, w->code);
        p_int(&p, w->game);
        p_int(&p, w->seat);
        p_text(&p, w->text ? w->text : "");
        return run(d, PGS_REVIEW, &p, NULL, msg, "review");
    case FIG_DBW_RESULT:   /* reads as it writes: never in a pipeline (piped) */
        return fig_db_result_write(&d->base, w->code, w->game, w->result, msg);
    }
    return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "an unknown write");
}

/* COMMIT of a transaction that failed answers ROLLBACK, without an error. */
static fig_err_t commit(db_t *d, fig_msg_t *msg)
{
    PGresult *r = PQexec(d->pg, "COMMIT");
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(r), "COMMIT") == 0;
    if (ok) {
        PQclear(r);
        return FIG_OK;
    }
    fig_err_t rc = pg_fail(d, msg, "commit", r);
    PQclear(r);
    return rc;
}

/* Whether this server may write batch b's table: it holds its lease, or
 * the batch makes the table. */
static fig_err_t fence(db_t *d, fig_db_batch_t *b)
{
    if (b->n == 0 || b->w[0].kind == FIG_DBW_TABLE)
        return FIG_OK;
    params_t p = { .n = 0 };
    p_text(&p, b->w[0].code);
    p_text(&p, d->node);
    PGresult *r;
    fig_err_t rc = run(d, PGS_FENCE, &p, &r, &b->msg, "lease");
    if (rc)
        return rc;
    bool mine = PQntuples(r) == 1;
    PQclear(r);
    if (mine)
        return FIG_OK;
    b->fenced = true;
    return fig_fail(&b->msg, FIG_ERR_STATE, N_("database: table %s is not this server's "
                                               "(%s) now: its lease is lost"),
                    b->w[0].code, d->node);
}

/* Sends one statement without parameters in a pipeline. */
static bool send_plain(db_t *d, const char *sql)
{
    return PQsendQueryParams(d->pg, sql, 0, NULL, NULL, NULL, NULL, 0) == 1;
}

/* The whole group in one round trip (libpq's pipeline mode): BEGIN, each
 * batch's fence (as an error: PGS_FENCE_OR_FAIL) and writes, COMMIT, one
 * sync; no savepoints. True when all of it was committed. False when
 * something failed before the commit (a fenced batch, an action stored
 * twice): the server rolled the group back, and apply writes it again one
 * statement at a time, which gives each batch its own outcome. Groups
 * longer than PIPE_MAX statements, and a broken connection, go that way
 * too. */
enum { PIPE_MAX = 4096 };

static bool piped(db_t *d, fig_db_batch_t *list)
{
    int n = 2;
    for (fig_db_batch_t *b = list; b; b = b->next, n++)
        for (int i = 0; i < b->n; i++) {
            if (b->w[i].kind == FIG_DBW_RESULT)   /* reads what it writes next */
                return false;
            n += 1 + (b->w[i].kind == FIG_DBW_TABLE ? b->w[i].row.players
                      : b->w[i].kind == FIG_DBW_DELETE ? 5 : 0);
        }
    if (n > PIPE_MAX || PQenterPipelineMode(d->pg) != 1)
        return false;
    fig_msg_t msg;
    d->piped = true;
    bool sent = send_plain(d, "BEGIN");
    for (fig_db_batch_t *b = list; b && sent; b = b->next) {
        if (b->n > 0 && b->w[0].kind != FIG_DBW_TABLE) {
            params_t p = { .n = 0 };
            p_text(&p, b->w[0].code);
            p_text(&p, d->node);
            sent = run(d, PGS_FENCE_OR_FAIL, &p, NULL, &msg, "lease") == FIG_OK;
        }
        for (int i = 0; i < b->n && sent; i++)
            sent = write_one(d, &b->w[i], &msg) == FIG_OK;
    }
    d->piped = false;
    sent = sent && send_plain(d, "COMMIT");
    bool synced = PQpipelineSync(d->pg) == 1, ok = sent && synced, committed = false;
    /* Every result, up to the sync's (or nothing more pending). */
    for (int nulls = 0; synced && nulls < 2;) {
        PGresult *r = PQgetResult(d->pg);
        if (!r) {
            nulls++;
            continue;
        }
        nulls = 0;
        ExecStatusType st = PQresultStatus(r);
        if (st == PGRES_PIPELINE_SYNC) {
            PQclear(r);
            break;
        }
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
            ok = false;
        committed = st == PGRES_COMMAND_OK && strcmp(PQcmdStatus(r), "COMMIT") == 0;
        PQclear(r);
    }
    d->stuck = PQexitPipelineMode(d->pg) != 1;
    return ok && committed;
}

static fig_err_t apply(fig_db_t *db, fig_db_batch_t *list)
{
    db_t *d = (db_t *)db;
    fig_msg_t msg;
    fig_err_t rc = ready(d, &msg);
    if (!rc && piped(d, list)) {
        for (fig_db_batch_t *b = list; b; b = b->next) {
            b->fenced = false;
            b->rc = FIG_OK;
        }
        return FIG_OK;
    }
    if (!rc)
        rc = ready(d, &msg);   /* what the pipeline left: rolled back */
    if (!rc)
        rc = exec(d, "BEGIN", &msg);
    d->txn = true;
    for (fig_db_batch_t *b = list; b && !rc; b = b->next) {
        b->fenced = false;
        if (!(b->rc = exec(d, "SAVEPOINT b", &b->msg)))
            b->rc = fence(d, b);
        for (int i = 0; i < b->n && !b->rc; i++)
            b->rc = write_one(d, &b->w[i], &b->msg);
        if (b->rc)
            rc = exec(d, "ROLLBACK TO SAVEPOINT b", &msg);
        if (!rc)
            rc = exec(d, "RELEASE SAVEPOINT b", &msg);
    }
    if (!rc)
        rc = commit(d, &msg);
    d->txn = false;
    if (rc) {
        if (PQstatus(d->pg) == CONNECTION_OK)
            PQclear(PQexec(d->pg, "ROLLBACK"));
        for (fig_db_batch_t *b = list; b; b = b->next) {
            b->rc = rc;
            b->msg = msg;
        }
    }
    return rc;
}

static long long col_ll(const PGresult *r, int row, int col)
{
    return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static int col_int(const PGresult *r, int row, int col) { return (int)col_ll(r, row, col); }

static bool col_bool(const PGresult *r, int row, int col)
{
    return PQgetvalue(r, row, col)[0] == 't';
}

static fig_err_t get_game(db_t *d, const char *code, int game, fig_db_game_t *out,
                          fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    out->game = game;
    params_t p = { .n = 0 };
    p_text(&p, code);
    p_int(&p, game);
    PGresult *r;
    fig_err_t err = run(d, PGS_GET_GAME, &p, &r, msg, "game");
    if (err)
        return err;
    if (PQntuples(r) == 0)
        err = fig_fail(msg, FIG_ERR_INPUT, N_("table %s has no game %d"), code, game);
    else
        err = fig_db_setup_read(out, code, game, col_int(r, 0, 0), col_int(r, 0, 1),
                                col_int(r, 0, 2), PQgetvalue(r, 0, 3),
                                (uint64_t)col_ll(r, 0, 4), col_ll(r, 0, 5), msg);
    PQclear(r);
    if (err || (err = run(d, PGS_GET_ACTIONS, &p, &r, msg, "actions")))
        return err;
    for (int i = 0; i < PQntuples(r) && !err; i++)
        err = fig_db_action_read(out, code, col_int(r, i, 0), col_int(r, i, 1),
                                 PQgetvalue(r, i, 2), col_ll(r, i, 3), msg);
    PQclear(r);
    return err;
}

static fig_err_t game_get(fig_db_t *db, const char *code, int game, fig_db_game_t *out,
                          fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    fig_err_t rc = ready(d, msg);
    return rc ? rc : get_game(d, code, game, out, msg);
}

static fig_err_t review_get(fig_db_t *db, const char *code, int game, int seat, char **out,
                            fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    *out = NULL;
    fig_err_t err = ready(d, msg);
    if (err)
        return err;
    params_t p = { .n = 0 };
    p_text(&p, code);
    p_int(&p, game);
    p_int(&p, seat);
    PGresult *r;
    if ((err = run(d, PGS_GET_REVIEW, &p, &r, msg, "review")))
        return err;
    if (PQntuples(r) == 1 && !(*out = strdup(PQgetvalue(r, 0, 0))))
        err = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    PQclear(r);
    return err;
}

static fig_err_t read_seats(db_t *d, fig_db_table_t *t, fig_msg_t *msg)
{
    params_t p = { .n = 0 };
    p_text(&p, t->code);
    PGresult *r;
    fig_err_t err = run(d, PGS_SEATS, &p, &r, msg, "seats");
    if (err)
        return err;
    int n = PQntuples(r);
    for (int i = 0; i < n && !err; i++)
        err = fig_db_seat_read(t, i, col_int(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2),
                               PQgetvalue(r, i, 3), PQgetvalue(r, i, 4), col_int(r, i, 5),
                               PQgetvalue(r, i, 6), msg);
    PQclear(r);
    if (!err && n != t->players)
        err = fig_fail(msg, FIG_ERR_INPUT, N_("database: table %s: %d seats for %d players"),
                       t->code, n, t->players);
    return err;
}

static fig_err_t last_game(db_t *d, const char *code, int *game, fig_msg_t *msg)
{
    params_t p = { .n = 0 };
    p_text(&p, code);
    PGresult *r;
    fig_err_t err = run(d, PGS_LAST_GAME, &p, &r, msg, "games");
    if (err)
        return err;
    *game = PQntuples(r) == 1 ? col_int(r, 0, 0) : 0;
    PQclear(r);
    return FIG_OK;
}

/* n codes as a text[] literal, "{K7M2QX,...}" (codes are letters and
 * digits); at(src, i) is the ith. NULL: out of memory. */
static char *code_array(int n, const char *(*at)(const void *src, int i), const void *src)
{
    char *a = malloc((size_t)n * (FIG_TABLE_CODE_LEN + 1) + 3);
    if (!a)
        return NULL;
    size_t len = 0;
    a[len++] = '{';
    for (int i = 0; i < n; i++) {
        if (i)
            a[len++] = ',';
        size_t k = strnlen(at(src, i), FIG_TABLE_CODE_LEN);
        memcpy(a + len, at(src, i), k);
        len += k;
    }
    a[len++] = '}';
    a[len] = '\0';
    return a;
}

static const char *result_code(const void *r, int i) { return PQgetvalue(r, i, 0); }

static const char *listed_code(const void *codes, int i)
{
    return ((const fig_db_code_t *)codes)[i];
}

/* Takes the tables statement st (PGS_TAKE, PGS_TAKE_MINE: at most `max`;
 * PGS_CLAIM: `code`) gives this node, and calls fn for each, oldest first.
 * *n: how many were taken. */
static fig_err_t take_tables(db_t *d, int st, int max, const char *code, fig_db_table_fn *fn,
                             void *ctx, int *n, fig_msg_t *msg)
{
    *n = 0;
    fig_err_t err = ready(d, msg);
    if (err)
        return err;
    params_t p = { .n = 0 };
    p_text(&p, d->node);
    p_int(&p, d->lease_ms);
    if (code)
        p_text(&p, code);
    else
        p_int(&p, max);
    PGresult *taken, *r;
    if ((err = run(d, st, &p, &taken, msg, "take")))
        return err;
    *n = PQntuples(taken);
    char *codes = PQntuples(taken) ? code_array(PQntuples(taken), result_code, taken) : NULL;
    PQclear(taken);
    if (!codes)   /* none taken, or out of memory (they come back when their lease ends) */
        return FIG_OK;
    params_t q = { .n = 0 };
    p_text(&q, codes);
    err = run(d, PGS_TABLES, &q, &r, msg, "tables");
    free(codes);
    if (err)
        return err;
    fig_db_table_t *t = malloc(sizeof *t);
    fig_db_game_t *g = malloc(sizeof *g);
    if (!t || !g)
        err = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    for (int i = 0; i < PQntuples(r) && !err; i++) {
        memset(t, 0, sizeof *t);
        t->players = col_int(r, i, 1);
        t->move_seconds = col_int(r, i, 2);
        t->open = col_bool(r, i, 3);
        t->seed = (uint64_t)col_ll(r, i, 5);
        t->created = col_ll(r, i, 6);
        t->ev_hw = col_ll(r, i, 7);
        t->hints = col_bool(r, i, 8);
        t->listed = col_bool(r, i, 9);
        int last = 0;
        if ((err = fig_db_table_read(t, PQgetvalue(r, i, 0), PQgetvalue(r, i, 4), msg)) ||
            (err = read_seats(d, t, msg)) || (err = last_game(d, t->code, &last, msg)))
            break;
        if (last > 0 && (err = get_game(d, t->code, last, g, msg)))
            break;
        err = fn(ctx, t, last > 0 ? g : NULL, msg);
    }
    PQclear(r);
    free(g);
    free(t);
    return err;
}

/* At start: at most max of this node's own (a restart) and the tables
 * nobody holds, its own first. */
static fig_err_t load(fig_db_t *db, int max, fig_db_table_fn *fn, void *ctx, fig_msg_t *msg)
{
    int n;
    return take_tables((db_t *)db, PGS_TAKE_MINE, max, NULL, fn, ctx, &n, msg);
}

static fig_err_t take(fig_db_t *db, int max, fig_db_table_fn *fn, void *ctx, fig_msg_t *msg)
{
    int n;
    return take_tables((db_t *)db, PGS_TAKE, max, NULL, fn, ctx, &n, msg);
}

static fig_err_t claim(fig_db_t *db, const char *code, fig_db_table_fn *fn, void *ctx,
                       char owner[FIG_DB_NODE_MAX + 1], fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    int n = 0;
    fig_err_t err = fn ? take_tables(d, PGS_CLAIM, 1, code, fn, ctx, &n, msg) : FIG_OK;
    if (err || n > 0)
        return err;
    params_t p = { .n = 0 };
    p_text(&p, code);
    PGresult *r;
    if ((err = run(d, PGS_OWNER, &p, &r, msg, "owner")))
        return err;
    if (PQntuples(r) == 0)
        err = fig_fail(msg, FIG_ERR_INPUT, N_("there is no table %s"), code);
    else
        snprintf(owner, FIG_DB_NODE_MAX + 1, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return err;
}

static fig_err_t renew(fig_db_t *db, const fig_db_code_t *codes, int n, bool *lost,
                       fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    if (n == 0)
        return FIG_OK;
    fig_err_t err = ready(d, msg);
    if (err)
        return err;
    char *list = code_array(n, listed_code, codes);
    if (!list)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    params_t p = { .n = 0 };
    p_text(&p, d->node);
    p_int(&p, d->lease_ms);
    p_text(&p, list);
    PGresult *r;
    err = run(d, PGS_RENEW, &p, &r, msg, "renew");
    free(list);
    if (err)
        return err;
    for (int i = 0; i < n; i++) {
        lost[i] = true;
        for (int k = 0; k < PQntuples(r) && lost[i]; k++)
            if (strcmp(PQgetvalue(r, k, 0), codes[i]) == 0)
                lost[i] = false;
    }
    PQclear(r);
    return FIG_OK;
}

/* ---- the people calls' statements (db_sql.h), sent with their text */

enum { SQL_PARAMS = 16 };

static fig_err_t sql_query(fig_db_t *db, const char *sql, const fig_dbp_t *p, int n,
                           fig_db_row_fn *fn, void *ctx, fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    const char *v[SQL_PARAMS];
    char buf[SQL_PARAMS][32];
    if (n > SQL_PARAMS)
        return fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "too many parameters");
    fig_err_t err = d->txn ? FIG_OK : ready(d, msg);   /* a call of its own */
    if (err)
        return err;
    for (int i = 0; i < n; i++) {   /* a real as %.17g: read back exactly */
        v[i] = p[i].kind == FIG_DBP_TEXT ? p[i].s : p[i].kind == FIG_DBP_NULL ? NULL
               : p[i].kind == FIG_DBP_BOOL ? (p[i].i ? "t" : "f") : buf[i];
        if (p[i].kind == FIG_DBP_REAL)
            snprintf(buf[i], sizeof buf[i], "%.17g", p[i].d);
        else if (p[i].kind == FIG_DBP_INT)
            snprintf(buf[i], sizeof buf[i], "%lld", p[i].i);
    }
    PGresult *r;
    err = check(d, PQexecParams(d->pg, sql, n, NULL, v, NULL, NULL, 0), &r, msg, "people");
    if (err)
        return err;
    int cols = PQnfields(r);
    const char *col[SQL_PARAMS];
    if (cols > SQL_PARAMS)
        err = fig_fail(msg, FIG_ERR_INPUT, N_("database: %s"), "too many columns");
    for (int i = 0; i < PQntuples(r) && fn && !err; i++) {
        for (int k = 0; k < cols; k++)
            col[k] = PQgetvalue(r, i, k);   /* "" for a NULL */
        err = fn(ctx, col, cols, msg);
    }
    PQclear(r);
    return err;
}

static fig_err_t sql_begin(fig_db_t *db, fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    fig_err_t rc = ready(d, msg);
    if (!rc && !(rc = exec(d, "BEGIN", msg)))
        d->txn = true;
    return rc;
}

static fig_err_t sql_commit(fig_db_t *db, fig_msg_t *msg)
{
    db_t *d = (db_t *)db;
    d->txn = false;
    return commit(d, msg);
}

static void sql_rollback(fig_db_t *db)
{
    db_t *d = (db_t *)db;
    d->txn = false;
    if (PQstatus(d->pg) == CONNECTION_OK)
        PQclear(PQexec(d->pg, "ROLLBACK"));
}

static const struct fig_db_sql pg_sql = { true, sql_query, sql_begin, sql_commit,
                                          sql_rollback };

static void close_db(fig_db_t *db)
{
    db_t *d = (db_t *)db;
    PQfinish(d->pg);
    free(d);
}

static const fig_db_ops_t pg_ops = {
    apply, game_get, review_get, load, renew, take, claim, close_db,
    NULL,   /* quick: a commit waits for the server's sync, always */
    NULL,   /* upkeep: the server's own */
    &pg_sql,
};

/* Creates the schema, or brings it up to date, under the advisory lock. */
static fig_err_t migrate(db_t *d, fig_msg_t *msg)
{
    fig_err_t rc = exec(d, "BEGIN", msg);
    PGresult *r = NULL;
    if (!rc)
        rc = check(d, PQexec(d->pg, fig_pg_lock), NULL, msg, "lock");
    if (!rc)
        rc = exec(d, "CREATE TABLE IF NOT EXISTS figaro_schema (version int NOT NULL)", msg);
    if (!rc)
        rc = check(d, PQexec(d->pg, "SELECT max(version) FROM figaro_schema"), &r, msg,
                   "figaro_schema");
    int version = 0;
    if (!rc) {
        version = PQgetisnull(r, 0, 0) ? 0 : col_int(r, 0, 0);
        PQclear(r);
    }
    if (!rc && version > FIG_DB_SCHEMA)
        rc = fig_fail(msg, FIG_ERR_INPUT, N_("database %s: version %d, newer than this "
                                             "program's (%d)"), "PostgreSQL", version,
                      FIG_DB_SCHEMA);
    if (!rc && version == 0 && !(rc = exec(d, fig_pg_schema, msg)))
        version = FIG_PG_FIRST_VERSION;
    for (int v = version; !rc && v >= 1 && v < FIG_DB_SCHEMA; v++)
        rc = v < FIG_PG_FIRST_VERSION || !fig_pg_upgrade[v]
                 ? fig_fail(msg, FIG_ERR_INPUT, N_("database: version %d: no upgrade known"), v)
                 : exec(d, fig_pg_upgrade[v], msg);
    if (!rc)
        rc = commit(d, msg);
    if (rc && PQstatus(d->pg) == CONNECTION_OK)
        PQclear(PQexec(d->pg, "ROLLBACK"));
    return rc;
}

fig_err_t fig_db_pg_open(fig_db_t **out, const char *uri, const fig_db_opts_t *opts,
                         fig_msg_t *msg)
{
    *out = NULL;
    db_t *d = calloc(1, sizeof *d);
    if (!d)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    d->base.ops = &pg_ops;
    snprintf(d->node, sizeof d->node, "%s", opts && opts->node ? opts->node : "local");
    d->lease_ms = opts && opts->lease_ms > 0 ? opts->lease_ms : FIG_DB_LEASE_S * 1000;
    d->pg = PQconnectdb(uri);
    fig_err_t rc;
    if (!d->pg)
        rc = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    else if (PQstatus(d->pg) != CONNECTION_OK)
        rc = pg_fail(d, msg, "connection", NULL);
    else if (!(rc = settings(d, msg)) && !(rc = migrate(d, msg)))
        rc = prepare(d, msg);
    if (rc) {
        close_db(&d->base);
        return rc;
    }
    *out = &d->base;
    return FIG_OK;
}
