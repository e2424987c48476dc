/* SPDX-License-Identifier: MIT */
/* test_fgn.c - the FGN reader and writer (docs: spec/fgn.md).
 *
 * Four groups of tests:
 *   - round trips: random games of 3-6 players, and every unfinished prefix of
 *     them, written, read back and written again (byte-identical, equal games);
 *   - lexical rules: comments, CRLF, tabs, case, header order, road groups, BOM,
 *     UTF-8 names, each variant read to the same game as the canonical text;
 *   - malformed records, one table per kind of mistake: each must fail on the
 *     right line with a message holding the right words;
 *   - the data-driven cases in tests/cases (*.fgn, expectations in comments).
 *
 * Every record is read from an exact-length heap copy with no terminator, so
 * AddressSanitizer catches any read past the end of the input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"

/* ------------------------------------------------------------------ helpers */

/* Reads `len` bytes of text through a heap copy of exactly `len` bytes. */
static fig_err_t read_exact(fig_game_t *g, const char *text, size_t len, fig_msg_t *msg)
{
    char *copy = malloc(len);
    if (len)
        assert_non_null(copy);
    if (len)
        memcpy(copy, text, len);
    fig_err_t rc = fig_fgn_read(g, copy, len, msg);
    free(copy);
    return rc;
}

static fig_err_t read_str(fig_game_t *g, const char *text, fig_msg_t *msg)
{
    return read_exact(g, text, strlen(text), msg);
}

/* Writes g into a fresh heap string (the caller frees it); checks that the
 * length query and the real write agree. */
static char *write_alloc(const fig_game_t *g, size_t *len_out)
{
    char probe[1];
    size_t len = fig_fgn_write(g, probe, 0);
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    size_t again = fig_fgn_write(g, buf, len + 1);
    assert_int_equal(again, len);
    assert_int_equal(buf[len], '\0');
    assert_int_equal(strlen(buf), len);
    if (len_out)
        *len_out = len;
    return buf;
}

static int count_lines(const char *text, size_t len)
{
    int lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    return lines;
}

/* Whether s holds only valid UTF-8 (written independently of the reader). */
static bool valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p, cp, need;
        if (c < 0x80) { p++; continue; }
        if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; }
        else return false;
        for (unsigned i = 1; i <= need; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[i] & 0x3Fu);
        }
        if ((need == 2 && cp < 0x800) || (need == 3 && cp < 0x10000) || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        p += need + 1;
    }
    return true;
}

/* What every error message must be: a non-empty sentence on one line, valid
 * UTF-8 (front ends put it into JSON), not cut off by the buffer. Returns a
 * complaint or NULL. */
static const char *message_problem(const fig_msg_t *msg)
{
    size_t n = strnlen(msg->text, sizeof msg->text);
    if (n == 0)
        return "the message is empty";
    if (n >= sizeof msg->text - 1)
        return "the message fills the whole buffer (cut off?)";
    if (strchr(msg->text, '\n') || strchr(msg->text, '\r'))
        return "the message holds a line break";
    if (!valid_utf8(msg->text))
        return "the message is not valid UTF-8";
    return NULL;
}

/* The first difference between two games, or NULL if they are equal. */
static const char *games_differ(const fig_game_t *a, const fig_game_t *b)
{
    const fig_setup_t *sa = &a->setup, *sb = &b->setup;
    if (sa->players != sb->players)
        return "setup.players";
    if (sa->removed != sb->removed)
        return "setup.removed";
    if (sa->king != sb->king)
        return "setup.king";
    if (sa->has_seed != sb->has_seed || (sa->has_seed && sa->seed != sb->seed))
        return "setup.seed";
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < sa->players - 1; i++)
            if (sa->roads[r][i] != sb->roads[r][i])
                return "setup.roads";
    if (a->has_names != b->has_names)
        return "has_names";
    if (a->has_names)
        for (int s = 0; s < sa->players; s++)
            if (strcmp(a->names[s], b->names[s]) != 0)
                return "names";
    if (a->dealt != b->dealt)
        return "dealt";
    for (int r = 0; r < a->dealt; r++) {
        for (int s = 0; s < sa->players; s++)
            if (memcmp(&a->hands[r][s], &b->hands[r][s], sizeof(fig_hand_t)) != 0)
                return "hands";
        if (a->nmoves[r] != b->nmoves[r])
            return "nmoves";
        for (int i = 0; i < a->nmoves[r]; i++)
            if (a->moves[r][i].seat != b->moves[r][i].seat ||
                a->moves[r][i].action != b->moves[r][i].action)
                return "moves";
    }
    const fig_state_t *x = &a->state, *y = &b->state;
#define SAME(f) if (memcmp(&x->f, &y->f, sizeof x->f) != 0) return "state." #f
    SAME(players); SAME(round); SAME(phase); SAME(turn); SAME(king); SAME(removed);
    SAME(table_cards); SAME(colourless); SAME(owner); SAME(hand_size); SAME(stack);
    SAME(nroad); SAME(present); SAME(hand); SAME(pile); SAME(group); SAME(road);
#undef SAME
    return NULL;
}

static void random_game(fig_game_t *g, int players, uint64_t seed, const uint16_t *lengths)
{
    fig_setup_t setup;
    fig_rng_t rng;
    fig_setup_random(&setup, players, seed, lengths);
    fig_rng_seed(&rng, seed * 7919 + 1);
    fig_game_random(g, &setup, &rng);
}

/* out = g cut to its first `dealt` deals, with `moves` actions in the last
 * of them (all actions of the earlier rounds). */
static void prefix_game(fig_game_t *out, const fig_game_t *g, int dealt, int moves)
{
    fig_msg_t msg;
    fig_game_init(out, &g->setup);
    out->has_names = g->has_names;
    memcpy(out->names, g->names, sizeof out->names);
    for (int r = 0; r < dealt; r++) {
        assert_int_equal(fig_game_deal(out, g->hands[r], &msg), FIG_OK);
        int n = r == dealt - 1 ? moves : g->nmoves[r];
        for (int i = 0; i < n; i++)
            assert_int_equal(fig_game_play(out, g->moves[r][i].action, NULL, &msg), FIG_OK);
    }
}

/* Write -> read -> write: byte-identical, and the game read equals g.
 * Returns a complaint or NULL. */
static const char *round_trip_problem(const fig_game_t *g, fig_msg_t *msg)
{
    static fig_game_t back;
    static char why[256];
    size_t n1, n2;
    char *t1 = write_alloc(g, &n1);
    const char *problem = NULL;
    if (read_exact(&back, t1, n1, msg) != FIG_OK) {
        snprintf(why, sizeof why, "written record does not read: line %d: %s", msg->line,
                 msg->text);
        problem = why;
    } else {
        char *t2 = write_alloc(&back, &n2);
        const char *d = games_differ(g, &back);
        if (n1 != n2 || memcmp(t1, t2, n1) != 0)
            problem = "write(read(write(g))) differs from write(g)";
        else if (d) {
            snprintf(why, sizeof why, "the game read back differs in %s", d);
            problem = why;
        }
        free(t2);
    }
    free(t1);
    return problem;
}

/* --------------------------------------------------- a hand-made 4-player deal
 * Lines 1-4 the header, 5-9 round 1's deal, 10-15 an opening after which seat
 * 2 is to move, seat 0's pile is two jesters (no colour) and seat 3 has blue. */
#define MAGIC "figaro 1\n"
#define ROADS4 "roads 9 5 2 / 14 11 1 / 13 8 3\n"
#define HEAD4 MAGIC "players 4\n" ROADS4 "king 0\n"
#define HAND4_0 "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RING\n"
#define HAND4_1 "hand 1 G1 G1 G1 G2 G2 G2 G2 G2 G2 G3 P2 J2 J2 RING RING\n"
#define HAND4_2 "hand 2 B1 B1 B2 B2 B2 Y1 Y1 Y1 Y2 Y2 Y2 Y3 P1 P2 P3\n"
#define HAND4_3 "hand 3 B1 B2 B2 B2 B3 Y2 Y2 Y2 P1 P1 P2 P2 P2 P2 RING\n"
#define DEAL4 "round 1\n" HAND4_0 HAND4_1 HAND4_2 HAND4_3
#define OPENING "0 J1>0\n1 G1>1\n2 Y1>2\n3 B1>3\n0 J1>0\n1 G1>1\n"

/* Lines 1-5 a 3-player header (purple out), 6-9 round 1's deal. */
#define ROADS3 "roads 9 5 / 14 11 / 13 8\n"
#define HEAD3 MAGIC "players 3\nremoved P\n" ROADS3 "king 0\n"
#define HAND3_0 "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J2 RING RING\n"
#define HAND3_1 "hand 1 B1 B1 B1 B2 B2 B2 B2 B2 B2 B3 G1 G1 G1 G2 G2\n"
#define HAND3_2 "hand 2 G2 G2 G2 G2 G3 Y1 Y1 Y1 Y2 Y2 Y2 Y2 Y2 Y2 Y3\n"
#define DEAL3 "round 1\n" HAND3_0 HAND3_1 HAND3_2

/* The canonical form of a small record: what the writer must produce. */
static const char canonical4[] =
    "figaro 1\n"
    "players 4\n"
    "names Ann Bob Cid Dee\n"
    "seed 12345\n"
    "removed -\n"
    "roads 9 5 2 / 14 11 1 / 13 8 3\n"
    "king 0\n"
    "\n"
    "round 1\n"
    HAND4_0 HAND4_1 HAND4_2 HAND4_3
    "0 J1>0\n"
    "1 G1>1\n"
    "2 Y1>2\n"
    "3 RING\n"
    "0 take\n"
    "0 R1>0\n";

static const char canonical3[] =
    "figaro 1\n"
    "players 3\n"
    "removed P\n"
    "roads 9 5 / 14 11 / 13 8\n"
    "king 1\n"
    "\n"
    "round 1\n"
    HAND3_0 HAND3_1 HAND3_2
    "1 B1>1\n"
    "2 Y1>2\n"
    "0 RING\n"
    "1 G1>1\n";

/* -------------------------------------------------------------- round trips */

static void test_write_canonical_form(void **state)
{
    (void)state;
    const char *texts[] = { canonical4, canonical3 };
    for (int i = 0; i < 2; i++) {
        fig_game_t g;
        fig_msg_t msg;
        size_t n;
        if (read_str(&g, texts[i], &msg) != FIG_OK)
            fail_msg("canonical%d: line %d: %s", i, msg.line, msg.text);
        char *out = write_alloc(&g, &n);
        if (strcmp(out, texts[i]) != 0)
            fail_msg("canonical%d is not written back as read:\n%s", i, out);
        free(out);
        assert_string_equal(msg.text, "");   /* success leaves an empty message */
        assert_int_equal(msg.line, 0);
    }
}

static void test_read_fills_the_game(void **state)
{
    (void)state;
    fig_game_t g;
    fig_msg_t msg;
    assert_int_equal(read_str(&g, canonical4, &msg), FIG_OK);
    assert_int_equal(g.setup.players, 4);
    assert_int_equal(g.setup.removed, FIG_NO_COLOUR);
    assert_int_equal(g.setup.king, 0);
    assert_true(g.setup.has_seed);
    assert_true(g.setup.seed == 12345);
    assert_int_equal(g.setup.roads[1][0], 14);
    assert_int_equal(g.setup.roads[1][2], 1);
    assert_true(g.has_names);
    assert_string_equal(g.names[3], "Dee");
    assert_int_equal(g.dealt, 1);
    assert_int_equal(g.hands[0][1].n[FIG_RING], 2);
    assert_int_equal(g.hands[0][3].n[FIG_RING], 1);
    assert_int_equal(g.hands[0][2].n[FIG_P3], 1);
    assert_int_equal(g.nmoves[0], 6);
    assert_int_equal(g.moves[0][3].seat, 3);
    assert_int_equal(g.moves[0][3].action, fig_act_play(FIG_RING, 3));
    assert_int_equal(g.moves[0][4].action, FIG_ACT_TAKE);
    assert_int_equal(g.moves[0][5].action, fig_act_play(FIG_R1, 0));
    /* After "0 take", seat 0 collected 4 cards and played R1; seat 1 is next. */
    assert_int_equal(g.state.phase, FIG_PHASE_PLAY);
    assert_int_equal(g.state.turn, 1);
    assert_int_equal(g.state.stack[0], 4);
    assert_int_equal(g.state.pile[0].colour, FIG_RED);
    assert_int_equal(g.state.hand_size[0], 13);

    assert_int_equal(read_str(&g, canonical3, &msg), FIG_OK);
    assert_int_equal(g.setup.players, 3);
    assert_int_equal(g.setup.removed, FIG_PURPLE);
    assert_false(g.has_names);
    assert_false(g.setup.has_seed);
    /* "0 RING" rotated the piles [RING] [B1] [Y1] to [Y1] [RING] [B1]; seat 1
     * then put G1 on its colourless pile, and seat 2 is next. */
    assert_int_equal(g.state.turn, 2);
    assert_int_equal(g.state.pile[0].colour, FIG_YELLOW);
    assert_int_equal(g.state.pile[1].colour, FIG_GREEN);
    assert_int_equal(g.state.pile[1].n[5], 1);
    assert_int_equal(g.state.pile[2].colour, FIG_BLUE);
}

