/* SPDX-License-Identifier: MIT */
/* proto.c - the table server's messages (proto.h, docs/protocol.md): the
 * parser of clients' frames (fuzzed: tests/fuzz/fuzz_proto.c), the names of
 * types and codes.
 *
 * Parsing is strict: a frame is one JSON object of at most
 * FIG_NET_FRAME_MAX bytes, with a string "type"; each message's fields are
 * read by small typed getters that check presence, type, length and range,
 * and copy into the fixed-size message. Unknown fields are ignored (a newer
 * client may send more), missing or wrong ones are refused with
 * FIG_PC_BAD_MESSAGE naming the field. The frames the server sends are
 * proto_out.c's. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figaro/fgn.h"
#include "host/lang.h"
#include "host/session.h"
#include "host/util.h"
#include "net/proto/proto.h"

static const char *const code_names[FIG_PC_COUNT] = {
    [FIG_PC_NONE] = "none",
    [FIG_PC_BAD_JSON] = "bad_json",
    [FIG_PC_TOO_BIG] = "too_big",
    [FIG_PC_BAD_MESSAGE] = "bad_message",
    [FIG_PC_UNKNOWN_TYPE] = "unknown_type",
    [FIG_PC_HELLO_FIRST] = "hello_first",
    [FIG_PC_VERSION] = "version",
    [FIG_PC_RATE] = "rate",
    [FIG_PC_NO_TABLE] = "no_table",
    [FIG_PC_TABLES_FULL] = "tables_full",
    [FIG_PC_BAD_SEATS] = "bad_seats",
    [FIG_PC_UNKNOWN_ENGINE] = "unknown_engine",
    [FIG_PC_NO_SEAT] = "no_seat",
    [FIG_PC_BAD_NAME] = "bad_name",
    [FIG_PC_BAD_TOKEN] = "bad_token",
    [FIG_PC_NOT_SEATED] = "not_seated",
    [FIG_PC_NOT_STARTED] = "not_started",
    [FIG_PC_NOT_YOUR_TURN] = "not_your_turn",
    [FIG_PC_STALE] = "stale",
    [FIG_PC_ILLEGAL] = "illegal",
    [FIG_PC_NOT_OVER] = "not_over",
    [FIG_PC_CHAT_FLOOD] = "chat_flood",
    [FIG_PC_STORAGE] = "storage",
    [FIG_PC_MOVED] = "moved",
    [FIG_PC_HINTS_OFF] = "hints_off",
    [FIG_PC_NOT_YOUR_SEAT] = "not_your_seat",
    [FIG_PC_BUSY] = "busy",
    [FIG_PC_BAD_KEY] = "bad_key",
    [FIG_PC_ALREADY] = "already",
    [FIG_PC_NOT_SIGNED_IN] = "not_signed_in",
    [FIG_PC_BAD_CODE] = "bad_code",
};

const char *fig_proto_code_name(fig_proto_code_t code)
{
    return code >= 0 && code < FIG_PC_COUNT ? code_names[code] : "?";
}

/* "a, b, c": the names name(0) .. name(n - 1), cut to cap - 1 bytes. */
static void join(char *out, size_t cap, int n, const char *(*name)(int))
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        fig_putf(out, cap, &len, "%s%s", i ? ", " : "", name(i));
}

/* ---- typed getters: each returns false with the error set */

typedef struct {
    fig_proto_code_t *code;
    fig_msg_t *msg;
    const fig_tr_t *tr;
} err_t;

/* fmt is an N_ msgid with one %s, the field's name. */
static bool bad(err_t *e, fig_proto_code_t code, const char *fmt, const char *field)
{
    *e->code = code;
    if (e->msg)
        snprintf(e->msg->text, sizeof e->msg->text, fig_tr_text(e->tr, fmt), field);
    return false;
}

