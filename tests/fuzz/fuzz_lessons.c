/* SPDX-License-Identifier: MIT */
/* fuzz_lessons.c - libFuzzer target for the lessons' steps files
 * (fig_lessons_parse in host/lesson_steps.h).
 *
 * An input is a steps file, optionally followed by a line "===" and an FGN
 * record that every position of the file then reads (so the fuzzer mutates
 * both the script and the position it is checked against). Beyond "no
 * crash": a rejected file names a line inside the input; an accepted one is
 * played through, every lesson from its start with the moves it asks for,
 * and each step must accept its own answer (the reader checked the script
 * against the rules); its JSON must fit what its length says. Seeded from
 * tests/fuzz/corpus-lessons/ (lessons/ with a position). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/lesson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    const char *fgn;
    size_t len;
} pos_t;

static fig_err_t load(void *ctx, const char *name, fig_game_t *out, fig_msg_t *msg)
{
    const pos_t *p = ctx;
    (void)name;
    if (!p->fgn)
        return fig_fail(msg, FIG_ERR_INPUT, "no position");
    return fig_fgn_read(out, p->fgn, p->len, msg);
}

static const char *card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return fig_card_code_in(NULL, kind, buf, cap);
}

static void say(void *ctx, int about, const char *sentence)
{
    (void)ctx;
    (void)about;
    if (!sentence[0])
        abort();
}

static void told(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                 const fig_view_t *after)
{
    fig_narrate_step(ctx, step, before, after);
}

static char json[1 << 18];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t steps = size;
    pos_t pos = { NULL, 0 };
    for (size_t i = 0; i + 5 <= size; i++)
        if (memcmp(text + i, "\n===\n", 5) == 0) {
            steps = i + 1;
            pos.fgn = text + i + 5;
            pos.len = size - i - 5;
            break;
        }
    int lines = 1;
    for (size_t i = 0; i < steps; i++)
        lines += text[i] == '\n';
    fig_lessons_t *ls = NULL;
    fig_msg_t msg = { "", 0 };
    if (fig_lessons_parse(&ls, text, steps, load, &pos, &msg) != FIG_OK) {
        if (ls || !msg.text[0] || msg.line < 0 || msg.line > lines)
            abort();
        return 0;
    }
    for (int i = 0; i < fig_lessons_count(ls); i++) {
        const fig_lesson_t *l = fig_lessons_get(ls, i);
        static const char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1] = { "a", "b", "c", "d",
                                                                       "e", "f" };
        fig_narrator_t nr;
        fig_narrate_init(&nr, l->start.setup.players, l->you, names, NULL, card, say, NULL);
        fig_lesson_run_t run;
        fig_lesson_start(&run, l, 0, NULL, NULL);
        char why[600];
        while (!fig_lesson_done(&run))
            if (fig_lesson_try(&run, fig_lesson_answer(&run), &nr, told, &nr, why, sizeof why)
                != FIG_LESSON_PASSED)
                abort();   /* the reader let through a script that does not play */
    }
    size_t need = fig_lessons_json(ls, NULL, json, sizeof json);
    if (need < sizeof json && strlen(json) != need)
        abort();
    need = fig_lessons_json_played(ls, NULL, json, sizeof json);
    if (need < sizeof json && strlen(json) != need)
        abort();
    fig_lessons_free(ls);
    return 0;
}
