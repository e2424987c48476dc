/* SPDX-License-Identifier: MIT */
/* arena_run.c - the games of `figaro arena`: bots against bots on duplicate
 * deals.
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
#include <libintl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/arena_run.h"
#include "figaro/match.h"
#include "host/fep_host.h"
#include "host/pool.h"
#include "host/stats.h"

/* A table: the bots it keeps between games (by spec and copy: a round robin
 * line-up may hold one entrant several times) and the game it is playing. */
typedef struct {
    fig_bot_t *bots[MAX_SPECS + 1][FIG_MAX_PLAYERS];
    fig_match_t *m;                        /* NULL: free for the next game */
    int game;
    int pos_of[FIG_MAX_PLAYERS];           /* by seat */
    int spec_of[FIG_MAX_PLAYERS];          /* by seat */
    int copy_of[FIG_MAX_PLAYERS];          /* by seat */
    int faults_before[FIG_MAX_PLAYERS];    /* by seat */
} table_t;

slot_t arena_slot_of(const arena_t *a, int g)
{
    slot_t s;
    s.twin = g % arena_twins(a);
    s.unit = g / arena_twins(a);
    s.deal = s.unit / arena_per_deal(a);
    s.order = s.unit % arena_per_deal(a) / a->players;
    s.rotation = s.unit % a->players;
    return s;
}

/* The spec index at line-up position pos of game g. */
static int spec_at(const arena_t *a, int g, int pos)
{
    slot_t s = arena_slot_of(a, g);
    if (s.twin && pos == 0)
        return a->nspecs;   /* the baseline in the candidate's place */
    if (a->round_robin)
        return a->lineup[s.deal % a->lineups][pos];
    return pos;
}

/* The line-up position at a seat: rotated; with the second seat order, also
 * reversed (who plays after whom changes, R9). */
static int pos_at(const arena_t *a, const slot_t *s, int seat)
{
    int n = a->players;
    return s->order ? (s->rotation - seat + n) % n : (seat - s->rotation + n) % n;
}

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

/* Starts game g on table t, whose bots are free; makes the bots it lacks. */
static fig_err_t start_game(arena_t *a, table_t *t, fig_pool_t *pool, int g, fig_msg_t *msg)
{
    int n = a->players;
    slot_t sl = arena_slot_of(a, g);
    fig_match_opts_t o;
    memset(&o, 0, sizeof o);
    fig_setup_random(&o.setup, n, fig_seed_derive(a->seed, (uint64_t)sl.deal, 1), NULL);
    fig_err_t rc = FIG_OK;
    for (int s = 0; s < n && rc == FIG_OK; s++) {
        int pos = pos_at(a, &sl, s), spec = spec_at(a, g, pos), copy = 0;
        for (int p = 0; p < pos; p++)
            copy += spec_at(a, g, p) == spec;
        t->pos_of[s] = pos;
        t->spec_of[s] = spec;
        t->copy_of[s] = copy;
        if (!t->bots[spec][copy])
            rc = fig_bot_any_new(&t->bots[spec][copy], a->specs[spec],
                                 fig_seed_derive(a->seed, 0, (uint64_t)spec), a->move_ms, msg);
    }
    if (rc)
        return rc;
    for (int s = 0; s < n; s++) {
        fig_bot_t **slot = &t->bots[t->spec_of[s]][t->copy_of[s]];
        o.bots[s] = *slot;
        *slot = NULL;   /* the match has it now, even on failure */
        t->faults_before[s] = fig_bot_faults(o.bots[s]);
        /* Both twins of a unit reseed alike: the field starts the same. */
        fig_bot_seed(o.bots[s],
                     fig_seed_derive(a->seed, (uint64_t)sl.unit, (uint64_t)t->pos_of[s] + 2));
    }
    o.move_ms = a->move_ms;
    o.pool = pool;
    o.on_fault = tell_fault;
    o.keep_bot_seeds = true;
    t->game = g;
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
        t->bots[t->spec_of[s]][t->copy_of[s]] = back[s];
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
        res->spec = t->spec_of[s];
    }
    a->finished[g] = true;
    if (a->records) {
        /* Names: the specs, made into FGN name tokens (no spaces, 32 bytes). */
        game.has_names = true;
        for (int s = 0; s < n; s++) {
            snprintf(game.names[s], sizeof game.names[s], "%s", a->specs[t->spec_of[s]]);
            for (char *c = game.names[s]; *c; c++)
                if (*c == ' ' || *c == '\t' || *c == '#')
                    *c = '_';
        }
        slot_t sl = arena_slot_of(a, g);
        char path[4096], text[16384];
        snprintf(path, sizeof path, "%s/game-%06d.fgn", a->records, g + 1);
        size_t len = fig_fgn_write(&game, text, sizeof text);
        FILE *f = fopen(path, "w");
        if (!f || fprintf(f, "# figaro arena game %d: deal %d, line-up rotated %d%s%s\n%s", g + 1,
                          sl.deal + 1, sl.rotation, sl.order ? ", seat order reversed" : "",
                          sl.twin ? ", the baseline in the candidate's place" : "", text) < 0 ||
            len >= sizeof text) {
            if (f)
                fclose(f);
            return fig_fail(msg, FIG_ERR_INPUT, "cannot write %s: %s", path, strerror(errno));
        }
        if (fclose(f) != 0)
            return fig_fail(msg, FIG_ERR_INPUT, "cannot write %s: %s", path, strerror(errno));
    }
    return FIG_OK;
}

