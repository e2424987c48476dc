/* SPDX-License-Identifier: MIT */
/* proto.h - the table server's protocol (docs/protocol.md): JSON messages
 * over one WebSocket, version FIG_PROTO_VERSION.
 *
 * A client's frame is parsed whole into a fig_proto_msg_t, a flat value with
 * every field checked (types, lengths, ranges) before anything else sees it:
 * the rest of the server never touches untrusted JSON. A frame that is not a
 * message gets an error code (fig_proto_code_t) and a sentence, and nothing
 * else happens.
 *
 * The server's messages are built here too, as jansson objects, from a seat's
 * view (fig_view_t) and never from a full state (R14): fig_proto_view_json
 * shows a hand only when it is given the seat it belongs to. */
#ifndef FIGARO_NET_PROTO_H
#define FIGARO_NET_PROTO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "figaro/figaro.h"
#include "figaro/match.h"
#include "host/hint.h"
#include "host/review.h"
#include "host/lang.h"
#include "host/narrate.h"
#include "net/base/limits.h"
#include "net/base/names.h"

enum {
    FIG_PROTO_VERSION = 1,
    FIG_PROTO_TOKEN_LEN = 32,        /* a seat's token: 32 hex digits, 128 bits */
    FIG_PROTO_EPOCH_LEN = 16,        /* the server's life: 16 hex digits */
    FIG_PROTO_CHAT_MAX = 200,        /* bytes of one chat line (UTF-8) */
    FIG_PROTO_HELD_MAX = 8,          /* seats one hello may take back */
    FIG_PROTO_MOVE_SECONDS_MAX = 3600,
    FIG_PROTO_KEY_LEN = 32,          /* a person's key: 32 hex digits, 128 bits */
    FIG_PROTO_DEVICE_CODE_LEN = 8,   /* a device code: 8 signs of the code alphabet */
    FIG_PROTO_PERSON_ID_LEN = 10     /* a person's public id: 10 signs of that alphabet */
};

/* What a client asks. */
typedef enum {
    FIG_PROTO_HELLO,
    FIG_PROTO_CREATE,
    FIG_PROTO_JOIN,
    FIG_PROTO_SPECTATE,
    FIG_PROTO_ACT,
    FIG_PROTO_LEAVE,
    FIG_PROTO_BACK,
    FIG_PROTO_REMATCH,
    FIG_PROTO_CHAT,
    FIG_PROTO_PING,
    FIG_PROTO_HINT,
    FIG_PROTO_REVIEW,
    FIG_PROTO_LOBBY,
    /* people (docs/protocol.md, "People") */
    FIG_PROTO_PERSON_NEW,
    FIG_PROTO_RESUME,
    FIG_PROTO_DEVICE_CODE,
    FIG_PROTO_REDEEM,
    FIG_PROTO_PERSON_SET,
    FIG_PROTO_SIGN_OUT,
    FIG_PROTO_FORGET_ME,
    FIG_PROTO_TYPE_COUNT
} fig_proto_type_t;

/* Error codes, sent as their names (fig_proto_code_name). Keep in the order
 * of docs/protocol.md's table. */
