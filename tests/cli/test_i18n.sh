#!/bin/sh
# SPDX-License-Identifier: MIT
# test_i18n.sh - translations: every language loads and says the published
# editions' words, the locale picks the language even where no locale but
# C.UTF-8 is installed, --lang overrides it, the catalogues are complete and the
# template is up to date with the sources. Run by tests/run.sh with FIGARO set
# to the sanitizer build; prints "cli: N passed, N failed" last.
FIGARO=${FIGARO:-build/test/figaro}
case $FIGARO in /*) ;; *) FIGARO=$(pwd)/$FIGARO ;; esac
cd "$(dirname "$0")/../.." || exit 1
# The languages but English: those of po/*.po (test_lang checks they are src/host/lang.c's).
LANGS=$(for f in po/*.po; do basename "$f" .po; done)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/lib.sh"

# run NAME STATUS ENV... -- ARGS... : runs figaro with a clean environment
# (only ENV), checks the exit status; stdout in $tmp/out, stderr in $tmp/err.
run() {
    name=$1 want=$2
    shift 2
    envs=""
    while [ "$1" != "--" ]; do envs="$envs $1"; shift; done
    shift
    # shellcheck disable=SC2086
    env -i PATH="$PATH" ASAN_OPTIONS="${ASAN_OPTIONS:-}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-}" \
        $envs "$FIGARO" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else ko "$name: exit $got, expected $want"; cat "$tmp/err"; fi
}

LOCALEDIR=$(dirname "$FIGARO")/locale

# ---- each language loads, in the published editions' words
run "rules en" 0 -- rules --lang en
expect_in "rules en title" "$tmp/out" "Figaro: the rules in brief"
expect_in "rules en jester" "$tmp/out" "jesters"
expect_in "rules en ring" "$tmp/out" "ring-around-the-rosey"
run "rules fr" 0 -- rules --lang fr
expect_in "rules fr title" "$tmp/out" "la règle en bref"
expect_in "rules fr jongleur" "$tmp/out" "jongleur"
expect_in "rules fr ronde" "$tmp/out" "ronde"
expect_in "rules fr tronçon" "$tmp/out" "tronçons de route"
expect_in "rules fr Roi" "$tmp/out" "Le Roi n"
run "rules nl" 0 -- rules --lang nl
expect_in "rules nl title" "$tmp/out" "de spelregels in het kort"
expect_in "rules nl nar" "$tmp/out" "narren"
expect_in "rules nl rondedans" "$tmp/out" "rondedans"
expect_in "rules nl wegtegel" "$tmp/out" "wegtegels"
expect_in "rules nl koning" "$tmp/out" "De koning is het beu!"
run "rules it" 0 -- rules --lang it
expect_in "rules it title" "$tmp/out" "il regolamento in breve"
expect_in "rules it giullare" "$tmp/out" "giullari"
expect_in "rules it girotondo" "$tmp/out" "girotondo"
expect_in "rules it strada" "$tmp/out" "pezzi di strada"
expect_in "rules it Re" "$tmp/out" "Il Re ne ha avuto abbastanza!"
for l in $LANGS; do
    run "rules $l stays translated" 0 -- rules --lang $l
    expect_not_in "rules $l has no English paragraph" "$tmp/out" "The King has had enough"
done

# ---- the player aid, and both as JSON for the browser client (web/rules/LANG.json):
# the same paragraphs, each with the rules it tells, every rule R1-R14 told
run "rules --aid it" 0 -- rules --aid --lang it
expect_in "rules --aid it title" "$tmp/out" "Promemoria"
expect_in "rules --aid it girotondo" "$tmp/out" "Girotondo:"
for l in en $LANGS; do
    run "rules --json $l" 0 -- rules --json --lang $l
    if /usr/bin/python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
kinds = {"title", "heading", "text", "item"}
for part in ("rules", "aid"):
    assert d[part][0]["kind"] == "title", part
    assert all(p["kind"] in kinds and p["text"] for p in d[part]), part
told = {k for p in d["rules"] for k in p["rules"]}
assert told == set(range(1, 15)), sorted(told)
PY
    then ok; else ko "rules --json $l: not the rules and the aid, R1-R14"; fi
done
run "rules --json fr text" 0 -- rules --json --lang fr
expect_in "rules --json fr jongleur" "$tmp/out" "jongleurs"
run "rules --json --width" 2 -- rules --json --width 40
expect_in "rules --json --width message" "$tmp/err" "--json prints every paragraph unwrapped"

# ---- the text is wrapped to the width asked, counting characters not bytes
run "rules --width 40" 0 LC_ALL=C.UTF-8 -- rules --lang fr --width 40
long=$(LC_ALL=C.UTF-8 wc -L <"$tmp/out")
if [ "$long" -le 40 ] && [ "$long" -ge 30 ]; then ok; else ko "rules --width 40: longest line $long"; fi
run "rules --width 19" 2 -- rules --width 19
expect_in "rules --width 19 message" "$tmp/err" "--width takes a number of columns from 20 to 1000"

# ---- the locale picks the language; none of these locales need be installed
run "LANG=fr_FR.UTF-8" 0 LANG=fr_FR.UTF-8 -- rules
expect_in "LANG=fr_FR.UTF-8 is French" "$tmp/out" "la règle en bref"
run "LC_ALL=nl_NL.UTF-8" 0 LC_ALL=nl_NL.UTF-8 LANG=fr_FR.UTF-8 -- rules
expect_in "LC_ALL=nl_NL.UTF-8 is Dutch" "$tmp/out" "de spelregels in het kort"
run "LC_MESSAGES=it_IT.UTF-8" 0 LANG=C.UTF-8 LC_MESSAGES=it_IT.UTF-8 -- rules
expect_in "LC_MESSAGES=it_IT.UTF-8 is Italian" "$tmp/out" "il regolamento in breve"
run "LANGUAGE=it alone" 0 LANGUAGE=it -- rules
expect_in "LANGUAGE=it alone is Italian" "$tmp/out" "il regolamento in breve"
run "LANGUAGE=it with C.UTF-8" 0 LANG=C.UTF-8 LANGUAGE=it -- rules
expect_in "LANGUAGE=it with C.UTF-8 is Italian" "$tmp/out" "il regolamento in breve"
run "LANGUAGE=nl over LANG=fr" 0 LANG=fr_FR.UTF-8 LANGUAGE=nl -- rules
expect_in "LANGUAGE=nl over LANG=fr is Dutch" "$tmp/out" "de spelregels in het kort"
run "LC_ALL=C" 0 LC_ALL=C LANGUAGE=it -- rules
expect_in "LC_ALL=C is English (GNU: LANGUAGE is ignored)" "$tmp/out" "Figaro: the rules in brief"
run "no locale" 0 -- rules
expect_in "no locale is English" "$tmp/out" "Figaro: the rules in brief"
run "unknown locale" 0 LANG=de_DE.UTF-8 -- rules
expect_in "an untranslated language is English" "$tmp/out" "Figaro: the rules in brief"
run "LANG=fr_BE.UTF-8" 0 LANG=fr_BE.UTF-8 -- rules
expect_in "fr_BE falls back to fr" "$tmp/out" "la règle en bref"

# ---- --lang wins over the locale
run "--lang it over LANG=fr" 0 LANG=fr_FR.UTF-8 -- rules --lang it
expect_in "--lang it over LANG=fr" "$tmp/out" "il regolamento in breve"
run "--lang en over LC_ALL=nl" 0 LC_ALL=nl_NL.UTF-8 -- rules --lang en
expect_in "--lang en over LC_ALL=nl" "$tmp/out" "Figaro: the rules in brief"
run "--lang fr over LANGUAGE=it" 0 LANGUAGE=it -- rules --lang fr
expect_in "--lang fr over LANGUAGE=it" "$tmp/out" "la règle en bref"

# ---- usage errors: an unknown language, in the person's language
run "--lang xx" 2 -- rules --lang xx
expect_in "--lang xx says so" "$tmp/err" "unknown language 'xx' (en, fr, nl, it)"
expect_in "--lang xx points to help" "$tmp/err" "figaro help rules"
run "--lang xx in French" 2 LANG=fr_FR.UTF-8 -- rules --lang xx
expect_in "--lang xx in French" "$tmp/err" "langue inconnue"
run "--lang without value" 2 -- rules --lang
expect_in "--lang without value" "$tmp/err" "option '--lang' needs a value"
run "unknown option, Dutch" 2 LANGUAGE=nl -- rules --colour
expect_in "unknown option, Dutch" "$tmp/err" "onbekende optie '--colour'"
run "extra argument, Italian" 2 LANG=it_IT.UTF-8 -- rules extra
expect_in "extra argument, Italian" "$tmp/err" "argomento inatteso 'extra'"
run "help rules" 0 -- help rules
expect_in "help rules" "$tmp/out" "usage: figaro rules [--lang L]"

# ---- the catalogues are found from anywhere, or where FIGARO_LOCALEDIR says
(cd / && env -i LANG=fr_FR.UTF-8 "$FIGARO" rules >"$tmp/out" 2>&1)
expect_in "run from / finds the catalogues" "$tmp/out" "la règle en bref"
mkdir -p "$tmp/empty"
run "FIGARO_LOCALEDIR empty dir" 0 FIGARO_LOCALEDIR="$tmp/empty" LANG=fr_FR.UTF-8 -- rules
expect_in "FIGARO_LOCALEDIR without catalogues is English" "$tmp/out" "Figaro: the rules in brief"
cp -R "$LOCALEDIR" "$tmp/elsewhere"
run "FIGARO_LOCALEDIR" 0 FIGARO_LOCALEDIR="$tmp/elsewhere" LANG=fr_FR.UTF-8 -- rules
expect_in "FIGARO_LOCALEDIR with catalogues" "$tmp/out" "la règle en bref"

# ---- the game speaks the language: a usage error, plain mode and a refusal
mkdir -p "$tmp/data"
run "play usage error, Dutch" 2 XDG_DATA_HOME="$tmp/data" -- play --lang nl --players 9
expect_in "play usage error, Dutch" "$tmp/err" "--players verwacht 3 tot 6, niet '9'"
printf 'R2>9\nquit\n' >"$tmp/in"
env -i PATH="$PATH" XDG_DATA_HOME="$tmp/data" LANG=fr_FR.UTF-8 "$FIGARO" play --plain --fast \
    --seed 3 --players 4 <"$tmp/in" >"$tmp/out" 2>&1
expect_in "plain mode in French: the deal" "$tmp/out" "Manche 1"
expect_in "plain mode in French: the hand" "$tmp/out" "Votre main"
expect_in "plain mode in French: a refused move explained" "$tmp/out" "ne nomme aucune place"
printf 'R2>9\nquit\n' >"$tmp/in"
mkdir -p "$tmp/data2"
env -i PATH="$PATH" XDG_DATA_HOME="$tmp/data2" LANGUAGE=it "$FIGARO" play --plain --fast \
    --seed 3 --players 4 <"$tmp/in" >"$tmp/out" 2>&1
expect_in "plain mode in Italian" "$tmp/out" "Tocca a te"

# ---- card codes that read right in each language (the
# records keep FGN's), level names translated, and no English "You" as the
# name when $USER is unset (env -i unsets it)
mkdir -p "$tmp/data3"
printf 've1>1\nquit\n' >"$tmp/in"
env -i PATH="$PATH" XDG_DATA_HOME="$tmp/data3" "$FIGARO" play --plain --fast --lang fr \
    --seed 3 --bots easy <"$tmp/in" >"$tmp/out" 2>&1
expect_in "French card codes" "$tmp/out" "Votre main : [R1][R1][R2][B2][Ve1][Ve2]"
expect_in "French jester and ring codes" "$tmp/out" "[Jo2][RONDE]"
expect_in "French codes are typed too" "$tmp/out" "Vous jouez Ve1 devant Rosina."
expect_not_in "no English colour letters in French" "$tmp/out" "[G1]"
expect_in "French level names" "$tmp/out" "Rosina (facile)"
expect_in "a French default name" "$tmp/out" "Figaro : Joueur (vous, place 0)"
expect_not_in "no English default name" "$tmp/out" "You "
expect_in "the record keeps FGN's codes" "$tmp/data3/figaro/current.fgn" "0 G1>1"
mkdir -p "$tmp/data4"
printf 'quit\n' >"$tmp/in"
env -i PATH="$PATH" XDG_DATA_HOME="$tmp/data4" LANGUAGE=nl "$FIGARO" play --plain --fast \
    --seed 3 --bots hard <"$tmp/in" >"$tmp/out" 2>&1
expect_in "Dutch card codes" "$tmp/out" "[Gr"
expect_in "Dutch level names" "$tmp/out" "Rosina (moeilijk)"
expect_in "a Dutch default name" "$tmp/out" "Speler (jij"

# ---- a sample of the catalogue: colour names, core and front-end messages
if command -v gettext >/dev/null 2>&1; then
    catalogue() {   # catalogue LANG MSGID : the translation, as figaro's catalogue has it
        env -i TEXTDOMAINDIR="$LOCALEDIR" LANG=C.UTF-8 LANGUAGE="$1" gettext -d figaro -- "$2"
    }
    check_tr() {   # check_tr LANG MSGID EXPECTED
        got=$(catalogue "$1" "$2")
        if [ "$got" = "$3" ]; then ok; else ko "$1: '$2' is '$got', expected '$3'"; fi
    }
    check_tr fr red rouge; check_tr fr blue bleu; check_tr fr green vert
    check_tr fr yellow jaune; check_tr fr purple violet
    check_tr nl red rood; check_tr nl blue blauw; check_tr nl green groen
    check_tr nl yellow geel; check_tr nl purple paars
    check_tr it red rosso; check_tr it blue blu; check_tr it green verde
    check_tr it yellow giallo; check_tr it purple viola
    check_tr it "the game is over" "la partita è finita"
    check_tr nl "not an action" "geen actie"
    check_tr it "Seed" "Numero di partita"   # not "Seme": a suit of cards
    check_tr it "normal" "normale"
    check_tr fr "R B G Y P J RING" "R B Ve Ja Vi Jo RONDE"
    if catalogue nl "Levels: beginner makes mistakes to catch; easy plays move by move; normal, hard and max search ahead, further and further." |
        grep -q "zet voor zet"; then ok; else ko "nl: 'zet voor zet'"; fi
else
    ko "gettext(1) is missing (Debian package gettext-base)"
fi

# ---- the catalogues are complete and the template is up to date
for l in $LANGS; do
    if msgfmt --check --statistics -o /dev/null "po/$l.po" 2>"$tmp/stats"; then ok; else
        ko "po/$l.po does not compile"; cat "$tmp/stats"; fi
    if grep -q 'untranslated\|fuzzy' "$tmp/stats"; then ko "po/$l.po: $(cat "$tmp/stats")"; else ok; fi
done
if make -s --no-print-directory pot-to POT_OUT="$tmp/figaro.pot" >"$tmp/make" 2>&1; then
    grep -v '^"POT-Creation-Date:' po/figaro.pot >"$tmp/old"
    grep -v '^"POT-Creation-Date:' "$tmp/figaro.pot" >"$tmp/new"
    if cmp -s "$tmp/old" "$tmp/new"; then ok; else
        ko "po/figaro.pot is out of date with the sources: run 'make pot'"
        diff "$tmp/old" "$tmp/new" | head -20
    fi
    for l in $LANGS; do   # every message of the template is in every catalogue
        if msgcmp "po/$l.po" "$tmp/figaro.pot" >"$tmp/cmp" 2>&1; then ok; else
            ko "po/$l.po lacks messages of the sources: run 'make pot'"; head -5 "$tmp/cmp"; fi
    done
else
    ko "make pot-to failed"
    cat "$tmp/make"
fi

summary
