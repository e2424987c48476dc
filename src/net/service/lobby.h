/* SPDX-License-Identifier: MIT */
/* lobby.h - the lobby (docs/protocol.md, lobby): the listed tables that wait
 * for people, kept in their own list, and the connections that follow it.
 *
 * The list holds only the tables in the lobby (listed, an open seat, first
 * game not started: fig_table_lobby decides; an entry is a
 * fig_lobby_table_t of proto.h, which builds the frame), newest first; a table's entry
 * is put, changed or taken out when the table changes (the service reads it
 * again when the table was touched), so nothing here walks every table.
 * A connection that subscribes gets the list at once, then again after
 * every change, coalesced: at most one frame a second per connection (the
 * list is sent at most once a second to everyone; a connection that got it
 * less than a second ago waits for the next time). The frame is built once
 * per change and the same text goes to everyone: it holds no hand, token or
 * anything one connection may see and another not (R14).
 *
 * With several servers on one database, the list also holds the listed
 * tables the other servers drive, as the last lease round read them
 * (fig_lobby_remote): a table is in one server's list once, as its own
 * when it drives it. */
#ifndef FIGARO_NET_LOBBY_H
#define FIGARO_NET_LOBBY_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "net/proto/proto.h"
#include "net/store/db.h"

enum {
    FIG_LOBBY_MAX = 50,           /* tables in one frame, the newest */
    FIG_LOBBY_EVERY_MS = 1000     /* frames to one connection at most every ... */
};

typedef struct fig_lobby_ent fig_lobby_ent_t;      /* a table's place in the list */

/* A connection's subscription, inside the connection (the service's). */
typedef struct fig_lobby_sub {
    struct fig_lobby_sub *next, *prev;
    bool on;
    unsigned long long sent;                       /* the list's version it has */
    long long at;                                  /* when it was sent one (ms) */
} fig_lobby_sub_t;

/* Sends one frame to the subscription's connection (the text is copied). */
typedef void fig_lobby_send_fn(void *ctx, fig_lobby_sub_t *sub, const char *text, size_t len);

typedef struct {
    fig_lobby_ent_t *head;                         /* newest first */
    int n;
    unsigned long long version, built;             /* changes; the version of `text` */
    char *text;
    size_t len;
    fig_lobby_sub_t *subs;
    int nsubs;
    long long due;                                 /* the next frame's time (ms), -1: none */
    long long last;                                /* the last frame's time, -1: none yet */
    unsigned long long frames;                     /* frames sent */
    fig_lobby_send_fn *send;
    void *ctx;
    fig_lobby_ent_t *remote[FIG_LOBBY_MAX];        /* the other servers' tables */
    int nremote;
} fig_lobby_t;

void fig_lobby_init(fig_lobby_t *l, fig_lobby_send_fn *send, void *ctx);

/* Frees the entries and the frame; the subscriptions are the caller's. */
void fig_lobby_free(fig_lobby_t *l);

/* A table's entry is now x (NULL: the table is not in the lobby), *slot its
 * place in the list (NULL: none; the caller keeps it with the table). A
 * change makes a frame due. Out of memory, the table stays out (false) and
 * is put when it changes next. */
bool fig_lobby_put(fig_lobby_t *l, fig_lobby_ent_t **slot, const fig_lobby_table_t *x,
                   long long now);

/* The other servers' tables are now these n (a lease round's; each is not
 * one this server drives: `mine` says so), replacing the last ones. */
void fig_lobby_remote(fig_lobby_t *l, const fig_db_table_t *rows, int n,
                      bool (*mine)(void *ctx, const char *code), void *ctx, long long now);

/* This server drives table `code` now: it leaves the other servers' part. */
void fig_lobby_drop_remote(fig_lobby_t *l, const char *code, long long now);

/* Subscribes (the list is sent at once) or unsubscribes the connection. */
void fig_lobby_on(fig_lobby_t *l, fig_lobby_sub_t *sub, long long now);
void fig_lobby_off(fig_lobby_t *l, fig_lobby_sub_t *sub);

/* When the next frame is due (ms), or -1. */
long long fig_lobby_due(const fig_lobby_t *l);

/* Sends the list to the subscriptions behind it, if due by now. */
void fig_lobby_flush(fig_lobby_t *l, long long now);

/* The frame as it stands (the caller frees it), NULL out of memory. */
char *fig_lobby_frame(const fig_lobby_t *l, size_t *len);

#endif
