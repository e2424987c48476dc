/* SPDX-License-Identifier: MIT */
/* test_match.c - the match runner (match.h): people's and bots' seats, one
 * step at a time, bots thinking on a worker pool (host/pool.h).
 *
 *   - all-bot games of 3-6 players finish, every step is in the record, and
 *     the record replays (FGN write, read, write: byte-identical);
 *   - a person's seat: fig_match_play refuses what the rules refuse, with the
 *     engine's own message and the record untouched, and accepts legal
 *     actions; refuses anything while it is a bot's turn;
 *   - R14: each bot's tracked view equals its seat's true view whenever a bot
 *     thinks and once the game is over, and the view a bot is asked to choose
 *     from is its seat's view;
 *   - fig_match_resume from records cut anywhere (mid-round, between rounds)
 *     goes on exactly as the uninterrupted game did;
 *   - the descriptor is silent while a bot thinks and readable once it is done;
 *     freeing a match while a bot thinks returns at once and leaks nothing;
 *     fig_match_cancel reaches the think; 50 matches share 2 threads;
 *   - external engines (real processes: the scripts in tests/fep): faults come through
 *     the callback on the caller's thread; a silent engine does not make
 *     fig_match_new wait. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "figaro/bot.h"
#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/fep_host.h"
#include "host/pool.h"
#include "host/util.h"
#include "support_bot.h"

/* ------------------------------------------------------------------ helpers */

/* Options for `players` seats: seat s is a person when specs[s] is NULL. */
static fig_match_opts_t opts_for(int players, uint64_t seed, const char *const specs[])
{
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, players, seed, NULL);
    for (int s = 0; s < players; s++)
        o.bots[s] = specs[s] ? make_bot(specs[s], seed * 10 + (uint64_t)s) : NULL;
    return o;
}

/* Waits up to ms for the match's descriptor; true if it became readable. */
static bool fd_ready(const fig_match_t *m, int ms)
{
    struct pollfd p = { .fd = fig_match_fd(m), .events = POLLIN };
    return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* The person's policy: a legal action chosen from the position alone (its
 * index in the record), so a resumed game makes the same choices. */
static fig_action_t person_choice(const fig_match_t *m)
{
    fig_view_t v;
    fig_state_t st;
    fig_rng_t rng;
    fig_action_t acts[FIG_MAX_ACTIONS];
    const fig_game_t *g = fig_match_game(m);
    int seat = fig_match_turn(m);
    fig_match_view(m, seat, &v);   /* the person knows what the seat knows */
    fig_rng_seed(&rng, 1);
    fig_view_sample(&v, &rng, &st);
    int n = fig_state_legal(&st, acts);
    assert_true(n > 0);
    int at = g->nmoves[0] + g->nmoves[1] + g->nmoves[2];
    return acts[(at * 7 + 3) % n];
}

/* Called after every step by drive(). */
typedef void (*step_check_fn)(void *ctx, const fig_match_t *m, const fig_match_step_t *step);

/* The deadlines below catch a match that stops moving; under ThreadSanitizer
 * (make test-tsan) everything runs 5 to 15 times slower, so they stretch.
 * There the two long loops also run shorter (resuming: 3 players only; a
 * pool: 12 matches, not 50): TSan looks for races in the code a loop runs,
 * which fewer repetitions run as well. The ASan build runs them whole. (They
 * were nearly all of tsan/test_match, one of `make test`'s slowest jobs.) */
#if defined(__SANITIZE_THREAD__)
#define TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TSAN 1
#endif
#endif
#ifndef TSAN
#define TSAN 0
#endif
#define SLOWER (TSAN ? 5 : 1)

/* Plays the match to its end: steps while it can, waits on the descriptor
 * while a bot thinks, plays person_choice() for people. Checks that each
 * action step is the record's next move. Returns the number of steps. */
static int drive(fig_match_t *m, step_check_fn check, void *ctx)
{
    int steps = 0;
    long long deadline = fig_clock_ms() + 60000 * SLOWER;
    for (;;) {
        fig_match_step_t step;
        const fig_game_t *g = fig_match_game(m);
        while (fig_match_step(m, &step)) {
            steps++;
            if (!step.deal) {
                int r = step.round - 1;
                assert_true(g->nmoves[r] > 0);
                assert_int_equal(g->moves[r][g->nmoves[r] - 1].action, step.action);
                assert_int_equal(g->moves[r][g->nmoves[r] - 1].seat, step.seat);
                assert_false(fig_match_is_human(m, step.seat));
            } else {
                assert_int_equal(g->dealt, step.round);
                assert_int_equal(step.seat, g->state.turn);
            }
            if (check)
                check(ctx, m, &step);
        }
        assert_true(fig_clock_ms() < deadline);
        switch (fig_match_status(m)) {
        case FIG_MATCH_OVER:
            return steps;
        case FIG_MATCH_THINKING:
            assert_true(fd_ready(m, 10000));
            break;
        case FIG_MATCH_WAIT_HUMAN: {
            fig_msg_t msg;
            int seat = fig_match_turn(m);
            assert_true(fig_match_is_human(m, seat));
            fig_action_t a = person_choice(m);
            if (fig_match_play(m, a, &step, &msg) != FIG_OK)
                fail_msg("a legal action was refused: %s", msg.text);
            steps++;
            assert_int_equal(step.seat, seat);
            assert_int_equal(step.action, a);
            if (check)
                check(ctx, m, &step);
            break;
        }
        case FIG_MATCH_READY:
            fail_msg("fig_match_step returned false while the match was READY");
        }
    }
}

/* FGN of a record, malloc'ed. */
static char *fgn_of(const fig_game_t *g)
{
    size_t len = fig_fgn_write(g, NULL, 0);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    assert_int_equal(fig_fgn_write(g, buf, len + 1), len);
    return buf;
}

/* The FGN of a whole match of these seats (NULL: a person, whom drive plays),
 * malloc'ed. */
