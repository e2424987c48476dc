/* SPDX-License-Identifier: MIT */
/* service_person_conns.c - the signed-in connections by person
 * (service_internal.h): what a person's rename, sign out or forget touches
 * is that person's connections, found in the index by person
 * (service_conn_index.c), never a walk over every connection of the server
 * (docs/scaling.md). Signing in needs no memory and cannot fail. */
#include <stdio.h>

#include "net/service/service_internal.h"

void fig_svc_sign_in(fig_service_t *s, conn_t *c, const fig_db_person_t *p, const char *key_hash)
{
    fig_svc_sign_off(s, c);   /* a redeem on a signed-in connection: another person */
    snprintf(c->person, sizeof c->person, "%s", p->id);
    snprintf(c->pname, sizeof c->pname, "%s", p->name);
    snprintf(c->key_hash, sizeof c->key_hash, "%s", key_hash);
    fig_svc_cx_add(&s->by_person, c);
}

void fig_svc_sign_off(fig_service_t *s, conn_t *c)
{
    if (c->person[0])
        fig_svc_cx_remove(&s->by_person, c);
    c->person[0] = c->pname[0] = c->key_hash[0] = '\0';
}

conn_t *fig_svc_person_first(fig_service_t *s, const char *id)
{
    return id[0] ? fig_svc_cx_first(&s->by_person, id) : NULL;
}

conn_t *fig_svc_person_next(const conn_t *c) { return fig_svc_cx_next(CX_PERSON, c); }
