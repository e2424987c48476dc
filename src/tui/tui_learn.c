/* SPDX-License-Identifier: MIT */
/* tui_learn.c - `figaro learn` full screen: the lessons of host/lesson.h on
 * one 80x24 screen.
 *
 * From the top: the lesson's title, what the step says and asks (the task
 * last, in bold), the table (each seat's pile), the learner's hand with the
 * key that picks each card, what the last move made happen, the answer to
 * the last key (a refusal with its reason, a hint, the step's closing text)
 * and the keys. A card is played as in the game: its key, then the seat's
 * number (a ring goes at once: always in front of oneself). At a lesson's
 * end a screen says how it ended; the next key goes on. Progress is written
 * at every step (lesson.h), in the folder the command gives. Everything
 * shown comes from the learner's view (R14). */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/lesson.h"
#include "host/rules_text.h"
#include "tui/tui.h"

enum { HAPPENED_MAX = 24, TEXT_TOP = 1, TEXT_LINES = 7, TABLE_TOP = 9 };

typedef struct {
    tui_t look;                 /* only what tui_draw_card reads: colour, utf8 */
    const fig_lessons_t *ls;
    const char *dir;            /* progress, or NULL */
    fig_lesson_progress_t prog;
    const fig_tr_t *tr;
    fig_narrator_t nr;
    fig_lesson_run_t run;
    int lesson;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    int slot_kind[FIG_KINDS], nslots;
    int picked;                 /* the slot picked, waiting for a seat; -1 none */
    char status[700];
    bool warn;
    char happened[HAPPENED_MAX][400];
    int nhappened;
} learn_t;

static void say(void *ctx, int about, const char *sentence)
{
    learn_t *l = ctx;
    (void)about;
    if (l->nhappened == HAPPENED_MAX) {
        memmove(l->happened[0], l->happened[1], sizeof l->happened[0] * (HAPPENED_MAX - 1));
        l->nhappened--;
    }
    snprintf(l->happened[l->nhappened++], sizeof l->happened[0], "%s", sentence);
}

static const char *card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return tui_card(kind, buf, cap);
}

static void told(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                 const fig_view_t *after)
{
    learn_t *l = ctx;
    fig_narrate_step(&l->nr, step, before, after);
}

static void save(learn_t *l)
{
    fig_msg_t msg;
    if (l->dir && fig_lesson_progress_write(&l->prog, l->ls, l->dir, l->tr, &msg) != FIG_OK) {
        snprintf(l->status, sizeof l->status, "%s", msg.text);
        l->warn = true;
    }
}

static void hand_slots(learn_t *l)
{
    fig_view_t v;
    fig_lesson_view(&l->run, &v);
    l->nslots = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        if (v.hand.n[k])
            l->slot_kind[l->nslots++] = k;
}

/* Paragraphs wrapped into the text area; when they do not fit, the first
 * lines go (the task, last, always shows). */
static void draw_text(const learn_t *l, int cols)
{
    const fig_lesson_t *ls = l->run.lesson;
    const fig_lesson_step_t *s = fig_lesson_step(&l->run);
    const char *paras[2 * FIG_LESSON_TELL_MAX + 1];
    int np = 0;
    if (l->run.step == 0)
        for (int i = 0; i < ls->ntell; i++)
            paras[np++] = fig_tr_text(l->tr, ls->tell[i]);
    for (int i = 0; s && i < s->ntell; i++)
        paras[np++] = fig_tr_text(l->tr, s->tell[i]);
    int task = np;
    if (s)
        paras[np++] = fig_tr_text(l->tr, s->task);
    char *lines[64];
    int bold[64], n = 0;
    for (int p = 0; p < np; p++) {
        int count;
        char **w = tui_wrap(paras[p], cols - 2, &count);
        for (int i = 0; i < count; i++) {
            if (n == 64) {
                free(w[i]);
                continue;
            }
            bold[n] = p == task;
            lines[n++] = w[i];
        }
        free(w);
    }
    int first = n > TEXT_LINES ? n - TEXT_LINES : 0;
    for (int i = first; i < n; i++)
        tui_put(TEXT_TOP + i - first, 1, cols - 2, bold[i] ? A_BOLD : 0, lines[i]);
    for (int i = 0; i < n; i++)
        free(lines[i]);
}

