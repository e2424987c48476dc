/* SPDX-License-Identifier: MIT */
/* play.c - `figaro play`: the options, the store's folder, the game saved
 * there (resumed, or offered first).
 *
 * The person is seat 0; bots are seats 1..N-1. How a game starts, from its
 * seed, is the session's (host/session.h); where it is kept, the store's
 * (host/store.h): this file finds the folder ($XDG_DATA_HOME/figaro) and
 * keeps the terminal's display options (pace, open, colour) in the saved
 * files as the store's front-end lines "pace N", "open 0|1", "color 0|1". */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/play.h"
#include "host/session.h"
#include "host/store.h"
#include "tui/tui.h"

/* An engine's fault, from the match on this thread: one line on standard
 * error, as before the match took the engines off this thread. */
static void tell_fault(void *user, const fig_fault_t *f)
{
    (void)user;
    char text[1024];
    fprintf(stderr, "figaro: %s\n", fig_fault_text(f, cli_i18n_tr(), text, sizeof text));
}

fig_err_t play_open_store(fig_store_t **out, fig_msg_t *msg)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char root[FIG_STORE_PATH_MAX];
    *out = NULL;
    int n;
    if (xdg && xdg[0] == '/')   /* the XDG spec: a relative path is to be ignored */
        n = snprintf(root, sizeof root, "%s/figaro", xdg);
    else if (home && home[0])
        n = snprintf(root, sizeof root, "%s/.local/share/figaro", home);
    else
        return fig_fail(msg, FIG_ERR_INPUT, "%s",
                        _("cannot tell where to save games: set HOME or XDG_DATA_HOME"));
    if (n < 0 || (size_t)n >= sizeof root)
        return fig_fail(msg, FIG_ERR_INPUT, "%s",
                        _("the folder name for saved games is too long"));
    return fig_store_open(out, root, cli_i18n_tr(), msg);
}

/* ---- figaro play */

/* Splits "a,b,ismcts:ms=50,threads=2" into specs: a piece that looks like
 * key=value (an '=' before any ':') continues the spec before it, so
 * ismcts options survive. Returns the number of specs, or -1 with err. */
static int split_bots(const char *list, char specs[][64], int max, char *err, size_t errcap)
{
    int n = 0;
    const char *p = list;
    for (;;) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len), *colon = memchr(p, ':', len);
        bool option = n > 0 && eq && (!colon || eq < colon) && strchr(specs[n - 1], ':');
        if (len == 0) {
            snprintf(err, errcap, "%s", _("--bots: an empty name between commas"));
            return -1;
        }
        if (option) {
            size_t have = strlen(specs[n - 1]);
            if (have + 1 + len >= 64) {
                snprintf(err, errcap, _("--bots: '%s...' is longer than 63 characters"),
                         specs[n - 1]);
                return -1;
            }
            specs[n - 1][have] = ',';
            memcpy(specs[n - 1] + have + 1, p, len);
            specs[n - 1][have + 1 + len] = '\0';
        } else {
            if (n == max) {
                snprintf(err, errcap, _("--bots: at most %d opponents"), max);
                return -1;
            }
            if (len >= 64) {
                snprintf(err, errcap, _("--bots: '%.*s' is longer than 63 characters"),
                         (int)len, p);
                return -1;
            }
            memcpy(specs[n], p, len);
            specs[n][len] = '\0';
            n++;
        }
        if (p[len] == '\0')
            return n;
        p += len + 1;
    }
}

/* Checks that a spec makes a bot (an FEP program is looked up, not started). */
static int check_spec(const char *spec, char *err, size_t errcap)
{
    fig_msg_t msg;
    if (fig_session_check_spec(spec, cli_i18n_tr(), &msg) != FIG_OK) {
        snprintf(err, errcap, "%s", msg.text);
        return -1;
    }
    return 0;
}

/* The person's name when none is known: a noun in their language, never
 * "You" (a name is written in the third person too: "Player starts with the
 * King"). */
static const char *person_name(void)
{
    /* TRANSLATORS: the person's name when $USER is unset: one word, no spaces. */
    const char *name = _("Player");
    return fig_session_name_ok(name) ? name : "Player";
}

