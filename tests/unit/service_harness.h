/* SPDX-License-Identifier: MIT */
/* service_harness.h - what the table service's tests (test_service_*.c)
 * share: a world (the service of src/net/service/service.h on a real SQLite file in
 * a mkdtemp folder, real bots on a real pool, a fake clock), the recording
 * wire it talks to, scripted clients, and the set-up those tests repeat.
 *
 * The recording wire stands where the libwebsockets wire (net/wire/wire.c) stands
 * in `figaro serve`: it keeps every frame the service sends to every
 * connection, watches the descriptors the service asks for (pump_world
 * poll()s them) and records closes. A client is a script that reads its
 * frames (cl_update keeps its seat, table, token, view and game number from
 * them) and answers.
 *
 * Every function here fails the running cmocka test (fail_msg, assert_*)
 * when the service does not answer as the helper says it must: a helper
 * that returns has checked what its comment promises. Connection k of a
 * world is (fig_conn_t *)(k + 1); HTTP requests have their own
 * (HTTP_CONN). */
#ifndef FIGARO_TESTS_SERVICE_HARNESS_H
#define FIGARO_TESTS_SERVICE_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "figaro/figaro.h"
#include "net/service/service.h"

/* What every test_service_* binary's main does first: SIGPIPE ignored (the
 * operator's engine is a child process a test may see die), and the tests
 * FIGARO_TEST_FILTER names, when it is set, as cmocka's filter. */
void service_tests_begin(void);

/* ---- the recording wire */

enum { MAXC = 256, MAXFD = 256 };

typedef struct {
    char **f;
    int n, cap;
    bool closed;
} rconn_t;

typedef struct {
    rconn_t c[MAXC];
    int nconn;
    int fds[MAXFD];
    int nfds;
    int report_fd;   /* > 0: every action event is written there as it is sent */
    /* HTTP answers that came later (w_answer), by request: HTTP_CONN + k */
    fig_http_answer_t later[4];
    int nlater[4];
} wire_t;

/* The wire's connections of HTTP requests: apart from the WebSocket ones. */
#define HTTP_CONN(k) ((fig_conn_t *)(intptr_t)(1000 + (k)))

/* ---- a world: a service, its wire, its folder, its fake clock */

typedef struct {
    wire_t wire;
    fig_service_t *svc;
    long long clock;
    bool fake_clock;
    char dir[64];
    char db[128];
    char localedir[4096];
    int grace_ms;
    bool quick;                     /* --sync normal, and pump_world ends its turns */
    long long keep_finished_ms, keep_idle_ms;
    int logs;
    const char *review_spec;        /* NULL: a small iteration budget (TEST_REVIEW_SPEC) */
    char last_log[400];
    long long wall;                 /* Unix seconds the service is told; 0: time() */
    const char *secrets[8];         /* people's keys, device codes: never in a log line */
    int nsecrets, secrets_logged;
    const char *http_addr;          /* whose GETs http() sends (the replays' limit) */
    /* How often the service reads the people forgotten elsewhere (its
     * forgotten_ms; `figaro serve` sets FIG_SVC_FORGOTTEN_MS). 0, the
     * default: never, so no round of it takes a deadline or a writer's turn
     * from the tests that count them; a forget by another handle
     * (forget_elsewhere) needs it. */
    int forgotten_ms;
} world_t;

/* A new folder and a service on it, with a grace period of grace_ms and the
 * fake clock at 1,000,000 ms; world_free stops it and removes the folder. */
world_t *world_new(int grace_ms);
void world_free(world_t *w);

/* Makes the service again on the world's file with the world's options (a
 * restart is stop_service then start_service); stop_service checks that
 * every descriptor it watched was given back. */
void start_service(world_t *w);
void stop_service(world_t *w);

/* Waits up to ms for a watched descriptor and lets the service step.
 * Returns how many were ready. */
int pump_world(world_t *w, int ms);

/* ---- scripted clients */

typedef struct {
    world_t *w;
    int id;
    void *cs;
    int read;                       /* frames taken in */
    char table[8];
    char epoch[20];
    char token[40];
    int seat;
    long long last_n, game_n;
    int game;
    json_t *view;                   /* the latest view (owned) */
    bool over;
    char record[64];
    int errors;
    char error[32];
    long long acted_at;             /* game_n of the last act sent */
    int starts, seat_news, chats;
    bool snapshot;                  /* the last update held a snapshot */
    bool gap;                       /* an event number was skipped */
} client_t;

/* A new connection of the world from addr; cl_close tells the service it
 * closed and drops the client's view. */
void cl_open(client_t *c, world_t *w, const char *addr);
void cl_close(client_t *c);