static char *played_fgn(const char *const specs[4], uint64_t seed, bool inline_instant)
{
    fig_match_opts_t o = opts_for(4, seed, specs);
    o.inline_instant = inline_instant;
    fig_match_t *m;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    drive(m, NULL, NULL);
    char *text = fgn_of(fig_match_game(m));
    fig_match_free(m);
    return text;
}

static int total_moves(const fig_game_t *g)
{
    return g->nmoves[0] + g->nmoves[1] + g->nmoves[2];
}

/* The record g cut after `moves` actions (deals included as they come). */
static void cut(const fig_game_t *g, int moves, bool deal_next, fig_game_t *out)
{
    fig_msg_t msg;
    fig_game_init(out, &g->setup);
    out->has_names = g->has_names;
    memcpy(out->names, g->names, sizeof out->names);
    int done = 0;
    for (int r = 0; r < g->dealt; r++) {
        if (done == moves && !(deal_next && out->state.phase == FIG_PHASE_DEAL))
            return;
        assert_int_equal(fig_game_deal(out, g->hands[r], &msg), FIG_OK);
        for (int i = 0; i < g->nmoves[r]; i++) {
            if (done == moves)
                return;
            assert_int_equal(fig_game_play(out, g->moves[r][i].action, NULL, &msg), FIG_OK);
            done++;
        }
    }
}

/* ------------------------------------------------- all-bot games and records */

typedef struct {
    int deals, actions, game_over_events;
} tally_t;

static void tally(void *ctx, const fig_match_t *m, const fig_match_step_t *step)
{
    tally_t *t = ctx;
    (void)m;
    if (step->deal)
        t->deals++;
    else
        t->actions++;
    for (int i = 0; i < step->events.n; i++)
        t->game_over_events += step->events.ev[i].type == FIG_EV_GAME_OVER;
}

static void test_all_bot_games_finish_and_replay(void **state)
{
    (void)state;
    for (int players = 3; players <= 6; players++) {
        const char *specs[FIG_MAX_PLAYERS] = { "random", "greedy", "random", "greedy",
                                               "random", "greedy" };
        fig_match_opts_t o = opts_for(players, (uint64_t)players * 31, specs);
        fig_match_t *m;
        fig_msg_t msg;
        assert_int_equal(fig_match_new(&m, &o, &msg), FIG_OK);
        assert_int_equal(fig_match_status(m), FIG_MATCH_READY);
        tally_t t = { 0 };
        drive(m, tally, &t);
        const fig_game_t *g = fig_match_game(m);
        assert_true(fig_game_over(g));
        assert_int_equal(fig_match_status(m), FIG_MATCH_OVER);
        assert_int_equal(t.deals, 3);
        assert_int_equal(t.actions, total_moves(g));
        assert_int_equal(t.game_over_events, 1);
        fig_match_step_t step;
        assert_false(fig_match_step(m, &step));   /* nothing more to do */

        /* The record replays to the same end, and FGN round-trips exactly. */
        char *text = fgn_of(g);
        fig_game_t *back = malloc(sizeof *back);
        assert_non_null(back);
        if (fig_fgn_read(back, text, strlen(text), &msg) != FIG_OK)
            fail_msg("the match's record does not read back: line %d: %s", msg.line, msg.text);
        assert_true(fig_game_over(back));
        char *again = fgn_of(back);
        assert_string_equal(text, again);
        int r1[FIG_MAX_PLAYERS], r2[FIG_MAX_PLAYERS];
        fig_state_ranking(&g->state, r1);
        fig_state_ranking(&back->state, r2);
        assert_memory_equal(r1, r2, sizeof(int) * (size_t)players);
        free(again);
        free(back);
        free(text);
        fig_match_free(m);
    }
}

static void test_same_seed_same_game(void **state)
{
    (void)state;
    const char *specs[4] = { "random", "random", "greedy", "random" };
    char *text[2] = { played_fgn(specs, 99, false), played_fgn(specs, 99, false) };
    assert_string_equal(text[0], text[1]);
    free(text[0]);
    free(text[1]);
}

static void test_new_refuses_a_bad_setup_and_frees_the_bots(void **state)
{
    (void)state;
    const char *specs[4] = { "random", "random", "random", "random" };
    fig_match_opts_t o = opts_for(4, 1, specs);
    o.setup.players = 7;   /* the bots given must still be freed (LeakSanitizer) */
    fig_match_t *m = (fig_match_t *)&o;
    fig_msg_t msg;
    assert_int_equal(fig_match_new(&m, &o, &msg), FIG_ERR_INPUT);
    assert_null(m);
    assert_true(strlen(msg.text) > 0);
}

/* ------------------------------------------------------------ a person's seat */

