# SPDX-License-Identifier: MIT
"""`figaro serve` on PostgreSQL (tests/run.sh runs this file with pytest).

A throwaway PostgreSQL 15 is started once for the module (tests/net/pg.sh:
initdb into a temporary folder, pg_ctl on a free loopback port, as `nobody`
when run as root) and stopped at the end. On it:
  - the storage's contract (tests/unit/test_db.c, the tests SQLite passes in
    the unit run) runs again, on PostgreSQL, and so do the people calls'
    (tests/unit/test_db_people.c);
  - a server with --db postgresql://... plays, is killed with SIGKILL mid-game
    and started again: nothing acknowledged is lost;
  - what a bad --db gets;
  - a database of version 3 upgraded, a review stored in it and read back;
    one of version 4 (as `figaro serve` of that schema left it) upgraded,
    every row kept;
  - two servers on it: one killed with SIGKILL mid-game, its tables go on on
    the other with every acknowledged action; one paused (SIGSTOP) past its
    lease writes nothing when it runs again (the fence);
  - a server full (--max-tables) loads and takes no more, and tells a
    person whose table it cannot take to try again, then `moved`;
  - the lobby of one server shows the listed tables of the other;
  - people (test_people.py's scenarios): rated games, devices, forget me,
    and a leaver of a running game kept across a SIGKILL, whether the
    server comes back under its name or another server takes the table."""
import asyncio
import hashlib
import json
import os
import random
import re
import signal
import subprocess
import time

import pytest

from front import Front
from test_serve import (ROOT, SCHEMA4, SCHEMA4_TABLES, Client, Closed, Server, come_back,
                        figaro_cmd, fetch, play, run, run_long, schema4_same, schema4_seats,
                        schema4_take_back, seat_two, websockets)

PG_SH = os.path.join(ROOT, "tests", "net", "pg.sh")


@pytest.fixture(scope="module")
def pg():
    out = subprocess.run(["sh", PG_SH, "start"], stdout=subprocess.PIPE, check=True,
                         timeout=120).stdout.decode().split()
    assert len(out) == 2 and out[1].startswith("postgresql://"), out
    try:
        yield out[1]
    finally:
        subprocess.run(["sh", PG_SH, "stop", out[0]], check=True, timeout=60)


@pytest.fixture
def db(pg, request):
    """A database of the test's own on the module's PostgreSQL: what another
    test left (tables, leases) is not there."""
    name = "t_" + re.sub(r"\W", "_", request.node.name).lower()[:40]
    psql(pg, "CREATE DATABASE %s" % name)
    return pg.rsplit("/", 1)[0] + "/" + name


def psql(url, sql):
    """One statement through psql, its rows as lists of strings."""
    out = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                          "-d", url, "-c", sql], stdout=subprocess.PIPE, check=True,
                         timeout=30).stdout.decode()
    return [line.split("\t") for line in out.splitlines() if line]


