/* SPDX-License-Identifier: MIT */
/* bench.c - `figaro bench`: the engine's speed, measured on one thread.
 *
 * The work is fixed (seeded positions, a set number of games), so the printed
 * signature is the same on every machine for the same engine behaviour; only
 * the rates depend on the machine. In the manner of Ethereal's bench, a change
 * to the rules engine that moves the signature must say why. `--quick` does a
 * smaller fixed work (one run, perft one ply shallower, a tenth of the ISMCTS
 * iterations) in about a second even under the sanitizers: its signature is
 * another number, pinned by tests/cli/test_bench.sh. */
#include <getopt.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "figaro/bot.h"

/* Positions for perft: `figaro random-game --players P --seed S` cut after A
 * actions of round 1 (bench/positions/ holds them as records). */
static const struct {
    int players;
    uint64_t seed;
    int actions;
    int depth;
} perft_positions[] = {
    { 3, 11, 4, 6 },
    { 4, 7, 0, 6 },
    { 4, 12, 9, 6 },
    { 5, 5, 6, 6 },
    { 6, 3, 10, 6 },
};
enum { NPOSITIONS = sizeof perft_positions / sizeof perft_positions[0] };

/* Every timed measurement runs REPEATS times and the fastest counts: the work
 * is identical each time, so the slower runs only measure interference. */
enum { REPEATS = 3, MCTS_ITERS = 50000, QUICK_GAMES = 2000 };

