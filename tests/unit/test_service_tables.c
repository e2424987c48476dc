/* SPDX-License-Identifier: MIT */
/* test_service_tables.c - a table of the service (src/net/service/service_life.c and its
 * table_*.c) from its creation to its next game, driven by scripted clients
 * over the recording wire (service_harness.h):
 *
 *   - a full 4-player game, 2 people (English and French) and 2 bots, to
 *     the end; the FGN record is served only then; /metrics and /healthz;
 *   - a seat played by an operator's engine (a child process);
 *   - fair deals: no deal follows from an earlier game's record;
 *   - rematch race: two people ask at once, exactly one new game; then the
 *     earlier game's record is read off the loop and answered later;
 *   - rematch by agreement: a vote is told to everyone with the count,
 *     withdrawn, kept across a restart of the service; the next game starts
 *     only when every person seated asked, or when the one who did not is
 *     gone past the grace period (a bot agrees for them) or left the seat;
 *   - hints: on by default with one person, off with several unless asked
 *     for, to the one who asked only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figaro/figaro.h"
#include "host/util.h"
#include "service_harness.h"

static void test_full_game(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "fr", "Bob");
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("easy") "," SEAT_PERSON ","
                       SEAT_BOT("random"), NULL);
    join(&ann, ann.table, "");   /* the hello's name */
    assert_int_equal(ann.seat, 0);
    assert_null(ann.view);        /* waiting for Bob: no game yet */
    join(&bob, ann.table, "Bob");
    assert_int_equal(bob.seat, 2);
    assert_int_equal(bob.game, 1);
    /* never before the end: it holds every hand */
    assert_int_equal(http_status(w, "/tables/%s/games/1.fgn", ann.table), 409);
    fig_rng_t rng;
    fig_rng_seed(&rng, 11);
    client_t *cl[] = { &ann, &bob };
    play(w, cl, 2, &rng, NULL, NULL);
    assert_false(ann.gap || bob.gap);   /* every event, in order */
    assert_int_equal(ann.errors + bob.errors, 0);
    assert_string_equal(ann.record, bob.record);
    fig_game_t g;
    fetch_record(w, ann.table, 1, &g);
    assert_string_equal(g.names[0], "Ann");
    assert_string_equal(g.names[2], "Bob");
    /* Bob's narration is French, Ann's English. */
    const rconn_t *rb = &w->wire.c[bob.id], *ra = &w->wire.c[ann.id];
    /* Ann was told the seats' names again when the game started: Bob taking
     * seat 2 renamed the bot after him, and the record has the new name. */
    bool start_names = false;
    for (int i = 0; i < ra->n; i++) {
        json_t *f = json_loads(ra->f[i], 0, NULL);
        assert_non_null(f);
        const json_t *k = json_object_get(f, "kind");
        if (k && strcmp(json_string_value(k), "start") == 0) {
            const json_t *seats = json_object_get(f, "seats");
            assert_int_equal(json_array_size(seats), 4);
            for (int s = 0; s < 4; s++)
                assert_string_equal(json_string_value(json_object_get(json_array_get(seats, s),
                                                                      "name")), g.names[s]);
            start_names = true;
        }
        json_decref(f);
    }
    assert_true(start_names);
    bool fr = false, en = false;
    for (int i = 0; i < rb->n; i++)
        fr |= strstr(rb->f[i], "Manche 1") != NULL || strstr(rb->f[i], "manche") != NULL;
    for (int i = 0; i < ra->n; i++)
        en |= strstr(ra->f[i], "Round 1: the cards are dealt") != NULL;
    assert_true(fr && en);
    int status;
    char *body = http(w, "/metrics", &status);
    assert_int_equal(status, 200);
    assert_non_null(strstr(body, "figaro_tables 1\n"));
    assert_non_null(strstr(body, "figaro_connections 2\n"));
    unsigned long long actions = 0;
    const char *p = strstr(body, "\nfigaro_actions_total ");
    assert_non_null(p);
    actions = strtoull(p + strlen("\nfigaro_actions_total "), NULL, 10);
    int moves = g.nmoves[0] + g.nmoves[1] + g.nmoves[2];
    assert_int_equal(actions, (unsigned long long)moves);
    assert_non_null(strstr(body, "figaro_move_latency_ms_bucket{le=\"+Inf\"}"));
    free(body);
    assert_int_equal(http_status(w, "/healthz"), 200);
    assert_int_equal(http_status(w, "/tables/../../etc/passwd"), 404);
    cl_close(&ann);
    cl_close(&bob);
    world_free(w);
}

