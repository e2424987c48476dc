/* SPDX-License-Identifier: MIT */
/* test_fep_engine.c - the engine side of FEP as a library (host/fep_engine.h):
 * lines in, answers out through the callback, no standard input or output.
 *
 *   - the handshake answers `id name`, `id author`, `fepok`; anything before
 *     it is refused with one `info error`;
 *   - whole seeded games of 3-6 players told line by line: the engine answers
 *     every `go` on its seat with one `play` that the rules accept, and says
 *     nothing else;
 *   - malformed and out-of-order lines get exactly one printable `info
 *     error` each and change nothing (the game goes on after them);
 *   - a too-long line is answered, `quit` stops, and a host that cannot be
 *     reached (the callback fails) stops the engine. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/fep_engine.h"

/* What the engine said since the last reset. */
typedef struct {
    char lines[8][600];
    int n;
    bool fail;   /* the host is gone: every say fails */
} heard_t;

static bool hear(void *user, const char *line)
{
    heard_t *h = user;
    if (h->fail)
        return false;
    assert_true(h->n < 8);
    snprintf(h->lines[h->n++], sizeof h->lines[0], "%s", line);
    for (const char *c = line; *c; c++)
        assert_true(*c >= 0x20 && *c < 0x7F);   /* one printable line */
    return true;
}

static fig_fep_engine_t *engine(const char *spec, heard_t *h)
{
    fig_bot_t *bot;
    fig_fep_engine_t *e;
    memset(h, 0, sizeof *h);
    assert_int_equal(fig_bot_new(&bot, spec, 3, NULL), FIG_OK);
    assert_int_equal(fig_fep_engine_new(&e, bot, hear, h, NULL), FIG_OK);
    return e;
}

/* Sends a line and expects `want` answers, the first starting with `prefix`. */
static void send(fig_fep_engine_t *e, heard_t *h, const char *line, int want, const char *prefix)
{
    h->n = 0;
    assert_true(fig_fep_engine_line(e, line));
    if (h->n != want || (prefix && strncmp(h->lines[0], prefix, strlen(prefix)) != 0)) {
        print_error("line '%s': %d answers (%s), expected %d starting '%s'\n", line, h->n,
                    h->n ? h->lines[0] : "", want, prefix ? prefix : "");
        fail();
    }
}

static void test_fep_engine_handshake(void **cm)
{
    (void)cm;
    heard_t h;
    fig_fep_engine_t *e = engine("greedy", &h);
    send(e, &h, "go 100", 1, "info error: expected 'fep 1' first (line 'go 100')");
    send(e, &h, "fep 2", 1, "info error: this engine speaks FEP version 1");
    send(e, &h, "", 0, NULL);
    send(e, &h, "fep 1", 3, "id name figaro greedy");
    assert_string_equal(h.lines[1], "id author the figaro project");
    assert_string_equal(h.lines[2], "fepok");
    send(e, &h, "go 100", 1, "info error: go: no game has started");
    send(e, &h, "frobnicate", 1, "info error: unknown command 'frobnicate'");
    send(e, &h, "move 0\tR1>1\x01", 1, "info error: move: no game has started");
    assert_non_null(strstr(h.lines[0], "(line 'move 0?R1>1?')"));   /* control chars shown as ? */
    h.n = 0;
    char start[FIG_FEP_LINE_MAX + 1];
    memset(start, 'x', sizeof start - 1);
    start[sizeof start - 1] = '\0';
    assert_true(fig_fep_engine_too_long(e, start));
    assert_int_equal(h.n, 1);
    assert_non_null(strstr(h.lines[0], "line longer than 4095 bytes"));
    assert_non_null(strstr(h.lines[0], "...')"));
    h.n = 0;
    assert_false(fig_fep_engine_line(e, "quit"));
    assert_int_equal(h.n, 0);
    h.fail = true;   /* the host is gone: the engine asks to stop */
    assert_false(fig_fep_engine_line(e, "fep 1"));
    assert_false(fig_fep_engine_line(e, "nonsense"));
    fig_fep_engine_free(e);
    fig_fep_engine_free(NULL);
}

