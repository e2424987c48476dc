/* SPDX-License-Identifier: MIT */
/* test_proto.c - the table server's messages (src/net/proto/proto.h).
 *
 *   - every client message is read with its fields; names, codes, tokens
 *     and chat lines are checked and normalised;
 *   - each kind of bad frame gets its own error code and a sentence;
 *   - R14 in the builder: a view shows its hand and legal actions only to
 *     its own seat, stack counts and other seats' roads only on an open
 *     table or at the end of the game;
 *   - each legal action's outcome in the view is what the engine does when
 *     the action is applied to the true state; a finished game's view ranks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/service/lobby.h"
#include "net/table/table.h"
#include "net/proto/proto.h"

static fig_proto_code_t parse(const char *text, fig_proto_msg_t *m)
{
    fig_proto_code_t code = FIG_PC_NONE;
    fig_msg_t msg;
    msg.text[0] = '\0';
    fig_err_t rc = fig_proto_parse(text, strlen(text), NULL, m, &code, &msg);
    if (rc == FIG_OK)
        assert_int_equal(code, FIG_PC_NONE);
    else
        assert_true(msg.text[0] != '\0');   /* always a sentence */
    return code;
}

static void test_messages_read(void **state)
{
    (void)state;
    fig_proto_msg_t m;
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1,\"lang\":\"nl\",\"name\":\"Ann\",\"seats\":"
                           "[{\"table\":\"k7m2qx\",\"token\":\"00112233445566778899aabbccddeeff\","
                           "\"since\":{\"epoch\":\"0011223344556677\",\"n\":57}}]}", &m),
                     FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_HELLO);
    assert_int_equal(m.version, 1);
    assert_string_equal(m.lang, "nl");
    assert_string_equal(m.name, "Ann");
    assert_int_equal(m.nheld, 1);
    assert_string_equal(m.held[0].table, "K7M2QX");   /* read in capitals */
    assert_true(m.held[0].has_since);
    assert_int_equal(m.held[0].since, 57);

    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"bot\","
                           "\"level\":\"max\"},{\"kind\":\"engine\",\"engine\":\"x\"}],"
                           "\"move_seconds\":30,\"open\":true}", &m), FIG_PC_NONE);
    assert_int_equal(m.players, 3);
    assert_int_equal(m.seats[0].kind, FIG_SEAT_OPEN);
    assert_int_equal(m.seats[1].kind, FIG_SEAT_BOT);
    assert_string_equal(m.seats[1].what, "max");
    assert_int_equal(m.seats[2].kind, FIG_SEAT_ENGINE);
    assert_int_equal(m.move_seconds, 30);
    assert_true(m.open);
    assert_string_equal(m.fill, "normal");   /* the default */
    assert_int_equal(m.hints, -1);           /* not given: the table decides */
    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"person\"},{\"kind\":\"person\"}],\"hints\":true}", &m),
                     FIG_PC_NONE);
    assert_int_equal(m.hints, 1);
    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"person\"},{\"kind\":\"person\"}],\"hints\":1}", &m),
                     FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"hint\",\"table\":\"abcdef\",\"n\":9}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_HINT);
    assert_string_equal(m.table, "ABCDEF");
    assert_int_equal(m.n, 9);
    assert_string_equal(fig_proto_type_name(m.type), "hint");
    assert_int_equal(parse("{\"type\":\"hint\",\"table\":\"abcdef\"}", &m), FIG_PC_BAD_MESSAGE);
    assert_true(m.typed);   /* refused, answering "hint" */
    assert_int_equal(parse("{\"type\":\"review\",\"table\":\"abcdef\",\"game\":2}", &m),
                     FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_REVIEW);
    assert_int_equal(m.game, 2);
    assert_int_equal(m.seat, -1);   /* the sender's own */
    assert_string_equal(fig_proto_type_name(m.type), "review");
    assert_int_equal(parse("{\"type\":\"review\",\"table\":\"abcdef\",\"game\":1,\"seat\":3}",
                           &m), FIG_PC_NONE);
    assert_int_equal(m.seat, 3);
    assert_int_equal(parse("{\"type\":\"review\",\"table\":\"abcdef\"}", &m), FIG_PC_BAD_MESSAGE);
    assert_true(m.typed);
    assert_int_equal(parse("{\"type\":\"review\",\"table\":\"abcdef\",\"game\":0}", &m),
                     FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"review\",\"table\":\"abcdef\",\"game\":1,\"seat\":6}",
                           &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"review\",\"table\":\"abcdef\",\"game\":\"1\"}", &m),
                     FIG_PC_BAD_MESSAGE);

    assert_int_equal(parse("{\"type\":\"act\",\"table\":\"ABCDEF\",\"n\":12,\"action\":\"R2>1\"}",
                           &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_ACT);
    assert_int_equal(m.n, 12);
    assert_string_equal(m.action, "R2>1");

    assert_int_equal(parse("{\"type\":\"chat\",\"table\":\"ABCDEF\",\"text\":\"a\\nb\"}", &m),
                     FIG_PC_NONE);
    assert_string_equal(m.text, "a b");   /* one line in every client */

    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"ABCDEF\"}", &m), FIG_PC_NONE);
    assert_int_equal(m.seat, -1);
    assert_int_equal(parse("{\"type\":\"rematch\",\"table\":\"ABCDEF\",\"game\":1}", &m),
                     FIG_PC_NONE);
    assert_int_equal(m.game, 1);
    assert_true(m.ready);   /* a client of before the vote asks */
    assert_int_equal(parse("{\"type\":\"rematch\",\"table\":\"ABCDEF\",\"game\":2,"
                           "\"ready\":false}", &m), FIG_PC_NONE);
    assert_int_equal(m.game, 2);
    assert_false(m.ready);
    assert_int_equal(parse("{\"type\":\"rematch\",\"table\":\"ABCDEF\",\"game\":2,"
                           "\"ready\":0}", &m), FIG_PC_BAD_MESSAGE);
}