/* bad() for an fmt with two %s: the field's name, then the choices. */
static bool bad_choice(err_t *e, fig_proto_code_t code, const char *fmt, const char *field,
                       int n, const char *(*name)(int))
{
    *e->code = code;
    if (e->msg) {
        char list[200];
        join(list, sizeof list, n, name);
        snprintf(e->msg->text, sizeof e->msg->text, fig_tr_text(e->tr, fmt), field, list);
    }
    return false;
}

/* A string field of at most cap - 1 bytes; absent is fine unless required. */
static bool get_str(err_t *e, const json_t *o, const char *key, bool required, char *out,
                    size_t cap)
{
    const json_t *v = json_object_get(o, key);
    if (!v) {
        if (required)
            return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is missing"), key);
        return true;
    }
    if (!json_is_string(v))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" must be a string"), key);
    size_t len = json_string_length(v);
    if (len >= cap)
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is too long"), key);
    const char *s = json_string_value(v);
    if (memchr(s, '\0', len))   /* JSON_ALLOW_NUL is off, but be sure */
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" holds a NUL character"), key);
    memcpy(out, s, len + 1);
    return true;
}

static bool get_int(err_t *e, const json_t *o, const char *key, bool required, long long lo,
                    long long hi, long long *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v) {
        if (required)
            return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is missing"), key);
        return true;
    }
    if (!json_is_integer(v))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" must be a whole number"), key);
    long long x = json_integer_value(v);
    if (x < lo || x > hi)
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is out of range"), key);
    *out = x;
    return true;
}

static bool get_bool(err_t *e, const json_t *o, const char *key, bool *out)
{
    const json_t *v = json_object_get(o, key);
    if (!v)
        return true;
    if (!json_is_boolean(v))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" must be true or false"), key);
    *out = json_is_true(v);
    return true;
}

/* An invite code: FIG_TABLE_CODE_LEN letters and digits, read in capitals. */
static bool get_code(err_t *e, const json_t *o, const char *key, char out[])
{
    char s[16] = "";
    if (!get_str(e, o, key, true, s, sizeof s))
        return false;
    if (strlen(s) != FIG_TABLE_CODE_LEN)
        return bad(e, FIG_PC_NO_TABLE, N_("\"%s\" is not a table code"), key);
    for (int i = 0; i < FIG_TABLE_CODE_LEN; i++) {
        if (!isalnum((unsigned char)s[i]))
            return bad(e, FIG_PC_NO_TABLE, N_("\"%s\" is not a table code"), key);
        out[i] = (char)toupper((unsigned char)s[i]);
    }
    out[FIG_TABLE_CODE_LEN] = '\0';
    return true;
}

static bool all_hex(const char *s, size_t n)
{
    if (strlen(s) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
            return false;
    return true;
}

/* "since": {"epoch": "16 hex", "n": 57}, optional. */
static bool get_since(err_t *e, const json_t *o, bool *has, char epoch[], long long *n)
{
    const json_t *v = json_object_get(o, "since");
    *has = false;
    if (!v)
        return true;
    if (!json_is_object(v))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" must be an object"), "since");
    char ep[FIG_PROTO_EPOCH_LEN + 2] = "";
    if (!get_str(e, v, "epoch", true, ep, sizeof ep) ||
        !get_int(e, v, "n", true, 0, INT64_MAX / 2, n))
        return false;
    if (!all_hex(ep, FIG_PROTO_EPOCH_LEN))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is not an epoch"), "since.epoch");
    memcpy(epoch, ep, FIG_PROTO_EPOCH_LEN + 1);
    *has = true;
    return true;
}

/* "name", optional: cleaned; "" stays "" (the caller says whether it may). */
static bool get_name(err_t *e, const json_t *o, char out[])
{
    char s[4 * FIG_PERSON_NAME_BYTES + 1] = "";
    const json_t *v = json_object_get(o, "name");
    if (v && json_is_string(v) && json_string_length(v) >= sizeof s) {
        *e->code = FIG_PC_BAD_NAME;
        fig_fail_tr(e->msg, e->tr, FIG_ERR_INPUT, N_("a name has at most %d characters"),
                    FIG_PERSON_NAME_CHARS);
        return false;
    }
    if (!get_str(e, o, "name", false, s, sizeof s))
        return false;
    if (!v || !s[0]) {
        out[0] = '\0';
        return true;
    }
    if (fig_name_clean(s, e->tr, out, e->msg)) {
        *e->code = FIG_PC_BAD_NAME;
        return false;
    }
    return true;
}

