/* SPDX-License-Identifier: MIT */
/* play_plain.c - `figaro play --plain`: the game as plain lines on standard
 * input and output, for screen readers, pipes and scripts.
 *
 * Everything shown comes from the person's view (fig_match_view, seat 0) and
 * from the events of each step, which are public (R14); the record's hands
 * are used in one place, to replay a resumed game for the log, and then too
 * only seat 0's view and the public events are told. The person's legal
 * moves come from that view (fig_view_legal): legality depends only on the
 * mover's own hand and the table.
 *
 * What happened and the menu lines are told by narrate.c, in the same whole
 * translated sentences as the full-screen game, with cards written "R2"; the
 * rest are whole sentences inside _() too. No escape codes unless --color.
 * The game is saved after every step (store.h); `quit` and the end of the
 * input leave it there for `figaro play --resume`. */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "host/hint.h"
#include "host/util.h"
#include "host/narrate.h"
#include "cli/play.h"
#include "cli/review.h"
#include "host/rules_text.h"
#include "host/session.h"
#include "host/sheet.h"
#include "host/store.h"
#include "tui/tui.h"

enum { THINK_NOTE_MS = 1500, LINE_MAX_SHOWN = 40 };

typedef struct {
    tui_display_t o;                          /* how to show the game */
    fig_session_opts_t game;                  /* who plays, the seed */
    bool resume;
    fig_store_t *store;
    const fig_tr_t *tr;
    fig_match_t *m;
    int n;                                    /* players */
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    fig_view_t view;                          /* seat 0's view after the last step told */
    fig_buf_t log;                            /* everything said, '\n'-separated */
    fig_narrator_t narr;                           /* tells steps and menu lines (seat 0: "You") */
    int last_about;                           /* what the last sentence told was about */
    size_t over_at;                           /* where the end of the game starts in the log */
    bool echo;                                /* print what is said (off while rebuilding) */
    bool save_warned;
    bool script;                              /* standard input is not a terminal */
    fig_hint_t *hint;                         /* made at the first `hint` */
} plain_t;

/* ---- output */

/* Says one line of what happened: printed, and kept for `log` (a
 * convenience: once memory runs out, the game goes on without the rest). */
static void say_line(plain_t *p, const char *line)
{
    if (p->echo)
        puts(line);
    fig_buf_appendf(&p->log, "%s\n", line);
}

/* narrate.c's sentences: a blank line before a deal and before the end of the
 * game sets them apart, as in a book. */
static void say(void *ctx, int about, const char *sentence)
{
    plain_t *p = ctx;
    bool first = about != p->last_about;
    p->last_about = about;
    if (first && (about == FIG_NARRATE_DEAL || about == FIG_EV_GAME_OVER))
        say_line(p, "");
    if (first && about == FIG_EV_GAME_OVER)
        p->over_at = p->log.len;
    say_line(p, sentence);
}

static const char *ansi_of(int kind)
{
    static const char *const colour[] = { "31", "34", "32", "33", "35" };
    if (fig_kind_is_colour(kind))
        return colour[fig_kind_colour(kind)];
    return kind == FIG_RING ? "36" : "1";
}

/* A card code, "R2", coloured with --color. `bracket` gives "[R2]". */
static const char *card(const plain_t *p, int kind, bool bracket, char *buf, size_t cap)
{
    char code[16];
    fig_card_code_in(_(FIG_CARD_CODES), kind, code, sizeof code);   /* the language's codes */
    if (p->o.color)
        snprintf(buf, cap, "\033[%sm%s%s%s\033[0m", ansi_of(kind), bracket ? "[" : "", code,
                 bracket ? "]" : "");
    else
        snprintf(buf, cap, "%s%s%s", bracket ? "[" : "", code, bracket ? "]" : "");
    return buf;
}

/* A card inside narrate.c's sentences and menu lines: "R2", coloured with --color. */
static const char *narrate_card(void *ctx, int kind, char *buf, size_t cap)
{
    return card(ctx, kind, false, buf, cap);
}

/* Appends the cards of h in kind order (sorted), as [R1][R2]... */
static void cards_text(const plain_t *p, const fig_hand_t *h, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < FIG_KINDS; k++)
        for (int i = 0; i < h->n[k]; i++) {
            char c[32];
            fig_putf(buf, cap, &n, "%s", card(p, k, true, c, sizeof c));
        }
}

