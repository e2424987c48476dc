# SPDX-License-Identifier: MIT
"""People and ratings on a real `figaro serve` over loopback (docs/protocol.md
"People", docs/server.md "People and ratings"), on SQLite here; test_pg.py
runs the same scenarios on PostgreSQL.

  - real games of a signed-in person, a person not signed in and bots end
    with the ratings tests/python/test_rating.py's second implementation
    gives for the same places and fixed points (the bots' read from `figaro
    rate --levels`), game after game; the person's page, kept record,
    download and the leaderboard say the same;
  - a kept game's replay (GET .../games/I.json) is POST /replay's answer for
    its record, byte for byte, in the language asked for; the record's 404s;
    30 in a row while POST /replay refuses the address; a kept record that
    does not read is a 500 the log tells;
  - a device code redeemed on a second connection signs it in as the same
    person with a key of its own, who resumes the seat; a used, unknown or
    malformed code is refused; the limits on new people and on tries;
  - a rename reaches every connection of the person; sign out: the key
    stops working on every connection holding it;
  - forget me: the person, keys, codes, kept games and rating are gone from
    the SQLite file, the seats anonymous, the page 404;
  - a SIGKILL right after `rated` loses neither the game's end nor the rating;
  - a signed-in person who left a running game is still its leaver after a
    SIGKILL and a restart: ranked last and rated when the others end it;
  - sniffing: no frame to anyone holds another person's key or a hand but
    the receiver's own seat's; no key or device code in the server's log."""
import asyncio
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import time

import pytest

from test_serve import (Client, Server, data, fetch, figaro_cmd, play, post, run,  # noqa: F401
                        run_long, server)

sys.path.insert(0, os.path.join(os.path.dirname(__file__), os.pardir, "python"))
from test_rating import MU0, SIGMA0, update  # noqa: E402

LEVELS = ["beginner", "easy", "normal", "hard", "max"]


def level_points():
    """Each bot level's fixed point, as `figaro rate --levels` prints it."""
    out = subprocess.run([figaro_cmd(), "rate", "--levels"],
                         input=(" ".join(LEVELS) + "\n").encode(),
                         stdout=subprocess.PIPE, check=True).stdout
    return {p["name"]: (p["mu"], p["sigma"]) for p in json.loads(out)["players"]}


class Person(Client):
    """A client that may be signed in: keeps its key and its person."""

    def __init__(self, name):
        super().__init__(name)
        self.key = None
        self.person = None
        self.rated = []

    def note(self, m):
        super().note(m)
        if m["type"] == "person":
            self.person = m
            if m.get("key"):
                self.key = m["key"]
        elif m["type"] == "rated":
            self.rated.append(m)

    async def hello_key(self, key=None):
        msg = {"type": "hello", "v": 1, "name": self.name}
        if key:
            msg["key"] = key
        await self.send(msg)
        await self.expect("welcome")

    async def sign_up(self):
        await self.send({"type": "person_new", "name": self.name})
        m = await self.expect("person")
        assert re.fullmatch(r"[0-9a-f]{32}", m["key"]) and re.fullmatch(r"[0-9A-Z]{10}", m["id"])
        return m

    async def error(self, code, timeout=20):
        while True:
            m = await self.recv(timeout)
            if m["type"] == "error":
                assert m["code"] == code, m
                return m


def places_of(view):
    """seat -> place from a finished game's view (its ranking, winner first)."""
    return {seat: k + 1 for k, seat in enumerate(view["ranking"])}


def sniff(clients, server):
    """No frame to anyone holds another client's key or a hand but that of
    the seat it holds then (a view's hand comes with its seat); no key or
    device code in the log."""
    keys = [c.key for c in clients if c.key]
    for c in clients:
        seat = None
        for f in c.frames:
            text = json.dumps(f)
            for key in keys:
                if key != c.key:
                    assert key not in text, (c.name, "got another's key", f)
            if f["type"] == "seated":
                seat = f["seat"]
            elif f["type"] in ("unseated", "left"):
                seat = None
            view = f.get("view")
            if isinstance(view, dict) and "hand" in view:
                assert seat is not None and view["seat"] == seat, (c.name, seat, f)
    log = server.log()
    for key in keys:
        assert key not in log
    for c in clients:
        for f in c.frames:
            if f["type"] == "device_code":
                assert f["code"] not in log


