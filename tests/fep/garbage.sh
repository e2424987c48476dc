#!/bin/sh
# SPDX-License-Identifier: MIT
# garbage.sh MODE - a broken FEP engine for tests/cli/test_fep.sh: a correct
# handshake, then an answer to `go` that is not `play <action>`:
#   junk    a line that is no FEP at all
#   word    play banana         (not an action)
#   empty   play                (no action)
#   two     play take take      (more than one action)
#   binary  play with control characters and a NUL byte
#   id      an `id` line, which belongs to the handshake only
# Each must be one fault, never a crash.
mode=${1:-junk}
while read -r cmd rest; do
    case $cmd in
    fep) echo fepok ;;
    go)
        case $mode in
        junk) echo "bonjour, je suis un moteur" ;;
        word) echo "play banana" ;;
        empty) echo "play" ;;
        two) echo "play take take" ;;
        binary) printf 'play R1>0\000\001\002\n' ;;
        id) echo "id name late" ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
