/* SPDX-License-Identifier: MIT */
/* db_sql.h - the SQL the people calls (db_people.c, db_forget.c,
 * db_result.c) send through whichever back end runs (db.h): one statement
 * text for both, its parameters written $1, $2, ... (SQLite binds them by
 * those names), its rows handed back as text. What the two dialects do not
 * share is asked of the back end (`pg`: SELECT ... FOR UPDATE). Nothing
 * above db.h uses it. */
#ifndef FIGARO_NET_DB_SQL_H
#define FIGARO_NET_DB_SQL_H

#include "net/store/db.h"

typedef enum { FIG_DBP_TEXT, FIG_DBP_INT, FIG_DBP_REAL, FIG_DBP_BOOL, FIG_DBP_NULL } fig_dbp_kind_t;

/* One parameter. */
typedef struct {
    fig_dbp_kind_t kind;
    const char *s;         /* FIG_DBP_TEXT */
    long long i;           /* FIG_DBP_INT, FIG_DBP_BOOL (0 or 1) */
    double d;              /* FIG_DBP_REAL */
} fig_dbp_t;

#define FIG_DBP_T(x) ((fig_dbp_t){ FIG_DBP_TEXT, (x), 0, 0 })
#define FIG_DBP_I(x) ((fig_dbp_t){ FIG_DBP_INT, NULL, (x), 0 })
#define FIG_DBP_R(x) ((fig_dbp_t){ FIG_DBP_REAL, NULL, 0, (x) })
#define FIG_DBP_B(x) ((fig_dbp_t){ FIG_DBP_BOOL, NULL, (x) ? 1 : 0, 0 })

/* One row: ncols values as text (NULL read as ""; a real number in a form
 * strtod reads back to the same double; a boolean "t"/"1" or "f"/"0").
 * Returning an error stops the statement with it. */
typedef fig_err_t fig_db_row_fn(void *ctx, const char *const *col, int ncols, fig_msg_t *msg);

struct fig_db_sql {
    bool pg;   /* PostgreSQL's dialect (FOR UPDATE); else SQLite's */
    /* Runs one statement with parameters p[0..n) ($1...), each row to fn
     * (NULL: rows ignored). A unique key already taken: FIG_ERR_STATE. */
    fig_err_t (*query)(fig_db_t *db, const char *sql, const fig_dbp_t *p, int n,
                       fig_db_row_fn *fn, void *ctx, fig_msg_t *msg);
    /* A people call's own transaction (never inside fig_db_apply's). */
    fig_err_t (*begin)(fig_db_t *db, fig_msg_t *msg);
    fig_err_t (*commit)(fig_db_t *db, fig_msg_t *msg);
    void (*rollback)(fig_db_t *db);
};

static inline fig_err_t fig_dbq(fig_db_t *db, const char *sql, const fig_dbp_t *p, int n,
                                fig_db_row_fn *fn, void *ctx, fig_msg_t *msg)
{
    return db->ops->sql->query(db, sql, p, n, fn, ctx, msg);
}

/* Runs body(db, ctx, msg) in a transaction of its own: committed when it
 * returns FIG_OK, else rolled back. */
fig_err_t fig_db_txn(fig_db_t *db, fig_err_t (*body)(fig_db_t *db, void *ctx, fig_msg_t *msg),
                     void *ctx, fig_msg_t *msg);

/* Reads one boolean, integer, real as the rows give them. */
bool fig_db_col_bool(const char *v);
long long fig_db_col_ll(const char *v);
double fig_db_col_real(const char *v);

/* A name no other of names[0..n) has (ignoring case), from "Anonymous":
 * "Anonymous", "Anonymous2", ... */
void fig_db_anonymous(const char *const *names, int n, char out[FIG_PERSON_NAME_BYTES + 1]);

/* FIG_DBW_RESULT (db.h), inside fig_db_apply's transaction: the back ends'
 * write_one calls it. */
fig_err_t fig_db_result_write(fig_db_t *db, const char *code, int game, fig_db_result_t *r,
                              fig_msg_t *msg);

#endif
