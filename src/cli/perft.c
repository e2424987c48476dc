/* SPDX-License-Identifier: MIT */
/* perft.c - `figaro perft`: count action sequences from a recorded position,
 * the move generator's check in the style of chess engines (docs/fgn.md). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int cmd_perft(int argc, char **argv)
{
    static const struct option opts[] = {
        { "depth", required_argument, NULL, 'd' },
        { "divide", no_argument, NULL, 'D' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    long long depth = -1;
    bool divide = false;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":d:h", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            if (cli_parse_int(optarg, 0, 20, &depth))
                return cli_usage_error("perft", "--depth takes a number from 0 to 20, not '%s'",
                                       optarg);
            break;
        case 'D': divide = true; break;
        case 'h': return cli_help("perft");
        case ':':
            return cli_usage_error("perft", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("perft", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (depth < 0)
        return cli_usage_error("perft", "--depth D is required");
    if (argc - optind != 1)
        return cli_usage_error("perft", "expected one FILE (or '-' for standard input)");
    fig_game_t game;
    int rc = cli_load_game("perft", argv[optind], &game);
    if (rc)
        return rc;
    if (fig_game_over(&game)) {
        fprintf(stderr, "figaro perft: %s: the game is finished; perft needs an unfinished "
                        "record\n", argv[optind]);
        return EXIT_INPUT;
    }
    const fig_state_t *st = &game.state;
    if (divide && depth > 0) {
        fig_action_t moves[FIG_MAX_ACTIONS];
        int n = fig_state_legal(st, moves);
        uint64_t total = 0;
        for (int i = 0; i < n; i++) {
            fig_state_t child = *st;
            char act[16];
            fig_state_apply_legal(&child, moves[i], NULL);
            uint64_t count = fig_state_perft(&child, (int)depth - 1);
            /* A first action that ends the round leaves no room for the rest. */
            if (depth > 1 && child.phase != FIG_PHASE_PLAY)
                count = 0;
            printf("%s %" PRIu64 "\n", fig_act_format(moves[i], act, sizeof act), count);
            total += count;
        }
        printf("%" PRIu64 "\n", total);
        return EXIT_OK;
    }
    printf("%" PRIu64 "\n", fig_state_perft(st, (int)depth));
    return EXIT_OK;
}
