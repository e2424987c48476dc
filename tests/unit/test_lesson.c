/* SPDX-License-Identifier: MIT */
/* test_lesson.c - the lessons (src/host/lesson.h): the steps file's reader and
 * its checks, the lessons of lessons/ played through, refusals in the
 * learner's words, progress on disk, the JSON.
 *
 *   - the real lessons load, and each is played from its start with the
 *     moves it asks for (fig_lesson_answer) to its end; each step refuses
 *     an illegal move with a reason that names the seats, and answers a
 *     legal move it does not teach with its hint, changing nothing;
 *   - "Rosina already has blue" in English and French (the test build's
 *     catalogues);
 *   - a lesson left at a step resumes there, with the same position;
 *   - bad steps files: each error names its line and what is wrong, and a
 *     script whose move the rules refuse is refused when it loads;
 *   - progress written, read back, damaged; the JSON holds every lesson. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/catalog.h"
#include "host/lesson.h"

static const char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1] = { "You", "Rosina", "Bartolo",
                                                               "Basilio" };

static const char *card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return fig_card_code_in(NULL, kind, buf, cap);
}

static void say(void *ctx, int about, const char *sentence)
{
    (void)about;
    int *n = ctx;
    if (n)
        (*n)++;
    assert_true(strlen(sentence) > 0);
}

typedef struct {
    fig_narrator_t nr;
    int told;
} teller_t;

static void told(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                 const fig_view_t *after)
{
    teller_t *t = ctx;
    fig_narrate_step(&t->nr, step, before, after);
}

static fig_lessons_t *load_real(void)
{
    fig_lessons_t *ls = NULL;
    fig_msg_t msg;
    if (fig_lessons_load(&ls, "lessons", NULL, &msg) != FIG_OK)
        fail_msg("lessons: %s", msg.text);
    return ls;
}

/* An illegal move of the learner at the current step, if there is one. */
static bool find_illegal(const fig_lesson_run_t *run, fig_action_t *out)
{
    fig_view_t v;
    fig_lesson_view(run, &v);
    for (int k = 0; k < FIG_KINDS; k++)
        for (int t = 0; t < v.players; t++) {
            fig_action_t a = fig_act_play(k, t);
            if (v.hand.n[k] && fig_narrate_check(&v, a, NULL, NULL) != FIG_OK) {
                *out = a;
                return true;
            }
        }
    if (!v.table_cards) {
        *out = FIG_ACT_TAKE;
        return true;
    }
    return false;
}

static void test_every_lesson_played_through(void **state)
{
    (void)state;
    fig_lessons_t *ls = load_real();
    assert_true(fig_lessons_count(ls) >= 8);
    int refused = 0, hinted = 0;
    for (int i = 0; i < fig_lessons_count(ls); i++) {
        const fig_lesson_t *l = fig_lessons_get(ls, i);
        teller_t t = { .told = 0 };
        fig_narrate_init(&t.nr, l->start.setup.players, l->you, names, NULL, card, say, &t.told);
        fig_lesson_run_t run;
        fig_lesson_start(&run, l, 0, NULL, NULL);
        while (!fig_lesson_done(&run)) {
            char why[600];
            fig_action_t bad;
            int step = run.step;
            if (find_illegal(&run, &bad)) {
                fig_game_t before = run.game;
                assert_int_equal(fig_lesson_try(&run, bad, &t.nr, told, &t, why, sizeof why),
                                 FIG_LESSON_REFUSED);
                assert_true(strlen(why) > 10);
                assert_int_equal(run.step, step);
                assert_memory_equal(&before, &run.game, sizeof before);
                refused++;
            }
            /* A legal move the step does not ask for gets the hint. */
            fig_view_t v;
            fig_lesson_view(&run, &v);
            fig_action_t legal[FIG_MAX_ACTIONS];
            int n = fig_view_legal(&v, legal);
            const fig_lesson_step_t *s = fig_lesson_step(&run);
            for (int k = 0; k < n && s->accept == FIG_ACCEPT_MOVES; k++) {
                bool asked = false;
                for (int m = 0; m < s->naccept; m++)
                    asked |= s->moves[m] == legal[k];
                if (asked)
                    continue;
                assert_int_equal(fig_lesson_try(&run, legal[k], &t.nr, told, &t, why,
                                                sizeof why), FIG_LESSON_NOT_ASKED);
                assert_string_equal(why, s->hint ? s->hint : s->task);
                hinted++;
                break;
            }
            int before_told = t.told;
            assert_int_equal(fig_lesson_try(&run, fig_lesson_answer(&run), &t.nr, told, &t, why,
                                            sizeof why), FIG_LESSON_PASSED);
            assert_int_equal(run.step, step + 1);
            assert_true(t.told > before_told);   /* the move, at least, was told */
        }
        assert_null(fig_lesson_step(&run));
        assert_int_equal(fig_lesson_answer(&run), FIG_ACT_NONE);
    }
    assert_true(refused >= 8);
    assert_true(hinted >= 6);
    fig_lessons_free(ls);
}

