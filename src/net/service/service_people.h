/* SPDX-License-Identifier: MIT */
/* service_people.h - the people (service_people.c; docs/protocol.md,
 * "People"): their messages, their HTTP routes, the table environment's
 * person_of and rated. */
#ifndef FIGARO_NET_SERVICE_PEOPLE_H
#define FIGARO_NET_SERVICE_PEOPLE_H

#include "net/service/service_state.h"

typedef struct people_job people_job_t;

/* After hello's welcome: its key (if any) is looked up; `person` or
 * bad_key follows. */
void fig_svc_people_hello(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m);

/* person_new, device_code, redeem, person_set, sign_out, forget_me. */
void fig_svc_people_message(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m);

/* resume: the seat c's person holds at t. */
fig_proto_code_t fig_svc_resume(fig_service_t *s, conn_t *c, fig_table_t *t,
                                const fig_proto_msg_t *m, fig_msg_t *msg);

/* GET of a people's route (FIG_HTTP_PERSON, _PERSON_GAME, _LEADERBOARD):
 * out set, or its status 0: answered later. */
void fig_svc_people_http(fig_service_t *s, fig_conn_t *conn, const fig_http_path_t *p,
                         fig_http_answer_t *out);
void fig_svc_people_closed(fig_service_t *s, conn_t *c);
void fig_svc_people_http_gone(fig_service_t *s, fig_conn_t *conn);
void fig_svc_people_free(fig_service_t *s);

/* The table environment's person_of and rated (table.h). */
const char *fig_svc_person_of(void *svc, void *peer);
void fig_svc_rated(void *svc, const char *table, int game, const fig_db_result_t *r);

#endif
