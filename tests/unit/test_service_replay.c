/* SPDX-License-Identifier: MIT */
/* test_service_replay.c - replays over HTTP (src/net/service/service_replay.c,
 * service_http.c): GET /tables/CODE/games/N.json, POST /replay and a
 * person's kept game's replay, each checked against its record, in the
 * language asked for; the limits of each, per address, apart from one
 * another. Over the recording wire (service_harness.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "service_harness.h"

static char *http_post(world_t *w, const char *path, const char *body, size_t len, int *status)
{
    fig_http_answer_t a;
    fig_service_http_post(w->svc, "10.0.0.1", path, body, len, &a);
    *status = a.status;
    assert_non_null(a.body);
    assert_int_equal(strlen(a.body), a.len);
    return a.body;
}

static int int_at(const json_t *a, size_t i)
{
    const json_t *v = json_array_get(a, i);
    if (!json_is_integer(v))
        fail_msg("not an integer at %zu", i);
    return (int)json_integer_value(v);
}

/* Checks a replay against the record it was made from: one step per deal
 * and action, each hand as the record dealt it and as large as the state
 * says, and the last step's ranking and the summary the record's. */
static void check_replay(const char *text, const fig_game_t *g)
{
    json_error_t err;
    json_t *o = json_loads(text, 0, &err);
    if (!o)
        fail_msg("the replay is not JSON: %s", err.text);
    int n = g->setup.players;
    assert_int_equal(num(o, "players"), n);
    const json_t *steps = json_object_get(o, "steps");
    size_t want = 0;
    for (int r = 0; r < g->dealt; r++)
        want += 1 + (size_t)g->nmoves[r];
    assert_int_equal(json_array_size(steps), want);
    size_t i = 0;
    for (int r = 0; r < g->dealt; r++) {
        const json_t *deal = json_array_get(steps, i);
        assert_string_equal(json_string_value(json_object_get(deal, "kind")), "deal");
        const json_t *hands = json_object_get(json_object_get(deal, "state"), "hands");
        for (int s = 0; s < n; s++) {
            const json_t *h = json_array_get(hands, (size_t)s);
            int count[FIG_KINDS] = { 0 };
            for (size_t c = 0; c < json_array_size(h); c++) {
                const char *code = json_string_value(json_array_get(h, c));
                int kind = code ? fig_kind_parse(code, strlen(code)) : -1;
                assert_true(kind >= 0);
                count[kind]++;
            }
            for (int k = 0; k < FIG_KINDS; k++)
                assert_int_equal(count[k], g->hands[r][s].n[k]);
        }
        i += 1 + (size_t)g->nmoves[r];
    }
    for (i = 0; i < json_array_size(steps); i++) {
        const json_t *st = json_object_get(json_array_get(steps, i), "state");
        const json_t *hands = json_object_get(st, "hands"), *sizes = json_object_get(st, "hand_sizes");
        for (int s = 0; s < n; s++)
            assert_int_equal(json_array_size(json_array_get(hands, (size_t)s)),
                             int_at(sizes, (size_t)s));
        assert_true(json_array_size(json_object_get(json_array_get(steps, i), "say")) > 0);
    }
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(&g->state, ranking);
    const json_t *last = json_object_get(json_array_get(steps, want - 1), "events");
    const json_t *over = json_array_get(last, json_array_size(last) - 1);
    assert_string_equal(json_string_value(json_object_get(over, "type")), "game_over");
    const json_t *summary = json_object_get(o, "summary");
    assert_true(json_is_true(json_object_get(summary, "finished")));
    for (int s = 0; s < n; s++) {
        assert_int_equal(int_at(json_object_get(over, "ranking"), (size_t)s), ranking[s]);
        assert_int_equal(int_at(json_object_get(summary, "ranking"), (size_t)s), ranking[s]);
        assert_int_equal(int_at(json_object_get(summary, "totals"), (size_t)s),
                         fig_state_road(&g->state, s));
    }
    json_decref(o);
}

