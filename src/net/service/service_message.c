/* SPDX-License-Identifier: MIT */
/* service_message.c - what a client's message does (service.h,
 * fig_service_message): rate limit -> fig_proto_parse -> hello, create or a
 * request on one table, run at once or queued behind the table's write on
 * its way to the disk (fig_svc_run_waiting runs the queue when it is back).
 * A request for a table this server does not drive, on a shared storage,
 * waits for a claim of that table (park; claimed when it is back).
 * Every error goes to the connection that caused it, and only there. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figaro/figaro.h"
#include "host/catalog.h"
#include "host/lang.h"
#include "host/util.h"
#include "net/store/db.h"
#include "net/proto/proto.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_conns.h"
#include "net/service/service_leases.h"
#include "net/service/service_lobby.h"
#include "net/service/service_message.h"
#include "net/service/service_people.h"
#include "net/service/service_reviews.h"
#include "net/table/table.h"
#include "net/store/writer.h"

/* Puts w (its c set) at the end of a queue of waiting requests: a table's
 * (its write) or a claim's (lookup_t). */
static void wait_push(wait_t **head, wait_t **tail, wait_t *w)
{
    w->next = NULL;
    if (*tail)
        (*tail)->next = w;
    else
        *head = w;
    *tail = w;
    w->c->waiting++;
}

static void enqueue(tab_t *e, wait_t *w)
{
    fig_svc_conn_at(w->c, fig_table_code(e->t));
    wait_push(&e->head, &e->tail, w);
}

static void claimed(void *ctx, fig_db_batch_t *b);   /* a claim is back */

/* On a shared storage, w (a request of c for table `code`, which this
 * server does not drive) waits for the claim of that table: 0. A full
 * server claims too, but only looks where the table is (moved, no_table or
 * tables_full: it takes nothing beyond its cap). Else the error to answer:
 * no_table where the storage is not shared (this server drives every table
 * there is); busy when LOOKUPS_MAX claims wait, or out of memory. */
static fig_proto_code_t park(fig_service_t *s, conn_t *c, const char *code, wait_t *w)
{
    if (!s->shared)
        return FIG_PC_NO_TABLE;
    if (!w)
        return FIG_PC_BUSY;   /* out of memory */
    lookup_t *k = s->lookups;
    while (k && strcmp(k->code, code) != 0)
        k = k->next;
    if (!k) {
        if (s->nlookups >= LOOKUPS_MAX)
            return FIG_PC_BUSY;
        k = calloc(1, sizeof *k);
        fig_db_batch_t *b = calloc(1, sizeof *b);
        fig_db_lease_t *l = calloc(1, sizeof *l);
        if (!k || !b || !l) {
            free(k);
            free(b);
            free(l);
            return FIG_PC_BUSY;
        }
        snprintf(k->code, sizeof k->code, "%s", code);
        snprintf(l->claim, sizeof l->claim, "%s", code);
        l->look = fig_svc_room(s) <= 0;
        s->claiming += !l->look;
        b->back = claimed;
        b->drop = fig_svc_free_lease_batch;
        b->ctx = s;
        b->lease = l;
        k->next = s->lookups;
        s->lookups = k;
        s->nlookups++;
        fig_writer_submit(s->writer, b);
    }
    w->c = c;
    wait_push(&k->head, &k->tail, w);
    return 0;
}

/* Tells c why its request `re` for table `table` is not run here: code is
 * park's answer or a claim's (no_table, busy or storage: try again,
 * tables_full: this server is full, another with room takes the table). */
static void unparked(fig_service_t *s, conn_t *c, fig_proto_code_t code, const char *re,
                     const char *table)
{
    char text[200];
    snprintf(text, sizeof text,
             code == FIG_PC_NO_TABLE ? fig_tr_text(c->tr, "there is no table %s")
             : code == FIG_PC_TABLES_FULL
                 ? fig_tr_text(c->tr, "table %s waits for a server with room: try again in a "
                                      "moment")
                 : fig_tr_text(c->tr, "table %s: the server is busy, try again"),
             table);
    fig_svc_send_error(s, c, code, text, re, table);
}