/* The reason names the seat that has the colour, in the learner's language. */
static void test_refusal_names_the_owner(void **state)
{
    (void)state;
    fig_lessons_t *ls = load_real();
    const fig_lesson_t *l = fig_lessons_get(ls, fig_lessons_find(ls, "colours"));
    assert_non_null(l);
    fig_lesson_run_t run;
    fig_lesson_start(&run, l, 0, NULL, NULL);
    fig_narrator_t nr;
    fig_narrate_init(&nr, 4, 0, names, NULL, card, say, NULL);
    char why[600];
    assert_int_equal(fig_lesson_try(&run, fig_act_play(FIG_B2, 3), &nr, NULL, NULL, why,
                                    sizeof why), FIG_LESSON_REFUSED);
    assert_string_equal(why, "B2 cannot go in front of Basilio: Rosina already has blue.");
    assert_int_equal(fig_lesson_try(&run, fig_act_play(FIG_B2, 2), &nr, NULL, NULL, why,
                                    sizeof why), FIG_LESSON_REFUSED);
    assert_string_equal(why, "B2 cannot go in front of Bartolo: that pile is green.");

    char dir[4096];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 16);
    assert_true(n > 0);
    dir[n] = '\0';
    strcpy(strrchr(dir, '/'), "/locale");
    fig_catalog_t *fr = NULL;
    fig_msg_t msg;
    if (fig_catalog_open(&fr, dir, "fr", &msg) != FIG_OK)
        fail_msg("fr: %s", msg.text);
    fig_narrate_init(&nr, 4, 0, names, fig_catalog_tr(fr), card, say, NULL);
    assert_int_equal(fig_lesson_try(&run, fig_act_play(FIG_B2, 0), &nr, NULL, NULL, why,
                                    sizeof why), FIG_LESSON_REFUSED);
    assert_string_equal(why, "B2 ne peut pas aller devant vous : Rosina a déjà le bleu.");
    /* The step's hint, translated. */
    assert_int_equal(fig_lesson_try(&run, fig_act_play(FIG_R2, 0), &nr, NULL, NULL, why,
                                    sizeof why), FIG_LESSON_NOT_ASKED);
    assert_non_null(strstr(why, "Rosina"));
    assert_null(strstr(why, "This step"));
    fig_catalog_free(fr);
    fig_lessons_free(ls);
}

static void test_resume_at_a_step(void **state)
{
    (void)state;
    fig_lessons_t *ls = load_real();
    const fig_lesson_t *l = fig_lessons_get(ls, 1);   /* colours: two steps */
    assert_true(l->nsteps >= 2);
    fig_lesson_run_t a, b;
    fig_lesson_start(&a, l, 0, NULL, NULL);
    fig_narrator_t nr;
    fig_narrate_init(&nr, 4, 0, names, NULL, card, say, NULL);
    char why[600];
    assert_int_equal(fig_lesson_try(&a, fig_lesson_answer(&a), &nr, NULL, NULL, why, sizeof why),
                     FIG_LESSON_PASSED);
    fig_lesson_start(&b, l, 1, NULL, NULL);
    assert_int_equal(b.step, 1);
    assert_memory_equal(&a.game, &b.game, sizeof a.game);
    fig_lesson_start(&b, l, 99, NULL, NULL);   /* past the end: the lesson is over */
    assert_true(fig_lesson_done(&b));
    fig_lessons_free(ls);
}

/* ---- the reader's errors */

static const char *const position =
    "figaro 1\nplayers 4\nnames You Rosina Bartolo Basilio\nroads 15 14 13 / 12 11 10 / 9 8 7\n"
    "king 1\nround 1\n"
    "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 B1 B1 B1 B2 B2\n"
    "hand 1 B2 B2 B2 B2 B3 G1 G1 G1 G2 G2 G2 G2 G2 G2 G3\n"
    "hand 2 Y1 Y1 Y1 Y2 Y2 Y2 Y2 Y2 Y2 Y3 P1 P1 P1 P2 P2\n"
    "hand 3 P2 P2 P2 P2 P3 J1 J1 J1 J2 J2 RING RING RING RING RING\n"
    "1 B2>1\n2 Y1>2\n3 J1>3\n";

