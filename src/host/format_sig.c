/* SPDX-License-Identifier: MIT */
/* format_sig.c - the printf arguments a message takes (format_sig.h).
 *
 * A conversion is read as C and POSIX write it: '%', an optional argument
 * number "N$", flags, a width and a precision (each digits, or '*' taking an
 * int argument, itself perhaps numbered), a length modifier and the
 * conversion's letter. Its argument's type is what the letter and the
 * modifier make of it after the default promotions (%hhd and %hd take an
 * int), so that two conversions reading the same argument agree exactly when
 * printf would read it the same way. */
#include <string.h>

#include "host/format_sig.h"

enum { A_NONE, A_INT, A_UINT, A_LONG, A_ULONG, A_LLONG, A_ULLONG, A_INTMAX, A_UINTMAX, A_SIZE,
       A_PTRDIFF, A_CHAR, A_WINT, A_STR, A_WSTR, A_PTR, A_DBL, A_LDBL };

/* A decimal number of at most 3 digits at *s, followed by '$'; 0 if none. */
static int position(const char **s)
{
    const char *t = *s;
    int v = 0;
    while (*t >= '0' && *t <= '9' && v < 1000)
        v = v * 10 + (*t++ - '0');
    if (t == *s || *t != '$' || v == 0)
        return 0;
    *s = t + 1;
    return v;
}

/* Records argument `pos` (or the next one) as `type`; false on a conflict. */
static bool use_arg(fig_format_sig_t *sig, int *next, int pos, int type, int *mode)
{
    int want = pos ? 2 : 1;   /* 1: sequential, 2: numbered */
    if (*mode && *mode != want)
        return false;         /* numbered and unnumbered arguments mixed */
    *mode = want;
    int i = pos ? pos : ++*next;
    if (i > FIG_FORMAT_ARGS_MAX)
        return false;
    if (sig->type[i] != A_NONE && sig->type[i] != type)
        return false;
    sig->type[i] = (unsigned char)type;
    if (i > sig->nargs)
        sig->nargs = i;
    return true;
}

/* Skips a width or a precision at *s: digits, or '*' with perhaps its
 * argument's number, which then takes an int. False on a conflict. */
static bool skip_width(const char **s, fig_format_sig_t *sig, int *next, int *mode)
{
    if (**s != '*') {
        while (**s >= '0' && **s <= '9')
            (*s)++;
        return true;
    }
    (*s)++;
    int pos = position(s);
    return use_arg(sig, next, pos, A_INT, mode);
}

/* The length modifier at *s, moved past: 0 none, 1 hh, 2 h, 3 l, 4 ll, 5 j,
 * 6 z, 7 t, 8 L (or q). */
static int length_modifier(const char **s)
{
    static const char *const mods[] = { "hh", "ll", "h", "l", "j", "z", "t", "L", "q" };
    static const int codes[] = { 1, 4, 2, 3, 5, 6, 7, 8, 8 };
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
        size_t n = strlen(mods[i]);
        if (strncmp(*s, mods[i], n) == 0) {
            *s += n;
            return codes[i];
        }
    }
    return 0;
}

/* The type of the argument a conversion takes, from its length modifier and
 * its letter at *s (moved past them): A_NONE for one that takes none (%m),
 * -1 for one we refuse (%n writes through a pointer: never from a catalogue;
 * an unknown letter; the end of the string). */
static int conversion_type(const char **s)
{
    static const unsigned char sint[] = { A_INT, A_INT, A_INT, A_LONG, A_LLONG, A_INTMAX,
                                          A_SIZE, A_PTRDIFF, A_LLONG };
    static const unsigned char unsg[] = { A_UINT, A_UINT, A_UINT, A_ULONG, A_ULLONG,
                                          A_UINTMAX, A_SIZE, A_PTRDIFF, A_ULLONG };
    int len = length_modifier(s);
    char c = **s;
    if (!c)
        return -1;
    (*s)++;
    switch (c) {
    case 'd': case 'i':
        return sint[len];
    case 'u': case 'o': case 'x': case 'X':
        return unsg[len];
    case 'c':
        return len == 3 ? A_WINT : A_CHAR;
    case 's':
        return len == 3 ? A_WSTR : A_STR;
    case 'p':
        return A_PTR;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        return len == 8 ? A_LDBL : A_DBL;
    case 'm':          /* glibc: strerror(errno), no argument */
        return A_NONE;
    default:
        return -1;
    }
}

bool fig_format_sig(const char *s, fig_format_sig_t *sig)
{
    memset(sig, 0, sizeof *sig);
    int next = 0, mode = 0;
    while ((s = strchr(s, '%')) != NULL) {
        s++;
        if (*s == '%') {
            s++;
            continue;
        }
        int pos = position(&s);
        while (*s && strchr("-+ #0'I", *s))
            s++;
        if (!skip_width(&s, sig, &next, &mode))
            return false;
        if (*s == '.') {
            s++;
            if (!skip_width(&s, sig, &next, &mode))
                return false;
        }
        int type = conversion_type(&s);
        if (type < 0)
            return false;
        if (type != A_NONE && !use_arg(sig, &next, pos, type, &mode))
            return false;
    }
    return true;
}

bool fig_format_fits(const fig_format_sig_t *id, const char *tr, bool exact)
{
    fig_format_sig_t t;
    if (!fig_format_sig(tr, &t) || t.nargs > id->nargs || (exact && t.nargs != id->nargs))
        return false;
    for (int i = 1; i <= t.nargs; i++)
        if (t.type[i] == A_NONE || t.type[i] != id->type[i])
            return false;
    return true;
}
