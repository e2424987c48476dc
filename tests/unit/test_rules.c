/* SPDX-License-Identifier: MIT */
/* test_rules.c - one or more tests per rule of rules.md (R1-R14), every worked
 * example, the rulings, the events fig_state_apply reports and the refusal of
 * illegal actions.
 *
 * Positions are reached by dealing explicit hands and applying real moves
 * (support.h) wherever that is short; positions that play cannot reach in a few
 * moves (a round-3 ending, five coloured piles) are described directly with
 * sup_build, which keeps every derived field consistent. Each test states the
 * rule it checks and why the position shows it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

/* ---- helpers ---- */

/* Fails the test at file:line with the engine's message if rc is not FIG_OK. */
static void ok_at(fig_err_t rc, const fig_msg_t *msg, const char *what, const char *file,
                  int line)
{
    if (rc != FIG_OK) {
        print_error("%s failed (%d): %s\n", what, (int)rc, msg->text);
        _fail(file, line);
    }
}
#define OK(call) ok_at((call), &msg, #call, __FILE__, __LINE__)

/* Starts round 1 of a game of `players` (3 players leave purple out) with the
 * King at `king`, default roads, and hands beginning with `prefix`, filled up
 * from the rest of the deck (sup_deal_fill). */
static void start_at(fig_state_t *st, int players, int king, const char *const prefix[],
                     const char *file, int line)
{
    fig_setup_t setup;
    fig_msg_t msg;
    ok_at(sup_setup(&setup, players, king, players == 3 ? FIG_PURPLE : FIG_NO_COLOUR, NULL, &msg),
          &msg, "sup_setup", file, line);
    fig_state_init(st, &setup);
    ok_at(sup_deal_fill(st, prefix, &msg), &msg, "sup_deal_fill", file, line);
}
#define START(st, players, king, ...)                                             \
    do {                                                                          \
        const char *const prefix_[FIG_MAX_PLAYERS] = { __VA_ARGS__ };             \
        start_at((st), (players), (king), prefix_, __FILE__, __LINE__);           \
    } while (0)

#define BUILD(st, pos) OK(sup_build((st), (pos), &msg))

/* Asserts that pile `seat` holds exactly `text` (canonical order, see
 * sup_pile_format). */
static void pile_is_at(const fig_state_t *st, int seat, const char *text, const char *file,
                       int line)
{
    char buf[128];
    sup_pile_format(&st->pile[seat], buf, sizeof buf);
    if (strcmp(buf, text) != 0) {
        print_error("pile %d is \"%s\", expected \"%s\"\n", seat, buf, text);
        _fail(file, line);
    }
}
#define PILE_IS(st, seat, text) pile_is_at((st), (seat), (text), __FILE__, __LINE__)

/* Whether `a` is among the legal actions of st. */
static int is_legal(const fig_state_t *st, fig_action_t a)
{
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(st, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == a)
            return 1;
    return 0;
}

/* Asserts that `a` is refused with error `want` and exactly the message
 * `text`, by fig_state_check and by fig_state_apply alike; that it is not in
 * the legal list; and that neither the state nor the event list changed. */
static void refused_at(fig_state_t *st, fig_action_t a, fig_err_t want, const char *text,
                       const char *file, int line)
{
    fig_state_t before;
    fig_events_t ev;
    fig_msg_t m1, m2;
    memcpy(&before, st, sizeof before);   /* memcpy: padding must compare equal too */
    memset(&m1, 0, sizeof m1);
    memset(&m2, 0, sizeof m2);
    ev.n = 77;
    fig_err_t rc1 = fig_state_check(st, a, &m1);
    fig_err_t rc2 = fig_state_apply(st, a, &ev, &m2);
    const char *why = NULL;
    if (rc1 != want || rc2 != want)
        why = "wrong error code";
    else if (strcmp(m1.text, text) != 0 || strcmp(m2.text, text) != 0)
        why = "wrong message";
    else if (memcmp(&before, st, sizeof before) != 0)
        why = "the state changed";
    else if (ev.n != 77)
        why = "the events changed";
    else if (is_legal(st, a))
        why = "the action is in the legal list";
    if (why) {
        print_error("action %#x: %s: check gave %d \"%s\", apply gave %d \"%s\"; "
                    "expected %d \"%s\"\n", (unsigned)a, why, (int)rc1, m1.text, (int)rc2, m2.text,
                    (int)want, text);
        _fail(file, line);
    }
}
#define REFUSED(st, a, text) refused_at((st), (a), FIG_ERR_INPUT, (text), __FILE__, __LINE__)
#define REFUSED_STATE(st, a, text) refused_at((st), (a), FIG_ERR_STATE, (text), __FILE__, __LINE__)

#define ACT(text, actor) sup_act((text), (actor))

/* The event of a type that must be there. */
static const fig_event_t *event_at(const fig_events_t *ev, int type, int nth, const char *file,
                                   int line)
{
    const fig_event_t *e = sup_event(ev, type, nth);
    if (!e) {
        print_error("no event of type %d (#%d) among %d events\n", type, nth, ev->n);
        _fail(file, line);
    }
    return e;
}
#define EVENT(ev, type, nth) event_at((ev), (type), (nth), __FILE__, __LINE__)

/* ---- R1: components ---- */

static void test_r1_deck_has_60_cards(void **cm)
{
    (void)cm;
    fig_hand_t deck;
    fig_deck(&deck, 4, FIG_NO_COLOUR);
    assert_int_equal(fig_hand_total(&deck), 60);
    for (int c = 0; c < FIG_COLOURS; c++) {
        /* three 1s, six 2s, one 3: each colour sums to 18 */
        assert_int_equal(deck.n[c * 3 + 0], 3);
        assert_int_equal(deck.n[c * 3 + 1], 6);
        assert_int_equal(deck.n[c * 3 + 2], 1);
        int sum = 0;
        for (int v = 0; v < 3; v++)
            sum += deck.n[c * 3 + v] * fig_kind_value(c * 3 + v);
        assert_int_equal(sum, 18);
    }
    assert_int_equal(deck.n[FIG_J1], 3);
    assert_int_equal(deck.n[FIG_J2], 2);
    assert_int_equal(deck.n[FIG_RING], 5);
    /* 5, 6 players use the same 60 cards */
    fig_hand_t d5, d6;
    fig_deck(&d5, 5, FIG_NO_COLOUR);
    fig_deck(&d6, 6, FIG_NO_COLOUR);
    assert_memory_equal(&d5, &deck, sizeof deck);
    assert_memory_equal(&d6, &deck, sizeof deck);
}

static void test_r1_card_values_and_colours(void **cm)
{
    (void)cm;
    static const int value[FIG_KINDS] = { 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 0 };
    for (int k = 0; k < FIG_KINDS; k++) {
        assert_int_equal(fig_kind_value(k), value[k]);
        assert_int_equal(fig_kind_is_colour(k), k < FIG_J1);
        assert_int_equal(fig_kind_is_jester(k), k == FIG_J1 || k == FIG_J2);
        assert_int_equal(fig_kind_colour(k), k < FIG_J1 ? k / 3 : FIG_NO_COLOUR);
    }
    static const char letters[] = "RBGYP";
    for (int c = 0; c < FIG_COLOURS; c++) {
        assert_int_equal(fig_colour_letter(c), letters[c]);
        assert_int_equal(fig_colour_parse(letters[c]), c);
        assert_int_equal(fig_colour_parse((char)(letters[c] + 'a' - 'A')), c);
    }
    assert_int_equal(fig_colour_parse('X'), -1);
    assert_string_equal(fig_colour_name(FIG_BLUE), "blue");
}

static void test_r1_card_codes_round_trip(void **cm)
{
    (void)cm;
    static const char *const codes[FIG_KINDS] = {
        "R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2", "G3",
        "Y1", "Y2", "Y3", "P1", "P2", "P3", "J1", "J2", "RING",
    };
    for (int k = 0; k < FIG_KINDS; k++) {
        assert_string_equal(fig_kind_code(k), codes[k]);
        assert_int_equal(fig_kind_parse(codes[k], strlen(codes[k])), k);
    }
    assert_int_equal(fig_kind_parse("ring", 4), FIG_RING);   /* case-insensitive (fgn.md) */
    assert_int_equal(fig_kind_parse("y3", 2), FIG_Y3);
    assert_int_equal(fig_kind_parse("R4", 2), -1);
    assert_int_equal(fig_kind_parse("J3", 2), -1);
    assert_int_equal(fig_kind_parse("R", 1), -1);
    assert_int_equal(fig_kind_parse("R22", 3), -1);
}

static void test_r1_default_roads_are_1_to_15(void **cm)
{
    (void)cm;
    for (int i = 0; i < 15; i++)
        assert_int_equal(fig_default_roads[i], i + 1);
}

static void test_r1_any_distinct_road_lengths(void **cm)
{
    (void)cm;
    fig_setup_t setup;
    fig_msg_t msg;
    /* Any 15 distinct positive lengths (R1 ruling), in any order. */
    OK(sup_setup(&setup, 4, 0, FIG_NO_COLOUR, "100 300 200 / 7 1000 40 / 41 42 43", &msg));
    assert_int_equal(setup.roads[0][0], 300);   /* fig_setup_check sorts longest first */
    assert_int_equal(setup.roads[0][2], 100);
    assert_int_equal(setup.roads[1][0], 1000);
    assert_int_equal(sup_setup(&setup, 4, 0, FIG_NO_COLOUR, "9 5 2 / 14 9 1 / 13 8 3", &msg),
                     FIG_ERR_INPUT);
    assert_string_equal(msg.text, "road length 9 appears twice: all pieces differ (R1)");
    assert_int_equal(sup_setup(&setup, 4, 0, FIG_NO_COLOUR, "9 5 0 / 14 11 1 / 13 8 3", &msg),
                     FIG_ERR_INPUT);
    assert_string_equal(msg.text, "road lengths must be positive");

    /* fig_setup_random draws from the lengths it is given. */
    const uint16_t lengths[15] = { 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35 };
    fig_setup_random(&setup, 6, 99, lengths);
    int seen = 0;
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < 5; i++) {
            int len = setup.roads[r][i];
            assert_true(len >= 21 && len <= 35);
            seen |= 1 << (len - 21);
        }
    assert_int_equal(seen, 0x7FFF);   /* 6 players use all 15 (R3) */
}

