/* fep_engine.c - `figaro engine`: a built-in bot behind FEP (docs/fep.md) on
 * standard input and output, so that any FEP host - this project's own
 * through "cmd:figaro engine --bot ...", or a program in another language -
 * can play against it.
 *
 * The engine is a loop over input lines, each handled on its own. A line that
 * is malformed, too long or out of order is answered with one
 * `info error: <what> (line '<line>')` and otherwise ignored: the bot handle's
 * tracked game only ever changes through lines the rules accept, so one bad
 * line cannot desynchronise the rest. Nothing the host sends can crash the
 * engine; it exits 0 on `quit` and at the end of its input.
 *
 * What the bot learns is exactly what FEP sends: the setup, its own hand per
 * round and every public action (R14). The engine does not apply its own
 * answer to `go`: the host echoes every action, the engine's own included, as
 * a `move` line, and that is what the bot follows. */
#include <ctype.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "figaro/bot.h"

/* A host line is short (the longest, `game` with 6 players, is under 100
 * bytes); anything past this is an error, never a reason to grow a buffer. */
enum { LINE_CAP = 4096, MAX_TOKENS = 96, ECHO_CAP = 100, MAX_MS = 3600000 };

typedef struct {
    fig_bot_t *bot;
    const char *spec;
    bool handshaken;   /* `fep 1` has been answered with `fepok` */
    bool in_game;      /* a `game` line was accepted and no `gameover` came yet */
    int seat;
    int players;
} engine_t;

typedef struct {
    const char *s;
    size_t len;
} tok_t;

/* Every answer is one line, flushed at once: the host waits for it. Returns
 * false when standard output is gone (the host closed it). */
static bool say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static bool say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    return fflush(stdout) == 0 && !ferror(stdout);
}

/* `info error: ...` with the offending line echoed, shortened, and with
 * control characters replaced (in the words quoted in the message too), so
 * the answer stays one printable line. */
static bool reject(const char *line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static bool reject(const char *line, const char *fmt, ...)
{
    char what[256], echo[ECHO_CAP + 4];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    for (char *c = what; *c; c++)
        if (!isprint((unsigned char)*c))
            *c = '?';
    size_t n = 0;
    for (; line[n] && n < ECHO_CAP; n++)
        echo[n] = isprint((unsigned char)line[n]) ? line[n] : '?';
    if (line[n])
        echo[n++] = '.', echo[n++] = '.', echo[n++] = '.';
    echo[n] = '\0';
    return say("info error: %s (line '%s')", what, echo);
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
        if (!isdigit((unsigned char)t.s[i]))
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
static bool on_game(engine_t *e, const char *line, const tok_t tok[], int n)
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
                return reject(line, "game: %s", err);
            have_roads = true;
            break;
        }
        if (i + 1 >= n)
            return reject(line, "game: '%.*s' needs a value", (int)tok[i].len, tok[i].s);
        tok_t v = tok[i + 1];
        long *slot = tok_is(tok[i], "players") ? &players
                     : tok_is(tok[i], "seat")  ? &seat
                     : tok_is(tok[i], "king")  ? &king : NULL;
        if (slot) {
            if (*slot >= 0)
                return reject(line, "game: '%.*s' given twice", (int)tok[i].len, tok[i].s);
            if (!tok_int(v, 0, FIG_MAX_PLAYERS, slot))
                return reject(line, "game: '%.*s' takes a number from 0 to %d", (int)tok[i].len,
                              tok[i].s, FIG_MAX_PLAYERS);
        } else if (tok_is(tok[i], "removed")) {
            if (have_removed)
                return reject(line, "game: 'removed' given twice");
            have_removed = true;
            if (v.len != 1 || (v.s[0] != '-' && fig_colour_parse(v.s[0]) < 0))
                return reject(line, "game: removed takes a colour letter (R, B, G, Y, P) or '-'");
            setup.removed = v.s[0] == '-' ? FIG_NO_COLOUR : fig_colour_parse(v.s[0]);
        } else {
            return reject(line, "game: unknown key '%.*s' (players, seat, king, removed, roads)",
                          (int)tok[i].len, tok[i].s);
        }
    }
    if (players < 0 || seat < 0 || king < 0 || !have_roads)
        return reject(line, "game: players, seat, king and roads are required");
    if (players < FIG_MIN_PLAYERS)
        return reject(line, "game: Figaro is played by 3 to 6 players, not %ld", players);
    for (int g = 0; g < FIG_ROUNDS; g++)
        if (count[g] != players - 1)
            return reject(line, "game: roads group %d has %d lengths; %ld players need %ld", g + 1,
                          count[g], players, players - 1);
    setup.players = (int)players;
    setup.king = (int)king;
    fig_msg_t msg;
    /* fig_bot_game checks the rest (R1-R3) and, on failure, leaves any game in
     * progress as it was. */
    if (fig_bot_game(e->bot, &setup, (int)seat, &msg) != FIG_OK)
        return reject(line, "game: %s", msg.text);
    e->in_game = true;
    e->seat = (int)seat;
    e->players = (int)players;
    return true;
}