static void test_round_trip_random_games(void **state)
{
    (void)state;
    static fig_game_t g;
    static const uint16_t odd_lengths[15] = { 65535, 1, 40000, 7, 300, 12345, 2, 999,
                                              31, 64000, 5, 17, 100, 4242, 60000 };
    static const char *const name_pool[] = { "Ann", "Bob", "Zoë", "李雷", "Ørjan",
                                             "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "é-é", "9" };
    fig_msg_t msg;
    int games = 0;
    for (int players = FIG_MIN_PLAYERS; players <= FIG_MAX_PLAYERS; players++)
        for (uint64_t seed = 1; seed <= 40; seed++) {
            random_game(&g, players, seed * 1000003u + (uint64_t)players,
                        seed % 3 == 0 ? odd_lengths : NULL);
            if (!fig_game_over(&g))
                fail_msg("players %d seed %llu: the random game did not finish", players,
                         (unsigned long long)seed);
            if (seed % 2) {   /* names on half of the games */
                g.has_names = true;
                for (int s = 0; s < players; s++)
                    snprintf(g.names[s], sizeof g.names[s], "%s",
                             name_pool[(seed + (uint64_t)s) % 8]);
            }
            if (seed % 4 == 1)
                g.setup.has_seed = false;
            const char *problem = round_trip_problem(&g, &msg);
            if (problem)
                fail_msg("players %d seed %llu: %s", players, (unsigned long long)seed, problem);
            games++;
        }
    assert_int_equal(games, 160);
}

/* Every unfinished prefix of a few games: each deal with 0..all its moves,
 * and the header alone. Covers round boundaries (a round over, the next not
 * yet dealt) and records that stop right after a deal. */
static void test_round_trip_unfinished(void **state)
{
    (void)state;
    static fig_game_t g, p;
    fig_msg_t msg;
    for (int players = FIG_MIN_PLAYERS; players <= FIG_MAX_PLAYERS; players++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            random_game(&g, players, seed, NULL);
            int checked = 0;
            for (int dealt = 0; dealt <= g.dealt; dealt++) {
                int last = dealt ? g.nmoves[dealt - 1] : 0;
                for (int moves = 0; moves <= last; moves++) {
                    prefix_game(&p, &g, dealt, moves);
                    const char *problem = round_trip_problem(&p, &msg);
                    if (problem)
                        fail_msg("players %d seed %llu, %d deals, %d moves: %s", players,
                                 (unsigned long long)seed, dealt, moves, problem);
                    bool over = dealt == 3 && moves == last;
                    if (fig_game_over(&p) != over)
                        fail_msg("players %d seed %llu: finished flag wrong at %d/%d",
                                 players, (unsigned long long)seed, dealt, moves);
                    checked++;
                }
            }
            assert_true(checked > 3 * 30);
        }
}

/* Cut a written record after every line: the prefix must read unless it stops
 * before the header is complete or inside a deal; what reads must write back
 * as the prefix itself (minus a trailing blank line). */
static void test_line_truncations(void **state)
{
    (void)state;
    static fig_game_t g, back;
    fig_msg_t msg;
    for (int players = FIG_MIN_PLAYERS; players <= FIG_MAX_PLAYERS; players++) {
        random_game(&g, players, 77 + (uint64_t)players, NULL);
        g.has_names = players % 2 == 0;
        for (int s = 0; s < players; s++)
            snprintf(g.names[s], sizeof g.names[s], "P%d", s);
        size_t n;
        char *text = write_alloc(&g, &n);
        bool header_done = false;
        int hands_missing = 0, line = 0;
        for (size_t end = 0; end < n; end++) {
            if (text[end] != '\n')
                continue;
            size_t start = end;
            while (start > 0 && text[start - 1] != '\n')
                start--;
            line++;
            const char *l = text + start;
            if (strncmp(l, "king ", 5) == 0)
                header_done = true;
            else if (strncmp(l, "round ", 6) == 0)
                hands_missing = players;
            else if (strncmp(l, "hand ", 5) == 0)
                hands_missing--;
            bool want_ok = header_done && hands_missing == 0;
            fig_err_t rc = read_exact(&back, text, end + 1, &msg);
            if (want_ok && rc != FIG_OK)
                fail_msg("players %d, cut after line %d: line %d: %s", players, line, msg.line,
                         msg.text);
            if (!want_ok) {
                if (rc == FIG_OK)
                    fail_msg("players %d, cut after line %d: accepted", players, line);
                if (msg.line != line)
                    fail_msg("players %d, cut after line %d: error on line %d (%s)", players,
                             line, msg.line, msg.text);
                if (hands_missing && !strstr(msg.text, "ends inside round"))
                    fail_msg("players %d, cut after line %d: %s", players, line, msg.text);
                continue;
            }
            size_t m;
            char *again = write_alloc(&back, &m);
            size_t expect = end + 1;
            if (expect >= 2 && text[expect - 2] == '\n')
                expect--;   /* the writer puts the blank line only before a round */
            if (m != expect || memcmp(again, text, m) != 0)
                fail_msg("players %d, cut after line %d: not written back as read", players,
                         line);
            free(again);
        }
        free(text);
    }
}

/* Cut a written record at every byte. Whatever is read must be reported on the
 * last line of the cut text (everything before it is a valid record), and the
 * exact-length buffers let ASan catch any read past the cut. */
static void test_byte_truncations(void **state)
{
    (void)state;
    static fig_game_t g, back;
    fig_msg_t msg;
    for (int players = FIG_MIN_PLAYERS; players <= FIG_MAX_PLAYERS; players++) {
        random_game(&g, players, 500 + (uint64_t)players, NULL);
        g.has_names = true;
        for (int s = 0; s < players; s++)
            snprintf(g.names[s], sizeof g.names[s], "Zoë%d", s);
        size_t n;
        char *text = write_alloc(&g, &n);
        int oks = 0, errors = 0;
        for (size_t cut = 0; cut <= n; cut++) {
            if (read_exact(&back, text, cut, &msg) == FIG_OK) {
                oks++;
                continue;
            }
            errors++;
            int lines = count_lines(text, cut);
            int last = cut && text[cut - 1] == '\n' ? lines - 1 : lines;
            if (msg.line != last)
                fail_msg("players %d, cut at byte %zu (last line %d): error on line %d: %s",
                         players, cut, last, msg.line, msg.text);
            const char *problem = message_problem(&msg);
            if (problem)
                fail_msg("players %d, cut at byte %zu: %s: %s", players, cut, problem, msg.text);
        }
        assert_true(oks > 100);
        assert_true(errors > 100);
        free(text);
    }
}

/* fig_fgn_write behaves like snprintf: cap 0 writes nothing, a short buffer
 * holds a NUL-terminated prefix, the return value is always the full length. */
static void test_write_snprintf_semantics(void **state)
{
    (void)state;
    fig_game_t g;
    fig_msg_t msg;
    assert_int_equal(read_str(&g, canonical4, &msg), FIG_OK);
    size_t full = strlen(canonical4);
    assert_int_equal(fig_fgn_write(&g, NULL, 0), full);
    for (size_t cap = 1; cap <= full + 2; cap++) {
        char *buf = malloc(cap);   /* exact size: ASan catches an overflow */
        assert_non_null(buf);
        size_t n = fig_fgn_write(&g, buf, cap);
        assert_int_equal(n, full);
        size_t kept = cap - 1 < full ? cap - 1 : full;
        if (strlen(buf) != kept || memcmp(buf, canonical4, kept) != 0)
            fail_msg("cap %zu: the buffer does not hold the first %zu bytes", cap, kept);
        free(buf);
    }
}

/* ----------------------------------------------------------- lexical rules */

/* Each variant must read to the same game as `canonical` and be written back
 * exactly as `canonical`. */
static void expect_same_game(const char *name, const char *variant, size_t len,
                             const char *canonical)
{
    static fig_game_t want, got;
    fig_msg_t msg;
    if (read_str(&want, canonical, &msg) != FIG_OK)
        fail_msg("%s: the canonical text fails: line %d: %s", name, msg.line, msg.text);
    if (read_exact(&got, variant, len, &msg) != FIG_OK)
        fail_msg("%s: line %d: %s", name, msg.line, msg.text);
    const char *d = games_differ(&want, &got);
    if (d)
        fail_msg("%s: the game differs in %s", name, d);
    size_t n;
    char *out = write_alloc(&got, &n);
    if (strcmp(out, canonical) != 0)
        fail_msg("%s: written back as\n%s", name, out);
    free(out);
}

#define SAME_GAME(variant, canonical) \
    expect_same_game(#variant, variant, sizeof variant - 1, canonical)

static void test_lexical_comments_blanks_tabs(void **state)
{
    (void)state;
    static const char v[] =
        "# a game record\n"
        "\n"
        "   # indented comment\n"
        "figaro 1   # the magic line\n"
        "\t\n"
        "players\t4\n"
        "names   Ann\tBob Cid  Dee   \n"
        "  seed 12345#glued comment\n"
        "removed -\n"
        "roads 9 5 2 / 14 11 1 / 13 8 3 # three groups\n"
        "king 0\n"
        "# before round 1\n"
        "\n\n"
        "round 1 # deal\n"
        HAND4_0
        "# between hands\n"
        HAND4_1 HAND4_2
        "\n"
        "hand 3 B1 B2 B2 B2 B3 Y2 Y2 Y2 P1 P1 P2 P2 P2 P2 RING # seat 3\n"
        "0 J1>0\n"
        "\t1\tG1>1\t\n"
        "2    Y1>2\n"
        "3 RING#ring\n"
        "# ## #! not an expectation here\n"
        "0 take\n"
        "0 R1>0\n"
        "# the end\n";
    SAME_GAME(v, canonical4);
}

static void test_lexical_crlf(void **state)
{
    (void)state;
    static const char all_crlf[] =
        "figaro 1\r\nplayers 4\r\nnames Ann Bob Cid Dee\r\nseed 12345\r\nremoved -\r\n"
        "roads 9 5 2 / 14 11 1 / 13 8 3\r\nking 0\r\n\r\nround 1\r\n"
        "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RING\r\n"
        "hand 1 G1 G1 G1 G2 G2 G2 G2 G2 G2 G3 P2 J2 J2 RING RING\r\n"
        "hand 2 B1 B1 B2 B2 B2 Y1 Y1 Y1 Y2 Y2 Y2 Y3 P1 P2 P3\r\n"
        "hand 3 B1 B2 B2 B2 B3 Y2 Y2 Y2 P1 P1 P2 P2 P2 P2 RING\r\n"
        "0 J1>0\r\n1 G1>1 # c\r\n2 Y1>2\r\n3 RING\r\n0 take\r\n0 R1>0\r\n";
    SAME_GAME(all_crlf, canonical4);
    static const char mixed_no_final_newline[] =
        "figaro 1\r\nplayers 4\nnames Ann Bob Cid Dee\r\nseed 12345\nremoved -\r\n"
        "roads 9 5 2 / 14 11 1 / 13 8 3\nking 0\r\n\r\n\nround 1\n"
        "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RING\r\n"
        HAND4_1
        "hand 2 B1 B1 B2 B2 B2 Y1 Y1 Y1 Y2 Y2 Y2 Y3 P1 P2 P3\r\n"
        HAND4_3
        "0 J1>0\r\n1 G1>1\n2 Y1>2\r\n3 RING\n0 take\r\n0 R1>0";
    SAME_GAME(mixed_no_final_newline, canonical4);
    static const char crlf_no_final_newline[] =
        "figaro 1\r\nplayers 4\r\nnames Ann Bob Cid Dee\r\nseed 12345\r\n"
        "roads 9 5 2 / 14 11 1 / 13 8 3\r\nking 0\r\nround 1\r\n"
        HAND4_0 HAND4_1 HAND4_2 HAND4_3
        "0 J1>0\r\n1 G1>1\r\n2 Y1>2\r\n3 RING\r\n0 take\r\n0 R1>0\r\n";
    SAME_GAME(crlf_no_final_newline, canonical4);
}

static void test_lexical_case_insensitive(void **state)
{
    (void)state;
    static const char lower[] =
        "figaro 1\nplayers 4\nnames Ann Bob Cid Dee\nseed 12345\nremoved -\n"
        "roads 9 5 2 / 14 11 1 / 13 8 3\nking 0\nround 1\n"
        "hand 0 r1 r1 r1 r2 r2 r2 r2 r2 r2 r3 j1 j1 j1 ring ring\n"
        "hand 1 g1 g1 g1 g2 g2 g2 g2 g2 g2 g3 p2 j2 j2 ring ring\n"
        "hand 2 b1 b1 b2 b2 b2 y1 y1 y1 y2 y2 y2 y3 p1 p2 p3\n"
        "hand 3 b1 b2 b2 b2 b3 y2 y2 y2 p1 p1 p2 p2 p2 p2 ring\n"
        "0 j1>0\n1 g1>1\n2 y1>2\n3 ring\n0 take\n0 r1>0\n";
    SAME_GAME(lower, canonical4);
    static const char upper[] =
        "FIGARO 1\nPLAYERS 4\nNAMES Ann Bob Cid Dee\nSEED 12345\nREMOVED -\n"
        "ROADS 9 5 2 / 14 11 1 / 13 8 3\nKING 0\nROUND 1\n"
        "HAND 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RING\n"
        "HAND 1 G1 G1 G1 G2 G2 G2 G2 G2 G2 G3 P2 J2 J2 RING RING\n"
        "HAND 2 B1 B1 B2 B2 B2 Y1 Y1 Y1 Y2 Y2 Y2 Y3 P1 P2 P3\n"
        "HAND 3 B1 B2 B2 B2 B3 Y2 Y2 Y2 P1 P1 P2 P2 P2 P2 RING\n"
        "0 J1>0\n1 G1>1\n2 Y1>2\n3 RING\n0 TAKE\n0 R1>0\n";
    SAME_GAME(upper, canonical4);
    static const char mixed[] =
        "Figaro 1\nPlayers 4\nNames Ann Bob Cid Dee\nSeed 12345\nRemoved -\n"
        "Roads 9 5 2 / 14 11 1 / 13 8 3\nKing 0\nRound 1\n"
        "Hand 0 r1 R1 r1 R2 r2 R2 r2 R2 r2 R3 j1 J1 j1 Ring rInG\n"
        "hAnD 1 G1 g1 G1 g2 G2 g2 G2 g2 G2 g3 p2 J2 j2 RiNg RING\n"
        HAND4_2 HAND4_3
        "0 J1>0\n1 g1>1\n2 Y1>2\n3 Ring\n0 Take\n0 r1>0\n";
    SAME_GAME(mixed, canonical4);
    static const char removed_lower[] =
        "figaro 1\nplayers 3\nremoved p\nroads 9 5 / 14 11 / 13 8\nking 1\nround 1\n"
        HAND3_0 HAND3_1 HAND3_2 "1 b1>1\n2 y1>2\n0 ring\n1 g1>1\n";
    SAME_GAME(removed_lower, canonical3);
}

static void test_lexical_header_order(void **state)
{
    (void)state;
    static const char reversed[] =
        "figaro 1\nking 0\nroads 9 5 2 / 14 11 1 / 13 8 3\nremoved -\nseed 12345\n"
        "names Ann Bob Cid Dee\nplayers 4\nround 1\n"
        HAND4_0 HAND4_1 HAND4_2 HAND4_3 "0 J1>0\n1 G1>1\n2 Y1>2\n3 RING\n0 take\n0 R1>0\n";
    SAME_GAME(reversed, canonical4);
    static const char shuffled[] =
        "figaro 1\nseed 12345\nroads 9 5 2 / 14 11 1 / 13 8 3\nnames Ann Bob Cid Dee\n"
        "king 0\nplayers 4\nround 1\n"
        HAND4_0 HAND4_1 HAND4_2 HAND4_3 "0 J1>0\n1 G1>1\n2 Y1>2\n3 RING\n0 take\n0 R1>0\n";
    SAME_GAME(shuffled, canonical4);
    static const char three[] =
        "figaro 1\nking 1\nremoved P\nroads 5 9 / 11 14 / 8 13\nplayers 3\nround 1\n"
        HAND3_2 HAND3_0 HAND3_1 "1 B1>1\n2 Y1>2\n0 RING\n1 G1>1\n";
    SAME_GAME(three, canonical3);
}

static void test_lexical_roads_forms(void **state)
{
    (void)state;
    /* The three groups belong to rounds 1, 2, 3 in the order written; inside
     * a group the lengths may come in any order. "/" glued or spaced. */
#define WITH_ROADS(r) "figaro 1\nplayers 4\nnames Ann Bob Cid Dee\nseed 12345\n" r \
        "king 0\nround 1\n" HAND4_0 HAND4_1 HAND4_2 HAND4_3 \
        "0 J1>0\n1 G1>1\n2 Y1>2\n3 RING\n0 take\n0 R1>0\n"
    static const char ascending[] = WITH_ROADS("roads 2 5 9 / 1 11 14 / 3 8 13\n");
    static const char mixed_order[] = WITH_ROADS("roads 5 2 9 / 11 1 14 / 8 13 3\n");
    static const char glued[] = WITH_ROADS("roads 9 5 2/14 11 1/13 8 3\n");
    static const char half_glued[] = WITH_ROADS("roads 9 5 2 /14 11 1/ 13 8 3\n");
    static const char tabs[] = WITH_ROADS("roads\t9\t5\t2\t/\t14\t11\t1\t/\t13\t8\t3\n");
    static const char glued_all[] = WITH_ROADS("roads 9 5 2/ 14 11 1 /13 8 3\n");
    SAME_GAME(ascending, canonical4);
    SAME_GAME(mixed_order, canonical4);
    SAME_GAME(glued, canonical4);
    SAME_GAME(half_glued, canonical4);
    SAME_GAME(tabs, canonical4);
    SAME_GAME(glued_all, canonical4);
#undef WITH_ROADS
    /* The groups are not interchangeable: swapping two is another game. */
    static fig_game_t g;
    fig_msg_t msg;
    assert_int_equal(read_str(&g, MAGIC "players 4\nroads 14 11 1 / 9 5 2 / 13 8 3\nking 0\n",
                              &msg), FIG_OK);
    assert_int_equal(g.setup.roads[0][0], 14);
    assert_int_equal(g.setup.roads[1][0], 9);
    /* Lengths up to 65535 are accepted (FIG_MAX_ROAD). */
    assert_int_equal(read_str(&g, MAGIC "players 3\nremoved R\nroads 65535 1 / 2 3 / 4 5\n"
                                        "king 0\n", &msg), FIG_OK);
    assert_int_equal(g.setup.roads[0][0], 65535);
}

static void test_lexical_ring_forms(void **state)
{
    (void)state;
    static const char ring_target[] =
        "figaro 1\nplayers 4\nnames Ann Bob Cid Dee\nseed 12345\n" ROADS4 "king 0\nround 1\n"
        HAND4_0 HAND4_1 HAND4_2 HAND4_3 "0 J1>0\n1 G1>1\n2 Y1>2\n3 RING>3\n0 take\n0 R1>0\n";
    SAME_GAME(ring_target, canonical4);
    static const char ring_lower_target[] =
        "figaro 1\nplayers 4\nnames Ann Bob Cid Dee\nseed 12345\n" ROADS4 "king 0\nround 1\n"
        HAND4_0 HAND4_1 HAND4_2 HAND4_3 "0 J1>0\n1 G1>1\n2 Y1>2\n3 ring>3\n0 take\n0 R1>0\n";
    SAME_GAME(ring_lower_target, canonical4);
    static const char ring_by_0[] =
        "figaro 1\nplayers 3\nremoved P\nroads 9 5 / 14 11 / 13 8\nking 1\nround 1\n"
        HAND3_0 HAND3_1 HAND3_2 "1 B1>1\n2 Y1>2\n0 RING>0\n1 G1>1\n";
    SAME_GAME(ring_by_0, canonical3);
}

static void test_lexical_optional_headers(void **state)
{
    (void)state;
    static fig_game_t g;
    fig_msg_t msg;
    /* 4+ players: names, seed and removed may all be left out ... */
    if (read_str(&g, HEAD4 DEAL4 OPENING, &msg) != FIG_OK)
        fail_msg("line %d: %s", msg.line, msg.text);
    assert_false(g.has_names);
    assert_false(g.setup.has_seed);
    assert_int_equal(g.setup.removed, FIG_NO_COLOUR);
    assert_int_equal(g.state.turn, 2);
    /* ... or "removed -" given, for any of 4, 5, 6 players. */
    assert_int_equal(read_str(&g, MAGIC "players 4\nremoved -\n" ROADS4 "king 3\n", &msg), FIG_OK);
    assert_int_equal(g.setup.king, 3);
    assert_int_equal(read_str(&g, MAGIC "players 5\nremoved -\nroads 1 2 3 4 / 5 6 7 8 / "
                                        "9 10 11 12\nking 4\n", &msg), FIG_OK);
    assert_int_equal(read_str(&g, MAGIC "players 6\nroads 1 2 3 4 5 / 6 7 8 9 10 / "
                                        "11 12 13 14 15\nking 5\n", &msg), FIG_OK);
    assert_int_equal(g.setup.roads[2][0], 15);
    assert_int_equal(g.dealt, 0);
    assert_int_equal(g.state.phase, FIG_PHASE_DEAL);
    /* seed: the whole uint64 range. */
    assert_int_equal(read_str(&g, MAGIC "players 4\nseed 18446744073709551615\n" ROADS4
                                        "king 0\n", &msg), FIG_OK);
    assert_true(g.setup.has_seed && g.setup.seed == UINT64_MAX);
    assert_int_equal(read_str(&g, MAGIC "players 4\nseed 0\n" ROADS4 "king 0\n", &msg), FIG_OK);
    assert_true(g.setup.has_seed && g.setup.seed == 0);
}

/* fig_fgn_name_byte_ok, by which the server cleans names and the host checks
 * them, is the reader's own rule: a name holding the byte is written and read
 * back unchanged exactly when the predicate allows the byte. */
static void test_name_byte_rule_is_the_readers(void **state)
{
    (void)state;
    int allowed = 0;
    for (int c = 1; c < 0x80; c++) {
        fig_game_t g;
        fig_msg_t msg;
        assert_int_equal(read_str(&g, canonical4, &msg), FIG_OK);
        snprintf(g.names[1], sizeof g.names[1], "B%cb", c);
        char *text = write_alloc(&g, NULL);
        fig_game_t back;
        bool same = read_str(&back, text, &msg) == FIG_OK && back.has_names &&
                    strcmp(back.names[1], g.names[1]) == 0;
        free(text);
        if (same != fig_fgn_name_byte_ok((unsigned char)c))
            fail_msg("byte 0x%02X: the reader %s it in a name, the predicate %s", c,
                     same ? "keeps" : "does not keep", same ? "refuses" : "allows");
        allowed += same;
    }
    assert_int_equal(allowed, 0x7E - ' ' - 1);   /* '!' to '~' but '#' */
}

static void test_lexical_utf8_names_and_bom(void **state)
{
    (void)state;
    static fig_game_t g;
    fig_msg_t msg;
    /* 32 bytes is the longest name: 16 two-byte letters. */
    static const char names[] =
        "figaro 1\nplayers 4\nnames Zoë 李雷 Ørjan éééééééééééééééé\n" ROADS4 "king 0\n";
    if (read_str(&g, names, &msg) != FIG_OK)
        fail_msg("line %d: %s", msg.line, msg.text);
    assert_string_equal(g.names[0], "Zoë");
    assert_string_equal(g.names[1], "李雷");
    assert_string_equal(g.names[3], "éééééééééééééééé");
    size_t n;
    char *out = write_alloc(&g, &n);
    assert_non_null(strstr(out, "names Zoë 李雷 Ørjan éééééééééééééééé\n"));
    free(out);
    static const char max_ascii[] = "figaro 1\nplayers 3\nnames "
        "abcdefghijklmnopqrstuvwxyz012345 b c\nremoved G\n" ROADS3 "king 0\n";
    assert_int_equal(read_str(&g, max_ascii, &msg), FIG_OK);
    assert_int_equal(strlen(g.names[0]), 32);

    static const char bom[] = "\xEF\xBB\xBF" "figaro 1\nplayers 4\nnames Ann Bob Cid Dee\n"
        "seed 12345\nremoved -\n" ROADS4 "king 0\n\nround 1\n" HAND4_0 HAND4_1 HAND4_2 HAND4_3
        "0 J1>0\n1 G1>1\n2 Y1>2\n3 RING\n0 take\n0 R1>0\n";
    SAME_GAME(bom, canonical4);
    static const char bom_comment_crlf[] = "\xEF\xBB\xBF# comment first\r\nfigaro 1\r\n"
        "players 4\r\nnames Ann Bob Cid Dee\r\nseed 12345\r\n" "roads 9 5 2/14 11 1/13 8 3\r\n"
        "king 0\r\nround 1\r\n" HAND4_0 HAND4_1 HAND4_2 HAND4_3
        "0 J1>0\r\n1 G1>1\r\n2 Y1>2\r\n3 RING\r\n0 take\r\n0 R1>0\r\n";
    SAME_GAME(bom_comment_crlf, canonical4);
    /* UTF-8 in comments is text like any other. */
    static const char utf8_comment[] = "# Figaro — partie du 3 mai, café ☕ 🎲\n"
        "figaro 1\nplayers 4\n" ROADS4 "king 0 # le roi ♔\n";
    assert_int_equal(read_str(&g, utf8_comment, &msg), FIG_OK);
}

static void test_lexical_line_length_limit(void **state)
{
    (void)state;
    static fig_game_t g;
    fig_msg_t msg;
    size_t max = FIG_FGN_LINE_MAX;
    char *buf = malloc(max + 64);
    assert_non_null(buf);
    /* A comment line of exactly FIG_FGN_LINE_MAX bytes is fine, with LF or CRLF. */
    for (int crlf = 0; crlf < 2; crlf++) {
        size_t n = 0;
        memcpy(buf, "figaro 1\n", 9);
        n = 9;
        buf[n++] = '#';
        memset(buf + n, 'x', max - 1);
        n += max - 1;
        if (crlf)
            buf[n++] = '\r';
        buf[n++] = '\n';
        static const char rest[] = "players 4\n" ROADS4 "king 0\n";
        memcpy(buf + n, rest, sizeof rest - 1);
        n += sizeof rest - 1;
        if (read_exact(&g, buf, n, &msg) != FIG_OK)
            fail_msg("crlf %d: line %d: %s", crlf, msg.line, msg.text);
    }
    /* The same line one byte longer is refused. */
    size_t n = 9;
    buf[n++] = '#';
    memset(buf + n, 'x', max);
    n += max;
    buf[n++] = '\n';
    assert_int_equal(read_exact(&g, buf, n, &msg), FIG_ERR_INPUT);
    assert_int_equal(msg.line, 2);
    assert_non_null(strstr(msg.text, "too long"));
    free(buf);
}

/* ------------------------------------------------------- malformed records */

typedef struct {
    const char *name;
    const char *text;
    size_t len;                /* 0: strlen(text) */
    int line;                  /* the line the error must be reported on */
    const char *words[4];      /* the message must contain each of these */
} bad_t;

#define BAD(name, text, line, ...) { name, text, 0, line, { __VA_ARGS__ } }
#define BADBIN(name, text, line, ...) { name, text, sizeof text - 1, line, { __VA_ARGS__ } }

/* Checks one malformed record; prints what is wrong and returns false. */
static bool check_bad(const bad_t *b)
{
    static fig_game_t g;
    fig_msg_t msg;
    size_t len = b->len ? b->len : strlen(b->text);
    memset(&msg, 0, sizeof msg);
    msg.line = -1;
    fig_err_t rc = read_exact(&g, b->text, len, &msg);
    if (rc != FIG_ERR_INPUT) {
        print_message("[%s] expected an input error on line %d, got status %d\n", b->name,
                      b->line, rc);
        return false;
    }
    bool ok = true;
    if (msg.line != b->line) {
        print_message("[%s] error on line %d, expected line %d: \"%s\"\n", b->name, msg.line,
                      b->line, msg.text);
        ok = false;
    }
    for (int i = 0; i < 4 && b->words[i]; i++)
        if (!strstr(msg.text, b->words[i])) {
            print_message("[%s] message lacks \"%s\": \"%s\"\n", b->name, b->words[i], msg.text);
            ok = false;
        }
    const char *problem = message_problem(&msg);
    if (problem) {
        print_message("[%s] %s: \"%s\"\n", b->name, problem, msg.text);
        ok = false;
    }
    if (msg.line < 1 || msg.line > count_lines(b->text, len)) {
        print_message("[%s] line %d is not a line of the input\n", b->name, msg.line);
        ok = false;
    }
    /* Without a message buffer the reader fails the same way. */
    if (read_exact(&g, b->text, len, NULL) != FIG_ERR_INPUT) {
        print_message("[%s] without a message buffer the record is accepted\n", b->name);
        ok = false;
    }
    return ok;
}

static void run_bad(const bad_t *cases, size_t n)
{
    size_t failed = 0;
    for (size_t i = 0; i < n; i++)
        if (!check_bad(&cases[i]))
            failed++;
    if (failed)
        fail_msg("%zu of %zu malformed records were not reported as expected", failed, n);
}

#define RUN_BAD(table) run_bad(table, sizeof table / sizeof table[0])

static void test_bad_magic(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("no magic", "players 4\n" ROADS4 "king 0\n", 1, "first line must be 'figaro 1'"),
        BAD("version 2", "figaro 2\nplayers 4\n" ROADS4 "king 0\n", 1,
            "version 2", "not supported", "version 1"),
        BAD("version 0", "figaro 0\n", 1, "version 0", "not supported"),
        BAD("magic without version", "figaro\nplayers 4\n", 1, "'figaro 1'"),
        BAD("magic with a word", "figaro one\n", 1, "'figaro 1'"),
        BAD("magic with two versions", "figaro 1 1\n", 1, "'figaro 1'"),
        BAD("huge version", "figaro 99999999999999999999999\n", 1, "'figaro 1'"),
        BAD("junk first line", "hello world\nfigaro 1\n", 1, "not a Figaro game record"),
        BAD("pgn instead", "[Event \"x\"]\n", 1, "not a Figaro game record"),
        BAD("magic after comments", "# c\n\n  # d\nfigaro 2\n", 4, "version 2"),
        BAD("junk after comments", "# c\n\nplayers 4\nfigaro 1\n", 3, "'figaro 1'"),
        BAD("magic twice", HEAD4 "figaro 1\n", 5, "'figaro'"),
        BAD("magic glued", "figaro1\n", 1, "'figaro 1'"),
    };
    RUN_BAD(cases);
}

static void test_bad_header_values(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("players 2", MAGIC "players 2\n" ROADS4 "king 0\n", 2, "players", "3 to 6"),
        BAD("players 7", MAGIC "players 7\n" ROADS4 "king 0\n", 2, "players", "3 to 6"),
        BAD("players 0", MAGIC "players 0\n", 2, "players", "3 to 6"),
        BAD("players x", MAGIC "players x\n", 2, "players", "3 to 6"),
        BAD("players -4", MAGIC "players -4\n", 2, "players", "3 to 6"),
        BAD("players 4.0", MAGIC "players 4.0\n", 2, "players", "3 to 6"),
        BAD("players missing value", MAGIC "players\n", 2, "players"),
        BAD("players two values", MAGIC "players 4 5\n", 2, "players"),
        BAD("players huge", MAGIC "players 400000000000000000000000\n", 2, "players"),
        BAD("3 names for 4", MAGIC "players 4\nnames Ann Bob Cid\n" ROADS4 "king 0\n" DEAL4,
            3, "3 names for 4 players"),
        BAD("5 names for 4", MAGIC "names A B C D E\nplayers 4\n" ROADS4 "king 0\n", 2,
            "5 names for 4 players"),
        BAD("7 names", MAGIC "players 4\nnames A B C D E F G\n", 3, "names", "3 to 6"),
        BAD("names empty", MAGIC "players 4\nnames\n", 3, "names"),
        BAD("name 33 bytes", MAGIC "players 3\nnames a b abcdefghijklmnopqrstuvwxyz0123456\n",
            3, "name 3", "longer than 32 bytes"),
        BAD("name 33 bytes UTF-8", MAGIC "players 3\nnames ééééééééééééééééx b c\n", 3,
            "name 1", "longer than 32"),
        BAD("3p removed missing", MAGIC "players 3\n" ROADS3 "king 0\n" DEAL3, 5,
            "3-player", "colour left out", "removed"),
        BAD("3p removed missing at end", MAGIC "players 3\n" ROADS3 "king 0\n", 4,
            "colour left out"),
        BAD("3p removed dash", MAGIC "players 3\nremoved -\n" ROADS3 "king 0\n" DEAL3, 3,
            "colour left out"),
        BAD("4p removed R", MAGIC "players 4\nremoved R\n" ROADS4 "king 0\n" DEAL4, 3,
            "only a 3-player game", "removed -"),
        BAD("6p removed b", MAGIC "removed b\nplayers 6\nroads 1 2 3 4 5/6 7 8 9 10/11 12 13 "
            "14 15\nking 0\n", 2, "only a 3-player game"),
        BAD("removed Q", MAGIC "players 3\nremoved Q\n", 3, "removed", "colour letter"),
        BAD("removed RB", MAGIC "players 3\nremoved RB\n", 3, "removed", "colour letter"),
        BAD("removed red", MAGIC "players 3\nremoved red\n", 3, "removed", "colour letter"),
        BAD("removed nothing", MAGIC "players 3\nremoved\n", 3, "removed"),
        BAD("removed J", MAGIC "players 3\nremoved J\n", 3, "removed", "colour letter"),
        BAD("roads 2 groups", MAGIC "players 4\nroads 9 5 2 / 14 11 1\nking 0\n", 3,
            "roads", "three groups"),
        BAD("roads 1 group", MAGIC "players 4\nroads 9 5 2 14 11\nking 0\n", 3,
            "roads", "three groups"),
        BAD("roads no slashes", MAGIC "players 4\nroads 9 5 2 14 11 1 13 8 3\nking 0\n", 3,
            "roads", "group 1"),
        BAD("roads 4 groups", MAGIC "players 4\nroads 9 5 2 / 14 11 1 / 13 8 3 / 4 6 7\n",
            3, "roads", "more than three groups"),
        BAD("roads trailing slash", MAGIC "players 4\nroads 9 5 2 / 14 11 1 / 13 8 3 /\n",
            3, "roads", "three groups"),
        BAD("roads group short", MAGIC "players 4\nroads 9 5 / 14 11 1 / 13 8 3\nking 0\n",
            3, "group 1 has 2 lengths", "each round has 3"),
        BAD("roads group long", MAGIC "players 4\nroads 9 5 2 / 14 11 1 / 13 8 3 4\nking 0\n",
            3, "group 3 has 4 lengths", "each round has 3"),
        BAD("roads 7 in a group", MAGIC "players 6\nroads 1 2 3 4 5 6 7 / 8 / 9\nking 0\n", 3,
            "roads", "group 1"),
        BAD("roads empty group", MAGIC "players 4\nroads 9 5 2 // 13 8 3\nking 0\n", 3,
            "group 2 has 0 lengths"),
        BAD("roads only slashes", MAGIC "players 4\nroads / /\nking 0\n", 3, "group 1"),
        BAD("roads nothing", MAGIC "players 4\nroads\nking 0\n", 3, "roads", "three groups"),
        BAD("roads 3p sized for 4", MAGIC "players 3\nremoved R\n" ROADS4 "king 0\n", 4,
            "group 1 has 3 lengths", "3 players", "has 2"),
        BAD("roads duplicate in group", MAGIC "players 4\nroads 9 5 9 / 14 11 1 / 13 8 3\n"
            "king 0\n", 3, "road length 9 appears twice"),
        BAD("roads duplicate across", MAGIC "players 4\nroads 9 5 2 / 14 11 1 / 13 8 2\n"
            "king 0\n", 3, "road length 2 appears twice"),
        BAD("roads zero", MAGIC "players 4\nroads 9 5 0 / 14 11 1 / 13 8 3\n", 3,
            "'0'", "from 1 to 65535"),
        BAD("roads negative", MAGIC "players 4\nroads 9 5 -2 / 14 11 1 / 13 8 3\n", 3,
            "'-2'", "from 1 to 65535"),
        BAD("roads word", MAGIC "players 4\nroads 9 five 2 / 14 11 1 / 13 8 3\n", 3,
            "'five'", "from 1 to 65535"),
        BAD("roads decimal", MAGIC "players 4\nroads 9 5 2.5 / 14 11 1 / 13 8 3\n", 3,
            "'2.5'"),
        BAD("roads 65536", MAGIC "players 4\nroads 9 5 65536 / 14 11 1 / 13 8 3\n", 3,
            "'65536'", "from 1 to 65535"),
        BAD("roads huge", MAGIC "players 4\nroads 9 5 2 / 14 11 1 / 13 8 "
            "99999999999999999999999999\n", 3, "not a length"),
        BAD("roads comma", MAGIC "players 4\nroads 9,5,2 / 14 11 1 / 13 8 3\n", 3,
            "'9,5,2'"),
        BAD("king 4 of 4", MAGIC "players 4\n" ROADS4 "king 4\n" DEAL4, 4,
            "seat 4 does not exist with 4 players"),
        BAD("king 3 of 3", MAGIC "king 3\nplayers 3\nremoved R\n" ROADS3, 2,
            "seat 3 does not exist with 3 players"),
        BAD("king 6", MAGIC "players 4\n" ROADS4 "king 6\n", 4, "king", "seat"),
        BAD("king -1", MAGIC "players 4\n" ROADS4 "king -1\n", 4, "king", "seat"),
        BAD("king x", MAGIC "players 4\n" ROADS4 "king x\n", 4, "king", "seat"),
        BAD("king nothing", MAGIC "players 4\n" ROADS4 "king\n", 4, "king"),
        BAD("king two", MAGIC "players 4\n" ROADS4 "king 0 1\n", 4, "king"),
        BAD("seed word", MAGIC "players 4\nseed abc\n", 3, "seed", "whole number"),
        BAD("seed negative", MAGIC "players 4\nseed -1\n", 3, "seed", "whole number"),
        BAD("seed 2^64", MAGIC "players 4\nseed 18446744073709551616\n", 3, "seed",
            "18446744073709551615"),
        BAD("seed two", MAGIC "players 4\nseed 1 2\n", 3, "seed"),
        BAD("seed nothing", MAGIC "players 4\nseed\n", 3, "seed"),
    };
    RUN_BAD(cases);
}