static void draw_table(learn_t *l, const fig_view_t *v, int cols)
{
    for (int s = 0; s < v->players; s++) {
        int y = TABLE_TOP + s;
        bool target = l->picked >= 0;
        char label[64];
        snprintf(label, sizeof label, "%d %s", s,
                 s == v->seat ? _("you") : l->names[s]);
        int x = 2;
        tui_put(y, x, 18, target ? A_BOLD : 0, label);
        x = 20;
        const fig_pile_t *p = &v->pile[s];
        if (!p->cards) {
            tui_put(y, x, 20, 0, _("pile empty"));
            continue;
        }
        int kinds[FIG_DECK_MAX], k = 0;
        for (int val = 0; val < 3; val++)
            for (int i = 0; i < p->n[val]; i++)
                kinds[k++] = p->colour * 3 + val;
        for (int i = 0; i < p->n[3]; i++)
            kinds[k++] = FIG_J1;
        for (int i = 0; i < p->n[4]; i++)
            kinds[k++] = FIG_J2;
        for (int i = 0; i < p->n[5]; i++)
            kinds[k++] = FIG_RING;
        for (int i = 0; i < k && x < cols - 16; i++)
            x += tui_draw_card(&l->look, y, x, kinds[i], 0);
        char total[48];
        snprintf(total, sizeof total, _("total %d"), p->total);
        tui_put(y, x + 2, cols - x - 3, 0, total);
    }
}

/* The hand under its label, each kind once with its key under it (and how
 * many, "x2"), on a second row when the first is full. Returns the line after
 * it. */
static int draw_hand(learn_t *l, const fig_view_t *v, int y, int cols)
{
    tui_put(y, 1, cols - 2, A_BOLD, _("Your hand:"));
    y++;
    int x = 1;
    for (int i = 0; i < l->nslots; i++) {
        int k = l->slot_kind[i];
        char code[16], key[8];
        int w = tui_width(tui_card(k, code, sizeof code));
        if (v->hand.n[k] > 1)
            snprintf(key, sizeof key, "%c x%d", tui_slot_key(i), v->hand.n[k]);
        else
            snprintf(key, sizeof key, "%c", tui_slot_key(i));
        int step = (w > tui_width(key) + 1 ? w : tui_width(key) + 1) + 1;
        if (x + step > cols - 1) {
            x = 1;
            y += 2;
        }
        tui_draw_card(&l->look, y, x, k, i == l->picked ? A_REVERSE : 0);
        tui_put(y + 1, x + 1, step, A_DIM, key);
        x += step;
    }
    return y + 2;
}

