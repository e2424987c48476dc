/* SPDX-License-Identifier: MIT */
/* test_forgotten.c - a person forgotten by another process (net/service_forgotten.c)
 * while their own seat's write is on its way, on a real service (a
 * recording wire, a fake clock, a real SQLite file):
 *
 * Quillon, signed in, plays a game to its end with two bots; another handle
 * on the same file forgets her (as `figaro people remove` does). Then the
 * service's round reads the log, and right behind it in the writer's queue
 * comes her vote for a rematch, written with her name. The round comes back
 * first: the table renames her seat while the vote is on its way. Once
 * everything is back, the seat is Anonymous in memory (the vote kept, but
 * not the name it carried), the rename is stored over the vote's row, the
 * table told it (news `forgotten`), and her connection was told
 * `forgotten`. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/util.h"
#include "net/db.h"
#include "net/db_sql.h"
#include "net/service.h"

/* ---- a recording wire: the frames of one connection */

enum { MAXF = 4096, MAXFD = 64 };

typedef struct {
    char *f[MAXF];
    int n;
    int fds[MAXFD];
    int nfds;
} wire_t;

static void w_send(void *w, fig_conn_t *conn, const char *text, size_t len)
{
    (void)conn;
    wire_t *wire = w;
    assert_true(wire->n < MAXF);
    wire->f[wire->n] = malloc(len + 1);
    assert_non_null(wire->f[wire->n]);
    memcpy(wire->f[wire->n], text, len);
    wire->f[wire->n++][len] = '\0';
}

static void w_close(void *w, fig_conn_t *conn)
{
    (void)w;
    (void)conn;
}

static void w_watch(void *w, int fd)
{
    wire_t *wire = w;
    assert_true(wire->nfds < MAXFD);
    wire->fds[wire->nfds++] = fd;
}

static void w_unwatch(void *w, int fd)
{
    wire_t *wire = w;
    for (int i = 0; i < wire->nfds; i++)
        if (wire->fds[i] == fd)
            wire->fds[i] = wire->fds[--wire->nfds];
}

static void w_answer(void *w, fig_conn_t *conn, fig_http_answer_t *a)
{
    (void)w;
    (void)conn;
    free(a->body);
}

typedef struct {
    wire_t wire;
    fig_service_t *svc;
    void *cs;
    long long clock;
    char dir[64], url[128];
} world_t;

static long long clock_fn(void *ctx) { return ((world_t *)ctx)->clock; }
static long long wall_fn(void *ctx) { (void)ctx; return 1800000000; }

static void say(world_t *w, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fig_service_message(w->svc, w->cs, buf, strlen(buf));
}

/* The frames from `from` on: the last of that type (NULL: none; the caller
 * frees it). */
static json_t *last_of(const world_t *w, int from, const char *type)
{
    json_t *got = NULL;
    for (int i = from; i < w->wire.n; i++) {
        json_t *o = json_loads(w->wire.f[i], 0, NULL);
        assert_non_null(o);
        if (strcmp(json_string_value(json_object_get(o, "type")), type) == 0) {
            json_decref(got);
            got = o;
        } else {
            json_decref(o);
        }
    }
    return got;
}

/* Lets the bots think and the writer answer. */
static void pump(world_t *w)
{
    struct pollfd p[MAXFD];
    int n = w->wire.nfds;
    for (int i = 0; i < n; i++)
        p[i] = (struct pollfd){ w->wire.fds[i], POLLIN, 0 };
    if (poll(p, (nfds_t)n, 10) > 0)
        for (int i = 0; i < n; i++)
            if (p[i].revents)
                fig_service_fd_ready(w->svc, p[i].fd);
    fig_service_sync(w->svc);
}

/* Plays seat `seat` of `table` (random legal actions) until the game ends. */
static void play_to_the_end(world_t *w, const char *table, int seat)
{
    long long game_n = 0, acted = -1, end = fig_clock_ms() + 60000;
    int read = 0;
    json_t *view = NULL;
    for (bool over = false; !over;) {
        assert_true(fig_clock_ms() < end);
        pump(w);
        for (; read < w->wire.n; read++) {
            json_t *o = json_loads(w->wire.f[read], 0, NULL);
            const char *kind = json_string_value(json_object_get(o, "kind"));
            if (json_object_get(o, "game_n"))
                game_n = json_integer_value(json_object_get(o, "game_n"));
            if (kind && (!strcmp(kind, "start") || !strcmp(kind, "deal") ||
                         !strcmp(kind, "action")))
                game_n = json_integer_value(json_object_get(o, "n"));
            over |= json_object_get(o, "record") != NULL;
            if (json_object_get(o, "view")) {
                json_decref(view);
                view = json_incref(json_object_get(o, "view"));
            }
            json_decref(o);
        }
        json_t *legal = json_object_get(view, "legal");
        if (over || acted == game_n || !json_array_size(legal) ||
            json_integer_value(json_object_get(view, "turn")) != seat)
            continue;
        acted = game_n;
        w->clock += 100;   /* the service's message rate: 20 a second */
        fig_service_tick(w->svc, w->clock);
        say(w, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s\"}", table, game_n,
            json_string_value(json_array_get(legal, 0)));
    }
    json_decref(view);
}

