/* SPDX-License-Identifier: MIT */
/* lesson_steps.c - the lessons' reader and their checks against the rules
 * (lesson_steps.h; the format is docs/lessons.md).
 *
 * The reader keeps every text in one pool the handle owns; the lessons point
 * into it. A steps file is read line by line, each line a keyword of the
 * table `keywords` and what follows it; a text is `_("...")`, C string
 * literals that may go on over the following lines (as in C, so that
 * xgettext reads the same file and puts its texts in the catalogues). Once a
 * lesson is read, it is played through (check_lesson): the script is valid
 * only if every move it names is legal where it stands. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/lesson_steps.h"
#include "host/util.h"

struct fig_lessons {
    int n;
    fig_lesson_t lesson[FIG_LESSONS_MAX];
    char *pool;           /* every text, NUL-terminated one after the other */
    size_t used, cap;
};

/* ---- reading */

typedef struct {
    const char *p, *end;        /* what is left */
    int line;
    fig_lessons_t *ls;
    fig_msg_t *msg;
    fig_lesson_load_fn *load;   /* the positions */
    void *ctx;
    fig_lesson_t *l;            /* the lesson being read; NULL before the first */
    fig_lesson_step_t *s;       /* its step being read; NULL before its first */
    const char *word;           /* the keyword being read ... */
    int at;                     /* ... and its line */
} reader_t;

static fig_err_t fail_at(reader_t *r, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static fig_err_t fail_at(reader_t *r, int line, const char *fmt, ...)
{
    if (r->msg) {
        char text[sizeof r->msg->text];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        size_t n = 0;
        fig_putf(r->msg->text, sizeof r->msg->text, &n, "line %d: %s", line, text);
        r->msg->line = line;
    }
    return FIG_ERR_INPUT;
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next line into buf (without its end), comments and trailing blanks
 * cut; false at the end of the text. A line longer than the buffer is an
 * error the caller sees as *toolong. */
static bool next_line(reader_t *r, char *buf, size_t cap, bool *toolong)
{
    if (r->p >= r->end)
        return false;
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    const char *stop = nl ? nl : r->end;
    size_t n = (size_t)(stop - r->p);
    *toolong = n >= cap;
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, r->p, n);
    buf[n] = '\0';
    r->p = nl ? nl + 1 : r->end;
    r->line++;
    /* A '#' outside a string starts a comment. */
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        if (in_str && buf[i] == '\\' && i + 1 < n) {
            i++;
            continue;
        }
        if (buf[i] == '"')
            in_str = !in_str;
        else if (buf[i] == '#' && !in_str) {
            buf[i] = '\0';
            n = i;
            break;
        }
    }
    while (n && blank(buf[n - 1]))
        buf[--n] = '\0';
    return true;
}

/* Copies text into the pool; returns where, or NULL when it is full. The
 * pool is as large as the steps file: a text is never longer than the
 * `_("...")` it was read from, so it never grows and the texts never move. */
static const char *keep(fig_lessons_t *ls, const char *text, size_t n)
{
    if (ls->used + n + 1 > ls->cap)
        return NULL;
    char *at = ls->pool + ls->used;
    memcpy(at, text, n);
    at[n] = '\0';
    ls->used += n + 1;
    return at;
}

/* Reads one text `_("..." "...")` that starts at *s in the line buf, going
 * on over the next lines until its ')'. Escapes: \" \\ \n. On success
 * *out points into the pool. */