/* ---- R2: three players ---- */

static void test_r2_three_players_remove_colour_jesters_rings(void **cm)
{
    (void)cm;
    for (int removed = 0; removed < FIG_COLOURS; removed++) {
        fig_hand_t deck;
        fig_deck(&deck, 3, removed);
        assert_int_equal(fig_hand_total(&deck), 45);
        for (int c = 0; c < FIG_COLOURS; c++) {
            int cards = deck.n[c * 3] + deck.n[c * 3 + 1] + deck.n[c * 3 + 2];
            /* Ruling: one colour goes, not two as the player aid says. */
            assert_int_equal(cards, c == removed ? 0 : 10);
        }
        assert_int_equal(deck.n[FIG_J1], 2);
        assert_int_equal(deck.n[FIG_J2], 1);
        assert_int_equal(deck.n[FIG_RING], 2);
    }
    assert_int_equal(fig_hand_cards(3), 15);
}

static void test_r2_removed_colour_stays_out_every_round(void **cm)
{
    (void)cm;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        fig_setup_t setup;
        fig_game_t g;
        fig_rng_t rng;
        fig_setup_random(&setup, 3, seed, NULL);
        fig_rng_seed(&rng, seed);
        fig_game_random(&g, &setup, &rng);
        assert_int_equal(g.dealt, 3);
        for (int r = 0; r < FIG_ROUNDS; r++) {
            fig_hand_t sum;
            memset(&sum, 0, sizeof sum);
            for (int s = 0; s < 3; s++)
                for (int k = 0; k < FIG_KINDS; k++)
                    sum.n[k] = (uint8_t)(sum.n[k] + g.hands[r][s].n[k]);
            fig_hand_t deck;
            fig_deck(&deck, 3, setup.removed);
            assert_memory_equal(&sum, &deck, sizeof deck);
        }
    }
}

