/* SPDX-License-Identifier: MIT */
/* arena.c - `figaro arena`: bots against bots on duplicate deals.
 *
 * Game g plays deal g / N with the line-up rotated by g % N seats, so every
 * entrant meets every deal from every seat and luck of the cards cancels.
 * Every game is a match (match.h) on one shared worker pool of --jobs
 * threads, all driven from one poll() loop on this thread: the runner the
 * server depends on is exercised by every arena run. There are --jobs tables,
 * each with its own line-up of bots, kept from one game to the next (an
 * engine's process too, as fep.md promises); a table takes the next game as
 * soon as its last one is over and its bots are handed back. Every bot is
 * reseeded from (seed, game, position) before each game and the match leaves
 * the streams alone, so the results do not depend on which table played
 * what. Identical specs are one entrant. Faults of engines come back through
 * the match's callback and are told on standard error, one line each. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <libintl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "figaro/match.h"
#include "host/fep_host.h"
#include "host/pool.h"
#include "host/stats.h"

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

/* A table: the bots it keeps between games (by spec and copy: a round robin
 * line-up may hold one entrant several times) and the game it is playing. */
typedef struct {
    fig_bot_t *bots[MAX_SPECS + 1][FIG_MAX_PLAYERS];
    fig_match_t *m;                        /* NULL: free for the next game */
    int game;
    int pos_of[FIG_MAX_PLAYERS];           /* by seat */
    int spec_of[FIG_MAX_PLAYERS];          /* by seat */
    int copy_of[FIG_MAX_PLAYERS];          /* by seat */
    int faults_before[FIG_MAX_PLAYERS];    /* by seat */
} table_t;

/* Where a game stands in the schedule: game g is twin (g % T) of unit g / T;
 * a unit is (deal, seat order, rotation), S = N x orders units per deal. */
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

static int twins(const arena_t *a) { return a->baseline ? 2 : 1; }
static int per_deal(const arena_t *a) { return a->players * a->orders; }   /* units */

static slot_t slot_of(const arena_t *a, int g)
{
    slot_t s;
    s.twin = g % twins(a);
    s.unit = g / twins(a);
    s.deal = s.unit / per_deal(a);
    s.order = s.unit % per_deal(a) / a->players;
    s.rotation = s.unit % a->players;
    return s;
}

/* The spec index at line-up position pos of game g. */
static int spec_at(const arena_t *a, int g, int pos)
{
    slot_t s = slot_of(a, g);
    if (s.twin && pos == 0)
        return a->nspecs;   /* the baseline in the candidate's place */
    if (a->round_robin)
        return a->lineup[s.deal % a->lineups][pos];
    return pos;
}

/* The line-up position at a seat: rotated; with the second seat order, also
 * reversed (who plays after whom changes, R9). */
static int pos_at(const arena_t *a, const slot_t *s, int seat)
{
    int n = a->players;
    return s->order ? (s->rotation - seat + n) % n : (seat - s->rotation + n) % n;
}

static const char *gettext_tr(const fig_tr_t *tr, const char *msgid)
{
    (void)tr;
    return gettext(msgid);
}

/* The match's fault callback: one line on standard error, as always. */
static void tell_fault(void *user, const fig_fault_t *f)
{
    (void)user;
    fig_tr_t tr = { gettext_tr, NULL, NULL };
    char text[1024];
    fprintf(stderr, "figaro: %s\n", fig_fault_text(f, &tr, text, sizeof text));
}

/* Starts game g on table t, whose bots are free; makes the bots it lacks. */
static fig_err_t start_game(arena_t *a, table_t *t, fig_pool_t *pool, int g, fig_msg_t *msg)
{
    int n = a->players;
    slot_t sl = slot_of(a, g);
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, n, fig_seed_derive(a->seed, (uint64_t)sl.deal, 1), NULL);
    fig_err_t rc = FIG_OK;
    for (int s = 0; s < n && rc == FIG_OK; s++) {
        int pos = pos_at(a, &sl, s), spec = spec_at(a, g, pos), copy = 0;
        for (int p = 0; p < pos; p++)
            copy += spec_at(a, g, p) == spec;
        t->pos_of[s] = pos;
        t->spec_of[s] = spec;
        t->copy_of[s] = copy;
        if (!t->bots[spec][copy])
            rc = fig_bot_any_new(&t->bots[spec][copy], a->specs[spec],
                                 fig_seed_derive(a->seed, 0, (uint64_t)spec), a->move_ms, msg);
    }
    if (rc)
        return rc;
    for (int s = 0; s < n; s++) {
        fig_bot_t **slot = &t->bots[t->spec_of[s]][t->copy_of[s]];
        o.bots[s] = *slot;
        *slot = NULL;   /* the match has it now, even on failure */
        t->faults_before[s] = fig_bot_faults(o.bots[s]);
        /* Both twins of a unit reseed alike: the field starts the same. */
        fig_bot_seed(o.bots[s],
                     fig_seed_derive(a->seed, (uint64_t)sl.unit, (uint64_t)t->pos_of[s] + 2));
    }
    o.move_ms = a->move_ms;
    o.pool = pool;
    o.on_fault = tell_fault;
    o.keep_bot_seeds = true;
    t->game = g;
    return fig_match_new(&t->m, &o, msg);
}

