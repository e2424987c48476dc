/* SPDX-License-Identifier: MIT */
/* test_service_conns.c - connections that come, go and come back
 * (src/net/service/service_conns.c, service_clock.c), over the recording wire
 * (service_harness.h):
 *
 *   - reconnecting mid-game with the last event number gives exactly the
 *     missed events, in order; with an unknown epoch, a snapshot;
 *   - grace period: a fake clock passed to fig_service_tick; the bot plays
 *     the seat only once the grace period is over, the table is told, the
 *     person takes the seat back with the token; the same for a turn's time
 *     limit and "back";
 *   - the story after a reload: a connection that takes a seat back or
 *     starts watching mid-game gets in its snapshot exactly the sentences
 *     the live events carried to that seat (or to a spectator), in its
 *     language; after a restart, every deal and action of the game still;
 *   - a connection that never says hello is closed; an address has at most
 *     8 connections. */
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
#include "host/util.h"
#include "service_harness.h"

static void test_reconnect_since(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, bob2, bob3;
    sit_people(w, (person_t[]){ { &ann, "en", "Ann" }, { &bob, "nl", "Bob" } }, 2,
               SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("easy"), NULL);
    fig_rng_t rng;
    fig_rng_seed(&rng, 5);
    client_t *both[] = { &ann, &bob };
    int want[2] = { 10, -1 };
    play(w, both, 2, &rng, after_moves, want);
    long long seen = bob.last_n;
    char token[40];
    strcpy(token, bob.token);
    cl_close(&bob);
    /* Ann plays on alone while it is not Bob's turn; the bots too. */
    client_t *solo[] = { &ann };
    want[0] = 20;
    want[1] = bob.seat;
    play(w, solo, 1, &rng, after_moves, want);
    for (int i = 0; i < 50; i++)
        pump_world(w, 5);
    cl_update(&ann);
    assert_true(ann.last_n > seen);   /* Bob missed something */
    cl_open(&bob2, w, "10.0.0.3");    /* from anywhere */
    cl_send(&bob2, "{\"type\":\"hello\",\"v\":1,\"lang\":\"nl\",\"seats\":[{\"table\":\"%s\","
                   "\"token\":\"%s\",\"since\":{\"epoch\":\"%s\",\"n\":%lld}}]}",
            ann.table, token, fig_service_epoch(w->svc), seen);
    /* The missed events, exactly, in order, and no snapshot. */
    const rconn_t *r = &w->wire.c[bob2.id];
    long long expect = seen + 1;
    bool seated = false;
    for (int i = 0; i < r->n; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        const char *type = str(o, "type");
        assert_string_not_equal(type, "snapshot");
        assert_string_not_equal(type, "error");
        if (!strcmp(type, "seated"))
            seated = true;
        if (!strcmp(type, "event")) {
            assert_int_equal(num(o, "n"), expect++);
            /* The same event as Ann saw it live: kind, seat, action, piles. */
            json_t *live = NULL;
            const rconn_t *ra = &w->wire.c[ann.id];
            for (int k = 0; k < ra->n && !live; k++) {
                json_t *x = json_loads(ra->f[k], 0, NULL);
                if (!strcmp(str(x, "type"), "event") && num(x, "n") == num(o, "n"))
                    live = x;
                else
                    json_decref(x);
            }
            assert_non_null(live);
            assert_string_equal(str(o, "kind"), str(live, "kind"));
            assert_string_equal(str(o, "action"), str(live, "action"));
            assert_int_equal(num(o, "seat"), num(live, "seat"));
            json_t *va = json_object_get(live, "view"), *vb = json_object_get(o, "view");
            assert_true(!va == !vb);
            if (va) {
                assert_true(json_equal(json_object_get(va, "piles"), json_object_get(vb, "piles")));
                assert_true(json_equal(json_object_get(va, "hand_sizes"),
                                       json_object_get(vb, "hand_sizes")));
            }
            json_decref(live);
        }
        json_decref(o);
    }
    assert_true(seated);
    cl_update(&ann);
    assert_int_equal(expect - 1, ann.last_n);   /* everything Ann saw, Bob now has */
    bob2.last_n = 0;
    cl_update(&bob2);
    assert_int_equal(bob2.seat, bob.seat);
    /* An unknown epoch (a client of an older life): a snapshot. */
    cl_close(&bob2);
    cl_open(&bob3, w, "10.0.0.3");
    cl_send(&bob3, "{\"type\":\"hello\",\"v\":1,\"seats\":[{\"table\":\"%s\",\"token\":\"%s\","
                   "\"since\":{\"epoch\":\"0123456789abcdef\",\"n\":%lld}}]}",
            ann.table, token, seen);
    cl_update(&bob3);
    cl_update(&ann);
    assert_true(bob3.snapshot);
    assert_int_equal(bob3.last_n, ann.last_n);
    client_t *again[] = { &ann, &bob3 };
    play(w, again, 2, &rng, NULL, NULL);
    assert_false(bob3.gap);
    cl_close(&ann);
    cl_close(&bob3);
    world_free(w);
}