typedef enum {
    FIG_PC_NONE = 0,
    FIG_PC_BAD_JSON,         /* not a JSON object */
    FIG_PC_TOO_BIG,          /* frame over FIG_NET_FRAME_MAX */
    FIG_PC_BAD_MESSAGE,      /* a field missing, of the wrong type or out of range */
    FIG_PC_UNKNOWN_TYPE,     /* "type" names no message */
    FIG_PC_HELLO_FIRST,      /* anything before hello */
    FIG_PC_VERSION,          /* a protocol version we do not speak */
    FIG_PC_RATE,             /* too many messages: slow down */
    FIG_PC_NO_TABLE,         /* no table has that code */
    FIG_PC_TABLES_FULL,      /* the server holds --max-tables tables */
    FIG_PC_BAD_SEATS,        /* create: a seat list the server cannot seat */
    FIG_PC_UNKNOWN_ENGINE,   /* create: no engine of that name was registered */
    FIG_PC_NO_SEAT,          /* join: no open seat (or that one is taken) */
    FIG_PC_BAD_NAME,         /* a name FGN cannot hold */
    FIG_PC_BAD_TOKEN,        /* a token that holds no seat of that table */
    FIG_PC_NOT_SEATED,       /* this connection holds no seat at that table */
    FIG_PC_NOT_STARTED,      /* the game waits for people to take the open seats */
    FIG_PC_NOT_YOUR_TURN,    /* another seat is to move, or a bot plays yours */
    FIG_PC_STALE,            /* the action answers an event that is not the latest */
    FIG_PC_ILLEGAL,          /* the rules refuse the action */
    FIG_PC_NOT_OVER,         /* rematch before the game's end */
    FIG_PC_CHAT_FLOOD,       /* chat faster than allowed */
    FIG_PC_STORAGE,          /* the database refused: nothing was done */
    FIG_PC_HINTS_OFF,        /* hint: the table was made without hints */
    FIG_PC_MOVED,            /* another server drives that table (several servers on one
                                database): `node` names it */
    FIG_PC_NOT_YOUR_SEAT,    /* review: another seat's */
    FIG_PC_BUSY,             /* review: the server reviews as many games as it may */
    /* people */
    FIG_PC_BAD_KEY,          /* hello: a key that is no person's (or not a key) */
    FIG_PC_ALREADY,          /* person_new: this connection is signed in already */
    FIG_PC_NOT_SIGNED_IN,    /* a person's message from a connection not signed in */
    FIG_PC_BAD_CODE,         /* redeem: unknown, used or expired (one answer for all) */
    FIG_PC_COUNT
} fig_proto_code_t;

/* A seat of a table being created. */
typedef enum { FIG_SEAT_OPEN, FIG_SEAT_BOT, FIG_SEAT_ENGINE } fig_seat_kind_t;

typedef struct {
    fig_seat_kind_t kind;
    char what[FIG_ENGINE_NAME_MAX + 1];   /* a bot's level, an engine's name */
} fig_proto_seat_t;

/* A seat a hello takes back: its table, token, and where the client's log
 * of that table stopped (epoch and event number), if it has one. A seat
 * that does not read (a malformed token, code or since) has `bad` set. */
typedef struct {
    char table[FIG_TABLE_CODE_LEN + 1];
    char token[FIG_PROTO_TOKEN_LEN + 1];
    bool has_since;
    char epoch[FIG_PROTO_EPOCH_LEN + 1];
    long long since;
    fig_proto_code_t bad;           /* FIG_PC_NONE, or why this seat cannot be read: the
                                       hello is still read, and this seat alone refused */
    char bad_text[200];             /* ... and the sentence (`table` "" if unreadable) */
} fig_proto_held_t;

/* One client message, checked. Only the fields of its type are set. When
 * the parse fails, `typed` says whether `type` was read all the same, and
 * `table` holds the table's code if it was read: the error answers them
 * (`re`, `table`). */
typedef struct {
    fig_proto_type_t type;
    bool typed;
    /* hello */
    int version;
    char lang[FIG_LANG_CODE_MAX + 1];            /* fig_lang_known; "en" when not given */
    int nheld;
    fig_proto_held_t held[FIG_PROTO_HELD_MAX];
    /* hello, join: the person's name, cleaned (fig_name_clean); "" if none */
    char name[FIG_PERSON_NAME_BYTES + 1];
    /* create */
    int players;
    fig_proto_seat_t seats[FIG_MAX_PLAYERS];
    int move_seconds;                            /* 0: no limit */
    bool open;
    char fill[FIG_LEVEL_NAME_MAX + 1];          /* level that plays for the absent */
    int hints;                                   /* 1 on, 0 off, -1 not given: on only
                                                    at a table of one person */
    bool listed;                                 /* create: shown in the lobby */
    /* lobby */
    bool on;                                     /* subscribes (true, the default) or not */
    /* join, spectate, act, leave, back, rematch, chat, hint, review */
    char table[FIG_TABLE_CODE_LEN + 1];
    int seat;                                    /* join: a seat, or -1 for any open one;
                                                    review: the seat, -1 the sender's */
    bool has_since;                              /* spectate, join: catch-up from here */
    char epoch[FIG_PROTO_EPOCH_LEN + 1];
    long long since;
    long long n;                                 /* act, hint: the event it answers */
    char action[12];                             /* act: FGN syntax */
    int game;                                    /* rematch: the game it follows; review:
                                                    the game reviewed */
    bool ready;                                  /* rematch: asks (true, the default) or
                                                    withdraws (false) */
    char text[FIG_PROTO_CHAT_MAX + 1];           /* chat */
    /* hello: a person's key ("" none); key_bad: one was given that is not a
     * key (the hello is still read: welcome, then bad_key) */
    char key[FIG_PROTO_KEY_LEN + 1];
    bool key_bad;
    /* redeem: the device code, in capitals */
    char code[FIG_PROTO_DEVICE_CODE_LEN + 1];
    /* person_set: hidden 1 or 0, -1 not given (its name: `name`, "" not given) */
    int hidden;
} fig_proto_msg_t;

