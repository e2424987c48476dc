/* SPDX-License-Identifier: MIT */
/* fep_child.h - the engine's process, for the FEP host (fep_host.c): found on
 * PATH, started with pipes for its standard input and output in a process
 * group of its own, written to without SIGPIPE, and killed and reaped. No
 * protocol here: what goes through the pipes is the host's business. */
#ifndef FIGARO_HOST_FEP_CHILD_H
#define FIGARO_HOST_FEP_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "figaro/bot.h"

/* A running engine, or none (pid 0, both descriptors -1). */
typedef struct {
    pid_t pid;
    int to_fd, from_fd;   /* its standard input and output, non-blocking; -1 when closed */
} fig_fep_child_t;

/* Finds PROGRAM as execvp would: a name with a '/' as it is, otherwise the
 * first executable file of that name in $PATH. On success *out is a
 * malloc'ed path (the caller frees it); a program not found is FIG_ERR_INPUT,
 * memory FIG_ERR_SPACE, with a message. Done before any fork, because a
 * forked child of a threaded host may only call async-signal-safe functions,
 * and execvp's search is not one. */
fig_err_t fig_fep_child_resolve(const char *prog, char **out, fig_msg_t *msg);

/* Starts `path` with `argv` (NULL-terminated) and the host's environment and
 * standard error. Returns true with the process in *c; false with the fault
 * (pipes, fork or pipe set-up) in *f, and then either nothing runs or, after
 * a failed set-up, the process in *c for the caller to kill. */
bool fig_fep_child_spawn(fig_fep_child_t *c, const char *path, char *const argv[],
                         fig_fault_t *f);

/* Whether the process has exited, without reaping it (so its pid and process
 * group stay ours to kill); if so, f (may be NULL) gets how it ended: its
 * exit status or the signal that killed it. */
bool fig_fep_child_exited(const fig_fep_child_t *c, fig_fault_t *f);

/* After the end of an engine's output, gives it up to 100 ms to exit, so
 * that a fault can say how it ended rather than "killed by signal 9" from our
 * own kill. */
void fig_fep_child_await_exit(const fig_fep_child_t *c);

/* write() to the engine's input without SIGPIPE: the signal is blocked in
 * this thread during the call and, if the write raised it, consumed before it
 * is unblocked (the technique of libpq), so a dead engine is an EPIPE, not a
 * dead host; the host's signal dispositions are left alone. */
ssize_t fig_fep_child_write(const fig_fep_child_t *c, const char *p, size_t n);

/* Closes the engine's input (it reads the end of its input), leaving the
 * rest as it is. */
void fig_fep_child_close_input(fig_fep_child_t *c);

/* Kills the process group and reaps the process, closes both pipes: *c is
 * then none. Nothing when none runs. */
void fig_fep_child_kill(fig_fep_child_t *c);

#endif
