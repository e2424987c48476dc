/* SPDX-License-Identifier: MIT */
/* test_session.c - starting, resuming and telling again a game
 * (host/session.h):
 *
 *   - the bots' default names: the Barber of Seville's characters in seat
 *     order, never a person's name, with people at any seats;
 *   - a new game: its setup is the seed's, its names and bots are the seat
 *     table's, the seed is written back; the same seed and seats give the
 *     same game; a seed deals what the previous version dealt for it (the
 *     record tests/cases/store-v1-unfinished-4p.fgn, seed 77);
 *   - bad seat tables and bot specs are refused with the seat named, and
 *     nothing leaks;
 *   - resuming a record goes on with the record's names and seed;
 *   - the replay of a record gives exactly the steps and the watching seat's
 *     views that stepping the match live gave, people's seats included;
 *   - allocation failures: fig_session_start is run failing its 1st, 2nd, ...
 *     allocation until it succeeds: an error each time, no crash, no leak
 *     (allocations counted by alloc_fail.c: the Makefile links this test with
 *     -Wl,--wrap=malloc,...). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "alloc_fail.h"
#include "figaro/figaro.h"
#include "host/session.h"
#include "host/util.h"

/* ------------------------------------------------- counting allocations */


/* ------------------------------------------------------------- helpers */

/* Seats: a person named names[s] where specs[s] is NULL, else a bot. */
static fig_session_opts_t opts_of(int players, const char *const specs[],
                                  const char *const names[])
{
    fig_session_opts_t o;
    memset(&o, 0, sizeof o);
    o.seats.players = players;
    for (int s = 0; s < players; s++) {
        fig_seat_t *st = &o.seats.seat[s];
        st->bot = specs[s] != NULL;
        if (specs[s])
            snprintf(st->spec, sizeof st->spec, "%s", specs[s]);
        if (names && names[s])
            snprintf(st->name, sizeof st->name, "%s", names[s]);
    }
    return o;
}

static fig_match_t *start(fig_session_opts_t *o)
{
    fig_match_t *m = NULL;
    fig_msg_t msg;
    if (fig_session_start(&m, o, NULL, &msg) != FIG_OK)
        fail_msg("fig_session_start: %s", msg.text);
    return m;
}

/* Waits for the bot's answer, at most 30 s. */
static void wait_bot(fig_match_t *m)
{
    struct pollfd p = { .fd = fig_match_fd(m), .events = POLLIN };
    if (poll(&p, 1, 30000) != 1)
        fail_msg("a bot took more than 30 s");
}

static char *fgn_of(const fig_game_t *g)
{
    size_t n = fig_fgn_write(g, NULL, 0);
    char *buf = malloc(n + 1);
    assert_non_null(buf);
    fig_fgn_write(g, buf, n + 1);
    return buf;
}

/* One step as told, with the watching seat's views around it. */
typedef struct {
    fig_match_step_t step;
    fig_view_t before, after;
} told_t;

typedef struct {
    told_t *steps;
    int n, cap;
} tale_t;

static void tell(tale_t *t, const fig_match_step_t *step, const fig_view_t *before,
                 const fig_view_t *after)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->steps = realloc(t->steps, (size_t)t->cap * sizeof *t->steps);
        assert_non_null(t->steps);
    }
    t->steps[t->n].step = *step;
    t->steps[t->n].before = *before;
    t->steps[t->n].after = *after;
    t->n++;
}

static void on_step(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                    const fig_view_t *after)
{
    tell(ctx, step, before, after);
}

/* Plays the match to the end, people choosing with rng, recording every step
 * with seat `watch`'s views. */
