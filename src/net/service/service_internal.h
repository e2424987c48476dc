/* SPDX-License-Identifier: MIT */
/* service_internal.h - what the files of the service share (service.c,
 * service_http.c, service_reviews.c): its state, the connections' and the
 * tables' entries, the requests that wait, and the few functions one file
 * offers the others. Only the service's own files include it: the rest of
 * the server sees service.h. */
#ifndef FIGARO_NET_SERVICE_INTERNAL_H
#define FIGARO_NET_SERVICE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

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
    /* The connections by signed-in person (service_person_conns.c) and
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

/* ---- shared between the service's files */

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

/* ---- the tables (registry.c) */

/* The hash of a text the service's indexes share (FNV-1a): a table's code,
 * a person's id. */
uint32_t fig_svc_text_hash(const char *text);

/* The table's entry of that code, or NULL; marked dirty (its deadline is
 * read again). */
tab_t *fig_svc_find_tab(fig_service_t *s, const char *code);
fig_table_t *fig_svc_find_table(fig_service_t *s, const char *code);

/* The table's deadline may have changed: read again before the next one
 * is asked for or run. */
void fig_svc_touch(fig_service_t *s, tab_t *e);

/* Room for one more table: its entry (NULL: out of memory). Then
 * fig_svc_insert_table cannot fail. */
tab_t *fig_svc_room_for_table(fig_service_t *s);
void fig_svc_insert_table(fig_service_t *s, tab_t *e, fig_table_t *t);

/* Takes the table out of the indexes and the heap and frees it, with the
 * requests that wait for it. */
void fig_svc_remove_table(fig_service_t *s, tab_t *e);

/* When the table is to be deleted (nobody there for long enough), or -1. */
long long fig_svc_delete_at(const fig_service_t *s, const tab_t *e);

/* Reads again the deadline of every table touched since the last time. */
void fig_svc_refresh(fig_service_t *s);

/* ---- connections (service_conns.c) */

/* Remembers that c asked something of table `code` (conn_t.at); out of
 * memory, c forgets nothing: its closing then looks at every table. */
void fig_svc_conn_at(conn_t *c, const char *code);

/* Takes c off the list of those yet to say hello. */
void fig_svc_hello_unlink(fig_service_t *s, conn_t *c);

/* The oldest connection yet to say hello, or NULL (those that did, or are
 * closing, leave the list here). */
conn_t *fig_svc_hello_next(fig_service_t *s);

/* ---- the indexes of connections (service_conn_index.c) */

/* c into ix, by its text (ix->which's); cannot fail. */
void fig_svc_cx_add(conn_index_t *ix, conn_t *c);
/* c, which is in ix, out of it (before its text changes). */
void fig_svc_cx_remove(conn_index_t *ix, conn_t *c);
/* The first connection in ix whose text is `text`, and the next after c
 * with c's in the index `which` (CX_...), or NULL (take the next before
 * removing c). */
conn_t *fig_svc_cx_first(conn_index_t *ix, const char *text);
conn_t *fig_svc_cx_next(int which, const conn_t *c);
void fig_svc_cx_free(conn_index_t *ix);

/* ---- the signed-in connections by person (service_person_conns.c) */

/* c is signed in as p with the key whose hash is key_hash (signed off
 * first if someone was); cannot fail. */
void fig_svc_sign_in(fig_service_t *s, conn_t *c, const fig_db_person_t *p, const char *key_hash);
/* Nobody is signed in on c any more (nothing if nobody was). */
void fig_svc_sign_off(fig_service_t *s, conn_t *c);
/* Person id's first signed-in connection, and the next after c, or NULL:
 *   for (conn_t *o = fig_svc_person_first(s, id), *nx; o; o = nx) {
 *       nx = fig_svc_person_next(o);   (before o is signed off)
 *       ... } */
conn_t *fig_svc_person_first(fig_service_t *s, const char *id);
conn_t *fig_svc_person_next(const conn_t *c);

/* ---- the tables by person (registry.c) */

/* The table environment's seat_person (table.h). */
void fig_svc_seat_person(void *svc, fig_table_t *t, const char *was, const char *now);
/* Table t comes into the registry (in) or leaves it: its seats' persons
 * are read. */
void fig_svc_person_seats_table(fig_service_t *s, fig_table_t *t, bool in);
/* Person id is forgotten at the tables whose seats hold them
 * (fig_table_forget_person), those only. */
void fig_svc_person_seats_forget(fig_service_t *s, const char *id);
void fig_svc_person_seats_free(fig_service_t *s);

/* ---- sending (service_send.c) */

/* Sends c the frame j (and frees j); an error frame in c's language. */
void fig_svc_send_json(fig_service_t *s, conn_t *c, json_t *j);
void fig_svc_send_error(fig_service_t *s, conn_t *c, fig_proto_code_t code, const char *text,
                        const char *re, const char *table);

/* An earlier game's record is back from the storage (service_http.c). */
void fig_svc_record_read(fig_service_t *s, http_wait_t *h);

/* ---- replays as HTTP answers (service_replay.c) */

/* The catalogue of language code `lang` (a query's, http_path.h), or NULL:
 * English, for "", that language or one the server does not have. */
const fig_tr_t *fig_svc_lang_tr(const fig_service_t *s, const char *lang);
/* out: a text/plain answer (text copied). */
void fig_svc_http_text(fig_http_answer_t *out, int status, const char *text);
/* out: the replay of g in tr's language (200), or why not: bad_status when
 * g does not replay, 503 when memory runs out. */
