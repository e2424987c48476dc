/* SPDX-License-Identifier: MIT */
/* tui.c - `figaro play`, full screen: the start screen, then one loop that
 * draws, reads keys and the mouse, and moves the match on.
 *
 * The loop never blocks on a bot: it waits in poll() on the terminal, the
 * match's descriptor (a bot's answer is in) and the hint's pipe, with a
 * timeout that paces the bots' moves (opts->pace_ms, 0 with --fast). A move
 * is shown only when its time has come and nothing covers the table, so a
 * person reading the rules or the round's scoring misses nothing. After every
 * step the game is saved (store.h) for `figaro play --resume`.
 *
 * The bots and the hint think on one worker pool (pool.h) of a thread per
 * core. The hint (hint.h) is the strongest level's bot, made for the occasion
 * and told what the person's seat knows (R14); the answer is shown with its
 * one reason, the same in the status lines and in the log, and preselected,
 * so Enter plays it (tui_hint.c). The keys are tui_input.c's, the state they
 * change and the match's steps tui_turn.c's. */
#define _XOPEN_SOURCE 700
#define _XOPEN_SOURCE_EXTENDED 1

#include <curses.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/hint.h"
#include "host/pool.h"
#include "host/store.h"
#include "host/util.h"
#include "tui/tui.h"

/* ---- the game ---- */

static void replay_step(void *ctx, const fig_match_step_t *step, const fig_view_t *before,
                        const fig_view_t *after)
{
    tui_t *t = ctx;
    t->view = *after;   /* tui_log_step tells from t->view */
    tui_log_step(t, step, before);
}

/* Rebuilds the log of a resumed game from its record, one step at a time, as
 * the person's seat saw it (views only: R14). */
static void replay_log(tui_t *t)
{
    fig_session_replay(fig_match_game(t->m), t->me, replay_step, t, NULL);
    t->fresh = 0;
}

static void loop(tui_t *t)
{
    while (!t->quit && !tui_interrupted()) {
        if (t->dirty)
            tui_draw(t);
        wint_t ch;
        int r = get_wch(&ch);
        if (r != ERR) {
            tui_key(t, r, ch);
            continue;
        }
        if (tui_advance(t) || t->dirty)
            continue;
        struct pollfd fds[3];
        int nfds = 0, timeout = -1;
        fds[nfds++] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
        long long now = fig_clock_ms();
        fig_match_status_t s = fig_match_status(t->m);
        bool paused = t->overlay != OV_NONE || tui_too_small();
        if (!paused && (s == FIG_MATCH_READY || s == FIG_MATCH_THINKING)) {
            if (now < t->next_step_at)
                timeout = (int)(t->next_step_at - now);
            else if (s == FIG_MATCH_THINKING)
                fds[nfds++] = (struct pollfd){ .fd = fig_match_fd(t->m), .events = POLLIN };
            else
                timeout = 0;
        }
        bool hinting = fig_hint_busy(t->hint.handle);
        if (hinting)
            fds[nfds++] = (struct pollfd){ .fd = fig_hint_fd(t->hint.handle), .events = POLLIN };
        int n = poll(fds, (nfds_t)nfds, timeout);
        if (n > 0 && hinting && (fds[nfds - 1].revents & POLLIN))
            tui_hint_done(t);
    }
}

/* "Continue your saved game?" before the start screen: 1 continue, 0 a new
 * game, -1 leave (Esc). */
