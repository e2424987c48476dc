/* fep_host.c - the host side of FEP (docs/fep.md): a bot handle whose
 * decisions come from an external program, and cli_bot_new, which makes any
 * bot from its spec.
 *
 * One engine_t drives at most one child process at a time. The process is
 * started at the first `game` (fork, then execve of a program resolved on
 * PATH when the bot is created, so a typo is a usage error, not a fault) and
 * kept for the following games. The bot handle calls the ops in game order
 * (bot.c), and each op becomes one FEP line: game, round, move, go, gameover.
 *
 * Faults (fep.md): a bad handshake, a malformed or illegal answer, an answer
 * later than ms + 1000, an engine that exits or stops reading its input. On
 * the first fault of a game the process (its whole process group) is killed
 * and reaped, the fault is counted and told on standard error, and the seat
 * plays uniformly random legal actions until the game ends; the next `game`
 * starts a fresh process. So an engine commits at most one fault per game.
 *
 * Nothing an engine does can crash or stall the host:
 *   - every read waits in poll() against a deadline, and a line longer than
 *     LINE_CAP is a fault, never a bigger buffer;
 *   - writes are non-blocking and also bounded in time, and SIGPIPE is blocked
 *     in the writing thread and consumed if it was raised (the technique of
 *     libpq), so a dead engine is an EPIPE, not a dead host; the host's signal
 *     dispositions are left alone;
 *   - every child is reaped (waitpid) when it is stopped: no zombies.
 *
 * Choices left open by fep.md:
 *   - the engine's standard error is the host's own: an engine's diagnostics
 *     show where the host's do (the arena's terminal), which is what someone
 *     writing an engine needs;
 *   - the engine runs in its own process group, so a fault kills any helper
 *     process it started, too; the price is that Ctrl-C at the terminal
 *     reaches the host only, and the engines learn that the host is gone from
 *     the end of their input (every FEP engine should exit then);
 *   - an engine that exits between games (after `gameover`) is restarted
 *     for the next one without a fault: no game was played by it badly;
 *   - the host sends no `names` line: a bot handle does not know the names.
 *
 * Threads: an engine_t belongs to one bot handle, used by one thread at a
 * time; there is no shared state. The arena forks from several threads at
 * once, so the child closes every descriptor it does not need before exec:
 * a pipe of another engine leaked into this one would hide that engine's
 * exit from its host. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/fep_host.h"
#include "host/util.h"

extern char **environ;   /* POSIX: the environment the engine inherits */

enum {
    LINE_CAP = 4096,       /* longest engine line, "\n" included: longer is a fault */
    HANDSHAKE_MS = 5000,   /* fep.md: `fepok` within 5 s */
    SLACK_MS = 1000,       /* fep.md: an answer is late after ms + 1000 */
    WRITE_MS = 2000,       /* an engine that leaves its input unread this long is stuck */
    QUIT_MS = 500,         /* how long `quit` may take before the kill */
    DEFAULT_MS = 1000,     /* move time when neither the host nor the caller gives one */
    MAX_ARGS = 64,
    MAX_FDS = 4096,        /* descriptors the child closes before exec */
    INFO_KEEP = 4,         /* recent `info` lines kept for fault messages */
    INFO_LEN = 160,
};

typedef struct {
    char *spec;                  /* "cmd:...", for messages */
    char *args;                  /* the words of the spec, NUL-separated; argv points here */
    char *argv[MAX_ARGS + 1];
    char *path;                  /* argv[0] resolved on PATH */
    int move_ms;
    fig_rng_t rng;               /* the random fallback after a fault */
    pid_t pid;                   /* the running engine, 0 for none */
    int to_fd, from_fd;          /* its standard input and output, -1 when closed */
    bool fallback;               /* this game is played by random actions (after a fault) */
    int faults;
    int seat, players;
    size_t len;                  /* bytes in buf, not yet a whole line */
    char buf[LINE_CAP];
    char info[INFO_KEEP][INFO_LEN];
    int ninfo;                   /* info lines seen in this process's life */
} engine_t;

/* Milliseconds until deadline, for poll(): at least 0, at most INT_MAX-ish. */
static int left_ms(long long deadline)
{
    long long left = deadline - fig_clock_ms();
    return left < 0 ? 0 : left > 1000000000 ? 1000000000 : (int)left;
}

