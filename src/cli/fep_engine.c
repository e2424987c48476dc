/* SPDX-License-Identifier: MIT */
/* fep_engine.c - `figaro engine`: a built-in bot behind FEP (docs/fep.md) on
 * standard input and output, so that any FEP host - this project's own
 * through "cmd:figaro engine --bot ...", or a program in another language -
 * can play against it.
 *
 * This file is the command: its options; the engine (src/host/fep_engine.c,
 * which parses the lines and keeps the bot) reads standard input line by line
 * and writes its answers to standard output, each flushed at once
 * (cli_fep_serve_stdio). It exits 0 on `quit` and at the end of its
 * input. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/fep_stdio.h"
#include "figaro/bot.h"

int cmd_engine(int argc, char **argv)
{
    static const struct option opts[] = {
        { "bot", required_argument, NULL, 'b' },
        { "seed", required_argument, NULL, 's' },
        { "analysis", no_argument, NULL, 'a' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *spec = NULL;
    uint64_t seed = 0;
    bool analysis = false;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":b:s:ah", opts, NULL)) != -1) {
        switch (c) {
        case 'b': spec = optarg; break;
        case 'a': analysis = true; break;
        case 's':
            if (cli_parse_u64(optarg, &seed))
                return cli_usage_error("engine", "--seed takes a whole number from 0 to "
                                       "18446744073709551615, not '%s'", optarg);
            break;
        case 'h': return cli_help("engine");
        case ':':
            return cli_usage_error("engine", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("engine", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("engine", "unexpected argument '%s'", argv[optind]);
    if (!spec)
        return cli_usage_error("engine", "--bot SPEC is required (e.g. --bot greedy)");
    fig_bot_t *bot;
    fig_fep_engine_t *e;
    fig_msg_t msg;
    if (fig_bot_new(&bot, spec, seed, &msg) != FIG_OK)
        return cli_usage_error("engine", "%s", msg.text);
    if (fig_fep_engine_new(&e, bot, cli_fep_say_stdout, NULL, &msg) != FIG_OK) {
        fprintf(stderr, "figaro engine: %s\n", msg.text);
        return EXIT_INPUT;
    }
    fig_fep_engine_set_analysis(e, analysis);

    int status = cli_fep_serve_stdio(e) ? EXIT_OK : EXIT_INPUT;
    fig_fep_engine_free(e);
    return status;
}