static void test_r2_deal_refuses_removed_colour(void **cm)
{
    (void)cm;
    fig_setup_t setup;
    fig_state_t st;
    fig_msg_t msg;
    OK(sup_setup(&setup, 3, 0, FIG_BLUE, NULL, &msg));
    fig_state_init(&st, &setup);
    fig_hand_t deck, hands[3];
    fig_deck(&deck, 3, FIG_BLUE);
    /* A legal deal, then one G1 swapped for a B1 that is out of the game. */
    memset(hands, 0, sizeof hands);
    int seat = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        for (int i = 0; i < deck.n[k]; i++) {
            hands[seat].n[k]++;
            seat = (seat + 1) % 3;
        }
    fig_state_t probe;
    memcpy(&probe, &st, sizeof st);
    OK(fig_state_deal_hands(&probe, hands, &msg));   /* the control deal is fine */
    int s = hands[0].n[FIG_G1] ? 0 : hands[1].n[FIG_G1] ? 1 : 2;
    hands[s].n[FIG_G1]--;
    hands[s].n[FIG_B1]++;
    assert_int_equal(fig_state_deal_hands(&st, hands, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "the hands hold 1 B1 but the deck has 0 (R1, R2)");
}

static void test_r2_setup_removed_colour(void **cm)
{
    (void)cm;
    int colours = 0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        fig_setup_t a, b;
        fig_setup_random(&a, 3, seed, NULL);
        fig_setup_random(&b, 3, seed, NULL);
        assert_memory_equal(&a, &b, sizeof a);   /* chosen from the seed alone */
        assert_true(a.removed >= 0 && a.removed < FIG_COLOURS);
        colours |= 1 << a.removed;
        fig_setup_random(&a, 4, seed, NULL);
        assert_int_equal(a.removed, FIG_NO_COLOUR);
    }
    assert_int_equal(colours, 0x1F);   /* at random: every colour comes up */

    fig_setup_t setup;
    fig_msg_t msg;
    assert_int_equal(sup_setup(&setup, 3, 0, FIG_NO_COLOUR, NULL, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "a 3-player game must name the colour left out (R2)");
    assert_int_equal(sup_setup(&setup, 4, 0, FIG_RED, NULL, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text,
                        "only a 3-player game leaves a colour out (R2), not a 4-player game");
}

/* ---- R3: setup ---- */

static void test_r3_setup_draws_groups_longest_first(void **cm)
{
    (void)cm;
    for (int n = 3; n <= 6; n++) {
        int lengths_seen = 0, kings = 0, mixed = 0;
        for (uint64_t seed = 0; seed < 300; seed++) {
            fig_setup_t setup, checked;
            fig_msg_t msg;
            fig_setup_random(&setup, n, seed, NULL);
            assert_int_equal(setup.players, n);
            int used = 0;
            for (int r = 0; r < FIG_ROUNDS; r++)
                for (int i = 0; i < n - 1; i++) {
                    int len = setup.roads[r][i];
                    assert_true(len >= 1 && len <= 15);
                    assert_false(used & 1 << len);   /* all different */
                    used |= 1 << len;
                    if (i)
                        assert_true(setup.roads[r][i - 1] > len);   /* longest first */
                }
            for (int r = 0; r < FIG_ROUNDS; r++)   /* unused slots stay empty */
                for (int i = n - 1; i < FIG_MAX_PLAYERS - 1; i++)
                    assert_int_equal(setup.roads[r][i], 0);
            if (n == 6)
                assert_int_equal(used, 0xFFFE);   /* 6 players use all 15 */
            lengths_seen |= used;
            /* Split at random: some later group holds a piece longer than
             * some piece of round 1 (a sort before the split would not). */
            if (setup.roads[2][0] > setup.roads[0][n - 2])
                mixed = 1;
            assert_true(setup.king >= 0 && setup.king < n);
            kings |= 1 << setup.king;
            memcpy(&checked, &setup, sizeof setup);
            OK(fig_setup_check(&checked, &msg));
            assert_memory_equal(&checked, &setup, sizeof setup);
        }
        assert_int_equal(lengths_seen, 0xFFFE);   /* any piece may be drawn */
        assert_int_equal(kings, (1 << n) - 1);    /* R3.2: the King at random */
        assert_true(mixed);
    }
}

static void test_r3_setup_check_sorts_and_checks(void **cm)
{
    (void)cm;
    fig_setup_t setup;
    fig_msg_t msg;
    memset(&setup, 0, sizeof setup);
    setup.players = 4;
    setup.removed = FIG_NO_COLOUR;
    setup.king = 3;
    const uint16_t groups[3][3] = { { 2, 9, 5 }, { 1, 11, 14 }, { 8, 3, 13 } };
    for (int r = 0; r < 3; r++)
        memcpy(setup.roads[r], groups[r], sizeof groups[r]);
    OK(fig_setup_check(&setup, &msg));
    const uint16_t want[3][3] = { { 9, 5, 2 }, { 14, 11, 1 }, { 13, 8, 3 } };
    for (int r = 0; r < 3; r++)
        assert_memory_equal(setup.roads[r], want[r], sizeof want[r]);
    setup.king = 4;
    assert_int_equal(fig_setup_check(&setup, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "the King must start at a seat from 0 to 3, not 4");
    setup.king = 0;
    setup.players = 7;
    assert_int_equal(fig_setup_check(&setup, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "Figaro is played by 3 to 6 players, not 7");
}

static void test_r3_king_holder_starts(void **cm)
{
    (void)cm;
    fig_setup_t setup;
    fig_state_t st;
    fig_msg_t msg;
    OK(sup_setup(&setup, 5, 3, FIG_NO_COLOUR, NULL, &msg));
    fig_state_init(&st, &setup);
    assert_int_equal(st.phase, FIG_PHASE_DEAL);
    assert_int_equal(st.round, 1);
    assert_int_equal(st.king, 3);
    assert_memory_equal(st.group, setup.roads, sizeof st.group);
}

/* ---- R4: dealing ---- */

static void test_r4_deal_even_king_starts(void **cm)
{
    (void)cm;
    static const int per[7] = { 0, 0, 0, 15, 15, 12, 10 };
    for (int n = 3; n <= 6; n++) {
        assert_int_equal(fig_hand_cards(n), per[n]);
        for (uint64_t seed = 0; seed < 20; seed++) {
            fig_setup_t setup;
            fig_state_t st;
            fig_rng_t rng;
            fig_setup_random(&setup, n, seed, NULL);
            fig_state_init(&st, &setup);
            fig_rng_seed(&rng, seed);
            fig_state_deal(&st, &rng);
            fig_hand_t deck, sum;
            fig_deck(&deck, n, setup.removed);
            memset(&sum, 0, sizeof sum);
            for (int s = 0; s < n; s++) {
                assert_int_equal(fig_hand_total(&st.hand[s]), per[n]);
                assert_int_equal(st.hand_size[s], per[n]);
                for (int k = 0; k < FIG_KINDS; k++)
                    sum.n[k] = (uint8_t)(sum.n[k] + st.hand[s].n[k]);
            }
            assert_memory_equal(&sum, &deck, sizeof deck);   /* all cards dealt */
            assert_int_equal(st.phase, FIG_PHASE_PLAY);
            assert_int_equal(st.turn, setup.king);
            assert_int_equal(st.table_cards, 0);
            char why[200];
            if (!sup_check_state(&st, why, sizeof why))
                fail_msg("seed %llu: %s", (unsigned long long)seed, why);
        }
    }
}

static void test_r4_deal_is_shuffled(void **cm)
{
    (void)cm;
    /* Two seeds give two different deals; one seed always the same. */
    fig_setup_t setup;
    fig_state_t a, b, c;
    fig_rng_t rng;
    fig_setup_random(&setup, 4, 1, NULL);
    fig_state_init(&a, &setup);
    memcpy(&b, &a, sizeof a);
    memcpy(&c, &a, sizeof a);
    fig_rng_seed(&rng, 1);
    fig_state_deal(&a, &rng);
    fig_rng_seed(&rng, 2);
    fig_state_deal(&b, &rng);
    fig_rng_seed(&rng, 1);
    fig_state_deal(&c, &rng);
    assert_memory_not_equal(a.hand, b.hand, sizeof a.hand);
    assert_memory_equal(a.hand, c.hand, sizeof a.hand);
}

static void test_r4_deal_hands_refuses_bad_deals(void **cm)
{
    (void)cm;
    fig_setup_t setup;
    fig_state_t st, before;
    fig_msg_t msg;
    OK(sup_setup(&setup, 4, 0, FIG_NO_COLOUR, NULL, &msg));
    fig_state_init(&st, &setup);
    memcpy(&before, &st, sizeof st);
    fig_hand_t deck, hands[4];
    fig_deck(&deck, 4, FIG_NO_COLOUR);
    memset(hands, 0, sizeof hands);
    int seat = 0;
    for (int k = 0; k < FIG_KINDS; k++)
        for (int i = 0; i < deck.n[k]; i++) {
            hands[seat].n[k]++;
            seat = (seat + 1) % 4;
        }
    /* Uneven: seat 1 gives one card to seat 2 (R4: all get the same). */
    fig_hand_t bad[4];
    memcpy(bad, hands, sizeof bad);
    int k = 0;
    while (!bad[1].n[k])
        k++;
    bad[1].n[k]--;
    bad[2].n[k]++;
    assert_int_equal(fig_state_deal_hands(&st, bad, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "seat 1 is dealt 14 cards; with 4 players each gets 15 (R4)");
    assert_memory_equal(&st, &before, sizeof st);
    /* Not the deck: an R1 becomes a second R3. */
    memcpy(bad, hands, sizeof bad);
    int s = bad[0].n[FIG_R1] ? 0 : 1;
    bad[s].n[FIG_R1]--;
    bad[s].n[FIG_R3]++;
    assert_int_equal(fig_state_deal_hands(&st, bad, &msg), FIG_ERR_INPUT);
    assert_string_equal(msg.text, "the hands hold 2 R1 but the deck has 3 (R1, R2)");
    assert_memory_equal(&st, &before, sizeof st);
    /* Dealing twice: the round is being played. */
    OK(fig_state_deal_hands(&st, hands, &msg));
    assert_int_equal(fig_state_deal_hands(&st, hands, &msg), FIG_ERR_STATE);
    assert_string_equal(msg.text, "round 1 is still being played");
}

/* ---- R5: a turn ---- */

static void test_r5_take_requires_face_up_card(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    START(&st, 4, 0, "R1", "B1");
    /* Ruling: no take on an empty table (it would be a pass). */
    REFUSED(&st, FIG_ACT_TAKE,
            "seat 0 cannot take: there is no face-up card on the table (R5)");
    OK(sup_apply(&st, "0 R1>0", NULL, &msg));
    assert_true(is_legal(&st, FIG_ACT_TAKE));
    fig_action_t moves[FIG_MAX_ACTIONS];
    assert_true(fig_state_legal(&st, moves) > 1);
    assert_int_equal(moves[0], FIG_ACT_TAKE);   /* the fixed order puts take first */
}

static void test_r5_take_allowed_when_play_possible(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    START(&st, 4, 0, "R1", "B1 J1");
    OK(sup_apply(&st, "0 R1>0", NULL, &msg));
    assert_true(is_legal(&st, ACT("B1>1", 1)));   /* seat 1 could play */
    OK(sup_apply(&st, "1 take", &ev, &msg));      /* and may take anyway */
    assert_int_equal(st.stack[1], 1);
    assert_int_equal(st.table_cards, 0);
    assert_int_equal(st.hand_size[1], 15);        /* a take plays no card */
}

static void test_r5_must_take_when_no_play(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* Every pile has a colour and blue is nobody's: seat 0's blue cards fit
     * nowhere (R6), so take is its only action. */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 0,
        .hand = { "B1 B2", "R2", "G2", "Y2" },
        .pile = { "P1", "R1", "G1", "Y1" },
    };
    BUILD(&st, &pos);
    fig_action_t moves[FIG_MAX_ACTIONS];
    assert_int_equal(fig_state_legal(&st, moves), 1);
    assert_int_equal(moves[0], FIG_ACT_TAKE);
    REFUSED(&st, ACT("B1>0", 0), "seat 0 cannot play B1 in front of seat 0: that pile is "
            "purple (R6)");
    OK(fig_state_apply(&st, FIG_ACT_TAKE, NULL, &msg));
    assert_int_equal(st.stack[0], 4);
}

static void test_r5_empty_table_always_has_a_play(void **cm)
{
    (void)cm;
    /* Ruling: on an empty table every pile is colourless, so any card can go
     * in front of its holder: no seat is ever stuck. Checked on every position
     * of 30 random games where the table is empty. */
    for (uint64_t seed = 0; seed < 30; seed++) {
        fig_setup_t setup;
        fig_state_t st;
        fig_rng_t rng;
        fig_setup_random(&setup, 3 + (int)(seed % 4), seed, NULL);
        fig_state_init(&st, &setup);
        fig_rng_seed(&rng, seed);
        while (st.phase != FIG_PHASE_OVER) {
            if (st.phase == FIG_PHASE_DEAL)
                fig_state_deal(&st, &rng);
            fig_action_t moves[FIG_MAX_ACTIONS];
            int n = fig_state_legal(&st, moves);
            if (st.table_cards == 0) {
                assert_true(n >= 1);
                for (int i = 0; i < n; i++)
                    assert_false(fig_act_is_take(moves[i]));
            }
            fig_state_apply_legal(&st, moves[fig_rng_below(&rng, (uint32_t)n)], NULL);
        }
    }
}

static void test_r5_play_requires_card_in_hand(void **cm)
{
    (void)cm;
    fig_state_t st;
    START(&st, 4, 0, "R1", "R3");
    REFUSED(&st, ACT("R3>0", 0), "seat 0 has no R3 in hand");
}

/* ---- R6: where a card may be played ---- */

static void test_r6_legal_actions_exact(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* Red lies at seat 1, seat 2 holds only a jester: red goes only to seat 1,
     * blue to any colourless pile (0, 2, 3), jesters anywhere, the ring to
     * oneself; same kinds count once (two B2 in hand, one move each). */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 0,
        .hand = { "R1 B2 B2 J1 RING", "G1", "G2", "Y2" },
        .pile = { NULL, "R2", "J2", NULL },
    };
    BUILD(&st, &pos);
    const char *const want[] = {
        "take", "R1>1", "B2>0", "B2>2", "B2>3", "J1>0", "J1>1", "J1>2", "J1>3", "RING",
    };
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(&st, moves);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; i++)
        assert_int_equal(moves[i], ACT(want[i], 0));   /* and in the documented order */
}

static void test_r6_colour_unique_across_piles(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    START(&st, 4, 0, "R1 R2", "R3 B2", "R2");
    OK(sup_apply(&st, "0 R1>1", NULL, &msg));
    /* Red is at seat 1 now: R6(b) keeps it off every other pile. */
    assert_int_equal(st.owner[FIG_RED], 1);
    assert_true(is_legal(&st, ACT("R3>1", 1)));
    REFUSED(&st, fig_act_play(FIG_R3, 0),
            "seat 1 cannot play R3 in front of seat 0: seat 1 already has red");
    REFUSED(&st, fig_act_play(FIG_R3, 2),
            "seat 1 cannot play R3 in front of seat 2: seat 1 already has red");
    REFUSED(&st, fig_act_play(FIG_R3, 3),
            "seat 1 cannot play R3 in front of seat 3: seat 1 already has red");
    /* R6(a): seat 1's pile is red, so no other colour goes there. */
    REFUSED(&st, ACT("B2>1", 1), "seat 1 cannot play B2 in front of seat 1: that pile is red (R6)");
    OK(sup_apply(&st, "1 R3>1", NULL, &msg));
    PILE_IS(&st, 1, "R1 R3");
    assert_int_equal(st.owner[FIG_RED], 1);
}

static void test_r6_colour_on_colourless_pile(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* A pile of jesters has no colour yet (R6): the first colour card decides. */
    START(&st, 4, 0, "J1", "G1", "B1");
    OK(sup_apply(&st, "0 J1>2", NULL, &msg));
    assert_int_equal(st.pile[2].colour, FIG_NO_COLOUR);
    assert_true(st.colourless & 1u << 2);
    assert_true(is_legal(&st, ACT("G1>2", 1)));
    OK(sup_apply(&st, "1 G1>2", NULL, &msg));
    assert_int_equal(st.pile[2].colour, FIG_GREEN);
    assert_int_equal(st.owner[FIG_GREEN], 2);
    assert_false(st.colourless & 1u << 2);
    REFUSED(&st, ACT("B1>2", 2), "seat 2 cannot play B1 in front of seat 2: that pile is "
            "green (R6)");
}

static void test_r6_jester_matches_every_colour(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    START(&st, 4, 0, "R1", "J2", "J1");
    OK(sup_apply(&st, "0 R1>0", NULL, &msg));
    /* A jester on a red pile: allowed, and the pile stays red. */
    OK(sup_apply(&st, "1 J2>0", NULL, &msg));
    assert_int_equal(st.pile[0].colour, FIG_RED);
    assert_int_equal(st.pile[0].total, 3);
    /* A jester on an empty pile gives it no colour. */
    OK(sup_apply(&st, "2 J1>3", NULL, &msg));
    assert_int_equal(st.pile[3].colour, FIG_NO_COLOUR);
    assert_int_equal(st.owner[FIG_RED], 0);
    for (int c = 1; c < FIG_COLOURS; c++)
        assert_int_equal(st.owner[c], FIG_NOBODY);
}

static void test_r6_jester_in_front_of_sixth_player(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* The five colours lie before seats 0-4: only a jester can go before
     * seat 5 (the case R6 names). */
    sup_pos_t pos = {
        .players = 6, .king = 0, .turn = 5,
        .hand = { "R3", "B3", "G3", "Y3", "P3", "R2 J1 J2" },
        .pile = { "R1", "B1", "G1", "Y1", "P1", NULL },
    };
    BUILD(&st, &pos);
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(&st, moves);
    assert_int_equal(n, 1 + 1 + 6 + 6);
    assert_true(is_legal(&st, ACT("J1>5", 5)));
    assert_true(is_legal(&st, ACT("J2>5", 5)));
    assert_true(is_legal(&st, ACT("R2>0", 5)));
    REFUSED(&st, ACT("R2>5", 5), "seat 5 cannot play R2 in front of seat 5: seat 0 already has "
            "red");
    OK(fig_state_apply(&st, ACT("J1>5", 5), NULL, &msg));
    assert_int_equal(st.pile[5].colour, FIG_NO_COLOUR);
}

/* ---- R7: the ring ---- */

static void test_r7_ring_rotates_left(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* 5 players, every pile different: [Y1] [R1] [G1] [J1] [] ; seat 3 rings:
     * the pile before seat s moves to seat s+1, seat 4's to seat 0. */
    START(&st, 5, 4, "R1", "G1", "J1", "RING", "Y1");
    OK(sup_apply(&st, "4 Y1>4; 0 R1>0; 1 G1>1; 2 J1>2", NULL, &msg));
    OK(sup_apply(&st, "3 RING", &ev, &msg));
    PILE_IS(&st, 0, "Y1");
    PILE_IS(&st, 1, "R1");
    PILE_IS(&st, 2, "G1");
    PILE_IS(&st, 3, "J1");
    PILE_IS(&st, 4, "RING");
    assert_int_equal(st.owner[FIG_YELLOW], 0);
    assert_int_equal(st.owner[FIG_RED], 1);
    assert_int_equal(st.owner[FIG_GREEN], 2);
    assert_int_equal(st.colourless & 0x1Fu, (1u << 3) | (1u << 4));
    assert_int_equal(st.turn, 4);   /* no collection: next clockwise */
    assert_int_equal(EVENT(&ev, FIG_EV_RING, 0)->seat, 3);
    char why[200];
    assert_true(sup_check_state(&st, why, sizeof why));
}

static void test_r7_ring_only_in_front_of_oneself(void **cm)
{
    (void)cm;
    fig_state_t st;
    START(&st, 4, 1, NULL, "RING");
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(&st, moves), rings = 0;
    for (int i = 0; i < n; i++)
        if (!fig_act_is_take(moves[i]) && fig_act_kind(moves[i]) == FIG_RING) {
            rings++;
            assert_int_equal(fig_act_target(moves[i]), 1);
        }
    assert_int_equal(rings, 1);
    REFUSED(&st, fig_act_play(FIG_RING, 2), "seat 1 cannot play RING in front of seat 2: a ring "
            "is always played in front of oneself (R7)");
    assert_int_equal(ACT("RING", 1), fig_act_play(FIG_RING, 1));   /* FGN "RING" = own seat */
}

static void test_r7_ring_never_makes_six(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* Seat 0's pile totals 5; the ring (value 0) joins it and the pile moves
     * to seat 1 at 5: no collection, seat 1 plays next. */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 0,
        .hand = { "RING R1", "B1", "G1", "Y1" },
        .pile = { "R2 R3", NULL, NULL, "J2 J2" },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("RING", 0), &ev, &msg));
    assert_int_equal(sup_event_count(&ev, FIG_EV_COLLECT), 0);
    PILE_IS(&st, 1, "R2 R3 RING");
    assert_int_equal(st.pile[1].total, 5);
    PILE_IS(&st, 0, "J2 J2");
    assert_int_equal(st.turn, 1);
    assert_int_equal(st.table_cards, 5);
}

