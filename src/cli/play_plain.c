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
 * input leave it there for `figaro play --resume`. What is printed on request
 * is plain_show.c's, the person's turn plain_turn.c's (plain.h). */
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
#include "cli/plain.h"
#include "cli/play.h"
#include "cli/review.h"

enum { THINK_NOTE_MS = 1500 };   /* a bot thinking longer is said to */

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

static void pace(const plain_t *p)
{
    if (p->o.pace_ms <= 0)
        return;
    fflush(stdout);
    struct timespec ts = { p->o.pace_ms / 1000, (long)(p->o.pace_ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
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
    plain_tell_step(ctx, step, before, after);
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
        if (!plain_read_line(p, &line, &cap))
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
    if (plain_read_line(p, &line, &cap)) {
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
    fig_narrate_init(&p->narr, p->n, 0, p->names, p->tr, plain_narrate_card, say, p);
    if (p->resume)
        rebuild_log(p);
    fig_match_view(p->m, 0, &p->view);
    introduce(p, aside);
    if (fig_game_over(g) && p->log.len) {   /* saved at the very end, before it was filed */
        printf("%s\n", _("The saved game was already over."));
        fputs(p->log.data + p->over_at, stdout);
    }
    plain_autosave(p);
    int rc = PLAIN_TURN_PLAYED;
    while (rc == PLAIN_TURN_PLAYED) {
        fig_match_step_t step;
        while (fig_match_step(p->m, &step)) {
            plain_told(p, &step);
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
        case FIG_MATCH_WAIT_HUMAN: rc = plain_person_turn(p); break;
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
