/* review.c - a finished game, move by move, against a search (review.h).
 *
 * One bot follows the game from the seat's knowledge only: the setup, the
 * seat's hand at each deal, every public action in order (the same calls a
 * match makes, bot.h). At each move of the seat it thinks from there, reseeded
 * from the options' seed and the move's number (so an iteration-budgeted spec
 * gives the same review every time), and its root analysis is compared with
 * the move the record says was played; then the move is told to it like any
 * other. A replay of the record beside it gives the seat's true view, which
 * must equal the bot's: a check that the bot was told what the seat knew,
 * nothing more and nothing less. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/review.h"
#include "host/util.h"

static const double place_loss[3] = FIG_REVIEW_PLACE_LOSS;
static const double win_loss[3] = FIG_REVIEW_WIN_LOSS;

static fig_review_grade_t grade_of(double lp, double lw)
{
    int g = 0;
    for (int k = 0; k < 3; k++)
        if (lp >= place_loss[k] || lw >= win_loss[k])
            g = k + 1;
    return (fig_review_grade_t)g;
}

static const fig_move_stat_t *find(const fig_analysis_t *an, fig_action_t a)
{
    for (int i = 0; i < an->n; i++)
        if (an->moves[i].action == a)
            return &an->moves[i];
    return NULL;
}

/* Fills one reviewed move from the analysis. A move the search never tried
 * (more legal moves than iterations) cannot be judged: it counts as good.
 * The grade counts only the part of a loss beyond one standard error of the
 * played move's estimate (a mean of `visits` results: a win with the
 * estimated chance, a place spread as a uniform one over 1..players), so that
 * a move the search sampled a few times is not called a mistake on the
 * strength of a few unlucky playouts. */
static void judge(fig_review_move_t *m, const fig_analysis_t *an, fig_action_t played,
                  int players)
{
    const fig_move_stat_t *best = &an->moves[0], *p = find(an, played);
    m->played = played;
    m->best = best->action;
    m->best_win = best->win;
    m->best_place = best->place;
    m->played_share = p ? p->share : 0;
    m->played_win = p && p->visits ? p->win : best->win;
    m->played_place = p && p->visits ? p->place : best->place;
    m->loss_place = m->played_place - m->best_place;
    m->loss_win = m->best_win - m->played_win;
    if (m->loss_place < 0 || played == best->action)
        m->loss_place = 0;
    if (m->loss_win < 0 || played == best->action)
        m->loss_win = 0;
    double v = p && p->visits ? (double)p->visits : 1;
    double w = (m->played_win * v + 0.5) / (v + 1);   /* never 0 or 1: a few samples */
    double se_win = sqrt(w * (1 - w) / v);
    double se_place = sqrt((players * players - 1) / 12.0 / v);   /* places as if uniform */
    m->grade = grade_of(m->loss_place - se_place, m->loss_win - se_win);
}

fig_err_t fig_review_game(const fig_game_t *g, int seat, const fig_review_opts_t *opts,
                          fig_review_t *out, fig_msg_t *msg)
{
    memset(out, 0, sizeof *out);
    out->seat = seat;
    out->costliest = -1;
    int n = g->setup.players;
    const fig_tr_t *tr = opts ? opts->tr : NULL;
    if (seat < 0 || seat >= n)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                           N_("there is no seat %d: the seats are 0 to %d"), seat, n - 1);
    if (!fig_game_over(g))
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                           N_("the game is not finished: only a finished game can be reviewed"));
    const char *spec = opts && opts->spec ? opts->spec : FIG_REVIEW_SPEC;
    uint64_t seed = opts ? opts->seed : 0;
    const atomic_bool *cancel = opts ? opts->cancel : NULL;
    if (strncmp(spec, "cmd:", 4) == 0)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                           N_("a review needs a built-in bot that searches"));
    fig_bot_t *bot = NULL;
    fig_err_t rc = fig_bot_new(&bot, spec, seed, msg);
    if (rc == FIG_OK)
        rc = fig_bot_game(bot, &g->setup, seat, msg);
    fig_game_t *replay = malloc(sizeof *replay);
    fig_analysis_t *an = malloc(sizeof *an);
    if (rc == FIG_OK && (!replay || !an))
        rc = fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
    if (rc == FIG_OK)
        fig_game_init(replay, &g->setup);
    int number = 0;
    for (int r = 0; r < g->dealt && rc == FIG_OK; r++) {
        rc = fig_game_deal(replay, g->hands[r], msg);
        if (rc == FIG_OK)
            rc = fig_bot_round(bot, &g->hands[r][seat], msg);
        for (int i = 0; i < g->nmoves[r] && rc == FIG_OK; i++) {
            const fig_move_t *mv = &g->moves[r][i];
            if (mv->seat == seat && out->n < FIG_REVIEW_MAX_MOVES) {
                fig_review_move_t *m = &out->moves[out->n];
                fig_view_t known;
                fig_view_of(&replay->state, seat, &m->view);
                fig_view_of(fig_bot_state(bot), seat, &known);
                if (!fig_view_equal(&m->view, &known)) {   /* our bug, not the record's */
                    rc = fig_fail(msg, FIG_ERR_STATE, "review: the search lost track of seat "
                                  "%d's view at round %d, action %d", seat, r + 1, i + 1);
                    break;
                }
                m->round = r + 1;
                m->index = i;
                m->number = ++number;
                fig_bot_seed(bot, fig_seed_derive(seed, (uint64_t)number, 7));
                fig_bot_choose_with(bot, 0, NULL, cancel);
                if (cancel && atomic_load(cancel)) {
                    rc = fig_fail_tr(msg, tr, FIG_ERR_STATE, N_("the review was stopped"));
                    break;
                }
                if (!fig_bot_analysis(bot, an) || an->n < 1) {
                    rc = fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                                     N_("a review needs a bot that searches, not '%s'"), spec);
                    break;
                }
                judge(m, an, mv->action, n);
                out->iterations += an->iterations;
                out->count[m->grade]++;
                if (m->grade != FIG_REVIEW_GOOD) {
                    const fig_review_move_t *c =
                        out->costliest >= 0 ? &out->moves[out->costliest] : NULL;
                    if (!c || m->grade > c->grade ||
                        (m->grade == c->grade && m->loss_place + m->loss_win >
                                                     c->loss_place + c->loss_win))
                        out->costliest = out->n;
                }
                out->n++;
            }
            rc = fig_game_play(replay, mv->action, NULL, msg);
            if (rc == FIG_OK)
                rc = fig_bot_move(bot, mv->action, msg);
        }
    }
    free(replay);
    free(an);
    fig_bot_free(bot);
    return rc;
}