static void do_hello(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m)
{
    const fig_tr_t *tr = NULL;
    for (int i = 1; i < fig_lang_count(); i++)
        if (strcmp(m->lang, fig_lang_code(i)) == 0 && s->cat[i])
            tr = fig_catalog_tr(s->cat[i]);
    if (m->version != FIG_PROTO_VERSION) {
        char text[200];
        snprintf(text, sizeof text, fig_tr_text(tr, "this server speaks version %d of the "
                                                    "protocol"), FIG_PROTO_VERSION);
        fig_svc_send_error(s, c, FIG_PC_VERSION, text, "hello", NULL);
        return;
    }
    c->hello = true;
    fig_svc_hello_unlink(s, c);
    c->tr = tr;
    snprintf(c->name, sizeof c->name, "%s", m->name);
    const char **engines = calloc((size_t)s->nengines + 1, sizeof *engines);
    int nengines = engines ? s->nengines : 0;   /* out of memory: none listed */
    for (int i = 0; i < nengines; i++)
        engines[i] = s->engine_names[i];
    fig_svc_send_json(s, c, fig_proto_welcome(s->env.epoch, m->lang, "figaro " FIG_VERSION, engines,
                                      nengines));
    free(engines);
    fig_svc_people_hello(s, c, m);
    for (int i = 0; i < m->nheld; i++) {
        const fig_proto_held_t *h = &m->held[i];
        if (h->bad) {   /* this seat alone: the others are taken back */
            fig_svc_send_error(s, c, h->bad, h->bad_text, "hello", h->table[0] ? h->table : NULL);
            continue;
        }
        tab_t *e = fig_svc_find_tab(s, h->table);
        fig_msg_t msg;
        if (!e) {
            wait_t *w = calloc(1, sizeof *w);
            if (w) {
                w->m.type = FIG_PROTO_HELLO;
                w->m.nheld = 1;
                w->m.held[0] = *h;
            }
            fig_proto_code_t why = park(s, c, h->table, w);
            if (why == 0)
                continue;   /* maybe another server's: claimed first */
            free(w);
            unparked(s, c, why, "hello", h->table);
            continue;
        }
        if (fig_table_busy(e->t) || e->head) {   /* its turn comes after the write */
            wait_t *w = calloc(1, sizeof *w);
            if (!w) {
                fig_svc_send_error(s, c, FIG_PC_STORAGE, fig_tr_text(tr, "out of memory"), "hello",
                           h->table);
                continue;
            }
            w->c = c;
            w->m.type = FIG_PROTO_HELLO;
            w->m.nheld = 1;
            w->m.held[0] = *h;
            enqueue(e, w);
            continue;
        }
        fig_table_since_t since = { h->has_since, h->epoch, h->since };
        fig_svc_conn_at(c, h->table);
        fig_proto_code_t code = fig_table_resume(e->t, c, tr, h->token, &since, &msg);
        if (code)
            fig_svc_send_error(s, c, code, msg.text, "hello", h->table);
    }
}