static bool on_names(engine_t *e, const char *line, int n)
{
    if (!e->in_game)
        return reject(line, "names: no game has started");
    if (n - 1 != e->players)
        return reject(line, "names: expected %d names, got %d", e->players, n - 1);
    return true;   /* a bot plays the same whoever it faces */
}

/* round <R> hand <card> <card> ... */
static bool on_round(engine_t *e, const char *line, const tok_t tok[], int n)
{
    if (!e->in_game)
        return reject(line, "round: no game has started");
    const fig_state_t *st = fig_bot_state(e->bot);
    long r;
    if (n < 3 || !tok_int(tok[1], 1, FIG_ROUNDS, &r) || !tok_is(tok[2], "hand"))
        return reject(line, "round: expected 'round <1-3> hand <card> <card> ...'");
    if (st->phase != FIG_PHASE_DEAL || r != st->round)
        return reject(line, st->phase == FIG_PHASE_DEAL
                                ? "round: this is not the round that comes next"
                                : "round: the current round has not ended");
    if (n - 3 > FIG_DECK_MAX)
        return reject(line, "round: more cards than the deck holds");
    fig_hand_t hand;
    memset(&hand, 0, sizeof hand);
    for (int i = 3; i < n; i++) {
        int k = fig_kind_parse(tok[i].s, tok[i].len);
        if (k < 0)
            return reject(line, "round: '%.*s' is not a card", (int)tok[i].len, tok[i].s);
        hand.n[k]++;
    }
    fig_msg_t msg;
    if (fig_bot_round(e->bot, &hand, &msg) != FIG_OK)
        return reject(line, "round: %s", msg.text);
    return true;
}

/* move <seat> <action>: anyone's action, the engine's own included. */
static bool on_move(engine_t *e, const char *line, const tok_t tok[], int n)
{
    if (!e->in_game)
        return reject(line, "move: no game has started");
    const fig_state_t *st = fig_bot_state(e->bot);
    long seat;
    if (n != 3 || !tok_int(tok[1], 0, e->players - 1, &seat))
        return reject(line, "move: expected 'move <seat> <action>'");
    if (st->phase != FIG_PHASE_PLAY)
        return reject(line, "move: no round is being played");
    if (seat != st->turn)
        return reject(line, "move: it is seat %d's turn, not seat %ld's", st->turn, seat);
    fig_action_t a = fig_act_parse(tok[2].s, tok[2].len, (int)seat);
    if (a == FIG_ACT_NONE)
        return reject(line, "move: '%.*s' is not an action (R2>1, J1>3, RING, take)",
                      (int)tok[2].len, tok[2].s);
    fig_msg_t msg;
    if (fig_bot_move(e->bot, a, &msg) != FIG_OK)
        return reject(line, "move: %s", msg.text);
    return true;
}

static bool on_go(engine_t *e, const char *line, const tok_t tok[], int n)
{
    long ms;
    if (n != 2 || !tok_int(tok[1], 0, MAX_MS, &ms))
        return reject(line, "go: expected 'go <milliseconds>' (0 to %d)", MAX_MS);
    if (!e->in_game)
        return reject(line, "go: no game has started");
    const fig_state_t *st = fig_bot_state(e->bot);
    if (st->phase != FIG_PHASE_PLAY || st->turn != e->seat)
        return reject(line, "go: it is not seat %d's turn", e->seat);
    /* The bot gets the whole allowance: the host adds a second of slack for
     * the pipes (docs/fep.md), and 0 lets the bot use its own budget. */
    fig_action_t a = fig_bot_choose(e->bot, (int)ms);
    char act[16];
    return say("play %s", fig_act_format(a, act, sizeof act));
}

