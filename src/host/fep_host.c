/* SPDX-License-Identifier: MIT */
/* fep_host.c - the host side of FEP (docs/fep.md): a bot handle whose
 * decisions come from an external program, and fig_bot_any_new, which makes
 * any bot from its spec.
 *
 * One engine_t drives at most one child process at a time (fep_child.h). The
 * process is started at the first `game` and kept for the following games.
 * The bot handle calls the ops in game order (bot.c), and each op becomes one
 * FEP line: game, round, move, go, gameover.
 *
 * Faults (fep.md): a bad handshake, a malformed or illegal answer, an answer
 * later than ms + 1000, an engine that exits or stops reading its input. On
 * the first fault of a game the process (its whole process group) is killed
 * and reaped, the fault is counted and recorded (fig_fault_t: what happened,
 * how the process ended, its last `info` line) for the host to take, and the
 * seat plays uniformly random legal actions until the game ends; the next
 * `game` starts a fresh process. So an engine commits at most one fault per
 * game. The messages are N_() patterns formatted at display time
 * (fig_fault_text, fep_fault.c), in the reader's language.
 *
 * Cancelling: a think's cancel flag (fig_bot_turn_t) and the flag given to
 * fig_bot_watch are read while waiting, in slices of SLICE_MS. When one is
 * set the engine is killed without a fault (the host gave up, not the
 * engine) and the seat plays random actions for the rest of the game: an
 * engine still thinking would otherwise answer the next `go` with this one's
 * move.
 *
 * Nothing an engine does can crash or stall the host:
 *   - every read waits in poll() against a deadline, and a line longer than
 *     FIG_FEP_LINE_CAP is a fault, never a bigger buffer; what a line is, is
 *     decided by a pure function (fig_fep_parse_line, fep_line.h), which is
 *     fuzzed;
 *   - writes are non-blocking, bounded in time and cannot raise SIGPIPE
 *     (fig_fep_child_write), so a dead engine is an EPIPE, not a dead host;
 *   - every child is reaped when it is stopped: no zombies.
 *
 * Choices left open by fep.md (and those of fep_child.c):
 *   - an engine that exits between games (after `gameover`) is restarted
 *     for the next one without a fault: no game was played by it badly;
 *   - the host sends no `names` line: a bot handle does not know the names.
 *
 * Threads: an engine_t belongs to one bot handle, used by one thread at a
 * time (a match's job, on whichever pool worker runs it); the only state
 * read from another thread is the two cancel flags, which are atomics. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/fep_child.h"
#include "host/fep_fault.h"
#include "host/fep_host.h"
#include "host/fep_line.h"
#include "host/util.h"

enum {
    LINE_CAP = FIG_FEP_LINE_CAP,   /* longest engine line, "\n" included: longer is a fault */
    HANDSHAKE_MS = 5000,   /* fep.md: `fepok` within 5 s */
    SLACK_MS = 1000,       /* fep.md: an answer is late after ms + 1000 */
    WRITE_MS = 2000,       /* an engine that leaves its input unread this long is stuck */
    QUIT_MS = 500,         /* how long `quit` may take before the kill */
    DEFAULT_MS = 1000,     /* move time when neither the host nor the caller gives one */
    MAX_ARGS = 64,
    INFO_KEEP = 4,         /* recent `info` lines kept for fault messages */
    INFO_LEN = 160,
    FAULT_KEEP = 4,        /* faults kept until the host takes them */
    SLICE_MS = 20,         /* how often a wait looks at the cancel flags */
};

typedef struct {
    char *spec;                  /* "cmd:...", for messages */
    char *args;                  /* the words of the spec, NUL-separated; argv points here */
    char *argv[MAX_ARGS + 1];
    char *path;                  /* argv[0] resolved on PATH */
    int move_ms;
    fig_rng_t rng;               /* the random fallback after a fault */
    fig_fep_child_t child;       /* the running engine, pid 0 for none */
    bool fallback;               /* this game is played by random actions (after a fault) */
    int faults;
    int seat, players;
    size_t len;                  /* bytes in buf, not yet a whole line */
    char buf[LINE_CAP];
    char info[INFO_KEEP][INFO_LEN];
    int ninfo;                   /* info lines seen in this process's life */
    const atomic_bool *closing;  /* fig_bot_watch's flag, or NULL */
    fig_fault_t kept[FAULT_KEEP];   /* faults not taken yet, oldest at first_kept */
    int first_kept, nkept;
} engine_t;