/* ---- the messages */

/* One seat of a hello: {"table", "token", "since"?}. On failure d->table is
 * the code if it was read, else "". */
static bool parse_held(err_t *e, const json_t *h, fig_proto_held_t *d)
{
    if (!json_is_object(h))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("each of \"%s\" must be an object"), "seats");
    char tok[FIG_PROTO_TOKEN_LEN + 2] = "";
    if (!get_code(e, h, "table", d->table)) {
        d->table[0] = '\0';
        return false;
    }
    if (!get_str(e, h, "token", true, tok, sizeof tok))
        return false;
    if (!all_hex(tok, FIG_PROTO_TOKEN_LEN))
        return bad(e, FIG_PC_BAD_TOKEN, N_("\"%s\" is not a token"), "token");
    memcpy(d->token, tok, FIG_PROTO_TOKEN_LEN + 1);
    return get_since(e, h, &d->has_since, d->epoch, &d->since);
}

/* ---- people (docs/protocol.md, "People") */

/* hello's "key", optional: 32 lowercase hex digits. One that is not a key
 * does not refuse the hello (the seats it takes back are still taken):
 * key_bad, and the server answers bad_key after its welcome. */
static void get_key(const json_t *o, fig_proto_msg_t *m)
{
    const json_t *k = json_object_get(o, "key");
    if (!k)
        return;
    if (!json_is_string(k) || json_string_length(k) != FIG_PROTO_KEY_LEN ||
        !all_hex(json_string_value(k), FIG_PROTO_KEY_LEN)) {
        m->key_bad = true;
        return;
    }
    memcpy(m->key, json_string_value(k), FIG_PROTO_KEY_LEN + 1);
}

/* "name", required and not empty (person_new), or optional (person_set:
 * "" when absent). */
static bool get_person_name(err_t *e, const json_t *o, bool required, char out[])
{
    if (!get_name(e, o, out))
        return false;
    if (!out[0] && (required || json_object_get(o, "name"))) {
        *e->code = FIG_PC_BAD_NAME;
        fig_fail_tr(e->msg, e->tr, FIG_ERR_INPUT, N_("a name has 1 to %d characters"),
                    FIG_PERSON_NAME_CHARS);
        return false;
    }
    return true;
}

/* redeem's "code": FIG_PROTO_DEVICE_CODE_LEN letters and digits, read in
 * capitals (a person may type it in small letters). Anything else is
 * bad_code, the answer an unknown code gets. */
static bool get_device_code(err_t *e, const json_t *o, char out[])
{
    char s[16] = "";
    const json_t *v = json_object_get(o, "code");
    if (v && json_is_string(v) && json_string_length(v) >= sizeof s)
        return bad(e, FIG_PC_BAD_CODE, N_("\"%s\" is not a device code"), "code");
    if (!get_str(e, o, "code", true, s, sizeof s))
        return false;
    if (strlen(s) != FIG_PROTO_DEVICE_CODE_LEN)
        return bad(e, FIG_PC_BAD_CODE, N_("\"%s\" is not a device code"), "code");
    for (int i = 0; i < FIG_PROTO_DEVICE_CODE_LEN; i++) {
        if (!isalnum((unsigned char)s[i]))
            return bad(e, FIG_PC_BAD_CODE, N_("\"%s\" is not a device code"), "code");
        out[i] = (char)toupper((unsigned char)s[i]);
    }
    out[FIG_PROTO_DEVICE_CODE_LEN] = '\0';
    return true;
}