static bool bobs_turn(client_t *cl[], int n, void *ctx)
{
    (void)ctx;
    (void)n;
    client_t *b = cl[1];
    return b->view && num(b->view, "turn") == b->seat && !b->over &&
           strcmp(str(b->view, "phase"), "play") == 0;
}

/* The number of actions of seat s among the events of connection id from
 * frame `from` on. */
static int actions_by(const world_t *w, int id, int from, int s)
{
    int k = 0;
    const rconn_t *r = &w->wire.c[id];
    for (int i = from; i < r->n; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        if (!strcmp(str(o, "kind"), "action") && num(o, "seat") == s)
            k++;
        json_decref(o);
    }
    return k;
}

/* The status the seat news `news` about `seat` gives that seat in its "seats". */
static const char *news_status(const world_t *w, int id, int from, const char *news, int seat)
{
    static char status[16];
    status[0] = '\0';
    const rconn_t *r = &w->wire.c[id];
    for (int i = from; i < r->n && !status[0]; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        if (!strcmp(str(o, "kind"), "seat") && !strcmp(str(o, "news"), news)) {
            json_t *x = json_array_get(json_object_get(o, "seats"), (size_t)seat);
            snprintf(status, sizeof status, "%s", str(x, "status"));
        }
        json_decref(o);
    }
    return status;
}

/* A frame's move clock: its turn_ms_left, -1 for null, -2 when it has none. */
static long long clock_in(const json_t *o)
{
    const json_t *v = json_object_get(o, "turn_ms_left");
    return !v ? -2 : json_is_null(v) ? -1 : json_integer_value(v);
}

/* The move clock of the seat news `news` among connection id's frames from
 * `from` on (the first such news), -3 when there is none. */
static long long news_clock(const world_t *w, int id, int from, const char *news)
{
    long long c = -3;
    const rconn_t *r = &w->wire.c[id];
    for (int i = from; i < r->n && c == -3; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        if (!strcmp(str(o, "kind"), "seat") && !strcmp(str(o, "news"), news))
            c = clock_in(o);
        json_decref(o);
    }
    return c;
}

/* Every deal and action told live from frame `from` on gives its turn the
 * whole move_seconds when a person (seats a and b, no bot for them) is to
 * play, and no clock otherwise; returns how many gave a person the turn. */
static int check_turn_clocks(const world_t *w, int id, int from, int a, int b, long long ms)
{
    int people = 0;
    const rconn_t *r = &w->wire.c[id];
    for (int i = from; i < r->n; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        const char *kind = str(o, "kind");
        if (!strcmp(kind, "deal") || !strcmp(kind, "action")) {
            const json_t *v = json_object_get(o, "view");
            long long turn = num(v, "turn");
            bool person = !strcmp(str(v, "phase"), "play") && (turn == a || turn == b);
            people += person;
            assert_int_equal(clock_in(o), person ? ms : -1);
        }
        json_decref(o);
    }
    return people;
}