/* Milliseconds until deadline, for poll(): at least 0, at most INT_MAX-ish. */
static int left_ms(long long deadline)
{
    long long left = deadline - fig_clock_ms();
    return left < 0 ? 0 : left > 1000000000 ? 1000000000 : (int)left;
}

static bool flagged(const atomic_bool *flag)
{
    return flag && atomic_load(flag);
}

/* Whether a wait must give up: the think's cancel flag (may be NULL) or, when
 * `watch`, the flag from fig_bot_watch. */
static bool called_off(const engine_t *e, const atomic_bool *cancel, bool watch)
{
    return flagged(cancel) || (watch && flagged(e->closing));
}

/* How long the next poll() may sleep: all that is left, or a slice when a
 * flag may call the wait off. */
static int wait_ms(const engine_t *e, long long deadline, const atomic_bool *cancel, bool watch)
{
    int left = left_ms(deadline);
    return (cancel || (watch && e->closing)) && left > SLICE_MS ? SLICE_MS : left;
}

/* ---- writing and reading lines */

/* Sends one line ("\n" added), giving up when called off (watch: see
 * called_off). Returns true when sent; false with the fault in *f, or with
 * f->kind FIG_FAULT_NONE when called off. */
static bool send_line(engine_t *e, fig_fault_t *f, bool watch, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static bool send_line(engine_t *e, fig_fault_t *f, bool watch, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) {
        *f = fig_fep_fault(FIG_FAULT_WRITE);   /* cannot happen: the host's lines are short */
        f->sys_errno = EMSGSIZE;
        return false;
    }
    line[n++] = '\n';
    long long deadline = fig_clock_ms() + WRITE_MS;
    for (size_t done = 0; done < (size_t)n; ) {
        ssize_t w = fig_fep_child_write(&e->child, line + done, (size_t)n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EPIPE) {
            fig_fep_child_await_exit(&e->child);
            *f = fig_fep_fault(FIG_FAULT_INPUT_CLOSED);
            return false;
        }
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            *f = fig_fep_fault(FIG_FAULT_WRITE);
            f->sys_errno = errno;
            return false;
        }
        if (called_off(e, NULL, watch)) {
            *f = fig_fep_fault(FIG_FAULT_NONE);
            return false;
        }
        struct pollfd p = { e->child.to_fd, POLLOUT, 0 };
        int r = poll(&p, 1, wait_ms(e, deadline, NULL, watch));
        if (r == 0 && left_ms(deadline) == 0) {
            *f = fig_fep_fault(FIG_FAULT_DEAF);
            f->ms = WRITE_MS;
            return false;
        }
        if (r < 0 && errno != EINTR) {
            *f = fig_fep_fault(FIG_FAULT_WAIT);
            f->sys_errno = errno;
            return false;
        }
    }
    return true;
}

enum { LINE_OK = 1, LINE_TIMEOUT = 0, LINE_EOF = -1, LINE_LONG = -2, LINE_OFF = -3 };

/* Reads one line (without "\n" or "\r\n") into out, which has LINE_CAP
 * bytes, by the deadline. Returns LINE_OK and the length in *len, or
 * LINE_TIMEOUT, LINE_EOF (output closed or a read error), LINE_LONG, or
 * LINE_OFF when called off (cancel, watch: see called_off). */
