/* SPDX-License-Identifier: MIT */
/* fgn.c - the FGN game record format (docs/fgn.md): reader and writer.
 *
 * The reader works line by line through a small state machine: the magic line,
 * then headers, then for each round its `round` line, N `hand` lines and its
 * moves. Every deal and move is handed to the rules engine (game.c), so a record
 * that reads without error is a legal game. The first problem stops the reader
 * and is reported with its line number; nothing is ever accepted silently. */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "figaro/fgn.h"

enum { MAX_TOKENS = 32 };

typedef struct {
    const char *s;
    size_t len;
} token_t;

typedef enum { WANT_MAGIC, IN_HEADER, IN_HANDS, IN_MOVES } stage_t;

/* Header lines seen so far, with where, so late checks can point at them. */
typedef struct {
    int players_line, names_line, seed_line, removed_line, roads_line, king_line;
    int players, king, removed;
    int nnames;
    char names[FIG_MAX_PLAYERS][FIG_NAME_MAX + 1];
    uint64_t seed;
    int nroads[FIG_ROUNDS];
    long roads[FIG_ROUNDS][FIG_MAX_PLAYERS];   /* a group may be too long: checked later */
} header_t;

typedef struct {
    fig_game_t *g;
    fig_msg_t *msg;
    int line;
    stage_t stage;
    header_t h;
    int hands_seen;                     /* hand lines read for the round being dealt */
    int first_hand_line[FIG_MAX_PLAYERS];
    fig_hand_t hands[FIG_MAX_PLAYERS];
    int round_ended_line;               /* a move line ended the last round here */
} reader_t;

static fig_err_t fail(reader_t *r, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static fig_err_t fail(reader_t *r, int line, const char *fmt, ...)
{
    if (r->msg) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->msg->text, sizeof r->msg->text, fmt, ap);
        va_end(ap);
        r->msg->line = line;
    }
    return FIG_ERR_INPUT;
}

static bool word_is(token_t t, const char *word)
{
    size_t i = 0;
    for (; i < t.len && word[i]; i++)
        if (tolower((unsigned char)t.s[i]) != word[i])
            return false;
    return i == t.len && word[i] == '\0';
}

/* A whole token of decimal digits, at most `max`; false otherwise. */
static bool parse_uint(token_t t, uint64_t max, uint64_t *out)
{
    if (t.len == 0 || t.len > 20)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < t.len; i++) {
        if (!isdigit((unsigned char)t.s[i]))
            return false;
        unsigned d = (unsigned)(t.s[i] - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* Shows a token in a message: at most 24 bytes of it, so a long one cannot
 * crowd out the explanation. */
static int shown_len(token_t t)
{
    size_t n = t.len > 24 ? 24 : t.len;
    while (n < t.len && n > 0 && ((unsigned char)t.s[n] & 0xC0) == 0x80)
        n--;   /* never cut a UTF-8 character in two */
    return (int)n;
}
#define TOK(t) shown_len(t), (t).s

/* Length of the valid UTF-8 sequence at s (of n bytes), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t need;
    unsigned min;
    if ((s[0] & 0xE0) == 0xC0) { need = 2; min = 0x80; }
    else if ((s[0] & 0xF0) == 0xE0) { need = 3; min = 0x800; }
    else if ((s[0] & 0xF8) == 0xF0) { need = 4; min = 0x10000; }
    else return 0;
    if (n < need)
        return 0;
    unsigned cp = s[0] & (0x7Fu >> need);
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return need;
}

/* Checks the bytes of one line (without its end) for what text may not hold. */
static fig_err_t check_bytes(reader_t *r, const char *s, size_t len)
{
    if (len > FIG_FGN_LINE_MAX)
        return fail(r, r->line, N_("line is too long (more than %d bytes)"), FIG_FGN_LINE_MAX);
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 && c != '\t') {
            return fail(r, r->line, N_("unexpected control byte 0x%02X at column %zu: "
                                       "a game record is plain text"), c, i + 1);
        }
        if (c == 0x7F)
            return fail(r, r->line, N_("unexpected control byte 0x7F at column %zu: "
                                       "a game record is plain text"), i + 1);
        size_t n = utf8_len((const unsigned char *)s + i, len - i);
        if (!n)
            return fail(r, r->line, N_("invalid UTF-8 at column %zu: a game record is "
                                       "UTF-8 text"), i + 1);
        i += n;
    }
    return FIG_OK;
}

