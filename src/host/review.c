/* SPDX-License-Identifier: MIT */
/* review.c - a finished game, move by move, against a search (review.h).
 *
 * One bot follows the game from the seat's knowledge only: the setup, the
 * seat's hand at each deal, every public action in order (the same calls a
 * match makes, bot.h). At each move of the seat it thinks from there twice,
 * reseeded each time from the seat's knowledge of the game, the options'
 * seed, the move's number and the search's (so an iteration-budgeted spec
 * gives the same review every time), and the two root analyses are compared
 * with the move the record says was played; then the move is told to it like
 * any other. A replay of the record beside it gives the seat's true view, which
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

/* The grade one search gives the move played: that of the part of its loss
 * against the search's best beyond the noise of the two estimates (one
 * standard error of their difference), so that a move sampled a few times is
 * not condemned on a few unlucky playouts. A move the search never tried
 * cannot be judged: good. */
static fig_review_grade_t judge_one(const fig_analysis_t *an, fig_action_t played, int players)
{
    const fig_move_stat_t *best = &an->moves[0], *p = find(an, played);
    if (!p || !p->visits || p->action == best->action)
        return FIG_REVIEW_GOOD;
    double ewp, epp, ewb, epb;
    fig_move_stat_noise(p, players, &ewp, &epp);
    fig_move_stat_noise(best, players, &ewb, &epb);
    return grade_of(p->place - best->place - sqrt(epp * epp + epb * epb),
                    best->win - p->win - sqrt(ewp * ewp + ewb * ewb));
}

/* The searches' root analyses as one (the moves' figures weighted by their
 * visits, as the trees of a search on several threads are summed), most
 * visited first. */
static void merge(const fig_analysis_t an[], int k, fig_analysis_t *out)
{
    memset(out, 0, sizeof *out);
    out->seat = an[0].seat;
    double total = 0;
    for (int s = 0; s < k; s++) {
        out->iterations += an[s].iterations;
        for (int i = 0; i < an[s].n; i++) {
            const fig_move_stat_t *m = &an[s].moves[i];
            fig_move_stat_t *o = (fig_move_stat_t *)find(out, m->action);
            if (!o) {
                o = &out->moves[out->n++];
                o->action = m->action;
            }
            double v = m->visits;
            o->visits += m->visits;
            o->win += v * m->win;
            o->place += v * m->place;
            total += v;
        }
    }
    for (int i = 0; i < out->n; i++) {
        fig_move_stat_t *o = &out->moves[i];
        o->share = total > 0 ? o->visits / total : 0;
        if (o->visits) {
            o->win /= o->visits;
            o->place /= o->visits;
        }
    }
    for (int i = 1; i < out->n; i++)   /* most visited first, ties in first-seen order */
        for (int j = i; j > 0 && out->moves[j].visits > out->moves[j - 1].visits; j--) {
            fig_move_stat_t t = out->moves[j];
            out->moves[j] = out->moves[j - 1];
            out->moves[j - 1] = t;
        }
}

/* Fills one reviewed move from the searches. The figures shown are those of
 * the searches together; the best move is their most searched one, and the
 * grade is the mildest that the searches give on their own: a grade stands
 * only where independent searches agree on it (docs/bots.md, Review). */
static void judge(fig_review_move_t *m, const fig_analysis_t an[], int k, fig_action_t played,
                  int players, fig_analysis_t *all)
{
    merge(an, k, all);
    const fig_move_stat_t *best = &all->moves[0], *p = find(all, played);
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
    m->grade = FIG_REVIEW_BLUNDER;
    for (int s = 0; s < k; s++) {
        fig_review_grade_t g = judge_one(&an[s], played, players);
        if (g < m->grade)
            m->grade = g;
    }
    if (played == best->action)
        m->grade = FIG_REVIEW_GOOD;
}

/* What seeds the review's searches: what the seat knows of the game (the
 * setup, its own hands, every action), never another hand (R14), so that
 * the same game gets the same review wherever it is reviewed. */
static uint64_t knowledge_hash(const fig_game_t *g, int seat)
{
    uint64_t h = 0xcbf29ce484222325u;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 0x100000001b3u)
    const fig_setup_t *su = &g->setup;
    MIX(su->players);
    MIX(su->removed);
    MIX(su->king);
    MIX(seat);
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < su->players - 1; i++)
            MIX(su->roads[r][i]);
    for (int r = 0; r < g->dealt; r++) {
        for (int k = 0; k < FIG_KINDS; k++)
            MIX(g->hands[r][seat].n[k]);
        for (int i = 0; i < g->nmoves[r]; i++)
            MIX((uint64_t)g->moves[r][i].seat << 16 | g->moves[r][i].action);
    }
#undef MIX
    return h;
}

/* The review's searches from the bot's position, for the seat's move
 * `number`: FIG_REVIEW_SEARCHES thinks, each seeded from the review's seed,
 * the move and its own number, their root analyses into an. */
