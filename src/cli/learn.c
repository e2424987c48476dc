/* SPDX-License-Identifier: MIT */
/* learn.c - `figaro learn`: the lessons (host/lesson.h) in the terminal,
 * full-screen (tui/tui_learn.c) or as plain lines (--plain, scriptable from
 * standard input), and `--json`, the lessons for the browser.
 *
 * This file finds the lessons' folder and the progress folder (the saved
 * games' folder, $XDG_DATA_HOME/figaro), reads the options, and runs the
 * plain lessons; at the end it offers the first real game (`figaro play`
 * with the level host/lesson.h names). */
#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/play.h"
#include "host/lesson.h"
#include "host/rules_text.h"
#include "host/util.h"
#include "tui/tui.h"

#ifndef FIG_LESSONDIR
#define FIG_LESSONDIR "/usr/local/share/figaro/lessons"
#endif

/* Where progress is kept: the saved games' folder (play.c's). */
static int progress_dir(char *out, size_t cap)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/')   /* the XDG spec: a relative path is to be ignored */
        n = snprintf(out, cap, "%s/figaro", xdg);
    else if (home && home[0])
        n = snprintf(out, cap, "%s/.local/share/figaro", home);
    else
        return -1;
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* ---- plain lines */

typedef struct {
    fig_narrator_t narr;
    const fig_tr_t *tr;
    const fig_lessons_t *ls;
    fig_lesson_progress_t prog;
    char dir[PATH_MAX];       /* progress */
    bool have_dir;
    bool script;              /* standard input is not a terminal: echo the answers */
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
} plain_t;

static const char *card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return fig_card_code_in(_(FIG_CARD_CODES), kind, buf, cap);
}

static void say(void *ctx, int about, const char *sentence)
{
    (void)ctx;
    (void)about;
    printf("  %s\n", sentence);
}

static void tell(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                 const fig_view_t *after)
{
    plain_t *p = ctx;
    fig_narrate_step(&p->narr, step, before, after);
}

static void hand_text(const fig_hand_t *h, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < FIG_KINDS; k++)
        for (int i = 0; i < h->n[k]; i++) {
            char c[16];
            fig_putf(buf, cap, &n, "[%s]", card(NULL, k, c, sizeof c));
        }
}

static void pile_text(const fig_pile_t *pile, char *buf, size_t cap)
{
    fig_hand_t h;
    plain_pile_cards(pile, &h);
    hand_text(&h, buf, cap);
}

static void show_table(const plain_t *p, const fig_lesson_run_t *run)
{
    fig_view_t v;
    fig_lesson_view(run, &v);
    char buf[512], pile[256];
    for (int s = 0; s < v.players; s++) {
        size_t n = 0;
        buf[0] = '\0';
        if (v.pile[s].cards) {
            pile_text(&v.pile[s], pile, sizeof pile);
            fig_putf(buf, sizeof buf, &n, _("pile %s, total %d"), pile, v.pile[s].total);
        } else {
            fig_putf(buf, sizeof buf, &n, "%s", _("pile empty"));
        }
        char label[FIG_NAME_MAX + 32];
        if (s == v.seat)
            snprintf(label, sizeof label, "%s", _("you"));
        else
            snprintf(label, sizeof label, "%s", p->names[s]);
        printf("  %d %s: %s\n", s, label, buf);
    }
    hand_text(&v.hand, buf, sizeof buf);
    printf(_("Your hand: %s\n"), buf);
}

/* A typed move in the language's codes or FGN's ("ve2>1", "G2>1", "ring",
 * "take"); FIG_ACT_NONE if it is not one. A ring in front of another seat
 * ("ring>2") is a move too, which the rules refuse with their reason. */
