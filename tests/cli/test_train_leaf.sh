#!/bin/sh
# SPDX-License-Identifier: MIT
# test_train_leaf.sh - the learned leaf's weights are reproducible: the trainer
# (bench/train_leaf.c, built in the release build beside the sanitizer build
# that FIGARO names) writes src/ai/leaf_weights.c again, byte for byte, from
# its default games and seed; and it refuses bad arguments with a reason. About
# 15 s (the release build's trainer; the sanitized one would take minutes).
FIGARO=${FIGARO:-build/test/figaro}
TRAIN=$(dirname "$FIGARO")/../train_leaf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

if [ ! -x "$TRAIN" ]; then
    ko "no trainer at $TRAIN (make test builds it)"
else
    expect_status "train_leaf with its defaults" 0 "$TRAIN"
    if cmp -s "$tmp/out" src/ai/leaf_weights.c; then ok
    else ko "train_leaf's output differs from src/ai/leaf_weights.c (make leaf-weights writes it)"
        diff "$tmp/out" src/ai/leaf_weights.c | head -n 20; fi
    expect_in "train_leaf reports the fit" "$tmp/err" "4 players:"
    expect_status "train_leaf 10 games" 2 "$TRAIN" 10
    expect_in "train_leaf says what GAMES may be" "$tmp/err" "GAMES from 100"
    expect_status "train_leaf bad seed" 2 "$TRAIN" 200 x1
    expect_in "train_leaf names the bad seed" "$tmp/err" "'x1'"
fi
summary
