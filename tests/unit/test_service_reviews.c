/* SPDX-License-Identifier: MIT */
/* test_service_reviews.c - reviews (src/net/service/service_reviews.c): only of
 * one's own seat, only once the game is over, computed on the pool, told
 * to the one who asked in their language, stored and then read back (also
 * after a restart) rather than computed again, the same when computed
 * again; stopped when the asker goes. Over the recording wire
 * (service_harness.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/review.h"
#include "host/util.h"
#include "service_harness.h"

static json_t *ask_review(world_t *w, client_t *c, int game)
{
    int from = frames_of(c);
    w->clock += 100;
    cl_send(c, "{\"type\":\"review\",\"table\":\"%s\",\"game\":%d}", c->table, game);
    return wait_frame(w, c->id, from, "review");
}

static void expect_review_error(world_t *w, client_t *c, const char *msg, const char *code)
{
    int from = frames_of(c);
    w->clock += 100;
    cl_send(c, "%s", msg);
    json_t *e = wait_frame(w, c->id, from, "error");
    assert_string_equal(str(e, "code"), code);
    assert_string_equal(str(e, "re"), "review");
    assert_true(strlen(str(e, "text")) > 10);
    json_decref(e);
}

static long long stored_reviews(const world_t *w, const char *code, const char *set)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char sql[300];
    if (set) {
        snprintf(sql, sizeof sql, "UPDATE reviews SET review = %s WHERE code = '%s'", set, code);
        assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM reviews WHERE code = '%s'", code);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long long n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* The review (docs/protocol.md, review) of seat `seat` against the record:
 * every move of that seat reviewed, the graded ones told with the move that
 * was played there, in French words. */
static void check_review(const json_t *rv, const fig_game_t *g, int seat, int game)
{
    assert_int_equal(num(rv, "game"), game);
    assert_int_equal(num(rv, "seat"), seat);
    int mine = 0;
    for (int r = 0; r < g->dealt; r++)
        for (int i = 0; i < g->nmoves[r]; i++)
            mine += g->moves[r][i].seat == seat;
    assert_int_equal(num(rv, "reviewed"), mine);
    assert_true(num(rv, "iterations") > 0);
    const json_t *moves = json_object_get(rv, "moves");
    const json_t *counts = json_object_get(rv, "counts");
    assert_int_equal(json_array_size(moves),
                     num(counts, "inaccuracy") + num(counts, "mistake") + num(counts, "blunder"));
    assert_true(json_array_size(moves) > 0);   /* random moves: some are graded */
    assert_non_null(strstr(str(rv, "summary"), "coups"));   /* "... en N coups" */
    for (size_t k = 0; k < json_array_size(moves); k++) {
        const json_t *m = json_array_get(moves, k);
        int r = (int)num(m, "round") - 1, i = (int)num(m, "index");
        assert_true(r >= 0 && r < g->dealt && i >= 0 && i < g->nmoves[r]);
        assert_int_equal(g->moves[r][i].seat, seat);
        char a[16];
        assert_string_equal(str(m, "played"), fig_act_format(g->moves[r][i].action, a, sizeof a));
        assert_string_not_equal(str(m, "played"), str(m, "best"));
        assert_string_not_equal(str(m, "grade"), "good");
        assert_true(strlen(str(m, "played_say")) > 0 && strlen(str(m, "best_say")) > 0);
        assert_non_null(strstr(str(m, "say"), " de la manche "));   /* in French */
        assert_null(strstr(str(m, "say"), " 0 sur 0 "));   /* its place in its round */
        double pw = json_number_value(json_object_get(m, "played_win"));
        double bw = json_number_value(json_object_get(m, "best_win"));
        assert_true(pw >= 0 && pw <= 1 && bw >= 0 && bw <= 1);
    }
}

/* Reviews: asked by a seated person once the game is over, computed on the
 * pool, told to that person alone in their language, stored once and read
 * back afterwards (even after a restart) instead of being computed again;
 * computed again (the stored one gone) it is the same. Refused during the
 * game, to a spectator, for another seat; stopped when its asker goes. */