static void test_person_refused_with_engine_message_then_accepted(void **state)
{
    (void)state;
    const char *specs[4] = { NULL, "random", "random", "random" };
    fig_match_opts_t o = opts_for(4, 5, specs);
    fig_match_t *m;
    fig_msg_t msg, want;
    fig_match_step_t step;
    assert_int_equal(fig_match_new(&m, &o, &msg), FIG_OK);
    assert_true(fig_match_is_human(m, 0));
    assert_false(fig_match_is_human(m, 1));
    assert_false(fig_match_is_human(m, 9));
    assert_null(fig_match_bot_spec(m, 0));
    assert_string_equal(fig_match_bot_spec(m, 1), "random");

    /* Before the deal: not a time to play. */
    assert_int_equal(fig_match_play(m, FIG_ACT_TAKE, &step, &msg), FIG_ERR_STATE);

    int refusals = 0, takes_tested = 0, bot_turns_tested = 0;
    while (fig_match_status(m) != FIG_MATCH_OVER) {
        while (fig_match_step(m, &step))
            ;
        fig_match_status_t st = fig_match_status(m);
        if (st == FIG_MATCH_THINKING) {
            /* A bot's turn: a person's action is refused, nothing changes. */
            int before = total_moves(fig_match_game(m));
            assert_int_equal(fig_match_play(m, FIG_ACT_TAKE, &step, &msg), FIG_ERR_STATE);
            assert_non_null(strstr(msg.text, "bot"));
            assert_int_equal(total_moves(fig_match_game(m)), before);
            bot_turns_tested++;
            assert_true(fd_ready(m, 10000));
            continue;
        }
        if (st == FIG_MATCH_OVER)
            break;
        assert_int_equal(st, FIG_MATCH_WAIT_HUMAN);
        assert_int_equal(fig_match_turn(m), 0);
        const fig_game_t *g = fig_match_game(m);
        const fig_state_t *truth = &g->state;
        fig_view_t v;
        fig_match_view(m, 0, &v);
        int before = total_moves(g);

        /* Illegal actions: each refused with fig_state_check's message. */
        fig_action_t bad[4];
        int nbad = 0;
        if (v.table_cards == 0)
            bad[nbad++] = FIG_ACT_TAKE;                       /* R5 ruling */
        for (int k = 0; k < FIG_KINDS; k++)
            if (!v.hand.n[k]) {
                bad[nbad++] = fig_act_play(k, 0);             /* not in hand */
                break;
            }
        bad[nbad++] = fig_act_play(FIG_J1, 5);               /* no seat 5 with 4 players */
        for (int i = 0; i < nbad; i++) {
            assert_int_equal(fig_state_check(truth, bad[i], &want), FIG_ERR_INPUT);
            assert_int_equal(fig_match_play(m, bad[i], &step, &msg), FIG_ERR_INPUT);
            assert_string_equal(msg.text, want.text);
            assert_int_equal(total_moves(g), before);
            refusals++;
            takes_tested += bad[i] == FIG_ACT_TAKE;
        }
        /* A legal action is accepted and recorded. Take when possible: the
         * person then acts again on an empty table (R9), where take is illegal. */
        fig_action_t a = v.table_cards ? FIG_ACT_TAKE : person_choice(m);
        assert_int_equal(fig_match_play(m, a, &step, &msg), FIG_OK);
        assert_false(step.deal);
        assert_int_equal(step.seat, 0);
        assert_int_equal(step.action, a);
        assert_int_equal(total_moves(g), before + 1);
        assert_true(step.events.n > 0);
    }
    assert_true(refusals > 10);
    assert_true(takes_tested > 0);
    assert_true(bot_turns_tested > 0);
    assert_int_equal(fig_match_play(m, FIG_ACT_TAKE, &step, &msg), FIG_ERR_STATE);
    fig_match_free(m);
}

static void test_all_people_never_think(void **state)
{
    (void)state;
    const char *specs[3] = { NULL, NULL, NULL };
    fig_match_opts_t o = opts_for(3, 8, specs);
    fig_match_t *m;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    int steps = 0;
    for (;;) {
        fig_match_step_t step;
        while (fig_match_step(m, &step))
            assert_true(step.deal);
        fig_match_status_t st = fig_match_status(m);
        assert_int_not_equal(st, FIG_MATCH_THINKING);
        if (st == FIG_MATCH_OVER)
            break;
        assert_int_equal(st, FIG_MATCH_WAIT_HUMAN);
        assert_false(fd_ready(m, 0));
        assert_int_equal(fig_match_play(m, person_choice(m), &step, NULL), FIG_OK);
        steps++;
    }
    assert_int_equal(steps, total_moves(fig_match_game(m)));
    fig_match_free(m);
}

/* -------------------------------------------------------------- R14 for bots */

/* The bots follow the record through the match's jobs, so they are checked
 * where the contract says they are up to date: inside every think (the job
 * brought every bot up to the record first, and the record cannot move
 * while a bot thinks), and once the game is over and the match idle. */
struct r14;

/* A bot that keeps the view it was asked to choose from, and checks every
 * bot of its match against the truth while it thinks. */
typedef struct {
    fig_rng_t rng;
    int asked;
    fig_view_t last;
    struct r14 *c;
} spy_t;

typedef struct r14 {
    fig_bot_t *bots[FIG_MAX_PLAYERS];
    spy_t *spies[FIG_MAX_PLAYERS];
    fig_match_t *m;
    int players, checked, asked_checked, stale;
    fig_view_t at_turn;      /* the mover's true view when it was asked */
    int at_turn_seat;
} r14_t;

/* Every bot's tracked view against its seat's true view; the number of bots
 * that know something else. */
static int r14_stale(const r14_t *c)
{
    int stale = 0;
    for (int s = 0; s < c->players; s++) {
        if (!c->bots[s])
            continue;
        fig_view_t mine, truth;
        fig_view_of(fig_bot_state(c->bots[s]), s, &mine);
        fig_match_view(c->m, s, &truth);
        stale += !fig_view_equal(&mine, &truth);
    }
    return stale;
}

static fig_action_t spy_choose(void *data, const fig_bot_turn_t *turn)
{
    spy_t *s = data;
    s->asked++;
    s->last = *turn->view;
    /* On the worker: cmocka's asserts belong to the test's thread, so count. */
    s->c->stale += r14_stale(s->c);
    s->c->checked++;
    return fig_state_random_action(turn->guess, &s->rng);
}

static const fig_bot_ops_t spy_ops = { .kind = "spy", .choose = spy_choose, .free = free };

static void r14_check(r14_t *c, const fig_match_step_t *step)
{
    if (!step->deal && c->spies[step->seat] && step->seat == c->at_turn_seat) {
        if (!fig_view_equal(&c->spies[step->seat]->last, &c->at_turn))
            fail_msg("seat %d was asked to choose from a view other than its own",
                     step->seat);
        c->asked_checked++;
    }
    c->at_turn_seat = -1;
}

