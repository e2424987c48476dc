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

/* Formats into msg (if not NULL) and returns err, so callers can write
 * `return fig_fail(msg, FIG_ERR_INPUT, "...", ...);`. */
fig_err_t fig_fail(fig_msg_t *msg, fig_err_t err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A translator, e.g. gettext: returns the message in the reader's language. */
typedef const char *(*fig_translate_fn)(const char *msgid);

/* fig_fail in another language: the pattern fmt (an N_() msgid) goes through
 * tr before formatting; a translation keeps the same conversions (msgfmt
 * --check). tr may be NULL for English. */
fig_err_t fig_fail_tr(fig_msg_t *msg, fig_translate_fn tr, fig_err_t err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
