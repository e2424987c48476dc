/* SPDX-License-Identifier: MIT */
/* fep_child.c - the engine's process (fep_child.h).
 *
 * The program is resolved on PATH when the bot is created (a typo is a usage
 * error, not a fault), then started with fork and execve at each fresh start.
 * Choices left open by fep.md that are made here:
 *   - the engine's standard error is the host's own: an engine's diagnostics
 *     show where the host's do (the arena's terminal), which is what someone
 *     writing an engine needs;
 *   - the engine runs in its own process group, so a kill reaches any helper
 *     process it started, too; the price is that Ctrl-C at the terminal
 *     reaches the host only, and the engines learn that the host is gone from
 *     the end of their input (every FEP engine should exit then).
 *
 * The pool's workers fork at the same time, so the child closes every
 * descriptor it does not need before exec: a pipe of another engine leaked
 * into this one would hide that engine's exit from its host. Every child is
 * reaped when it is killed: no zombies. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/fep_child.h"
#include "host/fep_fault.h"

extern char **environ;   /* POSIX: the environment the engine inherits */

enum { MAX_FDS = 4096 };   /* descriptors the child closes before exec */

static bool is_program(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, X_OK) == 0;
}

fig_err_t fig_fep_child_resolve(const char *prog, char **out, fig_msg_t *msg)
{
    if (strchr(prog, '/')) {
        if (!is_program(prog))
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
        if (is_program(cand)) {
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

static int set_nonblocking(int fd)
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

/* The child, between fork and exec: async-signal-safe calls only. The pipes'
 * ends become its standard input and output, every other descriptor is
 * closed, and the signals are as a freshly started program's. */
static void become_engine(const int in[2], const int out[2], long maxfd, const char *path,
                          char *const argv[])
{
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
    execve(path, argv, environ);
    _exit(127);
}

bool fig_fep_child_spawn(fig_fep_child_t *c, const char *path, char *const argv[],
                         fig_fault_t *f)
{
    int in[2] = { -1, -1 }, out[2] = { -1, -1 };
    if (pipe(in) != 0 || pipe(out) != 0) {
        *f = fig_fep_fault(FIG_FAULT_PIPES);
        f->sys_errno = errno;
        close_pair(in);
        close_pair(out);
        return false;
    }
    /* Close-on-exec narrows the window in which another thread's child can
     * inherit these; the child's own sweep closes it. */
    for (int i = 0; i < 2; i++) {
        fcntl(in[i], F_SETFD, FD_CLOEXEC);
        fcntl(out[i], F_SETFD, FD_CLOEXEC);
    }
    long maxfd = sysconf(_SC_OPEN_MAX);
    if (maxfd < 0 || maxfd > MAX_FDS)
        maxfd = MAX_FDS;
    pid_t pid = fork();
    if (pid < 0) {
        *f = fig_fep_fault(FIG_FAULT_FORK);
        f->sys_errno = errno;
        close_pair(in);
        close_pair(out);
        return false;
    }
    if (pid == 0)
        become_engine(in, out, maxfd, path, argv);
    setpgid(pid, pid);   /* also from here, so a kill right away finds the group */
    close(in[0]);
    close(out[1]);
    c->pid = pid;
    c->to_fd = in[1];
    c->from_fd = out[0];
    if (set_nonblocking(c->to_fd) || set_nonblocking(c->from_fd)) {
        *f = fig_fep_fault(FIG_FAULT_PIPE_SETUP);
        f->sys_errno = errno;
        return false;   /* the caller kills the process */
    }
    return true;
}

bool fig_fep_child_exited(const fig_fep_child_t *c, fig_fault_t *f)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
        return false;
    if (f) {
        if (info.si_code == CLD_EXITED)
            f->exit_status = info.si_status;
        else
            f->signal = info.si_status;
    }
    return true;
}

void fig_fep_child_await_exit(const fig_fep_child_t *c)
{
    struct timespec step = { 0, 5 * 1000000L };
    for (int i = 0; i < 20 && !fig_fep_child_exited(c, NULL); i++)
        nanosleep(&step, NULL);
}

ssize_t fig_fep_child_write(const fig_fep_child_t *c, const char *p, size_t n)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t w = write(c->to_fd, p, n);
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

void fig_fep_child_close_input(fig_fep_child_t *c)
{
    if (c->to_fd >= 0)
        close(c->to_fd);
    c->to_fd = -1;
}

void fig_fep_child_kill(fig_fep_child_t *c)
{
    if (!c->pid)
        return;
    /* Kill before reaping: until waitpid, the pid (and group id) cannot be
     * reused, so this cannot hit a stranger. */
    kill(-c->pid, SIGKILL);
    kill(c->pid, SIGKILL);
    int status;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    fig_fep_child_close_input(c);
    if (c->from_fd >= 0)
        close(c->from_fd);
    c->pid = 0;
    c->from_fd = -1;
}
