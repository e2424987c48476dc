/* SPDX-License-Identifier: MIT */
/* test_fep_host.c - the host side of FEP (src/host/fep_host.h) against real
 * engine processes: `figaro engine --bot greedy` (the program under test,
 * from $FIGARO or next to this test) and the broken engines of tests/fep/.
 *
 *   - a sound engine plays whole games, one process for several, no fault;
 *   - each broken engine commits exactly one fault per game, recorded with
 *     the right kind, seat, spec, details, and told by fig_fault_text in the
 *     words test_fep.sh expects from the arena; the game still finishes;
 *   - fig_fault_text goes through the translator it is given;
 *   - a think's cancel flag and the fig_bot_watch flag end an engine's waits
 *     early, without a fault;
 *   - specs that name no program are errors at once, not faults;
 *   - the pure line functions (fig_fep_split_line, fig_fep_parse_line:
 *     src/host/fep_line.h).
 *
 * The broken engines run in parallel threads, one bot each: the silent one
 * alone costs the 5 s handshake limit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/fep_host.h"
#include "host/fep_line.h"
#include "host/util.h"

/* ------------------------------------------------------------------ helpers */

/* This test program's folder. */
static void own_dir(char *out, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", out, cap - 1);
    out[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(out, cap, ".");
}

/* The figaro program: $FIGARO (tests/run.sh sets it), else next to us. */
static void figaro_path(char *out, size_t cap)
{
    const char *env = getenv("FIGARO");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return;
    }
    char dir[2048];
    own_dir(dir, sizeof dir);
    snprintf(out, cap, "%s/figaro", dir);
}

/* A script of tests/fep: from $FIGARO_SRC, else two folders above us
 * (build/test), else from the current folder. */
static void fep_script(const char *name, char *out, size_t cap)
{
    const char *root = getenv("FIGARO_SRC");
    char dir[2048];
    if (root && *root) {
        snprintf(out, cap, "%s/tests/fep/%s", root, name);
        return;
    }
    own_dir(dir, sizeof dir);
    snprintf(out, cap, "%s/../../tests/fep/%s", dir, name);
    if (access(out, X_OK) != 0)
        snprintf(out, cap, "tests/fep/%s", name);
}

static fig_bot_t *engine(const char *spec, uint64_t seed, int move_ms)
{
    fig_bot_t *bot;
    fig_msg_t msg;
    if (fig_bot_any_new(&bot, spec, seed, move_ms, &msg) != FIG_OK)
        fail_msg("%s: %s", spec, msg.text);
    return bot;
}

/* Plays one game with `bot` at `seat` and random actions elsewhere, telling
 * the bot everything as a host must. Returns 0, or -1 with why in err (this
 * runs on helper threads, where cmocka cannot fail a test). */
static int play_game(fig_bot_t *bot, int seat, int players, uint64_t seed, int ms,
                     const atomic_bool *cancel, char *err, size_t cap)
{
    fig_setup_t setup;
    fig_setup_random(&setup, players, seed, NULL);
    fig_game_t *g = malloc(sizeof *g);
    if (!g) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    fig_game_init(g, &setup);
    fig_rng_t rng;
    fig_rng_seed(&rng, seed);
    fig_msg_t msg;
    int rc = 0;
    if (fig_bot_game(bot, &setup, seat, &msg) != FIG_OK) {
        snprintf(err, cap, "fig_bot_game: %s", msg.text);
        rc = -1;
    }
    while (!rc && !fig_game_over(g)) {
        if (g->state.phase == FIG_PHASE_DEAL) {
            fig_game_deal_seeded(g);
            if (fig_bot_round(bot, &g->hands[g->dealt - 1][seat], &msg) != FIG_OK) {
                snprintf(err, cap, "fig_bot_round: %s", msg.text);
                rc = -1;
                break;
            }
        }
        fig_action_t a = g->state.turn == seat ? fig_bot_choose_with(bot, ms, NULL, cancel)
                                               : fig_state_random_action(&g->state, &rng);
        if (fig_game_play(g, a, NULL, &msg) != FIG_OK) {
            snprintf(err, cap, "the bot's action was refused: %s", msg.text);
            rc = -1;
        } else if (fig_bot_move(bot, a, &msg) != FIG_OK) {
            snprintf(err, cap, "fig_bot_move: %s", msg.text);
            rc = -1;
        }
    }
    if (!rc)
        fig_bot_game_over(bot);
    free(g);
    return rc;
}

