/* SPDX-License-Identifier: MIT */
/* test_service_send.c - the leak test: what the service and its tables
 * send (src/net/service/service_state.h, table_tell.c), each frame built from a
 * seat's view (R14). Every frame to every connection during whole
 * games (seats, a spectator, reconnections, a rematch) is checked: a hand
 * only in its owner's view and within its owner's deal, legal actions (and
 * why a card cannot be played, naming the seat's own cards only) only to
 * the seat to move, no token to anyone but its owner, no person's key
 * to anyone but that person's connections (nor in a log line), narration
 * naming only cards the event made public, stack counts and others' roads
 * only as R14 and the table's `open` option allow; a snapshot's story
 * names only cards its history made public. Over the recording wire
 * (service_harness.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "service_harness.h"

typedef struct {
    fig_game_t games[8];     /* each game's record, from the server once over */
    int ngames;
    const char *tokens[MAXC];   /* each connection's seat token, if any */
    const char *keys[MAXC];     /* the key of the person signed in on each, if any */
} truth_t;

static bool sub_hand(const json_t *cards, const fig_hand_t *deal)
{
    fig_hand_t h;
    memset(&h, 0, sizeof h);
    for (size_t i = 0; i < json_array_size(cards); i++) {
        const char *code = json_string_value(json_array_get(cards, i));
        int k = code ? fig_kind_parse(code, strlen(code)) : -1;
        if (k < 0)
            return false;
        h.n[k]++;
    }
    for (int k = 0; k < FIG_KINDS; k++)
        if (h.n[k] > deal->n[k])
            return false;
    return true;
}

/* Card codes in a sentence that stand alone (not inside a word). */
static void check_say(const json_t *msg, const char *sentence)
{
    static const char *const codes[] = { "R1", "R2", "R3", "B1", "B2", "B3", "G1", "G2", "G3",
                                         "Y1", "Y2", "Y3", "P1", "P2", "P3", "J1", "J2", "RING" };
    const json_t *events = json_object_get(msg, "events");
    char action[16] = "";
    snprintf(action, sizeof action, "%s", str(msg, "action"));
    for (size_t c = 0; c < sizeof codes / sizeof codes[0]; c++) {
        size_t len = strlen(codes[c]);
        for (const char *p = strstr(sentence, codes[c]); p; p = strstr(p + 1, codes[c])) {
            bool alone = (p == sentence || !isalnum((unsigned char)p[-1])) &&
                         !isalnum((unsigned char)p[len]);
            if (!alone)
                continue;
            bool public_card = strncmp(action, codes[c], len) == 0;
            for (size_t i = 0; i < json_array_size(events); i++)
                public_card |= strcmp(str(json_array_get(events, i), "card"), codes[c]) == 0;
            if (!public_card)
                fail_msg("narration names %s, which this event did not show: \"%s\"", codes[c],
                         sentence);
        }
    }
}

/* A snapshot's story names a card only once an action of its history played
 * it (the history is public, R14): never a card still in someone's hand. */
static void check_story(const json_t *snap)
{
    json_t *fake = json_object();   /* an "event" whose public cards are the history's */
    json_t *events = json_array();
    const json_t *hist = json_object_get(snap, "history");
    for (size_t r = 0; r < json_array_size(hist); r++) {
        const json_t *round = json_array_get(hist, r);
        for (size_t i = 0; i < json_array_size(round); i++) {
            char card[8];
            snprintf(card, sizeof card, "%s", str(json_array_get(round, i), "action"));
            char *gt = strchr(card, '>');
            if (gt)
                *gt = '\0';
            json_t *e = json_object();
            json_object_set_new(e, "card", json_string(card));
            json_array_append_new(events, e);
        }
    }
    json_object_set_new(fake, "events", events);
    const json_t *log = json_object_get(snap, "log");
    if (!json_is_array(log))
        fail_msg("a snapshot without its story");
    for (size_t i = 0; i < json_array_size(log); i++) {
        const json_t *say = json_object_get(json_array_get(log, i), "say");
        for (size_t k = 0; k < json_array_size(say); k++)
            check_say(fake, json_string_value(json_array_get(say, k)));
    }
    json_decref(fake);
}

/* Every view in j (objects with "hand_sizes") as R14 allows for `seat` (-1:
 * spectator) in game `game`. Returns the number of hands seen. */