static void draw(learn_t *l)
{
    erase();
    int lines, cols;
    getmaxyx(stdscr, lines, cols);
    if (tui_too_small()) {
        char msg[400];
        snprintf(msg, sizeof msg,
                 _("This terminal is %d columns by %d lines. The lessons need at least %d by %d: "
                   "please make the window larger, or use figaro learn --plain. (q quits)"),
                 COLS, LINES, TUI_MIN_COLS, TUI_MIN_LINES);
        tui_draw_notice(msg);
        refresh();
        return;
    }
    const fig_lesson_t *ls = l->run.lesson;
    char title[300];
    snprintf(title, sizeof title, _("Lesson %d of %d: %s\n"), l->lesson + 1,
             fig_lessons_count(l->ls), fig_tr_text(l->tr, ls->title));
    title[strcspn(title, "\n")] = '\0';
    attron(l->look.colour ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE);
    mvhline(0, 0, ' ', cols);
    attroff(l->look.colour ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE);
    tui_put(0, 1, cols - 2, (l->look.colour ? COLOR_PAIR(PAIR_TITLE) : A_REVERSE) | A_BOLD,
            title);
    draw_text(l, cols);
    fig_view_t v;
    fig_lesson_view(&l->run, &v);
    draw_table(l, &v, cols);
    int below = draw_hand(l, &v, TABLE_TOP + v.players + 1, cols);
    /* What the last move made happen: its last lines. */
    int room = lines - 3 - below;
    int first = l->nhappened > room ? l->nhappened - room : 0;
    for (int i = first; i < l->nhappened; i++)
        tui_put(below + i - first, 2, cols - 3, 0, l->happened[i]);
    if (l->status[0]) {
        int count;
        char **w = tui_wrap(l->status, cols - 2, &count);
        for (int i = 0; i < count && i < 2; i++)
            tui_put(lines - 3 + i, 1, cols - 2,
                    l->warn ? (l->look.colour ? COLOR_PAIR(PAIR_WARN) : 0) | A_BOLD : A_BOLD,
                    w[i]);
        tui_free_lines(w, count);
    }
    const char *keys = l->picked >= 0
        ? _(" 0-5 the seat in front of whom to play it   Esc another card")
        : _(" 1-9 a-i a card   t take   h hint   r again   s skip   q quit");
    tui_put(lines - 1, 0, cols, A_REVERSE, keys);
    refresh();
}

/* A screen that waits for a key: the end of a lesson (how it ended, its
 * closing text). Returns the key. */
static int end_screen(learn_t *l)
{
    const fig_lesson_t *ls = l->run.lesson;
    int key;
    do {
        erase();
        int lines, cols;
        getmaxyx(stdscr, lines, cols);
        char title[300];
        snprintf(title, sizeof title, _("Lesson %d of %d: %s\n"), l->lesson + 1,
                 fig_lessons_count(l->ls), fig_tr_text(l->tr, ls->title));
        title[strcspn(title, "\n")] = '\0';
        tui_put(0, 1, cols - 2, A_BOLD, title);
        /* The closing texts at the bottom; above them what the last move made
         * happen, its last lines when not all fit (the end of a game: the
         * ranking matters most). */
        const char *parts[2] = { l->status, ls->end ? fig_tr_text(l->tr, ls->end) : "" };
        char **pw[2];
        int pn[2], used = 0;
        for (int p = 0; p < 2; p++) {
            pw[p] = tui_wrap(parts[p], cols - 2, &pn[p]);
            used += pn[p];
        }
        char *told_lines[128];
        int nt = 0;
        for (int i = 0; i < l->nhappened; i++) {
            int count;
            char **w = tui_wrap(l->happened[i], cols - 4, &count);
            for (int k = 0; k < count; k++) {
                if (nt < 128)
                    told_lines[nt++] = w[k];
                else
                    free(w[k]);
            }
            free(w);
        }
        int room = lines - 3 - used - 2;   /* title, a blank, the texts, a blank, the keys */
        int first = nt > room ? nt - room : 0;
        int y = 2;
        for (int i = first; i < nt; i++)
            tui_put(y++, 2, cols - 4, 0, told_lines[i]);
        for (int i = 0; i < nt; i++)
            free(told_lines[i]);
        y++;
        for (int p = 0; p < 2; p++) {
            for (int k = 0; k < pn[p] && y < lines - 1; k++)
                tui_put(y++, 1, cols - 2, A_BOLD, pw[p][k]);
            tui_free_lines(pw[p], pn[p]);
        }
        tui_put(lines - 1, 0, cols, A_REVERSE,
                _(" Enter: go on   r: this lesson again   q: quit"));
        refresh();
        key = getch();
    } while (key == KEY_RESIZE && !tui_interrupted());
    return key;
}

static void start_lesson(learn_t *l, int i, int step)
{
    const fig_lesson_t *ls = fig_lessons_get(l->ls, i);
    l->lesson = i;
    for (int s = 0; s < FIG_MAX_PLAYERS; s++)
        snprintf(l->names[s], sizeof l->names[s], "%s",
                 ls->start.has_names ? ls->start.names[s] : "?");
    fig_narrate_init(&l->nr, ls->start.setup.players, ls->you,
                     (const char (*)[FIG_NAME_MAX + 1])l->names, l->tr, card, say, l);
    fig_lesson_start(&l->run, ls, step, NULL, NULL);
    l->nhappened = 0;
    l->picked = -1;
    l->status[0] = '\0';
    l->warn = false;
    hand_slots(l);
}

