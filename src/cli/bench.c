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

/* The work, what it measured, and the signature of it. */
typedef struct {
    bool json, quick;
    int repeats, shallower;     /* runs; perft this much shallower than each position's depth */
    long mcts_iters;
    long long games;
    char cpu[128];
    uint64_t signature, nodes, actions;
    double perft_time, game_time, mcts_rate[3];
} bench_t;

/* Reads the command line into b, with the work it asks for: CLI_GO_ON, or
 * the status to exit with. */
static int read_options(int argc, char **argv, bench_t *b)
{
    static const struct option opts[] = {
        { "games", required_argument, NULL, 'g' },
        { "json", no_argument, NULL, 'j' },
        { "quick", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    memset(b, 0, sizeof *b);
    b->games = -1;
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":g:jqh", opts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if ((rc = cli_opt_int("bench", "--games", optarg, 1, 100000000, &b->games)))
                return rc;
            break;
        case 'j': b->json = true; break;
        case 'q': b->quick = true; break;
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
    b->repeats = b->quick ? 1 : REPEATS;
    b->shallower = b->quick ? 1 : 0;
    b->mcts_iters = b->quick ? MCTS_ITERS / 10 : MCTS_ITERS;
    if (b->games < 0)
        b->games = b->quick ? QUICK_GAMES : 200000;
    return CLI_GO_ON;
}

/* 1. perft: generation and application, full information. */
static void bench_perft(bench_t *b)
{
    b->perft_time = 1e300;
    for (int rep = 0; rep < b->repeats; rep++) {
        double t0 = cpu_now();
        b->nodes = 0;
        for (int i = 0; i < NPOSITIONS; i++) {
            fig_state_t st;
            bench_position(i, &st);
            uint64_t n = fig_state_perft(&st, perft_positions[i].depth - b->shallower);
            if (rep == 0)
                b->signature = mix(b->signature, n);
            b->nodes += n;
        }
        double t = cpu_now() - t0;
        b->perft_time = t < b->perft_time ? t : b->perft_time;
    }
}

/* 2. random complete 4-player games: setup, three deals, every action, scoring;
 *    the same loop as a search bot's playouts. */
static void bench_games(bench_t *b)
{
    b->game_time = 1e300;
    for (int rep = 0; rep < b->repeats; rep++) {
        fig_rng_t rng;
        fig_rng_seed(&rng, 2024);
        b->actions = 0;
        double t0 = cpu_now();
        for (long long g = 0; g < b->games; g++) {
            fig_setup_t setup;
            fig_state_t st;
            fig_setup_random(&setup, 4, (uint64_t)g, NULL);
            fig_state_init(&st, &setup);
            b->actions += (uint64_t)fig_state_playout(&st, &rng, 0);
            int ranking[FIG_MAX_PLAYERS];
            fig_state_ranking(&st, ranking);
            if (rep == 0)
                b->signature = mix(b->signature, (uint64_t)ranking[0] << 32 |
                                                 (uint64_t)fig_state_road(&st, 0));
        }
        double t = cpu_now() - t0;
        b->game_time = t < b->game_time ? t : b->game_time;
    }
    b->signature = mix(b->signature, b->actions);
}

/* 3. ISMCTS from the start of a 4-player game: iterations per second with
 * one and two threads (root parallelism), a fixed iteration budget; then,
 * for comparison, one thread with playouts to the game's end
 * (exact=0,playout=avoid,copp=0.7: every playout to the game's end).
 * EXIT_OK, or EXIT_INPUT when a bot cannot be made. */
static int bench_mcts(bench_t *b)
{
    for (int t = 0; t < 3; t++) {
        char spec[64];
        long iters = b->mcts_iters * (t == 1 ? 2 : 1);
        snprintf(spec, sizeof spec, "ismcts:iters=%ld,threads=%d%s", iters, t == 1 ? 2 : 1,
                 t == 2 ? ",exact=0,playout=avoid,copp=0.7" : "");
        for (int rep = 0; rep < b->repeats; rep++) {
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
            b->mcts_rate[t] = rate > b->mcts_rate[t] ? rate : b->mcts_rate[t];
            if (t == 0 && rep == 0)
                b->signature = mix(b->signature, act);   /* deterministic for a fixed budget */
            fig_bot_free(bot);
        }
    }
    return EXIT_OK;
}

static void print_json(const bench_t *b)
{
    double perft_rate = b->nodes / b->perft_time, game_rate = (double)b->games / b->game_time;
    double action_rate = (double)b->actions / b->game_time;
    json_t *o = json_pack("{s:s, s:s, s:I, s:f, s:f, s:I, s:I, s:f, s:f, s:f, s:s}",
                          "version", FIG_VERSION, "cpu", b->cpu, "perft_nodes",
                          (json_int_t)b->nodes, "perft_seconds", b->perft_time,
                          "perft_nodes_per_second", perft_rate, "games", (json_int_t)b->games,
                          "actions", (json_int_t)b->actions, "game_seconds", b->game_time,
                          "games_per_second", game_rate, "actions_per_second", action_rate,
                          "signature", "");
    json_object_set_new(o, "ismcts_iterations_per_second_1_thread", json_real(b->mcts_rate[0]));
    json_object_set_new(o, "ismcts_iterations_per_second_2_threads", json_real(b->mcts_rate[1]));
    json_object_set_new(o, "ismcts_iterations_per_second_full_playouts",
                        json_real(b->mcts_rate[2]));
    char sig[32];
    snprintf(sig, sizeof sig, "%016" PRIx64, b->signature);
    json_object_set_new(o, "signature", json_string(sig));
    char *text = json_dumps(o, JSON_PRESERVE_ORDER);
    json_decref(o);
    if (text) {
        puts(text);
        free(text);
    }
}

static void print_text(const bench_t *b)
{
    double perft_rate = b->nodes / b->perft_time, game_rate = (double)b->games / b->game_time;
    double action_rate = (double)b->actions / b->game_time;
    long iters = b->mcts_iters;
    printf("figaro %s bench on %s (%ld cores online)\n", FIG_VERSION, b->cpu,
           (long)sysconf(_SC_NPROCESSORS_ONLN));
    if (b->quick)
        printf("one run of the quick budget (--quick); one thread: per CPU-second, two "
               "threads: per wall-clock second\n");
    else
        printf("best of %d runs; one thread: per CPU-second, two threads: per wall-clock "
               "second\n", REPEATS);
    printf("perft            %12" PRIu64 " nodes   %8.3f s  %14.0f nodes/s\n", b->nodes,
           b->perft_time, perft_rate);
    printf("random games     %12lld games   %8.3f s  %14.0f games/s (4 players)\n", b->games,
           b->game_time, game_rate);
    printf("random actions   %12" PRIu64 " actions %8.3f s  %14.0f actions/s\n", b->actions,
           b->game_time, action_rate);
    printf("ISMCTS 1 thread  %12ld iters   %8s    %14.0f iterations/s (start of a 4-player game)\n",
           iters, "", b->mcts_rate[0]);
    printf("ISMCTS 2 threads %12ld iters   %8s    %14.0f iterations/s\n", 2 * iters, "",
           b->mcts_rate[1]);
    printf("ISMCTS exact=0   %12ld iters   %8s    %14.0f iterations/s (playouts to the game's "
           "end, for comparison)\n", iters, "", b->mcts_rate[2]);
    printf("signature        %016" PRIx64 "\n", b->signature);
}

int cmd_bench(int argc, char **argv)
{
    bench_t b;
    int status = read_options(argc, argv, &b);
    if (status != CLI_GO_ON)
        return status;
    machine(b.cpu, sizeof b.cpu);
    bench_perft(&b);
    bench_games(&b);
    if (bench_mcts(&b) != EXIT_OK)
        return EXIT_INPUT;
    if (b.json)
        print_json(&b);
    else
        print_text(&b);
    return EXIT_OK;
}
