/* SPDX-License-Identifier: MIT */
/* review.c - `figaro review FILE`: a finished game gone through for one seat,
 * each of its moves against what a search finds from what that seat knew
 * then (host/review.h), with a summary; in the terminal's language, or as
 * JSON for programs.
 *
 * The review runs on this thread, synchronously: a command has nothing else
 * to do meanwhile, and a line on standard error says how long it may take.
 * The text speaks to the seat's player ("you played ..."); names come from
 * the record, else "seat N". */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/review.h"

static const char *fgn_card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return fig_narrate_code(cli_i18n_tr(), kind, buf, cap);
}

static void json_report(const fig_game_t *g, const fig_review_t *rv, const char *spec,
                        const char *names)
{
    json_t *moves = json_array();
    for (int i = 0; i < rv->n; i++) {
        const fig_review_move_t *m = &rv->moves[i];
        char played[16], best[16];
        fig_act_format(m->played, played, sizeof played);
        fig_act_format(m->best, best, sizeof best);
        json_array_append_new(moves, json_pack(
            "{s:i, s:i, s:i, s:i, s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "round",
            m->round, "action", m->index + 1, "number", m->number, "in_round", m->in_round,
            "played", played, "best",
            best, "grade", fig_review_grade_name(m->grade, NULL), "played_win", m->played_win,
            "best_win", m->best_win, "played_place", m->played_place, "best_place",
            m->best_place, "played_share", m->played_share, "loss_win", m->loss_win,
            "loss_place", m->loss_place));
    }
    json_t *o = json_pack(
        "{s:i, s:s, s:i, s:s, s:I, s:o, s:{s:i, s:i, s:i, s:i, s:i}}", "seat", rv->seat, "name",
        names, "players", g->setup.players, "spec", spec, "iterations", (json_int_t)rv->iterations,
        "moves", moves, "summary", "moves", rv->n, "inaccuracies",
        rv->count[FIG_REVIEW_INACCURACY], "mistakes", rv->count[FIG_REVIEW_MISTAKE], "blunders",
        rv->count[FIG_REVIEW_BLUNDER], "costliest",
        rv->costliest >= 0 ? rv->moves[rv->costliest].number : 0);
    char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(4));
    json_decref(o);
    if (text) {
        puts(text);
        free(text);
    }
}

void cli_review_print(const fig_game_t *g, const fig_review_t *rv, const char *spec,
                      const char names[][FIG_NAME_MAX + 1], bool all)
{
    int seat = rv->seat;
    fig_narrator_t nr;
    fig_narrate_init(&nr, g->setup.players, seat, names, cli_i18n_tr(), fgn_card, NULL, NULL);
    printf(_("Review of %s (seat %d), %d players, each move against %s:\n\n"), names[seat], seat,
           g->setup.players, spec);
    char line[1200];
    int shown = 0;
    for (int i = 0; i < rv->n; i++) {
        const fig_review_move_t *m = &rv->moves[i];
        if (!all && m->grade == FIG_REVIEW_GOOD)
            continue;
        fig_review_describe(&nr, rv, i, line, sizeof line);
        printf("%s%s\n", m->grade != FIG_REVIEW_GOOD ? "* " : "  ", line);
        shown++;
    }
    if (shown)
        printf("\n");
    fig_review_summary(&nr, rv, line, sizeof line);
    printf("%s\n", line);
}

/* What the command line asks for. */
typedef struct {
    int seat, ms;
    bool ms_given, json, all;
    long iters;
    uint64_t seed;
    const char *file;
} review_args_t;