def test_storage_contract_on_postgresql(db):
    """tests/unit/test_db.c, every test, on PostgreSQL."""
    binary = os.path.join(os.path.dirname(figaro_cmd()), "test_db")
    r = subprocess.run([binary], env=dict(os.environ, FIGARO_TEST_DB=db),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    out = r.stdout.decode(errors="replace")
    assert r.returncode == 0, out
    assert "storage: postgresql://figaro:***@" in out, out   # no password in a log
    assert "PASSED" in out and "FAILED" not in out, out


def test_people_storage_on_postgresql(db):
    """tests/unit/test_db_people.c, every test, on PostgreSQL."""
    binary = os.path.join(os.path.dirname(figaro_cmd()), "test_db_people")
    r = subprocess.run([binary], env=dict(os.environ, FIGARO_TEST_DB=db),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    out = r.stdout.decode(errors="replace")
    assert r.returncode == 0, out
    assert "PASSED" in out and "FAILED" not in out and "SKIPPED" not in out, out


def test_schema_version_and_settings(db, tmp_path):
    srv = Server(str(tmp_path), db=db)
    try:
        assert srv.http("/healthz")[0] == 200
        assert psql(db, "SELECT version FROM figaro_schema") == [["6"]]
        log = srv.log()
        assert "node 127.0.0.1:%d" % srv.port in log
    finally:
        srv.stop()
    # a newer schema than the program's is refused, and says so
    psql(db, "UPDATE figaro_schema SET version = 99")
    try:
        r = subprocess.run([figaro_cmd(), "serve", "--listen", "127.0.0.1:0", "--db", db],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    finally:
        psql(db, "UPDATE figaro_schema SET version = 6")
    assert r.returncode == 1
    assert b"version 99, newer than this program's (6)" in r.stderr, r.stderr


def test_version_3_upgraded_then_a_review_stored(db, tmp_path):
    """A database of version 3 (no reviews' table: PostgreSQL's first) is
    brought to version 6 when a server starts on it, its tables kept; a
    review asked for then is computed once, stored in PostgreSQL, and read
    back from there when asked again."""
    data = str(tmp_path)
    srv = Server(data, "--node", "alpha", db=db)
    rng = random.Random(27)
    try:
        async def first():
            ann, bob = await seat_two(srv.url, level="random")
            await play([ann, bob], rng)
            assert ann.over
            for c in (ann, bob):
                await c.ws.close()
            return ann

        ann = run(first())
    finally:
        srv.stop()
    psql(db, "DROP TABLE reviews; DROP TABLE played; DROP TABLE records; "
             "DROP TABLE device_codes; DROP TABLE person_keys; DROP TABLE people; "
             "DROP TABLE forgotten; "
             "ALTER TABLE tables DROP COLUMN listed; ALTER TABLE seats DROP COLUMN person; "
             "UPDATE figaro_schema SET version = 3")
    srv = Server(data, "--node", "alpha", db=db)
    try:
        assert psql(db, "SELECT version FROM figaro_schema") == [["6"]]
        assert psql(db, "SELECT count(*) FROM reviews") == [["0"]]

        async def review():
            ann.ws = None
            await ann.connect(srv.url)
            await ann.take_back()
            await ann.expect("snapshot")
            ask = {"type": "review", "table": ann.table, "game": 1}
            await ann.send(ask)
            rv = await ann.expect("review", timeout=180)
            assert rv["seat"] == ann.seat and rv["game"] == 1
            for _ in range(100):   # stored once told
                if psql(db, "SELECT count(*) FROM reviews") == [["1"]]:
                    break
                await asyncio.sleep(0.1)
            await ann.send(ask)
            again = await ann.expect("review", timeout=60)
            assert again["moves"] == rv["moves"] and again["summary"] == rv["summary"]
            await ann.ws.close()

        run_long(review())
        stored = psql(db, "SELECT code, game, seat FROM reviews")
        assert stored == [[ann.table, "1", str(ann.seat)]]
        assert len(re.findall(r"reviewing seat \d of game 1", srv.log())) == 1   # read back
    finally:
        srv.stop()


def test_schema_4_migrated_on_postgresql(db, tmp_path):
    """A database that `figaro serve --db postgresql://...` of schema 4 left
    (tests/net/schema4/pg.sql, its pg_dump) is brought to schema 6 when a
    server starts on it: every row of its tables, seats, games, actions,
    events and reviews as it was (but the leases, which the server takes,
    and an event mark, which may rise), no person, not listed, people's
    tables empty; its people take their seats back with their tokens."""
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db, "-f",
                    os.path.join(SCHEMA4, "pg.sql")], stdout=subprocess.DEVNULL, check=True,
                   timeout=60)
    assert psql(db, "SELECT version FROM figaro_schema") == [["4"]]

    def rows():
        out = {}
        for t in SCHEMA4_TABLES:
            cols = [c[0] for c in psql(db, "SELECT column_name FROM information_schema.columns "
                                           "WHERE table_schema = 'public' AND table_name = '%s' "
                                           "ORDER BY ordinal_position" % t)
                    if c[0] not in ("listed", "person", "owner", "lease_until")]
            out[t] = sorted(psql(db, "SELECT %s FROM %s" % (", ".join(cols), t)))
        return out

    before = rows()
    assert len(before["tables"]) == 2 and len(before["reviews"]) == 1
    srv = Server(str(tmp_path), "--node", "alpha", db=db)
    try:
        assert "figaro_tables 2\n" in fetch(srv, "/metrics")[1]
        assert psql(db, "SELECT version FROM figaro_schema") == [["6"]]
        schema4_same(before, rows())
        assert psql(db, "SELECT count(*) FROM tables WHERE NOT listed") == [["2"]]
        assert psql(db, "SELECT count(*) FROM seats WHERE person IS NULL") == [["6"]]
        for t in ("people", "person_keys", "device_codes", "played", "records",
                  "forgotten"):
            assert psql(db, "SELECT count(*) FROM %s" % t) == [["0"]], t
        schema4_take_back(srv.url, schema4_seats("pg"))
    finally:
        srv.stop()


def test_sigkill_mid_game_then_restart_on_postgresql(db, tmp_path):
    """Every acknowledged action is in PostgreSQL before anyone is told of it."""
    data = str(tmp_path)
    srv = Server(data, "--node", "alpha", db=db)
    rng = random.Random(26)

    async def first():
        ann, bob = await seat_two(srv.url)
        await play([ann, bob], rng, stop_after=8)
        return ann, bob

    try:
        ann, bob = run(first())
    finally:
        srv.kill()      # SIGKILL: no chance to tidy anything
    told = list(ann.actions)
    assert len(told) >= 8
    assert stored_actions(db, ann.table)[:len(told)] == told

    srv = Server(data, "--node", "alpha", db=db)   # a restart under its name: its tables at once
    try:
        async def second():
            await come_back([ann, bob], srv.url, told)
            await play([ann, bob], rng)
            assert ann.over and bob.over and ann.actions == bob.actions
            for c in (ann, bob):
                await c.ws.close()

        run(second())
        code, fgn = fetch(srv, ann.record)
        assert code == 200 and "Ann" in fgn
        # the tokens are stored as their SHA-256 only
        hashes = psql(db, "SELECT token_hash FROM seats WHERE code = '%s' AND kind = 'person'"
                          % ann.table)
        assert sorted(h for (h,) in hashes) == sorted(
            hashlib.sha256(c.token.encode()).hexdigest() for c in (ann, bob))
    finally:
        srv.stop()


def test_bad_db_options(tmp_path):
    def serve(*args):
        return subprocess.run([figaro_cmd(), "serve", "--listen", "127.0.0.1:0"] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)

    r = serve("--db", "mysql://x@y/z")
    assert r.returncode == 2 and b"--db: 'mysql://x@y/z' is neither sqlite:PATH" in r.stderr
    r = serve("--db", "sqlite:%s/x.sqlite" % tmp_path, "--data", str(tmp_path))
    assert r.returncode == 2 and b"--db and --data: give one" in r.stderr
    r = serve("--node", "a b", "--data", str(tmp_path))
    assert r.returncode == 2 and b"--node: 'a b'" in r.stderr
    # nobody listens there: exit 1, the reason, and never the password
    r = serve("--db", "postgresql://ann:s3cret@127.0.0.1:1/none?connect_timeout=5")
    assert r.returncode == 1, r.stderr
    assert b"database: connection" in r.stderr and b"s3cret" not in r.stderr, r.stderr


# ---- several servers on one database

def metric(srv, name):
    code, text = fetch(srv, "/metrics")
    assert code == 200
    m = re.search(r"^%s (\S+)$" % name, text, re.M)
    assert m, name
    return float(m.group(1))


def owner(db, table):
    return psql(db, "SELECT owner FROM tables WHERE code = '%s'" % table)[0][0]


def stored_actions(db, table):
    return [(int(s), a) for s, a in psql(
        db, "SELECT seat, action FROM actions WHERE code = '%s' AND game = 1 ORDER BY idx"
        % table)]


async def finish(pair, db, rng):
    """Plays a table of two people to its end: both were told the same
    actions, and they are the ones stored; then both connections close."""
    await play(list(pair), rng)
    assert pair[0].over and pair[1].over and pair[0].actions == pair[1].actions
    assert stored_actions(db, pair[0].table) == pair[0].actions
    for c in pair:
        await c.ws.close()


def follow(c, name):
    """A new client for c's seat (its own connection), from what c knows."""
    d = Client(name)
    d.table, d.token, d.epoch, d.n = c.table, c.token, c.epoch, c.n
    return d


async def reseat(c, url, seconds):
    """Takes c's seat back on the server at url, trying again while that
    server does not drive the table yet (moved: another server holds its
    lease); the seconds it took."""
    t0 = time.monotonic()
    while True:
        await c.connect(url)
        await c.hello([{"table": c.table, "token": c.token,
                        "since": {"epoch": c.epoch, "n": c.n}}])
        m = await c.recv()
        while m["type"] not in ("seated", "error"):
            m = await c.recv()
        if m["type"] == "seated":
            await c.expect("snapshot")
            return time.monotonic() - t0
        assert m["code"] == "moved", m
        await c.ws.close()
        assert time.monotonic() - t0 < seconds, "%s: not seated again in %d s" % (c.name, seconds)
        await asyncio.sleep(0.25)


def stop_all(*servers):
    """Stops every server still running (SIGTERM), then fails with the first
    one's failure (a bad exit, a sanitizer's report)."""
    failures = []
    for s in servers:
        if s.err.closed:
            continue
        try:
            s.stop()
        except AssertionError as e:
            failures.append(e)
    if failures:
        raise failures[0]


def two_servers(db, tmp_path, lease="2"):
    dirs = [tmp_path / "a", tmp_path / "b"]
    for d in dirs:
        d.mkdir()
    return [Server(str(d), "--node", d.name, "--lease", lease, db=db) for d in dirs]


def test_sigkill_a_server_its_tables_go_on_elsewhere(db, tmp_path):
    """Two servers on one PostgreSQL: a is killed mid-game (SIGKILL); b takes
    its tables once their lease ran out, every acknowledged action kept, the
    people sit again with their tokens and the games finish on b; a, started
    again under its name, drives nothing b holds."""
    a, b = two_servers(db, tmp_path)
    rng = random.Random(2026)
    try:
        async def before():
            pairs = [await seat_two(a.url), await seat_two(a.url)]
            for p in pairs:
                await play(list(p), rng, stop_after=6)
            return pairs

        pairs = run(before())
        told = {p[0].table: list(p[0].actions) for p in pairs}
        assert all(len(t) >= 6 for t in told.values())
        assert {owner(db, t) for t in told} == {"a"}
        a.kill()

        async def after():
            waited = 0.0
            for p in pairs:
                for c in p:
                    waited = max(waited, await reseat(c, b.url, 30))
                    assert c.actions[:len(told[c.table])] == told[c.table], c.name
            for p in pairs:
                await finish(p, db, rng)
            return waited

        waited = run_long(after())
        assert waited < 15, waited   # a lease of 2 s, a round every 2/3 s
        assert {owner(db, t) for t in told} == {"b"}
        assert metric(b, "figaro_takeovers_total") == 2
        assert metric(b, "figaro_leases_held") == 2
        assert "taken over (" in b.log()

        a = Server(a.data, "--node", "a", "--lease", "2", db=db)   # rejoins
        assert metric(a, "figaro_leases_held") == 0
        assert {owner(db, t) for t in told} == {"b"}
    finally:
        stop_all(a, b)


def test_a_paused_server_writes_nothing_after_its_lease(db, tmp_path):
    """a is stopped (SIGSTOP) past its lease; b takes the table and the game
    goes on there; when a runs again (SIGCONT), the request it had for that
    table is not written (its lease is lost: the fence), a drops the table,
    and the database holds exactly what b told."""
    a, b = two_servers(db, tmp_path)
    rng = random.Random(7)
    try:
        async def go():
            ann, bob = await seat_two(a.url)
            await play([ann, bob], rng, stop_after=4)
            a.proc.send_signal(signal.SIGSTOP)
            try:
                t0 = time.monotonic()
                while owner(db, ann.table) != "b":
                    assert time.monotonic() - t0 < 20, "b did not take the table"
                    await asyncio.sleep(0.2)
                ann2, bob2 = follow(ann, "Ann"), follow(bob, "Bob")
                for c in (ann2, bob2):
                    await reseat(c, b.url, 10)
                await play([ann2, bob2], rng, stop_after=4)
                # sent to a while it is stopped: read when it runs again
                await ann.send({"type": "leave", "table": ann.table})
            finally:
                a.proc.send_signal(signal.SIGCONT)
            # a lease round may find the lease lost while the table's write is
            # still out: the table goes when that write is back (fenced)
            t0 = time.monotonic()
            while (metric(a, "figaro_fenced_writes_total")
                   + metric(a, "figaro_leases_lost_total") < 1
                   or metric(a, "figaro_tables") != 0):
                assert time.monotonic() - t0 < 10, "a did not drop the table whose lease it lost"
                await asyncio.sleep(0.1)
            # and closed the connections at that table, so that they come back to b
            for c in (ann, bob):
                await asyncio.wait_for(c.ws.wait_closed(), 10)
            # the leave was never stored: Ann still sits at b's table
            assert psql(db, "SELECT kind, name FROM seats WHERE code = '%s' AND seat = %d"
                        % (ann.table, ann.seat)) == [["person", "Ann"]]
            await play([ann2, bob2], rng)
            assert ann2.over and bob2.over
            assert stored_actions(db, ann.table) == ann2.actions
            for c in (ann2, bob2):
                await c.ws.close()

        run_long(go())
        assert "dropped" in a.log()
    finally:
        stop_all(a, b)


def test_another_servers_table_is_moved(db, tmp_path):
    """A request for a table another server drives is answered `moved`, with
    that server's node name; one for no table at all, `no_table`."""
    a, b = two_servers(db, tmp_path, lease="30")
    try:
        async def go():
            ann, bob = await seat_two(a.url)
            eve = Client("Eve")
            await eve.connect(b.url)
            await eve.hello([{"table": ann.table, "token": ann.token}])
            m = await eve.recv()
            assert m == {"type": "error", "code": "moved", "re": "hello", "table": ann.table,
                         "node": "a", "text": "table %s is at another server: a" % ann.table}, m
            await eve.send({"type": "spectate", "table": ann.table})
            m = await eve.recv()
            assert (m["code"], m["re"], m["node"]) == ("moved", "spectate", "a"), m
            await eve.send({"type": "join", "table": "ZZZZZZ"})
            m = await eve.recv()
            assert (m["code"], m["re"], m["table"]) == ("no_table", "join", "ZZZZZZ"), m
            assert "node" not in m
            for c in (ann, bob, eve):
                await c.ws.close()

        run(go())
        assert metric(b, "figaro_tables") == 0 and metric(a, "figaro_tables") == 1
        assert owner(db, psql(db, "SELECT code FROM tables")[0][0]) == "a"
    finally:
        stop_all(a, b)


async def lobby_until(c, ok, timeout=20):
    """c's lobby frames until one satisfies ok: that frame. Each is checked on
    the way: no token, no hand (R14)."""
    end = time.monotonic() + timeout
    while True:
        m = await c.recv(max(0.1, end - time.monotonic()))
        if m["type"] != "lobby":
            continue
        assert "token" not in json.dumps(m) and "hand" not in json.dumps(m), m
        if ok(m):
            return m


def test_lobby_shows_the_other_servers_tables(db, tmp_path):
    """Two servers on one PostgreSQL: a listed table made on a shows in the
    lobby of a page connected to b (read in b's lease round), with who sits
    and the bot's level; an unlisted one does not; once its last seat is
    taken (its game starts), it leaves b's lobby too."""
    a, b = two_servers(db, tmp_path)
    try:
        async def go():
            ann, bob, cat = Client("Ann"), Client("Bob"), Client("Cat")
            for c, srv in ((ann, a), (bob, a), (cat, b)):
                await c.connect(srv.url)
                await c.hello()
            await cat.send({"type": "lobby", "on": True})
            m = await lobby_until(cat, lambda m: True)
            assert m == {"type": "lobby", "tables": []}, m
            seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "hard"}]
            await ann.send({"type": "create", "seats": seats})
            hidden = (await ann.expect("created"))["table"]
            await ann.send({"type": "create", "seats": seats, "listed": True,
                            "move_seconds": 30})
            table = (await ann.expect("created"))["table"]
            await ann.send({"type": "join", "table": table})
            await ann.expect("snapshot")
            m = await lobby_until(cat, lambda m: any(t["table"] == table and t["free"] == 1
                                                     for t in m["tables"]))
            assert [t["table"] for t in m["tables"]] == [table], m
            t = m["tables"][0]
            assert t["seats"] == [{"kind": "person", "name": "Ann"}, {"kind": "open"},
                                  {"kind": "bot", "level": "hard"}], t
            assert t["options"]["move_seconds"] == 30 and t["players"] == 3, t
            assert hidden not in json.dumps(m)
            # Bob takes the last seat (at a, its server: b would say `moved`).
            await bob.send({"type": "join", "table": table})
            await bob.expect("seated")
            await lobby_until(cat, lambda m: m["tables"] == [])
            for c in (ann, bob, cat):
                await c.ws.close()

        run(go())
    finally:
        stop_all(a, b)