enum { GO_STAY, GO_NEXT, GO_AGAIN, GO_SKIP, GO_QUIT };

static int try_move(learn_t *l, fig_action_t a)
{
    char why[600];
    int before = l->nhappened;
    fig_lesson_verdict_t v = fig_lesson_try(&l->run, a, &l->nr, told, l, why, sizeof why);
    l->picked = -1;
    if (v == FIG_LESSON_REFUSED) {
        snprintf(l->status, sizeof l->status, "%s %s", why, _("Try again."));
        l->warn = true;
        return GO_STAY;
    }
    if (v == FIG_LESSON_NOT_ASKED) {
        snprintf(l->status, sizeof l->status, "%s %s", why, _("Try again."));
        l->warn = false;
        return GO_STAY;
    }
    /* Passed: keep only what this move made happen. */
    memmove(l->happened[0], l->happened[before], sizeof l->happened[0] *
            (size_t)(l->nhappened - before));
    l->nhappened -= before;
    snprintf(l->status, sizeof l->status, "%s", why);
    l->warn = false;
    hand_slots(l);
    l->prog.at_lesson = l->lesson;
    l->prog.at_step = l->run.step;
    if (fig_lesson_done(&l->run))
        return GO_NEXT;
    save(l);
    return GO_STAY;
}

static int key(learn_t *l, int ch)
{
    if (l->picked >= 0) {
        if (ch >= '0' && ch < '0' + l->run.game.setup.players)
            return try_move(l, fig_act_play(l->slot_kind[l->picked], ch - '0'));
        if (ch == 27 || ch == KEY_BACKSPACE)
            l->picked = -1;
        else if (ch == 'q')
            return GO_QUIT;
        return GO_STAY;
    }
    switch (ch) {
    case 'q': return GO_QUIT;
    case 's': return GO_SKIP;
    case 'r': return GO_AGAIN;
    case 't': return try_move(l, FIG_ACT_TAKE);
    case 'h':
    case '?': {
        char code[32] = "take";
        fig_action_t a = fig_lesson_answer(&l->run);
        if (!fig_act_is_take(a)) {
            char c[16];
            if (fig_act_kind(a) == FIG_RING)
                snprintf(code, sizeof code, "%s", tui_code(FIG_RING, c, sizeof c));
            else
                snprintf(code, sizeof code, "%s>%d", tui_code(fig_act_kind(a), c, sizeof c),
                         fig_act_target(a));
        }
        snprintf(l->status, sizeof l->status, _("Try %s.\n"), code);
        l->status[strcspn(l->status, "\n")] = '\0';
        l->warn = false;
        return GO_STAY;
    }
    default:
        for (int i = 0; i < l->nslots; i++)
            if (ch == tui_slot_key(i)) {
                if (l->slot_kind[i] == FIG_RING)   /* R7: always in front of oneself */
                    return try_move(l, fig_act_play(FIG_RING, l->run.lesson->you));
                l->picked = i;
                l->status[0] = '\0';
                return GO_STAY;
            }
        return GO_STAY;
    }
}

/* Lesson i from step `step`, until the learner passes it, skips it, asks for
 * it again or leaves: GO_NEXT, GO_SKIP, GO_AGAIN or GO_QUIT (a signal too). */
static int play_lesson(learn_t *l, int i, int step)
{
    start_lesson(l, i, step);
    l->prog.at_lesson = i;
    l->prog.at_step = l->run.step;
    save(l);
    int what = GO_STAY;
    while (what == GO_STAY && !tui_interrupted()) {
        draw(l);
        int ch = getch();
        if (ch == ERR || ch == KEY_RESIZE)
            continue;
        what = key(l, ch);
    }
    return what == GO_STAY ? GO_QUIT : what;
}