static void default_name(char *name, size_t cap)
{
    const char *user = getenv("USER");
    if (user && fig_session_name_ok(user))
        snprintf(name, cap, "%s", user);
    else
        snprintf(name, cap, "%s", person_name());
}

/* A display option saved as a front-end line: "pace N", "open 0|1", "color
 * 0|1". Returns 0 (*v unchanged if the line is absent) or -1 with err. */
static int saved_number(const fig_store_t *store, const char *key, long long max,
                        long long *v, char *err, size_t errcap)
{
    int line;
    const char *text = fig_store_line(store, key, &line);
    if (!text)
        return 0;
    if (cli_parse_int(text, 0, max, v) == 0)
        return 0;
    snprintf(err, errcap, _("%s:%d: '%s' needs a number"), fig_store_current_path(store), line,
             key);
    return -1;
}

/* The saved game for --resume: the record into g, the seat table into o, the
 * saved display options under the command line's. The terminal plays one
 * person, at seat 0. Returns 0, or 1 if nothing is saved, or -1 with err. */
static int load_saved(fig_store_t *store, fig_game_t *g, play_opts_t *o, bool pace_given,
                      char *err, size_t errcap)
{
    fig_msg_t msg;
    bool found;
    if (fig_store_load_current(store, g, &found, &msg) != FIG_OK) {
        snprintf(err, errcap, "%s", msg.text);
        return -1;
    }
    if (!found)
        return 1;
    const fig_seats_t *seats = fig_store_seats(store);
    const char *path = fig_store_current_path(store);
    for (int s = 1; s < seats->players; s++)
        if (!seats->seat[s].bot) {
            snprintf(err, errcap, _("%s: only one seat can be a person"), path);
            return -1;
        }
    if (seats->seat[0].bot) {
        snprintf(err, errcap, _("%s: seat 0 must be the person's"), path);
        return -1;
    }
    long long pace = o->display.pace_ms, open = 0, color = 0;
    if (saved_number(store, "pace", 60000, &pace, err, errcap) ||
        saved_number(store, "open", 60000, &open, err, errcap) ||
        saved_number(store, "color", 60000, &color, err, errcap))
        return -1;
    o->game.seats = *seats;
    if (!o->game.seats.seat[0].name[0])   /* a record without names */
        snprintf(o->game.seats.seat[0].name, sizeof o->game.seats.seat[0].name, "%s",
                 person_name());
    o->game.seed = g->setup.seed;
    o->game.has_seed = g->setup.has_seed;
    if (!pace_given)
        o->display.pace_ms = (int)pace;
    o->display.open = o->display.open || open != 0;
    o->display.color = o->display.color || color != 0;
    return 0;
}

/* The path of game N of the history (numbered from 1, oldest first, as
 * `figaro history` lists them). */
typedef struct {
    int want, seen;
    char path[FIG_STORE_PATH_MAX];
    bool over;       /* that game is finished */
} find_t;

static bool find_entry(void *ctx, const fig_store_entry_t *e)
{
    find_t *f = ctx;
    if (++f->seen != f->want)
        return true;
    snprintf(f->path, sizeof f->path, "%s", e->path);
    f->over = e->game && fig_game_over(e->game);
    return false;
}

/* `--resume N`: game N of the history becomes the game in progress (the one
 * in progress, if any, is set aside) and is read into g and o as load_saved
 * does. Returns 0 or -1 with err. */
static int reopen_saved(fig_store_t *store, long long n, fig_game_t *g, play_opts_t *o,
                        bool pace_given, char *aside, size_t asidecap, char *err,
                        size_t errcap)
{
    find_t f = { .want = (int)n };
    fig_msg_t msg;
    if (fig_store_history(store, find_entry, &f, &msg) != FIG_OK) {
        snprintf(err, errcap, "%s", msg.text);
        return -1;
    }
    if (f.seen < n) {
        snprintf(err, errcap, ngettext("there is no game %lld: 'figaro history' lists %d game",
                                       "there is no game %lld: 'figaro history' lists %d games",
                                       (unsigned long)f.seen),
                 n, f.seen);
        return -1;
    }
    if (f.over) {
        snprintf(err, errcap, _("game %lld is over: 'figaro replay %s' goes through it again"),
                 n, f.path);
        return -1;
    }
    if (fig_store_reopen(store, f.path, g, aside, asidecap, &msg) != FIG_OK) {
        snprintf(err, errcap, "%s", msg.text);
        return -1;
    }
    int rc = load_saved(store, g, o, pace_given, err, errcap);
    return rc == 1 ? -1 : rc;
}