async def asked(c, url):
    """c asks the server at url for its seat again: the first answer
    (seated, or an error)."""
    await c.connect(url)
    await c.hello([{"table": c.table, "token": c.token, "since": {"epoch": c.epoch, "n": c.n}}])
    m = await c.recv()
    while m["type"] not in ("seated", "error"):
        m = await c.recv()
    return m


def test_a_full_server(db, tmp_path):
    """--max-tables on a shared database: a server restarted with a cap
    loads no more than its cap, its own tables first, and takes no more in
    its lease rounds; a person whose table it did not take is never told the
    table does not exist: `tables_full` (try again) while no server with
    room drives it, then `moved` to the server that took it, where the game
    goes on with every acknowledged action."""
    a = Server(str(tmp_path), "--node", "a", "--lease", "2", db=db)
    rng = random.Random(31)
    try:
        async def before():
            pairs = []
            for _ in range(3):
                pairs.append(await seat_two(a.url))
                await play(list(pairs[-1]), rng, stop_after=2)
            return pairs

        pairs = run(before())
        told = {p[0].table: list(p[0].actions) for p in pairs}
        a.kill()
        # a restart under its name, with room for two: its two oldest tables
        a = Server(a.data, "--node", "a", "--lease", "2", "--max-tables", "2", db=db)
        assert metric(a, "figaro_tables") == 2
        assert "service up: 2 tables" in a.log()
        third = pairs[2]
        assert {owner(db, p[0].table) for p in pairs} == {"a"}

        async def full():
            answers = []
            t0 = time.monotonic()
            while time.monotonic() - t0 < 4:   # its lease (2 s) runs out meanwhile
                m = await asked(third[0], a.url)
                await third[0].ws.close()
                answers.append(m)
                await asyncio.sleep(0.3)
            return answers

        answers = run(full())
        for m in answers:
            assert (m["type"], m["code"], m["re"], m["table"]) == (
                "error", "tables_full", "hello", third[0].table), m
        assert "waits for a server with room" in answers[-1]["text"]
        assert metric(a, "figaro_tables") == 2   # its lease rounds took nothing more
        assert psql(db, "SELECT lease_until < clock_timestamp() FROM tables WHERE code = '%s'"
                    % third[0].table) == [["t"]]

        (tmp_path / "b").mkdir()
        b = Server(str(tmp_path / "b"), "--node", "b", "--lease", "2", db=db)
        try:
            assert metric(b, "figaro_tables") == 1   # the one nobody held
            assert owner(db, third[0].table) == "b"

            async def after():
                m = await asked(third[0], a.url)
                await third[0].ws.close()
                assert (m["type"], m["code"], m["node"]) == ("error", "moved", "b"), m
                for c in third:
                    await reseat(c, b.url, 10)
                    assert c.actions[:len(told[c.table])] == told[c.table], c.name
                await finish(third, db, rng)

            run_long(after())
        finally:
            stop_all(b)
    finally:
        stop_all(a)


