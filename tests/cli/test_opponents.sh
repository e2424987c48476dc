#!/bin/sh
# test_opponents.sh - the held-out opponent of docs/bots.md ("Bots against
# strangers"), bench/opponents/textbook_ismcts.c, built next to $FIGARO: it
# speaks FEP to the arena without a fault, searches well enough to beat
# random players, plays the same games again for the same seed when it counts
# iterations, and refuses bad options with a reason.
FIGARO=${FIGARO:-build/test/figaro}
TB=$(dirname "$FIGARO")/textbook_ismcts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

if [ ! -x "$TB" ]; then
    ko "no engine at $TB (make test builds it)"
    summary
    exit
fi

# Against three random players, 2 deals x 4 seatings: every game played, no
# fault, and most of them won (random wins about a quarter).
arena() {
    "$FIGARO" arena --players 4 --games 8 --jobs 1 --seed "$1" --move-ms 5000 --json \
        --records "$2" --bot "cmd:$TB --iters 1500 --seed 7" --bot random --bot random --bot random
}
expect_status "arena against random" 0 arena 11 "$tmp/r1"
cp "$tmp/out" "$tmp/json"
expect_in "eight games" "$tmp/json" '"games": 8'
if python3 - "$tmp/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
tb = next(e for e in d["entrants"] if "textbook" in e["spec"])
assert tb["faults"] == 0, tb
assert tb["games"] == 8 and tb["wins"] >= 6, tb
PY
then ok; else ko "the textbook engine played faultlessly and won at least 6 of 8 against random"; fi

# An iteration budget and a seed: the same games again, move for move.
expect_status "arena again" 0 arena 11 "$tmp/r2"
if diff -r "$tmp/r1" "$tmp/r2" >/dev/null && [ "$(ls "$tmp/r1" | wc -l)" -eq 8 ]; then ok
else ko "the same seeds did not give the same 8 records"; fi

# Its own options: refused with what is wrong, exit 2.
expect_status "bad --iters" 2 "$TB" --iters 0
expect_in "says what --iters takes" "$tmp/err" "--iters takes a whole number"
expect_status "bad --c" 2 "$TB" --c x
expect_in "says what --c takes" "$tmp/err" "--c takes a number"
expect_status "unknown option" 2 "$TB" --frobnicate
expect_in "says it is unknown" "$tmp/err" "unknown option"

# FEP: the handshake, then a bad line answered, not a crash.
printf 'fep 1\ngo x\nquit\n' | "$TB" >"$tmp/out" 2>"$tmp/err"
expect_in "handshake" "$tmp/out" "fepok"
expect_in "a bad line is answered" "$tmp/out" "info error"
summary
