/* SPDX-License-Identifier: MIT */
/* fep_engine.c - the engine side of FEP (fep_engine.h): a host's lines in,
 * a bot's answers out through a callback.
 *
 * Each line is handled on its own: tokenised on spaces and tabs, checked
 * against the protocol and the rules (the bot handle refuses what the rules
 * refuse), and answered with at most a few lines. The state machine is small:
 * `fep 1` must come first; a `game` starts a game (and may replace one in
 * progress); `round`, `move` and `go` need a game; `gameover` ends it.
 * Protocol text is English on purpose (docs/fep.md): a program reads it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "host/fep_engine.h"
#include "host/hint.h"
#include "host/narrate.h"

enum { MAX_TOKENS = 96, ECHO_CAP = 100, MAX_MS = 3600000, ANSWER_CAP = 512 };

struct fig_fep_engine {
    fig_bot_t *bot;
    fig_fep_say_fn *say_fn;
    void *user;
    bool handshaken;   /* `fep 1` has been answered with `fepok` */
    bool in_game;      /* a `game` line was accepted and no `gameover` came yet */
    int seat;
    int players;
    bool analysis;     /* tell the search's analysis in `info` lines before `play` */
    bool has_names;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
};

typedef struct {
    const char *s;
    size_t len;
} tok_t;

/* Every answer is one line, handed over at once: the host waits for it.
 * Returns false when the host cannot be reached. */
