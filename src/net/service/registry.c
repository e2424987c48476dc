/* SPDX-License-Identifier: MIT */
/* registry.c - the service's tables (registry.h): found by code
 * through a hash index (the descriptors' index grows with it), each with its
 * next deadline in a heap (net/base/heap.h). Whoever looks a table up is about to
 * act on it: the table is marked dirty, and fig_svc_refresh reads the
 * deadlines of the dirty tables again, so that nothing walks every table.
 * The tables are found by person too (the seats that hold a person's id),
 * for "forget me". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/service/registry.h"
#include "net/service/service_lobby.h"

/* ---- the tables and their indexes */

uint32_t fig_svc_text_hash(const char *text)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (const char *p = text; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h;
}

static unsigned code_bucket(const fig_service_t *s, const char *code)
{
    return fig_svc_text_hash(code) & (unsigned)(s->nbuckets - 1);
}

/* The table's deadline may change: read again before the next is asked for. */
void fig_svc_touch(fig_service_t *s, tab_t *e)
{
    if (e->dirty)
        return;
    e->dirty = true;
    e->next_dirty = s->dirty;
    s->dirty = e;
}

/* The table of that code, or NULL. Whoever looks a table up is about to
 * act on it: its deadline is read again (touch). */
tab_t *fig_svc_find_tab(fig_service_t *s, const char *code)
{
    for (tab_t *e = s->by_code[code_bucket(s, code)]; e; e = e->next_code)
        if (strcmp(fig_table_code(e->t), code) == 0) {
            fig_svc_touch(s, e);
            return e;
        }
    return NULL;
}

fig_table_t *fig_svc_find_table(fig_service_t *s, const char *code)
{
    tab_t *e = fig_svc_find_tab(s, code);
    return e ? e->t : NULL;
}

/* Doubles the indexes' buckets (a power of two) when they hold more tables
 * than buckets: chains stay short. The fd index holds one entry a table. */
static bool grow_index(fig_service_t *s)
{
    int nb = s->nbuckets * 2;
    tab_t **bc = calloc((size_t)nb, sizeof *bc);
    fdent_t **bf = calloc((size_t)nb, sizeof *bf);
    if (!bc || !bf) {
        free(bc);
        free(bf);
        return false;
    }
    for (int i = 0; i < s->nbuckets; i++) {
        while (s->by_code[i]) {
            tab_t *e = s->by_code[i];
            s->by_code[i] = e->next_code;
            uint32_t h = fig_svc_text_hash(fig_table_code(e->t));
            e->next_code = bc[h & (unsigned)(nb - 1)];
            bc[h & (unsigned)(nb - 1)] = e;
        }
        while (s->by_fd[i]) {
            fdent_t *e = s->by_fd[i];
            s->by_fd[i] = e->next;
            e->next = bf[(unsigned)e->fd & (unsigned)(nb - 1)];
            bf[(unsigned)e->fd & (unsigned)(nb - 1)] = e;
        }
    }
    free(s->by_code);
    free(s->by_fd);
    s->by_code = bc;
    s->by_fd = bf;
    s->nbuckets = nb;
    return true;
}

/* Room for one more table: its entry (NULL: out of memory). Then
 * insert_table cannot fail. */
tab_t *fig_svc_room_for_table(fig_service_t *s)
{
    if (s->ntables == s->cap) {
        int ncap = s->cap ? 2 * s->cap : 16;
        tab_t **nt = realloc(s->tabs, (size_t)ncap * sizeof *nt);
        if (!nt)
            return NULL;
        s->tabs = nt;
        s->cap = ncap;
    }
    if (s->ntables >= s->nbuckets && !grow_index(s))
        return NULL;
    if (!fig_heap_reserve(&s->due, s->ntables + 1))
        return NULL;
    return calloc(1, sizeof(tab_t));
}

void fig_svc_insert_table(fig_service_t *s, tab_t *e, fig_table_t *t)
{
    e->t = t;
    e->at = s->ntables;
    unsigned b = code_bucket(s, fig_table_code(t));
    e->next_code = s->by_code[b];
    s->by_code[b] = e;
    s->tabs[s->ntables++] = e;
    fig_heap_node_init(&e->due);
    e->dirty = false;
    fig_svc_touch(s, e);
    fig_svc_person_seats_table(s, t, true);
}

/* Takes the table out of the indexes and frees it (with what waits for
 * it). */
void fig_svc_remove_table(fig_service_t *s, tab_t *e)
{
    fig_svc_person_seats_table(s, e->t, false);
    for (tab_t **pp = &s->by_code[code_bucket(s, fig_table_code(e->t))]; *pp;
         pp = &(*pp)->next_code)
        if (*pp == e) {
            *pp = e->next_code;
            break;
        }
    s->tabs[e->at] = s->tabs[--s->ntables];
    s->tabs[e->at]->at = e->at;
    fig_heap_remove(&s->due, &e->due);
    fig_svc_lobby_touch(s, e, true);
    if (e->dirty)
        for (tab_t **pp = &s->dirty; *pp; pp = &(*pp)->next_dirty)
            if (*pp == e) {
                *pp = e->next_dirty;
                break;
            }
    while (e->head) {
        wait_t *w = e->head;
        e->head = w->next;
        w->c->waiting--;
        free(w);
    }
    fig_table_free(e->t);   /* its match's descriptor leaves the fd index */
    free(e);
}

/* When the table is to be deleted (nobody there for long enough), or -1. */
long long fig_svc_delete_at(const fig_service_t *s, const tab_t *e)
{
    long long idle = fig_table_idle_since(e->t);
    if (idle < 0 || e->head)
        return -1;
    return idle + (fig_table_over(e->t) ? s->keep_finished_ms : s->keep_idle_ms);
}