static fig_action_t parse_move(const char *word, int seat)
{
    if (!strcmp(word, "take"))
        return FIG_ACT_TAKE;
    size_t used;
    int kind = fig_card_code_parse_in(_(FIG_CARD_CODES), word, &used);
    if (kind < 0) {
        used = strcspn(word, ">");
        kind = fig_kind_parse(word, used);
    }
    if (kind < 0)
        return FIG_ACT_NONE;
    const char *rest = word + used;
    if (!*rest)
        return kind == FIG_RING ? fig_act_play(FIG_RING, seat) : FIG_ACT_NONE;
    if (rest[0] != '>' || rest[1] < '0' || rest[1] >= '0' + FIG_MAX_PLAYERS || rest[2])
        return FIG_ACT_NONE;
    return fig_act_play(kind, rest[1] - '0');
}

static void save_progress(plain_t *p)
{
    fig_msg_t msg;
    if (p->have_dir && fig_lesson_progress_write(&p->prog, p->ls, p->dir, p->tr, &msg) != FIG_OK)
        fprintf(stderr, _("figaro learn: the progress could not be saved: %s\n"), msg.text);
}

static void show_help(void)
{
    plain_print_para(_("Type a move as in the game: a card's code, '>' and a seat number (R2>1 plays R2 "
           "in front of seat 1), RING, or take. 'hint' shows the move asked for, 'show' the "
           "table again, 'again' starts this lesson over, 'skip' goes to the next lesson, "
           "'rules' prints the rules, 'quit' stops: 'figaro learn' goes on from here next "
           "time."));
}

/* How a lesson ends (play_lesson), and, within it, how an answer ends:
 * the step's move played (LESSON_STEP), or the question asked again
 * (LESSON_ASK). */
enum { LESSON_DONE, LESSON_SKIP, LESSON_AGAIN, LESSON_QUIT, LESSON_STEP, LESSON_ASK };

/* Reads one answer line into buf, trimmed and lowercased; false at the end of
 * the input. */
static bool read_word(const plain_t *p, char *buf, size_t cap)
{
    char line[256];
    fflush(stdout);
    if (!fgets(line, sizeof line, stdin))
        return false;
    char *s = line;
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    if (p->script) {
        for (const char *c = s; *c; c++)
            putchar((unsigned char)*c < ' ' || *c == 0x7F ? '?' : *c);
        putchar('\n');
    }
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++)
        buf[k++] = (char)tolower((unsigned char)s[i]);
    buf[k] = '\0';
    return true;
}

/* What a word that is not a move does: LESSON_ASK once help, the rules,
 * the table or a hint is shown; LESSON_SKIP, LESSON_AGAIN or LESSON_QUIT;
 * -1 when w is no such word. */
static int word_command(const plain_t *p, const fig_lesson_run_t *run,
                        const fig_lesson_step_t *s, const char *w)
{
    if (!strcmp(w, "help") || !strcmp(w, "?")) {
        show_help();
        return LESSON_ASK;
    }
    if (!strcmp(w, "rules")) {
        cli_print_rules(78);
        return LESSON_ASK;
    }
    if (!strcmp(w, "show")) {
        show_table(p, run);
        plain_print_para(_(s->task));
        return LESSON_ASK;
    }
    if (!strcmp(w, "hint")) {
        char code[24];
        plain_action_code(fig_lesson_answer(run), code, sizeof code);
        printf(_("Try %s.\n"), code);
        return LESSON_ASK;
    }
    if (!strcmp(w, "skip"))
        return LESSON_SKIP;
    if (!strcmp(w, "again"))
        return LESSON_AGAIN;
    if (!strcmp(w, "quit") || !strcmp(w, "q"))
        return LESSON_QUIT;
    return -1;
}

/* The learner's move w: LESSON_STEP when the lesson takes it, else
 * LESSON_ASK once it is said why not. */
