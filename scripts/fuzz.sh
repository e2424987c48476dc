#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz.sh - `make fuzz`: runs the fuzz targets of tests/fuzz/targets one after
# another, each for FUZZ_SECONDS on FUZZ_JOBS cores (libFuzzer's fork mode),
# going on past a crash (-ignore_crashes) so that one run finds them all.
#
# Each target keeps its working corpus in OUT/TARGET/corpus (seeded from the
# target's corpora in tests/fuzz, which are only read) and its crash, timeout
# and out-of-memory inputs in OUT/TARGET/crashes. At the end a summary gives,
# per target: seconds, executions, executions per second, corpus size, and
# the inputs that failed, grouped by the sanitizer's or libFuzzer's one-line
# SUMMARY, each with the command that reproduces it. Exits 1 if any target
# failed on an input.
#
# Usage: sh scripts/fuzz.sh [TARGET...]    (default: every target)
#   FUZZ_SECONDS  seconds per target (300)     FUZZ_JOBS  parallel jobs (nproc)
#   FUZZ_EXECS    at least this many executions per target: rounds of
#                 FUZZ_SECONDS until then (0, the default: one round)
#   T             the build with the targets (build/test)
#   OUT           where corpora, crashes and logs go (build/fuzz)
set -u
cd "$(dirname "$0")/.." || exit 2
T=${T:-build/test}
OUT=${OUT:-build/fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-300}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
MIN_EXECS=${FUZZ_EXECS:-0}
list=tests/fuzz/targets
case $SECONDS_EACH in ''|*[!0-9]*) echo "fuzz.sh: FUZZ_SECONDS must be a number of seconds, not '$SECONDS_EACH'" >&2; exit 2 ;; esac
case $MIN_EXECS in ''|*[!0-9]*) echo "fuzz.sh: FUZZ_EXECS must be a number of executions, not '$MIN_EXECS'" >&2; exit 2 ;; esac
case $JOBS in ''|*[!0-9]*|0) echo "fuzz.sh: FUZZ_JOBS must be a positive number, not '$JOBS'" >&2; exit 2 ;; esac

targets=$(sed -n 's/^\(fuzz_[a-z_]*\).*/\1/p' "$list")
[ $# -eq 0 ] || targets="$*"
for t in $targets; do
    grep -q "^$t " "$list" || { echo "fuzz.sh: no target '$t' in $list (there are: $(sed -n 's/^\(fuzz_[a-z_]*\).*/\1/p' "$list" | tr '\n' ' '))" >&2; exit 2; }
    [ -x "$T/$t" ] || { echo "fuzz.sh: $T/$t is not built (make fuzz builds it)" >&2; exit 2; }
done

mkdir -p "$OUT"
summary="$OUT/summary.txt"
: >"$summary"
bad=0
echo "fuzzing $(echo $targets | wc -w) targets, ${SECONDS_EACH} s each$([ "$MIN_EXECS" -eq 0 ] || echo " (rounds until $MIN_EXECS executions)") on $JOBS jobs; $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" | tee -a "$summary"
printf '%-18s %8s %14s %10s %8s %8s\n' target seconds executions exec/s corpus failed | tee -a "$summary"
details="$OUT/details.txt"
: >"$details"
for t in $targets; do
    line=$(grep "^$t " "$list")
    max_len=$(echo "$line" | awk '{print $2}')
    seeds=$(echo "$line" | awk '{ for (i = 3; i <= NF; i++) print $i }')
    dir="$OUT/$t"
    mkdir -p "$dir/corpus" "$dir/crashes"
    log="$dir/log"
    echo "== $t: ${SECONDS_EACH} s (log: $log)" >&2
    start=$(date +%s)
    execs=0
    : >"$log"
    while :; do
        # -fork runs batches of inputs in child processes; a child that
        # crashes is counted and its input saved, and the fuzzing goes on.
        "$T/$t" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
            -max_total_time="$SECONDS_EACH" -max_len="$max_len" -timeout=20 \
            -rss_limit_mb=2048 -artifact_prefix="$dir/crashes/" \
            "$dir/corpus" $seeds >"$log.round" 2>&1
        cat "$log.round" >>"$log"
        # fork mode's status lines: "#EXECS: cov: .. corp: N exec/s E oom/timeout/crash: ..."
        n=$(grep '^#[0-9]*: cov:' "$log.round" | tail -n 1 | sed -n 's/^#\([0-9]*\):.*/\1/p')
        execs=$((execs + ${n:-0}))
        rm -f "$log.round"
        # FUZZ_EXECS: more rounds of FUZZ_SECONDS (on the corpus grown so far)
        # until that many executions; a round that executes nothing ends it
        [ "$execs" -lt "$MIN_EXECS" ] && [ "${n:-0}" -gt 0 ] || break
    done
    took=$(( $(date +%s) - start ))
    corp=$(ls "$dir/corpus" | wc -l)
    nfail=$(ls "$dir/crashes" | wc -l)
    rate=$(( took > 0 ? execs / took : 0 ))
    printf '%-18s %8d %14d %10d %8d %8d\n' "$t" "$took" "$execs" "$rate" "$corp" "$nfail" | tee -a "$summary"
    if [ "$nfail" -gt 0 ]; then
        bad=1
        # group the inputs by what went wrong: each is run again alone
        # (the smallest 50: a crash found once is usually found many times)
        groups="$dir/groups"
        : >"$groups"
        for f in $(ls -S -r "$dir/crashes" | head -n 50); do
            why=$("$T/$t" -runs=1 "$dir/crashes/$f" 2>&1 | grep -m 1 '^SUMMARY:' | cut -c1-150)
            echo "${why:-SUMMARY: no failure when run again (a timeout or out-of-memory?)}	$f" >>"$groups"
        done
        echo "$t: $nfail failing inputs in $dir/crashes/; what went wrong (the smallest 50):" \
            >>"$details"
        cut -f1 "$groups" | sort | uniq -c | while read -r n why; do
            first=$(grep -F -m 1 "$why	" "$groups" | cut -f2)
            printf '  %d x %s\n     reproduce: %s\n' "$n" "$why" "$T/$t $dir/crashes/$first" \
                >>"$details"
        done
    fi
done
[ ! -s "$details" ] || { echo; cat "$details"; } | tee -a "$summary"
echo "summary in $summary"
exit $bad