/* ---- the child process */

/* Finds PROGRAM as execvp would: a name with a '/' as it is, otherwise the
 * first executable file of that name in $PATH. On success *out is a
 * malloc'ed path. Done before fork, because a forked child of a threaded host
 * may only call async-signal-safe functions, and execvp's search is not one. */
static fig_err_t resolve(const char *prog, char **out, fig_msg_t *msg)
{
    struct stat sb;
    if (strchr(prog, '/')) {
        if (stat(prog, &sb) != 0 || !S_ISREG(sb.st_mode) || access(prog, X_OK) != 0)
            return fig_fail(msg, FIG_ERR_INPUT, "engine program '%s' is not an executable file",
                            prog);
        *out = strdup(prog);
        return *out ? FIG_OK : fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    size_t plen = strlen(prog);
    for (const char *dir = path;; ) {
        size_t dlen = strcspn(dir, ":");
        char *cand = malloc(dlen + plen + 3);
        if (!cand)
            return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
        /* An empty entry means the current directory (POSIX). */
        snprintf(cand, dlen + plen + 3, "%.*s/%s", dlen ? (int)dlen : 1, dlen ? dir : ".", prog);
        if (stat(cand, &sb) == 0 && S_ISREG(sb.st_mode) && access(cand, X_OK) == 0) {
            *out = cand;
            return FIG_OK;
        }
        free(cand);
        if (!dir[dlen])
            break;
        dir += dlen + 1;
    }
    return fig_fail(msg, FIG_ERR_INPUT, "engine program '%s' not found in PATH", prog);
}

static int set_flags(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ? -1 : 0;
}

static void close_pair(int p[2])
{
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
}

/* Starts the engine with pipes for its standard input and output. Returns
 * false with the reason in why. */
static bool spawn(engine_t *e, char *why, size_t cap)
{
    int in[2] = { -1, -1 }, out[2] = { -1, -1 };
    if (pipe(in) != 0 || pipe(out) != 0) {
        snprintf(why, cap, "cannot create pipes: %s", strerror(errno));
        close_pair(in);
        close_pair(out);
        return false;
    }
    /* Close-on-exec narrows the window in which another thread's child can
     * inherit these; the child's own sweep below closes it. */
    for (int i = 0; i < 2; i++) {
        fcntl(in[i], F_SETFD, FD_CLOEXEC);
        fcntl(out[i], F_SETFD, FD_CLOEXEC);
    }
    long maxfd = sysconf(_SC_OPEN_MAX);
    if (maxfd < 0 || maxfd > MAX_FDS)
        maxfd = MAX_FDS;
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, cap, "cannot start a process: %s", strerror(errno));
        close_pair(in);
        close_pair(out);
        return false;
    }
    if (pid == 0) {
        /* The child: async-signal-safe calls only, then exec. */
        setpgid(0, 0);
        if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0)
            _exit(127);
        fcntl(0, F_SETFD, 0);   /* dup2 onto the same number keeps close-on-exec */
        fcntl(1, F_SETFD, 0);
        for (int fd = 3; fd < maxfd; fd++)
            close(fd);
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGPIPE, &dfl, NULL);   /* an engine gets the usual signals */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execve(e->path, e->argv, environ);
        _exit(127);
    }
    setpgid(pid, pid);   /* also from here, so a kill right away finds the group */
    close(in[0]);
    close(out[1]);
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    e->len = 0;
    e->ninfo = 0;
    if (set_flags(e->to_fd) || set_flags(e->from_fd)) {
        snprintf(why, cap, "cannot set up the pipes: %s", strerror(errno));
        return false;   /* the caller stops the process */
    }
    return true;
}

/* Stops the engine: with `polite`, sends quit and waits up to QUIT_MS for it
 * to close its output; then kills its process group and reaps it. `how`
 * (may be NULL) receives how it ended, as seen before the kill. */
static void stop(engine_t *e, bool polite, char *how, size_t cap);

/* Whether the engine has exited, without reaping it (so its pid and process
 * group stay ours to kill); if so, `how` (may be NULL) says how it ended:
 * "exit status 3", "killed by signal 11". */
