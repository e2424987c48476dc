/* SPDX-License-Identifier: MIT */
/* history.c - `figaro history`: the games of the store's folder (play.c
 * finds it), oldest first and numbered for `figaro play --resume N`, as
 * columns or JSON; --delete N and --prune remove some. */
#include <getopt.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/i18n.h"
#include "cli/play.h"
#include "host/store.h"
#include "host/util.h"

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
static int cell_width(const char *s)
{
    int cols = 0;
    for (const char *p = s; *p; p++)
        cols += ((unsigned char)*p & 0xC0) != 0x80;
    return cols;
}

static void print_cell(const char *s, int width, bool last)
{
    fputs(s, stdout);
    if (!last)
        printf("%*s", width - cell_width(s) + 2, "");
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

/* The listing, as columns or JSON (h->json): an exit status. */
static int history_list(const fig_store_t *store, history_t *h)
{
    fig_msg_t msg;
    if (h->json)
        h->list = json_array();
    if (fig_store_history(store, history_entry, h, &msg) != FIG_OK) {
        json_decref(h->list);
        fprintf(stderr, "figaro history: %s\n", msg.text);
        return EXIT_INPUT;
    }
    if (h->json) {
        char *text = json_dumps(h->list, JSON_PRESERVE_ORDER);
        json_decref(h->list);
        if (!text)
            return EXIT_INPUT;
        puts(text);
        free(text);
        return EXIT_OK;
    }
    if (h->count == 0)
        printf(_("No games yet: finished games are kept in %s/history.\n"),
               fig_store_root(store));
    else
        history_print(h);
    if (fig_store_has_current(store))
        printf("%s\n", _("A game is in progress: 'figaro play --resume' continues it."));
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
    if (play_open_store(&store, &msg) != FIG_OK) {
        fprintf(stderr, "figaro history: %s\n", msg.text);
        return EXIT_INPUT;
    }
    int status = delete_n || prune ? history_cull(store, delete_n) : history_list(store, &h);
    fig_store_free(store);
    for (int i = 0; i < h.nrows; i++) {
        free(h.rows[i].path);
        free(h.rows[i].error);
    }
    free(h.rows);
    return status;
}