static void test_replay_json(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("easy"), NULL);
    join(&ann, ann.table, "");
    int status;
    char path[80];
    snprintf(path, sizeof path, "/tables/%s/games/1.json", ann.table);
    /* never before the end: it holds every hand */
    assert_int_equal(http_status(w, "%s", path), 409);
    assert_int_equal(http_status(w, "/tables/ZZZZZZ/games/1.json"), 404);
    char *body;
    fig_rng_t rng;
    fig_rng_seed(&rng, 5);
    client_t *cl[] = { &ann };
    play(w, cl, 1, &rng, NULL, NULL);
    fig_game_t g;
    fetch_record(w, ann.table, 1, &g);
    char *json = http(w, path, &status);
    assert_int_equal(status, 200);
    check_replay(json, &g);
    /* A seat's sentences in the language asked for. */
    snprintf(path, sizeof path, "/tables/%s/games/1.json?lang=fr", ann.table);
    body = http(w, path, &status);
    assert_int_equal(status, 200);
    assert_non_null(strstr(body, "Manche 1"));
    assert_null(strstr(json, "Manche 1"));
    free(body);
    assert_int_equal(http_status(w, "/tables/%s/games/2.json", ann.table), 404);

    /* The same record sent by POST gives the same replay, and is not kept. */
    snprintf(path, sizeof path, "/tables/%s/games/1.fgn", ann.table);
    char *fgn = http(w, path, &status);
    assert_int_equal(status, 200);
    body = http_post(w, "/replay", fgn, strlen(fgn), &status);
    assert_int_equal(status, 200);
    assert_string_equal(body, json);
    free(body);
    body = http_post(w, "/replay?lang=fr", fgn, strlen(fgn), &status);
    assert_int_equal(status, 200);
    assert_non_null(strstr(body, "Manche 1"));
    free(body);
    /* A bad record: 400 and the parser's line. */
    char *bad = strdup(fgn);
    char *move = strstr(bad, "\n0 ");
    if (!move)
        move = strstr(bad, "\n1 ");
    assert_non_null(move);
    move[1] = '9';   /* a seat that does not play */
    body = http_post(w, "/replay", bad, strlen(bad), &status);
    assert_int_equal(status, 400);
    assert_non_null(strstr(body, "line "));
    free(body);
    free(bad);
    body = http_post(w, "/replay", "figaro 2\n", 9, &status);
    assert_int_equal(status, 400);
    free(body);
    body = http_post(w, "/replay", NULL, 0, &status);
    assert_int_equal(status, 400);
    free(body);
    /* Too long: 413 before reading a byte of it. */
    size_t big = (64 << 10) + 1;
    char *pad = malloc(big);
    assert_non_null(pad);
    memset(pad, '#', big);
    body = http_post(w, "/replay", pad, big, &status);
    assert_int_equal(status, 413);
    free(body);
    free(pad);
    body = http_post(w, "/replayed", fgn, strlen(fgn), &status);
    assert_int_equal(status, 404);
    free(body);
    free(fgn);
    free(json);
    cl_close(&ann);
    world_free(w);
}

/* POST /replay from one address: ten at once, then one a second (429 between);
 * another address has its own allowance. */
static int post_from(world_t *w, const char *addr)
{
    fig_http_answer_t a;
    fig_service_http_post(w->svc, addr, "/replay", "figaro 2\n", 9, &a);
    free(a.body);
    return a.status;
}

static void test_replay_rate(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    w->fake_clock = true;
    w->clock = 5000;
    for (int i = 0; i < 10; i++)
        assert_int_equal(post_from(w, "10.0.0.7"), 400);   /* a bad record, but read */
    assert_int_equal(post_from(w, "10.0.0.7"), 429);
    assert_int_equal(post_from(w, "10.0.0.8"), 400);
    w->clock += 1000;
    assert_int_equal(post_from(w, "10.0.0.7"), 400);
    assert_int_equal(post_from(w, "10.0.0.7"), 429);
    /* Many addresses: the buckets are reused, the limit holds for the newest. */
    char addr[32];
    for (int i = 0; i < 200; i++) {
        snprintf(addr, sizeof addr, "10.1.%d.%d", i / 250, i % 250);
        assert_int_equal(post_from(w, addr), 400);
    }
    for (int i = 0; i < 9; i++)
        assert_int_equal(post_from(w, addr), 400);
    assert_int_equal(post_from(w, addr), 429);
    fig_http_answer_t a;
    fig_service_http_post(w->svc, addr, "/replay", "figaro 2\n", 9, &a);
    assert_int_equal(a.status, 429);
    assert_int_equal(a.retry_after, 1);   /* a token a second */
    free(a.body);
    world_free(w);
}