static void play_live(fig_match_t *m, int watch, uint64_t seed, tale_t *tale)
{
    fig_rng_t rng;
    fig_rng_seed(&rng, seed);
    fig_view_t before, after;
    fig_match_view(m, watch, &before);
    for (;;) {
        fig_match_step_t step;
        bool stepped = false;
        switch (fig_match_status(m)) {
        case FIG_MATCH_OVER:
            return;
        case FIG_MATCH_THINKING:
            wait_bot(m);
            stepped = fig_match_step(m, &step);
            break;
        case FIG_MATCH_READY:
            stepped = fig_match_step(m, &step);
            break;
        case FIG_MATCH_WAIT_HUMAN: {
            fig_state_t st = fig_match_game(m)->state;   /* the test's own choice */
            fig_action_t a = fig_state_random_action(&st, &rng);
            fig_msg_t msg;
            assert_int_equal(fig_match_play(m, a, &step, &msg), FIG_OK);
            stepped = true;
            break;
        }
        }
        if (!stepped)
            continue;
        fig_match_view(m, watch, &after);
        tell(tale, &step, &before, &after);
        before = after;
    }
}

static void assert_same_step(const told_t *a, const told_t *b, int i)
{
    const fig_match_step_t *x = &a->step, *y = &b->step;
    if (x->deal != y->deal || x->round != y->round || x->seat != y->seat ||
        x->action != y->action || x->events.n != y->events.n ||
        memcmp(x->events.ev, y->events.ev, (size_t)x->events.n * sizeof x->events.ev[0]))
        fail_msg("step %d differs: deal %d/%d round %d/%d seat %d/%d action %d/%d events %d/%d",
                 i, x->deal, y->deal, x->round, y->round, x->seat, y->seat, x->action, y->action,
                 x->events.n, y->events.n);
    if (memcmp(&a->after, &b->after, sizeof a->after))
        fail_msg("step %d: the view after differs", i);
    if (!x->deal && memcmp(&a->before, &b->before, sizeof a->before))
        fail_msg("step %d: the view before differs", i);
}

/* ---------------------------------------------------------------- tests */

static void test_bot_names(void **state)
{
    (void)state;
    static const char *const bots[] = { NULL, "random", "random", "random", "random", "random" };
    static const char *const ann[] = { "Ann", NULL, NULL, NULL, NULL, NULL };
    fig_session_opts_t o = opts_of(6, bots, ann);
    static const char *const want[] = { NULL, "Rosina", "Bartolo", "Basilio", "Berta",
                                        "Fiorello" };
    for (int s = 1; s < 6; s++)
        assert_string_equal(fig_session_bot_name(&o.seats, s), want[s]);
    assert_null(fig_session_bot_name(&o.seats, 0));   /* a person's seat */
    assert_null(fig_session_bot_name(&o.seats, 6));
    assert_null(fig_session_bot_name(&o.seats, -1));

    /* a person named like a default (any case) is never given a namesake */
    static const char *const all[] = { "Rosina", "Bartolo", "Basilio", "Berta", "Fiorello",
                                       "Almaviva" };
    for (int i = 0; i < 6; i++) {
        snprintf(o.seats.seat[0].name, sizeof o.seats.seat[0].name, "%s", all[i]);
        o.seats.seat[0].name[0] = (char)(o.seats.seat[0].name[0] + 'a' - 'A');
        for (int s = 1; s < 6; s++)
            assert_int_not_equal(strcasecmp(fig_session_bot_name(&o.seats, s), all[i]), 0);
    }
    /* people at any seats: the bots in seat order take the free names */
    static const char *const mixed[] = { "random", NULL, "random", NULL, "random" };
    static const char *const people[] = { NULL, "bartolo", NULL, "Zoé", NULL };
    o = opts_of(5, mixed, people);
    assert_string_equal(fig_session_bot_name(&o.seats, 0), "Rosina");
    assert_string_equal(fig_session_bot_name(&o.seats, 2), "Basilio");
    assert_string_equal(fig_session_bot_name(&o.seats, 4), "Berta");
    assert_null(fig_session_bot_name(&o.seats, 1));

    assert_true(fig_session_name_ok("Zoé"));
    assert_false(fig_session_name_ok("A B"));
    assert_false(fig_session_name_ok("#1"));
    assert_false(fig_session_name_ok(""));
    assert_false(fig_session_name_ok("abcdefghijabcdefghijabcdefghijabc"));   /* 33 bytes */
}

