#!/bin/sh
# SPDX-License-Identifier: MIT
# check.sh - `figaro perft` against the known counts of perft.txt, up to a
# depth: a built or installed command checked on its own (the packages' build,
# debian/rules; the packaged command under qemu's baseline processor,
# tests/cli/test_deb.sh).
# Usage: tests/perft/check.sh [--depth MAX] COMMAND...   (COMMAND runs figaro)
# Prints "perft: N checked" and exits 0, or names each wrong count and exits 1.
max=4
if [ "$1" = --depth ]; then max=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: check.sh [--depth MAX] COMMAND..." >&2; exit 2; }
dir=$(dirname "$0")
checked=0
wrong=0
while read -r file depth count; do
    case $file in '#'* | '') continue ;; esac
    [ "$depth" -le "$max" ] || continue
    got=$("$@" perft --depth "$depth" "$dir/$file" 2>&1)
    if [ "$got" != "$count" ]; then
        echo "perft: $file depth $depth: $got, not $count" >&2
        wrong=$((wrong + 1))
    fi
    checked=$((checked + 1))
done <"$dir/perft.txt"
echo "perft: $checked checked"
[ "$wrong" -eq 0 ] && [ "$checked" -gt 0 ]