static bool on_gameover(engine_t *e, const char *line, const tok_t tok[], int n)
{
    if (!e->in_game)
        return reject(line, "gameover: no game has started");
    if (n - 1 != e->players)
        return reject(line, "gameover: expected %d totals, got %d", e->players, n - 1);
    const fig_state_t *st = fig_bot_state(e->bot);
    bool differ = false;
    for (int s = 0; s < e->players; s++) {
        long v;
        if (!tok_int(tok[1 + s], 0, 3L * FIG_MAX_ROAD, &v))
            return reject(line, "gameover: '%.*s' is not a road total", (int)tok[1 + s].len,
                          tok[1 + s].s);
        differ |= v != fig_state_road(st, s);
    }
    fig_bot_game_over(e->bot);
    e->in_game = false;
    /* A host may end a game early; only a finished game's totals must agree. */
    if (differ && st->phase == FIG_PHASE_OVER)
        return reject(line, "gameover: the totals differ from the game this engine followed");
    return true;
}

/* Handles one line; returns false when the engine should stop (quit, or the
 * host is gone). */
static bool handle(engine_t *e, const char *line)
{
    tok_t tok[MAX_TOKENS];
    int n = tokenize(line, tok);
    if (n < 0)
        return reject(line, "too many words");
    if (n == 0)
        return true;   /* blank lines are harmless */
    if (tok_is(tok[0], "quit"))
        return false;
    if (tok_is(tok[0], "fep")) {
        if (n != 2 || !tok_is(tok[1], "1"))
            return reject(line, "this engine speaks FEP version 1: expected 'fep 1'");
        e->handshaken = true;
        return say("id name figaro %s", e->spec) && say("id author the figaro project") &&
               say("fepok");
    }
    if (!e->handshaken)
        return reject(line, "expected 'fep 1' first");
    if (tok_is(tok[0], "game"))
        return on_game(e, line, tok, n);
    if (tok_is(tok[0], "names"))
        return on_names(e, line, n);
    if (tok_is(tok[0], "round"))
        return on_round(e, line, tok, n);
    if (tok_is(tok[0], "move"))
        return on_move(e, line, tok, n);
    if (tok_is(tok[0], "go"))
        return on_go(e, line, tok, n);
    if (tok_is(tok[0], "gameover"))
        return on_gameover(e, line, tok, n);
    return reject(line, "unknown command '%.*s' (fep, game, names, round, move, go, gameover, "
                        "quit)", (int)tok[0].len, tok[0].s);
}

/* Reads one line into buf (cap bytes) without its "\n" or "\r\n". Returns 1
 * for a line, 0 for a line too long (the rest of it is skipped), -1 at the end
 * of input (a last line without "\n" still counts as a line). */
static int read_line(FILE *in, char *buf, size_t cap)
{
    size_t n = 0;
    bool too_long = false;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 < cap)
            buf[n++] = (char)c;
        else
            too_long = true;
    }
    if (c == EOF && n == 0 && !too_long)
        return -1;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return too_long ? 0 : 1;
}

int cmd_engine(int argc, char **argv)
{
    static const struct option opts[] = {
        { "bot", required_argument, NULL, 'b' },
        { "seed", required_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *spec = NULL;
    uint64_t seed = 0;
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":b:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': spec = optarg; break;
        case 's':
            if (cli_parse_u64(optarg, &seed))
                return cli_usage_error("engine", "--seed takes a whole number from 0 to "
                                       "18446744073709551615, not '%s'", optarg);
            break;
        case 'h': return cli_help("engine");
        case ':':
            return cli_usage_error("engine", "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("engine", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind != argc)
        return cli_usage_error("engine", "unexpected argument '%s'", argv[optind]);
    if (!spec)
        return cli_usage_error("engine", "--bot SPEC is required (e.g. --bot greedy)");
    engine_t e = { .spec = spec, .seat = -1 };
    fig_msg_t msg;
    if (fig_bot_new(&e.bot, spec, seed, &msg) != FIG_OK)
        return cli_usage_error("engine", "%s", msg.text);

    /* A host that goes away must end the engine quietly, not with a signal:
     * a failed write is noticed by say(). This process is ours alone. */
    signal(SIGPIPE, SIG_IGN);
    char line[LINE_CAP];
    int status = EXIT_OK;
    for (;;) {
        int got = read_line(stdin, line, sizeof line);
        if (got < 0)
            break;   /* end of input: the host is done with us */
        bool go_on = got == 0 ? reject(line, "line longer than %d bytes", LINE_CAP - 1)
                              : handle(&e, line);
        if (!go_on) {
            if (ferror(stdout))
                status = EXIT_INPUT;
            break;
        }
    }
    fig_bot_free(e.bot);
    return status;
}