static bool say(const fig_fep_engine_t *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static bool say(const fig_fep_engine_t *e, const char *fmt, ...)
{
    char line[ANSWER_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return e->say_fn(e->user, line);
}

/* Printable ASCII: the test does not follow the process's locale. */
static bool printable(char c)
{
    return c >= 0x20 && c < 0x7F;
}

/* `info error: ...` with the offending line echoed, shortened, and with
 * control characters replaced (in the words quoted in the message too), so
 * the answer stays one printable line. */
static bool reject(const fig_fep_engine_t *e, const char *line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool reject(const fig_fep_engine_t *e, const char *line, const char *fmt, ...)
{
    char what[256], echo[ECHO_CAP + 4];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    for (char *c = what; *c; c++)
        if (!printable(*c))
            *c = '?';
    size_t n = 0;
    for (; line[n] && n < ECHO_CAP; n++)
        echo[n] = printable(line[n]) ? line[n] : '?';
    if (line[n])
        echo[n++] = '.', echo[n++] = '.', echo[n++] = '.';
    echo[n] = '\0';
    return say(e, "info error: %s (line '%s')", what, echo);
}

static bool tok_is(tok_t t, const char *word)
{
    return t.len == strlen(word) && strncasecmp(t.s, word, t.len) == 0;
}

/* A whole decimal number in [min, max]; false for anything else. */
static bool tok_int(tok_t t, long min, long max, long *out)
{
    long v = 0;
    if (t.len == 0 || t.len > 10)
        return false;
    for (size_t i = 0; i < t.len; i++) {
        if (t.s[i] < '0' || t.s[i] > '9')
            return false;
        v = v * 10 + (t.s[i] - '0');
    }
    if (v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* Splits on spaces and tabs; returns the count, or -1 past MAX_TOKENS. */
static int tokenize(const char *line, tok_t tok[])
{
    int n = 0;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            return n;
        if (n == MAX_TOKENS)
            return -1;
        tok[n].s = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        tok[n].len = (size_t)(p - tok[n].s);
        n++;
    }
}

/* The `roads` groups: lengths with "/" between rounds, standing alone or glued
 * to a number ("9 5 2/14 11 1/13 8 3"), as in FGN. */
static const char *parse_roads(const tok_t tok[], int n, fig_setup_t *setup, int count[])
{
    int group = 0;
    for (int i = 0; i < n; i++) {
        const char *p = tok[i].s, *end = tok[i].s + tok[i].len;
        while (p < end) {
            if (*p == '/') {
                if (++group >= FIG_ROUNDS)
                    return "roads: more than three groups";
                p++;
                continue;
            }
            tok_t num = { p, 0 };
            while (p + num.len < end && p[num.len] != '/')
                num.len++;
            long v;
            if (!tok_int(num, 1, FIG_MAX_ROAD, &v))
                return "roads: a length is not a whole number from 1 to 65535";
            if (count[group] == FIG_MAX_PLAYERS - 1)
                return "roads: too many lengths in a group";
            setup->roads[group][count[group]++] = (uint16_t)v;
            p += num.len;
        }
    }
    if (group != FIG_ROUNDS - 1)
        return "roads: three groups are needed, separated by '/'";
    return NULL;
}

/* game players <N> seat <S> king <K> removed <C or -> roads <l l ...> / ... / ...
 * Keys may come in any order, but `roads` takes the rest of the line. */
static bool on_game(fig_fep_engine_t *e, const char *line, const tok_t tok[], int n)
{
    fig_setup_t setup;
    memset(&setup, 0, sizeof setup);
    setup.removed = FIG_NO_COLOUR;
    long players = -1, seat = -1, king = -1;
    bool have_removed = false, have_roads = false;
    int count[FIG_ROUNDS] = { 0 };
    for (int i = 1; i < n; i += 2) {
        if (tok_is(tok[i], "roads")) {
            const char *err = parse_roads(tok + i + 1, n - i - 1, &setup, count);
            if (err)
                return reject(e, line, "game: %s", err);
            have_roads = true;
            break;
        }
        if (i + 1 >= n)
            return reject(e, line, "game: '%.*s' needs a value", (int)tok[i].len, tok[i].s);
        tok_t v = tok[i + 1];
        long *slot = tok_is(tok[i], "players") ? &players
                     : tok_is(tok[i], "seat")  ? &seat
                     : tok_is(tok[i], "king")  ? &king : NULL;
        if (slot) {
            if (*slot >= 0)
                return reject(e, line, "game: '%.*s' given twice", (int)tok[i].len, tok[i].s);
            if (!tok_int(v, 0, FIG_MAX_PLAYERS, slot))
                return reject(e, line, "game: '%.*s' takes a number from 0 to %d", (int)tok[i].len,
                              tok[i].s, FIG_MAX_PLAYERS);
        } else if (tok_is(tok[i], "removed")) {
            if (have_removed)
                return reject(e, line, "game: 'removed' given twice");
            have_removed = true;
            if (v.len != 1 || (v.s[0] != '-' && fig_colour_parse(v.s[0]) < 0))
                return reject(e, line, "game: removed takes a colour letter (R, B, G, Y, P) or '-'");
            setup.removed = v.s[0] == '-' ? FIG_NO_COLOUR : fig_colour_parse(v.s[0]);
        } else {
            return reject(e, line, "game: unknown key '%.*s' (players, seat, king, removed, roads)",
                          (int)tok[i].len, tok[i].s);
        }
    }
    if (players < 0 || seat < 0 || king < 0 || !have_roads)
        return reject(e, line, "game: players, seat, king and roads are required");
    if (players < FIG_MIN_PLAYERS)
        return reject(e, line, "game: Figaro is played by 3 to 6 players, not %ld", players);
    for (int g = 0; g < FIG_ROUNDS; g++)
        if (count[g] != players - 1)
            return reject(e, line, "game: roads group %d has %d lengths; %ld players need %ld", g + 1,
                          count[g], players, players - 1);
    setup.players = (int)players;
    setup.king = (int)king;
    fig_msg_t msg;
    /* fig_bot_game checks the rest (R1-R3) and, on failure, leaves any game in
     * progress as it was. */
    if (fig_bot_game(e->bot, &setup, (int)seat, &msg) != FIG_OK)
        return reject(e, line, "game: %s", msg.text);
    e->in_game = true;
    e->seat = (int)seat;
    e->players = (int)players;
    return true;
}

static bool on_names(fig_fep_engine_t *e, const char *line, const tok_t tok[], int n)
{
    if (!e->in_game)
        return reject(e, line, "names: no game has started");
    if (n - 1 != e->players)
        return reject(e, line, "names: expected %d names, got %d", e->players, n - 1);
    /* A bot plays the same whoever it faces; the names only word the
     * analysis's `info hint` line. */
    for (int s = 0; s < e->players; s++) {
        size_t len = tok[s + 1].len > FIG_NAME_MAX ? FIG_NAME_MAX : tok[s + 1].len;
        memcpy(e->names[s], tok[s + 1].s, len);
        e->names[s][len] = '\0';
    }
    e->has_names = true;
    return true;
}

/* round <R> hand <card> <card> ... */
static bool on_round(fig_fep_engine_t *e, const char *line, const tok_t tok[], int n)
{
    if (!e->in_game)
        return reject(e, line, "round: no game has started");
    const fig_state_t *st = fig_bot_state(e->bot);
    long r;
    if (n < 3 || !tok_int(tok[1], 1, FIG_ROUNDS, &r) || !tok_is(tok[2], "hand"))
        return reject(e, line, "round: expected 'round <1-3> hand <card> <card> ...'");
    if (st->phase != FIG_PHASE_DEAL || r != st->round)
        return reject(e, line, st->phase == FIG_PHASE_DEAL
                                ? "round: this is not the round that comes next"
                                : "round: the current round has not ended");
    if (n - 3 > FIG_DECK_MAX)
        return reject(e, line, "round: more cards than the deck holds");
    fig_hand_t hand;
    memset(&hand, 0, sizeof hand);
    for (int i = 3; i < n; i++) {
        int k = fig_kind_parse(tok[i].s, tok[i].len);
        if (k < 0)
            return reject(e, line, "round: '%.*s' is not a card", (int)tok[i].len, tok[i].s);
        hand.n[k]++;
    }
    fig_msg_t msg;
    if (fig_bot_round(e->bot, &hand, &msg) != FIG_OK)
        return reject(e, line, "round: %s", msg.text);
    return true;
}

/* move <seat> <action>: anyone's action, the engine's own included. */
static bool on_move(fig_fep_engine_t *e, const char *line, const tok_t tok[], int n)
{
    if (!e->in_game)
        return reject(e, line, "move: no game has started");
    const fig_state_t *st = fig_bot_state(e->bot);
    long seat;
    if (n != 3 || !tok_int(tok[1], 0, e->players - 1, &seat))
        return reject(e, line, "move: expected 'move <seat> <action>'");
    if (st->phase != FIG_PHASE_PLAY)
        return reject(e, line, "move: no round is being played");
    if (seat != st->turn)
        return reject(e, line, "move: it is seat %d's turn, not seat %ld's", st->turn, seat);
    fig_action_t a = fig_act_parse(tok[2].s, tok[2].len, (int)seat);
    if (a == FIG_ACT_NONE)
        return reject(e, line, "move: '%.*s' is not an action (R2>1, J1>3, RING, take)",
                      (int)tok[2].len, tok[2].s);
    fig_msg_t msg;
    if (fig_bot_move(e->bot, a, &msg) != FIG_OK)
        return reject(e, line, "move: %s", msg.text);
    return true;
}

static const char *fgn_card(void *ctx, int kind, char *buf, size_t cap)
{
    (void)ctx;
    return fig_card_code_in(NULL, kind, buf, cap);
}

/* The search's analysis of the think that chose a, for a host that shows
 * hints (fig_fep_engine_set_analysis): numbers a program reads, then the
 * hint in English. Nothing for a bot that does not search. */
static bool say_analysis(fig_fep_engine_t *e, fig_action_t a)
{
    fig_analysis_t an;
    if (!fig_bot_analysis(e->bot, &an))
        return true;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    for (int s = 0; s < e->players; s++) {
        if (e->has_names)
            memcpy(names[s], e->names[s], sizeof names[s]);
        else
            snprintf(names[s], sizeof names[s], "seat %d", s);
    }
    fig_narrator_t nr;
    fig_narrate_init(&nr, e->players, e->seat, (const char (*)[FIG_NAME_MAX + 1])names, NULL,
                     fgn_card, NULL, NULL);
    fig_view_t v;
    fig_view_of(fig_bot_state(e->bot), e->seat, &v);
    fig_hint_text_t t;
    fig_hint_explain(&nr, &v, a, &an, &t);
    if (!say(e, "info analysis seat %d iterations %ld moves %d", an.seat, an.iterations, an.n))
        return false;
    for (int i = 0; i < t.n; i++) {
        const fig_move_stat_t *m = NULL;
        for (int k = 0; k < an.n && !m; k++)
            if (an.moves[k].action == t.moves[i].action)
                m = &an.moves[k];
        if (!m)
            continue;
        char act[16];
        if (!say(e, "info move %d %s share %.3f win %.3f place %.2f collect %.1f next %.2f",
                 i + 1, fig_act_format(m->action, act, sizeof act), m->share, m->win, m->place,
                 m->collect[e->seat], m->collect_next))
            return false;
    }
    return say(e, "info hint %s%s%s", t.headline, t.reason[0] ? " " : "", t.reason);
}

static bool on_go(fig_fep_engine_t *e, const char *line, const tok_t tok[], int n)
{
    long ms;
    if (n != 2 || !tok_int(tok[1], 0, MAX_MS, &ms))
        return reject(e, line, "go: expected 'go <milliseconds>' (0 to %d)", MAX_MS);
    if (!e->in_game)
        return reject(e, line, "go: no game has started");
    const fig_state_t *st = fig_bot_state(e->bot);
    if (st->phase != FIG_PHASE_PLAY || st->turn != e->seat)
        return reject(e, line, "go: it is not seat %d's turn", e->seat);
    /* The bot gets the whole allowance: the host adds a second of slack for
     * the pipes (docs/fep.md), and 0 lets the bot use its own budget. */
    fig_action_t a = fig_bot_choose(e->bot, (int)ms);
    char act[16];
    if (e->analysis && !say_analysis(e, a))
        return false;
    return say(e, "play %s", fig_act_format(a, act, sizeof act));
}

static bool on_gameover(fig_fep_engine_t *e, const char *line, const tok_t tok[], int n)
{
    if (!e->in_game)
        return reject(e, line, "gameover: no game has started");
    if (n - 1 != e->players)
        return reject(e, line, "gameover: expected %d totals, got %d", e->players, n - 1);
    const fig_state_t *st = fig_bot_state(e->bot);
    bool differ = false;
    for (int s = 0; s < e->players; s++) {
        long v;
        if (!tok_int(tok[1 + s], 0, 3L * FIG_MAX_ROAD, &v))
            return reject(e, line, "gameover: '%.*s' is not a road total", (int)tok[1 + s].len,
                          tok[1 + s].s);
        differ |= v != fig_state_road(st, s);
    }
    fig_bot_game_over(e->bot);
    e->in_game = false;
    /* A host may end a game early; only a finished game's totals must agree. */
    if (differ && st->phase == FIG_PHASE_OVER)
        return reject(e, line, "gameover: the totals differ from the game this engine followed");
    return true;
}

bool fig_fep_engine_line(fig_fep_engine_t *e, const char *line)
{
    tok_t tok[MAX_TOKENS];
    int n = tokenize(line, tok);
    if (n < 0)
        return reject(e, line, "too many words");
    if (n == 0)
        return true;   /* blank lines are harmless */
    if (tok_is(tok[0], "quit"))
        return false;
    if (tok_is(tok[0], "fep")) {
        if (n != 2 || !tok_is(tok[1], "1"))
            return reject(e, line, "this engine speaks FEP version 1: expected 'fep 1'");
        e->handshaken = true;
        return say(e, "id name figaro %s", fig_bot_spec(e->bot)) &&
               say(e, "id author the figaro project") && say(e, "fepok");
    }
    if (!e->handshaken)
        return reject(e, line, "expected 'fep 1' first");
    if (tok_is(tok[0], "game"))
        return on_game(e, line, tok, n);
    if (tok_is(tok[0], "names"))
        return on_names(e, line, tok, n);
    if (tok_is(tok[0], "round"))
        return on_round(e, line, tok, n);
    if (tok_is(tok[0], "move"))
        return on_move(e, line, tok, n);
    if (tok_is(tok[0], "go"))
        return on_go(e, line, tok, n);
    if (tok_is(tok[0], "gameover"))
        return on_gameover(e, line, tok, n);
    return reject(e, line, "unknown command '%.*s' (fep, game, names, round, move, go, gameover, "
                        "quit)", (int)tok[0].len, tok[0].s);
}

bool fig_fep_engine_too_long(fig_fep_engine_t *e, const char *start)
{
    return reject(e, start, "line longer than %d bytes", FIG_FEP_LINE_MAX);
}

fig_err_t fig_fep_engine_new(fig_fep_engine_t **out, fig_bot_t *bot, fig_fep_say_fn *say_fn,
                             void *user, fig_msg_t *msg)
{
    *out = NULL;
    fig_fep_engine_t *e = calloc(1, sizeof *e);
    if (!e) {
        fig_bot_free(bot);
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    e->bot = bot;
    e->say_fn = say_fn;
    e->user = user;
    e->seat = -1;
    *out = e;
    return FIG_OK;
}

void fig_fep_engine_free(fig_fep_engine_t *e)
{
    if (!e)
        return;
    fig_bot_free(e->bot);
    free(e);
}

const fig_bot_t *fig_fep_engine_bot(const fig_fep_engine_t *e)
{
    return e->bot;
}

void fig_fep_engine_set_analysis(fig_fep_engine_t *e, bool on) { e->analysis = on; }
