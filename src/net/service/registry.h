/* SPDX-License-Identifier: MIT */
/* registry.h - the tables the service holds (registry.c): found by code,
 * by descriptor and by the persons their seats hold; in and out; their
 * deadlines read again when touched. */
#ifndef FIGARO_NET_REGISTRY_H
#define FIGARO_NET_REGISTRY_H

#include "net/service/service_state.h"

/* The hash of a text the service's indexes share (FNV-1a): a table's code,
 * a person's id. */
uint32_t fig_svc_text_hash(const char *text);

/* The table's entry of that code, or NULL; marked dirty (its deadline is
 * read again). */
tab_t *fig_svc_find_tab(fig_service_t *s, const char *code);
fig_table_t *fig_svc_find_table(fig_service_t *s, const char *code);

/* The table's deadline may have changed: read again before the next one
 * is asked for or run. */
void fig_svc_touch(fig_service_t *s, tab_t *e);

/* Room for one more table: its entry (NULL: out of memory). Then
 * fig_svc_insert_table cannot fail. */
tab_t *fig_svc_room_for_table(fig_service_t *s);
void fig_svc_insert_table(fig_service_t *s, tab_t *e, fig_table_t *t);

/* Takes the table out of the indexes and the heap and frees it, with the
 * requests that wait for it. */
void fig_svc_remove_table(fig_service_t *s, tab_t *e);

/* When the table is to be deleted (nobody there for long enough), or -1. */
long long fig_svc_delete_at(const fig_service_t *s, const tab_t *e);

/* Reads again the deadline of every table touched since the last time. */
void fig_svc_refresh(fig_service_t *s);

/* The table environment's seat_person (table.h). */
void fig_svc_seat_person(void *svc, fig_table_t *t, const char *was, const char *now);

/* Table t comes into the registry (in) or leaves it: its seats' persons
 * are read. */
void fig_svc_person_seats_table(fig_service_t *s, fig_table_t *t, bool in);

/* Person id is forgotten at the tables whose seats hold them
 * (fig_table_forget_person), those only. */
void fig_svc_person_seats_forget(fig_service_t *s, const char *id);
void fig_svc_person_seats_free(fig_service_t *s);

#endif
