#!/bin/sh
# SPDX-License-Identifier: MIT
# test_licence.sh - figaro is MIT-licensed, and says so everywhere it should:
#   1. LICENSE is the MIT licence with "Copyright (c) 2026 the figaro authors";
#   2. debian/copyright is machine-readable (DEP-5) and gives every file,
#      the translations (po/) and the images included, the same licence;
#   3. scripts/spdx.sh works: on a scratch tree --check names the files
#      without the line and fails, --fix adds it (after a "#!" line, keeping
#      the mode), a second --fix changes nothing, data files are left alone;
#   4. every source file of the repository has the line (spdx.sh --check).
# Prints "cli: N passed, N failed" last.
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/cli/lib.sh
TAG="SPDX-License-Identifier: MIT"

# ---- 1. LICENSE
if [ -f LICENSE ]; then ok; else ko "no LICENSE file"; fi
expect_in "LICENSE is MIT" LICENSE "Permission is hereby granted, free of charge"
expect_in "LICENSE's copyright" LICENSE "Copyright (c) 2026 the figaro authors"

# ---- 2. debian/copyright, DEP-5
c=debian/copyright
expect_in "copyright format" $c "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
expect_not_in "no licence left unchosen" $c "License: other"
# every Files paragraph has the licence of LICENSE, and po/ and the images are named
awk '/^Files:/ { f = 1 } f && /^License:/ { print $2; f = 0 }' $c | sort -u >"$tmp/lic"
[ "$(cat "$tmp/lic")" = Expat ] && ok || ko "debian/copyright: every Files paragraph should be Expat (MIT), got: $(tr '\n' ' ' <"$tmp/lic")"
grep -q '^Files:.*po/\*' $c && ok || ko "debian/copyright does not name the translations (po/*)"
grep -q '^Files:.*docs/img/\*' $c && ok || ko "debian/copyright does not name the images"
grep -q '^License: Expat$' $c && grep -q '^ Permission is hereby granted' $c && ok ||
    ko "debian/copyright lacks the Expat licence's text"

# ---- 3. scripts/spdx.sh on a scratch tree (not a git work tree: find)
s="$tmp/tree"
mkdir -p "$s/src" "$s/build" "$s/po"
printf '/* a.c - a module */\nint a;\n' >"$s/src/a.c"
printf '#!/bin/sh\necho hi\n' >"$s/tool"
chmod 755 "$s/tool"
printf 'import os\n' >"$s/b.py"
printf 'export const x = 1;\n' >"$s/c.js"
printf '<!DOCTYPE html>\n<p>x</p>\n' >"$s/i.html"
printf 'msgid ""\n' >"$s/po/fr.po"
printf 'int generated;\n' >"$s/build/g.c"
cp "$s/po/fr.po" "$tmp/fr.po.before"
expect_status "spdx --check of a tree without the lines" 1 scripts/spdx.sh --check "$s"
for f in src/a.c tool b.py c.js i.html; do expect_in "spdx --check names $f" "$tmp/err" "$f"; done
expect_not_in "spdx --check leaves data alone" "$tmp/err" "fr.po"
expect_not_in "spdx --check leaves build/ alone" "$tmp/err" "g.c"
expect_status "spdx --fix" 0 scripts/spdx.sh --fix "$s"
[ "$(head -n 1 "$s/src/a.c")" = "/* $TAG */" ] && ok || ko "spdx --fix: C gets /* */ first"
[ "$(sed -n 2p "$s/src/a.c")" = "/* a.c - a module */" ] && ok || ko "spdx --fix lost the C file's first line"
[ "$(head -n 1 "$s/tool")" = "#!/bin/sh" ] && [ "$(sed -n 2p "$s/tool")" = "# $TAG" ] && ok ||
    ko "spdx --fix: the #! line stays first, the tag second"
[ -x "$s/tool" ] && ok || ko "spdx --fix made a script lose its mode"
[ "$(head -n 1 "$s/c.js")" = "// $TAG" ] && ok || ko "spdx --fix: JavaScript gets //"
[ "$(sed -n 2p "$s/i.html")" = "<!-- $TAG -->" ] && ok || ko "spdx --fix: HTML gets <!-- --> after the doctype"
cmp -s "$s/po/fr.po" "$tmp/fr.po.before" && ok || ko "spdx --fix changed a data file"
( cd "$s" && find . -type f -exec md5sum {} + | sort ) >"$tmp/sum1"
expect_status "spdx --fix again" 0 scripts/spdx.sh --fix "$s"
( cd "$s" && find . -type f -exec md5sum {} + | sort ) >"$tmp/sum2"
cmp -s "$tmp/sum1" "$tmp/sum2" && ok || ko "spdx --fix is not idempotent"
expect_status "spdx --check after --fix" 0 scripts/spdx.sh --check "$s"
expect_status "spdx without a mode" 2 scripts/spdx.sh

# ---- 4. the repository
expect_status "every source file has '$TAG' (scripts/spdx.sh --fix adds it)" 0 scripts/spdx.sh --check
[ "$(scripts/spdx.sh --list | wc -l)" -ge 200 ] && ok || ko "test set-up: spdx.sh --list sees too few files"
summary
