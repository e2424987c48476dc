/* SPDX-License-Identifier: MIT */
/* random_game.c - `figaro random-game`: a whole game of uniformly random legal
 * actions, printed as FGN. Deals come from the seed's own streams and moves
 * from another, so the same seed always gives the same game. */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"

int cmd_random_game(int argc, char **argv)
{
    static const struct option opts[] = {
        { "players", required_argument, NULL, 'p' },
        { "seed", required_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    long long players = 0;
    uint64_t seed = 0;
    bool have_seed = false;
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":p:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if ((rc = cli_opt_int("random-game", "--players", optarg, FIG_MIN_PLAYERS,
                                  FIG_MAX_PLAYERS, &players)))
                return rc;
            break;
        case 's':
            if (cli_parse_u64(optarg, &seed))
                return cli_usage_error("random-game", "--seed takes a whole number from 0 to "
                                       "18446744073709551615, not '%s'", optarg);
            have_seed = true;
            break;
        case 'h': return cli_help("random-game");
        case ':':
            return cli_usage_error("random-game", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("random-game", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("random-game", "unexpected argument '%s'", argv[optind]);
    if (!players || !have_seed)
        return cli_usage_error("random-game", "--players N and --seed S are required");
    fig_setup_t setup;
    fig_setup_random(&setup, (int)players, seed, NULL);
    fig_rng_t moves;
    fig_rng_seed_stream(&moves, seed, 4);   /* streams 0-3: setup and the three deals */
    fig_game_t game;
    fig_game_random(&game, &setup, &moves);
    char buf[16384];
    size_t len = fig_fgn_write(&game, buf, sizeof buf);
    if (len >= sizeof buf) {
        fprintf(stderr, "figaro random-game: record too long (%zu bytes)\n", len);
        return EXIT_INPUT;
    }
    fputs(buf, stdout);
    return EXIT_OK;
}