/* What the command line says besides the options it sets: what the checks
 * after the options need. */
typedef struct {
    char specs[FIG_MAX_PLAYERS][64];   /* --bots */
    int nspecs;
    const char *level;                 /* --level */
    const char *game_opt;              /* the last option about the game, for --resume */
    const char *resume_n;              /* --resume N: game N of the history */
    long long game_n;                  /* that N, 0 without one */
    bool players_given, pace_given;
} play_args_t;

enum { O_PLAIN = 256, O_PACE, O_OPEN, O_LANG, O_COLOR, O_LEVEL };

static const struct option play_longopts[] = {
    { "plain", no_argument, NULL, O_PLAIN },
    { "players", required_argument, NULL, 'p' },
    { "name", required_argument, NULL, 'n' },
    { "bots", required_argument, NULL, 'b' },
    { "level", required_argument, NULL, O_LEVEL },
    { "seed", required_argument, NULL, 's' },
    { "fast", no_argument, NULL, 'f' },
    { "pace", required_argument, NULL, O_PACE },
    { "open", no_argument, NULL, O_OPEN },
    { "resume", optional_argument, NULL, 'r' },
    { "lang", required_argument, NULL, O_LANG },
    { "color", no_argument, NULL, O_COLOR },
    { "colour", no_argument, NULL, O_COLOR },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

/* The options about the game (who plays, the seed), which --resume may not
 * change: EXIT_OK, a usage error, or CLI_GO_ON when c is none of them. */
static int game_option(play_opts_t *o, play_args_t *a, int c, const char *arg)
{
    fig_seats_t *seats = &o->game.seats;
    char err[512];
    long long v;
    switch (c) {
    case 'p':
        if (cli_parse_int(arg, FIG_MIN_PLAYERS, FIG_MAX_PLAYERS, &v))
            return cli_usage_error("play", _("--players takes 3 to 6, not '%s'"), arg);
        seats->players = (int)v;
        a->players_given = true;
        a->game_opt = "--players";
        return EXIT_OK;
    case 'n':
        if (!fig_session_name_ok(arg))
            return cli_usage_error("play", _("--name takes 1 to %d bytes without spaces "
                                             "or '#', not '%s'"), FIG_NAME_MAX, arg);
        snprintf(seats->seat[0].name, sizeof seats->seat[0].name, "%s", arg);
        a->game_opt = "--name";
        return EXIT_OK;
    case 'b':
        if ((a->nspecs = split_bots(arg, a->specs, FIG_MAX_PLAYERS - 1, err, sizeof err)) < 0)
            return cli_usage_error("play", "%s", err);
        a->game_opt = "--bots";
        return EXIT_OK;
    case O_LEVEL:
        a->level = arg;
        a->game_opt = "--level";
        return EXIT_OK;
    case 's':
        if (cli_parse_u64(arg, &o->game.seed))
            return cli_usage_error("play", _("--seed takes a whole number from 0 to "
                                             "18446744073709551615, not '%s'"), arg);
        o->game.has_seed = true;
        a->game_opt = "--seed";
        return EXIT_OK;
    }
    return CLI_GO_ON;
}

/* Reads the command line into o and a (defaults first): CLI_GO_ON, or the
 * status to exit with. */
static int read_options(int argc, char **argv, play_opts_t *o, play_args_t *a)
{
    memset(o, 0, sizeof *o);
    memset(a, 0, sizeof *a);
    o->game.on_fault = tell_fault;
    o->game.seats.players = 4;
    tui_display_t *d = &o->display;
    d->pace_ms = 700;
    char err[512];
    long long v;
    int c, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":p:n:b:s:frh", play_longopts, NULL)) != -1) {
        if ((rc = game_option(o, a, c, optarg)) != CLI_GO_ON) {
            if (rc != EXIT_OK)
                return rc;
            continue;
        }
        switch (c) {
        case O_PLAIN: d->plain = true; break;
        case 'f': d->fast = true; break;
        case O_PACE:
            if (cli_parse_int(optarg, 0, 60000, &v))
                return cli_usage_error("play", _("--pace takes milliseconds from 0 to 60000, "
                                                 "not '%s'"), optarg);
            d->pace_ms = (int)v;
            a->pace_given = true;
            break;
        case O_OPEN: d->open = true; break;
        case 'r':
            o->resume = true;
            a->resume_n = optarg;
            break;
        case O_LANG:
            if (cli_i18n_init(optarg, err, sizeof err))
                return cli_usage_error("play", "%s", err);
            d->lang = optarg;
            break;
        case O_COLOR: d->color = true; break;
        case 'h': return cli_help("play");
        case ':':
            return cli_usage_error("play", _("option '%s' needs a value"), argv[optind - 1]);
        default:
            return cli_usage_error("play", _("unknown option '%s'"), argv[optind - 1]);
        }
    }
    fig_seat_t *you = &o->game.seats.seat[0];
    if (!you->name[0])   /* after --lang: a default name in its language */
        default_name(you->name, sizeof you->name);
    if (o->resume && !a->resume_n && optind + 1 == argc)   /* --resume N, as well as --resume=N */
        a->resume_n = argv[optind++];
    if (optind != argc)
        return cli_usage_error("play", _("unexpected argument '%s'"), argv[optind]);
    return CLI_GO_ON;
}

