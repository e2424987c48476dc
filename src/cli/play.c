/* SPDX-License-Identifier: MIT */
/* play.c - `figaro play` and `figaro history`: the options, the store's
 * folder, and the list of finished games.
 *
 * The person is seat 0; bots are seats 1..N-1. How a game starts, from its
 * seed, is the session's (host/session.h); where it is kept, the store's
 * (host/store.h): this file finds the folder ($XDG_DATA_HOME/figaro) and
 * keeps the terminal's display options (pace, open, colour) in the saved
 * files as the store's front-end lines "pace N", "open 0|1", "color 0|1". */
#include <ctype.h>
#include <getopt.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/play.h"
#include "host/session.h"
#include "host/store.h"
#include "host/util.h"
#include "tui/tui.h"

/* An engine's fault, from the match on this thread: one line on standard
 * error, as before the match took the engines off this thread. */
static void tell_fault(void *user, const fig_fault_t *f)
{
    (void)user;
    char text[1024];
    fprintf(stderr, "figaro: %s\n", fig_fault_text(f, cli_i18n_tr(), text, sizeof text));
}

/* Opens the store on $XDG_DATA_HOME/figaro, or ~/.local/share/figaro. */
static fig_err_t open_store(fig_store_t **out, fig_msg_t *msg)
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

