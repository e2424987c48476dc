/* SPDX-License-Identifier: MIT */
/* lesson.c - the lessons' reader, their checks against the rules, a lesson
 * being played, the progress file and the lessons as JSON (lesson.h; the
 * format is docs/lessons.md).
 *
 * The reader keeps every text in one pool the handle owns; the lessons point
 * into it. A steps file is read line by line; a text is `_("...")`, C string
 * literals that may go on over the following lines (as in C, so that
 * xgettext reads the same file and puts its texts in the catalogues). After
 * the whole file is read, each lesson is played through (check_lesson): the
 * script is valid only if every move it names is legal where it stands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/lesson.h"
#include "host/util.h"

struct fig_lessons {
    int n;
    fig_lesson_t lesson[FIG_LESSONS_MAX];
    char *pool;           /* every text, NUL-terminated one after the other */
    size_t used, cap;
};

/* ---- reading */

typedef struct {
    const char *p, *end;  /* what is left */
    int line;
    fig_lessons_t *ls;
    fig_msg_t *msg;
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

/* The actions a step accepts from the state st (the learner to move). */
static int accepted(const fig_lesson_step_t *s, const fig_state_t *st, fig_action_t out[])
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
        int n = accepted(s, &cur.state, acc);
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

/* ---- the steps file */

static fig_err_t add_tell(reader_t *r, int *n, const char **tell, const char *rest)
{
    if (*n >= FIG_LESSON_TELL_MAX)
        return fail_at(r, r->line, "more than %d 'tell' texts", FIG_LESSON_TELL_MAX);
    return read_text(r, rest, &tell[(*n)++]);
}

static fig_err_t finish_lesson(reader_t *r, fig_lesson_t *l, fig_lesson_load_fn *load, void *ctx)
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
    if (!load || load(ctx, l->position, &l->start, &m) != FIG_OK)
        return fail_at(r, l->line, "lesson %s: position %s: %s", l->id, l->position,
                       load ? m.text : "no positions given");
    return check_lesson(r, l);
}