static int read_line(engine_t *e, long long deadline, char *out, size_t *len,
                     const atomic_bool *cancel, bool watch)
{
    for (;;) {
        if (fig_fep_split_line(e->buf, &e->len, out, len))
            return LINE_OK;
        if (e->len == sizeof e->buf)
            return LINE_LONG;
        if (called_off(e, cancel, watch))
            return LINE_OFF;
        int wait = wait_ms(e, deadline, cancel, watch);
        struct pollfd p = { e->child.from_fd, POLLIN, 0 };
        int r = wait > 0 ? poll(&p, 1, wait) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return LINE_EOF;
        if (r == 0) {
            if (left_ms(deadline) > 0)
                continue;   /* a slice ended: look at the flags again */
            return LINE_TIMEOUT;   /* even if an engine floods lines: time is up */
        }
        ssize_t got = read(e->child.from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (got <= 0)
            return LINE_EOF;
        e->len += (size_t)got;
    }
}

/* Keeps an `info` line, control characters as '?', for fault messages. */
static void keep_info(engine_t *e, const char *line)
{
    char *slot = e->info[e->ninfo++ % INFO_KEEP];
    size_t i = 0;
    for (; line[i] && i + 1 < INFO_LEN; i++)
        slot[i] = (unsigned char)line[i] < 32 ? '?' : line[i];
    slot[i] = '\0';
}

/* Copies at most 60 printable bytes of an engine's line, for a message. */
static void shorten(const char *line, size_t len, char *out, size_t cap)
{
    size_t n = 0, max = cap > 64 ? 60 : cap - 4;
    for (; n < len && n < max; n++)
        out[n] = (unsigned char)line[n] < 32 || line[n] == 127 ? '?' : line[n];
    if (n < len)
        out[n++] = '.', out[n++] = '.', out[n++] = '.';
    out[n] = '\0';
}

/* ---- faults */

/* Stops the engine: with `polite`, sends quit and waits up to QUIT_MS for it
 * to close its output; then kills its process group and reaps it. f (may be
 * NULL) receives how it ended, as seen before the kill. */
static void stop(engine_t *e, bool polite, fig_fault_t *f);

/* Counts a fault, stops the engine and switches the seat to random actions
 * for the rest of the game; keeps the fault, completed with the seat, the
 * spec, how the process ended and its last `info` line (which often says
 * what it disliked), for the host to take. */
static void fault(engine_t *e, fig_fault_t f)
{
    bool was_running = e->child.pid != 0;
    stop(e, false, was_running ? &f : NULL);
    e->faults++;
    e->fallback = true;
    f.seat = e->seat;
    snprintf(f.spec, sizeof f.spec, "%s", e->spec);
    if (e->ninfo)
        snprintf(f.info, sizeof f.info, "%s", e->info[(e->ninfo - 1) % INFO_KEEP]);
    if (e->nkept == FAULT_KEEP) {   /* nobody took them: the oldest goes */
        e->first_kept = (e->first_kept + 1) % FAULT_KEEP;
        e->nkept--;
    }
    e->kept[(e->first_kept + e->nkept++) % FAULT_KEEP] = f;
}

/* The host gave up waiting (a cancelled think, a match being freed): the
 * engine is stopped without a fault, and random actions finish the game. */
static void call_off(engine_t *e)
{
    stop(e, false, NULL);
    e->fallback = true;
}

/* A failed send: a fault, or the host calling it off. */
static void send_failed(engine_t *e, const fig_fault_t *f)
{
    if (f->kind == FIG_FAULT_NONE)
        call_off(e);
    else
        fault(e, *f);
}

static void stop(engine_t *e, bool polite, fig_fault_t *f)
{
    if (!e->child.pid)
        return;
    if (polite) {
        fig_fault_t ignored;
        if (send_line(e, &ignored, false, "quit")) {
            /* Then the end of its input, for engines (and wrapper scripts)
             * that stop at that rather than at `quit`; and wait for the end
             * of its output, throwing away what comes. */
            fig_fep_child_close_input(&e->child);
            long long deadline = fig_clock_ms() + QUIT_MS;
            char line[LINE_CAP];
            size_t n;
            int r;
            while ((r = read_line(e, deadline, line, &n, NULL, false)) == LINE_OK ||
                   r == LINE_LONG)
                e->len = 0;
        }
    }
    if (f)
        fig_fep_child_exited(&e->child, f);
    fig_fep_child_kill(&e->child);
    e->len = 0;
}

/* Starts a process and does the handshake: `fep 1`, then `id` and `info`
 * lines until `fepok`, all within HANDSHAKE_MS. A fault on failure (or the
 * engine stopped, if the host called it off). */
static bool start(engine_t *e)
{
    fig_fault_t f;
    e->len = 0;
    e->ninfo = 0;
    if (!fig_fep_child_spawn(&e->child, e->path, e->argv, &f)) {
        fault(e, f);
        return false;
    }
    if (!send_line(e, &f, true, "fep 1")) {
        send_failed(e, &f);
        return false;
    }
    long long deadline = fig_clock_ms() + HANDSHAKE_MS;
    char line[LINE_CAP];
    size_t len;
    for (;;) {
        int r = read_line(e, deadline, line, &len, NULL, true);
        if (r == LINE_OFF) {
            call_off(e);
            return false;
        }
        if (r == LINE_TIMEOUT) {
            f = fig_fep_fault(FIG_FAULT_HANDSHAKE_TIMEOUT);
            f.ms = HANDSHAKE_MS;
            fault(e, f);
            return false;
        }
        if (r == LINE_EOF) {
            fig_fep_child_await_exit(&e->child);
            fault(e, fig_fep_fault(FIG_FAULT_HANDSHAKE_EXIT));
            return false;
        }
        if (r == LINE_LONG) {
            f = fig_fep_fault(FIG_FAULT_HANDSHAKE_LONG);
            f.ms = LINE_CAP - 1;
            fault(e, f);
            return false;
        }
        switch (fig_fep_parse_line(line, len, 0, NULL)) {
        case FIG_FEP_BLANK:
        case FIG_FEP_ID:      /* name and author: nothing here shows them */
            continue;
        case FIG_FEP_INFO:
            keep_info(e, line);
            continue;
        case FIG_FEP_FEPOK:
            return true;
        default:
            f = fig_fep_fault(FIG_FAULT_HANDSHAKE_ANSWER);
            shorten(line, len, f.line, sizeof f.line);
            fault(e, f);
            return false;
        }
    }
}

/* ---- the ops */

static fig_action_t random_action(engine_t *e, const fig_bot_turn_t *turn)
{
    return fig_state_random_action(turn->guess, &e->rng);
}

/* Sends one line to a live engine; a failure is the game's fault. */
static void tell(engine_t *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void tell(engine_t *e, const char *fmt, ...)
{
    if (e->fallback || !e->child.pid)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fig_fault_t f;
    if (!send_line(e, &f, true, "%s", line))
        send_failed(e, &f);
}

static void host_game(void *data, const fig_setup_t *setup, int seat)
{
    engine_t *e = data;
    e->seat = seat;
    e->players = setup->players;
    e->fallback = false;
    if (e->child.pid && fig_fep_child_exited(&e->child, NULL))
        stop(e, false, NULL);   /* it left after the last game: start afresh, no fault */
    if (!e->child.pid && !start(e))
        return;
    char roads[160];
    size_t n = 0;
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < setup->players - 1; i++)
            fig_putf(roads, sizeof roads, &n, "%s%u", i == 0 && r > 0 ? " / " : i > 0 ? " " : "",
                     (unsigned)setup->roads[r][i]);
    char removed = setup->players == 3 ? fig_colour_letter(setup->removed) : '-';
    tell(e, "game players %d seat %d king %d removed %c roads %s", setup->players, seat,
         setup->king, removed, roads);
}

static void host_round(void *data, int round, const fig_hand_t *hand)
{
    engine_t *e = data;
    char cards[FIG_DECK_MAX * 5 + 1];
    fig_hand_format(hand, cards, sizeof cards);
    tell(e, "round %d hand %s", round, cards);
}

static void host_move(void *data, int seat, fig_action_t a)
{
    engine_t *e = data;
    char act[16];
    tell(e, "move %d %s", seat, fig_act_format(a, act, sizeof act));
}

static void host_game_over(void *data, const int totals[])
{
    engine_t *e = data;
    char line[128] = "";
    size_t n = 0;
    for (int s = 0; s < e->players; s++)
        fig_putf(line, sizeof line, &n, " %d", totals[s]);
    tell(e, "gameover%s", line);
}

static fig_action_t host_choose(void *data, const fig_bot_turn_t *turn)
{
    engine_t *e = data;
    if (e->fallback || !e->child.pid)
        return random_action(e, turn);
    int ms = turn->ms > 0 ? turn->ms : e->move_ms > 0 ? e->move_ms : DEFAULT_MS;
    char line[LINE_CAP];
    fig_fault_t f;
    if (flagged(turn->cancel) || !send_line(e, &f, true, "go %d", ms)) {
        if (flagged(turn->cancel))
            call_off(e);
        else
            send_failed(e, &f);
        return random_action(e, turn);
    }
    long long deadline = fig_clock_ms() + ms + SLACK_MS;
    for (;;) {
        size_t len;
        int r = read_line(e, deadline, line, &len, turn->cancel, true);
        if (r == LINE_OFF) {
            call_off(e);
            return random_action(e, turn);
        }
        if (r != LINE_OK) {
            if (r == LINE_TIMEOUT) {
                f = fig_fep_fault(FIG_FAULT_LATE);
                f.limit_ms = ms + SLACK_MS;
            } else if (r == LINE_EOF) {
                fig_fep_child_await_exit(&e->child);
                f = fig_fep_fault(FIG_FAULT_EXIT);
            } else {
                f = fig_fep_fault(FIG_FAULT_LONG);
                f.limit_ms = LINE_CAP - 1;
            }
            f.ms = ms;
            fault(e, f);
            return random_action(e, turn);
        }
        fig_action_t a;
        switch (fig_fep_parse_line(line, len, turn->view->seat, &a)) {
        case FIG_FEP_BLANK:
            continue;   /* a blank line is no answer, and no harm */
        case FIG_FEP_INFO:
            keep_info(e, line);
            continue;
        case FIG_FEP_PLAY: {
            fig_msg_t msg;
            if (fig_state_check(turn->guess, a, &msg) == FIG_OK)
                return a;
            f = fig_fep_fault(FIG_FAULT_ILLEGAL);
            snprintf(f.detail, sizeof f.detail, "%s", msg.text);
            break;
        }
        case FIG_FEP_MALFORMED:
            f = fig_fep_fault(FIG_FAULT_MALFORMED);
            break;
        default:
            f = fig_fep_fault(FIG_FAULT_NOT_PLAY);
            break;
        }
        shorten(line, len, f.line, sizeof f.line);
        fault(e, f);
        return random_action(e, turn);
    }
}

static int host_faults(void *data)
{
    return ((engine_t *)data)->faults;
}

static bool host_take_fault(void *data, fig_fault_t *out)
{
    engine_t *e = data;
    if (!e->nkept)
        return false;
    *out = e->kept[e->first_kept];
    e->first_kept = (e->first_kept + 1) % FAULT_KEEP;
    e->nkept--;
    return true;
}

static void host_watch(void *data, const atomic_bool *closing)
{
    ((engine_t *)data)->closing = closing;
}

static void host_seed(void *data, uint64_t seed)
{
    fig_rng_seed_stream(&((engine_t *)data)->rng, seed, 0xFE9);
}

static void host_free(void *data)
{
    engine_t *e = data;
    if (!e)
        return;
    stop(e, true, NULL);
    free(e->spec);
    free(e->args);
    free(e->path);
    free(e);
}

static const fig_bot_ops_t fep_ops = {
    .kind = "cmd",
    .choose = host_choose,
    .game = host_game,
    .round = host_round,
    .move = host_move,
    .game_over = host_game_over,
    .faults = host_faults,
    .seed = host_seed,
    .free = host_free,
    .take_fault = host_take_fault,
    .watch = host_watch,
};

fig_err_t fep_host_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                           fig_msg_t *msg)
{
    *out = NULL;
    if (strncmp(spec, "cmd:", 4) != 0)
        return fig_fail(msg, FIG_ERR_INPUT, N_("'%s' is not an engine: write cmd:PROGRAM ARGS"),
                        spec);
    engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    e->child.to_fd = e->child.from_fd = -1;
    e->seat = -1;
    e->move_ms = move_ms;
    fig_rng_seed_stream(&e->rng, seed, 0xFE9);
    e->spec = strdup(spec);
    e->args = strdup(spec + 4);
    if (!e->spec || !e->args) {
        host_free(e);
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    /* Split on spaces and tabs, no shell: "cmd:figaro engine --bot greedy". */
    int argc = 0;
    for (char *p = e->args; *p; ) {
        while (*p == ' ' || *p == '\t')
            *p++ = '\0';
        if (!*p)
            break;
        if (argc == MAX_ARGS) {
            host_free(e);
            return fig_fail(msg, FIG_ERR_INPUT, N_("'%s': more than %d words"), spec, MAX_ARGS);
        }
        e->argv[argc++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    e->argv[argc] = NULL;
    if (argc == 0) {
        host_free(e);
        return fig_fail(msg, FIG_ERR_INPUT, N_("'%s': no program after 'cmd:'"), spec);
    }
    fig_err_t rc = fig_fep_child_resolve(e->argv[0], &e->path, msg);
    if (rc) {
        host_free(e);
        return rc;
    }
    *out = fig_bot_wrap(&fep_ops, e, spec);
    if (!*out)
        return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    return FIG_OK;
}

fig_err_t fig_bot_any_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                          fig_msg_t *msg)
{
    if (strncmp(spec, "cmd:", 4) == 0)
        return fep_host_bot_new(out, spec, seed, move_ms, msg);
    return fig_bot_new(out, spec, seed, msg);
}