static void test_r7_ring_wraps_round_the_table(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* 3 players: the last seat's pile goes to seat 0. */
    sup_pos_t pos = {
        .players = 3, .king = 0, .turn = 2, .removed = FIG_PURPLE,
        .hand = { "R1", "B1", "RING G1" },
        .pile = { "R2", NULL, "G2" },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("RING", 2), NULL, &msg));
    PILE_IS(&st, 0, "G2 RING");
    PILE_IS(&st, 1, "R2");
    PILE_IS(&st, 2, "");
    assert_int_equal(st.owner[FIG_GREEN], 0);
    assert_int_equal(st.owner[FIG_RED], 1);
    assert_int_equal(st.colourless & 7u, 1u << 2);
    assert_int_equal(st.turn, 0);
    char why[200];
    assert_true(sup_check_state(&st, why, sizeof why));
}

/* ---- R8: the King has had enough ---- */

static void test_r8_six_or_more_collects(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* Pile 1 holds R2 R2 J1 (5); R2 makes 7: seat 1 collects all 5 face-up
     * cards (its 4 and seat 3's 1) although seat 0 played. */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 0,
        .hand = { "R2 B1", "B2", "G2", "Y2" },
        .pile = { NULL, "R2 R2 J1", NULL, "Y1" },
        .stack = { 0, 2, 0, 0 },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("R2>1", 0), &ev, &msg));
    assert_int_equal(st.stack[1], 2 + 5);
    assert_int_equal(st.table_cards, 0);
    for (int s = 0; s < 4; s++) {
        PILE_IS(&st, s, "");
        assert_int_equal(st.pile[s].colour, FIG_NO_COLOUR);
    }
    for (int c = 0; c < FIG_COLOURS; c++)
        assert_int_equal(st.owner[c], FIG_NOBODY);
    assert_int_equal(st.colourless, 0xF);
    const fig_event_t *e = EVENT(&ev, FIG_EV_COLLECT, 0);
    assert_int_equal(e->seat, 1);
    assert_int_equal(e->count, 5);
    assert_int_equal(e->reason, FIG_WHY_SIX);
    assert_int_equal(st.turn, 1);
}

static void test_r8_exactly_six_collects_five_does_not(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* Jesters count: J2 J2 (4) + J1 = 5 stays on the table; then G1 G2 (3)
     * + G3 = exactly 6 collects all six face-up cards. */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 0,
        .hand = { "J1", "G3", "B1", "Y1" },
        .pile = { "J2 J2", NULL, "G1 G2", NULL },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("J1>0", 0), &ev, &msg));
    assert_int_equal(st.pile[0].total, 5);
    assert_int_equal(sup_event_count(&ev, FIG_EV_COLLECT), 0);
    assert_int_equal(st.turn, 1);
    OK(fig_state_apply(&st, ACT("G3>2", 1), &ev, &msg));
    assert_int_equal(sup_event_count(&ev, FIG_EV_COLLECT), 1);
    assert_int_equal(st.stack[2], 6);
    assert_int_equal(st.turn, 2);
}

/* ---- R9: who plays next ---- */

static void test_r9_next_is_clockwise(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    START(&st, 4, 2, NULL, NULL, "R1", "B1");
    OK(sup_apply(&st, "2 R1>2", NULL, &msg));
    assert_int_equal(st.turn, 3);
    OK(sup_apply(&st, "3 B1>3", NULL, &msg));
    assert_int_equal(st.turn, 0);   /* after seat N-1 comes seat 0 */
}

static void test_r9_collector_plays_next(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    START(&st, 4, 0, "R3 B1", "R2", "J1");
    /* 0 R3>3 (3), 1 R2>3 (5), 2 J1>3 (6): seat 3 collects and plays, though
     * it played nothing; then play goes on clockwise from seat 3. */
    OK(sup_apply(&st, "0 R3>3; 1 R2>3", NULL, &msg));
    assert_int_equal(st.turn, 2);
    OK(sup_apply(&st, "2 J1>3", NULL, &msg));
    assert_int_equal(st.turn, 3);
    assert_int_equal(st.stack[3], 3);
    /* any play on the now empty table cannot collect: seat 0 is next */
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(&st, moves);
    fig_state_apply_legal(&st, moves[n - 1], NULL);
    assert_int_equal(st.turn, 0);
}

static void test_r9_taker_acts_again(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    START(&st, 4, 0, "R1", "B1", "G1");
    OK(sup_apply(&st, "0 R1>0; 1 B1>1; 2 take", &ev, &msg));
    /* R9 ruling: the taker acts again, on an empty table, so it must play. */
    assert_int_equal(st.turn, 2);
    assert_int_equal(st.stack[2], 2);
    assert_int_equal(st.table_cards, 0);
    assert_false(is_legal(&st, FIG_ACT_TAKE));
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(&st, moves);
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        assert_false(fig_act_is_take(moves[i]));
    const fig_event_t *take = EVENT(&ev, FIG_EV_TAKE, 0);
    assert_int_equal(take->seat, 2);
    assert_int_equal(take->count, 2);
    const fig_event_t *col = EVENT(&ev, FIG_EV_COLLECT, 0);
    assert_int_equal(col->seat, 2);
    assert_int_equal(col->count, 2);
    assert_int_equal(col->reason, FIG_WHY_TAKE);
    assert_true(take < col);   /* TAKE is reported before its COLLECT */
}

