#!/bin/sh
# test_i18n.sh - translations: every language loads and says the published
# editions' words, the locale picks the language even where no locale but
# C.UTF-8 is installed, --lang overrides it, the catalogues are complete and the
# template is up to date with the sources. Run by tests/run.sh with FIGARO set
# to the sanitizer build; prints "cli: N passed, N failed" last.
FIGARO=${FIGARO:-build/test/figaro}
case $FIGARO in /*) ;; *) FIGARO=$(pwd)/$FIGARO ;; esac
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

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
# has NAME FILE TEXT / hasnt NAME FILE TEXT : FILE does (not) contain TEXT.
has() {
    if grep -qF -- "$3" "$2"; then ok; else ko "$1: '$3' not in $(basename "$2"):"; head -c 400 "$2"; echo; fi
}
hasnt() {
    if grep -qF -- "$3" "$2"; then ko "$1: '$3' should not be in $(basename "$2")"; else ok; fi
}

LOCALEDIR=$(dirname "$FIGARO")/locale

# ---- each language loads, in the published editions' words
run "rules en" 0 -- rules --lang en
has "rules en title" "$tmp/out" "Figaro: the rules in brief"
has "rules en jester" "$tmp/out" "jesters"
has "rules en ring" "$tmp/out" "ring-around-the-rosey"
run "rules fr" 0 -- rules --lang fr
has "rules fr title" "$tmp/out" "la règle en bref"
has "rules fr jongleur" "$tmp/out" "jongleur"
has "rules fr ronde" "$tmp/out" "ronde"
has "rules fr tronçon" "$tmp/out" "tronçons de route"
has "rules fr Roi" "$tmp/out" "Le Roi n"
run "rules nl" 0 -- rules --lang nl
has "rules nl title" "$tmp/out" "de spelregels in het kort"
has "rules nl nar" "$tmp/out" "narren"
has "rules nl rondedans" "$tmp/out" "rondedans"
has "rules nl wegtegel" "$tmp/out" "wegtegels"
has "rules nl koning" "$tmp/out" "De koning is het beu!"
run "rules it" 0 -- rules --lang it
has "rules it title" "$tmp/out" "il regolamento in breve"
has "rules it giullare" "$tmp/out" "giullari"
has "rules it girotondo" "$tmp/out" "girotondo"
has "rules it strada" "$tmp/out" "pezzi di strada"
has "rules it Re" "$tmp/out" "Il Re ne ha avuto abbastanza!"
for l in fr nl it; do
    run "rules $l stays translated" 0 -- rules --lang $l
    hasnt "rules $l has no English paragraph" "$tmp/out" "The King has had enough"
done

# ---- the text is wrapped to the width asked, counting characters not bytes
run "rules --width 40" 0 LC_ALL=C.UTF-8 -- rules --lang fr --width 40
long=$(LC_ALL=C.UTF-8 wc -L <"$tmp/out")
if [ "$long" -le 40 ] && [ "$long" -ge 30 ]; then ok; else ko "rules --width 40: longest line $long"; fi
run "rules --width 19" 2 -- rules --width 19
has "rules --width 19 message" "$tmp/err" "--width takes a number of columns from 20 to 1000"

# ---- the locale picks the language; none of these locales need be installed
run "LANG=fr_FR.UTF-8" 0 LANG=fr_FR.UTF-8 -- rules
has "LANG=fr_FR.UTF-8 is French" "$tmp/out" "la règle en bref"
run "LC_ALL=nl_NL.UTF-8" 0 LC_ALL=nl_NL.UTF-8 LANG=fr_FR.UTF-8 -- rules
has "LC_ALL=nl_NL.UTF-8 is Dutch" "$tmp/out" "de spelregels in het kort"
run "LC_MESSAGES=it_IT.UTF-8" 0 LANG=C.UTF-8 LC_MESSAGES=it_IT.UTF-8 -- rules
has "LC_MESSAGES=it_IT.UTF-8 is Italian" "$tmp/out" "il regolamento in breve"
run "LANGUAGE=it alone" 0 LANGUAGE=it -- rules
has "LANGUAGE=it alone is Italian" "$tmp/out" "il regolamento in breve"
run "LANGUAGE=it with C.UTF-8" 0 LANG=C.UTF-8 LANGUAGE=it -- rules
has "LANGUAGE=it with C.UTF-8 is Italian" "$tmp/out" "il regolamento in breve"
run "LANGUAGE=nl over LANG=fr" 0 LANG=fr_FR.UTF-8 LANGUAGE=nl -- rules
has "LANGUAGE=nl over LANG=fr is Dutch" "$tmp/out" "de spelregels in het kort"
run "LC_ALL=C" 0 LC_ALL=C LANGUAGE=it -- rules
has "LC_ALL=C is English (GNU: LANGUAGE is ignored)" "$tmp/out" "Figaro: the rules in brief"
run "no locale" 0 -- rules
has "no locale is English" "$tmp/out" "Figaro: the rules in brief"
run "unknown locale" 0 LANG=de_DE.UTF-8 -- rules
has "an untranslated language is English" "$tmp/out" "Figaro: the rules in brief"
run "LANG=fr_BE.UTF-8" 0 LANG=fr_BE.UTF-8 -- rules
has "fr_BE falls back to fr" "$tmp/out" "la règle en bref"

# ---- --lang wins over the locale
run "--lang it over LANG=fr" 0 LANG=fr_FR.UTF-8 -- rules --lang it
has "--lang it over LANG=fr" "$tmp/out" "il regolamento in breve"
run "--lang en over LC_ALL=nl" 0 LC_ALL=nl_NL.UTF-8 -- rules --lang en
has "--lang en over LC_ALL=nl" "$tmp/out" "Figaro: the rules in brief"
run "--lang fr over LANGUAGE=it" 0 LANGUAGE=it -- rules --lang fr
has "--lang fr over LANGUAGE=it" "$tmp/out" "la règle en bref"

# ---- usage errors: an unknown language, in the person's language
run "--lang xx" 2 -- rules --lang xx
has "--lang xx says so" "$tmp/err" "unknown language 'xx' (en, fr, nl, it)"
has "--lang xx points to help" "$tmp/err" "figaro help rules"
run "--lang xx in French" 2 LANG=fr_FR.UTF-8 -- rules --lang xx
has "--lang xx in French" "$tmp/err" "langue inconnue"
run "--lang without value" 2 -- rules --lang
has "--lang without value" "$tmp/err" "option '--lang' needs a value"
run "unknown option, Dutch" 2 LANGUAGE=nl -- rules --colour
has "unknown option, Dutch" "$tmp/err" "onbekende optie '--colour'"
run "extra argument, Italian" 2 LANG=it_IT.UTF-8 -- rules extra
has "extra argument, Italian" "$tmp/err" "argomento inatteso 'extra'"
run "help rules" 0 -- help rules
has "help rules" "$tmp/out" "usage: figaro rules [--lang L]"

# ---- the catalogues are found from anywhere, or where FIGARO_LOCALEDIR says
(cd / && env -i LANG=fr_FR.UTF-8 "$FIGARO" rules >"$tmp/out" 2>&1)
has "run from / finds the catalogues" "$tmp/out" "la règle en bref"
mkdir -p "$tmp/empty"
run "FIGARO_LOCALEDIR empty dir" 0 FIGARO_LOCALEDIR="$tmp/empty" LANG=fr_FR.UTF-8 -- rules
has "FIGARO_LOCALEDIR without catalogues is English" "$tmp/out" "Figaro: the rules in brief"
cp -R "$LOCALEDIR" "$tmp/elsewhere"
run "FIGARO_LOCALEDIR" 0 FIGARO_LOCALEDIR="$tmp/elsewhere" LANG=fr_FR.UTF-8 -- rules
has "FIGARO_LOCALEDIR with catalogues" "$tmp/out" "la règle en bref"

# ---- the game speaks the language: a usage error, plain mode and a refusal
mkdir -p "$tmp/data"
run "play usage error, Dutch" 2 XDG_DATA_HOME="$tmp/data" -- play --lang nl --players 9
has "play usage error, Dutch" "$tmp/err" "--players verwacht 3 tot 6, niet '9'"
printf 'R2>9\nquit\n' >"$tmp/in"
env -i PATH="$PATH" XDG_DATA_HOME="$tmp/data" LANG=fr_FR.UTF-8 "$FIGARO" play --plain --fast \
    --seed 3 --players 4 <"$tmp/in" >"$tmp/out" 2>&1
has "plain mode in French: the deal" "$tmp/out" "Manche 1"
has "plain mode in French: the hand" "$tmp/out" "Votre main"
has "plain mode in French: a refused move explained" "$tmp/out" "ne nomme aucune place"
printf 'R2>9\nquit\n' >"$tmp/in"
mkdir -p "$tmp/data2"
env -i PATH="$PATH" XDG_DATA_HOME="$tmp/data2" LANGUAGE=it "$FIGARO" play --plain --fast \
    --seed 3 --players 4 <"$tmp/in" >"$tmp/out" 2>&1
has "plain mode in Italian" "$tmp/out" "Tocca a te"

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
else
    ko "gettext(1) is missing (Debian package gettext-base)"
fi

# ---- the catalogues are complete and the template is up to date
for l in fr nl it; do
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
    for l in fr nl it; do   # every message of the template is in every catalogue
        if msgcmp "po/$l.po" "$tmp/figaro.pot" >"$tmp/cmp" 2>&1; then ok; else
            ko "po/$l.po lacks messages of the sources: run 'make pot'"; head -5 "$tmp/cmp"; fi
    done
else
    ko "make pot-to failed"
    cat "$tmp/make"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