static fig_err_t read_text(reader_t *r, const char *s, const char **out)
{
    char text[FIG_LESSON_TEXT_MAX];
    size_t n = 0;
    int first = r->line;
    char line[1200];
    while (blank(*s))
        s++;
    if (s[0] != '_' || s[1] != '(')
        return fail_at(r, r->line, "a text is written _(\"...\")");
    s += 2;
    int strings = 0;
    for (;;) {
        while (blank(*s))
            s++;
        if (*s == ')') {
            s++;
            break;
        }
        if (*s == '\0') {   /* the text goes on over the next line */
            bool toolong;
            if (!next_line(r, line, sizeof line, &toolong))
                return fail_at(r, first, "the text that starts here has no ')'");
            if (toolong)
                return fail_at(r, r->line, "the line is too long");
            s = line;
            continue;
        }
        if (*s != '"')
            return fail_at(r, r->line, "expected a \"string\" or ')' in a text");
        s++;
        strings++;
        for (;; s++) {
            char c = *s;
            if (c == '\0')
                return fail_at(r, r->line, "a string has no closing '\"'");
            if (c == '"')
                break;
            if (c == '\\') {
                s++;
                c = *s == 'n' ? '\n' : *s;
                if (c != '\n' && c != '"' && c != '\\')
                    return fail_at(r, r->line, "unknown escape in a string (\\\" \\\\ \\n)");
            } else if ((unsigned char)c < ' ') {
                return fail_at(r, r->line, "a control character in a string");
            }
            if (n + 1 >= sizeof text)
                return fail_at(r, first, "the text is longer than %d bytes",
                               FIG_LESSON_TEXT_MAX - 1);
            text[n++] = c;
        }
        s++;
    }
    while (blank(*s))
        s++;
    if (*s)
        return fail_at(r, r->line, "unexpected '%.20s' after a text", s);
    if (!strings || !n)
        return fail_at(r, first, "a text is empty");
    *out = keep(r->ls, text, n);
    return *out ? FIG_OK : fail_at(r, first, "out of memory");
}

/* The first word of s into w (cap bytes); returns what follows it. */
static const char *word(const char *s, char *w, size_t cap)
{
    while (blank(*s))
        s++;
    size_t n = 0;
    while (*s && !blank(*s)) {
        if (n + 1 < cap)
            w[n++] = *s;
        else
            n = cap;   /* marks it too long */
        s++;
        if (n == cap)
            break;
    }
    w[n < cap ? n : 0] = '\0';
    if (n == cap)
        w[0] = '\0';
    while (blank(*s))
        s++;
    return s;
}

static bool all_digits(const char *w)
{
    if (!*w || strlen(w) > 3)
        return false;
    for (; *w; w++)
        if (*w < '0' || *w > '9')
            return false;
    return true;
}

