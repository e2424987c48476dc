/* SPDX-License-Identifier: MIT */
/* figaro.h - the whole public API of libfigaro, the Figaro rules engine.
 * See docs/engine.md for a tour. libfigaro depends on libc only. */
#ifndef FIGARO_FIGARO_H
#define FIGARO_FIGARO_H

#define FIG_VERSION "0.1.0"

#include "figaro/abi.h"
#include "figaro/action.h"
#include "figaro/batch.h"
#include "figaro/card.h"
#include "figaro/error.h"
#include "figaro/fgn.h"
#include "figaro/game.h"
#include "figaro/obs.h"
#include "figaro/rng.h"
#include "figaro/state.h"
#include "figaro/view.h"

#endif