void fig_svc_replay_answer(fig_http_answer_t *out, const fig_game_t *g, const fig_tr_t *tr,
                           int bad_status);
/* out: the replay of a kept record's FGN text, the same bytes POST /replay
 * gives for that text; 500 if it does not read or replay (the server's). */
void fig_svc_kept_replay(fig_http_answer_t *out, const char *fgn, const fig_tr_t *tr);

/* ---- the tables' lifecycle (service.c) */

/* The table's lease is lost: dropped from memory, its people's and
 * spectators' connections closed (they come back to its new server). */
void fig_svc_drop_table(fig_service_t *s, tab_t *e, const char *why);

/* A table taken from the storage (a lease round's or a claim's, x) starts
 * here, unless the server is full; why: for the log. */
void fig_svc_take_over(fig_service_t *s, const fig_db_taken_t *x, const char *why);

/* The command line of the engine called name (v: the service); NULL: none. */
const char *fig_svc_engine(void *v, const char *name);

/* The tables this server may still take or create. */
int fig_svc_room(const fig_service_t *s);

/* Frees a lease round's or claim's batch and all it holds. */
void fig_svc_free_lease_batch(fig_db_batch_t *b);

/* ---- messages, the queues, claims (service_message.c) */

/* Runs what waits for the table while it is free. */
void fig_svc_run_waiting(fig_service_t *s, tab_t *e);

/* A claim (a lease batch with its claim set) is back: the requests that
 * waited for it run or are answered. */
void fig_svc_claimed(fig_service_t *s, fig_db_batch_t *b);

/* ---- the lobby (service_lobby.c; docs/protocol.md, lobby) */

/* Starts the lobby with nothing listed and nobody following it. */
void fig_svc_lobby_init(fig_service_t *s);

/* The table may have changed: its entry in the lobby is put again (read
 * when its deadline is: fig_svc_refresh). gone: the table goes. */
void fig_svc_lobby_touch(fig_service_t *s, tab_t *e, bool gone);

/* A `lobby` message of c: it follows the lobby (m->on) or stops. */
void fig_svc_lobby_message(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m);

/* ---- leases (service_leases.c) */

/* A lease round: every table's lease renewed, then tables whose server is
 * gone taken, on the writer thread. */
void fig_svc_lease_round(fig_service_t *s);

/* A lease round or a claim is back. */
void fig_svc_lease_round_done(fig_service_t *s, fig_db_batch_t *b);

/* ---- reviews (service_reviews.c; docs/protocol.md, review) */

/* c asks for the review of game m->game of table t: read, computed or
 * queued; FIG_PC_NONE, or the error (msg). */
fig_proto_code_t fig_svc_review(fig_service_t *s, conn_t *c, fig_table_t *t,
                                const fig_proto_msg_t *m, fig_msg_t *msg);

/* A review's read or write is back from the writer thread. */
void fig_svc_review_back(fig_service_t *s, review_wait_t *r);

/* The pool's descriptor for reviews is readable: computed reviews are in. */
void fig_svc_reviews_ready(fig_service_t *s);

/* Forgets the review (its job cancelled if it runs). */
void fig_svc_review_drop(fig_service_t *s, review_wait_t *r);

/* ---- people (service_people.c; docs/protocol.md, "People") */

typedef struct people_job people_job_t;

/* After hello's welcome: its key (if any) is looked up; `person` or
 * bad_key follows. */
void fig_svc_people_hello(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m);
/* person_new, device_code, redeem, person_set, sign_out, forget_me. */
void fig_svc_people_message(fig_service_t *s, conn_t *c, const fig_proto_msg_t *m);
/* resume: the seat c's person holds at t. */
fig_proto_code_t fig_svc_resume(fig_service_t *s, conn_t *c, fig_table_t *t,
                                const fig_proto_msg_t *m, fig_msg_t *msg);
/* A people job is back from the writer thread. */
void fig_svc_people_back(fig_service_t *s, fig_db_batch_t *b);

/* ---- the people forgotten (service_forgotten.c) */

/* Person id is forgotten (stored): their seats at the tables in memory are
 * renamed (stored and told by each table) and their connections signed
 * off, each told `forgotten`. Harmless when done again. */
void fig_svc_forgotten(fig_service_t *s, const char *id);
/* A round: the log's rows after forgot_seq read on the writer thread. */
void fig_svc_forgotten_round(fig_service_t *s);
/* The round is back: each person in it forgotten here; the next round set. */
void fig_svc_forgotten_back(fig_service_t *s, fig_db_batch_t *b);
/* GET of a people's route (FIG_HTTP_PERSON, _PERSON_GAME, _LEADERBOARD):
 * out set, or its status 0: answered later. */
void fig_svc_people_http(fig_service_t *s, fig_conn_t *conn, const fig_http_path_t *p,
                         fig_http_answer_t *out);
void fig_svc_people_closed(fig_service_t *s, conn_t *c);
void fig_svc_people_http_gone(fig_service_t *s, fig_conn_t *conn);
void fig_svc_people_free(fig_service_t *s);
/* The table environment's person_of and rated (table.h). */
const char *fig_svc_person_of(void *svc, void *peer);
void fig_svc_rated(void *svc, const char *table, int game, const fig_db_result_t *r);

#endif
