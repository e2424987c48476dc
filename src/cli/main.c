/* SPDX-License-Identifier: MIT */
/* main.c - `figaro`, the command: dispatches to subcommands (their help
 * texts are in help.c, what they share in cli.c).
 *
 * Exit status everywhere: 0 success, 1 bad input (a file, a move), 2 a usage
 * error (unknown command or option). Options follow getopt_long conventions. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/play.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    { "play", cmd_play },
    { "learn", cmd_learn },
    { "history", cmd_history },
    { "replay", cmd_replay },
    { "review", cmd_review },
    { "perft", cmd_perft },
    { "random-game", cmd_random_game },
    { "arena", cmd_arena },
    { "rate", cmd_rate },
    { "bench", cmd_bench },
    { "engine", cmd_engine },
    { "rules", cmd_rules },
    { "serve", cmd_serve },
    { "people", cmd_people },
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

/* The command's index in the table, or -1. */
static int find(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return i;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        cli_main_help(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        cli_main_help(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("figaro %s\n", FIG_VERSION);
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc == 2) {
            cli_main_help(stdout);
            return EXIT_OK;
        }
        if (argc > 3)
            return cli_usage_error(NULL, "'help' takes one command name");
        return cli_help(argv[2]);
    }
    int c = find(name);
    if (c < 0 && name[0] == '-')
        return cli_usage_error(NULL, "unknown option '%s' (the options come after a command: "
                                     "figaro COMMAND --help)", name);
    if (c < 0)
        return cli_usage_error(NULL, "unknown command '%s'", name);
    return commands[c].run(argc - 1, argv + 1);
}
