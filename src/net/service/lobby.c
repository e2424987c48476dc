/* SPDX-License-Identifier: MIT */
/* lobby.c - the lobby's list and its subscriptions (lobby.h), and its frame
 * (docs/protocol.md, lobby). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "net/service/lobby.h"
#include "net/table/rated.h"

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

/* Copies the string src into dst (cap bytes, zeroed), cut if longer: the
 * bytes after it stay zero, so that two entries compare with memcmp. */
static void copy_str(char *dst, size_t cap, const char *src)
{
    memcpy(dst, src, strnlen(src, cap - 1));
}

bool fig_lobby_of_row(const fig_db_table_t *r, fig_lobby_table_t *out)
{
    if (!r->listed)
        return false;
    memset(out, 0, sizeof *out);
    copy_str(out->code, sizeof out->code, r->code);
    out->created = r->created;
    out->players = r->players;
    for (int s = 0; s < r->players; s++) {
        const fig_db_seat_t *x = &r->seats[s];
        fig_lobby_seat_t *y = &out->seats[s];
        switch (x->kind) {
        case FIG_DB_SEAT_OPEN:
            y->kind = FIG_LOBBY_OPEN;
            out->free++;
            break;
        case FIG_DB_SEAT_PERSON:
            y->kind = FIG_LOBBY_PERSON;
            copy_str(y->name, sizeof y->name, x->name);
            break;
        case FIG_DB_SEAT_BOT:
            y->kind = FIG_LOBBY_BOT;
            copy_str(y->level, sizeof y->level, x->what);
            break;
        case FIG_DB_SEAT_ENGINE:
            y->kind = FIG_LOBBY_ENGINE;
            copy_str(y->name, sizeof y->name, x->what);
            break;
        }
    }
    out->move_seconds = r->move_seconds;
    out->open = r->open;
    out->hints = r->hints;
    out->rated = fig_rated_table(r);
    copy_str(out->fill, sizeof out->fill, r->fill);
    return out->free > 0;
}

void fig_lobby_remote(fig_lobby_t *l, const fig_db_table_t *rows, int n,
                      bool (*mine)(void *ctx, const char *code), void *ctx, long long now)
{
    fig_lobby_ent_t *next[FIG_LOBBY_MAX];
    int k = 0;
    for (int i = 0; i < n && k < FIG_LOBBY_MAX; i++) {
        fig_lobby_table_t x;
        if (!fig_lobby_of_row(&rows[i], &x) || mine(ctx, x.code))
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

static const char *kind_name(fig_lobby_kind_t k)
{
    switch (k) {
    case FIG_LOBBY_PERSON:
        return "person";
    case FIG_LOBBY_BOT:
        return "bot";
    case FIG_LOBBY_ENGINE:
        return "engine";
    case FIG_LOBBY_OPEN:
        break;
    }
    return "open";
}

static json_t *table_json(const fig_lobby_table_t *x)
{
    json_t *o = json_object(), *seats = json_array(), *opts = json_object();
    json_object_set_new(o, "table", json_string(x->code));
    json_object_set_new(o, "players", json_integer(x->players));
    json_object_set_new(o, "free", json_integer(x->free));
    for (int s = 0; s < x->players; s++) {
        const fig_lobby_seat_t *y = &x->seats[s];
        json_t *j = json_object();
        json_object_set_new(j, "kind", json_string(kind_name(y->kind)));
        if (y->kind == FIG_LOBBY_PERSON)
            json_object_set_new(j, "name", json_string(y->name));
        else if (y->kind == FIG_LOBBY_BOT)
            json_object_set_new(j, "level", json_string(y->level));
        else if (y->kind == FIG_LOBBY_ENGINE)
            json_object_set_new(j, "engine", json_string(y->name));
        json_array_append_new(seats, j);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(opts, "move_seconds", json_integer(x->move_seconds));
    json_object_set_new(opts, "open", json_boolean(x->open));
    json_object_set_new(opts, "hints", json_boolean(x->hints));
    json_object_set_new(opts, "fill", json_string(x->fill));
    json_object_set_new(opts, "rated", json_boolean(x->rated));
    json_object_set_new(o, "options", opts);
    return o;
}

char *fig_lobby_frame(const fig_lobby_t *l, size_t *len)
{
    json_t *o = json_object(), *a = json_array();
    int k = 0;
    for (const fig_lobby_ent_t *e = l->head; e && k < FIG_LOBBY_MAX; e = e->next, k++)
        json_array_append_new(a, table_json(&e->x));
    json_object_set_new(o, "type", json_string("lobby"));
    json_object_set_new(o, "tables", a);
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    *len = text ? strlen(text) : 0;
    return text;
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
