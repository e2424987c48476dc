#!/bin/sh
# SPDX-License-Identifier: MIT
# test_readme.sh - the examples of README.md and of the documents that hold
# the command reference (DOCS below) are the real commands' output:
# every "$ COMMAND" line of a fenced block is run (from a scratch folder that
# sees the repository's tests/ and examples/, with figaro on the PATH) and its
# output compared with the lines under it in the README, up to the next "$ "
# line or the end of the block. A README line "..." stands for any number of
# lines, and a line ending in "..." for any line that starts with the rest,
# so an example may show a long output in part. Run by tests/run.sh with
# FIGARO set to the sanitizer build; prints "cli: N passed, N failed" last.
FIGARO=${FIGARO:-build/test/figaro}
case $FIGARO in /*) ;; *) FIGARO=$(pwd)/$FIGARO ;; esac
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/cli/lib.sh

mkdir -p "$tmp/bin" "$tmp/work"
ln -s "$FIGARO" "$tmp/bin/figaro"
ln -s "$root/tests" "$tmp/work/tests"
ln -s "$root/examples" "$tmp/work/examples"
mkdir -p "$tmp/work/build"   # the example programs built beside figaro
ln -s "$(dirname "$FIGARO")/many_matches" "$tmp/work/build/many_matches"

# The documents whose examples are run, besides README.md.
DOCS="docs/commands.md docs/development.md"

# The examples: each becomes $tmp/ex.N.cmd (the command), $tmp/ex.N.want and
# $tmp/ex.N.file (the document it is in).
awk -v dir="$tmp" '
    FNR == 1 { inblock = 0; cur = "" }
    /^```/ { inblock = !inblock; cur = ""; next }
    inblock && /^\$ / { n++; cur = sprintf("%s/ex.%03d", dir, n); print substr($0, 3) > (cur ".cmd");
                        printf "" > (cur ".want"); print FILENAME > (cur ".file"); next }
    inblock && cur != "" { print > (cur ".want") }
' README.md $DOCS

# matches WANT GOT: GOT's lines against WANT's, with "..." as described above
matches() {
    awk -v wantf="$1" '
        BEGIN { nw = 0; while ((getline l < wantf) > 0) w[++nw] = l }
        { g[++ng] = $0 }
        function m(i, j,   k, p) {   # want from i matches got from j
            if (i > nw) return j > ng
            if (w[i] == "...") { for (k = j; k <= ng + 1; k++) if (m(i + 1, k)) return 1; return 0 }
            if (j > ng) return 0
            if (w[i] ~ /\.\.\.$/) { p = substr(w[i], 1, length(w[i]) - 3)
                                    return index(g[j], p) == 1 && m(i + 1, j + 1) }
            return w[i] == g[j] && m(i + 1, j + 1)
        }
        END { exit m(1, 1) ? 0 : 1 }
    ' "$2"
}

count=0
for cmd in "$tmp"/ex.*.cmd; do
    [ -f "$cmd" ] || continue
    count=$((count + 1))
    base=${cmd%.cmd}
    (cd "$tmp/work" && PATH="$tmp/bin:$PATH" XDG_DATA_HOME="$tmp/data" LANG=C.UTF-8 \
        LANGUAGE= LC_ALL= sh -c "$(cat "$cmd")" >"$base.got" 2>&1)
    if matches "$base.want" "$base.got"; then ok; else
        ko "$(cat "$base.file") example '$(cat "$cmd")' differs from the real output:"
        diff "$base.want" "$base.got" | head -n 20
    fi
done
[ "$count" -ge 5 ] && ok || ko "test set-up: only $count examples found"
summary