static void test_rematch_race(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob;
    sit_people(w, (person_t[]){ { &ann, "it", "Ann" }, { &bob, "en", "Bob" } }, 2,
               SEAT_PERSON "," SEAT_BOT("random") "," SEAT_PERSON, NULL);
    fig_rng_t rng;
    fig_rng_seed(&rng, 21);
    client_t *both[] = { &ann, &bob };
    /* Before the end: refused. */
    ask_rematch(&bob, ann.table, 1);
    cl_update(&bob);
    assert_string_equal(bob.error, "not_over");
    bob.errors = 0;
    play(w, both, 2, &rng, NULL, NULL);
    assert_int_equal(ann.starts, 1);
    assert_int_equal(bob.starts, 0);   /* the game started as he sat: a snapshot told him */
    /* Both ask at once (and Bob twice): exactly one new game. The three
     * come before the first one's write is back: the others wait for it. */
    char rm[100];
    snprintf(rm, sizeof rm, "{\"type\":\"rematch\",\"table\":\"%s\",\"game\":1}", ann.table);
    fig_service_message(w->svc, ann.cs, rm, strlen(rm));
    assert_int_equal(fig_service_pending(w->svc), 1);
    fig_service_message(w->svc, bob.cs, rm, strlen(rm));
    fig_service_message(w->svc, bob.cs, rm, strlen(rm));
    assert_int_equal(fig_service_pending(w->svc), 1);
    cl_update(&ann);
    cl_update(&bob);
    assert_int_equal(ann.starts, 2);
    assert_int_equal(bob.starts, 1);
    assert_int_equal(ann.game, 2);
    assert_int_equal(ann.errors + bob.errors, 0);
    /* Same seats, a new deal. */
    play(w, both, 2, &rng, NULL, NULL);
    fig_game_t g1, g2;
    fetch_record(w, ann.table, 1, &g1);
    fetch_record(w, ann.table, 2, &g2);
    assert_true(memcmp(g1.hands[0], g2.hands[0], sizeof g1.hands[0]) != 0);
    assert_string_equal(g1.names[0], g2.names[0]);

    /* Game 1 is an earlier game now: its record is read by the writer
     * thread, never on the loop: the answer comes later, to its request
     * only; one whose connection closed meanwhile gets none. */
    char path[64];
    snprintf(path, sizeof path, "/tables/%s/games/1.fgn", ann.table);
    fig_http_answer_t a[2];
    for (int k = 1; k <= 2; k++) {
        fig_service_http(w->svc, HTTP_CONN(k), "10.0.0.9", path, &a[k - 1]);
        assert_int_equal(a[k - 1].status, 0);
    }
    assert_int_equal(fig_service_pending(w->svc), 2);
    fig_service_http_gone(w->svc, HTTP_CONN(2));
    fig_service_sync(w->svc);
    assert_int_equal(w->wire.nlater[1], 1);
    assert_int_equal(w->wire.nlater[2], 0);
    assert_int_equal(w->wire.later[1].status, 200);
    fig_game_t g;
    fig_msg_t msg;
    assert_int_equal(fig_fgn_read(&g, w->wire.later[1].body, w->wire.later[1].len, &msg), FIG_OK);
    assert_memory_equal(g.hands, g1.hands, sizeof g.hands);
    free(w->wire.later[1].body);
    /* A request left waiting when the server stops is dropped with it. */
    fig_service_http(w->svc, HTTP_CONN(3), "10.0.0.9", path, &a[0]);
    assert_int_equal(a[0].status, 0);
    cl_close(&ann);
    cl_close(&bob);
    stop_service(w);
    assert_int_equal(w->wire.nlater[3], 0);
    world_free(w);
}

