/* SPDX-License-Identifier: MIT */
/* service_message.h - a connection's messages (service_message.c): the
 * requests that wait for a busy table, the operator's engines. */
#ifndef FIGARO_NET_SERVICE_MESSAGE_H
#define FIGARO_NET_SERVICE_MESSAGE_H

#include "net/service/service_state.h"

/* The command line of the engine called name (v: the service); NULL: none. */
const char *fig_svc_engine(void *v, const char *name);

/* Runs what waits for the table while it is free. */
void fig_svc_run_waiting(fig_service_t *s, tab_t *e);

#endif