static void test_r14_bots_see_only_their_seat_view(void **state)
{
    (void)state;
    for (int players = 3; players <= 6; players += 3) {
        r14_t c;
        memset(&c, 0, sizeof c);
        c.players = players;
        c.at_turn_seat = -1;
        fig_match_opts_t o;
        memset(&o, 0, sizeof o);
        fig_setup_random(&o.setup, players, 77 + (uint64_t)players, NULL);
        for (int s = 1; s < players; s++) {   /* seat 0 is a person */
            spy_t *spy = calloc(1, sizeof *spy);
            assert_non_null(spy);
            fig_rng_seed(&spy->rng, (uint64_t)s);
            spy->c = &c;
            c.spies[s] = spy;
            c.bots[s] = o.bots[s] = fig_bot_wrap(&spy_ops, spy, "spy");
            assert_non_null(o.bots[s]);
        }
        assert_int_equal(fig_match_new(&c.m, &o, NULL), FIG_OK);
        fig_match_t *m = c.m;
        /* drive(), but noting the mover's true view while its bot thinks (the
         * game cannot move then, so this is the view it must have been given). */
        for (;;) {
            fig_match_step_t step;
            while (fig_match_step(m, &step))
                r14_check(&c, &step);
            fig_match_status_t st = fig_match_status(m);
            if (st == FIG_MATCH_OVER)
                break;
            if (st == FIG_MATCH_THINKING) {
                c.at_turn_seat = fig_match_turn(m);
                fig_match_view(m, c.at_turn_seat, &c.at_turn);
                assert_true(fd_ready(m, 10000));
                continue;
            }
            assert_int_equal(fig_match_play(m, person_choice(m), &step, NULL), FIG_OK);
            r14_check(&c, &step);
        }
        while (!fig_match_idle(m))   /* the bots are told the end */
            assert_true(fd_ready(m, 10000));
        assert_int_equal(r14_stale(&c), 0);
        int asked = 0;
        for (int s = 1; s < players; s++)
            asked += c.spies[s]->asked;
        assert_int_equal(c.asked_checked, asked);
        assert_int_equal(c.checked, asked);
        assert_true(asked > 20);
        if (c.stale)
            fail_msg("%d times a bot knew something other than its seat's view", c.stale);
        fig_match_free(m);
    }
}

/* ------------------------------------------------------------ instant bots */

/* An instant bot that notes on which thread it was asked to choose. */
typedef struct {
    pthread_t caller;
    int on_caller, elsewhere;
    fig_rng_t rng;
} where_t;

static fig_action_t where_choose(void *data, const fig_bot_turn_t *turn)
{
    where_t *w = data;
    if (pthread_equal(pthread_self(), w->caller))
        w->on_caller++;
    else
        w->elsewhere++;
    return fig_state_random_action(turn->guess, &w->rng);
}

static const fig_bot_ops_t where_ops = { .kind = "where", .choose = where_choose,
                                         .instant = true };

/* Seat 0 a person, seats 1-3 "where" bots noting into w[] (seat 3 `last`
 * instead when not NULL); plays the game out. */
static void play_where(where_t w[3], bool inline_instant, const char *last)
{
    fig_match_opts_t o = opts_for(4, 31, (const char *const[]){ NULL, NULL, NULL, NULL });
    for (int s = 1; s < 4; s++) {
        w[s - 1].caller = pthread_self();
        w[s - 1].on_caller = w[s - 1].elsewhere = 0;
        fig_rng_seed(&w[s - 1].rng, (uint64_t)s);
        o.bots[s] = s == 3 && last ? make_bot(last, 5)
                                   : fig_bot_wrap(&where_ops, &w[s - 1], "where");
        assert_non_null(o.bots[s]);
    }
    o.inline_instant = inline_instant;
    fig_match_t *m;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    drive(m, NULL, NULL);
    fig_match_free(m);
}

/* opts.inline_instant: a match whose bots are all instant thinks on the
 * caller's thread (and still answers through its descriptor: drive waits
 * on it); without the option, or with one bot that is not instant, every
 * think is the pool's. A game of random bots is the same either way. */
static void test_instant_bots_on_the_callers_thread(void **state)
{
    (void)state;
    where_t w[3];
    play_where(w, true, NULL);
    for (int i = 0; i < 3; i++) {
        assert_true(w[i].on_caller > 0);
        assert_int_equal(w[i].elsewhere, 0);
    }
    play_where(w, false, NULL);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(w[i].on_caller, 0);
        assert_true(w[i].elsewhere > 0);
    }
    play_where(w, true, "greedy");
    for (int i = 0; i < 2; i++) {
        assert_int_equal(w[i].on_caller, 0);
        assert_true(w[i].elsewhere > 0);
    }
    const char *specs[4] = { NULL, "random", "random", "random" };
    char *text[2] = { played_fgn(specs, 77, false), played_fgn(specs, 77, true) };
    assert_string_equal(text[0], text[1]);
    free(text[0]);
    free(text[1]);
}

/* ------------------------------------------------------------------- resume */

/* A bot whose choice depends on the position alone (its hand, the table, the
 * hand sizes), never on what it chose before: a resumed game must then go on
 * exactly as the uninterrupted one did. */
static fig_action_t position_choose(void *data, const fig_bot_turn_t *turn)
{
    (void)data;
    const fig_view_t *v = turn->view;
    fig_action_t acts[FIG_MAX_ACTIONS];
    int n = fig_state_legal(turn->guess, acts);   /* own hand and table: exact */
    uint32_t h = 2166136261u;
    for (int k = 0; k < FIG_KINDS; k++)
        h = (h ^ v->hand.n[k]) * 16777619u;
    for (int s = 0; s < v->players; s++)
        h = ((h ^ v->pile[s].total) * 16777619u ^ v->hand_size[s]) * 16777619u;
    h = (h ^ v->round) * 16777619u;
    return n ? acts[h % (uint32_t)n] : FIG_ACT_NONE;
}

static const fig_bot_ops_t position_ops = { .kind = "position", .choose = position_choose };

/* Seat 0 a person (person_choice), the others `spec`: "position" (above) or
 * a built-in bot. */
