/* SPDX-License-Identifier: MIT */
/* service.c - the table server below the network (service.h).
 *
 * The service holds the tables (net/table.h), the connections' states, the
 * storage (a writer thread for the writes, net/writer.h, and a handle for
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
 * Limits: FIG_PROTO_FRAME_MAX bytes a frame; MSG_BURST messages at once then
 * MSG_RATE a second; CHAT_BURST chat lines at once then one every
 * CHAT_EVERY_MS; max_conns_per_addr connections from one address; a
 * connection that has not said hello within hello_ms is closed; a record sent
 * to be replayed (POST /replay), FIG_REPLAY_FGN_MAX bytes, never stored. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "figaro/figaro.h"
#include "host/lang.h"
#include "host/pool.h"
#include "host/util.h"
#include "net/db.h"
#include "net/heap.h"
#include "net/proto.h"
#include "net/replay_json.h"
#include "net/reviews.h"
#include "net/service.h"
#include "net/service_internal.h"
#include "net/table.h"
#include "net/token.h"
#include "net/writer.h"

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

static void svc_submit(void *v, fig_db_batch_t *b)
{
    fig_service_t *s = v;
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

static const char *svc_engine(void *v, const char *name)
{
    fig_service_t *s = v;
    for (int i = 0; i < s->nengines; i++)
        if (strcmp(s->engine_names[i], name) == 0)
            return s->engine_specs[i];
    return NULL;
}

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

/* A lease round's or claim's batch, and all it holds. */
static void free_lease_batch(fig_db_batch_t *b)
{
    fig_db_taken_free(b->lease->taken);
    free(b->lease->codes);
    free(b->lease->lost);
    free(b->lease);
    free(b);
}

/* The table's lease is lost (another server drives it now, or may): it is
 * dropped from memory, and the connections of its people and spectators
 * closed, so that they come back to the server that drives it. */
void fig_svc_drop_table(fig_service_t *s, tab_t *e, const char *why)
{
    fig_logf(s->log, s->log_ctx, "", "table %s: dropped: %s", fig_table_code(e->t), why);
    for (conn_t *c = s->conns; c; c = c->next)
        if (!c->closing && fig_table_attached(e->t, c)) {
            c->closing = true;
            s->wire.close(s->wire.wire, c->wc);
        }
    fig_svc_remove_table(s, e);
}

static fig_err_t load_one(void *ctx, const fig_db_table_t *row, const fig_db_game_t *last,
                          fig_msg_t *msg)
{
    fig_service_t *s = ctx;
    fig_table_t *t;
    tab_t *e = fig_svc_room_for_table(s);
    if (!e)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    fig_err_t rc = fig_table_restore(&t, &s->env, row, last, msg);
    if (rc) {
        free(e);
        return rc;
    }
    fig_svc_insert_table(s, e, t);
    return FIG_OK;
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
        if (n == 0 || n > FIG_PROTO_ENGINE_NAME_MAX || !e->cmd[0])
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
    s->env.engine = svc_engine;
    s->env.log = svc_log;
    s->env.now = fig_svc_now;
    s->env.pool = s->pool;
    s->env.grace_ms = s->grace_ms;
    s->env.max_bot_ms = opts->max_bot_ms > 0 ? opts->max_bot_ms : 0;
    s->env.stats = &s->stats;
}

fig_err_t fig_service_new(fig_service_t **out, const fig_service_opts_t *opts,
                          const fig_wire_ops_t *wire, fig_msg_t *msg)
{
    *out = NULL;
    fig_service_t *s = calloc(1, sizeof *s);
    if (!s)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    s->wire = *wire;
    s->grace_ms = opts->grace_ms > 0 ? opts->grace_ms : 30000;
    s->max_tables = opts->max_tables > 0 ? opts->max_tables : 1000;
    s->max_per_addr = opts->max_conns_per_addr > 0 ? opts->max_conns_per_addr : 16;
    s->hello_ms = opts->hello_ms > 0 ? opts->hello_ms : 10000;
    s->keep_finished_ms = opts->keep_finished_ms > 0 ? opts->keep_finished_ms : 3600 * 1000LL;
    s->keep_idle_ms = opts->keep_idle_ms > 0 ? opts->keep_idle_ms : 24 * 3600 * 1000LL;
    s->clock = opts->clock;
    s->clock_ctx = opts->clock_ctx;
    s->log = opts->log;
    s->log_ctx = opts->log_ctx;
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
    rc = fig_db_load(db, s->max_tables, load_one, s, msg);
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
            if (b->kind == FIG_DBB_LEASE)
                free_lease_batch(b);
            /* a record's read and a review's are in waits and rwaits */
            else if (b->kind != FIG_DBB_RECORD && b->kind != FIG_DBB_REVIEW)
                free(b);
        }
    }
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
    for (int i = 0; i < s->nengines; i++)
        free(s->engine_specs[i]);
    free(s->engine_specs);
    free(s->engine_names);
    free(s);
}

const char *fig_service_epoch(const fig_service_t *s) { return s->env.epoch; }

/* The tables this server may still take or create: --max-tables, less
 * those it holds and those its claims on their way may take. */