static void test_bad_header_structure(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("players twice", HEAD4 "players 4\n", 5, "second 'players' line", "line 2"),
        BAD("names twice", MAGIC "names A B C D\nplayers 4\nnames A B C D\n", 4,
            "second 'names' line", "line 2"),
        BAD("seed twice", MAGIC "seed 1\nplayers 4\nseed 1\n", 4, "second 'seed'", "line 2"),
        BAD("removed twice", MAGIC "removed -\nremoved -\n", 3, "second 'removed'", "line 2"),
        BAD("roads twice", HEAD4 ROADS4, 5, "second 'roads' line", "line 3"),
        BAD("king twice", HEAD4 "king 0\n", 5, "second 'king' line", "line 4"),
        BAD("king twice case", HEAD4 "KING 1\n", 5, "second 'king' line"),
        BAD("unknown keyword", HEAD4 "event Club night\n", 5, "unknown line 'event'",
            "header"),
        BAD("misspelt keyword", MAGIC "player 4\n", 2, "unknown line 'player'"),
        BAD("date header", MAGIC "players 4\ndate 2024-01-01\n", 3, "unknown line 'date'"),
        BAD("hand before round", HEAD4 HAND4_0, 5, "'hand'", "'round 1'"),
        BAD("move before round", HEAD4 "0 J1>0\n", 5, "'0'", "'round 1'"),
        BAD("players missing", MAGIC ROADS4 "king 0\n" DEAL4, 4, "'players' line is missing"),
        BAD("roads missing", MAGIC "players 4\nking 0\n" DEAL4, 4, "'roads' line is missing"),
        BAD("king missing", MAGIC "players 4\n" ROADS4 DEAL4, 4, "'king' line is missing"),
        BAD("all missing", MAGIC "round 1\n", 2, "'players' line is missing"),
        BAD("missing at end", MAGIC "players 4\n" ROADS4 "# no king\n", 4,
            "'king' line is missing"),
        BAD("magic only", MAGIC, 1, "'players' line is missing"),
        BAD("magic only, no newline", "figaro 1", 1, "'players' line is missing"),
    };
    RUN_BAD(cases);
}