/* Tells a whole game to an engine at seat `me`, with bad lines in between. */
static void play_game(uint64_t seed)
{
    int n = 3 + (int)(seed % 4), me = (int)(seed / 4 % (uint64_t)n);
    heard_t h;
    fig_fep_engine_t *e = engine(seed % 2 ? "random" : "greedy", &h);
    fig_setup_t setup;
    fig_game_t g;
    fig_rng_t rng;
    char line[400], buf[300];
    fig_setup_random(&setup, n, seed, NULL);
    fig_game_init(&g, &setup);
    fig_rng_seed_stream(&rng, seed, 5);
    send(e, &h, "fep 1", 3, "id name");
    size_t len = (size_t)snprintf(line, sizeof line, "game players %d seat %d king %d removed %c "
                                  "roads", n, me, setup.king,
                                  n == 3 ? fig_colour_letter(setup.removed) : '-');
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < n - 1; i++)
            len += (size_t)snprintf(line + len, sizeof line - len, "%s %u", i == 0 && r ? " /" : "",
                                    (unsigned)setup.roads[r][i]);
    send(e, &h, line, 0, NULL);
    snprintf(line, sizeof line, "names %s", n == 3 ? "a b" : "a");
    send(e, &h, line, 1, "info error: names: expected");
    int plays = 0;
    while (!fig_game_over(&g)) {
        fig_game_deal_seeded(&g);
        send(e, &h, "round 3 hand R1", 1, "info error: round:");
        fig_hand_format(&g.hands[g.dealt - 1][me], buf, sizeof buf);
        snprintf(line, sizeof line, "round %d hand %s", g.dealt, buf);
        send(e, &h, line, 0, NULL);
        while (g.state.phase == FIG_PHASE_PLAY) {
            int s = g.state.turn;
            fig_action_t a;
            if (s == me) {
                send(e, &h, "go 0", 1, "play ");
                a = fig_act_parse(h.lines[0] + 5, strlen(h.lines[0] + 5), me);
                assert_int_equal(fig_state_check(&g.state, a, NULL), FIG_OK);
                plays++;
            } else {
                send(e, &h, "go 0", 1, "info error: go: it is not seat");
                a = fig_state_random_action(&g.state, &rng);
            }
            snprintf(line, sizeof line, "move %d %s", (s + 1) % n, fig_act_format(a, buf, 16));
            send(e, &h, line, 1, "info error: move: it is seat");
            send(e, &h, "move 0 take now", 1, "info error: move: expected");
            snprintf(line, sizeof line, "move %d %s", s, fig_act_format(a, buf, 16));
            send(e, &h, line, 0, NULL);
            assert_int_equal(fig_game_play(&g, a, NULL, NULL), FIG_OK);
        }
    }
    size_t at = (size_t)snprintf(line, sizeof line, "gameover");
    for (int s = 0; s < n; s++)
        at += (size_t)snprintf(line + at, sizeof line - at, " %d", fig_state_road(&g.state, s));
    send(e, &h, line, 0, NULL);
    send(e, &h, "go 0", 1, "info error: go: no game has started");
    assert_true(plays > 0);
    assert_int_equal(fig_bot_overrules(fig_fep_engine_bot(e)), 0);
    fig_fep_engine_free(e);
}

static void test_fep_engine_whole_games(void **cm)
{
    (void)cm;
    for (uint64_t seed = 0; seed < 24; seed++)
        play_game(seed);
}

/* With the analysis on, a searching bot's `play` comes after `info analysis`,
 * up to three `info move` lines (the one played first) and `info hint`
 * with the names of the `names` line; greedy, which does not search, and an
 * engine with the analysis off answer `play` alone. */
static void test_fep_engine_analysis(void **cm)
{
    (void)cm;
    for (int on = 0; on < 2; on++) {
        heard_t h;
        fig_fep_engine_t *e = engine("ismcts:iters=200", &h);
        fig_fep_engine_set_analysis(e, on);
        fig_setup_t setup;
        fig_game_t g;
        char line[400], buf[300];
        fig_setup_random(&setup, 4, 9, NULL);
        fig_game_init(&g, &setup);
        fig_game_deal_seeded(&g);
        int me = setup.king;
        send(e, &h, "fep 1", 3, "id name");
        size_t len = (size_t)snprintf(line, sizeof line, "game players 4 seat %d king %d "
                                      "removed - roads", me, setup.king);
        for (int r = 0; r < FIG_ROUNDS; r++)
            for (int i = 0; i < 3; i++)
                len += (size_t)snprintf(line + len, sizeof line - len, "%s %u",
                                        i == 0 && r ? " /" : "", (unsigned)setup.roads[r][i]);
        send(e, &h, line, 0, NULL);
        send(e, &h, "names Ann Bartolo Rosina Figaro", 0, NULL);
        fig_hand_format(&g.hands[0][me], buf, sizeof buf);
        snprintf(line, sizeof line, "round 1 hand %s", buf);
        send(e, &h, line, 0, NULL);
        h.n = 0;
        assert_true(fig_fep_engine_line(e, "go 0"));
        if (!on) {
            assert_int_equal(h.n, 1);
            assert_true(strncmp(h.lines[0], "play ", 5) == 0);
            fig_fep_engine_free(e);
            continue;
        }
        assert_true(h.n >= 4 && h.n <= 6);
        int moves;
        long iters;
        int seat;
        assert_int_equal(sscanf(h.lines[0], "info analysis seat %d iterations %ld moves %d", &seat,
                                &iters, &moves), 3);
        assert_int_equal(seat, me);
        assert_true(iters >= 200 && moves >= 1);
        assert_int_equal(h.n, 3 + (moves < 3 ? moves : 3));
        char first[16];
        double share, win, place, collect, next;
        assert_int_equal(sscanf(h.lines[1], "info move 1 %15s share %lf win %lf place %lf "
                                "collect %lf next %lf", first, &share, &win, &place, &collect,
                                &next), 6);
        assert_true(share > 0 && share <= 1 && win >= 0 && win <= 1 && place >= 1 && place <= 4);
        assert_true(strncmp(h.lines[h.n - 2], "info hint Hint: ", 16) == 0);
        assert_true(strncmp(h.lines[h.n - 1], "play ", 5) == 0);
        assert_string_equal(h.lines[h.n - 1] + 5, first);   /* the move played comes first */
        fig_fep_engine_free(e);
    }
    heard_t h;
    fig_fep_engine_t *e = engine("greedy", &h);
    fig_fep_engine_set_analysis(e, true);
    fig_fep_engine_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fep_engine_handshake),
        cmocka_unit_test(test_fep_engine_whole_games),
        cmocka_unit_test(test_fep_engine_analysis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
