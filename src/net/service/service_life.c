/* SPDX-License-Identifier: MIT */
/* service_life.c - the table server below the network (service.h): its
 * life, from fig_service_new to fig_service_free.
 *
 * The service holds the tables (net/table/table.h), the connections' states, the
 * storage (a writer thread for the writes, net/store/writer.h, and a handle for
 * reading on the loop thread), the bots' pool, the catalogues (one per
 * language, shared read-only by every connection that speaks it) and the
 * counters of /metrics. A client's frame goes: rate limit -> fig_proto_parse
 * -> the request, on one table -> the table's frames to its peers. Every
 * error goes to the connection that caused it, and only there.
 *
 * A table whose write is on its way to the disk is busy (fig_table_busy):
 * the requests for it wait in its queue here, in the order they came, and
 * run as soon as the writer gives the write back (the writer's descriptor is
 * one of the watched ones). So a table never sees a request before its last
 * write is durable, and per table the order of requests is kept.
 *
 * Tables are found by code and by their match's descriptor through two hash
 * indexes. A table nobody watches or sits at is deleted (from memory and
 * from the database) keep_finished_ms after that when its last game is over,
 * keep_idle_ms after that otherwise (never started, or abandoned).
 *
 * Limits: FIG_NET_FRAME_MAX bytes a frame; MSG_BURST messages at once then
 * MSG_RATE a second; CHAT_BURST chat lines at once then one every
 * CHAT_EVERY_MS; max_conns_per_addr connections from one address; a
 * connection that has not said hello within hello_ms is closed; a record sent
 * to be replayed (POST /replay), FIG_NET_RECORD_MAX bytes, never stored.
 *
 * This file makes and frees the service, gives tables their environment
 * (the callbacks below), loads them from the storage, takes them over and
 * drops them; what a message does is service_message.c's, the leases
 * service_leases.c's, the deadlines service_clock.c's, the writer's batches
 * coming back service_written.c's. */
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
#include "host/pool.h"
#include "host/util.h"
#include "net/store/db.h"
#include "net/base/heap.h"
#include "net/proto/proto.h"
#include "net/proto/replay_json.h"
#include "net/service/reviews.h"
#include "net/service/service.h"
#include "net/service/registry.h"
#include "net/service/service_conn_index.h"
#include "net/service/service_leases.h"
#include "net/service/service_lobby.h"
#include "net/service/service_message.h"
#include "net/service/service_people.h"
#include "net/service/service_reviews.h"
#include "net/table/table.h"
#include "net/base/token.h"
#include "net/store/writer.h"

/* ---- the environment tables use */

static void svc_log(void *v, const char *line)
{
    fig_service_t *s = v;
    if (s->log)
        s->log(s->log_ctx, line);
}

static void svc_send(void *v, void *peer, const char *text, size_t len)
{
    fig_service_t *s = v;
    conn_t *c = peer;
    s->wire.send(s->wire.wire, c->wc, text, len);
}

static void svc_fail(void *v, void *peer, fig_proto_code_t code, const char *text, const char *re,
                     const char *table)
{
    fig_svc_send_error(v, peer, code, text, re, table);
}

/* A table's batch is back: the table acts on it (tells, acknowledges),
 * then what waited for the table runs, or the table goes (its lease is
 * lost, or its creation failed). */
static void table_back(void *ctx, fig_db_batch_t *b)
{
    fig_service_t *s = ctx;
    fig_table_t *t = b->user;
    tab_t *e = fig_svc_find_tab(s, fig_table_code(t));   /* a busy table is never deleted */
    bool fenced = b->fenced;
    s->fenced += fenced;
    fig_table_written(t, b);
    if (!e || e->t != t)
        return;
    if (fenced || (e->lost && !fig_table_busy(t))) {
        s->leases_lost += fenced && !e->lost;
        fig_svc_drop_table(s, e, "another server drives it now (its lease is lost)");
    } else {
        fig_svc_run_waiting(s, e);
        if (fig_table_dead(t))
            fig_svc_remove_table(s, e);
    }
}

static void svc_submit(void *v, fig_db_batch_t *b)
{
    fig_service_t *s = v;
    b->back = table_back;
    b->drop = fig_db_batch_free;
    b->ctx = s;
    fig_writer_submit(s->writer, b);
}

static void svc_watch(void *v, int fd, fig_table_t *t)
{
    fig_service_t *s = v;
    fdent_t *e = malloc(sizeof *e);
    if (!e) {
        fig_logf(s->log, s->log_ctx, "",
                 "table %s: cannot watch its match: out of memory", fig_table_code(t));
        return;
    }
    e->fd = fd;
    e->t = t;
    e->next = s->by_fd[fig_svc_fd_bucket(s, fd)];
    s->by_fd[fig_svc_fd_bucket(s, fd)] = e;
    s->wire.watch(s->wire.wire, fd);
}