def kept_replay_is_posted_replay(server, pid, i, fgn, lang=None):
    """The replay of a person's kept game I (GET .../games/I.json) is, byte
    for byte, what POST /replay gives for its record's text; its headers
    those of the record's path (no-store: nothing of it stays in a cache
    once the person is forgotten). Returns the replay, parsed."""
    q = "?lang=%s" % lang if lang else ""
    st, headers, body = server.http("/api/people/%s/games/%d.json%s" % (pid, i, q))
    assert st == 200, body
    assert headers["content-type"].startswith("application/json")
    assert headers["cache-control"] == "no-store"
    st, fgn_headers, _ = server.http("/api/people/%s/games/%d.fgn" % (pid, i))
    assert st == 200 and fgn_headers["cache-control"] == "no-store"
    st, _, posted = post(server, "/replay" + q, fgn.encode())
    assert st == 200 and body == posted
    return json.loads(body)


async def at_table(clients, seats):
    """clients[0] creates a table of `seats` (hints off: rated, when its bots
    are), and each of clients takes a seat at it: the table's code, and each
    one's (seated, snapshot)."""
    await clients[0].send({"type": "create", "hints": False, "seats": seats})
    table = (await clients[0].expect("created"))["table"]
    got = []
    for c in clients:
        c.table = table
        await c.send({"type": "join", "table": table})
        got.append((await c.expect("seated"), await c.expect("snapshot")))
    return table, got