static void test_bad_frames(void **state)
{
    (void)state;
    fig_proto_msg_t m;
    assert_int_equal(parse("{\"type\":", &m), FIG_PC_BAD_JSON);
    assert_int_equal(parse("[1,2]", &m), FIG_PC_BAD_JSON);
    assert_int_equal(parse("{\"type\":\"x\",\"type\":\"y\"}", &m), FIG_PC_BAD_JSON);
    assert_int_equal(parse("{}", &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"dance\"}", &m), FIG_PC_UNKNOWN_TYPE);
    assert_int_equal(parse("{\"type\":\"act\",\"table\":\"ABCDEF\",\"n\":\"1\","
                           "\"action\":\"take\"}", &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"act\",\"table\":\"ABCDEF\",\"action\":\"take\"}", &m),
                     FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"act\",\"table\":\"AB\",\"n\":1,\"action\":\"take\"}", &m),
                     FIG_PC_NO_TABLE);
    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"ABCDEF\",\"name\":"
                           "\"abcdefghijabcdefghijabcdefghijabc\"}", &m), FIG_PC_BAD_NAME);
    /* A seat of a hello that does not read is that seat's error alone: the
     * hello is read, with the seat marked (the server welcomes, then refuses
     * that seat and takes the others back). */
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1,\"seats\":[{\"table\":\"ABCDEF\","
                           "\"token\":\"secret\"},{\"table\":\"ghijkl\",\"token\":"
                           "\"00112233445566778899aabbccddeeff\"},{\"table\":\"A\"},7]}", &m),
                     FIG_PC_NONE);
    assert_int_equal(m.nheld, 4);
    assert_int_equal(m.held[0].bad, FIG_PC_BAD_TOKEN);
    assert_string_equal(m.held[0].table, "ABCDEF");
    assert_true(m.held[0].bad_text[0]);
    assert_int_equal(m.held[1].bad, FIG_PC_NONE);
    assert_string_equal(m.held[1].table, "GHIJKL");
    assert_int_equal(m.held[2].bad, FIG_PC_NO_TABLE);
    assert_string_equal(m.held[2].table, "");
    assert_int_equal(m.held[3].bad, FIG_PC_BAD_MESSAGE);
    /* A refused frame whose type was read says so (`re`), and its table. */
    assert_int_equal(parse("{\"type\":\"act\",\"table\":\"abcdef\",\"n\":-1,"
                           "\"action\":\"take\"}", &m), FIG_PC_BAD_MESSAGE);
    assert_true(m.typed);
    assert_int_equal(m.type, FIG_PROTO_ACT);
    assert_string_equal(m.table, "ABCDEF");
    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"AB\"}", &m), FIG_PC_NO_TABLE);
    assert_true(m.typed);
    assert_string_equal(m.table, "");
    assert_int_equal(parse("{\"type\":\"dance\"}", &m), FIG_PC_UNKNOWN_TYPE);
    assert_false(m.typed);
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1,\"lang\":\"de\"}", &m),
                     FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"person\"}]}", &m), FIG_PC_BAD_SEATS);
    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"bot\",\"level\":\"cmd:rm -rf /\"},{\"kind\":\"person\"}]}",
                           &m), FIG_PC_BAD_SEATS);
    char chat[400];
    snprintf(chat, sizeof chat, "{\"type\":\"chat\",\"table\":\"ABCDEF\",\"text\":\"%0201d\"}", 0);
    assert_int_equal(parse(chat, &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"chat\",\"table\":\"ABCDEF\",\"text\":\" \\t \"}", &m),
                     FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"chat\",\"table\":\"ABCDEF\",\"text\":\"a\\u0000b\"}", &m),
                     FIG_PC_BAD_JSON);   /* jansson refuses NUL unless asked */
    /* Valid JSON the parser refuses, as docs/protocol.md says. */
    assert_int_equal(parse("{\"type\":\"chat\",\"table\":\"ABCDEF\",\"text\":\"\\ud800\"}", &m),
                     FIG_PC_BAD_JSON);   /* a lone surrogate */
    assert_int_equal(parse("{\"type\":\"act\",\"table\":\"ABCDEF\",\"n\":9223372036854775808,"
                           "\"action\":\"take\"}", &m), FIG_PC_BAD_JSON);   /* above 2^63 - 1 */
    assert_int_equal(parse("{\"type\":\"act\",\"table\":\"ABCDEF\",\"n\":57.0,"
                           "\"action\":\"take\"}", &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1,\"seats\":[{\"table\":\"ABCDEF\","
                           "\"token\":\"00112233445566778899AABBCCDDEEFF\"}]}", &m), FIG_PC_NONE);
    assert_int_equal(m.held[0].bad, FIG_PC_BAD_TOKEN);   /* tokens are lower case */
    static char big[FIG_NET_FRAME_MAX + 100];
    memset(big, ' ', sizeof big - 1);
    memcpy(big, "{\"type\":\"ping\"}", 15);
    assert_int_equal(parse(big, &m), FIG_PC_TOO_BIG);
    big[FIG_NET_FRAME_MAX] = '\0';   /* at the cap: fine */
    assert_int_equal(parse(big, &m), FIG_PC_NONE);
    for (int c = 1; c < FIG_PC_COUNT; c++)
        assert_string_not_equal(fig_proto_code_name((fig_proto_code_t)c), "?");
}

/* A name as people type it: spaces kept (runs made one, none at the ends),
 * at most 32 characters whatever their bytes, no control character, not
 * only invisible ones (docs/protocol.md, hello). */