# ---- HAProxy in front (deploy/haproxy.cfg)

async def sit(c, front, table, join=False, seconds=30):
    """c takes its seat (join: a new one) at table through the front,
    following `moved` (and trying again while no server may drive it yet);
    the seconds it took."""
    t0 = time.monotonic()
    node = None
    while True:
        url = front.url + "?table=" + table + ("&node=" + node if node else "")
        try:
            await c.connect(url)
            if join:
                await c.hello()
                await c.send({"type": "join", "table": table})
            else:
                await c.hello([{"table": table, "token": c.token,
                                "since": {"epoch": c.epoch, "n": c.n}}])
            m = await c.recv()
            while m["type"] not in ("seated", "error"):
                m = await c.recv()
        except (OSError, Closed, websockets.InvalidHandshake, websockets.ConnectionClosed):
            m = {"type": "error", "code": "down"}   # a server that just died
        if m["type"] == "seated":
            c.table = table
            await c.expect("snapshot")
            return time.monotonic() - t0
        assert m["code"] in ("moved", "down"), m
        node = m.get("node")
        await c.ws.close()
        assert time.monotonic() - t0 < seconds, "%s: not seated in %d s" % (c.name, seconds)
        await asyncio.sleep(0.2)


def test_haproxy_in_front_sigkill_one_of_three(db, tmp_path):
    """deploy/haproxy.cfg in front of three servers on one PostgreSQL: people
    create and join tables through it (following `moved`), the server that
    drives the first table is killed (SIGKILL) mid-game, its people come back
    through HAProxy and finish on the others with every acknowledged action;
    every table has one driver; the killed server restarts and rejoins."""
    names = ["web1", "web2", "web3"]
    servers, front = {}, None
    rng = random.Random(99)
    try:
        for n in names:
            d = tmp_path / n
            d.mkdir()
            servers[n] = Server(str(d), "--node", n, "--lease", "2", "--trust-proxy",
                                "127.0.0.1", db=db)
        front = Front(tmp_path, servers)
        async def go():
            tables = []
            for i in range(3):
                ann, bob = Client("Ann%d" % i), Client("Bob%d" % i)
                await ann.connect(front.url)   # no table yet: any server
                await ann.hello()
                await ann.send({"type": "create", "seats": [
                    {"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}]})
                code = (await ann.expect("created"))["table"]
                await ann.ws.close()
                for c in (ann, bob):
                    await sit(c, front, code, join=True)
                await play([ann, bob], rng, stop_after=4)
                tables.append((ann, bob))
            drivers = {p[0].table: owner(db, p[0].table) for p in tables}
            assert set(drivers.values()) <= set(names)
            victim = drivers[tables[0][0].table]
            told = {c.name: list(c.actions) for p in tables for c in p}   # what each was told
            servers[victim].kill()
            front.wait({victim: "DOWN"})
            for p in tables:
                for c in p:
                    if drivers[c.table] == victim:   # its connection is gone
                        await sit(c, front, c.table, seconds=40)
                    assert c.actions[:len(told[c.name])] == told[c.name], c.name
            for p in tables:
                await finish(p, db, rng)
            return drivers, victim

        drivers, victim = run(go(), 400)
        after_kill = {t: owner(db, t) for t in drivers}
        assert victim not in after_kill.values()
        assert all(after_kill[t] == drivers[t] for t in drivers if drivers[t] != victim)
        # the killed server comes back under its name, on its port, and rejoins
        servers[victim] = Server(servers[victim].data, "--node", victim, "--lease", "2",
                                 "--trust-proxy", "127.0.0.1",
                                 "--listen", "127.0.0.1:%d" % servers[victim].port, db=db)
        front.wait({n: "UP" for n in names})
        assert metric(servers[victim], "figaro_leases_held") == 0
    finally:
        if front:
            front.stop()
        stop_all(*servers.values())


# ---- people on PostgreSQL: tests/net/test_people.py's scenarios

def test_people_rated_games_on_postgresql(db, tmp_path):
    """Ratings after real games equal the second implementation's, on
    PostgreSQL; what is stored is the person's rating and kept games."""
    from test_people import level_points, rated_games
    srv = Server(str(tmp_path), db=db)
    try:
        me = run_long(rated_games(srv.url, srv, level_points()))
    finally:
        srv.stop()
    assert psql(db, "SELECT id, rated, hidden FROM people") == [[me["id"], "2", "t"]]
    assert psql(db, "SELECT count(*) FROM played WHERE person = '%s'" % me["id"]) == [["2"]]
    assert psql(db, "SELECT count(*) FROM records") == [["2"]]


def test_people_devices_and_forget_on_postgresql(db, tmp_path):
    """Device codes, resume, sign out, and forget me: nothing of the person
    is left in the database. (The limits live in the server's memory, the
    same whatever the storage: test_people.py.)"""
    from test_people import devices, forget
    srv = Server(str(tmp_path), db=db)
    try:
        run(devices(srv.url, srv))
        me, table, ann = run_long(forget(srv.url, srv))
        assert fetch(srv, "/api/people/%s" % me["id"])[0] == 404
    finally:
        srv.stop()
    pid = me["id"]
    assert psql(db, "SELECT count(*) FROM people WHERE id = '%s'" % pid) == [["0"]]
    for t in ("person_keys", "device_codes", "played"):
        assert psql(db, "SELECT count(*) FROM %s WHERE person = '%s'" % (t, pid)) == [["0"]], t
    assert psql(db, "SELECT count(*) FROM records") == [["0"]]
    assert psql(db, "SELECT count(*) FROM seats WHERE person = '%s'" % pid) == [["0"]]
    assert psql(db, "SELECT name FROM seats WHERE code = '%s' AND seat = 0" % table) == [
        ["Anonymous"]]


def test_forget_me_on_one_server_reaches_the_other(db, tmp_path):
    """Two servers on one PostgreSQL: Quillon sits at a table server b
    holds and says forget_me on server a. Within seconds b's table names
    her Anonymous and her connection to b is signed off
    (test_people.forgotten_elsewhere); later writes of b's table bring her
    name back nowhere in the database."""
    from test_people import FORGOTTEN_NAME, Person, forgotten_elsewhere
    a, b = two_servers(db, tmp_path, lease="30")

    async def forget_on_a(ann):
        other = Person(ann.name)
        await other.connect(a.url)
        await other.hello_key(ann.key)
        assert (await other.expect("person"))["id"] == ann.person["id"]
        await other.send({"type": "forget_me"})
        await other.expect("forgotten")
        await other.ws.close()

    try:
        ann, bob = run_long(forgotten_elsewhere(b, forget_on_a))
        assert metric(a, "figaro_tables") == 0 and metric(b, "figaro_tables") == 1
    finally:
        stop_all(a, b)
    tables = [r[0] for r in psql(db, "SELECT table_name FROM information_schema.tables "
                                     "WHERE table_schema = 'public'")]
    held = [t for t in tables
            if psql(db, "SELECT count(*) FROM %s x WHERE x::text LIKE '%%%s%%'"
                    % (t, FORGOTTEN_NAME)) != [["0"]]]
    assert held == []
    assert psql(db, "SELECT count(*) FROM forgotten WHERE person = '%s'"
                % ann.person["id"]) == [["1"]]
    assert psql(db, "SELECT count(*) FROM played WHERE person = '%s'"
                % bob.person["id"]) == [["1"]]


@pytest.mark.parametrize("how", ["restart", "takeover"])
def test_leaver_sigkill_pg(db, tmp_path, how):
    """Who left a running game is stored with the open seat: after a
    SIGKILL, the server started again under its name, or another server
    that takes the table once its lease ran out, ranks them last and rates
    them at the game's end."""
    from test_people import leaver_survives_sigkill, level_points
    dirs = [tmp_path / "a", tmp_path / "b"]
    for d in dirs:
        d.mkdir()
    second = dirs[0] if how == "restart" else dirs[1]
    bob = leaver_survives_sigkill(
        lambda: Server(str(dirs[0]), "--node", dirs[0].name, "--lease", "2", db=db),
        lambda: Server(str(second), "--node", second.name, "--lease", "2", db=db),
        level_points())
    assert psql(db, "SELECT rated FROM people WHERE id = '%s'" % bob) == [["1"]]
    assert psql(db, "SELECT place FROM played WHERE person = '%s'" % bob) == [["4"]]