static int tokenize(const char *s, size_t len, token_t *tok, int cap)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i == len || s[i] == '#')
            break;
        size_t start = i;
        while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '#')
            i++;
        if (n == cap)
            return -1;
        tok[n].s = s + start;
        tok[n].len = i - start;
        n++;
    }
    return n;
}

/* ---- headers ---- */

static fig_err_t once(reader_t *r, int *where, const char *name)
{
    if (*where)
        return fail(r, r->line, N_("a second '%s' line (the first is line %d)"), name, *where);
    *where = r->line;
    return FIG_OK;
}

static fig_err_t read_roads(reader_t *r, const token_t *tok, int n)
{
    header_t *h = &r->h;
    int group = 0;
    for (int i = 1; i < n; i++) {
        /* A "/" may stand alone or be glued to numbers: "9 5 2/14 11 1". */
        const char *p = tok[i].s, *end = tok[i].s + tok[i].len;
        while (p < end) {
            if (*p == '/') {
                if (++group >= FIG_ROUNDS)
                    return fail(r, r->line, N_("roads: more than three groups; "
                                               "write one group per round, separated by '/'"));
                p++;
                continue;
            }
            token_t num = { p, 0 };
            while (p + num.len < end && p[num.len] != '/')
                num.len++;
            uint64_t v;
            if (!parse_uint(num, FIG_MAX_ROAD, &v) || v == 0)
                return fail(r, r->line, N_("roads: '%.*s' is not a length from 1 to %d"),
                            TOK(num), FIG_MAX_ROAD);
            if (h->nroads[group] == FIG_MAX_PLAYERS)
                return fail(r, r->line, N_("roads: too many lengths in group %d"), group + 1);
            h->roads[group][h->nroads[group]++] = (long)v;
            p += num.len;
        }
    }
    if (group != FIG_ROUNDS - 1)
        return fail(r, r->line, N_("roads: three groups are needed, one per round, "
                                   "separated by '/'"));
    return FIG_OK;
}

static fig_err_t read_header(reader_t *r, const token_t *tok, int n)
{
    header_t *h = &r->h;
    uint64_t v;
    fig_err_t rc;
    if (word_is(tok[0], "players")) {
        if ((rc = once(r, &h->players_line, "players")))
            return rc;
        if (n != 2 || !parse_uint(tok[1], 99, &v) || v < FIG_MIN_PLAYERS || v > FIG_MAX_PLAYERS)
            return fail(r, r->line, N_("players: expected a number from 3 to 6"));
        h->players = (int)v;
    } else if (word_is(tok[0], "names")) {
        if ((rc = once(r, &h->names_line, "names")))
            return rc;
        if (n - 1 > FIG_MAX_PLAYERS || n < 2)
            return fail(r, r->line, N_("names: expected one name per player, 3 to 6 names"));
        for (int i = 1; i < n; i++) {
            if (tok[i].len > FIG_NAME_MAX)
                return fail(r, r->line, N_("names: name %d is longer than %d bytes"), i,
                            FIG_NAME_MAX);
            memcpy(h->names[i - 1], tok[i].s, tok[i].len);
            h->names[i - 1][tok[i].len] = '\0';
        }
        h->nnames = n - 1;
    } else if (word_is(tok[0], "seed")) {
        if ((rc = once(r, &h->seed_line, "seed")))
            return rc;
        if (n != 2 || !parse_uint(tok[1], UINT64_MAX, &h->seed))
            return fail(r, r->line, N_("seed: expected one whole number from 0 to %llu"),
                        (unsigned long long)UINT64_MAX);
    } else if (word_is(tok[0], "removed")) {
        if ((rc = once(r, &h->removed_line, "removed")))
            return rc;
        if (n != 2 || tok[1].len != 1 ||
            (tok[1].s[0] != '-' && fig_colour_parse(tok[1].s[0]) < 0))
            return fail(r, r->line, N_("removed: expected a colour letter (R, B, G, Y, P) "
                                       "or '-'"));
        h->removed = tok[1].s[0] == '-' ? FIG_NO_COLOUR : fig_colour_parse(tok[1].s[0]);
    } else if (word_is(tok[0], "roads")) {
        if ((rc = once(r, &h->roads_line, "roads")))
            return rc;
        return read_roads(r, tok, n);
    } else if (word_is(tok[0], "king")) {
        if ((rc = once(r, &h->king_line, "king")))
            return rc;
        if (n != 2 || !parse_uint(tok[1], 99, &v) || v >= FIG_MAX_PLAYERS)
            return fail(r, r->line, N_("king: expected a seat number"));
        h->king = (int)v;
    } else {
        return fail(r, r->line, N_("unknown line '%.*s': expected a header line (players, "
                                   "names, seed, removed, roads, king) or 'round 1'"),
                    TOK(tok[0]));
    }
    return FIG_OK;
}

