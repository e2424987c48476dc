/* SPDX-License-Identifier: MIT */
/* service_forgotten.h - the people forgotten, here or by another process
 * (service_forgotten.c): their seats renamed, their connections signed off. */
#ifndef FIGARO_NET_SERVICE_FORGOTTEN_H
#define FIGARO_NET_SERVICE_FORGOTTEN_H

#include "net/service/service_state.h"

/* Person id is forgotten (stored): their seats at the tables in memory are
 * renamed (stored and told by each table) and their connections signed
 * off, each told `forgotten`. Harmless when done again. */
void fig_svc_forgotten(fig_service_t *s, const char *id);

/* A round: the log's rows after forgot_seq read on the writer thread. */
void fig_svc_forgotten_round(fig_service_t *s);

#endif