static void test_names(void **state)
{
    (void)state;
    fig_proto_msg_t m;
    static const struct {
        const char *json;   /* the "name" field's JSON text */
        const char *clean;  /* NULL: bad_name */
    } cases[] = {
        { "\"Alice \\ud83c\\udfa9\"", "Alice \xf0\x9f\x8e\xa9" },
        { "\"  Ann   Lee  \"", "Ann Lee" },
        { "\"Ann\\u00a0\\u3000Lee\"", "Ann Lee" },            /* any Unicode space */
        { "\"Jos\\u00e9\"", "Jos\xc3\xa9" },
        { "\"R\\u00e9my #1\"", "R\xc3\xa9my #1" },
        { "\"e\\u0301\"", "e\xcc\x81" },                       /* a mark on a letter */
        { "\"\"", NULL },                                       /* 1 to 32 characters */
        { "\"   \"", NULL },
        { "\"\\u200b\\u200b\"", NULL },                         /* zero-width only */
        { "\"\\u00a0\\u3000\"", NULL },
        { "\"\\ufeff\"", NULL },
        { "\"\\u0301\\u0302\"", NULL },                         /* combining marks alone */
        { "\"\\u3164\"", NULL },                                /* a Hangul filler */
        { "\"Ann\\u0007\"", NULL },                             /* C0 */
        { "\"Ann\\tLee\"", NULL },
        { "\"Ann\\u0085\"", NULL },                             /* C1 */
        { "\"Ann\\u202e\"", NULL },                             /* a bidi override */
        { "\"Ann\\u2028Lee\"", NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char frame[300];
        snprintf(frame, sizeof frame, "{\"type\":\"hello\",\"v\":1,\"name\":%s}", cases[i].json);
        fig_proto_code_t code = parse(frame, &m);
        if (!cases[i].clean) {
            if (code != FIG_PC_BAD_NAME)
                fail_msg("%s: %s, not bad_name", cases[i].json, fig_proto_code_name(code));
            continue;
        }
        if (code != FIG_PC_NONE)
            fail_msg("%s: %s", cases[i].json, fig_proto_code_name(code));
        assert_string_equal(m.name, cases[i].clean);
    }
    /* Characters, not bytes: 32 two-byte or four-byte characters are a name,
     * 33 are not; runs of spaces count once. */
    char frame[2000], name[1500];
    const char *units[] = { "\\u00e9", "\\ud83c\\udfa9", "a" };
    for (size_t u = 0; u < 3; u++)
        for (int n = 32; n <= 33; n++) {
            name[0] = '\0';
            for (int k = 0; k < n; k++)
                strcat(name, units[u]);
            snprintf(frame, sizeof frame, "{\"type\":\"hello\",\"v\":1,\"name\":\"%s\"}", name);
            assert_int_equal(parse(frame, &m), n == 32 ? FIG_PC_NONE : FIG_PC_BAD_NAME);
        }
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1,\"name\":\"a          b\"}", &m),
                     FIG_PC_NONE);
    assert_string_equal(m.name, "a b");
    /* join: "" or no name is the hello's name. */
    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"ABCDEF\",\"name\":\"\"}", &m),
                     FIG_PC_NONE);
    assert_string_equal(m.name, "");
    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"ABCDEF\",\"name\":\" Ann  Lee\"}", &m),
                     FIG_PC_NONE);
    assert_string_equal(m.name, "Ann Lee");
    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"ABCDEF\",\"name\":\"\\u200b\"}", &m),
                     FIG_PC_BAD_NAME);
    /* An FGN record holds one word of at most 32 bytes. */
    char rec[FIG_NAME_MAX + 1];
    fig_name_record("Alice \xf0\x9f\x8e\xa9", rec);
    assert_string_equal(rec, "Alice_\xf0\x9f\x8e\xa9");
    fig_name_record("R\xc3\xa9my #1", rec);
    assert_string_equal(rec, "R\xc3\xa9my__1");
    char long_name[100] = "";
    for (int k = 0; k < 20; k++)
        strcat(long_name, "\xc3\xa9");   /* 40 bytes */
    fig_name_record(long_name, rec);
    assert_int_equal(strlen(rec), 32);   /* 16 whole characters, none cut */
    assert_memory_equal(rec, long_name, 32);
    strcpy(long_name, "abcdefghijabcdefghijabcdefghija\xf0\x9f\x8e\xa9");   /* 31 + 4 bytes */
    fig_name_record(long_name, rec);
    assert_string_equal(rec, "abcdefghijabcdefghijabcdefghija");
}

/* Whether key appears anywhere in j. */
static int has_key(const json_t *j, const char *key)
{
    if (json_is_object(j)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)j, k, v)
            if (strcmp(k, key) == 0 || has_key(v, key))
                return 1;
    } else if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++)
            if (has_key(json_array_get(j, i), key))
                return 1;
    }
    return 0;
}

static void test_view_r14(void **state)
{
    (void)state;
    fig_setup_t setup;
    fig_setup_random(&setup, 4, 7, NULL);
    fig_game_t g;
    fig_game_init(&g, &setup);
    fig_game_deal_seeded(&g);
    fig_rng_t rng;
    fig_rng_seed(&rng, 3);
    for (int i = 0; i < 9; i++)
        assert_int_equal(fig_game_play(&g, fig_state_random_action(&g.state, &rng), NULL, NULL),
                         FIG_OK);
    int turn = g.state.turn, other = (turn + 1) % 4;
    fig_view_t v;
    fig_view_of(&g.state, turn, &v);
    fig_proto_show_t closed = { .open = false }, open = { .open = true };
    json_t *mine = fig_proto_view_json(&v, turn, &closed);
    json_t *spect = fig_proto_view_json(&v, -1, &closed);
    json_t *wrong = fig_proto_view_json(&v, other, &closed);   /* never done; still safe */
    assert_true(has_key(mine, "hand") && has_key(mine, "legal"));
    assert_int_equal((int)json_array_size(json_object_get(mine, "hand")),
                     fig_hand_total(&g.state.hand[turn]));
    assert_false(has_key(spect, "hand") || has_key(spect, "legal"));
    assert_false(has_key(wrong, "hand") || has_key(wrong, "legal"));
    assert_false(has_key(mine, "stacks"));
    json_t *roads = json_object_get(mine, "roads");
    assert_true(json_is_null(json_array_get(roads, (size_t)other)));
    assert_true(json_is_array(json_array_get(roads, (size_t)turn)));
    json_t *o = fig_proto_view_json(&v, turn, &open);
    assert_true(has_key(o, "stacks"));
    assert_true(json_is_array(json_array_get(json_object_get(o, "roads"), (size_t)other)));
    json_decref(mine);
    json_decref(spect);
    json_decref(wrong);
    json_decref(o);
}

/* Every legal action's outcome in a seat's view against what the engine does
 * when the action is applied to the TRUE state (the view knows only the
 * public piles and the mover's hand): reach is the pile's total after the
 * card, collector/count the collection the engine makes, ring a rotation. */