/* Checks that every one of the clients got, since frames from[i], exactly
 * one event of kind "rematch": seat `seat` asked (ready) or withdrew, with
 * the count `ready` of `of` and the votes `votes` ("ready waiting bot"). */
static void expect_vote(world_t *w, client_t *cl[], const int from[], int n, int seat, bool ready,
                        int nready, int of, const char *votes)
{
    for (int i = 0; i < n; i++) {
        cl_update(cl[i]);
        int seen = 0;
        for (int k = from[i]; k < frames_of(cl[i]); k++) {
            json_t *o = frame_at(w, cl[i]->id, k);
            if (!strcmp(str(o, "type"), "event") && !strcmp(str(o, "kind"), "rematch")) {
                seen++;
                assert_int_equal(num(o, "seat"), seat);
                assert_true(json_is_true(json_object_get(o, "ready")) == ready);
                const json_t *y = json_object_get(o, "rematch");
                assert_int_equal(num(y, "ready"), nready);
                assert_int_equal(num(y, "of"), of);
                char got[64] = "";
                const json_t *v = json_object_get(y, "votes");
                for (size_t s = 0; s < json_array_size(v); s++)
                    snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", s ? " " : "",
                             json_string_value(json_array_get(v, s)));
                assert_string_equal(got, votes);
                const json_t *say = json_object_get(o, "say");
                assert_int_equal(json_array_size(say), 1);
                char count[16];
                snprintf(count, sizeof count, "%d", of);
                assert_non_null(strstr(json_string_value(json_array_get(say, 0)), count));
            }
            json_decref(o);
        }
        assert_int_equal(seen, 1);
    }
}

static void test_rematch_vote(void **state)
{
    (void)state;
    world_t *w = world_new(5000);
    client_t ann, bob, eve, ann2, bob2;
    cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "fr", "Bob");
    cl_arrive(&eve, w, "10.0.0.3", "en", "Eve");
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_PERSON, NULL);
    cl_send(&eve, "{\"type\":\"spectate\",\"table\":\"%s\"}", ann.table);
    join(&ann, ann.table, "Ann");
    join(&bob, ann.table, "Bob");
    fig_rng_t rng;
    fig_rng_seed(&rng, 31);
    client_t *both[] = { &ann, &bob };
    client_t *all[] = { &ann, &bob, &eve };
    play(w, both, 2, &rng, NULL, NULL);
    int from[3];
