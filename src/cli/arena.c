/* arena.c - `figaro arena`: bots against bots on duplicate deals.
 *
 * Game g plays deal g / N with the line-up rotated by g % N seats, so every
 * entrant meets every deal from every seat and luck of the cards cancels.
 * Every game is a match (match.h) on one shared worker pool of --jobs
 * threads, all driven from one poll() loop on this thread: the runner the
 * server depends on is exercised by every arena run. There are --jobs tables,
 * each with its own line-up of bots, kept from one game to the next (an
 * engine's process too, as fep.md promises); a table takes the next game as
 * soon as its last one is over and its bots are handed back. Every bot is
 * reseeded from (seed, game, position) before each game and the match leaves
 * the streams alone, so the results do not depend on which table played
 * what. Identical specs are one entrant. Faults of engines come back through
 * the match's callback and are told on standard error, one line each. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <libintl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "figaro/match.h"
#include "host/fep_host.h"
#include "host/pool.h"

typedef struct {
    int rank;      /* 0 = winner */
    int road;
    int faults;
} seat_result_t;

/* A line-up of bots and the game it is playing. */
typedef struct {
    fig_bot_t *bots[FIG_MAX_PLAYERS];      /* by line-up position */
    fig_match_t *m;                        /* NULL: free for the next game */
    int game;
    int pos_of[FIG_MAX_PLAYERS];           /* by seat */
    int faults_before[FIG_MAX_PLAYERS];    /* by seat */
} table_t;

typedef struct {
    int players, games, jobs, move_ms;
    uint64_t seed;
    const char *specs[FIG_MAX_PLAYERS];   /* the line-up of the first game */
    const char *records;                  /* folder for FGN records, or NULL */
    seat_result_t (*results)[FIG_MAX_PLAYERS];   /* [game][line-up position] */
    int next_game, done;
    bool progress;
    char error[256];                      /* the first error, if any */
} arena_t;

static const char *gettext_tr(const fig_tr_t *tr, const char *msgid)
{
    (void)tr;
    return gettext(msgid);
}

/* The match's fault callback: one line on standard error, as always. */
static void tell_fault(void *user, const fig_fault_t *f)
{
    (void)user;
    fig_tr_t tr = { gettext_tr, NULL, NULL };
    char text[1024];
    fprintf(stderr, "figaro: %s\n", fig_fault_text(f, &tr, text, sizeof text));
}

/* Starts game g on table t, whose bots are free. */
static fig_err_t start_game(arena_t *a, table_t *t, fig_pool_t *pool, int g, fig_msg_t *msg)
{
    int n = a->players, rotation = g % n;
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, n, fig_seed_derive(a->seed, (uint64_t)(g / n), 1), NULL);
    for (int s = 0; s < n; s++) {
        int pos = (s - rotation + n) % n;
        o.bots[s] = t->bots[pos];
        t->pos_of[s] = pos;
        t->faults_before[s] = fig_bot_faults(o.bots[s]);
        fig_bot_seed(o.bots[s], fig_seed_derive(a->seed, (uint64_t)g, (uint64_t)pos + 2));
    }
    o.move_ms = a->move_ms;
    o.pool = pool;
    o.on_fault = tell_fault;
    o.keep_bot_seeds = true;
    t->game = g;
    memset(t->bots, 0, sizeof t->bots);   /* the match has them now, even on failure */
    return fig_match_new(&t->m, &o, msg);
}