/* Parses one client frame (len bytes, not NUL-terminated). Returns FIG_OK and
 * fills *out, or FIG_ERR_INPUT with the error code in *code and a sentence
 * in msg, in tr's language (NULL: English). Never reads beyond len. */
fig_err_t fig_proto_parse(const char *text, size_t len, const fig_tr_t *tr, fig_proto_msg_t *out,
                          fig_proto_code_t *code, fig_msg_t *msg);

/* The message type's name on the wire ("hello", ...); "?" out of range. */
const char *fig_proto_type_name(fig_proto_type_t type);

/* The code's name on the wire ("bad_json", ...); "?" out of range. */
const char *fig_proto_code_name(fig_proto_code_t code);

/* ---- building the server's messages ---- */

/* What a view shows beyond R14's public part. */
typedef struct {
    bool open;           /* the table's `open` option: stacks and roads in play */
    /* The receiver's narrator (the seats' names, its language; nr->me its
     * seat), or NULL: with it, a seat's own view on its turn says why each
     * card of its hand that no legal action plays cannot go in front of each
     * seat (`reasons`), so that a client never asks with an action. */
    const fig_narrator_t *nr;
} fig_proto_show_t;

/* A view as JSON. `me` is the seat the view is sent to, or -1 for a
 * spectator: the hand (v->hand) and the legal actions are included only when
 * me == v->seat, with each action's outcome as the engine plays it
 * (`outcomes`: public piles and the mover's own card only) and, given
 * show->nr, the reasons of the cards no action plays (`reasons`: the
 * engine's refusals from that same view, so they name public piles and the
 * seat's own cards only). Stack counts and other seats' road lengths only
 * when show->open or at the end of the game (R14); road piece counts always;
 * the final ranking when the game is over. */
json_t *fig_proto_view_json(const fig_view_t *v, int me, const fig_proto_show_t *show);

/* A step's public events (state.h) as a JSON array, for animation. */
json_t *fig_proto_events_json(const fig_match_step_t *step, int players);

/* A card kind as its FGN code; an action in FGN syntax. */
json_t *fig_proto_action_json(fig_action_t a);

/* A hand as the array of its cards' codes, kind by kind: ["R1","R1","J2"]. */
json_t *fig_proto_hand_json(const fig_hand_t *h);

/* ---- the service's frames ---- */

/* welcome (docs/protocol.md): the server's epoch, the hello's language, the
 * engines the operator registered, the levels (fig_level_name) and the
 * languages (host/lang.h) it takes, and its limits. */
json_t *fig_proto_welcome(const char *epoch, const char *lang, const char *server,
                          const char *const engines[], int nengines);

/* {"type":"error","code":C,"text":T[,"re":R][,"table":CODE]}; re and table
 * NULL: absent. */
/* An error `moved`: table is driven by the server named node. */
json_t *fig_proto_moved(const char *text, const char *re, const char *table, const char *node);
json_t *fig_proto_error(fig_proto_code_t code, const char *text, const char *re,
                        const char *table);

/* {"type":"pong"}. */
json_t *fig_proto_pong(void);

