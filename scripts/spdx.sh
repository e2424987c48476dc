#!/bin/sh
# SPDX-License-Identifier: MIT
# spdx.sh - every source file says its licence in its first lines:
#   SPDX-License-Identifier: MIT
# as a comment of its language: /* ... */ in C and CSS, // in JavaScript, # in
# shell, Python and makefiles, <!-- ... --> in HTML. The line goes first, or
# second after a "#!" line or an HTML doctype.
#
# Usage: scripts/spdx.sh --check | --fix | --list [DIR]
#   --check  names every source file without the line; exit status 1 if any
#   --fix    adds the line where it is missing (idempotent: a file that has it
#            in its first 3 lines is left alone); prints what it changed
#   --list   prints the source files it looks at
# DIR (default: the repository this script is in) is read with `git ls-files`
# when it is a git work tree, else with find (build/ and node_modules/ left
# out). Source files: *.c *.h *.js *.mjs *.py *.sh *.css *.html, makefiles
# (Makefile, *.mk, debian/rules) and any file whose first line is a "#!" for sh,
# bash or python. Not: data (records, corpora, JSON, catalogues: po/ is
# covered by LICENSE and debian/copyright), and .ci/, which is not the
# project's.
set -u
mode=${1:-}
case $mode in
    --check | --fix | --list) ;;
    *) echo "usage: scripts/spdx.sh --check | --fix | --list [DIR]" >&2; exit 2 ;;
esac
dir=${2:-$(dirname "$0")/..}
cd "$dir" || exit 2
TAG="SPDX-License-Identifier: MIT"

files() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard
    else
        find . -type f ! -path './build/*' ! -path '*/node_modules/*' ! -path './.git/*' |
            sed 's|^\./||'
    fi | grep -v -e '^\.ci/' -e '/node_modules/' -e '^build/' | sort
}

# kind FILE: the comment style of a source file (c, slash, hash, html), or nothing
kind() {
    case $1 in
        *.c | *.h | *.css) echo c; return ;;
        *.js | *.mjs) echo slash; return ;;
        *.py | *.sh | *.mk | Makefile | */Makefile | debian/rules) echo hash; return ;;
        *.html) echo html; return ;;
        *.*) return ;;
    esac
    # no extension: a script by its "#!" line
    if head -n 1 "$1" 2>/dev/null | grep -qE '^#!.*(/|env )(ba)?sh|^#!.*python'; then echo hash; fi
}

status=0
files | while read -r f; do
    [ -f "$f" ] || continue
    k=$(kind "$f")
    [ -n "$k" ] || continue
    if [ "$mode" = --list ]; then echo "$f"; continue; fi
    head -n 3 "$f" | grep -qF "$TAG" && continue
    if [ "$mode" = --check ]; then echo "$f"; continue; fi
    case $k in
        c) line="/* $TAG */" ;;
        slash) line="// $TAG" ;;
        hash) line="# $TAG" ;;
        html) line="<!-- $TAG -->" ;;
    esac
    first=$(head -n 1 "$f")
    tmpf="$f.spdx.$$"
    case $first in
        '#!'* | '<!DOCTYPE'* | '<!doctype'*)
            { printf '%s\n%s\n' "$first" "$line"; tail -n +2 "$f"; } >"$tmpf" ;;
        *)
            { printf '%s\n' "$line"; cat "$f"; } >"$tmpf" ;;
    esac
    # keep the file's mode (scripts stay executable)
    chmod "$(stat -c %a "$f")" "$tmpf" && mv "$tmpf" "$f" && echo "$f"
done >"${TMPDIR:-/tmp}/spdx.$$"
out="${TMPDIR:-/tmp}/spdx.$$"
if [ "$mode" = --check ] && [ -s "$out" ]; then
    echo "spdx.sh: these source files lack '$TAG' in their first lines (scripts/spdx.sh --fix):" >&2
    cat "$out" >&2
    status=1
elif [ "$mode" = --fix ] && [ -s "$out" ]; then
    sed 's/^/added: /' "$out"
elif [ "$mode" = --list ]; then
    cat "$out"
fi
rm -f "$out"
exit $status
