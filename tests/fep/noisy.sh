#!/bin/sh
# SPDX-License-Identifier: MIT
# noisy.sh MODE [ENGINE ARGS...] - an FEP engine for tests/cli/test_fep.sh
# that talks too much:
#   chatty ENGINE...  runs a real engine and adds `info` lines before the
#                     handshake and before every answer: legal FEP, no fault
#   flood             a correct handshake, then answers `go` with an endless
#                     stream of `info` lines and never a `play`: one fault
#                     (late), and the host must not hang
#   huge              answers `go` with one 100000-byte line: one fault
#                     (a line too long), never a buffer overflow
mode=${1:-flood}
case $mode in
chatty)
    shift
    i=0
    while [ $i -lt 20 ]; do
        echo "info warming up $i"
        i=$((i + 1))
    done
    "$@" | while IFS= read -r line; do
        case $line in
        play*)
            i=0
            while [ $i -lt 50 ]; do
                echo "info thinking hard about move $i"
                i=$((i + 1))
            done
            ;;
        esac
        printf '%s\n' "$line"
    done
    exit 0
    ;;
esac
while read -r cmd rest; do
    case $cmd in
    fep) echo "info hello"; echo fepok ;;
    go)
        case $mode in
        flood) yes "info la la la la la la la la la la la la la la la la la la la" ;;
        huge) head -c 100000 /dev/zero | tr '\000' x; echo ;;
        esac
        ;;
    quit) exit 0 ;;
    esac
done
