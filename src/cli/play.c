/* play.c - `figaro play` and `figaro history`: options, the match set-up both
 * front ends share, and the list of finished games.
 *
 * The person is seat 0; bots are seats 1..N-1. Every bot is seeded from the
 * game seed and its seat, and the deals come from the seed alone (game.h), so
 * a seed and the person's moves give the same game again (time-limited
 * search bots aside: how far they get in their time varies). */
#include <ctype.h>
#include <getopt.h>
#include <stdint.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "host/fep_host.h"
#include "cli/i18n.h"
#include "cli/play.h"
#include "host/store.h"

enum { ENGINE_MOVE_MS = 1000 };   /* time an FEP engine seat gets per move */

/* Opponents' names when none are given: characters of the Barber of Seville. */
static const char *const bot_names[] = { "Rosina", "Bartolo", "Basilio", "Berta", "Fiorello",
                                         "Almaviva" };

const char *play_bot_name(int seat, const char *person)
{
    int k = 0;
    for (size_t i = 0; i < sizeof bot_names / sizeof bot_names[0]; i++) {
        if (person && strcasecmp(bot_names[i], person) == 0)
            continue;
        if (++k == seat)
            return bot_names[i];
    }
    return "Bot";
}

/* A name FGN can hold (a token: no space, no '#', no control character). */
static bool name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > FIG_NAME_MAX)
        return false;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == '#' || *s == 0x7F)
            return false;
    return true;
}

/* A seed from the clock, short enough to type again. */
static uint64_t clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    fig_rng_t r;
    fig_rng_seed_stream(&r, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec,
                        (uint64_t)getpid());
    return fig_rng_next(&r) % 1000000000u;
}

int play_match_start(play_opts_t *o, fig_match_t **out, char *aside, size_t asidecap, char *err,
                     size_t errcap)
{
    fig_match_opts_t mo;
    fig_msg_t msg;
    fig_game_t *rec = NULL;
    memset(&mo, 0, sizeof mo);
    *out = NULL;
    if (aside && asidecap)
        aside[0] = '\0';
    if (o->resume) {
        play_opts_t saved;
        rec = malloc(sizeof *rec);
        int rc = rec ? store_load_current(rec, &saved, err, errcap) : -1;
        if (!rec)
            snprintf(err, errcap, "%s", _("out of memory"));
        else if (rc == 1)
            snprintf(err, errcap, "%s", _("there is no saved game to resume"));
        if (rc) {
            free(rec);
            return EXIT_INPUT;
        }
        o->players = saved.players;
        memcpy(o->name, saved.name, sizeof o->name);
        memcpy(o->levels, saved.levels, sizeof o->levels);
        o->seed = saved.seed;
        o->has_seed = saved.has_seed;
        mo.setup = rec->setup;
    } else {
        if (!o->has_seed) {
            o->seed = clock_seed();
            o->has_seed = true;
        }
        if (store_set_aside(aside, asidecap, err, errcap))
            return EXIT_INPUT;
        fig_setup_random(&mo.setup, o->players, o->seed, NULL);
    }
    mo.has_names = true;
    for (int s = 0; s < o->players; s++) {
        const char *name = s == 0 ? o->name
                         : rec && rec->has_names ? rec->names[s] : play_bot_name(s, o->name);
        snprintf(mo.names[s], sizeof mo.names[s], "%s", name);
    }
    for (int s = 1; s < o->players; s++)
        if (cli_bot_new(&mo.bots[s], o->levels[s],
                        fig_seed_derive(o->seed, 0, 1000 + (uint64_t)s), ENGINE_MOVE_MS,
                        &msg) != FIG_OK) {
            snprintf(err, errcap, _("seat %d (%s): %s"), s, o->levels[s], msg.text);
            for (int t = 1; t < s; t++)
                fig_bot_free(mo.bots[t]);
            free(rec);
            return EXIT_INPUT;
        }
    fig_err_t rc = rec ? fig_match_resume(out, rec, &mo, &msg) : fig_match_new(out, &mo, &msg);
    free(rec);
    if (rc != FIG_OK) {   /* the match has freed the bots */
        snprintf(err, errcap, "%s", msg.text);
        return EXIT_INPUT;
    }
    return EXIT_OK;
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
    for (const char *c = spec; *c; c++)
        if ((unsigned char)*c < ' ' || *c == 0x7F) {
            snprintf(err, errcap, "%s", _("a bot spec cannot hold control characters"));
            return -1;
        }
    fig_bot_t *bot = NULL;
    fig_msg_t msg;
    if (cli_bot_new(&bot, spec, 0, ENGINE_MOVE_MS, &msg) != FIG_OK) {
        snprintf(err, errcap, "%s", msg.text);
        return -1;
    }
    fig_bot_free(bot);
    return 0;
}