/* Game over and the bots told: results, record, bots back to the table. */
static fig_err_t end_game(arena_t *a, table_t *t, fig_msg_t *msg)
{
    int n = a->players, g = t->game;
    fig_bot_t *back[FIG_MAX_PLAYERS];
    fig_err_t rc = fig_match_release_bots(t->m, back, msg);
    if (rc)
        return rc;
    for (int s = 0; s < n; s++)
        t->bots[t->spec_of[s]][t->copy_of[s]] = back[s];
    fig_game_t game = *fig_match_game(t->m);
    fig_match_free(t->m);
    t->m = NULL;
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(&game.state, ranking);
    for (int r = 0; r < n; r++) {
        int s = ranking[r];
        seat_result_t *res = &a->results[g][t->pos_of[s]];
        res->rank = r;
        res->road = fig_state_road(&game.state, s);
        res->faults = fig_bot_faults(back[s]) - t->faults_before[s];
        res->spec = t->spec_of[s];
    }
    a->finished[g] = true;
    if (a->records) {
        /* Names: the specs, made into FGN name tokens (no spaces, 32 bytes). */
        game.has_names = true;
        for (int s = 0; s < n; s++) {
            snprintf(game.names[s], sizeof game.names[s], "%s", a->specs[t->spec_of[s]]);
            for (char *c = game.names[s]; *c; c++)
                if (*c == ' ' || *c == '\t' || *c == '#')
                    *c = '_';
        }
        slot_t sl = slot_of(a, g);
        char path[4096], text[16384];
        snprintf(path, sizeof path, "%s/game-%06d.fgn", a->records, g + 1);
        size_t len = fig_fgn_write(&game, text, sizeof text);
        FILE *f = fopen(path, "w");
        if (!f || fprintf(f, "# figaro arena game %d: deal %d, line-up rotated %d%s%s\n%s", g + 1,
                          sl.deal + 1, sl.rotation, sl.order ? ", seat order reversed" : "",
                          sl.twin ? ", the baseline in the candidate's place" : "", text) < 0 ||
            len >= sizeof text) {
            if (f)
                fclose(f);
            return fig_fail(msg, FIG_ERR_INPUT, "cannot write %s: %s", path, strerror(errno));
        }
        if (fclose(f) != 0)
            return fig_fail(msg, FIG_ERR_INPUT, "cannot write %s: %s", path, strerror(errno));
    }
    return FIG_OK;
}

/* The paired outcome of a unit, x 2: 2 when the candidate finished ahead of
 * where the baseline did in its place, 1 the same place, 0 behind. */
static int paired_outcome(const arena_t *a, int unit)
{
    int c = a->results[2 * unit][0].rank, b = a->results[2 * unit + 1][0].rank;
    return c < b ? 2 : c == b ? 1 : 0;
}

static const double trinomial[3] = { 0, 0.5, 1 };
static const double pentanomial[5] = { 0, 0.25, 0.5, 0.75, 1 };

/* The SPRT takes the units in order, as soon as both twins of the next are
 * over (tables finish out of order): the verdict does not depend on --jobs.
 * Once decided, no game after the deciding unit is started. */
static void sprt_advance(arena_t *a)
{
    while (!a->verdict && 2 * a->next_unit + 1 < a->limit && a->finished[2 * a->next_unit] &&
           a->finished[2 * a->next_unit + 1]) {
        int x = paired_outcome(a, a->next_unit++);
        if (a->pentanomial) {
            if (a->pending < 0) {
                a->pending = x;
                continue;
            }
            a->counts[a->pending + x]++;   /* the pair's score x 4 */
            a->pending = -1;
            a->llr = fig_stats_llr(5, pentanomial, a->counts, a->elo0, a->elo1);
        } else {
            a->counts[x]++;
            a->llr = fig_stats_llr(3, trinomial, a->counts, a->elo0, a->elo1);
        }
        double lower, upper;
        fig_stats_sprt_bounds(a->alpha, a->beta, &lower, &upper);
        if (a->llr >= upper || a->llr <= lower) {
            a->verdict = a->llr >= upper ? 1 : -1;
            a->limit = 2 * a->next_unit;
        }
    }
}

