/* SPDX-License-Identifier: MIT */
/* plain_show.c - what plain mode prints from the person's view (plain.h):
 * cards as their codes ("[R2]", coloured with --color), the table, the menu
 * of moves, the score sheet (the full-screen game's lines), the hint, the
 * log and the help. The sentences are narrate.c's, as in the full-screen
 * game; nothing here reads another seat's hand (R14). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/plain.h"
#include "cli/play.h"
#include "host/rules_text.h"
#include "host/sheet.h"

/* ---- cards */

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

const char *plain_narrate_card(void *ctx, int kind, char *buf, size_t cap)
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

/* ---- the table and the menu */

void plain_show_table(plain_t *p)
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

void plain_show_menu(const plain_t *p, const fig_action_t *acts, int n)
{
    printf("%s\n", _("Your moves:"));
    for (int i = 0; i < n; i++) {
        char code[24], what[256];
        plain_action_code(acts[i], code, sizeof code);
        fig_narrate_move(&p->narr, &p->view, acts[i], what, sizeof what);
        printf("  %2d. %-6s %s\n", i + 1, code, what);
    }
}

/* ---- on request */

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

void plain_show_help(void)
{
    plain_print_para(_("Commands: a move in FGN (R2>1 plays R2 in front of seat 1; RING; take) "
                       "or its number in the menu plays it. 'hint' asks the strongest bot what "
                       "it would play, and why. 'show' prints the table again, 'score' the "
                       "score sheet, 'log' tells what happened so far ('log 20': the last 20 "
                       "lines), 'rules' prints the rules, 'help' or '?' this text, 'quit' saves "
                       "the game and stops: 'figaro play --resume' continues it."));
}

/* `score`: the score sheet, the full-screen game's lines (tui_sheet_text), with
 * what R14 hides hidden the same way (host/sheet.h decides). */
void plain_show_sheet(const plain_t *p)
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
void plain_show_hint(plain_t *p)
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

void plain_show_log(const plain_t *p, long last)
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
