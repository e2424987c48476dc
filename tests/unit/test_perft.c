/* SPDX-License-Identifier: MIT */
/* test_perft.c - fig_state_perft against a deliberately naive move counter.
 *
 * The naive model shares nothing with rules.c but the action encoding and the
 * card numbering: hands and piles are plain lists of card kinds in the order
 * the cards came; a pile's colour, a pile's total and who owns a colour are
 * recomputed from those lists every time they are needed; every (kind,
 * target) pair is tried against R5-R7 as rules.md words them; and a move is
 * applied by copying lists (R7, R8, R9, R10). It is slow on purpose: it is
 * meant to be obviously right, not fast.
 *
 * It checks:
 *   - the model itself reproduces the worked examples of rules.md;
 *   - the records in tests/perft/ replay the same way in the naive model, and
 *     their counts in tests/perft/perft.txt (depths 1-5) hold for
 *     fig_state_perft and for the naive counter (a rules change that moves a
 *     count shows here);
 *   - fig_state_perft equals the naive count at depths 1-3 (1-4 on every 8th)
 *     on 1,000 random mid-round positions of 3-6 players, each reached by
 *     replaying a random game in both models; a difference prints both
 *     --divide lists.
 * Paths are relative to the repository root (where `make test` runs); set
 * FIGARO_PERFT_DIR to run from elsewhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

/* ---- the naive model ---- */

enum { NAIVE_PILE_MAX = 24, NAIVE_HAND_MAX = 15, RANDOM_POSITIONS = 1000 };

/* Card kinds are numbered as in card.h (R1 R2 R3 B1 ... P3 J1 J2 RING);
 * their values and colours are written out again here from R1. */
static const int naive_value[FIG_KINDS] = {
    1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, /* R B G Y P: 1 2 3 */
    1, 2,                                         /* J1 J2 */
    0,                                            /* RING */
};
enum { NO_COLOUR = -1, KIND_J1 = 15, KIND_J2 = 16, KIND_RING = 17 };

static int naive_colour(int kind)
{
    static const int colour[FIG_KINDS] = {
        0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, NO_COLOUR, NO_COLOUR, NO_COLOUR,
    };
    return colour[kind];
}

typedef struct {
    int players, turn, over;   /* over: a seat started its turn with no card (R10) */
    int hand_len[FIG_MAX_PLAYERS];
    int hand[FIG_MAX_PLAYERS][NAIVE_HAND_MAX];
    int pile_len[FIG_MAX_PLAYERS];
    int pile[FIG_MAX_PLAYERS][NAIVE_PILE_MAX];
    int stack[FIG_MAX_PLAYERS];
} naive_t;

/* The colour of pile t: that of its first colour card, or none (R6). */
static int pile_colour(const naive_t *p, int t)
{
    for (int i = 0; i < p->pile_len[t]; i++)
        if (naive_colour(p->pile[t][i]) != NO_COLOUR)
            return naive_colour(p->pile[t][i]);
    return NO_COLOUR;
}

static int pile_total(const naive_t *p, int t)
{
    int total = 0;
    for (int i = 0; i < p->pile_len[t]; i++)
        total += naive_value[p->pile[t][i]];
    return total;
}

static int table_cards(const naive_t *p)
{
    int cards = 0;
    for (int t = 0; t < p->players; t++)
        cards += p->pile_len[t];
    return cards;
}

/* R6, R7: may seat s play a card of `kind` in front of seat t? */
static int allowed(const naive_t *p, int s, int kind, int t)
{
    if (kind == KIND_RING)
        return t == s;                       /* R7: in front of yourself */
    if (kind == KIND_J1 || kind == KIND_J2)
        return 1;                            /* R6: a jester goes anywhere */
    int c = naive_colour(kind);
    if (pile_colour(p, t) != NO_COLOUR && pile_colour(p, t) != c)
        return 0;                            /* R6(a) */
    for (int o = 0; o < p->players; o++)
        if (o != t && pile_colour(p, o) == c)
            return 0;                        /* R6(b) */
    return 1;
}