/* GET path from addr: the status, and the Retry-After of a 429. The paths
 * here are answered at once (no table, no person: 404). */
static int get_from(world_t *w, const char *addr, const char *path, int *retry)
{
    fig_http_answer_t a;
    fig_service_http(w->svc, HTTP_CONN(0), addr, path, &a);
    if (a.status == 0) {   /* the people's: answered by the writer thread */
        fig_service_sync(w->svc);
        assert_int_equal(w->wire.nlater[0], 1);
        w->wire.nlater[0] = 0;
        a = w->wire.later[0];
    }
    *retry = a.retry_after;
    free(a.body);
    return a.status;
}

/* The GETs that build a replay on the loop (a table's game's .json, a
 * person's kept game's): 30 at once per address, then one a second, 429
 * with Retry-After between; the records (.fgn), other addresses and POST
 * /replay have allowances of their own. */
static void test_replay_get_rate(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    const char *table = "/tables/ZZZZZZ/games/1.json";
    const char *kept = "/api/people/ZZZZZZZZZZ/games/0.json";
    int retry;
    for (int i = 0; i < 30; i++)
        assert_int_equal(get_from(w, "10.0.0.7", i % 2 ? table : kept, &retry), 404);
    assert_int_equal(get_from(w, "10.0.0.7", table, &retry), 429);
    assert_int_equal(retry, 1);
    assert_int_equal(get_from(w, "10.0.0.7", kept, &retry), 429);
    assert_int_equal(get_from(w, "10.0.0.7", "/tables/ZZZZZZ/games/1.fgn", &retry), 404);
    assert_int_equal(get_from(w, "10.0.0.7", "/api/people/ZZZZZZZZZZ/games/0.fgn", &retry), 404);
    assert_int_equal(get_from(w, "10.0.0.7", "/tables/ZZZZZZ/games/01.json", &retry), 429);
    assert_int_equal(get_from(w, "10.0.0.7", "/tables/zzzzzz/games/1.json", &retry), 404);
    assert_int_equal(get_from(w, "10.0.0.8", table, &retry), 404);
    assert_int_equal(post_from(w, "10.0.0.7"), 400);   /* POST's bucket is its own */
    w->clock += 500;
    assert_int_equal(get_from(w, "10.0.0.7", table, &retry), 429);
    assert_int_equal(retry, 1);   /* half a token: rounded up to a second */
    w->clock += 500;
    assert_int_equal(get_from(w, "10.0.0.7", kept, &retry), 404);
    assert_int_equal(get_from(w, "10.0.0.7", table, &retry), 429);
    /* POST's allowance spent does not touch the GETs'. */
    for (int i = 0; i < 10; i++)
        assert_int_equal(post_from(w, "10.0.0.6"), 400);
    assert_int_equal(post_from(w, "10.0.0.6"), 429);
    assert_int_equal(get_from(w, "10.0.0.6", table, &retry), 404);
    /* Many addresses: the buckets are reused, the limit holds for the newest. */
    char addr[32];
    for (int i = 0; i < 200; i++) {
        snprintf(addr, sizeof addr, "10.2.%d.%d", i / 250, i % 250);
        assert_int_equal(get_from(w, addr, table, &retry), 404);
    }
    for (int i = 0; i < 29; i++)
        assert_int_equal(get_from(w, addr, table, &retry), 404);
    assert_int_equal(get_from(w, addr, table, &retry), 429);
    world_free(w);
}

/* A person's kept game as a replay, GET /api/people/ID/games/I.json: the
 * replay POST /replay gives for the kept record's text (its .fgn), in the
 * language asked for (English for one the server lacks), read by the
 * writer and answered later; limited apart from POST /replay (an
 * allowance of its own); 404 where the record's path is; gone with the
 * person. */