/* ------------------------------------------------------------ a sound engine */

static void test_engine_plays_games_without_fault(void **state)
{
    (void)state;
    char fig[4096], spec[4200], err[256];
    figaro_path(fig, sizeof fig);
    if (access(fig, X_OK) != 0)
        fail_msg("no figaro program at %s (set FIGARO)", fig);
    snprintf(spec, sizeof spec, "cmd:%s engine --bot greedy", fig);
    fig_bot_t *bot = engine(spec, 3, 500);
    for (int game = 0; game < 3; game++)
        if (play_game(bot, game % 4, 4, 100 + (uint64_t)game, 0, NULL, err, sizeof err))
            fail_msg("game %d: %s", game, err);
    assert_int_equal(fig_bot_faults(bot), 0);
    assert_int_equal(fig_bot_overrules(bot), 0);
    fig_fault_t f;
    assert_false(fig_bot_take_fault(bot, &f));
    assert_string_equal(fig_bot_spec(bot), spec);
    fig_bot_free(bot);
}

/* ---------------------------------------------------------- broken engines */

typedef struct {
    const char *args;             /* a script of tests/fep and its words, or a program */
    fig_fault_kind_t kind, alt;   /* alt: a second kind the race may give, or NONE */
    const char *text;             /* in fig_fault_text's sentence */
    int exit_status, signal;      /* how it ended, -1/0: not checked */
} fault_expect_t;

typedef struct {
    char args[64];
    int games;                    /* 2, but 1 for the 5 s of silence */
    char spec[4300];
    char err[256];
    int faults;
    fig_fault_t fault[2];
    int nfaults_taken;
} fault_case_t;

static void *run_case(void *arg)
{
    fault_case_t *c = arg;
    fig_bot_t *bot;
    fig_msg_t msg;
    if (fig_bot_any_new(&bot, c->spec, 7, 100, &msg) != FIG_OK) {
        snprintf(c->err, sizeof c->err, "%s", msg.text);
        return NULL;
    }
    /* Two games: one fault each, a fresh process for the second. */
    for (int game = 0; game < c->games && !c->err[0]; game++) {
        if (play_game(bot, 1, 3, 40 + (uint64_t)game, 0, NULL, c->err, sizeof c->err))
            break;
        while (c->nfaults_taken < 2 && fig_bot_take_fault(bot, &c->fault[c->nfaults_taken]))
            c->nfaults_taken++;
    }
    c->faults = fig_bot_faults(bot);
    fig_bot_free(bot);
    return NULL;
}