/* Every distinct action of the seat to move (R5, R6): a take if any card is
 * face up, then each kind in hand (once) with each allowed target. */
static int naive_moves(const naive_t *p, fig_action_t out[FIG_MAX_ACTIONS])
{
    if (p->over)
        return 0;
    int s = p->turn, n = 0, tried[FIG_KINDS] = { 0 };
    if (table_cards(p) > 0)
        out[n++] = FIG_ACT_TAKE;
    for (int i = 0; i < p->hand_len[s]; i++) {
        int kind = p->hand[s][i];
        if (tried[kind]++)
            continue;   /* same kind, same moves (R6) */
        for (int t = 0; t < p->players; t++)
            if (allowed(p, s, kind, t))
                out[n++] = fig_act_play(kind, t);
    }
    return n;
}

/* Seat t collects every face-up card (R5 take, R8). */
static void collect_all(naive_t *p, int t)
{
    p->stack[t] += table_cards(p);
    for (int o = 0; o < p->players; o++)
        p->pile_len[o] = 0;
}

/* Applies a legal action: returns 0, or -1 if the card is not in hand. */
static int naive_apply(naive_t *p, fig_action_t a)
{
    int s = p->turn, n = p->players, next;
    if (a == FIG_ACT_TAKE) {
        collect_all(p, s);
        next = s;                            /* R9 ruling */
    } else {
        int kind = a & 31, t = a >> 5 & 7, at = -1;
        for (int i = 0; i < p->hand_len[s] && at < 0; i++)
            if (p->hand[s][i] == kind)
                at = i;
        if (at < 0)
            return -1;
        for (int i = at; i + 1 < p->hand_len[s]; i++)
            p->hand[s][i] = p->hand[s][i + 1];
        p->hand_len[s]--;
        p->pile[t][p->pile_len[t]++] = kind;
        next = (s + 1) % n;
        if (kind == KIND_RING) {             /* R7: every pile to the left */
            naive_t old = *p;
            for (int o = 0; o < n; o++) {
                int to = (o + 1) % n;
                p->pile_len[to] = old.pile_len[o];
                memcpy(p->pile[to], old.pile[o], sizeof old.pile[o]);
            }
        } else if (pile_total(p, t) >= 6) {  /* R8 */
            collect_all(p, t);
            next = t;                        /* R9 */
        }
    }
    p->turn = next;
    if (p->hand_len[next] == 0)
        p->over = 1;                         /* R10 */
    return 0;
}

static uint64_t naive_perft(const naive_t *p, int depth)
{
    if (depth == 0)
        return 1;
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = naive_moves(p, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        naive_t child = *p;
        naive_apply(&child, moves[i]);
        total += naive_perft(&child, depth - 1);
    }
    return total;
}

/* Starts a round from a deal: the hands as lists, the King to play. */
static void naive_deal(naive_t *p, int players, const fig_hand_t hands[], int king)
{
    memset(p, 0, sizeof *p);
    p->players = players;
    p->turn = king;
    for (int s = 0; s < players; s++)
        for (int k = 0; k < FIG_KINDS; k++)
            for (int i = 0; i < hands[s].n[k]; i++)
                p->hand[s][p->hand_len[s]++] = k;
}

/* ---- comparing the two ---- */

/* Whether the naive position and the engine's hold the same hands, piles
 * (as multisets of kinds), stacks and seat to move; says what differs. */
