/* fep_engine.c - `figaro engine`: a built-in bot behind FEP (docs/fep.md) on
 * standard input and output, so that any FEP host - this project's own
 * through "cmd:figaro engine --bot ...", or a program in another language -
 * can play against it.
 *
 * This file is the command: its options, and a loop that reads standard
 * input line by line into the engine (src/host/fep_engine.c, which parses the
 * lines and keeps the bot) and writes its answers to standard output, each
 * flushed at once. It exits 0 on `quit` and at the end of its input. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "figaro/bot.h"
#include "host/fep_engine.h"

/* Every answer is one line, flushed at once: the host waits for it. Returns
 * false when standard output is gone (the host closed it). */
static bool say_stdout(void *user, const char *line)
{
    (void)user;
    return puts(line) >= 0 && fflush(stdout) == 0 && !ferror(stdout);
}

/* Reads one line into buf (cap bytes) without its "\n" or "\r\n". Returns 1
 * for a line, 0 for a line too long (the rest of it is skipped), -1 at the end
 * of input (a last line without "\n" still counts as a line). */
static int read_line(FILE *in, char *buf, size_t cap)
{
    size_t n = 0;
    bool too_long = false;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 < cap)
            buf[n++] = (char)c;
        else
            too_long = true;
    }
    if (c == EOF && n == 0 && !too_long)
        return -1;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return too_long ? 0 : 1;
}

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
    if (fig_fep_engine_new(&e, bot, say_stdout, NULL, &msg) != FIG_OK) {
        fprintf(stderr, "figaro engine: %s\n", msg.text);
        return EXIT_INPUT;
    }
    fig_fep_engine_set_analysis(e, analysis);

    /* A host that goes away must end the engine quietly, not with a signal:
     * a failed write is noticed by say_stdout(). This process is ours alone. */
    signal(SIGPIPE, SIG_IGN);
    char line[FIG_FEP_LINE_MAX + 1];
    int status = EXIT_OK;
    for (;;) {
        int got = read_line(stdin, line, sizeof line);
        if (got < 0)
            break;   /* end of input: the host is done with us */
        bool go_on = got == 0 ? fig_fep_engine_too_long(e, line) : fig_fep_engine_line(e, line);
        if (!go_on) {
            if (ferror(stdout))
                status = EXIT_INPUT;
            break;
        }
    }
    fig_fep_engine_free(e);
    return status;
}
