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
#include "net/table.h"
#include "net/token.h"
#include "net/writer.h"

enum {
    MSG_BURST = 40,
    MSG_RATE = 20,               /* messages a second, after the burst */
    CHAT_BURST = 5,
    CHAT_EVERY_MS = 2000,
    NAME_CAP = 64
};

typedef struct conn {
    struct conn *next, *prev;
    struct conn *hnext, *hprev;  /* the connections yet to say hello, oldest first */
    bool in_hello_list;
    fig_conn_t *wc;
    char addr[NAME_CAP];
    bool hello, closing;
    const fig_tr_t *tr;
    char name[FIG_PROTO_NAME_BYTES + 1];   /* the hello's, clean; "" if none */
    long long opened;
    double tokens, chat_tokens;
    long long tokens_at, chat_at, rate_told;
    int waiting;                 /* its requests waiting in tables' queues */
    /* The tables it asked anything of (the codes; a table it sits at or
     * watches is one of them): its closing detaches it from these only. */
    fig_db_code_t *at;
    int nat, capat;
} conn_t;

/* A request held back while its table is busy. */
typedef struct wait {
    struct wait *next;
    conn_t *c;
    long long t0;                /* when its frame came in (us) */
    fig_proto_msg_t m;           /* a hello here is one seat to take back (held[0]) */
} wait_t;

/* Requests for a table this server does not drive, on a storage several
 * servers share, while the writer thread claims it (fig_db_claim): they run
 * if it is taken, else they are told where it is (moved), that there is
 * none, or that this server is full. A claim that may take the table holds
 * one of the server's --max-tables places until it is back (`claiming`);
 * a full server's claim only looks (fig_db_lease_t.look). */
typedef struct lookup {
    struct lookup *next;
    fig_db_code_t code;
    wait_t *head, *tail;
} lookup_t;

enum { LOOKUPS_MAX = 256 };   /* claims at once; beyond, busy */

/* A table and what the service keeps about it. */
typedef struct tab {
    fig_table_t *t;
    int at;                      /* its place in tabs[] */
    fig_heap_node_t due;         /* its next deadline, in the service's heap */
    bool dirty;                  /* touched since its deadline was last read */
    struct tab *next_dirty;
    bool lost;                   /* its lease is lost: dropped once its write is back */
    struct tab *next_code;       /* the code index's chain */
    wait_t *head, *tail;         /* requests waiting for it */
} tab_t;

/* A watched descriptor's table (the fd index). */
typedef struct fdent {
    struct fdent *next;
    int fd;
    fig_table_t *t;
} fdent_t;

/* POST /replay costs a parse and a whole replay on the loop thread: an
 * address may send REPLAY_BURST at once, then one every REPLAY_EVERY_MS. */
enum { REPLAY_ADDRS = 64, REPLAY_BURST = 10, REPLAY_EVERY_MS = 1000 };

/* An earlier game's record on its way from the writer thread to an HTTP
 * request (record_later). The batch comes first: the writer gives it back. */
typedef struct http_wait {
    fig_db_batch_t b;
    struct http_wait *next;
    fig_conn_t *conn;            /* NULL: the connection closed meanwhile */
    bool json;
    const fig_tr_t *tr;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    fig_db_game_t g;
} http_wait_t;

/* Records read at once at most: more is answered 503 (each holds a game). */
enum { HTTP_WAITS_MAX = 64 };

/* A review on its way to the people who asked for it (docs/protocol.md,
 * review): read from the storage with its game (the writer thread), else
 * computed on the pool (net/reviews.h), then told and stored. The batch
 * comes first: the writer gives it back; its `user` is the service. */
typedef struct review_wait {
    fig_db_batch_t b;
    struct review_wait *next;
    enum { RV_READING, RV_QUEUED, RV_COMPUTING, RV_STORING } state;
    char code[FIG_PROTO_CODE_LEN + 1];
    int game, seat;
    conn_t *to[FIG_PROTO_HELD_MAX];   /* who waits for it (NULL: gone) */
    fig_db_game_t g;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    char *text;                       /* read: the stored review or NULL; storing: it */
    fig_game_t *record;               /* queued: the game to review */
    fig_review_job_t *job;            /* computing */
} review_wait_t;

/* Reviews being read, waiting, computed or stored at once: more is refused
 * (busy). A review keeps a worker of the pool busy for seconds (a search
 * per move): at most half the workers compute reviews (at least one), so
 * the bots of every table always have the others. */
enum { REVIEWS_MAX = 16 };

struct fig_service {
    fig_wire_ops_t wire;
    fig_writer_t *writer;        /* the storage: every read and write, on its thread */
    http_wait_t *waits;
    int nwaits;
    fig_reviews_t *reviews;
    review_wait_t *rwaits;         /* newest first */
    int nrwaits, computing;
    fig_pool_t *pool;
    fig_catalog_t *cat[FIG_LANG_MAX];   /* fig_lang_code(i)'s; [0], English, NULL */
    fig_table_env_t env;
    fig_table_stats_t stats;
    tab_t **tabs;                /* every table, in no order */
    int ntables, cap;
    tab_t **by_code;             /* hash index: nbuckets chains */
    fdent_t **by_fd;
    int nbuckets;
    conn_t *conns;
    int nconns;
    conn_t *hello_head, *hello_tail;   /* the connections yet to say hello, oldest first */
    /* Deadlines: every table's next one in a heap. A table the loop touched
     * is marked dirty; its deadline is read again before the next one is
     * asked for (fig_service_next_deadline) or run (fig_service_tick). */
    fig_heap_t due;
    tab_t *dirty;
    int nengines;
    char (*engine_names)[FIG_PROTO_ENGINE_NAME_MAX + 1];
    char **engine_specs;
    int grace_ms, max_tables, max_per_addr, hello_ms;
    long long keep_finished_ms, keep_idle_ms;
    unsigned long long deleted;
    /* Leases, on a storage several servers share (db.h): a round (renew,
     * take) every lease_ms / 3 on the writer thread. */
    bool shared;
    char node[FIG_DB_NODE_MAX + 1];
    int lease_ms;
    lookup_t *lookups;
    int nlookups;
    int claiming;                /* claims on their way that may take a table */
    long long next_round;        /* service clock; the round is in flight: -1 */
    unsigned long long takeovers, leases_lost, fenced;
    struct {                     /* POST /replay's token buckets, by client address; */
        char addr[64];           /* the one unused longest is taken for a new address */
        double tokens;
        long long at;
    } replayers[REPLAY_ADDRS];
    long long (*clock)(void *);
    void *clock_ctx;
    void (*log)(void *, const char *);
    void *log_ctx;
};

static void review_drop(fig_service_t *s, review_wait_t *r);

/* ---- the environment tables use */