static void svc_unwatch(void *v, int fd)
{
    fig_service_t *s = v;
    for (fdent_t **pp = &s->by_fd[fig_svc_fd_bucket(s, fd)]; *pp; pp = &(*pp)->next)
        if ((*pp)->fd == fd) {
            fdent_t *e = *pp;
            *pp = e->next;
            free(e);
            s->wire.unwatch(s->wire.wire, fd);
            return;
        }
}

/* ---- life */

/* The operator's engines: names checked, each spec "cmd:" + its command. */
static fig_err_t engines_init(fig_service_t *s, const fig_service_opts_t *opts, fig_msg_t *msg)
{
    if (opts->nengines <= 0)
        return FIG_OK;
    s->engine_names = calloc((size_t)opts->nengines, sizeof *s->engine_names);
    s->engine_specs = calloc((size_t)opts->nengines, sizeof *s->engine_specs);
    if (!s->engine_names || !s->engine_specs)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    for (int i = 0; i < opts->nengines; i++) {
        const fig_engine_def_t *e = &opts->engines[i];
        size_t n = strlen(e->name);
        if (n == 0 || n > FIG_ENGINE_NAME_MAX || !e->cmd[0])
            return fig_fail(msg, FIG_ERR_INPUT, N_("engine '%s': a name of 1 to 32 bytes and "
                                                 "a command, NAME=CMD"), e->name);
        s->engine_specs[i] = malloc(strlen(e->cmd) + 5);
        if (!s->engine_specs[i])
            return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
        sprintf(s->engine_specs[i], "cmd:%s", e->cmd);
        memcpy(s->engine_names[i], e->name, n + 1);
        s->nengines = i + 1;
    }
    return FIG_OK;
}

/* The environment every table gets (table.h). */
static void env_init(fig_service_t *s, const fig_service_opts_t *opts)
{
    s->env.svc = s;
    s->env.send = svc_send;
    s->env.fail = svc_fail;
    s->env.submit = svc_submit;
    s->env.watch = svc_watch;
    s->env.unwatch = svc_unwatch;
    s->env.engine = fig_svc_engine;
    s->env.person_of = fig_svc_person_of;
    s->env.rated = fig_svc_rated;
    s->env.seat_person = fig_svc_seat_person;
    s->env.log = svc_log;
    s->env.now = fig_svc_now;
    s->env.pool = s->pool;
    s->env.grace_ms = s->grace_ms;
    s->env.max_bot_ms = opts->max_bot_ms > 0 ? opts->max_bot_ms : 0;
    s->env.stats = &s->stats;
}

/* The options' limits and hooks, a default for each limit left 0. */
static void take_opts(fig_service_t *s, const fig_service_opts_t *opts)
{
    s->by_person.which = CX_PERSON;
    s->by_addr.which = CX_ADDR;
    s->grace_ms = opts->grace_ms > 0 ? opts->grace_ms : 30000;
    s->max_tables = opts->max_tables > 0 ? opts->max_tables : 1000;
    s->max_per_addr = opts->max_conns_per_addr > 0 ? opts->max_conns_per_addr : 16;
    s->hello_ms = opts->hello_ms > 0 ? opts->hello_ms : 10000;
    s->keep_finished_ms = opts->keep_finished_ms > 0 ? opts->keep_finished_ms : 3600 * 1000LL;
    s->keep_idle_ms = opts->keep_idle_ms > 0 ? opts->keep_idle_ms : 24 * 3600 * 1000LL;
    s->forgot_ms = opts->forgotten_ms > 0 ? opts->forgotten_ms : 0;
    s->clock = opts->clock;
    s->clock_ctx = opts->clock_ctx;
    s->wall = opts->wall;
    s->log = opts->log;
    s->log_ctx = opts->log_ctx;
}

