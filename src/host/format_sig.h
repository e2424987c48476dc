/* SPDX-License-Identifier: MIT */
/* format_sig.h - the printf arguments a message takes, its "signature", and
 * whether a translation takes the same ones.
 *
 * A translation is used as a printf format with the arguments its msgid
 * takes; one that asks for another argument (a %s where the code passes an
 * int, a %n) would read or write memory it must not. So a catalogue checks
 * each translation against its msgid with these, as msgfmt --check does for
 * c-format messages. Pure functions over NUL-terminated strings. */
#ifndef FIGARO_HOST_FORMAT_SIG_H
#define FIGARO_HOST_FORMAT_SIG_H

#include <stdbool.h>

enum { FIG_FORMAT_ARGS_MAX = 32 };   /* the highest argument number read */

/* The arguments of a format, by number: type[1..nargs] are codes of
 * format_sig.c (one per C argument type after promotion: int, long, char *,
 * double...), 0 for a number no conversion uses. A value: copy it freely. */
typedef struct {
    int nargs;                                 /* the highest argument number used */
    unsigned char type[FIG_FORMAT_ARGS_MAX + 1];
} fig_format_sig_t;

/* Reads the conversions of s into *sig. Returns false if s is no printf
 * format we accept: an unknown or unfinished conversion, %n, numbered and
 * unnumbered arguments mixed, one argument given two types, or an argument
 * past FIG_FORMAT_ARGS_MAX. %% and glibc's %m take no argument. */
bool fig_format_sig(const char *s, fig_format_sig_t *sig);

/* Whether `tr` (a translation) may be used where a message of signature `id`
 * is: it takes no argument `id` does not, each of the same type, without
 * gaps; `exact` also asks that it take all of them (a plural form may leave
 * the number out). */
bool fig_format_fits(const fig_format_sig_t *id, const char *tr, bool exact);

#endif