static void default_name(char *name, size_t cap)
{
    const char *user = getenv("USER");
    if (user && name_ok(user))
        snprintf(name, cap, "%s", user);
    else
        snprintf(name, cap, "%s", "You");
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
        { "resume", no_argument, NULL, 'r' },
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
    o.players = 4;
    o.pace_ms = 700;
    default_name(o.name, sizeof o.name);
    char specs[FIG_MAX_PLAYERS][64];
    int nspecs = 0;
    const char *level = NULL, *game_opt = NULL;
    bool players_given = false, pace_given = false;
    long long v;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":p:n:b:s:frh", longopts, NULL)) != -1) {
        switch (c) {
        case O_PLAIN: o.plain = true; break;
        case 'p':
            if (cli_parse_int(optarg, FIG_MIN_PLAYERS, FIG_MAX_PLAYERS, &v))
                return cli_usage_error("play", _("--players takes 3 to 6, not '%s'"), optarg);
            o.players = (int)v;
            players_given = true;
            game_opt = "--players";
            break;
        case 'n':
            if (!name_ok(optarg))
                return cli_usage_error("play", _("--name takes 1 to %d bytes without spaces "
                                                 "or '#', not '%s'"), FIG_NAME_MAX, optarg);
            snprintf(o.name, sizeof o.name, "%s", optarg);
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
            if (cli_parse_u64(optarg, &o.seed))
                return cli_usage_error("play", _("--seed takes a whole number from 0 to "
                                                 "18446744073709551615, not '%s'"), optarg);
            o.has_seed = true;
            game_opt = "--seed";
            break;
        case 'f': o.fast = true; break;
        case O_PACE:
            if (cli_parse_int(optarg, 0, 60000, &v))
                return cli_usage_error("play", _("--pace takes milliseconds from 0 to 60000, "
                                                 "not '%s'"), optarg);
            o.pace_ms = (int)v;
            pace_given = true;
            break;
        case O_OPEN: o.open = true; break;
        case 'r': o.resume = true; break;
        case O_LANG:
            if (cli_i18n_init(optarg, err, sizeof err))
                return cli_usage_error("play", "%s", err);
            o.lang = optarg;
            break;
        case O_COLOR: o.color = true; break;
        case 'h': return cli_help("play");
        case ':':
            return cli_usage_error("play", _("option '%s' needs a value"), argv[optind - 1]);
        default:
            return cli_usage_error("play", _("unknown option '%s'"), argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("play", _("unexpected argument '%s'"), argv[optind]);
    if (o.resume && game_opt)
        return cli_usage_error("play", _("--resume continues the saved game as it was: "
                                         "%s cannot change it"), game_opt);
    if (level && nspecs)
        return cli_usage_error("play", "%s", _("give --bots or --level, not both"));
    if (nspecs > 1 && !players_given)   /* one spec alone is for every seat */
        o.players = nspecs + 1;
    if (nspecs > 1 && nspecs != o.players - 1)
        return cli_usage_error("play", _("--bots names %d opponents but %d players need %d"),
                               nspecs, o.players, o.players - 1);
    for (int s = 1; s < o.players; s++) {
        const char *spec = level ? level : nspecs == 1 ? specs[0] : nspecs ? specs[s - 1]
                                                                          : "normal";
        if (strlen(spec) >= sizeof o.levels[s])
            return cli_usage_error("play", _("the bot spec '%s' is longer than %d characters"),
                                   spec, (int)sizeof o.levels[s] - 1);
        snprintf(o.levels[s], sizeof o.levels[s], "%s", spec);
        if (s == 1 || strcmp(o.levels[s], o.levels[s - 1]) != 0)
            if (check_spec(o.levels[s], err, sizeof err))
                return cli_usage_error("play", "%s", err);
    }
    bool in_tty = isatty(STDIN_FILENO), out_tty = isatty(STDOUT_FILENO);
    if (!o.plain && (!in_tty || !out_tty)) {
        fprintf(stderr, "%s\n", _("figaro play: not a terminal, so the game is played as "
                                  "plain lines (--plain)."));
        o.plain = true;
    }
    if (o.resume) {
        fig_game_t *g = malloc(sizeof *g);
        play_opts_t saved;
        int rc = 1;
        if (!g)
            snprintf(err, sizeof err, "%s", _("out of memory"));
        else if ((rc = store_load_current(g, &saved, err, sizeof err)) == 1)
            snprintf(err, sizeof err, "%s", _("there is no saved game to resume"));
        free(g);
        if (rc) {
            fprintf(stderr, "figaro play: %s\n", err);
            if (rc < 0)   /* a damaged save */
                fprintf(stderr, "%s\n", _("Move the file away (or delete it) to start a new "
                                          "game."));
            return EXIT_INPUT;
        }
        o.players = saved.players;
        memcpy(o.name, saved.name, sizeof o.name);
        memcpy(o.levels, saved.levels, sizeof o.levels);
        o.seed = saved.seed;
        o.has_seed = saved.has_seed;
        if (!pace_given)
            o.pace_ms = saved.pace_ms;
        o.open = o.open || saved.open;
        o.color = o.color || saved.color;
    }
    if (o.fast)
        o.pace_ms = 0;
    else if (!pace_given && o.plain && !in_tty)
        o.pace_ms = 0;   /* a script is reading: nobody to pace for */
    o.tr = cli_i18n_tr();
    return o.plain ? play_plain(&o) : play_tui(&o);
}

/* ---- figaro history */

typedef struct {
    bool json;
    int count;
    json_t *list;
} history_t;

static const char *entry_name(const fig_game_t *g, int s, char *buf, size_t cap)
{
    if (g->has_names)
        snprintf(buf, cap, "%s", g->names[s]);
    else
        snprintf(buf, cap, _("seat %d"), s);
    return buf;
}

static int history_entry(void *ctx, const store_entry_t *e)
{
    history_t *h = ctx;
    if (h->count++ == 0 && !h->json)
        printf("%-19s  %s  %-28s  %-12s  %s\n", _("date"), _("N"), _("players"), _("winner"),
               _("file"));
    const fig_game_t *g = e->game;
    int ranking[FIG_MAX_PLAYERS];
    bool over = g && fig_game_over(g);
    if (over)
        fig_state_ranking(&g->state, ranking);
    char name[FIG_NAME_MAX + 16];
    if (h->json) {
        json_t *o = json_object();
        json_object_set_new(o, "file", json_string(e->path));
        json_object_set_new(o, "date", json_string(e->date));
        if (!g) {
            json_object_set_new(o, "error", json_string(e->error));
            json_array_append_new(h->list, o);
            return 0;
        }
        json_object_set_new(o, "players", json_integer(g->setup.players));
        json_t *names = json_array();
        for (int s = 0; s < g->setup.players; s++)
            json_array_append_new(names, json_string(entry_name(g, s, name, sizeof name)));
        json_object_set_new(o, "names", names);
        json_object_set_new(o, "human", e->human >= 0 ? json_integer(e->human) : json_null());
        char seed[24];   /* above 2^63 - 1 a JSON integer would wrap: a string then */
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->setup.seed);
        json_object_set_new(o, "seed", !g->setup.has_seed ? json_null()
                                       : g->setup.seed <= INT64_MAX
                                           ? json_integer((json_int_t)g->setup.seed)
                                           : json_string(seed));
        json_object_set_new(o, "finished", json_boolean(over));
        if (over) {
            json_t *rank = json_array(), *totals = json_array();
            for (int i = 0; i < g->setup.players; i++) {
                json_array_append_new(rank, json_integer(ranking[i]));
                json_array_append_new(totals, json_integer(fig_state_road(&g->state, i)));
            }
            json_object_set_new(o, "ranking", rank);
            json_object_set_new(o, "totals", totals);
            json_object_set_new(o, "winner", json_integer(ranking[0]));
        }
        json_array_append_new(h->list, o);
        return 0;
    }
    if (!g) {
        printf("%s  %s\n", e->date, e->path);
        printf("    %s\n", e->error);
        return 0;
    }
    char names[6 * (FIG_NAME_MAX + 2) + 1] = "";
    for (int s = 0; s < g->setup.players; s++) {
        if (s)
            strcat(names, " ");
        strcat(names, entry_name(g, s, name, sizeof name));
    }
    char winner[FIG_NAME_MAX + 32];
    if (over)
        entry_name(g, ranking[0], winner, sizeof winner);
    else
        snprintf(winner, sizeof winner, "%s", _("(unfinished)"));
    printf("%s  %d  %-28s  %-12s  %s\n", e->date, g->setup.players, names, winner, e->path);
    return 0;
}

int cmd_history(int argc, char **argv)
{
    static const struct option longopts[] = {
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    char err[512];
    cli_i18n_init(NULL, err, sizeof err);
    history_t h = { 0 };
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":jh", longopts, NULL)) != -1) {
        switch (c) {
        case 'j': h.json = true; break;
        case 'h': return cli_help("history");
        default:
            return cli_usage_error("history", _("unknown option '%s'"), argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("history", _("unexpected argument '%s'"), argv[optind]);
    if (h.json)
        h.list = json_array();
    int rc = store_history(history_entry, &h, err, sizeof err);
    if (rc) {
        json_decref(h.list);
        fprintf(stderr, "figaro history: %s\n", err);
        return EXIT_INPUT;
    }
    if (h.json) {
        char *text = json_dumps(h.list, JSON_PRESERVE_ORDER);
        json_decref(h.list);
        if (!text)
            return EXIT_INPUT;
        puts(text);
        free(text);
    } else if (h.count == 0) {
        char dir[STORE_PATH_MAX];
        if (store_dir(dir, sizeof dir, err, sizeof err) == 0)
            printf(_("No games yet: finished games are kept in %s/history.\n"), dir);
    }
    return EXIT_OK;
}