int arena_paired_outcome(const arena_t *a, int unit)
{
    int c = a->results[2 * unit][0].rank, b = a->results[2 * unit + 1][0].rank;
    return c < b ? 2 : c == b ? 1 : 0;
}

const double arena_trinomial[3] = { 0, 0.5, 1 };
static const double pentanomial[5] = { 0, 0.25, 0.5, 0.75, 1 };   /* pairs of units */

/* The SPRT takes the units in order, as soon as both twins of the next are
 * over (tables finish out of order): the verdict does not depend on --jobs.
 * Once decided, no game after the deciding unit is started. */
static void sprt_advance(arena_t *a)
{
    while (!a->verdict && 2 * a->next_unit + 1 < a->limit && a->finished[2 * a->next_unit] &&
           a->finished[2 * a->next_unit + 1]) {
        int x = arena_paired_outcome(a, a->next_unit++);
        if (a->pentanomial) {
            if (a->pending < 0) {
                a->pending = x;
                continue;
            }
            a->counts[a->pending + x]++;   /* the pair's score x 4 */
            a->pending = -1;
            a->llr = fig_stats_llr(5, pentanomial, a->counts, a->elo0, a->elo1);
        } else {
            a->counts[x]++;
            a->llr = fig_stats_llr(3, arena_trinomial, a->counts, a->elo0, a->elo1);
        }
        double lower, upper;
        fig_stats_sprt_bounds(a->alpha, a->beta, &lower, &upper);
        if (a->llr >= upper || a->llr <= lower) {
            a->verdict = a->llr >= upper ? 1 : -1;
            a->limit = 2 * a->next_unit;
        }
    }
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
 * poll() waits for whichever match has news. Stops at the first error, or
 * when the sequential test has decided (games past the deciding one that
 * are still on are dropped). */
static void run_games(arena_t *a, table_t *tables, int ntables, fig_pool_t *pool)
{
    fig_msg_t msg = { "", 0 };
    struct pollfd *fds = calloc((size_t)ntables, sizeof *fds);
    if (!fds) {
        snprintf(a->error, sizeof a->error, "out of memory");
        return;
    }
    for (;;) {
        int nfds = 0, busy = 0;
        for (int i = 0; i < ntables && !a->error[0]; i++) {
            table_t *t = &tables[i];
            if (t->m && t->game >= a->limit) {   /* decided without it */
                fig_match_free(t->m);
                t->m = NULL;
            }
            if (!t->m && a->next_game < a->limit &&
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
                if (a->sprt)
                    sprt_advance(a);
                if (a->progress)
                    show_progress(a);
                i--;   /* the table is free: give it the next game now */
                continue;
            }
            busy++;
            fds[nfds++] = (struct pollfd){ .fd = fig_match_fd(t->m), .events = POLLIN };
        }
        if (a->error[0] || (!busy && a->next_game >= a->limit))
            break;
        if (nfds > 0)
            while (poll(fds, (nfds_t)nfds, -1) < 0 && errno == EINTR)
                ;
    }
    if (a->progress && a->done < a->games)
        fputc('\n', stderr);
    free(fds);
}

void arena_play_all(arena_t *a)
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
    /* The line-up's bots first, as the arena always did (engines start
     * now); a baseline or a round robin's other entrants when first seated. */
    fig_err_t rc = FIG_OK;
    for (int t = 0; t < a->jobs && !rc && !a->round_robin; t++)
        for (int i = 0; i < a->players && !rc; i++)
            rc = fig_bot_any_new(&tables[t].bots[i][0], a->specs[i],
                                 fig_seed_derive(a->seed, 0, (uint64_t)i), a->move_ms, &msg);
    if (rc)
        snprintf(a->error, sizeof a->error, "%s", msg.text);
    else
        run_games(a, tables, a->jobs, pool);
    for (int t = 0; t < a->jobs; t++) {
        fig_match_free(tables[t].m);   /* only after an error: returns at once */
        for (int i = 0; i <= MAX_SPECS; i++)
            for (int k = 0; k < FIG_MAX_PLAYERS; k++)
                fig_bot_free(tables[t].bots[i][k]);   /* engines get `quit` */
    }
    fig_pool_free(pool);   /* waits for the freed matches' last jobs */
    free(tables);
}

int arena_make_lineups(int e, int n, int (**out)[FIG_MAX_PLAYERS])
{
    int count = e;
    if (e >= n) {
        double c = 1;
        for (int i = 0; i < n; i++)
            c = c * (e - i) / (i + 1);
        count = (int)(c + 0.5);
    }
    int (*l)[FIG_MAX_PLAYERS] = calloc((size_t)count, sizeof *l);
    if (!l)
        return 0;
    if (e < n) {
        for (int j = 0; j < e; j++)
            for (int p = 0; p < n; p++)
                l[j][p] = (j + p) % e;
    } else {
        int idx[FIG_MAX_PLAYERS];
        for (int i = 0; i < n; i++)
            idx[i] = i;
        for (int k = 0; k < count; k++) {
            memcpy(l[k], idx, sizeof idx);
            int i = n - 1;
            while (i >= 0 && idx[i] == e - n + i)
                i--;
            if (i < 0)
                break;
            idx[i]++;
            for (int j = i + 1; j < n; j++)
                idx[j] = idx[j - 1] + 1;
        }
    }
    *out = l;
    return count;
}
