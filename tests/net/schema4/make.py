# SPDX-License-Identifier: MIT
"""Makes the schema-4 databases of tests/net/schema4/ (kept as SQL dumps):
`figaro serve` of schema 4 (FIGARO: a build of a program of that schema)
plays on SQLite (--data) and on PostgreSQL (the URL given) what the
migration tests then find again: a game half played at one table, a game
played to its end with a review at another. Writes sqlite.sql, pg.sql and
seats.json (the tables' codes, the seats' tokens, the actions told) into
this folder. Run by hand, once:

    FIGARO=/path/to/old/figaro python3 tests/net/schema4/make.py postgresql://..."""
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from test_serve import Server, play, run_long, seat_two  # noqa: E402


def games(srv):
    """Ann and Bob at two tables beside a bot: one game finished (and its
    review asked for), one half played."""
    rng = random.Random(45)

    async def go():
        out = {}
        ann, bob = await seat_two(srv.url, level="random")
        await play([ann, bob], rng)
        assert ann.over
        await ann.send({"type": "review", "table": ann.table, "game": 1})
        await ann.expect("review", timeout=180)
        out["over"] = {"table": ann.table, "tokens": [ann.token, bob.token],
                       "seats": [ann.seat, bob.seat], "actions": len(ann.actions)}
        for c in (ann, bob):
            await c.ws.close()
        ann, bob = await seat_two(srv.url, level="random")
        await play([ann, bob], rng, stop_after=6)
        out["half"] = {"table": ann.table, "tokens": [ann.token, bob.token],
                       "seats": [ann.seat, bob.seat], "actions": len(ann.actions)}
        for c in (ann, bob):
            await c.ws.close()
        return out

    return run_long(go())


def main():
    pg = sys.argv[1]
    seats = {}
    with tempfile.TemporaryDirectory() as data:
        srv = Server(data)
        try:
            seats["sqlite"] = games(srv)
        finally:
            srv.stop()
        db = sqlite3.connect(os.path.join(data, "figaro.sqlite"))
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4
        with open(os.path.join(HERE, "sqlite.sql"), "w") as f:
            f.write("PRAGMA user_version = 4;\n")
            for line in db.iterdump():
                f.write(line + "\n")
        db.close()
    with tempfile.TemporaryDirectory() as data:
        srv = Server(data, "--node", "alpha", db=pg)
        try:
            seats["pg"] = games(srv)
        finally:
            srv.stop()
    dump = subprocess.run(["pg_dump", "--no-owner", "--no-privileges", "--inserts", "-d", pg],
                          stdout=subprocess.PIPE, check=True).stdout.decode()
    with open(os.path.join(HERE, "pg.sql"), "w") as f:
        f.write(dump)
    with open(os.path.join(HERE, "seats.json"), "w") as f:
        json.dump(seats, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
