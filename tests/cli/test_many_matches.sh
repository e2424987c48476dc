#!/bin/sh
# SPDX-License-Identifier: MIT
# test_many_matches.sh - the host layer's example: 200 bot-only
# matches at once on the host layer, a pool of 4 worker threads, one poll()
# loop (examples/many_matches.c, built next to $FIGARO). Checks that all 200
# finish and that the process never had more than 4 + 1 threads: the
# workers and the loop's own thread, nothing per match or per think (the
# constant is 0: neither the match, the pool nor the sanitizers start any
# other thread, and the line-up has no ismcts with threads > 1). ismcts gets
# 60 iterations a move instead of the example's 200, to keep the sanitizer
# build's run short; the runner's work is the same.
# Run by tests/run.sh with FIGARO set; prints "cli: N passed, N failed".
FIGARO=${FIGARO:-build/test/figaro}
EX=$(dirname "$FIGARO")/many_matches
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

TO=""
command -v timeout >/dev/null 2>&1 && TO="timeout 300"

expect_status "200 matches on 4 threads" 0 $TO "$EX" 200 4 60
cat "$tmp/out"
expect_in "all finished" "$tmp/out" "finished: 200 of 200 matches"
threads=$(sed -n 's/^peak threads: \([0-9]*\)$/\1/p' "$tmp/out")
if [ -n "$threads" ] && [ "$threads" -ge 1 ] && [ "$threads" -le 5 ]; then ok; else
    ko "peak threads '$threads', expected 1 to 4 + 1"; fi
# Search memory is the workers' (4 blocks, touched only as far as searches
# go), not 256 MiB per ismcts bot: far below a gigabyte even under ASan.
kib=$(sed -n 's/^peak memory: \([0-9]*\) KiB$/\1/p' "$tmp/out")
if [ -n "$kib" ] && [ "$kib" -gt 0 ] && [ "$kib" -lt 1048576 ]; then ok; else
    ko "peak memory '$kib' KiB"; fi

# A pool of 2 for 30 matches: the bound follows the pool, not the matches.
expect_status "30 matches on 2 threads" 0 $TO "$EX" 30 2 20
expect_in "all 30 finished" "$tmp/out" "finished: 30 of 30 matches"
threads=$(sed -n 's/^peak threads: \([0-9]*\)$/\1/p' "$tmp/out")
if [ -n "$threads" ] && [ "$threads" -le 3 ]; then ok; else
    ko "peak threads '$threads' with 2 workers, expected at most 3"; fi
expect_status "bad arguments" 2 "$EX" 0

summary