static void test_grace_and_time_limit(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, bob2;
    sit_people(w, (person_t[]){ { &ann, "en", "Ann" }, { &bob, "en", "Bob" } }, 2,
               SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random"),
               ",\"move_seconds\":60,\"fill\":\"random\"");
    fig_rng_t rng;
    fig_rng_seed(&rng, 9);
    client_t *both[] = { &ann, &bob };
    play(w, both, 2, &rng, bobs_turn, NULL);
    /* The server tells the move clock: every turn a person is given starts
     * with the whole minute; a spectator who comes now is told what is left
     * of Bob's, to the millisecond. */
    assert_true(check_turn_clocks(w, ann.id, 0, ann.seat, bob.seat, 60000) > 0);
    w->clock += 1234;
    client_t eve;
    cl_arrive(&eve, w, "10.0.0.3", "en", "Eve");
    int efrom = frames_of(&eve);
    spectate(&eve, ann.table);
    {
        const rconn_t *r = &w->wire.c[eve.id];
        json_t *snap = NULL;
        for (int i = efrom; i < r->n && !snap; i++) {
            json_t *o = json_loads(r->f[i], 0, NULL);
            if (!strcmp(str(o, "type"), "snapshot"))
                snap = o;
            else
                json_decref(o);
        }
        assert_non_null(snap);
        assert_int_equal(clock_in(snap), fig_service_next_deadline(w->svc) - w->clock);
        assert_true(clock_in(snap) > 0 && clock_in(snap) <= 60000 - 1234);
        json_decref(snap);
    }
    cl_close(&eve);
    /* Bob goes at his turn: the seat is away, the game waits for him. */
    int from = frames_of(&ann);
    char token[40];
    strcpy(token, bob.token);
    int bseat = bob.seat;
    long long turn_due = fig_service_next_deadline(w->svc);
    cl_close(&bob);
    cl_update(&ann);
    assert_true(has_news(w, ann.id, from, "away"));
    assert_string_equal(news_status(w, ann.id, from, "away", bseat), "away");
    /* Away does not stop the clock: the news tells what is left of it. */
    assert_int_equal(news_clock(w, ann.id, from, "away"), turn_due - w->clock);
    long long left = fig_service_next_deadline(w->svc) - w->clock;
    assert_true(left > 0 && left <= 30000);
    w->clock += 29999;
    fig_service_tick(w->svc, w->clock);
    for (int i = 0; i < 20; i++)
        pump_world(w, 5);
    assert_false(has_news(w, ann.id, from, "bot"));
    assert_int_equal(actions_by(w, ann.id, from, bseat), 0);
    /* The grace period is over: a bot plays Bob's seat and the table is told. */
    w->clock += 1;
    fig_service_tick(w->svc, w->clock);
    assert_true(has_news(w, ann.id, from, "bot"));
    /* A bot plays Bob's turn: no clock, and the seat says so. */
    assert_string_equal(news_status(w, ann.id, from, "bot", bseat), "bot");
    assert_int_equal(news_clock(w, ann.id, from, "bot"), -1);
    client_t *solo[] = { &ann };
    long long end = fig_clock_ms() + 30000;
    while (actions_by(w, ann.id, from, bseat) < 2 && !ann.over && fig_clock_ms() < end) {
        cl_play(&ann, &rng);
        pump_world(w, 10);
    }
    (void)solo;
    assert_true(actions_by(w, ann.id, from, bseat) >= 1);
    /* Bob takes the seat back with his token. */
    from = frames_of(&ann);
    cl_open(&bob2, w, "10.0.0.9");
    hello_seat(&bob2, "", ann.table, token);
    assert_int_equal(bob2.seat, bseat);
    assert_int_equal(bob2.errors, 0);
    cl_update(&ann);
    assert_true(has_news(w, ann.id, from, "back"));
    assert_string_equal(news_status(w, ann.id, from, "back", bseat), "present");
    /* Ann's turn runs out (60 s): a bot plays it; "back" takes it again. */
    client_t *two[] = { &ann, &bob2 };
    (void)two;
    end = fig_clock_ms() + 30000;
    while (!my_turn(&ann) && !ann.over && fig_clock_ms() < end) {
        cl_play(&bob2, &rng);
        pump_world(w, 10);
        cl_update(&ann);
    }
    if (!ann.over) {
        from = frames_of(&ann);
        int aseat = ann.seat;
        long long due = fig_service_next_deadline(w->svc);
        assert_true(due > w->clock && due <= w->clock + 60000);
        w->clock = due;
        fig_service_tick(w->svc, w->clock);
        cl_update(&ann);
        assert_true(has_news(w, ann.id, from, "timeout"));
        assert_string_equal(news_status(w, ann.id, from, "timeout", aseat), "bot");
        assert_int_equal(news_clock(w, ann.id, from, "timeout"), -1);
        end = fig_clock_ms() + 30000;
        while (actions_by(w, ann.id, from, aseat) < 1 && !ann.over && fig_clock_ms() < end) {
            cl_play(&bob2, &rng);
            pump_world(w, 10);
            cl_update(&ann);
        }
        assert_true(actions_by(w, ann.id, from, aseat) >= 1 || ann.over);
        /* While the bot plays, Ann's own action is refused... */
        cl_send(&ann, "{\"type\":\"back\",\"table\":\"%s\"}", ann.table);
        cl_update(&ann);
        assert_true(has_news(w, ann.id, from, "back"));
        assert_string_equal(news_status(w, ann.id, from, "back", aseat), "present");
        assert_int_equal(ann.errors, 0);
        /* From here on every turn of Ann or Bob starts whole again. */
        int mark = frames_of(&ann);
        client_t *rest[] = { &ann, &bob2 };
        play(w, rest, 2, &rng, NULL, NULL);
        check_turn_clocks(w, ann.id, mark, aseat, bseat, 60000);
    }
    client_t *fin[] = { &ann, &bob2 };
    play(w, fin, 2, &rng, NULL, NULL);
    cl_close(&ann);
    cl_close(&bob2);
    world_free(w);
}

