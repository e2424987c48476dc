/* SPDX-License-Identifier: MIT */
/* rate.c - `figaro rate`: the ratings (host/rating.h) after a series of games
 * read as finishing orders (host/rating_text.h), printed as JSON. The same
 * games in the same order give the same numbers, so a program outside figaro
 * can check a server's ratings, and the tests check the update against a
 * second implementation (tests/python/test_rating.py). */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "figaro/bot.h"
#include "host/rating.h"
#include "host/rating_text.h"

typedef struct {
    char name[FIG_RATING_NAME_MAX + 1];
    fig_rating_t r;
    long games;
    int level;   /* the bot level it stands for (--levels), or -1 */
} player_t;

/* The players by name: an array in the order they first appear, and an open
 * addressing index into it (a power of two, at most half full). */
typedef struct {
    player_t *p;
    size_t n, cap;
    size_t *slot;   /* index + 1, 0 = empty */
    size_t nslot;
    bool levels;
} table_t;

static size_t hash(const char *s)
{
    size_t h = 14695981039346656037u;   /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static int grow_index(table_t *t)
{
    size_t nslot = t->nslot ? t->nslot * 2 : 64;
    size_t *slot = calloc(nslot, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        size_t k = hash(t->p[i].name) & (nslot - 1);
        while (slot[k])
            k = (k + 1) & (nslot - 1);
        slot[k] = i + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->nslot = nslot;
    return 0;
}

/* The player of that name, added with a new rating (or its level's) if it is
 * not there; NULL when out of memory. */
static player_t *find(table_t *t, const char *name)
{
    if (2 * (t->n + 1) > t->nslot && grow_index(t))
        return NULL;
    size_t k = hash(name) & (t->nslot - 1);
    for (; t->slot[k]; k = (k + 1) & (t->nslot - 1))
        if (strcmp(t->p[t->slot[k] - 1].name, name) == 0)
            return &t->p[t->slot[k] - 1];
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        player_t *p = realloc(t->p, cap * sizeof *p);
        if (!p)
            return NULL;
        t->p = p;
        t->cap = cap;
    }
    player_t *q = &t->p[t->n];
    strcpy(q->name, name);
    q->r = fig_rating_initial();
    q->games = 0;
    q->level = t->levels ? fig_bot_level_index(name) : -1;
    if (q->level >= 0)
        q->r = fig_rating_level(q->level);
    t->slot[k] = ++t->n;
    return q;
}

/* Rates every game of one file's text; prints "figaro rate: FILE:LINE: why"
 * and returns EXIT_INPUT at the first bad line. */
static int rate_text(table_t *t, const char *path, const char *data, size_t len, long *games)
{
    size_t line_no = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(data + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - data) : len;
        line_no++;
        fig_rating_game_t g;
        fig_msg_t msg = { "", 0 };
        if (fig_rating_game_parse(data + at, end - at, &g, &msg) == FIG_OK && g.n > 0) {
            fig_rating_seat_t seat[FIG_MAX_PLAYERS];
            player_t *who[FIG_MAX_PLAYERS];
            for (int i = 0; i < g.n; i++) {
                who[i] = find(t, g.name[i]);
                if (!who[i]) {
                    fprintf(stderr, "figaro rate: out of memory\n");
                    return EXIT_INPUT;
                }
                seat[i] = (fig_rating_seat_t){ who[i]->r, g.rank[i], who[i]->level >= 0 };
            }
            fig_rating_t out[FIG_MAX_PLAYERS];
            if (fig_rating_update(seat, g.n, out, &msg) == FIG_OK) {
                for (int i = 0; i < g.n; i++) {
                    who[i]->r = out[i];
                    who[i]->games++;
                }
                ++*games;
                msg.text[0] = '\0';
            }
        }
        if (msg.text[0]) {
            fprintf(stderr, "figaro rate: %s:%zu: %s\n", path, line_no, msg.text);
            return EXIT_INPUT;
        }
        if (!nl)
            break;
        at = end + 1;
    }
    return EXIT_OK;
}

/* Prints a JSON value on stdout (17 digits: the exact double); -1 if out of
 * memory. Takes the value. */
static int put_json(json_t *v)
{
    char *text = v ? json_dumps(v, JSON_PRESERVE_ORDER | JSON_ENCODE_ANY |
                                       JSON_REAL_PRECISION(17)) : NULL;
    json_decref(v);
    if (!text)
        return -1;
    fputs(text, stdout);
    free(text);
    return 0;
}

/* One JSON object, a player a line (readable, and still one value):
 * {"model": {...}, "games": N, "players": [
 *  {"name": ..., "mu": ..., ...},
 *  ...]} */
static int print(const table_t *t, long games)
{
    json_t *model = json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "name",
                              "weng-lin-plackett-luce", "mu0", FIG_RATING_MU0, "sigma0",
                              FIG_RATING_SIGMA0, "beta", FIG_RATING_BETA, "kappa",
                              FIG_RATING_KAPPA, "tau", FIG_RATING_TAU);
    fputs("{\"model\": ", stdout);
    if (put_json(model))
        goto oom;
    printf(", \"games\": %ld, \"players\": [", games);
    for (size_t i = 0; i < t->n; i++) {
        const player_t *p = &t->p[i];
        json_t *level = p->level >= 0 ? json_string(fig_bot_level_name(p->level)) : json_null();
        int below, above;
        fig_rating_between(p->r.mu, &below, &above);
        json_t *between = json_pack("[o, o]",
                                    below >= 0 ? json_string(fig_bot_level_name(below))
                                               : json_null(),
                                    above >= 0 ? json_string(fig_bot_level_name(above))
                                               : json_null());
        fputs(i ? ",\n " : "\n ", stdout);
        if (put_json(json_pack("{s:s, s:f, s:f, s:f, s:I, s:o, s:o}", "name", p->name, "mu",
                               p->r.mu, "sigma", p->r.sigma, "conservative",
                               fig_rating_conservative(p->r), "games", (json_int_t)p->games,
                               "level", level, "between", between)))
            goto oom;
    }
    puts("]}");
    return EXIT_OK;
oom:
    fprintf(stderr, "figaro rate: out of memory\n");
    return EXIT_INPUT;
}

int cmd_rate(int argc, char **argv)
{
    static const struct option opts[] = {
        { "levels", no_argument, NULL, 'l' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    table_t t = { 0 };
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":lh", opts, NULL)) != -1) {
        switch (c) {
        case 'l': t.levels = true; break;
        case 'h': return cli_help("rate");
        default: return cli_usage_error("rate", "unknown option '%s'", argv[optind - 1]);
        }
    }
    char *stdin_only[] = { "-" };
    char **files = optind < argc ? argv + optind : stdin_only;
    int nfiles = optind < argc ? argc - optind : 1;
    long games = 0;
    int rc = EXIT_OK;
    for (int f = 0; f < nfiles && rc == EXIT_OK; f++) {
        char *data, err[256];
        size_t len;
        if (cli_read_file(files[f], (size_t)1 << 28, &data, &len, err, sizeof err)) {
            fprintf(stderr, "figaro rate: %s: %s\n", files[f], err);
            rc = EXIT_INPUT;
            break;
        }
        rc = rate_text(&t, strcmp(files[f], "-") ? files[f] : "standard input", data, len,
                       &games);
        free(data);
    }
    if (rc == EXIT_OK)
        rc = print(&t, games);
    free(t.p);
    free(t.slot);
    return rc;
}