/* Single-threaded work is timed in the thread's CPU time, so a busy machine
 * slows the run down but does not change the figures much; the two-thread
 * ISMCTS figure needs wall time, since it measures the parallel speed-up. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h;
}

static void bench_position(int i, fig_state_t *st)
{
    fig_setup_t setup;
    fig_rng_t deal, moves;
    fig_setup_random(&setup, perft_positions[i].players, perft_positions[i].seed, NULL);
    fig_state_init(st, &setup);
    fig_rng_seed_stream(&deal, setup.seed, 1);
    fig_state_deal(st, &deal);
    fig_rng_seed_stream(&moves, setup.seed, 4);
    for (int a = 0; a < perft_positions[i].actions && st->phase == FIG_PHASE_PLAY; a++)
        fig_state_apply_legal(st, fig_state_random_action(st, &moves), NULL);
}

static void machine(char *buf, size_t cap)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    snprintf(buf, cap, "unknown CPU");
    if (!f)
        return;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                snprintf(buf, cap, "%s", colon + 2);
                buf[strcspn(buf, "\n")] = '\0';
            }
            break;
        }
    fclose(f);
}

int cmd_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        { "games", required_argument, NULL, 'g' },
        { "json", no_argument, NULL, 'j' },
        { "quick", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    long long games = -1;
    bool json = false, quick = false;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":g:jqh", opts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if (cli_parse_int(optarg, 1, 100000000, &games))
                return cli_usage_error("bench", "--games takes 1 to 100000000, not '%s'", optarg);
            break;
        case 'j': json = true; break;
        case 'q': quick = true; break;
        case 'h': return cli_help("bench");
        case ':':
            return cli_usage_error("bench", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("bench", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("bench", "unexpected argument '%s'", argv[optind]);
    /* The work: the full bench, or --quick's smaller budget (same steps). */
    int repeats = quick ? 1 : REPEATS, shallower = quick ? 1 : 0;
    long mcts_iters = quick ? MCTS_ITERS / 10 : MCTS_ITERS;
    if (games < 0)
        games = quick ? QUICK_GAMES : 200000;

    char cpu[128];
    machine(cpu, sizeof cpu);
    uint64_t signature = 0;

    /* 1. perft: generation and application, full information. */
    uint64_t nodes = 0;
    double perft_time = 1e300;
    for (int rep = 0; rep < repeats; rep++) {
        double t0 = cpu_now();
        nodes = 0;
        for (int i = 0; i < NPOSITIONS; i++) {
            fig_state_t st;
            bench_position(i, &st);
            uint64_t n = fig_state_perft(&st, perft_positions[i].depth - shallower);
            if (rep == 0)
                signature = mix(signature, n);
            nodes += n;
        }
        double t = cpu_now() - t0;
        perft_time = t < perft_time ? t : perft_time;
    }

    /* 2. random complete 4-player games: setup, three deals, every action, scoring;
     *    the same loop as a search bot's playouts. */
    uint64_t actions = 0;
    double game_time = 1e300;
    for (int rep = 0; rep < repeats; rep++) {
        fig_rng_t rng;
        fig_rng_seed(&rng, 2024);
        actions = 0;
        double t0 = cpu_now();
        for (long long g = 0; g < games; g++) {
            fig_setup_t setup;
            fig_state_t st;
            fig_setup_random(&setup, 4, (uint64_t)g, NULL);
            fig_state_init(&st, &setup);
            actions += (uint64_t)fig_state_playout(&st, &rng, 0);
            int ranking[FIG_MAX_PLAYERS];
            fig_state_ranking(&st, ranking);
            if (rep == 0)
                signature = mix(signature, (uint64_t)ranking[0] << 32 |
                                           (uint64_t)fig_state_road(&st, 0));
        }
        double t = cpu_now() - t0;
        game_time = t < game_time ? t : game_time;
    }
    signature = mix(signature, actions);

    /* 3. ISMCTS from the start of a 4-player game: iterations per second with
     * one and two threads (root parallelism), a fixed iteration budget; then,
     * for comparison, one thread with playouts to the game's end
     * (exact=0,playout=avoid,copp=0.7: every playout to the game's end). */
    double mcts_rate[3] = { 0, 0, 0 };
    for (int t = 0; t < 3; t++) {
        char spec[64];
        long iters = mcts_iters * (t == 1 ? 2 : 1);
        snprintf(spec, sizeof spec, "ismcts:iters=%ld,threads=%d%s", iters, t == 1 ? 2 : 1,
                 t == 2 ? ",exact=0,playout=avoid,copp=0.7" : "");
        for (int rep = 0; rep < repeats; rep++) {
            fig_bot_t *bot;
            fig_msg_t msg;
            if (fig_bot_new(&bot, spec, 7, &msg) != FIG_OK) {
                fprintf(stderr, "figaro bench: %s\n", msg.text);
                return EXIT_INPUT;
            }
            fig_setup_t setup;
            fig_game_t game;
            fig_setup_random(&setup, 4, 2024, NULL);
            fig_game_init(&game, &setup);
            fig_game_deal_seeded(&game);
            int seat = game.state.turn;
            fig_bot_game(bot, &setup, seat, NULL);
            fig_bot_round(bot, &game.hands[0][seat], NULL);
            double (*clock)(void) = t == 1 ? wall_now : cpu_now;
            double t0 = clock();
            fig_action_t act = fig_bot_choose(bot, 0);
            double rate = (double)iters / (clock() - t0);
            mcts_rate[t] = rate > mcts_rate[t] ? rate : mcts_rate[t];
            if (t == 0 && rep == 0)
                signature = mix(signature, act);   /* deterministic for a fixed budget */
            fig_bot_free(bot);
        }
    }

    double perft_rate = nodes / perft_time, game_rate = (double)games / game_time;
    double action_rate = (double)actions / game_time;
    if (json) {
        json_t *o = json_pack("{s:s, s:s, s:I, s:f, s:f, s:I, s:I, s:f, s:f, s:f, s:s}",
                              "version", FIG_VERSION, "cpu", cpu, "perft_nodes", (json_int_t)nodes,
                              "perft_seconds", perft_time, "perft_nodes_per_second", perft_rate,
                              "games", (json_int_t)games, "actions", (json_int_t)actions,
                              "game_seconds", game_time, "games_per_second", game_rate,
                              "actions_per_second", action_rate, "signature", "");
        json_object_set_new(o, "ismcts_iterations_per_second_1_thread", json_real(mcts_rate[0]));
        json_object_set_new(o, "ismcts_iterations_per_second_2_threads", json_real(mcts_rate[1]));
        json_object_set_new(o, "ismcts_iterations_per_second_full_playouts",
                            json_real(mcts_rate[2]));
        char sig[32];
        snprintf(sig, sizeof sig, "%016" PRIx64, signature);
        json_object_set_new(o, "signature", json_string(sig));
        char *text = json_dumps(o, JSON_PRESERVE_ORDER);
        json_decref(o);
        if (text) {
            puts(text);
            free(text);
        }
        return EXIT_OK;
    }
    printf("figaro %s bench on %s (%ld cores online)\n", FIG_VERSION, cpu,
           (long)sysconf(_SC_NPROCESSORS_ONLN));
    if (quick)
        printf("one run of the quick budget (--quick); one thread: per CPU-second, two "
               "threads: per wall-clock second\n");
    else
        printf("best of %d runs; one thread: per CPU-second, two threads: per wall-clock "
               "second\n", REPEATS);
    printf("perft            %12" PRIu64 " nodes   %8.3f s  %14.0f nodes/s\n", nodes, perft_time,
           perft_rate);
    printf("random games     %12lld games   %8.3f s  %14.0f games/s (4 players)\n", games,
           game_time, game_rate);
    printf("random actions   %12" PRIu64 " actions %8.3f s  %14.0f actions/s\n", actions,
           game_time, action_rate);
    printf("ISMCTS 1 thread  %12ld iters   %8s    %14.0f iterations/s (start of a 4-player game)\n",
           mcts_iters, "", mcts_rate[0]);
    printf("ISMCTS 2 threads %12ld iters   %8s    %14.0f iterations/s\n", 2 * mcts_iters, "",
           mcts_rate[1]);
    printf("ISMCTS exact=0   %12ld iters   %8s    %14.0f iterations/s (playouts to the game's "
           "end, for comparison)\n", mcts_iters, "", mcts_rate[2]);
    printf("signature        %016" PRIx64 "\n", signature);
    return EXIT_OK;
}