/* ---- a table's frames (table_*.c decide what happened; these say it) ---- */

/* {"type":TYPE,"table":CODE}, to which the caller adds its fields. */
json_t *fig_proto_table_msg(const char *type, const char *table);

/* A seat as a table's frames show it (`seats` of a start, a seat's news, a
 * snapshot). */
typedef struct {
    const char *kind;              /* "open", "person", "bot", "engine" */
    const char *name;              /* NULL: null (an open seat before the first game) */
    const char *level, *engine;    /* a bot's level, an engine's name; else NULL */
    const char *status;            /* "open", "present", "away", "bot" */
} fig_proto_seat_info_t;

json_t *fig_proto_seats_json(const fig_proto_seat_info_t *seats, int n);

/* The vote for the next game once game `game` is over:
 * {"game":1,"votes":["ready","waiting","bot"],"ready":1,"of":2}. */
typedef struct {
    int game, n;                            /* n: seats */
    const char *votes[FIG_MAX_PLAYERS];     /* "bot", "waiting", "ready" */
    int ready, of;
} fig_proto_tally_t;

json_t *fig_proto_tally_json(const fig_proto_tally_t *y);

/* An event that is no step of the game: a game's start, a chat line, a
 * rematch vote or a seat's news (docs/protocol.md, event). */
typedef struct {
    const char *table;
    long long n;
    int game;
    const char *kind;                  /* "start", "chat", "rematch", "seat" */
    int seat;                          /* chat: -1 for a spectator (null) */
    const char *name, *text;           /* chat, rematch, seat; text: chat */
    bool ready;                        /* rematch */
    const char *news;                  /* seat: "taken", "away", ... */
    const fig_proto_seat_info_t *seats;   /* start, seat: the seats now */
    int nseats;
    const fig_proto_tally_t *tally;    /* NULL: no vote under way */
    const char *say;                   /* its sentence; "": none */
} fig_proto_other_t;

json_t *fig_proto_other_event(const fig_proto_other_t *e);

/* A deal or an action as seat `me` (-1: a spectator) sees it: `after` its
 * view after the step, `say` the sentences (an array, taken), `record` the
 * game's record's path once the step ends the game (else NULL). */
json_t *fig_proto_game_event(const char *table, long long n, int game,
                             const fig_match_step_t *step, int players, const fig_view_t *after,
                             int me, const fig_proto_show_t *show, json_t *say,
                             const char *record);

/* {"type":"seated","table":T,"seat":S,"name":N[,"token":K]} (token NULL:
 * none, a seat taken back); {"type":TYPE,"table":T,"seat":S} for
 * "unseated" and "left"; {"type":"caught_up","table":T,"n":N}. */
json_t *fig_proto_seated(const char *table, int seat, const char *name, const char *token);
json_t *fig_proto_seat_msg(const char *type, const char *table, int seat);
json_t *fig_proto_caught_up(const char *table, long long n);

/* An entry of a snapshot's `log`: {"kind":K,"say":[...]} (say taken; NULL:
 * []), and a chat line's {"kind":"chat","say":[],"seat":S|null,"name","text"}. */
json_t *fig_proto_story_entry(const char *kind, json_t *say);
json_t *fig_proto_story_chat(int seat, const char *name, const char *text);

/* A table as one seat (me; -1: a spectator) finds it (docs/protocol.md,
 * snapshot). */
typedef struct {
    const char *table, *epoch;
    long long n, game_n;
    int game;
    const char *state;                    /* "waiting", "playing", "over" */
    int me;
    int players, move_seconds;            /* the options */
    bool open, hints;
    bool listed;                          /* shown in the lobby */
    bool rated;                           /* its games may be rated (net/table/rated.h) */
    const char *fill;
    const fig_proto_seat_info_t *seats;
    const fig_view_t *view;               /* NULL before the first game */
    const fig_narrator_t *nr;             /* the view's reasons (fig_proto_show_t) */
    const fig_game_t *game_rec;           /* its actions: `history` (with view) */
    const fig_proto_tally_t *tally;       /* once the game is over; else NULL */
    const char *record;                   /* likewise */
    long long turn_ms_left;               /* -1: null */
    json_t *log;                          /* the story (taken) */
} fig_proto_snapshot_t;

