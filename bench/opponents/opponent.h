/* SPDX-License-Identifier: MIT */
/* opponent.h - what the FEP engines of bench/opponents share: their options
 * and serving FEP on standard input and output (cli/fep_stdio.h). Nothing of
 * src/ai is in it or in them. */
#ifndef FIGARO_BENCH_OPPONENT_H
#define FIGARO_BENCH_OPPONENT_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/bot.h"

typedef struct {
    double c;          /* --c X, 0 to 10: a search's exploration constant */
    long iters;        /* --iters N, 1 to 100000000; 0 when not given: the host's time */
    long ms;           /* --ms N, 1 to 3600000: at most this long a move; 0: the host's time */
    uint64_t seed;     /* --seed S */
} opp_options_t;

/* Parses --seed and, for a search, --c, --iters and --ms into o (which holds
 * the defaults). Returns 0, or 2 (the exit status) after telling standard error
 * what is wrong and the usage of `name`. */
int opp_options(int argc, char **argv, const char *name, bool search, opp_options_t *o);

/* CLOCK_MONOTONIC seconds. */
double opp_now(void);

/* When a search given the host's `go <ms>` (host_ms, 0 if none: 1 s) must
 * stop, in opp_now's seconds: cap_ms (--ms, 0 for none) caps it, so that an
 * engine can be given less time than the other seats of the same arena. */
double opp_deadline(long cap_ms, int host_ms);

/* The end of an engine's main(): wraps ops/data (its ownership taken) as a
 * bot with that spec and serves FEP until `quit` or the end of input.
 * Returns the exit status; `name` prefixes its messages. */
int opp_serve(const fig_bot_ops_t *ops, void *data, const char *spec, const char *name);

#endif