static void show_progress(const arena_t *a)
{
    int width = 40, filled = (int)((long)a->done * width / a->games);
    fprintf(stderr, "\r[%.*s%*s] %d/%d games", filled, "########################################",
            width - filled, "", a->done, a->games);
    if (a->done == a->games)
        fputc('\n', stderr);
    fflush(stderr);
}

/* Plays every game: tables take games in order as they come free; one
 * poll() waits for whichever match has news. Stops at the first error, or
 * when the sequential test has decided (games past the deciding one that
 * are still on are dropped). */
static void run_games(arena_t *a, table_t *tables, int ntables, fig_pool_t *pool)
{
    fig_msg_t msg = { "", 0 };
    struct pollfd *fds = calloc((size_t)ntables, sizeof *fds);
    if (!fds) {
        snprintf(a->error, sizeof a->error, "out of memory");
        return;
    }
    for (;;) {
        int nfds = 0, busy = 0;
        for (int i = 0; i < ntables && !a->error[0]; i++) {
            table_t *t = &tables[i];
            if (t->m && t->game >= a->limit) {   /* decided without it */
                fig_match_free(t->m);
                t->m = NULL;
            }
            if (!t->m && a->next_game < a->limit &&
                start_game(a, t, pool, a->next_game++, &msg) != FIG_OK) {
                snprintf(a->error, sizeof a->error, "%s", msg.text);
                break;
            }
            if (!t->m)
                continue;
            while (fig_match_step(t->m, NULL))
                ;
            if (fig_match_status(t->m) == FIG_MATCH_OVER && fig_match_idle(t->m)) {
                if (end_game(a, t, &msg) != FIG_OK) {
                    snprintf(a->error, sizeof a->error, "%s", msg.text);
                    break;
                }
                a->done++;
                if (a->sprt)
                    sprt_advance(a);
                if (a->progress)
                    show_progress(a);
                i--;   /* the table is free: give it the next game now */
                continue;
            }
            busy++;
            fds[nfds++] = (struct pollfd){ .fd = fig_match_fd(t->m), .events = POLLIN };
        }
        if (a->error[0] || (!busy && a->next_game >= a->limit))
            break;
        if (nfds > 0)
            while (poll(fds, (nfds_t)nfds, -1) < 0 && errno == EINTR)
                ;
    }
    if (a->progress && a->done < a->games)
        fputc('\n', stderr);
    free(fds);
}

/* Plays every game on `jobs` tables; the first error ends in a->error. */
static void play_all(arena_t *a)
{
    fig_msg_t msg = { "", 0 };
    fig_pool_t *pool;
    fig_pool_opts_t po = { a->jobs, 0 };
    if (fig_pool_new(&pool, &po, &msg) != FIG_OK) {
        snprintf(a->error, sizeof a->error, "%s", msg.text);
        return;
    }
    table_t *tables = calloc((size_t)a->jobs, sizeof *tables);
    if (!tables) {
        snprintf(a->error, sizeof a->error, "out of memory");
        fig_pool_free(pool);
        return;
    }
    /* The line-up's bots first, as the arena always did (engines start
     * now); a baseline or a round robin's other entrants when first seated. */
    fig_err_t rc = FIG_OK;
    for (int t = 0; t < a->jobs && !rc && !a->round_robin; t++)
        for (int i = 0; i < a->players && !rc; i++)
            rc = fig_bot_any_new(&tables[t].bots[i][0], a->specs[i],
                                 fig_seed_derive(a->seed, 0, (uint64_t)i), a->move_ms, &msg);
    if (rc)
        snprintf(a->error, sizeof a->error, "%s", msg.text);
    else
        run_games(a, tables, a->jobs, pool);
    for (int t = 0; t < a->jobs; t++) {
        fig_match_free(tables[t].m);   /* only after an error: returns at once */
        for (int i = 0; i <= MAX_SPECS; i++)
            for (int k = 0; k < FIG_MAX_PLAYERS; k++)
                fig_bot_free(tables[t].bots[i][k]);   /* engines get `quit` */
    }
    fig_pool_free(pool);   /* waits for the freed matches' last jobs */
    free(tables);
}

typedef struct {
    const char *spec;
    int games, wins, faults;
    double road, rank;   /* sums */
} entrant_t;