/* A header line after the header: the message should say that headers come
 * before 'round 1', not call a known keyword unknown. */
static void test_bad_header_after_round_1(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("players among the hands", HEAD4 "round 1\n" HAND4_0 "players 4\n", 7,
            "'players'", "header"),
        BAD("king among the moves", HEAD4 DEAL4 OPENING "king 1\n", 16, "'king'", "header"),
        BAD("seed after the deal", HEAD4 DEAL4 "seed 5\n", 10, "'seed'", "header"),
    };
    RUN_BAD(cases);
}

static void test_bad_deal(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("14 cards", HEAD4 "round 1\nhand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING\n", 6,
            "seat 0 is dealt 14 cards", "each gets 15"),
        BAD("16 cards", HEAD4 "round 1\n" HAND4_0
            "hand 1 G1 G1 G1 G2 G2 G2 G2 G2 G2 G3 J2 J2 RING RING RING B1\n", 7,
            "seat 1 is dealt 16 cards", "each gets 15"),
        BAD("no cards", HEAD4 "round 1\nhand 2\n", 6, "seat 2 is dealt 0 cards"),
        BAD("3p 12 cards", HEAD3 "round 1\nhand 1 B1 B1 B1 B2 B2 B2 B2 B2 B2 B3 G1 G1\n", 7,
            "dealt 12 cards", "with 3 players each gets 15"),
        BAD("5p 15 cards", MAGIC "players 5\nroads 1 2 3 4 / 5 6 7 8 / 9 10 11 12\nking 0\n"
            "round 1\n" HAND4_0, 6, "dealt 15 cards", "with 5 players each gets 12"),
        BAD("6p 12 cards", MAGIC "players 6\nroads 1 2 3 4 5/6 7 8 9 10/11 12 13 14 15\n"
            "king 0\nround 1\nhand 5 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1\n", 6,
            "dealt 12 cards", "each gets 10"),
        BAD("not the deck", HEAD4 "round 1\n" HAND4_0 HAND4_1 HAND4_2
            "hand 3 B1 B2 B2 B2 B3 Y2 Y2 Y2 P1 P1 P2 P2 P2 P2 P3\n", 9,
            "round 1 is not a legal deal", "2 P3", "deck has 1"),
        BAD("too many rings", HEAD4 "round 1\n"
            "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 RING RING RING\n"
            HAND4_1 HAND4_2 HAND4_3, 9, "not a legal deal", "2 J1", "deck has 3"),
        BAD("3p deal with removed colour", MAGIC "players 3\nremoved R\n" ROADS3 "king 0\n"
            DEAL3, 9, "not a legal deal", "R1", "deck has 0"),
        BAD("3p deal with 60-card jesters", HEAD3 "round 1\n"
            "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RING\n"
            "hand 1 B1 B1 B1 B2 B2 B2 B2 B2 B2 B3 G1 G1 G1 G2 G2\n"
            "hand 2 G2 G2 G2 G3 J2 Y1 Y1 Y1 Y2 Y2 Y2 Y2 Y2 Y2 Y3\n", 9, "not a legal deal"),
        BAD("seat dealt twice", HEAD4 "round 1\n" HAND4_0 HAND4_1
            "hand 0 B1 B1 B2 B2 B2 Y1 Y1 Y1 Y2 Y2 Y2 Y3 P1 P2 P3\n", 8,
            "second hand for seat 0", "line 6"),
        BAD("seat 4 of 4", HEAD4 "round 1\nhand 4 " "B1 B1 B2 B2 B2 Y1 Y1 Y1 Y2 Y2 Y2 Y3 P1 P2 P3\n",
            6, "seat from 0 to 3"),
        BAD("seat 9", HEAD4 "round 1\nhand 9 R1\n", 6, "seat from 0 to 3"),
        BAD("seat x", HEAD4 "round 1\nhand x R1\n", 6, "seat from 0 to 3"),
        BAD("seat -1", HEAD4 "round 1\nhand -1 R1\n", 6, "seat from 0 to 3"),
        BAD("hand alone", HEAD4 "round 1\nhand\n", 6, "seat"),
        BAD("unknown card", HEAD4 "round 1\n"
            "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING X9\n", 6,
            "'X9' is not a card"),
        BAD("card R4", HEAD4 "round 1\n"
            "hand 0 R4 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RING\n", 6, "'R4' is not a card"),
        BAD("card J3", HEAD4 "round 1\n"
            "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J3 RING RING\n", 6, "'J3' is not a card"),
        BAD("card RINGS", HEAD4 "round 1\n"
            "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RINGS\n", 6,
            "'RINGS' is not a card"),
        BAD("card with target", HEAD4 "round 1\n"
            "hand 0 R1>0 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING RING\n", 6,
            "'R1>0' is not a card"),
        BAD("long card name", HEAD4 "round 1\n"
            "hand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 RING "
            "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZ\n", 6,
            "'ABCDEFGHIJKLMNOPQRSTUVWX", "is not a card"),
        BAD("move before all hands", HEAD4 "round 1\n" HAND4_0 "0 J1>0\n", 7,
            "4 'hand' lines", "found 1"),
        BAD("round 2 before all hands", HEAD4 "round 1\n" HAND4_0 HAND4_1 "round 2\n", 8,
            "4 'hand' lines", "found 2"),
        BAD("a fifth hand", HEAD4 DEAL4 HAND4_0, 10, "already has its 4 hands"),
        BAD("a fifth hand after moves", HEAD4 DEAL4 OPENING HAND4_0, 16,
            "already has its 4 hands"),
        BAD("ends after round 1 line", HEAD4 "round 1\n", 5,
            "ends inside round 1's deal", "0 of 4 hands"),
        BAD("ends after two hands", HEAD4 "round 1\n" HAND4_0 HAND4_1, 7,
            "ends inside round 1's deal", "2 of 4 hands"),
        BAD("ends after three hands, comments", HEAD4 "round 1\n" HAND4_0 HAND4_1 HAND4_2
            "# more to come\n\n", 10, "ends inside round 1's deal", "3 of 4 hands"),
        BAD("cut inside a hand line", HEAD4 "round 1\n" HAND4_0 HAND4_1 "hand 2 B1 B1 B", 8,
            "seat 2 is dealt 3 cards"),
        BAD("cut inside the last card", HEAD4 "round 1\n" HAND4_0 HAND4_1 HAND4_2
            "hand 3 B1 B2 B2 B2 B3 Y2 Y2 Y2 P1 P1 P2 P2 P2 P2 R", 9, "'R' is not a card"),
        BAD("cut after hand keyword", HEAD4 "round 1\nhan", 6, "'hand'"),
    };
    RUN_BAD(cases);
}

