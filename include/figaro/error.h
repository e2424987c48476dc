/* SPDX-License-Identifier: MIT */
/* error.h - how libfigaro reports failure.
 *
 * Every fallible call returns a fig_err_t and, when the caller passes a
 * fig_msg_t, writes a sentence a player can understand into it. The core never
 * prints, never exits and never aborts on input it was handed: front ends
 * decide what to show. */
#ifndef FIGARO_ERROR_H
#define FIGARO_ERROR_H

typedef enum {
    FIG_OK = 0,
    FIG_ERR_INPUT,   /* malformed or illegal input: a record, a move, a setup */
    FIG_ERR_STATE,   /* the call does not fit the game's phase (e.g. a move between rounds) */
    FIG_ERR_SPACE    /* a caller buffer is too small */
} fig_err_t;

/* A message for people. `line` is the 1-based line of the offending input when
 * the input was a text (a game record), or 0. */
typedef struct {
    char text[200];
    int line;
} fig_msg_t;

/* Marks a string for translation without translating it: the core has no
 * libintl; xgettext finds N_("...") and front ends translate at display time. */
#define N_(s) s

/* N_ for a bot level's name (src/ai/bot.c, and "random" in src/net/proto/proto.c):
 * the Makefile also puts these msgids in the page's catalogue (build/web.pot),
 * so the browser translates the level names the server sends without a list of
 * its own. */
#define N_LEVEL(s) s

/* Formats into msg (if not NULL) and returns err, so callers can write
 * `return fig_fail(msg, FIG_ERR_INPUT, "...", ...);`. */
fig_err_t fig_fail(fig_msg_t *msg, fig_err_t err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A translator: the reader's language, carried by whoever talks to them (a
 * terminal session, one server connection), never a process-wide setting, so
 * one process can speak French to Ann and Dutch to Bob at once. `text` returns
 * msgid in that language; `plural` chooses and translates the form for n
 * (GNU gettext's ngettext). Either returns its English argument when it has
 * no translation. fig_tr_text/fig_tr_plural take a NULL translator as
 * English. xgettext finds the msgids through `--keyword=fig_tr_text:2
 * --keyword=fig_tr_plural:2,3`. */
typedef struct fig_tr {
    const char *(*text)(const struct fig_tr *tr, const char *msgid);
    const char *(*plural)(const struct fig_tr *tr, const char *msgid, const char *msgid_plural,
                          unsigned long n);
    void *ctx;   /* the translator's own data (a catalogue, a language) */
} fig_tr_t;

/* format_arg, as libintl declares gettext and ngettext: the compiler checks a
 * literal msgid against the printf arguments that follow the call. */
const char *fig_tr_text(const fig_tr_t *tr, const char *msgid)
#if defined(__GNUC__)
    __attribute__((format_arg(2)))
#endif
    ;
const char *fig_tr_plural(const fig_tr_t *tr, const char *msgid, const char *msgid_plural,
                          unsigned long n)
#if defined(__GNUC__)
    __attribute__((format_arg(2), format_arg(3)))
#endif
    ;

/* fig_fail in another language: the pattern fmt (an N_() msgid) goes through
 * tr before formatting; a translation keeps the same conversions (msgfmt
 * --check). tr may be NULL for English. */
fig_err_t fig_fail_tr(fig_msg_t *msg, const fig_tr_t *tr, fig_err_t err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