#define MARK() for (int i_ = 0; i_ < 3; i_++) (cl_update(all[i_]), from[i_] = frames_of(all[i_]))
    /* Ann asks: everyone is told, the game does not start. */
    MARK();
    ask_rematch(&ann, ann.table, 1);
    expect_vote(w, all, from, 3, 0, true, 1, 2, "ready bot waiting");
    assert_int_equal(ann.starts, 1);
    assert_true(ann.over && bob.over && eve.over);
    /* Asking again changes nothing and tells nothing. */
    MARK();
    cl_send(&ann, "{\"type\":\"rematch\",\"table\":\"%s\",\"game\":1,\"ready\":true}", ann.table);
    for (int i = 0; i < 3; i++) {
        cl_update(all[i]);
        assert_int_equal(frames_of(all[i]), from[i]);
    }
    /* She withdraws; a bad field and a spectator's vote are refused. */
    cl_send(&ann, "{\"type\":\"rematch\",\"table\":\"%s\",\"game\":1,\"ready\":false}", ann.table);
    expect_vote(w, all, from, 3, 0, false, 0, 2, "waiting bot waiting");
    char frame[200];
    client_t *not_ann[] = { &bob, &eve }, *not_eve[] = { &ann, &bob };
    snprintf(frame, sizeof frame, "{\"type\":\"rematch\",\"table\":\"%s\",\"game\":1,"
                                  "\"ready\":\"yes\"}", ann.table);
    expect_error(w, &ann, not_ann, 2, "bad_message", frame);
    snprintf(frame, sizeof frame, "{\"type\":\"rematch\",\"table\":\"%s\",\"game\":1}", ann.table);
    expect_error(w, &eve, not_eve, 2, "not_seated", frame);
    ann.errors = eve.errors = 0;
    MARK();
    ask_rematch(&ann, ann.table, 1);
    expect_vote(w, all, from, 3, 0, true, 1, 2, "ready bot waiting");
    /* The vote is stored: after a restart, the snapshot still has it. */
    char ta[40], tb[40], code[8];
    strcpy(ta, ann.token);
    strcpy(tb, bob.token);
    strcpy(code, ann.table);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&eve);
    stop_service(w);
    start_service(w);
    cl_open(&ann2, w, "10.0.0.1");
    cl_open(&bob2, w, "10.0.0.2");
    hello_seat(&ann2, ",\"lang\":\"en\"", code, ta);
    hello_seat(&bob2, ",\"lang\":\"fr\"", code, tb);
    assert_true(bob2.snapshot && bob2.over);
    json_t *snap = NULL;
    for (int k = frames_of(&bob2) - 1; k >= 0 && !snap; k--) {
        json_t *o = frame_at(w, bob2.id, k);
        if (!strcmp(str(o, "type"), "snapshot"))
            snap = o;
        else
            json_decref(o);
    }
    assert_non_null(snap);
    const json_t *y = json_object_get(snap, "rematch");
    assert_int_equal(num(y, "game"), 1);
    assert_int_equal(num(y, "ready"), 1);
    assert_int_equal(num(y, "of"), 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(y, "votes"), 0)),
                        "ready");
    json_decref(snap);
    /* Bob asks too: the last vote starts game 2, for everyone. */
    client_t *two[] = { &ann2, &bob2 };
    int from2[2] = { frames_of(&ann2), frames_of(&bob2) };
    ask_rematch(&bob2, code, 1);
    expect_vote(w, two, from2, 2, 2, true, 2, 2, "ready bot ready");
    assert_int_equal(ann2.game, 2);
    assert_int_equal(bob2.game, 2);
    assert_false(ann2.over);
    /* Game 2 ends; Ann asks, Bob goes away: the vote waits for him through
     * the grace period, then a bot agrees for him and game 3 starts. */
    play(w, two, 2, &rng, NULL, NULL);
    ask_rematch(&ann2, code, 2);
    cl_close(&bob2);
    cl_update(&ann2);
    assert_int_equal(ann2.game, 2);
    int mark = frames_of(&ann2);
    w->clock += 4999;
    fig_service_tick(w->svc, w->clock);
    cl_update(&ann2);
    assert_int_equal(ann2.game, 2);
    assert_false(has_news(w, ann2.id, mark, "bot"));
    long long at = fig_service_next_deadline(w->svc);
    assert_true(at >= 0 && at <= w->clock + 1);
    w->clock += 1;
    fig_service_tick(w->svc, w->clock);
    fig_service_tick(w->svc, w->clock);
    cl_update(&ann2);
    assert_true(has_news(w, ann2.id, mark, "bot"));
    assert_int_equal(ann2.game, 3);
    assert_false(ann2.over);
    assert_int_equal(ann2.errors + bob2.errors, 0);
#undef MARK
    cl_close(&ann2);
    world_free(w);
}

/* Two of three people asked; the third leaves the table: their seat opens
 * (the fill bot plays it), the news carries the count without them, and the
 * next game starts. */
