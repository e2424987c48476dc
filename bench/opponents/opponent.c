/* SPDX-License-Identifier: MIT */
/* opponent.c - the options and the FEP loop of the bench/opponents engines. */
#include "opponent.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/fep_stdio.h"

static int usage(const char *name, bool search, const char *why)
{
    fprintf(stderr, "%s: %s\nusage: %s %s[--seed S]\n", name, why, name,
            search ? "[--c X] [--iters N | --ms N] " : "");
    return 2;
}

int opp_options(int argc, char **argv, const char *name, bool search, opp_options_t *o)
{
    static const struct option all[] = {
        { "seed", required_argument, NULL, 's' },
        { "c", required_argument, NULL, 'c' },
        { "iters", required_argument, NULL, 'i' },
        { "ms", required_argument, NULL, 'm' },
        { NULL, 0, NULL, 0 },
    };
    static const struct option seed_only[] = {
        { "seed", required_argument, NULL, 's' },
        { NULL, 0, NULL, 0 },
    };
    char *end;
    int c;
    while ((c = getopt_long(argc, argv, "", search ? all : seed_only, NULL)) != -1) {
        switch (c) {
        case 'c':
            o->c = strtod(optarg, &end);
            if (*end || !(o->c >= 0 && o->c <= 10))
                return usage(name, search, "--c takes a number from 0 to 10");
            break;
        case 'i':
            o->iters = strtol(optarg, &end, 10);
            if (*end || o->iters < 1 || o->iters > 100000000)
                return usage(name, search, "--iters takes a whole number from 1 to 100000000");
            break;
        case 'm':
            o->ms = strtol(optarg, &end, 10);
            if (*end || o->ms < 1 || o->ms > 3600000)
                return usage(name, search, "--ms takes a whole number from 1 to 3600000");
            break;
        case 's':
            o->seed = strtoull(optarg, &end, 10);
            if (*end || !*optarg)
                return usage(name, search, "--seed takes a whole number");
            break;
        default:
            return usage(name, search, "unknown option");
        }
    }
    if (optind != argc)
        return usage(name, search, "unexpected argument");
    if (o->iters && o->ms)
        return usage(name, search, "--iters and --ms do not mix: a budget is one or the other");
    return 0;
}

double opp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double opp_deadline(long cap_ms, int host_ms)
{
    long ms = host_ms > 0 ? host_ms : 1000;
    if (cap_ms > 0 && cap_ms < ms)
        ms = cap_ms;
    return opp_now() + (double)ms / 1000.0;
}

int opp_serve(const fig_bot_ops_t *ops, void *data, const char *spec, const char *name)
{
    fig_bot_t *bot = fig_bot_wrap(ops, data, spec);
    fig_fep_engine_t *e;
    fig_msg_t msg;
    if (!bot || fig_fep_engine_new(&e, bot, cli_fep_say_stdout, NULL, &msg) != FIG_OK) {
        fprintf(stderr, "%s: cannot start the engine\n", name);
        return 1;
    }
    bool served = cli_fep_serve_stdio(e);
    fig_fep_engine_free(e);
    return served ? 0 : 1;
}
