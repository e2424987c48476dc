#!/bin/sh
# SPDX-License-Identifier: MIT
# test_bench.sh - `figaro bench`'s signature, pinned. `figaro bench --quick`
# does a small fixed work (perft on fixed positions, seeded random games, a
# fixed ISMCTS budget on one thread) and prints a signature of its results,
# the same on every machine and in every build (release, sanitizers).
#
# THE PINNED VALUE BELOW MUST ONLY CHANGE ON PURPOSE. A change to the rules
# engine (src/core/) or to the bots (src/ai/) that moves it changes what the
# engine or the bots do: if that is what the change meant, update QUICK_SIG
# here and say why in the commit message, with the new full signature
# (`figaro bench`, "Bench: <signature>", style.md); if not, the change has a bug.
# Run by tests/run.sh with FIGARO set to the sanitizer build (about 1 s).
FIGARO=${FIGARO:-build/test/figaro}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

QUICK_SIG=2b8cdd31020d34c7   # figaro bench --quick (2000 games): it changes whenever the
# search's moves from the bench position do (the playouts that end with the round,
# src/ai/future.c, and follow FIG_PLAYOUT_SEEK; copp, the other seats' UCB constant; the
# learned leaf, src/ai/leaf.c)

sig() { sed -n 's/^signature  *\([0-9a-f]*\)$/\1/p' "$tmp/out"; }

expect_status "bench --quick" 0 "$FIGARO" bench --quick
got=$(sig)
if [ "$got" = "$QUICK_SIG" ]; then ok
else ko "bench --quick signature $got, pinned $QUICK_SIG (see the comment at the top)"; fi
expect_in "bench --quick says its budget" "$tmp/out" "quick budget"
expect_in "bench --quick ISMCTS budget" "$tmp/out" "5000 iters"

# the JSON output carries the same signature
expect_status "bench --quick --json" 0 "$FIGARO" bench --quick --json
expect_in "bench --quick --json signature" "$tmp/out" "\"signature\": \"$QUICK_SIG\""

# the signature follows the work: other games, another signature
expect_status "bench --quick --games 1999" 0 "$FIGARO" bench --quick --games 1999
other=$(sig)
if [ -n "$other" ] && [ "$other" != "$QUICK_SIG" ]; then ok
else ko "the signature does not depend on the games played ($other)"; fi

expect_status "bench --quick extra" 2 "$FIGARO" bench --quick extra

summary
