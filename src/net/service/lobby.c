/* SPDX-License-Identifier: MIT */
/* lobby.c - the lobby's list and its subscriptions (lobby.h; its frame is
 * built by proto_out.c, docs/protocol.md, lobby). */
#include <stdlib.h>
#include <string.h>

#include "net/service/lobby.h"
#include "net/table/table.h"

struct fig_lobby_ent {
    fig_lobby_ent_t *next, *prev;
    fig_lobby_table_t x;
};

void fig_lobby_init(fig_lobby_t *l, fig_lobby_send_fn *send, void *ctx)
{
    memset(l, 0, sizeof *l);
    l->due = -1;
    l->last = -1;
    l->built = (unsigned long long)-1;   /* no frame yet */
    l->send = send;
    l->ctx = ctx;
}

void fig_lobby_free(fig_lobby_t *l)
{
    while (l->head) {
        fig_lobby_ent_t *e = l->head;
        l->head = e->next;
        free(e);
    }
    free(l->text);
    l->text = NULL;
    l->n = 0;
    l->nremote = 0;
}

/* Whether a comes before b: newer first, then by code (the same second). */
static bool before(const fig_lobby_table_t *a, const fig_lobby_table_t *b)
{
    if (a->created != b->created)
        return a->created > b->created;
    return strcmp(a->code, b->code) > 0;
}

static void unlink_ent(fig_lobby_t *l, fig_lobby_ent_t *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        l->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    l->n--;
}

/* A new table is the newest: it goes first, and an older one (restored,
 * taken over) walks down to its place once. */
static void link_ent(fig_lobby_t *l, fig_lobby_ent_t *e)
{
    fig_lobby_ent_t *prev = NULL, *at = l->head;
    while (at && before(&at->x, &e->x)) {
        prev = at;
        at = at->next;
    }
    e->prev = prev;
    e->next = at;
    if (prev)
        prev->next = e;
    else
        l->head = e;
    if (at)
        at->prev = e;
    l->n++;
}

/* Something changed: the next frame goes once a second has passed since
 * the last (and not before the loop's next turn: changes made together go
 * in one frame). */
static void changed(fig_lobby_t *l, long long now)
{
    l->version++;
    if (l->due >= 0)
        return;
    l->due = l->last >= 0 && l->last + FIG_LOBBY_EVERY_MS > now ? l->last + FIG_LOBBY_EVERY_MS
                                                                  : now;
}

bool fig_lobby_put(fig_lobby_t *l, fig_lobby_ent_t **slot, const fig_lobby_table_t *x,
                   long long now)
{
    fig_lobby_ent_t *e = *slot;
    if (!x) {
        if (e) {
            unlink_ent(l, e);
            free(e);
            *slot = NULL;
            changed(l, now);
        }
        return true;
    }
    if (e) {
        if (memcmp(&e->x, x, sizeof *x) == 0)
            return true;
        e->x = *x;   /* its place (created, code) does not change */
        changed(l, now);
        return true;
    }
    e = malloc(sizeof *e);
    if (!e)
        return false;
    e->x = *x;
    link_ent(l, e);
    *slot = e;
    changed(l, now);
    return true;
}

void fig_lobby_remote(fig_lobby_t *l, const fig_db_table_t *rows, int n,
                      bool (*mine)(void *ctx, const char *code), void *ctx, long long now)
{
    fig_lobby_ent_t *next[FIG_LOBBY_MAX];
    int k = 0;
    for (int i = 0; i < n && k < FIG_LOBBY_MAX; i++) {
        fig_lobby_table_t x;
        if (!fig_table_lobby_row(&rows[i], &x) || mine(ctx, x.code))
            continue;
        fig_lobby_ent_t *e = NULL;   /* its entry of the last round, if it had one */
        for (int j = 0; j < l->nremote && !e; j++)
            if (l->remote[j] && strcmp(l->remote[j]->x.code, x.code) == 0) {
                e = l->remote[j];
                l->remote[j] = NULL;
            }
        if (fig_lobby_put(l, &e, &x, now))
            next[k++] = e;
    }
    for (int j = 0; j < l->nremote; j++)   /* gone from the other servers' lobby */
        fig_lobby_put(l, &l->remote[j], NULL, now);
    memcpy(l->remote, next, (size_t)k * sizeof *next);
    l->nremote = k;
}

void fig_lobby_drop_remote(fig_lobby_t *l, const char *code, long long now)
{
    for (int j = 0; j < l->nremote; j++)
        if (strcmp(l->remote[j]->x.code, code) == 0) {
            fig_lobby_put(l, &l->remote[j], NULL, now);
            l->remote[j] = l->remote[--l->nremote];
            return;
        }
}

char *fig_lobby_frame(const fig_lobby_t *l, size_t *len)
{
    const fig_lobby_table_t *x[FIG_LOBBY_MAX];
    int k = 0;
    for (const fig_lobby_ent_t *e = l->head; e && k < FIG_LOBBY_MAX; e = e->next)
        x[k++] = &e->x;
    return fig_proto_lobby(x, k, len);
}

/* The frame of the list's version, built once for everyone; false out of
 * memory. */
static bool frame_now(fig_lobby_t *l)
{
    if (l->built == l->version && l->text)
        return true;
    size_t len;
    char *text = fig_lobby_frame(l, &len);
    if (!text)
        return false;
    free(l->text);
    l->text = text;
    l->len = len;
    l->built = l->version;
    return true;
}

static void send_to(fig_lobby_t *l, fig_lobby_sub_t *sub, long long now)
{
    l->send(l->ctx, sub, l->text, l->len);
    sub->sent = l->version;
    sub->at = now;
    l->frames++;
}

void fig_lobby_on(fig_lobby_t *l, fig_lobby_sub_t *sub, long long now)
{
    if (sub->on)
        return;   /* it has the list, or has it soon */
    sub->on = true;
    sub->prev = NULL;
    sub->next = l->subs;
    if (l->subs)
        l->subs->prev = sub;
    l->subs = sub;
    l->nsubs++;
    if (frame_now(l)) {
        send_to(l, sub, now);
    } else {
        sub->sent = l->version - 1;   /* behind: the next frame tries again */
        sub->at = -1;
        if (l->due < 0)
            l->due = now + FIG_LOBBY_EVERY_MS;
    }
}

void fig_lobby_off(fig_lobby_t *l, fig_lobby_sub_t *sub)
{
    if (!sub->on)
        return;
    if (sub->prev)
        sub->prev->next = sub->next;
    else
        l->subs = sub->next;
    if (sub->next)
        sub->next->prev = sub->prev;
    sub->next = sub->prev = NULL;
    sub->on = false;
    l->nsubs--;
}

long long fig_lobby_due(const fig_lobby_t *l) { return l->nsubs > 0 ? l->due : -1; }

void fig_lobby_flush(fig_lobby_t *l, long long now)
{
    if (l->due < 0 || now < l->due)
        return;
    l->due = -1;
    if (l->nsubs == 0)
        return;   /* nobody follows: the next subscription gets the list as it is */
    if (!frame_now(l)) {
        l->due = now + FIG_LOBBY_EVERY_MS;
        return;
    }
    l->last = now;
    bool behind = false;
    for (fig_lobby_sub_t *sub = l->subs; sub; sub = sub->next) {
        if (sub->sent == l->version)
            continue;
        if (sub->at >= 0 && now - sub->at < FIG_LOBBY_EVERY_MS) {
            behind = true;   /* it had one less than a second ago */
            continue;
        }
        send_to(l, sub, now);
    }
    if (behind)
        l->due = now + FIG_LOBBY_EVERY_MS;
}