static void do_create(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m)
{
    if (fig_svc_room(s) <= 0) {
        fig_svc_send_error(s, c, FIG_PC_TABLES_FULL,
                   fig_tr_text(c->tr, "the server holds as many tables as it may"), "create",
                   NULL);
        return;
    }
    fig_db_table_t row;
    memset(&row, 0, sizeof row);
    row.players = m->players;
    row.move_seconds = m->move_seconds;
    row.open = m->open;
    row.listed = m->listed;
    snprintf(row.fill, sizeof row.fill, "%s", m->fill);
    int people = 0;
    for (int i = 0; i < m->players; i++)
        people += m->seats[i].kind == FIG_SEAT_OPEN;
    row.hints = m->hints >= 0 ? m->hints : people == 1;   /* a person alone with bots */
    for (int i = 0; i < m->players; i++) {
        fig_db_seat_t *x = &row.seats[i];
        const fig_proto_seat_t *p = &m->seats[i];
        x->kind = p->kind == FIG_SEAT_OPEN ? FIG_DB_SEAT_OPEN
                  : p->kind == FIG_SEAT_BOT ? FIG_DB_SEAT_BOT : FIG_DB_SEAT_ENGINE;
        snprintf(x->what, sizeof x->what, "%s", p->what);
        if (p->kind == FIG_SEAT_ENGINE && !fig_svc_engine(s, p->what)) {
            char text[200];
            snprintf(text, sizeof text, fig_tr_text(c->tr, "no engine is called '%s' here"),
                     p->what);
            fig_svc_send_error(s, c, FIG_PC_UNKNOWN_ENGINE, text, "create", NULL);
            return;
        }
    }
    fig_msg_t msg;
    if (fig_random_u64(&row.seed, &msg)) {
        fig_svc_send_error(s, c, FIG_PC_STORAGE, msg.text, "create", NULL);
        return;
    }
    do {
        if (fig_code_new(row.code, FIG_TABLE_CODE_LEN, &msg)) {
            fig_svc_send_error(s, c, FIG_PC_STORAGE, msg.text, "create", NULL);
            return;
        }
    } while (fig_svc_find_table(s, row.code));
    row.created = (long long)time(NULL);
    fig_table_t *t = NULL;
    tab_t *e = fig_svc_room_for_table(s);
    if (!e || fig_table_create(&t, &s->env, &row, c, c->tr, &msg)) {
        free(e);
        fig_logf(s->log, s->log_ctx, "",
                 "a table could not be created: %s", e ? msg.text : "out of memory");
        fig_svc_send_error(s, c, FIG_PC_STORAGE,
                   fig_tr_text(c->tr, "the server could not store that; nothing was done"),
                   "create", NULL);
        return;
    }
    fig_svc_insert_table(s, e, t);
    fig_svc_conn_at(c, row.code);
    /* `created` goes to c once the table is stored (fig_table_written). */
}

/* A chat line, unless the connection chats faster than its tokens allow. */
static fig_proto_code_t do_chat(fig_service_t *s, conn_t *c, fig_table_t *t,
                                const fig_proto_msg_t *m, fig_msg_t *msg)
{
    if (!fig_svc_take_token(&c->chat_tokens, &c->chat_at, fig_svc_now(s), CHAT_BURST,
                            1.0 / CHAT_EVERY_MS)) {
        snprintf(msg->text, sizeof msg->text, "%s",
                 fig_tr_text(c->tr, "one chat line every two seconds, please"));
        return FIG_PC_CHAT_FLOOD;
    }
    return fig_table_chat(t, c, c->tr, c->name, m->text, msg);
}

/* Runs a request on its table (t: NULL for hello, create, ping), which is
 * not busy. */