/* All headers are in: check them together and start the game. `line` is where
 * the header ended (the `round 1` line, or the last line of the record). */
static fig_err_t finish_header(reader_t *r, int line)
{
    header_t *h = &r->h;
    if (!h->players_line)
        return fail(r, line, N_("the 'players' line is missing before this point"));
    if (!h->roads_line)
        return fail(r, line, N_("the 'roads' line is missing before this point"));
    if (!h->king_line)
        return fail(r, line, N_("the 'king' line is missing before this point"));
    int n = h->players;
    if (h->names_line && h->nnames != n)
        return fail(r, h->names_line, N_("names: %d names for %d players"), h->nnames, n);
    if (h->king >= n)
        return fail(r, h->king_line, N_("king: seat %d does not exist with %d players"),
                    h->king, n);
    if (n == 3 && (!h->removed_line || h->removed == FIG_NO_COLOUR))
        return fail(r, h->removed_line ? h->removed_line : line,
                    N_("a 3-player game must name the colour left out (R2): 'removed R' etc."));
    if (n != 3 && h->removed_line && h->removed != FIG_NO_COLOUR)
        return fail(r, h->removed_line, N_("removed: only a 3-player game leaves a colour out "
                                           "(R2); write 'removed -'"));
    fig_setup_t setup;
    memset(&setup, 0, sizeof setup);
    setup.players = n;
    setup.king = h->king;
    setup.removed = n == 3 ? h->removed : FIG_NO_COLOUR;
    setup.seed = h->seed;
    setup.has_seed = h->seed_line != 0;
    for (int g = 0; g < FIG_ROUNDS; g++) {
        if (h->nroads[g] != n - 1)
            return fail(r, h->roads_line, N_("roads: group %d has %d lengths; with %d players "
                                             "each round has %d (R3)"),
                        g + 1, h->nroads[g], n, n - 1);
        for (int i = 0; i < n - 1; i++)
            setup.roads[g][i] = (uint16_t)h->roads[g][i];
    }
    fig_msg_t m;
    if (fig_setup_check(&setup, &m) != FIG_OK)
        return fail(r, h->roads_line, "roads: %s", m.text);
    fig_game_init(r->g, &setup);
    r->g->has_names = h->names_line != 0;
    memcpy(r->g->names, h->names, sizeof h->names);
    return FIG_OK;
}

/* ---- rounds ---- */

