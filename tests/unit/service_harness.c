/* SPDX-License-Identifier: MIT */
/* service_harness.c - the world, the recording wire and the scripted
 * clients of the service's tests (service_harness.h says what each gives).
 *
 * The wire's callbacks fail the test that runs (cmocka) on what the
 * service must never do: a frame to a connection it never opened, a text
 * frame with a NUL inside, two answers to one HTTP request, a descriptor
 * watched twice or given back unwatched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "figaro/figaro.h"
#include "host/review.h"
#include "host/util.h"
#include "net/store/db.h"
#include "net/service/service.h"
#include "service_harness.h"

/* The reviews' search in these tests: an iteration budget (the same review
 * every time) small enough for a sanitized build. */
#define TEST_REVIEW_SPEC "ismcts:iters=150," FIG_REVIEW_OPTIONS

void service_tests_begin(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (getenv("FIGARO_TEST_FILTER"))
        cmocka_set_test_filter(getenv("FIGARO_TEST_FILTER"));
}

/* ---- the recording wire */

static void w_send(void *w, fig_conn_t *conn, const char *text, size_t len)
{
    wire_t *wire = w;
    intptr_t id = (intptr_t)conn - 1;
    assert_true(id >= 0 && id < wire->nconn);
    rconn_t *c = &wire->c[id];
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->f = realloc(c->f, (size_t)c->cap * sizeof *c->f);
        assert_non_null(c->f);
    }
    c->f[c->n] = malloc(len + 1);
    assert_non_null(c->f[c->n]);
    memcpy(c->f[c->n], text, len);
    c->f[c->n][len] = '\0';
    assert_int_equal(strlen(c->f[c->n]), len);   /* a text frame: no NUL inside */
    c->n++;
    if (wire->report_fd > 0 && strstr(text, "\"kind\":\"action\"")) {
        /* The moment a frame reaches the wire, it may be on the network. */
        json_t *o = json_loads(c->f[c->n - 1], 0, NULL);
        dprintf(wire->report_fd, "A %lld %lld %s\n",
                json_integer_value(json_object_get(o, "n")),
                json_integer_value(json_object_get(o, "seat")),
                json_string_value(json_object_get(o, "action")));
        json_decref(o);
    }
}

static void w_close(void *w, fig_conn_t *conn)
{
    wire_t *wire = w;
    wire->c[(intptr_t)conn - 1].closed = true;
}

static void w_answer(void *w, fig_conn_t *conn, fig_http_answer_t *a)
{
    wire_t *wire = w;
    intptr_t k = (intptr_t)conn - 1000;
    assert_true(k >= 0 && k < 4);
    assert_int_equal(wire->nlater[k], 0);   /* one answer per request */
    wire->nlater[k]++;
    wire->later[k] = *a;
}

static void w_watch(void *w, int fd)
{
    wire_t *wire = w;
    for (int i = 0; i < wire->nfds; i++)
        assert_int_not_equal(wire->fds[i], fd);   /* watched once */
    assert_true(wire->nfds < MAXFD);
    wire->fds[wire->nfds++] = fd;
}

static void w_unwatch(void *w, int fd)
{
    wire_t *wire = w;
    for (int i = 0; i < wire->nfds; i++)
        if (wire->fds[i] == fd) {
            wire->fds[i] = wire->fds[--wire->nfds];
            return;
        }
    fail_msg("unwatch of fd %d, which is not watched", fd);
}

static long long clock_fn(void *ctx)
{
    world_t *w = ctx;
    return w->fake_clock ? w->clock : fig_clock_ms();
}

static long long wall_fn(void *ctx)
{
    world_t *w = ctx;
    return w->wall ? w->wall : (long long)time(NULL);
}

static void log_fn(void *ctx, const char *line)
{
    world_t *w = ctx;
    w->logs++;
    snprintf(w->last_log, sizeof w->last_log, "%s", line);
    for (int i = 0; i < w->nsecrets; i++)
        w->secrets_logged += strstr(line, w->secrets[i]) != NULL;
    if (getenv("FIGARO_TEST_LOG"))
        fprintf(stderr, "log: %s\n", line);
}

