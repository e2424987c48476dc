/* SPDX-License-Identifier: MIT */
/* lesson.h - the lessons of `figaro learn` (and, through their JSON, of the
 * browser): short scripted positions in which a newcomer makes each move the
 * rules allow, one rule a lesson, for every front end.
 *
 * Lessons are data (docs/lessons.md): a steps file (lessons/lessons.steps)
 * names each lesson, its position (an FGN record in the same folder: the
 * setup, the deal and the moves before the learner's first move) and its
 * steps; every text is an English msgid that the catalogues translate
 * (po/), so a lesson or a language is added without code. The reader checks
 * the whole script against the rules when it loads: every accepted move is
 * legal where it is asked for, and the other seats' scripted moves are legal
 * after each of them.
 *
 * A run (fig_lesson_run_t, a value) is one lesson being played: the front
 * end hands it the learner's move (fig_lesson_try); a move the rules refuse
 * comes back with the reason in the learner's words and language, a legal
 * move that is not the one the step teaches with the step's hint, and the
 * right one moves the lesson on: the learner's move and the other seats'
 * scripted answers are told through a callback with the learner's views, as
 * a match's steps are (session.h), so a narrator tells them (narrate.h).
 *
 * Progress (which lessons are done, where one was left) is a small text file
 * in a folder the front end chooses (the terminal: the folder of its saved
 * games), written atomically. Nothing here prints, exits or reads the
 * environment. */
#ifndef FIGARO_LESSON_H
#define FIGARO_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/narrate.h"
#include "host/session.h"

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

/* ---- playing a lesson */

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

/* ---- progress: DIR/lessons (lines "done ID" and "at ID STEP") */

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