static void run_request(fig_service_t *s, conn_t *c, fig_table_t *t, const fig_proto_msg_t *m,
                        long long t0, bool resume_only)
{
    const char *re = fig_proto_type_name(m->type);
    fig_table_since_t since = { m->has_since, m->epoch, m->since };
    fig_proto_code_t code = FIG_PC_NONE;
    fig_msg_t msg;
    if (t)
        fig_svc_conn_at(c, fig_table_code(t));
    switch (m->type) {
    case FIG_PROTO_HELLO:
        if (resume_only) {   /* a seat of a hello, taken back once its table was free */
            const fig_proto_held_t *h = &m->held[0];
            fig_table_since_t hs = { h->has_since, h->epoch, h->since };
            code = fig_table_resume(t, c, c->tr, h->token, &hs, &msg);
        } else {
            do_hello(s, c, m);
        }
        break;
    case FIG_PROTO_CREATE:
        do_create(s, c, m);
        break;
    case FIG_PROTO_PING:
        fig_svc_send_json(s, c, fig_proto_pong());
        break;
    case FIG_PROTO_LOBBY:
        fig_svc_refresh(s);   /* the tables touched since: the list as it is now */
        fig_svc_lobby_message(s, c, m);
        break;
    case FIG_PROTO_JOIN:   /* a signed-in person sits under their person's name */
        code = fig_table_join(t, c, c->tr,
                              m->name[0] ? m->name : c->pname[0] ? c->pname : c->name, m->seat,
                              &since, &msg);
        break;
    case FIG_PROTO_SPECTATE:
        code = fig_table_spectate(t, c, c->tr, &since, &msg);
        break;
    case FIG_PROTO_ACT:
        code = fig_table_act(t, c, c->tr, m->n, m->action, t0, &msg);
        break;
    case FIG_PROTO_LEAVE:
        code = fig_table_leave(t, c, c->tr, &msg);
        break;
    case FIG_PROTO_BACK:
        code = fig_table_back(t, c, c->tr, &msg);
        break;
    case FIG_PROTO_REMATCH:
        code = fig_table_rematch(t, c, c->tr, m->game, m->ready, &msg);
        break;
    case FIG_PROTO_HINT:
        code = fig_table_hint(t, c, c->tr, m->n, &msg);
        break;
    case FIG_PROTO_REVIEW:
        code = fig_svc_review(s, c, t, m, &msg);
        break;
    case FIG_PROTO_RESUME:
        code = fig_svc_resume(s, c, t, m, &msg);
        break;
    case FIG_PROTO_PERSON_NEW:
    case FIG_PROTO_DEVICE_CODE:
    case FIG_PROTO_REDEEM:
    case FIG_PROTO_PERSON_SET:
    case FIG_PROTO_SIGN_OUT:
    case FIG_PROTO_FORGET_ME:
        fig_svc_people_message(s, c, m);
        break;
    case FIG_PROTO_CHAT:
        code = do_chat(s, c, t, m, &msg);
        break;
    case FIG_PROTO_TYPE_COUNT:   /* never parsed */
        break;
    }
    if (code)
        fig_svc_send_error(s, c, code, msg.text, re, t ? fig_table_code(t) : NULL);
}

/* Runs what waits for the table while it is free. */
void fig_svc_run_waiting(fig_service_t *s, tab_t *e)
{
    while (e->head && !fig_table_busy(e->t) && !fig_table_dead(e->t)) {
        wait_t *w = e->head;
        e->head = w->next;
        if (!e->head)
            e->tail = NULL;
        w->c->waiting--;
        if (!w->c->closing)
            run_request(s, w->c, e->t, &w->m, w->t0, w->m.type == FIG_PROTO_HELLO);
        free(w);
    }
}