static int room(const fig_service_t *s)
{
    return s->max_tables - s->ntables - s->claiming;
}

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
        l->look = room(s) <= 0;
        s->claiming += !l->look;
        b->kind = FIG_DBB_LEASE;
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
    if (room(s) <= 0) {
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
        if (p->kind == FIG_SEAT_ENGINE && !svc_engine(s, p->what)) {
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
        if (fig_code_new(row.code, FIG_PROTO_CODE_LEN, &msg)) {
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

/* Runs a request on its table (t: NULL for hello, create, ping), which is
 * not busy. */
static void run_request(fig_service_t *s, conn_t *c, fig_table_t *t, const fig_proto_msg_t *m,
                        long long t0, bool resume_only)
{
    const char *re = fig_proto_type_name(m->type);
    fig_table_since_t since = { m->has_since, m->epoch, m->since };
    fig_proto_code_t code = FIG_PC_NONE;
    fig_msg_t msg;
    long long now = fig_svc_now(s);
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
    case FIG_PROTO_PING: {
        fig_svc_send_json(s, c, fig_proto_pong());
        break;
    }
    case FIG_PROTO_JOIN:
        code = fig_table_join(t, c, c->tr, m->name[0] ? m->name : c->name, m->seat, &since, &msg);
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
    case FIG_PROTO_CHAT:
        if (!fig_svc_take_token(&c->chat_tokens, &c->chat_at, now, CHAT_BURST,
                                1.0 / CHAT_EVERY_MS)) {
            code = FIG_PC_CHAT_FLOOD;
            snprintf(msg.text, sizeof msg.text, "%s",
                     fig_tr_text(c->tr, "one chat line every two seconds, please"));
        } else {
            code = fig_table_chat(t, c, c->tr, c->name, m->text, &msg);
        }
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
    if (m->type != FIG_PROTO_HELLO && m->type != FIG_PROTO_CREATE && m->type != FIG_PROTO_PING &&
        !(e = fig_svc_find_tab(s, m->table))) {
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

/* A lease round: every table's lease renewed, then tables whose server is
 * gone taken, on the writer thread (fig_db_lease_round). */
void fig_svc_lease_round(fig_service_t *s)
{
    fig_db_batch_t *b = calloc(1, sizeof *b);
    fig_db_lease_t *l = calloc(1, sizeof *l);
    fig_db_code_t *codes = calloc((size_t)s->ntables + 1, sizeof *codes);
    bool *lost = calloc((size_t)s->ntables + 1, sizeof *lost);
    if (!b || !l || !codes || !lost) {
        free(b);
        free(l);
        free(codes);
        free(lost);
        fig_logf(s->log, s->log_ctx, "", "leases: out of memory: tried again later");
        s->next_round = fig_svc_now(s) + 1000;
        return;
    }
    for (int i = 0; i < s->ntables; i++)
        snprintf(codes[i], sizeof codes[i], "%s", fig_table_code(s->tabs[i]->t));
    l->codes = codes;
    l->ncodes = s->ntables;
    l->lost = lost;
    l->take_max = room(s) > 0 ? room(s) : 0;
    b->kind = FIG_DBB_LEASE;
    b->lease = l;
    s->next_round = -1;
    fig_writer_submit(s->writer, b);
}

/* A table this server took (a lease round's or a claim's) starts here,
 * unless the server holds --max-tables tables meanwhile (it created some):
 * then its lease runs out unrenewed and another server takes it. */
static void take_over(fig_service_t *s, const fig_db_taken_t *x, const char *why)
{
    fig_msg_t msg;
    if (fig_svc_find_tab(s, x->row.code))
        return;   /* ours already: its lease ran out, nobody else took it */
    if (s->ntables >= s->max_tables) {
        fig_logf(s->log, s->log_ctx, "", "table %s: not taken over: the server holds as many "
                 "tables as it may", x->row.code);
        return;
    }
    if (load_one(s, &x->row, x->last, &msg) != FIG_OK) {
        fig_logf(s->log, s->log_ctx, "", "table %s: cannot take it over: %s", x->row.code,
                 msg.text);
        return;
    }
    s->takeovers++;
    fig_logf(s->log, s->log_ctx, "", "table %s: taken over (%s)", x->row.code, why);
}

/* A claim is back (park): the requests that waited for it run at the
 * table if it was taken, else they are told where it is (moved), that
 * there is none, that this server is full (a full server's claim only
 * looks; another server with room takes the table within a lease round),
 * or to try again (the claim found its server gone but took nothing:
 * another server was quicker). */
static void claimed(fig_service_t *s, fig_db_batch_t *b)
{
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
        take_over(s, l->taken, "asked for here, its server is gone");
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
    free_lease_batch(b);
}

/* The round is back: tables lost are dropped, tables taken start here. */
void fig_svc_lease_round_done(fig_service_t *s, fig_db_batch_t *b)
{
    fig_db_lease_t *l = b->lease;
    if (l->claim[0]) {
        claimed(s, b);
        return;
    }
    if (b->rc)
        fig_logf(s->log, s->log_ctx, "", "leases: %s", b->msg.text);
    for (int i = 0; i < l->ncodes; i++) {
        tab_t *e = l->lost[i] ? fig_svc_find_tab(s, l->codes[i]) : NULL;
        if (!e)
            continue;
        s->leases_lost++;
        if (fig_table_busy(e->t))
            e->lost = true;   /* dropped when its write is back */
        else
            fig_svc_drop_table(s, e, "its lease ran out or another server took it");
    }
    for (fig_db_taken_t *x = l->taken; x; x = x->next)
        take_over(s, x, "its server is gone");
    free_lease_batch(b);
    s->next_round = fig_svc_now(s) + s->lease_ms / 3;
}

