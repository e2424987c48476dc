#!/bin/sh
# SPDX-License-Identifier: MIT
# test_people.sh - `figaro people` as an operator runs it, on a real SQLite
# file: a database of schema 4 (tests/net/schema4/sqlite.sql, as `figaro
# serve` of that schema left it) is brought to schema 6 by the command;
# two people put in it (as the server stores them: a key's hash, a played
# game and its record) are listed, tab-separated, oldest first; one is
# removed as "forget me" does (their rows gone, their seat Anonymous, the
# other's game kept with them anonymous in it, a row in the log of the
# people forgotten that running servers read), then is no more; bad
# options, a missing database and an ID that is not one are refused with a
# clear message. Run by tests/run.sh with FIGARO set to the sanitizer build.
FIGARO=${FIGARO:-build/test/figaro}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$(cd "$(dirname "$0")/../.." && pwd)

. "$(dirname "$0")/lib.sh"

data="$tmp/data"
mkdir "$data"
"$PY" - "$data/figaro.sqlite" "$root/tests/net/schema4/sqlite.sql" <<'PYEOF' || ko "a schema-4 database"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript(open(sys.argv[2]).read())
PYEOF

expect_status "list on an empty schema 6" 0 "$FIGARO" people --data "$data" list
[ -s "$tmp/out" ] && ko "list: nobody yet, but: $(cat "$tmp/out")" || ok

# Ann and Bob, and a game they played at the table where Ann still sits.
"$PY" - "$data/figaro.sqlite" <<'PYEOF' || ko "people put in"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("PRAGMA user_version").fetchone()[0] == 6
code = db.execute("SELECT code FROM tables ORDER BY created LIMIT 1").fetchone()[0]
db.executescript("""
INSERT INTO people VALUES ('ANNANNANN2', 'Ann Zoë', 27.5, 6.25, 1, 0, 1800000000);
INSERT INTO people VALUES ('BOBBOBBOB3', 'Bob', 23.0, 6.5, 1, 1, 1800000060);
INSERT INTO person_keys VALUES ('%s', 'ANNANNANN2', 1800000000);
INSERT INTO records (id, fgn) VALUES (7, 'players 3
names Ann Bob Bot
');
INSERT INTO played VALUES ('ANNANNANN2', 0, '%s', 1, 0, 3, 1, 1, 27.5, 6.25, 1800000100,
  '[{"kind":"me","name":"Ann","place":1},{"kind":"person","name":"Bob","id":"BOBBOBBOB3","place":2}]', 7);
INSERT INTO played VALUES ('BOBBOBBOB3', 0, '%s', 1, 1, 3, 2, 1, 23.0, 6.5, 1800000100,
  '[{"kind":"person","name":"Ann","id":"ANNANNANN2","place":1},{"kind":"me","name":"Bob","place":2}]', 7);
UPDATE seats SET person = 'ANNANNANN2' WHERE code = '%s' AND seat = 0;
""" % ("a" * 64, code, code, code))
PYEOF

expect_status "list" 0 "$FIGARO" people --data "$data" list
printf 'ANNANNANN2\tAnn Zoë\t2027-01-15T08:00:00Z\t1\t27.500\t6.250\tshown\nBOBBOBBOB3\tBob\t2027-01-15T08:01:00Z\t1\t23.000\t6.500\thidden\n' >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/out"; then ok; else ko "list: not the two people, in order:"; cat "$tmp/out"; fi
expect_not_in "list: no key" "$tmp/out" "aaaaaaaa"
expect_status "list with --db" 0 "$FIGARO" people --db "sqlite:$data/figaro.sqlite" list
if cmp -s "$tmp/want" "$tmp/out"; then ok; else ko "list --db: not the same"; fi

expect_status "remove Ann" 0 "$FIGARO" people --data "$data" remove ANNANNANN2
expect_in "remove: said" "$tmp/out" "removed ANNANNANN2"
"$PY" - "$data/figaro.sqlite" <<'PYEOF' && ok || ko "remove: Ann's rows"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for sql in ("SELECT COUNT(*) FROM people WHERE id = 'ANNANNANN2'",
            "SELECT COUNT(*) FROM person_keys",
            "SELECT COUNT(*) FROM played WHERE person = 'ANNANNANN2'",
            "SELECT COUNT(*) FROM seats WHERE person IS NOT NULL",
            "SELECT COUNT(*) FROM played WHERE seats LIKE '%ANNANNANN2%'"):
    assert db.execute(sql).fetchone()[0] == 0, sql
name = db.execute("SELECT name FROM seats s JOIN tables t ON t.code = s.code "
                  "WHERE seat = 0 ORDER BY t.created LIMIT 1").fetchone()[0]
assert name == "Anonymous", name
seats = json.loads(db.execute("SELECT seats FROM played").fetchone()[0])
assert seats[0] == {"kind": "anonymous", "name": "Anonymous", "place": 1}, seats
assert db.execute("SELECT fgn FROM records").fetchall() == [("players 3\nnames Anonymous Bob Bot\n",)]
# the log a running server reads to forget her at its tables too
assert db.execute("SELECT person FROM forgotten").fetchall() == [("ANNANNANN2",)]
PYEOF
expect_status "list after" 0 "$FIGARO" people --data "$data" list
expect_not_in "list after: Ann gone" "$tmp/out" "ANNANNANN2"
expect_in "list after: Bob stays" "$tmp/out" "BOBBOBBOB3"
expect_status "remove Ann again" 1 "$FIGARO" people --data "$data" remove ANNANNANN2
expect_in "remove again: says so" "$tmp/err" "there is no person ANNANNANN2"

# Refusals, each with its reason.
expect_status "no action" 2 "$FIGARO" people --data "$data"
expect_in "no action: says" "$tmp/err" "give what to do: list, or remove ID"
expect_status "unknown action" 2 "$FIGARO" people --data "$data" drop
expect_in "unknown action: says" "$tmp/err" "unknown action 'drop'"
expect_status "remove without ID" 2 "$FIGARO" people --data "$data" remove
expect_in "remove without ID: says" "$tmp/err" "give the person's ID"
expect_status "a bad ID" 2 "$FIGARO" people --data "$data" remove "x' OR 1=1"
expect_in "a bad ID: says" "$tmp/err" "is not a person's ID"
expect_status "list and more" 2 "$FIGARO" people --data "$data" list extra
expect_in "list and more: says" "$tmp/err" "unexpected argument 'extra'"
expect_status "both --db and --data" 2 "$FIGARO" people --data "$data" --db "sqlite:$data/x" list
expect_in "both: says" "$tmp/err" "--db and --data: give one"
expect_status "a bad --db" 2 "$FIGARO" people --db mysql://x list
expect_in "a bad --db: says" "$tmp/err" "is neither sqlite:PATH nor postgresql://"
expect_status "an unknown option" 2 "$FIGARO" people --force list
expect_in "an unknown option: says" "$tmp/err" "unknown option '--force'"
expect_status "--data without a value" 2 "$FIGARO" people list --data
expect_in "--data without a value: says" "$tmp/err" "option '--data' needs a value"
expect_status "no database there" 1 "$FIGARO" people --data "$tmp/none" list
expect_in "no database: says" "$tmp/err" "no database at $tmp/none/figaro.sqlite"
[ -e "$tmp/none" ] && ko "no database: a folder was made" || ok
expect_status "help" 0 "$FIGARO" people --help
expect_in "help: usage" "$tmp/out" "usage: figaro people [--data DIR | --db URL] list"
expect_status "help via figaro help" 0 "$FIGARO" help people
expect_in "figaro help people" "$tmp/out" "remove ID"

summary
