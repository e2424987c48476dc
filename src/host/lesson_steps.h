/* SPDX-License-Identifier: MIT */
/* lesson_steps.h - the lessons (lesson.h) as a steps file names them, and its
 * reader.
 *
 * A steps file (lessons/lessons.steps, docs/lessons.md) names each lesson,
 * its position (an FGN record in the same folder: the setup, the deal and the
 * moves before the learner's first move) and its steps; every text is an
 * English msgid that the catalogues translate (po/). The reader checks the
 * whole script against the rules when it loads: every accepted move is legal
 * where it is asked for, and the other seats' scripted moves are legal after
 * each of them. Its messages are for whoever writes lessons: English, with
 * the line. */
#ifndef FIGARO_LESSON_STEPS_H
#define FIGARO_LESSON_STEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"

enum {
    FIG_LESSONS_MAX = 16,        /* lessons in a steps file */
    FIG_LESSON_STEPS_MAX = 12,   /* steps of a lesson */
    FIG_LESSON_TELL_MAX = 6,     /* paragraphs before a lesson or a step */
    FIG_LESSON_ACCEPT_MAX = 8,   /* moves a step lists */
    FIG_LESSON_THEN_MAX = 24,    /* scripted moves after the learner's */
    FIG_LESSON_ID_MAX = 24,      /* bytes of a lesson's id, NUL included */
    FIG_LESSON_TEXT_MAX = 1000,  /* bytes of one text */
    FIG_LESSONS_FILE_MAX = 65536 /* bytes of a steps file */
};

/* The first real game the lessons lead to: this many players, the others
 * bots of this level, hints on (docs/play.md says why this level: a newcomer
 * wins a fair share of the games against it). */
#define FIG_LESSON_GAME_LEVEL "beginner"
enum { FIG_LESSON_GAME_PLAYERS = 4 };

/* What a step accepts. */
typedef enum {
    FIG_ACCEPT_MOVES,   /* one of the moves listed */
    FIG_ACCEPT_PLAY,    /* any card the rules allow (not a take) */
    FIG_ACCEPT_ANY      /* any legal action */
} fig_accept_t;

typedef struct {
    int line;                                     /* of its `step` line */
    int ntell;
    const char *tell[FIG_LESSON_TELL_MAX];        /* msgids: said before the task */
    const char *task;                             /* msgid: what to do */
    const char *hint;                             /* msgid: a legal move not asked for; or NULL */
    const char *done;                             /* msgid: said once it is done; or NULL */
    fig_accept_t accept;
    int naccept;
    fig_action_t moves[FIG_LESSON_ACCEPT_MAX];    /* FIG_ACCEPT_MOVES: the moves */
    int nthen;
    fig_move_t then[FIG_LESSON_THEN_MAX];         /* the other seats' answers, in order */
} fig_lesson_step_t;

typedef struct {
    char id[FIG_LESSON_ID_MAX];
    int line;                                     /* of its `lesson` line */
    const char *title;                            /* msgid */
    char position[64];                            /* the FGN file's name */
    int you;                                      /* the learner's seat */
    int ntell;
    const char *tell[FIG_LESSON_TELL_MAX];        /* msgids: the lesson's introduction */
    const char *end;                              /* msgid: said at the end; or NULL */
    int nsteps;
    fig_lesson_step_t step[FIG_LESSON_STEPS_MAX];
    fig_game_t start;                             /* the position (FGN), the learner to move */
} fig_lesson_t;

typedef struct fig_lessons fig_lessons_t;

/* Gives the record named `name` (a position of the steps file) into *out;
 * msg says why not. */
typedef fig_err_t fig_lesson_load_fn(void *ctx, const char *name, fig_game_t *out,
                                     fig_msg_t *msg);

/* Reads a steps file from memory (len bytes, NULs refused), loading each
 * position through `load`, and checks the whole script against the rules.
 * On failure *out is NULL and msg says what is wrong and msg->line where
 * ("line 12: step 2: seat 1 cannot play B2 in front of seat 0: seat 3 already
 * has blue"). The caller frees *out with fig_lessons_free. */
fig_err_t fig_lessons_parse(fig_lessons_t **out, const char *text, size_t len,
                            fig_lesson_load_fn *load, void *ctx, fig_msg_t *msg);

/* fig_lessons_parse on DIR/lessons.steps, the positions read from DIR. */
fig_err_t fig_lessons_load(fig_lessons_t **out, const char *dir, const fig_tr_t *tr,
                           fig_msg_t *msg);

void fig_lessons_free(fig_lessons_t *ls);   /* NULL is a no-op */

int fig_lessons_count(const fig_lessons_t *ls);
const fig_lesson_t *fig_lessons_get(const fig_lessons_t *ls, int i);   /* NULL out of range */
int fig_lessons_find(const fig_lessons_t *ls, const char *id);          /* -1 if none */

/* The actions step s accepts from the state st (the learner to move), the
 * first the one a hint shows, into out (FIG_MAX_ACTIONS); returns how many.
 * For the reader, which plays each of them through, and a run. */
int lesson_steps_accepted(const fig_lesson_step_t *s, const fig_state_t *st, fig_action_t out[]);

#endif