static void test_rematch_when_one_leaves(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, cat;
    sit_people(w, (person_t[]){ { &ann, "en", "Ann" }, { &bob, "en", "Bob" },
                                { &cat, "en", "Cat" } }, 3,
               SEAT_PERSON "," SEAT_PERSON "," SEAT_PERSON, ",\"fill\":\"random\"");
    fig_rng_t rng;
    fig_rng_seed(&rng, 41);
    client_t *all[] = { &ann, &bob, &cat };
    play(w, all, 3, &rng, NULL, NULL);
    int from[3] = { frames_of(&ann), frames_of(&bob), frames_of(&cat) };
    ask_rematch(&ann, ann.table, 1);
    expect_vote(w, all, from, 3, 0, true, 1, 3, "ready waiting waiting");
    for (int i = 0; i < 3; i++)
        from[i] = frames_of(all[i]);
    ask_rematch(&bob, ann.table, 1);
    expect_vote(w, all, from, 3, 1, true, 2, 3, "ready ready waiting");
    assert_int_equal(ann.game, 1);
    int mark = frames_of(&ann);
    cl_send(&cat, "{\"type\":\"leave\",\"table\":\"%s\"}", ann.table);
    cl_update(&cat);
    cl_update(&ann);
    cl_update(&bob);
    bool told = false;
    for (int k = mark; k < frames_of(&ann); k++) {
        json_t *o = frame_at(w, ann.id, k);
        if (!strcmp(str(o, "kind"), "seat") && !strcmp(str(o, "news"), "left")) {
            const json_t *y = json_object_get(o, "rematch");
            assert_int_equal(num(y, "ready"), 2);
            assert_int_equal(num(y, "of"), 2);
            assert_string_equal(str(o, "name"), "Cat");
            told = true;
        }
        json_decref(o);
    }
    assert_true(told);
    assert_int_equal(ann.game, 2);
    assert_int_equal(bob.game, 2);
    assert_int_equal(ann.errors + bob.errors + cat.errors, 0);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&cat);
    world_free(w);
}

/* Round 1's hands of a game of `players` seeded `seed`, as the server deals. */
static void deal_of(int players, uint64_t seed, fig_hand_t out[])
{
    fig_setup_t su;
    fig_setup_random(&su, players, seed, NULL);
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fig_game_init(g, &su);
    fig_game_deal_seeded(g);
    memcpy(out, g->hands[0], (size_t)players * sizeof out[0]);
    free(g);
}

/* Nobody can foretell a deal (docs/server.md, "Fairness"). Before, game g's
 * seed was fig_seed_derive(table seed, g, 0), a chain of reversible steps:
 * game 1's record (its seed) gave the table's seed, hence every later deal.
 * Here the table's seed is read from the database -- all the old inversion
 * could learn -- and neither game 1 nor the rematch follows from it or from
 * game 1's seed; two tables made by the same request deal differently. */