int cmd_play(int argc, char **argv)
{
    enum { O_PLAIN = 256, O_PACE, O_OPEN, O_LANG, O_COLOR, O_LEVEL };
    static const struct option longopts[] = {
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
    char err[512];
    cli_i18n_init(NULL, err, sizeof err);
    play_opts_t o;
    memset(&o, 0, sizeof o);
    fig_seats_t *seats = &o.game.seats;
    o.game.on_fault = tell_fault;
    tui_display_t *d = &o.display;
    seats->players = 4;
    d->pace_ms = 700;
    char specs[FIG_MAX_PLAYERS][64];
    int nspecs = 0;
    const char *level = NULL, *game_opt = NULL;
    bool players_given = false, pace_given = false;
    const char *resume_n = NULL;   /* --resume N: game N of the history */
    long long v;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":p:n:b:s:frh", longopts, NULL)) != -1) {
        switch (c) {
        case O_PLAIN: d->plain = true; break;
        case 'p':
            if (cli_parse_int(optarg, FIG_MIN_PLAYERS, FIG_MAX_PLAYERS, &v))
                return cli_usage_error("play", _("--players takes 3 to 6, not '%s'"), optarg);
            seats->players = (int)v;
            players_given = true;
            game_opt = "--players";
            break;
        case 'n':
            if (!fig_session_name_ok(optarg))
                return cli_usage_error("play", _("--name takes 1 to %d bytes without spaces "
                                                 "or '#', not '%s'"), FIG_NAME_MAX, optarg);
            snprintf(seats->seat[0].name, sizeof seats->seat[0].name, "%s", optarg);
            game_opt = "--name";
            break;
        case 'b':
            if ((nspecs = split_bots(optarg, specs, FIG_MAX_PLAYERS - 1, err, sizeof err)) < 0)
                return cli_usage_error("play", "%s", err);
            game_opt = "--bots";
            break;
        case O_LEVEL:
            level = optarg;
            game_opt = "--level";
            break;
        case 's':
            if (cli_parse_u64(optarg, &o.game.seed))
                return cli_usage_error("play", _("--seed takes a whole number from 0 to "
                                                 "18446744073709551615, not '%s'"), optarg);
            o.game.has_seed = true;
            game_opt = "--seed";
            break;
        case 'f': d->fast = true; break;
        case O_PACE:
            if (cli_parse_int(optarg, 0, 60000, &v))
                return cli_usage_error("play", _("--pace takes milliseconds from 0 to 60000, "
                                                 "not '%s'"), optarg);
            d->pace_ms = (int)v;
            pace_given = true;
            break;
        case O_OPEN: d->open = true; break;
        case 'r':
            o.resume = true;
            resume_n = optarg;
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
    if (!seats->seat[0].name[0])   /* after --lang: a default name in its language */
        default_name(seats->seat[0].name, sizeof seats->seat[0].name);
    if (o.resume && !resume_n && optind + 1 == argc)   /* --resume N, as well as --resume=N */
        resume_n = argv[optind++];
    if (optind != argc)
        return cli_usage_error("play", _("unexpected argument '%s'"), argv[optind]);
    long long game_n = 0;
    if (resume_n && cli_parse_int(resume_n, 1, 1000000, &game_n))
        return cli_usage_error("play", _("--resume takes the number of a game that 'figaro "
                                         "history' lists, not '%s'"), resume_n);
    if (o.resume && game_opt)
        return cli_usage_error("play", _("--resume continues the saved game as it was: "
                                         "%s cannot change it"), game_opt);
    if (level && nspecs)
        return cli_usage_error("play", "%s", _("give --bots or --level, not both"));
    if (d->fast && pace_given)   /* --fast is --pace 0: two answers to one question */
        return cli_usage_error("play", "%s", _("give --fast or --pace, not both"));
    if (nspecs > 1 && !players_given)   /* one spec alone is for every seat */
        seats->players = nspecs + 1;
    if (nspecs > 1 && nspecs != seats->players - 1)
        return cli_usage_error("play", _("--bots names %d opponents but %d players need %d"),
                               nspecs, seats->players, seats->players - 1);
    for (int s = 1; s < seats->players; s++) {
        const char *spec = level ? level : nspecs == 1 ? specs[0] : nspecs ? specs[s - 1]
                                                                          : FIG_BOT_LEVEL_DEFAULT;
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
    bool in_tty = isatty(STDIN_FILENO), out_tty = isatty(STDOUT_FILENO);
    if (!d->plain && (!in_tty || !out_tty)) {
        fprintf(stderr, "%s\n", _("figaro play: not a terminal, so the game is played as "
                                  "plain lines (--plain)."));
        d->plain = true;
    }
    fig_store_t *store;
    fig_msg_t msg;
    if (open_store(&store, &msg) != FIG_OK) {
        fprintf(stderr, "figaro play: %s\n", msg.text);
        return EXIT_INPUT;
    }
    fig_game_t *saved = NULL;
    tui_saved_t offer;
    memset(&offer, 0, sizeof offer);
    char aside[FIG_STORE_PATH_MAX] = "";
    if (o.resume) {
        int rc = 1;
        if (!(saved = malloc(sizeof *saved)))
            snprintf(err, sizeof err, "%s", _("out of memory"));
        else if (game_n)
            rc = reopen_saved(store, game_n, saved, &o, pace_given, aside, sizeof aside, err,
                              sizeof err);
        else if ((rc = load_saved(store, saved, &o, pace_given, err, sizeof err)) == 1)
            snprintf(err, sizeof err, "%s", _("there is no saved game to resume ('figaro "
                                              "history' lists the unfinished ones: 'figaro "
                                              "play --resume N')"));
        if (rc) {
            fprintf(stderr, "figaro play: %s\n", err);
            if (rc < 0 && !game_n)   /* a damaged save */
                fprintf(stderr, "%s\n", _("Move the file away (or delete it) to start a new "
                                          "game."));
            free(saved);
            fig_store_free(store);
            return EXIT_INPUT;
        }
        if (aside[0])
            printf(_("The game you had in progress is kept in the history: %s\n"), aside);
        offer.record = saved;
        offer.game = o.game;
        offer.display = o.display;
    } else if (fig_store_has_current(store)) {
        /* a saved game: a plain `figaro play` offers it first; a new game
         * (--seed, --bots...) sets it aside in the history. A damaged one
         * stops both, untouched: filed away, it could never be resumed. */
        play_opts_t s = o;
        int rc = -1;
        if (!(saved = malloc(sizeof *saved)))
            snprintf(err, sizeof err, "%s", _("out of memory"));
        else
            rc = load_saved(store, saved, &s, pace_given, err, sizeof err);
        if (rc < 0) {
            fprintf(stderr, "figaro play: %s\n", err);
            fprintf(stderr, "%s\n", _("Move the file away (or delete it) to start a new "
                                      "game."));
            free(saved);
            fig_store_free(store);
            return EXIT_INPUT;
        }
        if (rc == 0 && !game_opt) {
            offer.record = saved;
            offer.game = s.game;
            offer.display = s.display;
            offer.ask = true;
        }
    }
    for (int i = 0; i < 2; i++) {
        tui_display_t *di = i ? &offer.display : d;
        if (d->fast)
            di->pace_ms = 0;
        else if (!pace_given && d->plain && !in_tty)
            di->pace_ms = 0;   /* a script is reading: nobody to pace for */
        di->plain = d->plain;
    }
    int rc;
    if (d->plain)
        rc = play_plain(&o, offer.record ? &offer : NULL, store, cli_i18n_tr());
    else
        rc = play_tui(&o.game, d, offer.record ? &offer : NULL, store, cli_i18n_tr());
    free(saved);
    fig_store_free(store);
    return rc;
}

/* ---- figaro history */

/* One line of the text listing, kept until every width is known. */
typedef struct {
    char date[20];
    char players[6 * (FIG_NAME_MAX + 1) + 1];
    char place[48];
    char winner[FIG_NAME_MAX + 48];
    char *path;
    char *error;        /* a file that could not be read: why */
} row_t;

typedef struct {
    bool json;
    int count;
    json_t *list;
    row_t *rows;
    int nrows, caprows;
    bool unfinished;    /* some game can be resumed */
} history_t;

static const char *entry_name(const fig_game_t *g, int s, char *buf, size_t cap)
{
    if (g->has_names)
        snprintf(buf, cap, "%s", g->names[s]);
    else
        snprintf(buf, cap, _("seat %d"), s);
    return buf;
}

/* The person's seat of a saved game: the first person's, or -1. */
static int person_seat(const fig_store_entry_t *e)
{
    if (e->header)
        for (int s = 0; s < e->header->seats.players; s++)
            if (!e->header->seats.seat[s].bot)
                return s;
    return -1;
}

static bool history_json(history_t *h, const fig_store_entry_t *e, const int ranking[])
{
    const fig_game_t *g = e->game;
    char name[FIG_NAME_MAX + 16];
    json_t *o = json_object();
    json_object_set_new(o, "number", json_integer(h->count));
    json_object_set_new(o, "file", json_string(e->path));
    json_object_set_new(o, "date", json_string(e->date));
    if (!g) {
        json_object_set_new(o, "error", json_string(e->error));
        json_array_append_new(h->list, o);
        return true;
    }
    bool over = fig_game_over(g);
    json_object_set_new(o, "players", json_integer(g->setup.players));
    json_t *names = json_array();
    for (int s = 0; s < g->setup.players; s++)
        json_array_append_new(names, json_string(entry_name(g, s, name, sizeof name)));
    json_object_set_new(o, "names", names);
    int human = person_seat(e);
    json_object_set_new(o, "human", human >= 0 ? json_integer(human) : json_null());
    char seed[24];   /* above 2^63 - 1 a JSON integer would wrap: a string then */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->setup.seed);
    json_object_set_new(o, "seed", !g->setup.has_seed || e->sealed ? json_null()   /* secret */
                                   : g->setup.seed <= INT64_MAX
                                       ? json_integer((json_int_t)g->setup.seed)
                                       : json_string(seed));
    json_object_set_new(o, "finished", json_boolean(over));
    if (over) {
        json_t *rank = json_array(), *totals = json_array();
        int place = 0;
        for (int i = 0; i < g->setup.players; i++) {
            json_array_append_new(rank, json_integer(ranking[i]));
            json_array_append_new(totals, json_integer(fig_state_road(&g->state, i)));
            if (ranking[i] == human)
                place = i + 1;
        }
        json_object_set_new(o, "ranking", rank);
        json_object_set_new(o, "totals", totals);
        json_object_set_new(o, "winner", json_integer(ranking[0]));
        json_object_set_new(o, "place", place ? json_integer(place) : json_null());
    }
    json_array_append_new(h->list, o);
    return true;
}

static bool history_entry(void *ctx, const fig_store_entry_t *e)
{
    history_t *h = ctx;
    h->count++;
    const fig_game_t *g = e->game;
    int ranking[FIG_MAX_PLAYERS];
    bool over = g && fig_game_over(g);
    if (over)
        fig_state_ranking(&g->state, ranking);
    if (h->json)
        return history_json(h, e, ranking);
    if (h->nrows == h->caprows) {
        int cap = h->caprows ? h->caprows * 2 : 32;
        row_t *grown = realloc(h->rows, (size_t)cap * sizeof *grown);
        if (!grown)
            return false;
        h->rows = grown;
        h->caprows = cap;
    }
    row_t *r = &h->rows[h->nrows];
    memset(r, 0, sizeof *r);
    snprintf(r->date, sizeof r->date, "%.16s", e->date);   /* to the minute */
    if (!(r->path = strdup(e->path)) || (!g && !(r->error = strdup(e->error)))) {
        free(r->path);
        return false;
    }
    h->nrows++;
    if (!g)
        return true;
    char name[FIG_NAME_MAX + 16];
    size_t len = 0;
    r->players[0] = '\0';
    for (int s = 0; s < g->setup.players; s++)
        fig_putf(r->players, sizeof r->players, &len, "%s%s", s ? " " : "",
                 entry_name(g, s, name, sizeof name));
    int human = person_seat(e);
    if (over) {
        entry_name(g, ranking[0], r->winner, sizeof r->winner);
        for (int i = 0; i < g->setup.players; i++)
            if (ranking[i] == human)
                /* TRANSLATORS: your place in a finished game, e.g. "2 of 4". */
                snprintf(r->place, sizeof r->place, _("%d of %d"), i + 1, g->setup.players);
    } else {
        snprintf(r->winner, sizeof r->winner, "%s", _("(unfinished)"));
        h->unfinished = true;
    }
    if (!r->place[0])
        snprintf(r->place, sizeof r->place, "-");
    return true;
}

/* Pads s with spaces to `width` columns (characters, not bytes). */
static void print_cell(const char *s, int width, bool last)
{
    int cols = 0;
    for (const char *p = s; *p; p++)
        cols += ((unsigned char)*p & 0xC0) != 0x80;
    fputs(s, stdout);
    if (!last)
        printf("%*s", width - cols + 2, "");
}

static int cell_width(const char *s)
{
    int cols = 0;
    for (const char *p = s; *p; p++)
        cols += ((unsigned char)*p & 0xC0) != 0x80;
    return cols;
}

/* The listing: a number per game (for --resume N), columns as wide as their
 * widest cell. */
static void history_print(const history_t *h)
{
    const char *head[6] = { "#", _("date"), _("players"), _("your place"), _("winner"),
                            _("file") };
    int w[6] = { 0 };
    for (int c = 0; c < 6; c++)
        w[c] = cell_width(head[c]);
    for (int i = 0; i < h->nrows; i++) {
        const row_t *r = &h->rows[i];
        char num[16];
        snprintf(num, sizeof num, "%d", i + 1);
        const char *cell[5] = { num, r->date, r->players, r->place, r->winner };
        for (int c = 0; c < 5; c++)
            if (cell_width(cell[c]) > w[c])
                w[c] = cell_width(cell[c]);
    }
    printf("%*s  ", w[0], head[0]);
    for (int c = 1; c < 6; c++)
        print_cell(head[c], w[c], c == 5);
    printf("\n");
    for (int i = 0; i < h->nrows; i++) {
        const row_t *r = &h->rows[i];
        printf("%*d  ", w[0], i + 1);
        if (r->error) {
            print_cell(r->date, w[1], false);
            printf("%s\n%*s  %s\n", r->path, w[0], "", r->error);
            continue;
        }
        const char *cell[6] = { NULL, r->date, r->players, r->place, r->winner, r->path };
        for (int c = 1; c < 6; c++)
            print_cell(cell[c], w[c], c == 5);
        printf("\n");
    }
    if (h->unfinished)
        printf("\n%s\n", _("'figaro play --resume N' continues the unfinished game number N."));
}

/* --delete N and --prune: each file is removed as the walk meets it (the
 * walk listed the folder first, so removing one does not disturb it). */
typedef struct {
    const fig_store_t *store;
    int want;        /* --delete N; 0: --prune */
    int seen, removed;
    bool failed;
} cull_t;

static bool cull_entry(void *ctx, const fig_store_entry_t *e)
{
    cull_t *k = ctx;
    k->seen++;
    bool take = k->want ? k->seen == k->want
                        : e->game && e->header && !fig_game_over(e->game) &&
                              !fig_store_worth_keeping(e->game, &e->header->seats);
    if (!take)
        return true;
    fig_msg_t msg;
    if (fig_store_remove(k->store, e->path, &msg) != FIG_OK) {
        fprintf(stderr, "figaro history: %s\n", msg.text);
        k->failed = true;
        return false;
    }
    printf(_("Deleted %s\n"), e->path);
    k->removed++;
    return !k->want;
}

/* `figaro history --delete N` or `--prune`. */
static int history_cull(fig_store_t *store, long long n)
{
    cull_t k = { .store = store, .want = (int)n };
    fig_msg_t msg;
    if (fig_store_history(store, cull_entry, &k, &msg) != FIG_OK) {
        fprintf(stderr, "figaro history: %s\n", msg.text);
        return EXIT_INPUT;
    }
    if (k.failed)
        return EXIT_INPUT;
    if (n && k.removed == 0) {
        fprintf(stderr, "figaro history: ");
        fprintf(stderr, ngettext("there is no game %lld: 'figaro history' lists %d game",
                                 "there is no game %lld: 'figaro history' lists %d games",
                                 (unsigned long)k.seen), n, k.seen);
        fprintf(stderr, "\n");
        return EXIT_INPUT;
    }
    if (!n)
        printf(ngettext("%d unfinished game in which you had not played was deleted.\n",
                        "%d unfinished games in which you had not played were deleted.\n",
                        (unsigned long)k.removed), k.removed);
    return EXIT_OK;
}

int cmd_history(int argc, char **argv)
{
    enum { O_DELETE = 256, O_PRUNE };
    static const struct option longopts[] = {
        { "json", no_argument, NULL, 'j' },
        { "delete", required_argument, NULL, O_DELETE },
        { "prune", no_argument, NULL, O_PRUNE },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    char err[512];
    cli_i18n_init(NULL, err, sizeof err);
    history_t h = { 0 };
    long long delete_n = 0;
    bool prune = false;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":jh", longopts, NULL)) != -1) {
        switch (c) {
        case 'j': h.json = true; break;
        case O_DELETE:
            if (cli_parse_int(optarg, 1, 1000000, &delete_n))
                return cli_usage_error("history", _("--delete takes the number of a game that "
                                                    "'figaro history' lists, not '%s'"), optarg);
            break;
        case O_PRUNE: prune = true; break;
        case 'h': return cli_help("history");
        case ':':
            return cli_usage_error("history", _("option '%s' needs a value"), argv[optind - 1]);
        default:
            return cli_usage_error("history", _("unknown option '%s'"), argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("history", _("unexpected argument '%s'"), argv[optind]);
    if ((delete_n || prune) && (h.json || (delete_n && prune)))
        return cli_usage_error("history", "%s", _("give one of --json, --delete N and --prune"));
    fig_store_t *store;
    fig_msg_t msg;
    if (open_store(&store, &msg) != FIG_OK) {
        fprintf(stderr, "figaro history: %s\n", msg.text);
        return EXIT_INPUT;
    }
    if (delete_n || prune) {
        int status = history_cull(store, delete_n);
        fig_store_free(store);
        return status;
    }
    if (h.json)
        h.list = json_array();
    if (fig_store_history(store, history_entry, &h, &msg) != FIG_OK) {
        json_decref(h.list);
        fig_store_free(store);
        fprintf(stderr, "figaro history: %s\n", msg.text);
        return EXIT_INPUT;
    }
    if (h.json) {
        char *text = json_dumps(h.list, JSON_PRESERVE_ORDER);
        json_decref(h.list);
        fig_store_free(store);
        if (!text)
            return EXIT_INPUT;
        puts(text);
        free(text);
    } else {
        if (h.count == 0)
            printf(_("No games yet: finished games are kept in %s/history.\n"),
                   fig_store_root(store));
        else
            history_print(&h);
        if (fig_store_has_current(store))
            printf("%s\n", _("A game is in progress: 'figaro play --resume' continues it."));
        fig_store_free(store);
    }
    for (int i = 0; i < h.nrows; i++) {
        free(h.rows[i].path);
        free(h.rows[i].error);
    }
    free(h.rows);
    return EXIT_OK;
}