static fig_err_t parse(reader_t *r, fig_lesson_load_fn *load, void *ctx)
{
    fig_lessons_t *ls = r->ls;
    char line[1200], w[64];
    bool magic = false, toolong;
    fig_lesson_t *l = NULL;
    fig_lesson_step_t *s = NULL;
    while (next_line(r, line, sizeof line, &toolong)) {
        if (toolong)
            return fail_at(r, r->line, "the line is too long");
        const char *rest = word(line, w, sizeof w);
        if (!w[0] && !*rest)
            continue;   /* blank */
        if (!w[0])
            return fail_at(r, r->line, "a word is too long");
        if (!magic) {
            if (strcmp(w, "figaro-lessons") != 0)
                return fail_at(r, r->line, "the first line must be 'figaro-lessons 1'");
            if (strcmp(rest, "1") != 0)
                return fail_at(r, r->line, "version '%.20s' is not known (this program reads 1)",
                               rest);
            magic = true;
            continue;
        }
        if (strcmp(w, "lesson") == 0) {
            if (l) {
                fig_err_t rc = finish_lesson(r, l, load, ctx);
                if (rc)
                    return rc;
            }
            if (ls->n >= FIG_LESSONS_MAX)
                return fail_at(r, r->line, "more than %d lessons", FIG_LESSONS_MAX);
            l = &ls->lesson[ls->n];
            memset(l, 0, sizeof *l);
            l->line = r->line;
            s = NULL;
            rest = word(rest, w, sizeof w);
            if (!id_ok(w))
                return fail_at(r, r->line, "a lesson's id is 1 to %d of a-z 0-9 -",
                               FIG_LESSON_ID_MAX - 1);
            for (int i = 0; i < ls->n; i++)
                if (strcmp(ls->lesson[i].id, w) == 0)
                    return fail_at(r, r->line, "lesson %s is there twice", w);
            memcpy(l->id, w, strlen(w) + 1);
            ls->n++;
            fig_err_t rc = read_text(r, rest, &l->title);
            if (rc)
                return rc;
            continue;
        }
        if (!l)
            return fail_at(r, r->line, "'%s' before the first 'lesson'", w);
        if (strcmp(w, "position") == 0 || strcmp(w, "you") == 0) {
            if (s)
                return fail_at(r, r->line, "'%s' belongs before the lesson's first step", w);
            char v[64];
            const char *after = word(rest, v, sizeof v);
            if (*after || !v[0])
                return fail_at(r, r->line, "'%s' takes one word", w);
            if (w[0] == 'p') {
                if (l->position[0])
                    return fail_at(r, r->line, "a second 'position'");
                if (!name_ok(v))
                    return fail_at(r, r->line, "a position is a file NAME.fgn in the same "
                                   "folder (a-z 0-9 - .)");
                memcpy(l->position, v, strlen(v) + 1);
            } else {
                if (!all_digits(v) || atoi(v) >= FIG_MAX_PLAYERS)
                    return fail_at(r, r->line, "'you' takes a seat, 0 to %d",
                                   FIG_MAX_PLAYERS - 1);
                l->you = atoi(v);
            }
            continue;
        }
        if (strcmp(w, "end") == 0) {
            if (l->end)
                return fail_at(r, r->line, "a second 'end'");
            fig_err_t rc = read_text(r, rest, &l->end);
            if (rc)
                return rc;
            continue;
        }
        if (strcmp(w, "step") == 0) {
            if (*rest)
                return fail_at(r, r->line, "'step' stands alone on its line");
            if (l->nsteps >= FIG_LESSON_STEPS_MAX)
                return fail_at(r, r->line, "more than %d steps", FIG_LESSON_STEPS_MAX);
            s = &l->step[l->nsteps];
            memset(s, 0, sizeof *s);
            s->line = r->line;
            l->nsteps++;
            continue;
        }
        if (strcmp(w, "tell") == 0) {
            fig_err_t rc = s ? add_tell(r, &s->ntell, s->tell, rest)
                             : add_tell(r, &l->ntell, l->tell, rest);
            if (rc)
                return rc;
            continue;
        }
        static const char *const step_words[] = { "task", "hint", "done", "do", "then" };
        bool step_word = false;
        for (size_t k = 0; k < sizeof step_words / sizeof step_words[0]; k++)
            step_word |= strcmp(w, step_words[k]) == 0;
        if (!step_word)
            return fail_at(r, r->line, "'%s' is not a word of a steps file", w);
        if (!s)
            return fail_at(r, r->line, "'%s' belongs in a step", w);
        if (strcmp(w, "task") == 0 || strcmp(w, "hint") == 0 || strcmp(w, "done") == 0) {
            const char **at = w[0] == 't' ? &s->task : w[0] == 'h' ? &s->hint : &s->done;
            if (*at)
                return fail_at(r, r->line, "a second '%s' in this step", w);
            fig_err_t rc = read_text(r, rest, at);
            if (rc)
                return rc;
            continue;
        }
        if (strcmp(w, "do") == 0) {
            if (s->naccept || s->accept != FIG_ACCEPT_MOVES)
                return fail_at(r, r->line, "a second 'do' in this step");
            char v[64];
            rest = word(rest, v, sizeof v);
            if (strcmp(v, "play") == 0 || strcmp(v, "any") == 0) {
                if (*rest)
                    return fail_at(r, r->line, "'do %s' stands alone", v);
                s->accept = v[0] == 'p' ? FIG_ACCEPT_PLAY : FIG_ACCEPT_ANY;
                continue;
            }
            while (v[0]) {
                fig_action_t a = action_word(v, l->you);
                if (a == FIG_ACT_NONE)
                    return fail_at(r, r->line, "'%s' is not a move (R2>1, J1>3, RING, take, "
                                   "or 'play' or 'any')", v);
                if (s->naccept >= FIG_LESSON_ACCEPT_MAX)
                    return fail_at(r, r->line, "more than %d moves", FIG_LESSON_ACCEPT_MAX);
                s->moves[s->naccept++] = a;
                rest = word(rest, v, sizeof v);
            }
            if (*rest || !s->naccept)
                return fail_at(r, r->line, "'do' needs moves");
            continue;
        }
        if (strcmp(w, "then") == 0) {
            char seat[16], act[32];
            rest = word(rest, seat, sizeof seat);
            rest = word(rest, act, sizeof act);
            if (!all_digits(seat) || atoi(seat) >= FIG_MAX_PLAYERS || !act[0] || *rest)
                return fail_at(r, r->line, "'then' takes a seat and a move: then 1 R2>3");
            fig_action_t a = action_word(act, atoi(seat));
            if (a == FIG_ACT_NONE)
                return fail_at(r, r->line, "'%s' is not a move", act);
            if (s->nthen >= FIG_LESSON_THEN_MAX)
                return fail_at(r, r->line, "more than %d answers in a step", FIG_LESSON_THEN_MAX);
            s->then[s->nthen].seat = (uint8_t)atoi(seat);
            s->then[s->nthen++].action = a;
            continue;
        }
        return fail_at(r, r->line, "'%s' is not a word of a steps file", w);   /* not reached */
    }
    if (!magic)
        return fail_at(r, r->line ? r->line : 1, "the first line must be 'figaro-lessons 1'");
    if (!l)
        return fail_at(r, r->line, "no lesson");
    return finish_lesson(r, l, load, ctx);
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
    reader_t r = { text, text + len, 0, ls, msg };
    fig_err_t rc = parse(&r, load, ctx);
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

/* ---- JSON */

static void json_str(char *buf, size_t cap, size_t *len, const char *s)
{
    fig_putf(buf, cap, len, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fig_putf(buf, cap, len, "\\%c", c);
        else if (c == '\n')
            fig_putf(buf, cap, len, "\\n");
        else if (c < ' ')
            fig_putf(buf, cap, len, "\\u%04x", c);
        else
            fig_putf(buf, cap, len, "%c", c);
    }
    fig_putf(buf, cap, len, "\"");
}

static void json_text(char *buf, size_t cap, size_t *len, const fig_tr_t *tr, const char *msgid)
{
    if (msgid)
        json_str(buf, cap, len, fig_tr_text(tr, msgid));
    else
        fig_putf(buf, cap, len, "null");
}

static void json_texts(char *buf, size_t cap, size_t *len, const fig_tr_t *tr, int n,
                       const char *const *t)
{
    fig_putf(buf, cap, len, "[");
    for (int i = 0; i < n; i++) {
        fig_putf(buf, cap, len, "%s", i ? ", " : "");
        json_text(buf, cap, len, tr, t[i]);
    }
    fig_putf(buf, cap, len, "]");
}

/* The learner's view as JSON, in the words of the table's view (the server's
 * `view`, docs/protocol.md): their own hand and what is public, nothing of
 * another seat's hand (R14); the others' road lengths only once the game is
 * over, as at a table. */
static void json_view(char *buf, size_t cap, size_t *len, const fig_view_t *v)
{
    int n = v->players;
    bool over = v->phase == FIG_PHASE_OVER;
    fig_putf(buf, cap, len, "{\"players\": %d, \"round\": %d, \"phase\": \"%s\", \"turn\": %d, "
             "\"king\": %d, \"seat\": %d", n, v->round,
             v->phase == FIG_PHASE_DEAL ? "deal" : v->phase == FIG_PHASE_PLAY ? "play" : "over",
             v->turn, v->king, v->seat);
    if (n == 3 && v->removed < FIG_COLOURS)
        fig_putf(buf, cap, len, ", \"removed\": \"%c\"", fig_colour_letter(v->removed));
    else
        fig_putf(buf, cap, len, ", \"removed\": null");
    fig_putf(buf, cap, len, ", \"hand\": [");
    int k = 0;
    for (int c = 0; c < FIG_KINDS; c++)
        for (int i = 0; i < v->hand.n[c]; i++)
            fig_putf(buf, cap, len, "%s\"%s\"", k++ ? ", " : "", fig_kind_code(c));
    fig_putf(buf, cap, len, "], \"hand_sizes\": [");
    for (int s = 0; s < n; s++)
        fig_putf(buf, cap, len, "%s%d", s ? ", " : "", v->hand_size[s]);
    fig_putf(buf, cap, len, "], \"stacks\": [");
    for (int s = 0; s < n; s++)
        fig_putf(buf, cap, len, "%s%d", s ? ", " : "", v->stack[s]);
    fig_putf(buf, cap, len, "], \"road_pieces\": [");
    for (int s = 0; s < n; s++)
        fig_putf(buf, cap, len, "%s%d", s ? ", " : "", v->nroad[s]);
    fig_putf(buf, cap, len, "], \"roads\": [");
    for (int s = 0; s < n; s++) {
        fig_putf(buf, cap, len, "%s", s ? ", " : "");
        if (!over && s != v->seat) {
            fig_putf(buf, cap, len, "null");
            continue;
        }
        fig_putf(buf, cap, len, "[");
        for (int i = 0; i < v->nroad[s]; i++)
            fig_putf(buf, cap, len, "%s%d", i ? ", " : "", v->road[s][i]);
        fig_putf(buf, cap, len, "]");
    }
    fig_putf(buf, cap, len, "], \"road_groups\": [");
    for (int r = 0; r < FIG_ROUNDS; r++) {
        fig_putf(buf, cap, len, "%s[", r ? ", " : "");
        for (int i = 0; i < n - 1; i++)
            fig_putf(buf, cap, len, "%s%d", i ? ", " : "", v->group[r][i]);
        fig_putf(buf, cap, len, "]");
    }
    fig_putf(buf, cap, len, "], \"piles\": [");
    for (int s = 0; s < n; s++) {
        const fig_pile_t *p = &v->pile[s];
        fig_putf(buf, cap, len, "%s{\"colour\": ", s ? ", " : "");
        if (p->colour < FIG_COLOURS)
            fig_putf(buf, cap, len, "\"%c\"", fig_colour_letter(p->colour));
        else
            fig_putf(buf, cap, len, "null");
        fig_putf(buf, cap, len, ", \"total\": %d, \"cards\": [", p->total);
        int m = 0;
        for (int i = 0; i < 6; i++) {
            int kind = i < 3 ? (p->colour < FIG_COLOURS ? p->colour * 3 + i : -1) : FIG_J1 + (i - 3);
            for (int c = 0; c < p->n[i] && kind >= 0; c++)
                fig_putf(buf, cap, len, "%s\"%s\"", m++ ? ", " : "", fig_kind_code(kind));
        }
        fig_putf(buf, cap, len, "]}");
    }
    fig_putf(buf, cap, len, "]}");
}

/* Where the narration of a step goes: JSON strings, one a sentence. */
typedef struct {
    char *buf;
    size_t cap, *len;
    int n;
    fig_narrator_t nr;
} told_t;

static void told_say(void *ctx, int about, const char *sentence)
{
    (void)about;
    told_t *t = ctx;
    fig_putf(t->buf, t->cap, t->len, "%s", t->n++ ? ", " : "");
    json_str(t->buf, t->cap, t->len, sentence);
}

static const char *told_card(void *ctx, int kind, char *buf, size_t cap)
{
    const told_t *t = ctx;
    return fig_narrate_code(t->nr.tr, kind, buf, cap);
}

static void told_step(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                      const fig_view_t *after)
{
    told_t *t = ctx;
    fig_narrate_step(&t->nr, step, before, after);
}

/* A step played out for a front end that plays no rule: the learner's view,
 * and what the lesson answers to each move they could try there (every card
 * of their hand in front of every seat, and a take): "ok" with the narration
 * of the move and its answers and the view after them, "hint" (legal, not this step's), or "refused"
 * with the engine's reason in the learner's words (fig_lesson_try, as in the
 * terminal). */
static void json_step_play(char *buf, size_t cap, size_t *len, const fig_lesson_run_t *run,
                           const fig_tr_t *tr)
{
    const fig_lesson_t *l = run->lesson;
    fig_view_t v;
    fig_lesson_view(run, &v);
    fig_putf(buf, cap, len, ",\n    \"view\": ");
    json_view(buf, cap, len, &v);
    fig_putf(buf, cap, len, ",\n    \"answer\": \"%s\", \"tries\": {",
             fig_act_format(fig_lesson_answer(run), (char[16]){ 0 }, 16));
    told_t t = { .buf = buf, .cap = cap, .len = len };
    fig_narrate_init(&t.nr, l->start.setup.players, l->you,
                     (const char (*)[FIG_NAME_MAX + 1])l->start.names, tr, told_card, told_say, &t);
    int count = 0;
    for (int kind = 0; kind <= FIG_KINDS; kind++) {
        if (kind < FIG_KINDS && !v.hand.n[kind])
            continue;
        for (int seat = 0; seat < v.players; seat++) {
            fig_action_t a = kind == FIG_KINDS ? FIG_ACT_TAKE : fig_act_play(kind, seat);
            if (kind == FIG_KINDS && seat)
                break;
            char code[16], why[600];
            fig_act_format(a, code, sizeof code);
            /* a ring goes in front of its player: one move, asked as such */
            if (kind == FIG_RING && seat != l->you) {
                a = fig_act_play(kind, seat);
                snprintf(code, sizeof code, "RING>%d", seat);
            }
            fig_putf(buf, cap, len, "%s\n     \"%s\": {", count++ ? "," : "", code);
            fig_lesson_run_t probe = *run;
            fig_putf(buf, cap, len, "\"verdict\": ");
            size_t mark = *len;
            fig_putf(buf, cap, len, "\"ok\", \"told\": [");
            t.n = 0;
            fig_lesson_verdict_t r = fig_lesson_try(&probe, a, &t.nr, told_step, &t, why, sizeof why);
            if (r == FIG_LESSON_PASSED) {
                fig_view_t after;
                fig_lesson_view(&probe, &after);
                fig_putf(buf, cap, len, "], \"after\": ");
                json_view(buf, cap, len, &after);
                fig_putf(buf, cap, len, "}");
                continue;
            }
            /* nothing was told: write the verdict over the start of the list */
            *len = mark;
            if (cap)
                buf[mark < cap ? mark : cap - 1] = '\0';
            if (r == FIG_LESSON_REFUSED) {
                fig_putf(buf, cap, len, "\"refused\", \"why\": ");
                json_str(buf, cap, len, why);
                fig_putf(buf, cap, len, "}");
            } else {
                fig_putf(buf, cap, len, "\"hint\"}");
            }
        }
    }
    fig_putf(buf, cap, len, "}");
}

static size_t lessons_json(const fig_lessons_t *ls, const fig_tr_t *tr, bool played, char *buf,
                           size_t cap)
{
    static const char *const accept[] = { "moves", "play", "any" };
    size_t len = 0;
    if (cap)
        buf[0] = '\0';
    fig_putf(buf, cap, &len, "{\"lessons\": [");
    for (int i = 0; i < ls->n; i++) {
        const fig_lesson_t *l = &ls->lesson[i];
        fig_putf(buf, cap, &len, "%s\n {\"id\": ", i ? "," : "");
        json_str(buf, cap, &len, l->id);
        fig_putf(buf, cap, &len, ", \"title\": ");
        json_text(buf, cap, &len, tr, l->title);
        fig_putf(buf, cap, &len, ", \"you\": %d, \"tell\": ", l->you);
        json_texts(buf, cap, &len, tr, l->ntell, l->tell);
        fig_putf(buf, cap, &len, ", \"end\": ");
        json_text(buf, cap, &len, tr, l->end);
        if (played) {   /* the seats' names: the record's, public */
            fig_putf(buf, cap, &len, ", \"names\": [");
            for (int k = 0; k < l->start.setup.players; k++) {
                fig_putf(buf, cap, &len, "%s", k ? ", " : "");
                json_str(buf, cap, &len, l->start.has_names ? l->start.names[k] : "?");
            }
            fig_putf(buf, cap, &len, "]");
        }
        char *fgn = played ? NULL : malloc(1 << 16);
        if (fgn) {
            size_t n = fig_fgn_write(&l->start, fgn, 1 << 16);
            if (n < 1 << 16) {
                fig_putf(buf, cap, &len, ",\n  \"position\": ");
                json_str(buf, cap, &len, fgn);
            }
            free(fgn);
        }
        fig_putf(buf, cap, &len, ",\n  \"steps\": [");
        fig_lesson_run_t run;
        fig_lesson_start(&run, l, 0, NULL, NULL);
        for (int k = 0; k < l->nsteps; k++) {
            const fig_lesson_step_t *s = &l->step[k];
            fig_putf(buf, cap, &len, "%s\n   {\"tell\": ", k ? "," : "");
            json_texts(buf, cap, &len, tr, s->ntell, s->tell);
            fig_putf(buf, cap, &len, ", \"task\": ");
            json_text(buf, cap, &len, tr, s->task);
            fig_putf(buf, cap, &len, ", \"hint\": ");
            json_text(buf, cap, &len, tr, s->hint);
            fig_putf(buf, cap, &len, ", \"done\": ");
            json_text(buf, cap, &len, tr, s->done);
            fig_putf(buf, cap, &len, ", \"accept\": \"%s\", \"moves\": [", accept[s->accept]);
            for (int m = 0; m < s->naccept; m++) {
                char code[16];
                fig_act_format(s->moves[m], code, sizeof code);
                fig_putf(buf, cap, &len, "%s\"%s\"", m ? ", " : "", code);
            }
            fig_putf(buf, cap, &len, "], \"then\": [");
            for (int m = 0; m < s->nthen; m++) {
                char code[16];
                fig_act_format(s->then[m].action, code, sizeof code);
                fig_putf(buf, cap, &len, "%s{\"seat\": %d, \"action\": \"%s\"}", m ? ", " : "",
                         s->then[m].seat, code);
            }
            fig_putf(buf, cap, &len, "]");
            if (played) {
                json_step_play(buf, cap, &len, &run, tr);
                fig_lesson_start(&run, l, k + 1, NULL, NULL);
            }
            fig_putf(buf, cap, &len, "}");
        }
        fig_putf(buf, cap, &len, "]}");
    }
    fig_putf(buf, cap, &len, "\n], \"first_game\": {\"players\": %d, \"level\": \"%s\", "
             "\"hints\": true}}\n", FIG_LESSON_GAME_PLAYERS, FIG_LESSON_GAME_LEVEL);
    return len;
}

size_t fig_lessons_json(const fig_lessons_t *ls, const fig_tr_t *tr, char *buf, size_t cap)
{
    return lessons_json(ls, tr, false, buf, cap);
}

size_t fig_lessons_json_played(const fig_lessons_t *ls, const fig_tr_t *tr, char *buf, size_t cap)
{
    return lessons_json(ls, tr, true, buf, cap);
}

/* ---- playing */

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
    return accepted(s, &run->game.state, acc) ? acc[0] : FIG_ACT_NONE;
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
    int n = accepted(s, &run->game.state, acc);
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

/* ---- progress */

fig_err_t fig_lesson_progress_read(fig_lesson_progress_t *p, const fig_lessons_t *ls,
                                   const char *dir, const fig_tr_t *tr, fig_msg_t *msg)
{
    memset(p, 0, sizeof *p);
    p->at_lesson = -1;
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/lessons", dir) >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the path is too long");
    if (access(path, F_OK) != 0 && errno == ENOENT)
        return FIG_OK;
    char *data;
    size_t len;
    fig_err_t rc = fig_read_file(path, 1 << 16, &data, &len, tr, msg);
    if (rc)
        return rc;
    fig_lesson_progress_t got;
    memset(&got, 0, sizeof got);
    got.at_lesson = -1;
    int line = 0;
    for (char *q = data, *nl; q < data + len; q = nl + 1) {
        nl = memchr(q, '\n', (size_t)(data + len - q));
        if (!nl)
            nl = data + len;
        *nl = '\0';
        line++;
        char what[8], id[FIG_LESSON_ID_MAX + 8];
        int step = 0, k = sscanf(q, "%7s %31s %d", what, id, &step);
        if (k <= 0 || q[0] == '#')
            continue;
        int i = k >= 2 ? fig_lessons_find(ls, id) : -1;
        if (k == 2 && strcmp(what, "done") == 0) {
            if (i >= 0)
                got.done[i] = true;
        } else if (k == 3 && strcmp(what, "at") == 0 && step >= 0) {
            if (i >= 0 && step < ls->lesson[i].nsteps) {
                got.at_lesson = i;
                got.at_step = step;
            }
        } else {
            free(data);
            return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("%s: line %d is damaged"), path, line);
        }
    }
    free(data);
    *p = got;
    return FIG_OK;
}