/* The options together, and the bots' seats from --bots or --level:
 * CLI_GO_ON or a usage error. */
static int check_options(play_opts_t *o, play_args_t *a)
{
    fig_seats_t *seats = &o->game.seats;
    const tui_display_t *d = &o->display;
    if (a->resume_n && cli_parse_int(a->resume_n, 1, 1000000, &a->game_n))
        return cli_usage_error("play", _("--resume takes the number of a game that 'figaro "
                                         "history' lists, not '%s'"), a->resume_n);
    if (o->resume && a->game_opt)
        return cli_usage_error("play", _("--resume continues the saved game as it was: "
                                         "%s cannot change it"), a->game_opt);
    if (a->level && a->nspecs)
        return cli_usage_error("play", "%s", _("give --bots or --level, not both"));
    if (d->fast && a->pace_given)   /* --fast is --pace 0: two answers to one question */
        return cli_usage_error("play", "%s", _("give --fast or --pace, not both"));
    if (a->nspecs > 1 && !a->players_given)   /* one spec alone is for every seat */
        seats->players = a->nspecs + 1;
    if (a->nspecs > 1 && a->nspecs != seats->players - 1)
        return cli_usage_error("play", _("--bots names %d opponents but %d players need %d"),
                               a->nspecs, seats->players, seats->players - 1);
    char err[512];
    for (int s = 1; s < seats->players; s++) {
        const char *spec = a->level ? a->level : a->nspecs == 1 ? a->specs[0]
                         : a->nspecs ? a->specs[s - 1] : FIG_BOT_LEVEL_DEFAULT;
        fig_seat_t *st = &seats->seat[s];
        if (strlen(spec) >= sizeof st->spec)
            return cli_usage_error("play", _("the bot spec '%s' is longer than %d characters"),
                                   spec, (int)sizeof st->spec - 1);
        st->bot = true;
        snprintf(st->spec, sizeof st->spec, "%s", spec);
        if (s == 1 || strcmp(st->spec, seats->seat[s - 1].spec) != 0)
            if (check_spec(st->spec, err, sizeof err))
                return cli_usage_error("play", "%s", err);
    }
    return CLI_GO_ON;
}

/* --resume [N]: the saved game, or game N of the history, into *saved (the
 * caller frees it) and offer, to go on with. EXIT_OK, or EXIT_INPUT once
 * said why not. */