static void test_review(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    /* The deal comes from the system's randomness (fair tables): enough
     * search that some of Ann's random moves stand out of its noise in any. */
    stop_service(w);
    w->review_spec = "ismcts:iters=1000," FIG_REVIEW_OPTIONS;
    start_service(w);
    client_t ann, bob, eve;
    client_t *cl[] = { &ann, &bob };
    fig_rng_t rng;
    fig_rng_seed(&rng, 25);
    fig_game_t *g = malloc(sizeof *g);
    fig_review_t *offline = malloc(sizeof *offline);
    assert_non_null(g);
    assert_non_null(offline);
    char msg[200];
    /* Some deals leave nothing to grade in a random player's game (her
     * chance to win and her place are settled early, and no move of hers
     * moves them): the same review computed here from the record says so,
     * and the game is played again at a new table, by new connections. */
    for (int tries = 0;; tries++) {
        assert_true(tries < 6);
        char addr[3][32];
        for (int k = 0; k < 3; k++)
            snprintf(addr[k], sizeof addr[k], "10.0.%d.%d", tries, k + 1);
        cl_open(&ann, w, addr[0]);
        cl_open(&bob, w, addr[1]);
        cl_open(&eve, w, addr[2]);
        hello(&ann, "fr", "Ann");
        hello(&bob, "en", "Bob");
        hello(&eve, "en", "Eve");
        create_table(&ann, SEAT_PERSON "," SEAT_PERSON "," SEAT_BOT("random"), NULL);
        join(&ann, ann.table, "Ann");
        join(&bob, ann.table, "Bob");
        snprintf(eve.table, sizeof eve.table, "%s", ann.table);
        spectate(&eve, ann.table);
        snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1}",
                 ann.table);
        expect_review_error(w, &ann, msg, "not_over");   /* nothing during the game */
        play(w, cl, 2, &rng, NULL, NULL);
        fetch_record(w, ann.table, 1, g);
        fig_review_opts_t ro = { .spec = w->review_spec };
        fig_msg_t why;
        assert_int_equal(fig_review_game(g, ann.seat, &ro, offline, &why), FIG_OK);
        if (offline->count[FIG_REVIEW_INACCURACY] + offline->count[FIG_REVIEW_MISTAKE] +
            offline->count[FIG_REVIEW_BLUNDER] > 0)
            break;
    }

    expect_review_error(w, &eve, msg, "not_seated");
    snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1,\"seat\":%d}",
             ann.table, bob.seat);
    expect_review_error(w, &ann, msg, "not_your_seat");
    snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":2}", ann.table);
    expect_review_error(w, &ann, msg, "not_over");
    assert_int_equal(stored_reviews(w, ann.table, NULL), 0);

    int bob_from = frames_of(&bob), eve_from = frames_of(&eve);
    json_t *first = ask_review(w, &ann, 1);
    check_review(first, g, ann.seat, 1);
    /* The review everyone gets: the one computed here from the record. */
    const json_t *counts = json_object_get(first, "counts");
    assert_int_equal(num(counts, "inaccuracy"), offline->count[FIG_REVIEW_INACCURACY]);
    assert_int_equal(num(counts, "mistake"), offline->count[FIG_REVIEW_MISTAKE]);
    assert_int_equal(num(counts, "blunder"), offline->count[FIG_REVIEW_BLUNDER]);
    /* Asked again at once, while it is being stored: answered too. */
    json_t *twice = ask_review(w, &ann, 1);
    assert_true(json_equal(json_object_get(first, "moves"), json_object_get(twice, "moves")));
    json_decref(twice);
    assert_int_equal(frames_typed(w, bob.id, bob_from, "review", NULL), 0);
    assert_int_equal(frames_typed(w, eve.id, eve_from, "review", NULL), 0);
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, ann.table, NULL), 1);

    /* Asked again: the stored one. The row is marked (its iterations) to
     * tell it from a new computation. */
    assert_int_equal(stored_reviews(w, ann.table,
                                    "json_set(review, '$.iterations', 4242)"), 1);
    json_t *again = ask_review(w, &ann, 1);
    assert_int_equal(num(again, "iterations"), 4242);
    assert_true(json_equal(json_object_get(first, "moves"), json_object_get(again, "moves")));
    assert_string_equal(str(first, "summary"), str(again, "summary"));
    json_decref(again);

    /* A second game: one review at a time per connection. */
    for (int i = 0; i < 2; i++) {
        w->clock += 100;
        ask_rematch(cl[i], ann.table, 1);
        cl_update(cl[i]);
    }
    play(w, cl, 2, &rng, NULL, NULL);
    assert_int_equal(ann.game, 2);
    int from = frames_of(&ann);
    w->clock += 100;
    cl_send(&ann, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1}", ann.table);
    snprintf(msg, sizeof msg, "{\"type\":\"review\",\"table\":\"%s\",\"game\":2}",
             ann.table);
    expect_review_error(w, &ann, msg, "busy");
    json_decref(wait_frame(w, ann.id, from, "review"));   /* game 1's, stored: read back */
    json_t *second = ask_review(w, &ann, 2);
    assert_int_equal(num(second, "game"), 2);
    json_decref(second);
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, ann.table, NULL), 2);

    /* After a restart, still the stored one (the service reads it). */
    char token[40], table[8];
    snprintf(token, sizeof token, "%s", ann.token);
    snprintf(table, sizeof table, "%s", ann.table);
    cl_close(&ann);
    cl_close(&bob);
    cl_close(&eve);
    json_decref(ann.view);
    json_decref(bob.view);
    json_decref(eve.view);
    stop_service(w);
    start_service(w);
    client_t ann2;
    cl_open(&ann2, w, "10.0.0.1");
    hello_seat(&ann2, ",\"lang\":\"fr\"", table, token);
    assert_int_equal(ann2.seat, ann.seat);
    snprintf(ann2.table, sizeof ann2.table, "%s", table);
    again = ask_review(w, &ann2, 1);
    assert_int_equal(num(again, "iterations"), 4242);
    json_decref(again);

    /* Gone from the storage: computed again, the same review (its seed is
     * the game's, its search a fixed number of iterations). */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM reviews", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    again = ask_review(w, &ann2, 1);
    assert_true(json_equal(json_object_get(first, "moves"), json_object_get(again, "moves")));
    assert_int_equal(num(again, "iterations"), num(first, "iterations"));
    json_decref(again);
    json_decref(first);
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, table, NULL), 1);

    /* A slow search, and its asker goes: the worker stops, nothing is
     * stored. */
    assert_int_equal(sqlite3_open(w->db, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM reviews", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    cl_close(&ann2);
    json_decref(ann2.view);
    stop_service(w);
    w->review_spec = "ismcts:ms=5000," FIG_REVIEW_OPTIONS;
    start_service(w);
    client_t ann3;
    cl_open(&ann3, w, "10.0.0.1");
    hello_seat(&ann3, "", table, token);
    cl_send(&ann3, "{\"type\":\"review\",\"table\":\"%s\",\"game\":1}", table);
    long long end = fig_clock_ms() + 10000;
    while (!strstr(w->last_log, "reviewing") && fig_clock_ms() < end)
        pump_world(w, 20);   /* the read comes back, the search starts */
    pump_world(w, 200);
    cl_close(&ann3);
    end = fig_clock_ms() + 20000;
    while (!strstr(w->last_log, "stopped") && fig_clock_ms() < end)
        pump_world(w, 20);
    assert_non_null(strstr(w->last_log, "stopped: nobody waits for it"));
    fig_service_sync(w->svc);
    assert_int_equal(stored_reviews(w, table, NULL), 0);
    json_decref(ann3.view);
    free(g);
    free(offline);
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_review),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
