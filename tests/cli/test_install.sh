#!/bin/sh
# SPDX-License-Identifier: MIT
# test_install.sh - `make install` and `make uninstall` into a temporary
# DESTDIR: the files land where the GNU variables say, the shared libraries
# carry their soname and links, the example program of docs/engine.md builds
# with pkg-config against the installed headers and library and runs, the
# installed command works from anywhere (--version, a game in French with the
# installed translations), the Python package finds the installed libraries,
# and uninstall leaves no file behind, nor a folder of its own. Uses the
# release build (make builds it if needed). Run by tests/run.sh; prints
# "cli: N passed, N failed" last.
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

# A make of its own: not the jobs of an enclosing `make test`.
unset MAKEFLAGS MFLAGS MAKELEVEL
stage=$tmp/stage
prefix=/opt/figaro-test
vars="DESTDIR=$stage PREFIX=$prefix MANDIR=$prefix/man PYTHON=/usr/bin/python3"
# shellcheck disable=SC2086
expect_status "make install" 0 make -s install $vars
[ -s "$tmp/err" ] && head -n 20 "$tmp/err"

d=$stage$prefix
for f in bin/figaro lib/libfigaro.so.0.1.0 lib/libfigaro-ai.so.0.1.0 lib/libfigaro.a \
         lib/libfigaro-ai.a include/figaro/figaro.h include/figaro/obs.h \
         include/figaro/batch.h lib/pkgconfig/figaro.pc lib/pkgconfig/figaro-ai.pc \
         share/locale/fr/LC_MESSAGES/figaro.mo share/locale/nl/LC_MESSAGES/figaro.mo \
         share/locale/it/LC_MESSAGES/figaro.mo man/man1/figaro.1 man/man5/figaro-fgn.5 \
         man/man7/figaro-fep.7 share/figaro/web/index.html share/figaro/web/rules/fr.json \
         share/figaro/web/lessons/fr.json share/figaro/web/manifest.webmanifest \
         share/figaro/web/app.js.gz share/figaro/web/i18n/fr.json.gz \
         share/figaro/web/rules/fr.json.gz; do
    if [ -f "$d/$f" ]; then ok; else ko "installed $f missing"; fi
done
# The page's gzip copies kept their times (install -p): none older than its file,
# else `figaro serve` would send the file itself.
stale=$(find "$d/share/figaro/web" -name '*.gz' | while read -r g; do
            [ "${g%.gz}" -nt "$g" ] && echo "${g#"$d"/}"; done)
if [ -z "$stale" ]; then ok; else ko "gzip copies older than their files: $stale"; fi
for l in libfigaro libfigaro-ai; do
    if [ "$(readlink "$d/lib/$l.so.0")" = "$l.so.0.1.0" ] &&
       [ "$(readlink "$d/lib/$l.so")" = "$l.so.0" ]; then ok; else ko "$l symlinks"; fi
done
readelf -d "$d/lib/libfigaro.so.0.1.0" >"$tmp/dyn"
expect_in "soname" "$tmp/dyn" "Library soname: [libfigaro.so.0]"
expect_not_in "no RPATH into the source tree" "$tmp/dyn" "$root"
expect_in "pc prefix" "$d/lib/pkgconfig/figaro.pc" "prefix=$prefix"
expect_in "pc libdir under the prefix" "$d/lib/pkgconfig/figaro.pc" 'libdir=${prefix}/lib'
for f in lib/libfigaro-host.a lib/pkgconfig/figaro-host.pc man/man3/figaro-game.3 \
         share/doc/figaro/fgn.md; do
    if [ -f "$d/$f" ]; then ok; else ko "installed $f missing"; fi
done
if [ "$(readlink "$d/man/man3/fig_game_play.3")" = figaro-game.3 ]; then ok
else ko "man3 link fig_game_play.3"; fi
expect_in "fgn(5) names the installed document" "$d/man/man5/figaro-fgn.5" \
    "$prefix/share/doc/figaro/fgn.md"

# The example program of docs/engine.md, built with pkg-config, linked to the
# shared library.
awk '/^```c$/ { on = 1; next } /^```$/ { if (on) exit } on' docs/engine.md >"$tmp/example.c"
expect_in "example extracted" "$tmp/example.c" "fig_state_ranking"
flags=$(PKG_CONFIG_PATH=$d/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage \
        pkg-config --cflags --libs figaro)
