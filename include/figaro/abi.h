/* SPDX-License-Identifier: MIT */
/* abi.h - the sizes and field offsets of the public structs, for bindings.
 *
 * A binding that mirrors fig_state_t, fig_game_t... field by field in another
 * language (Python's ctypes, python/figaro) asks the library it loaded for
 * these numbers and refuses to run if its mirror disagrees, rather than read
 * the wrong bytes after a change of the headers. */
#ifndef FIGARO_ABI_H
#define FIGARO_ABI_H

#include <stddef.h>

/* The library's version, FIG_VERSION of the headers it was built from. */
const char *fig_version(void);

/* sizeof of a public type named as in C ("fig_state_t"), 0 if unknown. */
size_t fig_abi_size(const char *type);

/* offsetof(type, field) for the fields listed in abi.c ("fig_game_t",
 * "state"), or (size_t)-1 if the pair is not listed. */
size_t fig_abi_offset(const char *type, const char *field);

#endif
