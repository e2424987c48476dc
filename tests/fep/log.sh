#!/bin/sh
# SPDX-License-Identifier: MIT
# log.sh LOG ENGINE ARGS... - not broken: a wrapper for tests/cli/test_fep.sh
# that appends "start" to LOG when the host starts it, then every line the
# host sends (as "> line"), and runs the real engine on them. The test reads
# LOG to check what the host said and how many processes it started.
log=$1
shift
echo "start" >>"$log"
while IFS= read -r line; do
    printf '> %s\n' "$line" >>"$log"
    printf '%s\n' "$line"
done | "$@"