async def rated_games(url, server, points, games=2):
    """Ann signed in, Bob not, an easy and a hard bot: `games` games to the
    end; each `rated` is what the second implementation says."""
    ann, bob = Person("Ann"), Person("Bob")
    for c in (ann, bob):
        await c.connect(url)
        await c.hello_key()
    me = await ann.sign_up()
    table, got = await at_table([ann, bob], [
        {"kind": "person"}, {"kind": "bot", "level": "easy"}, {"kind": "person"},
        {"kind": "bot", "level": "hard"}])
    for _, snap in got:
        assert snap["options"]["rated"] is True
    rng = random.Random(7)
    mu, sigma = MU0, SIGMA0
    history = []
    for g in range(1, games + 1):
        await play([ann, bob], rng)
        while len(ann.rated) < g:
            await ann.recv()
        r = ann.rated[-1]
        assert r["table"] == table and r["game"] == g
        places = places_of(ann.view)
        seats = [
            {"mu": mu, "sigma": sigma, "rank": places[0], "fixed": False},
            {"mu": points["easy"][0], "sigma": points["easy"][1], "rank": places[1], "fixed": True},
            {"mu": MU0, "sigma": SIGMA0, "rank": places[2], "fixed": True},
            {"mu": points["hard"][0], "sigma": points["hard"][1], "rank": places[3], "fixed": True},
        ]
        want = update(seats)[0]
        assert r["before"] == {"mu": pytest.approx(mu, abs=1e-12),
                               "sigma": pytest.approx(sigma, abs=1e-12)}
        assert r["mu"] == pytest.approx(want[0], abs=1e-9)
        assert r["sigma"] == pytest.approx(want[1], abs=1e-9)
        assert r["shown"] == pytest.approx(want[0] - 3 * want[1], abs=1e-9)
        assert not bob.rated   # not signed in: never told a rating
        mu, sigma = r["mu"], r["sigma"]
        history.append((g, places[0], mu, sigma, ann.record))
        if g < games:
            for c in (ann, bob):
                await c.send({"type": "rematch", "table": table, "game": g})
            for c in (ann, bob):
                while True:
                    m = await c.recv()
                    if m["type"] == "event" and m["kind"] == "start":
                        break
                c.over = False
                c.record = None
    # The page, its download, its records, the leaderboard.
    st, body = fetch(server, "/api/people/%s" % me["id"])
    assert st == 200
    page = json.loads(body)
    assert page["id"] == me["id"] and page["name"] == "Ann" and "key" not in body
    assert page["rated"] == games
    assert page["mu"] == pytest.approx(mu, abs=1e-12)
    assert [(x["game"], x["place"]) for x in page["games"]] == [(h[0], h[1]) for h in history]
    for x, h in zip(page["games"], history):
        assert x["rated"] and x["table"] == table and x["players"] == 4 and x["seat"] == 0
        assert x["mu"] == pytest.approx(h[2], abs=1e-12)
        kinds = [s["kind"] for s in x["seats"]]
        assert kinds == ["me", "bot", "anonymous", "bot"], x["seats"]
    f = page["figures"]
    assert f["games"] == games and f["by_players"]["4"]["games"] == games
    assert f["by_level"]["easy"]["games"] == games and f["by_level"]["hard"]["games"] == games
    assert f["wins"] == sum(1 for h in history if h[1] == 1)
    st, headers, raw = server.http("/api/people/%s?download=1" % me["id"])
    assert st == 200 and json.loads(raw) == page
    assert headers["content-disposition"] == 'attachment; filename="figaro-%s.json"' % me["id"]
    assert headers["content-type"].startswith("application/json")
    assert headers["cache-control"] == "no-store"
    for i, h in enumerate(history):
        st, kept = fetch(server, "/api/people/%s/games/%d.fgn" % (me["id"], i))
        st2, live = fetch(server, h[4])
        assert st == 200 and st2 == 200 and kept == live
        kept_replay_is_posted_replay(server, me["id"], i, kept)
    assert fetch(server, "/api/people/%s/games/%d.fgn" % (me["id"], games))[0] == 404
    assert fetch(server, "/api/people/%s/games/01.fgn" % me["id"])[0] == 404
    assert fetch(server, "/api/people/ZZZZZZZZZZ")[0] == 404
    assert fetch(server, "/api/people/abc")[0] == 404
    st, body = fetch(server, "/api/leaderboard")
    board = json.loads(body)["people"]
    assert [p["id"] for p in board] == [me["id"]]
    assert board[0]["shown"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
    # hidden: off the board, the page stays
    await ann.send({"type": "person_set", "hidden": True})
    m = await ann.expect("person")
    assert m["hidden"] is True and "key" not in m
    assert json.loads(fetch(server, "/api/leaderboard")[1])["people"] == []
    assert fetch(server, "/api/people/%s" % me["id"])[0] == 200
    st, metrics = fetch(server, "/metrics")
    assert st == 200 and "\nfigaro_people_calls 0\n" in metrics   # none left on its way
    sniff([ann, bob], server)
    return me


def test_rated_games_match_the_second_implementation(server):
    run_long(rated_games(server.url, server, level_points()))


async def rated_game_with_bots(url, seed):
    """Ann, signed in, plays a rated game against a beginner and an easy bot
    to its end (until `rated`): her person and her client."""
    ann = Person("Ann")
    await ann.connect(url)
    await ann.hello_key()
    me = await ann.sign_up()
    await at_table([ann], [
        {"kind": "person"}, {"kind": "bot", "level": "beginner"}, {"kind": "bot", "level": "easy"}])
    await play([ann], random.Random(seed))
    while not ann.rated:
        await ann.recv()
    return me, ann


async def kept_replay(url, server):
    """A person's kept game as a replay (GET /api/people/ID/games/I.json):
    POST /replay's bytes for its record, in the language asked for (English
    for one the server lacks); the same 404s as the record's path; a limit
    per address of its own, apart from POST /replay's and generous (a person
    looks at their games as often as they like); gone with the person."""
    me, ann = await rated_game_with_bots(url, 11)
    pid = me["id"]
    st, fgn = fetch(server, "/api/people/%s/games/0.fgn" % pid)
    assert st == 200
    assert fetch(server, ann.record)[1] == fgn
    replay = kept_replay_is_posted_replay(server, pid, 0, fgn)
    # a function of the .fgn's text alone (POST /replay's bytes for it), so
    # it shows no more than the record: each deal's hands are its hand lines
    assert replay["summary"]["finished"] is True and replay["names"][0] == "Ann"
    rounds, hands = [], None
    for line in fgn.splitlines():
        w = line.split("#")[0].split()
        if w[:1] == ["round"]:
            hands = {}
            rounds.append(hands)
        elif w[:1] == ["hand"]:
            hands[int(w[1])] = sorted(w[2:])
    deals = [x["state"]["hands"] for x in replay["steps"] if x["kind"] == "deal"]
    assert len(deals) == len(rounds) == 3
    for dealt, kept in zip(deals, rounds):
        assert [sorted(h) for h in dealt] == [kept[k] for k in sorted(kept)]
    french = kept_replay_is_posted_replay(server, pid, 0, fgn, "fr")
    assert "Manche 1" in json.dumps(french, ensure_ascii=False)
    assert "Manche 1" not in json.dumps(replay, ensure_ascii=False)
    english = "/api/people/%s/games/0.json" % pid
    assert fetch(server, english + "?lang=zz")[1] == fetch(server, english)[1]
    assert fetch(server, english + "?lang=FR")[1] == fetch(server, english)[1]
    for bad in ("1.json", "01.json", "-0.json", "0.JSON", "0.json/", "0.jsonx", ".json", "0json",
                "0.json.fgn"):
        st, body = fetch(server, "/api/people/%s/games/%s" % (pid, bad))
        assert st == 404, (bad, st, body)
    assert fetch(server, "/api/people/ZZZZZZZZZZ/games/0.json")[0] == 404
    assert fetch(server, "/api/people/abc/games/0.json")[0] == 404
    # POST /replay refuses this address now (429, Retry-After); the kept
    # replay does not, 20 times in a row: its allowance is its own, 30 at
    # once (8 taken above), then one a second (test_service_replay.c's
    # test_replay_get_rate shows it on a clock that stands still)
    while True:
        st, headers, _ = post(server, "/replay", fgn.encode())
        if st == 429:
            break
    assert headers["retry-after"] == "1", headers
    for _ in range(20):
        st, _, body = server.http(english)
        assert st == 200 and json.loads(body) == replay
    # a kept record that does not read (the server's fault): 500, said in its
    # log; its text is still the record's download
    sqlite_rows(os.path.join(server.data, "figaro.sqlite"),
                "UPDATE records SET fgn = 'figaro 1' || char(10) || 'players 9' || char(10)")
    st, body = fetch(server, english)
    assert st == 500 and "the kept record does not read" in body
    assert "people: %s's game 0: the kept record does not read" % pid in server.log()
    assert fetch(server, "/api/people/%s/games/0.fgn" % pid) == (200, "figaro 1\nplayers 9\n")
    await ann.send({"type": "forget_me"})
    await ann.expect("forgotten")
    assert fetch(server, english)[0] == 404
    # the replays' allowance spent (every .json counts, a 404 too): 429,
    # with Retry-After; the record's path is not limited
    for _ in range(40):
        st, headers, body = server.http(english)
        if st != 404:
            break
    assert st == 429 and headers["retry-after"] == "1", (st, headers, body)
    assert fetch(server, "/api/people/%s/games/0.fgn" % pid)[0] == 404
    sniff([ann], server)


def test_kept_replay(server):
    run_long(kept_replay(server.url, server))


async def devices(url, server):
    """A device code: a second connection signs in as the same person with a
    key of its own and resumes the seat; codes used, unknown, malformed are
    refused; sign out ends one key only."""
    ann = Person("Ann")
    await ann.connect(url)
    await ann.hello_key()
    me = await ann.sign_up()
    # signed in already: no second person on this connection
    await ann.send({"type": "person_new", "name": "Other"})
    await ann.error("already")
    table, [(seated, _)] = await at_table([ann], [
        {"kind": "person"}, {"kind": "bot", "level": "beginner"}, {"kind": "bot", "level": "easy"}])
    await ann.send({"type": "device_code"})
    code = (await ann.expect("device_code"))
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{8}", code["code"]) and code["expires_s"] == 600
    phone = Person("Ann")
    await phone.connect(url)
    await phone.hello_key()
    await phone.send({"type": "resume", "table": table})
    await phone.error("not_signed_in")
    await phone.send({"type": "redeem", "code": code["code"].lower()})
    p = await phone.expect("person")
    assert p["id"] == me["id"] and p["key"] != ann.key
    assert p["seats"] == [{"table": table, "seat": seated["seat"]}]
    await phone.send({"type": "resume", "table": table})
    s = await phone.expect("seated")
    assert s["seat"] == seated["seat"] and "token" not in s
    await phone.expect("snapshot")
    m = await ann.expect("unseated")
    assert m["seat"] == seated["seat"]
    # used, unknown, malformed: one answer
    other = Person("Eve")
    await other.connect(url)
    await other.hello_key()
    for bad in (code["code"], "ABCD2345", "abc"):
        await other.send({"type": "redeem", "code": bad})
        await other.error("bad_code")
    # a third device by hello: both keys work; sign out ends one
    third = Person("Ann")
    await third.connect(url)
    await third.send({"type": "hello", "v": 1, "key": phone.key})
    await third.expect("welcome")
    assert (await third.expect("person"))["id"] == me["id"]
    # a rename reaches every connection of hers (both keys), never a key in it
    await phone.send({"type": "person_set", "name": "Ann B"})
    for c in (phone, third, ann):
        p = await c.expect("person")
        assert p["name"] == "Ann B" and "key" not in p
    await phone.send({"type": "sign_out"})
    await phone.expect("signed_out")
    await third.expect("signed_out")   # the same key, elsewhere
    await phone.send({"type": "device_code"})
    await phone.error("not_signed_in")
    again = Person("Ann")
    await again.connect(url)
    await again.send({"type": "hello", "v": 1, "key": phone.key})
    await again.expect("welcome")
    await again.error("bad_key")
    await again.send({"type": "hello", "v": 1, "key": ann.key})
    await again.expect("welcome")
    assert (await again.expect("person"))["id"] == me["id"]
    await again.send({"type": "hello", "v": 1, "key": "NOT-A-KEY"})
    await again.expect("welcome")
    await again.error("bad_key")
    sniff([ann, phone, other, third, again], server)


def test_device_code_resume_and_sign_out(server):
    run(devices(server.url, server))


async def limits(url):
    """5 new people a minute per address; 10 tries of a code per 10 minutes
    per address, failed tries counted; 5 codes per 10 minutes per person."""
    cs = []
    for i in range(6):
        c = Person("P%d" % i)
        await c.connect(url)
        await c.hello_key()
        cs.append(c)
    for c in cs[:5]:
        await c.sign_up()
    await cs[5].send({"type": "person_new", "name": "P5"})
    await cs[5].error("rate")
    for i in range(5):
        await cs[0].send({"type": "device_code"})
        await cs[0].expect("device_code")
    await cs[0].send({"type": "device_code"})
    await cs[0].error("rate")
    for i in range(10):
        await cs[5].send({"type": "redeem", "code": "ABCD234%d" % (i % 8 + 2)})
        await cs[5].error("bad_code")
    await cs[5].send({"type": "redeem", "code": "ABCD2345"})
    await cs[5].error("rate")


def test_limits(server):
    run(limits(server.url))


def sqlite_rows(path, sql, args=()):
    con = sqlite3.connect(path)
    try:
        rows = con.execute(sql, args).fetchall()
        con.commit()
        return rows
    finally:
        con.close()


async def forget(url, server):
    """A person alone with bots plays a rated game to its end, then forgets
    themselves."""
    me, ann = await rated_game_with_bots(url, 3)
    table = ann.table
    await ann.send({"type": "device_code"})
    await ann.expect("device_code")
    other = Person("Ann")   # another device of hers, signed in too
    await other.connect(url)
    await other.hello_key(ann.key)
    await other.expect("person")
    await ann.send({"type": "forget_me"})
    await ann.expect("forgotten")
    await other.expect("forgotten")
    await ann.send({"type": "device_code"})
    await ann.error("not_signed_in")
    # the table in memory: her seat is anonymous now
    spy = Person("Spy")
    await spy.connect(url)
    await spy.hello_key()
    await spy.send({"type": "spectate", "table": table})
    snap = await spy.expect("snapshot")
    assert snap["seats"][0]["name"] == "Anonymous"
    sniff([ann, other, spy], server)
    return me, table, ann


def test_forget_me_removes_everything(server, data):
    me, table, ann = run_long(forget(server.url, server))
    assert fetch(server, "/api/people/%s" % me["id"])[0] == 404
    assert fetch(server, "/api/people/%s/games/0.fgn" % me["id"])[0] == 404

    async def key_gone():
        c = Person("X")
        await c.connect(server.url)
        await c.send({"type": "hello", "v": 1, "key": ann.key})
        await c.expect("welcome")
        await c.error("bad_key")
    run(key_gone())
    server.stop()
    path = os.path.join(data, "figaro.sqlite")
    assert os.path.exists(path), os.listdir(data)
    tables = [r[0] for r in sqlite_rows(path, "SELECT name FROM sqlite_master WHERE type='table'")]
    for t in ("people", "person_keys", "device_codes", "played", "records"):
        assert t in tables
    assert sqlite_rows(path, "SELECT count(*) FROM people") == [(0,)]
    assert sqlite_rows(path, "SELECT count(*) FROM person_keys") == [(0,)]
    assert sqlite_rows(path, "SELECT count(*) FROM device_codes") == [(0,)]
    assert sqlite_rows(path, "SELECT count(*) FROM played") == [(0,)]
    assert sqlite_rows(path, "SELECT count(*) FROM records") == [(0,)]
    assert sqlite_rows(path, "SELECT count(*) FROM seats WHERE person IS NOT NULL") == [(0,)]
    names = [r[0] for r in sqlite_rows(path, "SELECT name FROM seats WHERE code = ?", (table,))]
    assert "Anonymous" in names and "Ann" not in names
    assert sqlite_rows(path, "SELECT count(*) FROM seats WHERE name = 'Ann'") == [(0,)]


# A name no other text of the tests holds: found nowhere once forgotten.
FORGOTTEN_NAME = "Quillon"


async def until_frame(c, ok, seconds):
    """The first frame c gets for which ok(frame) holds, within `seconds`."""
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        assert left > 0, "%s: nothing such in %d s" % (c.name, seconds)
        try:
            m = await c.recv(left)
        except asyncio.TimeoutError:
            raise AssertionError("%s: nothing such in %d s" % (c.name, seconds))
        if ok(m):
            return m


async def forgotten_elsewhere(srv, forget, seconds=10):
    """Quillon and Bob, signed in, play at a table of the server srv with
    an easy bot; Quillon is forgotten by another process (forget(quillon):
    the operator's command, or forget_me on another server). Within
    `seconds` her connection here is told `forgotten` and Bob sees her seat
    named Anonymous; a spectator's snapshot names her nowhere; the game goes
    on to its end and she votes for a rematch (her seat's row written
    again). Returns (quillon, bob)."""
    url = srv.url
    ann, bob = Person(FORGOTTEN_NAME), Person("Bob")
    for c in (ann, bob):
        await c.connect(url)
        await c.hello_key()
        await c.sign_up()
    table, _ = await at_table([ann, bob], [
        {"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}])
    rng = random.Random(31)
    await play([ann, bob], rng, stop_after=3)
    await forget(ann)
    await until_frame(ann, lambda m: m["type"] == "forgotten", seconds)
    news = await until_frame(bob, lambda m: m["type"] == "event" and m["kind"] == "seat"
                             and m["news"] == "forgotten", seconds)
    assert news["seat"] == ann.seat and news["name"] == "Anonymous", news
    assert news["seats"][ann.seat]["name"] == "Anonymous"
    told = len(bob.frames) - 1   # from the news on, no frame names her
    spy = Person("Spy")
    await spy.connect(url)
    await spy.hello_key()
    await spy.send({"type": "spectate", "table": table})
    snap = await spy.expect("snapshot")
    assert snap["seats"][ann.seat]["name"] == "Anonymous"
    assert FORGOTTEN_NAME not in json.dumps(snap)   # nor in the story of the game so far
    await play([ann, bob], rng)
    await ann.send({"type": "rematch", "table": table, "game": 1})
    await until_frame(bob, lambda m: m["type"] == "event" and m["kind"] == "rematch"
                      and m["seat"] == ann.seat, seconds)
    assert FORGOTTEN_NAME not in json.dumps(bob.frames[told:])
    sniff([ann, bob, spy], srv)
    return ann, bob


def sqlite_holds(path, text):
    """The tables of the SQLite file whose rows hold text."""
    found = []
    for (t,) in sqlite_rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'"):
        if any(text in json.dumps(r) for r in sqlite_rows(path, "SELECT * FROM %s" % t)):
            found.append(t)
    return found


def test_removed_by_the_operator_while_the_server_runs(server, data):
    """`figaro people remove` while the person sits at a running table: the
    server follows within seconds (forgotten_elsewhere), and no later write
    of the table brings her name back into the SQLite file."""
    async def remove(ann):
        r = subprocess.run([figaro_cmd(), "people", "--data", data, "remove",
                            ann.person["id"]], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30)
        assert r.returncode == 0, r.stderr

    ann, bob = run_long(forgotten_elsewhere(server, remove))
    assert fetch(server, "/api/people/%s" % ann.person["id"])[0] == 404
    assert fetch(server, "/api/people/%s" % bob.person["id"])[0] == 200
    server.stop()
    path = os.path.join(data, "figaro.sqlite")
    assert sqlite_rows(path, "SELECT count(*) FROM played WHERE person = ?",
                       (bob.person["id"],)) == [(1,)]   # Bob's game kept, her name not
    assert sqlite_holds(path, FORGOTTEN_NAME) == []
    assert sqlite_holds(path, ann.person["id"]) == ["forgotten"]   # the log alone


def test_rating_survives_sigkill(data):
    """A rating is told only once the game's end and the rating are stored
    together: a SIGKILL right after `rated` loses neither."""
    srv = Server(data)

    async def go():
        return await rated_game_with_bots(srv.url, 5)

    try:
        me, ann = run_long(go())
    finally:
        srv.kill()
    srv = Server(data)
    try:
        st, body = fetch(srv, "/api/people/%s" % me["id"])
        assert st == 200
        page = json.loads(body)
        r = ann.rated[0]
        assert page["rated"] == 1 and page["mu"] == r["mu"] and page["sigma"] == r["sigma"]
        assert [g["table"] for g in page["games"]] == [ann.table]
        assert fetch(srv, ann.record)[1] == fetch(srv, page["games"][0]["record"])[1]

        async def back():
            c = Person("Ann")
            await c.connect(srv.url)
            await c.hello_key(ann.key)
            p = await c.expect("person")
            assert p["id"] == me["id"] and p["mu"] == r["mu"]
        run(back())
    finally:
        srv.stop()


def leaver_survives_sigkill(start_first, start_second, points):
    """Ann and Bob signed in, two easy bots; Bob leaves mid-game, the
    server start_first() made is killed (SIGKILL), and the one
    start_second() makes (the same again on the same storage, or another
    that takes the table over) ends the game with Ann: Bob ranks last and
    is rated as the second implementation says, and no frame to Ann names
    his id. Returns Bob's id."""
    rng = random.Random(13)
    srv = start_first()

    async def until_left():
        ann, bob = Person("Ann"), Person("Bob")
        for c in (ann, bob):
            await c.connect(srv.url)
            await c.hello_key()
            await c.sign_up()
        table, _ = await at_table([ann, bob], [
            {"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"}])
        await play([ann, bob], rng, stop_after=4)
        await bob.send({"type": "leave", "table": table})
        await bob.expect("left")   # stored
        return ann, bob

    try:
        ann, bob = run_long(until_left())
    finally:
        srv.kill()
    bseat = [f for f in bob.frames if f["type"] == "seated"][-1]["seat"]
    srv = start_second()
    try:
        async def end_it():
            ann.frames = []
            while True:   # `moved` while the dead server's lease runs (PostgreSQL)
                await ann.connect(srv.url)
                await ann.send({"type": "hello", "v": 1, "key": ann.key, "seats": [
                    {"table": ann.table, "token": ann.token,
                     "since": {"epoch": ann.epoch, "n": ann.n}}]})
                m = await ann.recv()
                while m["type"] not in ("seated", "error"):
                    m = await ann.recv()
                if m["type"] == "seated":
                    break
                assert m["code"] == "moved", m
                await ann.ws.close()
                await asyncio.sleep(0.25)
            snap = await ann.expect("snapshot")
            assert snap["seats"][bseat]["kind"] == "open"
            assert snap["seats"][bseat].get("name") != "Bob"
            await play([ann], rng)
            while not ann.rated:
                await ann.recv()
        run_long(end_it())
        st, body = fetch(srv, "/api/people/%s" % bob.person["id"])
        assert st == 200
        page = json.loads(body)
        assert page["rated"] == 1 and len(page["games"]) == 1
        g = page["games"][0]
        assert g["rated"] and g["seat"] == bseat and g["place"] == 4
        seats = []
        for x in g["seats"]:
            bot = x["kind"] == "bot"
            mu, sigma = points["easy"] if bot else (MU0, SIGMA0)
            seats.append({"mu": mu, "sigma": sigma, "rank": x["place"], "fixed": bot})
        assert [x["kind"] for x in g["seats"]].count("person") == 1   # Ann
        want = update(seats)[bseat]
        assert page["mu"] == pytest.approx(want[0], abs=1e-9) and page["mu"] < MU0
        assert page["sigma"] == pytest.approx(want[1], abs=1e-9)
        mine = json.loads(fetch(srv, "/api/people/%s" % ann.person["id"])[1])["games"][0]
        assert mine["seats"][bseat]["kind"] == "person" and mine["place"] < 4
        assert bob.person["id"] not in json.dumps(ann.frames)   # an open seat names nobody
        sniff([ann, bob], srv)
        return bob.person["id"]
    finally:
        srv.stop()


def test_leaver_survives_sigkill(data):
    leaver_survives_sigkill(lambda: Server(data), lambda: Server(data), level_points())