static fig_err_t search(fig_bot_t *bot, uint64_t seed, int number, const atomic_bool *cancel,
                        const char *spec, fig_analysis_t an[], const fig_tr_t *tr, fig_msg_t *msg)
{
    for (int s = 0; s < FIG_REVIEW_SEARCHES; s++) {
        fig_bot_seed(bot, fig_seed_derive(seed, (uint64_t)number, (uint64_t)s));
        fig_bot_choose_with(bot, 0, NULL, cancel);
        if (cancel && atomic_load(cancel))
            return fig_fail_tr(msg, tr, FIG_ERR_STATE, N_("the review was stopped"));
        if (!fig_bot_analysis(bot, &an[s]) || an[s].n < 1)
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                               N_("a review needs a bot that searches, not '%s'"), spec);
    }
    return FIG_OK;
}

/* Counts the move just judged, out->moves[out->n], into out's grades and
 * its costliest move (the worst grade, then the largest loss). */
static void count_move(fig_review_t *out)
{
    const fig_review_move_t *m = &out->moves[out->n];
    out->count[m->grade]++;
    if (m->grade != FIG_REVIEW_GOOD) {
        const fig_review_move_t *c = out->costliest >= 0 ? &out->moves[out->costliest] : NULL;
        if (!c || m->grade > c->grade ||
            (m->grade == c->grade &&
             m->loss_place + m->loss_win > c->loss_place + c->loss_win))
            out->costliest = out->n;
    }
    out->n++;
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
    uint64_t seed = fig_seed_derive(knowledge_hash(g, seat), opts ? opts->seed : 0, 11);
    const atomic_bool *cancel = opts ? opts->cancel : NULL;
    if (strncmp(spec, "cmd:", 4) == 0)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT,
                           N_("a review needs a built-in bot that searches"));
    fig_bot_t *bot = NULL;
    fig_err_t rc = fig_bot_new(&bot, spec, seed, msg);
    if (rc == FIG_OK)
        rc = fig_bot_game(bot, &g->setup, seat, msg);
    fig_game_t *replay = malloc(sizeof *replay);
    fig_analysis_t *an = malloc((FIG_REVIEW_SEARCHES + 1) * sizeof *an);
    if (rc == FIG_OK && (!replay || !an))
        rc = fig_fail_tr(msg, tr, FIG_ERR_SPACE, N_("out of memory"));
    if (rc == FIG_OK)
        fig_game_init(replay, &g->setup);
    int number = 0;
    for (int r = 0; r < g->dealt && rc == FIG_OK; r++) {
        rc = fig_game_deal(replay, g->hands[r], msg);
        if (rc == FIG_OK)
            rc = fig_bot_round(bot, &g->hands[r][seat], msg);
        int in_round = 0;
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
                m->in_round = ++in_round;
                rc = search(bot, seed, number, cancel, spec, an, tr, msg);
                if (rc != FIG_OK)
                    break;
                judge(m, an, FIG_REVIEW_SEARCHES, mv->action, n, &an[FIG_REVIEW_SEARCHES]);
                out->iterations += an[FIG_REVIEW_SEARCHES].iterations;
                count_move(out);
            }
            rc = fig_game_play(replay, mv->action, NULL, msg);
            if (rc == FIG_OK)
                rc = fig_bot_move(bot, mv->action, msg);
        }
        for (int j = out->n - 1; j >= 0 && out->moves[j].round == r + 1; j--)
            out->moves[j].of_round = in_round;
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
        /* TRANSLATORS: "Your move 9 of 15 in round 3": the reviewed player's
         * 9th move of the 15 they made in that round. */
        snprintf(buf, cap, fig_tr_text(nr->tr, "Your move %d of %d in round %d: you chose "
                                               "\"%s\" (wins %.0f%%, place %.1f), the search's "
                                               "choice too."),
                 m->in_round, m->of_round, m->round, played, 100 * m->played_win,
                 m->played_place);
        return;
    }
    const char *verdict = "";
    switch (m->grade) {
    case FIG_REVIEW_INACCURACY: verdict = fig_tr_text(nr->tr, "An inaccuracy."); break;
    case FIG_REVIEW_MISTAKE: verdict = fig_tr_text(nr->tr, "A mistake."); break;
    case FIG_REVIEW_BLUNDER: verdict = fig_tr_text(nr->tr, "A blunder."); break;
    default: verdict = fig_tr_text(nr->tr, "About as good."); break;
    }
    snprintf(buf, cap, fig_tr_text(nr->tr, "Your move %d of %d in round %d: you chose \"%s\" "
                                           "(wins %.0f%%, place %.1f); better: \"%s\" (wins "
                                           "%.0f%%, place %.1f). %s"),
             m->in_round, m->of_round, m->round, played, 100 * m->played_win, m->played_place,
             best, 100 * m->best_win, m->best_place, verdict);
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
             fig_tr_text(nr->tr, "The costliest, your move %d of %d in round %d: \"%s\" "
                                 "instead of \"%s\", a chance to win of %.0f%% instead of "
                                 "%.0f%%."),
             m->in_round, m->of_round, m->round, played, best, 100 * m->played_win,
             100 * m->best_win);
    snprintf(buf, cap, "%s %s", head, tail);
}