/* ---- R10: end of a round ---- */

static void test_r10_empty_hand_ends_round(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* Seat 0 plays its last card: the round goes on until seat 0's turn
     * comes again, then ends with seat 0 as King. */
    sup_pos_t pos = {
        .players = 4, .king = 2, .turn = 0,
        .hand = { "R1", "B1 B2", "G1 G2", "Y1 Y2" },
        .stack = { 4, 3, 2, 1 },
    };
    BUILD(&st, &pos);
    OK(sup_apply(&st, "0 R1>0", &ev, &msg));
    assert_non_null(EVENT(&ev, FIG_EV_HAND_EMPTY, 0));
    assert_int_equal(EVENT(&ev, FIG_EV_HAND_EMPTY, 0)->seat, 0);
    assert_int_equal(sup_event_count(&ev, FIG_EV_ROUND_END), 0);
    assert_int_equal(st.phase, FIG_PHASE_PLAY);
    assert_int_equal(st.turn, 1);
    OK(sup_apply(&st, "1 B1>1; 2 G1>2", NULL, &msg));
    assert_int_equal(st.phase, FIG_PHASE_PLAY);
    OK(sup_apply(&st, "3 Y1>3", &ev, &msg));
    const fig_event_t *e = EVENT(&ev, FIG_EV_ROUND_END, 0);
    assert_int_equal(e->seat, 0);
    assert_int_equal(e->round, 1);
    /* Face-up cards (4 on the table) and hands are ignored. */
    const uint8_t counts[4] = { 4, 3, 2, 1 };
    assert_memory_equal(e->counts, counts, 4);
    assert_int_equal(st.king, 0);
    assert_int_equal(st.phase, FIG_PHASE_DEAL);
    assert_int_equal(st.round, 2);
    assert_int_equal(fig_state_legal(&st, (fig_action_t[FIG_MAX_ACTIONS]){ 0 }), 0);
}

static void test_r10_collector_without_cards_ends_round(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* Seat 1 has no card left and seat 0 makes seat 1's pile reach 6: seat 1
     * collects, then starts its turn empty, so the round ends at once. */
    sup_pos_t pos = {
        .players = 4, .king = 3, .turn = 0,
        .hand = { "J2 R1", NULL, "G1", "Y1" },
        .pile = { NULL, "B2 B2", NULL, NULL },
        .stack = { 1, 5, 2, 3 },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("J2>1", 0), &ev, &msg));
    assert_int_equal(st.stack[1], 5 + 3);
    const fig_event_t *e = EVENT(&ev, FIG_EV_ROUND_END, 0);
    assert_int_equal(e->seat, 1);
    assert_int_equal(e->counts[1], 8);   /* the collected cards count */
    assert_int_equal(st.king, 1);
    assert_true(EVENT(&ev, FIG_EV_COLLECT, 0) < e);
}

static void test_r10_new_round_king_starts(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* Round 1 ends with seat 3 as King (it ran out); round 2 is dealt in full
     * with empty stacks and table, and seat 3 starts (R4). */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 2,
        .hand = { "R1 R2", "B1", "G1", NULL },
        .pile = { "J1", NULL, NULL, "Y2" },
        .stack = { 9, 9, 9, 9 },
    };
    BUILD(&st, &pos);
    OK(sup_apply(&st, "2 G1>2", NULL, &msg));
    assert_int_equal(st.phase, FIG_PHASE_DEAL);
    assert_int_equal(st.king, 3);
    OK(sup_deal_fill(&st, (const char *const[FIG_MAX_PLAYERS]){ NULL }, &msg));
    assert_int_equal(st.round, 2);
    assert_int_equal(st.phase, FIG_PHASE_PLAY);
    assert_int_equal(st.turn, 3);
    for (int s = 0; s < 4; s++) {
        assert_int_equal(st.stack[s], 0);
        assert_int_equal(st.hand_size[s], 15);
        PILE_IS(&st, s, "");
    }
    assert_int_equal(st.table_cards, 0);
    char why[200];
    assert_true(sup_check_cards(&st, NULL, why, sizeof why));
}

/* ---- R11: handing out road pieces ---- */

static void test_r11_tie_from_king_left(void **cm)
{
    (void)cm;
    int order[FIG_MAX_PLAYERS];
    /* All equal: the King's left first, the King last, for every King. */
    const int same[5] = { 4, 4, 4, 4, 4 };
    for (int king = 0; king < 5; king++) {
        fig_rank_counts(5, king, same, order);
        for (int i = 0; i < 5; i++)
            assert_int_equal(order[i], (king + 1 + i) % 5);
    }
    /* Most first; a tie between 3 and 0 with King 3 puts 0 (King's left)
     * first and the King last among them. */
    const int counts[6] = { 7, 2, 9, 7, 2, 0 };
    fig_rank_counts(6, 3, counts, order);
    const int want[6] = { 2, 0, 3, 4, 1, 5 };
    assert_memory_equal(order, want, sizeof want);
    fig_rank_counts(6, 0, counts, order);
    const int want0[6] = { 2, 3, 0, 1, 4, 5 };
    assert_memory_equal(order, want0, sizeof want0);
}

/* Ends round `round` of a 4-player position: seat 1 plays its only card and
 * seat 2, empty-handed, is next, so seat 2 takes the King (R10). Stacks and
 * held pieces come from the caller. */
static void end_round_at_seat2(fig_state_t *st, int round, const char *roads, const int stack[4],
                               const char *const held[4], fig_events_t *ev)
{
    fig_msg_t msg;
    sup_pos_t pos = {
        .players = 4, .round = round, .king = 0, .turn = 1, .roads = roads,
        .hand = { "R1", "J1", NULL, "B1" },
        .held = { held[0], held[1], held[2], held[3] },
    };
    memcpy(pos.stack, stack, sizeof(int) * 4);
    BUILD(st, &pos);
    OK(fig_state_apply(st, ACT("J1>1", 1), ev, &msg));
    assert_int_equal(st->king, 2);
}

static void test_r11_pieces_by_count_last_gets_none(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    /* All counts differ and none is zero: pieces longest first by count;
     * the fewest (seat 3, count 2) gets none though it has cards. */
    const int stack[4] = { 6, 3, 11, 2 };
    end_round_at_seat2(&st, 1, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ NULL }, &ev);
    assert_int_equal(st.road[2][0], 9);
    assert_int_equal(st.road[0][0], 5);
    assert_int_equal(st.road[1][0], 2);
    assert_int_equal(st.nroad[3], 0);
    const fig_event_t *none = EVENT(&ev, FIG_EV_NO_PIECE, 0);
    assert_int_equal(none->seat, 3);
    assert_int_equal(none->reason, FIG_WHY_LAST);
    assert_int_equal(none->rank, 3);
    assert_int_equal(sup_event_count(&ev, FIG_EV_PIECE), 3);
    for (int i = 0; i < 3; i++) {
        const fig_event_t *e = EVENT(&ev, FIG_EV_PIECE, i);
        static const int seat[3] = { 2, 0, 1 }, len[3] = { 9, 5, 2 }, count[3] = { 11, 6, 3 };
        assert_int_equal(e->seat, seat[i]);
        assert_int_equal(e->rank, i);
        assert_int_equal(e->a, len[i]);
        assert_int_equal(e->count, count[i]);
        assert_int_equal(e->tie, 0);   /* no tie anywhere */
        assert_int_equal(e->round, 1);
    }
    assert_int_equal(st.round, 2);
    assert_int_equal(st.phase, FIG_PHASE_DEAL);
}

static void test_r11_zero_cards_get_no_piece(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    /* Two seats with zero cards: only two pieces go out, the third is unused. */
    const int stack[4] = { 0, 8, 0, 5 };
    end_round_at_seat2(&st, 2, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ NULL }, &ev);
    assert_int_equal(st.nroad[1], 1);
    assert_int_equal(st.road[1][0], 14);
    assert_int_equal(st.nroad[3], 1);
    assert_int_equal(st.road[3][0], 11);
    assert_int_equal(st.nroad[0], 0);
    assert_int_equal(st.nroad[2], 0);
    assert_int_equal(sup_event_count(&ev, FIG_EV_PIECE), 2);
    assert_int_equal(sup_event_count(&ev, FIG_EV_NO_PIECE), 2);
    /* Seat 0 ranks 2nd to last (tie at 0 from the King's left: 3, 0, 1, 2),
     * not last, so its reason can only be its zero count. */
    const fig_event_t *e = EVENT(&ev, FIG_EV_NO_PIECE, 0);
    assert_int_equal(e->seat, 0);
    assert_int_equal(e->rank, 2);
    assert_int_equal(e->reason, FIG_WHY_ZERO);
    assert_int_equal(e->tie, 1);
    e = EVENT(&ev, FIG_EV_NO_PIECE, 1);
    assert_int_equal(e->seat, 2);
    assert_int_equal(e->rank, 3);
}

/* ---- R12: round three's exchange ---- */