/* The people's messages without a table: person_new, device_code, redeem,
 * person_set, sign_out, forget_me. */
static bool parse_person(err_t *e, const json_t *o, fig_proto_msg_t *m)
{
    bool hidden = false;
    m->hidden = -1;
    switch (m->type) {
    case FIG_PROTO_PERSON_NEW:
        return get_person_name(e, o, true, m->name);
    case FIG_PROTO_REDEEM:
        return get_device_code(e, o, m->code);
    case FIG_PROTO_PERSON_SET:
        if (!get_person_name(e, o, false, m->name) || !get_bool(e, o, "hidden", &hidden))
            return false;
        if (json_object_get(o, "hidden"))
            m->hidden = hidden;
        return true;
    default:   /* device_code, sign_out, forget_me: the type alone */
        return true;
    }
}

static bool parse_hello(err_t *e, const json_t *o, fig_proto_msg_t *m)
{
    long long v = 0;
    if (!get_int(e, o, "v", true, 0, 1000000, &v))
        return false;
    m->version = (int)v;
    strcpy(m->lang, "en");
    char lang[sizeof m->lang] = "";
    if (!get_str(e, o, "lang", false, lang, sizeof lang))
        return false;
    if (lang[0]) {
        if (!fig_lang_known(lang))
            return bad_choice(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is one of %s"),
                              "lang", fig_lang_count(), fig_lang_code);
        memcpy(m->lang, lang, sizeof lang);
    }
    if (!get_name(e, o, m->name))
        return false;
    if (json_object_get(o, "name") && !m->name[0]) {   /* "": 1 to 32 characters */
        *e->code = FIG_PC_BAD_NAME;
        fig_fail_tr(e->msg, e->tr, FIG_ERR_INPUT, N_("a name has 1 to %d characters"),
                    FIG_PERSON_NAME_CHARS);
        return false;
    }
    get_key(o, m);
    const json_t *seats = json_object_get(o, "seats");
    if (!seats)
        return true;
    if (!json_is_array(seats) || json_array_size(seats) > FIG_PROTO_HELD_MAX)
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" must be a list of at most 8 seats"),
                   "seats");
    for (size_t i = 0; i < json_array_size(seats); i++) {
        fig_proto_held_t *d = &m->held[m->nheld++];
        fig_proto_code_t code = FIG_PC_NONE;
        fig_msg_t why;
        err_t se = { &code, &why, e->tr };
        if (!parse_held(&se, json_array_get(seats, i), d)) {
            d->bad = code;
            snprintf(d->bad_text, sizeof d->bad_text, "%s", why.text);
        }
    }
    return true;
}