static int same_position(const naive_t *p, const fig_state_t *st, char *why, size_t cap)
{
    if (p->turn != st->turn) {
        snprintf(why, cap, "turn %d, the engine says %d", p->turn, st->turn);
        return 0;
    }
    for (int s = 0; s < p->players; s++) {
        fig_hand_t h, pile;
        memset(&h, 0, sizeof h);
        memset(&pile, 0, sizeof pile);
        for (int i = 0; i < p->hand_len[s]; i++)
            h.n[p->hand[s][i]]++;
        sup_pile_kinds(&st->pile[s], &pile);
        fig_hand_t mine;
        memset(&mine, 0, sizeof mine);
        for (int i = 0; i < p->pile_len[s]; i++)
            mine.n[p->pile[s][i]]++;
        if (memcmp(&h, &st->hand[s], sizeof h) != 0) {
            snprintf(why, cap, "hand %d differs", s);
            return 0;
        }
        if (memcmp(&mine, &pile, sizeof pile) != 0) {
            snprintf(why, cap, "pile %d differs", s);
            return 0;
        }
        if (p->stack[s] != st->stack[s]) {
            snprintf(why, cap, "stack %d: %d, the engine says %d", s, p->stack[s], st->stack[s]);
            return 0;
        }
    }
    return 1;
}

/* Replays every round of g in the naive model, checking each recorded move
 * against the naive move list, and leaves p at the end of the record. The
 * King of each round is the seat that ended the previous one (R10). Returns
 * 0, or -1 with a reason in why. */
static int naive_replay(const fig_game_t *g, naive_t *p, char *why, size_t cap)
{
    int king = g->setup.king;
    for (int r = 0; r < g->dealt; r++) {
        naive_deal(p, g->setup.players, g->hands[r], king);
        for (int i = 0; i < g->nmoves[r]; i++) {
            fig_action_t moves[FIG_MAX_ACTIONS], a = g->moves[r][i].action;
            int n = naive_moves(p, moves), found = 0;
            for (int j = 0; j < n; j++)
                found |= moves[j] == a;
            if (!found || g->moves[r][i].seat != p->turn) {
                char act[16];
                snprintf(why, cap, "round %d move %d (%d %s) is not legal in the naive model",
                         r + 1, i + 1, g->moves[r][i].seat, fig_act_format(a, act, sizeof act));
                return -1;
            }
            naive_apply(p, a);
        }
        king = p->turn;   /* if the round ended, its ender holds the King */
    }
    return 0;
}

/* Compares the counts at depth d; on a difference prints both --divide lists
 * (the first move whose counts differ points at the bug). */
static void compare_at(const char *name, const naive_t *p, const fig_state_t *st, int depth,
                       const char *file, int line)
{
    uint64_t want = naive_perft(p, depth), got = fig_state_perft(st, depth);
    if (want == got)
        return;
    print_error("%s: depth %d: fig_state_perft %llu, naive %llu\n", name, depth,
                (unsigned long long)got, (unsigned long long)want);
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = naive_moves(p, moves);
    for (int i = 0; i < n; i++) {
        naive_t child = *p;
        fig_state_t echild;
        char act[16];
        naive_apply(&child, moves[i]);
        memcpy(&echild, st, sizeof echild);
        fig_msg_t msg;
        fig_err_t rc = fig_state_apply(&echild, moves[i], NULL, &msg);
        print_error("  %-6s naive %llu, engine %s%llu\n", fig_act_format(moves[i], act, sizeof act),
                    (unsigned long long)naive_perft(&child, depth - 1),
                    rc == FIG_OK ? "" : "refuses it: ",
                    rc == FIG_OK ? (unsigned long long)fig_state_perft(&echild, depth - 1) : 0ull);
    }
    _fail(file, line);
}
#define COMPARE(name, p, st, depth) compare_at((name), (p), (st), (depth), __FILE__, __LINE__)

/* ---- the model's own sanity: it must see what rules.md's examples say ---- */