static void test_kept_replay(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    char key[33], id[11];
    sign_up(&ann, "Ann", key, id);
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("easy") "," SEAT_BOT("beginner"),
                 ",\"hints\":false");
    join(&ann, ann.table, "");
    fig_rng_t rng;
    fig_rng_seed(&rng, 31);
    client_t *cl[] = { &ann };
    play(w, cl, 1, &rng, NULL, NULL);
    for (int i = 0; i < 20; i++)
        pump_world(w, 5);
    fig_game_t g;
    fetch_record(w, ann.table, 1, &g);
    int status;
    char path[96];
    snprintf(path, sizeof path, "/api/people/%s/games/0.fgn", id);
    char *fgn = http(w, path, &status);
    assert_int_equal(status, 200);
    char *posted = http_post(w, "/replay", fgn, strlen(fgn), &status);
    assert_int_equal(status, 200);
    snprintf(path, sizeof path, "/api/people/%s/games/0.json", id);
    char *json = http(w, path, &status);
    assert_int_equal(status, 200);
    assert_string_equal(json, posted);
    check_replay(json, &g);   /* every hand the record's, no more */
    free(posted);
    snprintf(path, sizeof path, "/api/people/%s/games/0.json?lang=fr", id);
    char *body = http(w, path, &status);
    posted = http_post(w, "/replay?lang=fr", fgn, strlen(fgn), &status);
    assert_int_equal(status, 200);
    assert_string_equal(body, posted);
    assert_non_null(strstr(body, "Manche 1"));
    free(body);
    free(posted);
    snprintf(path, sizeof path, "/api/people/%s/games/0.json?lang=zz", id);
    body = http(w, path, &status);
    assert_int_equal(status, 200);
    assert_string_equal(body, json);   /* a language the server lacks: English */
    free(body);
    /* POST /replay's allowance spent (the clock stands still): the kept
     * game's replay is still answered, from an allowance of its own: 30
     * at once (three taken above), then 429 with Retry-After. */
    while ((body = http_post(w, "/replay", fgn, strlen(fgn), &status)), status != 429) {
        assert_int_equal(status, 200);
        free(body);
    }
    free(body);
    snprintf(path, sizeof path, "/api/people/%s/games/0.json", id);
    for (int i = 0; i < 27; i++)
        assert_int_equal(http_status(w, "%s", path), 200);
    fig_http_answer_t a;
    fig_service_http(w->svc, HTTP_CONN(0), w->http_addr, path, &a);
    assert_int_equal(a.status, 429);
    assert_int_equal(a.retry_after, 1);
    free(a.body);
    /* the record is not limited */
    assert_int_equal(http_status(w, "/api/people/%s/games/0.fgn", id), 200);
    /* A second later, one more of each: the replay's does not wait for
     * POST's, nor POST's for the replay's. */
    w->clock += 1000;
    assert_int_equal(http_status(w, "/api/people/%s/games/0.json", id), 200);
    body = http_post(w, "/replay", fgn, strlen(fgn), &status);
    assert_int_equal(status, 200);
    free(body);
    w->http_addr = "10.0.0.10";   /* what follows, from an address with its allowance */
    /* Where the record is 404, so is its replay. */
    static const char *const bad[] = { "/games/1.json", "/games/01.json", "/games/-0.json",
                                       "/games/0.JSON", "/games/0.json/", "/games/0.jsonx",
                                       "/games/.json", "/games/0json" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(http_status(w, "/api/people/%s%s", id, bad[i]), 404);
    assert_int_equal(http_status(w, "/api/people/ZZZZZZZZZZ/games/0.json"), 404);
    assert_int_equal(http_status(w, "/api/people/abc/games/0.json"), 404);
    /* Forgotten: the replay goes with the record. */
    forget_me(&ann);
    assert_int_equal(http_status(w, "/api/people/%s/games/0.json", id), 404);
    assert_int_equal(w->secrets_logged, 0);
    free(json);
    free(fgn);
    cl_close(&ann);
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replay_json),
        cmocka_unit_test(test_replay_rate),
        cmocka_unit_test(test_replay_get_rate),
        cmocka_unit_test(test_kept_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
