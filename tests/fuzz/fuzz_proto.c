/* SPDX-License-Identifier: MIT */
/* fuzz_proto.c - libFuzzer target for the table server's message parser
 * (src/net/proto/proto.c), as the service calls it with each client frame.
 *
 * Nothing may crash, leak or read out of bounds, and the parser's answer
 * must keep its invariants: an accepted message has a known type, its
 * strings are NUL-terminated within their fields, a name is clean (cleaning
 * it again changes nothing) and its record form is one FGN can hold, a
 * table code is six capitals or digits, a chat line has no control
 * character, a hello's seat is either read (code, token) or refused alone
 * (an error code and a sentence), a lobby message names no table; a
 * person's key is 32 lowercase hex digits or absent (a bad one marked,
 * never kept), a device code 8 capitals or digits, a person_new's name
 * never empty; a refused message has an error code with a name and a
 * sentence. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/session.h"
#include "net/proto/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_code(const char *code)
{
    if (strlen(code) != FIG_TABLE_CODE_LEN)
        abort();
    for (const char *c = code; *c; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fig_proto_msg_t m;
    fig_proto_code_t code;
    fig_msg_t msg;
    if (fig_proto_parse((const char *)data, size, NULL, &m, &code, &msg) != FIG_OK) {
        if (code <= FIG_PC_NONE || code >= FIG_PC_COUNT || !msg.text[0] ||
            strcmp(fig_proto_code_name(code), "?") == 0)
            abort();
        return 0;
    }
    if (m.type >= FIG_PROTO_TYPE_COUNT || strcmp(fig_proto_type_name(m.type), "?") == 0 ||
        memchr(m.name, 0, sizeof m.name) == NULL ||
        memchr(m.text, 0, sizeof m.text) == NULL || memchr(m.action, 0, sizeof m.action) == NULL)
        abort();
    if (m.name[0]) {
        char again[FIG_PERSON_NAME_BYTES + 1], rec[FIG_NAME_MAX + 1];
        if (fig_name_clean(m.name, NULL, again, &msg) != FIG_OK ||
            strcmp(again, m.name) != 0)
            abort();
        fig_name_record(m.name, rec);
        if (!fig_session_name_ok(rec))
            abort();
    }
    switch (m.type) {
    case FIG_PROTO_HELLO:
        if (m.version < 0 || m.nheld < 0 || m.nheld > FIG_PROTO_HELD_MAX)
            abort();
        for (int i = 0; i < m.nheld; i++) {
            const fig_proto_held_t *h = &m.held[i];
            if (h->bad) {
                if (h->bad >= FIG_PC_COUNT || !h->bad_text[0] ||
                    memchr(h->bad_text, 0, sizeof h->bad_text) == NULL)
                    abort();
                if (h->table[0])
                    check_code(h->table);
                continue;
            }
            check_code(h->table);
            if (strlen(h->token) != FIG_PROTO_TOKEN_LEN)
                abort();
        }
        if (memchr(m.key, 0, sizeof m.key) == NULL || (m.key[0] && m.key_bad))
            abort();
        if (m.key[0]) {
            if (strlen(m.key) != FIG_PROTO_KEY_LEN)
                abort();
            for (const char *c = m.key; *c; c++)
                if (!((*c >= 'a' && *c <= 'f') || (*c >= '0' && *c <= '9')))
                    abort();
        }
        break;
    case FIG_PROTO_PERSON_NEW:
        if (!m.name[0])
            abort();
        break;
    case FIG_PROTO_REDEEM:
        if (strlen(m.code) != FIG_PROTO_DEVICE_CODE_LEN)
            abort();
        for (const char *c = m.code; *c; c++)
            if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
                abort();
        break;
    case FIG_PROTO_PERSON_SET:
        if (m.hidden < -1 || m.hidden > 1)
            abort();
        break;
    case FIG_PROTO_DEVICE_CODE:
    case FIG_PROTO_SIGN_OUT:
    case FIG_PROTO_FORGET_ME:
        break;
    case FIG_PROTO_CREATE:
        if (m.players < FIG_MIN_PLAYERS || m.players > FIG_MAX_PLAYERS ||
            !fig_level_ok(m.fill) || m.hints < -1 || m.hints > 1)
            abort();
        for (int i = 0; i < m.players; i++)
            if (m.seats[i].kind == FIG_SEAT_BOT && !fig_level_ok(m.seats[i].what))
                abort();
        break;
    case FIG_PROTO_PING:
        break;
    case FIG_PROTO_LOBBY:   /* no table: `on` alone */
        if (m.table[0])
            abort();
        break;
    default:
        check_code(m.table);
        if (m.type == FIG_PROTO_CHAT) {
            if (!m.text[0] || strlen(m.text) > FIG_PROTO_CHAT_MAX)
                abort();
            for (const char *c = m.text; *c; c++)
                if ((unsigned char)*c < 0x20 || *c == 0x7f)
                    abort();
        }
        if (m.type == FIG_PROTO_REVIEW &&
            (m.game < 1 || m.seat < -1 || m.seat >= FIG_MAX_PLAYERS))
            abort();
        break;
    }
    return 0;
}