/* The entrants: one per distinct spec, in the order they were named. */
static int entrants_of(const arena_t *a, entrant_t e[], int entrant_of[])
{
    int ne = 0;
    for (int i = 0; i < a->nspecs + (a->baseline != NULL); i++) {
        int k = 0;
        while (k < ne && strcmp(e[k].spec, a->specs[i]) != 0)
            k++;
        if (k == ne)
            e[ne++] = (entrant_t){ a->specs[i], 0, 0, 0, 0, 0 };
        entrant_of[i] = k;
    }
    return ne;
}

/* The paired comparison by deal: per unit, the candidate's result minus the
 * baseline's in its place; the units of a deal share its cards, so the
 * interval is over deals (each deal's mean), not units. */
typedef struct {
    int units, deals, better, same, worse;
    double c_win, b_win, c_rank, b_rank;   /* rates and mean ranks */
    double win_diff, win_half, rank_diff, rank_half;
    double score, score_lo, score_hi;
} paired_t;

static bool paired_stats(const arena_t *a, paired_t *p)
{
    memset(p, 0, sizeof *p);
    p->units = a->limit / 2;
    int s = per_deal(a);
    p->deals = (p->units + s - 1) / s;
    double *wd = calloc((size_t)p->deals + 1, sizeof *wd);
    double *rd = calloc((size_t)p->deals + 1, sizeof *rd);
    if (!wd || !rd) {
        free(wd);
        free(rd);
        return false;
    }
    for (int u = 0; u < p->units; u++) {
        const seat_result_t *c = &a->results[2 * u][0], *b = &a->results[2 * u + 1][0];
        int units_in_deal = u / s < p->units / s ? s : p->units % s;
        wd[u / s] += ((c->rank == 0) - (b->rank == 0)) / (double)units_in_deal;
        rd[u / s] += (c->rank - b->rank) / (double)units_in_deal;
        p->c_win += c->rank == 0;
        p->b_win += b->rank == 0;
        p->c_rank += c->rank + 1;
        p->b_rank += b->rank + 1;
        int x = paired_outcome(a, u);
        p->better += x == 2;
        p->same += x == 1;
        p->worse += x == 0;
    }
    if (p->units) {
        p->c_win /= p->units;
        p->b_win /= p->units;
        p->c_rank /= p->units;
        p->b_rank /= p->units;
    }
    fig_stats_mean_ci(wd, p->deals, &p->win_diff, &p->win_half);
    fig_stats_mean_ci(rd, p->deals, &p->rank_diff, &p->rank_half);
    long counts[3] = { p->worse, p->same, p->better };
    fig_stats_score_ci(3, trinomial, counts, &p->score, &p->score_lo, &p->score_hi);
    free(wd);
    free(rd);
    return true;
}

/* Plackett-Luce ratings of the entrants from the finishing orders of the
 * whole deals played; the anchor is --anchor, else greedy, else random, else
 * the first entrant. */
static fig_err_t rating_stats(const arena_t *a, const entrant_t e[], int ne,
                              const int entrant_of[], int *anchor, int *games,
                              fig_pl_rating_t out[], fig_msg_t *msg)
{
    int n = a->players, block = per_deal(a) * twins(a);
    *games = a->limit / block * block;
    *anchor = -1;
    const char *want[3] = { a->anchor, "greedy", "random" };
    for (int w = 0; w < 3 && *anchor < 0; w++)
        for (int k = 0; k < ne && want[w] && *anchor < 0; k++)
            if (strcmp(e[k].spec, want[w]) == 0)
                *anchor = k;
    if (*anchor < 0)
        *anchor = 0;
    int *order = malloc((size_t)(*games ? *games : 1) * (size_t)n * sizeof *order);
    if (!order)
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    for (int g = 0; g < *games; g++)
        for (int pos = 0; pos < n; pos++)
            order[g * n + a->results[g][pos].rank] = entrant_of[a->results[g][pos].spec];
    fig_pl_data_t d = { ne, n, *games, order };
    fig_err_t rc = fig_pl_ratings(&d, *anchor, block, a->boot, fig_seed_derive(a->seed, 0, 99),
                                  out, msg);
    free(order);
    return rc;
}

static const char *verdict_name(int v) { return v > 0 ? "H1" : v < 0 ? "H0" : "undecided"; }