static void check_outcomes(const fig_game_t *g, int *collects, int *plain)
{
    int turn = g->state.turn;
    fig_view_t v;
    fig_view_of(&g->state, turn, &v);
    json_t *o = fig_proto_view_json(&v, turn, NULL);
    json_t *legal = json_object_get(o, "legal"), *outs = json_object_get(o, "outcomes");
    fig_action_t acts[FIG_MAX_ACTIONS];
    int k = fig_state_legal(&g->state, acts);
    assert_int_equal((int)json_array_size(legal), k);
    assert_int_equal((int)json_array_size(outs), k);
    for (int i = 0; i < k; i++) {
        json_t *out = json_array_get(outs, (size_t)i);
        char buf[16];
        assert_string_equal(json_string_value(json_array_get(legal, (size_t)i)),
                            fig_act_format(acts[i], buf, sizeof buf));
        fig_state_t st = g->state;
        int t = fig_act_target(acts[i]), before = st.pile[t].total, table = st.table_cards;
        fig_events_t ev;
        fig_msg_t msg;
        assert_int_equal(fig_state_apply(&st, acts[i], &ev, &msg), FIG_OK);
        int collector = -1, count = 0, ring = 0;
        for (int e = 0; e < ev.n; e++) {
            if (ev.ev[e].type == FIG_EV_COLLECT) {
                collector = ev.ev[e].seat;
                count = ev.ev[e].count;
            }
            ring |= ev.ev[e].type == FIG_EV_RING;
        }
        json_t *c = json_object_get(out, "collector");
        assert_int_equal(c ? (int)json_integer_value(c) : -1, collector);
        json_t *n = json_object_get(out, "count");
        assert_int_equal(n ? (int)json_integer_value(n) : 0, count);
        assert_int_equal(json_is_true(json_object_get(out, "ring")), ring);
        json_t *r = json_object_get(out, "reach");
        if (fig_act_is_take(acts[i])) {
            assert_null(r);
            assert_int_equal(collector, turn);
            assert_int_equal(count, table);
        } else if (ring) {
            assert_null(r);
        } else if (collector >= 0) {   /* R8: the pile reached 6 and its seat collected */
            assert_int_equal(collector, t);
            assert_int_equal(count, table + 1);
            assert_true(json_integer_value(r) >= 6);
            assert_int_equal(json_integer_value(r),
                             before + fig_kind_value(fig_act_kind(acts[i])));
            (*collects)++;
        } else {
            assert_int_equal(json_integer_value(r), st.pile[t].total);
            (*plain)++;
        }
    }
    json_decref(o);
}

static void test_view_outcomes(void **state)
{
    (void)state;
    int collects = 0, plain = 0;
    for (int players = 3; players <= 6; players++) {
        fig_setup_t setup;
        fig_setup_random(&setup, players, (uint64_t)(40 + players), NULL);
        fig_game_t g;
        fig_game_init(&g, &setup);
        fig_rng_t rng;
        fig_rng_seed(&rng, (uint64_t)players);
        while (!fig_game_over(&g)) {
            if (g.state.phase == FIG_PHASE_DEAL) {
                fig_game_deal_seeded(&g);
                continue;
            }
            check_outcomes(&g, &collects, &plain);
            assert_int_equal(fig_game_play(&g, fig_state_random_action(&g.state, &rng), NULL,
                                           NULL),
                             FIG_OK);
        }
        /* The finished game's view carries the engine's ranking (R13). */
        fig_view_t v;
        fig_view_of(&g.state, 0, &v);
        json_t *o = fig_proto_view_json(&v, 0, NULL);
        json_t *rank = json_object_get(o, "ranking");
        int want[FIG_MAX_PLAYERS];
        fig_state_ranking(&g.state, want);
        assert_int_equal((int)json_array_size(rank), players);
        for (int s = 0; s < players; s++)
            assert_int_equal(json_integer_value(json_array_get(rank, (size_t)s)), want[s]);
        assert_false(has_key(o, "outcomes"));
        json_decref(o);
    }
    assert_true(collects > 0 && plain > 0);   /* both kinds of play were checked */
}

/* The rules' own example (rules.md, R6/R8): seat 1's pile is R2 R2; seat 0's
 * J2 there brings it to 6 and seat 1 collects the five cards on the table. */
/* The table's frames proto.c builds from plain values (table.c only says
 * what happened): their bytes, keys in protocol order. */
static void expect_dump(json_t *j, const char *want)
{
    char *text = fig_proto_dump(j, NULL);
    assert_non_null(text);
    assert_string_equal(text, want);
    free(text);
    json_decref(j);
}