static bool parse_create(err_t *e, const json_t *o, fig_proto_msg_t *m)
{
    const json_t *seats = json_object_get(o, "seats");
    if (!seats)
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is missing"), "seats");
    if (!json_is_array(seats))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" must be a list"), "seats");
    size_t n = json_array_size(seats);
    if (n < FIG_MIN_PLAYERS || n > FIG_MAX_PLAYERS)
        return bad(e, FIG_PC_BAD_SEATS, N_("a table has 3 to 6 seats (\"%s\")"), "seats");
    m->players = (int)n;
    for (size_t i = 0; i < n; i++) {
        const json_t *s = json_array_get(seats, i);
        fig_proto_seat_t *d = &m->seats[i];
        char kind[16] = "";
        if (!json_is_object(s))
            return bad(e, FIG_PC_BAD_MESSAGE, N_("each of \"%s\" must be an object"), "seats");
        if (!get_str(e, s, "kind", true, kind, sizeof kind))
            return false;
        if (strcmp(kind, "person") == 0) {
            d->kind = FIG_SEAT_OPEN;
        } else if (strcmp(kind, "bot") == 0) {
            d->kind = FIG_SEAT_BOT;
            if (!get_str(e, s, "level", true, d->what, sizeof d->what))
                return false;
            if (!fig_level_ok(d->what))
                return bad_choice(e, FIG_PC_BAD_SEATS, N_("a bot's \"%s\" is one of %s"),
                                  "level", fig_level_count(), fig_level_name);
        } else if (strcmp(kind, "engine") == 0) {
            d->kind = FIG_SEAT_ENGINE;
            if (!get_str(e, s, "engine", true, d->what, sizeof d->what))
                return false;
        } else {
            return bad(e, FIG_PC_BAD_SEATS, N_("a seat's \"%s\" is person, bot or engine"),
                       "kind");
        }
    }
    long long secs = 0;
    if (!get_int(e, o, "move_seconds", false, 0, FIG_PROTO_MOVE_SECONDS_MAX, &secs) ||
        !get_bool(e, o, "open", &m->open))
        return false;
    m->move_seconds = (int)secs;
    bool hints = false;
    const json_t *h = json_object_get(o, "hints");
    if (!get_bool(e, o, "hints", &hints))
        return false;
    m->hints = h ? hints : -1;
    if (!get_bool(e, o, "listed", &m->listed))
        return false;
    strcpy(m->fill, FIG_BOT_LEVEL_DEFAULT);
    char fill[sizeof m->fill] = "";
    if (!get_str(e, o, "fill", false, fill, sizeof fill))
        return false;
    if (fill[0]) {
        if (!fig_level_ok(fill))
            return bad_choice(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is one of %s"),
                              "fill", fig_level_count(), fig_level_name);
        strcpy(m->fill, fill);
    }
    return true;
}

static bool parse_chat(err_t *e, const json_t *o, fig_proto_msg_t *m)
{
    const json_t *v = json_object_get(o, "text");
    if (v && json_is_string(v) && json_string_length(v) > FIG_PROTO_CHAT_MAX)
        return bad(e, FIG_PC_BAD_MESSAGE, N_("a chat line has at most 200 bytes (\"%s\")"),
                   "text");
    if (!get_str(e, o, "text", true, m->text, sizeof m->text))
        return false;
    /* Control characters become spaces: a line stays one line in any client. */
    bool any = false;
    for (char *p = m->text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 || c == 0x7f)
            *p = ' ';
        if (*p != ' ')
            any = true;
    }
    if (!any)
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is empty"), "text");
    return true;
}

static const struct {
    const char *name;
    fig_proto_type_t type;
} types[] = {
    { "hello", FIG_PROTO_HELLO },   { "create", FIG_PROTO_CREATE },
    { "join", FIG_PROTO_JOIN },     { "spectate", FIG_PROTO_SPECTATE },
    { "act", FIG_PROTO_ACT },       { "leave", FIG_PROTO_LEAVE },
    { "back", FIG_PROTO_BACK },     { "rematch", FIG_PROTO_REMATCH },
    { "chat", FIG_PROTO_CHAT },     { "ping", FIG_PROTO_PING },
    { "hint", FIG_PROTO_HINT },     { "review", FIG_PROTO_REVIEW },
    { "lobby", FIG_PROTO_LOBBY },
    { "person_new", FIG_PROTO_PERSON_NEW },   { "resume", FIG_PROTO_RESUME },
    { "device_code", FIG_PROTO_DEVICE_CODE }, { "redeem", FIG_PROTO_REDEEM },
    { "person_set", FIG_PROTO_PERSON_SET },   { "sign_out", FIG_PROTO_SIGN_OUT },
    { "forget_me", FIG_PROTO_FORGET_ME },
};

const char *fig_proto_type_name(fig_proto_type_t type)
{
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (types[i].type == type)
            return types[i].name;
    return "?";
}