static fig_err_t load_one(void *ctx, const char *name, fig_game_t *out, fig_msg_t *msg)
{
    (void)ctx;
    if (strcmp(name, "p.fgn") != 0)
        return fig_fail(msg, FIG_ERR_INPUT, "no such position");
    return fig_fgn_read(out, position, strlen(position), msg);
}

static fig_err_t parse_text(const char *text, fig_lessons_t **ls, fig_msg_t *msg)
{
    return fig_lessons_parse(ls, text, strlen(text), load_one, NULL, msg);
}

static void test_a_small_file_reads(void **state)
{
    (void)state;
    const char *text =
        "figaro-lessons 1\n"
        "lesson one _(\"One\")   # a comment\n"
        "position p.fgn\n"
        "tell _(\"Long \"\n"
        "       \"text \\\"quoted\\\"\")\n"
        "step\n"
        "task _(\"Play red\")\n"
        "do R1>0 R2>0\n"
        "then 1 B2>1\n"
        "then 2 Y1>2\n"
        "then 3 J1>3\n"
        "step\n"
        "task _(\"Anything\")\n"
        "do any\n";
    fig_lessons_t *ls;
    fig_msg_t msg;
    if (parse_text(text, &ls, &msg) != FIG_OK)
        fail_msg("%s", msg.text);
    const fig_lesson_t *l = fig_lessons_get(ls, 0);
    assert_string_equal(l->title, "One");
    assert_string_equal(l->tell[0], "Long text \"quoted\"");
    assert_int_equal(l->step[0].naccept, 2);
    assert_int_equal(l->step[0].nthen, 3);
    assert_int_equal(l->step[1].accept, FIG_ACCEPT_ANY);
    char json[8192];
    size_t n = fig_lessons_json(ls, NULL, json, sizeof json);
    assert_true(n < sizeof json);
    assert_non_null(strstr(json, "\"id\": \"one\""));
    assert_non_null(strstr(json, "Long text \\\"quoted\\\""));
    assert_non_null(strstr(json, "\"moves\": [\"R1>0\", \"R2>0\"]"));
    assert_non_null(strstr(json, "\"first_game\": {\"players\": 4, \"level\": \"beginner\""));
    /* Played out: no position (every hand), each step's view and answers. */
    static char played[1 << 17];
    n = fig_lessons_json_played(ls, NULL, played, sizeof played);
    assert_true(n < sizeof played);
    assert_true(strlen(played) == n);
    assert_null(strstr(played, "position"));
    assert_null(strstr(played, "\nhand "));
    assert_non_null(strstr(played, "\"view\": {\"players\": 4"));
    assert_non_null(strstr(played, "\"answer\": \"R1>0\""));
    assert_non_null(strstr(played, "\"R1>0\": {\"verdict\": \"ok\", \"told\": [\""));
    assert_non_null(strstr(played, "{\"verdict\": \"refused\", \"why\": \""));
    /* Truncated, it says the length it needs and stays a string. */
    char small[64];
    assert_true(fig_lessons_json_played(ls, NULL, small, sizeof small) == n);
    assert_true(strlen(small) < sizeof small);
    fig_lessons_free(ls);
}