/* Seat `seat` of table `code` as stored: its name, whether it has a person
 * and its vote. */
typedef struct {
    char name[64];
    long long persons, rematch;
} stored_t;

static fig_err_t seat_row(void *ctx, const char *const *col, int n, fig_msg_t *msg)
{
    (void)msg;
    stored_t *x = ctx;
    assert_int_equal(n, 3);
    snprintf(x->name, sizeof x->name, "%s", col[0]);
    x->persons = fig_db_col_ll(col[1]);
    x->rematch = fig_db_col_ll(col[2]);
    return FIG_OK;
}

static stored_t stored_seat(const world_t *w, const char *code, int seat)
{
    fig_db_t *db;
    assert_int_equal(fig_db_open(&db, w->url, NULL, NULL), FIG_OK);
    stored_t x = { "", -1, -1 };
    fig_dbp_t p[] = { FIG_DBP_T(code), FIG_DBP_I(seat) };
    assert_int_equal(fig_dbq(db, "SELECT name, count(person), rematch FROM seats WHERE "
                             "code = $1 AND seat = $2", p, 2, seat_row, &x, NULL), FIG_OK);
    fig_db_close(db);
    return x;
}

static void test_vote_on_its_way_when_forgotten(void **state)
{
    (void)state;
    world_t *w = calloc(1, sizeof *w);
    assert_non_null(w);
    strcpy(w->dir, "/tmp/figaro-fgt-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    snprintf(w->url, sizeof w->url, "sqlite:%s/figaro.sqlite", w->dir);
    w->clock = 1000000;
    fig_service_opts_t o = { .db = w->url, .bot_threads = 1, .max_bot_ms = 20,
                             .forgotten_ms = 2000, .clock = clock_fn, .clock_ctx = w,
                             .wall = wall_fn };
    fig_wire_ops_t ops = { w_send, w_close, w_watch, w_unwatch, w_answer, &w->wire };
    fig_msg_t msg;
    if (fig_service_new(&w->svc, &o, &ops, &msg))
        fail_msg("service: %s", msg.text);
    w->cs = fig_service_open(w->svc, (fig_conn_t *)(intptr_t)1, "10.0.0.1");
    assert_non_null(w->cs);
    say(w, "{\"type\":\"hello\",\"v\":1,\"name\":\"Quillon\"}");
    say(w, "{\"type\":\"person_new\",\"name\":\"Quillon\"}");
    fig_service_sync(w->svc);
    json_t *p = last_of(w, 0, "person");
    assert_non_null(p);
    char id[FIG_DB_PERSON_ID + 1];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(p, "id")));
    json_decref(p);
    say(w, "{\"type\":\"create\",\"hints\":false,\"seats\":[{\"kind\":\"person\"},"
           "{\"kind\":\"bot\",\"level\":\"random\"},{\"kind\":\"bot\",\"level\":\"random\"}]}");
    fig_service_sync(w->svc);
    json_t *c = last_of(w, 0, "created");
    assert_non_null(c);
    char table[8];
    snprintf(table, sizeof table, "%s", json_string_value(json_object_get(c, "table")));
    json_decref(c);
    say(w, "{\"type\":\"join\",\"table\":\"%s\"}", table);
    fig_service_sync(w->svc);
    play_to_the_end(w, table, 0);
    assert_string_equal(stored_seat(w, table, 0).name, "Quillon");
    assert_int_equal(stored_seat(w, table, 0).persons, 1);

    /* Forgotten by another handle; then the round, and her vote behind it. */
    fig_db_t *db;
    bool found;
    assert_int_equal(fig_db_open(&db, w->url, NULL, NULL), FIG_OK);
    assert_int_equal(fig_db_person_forget(db, id, 1800000000, &found, NULL), FIG_OK);
    assert_true(found);
    fig_db_close(db);
    int from = w->wire.n;
    w->clock += 2000;
    fig_service_tick(w->svc, w->clock);
    say(w, "{\"type\":\"rematch\",\"table\":\"%s\",\"game\":1}", table);
    for (int i = 0; i < 3; i++)   /* the round, the vote, the rename */
        pump(w);
    json_t *f = last_of(w, from, "forgotten");
    assert_non_null(f);
    json_decref(f);
    stored_t x = stored_seat(w, table, 0);
    assert_string_equal(x.name, "Anonymous");
    assert_int_equal(x.persons, 0);
    assert_int_equal(x.rematch, 1);   /* the vote stands */
    bool told = false;
    for (int i = from; i < w->wire.n; i++)
        told |= strstr(w->wire.f[i], "\"news\":\"forgotten\"") &&
                strstr(w->wire.f[i], "\"name\":\"Anonymous\"");
    assert_true(told);
    for (int i = from; i < w->wire.n; i++)
        assert_null(strstr(w->wire.f[i], "Quillon"));

    fig_service_closed(w->svc, w->cs);
    fig_service_free(w->svc);
    for (int i = 0; i < w->wire.n; i++)
        free(w->wire.f[i]);
    const char *files[] = { "figaro.sqlite", "figaro.sqlite-wal", "figaro.sqlite-shm" };
    for (int i = 0; i < 3; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", w->dir, files[i]);
        unlink(path);
    }
    rmdir(w->dir);
    free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vote_on_its_way_when_forgotten),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