static bool exited(const engine_t *e, char *how, size_t cap)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)e->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
        return false;
    if (how)
        snprintf(how, cap, info.si_code == CLD_EXITED ? "exit status %d" : "killed by signal %d",
                 info.si_status);
    return true;
}

/* After the end of an engine's output, gives it up to 100 ms to exit, so
 * that a fault message can say how it ended rather than "killed by signal 9"
 * from our own kill. */
static void await_exit(const engine_t *e)
{
    struct timespec step = { 0, 5 * 1000000L };
    for (int i = 0; i < 20 && !exited(e, NULL, 0); i++)
        nanosleep(&step, NULL);
}

/* ---- writing and reading lines */

/* write() without SIGPIPE: the signal is blocked in this thread during the
 * call and, if the write raised it, consumed before it is unblocked. */
static ssize_t write_quiet(int fd, const char *p, size_t n)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t w = write(fd, p, n);
    int err = errno;
    if (w < 0 && err == EPIPE && !was_pending) {
        struct timespec zero = { 0, 0 };
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = err;
    return w;
}

/* Sends one line ("\n" added). Returns false with the reason in why. */
static bool send_line(engine_t *e, char *why, size_t cap, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static bool send_line(engine_t *e, char *why, size_t cap, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line - 1) {
        snprintf(why, cap, "host line too long");   /* cannot happen: lines are short */
        return false;
    }
    line[n++] = '\n';
    long long deadline = fig_clock_ms() + WRITE_MS;
    for (size_t done = 0; done < (size_t)n; ) {
        ssize_t w = write_quiet(e->to_fd, line + done, (size_t)n - done);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EPIPE) {
            await_exit(e);
            snprintf(why, cap, "closed its input");
            return false;
        }
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            snprintf(why, cap, "cannot write to it: %s", strerror(errno));
            return false;
        }
        struct pollfd p = { e->to_fd, POLLOUT, 0 };
        int r = poll(&p, 1, left_ms(deadline));
        if (r == 0) {
            snprintf(why, cap, "stopped reading its input for %d ms", WRITE_MS);
            return false;
        }
        if (r < 0 && errno != EINTR) {
            snprintf(why, cap, "cannot wait for it: %s", strerror(errno));
            return false;
        }
    }
    return true;
}

enum { LINE_OK = 1, LINE_TIMEOUT = 0, LINE_EOF = -1, LINE_LONG = -2 };

/* Reads one line (without "\n" or "\r\n") into out, which has LINE_CAP
 * bytes, by the deadline. Returns LINE_OK and the length in *len, or
 * LINE_TIMEOUT, LINE_EOF (output closed or a read error), LINE_LONG. */
static int read_line(engine_t *e, long long deadline, char *out, size_t *len)
{
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            memcpy(out, e->buf, n);
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            if (n > 0 && out[n - 1] == '\r')
                n--;
            out[n] = '\0';
            *len = n;
            return LINE_OK;
        }
        if (e->len == sizeof e->buf)
            return LINE_LONG;
        int wait = left_ms(deadline);
        struct pollfd p = { e->from_fd, POLLIN, 0 };
        int r = wait > 0 ? poll(&p, 1, wait) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return LINE_EOF;
        if (r == 0)
            return LINE_TIMEOUT;   /* even if an engine floods lines: time is up */
        ssize_t got = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (got <= 0)
            return LINE_EOF;
        e->len += (size_t)got;
    }
}

static bool word_is(const char *s, size_t n, const char *word)
{
    return n == strlen(word) && strncasecmp(s, word, n) == 0;
}

/* The first word of a line: its start and length (after spaces and tabs). */
static const char *first_word(const char *line, size_t *n)
{
    while (*line == ' ' || *line == '\t')
        line++;
    *n = strcspn(line, " \t");
    return line;
}

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

/* Counts a fault, stops the engine and switches the seat to random actions
 * for the rest of the game; tells standard error why, with the engine's last
 * `info` line, which often says what it disliked. */