static void test_bad_files_say_where(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
        int line;
    } bad[] = {
        { "", "the first line must be 'figaro-lessons 1'", 1 },
        { "figaro-lessons 2\n", "version '2' is not known", 1 },
        { "figaro-lessons 1\n", "no lesson", 1 },
        { "figaro-lessons 1\nstep\n", "'step' before the first 'lesson'", 2 },
        { "figaro-lessons 1\nlesson A _(\"x\")\n", "a lesson's id is", 2 },
        { "figaro-lessons 1\nlesson a x\n", "a text is written", 2 },
        { "figaro-lessons 1\nlesson a _(\"x\"\n", "has no ')'", 2 },
        { "figaro-lessons 1\nlesson a _(\"x)\n", "no closing '\"'", 2 },
        { "figaro-lessons 1\nlesson a _(\"\\q\")\n", "unknown escape", 2 },
        { "figaro-lessons 1\nlesson a _(\"\")\n", "a text is empty", 2 },
        { "figaro-lessons 1\nlesson a _(\"x\")\n", "has no 'position'", 2 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition ../p.fgn\n", "a position is a file", 3 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\n", "has no step", 2 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition q.fgn\nstep\ntask _(\"t\")\ndo R1>0\n",
          "position q.fgn: no such position", 2 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ndo R1>0\n",
          "has no 'task'", 4 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ntask _(\"t\")\n",
          "has no 'do'", 4 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ndo R9>0\n",
          "'R9>0' is not a move", 5 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ntask _(\"t\")\ndo B1>3\n",
          "seat 0 cannot play B1 in front of seat 3: seat 1 already has blue", 4 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ntask _(\"t\")\ndo R1>0\n"
          "then 2 P1>2\n", "after R1>0, it is not seat 2's turn", 4 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ntask _(\"t\")\ndo R1>0\n"
          "then 1 B2>0\n", "after R1>0: seat 1 cannot play B2 in front of seat 0", 4 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nyou 1\nstep\ntask _(\"t\")\n"
          "do R1>0\n", "must end with seat 1 to play", 2 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ntask _(\"t\")\ndo R1>0\n"
          "step\ntask _(\"u\")\ndo R1>0\n", "step 2: seat 0 is not the one to play", 7 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nfrobnicate\n", "'frobnicate' is not a word", 3 },
        { "figaro-lessons 1\nlesson a _(\"x\")\nlesson a _(\"y\")\n", "has no 'position'", 2 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fig_lessons_t *ls = (fig_lessons_t *)&ls;
        fig_msg_t msg = { "", 0 };
        fig_err_t rc = parse_text(bad[i].text, &ls, &msg);
        if (rc == FIG_OK || !strstr(msg.text, bad[i].want) || msg.line != bad[i].line)
            fail_msg("case %zu: got rc %d, line %d, '%s'; want line %d, '%s'", i, rc, msg.line,
                     msg.text, bad[i].line, bad[i].want);
        assert_null(ls);
    }
    /* NUL bytes, and no loader. */
    fig_lessons_t *ls;
    fig_msg_t msg;
    assert_int_equal(fig_lessons_parse(&ls, "figaro-lessons 1\n\0", 18, load_one, NULL, &msg),
                     FIG_ERR_INPUT);
    const char *ok = "figaro-lessons 1\nlesson a _(\"x\")\nposition p.fgn\nstep\ntask _(\"t\")\n"
                     "do R1>0\n";
    assert_int_equal(fig_lessons_parse(&ls, ok, strlen(ok), NULL, NULL, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "no positions given"));
}

/* ---- progress */

static void test_progress_on_disk(void **state)
{
    (void)state;
    fig_lessons_t *ls = load_real();
    char dir[] = "/tmp/figaro-test-lesson-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[128];
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    fig_lesson_progress_t p, q;
    fig_msg_t msg;
    assert_int_equal(fig_lesson_progress_read(&p, ls, sub, NULL, &msg), FIG_OK);   /* none yet */
    assert_int_equal(p.at_lesson, -1);
    assert_int_equal(fig_lesson_progress_next(&p, ls), 0);
    p.done[0] = p.done[1] = true;
    p.at_lesson = 3;
    p.at_step = 0;
    if (fig_lesson_progress_write(&p, ls, sub, NULL, &msg) != FIG_OK)
        fail_msg("%s", msg.text);
    assert_int_equal(fig_lesson_progress_read(&q, ls, sub, NULL, &msg), FIG_OK);
    assert_true(q.done[0] && q.done[1] && !q.done[2]);
    assert_int_equal(q.at_lesson, 3);
    assert_int_equal(fig_lesson_progress_next(&q, ls), 3);
    q.at_lesson = -1;
    assert_int_equal(fig_lesson_progress_next(&q, ls), 2);
    for (int i = 0; i < fig_lessons_count(ls); i++)
        q.done[i] = true;
    assert_int_equal(fig_lesson_progress_next(&q, ls), -1);

    /* Unknown lessons and steps past the end are forgotten; junk is an error. */
    char path[160];
    snprintf(path, sizeof path, "%s/lessons", sub);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("# comment\ndone nosuch\ndone rings\nat turn 99\n", f);
    fclose(f);
    assert_int_equal(fig_lesson_progress_read(&q, ls, sub, NULL, &msg), FIG_OK);
    assert_true(q.done[fig_lessons_find(ls, "rings")]);
    assert_int_equal(q.at_lesson, -1);
    f = fopen(path, "w");
    fputs("done turn\nhello world\n", f);
    fclose(f);
    assert_int_equal(fig_lesson_progress_read(&q, ls, sub, NULL, &msg), FIG_ERR_INPUT);
    assert_non_null(strstr(msg.text, "line 2 is damaged"));
    assert_int_equal(q.at_lesson, -1);
    assert_false(q.done[0]);
    unlink(path);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/a", dir);
    rmdir(sub);
    rmdir(dir);
    fig_lessons_free(ls);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_lesson_played_through),
        cmocka_unit_test(test_refusal_names_the_owner),
        cmocka_unit_test(test_resume_at_a_step),
        cmocka_unit_test(test_a_small_file_reads),
        cmocka_unit_test(test_bad_files_say_where),
        cmocka_unit_test(test_progress_on_disk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