static void report(const arena_t *a, bool json)
{
    entrant_t e[MAX_SPECS + 1];
    int entrant_of[MAX_SPECS + 1];
    int ne = entrants_of(a, e, entrant_of);
    int games = a->limit;
    for (int g = 0; g < games; g++)
        for (int i = 0; i < a->players; i++) {
            const seat_result_t *r = &a->results[g][i];
            entrant_t *x = &e[entrant_of[r->spec]];
            x->games++;
            x->wins += r->rank == 0;
            x->faults += r->faults;
            x->road += r->road;
            x->rank += r->rank + 1;
        }
    paired_t pr;
    bool paired = a->baseline && paired_stats(a, &pr);
    double lower = 0, upper = 0;
    if (a->sprt)
        fig_stats_sprt_bounds(a->alpha, a->beta, &lower, &upper);
    fig_pl_rating_t rt[MAX_SPECS + 1];
    int anchor = 0, rgames = 0;
    fig_msg_t msg = { "", 0 };
    bool rated = a->ratings &&
                 rating_stats(a, e, ne, entrant_of, &anchor, &rgames, rt, &msg) == FIG_OK;
    if (a->ratings && !rated)
        fprintf(stderr, "figaro arena: ratings: %s\n", msg.text);
    if (json) {
        json_t *list = json_array();
        for (int k = 0; k < ne; k++) {
            double lo, hi;
            fig_stats_wilson(e[k].wins, e[k].games, &lo, &hi);
            json_array_append_new(list, json_pack(
                "{s:s, s:i, s:i, s:f, s:[f, f], s:f, s:f, s:i}", "spec", e[k].spec,
                "games", e[k].games, "wins", e[k].wins,
                "win_rate", (double)e[k].wins / e[k].games, "ci95", lo, hi,
                "mean_road", e[k].road / e[k].games, "mean_rank", e[k].rank / e[k].games,
                "faults", e[k].faults));
        }
        json_t *o = json_pack("{s:i, s:i, s:o}", "players", a->players, "games", games,
                              "entrants", list);
        if (paired) {
            json_object_set_new(o, "paired", json_pack(
                "{s:s, s:s, s:i, s:i, s:f, s:f, s:f, s:[f, f], s:f, s:f, s:f, s:[f, f],"
                " s:i, s:i, s:i, s:f, s:[f, f], s:f, s:[f, f]}",
                "candidate", a->specs[0], "baseline", a->baseline, "deals", pr.deals,
                "units", pr.units, "candidate_win_rate", pr.c_win, "baseline_win_rate",
                pr.b_win, "win_diff", pr.win_diff, "win_diff_ci95",
                pr.win_diff - pr.win_half, pr.win_diff + pr.win_half, "candidate_mean_rank",
                pr.c_rank, "baseline_mean_rank", pr.b_rank, "rank_diff", pr.rank_diff,
                "rank_diff_ci95", pr.rank_diff - pr.rank_half, pr.rank_diff + pr.rank_half,
                "better", pr.better, "same", pr.same, "worse", pr.worse, "score", pr.score,
                "score_ci95", pr.score_lo, pr.score_hi, "elo",
                fig_stats_score_to_elo(pr.score), "elo_ci95",
                fig_stats_score_to_elo(pr.score_lo), fig_stats_score_to_elo(pr.score_hi)));
        }
        if (a->sprt) {
            json_t *counts = json_array();
            for (int i = 0; i < (a->pentanomial ? 5 : 3); i++)
                json_array_append_new(counts, json_integer(a->counts[i]));
            json_object_set_new(o, "sprt", json_pack(
                "{s:f, s:f, s:f, s:f, s:s, s:o, s:f, s:f, s:f, s:s, s:i}", "elo0", a->elo0,
                "elo1", a->elo1, "alpha", a->alpha, "beta", a->beta, "model",
                a->pentanomial ? "pentanomial" : "trinomial", "counts", counts, "llr", a->llr,
                "lower", lower, "upper", upper, "verdict", verdict_name(a->verdict), "games",
                games));
        }
        if (rated) {
            json_t *rl = json_array();
            for (int k = 0; k < ne; k++)
                json_array_append_new(rl, json_pack("{s:s, s:f, s:[f, f]}", "spec", e[k].spec,
                                                    "rating", rt[k].rating, "ci95", rt[k].lo,
                                                    rt[k].hi));
            json_object_set_new(o, "ratings", json_pack(
                "{s:s, s:s, s:i, s:i, s:o}", "model", "plackett-luce", "anchor",
                e[anchor].spec, "games", rgames, "bootstrap", a->boot, "entrants", rl));
        }
        char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(4));
        json_decref(o);
        if (text) {
            puts(text);
            free(text);
        }
        return;
    }
    int deals = (games + per_deal(a) * twins(a) - 1) / (per_deal(a) * twins(a));
    if (a->baseline)
        printf("%d players, %d game%s (%d deal%s x %d seatings x 2: the candidate, then the "
               "baseline in its place), seed %llu\n\n", a->players, games, games == 1 ? "" : "s",
               deals, deals == 1 ? "" : "s", per_deal(a), (unsigned long long)a->seed);
    else
        printf("%d players, %d game%s (%d deal%s x %d seatings), seed %llu\n\n", a->players,
               games, games == 1 ? "" : "s", deals, deals == 1 ? "" : "s", per_deal(a),
               (unsigned long long)a->seed);
    printf("%-28s %7s %6s %8s  %-17s %9s %9s %6s\n", "entrant", "games", "wins", "win rate",
           "95% CI", "mean road", "mean rank", "faults");
    for (int k = 0; k < ne; k++) {
        double lo, hi;
        fig_stats_wilson(e[k].wins, e[k].games, &lo, &hi);
        printf("%-28.28s %7d %6d %7.1f%%  [%5.1f%%, %5.1f%%] %9.2f %9.2f %6d\n", e[k].spec,
               e[k].games, e[k].wins, 100.0 * e[k].wins / e[k].games, 100 * lo, 100 * hi,
               e[k].road / e[k].games, e[k].rank / e[k].games, e[k].faults);
    }
    printf("\nParity is %.1f%% with %d players (the winner has the shortest road).\n",
           100.0 / a->players, a->players);
    if (paired) {
        printf("\nPaired by deal: %s in the seat of %s, same cards and field (%d deal%s, "
               "%d pairs of games)\n", a->specs[0], a->baseline, pr.deals,
               pr.deals == 1 ? "" : "s", pr.units);
        printf("  win rate   %5.1f%% vs %5.1f%%: difference %+5.1f points, 95%% CI "
               "[%+.1f, %+.1f]\n", 100 * pr.c_win, 100 * pr.b_win, 100 * pr.win_diff,
               100 * (pr.win_diff - pr.win_half), 100 * (pr.win_diff + pr.win_half));
        printf("  mean rank  %5.2f vs %5.2f: difference %+.2f, 95%% CI [%+.2f, %+.2f]\n",
               pr.c_rank, pr.b_rank, pr.rank_diff, pr.rank_diff - pr.rank_half,
               pr.rank_diff + pr.rank_half);
        printf("  place      better %d, same %d, worse %d: score %.3f, %+.0f Elo, 95%% CI "
               "[%+.0f, %+.0f]\n", pr.better, pr.same, pr.worse, pr.score,
               fig_stats_score_to_elo(pr.score), fig_stats_score_to_elo(pr.score_lo),
               fig_stats_score_to_elo(pr.score_hi));
    }
    if (a->sprt) {
        printf("\nSPRT of %s against %s: elo0 %g, elo1 %g, alpha %g, beta %g, %s model\n",
               a->specs[0], a->baseline, a->elo0, a->elo1, a->alpha, a->beta,
               a->pentanomial ? "pentanomial" : "trinomial");
        if (a->pentanomial)
            printf("  pairs of units scoring 0, 1/4, 1/2, 3/4, 1: %ld, %ld, %ld, %ld, %ld\n",
                   a->counts[0], a->counts[1], a->counts[2], a->counts[3], a->counts[4]);
        else
            printf("  units scoring 0, 1/2, 1: %ld, %ld, %ld\n", a->counts[0], a->counts[1],
                   a->counts[2]);
        printf("  LLR %.3f, bounds [%.3f, %.3f]: %s after %d games\n", a->llr, lower, upper,
               a->verdict > 0 ? "H1 accepted (the candidate is better by elo1 rather than elo0)"
               : a->verdict < 0 ? "H0 accepted (the candidate is not better by elo1)"
                                : "undecided (--games reached)", games);
    }
    if (rated) {
        printf("\nRatings (Plackett-Luce on finishing orders, %s = 0, 95%% bootstrap interval "
               "over deals, %d replicates, %d games)\n", e[anchor].spec, a->boot, rgames);
        for (int k = 0; k < ne; k++)
            printf("  %-28.28s %+7.0f  [%+.0f, %+.0f]\n", e[k].spec, rt[k].rating, rt[k].lo,
                   rt[k].hi);
    }
}

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

