/* SPDX-License-Identifier: MIT */
/* service.h - the table server below the network: everything `figaro serve`
 * does but reading and writing sockets.
 *
 * The "wire" (libwebsockets, or a test's recording wire) owns the sockets and
 * one event loop thread, and drives the service from that thread only:
 *   - fig_service_open when a WebSocket connection is up: the service returns
 *     its state for that connection (or NULL: refused, close it);
 *   - fig_service_message for every whole text frame;
 *   - fig_service_closed when the connection is gone (after this, the
 *     service never names that connection again);
 *   - fig_service_fd_ready when a descriptor the service asked it to watch
 *     (fig_wire_ops_t.watch: a match's) is readable;
 *   - fig_service_tick at fig_service_next_deadline (grace periods, turn
 *     time limits, connections that never said hello);
 *   - fig_service_http for the plain HTTP paths it serves, and
 *     fig_service_http_gone when an HTTP connection whose answer is still to
 *     come closes.
 * The service answers through the wire's callbacks (fig_wire_ops_t): a text
 * frame to queue for a connection, a connection to close, a descriptor to
 * watch or forget, an HTTP answer that came later. None of them may call
 * back into the service.
 *
 * Nothing here blocks: the database's commits run on a writer thread, in
 * groups (net/store/writer.h), and an accepted action is acknowledged and told only
 * once it is committed (docs/protocol.md); the writer wakes the loop through
 * a watched descriptor. Bots think on a shared worker pool (host/pool.h).
 *
 * Tables nobody watches or sits at are deleted after a while
 * (keep_finished_ms, keep_idle_ms), from memory and from the database.
 *
 * Storage: opts.db is the storage's URL (net/store/db.h: an SQLite file or a
 * PostgreSQL database); fig_service_new loads
 * every table from it and replays its games, so a server killed at any
 * moment starts again with every table, seat, token and acknowledged action,
 * and its bots thinking again. */
#ifndef FIGARO_NET_SERVICE_H
#define FIGARO_NET_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/error.h"
#include "net/service/service_types.h"

typedef struct fig_service fig_service_t;

/* An engine the operator registered: `--engine NAME=CMD`. */
typedef struct {
    const char *name;     /* what a table's seat names */
    const char *cmd;      /* PROGRAM ARGS... (no shell) */
} fig_engine_def_t;

/* How often `figaro serve` reads the people forgotten elsewhere: the
 * longest a forgotten name stays at a running table of another server, but
 * for the round's own time. */
enum { FIG_SVC_FORGOTTEN_MS = 2000 };

typedef struct {
    const char *db;               /* the storage: sqlite:PATH or postgresql://... (db.h) */
    bool normal_sync;             /* SQLite: synchronous=NORMAL instead of FULL */
    const char *node;             /* this server's name among those sharing the database:
                                     its leases' owner (NULL: "local") */
    int lease_ms;                 /* a shared database: a table's lease; 0: FIG_DB_LEASE_S */
    int forgotten_ms;             /* how often the people forgotten elsewhere (another server,
                                     `figaro people remove`) are read from the storage's log
                                     and forgotten here too (FIG_SVC_FORGOTTEN_MS); 0: never
                                     (a service that alone writes its storage) */
    const char *localedir;        /* where LANG/LC_MESSAGES/figaro.mo are; NULL: English only */
    int grace_ms;                 /* a disconnected person's seat waits; 0: 30000 */
    int max_tables;               /* 0: 1000 */
    int bot_threads;              /* the pool's workers; 0: one per core */
    size_t bot_scratch;           /* search memory per worker; 0: the pool's default */
    int max_bot_ms;               /* caps every bot's time per move; 0: the levels' own */
    int max_conns_per_addr;       /* 0: 16 */
    int hello_ms;                 /* a connection must say hello within; 0: 10000 */
    long long keep_finished_ms;   /* a table whose game is over, with nobody there, is
                                     deleted after; 0: one hour */
    long long keep_idle_ms;       /* any other table with nobody there; 0: 24 hours */
    const fig_engine_def_t *engines;
    int nengines;
    const char *review_spec;      /* the reviews' search (host/review.h); NULL: the review's
                                     own (tests give a cheaper one) */
    /* The monotonic clock in ms (NULL: fig_clock_ms); tests pass a fake one. */
    long long (*clock)(void *ctx);
    void *clock_ctx;
    /* The time of day in Unix seconds, for what the people keep (when a
     * person was made, a game ended, a device code expires; NULL: time());
     * called with clock_ctx. Tests pass a fake one. */
    long long (*wall)(void *ctx);
    /* One line per significant event (NULL: none). */
    void (*log)(void *ctx, const char *line);
    void *log_ctx;
} fig_service_opts_t;

