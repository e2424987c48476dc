/* SPDX-License-Identifier: MIT */
/* fep_host.c - the host side of FEP (docs/fep.md): a bot handle whose
 * decisions come from an external program, and fig_bot_any_new, which makes
 * any bot from its spec.
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
 * and reaped, the fault is counted and recorded (fig_fault_t: what happened,
 * how the process ended, its last `info` line) for the host to take, and the
 * seat plays uniformly random legal actions until the game ends; the next
 * `game` starts a fresh process. So an engine commits at most one fault per
 * game. The messages are N_() patterns formatted at display time
 * (fig_fault_text), in the reader's language.
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
 *     decided by a pure function (fig_fep_parse_line), which is fuzzed;
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
 * time (a match's job, on whichever pool worker runs it); the only state
 * read from another thread is the two cancel flags, which are atomics. The
 * pool's workers fork at the same time, so the child closes every
 * descriptor it does not need before exec: a pipe of another engine leaked
 * into this one would hide that engine's exit from its host. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "figaro/match.h"
#include "host/fep_host.h"
#include "host/util.h"

extern char **environ;   /* POSIX: the environment the engine inherits */

enum {
    LINE_CAP = FIG_FEP_LINE_CAP,   /* longest engine line, "\n" included: longer is a fault */
    HANDSHAKE_MS = 5000,   /* fep.md: `fepok` within 5 s */
    SLACK_MS = 1000,       /* fep.md: an answer is late after ms + 1000 */
    WRITE_MS = 2000,       /* an engine that leaves its input unread this long is stuck */
    QUIT_MS = 500,         /* how long `quit` may take before the kill */
    DEFAULT_MS = 1000,     /* move time when neither the host nor the caller gives one */
    MAX_ARGS = 64,
    MAX_FDS = 4096,        /* descriptors the child closes before exec */
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
    pid_t pid;                   /* the running engine, 0 for none */
    int to_fd, from_fd;          /* its standard input and output, -1 when closed */
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
            return fig_fail(msg, FIG_ERR_INPUT,
                            N_("engine program '%s' is not an executable file"), prog);
        *out = strdup(prog);
        return *out ? FIG_OK : fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
    }
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    size_t plen = strlen(prog);
    for (const char *dir = path;; ) {
        size_t dlen = strcspn(dir, ":");
        char *cand = malloc(dlen + plen + 3);
        if (!cand)
            return fig_fail(msg, FIG_ERR_SPACE, N_("out of memory"));
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
    return fig_fail(msg, FIG_ERR_INPUT, N_("engine program '%s' not found in PATH"), prog);
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

/* A fault of kind k, the rest of its fields empty. */
static fig_fault_t fault_of(fig_fault_kind_t k)
{
    fig_fault_t f;
    memset(&f, 0, sizeof f);
    f.kind = k;
    f.exit_status = -1;
    return f;
}

/* Starts the engine with pipes for its standard input and output. Returns
 * false with what went wrong in *f. */
static bool spawn(engine_t *e, fig_fault_t *f)
{
    int in[2] = { -1, -1 }, out[2] = { -1, -1 };
    if (pipe(in) != 0 || pipe(out) != 0) {
        *f = fault_of(FIG_FAULT_PIPES);
        f->sys_errno = errno;
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
        *f = fault_of(FIG_FAULT_FORK);
        f->sys_errno = errno;
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
        *f = fault_of(FIG_FAULT_PIPE_SETUP);
        f->sys_errno = errno;
        return false;   /* the caller stops the process */
    }
    return true;
}

/* Stops the engine: with `polite`, sends quit and waits up to QUIT_MS for it
 * to close its output; then kills its process group and reaps it. f (may be
 * NULL) receives how it ended, as seen before the kill. */
static void stop(engine_t *e, bool polite, fig_fault_t *f);

/* Whether the engine has exited, without reaping it (so its pid and process
 * group stay ours to kill); if so, f (may be NULL) gets how it ended: its
 * exit status or the signal that killed it. */
static bool exited(const engine_t *e, fig_fault_t *f)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)e->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
        return false;
    if (f) {
        if (info.si_code == CLD_EXITED)
            f->exit_status = info.si_status;
        else
            f->signal = info.si_status;
    }
    return true;
}

