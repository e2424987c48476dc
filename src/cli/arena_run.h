/* SPDX-License-Identifier: MIT */
/* arena_run.h - an arena of `figaro arena` (arena.c reads its options,
 * arena_report.c tells its results): the schedule of duplicate deals, the
 * games played on --jobs tables, the sequential test as they finish.
 *
 * Game g is twin (g % T) of unit g / T, T = 2 with a baseline (the candidate,
 * then the baseline in its place, on the same cards and field), else 1; a
 * unit is (deal, seat order, rotation), N x orders units per deal. */
#ifndef FIGARO_CLI_ARENA_RUN_H
#define FIGARO_CLI_ARENA_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "figaro/figaro.h"

enum {
    MAX_SPECS = 16,   /* --bot options: a round robin's entrants */
    BOOT = 200        /* bootstrap replicates of the ratings' intervals (default) */
};

typedef struct {
    int rank;      /* 0 = winner */
    int road;
    int faults;
    int spec;      /* index of the spec that held the position (a->specs) */
} seat_result_t;

/* Where a game stands in the schedule. */
typedef struct {
    int unit, twin, deal, order, rotation;
} slot_t;

typedef struct {
    int players, games, jobs, move_ms;
    uint64_t seed;
    const char *specs[MAX_SPECS + 1];     /* --bot options, then the baseline */
    int nspecs;                           /* --bot options */
    const char *records;                  /* folder for FGN records, or NULL */
    /* The schedule's options. */
    const char *baseline;                 /* paired by deal: replaces position 0 */
    int orders;                           /* 1, or 2 with --both-orders */
    bool round_robin;
    int lineups;                          /* round robin: line-ups of N entrants */
    int (*lineup)[FIG_MAX_PLAYERS];       /* [line-up][position] = spec index */
    /* The sequential test (with a baseline). */
    bool sprt;
    double elo0, elo1, alpha, beta;
    bool pentanomial;
    long counts[5];                       /* outcomes so far, by score x 4 (or x 2) */
    int next_unit;                        /* the first unit not counted yet */
    int pending;                          /* pentanomial: half a pair (-1: none), x 2 */
    int verdict;                          /* 0 undecided, -1 H0, 1 H1 */
    double llr;
    /* The ratings. */
    bool ratings;
    const char *anchor;
    int boot;
    seat_result_t (*results)[FIG_MAX_PLAYERS];   /* [game][line-up position] */
    bool *finished;                       /* [game] */
    int limit;                            /* games to play: games, or fewer once decided */
    int next_game, done;
    bool progress;
    char error[256];                      /* the first error, if any */
} arena_t;

/* Twins per unit, and units per deal. */
static inline int arena_twins(const arena_t *a) { return a->baseline ? 2 : 1; }
static inline int arena_per_deal(const arena_t *a) { return a->players * a->orders; }

/* Where game g stands in the schedule. */
slot_t arena_slot_of(const arena_t *a, int g);

/* The paired outcome of a unit, x 2: 2 when the candidate finished ahead of
 * where the baseline did in its place, 1 the same place, 0 behind. */
int arena_paired_outcome(const arena_t *a, int unit);

/* The score of a unit's paired outcome (0, 1/2, 1), by the outcome. */
extern const double arena_trinomial[3];

/* All line-ups of a round robin of `e` entrants at `n` seats: every set of n
 * entrants when there are enough (lexicographic), else the e windows of n
 * consecutive entrants around the circle (each entrant then holds n seats
 * over all the line-ups). Returns their number, 0 when out of memory; *out
 * is malloc'ed (caller frees). */
int arena_make_lineups(int e, int n, int (**out)[FIG_MAX_PLAYERS]);

/* Plays every game of a on a->jobs tables, into a->results and a->finished
 * (a->limit falls when the sequential test decides); the first error ends
 * in a->error. */
void arena_play_all(arena_t *a);

#endif