static fig_match_opts_t resume_opts(int players, uint64_t seed, const char *spec)
{
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, players, seed, NULL);
    for (int s = 1; s < players; s++)
        assert_non_null(o.bots[s] = strcmp(spec, "position") == 0
                                        ? fig_bot_wrap(&position_ops, NULL, "position")
                                        : make_bot(spec, seed * 10 + (uint64_t)s));
    return o;
}

/* The built-in bots draw from generators, which the match reseeds before
 * every think from the seed, the seat and the move number: a resumed game goes
 * on exactly as the uninterrupted one. */
static const char *const resume_specs[] = { "position", "random", "greedy", "ismcts:iters=30,mem=8" };

static void test_resume_continues_identically(void **state)
{
    (void)state;
    for (size_t b = 0; b < sizeof resume_specs / sizeof resume_specs[0]; b++)
    for (int players = 3; players <= (TSAN ? 3 : 6); players += 3) {
        const char *spec = resume_specs[b];
        uint64_t seed = 2024 + (uint64_t)players;
        fig_match_opts_t o = resume_opts(players, seed, spec);
        fig_match_t *m;
        assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
        drive(m, NULL, NULL);
        const fig_game_t *full = fig_match_game(m);
        char *want = fgn_of(full);
        int n = total_moves(full), r1 = full->nmoves[0], r2 = full->nmoves[1];
        struct { int moves; bool deal_next; } cuts[] = {
            { 0, false },            /* nothing dealt yet */
            { 0, true },             /* round 1 dealt, no move */
            { r1 / 2, false },       /* mid round 1 */
            { r1, false },           /* round 1 over, round 2 not dealt */
            { r1, true },            /* round 2 dealt, no move */
            { r1 + r2 / 2 + 1, false },
            { n - 1, false },        /* one action from the end */
            { n, false },            /* finished */
        };
        fig_game_t *part = malloc(sizeof *part);
        assert_non_null(part);
        for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
            cut(full, cuts[i].moves, cuts[i].deal_next, part);
            assert_int_equal(total_moves(part), cuts[i].moves);
            fig_match_opts_t o2 = resume_opts(players, seed, spec);
            fig_match_t *m2;
            fig_msg_t msg;
            if (fig_match_resume(&m2, part, &o2, &msg) != FIG_OK)
                fail_msg("resume after %d moves: %s", cuts[i].moves, msg.text);
            assert_int_equal(total_moves(fig_match_game(m2)), cuts[i].moves);
            assert_int_equal(fig_match_game(m2)->dealt, part->dealt);
            assert_int_equal(fig_match_status(m2),
                             cuts[i].moves == n ? FIG_MATCH_OVER
                             : fig_match_is_human(m2, fig_match_turn(m2)) &&
                                   part->state.phase == FIG_PHASE_PLAY
                                 ? FIG_MATCH_WAIT_HUMAN : FIG_MATCH_READY);
            drive(m2, NULL, NULL);
            char *got = fgn_of(fig_match_game(m2));
            bool same = strcmp(got, want) == 0;
            free(got);
            if (!same)
                fail_msg("%s, %d players: resumed after %d moves (%d dealt), the game went "
                         "another way", spec, players, cuts[i].moves, part->dealt);
            fig_match_free(m2);
        }
        free(part);
        free(want);
        fig_match_free(m);
    }
}

static void test_resume_refuses_a_bad_record(void **state)
{
    (void)state;
    const char *specs[4] = { NULL, "random", "random", "random" };
    fig_match_opts_t o = opts_for(4, 3, specs);
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fig_setup_t setup;
    fig_setup_random(&setup, 4, 3, NULL);
    fig_game_init(g, &setup);
    fig_game_deal_seeded(g);
    /* A move the rules refuse, planted behind the record's back. */
    g->nmoves[0] = 1;
    g->moves[0][0].seat = g->state.turn;
    g->moves[0][0].action = fig_act_play(FIG_RING, (g->state.turn + 1) % 4);
    fig_match_t *m = NULL;
    fig_msg_t msg;
    assert_int_not_equal(fig_match_resume(&m, g, &o, &msg), FIG_OK);
    assert_null(m);
    assert_non_null(strstr(msg.text, "RING"));
    free(g);
}

/* ------------------------------------------------- threads and the descriptor */

/* A bot that waits for the test to open a gate, or sleeps `delay_ms`. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool open;
    int delay_ms;
    fig_rng_t rng;
} gate_t;

static fig_action_t gate_choose(void *data, const fig_bot_turn_t *turn)
{
    gate_t *g = data;
    if (g->delay_ms) {
        struct timespec ts = { 0, (long)g->delay_ms * 1000000L };
        nanosleep(&ts, NULL);
    } else {
        pthread_mutex_lock(&g->lock);
        while (!g->open)
            pthread_cond_wait(&g->cond, &g->lock);
        pthread_mutex_unlock(&g->lock);
    }
    return fig_state_random_action(turn->guess, &g->rng);
}

static void gate_free(void *data)
{
    gate_t *g = data;
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->cond);
    free(g);
}

static const fig_bot_ops_t gate_ops = { .kind = "gate", .choose = gate_choose, .free = gate_free };

static fig_bot_t *gate_bot(gate_t **out, int delay_ms)
{
    gate_t *g = calloc(1, sizeof *g);
    assert_non_null(g);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cond, NULL);
    g->delay_ms = delay_ms;
    fig_rng_seed(&g->rng, 4);
    *out = g;
    return fig_bot_wrap(&gate_ops, g, "gate");
}

static void test_fd_readable_only_when_the_bot_is_done(void **state)
{
    (void)state;
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, 3, 12, NULL);
    gate_t *gates[3];
    for (int s = 0; s < 3; s++)
        assert_non_null(o.bots[s] = gate_bot(&gates[s], 0));
    fig_match_t *m;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    fig_match_step_t step;
    assert_true(fig_match_step(m, &step));   /* the deal */
    assert_true(step.deal);
    assert_int_equal(step.round, 1);
    for (int turn = 0; turn < 3; turn++) {
        int seat = fig_match_turn(m);
        assert_false(fig_match_step(m, &step));   /* the think starts */
        assert_int_equal(fig_match_status(m), FIG_MATCH_THINKING);
        assert_false(fd_ready(m, 30));            /* the bot is held at the gate */
        assert_false(fig_match_step(m, &step));
        assert_int_equal(fig_match_play(m, FIG_ACT_TAKE, &step, NULL), FIG_ERR_STATE);
        pthread_mutex_lock(&gates[seat]->lock);
        gates[seat]->open = true;
        pthread_cond_signal(&gates[seat]->cond);
        pthread_mutex_unlock(&gates[seat]->lock);
        assert_true(fd_ready(m, 10000));
        assert_true(fig_match_step(m, &step));
        assert_false(step.deal);
        assert_int_equal(step.seat, seat);
        assert_false(fd_ready(m, 0));             /* the byte was consumed */
    }
    for (int s = 0; s < 3; s++) {                 /* let the rest run */
        pthread_mutex_lock(&gates[s]->lock);
        gates[s]->open = true;
        pthread_mutex_unlock(&gates[s]->lock);
    }
    drive(m, NULL, NULL);
    fig_match_free(m);
}

