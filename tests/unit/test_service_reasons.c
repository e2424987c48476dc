/* SPDX-License-Identifier: MIT */
/* test_service_reasons.c - why a card cannot be played, as the service tells
 * it (docs/protocol.md, the view's `reasons`), over the recording wire
 * (service_harness.h): a query is no command, so the page asks nothing.
 *
 *   - the builder (net/proto.h): a position of three players, every pile
 *     coloured, the mover holding purple: the reasons are the engine's
 *     refusals, in no view but the mover's own on its turn;
 *   - on a seat's turn its own view says, for each card of its hand that no
 *     legal action plays, why it cannot go in front of each seat: the
 *     engine's verdict, word for word the refusal of that `act`, in the
 *     language of the connection (French, Dutch, English at one table);
 *   - no other frame holds them: not another seat's, not a spectator's;
 *     they name the receiver's own cards only (R14);
 *   - a seat taken back in another language gets them in its snapshot, in
 *     that language;
 *   - the command path stays a command's: an act of a card not in hand, in
 *     front of a seat out of range, or from a spectator, a clear error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/figaro.h"
#include "host/catalog.h"
#include "host/lang.h"
#include "net/proto/proto.h"
#include "service_harness.h"
#include "support.h"

static const char *code_card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    snprintf(buf, cap, "%s", fig_kind_code(kind));
    return buf;
}

/* The builder: why a card no legal action plays cannot go in front of each
 * seat, beside `legal` in the mover's own view. Three players, every pile
 * coloured, and the mover holds purple, which no pile has (R6). Nowhere
 * else: not in a spectator's view nor another seat's, not without a
 * narrator, not when every card can go somewhere. */
static void test_reasons_built(void **state)
{
    (void)state;
    sup_pos_t pos = { .players = 3, .removed = FIG_RED, .turn = 0,
                      .hand = { "P1 P1 P2 B3 J1", "G1 G3 Y2", "Y3 B2 P3" },
                      .pile = { "B1", "G2", "Y1" } };
    fig_state_t st;
    fig_msg_t msg;
    assert_int_equal(sup_build(&st, &pos, &msg), FIG_OK);
    fig_view_t v;
    fig_view_of(&st, 0, &v);
    static const char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1] = { "Ann", "Bob", "Cleo" };
    fig_narrator_t nr;
    fig_narrate_init(&nr, 3, 0, names, NULL, code_card, NULL, NULL);
    fig_proto_show_t show = { .nr = &nr };
    json_t *o = fig_proto_view_json(&v, 0, &show);
    char *text = fig_proto_dump(json_object_get(o, "reasons"), NULL);
    assert_string_equal(text, "{\"P1\":[\"P1 cannot go in front of you: that pile is blue.\","
                              "\"P1 cannot go in front of Bob: that pile is green.\","
                              "\"P1 cannot go in front of Cleo: that pile is yellow.\"],"
                              "\"P2\":[\"P2 cannot go in front of you: that pile is blue.\","
                              "\"P2 cannot go in front of Bob: that pile is green.\","
                              "\"P2 cannot go in front of Cleo: that pile is yellow.\"]}");
    free(text);
    /* The same words the engine's refusal of each of those actions says. */
    for (int t = 0; t < 3; t++) {
        char why[320];
        fig_narrate_refusal(&nr, &v, fig_act_play(FIG_P1, t), why, sizeof why);
        json_t *r = json_array_get(json_object_get(json_object_get(o, "reasons"), "P1"),
                                   (size_t)t);
        assert_string_equal(json_string_value(r), why);
    }
    json_decref(o);
    json_t *none[] = { fig_proto_view_json(&v, -1, &show), fig_proto_view_json(&v, 1, &show),
                       fig_proto_view_json(&v, 0, NULL), NULL, NULL };
    fig_view_of(&st, 1, &v);   /* not its turn */
    none[3] = fig_proto_view_json(&v, 1, &show);
    pos.hand[0] = "B3 J1";   /* every card can go somewhere */
    assert_int_equal(sup_build(&st, &pos, &msg), FIG_OK);
    fig_view_of(&st, 0, &v);
    none[4] = fig_proto_view_json(&v, 0, &show);
    assert_non_null(json_object_get(none[4], "legal"));
    for (int i = 0; i < 5; i++) {
        assert_null(json_object_get(none[i], "reasons"));
        json_decref(none[i]);
    }
}

/* Whether the JSON array `a` of strings holds s. */
static bool holds(const json_t *a, const char *s)
{
    for (size_t i = 0; i < json_array_size(a); i++)
        if (strcmp(json_string_value(json_array_get(a, i)), s) == 0)
            return true;
    return false;
}