static void test_each_fault_is_recorded(void **state)
{
    (void)state;
    char tmp[] = "/tmp/figaro-fep-host-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char longline[4200];
    snprintf(longline, sizeof longline, "%s/long.sh", tmp);
    FILE *f = fopen(longline, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\nread -r line\nhead -c 5000 /dev/zero | tr '\\000' x\necho\nsleep 5\n", f);
    fclose(f);
    chmod(longline, 0755);

    static const fault_expect_t expect[] = {
        { "garbage.sh junk", FIG_FAULT_NOT_PLAY, 0,
          "answered 'go' with 'bonjour, je suis un moteur', not 'play <action>'", -1, 0 },
        { "garbage.sh word", FIG_FAULT_MALFORMED, 0, "malformed answer 'play banana'", -1, 0 },
        { "garbage.sh empty", FIG_FAULT_MALFORMED, 0, "malformed answer 'play'", -1, 0 },
        { "garbage.sh two", FIG_FAULT_MALFORMED, 0, "malformed answer 'play take take'", -1, 0 },
        { "garbage.sh binary", FIG_FAULT_NOT_PLAY, 0, "answered 'go' with 'play R1>0\?\?\?'", -1,
          0 },
        { "garbage.sh id", FIG_FAULT_NOT_PLAY, 0, "with 'id name late'", -1, 0 },
        { "illegal.sh nocard", FIG_FAULT_ILLEGAL, 0, "illegal answer 'play ", -1, 0 },
        { "illegal.sh ring", FIG_FAULT_ILLEGAL, 0, "illegal answer 'play RING>2': ", -1, 0 },
        { "crash.sh go", FIG_FAULT_EXIT, 0, "exited instead of answering 'go 100' (exit status 3)",
          3, 0 },
        { "crash.sh signal", FIG_FAULT_EXIT, 0, "(killed by signal 11)", -1, 11 },
        /* It closes its input right after reading `fep 1`; lines written
         * before it does sit unread in the pipe, and then `go` is late. */
        { "crash.sh deaf", FIG_FAULT_INPUT_CLOSED, FIG_FAULT_LATE, "fault: closed its input", -1,
          0 },
        { "crash.sh handshake", FIG_FAULT_INPUT_CLOSED, FIG_FAULT_EXIT, "fault: ", -1, 0 },
        { "slow.sh 30", FIG_FAULT_LATE, 0, "no answer to 'go 100' within 1100 ms", -1, 0 },
        { "noisy.sh flood", FIG_FAULT_LATE, 0, "; its last info: info la la", -1, 0 },
        { "noisy.sh huge", FIG_FAULT_LONG, 0, "a line longer than 4095 bytes;", -1, 0 },
        { "silent.sh", FIG_FAULT_HANDSHAKE_TIMEOUT, 0, "no 'fepok' within 5 s of 'fep 1'", -1,
          0 },
        { "cat", FIG_FAULT_HANDSHAKE_ANSWER, 0, "answered 'fep 1' with 'fep 1', not 'fepok'",
          -1, 0 },
        /* It may be gone before `fep 1` is written: then that write fails. */
        { "true", FIG_FAULT_HANDSHAKE_EXIT, FIG_FAULT_INPUT_CLOSED,
          "exited during the handshake (exit status 0)", 0, 0 },
        { "long", FIG_FAULT_HANDSHAKE_LONG, 0, "a line longer than 4095 bytes during the "
          "handshake", -1, 0 },
    };
    enum { N = sizeof expect / sizeof expect[0] };
    static fault_case_t cases[N];
    memset(cases, 0, sizeof cases);
    pthread_t tid[N];
    for (int i = 0; i < N; i++) {
        fault_case_t *c = &cases[i];
        const fault_expect_t *x = &expect[i];
        snprintf(c->args, sizeof c->args, "%s", x->args);
        c->games = x->kind == FIG_FAULT_HANDSHAKE_TIMEOUT ? 1 : 2;
        char path[2048];
        if (strcmp(c->args, "cat") == 0 || strcmp(c->args, "true") == 0) {
            snprintf(c->spec, sizeof c->spec, "cmd:%s", x->args);
        } else if (strcmp(c->args, "long") == 0) {
            snprintf(c->spec, sizeof c->spec, "cmd:%s", longline);
        } else {
            char script[64];
            size_t n = strcspn(c->args, " ");
            snprintf(script, sizeof script, "%.*s", (int)n, c->args);
            fep_script(script, path, sizeof path);
            snprintf(c->spec, sizeof c->spec, "cmd:%s%s", path, x->args + n);
        }
        assert_int_equal(pthread_create(&tid[i], NULL, run_case, c), 0);
    }
    for (int i = 0; i < N; i++)
        pthread_join(tid[i], NULL);
    remove(longline);
    rmdir(tmp);

    for (int i = 0; i < N; i++) {
        fault_case_t *c = &cases[i];
        const fault_expect_t *x = &expect[i];
        if (c->err[0])
            fail_msg("%s: %s", c->args, c->err);
        if (c->faults != c->games || c->nfaults_taken != c->games)
            fail_msg("%s: %d faults counted, %d taken; expected %d (one per game)", c->args,
                     c->faults, c->nfaults_taken, c->games);
        for (int k = 0; k < c->games; k++) {
            const fig_fault_t *ft = &c->fault[k];
            char text[1024];
            fig_fault_text(ft, NULL, text, sizeof text);
            if (ft->kind != x->kind && !(x->alt && ft->kind == x->alt))
                fail_msg("%s, game %d: fault kind %d, expected %d: %s", c->args, k + 1,
                         (int)ft->kind, (int)x->kind, text);
            if (ft->kind == x->kind && !strstr(text, x->text))
                fail_msg("%s: '%s' is not in: %s", c->args, x->text, text);
            char head[4400];
            snprintf(head, sizeof head, "FEP engine '%s' (seat 1): fault: ", c->spec);
            if (strncmp(text, head, strlen(head)) != 0)
                fail_msg("%s: the sentence does not start with the engine and seat: %s",
                         c->args, text);
            if (!strstr(text, "; it plays random moves for the rest of this game"))
                fail_msg("%s: the sentence does not say what happens next: %s", c->args, text);
            assert_int_equal(ft->seat, 1);
            assert_string_equal(ft->spec, c->spec);
            if (x->exit_status >= 0)
                assert_int_equal(ft->exit_status, x->exit_status);
            if (x->signal > 0)
                assert_int_equal(ft->signal, x->signal);
        }
    }
}

/* ------------------------------------------------------- fig_fault_text */

/* A translator with a two-entry catalogue, as a front end's would be. */
static const char *test_tr_text(const fig_tr_t *tr, const char *msgid)
{
    (void)tr;
    if (strcmp(msgid, "malformed answer '%s'") == 0)
        return "réponse mal formée « %s »";
    if (strcmp(msgid, "FEP engine '%s' (seat %d): fault: %s%s%s; it plays random moves for the "
                      "rest of this game") == 0)
        return "moteur FEP '%s' (place %d) : faute : %s%s%s ; il joue au hasard jusqu'à la fin";
    if (strcmp(msgid, "; its last info: %s") == 0)
        return " ; sa dernière info : %s";
    return msgid;
}

static void test_fault_text_in_the_readers_language(void **state)
{
    (void)state;
    fig_fault_t f;
    memset(&f, 0, sizeof f);
    f.kind = FIG_FAULT_MALFORMED;
    f.seat = 2;
    f.exit_status = -1;
    snprintf(f.spec, sizeof f.spec, "cmd:x");
    snprintf(f.line, sizeof f.line, "play banana");
    snprintf(f.info, sizeof f.info, "info thinking");
    fig_tr_t fr = { test_tr_text, NULL, NULL };
    char text[512];
    assert_ptr_equal(fig_fault_text(&f, &fr, text, sizeof text), text);
    assert_string_equal(text, "moteur FEP 'cmd:x' (place 2) : faute : réponse mal formée "
                              "« play banana » ; sa dernière info : info thinking ; il joue au "
                              "hasard jusqu'à la fin");
    fig_fault_text(&f, NULL, text, sizeof text);
    assert_string_equal(text, "FEP engine 'cmd:x' (seat 2): fault: malformed answer 'play "
                              "banana'; its last info: info thinking; it plays random moves for "
                              "the rest of this game");
    /* A small buffer is cut, never overrun. */
    char small[16];
    fig_fault_text(&f, NULL, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
    /* Each kind says something of its own. */
    char seen[FIG_FAULT_NOT_PLAY + 1][512];
    for (int k = FIG_FAULT_PIPES; k <= FIG_FAULT_NOT_PLAY; k++) {
        f.kind = (fig_fault_kind_t)k;
        fig_fault_text(&f, NULL, seen[k], sizeof seen[k]);
        for (int j = FIG_FAULT_PIPES; j < k; j++)
            assert_string_not_equal(seen[j], seen[k]);
    }
}

/* ----------------------------------------------- giving up a wait early */

typedef struct {
    atomic_bool *flag;
    int after_ms;
} raiser_t;

static void *raise_later(void *arg)
{
    raiser_t *r = arg;
    struct timespec ts = { r->after_ms / 1000, (long)(r->after_ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
    atomic_store(r->flag, true);
    return NULL;
}

/* A slow engine (30 s per answer) asked to hurry: the think ends at once,
 * the engine is stopped, no fault is counted, and the game finishes with
 * random moves. */
static void test_cancel_ends_an_engine_think(void **state)
{
    (void)state;
    char path[4096], spec[4200], err[256];
    fep_script("slow.sh", path, sizeof path);
    snprintf(spec, sizeof spec, "cmd:%s 30", path);
    fig_bot_t *bot = engine(spec, 1, 20000);
    atomic_bool cancel;
    atomic_init(&cancel, false);
    raiser_t r = { &cancel, 150 };
    pthread_t tid;
    assert_int_equal(pthread_create(&tid, NULL, raise_later, &r), 0);
    long long t0 = fig_clock_ms();
    if (play_game(bot, 0, 3, 9, 0, &cancel, err, sizeof err))
        fail_msg("%s", err);
    pthread_join(tid, NULL);
    assert_true(fig_clock_ms() - t0 < 3000);
    assert_int_equal(fig_bot_faults(bot), 0);
    fig_fault_t f;
    assert_false(fig_bot_take_fault(bot, &f));
    fig_bot_free(bot);
}

/* An engine silent in its handshake, and the host closing: fig_bot_game
 * gives up soon after the watched flag is raised, without a fault. */
static void test_watch_ends_a_handshake(void **state)
{
    (void)state;
    char path[4096], spec[4200];
    fep_script("silent.sh", path, sizeof path);
    snprintf(spec, sizeof spec, "cmd:%s", path);
    fig_bot_t *bot = engine(spec, 1, 100);
    atomic_bool closing;
    atomic_init(&closing, false);
    fig_bot_watch(bot, &closing);
    raiser_t r = { &closing, 150 };
    pthread_t tid;
    assert_int_equal(pthread_create(&tid, NULL, raise_later, &r), 0);
    fig_setup_t setup;
    fig_setup_random(&setup, 3, 1, NULL);
    long long t0 = fig_clock_ms();
    assert_int_equal(fig_bot_game(bot, &setup, 0, NULL), FIG_OK);
    long long took = fig_clock_ms() - t0;
    pthread_join(tid, NULL);
    assert_true(took >= 100 && took < 2000);
    assert_int_equal(fig_bot_faults(bot), 0);
    fig_bot_free(bot);
}

/* ----------------------------------------------------------------- specs */

static void test_specs_that_name_no_program(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *says;
    } bad[] = {
        { "cmd:", "no program after 'cmd:'" },
        { "cmd:   ", "no program after 'cmd:'" },
        { "cmd:/no/such/engine", "not an executable file" },
        { "cmd:/tmp", "not an executable file" },
        { "cmd:no-such-engine-anywhere-at-all", "not found in PATH" },
        { "nonsense", "is not a bot" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fig_bot_t *bot = (fig_bot_t *)&bot;
        fig_msg_t msg;
        assert_int_equal(fig_bot_any_new(&bot, bad[i].spec, 1, 100, &msg), FIG_ERR_INPUT);
        assert_null(bot);
        if (!strstr(msg.text, bad[i].says))
            fail_msg("%s: '%s' does not say '%s'", bad[i].spec, msg.text, bad[i].says);
    }
    fig_bot_t *bot;
    fig_msg_t msg;
    assert_int_equal(fig_bot_any_new(&bot, "greedy", 1, 100, &msg), FIG_OK);
    assert_string_equal(fig_bot_spec(bot), "greedy");
    fig_bot_free(bot);
    assert_int_equal(fep_host_bot_new(&bot, "greedy", 1, 100, &msg), FIG_ERR_INPUT);
}

/* ------------------------------------------------------ the pure reader */

static void test_parse_line(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        size_t len;   /* 0: strlen */
        int seat;
        fig_fep_line_t kind;
        const char *action;   /* FGN text for seat, when PLAY */
    } cases[] = {
        { "", 0, 0, FIG_FEP_BLANK, NULL },
        { " \t ", 0, 0, FIG_FEP_BLANK, NULL },
        { "fepok", 0, 0, FIG_FEP_FEPOK, NULL },
        { "  FEPOK  ", 0, 0, FIG_FEP_FEPOK, NULL },
        { "fepok\0", 6, 0, FIG_FEP_OTHER, NULL },
        { "fepokay", 0, 0, FIG_FEP_OTHER, NULL },
        { "info hello world", 0, 0, FIG_FEP_INFO, NULL },
        { "INFO", 0, 0, FIG_FEP_INFO, NULL },
        { "info\0x", 6, 0, FIG_FEP_INFO, NULL },
        { "id name x", 0, 0, FIG_FEP_ID, NULL },
        { "play take", 0, 1, FIG_FEP_PLAY, "take" },
        { "Play  R2>1 ", 0, 2, FIG_FEP_PLAY, "R2>1" },
        { "play\tRING", 0, 2, FIG_FEP_PLAY, "RING" },
        { "play J1>0", 0, 3, FIG_FEP_PLAY, "J1>0" },
        { "play", 0, 0, FIG_FEP_MALFORMED, NULL },
        { "play banana", 0, 0, FIG_FEP_MALFORMED, NULL },
        { "play take take", 0, 0, FIG_FEP_MALFORMED, NULL },
        { "play R1>0\0\1", 11, 0, FIG_FEP_OTHER, NULL },
        { "\0play take", 10, 0, FIG_FEP_BLANK, NULL },
        { "bonjour", 0, 0, FIG_FEP_OTHER, NULL },
        { "playtake", 0, 0, FIG_FEP_OTHER, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len = cases[i].len ? cases[i].len : strlen(cases[i].line);
        fig_action_t a = 7;
        fig_fep_line_t k = fig_fep_parse_line(cases[i].line, len, cases[i].seat, &a);
        if (k != cases[i].kind)
            fail_msg("case %zu ('%s'): kind %d, expected %d", i, cases[i].line, (int)k,
                     (int)cases[i].kind);
        if (cases[i].action) {
            fig_action_t want = fig_act_parse(cases[i].action, strlen(cases[i].action),
                                              cases[i].seat);
            assert_int_not_equal(want, FIG_ACT_NONE);
            assert_int_equal(a, want);
        } else {
            assert_int_equal(a, FIG_ACT_NONE);
        }
        assert_int_equal(fig_fep_parse_line(cases[i].line, len, cases[i].seat, NULL), k);
    }
    /* Not NUL-terminated: only len bytes are read (ASan would see more). */
    char *exact = malloc(9);
    assert_non_null(exact);
    memcpy(exact, "play take", 9);
    assert_int_equal(fig_fep_parse_line(exact, 9, 0, NULL), FIG_FEP_PLAY);
    assert_int_equal(fig_fep_parse_line(exact, 4, 0, NULL), FIG_FEP_MALFORMED);
    free(exact);
}

static void test_split_line(void **state)
{
    (void)state;
    char buf[FIG_FEP_LINE_CAP], out[FIG_FEP_LINE_CAP];
    size_t len, n;
    memcpy(buf, "fepok\r\nplay take\nhalf", 21);
    len = 21;
    assert_true(fig_fep_split_line(buf, &len, out, &n));
    assert_string_equal(out, "fepok");
    assert_int_equal(n, 5);
    assert_true(fig_fep_split_line(buf, &len, out, &n));
    assert_string_equal(out, "play take");
    assert_int_equal(len, 4);
    assert_false(fig_fep_split_line(buf, &len, out, &n));
    assert_int_equal(len, 4);
    assert_memory_equal(buf, "half", 4);
    memcpy(buf + len, "\n\n", 2);
    len += 2;
    assert_true(fig_fep_split_line(buf, &len, out, &n));
    assert_string_equal(out, "half");
    assert_true(fig_fep_split_line(buf, &len, out, &n));
    assert_int_equal(n, 0);
    assert_int_equal(len, 0);
    /* A full buffer that is one line. */
    memset(buf, 'x', sizeof buf - 1);
    buf[sizeof buf - 1] = '\n';
    len = sizeof buf;
    assert_true(fig_fep_split_line(buf, &len, out, &n));
    assert_int_equal(n, sizeof buf - 1);
    assert_int_equal(len, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_plays_games_without_fault),
        cmocka_unit_test(test_each_fault_is_recorded),
        cmocka_unit_test(test_fault_text_in_the_readers_language),
        cmocka_unit_test(test_cancel_ends_an_engine_think),
        cmocka_unit_test(test_watch_ends_a_handshake),
        cmocka_unit_test(test_specs_that_name_no_program),
        cmocka_unit_test(test_parse_line),
        cmocka_unit_test(test_split_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
