/* SPDX-License-Identifier: MIT */
/* lesson_progress.h - which lessons (lesson.h) are done and where one was
 * left: DIR/lessons, lines "done ID" and "at ID STEP", in a folder the front
 * end chooses (the terminal: the folder of its saved games), written
 * atomically. */
#ifndef FIGARO_LESSON_PROGRESS_H
#define FIGARO_LESSON_PROGRESS_H

#include <stdbool.h>

#include "figaro/figaro.h"
#include "host/lesson_steps.h"

typedef struct {
    bool done[FIG_LESSONS_MAX];   /* by lesson index in ls */
    int at_lesson, at_step;       /* where one was left; at_lesson -1: none */
} fig_lesson_progress_t;

/* Reads the progress kept in dir (a missing file is no progress: FIG_OK);
 * lessons not in ls are ignored. A damaged file is FIG_ERR_INPUT with the
 * line, and *p holds no progress. */
fig_err_t fig_lesson_progress_read(fig_lesson_progress_t *p, const fig_lessons_t *ls,
                                   const char *dir, const fig_tr_t *tr, fig_msg_t *msg);

/* Writes it (creating dir if needed), through a temporary file renamed into
 * place. */
fig_err_t fig_lesson_progress_write(const fig_lesson_progress_t *p, const fig_lessons_t *ls,
                                    const char *dir, const fig_tr_t *tr, fig_msg_t *msg);

/* The first lesson not done (from the one left, if any), or -1 when all are. */
int fig_lesson_progress_next(const fig_lesson_progress_t *p, const fig_lessons_t *ls);

#endif