/* A bot that thinks until the think is cancelled (or 20 s pass), counting
 * how its thinks ended. */
typedef struct {
    fig_rng_t rng;
    atomic_int cancelled, thinks;
} patient_t;

static fig_action_t patient_choose(void *data, const fig_bot_turn_t *turn)
{
    patient_t *p = data;
    atomic_fetch_add(&p->thinks, 1);
    long long end = fig_clock_ms() + 20000;
    while (fig_clock_ms() < end) {
        if (turn->cancel && atomic_load(turn->cancel)) {
            atomic_fetch_add(&p->cancelled, 1);
            break;
        }
        struct timespec ts = { 0, 1000000L };
        nanosleep(&ts, NULL);
    }
    return fig_state_random_action(turn->guess, &p->rng);
}

static const fig_bot_ops_t patient_ops = { .kind = "patient", .choose = patient_choose,
                                           .free = free };

static int cancelled_thinks(patient_t *const p[], int n)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += atomic_load(&p[i]->cancelled);
    return sum;
}

static fig_bot_t *patient_bot(patient_t **out)
{
    patient_t *p = calloc(1, sizeof *p);
    assert_non_null(p);
    fig_rng_seed(&p->rng, 9);
    *out = p;
    return fig_bot_wrap(&patient_ops, p, "patient");
}

/* The threads of this process, from /proc/self/status (0 if unknown). */
static int thread_count(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "Threads: %d", &n) == 1)
            break;
    if (f)
        fclose(f);
    return n;
}

static fig_pool_t *pool_of(int threads)
{
    fig_pool_t *pool;
    fig_msg_t msg;
    fig_pool_opts_t po = { threads, 16u << 20 };
    if (fig_pool_new(&pool, &po, &msg) != FIG_OK)
        fail_msg("fig_pool_new: %s", msg.text);
    return pool;
}

/* fig_match_free returns at once while a bot thinks (here, one held at a
 * gate that ignores every flag), and the worker frees everything once the
 * think is over: fig_pool_free waits for that, and LeakSanitizer checks that
 * nothing is left. Then the same with the match's private pool, and with an
 * answer that is in but was never collected. */
static void test_free_while_a_bot_thinks_returns_at_once(void **state)
{
    (void)state;
    for (int variant = 0; variant < 3; variant++) {
        bool shared = variant == 0, collected_late = variant == 2;
        fig_pool_t *pool = shared ? pool_of(2) : NULL;
        fig_match_opts_t o;
        memset(&o, 0, sizeof o);
        fig_setup_random(&o.setup, 4, 21, NULL);
        o.pool = pool;
        gate_t *g[4];
        for (int s = 0; s < 4; s++)
            assert_non_null(o.bots[s] = gate_bot(&g[s], collected_late ? 1 : 0));
        fig_match_t *m;
        assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
        fig_match_step_t step;
        assert_true(fig_match_step(m, &step));    /* the deal */
        assert_false(fig_match_step(m, &step));   /* a think starts */
        assert_int_equal(fig_match_status(m), FIG_MATCH_THINKING);
        gate_t *held = g[fig_match_turn(m)];
        if (collected_late)
            assert_true(fd_ready(m, 10000));
        else
            assert_false(fd_ready(m, 50));        /* held at the gate */
        long long t0 = fig_clock_ms();
        fig_match_free(m);
        assert_true(fig_clock_ms() - t0 < 200);         /* did not wait for the think */
        if (!collected_late) {
            pthread_mutex_lock(&held->lock);      /* alive until its think returns */
            held->open = true;
            pthread_cond_signal(&held->cond);
            pthread_mutex_unlock(&held->lock);
        }
        if (shared) {
            fig_pool_free(pool);                  /* waits for the match's last job */
        } else {
            struct timespec ts = { 0, 200 * 1000000L };   /* the private worker's last job */
            nanosleep(&ts, NULL);
        }
    }
}

/* fig_match_cancel reaches a thinking bot through the turn's flag, and the
 * answer it then gives is applied as usual; ismcts with a long time budget
 * stops at once too. A cancel between thinks does not touch the next one. */