/* The narration connection id received for game `game`, one string per
 * sentence ("kind\tsentence"; a chat line "chat\tname: text"): its
 * snapshots' stories and its events, until it was unseated. */
static json_t *told(const world_t *w, int id, int game)
{
    json_t *out = json_array();
    const rconn_t *r = &w->wire.c[id];
    char line[1000];
    for (int i = 0; i < r->n; i++) {
        json_t *o = json_loads(r->f[i], 0, NULL);
        const char *type = str(o, "type");
        if (!strcmp(type, "unseated")) {
            json_decref(o);
            break;
        }
        const json_t *items = NULL;
        json_t *one = NULL;
        if (!strcmp(type, "snapshot") && num(o, "game") == game) {
            items = json_object_get(o, "log");
            json_array_clear(out);   /* a snapshot tells the whole game again */
        } else if (!strcmp(type, "event") && num(o, "game") == game) {
            one = json_array();
            json_array_append(one, o);
            items = one;
        }
        for (size_t k = 0; k < json_array_size(items); k++) {
            const json_t *e = json_array_get(items, k);
            const char *kind = str(e, "kind");
            if (!strcmp(kind, "chat")) {
                snprintf(line, sizeof line, "chat\t%s: %s", str(e, "name"), str(e, "text"));
                json_array_append_new(out, json_string(line));
                continue;
            }
            const json_t *say = json_object_get(e, "say");
            for (size_t j = 0; j < json_array_size(say); j++) {
                snprintf(line, sizeof line, "%s\t%s", kind,
                         json_string_value(json_array_get(say, j)));
                json_array_append_new(out, json_string(line));
            }
        }
        json_decref(one);
        json_decref(o);
    }
    return out;
}

/* Only the lines of a game's steps and start (what a restart keeps). */
static json_t *steps_only(json_t *lines)
{
    json_t *out = json_array();
    for (size_t i = 0; i < json_array_size(lines); i++) {
        const char *l = json_string_value(json_array_get(lines, i));
        if (!strncmp(l, "start\t", 6) || !strncmp(l, "deal\t", 5) || !strncmp(l, "action\t", 7))
            json_array_append_new(out, json_string(l));
    }
    json_decref(lines);
    return out;
}

static void expect_same(json_t *live, json_t *restored)
{
    if (!json_equal(live, restored)) {
        char *a = json_dumps(live, JSON_INDENT(1)), *b = json_dumps(restored, JSON_INDENT(1));
        fprintf(stderr, "live %s\nrestored %s\n", a, b);
        free(a);
        free(b);
        fail_msg("the story differs from what was told live");
    }
    assert_true(json_array_size(live) > 20);
    json_decref(live);
    json_decref(restored);
}

/* after_moves, but stopping only at the turn of seat ctx[1]: a person's
 * turn, where nothing moves until they act. */
static bool moves_then_turn(client_t *cl[], int n, void *ctx)
{
    int wait = ((int *)ctx)[1];
    int want[2] = { ((int *)ctx)[0], -1 };
    const json_t *v = cl[0]->view;
    return v && after_moves(cl, n, want) && num(v, "turn") == wait && !cl[0]->over &&
           strcmp(str(v, "phase"), "play") == 0;
}