static void test_bad_rounds_small(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("round 2 first", HEAD4 "round 2\n" HAND4_0, 5, "expected round 1", "not round 2"),
        BAD("round 0", HEAD4 "round 0\n", 5, "expected round 1", "not round 0"),
        BAD("round 3 first", HEAD4 "\nround 3\n", 6, "expected round 1", "not round 3"),
        BAD("round x", HEAD4 "round x\n", 5, "'round' and a round number"),
        BAD("round nothing", HEAD4 "round\n", 5, "'round' and a round number"),
        BAD("round two numbers", HEAD4 "round 1 2\n", 5, "'round' and a round number"),
        BAD("round huge", HEAD4 "round 123456789012345678901234\n", 5, "round number"),
        BAD("round 2 during round 1", HEAD4 DEAL4 OPENING "round 2\n", 16,
            "round 2 starts before round 1 has ended"),
        BAD("round 2 right after the deal", HEAD4 DEAL4 "round 2\n", 10,
            "before round 1 has ended"),
        BAD("round 3 during round 1", HEAD4 DEAL4 "0 J1>0\nround 3\n", 11,
            "round 1 has ended"),
    };
    RUN_BAD(cases);
}

/* A second 'round 1' line while round 1 is played: the message today reads
 * "round 1 starts before round 1 has ended (R10)"; it should say that round 1
 * has already started (on line 5). */