static void test_cancel_stops_a_think(void **state)
{
    (void)state;
    fig_pool_t *pool = pool_of(1);
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, 3, 5, NULL);
    o.pool = pool;
    patient_t *p[3];
    for (int s = 0; s < 3; s++)
        assert_non_null(o.bots[s] = patient_bot(&p[s]));
    fig_match_t *m;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    fig_match_step_t step;
    assert_true(fig_match_step(m, &step));
    for (int k = 0; k < 3; k++) {
        assert_false(fig_match_step(m, &step));
        int seat = fig_match_turn(m);
        assert_false(fd_ready(m, 30));
        long long t0 = fig_clock_ms();
        fig_match_cancel(m);
        assert_true(fd_ready(m, 5000));
        assert_true(fig_clock_ms() - t0 < 2000);
        assert_true(fig_match_step(m, &step));
        assert_int_equal(step.seat, seat);
        assert_int_equal(cancelled_thinks(p, 3), k + 1);
    }
    fig_match_cancel(m);   /* between thinks: forgotten at the next one */
    assert_false(fig_match_step(m, &step));
    assert_false(fd_ready(m, 50));
    assert_int_equal(cancelled_thinks(p, 3), 3);
    fig_match_cancel(m);
    assert_true(fd_ready(m, 5000));
    assert_true(fig_match_step(m, &step));
    assert_int_equal(cancelled_thinks(p, 3), 4);
    fig_match_free(m);

    /* The search itself. */
    const char *specs[3] = { "ismcts:ms=60000", "ismcts:ms=60000,threads=2", "random" };
    o = opts_for(3, 6, specs);
    o.pool = pool;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    int cancelled = 0;
    while (cancelled < 2) {
        if (fig_match_step(m, &step))
            continue;
        assert_int_equal(fig_match_status(m), FIG_MATCH_THINKING);
        if (fig_match_turn(m) == 2) {
            assert_true(fd_ready(m, 5000));
            continue;
        }
        assert_false(fd_ready(m, 30));
        long long t0 = fig_clock_ms();
        fig_match_cancel(m);
        assert_true(fd_ready(m, 5000));
        assert_true(fig_clock_ms() - t0 < 2000);
        int moves = total_moves(fig_match_game(m));
        assert_true(fig_match_step(m, &step));
        assert_int_equal(total_moves(fig_match_game(m)), moves + 1);
        assert_false(step.deal);
        cancelled++;
    }
    fig_match_free(m);
    fig_pool_free(pool);
}

/* N matches at once (50; 12 under TSan) on a pool of 2 threads, driven by one
 * poll() loop: all finish, the process never has more than the pool's threads
 * (plus any the test had), and each game is the one the same match plays
 * alone. */
static void test_many_matches_on_two_threads(void **state)
{
    (void)state;
    enum { N = TSAN ? 12 : 50 };
    int before = thread_count();
    fig_pool_t *pool = pool_of(2);
    fig_match_t *m[N];
    const char *lineup[FIG_MAX_PLAYERS] = { "random", "greedy", "ismcts:iters=40", "random",
                                            "greedy", "random" };
    for (int i = 0; i < N; i++) {
        fig_match_opts_t o = opts_for(3 + i % 4, 500 + (uint64_t)i, lineup);
        o.pool = pool;
        assert_int_equal(fig_match_new(&m[i], &o, NULL), FIG_OK);
    }
    int peak = thread_count(), over = 0;
    long long deadline = fig_clock_ms() + 120000 * SLOWER;
    while (over < N) {
        struct pollfd fds[N];
        int nfds = 0;
        over = 0;
        for (int i = 0; i < N; i++) {
            fig_match_step_t step;
            while (fig_match_step(m[i], &step))
                ;
            if (fig_match_status(m[i]) == FIG_MATCH_OVER) {
                over++;
                continue;
            }
            assert_int_equal(fig_match_status(m[i]), FIG_MATCH_THINKING);
            fds[nfds++] = (struct pollfd){ .fd = fig_match_fd(m[i]), .events = POLLIN };
        }
        int t = thread_count();
        peak = t > peak ? t : peak;
        if (nfds)
            assert_true(poll(fds, (nfds_t)nfds, 10000) > 0);
        assert_true(fig_clock_ms() < deadline);
    }
    if (before > 0)
        assert_true(peak <= before + 2);
    for (int i = 0; i < N; i++) {
        assert_true(fig_game_over(fig_match_game(m[i])));
        if (i % 10 == 0) {   /* the same game, alone on a private pool */
            char *want = fgn_of(fig_match_game(m[i]));
            fig_match_opts_t o = opts_for(3 + i % 4, 500 + (uint64_t)i, lineup);
            fig_match_t *alone;
            assert_int_equal(fig_match_new(&alone, &o, NULL), FIG_OK);
            drive(alone, NULL, NULL);
            char *got = fgn_of(fig_match_game(alone));
            assert_string_equal(got, want);
            free(got);
            free(want);
            fig_match_free(alone);
        }
        fig_match_free(m[i]);
    }
    fig_pool_free(pool);
}

/* The bots come back once the game is over and they have been told; not
 * before. */
static void test_release_bots(void **state)
{
    (void)state;
    const char *specs[3] = { "random", "greedy", "random" };
    fig_match_opts_t o = opts_for(3, 17, specs);
    fig_bot_t *given[3] = { o.bots[0], o.bots[1], o.bots[2] }, *back[FIG_MAX_PLAYERS];
    fig_match_t *m;
    fig_msg_t msg;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    assert_int_equal(fig_match_release_bots(m, back, &msg), FIG_ERR_STATE);
    assert_true(strlen(msg.text) > 0);
    drive(m, NULL, NULL);
    while (!fig_match_idle(m))
        assert_true(fd_ready(m, 10000));
    assert_int_equal(fig_match_release_bots(m, back, &msg), FIG_OK);
    for (int s = 0; s < 3; s++) {
        assert_ptr_equal(back[s], given[s]);
        assert_int_equal(fig_bot_state(back[s])->phase, FIG_PHASE_OVER);   /* told it all */
    }
    assert_null(back[3]);
    assert_string_equal(fig_match_bot_spec(m, 1), "greedy");   /* still known */
    assert_false(fig_match_is_human(m, 1));
    assert_int_equal(fig_match_release_bots(m, back, &msg), FIG_ERR_STATE);
    fig_match_free(m);
    for (int s = 0; s < 3; s++)
        fig_bot_free(given[s]);
}

/* ------------------------------------------------------- external engines */

/* A file of the source tree: $FIGARO_SRC/rel, else found from this program
 * (build/test/test_match: two folders up), else rel from the current folder. */