static void test_r12_round3_exchange(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    /* Seat 3 has fewest cards; its longest piece (14, received first) is
     * swapped for round 3's shortest (3), in place. */
    const int stack[4] = { 6, 8, 5, 1 };
    end_round_at_seat2(&st, 3, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ "9 11", "5 1", NULL, "14 2" }, &ev);
    const fig_event_t *x = EVENT(&ev, FIG_EV_EXCHANGE, 0);
    assert_int_equal(x->seat, 3);
    assert_int_equal(x->a, 14);
    assert_int_equal(x->b, 3);
    assert_int_equal(x->round, 3);
    /* exchange happens before R11: seat 3 ends with 3, 2 (the new piece
     * where the old one stood, fgn.md) and, last, no more */
    assert_int_equal(st.nroad[3], 2);
    assert_int_equal(st.road[3][0], 3);
    assert_int_equal(st.road[3][1], 2);
    /* group {14, 13, 8} by counts 8 (seat 1), 6 (seat 0), 5 (seat 2) */
    assert_int_equal(st.road[1][2], 14);
    assert_int_equal(st.road[0][2], 13);
    assert_int_equal(st.road[2][0], 8);
    assert_true(EVENT(&ev, FIG_EV_EXCHANGE, 0) < EVENT(&ev, FIG_EV_PIECE, 0));
    assert_int_equal(st.phase, FIG_PHASE_OVER);
}

static void test_r12_no_exchange_unless_longer(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    /* Ruling: seat 3's pieces (2, 1) are all shorter than 3: no exchange. */
    const int stack[4] = { 6, 8, 5, 1 };
    end_round_at_seat2(&st, 3, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ "9 14", "5 11", NULL, "2 1" }, &ev);
    assert_int_equal(sup_event_count(&ev, FIG_EV_EXCHANGE), 0);
    assert_int_equal(st.road[3][0], 2);
    assert_int_equal(st.road[3][1], 1);
    assert_int_equal(st.road[1][2], 13);   /* the group went out unchanged */
    assert_int_equal(st.road[0][2], 8);
    assert_int_equal(st.road[2][0], 3);
}

static void test_r12_no_exchange_without_piece(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    /* Ruling: the fewest-cards seat holds no piece: nothing to exchange, even
     * though another seat with a long piece has only one card more. */
    const int stack[4] = { 6, 8, 2, 1 };
    end_round_at_seat2(&st, 3, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ "9 1", "5 11", "2 14", NULL }, &ev);
    assert_int_equal(sup_event_count(&ev, FIG_EV_EXCHANGE), 0);
    assert_int_equal(st.road[2][1], 14);
    assert_int_equal(st.road[2][2], 3);   /* the group went out unchanged */
}

static void test_r12_exchange_tie_king_first(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    /* Seats 1 and 2 tie for fewest; seat 2 is the new King: it exchanges. */
    const int stack[4] = { 6, 1, 1, 7 };
    end_round_at_seat2(&st, 3, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ "2", "9 14", "5 11", "1" }, &ev);
    const fig_event_t *x = EVENT(&ev, FIG_EV_EXCHANGE, 0);
    assert_int_equal(x->seat, 2);
    assert_int_equal(x->a, 11);
    /* Seats 0 and 1 tie, King 2: clockwise from the King, seat 0 comes first. */
    const int stack2[4] = { 1, 1, 6, 7 };
    end_round_at_seat2(&st, 3, "9 5 2 / 14 11 1 / 13 8 3", stack2,
                       (const char *const[4]){ "5 11", "9 14", "2", "1" }, &ev);
    x = EVENT(&ev, FIG_EV_EXCHANGE, 0);
    assert_int_equal(x->seat, 0);
    assert_int_equal(x->a, 11);
    assert_int_equal(st.road[0][1], 3);
    /* R11 then ranks the tie from the King's left (3, 0, 1, 2): seat 0 is
     * third, not last, so the exchanger still gets the group's third piece,
     * 8 of {13, 11, 8}; seat 1 gets nothing. */
    assert_int_equal(st.nroad[0], 3);
    assert_int_equal(st.road[0][2], 8);
    assert_int_equal(st.nroad[1], 2);
}

static void test_r12_only_in_round_three(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    const int stack[4] = { 6, 8, 5, 1 };
    end_round_at_seat2(&st, 2, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ "9", "5", NULL, "14" }, &ev);
    assert_int_equal(sup_event_count(&ev, FIG_EV_EXCHANGE), 0);
    assert_int_equal(st.road[3][0], 14);
}

/* ---- R13: end of the game ---- */

static void test_r13_shortest_road_wins_ties_from_king(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* Totals 10, 7, 10, 7 with King 2: the 7s first, from the King clockwise
     * (3 before 1), then the 10s (King 2 before 0). */
    sup_pos_t pos = {
        .players = 4, .round = 3, .king = 2, .turn = 0,
        .hand = { "R1", "R2", "R3", "B1" },
        .held = { "9 1", "7", "6 4", "5 2" },
    };
    BUILD(&st, &pos);
    int ranking[FIG_MAX_PLAYERS];
    fig_state_ranking(&st, ranking);
    const int want[4] = { 3, 1, 2, 0 };
    assert_memory_equal(ranking, want, sizeof want);
    assert_int_equal(fig_state_road(&st, 0), 10);
    assert_int_equal(fig_state_road(&st, 3), 7);
    st.king = 0;   /* with the King at 0, seat 0 wins the tie at 10 */
    fig_state_ranking(&st, ranking);
    const int want0[4] = { 1, 3, 0, 2 };
    assert_memory_equal(ranking, want0, sizeof want0);
}

static void test_r13_game_over_event(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    fig_msg_t msg;
    /* Round 3 ends at seat 2 (the new King); counts 4, 3, 2, 1 give 13, 8,
     * 3 to seats 0, 1, 2 (no exchange: seat 3 holds nothing). */
    const int stack[4] = { 4, 3, 2, 1 };
    end_round_at_seat2(&st, 3, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ "1", "9 2", "5 11", NULL }, &ev);
    /* totals: 14, 19, 19, 0 -> 3 (0), 0 (14), then 19s from King 2: 2, 1 */
    const fig_event_t *e = EVENT(&ev, FIG_EV_GAME_OVER, 0);
    const uint8_t ranking[4] = { 3, 0, 2, 1 };
    assert_memory_equal(e->counts, ranking, 4);
    assert_int_equal(e->seat, 3);
    assert_int_equal(e->totals[0], 14);
    assert_int_equal(e->totals[1], 19);
    assert_int_equal(e->totals[2], 19);
    assert_int_equal(e->totals[3], 0);
    assert_true(EVENT(&ev, FIG_EV_PIECE, 2) < e);   /* after the last pieces */
    assert_int_equal(st.phase, FIG_PHASE_OVER);
    /* Nothing more may happen. */
    fig_action_t moves[FIG_MAX_ACTIONS];
    assert_int_equal(fig_state_legal(&st, moves), 0);
    REFUSED_STATE(&st, ACT("R1>0", 0), "the game is over");
    fig_hand_t hands[FIG_MAX_PLAYERS];
    memset(hands, 0, sizeof hands);
    assert_int_equal(fig_state_deal_hands(&st, hands, &msg), FIG_ERR_STATE);
    assert_string_equal(msg.text, "the game is over: there is no round to deal");
}

/* ---- R14: what each player knows ---- */

static void test_r14_view_hides_other_hands(void **cm)
{
    (void)cm;
    fig_state_t a, b;
    fig_msg_t msg;
    /* Two deals that differ only between seats 1 and 2 (an R1 and a B1
     * swap): seat 0 and seat 3 cannot tell them apart; seats 1 and 2 can. */
    const char *const hands_a[4] = {
        "R2 R2 R2 R2 R2 R2 R3 B2 B2 B2 B2 B2 B2 B3 J1",
        "R1 R1 R1 G1 G1 G1 G2 G2 G2 G2 G2 G2 G3 J1 RING",
        "B1 B1 B1 Y1 Y1 Y1 Y2 Y2 Y2 Y2 Y2 Y2 Y3 J1 RING",
        "P1 P1 P1 P2 P2 P2 P2 P2 P2 P3 J2 J2 RING RING RING",
    };
    const char *const hands_b[4] = {
        hands_a[0],
        "R1 R1 B1 G1 G1 G1 G2 G2 G2 G2 G2 G2 G3 J1 RING",
        "R1 B1 B1 Y1 Y1 Y1 Y2 Y2 Y2 Y2 Y2 Y2 Y3 J1 RING",
        hands_a[3],
    };
    fig_setup_t setup;
    OK(sup_setup(&setup, 4, 0, FIG_NO_COLOUR, NULL, &msg));
    fig_state_init(&a, &setup);
    fig_state_init(&b, &setup);
    OK(sup_deal(&a, hands_a, &msg));
    OK(sup_deal(&b, hands_b, &msg));
    /* the same public actions in both */
    OK(sup_apply(&a, "0 R2>0; 1 G1>1; 2 Y1>2; 3 RING", NULL, &msg));
    OK(sup_apply(&b, "0 R2>0; 1 G1>1; 2 Y1>2; 3 RING", NULL, &msg));
    fig_view_t va, vb;
    for (int seat = 0; seat < 4; seat++) {
        fig_view_of(&a, seat, &va);
        fig_view_of(&b, seat, &vb);
        int hidden = seat == 0 || seat == 3;
        assert_int_equal(fig_view_equal(&va, &vb), hidden);
        assert_memory_equal(&va.hand, &a.hand[seat], sizeof va.hand);   /* own hand shown */
    }
    /* The view's public part: hand sizes, piles, cards seen and unseen. */
    fig_view_of(&a, 0, &va);
    assert_int_equal(va.seat, 0);
    assert_int_equal(va.turn, 0);
    assert_int_equal(va.hand_size[1], 14);
    assert_memory_equal(va.pile, a.pile, sizeof va.pile);
    fig_hand_t seen;
    assert_int_equal(sup_hand_parse("R2 G1 Y1 RING", &seen), 4);
    assert_memory_equal(&va.seen, &seen, sizeof seen);
    fig_hand_t unseen;
    memset(&unseen, 0, sizeof unseen);
    for (int s = 1; s < 4; s++)
        for (int k = 0; k < FIG_KINDS; k++)
            unseen.n[k] = (uint8_t)(unseen.n[k] + a.hand[s].n[k]);
    assert_memory_equal(&va.unseen, &unseen, sizeof unseen);
}