/* Whether no legal action of the view plays card. */
static bool stuck(const json_t *view, const char *card)
{
    const json_t *legal = json_object_get(view, "legal");
    size_t n = strlen(card);
    for (size_t i = 0; i < json_array_size(legal); i++) {
        const char *a = json_string_value(json_array_get(legal, i));
        if (strncmp(a, card, n) == 0 && (a[n] == '\0' || a[n] == '>'))
            return false;
    }
    return true;
}

/* A `play` stop: the turn of a client whose view has reasons (*ctx), or
 * the end of the game. */
static bool reasons_shown(client_t *cl[], int n, void *ctx)
{
    bool over = true;
    for (int i = 0; i < n; i++) {
        if (my_turn(cl[i]) && json_object_get(cl[i]->view, "reasons")) {
            *(client_t **)ctx = cl[i];
            return true;
        }
        over &= cl[i]->over;
    }
    return over;
}

/* The reasons of `view` (seat `me`'s, in language lang) against the rules:
 * exactly the cards of its hand no legal action plays, each with one
 * sentence per seat, in seat order, "C cannot go in front of WHO: that pile
 * is COLOUR." in lang's words (with three or four players, a card can go
 * nowhere only when every pile has a colour and none is the card's, R6). */
static void expect_reasons(const world_t *w, const json_t *view, int me, const char *lang,
                           const char *const names[])
{
    fig_catalog_t *cat = NULL;
    fig_msg_t msg;
    assert_int_equal(fig_catalog_open(&cat, w->localedir, lang, &msg), FIG_OK);
    const fig_tr_t *tr = fig_catalog_tr(cat);
    const json_t *reasons = json_object_get(view, "reasons"), *hand = json_object_get(view, "hand");
    const json_t *piles = json_object_get(view, "piles");
    assert_true(json_is_object(reasons));
    int n = (int)json_array_size(piles);
    const char *card;
    json_t *why;
    json_object_foreach((json_t *)reasons, card, why) {
        assert_true(holds(hand, card));   /* only the receiver's own cards */
        assert_true(stuck(view, card));
        assert_int_equal((int)json_array_size(why), n);
        for (int t = 0; t < n; t++) {
            const char *c = str(json_array_get(piles, (size_t)t), "colour");
            assert_int_equal(strlen(c), 1);
            int colour = (int)(strchr("RBGYP", c[0]) - "RBGYP");
            char want[400];
            snprintf(want, sizeof want,
                     fig_tr_text(tr, "%s cannot go in front of %s: that pile is %s."), card,
                     t == me ? fig_tr_text(tr, "you") : names[t],
                     fig_tr_text(tr, fig_colour_name(colour)));
            assert_string_equal(json_string_value(json_array_get(why, (size_t)t)), want);
        }
    }
    for (size_t i = 0; i < json_array_size(hand); i++) {   /* and every such card */
        const char *h = json_string_value(json_array_get(hand, i));
        assert_true(!stuck(view, h) || json_object_get(reasons, h));
    }
    fig_catalog_free(cat);
}

/* Every frame of connection `id`: reasons only in a view of the seat whose
 * turn it is, sent to that seat. Returns how many held some. */
static int reasons_frames(const world_t *w, int id, int seat)
{
    int seen = 0;
    for (int k = 0; k < w->wire.c[id].n; k++) {
        json_t *f = frame_at(w, id, k);
        const json_t *v = json_object_get(f, "view");
        if (json_object_get(v, "reasons")) {
            assert_true(seat >= 0);
            assert_int_equal(num(v, "seat"), seat);
            assert_int_equal(num(v, "turn"), seat);
            seen++;
        }
        json_decref(f);
    }
    return seen;
}

/* The text of the last frame c got (an error's sentence), into buf (300
 * bytes). */
static const char *last_text(const world_t *w, const client_t *c, char *buf)
{
    const rconn_t *r = &w->wire.c[c->id];
    json_t *e = json_loads(r->f[r->n - 1], 0, NULL);
    snprintf(buf, 300, "%s", str(e, "text"));
    json_decref(e);
    return buf;
}

/* Each reason of the mover's view is word for word what the rules answer
 * the act (refused: an error to the mover, nothing to the 3 others), which
 * the page therefore never sends. */