static int ask_continue(const fig_game_t *g, bool utf8)
{
    char about[400];
    tui_saved_summary(g, about, sizeof about);
    timeout(200);
    bool dirty = true;
    for (;;) {
        if (tui_interrupted())
            return -1;
        if (dirty) {
            erase();
            attron(A_REVERSE);
            mvhline(0, 0, ' ', COLS);
            attroff(A_REVERSE);
            tui_put(0, 1, COLS - 2, A_REVERSE | A_BOLD, _("Figaro: your saved game"));
            const char *lines[] = {
                _("Continue your saved game?"),
                about,
                "",
                utf8 ? _("Enter or y: continue it  ·  n: a new game (the saved one is kept in "
                         "the history)  ·  Esc: leave")
                     : _("Enter or y: continue it  -  n: a new game (the saved one is kept in "
                         "the history)  -  Esc: leave"),
            };
            int y = 2;
            for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
                int count;
                char **w = tui_wrap(lines[i], COLS - 8, &count);
                for (int j = 0; j < count; j++)
                    tui_put(y++, 4, COLS - 8, i == 0 ? A_BOLD : 0, w[j]);
                tui_free_lines(w, count);
                if (count == 0)
                    y++;
            }
            refresh();
        }
        wint_t ch;
        int r = get_wch(&ch);
        dirty = r != ERR;
        if (r == ERR || (r == KEY_CODE_YES && ch == KEY_RESIZE))
            continue;
        if (r == KEY_CODE_YES ? ch == KEY_ENTER : (ch == '\n' || ch == '\r' || tui_is_yes(ch)))
            return 1;
        if (r != KEY_CODE_YES && (ch == 'n' || ch == 'N' || tui_is_no(ch)))
            return 0;
        if (r != KEY_CODE_YES && (ch == 27 || ch == 'q'))
            return -1;
    }
}

/* One game, from the start screen or a saved record to the person leaving.
 * Returns 0, or 1 if the game could not start. */
static int run_game(tui_t *t, const fig_game_t *record)
{
    char aside[FIG_STORE_PATH_MAX];
    fig_msg_t err;
    aside[0] = '\0';
    if (tui_match_start(&t->game, &t->opts, record, t->store, t->tr, &t->m, aside, sizeof aside,
                        &err)) {
        snprintf(t->result, sizeof t->result, "figaro play: %s\n", err.text);
        return 1;
    }
    const fig_game_t *g = fig_match_game(t->m);
    t->n = g->setup.players;
    t->me = 0;
    for (int s = 0; s < t->n; s++) {
        snprintf(t->names[s], sizeof t->names[s], "%s", g->names[s]);   /* session.h */
        const char *spec = fig_match_bot_spec(t->m, s);
        snprintf(t->specs[s], sizeof t->specs[s], "%s", spec ? spec : "");
    }
    t->log_round = 1;
    if (record) {
        replay_log(t);
        tui_log(t, "%s", _("The saved game goes on."));
        t->next_step_at = fig_clock_ms() + t->pace_ms;   /* the table first, then the bots */
    } else {
        tui_log(t, "%s", _("A new game: its seed is told when it is over."));
        if (aside[0])
            tui_log(t, _("The unfinished game was filed in the history: %s ('figaro history' "
                         "numbers it; 'figaro play --resume N' continues it)."), aside);
    }
    tui_update_view(t);
    if (fig_game_over(g))
        t->finished = true;
    nodelay(stdscr, TRUE);
    t->dirty = true;
    loop(t);
    if (!t->finished)
        tui_save(t);
    return 0;
}

/* What the terminal says once the screen is gone: the result of a finished
 * game, or how to go on with a saved one. */
static void leave_words(tui_t *t)
{
    size_t len = strlen(t->result);
    if (!t->m)
        return;
    if (!t->finished) {   /* store.h: a game nobody has played in is not kept */
        snprintf(t->result + len, sizeof t->result - len, "%s\n",
                 fig_store_has_current(t->store)
                     ? _("The game is saved: figaro play --resume continues it.")
                     : _("You had not played yet: nothing is saved."));
        return;
    }
    for (int i = t->over_log_start; i < t->nlog; i++)
        fig_putf(t->result, sizeof t->result, &len, "%s\n", t->log[i].text);
}

static void free_game(tui_t *t)
{
    fig_match_free(t->m);
    t->m = NULL;
    for (int i = 0; i < t->nlog; i++)
        free(t->log[i].text);
    free(t->log);
}

