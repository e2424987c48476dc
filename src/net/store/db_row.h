/* SPDX-License-Identifier: MIT */
/* db_row.h - what the storage's back ends (db_sqlite.c, db_pg.c) share:
 * the text forms of what they store alike, and the checks of what they read
 * back (a damaged database is an error, never a crash). Nothing above db.h
 * uses it. */
#ifndef FIGARO_NET_DB_ROW_H
#define FIGARO_NET_DB_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "net/store/db.h"

/* "open", "person", "bot", "engine". */
const char *fig_db_kind_name(fig_db_seat_kind_t kind);
/* A setup's roads as text: "15 9 2/14 11 1/13 8 3". */
void fig_db_roads_text(const fig_setup_t *setup, char *buf, size_t size);
/* A game's stored setup into *out (its actions none yet). */
fig_err_t fig_db_setup_read(fig_db_game_t *out, const char *code, int game, int players,
                            int removed, int king, const char *roads, uint64_t seed,
                            long long ev, fig_msg_t *msg);
/* Action idx of g, which must be the next one. */
fig_err_t fig_db_action_read(fig_db_game_t *g, const char *code, int idx, int seat,
                             const char *text, long long ev, fig_msg_t *msg);
/* A table row's code and fill (t->players already read). */
fig_err_t fig_db_table_read(fig_db_table_t *t, const char *code, const char *fill,
                            fig_msg_t *msg);
/* Seat `seat` of t, the nth read (seats come in order). */
fig_err_t fig_db_seat_read(fig_db_table_t *t, int n, int seat, const char *kind,
                           const char *what, const char *name, const char *token_hash,
                           int rematch, const char *person, fig_msg_t *msg);

#endif
