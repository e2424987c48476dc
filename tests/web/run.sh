#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh - the browser client's checks, from tests/run.sh (`make test`):
# the type check of web/*.js (tsc --checkJs) and the Playwright tests on
# Debian's chromium against a real `figaro serve` (FIGARO). Prints one closing
# line "web: N passed, N failed".
# Usage: FIGARO=build/test/figaro sh tests/web/run.sh
cd "$(dirname "$0")" || exit 1
export FIGARO="${FIGARO:-build/test/figaro}"
case $FIGARO in /*) ;; *) FIGARO="$(cd ../.. && pwd)/$FIGARO" ;; esac
export WEB_ARTIFACTS="$(cd ../.. && pwd)/build/test/web-artifacts"
passed=0
failed=0
if [ ! -x node_modules/.bin/playwright ]; then
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null 2>&1 || {
        echo "web: npm ci failed (run scripts/install-deps.sh)"; echo "web: 0 passed, 1 failed"; exit 1; }
fi
echo "-- tsc --checkJs web/*.js"
if node_modules/.bin/tsc -p tsconfig.json; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
rm -rf "$WEB_ARTIFACTS"
mkdir -p "$WEB_ARTIFACTS"
log="$WEB_ARTIFACTS/playwright.log"
node_modules/.bin/playwright test "$@" 2>&1 | tee "$log"
p=$(sed -n 's/^ *\([0-9][0-9]*\) passed.*/\1/p' "$log" | tail -n 1)
f=$(sed -n 's/^ *\([0-9][0-9]*\) failed.*/\1/p' "$log" | tail -n 1)
p=${p:-0}
f=${f:-0}
[ "$p" -gt 0 ] || [ "$f" -gt 0 ] || f=1   # no test ran: a failure
passed=$((passed + p))
failed=$((failed + f))
echo "web: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