static bool id_ok(const char *w)
{
    if (!*w || strlen(w) >= FIG_LESSON_ID_MAX)
        return false;
    for (; *w; w++)
        if (!((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') || *w == '-'))
            return false;
    return true;
}

static bool name_ok(const char *w)
{
    size_t n = strlen(w);
    if (n < 5 || n >= 64 || strcmp(w + n - 4, ".fgn") != 0 || w[0] == '.')
        return false;
    for (; *w; w++)
        if (!((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') || *w == '-' || *w == '.'))
            return false;
    return true;
}

/* An action as a steps file writes it (FGN's: "R2>1", "RING", "take"), for
 * `seat`; FIG_ACT_NONE if it is not one. */
static fig_action_t action_word(const char *w, int seat)
{
    return fig_act_parse(w, strlen(w), seat);
}

/* ---- checking a lesson against the rules */

int lesson_steps_accepted(const fig_lesson_step_t *s, const fig_state_t *st, fig_action_t out[])
{
    if (s->accept == FIG_ACCEPT_MOVES) {
        memcpy(out, s->moves, (size_t)s->naccept * sizeof *out);
        return s->naccept;
    }
    fig_action_t legal[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, legal), k = 0;
    for (int i = 0; i < n; i++)
        if (s->accept == FIG_ACCEPT_ANY || !fig_act_is_take(legal[i]))
            out[k++] = legal[i];
    return k;
}

/* Plays the script of lesson l, every accepted move of each step in turn,
 * and reports the first move that does not stand. */
static fig_err_t check_lesson(reader_t *r, const fig_lesson_t *l)
{
    const fig_game_t *g = &l->start;
    if (l->you >= g->setup.players)
        return fail_at(r, l->line, "lesson %s: seat %d does not exist with %d players", l->id,
                       l->you, g->setup.players);
    if (g->state.phase != FIG_PHASE_PLAY || g->state.turn != l->you)
        return fail_at(r, l->line, "lesson %s: the position of %s must end with seat %d to "
                       "play", l->id, l->position, l->you);
    fig_game_t cur = *g;
    for (int i = 0; i < l->nsteps; i++) {
        const fig_lesson_step_t *s = &l->step[i];
        if (cur.state.phase != FIG_PHASE_PLAY || cur.state.turn != l->you)
            return fail_at(r, s->line, "step %d: seat %d is not the one to play here", i + 1,
                           l->you);
        fig_action_t acc[FIG_MAX_ACTIONS];
        int n = lesson_steps_accepted(s, &cur.state, acc);
        if (!n)
            return fail_at(r, s->line, "step %d: no move is accepted here", i + 1);
        fig_game_t next = cur;
        for (int k = n - 1; k >= 0; k--) {   /* the first accepted is the one kept */
            fig_game_t g2 = cur;
            fig_msg_t m;
            char code[16];
            fig_act_format(acc[k], code, sizeof code);
            if (fig_game_play(&g2, acc[k], NULL, &m) != FIG_OK)
                return fail_at(r, s->line, "step %d: %s", i + 1, m.text);
            for (int t = 0; t < s->nthen; t++) {
                const fig_move_t *mv = &s->then[t];
                if (g2.state.phase != FIG_PHASE_PLAY || g2.state.turn != mv->seat)
                    return fail_at(r, s->line, "step %d: after %s, it is not seat %d's turn "
                                   "for its answer %d", i + 1, code, mv->seat, t + 1);
                if (fig_game_play(&g2, mv->action, NULL, &m) != FIG_OK)
                    return fail_at(r, s->line, "step %d: after %s: %s", i + 1, code, m.text);
            }
            next = g2;
        }
        cur = next;
    }
    return FIG_OK;
}

/* A lesson read to its end (the next `lesson` or the end of the file): whole,
 * its position loaded, its script played through. */
static fig_err_t finish_lesson(reader_t *r, fig_lesson_t *l)
{
    if (!l->title)
        return fail_at(r, l->line, "lesson %s has no title", l->id);
    if (!l->position[0])
        return fail_at(r, l->line, "lesson %s has no 'position'", l->id);
    if (!l->nsteps)
        return fail_at(r, l->line, "lesson %s has no step", l->id);
    for (int i = 0; i < l->nsteps; i++)
        if (!l->step[i].task)
            return fail_at(r, l->step[i].line, "step %d of lesson %s has no 'task'", i + 1,
                           l->id);
        else if (!l->step[i].naccept && l->step[i].accept == FIG_ACCEPT_MOVES)
            return fail_at(r, l->step[i].line, "step %d of lesson %s has no 'do'", i + 1,
                           l->id);
    fig_msg_t m = { "", 0 };
    if (!r->load || r->load(r->ctx, l->position, &l->start, &m) != FIG_OK)
        return fail_at(r, l->line, "lesson %s: position %s: %s", l->id, l->position,
                       r->load ? m.text : "no positions given");
    return check_lesson(r, l);
}

/* ---- the keywords: what each one does with what follows it */

/* Where a keyword may stand. */
typedef enum {
    PLACE_TOP,      /* anywhere: it starts a lesson */
    PLACE_HEAD,     /* in a lesson, before its first step */
    PLACE_LESSON,   /* in a lesson, in a step or not */
    PLACE_STEP      /* in a step */
} place_t;

/* What follows a keyword on its line, and what its handler is given. */
typedef enum {
    TAKES_NOTHING,  /* it stands alone on its line: given "" */
    TAKES_WORD,     /* one word: given the word */
    TAKES_TEXT,     /* a text _("..."), perhaps over more lines: given it, in the pool */
    TAKES_OWN       /* words its handler reads: given the rest of the line */
} takes_t;

/* Does what keyword r->word says with arg (as its row's `takes` says), at line
 * r->at, in r->l and r->s (there, as its row's `place` says). */
typedef fig_err_t keyword_fn(reader_t *r, const char *arg);

typedef struct {
    const char *word;
    place_t place;
    takes_t takes;
    keyword_fn *handle;
} keyword_t;

static fig_err_t kw_lesson(reader_t *r, const char *rest)
{
    fig_lessons_t *ls = r->ls;
    if (r->l) {
        fig_err_t rc = finish_lesson(r, r->l);
        if (rc)
            return rc;
    }
    if (ls->n >= FIG_LESSONS_MAX)
        return fail_at(r, r->at, "more than %d lessons", FIG_LESSONS_MAX);
    fig_lesson_t *l = &ls->lesson[ls->n];
    memset(l, 0, sizeof *l);
    l->line = r->at;
    r->l = l;
    r->s = NULL;
    char w[64];
    rest = word(rest, w, sizeof w);
    if (!id_ok(w))
        return fail_at(r, r->at, "a lesson's id is 1 to %d of a-z 0-9 -", FIG_LESSON_ID_MAX - 1);
    for (int i = 0; i < ls->n; i++)
        if (strcmp(ls->lesson[i].id, w) == 0)
            return fail_at(r, r->at, "lesson %s is there twice", w);
    memcpy(l->id, w, strlen(w) + 1);
    ls->n++;
    return read_text(r, rest, &l->title);
}

static fig_err_t kw_position(reader_t *r, const char *v)
{
    if (r->l->position[0])
        return fail_at(r, r->at, "a second 'position'");
    if (!name_ok(v))
        return fail_at(r, r->at, "a position is a file NAME.fgn in the same folder "
                       "(a-z 0-9 - .)");
    memcpy(r->l->position, v, strlen(v) + 1);
    return FIG_OK;
}

static fig_err_t kw_you(reader_t *r, const char *v)
{
    if (!all_digits(v) || atoi(v) >= FIG_MAX_PLAYERS)
        return fail_at(r, r->at, "'you' takes a seat, 0 to %d", FIG_MAX_PLAYERS - 1);
    r->l->you = atoi(v);
    return FIG_OK;
}

static fig_err_t kw_tell(reader_t *r, const char *text)
{
    int *n = r->s ? &r->s->ntell : &r->l->ntell;   /* the step's, or the lesson's */
    const char **tell = r->s ? r->s->tell : r->l->tell;
    if (*n >= FIG_LESSON_TELL_MAX)
        return fail_at(r, r->at, "more than %d 'tell' texts", FIG_LESSON_TELL_MAX);
    tell[(*n)++] = text;
    return FIG_OK;
}

static fig_err_t kw_end(reader_t *r, const char *text)
{
    if (r->l->end)
        return fail_at(r, r->at, "a second 'end'");
    r->l->end = text;
    return FIG_OK;
}

static fig_err_t kw_step(reader_t *r, const char *none)
{
    (void)none;
    fig_lesson_t *l = r->l;
    if (l->nsteps >= FIG_LESSON_STEPS_MAX)
        return fail_at(r, r->at, "more than %d steps", FIG_LESSON_STEPS_MAX);
    r->s = &l->step[l->nsteps++];
    memset(r->s, 0, sizeof *r->s);
    r->s->line = r->at;
    return FIG_OK;
}

/* A text a step has once: its task, hint or done. */
static fig_err_t step_text(reader_t *r, const char **at, const char *text)
{
    if (*at)
        return fail_at(r, r->at, "a second '%s' in this step", r->word);
    *at = text;
    return FIG_OK;
}

static fig_err_t kw_task(reader_t *r, const char *text)
{
    return step_text(r, &r->s->task, text);
}

static fig_err_t kw_hint(reader_t *r, const char *text)
{
    return step_text(r, &r->s->hint, text);
}

static fig_err_t kw_done(reader_t *r, const char *text)
{
    return step_text(r, &r->s->done, text);
}

/* "do MOVE..." (the moves accepted), "do play" (any card) or "do any". */
static fig_err_t kw_do(reader_t *r, const char *rest)
{
    fig_lesson_step_t *s = r->s;
    if (s->naccept || s->accept != FIG_ACCEPT_MOVES)
        return fail_at(r, r->at, "a second 'do' in this step");
    char v[64];
    rest = word(rest, v, sizeof v);
    if (strcmp(v, "play") == 0 || strcmp(v, "any") == 0) {
        if (*rest)
            return fail_at(r, r->at, "'do %s' stands alone", v);
        s->accept = v[0] == 'p' ? FIG_ACCEPT_PLAY : FIG_ACCEPT_ANY;
        return FIG_OK;
    }
    while (v[0]) {
        fig_action_t a = action_word(v, r->l->you);
        if (a == FIG_ACT_NONE)
            return fail_at(r, r->at, "'%s' is not a move (R2>1, J1>3, RING, take, or 'play' "
                           "or 'any')", v);
        if (s->naccept >= FIG_LESSON_ACCEPT_MAX)
            return fail_at(r, r->at, "more than %d moves", FIG_LESSON_ACCEPT_MAX);
        s->moves[s->naccept++] = a;
        rest = word(rest, v, sizeof v);
    }
    if (*rest || !s->naccept)
        return fail_at(r, r->at, "'do' needs moves");
    return FIG_OK;
}

/* "then SEAT MOVE": another seat's scripted answer. */
static fig_err_t kw_then(reader_t *r, const char *rest)
{
    fig_lesson_step_t *s = r->s;
    char seat[16], act[32];
    rest = word(rest, seat, sizeof seat);
    rest = word(rest, act, sizeof act);
    if (!all_digits(seat) || atoi(seat) >= FIG_MAX_PLAYERS || !act[0] || *rest)
        return fail_at(r, r->at, "'then' takes a seat and a move: then 1 R2>3");
    fig_action_t a = action_word(act, atoi(seat));
    if (a == FIG_ACT_NONE)
        return fail_at(r, r->at, "'%s' is not a move", act);
    if (s->nthen >= FIG_LESSON_THEN_MAX)
        return fail_at(r, r->at, "more than %d answers in a step", FIG_LESSON_THEN_MAX);
    s->then[s->nthen].seat = (uint8_t)atoi(seat);
    s->then[s->nthen++].action = a;
    return FIG_OK;
}

/* Every keyword of a steps file: its word, where it may stand, what follows
 * it and its handler, one row each, so that the words a file may hold and
 * what reads them cannot drift apart. */
static const keyword_t keywords[] = {
    { "lesson", PLACE_TOP, TAKES_OWN, kw_lesson },         /* ID _("title") */
    { "position", PLACE_HEAD, TAKES_WORD, kw_position },   /* NAME.fgn */
    { "you", PLACE_HEAD, TAKES_WORD, kw_you },             /* the learner's seat */
    { "tell", PLACE_LESSON, TAKES_TEXT, kw_tell },
    { "end", PLACE_LESSON, TAKES_TEXT, kw_end },
    { "step", PLACE_LESSON, TAKES_NOTHING, kw_step },
    { "task", PLACE_STEP, TAKES_TEXT, kw_task },
    { "hint", PLACE_STEP, TAKES_TEXT, kw_hint },
    { "done", PLACE_STEP, TAKES_TEXT, kw_done },
    { "do", PLACE_STEP, TAKES_OWN, kw_do },                /* MOVE..., play or any */
    { "then", PLACE_STEP, TAKES_OWN, kw_then },            /* SEAT MOVE */
};

/* One line after the first: keyword w, then rest. */
static fig_err_t keyword_line(reader_t *r, const char *w, const char *rest)
{
    const keyword_t *kw = NULL;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0] && !kw; i++)
        if (strcmp(w, keywords[i].word) == 0)
            kw = &keywords[i];
    r->word = w;
    r->at = r->line;
    if (!r->l && (!kw || kw->place != PLACE_TOP))
        return fail_at(r, r->at, "'%s' before the first 'lesson'", w);
    if (!kw)
        return fail_at(r, r->at, "'%s' is not a word of a steps file", w);
    if (kw->place == PLACE_HEAD && r->s)
        return fail_at(r, r->at, "'%s' belongs before the lesson's first step", w);
    if (kw->place == PLACE_STEP && !r->s)
        return fail_at(r, r->at, "'%s' belongs in a step", w);
    char v[64];
    const char *text;
    fig_err_t rc;
    switch (kw->takes) {
    case TAKES_NOTHING:
        if (*rest)
            return fail_at(r, r->at, "'%s' stands alone on its line", w);
        return kw->handle(r, rest);
    case TAKES_WORD:
        if (*word(rest, v, sizeof v) || !v[0])
            return fail_at(r, r->at, "'%s' takes one word", w);
        return kw->handle(r, v);
    case TAKES_TEXT:
        rc = read_text(r, rest, &text);
        return rc ? rc : kw->handle(r, text);
    default:
        return kw->handle(r, rest);
    }
}

/* The first line: the format and its version. */
static fig_err_t first_line(reader_t *r, const char *w, const char *rest)
{
    if (strcmp(w, "figaro-lessons") != 0)
        return fail_at(r, r->line, "the first line must be 'figaro-lessons 1'");
    if (strcmp(rest, "1") != 0)
        return fail_at(r, r->line, "version '%.20s' is not known (this program reads 1)", rest);
    return FIG_OK;
}

static fig_err_t parse(reader_t *r)
{
    char line[1200], w[64];
    bool magic = false, toolong;
    while (next_line(r, line, sizeof line, &toolong)) {
        if (toolong)
            return fail_at(r, r->line, "the line is too long");
        const char *rest = word(line, w, sizeof w);
        if (!w[0] && !*rest)
            continue;   /* blank */
        if (!w[0])
            return fail_at(r, r->line, "a word is too long");
        fig_err_t rc = magic ? keyword_line(r, w, rest) : first_line(r, w, rest);
        if (rc)
            return rc;
        magic = true;
    }
    if (!magic)
        return fail_at(r, r->line ? r->line : 1, "the first line must be 'figaro-lessons 1'");
    if (!r->l)
        return fail_at(r, r->line, "no lesson");
    return finish_lesson(r, r->l);
}

fig_err_t fig_lessons_parse(fig_lessons_t **out, const char *text, size_t len,
                            fig_lesson_load_fn *load, void *ctx, fig_msg_t *msg)
{
    *out = NULL;
    if (len > FIG_LESSONS_FILE_MAX)
        return fig_fail(msg, FIG_ERR_INPUT, "the steps file is larger than %d bytes",
                        FIG_LESSONS_FILE_MAX);
    if (memchr(text, '\0', len))
        return fig_fail(msg, FIG_ERR_INPUT, "the steps file holds a NUL byte");
    fig_lessons_t *ls = calloc(1, sizeof *ls);
    if (ls)
        ls->pool = malloc(len + 1);
    if (!ls || !ls->pool) {
        free(ls);
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    ls->cap = len + 1;
    reader_t r = { .p = text, .end = text + len, .ls = ls, .msg = msg, .load = load, .ctx = ctx };
    fig_err_t rc = parse(&r);
    if (rc) {
        fig_lessons_free(ls);
        return rc;
    }
    *out = ls;
    return FIG_OK;
}

typedef struct {
    const char *dir;
    const fig_tr_t *tr;
} dir_ctx_t;

static fig_err_t load_from_dir(void *ctx, const char *name, fig_game_t *out, fig_msg_t *msg)
{
    const dir_ctx_t *d = ctx;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", d->dir, name) >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the path is too long");
    char *data;
    size_t len;
    fig_err_t rc = fig_read_file(path, 1 << 20, &data, &len, d->tr, msg);
    if (rc)
        return rc;
    rc = fig_fgn_read(out, data, len, msg);
    if (rc && msg) {   /* say the record's line, not the steps file's */
        char text[sizeof msg->text];
        size_t n = 0;
        fig_putf(text, sizeof text, &n, "line %d: %s", msg->line, msg->text);
        memcpy(msg->text, text, sizeof text);
    }
    free(data);
    return rc;
}

fig_err_t fig_lessons_load(fig_lessons_t **out, const char *dir, const fig_tr_t *tr,
                           fig_msg_t *msg)
{
    *out = NULL;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/lessons.steps", dir) >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the path is too long");
    char *data;
    size_t len;
    fig_err_t rc = fig_read_file(path, FIG_LESSONS_FILE_MAX, &data, &len, tr, msg);
    if (rc) {
        if (msg) {
            char text[sizeof msg->text];
            size_t n = 0;
            fig_putf(text, sizeof text, &n, "%s: %s", path, msg->text);
            memcpy(msg->text, text, sizeof text);
        }
        return rc;
    }
    dir_ctx_t d = { dir, tr };
    rc = fig_lessons_parse(out, data, len, load_from_dir, &d, msg);
    free(data);
    if (rc && msg) {
        char text[sizeof msg->text];
        size_t n = 0;
        fig_putf(text, sizeof text, &n, "%s: %s", path, msg->text);
        memcpy(msg->text, text, sizeof text);
    }
    return rc;
}

void fig_lessons_free(fig_lessons_t *ls)
{
    if (!ls)
        return;
    free(ls->pool);
    free(ls);
}

int fig_lessons_count(const fig_lessons_t *ls) { return ls->n; }

const fig_lesson_t *fig_lessons_get(const fig_lessons_t *ls, int i)
{
    return i >= 0 && i < ls->n ? &ls->lesson[i] : NULL;
}

int fig_lessons_find(const fig_lessons_t *ls, const char *id)
{
    for (int i = 0; i < ls->n; i++)
        if (strcmp(ls->lesson[i].id, id) == 0)
            return i;
    return -1;
}