/* The lessons from `from` (-1: where the progress says), `one` only or on to
 * the last, the progress saved as they go. Returns whether every lesson is
 * done; *quit whether the learner left (q, or a signal). */
static bool run_lessons(learn_t *l, int from, bool one, bool *quit)
{
    const fig_lessons_t *ls = l->ls;
    int i = from >= 0 ? from : fig_lesson_progress_next(&l->prog, ls);
    int step = i >= 0 && from < 0 && i == l->prog.at_lesson ? l->prog.at_step : 0;
    bool all = i < 0;
    *quit = false;
    while (!*quit && i >= 0 && i < fig_lessons_count(ls) && !tui_interrupted()) {
        int what = play_lesson(l, i, step);
        step = 0;
        if (what == GO_NEXT) {
            l->prog.done[i] = true;
            l->prog.at_lesson = -1;
            save(l);
            int k = end_screen(l);
            if (k == 'q')
                *quit = true;
            else if (k == 'r')
                continue;
            else if (one)
                break;
            else if (++i == fig_lessons_count(ls))
                all = true;
        } else if (what == GO_SKIP) {
            l->prog.at_lesson = -1;
            save(l);
            if (one)
                break;
            i++;
        } else if (what == GO_QUIT) {
            *quit = true;   /* q or a signal: the progress says where */
        }
    }
    return all;
}

/* Every lesson done: "Play a first game now?" Returns true on yes. */
static bool ask_first_game(const fig_tr_t *tr)
{
    int k;
    do {
        int lines, cols;
        erase();
        getmaxyx(stdscr, lines, cols);
        char q[400];
        snprintf(q, sizeof q, _("Play a first game now, against %d bots of level %s? Type "
                                "'hint' during the game for a hint. (y/n) "),
                 FIG_LESSON_GAME_PLAYERS - 1, _(FIG_LESSON_GAME_LEVEL));
        int count;
        char **w = tui_wrap(fig_tr_text(tr, "You know the rules of Figaro. Now play a real "
                                            "game against bots."), cols - 2, &count);
        int y = lines / 2 - 3;
        for (int n = 0; n < count; n++)
            tui_put(y++, 1, cols - 2, A_BOLD, w[n]);
        tui_free_lines(w, count);
        w = tui_wrap(q, cols - 2, &count);
        y++;
        for (int n = 0; n < count; n++)
            tui_put(y++, 1, cols - 2, 0, w[n]);
        tui_free_lines(w, count);
        refresh();
        k = getch();
    } while (k == KEY_RESIZE && !tui_interrupted());
    /* TRANSLATORS: the key that answers yes ('y' works too). */
    const char *yes = _("y");
    return k == 'y' || k == (unsigned char)yes[0];
}

int learn_tui(const fig_lessons_t *ls, int from, bool one, const char *dir,
              const fig_lesson_progress_t *progress, const fig_tr_t *tr, bool *play_after)
{
    *play_after = false;
    learn_t *l = calloc(1, sizeof *l);
    if (!l)
        return 1;
    l->ls = ls;
    l->dir = dir;
    l->tr = tr;
    l->prog = *progress;
    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (!scr) {
        free(l);
        fprintf(stderr, "figaro learn: %s\n",
                _("cannot use this terminal full screen; try figaro learn --plain"));
        return 1;
    }
    set_term(scr);
    struct sigaction old_sigs[3];
    tui_catch_signals(old_sigs);
    tui_modes(false);
    l->look.utf8 = tui_utf8();
    tui_colours(&l->look);
    bool quit;
    bool all = run_lessons(l, from, one, &quit);
    if (all && !quit && !tui_interrupted())
        *play_after = ask_first_game(tr);   /* the first real game the lessons lead to */
    endwin();
    delscreen(scr);
    tui_restore_signals(old_sigs);
    if (quit)
        printf("%s\n", _("Stopped: 'figaro learn' goes on from here."));
    free(l);
    return 0;
}
