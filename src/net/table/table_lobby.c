/* SPDX-License-Identifier: MIT */
/* table_lobby.c - a table as the lobby shows it (table.h, fig_table_lobby;
 * net/service/lobby.h keeps the list and reads a table's row). */
#include "net/table/table_internal.h"

bool fig_table_lobby(const fig_table_t *t, fig_lobby_table_t *out)
{
    /* A running game's open seat (a person left) is not offered: the lobby
     * is for tables that wait for their players; the invite link still
     * seats anyone there. A table not yet stored is not offered either. */
    if (t->dead || t->game > 0 || t->match || (t->inflight && t->inflight->kind == OP_CREATE))
        return false;
    return fig_lobby_of_row(&t->row, out);
}