static void test_r14_view_sample_keeps_view(void **cm)
{
    (void)cm;
    fig_state_t st, out;
    fig_msg_t msg;
    fig_rng_t rng;
    START(&st, 5, 1, NULL, "R1 J1", "B2");
    OK(sup_apply(&st, "1 R1>1; 2 B2>4; 3 take", NULL, &msg));
    fig_rng_seed(&rng, 5);
    int differs = 0;
    for (int i = 0; i < 50; i++) {
        fig_view_t v, w;
        int seat = i % 5;
        fig_view_of(&st, seat, &v);
        fig_view_sample(&v, &rng, &out);
        fig_view_of(&out, seat, &w);
        assert_true(fig_view_equal(&v, &w));
        char why[200];
        if (!sup_check_state(&out, why, sizeof why))
            fail_msg("sample %d: %s", i, why);
        if (!sup_check_cards(&out, NULL, why, sizeof why))
            fail_msg("sample %d: %s", i, why);
        differs |= memcmp(out.hand, st.hand, sizeof st.hand) != 0;
    }
    assert_true(differs);   /* the hidden hands really are re-dealt */
}

/* ---- worked examples of rules.md ---- */

static void test_example_r6_r8_jester_makes_six(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* 4 players. Seat 1's pile: R2 R2. Seat 0 plays J2 in front of seat 1 ->
     * total 6 -> seat 1 collects every face-up card; seat 1 plays next. */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 0,
        .hand = { "J2 G1", "B1", "Y1", "P1" },
        .pile = { NULL, "R2 R2", "J1", NULL },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("J2>1", 0), &ev, &msg));
    assert_int_equal(st.stack[1], 4);   /* R2 R2 J2 and seat 2's J1 */
    assert_int_equal(st.table_cards, 0);
    assert_int_equal(st.turn, 1);
    const fig_event_t *e = EVENT(&ev, FIG_EV_COLLECT, 0);
    assert_int_equal(e->seat, 1);
    assert_int_equal(e->count, 4);
    assert_int_equal(e->reason, FIG_WHY_SIX);
}

static void test_example_r6_blue_elsewhere(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    /* Seat 2's pile is J1; seat 3's pile is B1. B2 may not go in front of
     * seat 2; G2 may; any jester may. Reached by play: 0 J1>2, 1 B1>3. */
    START(&st, 4, 0, "J1", "B1", "B2 G2 J1 J2");
    OK(sup_apply(&st, "0 J1>2; 1 B1>3", NULL, &msg));
    PILE_IS(&st, 2, "J1");
    PILE_IS(&st, 3, "B1");
    REFUSED(&st, ACT("B2>2", 2), "seat 2 cannot play B2 in front of seat 2: seat 3 already has "
            "blue");
    REFUSED(&st, ACT("B2>0", 2), "seat 2 cannot play B2 in front of seat 0: seat 3 already has "
            "blue");
    assert_true(is_legal(&st, ACT("B2>3", 2)));
    assert_true(is_legal(&st, ACT("G2>2", 2)));
    for (int t = 0; t < 4; t++) {
        assert_true(is_legal(&st, fig_act_play(FIG_J1, t)));
        assert_true(is_legal(&st, fig_act_play(FIG_J2, t)));
    }
    OK(sup_apply(&st, "2 G2>2", NULL, &msg));
    PILE_IS(&st, 2, "G2 J1");
    assert_int_equal(st.pile[2].colour, FIG_GREEN);
}

static void test_example_r7_ring(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* 4 players, piles [R1] [] [G2] [J1]; seat 1 plays a ring -> piles
     * [J1] [R1] [RING] [G2]. Reached by play with the King at seat 2. */
    START(&st, 4, 2, "R1", "RING", "G2", "J1");
    OK(sup_apply(&st, "2 G2>2; 3 J1>3; 0 R1>0", NULL, &msg));
    PILE_IS(&st, 0, "R1");
    PILE_IS(&st, 1, "");
    PILE_IS(&st, 2, "G2");
    PILE_IS(&st, 3, "J1");
    OK(sup_apply(&st, "1 RING", &ev, &msg));
    PILE_IS(&st, 0, "J1");
    PILE_IS(&st, 1, "R1");
    PILE_IS(&st, 2, "RING");
    PILE_IS(&st, 3, "G2");
    assert_int_equal(st.owner[FIG_RED], 1);
    assert_int_equal(st.owner[FIG_GREEN], 3);
    assert_int_equal(st.colourless & 0xFu, (1u << 0) | (1u << 2));
    assert_int_equal(st.turn, 2);
    assert_int_equal(st.table_cards, 4);
    const fig_event_t *e = EVENT(&ev, FIG_EV_RING, 0);
    assert_int_equal(e->seat, 1);
    e = EVENT(&ev, FIG_EV_PLAY, 0);
    assert_int_equal(e->kind, FIG_RING);
    assert_int_equal(e->target, 1);
    /* Red moved with its pile: seat 2's red cards now go only to seat 1. */
    fig_action_t moves[FIG_MAX_ACTIONS];
    int n = fig_state_legal(&st, moves), reds = 0;
    for (int i = 0; i < n; i++)
        if (!fig_act_is_take(moves[i]) && fig_kind_colour(fig_act_kind(moves[i])) == FIG_RED) {
            assert_int_equal(fig_act_target(moves[i]), 1);
            reds++;
        }
    assert_true(reds > 0);   /* the filler deals seat 2 some red */
    REFUSED(&st, fig_act_play(FIG_J1, 7),
            "seat 2 cannot play J1 in front of seat 7: the seats are 0 to 3");
}

static void test_example_r10_collector_out_of_cards(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    /* Seat 3 plays its last card in front of itself and reaches 6 -> seat 3
     * collects, starts its next turn with no cards -> the round ends and
     * seat 3 takes the King. */
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 3,
        .hand = { "B1", "G1", "Y1", "R3" },
        .pile = { "J1", NULL, NULL, "R2 J1" },
        .stack = { 2, 0, 1, 3 },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("R3>3", 3), &ev, &msg));
    assert_int_equal(EVENT(&ev, FIG_EV_HAND_EMPTY, 0)->seat, 3);
    const fig_event_t *c = EVENT(&ev, FIG_EV_COLLECT, 0);
    assert_int_equal(c->seat, 3);
    assert_int_equal(c->count, 4);
    const fig_event_t *e = EVENT(&ev, FIG_EV_ROUND_END, 0);
    assert_int_equal(e->seat, 3);
    assert_int_equal(e->counts[3], 7);
    assert_int_equal(st.king, 3);
    assert_int_equal(st.phase, FIG_PHASE_DEAL);
}

