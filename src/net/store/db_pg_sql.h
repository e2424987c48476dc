/* SPDX-License-Identifier: MIT */
/* db_pg_sql.h - the SQL of the PostgreSQL back end, apart from the code
 * that sends it (db_pg.c, on libpq; the schema itself is described there):
 * every statement a session prepares, by number; the schema as a new
 * database gets it; the upgrades from one version to the next; the
 * advisory lock under which either runs. Text only: no libpq here. */
#ifndef FIGARO_NET_DB_PG_SQL_H
#define FIGARO_NET_DB_PG_SQL_H

#include "net/store/db.h"

/* The prepared statements, named "s<number>" in a session. */
enum {
    PGS_TABLE, PGS_SEAT, PGS_GAME, PGS_ACTION, PGS_GET_GAME, PGS_GET_ACTIONS, PGS_TABLES,
    PGS_SEATS, PGS_LAST_GAME, PGS_DEL_ACTIONS, PGS_DEL_GAMES, PGS_DEL_SEATS, PGS_DEL_EVENTS,
    PGS_DEL_TABLE, PGS_EVENTS, PGS_REVIEW, PGS_GET_REVIEW, PGS_DEL_REVIEWS, PGS_FENCE, PGS_RENEW,
    PGS_TAKE, PGS_TAKE_MINE, PGS_CLAIM, PGS_OWNER, PGS_FENCE_OR_FAIL, PGS_LEFT_GONE,
    PGS_COUNT
};

extern const char *const fig_pg_sql[PGS_COUNT];

/* The version a new database is made at (fig_pg_schema), before the
 * upgrades bring it to FIG_DB_SCHEMA. */
enum { FIG_PG_FIRST_VERSION = 3 };

/* The whole schema at FIG_PG_FIRST_VERSION, its version row included. */
extern const char fig_pg_schema[];

/* fig_pg_upgrade[v]: from version v to v + 1 (v >= FIG_PG_FIRST_VERSION),
 * each ending by setting figaro_schema's version. */
extern const char *const fig_pg_upgrade[FIG_DB_SCHEMA + 1];

/* The transaction-wide advisory lock of creating and upgrading the schema. */
extern const char fig_pg_lock[];

#endif