case $flags in *"$stage$prefix/include"*) ok ;; *) ko "pkg-config flags: $flags" ;; esac
# shellcheck disable=SC2086
expect_status "example builds" 0 cc -std=c11 -Wall -Werror -o "$tmp/example" "$tmp/example.c" $flags
readelf -d "$tmp/example" >"$tmp/dyn"
expect_in "example uses the shared library" "$tmp/dyn" "[libfigaro.so.0]"
expect_status "example runs" 0 env LD_LIBRARY_PATH="$d/lib" "$tmp/example"
expect_in "example output" "$tmp/out" "wins with a road of"
# and the bots' library, with its own .pc file
cat >"$tmp/bot.c" <<'C'
#include <stdio.h>
#include "figaro/bot.h"
int main(void)
{
    fig_bot_t *bot;
    fig_msg_t msg;
    if (fig_bot_new(&bot, "greedy", 1, &msg) != FIG_OK)
        return 1;
    printf("%s\n", fig_bot_spec(bot));
    fig_bot_free(bot);
    return fig_bot_new(&bot, "nobot", 1, &msg) == FIG_ERR_INPUT ? 0 : 1;
}
C
flags=$(PKG_CONFIG_PATH=$d/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage \
        pkg-config --cflags --libs figaro-ai)
# shellcheck disable=SC2086
expect_status "bot program builds" 0 cc -std=c11 -o "$tmp/bot" "$tmp/bot.c" $flags
expect_status "bot program runs" 0 env LD_LIBRARY_PATH="$d/lib" "$tmp/bot"
expect_in "bot program output" "$tmp/out" "greedy"

# The installed command, from another directory, with a clean environment.
cd "$tmp" || exit 1
expect_status "figaro --version" 0 env -i PATH=/usr/bin:/bin "$d/bin/figaro" --version
expect_in "version" "$tmp/out" "figaro 0.1.0"
mkdir -p "$tmp/home"
printf 'quit\n' >"$tmp/quit"
expect_status "play --plain in French" 0 env -i PATH=/usr/bin:/bin HOME="$tmp/home" \
    XDG_DATA_HOME="$tmp/home" LANG=C.UTF-8 "$d/bin/figaro" play --plain --lang fr --seed 1 \
    --players 3 --bots easy <"$tmp/quit"
expect_in "French from the installed catalogue" "$tmp/out" "Votre main"
expect_status "rules in Dutch" 0 env -i PATH=/usr/bin:/bin LANGUAGE=nl LANG=C.UTF-8 \
    "$d/bin/figaro" rules
expect_not_in "Dutch, not English" "$tmp/out" "Figaro: the rules in brief"
cd "$root" || exit 1

# The Python package: installed with the library directory written in.
pydir=$(find "$d/lib" -type d -name figaro -path '*dist-packages*' | head -n 1)
if [ -n "$pydir" ] && [ -f "$pydir/_paths.py" ]; then ok; else ko "python package missing"; fi
expect_in "python knows the libdir" "$pydir/_paths.py" "LIBDIR = \"$prefix/lib\""
expect_status "python package loads the installed library" 0 env \
    PYTHONPATH="$(dirname "$pydir")" FIGARO_LIBDIR="$d/lib" /usr/bin/python3 -c \
    'import figaro, sys; print(figaro.core_path); sys.stdout.write(figaro.random_game(4, 7).to_fgn())'
expect_in "python used the installed library" "$tmp/out" "$d/lib/libfigaro.so.0"
build/figaro random-game --players 4 --seed 7 >"$tmp/ref"
tail -n +2 "$tmp/out" | cmp -s - "$tmp/ref" && ok || ko "installed python's record differs"

man -l "$d/man/man1/figaro.1" >"$tmp/man" 2>&1
expect_in "man page renders" "$tmp/man" "random-game"

# shellcheck disable=SC2086
expect_status "make uninstall" 0 make -s uninstall $vars
left=$(find "$stage" \( -type f -o -type l \) | sed "s|^$stage||")
if [ -z "$left" ]; then ok; else ko "left after uninstall: $left"; fi
# ... nor a folder of figaro's own (the shared ones, bin/, lib/, share/man/man1/, stay).
left=$(find "$stage" -type d -name figaro | sed "s|^$stage||")
if [ -z "$left" ]; then ok; else ko "folders left after uninstall: $left"; fi

summary
