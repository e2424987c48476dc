/* test_proto.c - the table server's messages (src/net/proto.h).
 *
 *   - every client message is read with its fields; names, codes, tokens
 *     and chat lines are checked and normalised;
 *   - each kind of bad frame gets its own error code and a sentence;
 *   - R14 in the builder: a view shows its hand and legal actions only to
 *     its own seat, stack counts and other seats' roads only on an open
 *     table or at the end of the game. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "net/proto.h"

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
    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"ABCDEF\",\"name\":\"Ann Lee\"}", &m),
                     FIG_PC_BAD_NAME);
    assert_int_equal(parse("{\"type\":\"join\",\"table\":\"ABCDEF\",\"name\":"
                           "\"abcdefghijabcdefghijabcdefghijabc\"}", &m), FIG_PC_BAD_NAME);
    assert_int_equal(parse("{\"type\":\"hello\",\"v\":1,\"seats\":[{\"table\":\"ABCDEF\","
                           "\"token\":\"secret\"}]}", &m), FIG_PC_BAD_TOKEN);
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
    static char big[FIG_PROTO_FRAME_MAX + 100];
    memset(big, ' ', sizeof big - 1);
    memcpy(big, "{\"type\":\"ping\"}", 15);
    assert_int_equal(parse(big, &m), FIG_PC_TOO_BIG);
    big[FIG_PROTO_FRAME_MAX] = '\0';   /* at the cap: fine */
    assert_int_equal(parse(big, &m), FIG_PC_NONE);
    for (int c = 1; c < FIG_PC_COUNT; c++)
        assert_string_not_equal(fig_proto_code_name((fig_proto_code_t)c), "?");
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
    fig_proto_show_t closed = { false }, open = { true };
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_messages_read),
        cmocka_unit_test(test_bad_frames),
        cmocka_unit_test(test_view_r14),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
