#!/bin/sh
# SPDX-License-Identifier: MIT
# silent.sh - a broken FEP engine for tests/cli/test_fep.sh: it reads every
# line and never answers, not even the handshake. The host must give up after
# 5 s (fep.md), count one fault, and play the game with random moves.
while read -r _; do
    :
done
