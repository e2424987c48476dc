/* SPDX-License-Identifier: MIT */
/* lesson.h - the lessons of `figaro learn` (and, through their JSON, of the
 * browser): short scripted positions in which a newcomer makes each move the
 * rules allow, one rule a lesson, for every front end.
 *
 * Lessons are data (docs/lessons.md), so a lesson or a language is added
 * without code. Four modules, one header each, all included here:
 *
 *   lesson_steps.h     the lessons and the reader of their steps file, which
 *                      plays each script through before accepting it
 *   lesson_run.h       a lesson being played: the learner's move refused with
 *                      the engine's reason, or not the one taught, or passed
 *                      and answered
 *   lesson_progress.h  which lessons are done and where one was left
 *   lesson_json.h      the lessons as JSON for the browser
 *
 * Nothing here prints, exits or reads the environment. */
#ifndef FIGARO_LESSON_H
#define FIGARO_LESSON_H

#include "host/lesson_json.h"
#include "host/lesson_progress.h"
#include "host/lesson_run.h"
#include "host/lesson_steps.h"

#endif