/* After the end of an engine's output, gives it up to 100 ms to exit, so
 * that a fault can say how it ended rather than "killed by signal 9" from our
 * own kill. */
static void await_exit(const engine_t *e)
{
    struct timespec step = { 0, 5 * 1000000L };
    for (int i = 0; i < 20 && !exited(e, NULL); i++)
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
        *f = fault_of(FIG_FAULT_WRITE);   /* cannot happen: the host's lines are short */
        f->sys_errno = EMSGSIZE;
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
            *f = fault_of(FIG_FAULT_INPUT_CLOSED);
            return false;
        }
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            *f = fault_of(FIG_FAULT_WRITE);
            f->sys_errno = errno;
            return false;
        }
        if (called_off(e, NULL, watch)) {
            *f = fault_of(FIG_FAULT_NONE);
            return false;
        }
        struct pollfd p = { e->to_fd, POLLOUT, 0 };
        int r = poll(&p, 1, wait_ms(e, deadline, NULL, watch));
        if (r == 0 && left_ms(deadline) == 0) {
            *f = fault_of(FIG_FAULT_DEAF);
            f->ms = WRITE_MS;
            return false;
        }
        if (r < 0 && errno != EINTR) {
            *f = fault_of(FIG_FAULT_WAIT);
            f->sys_errno = errno;
            return false;
        }
    }
    return true;
}

enum { LINE_OK = 1, LINE_TIMEOUT = 0, LINE_EOF = -1, LINE_LONG = -2, LINE_OFF = -3 };

bool fig_fep_split_line(char *buf, size_t *len, char *out, size_t *outlen)
{
    char *nl = memchr(buf, '\n', *len);
    if (!nl)
        return false;
    size_t n = (size_t)(nl - buf);
    memcpy(out, buf, n);
    memmove(buf, nl + 1, *len - n - 1);
    *len -= n + 1;
    if (n > 0 && out[n - 1] == '\r')
        n--;
    out[n] = '\0';
    *outlen = n;
    return true;
}

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
        struct pollfd p = { e->from_fd, POLLIN, 0 };
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
        ssize_t got = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (got <= 0)
            return LINE_EOF;
        e->len += (size_t)got;
    }
}

/* ---- what a line says (pure: fuzzed by tests/fuzz/fuzz_fep_host.c) */

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* The word at or after *at in s[0..n): its start and length; *at moves past it. */
static const char *next_word(const char *s, size_t n, size_t *at, size_t *wlen)
{
    size_t i = *at;
    while (i < n && is_blank(s[i]))
        i++;
    size_t start = i;
    while (i < n && !is_blank(s[i]))
        i++;
    *at = i;
    *wlen = i - start;
    return s + start;
}

static bool word_is(const char *s, size_t n, const char *word)
{
    return n == strlen(word) && strncasecmp(s, word, n) == 0;
}

