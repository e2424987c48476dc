/* SPDX-License-Identifier: MIT */
/* test_alloc.c - the allocation-failure sweep (style.md, "Testing habits"):
 * for bot creation (every kind of spec), pool creation, match creation
 * (new and resume, with a shared pool and with the match's own) and opening
 * a catalogue (from memory, English, from a file), fail the
 * 1st, 2nd, 3rd ... allocation until creation succeeds. Every failure must be
 * a clear error (FIG_ERR_SPACE, a message about memory, no half-made
 * object), never a crash; LeakSanitizer checks that nothing leaks.
 *
 * No hook in the libraries: this program is linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup (the Makefile's
 * WRAP_ALLOC), so every call the libraries make to those lands in
 * alloc_fail.c, which counts them and fails on request. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "alloc_fail.h"
#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/catalog.h"
#include "host/fep_host.h"
#include "host/pool.h"

/* ---- the wrapped allocator */


/* A failed creation must say it was memory. */
static void expect_space(const char *what, long k, fig_err_t rc, const fig_msg_t *msg)
{
    if (rc != FIG_ERR_SPACE)
        fail_msg("%s, allocation %ld failed: error %d (%s), expected FIG_ERR_SPACE", what, k,
                 (int)rc, msg->text);
    if (!strstr(msg->text, "memory") && !strstr(msg->text, "resources"))
        fail_msg("%s, allocation %ld failed: the message does not say so: '%s'", what, k,
                 msg->text);
}

/* The figaro program, as an engine's path for a cmd: spec (resolve() only
 * looks it up; nothing starts). */
static void figaro_path(char *out, size_t cap)
{
    const char *env = getenv("FIGARO");
    if (env && *env && access(env, X_OK) == 0) {
        snprintf(out, cap, "%s", env);
        return;
    }
    snprintf(out, cap, "/bin/sh");
}

/* ---- bots */

static void test_bot_creation_sweep(void **state)
{
    (void)state;
    char fig[2048], cmd_path[2100];
    figaro_path(fig, sizeof fig);
    snprintf(cmd_path, sizeof cmd_path, "cmd:%s engine --bot greedy", fig);
    const char *specs[] = { "random", "greedy", "ismcts:iters=10", "ismcts:threads=2,mem=4",
                            "easy", "max", cmd_path, "cmd:sh -c true" };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        long k = 1;
        for (;; k++) {
            fig_bot_t *bot = (fig_bot_t *)&bot;
            fig_msg_t msg = { "", 0 };
            alloc_fail_arm(k);
            fig_err_t rc = fig_bot_any_new(&bot, specs[i], 1, 100, &msg);
            long made = alloc_fail_disarm();
            if (rc == FIG_OK) {
                assert_true(made < k);   /* succeeded because nothing failed */
                assert_non_null(bot);
                fig_bot_free(bot);
                break;
            }
            expect_space(specs[i], k, rc, &msg);
            assert_null(bot);
            assert_true(k < 1000);
        }
        if (k < 2)
            fail_msg("%s: no allocation to fail", specs[i]);
    }
}

/* ismcts allocates its own tree at its first think without scratch: when
 * that fails, the think still answers legally (the handle overrules). */
static void test_search_without_memory_still_answers(void **state)
{
    (void)state;
    fig_bot_t *bot;
    fig_msg_t msg;
    assert_int_equal(fig_bot_new(&bot, "ismcts:iters=50", 3, &msg), FIG_OK);
    fig_setup_t setup;
    fig_setup_random(&setup, 4, 3, NULL);
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fig_game_init(g, &setup);
    fig_game_deal_seeded(g);
    int seat = g->state.turn;
    assert_int_equal(fig_bot_game(bot, &setup, seat, &msg), FIG_OK);
    assert_int_equal(fig_bot_round(bot, &g->hands[0][seat], &msg), FIG_OK);
    alloc_fail_arm(1);
    fig_action_t a = fig_bot_choose(bot, 0);
    long made = alloc_fail_disarm();
    assert_true(made >= 1);
    assert_int_equal(fig_state_check(&g->state, a, NULL), FIG_OK);
    assert_int_equal(fig_bot_overrules(bot), 1);
    a = fig_bot_choose(bot, 0);   /* memory again: the search itself answers */
    assert_int_equal(fig_state_check(&g->state, a, NULL), FIG_OK);
    assert_int_equal(fig_bot_overrules(bot), 1);
    fig_bot_free(bot);
    free(g);
}

/* ---- pools and matches */

static void test_pool_creation_sweep(void **state)
{
    (void)state;
    long k = 1;
    for (;; k++) {
        fig_pool_t *pool = (fig_pool_t *)&pool;
        fig_msg_t msg = { "", 0 };
        fig_pool_opts_t po = { 3, 1u << 20 };
        alloc_fail_arm(k);
        fig_err_t rc = fig_pool_new(&pool, &po, &msg);
        long made = alloc_fail_disarm();
        if (rc == FIG_OK) {
            assert_true(made < k);
            assert_int_equal(fig_pool_threads(pool), 3);
            fig_pool_free(pool);
            break;
        }
        expect_space("fig_pool_new", k, rc, &msg);
        assert_null(pool);
    }
    assert_true(k >= 3);   /* the pool, its workers' table, ... */
}

