/* SPDX-License-Identifier: MIT */
/* fep_fault.h - an FEP engine's faults (docs/fep.md) as data: made where they
 * happen (the child process, the host's reads and writes), told to people in
 * their own language by fig_fault_text (figaro/match.h), which fep_fault.c
 * implements. */
#ifndef FIGARO_HOST_FEP_FAULT_H
#define FIGARO_HOST_FEP_FAULT_H

#include "figaro/bot.h"

/* A fault of kind k, the rest of its fields empty (exit status unknown). */
fig_fault_t fig_fep_fault(fig_fault_kind_t k);

#endif