static void source_path(const char *rel, char *out, size_t cap)
{
    const char *root = getenv("FIGARO_SRC");
    if (root && *root) {
        snprintf(out, cap, "%s/%s", root, rel);
        return;
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 3; up++) {
            char *slash = strrchr(exe, '/');
            if (slash)
                *slash = '\0';
        }
        snprintf(out, cap, "%s/%s", exe, rel);
        if (access(out, R_OK) == 0)
            return;
    }
    snprintf(out, cap, "%s", rel);
}

typedef struct {
    pthread_t caller;
    int calls, on_caller, kinds[FIG_FAULT_NOT_PLAY + 1];
    char text[400];
} fault_log_t;

static void log_fault(void *user, const fig_fault_t *f)
{
    fault_log_t *l = user;
    l->calls++;
    l->on_caller += pthread_equal(pthread_self(), l->caller) != 0;
    if (f->kind >= 0 && f->kind <= FIG_FAULT_NOT_PLAY)
        l->kinds[f->kind]++;
    fig_fault_text(f, NULL, l->text, sizeof l->text);
}

/* An engine answering `go` with junk: its fault comes through the callback,
 * on the caller's thread, once per game; the game still finishes. Without a
 * callback, the fault waits for fig_match_next_fault. */
static void test_faults_through_the_callback(void **state)
{
    (void)state;
    char script[4096], spec[4200];
    source_path("tests/fep/garbage.sh", script, sizeof script);
    snprintf(spec, sizeof spec, "cmd:%s word", script);
    for (int callback = 1; callback >= 0; callback--) {
        fig_pool_t *pool = pool_of(2);
        const char *specs[3] = { NULL, "random", "greedy" };
        fig_match_opts_t o = opts_for(3, 41, specs);
        fig_msg_t msg;
        if (fig_bot_any_new(&o.bots[0], spec, 1, 200, &msg) != FIG_OK)
            fail_msg("%s: %s", spec, msg.text);
        fault_log_t log;
        memset(&log, 0, sizeof log);
        log.caller = pthread_self();
        o.pool = pool;
        if (callback) {
            o.on_fault = log_fault;
            o.fault_user = &log;
        }
        fig_match_t *m;
        assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
        drive(m, NULL, NULL);
        while (!fig_match_idle(m))
            assert_true(fd_ready(m, 10000));
        fig_fault_t f;
        if (callback) {
            assert_int_equal(log.calls, 1);
            assert_int_equal(log.on_caller, 1);
            assert_int_equal(log.kinds[FIG_FAULT_MALFORMED], 1);
            assert_non_null(strstr(log.text, "malformed answer 'play banana'"));
            assert_non_null(strstr(log.text, "(seat 0)"));
            assert_false(fig_match_next_fault(m, &f));
        } else {
            assert_true(fig_match_next_fault(m, &f));
            assert_int_equal(f.kind, FIG_FAULT_MALFORMED);
            assert_int_equal(f.seat, 0);
            assert_string_equal(f.line, "play banana");
            assert_false(fig_match_next_fault(m, &f));
        }
        fig_match_free(m);
        fig_pool_free(pool);
    }
}

/* An engine that never answers the handshake: fig_match_new returns at
 * once (the 5 s handshake runs on the pool), and freeing the match gives up
 * the wait at once too; no fault is told for a wait the host called off. */
static void test_new_with_a_silent_engine_returns_at_once(void **state)
{
    (void)state;
    char script[4096], spec[4200];
    source_path("tests/fep/silent.sh", script, sizeof script);
    snprintf(spec, sizeof spec, "cmd:%s", script);
    fig_pool_t *pool = pool_of(1);
    const char *specs[3] = { NULL, NULL, "random" };
    fig_match_opts_t o = opts_for(3, 2, specs);
    fig_msg_t msg;
    for (int s = 0; s < 2; s++)
        if (fig_bot_any_new(&o.bots[s], spec, 1, 200, &msg) != FIG_OK)
            fail_msg("%s: %s", spec, msg.text);
    fault_log_t log;
    memset(&log, 0, sizeof log);
    log.caller = pthread_self();
    o.pool = pool;
    o.on_fault = log_fault;
    o.fault_user = &log;
    long long t0 = fig_clock_ms();
    fig_match_t *m;
    assert_int_equal(fig_match_new(&m, &o, NULL), FIG_OK);
    assert_true(fig_clock_ms() - t0 < 200);
    fig_match_step_t step;
    assert_true(fig_match_step(m, &step));   /* the deal needs no engine */
    assert_false(fig_match_step(m, &step));
    assert_true(fig_clock_ms() - t0 < 400);
    assert_false(fd_ready(m, 300));          /* still in the handshake */
    t0 = fig_clock_ms();
    fig_match_free(m);
    assert_true(fig_clock_ms() - t0 < 200);
    fig_pool_free(pool);                     /* the engines stopped, reaped, freed */
    assert_true(fig_clock_ms() - t0 < 2000);
    assert_int_equal(log.calls, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_bot_games_finish_and_replay),
        cmocka_unit_test(test_same_seed_same_game),
        cmocka_unit_test(test_instant_bots_on_the_callers_thread),
        cmocka_unit_test(test_new_refuses_a_bad_setup_and_frees_the_bots),
        cmocka_unit_test(test_person_refused_with_engine_message_then_accepted),
        cmocka_unit_test(test_all_people_never_think),
        cmocka_unit_test(test_r14_bots_see_only_their_seat_view),
        cmocka_unit_test(test_resume_continues_identically),
        cmocka_unit_test(test_resume_refuses_a_bad_record),
        cmocka_unit_test(test_fd_readable_only_when_the_bot_is_done),
        cmocka_unit_test(test_free_while_a_bot_thinks_returns_at_once),
        cmocka_unit_test(test_cancel_stops_a_think),
        cmocka_unit_test(test_many_matches_on_two_threads),
        cmocka_unit_test(test_release_bots),
        cmocka_unit_test(test_faults_through_the_callback),
        cmocka_unit_test(test_new_with_a_silent_engine_returns_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