/* Game over and the bots told: results, record, bots back to the table. */
static fig_err_t end_game(arena_t *a, table_t *t, fig_msg_t *msg)
{
    int n = a->players, g = t->game;
    fig_bot_t *back[FIG_MAX_PLAYERS];
    fig_err_t rc = fig_match_release_bots(t->m, back, msg);
    if (rc)
        return rc;
    for (int s = 0; s < n; s++)
        t->bots[t->pos_of[s]] = back[s];
    fig_game_t game = *fig_match_game(t->m);
    fig_match_free(t->m);
    t->m = NULL;
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(&game.state, ranking);
    for (int r = 0; r < n; r++) {
        int s = ranking[r];
        seat_result_t *res = &a->results[g][t->pos_of[s]];
        res->rank = r;
        res->road = fig_state_road(&game.state, s);
        res->faults = fig_bot_faults(back[s]) - t->faults_before[s];
    }
    if (a->records) {
        /* Names: the specs, made into FGN name tokens (no spaces, 32 bytes). */
        game.has_names = true;
        for (int s = 0; s < n; s++) {
            snprintf(game.names[s], sizeof game.names[s], "%s", a->specs[t->pos_of[s]]);
            for (char *c = game.names[s]; *c; c++)
                if (*c == ' ' || *c == '\t' || *c == '#')
                    *c = '_';
        }
        char path[4096], text[16384];
        snprintf(path, sizeof path, "%s/game-%06d.fgn", a->records, g + 1);
        size_t len = fig_fgn_write(&game, text, sizeof text);
        FILE *f = fopen(path, "w");
        if (!f || fprintf(f, "# figaro arena game %d: deal %d, line-up rotated %d\n%s", g + 1,
                          g / n + 1, g % n, text) < 0 || len >= sizeof text) {
            if (f)
                fclose(f);
            return fig_fail(msg, FIG_ERR_INPUT, "cannot write %s: %s", path, strerror(errno));
        }
        if (fclose(f) != 0)
            return fig_fail(msg, FIG_ERR_INPUT, "cannot write %s: %s", path, strerror(errno));
    }
    return FIG_OK;
}

static void show_progress(const arena_t *a)
{
    int width = 40, filled = (int)((long)a->done * width / a->games);
    fprintf(stderr, "\r[%.*s%*s] %d/%d games", filled, "########################################",
            width - filled, "", a->done, a->games);
    if (a->done == a->games)
        fputc('\n', stderr);
    fflush(stderr);
}

/* Plays every game: tables take games in order as they come free; one
 * poll() waits for whichever match has news. Stops at the first error. */
static void run_games(arena_t *a, table_t *tables, int ntables, fig_pool_t *pool)
{
    fig_msg_t msg = { "", 0 };
    struct pollfd *fds = calloc((size_t)ntables, sizeof *fds);
    if (!fds) {
        snprintf(a->error, sizeof a->error, "out of memory");
        return;
    }
    while (!a->error[0] && a->done < a->games) {
        int nfds = 0;
        for (int i = 0; i < ntables && !a->error[0]; i++) {
            table_t *t = &tables[i];
            if (!t->m && a->next_game < a->games &&
                start_game(a, t, pool, a->next_game++, &msg) != FIG_OK) {
                snprintf(a->error, sizeof a->error, "%s", msg.text);
                break;
            }
            if (!t->m)
                continue;
            while (fig_match_step(t->m, NULL))
                ;
            if (fig_match_status(t->m) == FIG_MATCH_OVER && fig_match_idle(t->m)) {
                if (end_game(a, t, &msg) != FIG_OK) {
                    snprintf(a->error, sizeof a->error, "%s", msg.text);
                    break;
                }
                a->done++;
                if (a->progress)
                    show_progress(a);
                i--;   /* the table is free: give it the next game now */
                continue;
            }
            fds[nfds++] = (struct pollfd){ .fd = fig_match_fd(t->m), .events = POLLIN };
        }
        if (!a->error[0] && nfds > 0)
            while (poll(fds, (nfds_t)nfds, -1) < 0 && errno == EINTR)
                ;
    }
    free(fds);
}