static int resume_saved(fig_store_t *store, play_opts_t *o, const play_args_t *a,
                        fig_game_t **saved, tui_saved_t *offer)
{
    char err[512], aside[FIG_STORE_PATH_MAX] = "";
    int rc = 1;
    if (!(*saved = malloc(sizeof **saved)))
        snprintf(err, sizeof err, "%s", _("out of memory"));
    else if (a->game_n)
        rc = reopen_saved(store, a->game_n, *saved, o, a->pace_given, aside, sizeof aside, err,
                          sizeof err);
    else if ((rc = load_saved(store, *saved, o, a->pace_given, err, sizeof err)) == 1)
        snprintf(err, sizeof err, "%s", _("there is no saved game to resume ('figaro "
                                          "history' lists the unfinished ones: 'figaro "
                                          "play --resume N')"));
    if (rc) {
        fprintf(stderr, "figaro play: %s\n", err);
        if (rc < 0 && !a->game_n)   /* a damaged save */
            fprintf(stderr, "%s\n", _("Move the file away (or delete it) to start a new "
                                      "game."));
        return EXIT_INPUT;
    }
    if (aside[0])
        printf(_("The game you had in progress is kept in the history: %s\n"), aside);
    offer->record = *saved;
    offer->game = o->game;
    offer->display = o->display;
    return EXIT_OK;
}

/* A saved game without --resume: a plain `figaro play` offers it first; a
 * new game (--seed, --bots...) sets it aside in the history. A damaged one
 * stops both, untouched: filed away, it could never be resumed. The game
 * goes into *saved (the caller frees it) and offer; EXIT_OK, or EXIT_INPUT
 * once said why not. */
static int offer_saved(fig_store_t *store, const play_opts_t *o, const play_args_t *a,
                       fig_game_t **saved, tui_saved_t *offer)
{
    char err[512];
    play_opts_t s = *o;
    int rc = -1;
    if (!(*saved = malloc(sizeof **saved)))
        snprintf(err, sizeof err, "%s", _("out of memory"));
    else
        rc = load_saved(store, *saved, &s, a->pace_given, err, sizeof err);
    if (rc < 0) {
        fprintf(stderr, "figaro play: %s\n", err);
        fprintf(stderr, "%s\n", _("Move the file away (or delete it) to start a new "
                                  "game."));
        return EXIT_INPUT;
    }
    if (rc == 0 && !a->game_opt) {
        offer->record = *saved;
        offer->game = s.game;
        offer->display = s.display;
        offer->ask = true;
    }
    return EXIT_OK;
}

/* Plays in the store's folder: the game of o, or the one saved there. */
static int play(play_opts_t *o, const play_args_t *a, bool in_tty)
{
    tui_display_t *d = &o->display;
    fig_store_t *store;
    fig_msg_t msg;
    if (play_open_store(&store, &msg) != FIG_OK) {
        fprintf(stderr, "figaro play: %s\n", msg.text);
        return EXIT_INPUT;
    }
    fig_game_t *saved = NULL;
    tui_saved_t offer;
    memset(&offer, 0, sizeof offer);
    int rc = EXIT_OK;
    if (o->resume)
        rc = resume_saved(store, o, a, &saved, &offer);
    else if (fig_store_has_current(store))
        rc = offer_saved(store, o, a, &saved, &offer);
    if (rc == EXIT_OK) {
        for (int i = 0; i < 2; i++) {
            tui_display_t *di = i ? &offer.display : d;
            if (d->fast)
                di->pace_ms = 0;
            else if (!a->pace_given && d->plain && !in_tty)
                di->pace_ms = 0;   /* a script is reading: nobody to pace for */
            di->plain = d->plain;
        }
        if (d->plain)
            rc = play_plain(o, offer.record ? &offer : NULL, store, cli_i18n_tr());
        else
            rc = play_tui(&o->game, d, offer.record ? &offer : NULL, store, cli_i18n_tr());
    }
    free(saved);
    fig_store_free(store);
    return rc;
}

int cmd_play(int argc, char **argv)
{
    char err[512];
    cli_i18n_init(NULL, err, sizeof err);
    play_opts_t o;
    play_args_t a;
    int status = read_options(argc, argv, &o, &a);
    if (status == CLI_GO_ON)
        status = check_options(&o, &a);
    if (status != CLI_GO_ON)
        return status;
    bool in_tty = isatty(STDIN_FILENO), out_tty = isatty(STDOUT_FILENO);
    if (!o.display.plain && (!in_tty || !out_tty)) {
        fprintf(stderr, "%s\n", _("figaro play: not a terminal, so the game is played as "
                                  "plain lines (--plain)."));
        o.display.plain = true;
    }
    return play(&o, &a, in_tty);
}
