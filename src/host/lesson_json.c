/* SPDX-License-Identifier: MIT */
/* lesson_json.c - the lessons as JSON (lesson_json.h; the format is
 * docs/lessons.md).
 *
 * Every text goes out in the reader's language; a lesson played out for the
 * page is played here by the engine, through the same run the terminal plays
 * (lesson_run.h), and shows the learner's view only (R14). */
#include <stdio.h>
#include <stdlib.h>

#include "host/lesson_json.h"
#include "host/lesson_run.h"
#include "host/util.h"

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
            int kind = i < 3 ? (p->colour < FIG_COLOURS ? p->colour * 3 + i : -1)
                             : FIG_J1 + (i - 3);
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
 * of the move and its answers and the view after them, "hint" (legal, not
 * this step's), or "refused" with the engine's reason in the learner's words
 * (fig_lesson_try, as in the terminal). */
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
            fig_lesson_verdict_t r =
                fig_lesson_try(&probe, a, &t.nr, told_step, &t, why, sizeof why);
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
    for (int i = 0; i < fig_lessons_count(ls); i++) {
        const fig_lesson_t *l = fig_lessons_get(ls, i);
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
