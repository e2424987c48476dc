/* SPDX-License-Identifier: MIT */
/* arena.c - `figaro arena`: bots against bots on duplicate deals.
 *
 * The options, checked before anything starts: every spec makes a bot (an
 * engine is checked when it starts), and the number of games fills whole
 * deals of the schedule. The games are arena_run.c's, the report
 * arena_report.c's. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/arena_report.h"
#include "cli/arena_run.h"
#include "cli/cli.h"
#include "figaro/bot.h"

enum { O_BASELINE = 1000, O_SPRT, O_ALPHA, O_BETA, O_MODEL, O_BOTH, O_RR, O_RATINGS,
       O_ANCHOR, O_BOOT };

static const struct option arena_longopts[] = {
    { "players", required_argument, NULL, 'p' },
    { "games", required_argument, NULL, 'g' },
    { "bot", required_argument, NULL, 'b' },
    { "seed", required_argument, NULL, 's' },
    { "records", required_argument, NULL, 'r' },
    { "jobs", required_argument, NULL, 'j' },
    { "move-ms", required_argument, NULL, 'm' },
    { "json", no_argument, NULL, 'J' },
    { "baseline", required_argument, NULL, O_BASELINE },
    { "sprt", required_argument, NULL, O_SPRT },
    { "alpha", required_argument, NULL, O_ALPHA },
    { "beta", required_argument, NULL, O_BETA },
    { "model", required_argument, NULL, O_MODEL },
    { "both-orders", no_argument, NULL, O_BOTH },
    { "round-robin", no_argument, NULL, O_RR },
    { "ratings", no_argument, NULL, O_RATINGS },
    { "anchor", required_argument, NULL, O_ANCHOR },
    { "boot", required_argument, NULL, O_BOOT },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

/* A number like "0.05" or "-10"; 0 on success. */
static int parse_double(const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* The options that take a whole number: EXIT_OK, a usage error, or CLI_GO_ON
 * when c is none of them. */
static int number_option(arena_t *a, int c, const char *arg)
{
    long long v;
    int rc, *to;
    switch (c) {
    case 'p':
        to = &a->players;
        rc = cli_opt_int("arena", "--players", arg, FIG_MIN_PLAYERS, FIG_MAX_PLAYERS, &v);
        break;
    case 'g':
        to = &a->games;
        rc = cli_opt_int("arena", "--games", arg, 1, 10000000, &v);
        break;
    case 'j':
        to = &a->jobs;
        rc = cli_opt_int("arena", "--jobs", arg, 1, 64, &v);
        break;
    case 'm':
        to = &a->move_ms;
        rc = cli_opt_int("arena", "--move-ms", arg, 1, 3600000, &v);
        break;
    case O_BOOT:
        to = &a->boot;
        rc = cli_opt_int("arena", "--boot", arg, 0, 100000, &v);
        break;
    default:
        return CLI_GO_ON;
    }
    if (rc == EXIT_OK)
        *to = (int)v;
    return rc;
}

/* --sprt ELO0,ELO1: EXIT_OK or a usage error. */
static int sprt_option(arena_t *a, const char *arg)
{
    char first[64];
    const char *comma = strchr(arg, ',');
    size_t len = comma ? (size_t)(comma - arg) : 0;
    if (!comma || len >= sizeof first)
        return cli_usage_error("arena", "--sprt takes ELO0,ELO1, not '%s'", arg);
    memcpy(first, arg, len);
    first[len] = '\0';
    if (parse_double(first, -2000, 2000, &a->elo0) ||
        parse_double(comma + 1, -2000, 2000, &a->elo1) || a->elo0 >= a->elo1)
        return cli_usage_error("arena", "--sprt takes ELO0,ELO1 with ELO0 < ELO1 "
                               "(e.g. 0,10), not '%s'", arg);
    a->sprt = true;
    return EXIT_OK;
}

/* The other options (c is one of arena_longopts' but a number's): EXIT_OK or
 * a usage error. */
static int other_option(arena_t *a, int c, const char *arg, bool *json)
{
    switch (c) {
    case 'b':
        if (a->nspecs == MAX_SPECS)
            return cli_usage_error("arena", "at most %d --bot options", MAX_SPECS);
        a->specs[a->nspecs++] = arg;
        break;
    case 's':
        if (cli_parse_u64(arg, &a->seed))
            return cli_usage_error("arena", "--seed takes a whole number, not '%s'", arg);
        break;
    case 'r': a->records = arg; break;
    case 'J': *json = true; break;
    case O_BASELINE: a->baseline = arg; break;
    case O_SPRT: return sprt_option(a, arg);
    case O_ALPHA:
    case O_BETA: {
        double x;
        if (parse_double(arg, 1e-9, 0.5, &x) || x >= 0.5)
            return cli_usage_error("arena", "--%s takes a probability below 0.5, not '%s'",
                                   c == O_ALPHA ? "alpha" : "beta", arg);
        *(c == O_ALPHA ? &a->alpha : &a->beta) = x;
        break;
    }
    case O_MODEL:
        if (strcmp(arg, "pentanomial") && strcmp(arg, "trinomial"))
            return cli_usage_error("arena", "--model takes trinomial or pentanomial, not "
                                   "'%s'", arg);
        a->pentanomial = arg[0] == 'p';
        break;
    case O_BOTH: a->orders = 2; break;
    case O_RR: a->round_robin = a->ratings = true; break;
    case O_RATINGS: a->ratings = true; break;
    case O_ANCHOR: a->anchor = arg; break;
    }
    return EXIT_OK;
}

/* Reads the command line into a (defaults first): CLI_GO_ON, or the status
 * to exit with. */
static int read_options(int argc, char **argv, arena_t *a, bool *json)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->move_ms = 1000;
    a->orders = 1;
    a->alpha = a->beta = 0.05;
    a->pentanomial = true;
    a->pending = -1;
    a->boot = BOOT;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = online > 0 ? (int)online : 1;
    *json = false;
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":p:g:b:s:r:j:m:h", arena_longopts, NULL)) != -1) {
        if (c == 'h')
            return cli_help("arena");
        if (c == ':')
            return cli_usage_error("arena", "option '%s' needs a value", argv[optind - 1]);
        if (c == '?')
            return cli_usage_error("arena", "unknown option '%s'", argv[optind - 1]);
        if ((rc = number_option(a, c, optarg)) == CLI_GO_ON)
            rc = other_option(a, c, optarg, json);
        if (rc != EXIT_OK)
            return rc;
    }
    if (optind != argc)
        return cli_usage_error("arena", "unexpected argument '%s'", argv[optind]);
    if (!a->players || !a->games)
        return cli_usage_error("arena", "--players N and --games G are required");
    return CLI_GO_ON;
}

