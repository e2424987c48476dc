/* SPDX-License-Identifier: MIT */
/* fep_fault.c - an FEP engine's faults: made empty (fig_fep_fault) and told
 * in the reader's language (fig_fault_text, figaro/match.h).
 *
 * What happened is said by one table, `whys`, indexed by the kind: each row
 * is a function holding the kind's N_() pattern and the fields that fill it
 * in (bot.h says which fields each kind sets), side by side, so the pattern
 * and its arguments cannot drift apart. Each pattern is a literal handed to
 * fig_tr_text, a format_arg function, so the compiler checks it against its
 * arguments; msgfmt --check keeps the translations in step with it. */
#include <stdio.h>
#include <string.h>

#include "figaro/match.h"
#include "host/fep_fault.h"
#include "host/util.h"

fig_fault_t fig_fep_fault(fig_fault_kind_t k)
{
    fig_fault_t f;
    memset(&f, 0, sizeof f);
    f.kind = k;
    f.exit_status = -1;
    return f;
}

/* ---- what happened, by kind */

/* A row of the table: writes what happened into buf (cap bytes). */
typedef void why_fn(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap);

/* The one statement of most rows: the pattern, translated, filled in. */
#define SAY(pattern, ...) snprintf(buf, cap, fig_tr_text(tr, pattern), __VA_ARGS__)

/* The system's words for the fault's errno (strerror's buffer may be shared
 * between threads: this one is the caller's). */
#define ERRNO_TEXT(f) fig_strerror((f)->sys_errno, err, sizeof err)

static void why_pipes(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    char err[128];
    SAY(N_("cannot create pipes: %s"), ERRNO_TEXT(f));
}

static void why_fork(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    char err[128];
    SAY(N_("cannot start a process: %s"), ERRNO_TEXT(f));
}

static void why_pipe_setup(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    char err[128];
    SAY(N_("cannot set up the pipes: %s"), ERRNO_TEXT(f));
}

static void why_input_closed(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    (void)f;
    snprintf(buf, cap, "%s", fig_tr_text(tr, N_("closed its input")));
}

static void why_write(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    char err[128];
    SAY(N_("cannot write to it: %s"), ERRNO_TEXT(f));
}

static void why_deaf(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("stopped reading its input for %d ms"), f->ms);
}

static void why_wait(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    char err[128];
    SAY(N_("cannot wait for it: %s"), ERRNO_TEXT(f));
}

static void why_handshake_timeout(const fig_fault_t *f, const fig_tr_t *tr, char *buf,
                                  size_t cap)
{
    SAY(N_("no 'fepok' within %d s of 'fep 1'"), f->ms / 1000);
}

static void why_handshake_exit(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    (void)f;
    snprintf(buf, cap, "%s", fig_tr_text(tr, N_("exited during the handshake")));
}

static void why_handshake_long(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("a line longer than %d bytes during the handshake"), f->ms);
}

static void why_handshake_answer(const fig_fault_t *f, const fig_tr_t *tr, char *buf,
                                 size_t cap)
{
    SAY(N_("answered 'fep 1' with '%s', not 'fepok'"), f->line);
}

static void why_late(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("no answer to 'go %d' within %d ms"), f->ms, f->limit_ms);
}

static void why_exit(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("exited instead of answering 'go %d'"), f->ms);
}

static void why_long(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("a line longer than %d bytes"), f->limit_ms);
}

static void why_malformed(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("malformed answer '%s'"), f->line);
}

static void why_illegal(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("illegal answer '%s': %s"), f->line, f->detail);
}

static void why_not_play(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    SAY(N_("answered 'go' with '%s', not 'play <action>'"), f->line);
}

enum { FAULT_KINDS = FIG_FAULT_NOT_PLAY + 1 };   /* the last kind of bot.h, and one */

/* Every kind but FIG_FAULT_NONE has its row. */
static why_fn *const whys[FAULT_KINDS] = {
    [FIG_FAULT_PIPES] = why_pipes,
    [FIG_FAULT_FORK] = why_fork,
    [FIG_FAULT_PIPE_SETUP] = why_pipe_setup,
    [FIG_FAULT_INPUT_CLOSED] = why_input_closed,
    [FIG_FAULT_WRITE] = why_write,
    [FIG_FAULT_DEAF] = why_deaf,
    [FIG_FAULT_WAIT] = why_wait,
    [FIG_FAULT_HANDSHAKE_TIMEOUT] = why_handshake_timeout,
    [FIG_FAULT_HANDSHAKE_EXIT] = why_handshake_exit,
    [FIG_FAULT_HANDSHAKE_LONG] = why_handshake_long,
    [FIG_FAULT_HANDSHAKE_ANSWER] = why_handshake_answer,
    [FIG_FAULT_LATE] = why_late,
    [FIG_FAULT_EXIT] = why_exit,
    [FIG_FAULT_LONG] = why_long,
    [FIG_FAULT_MALFORMED] = why_malformed,
    [FIG_FAULT_ILLEGAL] = why_illegal,
    [FIG_FAULT_NOT_PLAY] = why_not_play,
};

const char *fig_fault_text(const fig_fault_t *f, const fig_tr_t *tr, char *buf, size_t cap)
{
    char why[400], ended[80] = "", info[220] = "";
    unsigned k = (unsigned)f->kind;
    if (k < FAULT_KINDS && whys[k])
        whys[k](f, tr, why, sizeof why);
    else
        snprintf(why, sizeof why, "%s", fig_tr_text(tr, N_("an unknown fault")));
    if (f->signal > 0)
        snprintf(ended, sizeof ended, fig_tr_text(tr, N_(" (killed by signal %d)")), f->signal);
    else if (f->exit_status >= 0)
        snprintf(ended, sizeof ended, fig_tr_text(tr, N_(" (exit status %d)")), f->exit_status);
    if (f->info[0])
        snprintf(info, sizeof info, fig_tr_text(tr, N_("; its last info: %s")), f->info);
    snprintf(buf, cap, fig_tr_text(tr, N_("FEP engine '%s' (seat %d): fault: %s%s%s; it plays "
                                          "random moves for the rest of this game")),
             f->spec, f->seat, why, ended, info);
    return buf;
}