static int check_views(const json_t *j, int seat, int game, bool open, const truth_t *tr)
{
    int hands = 0;
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++)
            hands += check_views(json_array_get(j, i), seat, game, open, tr);
        return hands;
    }
    if (!json_is_object(j))
        return 0;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)j, k, v) {
        if (strcmp(k, "hand") == 0 || strcmp(k, "legal") == 0 || strcmp(k, "reasons") == 0) {
            if (seat < 0)
                fail_msg("a spectator's frame holds \"%s\"", k);
            if (!json_object_get(j, "hand_sizes") || num(j, "seat") != seat)
                fail_msg("\"%s\" outside the own view of seat %d", k, seat);
        }
        if (strcmp(k, "hands") == 0 || strcmp(k, "deal") == 0)
            fail_msg("a frame holds \"%s\"", k);
        hands += check_views(v, seat, game, open, tr);
    }
    if (!json_object_get(j, "hand_sizes"))
        return hands;
    /* a view */
    bool over = strcmp(str(j, "phase"), "over") == 0;
    if (!open && !over && json_object_get(j, "stacks"))
        fail_msg("stack counts shown during play (R14)");
    const json_t *roads = json_object_get(j, "roads");
    for (size_t s = 0; s < json_array_size(roads); s++)
        if (!open && !over && (int)s != seat && !json_is_null(json_array_get(roads, s)))
            fail_msg("seat %zu's road lengths shown to seat %d during play (R14)", s, seat);
    const json_t *hand = json_object_get(j, "hand");
    if (hand) {
        /* Between rounds (phase deal) the round is the next one and the hands
         * hold what was left of the last deal. */
        int round = (int)num(j, "round") - (strcmp(str(j, "phase"), "deal") == 0);
        assert_true(game >= 1 && game <= tr->ngames);
        const fig_game_t *g = &tr->games[game - 1];
        if (round >= 1 && json_array_size(hand) > 0 &&
            !sub_hand(hand, &g->hands[round - 1][seat]))
            fail_msg("seat %d was shown cards that are not in its deal of round %d of game %d: %s",
                     seat, round, game, json_dumps(j, JSON_COMPACT));
        assert_int_equal((long long)json_array_size(hand),
                         json_integer_value(json_array_get(json_object_get(j, "hand_sizes"),
                                                           (size_t)seat)));
        if (num(j, "turn") != seat && json_object_get(j, "legal"))
            fail_msg("legal actions shown to seat %d out of its turn", seat);
        const json_t *reasons = json_object_get(j, "reasons");
        if (reasons && num(j, "turn") != seat)
            fail_msg("reasons shown to seat %d out of its turn", seat);
        const char *card;
        json_t *why;
        json_object_foreach((json_t *)reasons, card, why) {
            bool held = false;
            for (size_t i = 0; i < json_array_size(hand); i++)
                held |= strcmp(json_string_value(json_array_get(hand, i)), card) == 0;
            if (!held)
                fail_msg("seat %d was told why %s, not in its hand, cannot be played", seat, card);
        }
        hands++;
    }
    return hands;
}

/* Goes through every frame of connection `id` in order. Returns the hands
 * seen. */
static int check_connection(const world_t *w, int id, bool open, const truth_t *tr)
{
    const rconn_t *r = &w->wire.c[id];
    int seat = -1, game = 0, hands = 0;
    for (int i = 0; i < r->n; i++) {
        const char *text = r->f[i];
        if (strstr(text, "\nhand ") || strstr(text, "figaro 1"))
            fail_msg("an FGN record in a frame: %s", text);
        for (int c = 0; c < w->wire.nconn; c++)
            if (c != id && tr->tokens[c] && tr->tokens[c][0] && strstr(text, tr->tokens[c]) &&
                !(tr->tokens[id] && strcmp(tr->tokens[id], tr->tokens[c]) == 0))
                fail_msg("connection %d saw connection %d's token", id, c);
        for (int c = 0; c < w->wire.nconn; c++)
            if (c != id && tr->keys[c] && strstr(text, tr->keys[c]) &&
                !(tr->keys[id] && strcmp(tr->keys[id], tr->keys[c]) == 0))
                fail_msg("connection %d saw the key of connection %d's person", id, c);
        json_t *o = json_loads(text, 0, NULL);
        assert_non_null(o);
        const char *type = str(o, "type");
        if (!strcmp(type, "seated"))
            seat = (int)num(o, "seat");
        if (!strcmp(type, "unseated") || !strcmp(type, "left"))
            seat = -1;
        if (json_object_get(o, "game"))
            game = (int)num(o, "game");
        hands += check_views(o, seat, game, open, tr);
        if (!strcmp(type, "snapshot"))
            check_story(o);
        const json_t *say = json_object_get(o, "say");
        for (size_t k = 0; k < json_array_size(say); k++)
            check_say(o, json_string_value(json_array_get(say, k)));
        json_decref(o);
    }
    return hands;
}