/* Reads the command line into r: CLI_GO_ON, or the status to exit with. */
static int read_options(int argc, char **argv, review_args_t *r)
{
    static const struct option opts[] = {
        { "seat", required_argument, NULL, 's' },
        { "json", no_argument, NULL, 'J' },
        { "ms", required_argument, NULL, 'm' },
        { "iters", required_argument, NULL, 'i' },
        { "seed", required_argument, NULL, 'S' },
        { "all", no_argument, NULL, 'a' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    memset(r, 0, sizeof *r);
    r->ms = 300;
    long long v;
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":s:m:i:ah", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            if ((rc = cli_opt_int("review", "--seat", optarg, 0, FIG_MAX_PLAYERS - 1, &v)))
                return rc;
            r->seat = (int)v;
            break;
        case 'm':
            if ((rc = cli_opt_int("review", "--ms", optarg, 1, 600000, &v)))
                return rc;
            r->ms = (int)v;
            r->ms_given = true;
            break;
        case 'i':
            if ((rc = cli_opt_int("review", "--iters", optarg, 1, 100000000, &v)))
                return rc;
            r->iters = (long)v;
            break;
        case 'S':
            if (cli_parse_u64(optarg, &r->seed))
                return cli_usage_error("review", "--seed takes a whole number, not '%s'", optarg);
            break;
        case 'J': r->json = true; break;
        case 'a': r->all = true; break;
        case 'h': return cli_help("review");
        case ':': return cli_usage_error("review", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("review", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (r->ms_given && r->iters)
        return cli_usage_error("review", "give --ms or --iters, not both");
    if (optind == argc)
        return cli_usage_error("review", "a game record (FILE) is required");
    if (optind + 1 != argc)
        return cli_usage_error("review", "unexpected argument '%s'", argv[optind + 1]);
    r->file = argv[optind];
    return CLI_GO_ON;
}

/* Reviews the game g read from r->file into rv and prints it: an exit
 * status. */
static int review(const review_args_t *r, fig_game_t *g, fig_review_t *rv)
{
    int status = cli_load_game("review", r->file, g);
    if (status != EXIT_OK)
        return status;
    if (r->seat >= g->setup.players)
        return cli_usage_error("review", "--seat %d: this game has seats 0 to %d", r->seat,
                               g->setup.players - 1);
    char spec[64];   /* the review's own search unless a budget is given */
    if (r->iters)
        snprintf(spec, sizeof spec, "ismcts:iters=%ld," FIG_REVIEW_OPTIONS, r->iters);
    else if (r->ms_given)
        snprintf(spec, sizeof spec, "ismcts:ms=%d," FIG_REVIEW_OPTIONS, r->ms);
    else
        snprintf(spec, sizeof spec, "%s", FIG_REVIEW_SPEC);
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    for (int s = 0; s < g->setup.players; s++) {
        if (g->has_names)
            snprintf(names[s], sizeof names[s], "%s", g->names[s]);
        else
            snprintf(names[s], sizeof names[s], _("seat %d"), s);
    }
    if (!r->json && r->ms_given && fig_game_over(g)) {   /* fig_review_game refuses the others */
        /* TRANSLATORS: a seat number, then the search's time per move. */
        fprintf(stderr, _("Reviewing seat %d with a search of %d ms a move...\n"), r->seat,
                r->ms);
    }
    fig_review_opts_t o = { spec, r->seed, NULL, cli_i18n_tr() };
    fig_msg_t msg;
    if (fig_review_game(g, r->seat, &o, rv, &msg) != FIG_OK) {
        fprintf(stderr, "figaro review: %s: %s\n", r->file, msg.text);
        return EXIT_INPUT;
    }
    if (r->json)
        json_report(g, rv, spec, names[r->seat]);
    else
        cli_review_print(g, rv, spec, (const char (*)[FIG_NAME_MAX + 1])names, r->all);
    return EXIT_OK;
}

int cmd_review(int argc, char **argv)
{
    char err[256];
    cli_i18n_init(NULL, err, sizeof err);
    review_args_t r;
    int status = read_options(argc, argv, &r);
    if (status != CLI_GO_ON)
        return status;
    fig_game_t *g = malloc(sizeof *g);
    fig_review_t *rv = malloc(sizeof *rv);
    if (!g || !rv) {
        fprintf(stderr, "figaro review: out of memory\n");
        status = EXIT_INPUT;
    } else {
        status = review(&r, g, rv);
    }
    free(g);
    free(rv);
    return status;
}