/* The terminal for the game: curses on stdin and stdout, or NULL. */
static SCREEN *open_screen(void)
{
    SCREEN *scr = newterm(NULL, stdout, stdin);
    if (scr)
        set_term(scr);
    return scr;
}

/* What the games of one `figaro play` share. */
typedef struct {
    const tui_display_t *display;
    fig_store_t *store;
    const fig_tr_t *tr;
    fig_pool_t *pool;
    fig_hint_t *hint;
    bool utf8;
    char words[sizeof ((tui_t *)0)->result];   /* the last game's, for when the screen is gone */
} session_t;

/* One game: `saved` if given (asked first when saved->ask), else one from the
 * start screen with next's settings, which become the next game's (another
 * deal). Returns the exit status; *again tells whether the person asked for
 * another game. */
static int one_game(session_t *ss, fig_session_opts_t *next, const tui_saved_t *saved,
                    bool *again)
{
    *again = false;
    tui_t *t = calloc(1, sizeof *t);
    if (!t)
        return 1;
    t->opts = *ss->display;
    t->game = *next;
    t->store = ss->store;
    t->tr = ss->tr;
    t->pool = ss->pool;
    t->hint.handle = ss->hint;
    t->utf8 = ss->utf8;
    tui_colours(t);
    const fig_game_t *record = NULL;
    int answer = 0, status = 0;
    if (saved) {
        answer = saved->ask ? ask_continue(saved->record, ss->utf8) : 1;
        if (answer == 1) {
            record = saved->record;
            t->game = saved->game;
            t->opts = saved->display;
        }
    }
    t->pace_ms = t->opts.fast ? 0 : t->opts.pace_ms;
    t->game.pool = ss->pool;
    bool go = answer >= 0 && (record || tui_start_screen(&t->game, ss->utf8));
    if (go)
        status = run_game(t, record);
    if (go && status == 0)
        leave_words(t);
    if (t->result[0])   /* the last game's words, not an empty start screen's */
        snprintf(ss->words, sizeof ss->words, "%s", t->result);
    *again = go && status == 0 && t->again;
    *next = t->game;
    next->has_seed = false;   /* another deal */
    for (int s = 1; s < FIG_MAX_PLAYERS; s++)
        next->seats.seat[s].name[0] = '\0';
    free_game(t);
    free(t);
    return status;
}

int play_tui(const fig_session_opts_t *game, const tui_display_t *display,
             const tui_saved_t *saved, fig_store_t *store, const fig_tr_t *tr)
{
    fig_pool_t *pool;
    fig_hint_t *hint = NULL;
    fig_msg_t pm;
    if (fig_pool_new(&pool, NULL, &pm) != FIG_OK ||
        fig_hint_new(&hint, pool, &pm) != FIG_OK) {
        fprintf(stderr, "figaro play: %s\n", fig_tr_text(tr, pm.text));
        fig_pool_free(pool);
        return 1;
    }
    bool utf8 = tui_utf8();
    SCREEN *scr = open_screen();
    if (!scr) {
        fprintf(stderr, "figaro play: %s\n",
                _("cannot use this terminal for the full-screen game; try figaro play --plain"));
        fig_hint_free(hint);
        fig_pool_free(pool);
        return 1;
    }
    struct sigaction old_sigs[3];
    tui_catch_signals(old_sigs);
    tui_modes(true);
    session_t ss = { display, store, tr, pool, hint, utf8, "" };
    fig_session_opts_t next = *game;   /* the start screen's settings, game after game */
    int status = 0;
    bool again = true;
    for (bool first = true; again; first = false)
        status = one_game(&ss, &next, first ? saved : NULL, &again);
    endwin();
    delscreen(scr);
    tui_restore_signals(old_sigs);
    fputs(ss.words, status ? stderr : stdout);
    fig_hint_free(hint);
    fig_pool_free(pool);   /* waits for the engines' `gameover` and `quit` */
    return status;
}