/* Plays every game on `jobs` tables; the first error ends in a->error. */
static void play_all(arena_t *a)
{
    fig_msg_t msg = { "", 0 };
    fig_pool_t *pool;
    fig_pool_opts_t po = { a->jobs, 0 };
    if (fig_pool_new(&pool, &po, &msg) != FIG_OK) {
        snprintf(a->error, sizeof a->error, "%s", msg.text);
        return;
    }
    table_t *tables = calloc((size_t)a->jobs, sizeof *tables);
    if (!tables) {
        snprintf(a->error, sizeof a->error, "out of memory");
        fig_pool_free(pool);
        return;
    }
    fig_err_t rc = FIG_OK;
    for (int t = 0; t < a->jobs && !rc; t++)
        for (int i = 0; i < a->players && !rc; i++)
            rc = fig_bot_any_new(&tables[t].bots[i], a->specs[i],
                                 fig_seed_derive(a->seed, 0, (uint64_t)i), a->move_ms, &msg);
    if (rc)
        snprintf(a->error, sizeof a->error, "%s", msg.text);
    else
        run_games(a, tables, a->jobs, pool);
    for (int t = 0; t < a->jobs; t++) {
        fig_match_free(tables[t].m);   /* only after an error: returns at once */
        for (int i = 0; i < a->players; i++)
            fig_bot_free(tables[t].bots[i]);   /* engines get `quit` */
    }
    fig_pool_free(pool);   /* waits for the freed matches' last jobs */
    free(tables);
}