static void test_bad_round_repeated(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("round 1 twice", HEAD4 DEAL4 OPENING "round 1\n", 16, "round 1", "already"),
    };
    RUN_BAD(cases);
}

static void test_bad_moves(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("R6 worked example", HEAD4 DEAL4 OPENING "2 B2>0\n", 16,
            "seat 2 cannot play B2 in front of seat 0: seat 3 already has blue"),
        BAD("R6 pile has another colour", HEAD4 DEAL4 "0 R1>0\n1 G1>0\n", 11,
            "seat 1 cannot play G1 in front of seat 0", "red"),
        BAD("R6 own colour elsewhere", HEAD4 DEAL4 "0 R1>0\n1 J2>1\n2 Y1>2\n3 Y2>3\n", 13,
            "seat 3 cannot play Y2 in front of seat 3", "seat 2 already has yellow"),
        BAD("wrong seat first", HEAD4 DEAL4 "1 G1>1\n", 10, "seat 0's turn", "not seat 1's"),
        BAD("wrong seat later", HEAD4 DEAL4 OPENING "3 B2>3\n", 16, "seat 2's turn",
            "not seat 3's"),
        BAD("seat 9", HEAD4 DEAL4 "9 R1>0\n", 10, "seat 0's turn", "not seat 9's"),
        BAD("seat word", HEAD4 DEAL4 "Ann R1>0\n", 10, "'Ann'", "'<seat> <action>'"),
        BAD("not in hand", HEAD4 DEAL4 "0 G1>0\n", 10, "seat 0 has no G1"),
        BAD("not in hand any more", HEAD4 DEAL4
            "0 R3>0\n1 G1>1\n2 Y1>2\n3 B1>3\n0 R3>0\n", 14, "seat 0 has no R3"),
        BAD("ring to another seat", HEAD4 DEAL4 "0 RING>1\n", 10,
            "seat 0 cannot play RING in front of seat 1", "in front of oneself"),
        BAD("ring by 3 to seat 0", HEAD4 DEAL4 "0 J1>0\n1 G1>1\n2 Y1>2\n3 RING>0\n", 13,
            "RING in front of seat 0", "oneself"),
        BAD("take on an empty table", HEAD4 DEAL4 "0 take\n", 10, "cannot take",
            "no face-up card"),
        BAD("take after a take", HEAD4 DEAL4 "0 J1>0\n1 take\n1 take\n", 12, "cannot take"),
        BAD("target 4 of 4", HEAD4 DEAL4 "0 J1>4\n", 10, "seat 4", "0 to 3"),
        BAD("target 7", HEAD4 DEAL4 "0 J1>7\n", 10, "'J1>7' is not an action"),
        BAD("unknown card", HEAD4 DEAL4 "0 X1>0\n", 10, "'X1>0' is not an action"),
        BAD("no target", HEAD4 DEAL4 "0 R1>\n", 10, "'R1>' is not an action"),
        BAD("card without >", HEAD4 DEAL4 "0 R1\n", 10, "'R1' is not an action"),
        BAD("two-digit target", HEAD4 DEAL4 "0 R1>00\n", 10, "'R1>00' is not an action"),
        BAD("target only", HEAD4 DEAL4 "0 >0\n", 10, "'>0' is not an action"),
        BAD("ring with empty target", HEAD4 DEAL4 "0 RING>\n", 10, "'RING>' is not an action"),
        BAD("dash for >", HEAD4 DEAL4 "0 R1-0\n", 10, "'R1-0' is not an action"),
        BAD("letter target", HEAD4 DEAL4 "0 R1>a\n", 10, "'R1>a' is not an action"),
        BAD("take with target", HEAD4 DEAL4 OPENING "2 take>2\n", 16,
            "'take>2' is not an action"),
        BAD("double target", HEAD4 DEAL4 "0 R1>0>1\n", 10, "'R1>0>1' is not an action"),
        BAD("extra words", HEAD4 DEAL4 "0 R1>0 R1>1\n", 10, "'<seat> <action>'"),
        BAD("extra word after take", HEAD4 DEAL4 OPENING "2 take now\n", 16,
            "'<seat> <action>'"),
        BAD("seat only", HEAD4 DEAL4 "0\n", 10, "'<seat> <action>'"),
        BAD("action only", HEAD4 DEAL4 "R1>0\n", 10, "'R1>0'", "'<seat> <action>'"),
        BAD("cut mid-line", HEAD4 DEAL4 OPENING "2 R", 16, "'R' is not an action"),
        BAD("cut after seat", HEAD4 DEAL4 OPENING "2 ", 16, "'<seat> <action>'"),
        BAD("cut after >", HEAD4 DEAL4 OPENING "2 B2>", 16, "'B2>' is not an action"),
        BAD("3p removed colour played", HEAD3 DEAL3 "0 P1>0\n", 10, "seat 0 has no P1"),
    };
    RUN_BAD(cases);
}

static void test_bad_bytes(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BADBIN("NUL first", "\0figaro 1\n", 1, "0x00", "plain text"),
        BADBIN("NUL in a comment", HEAD4 "# a \0 b\n", 5, "0x00", "column 5"),
        BADBIN("NUL in a hand", HEAD4 "round 1\nhand 0 R1\0R1\n", 6, "0x00", "column 10"),
        BADBIN("NUL at the end", HEAD4 DEAL4 "0 J1>0\0", 10, "0x00", "column 7"),
        BADBIN("DEL", MAGIC "players 4\x7f\n", 2, "0x7F", "column 10"),
        BADBIN("ESC", MAGIC "\x1b[31mplayers 4\n", 2, "0x1B", "column 1"),
        BADBIN("form feed", MAGIC "\f\n", 2, "0x0C"),
        BADBIN("lone CR", "figaro 1\rplayers 4\n", 1, "0x0D", "column 9"),
        BADBIN("CR CR LF", "figaro 1\r\r\n", 1, "0x0D"),
        BADBIN("vertical tab", MAGIC "players\v4\n", 2, "0x0B"),
        BADBIN("byte FF", MAGIC "players 4 \xff\n", 2, "invalid UTF-8", "column 11"),
        BADBIN("overlong NUL", MAGIC "names \xC0\x80\n", 2, "invalid UTF-8"),
        BADBIN("overlong slash", MAGIC "roads 1 \xE0\x80\xAF 2\n", 2, "invalid UTF-8"),
        BADBIN("surrogate", MAGIC "names \xED\xA0\x80\n", 2, "invalid UTF-8"),
        BADBIN("above U+10FFFF", MAGIC "names \xF4\x90\x80\x80\n", 2, "invalid UTF-8"),
        BADBIN("lead byte F8", MAGIC "names \xF8\x88\x80\x80\x80\n", 2, "invalid UTF-8"),
        BADBIN("lone continuation", MAGIC "# \x80\n", 2, "invalid UTF-8", "column 3"),
        BADBIN("cut sequence mid-line", MAGIC "names \xE2\x82 x\n", 2, "invalid UTF-8"),
        BADBIN("cut sequence at the end", MAGIC "names \xE2\x82", 2, "invalid UTF-8"),
        BADBIN("cut 4-byte at the end", MAGIC "# \xF0\x9F\x8E", 2, "invalid UTF-8"),
        BADBIN("lead byte at the end", MAGIC "# \xC3", 2, "invalid UTF-8"),
        BADBIN("half a BOM", "\xEF\xBB", 1, "invalid UTF-8"),
        BADBIN("Latin-1 name", MAGIC "players 3\nnames Zo\xEB a b\n", 3, "invalid UTF-8"),
        BADBIN("UTF-16 BOM", "\xFF\xFE" "f\0i\0", 1, "invalid UTF-8"),
        BADBIN("binary", "\x7f" "ELF\x02\x01\x01\0\0\0", 1, "0x7F"),
        BADBIN("gzip", "\x1f\x8b\x08\0", 1, "0x1F"),
    };
    RUN_BAD(cases);
}

static void test_bad_sizes(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BADBIN("empty file", "", 1, "empty record", "'figaro 1'"),
        BAD("only comments", "# one\n# two\n# three\n", 3, "empty record"),
        BAD("only blank lines", "\n\n\n\n", 4, "empty record"),
        BAD("only a comment, no newline", "# hello", 1, "empty record"),
        BADBIN("only a BOM", "\xEF\xBB\xBF", 1, "empty record"),
        BAD("only tabs and spaces", " \t \n\t\n", 2, "empty record"),
        BAD("33 words", MAGIC "names a b c d e f g h i j k l m n o p q r s t u v w x y z "
            "A B C D E F\n", 2, "too many words", "32"),
        BAD("32 words is only a names error", MAGIC "names a b c d e f g h i j k l m n o p q "
            "r s t u v w x y z A B C D E\n", 2, "names", "3 to 6"),
        BAD("33 words in a comment-free move", HEAD4 DEAL4
            "0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2\n", 10,
            "too many words"),
    };
    RUN_BAD(cases);

    /* Very long lines, as data of their own. */
    static fig_game_t g;
    fig_msg_t msg;
    size_t big = 1u << 20;
    char *buf = malloc(big);
    assert_non_null(buf);
    memset(buf, 'a', big);   /* one megabyte, one line, no newline */
    assert_int_equal(read_exact(&g, buf, big, &msg), FIG_ERR_INPUT);
    assert_int_equal(msg.line, 1);
    assert_non_null(strstr(msg.text, "too long"));
    static const char head[] = HEAD4 DEAL4;
    memcpy(buf, head, sizeof head - 1);   /* a long 10th line after a good deal */
    buf[big - 1] = '\n';
    assert_int_equal(read_exact(&g, buf, big, &msg), FIG_ERR_INPUT);
    assert_int_equal(msg.line, 10);
    assert_non_null(strstr(msg.text, "too long"));
    assert_null(message_problem(&msg));
    /* A long line of spaces is still a long line. */
    memset(buf + sizeof head - 1, ' ', FIG_FGN_LINE_MAX + 1);
    assert_int_equal(read_exact(&g, buf, sizeof head - 1 + FIG_FGN_LINE_MAX + 1, &msg),
                     FIG_ERR_INPUT);
    assert_int_equal(msg.line, 10);
    /* Many short lines are fine: 100000 comment lines before the magic. */
    size_t n = 0;
    for (int i = 0; i < 100000; i++) {
        buf[n++] = '#';
        buf[n++] = '\n';
    }
    memcpy(buf + n, head, sizeof head - 1);
    n += sizeof head - 1;
    if (read_exact(&g, buf, n, &msg) != FIG_OK)
        fail_msg("line %d: %s", msg.line, msg.text);
    free(buf);

    /* A NULL text of length 0 is an empty record, not a crash. */
    assert_int_equal(fig_fgn_read(&g, NULL, 0, &msg), FIG_ERR_INPUT);
    assert_int_equal(msg.line, 1);
}

