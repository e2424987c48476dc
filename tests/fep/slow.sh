#!/bin/sh
# SPDX-License-Identifier: MIT
# slow.sh SECONDS - a broken FEP engine for tests/cli/test_fep.sh: a correct
# handshake, then it answers `go` only after SECONDS (default 3), later than
# the host's ms + 1000. The host must not wait past that, count one fault,
# and kill the engine together with the helper process it naps in (a copy of
# this script, so that a helper left behind is found by its command line).
delay=${1:-3}
if [ "$delay" = nap ]; then
    n=0
    while [ "$n" -lt "$2" ]; do
        sleep 1
        n=$((n + 1))
    done
    exit 0
fi
while read -r cmd rest; do
    case $cmd in
    fep) echo fepok ;;
    go) "$0" nap "$delay"; echo "play take" ;;
    quit) exit 0 ;;
    esac
done
