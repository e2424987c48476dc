/* SPDX-License-Identifier: MIT */
/* lesson_run.h - a lesson being played (lesson.h).
 *
 * A run (fig_lesson_run_t, a value) is one lesson being played: the front
 * end hands it the learner's move (fig_lesson_try); a move the rules refuse
 * comes back with the reason in the learner's words and language, a legal
 * move that is not the one the step teaches with the step's hint, and the
 * right one moves the lesson on: the learner's move and the other seats'
 * scripted answers are told through a callback with the learner's views, as
 * a match's steps are (session.h), so a narrator tells them (narrate.h). */
#ifndef FIGARO_LESSON_RUN_H
#define FIGARO_LESSON_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/lesson_steps.h"
#include "host/narrate.h"
#include "host/session.h"

typedef struct {
    const fig_lesson_t *lesson;
    int step;              /* the step being asked; lesson->nsteps once done */
    fig_game_t game;       /* the position now (every hand: the learner sees a view) */
} fig_lesson_run_t;

/* Starts lesson `lesson` at step `step` (0: the beginning; a later one
 * resumes a lesson left there: the steps before it are played as their first
 * accepted move and its answers). Steps are told through fn when not NULL. */
void fig_lesson_start(fig_lesson_run_t *run, const fig_lesson_t *lesson, int step,
                      fig_session_step_fn *fn, void *ctx);

/* Whether the lesson is over (every step done). */
bool fig_lesson_done(const fig_lesson_run_t *run);

/* The current step, or NULL once the lesson is over. */
const fig_lesson_step_t *fig_lesson_step(const fig_lesson_run_t *run);

/* The learner's view now. */
void fig_lesson_view(const fig_lesson_run_t *run, fig_view_t *v);

typedef enum {
    FIG_LESSON_REFUSED,    /* the rules refuse it: why holds the reason */
    FIG_LESSON_NOT_ASKED,  /* legal, but not what the step teaches: why holds the hint */
    FIG_LESSON_PASSED      /* done: the move and the answers were told through fn */
} fig_lesson_verdict_t;

/* The learner's move `a` at the current step. The reason or the hint goes
 * into why (cap bytes), in nr's language and names (nr: the learner's
 * narrator, nr->me the learner's seat); on FIG_LESSON_PASSED the learner's
 * move and the other seats' answers are applied and told through fn (may be
 * NULL), why holds the step's `done` text or "". Nothing changes otherwise. */
fig_lesson_verdict_t fig_lesson_try(fig_lesson_run_t *run, fig_action_t a,
                                    const fig_narrator_t *nr, fig_session_step_fn *fn, void *ctx,
                                    char *why, size_t cap);

/* One move that the current step accepts (its first), for a hint or a
 * scripted learner; FIG_ACT_NONE once the lesson is over. */
fig_action_t fig_lesson_answer(const fig_lesson_run_t *run);

#endif