static int try_move(plain_t *p, fig_lesson_run_t *run, const fig_lesson_t *l, const char *w)
{
    fig_action_t a = parse_move(w, l->you);
    if (a == FIG_ACT_NONE) {
        printf(_("'%s' is not a move. Type a move like R2>1, RING or take, or 'help'.\n"), w);
        return LESSON_ASK;
    }
    char why[600], code[24];
    plain_action_code(a, code, sizeof code);
    fig_lesson_verdict_t v = fig_lesson_try(run, a, &p->narr, tell, p, why, sizeof why);
    if (v == FIG_LESSON_REFUSED) {
        printf(_("%s is refused: %s\n"), code, why);
        printf("%s\n", _("Try again."));
        return LESSON_ASK;
    }
    if (v == FIG_LESSON_NOT_ASKED) {
        printf(_("%s is allowed, but not what this step asks.\n"), code);
        plain_print_para(why);
        printf("%s\n", _("Try again."));
        return LESSON_ASK;
    }
    if (why[0])
        plain_print_para(why);
    return LESSON_STEP;
}

/* Asks for the step's move until it is played: LESSON_STEP, or
 * LESSON_SKIP, LESSON_AGAIN or LESSON_QUIT (also at the end of the input). */
static int ask_move(plain_t *p, fig_lesson_run_t *run, const fig_lesson_t *l,
                    const fig_lesson_step_t *s)
{
    for (;;) {
        printf("%s", _("Your move (e.g. R2>1, RING, take; hint, help, skip, quit): "));
        char w[64];
        if (!read_word(p, w, sizeof w)) {
            printf("\n");
            return LESSON_QUIT;
        }
        if (!w[0])
            continue;
        int rc = word_command(p, run, s, w);
        if (rc < 0)
            rc = try_move(p, run, l, w);
        if (rc != LESSON_ASK)
            return rc;
    }
}

/* Plays lesson i from step `step`; returns LESSON_DONE, LESSON_SKIP,
 * LESSON_AGAIN or LESSON_QUIT. */
static int play_lesson(plain_t *p, int i, int step)
{
    const fig_lesson_t *l = fig_lessons_get(p->ls, i);
    fig_narrate_init(&p->narr, l->start.setup.players, l->you,
                     (const char (*)[FIG_NAME_MAX + 1])p->names, p->tr, card, say, p);
    printf("\n");
    printf(_("Lesson %d of %d: %s\n"), i + 1, fig_lessons_count(p->ls), _(l->title));
    for (int t = 0; t < l->ntell; t++)
        plain_print_para(_(l->tell[t]));
    fig_lesson_run_t run;
    fig_lesson_start(&run, l, step, NULL, NULL);
    while (!fig_lesson_done(&run)) {
        const fig_lesson_step_t *s = fig_lesson_step(&run);
        p->prog.at_lesson = i;
        p->prog.at_step = run.step;
        save_progress(p);
        printf("\n");
        for (int t = 0; t < s->ntell; t++)
            plain_print_para(_(s->tell[t]));
        show_table(p, &run);
        plain_print_para(_(s->task));
        int rc = ask_move(p, &run, l, s);
        if (rc != LESSON_STEP)
            return rc;
    }
    printf("\n");
    if (l->end)
        plain_print_para(_(l->end));
    p->prog.done[i] = true;
    p->prog.at_lesson = -1;
    save_progress(p);
    return LESSON_DONE;
}

/* At the end: the first real game, as item of the path the lessons lead to. */
static int offer_game(plain_t *p, bool plain)
{
    printf("\n");
    printf(_("Play a first game now, against %d bots of level %s? Type 'hint' during the "
             "game for a hint. (y/n) "),
           FIG_LESSON_GAME_PLAYERS - 1, _(FIG_LESSON_GAME_LEVEL));
    char w[64];
    /* TRANSLATORS: the key that answers yes ('y' works too). */
    const char *yes = _("y");
    if (!read_word(p, w, sizeof w) || !w[0] ||
        !(w[0] == 'y' || w[0] == tolower((unsigned char)yes[0]))) {
        printf("%s\n", _("Whenever you like: figaro play."));
        return EXIT_OK;
    }
    char players[8];
    snprintf(players, sizeof players, "%d", FIG_LESSON_GAME_PLAYERS);
    char *argv[] = { "play", "--players", players, "--level", (char *)FIG_LESSON_GAME_LEVEL,
                     plain ? "--plain" : NULL, NULL };
    int argc = plain ? 6 : 5;
    return cmd_play(argc, argv);
}