fig_err_t fig_service_new(fig_service_t **out, const fig_service_opts_t *opts,
                          const fig_wire_ops_t *wire, fig_msg_t *msg)
{
    *out = NULL;
    fig_service_t *s = calloc(1, sizeof *s);
    if (!s)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    s->wire = *wire;
    take_opts(s, opts);
    fig_svc_lobby_init(s);
    fig_err_t rc = FIG_OK;
    uint64_t epoch = 0;
    s->nbuckets = 64;
    s->by_code = calloc((size_t)s->nbuckets, sizeof *s->by_code);
    s->by_fd = calloc((size_t)s->nbuckets, sizeof *s->by_fd);
    if (!s->by_code || !s->by_fd) {
        rc = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
        goto fail;
    }
    if ((rc = fig_random_u64(&epoch, msg)))
        goto fail;
    snprintf(s->env.epoch, sizeof s->env.epoch, "%016llx", (unsigned long long)epoch);
    if ((rc = engines_init(s, opts, msg)))
        goto fail;
    for (int i = 1; i < fig_lang_count() && opts->localedir; i++) {
        fig_msg_t why;
        if (fig_catalog_open(&s->cat[i], opts->localedir, fig_lang_code(i), &why))
            fig_logf(s->log, s->log_ctx, "",
                     "no %s catalogue (%s): English instead", fig_lang_code(i), why.text);
    }
    fig_pool_opts_t po = { opts->bot_threads, opts->bot_scratch };
    if ((rc = fig_pool_new(&s->pool, &po, msg)))
        goto fail;
    /* The writer thread's handle, which creates the schema, and one for the
     * load below, closed once it is done: from then on the loop thread never
     * touches the storage (the tables' restores already submit writes). */
    s->lease_ms = opts->lease_ms > 0 ? opts->lease_ms : FIG_DB_LEASE_S * 1000;
    snprintf(s->node, sizeof s->node, "%s", opts->node ? opts->node : "local");
    fig_db_opts_t dbo = { opts->normal_sync, s->node, s->lease_ms };
    fig_db_t *db;
    if ((rc = fig_db_open(&db, opts->db, &dbo, msg)))
        goto fail;
    if ((rc = fig_writer_new(&s->writer, db, msg)))
        goto fail;
    if ((rc = fig_db_open(&db, opts->db, &dbo, msg)))
        goto fail;
    env_init(s, opts);
    s->wire.watch(s->wire.wire, fig_writer_fd(s->writer));
    if ((rc = fig_reviews_new(&s->reviews, s->pool, opts->review_spec, msg))) {
        fig_db_close(db);
        goto fail;
    }
    s->wire.watch(s->wire.wire, fig_reviews_fd(s->reviews));
    s->forgot_next = s->forgot_ms ? fig_svc_now(s) + s->forgot_ms : -1;
    /* those forgotten so far are anonymous in what is loaded (service_forgotten.c) */
    if (!(rc = fig_db_forgotten_last(db, &s->forgot_seq, msg)))
        rc = fig_db_load(db, s->max_tables, fig_svc_load_table, s, msg);
    s->shared = fig_db_shared(db);
    s->next_round = fig_svc_now(s) + s->lease_ms / 3;
    fig_db_close(db);
    if (rc)
        goto fail;
    fig_logf(s->log, s->log_ctx, "", "service up: %d tables, epoch %s, node %s", s->ntables,
             s->env.epoch, s->node);
    *out = s;
    return FIG_OK;
fail:
    fig_service_free(s);
    return rc;
}

void fig_service_free(fig_service_t *s)
{
    if (!s)
        return;
    /* What is queued is written first; what came back and was not told
     * stays untold (it is on the disk: a client that comes back sees it). */
    if (s->writer) {
        s->wire.unwatch(s->wire.wire, fig_writer_fd(s->writer));
        fig_db_batch_t *left = NULL;
        fig_writer_free(s->writer, &left);
        while (left) {
            fig_db_batch_t *b = left;
            left = b->next;
            if (b->drop)   /* a record's read and a review's are in waits and rwaits */
                b->drop(b);
        }
    }
    fig_svc_people_free(s);   /* its jobs, those left with the writer too */
    while (s->waits) {
        http_wait_t *h = s->waits;
        s->waits = h->next;
        free(h);
    }
    while (s->lookups) {
        lookup_t *k = s->lookups;
        s->lookups = k->next;
        while (k->head) {
            wait_t *w = k->head;
            k->head = w->next;
            free(w);
        }
        free(k);
    }
    s->dirty = NULL;   /* every table goes */
    for (int i = 0; i < s->ntables; i++)
        s->tabs[i]->dirty = false;
    while (s->ntables > 0)
        fig_svc_remove_table(s, s->tabs[s->ntables - 1]);
    fig_heap_free(&s->due);
    fig_lobby_free(&s->lobby);
    for (review_wait_t *r = s->rwaits; r; r = r->next)
        if (r->state == RV_COMPUTING)
            fig_reviews_cancel(r->job);
    free(s->tabs);
    free(s->by_code);
    if (s->by_fd)
        for (int i = 0; i < s->nbuckets; i++)
            while (s->by_fd[i]) {
                fdent_t *e = s->by_fd[i];
                s->by_fd[i] = e->next;
                free(e);
            }
    free(s->by_fd);
    fig_pool_free(s->pool);   /* after the matches: it runs their last jobs */
    if (s->reviews)
        s->wire.unwatch(s->wire.wire, fig_reviews_fd(s->reviews));
    fig_reviews_free(s->reviews);   /* after the pool: every job is back */
    while (s->rwaits)
        fig_svc_review_drop(s, s->rwaits);
    for (int i = 0; i < fig_lang_count(); i++)
        fig_catalog_free(s->cat[i]);
    while (s->conns) {
        conn_t *c = s->conns;
        s->conns = c->next;
        free(c->at);
        free(c);
    }
    fig_svc_cx_free(&s->by_person);
    fig_svc_cx_free(&s->by_addr);
    fig_svc_person_seats_free(s);
    for (int i = 0; i < s->nengines; i++)
        free(s->engine_specs[i]);
    free(s->engine_specs);
    free(s->engine_names);
    free(s);
}

const char *fig_service_epoch(const fig_service_t *s) { return s->env.epoch; }

