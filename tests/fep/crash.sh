#!/bin/sh
# SPDX-License-Identifier: MIT
# crash.sh WHEN - a broken FEP engine for tests/cli/test_fep.sh: it exits
#   handshake  right after `fepok`
#   go         when asked to move, with exit status 3
#   signal     when asked to move, killed by a signal (SIGSEGV)
#   deaf       does not exit but closes its input after the handshake, so the
#              host's next line meets a closed pipe: SIGPIPE must not kill it
# The host must notice (end of its output, or EPIPE when writing), count one
# fault per game, reap the process, and start a fresh one for the next game.
when=${1:-handshake}
if [ "$when" = deaf ]; then
    read -r line
    exec 0<&-
    echo fepok
    exec sleep 30
fi
while read -r cmd rest; do
    case $cmd in
    fep)
        echo fepok
        [ "$when" = handshake ] && exit 0
        ;;
    go)
        [ "$when" = signal ] && kill -SEGV $$
        exit 3
        ;;
    quit) exit 0 ;;
    esac
done