static void test_no_leak(void **state)
{
    (void)state;
    for (int open = 0; open < 2; open++) {
        world_t *w = world_new(30000);
        client_t ann, bob, eve, bob2;
        cl_arrive(&ann, w, "10.0.0.1", "en", "Ann");
        cl_arrive(&bob, w, "10.0.0.2", "fr", "Bob");
        cl_arrive(&eve, w, "10.0.0.3", "nl", "Eve");
        /* Ann and Bob are signed in: no frame to anyone else holds their keys. */
        char ann_key[33], bob_key[33], ann_id[11], bob_id[11];
        sign_up(&ann, "Ann", ann_key, ann_id);
        sign_up(&bob, "Bob", bob_key, bob_id);
        create_table(&ann, SEAT_PERSON "," SEAT_BOT("easy") "," SEAT_PERSON ","
                           SEAT_BOT("random"), open ? ",\"open\":true" : NULL);
        cl_send(&eve, "{\"type\":\"spectate\",\"table\":\"%s\"}", ann.table);
        join(&ann, ann.table, "Ann");
        join(&bob, ann.table, "Bob");
        fig_rng_t rng;
        fig_rng_seed(&rng, 100 + (uint64_t)open);
        client_t *both[] = { &ann, &bob };
        int want[2] = { 25, -1 };
        play(w, both, 2, &rng, after_moves, want);
        /* Bob reconnects mid-game (snapshot), Eve chats, then a whole game. */
        char token[40];
        strcpy(token, bob.token);
        cl_close(&bob);
        cl_open(&bob2, w, "10.0.0.4");
        char fields[64];
        snprintf(fields, sizeof fields, ",\"lang\":\"fr\",\"key\":\"%s\"", bob_key);
        hello_seat(&bob2, fields, ann.table, token);

        assert_true(bob2.snapshot);
        cl_send(&eve, "{\"type\":\"chat\",\"table\":\"%s\",\"text\":\"R2 please\"}", ann.table);
        client_t *two[] = { &ann, &bob2 };
        play(w, two, 2, &rng, NULL, NULL);
        ask_rematch(&ann, ann.table, 1);
        ask_rematch(&bob2, ann.table, 1);
        play(w, two, 2, &rng, NULL, NULL);
        cl_update(&eve);
        assert_true(eve.over && eve.game == 2);
        truth_t *tr = calloc(1, sizeof *tr);
        assert_non_null(tr);
        tr->ngames = 2;
        fetch_record(w, ann.table, 1, &tr->games[0]);
        fetch_record(w, ann.table, 2, &tr->games[1]);
        tr->tokens[ann.id] = ann.token;
        tr->tokens[bob.id] = bob.token;
        tr->tokens[bob2.id] = bob.token;   /* the same seat's */
        tr->keys[ann.id] = ann_key;
        tr->keys[bob.id] = bob_key;
        tr->keys[bob2.id] = bob_key;       /* the same person's */
        int hands_ann = check_connection(w, ann.id, open, tr);
        int hands_bob = check_connection(w, bob.id, open, tr) + check_connection(w, bob2.id, open,
                                                                                 tr);
        int hands_eve = check_connection(w, eve.id, open, tr);
        assert_true(hands_ann > 50 && hands_bob > 50);   /* the checks saw the hands */
        assert_int_equal(hands_eve, 0);
        assert_int_equal(w->secrets_logged, 0);
        free(tr);
        cl_close(&ann);
        cl_close(&bob2);
        cl_close(&eve);
        world_free(w);
    }
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_leak),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
