/* SPDX-License-Identifier: MIT */
/* db_lobby.c - the lobby's part of the other servers (db.h,
 * fig_db_others_listed): one statement through either back end (db_sql.h),
 * the tables and their seats together, one row a seat. */
#include <stdlib.h>
#include <string.h>

#include "net/store/db_row.h"
#include "net/store/db_sql.h"

/* Listed, driven by another server (or by none: its server is gone, and
 * whoever is asked for it takes it), no game yet, an open seat: the newest
 * $2, each with its seats in order. */
static const char listed_sql[] =
    "SELECT t.code, t.players, t.move_seconds, t.open, t.fill, t.created, t.hints, s.seat, "
    "s.kind, s.what, s.name FROM tables t JOIN seats s ON s.code = t.code WHERE t.code IN "
    "(SELECT x.code FROM tables x WHERE x.listed AND (x.owner IS NULL OR x.owner <> $1) "
    "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.code = x.code) "
    "AND EXISTS (SELECT 1 FROM seats o WHERE o.code = x.code AND o.kind = 'open') "
    "ORDER BY x.created DESC, x.code DESC LIMIT $2) "
    "ORDER BY t.created DESC, t.code DESC, s.seat";

typedef struct {
    fig_db_table_t *out;
    int n, max, seats;   /* seats: read of out[n - 1] */
} listed_t;

static fig_err_t one_seat(void *ctx, const char *const *col, int ncols, fig_msg_t *msg)
{
    listed_t *x = ctx;
    (void)ncols;
    fig_db_table_t *t = x->n > 0 ? &x->out[x->n - 1] : NULL;
    if (!t || strcmp(t->code, col[0]) != 0) {   /* the next table's first seat */
        if (x->n == x->max)
            return FIG_OK;
        t = &x->out[x->n++];
        memset(t, 0, sizeof *t);
        t->players = (int)fig_db_col_ll(col[1]);
        t->move_seconds = (int)fig_db_col_ll(col[2]);
        t->open = fig_db_col_bool(col[3]);
        t->created = fig_db_col_ll(col[5]);
        t->hints = fig_db_col_bool(col[6]);
        t->listed = true;
        x->seats = 0;
        fig_err_t err = fig_db_table_read(t, col[0], col[4], msg);
        if (err)
            return err;
    }
    return fig_db_seat_read(t, x->seats++, (int)fig_db_col_ll(col[7]), col[8], col[9], col[10],
                            "", 0, "", msg);
}

fig_err_t fig_db_others_listed(fig_db_t *db, const char *node, fig_db_table_t *out, int max,
                               int *n, fig_msg_t *msg)
{
    listed_t x = { out, 0, max, 0 };
    fig_dbp_t p[2] = { FIG_DBP_T(node), FIG_DBP_I(max) };
    fig_err_t err = fig_dbq(db, listed_sql, p, 2, one_seat, &x, msg);
    *n = err ? 0 : x.n;
    return err;
}
