/* SPDX-License-Identifier: MIT */
/* plain_turn.c - plain mode's turns (plain.h): each step of the match told
 * (narrate.c) and saved (store.h), and the person's turn: a line read (a
 * script's echoed), then a command (help, rules, hint, score, show, log N,
 * quit) or a move, typed in FGN, in the language's card codes or as its
 * number in the menu, checked against the person's view and refused in a
 * player's words (narrate.h) when it may not be played. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/plain.h"
#include "cli/play.h"

enum { LINE_MAX_SHOWN = 40 };   /* of a refused input, echoed */

void plain_tell_step(plain_t *p, const fig_match_step_t *step, const fig_view_t *before,
                     const fig_view_t *after)
{
    p->last_about = FIG_NARRATE_NONE;   /* a new step: nothing told yet */
    fig_narrate_step(&p->narr, step, before, after);
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

void plain_autosave(plain_t *p)
{
    fig_msg_t msg;
    if (fig_store_save_current(p->store, fig_match_game(p->m), &msg) && !p->save_warned) {
        fprintf(stderr, _("figaro play: the game could not be saved: %s\n"), msg.text);
        p->save_warned = true;
    }
}

void plain_told(plain_t *p, const fig_match_step_t *step)
{
    fig_view_t before = p->view;
    fig_match_view(p->m, 0, &p->view);
    plain_tell_step(p, step, &before, &p->view);
    plain_autosave(p);
}

static int stop_saved(plain_t *p, bool eof)
{
    plain_autosave(p);
    if (!fig_store_has_current(p->store))   /* store.h: not worth keeping yet */
        printf("%s%s\n", eof ? "\n" : "", _("You had not played yet: nothing is saved."));
    else if (eof)
        printf("\n%s\n", _("End of input: the game is saved. 'figaro play --resume' continues "
                           "it."));
    else
        printf("%s\n", _("The game is saved. 'figaro play --resume' continues it."));
    return EXIT_OK;
}

bool plain_read_line(plain_t *p, char **line, size_t *cap)
{
    fflush(stdout);
    if (getline(line, cap, stdin) < 0)
        return false;
    char *s = *line, *e;   /* trimmed: a script's "\r\n" too */
    while (*s && isspace((unsigned char)*s))
        s++;
    memmove(*line, s, strlen(s) + 1);
    e = *line + strlen(*line);
    while (e > *line && isspace((unsigned char)e[-1]))
        *--e = '\0';
    if (p->script) {
        for (const char *c = *line; *c; c++)   /* never an escape code from the input */
            putchar((unsigned char)*c < ' ' || *c == 0x7F ? '?' : *c);
        putchar('\n');
    }
    return true;
}

/* The input without its blanks, lowercased, into word: "log 20" is "log20". */
static void squeeze(const char *s, char *word, size_t cap)
{
    size_t w = 0;
    for (; *s && w + 1 < cap; s++)
        if (!isspace((unsigned char)*s))
            word[w++] = (char)tolower((unsigned char)*s);
    word[w] = '\0';
}

/* The commands that are no move (help, rules, hint, score, show, log N):
 * carried out, true; false for anything else. */
static bool command(plain_t *p, const char *word, const fig_action_t *acts, int nacts)
{
    if (!strcmp(word, "help") || !strcmp(word, "?") || !strcmp(word, "h"))
        plain_show_help();
    else if (!strcmp(word, "rules") || !strcmp(word, "helprules"))
        cli_print_rules(78);
    else if (!strcmp(word, "hint"))
        plain_show_hint(p);
    else if (!strcmp(word, "score") || !strcmp(word, "s") || !strcmp(word, "sheet"))
        plain_show_sheet(p);
    else if (!strcmp(word, "show") || !strcmp(word, "table")) {
        plain_show_table(p);
        plain_show_menu(p, acts, nacts);
    } else {
        long long last = 0;
        if (strncmp(word, "log", 3) ||
            (word[3] != '\0' && cli_parse_int(word + 3, 1, 100000, &last)))
            return false;   /* "logx": not the log, maybe a move */
        plain_show_log(p, (long)last);
    }
    return true;
}

/* The move in the line s (word: squeezed): a number of the menu, or an
 * action in FGN or in the language's codes; false, with why said, for
 * anything else. */
static bool read_move(const plain_t *p, const char *s, char *word, size_t cap,
                      const fig_action_t *acts, int nacts, fig_action_t *a)
{
    /* the first word alone, and whether anything follows it */
    size_t first = strcspn(s, " \t");
    const char *rest = s + first + strspn(s + first, " \t");
    to_fgn(word, cap);   /* "ve2>1" -> "G2>1" in French */
    size_t w = strlen(word);
    if (*rest) {   /* "G2>2 extra": one move a line */
        char echo[64];
        shown(s, echo, sizeof echo);
        printf(_("'%s': type one move at a time, nothing after it (e.g. %.*s).\n"), echo,
               (int)first, s);
        return false;
    }
    if (w > 0 && w == strspn(word, "0123456789")) {
        long long k;
        if (cli_parse_int(word, 1, nacts, &k)) {
            printf(_("There is no move %s in the menu: choose 1 to %d.\n"), word, nacts);
            return false;
        }
        *a = acts[k - 1];
        return true;
    }
    if ((*a = fig_act_parse(word, w, 0)) == FIG_ACT_NONE) {
        explain_junk(p, word, s);
        return false;
    }
    return true;
}

/* Plays `a` for the person; true if played, else why not is said. */
static bool try_play(plain_t *p, fig_action_t a)
{
    fig_match_step_t step;
    fig_msg_t msg;
    if (fig_narrate_check(&p->view, a, p->tr, &msg) != FIG_OK ||
        fig_match_play(p->m, a, &step, &msg) != FIG_OK) {
        char why[400], code[16];
        refusal(p, a, &msg, why, sizeof why);
        plain_action_code(a, code, sizeof code);
        printf(_("%s is refused: %s\n"), code, why);
        return false;
    }
    plain_told(p, &step);
    return true;
}

int plain_person_turn(plain_t *p)
{
    fig_action_t acts[FIG_MAX_ACTIONS];
    int nacts = fig_view_legal(&p->view, acts);
    plain_show_table(p);
    plain_show_menu(p, acts, nacts);
    char *line = NULL;
    size_t cap = 0;
    int rc = PLAIN_TURN_PLAYED;
    for (;;) {
        printf("%s", _("Your move (e.g. R2>1, RING, take, or a number; hint, help, quit): "));
        if (!plain_read_line(p, &line, &cap)) {
            rc = stop_saved(p, true);
            break;
        }
        char word[64];
        squeeze(line, word, sizeof word);
        if (!line[0] || command(p, word, acts, nacts))
            continue;
        if (!strcmp(word, "quit") || !strcmp(word, "q") || !strcmp(word, "exit")) {
            rc = stop_saved(p, false);
            break;
        }
        fig_action_t a;
        if (read_move(p, line, word, sizeof word, acts, nacts, &a) && try_play(p, a))
            break;
    }
    free(line);
    return rc;
}