static void test_table_frames(void **state)
{
    (void)state;
    expect_dump(fig_proto_table_msg("caught_up", "K7M2QX"),
                "{\"type\":\"caught_up\",\"table\":\"K7M2QX\"}");
    fig_proto_seat_info_t seats[3] = {
        { "person", "Ann", NULL, NULL, "present" },
        { "bot", "Rosina", "beginner", NULL, "bot" },
        { "open", NULL, NULL, NULL, "open" },
    };
    fig_proto_tally_t tally = { .game = 1, .n = 3, .votes = { "ready", "bot", "bot" },
                                .ready = 1, .of = 1 };
    fig_proto_other_t seat = { .table = "K7M2QX", .n = 9, .game = 1, .kind = "seat", .seat = 0,
                               .name = "Ann", .news = "back", .seats = seats, .nseats = 3,
                               .tally = &tally, .say = "Ann is back." };
    expect_dump(fig_proto_other_event(&seat),
                "{\"type\":\"event\",\"table\":\"K7M2QX\",\"n\":9,\"game\":1,\"kind\":\"seat\","
                "\"seat\":0,\"news\":\"back\",\"name\":\"Ann\",\"seats\":["
                "{\"kind\":\"person\",\"name\":\"Ann\",\"status\":\"present\"},"
                "{\"kind\":\"bot\",\"name\":\"Rosina\",\"level\":\"beginner\",\"status\":\"bot\"},"
                "{\"kind\":\"open\",\"name\":null,\"status\":\"open\"}],"
                "\"rematch\":{\"game\":1,\"votes\":[\"ready\",\"bot\",\"bot\"],\"ready\":1,"
                "\"of\":1},\"say\":[\"Ann is back.\"]}");
    fig_proto_other_t chat = { .table = "K7M2QX", .n = 10, .game = 1, .kind = "chat", .seat = -1,
                               .name = "Eve", .text = "hi", .say = "" };
    expect_dump(fig_proto_other_event(&chat),
                "{\"type\":\"event\",\"table\":\"K7M2QX\",\"n\":10,\"game\":1,\"kind\":\"chat\","
                "\"seat\":null,\"name\":\"Eve\",\"text\":\"hi\",\"say\":[]}");
    expect_dump(fig_proto_seated("K7M2QX", 2, "Bob", "00ff"),
                "{\"type\":\"seated\",\"table\":\"K7M2QX\",\"seat\":2,\"name\":\"Bob\","
                "\"token\":\"00ff\"}");
    expect_dump(fig_proto_seated("K7M2QX", 2, "Bob", NULL),
                "{\"type\":\"seated\",\"table\":\"K7M2QX\",\"seat\":2,\"name\":\"Bob\"}");
    expect_dump(fig_proto_seat_msg("left", "K7M2QX", 1),
                "{\"type\":\"left\",\"table\":\"K7M2QX\",\"seat\":1}");
    expect_dump(fig_proto_caught_up("K7M2QX", 57),
                "{\"type\":\"caught_up\",\"table\":\"K7M2QX\",\"n\":57}");
    expect_dump(fig_proto_story_chat(1, "Bob", "gg"),
                "{\"kind\":\"chat\",\"say\":[],\"seat\":1,\"name\":\"Bob\",\"text\":\"gg\"}");
    fig_proto_snapshot_t snap = { .table = "K7M2QX", .epoch = "9f0c2b7a11d35e40", .n = 3,
                                  .game_n = 0, .game = 0, .state = "waiting", .me = -1,
                                  .players = 3, .move_seconds = 0, .open = false,
                                  .fill = "normal", .seats = seats, .turn_ms_left = -1,
                                  .log = json_array(), .listed = true, .rated = true };
    expect_dump(fig_proto_snapshot(&snap),
                "{\"type\":\"snapshot\",\"table\":\"K7M2QX\",\"epoch\":\"9f0c2b7a11d35e40\","
                "\"n\":3,\"game_n\":0,\"game\":0,\"state\":\"waiting\",\"seat\":null,"
                "\"options\":{\"players\":3,\"move_seconds\":0,\"open\":false,\"fill\":\"normal\","
                "\"hints\":false,\"listed\":true,\"rated\":true},"
                "\"seats\":[{\"kind\":\"person\",\"name\":\"Ann\",\"status\":\"present\"},"
                "{\"kind\":\"bot\",\"name\":\"Rosina\",\"level\":\"beginner\",\"status\":\"bot\"},"
                "{\"kind\":\"open\",\"name\":null,\"status\":\"open\"}],"
                "\"turn_ms_left\":null,\"log\":[]}");
    fig_hint_text_t ht = { .action = fig_act_parse("R2>1", 4, 0), .headline = "Hint: play R2.",
                           .reason = "", .n = 1, .iterations = 4000 };
    ht.moves[0] = (fig_hint_move_t){ .action = ht.action, .share = 0.5, .win = 0.25,
                                     .place = 2.0, .line = "R2: half" };
    expect_dump(fig_proto_hint("K7M2QX", 57, &ht),
                "{\"type\":\"hint\",\"table\":\"K7M2QX\",\"n\":57,\"action\":\"R2>1\","
                "\"say\":[\"Hint: play R2.\"],\"top\":[{\"action\":\"R2>1\",\"share\":0.5,"
                "\"win\":0.25,\"place\":2.0,\"say\":\"R2: half\"}],\"iterations\":4000}");
}

static const char *code_card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    snprintf(buf, cap, "%s", fig_kind_code(kind));
    return buf;
}

/* The review frame (docs/protocol.md, review): only the graded moves, each
 * with its numbers and words; the counts and the summary. */
static void test_review_frame(void **state)
{
    (void)state;
    fig_setup_t setup;
    fig_setup_random(&setup, 3, 1, NULL);
    fig_game_t *g = malloc(sizeof *g);
    assert_non_null(g);
    fig_game_init(g, &setup);
    fig_game_deal_seeded(g);
    fig_review_t *rv = calloc(1, sizeof *rv);
    assert_non_null(rv);
    int me = g->state.turn;
    rv->seat = me;
    rv->n = 2;
    rv->iterations = 300;
    rv->costliest = 1;
    fig_view_t v;
    fig_view_of(&g->state, me, &v);
    memset(&v.hand, 0, sizeof v.hand);
    v.hand.n[FIG_J1] = 1;
    v.hand.n[FIG_RING] = 1;
    assert_int_equal(me, 0);   /* Bob is seat 1 */
    fig_action_t ring = fig_act_parse("RING", 4, me), jester = fig_act_parse("J1>1", 4, me);
    assert_true(ring != FIG_ACT_NONE && jester != FIG_ACT_NONE);
    rv->moves[0] = (fig_review_move_t){ .round = 1, .index = 0, .number = 1, .in_round = 1,
                                        .of_round = 2, .played = ring,
                                        .best = ring, .played_win = 0.5, .best_win = 0.5,
                                        .played_place = 2, .best_place = 2, .view = v };
    rv->moves[1] = (fig_review_move_t){ .round = 1, .index = 3, .number = 2, .in_round = 2,
                                        .of_round = 2, .played = ring,
                                        .best = jester, .played_win = 0.25, .best_win = 0.5,
                                        .played_place = 2.5, .best_place = 1.5,
                                        .loss_place = 1, .loss_win = 0.25,
                                        .grade = FIG_REVIEW_BLUNDER, .view = v };
    rv->count[FIG_REVIEW_GOOD] = 1;
    rv->count[FIG_REVIEW_BLUNDER] = 1;
    static const char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1] = { "Ann", "Bob", "Cleo" };
    fig_narrator_t nr;
    fig_narrate_init(&nr, 3, me, names, NULL, code_card, NULL, NULL);
    char want[4000];
    snprintf(want, sizeof want,
             "{\"type\":\"review\",\"table\":\"K7M2QX\",\"game\":1,\"seat\":%d,\"reviewed\":2,"
             "\"counts\":{\"inaccuracy\":0,\"mistake\":0,\"blunder\":1},"
             "\"summary\":\"1 blunder, 0 mistakes, 0 inaccuracies in 2 moves. The costliest, your "
             "move 2 of 2 in round 1: \\\"play a ring: every pile moves one seat to the left\\\" "
             "instead of \\\"J1 in front of Bob\\\", a chance to win of 25%% instead of 50%%.\","
             "\"moves\":[{\"round\":1,\"index\":3,\"number\":2,\"played\":\"RING\","
             "\"best\":\"J1>1\",\"played_say\":\"play a ring: every pile moves one seat to the "
             "left\",\"best_say\":\"J1 in front of Bob\","
             "\"played_win\":0.25,\"best_win\":0.5,\"played_place\":2.5,\"best_place\":1.5,"
             "\"grade\":\"blunder\",\"grade_say\":\"blunder\",\"say\":\"Your move 2 of 2 in round 1: you "
             "chose \\\"play a ring: every pile moves one seat to the left\\\" (wins 25%%, place "
             "2.5); better: \\\"J1 in front of Bob\\\" (wins 50%%, place 1.5). A blunder.\"}],"
             "\"iterations\":300}", me);
    expect_dump(fig_proto_review("K7M2QX", 1, rv, &nr), want);
    free(rv);
    free(g);
}