static void test_fair_deals(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann;
    sit_people(w, &(person_t){ &ann, "en", "Ann" }, 1,
               SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("random"), NULL);
    fig_rng_t rng;
    fig_rng_seed(&rng, 31);
    client_t *one[] = { &ann };
    play(w, one, 1, &rng, NULL, NULL);
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT seed FROM tables WHERE code = '%s'", ann.table);
    uint64_t table_seed = db_u64(w, sql);
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fetch_record(w, ann.table, 1, g);
    uint64_t seed1 = g->setup.seed;
    snprintf(sql, sizeof sql, "SELECT seed FROM games WHERE code = '%s' AND game = 1", ann.table);
    assert_true(db_u64(w, sql) == seed1);   /* the record's seed is the stored one */
    assert_true(seed1 != fig_seed_derive(table_seed, 1, 0));
    /* The rematch: what the old derivation foretells is not what is dealt. */
    ask_rematch(&ann, ann.table, 1);
    cl_update(&ann);
    assert_int_equal(ann.game, 2);
    play(w, one, 1, &rng, NULL, NULL);
    fetch_record(w, ann.table, 2, g);
    uint64_t foretold[] = { fig_seed_derive(table_seed, 2, 0), fig_seed_derive(seed1, 2, 0),
                            fig_seed_derive(seed1, 1, 0), seed1 + 1, seed1 };
    for (size_t i = 0; i < sizeof foretold / sizeof foretold[0]; i++) {
        fig_hand_t hands[FIG_MAX_PLAYERS];
        deal_of(3, foretold[i], hands);
        assert_true(g->setup.seed != foretold[i]);
        assert_true(memcmp(hands, g->hands[0], 3 * sizeof hands[0]) != 0);
    }
    /* Two tables of the same request: two different deals. */
    char code[2][8];
    for (int k = 0; k < 2; k++) {
        create_table(&ann, SEAT_BOT("random") "," SEAT_BOT("random") ","
                           SEAT_BOT("random"), NULL);
        snprintf(code[k], sizeof code[k], "%s", ann.table);
    }
    uint64_t s[2];
    fig_hand_t deal[2][FIG_MAX_PLAYERS];
    for (int k = 0; k < 2; k++) {
        snprintf(sql, sizeof sql, "SELECT seed FROM games WHERE code = '%s' AND game = 1",
                 code[k]);
        s[k] = db_u64(w, sql);
        deal_of(3, s[k], deal[k]);
    }
    assert_true(s[0] != s[1]);
    assert_true(memcmp(deal[0], deal[1], 3 * sizeof deal[0][0]) != 0);
    free(g);
    cl_close(&ann);
    world_free(w);
}

/* A table with an operator's engine: a person, the engine, a bot. */
static void test_engine_seat(void **state)
{
    (void)state;
    const char *fig = getenv("FIGARO");
    if ((!fig && access("build/test/figaro", X_OK) != 0) || (fig && access(fig, X_OK) != 0))
        skip();
    world_t *w = world_new(30000);
    client_t ann;
    sit_people(w, &(person_t){ &ann, "en", "Ann" }, 1,
               SEAT_PERSON ",{\"kind\":\"engine\",\"engine\":\"greedy-engine\"},"
               SEAT_BOT("random"), NULL);

    fig_rng_t rng;
    fig_rng_seed(&rng, 4);
    client_t *one[] = { &ann };
    play(w, one, 1, &rng, NULL, NULL);
    fig_game_t g;
    fetch_record(w, ann.table, 1, &g);
    cl_close(&ann);
    world_free(w);
}

/* The hints option of the latest snapshot connection `id` got. */
static bool snapshot_hints(const world_t *w, int id)
{
    json_t *snap = NULL;
    assert_true(frames_typed(w, id, 0, "snapshot", &snap) > 0);
    bool on = json_is_true(json_object_get(json_object_get(snap, "options"), "hints"));
    json_decref(snap);
    return on;
}

/* Hints (docs/protocol.md, hint): on by default at a table of one person
 * and bots, off at a table of several people unless asked for, shown to
 * everyone in the options; a hint answers the turn it was asked for with a
 * legal move and its reasons, and goes to the one who asked and nobody
 * else (it shows their hand); asked and then overtaken by the move, it is
 * dropped; refused off the turn, stale, or at a table without hints. */
