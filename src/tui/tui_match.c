/* SPDX-License-Identifier: MIT */
/* tui_match.c - what both terminal front ends (the full screen and plain
 * mode, cli/play_plain.c) say and do the same way before a game, without
 * curses: a level's name in the person's language, the one line on a saved
 * game, and tui_match_start, which starts or resumes the match (session.h)
 * over their store and saves the display options with it. */
#include <stdio.h>

#include "host/util.h"
#include "tui/tui.h"

/* The levels' names are msgids (marked in the ai layer's table, bot.c). */
const char *tui_level_name(const char *spec)
{
    return fig_bot_level_index(spec) >= 0 ? _(spec) : spec;
}

void tui_saved_summary(const fig_game_t *g, char *buf, size_t cap)
{
    char others[6 * (FIG_NAME_MAX + 8)] = "";
    size_t len = 0;
    int n = g->setup.players, moves = 0;
    for (int r = 0; r < g->dealt; r++)
        moves += g->nmoves[r];
    for (int s = 1; s < n; s++)
        fig_putf(others, sizeof others, &len, "%s%s",
                 s == 1 ? "" : s == n - 1 ? _(" and ") : ", ", g->has_names ? g->names[s] : "?");
    snprintf(buf, cap,
             ngettext("Round %d of 3, %s against %s, %d move played.",
                      "Round %d of 3, %s against %s, %d moves played.", (unsigned long)moves),
             g->dealt > 0 ? g->dealt : 1, g->has_names ? g->names[0] : "?", others, moves);
}

/* The display options the game is saved with, as front-end lines. */
static fig_err_t save_display(fig_store_t *store, const tui_display_t *d, fig_msg_t *msg)
{
    char pace[16];
    snprintf(pace, sizeof pace, "%d", d->pace_ms);
    fig_err_t rc = fig_store_set_line(store, "pace", pace, msg);
    if (rc == FIG_OK)
        rc = fig_store_set_line(store, "open", d->open ? "1" : "0", msg);
    if (rc == FIG_OK)
        rc = fig_store_set_line(store, "color", d->color ? "1" : "0", msg);
    return rc;
}

fig_err_t tui_match_start(fig_session_opts_t *game, const tui_display_t *display,
                          const fig_game_t *saved, fig_store_t *store, const fig_tr_t *tr,
                          fig_match_t **out, char *aside, size_t asidecap, fig_msg_t *msg)
{
    fig_err_t rc;
    *out = NULL;
    if (aside && asidecap)
        aside[0] = '\0';
    bool secret = !game->has_seed;   /* nobody chose the seed: it stays secret */
    if (saved)
        rc = fig_session_resume(out, saved, game, tr, msg);
    else if ((rc = fig_store_set_aside(store, aside, asidecap, msg)) == FIG_OK &&
             (rc = fig_session_start(out, game, tr, msg)) == FIG_OK)
        fig_store_set_sealed(store, secret);
    if (rc == FIG_OK && ((rc = fig_store_set_seats(store, &game->seats, msg)) != FIG_OK ||
                         (rc = save_display(store, display, msg)) != FIG_OK)) {
        fig_match_free(*out);
        *out = NULL;
    }
    return rc;
}