static void test_outcome_example(void **state)
{
    (void)state;
    fig_setup_t setup;
    fig_setup_random(&setup, 4, 1, NULL);
    fig_game_t g;
    fig_game_init(&g, &setup);
    fig_game_deal_seeded(&g);
    fig_view_t v;
    fig_view_of(&g.state, g.state.turn, &v);
    int me = v.seat, t = (me + 1) % 4;
    memset(v.pile, 0, sizeof v.pile);
    for (int s = 0; s < 4; s++)
        v.pile[s].colour = FIG_NO_COLOUR;
    v.pile[t].colour = FIG_RED;
    v.pile[t].n[1] = 2;
    v.pile[t].total = 4;
    v.pile[t].cards = 2;
    v.pile[me].n[3] = 1;   /* a J1 in front of the mover */
    v.pile[me].total = 1;
    v.pile[me].cards = 1;
    v.table_cards = 3;
    v.colourless = (uint8_t)(0xf & ~(1u << t));
    memset(&v.hand, 0, sizeof v.hand);
    v.hand.n[FIG_J2] = 1;
    v.hand.n[FIG_RING] = 1;
    v.hand_size[me] = 2;
    json_t *o = fig_proto_view_json(&v, me, NULL);
    json_t *legal = json_object_get(o, "legal"), *outs = json_object_get(o, "outcomes");
    char want[16];
    snprintf(want, sizeof want, "J2>%d", t);
    int seen = 0;
    for (size_t i = 0; i < json_array_size(legal); i++) {
        const char *a = json_string_value(json_array_get(legal, i));
        json_t *out = json_array_get(outs, i);
        char *s = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
        char expect[64];
        if (strcmp(a, want) == 0)
            snprintf(expect, sizeof expect, "{\"collector\":%d,\"count\":4,\"reach\":6}", t);
        else if (strcmp(a, "take") == 0)
            snprintf(expect, sizeof expect, "{\"collector\":%d,\"count\":3}", me);
        else if (strcmp(a, "RING") == 0)
            snprintf(expect, sizeof expect, "{\"ring\":true}");
        else if (a[3] - '0' == me)
            snprintf(expect, sizeof expect, "{\"reach\":3}");
        else
            snprintf(expect, sizeof expect, "{\"reach\":2}");
        assert_string_equal(s, expect);
        free(s);
        seen++;
    }
    assert_int_equal(seen, 6);   /* take, J2 in front of each of 4 seats, RING */
    json_decref(o);
}

static bool not_mine(void *ctx, const char *code)
{
    (void)ctx;
    (void)code;
    return false;
}

static bool mine_0(void *ctx, const char *code)
{
    (void)ctx;
    return strcmp(code, "REMOT0") == 0;
}

/* The lobby's messages (docs/protocol.md, lobby): create's `listed`, the
 * subscription, and the frame the lobby sends. */