/* Sends one text frame, printf-style. */
void cl_send(client_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Takes in the frames that came since the last call, once every write
 * handed to the writer thread is back and told. */
void cl_update(client_t *c);

/* The frames connection c has got so far (a mark for "since"). */
int frames_of(const client_t *c);

/* A string field of o ("" when it is not one); an integer field (0). */
const char *str(const json_t *o, const char *k);
long long num(const json_t *o, const char *k);

/* Whether the client's view says it is its turn, with legal actions. */
bool my_turn(const client_t *c);

/* Acts once per game event with a random legal action of its view; false
 * when it did not act. */
bool cl_play(client_t *c, fig_rng_t *rng);

/* Plays until every client saw the end of the game, or `stop` says so. */
void play(world_t *w, client_t *cl[], int n, fig_rng_t *rng,
          bool (*stop)(client_t *cl[], int n, void *ctx), void *ctx);

/* A `play` stop: once cl[0] has seen ((int *)ctx)[0] actions of its game,
 * or at the turn of seat ((int *)ctx)[1] when that is >= 0. */
bool after_moves(client_t *cl[], int n, void *ctx);

/* ---- the set-up the tests repeat */

/* Seats of a `create` message, as string literals to put together:
 * create_table(c, SEAT_PERSON "," SEAT_BOT("easy"), NULL). */
#define SEAT_PERSON "{\"kind\":\"person\"}"
#define SEAT_BOT(level) "{\"kind\":\"bot\",\"level\":\"" level "\"}"

/* Says hello in lang under name; the welcome is checked. */
void hello(client_t *c, const char *lang, const char *name);

/* cl_open then hello: a person who has just come, as most tests begin. */
void cl_arrive(client_t *c, world_t *w, const char *addr, const char *lang, const char *name);

/* Comes back to a seat with its token on c: a hello naming that one seat,
 * `fields` put after "v":1 (e.g. ",\"lang\":\"fr\"", or ""), and the answer
 * taken in (a snapshot, or an error the caller checks). */
void hello_seat(client_t *c, const char *fields, const char *table, const char *token);

/* Signs c in as the person whose key it is (a hello with the key). */
void hello_key(client_t *c, const char *key);

/* One of the people of sit_people: their client, language and name. */
typedef struct {
    client_t *c;
    const char *lang, *name;
} person_t;

/* The table most tests play at: people[i] connects from 10.0.0.(i+1), all
 * say hello, people[0] creates a table of `seats` (`extra`: more fields of
 * the create message, or NULL) and each takes a seat under their name, in
 * the order given. */
void sit_people(world_t *w, const person_t people[], int n, const char *seats,
                const char *extra);

/* A new person named `name` on c: their key and public id. The key is
 * added to the world's secrets (never in a log line). */
void sign_up(client_t *c, const char *name, char key[33], char id[11]);

/* Creates a table (c->table is its code); joins it under name ("" is the
 * hello's name), c->seat and c->token then set. */
void create_table(client_t *c, const char *seats, const char *extra);
void join(client_t *c, const char *table, const char *name);

/* Watches a table and takes in what it is told (the snapshot). */
void spectate(client_t *c, const char *table);

/* Asks for game+1 at the table after game `game` (a vote: docs/protocol.md). */
void ask_rematch(client_t *c, const char *table, int game);

/* ---- frames */

/* The latest frame of type `type` the client got since frame `from`
 * (owned), or NULL. */
json_t *last_frame(const client_t *c, int from, const char *type);

/* Sends a message (printf-style) and returns the latest frame of `type` it
 * brought (owned): there must be one. */
json_t *ask_frame(client_t *c, const char *type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A device code of c's person (signed in), into code. */
void device_code(client_t *c, char code[9]);

/* Forgets c's person (forget_me): the `forgotten` answer must come. */
void forget_me(client_t *c);

/* The frame `k` of connection id, parsed (the caller frees it). */
json_t *frame_at(const world_t *w, int id, int k);

/* How many frames of type `type` connection `id` got from frame `from` on;
 * the last one parsed into *last when last is not NULL (the caller frees). */
int frames_typed(const world_t *w, int id, int from, const char *type, json_t **last);

/* Waits (pumping, up to 120 s) for a frame of `type` to connection `id`
 * after `from`: exactly one (owned). */
json_t *wait_frame(world_t *w, int id, int from, const char *type);

/* Pumps until it is c's turn (up to 30 s); it must come. */
void wait_turn(world_t *w, client_t *c);

/* Pumps until it is the turn of a or b, two people at one table (up to
 * 30 s); returns the one to move. */
client_t *wait_mover(world_t *w, client_t *a, client_t *b);

/* Whether connection id got seat news `news` since frame `from`. */
bool has_news(const world_t *w, int id, int from, const char *news);

/* Whether a frame connection `id` got since `from` holds text. */
bool frames_hold(const world_t *w, int id, int from, const char *text);

/* Whether frames `from`.. of connection `id` hold an error whose code is
 * `code`. */
bool error_since(const world_t *w, int id, int from, const char *code);

/* Sends `frame`; expects exactly one error frame with `code` to c and
 * nothing to anyone else. */
void expect_error(world_t *w, client_t *c, client_t *others[], int n, const char *code,
                  const char *frame);

/* ---- HTTP and the database */

/* GET path as the wire does it: an answer the service leaves for later (an
 * earlier game's record, read by the writer thread) is waited for. The
 * body is the caller's. */
char *http(world_t *w, const char *path, int *status);

/* The status of a GET of the path (printf-style), its body dropped. */
int http_status(world_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The JSON a GET of the path (printf-style) answers with 200 (owned). */
json_t *http_json(world_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads game `game` of a table over "HTTP" (only once over). */
void fetch_record(world_t *w, const char *table, int game, fig_game_t *g);

/* A 64-bit column of the database, read with SQLite itself. */
uint64_t db_u64(world_t *w, const char *sql);

/* Seat `seat` of table `code` as the file holds it, read with SQLite
 * itself: what a write of the service left there, whatever the table in
 * memory says. */
typedef struct {
    char name[64];
    bool person;                    /* a person's seat (seats.person set) */
    long long rematch;              /* the game its rematch vote is for; 0: none */
} stored_seat_t;
stored_seat_t stored_seat(world_t *w, const char *code, int seat);

/* Forgets person `id` through a handle of its own on the world's file, as
 * `figaro people remove` does from another process (net/store/db.h,
 * fig_db_person_forget, at the world's wall time): the service learns it
 * only from the log its rounds read (forgotten_ms). The person must be
 * there. */
void forget_elsewhere(world_t *w, const char *id);

#endif