static void test_naive_model_follows_examples(void **cm)
{
    (void)cm;
    /* A counter that agrees with the engine only because both are wrong the
     * same way proves nothing, so the model is first held to rules.md's
     * worked examples directly. */
    naive_t p;
    fig_hand_t hands[4];
    memset(hands, 0, sizeof hands);
    naive_deal(&p, 4, hands, 0);
    /* R6/R8: seat 1's pile R2 R2; seat 0 plays J2 in front of seat 1. */
    p.hand[0][p.hand_len[0]++] = KIND_J2;
    p.hand[1][p.hand_len[1]++] = FIG_B1;
    p.pile[1][0] = p.pile[1][1] = FIG_R2;
    p.pile_len[1] = 2;
    assert_int_equal(naive_apply(&p, fig_act_play(KIND_J2, 1)), 0);
    assert_int_equal(p.stack[1], 3);
    assert_int_equal(p.turn, 1);
    assert_int_equal(table_cards(&p), 0);

    /* R6: seat 2's pile J1, seat 3's B1: B2 not to seat 2, G2 and jesters yes. */
    naive_deal(&p, 4, hands, 2);
    p.pile[2][p.pile_len[2]++] = KIND_J1;
    p.pile[3][p.pile_len[3]++] = FIG_B1;
    assert_false(allowed(&p, 2, FIG_B2, 2));
    assert_false(allowed(&p, 2, FIG_B2, 0));
    assert_true(allowed(&p, 2, FIG_B2, 3));
    assert_true(allowed(&p, 2, FIG_G2, 2));
    assert_true(allowed(&p, 2, KIND_J1, 2) && allowed(&p, 2, KIND_J2, 3));

    /* R7: piles [R1] [] [G2] [J1]; seat 1 rings -> [J1] [R1] [RING] [G2]. */
    naive_deal(&p, 4, hands, 1);
    p.hand[1][p.hand_len[1]++] = KIND_RING;
    p.hand[2][p.hand_len[2]++] = FIG_B1;
    p.pile[0][p.pile_len[0]++] = FIG_R1;
    p.pile[2][p.pile_len[2]++] = FIG_G2;
    p.pile[3][p.pile_len[3]++] = KIND_J1;
    assert_int_equal(naive_apply(&p, fig_act_play(KIND_RING, 1)), 0);
    assert_int_equal(p.pile_len[0], 1);
    assert_int_equal(p.pile[0][0], KIND_J1);
    assert_int_equal(p.pile[1][0], FIG_R1);
    assert_int_equal(p.pile[2][0], KIND_RING);
    assert_int_equal(p.pile[3][0], FIG_G2);
    assert_int_equal(p.turn, 2);

    /* R10: seat 3 plays its last card to itself and reaches 6: round over. */
    naive_deal(&p, 4, hands, 3);
    p.hand[3][p.hand_len[3]++] = FIG_R3;
    p.hand[0][p.hand_len[0]++] = FIG_B1;
    p.pile[3][p.pile_len[3]++] = FIG_R2;
    p.pile[3][p.pile_len[3]++] = KIND_J1;
    assert_int_equal(naive_apply(&p, fig_act_play(FIG_R3, 3)), 0);
    assert_true(p.over);
    assert_int_equal(p.turn, 3);
    assert_int_equal(naive_perft(&p, 1), 0);
    assert_int_equal(naive_perft(&p, 0), 1);
}

/* ---- the recorded positions ---- */

static const char *perft_dir(void)
{
    const char *dir = getenv("FIGARO_PERFT_DIR");
    return dir && *dir ? dir : "tests/perft";
}

/* Reads a whole file into a malloc'd buffer (the caller frees it); NULL if
 * it cannot. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap *= 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
        }
        buf = bigger;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Reads tests/perft/<name> into g; fails the test if it cannot. */
static void read_record(const char *name, fig_game_t *g)
{
    char path[512];
    size_t len;
    fig_msg_t msg;
    snprintf(path, sizeof path, "%s/%s", perft_dir(), name);
    char *text = slurp(path, &len);
    if (!text)
        fail_msg("cannot read %s (run from the repository root or set FIGARO_PERFT_DIR)", path);
    fig_err_t rc = fig_fgn_read(g, text, len, &msg);
    free(text);
    if (rc != FIG_OK)
        fail_msg("%s:%d: %s", path, msg.line, msg.text);
    if (g->state.phase != FIG_PHASE_PLAY)
        fail_msg("%s: not a position in play (phase %d): perft needs an unfinished round", path,
                 g->state.phase);
}

