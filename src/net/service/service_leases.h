/* SPDX-License-Identifier: MIT */
/* service_leases.h - the tables this server drives on a shared storage
 * (service_leases.c): lease rounds, tables taken over, loaded or dropped,
 * the room left for more. */
#ifndef FIGARO_NET_SERVICE_LEASES_H
#define FIGARO_NET_SERVICE_LEASES_H

#include "net/service/service_state.h"

/* The table's lease is lost: dropped from memory, its people's and
 * spectators' connections closed (they come back to its new server). */
void fig_svc_drop_table(fig_service_t *s, tab_t *e, const char *why);

/* A table taken from the storage (a lease round's or a claim's, x) starts
 * here, unless the server is full; why: for the log. */
void fig_svc_take_over(fig_service_t *s, const fig_db_taken_t *x, const char *why);

/* A stored table (its row and its game's last state) starts here: at start
 * (fig_db_load's callback, ctx the service) and when taken over. */
fig_err_t fig_svc_load_table(void *ctx, const fig_db_table_t *row, const fig_db_game_t *last,
                             fig_msg_t *msg);

/* The tables this server may still take or create. */
int fig_svc_room(const fig_service_t *s);

/* Frees a lease round's or claim's batch and all it holds. */
void fig_svc_free_lease_batch(fig_db_batch_t *b);

/* A lease round: every table's lease renewed, then tables whose server is
 * gone taken, on the writer thread. */
void fig_svc_lease_round(fig_service_t *s);

#endif