void start_service(world_t *w)
{
    fig_service_opts_t o;
    memset(&o, 0, sizeof o);
    char url[160];
    snprintf(url, sizeof url, "sqlite:%s", w->db);
    o.db = url;
    o.localedir = w->localedir;
    o.grace_ms = w->grace_ms;
    o.normal_sync = w->quick;
    o.bot_threads = 2;
    o.bot_scratch = 64u << 20;
    o.max_bot_ms = 50;
    o.clock = clock_fn;
    o.clock_ctx = w;
    o.wall = wall_fn;
    o.log = log_fn;
    o.log_ctx = w;
    o.max_conns_per_addr = 8;
    o.keep_finished_ms = w->keep_finished_ms;
    o.keep_idle_ms = w->keep_idle_ms;
    o.forgotten_ms = w->forgotten_ms;
    o.review_spec = w->review_spec ? w->review_spec : TEST_REVIEW_SPEC;
    static fig_engine_def_t engines[1];
    static char cmd[4200];
    const char *fig = getenv("FIGARO");
    snprintf(cmd, sizeof cmd, "%s engine --bot greedy", fig ? fig : "build/test/figaro");
    engines[0].name = "greedy-engine";
    engines[0].cmd = cmd;
    o.engines = engines;
    o.nengines = 1;
    fig_wire_ops_t ops = { w_send, w_close, w_watch, w_unwatch, w_answer, &w->wire };
    fig_msg_t msg;
    if (fig_service_new(&w->svc, &o, &ops, &msg) != FIG_OK)
        fail_msg("service: %s", msg.text);
}

void stop_service(world_t *w)
{
    fig_service_free(w->svc);
    w->svc = NULL;
    assert_int_equal(w->wire.nfds, 0);   /* every watched descriptor was given back */
}

static void free_frames(wire_t *wire)
{
    for (int i = 0; i < wire->nconn; i++) {
        for (int k = 0; k < wire->c[i].n; k++)
            free(wire->c[i].f[k]);
        free(wire->c[i].f);
    }
    memset(wire, 0, sizeof *wire);
}

world_t *world_new(int grace_ms)
{
    world_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    strcpy(w->dir, "/tmp/figaro-svc-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    snprintf(w->db, sizeof w->db, "%s/figaro.db", w->dir);
    ssize_t n = readlink("/proc/self/exe", w->localedir, sizeof w->localedir - 16);
    assert_true(n > 0);
    w->localedir[n] = '\0';
    strcpy(strrchr(w->localedir, '/'), "/locale");
    w->grace_ms = grace_ms;
    w->fake_clock = true;
    w->clock = 1000000;
    w->http_addr = "10.0.0.9";
    start_service(w);
    return w;
}

void world_free(world_t *w)
{
    if (w->svc)
        stop_service(w);
    free_frames(&w->wire);
    char path[200];
    const char *files[] = { "figaro.db", "figaro.db-wal", "figaro.db-shm" };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", w->dir, files[i]);
        unlink(path);
    }
    rmdir(w->dir);
    free(w);
}

/* Waits up to ms for a watched descriptor and lets the service step. */
int pump_world(world_t *w, int ms)
{
    struct pollfd p[MAXFD];
    int n = w->wire.nfds;
    for (int i = 0; i < n; i++) {
        p[i].fd = w->wire.fds[i];
        p[i].events = POLLIN;
        p[i].revents = 0;
    }
    int k = poll(p, (nfds_t)n, ms);
    int done = 0;
    for (int i = 0; i < n && k > 0; i++)
        if (p[i].revents) {
            fig_service_fd_ready(w->svc, p[i].fd);
            done++;
        }
    if (w->quick)   /* as the wire's loop does before it waits again */
        fig_service_turn(w->svc);
    return done;
}

void cl_open(client_t *c, world_t *w, const char *addr)
{
    memset(c, 0, sizeof *c);
    c->w = w;
    assert_true(w->wire.nconn < MAXC);
    c->id = w->wire.nconn++;
    c->seat = -1;
    c->acted_at = -1;
    c->cs = fig_service_open(w->svc, (fig_conn_t *)(intptr_t)(c->id + 1), addr);
    assert_non_null(c->cs);
}