/* Each line of perft.txt: "<file> <depth> <count>"; '#' starts a comment. */
static void test_perft_known_counts(void **cm)
{
    (void)cm;
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/perft.txt", perft_dir());
    char *text = slurp(path, &len);
    if (!text)
        fail_msg("cannot read %s (run from the repository root or set FIGARO_PERFT_DIR)", path);
    int lines = 0, files = 0, deepest = 0;
    char last[128] = "";
    char *save = NULL;
    text[len] = '\0';   /* slurp stops with room to spare */
    fig_game_t g;
    naive_t p;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char name[128];
        int depth;
        unsigned long long count;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (sscanf(line, "%127s %d %llu", name, &depth, &count) != 3)
            fail_msg("%s: bad line '%s'", path, line);
        lines++;
        if (strcmp(name, last) != 0) {
            char why[200];
            read_record(name, &g);
            if (naive_replay(&g, &p, why, sizeof why) < 0)
                fail_msg("%s: %s", name, why);
            if (!same_position(&p, &g.state, why, sizeof why))
                fail_msg("%s: the naive replay differs from the engine: %s", name, why);
            snprintf(last, sizeof last, "%s", name);
            files++;
        }
        uint64_t got = fig_state_perft(&g.state, depth);
        if (got != count)
            fail_msg("%s depth %d: fig_state_perft gives %llu, perft.txt says %llu", name, depth,
                     (unsigned long long)got, count);
        COMPARE(name, &p, &g.state, depth);   /* and the naive counter agrees */
        if (depth > deepest)
            deepest = depth;
    }
    free(text);
    assert_true(files >= 4);   /* the file lists several records ... */
    assert_true(deepest >= 3); /* ... to a useful depth */
    print_message("perft.txt: %d counts over %d records checked\n", lines, files);
}

/* ---- random mid-round positions ---- */

static void test_perft_random_positions(void **cm)
{
    (void)cm;
    fig_game_t g, cut;
    int positions = 0;
    for (uint64_t seed = 1; seed <= RANDOM_POSITIONS; seed++) {
        int n = 3 + (int)(seed % 4);
        fig_setup_t setup;
        fig_rng_t rng;
        fig_msg_t msg;
        char name[64], why[200];
        fig_setup_random(&setup, n, seed, NULL);
        fig_rng_seed_stream(&rng, seed, 4);
        fig_game_random(&g, &setup, &rng);
        /* Cut the game in a random round, before the move that ended it, so
         * the position is mid-round (possibly its very first move). */
        int r = (int)fig_rng_below(&rng, FIG_ROUNDS);
        int m = (int)fig_rng_below(&rng, (uint32_t)g.nmoves[r]);
        fig_game_init(&cut, &setup);
        for (int rr = 0; rr <= r; rr++) {
            if (fig_game_deal(&cut, g.hands[rr], &msg) != FIG_OK)
                fail_msg("seed %llu: deal: %s", (unsigned long long)seed, msg.text);
            int moves = rr < r ? g.nmoves[rr] : m;
            for (int i = 0; i < moves; i++)
                if (fig_game_play(&cut, g.moves[rr][i].action, NULL, &msg) != FIG_OK)
                    fail_msg("seed %llu: replay: %s", (unsigned long long)seed, msg.text);
        }
        snprintf(name, sizeof name, "seed %llu (%d players, round %d, move %d)",
                 (unsigned long long)seed, n, r + 1, m);
        assert_int_equal(cut.state.phase, FIG_PHASE_PLAY);
        naive_t p;
        if (naive_replay(&cut, &p, why, sizeof why) < 0)
            fail_msg("%s: %s", name, why);
        if (!same_position(&p, &cut.state, why, sizeof why))
            fail_msg("%s: the naive replay differs from the engine: %s", name, why);
        /* depth 4 on every 8th position keeps the run short under ASan */
        int depth = seed % 8 == 0 ? 4 : 3;
        for (int d = 1; d <= depth; d++)
            COMPARE(name, &p, &cut.state, d);
        positions++;
    }
    print_message("random positions: %d compared\n", positions);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_naive_model_follows_examples),
        cmocka_unit_test(test_perft_known_counts),
        cmocka_unit_test(test_perft_random_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