static bool is_header_word(token_t t)
{
    static const char *const words[] = { "players", "names", "seed", "removed", "roads", "king" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (word_is(t, words[i]))
            return true;
    return false;
}

static fig_err_t late_header(reader_t *r, token_t t)
{
    return fail(r, r->line, N_("'%.*s' is a header line: headers come before 'round 1'"), TOK(t));
}

static fig_err_t read_round(reader_t *r, const token_t *tok, int n)
{
    const fig_state_t *st = &r->g->state;
    uint64_t k;
    if (n != 2 || !parse_uint(tok[1], 99, &k))
        return fail(r, r->line, N_("expected 'round' and a round number"));
    if (st->phase == FIG_PHASE_OVER)
        return fail(r, r->line, N_("the game is over after three rounds; nothing may follow"));
    if (st->phase == FIG_PHASE_PLAY && (int)k == st->round)
        return fail(r, r->line, N_("round %d has already started; it ends when a seat starts "
                                   "a turn with no cards (R10)"), (int)k);
    if (st->phase == FIG_PHASE_PLAY)
        return fail(r, r->line, N_("round %d starts before round %d has ended (R10)"), (int)k,
                    st->round);
    if ((int)k != st->round)
        return fail(r, r->line, N_("expected round %d here, not round %d"), st->round, (int)k);
    r->stage = IN_HANDS;
    r->hands_seen = 0;
    memset(r->first_hand_line, 0, sizeof r->first_hand_line);
    memset(r->hands, 0, sizeof r->hands);
    return FIG_OK;
}

static fig_err_t read_hand(reader_t *r, const token_t *tok, int n)
{
    const fig_state_t *st = &r->g->state;
    int players = st->players, per = fig_hand_cards(players);
    uint64_t seat;
    if (is_header_word(tok[0]))
        return late_header(r, tok[0]);
    if (!word_is(tok[0], "hand"))
        return fail(r, r->line, N_("round %d needs %d 'hand' lines before its moves; "
                                   "found %d"), st->round, players, r->hands_seen);
    if (n < 2 || !parse_uint(tok[1], 99, &seat) || (int)seat >= players)
        return fail(r, r->line, N_("hand: expected a seat from 0 to %d"), players - 1);
    if (r->first_hand_line[seat])
        return fail(r, r->line, N_("a second hand for seat %d (the first is line %d)"),
                    (int)seat, r->first_hand_line[seat]);
    if (n - 2 != per)
        return fail(r, r->line, N_("seat %d is dealt %d cards; with %d players each gets "
                                   "%d (R4)"), (int)seat, n - 2, players, per);
    for (int i = 2; i < n; i++) {
        int kind = fig_kind_parse(tok[i].s, tok[i].len);
        if (kind < 0)
            return fail(r, r->line, N_("'%.*s' is not a card (R1 R2 R3 B1 ... P3 J1 J2 RING)"),
                        TOK(tok[i]));
        r->hands[seat].n[kind]++;
    }
    r->first_hand_line[seat] = r->line;
    if (++r->hands_seen == players) {
        fig_msg_t m;
        if (fig_game_deal(r->g, r->hands, &m) != FIG_OK)
            return fail(r, r->line, N_("round %d is not a legal deal: %s"), st->round, m.text);
        r->stage = IN_MOVES;
    }
    return FIG_OK;
}

static fig_err_t read_move(reader_t *r, const token_t *tok, int n)
{
    const fig_state_t *st = &r->g->state;
    uint64_t seat;
    if (!parse_uint(tok[0], 99, &seat)) {
        if (is_header_word(tok[0]))
            return late_header(r, tok[0]);
        if (word_is(tok[0], "hand") && st->phase == FIG_PHASE_OVER)
            return fail(r, r->line, N_("the game is over; no hand may follow"));
        if (word_is(tok[0], "hand") && st->phase == FIG_PHASE_DEAL)
            return fail(r, r->line, N_("round %d ended on line %d; write 'round %d' before "
                                       "its hands"), st->round - 1, r->round_ended_line,
                        st->round);
        if (word_is(tok[0], "hand"))
            return fail(r, r->line, N_("round %d already has its %d hands"), st->round,
                        st->players);
        return fail(r, r->line, N_("unknown line '%.*s': expected a move '<seat> <action>' "
                                   "or 'round <n>'"), TOK(tok[0]));
    }
    if (n != 2)
        return fail(r, r->line, N_("a move is '<seat> <action>', e.g. '0 R2>1', '3 RING', "
                                   "'2 take'"));
    if (st->phase == FIG_PHASE_OVER)
        return fail(r, r->line, N_("the game is over; no move may follow"));
    if (st->phase == FIG_PHASE_DEAL)
        return fail(r, r->line, N_("round %d ended on line %d when seat %d started a turn "
                                   "with no cards (R10); 'round %d' must come next"),
                    st->round - 1, r->round_ended_line, st->king, st->round);
    if ((int)seat != st->turn)
        return fail(r, r->line, N_("it is seat %d's turn, not seat %d's"), st->turn, (int)seat);
    fig_action_t a = fig_act_parse(tok[1].s, tok[1].len, (int)seat);
    if (a == FIG_ACT_NONE)
        return fail(r, r->line, N_("'%.*s' is not an action: write a card and a seat "
                                   "('R2>1'), 'RING' or 'take'"), TOK(tok[1]));
    fig_msg_t m;
    if (fig_game_play(r->g, a, NULL, &m) != FIG_OK)
        return fail(r, r->line, "%s", m.text);
    if (st->phase != FIG_PHASE_PLAY)
        r->round_ended_line = r->line;
    return FIG_OK;
}

static fig_err_t read_line(reader_t *r, const char *s, size_t len)
{
    token_t tok[MAX_TOKENS];
    fig_err_t rc = check_bytes(r, s, len);
    if (rc)
        return rc;
    int n = tokenize(s, len, tok, MAX_TOKENS);
    if (n < 0)
        return fail(r, r->line, N_("too many words on one line (more than %d)"), MAX_TOKENS);
    if (n == 0)
        return FIG_OK;   /* blank or comment */
    switch (r->stage) {
    case WANT_MAGIC: {
        uint64_t v;
        if (!word_is(tok[0], "figaro"))
            return fail(r, r->line, N_("not a Figaro game record: the first line must be "
                                       "'figaro 1'"));
        if (n != 2 || !parse_uint(tok[1], 999999, &v))
            return fail(r, r->line, N_("expected 'figaro 1': the magic word and a version"));
        if (v != 1)
            return fail(r, r->line, N_("FGN version %llu is not supported; this program "
                                       "reads version 1"), (unsigned long long)v);
        r->stage = IN_HEADER;
        return FIG_OK;
    }
    case IN_HEADER:
        if (word_is(tok[0], "round")) {
            if ((rc = finish_header(r, r->line)))
                return rc;
            return read_round(r, tok, n);
        }
        return read_header(r, tok, n);
    case IN_HANDS:
        return read_hand(r, tok, n);
    case IN_MOVES:
        if (word_is(tok[0], "round"))
            return read_round(r, tok, n);
        return read_move(r, tok, n);
    }
    return FIG_OK;
}

fig_err_t fig_fgn_read(fig_game_t *g, const char *text, size_t len, fig_msg_t *msg)
{
    reader_t r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.msg = msg;
    if (msg) {
        msg->text[0] = '\0';
        msg->line = 0;
    }
    size_t pos = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;   /* a UTF-8 byte order mark, as some editors write */
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        size_t line_len = end - pos;
        if (line_len && text[pos + line_len - 1] == '\r')
            line_len--;
        r.line++;
        fig_err_t rc = read_line(&r, text + pos, line_len);
        if (rc)
            return rc;
        pos = end + 1;
    }
    int last = r.line ? r.line : 1;
    switch (r.stage) {
    case WANT_MAGIC:
        return fail(&r, last, N_("empty record: a game record starts with 'figaro 1'"));
    case IN_HEADER:
        return finish_header(&r, last);
    case IN_HANDS:
        return fail(&r, last, N_("the record ends inside round %d's deal: %d of %d hands"),
                    g->state.round, r.hands_seen, g->state.players);
    case IN_MOVES:
        break;
    }
    return FIG_OK;
}