/* Who plays: one --bot per seat, or a round robin's entrants, with a
 * baseline or not; --anchor among them. CLI_GO_ON or a usage error. */
static int check_entrants(arena_t *a)
{
    int nbots = a->nspecs;
    if (a->round_robin) {
        if (a->baseline)
            return cli_usage_error("arena", "--round-robin and --baseline do not mix");
        if (nbots < 2)
            return cli_usage_error("arena", "a round robin needs 2 to %d --bot options, not %d",
                                   MAX_SPECS, nbots);
        for (int i = 0; i < nbots; i++)
            for (int j = 0; j < i; j++)
                if (strcmp(a->specs[i], a->specs[j]) == 0)
                    return cli_usage_error("arena", "--bot %s is named twice in the round robin",
                                           a->specs[i]);
    } else if (nbots != a->players) {
        return cli_usage_error("arena", "give exactly %d --bot options (one per seat), not %d",
                               a->players, nbots);
    }
    if (a->sprt && !a->baseline)
        return cli_usage_error("arena", "--sprt needs --baseline SPEC: the bot the first --bot "
                               "is tested against");
    if (a->baseline)
        a->specs[nbots] = a->baseline;
    if (a->anchor) {
        bool found = strcmp(a->anchor, a->baseline ? a->baseline : "") == 0;
        for (int i = 0; i < nbots; i++)
            found |= strcmp(a->anchor, a->specs[i]) == 0;
        if (!found)
            return cli_usage_error("arena", "--anchor %s is not one of the entrants", a->anchor);
    }
    return CLI_GO_ON;
}

