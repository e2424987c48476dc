/* SPDX-License-Identifier: MIT */
/* service_state.h - the state of the service (struct fig_service) and the
 * entries it keeps: a connection, a table, the requests that wait for one,
 * the records and reviews on their way from the storage; and the small
 * helpers every file of the service uses (its clock, a token bucket, the
 * descriptors' index, a frame to one connection). What a file offers the
 * others is in that file's own header (registry.h, service_conns.h,
 * service_leases.h, ...), each of which includes this one. Only the
 * service's own files include these: the rest of the server sees service.h. */
#ifndef FIGARO_NET_SERVICE_STATE_H
#define FIGARO_NET_SERVICE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "figaro/figaro.h"
#include "host/catalog.h"
#include "host/util.h"
#include "host/lang.h"
#include "host/pool.h"
#include "net/store/db.h"
#include "net/base/heap.h"
#include "net/service/http_path.h"
#include "net/service/lobby.h"
#include "net/base/limiter.h"
#include "net/proto/proto.h"
#include "net/service/reviews.h"
#include "net/service/service_types.h"
#include "net/table/table.h"
#include "net/store/writer.h"

typedef struct fig_service fig_service_t;   /* service.h's */
typedef struct pseat pseat_t;                 /* registry.c's */

enum {
    MSG_BURST = 40,
    MSG_RATE = 20,               /* messages a second, after the burst */
    CHAT_BURST = 5,
    CHAT_EVERY_MS = 2000,
    NAME_CAP = 64
};

/* The indexes of connections by a text of theirs (service_conn_index.c):
 * which text, and a connection's place in one index's chain. */
enum { CX_PERSON, CX_ADDR, CX_N };
typedef struct {
    struct conn *next, *prev;
} conn_link_t;
typedef struct {
    struct conn **b;             /* nb chains, a power of two */
    struct conn *one;            /* the one chain left when memory runs out */
    int nb, n;                   /* buckets; connections indexed */
    int which;                   /* CX_PERSON: by conn_t.person; CX_ADDR: by .addr */
} conn_index_t;

typedef struct conn {
    struct conn *next, *prev;
    struct conn *hnext, *hprev;  /* the connections yet to say hello, oldest first */
    bool in_hello_list;
    fig_conn_t *wc;
    char addr[NAME_CAP];
    bool hello, closing;
    const fig_tr_t *tr;
    char name[FIG_PERSON_NAME_BYTES + 1];   /* the hello's, clean; "" if none */
    long long opened;
    double tokens, chat_tokens;
    long long tokens_at, chat_at, rate_told;
    int waiting;                 /* its requests waiting in tables' queues */
    /* The tables it asked anything of (the codes; a table it sits at or
     * watches is one of them): its closing detaches it from these only. */
    fig_db_code_t *at;
    int nat, capat;
    fig_lobby_sub_t lobby;       /* its subscription to the lobby (service_lobby.c) */
    /* The person signed in here (service_people.c): their public id, name
     * and the hash of this connection's key; "" when nobody is. */
    char person[FIG_PERSON_ID_LEN + 1];
    char pname[FIG_PERSON_NAME_BYTES + 1];
    char key_hash[FIG_HASH_HEX + 1];
    /* Its chains in the service's indexes of connections
     * (service_conn_index.c): [CX_PERSON] while someone is signed in here
     * (NULL, NULL when nobody is), [CX_ADDR] from its opening. */
    conn_link_t link[CX_N];
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
    fig_lobby_ent_t *lob;        /* its entry in the lobby; NULL: not there */
} tab_t;

/* A watched descriptor's table (the fd index). */
typedef struct fdent {
    struct fdent *next;
    int fd;
    fig_table_t *t;
} fdent_t;

/* POST /replay costs a parse and a whole replay on the loop thread: an
 * address may send REPLAY_BURST at once, then one every REPLAY_EVERY_MS.
 * A GET of a replay (a table's game's or a person's kept game's .json)
 * costs the replay (and a read of the storage, for most): VIEW_BURST at
 * once, then one every VIEW_EVERY_MS, in buckets of their own, so that a
 * person browsing their games (a click, a look) never meets the limit and
 * neither kind of request spends the other's allowance. */
enum { REPLAY_ADDRS = 64, REPLAY_BURST = 10, REPLAY_EVERY_MS = 1000 };
enum { VIEW_BURST = 30, VIEW_EVERY_MS = 1000 };

/* A token bucket of one client address (the one unused longest is taken
 * for a new address). */
typedef struct {
    char addr[64];
    double tokens;
    long long at;
} addr_bucket_t;

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
 * computed on the pool (net/service/reviews.h), then told and stored. The batch
 * comes first: the writer gives it back; its `user` is the service. */
typedef struct review_wait {
    fig_db_batch_t b;
    struct review_wait *next;
    enum { RV_READING, RV_QUEUED, RV_COMPUTING, RV_STORING } state;
    char code[FIG_TABLE_CODE_LEN + 1];
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
    fig_lobby_t lobby;           /* the listed tables that wait for people (service_lobby.c) */
    int nengines;
    char (*engine_names)[FIG_ENGINE_NAME_MAX + 1];
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
    addr_bucket_t replayers[REPLAY_ADDRS];   /* POST /replay's, by client address */
    addr_bucket_t viewers[REPLAY_ADDRS];     /* GET .json's (fig_http_path_replays) */
    long long (*clock)(void *);
    void *clock_ctx;
    long long (*wall)(void *);   /* Unix seconds (the options'); NULL: time() */
    void (*log)(void *, const char *);
    void *log_ctx;
    /* People (service_people.c): their storage calls on their way, and the
     * limits on what creates a person or makes or tries a device code. */
    struct people_job *pjobs;
    int npjobs;
    fig_limiter_t *limits;
    /* The connections by signed-in person (service_conn_index.c) and
     * by client address (service_conns.c: the cap per address). */
    conn_index_t by_person, by_addr;
    /* The tables by the persons their seats hold (registry.c):
     * nsbuckets chains of (person, table) entries; seats_lost: memory ran
     * out once, a forget walks every table. */
    pseat_t **by_seated;
    int nsbuckets, nseated;
    bool seats_lost;
    /* The people forgotten elsewhere (service_forgotten.c): the log's last
     * number seen, the next round (service clock; -1: in flight, or never
     * when forgot_ms is 0), the rounds' period. */
    long long forgot_seq, forgot_next;
    int forgot_ms;
};

/* ---- what every file of the service uses */

/* The service's clock (ms): the options' (tests), else the monotonic one. */
static inline long long fig_svc_now(void *svc)
{
    fig_service_t *s = svc;
    return s->clock ? s->clock(s->clock_ctx) : fig_clock_ms();
}

/* A token bucket (burst at most, per_ms tokens a ms): takes a token if
 * there is one; false when the connection must wait. */
static inline bool fig_svc_take_token(double *tokens, long long *at, long long now, double burst,
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

/* The descriptors' index: the chain of fd. */
static inline unsigned fig_svc_fd_bucket(const fig_service_t *s, int fd)
{
    return (unsigned)fd & (unsigned)(s->nbuckets - 1);
}

/* Sends c the frame j (and frees j): a frame the service itself built (the
 * tables' go through the table environment's send). */
static inline void fig_svc_send_json(fig_service_t *s, conn_t *c, json_t *j)
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
static inline void fig_svc_send_error(fig_service_t *s, conn_t *c, fig_proto_code_t code,
                                      const char *text, const char *re, const char *table)
{
    fig_svc_send_json(s, c, fig_proto_error(code, text, re, table));
}

#endif