fig_err_t fig_lesson_progress_write(const fig_lesson_progress_t *p, const fig_lessons_t *ls,
                                    const char *dir, const fig_tr_t *tr, fig_msg_t *msg)
{
    char path[4096], tmp[4200], err[128];
    if ((size_t)snprintf(path, sizeof path, "%s/lessons", dir) >= sizeof path)
        return fig_fail(msg, FIG_ERR_INPUT, "the path is too long");
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    /* The folder and its parents, as the store makes them. */
    char d[4096];
    snprintf(d, sizeof d, "%s", dir);
    for (char *q = d + 1; *q; q++)
        if (*q == '/') {
            *q = '\0';
            mkdir(d, 0700);
            *q = '/';
        }
    if (mkdir(d, 0700) != 0 && errno != EEXIST)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("cannot create the folder %s: %s"), d,
                           fig_strerror(errno, err, sizeof err));
    char text[FIG_LESSONS_MAX * (FIG_LESSON_ID_MAX + 16) + 128];
    size_t len = 0;
    fig_putf(text, sizeof text, &len, "# figaro learn: the lessons done, and where one was left\n");
    for (int i = 0; i < ls->n; i++)
        if (p->done[i])
            fig_putf(text, sizeof text, &len, "done %s\n", ls->lesson[i].id);
    if (p->at_lesson >= 0 && p->at_lesson < ls->n)
        fig_putf(text, sizeof text, &len, "at %s %d\n", ls->lesson[p->at_lesson].id, p->at_step);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                           fig_strerror(errno, err, sizeof err));
    size_t done = 0;
    int e = 0;
    while (done < len && !e) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            e = w < 0 ? errno : ENOSPC;
        else
            done += (size_t)w;
    }
    if (close(fd) != 0 && !e)
        e = errno;
    if (!e && rename(tmp, path) != 0)
        e = errno;
    if (e) {
        unlink(tmp);
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("cannot write %s: %s"), path,
                           fig_strerror(e, err, sizeof err));
    }
    return FIG_OK;
}

int fig_lesson_progress_next(const fig_lesson_progress_t *p, const fig_lessons_t *ls)
{
    if (p->at_lesson >= 0 && p->at_lesson < ls->n)
        return p->at_lesson;
    for (int i = 0; i < ls->n; i++)
        if (!p->done[i])
            return i;
    return -1;
}