/* ---- writer ---- */

typedef struct {
    char *buf;
    size_t cap, len;
} out_t;

static void put(out_t *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(out_t *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + (o->len < o->cap ? o->len : o->cap),
                      o->len < o->cap ? o->cap - o->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len += (size_t)n;
}

size_t fig_fgn_write(const fig_game_t *g, char *buf, size_t cap)
{
    out_t o = { buf, cap, 0 };
    const fig_setup_t *s = &g->setup;
    int n = s->players;
    if (cap)
        buf[0] = '\0';
    put(&o, "figaro 1\nplayers %d\n", n);
    if (g->has_names) {
        put(&o, "names");
        for (int i = 0; i < n; i++)
            put(&o, " %s", g->names[i]);
        put(&o, "\n");
    }
    if (s->has_seed)
        put(&o, "seed %llu\n", (unsigned long long)s->seed);
    put(&o, "removed %c\nroads", n == 3 ? fig_colour_letter(s->removed) : '-');
    for (int r = 0; r < FIG_ROUNDS; r++) {
        if (r)
            put(&o, " /");
        for (int i = 0; i < n - 1; i++)
            put(&o, " %u", (unsigned)s->roads[r][i]);
    }
    put(&o, "\nking %d\n", s->king);
    for (int r = 0; r < g->dealt; r++) {
        put(&o, "\nround %d\n", r + 1);
        for (int seat = 0; seat < n; seat++) {
            char cards[FIG_DECK_MAX * 5 + 1];
            fig_hand_format(&g->hands[r][seat], cards, sizeof cards);
            put(&o, "hand %d %s\n", seat, cards);
        }
        for (int i = 0; i < g->nmoves[r]; i++) {
            char act[16];
            put(&o, "%d %s\n", g->moves[r][i].seat, fig_act_format(g->moves[r][i].action, act,
                                                                    sizeof act));
        }
    }
    return o.len;
}