/* Wilson score interval for w successes in n trials, 95%. */
static void wilson(int w, int n, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    double p = (double)w / n, z2n = z * z / n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z / (1 + z2n) * sqrt(p * (1 - p) / n + z2n / (4.0 * n));
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

typedef struct {
    const char *spec;
    int games, wins, faults;
    double road, rank;   /* sums */
} entrant_t;

static void report(const arena_t *a, bool json)
{
    entrant_t e[FIG_MAX_PLAYERS];
    int entrant_of[FIG_MAX_PLAYERS], ne = 0;
    for (int i = 0; i < a->players; i++) {
        int k = 0;
        while (k < ne && strcmp(e[k].spec, a->specs[i]) != 0)
            k++;
        if (k == ne)
            e[ne++] = (entrant_t){ a->specs[i], 0, 0, 0, 0, 0 };
        entrant_of[i] = k;
    }
    for (int g = 0; g < a->games; g++)
        for (int i = 0; i < a->players; i++) {
            entrant_t *x = &e[entrant_of[i]];
            const seat_result_t *r = &a->results[g][i];
            x->games++;
            x->wins += r->rank == 0;
            x->faults += r->faults;
            x->road += r->road;
            x->rank += r->rank + 1;
        }
    if (json) {
        json_t *list = json_array();
        for (int k = 0; k < ne; k++) {
            double lo, hi;
            wilson(e[k].wins, e[k].games, &lo, &hi);
            json_array_append_new(list, json_pack(
                "{s:s, s:i, s:i, s:f, s:[f, f], s:f, s:f, s:i}", "spec", e[k].spec,
                "games", e[k].games, "wins", e[k].wins,
                "win_rate", (double)e[k].wins / e[k].games, "ci95", lo, hi,
                "mean_road", e[k].road / e[k].games, "mean_rank", e[k].rank / e[k].games,
                "faults", e[k].faults));
        }
        json_t *o = json_pack("{s:i, s:i, s:o}", "players", a->players, "games", a->games,
                              "entrants", list);
        char *text = json_dumps(o, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(4));
        json_decref(o);
        if (text) {
            puts(text);
            free(text);
        }
        return;
    }
    int deals = a->games / a->players;
    printf("%d players, %d game%s (%d deal%s x %d seatings), seed %llu\n\n", a->players,
           a->games, a->games == 1 ? "" : "s", deals, deals == 1 ? "" : "s", a->players,
           (unsigned long long)a->seed);
    printf("%-28s %7s %6s %8s  %-17s %9s %9s %6s\n", "entrant", "games", "wins", "win rate",
           "95% CI", "mean road", "mean rank", "faults");
    for (int k = 0; k < ne; k++) {
        double lo, hi;
        wilson(e[k].wins, e[k].games, &lo, &hi);
        printf("%-28.28s %7d %6d %7.1f%%  [%5.1f%%, %5.1f%%] %9.2f %9.2f %6d\n", e[k].spec,
               e[k].games, e[k].wins, 100.0 * e[k].wins / e[k].games, 100 * lo, 100 * hi,
               e[k].road / e[k].games, e[k].rank / e[k].games, e[k].faults);
    }
    printf("\nParity is %.1f%% with %d players (the winner has the shortest road).\n",
           100.0 / a->players, a->players);
}

int cmd_arena(int argc, char **argv)
{
    static const struct option opts[] = {
        { "players", required_argument, NULL, 'p' },
        { "games", required_argument, NULL, 'g' },
        { "bot", required_argument, NULL, 'b' },
        { "seed", required_argument, NULL, 's' },
        { "records", required_argument, NULL, 'r' },
        { "jobs", required_argument, NULL, 'j' },
        { "move-ms", required_argument, NULL, 'm' },
        { "json", no_argument, NULL, 'J' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    arena_t a;
    memset(&a, 0, sizeof a);
    a.seed = 1;
    a.move_ms = 1000;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    a.jobs = online > 0 ? (int)online : 1;
    int nbots = 0;
    bool json = false;
    long long v;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":p:g:b:s:r:j:m:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (cli_parse_int(optarg, FIG_MIN_PLAYERS, FIG_MAX_PLAYERS, &v))
                return cli_usage_error("arena", "--players takes 3 to 6, not '%s'", optarg);
            a.players = (int)v;
            break;
        case 'g':
            if (cli_parse_int(optarg, 1, 10000000, &v))
                return cli_usage_error("arena", "--games takes 1 to 10000000, not '%s'", optarg);
            a.games = (int)v;
            break;
        case 'b':
            if (nbots == FIG_MAX_PLAYERS)
                return cli_usage_error("arena", "at most 6 --bot options");
            a.specs[nbots++] = optarg;
            break;
        case 's':
            if (cli_parse_u64(optarg, &a.seed))
                return cli_usage_error("arena", "--seed takes a whole number, not '%s'", optarg);
            break;
        case 'r': a.records = optarg; break;
        case 'j':
            if (cli_parse_int(optarg, 1, 64, &v))
                return cli_usage_error("arena", "--jobs takes 1 to 64, not '%s'", optarg);
            a.jobs = (int)v;
            break;
        case 'm':
            if (cli_parse_int(optarg, 1, 3600000, &v))
                return cli_usage_error("arena", "--move-ms takes 1 to 3600000, not '%s'", optarg);
            a.move_ms = (int)v;
            break;
        case 'J': json = true; break;
        case 'h': return cli_help("arena");
        case ':': return cli_usage_error("arena", "option '%s' needs a value", argv[optind - 1]);
        default: return cli_usage_error("arena", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("arena", "unexpected argument '%s'", argv[optind]);
    if (!a.players || !a.games)
        return cli_usage_error("arena", "--players N and --games G are required");
    if (nbots != a.players)
        return cli_usage_error("arena", "give exactly %d --bot options (one per seat), not %d",
                               a.players, nbots);
    if (a.games % a.players)
        return cli_usage_error("arena", "--games must be a multiple of %d: each deal is played "
                               "from every seat", a.players);
    /* Check every spec before starting anything. */
    for (int i = 0; i < nbots; i++) {
        fig_bot_t *probe;
        fig_msg_t msg;
        if (strncmp(a.specs[i], "cmd:", 4) == 0)
            continue;   /* an engine is checked when it starts; its faults are counted */
        if (fig_bot_new(&probe, a.specs[i], 0, &msg) != FIG_OK)   /* a bad value: usage */
            return cli_usage_error("arena", "--bot %s: %s", a.specs[i], msg.text);
        fig_bot_free(probe);
    }
    if (a.records && mkdir(a.records, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "figaro arena: cannot create %s: %s\n", a.records, strerror(errno));
        return EXIT_INPUT;
    }
    if (a.jobs > a.games)
        a.jobs = a.games;
    a.results = calloc((size_t)a.games, sizeof *a.results);
    if (!a.results) {
        fprintf(stderr, "figaro arena: out of memory\n");
        return EXIT_INPUT;
    }
    a.progress = isatty(2);
    play_all(&a);
    int rc = EXIT_OK;
    if (a.error[0]) {
        fprintf(stderr, "figaro arena: %s\n", a.error);
        rc = EXIT_INPUT;
    } else {
        report(&a, json);
    }
    free(a.results);
    return rc;
}