/* All line-ups of a round robin of `e` entrants at `n` seats: every set of n
 * entrants when there are enough (lexicographic), else the e windows of n
 * consecutive entrants around the circle (each entrant then holds n seats
 * over all the line-ups). Returns their number, 0 when out of memory. */
static int make_lineups(int e, int n, int (**out)[FIG_MAX_PLAYERS])
{
    int count = e;
    if (e >= n) {
        double c = 1;
        for (int i = 0; i < n; i++)
            c = c * (e - i) / (i + 1);
        count = (int)(c + 0.5);
    }
    int (*l)[FIG_MAX_PLAYERS] = calloc((size_t)count, sizeof *l);
    if (!l)
        return 0;
    if (e < n) {
        for (int j = 0; j < e; j++)
            for (int p = 0; p < n; p++)
                l[j][p] = (j + p) % e;
    } else {
        int idx[FIG_MAX_PLAYERS];
        for (int i = 0; i < n; i++)
            idx[i] = i;
        for (int k = 0; k < count; k++) {
            memcpy(l[k], idx, sizeof idx);
            int i = n - 1;
            while (i >= 0 && idx[i] == e - n + i)
                i--;
            if (i < 0)
                break;
            idx[i]++;
            for (int j = i + 1; j < n; j++)
                idx[j] = idx[j - 1] + 1;
        }
    }
    *out = l;
    return count;
}