const char *fig_review_grade_name(fig_review_grade_t grade, const fig_tr_t *tr)
{
    switch (grade) {
    case FIG_REVIEW_INACCURACY: return fig_tr_text(tr, "inaccuracy");
    case FIG_REVIEW_MISTAKE: return fig_tr_text(tr, "mistake");
    case FIG_REVIEW_BLUNDER: return fig_tr_text(tr, "blunder");
    default: return fig_tr_text(tr, "good");
    }
}

void fig_review_describe(const fig_narrator_t *nr, const fig_review_t *rv, int i, char *buf,
                         size_t cap)
{
    const fig_review_move_t *m = &rv->moves[i];
    char played[200], best[200];
    fig_narrate_move(nr, &m->view, m->played, played, sizeof played);
    fig_narrate_move(nr, &m->view, m->best, best, sizeof best);
    if (m->played == m->best) {
        snprintf(buf, cap, fig_tr_text(nr->tr, "Round %d, move %d: you chose \"%s\" (wins "
                                               "%.0f%%, place %.1f), the search's choice too."),
                 m->round, m->number, played, 100 * m->played_win, m->played_place);
        return;
    }
    const char *verdict = "";
    switch (m->grade) {
    case FIG_REVIEW_INACCURACY: verdict = fig_tr_text(nr->tr, "An inaccuracy."); break;
    case FIG_REVIEW_MISTAKE: verdict = fig_tr_text(nr->tr, "A mistake."); break;
    case FIG_REVIEW_BLUNDER: verdict = fig_tr_text(nr->tr, "A blunder."); break;
    default: verdict = fig_tr_text(nr->tr, "About as good."); break;
    }
    snprintf(buf, cap, fig_tr_text(nr->tr, "Round %d, move %d: you chose \"%s\" (wins %.0f%%, "
                                           "place %.1f); better: \"%s\" (wins %.0f%%, place "
                                           "%.1f). %s"),
             m->round, m->number, played, 100 * m->played_win, m->played_place, best,
             100 * m->best_win, m->best_place, verdict);
}

void fig_review_summary(const fig_narrator_t *nr, const fig_review_t *rv, char *buf, size_t cap)
{
    char counts[300];
    snprintf(counts, sizeof counts, "%s", "");
    size_t len = 0;
    fig_putf(counts, sizeof counts, &len,
             fig_tr_plural(nr->tr, "%d blunder", "%d blunders",
                           (unsigned long)rv->count[FIG_REVIEW_BLUNDER]),
             rv->count[FIG_REVIEW_BLUNDER]);
    fig_putf(counts, sizeof counts, &len, ", ");
    fig_putf(counts, sizeof counts, &len,
             fig_tr_plural(nr->tr, "%d mistake", "%d mistakes",
                           (unsigned long)rv->count[FIG_REVIEW_MISTAKE]),
             rv->count[FIG_REVIEW_MISTAKE]);
    fig_putf(counts, sizeof counts, &len, ", ");
    fig_putf(counts, sizeof counts, &len,
             fig_tr_plural(nr->tr, "%d inaccuracy", "%d inaccuracies",
                           (unsigned long)rv->count[FIG_REVIEW_INACCURACY]),
             rv->count[FIG_REVIEW_INACCURACY]);
    char head[400];
    snprintf(head, sizeof head,
             fig_tr_plural(nr->tr, "%s in %d move.", "%s in %d moves.", (unsigned long)rv->n),
             counts, rv->n);
    if (rv->costliest < 0) {
        snprintf(buf, cap, "%s %s", head,
                 fig_tr_text(nr->tr, "Every move was close to the search's choice."));
        return;
    }
    const fig_review_move_t *m = &rv->moves[rv->costliest];
    char played[200], best[200];
    fig_narrate_move(nr, &m->view, m->played, played, sizeof played);
    fig_narrate_move(nr, &m->view, m->best, best, sizeof best);
    char tail[600];
    snprintf(tail, sizeof tail,
             fig_tr_text(nr->tr, "The costliest, in round %d (move %d): \"%s\" instead of "
                                 "\"%s\", a chance to win of %.0f%% instead of %.0f%%."),
             m->round, m->number, played, best, 100 * m->played_win, 100 * m->best_win);
    snprintf(buf, cap, "%s %s", head, tail);
}