static void test_example_r11_tie_from_king_left(void **cm)
{
    (void)cm;
    int order[FIG_MAX_PLAYERS];
    /* 4 players, new King seat 2, counts [5, 9, 5, 0] -> 1, 0, 2, 3. */
    const int counts[4] = { 5, 9, 5, 0 };
    fig_rank_counts(4, 2, counts, order);
    const int want[4] = { 1, 0, 2, 3 };
    assert_memory_equal(order, want, sizeof want);

    /* In play: pieces [9, 5, 2] -> seat 1: 9, seat 0: 5, seat 2: 2, seat 3
     * none. */
    fig_state_t st;
    fig_events_t ev;
    const int stack[4] = { 5, 9, 5, 0 };
    end_round_at_seat2(&st, 1, "9 5 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ NULL }, &ev);
    assert_int_equal(st.road[1][0], 9);
    assert_int_equal(st.road[0][0], 5);
    assert_int_equal(st.road[2][0], 2);
    assert_int_equal(st.nroad[3], 0);
    const fig_event_t *e = EVENT(&ev, FIG_EV_ROUND_END, 0);
    const uint8_t counts8[4] = { 5, 9, 5, 0 };
    assert_memory_equal(e->counts, counts8, 4);
    /* ranks and tie flags: seats 0 and 2 were ordered by the tie-break */
    static const int seat[3] = { 1, 0, 2 }, tie[3] = { 0, 1, 1 };
    for (int i = 0; i < 3; i++) {
        e = EVENT(&ev, FIG_EV_PIECE, i);
        assert_int_equal(e->seat, seat[i]);
        assert_int_equal(e->rank, i);
        assert_int_equal(!!e->tie, tie[i]);
    }
    e = EVENT(&ev, FIG_EV_NO_PIECE, 0);
    assert_int_equal(e->seat, 3);
    assert_int_equal(e->rank, 3);
    /* last and zero: either reason is true */
    assert_true(e->reason == FIG_WHY_ZERO || e->reason == FIG_WHY_LAST);
}

static void test_example_r11_zero_cards_five_players(void **cm)
{
    (void)cm;
    /* 5 players, counts [12, 0, 7, 0, 3]: seats 0, 2, 4 get the 1st, 2nd
     * and 3rd longest; seats 1, 3 nothing; the 4th piece is unused. Whatever
     * the King, since no non-zero counts tie. */
    for (int king = 0; king < 5; king++) {
        fig_state_t st;
        fig_msg_t msg;
        /* The seat before `ender` plays; `ender`, empty-handed, is next and
         * becomes the King (R10). */
        int ender = king, player = (king + 4) % 5;
        sup_pos_t pos = {
            .players = 5, .king = 0, .turn = player,
            .roads = "10 7 4 2 / 15 14 13 12 / 11 9 8 6",
            .stack = { 12, 0, 7, 0, 3 },
        };
        const char *hands[5] = { "R1 R2", "B1 B2", "G1 G2", "Y1 Y2", "P1 P2" };
        for (int s = 0; s < 5; s++)
            pos.hand[s] = s == ender ? NULL : hands[s];
        BUILD(&st, &pos);
        /* seat s holds colour s: its 1 goes in front of itself */
        OK(fig_state_apply(&st, fig_act_play(player * 3, player), NULL, &msg));
        assert_int_equal(st.king, ender);
        assert_int_equal(st.nroad[0], 1);
        assert_int_equal(st.road[0][0], 10);
        assert_int_equal(st.nroad[2], 1);
        assert_int_equal(st.road[2][0], 7);
        assert_int_equal(st.nroad[4], 1);
        assert_int_equal(st.road[4][0], 4);
        assert_int_equal(st.nroad[1], 0);
        assert_int_equal(st.nroad[3], 0);
    }
}

static void test_example_r12_exchange(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_events_t ev;
    /* Round 3, fewest cards: seat 2 with pieces {11, 4}; round-3 group
     * {13, 8, 3} -> seat 2 gives 11, takes 3 -> group {13, 11, 8} handed out
     * by R11. Seat 2 received 4 in round 1 and 11 in round 2. */
    const int stack[4] = { 6, 8, 1, 4 };
    end_round_at_seat2(&st, 3, "9 4 2 / 14 11 1 / 13 8 3", stack,
                       (const char *const[4]){ "9 14", "2 1", "4 11", NULL }, &ev);
    const fig_event_t *x = EVENT(&ev, FIG_EV_EXCHANGE, 0);
    assert_int_equal(x->seat, 2);
    assert_int_equal(x->a, 11);
    assert_int_equal(x->b, 3);
    assert_int_equal(st.road[2][0], 4);
    assert_int_equal(st.road[2][1], 3);   /* replaced where it stood (fgn.md) */
    assert_int_equal(st.nroad[2], 2);     /* seat 2, last, gets no piece */
    const uint16_t group[3] = { 13, 11, 8 };
    assert_memory_equal(st.group[2], group, sizeof group);
    /* R11 on {13, 11, 8}: seat 1 (8 cards) 13, seat 0 (6) 11, seat 3 (4) 8 */
    assert_int_equal(st.road[1][2], 13);
    assert_int_equal(st.road[0][2], 11);
    assert_int_equal(st.road[3][0], 8);
    /* R13: totals 34, 16, 7, 8 -> ranking 2, 3, 1, 0 */
    const fig_event_t *e = EVENT(&ev, FIG_EV_GAME_OVER, 0);
    const uint8_t ranking[4] = { 2, 3, 1, 0 };
    assert_memory_equal(e->counts, ranking, 4);
    assert_int_equal(e->totals[0], 34);
    assert_int_equal(e->totals[2], 7);
}

/* ---- events and refusals not tied to one rule ---- */

static void test_events_play_last_card_hand_empty(void **cm)
{
    (void)cm;
    fig_state_t st;
    fig_msg_t msg;
    fig_events_t ev;
    sup_pos_t pos = {
        .players = 4, .king = 0, .turn = 0,
        .hand = { "R1 B1 J2", "Y1 Y2 Y2", "P1 P2 P2", "J1 J1 J2" },
    };
    BUILD(&st, &pos);
    OK(fig_state_apply(&st, ACT("R1>2", 0), &ev, &msg));
    assert_int_equal(ev.n, 1);   /* 3 -> 2 cards: just the play */
    const fig_event_t *e = EVENT(&ev, FIG_EV_PLAY, 0);
    assert_int_equal(e->seat, 0);
    assert_int_equal(e->target, 2);
    assert_int_equal(e->kind, FIG_R1);
    OK(sup_apply(&st, "1 Y1>1; 2 P1>3; 3 J1>3", NULL, &msg));
    OK(fig_state_apply(&st, ACT("B1>0", 0), &ev, &msg));
    assert_int_equal(EVENT(&ev, FIG_EV_LAST_CARD, 0)->seat, 0);
    assert_int_equal(sup_event_count(&ev, FIG_EV_HAND_EMPTY), 0);
    OK(sup_apply(&st, "1 Y2>1; 2 P2>3; 3 J1>1", NULL, &msg));
    OK(fig_state_apply(&st, ACT("J2>0", 0), &ev, &msg));
    assert_int_equal(EVENT(&ev, FIG_EV_HAND_EMPTY, 0)->seat, 0);
    assert_int_equal(st.phase, FIG_PHASE_PLAY);   /* ends only when its turn comes (R10) */
    assert_int_equal(sup_event_count(&ev, FIG_EV_LAST_CARD), 0);
}

static void test_refused_outside_play(void **cm)
{
    (void)cm;
    fig_setup_t setup;
    fig_state_t st;
    fig_msg_t msg;
    OK(sup_setup(&setup, 4, 0, FIG_NO_COLOUR, NULL, &msg));
    fig_state_init(&st, &setup);
    REFUSED_STATE(&st, ACT("R1>0", 0), "round 1 has not been dealt yet");
    REFUSED_STATE(&st, FIG_ACT_TAKE, "round 1 has not been dealt yet");
    fig_action_t moves[FIG_MAX_ACTIONS];
    assert_int_equal(fig_state_legal(&st, moves), 0);
}

static void test_refused_malformed_actions(void **cm)
{
    (void)cm;
    fig_state_t st;
    START(&st, 4, 0, "R1");
    REFUSED(&st, FIG_ACT_NONE, "not an action");
    REFUSED(&st, (fig_action_t)(FIG_KINDS + 1), "not an action");
    REFUSED(&st, fig_act_play(FIG_R1, 4), "seat 0 cannot play R1 in front of seat 4: the seats "
            "are 0 to 3");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r1_deck_has_60_cards),
        cmocka_unit_test(test_r1_card_values_and_colours),
        cmocka_unit_test(test_r1_card_codes_round_trip),
        cmocka_unit_test(test_r1_default_roads_are_1_to_15),
        cmocka_unit_test(test_r1_any_distinct_road_lengths),
        cmocka_unit_test(test_r2_three_players_remove_colour_jesters_rings),
        cmocka_unit_test(test_r2_removed_colour_stays_out_every_round),
        cmocka_unit_test(test_r2_deal_refuses_removed_colour),
        cmocka_unit_test(test_r2_setup_removed_colour),
        cmocka_unit_test(test_r3_setup_draws_groups_longest_first),
        cmocka_unit_test(test_r3_setup_check_sorts_and_checks),
        cmocka_unit_test(test_r3_king_holder_starts),
        cmocka_unit_test(test_r4_deal_even_king_starts),
        cmocka_unit_test(test_r4_deal_is_shuffled),
        cmocka_unit_test(test_r4_deal_hands_refuses_bad_deals),
        cmocka_unit_test(test_r5_take_requires_face_up_card),
        cmocka_unit_test(test_r5_take_allowed_when_play_possible),
        cmocka_unit_test(test_r5_must_take_when_no_play),
        cmocka_unit_test(test_r5_empty_table_always_has_a_play),
        cmocka_unit_test(test_r5_play_requires_card_in_hand),
        cmocka_unit_test(test_r6_legal_actions_exact),
        cmocka_unit_test(test_r6_colour_unique_across_piles),
        cmocka_unit_test(test_r6_colour_on_colourless_pile),
        cmocka_unit_test(test_r6_jester_matches_every_colour),
        cmocka_unit_test(test_r6_jester_in_front_of_sixth_player),
        cmocka_unit_test(test_r7_ring_rotates_left),
        cmocka_unit_test(test_r7_ring_only_in_front_of_oneself),
        cmocka_unit_test(test_r7_ring_never_makes_six),
        cmocka_unit_test(test_r7_ring_wraps_round_the_table),
        cmocka_unit_test(test_r8_six_or_more_collects),
        cmocka_unit_test(test_r8_exactly_six_collects_five_does_not),
        cmocka_unit_test(test_r9_next_is_clockwise),
        cmocka_unit_test(test_r9_collector_plays_next),
        cmocka_unit_test(test_r9_taker_acts_again),
        cmocka_unit_test(test_r10_empty_hand_ends_round),
        cmocka_unit_test(test_r10_collector_without_cards_ends_round),
        cmocka_unit_test(test_r10_new_round_king_starts),
        cmocka_unit_test(test_r11_tie_from_king_left),
        cmocka_unit_test(test_r11_pieces_by_count_last_gets_none),
        cmocka_unit_test(test_r11_zero_cards_get_no_piece),
        cmocka_unit_test(test_r12_round3_exchange),
        cmocka_unit_test(test_r12_no_exchange_unless_longer),
        cmocka_unit_test(test_r12_no_exchange_without_piece),
        cmocka_unit_test(test_r12_exchange_tie_king_first),
        cmocka_unit_test(test_r12_only_in_round_three),
        cmocka_unit_test(test_r13_shortest_road_wins_ties_from_king),
        cmocka_unit_test(test_r13_game_over_event),
        cmocka_unit_test(test_r14_view_hides_other_hands),
        cmocka_unit_test(test_r14_view_sample_keeps_view),
        cmocka_unit_test(test_example_r6_r8_jester_makes_six),
        cmocka_unit_test(test_example_r6_blue_elsewhere),
        cmocka_unit_test(test_example_r7_ring),
        cmocka_unit_test(test_example_r10_collector_out_of_cards),
        cmocka_unit_test(test_example_r11_tie_from_king_left),
        cmocka_unit_test(test_example_r11_zero_cards_five_players),
        cmocka_unit_test(test_example_r12_exchange),
        cmocka_unit_test(test_events_play_last_card_hand_empty),
        cmocka_unit_test(test_refused_outside_play),
        cmocka_unit_test(test_refused_malformed_actions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