static void test_story_after_reload(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, eve, ann2, bob2, eve2, ann3, eve3;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "fr", "Bob");
    cl_arrive(&eve, w, "10.0.0.3", "nl", "Eve");
    create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random") ","
                       SEAT_BOT("easy"), NULL);
    cl_send(&eve, "{\"type\":\"spectate\",\"table\":\"%s\"}", ann.table);
    join(&ann, ann.table, "Ann");
    join(&bob, ann.table, "Bob");
    fig_rng_t rng;
    fig_rng_seed(&rng, 17);
    client_t *both[] = { &ann, &bob };
    int want[2] = { 30, 1 };   /* then Bob's turn: nothing moves while the others reload */
    play(w, both, 2, &rng, moves_then_turn, want);
    cl_send(&eve, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"goed gespeeld\"}", ann.table);
    cl_update(&ann);
    cl_update(&bob);
    cl_update(&eve);
    /* Each takes its place again from another connection (a reload): the
     * snapshot's story is what the live events told that seat, word for
     * word, in its language: Ann's in English from her seat, Bob's in French
     * from his, Eve's in Dutch as a spectator. */
    cl_open(&ann2, w, "10.0.1.1");
    cl_open(&bob2, w, "10.0.1.2");
    cl_open(&eve2, w, "10.0.1.3");
    hello_seat(&ann2, ",\"lang\":\"en\"", ann.table, ann.token);
    hello_seat(&bob2, ",\"lang\":\"fr\"", ann.table, bob.token);
    hello(&eve2, "nl", "Eve");
    spectate(&eve2, ann.table);
    assert_true(ann2.snapshot && bob2.snapshot && eve2.snapshot);
    json_t *ann_live = told(w, ann.id, 1);
    /* Ann's sentences are her own ("You ..."), Bob's are French. */
    bool you = false;
    for (size_t i = 0; i < json_array_size(ann_live); i++)
        you |= strstr(json_string_value(json_array_get(ann_live, i)), "\tYou ") != NULL;
    assert_true(you);
    expect_same(ann_live, told(w, ann2.id, 1));
    expect_same(told(w, bob.id, 1), told(w, bob2.id, 1));
    expect_same(told(w, eve.id, 1), told(w, eve2.id, 1));
    /* After a restart of the server, the deals and actions are all still
     * told (the seats' news and chat of the last life are not). */
    client_t *two[] = { &ann2, &bob2 };
    want[0] = 45;
    play(w, two, 2, &rng, moves_then_turn, want);
    cl_update(&eve);
    json_t *ann_before = steps_only(told(w, ann2.id, 1));
    json_t *eve_before = steps_only(told(w, eve.id, 1));
    char token[40], code[8];
    strcpy(token, ann.token);
    strcpy(code, ann.table);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&eve);
    cl_close(&ann2);
    cl_close(&bob2);
    cl_close(&eve2);
    stop_service(w);
    start_service(w);
    cl_open(&ann3, w, "10.0.2.1");
    cl_open(&eve3, w, "10.0.2.3");
    hello_seat(&ann3, ",\"lang\":\"en\"", code, token);
    hello(&eve3, "nl", "Eve");
    spectate(&eve3, code);
    assert_true(ann3.snapshot && eve3.snapshot);
    expect_same(ann_before, steps_only(told(w, ann3.id, 1)));
    expect_same(eve_before, steps_only(told(w, eve3.id, 1)));
    cl_close(&ann3);
    cl_close(&eve3);
    world_free(w);
}

static void test_hello_deadline_and_addr_cap(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t c[9];
    for (int i = 0; i < 8; i++)
        cl_open(&c[i], w, "10.9.9.9");
    /* The ninth from that address is refused. */
    assert_null(fig_service_open(w->svc, (fig_conn_t *)(intptr_t)99, "10.9.9.9"));
    hello(&c[0], "en", "A");
    long long due = fig_service_next_deadline(w->svc);
    assert_int_equal(due, w->clock + 10000);
    w->clock = due;
    fig_service_tick(w->svc, w->clock);
    assert_false(w->wire.c[c[0].id].closed);
    for (int i = 1; i < 8; i++)
        assert_true(w->wire.c[c[i].id].closed);   /* they never said hello */
    for (int i = 0; i < 8; i++)
        cl_close(&c[i]);
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reconnect_since),
        cmocka_unit_test(test_grace_and_time_limit),
        cmocka_unit_test(test_story_after_reload),
        cmocka_unit_test(test_hello_deadline_and_addr_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