static bool parse_object(err_t *e, const json_t *o, fig_proto_msg_t *m)
{
    char type[16] = "";
    const json_t *t = json_object_get(o, "type");
    if (!t || !json_is_string(t))
        return bad(e, FIG_PC_BAD_MESSAGE, N_("the field \"%s\" is missing"), "type");
    if (json_string_length(t) >= sizeof type)
        return bad(e, FIG_PC_UNKNOWN_TYPE, N_("unknown message type (\"%s\")"), "type");
    memcpy(type, json_string_value(t), json_string_length(t) + 1);
    size_t i;
    for (i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(type, types[i].name) == 0)
            break;
    if (i == sizeof types / sizeof types[0])
        return bad(e, FIG_PC_UNKNOWN_TYPE, N_("unknown message type (\"%s\")"), "type");
    m->type = types[i].type;
    m->typed = true;
    m->seat = -1;
    long long x = 0;
    switch (m->type) {
    case FIG_PROTO_HELLO:
        return parse_hello(e, o, m);
    case FIG_PROTO_CREATE:
        return parse_create(e, o, m);
    case FIG_PROTO_PING:
        return true;
    case FIG_PROTO_LOBBY:
        m->on = true;
        return get_bool(e, o, "on", &m->on);
    case FIG_PROTO_PERSON_NEW:
    case FIG_PROTO_DEVICE_CODE:
    case FIG_PROTO_REDEEM:
    case FIG_PROTO_PERSON_SET:
    case FIG_PROTO_SIGN_OUT:
    case FIG_PROTO_FORGET_ME:
        return parse_person(e, o, m);
    default:
        break;
    }
    if (!get_code(e, o, "table", m->table)) {
        m->table[0] = '\0';
        return false;
    }
    switch (m->type) {
    case FIG_PROTO_JOIN:
        x = -1;
        if (!get_name(e, o, m->name) ||
            !get_int(e, o, "seat", false, -1, FIG_MAX_PLAYERS - 1, &x))
            return false;
        m->seat = (int)x;
        return get_since(e, o, &m->has_since, m->epoch, &m->since);
    case FIG_PROTO_SPECTATE:
    case FIG_PROTO_RESUME:
        return get_since(e, o, &m->has_since, m->epoch, &m->since);
    case FIG_PROTO_ACT:
        return get_int(e, o, "n", true, 0, INT64_MAX / 2, &m->n) &&
               get_str(e, o, "action", true, m->action, sizeof m->action);
    case FIG_PROTO_HINT:
        return get_int(e, o, "n", true, 0, INT64_MAX / 2, &m->n);
    case FIG_PROTO_REVIEW:
        x = -1;
        if (!get_int(e, o, "seat", false, -1, FIG_MAX_PLAYERS - 1, &x))
            return false;
        m->seat = (int)x;
        if (!get_int(e, o, "game", true, 1, 1000000000, &x))
            return false;
        m->game = (int)x;
        return true;
    case FIG_PROTO_REMATCH:
        if (!get_int(e, o, "game", true, 1, 1000000000, &x))
            return false;
        m->game = (int)x;
        m->ready = true;   /* a version-1 client without the field asks */
        return get_bool(e, o, "ready", &m->ready);
    case FIG_PROTO_CHAT:
        return parse_chat(e, o, m);
    default:   /* leave, back: the table alone */
        return true;
    }
}

fig_err_t fig_proto_parse(const char *text, size_t len, const fig_tr_t *tr, fig_proto_msg_t *out,
                          fig_proto_code_t *code, fig_msg_t *msg)
{
    fig_proto_code_t dummy;
    if (!code)
        code = &dummy;
    *code = FIG_PC_NONE;
    memset(out, 0, sizeof *out);
    if (len > FIG_NET_FRAME_MAX) {
        *code = FIG_PC_TOO_BIG;
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a message has at most %d bytes"),
                           FIG_NET_FRAME_MAX);
    }
    json_error_t jerr;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!o || !json_is_object(o)) {
        json_decref(o);
        *code = FIG_PC_BAD_JSON;
        return fig_fail_tr(msg, tr, FIG_ERR_INPUT, N_("a message is one JSON object"));
    }
    err_t e = { code, msg, tr };
    bool ok = parse_object(&e, o, out);
    json_decref(o);
    return ok ? FIG_OK : FIG_ERR_INPUT;
}