static void test_lobby_messages(void **state)
{
    (void)state;
    fig_proto_msg_t m;
    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"person\"},{\"kind\":\"person\"}]}", &m), FIG_PC_NONE);
    assert_false(m.listed);   /* the default: invite only */
    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"person\"},{\"kind\":\"person\"}],\"listed\":true}", &m),
                     FIG_PC_NONE);
    assert_true(m.listed);
    assert_int_equal(parse("{\"type\":\"create\",\"seats\":[{\"kind\":\"person\"},"
                           "{\"kind\":\"person\"},{\"kind\":\"person\"}],\"listed\":\"yes\"}", &m),
                     FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"lobby\",\"on\":true}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_LOBBY);
    assert_string_equal(fig_proto_type_name(m.type), "lobby");
    assert_true(m.on);
    assert_int_equal(parse("{\"type\":\"lobby\"}", &m), FIG_PC_NONE);
    assert_true(m.on);   /* the default: follow it */
    assert_int_equal(parse("{\"type\":\"lobby\",\"on\":false}", &m), FIG_PC_NONE);
    assert_false(m.on);
    assert_int_equal(parse("{\"type\":\"lobby\",\"on\":null}", &m), FIG_PC_BAD_MESSAGE);
    assert_true(m.typed);

    /* The frame: newest first, each seat as the lobby shows it. */
    fig_lobby_t l;
    fig_lobby_init(&l, NULL, NULL);
    fig_lobby_ent_t *a = NULL, *b = NULL;
    fig_lobby_table_t x;
    memset(&x, 0, sizeof x);
    strcpy(x.code, "K7M2QX");
    x.created = 100;
    x.players = 3;
    x.free = 1;
    x.seats[0].kind = FIG_LOBBY_PERSON;
    strcpy(x.seats[0].name, "Ann");
    x.seats[1].kind = FIG_LOBBY_OPEN;
    x.seats[2].kind = FIG_LOBBY_BOT;
    strcpy(x.seats[2].level, "hard");
    x.move_seconds = 60;
    x.rated = true;
    strcpy(x.fill, "normal");
    assert_true(fig_lobby_put(&l, &a, &x, 0));
    fig_lobby_table_t y = x;
    strcpy(y.code, "ABCDEF");
    y.created = 50;
    y.seats[2].kind = FIG_LOBBY_ENGINE;
    memset(y.seats[2].level, 0, sizeof y.seats[2].level);
    strcpy(y.seats[2].name, "greedy");
    y.hints = true;
    y.rated = false;
    assert_true(fig_lobby_put(&l, &b, &y, 0));
    size_t len;
    char *text = fig_lobby_frame(&l, &len);
    assert_string_equal(text,
        "{\"type\":\"lobby\",\"tables\":["
        "{\"table\":\"K7M2QX\",\"players\":3,\"free\":1,\"seats\":[{\"kind\":\"person\","
        "\"name\":\"Ann\"},{\"kind\":\"open\"},{\"kind\":\"bot\",\"level\":\"hard\"}],"
        "\"options\":{\"move_seconds\":60,\"open\":false,\"hints\":false,\"fill\":\"normal\","
        "\"rated\":true}},"
        "{\"table\":\"ABCDEF\",\"players\":3,\"free\":1,\"seats\":[{\"kind\":\"person\","
        "\"name\":\"Ann\"},{\"kind\":\"open\"},{\"kind\":\"engine\",\"engine\":\"greedy\"}],"
        "\"options\":{\"move_seconds\":60,\"open\":false,\"hints\":true,\"fill\":\"normal\","
        "\"rated\":false}}]}");
    assert_int_equal(strlen(text), len);
    free(text);
    /* Taken out: the other stays. */
    assert_true(fig_lobby_put(&l, &a, NULL, 0));
    assert_null(a);
    text = fig_lobby_frame(&l, &len);
    assert_null(strstr(text, "K7M2QX"));
    assert_non_null(strstr(text, "ABCDEF"));
    free(text);

    /* The other servers' tables, from rows: each round replaces the last;
     * one of this server's own is never taken twice; unlisted or full rows
     * are not in it. */
    fig_db_table_t rows[3];
    memset(rows, 0, sizeof rows);
    for (int i = 0; i < 3; i++) {
        memcpy(rows[i].code, "REMOT", 5);
        rows[i].code[5] = (char)('0' + i);
        rows[i].players = 3;
        rows[i].listed = i != 2;
        rows[i].created = 200 + i;
        rows[i].seats[0].kind = FIG_DB_SEAT_PERSON;
        strcpy(rows[i].seats[0].name, "Zoe");
        rows[i].seats[1].kind = FIG_DB_SEAT_OPEN;
        rows[i].seats[2].kind = FIG_DB_SEAT_BOT;
        strcpy(rows[i].seats[2].what, "random");
        strcpy(rows[i].fill, "easy");
    }
    fig_lobby_table_t z;
    assert_true(fig_table_lobby_row(&rows[0], &z));
    assert_int_equal(z.free, 1);
    assert_false(z.rated);   /* a random bot */
    assert_false(fig_table_lobby_row(&rows[2], &z));   /* not listed */
    unsigned long long v = l.version;
    fig_lobby_remote(&l, rows, 3, not_mine, NULL, 0);
    assert_int_equal(l.n, 3);   /* ABCDEF, REMOT0, REMOT1 */
    assert_true(l.version > v);
    v = l.version;
    fig_lobby_remote(&l, rows, 3, not_mine, NULL, 0);   /* the same: no change */
    assert_int_equal(l.version, v);
    fig_lobby_remote(&l, rows + 1, 1, not_mine, NULL, 0);
    assert_int_equal(l.n, 2);
    text = fig_lobby_frame(&l, &len);
    assert_non_null(strstr(text, "{\"table\":\"REMOT1\""));
    assert_null(strstr(text, "REMOT0"));
    assert_true(strstr(text, "REMOT1") < strstr(text, "ABCDEF"));   /* newest first */
    free(text);
    fig_lobby_drop_remote(&l, "REMOT1", 0);
    assert_int_equal(l.n, 1);
    fig_lobby_remote(&l, rows, 2, mine_0, NULL, 0);
    assert_int_equal(l.n, 2);   /* REMOT1 again; REMOT0 is this server's */
    fig_lobby_free(&l);

    /* A frame holds the newest FIG_LOBBY_MAX, whatever the order they came in. */
    fig_lobby_init(&l, NULL, NULL);
    fig_lobby_ent_t *many[FIG_LOBBY_MAX + 10] = { 0 };
    for (int i = 0; i < FIG_LOBBY_MAX + 10; i++) {
        int k = (i * 37) % (FIG_LOBBY_MAX + 10);   /* a permutation: not in order */
        x.created = 1000 + k;
        snprintf(x.code, sizeof x.code, "C%05d", k % 100);
        assert_true(fig_lobby_put(&l, &many[i], &x, 0));
    }
    text = fig_lobby_frame(&l, &len);
    json_t *f = json_loads(text, 0, NULL);
    json_t *arr = json_object_get(f, "tables");
    assert_int_equal(json_array_size(arr), FIG_LOBBY_MAX);
    assert_string_equal(json_string_value(json_object_get(json_array_get(arr, 0), "table")),
                        "C00059");
    assert_string_equal(json_string_value(json_object_get(json_array_get(arr, FIG_LOBBY_MAX - 1),
                                                          "table")), "C00010");
    json_decref(f);
    free(text);
    fig_lobby_free(&l);
}

/* The people's messages (docs/protocol.md, "People"): their fields read,
 * a bad key marks the hello without refusing it, a device code is read in
 * capitals, and their frames hold what the contract names (a key only when
 * given). */