static int run_plain(const fig_lessons_t *ls, int from, bool restart, bool one)
{
    plain_t p;
    memset(&p, 0, sizeof p);
    p.tr = cli_i18n_tr();
    p.ls = ls;
    p.script = !isatty(STDIN_FILENO);
    p.prog.at_lesson = -1;
    fig_msg_t msg;
    p.have_dir = progress_dir(p.dir, sizeof p.dir) == 0;
    if (p.have_dir && !restart &&
        fig_lesson_progress_read(&p.prog, ls, p.dir, p.tr, &msg) != FIG_OK)
        fprintf(stderr, "figaro learn: %s\n", msg.text);   /* damaged: start afresh */
    int i = from >= 0 ? from : fig_lesson_progress_next(&p.prog, ls);
    int step = i >= 0 && i == p.prog.at_lesson && from < 0 ? p.prog.at_step : 0;
    if (i < 0) {
        plain_print_para(_("You have done every lesson. 'figaro learn --restart' plays them again."));
        return offer_game(&p, true);
    }
    if (from < 0 && (step > 0 || i > 0))
        printf(_("Going on from lesson %d, step %d ('figaro learn --restart' starts over).\n"),
               i + 1, step + 1);
    plain_print_para(_("Learn Figaro by playing: a few short lessons, each one rule, in which you make "
           "the moves. Type 'help' at any time."));
    while (i >= 0 && i < fig_lessons_count(ls)) {
        /* The names of the bots' seats, as a game gives them. */
        const fig_lesson_t *l = fig_lessons_get(ls, i);
        for (int s = 0; s < FIG_MAX_PLAYERS; s++)
            snprintf(p.names[s], sizeof p.names[s], "%s",
                     l->start.has_names ? l->start.names[s] : "?");
        int rc = play_lesson(&p, i, step);
        step = 0;
        if (rc == LESSON_QUIT) {
            printf("%s\n", _("Stopped: 'figaro learn' goes on from here."));
            return EXIT_OK;
        }
        if (rc == LESSON_AGAIN)
            continue;
        if (one)
            return EXIT_OK;
        i++;
    }
    printf("\n");
    plain_print_para(_("That was the last lesson."));
    return offer_game(&p, true);
}

/* The full-screen lessons (tui/tui_learn.c), then the first game, full
 * screen too, if the learner asked for it. */
static int run_full(const fig_lessons_t *ls, int from, bool restart, bool one, const char *lang)
{
    char dir[PATH_MAX];
    bool have_dir = progress_dir(dir, sizeof dir) == 0;
    fig_lesson_progress_t prog;
    memset(&prog, 0, sizeof prog);
    prog.at_lesson = -1;
    fig_msg_t msg;
    if (have_dir && !restart &&
        fig_lesson_progress_read(&prog, ls, dir, cli_i18n_tr(), &msg) != FIG_OK)
        fprintf(stderr, "figaro learn: %s\n", msg.text);   /* damaged: start afresh */
    bool play = false;
    int rc = learn_tui(ls, from, one, have_dir ? dir : NULL, &prog, cli_i18n_tr(), &play);
    if (rc || !play)
        return rc;
    char players[8];
    snprintf(players, sizeof players, "%d", FIG_LESSON_GAME_PLAYERS);
    char *argv[] = { "play", "--players", players, "--level", (char *)FIG_LESSON_GAME_LEVEL,
                     lang ? "--lang" : NULL, (char *)lang, NULL };
    return cmd_play(lang ? 7 : 5, argv);
}