/* Reads again the deadline of every table touched since the last time. */
void fig_svc_refresh(fig_service_t *s)
{
    while (s->dirty) {
        tab_t *e = s->dirty;
        s->dirty = e->next_dirty;
        e->dirty = false;
        long long d = fig_table_deadline(e->t), x = fig_svc_delete_at(s, e);
        if (x >= 0 && (d < 0 || x < d))
            d = x;
        fig_heap_set(&s->due, &e->due, d);
        fig_svc_lobby_touch(s, e, false);
    }
}

/* ---- the tables by person: the tables where a person sits or left an
 * open seat in a running game (a seat holds their id: fig_db_seat_t.person).
 * "Forget me" renames them there; it touches those tables only, never
 * every table of the server.
 *
 * An entry is one (person, table) pair, in a hash of chains by person. The
 * tables in the registry are in it: a table's seats are read when it comes
 * in and when it goes, and every change of a seat's person in between is
 * told by the table (fig_table_env_t.seat_person); an entry says whether
 * any seat of that table is the person's now, read again at each change,
 * so that a change told twice changes nothing. Out of memory for an entry,
 * the index is lost: a forget then walks every table. */

struct pseat {
    struct pseat *next;
    fig_table_t *t;
    char person[FIG_PERSON_ID_LEN + 1];
};

enum { SBUCKETS_FIRST = 64 };

static pseat_t **chain(fig_service_t *s, const char *id)
{
    return &s->by_seated[fig_svc_text_hash(id) & (uint32_t)(s->nsbuckets - 1)];
}

/* Doubles the buckets when they hold more entries than buckets; out of
 * memory they stay as they are (longer chains). */
static void grow_seated(fig_service_t *s)
{
    if (s->by_seated && s->nseated < s->nsbuckets)
        return;
    int nb = s->by_seated ? 2 * s->nsbuckets : SBUCKETS_FIRST;
    pseat_t **nbk = calloc((size_t)nb, sizeof *nbk);
    if (!nbk)
        return;
    pseat_t **old = s->by_seated;
    int nold = s->nsbuckets;
    s->by_seated = nbk;
    s->nsbuckets = nb;
    for (int i = 0; i < nold; i++)
        while (old[i]) {
            pseat_t *x = old[i];
            old[i] = x->next;
            pseat_t **b = chain(s, x->person);
            x->next = *b;
            *b = x;
        }
    free(old);
}

static bool holds(const fig_table_t *t, const char *id)
{
    for (int k = 0; k < FIG_MAX_PLAYERS; k++)
        if (strcmp(fig_table_seat_person(t, k), id) == 0)
            return true;
    return false;
}

/* The entry (id, t) made to say whether t holds id (in: t is in the
 * registry). */
static void update(fig_service_t *s, fig_table_t *t, const char *id, bool in)
{
    if (!id[0] || s->seats_lost)
        return;
    bool want = in && holds(t, id);
    pseat_t **pp = s->by_seated ? chain(s, id) : NULL;
    while (pp && *pp && ((*pp)->t != t || strcmp((*pp)->person, id) != 0))
        pp = &(*pp)->next;
    if (pp && *pp) {
        if (!want) {
            pseat_t *x = *pp;
            *pp = x->next;
            free(x);
            s->nseated--;
        }
        return;
    }
    if (!want)
        return;
    grow_seated(s);
    pseat_t *x = s->by_seated ? calloc(1, sizeof *x) : NULL;
    if (!x) {   /* from now on, a forget walks every table */
        s->seats_lost = true;
        fig_svc_person_seats_free(s);
        return;
    }
    x->t = t;
    snprintf(x->person, sizeof x->person, "%s", id);
    pseat_t **b = chain(s, id);
    x->next = *b;
    *b = x;
    s->nseated++;
}

void fig_svc_seat_person(void *svc, fig_table_t *t, const char *was, const char *now)
{
    fig_service_t *s = svc;
    tab_t *e = fig_svc_find_tab(s, fig_table_code(t));
    bool in = e && e->t == t;   /* a table not in the registry yet: read when it comes */
    update(s, t, was, in);
    update(s, t, now, in);
}

void fig_svc_person_seats_table(fig_service_t *s, fig_table_t *t, bool in)
{
    for (int k = 0; k < FIG_MAX_PLAYERS; k++)
        update(s, t, fig_table_seat_person(t, k), in);
}

void fig_svc_person_seats_forget(fig_service_t *s, const char *id)
{
    if (s->seats_lost) {
        for (int i = 0; i < s->ntables; i++)
            fig_table_forget_person(s->tabs[i]->t, id);
        return;
    }
    if (!s->by_seated || !id[0])
        return;
    /* Forgetting at x's table takes x away (that table's seats hold id no
     * more), and no other entry: the next is kept before. */
    for (pseat_t *x = *chain(s, id), *nx; x; x = nx) {
        nx = x->next;
        if (strcmp(x->person, id) == 0)
            fig_table_forget_person(x->t, id);
    }
}

void fig_svc_person_seats_free(fig_service_t *s)
{
    for (int i = 0; s->by_seated && i < s->nsbuckets; i++)
        while (s->by_seated[i]) {
            pseat_t *x = s->by_seated[i];
            s->by_seated[i] = x->next;
            free(x);
        }
    free(s->by_seated);
    s->by_seated = NULL;
    s->nsbuckets = s->nseated = 0;
}