/* Opens the database, loads and replays every table, starts the pool.
 * FIG_ERR_INPUT / FIG_ERR_SPACE with the reason. */
fig_err_t fig_service_new(fig_service_t **out, const fig_service_opts_t *opts,
                          const fig_wire_ops_t *wire, fig_msg_t *msg);

/* Frees everything (the tables' matches, the pool: waits for the bots'
 * last jobs). The wire closes its connections itself. NULL is a no-op. */
void fig_service_free(fig_service_t *svc);

/* A new connection from peer_addr (an IP address, for the per-address cap).
 * Returns the connection's state, or NULL when it is refused (too many from
 * that address, out of memory): the wire then closes it. */
void *fig_service_open(fig_service_t *svc, fig_conn_t *conn, const char *peer_addr);

/* One whole text frame of a connection. */
void fig_service_message(fig_service_t *svc, void *cs, const char *text, size_t len);

/* The connection is gone; cs is freed. */
void fig_service_closed(fig_service_t *svc, void *cs);

/* A watched descriptor is readable. */
void fig_service_fd_ready(fig_service_t *svc, int fd);

/* The loop's turn is ending: it is about to wait. A loop that calls this
 * once a turn lets the service keep the turn's writes until then and, when
 * the storage commits without waiting for the disk and the writer thread is
 * idle, commit a small group itself and act on it here (net/store/writer.h:
 * fig_writer_flush), sparing two thread hand-offs an action; a loop that
 * never calls it gets every write committed by the writer thread. */
void fig_service_turn(fig_service_t *svc);

/* When fig_service_tick should run next (the clock's ms), or -1 for never. */
long long fig_service_next_deadline(fig_service_t *svc);

/* Runs what is due at now_ms. */
void fig_service_tick(fig_service_t *svc, long long now_ms);

/* Answers GET `path` (it may end in a query, "?lang=fr"; net/service/http_path.h
 * reads both) from the client at `addr`:
 *   /healthz                          200 "ok"
 *   /metrics                          Prometheus text: tables, connections,
 *                                     actions, bot queue, move latency
 *   /tables/CODE/games/N.fgn          the game's FGN record, only once over
 *                                     (409 before: it holds every hand)
 *   /tables/CODE/games/N.json         its replay (net/proto/replay_json.h), under the
 *                                     same rule; ?lang=xx: its sentences and
 *                                     unnamed seats in that language
 *   /api/people/ID[/games/I.fgn|.json], /api/leaderboard   (service_people.c)
 * anything else 404. A .json (a replay built on the loop) is limited per
 * addr, apart from POST /replay: 30 at once, then one a second; over it
 * 429 with Retry-After (out->retry_after).
 * An earlier game's record is read by the storage's thread, never the
 * loop's: then out->status is 0 and the answer comes later, through
 * wire.answer for conn, unless fig_service_http_gone(conn) came first. */
void fig_service_http(fig_service_t *svc, fig_conn_t *conn, const char *addr, const char *path,
                      fig_http_answer_t *out);

/* conn closed: an answer still to come for it is dropped. */
void fig_service_http_gone(fig_service_t *svc, fig_conn_t *conn);

/* Answers POST `path` with `body` (len bytes, not NUL-terminated) from the
 * client at `addr`:
 *   /replay[?lang=xx]   body: an FGN record (at most FIG_NET_RECORD_MAX
 *                       bytes, else 413); 200 and its replay as for
 *                       N.json, or 400 with the parser's message. The
 *                       record is never stored. 429 when addr sent more
 *                       than 10 at once, then more than one a second (Retry-After).
 * anything else 404. */
void fig_service_http_post(fig_service_t *svc, const char *addr, const char *path,
                           const char *body, size_t len, fig_http_answer_t *out);

/* Blocks until every write handed to the writer so far is committed and
 * acted on (acknowledged, told). For tests, which drive the service
 * step by step; the loop never calls it. */
void fig_service_sync(fig_service_t *svc);

/* Writes on their way to the disk. */
int fig_service_pending(const fig_service_t *svc);

/* The server's epoch: 16 hex digits that change at every start. */
const char *fig_service_epoch(const fig_service_t *svc);

#endif