/* Messages quote a token cut to 24 bytes; the cut must not split a UTF-8
 * character, or the message is no longer valid UTF-8 (and JSON output of it
 * fails). */
static void test_bad_message_quotes_utf8(void **state)
{
    (void)state;
    static const bad_t cases[] = {
        BAD("long UTF-8 keyword", MAGIC "players 4\naéééééééééééééééééééééé 1\n", 3,
            "unknown line 'aé"),
        BAD("long UTF-8 card", HEAD4 "round 1\nhand 0 R1 R1 R1 R2 R2 R2 R2 R2 R2 R3 J1 J1 J1 "
            "RING x€€€€€€€€€€€€€€\n", 6, "is not a card"),
        BAD("long UTF-8 action", HEAD4 DEAL4 "0 aééééééééééééééééééééé\n", 10,
            "is not an action"),
        BAD("long UTF-8 road", MAGIC "players 4\nroads 9 5 2 / 14 11 1 / 13 8 "
            "1ééééééééééééééééééééé\n", 3, "is not a length"),
    };
    RUN_BAD(cases);
}

/* Round structure errors need a whole round: they are made by editing the
 * written record of a random game. */

/* Line number (1-based) of the first line equal to `line`, or 0. */
static int find_line(const char *text, const char *line)
{
    size_t want = strlen(line);
    int no = 1;
    for (const char *p = text; *p; no++) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == want && memcmp(p, line, len) == 0)
            return no;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

/* A new string: text with its line `at` (1-based) removed if `drop`, and
 * `insert` (whole lines) put before that line. */
static char *edit_lines(const char *text, int at, bool drop, const char *insert)
{
    size_t n = strlen(text), ins = strlen(insert);
    char *out = malloc(n + ins + 1);
    assert_non_null(out);
    const char *p = text;
    for (int no = 1; no < at; no++) {
        const char *end = strchr(p, '\n');
        assert_non_null(end);
        p = end + 1;
    }
    size_t head = (size_t)(p - text);
    memcpy(out, text, head);
    memcpy(out + head, insert, ins);
    const char *rest = p;
    if (drop) {
        const char *end = strchr(p, '\n');
        rest = end ? end + 1 : p + strlen(p);
    }
    strcpy(out + head + ins, rest);
    return out;
}

static void test_bad_round_structure(void **state)
{
    (void)state;
    static fig_game_t g;
    for (int players = FIG_MIN_PLAYERS; players <= FIG_MAX_PLAYERS; players++) {
        random_game(&g, players, 4242 + (uint64_t)players, NULL);
        size_t n;
        char *text = write_alloc(&g, &n);
        int r2 = find_line(text, "round 2"), r3 = find_line(text, "round 3");
        int lines = count_lines(text, n) - 1;   /* the text ends with a newline */
        assert_true(r2 > 0 && r3 > r2);
        int end1 = r2 - 2;                      /* the last move of round 1 */
        char ended[160], ended2[160];
        snprintf(ended, sizeof ended, "round 1 ended on line %d", end1);
        snprintf(ended2, sizeof ended2, "round 2 ended on line %d", r3 - 2);
        char *t[10];
        t[0] = edit_lines(text, end1 + 1, false, "0 take\n");
        t[1] = edit_lines(text, end1 + 1, false, "3 R1>0\n");
        t[2] = edit_lines(text, end1, true, "");   /* round 1 lacks its last move */
        t[3] = edit_lines(text, r2, true, "round 3\n");
        t[4] = edit_lines(text, r2, true, "round 1\n");
        t[5] = edit_lines(text, lines + 1, false, "0 take\n");
        t[6] = edit_lines(text, lines + 1, false, "round 4\n");
        t[7] = edit_lines(text, lines + 1, false, "\n# after the end\nround 1\n");
        t[8] = edit_lines(text, r3 - 1, false, "2 take\n");
        t[9] = edit_lines(text, r3, true, "round 2\n");
        const bad_t cases[] = {
            BAD("move after round 1 ended", t[0], end1 + 1, ended, "'round 2' must come next"),
            BAD("play after round 1 ended", t[1], end1 + 1, ended, "(R10)"),
            BAD("round 2 before round 1 ended", t[2], r2 - 1,
                "round 2 starts before round 1 has ended"),
            BAD("round 3 after round 1", t[3], r2, "expected round 2", "not round 3"),
            BAD("round 1 again", t[4], r2, "expected round 2", "not round 1"),
            BAD("move after game over", t[5], lines + 1, "the game is over"),
            BAD("round 4", t[6], lines + 1, "the game is over after three rounds"),
            BAD("round 1 after game over", t[7], lines + 3, "the game is over"),
            BAD("move after round 2 ended", t[8], r3 - 1, ended2, "'round 3' must come next"),
            BAD("round 2 twice", t[9], r3, "expected round 3", "not round 2"),
        };
        bool ok = true;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
            ok &= check_bad(&cases[i]);
        for (int i = 0; i < 10; i++)
            free(t[i]);
        free(text);
        if (!ok)
            fail_msg("players %d: some edited records were not reported as expected", players);
    }
}

/* A 'hand' line where a round must start, or after the game: today's message
 * claims "round 2 already has its 4 hands" before round 2 is even dealt. It
 * should ask for the 'round 2' line (and say the game is over after round 3). */
static void test_bad_hand_outside_a_deal(void **state)
{
    (void)state;
    static fig_game_t g;
    random_game(&g, 4, 4246, NULL);
    size_t n;
    char *text = write_alloc(&g, &n);
    int r2 = find_line(text, "round 2");
    int lines = count_lines(text, n) - 1;
    char *t0 = edit_lines(text, r2 - 1, false, HAND4_0);
    char *t1 = edit_lines(text, lines + 1, false, HAND4_0);
    const bad_t cases[] = {
        BAD("hand after round 1 ended", t0, r2 - 1, "'round 2'"),
        BAD("hand after the game", t1, lines + 1, "over"),
    };
    bool ok = check_bad(&cases[0]);
    ok &= check_bad(&cases[1]);
    free(t0);
    free(t1);
    free(text);
    if (!ok)
        fail_msg("a 'hand' line outside a deal is not reported clearly");
}

/* Random bytes, and random edits of good records: no crash, no overread, and
 * every rejection names a line of the input with a sound message; whatever
 * is accepted writes back canonically. */
static void test_random_junk(void **state)
{
    (void)state;
    static fig_game_t g, back;
    fig_rng_t rng;
    fig_msg_t msg;
    fig_rng_seed(&rng, 2024);
    static const char alphabet[] = "figaro 1\nplayers 3456\nroads/ king round hand take RING"
                                   "R1B2G3Y1P2J1J2>#\r\t -\xC3\xA9\xFF";
    char buf[2048];
    for (int iter = 0; iter < 20000; iter++) {
        size_t len = fig_rng_below(&rng, 300);
        size_t start = 0;
        if (iter % 2) {   /* half start like a record */
            memcpy(buf, HEAD4, sizeof HEAD4 - 1);
            start = sizeof HEAD4 - 1;
        }
        for (size_t i = start; i < start + len; i++)
            buf[i] = iter % 4 < 2 ? (char)fig_rng_below(&rng, 256)
                                  : alphabet[fig_rng_below(&rng, sizeof alphabet - 1)];
        len += start;
        fig_err_t rc = read_exact(&g, buf, len, &msg);
        if (rc == FIG_OK) {
            const char *problem = round_trip_problem(&g, &msg);
            if (problem)
                fail_msg("iteration %d: accepted, but %s", iter, problem);
            continue;
        }
        const char *problem = message_problem(&msg);
        if (msg.line < 1 || msg.line > count_lines(buf, len) || problem)
            fail_msg("iteration %d: line %d, %s: %s", iter, msg.line,
                     problem ? problem : "line out of range", msg.text);
    }

    /* Mutations of a written game: flip bytes, drop, swap or repeat lines. */
    for (int players = FIG_MIN_PLAYERS; players <= FIG_MAX_PLAYERS; players++) {
        random_game(&g, players, 99 + (uint64_t)players, NULL);
        size_t n;
        char *text = write_alloc(&g, &n);
        char *m = malloc(2 * n + 64);
        assert_non_null(m);
        for (int iter = 0; iter < 400; iter++) {
            memcpy(m, text, n);
            size_t len = n;
            int kind = iter % 4;
            if (kind == 0) {                       /* flip a few bytes */
                for (int k = 0; k < 3; k++)
                    m[fig_rng_below(&rng, (uint32_t)len)] = (char)fig_rng_below(&rng, 256);
            } else if (kind == 1) {                /* cut anywhere */
                len = fig_rng_below(&rng, (uint32_t)len);
            } else {                               /* repeat or drop a span */
                size_t a = fig_rng_below(&rng, (uint32_t)len);
                size_t b = a + fig_rng_below(&rng, (uint32_t)(len - a < 60 ? len - a : 60));
                if (kind == 2) {
                    memmove(m + b + (b - a), m + b, len - b);
                    memcpy(m + b, m + a, b - a);
                    len += b - a;
                } else {
                    memmove(m + a, m + b, len - b);
                    len -= b - a;
                }
            }
            if (read_exact(&back, m, len, &msg) == FIG_OK) {
                const char *problem = round_trip_problem(&back, &msg);
                if (problem)
                    fail_msg("players %d mutation %d: accepted, but %s", players, iter, problem);
                for (int s = 0; s < back.state.players; s++)
                    if (back.state.pile[s].total >= 6)
                        fail_msg("players %d mutation %d: a pile at 6 or more", players, iter);
                continue;
            }
            const char *problem = message_problem(&msg);
            if (msg.line < 1 || msg.line > count_lines(m, len) || problem)
                fail_msg("players %d mutation %d: line %d, %s: %s", players, iter, msg.line,
                         problem ? problem : "line out of range", msg.text);
        }
        free(m);
        free(text);
    }
}

/* ---------------------------------------------------- data-driven case files
 *
 * Every .fgn file in tests/cases holds its expectations in comment lines:
 *   #! expect ok                      the record reads without error
 *   #! expect error line N "words"    fails on line N; the message contains
 *                                     each quoted string (one or more)
 *   #! expect finished | unfinished   the game is over, or not
 *   #! expect round K                 the round being played or dealt next
 *   #! expect dealt K                 rounds dealt
 *   #! expect moves N                 actions recorded, all rounds together
 *   #! expect next S                  the seat to move
 *   #! expect king S                  the King holder
 *   #! expect winner S                the winner (finished games)
 *   #! expect stack S N               seat S has collected N cards this round
 *   #! expect roads L0 L1 ...         each seat's road length so far (R13)
 *   #! expect pile S empty | CARDS    the face-up cards in front of seat S
 * Files named bad-*.fgn must expect an error, the others must read; a file
 * without any '#! expect' line (e.g. one written for another test) is held to
 * "#! expect ok". An unknown expectation is an error, so a typo cannot pass
 * silently. */

enum { CASES_MIN = 10 };

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Whether seat s's pile holds exactly the cards listed in `cards` (codes
 * separated by spaces, or "empty"). */
