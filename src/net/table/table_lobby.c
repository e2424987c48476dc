/* SPDX-License-Identifier: MIT */
/* table_lobby.c - a table as the lobby shows it (table.h: fig_table_lobby,
 * and fig_table_lobby_row for the rows of the tables other servers drive;
 * net/service/lobby.h keeps the list). */
#include <string.h>

#include "net/table/rated.h"
#include "net/table/table_internal.h"

/* Copies the string src into dst (cap bytes, zeroed), cut if longer: the
 * bytes after it stay zero, so that two entries compare with memcmp. */
static void copy_str(char *dst, size_t cap, const char *src)
{
    memcpy(dst, src, strnlen(src, cap - 1));
}

bool fig_table_lobby_row(const fig_db_table_t *r, fig_lobby_table_t *out)
{
    if (!r->listed)
        return false;
    memset(out, 0, sizeof *out);
    copy_str(out->code, sizeof out->code, r->code);
    out->created = r->created;
    out->players = r->players;
    for (int s = 0; s < r->players; s++) {
        const fig_db_seat_t *x = &r->seats[s];
        fig_lobby_seat_t *y = &out->seats[s];
        switch (x->kind) {
        case FIG_DB_SEAT_OPEN:
            y->kind = FIG_LOBBY_OPEN;
            out->free++;
            break;
        case FIG_DB_SEAT_PERSON:
            y->kind = FIG_LOBBY_PERSON;
            copy_str(y->name, sizeof y->name, x->name);
            break;
        case FIG_DB_SEAT_BOT:
            y->kind = FIG_LOBBY_BOT;
            copy_str(y->level, sizeof y->level, x->what);
            break;
        case FIG_DB_SEAT_ENGINE:
            y->kind = FIG_LOBBY_ENGINE;
            copy_str(y->name, sizeof y->name, x->what);
            break;
        }
    }
    out->move_seconds = r->move_seconds;
    out->open = r->open;
    out->hints = r->hints;
    out->rated = fig_rated_table(r);
    copy_str(out->fill, sizeof out->fill, r->fill);
    return out->free > 0;
}

bool fig_table_lobby(const fig_table_t *t, fig_lobby_table_t *out)
{
    /* A running game's open seat (a person left) is not offered: the lobby
     * is for tables that wait for their players; the invite link still
     * seats anyone there. A table not yet stored is not offered either. */
    if (t->dead || t->game > 0 || t->match || (t->inflight && t->inflight->kind == OP_CREATE))
        return false;
    return fig_table_lobby_row(&t->row, out);
}