static long long svc_now(void *v)
{
    fig_service_t *s = v;
    return s->clock ? s->clock(s->clock_ctx) : fig_clock_ms();
}

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

static void send_error(fig_service_t *s, conn_t *c, fig_proto_code_t code, const char *text,
                       const char *re, const char *table);

static void svc_fail(void *v, void *peer, fig_proto_code_t code, const char *text, const char *re,
                     const char *table)
{
    send_error(v, peer, code, text, re, table);
}

static void svc_submit(void *v, fig_db_batch_t *b)
{
    fig_service_t *s = v;
    fig_writer_submit(s->writer, b);
}

static unsigned fd_bucket(const fig_service_t *s, int fd)
{
    return (unsigned)fd & (unsigned)(s->nbuckets - 1);
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
    e->next = s->by_fd[fd_bucket(s, fd)];
    s->by_fd[fd_bucket(s, fd)] = e;
    s->wire.watch(s->wire.wire, fd);
}

static void svc_unwatch(void *v, int fd)
{
    fig_service_t *s = v;
    for (fdent_t **pp = &s->by_fd[fd_bucket(s, fd)]; *pp; pp = &(*pp)->next)
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

/* ---- the tables and their indexes */

static unsigned code_bucket(const fig_service_t *s, const char *code)
{
    uint32_t h = 2166136261u;   /* FNV-1a */
    for (const char *p = code; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    return h & (unsigned)(s->nbuckets - 1);
}

/* The table's deadline may change: read again before the next is asked for. */
static void touch(fig_service_t *s, tab_t *e)
{
    if (e->dirty)
        return;
    e->dirty = true;
    e->next_dirty = s->dirty;
    s->dirty = e;
}

/* The table of that code, or NULL. Whoever looks a table up is about to
 * act on it: its deadline is read again (touch). */
static tab_t *find_tab(fig_service_t *s, const char *code)
{
    for (tab_t *e = s->by_code[code_bucket(s, code)]; e; e = e->next_code)
        if (strcmp(fig_table_code(e->t), code) == 0) {
            touch(s, e);
            return e;
        }
    return NULL;
}

/* Remembers that c asked something of table `code` (conn_t.at). Out of
 * memory, c forgets nothing: its closing then looks at every table. */
static void conn_at(conn_t *c, const char *code)
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
    conn_at(w->c, fig_table_code(e->t));
    wait_push(&e->head, &e->tail, w);
}

static fig_table_t *find_table(fig_service_t *s, const char *code)
{
    tab_t *e = find_tab(s, code);
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
            const char *code = fig_table_code(e->t);
            uint32_t h = 2166136261u;
            for (const char *p = code; *p; p++)
                h = (h ^ (unsigned char)*p) * 16777619u;
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
static tab_t *room_for_table(fig_service_t *s)
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

static void insert_table(fig_service_t *s, tab_t *e, fig_table_t *t)
{
    e->t = t;
    e->at = s->ntables;
    unsigned b = code_bucket(s, fig_table_code(t));
    e->next_code = s->by_code[b];
    s->by_code[b] = e;
    s->tabs[s->ntables++] = e;
    fig_heap_node_init(&e->due);
    e->dirty = false;
    touch(s, e);
}

/* Takes the table out of the indexes and frees it (with what waits for
 * it). */
static void remove_table(fig_service_t *s, tab_t *e)
{
    for (tab_t **pp = &s->by_code[code_bucket(s, fig_table_code(e->t))]; *pp;
         pp = &(*pp)->next_code)
        if (*pp == e) {
            *pp = e->next_code;
            break;
        }
    s->tabs[e->at] = s->tabs[--s->ntables];
    s->tabs[e->at]->at = e->at;
    fig_heap_remove(&s->due, &e->due);
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
static void drop_table(fig_service_t *s, tab_t *e, const char *why)
{
    fig_logf(s->log, s->log_ctx, "", "table %s: dropped: %s", fig_table_code(e->t), why);
    for (conn_t *c = s->conns; c; c = c->next)
        if (!c->closing && fig_table_attached(e->t, c)) {
            c->closing = true;
            s->wire.close(s->wire.wire, c->wc);
        }
    remove_table(s, e);
}

static fig_err_t load_one(void *ctx, const fig_db_table_t *row, const fig_db_game_t *last,
                          fig_msg_t *msg)
{
    fig_service_t *s = ctx;
    fig_table_t *t;
    tab_t *e = room_for_table(s);
    if (!e)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    fig_err_t rc = fig_table_restore(&t, &s->env, row, last, msg);
    if (rc) {
        free(e);
        return rc;
    }
    insert_table(s, e, t);
    return FIG_OK;
}

/* ---- life */

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
    /* The operator's engines: names checked, each spec "cmd:" + its command. */
    if (opts->nengines > 0) {
        s->engine_names = calloc((size_t)opts->nengines, sizeof *s->engine_names);
        s->engine_specs = calloc((size_t)opts->nengines, sizeof *s->engine_specs);
        if (!s->engine_names || !s->engine_specs) {
            rc = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
            goto fail;
        }
        for (int i = 0; i < opts->nengines; i++) {
            const fig_engine_def_t *e = &opts->engines[i];
            size_t n = strlen(e->name);
            if (n == 0 || n > FIG_PROTO_ENGINE_NAME_MAX || !e->cmd[0]) {
                rc = fig_fail(msg, FIG_ERR_INPUT, N_("engine '%s': a name of 1 to 32 bytes and "
                                                     "a command, NAME=CMD"), e->name);
                goto fail;
            }
            s->engine_specs[i] = malloc(strlen(e->cmd) + 5);
            if (!s->engine_specs[i]) {
                rc = fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
                goto fail;
            }
            sprintf(s->engine_specs[i], "cmd:%s", e->cmd);
            memcpy(s->engine_names[i], e->name, n + 1);
            s->nengines = i + 1;
        }
    }
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
    s->env.svc = s;
    s->env.send = svc_send;
    s->env.fail = svc_fail;
    s->env.submit = svc_submit;
    s->env.watch = svc_watch;
    s->env.unwatch = svc_unwatch;
    s->env.engine = svc_engine;
    s->env.log = svc_log;
    s->env.now = svc_now;
    s->env.pool = s->pool;
    s->env.grace_ms = s->grace_ms;
    s->env.max_bot_ms = opts->max_bot_ms > 0 ? opts->max_bot_ms : 0;
    s->env.stats = &s->stats;
    s->wire.watch(s->wire.wire, fig_writer_fd(s->writer));
    if ((rc = fig_reviews_new(&s->reviews, s->pool, opts->review_spec, msg))) {
        fig_db_close(db);
        goto fail;
    }
    s->wire.watch(s->wire.wire, fig_reviews_fd(s->reviews));
    rc = fig_db_load(db, s->max_tables, load_one, s, msg);
    s->shared = fig_db_shared(db);
    s->next_round = svc_now(s) + s->lease_ms / 3;
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
            if (b->lease)
                free_lease_batch(b);
            /* not a record's read nor a review's: those are in waits and rwaits */
            else if (b->user != s && (b->user || !b->read.out))
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
        remove_table(s, s->tabs[s->ntables - 1]);
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
        review_drop(s, s->rwaits);
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

/* ---- connections */

void *fig_service_open(fig_service_t *s, fig_conn_t *wc, const char *addr)
{
    int same = 0;
    for (conn_t *c = s->conns; c; c = c->next)
        same += strcmp(c->addr, addr ? addr : "") == 0;
    if (same >= s->max_per_addr) {
        fig_logf(s->log, s->log_ctx, "",
                 "connection from %s refused: %d already", addr ? addr : "?", same);
        return NULL;
    }
    conn_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->wc = wc;
    snprintf(c->addr, sizeof c->addr, "%s", addr ? addr : "");
    long long now = svc_now(s);
    c->opened = c->tokens_at = c->chat_at = now;
    c->rate_told = now - 1000000;
    c->tokens = MSG_BURST;
    c->chat_tokens = CHAT_BURST;
    c->next = s->conns;
    if (s->conns)
        s->conns->prev = c;
    s->conns = c;
    s->nconns++;
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

static void hello_unlink(fig_service_t *s, conn_t *c)
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
    hello_unlink(s, c);
    if (c->nat < 0) {   /* it lost count (out of memory): every table */
        for (int i = 0; i < s->ntables; i++) {
            touch(s, s->tabs[i]);
            leave_table(c, s->tabs[i]);
        }
    }
    for (int i = 0; i < c->nat; i++) {
        tab_t *e = find_tab(s, c->at[i]);
        if (e)
            leave_table(c, e);
    }
    free(c->at);
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
    fig_logf(s->log, s->log_ctx, "", "connection from %s closed", c->addr);
    free(c);
}

static void send_json(fig_service_t *s, conn_t *c, json_t *j)
{
    size_t len;
    char *text = fig_proto_dump(j, &len);
    json_decref(j);
    if (!text)
        return;
    s->wire.send(s->wire.wire, c->wc, text, len);
    s->stats.frames++;
    free(text);
}

/* An error to this connection only. `re`: the message type it answers, or
 * NULL; table: the table it was about, or NULL. */
static void send_error(fig_service_t *s, conn_t *c, fig_proto_code_t code, const char *text,
                       const char *re, const char *table)
{
    send_json(s, c, fig_proto_error(code, text, re, table));
}

/* Token buckets: false when the connection must wait. */
static bool take_token(double *tokens, long long *at, long long now, double burst,
                       double per_ms)
{
    if (now > *at) {
        *tokens += (double)(now - *at) * per_ms;
        if (*tokens > burst)
            *tokens = burst;
        *at = now;
    }
    if (*tokens < 1.0)
        return false;
    *tokens -= 1.0;
    return true;
}

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
    send_error(s, c, code, text, re, table);
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
        send_error(s, c, FIG_PC_VERSION, text, "hello", NULL);
        return;
    }
    c->hello = true;
    hello_unlink(s, c);
    c->tr = tr;
    snprintf(c->name, sizeof c->name, "%s", m->name);
    const char **engines = calloc((size_t)s->nengines + 1, sizeof *engines);
    int nengines = engines ? s->nengines : 0;   /* out of memory: none listed */
    for (int i = 0; i < nengines; i++)
        engines[i] = s->engine_names[i];
    send_json(s, c, fig_proto_welcome(s->env.epoch, m->lang, "figaro " FIG_VERSION, engines,
                                      nengines));
    free(engines);
    for (int i = 0; i < m->nheld; i++) {
        const fig_proto_held_t *h = &m->held[i];
        if (h->bad) {   /* this seat alone: the others are taken back */
            send_error(s, c, h->bad, h->bad_text, "hello", h->table[0] ? h->table : NULL);
            continue;
        }
        tab_t *e = find_tab(s, h->table);
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
                send_error(s, c, FIG_PC_STORAGE, fig_tr_text(tr, "out of memory"), "hello",
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
        conn_at(c, h->table);
        fig_proto_code_t code = fig_table_resume(e->t, c, tr, h->token, &since, &msg);
        if (code)
            send_error(s, c, code, msg.text, "hello", h->table);
    }
}

static void do_create(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m)
{
    if (room(s) <= 0) {
        send_error(s, c, FIG_PC_TABLES_FULL,
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
            send_error(s, c, FIG_PC_UNKNOWN_ENGINE, text, "create", NULL);
            return;
        }
    }
    fig_msg_t msg;
    if (fig_random_u64(&row.seed, &msg)) {
        send_error(s, c, FIG_PC_STORAGE, msg.text, "create", NULL);
        return;
    }
    do {
        if (fig_code_new(row.code, FIG_PROTO_CODE_LEN, &msg)) {
            send_error(s, c, FIG_PC_STORAGE, msg.text, "create", NULL);
            return;
        }
    } while (find_table(s, row.code));
    row.created = (long long)time(NULL);
    fig_table_t *t = NULL;
    tab_t *e = room_for_table(s);
    if (!e || fig_table_create(&t, &s->env, &row, c, c->tr, &msg)) {
        free(e);
        fig_logf(s->log, s->log_ctx, "",
                 "a table could not be created: %s", e ? msg.text : "out of memory");
        send_error(s, c, FIG_PC_STORAGE,
                   fig_tr_text(c->tr, "the server could not store that; nothing was done"),
                   "create", NULL);
        return;
    }
    insert_table(s, e, t);
    conn_at(c, row.code);
    /* `created` goes to c once the table is stored (fig_table_written). */
}

/* ---- reviews (docs/protocol.md, review) */

static void review_fail(fig_service_t *s, review_wait_t *r, const char *why);

static void review_drop(fig_service_t *s, review_wait_t *r)
{
    review_wait_t **p = &s->rwaits;
    while (*p != r)
        p = &(*p)->next;
    *p = r->next;
    s->nrwaits--;
    free(r->text);
    free(r->record);
    free(r);
}

static bool review_wanted(const review_wait_t *r)
{
    for (int i = 0; i < FIG_PROTO_HELD_MAX; i++)
        if (r->to[i])
            return true;
    return false;
}

/* Starts the oldest queued reviews while workers may take them; drops the
 * ones nobody waits for any more. */
static void reviews_pump(fig_service_t *s)
{
    int most = fig_pool_threads(s->pool) / 2;
    if (most < 1)
        most = 1;
    for (;;) {
        review_wait_t *oldest = NULL;
        for (review_wait_t *r = s->rwaits; r; r = r->next)
            if (r->state == RV_QUEUED)
                oldest = r;
        if (!oldest)
            return;
        if (!review_wanted(oldest)) {
            review_drop(s, oldest);
            continue;
        }
        if (s->computing >= most)
            return;
        if (!(oldest->job = fig_reviews_start(s->reviews, oldest->record, oldest->seat,
                                              oldest))) {
            review_fail(s, oldest, "out of memory");
            review_drop(s, oldest);
            continue;
        }
        fig_logf(s->log, s->log_ctx, "", "table %s: reviewing seat %d of game %d",
                 oldest->code, oldest->seat, oldest->game);
        free(oldest->record);
        oldest->record = NULL;
        oldest->state = RV_COMPUTING;
        s->computing++;
    }
}

/* The review to everyone waiting for it, each in their language. */
static void review_tell(fig_service_t *s, review_wait_t *r, const fig_review_t *rv)
{
    tab_t *e = find_tab(s, r->code);
    for (int i = 0; i < FIG_PROTO_HELD_MAX && e; i++) {
        if (!r->to[i] || r->to[i]->closing)
            continue;
        fig_narrator_t nr;
        fig_table_narrator(e->t, r->seat, r->to[i]->tr, &nr);
        send_json(s, r->to[i], fig_proto_review(r->code, r->game, rv, &nr));
    }
}

static void review_fail(fig_service_t *s, review_wait_t *r, const char *why)
{
    fig_logf(s->log, s->log_ctx, "", "table %s: no review of seat %d in game %d: %s", r->code,
             r->seat, r->game, why);
    for (int i = 0; i < FIG_PROTO_HELD_MAX; i++)
        if (r->to[i] && !r->to[i]->closing)
            send_error(s, r->to[i], FIG_PC_STORAGE,
                       fig_tr_text(r->to[i]->tr, "the server could not make that review: "
                                                 "try again later"), "review", r->code);
}

static fig_proto_code_t do_review(fig_service_t *s, conn_t *c, fig_table_t *t,
                                  const fig_proto_msg_t *m, fig_msg_t *msg)
{
    int seat;
    fig_proto_code_t code = fig_table_review_seat(t, c, c->tr, m->game, m->seat, &seat, msg);
    if (code)
        return code;
    const char *tcode = fig_table_code(t);
    for (review_wait_t *r = s->rwaits; r; r = r->next) {
        if (strcmp(r->code, tcode) || r->game != m->game || r->seat != seat)
            continue;
        /* On its way already: one more to tell (twice asked is one answer). */
        int free_at = -1;
        for (int i = 0; i < FIG_PROTO_HELD_MAX; i++) {
            if (r->to[i] == c)
                return FIG_PC_NONE;
            if (!r->to[i] && free_at < 0)
                free_at = i;
        }
        if (free_at < 0 || r->state == RV_STORING)
            break;   /* told already (being stored), or many askers: a read of its own */
        r->to[free_at] = c;
        return FIG_PC_NONE;
    }
    for (review_wait_t *r = s->rwaits; r; r = r->next)
        for (int i = 0; i < FIG_PROTO_HELD_MAX; i++)
            if (r->to[i] == c) {   /* another review of it is on its way: one at a time */
                snprintf(msg->text, sizeof msg->text, "%s",
                         fig_tr_text(c->tr, "your other review is on its way: ask again when "
                                            "it came"));
                return FIG_PC_BUSY;
            }
    review_wait_t *r = NULL;
    fig_game_t *names = NULL;
    bool stored;
    if (s->nrwaits >= REVIEWS_MAX || !(r = calloc(1, sizeof *r)) ||
        !(names = malloc(sizeof *names)) ||
        fig_table_record(t, m->game, names, &stored, msg) != FIG_OK) {
        free(r);
        free(names);
        snprintf(msg->text, sizeof msg->text, "%s",
                 fig_tr_text(c->tr, "the server is busy reviewing other games: try again in a "
                                    "minute"));
        return FIG_PC_BUSY;
    }
    memcpy(r->names, names->names, sizeof r->names);
    free(names);
    snprintf(r->code, sizeof r->code, "%s", tcode);
    r->game = m->game;
    r->seat = seat;
    r->to[0] = c;
    r->state = RV_READING;
    r->b.user = s;
    r->b.read.out = &r->g;
    snprintf(r->b.read.code, sizeof r->b.read.code, "%s", tcode);
    r->b.read.game = m->game;
    r->b.read.seat = seat;
    r->b.read.review = &r->text;
    r->next = s->rwaits;
    s->rwaits = r;
    s->nrwaits++;
    fig_writer_submit(s->writer, &r->b);
    return FIG_PC_NONE;
}

/* A review's batch came back from the writer: the read (tell the stored
 * review, or compute it) or the write (done). */
static void review_back(fig_service_t *s, review_wait_t *r)
{
    if (r->state == RV_STORING) {
        /* Fenced: its table is another server's now, which reviews it again
         * if asked. */
        s->fenced += r->b.fenced;
        if (r->b.rc) {
            s->stats.storage_errors += !r->b.fenced;
            fig_logf(s->log, s->log_ctx, "", "table %s: review not stored: %s", r->code,
                     r->b.msg.text);
        }
        review_drop(s, r);
        return;
    }
    fig_game_t *g = malloc(sizeof *g);
    fig_review_t *rv = malloc(sizeof *rv);
    fig_msg_t msg = r->b.msg;
    fig_err_t rc = !g || !rv ? fig_fail(&msg, FIG_ERR_SPACE, "out of memory") : r->b.rc ? r->b.rc
                   : fig_table_record_stored(&r->g, r->game, r->names, g, &msg);
    if (!rc && r->text) {
        if (fig_review_from_text(r->text, g, r->seat, rv, &msg) == FIG_OK) {
            review_tell(s, r, rv);   /* computed once: the stored one */
            review_drop(s, r);
            free(g);
            free(rv);
            return;
        }
        fig_logf(s->log, s->log_ctx, "", "table %s: game %d: %s: reviewed again", r->code,
                 r->game, msg.text);
        free(r->text);
        r->text = NULL;
    }
    free(rv);
    if (rc) {
        free(g);
        review_fail(s, r, msg.text);
        review_drop(s, r);
        return;
    }
    r->record = g;
    r->state = RV_QUEUED;
    reviews_pump(s);
}

/* Reviews computed on the pool: told, then stored. */
static void reviews_ready(fig_service_t *s)
{
    fig_review_job_t *j = fig_reviews_done(s->reviews);
    while (j) {
        fig_review_job_t *next = fig_review_job_next(j);
        review_wait_t *r = fig_review_job_user(j);
        const fig_review_t *rv;
        const fig_msg_t *why;
        fig_err_t rc = fig_review_job_result(j, &rv, &why);
        char *text = rc == FIG_OK ? fig_review_text(rv) : NULL;
        if (rc == FIG_OK)
            review_tell(s, r, rv);
        else if (rc != FIG_ERR_STATE)
            review_fail(s, r, why->text);
        else   /* stopped (fig_service_closed): nobody waits then */
            fig_logf(s->log, s->log_ctx, "", "table %s: the review of seat %d in game %d "
                     "stopped: nobody waits for it", r->code, r->seat, r->game);
        fig_reviews_job_free(j);
        s->computing--;
        if (text) {
            r->state = RV_STORING;   /* told: whoever asks from now on reads it back */
            memset(r->to, 0, sizeof r->to);
            r->job = NULL;
            r->text = text;
            memset(&r->b, 0, sizeof r->b);
            r->b.user = s;
            r->b.n = 1;
            r->b.w[0].kind = FIG_DBW_REVIEW;
            snprintf(r->b.w[0].code, sizeof r->b.w[0].code, "%s", r->code);
            r->b.w[0].game = r->game;
            r->b.w[0].seat = r->seat;
            r->b.w[0].text = text;
            fig_writer_submit(s->writer, &r->b);
        } else {
            review_drop(s, r);
        }
        j = next;
    }
    reviews_pump(s);
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
    long long now = svc_now(s);
    if (t)
        conn_at(c, fig_table_code(t));
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
        send_json(s, c, fig_proto_pong());
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
        code = do_review(s, c, t, m, &msg);
        break;
    case FIG_PROTO_CHAT:
        if (!take_token(&c->chat_tokens, &c->chat_at, now, CHAT_BURST, 1.0 / CHAT_EVERY_MS)) {
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
        send_error(s, c, code, msg.text, re, t ? fig_table_code(t) : NULL);
}

/* Runs what waits for the table while it is free. */
static void run_waiting(fig_service_t *s, tab_t *e)
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
    long long t0 = fig_clock_us(), now = svc_now(s);
    if (!c || c->closing)
        return;
    if (!take_token(&c->tokens, &c->tokens_at, now, MSG_BURST, MSG_RATE / 1000.0)) {
        if (now - c->rate_told >= 1000) {   /* one word a second, not one per frame */
            c->rate_told = now;
            send_error(s, c, FIG_PC_RATE,
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
        send_error(s, c, code, msg.text, m->typed ? fig_proto_type_name(m->type) : NULL,
                   m->typed && m->table[0] ? m->table : NULL);
        free(w);
        return;
    }
    const char *re = fig_proto_type_name(m->type);
    if (!c->hello && m->type != FIG_PROTO_HELLO) {
        send_error(s, c, FIG_PC_HELLO_FIRST, fig_tr_text(c->tr, "say hello first"), re, NULL);
        free(w);
        return;
    }
    tab_t *e = NULL;
    if (m->type != FIG_PROTO_HELLO && m->type != FIG_PROTO_CREATE && m->type != FIG_PROTO_PING &&
        !(e = find_tab(s, m->table))) {
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
        send_error(s, c, FIG_PC_STORAGE, msg.text, re, m->table);
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

static void record_read(fig_service_t *s, http_wait_t *h);

/* A lease round: every table's lease renewed, then tables whose server is
 * gone taken, on the writer thread (fig_db_lease_round). */
static void lease_round(fig_service_t *s)
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
        s->next_round = svc_now(s) + 1000;
        return;
    }
    for (int i = 0; i < s->ntables; i++)
        snprintf(codes[i], sizeof codes[i], "%s", fig_table_code(s->tabs[i]->t));
    l->codes = codes;
    l->ncodes = s->ntables;
    l->lost = lost;
    l->take_max = room(s) > 0 ? room(s) : 0;
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
    if (find_tab(s, x->row.code))
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
    tab_t *e = find_tab(s, l->claim);
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
            send_json(s, w->c, fig_proto_moved(msg.text, re, l->claim, l->owner));
        } else if (!w->c->closing) {
            unparked(s, w->c, code, re, l->claim);
        }
        free(w);
    }
    if (e)
        run_waiting(s, e);
    free(k);
    free_lease_batch(b);
}

/* The round is back: tables lost are dropped, tables taken start here. */
static void lease_round_done(fig_service_t *s, fig_db_batch_t *b)
{
    fig_db_lease_t *l = b->lease;
    if (l->claim[0]) {
        claimed(s, b);
        return;
    }
    if (b->rc)
        fig_logf(s->log, s->log_ctx, "", "leases: %s", b->msg.text);
    for (int i = 0; i < l->ncodes; i++) {
        tab_t *e = l->lost[i] ? find_tab(s, l->codes[i]) : NULL;
        if (!e)
            continue;
        s->leases_lost++;
        if (fig_table_busy(e->t))
            e->lost = true;   /* dropped when its write is back */
        else
            drop_table(s, e, "its lease ran out or another server took it");
    }
    for (fig_db_taken_t *x = l->taken; x; x = x->next)
        take_over(s, x, "its server is gone");
    free_lease_batch(b);
    s->next_round = svc_now(s) + s->lease_ms / 3;
}

/* The writer gave writes back: each goes to its table (or was a deletion),
 * then what waited for those tables runs. */
static void written(fig_service_t *s)
{
    fig_db_batch_t *b = fig_writer_done(s->writer);
    while (b) {
        fig_db_batch_t *next = b->next;
        fig_table_t *t = b->user;
        if (b->lease) {
            lease_round_done(s, b);
            b = next;
            continue;
        }
        if (b->user == s) {   /* a review's read or write */
            review_back(s, (review_wait_t *)b);
            b = next;
            continue;
        }
        if (!t && b->read.out) {   /* a record's read (record_later) */
            record_read(s, (http_wait_t *)b);
            b = next;
            continue;
        }
        if (!t) {   /* a deletion */
            s->fenced += b->fenced;
            if (b->rc) {
                s->stats.storage_errors++;
                fig_logf(s->log, s->log_ctx, "",
                         "table %s: not deleted from the database: %s", b->w[0].code,
                         b->msg.text);
            }
            free(b);
            b = next;
            continue;
        }
        tab_t *e = find_tab(s, fig_table_code(t));   /* a busy table is never deleted */
        bool fenced = b->fenced;
        s->fenced += fenced;
        fig_table_written(t, b);
        if (e && e->t == t) {
            if (fenced || (e->lost && !fig_table_busy(t))) {
                s->leases_lost += fenced && !e->lost;
                drop_table(s, e, "another server drives it now (its lease is lost)");
            } else {
                run_waiting(s, e);
                if (fig_table_dead(t))
                    remove_table(s, e);
            }
        }
        b = next;
    }
}

void fig_service_sync(fig_service_t *s)
{
    while (fig_writer_pending(s->writer) > 0) {
        fig_writer_wait(s->writer, -1);
        written(s);
    }
}

int fig_service_pending(const fig_service_t *s) { return fig_writer_pending(s->writer); }

void fig_service_fd_ready(fig_service_t *s, int fd)
{
    if (fd == fig_writer_fd(s->writer)) {
        written(s);
        return;
    }
    if (fd == fig_reviews_fd(s->reviews)) {
        reviews_ready(s);
        return;
    }
    for (fdent_t *e = s->by_fd[fd_bucket(s, fd)]; e; e = e->next)
        if (e->fd == fd) {
            find_tab(s, fig_table_code(e->t));   /* its deadline may move */
            fig_table_ready(e->t);
            return;
        }
}

/* When the table is to be deleted (nobody there for long enough), or -1. */
static long long delete_at(const fig_service_t *s, const tab_t *e)
{
    long long idle = fig_table_idle_since(e->t);
    if (idle < 0 || e->head)
        return -1;
    return idle + (fig_table_over(e->t) ? s->keep_finished_ms : s->keep_idle_ms);
}

/* Reads again the deadline of every table touched since the last time. */
static void refresh(fig_service_t *s)
{
    while (s->dirty) {
        tab_t *e = s->dirty;
        s->dirty = e->next_dirty;
        e->dirty = false;
        long long d = fig_table_deadline(e->t), x = delete_at(s, e);
        if (x >= 0 && (d < 0 || x < d))
            d = x;
        fig_heap_set(&s->due, &e->due, d);
    }
}

/* The oldest connection yet to say hello (those that did, or are closing,
 * leave the list here). */
static conn_t *hello_next(fig_service_t *s)
{
    while (s->hello_head && (s->hello_head->hello || s->hello_head->closing))
        hello_unlink(s, s->hello_head);
    return s->hello_head;
}

long long fig_service_next_deadline(fig_service_t *s)
{
    refresh(s);
    fig_heap_node_t *top = fig_heap_top(&s->due);
    long long d = top ? top->key : -1;
    conn_t *c = hello_next(s);
    if (c) {
        long long x = c->opened + s->hello_ms;
        if (d < 0 || x < d)
            d = x;
    }
    if (s->shared && s->next_round >= 0 && (d < 0 || s->next_round < d))
        d = s->next_round;
    return d;
}

/* Removes the table from memory now and from the database through the
 * writer (its records go with it). */
static void delete_table(fig_service_t *s, tab_t *e, long long now)
{
    bool over = fig_table_over(e->t);
    long long idle = fig_table_idle_since(e->t);
    fig_db_batch_t *b = calloc(1, sizeof *b);
    if (b) {
        b->n = 1;
        b->w[0].kind = FIG_DBW_DELETE;
        snprintf(b->w[0].code, sizeof b->w[0].code, "%s", fig_table_code(e->t));
    }
    fig_logf(s->log, s->log_ctx, "",
             "table %s deleted: %s, nobody there for %lld s", fig_table_code(e->t),
             over ? "its game is over" : "not finished", (now - idle) / 1000);
    remove_table(s, e);
    s->deleted++;
    if (b)
        fig_writer_submit(s->writer, b);
}

void fig_service_tick(fig_service_t *s, long long now)
{
    if (s->shared && s->next_round >= 0 && now >= s->next_round)
        lease_round(s);
    refresh(s);
    /* The tables due, taken out of the heap first: each runs once. */
    tab_t *due = NULL;
    for (fig_heap_node_t *x; (x = fig_heap_top(&s->due)) && x->key <= now;) {
        tab_t *e = (tab_t *)((char *)x - offsetof(tab_t, due));
        fig_heap_remove(&s->due, x);
        e->next_dirty = due;
        due = e;
    }
    while (due) {
        tab_t *e = due;
        due = e->next_dirty;
        e->dirty = false;
        long long at = delete_at(s, e);
        if (at >= 0 && now >= at) {
            delete_table(s, e, now);
            continue;
        }
        fig_table_tick(e->t, now);
        touch(s, e);
    }
    for (conn_t *c; (c = hello_next(s)) && now >= c->opened + s->hello_ms;) {
        c->closing = true;
        hello_unlink(s, c);
        fig_logf(s->log, s->log_ctx, "", "connection from %s said no hello: closed", c->addr);
        s->wire.close(s->wire.wire, c->wc);
    }
}

/* ---- HTTP */

typedef struct {
    char *buf;
    size_t len, cap;
    bool failed;
} text_t;

static void put(text_t *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(text_t *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = t->failed ? 0 : vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (t->failed || k < 0)
            return;
        if (t->len + (size_t)k < t->cap) {
            t->len += (size_t)k;
            return;
        }
        size_t ncap = 2 * (t->cap + (size_t)k);
        char *nb = realloc(t->buf, ncap);
        if (!nb) {
            t->failed = true;
            return;
        }
        t->buf = nb;
        t->cap = ncap;
    }
}

static void answer(fig_http_answer_t *out, int status, const char *type, char *body)
{
    out->status = status;
    out->type = type;
    out->body = body;
    out->len = body ? strlen(body) : 0;
}

static char *dup_text(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

static void metrics(fig_service_t *s, fig_http_answer_t *out)
{
    text_t t = { malloc(1024), 0, 1024, false };
    if (!t.buf) {
        answer(out, 503, "text/plain; charset=utf-8", NULL);
        return;
    }
    int thinking = 0;
    for (int i = 0; i < s->ntables; i++)
        thinking += fig_table_thinking(s->tabs[i]->t);
    const fig_table_stats_t *st = &s->stats;
    put(&t, "# HELP figaro_tables Tables the server holds.\n# TYPE figaro_tables gauge\n"
            "figaro_tables %d\n", s->ntables);
    put(&t, "# HELP figaro_leases_held Tables this server holds a lease on (a database "
            "several servers share; 0 on SQLite).\n# TYPE figaro_leases_held gauge\n"
            "figaro_leases_held %d\n", s->shared ? s->ntables : 0);
    put(&t, "# HELP figaro_takeovers_total Tables taken over from a server that was gone.\n"
            "# TYPE figaro_takeovers_total counter\nfigaro_takeovers_total %llu\n", s->takeovers);
    put(&t, "# HELP figaro_leases_lost_total Tables dropped: their lease ran out or another "
            "server took them.\n# TYPE figaro_leases_lost_total counter\n"
            "figaro_leases_lost_total %llu\n", s->leases_lost);
    put(&t, "# HELP figaro_fenced_writes_total Writes refused: their table's lease was "
            "another server's.\n# TYPE figaro_fenced_writes_total counter\n"
            "figaro_fenced_writes_total %llu\n", s->fenced);
    put(&t, "# HELP figaro_connections Open WebSocket connections.\n"
            "# TYPE figaro_connections gauge\nfigaro_connections %d\n", s->nconns);
    put(&t, "# HELP figaro_actions_total Actions applied, by people and bots "
            "(rate() gives actions/s).\n# TYPE figaro_actions_total counter\n"
            "figaro_actions_total %llu\n", st->actions);
    put(&t, "# HELP figaro_events_total Table events told.\n# TYPE figaro_events_total counter\n"
            "figaro_events_total %llu\n", st->events);
    put(&t, "# HELP figaro_frames_total Frames sent to connections.\n"
            "# TYPE figaro_frames_total counter\nfigaro_frames_total %llu\n", st->frames);
    put(&t, "# HELP figaro_storage_errors_total Writes the database refused.\n"
            "# TYPE figaro_storage_errors_total counter\nfigaro_storage_errors_total %llu\n",
        st->storage_errors);
    put(&t, "# HELP figaro_storage_record_reads Earlier games' records being read for a "
            "download now (by the writer thread).\n# TYPE figaro_storage_record_reads gauge\n"
            "figaro_storage_record_reads %d\n", s->nwaits);
    fig_writer_stats_t ws;
    fig_writer_stats(s->writer, &ws);
    put(&t, "# HELP figaro_storage_commits_total Transactions the writer committed (each "
            "one sync to the disk).\n# TYPE figaro_storage_commits_total counter\n"
            "figaro_storage_commits_total %llu\n", ws.commits);
    put(&t, "# HELP figaro_storage_writes_total Requests' writes committed in them (group "
            "commit: several a transaction).\n# TYPE figaro_storage_writes_total counter\n"
            "figaro_storage_writes_total %llu\n", ws.batches);
    put(&t, "# HELP figaro_storage_commit_ms_total Time the writer spent in transactions "
            "(writing and syncing), ms.\n# TYPE figaro_storage_commit_ms_total counter\n"
            "figaro_storage_commit_ms_total %.1f\n", ws.commit_ms);
    put(&t, "# HELP figaro_storage_queue Writes on their way to the disk.\n"
            "# TYPE figaro_storage_queue gauge\nfigaro_storage_queue %d\n",
        fig_writer_pending(s->writer));
    put(&t, "# HELP figaro_tables_deleted_total Tables deleted after nobody was there for "
            "long.\n# TYPE figaro_tables_deleted_total counter\n"
            "figaro_tables_deleted_total %llu\n", s->deleted);
    put(&t, "# HELP figaro_bot_queue Bots asked to think and not answered yet.\n"
            "# TYPE figaro_bot_queue gauge\nfigaro_bot_queue %d\n", thinking);
    put(&t, "# HELP figaro_bot_threads Worker threads the bots think on.\n"
            "# TYPE figaro_bot_threads gauge\nfigaro_bot_threads %d\n", fig_pool_threads(s->pool));
    put(&t, "# HELP figaro_move_latency_ms From a person's action to the broadcast of its "
            "result.\n# TYPE figaro_move_latency_ms histogram\n");
    unsigned long long cum = 0;
    for (int b = 0; b < FIG_TABLE_LATENCY_BUCKETS; b++) {
        cum += st->latency[b];
        if (b < FIG_TABLE_LATENCY_BUCKETS - 1)
            put(&t, "figaro_move_latency_ms_bucket{le=\"%g\"} %llu\n", fig_table_latency_le[b],
                cum);
        else
            put(&t, "figaro_move_latency_ms_bucket{le=\"+Inf\"} %llu\n", cum);
    }
    put(&t, "figaro_move_latency_ms_sum %.3f\nfigaro_move_latency_ms_count %llu\n",
        st->latency_sum_ms, st->latency_count);
    if (t.failed) {
        free(t.buf);
        answer(out, 503, "text/plain; charset=utf-8", NULL);
        return;
    }
    answer(out, 200, "text/plain; version=0.0.4; charset=utf-8", t.buf);
}

/* /tables/CODE/games/N.fgn or N.json: the code, the game number and
 * whether the replay (json) is asked for, or false. */
static bool record_path(const char *path, char code[], int *game, bool *json)
{
    static const char head[] = "/tables/", mid[] = "/games/";
    if (strncmp(path, head, sizeof head - 1) != 0)
        return false;
    const char *p = path + sizeof head - 1;
    for (int i = 0; i < FIG_PROTO_CODE_LEN; i++) {
        if (!((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= '0' && p[i] <= '9')))
            return false;
        code[i] = p[i];
    }
    code[FIG_PROTO_CODE_LEN] = '\0';
    p += FIG_PROTO_CODE_LEN;
    if (strncmp(p, mid, sizeof mid - 1) != 0)
        return false;
    p += sizeof mid - 1;
    long n = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 9) {
        n = n * 10 + (*p++ - '0');
        digits++;
    }
    *json = strcmp(p, ".json") == 0;
    if (digits == 0 || (strcmp(p, ".fgn") != 0 && !*json) || n < 1)
        return false;
    *game = (int)n;
    return true;
}

/* The catalogue of a query's "lang=xx" (the first one), or NULL: English. */
static const fig_tr_t *query_tr(const fig_service_t *s, const char *query)
{
    for (const char *q = query; q && *q; q += strcspn(q, "&"), q += *q == '&') {
        if (strncmp(q, "lang=", 5) != 0)
            continue;
        size_t n = strcspn(q + 5, "&");
        for (int i = 1; i < fig_lang_count(); i++)
            if (strlen(fig_lang_code(i)) == n && strncmp(q + 5, fig_lang_code(i), n) == 0 &&
                s->cat[i])
                return fig_catalog_tr(s->cat[i]);
        return NULL;
    }
    return NULL;
}

/* The replay of g as the answer (200), or why not. */
static void replay_answer(fig_http_answer_t *out, const fig_game_t *g, const fig_tr_t *tr)
{
    char *text;
    size_t len;
    fig_msg_t msg;
    fig_err_t rc = fig_replay_json(g, tr, &text, &len, &msg);
    if (rc != FIG_OK) {
        char line[sizeof msg.text + 2];
        snprintf(line, sizeof line, "%s\n", msg.text);
        answer(out, rc == FIG_ERR_INPUT ? 400 : 503, "text/plain; charset=utf-8",
               dup_text(line));
        return;
    }
    answer(out, 200, "application/json", text);
}

/* The answer for record g (.json: its replay in tr's language; else its
 * FGN), or the error that kept it: rc, msg. */
static void record_answer(fig_http_answer_t *out, fig_err_t rc, const fig_msg_t *msg,
                          const fig_game_t *g, bool json, const fig_tr_t *tr)
{
    const char *plain = "text/plain; charset=utf-8";
    if (rc) {
        char text[sizeof msg->text + 2];
        snprintf(text, sizeof text, "%s\n", msg->text);
        answer(out, rc == FIG_ERR_STATE ? 409 : rc == FIG_ERR_INPUT ? 404 : 503, plain,
               dup_text(text));
        return;
    }
    if (json) {
        replay_answer(out, g, tr);
        return;
    }
    size_t n = fig_fgn_write(g, NULL, 0);
    char *body = malloc(n + 1);
    if (body)
        fig_fgn_write(g, body, n + 1);
    answer(out, body ? 200 : 503, body ? "text/plain; charset=utf-8" : plain, body);
}

/* An earlier game's record: read by the writer thread (the loop never
 * reads the storage), answered when the read comes back (record_read). */
static void record_later(fig_service_t *s, fig_conn_t *conn, const char *code, int game,
                         const fig_game_t *names, bool json, const fig_tr_t *tr,
                         fig_http_answer_t *out)
{
    http_wait_t *h = NULL;
    if (s->nwaits < HTTP_WAITS_MAX && (h = calloc(1, sizeof *h))) {
        h->b.read.out = &h->g;
        snprintf(h->b.read.code, sizeof h->b.read.code, "%s", code);
        h->b.read.game = game;
        h->conn = conn;
        h->json = json;
        h->tr = tr;
        memcpy(h->names, names->names, sizeof h->names);
        h->next = s->waits;
        s->waits = h;
        s->nwaits++;
        fig_writer_submit(s->writer, &h->b);
        out->status = 0;   /* later: wire.answer */
        return;
    }
    answer(out, 503, "text/plain; charset=utf-8",
           dup_text(h ? "out of memory\n" : "too many records on their way: try again\n"));
}

/* The read of record_later came back: the answer goes to its connection,
 * unless it closed meanwhile. */
static void record_read(fig_service_t *s, http_wait_t *h)
{
    http_wait_t **p = &s->waits;
    while (*p != h)
        p = &(*p)->next;
    *p = h->next;
    s->nwaits--;
    if (h->conn) {
        fig_http_answer_t a;
        fig_game_t *g = malloc(sizeof *g);
        fig_msg_t msg = h->b.msg;
        fig_err_t rc = !g ? fig_fail(&msg, FIG_ERR_SPACE, "out of memory") : h->b.rc ? h->b.rc
                       : fig_table_record_stored(&h->g, h->b.read.game, h->names, g, &msg);
        record_answer(&a, rc, &msg, g, h->json, h->tr);
        free(g);
        s->wire.answer(s->wire.wire, h->conn, &a);
    }
    free(h);
}

void fig_service_http_gone(fig_service_t *s, fig_conn_t *conn)
{
    for (http_wait_t *h = s->waits; h; h = h->next)
        if (h->conn == conn)
            h->conn = NULL;
}

void fig_service_http(fig_service_t *s, fig_conn_t *conn, const char *path,
                      fig_http_answer_t *out)
{
    const char *plain = "text/plain; charset=utf-8";
    if (strcmp(path, "/healthz") == 0) {
        answer(out, 200, plain, dup_text("ok\n"));
        return;
    }
    if (strcmp(path, "/metrics") == 0) {
        metrics(s, out);
        return;
    }
    char where[600];
    size_t plen = strcspn(path, "?");
    if (plen >= sizeof where) {
        answer(out, 404, plain, dup_text("not found\n"));
        return;
    }
    memcpy(where, path, plen);
    where[plen] = '\0';
    const char *query = path[plen] ? path + plen + 1 : "";
    char code[FIG_PROTO_CODE_LEN + 1];
    int game;
    bool json, stored;
    fig_table_t *t;
    if (!record_path(where, code, &game, &json) || !(t = find_table(s, code))) {
        answer(out, 404, plain, dup_text("not found\n"));
        return;
    }
    fig_game_t *g = malloc(sizeof *g);
    fig_msg_t msg;
    fig_err_t rc = g ? fig_table_record(t, game, g, &stored, &msg)
                     : fig_fail(&msg, FIG_ERR_SPACE, "out of memory");
    if (!rc && stored)
        record_later(s, conn, code, game, g, json, query_tr(s, query), out);
    else
        record_answer(out, rc, &msg, g, json, query_tr(s, query));
    free(g);
}

/* Whether addr may replay a record now (a token of its bucket). */
static bool replay_allowed(fig_service_t *s, const char *addr)
{
    long long now = svc_now(s);
    int i, oldest = 0;
    for (i = 0; i < REPLAY_ADDRS; i++) {
        if (strcmp(s->replayers[i].addr, addr) == 0)
            break;
        if (s->replayers[i].at < s->replayers[oldest].at)
            oldest = i;
    }
    if (i == REPLAY_ADDRS) {   /* a new address takes the longest unused bucket */
        i = oldest;
        snprintf(s->replayers[i].addr, sizeof s->replayers[i].addr, "%s", addr);
        s->replayers[i].tokens = REPLAY_BURST;
        s->replayers[i].at = now;
    }
    return take_token(&s->replayers[i].tokens, &s->replayers[i].at, now, REPLAY_BURST,
                      1.0 / REPLAY_EVERY_MS);
}

void fig_service_http_post(fig_service_t *s, const char *addr, const char *path,
                           const char *body, size_t len, fig_http_answer_t *out)
{
    const char *plain = "text/plain; charset=utf-8";
    size_t plen = strcspn(path, "?");
    if (plen != 7 || strncmp(path, "/replay", 7) != 0) {
        answer(out, 404, plain, dup_text("not found\n"));
        return;
    }
    if (!replay_allowed(s, addr ? addr : "")) {
        answer(out, 429, plain, dup_text("too many records from your address: wait a second\n"));
        return;
    }
    if (len > FIG_REPLAY_FGN_MAX) {
        char text[80];
        snprintf(text, sizeof text, "a record is at most %d bytes\n", FIG_REPLAY_FGN_MAX);
        answer(out, 413, plain, dup_text(text));
        return;
    }
    /* Never stored: the record is read, played again and forgotten. */
    fig_game_t *g = malloc(sizeof *g);
    if (!g) {
        answer(out, 503, plain, dup_text("out of memory\n"));
        return;
    }
    fig_msg_t msg;
    if (fig_fgn_read(g, body ? body : "", len, &msg) != FIG_OK) {
        char text[sizeof msg.text + 32];
        if (msg.line > 0)
            snprintf(text, sizeof text, "line %d: %s\n", msg.line, msg.text);
        else
            snprintf(text, sizeof text, "%s\n", msg.text);
        answer(out, 400, plain, dup_text(text));
        free(g);
        return;
    }
    replay_answer(out, g, query_tr(s, path[plen] ? path + plen + 1 : ""));
    free(g);
}