int cmd_arena(int argc, char **argv)
{
    enum { O_BASELINE = 1000, O_SPRT, O_ALPHA, O_BETA, O_MODEL, O_BOTH, O_RR, O_RATINGS,
           O_ANCHOR, O_BOOT };
    static const struct option opts[] = {
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
    arena_t a;
    memset(&a, 0, sizeof a);
    a.seed = 1;
    a.move_ms = 1000;
    a.orders = 1;
    a.alpha = a.beta = 0.05;
    a.pentanomial = true;
    a.pending = -1;
    a.boot = BOOT;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    a.jobs = online > 0 ? (int)online : 1;
    int nbots = 0;
    bool json = false;
    long long v;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":p:g:b:s:r:j:m:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (cli_parse_int(optarg, FIG_MIN_PLAYERS, FIG_MAX_PLAYERS, &v))
                return cli_usage_error("arena", "--players takes 3 to 6, not '%s'", optarg);
            a.players = (int)v;
            break;
        case 'g':
            if (cli_parse_int(optarg, 1, 10000000, &v))
                return cli_usage_error("arena", "--games takes 1 to 10000000, not '%s'", optarg);
            a.games = (int)v;
            break;
        case 'b':
            if (nbots == MAX_SPECS)
                return cli_usage_error("arena", "at most %d --bot options", MAX_SPECS);
            a.specs[nbots++] = optarg;
            break;
        case 's':
            if (cli_parse_u64(optarg, &a.seed))
                return cli_usage_error("arena", "--seed takes a whole number, not '%s'", optarg);
            break;
        case 'r': a.records = optarg; break;
        case 'j':
            if (cli_parse_int(optarg, 1, 64, &v))
                return cli_usage_error("arena", "--jobs takes 1 to 64, not '%s'", optarg);
            a.jobs = (int)v;
            break;
        case 'm':
            if (cli_parse_int(optarg, 1, 3600000, &v))
                return cli_usage_error("arena", "--move-ms takes 1 to 3600000, not '%s'", optarg);
            a.move_ms = (int)v;
            break;
        case 'J': json = true; break;
        case O_BASELINE: a.baseline = optarg; break;
        case O_SPRT: {
            char first[64];
            const char *comma = strchr(optarg, ',');
            size_t len = comma ? (size_t)(comma - optarg) : 0;
            if (!comma || len >= sizeof first)
                return cli_usage_error("arena", "--sprt takes ELO0,ELO1, not '%s'", optarg);
            memcpy(first, optarg, len);
            first[len] = '\0';
            if (parse_double(first, -2000, 2000, &a.elo0) ||
                parse_double(comma + 1, -2000, 2000, &a.elo1) || a.elo0 >= a.elo1)
                return cli_usage_error("arena", "--sprt takes ELO0,ELO1 with ELO0 < ELO1 "
                                       "(e.g. 0,10), not '%s'", optarg);
            a.sprt = true;
            break;
        }
        case O_ALPHA:
        case O_BETA: {
            double x;
            if (parse_double(optarg, 1e-9, 0.5, &x) || x >= 0.5)
                return cli_usage_error("arena", "--%s takes a probability below 0.5, not '%s'",
                                       c == O_ALPHA ? "alpha" : "beta", optarg);
            *(c == O_ALPHA ? &a.alpha : &a.beta) = x;
            break;
        }
        case O_MODEL:
            if (strcmp(optarg, "pentanomial") && strcmp(optarg, "trinomial"))
                return cli_usage_error("arena", "--model takes trinomial or pentanomial, not "
                                       "'%s'", optarg);
            a.pentanomial = optarg[0] == 'p';
            break;
        case O_BOTH: a.orders = 2; break;
        case O_RR: a.round_robin = a.ratings = true; break;
        case O_RATINGS: a.ratings = true; break;
        case O_ANCHOR: a.anchor = optarg; break;
        case O_BOOT:
            if (cli_parse_int(optarg, 0, 100000, &v))
                return cli_usage_error("arena", "--boot takes 0 to 100000, not '%s'", optarg);
            a.boot = (int)v;
            break;
        case 'h': return cli_help("arena");
        case ':': return cli_usage_error("arena", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("arena", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("arena", "unexpected argument '%s'", argv[optind]);
    if (!a.players || !a.games)
        return cli_usage_error("arena", "--players N and --games G are required");
    a.nspecs = nbots;
    if (a.round_robin) {
        if (a.baseline)
            return cli_usage_error("arena", "--round-robin and --baseline do not mix");
        if (nbots < 2)
            return cli_usage_error("arena", "a round robin needs 2 to %d --bot options, not %d",
                                   MAX_SPECS, nbots);
        for (int i = 0; i < nbots; i++)
            for (int j = 0; j < i; j++)
                if (strcmp(a.specs[i], a.specs[j]) == 0)
                    return cli_usage_error("arena", "--bot %s is named twice in the round robin",
                                           a.specs[i]);
    } else if (nbots != a.players) {
        return cli_usage_error("arena", "give exactly %d --bot options (one per seat), not %d",
                               a.players, nbots);
    }
    if (a.sprt && !a.baseline)
        return cli_usage_error("arena", "--sprt needs --baseline SPEC: the bot the first --bot "
                               "is tested against");
    if (a.baseline)
        a.specs[nbots] = a.baseline;
    if (a.anchor) {
        bool found = strcmp(a.anchor, a.baseline ? a.baseline : "") == 0;
        for (int i = 0; i < nbots; i++)
            found |= strcmp(a.anchor, a.specs[i]) == 0;
        if (!found)
            return cli_usage_error("arena", "--anchor %s is not one of the entrants", a.anchor);
    }
    if (!a.baseline && !a.round_robin && a.orders == 1) {
        if (a.games % a.players)
            return cli_usage_error("arena", "--games must be a multiple of %d: each deal is "
                                   "played from every seat", a.players);
    } else {
        if (a.round_robin) {
            a.lineups = make_lineups(nbots, a.players, &a.lineup);
            if (!a.lineups) {
                fprintf(stderr, "figaro arena: out of memory\n");
                return EXIT_INPUT;
            }
        }
        long unit = (long)per_deal(&a) * twins(&a) * (a.round_robin ? a.lineups : 1);
        if (a.games % unit) {
            free(a.lineup);
            return cli_usage_error("arena", "--games must be a multiple of %ld here: each deal "
                                   "is played from every seat%s%s%s", unit,
                                   a.orders == 2 ? ", in both seat orders" : "",
                                   a.baseline ? ", by the candidate and by the baseline" : "",
                                   a.round_robin ? ", and every line-up gets a deal" : "");
        }
    }
    /* Check every spec before starting anything. */
    for (int i = 0; i < nbots + (a.baseline != NULL); i++) {
        fig_bot_t *probe;
        fig_msg_t msg;
        if (strncmp(a.specs[i], "cmd:", 4) == 0)
            continue;   /* an engine is checked when it starts; its faults are counted */
        if (fig_bot_new(&probe, a.specs[i], 0, &msg) != FIG_OK) {   /* a bad value: usage */
            free(a.lineup);
            return cli_usage_error("arena", "--%s %s: %s", i < nbots ? "bot" : "baseline",
                                   a.specs[i], msg.text);
        }
        fig_bot_free(probe);
    }
    if (a.records && mkdir(a.records, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "figaro arena: cannot create %s: %s\n", a.records, strerror(errno));
        free(a.lineup);
        return EXIT_INPUT;
    }
    if (a.jobs > a.games)
        a.jobs = a.games;
    a.limit = a.games;
    a.results = calloc((size_t)a.games, sizeof *a.results);
    a.finished = calloc((size_t)a.games, sizeof *a.finished);
    if (!a.results || !a.finished) {
        fprintf(stderr, "figaro arena: out of memory\n");
        free(a.results);
        free(a.finished);
        free(a.lineup);
        return EXIT_INPUT;
    }
    a.progress = isatty(2);
    play_all(&a);
    int rc = EXIT_OK;
    if (a.error[0]) {
        fprintf(stderr, "figaro arena: %s\n", a.error);
        rc = EXIT_INPUT;
    } else {
        report(&a, json);
    }
    free(a.results);
    free(a.finished);
    free(a.lineup);
    return rc;
}