static void test_start_seats_names_seed(void **state)
{
    (void)state;
    static const char *const specs[] = { NULL, "random", "greedy", "random" };
    static const char *const names[] = { "Ann", NULL, "Figaro", NULL };
    fig_session_opts_t o = opts_of(4, specs, names);
    o.seed = 77;
    o.has_seed = true;
    fig_match_t *m = start(&o);
    const fig_game_t *g = fig_match_game(m);
    fig_setup_t want;
    fig_setup_random(&want, 4, 77, NULL);
    assert_memory_equal(&g->setup, &want, sizeof want);
    assert_true(g->has_names);
    static const char *const told[] = { "Ann", "Rosina", "Figaro", "Basilio" };
    for (int s = 0; s < 4; s++) {
        assert_string_equal(g->names[s], told[s]);
        assert_string_equal(o.seats.seat[s].name, told[s]);   /* written back */
    }
    assert_true(fig_match_is_human(m, 0));
    assert_null(fig_match_bot_spec(m, 0));
    assert_string_equal(fig_match_bot_spec(m, 1), "random");
    assert_string_equal(fig_match_bot_spec(m, 2), "greedy");

    /* the deal is the one the previous version gave seed 77 */
    const char *dir = getenv("FIGARO_CASES_DIR");
    char path[512], *text;
    size_t len;
    fig_msg_t msg;
    snprintf(path, sizeof path, "%s/store-v1-unfinished-4p.fgn", dir && *dir ? dir : "tests/cases");
    if (fig_read_file(path, 1 << 20, &text, &len, NULL, &msg) != FIG_OK)
        fail_msg("%s: %s", path, msg.text);
    fig_game_t *v1 = malloc(sizeof *v1);
    assert_int_equal(fig_fgn_read(v1, text, len, &msg), FIG_OK);
    free(text);
    fig_match_step_t step;
    assert_true(fig_match_step(m, &step));
    assert_true(step.deal);
    assert_memory_equal(&g->setup, &v1->setup, sizeof g->setup);
    assert_memory_equal(g->hands[0], v1->hands[0], sizeof g->hands[0]);
    free(v1);
    fig_match_free(m);

    /* no seed: one is drawn and written back */
    o = opts_of(4, specs, names);
    m = start(&o);
    assert_true(o.has_seed);
    /* A seed nobody chose is 64 secret bits (util.h), not a short
     * clock seed a player could find by trying: two draws differ */
    uint64_t first = o.seed;
    fig_match_free(m);
    o = opts_of(4, specs, names);
    m = start(&o);
    assert_true(o.has_seed);
    assert_true(o.seed != first);
    assert_int_equal(fig_match_game(m)->setup.seed, o.seed);
    fig_match_free(m);
}

static void test_same_seed_same_game(void **state)
{
    (void)state;
    static const char *const specs[] = { "greedy", "random", "greedy", "random", "random" };
    char *first = NULL;
    for (int i = 0; i < 2; i++) {
        fig_session_opts_t o = opts_of(5, specs, NULL);
        o.seed = 4242;
        o.has_seed = true;
        fig_match_t *m = start(&o);
        tale_t tale = { 0 };
        play_live(m, 0, 1, &tale);
        free(tale.steps);
        char *text = fgn_of(fig_match_game(m));
        fig_match_free(m);
        if (first) {
            assert_string_equal(first, text);
            free(text);
        } else {
            first = text;
        }
    }
    free(first);
}