static void expect_act_refusals(world_t *w, client_t *mover, client_t *others[])
{
    const json_t *reasons = json_object_get(mover->view, "reasons");
    const char *card;
    json_t *why;
    char buf[300];
    json_object_foreach((json_t *)reasons, card, why)
        for (size_t t = 0; t < json_array_size(why); t++) {
            snprintf(buf, sizeof buf,
                     "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s>%zu\"}",
                     mover->table, mover->game_n, card, t);
            expect_error(w, mover, others, 3, "illegal", buf);
            assert_string_equal(last_text(w, mover, buf),
                                json_string_value(json_array_get(why, t)));
        }
}

static void test_reasons_in_the_view(void **state)
{
    (void)state;
    world_t *w = world_new(30000);
    client_t ann, bob, cid, eve;
    person_t people[] = { { &ann, "fr", "Ann" }, { &bob, "nl", "Bob" }, { &cid, "en", "Cid" } };
    sit_people(w, people, 3, SEAT_PERSON "," SEAT_PERSON "," SEAT_PERSON, NULL);
    cl_arrive(&eve, w, "10.0.0.9", "en", "Eve");
    spectate(&eve, ann.table);
    const char *names[3];
    for (int i = 0; i < 3; i++)
        names[people[i].c->seat] = people[i].name;
    /* Random games until a person holds a card that can go nowhere on their
     * turn (about one turn in five at three players). */
    client_t *cl[] = { &ann, &bob, &cid }, *mover = NULL;
    fig_rng_t rng;
    fig_rng_seed(&rng, 11);
    for (int game = 1; !mover && game <= 3; game++) {
        play(w, cl, 3, &rng, reasons_shown, &mover);
        for (int i = 0; i < 3 && !mover; i++)
            ask_rematch(cl[i], ann.table, game);
    }
    assert_non_null(mover);
    const char *lang = mover == &ann ? "fr" : mover == &bob ? "nl" : "en";
    expect_reasons(w, mover->view, mover->seat, lang, names);
    client_t *others[] = { NULL, NULL, &eve };
    for (int i = 0, k = 0; i < 3; i++)
        if (cl[i] != mover)
            others[k++] = cl[i];
    expect_act_refusals(w, mover, others);
    /* Nobody else ever got any: not the other seats, not the spectator. */
    assert_true(reasons_frames(w, mover->id, mover->seat) > 0);
    for (int i = 0; i < 2; i++)
        reasons_frames(w, others[i]->id, others[i]->seat);
    assert_int_equal(reasons_frames(w, eve.id, -1), 0);
    /* The command path: a card not in hand, a seat out of range, a spectator. */
    char buf[300];
    const json_t *hand = json_object_get(mover->view, "hand");
    const char *lack = holds(hand, "J2") ? holds(hand, "J1") ? NULL : "J1" : "J2";
    if (lack) {
        snprintf(buf, sizeof buf,
                 "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s>0\"}",
                 mover->table, mover->game_n, lack);
        expect_error(w, mover, others, 3, "illegal", buf);
        assert_non_null(strstr(last_text(w, mover, buf), lack));   /* it names the card */
    }
    const char *held = json_string_value(json_array_get(hand, 0));
    snprintf(buf, sizeof buf, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"%s>5\"}",
             mover->table, mover->game_n, held);
    expect_error(w, mover, others, 3, "illegal", buf);
    assert_non_null(strstr(last_text(w, mover, buf), held));
    client_t *not_eve[] = { &ann, &bob, &cid };
    snprintf(buf, sizeof buf, "{\"type\":\"act\",\"table\":\"%s\",\"n\":%lld,\"action\":\"take\"}",
             mover->table, mover->game_n);
    expect_error(w, &eve, not_eve, 3, "not_seated", buf);
    /* The seat taken back in another language: its snapshot tells them so. */
    client_t again;
    cl_open(&again, w, "10.0.0.8");
    const char *other = strcmp(lang, "fr") == 0 ? "nl" : "fr";
    char fields[32];
    snprintf(fields, sizeof fields, ",\"lang\":\"%s\"", other);
    int from = frames_of(&again);
    hello_seat(&again, fields, mover->table, mover->token);
    json_t *snap = last_frame(&again, from, "snapshot");
    assert_non_null(snap);
    expect_reasons(w, json_object_get(snap, "view"), mover->seat, other, names);
    json_decref(snap);
    client_t *all[] = { &ann, &bob, &cid, &eve, &again };
    for (int i = 0; i < 5; i++)
        cl_close(all[i]);
    world_free(w);
}

int main(void)
{
    service_tests_begin();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reasons_built),
        cmocka_unit_test(test_reasons_in_the_view),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
