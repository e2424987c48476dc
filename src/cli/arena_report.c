/* SPDX-License-Identifier: MIT */
/* arena_report.c - what `figaro arena` tells of its games, as text or JSON:
 * each entrant's results (identical specs are one entrant), the paired
 * comparison with a baseline, the sequential test, the ratings. It reads
 * the games' results and changes nothing. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/arena_report.h"
#include "host/stats.h"

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
    int s = arena_per_deal(a);
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
        int x = arena_paired_outcome(a, u);
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
    fig_stats_score_ci(3, arena_trinomial, counts, &p->score, &p->score_lo, &p->score_hi);
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
    int n = a->players, block = arena_per_deal(a) * arena_twins(a);
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

/* What both forms of the report tell. */
typedef struct {
    entrant_t e[MAX_SPECS + 1];
    int entrant_of[MAX_SPECS + 1];
    int ne, games;
    bool paired, rated;
    paired_t pr;
    double lower, upper;             /* the SPRT's bounds */
    fig_pl_rating_t rt[MAX_SPECS + 1];
    int anchor, rgames;
} summary_t;

static void summarize(const arena_t *a, summary_t *s)
{
    s->ne = entrants_of(a, s->e, s->entrant_of);
    s->games = a->limit;
    for (int g = 0; g < s->games; g++)
        for (int i = 0; i < a->players; i++) {
            const seat_result_t *r = &a->results[g][i];
            entrant_t *x = &s->e[s->entrant_of[r->spec]];
            x->games++;
            x->wins += r->rank == 0;
            x->faults += r->faults;
            x->road += r->road;
            x->rank += r->rank + 1;
        }
    s->paired = a->baseline && paired_stats(a, &s->pr);
    s->lower = s->upper = 0;
    if (a->sprt)
        fig_stats_sprt_bounds(a->alpha, a->beta, &s->lower, &s->upper);
    s->anchor = s->rgames = 0;
    fig_msg_t msg = { "", 0 };
    s->rated = a->ratings && rating_stats(a, s->e, s->ne, s->entrant_of, &s->anchor,
                                          &s->rgames, s->rt, &msg) == FIG_OK;
    if (a->ratings && !s->rated)
        fprintf(stderr, "figaro arena: ratings: %s\n", msg.text);
}

static json_t *json_paired(const arena_t *a, const paired_t *p)
{
    return json_pack(
        "{s:s, s:s, s:i, s:i, s:f, s:f, s:f, s:[f, f], s:f, s:f, s:f, s:[f, f],"
        " s:i, s:i, s:i, s:f, s:[f, f], s:f, s:[f, f]}",
        "candidate", a->specs[0], "baseline", a->baseline, "deals", p->deals,
        "units", p->units, "candidate_win_rate", p->c_win, "baseline_win_rate",
        p->b_win, "win_diff", p->win_diff, "win_diff_ci95",
        p->win_diff - p->win_half, p->win_diff + p->win_half, "candidate_mean_rank",
        p->c_rank, "baseline_mean_rank", p->b_rank, "rank_diff", p->rank_diff,
        "rank_diff_ci95", p->rank_diff - p->rank_half, p->rank_diff + p->rank_half,
        "better", p->better, "same", p->same, "worse", p->worse, "score", p->score,
        "score_ci95", p->score_lo, p->score_hi, "elo",
        fig_stats_score_to_elo(p->score), "elo_ci95",
        fig_stats_score_to_elo(p->score_lo), fig_stats_score_to_elo(p->score_hi));
}

static json_t *json_sprt(const arena_t *a, const summary_t *s)
{
    json_t *counts = json_array();
    for (int i = 0; i < (a->pentanomial ? 5 : 3); i++)
        json_array_append_new(counts, json_integer(a->counts[i]));
    return json_pack(
        "{s:f, s:f, s:f, s:f, s:s, s:o, s:f, s:f, s:f, s:s, s:i}", "elo0", a->elo0,
        "elo1", a->elo1, "alpha", a->alpha, "beta", a->beta, "model",
        a->pentanomial ? "pentanomial" : "trinomial", "counts", counts, "llr", a->llr,
        "lower", s->lower, "upper", s->upper, "verdict", verdict_name(a->verdict), "games",
        s->games);
}

static json_t *json_ratings(const arena_t *a, const summary_t *s)
{
    json_t *rl = json_array();
    for (int k = 0; k < s->ne; k++)
        json_array_append_new(rl, json_pack("{s:s, s:f, s:[f, f]}", "spec", s->e[k].spec,
                                            "rating", s->rt[k].rating, "ci95", s->rt[k].lo,
                                            s->rt[k].hi));
    return json_pack("{s:s, s:s, s:i, s:i, s:o}", "model", "plackett-luce", "anchor",
                     s->e[s->anchor].spec, "games", s->rgames, "bootstrap", a->boot,
                     "entrants", rl);
}

static void report_json(const arena_t *a, const summary_t *s)
{
    const entrant_t *e = s->e;
    json_t *list = json_array();
    for (int k = 0; k < s->ne; k++) {
        double lo, hi;
        fig_stats_wilson(e[k].wins, e[k].games, &lo, &hi);
        json_array_append_new(list, json_pack(
            "{s:s, s:i, s:i, s:f, s:[f, f], s:f, s:f, s:i}", "spec", e[k].spec,
            "games", e[k].games, "wins", e[k].wins,
            "win_rate", (double)e[k].wins / e[k].games, "ci95", lo, hi,
            "mean_road", e[k].road / e[k].games, "mean_rank", e[k].rank / e[k].games,
            "faults", e[k].faults));
    }
    json_t *o = json_pack("{s:i, s:i, s:o}", "players", a->players, "games", s->games,
                          "entrants", list);
    if (s->paired)
        json_object_set_new(o, "paired", json_paired(a, &s->pr));
    if (a->sprt)
        json_object_set_new(o, "sprt", json_sprt(a, s));
    if (s->rated)
        json_object_set_new(o, "ratings", json_ratings(a, s));
    char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(4));
    json_decref(o);
    if (text) {
        puts(text);
        free(text);
    }
}