fig_fep_line_t fig_fep_parse_line(const char *line, size_t len, int seat, fig_action_t *action)
{
    if (action)
        *action = FIG_ACT_NONE;
    /* Words end at the first NUL, as they do for a C string; a NUL anywhere
     * makes the line no `fepok` or `play`. */
    const char *nul = memchr(line, '\0', len);
    size_t n = nul ? (size_t)(nul - line) : len, at = 0, wlen;
    const char *w = next_word(line, n, &at, &wlen);
    if (wlen == 0)
        return FIG_FEP_BLANK;
    if (word_is(w, wlen, "info"))
        return FIG_FEP_INFO;
    if (word_is(w, wlen, "id"))
        return FIG_FEP_ID;
    if (nul)
        return FIG_FEP_OTHER;
    if (word_is(w, wlen, "fepok"))
        return FIG_FEP_FEPOK;
    if (!word_is(w, wlen, "play"))
        return FIG_FEP_OTHER;
    size_t alen, trailing;
    const char *act = next_word(line, n, &at, &alen);
    next_word(line, n, &at, &trailing);
    fig_action_t a = alen && !trailing ? fig_act_parse(act, alen, seat) : FIG_ACT_NONE;
    if (a == FIG_ACT_NONE)
        return FIG_FEP_MALFORMED;
    if (action)
        *action = a;
    return FIG_FEP_PLAY;
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
 * for the rest of the game; keeps the fault, completed with the seat, the
 * spec, how the process ended and its last `info` line (which often says
 * what it disliked), for the host to take. */
static void fault(engine_t *e, fig_fault_t f)
{
    bool was_running = e->pid != 0;
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
    if (!e->pid)
        return;
    int status;
    if (polite) {
        fig_fault_t ignored;
        if (send_line(e, &ignored, false, "quit")) {
            /* Then the end of its input, for engines (and wrapper scripts)
             * that stop at that rather than at `quit`; and wait for the end
             * of its output, throwing away what comes. */
            close(e->to_fd);
            e->to_fd = -1;
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
        exited(e, f);
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
 * lines until `fepok`, all within HANDSHAKE_MS. A fault on failure (or the
 * engine stopped, if the host called it off). */
static bool start(engine_t *e)
{
    fig_fault_t f;
    if (!spawn(e, &f)) {
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
            f = fault_of(FIG_FAULT_HANDSHAKE_TIMEOUT);
            f.ms = HANDSHAKE_MS;
            fault(e, f);
            return false;
        }
        if (r == LINE_EOF) {
            await_exit(e);
            fault(e, fault_of(FIG_FAULT_HANDSHAKE_EXIT));
            return false;
        }
        if (r == LINE_LONG) {
            f = fault_of(FIG_FAULT_HANDSHAKE_LONG);
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
            f = fault_of(FIG_FAULT_HANDSHAKE_ANSWER);
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
    if (e->fallback || !e->pid)
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
    if (e->pid && exited(e, NULL))
        stop(e, false, NULL);   /* it left after the last game: start afresh, no fault */
    if (!e->pid && !start(e))
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
    if (e->fallback || !e->pid)
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
                f = fault_of(FIG_FAULT_LATE);
                f.limit_ms = ms + SLACK_MS;
            } else if (r == LINE_EOF) {
                await_exit(e);
                f = fault_of(FIG_FAULT_EXIT);
            } else {
                f = fault_of(FIG_FAULT_LONG);
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
            f = fault_of(FIG_FAULT_ILLEGAL);
            snprintf(f.detail, sizeof f.detail, "%s", msg.text);
            break;
        }
        case FIG_FEP_MALFORMED:
            f = fault_of(FIG_FAULT_MALFORMED);
            break;
        default:
            f = fault_of(FIG_FAULT_NOT_PLAY);
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
    e->to_fd = e->from_fd = -1;
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
    fig_err_t rc = resolve(e->argv[0], &e->path, msg);
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

/* ---- faults told to people */

/* What happened, by kind: N_() patterns with the conversions fault_text
 * fills in (the kind's fields, in this order). */
static const char *why_pattern(fig_fault_kind_t k)
{
    switch (k) {
    case FIG_FAULT_PIPES: return N_("cannot create pipes: %s");
    case FIG_FAULT_FORK: return N_("cannot start a process: %s");
    case FIG_FAULT_PIPE_SETUP: return N_("cannot set up the pipes: %s");
    case FIG_FAULT_INPUT_CLOSED: return N_("closed its input");
    case FIG_FAULT_WRITE: return N_("cannot write to it: %s");
    case FIG_FAULT_DEAF: return N_("stopped reading its input for %d ms");
    case FIG_FAULT_WAIT: return N_("cannot wait for it: %s");
    case FIG_FAULT_HANDSHAKE_TIMEOUT: return N_("no 'fepok' within %d s of 'fep 1'");
    case FIG_FAULT_HANDSHAKE_EXIT: return N_("exited during the handshake");
    case FIG_FAULT_HANDSHAKE_LONG: return N_("a line longer than %d bytes during the handshake");
    case FIG_FAULT_HANDSHAKE_ANSWER: return N_("answered 'fep 1' with '%s', not 'fepok'");
    case FIG_FAULT_LATE: return N_("no answer to 'go %d' within %d ms");
    case FIG_FAULT_EXIT: return N_("exited instead of answering 'go %d'");
    case FIG_FAULT_LONG: return N_("a line longer than %d bytes");
    case FIG_FAULT_MALFORMED: return N_("malformed answer '%s'");
    case FIG_FAULT_ILLEGAL: return N_("illegal answer '%s': %s");
    case FIG_FAULT_NOT_PLAY: return N_("answered 'go' with '%s', not 'play <action>'");
    case FIG_FAULT_NONE: break;
    }
    return N_("an unknown fault");
}

/* snprintf with a translated pattern (the msgid was checked by the compiler
 * where it is written; msgfmt --check keeps translations in step). */
static void format_tr(char *buf, size_t cap, const fig_tr_t *tr, const char *msgid, ...)
{
    va_list ap;
    va_start(ap, msgid);
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
    vsnprintf(buf, cap, fig_tr_text(tr, msgid), ap);
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
    va_end(ap);
}

const char *fig_fault_text(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    char why[400], ended[80] = "", info[220] = "";
    const char *pat = why_pattern(f->kind);
    switch (f->kind) {
    case FIG_FAULT_PIPES:
    case FIG_FAULT_FORK:
    case FIG_FAULT_PIPE_SETUP:
    case FIG_FAULT_WRITE:
    case FIG_FAULT_WAIT:
        format_tr(why, sizeof why, tr, pat, strerror(f->sys_errno));
        break;
    case FIG_FAULT_DEAF:
    case FIG_FAULT_HANDSHAKE_LONG:
    case FIG_FAULT_EXIT:
        format_tr(why, sizeof why, tr, pat, f->ms);
        break;
    case FIG_FAULT_HANDSHAKE_TIMEOUT:
        format_tr(why, sizeof why, tr, pat, f->ms / 1000);
        break;
    case FIG_FAULT_LONG:
        format_tr(why, sizeof why, tr, pat, f->limit_ms);
        break;
    case FIG_FAULT_LATE:
        format_tr(why, sizeof why, tr, pat, f->ms, f->limit_ms);
        break;
    case FIG_FAULT_HANDSHAKE_ANSWER:
    case FIG_FAULT_MALFORMED:
    case FIG_FAULT_NOT_PLAY:
        format_tr(why, sizeof why, tr, pat, f->line);
        break;
    case FIG_FAULT_ILLEGAL:
        format_tr(why, sizeof why, tr, pat, f->line, f->detail);
        break;
    default:
        format_tr(why, sizeof why, tr, pat);
        break;
    }
    if (f->signal > 0)
        format_tr(ended, sizeof ended, tr, N_(" (killed by signal %d)"), f->signal);
    else if (f->exit_status >= 0)
        format_tr(ended, sizeof ended, tr, N_(" (exit status %d)"), f->exit_status);
    if (f->info[0])
        format_tr(info, sizeof info, tr, N_("; its last info: %s"), f->info);
    format_tr(buf, cap, tr, N_("FEP engine '%s' (seat %d): fault: %s%s%s; it plays random moves "
                               "for the rest of this game"),
              f->spec, f->seat, why, ended, info);
    return buf;
}