static void fault(engine_t *e, const char *why)
{
    char how[64] = "";
    bool was_running = e->pid != 0;
    stop(e, false, how, sizeof how);
    e->faults++;
    e->fallback = true;
    fprintf(stderr, "figaro: FEP engine '%s' (seat %d): fault: %s%s%s%s%s%s; it plays random "
                    "moves for the rest of this game\n",
            e->spec, e->seat, why, was_running && how[0] ? " (" : "", was_running ? how : "",
            was_running && how[0] ? ")" : "", e->ninfo ? "; its last info: " : "",
            e->ninfo ? e->info[(e->ninfo - 1) % INFO_KEEP] : "");
}

static void stop(engine_t *e, bool polite, char *how, size_t cap)
{
    if (!e->pid)
        return;
    int status;
    if (polite) {
        char why[64];
        if (send_line(e, why, sizeof why, "quit")) {
            /* Then the end of its input, for engines (and wrapper scripts)
             * that stop at that rather than at `quit`; and wait for the end
             * of its output, throwing away what comes. */
            close(e->to_fd);
            e->to_fd = -1;
            long long deadline = fig_clock_ms() + QUIT_MS;
            char line[LINE_CAP];
            size_t n;
            int r;
            while ((r = read_line(e, deadline, line, &n)) == LINE_OK || r == LINE_LONG)
                e->len = 0;
        }
    }
    if (how)
        exited(e, how, cap);
    /* Kill before reaping: until waitpid, the pid (and group id) cannot be
     * reused, so this cannot hit a stranger. */
    kill(-e->pid, SIGKILL);
    kill(e->pid, SIGKILL);
    while (waitpid(e->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (e->to_fd >= 0)
        close(e->to_fd);
    close(e->from_fd);
    e->pid = 0;
    e->to_fd = e->from_fd = -1;
    e->len = 0;
}

/* Starts a process and does the handshake: `fep 1`, then `id` and `info`
 * lines until `fepok`, all within HANDSHAKE_MS. A fault on failure. */
static bool start(engine_t *e)
{
    char why[160];
    if (!spawn(e, why, sizeof why)) {
        fault(e, why);
        return false;
    }
    if (!send_line(e, why, sizeof why, "fep 1")) {
        fault(e, why);
        return false;
    }
    long long deadline = fig_clock_ms() + HANDSHAKE_MS;
    char line[LINE_CAP], shown[80];
    size_t len, n;
    for (;;) {
        int r = read_line(e, deadline, line, &len);
        if (r == LINE_TIMEOUT) {
            fault(e, "no 'fepok' within 5 s of 'fep 1'");
            return false;
        }
        if (r == LINE_EOF) {
            await_exit(e);
            fault(e, "exited during the handshake");
            return false;
        }
        if (r == LINE_LONG) {
            fault(e, "a line longer than 4095 bytes during the handshake");
            return false;
        }
        const char *w = first_word(line, &n);
        if (n == 0)
            continue;
        if (word_is(w, n, "fepok") && strlen(line) == len)
            return true;
        if (word_is(w, n, "info")) {
            keep_info(e, line);
            continue;
        }
        if (word_is(w, n, "id"))
            continue;   /* name and author: nothing here shows them */
        shorten(line, len, shown, sizeof shown);
        snprintf(why, sizeof why, "answered 'fep 1' with '%s', not 'fepok'", shown);
        fault(e, why);
        return false;
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
    if (e->fallback || !e->pid)
        return;
    char line[512], why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (!send_line(e, why, sizeof why, "%s", line))
        fault(e, why);
}

static void host_game(void *data, const fig_setup_t *setup, int seat)
{
    engine_t *e = data;
    e->seat = seat;
    e->players = setup->players;
    e->fallback = false;
    if (e->pid && exited(e, NULL, 0))
        stop(e, false, NULL, 0);   /* it left after the last game: start afresh, no fault */
    if (!e->pid && !start(e))
        return;
    char roads[160];
    size_t n = 0;
    for (int r = 0; r < FIG_ROUNDS; r++)
        for (int i = 0; i < setup->players - 1; i++)
            n += (size_t)snprintf(roads + n, sizeof roads - n, "%s%u",
                                  i == 0 && r > 0 ? " / " : i > 0 ? " " : "",
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
    char line[128];
    size_t n = 0;
    for (int s = 0; s < e->players; s++)
        n += (size_t)snprintf(line + n, sizeof line - n, " %d", totals[s]);
    tell(e, "gameover%s", line);
}

static fig_action_t host_choose(void *data, const fig_bot_turn_t *turn)
{
    engine_t *e = data;
    if (e->fallback || !e->pid)
        return random_action(e, turn);
    int ms = turn->ms > 0 ? turn->ms : e->move_ms > 0 ? e->move_ms : DEFAULT_MS;
    char why[320], line[LINE_CAP], shown[80];
    if (!send_line(e, why, sizeof why, "go %d", ms)) {
        fault(e, why);
        return random_action(e, turn);
    }
    long long deadline = fig_clock_ms() + ms + SLACK_MS;
    for (;;) {
        size_t len, n;
        int r = read_line(e, deadline, line, &len);
        if (r != LINE_OK) {
            if (r == LINE_TIMEOUT)
                snprintf(why, sizeof why, "no answer to 'go %d' within %d ms", ms, ms + SLACK_MS);
            else if (r == LINE_EOF) {
                await_exit(e);
                snprintf(why, sizeof why, "exited instead of answering 'go %d'", ms);
            }
            else
                snprintf(why, sizeof why, "a line longer than %d bytes", LINE_CAP - 1);
            fault(e, why);
            return random_action(e, turn);
        }
        const char *w = first_word(line, &n);
        if (n == 0)
            continue;   /* a blank line is no answer, and no harm */
        if (word_is(w, n, "info")) {
            keep_info(e, line);
            continue;
        }
        shorten(line, len, shown, sizeof shown);
        if (word_is(w, n, "play") && strlen(line) == len) {
            size_t alen;
            const char *act = first_word(w + n, &alen);
            size_t trailing;
            first_word(act + alen, &trailing);
            fig_action_t a = alen && !trailing ? fig_act_parse(act, alen, turn->view->seat)
                                               : FIG_ACT_NONE;
            if (a == FIG_ACT_NONE) {
                snprintf(why, sizeof why, "malformed answer '%s'", shown);
                fault(e, why);
                return random_action(e, turn);
            }
            fig_msg_t msg;
            if (fig_state_check(turn->guess, a, &msg) != FIG_OK) {
                snprintf(why, sizeof why, "illegal answer '%s': %s", shown, msg.text);
                fault(e, why);
                return random_action(e, turn);
            }
            return a;
        }
        snprintf(why, sizeof why, "answered 'go' with '%s', not 'play <action>'", shown);
        fault(e, why);
        return random_action(e, turn);
    }
}

static int host_faults(void *data)
{
    return ((engine_t *)data)->faults;
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
    stop(e, true, NULL, 0);
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
};

fig_err_t fep_host_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                           fig_msg_t *msg)
{
    *out = NULL;
    if (strncmp(spec, "cmd:", 4) != 0)
        return fig_fail(msg, FIG_ERR_INPUT, "'%s' is not an engine: write cmd:PROGRAM ARGS",
                        spec);
    engine_t *e = calloc(1, sizeof *e);
    if (!e)
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    e->to_fd = e->from_fd = -1;
    e->seat = -1;
    e->move_ms = move_ms;
    fig_rng_seed_stream(&e->rng, seed, 0xFE9);
    e->spec = strdup(spec);
    e->args = strdup(spec + 4);
    if (!e->spec || !e->args) {
        host_free(e);
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
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
            return fig_fail(msg, FIG_ERR_INPUT, "'%s': more than %d words", spec, MAX_ARGS);
        }
        e->argv[argc++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
    }
    e->argv[argc] = NULL;
    if (argc == 0) {
        host_free(e);
        return fig_fail(msg, FIG_ERR_INPUT, "'%s': no program after 'cmd:'", spec);
    }
    fig_err_t rc = resolve(e->argv[0], &e->path, msg);
    if (rc) {
        host_free(e);
        return rc;
    }
    *out = fig_bot_wrap(&fep_ops, e, spec);
    if (!*out)
        return fig_fail(msg, FIG_ERR_SPACE, "out of memory");
    return FIG_OK;
}

fig_err_t cli_bot_new(fig_bot_t **out, const char *spec, uint64_t seed, int move_ms,
                      fig_msg_t *msg)
{
    if (strncmp(spec, "cmd:", 4) == 0)
        return fep_host_bot_new(out, spec, seed, move_ms, msg);
    return fig_bot_new(out, spec, seed, msg);
}
