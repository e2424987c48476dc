/* SPDX-License-Identifier: MIT */
/* replay.c - `figaro replay`: check a game record and say how it went.
 * The JSON form is an interface (docs/fgn.md); the text form is for people. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "host/store.h"
#include "net/proto/replay_json.h"

static const char *seat_name(const fig_game_t *g, int s, char *buf, size_t cap)
{
    if (g->has_names)
        snprintf(buf, cap, "%s", g->names[s]);
    else
        snprintf(buf, cap, "seat %d", s);
    return buf;
}

static int print_json(json_t *obj)
{
    char *text = json_dumps(obj, JSON_PRESERVE_ORDER);
    json_decref(obj);
    if (!text)
        return EXIT_INPUT;
    puts(text);
    free(text);
    return EXIT_OK;
}

static int json_error(int line, const char *message)
{
    json_t *err = json_pack("{s:i, s:s}", "line", line, "message", message);
    print_json(json_pack("{s:b, s:o}", "ok", 0, "error", err));
    return EXIT_INPUT;
}

static int replay_json(const fig_game_t *g)
{
    json_t *obj = fig_replay_summary_json(g);
    if (!obj) {
        fprintf(stderr, "figaro replay: out of memory\n");
        return EXIT_INPUT;
    }
    return print_json(obj);
}

static void print_round(const fig_game_t *g, const fig_round_result_t *res)
{
    int n = g->setup.players;
    char a[FIG_NAME_MAX + 8], b[FIG_NAME_MAX + 8];
    printf("Round %d: %s started a turn with no cards and takes the King.\n", res->round,
           seat_name(g, res->king, a, sizeof a));
    printf("  cards collected:");
    for (int s = 0; s < n; s++)
        printf("%s %s %d", s ? "," : "", seat_name(g, s, a, sizeof a), res->stacks[s]);
    printf("\n");
    if (res->exchanged)
        printf("  exchange (R12): %s, with the fewest cards, gives %d and takes %d.\n",
               seat_name(g, res->exchange_seat, a, sizeof a), res->gave, res->took);
    printf("  road pieces:");
    for (int i = 0; i < n; i++) {
        int s = res->order[i];
        printf("%s %s ", i ? "," : "", seat_name(g, s, a, sizeof a));
        if (res->pieces[s])
            printf("%d", res->pieces[s]);
        else
            printf("none (%s)", res->no_piece_why[s] == FIG_WHY_ZERO ? "no cards" : "fewest");
        if (res->tie[s])
            printf(" [tie at %d]", res->stacks[s]);
    }
    printf("\n");
    int left = (res->king + 1) % n;
    for (int s = 0; s < n; s++)
        if (res->tie[s]) {
            printf("  ties are broken clockwise from the King's left: %s first, %s last.\n",
                   seat_name(g, left, a, sizeof a), seat_name(g, res->king, b, sizeof b));
            break;
        }
}

static void replay_text(const fig_game_t *g)
{
    const fig_setup_t *su = &g->setup;
    const fig_state_t *st = &g->state;
    int n = su->players;
    char a[FIG_NAME_MAX + 8];
    printf("Figaro, %d players:", n);
    for (int s = 0; s < n; s++)
        printf(" %s%s", seat_name(g, s, a, sizeof a), s + 1 < n ? "," : "");
    printf(".\n");
    if (n == 3)
        printf("Colour left out: %s.\n", fig_colour_name(su->removed));
    printf("Road pieces:");
    for (int r = 0; r < FIG_ROUNDS; r++) {
        printf(" round %d:", r + 1);
        for (int i = 0; i < n - 1; i++)
            printf(" %u", (unsigned)su->roads[r][i]);
        printf("%s", r + 1 < FIG_ROUNDS ? ";" : ".\n");
    }
    printf("%s starts with the King.\n\n", seat_name(g, su->king, a, sizeof a));
    fig_round_result_t res[FIG_ROUNDS];
    int done = fig_game_results(g, res);
    for (int r = 0; r < done; r++)
        print_round(g, &res[r]);
    if (!fig_game_over(g)) {
        int moves = g->dealt ? g->nmoves[g->dealt - 1] : 0;
        if (st->phase == FIG_PHASE_PLAY)
            printf("\nUnfinished: round %d, %d actions so far, %s to play.\n", st->round, moves,
                   seat_name(g, st->turn, a, sizeof a));
        else
            printf("\nUnfinished: round %d has not been dealt.\n", st->round);
        return;
    }
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(st, ranking);
    printf("\nFinal roads (shortest wins; ties from the King, %s, clockwise):\n",
           seat_name(g, st->king, a, sizeof a));
    for (int i = 0; i < n; i++) {
        int s = ranking[i];
        printf("  %d. %-*s %3d =", i + 1, FIG_NAME_MAX < 12 ? FIG_NAME_MAX : 12,
               seat_name(g, s, a, sizeof a), fig_state_road(st, s));
        char pieces[64];
        fig_road_format(st->road[s], st->nroad[s], " + ", pieces, sizeof pieces);
        printf(" %s\n", st->nroad[s] ? pieces : "no pieces");
    }
    printf("Winner: %s.\n", seat_name(g, ranking[0], a, sizeof a));
}

int cmd_replay(int argc, char **argv)
{
    static const struct option opts[] = {
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    bool json = false;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'h': return cli_help("replay");
        default:
            return cli_usage_error("replay", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return cli_usage_error("replay", "expected one FILE (or '-' for standard input)");
    const char *path = argv[optind];
    char *data, err[256];
    size_t len;
    if (cli_read_file(path, 1 << 20, &data, &len, err, sizeof err)) {
        if (json)
            return json_error(0, err);
        fprintf(stderr, "figaro replay: %s: %s\n", path, err);
        return EXIT_INPUT;
    }
    fig_game_t game;
    fig_msg_t msg;
    fig_err_t rc = fig_fgn_read(&game, data, len, &msg);
    /* a sealed save (host/store.h): its hands stay secret while the game runs */
    bool sealed = rc != FIG_OK && fig_store_is_sealed(data, len);
    free(data);
    if (sealed) {
        snprintf(msg.text, sizeof msg.text, "%s", cli_sealed_text());
        msg.line = 0;
    }
    if (rc != FIG_OK) {
        if (json)
            return json_error(msg.line, msg.text);
        fprintf(stderr, "figaro replay: %s:%d: %s\n", path, msg.line, msg.text);
        return EXIT_INPUT;
    }
    if (json)
        return replay_json(&game);
    replay_text(&game);
    return EXIT_OK;
}
