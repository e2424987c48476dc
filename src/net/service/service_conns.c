/* SPDX-License-Identifier: MIT */
/* service_conns.c - the service's connections (service.h: fig_service_open,
 * fig_service_closed): the cap per address (counted in the index by
 * address, service_conn_index.c), the list of those yet to say
 * hello (in the order of their deadlines), the tables each asked anything
 * of, and what a closing connection leaves: those tables only, its waiting
 * requests, the reviews it waited for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/util.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_conn_index.h"
#include "net/service/service_conns.h"
#include "net/service/service_people.h"

/* Remembers that c asked something of table `code` (conn_t.at). Out of
 * memory, c forgets nothing: its closing then looks at every table. */
void fig_svc_conn_at(conn_t *c, const char *code)
{
    if (c->nat < 0)
        return;   /* every table already */
    for (int i = c->nat - 1; i >= 0; i--)
        if (strcmp(c->at[i], code) == 0)
            return;
    if (c->nat == c->capat) {
        int ncap = c->capat ? 2 * c->capat : 2;
        fig_db_code_t *na = realloc(c->at, (size_t)ncap * sizeof *na);
        if (!na) {
            free(c->at);
            c->at = NULL;
            c->nat = -1;
            c->capat = 0;
            return;
        }
        c->at = na;
        c->capat = ncap;
    }
    snprintf(c->at[c->nat++], sizeof c->at[0], "%s", code);
}

/* ---- connections */

void *fig_service_open(fig_service_t *s, fig_conn_t *wc, const char *addr)
{
    /* counted in the index by address, as it is kept there (cut to fit):
     * at most the cap, whatever the number of connections from elsewhere */
    char a[sizeof ((conn_t *)0)->addr];
    snprintf(a, sizeof a, "%s", addr ? addr : "");
    int same = 0;
    for (conn_t *c = fig_svc_cx_first(&s->by_addr, a); c && same < s->max_per_addr;
         c = fig_svc_cx_next(CX_ADDR, c))
        same++;
    if (same >= s->max_per_addr) {
        fig_logf(s->log, s->log_ctx, "",
                 "connection from %s refused: %d already", addr ? addr : "?", same);
        return NULL;
    }
    conn_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->wc = wc;
    memcpy(c->addr, a, sizeof c->addr);
    long long now = fig_svc_now(s);
    c->opened = c->tokens_at = c->chat_at = now;
    c->rate_told = now - 1000000;
    c->tokens = MSG_BURST;
    c->chat_tokens = CHAT_BURST;
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    s->nconns++;
    fig_svc_cx_add(&s->by_addr, c);
    /* its hello deadline: the list is in the order of the deadlines */
    c->hprev = s->hello_tail;
    if (s->hello_tail)
        s->hello_tail->hnext = c;
    else
        s->hello_head = c;
    s->hello_tail = c;
    c->in_hello_list = true;
    fig_logf(s->log, s->log_ctx, "", "connection from %s", c->addr);
    return c;
}

void fig_svc_hello_unlink(fig_service_t *s, conn_t *c)
{
    if (!c->in_hello_list)
        return;
    if (c->hprev)
        c->hprev->hnext = c->hnext;
    else
        s->hello_head = c->hnext;
    if (c->hnext)
        c->hnext->hprev = c->hprev;
    else
        s->hello_tail = c->hprev;
    c->hnext = c->hprev = NULL;
    c->in_hello_list = false;
}

/* c is gone: it leaves table e, and its requests that wait there are
 * dropped (nobody to answer). */
static void leave_table(conn_t *c, tab_t *e)
{
    fig_table_detach(e->t, c);
    for (wait_t **pp = &e->head; *pp && c->waiting > 0;) {
        wait_t *w = *pp;
        if (w->c != c) {
            pp = &w->next;
            continue;
        }
        *pp = w->next;
        if (e->tail == w) {
            e->tail = NULL;
            for (wait_t *x = e->head; x; x = x->next)
                e->tail = x;
        }
        c->waiting--;
        free(w);
    }
}

void fig_service_closed(fig_service_t *s, void *cs)
{
    conn_t *c = cs;
    if (!c)
        return;
    fig_svc_hello_unlink(s, c);
    fig_lobby_off(&s->lobby, &c->lobby);
    if (c->nat < 0) {   /* it lost count (out of memory): every table */
        for (int i = 0; i < s->ntables; i++) {
            fig_svc_touch(s, s->tabs[i]);
            leave_table(c, s->tabs[i]);
        }
    }
    for (int i = 0; i < c->nat; i++) {
        tab_t *e = fig_svc_find_tab(s, c->at[i]);
        if (e)
            leave_table(c, e);
    }
    free(c->at);
    fig_svc_people_closed(s, c);
    fig_svc_sign_off(s, c);
    for (lookup_t *k = s->lookups; k && c->waiting > 0; k = k->next)
        for (wait_t **pp = &k->head; *pp;) {
            wait_t *w = *pp;
            if (w->c != c) {
                pp = &w->next;
                continue;
            }
            *pp = w->next;
            c->waiting--;
            free(w);
        }
    for (lookup_t *k = s->lookups; k; k = k->next) {
        k->tail = NULL;
        for (wait_t *x = k->head; x; x = x->next)
            k->tail = x;
    }
    for (review_wait_t *r = s->rwaits; r; r = r->next) {
        int left = 0;
        for (int i = 0; i < FIG_PROTO_HELD_MAX; i++) {
            if (r->to[i] == c)
                r->to[i] = NULL;
            left += r->to[i] != NULL;
        }
        if (!left && r->state == RV_COMPUTING)
            fig_reviews_cancel(r->job);   /* nobody waits for it: the worker stops */
    }
    if (c->prev)
        c->prev->next = c->next;
    else
        s->conns = c->next;
    if (c->next)
        c->next->prev = c->prev;
    s->nconns--;
    fig_svc_cx_remove(&s->by_addr, c);
    fig_logf(s->log, s->log_ctx, "", "connection from %s closed", c->addr);
    free(c);
}

/* The oldest connection yet to say hello (those that did, or are closing,
 * leave the list here). */
conn_t *fig_svc_hello_next(fig_service_t *s)
{
    while (s->hello_head && (s->hello_head->hello || s->hello_head->closing))
        fig_svc_hello_unlink(s, s->hello_head);
    return s->hello_head;
}