static void text_entrants(const arena_t *a, const summary_t *s)
{
    const entrant_t *e = s->e;
    int games = s->games, per = arena_per_deal(a) * arena_twins(a);
    int deals = (games + per - 1) / per;
    if (a->baseline)
        printf("%d players, %d game%s (%d deal%s x %d seatings x 2: the candidate, then the "
               "baseline in its place), seed %llu\n\n", a->players, games, games == 1 ? "" : "s",
               deals, deals == 1 ? "" : "s", arena_per_deal(a), (unsigned long long)a->seed);
    else
        printf("%d players, %d game%s (%d deal%s x %d seatings), seed %llu\n\n", a->players,
               games, games == 1 ? "" : "s", deals, deals == 1 ? "" : "s", arena_per_deal(a),
               (unsigned long long)a->seed);
    printf("%-28s %7s %6s %8s  %-17s %9s %9s %6s\n", "entrant", "games", "wins", "win rate",
           "95% CI", "mean road", "mean rank", "faults");
    for (int k = 0; k < s->ne; k++) {
        double lo, hi;
        fig_stats_wilson(e[k].wins, e[k].games, &lo, &hi);
        printf("%-28.28s %7d %6d %7.1f%%  [%5.1f%%, %5.1f%%] %9.2f %9.2f %6d\n", e[k].spec,
               e[k].games, e[k].wins, 100.0 * e[k].wins / e[k].games, 100 * lo, 100 * hi,
               e[k].road / e[k].games, e[k].rank / e[k].games, e[k].faults);
    }
    printf("\nParity is %.1f%% with %d players (the winner has the shortest road).\n",
           100.0 / a->players, a->players);
}

static void text_paired(const arena_t *a, const paired_t *p)
{
    printf("\nPaired by deal: %s in the seat of %s, same cards and field (%d deal%s, "
           "%d pairs of games)\n", a->specs[0], a->baseline, p->deals,
           p->deals == 1 ? "" : "s", p->units);
    printf("  win rate   %5.1f%% vs %5.1f%%: difference %+5.1f points, 95%% CI "
           "[%+.1f, %+.1f]\n", 100 * p->c_win, 100 * p->b_win, 100 * p->win_diff,
           100 * (p->win_diff - p->win_half), 100 * (p->win_diff + p->win_half));
    printf("  mean rank  %5.2f vs %5.2f: difference %+.2f, 95%% CI [%+.2f, %+.2f]\n",
           p->c_rank, p->b_rank, p->rank_diff, p->rank_diff - p->rank_half,
           p->rank_diff + p->rank_half);
    printf("  place      better %d, same %d, worse %d: score %.3f, %+.0f Elo, 95%% CI "
           "[%+.0f, %+.0f]\n", p->better, p->same, p->worse, p->score,
           fig_stats_score_to_elo(p->score), fig_stats_score_to_elo(p->score_lo),
           fig_stats_score_to_elo(p->score_hi));
}

static void text_sprt(const arena_t *a, const summary_t *s)
{
    printf("\nSPRT of %s against %s: elo0 %g, elo1 %g, alpha %g, beta %g, %s model\n",
           a->specs[0], a->baseline, a->elo0, a->elo1, a->alpha, a->beta,
           a->pentanomial ? "pentanomial" : "trinomial");
    if (a->pentanomial)
        printf("  pairs of units scoring 0, 1/4, 1/2, 3/4, 1: %ld, %ld, %ld, %ld, %ld\n",
               a->counts[0], a->counts[1], a->counts[2], a->counts[3], a->counts[4]);
    else
        printf("  units scoring 0, 1/2, 1: %ld, %ld, %ld\n", a->counts[0], a->counts[1],
               a->counts[2]);
    printf("  LLR %.3f, bounds [%.3f, %.3f]: %s after %d games\n", a->llr, s->lower, s->upper,
           a->verdict > 0 ? "H1 accepted (the candidate is better by elo1 rather than elo0)"
           : a->verdict < 0 ? "H0 accepted (the candidate is not better by elo1)"
                            : "undecided (--games reached)", s->games);
}

static void text_ratings(const arena_t *a, const summary_t *s)
{
    printf("\nRatings (Plackett-Luce on finishing orders, %s = 0, 95%% bootstrap interval "
           "over deals, %d replicates, %d games)\n", s->e[s->anchor].spec, a->boot, s->rgames);
    for (int k = 0; k < s->ne; k++)
        printf("  %-28.28s %+7.0f  [%+.0f, %+.0f]\n", s->e[k].spec, s->rt[k].rating,
               s->rt[k].lo, s->rt[k].hi);
}

void arena_report(const arena_t *a, bool json)
{
    summary_t s;
    summarize(a, &s);
    if (json) {
        report_json(a, &s);
        return;
    }
    text_entrants(a, &s);
    if (s.paired)
        text_paired(a, &s.pr);
    if (a->sprt)
        text_sprt(a, &s);
    if (s.rated)
        text_ratings(a, &s);
}
