/* SPDX-License-Identifier: MIT */
/* service_person_conns.c - the signed-in connections by person
 * (service_internal.h): what a person's rename, sign out or forget touches
 * is that person's connections, found in a hash index, never a walk over
 * every connection of the server (docs/scaling.md).
 *
 * The index is chained through the connections themselves (conn_t.pnext,
 * .pprev): a bucket holds the connections whose person hashes there, so
 * signing in needs no memory of its own and cannot fail, and the index is
 * exact whatever happens to memory. The buckets double when there are more
 * signed-in connections than buckets; when that allocation fails the old
 * ones stay (longer chains, still exact). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/service_internal.h"

enum { PBUCKETS_FIRST = 64 };

static conn_t **bucket(fig_service_t *s, const char *id)
{
    return &s->by_person[fig_svc_text_hash(id) & (uint32_t)(s->npbuckets - 1)];
}

static void link_in(fig_service_t *s, conn_t *c)
{
    conn_t **b = bucket(s, c->person);
    c->pprev = NULL;
    c->pnext = *b;
    if (*b)
        (*b)->pprev = c;
    *b = c;
}

/* Room for one more signed-in connection: the buckets double when they
 * hold as many as there are buckets (kept as they are if memory fails). */
static void grow(fig_service_t *s)
{
    if (s->by_person && s->npersons < s->npbuckets)
        return;
    int nb = s->by_person ? 2 * s->npbuckets : PBUCKETS_FIRST;
    conn_t **nbk = calloc((size_t)nb, sizeof *nbk);
    if (!nbk) {
        if (s->by_person)
            return;
        s->by_person = &s->person_bucket;   /* one chain: slow, exact */
        s->npbuckets = 1;
        return;
    }
    conn_t **old = s->by_person;
    int nold = s->npbuckets;
    s->by_person = nbk;
    s->npbuckets = nb;
    for (int i = 0; i < nold; i++)
        while (old[i]) {
            conn_t *c = old[i];
            old[i] = c->pnext;
            link_in(s, c);
        }
    if (old != &s->person_bucket)
        free(old);
}

void fig_svc_sign_in(fig_service_t *s, conn_t *c, const fig_db_person_t *p, const char *key_hash)
{
    fig_svc_sign_off(s, c);   /* a redeem on a signed-in connection: another person */
    grow(s);
    snprintf(c->person, sizeof c->person, "%s", p->id);
    snprintf(c->pname, sizeof c->pname, "%s", p->name);
    snprintf(c->key_hash, sizeof c->key_hash, "%s", key_hash);
    link_in(s, c);
    s->npersons++;
}

void fig_svc_sign_off(fig_service_t *s, conn_t *c)
{
    if (c->person[0]) {
        if (c->pprev)
            c->pprev->pnext = c->pnext;
        else
            *bucket(s, c->person) = c->pnext;
        if (c->pnext)
            c->pnext->pprev = c->pprev;
        c->pnext = c->pprev = NULL;
        s->npersons--;
    }
    c->person[0] = c->pname[0] = c->key_hash[0] = '\0';
}

/* The first of c's chain from c on that is person id's. */
static conn_t *match(conn_t *c, const char *id)
{
    while (c && strcmp(c->person, id) != 0)
        c = c->pnext;
    return c;
}

conn_t *fig_svc_person_first(fig_service_t *s, const char *id)
{
    return s->by_person && id[0] ? match(*bucket(s, id), id) : NULL;
}

conn_t *fig_svc_person_next(const conn_t *c) { return match(c->pnext, c->person); }

void fig_svc_person_conns_free(fig_service_t *s)
{
    if (s->by_person != &s->person_bucket)
        free(s->by_person);
    s->by_person = NULL;
    s->person_bucket = NULL;
    s->npbuckets = s->npersons = 0;
}