void cl_close(client_t *c)
{
    fig_service_closed(c->w->svc, c->cs);
    c->cs = NULL;
    json_decref(c->view);
    c->view = NULL;
}

/* One text frame from c, put together vprintf-style (cl_send, ask_frame). */
static void cl_vsend(client_t *c, const char *fmt, va_list ap)
{
    char buf[10000];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fig_service_message(c->w->svc, c->cs, buf, strlen(buf));
}

void cl_send(client_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cl_vsend(c, fmt, ap);
    va_end(ap);
}

const char *str(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "";
}

long long num(const json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

static void set_view(client_t *c, json_t *v)
{
    if (!v)
        return;
    json_decref(c->view);
    c->view = json_incref(v);
}

/* Takes in the frames that came since the last call, once every write
 * handed to the writer thread is back and told (the service acknowledges
 * only then). */
void cl_update(client_t *c)
{
    if (c->w->quick) {   /* as the wire's loop: turns, each ended, until nothing is pending */
        fig_service_turn(c->w->svc);
        while (fig_service_pending(c->w->svc) > 0)
            pump_world(c->w, 20);
    } else {
        fig_service_sync(c->w->svc);
    }
    rconn_t *r = &c->w->wire.c[c->id];
    c->snapshot = false;
    for (; c->read < r->n; c->read++) {
        json_error_t err;
        json_t *o = json_loads(r->f[c->read], 0, &err);
        if (!o)
            fail_msg("a frame that is not JSON: %s", r->f[c->read]);
        const char *type = str(o, "type");
        if (strcmp(type, "welcome") == 0) {
            snprintf(c->epoch, sizeof c->epoch, "%s", str(o, "epoch"));
        } else if (strcmp(type, "created") == 0) {
            snprintf(c->table, sizeof c->table, "%s", str(o, "table"));
        } else if (strcmp(type, "seated") == 0) {
            c->seat = (int)num(o, "seat");
            snprintf(c->table, sizeof c->table, "%s", str(o, "table"));
            if (json_object_get(o, "token"))
                snprintf(c->token, sizeof c->token, "%s", str(o, "token"));
        } else if (strcmp(type, "unseated") == 0 || strcmp(type, "left") == 0) {
            c->seat = -1;
        } else if (strcmp(type, "snapshot") == 0) {
            c->snapshot = true;
            snprintf(c->table, sizeof c->table, "%s", str(o, "table"));
            c->last_n = num(o, "n");
            c->game_n = num(o, "game_n");
            c->game = (int)num(o, "game");
            c->over = strcmp(str(o, "state"), "over") == 0;
            set_view(c, json_object_get(o, "view"));
        } else if (strcmp(type, "event") == 0) {
            long long n = num(o, "n");
            if (c->last_n > 0 && n != c->last_n + 1)
                c->gap = true;
            c->last_n = n;
            const char *kind = str(o, "kind");
            if (!strcmp(kind, "start") || !strcmp(kind, "deal") || !strcmp(kind, "action")) {
                c->game_n = n;
                c->game = (int)num(o, "game");
                if (!strcmp(kind, "start")) {
                    c->starts++;
                    c->over = false;
                }
            }
            if (!strcmp(kind, "seat"))
                c->seat_news++;
            if (!strcmp(kind, "chat"))
                c->chats++;
            set_view(c, json_object_get(o, "view"));
            if (json_object_get(o, "record")) {
                c->over = true;
                snprintf(c->record, sizeof c->record, "%s", str(o, "record"));
            }
        } else if (strcmp(type, "error") == 0) {
            c->errors++;
            snprintf(c->error, sizeof c->error, "%s", str(o, "code"));
        }
        json_decref(o);
    }
}

int frames_of(const client_t *c) { return c->w->wire.c[c->id].n; }

void hello(client_t *c, const char *lang, const char *name)
{
    cl_send(c, "{\"type\":\"hello\",\"v\":1,\"lang\":\"%s\",\"name\":\"%s\"}", lang, name);
    cl_update(c);
    assert_true(c->epoch[0]);
}

/* Whether the client's view says it is its turn, with legal actions. */
bool my_turn(const client_t *c)
{
    if (!c->view || c->seat < 0 || c->over)
        return false;
    return num(c->view, "turn") == c->seat && json_object_get(c->view, "legal") &&
           strcmp(str(c->view, "phase"), "play") == 0;
}

/* Acts once per game event with a random legal action of its view. */
bool cl_play(client_t *c, fig_rng_t *rng)
{
    cl_update(c);
    if (!my_turn(c) || c->acted_at == c->game_n)
        return false;
    json_t *legal = json_object_get(c->view, "legal");
    size_t k = json_array_size(legal);
    assert_true(k > 0);
    const char *a = json_string_value(json_array_get(legal, fig_rng_below(rng, (uint32_t)k)));
    c->acted_at = c->game_n;
    /* People take a moment: the fake clock moves, so the rate limit (20
     * messages a second after a burst) lets a whole game through. */
    if (c->w->fake_clock)
        c->w->clock += 60;
    cl_send(c, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s\"}", c->table,
            c->game_n, a);
    cl_update(c);
    return true;
}

/* Plays until every client saw the end of the game, or `stop` says so (or
 * 120 s pass). The people play random legal actions. */
void play(world_t *w, client_t *cl[], int n, fig_rng_t *rng,
          bool (*stop)(client_t *cl[], int n, void *ctx), void *ctx)
{
    long long end = fig_clock_ms() + (getenv("FIGARO_TEST_QUICK") ? 5000 : 120000);
    for (;;) {
        bool acted = false;
        for (int i = 0; i < n; i++)
            acted |= cl_play(cl[i], rng);
        for (int i = 0; i < n; i++)
            cl_update(cl[i]);
        if (stop && stop(cl, n, ctx))
            return;
        bool all_over = true;
        for (int i = 0; i < n; i++)
            all_over &= cl[i]->over;
        if (!stop && all_over)
            return;
        if (!acted)
            pump_world(w, 20);
        if (fig_clock_ms() > end) {
            for (int i = 0; i < n && getenv("FIGARO_TEST_LOG"); i++) {
                const rconn_t *r = &w->wire.c[cl[i]->id];
                for (int k = r->n > 4 ? r->n - 4 : 0; k < r->n; k++)
                    fprintf(stderr, "frame %d/%d: %s\n", cl[i]->id, k, r->f[k]);
                fprintf(stderr, "client %d: seat %d game_n %lld acted_at %lld view %s\n",
                        cl[i]->id, cl[i]->seat, cl[i]->game_n, cl[i]->acted_at,
                        cl[i]->view ? json_dumps(cl[i]->view, JSON_COMPACT) : "-");
            }
            fail_msg("the game did not go on");
        }
    }
}

/* The latest frame of type `type` the client got since frame `from`
 * (owned), or NULL. */
json_t *last_frame(const client_t *c, int from, const char *type)
{
    const rconn_t *r = &c->w->wire.c[c->id];
    json_t *got = NULL;
    for (int i = from; i < r->n; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        if (o && !strcmp(str(o, "type"), type)) {
            json_decref(got);
            got = o;
        } else {
            json_decref(o);
        }
    }
    return got;
}

/* A new person named `name` on c: their key and public id. The key is
 * added to the world's secrets (never in a log line). */
void sign_up(client_t *c, const char *name, char key[33], char id[11])
{
    json_t *p = ask_frame(c, "person", "{\"type\":\"person_new\",\"name\":\"%s\"}", name);
    snprintf(key, 33, "%s", str(p, "key"));
    snprintf(id, 11, "%s", str(p, "id"));
    assert_int_equal(strlen(key), 32);
    assert_int_equal(strlen(id), 10);
    json_decref(p);
    assert_true(c->w->nsecrets < 8);
    c->w->secrets[c->w->nsecrets++] = key;
}

void create_table(client_t *c, const char *seats, const char *extra)
{
    c->table[0] = '\0';
    cl_send(c, "{\"type\":\"create\",\"seats\":[%s]%s}", seats, extra ? extra : "");
    cl_update(c);
    assert_int_equal(strlen(c->table), 6);
}

void join(client_t *c, const char *table, const char *name)
{
    cl_send(c, "{\"type\":\"join\",\"table\":\"%s\",\"name\":\"%s\"}", table, name);
    cl_update(c);
    assert_true(c->seat >= 0);
    assert_int_equal(strlen(c->token), 32);
}

/* GET path as the wire does it: an answer the service leaves for later (an
 * earlier game's record, read by the writer thread) is waited for. */
char *http(world_t *w, const char *path, int *status)
{
    fig_http_answer_t a;
    fig_service_http(w->svc, HTTP_CONN(0), w->http_addr, path, &a);
    if (a.status == 0) {
        long long end = fig_clock_ms() + 20000;
        while (!w->wire.nlater[0] && fig_clock_ms() < end)
            pump_world(w, 20);
        assert_int_equal(w->wire.nlater[0], 1);
        w->wire.nlater[0] = 0;
        a = w->wire.later[0];
    }
    *status = a.status;
    assert_non_null(a.body);
    assert_int_equal(strlen(a.body), a.len);
    return a.body;
}

/* Reads game `game` of the client's table over "HTTP" (only once over). */
void fetch_record(world_t *w, const char *table, int game, fig_game_t *g)
{
    char path[64];
    int status;
    snprintf(path, sizeof path, "/tables/%s/games/%d.fgn", table, game);
    char *body = http(w, path, &status);
    assert_int_equal(status, 200);
    fig_msg_t msg;
    if (fig_fgn_read(g, body, strlen(body), &msg) != FIG_OK)
        fail_msg("the record does not read: line %d: %s", msg.line, msg.text);
    assert_true(fig_game_over(g));
    free(body);
}

/* Stops once the client has seen `after` actions of its game, or when it
 * is the turn of seat ctx[1] (>= 0), a person who is not playing now. */
bool after_moves(client_t *cl[], int n, void *ctx)
{
    (void)n;
    int want = ((int *)ctx)[0], wait = ((int *)ctx)[1];
    json_t *v = cl[0]->view;
    if (!v)
        return false;
    if (wait >= 0 && num(v, "turn") == wait)
        return true;
    int played = 0;
    const json_t *sizes = json_object_get(v, "hand_sizes");
    for (size_t s = 0; s < json_array_size(sizes); s++)
        played += 15 - (int)json_integer_value(json_array_get(sizes, s));
    return num(v, "round") > 1 || played >= want;
}

bool has_news(const world_t *w, int id, int from, const char *news)
{
    const rconn_t *r = &w->wire.c[id];
    for (int i = from; i < r->n; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        bool hit = !strcmp(str(o, "kind"), "seat") && !strcmp(str(o, "news"), news);
        json_decref(o);
        if (hit)
            return true;
    }
    return false;
}

/* The frame `k` of connection id, parsed (the caller frees it). */
json_t *frame_at(const world_t *w, int id, int k)
{
    json_t *o = json_loads(w->wire.c[id].f[k], 0, NULL);
    assert_non_null(o);
    return o;
}

/* The first row sql answers, read with SQLite itself from a handle of its
 * own (*db, read-only): there must be one. db_done closes both. */
static sqlite3_stmt *db_row(world_t *w, const char *sql, sqlite3 **db)
{
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open_v2(w->db, db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(*db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    return st;
}

static void db_done(sqlite3 *db, sqlite3_stmt *st)
{
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* A 64-bit column of the database, read with SQLite itself. */
uint64_t db_u64(world_t *w, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st = db_row(w, sql, &db);
    uint64_t x = (uint64_t)sqlite3_column_int64(st, 0);
    db_done(db, st);
    return x;
}

stored_seat_t stored_seat(world_t *w, const char *code, int seat)
{
    char sql[160];
    snprintf(sql, sizeof sql, "SELECT name, person IS NOT NULL, rematch FROM seats "
             "WHERE code = '%s' AND seat = %d", code, seat);
    sqlite3 *db;
    sqlite3_stmt *st = db_row(w, sql, &db);
    stored_seat_t x;
    snprintf(x.name, sizeof x.name, "%s", (const char *)sqlite3_column_text(st, 0));
    x.person = sqlite3_column_int(st, 1) != 0;
    x.rematch = sqlite3_column_int64(st, 2);
    db_done(db, st);
    return x;
}

/* Another process's handle: its own fig_db_t on the file, opened and
 * closed around the one forget, as `figaro people remove` does it. */
void forget_elsewhere(world_t *w, const char *id)
{
    char url[160];
    snprintf(url, sizeof url, "sqlite:%s", w->db);
    fig_db_t *db;
    fig_msg_t msg;
    if (fig_db_open(&db, url, NULL, &msg) != FIG_OK)
        fail_msg("open %s: %s", url, msg.text);
    bool found = false;
    fig_err_t rc = fig_db_person_forget(db, id, wall_fn(w), &found, &msg);
    fig_db_close(db);
    if (rc != FIG_OK)
        fail_msg("forget %s: %s", id, msg.text);
    assert_true(found);
}

/* Sends `frame`; expects exactly one error frame with `code` to c and
 * nothing to anyone else. */
void expect_error(world_t *w, client_t *c, client_t *others[], int n, const char *code,
                  const char *frame)
{
    int before[MAXC];
    for (int i = 0; i < n; i++)
        before[i] = frames_of(others[i]);
    cl_update(c);   /* what came before is the client's */
    int mine = frames_of(c);
    fig_service_message(w->svc, c->cs, frame, strlen(frame));
    assert_int_equal(frames_of(c), mine + 1);
    json_t *o = json_loads(w->wire.c[c->id].f[mine], 0, NULL);
    assert_non_null(o);
    assert_string_equal(str(o, "type"), "error");
    if (strcmp(str(o, "code"), code) != 0)
        fail_msg("%s: got %s (%s)", frame, str(o, "code"), str(o, "text"));
    assert_true(strlen(str(o, "text")) > 0);
    json_decref(o);
    cl_update(c);
    for (int i = 0; i < n; i++)
        assert_int_equal(frames_of(others[i]), before[i]);
}

bool frames_hold(const world_t *w, int id, int from, const char *text)
{
    const rconn_t *r = &w->wire.c[id];
    for (int i = from; i < r->n; i++)
        if (strstr(r->f[i], text))
            return true;
    return false;
}

/* Whether frames `from`.. of connection `id` hold an error whose code is
 * `code`. */
bool error_since(const world_t *w, int id, int from, const char *code)
{
    char want[64];
    snprintf(want, sizeof want, "\"code\":\"%s\"", code);
    const rconn_t *r = &w->wire.c[id];
    for (int k = from; k < r->n; k++)
        if (strstr(r->f[k], "\"type\":\"error\"") && strstr(r->f[k], want))
            return true;
    return false;
}

/* How many frames of type `type` connection `id` got from frame `from` on;
 * the last one parsed into *last when last is not NULL (the caller frees). */
int frames_typed(const world_t *w, int id, int from, const char *type, json_t **last)
{
    int n = 0;
    const rconn_t *r = &w->wire.c[id];
    for (int k = from; k < r->n; k++) {
        json_t *o = json_loads(r->f[k], 0, NULL);
        assert_non_null(o);
        if (!strcmp(str(o, "type"), type)) {
            n++;
            if (last) {
                json_decref(*last);
                *last = json_incref(o);
            }
        }
        json_decref(o);
    }
    return n;
}

client_t *wait_mover(world_t *w, client_t *a, client_t *b)
{
    client_t *mover = NULL;
    long long end = fig_clock_ms() + 30000;
    while (!mover && fig_clock_ms() < end) {
        pump_world(w, 10);
        cl_update(a);
        cl_update(b);
        mover = my_turn(a) ? a : my_turn(b) ? b : NULL;
    }
    assert_non_null(mover);
    return mover;
}

void wait_turn(world_t *w, client_t *c)
{
    long long end = fig_clock_ms() + 30000;
    cl_update(c);
    while (!my_turn(c) && fig_clock_ms() < end) {
        pump_world(w, 10);
        cl_update(c);
    }
    assert_true(my_turn(c));
}

/* Waits (pumping) for a frame of `type` to connection `id` after `from`. */
json_t *wait_frame(world_t *w, int id, int from, const char *type)
{
    json_t *f = NULL;
    long long end = fig_clock_ms() + 120000;
    while (!frames_typed(w, id, from, type, NULL) && fig_clock_ms() < end)
        pump_world(w, 20);
    assert_int_equal(frames_typed(w, id, from, type, &f), 1);
    return f;
}

/* ---- the set-up the tests repeat */

void cl_arrive(client_t *c, world_t *w, const char *addr, const char *lang, const char *name)
{
    cl_open(c, w, addr);
    hello(c, lang, name);
}

void hello_seat(client_t *c, const char *fields, const char *table, const char *token)
{
    cl_send(c, "{\"type\":\"hello\",\"v\":1%s,\"seats\":[{\"table\":\"%s\",\"token\":\"%s\"}]}",
            fields, table, token);
    cl_update(c);
}

void hello_key(client_t *c, const char *key)
{
    cl_send(c, "{\"type\":\"hello\",\"v\":1,\"key\":\"%s\"}", key);
    cl_update(c);
}

/* All the connections first, then every hello, then the table: connection k
 * of the world is people[k], and nobody's hello waits on another's. */
void sit_people(world_t *w, const person_t people[], int n, const char *seats,
                const char *extra)
{
    char addr[32];
    for (int i = 0; i < n; i++) {
        snprintf(addr, sizeof addr, "10.0.0.%d", i + 1);
        cl_open(people[i].c, w, addr);
    }
    for (int i = 0; i < n; i++)
        hello(people[i].c, people[i].lang, people[i].name);
    create_table(people[0].c, seats, extra);
    for (int i = 0; i < n; i++)
        join(people[i].c, people[0].c->table, people[i].name);
}

void spectate(client_t *c, const char *table)
{
    cl_send(c, "{\"type\":\"spectate\",\"table\":\"%s\"}", table);
    cl_update(c);
}

void ask_rematch(client_t *c, const char *table, int game)
{
    cl_send(c, "{\"type\":\"rematch\",\"table\":\"%s\",\"game\":%d}", table, game);
}

json_t *ask_frame(client_t *c, const char *type, const char *fmt, ...)
{
    int from = frames_of(c);
    va_list ap;
    va_start(ap, fmt);
    cl_vsend(c, fmt, ap);
    va_end(ap);
    cl_update(c);
    json_t *f = last_frame(c, from, type);
    if (!f)
        fail_msg("no \"%s\" frame answered %s", type, fmt);
    return f;
}

void device_code(client_t *c, char code[9])
{
    json_t *d = ask_frame(c, "device_code", "{\"type\":\"device_code\"}");
    snprintf(code, 9, "%s", str(d, "code"));
    json_decref(d);
}

void forget_me(client_t *c)
{
    json_decref(ask_frame(c, "forgotten", "{\"type\":\"forget_me\"}"));
}

/* ---- HTTP, by a path put together printf-style */

/* http() of a path put together vprintf-style. */
static char *vget(world_t *w, int *status, const char *fmt, va_list ap)
{
    char path[400];
    vsnprintf(path, sizeof path, fmt, ap);
    return http(w, path, status);
}

int http_status(world_t *w, const char *fmt, ...)
{
    int status;
    va_list ap;
    va_start(ap, fmt);
    free(vget(w, &status, fmt, ap));
    va_end(ap);
    return status;
}

json_t *http_json(world_t *w, const char *fmt, ...)
{
    int status;
    va_list ap;
    va_start(ap, fmt);
    char *body = vget(w, &status, fmt, ap);
    va_end(ap);
    assert_int_equal(status, 200);
    json_t *o = json_loads(body, 0, NULL);
    free(body);
    assert_non_null(o);
    return o;
}
