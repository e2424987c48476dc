/* SPDX-License-Identifier: MIT */
/* lesson_run.c - a lesson being played (lesson_run.h).
 *
 * A run holds the whole game (every hand): it applies the learner's move and
 * the other seats' scripted answers to it, and shows the learner only their
 * view. The reader has played every accepted move of the script through
 * (lesson_steps.c), so what is applied here is legal. */
#include <stdio.h>
#include <string.h>

#include "host/lesson_run.h"

/* Applies a (legal) action of the record's seat to move and tells it. */
static void apply(fig_lesson_run_t *run, fig_action_t a, fig_session_step_fn *fn, void *ctx)
{
    int you = run->lesson->you;
    fig_view_t before, after;
    fig_view_of(&run->game.state, you, &before);
    fig_match_step_t step;
    memset(&step, 0, sizeof step);
    step.round = run->game.state.round;
    step.seat = run->game.state.turn;
    step.action = a;
    if (fig_game_play(&run->game, a, &step.events, NULL) != FIG_OK)
        return;   /* cannot happen: the reader played the whole script */
    fig_view_of(&run->game.state, you, &after);
    if (fn)
        fn(ctx, &step, &before, &after);
}

static void pass_step(fig_lesson_run_t *run, fig_action_t a, fig_session_step_fn *fn, void *ctx)
{
    const fig_lesson_step_t *s = &run->lesson->step[run->step];
    apply(run, a, fn, ctx);
    for (int t = 0; t < s->nthen; t++)
        apply(run, s->then[t].action, fn, ctx);
    run->step++;
}

void fig_lesson_start(fig_lesson_run_t *run, const fig_lesson_t *lesson, int step,
                      fig_session_step_fn *fn, void *ctx)
{
    run->lesson = lesson;
    run->step = 0;
    run->game = lesson->start;
    if (step > lesson->nsteps)
        step = lesson->nsteps;
    while (run->step < step)
        pass_step(run, fig_lesson_answer(run), fn, ctx);
}

bool fig_lesson_done(const fig_lesson_run_t *run) { return run->step >= run->lesson->nsteps; }

const fig_lesson_step_t *fig_lesson_step(const fig_lesson_run_t *run)
{
    return fig_lesson_done(run) ? NULL : &run->lesson->step[run->step];
}

void fig_lesson_view(const fig_lesson_run_t *run, fig_view_t *v)
{
    fig_view_of(&run->game.state, run->lesson->you, v);
}

fig_action_t fig_lesson_answer(const fig_lesson_run_t *run)
{
    const fig_lesson_step_t *s = fig_lesson_step(run);
    if (!s)
        return FIG_ACT_NONE;
    fig_action_t acc[FIG_MAX_ACTIONS];
    return lesson_steps_accepted(s, &run->game.state, acc) ? acc[0] : FIG_ACT_NONE;
}

fig_lesson_verdict_t fig_lesson_try(fig_lesson_run_t *run, fig_action_t a,
                                    const fig_narrator_t *nr, fig_session_step_fn *fn, void *ctx,
                                    char *why, size_t cap)
{
    if (cap)
        why[0] = '\0';
    const fig_lesson_step_t *s = fig_lesson_step(run);
    if (!s) {
        snprintf(why, cap, "%s", fig_tr_text(nr->tr, "This lesson is over."));
        return FIG_LESSON_REFUSED;
    }
    fig_view_t v;
    fig_lesson_view(run, &v);
    if (fig_narrate_check(&v, a, nr->tr, NULL) != FIG_OK) {
        fig_narrate_refusal(nr, &v, a, why, cap);
        return FIG_LESSON_REFUSED;
    }
    fig_action_t acc[FIG_MAX_ACTIONS];
    int n = lesson_steps_accepted(s, &run->game.state, acc);
    bool ok = false;
    for (int i = 0; i < n && !ok; i++)
        ok = acc[i] == a;
    if (!ok) {
        snprintf(why, cap, "%s", fig_tr_text(nr->tr, s->hint ? s->hint : s->task));
        return FIG_LESSON_NOT_ASKED;
    }
    pass_step(run, a, fn, ctx);
    if (s->done)
        snprintf(why, cap, "%s", fig_tr_text(nr->tr, s->done));
    return FIG_LESSON_PASSED;
}