static void test_start_refuses_bad_tables(void **state)
{
    (void)state;
    static const struct {
        int players;
        const char *specs[FIG_MAX_PLAYERS], *names[FIG_MAX_PLAYERS];
        const char *want;
    } cases[] = {
        { 2, { NULL, "random" }, { "Ann" }, "3 to 6 players, not 2" },
        { 7, { NULL }, { "Ann" }, "3 to 6 players, not 7" },
        { 3, { NULL, "random", NULL }, { "Ann" }, "seat 2: a person needs a name" },
        { 3, { NULL, "random", "random" }, { "A B" }, "seat 0: 'A B' cannot be a name" },
        { 3, { NULL, "random", "random" }, { "Ann", "#x" }, "seat 1: '#x' cannot be a name" },
        { 3, { NULL, "random", "" }, { "Ann" }, "seat 2: a bot needs a spec" },
        { 3, { NULL, "random", "cmd:a\tb" }, { "Ann" }, "seat 2: a bot spec cannot hold control" },
        { 4, { NULL, "greedy", "random", "nonsense" }, { "Ann" },
          "seat 3 (nonsense): 'nonsense' is not a bot" },
        { 3, { NULL, "cmd:/no/such/figaro-engine", "random" }, { "Ann" }, "seat 1 (cmd:" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fig_session_opts_t o = opts_of(cases[i].players > 6 ? 6 : cases[i].players,
                                       cases[i].specs, cases[i].names);
        o.seats.players = cases[i].players;
        if (cases[i].specs[2] && !cases[i].specs[2][0])
            o.seats.seat[2].bot = true;
        fig_match_t *m = (fig_match_t *)&o;   /* must be cleared */
        fig_msg_t msg;
        memset(&msg, 0, sizeof msg);
        assert_int_equal(fig_session_start(&m, &o, NULL, &msg), FIG_ERR_INPUT);
        assert_null(m);
        if (!strstr(msg.text, cases[i].want))
            fail_msg("case %zu: '%s' does not say '%s'", i, msg.text, cases[i].want);
    }
    fig_msg_t msg;
    assert_int_equal(fig_session_check_spec("greedy", NULL, &msg), FIG_OK);
    assert_int_equal(fig_session_check_spec("frobnicator", NULL, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "'frobnicator' is not a bot"));
}

static void test_resume_takes_the_record(void **state)
{
    (void)state;
    static const char *const specs[] = { "random", NULL, "greedy" };
    static const char *const names[] = { NULL, "Bob", NULL };
    fig_session_opts_t o = opts_of(3, specs, names);
    o.seed = 9;
    o.has_seed = true;
    fig_match_t *m = start(&o);
    for (int i = 0; i < 10 && fig_match_status(m) != FIG_MATCH_WAIT_HUMAN; i++) {
        if (fig_match_status(m) == FIG_MATCH_THINKING)
            wait_bot(m);
        fig_match_step(m, NULL);
    }
    fig_game_t *rec = malloc(sizeof *rec);
    *rec = *fig_match_game(m);
    fig_match_free(m);

    /* the table as the store gives it: no names, another seed */
    fig_session_opts_t back = opts_of(3, specs, NULL);
    back.seed = 1;
    fig_msg_t msg;
    assert_int_equal(fig_session_resume(&m, rec, &back, NULL, &msg), FIG_OK);
    assert_int_equal(back.seed, 9);
    assert_true(back.has_seed);
    assert_string_equal(back.seats.seat[0].name, "Rosina");
    assert_string_equal(back.seats.seat[1].name, "Bob");
    assert_string_equal(back.seats.seat[2].name, "Bartolo");
    char *a = fgn_of(rec), *b = fgn_of(fig_match_game(m));
    assert_string_equal(a, b);
    free(a);
    free(b);
    fig_match_free(m);

    /* a record without names takes the table's, a person must have one */
    rec->has_names = false;
    back = opts_of(3, specs, NULL);
    assert_int_equal(fig_session_resume(&m, rec, &back, NULL, &msg), FIG_ERR_INPUT);
    assert_null(m);
    assert_non_null(strstr(msg.text, "seat 1: a person needs a name"));
    back = opts_of(3, specs, names);
    assert_int_equal(fig_session_resume(&m, rec, &back, NULL, &msg), FIG_OK);
    assert_string_equal(fig_match_game(m)->names[0], "Rosina");
    assert_string_equal(fig_match_game(m)->names[1], "Bob");
    fig_match_free(m);

    /* the table must fit the record */
    static const char *const four[] = { "random", NULL, "greedy", "random" };
    static const char *const bob[] = { NULL, "Bob", NULL, NULL };
    back = opts_of(4, four, bob);
    assert_int_equal(fig_session_resume(&m, rec, &back, NULL, &msg), FIG_ERR_INPUT);
    assert_null(m);
    assert_non_null(strstr(msg.text, "4 seats but the game 3 players"));
    free(rec);
}

/* The replay gives exactly the steps and views of the live game. */
static void test_replay_equals_live(void **state)
{
    (void)state;
    static const char *const specs[][FIG_MAX_PLAYERS] = {
        { NULL, "greedy", "random" },
        { "random", NULL, "greedy", NULL },
        { "greedy", "greedy", "random", "random", NULL },
        { NULL, "random", "random", "greedy", "random", "random" },
    };
    static const char *const names[] = { "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay" };
    for (int c = 0; c < 4; c++) {
        int players = c + 3;
        for (int watch = 0; watch < players; watch += players - 1) {
            fig_session_opts_t o = opts_of(players, specs[c], names);
            o.seed = (uint64_t)(100 + c * 7 + watch);
            o.has_seed = true;
            fig_match_t *m = start(&o);
            tale_t live = { 0 }, again = { 0 };
            play_live(m, watch, o.seed, &live);
            fig_msg_t msg;
            assert_int_equal(fig_session_replay(fig_match_game(m), watch, on_step, &again, &msg),
                             FIG_OK);
            assert_int_equal(again.n, live.n);
            assert_true(live.n > 3 * players);   /* three deals and many moves */
            for (int i = 0; i < live.n; i++)
                assert_same_step(&live.steps[i], &again.steps[i], i);
            free(live.steps);
            free(again.steps);
            fig_match_free(m);
        }
    }
}

static void test_replay_refuses(void **state)
{
    (void)state;
    fig_game_t *g = malloc(sizeof *g);
    fig_setup_t setup;
    fig_setup_random(&setup, 3, 5, NULL);
    fig_game_init(g, &setup);
    fig_game_deal_seeded(g);
    tale_t t = { 0 };
    fig_msg_t msg;
    assert_int_equal(fig_session_replay(g, 3, on_step, &t, &msg), FIG_ERR_INPUT);
    assert_int_equal(t.n, 0);
    g->nmoves[0] = 1;
    g->moves[0][0].action = fig_act_play(FIG_RING, 2);   /* a ring at another seat */
    assert_int_equal(fig_session_replay(g, 0, on_step, &t, &msg), FIG_ERR_INPUT);
    assert_int_equal(t.n, 1);   /* the deal was told */
    free(t.steps);
    free(g);
}

/* Fails the 1st, 2nd, ... allocation of fig_session_start until it succeeds. */
static void test_start_allocation_failures(void **state)
{
    (void)state;
    static const char *const specs[] = { NULL, "greedy", "random", "easy" };
    static const char *const names[] = { "Ann", NULL, NULL, NULL };
    int k;
    for (k = 1; k < 1000; k++) {
        fig_session_opts_t o = opts_of(4, specs, names);
        o.seed = 3;
        o.has_seed = true;
        fig_match_t *m = (fig_match_t *)&o;
        fig_msg_t msg;
        memset(&msg, 0, sizeof msg);
        alloc_fail_arm(k);
        fig_err_t rc = fig_session_start(&m, &o, NULL, &msg);
        alloc_fail_disarm();
        if (rc == FIG_OK) {
            fig_match_free(m);
            break;
        }
        assert_null(m);
        if (!strstr(msg.text, "out of memory") && !strstr(msg.text, "out of resources"))
            fail_msg("allocation %d: '%s'", k, msg.text);
    }
    assert_true(k > 3);   /* three bots and the match: several allocations were failed */
    assert_true(k < 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bot_names),
        cmocka_unit_test(test_start_seats_names_seed),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_start_refuses_bad_tables),
        cmocka_unit_test(test_resume_takes_the_record),
        cmocka_unit_test(test_replay_equals_live),
        cmocka_unit_test(test_replay_refuses),
        cmocka_unit_test(test_start_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