/* The schedule: a round robin's line-ups (a->lineup, which the caller
 * frees), and --games a multiple of what fills whole deals. CLI_GO_ON, or
 * the status to exit with. */
static int check_schedule(arena_t *a)
{
    if (!a->baseline && !a->round_robin && a->orders == 1) {
        if (a->games % a->players)
            return cli_usage_error("arena", "--games must be a multiple of %d: each deal is "
                                   "played from every seat", a->players);
        return CLI_GO_ON;
    }
    if (a->round_robin) {
        a->lineups = arena_make_lineups(a->nspecs, a->players, &a->lineup);
        if (!a->lineups) {
            fprintf(stderr, "figaro arena: out of memory\n");
            return EXIT_INPUT;
        }
    }
    long unit = (long)arena_per_deal(a) * arena_twins(a) * (a->round_robin ? a->lineups : 1);
    if (a->games % unit)
        return cli_usage_error("arena", "--games must be a multiple of %ld here: each deal "
                               "is played from every seat%s%s%s", unit,
                               a->orders == 2 ? ", in both seat orders" : "",
                               a->baseline ? ", by the candidate and by the baseline" : "",
                               a->round_robin ? ", and every line-up gets a deal" : "");
    return CLI_GO_ON;
}

/* Every spec makes a bot, before anything starts (a bad value is a usage
 * error); the records' folder is there. CLI_GO_ON, or the status to exit
 * with. */
static int check_specs(const arena_t *a)
{
    for (int i = 0; i < a->nspecs + (a->baseline != NULL); i++) {
        fig_bot_t *probe;
        fig_msg_t msg;
        if (strncmp(a->specs[i], "cmd:", 4) == 0)
            continue;   /* an engine is checked when it starts; its faults are counted */
        if (fig_bot_new(&probe, a->specs[i], 0, &msg) != FIG_OK)
            return cli_usage_error("arena", "--%s %s: %s", i < a->nspecs ? "bot" : "baseline",
                                   a->specs[i], msg.text);
        fig_bot_free(probe);
    }
    if (a->records && mkdir(a->records, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "figaro arena: cannot create %s: %s\n", a->records, strerror(errno));
        return EXIT_INPUT;
    }
    return CLI_GO_ON;
}

/* Plays the games and reports them: an exit status. */
static int run(arena_t *a, bool json)
{
    if (a->jobs > a->games)
        a->jobs = a->games;
    a->limit = a->games;
    a->results = calloc((size_t)a->games, sizeof *a->results);
    a->finished = calloc((size_t)a->games, sizeof *a->finished);
    int rc = EXIT_OK;
    if (!a->results || !a->finished) {
        fprintf(stderr, "figaro arena: out of memory\n");
        rc = EXIT_INPUT;
    } else {
        a->progress = isatty(2);
        arena_play_all(a);
        if (a->error[0]) {
            fprintf(stderr, "figaro arena: %s\n", a->error);
            rc = EXIT_INPUT;
        } else {
            arena_report(a, json);
        }
    }
    free(a->results);
    free(a->finished);
    return rc;
}

int cmd_arena(int argc, char **argv)
{
    arena_t a;
    bool json;
    int status = read_options(argc, argv, &a, &json);
    if (status == CLI_GO_ON)
        status = check_entrants(&a);
    if (status == CLI_GO_ON)
        status = check_schedule(&a);
    if (status == CLI_GO_ON)
        status = check_specs(&a);
    if (status == CLI_GO_ON)
        status = run(&a, json);
    free(a.lineup);
    return status;
}