void fig_service_message(fig_service_t *s, void *cs, const char *text, size_t len)
{
    conn_t *c = cs;
    long long t0 = fig_clock_us(), now = fig_svc_now(s);
    if (!c || c->closing)
        return;
    if (!fig_svc_take_token(&c->tokens, &c->tokens_at, now, MSG_BURST, MSG_RATE / 1000.0)) {
        if (now - c->rate_told >= 1000) {   /* one word a second, not one per frame */
            c->rate_told = now;
            fig_svc_send_error(s, c, FIG_PC_RATE,
                       fig_tr_text(c->tr, "too many messages: slow down"), NULL, NULL);
        }
        return;
    }
    wait_t *w = malloc(sizeof *w);
    if (!w)
        return;
    fig_proto_msg_t *m = &w->m;
    fig_proto_code_t code;
    fig_msg_t msg;
    if (fig_proto_parse(text, len, c->tr, m, &code, &msg)) {
        /* `re` and `table` whenever they could be read (docs/protocol.md) */
        fig_svc_send_error(s, c, code, msg.text, m->typed ? fig_proto_type_name(m->type) : NULL,
                   m->typed && m->table[0] ? m->table : NULL);
        free(w);
        return;
    }
    const char *re = fig_proto_type_name(m->type);
    if (!c->hello && m->type != FIG_PROTO_HELLO) {
        fig_svc_send_error(s, c, FIG_PC_HELLO_FIRST, fig_tr_text(c->tr, "say hello first"), re,
                           NULL);
        free(w);
        return;
    }
    tab_t *e = NULL;
    if (m->table[0] && !(e = fig_svc_find_tab(s, m->table))) {   /* a table's request */
        w->t0 = t0;
        fig_proto_code_t why = park(s, c, m->table, w);
        if (why == 0)
            return;   /* maybe another server's: claimed first */
        unparked(s, c, why, re, m->table);
        free(w);
        return;
    }
    if (e && m->type == FIG_PROTO_ACT && fig_table_rebuilding(e->t)) {
        /* Going back to the stored game after a failed write: refused. */
        fig_table_refuse_rebuilding(e->t, c->tr, &msg);
        fig_svc_send_error(s, c, FIG_PC_STORAGE, msg.text, re, m->table);
        free(w);
        return;
    }
    if (e && (fig_table_busy(e->t) || e->head)) {
        /* Its table's last write is on its way: this waits, in order. */
        w->c = c;
        w->t0 = t0;
        enqueue(e, w);
        return;
    }
    run_request(s, c, e ? e->t : NULL, m, t0, false);
    free(w);
}

/* A claim is back (park): the requests that waited for it run at the
 * table if it was taken, else they are told where it is (moved), that
 * there is none, that this server is full (a full server's claim only
 * looks; another server with room takes the table within a lease round),
 * or to try again (the claim found its server gone but took nothing:
 * another server was quicker). */
static void claimed(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    fig_db_lease_t *l = b->lease;
    lookup_t **pp = &s->lookups;
    while (*pp && strcmp((*pp)->code, l->claim) != 0)
        pp = &(*pp)->next;
    lookup_t *k = *pp;
    if (k) {
        *pp = k->next;
        s->nlookups--;
    }
    s->claiming -= !l->look;
    if (l->taken)
        fig_svc_take_over(s, l->taken, "asked for here, its server is gone");
    tab_t *e = fig_svc_find_tab(s, l->claim);
    bool moved = l->owner[0] && strcmp(l->owner, s->node) != 0;
    fig_proto_code_t code = b->rc ? (b->rc == FIG_ERR_INPUT ? FIG_PC_NO_TABLE : FIG_PC_STORAGE)
                            : moved ? FIG_PC_MOVED
                            : l->look ? FIG_PC_TABLES_FULL : FIG_PC_BUSY;
    while (k && k->head) {
        wait_t *w = k->head;
        k->head = w->next;
        w->c->waiting--;
        const char *re = fig_proto_type_name(w->m.type);
        if (e) {
            enqueue(e, w);
            continue;
        }
        fig_msg_t msg;
        if (!w->c->closing && code == FIG_PC_MOVED) {
            snprintf(msg.text, sizeof msg.text,
                     fig_tr_text(w->c->tr, "table %s is at another server: %s"), l->claim,
                     l->owner);
            fig_svc_send_json(s, w->c, fig_proto_moved(msg.text, re, l->claim, l->owner));
        } else if (!w->c->closing) {
            unparked(s, w->c, code, re, l->claim);
        }
        free(w);
    }
    if (e)
        fig_svc_run_waiting(s, e);
    free(k);
    fig_svc_free_lease_batch(b);
}

const char *fig_svc_engine(void *v, const char *name)
{
    fig_service_t *s = v;
    for (int i = 0; i < s->nengines; i++)
        if (strcmp(s->engine_names[i], name) == 0)
            return s->engine_specs[i];
    return NULL;
}