/* --json (the lessons) or --played (each step played out) on standard
 * output: an exit status. */
static int print_json(const fig_lessons_t *ls, bool played)
{
    size_t cap = 1 << 18, need;
    char *buf = malloc(cap);
    size_t (*write)(const fig_lessons_t *, const fig_tr_t *, char *, size_t) =
        played ? fig_lessons_json_played : fig_lessons_json;
    if (buf && (need = write(ls, cli_i18n_tr(), buf, cap)) >= cap) {
        free(buf);
        buf = malloc(need + 1);
        if (buf)
            write(ls, cli_i18n_tr(), buf, need + 1);
    }
    if (!buf) {
        fprintf(stderr, "figaro learn: out of memory\n");
        return EXIT_INPUT;
    }
    fputs(buf, stdout);
    free(buf);
    return EXIT_OK;
}

/* --lesson NAME or N: the lesson's index, or -1 if there is none. */
static int find_lesson(const fig_lessons_t *ls, const char *lesson)
{
    long long n;
    int from = fig_lessons_find(ls, lesson);
    if (from < 0 && !cli_parse_int(lesson, 1, fig_lessons_count(ls), &n))
        from = (int)n - 1;
    return from;
}

int cmd_learn(int argc, char **argv)
{
    enum { O_PLAIN = 256, O_JSON, O_PLAYED, O_LESSONS, O_LESSON, O_RESTART, O_LANG };
    static const struct option longopts[] = {
        { "plain", no_argument, NULL, O_PLAIN },
        { "json", no_argument, NULL, O_JSON },
        { "played", no_argument, NULL, O_PLAYED },
        { "lessons", required_argument, NULL, O_LESSONS },
        { "lesson", required_argument, NULL, O_LESSON },
        { "restart", no_argument, NULL, O_RESTART },
        { "lang", required_argument, NULL, O_LANG },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    char err[512];
    cli_i18n_init(NULL, err, sizeof err);
    bool plain = false, json = false, played = false, restart = false;
    const char *dir = NULL, *lesson = NULL, *lang = NULL;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case O_PLAIN: plain = true; break;
        case O_JSON: json = true; break;
        case O_PLAYED: json = played = true; break;
        case O_LESSONS: dir = optarg; break;
        case O_LESSON: lesson = optarg; break;
        case O_RESTART: restart = true; break;
        case O_LANG:
            if (cli_i18n_init(optarg, err, sizeof err))
                return cli_usage_error("learn", "%s", err);
            lang = optarg;
            break;
        case 'h': return cli_help("learn");
        case ':':
            return cli_usage_error("learn", _("option '%s' needs a value"), argv[optind - 1]);
        default:
            return cli_usage_error("learn", _("unknown option '%s'"), argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage_error("learn", _("unexpected argument '%s'"), argv[optind]);
    char found[PATH_MAX];
    if (!dir) {
        if (cli_find_data("lessons", "lessons.steps", FIG_LESSONDIR, found, sizeof found))
            return cli_usage_error("learn", "%s", _("cannot find the lessons: use --lessons DIR"));
        dir = found;
    }
    fig_lessons_t *ls;
    fig_msg_t msg;
    if (fig_lessons_load(&ls, dir, cli_i18n_tr(), &msg) != FIG_OK) {
        fprintf(stderr, "figaro learn: %s\n", msg.text);
        return EXIT_INPUT;
    }
    int rc;
    int from = lesson ? find_lesson(ls, lesson) : -1;
    if (lesson && from < 0) {
        fig_lessons_free(ls);
        return cli_usage_error("learn", _("there is no lesson '%s'"), lesson);
    }
    if (json)
        rc = print_json(ls, played);
    else if (plain || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        rc = run_plain(ls, from, restart, lesson != NULL);
    else
        rc = run_full(ls, from, restart, lesson != NULL, lang);
    fig_lessons_free(ls);
    return rc;
}