void plain_pile_cards(const fig_pile_t *pile, fig_hand_t *h)
{
    memset(h, 0, sizeof *h);
    if (pile->colour != FIG_NO_COLOUR)
        for (int v = 0; v < 3; v++)
            h->n[pile->colour * 3 + v] = pile->n[v];
    h->n[FIG_J1] = pile->n[3];
    h->n[FIG_J2] = pile->n[4];
    h->n[FIG_RING] = pile->n[5];
}

static void pile_text(const plain_t *p, const fig_pile_t *pile, char *buf, size_t cap)
{
    fig_hand_t h;
    plain_pile_cards(pile, &h);
    cards_text(p, &h, buf, cap);
}

/* "9 + 5 + 2", or "-" with no piece. */
static void pieces_text(const fig_view_t *v, int s, char *buf, size_t cap)
{
    if (!fig_road_format(v->road[s], v->nroad[s], " + ", buf, cap))
        snprintf(buf, cap, "-");
}

static void pace(const plain_t *p)
{
    if (p->o.pace_ms <= 0)
        return;
    fflush(stdout);
    struct timespec ts = { p->o.pace_ms / 1000, (long)(p->o.pace_ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* ---- what happened */

/* Tells one step (narrate.c); before/after are seat 0's views around it. */
static void tell_step(plain_t *p, const fig_match_step_t *step, const fig_view_t *before,
                      const fig_view_t *after)
{
    p->last_about = FIG_NARRATE_NONE;   /* a new step: nothing told yet */
    fig_narrate_step(&p->narr, step, before, after);
}

/* ---- the person's turn */

static void show_table(plain_t *p)
{
    const fig_view_t *v = &p->view;
    char buf[512], pile[256];
    printf("\n");
    if (v->king == 0)
        printf(_("Round %d. Your turn (you are seat 0, and you hold the King).\n"), v->round);
    else
        printf(_("Round %d. Your turn (you are seat 0). The King: %s.\n"), v->round,
               p->names[v->king]);
    for (int s = 0; s < p->n; s++) {
        char label[FIG_NAME_MAX + 32];
        if (s == 0)
            snprintf(label, sizeof label, v->king == 0 ? _("%s (you, King)") : _("%s (you)"),
                     p->names[s]);
        else
            snprintf(label, sizeof label, v->king == s ? _("%s (King)") : "%s", p->names[s]);
        size_t n = 0;
        buf[0] = '\0';
        if (v->pile[s].cards) {
            pile_text(p, &v->pile[s], pile, sizeof pile);
            fig_putf(buf, sizeof buf, &n, _("pile %s, total %d"), pile, v->pile[s].total);
        } else {
            fig_putf(buf, sizeof buf, &n, "%s", _("pile empty"));
        }
        int h = v->hand_size[s];
        fig_putf(buf, sizeof buf, &n, "; ");
        if (h == 1)
            fig_putf(buf, sizeof buf, &n, "%s", _("1 card in hand, last card!"));
        else
            fig_putf(buf, sizeof buf, &n, ngettext("%d card in hand", "%d cards in hand", h), h);
        if (p->o.open)   /* R14 option: counts and roads shown during play */
            fig_putf(buf, sizeof buf, &n, _("; stack %d; road %d"), v->stack[s], fig_view_road(v,
                     s));
        else if (v->nroad[s])
            fig_putf(buf, sizeof buf, &n,
                     ngettext("; %d road piece", "; %d road pieces", v->nroad[s]), v->nroad[s]);
        printf("  %d %s: %s\n", s, label, buf);
    }
    if (v->nroad[0] && !p->o.open) {
        pieces_text(v, 0, pile, sizeof pile);
        printf(_("Your road so far: %d (pieces %s).\n"), fig_view_road(v, 0), pile);
    }
    cards_text(p, &v->hand, buf, sizeof buf);
    printf(_("Your hand: %s\n"), buf);
}

void plain_action_code(fig_action_t a, char *buf, size_t cap)
{
    char c[16];
    if (fig_act_is_take(a))
        snprintf(buf, cap, "take");
    else if (fig_act_kind(a) == FIG_RING)
        snprintf(buf, cap, "%s", fig_card_code_in(_(FIG_CARD_CODES), FIG_RING, c, sizeof c));
    else
        snprintf(buf, cap, "%s>%d", fig_card_code_in(_(FIG_CARD_CODES), fig_act_kind(a), c,
                                                     sizeof c),
                 fig_act_target(a));
}

/* A typed word in the language's codes ("ve2>1") rewritten in FGN ("G2>1"),
 * in place; FGN itself passes unchanged. */
static void to_fgn(char *word, size_t cap)
{
    size_t used;
    int kind = fig_card_code_parse_in(_(FIG_CARD_CODES), word, &used);
    if (kind < 0)
        return;
    char rest[64];
    snprintf(rest, sizeof rest, "%s", word + used);
    snprintf(word, cap, "%s%s", fig_kind_code(kind), rest);
}

static void show_menu(const plain_t *p, const fig_action_t *acts, int n)
{
    printf("%s\n", _("Your moves:"));
    for (int i = 0; i < n; i++) {
        char code[24], what[256];
        plain_action_code(acts[i], code, sizeof code);
        fig_narrate_move(&p->narr, &p->view, acts[i], what, sizeof what);
        printf("  %2d. %-6s %s\n", i + 1, code, what);
    }
}

void plain_print_para(const char *text)
{
    while (*text) {
        int n = fig_rules_wrap(text, 78);
        printf("%.*s\n", n, text);
        text += n;
        while (*text == ' ')
            text++;
    }
}

static void show_help(void)
{
    plain_print_para(_("Commands: a move in FGN (R2>1 plays R2 in front of seat 1; RING; take) or its "
                 "number in the menu plays it. 'hint' asks the strongest bot what it would "
                 "play, and why. 'show' prints the table again, 'score' the score sheet, 'log' "
                 "tells what happened so far ('log 20': the last 20 lines), 'rules' prints the "
                 "rules, 'help' or '?' "
                 "this text, 'quit' saves the game and stops: 'figaro play --resume' "
                 "continues it."));
}

/* `score`: the score sheet, the full-screen game's lines (tui_sheet_text), with
 * what R14 hides hidden the same way (host/sheet.h decides). */
static void show_sheet(const plain_t *p)
{
    fig_sheet_t sh;
    fig_sheet_make(fig_match_game(p->m), 0, p->o.open, &sh);
    bool utf8 = tui_utf8();
    char lines[2 + FIG_MAX_PLAYERS][TUI_SHEET_LINE];
    int n = tui_sheet_text(&sh, p->names, utf8, lines, 2 + FIG_MAX_PLAYERS);
    printf("%s\n", _("Score sheet"));
    for (int i = 0; i < n; i++) {
        size_t len = strlen(lines[i]);
        while (len && lines[i][len - 1] == ' ')   /* no trailing blanks in a line */
            lines[i][--len] = '\0';
        printf("  %s\n", lines[i]);
    }
    if (!sh.open)
        plain_print_para(tui_sheet_note());
}

/* `hint`: the move a search bot would make in the person's seat, told only
 * what that seat knows (host/hint.h); the answer waits here, the bots don't
 * move meanwhile. */
static void show_hint(plain_t *p)
{
    fig_msg_t msg;
    if (!p->hint && fig_hint_new(&p->hint, NULL, &msg) != FIG_OK) {
        printf(_("No hint: %s\n"), fig_tr_text(p->tr, msg.text));
        return;
    }
    const fig_game_t *g = fig_match_game(p->m);
    long tag = g->dealt;
    for (int r = 0; r < g->dealt; r++)
        tag += g->nmoves[r];
    if (fig_hint_ask(p->hint, g, 0, NULL, tag, &msg) != FIG_OK) {
        printf(_("No hint: %s\n"), fig_tr_text(p->tr, msg.text));
        return;
    }
    printf("%s\n", _("Thinking about a hint..."));
    fflush(stdout);
    fig_action_t a;
    long got;
    struct pollfd pfd = { .fd = fig_hint_fd(p->hint), .events = POLLIN };
    while (!fig_hint_take(p->hint, &a, &got))
        if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
            break;
    char code[16];
    fig_analysis_t an;
    bool has = fig_hint_analysis(p->hint, &an);
    fig_hint_text_t t;
    fig_hint_explain(&p->narr, &p->view, a, has ? &an : NULL, &t);
    fig_act_format(a, code, sizeof code);
    plain_action_code(a, code, sizeof code);
    printf(_("%s (type %s to play it)\n"), t.headline, code);
    if (t.reason[0])
        printf("  %s\n", t.reason);
    for (int i = 0; i < t.n; i++)
        printf("  %d. %s\n", i + 1, t.moves[i].line);
}

/* Why the person may not play `a`, in a player's words (the engine's are
 * for records): "R1 cannot go in front of Dee: Bob already has yellow.",
 * narrate.h's one wording for every front end. */
static void refusal(const plain_t *p, fig_action_t a, const fig_msg_t *engine, char *buf,
                    size_t cap)
{
    fig_narrate_refusal(&p->narr, &p->view, a, buf, cap);
    if (!buf[0])   /* legal by the view, refused by the match: the engine's words */
        snprintf(buf, cap, "%s.", engine->text);
}

static void show_log(const plain_t *p, long last)
{
    if (!p->log.len) {
        printf("%s\n", _("Nothing has happened yet."));
        return;
    }
    const char *start = p->log.data;
    if (last > 0) {
        long lines = 0;
        const char *q = p->log.data + p->log.len - 1;   /* the final '\n' */
        while (q > p->log.data) {
            q--;
            if (*q == '\n' && ++lines == last) {
                start = q + 1;
                break;
            }
        }
    }
    fputs(start, stdout);
}

/* The input, cut and cleaned for echoing in a message. */
static void shown(const char *in, char *buf, size_t cap)
{
    size_t n = 0;
    for (; *in && n + 4 < cap && n < LINE_MAX_SHOWN; in++)
        buf[n++] = (unsigned char)*in < ' ' || *in == 0x7F ? '?' : *in;   /* UTF-8 stays */
    if (*in)
        buf[n++] = '.', buf[n++] = '.', buf[n++] = '.';
    buf[n] = '\0';
}

/* Why a text that is not an action was refused. */
static void explain_junk(const plain_t *p, const char *word, const char *in)
{
    char echo[64];
    shown(in, echo, sizeof echo);
    size_t len = strlen(word), gt = strcspn(word, ">");
    int kind = fig_kind_parse(word, gt);
    char code[16];
    if (kind >= 0)
        fig_card_code_in(_(FIG_CARD_CODES), kind, code, sizeof code);
    if (kind >= 0 && gt == len)
        printf(_("'%s' needs a player: type %s>N where N is the seat number, e.g. %s>1.\n"),
               echo, code, code);
    else if (kind >= 0)
        printf(_("'%s' names no seat: the seats are 0 to %d.\n"), echo, p->n - 1);
    else
        printf(_("'%s' is not a move. Type a move like R2>1, RING or take, a number from the "
                 "menu, or 'help'.\n"), echo);
}

enum { TURN_PLAYED = -1 };

static void autosave(plain_t *p)
{
    fig_msg_t msg;
    if (fig_store_save_current(p->store, fig_match_game(p->m), &msg) && !p->save_warned) {
        fprintf(stderr, _("figaro play: the game could not be saved: %s\n"), msg.text);
        p->save_warned = true;
    }
}

static void told(plain_t *p, const fig_match_step_t *step)
{
    fig_view_t before = p->view;
    fig_match_view(p->m, 0, &p->view);
    tell_step(p, step, &before, &p->view);
    autosave(p);
}

static int stop_saved(plain_t *p, bool eof)
{
    autosave(p);
    if (!fig_store_has_current(p->store))   /* store.h: not worth keeping yet */
        printf("%s%s\n", eof ? "\n" : "", _("You had not played yet: nothing is saved."));
    else if (eof)
        printf("\n%s\n", _("End of input: the game is saved. 'figaro play --resume' continues "
                           "it."));
    else
        printf("%s\n", _("The game is saved. 'figaro play --resume' continues it."));
    return EXIT_OK;
}

/* Reads and carries out the person's input until one action is played
 * (TURN_PLAYED) or the person leaves (an exit status). */
static int person_turn(plain_t *p)
{
    fig_action_t acts[FIG_MAX_ACTIONS];
    int nacts = fig_view_legal(&p->view, acts);
    show_table(p);
    show_menu(p, acts, nacts);
    char *line = NULL;
    size_t cap = 0;
    int rc = TURN_PLAYED;
    for (;;) {
        printf("%s", _("Your move (e.g. R2>1, RING, take, or a number; hint, help, quit): "));
        fflush(stdout);
        ssize_t got = getline(&line, &cap, stdin);
        if (got < 0) {
            rc = stop_saved(p, true);
            break;
        }
        /* trim; a script's "\r\n" too */
        char *s = line;
        while (*s && isspace((unsigned char)*s))
            s++;
        size_t len = strlen(s);
        while (len && isspace((unsigned char)s[len - 1]))
            s[--len] = '\0';
        if (p->script) {   /* a script's answer, echoed so the output reads as a dialogue */
            for (const char *c = s; *c; c++)   /* never an escape code from the input */
                putchar((unsigned char)*c < ' ' || *c == 0x7F ? '?' : *c);
            putchar('\n');
        }
        char word[64];
        size_t w = 0;
        for (size_t i = 0; i < len && w + 1 < sizeof word; i++)
            if (!isspace((unsigned char)s[i]))
                word[w++] = (char)tolower((unsigned char)s[i]);
        word[w] = '\0';
        if (len == 0)
            continue;
        /* the first word alone, and whether anything follows it */
        size_t first = strcspn(s, " \t");
        const char *rest = s + first + strspn(s + first, " \t");
        if (!strcmp(word, "help") || !strcmp(word, "?") || !strcmp(word, "h")) {
            show_help();
            continue;
        }
        if (!strcmp(word, "rules") || !strcmp(word, "helprules")) {
            cli_print_rules(78);
            continue;
        }
        if (!strcmp(word, "hint")) {
            show_hint(p);
            continue;
        }
        if (!strcmp(word, "score") || !strcmp(word, "s") || !strcmp(word, "sheet")) {
            show_sheet(p);
            continue;
        }
        if (!strcmp(word, "show") || !strcmp(word, "table")) {
            show_table(p);
            show_menu(p, acts, nacts);
            continue;
        }
        if (!strncmp(word, "log", 3)) {
            long long last = 0;
            if (word[3] == '\0' || !cli_parse_int(word + 3, 1, 100000, &last)) {
                show_log(p, (long)last);
                continue;
            }
        }
        if (!strcmp(word, "quit") || !strcmp(word, "q") || !strcmp(word, "exit")) {
            rc = stop_saved(p, false);
            break;
        }
        to_fgn(word, sizeof word);   /* "ve2>1" -> "G2>1" in French */
        w = strlen(word);
        fig_action_t a;
        if (*rest) {   /* "G2>2 extra": one move a line */
            char echo[64];
            shown(s, echo, sizeof echo);
            printf(_("'%s': type one move at a time, nothing after it (e.g. %.*s).\n"), echo,
                   (int)first, s);
            continue;
        }
        bool digits = w > 0 && w == strspn(word, "0123456789");
        if (digits) {
            long long k;
            if (cli_parse_int(word, 1, nacts, &k)) {
                printf(_("There is no move %s in the menu: choose 1 to %d.\n"), word, nacts);
                continue;
            }
            a = acts[k - 1];
        } else if ((a = fig_act_parse(word, w, 0)) == FIG_ACT_NONE) {
            explain_junk(p, word, s);
            continue;
        }
        fig_match_step_t step;
        fig_msg_t msg;
        char code[16];
        if (fig_narrate_check(&p->view, a, p->tr, &msg) != FIG_OK ||
            fig_match_play(p->m, a, &step, &msg) != FIG_OK) {
            char why[400];
            refusal(p, a, &msg, why, sizeof why);
            plain_action_code(a, code, sizeof code);
            printf(_("%s is refused: %s\n"), code, why);
            continue;
        }
        told(p, &step);
        break;
    }
    free(line);
    return rc;
}

/* ---- the game */

/* Waits until the thinking bot is done, saying so if it takes a while. */
static void wait_bot(plain_t *p)
{
    struct pollfd pfd = { .fd = fig_match_fd(p->m), .events = POLLIN };
    fflush(stdout);
    int r = poll(&pfd, 1, THINK_NOTE_MS);
    if (r == 0) {
        printf(_("%s is thinking...\n"), p->names[fig_match_turn(p->m)]);
        fflush(stdout);
        while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
            ;
    }
}

static void replay_step(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                        const fig_view_t *after)
{
    tell_step(ctx, step, before, after);
}

/* The log of a resumed game: its record told again, silently. */
static void rebuild_log(plain_t *p)
{
    p->echo = false;
    fig_session_replay(fig_match_game(p->m), 0, replay_step, p, NULL);
    p->echo = true;
}

static void introduce(plain_t *p, const char *aside)
{
    char list[512] = "";
    size_t len = 0;
    for (int s = 1; s < p->n; s++)
        fig_putf(list, sizeof list, &len, s > 1 ? ", %s (%s)" : "%s (%s)", p->names[s],
                 tui_level_name(fig_match_bot_spec(p->m, s)));
    if (aside[0])
        printf(_("The unfinished game you had saved is kept as %s ('figaro history' numbers "
                 "it; 'figaro play --resume N' continues it).\n"), aside);
    if (p->resume)
        printf("%s\n", _("Resuming the saved game. Type 'log' to read what happened so far."));
    printf(_("Figaro: %s (you, seat 0) against %s.\n"), p->names[0], list);
    if (p->o.open)
        printf("%s\n", _("Open game: stack counts and roads are shown (--open)."));
    printf("%s\n", _("Type 'help' for the commands, 'rules' for the rules."));
}

static int finish(plain_t *p)
{
    char path[FIG_STORE_PATH_MAX];
    fig_msg_t msg;
    if (fig_store_finish(p->store, fig_match_game(p->m), path, sizeof path, &msg)) {
        fprintf(stderr, _("figaro play: the game could not be filed in the history: %s\n"),
                msg.text);
        return EXIT_INPUT;
    }
    printf("\n");
    printf(_("The game is kept in the history: %s\n"), path);
    printf("%s\n", _("To see where you could have played better: 'figaro review FILE' with "
                     "that file."));
    const fig_game_t *g = fig_match_game(p->m);
    printf(_("Seed %llu: 'figaro play --seed %llu' deals the same cards again.\n"),
           (unsigned long long)g->setup.seed, (unsigned long long)g->setup.seed);
    printf("%s\n", _("'figaro history' lists your games; 'figaro replay FILE' goes through one "
                     "again."));
    return EXIT_OK;
}

/* Reads one line of the person's answer into *line (trimmed); false at the
 * end of the input. A script's answer is echoed, as in person_turn. */
static bool read_answer(plain_t *p, char **line, size_t *cap)
{
    fflush(stdout);
    if (getline(line, cap, stdin) < 0)
        return false;
    char *s = *line, *e;
    while (*s && isspace((unsigned char)*s))
        s++;
    memmove(*line, s, strlen(s) + 1);
    e = *line + strlen(*line);
    while (e > *line && isspace((unsigned char)e[-1]))
        *--e = '\0';
    if (p->script) {
        for (const char *c = *line; *c; c++)
            putchar((unsigned char)*c < ' ' || *c == 0x7F ? '?' : *c);
        putchar('\n');
    }
    return true;
}

/* "Continue your saved game? (y/n)": 1 continue, 0 a new game, -1 the input
 * ended first. */
static int ask_continue(plain_t *p, const fig_game_t *g)
{
    char about[400];
    tui_saved_summary(g, about, sizeof about);
    printf("%s %s\n", _("You have a saved game."), about);
    /* TRANSLATORS: the keys that answer yes and no ('y' and 'n' work too). */
    const char *yes = _("y"), *no = _("n");
    char *line = NULL;
    size_t cap = 0;
    int answer = -1;
    for (;;) {
        printf("%s", _("Continue your saved game? (y: continue it, n: a new game; the saved "
                       "one is then kept in the history) "));
        if (!read_answer(p, &line, &cap))
            break;
        int c = tolower((unsigned char)line[0]);
        if (c && (c == 'y' || c == tolower((unsigned char)yes[0]))) {
            answer = 1;
            break;
        }
        if (c && (c == 'n' || c == tolower((unsigned char)no[0]))) {
            answer = 0;
            break;
        }
        printf("%s\n", _("Please answer y or n."));
    }
    free(line);
    return answer;
}

/* At the end: "Review your moves? (y/n)"; on yes, every move of the person
 * searched again from what they knew then (host/review.h, the full-screen
 * game's budget) and printed as `figaro review` prints it. Anything but yes,
 * or the end of the input, leaves it there. */
static void offer_review(plain_t *p)
{
    /* TRANSLATORS: the keys that answer yes and no ('y' and 'n' work too). */
    const char *yes = _("y");
    char *line = NULL;
    size_t cap = 0;
    printf("\n%s", _("Review your moves? (y/n) "));
    bool go = false;
    if (read_answer(p, &line, &cap)) {
        int c = tolower((unsigned char)line[0]);
        go = c && (c == 'y' || c == tolower((unsigned char)yes[0]));
    } else {
        printf("\n");
    }
    free(line);
    if (!go)
        return;
    fig_review_t *rv = malloc(sizeof *rv);
    if (!rv) {
        printf("%s\n", _("out of memory"));
        return;
    }
    const fig_game_t *g = fig_match_game(p->m);
    printf("%s\n", _("Reviewing your moves..."));
    fflush(stdout);
    fig_review_opts_t o = { NULL, 0, NULL, p->tr };   /* the review everyone gets */
    fig_msg_t msg;
    if (fig_review_game(g, 0, &o, rv, &msg) != FIG_OK)
        printf(_("The review failed: %s"), msg.text), putchar('\n');
    else
        cli_review_print(g, rv, FIG_REVIEW_SPEC, (const char (*)[FIG_NAME_MAX + 1])p->names,
                         false);
    free(rv);
}

int play_plain(const play_opts_t *opts, const tui_saved_t *saved, fig_store_t *store,
               const fig_tr_t *tr)
{
    plain_t *p = calloc(1, sizeof *p);
    if (!p) {
        fprintf(stderr, "figaro play: %s\n", _("out of memory"));
        return EXIT_INPUT;
    }
    p->o = opts->display;
    p->game = opts->game;
    p->store = store;
    p->tr = tr;
    p->echo = true;
    p->script = !isatty(STDIN_FILENO);
    const fig_game_t *record = NULL;
    if (saved) {
        int answer = saved->ask ? ask_continue(p, saved->record) : 1;
        if (answer < 0) {
            printf("\n%s\n", _("End of input: nothing was changed, your saved game is still "
                               "there."));
            free(p);
            return EXIT_OK;
        }
        if (answer == 1) {
            record = saved->record;
            p->o = saved->display;
            p->game = saved->game;
        }
    }
    p->o.plain = true;
    p->resume = record != NULL;
    char aside[FIG_STORE_PATH_MAX];
    fig_msg_t err;
    if (tui_match_start(&p->game, &p->o, record, store, tr, &p->m, aside, sizeof aside, &err)) {
        fprintf(stderr, "figaro play: %s\n", err.text);
        if (record)
            fprintf(stderr, "%s\n", _("Move the file away (or delete it) to start a new game."));
        free(p);
        return EXIT_INPUT;
    }
    const fig_game_t *g = fig_match_game(p->m);
    p->n = g->setup.players;
    for (int s = 0; s < p->n; s++)
        snprintf(p->names[s], sizeof p->names[s], "%s", g->names[s]);   /* session.h */
    fig_narrate_init(&p->narr, p->n, 0, p->names, p->tr, narrate_card, say, p);
    if (p->resume)
        rebuild_log(p);
    fig_match_view(p->m, 0, &p->view);
    introduce(p, aside);
    if (fig_game_over(g) && p->log.len) {   /* saved at the very end, before it was filed */
        printf("%s\n", _("The saved game was already over."));
        fputs(p->log.data + p->over_at, stdout);
    }
    autosave(p);
    int rc = TURN_PLAYED;
    while (rc == TURN_PLAYED) {
        fig_match_step_t step;
        while (fig_match_step(p->m, &step)) {
            told(p, &step);
            if (!step.deal)
                pace(p);   /* only bots move through fig_match_step */
        }
        switch (fig_match_status(p->m)) {
        case FIG_MATCH_OVER:
            rc = finish(p);
            if (rc == EXIT_OK)
                offer_review(p);
            break;
        case FIG_MATCH_THINKING: wait_bot(p); break;
        case FIG_MATCH_WAIT_HUMAN: rc = person_turn(p); break;
        case FIG_MATCH_READY: break;
        }
    }
    fflush(stdout);
    fig_hint_free(p->hint);
    fig_match_free(p->m);
    fig_buf_free(&p->log);
    free(p);
    return rc;
}
