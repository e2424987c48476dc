#!/bin/sh
# SPDX-License-Identifier: MIT
# illegal.sh MODE - a broken FEP engine for tests/cli/test_fep.sh: a correct
# handshake, then a well-formed but impossible answer to `go`:
#   ring9   play RING>9        (no such seat)
#   nocard  a card its hand never held (it remembers the hand of each round)
#   ring    play RING>next     (a ring always goes in front of oneself, R7)
# Each must be one fault per game: the host checks every answer.
mode=${1:-nocard}
seat=0
players=4
hand=""
while read -r line; do
    # shellcheck disable=SC2086 # split into words on purpose
    set -- $line
    case $1 in
    fep) echo fepok ;;
    game) players=$3 seat=$5 ;;
    round) shift 3; hand=" $* " ;;
    go)
        case $mode in
        ring9) echo "play RING>9" ;;
        ring) echo "play RING>$(( (seat + 1) % players ))" ;;
        nocard)
            for c in R1 R2 R3 B1 B2 B3 G1 G2 G3 Y1 Y2 Y3 P1 P2 P3 J1 J2 RING; do
                case $hand in
                *" $c "*) ;;
                *) echo "play $c>$seat"; break ;;
                esac
            done
            ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
