/* SPDX-License-Identifier: MIT */
/* service_conn_index.c - the service's connections by a text of theirs
 * (service_conn_index.h, conn_index_t): by signed-in person (what a rename,
 * sign out, forget or `rated` touches) and by client address (the cap per
 * address a new connection is counted against). Either is found in a hash
 * index, never by a walk over every connection of the server
 * (docs/scaling.md).
 *
 * An index is chained through the connections themselves (conn_t.link[the
 * index's which]): a bucket holds the connections whose text hashes there,
 * so adding needs no memory of its own and cannot fail, and the index is
 * exact whatever happens to memory. The buckets double when the index holds
 * more connections than buckets; when that allocation fails the old ones
 * stay (longer chains, still exact), and when the first one fails there is
 * one chain (slow, exact). */
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "net/service/registry.h"
#include "net/service/service_conn_index.h"

enum { BUCKETS_FIRST = 64 };

/* The text c is indexed by in the index `which`. */
static const char *text_of(int which, const conn_t *c)
{
    return which == CX_PERSON ? c->person : c->addr;
}

static conn_t **bucket(conn_index_t *ix, const char *text)
{
    return &ix->b[fig_svc_text_hash(text) & (uint32_t)(ix->nb - 1)];
}

static void link_in(conn_index_t *ix, conn_t *c)
{
    conn_t **b = bucket(ix, text_of(ix->which, c));
    conn_link_t *l = &c->link[ix->which];
    l->prev = NULL;
    l->next = *b;
    if (*b)
        (*b)->link[ix->which].prev = c;
    *b = c;
}

/* Room for one more: the buckets double when they hold as many as there
 * are buckets (kept as they are if memory fails). */
static void grow(conn_index_t *ix)
{
    if (ix->b && ix->n < ix->nb)
        return;
    int nb = ix->b ? 2 * ix->nb : BUCKETS_FIRST;
    conn_t **nbk = calloc((size_t)nb, sizeof *nbk);
    if (!nbk) {
        if (ix->b)
            return;
        ix->b = &ix->one;
        ix->nb = 1;
        return;
    }
    conn_t **old = ix->b;
    int nold = ix->nb;
    ix->b = nbk;
    ix->nb = nb;
    for (int i = 0; i < nold; i++)
        while (old[i]) {
            conn_t *c = old[i];
            old[i] = c->link[ix->which].next;
            link_in(ix, c);
        }
    if (old != &ix->one)
        free(old);
}

void fig_svc_cx_add(conn_index_t *ix, conn_t *c)
{
    grow(ix);
    link_in(ix, c);
    ix->n++;
}

void fig_svc_cx_remove(conn_index_t *ix, conn_t *c)
{
    conn_link_t *l = &c->link[ix->which];
    if (l->prev)
        l->prev->link[ix->which].next = l->next;
    else
        *bucket(ix, text_of(ix->which, c)) = l->next;
    if (l->next)
        l->next->link[ix->which].prev = l->prev;
    l->next = l->prev = NULL;
    ix->n--;
}

/* The first of the chain from c on whose text is `text`. */
static conn_t *match(int which, conn_t *c, const char *text)
{
    while (c && strcmp(text_of(which, c), text) != 0)
        c = c->link[which].next;
    return c;
}

conn_t *fig_svc_cx_first(conn_index_t *ix, const char *text)
{
    return ix->b ? match(ix->which, *bucket(ix, text), text) : NULL;
}

conn_t *fig_svc_cx_next(int which, const conn_t *c)
{
    return match(which, c->link[which].next, text_of(which, c));
}

void fig_svc_cx_free(conn_index_t *ix)
{
    if (ix->b != &ix->one)
        free(ix->b);
    ix->b = NULL;
    ix->one = NULL;
    ix->nb = ix->n = 0;
}

/* ---- the signed-in connections by person: what a person's rename, sign
 * out or forget touches is that person's connections, found in the index by
 * person. Signing in needs no memory and cannot fail. */

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
