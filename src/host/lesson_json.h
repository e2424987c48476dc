/* SPDX-License-Identifier: MIT */
/* lesson_json.h - the lessons (lesson.h) as JSON, for the browser
 * (docs/lessons.md): as the steps file says them, or played out by the
 * engine for a page that plays no rule. */
#ifndef FIGARO_LESSON_JSON_H
#define FIGARO_LESSON_JSON_H

#include <stddef.h>

#include "figaro/figaro.h"
#include "host/lesson_steps.h"

/* The lessons as one JSON object (docs/lessons.md), every text in the
 * language of tr (NULL: the English msgids) and each position as its FGN
 * record: for the browser. Writes into buf as snprintf does and returns the
 * length the whole text needs. */
size_t fig_lessons_json(const fig_lessons_t *ls, const fig_tr_t *tr, char *buf, size_t cap);

/* The same for a front end that plays no rule (the browser's lessons, read
 * offline): no positions, and each step played out by the engine: the
 * learner's view before it (their hand and what is public, never another
 * seat's hand: R14), the move a hint shows ("answer"), and for every card of
 * their hand in front of every seat, and a take, what the lesson answers
 * ("tries": "ok" with the narration of the move and the scripted answers and
 * the view after them,
 * "hint" for a legal move the step does not ask for, "refused" with the
 * engine's reason), all in the language of tr (docs/lessons.md). */
size_t fig_lessons_json_played(const fig_lessons_t *ls, const fig_tr_t *tr, char *buf,
                               size_t cap);

#endif