static void test_people_messages(void **state)
{
    (void)state;
    fig_proto_msg_t m;
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1,\"key\":"
                           "\"00112233445566778899aabbccddeeff\"}", &m), FIG_PC_NONE);
    assert_string_equal(m.key, "00112233445566778899aabbccddeeff");
    assert_false(m.key_bad);
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1}", &m), FIG_PC_NONE);
    assert_string_equal(m.key, "");
    assert_false(m.key_bad);
    const char *bad_keys[] = { "\"00112233445566778899AABBCCDDEEFF\"", "\"0011\"", "12", "null",
                               "\"00112233445566778899aabbccddeeffa\"",
                               "\"0011223344556677889 aabbccddeeff\"" };
    for (size_t i = 0; i < sizeof bad_keys / sizeof *bad_keys; i++) {
        char f[200];
        snprintf(f, sizeof f, "{\"type\":\"hello\",\"v\":1,\"key\":%s}", bad_keys[i]);
        assert_int_equal(parse(f, &m), FIG_PC_NONE);
        assert_true(m.key_bad);
        assert_string_equal(m.key, "");
    }

    assert_int_equal(parse("{\"type\":\"person_new\",\"name\":\"  Ann  \"}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_PERSON_NEW);
    assert_string_equal(m.name, "Ann");
    assert_string_equal(fig_proto_type_name(m.type), "person_new");
    assert_int_equal(parse("{\"type\":\"person_new\"}", &m), FIG_PC_BAD_NAME);
    assert_int_equal(parse("{\"type\":\"person_new\",\"name\":\"\"}", &m), FIG_PC_BAD_NAME);
    assert_int_equal(parse("{\"type\":\"person_new\",\"name\":7}", &m), FIG_PC_BAD_MESSAGE);
    assert_true(m.typed);

    assert_int_equal(parse("{\"type\":\"resume\",\"table\":\"k7m2qx\",\"since\":{\"epoch\":"
                           "\"0011223344556677\",\"n\":4}}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_RESUME);
    assert_string_equal(m.table, "K7M2QX");
    assert_true(m.has_since);
    assert_int_equal(m.since, 4);
    assert_int_equal(parse("{\"type\":\"resume\"}", &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"resume\",\"table\":\"K7M\"}", &m), FIG_PC_NO_TABLE);

    assert_int_equal(parse("{\"type\":\"device_code\"}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_DEVICE_CODE);
    assert_int_equal(parse("{\"type\":\"redeem\",\"code\":\"abcd2345\"}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_REDEEM);
    assert_string_equal(m.code, "ABCD2345");
    assert_int_equal(parse("{\"type\":\"redeem\"}", &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"redeem\",\"code\":\"abcd234\"}", &m), FIG_PC_BAD_CODE);
    assert_int_equal(parse("{\"type\":\"redeem\",\"code\":\"abcd-345\"}", &m), FIG_PC_BAD_CODE);
    assert_int_equal(parse("{\"type\":\"redeem\",\"code\":\"abcd2345abcd2345abcd\"}", &m),
                     FIG_PC_BAD_CODE);
    assert_int_equal(parse("{\"type\":\"redeem\",\"code\":12345678}", &m), FIG_PC_BAD_MESSAGE);

    assert_int_equal(parse("{\"type\":\"person_set\",\"name\":\"Ann B\",\"hidden\":true}", &m),
                     FIG_PC_NONE);
    assert_string_equal(m.name, "Ann B");
    assert_int_equal(m.hidden, 1);
    assert_int_equal(parse("{\"type\":\"person_set\",\"hidden\":false}", &m), FIG_PC_NONE);
    assert_string_equal(m.name, "");
    assert_int_equal(m.hidden, 0);
    assert_int_equal(parse("{\"type\":\"person_set\"}", &m), FIG_PC_NONE);
    assert_int_equal(m.hidden, -1);
    assert_int_equal(parse("{\"type\":\"person_set\",\"name\":\"\"}", &m), FIG_PC_BAD_NAME);
    assert_int_equal(parse("{\"type\":\"person_set\",\"hidden\":1}", &m), FIG_PC_BAD_MESSAGE);
    assert_int_equal(parse("{\"type\":\"sign_out\"}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_SIGN_OUT);
    assert_int_equal(parse("{\"type\":\"forget_me\"}", &m), FIG_PC_NONE);
    assert_int_equal(m.type, FIG_PROTO_FORGET_ME);
    assert_string_equal(fig_proto_code_name(FIG_PC_BAD_KEY), "bad_key");
    assert_string_equal(fig_proto_code_name(FIG_PC_NOT_SIGNED_IN), "not_signed_in");

    /* The frames. */
    fig_proto_person_t p = { .id = "7QK2M9XAPB", .name = "Ann", .mu = 41.0, .sigma = 2.0,
                             .rated = 3, .nseats = 1 };
    snprintf(p.seats[0].table, sizeof p.seats[0].table, "K7M2QX");
    p.seats[0].seat = 2;
    json_t *o = fig_proto_person(&p);
    assert_null(json_object_get(o, "key"));   /* only to the connection that made it */
    assert_string_equal(json_string_value(json_object_get(o, "id")), "7QK2M9XAPB");
    assert_true(json_real_value(json_object_get(o, "shown")) == 35.0);
    json_t *b = json_object_get(o, "between");
    assert_string_equal(json_string_value(json_array_get(b, 0)), "easy");   /* at easy's mu */
    assert_string_equal(json_string_value(json_array_get(b, 1)), "easy");
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(json_object_get(o, "seats"), 0), "seat")), 2);
    json_decref(o);
    p.key = "00112233445566778899aabbccddeeff";
    p.mu = 10.0;
    o = fig_proto_person(&p);
    assert_string_equal(json_string_value(json_object_get(o, "key")), p.key);
    b = json_object_get(o, "between");
    assert_string_equal(json_string_value(json_array_get(b, 0)), "");
    assert_string_equal(json_string_value(json_array_get(b, 1)), "beginner");
    json_decref(o);
    o = fig_proto_rated("K7M2QX", 3, 99.0, 1.0, 50.0, 2.0);
    b = json_object_get(o, "between");
    assert_string_equal(json_string_value(json_array_get(b, 0)), "max");
    assert_string_equal(json_string_value(json_array_get(b, 1)), "");
    assert_true(json_real_value(json_object_get(json_object_get(o, "before"), "sigma")) == 2.0);
    assert_int_equal(json_integer_value(json_object_get(o, "game")), 3);
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages_read),
        cmocka_unit_test(test_bad_frames),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_view_r14),
        cmocka_unit_test(test_view_outcomes),
        cmocka_unit_test(test_outcome_example),
        cmocka_unit_test(test_table_frames),
        cmocka_unit_test(test_review_frame),
        cmocka_unit_test(test_lobby_messages),
        cmocka_unit_test(test_people_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