static bool pile_is(const fig_state_t *st, int s, const char *cards)
{
    if (s < 0 || s >= st->players)
        return false;
    int n[6] = { 0 }, colour = FIG_NO_COLOUR, total = 0, count = 0;
    const char *p = cards;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        if (len == 5 && strncmp(p, "empty", 5) == 0) {
            p += len;
            continue;
        }
        int k = fig_kind_parse(p, len);
        if (k < 0)
            return false;
        if (fig_kind_is_colour(k)) {
            if (colour != FIG_NO_COLOUR && colour != fig_kind_colour(k))
                return false;
            colour = fig_kind_colour(k);
            n[fig_kind_value(k) - 1]++;
        } else {
            n[k == FIG_J1 ? 3 : k == FIG_J2 ? 4 : 5]++;
        }
        total += fig_kind_value(k);
        count++;
        p += len;
    }
    const fig_pile_t *pile = &st->pile[s];
    for (int i = 0; i < 6; i++)
        if (pile->n[i] != n[i])
            return false;
    return pile->colour == colour && pile->total == total && pile->cards == count;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Checks one case file; prints each problem and returns how many there were. */
static int check_case(const char *name, const char *text, size_t len)
{
    static fig_game_t g;
    fig_msg_t msg;
    fig_err_t rc = read_exact(&g, text, len, &msg);
    int problems = 0, expectations = 0;
    bool want_error = false, want_ok = false;
    size_t pos = 0;
    int line_no = 0;
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        line_no++;
        char line[512];
        size_t l = end - pos < sizeof line - 1 ? end - pos : sizeof line - 1;
        memcpy(line, text + pos, l);
        line[l] = '\0';
        if (l && line[l - 1] == '\r')
            line[--l] = '\0';
        pos = end + 1;
        const char *e = strstr(line, "#! expect ");
        if (!e)
            continue;
        e += strlen("#! expect ");
        expectations++;
        int v, v2;
        char word[32];
        if (strncmp(e, "ok", 2) == 0 && (e[2] == '\0' || e[2] == ' ')) {
            want_ok = true;
            if (rc != FIG_OK) {
                print_message("%s: expected ok, got line %d: %s\n", name, msg.line, msg.text);
                problems++;
            }
        } else if (sscanf(e, "error line %d", &v) == 1) {
            want_error = true;
            if (rc == FIG_OK) {
                print_message("%s: expected an error on line %d, the record reads\n", name, v);
                problems++;
                continue;
            }
            if (msg.line != v) {
                print_message("%s: error on line %d, expected line %d: %s\n", name, msg.line, v,
                              msg.text);
                problems++;
            }
            int quoted = 0;
            for (const char *q = strchr(e, '"'); q; ) {
                const char *close = strchr(q + 1, '"');
                if (!close)
                    break;
                char want[256];
                size_t wl = (size_t)(close - q - 1);
                if (wl >= sizeof want)
                    wl = sizeof want - 1;
                memcpy(want, q + 1, wl);
                want[wl] = '\0';
                quoted++;
                if (!strstr(msg.text, want)) {
                    print_message("%s: message lacks \"%s\": %s\n", name, want, msg.text);
                    problems++;
                }
                q = strchr(close + 1, '"');
            }
            if (!quoted) {
                print_message("%s:%d: an error expectation needs a quoted message\n", name,
                              line_no);
                problems++;
            }
        } else if (rc != FIG_OK) {
            print_message("%s:%d: '%s' needs a record that reads (line %d: %s)\n", name,
                          line_no, e, msg.line, msg.text);
            problems++;
        } else if (strncmp(e, "roads ", 6) == 0) {
            const char *p = e + 6;
            int seat = 0, length, used;
            bool same = true;
            while (sscanf(p, "%d%n", &length, &used) == 1) {
                same &= seat < g.state.players && fig_state_road(&g.state, seat) == length;
                seat++;
                p += used;
            }
            if (!same || seat != g.state.players) {
                print_message("%s: expected roads %s\n", name, e + 6);
                problems++;
            }
        } else if (sscanf(e, "pile %d %n", &v, &v2) == 1 && v2 > 0) {
            if (!pile_is(&g.state, v, e + v2)) {
                print_message("%s: expected %s\n", name, e);
                problems++;
            }
        } else if (sscanf(e, "stack %d %d", &v, &v2) == 2) {
            if (v < 0 || v >= g.state.players || g.state.stack[v] != v2) {
                print_message("%s: expected stack %d %d\n", name, v, v2);
                problems++;
            }
        } else if (strcmp(e, "finished") == 0 || strcmp(e, "unfinished") == 0) {
            if (fig_game_over(&g) != (e[0] == 'f')) {
                print_message("%s: expected %s\n", name, e);
                problems++;
            }
        } else if (sscanf(e, "%31s %d", word, &v) == 2) {
            int got;
            int ranking[FIG_MAX_PLAYERS];
            fig_state_ranking(&g.state, ranking);
            int total = g.nmoves[0] + g.nmoves[1] + g.nmoves[2];
            if (strcmp(word, "round") == 0) got = g.state.round;
            else if (strcmp(word, "dealt") == 0) got = g.dealt;
            else if (strcmp(word, "moves") == 0) got = total;
            else if (strcmp(word, "next") == 0) got = g.state.turn;
            else if (strcmp(word, "king") == 0) got = g.state.king;
            else if (strcmp(word, "winner") == 0) got = fig_game_over(&g) ? ranking[0] : -1;
            else {
                print_message("%s:%d: unknown expectation '%s'\n", name, line_no, e);
                problems++;
                continue;
            }
            if (got != v) {
                print_message("%s: expected %s %d, got %d\n", name, word, v, got);
                problems++;
            }
        } else {
            print_message("%s:%d: unknown expectation '%s'\n", name, line_no, e);
            problems++;
        }
    }
    bool bad_name = strncmp(name, "bad-", 4) == 0;
    if (!expectations && !bad_name) {   /* no expectation: the record must read */
        want_ok = true;
        if (rc != FIG_OK) {
            print_message("%s: no '#! expect' line, and the record fails: line %d: %s\n", name,
                          msg.line, msg.text);
            problems++;
        }
    }
    if (bad_name != want_error || want_ok == want_error) {
        print_message("%s: bad-*.fgn files expect one error, the others expect ok\n", name);
        problems++;
    }
    if (rc == FIG_OK) {
        const char *problem = round_trip_problem(&g, &msg);
        if (problem) {
            print_message("%s: %s\n", name, problem);
            problems++;
        }
    }
    return problems;
}

static void test_case_files(void **state)
{
    (void)state;
    const char *dir_path = "tests/cases";
    DIR *dir = opendir(dir_path);
    if (!dir)
        fail_msg("cannot open %s: run the tests from the repository root", dir_path);
    char *names[256];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l > 4 && strcmp(de->d_name + l - 4, ".fgn") == 0 && n < 256) {
            names[n] = strdup(de->d_name);
            assert_non_null(names[n]);
            n++;
        }
    }
    closedir(dir);
    qsort(names, (size_t)n, sizeof names[0], cmp_str);
    int problems = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir_path, names[i]);
        size_t len;
        char *text = slurp(path, &len);
        if (!text) {
            print_message("%s: cannot read\n", path);
            problems++;
        } else {
            problems += check_case(names[i], text, len);
            free(text);
        }
        bad += strncmp(names[i], "bad-", 4) == 0;
        free(names[i]);
    }
    if (n < CASES_MIN)
        fail_msg("only %d case files in %s (expected at least %d)", n, dir_path, CASES_MIN);
    if (bad == 0 || bad == n)
        fail_msg("tests/cases needs both valid and bad-*.fgn records");
    if (problems)
        fail_msg("%d problems in the case files", problems);
}

/* The driver itself must be able to fail: a wrong expectation is caught. */
static void test_case_driver_catches_mistakes(void **state)
{
    (void)state;
    print_message("(the complaints below are expected: the driver is checking itself)\n");
    static const char ok_record[] = "#! expect ok\n#! expect next 2\n" HEAD4 DEAL4 OPENING;
    assert_int_equal(check_case("selftest-good.fgn", ok_record, sizeof ok_record - 1), 0);
    static const char wrong_next[] = "#! expect ok\n#! expect next 1\n" HEAD4 DEAL4 OPENING;
    assert_int_equal(check_case("selftest.fgn", wrong_next, sizeof wrong_next - 1), 1);
    static const char typo[] = "#! expect ok\n#! expect nxet 2\n" HEAD4 DEAL4 OPENING;
    assert_int_equal(check_case("selftest.fgn", typo, sizeof typo - 1), 1);
    static const char stacks[] = "#! expect ok\n#! expect stack 0 0\n#! expect stack 1 1\n"
                                 "#! expect roads 0 0 0 0\n#! expect roads 0 0 0\n"
                                 "#! expect roads 0 0 0 1\n" HEAD4 DEAL4 OPENING;
    assert_int_equal(check_case("selftest.fgn", stacks, sizeof stacks - 1), 3);
    /* After OPENING the piles are [J1 J1] [G1 G1] [Y1] [B1]. */
    static const char piles[] = "#! expect ok\n#! expect pile 0 J1 J1\n#! expect pile 1 g1 G1\n"
                                "#! expect pile 3 B1\n#! expect pile 2 Y1 J1\n"
                                "#! expect pile 2 empty\n#! expect pile 0 J1\n"
                                "#! expect pile 1 G1 G1 B1\n" HEAD4 DEAL4 OPENING;
    assert_int_equal(check_case("selftest.fgn", piles, sizeof piles - 1), 4);
    static const char none[] = HEAD4 DEAL4 OPENING;
    assert_int_equal(check_case("selftest.fgn", none, sizeof none - 1), 0);
    assert_true(check_case("bad-selftest.fgn", none, sizeof none - 1) > 0);
    static const char none_bad[] = HEAD4 DEAL4 OPENING "2 B2>0\n";
    assert_int_equal(check_case("selftest.fgn", none_bad, sizeof none_bad - 1), 1);
    static const char wrong_line[] = "#! expect error line 16 \"already has blue\"\n"
                                     HEAD4 DEAL4 OPENING "2 B2>0\n";
    assert_int_equal(check_case("bad-selftest.fgn", wrong_line, sizeof wrong_line - 1), 1);
    static const char right_line[] = "#! expect error line 18 \"already has blue\"\n\n"
                                     HEAD4 DEAL4 OPENING "2 B2>0\n";
    assert_int_equal(check_case("bad-selftest.fgn", right_line, sizeof right_line - 1), 0);
    static const char wrong_words[] = "#! expect error line 18 \"has red\"\n\n"
                                      HEAD4 DEAL4 OPENING "2 B2>0\n";
    assert_int_equal(check_case("bad-selftest.fgn", wrong_words, sizeof wrong_words - 1), 1);
    assert_true(check_case("selftest-misnamed.fgn", right_line, sizeof right_line - 1) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_canonical_form),
        cmocka_unit_test(test_read_fills_the_game),
        cmocka_unit_test(test_round_trip_random_games),
        cmocka_unit_test(test_round_trip_unfinished),
        cmocka_unit_test(test_line_truncations),
        cmocka_unit_test(test_byte_truncations),
        cmocka_unit_test(test_write_snprintf_semantics),
        cmocka_unit_test(test_lexical_comments_blanks_tabs),
        cmocka_unit_test(test_lexical_crlf),
        cmocka_unit_test(test_lexical_case_insensitive),
        cmocka_unit_test(test_lexical_header_order),
        cmocka_unit_test(test_lexical_roads_forms),
        cmocka_unit_test(test_lexical_ring_forms),
        cmocka_unit_test(test_lexical_optional_headers),
        cmocka_unit_test(test_lexical_utf8_names_and_bom),
        cmocka_unit_test(test_name_byte_rule_is_the_readers),
        cmocka_unit_test(test_lexical_line_length_limit),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_bad_header_values),
        cmocka_unit_test(test_bad_header_structure),
        cmocka_unit_test(test_bad_header_after_round_1),
        cmocka_unit_test(test_bad_deal),
        cmocka_unit_test(test_bad_rounds_small),
        cmocka_unit_test(test_bad_round_repeated),
        cmocka_unit_test(test_bad_moves),
        cmocka_unit_test(test_bad_bytes),
        cmocka_unit_test(test_bad_sizes),
        cmocka_unit_test(test_bad_message_quotes_utf8),
        cmocka_unit_test(test_bad_round_structure),
        cmocka_unit_test(test_bad_hand_outside_a_deal),
        cmocka_unit_test(test_random_junk),
        cmocka_unit_test(test_case_files),
        cmocka_unit_test(test_case_driver_catches_mistakes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