/* Match options with bots made before arming (their own sweep is above). */
static fig_match_opts_t opts(fig_pool_t *pool, const char *fig)
{
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, 4, 11, NULL);
    char spec[2100];
    snprintf(spec, sizeof spec, "cmd:%s engine --bot random", fig);
    const char *specs[4] = { NULL, "greedy", "ismcts:iters=5", spec };
    fig_msg_t msg;
    for (int s = 1; s < 4; s++)
        if (fig_bot_any_new(&o.bots[s], specs[s], (uint64_t)s, 100, &msg) != FIG_OK)
            fail_msg("%s: %s", specs[s], msg.text);
    o.pool = pool;
    return o;
}

static void test_match_creation_sweep(void **state)
{
    (void)state;
    char fig[2048];
    figaro_path(fig, sizeof fig);
    fig_pool_t *shared;
    fig_msg_t msg;
    fig_pool_opts_t po = { 1, 1u << 20 };
    assert_int_equal(fig_pool_new(&shared, &po, &msg), FIG_OK);
    /* A record to resume: a few moves of a game. */
    fig_game_t *rec = malloc(sizeof *rec);
    assert_non_null(rec);
    fig_setup_t setup;
    fig_setup_random(&setup, 4, 11, NULL);
    fig_rng_t rng;
    fig_rng_seed(&rng, 5);
    fig_game_init(rec, &setup);
    fig_game_deal_seeded(rec);
    for (int i = 0; i < 5; i++)
        assert_int_equal(fig_game_play(rec, fig_state_random_action(&rec->state, &rng), NULL,
                                       NULL), FIG_OK);
    for (int variant = 0; variant < 4; variant++) {
        bool own = variant & 1, resume = variant & 2;
        long k = 1;
        for (;; k++) {
            fig_match_opts_t o = opts(own ? NULL : shared, fig);
            fig_match_t *m = (fig_match_t *)&m;
            fig_msg_t why = { "", 0 };
            alloc_fail_arm(k);
            fig_err_t rc = resume ? fig_match_resume(&m, rec, &o, &why)
                                  : fig_match_new(&m, &o, &why);
            long made = alloc_fail_disarm();
            if (rc == FIG_OK) {
                assert_true(made < k);
                assert_int_not_equal(fig_match_status(m), FIG_MATCH_OVER);
                fig_match_free(m);   /* the engine's handshake is called off */
                break;
            }
            /* The match took the bots, even on failure (LeakSanitizer). */
            expect_space(resume ? "fig_match_resume" : "fig_match_new", k, rc, &why);
            assert_null(m);
        }
        if (k < (own ? 3 : 2))
            fail_msg("variant %d: only %ld allocations to fail", variant, k - 1);
    }
    fig_pool_free(shared);   /* waits for the shared matches' last jobs */
    struct timespec ts = { 0, 300 * 1000000L };
    nanosleep(&ts, NULL);    /* and the private pools' workers theirs */
    free(rec);
}

/* ---- catalogues */

/* A .mo file without a message: its 28-byte header alone (magic in this
 * machine's byte order, revision 0, no message, every table at its end). */
static const uint32_t empty_mo[7] = { 0x950412de, 0, 0, 28, 28, 0, 28 };

/* Opens a catalogue the way `way` says: 0 from memory, 1 English (no file),
 * 2 French from dir's fr/LC_MESSAGES/figaro.mo. */
static fig_err_t open_catalog(int way, const char *dir, fig_catalog_t **c, fig_msg_t *msg)
{
    if (way == 0)
        return fig_catalog_from_buffer(c, empty_mo, sizeof empty_mo, "empty.mo", msg);
    return fig_catalog_open(c, dir, way == 1 ? "en" : "fr", msg);
}

static void test_catalog_open_sweep(void **state)
{
    (void)state;
    char dir[] = "/tmp/figaro-alloc-XXXXXX", sub[64], path[96];
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/fr", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/fr/LC_MESSAGES", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(path, sizeof path, "%s/figaro.mo", sub);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(empty_mo, sizeof empty_mo, 1, f), 1);
    assert_int_equal(fclose(f), 0);
    static const char *const ways[] = { "fig_catalog_from_buffer", "fig_catalog_open(en)",
                                        "fig_catalog_open(fr)" };
    for (int way = 0; way < 3; way++) {
        long k = 1;
        for (;; k++) {
            fig_catalog_t *c = (fig_catalog_t *)&c;
            fig_msg_t msg = { "", 0 };
            alloc_fail_arm(k);
            fig_err_t rc = open_catalog(way, dir, &c, &msg);
            long made = alloc_fail_disarm();
            if (rc == FIG_OK) {
                assert_true(made < k);
                fig_catalog_free(c);
                break;
            }
            expect_space(ways[way], k, rc, &msg);
            assert_null(c);
        }
        if (k < 2)
            fail_msg("%s: no allocation to fail", ways[way]);
    }
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(sub), 0);
    snprintf(sub, sizeof sub, "%s/fr", dir);
    assert_int_equal(rmdir(sub), 0);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bot_creation_sweep),
        cmocka_unit_test(test_search_without_memory_still_answers),
        cmocka_unit_test(test_pool_creation_sweep),
        cmocka_unit_test(test_match_creation_sweep),
        cmocka_unit_test(test_catalog_open_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