static void test_hints(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, eve, sam;
    cl_arrive(&ann, w, "10.0.0.1", "fr", "Ann");
    cl_arrive(&bob, w, "10.0.0.2", "en", "Bob");
    cl_arrive(&eve, w, "10.0.0.3", "en", "Eve");
    cl_arrive(&sam, w, "10.0.0.4", "en", "Sam");

    /* One person and bots: on by default. */
    create_table(&ann, SEAT_PERSON "," SEAT_BOT("random") "," SEAT_BOT("random"), NULL);
    join(&ann, ann.table, "Ann");
    assert_true(snapshot_hints(w, ann.id));
    wait_turn(w, &ann);
    int from = frames_of(&ann);
    cl_send(&ann, "{\"type\":\"hint\",\"table\":\"%s\",\"n\":%lld}", ann.table, ann.game_n - 1);
    cl_update(&ann);
    assert_string_equal(ann.error, "stale");
    cl_send(&ann, "{\"type\":\"hint\",\"table\":\"%s\",\"n\":%lld}", ann.table, ann.game_n);
    json_t *h = wait_frame(w, ann.id, from, "hint");
    assert_int_equal(num(h, "n"), ann.game_n);
    const char *a = str(h, "action");
    bool legal = false;
    const json_t *ls = json_object_get(ann.view, "legal");
    for (size_t i = 0; i < json_array_size(ls); i++)
        legal |= !strcmp(json_string_value(json_array_get(ls, i)), a);
    assert_true(legal);
    const json_t *say = json_object_get(h, "say");
    assert_true(json_array_size(say) >= 1);
    assert_non_null(strstr(json_string_value(json_array_get(say, 0)), "Conseil"));   /* fr */
    assert_true(json_array_size(json_object_get(h, "top")) >= 1);
    json_decref(h);
    assert_int_equal(ann.errors, 1);

    /* Two people: off unless asked for, and refused. */
    create_table(&bob, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random"), NULL);
    join(&bob, bob.table, "Bob");
    join(&eve, bob.table, "Eve");
    assert_false(snapshot_hints(w, bob.id));
    client_t *mover = wait_mover(w, &bob, &eve);
    cl_send(mover, "{\"type\":\"hint\",\"table\":\"%s\",\"n\":%lld}", bob.table, mover->game_n);
    cl_update(mover);
    assert_string_equal(mover->error, "hints_off");

    /* Two people who asked for hints: only the one who asks gets one; the
     * other, who is not to move, is refused; a spectator sees none. */
    create_table(&bob, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random"), ",\"hints\":true");
    join(&bob, bob.table, "Bob");
    join(&eve, bob.table, "Eve");
    spectate(&sam, bob.table);
    assert_true(snapshot_hints(w, sam.id));
    mover = wait_mover(w, &bob, &eve);
    client_t *other = mover == &bob ? &eve : &bob;
    int fm = frames_of(mover), fo = frames_of(other), fs = frames_of(&sam);
    cl_send(other, "{\"type\":\"hint\",\"table\":\"%s\",\"n\":%lld}", bob.table, other->game_n);
    cl_update(other);
    assert_string_equal(other->error, "not_your_turn");
    cl_send(mover, "{\"type\":\"hint\",\"table\":\"%s\",\"n\":%lld}", bob.table, mover->game_n);
    json_decref(wait_frame(w, mover->id, fm, "hint"));
    /* Asked again and then overtaken by the move itself: dropped. */
    fig_rng_t rng;
    fig_rng_seed(&rng, 3);
    long long asked = mover->game_n;
    cl_send(mover, "{\"type\":\"hint\",\"table\":\"%s\",\"n\":%lld}", bob.table, asked);
    assert_true(cl_play(mover, &rng));
    long long end = fig_clock_ms() + 1500;   /* well past the hint's 0.3 s */
    while (fig_clock_ms() < end)
        pump_world(w, 20);
    cl_update(mover);
    assert_int_equal(frames_typed(w, mover->id, fm, "hint", NULL), 1);
    assert_int_equal(frames_typed(w, other->id, fo, "hint", NULL), 0);
    assert_int_equal(frames_typed(w, sam.id, fs, "hint", NULL), 0);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&eve);
    cl_close(&sam);
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_game),
        cmocka_unit_test(test_rematch_race),
        cmocka_unit_test(test_rematch_vote),
        cmocka_unit_test(test_rematch_when_one_leaves),
        cmocka_unit_test(test_fair_deals),
        cmocka_unit_test(test_engine_seat),
        cmocka_unit_test(test_hints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