json_t *fig_proto_snapshot(const fig_proto_snapshot_t *s);

/* Sets o's "turn_ms_left": ms_left, or null when it is -1 (the move clock,
 * docs/protocol.md: a snapshot and the events that change it carry it). */
void fig_proto_set_clock(json_t *o, long long ms_left);

/* A hint for the seat whose turn answers event n (docs/protocol.md, hint):
 * the move, its sentences (the headline and the reason) and the search's
 * top moves, in the words of ht (host/hint.h). */
json_t *fig_proto_hint(const char *table, long long n, const fig_hint_text_t *ht);

/* The review of seat rv->seat in game `game` (docs/protocol.md, review):
 * its graded moves (those not good) with their numbers and, through nr (the
 * asker's names and language, nr->me the seat), the move played, the better
 * one and the verdict in words; the counts and the summary. */
json_t *fig_proto_review(const char *table, int game, const fig_review_t *rv,
                         const fig_narrator_t *nr);

/* ---- people (proto_people.c; docs/protocol.md, "People") */

/* Sets o's "mu", "sigma", "shown" (mu - 3 sigma) and "between" (the two
 * levels whose mu surround mu: ["", "beginner"] below the weakest, ["max",
 * ""] above the strongest, [L, L] at a level's own mu). */
void fig_proto_rating_set(json_t *o, double mu, double sigma);

enum { FIG_PROTO_PERSON_SEATS = 8 };   /* a person frame's seats at most */

/* A person as they are told about themselves. */
typedef struct {
    const char *id, *name;
    double mu, sigma;
    int rated;                          /* rated games played */
    bool hidden;                        /* off the leaderboard */
    const char *key;                    /* person_new, redeem: the new key; else NULL */
    int nseats;                         /* their seats at existing tables, newest first */
    struct {
        char table[FIG_TABLE_CODE_LEN + 1];
        int seat;
    } seats[FIG_PROTO_PERSON_SEATS];
} fig_proto_person_t;

json_t *fig_proto_person(const fig_proto_person_t *p);

/* {"type":"rated","table","game","mu","sigma","shown","between",
 * "before":{"mu","sigma"}}: a person's rating after a rated game. */
json_t *fig_proto_rated(const char *table, int game, double mu, double sigma, double mu_before,
                        double sigma_before);

/* {"type":"device_code","code":C,"expires_s":S}. */
json_t *fig_proto_device_code(const char *code, int expires_s);

/* A table as the lobby shows it (docs/protocol.md, lobby). Filled from
 * zeroed memory (memset) so that two entries compare with memcmp. */
typedef enum { FIG_LOBBY_OPEN, FIG_LOBBY_PERSON, FIG_LOBBY_BOT, FIG_LOBBY_ENGINE } fig_lobby_kind_t;

typedef struct {
    fig_lobby_kind_t kind;
    char name[FIG_PERSON_NAME_BYTES + 1];          /* a person's name, an engine's */
    char level[FIG_LEVEL_NAME_MAX + 1];            /* a bot's level */
} fig_lobby_seat_t;

typedef struct {
    char code[FIG_TABLE_CODE_LEN + 1];
    long long created;                             /* Unix seconds: newest first */
    int players, free;
    fig_lobby_seat_t seats[FIG_MAX_PLAYERS];
    int move_seconds;
    bool open, hints, rated;
    char fill[FIG_LEVEL_NAME_MAX + 1];
} fig_lobby_table_t;

/* The lobby's frame of these n tables, as text (the caller frees it; *len
 * its length), NULL out of memory. */
char *fig_proto_lobby(const fig_lobby_table_t *const *tables, int n, size_t *len);

/* {"type":TYPE} alone: "signed_out", "forgotten". */
json_t *fig_proto_bare(const char *type);

/* Serialises a message compactly; the caller frees the text. NULL when out
 * of memory. */
char *fig_proto_dump(const json_t *j, size_t *len);

#endif
